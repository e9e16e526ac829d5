/* Prints the words of each line of standard input, joined by " | ":
 * segcli [-l WORDLIST] [-s]. Without -l, ICU's words alone. With -s, only
 * the lines ICU splits into more than one word (to find the words a list
 * must join: feed it the words of the corpora, one a line). */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "text/seg.h"

struct segcli_line {
	char out[8192];
	size_t len;
};

static void segcli_word(void *ctx, const char *w, size_t n, int han)
{
	struct segcli_line *l = ctx;
	int k = snprintf(l->out + l->len, sizeof l->out - l->len, "%s%.*s", l->len ? " | " : "",
			 (int)n, w);

	if (k > 0 && (size_t)k < sizeof l->out - l->len)
		l->len += (size_t)k;
}

int main(int argc, char **argv)
{
	char line[8192], err[512];
	int opt, split_only = 0;

	while ((opt = getopt(argc, argv, "l:s")) != -1) {
		if (opt == 'l' && text_seg_load(optarg, err, sizeof err) < 0) {
			fprintf(stderr, "segcli: %s\n", err);
			return 1;
		} else if (opt == 's') {
			split_only = 1;
		} else if (opt != 'l') {
			fprintf(stderr, "usage: segcli [-l WORDLIST] [-s] < lines\n");
			return 2;
		}
	}
	while (fgets(line, sizeof line, stdin)) {
		struct segcli_line l = { .len = 0 };
		size_t words;

		line[strcspn(line, "\n")] = '\0';
		words = text_seg(line, strlen(line), segcli_word, &l);
		if (!split_only || words > 1)
			printf("%s\t%s\n", line, l.out);
	}
	return 0;
}
