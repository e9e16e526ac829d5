/* Whether a request names a subject (note_vague.h). The request is cut
 * into words (text/seg.h); a word made only of words that ask for a note
 * without saying what about (帮我, 写一篇, 东西, 大家, 看看, 爆款,
 * something, for me…) says nothing, and a request with nothing else is
 * vague. Longer pieces the segmenter keeps whole (写点东西, 大家看看) are
 * read as such words one after another. */
#include "config.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "text/seg.h"
#include "util/xmalloc.h"
#include "wf/note/note_vague.h"

#define VAGUE_N(a) (sizeof(a) / sizeof((a)[0]))
#define VAGUE_TEXT_MAX 2000

/* Longest first where one starts another (写一篇 before 写). */
static const char *const vague_words[] = {
	"小红书", "有意思", "关于", "一点", "写一篇", "来一篇", "发一篇", "出一篇", "朋友们", "一下子", "都可以",
	"帮我", "给我", "替我", "帮忙", "写点", "写个", "写篇", "来点", "来篇", "来个", "发个", "发篇",
	"随便", "东西", "内容", "什么", "一下", "笔记", "文章", "帖子", "文案", "一篇", "一个", "一些",
	"一条", "有趣", "好看", "好玩", "大家", "大伙", "朋友", "看看", "瞧瞧", "分享", "生活", "日常",
	"爆款", "热门", "高赞", "优质", "最近", "今天", "这个", "那个", "我们", "你们", "可以", "都行",
	"东东", "做个", "弄个", "整个", "整点", "吧", "啊", "呢", "吗", "呀", "嘛", "哈", "写", "发", "做",
	"来", "点", "个", "篇", "条", "请", "能", "想", "要", "我", "你", "的", "了", "给", "看", "些",
	"下", "一", "帮", "弄", "整", "爆", "款",
	"something", "anything", "whatever", "stuff", "things", "thing", "write", "writing", "post",
	"posts", "note", "notes", "share", "please", "help", "make", "create", "content", "article",
	"everyone", "everybody", "people", "folks", "friends", "some", "about", "for", "me", "us",
	"you", "my", "our", "a", "an", "the", "to", "of", "can", "could", "would", "will", "one",
	"interesting", "fun", "nice", "good", "cool", "little", "quick", "life", "daily", "xiaohongshu",
	"rednote", "i", "want", "need", "let's", "lets", "up", "just", "piece", "short",
};

/* Whether the n bytes at w are vague words one after another. */
static int vague_covered(const char *w, size_t n)
{
	while (n > 0) {
		size_t best = 0;

		for (size_t i = 0; i < VAGUE_N(vague_words); i++) {
			size_t len = strlen(vague_words[i]);

			if (len <= n && len > best && strncasecmp(w, vague_words[i], len) == 0)
				best = len;
		}
		if (best == 0)
			return 0;
		w += best;
		n -= best;
	}
	return 1;
}

struct vague_ctx {
	int named;   /* a word that names something */
};

static void vague_word(void *ctx, const char *word, size_t n, int han)
{
	struct vague_ctx *v = ctx;
	int letters = han;

	for (size_t i = 0; i < n && !letters; i++)
		letters = isalnum((unsigned char)word[i]) || (unsigned char)word[i] >= 0x80;
	if (letters && !vague_covered(word, n))
		v->named = 1;
}

int note_vague(const char *text)
{
	struct vague_ctx v = { 0 };
	size_t n;

	if (text == NULL || *text == '\0')
		return 1;
	n = strnlen(text, VAGUE_TEXT_MAX);
	text_seg(text, n, vague_word, &v);
	return !v.named;
}
