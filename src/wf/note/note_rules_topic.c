/* The words of a note's topic, offline: a Chinese topic is cut into words
 * by the segmenter (text/seg.h), and consecutive words that make the
 * longest word of a list (places, dishes, pets, subjects, the words that
 * say what kind of note it is) are taken as one, so 杭州, 春游 and 火锅 stay
 * whole; what no listed word covers is cut at function words and kept
 * whole otherwise (东湖 stays 东湖, never 湖看); no word is ever cut. English words are taken
 * as they are, without stop words. Each word says whether it names the
 * subject or only qualifies it (周末, 新手, 攻略…). */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "text/phrase.h"
#include "wf/note/note_rules.h"
#include "util/xmalloc.h"
#include "text/script.h"
#include "text/seg.h"

#define OFFLINE_N(a) (sizeof(a) / sizeof((a)[0]))

/* Words that name a subject. */
static const char *const note_rules_topic_lexicon[] = {
	/* places */
	"北京", "上海", "杭州", "重庆", "成都", "武汉", "长沙", "苏州", "泉州", "哈尔滨", "深圳",
	"广州", "厦门", "南京", "西安", "青岛", "大理", "丽江", "云南", "三亚", "桂林", "洛阳",
	"天津", "拉萨", "西藏", "新疆", "东湖", "西湖", "玄武湖", "鼓浪屿", "顾村公园", "世纪公园",
	"太子湾", "紫竹院", "奥森", "植物园", "外滩", "故宫", "长城", "迪士尼", "日本", "东京",
	"大阪", "京都", "泰国", "曼谷", "韩国", "首尔", "新加坡", "318国道",
	/* travel */
	"春游", "秋游", "出游", "露营", "徒步", "自驾", "自驾游", "古镇",
	"海边", "爬山", "赏花", "樱花", "玉兰", "海棠", "郁金香", "油菜花", "踏青", "野餐",
	"民宿", "酒店", "机票", "签证", "穷游", "遛娃",
	/* food */
	"火锅", "麻辣烫", "串串", "烧烤", "小龙虾", "奶茶", "咖啡", "甜品", "蛋糕", "面包", "烘焙",
	"早餐", "午餐", "晚餐", "便当", "减脂餐", "麻婆豆腐", "番茄炒蛋", "红烧肉", "牛肉面",
	"绿豆沙", "家常菜", "快手菜", "一人食", "空气炸锅", "探店", "小馆", "饺子", "米线", "螺蛳粉", "小面", "沙茶面", "热干面", "酸菜鱼", "寿司", "拉面",
	/* study */
	"学习", "考研", "考试", "备考", "英语", "雅思", "托福", "四六级", "单词", "读书", "读书笔记",
	"自律", "大学", "大学生", "留学", "考证", "教资", "法考", "复习", "错题本", "高数", "数学",
	"历史", "图书馆", "时间管理", "番茄钟", "背单词", "口语", "作文", "阅读",
	/* work */
	"职场", "上班", "通勤", "面试", "简历", "副业", "效率", "周报", "汇报", "升职", "加班",
	"裸辞", "打工人", "沟通",
	/* beauty */
	"护肤", "美妆", "化妆", "穿搭", "发型", "香水", "口红", "防晒", "底妆", "粉底液", "面霜",
	"眉毛", "美甲", "敏感肌", "白衬衫", "风衣", "针织开衫",
	/* fitness */
	"健身", "减脂", "减肥", "跑步", "瑜伽", "普拉提", "增肌", "塑形", "马拉松", "拉伸", "体态",
	"跳绳", "马甲线", "直角肩", "燃脂", "深蹲", "训练计划", "居家健身",
	/* parenting */
	"宝宝", "育儿", "母婴", "孩子", "亲子", "辅食", "带娃", "早教", "幼儿园", "绘本", "新生儿",
	"作息",
	/* pets */
	"宠物", "萌宠", "猫咪", "狗狗", "小猫", "小狗", "养猫", "养狗", "铲屎官", "仓鼠", "兔子",
	"狗粮", "猫粮", "遛狗", "金毛", "柯基", "布偶猫", "橘猫", "挑食", "疫苗", "驱虫", "洗澡",
	"猫砂", "零食", "领养",
	/* tech */
	"数码", "手机", "电脑", "笔记本", "相机", "耳机", "降噪耳机", "平板", "键盘", "机械键盘",
	"智能手表", "电纸书", "软件", "科技", "续航", "摄影", "手机摄影", "AI工具", "桌面改造",
	/* home */
	"家居", "收纳", "装修", "租房", "出租屋", "绿植", "改造", "卧室", "厨房", "客厅", "玄关",
	"断舍离", "大扫除", "小户型",
};

/* Words that qualify a subject without naming it. */
static const char *const note_rules_topic_weak[] = {
	"攻略", "指南", "推荐", "清单", "教程", "测评", "合集", "技巧", "方法", "心得", "经验",
	"日记", "分享", "好物", "避坑", "笔记", "计划", "路线", "周末", "假期", "新手", "小白",
	"学生党", "上班族", "平价", "懒人", "入门", "必备", "必看", "全攻略", "打卡", "日常",
	"第一次", "三天", "两天", "一天", "一周", "一个月", "怎么办", "怎么选", "选购", "体验",
	"对比", "评测", "好去处", "推荐", "三日游", "两日游", "五日游", "三天两夜", "安排", "做法",
	"家常做法", "整理", "用法", "故事", "代替", "购买", "自制", "改善", "跟练", "使用",
	"时间", "好吃", "好用", "夏天", "冬天", "春天", "秋天", "小众",
	/* the kind of note, not its subject */
	"旅行", "旅游", "景点", "citywalk", "一日游", "菜谱", "食谱", "做饭", "美食",
};

/* Function words of more than one character: cut at, never kept. */
static const char *const note_rules_topic_stop_words[] = {
	"怎么", "怎样", "如何", "什么", "为什么", "哪些", "哪里", "哪个", "可以", "应该", "一下",
};

static const char note_rules_topic_stop_chars[] =
	"的了和与及或在是我你他她它也都就很还要把被让给对从到这那吗呢吧啊呀么请个些再又有得着去看做写帮篇";

static size_t note_rules_topic_cp(const char *s)
{
	uint32_t cp;

	return text_utf8_next((const unsigned char *)s, (const unsigned char *)s + strnlen(s, 4), &cp);
}

static int note_rules_topic_han_at(const char *s)
{
	uint32_t cp;

	text_utf8_next((const unsigned char *)s, (const unsigned char *)s + strnlen(s, 4), &cp);
	return text_is_han(cp);
}

/* The start of the last character of the n bytes at p. */
static const char *note_rules_topic_last(const char *p, size_t n)
{
	const char *q = p + n;

	do
		q--;
	while (q > p && ((unsigned char)*q & 0xC0) == 0x80);
	return q;
}

static int note_rules_topic_word_char(const char *s)
{
	return (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9');
}

/* The longest listed word at s (its length in bytes, 0 for none); *weak
 * says whether it only qualifies. */
static size_t note_rules_topic_listed(const char *s, int *weak)
{
	size_t best = 0;

	for (size_t i = 0; i < OFFLINE_N(note_rules_topic_lexicon); i++) {
		size_t n = strlen(note_rules_topic_lexicon[i]);

		if (n > best && strncasecmp(s, note_rules_topic_lexicon[i], n) == 0)
			best = n, *weak = 0;
	}
	for (size_t i = 0; i < OFFLINE_N(note_rules_topic_weak); i++) {
		size_t n = strlen(note_rules_topic_weak[i]);

		if (n > best && strncmp(s, note_rules_topic_weak[i], n) == 0)
			best = n, *weak = 1;
	}
	return best;
}

/* The length in bytes of the function word at s, 0 for none. */
static size_t note_rules_topic_stop(const char *s)
{
	size_t n = note_rules_topic_cp(s);

	for (size_t i = 0; i < OFFLINE_N(note_rules_topic_stop_words); i++)
		if (strncmp(s, note_rules_topic_stop_words[i], strlen(note_rules_topic_stop_words[i])) == 0)
			return strlen(note_rules_topic_stop_words[i]);

	for (const char *q = note_rules_topic_stop_chars; *q; q += note_rules_topic_cp(q))
		if (strncmp(q, s, n) == 0 && note_rules_topic_cp(q) == n)
			return n;
	return 0;
}

static void note_rules_topic_add(json_t *out, const char *s, size_t n, int weak)
{
	char *w = xstrndup(s, n);
	size_t i;
	json_t *v;

	json_array_foreach(out, i, v)
		if (strcmp(json_string_value(json_object_get(v, "word")), w) == 0) {
			free(w);
			return;
		}
	json_array_append_new(out, json_pack("{s:s, s:b}", "word", w, "weak", weak));
	free(w);
}

/* A run of Han characters no listed word starts in: kept whole when it
 * has two characters or more. */
static void note_rules_topic_rest(json_t *out, const char *s, size_t n)
{
	if (n >= 6)
		note_rules_topic_add(out, s, n, 0);
}

/* True when the n bytes at s are a listed word; *weak says whether it
 * only qualifies. */
static int note_rules_topic_is_listed(const char *s, size_t n, int *weak)
{
	for (size_t i = 0; i < OFFLINE_N(note_rules_topic_lexicon); i++)
		if (strlen(note_rules_topic_lexicon[i]) == n && strncasecmp(s, note_rules_topic_lexicon[i], n) == 0)
			return *weak = 0, 1;
	for (size_t i = 0; i < OFFLINE_N(note_rules_topic_weak); i++)
		if (strlen(note_rules_topic_weak[i]) == n && strncmp(s, note_rules_topic_weak[i], n) == 0)
			return *weak = 1, 1;
	return 0;
}

/* The number of words from w[i] whose text is n bytes (0 when n ends
 * inside a word). */
static size_t note_rules_topic_words_of(const struct text_word *w, size_t nw, size_t i, size_t n)
{
	for (size_t e = i; e < nw && w[e].off + w[e].len - w[i].off <= n; e++)
		if (w[e].off + w[e].len - w[i].off == n)
			return e - i + 1;
	return 0;
}

/* The number of words from w[i] that make the longest listed word, 0 for
 * none. */
static size_t note_rules_topic_listed_words(const char *s, const struct text_word *w, size_t nw,
					 size_t i, int *weak)
{
	size_t best = 0;

	for (size_t e = i; e < nw && e < i + TEXT_SEG_JOIN_MAX; e++)
		if (note_rules_topic_is_listed(s + w[i].off, w[e].off + w[e].len - w[i].off, weak))
			best = e - i + 1;
	if (best)
		note_rules_topic_is_listed(s + w[i].off, w[i + best - 1].off + w[i + best - 1].len - w[i].off,
					weak);
	return best;
}

/* A function word ICU glued to the start of a listed word (做好|吃 for
 * 做|好吃): the number of words from w[i] that end the listed word, with
 * its offset in *at, 0 for none. */
static size_t note_rules_topic_glued(const char *s, const struct text_word *w, size_t nw, size_t i,
				  size_t *at, int *weak)
{
	size_t stop = note_rules_topic_stop(s + w[i].off);

	if (stop == 0 || stop >= w[i].len)
		return 0;
	*at = w[i].off + stop;
	for (size_t e = i + TEXT_SEG_JOIN_MAX < nw ? i + TEXT_SEG_JOIN_MAX : nw; e-- > i;)
		if (note_rules_topic_is_listed(s + *at, w[e].off + w[e].len - *at, weak))
			return e - i + 1;
	return 0;
}

/* A Han run, cut into words by the segmenter (text/seg.h): listed words
 * (joined from the segmenter's words), function words left out, and the
 * rest between them kept whole; a word is never cut. */
static void note_rules_topic_han(json_t *out, const char **pp)
{
	const char *s = *pp, *p = s;
	size_t nw, i = 0, rest = 0, n;
	struct text_word *w;
	int weak = 0;

	while (note_rules_topic_han_at(p))
		p += note_rules_topic_cp(p);
	w = text_seg_split(s, (size_t)(p - s), &nw);
	while (i < nw) {
		size_t at;

		if (i == rest && (n = note_rules_topic_glued(s, w, nw, i, &at, &weak)) > 0) {
			note_rules_topic_add(out, s + at, w[i + n - 1].off + w[i + n - 1].len - at, weak);
			i += n;
			rest = i;
			continue;
		}
		n = note_rules_topic_listed_words(s, w, nw, i, &weak);
		if (n == 0 && (n = note_rules_topic_stop(s + w[i].off)) > 0)
			n = note_rules_topic_words_of(w, nw, i, n), weak = -1;
		if (n == 0) {
			i++;
			continue;
		}
		if (i > rest)
			note_rules_topic_rest(out, s + w[rest].off, w[i - 1].off + w[i - 1].len - w[rest].off);
		if (weak >= 0)
			note_rules_topic_add(out, s + w[i].off, w[i + n - 1].off + w[i + n - 1].len - w[i].off,
					  weak);
		i += n;
		rest = i;
	}
	if (nw > rest)
		note_rules_topic_rest(out, s + w[rest].off, w[nw - 1].off + w[nw - 1].len - w[rest].off);
	free(w);
	*pp = p;
}

static const char *const note_rules_topic_en_stop[] = {
	"the", "and", "for", "with", "how", "what", "why", "your", "you", "from", "into", "about",
	"this", "that", "some", "best", "good", "tips", "guide", "first", "week", "weekend", "day",
	"days", "beginner", "beginners", "ways", "things", "make", "should", "can", "under", "new",
	"note", "post", "write",
};

static void note_rules_topic_latin(json_t *out, const char **pp)
{
	const char *p = *pp, *s = p;
	int weak = 0;
	size_t n;
	char w[40];

	while (note_rules_topic_word_char(p) || *p == '-' || *p == '\'')
		p++;
	n = (size_t)(p - s);
	*pp = p;
	if (n < 3 || n >= sizeof w)
		return;
	for (size_t i = 0; i < n; i++)
		w[i] = (char)(s[i] >= 'A' && s[i] <= 'Z' ? s[i] - 'A' + 'a' : s[i]);
	w[n] = '\0';
	for (size_t i = 0; i < OFFLINE_N(note_rules_topic_en_stop); i++)
		if (strcmp(w, note_rules_topic_en_stop[i]) == 0)
			weak = 1;
	for (size_t i = 0; i < OFFLINE_N(note_rules_topic_weak); i++)
		if (strcmp(w, note_rules_topic_weak[i]) == 0)
			weak = 1;   /* citywalk */
	note_rules_topic_add(out, w, n, weak);
}

/* The length of a listed word of mixed scripts that starts at p (早C晚A,
 * joined by the segmenter from 早 C 晚 A), else 0: taken whole before the
 * Han and Latin runs would cut it. */
static size_t note_rules_topic_mixed(const char *p)
{
	size_t len = strnlen(p, TEXT_SEG_WORD_MAX * 2), nw, n = 0;
	struct text_word *w = text_seg_split(p, len, &nw);

	if (nw > 0 && w[0].off == 0 && text_seg_listed(p, w[0].len)) {
		int han = 0, latin = 0;

		for (size_t i = 0; i < w[0].len; i += note_rules_topic_cp(p + i)) {
			han |= note_rules_topic_han_at(p + i);
			latin |= (unsigned char)p[i] < 0x80;
		}
		if (han && latin)
			n = w[0].len;
	}
	free(w);
	return n;
}

json_t *note_rules_topic_words(const char *text)
{
	json_t *out = json_array();
	const char *p = text ? text : "";
	int weak;
	size_t n;

	while (*p) {
		if ((n = note_rules_topic_mixed(p)) > 0) {
			note_rules_topic_add(out, p, n, 0);   /* 早C晚A */
			p += n;
		} else if (note_rules_topic_han_at(p)) {
			note_rules_topic_han(out, &p);
		} else if ((n = note_rules_topic_listed(p, &weak)) > 0 && note_rules_topic_han_at(note_rules_topic_last(p, n))) {
			note_rules_topic_add(out, p, n, weak);   /* AI工具 */
			p += n;
		} else if (note_rules_topic_word_char(p)) {
			note_rules_topic_latin(out, &p);
		} else {
			p += note_rules_topic_cp(p);
		}
	}
	return out;
}

json_t *note_rules_topic_subject(const char *text, int with_weak)
{
	json_t *all = note_rules_topic_words(text), *out = json_array(), *v;
	size_t i;

	json_array_foreach(all, i, v)
		if (with_weak || !json_is_true(json_object_get(v, "weak")))
			json_array_append(out, json_object_get(v, "word"));
	json_decref(all);
	return out;
}
