/* Where a question names a place (chat_zones.h): every name of the
 * generated table, longest first, looked for in the question's first
 * bytes; Latin names as whole words, without regard to case or to the
 * marks of Latin-1 letters (São Paulo, Sao Paulo), Chinese names
 * anywhere. */
#include "config.h"
#include <string.h>
#include "wf/chat/chat_zones.h"

static int chat_zones_word_char(unsigned char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
}

static int chat_zones_latin(const char *name)
{
	return chat_zones_word_char((unsigned char)name[0]);
}

/* The text as the names are matched: its first bytes, cut at a character
 * boundary (raw), and the same lowered with Latin-1 letters folded to
 * ASCII (São Paulo → sao paulo: low), map[i] being low[i]'s byte in raw. */
struct chat_zones_text {
	char raw[CHAT_ZONES_SCAN + 1], low[CHAT_ZONES_SCAN + 1];
	unsigned short map[CHAT_ZONES_SCAN + 1];
	/* The pairs of bytes each holds, one bit a pair: a name whose first
	 * two bytes are not a pair of the text is not looked for. */
	unsigned char raw2[8192], low2[8192];
};

static void chat_zones_pairs(const char *s, unsigned char *set)
{
	memset(set, 0, 8192);
	for (size_t i = 0; s[i] && s[i + 1]; i++) {
		unsigned k = (unsigned)(unsigned char)s[i] << 8 | (unsigned char)s[i + 1];

		set[k >> 3] |= (unsigned char)(1u << (k & 7));
	}
}

static int chat_zones_pair_in(const unsigned char *set, const char *name)
{
	unsigned k;

	if (!name[0] || !name[1])
		return 1;
	k = (unsigned)(unsigned char)name[0] << 8 | (unsigned char)name[1];
	return set[k >> 3] & (1u << (k & 7));
}

static void chat_zones_prepare(const char *text, struct chat_zones_text *t)
{
	/* U+00C0..U+00FF, lowered and without their marks ('.': keep). */
	static const char latin1[] = "aaaaaaaceeeeiiiidnooooo.ouuuuyts" "aaaaaaaceeeeiiiidnooooo.ouuuuyty";
	size_t n = strlen(text), j = 0;

	if (n > CHAT_ZONES_SCAN) {
		n = CHAT_ZONES_SCAN;
		while (n > 0 && ((unsigned char)text[n] & 0xC0) == 0x80)
			n--;
	}
	memcpy(t->raw, text, n);
	t->raw[n] = '\0';
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)t->raw[i], nx = (unsigned char)t->raw[i + 1];

		t->map[j] = (unsigned short)i;
		if (ch == 0xC3 && nx >= 0x80 && nx <= 0xBF && latin1[nx - 0x80] != '.') {
			t->low[j++] = latin1[nx - 0x80];
			i++;
		} else {
			t->low[j++] = ch >= 'A' && ch <= 'Z' ? (char)(ch - 'A' + 'a') : (char)ch;
		}
	}
	t->map[j] = (unsigned short)n;
	t->low[j] = '\0';
	chat_zones_pairs(t->raw, t->raw2);
	chat_zones_pairs(t->low, t->low2);
}

static int chat_zones_free(const struct chat_zone_hit *hits, size_t n, size_t a, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (a < hits[i].start + hits[i].len && hits[i].start < a + len)
			return 0;
	return 1;
}

/* The first place of the name in the text that is a whole word (Latin)
 * and overlaps no hit yet, as raw bytes [*a, *a + *len); 0 when none. */
static int chat_zones_at(const struct chat_zones_text *t, const struct chat_zone_place *pl,
			 const struct chat_zone_hit *hits, size_t n, size_t *a, size_t *len)
{
	int exact = pl->flags & CHAT_ZONE_CASE;
	const char *hay = exact ? t->raw : t->low, *name = pl->name;
	size_t nl;
	int latin = chat_zones_latin(name);

	if (!chat_zones_pair_in(exact ? t->raw2 : t->low2, name))
		return 0;
	nl = strlen(name);
	for (const char *p = strstr(hay, name); p; p = strstr(p + 1, name)) {
		size_t i = (size_t)(p - hay);

		if (latin && ((i > 0 && chat_zones_word_char((unsigned char)hay[i - 1])) ||
			      chat_zones_word_char((unsigned char)hay[i + nl])))
			continue;
		*a = exact ? i : t->map[i];
		*len = (exact ? i + nl : t->map[i + nl]) - *a;
		if (chat_zones_free(hits, n, *a, *len))
			return 1;
	}
	return 0;
}

static void chat_zones_sort(struct chat_zone_hit *hits, size_t n)
{
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && hits[j].start < hits[j - 1].start; j--) {
			struct chat_zone_hit t = hits[j];

			hits[j] = hits[j - 1];
			hits[j - 1] = t;
		}
}

size_t chat_zones_find(const char *text, struct chat_zone_hit *hits, size_t max)
{
	struct chat_zones_text t;
	size_t n = 0, a, len;

	if (text == NULL || max == 0)
		return 0;
	chat_zones_prepare(text, &t);
	for (size_t i = 0; i < chat_zone_nplaces && n < max; i++)
		if (chat_zones_at(&t, &chat_zone_places[i], hits, n, &a, &len))
			hits[n++] = (struct chat_zone_hit){ a, len, &chat_zone_places[i] };
	chat_zones_sort(hits, n);
	return n;
}
