/* What the person said outranks the note workflow's rules, as tables: the
 * topic without the clauses a removal names (不要提猫 on a trip with the
 * cat), the paragraphs a person's edit makes theirs, a new draft merged
 * around them (kept word for word, the rest replaced or added to, added
 * sections numbered on from the person's), what
 * changed from one draft to the next (sections added, removed, changed;
 * a section that only moved is the same), and the print that tells a
 * refused draft again. */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "wf/note/note_rules.h"

static const struct {
	const char *topic, *banned, *want;
} topic_cases[] = {
	{ "春天去苏州旅行，带上家里的猫", "[\"猫\"]", "春天去苏州旅行" },
	{ "带猫去露营，周末两天", "[\"猫\", \"宠物\"]", "周末两天" },
	{ "新手养猫清单", "[\"猫\"]", "新手养猫清单" },              /* the subject itself: kept */
	{ "春天去苏州旅行，带上家里的猫", "[]", "春天去苏州旅行，带上家里的猫" },
	{ "杭州、苏州、带狗的民宿", "[\"狗\"]", "杭州，苏州" },
	{ "", "[\"猫\"]", "" },
};

static void test_topic(void)
{
	for (size_t i = 0; i < sizeof topic_cases / sizeof topic_cases[0]; i++) {
		json_t *b = json_loads(topic_cases[i].banned, 0, NULL);
		char *got = note_rules_person_topic(topic_cases[i].topic, b);

		is_str(got, topic_cases[i].want, "topic %s without %s: %s", topic_cases[i].topic,
		       topic_cases[i].banned, topic_cases[i].want);
		free(got);
		json_decref(b);
	}
}

static const struct {
	const char *name, *shown, *edited, *before, *want;
} locked_cases[] = {
	{ "a paragraph changed, one added", "A 开头\n\nB 第二段\n\nC 结尾", "A 开头\n\nB 改过的第二段\n\nC 结尾\n\nD 新加的",
	  "[]", "[\"B 改过的第二段\", \"D 新加的\"]" },
	{ "nothing changed", "A 开头\n\nB 第二段", "A 开头\n\nB 第二段", "[]", "[]" },
	{ "a whole new body", "A 开头", "一、材料\n五花肉 500 克\n\n二、步骤\n小火炖 60 分钟", "[]",
	  "[\"一、材料\\n五花肉 500 克\", \"二、步骤\\n小火炖 60 分钟\"]" },
	{ "an earlier edit stays theirs", "A 开头\n\nP 我写的", "A 开头\n\nP 我写的\n\nQ 又加一段",
	  "[\"P 我写的\"]", "[\"P 我写的\", \"Q 又加一段\"]" },
	{ "an earlier edit taken out is no longer theirs", "A 开头\n\nP 我写的", "A 开头", "[\"P 我写的\"]", "[]" },
};

static void test_locked(void)
{
	for (size_t i = 0; i < sizeof locked_cases / sizeof locked_cases[0]; i++) {
		json_t *before = json_loads(locked_cases[i].before, 0, NULL);
		json_t *want = json_loads(locked_cases[i].want, 0, NULL);
		json_t *got = note_rules_person_locked(locked_cases[i].shown, locked_cases[i].edited, before);
		char *g = json_dumps(got, JSON_COMPACT | JSON_ENSURE_ASCII);

		ok(json_equal(got, want), "locked, %s: %s", locked_cases[i].name, g);
		free(g);
		json_decref(got);
		json_decref(want);
		json_decref(before);
	}
}

#define RECIPE "红烧肉我家这样做。\n\n材料：五花肉 500 克，冰糖 30 克。\n\n" \
	"1. 焯水 3 分钟。\n2. 炒糖色。\n3. 小火炖 60 分钟。"
#define DRAFT "关于红烧肉，整理了几条经验。\n\n一、准备食材\n食材新鲜最重要。\n\n二、关键步骤\n火候最关键。\n\n" \
	"三、怎么搭配\n配一道小菜。\n\n你最想先试哪一条？评论区聊聊～"

static const struct {
	const char *name, *prev, *locked, *draft, *want;
} merge_cases[] = {
	{ "all the person's: kept to the byte, the draft's sections after it", RECIPE "\n",
	  "[\"红烧肉我家这样做。\", \"材料：五花肉 500 克，冰糖 30 克。\", "
	  "\"1. 焯水 3 分钟。\\n2. 炒糖色。\\n3. 小火炖 60 分钟。\"]", DRAFT,
	  RECIPE "\n\n一、准备食材\n食材新鲜最重要。\n\n二、关键步骤\n火候最关键。\n\n三、怎么搭配\n配一道小菜。" },
	{ "none of it the person's: the draft", "旧的开头\n\n一、旧的\n旧内容。", "[]", DRAFT, DRAFT },
	{ "mixed: the person's in its place, the rest replaced, new sections before the closing",
	  "旧的开头。\n\n我写的一段，一个字也不能改。\n\n一、旧的小节\n旧内容。\n\n旧的结尾？",
	  "[\"我写的一段，一个字也不能改。\"]", DRAFT,
	  "关于红烧肉，整理了几条经验。\n\n我写的一段，一个字也不能改。\n\n一、准备食材\n食材新鲜最重要。\n\n"
	  "二、关键步骤\n火候最关键。\n\n三、怎么搭配\n配一道小菜。\n\n你最想先试哪一条？评论区聊聊～" },
	{ "the draft's copy of the person's paragraph is left out", "我写的一段，一个字也不能改。",
	  "[\"我写的一段，一个字也不能改。\"]", "我写的一段，一个字也不能改了。\n\n一、补充\n新的一节。",
	  "我写的一段，一个字也不能改。\n\n一、补充\n新的一节。" },
	{ "the sections added go on from the person's numbers", "一、材料\n五花肉 500 克。\n\n二、步骤\n小火炖 60 分钟。",
	  "[\"一、材料\\n五花肉 500 克。\", \"二、步骤\\n小火炖 60 分钟。\"]", DRAFT,
	  "一、材料\n五花肉 500 克。\n\n二、步骤\n小火炖 60 分钟。\n\n三、准备食材\n食材新鲜最重要。\n\n"
	  "四、关键步骤\n火候最关键。\n\n五、怎么搭配\n配一道小菜。" },
	{ "nothing new to add: prev as it was", "我写的一段。", "[\"我写的一段。\"]", "我写的一段。",
	  "我写的一段。" },
};

static void test_merge(void)
{
	for (size_t i = 0; i < sizeof merge_cases / sizeof merge_cases[0]; i++) {
		json_t *locked = json_loads(merge_cases[i].locked, 0, NULL);
		char *got = note_rules_person_merge(merge_cases[i].prev, locked, merge_cases[i].draft);

		is_str(got, merge_cases[i].want, "merge, %s", merge_cases[i].name);
		free(got);
		json_decref(locked);
	}
}

static const struct {
	const char *name, *before, *after, *want;
} change_cases[] = {
	{ "the same draft", "{\"title\": \"T\", \"body\": \"开头\\n\\n一、甲\\n甲的内容\", \"tags\": [\"a\"]}",
	  "{\"title\": \"T\", \"body\": \"开头\\n\\n一、甲\\n甲的内容\", \"tags\": [\"a\"]}",
	  "{\"added\": [], \"removed\": [], \"changed\": []}" },
	{ "a section added, one removed, one changed",
	  "{\"title\": \"T\", \"body\": \"一、甲\\n甲的内容\\n\\n二、乙\\n乙的内容\", \"tags\": []}",
	  "{\"title\": \"T\", \"body\": \"一、甲\\n甲改过了\\n\\n二、丙\\n丙的内容\", \"tags\": []}",
	  "{\"added\": [\"二、丙\"], \"removed\": [\"二、乙\"], \"changed\": [\"一、甲\"]}" },
	{ "sections that only moved are the same",
	  "{\"title\": \"T\", \"body\": \"一、甲\\n甲的内容\\n\\n二、乙\\n乙的内容\", \"tags\": []}",
	  "{\"title\": \"T\", \"body\": \"一、乙\\n乙的内容\\n\\n二、甲\\n甲的内容\", \"tags\": []}",
	  "{\"added\": [], \"removed\": [], \"changed\": []}" },
	{ "title and tags", "{\"title\": \"旧标题\", \"body\": \"正文\", \"tags\": [\"a\", \"b\"]}",
	  "{\"title\": \"新标题\", \"body\": \"正文\", \"tags\": [\"b\", \"c\"]}",
	  "{\"added\": [], \"removed\": [], \"changed\": [], \"title\": {\"from\": \"旧标题\", \"to\": \"新标题\"}, "
	  "\"tags\": {\"added\": [\"c\"], \"removed\": [\"a\"]}}" },
};

static void test_changes(void)
{
	for (size_t i = 0; i < sizeof change_cases / sizeof change_cases[0]; i++) {
		json_t *a = json_loads(change_cases[i].before, 0, NULL), *b = json_loads(change_cases[i].after, 0, NULL);
		json_t *want = json_loads(change_cases[i].want, 0, NULL);
		json_t *got = note_rules_person_changes(a, b);
		char *g = json_dumps(got, JSON_COMPACT | JSON_ENSURE_ASCII);

		ok(json_equal(got, want), "changes, %s: %s", change_cases[i].name, g);
		ok(note_rules_person_none(got) == (i == 0 || i == 2), "  ... %s", i == 0 || i == 2 ? "none" : "some");
		free(g);
		json_decref(got);
		json_decref(want);
		json_decref(a);
		json_decref(b);
	}
}

static void test_print(void)
{
	json_t *a = json_loads("{\"title\": \"T\", \"body\": \"B\", \"tags\": [\"x\", \"y\"]}", 0, NULL);
	json_t *b = json_loads("{\"tags\": [\"x\", \"y\"], \"body\": \"B\", \"title\": \"T\"}", 0, NULL);
	json_t *c = json_loads("{\"title\": \"T\", \"body\": \"B\", \"tags\": [\"xy\"]}", 0, NULL);
	char *pa = note_rules_person_print(a), *pb = note_rules_person_print(b), *pc = note_rules_person_print(c);

	is_str(pa, pb, "the same draft has the same print");
	ok(strcmp(pa, pc) != 0, "other tags, another print");
	free(pa);
	free(pb);
	free(pc);
	json_decref(a);
	json_decref(b);
	json_decref(c);
}

int main(void)
{
	test_topic();
	test_locked();
	test_merge();
	test_changes();
	test_print();
	return tap_done();
}
