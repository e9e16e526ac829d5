/* Word-boundary cuts and joins (src/text/wordcut.c), as tables, with the
 * shipped word list (etc/words.txt): titles, cover lines and tags are cut
 * between words, a join does not say a word twice, and repeats are found. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "text/seg.h"
#include "text/wordcut.h"
#include "tap.h"

static const struct {
	const char *s;
	size_t max;
	int ellipsis;
	const char *want, *what;
} cuts[] = {
	{ "周末去莫干山露营装备清单", 5, 0, "周末去", "莫干山 is not cut to 莫" },
	{ "周末去莫干山露营装备清单", 6, 0, "周末去莫干山", "a cut right after 莫干山" },
	{ "周末去莫干山露营装备清单", 7, 1, "周末去莫干山…", "with an ellipsis, counted" },
	{ "五道快手菜，新手也能做", 4, 0, "五道", "快手菜 is not cut to 快手" },
	{ "五道快手菜，新手也能做", 6, 0, "五道快手菜", "the comma is not kept at the end" },
	{ "杭州西湖一日游", 20, 1, "杭州西湖一日游", "a text that fits is kept as it is" },
	{ "a weekend hiking trip in the mountains", 12, 0, "a weekend", "English: whole words" },
	{ "a weekend hiking trip in the mountains", 17, 1, "a weekend hiking…", "English with an ellipsis" },
	{ "Photosynthesis", 5, 0, "", "a first word longer than max: nothing, not half a word" },
	{ "🐱猫咪挑食怎么办", 3, 0, "🐱猫咪", "an emoji is a boundary" },
	{ "", 4, 0, "", "empty" },
};

static const struct {
	const char *a, *b, *want, *what;
} joins[] = {
	{ "装备清单", "清单", "装备清单", "装备清单 + 清单: said once" },
	{ "露营装备清单", "清单推荐", "露营装备清单推荐", "the shared word once, the rest kept" },
	{ "杭州", "攻略", "杭州攻略", "nothing shared" },
	{ "weekend guide", "guide to hiking", "weekend guide to hiking", "English: a shared word" },
	{ "cat", "atlas", "catatlas", "English: not inside a word" },
	{ "", "清单", "清单", "empty first" },
};

static const struct {
	const char *s;
	int want;
	const char *what;
} repeats[] = {
	{ "装备清单清单", 1, "清单 twice" },
	{ "a guide guide to hiking", 1, "guide twice" },
	{ "the the cat", 1, "case folded repeat" },
	{ "a guide to a guide to hiking", 1, "two words said again" },
	{ "周末去杭州春游的攻略", 0, "no repeat" },
	{ "一步一步来", 0, "一步一步 said on purpose" },
	{ "清单，清单", 0, "a comma between: a list, not a slip" },
};

int main(void)
{
	const char *top = getenv("top_srcdir");
	char path[4096], err[512] = "";

	snprintf(path, sizeof path, "%s/etc/words.txt", top && *top ? top : ".");
	ok(text_seg_load(path, err, sizeof err) == 0, "etc/words.txt loads (%s)", err);
	for (size_t i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		char *got = wordcut_prefix(cuts[i].s, cuts[i].max, cuts[i].ellipsis);

		is_str(got, cuts[i].want, "cut: %s", cuts[i].what);
		free(got);
	}
	for (size_t i = 0; i < sizeof(joins) / sizeof(joins[0]); i++) {
		char *got = wordcut_join(joins[i].a, joins[i].b);

		is_str(got, joins[i].want, "join: %s", joins[i].what);
		free(got);
	}
	for (size_t i = 0; i < sizeof(repeats) / sizeof(repeats[0]); i++)
		is_int(wordcut_repeats(repeats[i].s), repeats[i].want, "repeats: %s", repeats[i].what);
	ok(!wordcut_at_boundary("莫干山", 3) && wordcut_at_boundary("去莫干山", 3) &&
	   wordcut_at_boundary("莫干山", 0) && wordcut_at_boundary("莫干山", 9),
	   "boundaries: inside a word no, at its edges yes");
	text_seg_close();
	return tap_done();
}
