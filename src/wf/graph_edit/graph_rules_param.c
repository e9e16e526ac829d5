/* Setting a parameter, offline: "把 temperature 设为 0.3", "温度改成0.5",
 * "set the width of the image generator to 1024". The parameter is found
 * by its name or its Chinese or English name among the configValues of
 * the node named, or of the only node that has it; the value is read as
 * the declared type and checked against its range or options before it
 * goes into the patch. */
#include "config.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "json/dump.h"
#include "json/pointer.h"
#include "util/xmalloc.h"
#include "wf/graph_edit/graph_nodes.h"
#include "wf/graph_edit/graph_rules_int.h"

static const char *const gr_true_words[] = { "true", "on", "yes", "开", "打开", "开启", "是",
					      "启用", NULL };
static const char *const gr_false_words[] = { "false", "off", "no", "关", "关闭", "否", "不",
					       "停用", "禁用", NULL };

/* What people call the options of the library's ENUM parameters, in
 * either language: "日语" is ja, "bullet points" is bullets. */
struct gr_meaning {
	const char *option;
	const char *const words[10];
};

static const struct gr_meaning gr_meanings[] = {
	{ "zh", { "中文", "汉语", "简体中文", "chinese", "mandarin", NULL } },
	{ "en", { "英文", "英语", "english", NULL } },
	{ "ja", { "日语", "日文", "japanese", NULL } },
	{ "ko", { "韩语", "韩文", "朝鲜语", "korean", NULL } },
	{ "fr", { "法语", "法文", "french", NULL } },
	{ "de", { "德语", "德文", "german", NULL } },
	{ "es", { "西班牙语", "西语", "spanish", NULL } },
	{ "bullets", { "要点", "要点列表", "列表", "条目", "分点", "bullet", "bullet points",
		       "bulleted list", "list", "points" } },
	{ "paragraph", { "段落", "一段话", "成段", "paragraphs", "prose", "a paragraph", NULL } },
	{ "upper", { "大写", "全大写", "uppercase", "upper case", "capitals", "all caps", NULL } },
	{ "lower", { "小写", "全小写", "lowercase", "lower case", NULL } },
	{ "title", { "首字母大写", "标题格式", "title case", NULL } },
	{ "nearest", { "四舍五入", "最近", "round", "nearest", NULL } },
	{ "up", { "向上取整", "向上", "ceil", "ceiling", "round up", NULL } },
	{ "down", { "向下取整", "向下", "floor", "round down", NULL } },
	{ "brief", { "简短", "简略", "简单", "short", NULL } },
	{ "detailed", { "详细", "详尽", "detail", "in detail", NULL } },
	{ "normal", { "普通", "一般", "正常", "default", NULL } },
	{ "photo", { "照片", "写实", "摄影", "realistic", "photograph", "photographic", NULL } },
	{ "anime", { "动漫", "二次元", "动画", "manga", "cartoon", NULL } },
	{ "watercolor", { "水彩", "watercolour", NULL } },
	{ "oil", { "油画", "oil painting", NULL } },
	{ "ink", { "水墨", "国画", "ink wash", NULL } },
	{ "cyberpunk", { "赛博朋克", NULL } },
	{ "characters", { "字符", "字符数", "字数", "chars", NULL } },
	{ "words", { "词", "词数", "单词", NULL } },
	{ "bytes", { "字节", NULL } },
	{ "add", { "加", "加法", "相加", "plus", "sum", "addition", NULL } },
	{ "subtract", { "减", "减法", "相减", "minus", "subtraction", NULL } },
	{ "multiply", { "乘", "乘法", "相乘", "times", "multiplication", NULL } },
	{ "divide", { "除", "除法", "相除", "division", NULL } },
	{ "power", { "乘方", "幂", "次方", "exponent", NULL } },
	{ "modulo", { "取余", "取模", "余数", "mod", "remainder", NULL } },
	{ "min", { "最小", "最小值", "minimum", "smaller", NULL } },
	{ "max", { "最大", "最大值", "maximum", "larger", NULL } },
	{ "date", { "日期", NULL } },
	{ "time", { "时间", NULL } },
	{ "chinese", { "中文格式", "中文日期", NULL } },
};

/* The option of decl that text means (its name in any case, or one of
 * its words), or NULL. Lent from decl. */
static const char *gr_enum_pick(const json_t *decl, const char *text)
{
	const json_t *o;
	size_t i;

	json_array_foreach(json_object_get(decl, "options"), i, o)
		if (json_is_string(o) && strcasecmp(json_string_value(o), text) == 0)
			return json_string_value(o);
	for (size_t m = 0; m < sizeof gr_meanings / sizeof gr_meanings[0]; m++)
		for (size_t w = 0; w < 10 && gr_meanings[m].words[w]; w++) {
			if (strcasecmp(gr_meanings[m].words[w], text) != 0)
				continue;
			json_array_foreach(json_object_get(decl, "options"), i, o)
				if (json_is_string(o) && !strcmp(json_string_value(o), gr_meanings[m].option))
					return json_string_value(o);
		}
	return NULL;
}

/* The ENUM parameter of def that has an option text means, or NULL. */
const char *gr_param_by_value(const json_t *def, const char *text)
{
	const char *k;
	const json_t *d;

	json_object_foreach((json_t *)json_object_get(def, "configValues"), k, d)
		if (!strcmp(json_string_value(json_object_get(d, "type")) ?: "", "ENUM") &&
		    gr_enum_pick(d, text))
			return k;
	return NULL;
}

static int gr_word_of(const char *s, const char *const *list)
{
	for (size_t i = 0; list[i]; i++)
		if (strcasecmp(s, list[i]) == 0)
			return 1;
	return 0;
}

static const char *gr_pname(const struct gr_plan *p, const char *param, const json_t *decl)
{
	const char *n = json_string_value(json_object_get(decl, p->zh ? "name_zh" : "name_en"));

	return n && *n ? n : param;
}



static json_t *gr_number(const char *text, int integer)
{
	const char *s = text;
	char *end;
	double v;

	while (*s && !isdigit((unsigned char)*s) && *s != '-' && *s != '.')
		s++;
	v = strtod(s, &end);
	if (end == s)
		return NULL;
	if (integer)
		return v == (double)(json_int_t)v ? json_integer((json_int_t)v) : NULL;
	return json_real(v);
}

/* The sentence for a value that does not fit decl. */
static void gr_value_why(struct gr_plan *p, const char *param, const json_t *decl,
			 const char *text, int parsed)
{
	const char *t = json_string_value(json_object_get(decl, "type")), *name = gr_pname(p, param, decl);
	const json_t *mn = json_object_get(decl, "min"), *mx = json_object_get(decl, "max");

	if (t && !strcmp(t, "ENUM")) {
		char *opts = jtext(json_object_get(decl, "options"), JSON_COMPACT);

		gr_fail(p, "「%s」只能是 %s 之一，不能设为「%s」。", "\"%s\" must be one of %s, not \"%s\".",
			name, opts, text);
		free(opts);
	} else if (!parsed) {
		gr_fail(p, "「%s」要一个 %s 类型的值，「%s」不是。", "\"%s\" takes a value of type %s; "
			"\"%s\" is not one.", name, t ? t : "?", text);
	} else if (json_is_number(mn) && json_is_number(mx)) {
		gr_fail(p, "「%s」的范围是 %g 到 %g，不能设为 %s。", "\"%s\" ranges from %g to %g; %s is "
			"outside.", name, json_number_value(mn), json_number_value(mx), text);
	} else if (json_is_number(mn) || json_is_number(mx)) {
		gr_fail(p, "「%s」的%s是 %g，不能设为 %s。", "\"%s\" has a %s of %g; %s is outside.", name,
			json_is_number(mn) ? (p->zh ? "最小值" : "minimum") : (p->zh ? "最大值" : "maximum"),
			json_number_value(json_is_number(mn) ? mn : mx), text);
	} else {
		gr_fail(p, "「%s」要一个 %s 类型的值，「%s」不是。", "\"%s\" takes a value of type %s; "
			"\"%s\" is not one.", name, t ? t : "?", text);
	}
}

json_t *gr_param_value(struct gr_plan *p, const char *param, const json_t *decl,
		       const char *text)
{
	const char *t = json_string_value(json_object_get(decl, "type"));
	json_t *v = NULL;
	char why[256];

	if (!t || !strcmp(t, "STRING"))
		v = json_string(text);
	else if (!strcmp(t, "INTEGER") || !strcmp(t, "FLOAT"))
		v = gr_number(text, !strcmp(t, "INTEGER"));
	else if (!strcmp(t, "BOOLEAN"))
		v = gr_word_of(text, gr_true_words) ? json_true() :
		    gr_word_of(text, gr_false_words) ? json_false() : NULL;
	else if (!strcmp(t, "ENUM") && gr_enum_pick(decl, text))
		v = json_string(gr_enum_pick(decl, text));
	if (v && graph_param_check(decl, v, why, sizeof why) == NULL)
		return v;
	gr_value_why(p, param, decl, text, v != NULL);
	json_decref(v);
	return NULL;
}

/* The node a parameter belongs to when none is named: the only one that
 * has it, or the only one this patch added. */
static int gr_param_node(struct gr_plan *p, const char *name, size_t *out, const char **param)
{
	size_t idx[16], k = 0, added = 0, pick = 0;

	for (size_t i = p->nn; i-- > 0 && k < 16;) {
		const char *pm = p->nodes[i].removed ? NULL : gr_param_find(p->nodes[i].def, name);

		if (pm) {
			if (p->nodes[i].added && !added++)
				pick = k;
			idx[k++] = i;
		}
	}
	if (!k)
		return gr_fail(p, "画布上没有哪个节点有参数「%s」。", "No node on the canvas has a "
			       "parameter \"%s\".", name);
	if (k > 1 && added != 1) {
		struct buf b;

		buf_init(&b, 2048);
		gr_node_list(p, idx, k, &b);
		gr_fail(p, "%s 都有参数「%s」，请说明是哪一个，例如“把%s的%s设为…”。",
			"%s all have \"%s\": say which one, as in \"set the %s's %s to ...\".", b.data,
			name, gr_node_label(p, idx[0]), name);
		buf_free(&b);
		return -1;
	}
	*out = idx[k > 1 ? pick : 0];
	*param = gr_param_find(p->nodes[*out].def, name);
	return 0;
}

/* Splits "大模型的温度", "the chat's temperature", "temperature of the chat"
 * into the node's name and the parameter's. */
static void gr_param_split(const char *s, size_t n, const char **node, size_t *nn,
			   const char **par, size_t *pn)
{
	static const char *const poss[] = { "的", "'s", NULL };
	static const char *const of[] = { "of", "on", "for", "in", NULL };

	static const char *const its[] = { "its ", "their ", "它的", "其", NULL };

	*node = NULL, *nn = 0, *par = s, *pn = n;
	for (size_t i = 0; its[i]; i++)
		if (n > strlen(its[i]) && gr_find(s, strlen(its[i]), its[i]) == 0) {
			*node = "it", *nn = 2;
			*par = s + strlen(its[i]), *pn = n - strlen(its[i]);
			gr_trim(par, pn);
			return;
		}
	if (gr_split2_last(s, n, poss, node, nn, par, pn))
		return;
	if (gr_split2(s, n, of, par, pn, node, nn))
		return;
	*node = NULL, *nn = 0, *par = s, *pn = n;
	gr_trim(par, pn);
}

/* A parameter of a node this patch adds goes into its "add" operation:
 * the node has no data to add a member to until it exists. Steals v. */
static void gr_set_new(struct gr_plan *p, const char *lid, const char *param, json_t *v)
{
	json_t *o, *val, *data, *cv;
	size_t i;

	json_array_foreach(p->patch, i, o) {
		val = json_object_get(o, "value");
		if (!json_is_object(val) || strcmp(json_string_value(json_object_get(val, "localId")) ?: "",
						   lid) != 0)
			continue;
		if (!json_is_object(data = json_object_get(val, "data")))
			json_object_set_new(val, "data", data = json_object());
		if (!json_is_object(cv = json_object_get(data, "configValues")))
			json_object_set_new(data, "configValues", cv = json_object());
		json_object_set_new(cv, param, v);
		return;
	}
	json_decref(v);
}

/* "summary style", "翻译" (a node, the parameter its value means): the
 * node and parameter found without "的" or "'s". 0, or -1. */
static int gr_set_guess(struct gr_plan *p, const char *name, const char *text, size_t *k,
			const char **param)
{
	size_t idx[2];
	const char *sp;

	if (gr_node_find(p, name, idx, 2) == 1 &&
	    (*param = gr_param_by_value(p->nodes[idx[0]].def, text))) {
		*k = idx[0];
		return 0;
	}
	for (sp = strrchr(name, ' '); sp; sp = sp > name ? memrchr(name, ' ', (size_t)(sp - name)) : NULL) {
		char *node = xstrndup(name, (size_t)(sp - name));
		size_t hits = gr_node_find(p, node, idx, 2);

		free(node);
		if (hits == 1 && (*param = gr_param_find(p->nodes[idx[0]].def, sp + 1))) {
			*k = idx[0];
			return 0;
		}
	}
	return -1;
}

/* The node and parameter of a "set" clause: 0, or -1 with p->why. */
static int gr_set_target(struct gr_plan *p, const char *ns, size_t nn, const char *name,
			 const char *text, size_t *k, const char **param)
{
	*param = NULL;
	if (nn) {
		if (gr_pick(p, ns, nn, k))
			return -1;
		if ((*param = gr_param_find(p->nodes[*k].def, name)) ||
		    (*param = gr_param_by_value(p->nodes[*k].def, text)))
			return 0;
		return gr_fail(p, "「%s」没有参数「%s」。", "\"%s\" has no parameter \"%s\".",
			       gr_node_label(p, *k), name);
	}
	if (gr_param_node(p, name, k, param) == 0)
		return 0;
	if (gr_set_guess(p, name, text, k, param) == 0) {
		buf_reset(&p->why);
		return 0;
	}
	return -1;
}

/* A value as written: without the spaces, sentence marks and quotes
 * around it. */
static void gr_value_trim(const char **s, size_t *n)
{
	static const char *const quotes[][2] = { { "\"", "\"" }, { "'", "'" }, { "“", "”" },
						  { "「", "」" }, { "‘", "’" }, { "`", "`" } };

	gr_trim_light(s, n);
	for (size_t i = 0; i < sizeof quotes / sizeof quotes[0]; i++) {
		size_t a = strlen(quotes[i][0]), b = strlen(quotes[i][1]);

		if (*n >= a + b && !memcmp(*s, quotes[i][0], a) && !memcmp(*s + *n - b, quotes[i][1], b)) {
			*s += a, *n -= a + b;
			return;
		}
	}
}

static int gr_set(struct gr_plan *p, const char *s, size_t n, const char *val, size_t vn)
{
	const char *ns, *ps, *param = NULL;
	size_t nn, pn, k;
	char *name, *text, *path, *sub;
	json_t *v;
	int rc = -1;

	gr_param_split(s, n, &ns, &nn, &ps, &pn);
	name = gr_name_clean(ps, pn, NULL);
	gr_value_trim(&val, &vn);
	text = xstrndup(val, vn);
	if (gr_set_target(p, ns, nn, name, text, &k, &param) == 0 &&
	    (v = gr_param_value(p, param, json_object_get(json_object_get(
				p->nodes[k].def, "configValues"), param), text))) {
		char *shown = json_is_string(v) && strcmp(json_string_value(v), text) ?
			      xasprintf("%s (%s)", text, json_string_value(v)) : xstrdup(text);

		sub = xasprintf("/data/configValues/%s", param);
		path = gr_path("nodes", p->nodes[k].id, sub);
		if (p->nodes[k].added)
			gr_set_new(p, p->nodes[k].id, param, v);
		else
			json_array_append_new(p->patch, json_pack("{s:s, s:s, s:o}", "op", "add", "path",
								  path, "value", v));
		gr_done(p, "把「%s」的%s设为 %s", "set %2$s of \"%1$s\" to %3$s", gr_node_label(p, k),
			gr_pname(p, param, json_object_get(json_object_get(p->nodes[k].def,
								     "configValues"), param)), shown);
		free(shown);
		free(sub);
		free(path);
		rc = 0;
	}
	free(name);
	free(text);
	return rc;
}

int gr_op_set(struct gr_plan *p, const char *b, size_t bn, const char *a, size_t an)
{
	static const char *const to[] = { "为", "成", "到", "=", "to", "as", NULL };
	const char *l, *r;
	size_t ln, rn;

	int rc;

	if (gr_set_as_replace(p, b, bn, a, an, &rc))
		return rc;
	if (bn && an)
		return gr_set(p, b, bn, a, an);
	if (an && gr_split2_last_raw(a, an, to, &l, &ln, &r, &rn))
		return gr_set(p, l, ln, r, rn);
	/* "set the chat's json mode on" */
	for (int on = 1; on >= 0 && an; on--) {
		const char *w = on ? "on" : "off";
		long at = gr_find(a, an, w);

		if (at > 0 && (size_t)at + strlen(w) == an)
			return gr_set(p, a, (size_t)at, on ? "true" : "false", on ? 4 : 5);
	}
	/* "添加一个翻译，翻成英文": a value alone sets an option of the node the
	 * clause before added or named. */
	if (an && !bn && p->prev_ref != (size_t)-1 && p->prev_ref < p->nn && !p->nodes[p->prev_ref].removed) {
		const char *it = gr_node_label(p, p->prev_ref);

		return gr_set(p, it, strlen(it), a, an);
	}
	return gr_fail(p, "要把哪个参数设成什么？例如“把温度设为0.3”。",
		       "Set which parameter to what? For example \"set temperature to 0.3\".");
}

static int gr_toggle(struct gr_plan *p, const char *b, size_t bn, const char *a, size_t an,
		     int on)
{
	const char *s = an ? a : b;
	size_t n = an ? an : bn;

	if (!n)
		return gr_fail(p, "要打开或关闭哪个参数？", "Which setting should I turn on or off?");
	return gr_set(p, s, n, on ? "true" : "false", on ? 4 : 5);
}

int gr_op_enable(struct gr_plan *p, const char *b, size_t bn, const char *a, size_t an)
{
	return gr_toggle(p, b, bn, a, an, 1);
}

int gr_op_disable(struct gr_plan *p, const char *b, size_t bn, const char *a, size_t an)
{
	return gr_toggle(p, b, bn, a, an, 0);
}
