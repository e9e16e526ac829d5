/* Safe file names (see safename.h). */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "util/safename.h"
#include "util/xmalloc.h"

size_t safename_invisible(const char *p)
{
	const unsigned char *u = (const unsigned char *)p;

	if (u[0] == 0xc2 && u[1] >= 0x80 && u[1] <= 0x9f)
		return 2;               /* C1 controls */
	if (u[0] == 0xd8 && u[1] == 0x9c)
		return 2;               /* U+061C arabic letter mark */
	if (u[0] != 0xe2 || (u[1] != 0x80 && u[1] != 0x81) || u[2] == 0)
		return 0;
	if (u[1] == 0x80 && (u[2] == 0x8e || u[2] == 0x8f || (u[2] >= 0xa8 && u[2] <= 0xae)))
		return 3;               /* LRM, RLM; line and paragraph separators, LRE..RLO */
	if (u[1] == 0x81 && u[2] >= 0xa6 && u[2] <= 0xa9)
		return 3;               /* LRI, RLI, FSI, PDI */
	return 0;
}

void safename_strip(char *s)
{
	char *out = s;

	while (*s) {
		size_t k = safename_invisible(s);

		if (k)
			s += k;
		else
			*out++ = *s++;
	}
	*out = '\0';
}

int safename_has_controls(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f || safename_invisible(s))
			return 1;
	return 0;
}

json_t *safename_json(const char *name, size_t max)
{
	size_t n = 0;
	char *s = xstrdup(name ? name : "");
	json_t *j;

	safename_strip(s);
	for (char *p = s; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '_';
	n = strlen(s);
	if (n > max) {
		n = max;
		/* Cut on a character boundary. */
		while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--;
		s[n] = '\0';
	}
	j = json_string(s);
	free(s);
	return j ? j : json_string("");   /* not UTF-8: no name */
}
