/* The user URL fetcher (see fetch.h). Proxies are not used here: the
 * address checks only mean something for a direct connection. */
#include "config.h"
#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <curl/curl.h>
#include "media/fetch.h"
#include "util/buf.h"
#include "util/curlonce.h"
#include "util/xmalloc.h"

struct fetch_range {
	uint32_t net;
	int bits;
};

/* Not public: this host, private networks, shared and link-local space
 * (cloud metadata lives at 169.254.169.254), documentation, benchmarking,
 * multicast and reserved ranges. */
static const struct fetch_range fetch_v4_blocked[] = {
	{ 0x00000000, 8 }, { 0x0a000000, 8 }, { 0x64400000, 10 }, { 0x7f000000, 8 },
	{ 0xa9fe0000, 16 }, { 0xac100000, 12 }, { 0xc0000000, 24 }, { 0xc0000200, 24 },
	{ 0xc0a80000, 16 }, { 0xc6120000, 15 }, { 0xc6336400, 24 }, { 0xcb007100, 24 },
	{ 0xe0000000, 4 }, { 0xf0000000, 4 },
};

static int fetch_v4_public(uint32_t a)
{
	for (size_t i = 0; i < sizeof fetch_v4_blocked / sizeof fetch_v4_blocked[0]; i++) {
		uint32_t mask = 0xffffffffu << (32 - fetch_v4_blocked[i].bits);

		if ((a & mask) == fetch_v4_blocked[i].net)
			return 0;
	}
	return 1;
}

static int fetch_v6_public(const unsigned char *b)
{
	static const unsigned char mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
	static const unsigned char nat64[12] = { 0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0 };
	static const unsigned char zero[12] = { 0 };

	if (memcmp(b, mapped, 12) == 0 || memcmp(b, nat64, 12) == 0)
		return fetch_v4_public((uint32_t)b[12] << 24 | (uint32_t)b[13] << 16 |
				       (uint32_t)b[14] << 8 | b[15]);
	if (memcmp(b, zero, 12) == 0)                    /* ::/96: ::, ::1, IPv4-compatible */
		return 0;
	if (b[0] == 0x20 && b[1] == 0x02)                /* 6to4: the IPv4 address inside */
		return fetch_v4_public((uint32_t)b[2] << 24 | (uint32_t)b[3] << 16 |
				       (uint32_t)b[4] << 8 | b[5]);
	if ((b[0] & 0xfe) == 0xfc || b[0] == 0xff)       /* unique local, multicast */
		return 0;
	if (b[0] == 0xfe && (b[1] & 0xc0) == 0x80)       /* link-local */
		return 0;
	if (b[0] == 0xfe && (b[1] & 0xc0) == 0xc0)       /* site-local (fec0::/10, deprecated) */
		return 0;
	if (b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0d && b[3] == 0xb8) /* documentation */
		return 0;
	return 1;
}

int fetch_addr_public(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET)
		return fetch_v4_public(ntohl(((const struct sockaddr_in *)sa)->sin_addr.s_addr));
	if (sa->sa_family == AF_INET6)
		return fetch_v6_public(((const struct sockaddr_in6 *)sa)->sin6_addr.s6_addr);
	return 0;
}

void fetch_result_free(struct fetch_result *r)
{
	free(r->data);
	r->data = NULL;
	r->len = 0;
}

static int fetch_host_allowed(const struct conf *c, const char *host)
{
	size_t n = strlen(host);

	for (const char *p = c->fetch_allow_hosts; p && *p;) {
		size_t len = strcspn(p, ", ");

		if (len == n && strncasecmp(p, host, n) == 0)
			return 1;
		p += len;
		p += strspn(p, ", ");
	}
	return 0;
}

int fetch_url_trust(const struct conf *c, const char *url, int *trusted, char *err, size_t errlen)
{
	CURLU *u = curl_url();
	char *scheme = NULL, *host = NULL;
	int rc = -1;

	*trusted = 0;
	if (curl_url_set(u, CURLUPART_URL, url, CURLU_NON_SUPPORT_SCHEME) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK) {
		snprintf(err, errlen, "not a URL that can be fetched");
	} else if (strcasecmp(scheme, "http") != 0 && strcasecmp(scheme, "https") != 0) {
		snprintf(err, errlen, "only http and https URLs are fetched, not %s", scheme);
	} else {
		*trusted = c->fetch_allow_private || fetch_host_allowed(c, host);
		rc = 0;
	}
	curl_free(scheme);
	curl_free(host);
	curl_url_cleanup(u);
	return rc;
}

/* Checks one URL: scheme, host, every resolved address. On success pin
 * gets "host:port:address" for CURLOPT_RESOLVE. */
static int fetch_check(const struct conf *c, const char *url, char *pin, size_t pinlen,
		       char *err, size_t errlen)
{
	CURLU *u = curl_url();
	char *scheme = NULL, *host = NULL, *port = NULL, addr[INET6_ADDRSTRLEN] = "";
	struct addrinfo hints, *res = NULL;
	int rc = -1;

	memset(&hints, 0, sizeof hints);
	hints.ai_socktype = SOCK_STREAM;
	if (curl_url_set(u, CURLUPART_URL, url, CURLU_NON_SUPPORT_SCHEME) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK) {
		snprintf(err, errlen, "not a URL that can be fetched");
	} else if (strcasecmp(scheme, "http") != 0 && strcasecmp(scheme, "https") != 0) {
		snprintf(err, errlen, "only http and https URLs are fetched, not %s", scheme);
	} else if (curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK ||
		   curl_url_get(u, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT) != CURLUE_OK) {
		snprintf(err, errlen, "not a URL that can be fetched");
	} else {
		/* Brackets of an IPv6 literal are not part of the address. */
		char name[256];
		size_t n = strlen(host);

		snprintf(name, sizeof name, "%.*s", (int)(host[0] == '[' ? n - 2 : n),
			 host[0] == '[' ? host + 1 : host);
		if (getaddrinfo(name, port, &hints, &res) != 0 || res == NULL) {
			snprintf(err, errlen, "the host of the URL cannot be resolved");
		} else {
			rc = 0;
			for (struct addrinfo *ai = res; ai; ai = ai->ai_next) {
				if (!c->fetch_allow_private && !fetch_host_allowed(c, host) &&
				    !fetch_addr_public(ai->ai_addr)) {
					snprintf(err, errlen, "the URL points to an address that is not "
						 "public (refused: [fetch] allow_private = no)");
					rc = -1;
					break;
				}
			}
			if (rc == 0) {
				const void *a = res->ai_family == AF_INET
					? (const void *)&((struct sockaddr_in *)res->ai_addr)->sin_addr
					: (const void *)&((struct sockaddr_in6 *)res->ai_addr)->sin6_addr;

				unsigned char lit[sizeof(struct in6_addr)];

				/* A name is pinned to the address checked; a literal is that address. */
				inet_ntop(res->ai_family, a, addr, sizeof addr);
				if (inet_pton(AF_INET, name, lit) == 1 || inet_pton(AF_INET6, name, lit) == 1)
					pin[0] = '\0';
				else
					snprintf(pin, pinlen, res->ai_family == AF_INET6 ? "%s:%s:[%s]"
							      : "%s:%s:%s", host, port, addr);
			}
		}
	}
	if (res)
		freeaddrinfo(res);
	curl_free(scheme);
	curl_free(host);
	curl_free(port);
	curl_url_cleanup(u);
	return rc;
}

static size_t fetch_sink(char *p, size_t size, size_t n, void *ctx)
{
	return buf_add(ctx, p, size * n) < 0 ? 0 : size * n;
}

/* One hop. 0: an answer (maybe a redirect: *next set, malloc'd). */
static int fetch_hop(const struct conf *c, const char *url, const char *pin, struct buf *body,
		     long *status, char **ctype, char **next, char *err, size_t errlen)
{
	CURL *h = curlonce_init() == 0 ? curl_easy_init() : NULL;
	struct curl_slist *resolve = pin[0] ? curl_slist_append(NULL, pin) : NULL;
	char *ct = NULL, *loc = NULL;
	CURLcode rc;

	curl_easy_setopt(h, CURLOPT_URL, url);
	curl_easy_setopt(h, CURLOPT_RESOLVE, resolve);
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(h, CURLOPT_PROXY, "");
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, c->fetch_timeout_ms);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, c->fetch_timeout_ms);
	curl_easy_setopt(h, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)c->fetch_max_bytes);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, fetch_sink);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, body);
	curl_easy_setopt(h, CURLOPT_USERAGENT, PACKAGE_NAME "/" PACKAGE_VERSION);
	rc = curl_easy_perform(h);
	if (rc == CURLE_OK) {
		curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, status);
		curl_easy_getinfo(h, CURLINFO_CONTENT_TYPE, &ct);
		curl_easy_getinfo(h, CURLINFO_REDIRECT_URL, &loc);
		*ctype = ct ? xstrdup(ct) : NULL;
		*next = loc && *status >= 300 && *status < 400 ? xstrdup(loc) : NULL;
	} else if (rc == CURLE_WRITE_ERROR || rc == CURLE_FILESIZE_EXCEEDED) {
		snprintf(err, errlen, "the image is larger than %ld bytes", c->fetch_max_bytes);
	} else {
		snprintf(err, errlen, "fetching the image failed: %s", curl_easy_strerror(rc));
	}
	curl_slist_free_all(resolve);
	curl_easy_cleanup(h);
	return rc == CURLE_OK ? 0 : -1;
}

int fetch_image(const struct conf *c, const char *url, struct fetch_result *out)
{
	char *cur = xstrdup(url), pin[512];
	struct buf body;
	int rc = -1;

	memset(out, 0, sizeof *out);
	buf_init(&body, (size_t)c->fetch_max_bytes);
	for (long hop = 0; hop <= c->fetch_max_redirects; hop++) {
		char *ctype = NULL, *next = NULL;
		long status = 0;

		buf_reset(&body);
		if (fetch_check(c, cur, pin, sizeof pin, out->error, sizeof out->error) < 0 ||
		    fetch_hop(c, cur, pin, &body, &status, &ctype, &next, out->error,
			      sizeof out->error) < 0)
			break;
		if (next) {
			free(cur);
			cur = next;
			free(ctype);
			snprintf(out->error, sizeof out->error, "too many redirects (more than %ld)",
				 c->fetch_max_redirects);
			continue;
		}
		if (status != 200) {
			snprintf(out->error, sizeof out->error, "the image URL answered HTTP %ld", status);
		} else if (ctype == NULL || strncasecmp(ctype, "image/", 6) != 0) {
			snprintf(out->error, sizeof out->error, "the URL is not an image (%s)",
				 ctype ? ctype : "no content type");
		} else {
			snprintf(out->mime, sizeof out->mime, "%.*s", (int)strcspn(ctype, "; "), ctype);
			out->len = body.len;
			out->data = (unsigned char *)buf_steal(&body);
			out->error[0] = '\0';
			rc = 0;
		}
		free(ctype);
		break;
	}
	free(cur);
	buf_free(&body);
	return rc;
}
