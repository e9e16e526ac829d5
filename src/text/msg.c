/* The message catalogue (see msg.h): the engine's own words, and the
 * catalogues the workflows add when they are registered. */
#include "config.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text/msg.h"
#include "util/xmalloc.h"

static const struct msg_def msg_defs[] = {
	/* Retrieval (kb/retrieve.h): how a library was searched. */
	{ "kb.method.bm25", "按关键词检索（BM25）", "searched by keywords (BM25)" },
	{ "kb.method.hybrid", "按关键词与语义检索（BM25 与向量余弦相似度融合）", "searched by keywords and meaning (BM25 fused with embedding cosine similarity)" },
	{ "kb.method.fallback", "向量检索暂不可用，按关键词检索（BM25）", "embeddings unavailable: searched by keywords (BM25)" },
	/* The engine. A node's name is its workflow's agent.<node>. */
	{ "step.start", "%s开始工作…", "%s is starting…" },
	{ "step.end", "%s完成了这一步", "%s has finished this step" },
	{ "pause.waiting", "工作流已暂停，等待你的确认", "The workflow is paused, waiting for your decision" },
	{ "yield.reconnect", "稍后自动重新连接，继续工作", "Reconnecting to carry on" },
	{ "decide.received", "已收到你的决定", "Your decision is received" },
	{ "decide.timeout", "等待超时，已按默认选项继续", "The pause timed out: the default choice was applied" },
	{ "option.approve", "继续", "Continue" },
	{ "option.reject", "重新生成", "Regenerate" },
	{ "option.modify", "修改", "Edit" },
	{ "error.node_failed", "这一步没能完成", "This step could not be completed" },
	{ "error.bad_route", "工作流走到了不存在的步骤，已停止", "The workflow went to a step that does not exist and stopped" },
	{ "error.max_iterations", "重复次数已达上限，流程终止", "The workflow went round too many times and stopped" },
	{ "error.event_limit", "这个会话的记录已满，请新开一个会话", "This thread's log is full: start a new thread" },
	{ "error.step_crashed", "这一步反复导致服务进程退出，已停止", "This step kept stopping the server process and was given up" },
	{ "error.request_too_large", "这次请求要保存的内容太多，未能完成", "This request would store too much: it was stopped" },
	{ "error.image_too_large", "图片太大，无法处理", "The image is too large to process" },
	{ "error.cancelled", "已按你的要求停止", "Stopped as you asked" },
};

#define MSG_N (sizeof msg_defs / sizeof msg_defs[0])

/* The catalogues: the engine's own first, then each workflow's as it is
 * registered (msg_catalogue_add). */
#define MSG_CATALOGUES_MAX 24

struct msg_catalogue {
	const struct msg_def *defs;
	size_t n;
};

static struct msg_catalogue msg_cats[MSG_CATALOGUES_MAX] = { { msg_defs, MSG_N } };
static size_t msg_ncats = 1;

/* Every entry of every catalogue by id, sorted, so a lookup is a binary
 * search rather than a walk of the tables. Built on the first lookup and
 * again whenever a catalogue is added; lookups only read it. */
static const struct msg_def **msg_index;
static size_t msg_nindex;

int msg_lang_ok(const char *lang)
{
	return lang && (strcmp(lang, "zh") == 0 || strcmp(lang, "en") == 0);
}

static int msg_cmp(const void *a, const void *b)
{
	return strcmp((*(const struct msg_def *const *)a)->id, (*(const struct msg_def *const *)b)->id);
}

static int msg_key_cmp(const void *key, const void *e)
{
	return strcmp(key, (*(const struct msg_def *const *)e)->id);
}

/* The sorted index of the registered catalogues and of extra (n rows, or
 * none): a new array of *len entries, or NULL when an id is there twice or
 * a row lacks its id or one of its texts. */
static const struct msg_def **msg_index_new(const struct msg_def *extra, size_t n, size_t *len)
{
	const struct msg_def **idx;
	size_t k = 0;

	*len = n;
	for (size_t c = 0; c < msg_ncats; c++)
		*len += msg_cats[c].n;
	idx = xcalloc(*len ? *len : 1, sizeof idx[0]);
	for (size_t c = 0; c < msg_ncats; c++)
		for (size_t i = 0; i < msg_cats[c].n; i++)
			idx[k++] = &msg_cats[c].defs[i];
	for (size_t i = 0; i < n; i++)
		idx[k++] = &extra[i];
	for (size_t i = 0; i < k; i++)
		if (idx[i]->id == NULL || idx[i]->zh == NULL || idx[i]->en == NULL)
			goto refused;
	qsort(idx, k, sizeof idx[0], msg_cmp);
	for (size_t i = 1; i < k; i++)
		if (strcmp(idx[i - 1]->id, idx[i]->id) == 0)
			goto refused;
	return idx;
refused:
	free(idx);
	return NULL;
}

int msg_catalogue_add(const struct msg_def *defs, size_t n)
{
	const struct msg_def **idx;
	size_t len;

	if (defs == NULL || n == 0 || msg_ncats == MSG_CATALOGUES_MAX)
		return -1;
	idx = msg_index_new(defs, n, &len);
	if (idx == NULL)
		return -1;
	msg_cats[msg_ncats++] = (struct msg_catalogue){ defs, n };
	free(msg_index);
	msg_index = idx;
	msg_nindex = len;
	return 0;
}

const struct msg_def *msg_catalogue(size_t i, size_t *n)
{
	if (i >= msg_ncats) {
		*n = 0;
		return NULL;
	}
	*n = msg_cats[i].n;
	return msg_cats[i].defs;
}

const char *msg_find(const char *lang, const char *id)
{
	int en = lang && strcmp(lang, "en") == 0;
	const struct msg_def *const *d;

	if (id == NULL)
		return NULL;
	/* The engine's table alone: every id is listed once in it
	 * (tests/unit/t_msg.c checks). */
	if (msg_index == NULL)
		msg_index = msg_index_new(NULL, 0, &msg_nindex);
	if (msg_index == NULL)
		return NULL;
	d = bsearch(id, msg_index, msg_nindex, sizeof msg_index[0], msg_key_cmp);
	return d == NULL ? NULL : en ? (*d)->en : (*d)->zh;
}

const char *msg_get(const char *lang, const char *id)
{
	const char *s = msg_find(lang, id);

	return s ? s : id ? id : "";
}

char *msg_fmt(const char *lang, const char *id, ...)
{
	va_list ap;
	char *s = NULL;

	va_start(ap, id);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	if (vasprintf(&s, msg_get(lang, id), ap) < 0)
		s = NULL;
#pragma GCC diagnostic pop
	va_end(ap);
	return s ? s : strdup("");
}

const char *msg_agent(const char *lang, const char *node)
{
	return msg_agent_in(lang, NULL, node);
}

const char *msg_agent_in(const char *lang, const char *workflow, const char *node)
{
	char id[160];
	const char *s = NULL;

	if (workflow) {
		snprintf(id, sizeof id, "agent.%s.%s", workflow, node ? node : "");
		s = msg_find(lang, id);
	}
	if (s == NULL) {
		snprintf(id, sizeof id, "agent.%s", node ? node : "");
		s = msg_find(lang, id);
	}
	return s ? s : node ? node : "";
}

const char *msg_error(const char *lang, const char *code)
{
	char id[96];
	const char *s;

	snprintf(id, sizeof id, "error.%s", code ? code : "");
	s = msg_find(lang, id);
	return s ? s : msg_get(lang, "error.node_failed");
}
