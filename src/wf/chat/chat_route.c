/* The router (seed 004 §1, §6.1): the model's route first, as JSON
 * {route, confidence, reason}; a model that fails, a reply that does not
 * parse, a confidence below [workflow.chat] route_min_confidence or a
 * route whose feature is off falls back to the intent rules (wf/intents.h)
 * in the seed's order, each route behind its gate. Every turn says why in
 * an intent_detected event. */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "conf/conf.h"
#include "prov/prov.h"
#include "prov/vendors.h"
#include "text/msg.h"
#include "util/jnum.h"
#include "wf/chat/chat_common.h"
#include "wf/chat/chat_rules.h"
#include "wf/intents.h"

#define CHAT_ROUTE_TIMEOUT_MS 15000

static const char chat_route_prompt[] =
	"你是一个意图路由器。根据用户最后一条消息，从四个路由中选择一个：\n"
	"image_gen（用户要求生成、绘制一张新图片）、web_search（需要联网获取实时信息：新闻、天气、价格、"
	"最近发生的事）、time_query（询问当前时间、日期、星期、时间戳）、chat（其他一切，包括写作、代码、"
	"图表、回忆之前的图片）。\n"
	"只返回 JSON：{\"route\": \"image_gen\" | \"web_search\" | \"time_query\" | \"chat\", "
	"\"confidence\": 0.0-1.0, \"reason\": \"简短理由\"}";

static const char *const chat_routes[] = { "image_gen", "web_search", "time_query", "chat" };

static const char *chat_route_known(const char *r)
{
	for (size_t i = 0; r && i < sizeof chat_routes / sizeof chat_routes[0]; i++)
		if (strcmp(r, chat_routes[i]) == 0)
			return chat_routes[i];
	return NULL;
}

static int chat_route_open(const char *route, const struct chat_gates *g)
{
	if (strcmp(route, "image_gen") == 0)
		return g->image;
	if (strcmp(route, "web_search") == 0)
		return g->search;
	return 1;
}

struct chat_route chat_route_pick(const json_t *model, const char *text, double min_conf,
				  const struct chat_gates *g)
{
	const char *route = chat_route_known(json_string_value(json_object_get(model, "route")));
	const json_t *cj = json_object_get(model, "confidence");
	double conf = json_is_number(cj) ? json_number_value(cj) : -1.0;
	const char *fallback = NULL;
	struct chat_route r;

	if (model == NULL || route == NULL || conf < 0.0 || conf > 1.0)
		fallback = model == NULL ? "chat.route.model_failed" : "chat.route.model_bad";
	else if (conf < min_conf)
		fallback = "chat.route.model_unsure";
	else if (!chat_route_open(route, g))
		fallback = "chat.route.model_gated";
	if (fallback == NULL) {
		r = (struct chat_route){ route, conf, "model", NULL, NULL, NULL };
		return r;
	}
	r = chat_route_rules(text, g, min_conf);
	r.fallback = fallback;
	return r;
}

/* Offline a role is always usable; a real provider has its key (the
 * configuration refuses one without). */
static int chat_prov_usable(const struct conf *cf, enum conf_prov_role role)
{
	const struct conf_provider *p = &cf->prov[role];

	return !(prov_vendor_for(p->kind)->flags & PROV_NEEDS_KEY) || (p->api_key && p->api_key[0]);
}

struct chat_gates chat_gates_of(struct step_ctx *c)
{
	const struct conf *cf = step_conf(c);
	struct chat_gates g = { chat_conf(c)->image_gen && chat_prov_usable(cf, PROV_IMAGE),
				chat_conf(c)->web_search && chat_prov_usable(cf, PROV_SEARCH) };

	return g;
}

/* Asks the model. The parsed answer (new reference), or NULL; *by_rules
 * is set when the offline provider's rules answered. */
static json_t *chat_route_ask(struct step_ctx *c, const struct chat_gates *g, int *by_rules)
{
	json_t *facts = json_pack("{s:s, s:b, s:b, s:f}", "text", chat_text(c->state), "imageGen", g->image,
				  "webSearch", g->search, "minConfidence", chat_conf(c)->route_min_confidence);
	json_t *msgs = chat_messages(c, chat_route_prompt), *out = NULL;
	struct chat_call call = { .task = "route", .rules = chat_rules_route, .messages = msgs,
				  .facts = facts, .temperature = 0.0, .json_mode = 1,
				  .timeout_ms = CHAT_ROUTE_TIMEOUT_MS };
	struct prov_answer a;

	step_chat(c, &call, &a);
	*by_rules = a.by_rules;
	if (a.status == PROV_OK && json_is_object(a.json))
		out = json_incref(a.json);
	else if (a.status != PROV_OK)
		step_thought(c, "chat.route.model_error", prov_status_name(a.status));
	prov_answer_free(&a);
	json_decref(msgs);
	json_decref(facts);
	return out;
}

static void chat_route_emit(struct step_ctx *c, const struct chat_route *r, const json_t *model)
{
	const char *lang = step_lang(c);
	json_t *ev = step_event(c, "intent_detected");
	char *reason;

	if (r->why)
		reason = msg_fmt(lang, r->why, r->rule ? r->rule : "");
	else
		reason = strdup(json_string_value(json_object_get(model, "reason")) ?: "");
	json_object_set_new(ev, "route", json_string(r->route));
	json_object_set_new(ev, "confidence", jnum_real(r->confidence, JNUM_SCORE));
	json_object_set_new(ev, "source", json_string(r->source));
	json_object_set_new(ev, "reason", json_string(reason ? reason : ""));
	if (r->rule)
		json_object_set_new(ev, "rule", json_string(r->rule));
	json_object_set_new(c->state, "route", json_pack("{s:s, s:O, s:s, s:s}", "route", r->route,
			    "confidence", json_object_get(ev, "confidence"), "source", r->source,
			    "reason", reason ? reason : ""));
	step_emit(c, ev);
	free(reason);
}

/* A picture turn is not the router's (seed 004 §7.2): its pictures are
 * described, then searched for when the text asks for live facts. */
static enum node_rc chat_router_images(struct step_ctx *c, size_t n)
{
	struct chat_gates g = chat_gates_of(c);
	struct rules_match m = intents_search(chat_text(c->state));
	int search = g.search && m.matched;
	struct chat_route r = { search ? "web_search" : "chat", search ? m.confidence : 0.9, "rules",
				"chat.route.images", search ? m.rule : "images", NULL };
	char *reason = msg_fmt(step_lang(c), "chat.route.images", (int)n);
	json_t *ev = step_event(c, "intent_detected");

	json_object_set_new(ev, "route", json_string(r.route));
	json_object_set_new(ev, "confidence", jnum_real(r.confidence, JNUM_SCORE));
	json_object_set_new(ev, "source", json_string("rules"));
	json_object_set_new(ev, "reason", json_string(reason));
	json_object_set_new(ev, "rule", json_string(r.rule));
	json_object_set_new(c->state, "route", json_pack("{s:s, s:O, s:s, s:s}", "route", r.route,
			    "confidence", json_object_get(ev, "confidence"), "source", "rules",
			    "reason", reason));
	step_emit(c, ev);
	free(reason);
	c->next = "vision";
	return NODE_NEXT;
}

enum node_rc chat_router(struct step_ctx *c)
{
	struct chat_gates g = chat_gates_of(c);
	size_t nimg = json_array_size(json_object_get(json_object_get(c->state, "userInput"), "images"));
	int by_rules = 0;
	json_t *model;
	struct chat_route r;

	if (nimg > 0)
		return chat_router_images(c, nimg);
	model = chat_route_ask(c, &g, &by_rules);
	r = chat_route_pick(model, chat_text(c->state), chat_conf(c)->route_min_confidence, &g);

	/* The offline provider answers with the same rules: say so. */
	if (by_rules && strcmp(r.source, "model") == 0) {
		r.source = "rules";
		r.rule = json_string_value(json_object_get(model, "rule"));
	}
	if (r.fallback)
		step_thought(c, r.fallback, chat_conf(c)->route_min_confidence);
	chat_route_emit(c, &r, model);
	json_decref(model);
	c->next = strcmp(r.route, "chat") == 0 ? "chat" : r.route;
	return NODE_NEXT;
}
