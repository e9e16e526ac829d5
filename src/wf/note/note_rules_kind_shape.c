/* The bodies of the kinds of note from the lines of the notes about the
 * topic (note_rules_kind.c reads them): a checklist's items with a
 * budget, one note's recipe, a trip's days by time of day, a comparison
 * laid out as a table, a how-to's steps. Each returns 0 when no note has
 * enough lines of its shape, and the caller writes the kind's frame. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "text/phrase.h"
#include "util/xmalloc.h"
#include "wf/note/note_rules_kind_int.h"

#define NRK_N(a) (sizeof(a) / sizeof((a)[0]))

int nrk_checklist(struct nrk *r)
{
	long lead = nrk_lead(r, NRK_ITEM, NRK_ITEM, 3), total = 0, most = -1, v;
	struct nrk_sec s = { 0 };
	char *dear = NULL;
	size_t priced = 0, shown, i;   /* the budget is of the items shown */

	if (lead < 0)
		return 0;
	for (i = 0; i < r->n; i++)
		if ((long)r->pt[i].note == lead && r->pt[i].role == NRK_ITEM && s.n < 8 &&
		    !phrase_has_any(r->pt[i].text, r->o->k->banned)) {   /* numbered as written */
			char *line = xasprintf("%zu. %s", s.n + 1, r->pt[i].text);

			nrk_add(&s, line, r->pt[i].src, r->pt[i].likes, 0);
			free(line);
		}
	nrk_section_of(r->o, "清单", "The checklist", &s);
	for (i = 0, shown = 0; i < r->n; i++)
		if ((long)r->pt[i].note == lead && r->pt[i].role == NRK_ITEM && shown++ < 8 &&
		    (v = nrk_price(r->pt[i].text)) >= 0 && !phrase_has_any(r->pt[i].text, r->o->k->banned)) {
			const char *rest = NULL;
			size_t l = nrk_label(r->pt[i].text, &rest);

			total += v, priced++;
			if (v > most) {
				most = v;
				free(dear);
				dear = xstrndup(r->pt[i].text, l);
			}
		}
	if (priced >= 2) {
		char *line = r->o->k->zh
			? xasprintf("按上面的价格，%zu 件合计约 %ld 元，其中%s最贵（约 %ld 元），预算紧就先给它找平替", priced,
				    total, dear, most)
			: xasprintf("At the prices above, the %zu items come to about %ld in all; %s costs the most "
				    "(about %ld).", priced, total, dear, most);

		nrk_add(&s, line, NULL, 0, 0);
		free(line);
		nrk_section_of(r->o, "预算", "Budget", &s);
	}
	free(dear);
	nrk_tips(r, lead, &s, 3);
	nrk_section_of(r->o, "小贴士", "Tips", &s);
	return 1;
}

int nrk_recipe(struct nrk *r)
{
	long lead = nrk_lead(r, NRK_STEP, NRK_INGR, 3);
	struct nrk_sec s = { 0 };
	char *h = NULL, *label = NULL;
	size_t i, steps = 0, ingr = 0;

	for (i = 0; lead >= 0 && i < r->n; i++)
		if ((long)r->pt[i].note == lead)
			steps += r->pt[i].role == NRK_STEP, ingr += r->pt[i].role == NRK_INGR;
	if (lead < 0 || steps < 2 || ingr == 0)
		return 0;
	for (i = 0; i < r->n; i++)
		if ((long)r->pt[i].note == lead && r->pt[i].role == NRK_INGR) {
			const char *rest = r->pt[i].text;
			size_t l = nrk_label(r->pt[i].text, &rest);

			if (label == NULL)
				label = xstrndup(r->pt[i].text, l);   /* 用料（3人份） */
			nrk_add(&s, rest, r->pt[i].src, r->pt[i].likes, 0);
		}
	h = r->o->k->zh ? xasprintf("%s%s", r->o->subject, label) : xstrdup("Ingredients");
	nrk_section(r->o, h, &s);
	free(h);
	free(label);
	for (i = 0; i < r->n; i++)
		if ((long)r->pt[i].note == lead && r->pt[i].role == NRK_STEP)
			nrk_add(&s, r->pt[i].text, r->pt[i].src, r->pt[i].likes, 0);
	h = r->o->k->zh ? xasprintf("做%s的步骤", r->o->subject) : xstrdup("Steps");
	nrk_section(r->o, h, &s);
	free(h);
	for (i = 0; i < r->n && s.n < 3; i++)
		if ((long)r->pt[i].note == lead && (r->pt[i].role == NRK_TIP || r->pt[i].role == NRK_NONE))
			nrk_add(&s, nrk_untip(r->pt[i].text), r->pt[i].src, r->pt[i].likes, 0);
	h = r->o->k->zh ? xasprintf("做%s的小贴士", r->o->subject) : xstrdup("Tips");
	nrk_section(r->o, h, &s);
	free(h);
	return 1;
}

/* The place a line of a plan names first ("宽窄巷子" of "上午：宽窄巷子，…"),
 * or NULL: a clause of at most 10 characters that says no doing. */
static char *nrk_place_of(const char *at)
{
	const char *rest = at, *verbs[] = { "去", "坐", "吃", "逛", "走", "从", "回", "看", "买", "喝", "到", "在" };
	size_t len;
	char *p;

	static const char *const seps[] = { "，", "、", "（", "；", "。", "(", "," };

	nrk_label(at, &rest);
	len = strlen(rest);
	for (size_t i = 0; i < NRK_N(seps); i++) {
		const char *e = strstr(rest, seps[i]);

		if (e && (size_t)(e - rest) < len)
			len = (size_t)(e - rest);
	}
	p = xstrndup(rest, len);
	for (size_t i = 0; i < NRK_N(verbs); i++)
		if (strstr(p, verbs[i])) {
			free(p);
			return NULL;
		}
	if (phrase_chars(p) < 2 || phrase_chars(p) > 10) {
		free(p);
		return NULL;
	}
	return p;
}

/* A day's heading: the place, the day and the places of its lines, at
 * most 24 characters. */
static char *nrk_day_head(const struct nrk *r, long lead, int d, int days, const int *day_of)
{
	static const char *const nums[] = { "一", "二", "三", "四", "五", "六", "七" };
	struct buf b;
	size_t n = 0;

	buf_init(&b, 1024);
	if (!r->o->k->zh)
		buf_printf(&b, days == 1 ? "The day" : "Day %d", d);
	else if (days == 1)
		buf_printf(&b, "%s一天怎么走", r->o->place);
	else
		buf_printf(&b, "%s第%s天", r->o->place, nums[(d - 1) % 7]);
	for (size_t i = 0; r->o->k->zh && i < r->n; i++) {
		int day, order;
		const char *at;
		char *place;

		if ((long)r->pt[i].note != lead || day_of[i] != d || nrk_slot(r->pt[i].text, &day, &order, &at) < 0 ||
		    (place = nrk_place_of(at)) == NULL)
			continue;
		if (phrase_chars(b.data) + phrase_chars(place) + 1 <= 24)
			buf_printf(&b, "%s%s", n++ ? "、" : "：", place);
		free(place);
	}
	return buf_steal(&b);
}

/* The day of each line of the lead (0 for lines of no time): named, or
 * the next when the time of day goes back. Returns the days. */
static int nrk_days_of(const struct nrk *r, long lead, int *day_of)
{
	int d = 0, last = 99, days = 0;

	for (size_t i = 0; i < r->n; i++) {
		int day, order;
		const char *at;

		day_of[i] = 0;
		if ((long)r->pt[i].note != lead || nrk_slot(r->pt[i].text, &day, &order, &at) < 0)
			continue;
		if (day > 0)
			d = day;
		else if (d == 0 || order <= last)
			d++;
		last = order;
		day_of[i] = d > 7 ? 7 : d;
		days = day_of[i] > days ? day_of[i] : days;
	}
	return days;
}

static void nrk_trip_day(struct nrk *r, long lead, int d, int days, int have, const int *day_of)
{
	struct nrk_sec s = { 0 };
	char *h;

	for (size_t i = 0; d <= have && i < r->n; i++) {
		int day, order;
		const char *at;

		if ((long)r->pt[i].note == lead && day_of[i] == d && nrk_slot(r->pt[i].text, &day, &order, &at) >= 0)
			nrk_add(&s, at, r->pt[i].src, r->pt[i].likes, 0);
	}
	/* A day the note did not plan: the frame's, said as the rules' own. */
	for (int slot = 0; d > have && slot < 3; slot++) {
		const char *line = nrk_frame_slot(r->o->k->zh, d, days, slot);
		char *l = line ? nrk_fill(line, r->o->place) : NULL;

		nrk_add(&s, l, NULL, 0, 0);
		free(l);
	}
	h = nrk_day_head(r, lead, d, days, day_of);
	if (d > have) {   /* said as the rules' own plan, not the note's */
		char *more = xasprintf("%s%s", h, r->o->k->zh ? (d == days ? "：返程" : "：机动")
							  : (d == days ? ": going home" : ": a free day"));

		free(h);
		h = more;
	}
	nrk_section(r->o, h, &s);
	free(h);
}

int nrk_trip(struct nrk *r)
{
	long lead = nrk_lead(r, NRK_SLOT, NRK_SLOT, 2);
	int *day_of, have, want = note_rules_kind_days(r->o->k->topic), days;
	struct nrk_sec s = { 0 };
	char *h;

	if (lead < 0)
		return 0;
	r->o->plain = 1;   /* the days number themselves */
	day_of = xcalloc(r->n + 1, sizeof *day_of);
	have = nrk_days_of(r, lead, day_of);
	days = want > 0 ? want : have;
	days = days > 5 ? 5 : days;
	for (int d = 1; d <= days; d++)
		nrk_trip_day(r, lead, d, days, have, day_of);
	free(day_of);
	nrk_tips(r, lead, &s, 3);
	h = r->o->k->zh ? xasprintf("%s行程小贴士", r->o->place) : xstrdup("Tips");
	nrk_section(r->o, h, &s);
	free(h);
	return 1;
}

/* ---- the comparison table ---- */

static const struct { const char *zh, *en, *starts; } nrk_cols[] = {
	{ "成分", "Made of", "成分|原料|material" },
	{ "价格", "Price", "价格|预算|price" },
	{ "特点", "What it is like", "" },
	{ "适合谁", "Best for", "适合|best for|for " },
	{ "短板", "Downside", "缺点|短板|但|不过|downside|but " },
};

/* The column of a clause, with in *skip the bytes of its leading word. */
static size_t nrk_col_of(const char *c, size_t *skip)
{
	static const char *const lead[] = { "成分是", "成分", "原料是", "价格", "预算", "适合", "缺点是", "缺点",
					    "短板是", "短板", "但是", "不过" };

	*skip = 0;
	for (size_t i = 0; i < NRK_N(lead); i++)
		if (strncmp(c, lead[i], strlen(lead[i])) == 0) {
			*skip = strlen(lead[i]);
			break;
		}
	for (size_t k = 0; k < NRK_N(nrk_cols); k++)
		if (*nrk_cols[k].starts && nrk_starts(c, strlen(c), nrk_cols[k].starts))
			return k;
	if (nrk_price(c) >= 0)
		return 1;
	*skip = 0;
	return 2;
}

/* An option's row: its label and a cell per column ("—" for none). */
static void nrk_row(const char *text, char cells[][160], size_t ncols)
{
	const char *rest = text;
	size_t l = nrk_label(text, &rest), skip;
	char *cl[8];
	size_t nc = nrk_clauses(rest, cl, NRK_N(cl));

	for (size_t k = 0; k < ncols; k++)
		cells[k][0] = '\0';
	snprintf(cells[ncols], 160, "%.*s", (int)l, text);
	for (size_t i = 0; i < nc; i++) {
		size_t k = nrk_col_of(cl[i], &skip), used = strlen(cells[k]);
		const char *v = cl[i] + skip;

		if (used + strlen(v) + 4 < 160)
			snprintf(cells[k] + used, 160 - used, "%s%s", used ? "，" : "", v);
		free(cl[i]);
	}
}

/* The table: a header and a row per option of the lead, the columns those
 * some option fills. Appended to s as bare lines. */
static void nrk_table(const struct nrk *r, long lead, struct nrk_sec *s)
{
	enum { NC = NRK_N(nrk_cols) };
	char cells[NC + 1][160];
	int used[NC] = { 0 };
	struct buf b;

	for (size_t i = 0; i < r->n; i++)
		if ((long)r->pt[i].note == lead && r->pt[i].role == NRK_OPTION) {
			nrk_row(r->pt[i].text, cells, NC);
			for (size_t k = 0; k < NC; k++)
				used[k] |= cells[k][0] != '\0';
		}
	buf_init(&b, 4096);
	buf_adds(&b, r->o->k->zh ? "类型" : "Option");
	for (size_t k = 0; k < NC; k++)
		if (used[k])
			buf_printf(&b, " | %s", r->o->k->zh ? nrk_cols[k].zh : nrk_cols[k].en);
	nrk_add(s, b.data, NULL, 0, 1);
	for (size_t i = 0; i < r->n && s->n < NRK_SEC_MAX; i++) {
		if ((long)r->pt[i].note != lead || r->pt[i].role != NRK_OPTION)
			continue;
		nrk_row(r->pt[i].text, cells, NC);
		buf_reset(&b);
		buf_adds(&b, cells[NC]);
		for (size_t k = 0; k < NC; k++)
			if (used[k])
				buf_printf(&b, " | %s", cells[k][0] ? cells[k] : "—");
		nrk_add(s, b.data, r->pt[i].src, r->pt[i].likes, 1);
	}
	buf_free(&b);
}

static void nrk_role_lines(const struct nrk *r, long lead, enum nrk_role role, struct nrk_sec *s, size_t max)
{
	for (size_t i = 0; i < r->n && s->n < max; i++)
		if ((long)r->pt[i].note == lead && r->pt[i].role == role)
			nrk_add(s, r->pt[i].text, r->pt[i].src, r->pt[i].likes, 0);
}

int nrk_compare(struct nrk *r)
{
	long lead = nrk_lead(r, NRK_OPTION, NRK_OPTION, 2);
	struct nrk_sec s = { 0 };

	if (lead < 0)
		return 0;
	nrk_role_lines(r, lead, NRK_CRIT, &s, 4);
	nrk_section_of(r->o, "先看懂这几项", "What to look at", &s);
	nrk_table(r, lead, &s);
	nrk_section_of(r->o, "对比", "Side by side", &s);
	for (size_t i = 0; i < r->n && s.n < 2; i++)
		if ((long)r->pt[i].note == lead && r->pt[i].role == NRK_CHOOSE)
			nrk_add(&s, nrk_unlabel(r->pt[i].text, NRK_CHOOSE_LABELS), r->pt[i].src, r->pt[i].likes, 0);
	for (size_t i = 0; i < r->n && s.n < 3; i++)
		if ((long)r->pt[i].note == lead && r->pt[i].role == NRK_TIP)
			nrk_add(&s, nrk_untip(r->pt[i].text), r->pt[i].src, r->pt[i].likes, 0);
	nrk_section_of(r->o, "怎么选", "How to choose", &s);
	return 1;
}

int nrk_howto(struct nrk *r)
{
	long lead = nrk_lead(r, NRK_STEP, NRK_STEP, 2);
	struct nrk_sec s = { 0 };
	size_t k = 0;

	if (lead < 0) {
		/* No numbered steps: the lines of the note that has the most of
		 * the subject, numbered, when they are two or more. */
		lead = nrk_lead(r, NRK_NONE, NRK_ITEM, 2);
		if (lead < 0)
			return 0;
		for (size_t i = 0; i < r->n && s.n < 6; i++)
			if ((long)r->pt[i].note == lead && (r->pt[i].role == NRK_NONE || r->pt[i].role == NRK_ITEM) &&
			    !phrase_has_any(r->pt[i].text, r->o->k->banned)) {
				char *line = xasprintf("%zu. %s", ++k, r->pt[i].text);

				nrk_add(&s, line, r->pt[i].src, r->pt[i].likes, 0);
				free(line);
			}
	} else {
		nrk_role_lines(r, lead, NRK_STEP, &s, 8);
	}
	nrk_section_of(r->o, "的步骤", "Steps", &s);
	nrk_tips(r, lead, &s, 3);
	nrk_section_of(r->o, "要注意", "Watch out for", &s);
	return 1;
}

