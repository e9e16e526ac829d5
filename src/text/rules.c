/* Intent rules (see rules.h). The image, search and time rules are the
 * user's routing rules (seed 004 §2, §3, §7.1) as tables of patterns, in
 * the seed's order; some rules also check what they captured (a request
 * to "generate code" is not a picture, "draw a pie chart" is not either).
 * The subject and style extraction lives in rules_subject.c and shares
 * the pattern compiling and matching declared in rules_int.h. */
#include "config.h"
#include <string.h>
#include "text/rules.h"
#include "text/rules_int.h"

enum rules_check {
	RULES_CHECK_NONE,
	RULES_CHECK_DESC2,    /* capture 1: ≥ 2 characters, not a text-type thing */
	RULES_CHECK_DESC4,    /* capture 1: ≥ 4 characters, not a text-type thing */
	RULES_CHECK_OBJECT2,  /* capture 1: ≥ 2 characters, not a chart */
	RULES_CHECK_NOCHART   /* the whole match names no chart */
};

struct rules_pat {
	const char *name;
	const char *re;
	double confidence;
	enum rules_check check;
	int exclude;          /* a match decides "no" */
};

/* Chinese numerals and measure words for pictures (seed: 一张 / 三幅). */
#define RULES_NUM "[一两二三四五六七八九十几百\\d]+"

static const struct rules_pat rules_image_pats[] = {
	{ "neg_recall", "(?:记得|想起|回忆).*?(?:画|图|生成)", 0.9, RULES_CHECK_NONE, 1 },
	{ "neg_past", "(?:之前|上次|以前).*?(?:画|绘|生成)", 0.85, RULES_CHECK_NONE, 1 },
	{ "neg_cannot", "(?:不能|不会|无法).*?(?:画|绘|生成)", 0.85, RULES_CHECK_NONE, 1 },
	/* The words after the measure or the request are read too: a chart
	 * named there (画一张流程图, 帮我画一个架构图) is not a picture. */
	{ "measure", "[画绘](?:制|出)?\\s*" RULES_NUM "\\s*[张幅副帧组].{0,10}", 0.95,
	  RULES_CHECK_NOCHART, 0 },
	{ "request", "(?:给我|帮我|帮忙|请|来)[画绘].{0,12}", 0.95, RULES_CHECK_NOCHART, 0 },
	/* 来张图 / 要一幅画 / 整两张壁纸 / 来一张城市夜景的壁纸: asking for a picture
	 * without a verb of drawing. */
	{ "ask_picture", "(?:来|要|整|出)\\s*" "(?:" RULES_NUM ")?\\s*[张幅](?:[^，。,.!?！？]{1,12}?的)?"
	  "(?:图|画|照片|相片|插画|壁纸|头像)",
	  0.9, RULES_CHECK_NOCHART, 0 },
	{ "gen_picture", "生成.{0,8}?(?:图|画|照片|相片|插画|壁纸|头像)", 0.9,
	  RULES_CHECK_NOCHART, 0 },
	{ "make_picture", "(?:制作|创作).{0,8}?(?:图|画|(?<![好就想])像)", 0.85,
	  RULES_CHECK_NOCHART, 0 },
	/* 生成 opening a clause, as a command: 生成美少女, 请生成…, 我想生成… */
	{ "gen_desc", "(?:^|[\\s\\p{P}])(?:请你?|麻烦你?|帮我|给我|帮忙|我想|我要|想要|再|重新|直接)*"
		      "生成(.+)", 0.8, RULES_CHECK_DESC2, 0 },
	{ "can_gen", "(?:可以|能)(?:不能|否)?(?:帮我|给我|为我|再|直接)?生成(.+)", 0.75,
	  RULES_CHECK_DESC4, 0 },
	/* 画 / 绘 as a verb, not inside a noun (动画, 画面, 画家…). */
	{ "draw_object", "(?<![动漫壁国字书名版插原刻油水笔])[画绘](?:制|出)?"
			 "(?![面家展册质廊框师布板笔本室])(?!大?饼(?![图状]))(.+)", 0.75, RULES_CHECK_OBJECT2, 0 },
	{ "english", "\\b(?:draw|paint|sketch|illustrate)\\b|\\b(?:generate|create|make|render|design)\\b"
		     ".{0,40}?\\b(?:image|picture|photo|illustration|drawing|painting|wallpaper|"
		     "poster|portrait|logo|icon|artwork)s?\\b", 0.85, RULES_CHECK_NONE, 0 },
};

static const struct rules_pat rules_search_pats[] = {
	{ "search_verb", "搜索|搜一下|搜一搜|搜搜看|帮我搜|百度一下", 0.9, RULES_CHECK_NONE, 0 },
	{ "day_news", "(?:[今明昨后]天|今日|明日).{0,6}?(?:新闻|天气|气温)", 0.9, RULES_CHECK_NONE, 0 },
	{ "today_events", "(?:今天|今日|昨天|最近|这几天)(?:都|又)?发生了?(?:什么|啥|哪些)", 0.9,
	  RULES_CHECK_NONE, 0 },
	{ "latest_news", "(?:最新|最近).{0,6}?(?:新闻|资讯|消息|动态|进展|事件)", 0.85,
	  RULES_CHECK_NONE, 0 },
	{ "realtime", "实时.{0,4}?(?:信息|数据|行情|路况|汇率|价格|天气|比分)", 0.85,
	  RULES_CHECK_NONE, 0 },
	{ "hot_topics", "热点|头条|热搜|热门话题|热榜", 0.85, RULES_CHECK_NONE, 0 },
	{ "online", "(?:联网|上网|网上|在线)(?:搜|查)", 0.9, RULES_CHECK_NONE, 0 },
	{ "current_price", "(?:现在|当前|目前|今天)的?.{0,6}?(?:价格|天气|汇率|股价|金价|油价|房价|气温)",
	  0.8, RULES_CHECK_NONE, 0 },
	{ "dated_events", "(?:19|20)\\d{2}\\s*年\\s*\\d{1,2}\\s*月.{0,12}?(?:发生|事件|新闻|大事|消息|怎么了|比赛|会议|峰会|发布会?|选举|大会|地震|赛事|奥运|世界杯)",
	  0.8, RULES_CHECK_NONE, 0 },
	{ "english", "\\bsearch\\b|\\blook\\s+up\\b|\\bgoogle\\b|\\blatest\\b|\\bbreaking\\s+news\\b|"
		     "\\b(?:today'?s|current)\\s+(?:news|weather|headlines|prices?|stocks?)\\b", 0.8,
	  RULES_CHECK_NONE, 0 },
};

static const struct rules_pat rules_time_pats[] = {
	{ "clock", "现在几点|几点了|几点钟了|现在.{0,2}时间|当前时间|北京时间|什么时间了|现在是什么时候",
	  0.95, RULES_CHECK_NONE, 0 },
	{ "date", "今天几号|今天是几号|[今明昨]天.{0,2}日期|几月几[号日]|今天是哪天", 0.95,
	  RULES_CHECK_NONE, 0 },
	{ "weekday", "(?:星期|礼拜|周)几", 0.9, RULES_CHECK_NONE, 0 },
	{ "timestamp", "时间戳|unix\\s*(?:时间|time)|\\bepoch\\b", 0.9, RULES_CHECK_NONE, 0 },
	{ "english", "\\bwhat\\s+time\\s+is\\s+it\\b|\\bcurrent\\s+(?:time|date)\\b|"
		     "\\bwhat(?:'s|\\s+is)\\s+the\\s+(?:time|date)\\b|\\btoday'?s\\s+date\\b|"
		     "\\bwhat\\s+day\\s+is\\s+(?:it|today)\\b|\\btime\\s*stamp\\b", 0.9,
	  RULES_CHECK_NONE, 0 },
};

#define RULES_N(a) (sizeof(a) / sizeof((a)[0]))

/* What a description "生成 X" must not be for X to be a picture. */
#define RULES_TEXT_KINDS \
	"代码|程序|脚本|函数|接口|sql|json|xml|html|css|正则|文章|文案|文档|文本|文字|总结|摘要|" \
	"报告|列表|清单|大纲|提纲|方案|计划|邮件|信件|短信|故事|小说|诗|歌词|标题|回答|答案|回复|" \
	"翻译|简历|论文|作文|日记|评论|名字|名称|口号|密码|随机数|数据|题目|试卷|笔记|字幕|剧本|" \
	"对话|问题|句子|段落|周报|日报|合同|协议|prompt|提示词|配置|命令|音乐|歌曲|视频|语音|" \
	"纪要|记录|说明|教案|ppt|幻灯片|演讲稿|讲稿|公告|通知|简介|[一两几]份"
/* Charts and diagrams: drawn by other tools, not by the image model. */
#define RULES_CHART_KINDS \
	"饼图|饼状图|柱状图|柱形图|条形图|折线图|曲线图|散点图|雷达图|热力图|面积图|流程图|结构图|" \
	"架构图|组织架构|时序图|甘特图|思维导图|导图|脑图|表格|图表|统计图|线框图|原型图|er图|uml|" \
	"类图|拓扑图|关系图|数据图|k线|excel|\\bcharts?\\b|\\bdiagrams?\\b|\\bgraphs?\\b|\\btables?\\b"

/* A place in the picture pointed at, and the verbs that change one. */
#define RULES_REGION_PLACE \
	"这里|这儿|这块|这一块|这部分|这一部分|这个(?:地方|区域|部分|位置|角落)|此处|这边|那里|那儿|" \
	"那块|那部分|选中的?(?:区域|部分|地方)|涂抹的?(?:区域|部分|地方)|框选的?(?:区域|部分)"
#define RULES_REGION_VERB \
	"修改|修|改|换|替换|重绘|重画|擦|去掉|删掉|抹掉|涂|加上|添加|加个|放|变|画"

#define RULES_ADJUST_WORDS \
	"调整|再调|调一下|更亮|更暗|亮一点|暗一点|亮一些|暗一些|调亮|调暗|" \
	"风格强度|强度|分辨率|尺寸|对比度|饱和度|色调|清晰度|参数|放大|缩小|" \
	"\\bbrighter\\b|\\bdarker\\b|\\bresolution\\b|\\bcontrast\\b|" \
	"\\bsaturation\\b|\\badjust|\\btweak"

enum rules_aux {
	RULES_AUX_TEXT_KINDS,
	RULES_AUX_CHART_KINDS,
	RULES_AUX_TRIM_HEAD,
	RULES_AUX_TRIM_TAIL,
	RULES_AUX_ADJUST,
	RULES_AUX_ADJUST_LEAD,
	RULES_AUX_GREETING,
	RULES_AUX_BLANK,
	RULES_AUX_REGION_EDIT,
	RULES_AUX_SMALL_TALK,
	RULES_AUX_OTHER_TASK,
	RULES_AUX_REGENERATE,
	RULES_AUX_NOTE_KINDS,
	RULES_NAUX
};

static const char *const rules_aux_res[RULES_NAUX] = {
	[RULES_AUX_TEXT_KINDS] = RULES_TEXT_KINDS "|" RULES_CHART_KINDS,
	[RULES_AUX_CHART_KINDS] = RULES_CHART_KINDS,
	[RULES_AUX_TRIM_HEAD] = "^[\\s\\p{P}\\p{S}]+",
	[RULES_AUX_TRIM_TAIL] = "[\\s\\p{P}\\p{S}吗呢吧啊呀嘛哦哟]+\\z",
	[RULES_AUX_ADJUST] = RULES_ADJUST_WORDS,
	/* The message opens with the adjustment: 再调整一下…, 风格强度 90, make it brighter. */
	[RULES_AUX_ADJUST_LEAD] = "^[\\s\\p{P}\\p{S}]*(?:请|帮我|麻烦)?\\s*(?:再|重新)?\\s*"
				  "(?:把它|把图片?|将图片?|图片|画面|整体|整张图?)?\\s*(?:\\bmake\\s+it\\s+)?"
				  "(?:" RULES_ADJUST_WORDS ")",
	[RULES_AUX_GREETING] = "^[\\s\\p{P}\\p{S}]*(?:(?:你好|您好|嗨|哈喽|哈啰|哈罗|早上好|中午好|"
			       "下午好|晚上好|早安|午安|晚安|在吗|在不在|大家好|\\bhi\\b|\\bhello\\b|"
			       "\\bhey\\b|\\bhiya\\b|\\bhowdy\\b|\\bgood\\s+(?:morning|afternoon|evening)\\b|"
			       "\\bgreetings\\b)(?:呀|啊|哇|哦|呢|\\s*there)?[\\s\\p{P}\\p{S}]*)+\\z",
	[RULES_AUX_BLANK] = "^[\\s\\p{P}\\p{S}\\p{M}\\p{Z}\\p{Cf}]*\\z",
	/* A change to one place in the picture: a place pointed at (这里, this
	 * part) near a verb of change, or repainting by name. */
	[RULES_AUX_REGION_EDIT] = "局部重绘|局部修改|局部重画|重绘(?:这|那|选中|涂抹)|"
		"(?:" RULES_REGION_PLACE ").{0,8}?(?:" RULES_REGION_VERB ")|"
		"(?:" RULES_REGION_VERB ").{0,6}?(?:" RULES_REGION_PLACE ")|"
		"\\b(?:inpaint(?:ing)?|repaint)\\b|"
		"\\b(?:change|replace|edit|fix|modify|remove|erase|redraw)\\b.{0,24}?"
		"\\b(?:here|there|this\\s+(?:part|area|region|spot|bit|corner))\\b",
	/* The whole message is small talk: thanks, yes and no, laughter, goodbye. */
	[RULES_AUX_SMALL_TALK] = "^[\\s\\p{P}\\p{S}]*(?:(?:谢谢你?|多谢|感谢|辛苦了?|好的?|好吧|行|嗯+|哦+|噢|"
		"对|不对|是的?|不是|没事|没有|收到|知道了|明白了?|哈哈+|呵呵+|嘿嘿+|再见|拜拜|晚安|测试|"
		"\\bthanks?(?:\\s+you)?\\b|\\bthx\\b|\\bok(?:ay)?\\b|\\byes\\b|\\bno\\b|"
		"\\bnope\\b|\\byep\\b|\\bsure\\b|\\bcool\\b|\\bnice\\b|\\blol\\b|\\bha(?:ha)+\\b|"
		"\\bbye\\b|\\bgoodbye\\b|\\btest(?:ing)?\\b|\\bhmm+\\b)(?:啦|了|呀|啊|哈|哦)?"
		"[\\s\\p{P}\\p{S}]*)+\\z",
	/* A request for something other than a picture: write, translate, explain… */
	[RULES_AUX_OTHER_TASK] = "^[\\s\\p{P}\\p{S}]*(?:(?:请你?|麻烦你?|帮我|给我|为我|帮忙|我想|我要|你能|能不能|"
		"可以)\\s*)*(?:写(?![实意生])|翻译|计算|算一下|解释|总结|概括|查一下|查询|讲|告诉我|推荐|介绍|分析|回答|"
		"证明|编写|修复代码)|^\\s*(?:please\\s+)?(?:write|translate|calculate|compute|explain|"
		"summari[sz]e|tell\\s+me|recommend|solve|prove|code)\\b",
	/* The whole message asks for the last picture again: 重新生成, 再来一张,
	 * 换一张, regenerate, try again. */
	[RULES_AUX_REGENERATE] = "^[\\s\\p{P}\\p{S}]*(?:(?:请你?|帮我|麻烦你?|给我)\\s*)?"
		"(?:(?:重新生成|重新画|重新来|重新做|重画|重来|重做|重新|再生成|再画|再来)"
		"(?:\\s*(?:一[张幅次遍下个]|[张幅个]))?|换\\s*(?:一[张幅个]|[张幅个]))"
		"(?:图片?|吧|呀|啊|哦|看看|试试)*[\\s\\p{P}\\p{S}]*\\z|"
		"^[\\s\\p{P}\\p{S}]*(?:please\\s+)?(?:re-?generate(?:\\s+(?:it|this|the\\s+(?:image|picture)))?|"
		"redo(?:\\s+it)?|retry|try\\s+again|again|another(?:\\s+one)?|one\\s+more|"
		"(?:generate|draw|make)\\s+(?:it\\s+)?(?:again|another(?:\\s+one)?))"
		"(?:[\\s,，]*please)?[\\s\\p{P}\\p{S}]*\\z",
	/* What the note writer writes: 小红书笔记, 文案, 种草, a Xiaohongshu post. */
	[RULES_AUX_NOTE_KINDS] = "小红书|笔记|文案|种草|图文|(?i:xiaohongshu|rednote|\\bnotes?\\b|"
		"\\bposts?\\b)",
};

static pcre2_code *rules_image_code[RULES_N(rules_image_pats)];
static pcre2_code *rules_search_code[RULES_N(rules_search_pats)];
static pcre2_code *rules_time_code[RULES_N(rules_time_pats)];
static pcre2_code *rules_aux_code[RULES_NAUX];
static int rules_ready;
/* One match data for every match: the rules run one at a time, and the
 * callers read at most group 1, so two pairs are enough (a pattern with
 * more groups answers 0, "too small", and fills those two). Created on
 * first use, freed by rules_free. */
static pcre2_match_data *rules_md;


pcre2_code *rules_compile(const char *name, const char *re)
{
	int err;
	PCRE2_SIZE off;
	PCRE2_UCHAR msg[160];
	pcre2_code *c;

	c = pcre2_compile((PCRE2_SPTR)re, PCRE2_ZERO_TERMINATED,
			  PCRE2_UTF | PCRE2_UCP | PCRE2_CASELESS | PCRE2_DOTALL |
			  PCRE2_MATCH_INVALID_UTF, &err, &off, NULL);
	if (c == NULL) {
		pcre2_get_error_message(err, msg, sizeof msg);
		log_error("rule %s does not compile: %s at offset %zu", name, (const char *)msg,
			  (size_t)off);
		return NULL;
	}
	/* Machine code when the library has a JIT (pcre2_match uses it by
	 * itself); without one the interpreter answers the same. */
	pcre2_jit_compile(c, PCRE2_JIT_COMPLETE);
	return c;
}

static void rules_compile_set(const struct rules_pat *p, pcre2_code **codes, size_t n)
{
	for (size_t i = 0; i < n; i++)
		codes[i] = rules_compile(p[i].name, p[i].re);
}

static void rules_free_set(pcre2_code **codes, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		pcre2_code_free(codes[i]);
		codes[i] = NULL;
	}
}

static void rules_init(void)
{
	if (rules_ready)
		return;
	rules_ready = 1;
	rules_compile_set(rules_image_pats, rules_image_code, RULES_N(rules_image_pats));
	rules_compile_set(rules_search_pats, rules_search_code, RULES_N(rules_search_pats));
	rules_compile_set(rules_time_pats, rules_time_code, RULES_N(rules_time_pats));
	for (size_t i = 0; i < RULES_NAUX; i++)
		rules_aux_code[i] = rules_compile("aux", rules_aux_res[i]);
}

void rules_free(void)
{
	rules_free_set(rules_image_code, RULES_N(rules_image_pats));
	rules_free_set(rules_search_code, RULES_N(rules_search_pats));
	rules_free_set(rules_time_code, RULES_N(rules_time_pats));
	rules_free_set(rules_aux_code, RULES_NAUX);
	rules_subject_free();
	pcre2_match_data_free(rules_md);
	rules_md = NULL;
	rules_ready = 0;
}

size_t rules_text_len(const char *text)
{
	size_t n = text ? strnlen(text, RULES_TEXT_MAX + 1) : 0;

	if (n <= RULES_TEXT_MAX)
		return n;
	/* Cut long text at a character boundary. */
	n = RULES_TEXT_MAX;
	while (n > 0 && ((unsigned char)text[n] & 0xC0) == 0x80)
		n--;
	return n;
}

static pcre2_match_data *rules_match_data(void)
{
	if (rules_md == NULL)
		rules_md = pcre2_match_data_create(2, NULL);
	return rules_md;
}

int rules_find(const pcre2_code *c, const char *s, size_t len, size_t from, size_t ov[4])
{
	pcre2_match_data *md = rules_match_data();
	PCRE2_SIZE *v;
	int rc;

	if (c == NULL || s == NULL || from > len || md == NULL)
		return 0;
	rc = pcre2_match(c, (PCRE2_SPTR)s, len, from, 0, md, NULL);
	if (rc < 0)
		return 0;
	v = pcre2_get_ovector_pointer(md);
	ov[0] = v[0];
	ov[1] = v[1];
	ov[2] = rc != 1 ? v[2] : PCRE2_UNSET;
	ov[3] = rc != 1 ? v[3] : PCRE2_UNSET;
	return 1;
}

size_t rules_chars(const char *s, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++)
		if (((unsigned char)s[i] & 0xC0) != 0x80)
			n++;
	return n;
}

/* The span [*a, *b) without leading punctuation and trailing punctuation
 * or sentence particles (吗, 呢, 吧…). */
static void rules_trim_span(const char *s, size_t *a, size_t *b)
{
	size_t ov[4];

	if (*b <= *a)
		return;
	if (rules_find(rules_aux_code[RULES_AUX_TRIM_HEAD], s + *a, *b - *a, 0, ov))
		*a += ov[1];
	if (*b > *a && rules_find(rules_aux_code[RULES_AUX_TRIM_TAIL], s + *a, *b - *a, 0, ov))
		*b = *a + ov[0];
}

static int rules_span_has(int which, const char *s, size_t a, size_t b)
{
	size_t ov[4];

	return b > a && rules_find(rules_aux_code[which], s + a, b - a, 0, ov);
}

/* The checks some rules make on what they matched. */
static int rules_check(enum rules_check ck, const char *s, const size_t ov[4])
{
	size_t a = ov[2], b = ov[3];

	switch (ck) {
	case RULES_CHECK_NONE:
		return 1;
	case RULES_CHECK_NOCHART:
		return !rules_span_has(RULES_AUX_CHART_KINDS, s, ov[0], ov[1]);
	default:
		break;
	}
	if (a == PCRE2_UNSET)
		return 0;
	rules_trim_span(s, &a, &b);
	if (b <= a || rules_chars(s + a, b - a) < (ck == RULES_CHECK_DESC4 ? 4u : 2u))
		return 0;
	if (ck == RULES_CHECK_OBJECT2)
		return !rules_span_has(RULES_AUX_CHART_KINDS, s, a, b);
	return !rules_span_has(RULES_AUX_TEXT_KINDS, s, a, b);
}

/* Does pattern i fire: some match of it passes its check. */
static int rules_fires(const struct rules_pat *p, const pcre2_code *c, const char *s, size_t len)
{
	size_t ov[4], from = 0;

	for (int tries = 0; tries < 32 && rules_find(c, s, len, from, ov); tries++) {
		if (rules_check(p->check, s, ov))
			return 1;
		/* The next match starts after this one's first character. */
		from = ov[0] + 1;
		while (from < len && ((unsigned char)s[from] & 0xC0) == 0x80)
			from++;
	}
	return 0;
}

static struct rules_match rules_run(const struct rules_pat *p, pcre2_code **codes, size_t n,
				    const char *text)
{
	struct rules_match m = { 0, "none", 0.0 };
	size_t len;

	rules_init();
	len = rules_text_len(text);
	for (size_t i = 0; len > 0 && i < n; i++) {
		if (!rules_fires(&p[i], codes[i], text, len))
			continue;
		m.matched = !p[i].exclude;
		m.rule = p[i].name;
		m.confidence = p[i].confidence;
		break;
	}
	return m;
}

struct rules_match rules_image_intent(const char *text)
{
	return rules_run(rules_image_pats, rules_image_code, RULES_N(rules_image_pats), text);
}

struct rules_match rules_search_intent(const char *text)
{
	return rules_run(rules_search_pats, rules_search_code, RULES_N(rules_search_pats), text);
}

struct rules_match rules_time_intent(const char *text)
{
	return rules_run(rules_time_pats, rules_time_code, RULES_N(rules_time_pats), text);
}

static const char *const rules_route_names[] = {
	[RULES_ROUTE_IMAGE] = "image_gen",
	[RULES_ROUTE_SEARCH] = "web_search",
	[RULES_ROUTE_TIME] = "time_query",
	[RULES_ROUTE_CHAT] = "chat",
};

const char *rules_route_name(enum rules_route_kind k)
{
	return k <= RULES_ROUTE_CHAT ? rules_route_names[k] : "chat";
}

struct rules_decision rules_route(const char *text)
{
	struct rules_decision d;
	struct rules_match img = rules_image_intent(text);

	d.kind = RULES_ROUTE_CHAT;
	d.m = img;
	if (img.matched) {
		d.kind = RULES_ROUTE_IMAGE;
	} else if ((d.m = rules_time_intent(text)).matched) {
		d.kind = RULES_ROUTE_TIME;
	} else if ((d.m = rules_search_intent(text)).matched) {
		d.kind = RULES_ROUTE_SEARCH;
	} else if (img.confidence > 0) {
		/* An exclusion said why this is not a picture request. */
		d.m = img;
	}
	d.route = rules_route_name(d.kind);
	return d;
}

static int rules_aux_match(int which, const char *text)
{
	size_t ov[4];

	rules_init();
	return rules_find(rules_aux_code[which], text, rules_text_len(text), 0, ov);
}

/* A match of one auxiliary pattern as a rule with its confidence. */
static struct rules_match rules_aux_hit(int which, const char *text, const char *rule,
					double confidence)
{
	struct rules_match m = { 0, "none", 0.0 };

	if (text && rules_aux_match(which, text)) {
		m.matched = 1;
		m.rule = rule;
		m.confidence = confidence;
	}
	return m;
}

struct rules_match rules_adjust_intent(const char *text)
{
	struct rules_match m = rules_aux_hit(RULES_AUX_ADJUST_LEAD, text, "adjust_lead", 0.85);

	return m.matched ? m : rules_aux_hit(RULES_AUX_ADJUST, text, "adjust", 0.7);
}

int rules_greeting(const char *text)
{
	return text && *text && rules_aux_match(RULES_AUX_GREETING, text);
}

int rules_blank(const char *text)
{
	return text == NULL || rules_aux_match(RULES_AUX_BLANK, text);
}

struct rules_match rules_region_edit(const char *text)
{
	return rules_aux_hit(RULES_AUX_REGION_EDIT, text, "region_edit", 0.8);
}

int rules_small_talk(const char *text)
{
	return text && *text && rules_aux_match(RULES_AUX_SMALL_TALK, text);
}

int rules_other_task(const char *text)
{
	return text && *text && rules_aux_match(RULES_AUX_OTHER_TASK, text);
}

int rules_note_request(const char *text)
{
	return rules_other_task(text) && rules_aux_match(RULES_AUX_NOTE_KINDS, text);
}

struct rules_match rules_regenerate(const char *text)
{
	return rules_aux_hit(RULES_AUX_REGENERATE, text, "regenerate", 0.9);
}
