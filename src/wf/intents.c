/* What a message asks for (see intents.h): the image, search and time
 * rules as tables of patterns in the seed's order, some checking what
 * they captured (a request to "generate code" is not a picture, "draw a
 * pie chart" is not either), and single patterns for a greeting, small
 * talk, another kind of task and an empty message. */
#include "config.h"
#include "text/rules_int.h"
#include "wf/intents.h"

static int intents_no_chart(const char *s, const size_t ov[4]);
static int intents_desc2(const char *s, const size_t ov[4]);
static int intents_desc4(const char *s, const size_t ov[4]);
static int intents_object2(const char *s, const size_t ov[4]);

/* Chinese numerals and measure words for pictures (seed: 一张 / 三幅). */
#define INTENTS_NUM "[一两二三四五六七八九十几百\\d]+"

/* 画饼 (an empty promise), 画龙点睛, 画蛇添足, 画上句号, 画重点… */
#define INTENTS_IDIOMS_ZH \
	"画(?:了|过)?(?:一?个|这个|那个|好)?大?饼(?![干图状])|画龙点睛|画蛇添足|画地为牢|画虎(?:不成|类犬)|" \
	"指手画脚|比手画脚|照猫画虎|依样画葫芦|描眉画眼|画(?:上|下)了?(?:一个|个)?(?:圆满的|完美的)?句号|" \
	"画(?:个|了个)?等号|画(?:一下|个|了个)?重点|画(?:个|了个)?问号|画(?:一条|条|清|好)?(?:红线|底线|界线|界限|三八线)|" \
	"画押|画外音|如诗如画|诗情画意|画风(?:突变|不对|清奇)|画(?:个|一个)?圈圈诅咒"
/* draw conclusions, draw a line under, back to the drawing board, draw
 * attention, paint a bleak picture, sketch out a plan… */
#define INTENTS_IDIOMS_EN \
	"\\b(?:draw|draws|drew|drawn|drawing)\\s+(?:(?:a|an|the|some|any|my|your|our|their|his|her|its|no|" \
	"firm|clear|fine|useful|important)\\s+)*(?:conclusions?|inferences?|lessons?|(?:lines?|distinctions?)\\s+" \
	"(?:under|between|in\\s+the\\s+sand)|the\\s+line|attention|blanks?|lots|straws?|the\\s+short\\s+straw|" \
	"near(?:er)?|closer|to\\s+a\\s+close|up\\s+(?:a|an|the|my|our|your)\\s+(?:plan|contract|list|budget|" \
	"agreement|proposal|will|schedule|report)|on\\s+(?:my|your|our|his|her|their)\\s+(?:experience|knowledge|" \
	"savings)|inspiration|money|cash|water|breath|comparisons?|parallels?|fire|criticism|crowds?|curtains?|" \
	"bath|blood|salary|cards?|pension|support|interest)\\b|\\bdrawing\\s+boards?\\b|" \
	"\\bpaint(?:s|ed|ing)?\\s+(?:the\\s+town\\s+red|\\w+\\s+into\\s+a\\s+corner|(?:a|an|the)\\s+(?:rosy|bleak|grim|" \
	"gloomy|clear|vivid|dark|different|mixed|complete|fuller?|better|worse|optimistic|pessimistic|" \
	"accurate|misleading|false|troubling|worrying|positive|negative)\\s+picture|(?:\\w+\\s+)?with\\s+" \
	"(?:a|the\\s+same)\\s+broad\\s+brush)|\\bsketch(?:es|ed|ing)?\\s+out\\s+(?:a|an|the|my|our|your)\\s+" \
	"(?:plan|idea|proposal|strategy|roadmap|outline|approach|timeline|budget|agenda)\\b"

static const struct rules_pat intents_image_pats[] = {
	{ "neg_recall", "(?:记得|想起|回忆).*?(?:画|图|生成)", 0.9, NULL, 1 },
	{ "neg_past", "(?:之前|上次|以前).*?(?:画|绘|生成)", 0.85, NULL, 1 },
	/* 不能 / 不会, not the question 能不能 / 会不会. */
	{ "neg_cannot", "(?:(?<!能)不能|(?<!会)不会|无法).*?(?:画|绘|生成)", 0.85, NULL, 1 },
	/* Idioms and figures of speech with 画 / draw / paint: not pictures. */
	{ "neg_idiom", INTENTS_IDIOMS_ZH "|" INTENTS_IDIOMS_EN, 0.9, NULL, 1 },
	/* The words after the measure or the request are read too: a chart
	 * named there (画一张流程图, 帮我画一个架构图) is not a picture. */
	{ "measure", "[画绘](?:制|出)?\\s*" INTENTS_NUM "\\s*[张幅副帧组].{0,10}", 0.95,
	  intents_no_chart, 0 },
	{ "request", "(?:给我|帮我|帮忙|请|来)[画绘].{0,12}", 0.95, intents_no_chart, 0 },
	/* 来张图 / 要一幅画 / 整两张壁纸 / 做一张海报 / 来一张城市夜景的壁纸: asking for a picture
	 * without a verb of drawing. */
	{ "ask_picture", "(?:来|要|整|出|做)\\s*" "(?:" INTENTS_NUM ")?\\s*[张幅](?:[^，。,.!?！？]{1,12}?的)?"
	  "(?:图|画|照片|相片|插画|壁纸|头像|海报)",
	  0.9, intents_no_chart, 0 },
	{ "gen_picture", "生成.{0,8}?(?:图|画|照片|相片|插画|壁纸|头像)", 0.9,
	  intents_no_chart, 0 },
	{ "make_picture", "(?:制作|创作).{0,8}?(?:图|画|(?<![好就想])像)", 0.85,
	  intents_no_chart, 0 },
	/* 生成 opening a clause, as a command: 生成美少女, 请生成…, 我想生成… */
	{ "gen_desc", "(?:^|[\\s\\p{P}])(?:请你?|麻烦你?|帮我|给我|帮忙|我想|我要|想要|再|重新|直接)*"
		      "生成(.+)", 0.8, intents_desc2, 0 },
	{ "can_gen", "(?:可以|能)(?:不能|否)?(?:帮我|给我|为我|再|直接)?生成(.+)", 0.75,
	  intents_desc4, 0 },
	/* 画 / 绘 as a verb, not inside a noun (动画, 画面, 画家…). */
	{ "draw_object", "(?<![动漫壁国字书名版插原刻油水笔])[画绘](?:制|出)?"
			 "(?![面家展册质廊框师布板笔本室])(?!大?饼(?![图状]))(.+)", 0.75, intents_object2, 0 },
	{ "english", "\\b(?:draw|paint|sketch|illustrate)\\b|\\b(?:generate|create|make|render|design)\\b"
		     ".{0,40}?\\b(?:image|picture|photo|illustration|drawing|painting|wallpaper|"
		     "poster|portrait|logo|icon|artwork)s?\\b", 0.85, NULL, 0 },
};

static const struct rules_pat intents_search_pats[] = {
	{ "search_verb", "搜索|搜一下|搜一搜|搜搜看|帮我搜|百度一下", 0.9, NULL, 0 },
	{ "day_news", "(?:[今明昨后]天|今日|明日).{0,6}?(?:新闻|天气|气温)", 0.9, NULL, 0 },
	{ "today_events", "(?:今天|今日|昨天|最近|这几天)(?:都|又)?发生了?(?:什么|啥|哪些)", 0.9,
	  NULL, 0 },
	{ "latest_news", "(?:最新|最近).{0,6}?(?:新闻|资讯|消息|动态|进展|事件)", 0.85,
	  NULL, 0 },
	/* 最新款的 iPhone, X 有什么新消息, X 新闻 */
	{ "latest_thing", "最新(?:的|款|版|一代|一期|型号)|(?:有什么|有啥|有哪些|有没有)(?:新|最新)的?"
	  "(?:消息|动态|进展|变化|功能|版本)|新闻(?!学|系|专业|稿|联播)", 0.8, NULL, 0 },
	{ "realtime", "实时.{0,4}?(?:信息|数据|行情|路况|汇率|价格|天气|比分)", 0.85,
	  NULL, 0 },
	{ "hot_topics", "热点|头条|热搜|热门话题|热榜", 0.85, NULL, 0 },
	{ "online", "(?:联网|上网|网上|在线)(?:搜|查)", 0.9, NULL, 0 },
	{ "current_price", "(?:现在|当前|目前|今天)的?.{0,6}?(?:价格|天气|汇率|股价|金价|油价|房价|气温)",
	  0.8, NULL, 0 },
	{ "dated_events", "(?:19|20)\\d{2}\\s*年\\s*\\d{1,2}\\s*月.{0,12}?(?:发生|事件|新闻|大事|消息|怎么了|比赛|会议|峰会|发布会?|选举|大会|地震|赛事|奥运|世界杯)",
	  0.8, NULL, 0 },
	{ "english", "\\bsearch\\b|\\blook\\s+up\\b|\\bgoogle\\b|\\blatest\\b|\\bnewest\\b|\\bnews\\b|"
		     "\\bheadlines\\b|\\b(?:today'?s|current)\\s+(?:news|weather|headlines|prices?|stocks?)\\b|"
		     "\\bwhat(?:'s|\\s+is)\\s+new\\s+(?:with|in|at|on|about|from|for)\\b|"
		     "\\bwhat(?:'s|\\s+is)\\s+(?:happening|going\\s+on)\\s+(?:with|in|at)\\b|"
		     "\\b(?:any\\s+)?(?:updates?|developments?)\\s+(?:on|about|from)\\b|"
		     "\\brecent\\s+(?:news|developments?|updates?|events?|releases?)\\b", 0.8, NULL, 0 },
};

static const struct rules_pat intents_time_pats[] = {
	/* Asking for the time or the date, not for a time to do something
	 * (几点钟开会比较好, 星期几发工资比较好, 现在没时间). */
	{ "clock", "现在几点|几点了|几点钟了|现在(?:的|是)?(?:什么)?时间(?!不|还|够|紧|来不及|安排|管理|[比去做用])|"
	  "当前时间|北京时间|什么时间了|现在是什么时候", 0.95, NULL, 0 },
	{ "date", "(?:今天|今日|今儿|明天|明日|昨天|大?后天|大?前天|现在|(?:下|这|本|上)(?:个)?(?:周|星期|礼拜)[一二三四五六日天])"
	  "(?:是)?(?:几月)?几[号日]|[今明昨]天.{0,2}日期|(?:下|这|本|上)(?:个)?(?:周|星期|礼拜)[一二三四五六日天]是哪天|"
	  "今天是哪天|^[\\s\\p{P}]*几月几[号日](?:了|啊)?[\\s\\p{P}]*$|^[\\s\\p{P}]*几号了", 0.95, NULL, 0 },
	{ "weekday", "(?:今天|今日|今儿|明天|明日|昨天|大?后天|大?前天|现在)\\s*(?:是)?\\s*(?:星期|礼拜|周)几|"
	  "^[\\s\\p{P}]*(?:今天|今儿)?(?:是)?(?:星期|礼拜|周)几(?:了|啊|呀|呢|来着)?(?:今天|今儿)?[\\s\\p{P}]*$",
	  0.9, NULL, 0 },
	{ "timestamp", "时间戳|unix\\s*(?:时间|time)|\\bepoch\\b", 0.9, NULL, 0 },
	{ "english", "\\bwhat\\s+time\\s+is\\s+it\\b|\\bcurrent\\s+(?:time|date)\\b|"
		     "\\bwhat(?:'s|\\s+is)\\s+the\\s+(?:time|date)\\b|\\btoday'?s\\s+date\\b|"
		     "\\bwhat\\s+day\\s+is\\s+(?:it|today|tomorrow|yesterday)\\b|"
		     "\\bwhat(?:'s|\\s+is|\\s+was|\\s+will\\s+be)\\s+(?:the\\s+)?date\\s+(?:tomorrow|yesterday|"
		     "(?:next|this|last)\\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day)\\b|"
		     "\\bwhat\\s+date\\s+is\\s+(?:next|this|last)\\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day\\b|"
		     "\\btime\\s*stamp\\b|\\blocal\\s+time\\b|"
		     "\\btime\\s+(?:is\\s+it\\s+)?(?:right\\s+)?now\\s+in\\b", 0.9,
	  NULL, 0 },
};

#define INTENTS_N(a) (sizeof(a) / sizeof((a)[0]))

/* What a description "生成 X" must not be for X to be a picture. */
#define INTENTS_TEXT_KINDS \
	"代码|程序|脚本|函数|接口|sql|json|xml|html|css|正则|文章|文案|文档|文本|文字|总结|摘要|" \
	"报告|列表|清单|大纲|提纲|方案|计划|邮件|信件|短信|故事|小说|诗|歌词|标题|回答|答案|回复|" \
	"翻译|简历|论文|作文|日记|评论|名字|名称|口号|密码|随机数|数据|题目|试卷|笔记|字幕|剧本|" \
	"对话|问题|句子|段落|周报|日报|合同|协议|prompt|提示词|配置|命令|音乐|歌曲|视频|语音|" \
	"纪要|记录|说明|教案|ppt|幻灯片|演讲稿|讲稿|公告|通知|简介|[一两几]份"
/* Charts and diagrams: drawn by other tools, not by the image model. */
#define INTENTS_CHART_KINDS \
	"饼图|饼状图|柱状图|柱形图|条形图|折线图|曲线图|散点图|雷达图|热力图|面积图|流程图|结构图|" \
	"架构图|组织架构|时序图|甘特图|思维导图|导图|脑图|表格|图表|统计图|线框图|原型图|er图|uml|" \
	"类图|拓扑图|关系图|数据图|k线|excel|\\bcharts?\\b|\\bdiagrams?\\b|\\bgraphs?\\b|\\btables?\\b"

enum intents_aux {
	INTENTS_AUX_TEXT_KINDS,
	INTENTS_AUX_CHART_KINDS,
	INTENTS_AUX_GREETING,
	INTENTS_AUX_BLANK,
	INTENTS_AUX_SMALL_TALK,
	INTENTS_AUX_OTHER_TASK,
	INTENTS_NAUX
};

static const char *const intents_aux_res[INTENTS_NAUX] = {
	[INTENTS_AUX_TEXT_KINDS] = INTENTS_TEXT_KINDS "|" INTENTS_CHART_KINDS,
	[INTENTS_AUX_CHART_KINDS] = INTENTS_CHART_KINDS,
	[INTENTS_AUX_GREETING] = "^[\\s\\p{P}\\p{S}]*(?:(?:你好|您好|嗨|哈喽|哈啰|哈罗|早上好|中午好|"
			       "下午好|晚上好|早安|午安|晚安|在吗|在不在|大家好|\\bhi\\b|\\bhello\\b|"
			       "\\bhey\\b|\\bhiya\\b|\\bhowdy\\b|\\bgood\\s+(?:morning|afternoon|evening)\\b|"
			       "\\bgreetings\\b)(?:呀|啊|哇|哦|呢|\\s*there)?[\\s\\p{P}\\p{S}]*)+\\z",
	[INTENTS_AUX_BLANK] = "^[\\s\\p{P}\\p{S}\\p{M}\\p{Z}\\p{Cf}]*\\z",
	/* The whole message is small talk: thanks, yes and no, laughter, goodbye. */
	[INTENTS_AUX_SMALL_TALK] = "^[\\s\\p{P}\\p{S}]*(?:(?:谢谢你?|多谢|感谢|辛苦了?|好的?|好吧|行|嗯+|哦+|噢|"
		"对|不对|是的?|不是|没事|没有|收到|知道了|明白了?|哈哈+|呵呵+|嘿嘿+|再见|拜拜|晚安|测试|"
		"\\bthanks?(?:\\s+you)?\\b|\\bthx\\b|\\bok(?:ay)?\\b|\\byes\\b|\\bno\\b|"
		"\\bnope\\b|\\byep\\b|\\bsure\\b|\\bcool\\b|\\bnice\\b|\\blol\\b|\\bha(?:ha)+\\b|"
		"\\bbye\\b|\\bgoodbye\\b|\\btest(?:ing)?\\b|\\bhmm+\\b)(?:啦|了|呀|啊|哈|哦)?"
		"[\\s\\p{P}\\p{S}]*)+\\z",
	/* A request for something other than a picture: write, translate, explain… */
	[INTENTS_AUX_OTHER_TASK] = "^[\\s\\p{P}\\p{S}]*(?:(?:请你?|麻烦你?|帮我|给我|为我|帮忙|我想|我要|你能|能不能|"
		"可以)\\s*)*(?:写(?![实意生])|翻译|计算|算一下|解释|总结|概括|查一下|查询|讲|告诉我|推荐|介绍|分析|回答|"
		"证明|编写|修复代码)|^\\s*(?:please\\s+)?(?:write|translate|calculate|compute|explain|"
		"summari[sz]e|tell\\s+me|recommend|solve|prove|code)\\b",
};

static pcre2_code *intents_image_code[INTENTS_N(intents_image_pats)];
static pcre2_code *intents_search_code[INTENTS_N(intents_search_pats)];
static pcre2_code *intents_time_code[INTENTS_N(intents_time_pats)];
static pcre2_code *intents_aux_code[INTENTS_NAUX];
static int intents_ready;

static void intents_init(void)
{
	if (intents_ready)
		return;
	intents_ready = 1;
	rules_table_compile(intents_image_pats, intents_image_code, INTENTS_N(intents_image_pats));
	rules_table_compile(intents_search_pats, intents_search_code, INTENTS_N(intents_search_pats));
	rules_table_compile(intents_time_pats, intents_time_code, INTENTS_N(intents_time_pats));
	for (size_t i = 0; i < INTENTS_NAUX; i++)
		intents_aux_code[i] = rules_compile("intents", intents_aux_res[i]);
}

void intents_free(void)
{
	rules_table_free(intents_image_code, INTENTS_N(intents_image_pats));
	rules_table_free(intents_search_code, INTENTS_N(intents_search_pats));
	rules_table_free(intents_time_code, INTENTS_N(intents_time_pats));
	rules_table_free(intents_aux_code, INTENTS_NAUX);
	intents_ready = 0;
}

/* s[a, b) has a match of the auxiliary pattern which. */
static int intents_span_has(int which, const char *s, size_t a, size_t b)
{
	size_t ov[4];

	return b > a && rules_find(intents_aux_code[which], s + a, b - a, 0, ov);
}

/* The whole match names no chart. */
static int intents_no_chart(const char *s, const size_t ov[4])
{
	return !intents_span_has(INTENTS_AUX_CHART_KINDS, s, ov[0], ov[1]);
}

/* Capture 1, trimmed, has at least min characters and names nothing of
 * the kinds which. */
static int intents_capture(const char *s, const size_t ov[4], size_t min, int which)
{
	size_t a = ov[2], b = ov[3];

	if (a == PCRE2_UNSET)
		return 0;
	rules_trim(s, &a, &b);
	if (b <= a || rules_chars(s + a, b - a) < min)
		return 0;
	return !intents_span_has(which, s, a, b);
}

/* A description of two or four characters or more, not a text-type thing. */
static int intents_desc2(const char *s, const size_t ov[4])
{
	return intents_capture(s, ov, 2, INTENTS_AUX_TEXT_KINDS);
}

static int intents_desc4(const char *s, const size_t ov[4])
{
	return intents_capture(s, ov, 4, INTENTS_AUX_TEXT_KINDS);
}

/* An object of two characters or more, not a chart. */
static int intents_object2(const char *s, const size_t ov[4])
{
	return intents_capture(s, ov, 2, INTENTS_AUX_CHART_KINDS);
}

struct rules_match intents_image(const char *text)
{
	intents_init();
	return rules_table_first(intents_image_pats, intents_image_code,
				 INTENTS_N(intents_image_pats), text);
}

struct rules_match intents_search(const char *text)
{
	intents_init();
	return rules_table_first(intents_search_pats, intents_search_code,
				 INTENTS_N(intents_search_pats), text);
}

struct rules_match intents_time(const char *text)
{
	intents_init();
	return rules_table_first(intents_time_pats, intents_time_code,
				 INTENTS_N(intents_time_pats), text);
}

static int intents_aux(int which, const char *text)
{
	intents_init();
	return rules_any(intents_aux_code[which], text);
}

int intents_other_task(const char *text)
{
	return text && *text && intents_aux(INTENTS_AUX_OTHER_TASK, text);
}

int intents_small_talk(const char *text)
{
	return text && *text && intents_aux(INTENTS_AUX_SMALL_TALK, text);
}

int intents_greeting(const char *text)
{
	return text && *text && intents_aux(INTENTS_AUX_GREETING, text);
}

int intents_blank(const char *text)
{
	return text == NULL || intents_aux(INTENTS_AUX_BLANK, text);
}
