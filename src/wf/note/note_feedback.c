/* Reading a person's feedback on a note's draft as separate instructions
 * (note_feedback.h): the words are cut into clauses, a clause joined by
 * 再 / and is cut again when both sides are instructions ("太长了再活泼一点"
 * is two, "语气再活泼一点" one), and each clause is read by the cue words it
 * has, in an order that lets the more specific win (标题短一点 is about the
 * title, not the body; 别写太长 asks for a shorter note, not to leave out
 * the word 太长). What no cue names is kept whole, to be declined by name. */
#include "config.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "text/phrase.h"
#include "util/xmalloc.h"
#include "wf/note/note_feedback.h"
#include "wf/note/note_rules.h"

#define NOTE_FEEDBACK_N(a) (sizeof(a) / sizeof((a)[0]))

/* Cue words, '|'-separated. */
static const char note_feedback_cue_more[] =
	"多讲讲|多讲一讲|多讲|多说说|多说一说|多说|多写写|多写点|多写一些|多写|多聊聊|多聊|多介绍|多一些|多点|"
	"详细说说|详细讲讲|详细说|详细讲|详细介绍|展开讲讲|展开说说|展开讲|展开说|重点讲|重点说|讲讲|说说|"
	"say more about|talk more about|write more about|tell me more about|more about|more on|expand on|"
	"go deeper into|elaborate on|more detail on|more details on|more detail about|more details about";
static const char note_feedback_cue_add[] =
	"加上|加一段|加一节|加一些|加一点|加点|加个|加入|补充|补上|补一下|补一段|补点|增加|添加|添上|写上|"
	"写一下|写写|放上|放进|"
	"add|include|put in|throw in|cover";
static const char note_feedback_cue_shorter[] =
	"太长|有点长|偏长|长了|精简|简短|简洁|短一点|短一些|短些|短点|删减|压缩|字数少|少写点|太啰嗦|啰嗦|废话|"
	"too long|shorter|shorten|trim|cut it down|more concise|concise|too wordy|wordy|tighten|fewer words|"
	"less text";
static const char note_feedback_cue_longer[] =
	"太短|有点短|偏短|短了|再详细|详细点|详细一点|详细一些|详细些|具体一点|具体些|具体点|长一点|长一些|"
	"丰富一点|丰富些|丰富点|多写点|多写一些|内容太少|太少了|太单薄|单薄|不够详细|不够具体|不够长|"
	"too short|longer|more detail|more details|more detailed|flesh it out|flesh out|more depth|expand it";
static const char note_feedback_cue_table[] = "表格|做成表|列成表|table";
static const char note_feedback_cue_steps[] =
	"分步骤|按步骤|步骤|一步一步|分步|step by step|step-by-step|steps";
static const char note_feedback_cue_list[] =
	"清单|分点|列点|条目|一条一条|列出来|列表|要点式|bullet|bullets|as a list|a list|list form|in points|"
	"numbered";
static const char note_feedback_cue_audience[] =
	"写给|面向|针对|适合|对象是|读者是|目标读者是|目标读者|目标人群是|"
	"written for|write for|write it for|aimed at|targeted at|target|make it for|audience is|audience:";
static const char note_feedback_cue_negate[] =
	"不要太|别太|没那么|不那么|别那么|不用那么|不要那么|不用太|less|not so|not too|not";
/* Words before the instruction that say nothing of it, taken off its
 * start (the longest first: 能不能 before 能). */
static const char note_feedback_fillers[] =
	"能不能|可不可以|可以|麻烦|帮我|请|希望|最好|还要|还得|再|也|另外|然后|并且|而且|同时|"
	"please|could you|can you|maybe|just|and|also|then|plus";
/* Clauses that are courtesy, not instructions. */
static const char note_feedback_courtesy[] =
	"谢谢|谢啦|辛苦了|辛苦|好的|麻烦了|感谢|thanks|thank you|ok|okay|please|cheers";
/* Words that join two instructions in one clause. */
static const char note_feedback_joiners[] = "并且|而且|同时|另外|然后|再| and | also | then | plus ";
/* What an item's subject is not made of. */
static const char note_feedback_arg_lead[] =
	"一下|一段|一节|一些|一点|关于|有关|具体的|具体|怎么看|如何看|怎么选|怎么|如何|怎样|什么是|"
	"a section on|a section about|a part about|a bit about|a bit on|a bit more about|some|about|on|"
	"how to read|how to|how|what|the|a|an|more";
static const char note_feedback_arg_tail[] =
	"的内容|内容|的部分|部分|相关的|相关|的介绍|介绍|方面的|方面|的信息|信息|这块|这一块|的事|"
	"吧|呀|啊|哦|了|的|一点|一些|看|读|please|too|as well";
/* Subjects that ask for more of everything, not of one thing. */
static const char note_feedback_vague[] =
	"细节|干货|内容|信息|东西|details|detail|content|information|info|stuff|more|一些|一点|几句|几段|废话";

/* Words that ask for another title without giving one. */
#define NOTE_FEEDBACK_REPHRASE "换个|换一个|换种|换一种|改个|改一个|改一种|改改|再想想|再想|重新|不好|不行|一般"

/* The tones a person can ask for, each with its words; negated words
 * (less formal) ask for the opposite group. */
static const struct {
	const char *words;
	int opposite;
} note_feedback_tones[] = {
	{ "活泼|俏皮|可爱|轻松|有趣|幽默|口语|接地气|随意|亲切|casual|fun|playful|lively|upbeat|friendly|relaxed|chatty", 1 },
	{ "正式|专业|严谨|书面|客观|稳重|formal|professional|serious|neutral", 0 },
	{ "温柔|温暖|治愈|走心|温馨|warm|gentle|soft|kind", 3 },
	{ "干货|直接|利落|简练|干脆|direct|straightforward|punchy|to the point", 2 },
};

/* Words that say the same as a subject, to find it in notes. */
static const char *const note_feedback_synonyms[] = {
	"预算|" NOTE_FEEDBACK_PRICE "|人均|花费|费用|价格|价位|多少钱|门票|budget|cost|price|prices",
	"交通|地铁|公交|打车|高铁|自驾|怎么去|transport|metro|bus|train",
	"住宿|酒店|民宿|住哪|hotel|hotels|stay",
	"拍照|出片|机位|photo|photos",
	"SPF|防晒指数|防晒倍数",
	"PA|PA+|PA++|防晒等级|UVA",
	"时间安排|时间表|时间|几点|小时|分钟|每天|schedule|timetable|time",
};

static int note_feedback_alnum(unsigned char c)
{
	return isalnum(c) || c == '_';
}

/* Whether the n bytes of cue match at p, ASCII case ignored; an ASCII
 * cue starting or ending with a letter only at a word's edges. */
static int note_feedback_cue_at(const char *s, const char *p, const char *cue, size_t n)
{
	if (strncasecmp(p, cue, n) != 0)
		return 0;
	if (note_feedback_alnum((unsigned char)cue[0]) && p > s && note_feedback_alnum((unsigned char)p[-1]))
		return 0;
	if (note_feedback_alnum((unsigned char)cue[n - 1]) && note_feedback_alnum((unsigned char)p[n]))
		return 0;
	return 1;
}

/* The earliest of the cues in s (the longest there), its offset in *off
 * and its length in *len; 0 when none. */
static int note_feedback_find(const char *s, const char *cues, size_t *off, size_t *len)
{
	int found = 0;

	for (const char *c = cues; *c;) {
		size_t n = strcspn(c, "|");

		for (const char *p = s; n && *p; p++) {
			if (((unsigned char)*p & 0xC0) == 0x80 || !note_feedback_cue_at(s, p, c, n))
				continue;
			if (!found || (size_t)(p - s) < *off || ((size_t)(p - s) == *off && n > *len))
				*off = (size_t)(p - s), *len = n, found = 1;
			break;
		}
		c += n + (c[n] == '|');
	}
	return found;
}

static int note_feedback_has(const char *s, const char *cues)
{
	size_t off, len;

	return note_feedback_find(s, cues, &off, &len);
}

/* Spaces and punctuation at either end taken off, in place. */
static void note_feedback_trim(char *s)
{
	static const char *const wide[] = { "，", "。", "；", "！", "？", "：", "、", "「", "」", "“", "”",
					    "《", "》", "‘", "’", "～", "…" };
	size_t n = strlen(s), start = 0;
	int again = 1;

	while (again) {
		again = 0;
		while (n > start && strchr(" \t\r\n,.;:!?\"'~-", s[n - 1]))
			n--, again = 1;
		while (start < n && strchr(" \t\r\n,.;:!?\"'~-", s[start]))
			start++, again = 1;
		for (size_t i = 0; i < NOTE_FEEDBACK_N(wide); i++) {
			size_t l = strlen(wide[i]);

			if (n - start >= l && memcmp(s + n - l, wide[i], l) == 0)
				n -= l, again = 1;
			if (n - start >= l && memcmp(s + start, wide[i], l) == 0)
				start += l, again = 1;
		}
	}
	memmove(s, s + start, n - start);
	s[n - start] = '\0';
}

/* Takes the cues off the start (lead) or the end of s, again while one
 * is there, in place. */
static void note_feedback_strip(char *s, const char *cues, int lead)
{
	int again = 1;

	note_feedback_trim(s);
	while (again && *s) {
		again = 0;
		for (const char *c = cues; *c && !again;) {
			size_t n = strcspn(c, "|"), len = strlen(s);

			if (n && lead && n < len && note_feedback_cue_at(s, s, c, n)) {
				memmove(s, s + n, len - n + 1);
				again = 1;
			} else if (n && !lead && n < len && strncasecmp(s + len - n, c, n) == 0 &&
				   (!note_feedback_alnum((unsigned char)c[0]) ||
				    !note_feedback_alnum((unsigned char)s[len - n - 1]))) {
				s[len - n] = '\0';
				again = 1;
			}
			c += n + (c[n] == '|');
		}
		note_feedback_trim(s);
	}
}

/* The subject after a cue: the words around it that say nothing taken
 * off. The caller frees it. */
static char *note_feedback_subject(const char *s)
{
	char *a = xstrdup(s);

	note_feedback_strip(a, note_feedback_arg_lead, 1);
	note_feedback_strip(a, note_feedback_arg_tail, 0);
	return a;
}

/* 1 when s is one of the words, ASCII case ignored. */
static int note_feedback_is_one(const char *s, const char *words)
{
	for (const char *c = words; *c;) {
		size_t n = strcspn(c, "|");

		if (n && strlen(s) == n && strncasecmp(s, c, n) == 0)
			return 1;
		c += n + (c[n] == '|');
	}
	return 0;
}

/* The first word of tone group g in the script of like (ASCII or not).
 * The caller frees it. */
static char *note_feedback_tone_first(size_t g, const char *like)
{
	const char *w = note_feedback_tones[g].words;

	if ((unsigned char)*like < 0x80)
		while (*w && ((unsigned char)*w >= 0x80 || *w == '|'))
			w++;
	return xstrndup(w, strcspn(w, "|"));
}

/* The tone a clause asks for: its word (less formal: the first word of
 * the opposite group, and *negated set), or NULL. The caller frees it. */
static char *note_feedback_tone(const char *s, int *negated)
{
	size_t off, len, noff, nlen;

	*negated = 0;
	for (size_t g = 0; g < NOTE_FEEDBACK_N(note_feedback_tones); g++) {
		if (!note_feedback_find(s, note_feedback_tones[g].words, &off, &len))
			continue;
		if (note_feedback_find(s, note_feedback_cue_negate, &noff, &nlen) && noff < off) {
			*negated = 1;
			return note_feedback_tone_first((size_t)note_feedback_tones[g].opposite, s + off);
		}
		return xstrndup(s + off, len);
	}
	return NULL;
}

int note_feedback_tone_group(const char *word)
{
	size_t off, len;

	for (size_t g = 0; word && g < NOTE_FEEDBACK_N(note_feedback_tones); g++)
		if (note_feedback_find(word, note_feedback_tones[g].words, &off, &len))
			return (int)g;
	return -1;
}

/* The person's words for an item, a joining word at its start aside
 * (and don't mention the price: don't mention the price). */
static json_t *note_feedback_item(const char *kind, const char *arg, const char *text)
{
	char *t = xstrdup(text);
	json_t *it;

	note_feedback_strip(t, "并且|而且|同时|另外|然后|再|and|also|then|plus", 1);
	it = json_pack("{s:s, s:s, s:s}", "kind", kind, "arg", arg ? arg : "", "text", *t ? t : text);
	free(t);
	return it;
}

/* The item a subject of more/add is when it is not a thing: 加点细节 is
 * longer, 加点活泼的语气 a tone. NULL when it is a thing. */
static json_t *note_feedback_not_thing(const char *subject, const char *text)
{
	char *tone;
	json_t *it;
	int neg;

	if (*subject == '\0' || note_feedback_is_one(subject, note_feedback_vague))
		return note_feedback_item("longer", "", text);
	if ((tone = note_feedback_tone(subject, &neg)) == NULL)
		return NULL;
	it = note_feedback_item("tone", tone, text);
	free(tone);
	return it;
}

/* The clause without English articles (don't mention the price: price,
 * as the removal reads one word). The caller frees it. */
static char *note_feedback_no_articles(const char *clause)
{
	static const char *const articles[] = { "the ", "a ", "an ", "any ", "my ", "your ", "our ", "all " };
	char *out = xstrdup(clause);

	for (char *p = out; *p; p++) {
		if (p > out && note_feedback_alnum((unsigned char)p[-1]))
			continue;
		for (size_t i = 0; i < NOTE_FEEDBACK_N(articles); i++)
			if (strncasecmp(p, articles[i], strlen(articles[i])) == 0) {
				memmove(p, p + strlen(articles[i]), strlen(p + strlen(articles[i])) + 1);
				break;
			}
	}
	return out;
}

/* remove: what the clause asks to leave out (note_rules_feedback_banned),
 * articles and 的事 taken off; NULL when it names a length or nothing
 * (别写太长, 去掉一些, no more than…). */
static json_t *note_feedback_read_remove(const char *clause, const char *text)
{
	char *bare = note_feedback_no_articles(clause);
	json_t *banned = note_rules_feedback_banned(bare), *words = json_array(), *w, *it = NULL;
	const char *arg;
	size_t i;

	free(bare);
	json_array_foreach(banned, i, w) {
		char *c = xstrdup(json_string_value(w));

		note_feedback_strip(c, "the|a|an|any|my|your|our|all", 1);
		note_feedback_strip(c, "的事|的内容|的部分|相关的内容|相关内容|这件事|了|的", 0);
		phrase_add_unique(words, c);
		free(c);
	}
	json_decref(banned);
	arg = json_string_value(json_array_get(words, 0));
	if (arg && !note_feedback_is_one(arg, note_feedback_vague) &&
	    !note_feedback_has(arg, note_feedback_cue_shorter) && !note_feedback_has(arg, note_feedback_cue_longer) &&
	    !note_feedback_has(arg, "more|less|longer|than")) {
		it = note_feedback_item("remove", arg, text);
		json_object_set(it, "words", words);
	}
	json_decref(words);
	return it;
}

/* A title item: op and arg. */
static json_t *note_feedback_title_item(const char *op, const char *arg, const char *text)
{
	json_t *it = note_feedback_item("title", arg, text);

	json_object_set_new(it, "op", json_string(op));
	return it;
}

/* The title's new words after cue at rest; NULL when there are none. */
static json_t *note_feedback_title_words(const char *op, const char *rest, const char *text)
{
	char *x = xstrdup(rest);
	json_t *it = NULL;

	note_feedback_trim(x);
	if (*x)
		it = note_feedback_title_item(op, x, text);
	free(x);
	return it;
}

static json_t *note_feedback_read_title_zh(const char *clause, const char *text)
{
	const char *at = strstr(clause, "标题");
	char *rest;
	size_t off, len;
	json_t *it = NULL;

	if (at == NULL)
		return NULL;
	rest = xstrdup(at + strlen("标题"));
	note_feedback_strip(rest, "里面|里|中|的|可以|能|就|请|要|再|也|最好|得|直接", 1);
	/* 标题换个说法, 换个标题: another title, none given. */
	if ((note_feedback_find(rest, NOTE_FEEDBACK_REPHRASE, &off, &len) && off == 0) ||
	    ((*rest == '\0' || note_feedback_is_one(rest, "吧|呀|啊|哦|了|吗")) &&
	     note_feedback_has(clause, NOTE_FEEDBACK_REPHRASE "|换|改|别的|新的")))
		it = note_feedback_title_item("rephrase", "", text);
	else if (note_feedback_find(rest, "改成|换成|改为|换为|就叫|叫做|叫|用|写成|定为|定成|改|换|是|：|:", &off, &len) &&
	    off == 0)
		it = note_feedback_title_words("set", rest + len, text);
	else if (note_feedback_find(rest, "加上|加入|加|带上|带|放上|要有|包含|出现|有", &off, &len) && off == 0)
		it = note_feedback_title_words("add", rest + len, text);
	else if (note_feedback_has(rest, note_feedback_cue_shorter) || strstr(rest, "短"))
		it = note_feedback_title_item("shorter", "", text);
	free(rest);
	return it;
}

static json_t *note_feedback_read_title_en(const char *clause, const char *text)
{
	size_t off, len, toff, tlen;
	char *x;
	json_t *it = NULL;

	if (note_feedback_has(clause, "rephrase the title|reword the title|another title|a different title|a new title|"
			      "a better title|title another way|title differently"))
		return note_feedback_title_item("rephrase", "", text);
	if (note_feedback_find(clause, "change the title to|rename it to|rename it|retitle it|call it|title it|"
			       "title should be|use the title|the title to|title to|title:|headline:", &off, &len))
		return note_feedback_title_words("set", clause + off + len, text);
	if (!note_feedback_find(clause, "to the title|in the title|to the headline", &toff, &tlen))
		return note_feedback_has(clause, "title|headline") && note_feedback_has(clause, note_feedback_cue_shorter)
			? note_feedback_title_item("shorter", "", text) : NULL;
	if (note_feedback_find(clause, "add|put", &off, &len) && off + len < toff) {
		x = xstrndup(clause + off + len, toff - off - len);
		it = note_feedback_title_words("add", x, text);
		free(x);
	}
	return it;
}

/* more or add: the cue, then the thing (a length or a tone when it is
 * not one). NULL when the clause has no cue of the kind. */
static json_t *note_feedback_read_thing(const char *clause, const char *text, const char *kind,
					const char *cues)
{
	size_t off, len;
	char *subject;
	json_t *it;

	if (!note_feedback_find(clause, cues, &off, &len)) {
		/* 加预算: 加 alone, at the start. */
		if (strcmp(kind, "add") != 0 || strncmp(clause, "加", strlen("加")) != 0 ||
		    note_feedback_has(clause, "加油|加班|加速"))
			return NULL;
		off = 0, len = strlen("加");
	}
	subject = note_feedback_subject(clause + off + len);
	it = note_feedback_not_thing(subject, text);
	if (it == NULL)
		it = note_feedback_item(kind, subject, text);
	free(subject);
	return it;
}

static json_t *note_feedback_read_audience(const char *clause, const char *text)
{
	size_t off, len, n = strlen(clause);
	char *who = NULL;
	json_t *it = NULL;

	if (note_feedback_find(clause, note_feedback_cue_audience, &off, &len))
		who = xstrdup(clause + off + len);
	else if (strncasecmp(clause, "for ", 4) == 0)
		who = xstrdup(clause + 4);
	else if (strncmp(clause, "给", strlen("给")) == 0 && n > 6 && strcmp(clause + n - 3, "看") == 0)
		who = xstrndup(clause + 3, n - 6);
	if (who == NULL)
		return NULL;
	note_feedback_strip(who, "the|a|an|those|people who are", 1);
	note_feedback_strip(who, "看|读|阅读|吧|一点|一些|的朋友们|please", 0);
	if (*who)
		it = note_feedback_item("audience", who, text);
	free(who);
	return it;
}

static json_t *note_feedback_read_format(const char *clause, const char *text)
{
	if (note_feedback_has(clause, note_feedback_cue_table))
		return note_feedback_item("format", "table", text);
	if (note_feedback_has(clause, note_feedback_cue_steps))
		return note_feedback_item("format", "steps", text);
	if (note_feedback_has(clause, note_feedback_cue_list))
		return note_feedback_item("format", "list", text);
	return NULL;
}

/* tone: negated_only reads only a negated one (不要太正式), which goes
 * before a removal is looked for. */
static json_t *note_feedback_read_tone(const char *clause, const char *text, int negated_only)
{
	int neg;
	char *tone = note_feedback_tone(clause, &neg);
	json_t *it = NULL;

	if (tone && (neg || !negated_only))
		it = note_feedback_item("tone", tone, text);
	free(tone);
	return it;
}

/* One clause as an instruction, the more specific readings first; NULL
 * for one that says nothing (谢谢). New reference. */
static json_t *note_feedback_read(const char *text)
{
	char *clause = xstrdup(text);
	json_t *it = NULL;

	note_feedback_strip(clause, note_feedback_fillers, 1);
	if (*clause == '\0' || note_feedback_is_one(clause, note_feedback_courtesy)) {
		free(clause);
		return NULL;
	}
	if (!it) it = note_feedback_read_tone(clause, text, 1);
	if (!it) it = note_feedback_read_remove(clause, text);
	if (!it) it = note_feedback_read_title_zh(clause, text);
	if (!it) it = note_feedback_read_title_en(clause, text);
	if (!it) it = note_feedback_read_thing(clause, text, "more", note_feedback_cue_more);
	if (!it) it = note_feedback_read_thing(clause, text, "add", note_feedback_cue_add);
	if (!it && note_feedback_has(clause, note_feedback_cue_shorter))
		it = note_feedback_item("shorter", "", text);
	if (!it && note_feedback_has(clause, note_feedback_cue_longer))
		it = note_feedback_item("longer", "", text);
	if (!it) it = note_feedback_read_tone(clause, text, 0);
	if (!it) it = note_feedback_read_audience(clause, text);
	if (!it) it = note_feedback_read_format(clause, text);
	if (!it) it = note_feedback_item("other", clause, text);
	free(clause);
	return it;
}

static int note_feedback_is_other(const char *text)
{
	json_t *it = note_feedback_read(text);
	int other = it == NULL || strcmp(json_string_value(json_object_get(it, "kind")), "other") == 0;

	json_decref(it);
	return other;
}

static void note_feedback_push(json_t *items, json_t *it)
{
	const json_t *e;
	size_t i;

	if (it == NULL)
		return;
	json_array_foreach(items, i, e)
		if (json_equal(json_object_get(e, "kind"), json_object_get(it, "kind")) &&
		    json_equal(json_object_get(e, "arg"), json_object_get(it, "arg"))) {
			json_decref(it);
			return;
		}
	if (json_array_size(items) < NOTE_FEEDBACK_ITEMS_MAX)
		json_array_append_new(items, it);
	else
		json_decref(it);
}

#define NOTE_FEEDBACK_JOIN_MAX 400   /* bytes of a clause looked into for joining words */

/* A clause, cut at a joining word when both sides are instructions (the
 * right side again). */
static void note_feedback_clause(json_t *items, const char *clause)
{
	size_t n = strlen(clause);

	for (size_t i = 1; n <= NOTE_FEEDBACK_JOIN_MAX && i < n; i++) {
		for (const char *c = note_feedback_joiners; *c && ((unsigned char)clause[i] & 0xC0) != 0x80;) {
			size_t len = strcspn(c, "|");
			char *left, *right;

			if (!note_feedback_cue_at(clause, clause + i, c, len)) {
				c += len + (c[len] == '|');
				continue;
			}
			left = xstrndup(clause, i);
			right = xstrdup(clause + i + len);
			note_feedback_trim(left);
			note_feedback_trim(right);
			if (*left && *right && !note_feedback_is_other(left) && !note_feedback_is_other(right)) {
				note_feedback_push(items, note_feedback_read(left));
				note_feedback_clause(items, right);
				free(left);
				free(right);
				return;
			}
			free(left);
			free(right);
			c += len + (c[len] == '|');
		}
	}
	note_feedback_push(items, note_feedback_read(clause));
}

/* The length of a clause separator at p, or 0: ，。；！？ and new lines,
 * and , ; ! ? and a full stop that ends a sentence (not 3.5). */
static size_t note_feedback_sep(const char *p)
{
	static const char *const wide[] = { "，", "。", "；", "！", "？", "\n", ",", ";", "!", "?" };

	for (size_t i = 0; i < NOTE_FEEDBACK_N(wide); i++)
		if (strncmp(p, wide[i], strlen(wide[i])) == 0)
			return strlen(wide[i]);
	if (*p == '.' && (p[1] == ' ' || p[1] == '\0' || p[1] == '\n'))
		return 1;
	return 0;
}

json_t *note_feedback_items(const char *feedback)
{
	json_t *items = json_array();
	char *text = phrase_truncate(feedback ? feedback : "", NOTE_FEEDBACK_READ_MAX / 3);
	const char *p = text, *start = text;

	for (;; p++) {
		size_t sep = *p ? note_feedback_sep(p) : 1;

		if (sep == 0)
			continue;
		if (p > start && json_array_size(items) < NOTE_FEEDBACK_ITEMS_MAX) {
			char *clause = xstrndup(start, (size_t)(p - start));

			note_feedback_trim(clause);
			if (*clause)
				note_feedback_clause(items, clause);
			free(clause);
		}
		if (*p == '\0')
			break;
		p += sep - 1;
		start = p + 1;
	}
	free(text);
	return items;
}

/* ---- the words of a subject ---- */

/* 1 when text says a price: digits then 元 or 块, or ¥ or $ then digits. */
static int note_feedback_has_price(const char *text)
{
	for (const char *p = text; *p; p++) {
		const char *q = p;

		if (strncmp(p, "¥", strlen("¥")) == 0 || *p == '$') {
			q = p + (*p == '$' ? 1 : strlen("¥"));
			if (*q >= '0' && *q <= '9')
				return 1;
			continue;
		}
		if (*p < '0' || *p > '9' || (p > text && p[-1] >= '0' && p[-1] <= '9'))
			continue;
		while ((*q >= '0' && *q <= '9') || *q == ' ' || *q == ',')
			q++;
		if (strncmp(q, "元", strlen("元")) == 0 || strncmp(q, "块", strlen("块")) == 0)
			return 1;
	}
	return 0;
}

int note_feedback_has_term(const char *text, const char *term)
{
	size_t n = term ? strlen(term) : 0;

	if (text == NULL || n == 0)
		return 0;
	if (strcmp(term, NOTE_FEEDBACK_PRICE) == 0)
		return note_feedback_has_price(text);
	for (const char *p = text; *p; p++)
		if (note_feedback_cue_at(text, p, term, n))
			return 1;
	return 0;
}

static void note_feedback_add_synonyms(json_t *terms, const char *word)
{
	for (size_t i = 0; i < NOTE_FEEDBACK_N(note_feedback_synonyms); i++) {
		const char *g = note_feedback_synonyms[i];

		if (!note_feedback_is_one(word, g))
			continue;
		for (const char *c = g; *c && json_array_size(terms) < NOTE_FEEDBACK_TERMS_MAX;) {
			size_t n = strcspn(c, "|");
			char *w = xstrndup(c, n);

			phrase_add_unique(terms, w);
			free(w);
			c += n + (c[n] == '|');
		}
	}
}

json_t *note_feedback_terms(const json_t *item)
{
	static const char *const seps[] = { "以及", "和", "、", "与", "及", "跟", "或", "/", ",", "，", "&", "+",
					    " and ", " or " };
	const char *arg = json_string_value(json_object_get(item, "arg")) ?: "";
	json_t *terms = json_array();
	const char *p = arg, *start = arg;

	for (;; p++) {
		size_t sep = 0;

		for (size_t i = 0; *p && i < NOTE_FEEDBACK_N(seps) && sep == 0; i++)
			if (strncasecmp(p, seps[i], strlen(seps[i])) == 0)
				sep = strlen(seps[i]);
		if (*p && sep == 0)
			continue;
		if (p > start && json_array_size(terms) < NOTE_FEEDBACK_TERMS_MAX) {
			char *w = xstrndup(start, (size_t)(p - start));

			note_feedback_strip(w, "the|a|an", 1);
			phrase_add_unique(terms, w);
			note_feedback_add_synonyms(terms, w);
			free(w);
		}
		if (*p == '\0')
			break;
		p += sep - 1;
		start = p + 1;
	}
	return terms;
}
