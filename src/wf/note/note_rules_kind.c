/* The kind of note a topic asks for, and the body of each kind, offline.
 * A topic asks for a checklist (装备清单, packing list), a recipe (做法,
 * 自制, a dish), a trip day by day (三日游, 周末去杭州), a comparison
 * (怎么选, vs), a how-to (怎么提分, how to) or, by default, first-hand
 * experience. A body of a kind is written from the evidence's points that
 * come from notes about the topic (their title or tags name the topic's
 * subject), and only from lines of the kind's shape: a checklist from
 * items ("帐篷：…，300元左右"), a recipe from one note's 用料 and numbered
 * steps, a trip from lines by day and time of day, a comparison from
 * option lines ("物理防晒：成分…；适合…；缺点…") laid out as a table, a
 * how-to from numbered steps. Other lines of those notes are tips at most;
 * with nothing of the shape, the body is the kind's frame, built from the
 * topic's own words (note_rules_kind_frame.c), never another topic's.
 * This file: which kind, and reading and writing the lines of the notes
 * about the topic; the body of each kind is put together in
 * note_rules_kind_body.c, from the shapes (note_rules_kind_shape.c) or
 * the frame. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "text/phrase.h"
#include "text/words.h"
#include "text/wordcut.h"
#include "util/xmalloc.h"
#include "wf/note/note_rules_kind_int.h"
#include "wf/note/note_rules_reader.h"

#define NRK_N(a) (sizeof(a) / sizeof((a)[0]))

/* ---- which kind ---- */

#define NRK_DISHES "红烧肉|番茄炒蛋|西红柿炒鸡蛋|麻婆豆腐|可乐鸡翅|鸡翅|排骨|绿豆沙|饺子|蛋糕|面包|" \
	"牛肉面|拌面|酸菜鱼|炒饭|汤|粥|沙拉|甜品|早餐|便当|减脂餐|燕麦|鸡胸|牛腩|凉拌|布丁|饼干|菜"
#define NRK_EN_FOOD "cake|bread|pasta|noodle|soup|chicken|egg|salad|curry|cookie|pancake|breakfast|" \
	"dinner|lunch|meal|rice|stew|pie"

static const char *const note_rules_kind_names[] = {
	"experience", "checklist", "recipe", "trip", "compare", "howto",
};

const char *note_rules_kind_name(enum note_rules_kind kind)
{
	return (size_t)kind < NRK_N(note_rules_kind_names) ? note_rules_kind_names[kind] : "experience";
}

/* A number written before byte offset at of t (3 of 三天, 12 of 12天),
 * 0 for none; 第一天 is a day's name, not a count. */
static int nrk_count_before(const char *t, size_t at)
{
	static const char *const nums[] = { "一", "二", "两", "三", "四", "五", "六", "七" };
	static const int vals[] = { 1, 2, 2, 3, 4, 5, 6, 7 };
	size_t d = at;

	while (d > 0 && t[d - 1] >= '0' && t[d - 1] <= '9')
		d--;
	if (d < at && at - d <= 2)
		return atoi(t + d);
	for (size_t i = 0; at >= 3 && i < NRK_N(nums); i++)
		if (strncmp(t + at - 3, nums[i], 3) == 0)
			return at >= 6 && strncmp(t + at - 6, "第", 3) == 0 ? 0 : vals[i];
	return 0;
}

static int nrk_days_en(const char *t)
{
	static const char *const words[] = { "one", "two", "three", "four", "five", "six", "seven" };
	const char *p;

	for (p = t; (p = strcasestr(p, "day")) != NULL; p += 3) {
		const char *q = p;

		if (q > t && (q[-1] == ' ' || q[-1] == '-'))
			q--;
		if (q > t && q[-1] >= '0' && q[-1] <= '9')
			return atoi(q - 1 - (q - 2 >= t && q[-2] >= '0' && q[-2] <= '9'));
		for (size_t i = 0; i < NRK_N(words); i++) {
			size_t n = strlen(words[i]);

			if ((size_t)(q - t) >= n && strncasecmp(q - n, words[i], n) == 0)
				return (int)i + 1;
		}
	}
	return 0;
}

int note_rules_kind_days(const char *topic)
{
	const char *t = topic ? topic : "", *p;
	int n;

	for (p = t; (p = strstr(p, "天")) != NULL; p += 3)
		if ((n = nrk_count_before(t, (size_t)(p - t))) > 0)
			return n > 7 ? 7 : n;
	for (p = t; (p = strstr(p, "日游")) != NULL; p += 6)
		if ((n = nrk_count_before(t, (size_t)(p - t))) > 0)
			return n > 7 ? 7 : n;
	if ((n = nrk_days_en(t)) > 0)
		return n > 7 ? 7 : n;
	return words_match_any(t, "周末|weekend") ? 2 : 0;
}

static int nrk_is_compare(const char *t)
{
	return words_match_any(t, "怎么选|如何选|对比|哪个好|哪款|选哪个|还是|区别|怎么挑|vs|versus|compar|"
			       "choos|which ");
}

static int nrk_is_recipe(const char *t)
{
	if (words_match_any(t, "探店|测评|评测|餐厅|小馆|必吃|推荐|好吃的店"))
		return words_match_any(t, "做法|食谱|菜谱|自制|怎么做");
	if (words_match_any(t, "做法|食谱|菜谱|自制|配方|recipe|homemade|baking"))
		return 1;
	if (words_match_any(t, "怎么做|如何做|怎么煮|怎么炒|怎么炖|怎么烤|下厨"))
		return words_match_any(t, NRK_DISHES);
	if (words_match_any(t, "how to cook|how to make|how to bake|cook|bake"))
		return words_match_any(t, NRK_EN_FOOD);
	return words_match_any(t, NRK_DISHES) && !words_match_any(t, "怎么|如何|清单|好物|必备|攻略|旅|游");
}

static int nrk_is_checklist(const char *t)
{
	return words_match_any(t, "清单|必备|带什么|好物|装备|必买|囤货|准备什么|买什么|待产包|packing|gear|"
			       "essentials|checklist|what to bring|what to pack|must-have|must have");
}

static int nrk_is_trip(const char *t)
{
	if (words_match_any(t, "日游|天两夜|天一夜|行程|自由行|itinerary|days in|day in|weekend in|road trip|"
			    "travel plan|trip"))
		return 1;
	return words_match_any(t, NRK_PLACES) &&
	       (note_rules_kind_days(t) > 0 || words_match_any(t, "第一次去|去玩|怎么玩|旅游|旅行|攻略|路线|"
							       "citywalk|游玩|玩几天|visit|travel|guide"));
}

static int nrk_is_howto(const char *t)
{
	const char *p;

	if (words_match_any(t, "技巧|入门|教程|指南|方法|步骤|提分|how to|tips|beginner|learn|tutorial|"
			    "step by step|improve|ways to|guide"))
		return 1;
	for (p = t; (p = strstr(p, "怎么")) != NULL; p += 6)
		if (strncmp(p + 6, "样", 3) != 0)
			return 1;
	return strstr(t, "如何") != NULL;
}

enum note_rules_kind note_rules_kind_of(const char *topic)
{
	const char *t = topic ? topic : "";

	if (nrk_is_compare(t))
		return NOTE_RULES_KIND_COMPARE;
	if (nrk_is_recipe(t))
		return NOTE_RULES_KIND_RECIPE;
	if (nrk_is_checklist(t))
		return NOTE_RULES_KIND_CHECKLIST;
	if (nrk_is_trip(t))
		return NOTE_RULES_KIND_TRIP;
	if (nrk_is_howto(t))
		return NOTE_RULES_KIND_HOWTO;
	return NOTE_RULES_KIND_EXPERIENCE;
}

/* ---- the notes about the topic ---- */

/* How many of the subject words the note's title or tags have. */
static int nrk_hits(const json_t *point, const json_t *subject)
{
	const char *src = json_string_value(json_object_get(point, "source")) ?: "";
	const json_t *w, *t;
	size_t i, j;
	int n = 0;

	json_array_foreach(subject, i, w) {
		int has = phrase_has(src, json_string_value(w) ?: "");

		json_array_foreach(json_object_get(point, "tags"), j, t)
			has |= json_is_string(t) && phrase_has(json_string_value(t), json_string_value(w) ?: "");
		n += has;
	}
	return n;
}

json_t *note_rules_kind_about(const json_t *points, const json_t *subject)
{
	json_t *out = json_array(), *c;
	const json_t *p;
	size_t i;
	int hits;

	json_array_foreach(points, i, p)
		if (json_is_string(json_object_get(p, "text")) && (hits = nrk_hits(p, subject)) > 0) {
			c = json_deep_copy(p);
			json_object_set_new(c, "hits", json_integer(hits));
			json_array_append_new(out, c);
		}
	return out;
}

/* ---- reading a line ---- */

static int nrk_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* The label of a line ("帐篷" of "帐篷：…"), at most 12 characters, its
 * length in bytes (0 for none); *rest the text after the colon. */
size_t nrk_label(const char *s, const char **rest)
{
	const char *c = strstr(s, "："), *a = strchr(s, ':'), *comma = strstr(s, "，");
	size_t len = 3, n;

	if (a && (c == NULL || a < c) && a > s && !nrk_digit(a[-1]))
		c = a, len = 1;
	if (c == NULL || c == s || (comma && comma < c))
		return 0;
	n = (size_t)(c - s);
	{
		char *l = xstrndup(s, n);
		size_t chars = phrase_chars(l);

		free(l);
		if (chars > 12)
			return 0;
	}
	*rest = c + len;
	while (**rest == ' ')
		(*rest)++;
	return n;
}

/* Whether the n bytes at s start with one of the '|'-separated words. */
int nrk_starts(const char *s, size_t n, const char *alts)
{
	while (*alts) {
		size_t len = strcspn(alts, "|");

		if (len > 0 && len <= n && strncasecmp(s, alts, len) == 0)
			return 1;
		alts += len + (alts[len] == '|');
	}
	return 0;
}


/* The length of a step's number ("1. ", "2、", "第三步："), 0 for none. */
static size_t nrk_step_mark(const char *s)
{
	const char *p = s;

	while (nrk_digit(*p))
		p++;
	if (p > s && p - s <= 2) {
		if ((*p == '.' || *p == ')') && !nrk_digit(p[1]))
			return (size_t)(p + 1 - s) + (p[1] == ' ');
		if (strncmp(p, "、", 3) == 0 || strncmp(p, "）", 3) == 0)
			return (size_t)(p + 3 - s);
	}
	if (strncmp(s, "第", 3) == 0) {
		static const char *const nums[] = { "一", "二", "三", "四", "五", "六", "七", "八", "九", "十" };

		p = s + 3;
		while (nrk_digit(*p))
			p++;
		for (size_t i = 0; p == s + 3 && i < NRK_N(nums); i++)
			if (strncmp(p, nums[i], 3) == 0)
				p += 3;
		if (p > s + 3 && strncmp(p, "步", 3) == 0)
			return (size_t)(p + 3 - s) + (strncmp(p + 3, "：", 3) == 0 ? 3 : 0);
	}
	if ((unsigned char)s[0] == 0xE2 && (unsigned char)s[1] == 0x91 && (unsigned char)s[2] >= 0xA0 &&
	    (unsigned char)s[2] <= 0xA8)
		return 3;   /* ① to ⑨ */
	return 0;
}

/* A day's name at s ("第一天", "第2天", "Day 2", "D2"): the day, with its
 * length in *len; 0 for none. */
static int nrk_day_mark(const char *s, size_t *len)
{
	static const char *const nums[] = { "一", "二", "三", "四", "五", "六", "七" };
	const char *p;

	if (strncmp(s, "第", 3) == 0) {
		p = s + 3;
		if (nrk_digit(*p) && strncmp(p + 1, "天", 3) == 0)
			return *len = 7, *p - '0';
		for (size_t i = 0; i < NRK_N(nums); i++)
			if (strncmp(p, nums[i], 3) == 0 && strncmp(p + 3, "天", 3) == 0)
				return *len = 9, (int)i + 1;
	}
	if (strncasecmp(s, "day ", 4) == 0 && nrk_digit(s[4]))
		return *len = 5 + (s[5] == ' '), s[4] - '0';
	if ((s[0] == 'D' || s[0] == 'd') && nrk_digit(s[1]) && !nrk_digit(s[2]))
		return *len = 2 + (s[2] == ' '), s[1] - '0';
	return 0;
}

static const struct { const char *word; int slot, order; } nrk_slots[] = {
	{ "早上", 0, 0 }, { "上午", 0, 1 }, { "中午", 1, 2 }, { "下午", 1, 3 }, { "傍晚", 2, 4 }, { "晚上", 2, 5 },
	{ "夜里", 2, 6 }, { "morning", 0, 1 }, { "noon", 1, 2 }, { "afternoon", 1, 3 }, { "evening", 2, 5 },
	{ "night", 2, 6 },
};

/* A line of a plan by time of day ("第一天上午：…", "下午：…"): its time
 * (0 morning, 1 afternoon, 2 evening; an order of 0 to 6 in *order), its
 * day (0 when it names none) and in *at the line from the time on; -1
 * when it is not one. */
int nrk_slot(const char *s, int *day, int *order, const char **at)
{
	size_t len = 0;
	const char *rest;

	*day = nrk_day_mark(s, &len);
	s += len;
	for (size_t i = 0; i < NRK_N(nrk_slots); i++) {
		size_t n = strlen(nrk_slots[i].word);

		if (strncasecmp(s, nrk_slots[i].word, n) == 0 && nrk_label(s, &rest) == n) {
			*order = nrk_slots[i].order;
			*at = s;
			return nrk_slots[i].slot;
		}
	}
	return -1;
}

/* The first price in a line ("约300元", "300到500元", "80块"): the
 * lower end, -1 for none. */
long nrk_price(const char *s)
{
	for (const char *p = s; *p; p++) {
		char *e;
		const char *q;
		long v;

		if (!nrk_digit(*p) || (p > s && (nrk_digit(p[-1]) || p[-1] == '.')))
			continue;
		v = strtol(p, &e, 10);
		q = e;
		if (strncmp(q, "到", 3) == 0)
			q += 3;
		else if (*q == '-' || *q == '~')
			q++;
		if (q != e)
			while (nrk_digit(*q))
				q++;
		if (strncmp(q, "元", 3) == 0 || strncmp(q, "块", 3) == 0)
			return v;
	}
	return -1;
}

/* ---- the lines of the notes about the topic ---- */


/* The clauses of an option's text: split at "；", else at "，". */
size_t nrk_clauses(const char *s, char **out, size_t max)
{
	const char *sep = strstr(s, "；") ? "；" : "，";
	size_t n = 0;

	while (*s && n < max) {
		const char *e = strstr(s, sep);
		size_t len = e ? (size_t)(e - s) : strlen(s);

		while (len >= 3 && strncmp(s + len - 3, "。", 3) == 0)
			len -= 3;
		if (len > 0)
			out[n++] = xstrndup(s, len);
		s += len;
		while (strncmp(s, sep, 3) == 0 || strncmp(s, "。", 3) == 0)
			s += 3;
	}
	return n;
}

static enum nrk_role nrk_role_of(const char *s)
{
	const char *rest = NULL;
	size_t l = nrk_label(s, &rest);
	int day, order;
	const char *at;
	char *cl[8];
	size_t nc;

	if (nrk_step_mark(s))
		return NRK_STEP;
	if (nrk_slot(s, &day, &order, &at) >= 0)
		return NRK_SLOT;
	if (l == 0)
		return NRK_NONE;
	if (nrk_starts(s, l, NRK_TIP_LABELS))
		return NRK_TIP;
	if (nrk_starts(s, l, NRK_INGR_LABELS))
		return NRK_INGR;
	if (nrk_starts(s, l, NRK_CHOOSE_LABELS))
		return NRK_CHOOSE;
	if (nrk_starts(s, l, NRK_CRIT_LABELS))
		return NRK_CRIT;
	nc = nrk_clauses(rest, cl, NRK_N(cl));
	for (size_t i = 0; i < nc; i++)
		free(cl[i]);
	if (strstr(rest, "；") && nc >= 2)
		return NRK_OPTION;
	return phrase_chars(rest) >= 4 ? NRK_ITEM : NRK_NONE;
}

void nrk_read(struct nrk *r, const json_t *about)
{
	const json_t *p;
	json_t *notes = json_object();
	size_t i;

	r->pt = xcalloc(json_array_size(about) + 1, sizeof *r->pt);
	json_array_foreach(about, i, p) {
		const char *t = json_string_value(json_object_get(p, "text"));
		const char *src = json_string_value(json_object_get(p, "source")) ?: "";
		struct nrk_pt *x = &r->pt[r->n];
		size_t len;

		while (*t == ' ' || *t == '\n')
			t++;
		len = strlen(t);
		while (len > 0 && (t[len - 1] == '\n' || t[len - 1] == ' '))
			len--;
		if (len == 0)
			continue;
		x->text = xstrndup(t, len);
		x->src = src;
		x->likes = json_integer_value(json_object_get(p, "likes"));
		x->hits = (int)json_integer_value(json_object_get(p, "hits"));
		if (!json_object_get(notes, src))
			json_object_set_new(notes, src, json_integer((json_int_t)json_object_size(notes)));
		x->note = (size_t)json_integer_value(json_object_get(notes, src));
		x->role = nrk_role_of(x->text);
		r->n++;
	}
	r->notes = json_object_size(notes);
	json_decref(notes);
}

void nrk_free(struct nrk *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->pt[i].text);
	free(r->pt);
}

/* The note to write the kind from: of those with at least min lines of
 * the role (or of role2), the ones with the most subject words, most
 * lines first; the rot-th of them. -1 for none. */
long nrk_lead(const struct nrk *r, enum nrk_role role, enum nrk_role role2, size_t min)
{
	size_t *count = xcalloc(r->notes + 1, sizeof *count), cand = 0;
	int *hits = xcalloc(r->notes + 1, sizeof *hits), best_hits = 0;
	long pick = -1;

	for (size_t i = 0; i < r->n; i++) {
		hits[r->pt[i].note] = r->pt[i].hits;
		count[r->pt[i].note] += r->pt[i].role == role || r->pt[i].role == role2;
	}
	for (size_t i = 0; i < r->notes; i++)
		if (count[i] >= min && hits[i] > best_hits)
			best_hits = hits[i];
	for (size_t i = 0; i < r->notes; i++)
		cand += count[i] >= min && hits[i] == best_hits;
	for (size_t want = cand ? r->o->k->rot % cand : 0, seen = 0, most = r->n; cand && pick < 0 && most > 0;
	     most--)
		for (size_t i = 0; i < r->notes && pick < 0; i++)
			if (count[i] == most && count[i] >= min && hits[i] == best_hits && seen++ == want)
				pick = (long)i;
	free(count);
	free(hits);
	return pick;
}

/* The text after a label of labels ("小贴士：先…" → "先…"). */
const char *nrk_unlabel(const char *s, const char *labels)
{
	const char *rest = s;
	size_t l = nrk_label(s, &rest);

	return l && nrk_starts(s, l, labels) ? rest : s;
}

const char *nrk_untip(const char *s)
{
	return nrk_unlabel(s, NRK_TIP_LABELS);
}

/* Up to max tips: the lead's lines of no shape of the kind; when it has
 * none, those of the other notes with as many subject words. */
void nrk_tips(const struct nrk *r, long lead, struct nrk_sec *s, size_t max)
{
	int hits = 0;

	for (size_t i = 0; i < r->n; i++)
		if ((long)r->pt[i].note == lead)
			hits = r->pt[i].hits;
	for (int pass = 0; pass < 2 && (pass == 0 || s->n == 0); pass++)
		for (size_t i = 0; i < r->n && s->n < max; i++) {
			const struct nrk_pt *p = &r->pt[i];

			if (((long)p->note == lead) != (pass == 0) || p->hits < hits ||
			    (p->role != NRK_TIP && p->role != NRK_NONE))
				continue;
			nrk_add(s, nrk_untip(p->text), p->src, p->likes, 0);
		}
}

/* ---- writing ---- */

void nrk_add(struct nrk_sec *s, const char *text, const char *src, json_int_t likes, int bare)
{
	if (s->n >= NRK_SEC_MAX || text == NULL || *text == '\0')
		return;
	s->ln[s->n].text = xstrdup(text);
	s->ln[s->n].src = src;
	s->ln[s->n].likes = likes;
	s->ln[s->n].bare = bare;
	s->ln[s->n].kept = 0;
	s->n++;
}

char *nrk_fill(const char *tmpl, const char *s)
{
	struct buf b;
	const char *p;

	buf_init(&b, 4096);
	while ((p = strstr(tmpl, "{}")) != NULL) {
		buf_add(&b, tmpl, (size_t)(p - tmpl));
		buf_adds(&b, s);
		tmpl = p + 2;
	}
	buf_adds(&b, tmpl);
	return buf_steal(&b);
}

static int nrk_said(const struct nrk_out *o, const char *line)
{
	const json_t *v;
	size_t i;

	json_array_foreach(o->written, i, v)
		if (strcmp(json_string_value(v), line) == 0 ||
		    (phrase_chars(line) >= 12 && phrase_alike(json_string_value(v), line) >= PHRASE_ALIKE))
			return 1;
	return 0;
}

static int nrk_ends(const char *s)
{
	static const char *const marks[] = { "。", "）", "！", "？", "…" };
	size_t n = strlen(s);

	if (n > 0 && strchr(".!?)", s[n - 1]))
		return 1;
	for (size_t i = 0; i < NRK_N(marks); i++)
		if (n >= strlen(marks[i]) && strcmp(s + n - strlen(marks[i]), marks[i]) == 0)
			return 1;
	return 0;
}

static void nrk_credit(struct nrk_out *o)
{
	const char *title;
	json_t *likes;
	size_t n = 0;

	json_object_foreach(o->pending, title, likes) {
		if (n < 2)
			buf_printf(o->b, o->k->zh ? "%s《%s》，%lld 赞" : "%s\"%s\", %lld likes",
				   n ? (o->k->zh ? "；" : "; ") : (o->k->zh ? "（出自笔记" : "(From the notes "),
				   title, (long long)json_integer_value(likes));
		json_object_set_new(o->credited, title, json_true());
		n++;
	}
	if (n)
		buf_adds(o->b, o->k->zh ? "）\n" : ")\n");
	json_object_clear(o->pending);
}

/* Whether the section's kept lines name something concrete (a number, an
 * item, a list): a reader skips a section that does not, whatever its
 * heading says. */
static int nrk_concrete(const struct nrk_sec *s)
{
	struct buf b;
	int yes;

	buf_init(&b, PHRASE_TEXT_MAX);
	for (size_t i = 0; i < s->n; i++)
		if (s->ln[i].kept)
			buf_printf(&b, "%s\n", s->ln[i].text);
	yes = note_rules_reader_concrete(b.data);
	buf_free(&b);
	return yes;
}

static void nrk_write(struct nrk_out *o, const char *head, const struct nrk_sec *s)
{
	static const char *const numbers[] = { "一", "二", "三", "四", "五", "六", "七", "八" };

	if (o->k->zh && o->no < NRK_N(numbers) && !o->plain)
		buf_printf(o->b, "%s、%s\n", numbers[o->no++], head);
	else
		buf_printf(o->b, "%s\n", head);
	for (size_t i = 0; i < s->n; i++) {
		if (!s->ln[i].kept)
			continue;
		json_array_append_new(o->written, json_string(s->ln[i].text));
		buf_printf(o->b, "%s%s\n", s->ln[i].text,
			   o->k->zh && !s->ln[i].bare && !nrk_ends(s->ln[i].text) ? "。" : "");
		if (s->ln[i].src && !json_object_get(o->credited, s->ln[i].src))
			json_object_set_new(o->pending, s->ln[i].src, json_integer(s->ln[i].likes));
	}
	nrk_credit(o);
	buf_adds(o->b, "\n");
}

size_t nrk_section(struct nrk_out *o, const char *head, struct nrk_sec *s)
{
	size_t kept = 0, i, before = json_array_size(o->written);

	for (i = 0; i < s->n; i++) {
		const char *t = s->ln[i].text;

		/* lines of this section count as said, to keep one of two alike */
		s->ln[i].kept = !phrase_has_any(t, o->k->banned) && !nrk_said(o, t);
		if (s->ln[i].kept)
			json_array_append_new(o->written, json_string(t)), kept++;
	}
	while (json_array_size(o->written) > before)
		json_array_remove(o->written, json_array_size(o->written) - 1);
	if (kept && head && !phrase_has_any(head, o->k->banned) && nrk_concrete(s))
		nrk_write(o, head, s);
	else
		kept = 0;
	for (i = 0; i < s->n; i++)
		free(s->ln[i].text);
	s->n = 0;
	return kept;
}

/* A heading: the subject and a word of the kind, joined without saying a
 * word twice ("露营装备" + "清单"); in English the word alone. */
char *nrk_head_of(const struct nrk_out *o, const char *zh, const char *en)
{
	return o->k->zh ? wordcut_join(o->subject, zh) : xstrdup(en);
}

size_t nrk_section_of(struct nrk_out *o, const char *zh, const char *en, struct nrk_sec *s)
{
	char *h = nrk_head_of(o, zh, en);
	size_t kept = nrk_section(o, h, s);

	free(h);
	return kept;
}
