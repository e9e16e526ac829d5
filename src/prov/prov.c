/* The provider set: which vendor answers each role, the calls' common
 * handling (answers initialised, JSON replies parsed the same way for
 * every vendor), and the reply-to-JSON extraction. */
#include "config.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "prov/prov.h"
#include "prov/vendors.h"
#include "util/log.h"
#include "util/scrub.h"
#include "util/xmalloc.h"

struct prov {
	const struct conf *c;
	const struct prov_vendor *v[PROV_NROLES];   /* the vendor of each role */
};

static const char *const prov_status_names[PROV_NSTATUS] = {
	"ok", "timeout", "rate_limited", "refused", "unavailable", "bad_answer", "too_large",
	"stopped",
};

static const char *const prov_status_messages[PROV_NSTATUS] = {
	"", "the model service did not answer in time",
	"the model service is rate limiting requests: try again later",
	"the model service refused the request", "the model service is not available",
	"the model service's answer could not be used", "the model service's answer is too large",
	"the call was stopped",
};

const char *prov_status_name(enum prov_status s)
{
	return s < PROV_NSTATUS ? prov_status_names[s] : "unknown";
}

const char *prov_status_message(enum prov_status s)
{
	return s < PROV_NSTATUS ? prov_status_messages[s] : "the model service failed";
}

void prov_answer_init(struct prov_answer *a)
{
	memset(a, 0, sizeof *a);
}

void prov_answer_free(struct prov_answer *a)
{
	free(a->text);
	json_decref(a->json);
	json_decref(a->usage);
	free(a->data);
	free(a->revised_prompt);
	json_decref(a->vectors);
	json_decref(a->tool_calls);
	prov_answer_init(a);
}

int prov_fail(struct prov_answer *a, enum prov_status s, const char *fmt, ...)
{
	va_list ap;

	a->status = s;
	snprintf(a->error, sizeof a->error, "%s", prov_status_message(s));
	va_start(ap, fmt);
	vsnprintf(a->detail, sizeof a->detail, fmt, ap);
	va_end(ap);
	return -1;
}

struct prov *prov_new(const struct conf *c)
{
	struct prov *p = xcalloc(1, sizeof *p);

	p->c = c;
	for (int r = 0; r < PROV_NROLES; r++)
		p->v[r] = prov_vendor_for(c->prov[r].kind);
	return p;
}

void prov_free(struct prov *p)
{
	free(p);
}

const struct conf *prov_conf(const struct prov *p)
{
	return p->c;
}

const char *prov_kind(const struct prov *p, enum conf_prov_role r)
{
	return p->v[r]->name;
}

/* Skips a ```lang fence line. */
static const char *prov_unfence(const char *t, const char **end)
{
	const char *open = strstr(t, "```"), *close;

	if (open == NULL)
		return NULL;
	open = strchr(open, '\n');
	if (open == NULL)
		return NULL;
	close = strstr(open + 1, "```");
	*end = close ? close : open + strlen(open);
	return open + 1;
}

json_t *prov_json_from_text(const char *text)
{
	const char *start, *end = NULL, *first, *last;
	json_t *j;

	if (text == NULL)
		return NULL;
	j = json_loads(text, JSON_REJECT_DUPLICATES, NULL);
	if (json_is_object(j))
		return j;
	json_decref(j);
	start = prov_unfence(text, &end);
	if (start) {
		j = json_loadb(start, (size_t)(end - start), JSON_REJECT_DUPLICATES, NULL);
		if (json_is_object(j))
			return j;
		json_decref(j);
	}
	/* The outermost braces of prose around an object. */
	first = strchr(text, '{');
	last = strrchr(text, '}');
	if (first && last && last > first) {
		j = json_loadb(first, (size_t)(last - first + 1), JSON_REJECT_DUPLICATES, NULL);
		if (json_is_object(j))
			return j;
		json_decref(j);
	}
	return NULL;
}

/* Each failed answer's detail, scrubbed of the role's key, to the log:
 * clients only ever see the status and its generic message. */
static void prov_report(const struct prov *p, enum conf_prov_role role, struct prov_answer *out,
			size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (out[i].status == PROV_OK)
			continue;
		scrub_secret(out[i].detail, p->c->prov[role].api_key);
		log_warn("provider %s (%s): %s: %s", conf_role_name(role), p->v[role]->name,
			 prov_status_name(out[i].status), out[i].detail);
	}
}

static void prov_answers_init(struct prov_answer *out, size_t n)
{
	for (size_t i = 0; i < n; i++)
		prov_answer_init(&out[i]);
}

static int prov_all_ok(const struct prov_answer *out, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (out[i].status != PROV_OK)
			return -1;
	return 0;
}

/* JSON mode: the object is parsed here for every vendor. A reply that
 * holds none is a bad answer, and its text stays for the fallbacks. */
static void prov_chat_json(const struct chat_call *c, struct prov_answer *a)
{
	if (!c->json_mode || a->status != PROV_OK || a->json || a->tool_calls)
		return;
	a->json = prov_json_from_text(a->text);
	if (a->json == NULL)
		prov_fail(a, PROV_BAD_ANSWER, "the model's reply is not a JSON object");
}

/* The calls of one batch that one vendor answers: those whose provider
 * (theirs, else the role's) is of its kind, all at once. */
static void prov_chat_kind(struct prov *p, enum conf_prov_role role, const struct prov_vendor *v,
			   const struct chat_call *calls, size_t n, const struct prov_hooks *h,
			   struct prov_answer *out)
{
	const struct conf_provider *rcf = &p->c->prov[role];
	struct chat_call *sub = xcalloc(n, sizeof *sub);
	struct prov_answer *ans = xcalloc(n, sizeof *ans);
	size_t *at = xcalloc(n, sizeof *at), k = 0;

	for (size_t i = 0; i < n; i++)
		if (prov_vendor_for((calls[i].provider ? calls[i].provider : rcf)->kind) == v) {
			sub[k] = calls[i];
			at[k++] = i;
		}
	if (k && !prov_vendor_can(v, role)) {
		for (size_t j = 0; j < k; j++)
			prov_fail(&out[at[j]], PROV_UNAVAILABLE, "%s offers no %s", v->name,
				  conf_role_name(role));
	} else if (k) {
		v->ops->chat(p, rcf, sub, k, h, ans);
		for (size_t j = 0; j < k; j++)
			out[at[j]] = ans[j];   /* the answer's contents move */
	}
	free(sub);
	free(ans);
	free(at);
}

/* Chat calls answered by the vendor of a role (chat, or vision), or by
 * the providers the calls name. */
static int prov_chat_role(struct prov *p, enum conf_prov_role role, const struct chat_call *calls,
			  size_t n, const struct prov_hooks *h, struct prov_answer *out)
{
	prov_answers_init(out, n);
	for (size_t k = 0; k < prov_nvendors; k++)
		prov_chat_kind(p, role, &prov_vendors[k], calls, n, h, out);
	for (size_t i = 0; i < n; i++)
		prov_chat_json(&calls[i], &out[i]);
	prov_report(p, role, out, n);
	return prov_all_ok(out, n);
}

int prov_chat_many(struct prov *p, const struct chat_call *calls, size_t n,
		   const struct prov_hooks *h, struct prov_answer *out)
{
	return prov_chat_role(p, PROV_CHAT, calls, n, h, out);
}

int prov_vision(struct prov *p, const struct chat_call *c, const struct prov_hooks *h,
		struct prov_answer *out)
{
	return prov_chat_role(p, PROV_VISION, c, 1, h, out);
}

int prov_chat(struct prov *p, const struct chat_call *c, const struct prov_hooks *h,
	      struct prov_answer *out)
{
	return prov_chat_many(p, c, 1, h, out);
}

int prov_image_many(struct prov *p, const struct image_call *calls, size_t n,
		    const struct prov_hooks *h, struct prov_answer *out)
{
	const struct prov_vendor *v = p->v[PROV_IMAGE];

	prov_answers_init(out, n);
	if (!prov_vendor_can(v, PROV_IMAGE)) {
		for (size_t i = 0; i < n; i++)
			prov_fail(&out[i], PROV_UNAVAILABLE, "%s offers no images", v->name);
		return -1;
	}
	v->ops->image(p, &p->c->prov[PROV_IMAGE], calls, n, h, out);
	prov_report(p, PROV_IMAGE, out, n);
	return prov_all_ok(out, n);
}

int prov_search(struct prov *p, const char *query, long timeout_ms, const struct prov_hooks *h,
		struct prov_answer *out)
{
	const struct prov_vendor *v = p->v[PROV_SEARCH];

	prov_answer_init(out);
	if (!prov_vendor_can(v, PROV_SEARCH))
		return prov_fail(out, PROV_UNAVAILABLE, "web search is not available (%s)", v->name);
	v->ops->search(p, &p->c->prov[PROV_SEARCH], query, timeout_ms, h, out);
	prov_report(p, PROV_SEARCH, out, 1);
	return out->status == PROV_OK ? 0 : -1;
}

int prov_embed(struct prov *p, const json_t *texts, const struct prov_hooks *h,
	       struct prov_answer *out)
{
	const struct prov_vendor *v = p->v[PROV_EMBEDDINGS];

	prov_answer_init(out);
	if (!prov_vendor_can(v, PROV_EMBEDDINGS))
		return prov_fail(out, PROV_UNAVAILABLE, "embeddings are not available (%s)", v->name);
	v->ops->embed(p, &p->c->prov[PROV_EMBEDDINGS], texts, h, out);
	prov_report(p, PROV_EMBEDDINGS, out, 1);
	return out->status == PROV_OK ? 0 : -1;
}
