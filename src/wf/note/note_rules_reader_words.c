/* The words a reader of a note goes by (note_rules_reader.h): the fields a
 * topic and a section are in (a section on 帐篷 is in the camping field of
 * a 露营装备 note; one on 门票预约 is not), the concrete things of each
 * field, and the test of whether a text names anything concrete at all: a
 * number with its unit, an ordinal step, an enumeration, a list, a named
 * thing. Advice any topic could get (提前看好天气, 找到适合自己的节奏最重要)
 * has none of them. */
#include "config.h"
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "text/phrase.h"
#include "text/script.h"
#include "util/xmalloc.h"
#include "wf/note/note_rules_reader.h"

#define READER_N(a) (sizeof(a) / sizeof((a)[0]))
#define READER_CP_MAX 4096        /* code points of a text looked at */
#define READER_WORD_MAX 64        /* bytes of a listed word */

/* A field: the words that say a text is about it, and its things (items a
 * reader can buy, use or point at); a kind of note (a checklist, a
 * comparison…) also has the words of a topic that asks for it (triggers),
 * and its words only say a section does what the kind does. '|'
 * separates words. */
struct note_rules_reader_field {
	const char *words;
	const char *things;
	const char *triggers;     /* NULL for a field of subjects */
};

static const struct note_rules_reader_field note_rules_reader_fields_of[] = {
	/* trips */
	{ "旅行|旅游|出游|一日游|两日游|三日游|五日游|自由行|citywalk|景点|景区|门票|路线|行程|酒店|民宿|住宿|"
	  "机票|高铁|火车|地铁|公交|古镇|老街|古城|老城区|博物馆|观景台|公园|春游|秋游|踏青|赏花|樱花|玉兰|"
	  "海棠|郁金香|油菜花|桃花|花期|拍照|出片|自驾|海边|签证|步行|骑行|入园|必吃|吃饭|美食|小吃|人均|"
	  "特产|北京|上海|杭州|重庆|成都|武汉|长沙|"
	  "苏州|泉州|哈尔滨|深圳|广州|厦门|南京|西安|青岛|大理|丽江|云南|三亚|桂林|洛阳|天津|拉萨|西藏|新疆|"
	  "东湖|西湖|玄武湖|鼓浪屿|顾村公园|世纪公园|太子湾|紫竹院|奥森|植物园|外滩|故宫|长城|迪士尼|日本|"
	  "东京|大阪|京都|泰国|曼谷|韩国|首尔|新加坡|318国道|乌镇|trip|travel|itinerary|sightseeing|museum|"
	  "route|sights|tickets|opening hours|crowds|"
	  "hotel|hostel|flight|subway|metro|old town|Kyoto|Tokyo|Osaka|Paris|London|Rome|Bangkok|Seoul",
	  "交通卡|单程票|地铁站|停车场|观光车|自行车|行李箱|充电宝|折叠伞|身份证|护照|小程序|"
	  "suitcase|umbrella|passport|metro card|rail pass", NULL },
	/* camping and the outdoors */
	{ "露营|营地|野营|徒步|登山|爬山|户外|野餐|装备|camping|campsite|hiking|trail|outdoor|picnic|gear",
	  "帐篷|天幕|睡袋|防潮垫|充气垫|地垫|地钉|风绳|营柱|蛋卷桌|折叠桌|折叠椅|月亮椅|炉头|卡式炉|气罐|"
	  "套锅|头灯|营灯|露营灯|手电|驱蚊|蚊香|冲锋衣|抓绒|羽绒服|速干|登山鞋|登山杖|背包|水袋|保温壶|"
	  "水壶|净水器|急救包|野餐垫|打火机|垃圾袋|保温箱|冰袋|充电宝|tent|tarp|sleeping bag|sleeping pad|stove|"
	  "gas canister|headlamp|lantern|flashlight|camp chair|cooler|bug spray|rain jacket|fleece|"
	  "hiking boots|backpack|water bottle|first aid|trekking pole", NULL },
	/* cooking and eating out */
	{ "美食|做饭|菜谱|食谱|烘焙|早餐|午餐|晚餐|餐厅|探店|咖啡|奶茶|甜品|减脂餐|火锅|家常菜|快手菜|做法|"
	  "下饭|便当|一人食|小馆|招牌|人均|口味|饭点|取号|点菜|点单|店家|辣度|食材|调料|火候|下锅|出锅|"
	  "翻炒|红烧肉|番茄炒蛋|麻婆豆腐|"
	  "绿豆沙|牛肉面|饺子|米线|螺蛳粉|小面|沙茶面|热干面|酸菜鱼|寿司|拉面|麻辣烫|串串|烧烤|小龙虾|"
	  "蛋糕|面包|cook|recipe|breakfast|lunch|dinner|meal|bake|baking|restaurant|cafe|coffee",
	  "鸡蛋|番茄|西红柿|五花肉|里脊|鸡胸肉|牛肉|猪肉|排骨|豆腐|土豆|青菜|米饭|杂粮饭|面条|生抽|老抽|"
	  "蚝油|料酒|冰糖|淀粉|葱花|芝麻|辣椒|花椒|八角|黄油|面粉|牛奶|淡奶油|绿豆|炒锅|平底锅|砂锅|"
	  "电饭煲|烤箱|空气炸锅|微波炉|保鲜盒|egg|flour|butter|sugar|salt|garlic|onion|tomato|rice|"
	  "noodle|skillet|oven|oats|yogurt|toast|avocado|tbsp|tsp", NULL },
	/* study */
	{ "学习|考研|考试|备考|英语|雅思|托福|四六级|单词|读书|自律|大学|留学|考证|教资|法考|复习|错题本|"
	  "高数|数学|图书馆|背单词|口语|作文|阅读|听力|写作|提分|上岸|study|exam|ielts|toefl|vocabulary|"
	  "reading|listening|writing|grammar|revision|college|university",
	  "真题|错题|教材|单词书|长难句|题型|模考|番茄钟|思维导图|知识点|荧光笔|past paper|flashcard|"
	  "mock test|textbook|anki|pomodoro", NULL },
	/* work */
	{ "职场|上班|通勤|面试|简历|副业|效率|周报|汇报|升职|加班|裸辞|打工人|沟通|同事|领导|会议|office|"
	  "career|interview|resume|meeting|productivity",
	  "会议纪要|日历|待办|excel|ppt|notion|calendar|to-do|slide", NULL },
	/* beauty and clothes */
	{ "护肤|美妆|化妆|穿搭|发型|香水|口红|防晒|底妆|粉底液|面霜|眉毛|美甲|敏感肌|干皮|油皮|肤质|skincare|"
	  "makeup|outfit|sunscreen",
	  "防晒霜|洁面|氨基酸|精华|乳液|爽肤水|卸妆油|粉底|美妆蛋|保湿喷雾|眼影|腮红|衬衫|风衣|开衫|牛仔裤|"
	  "半身裙|阔腿裤|高腰裤|外套|耳环|包包|SPF|PA+|cleanser|moisturiser|moisturizer|serum|toner|"
	  "foundation|lipstick|jacket|jeans|shirt|sneaker", NULL },
	/* fitness */
	{ "健身|减脂|减肥|跑步|瑜伽|普拉提|增肌|塑形|马拉松|拉伸|体态|跳绳|马甲线|直角肩|燃脂|训练|运动|肌肉|"
	  "体重|热量|卡路里|"
	  "workout|fitness|exercise|running|yoga|pilates|strength|gym|cardio",
	  "深蹲|平板支撑|俯卧撑|卷腹|弓步|臀桥|开合跳|波比跳|哑铃|壶铃|弹力带|瑜伽垫|跑鞋|心率|配速|组数|"
	  "伸展|猫式|天鹅式|抬腿|侧卧|动作|圆肩|驼背|骨盆|核心|"
	  "蛋白质|热身|squat|plank|push-up|lunge|burpee|dumbbell|kettlebell|resistance band|yoga mat|reps", NULL },
	/* children */
	{ "宝宝|育儿|母婴|孩子|亲子|辅食|带娃|早教|幼儿园|新生儿|作息|baby|toddler|kids|parenting|child",
	  "绘本|尿不湿|湿巾|奶瓶|安抚玩具|推车|儿童乐园|diaper|stroller|picture book", NULL },
	/* pets */
	{ "宠物|萌宠|猫|狗|铲屎|仓鼠|兔子|遛狗|金毛|柯基|布偶|挑食|领养|pet|cat|kitten|dog|puppy|puppies",
	  "猫粮|狗粮|主粮|冻干|罐头|零食|猫砂|食盆|水盆|牵引绳|拾便袋|水碗|驱虫|疫苗|猫抓板|逗猫棒|尿垫|"
	  "航空箱|kibble|treat|crate|leash|harness|litter|bowl|vet|vaccine|collar", NULL },
	/* gadgets */
	{ "数码|手机|电脑|笔记本电脑|相机|耳机|平板|键盘|智能手表|手表|电纸书|软件|科技|续航|摄影|AI工具|phone|"
	  "laptop|tablet|camera|headphone|earbud|keyboard|smartwatch|gadget",
	  "处理器|芯片|内存|存储|屏幕|电池|快充|充电器|摄像头|镜头|网格线|降噪|蓝牙|轴体|键帽|显示器|支架|"
	  "理线槽|processor|chip|RAM|SSD|screen|battery|charger|lens|bluetooth", NULL },
	/* home */
	{ "家居|收纳|装修|租房|出租屋|绿植|改造|卧室|厨房|客厅|玄关|断舍离|大扫除|小户型|清洁|apartment|"
	  "declutter|cleaning|bedroom|kitchen",
	  "收纳盒|收纳箱|柜子|衣柜|抽屉|挂钩|伸缩杆|置物架|窗帘|地毯|落地灯|台灯|墙面|绿萝|龟背竹|虎皮兰|"
	  "床头柜|沙发|拖把|吸尘器|扫地机|shelf|shelves|drawer|hook|curtain|rug|lamp|basket", NULL },
	/* kinds: a checklist */
	{ "随身带|带上|带好|要带|必带|准备|备好|备用|必备|清单|装备|购买|价格|入手|预算|pack|bring|carry|buy|"
	  "price|budget", "",
	  "清单|装备|必备|必带|好物|带什么|准备什么|list|checklist|packing|essentials|gear" },
	/* a comparison */
	{ "预算|价格|价位|性价比|购买|入手|参数|配置|对比|优点|缺点|适合|推荐|售后|budget|price|buy|worth|"
	  "pros|cons|compare|spec", "",
	  "怎么选|选购|推荐|对比|测评|评测|哪个好|vs|choose|choosing|compare|comparison|best" },
	/* a recipe */
	{ "食材|用料|材料|步骤|下锅|出锅|火候|调味|腌|翻炒|翻动|收汁|小火|大火|中火|焯水|炖|煮|炒|蒸|烤|煎|焖|"
	  "ingredient|step|simmer|stir|bake|minute", "",
	  "做法|食谱|菜谱|怎么做|自制|recipe|how to make|how to cook" },
	/* a trip */
	{ "路线|行程|第一天|第二天|第三天|交通|门票|景点|住宿|住在|打卡|day|route|stay|ticket", "",
	  "攻略|一日游|两日游|三日游|五日游|三天两夜|路线|行程|旅行|旅游|怎么玩|trip|itinerary|travel|days in" },
	/* a how-to */
	{ "步骤|方法|技巧|练习|第一步|step|practice|method|tip", "",
	  "怎么|如何|技巧|方法|提分|入门|教程|指南|how to|tips|guide|beginner" },
};

static const char *const note_rules_reader_suffixes[] = { "", "s", "es", "ed", "ing", "er", "ers" };

static int note_rules_reader_latin_end(const char *p)
{
	for (size_t i = 0; i < READER_N(note_rules_reader_suffixes); i++) {
		size_t n = strlen(note_rules_reader_suffixes[i]);

		if (strncasecmp(p, note_rules_reader_suffixes[i], n) == 0 && !isalpha((unsigned char)p[n]))
			return 1;
	}
	return 0;
}

int note_rules_reader_has(const char *text, const char *w, size_t n)
{
	char word[READER_WORD_MAX];

	if (n == 0 || text == NULL)
		return 0;
	if ((unsigned char)*w >= 0x80)
		return memmem(text, strlen(text), w, n) != NULL;
	if (n >= sizeof word)
		return 0;
	memcpy(word, w, n);
	word[n] = '\0';
	for (const char *p = text; (p = strcasestr(p, word)) != NULL; p++)
		if ((p == text || !isalnum((unsigned char)p[-1])) && note_rules_reader_latin_end(p + n))
			return 1;
	return 0;
}

/* Whether text has any word of the '|'-separated list. */
static int note_rules_reader_any(const char *text, const char *list)
{
	while (*list) {
		size_t n = strcspn(list, "|");

		if (note_rules_reader_has(text, list, n))
			return 1;
		list += n + (list[n] == '|');
	}
	return 0;
}

unsigned note_rules_reader_fields(const char *text, int topic)
{
	const struct note_rules_reader_field *f;
	unsigned bits = 0;

	for (size_t i = 0; i < READER_N(note_rules_reader_fields_of); i++) {
		f = &note_rules_reader_fields_of[i];
		if (topic && f->triggers ? note_rules_reader_any(text, f->triggers)
		    : note_rules_reader_any(text, f->words) || note_rules_reader_any(text, f->things))
			bits |= 1u << i;
	}
	return bits;
}

/* How many words of the list text has. */
static size_t note_rules_reader_count(const char *text, const char *list)
{
	size_t hits = 0;

	while (*list) {
		size_t n = strcspn(list, "|");

		hits += note_rules_reader_has(text, list, n);
		list += n + (list[n] == '|');
	}
	return hits;
}

int note_rules_reader_main_field(const char *text, unsigned prefer)
{
	const struct note_rules_reader_field *f;
	size_t best = 0, hits;
	int main = -1;

	for (size_t i = 0; i < READER_N(note_rules_reader_fields_of); i++) {
		f = &note_rules_reader_fields_of[i];
		if (f->triggers)
			continue;
		hits = note_rules_reader_count(text, f->words) + note_rules_reader_count(text, f->things);
		if (hits > best || (hits == best && hits > 0 && (prefer & (1u << i)) && !(prefer & (1u << main))))
			best = hits, main = (int)i;
	}
	return main;
}

unsigned note_rules_reader_kinds(void)
{
	unsigned bits = 0;

	for (size_t i = 0; i < READER_N(note_rules_reader_fields_of); i++)
		if (note_rules_reader_fields_of[i].triggers)
			bits |= 1u << i;
	return bits;
}

static int note_rules_reader_thing(const char *text)
{
	for (size_t i = 0; i < READER_N(note_rules_reader_fields_of); i++)
		if (note_rules_reader_any(text, note_rules_reader_fields_of[i].things))
			return 1;
	return 0;
}

/* ---- markers ---- */

static size_t note_rules_reader_spaces(const char *p)
{
	size_t n = 0;

	while (p[n] == ' ' || p[n] == '\t')
		n++;
	return n;
}

static int note_rules_reader_starts(const char *p, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strncmp(p, list[i], strlen(list[i])) == 0)
			return (int)strlen(list[i]);
	return 0;
}

/* 一、 二、 … 十二、: the numbering of a Chinese heading. */
static size_t note_rules_reader_zh_numbering(const char *p)
{
	static const char *const digits[] = { "一", "二", "三", "四", "五", "六", "七", "八", "九", "十" };
	size_t n = 0;
	int d;

	for (int k = 0; k < 2 && (d = note_rules_reader_starts(p + n, digits, READER_N(digits))) > 0; k++)
		n += (size_t)d;
	if (n > 0 && strncmp(p + n, "、", strlen("、")) == 0)
		return n + strlen("、");
	return 0;
}

size_t note_rules_reader_marker(const char *line)
{
	static const char *const bullets[] = { "- ", "* ", "• ", "· ", "・", "▪", "□", "☐", "☑", "✅", "✔",
					       "✓", "（一）", "（二）", "（三）", "（四）", "（五）", "（六）" };
	const char *p = line + note_rules_reader_spaces(line);
	size_t n = 0;
	int b;

	if ((b = note_rules_reader_starts(p, bullets, READER_N(bullets))) > 0)
		n = (size_t)b;
	else if ((unsigned char)p[0] == 0xE2 && (unsigned char)p[1] == 0x91 &&
		 (unsigned char)p[2] >= 0xA0 && (unsigned char)p[2] <= 0xB3)
		n = 3;   /* ① to ⑳ */
	else if ((n = note_rules_reader_zh_numbering(p)) > 0)
		;
	else if (isdigit((unsigned char)p[0])) {
		n = isdigit((unsigned char)p[1]) ? 2 : 1;
		if ((p[n] == '.' || p[n] == ')') && !isdigit((unsigned char)p[n + 1]))
			n++;
		else if (strncmp(p + n, "、", strlen("、")) == 0 || strncmp(p + n, "）", strlen("）")) == 0)
			n += strlen("、");
		else
			n = 0;
	} else if (p[0] == '(' && isdigit((unsigned char)p[1]) && p[2] == ')')
		n = 3;
	if (n == 0)
		return 0;
	return (size_t)(p - line) + n + note_rules_reader_spaces(p + n);
}

/* ---- numbers ---- */

struct note_rules_reader_cps {
	const char *s;
	uint32_t cp[READER_CP_MAX];
	size_t off[READER_CP_MAX + 1];
	size_t n;
};

static void note_rules_reader_decode(struct note_rules_reader_cps *t, const char *s)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + strlen(s);

	t->s = s;
	t->n = 0;
	while (p < end && t->n < READER_CP_MAX) {
		t->off[t->n] = (size_t)(p - (const unsigned char *)s);
		p += text_utf8_next(p, end, &t->cp[t->n]);
		t->n++;
	}
	t->off[t->n] = (size_t)(p - (const unsigned char *)s);
}

static int note_rules_reader_numeral(uint32_t cp)
{
	static const char set[] = "〇零一二三四五六七八九十百千万两几半俩";
	const unsigned char *p = (const unsigned char *)set, *end = p + strlen(set);
	uint32_t c;

	while (p < end) {
		p += text_utf8_next(p, end, &c);
		if (c == cp)
			return 1;
	}
	return 0;
}

/* Units that say an amount even after 一 (一天, 半勺, 几分钟). */
static const char *const note_rules_reader_amounts[] = {
	"分钟", "小时", "钟头", "秒", "天", "晚", "周", "星期", "礼拜", "个月", "月", "年", "岁", "元",
	"块钱", "毛钱", "克", "千克", "公斤", "斤", "毫升", "升", "勺", "汤匙", "茶匙", "杯", "碗", "度",
	"公里", "千米", "米", "厘米", "毫米", "倍", "大卡", "千卡", "折",
};
/* Measure words that say an amount after a number other than 一 (两三个点,
 * 九点, 三件事), never after 一 alone (一步一步, 一次, 一个角落). */
static const char *const note_rules_reader_measures[] = {
	"个", "只", "件", "条", "张", "本", "套", "双", "片", "颗", "粒", "瓶", "包", "盒", "袋", "盘",
	"道", "步", "次", "遍", "轮", "组", "页", "层", "种", "款", "份", "块", "点", "站", "针", "口",
	"把", "根", "支", "台", "部", "位", "家", "间", "棵", "朵", "段", "节", "章", "篇", "顿", "趟",
	"圈", "处", "样", "集", "级", "号", "码", "寸", "人",
};
/* What follows 第N to make a step or a day of a plan (第二天, 第三步). */
static const char *const note_rules_reader_ordinals[] = {
	"天", "步", "周", "站", "晚", "轮", "阶段", "课", "章", "部分", "组",
};

static int note_rules_reader_at(const struct note_rules_reader_cps *t, size_t k, const char *const *list,
				size_t n)
{
	return k < t->n && note_rules_reader_starts(t->s + t->off[k], list, n) > 0;
}

static int note_rules_reader_bare(const struct note_rules_reader_cps *t, size_t i, size_t j)
{
	return j == i + 1 && (t->cp[i] == 0x4E00 || t->cp[i] == 0x51E0 || t->cp[i] == 0x534A);   /* 一 几 半 */
}

/* A Chinese numeral run from i that says an amount or a step. */
static int note_rules_reader_amount(const struct note_rules_reader_cps *t, size_t i)
{
	size_t j = i, k;
	int bare;

	while (j < t->n && note_rules_reader_numeral(t->cp[j]))
		j++;
	if (i > 0 && t->cp[i - 1] == 0x7B2C)   /* 第 */
		return note_rules_reader_at(t, j, note_rules_reader_ordinals, READER_N(note_rules_reader_ordinals));
	bare = note_rules_reader_bare(t, i, j);
	k = j;
	if (k < t->n && (t->cp[k] == 0x591A || t->cp[k] == 0x6765 || t->cp[k] == 0x4F59))   /* 多 来 余 */
		k++;
	if (note_rules_reader_at(t, k, note_rules_reader_amounts, READER_N(note_rules_reader_amounts)))
		return 1;
	return !bare && note_rules_reader_at(t, k, note_rules_reader_measures, READER_N(note_rules_reader_measures));
}

static int note_rules_reader_zh_number(const char *text)
{
	struct note_rules_reader_cps *t = malloc(sizeof *t);
	int hit = 0;

	if (t == NULL)
		return 0;
	note_rules_reader_decode(t, text);
	for (size_t i = 0; i < t->n && !hit; i++) {
		if ((t->cp[i] >= '0' && t->cp[i] <= '9') || (t->cp[i] >= 0xFF10 && t->cp[i] <= 0xFF19))
			hit = 1;
		else if (note_rules_reader_numeral(t->cp[i]) && (i == 0 || !note_rules_reader_numeral(t->cp[i - 1])))
			hit = note_rules_reader_amount(t, i);
	}
	free(t);
	return hit;
}

/* English numbers in words: two to a hundred, half, a dozen; one, first
 * and the like with what they count. */
static int note_rules_reader_en_number(const char *text)
{
	static const char *const counts[] = {
		"two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
		"fifteen", "twenty", "thirty", "forty", "fifty", "sixty", "hundred", "dozen", "half",
	};
	static const char *const ones[] = {
		"one minute", "one hour", "one day", "one week", "one month", "one cup", "one tablespoon",
		"one teaspoon", "one night", "first day", "second day", "third day", "first week",
		"first step", "second step", "third step",
	};

	for (size_t i = 0; i < READER_N(counts); i++)
		if (note_rules_reader_has(text, counts[i], strlen(counts[i])))
			return 1;
	for (size_t i = 0; i < READER_N(ones); i++)
		if (note_rules_reader_has(text, ones[i], strlen(ones[i])))
			return 1;
	return 0;
}

/* ---- enumerations and names ---- */

/* A clause (between ，。；：！？ and line breaks) of three things or more:
 * A、B、C, or A、B和C. */
static int note_rules_reader_zh_list(const char *text)
{
	static const char *const cuts[] = { "，", "。", "；", "：", "！", "？", "\n", ",", ";", ":" };
	static const char *const ands[] = { "和", "或", "及", "与", "还有", "以及" };
	const char *p = text, *last = NULL;
	size_t seps = 0;
	int c;

	for (;; p++) {
		c = *p ? note_rules_reader_starts(p, cuts, READER_N(cuts)) : 1;
		if (c > 0) {
			int and = 0;

			for (const char *q = last; q && q < p && !and; q++)
				and = note_rules_reader_starts(q, ands, READER_N(ands)) > 0;
			if (seps + 1 + (size_t)and >= 3)
				return 1;
			if (*p == '\0')
				return 0;
			seps = 0, last = NULL;
			p += c - 1;
		} else if (strncmp(p, "、", strlen("、")) == 0) {
			seps++, last = p;
		}
	}
}

static size_t note_rules_reader_words_in(const char *a, const char *b)
{
	size_t n = 0;

	for (const char *p = a; p < b; p++)
		if (isalnum((unsigned char)*p) && (p == a || !isalnum((unsigned char)p[-1])))
			n++;
	return n;
}

/* A sentence with two commas or more and two short parts or more: a, b,
 * and c. */
static int note_rules_reader_en_list(const char *text)
{
	const char *p = text, *seg = text;
	size_t commas = 0, shorts = 0;

	for (;; p++) {
		int end = *p == '\0' || *p == '.' || *p == '!' || *p == '?' || *p == '\n';

		if (*p == ',' || end) {
			const char *a = seg;

			while (*a == ' ')
				a++;
			if (strncasecmp(a, "and ", 4) == 0 || strncasecmp(a, "or ", 3) == 0)
				a += *a == 'a' || *a == 'A' ? 4 : 3;
			shorts += note_rules_reader_words_in(a, p) > 0 && note_rules_reader_words_in(a, p) <= 3;
			commas += *p == ',';
			seg = p + 1;
		}
		if (end) {
			if (commas >= 2 && shorts >= 2)
				return 1;
			if (*p == '\0')
				return 0;
			commas = shorts = 0;
		}
	}
}

/* A proper noun in English text: a capital letter that does not start a
 * sentence or a line (I aside). */
static int note_rules_reader_en_name(const char *text)
{
	for (const char *p = text; *p; p++) {
		const char *q = p;

		if (!isupper((unsigned char)*p) || (p > text && isalnum((unsigned char)p[-1])))
			continue;
		if (*p == 'I' && !isalpha((unsigned char)p[1]))
			continue;
		while (q > text && q[-1] == ' ')
			q--;
		if (q == text || strchr(".!?:;\n\"(-", q[-1]) || (unsigned char)q[-1] >= 0x80)
			continue;
		return 1;
	}
	return 0;
}

/* A Latin word of two letters or more in Chinese text: a name (SPF, App). */
static int note_rules_reader_latin_name(const char *text)
{
	for (const char *p = text; *p; p++)
		if (isalpha((unsigned char)p[0]) && isalpha((unsigned char)p[1]) &&
		    (p == text || !isalnum((unsigned char)p[-1])))
			return 1;
	return 0;
}

/* A line that only says where a point comes from: （出自笔记《…》）. */
int note_rules_reader_aside(const char *line, size_t n)
{
	while (n > 0 && (*line == ' ' || *line == '\t'))
		line++, n--;
	while (n > 0 && (line[n - 1] == ' ' || line[n - 1] == '\t' || line[n - 1] == '\r'))
		n--;
	if (n >= 2 && *line == '(' && line[n - 1] == ')')
		return 1;
	return n >= 6 && strncmp(line, "（", 3) == 0 && memcmp(line + n - 3, "）", 3) == 0;
}

/* A list item short enough to name one thing or one step (帐篷, 焯水 3
 * 分钟, a tent): ten characters, or four English words. */
static int note_rules_reader_short_item(const char *s, size_t n)
{
	char *item = xstrndup(s, n);
	int han = text_has_han(item);
	int fits = han ? phrase_chars(item) <= 10 : note_rules_reader_words_in(item, item + n) <= 4;

	free(item);
	return n > 0 && fits;
}

/* The text's lines without list markers and asides; *items: how many of
 * its lines are short list items. The caller frees it. */
static char *note_rules_reader_clean(const char *text, size_t *items)
{
	char *out = xmalloc(strlen(text) + 2), *o = out;
	const char *line = text;

	*items = 0;
	while (*line) {
		size_t n = strcspn(line, "\n"), m;

		if (!note_rules_reader_aside(line, n)) {
			m = note_rules_reader_marker(line);
			m = m > n ? n : m;
			*items += m > 0 && note_rules_reader_short_item(line + m, n - m);
			memcpy(o, line + m, n - m);
			o += n - m;
			*o++ = '\n';
		}
		line += n + (line[n] == '\n');
	}
	*o = '\0';
	return out;
}

static int note_rules_reader_named(const char *text)
{
	if (note_rules_reader_zh_number(text) || note_rules_reader_thing(text) || strstr(text, "《"))
		return 1;
	if (text_has_han(text))
		return note_rules_reader_zh_list(text) || note_rules_reader_latin_name(text);
	return note_rules_reader_en_number(text) || note_rules_reader_en_list(text) ||
	       note_rules_reader_en_name(text);
}

int note_rules_reader_concrete(const char *text)
{
	size_t items;
	char *clean;
	int hit;

	if (text == NULL || *text == '\0')
		return 0;
	clean = note_rules_reader_clean(text, &items);
	hit = items >= 2 || note_rules_reader_named(clean);
	free(clean);
	return hit;
}
