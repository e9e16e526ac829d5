/* A reject's feedback at the image plans pause, split into items and
 * each made on the plans or declined (note_plans_feedback.h). The
 * feedback is cut into clauses (，。；! ? new lines, 然后, "and"); a clause
 * names pictures (第三张, 封面, 最后一张, the second picture, the cover)
 * and what to do with them: move or swap (把第三张放到第一张, 第二张和
 * 第一张换一下, 封面用第二张, swap the first two), drop (去掉第三张, 不要
 * 第二张, 少一张, drop the last picture), redraw (第一张改成一只橘猫在窗边,
 * 第二张画帐篷, make the cover a sunset), a style or tone for the set
 * (风格换成水彩, 色调暖一点, 更简约, in watercolour), a count (多加一张,
 * 只要两张); anything else is an item of kind other, declined by name.
 * Pictures are named as the person saw them, so 把第三张放到第一张，去掉
 * 第二张 moves the third and drops the second whatever the order. */
#include "config.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "text/phrase.h"
#include "util/xmalloc.h"
#include "wf/note/note.h"
#include "wf/note/note_plans_feedback.h"
#include "wf/note/note_rules.h"

#define PF_N(a) (sizeof(a) / sizeof((a)[0]))
#define PF_MAX_REFS 8
#define PF_MAX_ITEMS 16
#define PF_CLAUSE_MAX 600    /* bytes of one clause kept */
#define PF_FEEDBACK_MAX 4000 /* bytes of feedback read */

struct pf_ref {
	int v;               /* a number as shown, NOTE_PF_LAST or NOTE_PF_COVER */
	size_t at, end;      /* its bytes in the clause */
};

struct pf_clause {
	const char *s;       /* the clause */
	char *low;           /* the same, ASCII lower case */
	struct pf_ref ref[PF_MAX_REFS];
	size_t nref;
};

/* ---- words ---- */

static int pf_alpha(char c)
{
	return isalpha((unsigned char)c) != 0;
}

/* w in s at a word's edges (for English words; Chinese has no edges). */
static const char *pf_word(const char *s, const char *w)
{
	size_t n = strlen(w);

	for (const char *p = strstr(s, w); p; p = strstr(p + 1, w))
		if ((p == s || !pf_alpha(p[-1]) || !pf_alpha(*w)) && (!pf_alpha(p[n]) || !pf_alpha(w[n - 1])))
			return p;
	return NULL;
}

/* The first of the |-separated words in s (see pf_word), or NULL. */
static const char *pf_any(const char *s, const char *words)
{
	char *list = xstrdup(words), *save = NULL;
	const char *best = NULL;

	for (char *w = strtok_r(list, "|", &save); w; w = strtok_r(NULL, "|", &save)) {
		const char *at = pf_word(s, w);

		if (at && (best == NULL || at < best))
			best = at;
	}
	free(list);
	return best;
}

/* A number at p: digits, 一…十 and 两, one…ten. Its value (0: none), its
 * length in *len. */
static int pf_num(const char *p, size_t *len)
{
	static const struct { const char *s; int v; } nums[] = {
		{ "一", 1 }, { "二", 2 }, { "两", 2 }, { "三", 3 }, { "四", 4 }, { "五", 5 }, { "六", 6 },
		{ "七", 7 }, { "八", 8 }, { "九", 9 }, { "十", 10 }, { "a ", 1 }, { "an ", 1 }, { "one", 1 },
		{ "two", 2 }, { "three", 3 }, { "four", 4 }, { "five", 5 }, { "six", 6 }, { "seven", 7 },
		{ "eight", 8 }, { "nine", 9 }, { "ten", 10 },
	};

	if (isdigit((unsigned char)*p)) {
		int v = 0;

		*len = 0;
		while (isdigit((unsigned char)p[*len]) && *len < 3)
			v = v * 10 + (p[(*len)++] - '0');
		return v;
	}
	for (size_t i = 0; i < PF_N(nums); i++)
		if (strncmp(p, nums[i].s, strlen(nums[i].s)) == 0 &&
		    !(pf_alpha(*p) && pf_alpha(p[strlen(nums[i].s)]) && nums[i].s[strlen(nums[i].s) - 1] != ' ')) {
			*len = strlen(nums[i].s);
			return nums[i].v;
		}
	return 0;
}

static void pf_add_ref(struct pf_clause *c, int v, size_t at, size_t end)
{
	for (size_t i = 0; i < c->nref; i++)
		if (at < c->ref[i].end && end > c->ref[i].at)
			return;   /* inside one already found */
	if (c->nref == PF_MAX_REFS)
		return;
	for (size_t i = c->nref++; ; i--) {
		if (i == 0 || c->ref[i - 1].at < at) {
			c->ref[i] = (struct pf_ref){ v, at, end };
			return;
		}
		c->ref[i] = c->ref[i - 1];
	}
}

/* Every occurrence of the |-separated words in the clause as ref v. */
static void pf_refs_of(struct pf_clause *c, const char *words, int v)
{
	char *list = xstrdup(words), *save = NULL;

	for (char *w = strtok_r(list, "|", &save); w; w = strtok_r(NULL, "|", &save))
		for (const char *p = pf_word(c->low, w); p; p = pf_word(p + strlen(w), w))
			pf_add_ref(c, v, (size_t)(p - c->low), (size_t)(p - c->low) + strlen(w));
	free(list);
}

/* 第三张, 第3幅: the number after 第 and the classifier, if any. */
static void pf_refs_nth(struct pf_clause *c)
{
	static const char *const cls[] = { "张图", "张", "幅", "个", "图", "页", "位" };

	for (const char *p = strstr(c->low, "第"); p; p = strstr(p + 1, "第")) {
		size_t n = 0, end;
		int v = pf_num(p + strlen("第"), &n);

		if (v == 0)
			continue;
		end = (size_t)(p - c->low) + strlen("第") + n;
		for (size_t i = 0; i < PF_N(cls); i++)
			if (strncmp(c->low + end, cls[i], strlen(cls[i])) == 0) {
				end += strlen(cls[i]);
				break;
			}
		pf_add_ref(c, v, (size_t)(p - c->low), end);
	}
}

/* picture 2, image #3, the 2nd picture. */
static void pf_refs_numbered(struct pf_clause *c)
{
	static const char *const nouns[] = { "picture ", "image ", "photo ", "pic ", "#", "no. " };

	for (size_t i = 0; i < PF_N(nouns); i++)
		for (const char *p = pf_word(c->low, nouns[i]); p; p = pf_word(p + 1, nouns[i])) {
			const char *q = p + strlen(nouns[i]);
			size_t n = 0;
			int v;

			if (*q == '#')
				q++;
			if (!isdigit((unsigned char)*q) || (v = pf_num(q, &n)) == 0)
				continue;
			pf_add_ref(c, v, (size_t)(p - c->low), (size_t)(q - c->low) + n);
		}
}

static void pf_refs(struct pf_clause *c)
{
	static const struct { const char *words; int v; } named[] = {
		{ "前两张|first two|top two", 1 },
		{ "最后一张|最后一幅|最后那张|最后一个|末尾那张|最后一|最后|末尾|末图|last one|last picture|last image|"
		  "last photo|the last|final picture|the end|the back|the bottom|last", NOTE_PF_LAST },
		{ "封面|首图|头图|最前面|最前|开头|the cover|the front|the start|the beginning|the top|cover", NOTE_PF_COVER },
		{ "first|1st", 1 }, { "second|2nd", 2 }, { "third|3rd", 3 }, { "fourth|4th", 4 },
		{ "fifth|5th", 5 }, { "sixth|6th", 6 },
	};

	pf_refs_nth(c);
	pf_refs_numbered(c);
	for (size_t i = 0; i < PF_N(named); i++) {
		size_t before = c->nref;

		pf_refs_of(c, named[i].words, named[i].v);
		if (i == 0 && c->nref > before) {   /* 前两张: the first and the second */
			for (size_t k = 0; k < c->nref; k++)
				if (c->ref[k].v == 1 && c->nref < PF_MAX_REFS) {
					pf_add_ref(c, 2, c->ref[k].end, c->ref[k].end);
					break;
				}
		}
	}
}

/* ---- items ---- */

static json_t *pf_item(const struct pf_clause *c, const char *kind)
{
	return json_pack("{s:s, s:s}", "kind", kind, "text", c->s);
}

/* The words after the verb, without what only ends a sentence. */
static char *pf_subject(const char *s)
{
	static const char *const tails[] = { "吧", "的图", "的画面", "就好", "就行", "了", "。", ".", "!", "！", "instead" };
	static const char *const heads[] = { " ", "一下", "：", ":", "成", "为" };
	char *out;
	size_t n;
	int again = 1;

	for (int k = 0; k < 4 && again; k++) {
		again = 0;
		for (size_t i = 0; i < PF_N(heads); i++)
			if (strncmp(s, heads[i], strlen(heads[i])) == 0) {
				s += strlen(heads[i]);
				again = 1;
			}
	}
	out = xstrdup(s);
	for (again = 1; again;) {
		again = 0;
		n = strlen(out);
		while (n > 0 && isspace((unsigned char)out[n - 1]))
			out[--n] = '\0';
		for (size_t i = 0; i < PF_N(tails); i++) {
			size_t t = strlen(tails[i]);

			if (n > t && strcmp(out + n - t, tails[i]) == 0) {
				out[n - t] = '\0';
				again = 1;
			}
		}
	}
	return out;
}

/* Moves and swaps. */
static json_t *pf_reorder(const struct pf_clause *c)
{
	static const char *const swap = "换一下|换下|互换|交换|对调|调换|换个位置|换位置|反过来|swap|switch|exchange";
	static const char *const move = "放到|放在|挪到|移到|调到|换到|排到|提到|移至|放至|挪至|排在|提前到|"
		"move|put|place|go ";
	static const char *const as_cover = "做封面|当封面|作为封面|作封面|放封面|设为封面|设成封面|用作封面|"
		"as the cover|the cover";
	static const char *const cover_use = "用|换成|改成|改用|换用";
	json_t *it;

	if (c->nref == 2 && pf_any(c->low, swap)) {
		it = pf_item(c, "reorder");
		json_object_set_new(it, "swap", json_pack("[i, i]", c->ref[0].v, c->ref[1].v));
		return it;
	}
	/* 封面用第二张, make picture 2 the cover, 第二张做封面 */
	for (size_t i = 0; i < c->nref && c->nref == 2; i++) {
		const struct pf_ref *cov = &c->ref[i], *other = &c->ref[1 - i];

		if (cov->v != NOTE_PF_COVER || other->v <= 0)
			continue;
		if ((i == 0 && pf_any(c->low + cov->end, cover_use) == c->low + cov->end) ||
		    (i == 1 && pf_any(c->low + other->end, as_cover) && !strstr(c->low, "make the cover")) ||
		    (i == 1 && pf_any(c->low, "use|make|拿|用") && strncmp(c->low + cov->at, "cover", 5) != 0)) {
			it = pf_item(c, "reorder");
			json_object_set_new(it, "from", json_integer(other->v));
			json_object_set_new(it, "to", json_integer(1));
			return it;
		}
	}
	if (c->nref >= 1 && c->nref <= 2 && pf_any(c->low, move)) {
		int to = c->nref == 2 ? c->ref[1].v : pf_any(c->low, "前面|first|front|top|start") ? 1
			: pf_any(c->low, "后面|end|back|bottom") ? NOTE_PF_LAST : 0;

		if (to == 0 || (c->nref == 1 && c->ref[0].v == to))
			return NULL;
		it = pf_item(c, "reorder");
		json_object_set_new(it, "from", json_integer(c->ref[0].v));
		json_object_set_new(it, "to", json_integer(to == NOTE_PF_COVER ? 1 : to));
		return it;
	}
	return NULL;
}

/* Drops: named pictures, or one fewer (少一张 drops the last). */
static int pf_drop(const struct pf_clause *c, json_t *out)
{
	static const char *const verbs = "去掉|删掉|删除|不要|拿掉|移除|删了|去除|砍掉|省掉|删去|撤掉|"
		"drop|remove|delete|lose|get rid of|cut|skip";
	static const char *const fewer = "少一张|少一幅|减一张|少放一张|少一个|one fewer|one less|one picture fewer";
	int n = 0;

	if (pf_any(c->low, fewer)) {
		json_t *it = pf_item(c, "drop");

		json_object_set_new(it, "which", json_integer(NOTE_PF_LAST));
		json_array_append_new(out, it);
		return 1;
	}
	if (c->nref == 0 || !pf_any(c->low, verbs) || pf_any(c->low, "改成|换成|改为|画成|变成|instead|replace"))
		return 0;
	for (size_t i = 0; i < c->nref; i++) {
		json_t *it = pf_item(c, "drop");

		json_object_set_new(it, "which", json_integer(c->ref[i].v));
		json_array_append_new(out, it);
		n++;
	}
	return n;
}

/* 多加一张, add two pictures; 只要两张, only two pictures. */
static json_t *pf_count(const struct pf_clause *c)
{
	static const char *const adds[] = { "多加", "再加", "多来", "再来", "多放", "再放", "加", "多", "add ",
					    "add another", "another", "one more", "more " };
	static const char *const totals[] = { "只要", "只留", "保留", "就要", "只放", "一共", "总共", "改成", "留",
					      "only ", "just ", "keep only ", "keep ", "cut to ", "down to " };
	static const char *const nouns = "张|幅|pictures|picture|images|image|photos|photo|pics|pic";

	for (size_t i = 0; i < PF_N(totals); i++)
		for (const char *p = pf_word(c->low, totals[i]); p; p = pf_word(p + 1, totals[i])) {
			size_t n = 0;
			int v = pf_num(p + strlen(totals[i]), &n);
			const char *rest = p + strlen(totals[i]) + n;

			while (*rest == ' ')
				rest++;
			if (v > 0 && pf_any(rest, nouns) == rest)
				return json_pack("{s:s, s:s, s:i}", "kind", "count", "text", c->s, "total", v);
		}
	for (const char *p = c->low; *p; p++) {
		size_t n = 0;
		int v = pf_num(p, &n);
		const char *rest = p + n;

		if (v <= 0 || (p > c->low && pf_alpha(p[-1])))
			continue;
		while (*rest == ' ')
			rest++;
		if (pf_any(rest, nouns) == rest && pf_any(rest, "就够|就好|就行|就可以|is enough|are enough|will do"))
			return json_pack("{s:s, s:s, s:i}", "kind", "count", "text", c->s, "total", v);
	}
	if (c->nref > 0)
		return NULL;
	for (size_t i = 0; i < PF_N(adds); i++) {
		const char *p = pf_word(c->low, adds[i]);
		size_t n = 0;
		int v;
		const char *rest;

		if (p == NULL)
			continue;
		rest = p + strlen(adds[i]);
		while (*rest == ' ')
			rest++;
		v = pf_num(rest, &n);
		rest += n;
		while (*rest == ' ' || strncmp(rest, "more ", 5) == 0)
			rest += *rest == ' ' ? 1 : 5;
		if (v == 0 && strchr(adds[i], ' ') && i >= PF_N(adds) - 3)
			v = 1;   /* another picture, one more picture */
		if (v > 0 && pf_any(rest, nouns) == rest)
			return json_pack("{s:s, s:s, s:i}", "kind", "count", "text", c->s, "add", v);
	}
	return NULL;
}

/* A style or a tone for the set; both when the clause names both. */
static int pf_style(const struct pf_clause *c, const char *text, json_t *out)
{
	int no = 0, k = note_rules_plan_style_asked(text, &no), t = note_rules_plan_tone_asked(text), n = 0;

	if (k >= 0) {
		json_t *it = pf_item(c, "style");

		json_object_set_new(it, "style", json_integer(k));
		json_object_set_new(it, "refused", json_boolean(no));
		json_array_append_new(out, it);
		n++;
	}
	if (t >= 0) {
		json_t *it = pf_item(c, "style");

		json_object_set_new(it, "tone", json_integer(t));
		json_array_append_new(out, it);
		n++;
	}
	return n;
}

/* 第一张改成一只橘猫在窗边, 第二张画帐篷, make the cover a sunset. */
static int pf_describe(const struct pf_clause *c, json_t *out)
{
	static const char *const verbs[] = { "改成", "换成", "改为", "换为", "画成", "变成", "改画", "要画", "画", "拍",
					     "放", "用", "是", "要", "should show ", "should be ", "shows ", "to ", "into ",
					     "as ", "with ", ": ", "：" };
	static const char *const nouns[] = { " pictures", " picture", " images", " image", " photos", " photo", "图" };
	const char *after, *low, *from = NULL;
	char *subject;
	json_t *it;
	int made;

	if (c->nref != 1)
		return 0;
	after = c->s + c->ref[0].end;
	for (size_t i = 0; i < PF_N(nouns); i++)
		if (strncmp(after, nouns[i], strlen(nouns[i])) == 0) {
			after += strlen(nouns[i]);
			break;
		}
	while (*after == ' ')
		after++;
	low = c->low + (after - c->s);
	for (size_t i = 0; from == NULL && i < PF_N(verbs); i++)
		if (strncmp(low, verbs[i], strlen(verbs[i])) == 0)
			from = after + strlen(verbs[i]);
	if (from == NULL && pf_any(c->low, "make|change|turn|redraw") == c->low)
		from = after;   /* make the cover a sunset */
	if (from == NULL)
		return 0;
	subject = pf_subject(from);
	made = *subject != '\0';
	if (made && pf_style(c, subject, out) == 0) {
		it = pf_item(c, "describe");
		json_object_set_new(it, "which", json_integer(c->ref[0].v));
		json_object_set_new(it, "subject", json_string(subject));
		json_array_append_new(out, it);
	}
	free(subject);
	return made;
}

static void pf_clause_items(const char *s, json_t *out)
{
	struct pf_clause c = { .s = s, .low = xstrdup(s) };
	json_t *it;

	for (char *p = c.low; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	pf_refs(&c);
	if ((it = pf_reorder(&c)) != NULL)
		json_array_append_new(out, it);
	else if (pf_drop(&c, out) > 0)
		;
	else if ((it = pf_count(&c)) != NULL)
		json_array_append_new(out, it);
	else if (pf_describe(&c, out) > 0)
		;
	else if (pf_style(&c, s, out) == 0)
		json_array_append_new(out, pf_item(&c, "other"));
	free(c.low);
}

/* ---- splitting ---- */

static const char *const pf_seps[] = { "，", "。", "；", "！", "？", "\n", ",", ";", "!", "?", "然后", "并且",
				       "另外", "还有", "同时", "再把", " and then ", " then ", " also " };

/* The next separator in s: its place and length, or NULL. Not " and "
 * in a clause that swaps (swap the first and the second). */
static const char *pf_next_sep(const char *s, size_t *len)
{
	const char *best = NULL;

	for (size_t i = 0; i < PF_N(pf_seps); i++) {
		const char *at = strstr(s, pf_seps[i]);

		if (at && (best == NULL || at < best)) {
			best = at;
			*len = strlen(pf_seps[i]);
			if (strcmp(pf_seps[i], "再把") == 0)
				*len = 0;   /* 再把 starts the next clause */
		}
	}
	if (best && *len == 0 && best == s) {
		const char *more = pf_next_sep(s + strlen("再把"), len);

		return more;
	}
	return best;
}

/* English " and " between two requests (drop the last and make the
 * cover a sunset), not inside one (swap the first and second). */
static void pf_clause_and(const char *clause, json_t *out)
{
	char *low = xstrdup(clause), *at;

	for (char *p = low; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	at = strstr(low, " and ");
	if (at && !pf_any(low, "swap|switch|exchange|between")) {
		char *a = xstrndup(clause, (size_t)(at - low));

		pf_clause_items(a, out);
		free(a);
		pf_clause_and(clause + (at - low) + 5, out);
	} else {
		pf_clause_items(clause, out);
	}
	free(low);
}

static void pf_take(const char *from, size_t n, json_t *out)
{
	char *cl;

	while (n > 0 && isspace((unsigned char)*from))
		from++, n--;
	while (n > 0 && isspace((unsigned char)from[n - 1]))
		n--;
	if (n == 0 || json_array_size(out) >= PF_MAX_ITEMS)
		return;
	cl = xstrndup(from, n > PF_CLAUSE_MAX ? PF_CLAUSE_MAX : n);
	pf_clause_and(cl, out);
	free(cl);
}

json_t *note_plans_feedback_split(const char *feedback)
{
	json_t *out = json_array();
	char *fb = note_cut(feedback ? feedback : "", PF_FEEDBACK_MAX);
	const char *p = fb, *sep;
	size_t len = 0;

	while ((sep = pf_next_sep(p, &len)) != NULL) {
		pf_take(p, (size_t)(sep - p), out);
		p = sep + len;
	}
	pf_take(p, strlen(p), out);
	free(fb);
	while (json_array_size(out) > PF_MAX_ITEMS)
		json_array_remove(out, json_array_size(out) - 1);
	return out;
}

int note_plans_feedback_all_known(const json_t *items)
{
	const json_t *it;
	size_t i;

	if (json_array_size(items) == 0)
		return 0;
	json_array_foreach(items, i, it)
		if (strcmp(json_string_value(json_object_get(it, "kind")) ?: "other", "other") == 0)
			return 0;
	return 1;
}
