/* Route matching (see route.h). */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <curl/curl.h>
#include "fcgi/req.h"
#include "fcgi/route.h"
#include "util/xmalloc.h"

static void route_clear_captures(struct req *r)
{
	for (int i = 0; i < r->ncaptures; i++)
		free(r->captures[i]);
	r->ncaptures = 0;
}

/* One segment, decoded; NULL when it holds a NUL or a slash once decoded. */
static char *route_decode(const char *p, size_t n)
{
	int olen = 0;
	char *d = curl_easy_unescape(NULL, p, (int)n, &olen), *out = NULL;

	if (d && (size_t)olen == strlen(d) && strchr(d, '/') == NULL)
		out = xstrdup(d);
	curl_free(d);
	return out;
}

static int route_path_match(const char *pattern, const char *path, struct req *r)
{
	const char *p = pattern, *s = path;

	route_clear_captures(r);
	while (*p && *s) {
		if (*p == '*') {
			size_t n = strcspn(s, "/");
			char *cap;

			if (n == 0 || r->ncaptures == REQ_MAX_CAPTURES)
				return 0;
			cap = route_decode(s, n);
			if (cap == NULL)
				return 0;
			r->captures[r->ncaptures++] = cap;
			p++;
			s += n;
		} else if (*p++ != *s++) {
			return 0;
		}
	}
	return *p == '\0' && *s == '\0';
}

const struct route *route_match(const struct route *table, size_t n, struct req *r,
				enum problem *why)
{
	*why = PB_NOT_FOUND;
	for (size_t i = 0; i < n; i++) {
		if (!route_path_match(table[i].pattern, r->path, r))
			continue;
		if (strcmp(table[i].method, r->method) == 0 ||
		    (strcmp(r->method, "HEAD") == 0 && strcmp(table[i].method, "GET") == 0))
			return &table[i];
		*why = PB_METHOD;
	}
	route_clear_captures(r);
	return NULL;
}
