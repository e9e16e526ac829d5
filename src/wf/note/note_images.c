/* image_planner_agent and image_agent (seed 001 §2, §5.2, §6). The planner
 * writes one plan per image the layout asked for, each bound to the
 * paragraph it illustrates (alignment_map_ready), and pauses (kind
 * image_plans) with the plans as the editable field: approve goes on,
 * reject plans again with the feedback done item by item or declined by
 * name (note_plans_feedback.h; the next pause carries the report as
 * context.feedback), modify takes the edited plans. The
 * image agent makes every planned image at once (the provider runs them
 * in parallel where it can), streams image_progress per task, stores each
 * image as an asset and records its id; a task that fails is recorded
 * with its errorMessage and the review still runs. When work comes back
 * to it, only the images that failed or whose plan changed are made
 * again, or all of them when the review found the set inconsistent.
 * Its tools (seed 001 §8) are tool_call / tool_result pairs: with a
 * reference image (the first style reference that can be read, sent to
 * the provider with each plan) generate_with_reference per plan; without
 * one, generateImage for a single plan, generate_images_batch for
 * several; each result names the assets made or the error. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "conf/conf.h"
#include "media/imgin.h"
#include "prov/prov.h"
#include "util/clock.h"
#include "util/xmalloc.h"
#include "text/msg.h"
#include "wf/note/note.h"
#include "wf/note/note_plans_feedback.h"
#include "util/jnum.h"

#define NOTE_PROMPT_MAX 4000

/* ---- image_planner_agent ---- */

static json_int_t note_count_of(const json_t *st, const char *obj, const char *key)
{
	return json_integer_value(json_object_get(json_object_get(st, obj), key));
}

static const json_t *note_par_of(const json_t *pars, const json_t *plan)
{
	const char *id = json_string_value(json_object_get(plan, "paragraphId"));
	const json_t *idx = json_object_get(plan, "paragraphIndex"), *p;
	size_t i;

	json_array_foreach(pars, i, p)
		if (id && strcmp(json_string_value(json_object_get(p, "id")) ?: "", id) == 0)
			return p;
	if (json_is_integer(idx) && json_integer_value(idx) >= 0)
		return json_array_get(pars, (size_t)json_integer_value(idx));
	return NULL;
}

/* Plans with a prompt each, numbered 1..n in order, each bound to an
 * existing paragraph (the first when it names none). NULL when unusable. */
static json_t *note_plans_clean(const json_t *plans, const json_t *pars)
{
	json_t *out, *pl;
	size_t i;

	if (!json_is_array(plans) || json_array_size(plans) == 0 || json_array_size(plans) > NOTE_MAX_PLANS)
		return NULL;
	out = json_array();
	json_array_foreach(plans, i, pl) {
		const char *prompt = json_string_value(json_object_get(pl, "prompt"));
		const json_t *par = note_par_of(pars, pl);

		if (prompt == NULL || *prompt == '\0' || strlen(prompt) > NOTE_PROMPT_MAX) {
			json_decref(out);
			return NULL;
		}
		if (par == NULL)
			par = json_array_get(pars, 0);
		json_array_append_new(out, json_pack("{s:I, s:s, s:s, s:O, s:O, s:s}", "sequence",
			(json_int_t)i + 1, "role", json_string_value(json_object_get(pl, "role")) ?: "content",
			"description", json_string_value(json_object_get(pl, "description")) ?: "",
			"paragraphId", json_object_get(par, "id") ?: json_null(), "paragraphIndex",
			json_object_get(par, "index") ?: json_null(), "prompt", prompt));
	}
	return out;
}

static json_t *note_bindings(const json_t *plans)
{
	json_t *out = json_array(), *pl;
	size_t i;

	json_array_foreach(plans, i, pl)
		json_array_append_new(out, json_pack("{s:O, s:O, s:O}", "paragraphId",
			json_object_get(pl, "paragraphId"), "paragraphIndex",
			json_object_get(pl, "paragraphIndex"), "imageSeq", json_object_get(pl, "sequence")));
	return out;
}

static json_t *note_plan_facts(const json_t *st, const char *feedback)
{
	const json_t *an = json_array_get(json_object_get(st, "referenceAnalyses"), 0);
	json_t *f = json_pack("{s:O, s:s, s:O, s:O, s:O, s:O, s:I}", "title",
		json_object_get(json_object_get(st, "generatedContent"), "title"), "topic",
		note_str(st, "topic") ?: "", "paragraphs", json_object_get(st, "bodyBlocks"),
		"layoutSpec", json_object_get(st, "layoutSpec"), "textOverlayPlan",
		json_object_get(st, "textOverlayPlan"), "canvas", json_object_get(st, "canvas"), "attempt",
		note_count_of(st, "attempts", "image_planner_agent"));

	if (json_is_array(json_object_get(json_object_get(an, "styleTokens"), "colorPalette")))
		json_object_set(f, "palette", json_object_get(json_object_get(an, "styleTokens"),
							      "colorPalette"));
	json_object_set(f, "keywords", json_object_get(json_object_get(st, "creativeBrief"), "keywords"));
	if (feedback)
		json_object_set_new(f, "feedback", json_string(feedback));
	json_object_set_new(f, "replies", note_user_replies(st));
	return f;
}

/* The plans pause; report (stolen, may be NULL): what was made of the
 * feedback of the last reject, item by item (context.feedback). */
static enum node_rc note_plans_pause(struct step_ctx *c, json_t *report)
{
	json_t *plans = json_object_get(c->state, "imagePlans");

	json_object_set_new(c->state, "pendingConfirmation", json_pack("{s:s, s:O, s:I}", "type",
		"image_plans", "data", plans, "timestamp", (json_int_t)clock_wall_ms()));
	c->interrupt = step_interrupt_new("image_plans", msg_get(step_lang(c), "note.ask.image_plans"),
					  "image_planner_agent",
					  json_pack("{s:O}", "imagePlans", plans));
	if (report) {
		json_object_set(json_object_get(c->state, "pendingConfirmation"), "feedback", report);
		json_object_set_new(c->interrupt, "context", json_pack("{s:o}", "feedback", report));
	}
	return NODE_INTERRUPT;
}

static void note_plans_set(struct step_ctx *c, json_t *plans)
{
	json_t *ev = note_event(c, "alignment_map_ready", NULL);

	json_object_set_new(c->state, "imagePlans", plans);
	json_object_set_new(c->state, "paragraphImageBindings", note_bindings(plans));
	json_object_set(ev, "imagePlans", plans);
	json_object_set(ev, "paragraphImageBindings", json_object_get(c->state, "paragraphImageBindings"));
	step_emit(c, ev);
}

/* The feedback's items made on the new plans (note_plans_feedback.h):
 * the plans bound to their paragraphs again, the layout's entries
 * following their pictures, what was asked of single pictures kept for
 * later plans (imagePlanAsks), one progress line per item. The report,
 * or NULL without items. */
static json_t *note_plans_items(struct step_ctx *c, json_t **plans, const json_t *items,
				const json_t *shown)
{
	struct note_plans_fb fb = { shown, json_object_get(c->state, "bodyBlocks"),
				    note_str(c->state, "topic"), step_lang(c), NOTE_MAX_PLANS };
	json_t *report, *v, *clean, *asks = json_object_get(c->state, "imagePlanAsks");
	size_t i;

	if (json_array_size(items) == 0)
		return NULL;
	if (!json_is_object(asks))
		json_object_set_new(c->state, "imagePlanAsks", asks = json_object());
	report = note_plans_feedback_apply(*plans, items, &fb);
	note_plans_feedback_remember(asks, *plans, items, report);
	json_object_set_new(c->state, "layoutSpec",
			    note_plans_feedback_rekey(json_object_get(c->state, "layoutSpec"), *plans, fb.pars));
	json_object_set_new(c->state, "textOverlayPlan",
			    note_plans_feedback_rekey(json_object_get(c->state, "textOverlayPlan"), *plans, fb.pars));
	clean = note_plans_clean(*plans, fb.pars);
	if (clean) {
		json_decref(*plans);
		*plans = clean;
	}
	json_array_foreach(report, i, v)
		note_progress(c, "%s", json_string_value(json_object_get(v, "said")));
	return report;
}

/* A reject whose every item was already true of the plans shown (the
 * style asked for is theirs already) would offer them again: the rules'
 * next compositions instead, with what the person asked of a picture
 * kept, and a line that says why they changed. Steals plans; returns
 * the plans to offer. */
static json_t *note_plans_other(struct step_ctx *c, json_t *plans, const json_t *shown)
{
	const json_t *pars = json_object_get(c->state, "bodyBlocks");
	json_t *facts = note_plan_facts(c->state, NULL), *j, *other;
	char err[256] = "";

	json_object_set_new(facts, "attempt",
			    json_integer(note_count_of(c->state, "attempts", "image_planner_agent") + 2));
	j = note_rules(c, "image_plans", facts, err, sizeof err);
	other = note_plans_clean(json_object_get(j, "imagePlans"), pars);
	json_decref(j);
	json_decref(facts);
	if (other == NULL)
		return plans;
	note_plans_feedback_keep(other, json_object_get(c->state, "imagePlanAsks"));
	if (json_equal(other, shown)) {
		json_decref(other);
		return plans;
	}
	note_tick(c, "note.plans.fb.recomposed");
	json_decref(plans);
	return other;
}

/* Plans for the layout; after a reject, feedback and its items (may be
 * NULL), made on the new plans, and shown the plans the person refused. */
static enum node_rc note_plans_draft(struct step_ctx *c, const char *feedback, const json_t *items,
				     const json_t *shown)
{
	static const char *const need[] = { "imagePlans", NULL };
	const json_t *pars = json_object_get(c->state, "bodyBlocks");
	json_t *facts = note_plan_facts(c->state, feedback), *j, *plans, *report;
	char err[256] = "";
	int rules = 0;

	if (json_array_size(items) && shown) {
		json_object_set(facts, "items", (json_t *)items);
		json_object_set(facts, "previous", (json_t *)shown);
	}
	j = note_ask(c, "image_plans", facts, need, &rules);
	if (j == NULL) {
		json_decref(facts);
		return note_to_supervisor(c);
	}
	plans = note_plans_clean(json_object_get(j, "imagePlans"), pars);
	json_decref(j);
	if (plans == NULL) {
		note_tick(c, "note.plans.rules");
		j = note_rules(c, "image_plans", facts, err, sizeof err);
		plans = note_plans_clean(json_object_get(j, "imagePlans"), pars);
		json_decref(j);
	}
	json_decref(facts);
	if (plans == NULL)
		return note_abort(c, "planner_failed", msg_error(step_lang(c), "planner_failed"));
	/* What the person asked of a picture before stays, whoever planned. */
	note_plans_feedback_keep(plans, json_object_get(c->state, "imagePlanAsks"));
	report = shown ? note_plans_items(c, &plans, items, shown) : NULL;
	if (shown && json_equal(plans, shown))
		plans = note_plans_other(c, plans, shown);
	note_plans_set(c, plans);
	note_say(c, "note.plans", json_array_size(plans));
	return note_plans_pause(c, report);
}

/* Edited plans over the current ones: a field left out keeps its value. */
static json_t *note_plans_edits(const json_t *cur, const json_t *edited, const json_t *pars)
{
	json_t *merged = json_array(), *pl, *out;
	size_t i;

	json_array_foreach(edited, i, pl) {
		json_t *m = json_is_object(json_array_get(cur, i)) ? json_deep_copy(json_array_get(cur, i))
								   : json_object();

		if (json_is_object(pl))
			json_object_update(m, pl);
		if (json_object_get(pl, "paragraphIndex") && !json_object_get(pl, "paragraphId"))
			json_object_del(m, "paragraphId");
		json_array_append_new(merged, m);
	}
	out = note_plans_clean(merged, pars);
	json_decref(merged);
	return out;
}

/* A reject: plans again, the feedback's items made on them. */
static enum node_rc note_plans_redraft(struct step_ctx *c, const char *feedback)
{
	json_t *items = note_plans_feedback_split(feedback);
	json_t *shown = json_incref(json_object_get(c->state, "imagePlans"));
	enum node_rc rc = note_plans_draft(c, feedback, items, shown);

	json_decref(items);
	json_decref(shown);
	return rc;
}

static enum node_rc note_plans_decide(struct step_ctx *c, const char *action)
{
	const json_t *payload = json_object_get(c->resume, "payload");
	json_int_t n;
	json_t *plans;

	json_object_set_new(c->state, "pendingConfirmation", json_null());
	if (note_feedback(c))
		note_push_message(c->state, "user", note_feedback(c));
	if (strcmp(action, "reject") == 0) {
		n = note_count_of(c->state, "regenerations", "image_plans") + 1;
		if (n > NOTE_MAX_REGENERATIONS)
			return note_quality_pause(c, "regeneration_limit");
		json_object_set_new(json_object_get(c->state, "regenerations"), "image_plans", json_integer(n));
		json_object_set_new(json_object_get(c->state, "attempts"), "image_planner_agent",
			json_integer(note_count_of(c->state, "attempts", "image_planner_agent") + 1));
		return note_plans_redraft(c, note_feedback(c));
	}
	if (strcmp(action, "modify") == 0) {
		plans = note_plans_edits(json_object_get(c->state, "imagePlans"),
					 json_object_get(payload, "imagePlans"),
					 json_object_get(c->state, "bodyBlocks"));
		if (plans == NULL) {
			note_say(c, "note.plans.edit_failed", NOTE_MAX_PLANS);
			return note_plans_pause(c, NULL);
		}
		note_plans_set(c, plans);
		note_say(c, "note.plans.edited", json_array_size(plans));
	} else {
		note_say(c, "note.plans.confirmed");
	}
	note_set_flag(c->state, "imagePlanComplete", 1);
	return note_supervise(c, NULL);
}

enum node_rc note_image_planner(struct step_ctx *c)
{
	const char *action = note_decision(c, "image_plans");

	char *hint;
	enum node_rc rc;

	if (action)
		return note_plans_decide(c, action);
	hint = note_review_hint(c->state, "image_planner_agent");
	rc = note_plans_draft(c, hint, NULL, NULL);
	free(hint);
	return rc;
}

/* ---- image_agent ---- */

struct note_gen {
	struct step_ctx *c;
	json_int_t seq[NOTE_MAX_PLANS];     /* the plan sequence of each call */
	const json_t *plan[NOTE_MAX_PLANS];
	size_t n;
};

static void note_gen_progress(void *ctx, int task, const char *status, double progress)
{
	struct note_gen *g = ctx;
	json_t *ev;

	if (task < 0 || (size_t)task >= g->n)
		return;
	ev = note_event(g->c, "image_progress", NULL);
	json_object_set_new(ev, "taskId", json_integer(g->seq[task]));
	json_object_set_new(ev, "status", json_string(status));
	json_object_set_new(ev, "progress", jnum_real(progress, JNUM_SCORE));
	json_object_set_new(ev, "url", json_null());
	json_object_set_new(ev, "errorMessage", json_null());
	step_emit_live(g->c, ev);
}

static void note_gen_tick(void *ctx)
{
	step_keepalive(((struct note_gen *)ctx)->c);
}

/* The image made before for this plan, when it still stands. */
static const json_t *note_kept(const json_t *st, const json_t *plan, int redo_all)
{
	const json_t *im;
	size_t i;

	if (redo_all)
		return NULL;
	json_array_foreach(json_object_get(st, "generatedImages"), i, im)
		if (json_equal(json_object_get(im, "sequence"), json_object_get(plan, "sequence")) &&
		    json_equal(json_object_get(im, "prompt"), json_object_get(plan, "prompt")) &&
		    strcmp(json_string_value(json_object_get(im, "status")) ?: "", "done") == 0)
			return im;
	return NULL;
}

/* The durable image_progress of a finished task, and its record. */
static json_t *note_gen_record(struct step_ctx *c, const json_t *plan, struct prov_answer *a)
{
	json_t *ev = note_event(c, "image_progress", NULL), *rec;
	char id[64], url[128], msg[320];

	rec = json_pack("{s:O, s:O}", "sequence", json_object_get(plan, "sequence"), "prompt",
			json_object_get(plan, "prompt"));
	if (a->status == PROV_OK && step_asset_put(c, a->mime, a->data, a->len, id, sizeof id) == 0) {
		snprintf(url, sizeof url, "api/assets/%s", id);
		json_object_set_new(rec, "status", json_string("done"));
		json_object_set_new(rec, "assetId", json_string(id));
		json_object_set_new(rec, "url", json_string(url));
		json_object_set_new(rec, "mime", json_string(a->mime));
		json_object_set_new(rec, "errorMessage", json_null());
	} else {
		snprintf(msg, sizeof msg, "%s: %s", a->status == PROV_OK ? "store" : prov_status_name(a->status),
			 a->status == PROV_OK ? "the image could not be stored" : a->error);
		json_object_set_new(rec, "status", json_string("failed"));
		json_object_set_new(rec, "assetId", json_null());
		json_object_set_new(rec, "url", json_null());
		json_object_set_new(rec, "errorMessage", json_string(msg));
	}
	json_object_set(ev, "taskId", json_object_get(plan, "sequence"));
	json_object_set(ev, "status", json_object_get(rec, "status"));
	json_object_set_new(ev, "progress", json_real(1.0));
	json_object_set(ev, "url", json_object_get(rec, "url"));
	json_object_set(ev, "errorMessage", json_object_get(rec, "errorMessage"));
	step_emit(c, ev);
	return rec;
}

/* The reference the pictures follow: the first style reference that
 * loads and passes the limits, else the first other one. 0 with *im
 * filled, or -1 (none given or none readable; why says which). */
static int note_gen_ref(struct step_ctx *c, struct imgin *im, const char **url, char *why, size_t n)
{
	const struct conf *cf = step_conf(c);
	const json_t *inputs = json_object_get(c->state, "referenceInputs"), *in;
	long long budget = cf->reference_max_pixel_bytes;
	size_t i;

	*why = '\0';
	for (int style = 1; style >= 0; style--)
		json_array_foreach(inputs, i, in) {
			const char *u = json_string_value(json_object_get(in, "url")) ?: "";

			const char *type = json_string_value(json_object_get(in, "type")) ?: "style";

			if ((strcmp(type, "style") == 0) != style)
				continue;
			if (imgin_load(step_store(c), cf, u, (size_t)cf->fetch_max_bytes, im) < 0) {
				snprintf(why, n, "%s", im->error);
				continue;
			}
			if (imgin_png_check(im, cf->reference_max_side, &budget) != 0) {
				snprintf(why, n, "%s", im->error);
				imgin_free(im);
				continue;
			}
			*url = u;
			return 0;
		}
	return -1;
}

/* The tool of the run (seed 001 §8): each plan with the reference, one
 * plan alone, or the plans as one batch. */
static const char *note_gen_tool(const struct note_gen *g, int ref)
{
	if (ref)
		return "generate_with_reference";
	return g->n == 1 ? "generateImage" : "generate_images_batch";
}

static json_t *note_gen_size(const struct image_call *call)
{
	return json_pack("{s:i, s:i}", "width", call->width, "height", call->height);
}

static void note_gen_calls(struct note_gen *g, struct note_tool *t, const struct image_call *calls,
			   const char *ref_url, char ids[][96])
{
	const char *tool = note_gen_tool(g, ref_url != NULL);
	json_t *plans;

	if (ref_url || g->n == 1) {
		for (size_t i = 0; i < g->n; i++) {
			json_t *in = json_pack("{s:I, s:s, s:o}", "sequence", g->seq[i], "prompt",
					       calls[i].prompt, "size", note_gen_size(&calls[i]));

			if (ref_url)
				json_object_set_new(in, "referenceImage", json_string(ref_url));
			note_tool_call(t, NULL, tool, in);
			memcpy(ids[i], t->id, sizeof t->id);
		}
		return;
	}
	plans = json_array();
	for (size_t i = 0; i < g->n; i++)
		json_array_append_new(plans, json_pack("{s:I, s:s}", "sequence", g->seq[i], "prompt",
						       calls[i].prompt));
	note_tool_call(t, NULL, tool, json_pack("{s:o, s:o}", "plans", plans, "size",
						note_gen_size(&calls[0])));
}

static json_t *note_gen_output(const json_t *rec, const struct prov_answer *a, int ref)
{
	json_t *o = json_pack("{s:O, s:O, s:O, s:O, s:O}", "sequence", json_object_get(rec, "sequence"),
		"status", json_object_get(rec, "status"), "assetId", json_object_get(rec, "assetId"),
		"url", json_object_get(rec, "url"), "errorMessage", json_object_get(rec, "errorMessage"));

	if (ref) {
		json_object_set_new(o, "referenceUsed", json_boolean(a->ref_used));
		if (!a->ref_used && a->ref_note[0])
			json_object_set_new(o, "referenceNote", json_string(a->ref_note));
	}
	return o;
}

static void note_gen_results(struct note_gen *g, struct note_tool *t, json_t **records,
			     const struct prov_answer *out, int ref, char ids[][96])
{
	const char *tool = note_gen_tool(g, ref);
	json_t *images;
	size_t done = 0;

	if (ref || g->n == 1) {
		for (size_t i = 0; i < g->n; i++)
			note_tool_result_id(g->c, NULL, tool, ids[i],
					    note_gen_output(records[i], &out[i], ref));
		return;
	}
	images = json_array();
	for (size_t i = 0; i < g->n; i++) {
		json_array_append_new(images, note_gen_output(records[i], &out[i], 0));
		done += json_is_string(json_object_get(records[i], "assetId"));
	}
	note_tool_result(t, NULL, tool, json_pack("{s:o, s:I, s:I}", "images", images, "done",
						  (json_int_t)done, "failed", (json_int_t)(g->n - done)));
}

/* Runs the calls of g at once, each a tool call; records[i] for g->plan[i]. */
static void note_gen_run(struct note_gen *g, json_t **records, const char *suffix)
{
	const struct conf *cf = step_conf(g->c);
	const json_t *canvas = json_object_get(g->c->state, "canvas");
	struct image_call calls[NOTE_MAX_PLANS];
	struct prov_answer out[NOTE_MAX_PLANS];
	char *prompts[NOTE_MAX_PLANS], ids[NOTE_MAX_PLANS][96], why[256];
	struct prov_hooks h = { NULL, note_gen_progress, note_gen_tick, g, NULL };
	struct note_tool t = { g->c, 0, "" };
	const char *ref_url = NULL;
	struct imgin ref;
	int has_ref = note_gen_ref(g->c, &ref, &ref_url, why, sizeof why) == 0;

	if (!has_ref && why[0])
		note_tick(g->c, "note.ref.unreadable", why);
	for (size_t i = 0; i < g->n; i++) {
		prompts[i] = xasprintf("%s%s", json_string_value(json_object_get(g->plan[i], "prompt")),
				       suffix ? suffix : "");
		calls[i] = (struct image_call){ .prompt = prompts[i],
			.width = (int)json_integer_value(json_object_get(canvas, "width")),
			.height = (int)json_integer_value(json_object_get(canvas, "height")),
			.ref = has_ref ? ref.data : NULL, .ref_len = has_ref ? ref.len : 0,
			.ref_mime = has_ref ? ref.mime : NULL,
			.timeout_ms = cf->prov[PROV_IMAGE].timeout_ms };
		prov_answer_init(&out[i]);
	}
	note_gen_calls(g, &t, calls, has_ref ? ref_url : NULL, ids);
	g->c->deadline_ms = clock_mono_ms() + cf->prov[PROV_IMAGE].timeout_ms * 2 + 5000;
	prov_image_many(step_prov(g->c), calls, g->n, &h, out);
	for (size_t i = 0; i < g->n; i++)
		records[i] = note_gen_record(g->c, g->plan[i], &out[i]);
	note_gen_results(g, &t, records, out, has_ref, ids);
	for (size_t i = 0; i < g->n; i++) {
		prov_answer_free(&out[i]);
		free(prompts[i]);
	}
	if (has_ref)
		imgin_free(&ref);
}

static void note_images_state(json_t *st, json_t *images)
{
	json_t *ids = json_array(), *urls = json_array(), *im;
	size_t i;

	json_array_foreach(images, i, im)
		if (json_is_string(json_object_get(im, "assetId"))) {
			json_array_append(ids, json_object_get(im, "assetId"));
			json_array_append(urls, json_object_get(im, "url"));
		}
	json_object_set_new(st, "generatedImages", images);
	json_object_set_new(st, "generatedImageAssetIds", ids);
	json_object_set_new(st, "generatedImagePaths", urls);
	note_creative_sync(st);
}

enum node_rc note_image(struct step_ctx *c)
{
	const json_t *plans = json_object_get(c->state, "imagePlans"), *pl;
	const json_t *fb = json_object_get(c->state, "reviewFeedback");
	int all = strcmp(json_string_value(json_object_get(fb, "dimension")) ?: "", "styleConsistency") == 0 &&
		  strcmp(json_string_value(json_object_get(fb, "rerouteTarget")) ?: "", "image_agent") == 0;
	struct note_gen g = { .c = c };
	json_t *records[NOTE_MAX_PLANS] = { 0 }, *images = json_array();
	size_t i, k = 0, done = 0;

	json_array_foreach(plans, i, pl)
		if (i < NOTE_MAX_PLANS && note_kept(c->state, pl, all) == NULL) {
			g.seq[g.n] = json_integer_value(json_object_get(pl, "sequence"));
			g.plan[g.n++] = pl;
		}
	note_tick(c, "note.images.start", g.n);
	if (g.n > 0)
		note_gen_run(&g, records, all ? "，整组统一色调与画风" : NULL);
	json_array_foreach(plans, i, pl) {
		const json_t *kept = note_kept(c->state, pl, all);

		if (i >= NOTE_MAX_PLANS)
			break;
		json_array_append_new(images, kept ? json_deep_copy(kept) : records[k++]);
	}
	note_images_state(c->state, images);
	json_array_foreach(images, i, pl)
		done += strcmp(json_string_value(json_object_get(pl, "status")) ?: "", "done") == 0;
	if (done < json_array_size(images))
		note_say(c, "note.images.failed", done, json_array_size(images),
			     json_array_size(images) - done);
	else
		note_say(c, "note.images.done", done, json_array_size(images));
	note_set_flag(c->state, "imagesComplete", 1);
	return note_supervise(c, NULL);
}
