/* Intent rules over UTF-8 text: is this message asking for a picture, a
 * web search, the time, or is it plain chat; and, for the image planner,
 * which style it names, what its subject is, whether it adjusts the last
 * picture. The chat workflow falls back to these when the model's route is
 * missing or unsure, and the offline provider answers with them.
 *
 * The patterns are PCRE2 (UTF, Unicode properties, caseless), compiled on
 * first use and kept for the life of the process; rules_free() releases
 * them. Workers are single-threaded: call any rules_ function once before
 * starting threads that share them. Text that is not valid UTF-8 simply
 * matches less; nothing here fails on bad input. */
#ifndef AV_RULES_H
#define AV_RULES_H

/* A decision and the rule that took it. */
struct rules_match {
	int matched;          /* 1: the intent is there */
	const char *rule;     /* stable short name of the deciding rule; "none" when no rule fired */
	double confidence;    /* how sure the decision (either way) is, 0..1 */
};

/* Seed 004 §2: three exclusions (recalling, past, cannot), then eight
 * positive rules in order. */
struct rules_match rules_image_intent(const char *text);
/* Seed 004 §3: ten patterns, any of which means a web search. */
struct rules_match rules_search_intent(const char *text);
/* Seed 004 §7.1: the clock, the date, the weekday, a timestamp. */
struct rules_match rules_time_intent(const char *text);

enum rules_route_kind {
	RULES_ROUTE_IMAGE,
	RULES_ROUTE_SEARCH,
	RULES_ROUTE_TIME,
	RULES_ROUTE_CHAT
};

struct rules_decision {
	enum rules_route_kind kind;
	const char *route;         /* "image_gen", "web_search", "time_query", "chat" */
	struct rules_match m;      /* the rule that chose it (for chat: the last one asked) */
};

/* Seed 004 §6.1's order: image, then time, then search, else chat. */
struct rules_decision rules_route(const char *text);
const char *rules_route_name(enum rules_route_kind k);

/* A style from the lexicon, with its name in both languages. */
struct rules_style {
	const char *zh;
	const char *en;
	const char *pattern;       /* the alternation that finds it */
};

/* The style the text names first (by position), or NULL. Lent. */
const struct rules_style *rules_style(const char *text);
/* Does text name the style st (any of its words: 宫崎骏 for 吉卜力)? */
int rules_style_in(const struct rules_style *st, const char *text);
/* "Make it brighter", "change the resolution": an edit of the last picture.
 * rule "adjust_lead" when the message opens with it (再调整一下…, 风格强度
 * 90), "adjust" when the words come later, where they may describe a new
 * picture instead (暖色调的客厅, 一只放大镜). */
struct rules_match rules_adjust_intent(const char *text);
/* The message asks for the last picture in another style, the one it
 * names (*style, from the lexicon): rule "restyle" when a verb of change
 * says so (换成水彩风格, 改成油画风, make it pixel art), "style_only" when the
 * message is nothing but a style (水彩风格, 再来一张油画风的). Not matched,
 * *style NULL, otherwise. */
struct rules_match rules_restyle(const char *text, const struct rules_style **style);
/* The whole message asks for the last picture again: "重新生成", "再来一张",
 * "换一张", "regenerate", "try again". */
struct rules_match rules_regenerate(const char *text);
/* "修改这里", "把这里换成…", "replace this part": a change to one region
 * of the picture, which needs a mask to say where. */
struct rules_match rules_region_edit(const char *text);
/* The whole message is small talk: thanks, ok, laughter, goodbye. */
int rules_small_talk(const char *text);
/* The message asks for something other than a picture: to write,
 * translate, explain, recommend… */
int rules_other_task(const char *text);
/* The message asks to write what the note writer writes: "帮我写一篇…的
 * 小红书笔记", "write a Xiaohongshu post about…". */
int rules_note_request(const char *text);
/* The whole message is a greeting ("你好", "hello!"). */
int rules_greeting(const char *text);
/* Nothing but spaces, punctuation, symbols and emoji. */
int rules_blank(const char *text);
/* What a picture request is of: the text minus the command words, measure
 * words, style words and trailing particles. Never NULL; may be "". The
 * caller frees it. */
char *rules_subject(const char *text);

/* Releases the compiled patterns (they are compiled again if used later). */
void rules_free(void);

#endif
