/* Names people use, matched against node types and the nodes of the
 * canvas: "文本输入", "an image generator", "the LLM", "两个随机数". A name
 * fits a definition exactly (its type, its names, a keyword), by
 * containment (Chinese names inside the phrase or the phrase inside
 * them), or word by word (the segmenter's words against the English
 * names, the parts of the type's name and the keywords); at least half of
 * the words must fit, so one shared word does not make a match. */
#include "config.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "text/script.h"
#include "text/seg.h"
#include "util/xmalloc.h"
#include "wf/graph_edit/graph_rules_int.h"

/* -- cleaning a name ----------------------------------------------------- */

static const char *const gr_lead[] = {
	"帮我", "请你", "请", "给我", "我要", "我想", "再加", "并把", "并将", "并且", "并", "把", "将",
	"再", "一下", "新的",
	"这个", "那个", "的", "please ", "the ", "a ", "an ", "new ", "another ", "some ",
	"my ", "more ", "its ", "their ", NULL
};
static const char *const gr_tail[] = {
	"节点", "结点", "模块", "吧", "了", "一下", "的", "都", "全部", "一起", " nodes", " node",
	" block", " blocks", " both", " too",
	" please", NULL
};

static int gr_strip_lead(char **s, const char *const *list)
{
	for (size_t i = 0; list[i]; i++)
		if (strncmp(*s, list[i], strlen(list[i])) == 0) {
			*s += strlen(list[i]);
			return 1;
		}
	return 0;
}

static int gr_strip_tail(char *s, const char *const *list)
{
	size_t n = strlen(s);

	for (size_t i = 0; list[i]; i++) {
		size_t l = strlen(list[i]);

		if (l < n && strcmp(s + n - l, list[i]) == 0) {
			s[n - l] = '\0';
			return 1;
		}
	}
	return 0;
}

static const char *const gr_zh_num[] = { "一", "两", "三", "四", "五", "六", "七", "八", "九",
					 "十", "二", NULL };
static const char *const gr_en_num[] = { "one ", "two ", "three ", "four ", "five ", "six ",
					 "seven ", "eight ", "nine ", "ten ", NULL };

/* A count at *s: "两个", "3个", "three ", "2 ". */
static int gr_count(char **s)
{
	char *e;
	long v;

	for (int i = 0; gr_zh_num[i]; i++) {
		size_t l = strlen(gr_zh_num[i]);

		if (strncmp(*s, gr_zh_num[i], l) == 0 && (strncmp(*s + l, "个", 3) == 0 ||
							  strncmp(*s + l, "只", 3) == 0)) {
			*s += l + 3;
			return i == 10 ? 2 : i + 1;
		}
	}
	for (int i = 0; gr_en_num[i]; i++)
		if (strncmp(*s, gr_en_num[i], strlen(gr_en_num[i])) == 0) {
			*s += strlen(gr_en_num[i]);
			return i + 1;
		}
	v = isdigit((unsigned char)**s) ? strtol(*s, &e, 10) : 0;
	if (v > 0 && (*e == ' ' || strncmp(e, "个", 3) == 0)) {
		*s = e + (*e == ' ' ? 1 : 3);
		return (int)v;
	}
	if (strncmp(*s, "个", 3) == 0)
		*s += 3;
	return 1;
}

char *gr_name_clean(const char *s, size_t n, int *count)
{
	char *low, *p, *r;
	int c = 1, more = 1;

	gr_trim(&s, &n);
	low = gr_lower(s, n);
	p = low;
	while (more) {
		char *before = p;
		const char *q;
		size_t l;

		more = gr_strip_lead(&p, gr_lead);
		if (c == 1) {
			c = gr_count(&p);
			more |= p != before;
		}
		q = p, l = strlen(p);
		gr_trim(&q, &l);
		memmove(p, q, l);
		p[l] = '\0';
	}
	while (gr_strip_tail(p, gr_tail)) {
		const char *q = p;
		size_t l = strlen(p);

		gr_trim(&q, &l);
		memmove(p, q, l);
		p[l] = '\0';
	}
	r = xstrdup(p);
	free(low);
	if (count)
		*count = c < 1 ? 1 : c > GR_MAX_COUNT ? GR_MAX_COUNT : c;
	return r;
}

/* -- words --------------------------------------------------------------- */

static const char *const gr_stop[] = {
	"a", "an", "the", "of", "to", "and", "with", "for", "node", "nodes", "one", "new", "it",
	"its", "my", "some", "please", "that", "this", "的", "个", "一个", "节点", "和", "把", NULL
};

static int gr_in(const char *w, const char *const *list)
{
	for (size_t i = 0; list[i]; i++)
		if (strcmp(w, list[i]) == 0)
			return 1;
	return 0;
}

/* 1 when the word starts with a Han letter (kana and emoji are not). */
static int gr_han(const char *w)
{
	uint32_t cp;

	if (*w == '\0')
		return 0;
	text_utf8_next((const unsigned char *)w, (const unsigned char *)w + strlen(w), &cp);
	return text_is_han(cp);
}

/* English words alike: the same, a plural, or one stem ("generator",
 * "generate"). */
static int gr_stem_eq(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), k = 0, m = la < lb ? la : lb;

	if (strcmp(a, b) == 0)
		return 1;
	if ((la == lb + 1 && a[la - 1] == 's' && strncmp(a, b, lb) == 0) ||
	    (lb == la + 1 && b[lb - 1] == 's' && strncmp(a, b, la) == 0))
		return 1;
	while (k < m && a[k] == b[k])
		k++;
	return k >= 5 && k + 2 >= m;
}

/* Whether w is one of the ASCII words of phrase (any case). */
static int gr_word_in(const char *w, const char *phrase)
{
	char *low = gr_lower(phrase, strlen(phrase)), *save = NULL;
	int hit = 0;

	for (char *t = strtok_r(low, " -_/,()", &save); t && !hit; t = strtok_r(NULL, " -_/,()", &save))
		hit = gr_stem_eq(w, t);
	free(low);
	return hit;
}

/* Whether w is a part of a CamelCase name ("Text", "Input"). */
static int gr_camel_in(const char *w, const char *name)
{
	char part[64];
	size_t k = 0;

	for (const char *c = name;; c++) {
		if (!*c || (isupper((unsigned char)*c) && k)) {
			part[k] = '\0';
			for (size_t i = 0; i < k; i++)
				part[i] = (char)tolower((unsigned char)part[i]);
			if (k && gr_stem_eq(w, part))
				return 1;
			k = 0;
		}
		if (!*c)
			return 0;
		if (k < sizeof part - 1)
			part[k++] = *c;
	}
}

/* -- definitions --------------------------------------------------------- */

struct gr_query {
	char *name;
	json_t *words;    /* content words, lower case */
};

static void gr_query_init(struct gr_query *q, const char *name)
{
	json_t *all = text_seg_words(name), *w;
	size_t i;

	q->name = gr_lower(name, strlen(name));
	q->words = json_array();
	json_array_foreach(all, i, w) {
		char *l = gr_lower(json_string_value(w), json_string_length(w));

		if (!gr_in(l, gr_stop))
			json_array_append_new(q->words, json_string(l));
		free(l);
	}
	json_decref(all);
}

static void gr_query_free(struct gr_query *q)
{
	free(q->name);
	json_decref(q->words);
}

static const char *gr_str(const json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));

	return s ? s : "";
}

static int gr_eq_ci(const char *a, const char *b)
{
	return *a && strcasecmp(a, b) == 0;
}

/* The exact and containment part of a score. */
static int gr_score_whole(const struct gr_query *q, const json_t *def)
{
	const char *type = gr_str(def, "type"), *name = strchr(type, ':'), *zh = gr_str(def, "name_zh");
	const char *en = gr_str(def, "name_en");
	char plural[128];
	const json_t *k;
	size_t i;
	int s = 0;

	snprintf(plural, sizeof plural, "%ss", en);
	if (gr_eq_ci(q->name, type) || (name && gr_eq_ci(q->name, name + 1)) || gr_eq_ci(q->name, zh) ||
	    gr_eq_ci(q->name, en) || gr_eq_ci(q->name, plural))
		return 1000;
	if (gr_han(q->name) && strlen(zh) >= 6 && strstr(q->name, zh))
		s += 200 + (int)strlen(zh);
	else if (gr_han(q->name) && strlen(q->name) >= 6 && strstr(zh, q->name))
		s += 150;
	json_array_foreach(json_object_get(def, "keywords"), i, k) {
		const char *kw = json_string_value(k);

		if (!kw)
			continue;
		if (gr_eq_ci(q->name, kw))
			s += 300;
		else if (gr_han(kw) && strlen(kw) >= 6 && strstr(q->name, kw))
			s += 100 + (int)strlen(kw);
		else if (gr_han(q->name) && strlen(q->name) >= 6 && strstr(kw, q->name))
			s += 60;
	}
	return s;
}

/* One word against a definition: how well it fits, 0 for not. */
static int gr_score_word(const char *w, const json_t *def)
{
	const char *type = gr_str(def, "type"), *name = strchr(type, ':');
	const json_t *k;
	size_t i, ns = name ? (size_t)(name - type) : 0;
	int han = gr_han(w), best = 0;

	if (han ? strstr(gr_str(def, "name_zh"), w) != NULL : gr_word_in(w, gr_str(def, "name_en")))
		best = han && strlen(w) <= 3 ? 8 : 30;
	if (!han && name && gr_camel_in(w, name + 1) && best < 25)
		best = 25;
	json_array_foreach(json_object_get(def, "keywords"), i, k) {
		const char *kw = json_string_value(k);

		if (kw && best < 20 && (han ? strlen(w) > 3 && strstr(kw, w) : gr_word_in(w, kw)))
			best = 20;
	}
	if (!best && ns && strlen(w) == ns && strncasecmp(w, type, ns) == 0)
		best = 10;
	return best;
}

static int gr_score_q(const struct gr_query *q, const json_t *def)
{
	int whole = gr_score_whole(q, def), words = 0;
	size_t i, matched = 0, n = json_array_size(q->words);
	json_t *w;

	if (whole >= 1000)
		return whole;
	json_array_foreach(q->words, i, w) {
		int s = gr_score_word(json_string_value(w), def);

		matched += s > 0;
		/* Between two equal matches, the one of the first word ("save
		 * image": a saver, not an image writer). */
		words += s + (i == 0 && s > 0);
	}
	if (!n || matched * 2 < n)
		words = 0;
	return whole + words;
}

int gr_def_score(const char *name, const json_t *def)
{
	struct gr_query q;
	int s;

	if (!name || !*name)
		return 0;
	gr_query_init(&q, name);
	s = gr_score_q(&q, def);
	gr_query_free(&q);
	return s;
}

const json_t *gr_def_best(const struct gr_plan *p, const char *name)
{
	const json_t *d, *best = NULL;
	struct gr_query q;
	int top = 0;
	size_t i;

	if (!name || !*name)
		return NULL;
	gr_query_init(&q, name);
	json_array_foreach(p->defs, i, d) {
		int s = gr_score_q(&q, d);

		if (s > top)
			top = s, best = d;
	}
	gr_query_free(&q);
	return best;
}

/* Characters (code points) name and the definition's names share. */
static int gr_overlap(const char *name, const json_t *def)
{
	char all[512];
	int n = 0;

	snprintf(all, sizeof all, "%s %s %s", gr_str(def, "name_zh"), gr_str(def, "name_en"),
		 gr_str(def, "type"));
	for (const char *c = name; *c;) {
		size_t l = (unsigned char)*c >= 0xf0 ? 4 : (unsigned char)*c >= 0xe0 ? 3 :
			   (unsigned char)*c >= 0xc0 ? 2 : 1;
		char cp[5];

		memcpy(cp, c, l);
		cp[l] = '\0';
		if (l > 1 ? strstr(all, cp) != NULL : isalpha((unsigned char)*c) && strcasestr(all, cp))
			n += l > 1 ? 2 : 1;
		c += strnlen(c, l);
	}
	return n;
}

void gr_def_close(const struct gr_plan *p, const char *name, size_t max, struct buf *b)
{
	size_t n = json_array_size(p->defs), shown = 0;
	int *score = xcalloc(n ? n : 1, sizeof *score), any = 0;

	for (size_t i = 0; i < n; i++)
		any |= (score[i] = gr_def_score(name, json_array_get(p->defs, i)) * 100 +
				   gr_overlap(name, json_array_get(p->defs, i))) > 0;
	while (shown < max && shown < n) {
		size_t best = 0;

		for (size_t i = 1; i < n; i++)
			if (score[i] > score[best])
				best = i;
		if (any && score[best] <= 0)
			break;
		const json_t *d = json_array_get(p->defs, best);

		buf_printf(b, p->zh ? "%s「%s」(%s)" : "%s\"%s\" (%s)", shown ? (p->zh ? "、" : ", ") : "",
			   gr_def_label(d, p->zh), gr_str(d, "type"));
		score[best] = -1 - (int)shown;
		shown++;
	}
	free(score);
}

/* -- nodes of the canvas --------------------------------------------------- */

static int gr_node_score(const struct gr_plan *p, const struct gr_query *q, size_t i)
{
	const struct gr_node *n = &p->nodes[i];
	size_t dl = n->display ? strlen(n->display) : 0;

	if (strcasecmp(n->id, q->name) == 0)
		return 5000;
	if (dl && strcasecmp(n->display, q->name) == 0)
		return 4000;
	if (dl >= 2 && strlen(q->name) >= 2 && (strcasestr(n->display, q->name) ||
						strcasestr(q->name, n->display)))
		return 1500;
	if (n->def)
		return gr_score_q(q, n->def);
	return gr_eq_ci(q->name, n->type) || (strchr(n->type, ':') &&
					      gr_eq_ci(q->name, strchr(n->type, ':') + 1)) ? 1000 : 0;
}

size_t gr_node_find(const struct gr_plan *p, const char *name, size_t *out, size_t max)
{
	struct gr_query q;
	int top = 0;
	size_t k = 0;

	if (!name || !*name)
		return 0;
	gr_query_init(&q, name);
	for (int pass = 0; pass < 2; pass++) {
		/* Newest first: the patch's own nodes before the canvas's. */
		for (size_t j = p->nn; j-- > 0;) {
			int s;

			if (p->nodes[j].removed)
				continue;
			s = gr_node_score(p, &q, j);
			if (pass == 0 && s > top)
				top = s;
			else if (pass == 1 && s == top && top > 0 && k < max)
				out[k++] = j;
		}
	}
	gr_query_free(&q);
	return k;
}

void gr_node_list(const struct gr_plan *p, const size_t *idx, size_t n, struct buf *b)
{
	for (size_t i = 0; i < n; i++)
		buf_printf(b, p->zh ? "%s「%s」(%s)" : "%s\"%s\" (%s)", i ? (p->zh ? "、" : ", ") : "",
			   gr_node_label(p, idx[i]), p->nodes[idx[i]].id);
}

/* -- parameters, pronouns ------------------------------------------------ */

const char *gr_param_find(const json_t *def, const char *name)
{
	const char *k, *best = NULL;
	const json_t *d;
	size_t bestlen = 0;
	char under[128];

	snprintf(under, sizeof under, "%s", name);
	for (char *c = under; *c; c++)
		if (*c == ' ')
			*c = '_';
	json_object_foreach((json_t *)json_object_get(def, "configValues"), k, d) {
		const char *zh = gr_str(d, "name_zh"), *en = gr_str(d, "name_en");

		if (gr_eq_ci(name, k) || gr_eq_ci(under, k) || gr_eq_ci(name, zh) || gr_eq_ci(name, en))
			return k;
		if (gr_han(name) && *zh && gr_han(zh) && strstr(name, zh) && strlen(zh) > bestlen)
			best = k, bestlen = strlen(zh);
		else if (gr_han(name) && strlen(name) >= 6 && strstr(zh, name) && !best)
			best = k;
	}
	return best;
}

int gr_pronoun(const char *name)
{
	static const char *const them[] = { "", "它们", "他们", "她们", "两者", "它俩", "它们俩",
		"这两个", "这些", "两个", "起来", "它们连起来", "them", "these", "those", "both",
		"both of them", "them together", "all of them", "these two", "all three", "all four",
		"all", "everything", "all nodes", "all the nodes", "every node", "所有节点", "全部节点",
		"所有的节点", "这三个", "这几个", "三个", NULL };
	static const char *const it[] = { "it", "它", "this", "this one", "这个", "该", NULL };

	return gr_in(name, them) ? 1 : gr_in(name, it) ? 2 : 0;
}
