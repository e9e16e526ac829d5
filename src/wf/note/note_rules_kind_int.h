/* Shared between the files of the kinds of note: note_rules_kind.c
 * (which kind, reading and writing the lines of the notes about the
 * topic), note_rules_kind_shape.c (bodies from their lines),
 * note_rules_kind_frame.c (the wording: bodies built from the topic's own
 * words, openings, goals, titles, headings) and note_rules_kind_body.c
 * (the body, from a shape or the frame). */
#ifndef AV_NOTE_RULES_KIND_INT_H
#define AV_NOTE_RULES_KIND_INT_H
#include <stddef.h>
#include <jansson.h>
#include "util/buf.h"
#include "wf/note/note_rules.h"

/* A body being written. */
struct nrk_out {
	struct buf *b;
	const struct note_rules_kind_note *k;
	char *subject;        /* the subject words joined ("露营装备"; "home workout") */
	char *place;          /* the subject's places ("成都"), else the subject */
	size_t no;            /* numbered sections written */
	int plain;            /* headings not numbered (a trip's days) */
	json_t *written;      /* the lines written, to say nothing twice */
	json_t *pending;      /* {title: likes} of notes used in the section */
	json_t *credited;     /* {title: true} of notes credited */
};

/* Places a subject word may name (a trip's, the place of a body). */
#define NRK_PLACES "北京|上海|杭州|重庆|成都|武汉|长沙|苏州|泉州|哈尔滨|深圳|广州|厦门|南京|西安|" \
	"青岛|大理|丽江|云南|三亚|桂林|洛阳|天津|拉萨|西藏|新疆|莫干山|千岛湖|黄山|张家界|九寨沟|" \
	"乌镇|西湖|东湖|鼓浪屿|香港|澳门|日本|东京|大阪|京都|泰国|曼谷|韩国|首尔|新加坡|海南|川西|" \
	"滇西北|稻城|敦煌|呼伦贝尔|长白山|婺源|阳朔|昆明|贵阳|福州|宁波|扬州|无锡|绍兴|庐山|峨眉山|" \
	"泰山|华山|kyoto|tokyo|osaka|paris|london|rome|bali|seoul|bangkok|new york|beijing|shanghai|" \
	"chengdu|hangzhou|iceland|scotland|lisbon|barcelona"

#define NRK_SEC_MAX 12

/* A section before it is written: its lines, each from a note (src NULL:
 * the rules' own words); bare lines (table rows) get no end mark. */
struct nrk_sec {
	size_t n;
	struct {
		char *text;
		const char *src;
		json_int_t likes;
		int bare;
		int kept;     /* set by nrk_section */
	} ln[NRK_SEC_MAX];
};

/* Adds a line (copied) to a section; ignored past NRK_SEC_MAX. */
void nrk_add(struct nrk_sec *s, const char *text, const char *src, json_int_t likes, int bare);
/* Writes the section: its heading (numbered 一、 in Chinese) and the lines
 * that have no banned word and say nothing said before, then the credit
 * of the notes used not credited before and a blank line; nothing when no
 * line is left or nothing in it is concrete (note_rules_reader.h: what
 * the review calls a hollow section). Frees the lines' copies. Returns
 * the lines written. */
size_t nrk_section(struct nrk_out *o, const char *head, struct nrk_sec *s);
/* A new string: tmpl with each "{}" replaced by s. */
char *nrk_fill(const char *tmpl, const char *s);

/* ---- the lines of the notes about the topic (note_rules_kind.c) ---- */

/* Labels that say what a line is ("小贴士：…", "用料：…", "先看SPF：…",
 * "怎么选：…"). */
#define NRK_TIP_LABELS "小贴士|贴士|注意|提醒|tips|tip|建议|温馨提示"
#define NRK_INGR_LABELS "用料|食材|材料|主料|配料|调料|腌料|酱汁|ingredients"
#define NRK_CRIT_LABELS "先看|再看|看|最后看|关注|还要看|first look|look at|check"
#define NRK_CHOOSE_LABELS "怎么选|如何选|总结|结论|一句话|选购建议|how to choose|verdict"

/* What a line is in a kind's shape. */
enum nrk_role { NRK_NONE, NRK_TIP, NRK_ITEM, NRK_INGR, NRK_STEP, NRK_SLOT, NRK_OPTION, NRK_CRIT, NRK_CHOOSE };

struct nrk_pt {
	char *text;           /* trimmed */
	const char *src;      /* its note's title */
	json_int_t likes;
	int hits;             /* subject words in its note's title and tags */
	size_t note;          /* its note, in the order they come */
	enum nrk_role role;
};

struct nrk {
	struct nrk_out *o;
	struct nrk_pt *pt;
	size_t n, notes;
};

/* Reads the about points (trimmed, each with its role) into r->pt;
 * nrk_free frees them. */
void nrk_read(struct nrk *r, const json_t *about);
void nrk_free(struct nrk *r);
/* The label of a line ("帐篷" of "帐篷：…"), at most 12 characters: its
 * length in bytes (0 for none), the text after the colon in *rest. */
size_t nrk_label(const char *s, const char **rest);
/* Whether the n bytes at s start with one of the '|'-separated words. */
int nrk_starts(const char *s, size_t n, const char *alts);
/* A line of a plan by time of day ("第一天上午：…", "下午：…"): its slot
 * (0 morning, 1 afternoon, 2 evening; an order of 0 to 6 in *order), its
 * day (0 when it names none) and in *at the line from the time on; -1
 * when it is not one. */
int nrk_slot(const char *s, int *day, int *order, const char **at);
/* The first price in a line ("约300元", "300到500元"): the lower end, -1
 * for none. */
long nrk_price(const char *s);
/* The clauses of an option's text (split at "；", else "，"), at most
 * max, each a new string. Returns how many. */
size_t nrk_clauses(const char *s, char **out, size_t max);
/* The note to write a kind from: of those with at least min lines of the
 * role (or of role2), the ones with the most subject words, most lines
 * first; the rot-th of them. -1 for none. */
long nrk_lead(const struct nrk *r, enum nrk_role role, enum nrk_role role2, size_t min);
/* Up to max tips: the lead's lines of no shape of the kind; when it has
 * none, those of the other notes with as many subject words. */
void nrk_tips(const struct nrk *r, long lead, struct nrk_sec *s, size_t max);
/* The text after a label of labels, or after a tip's label. Lent. */
const char *nrk_unlabel(const char *s, const char *labels);
const char *nrk_untip(const char *s);
/* A heading: the subject and a word of the kind, joined without saying a
 * word twice ("露营装备" + "清单"); in English the word alone. */
char *nrk_head_of(const struct nrk_out *o, const char *zh, const char *en);
/* nrk_section under the heading nrk_head_of(o, zh, en). */
size_t nrk_section_of(struct nrk_out *o, const char *zh, const char *en, struct nrk_sec *s);

/* ---- the kinds' bodies (note_rules_kind_shape.c) ---- */

/* Each writes the kind's sections from the lines of the notes about the
 * topic; 0 when no note has enough lines of the shape. */
int nrk_checklist(struct nrk *r);
int nrk_recipe(struct nrk *r);
int nrk_trip(struct nrk *r);
int nrk_compare(struct nrk *r);
int nrk_howto(struct nrk *r);

/* note_rules_kind_frame.c: the kind's sections from the topic's own words
 * (days: the days a trip asks for, 0 for the kind's default). */
void nrk_frame(struct nrk_out *o, int days);
/* A trip frame's line for time of day slot (0 morning, 1 afternoon, 2
 * evening) of day d (1-based) of days, "上午：…", "{}" the place (see
 * nrk_fill); NULL for none. Static. */
const char *nrk_frame_slot(int zh, int d, int days, int slot);

#endif
