/* The Host and Origin checks (see sitecheck.h). Both headers are parsed by
 * libcurl's URL parser, the one the request URI goes through, so that a
 * name is compared in the form curl (and so a browser) gives it. */
#include "config.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <curl/curl.h>
#include "fcgi/req.h"
#include "fcgi/sitecheck.h"

#define SITECHECK_NAME_MAX 256

/* A host as parsed: the name in lower case without a trailing dot (an
 * IPv6 address in brackets), and its port (-1: none given). */
struct sitecheck_host {
	char name[SITECHECK_NAME_MAX];
	long port;
};

/* Names only a browser on this machine sends: a page elsewhere cannot
 * make the browser put them in the Host header. */
static const char *const sitecheck_loopback[] = { "localhost", "127.0.0.1", "[::1]" };

/* What a host name, an address and a port are made of: a Host header
 * with anything else (user info, a path, spaces) names no host of ours. */
static const char sitecheck_host_chars[] =
	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._:[]";

static int sitecheck_set_name(struct sitecheck_host *h, const char *name)
{
	size_t n = strlen(name);

	if (n > 0 && name[n - 1] == '.')
		n--;
	if (n == 0 || n >= sizeof h->name)
		return -1;
	for (size_t i = 0; i < n; i++)
		h->name[i] = (char)tolower((unsigned char)name[i]);
	h->name[n] = '\0';
	return 0;
}

/* The port of u as flags ask for it, or -1. */
static long sitecheck_port(CURLU *u, unsigned int flags)
{
	char *p = NULL;
	long port = -1;

	if (curl_url_get(u, CURLUPART_PORT, &p, flags) == CURLUE_OK)
		port = strtol(p, NULL, 10);
	curl_free(p);
	return port;
}

/* host[:port]: a Host header, SERVER_NAME or an allowed_hosts entry (an
 * IPv6 address with or without its brackets). 0, or -1 when it is none. */
static int sitecheck_parse_host(const char *s, struct sitecheck_host *h)
{
	char url[SITECHECK_NAME_MAX + 16], *name = NULL;
	size_t n = s ? strlen(s) : 0;
	CURLU *u;
	int rc = -1;

	if (n == 0 || n >= SITECHECK_NAME_MAX || strspn(s, sitecheck_host_chars) != n)
		return -1;
	/* Two colons and no bracket: an IPv6 address on its own. */
	snprintf(url, sizeof url, s[0] != '[' && strchr(s, ':') != strrchr(s, ':') ? "http://[%s]/"
										: "http://%s/", s);
	u = curl_url();
	if (curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_HOST, &name, 0) == CURLUE_OK && sitecheck_set_name(h, name) == 0) {
		h->port = sitecheck_port(u, 0);
		rc = 0;
	}
	curl_free(name);
	curl_url_cleanup(u);
	return rc;
}

/* True when part of u is there (a user name, a query...). */
static int sitecheck_has(CURLU *u, CURLUPart part)
{
	char *v = NULL;
	int has = curl_url_get(u, part, &v, 0) == CURLUE_OK;

	curl_free(v);
	return has;
}

/* An Origin header: http or https, a host and maybe a port, nothing else
 * ("null" and other schemes are no origin of ours). *port: the port it
 * stands for (its scheme's when none is written); *written: the port
 * written when it is not the scheme's own, else -1. */
static int sitecheck_parse_origin(const char *s, struct sitecheck_host *h, long *port, long *written)
{
	CURLU *u = curl_url();
	char *scheme = NULL, *name = NULL, *path = NULL;
	int rc = -1;

	if (curl_url_set(u, CURLUPART_URL, s, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) == CURLUE_OK &&
	    (strcmp(scheme, "http") == 0 || strcmp(scheme, "https") == 0) &&
	    curl_url_get(u, CURLUPART_HOST, &name, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_PATH, &path, 0) == CURLUE_OK && strcmp(path, "/") == 0 &&
	    !sitecheck_has(u, CURLUPART_USER) && !sitecheck_has(u, CURLUPART_QUERY) &&
	    !sitecheck_has(u, CURLUPART_FRAGMENT) && sitecheck_set_name(h, name) == 0) {
		*port = sitecheck_port(u, CURLU_DEFAULT_PORT);
		*written = sitecheck_port(u, CURLU_NO_DEFAULT_PORT);
		h->port = *port;
		rc = 0;
	}
	curl_free(scheme);
	curl_free(name);
	curl_free(path);
	curl_url_cleanup(u);
	return rc;
}

/* Calls fn on each entry of a comma-separated list, spaces around it
 * dropped; stops at the first that returns true, and returns that. */
static int sitecheck_each(const char *list, int (*fn)(const char *entry, const void *arg),
			  const void *arg)
{
	const char *p = list;

	while (p && *p) {
		size_t len = strcspn(p, ","), skip = strspn(p, " \t");
		char entry[SITECHECK_NAME_MAX];

		if (skip < len) {
			size_t n = len - skip;

			while (n > 0 && (p[skip + n - 1] == ' ' || p[skip + n - 1] == '\t'))
				n--;
			if (n < sizeof entry) {
				memcpy(entry, p + skip, n);
				entry[n] = '\0';
				if (fn(entry, arg))
					return 1;
			}
		}
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

static int sitecheck_is_star(const char *entry, const void *arg)
{
	(void)arg;
	return strcmp(entry, "*") == 0;
}

static int sitecheck_names(const char *entry, const void *arg)
{
	const struct sitecheck_host *h = arg;
	struct sitecheck_host e;

	return sitecheck_parse_host(entry, &e) == 0 && strcmp(e.name, h->name) == 0;
}

static int sitecheck_has_entries(const char *list)
{
	return list && list[strspn(list, " \t,")] != '\0';
}

static int sitecheck_same_name(const struct sitecheck_host *h, const char *other)
{
	struct sitecheck_host o;

	return other && sitecheck_parse_host(other, &o) == 0 && strcmp(o.name, h->name) == 0;
}

int sitecheck_host_ok(const char *host, const char *server_name, const char *allowed)
{
	struct sitecheck_host h;

	if (sitecheck_each(allowed, sitecheck_is_star, NULL) || host == NULL || *host == '\0')
		return 1;
	if (sitecheck_parse_host(host, &h) < 0)
		return 0;
	for (size_t i = 0; i < sizeof sitecheck_loopback / sizeof sitecheck_loopback[0]; i++)
		if (strcmp(h.name, sitecheck_loopback[i]) == 0)
			return 1;
	if (sitecheck_has_entries(allowed))
		return sitecheck_each(allowed, sitecheck_names, &h);
	return sitecheck_same_name(&h, server_name);
}

int sitecheck_origin_ok(const char *origin, const char *host, const char *server_name,
			const char *allowed)
{
	struct sitecheck_host o, self;
	long port, written;

	if (origin == NULL)
		return 1;
	if (sitecheck_parse_origin(origin, &o, &port, &written) < 0)
		return 0;
	if (sitecheck_each(allowed, sitecheck_names, &o))
		return 1;
	if (host == NULL || *host == '\0')
		return sitecheck_same_name(&o, server_name);
	if (sitecheck_parse_host(host, &self) < 0 || strcmp(o.name, self.name) != 0)
		return 0;
	/* Host without a port: the origin's port must be its scheme's own
	 * (a proxy in front may have ended TLS, so the scheme is not compared). */
	return self.port >= 0 ? port == self.port : written < 0;
}

static int sitecheck_changes_state(const char *method)
{
	return strcmp(method, "POST") == 0 || strcmp(method, "PUT") == 0 ||
	       strcmp(method, "PATCH") == 0 || strcmp(method, "DELETE") == 0;
}

enum problem sitecheck_request(const struct req *r, char *detail, size_t n)
{
	const char *host = req_param(r, "HTTP_HOST"), *sn = req_param(r, "SERVER_NAME");
	const char *origin = req_param(r, "HTTP_ORIGIN"), *allowed = r->conf->allowed_hosts;

	if (!sitecheck_host_ok(host, sn, allowed)) {
		snprintf(detail, n, "this site does not answer to the host %.100s ([server] allowed_hosts "
			 "lists the names it answers to)", host);
		return PB_MISDIRECTED;
	}
	if (sitecheck_changes_state(r->method) && !sitecheck_origin_ok(origin, host, sn, allowed)) {
		snprintf(detail, n, "a %s from the page of another site (Origin %.100s) is refused",
			 r->method, origin);
		return PB_FOREIGN_ORIGIN;
	}
	return PB_OK;
}
