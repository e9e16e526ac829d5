/* The providers' HTTP engine on curl multi (see http.h). One loop drives
 * every transfer of a set: it starts the exchanges that are due, lets
 * curl move the bytes, hands finished exchanges to the vendor callbacks
 * or retries them, and calls the tick hook at least every 200 ms so a
 * stream open meanwhile keeps its keep-alives. Exchanges waiting (a
 * backoff, a poll interval) cost nothing: they are only a start time. */
#include "config.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <curl/curl.h>
#include <sodium.h>
#include "json/dump.h"
#include "media/fetch.h"
#include "prov/http.h"
#include "util/clock.h"
#include "util/curlonce.h"
#include "util/log.h"
#include "util/scrub.h"
#include "util/xmalloc.h"
#include "media/imgin.h"

#define HTTP_TICK_MS 200
#define HTTP_BACKOFF_MS 250          /* first retry wait, doubled for each next one */
#define HTTP_BACKOFF_MAX_MS 8000
#define HTTP_RETRY_AFTER_MAX_S 30    /* a longer Retry-After is waited this long */
#define HTTP_MAX_REDIRECTS 3         /* downloads only */

enum http_state { HTTP_X_IDLE, HTTP_X_WAIT, HTTP_X_RUN, HTTP_X_DONE };

struct http_xfer {
	struct http *h;
	struct http_xfer *next;
	const struct conf_provider *cf;
	const struct http_cb *cb;
	void *ctx;
	struct prov_answer *answer;
	CURL *easy;
	struct curl_slist *headers;
	long timeout_ms;
	long long deadline;
	enum http_state state;
	/* the exchange */
	char *method, *url, *body;
	struct http_part *parts;   /* a multipart form instead of body (copies) */
	size_t nparts;
	curl_mime *mime;
	int flags;
	long long start_at;
	int attempt;            /* retries made so far */
	int resent;             /* the reply callback set a next exchange */
	/* its reply */
	struct http_reply reply;
	size_t got;
	int stream_mode;        /* -1: not decided yet; 0: buffer; 1: to cb->stream */
	int streamed;           /* bytes went to cb->stream: no retry */
	int too_large;
	int stopped;            /* cb->stream asked to stop */
	int hops;               /* downloads: redirects followed so far */
	int trusted;            /* downloads: the link's host may be any address ([fetch]) */
	int blocked;            /* downloads: a connection to a non-public address was refused */
	char errbuf[CURL_ERROR_SIZE];
};

struct http {
	const struct conf *c;
	CURLM *multi;
	const struct prov_hooks *hooks;
	struct http_xfer *xfers;
};

struct http *http_new(const struct conf *c, const struct prov_hooks *hooks)
{
	struct http *h = xcalloc(1, sizeof *h);

	h->c = c;
	h->multi = curlonce_init() == 0 ? curl_multi_init() : NULL;
	if (h->multi == NULL) {
		/* curl out of memory: the same as ours */
		log_error("curl_multi_init failed");
		abort();
	}
	h->hooks = hooks;
	return h;
}

/* The header list holds the key: wiped before it goes back to the heap. */
static void http_headers_free(struct curl_slist *l)
{
	for (struct curl_slist *p = l; p; p = p->next)
		sodium_memzero(p->data, strlen(p->data));
	curl_slist_free_all(l);
}

static void http_parts_free(struct http_xfer *x);

static void http_xfer_free(struct http_xfer *x)
{
	if (x->state == HTTP_X_RUN)
		curl_multi_remove_handle(x->h->multi, x->easy);
	curl_easy_cleanup(x->easy);
	http_parts_free(x);
	http_headers_free(x->headers);
	free(x->method);
	free(x->url);
	free(x->body);
	buf_free(&x->reply.body);
	free(x);
}

void http_free(struct http *h)
{
	if (h == NULL)
		return;
	while (h->xfers) {
		struct http_xfer *x = h->xfers;

		h->xfers = x->next;
		http_xfer_free(x);
	}
	curl_multi_cleanup(h->multi);
	free(h);
}

struct http_xfer *http_add(struct http *h, const struct conf_provider *cf, long timeout_ms,
			   const struct http_cb *cb, void *ctx, struct prov_answer *answer)
{
	struct http_xfer *x = xcalloc(1, sizeof *x);

	x->easy = curl_easy_init();
	if (x->easy == NULL) {
		log_error("curl_easy_init failed");
		abort();
	}
	x->h = h;
	x->cf = cf;
	x->cb = cb;
	x->ctx = ctx;
	x->answer = answer;
	x->timeout_ms = timeout_ms > 0 ? timeout_ms : cf->timeout_ms;
	x->deadline = clock_mono_ms() + x->timeout_ms;
	x->state = HTTP_X_IDLE;
	buf_init(&x->reply.body, (size_t)cf->max_response_bytes);
	x->next = h->xfers;
	h->xfers = x;
	return x;
}

static void http_parts_free(struct http_xfer *x)
{
	for (size_t i = 0; i < x->nparts; i++) {
		free((char *)x->parts[i].name);
		free((void *)x->parts[i].data);
		free((char *)x->parts[i].filename);
		free((char *)x->parts[i].type);
	}
	free(x->parts);
	x->parts = NULL;
	x->nparts = 0;
	if (x->mime)
		curl_mime_free(x->mime);
	x->mime = NULL;
}

void http_xfer_send_form(struct http_xfer *x, const char *url, const struct http_part *parts,
			 size_t n, int flags)
{
	http_xfer_send(x, "POST", url, NULL, flags, 0);
	x->parts = xcalloc(n ? n : 1, sizeof *x->parts);
	for (size_t i = 0; i < n; i++) {
		void *d = xmalloc(parts[i].len ? parts[i].len : 1);

		memcpy(d, parts[i].data, parts[i].len);
		x->parts[i].name = xstrdup(parts[i].name);
		x->parts[i].data = d;
		x->parts[i].len = parts[i].len;
		x->parts[i].filename = parts[i].filename ? xstrdup(parts[i].filename) : NULL;
		x->parts[i].type = parts[i].type ? xstrdup(parts[i].type) : NULL;
	}
	x->nparts = n;
}

/* The form of the exchange, built afresh for each attempt. */
static void http_set_form(struct http_xfer *x)
{
	if (x->mime)
		curl_mime_free(x->mime);
	x->mime = curl_mime_init(x->easy);
	for (size_t i = 0; i < x->nparts; i++) {
		curl_mimepart *part = curl_mime_addpart(x->mime);

		curl_mime_name(part, x->parts[i].name);
		curl_mime_data(part, x->parts[i].data, x->parts[i].len);
		if (x->parts[i].filename)
			curl_mime_filename(part, x->parts[i].filename);
		if (x->parts[i].type)
			curl_mime_type(part, x->parts[i].type);
	}
	curl_easy_setopt(x->easy, CURLOPT_MIMEPOST, x->mime);
}

void http_xfer_send(struct http_xfer *x, const char *method, const char *url, const json_t *body,
		    int flags, long delay_ms)
{
	http_parts_free(x);
	free(x->method);
	free(x->url);
	free(x->body);
	x->method = xstrdup(method);
	x->url = xstrdup(url);
	x->body = body ? jtext(body, JSON_COMPACT) : NULL;   /* new string */
	x->flags = flags;
	x->attempt = 0;
	x->hops = 0;
	x->start_at = clock_mono_ms() + (delay_ms > 0 ? delay_ms : 0);
	x->state = HTTP_X_WAIT;
	x->resent = 1;
}

long http_xfer_left_ms(const struct http_xfer *x)
{
	long long left = x->deadline - clock_mono_ms();

	return left > 0 ? (long)left : 0;
}

/* Takes every trace of the key out of a message, in case a provider or a
 * library repeats it. */
static void http_scrub(const struct http_xfer *x, char *msg)
{
	scrub_secret(msg, x->cf->api_key);
}

/* Ends x: its answer is final. */
static void http_xfer_end(struct http_xfer *x)
{
	x->state = HTTP_X_DONE;
	http_scrub(x, x->answer->detail);
	if (x->cb->done)
		x->cb->done(x, x->ctx);
}

static void http_xfer_timeout(struct http_xfer *x)
{
	prov_fail(x->answer, PROV_TIMEOUT, "no complete answer within %ld ms", x->timeout_ms);
	http_xfer_end(x);
}

/* -- one exchange ------------------------------------------------------------ */

/* Whether a reply now arriving goes to cb->stream: a 2xx event stream. A
 * server that answers a streamed request with plain JSON is read whole. */
static int http_stream_mode(struct http_xfer *x)
{
	long status = 0;
	char *ct = NULL;

	if (x->stream_mode >= 0)
		return x->stream_mode;
	curl_easy_getinfo(x->easy, CURLINFO_RESPONSE_CODE, &status);
	curl_easy_getinfo(x->easy, CURLINFO_CONTENT_TYPE, &ct);
	x->stream_mode = status >= 200 && status < 300 && ct &&
			 strncasecmp(ct, "text/event-stream", 17) == 0;
	return x->stream_mode;
}

static size_t http_write(char *p, size_t size, size_t nmemb, void *ud)
{
	struct http_xfer *x = ud;
	size_t n = size * nmemb;

	if (n > (size_t)x->cf->max_response_bytes - x->got) {
		x->too_large = 1;
		return 0;
	}
	x->got += n;
	if ((x->flags & HTTP_STREAM) && x->cb->stream && http_stream_mode(x)) {
		x->streamed = 1;
		if (x->cb->stream(x, p, n, x->ctx) < 0) {
			x->stopped = 1;
			return 0;
		}
		return n;
	}
	if (buf_add(&x->reply.body, p, n) < 0) {
		x->too_large = 1;
		return 0;
	}
	return n;
}

static void http_add_header(struct http_xfer *x, const char *line)
{
	struct curl_slist *l = curl_slist_append(x->headers, line);

	if (l == NULL) {
		log_error("curl_slist_append failed");
		abort();
	}
	x->headers = l;
}

static void http_set_headers(struct http_xfer *x)
{
	http_headers_free(x->headers);
	x->headers = NULL;
	http_add_header(x, (x->flags & HTTP_STREAM) ? "Accept: text/event-stream" :
			   (x->flags & HTTP_DOWNLOAD) ? "Accept: image/*" : "Accept: application/json");
	if (x->body) {
		http_add_header(x, "Content-Type: application/json");
		http_add_header(x, "Expect:");    /* no 100-continue round trip */
	} else if (x->nparts) {
		http_add_header(x, "Expect:");
	}
	if ((x->flags & HTTP_AUTH) && !(x->flags & HTTP_DOWNLOAD) && x->cf->api_key &&
	    x->cf->api_key[0]) {
		char *line = xasprintf("Authorization: Bearer %s", x->cf->api_key);

		http_add_header(x, line);
		sodium_memzero(line, strlen(line));
		free(line);
	}
}

/* Every address a download connects to passes the [fetch] rules, unless
 * its host is trusted there: checked here, on the address itself, so a
 * name that resolves differently later cannot slip by. */
static curl_socket_t http_opensocket(void *ctx, curlsocktype purpose, struct curl_sockaddr *a)
{
	struct http_xfer *x = ctx;

	if (!x->trusted && !fetch_addr_public(&a->addr)) {
		x->blocked = 1;
		return CURL_SOCKET_BAD;
	}
	return socket(a->family, a->socktype, a->protocol);
}

/* A download: redirects are followed by hand (each hop checked anew), no
 * proxy (the address checks are about a direct connection), and a fresh
 * connection, never one left open to the provider's own API. */
static void http_set_download(struct http_xfer *x)
{
	CURL *e = x->easy;

	curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(e, CURLOPT_PROXY, "");
	curl_easy_setopt(e, CURLOPT_FRESH_CONNECT, 1L);
	curl_easy_setopt(e, CURLOPT_FORBID_REUSE, 1L);
	curl_easy_setopt(e, CURLOPT_OPENSOCKETFUNCTION, http_opensocket);
	curl_easy_setopt(e, CURLOPT_OPENSOCKETDATA, x);
}

static void http_set_limits(struct http_xfer *x, long left)
{
	CURL *e = x->easy;
	long connect = x->cf->connect_timeout_ms;

	curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, left);
	curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, connect > 0 && connect < left ? connect : left);
	curl_easy_setopt(e, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)x->cf->max_response_bytes);
#if LIBCURL_VERSION_NUM >= 0x075500
	curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(e, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
#else
	curl_easy_setopt(e, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
	curl_easy_setopt(e, CURLOPT_REDIR_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
	if (x->flags & HTTP_DOWNLOAD)
		http_set_download(x);
}

/* A link from a provider's answer (or a redirect's): http(s), and whether
 * [fetch] trusts its host. 0, or -1 with the transfer ended. */
static int http_download_check(struct http_xfer *x)
{
	char why[200];

	if (fetch_url_trust(x->h->c, x->url, &x->trusted, why, sizeof why) == 0)
		return 0;
	prov_fail(x->answer, PROV_BAD_ANSWER, "the image link is refused: %s", why);
	http_xfer_end(x);
	return -1;
}

/* Sets up the easy handle for the exchange (TLS verification, proxies
 * from the environment: curl's defaults, kept) and hands it to curl. */
static void http_xfer_start(struct http_xfer *x)
{
	CURL *e = x->easy;
	long left = http_xfer_left_ms(x);

	if (left <= 0) {
		http_xfer_timeout(x);
		return;
	}
	if ((x->flags & HTTP_DOWNLOAD) && http_download_check(x) < 0)
		return;
	buf_reset(&x->reply.body);
	x->reply.status = 0;
	x->reply.ctype[0] = '\0';
	x->got = 0;
	x->stream_mode = -1;
	x->streamed = x->too_large = x->stopped = x->blocked = 0;
	x->errbuf[0] = '\0';
	http_set_headers(x);
	curl_easy_reset(e);
	curl_easy_setopt(e, CURLOPT_URL, x->url);
	curl_easy_setopt(e, CURLOPT_PRIVATE, x);
	curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(e, CURLOPT_ERRORBUFFER, x->errbuf);
	curl_easy_setopt(e, CURLOPT_USERAGENT, PACKAGE_NAME "/" PACKAGE_VERSION);
	curl_easy_setopt(e, CURLOPT_HTTPHEADER, x->headers);
	curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, http_write);
	curl_easy_setopt(e, CURLOPT_WRITEDATA, x);
	http_set_limits(x, left);
	if (x->nparts) {
		http_set_form(x);
	} else if (strcmp(x->method, "POST") == 0) {
		curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE,
				 (curl_off_t)(x->body ? strlen(x->body) : 0));
		curl_easy_setopt(e, CURLOPT_POSTFIELDS, x->body ? x->body : "");
	} else if (strcmp(x->method, "GET") != 0) {
		curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, x->method);
	}
	if (curl_multi_add_handle(x->h->multi, e) != CURLM_OK) {
		prov_fail(x->answer, PROV_UNAVAILABLE, "cannot start a request");
		http_xfer_end(x);
		return;
	}
	x->state = HTTP_X_RUN;
}

/* -- ending an exchange ------------------------------------------------------------ */

/* A readable reason from an error body: OpenAI's error.message,
 * DashScope's message, or nothing. */
static void http_reason(const struct http_reply *r, char *out, size_t size)
{
	json_t *j = json_loadb(r->body.data ? r->body.data : "", r->body.len, 0, NULL); /* new */
	json_t *err = json_object_get(j, "error");     /* borrowed */
	const char *msg = json_string_value(json_object_get(err, "message"));

	if (msg == NULL)
		msg = json_string_value(err);
	if (msg == NULL)
		msg = json_string_value(json_object_get(j, "message"));
	snprintf(out, size, "%s%.160s", msg ? ": " : "", msg ? msg : "");
	for (char *p = out; *p; p++)
		if ((unsigned char)*p < 0x20)
			*p = ' ';
	json_decref(j);
}

static int http_retryable(long status, CURLcode rc)
{
	if (rc == CURLE_OK)
		return status == 429 || status >= 500;
	switch (rc) {
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_RESOLVE_PROXY:
	case CURLE_COULDNT_CONNECT:
	case CURLE_OPERATION_TIMEDOUT:  /* the connection limit: the deadline is checked first */
	case CURLE_SEND_ERROR:
	case CURLE_RECV_ERROR:
	case CURLE_GOT_NOTHING:
	case CURLE_PARTIAL_FILE:
	case CURLE_SSL_CONNECT_ERROR:
	case CURLE_HTTP2:
	case CURLE_HTTP2_STREAM:
		return 1;
	default:
		return 0;
	}
}

/* How long to wait before the next attempt: Retry-After when the server
 * says (capped), else exponential backoff with jitter. */
static long http_backoff_ms(struct http_xfer *x)
{
	long base = HTTP_BACKOFF_MS;

#if LIBCURL_VERSION_NUM >= 0x074200
	curl_off_t after = 0;

	if (curl_easy_getinfo(x->easy, CURLINFO_RETRY_AFTER, &after) == CURLE_OK && after > 0)
		return (long)(after < HTTP_RETRY_AFTER_MAX_S ? after : HTTP_RETRY_AFTER_MAX_S) * 1000;
#endif
	for (int i = 0; i < x->attempt && base < HTTP_BACKOFF_MAX_MS; i++)
		base *= 2;
	if (base > HTTP_BACKOFF_MAX_MS)
		base = HTTP_BACKOFF_MAX_MS;
	return base / 2 + (long)randombytes_uniform((uint32_t)(base / 2 + 1));
}

/* Tries the exchange again if retries are left and the wait ends before
 * the deadline. 1 when it will, else 0. */
static int http_retry(struct http_xfer *x, const char *why)
{
	long wait;

	if (x->streamed || x->attempt >= x->cf->retries)
		return 0;
	wait = http_backoff_ms(x);
	if (wait >= http_xfer_left_ms(x))
		return 0;
	x->attempt++;
	log_info("provider request: %s; retry %d of %ld in %ld ms", why, x->attempt,
		 x->cf->retries, wait);
	x->start_at = clock_mono_ms() + wait;
	x->state = HTTP_X_WAIT;
	return 1;
}

static void http_transport_failed(struct http_xfer *x, CURLcode rc)
{
	const char *what = x->errbuf[0] ? x->errbuf : curl_easy_strerror(rc);
	char msg[200];

	/* curl's whole-exchange limit is the deadline; a timeout well before
	 * it was the connection limit, a connection error like any other. */
	if (rc == CURLE_OPERATION_TIMEDOUT && http_xfer_left_ms(x) <= 50) {
		http_xfer_timeout(x);
		return;
	}
	snprintf(msg, sizeof msg, "%.180s", what);
	http_scrub(x, msg);
	if (http_retryable(0, rc) && http_retry(x, msg))
		return;
	prov_fail(x->answer, PROV_UNAVAILABLE, "cannot reach the provider: %s%s", msg,
		  x->attempt ? " (after retries)" : "");
	http_xfer_end(x);
}

static void http_status_failed(struct http_xfer *x, long status)
{
	char reason[200], why[64];
	enum prov_status st;

	snprintf(why, sizeof why, "HTTP %ld", status);
	if (http_retryable(status, CURLE_OK) && http_retry(x, why))
		return;
	http_reason(&x->reply, reason, sizeof reason);
	if (status == 429)
		st = PROV_RATE_LIMITED;
	else if (status >= 500)
		st = PROV_UNAVAILABLE;
	else if (status >= 400)
		st = PROV_REFUSED;
	else
		st = PROV_BAD_ANSWER;   /* 1xx, 3xx: nothing to read */
	prov_fail(x->answer, st, "the provider answered HTTP %ld%s%s", status, reason,
		  x->attempt ? " (after retries)" : "");
	http_xfer_end(x);
}

/* A download's redirect: the next hop is a new exchange, checked again
 * when it starts. */
static void http_redirect(struct http_xfer *x)
{
	char *loc = NULL;

	curl_easy_getinfo(x->easy, CURLINFO_REDIRECT_URL, &loc);
	if (loc == NULL || x->hops >= HTTP_MAX_REDIRECTS) {
		if (loc)
			prov_fail(x->answer, PROV_BAD_ANSWER, "the image link redirects more than %d times",
				  HTTP_MAX_REDIRECTS);
		else
			prov_fail(x->answer, PROV_BAD_ANSWER, "the image link answered HTTP %ld without "
				  "a Location", x->reply.status);
		http_xfer_end(x);
		return;
	}
	free(x->url);
	x->url = xstrdup(loc);
	x->hops++;
	x->attempt = 0;
	x->start_at = clock_mono_ms();
	x->state = HTTP_X_WAIT;
}

static void http_xfer_finished(struct http_xfer *x, CURLcode rc)
{
	char *ct = NULL;

	curl_multi_remove_handle(x->h->multi, x->easy);
	x->state = HTTP_X_IDLE;
	curl_easy_getinfo(x->easy, CURLINFO_RESPONSE_CODE, &x->reply.status);
	curl_easy_getinfo(x->easy, CURLINFO_CONTENT_TYPE, &ct);
	snprintf(x->reply.ctype, sizeof x->reply.ctype, "%s", ct ? ct : "");
	if (x->reply.status > 0)
		x->answer->http_status = (int)x->reply.status;
	if (x->stopped) {
		http_xfer_end(x);
	} else if (x->too_large || rc == CURLE_FILESIZE_EXCEEDED) {
		prov_fail(x->answer, PROV_TOO_LARGE, "the answer passed the cap of %ld bytes",
			  x->cf->max_response_bytes);
		http_xfer_end(x);
	} else if (x->blocked && rc != CURLE_OK) {
		prov_fail(x->answer, PROV_BAD_ANSWER, "the image link leads to an address that is not "
			  "public (refused: [fetch] allow_private = no)");
		http_xfer_end(x);
	} else if (rc != CURLE_OK) {
		http_transport_failed(x, rc);
	} else if ((x->flags & HTTP_DOWNLOAD) && x->reply.status >= 300 && x->reply.status < 400) {
		http_redirect(x);
	} else if (x->reply.status < 200 || x->reply.status > 299) {
		http_status_failed(x, x->reply.status);
	} else {
		x->resent = 0;
		x->cb->reply(x, &x->reply, x->ctx);
		if (!x->resent)
			http_xfer_end(x);
	}
}

/* -- the loop ------------------------------------------------------------------------ */

/* Starts the exchanges that are due. Returns the time until the next
 * waiting one is (at most HTTP_TICK_MS), and in *pending whether any
 * transfer is still unfinished. */
static long http_start_due(struct http *h, int *pending)
{
	long long now = clock_mono_ms();
	long wait = HTTP_TICK_MS;

	*pending = 0;
	for (struct http_xfer *x = h->xfers; x; x = x->next) {
		if (x->state == HTTP_X_WAIT && x->start_at >= x->deadline)
			http_xfer_timeout(x);   /* its next exchange would start too late */
		if (x->state == HTTP_X_WAIT && x->start_at <= now)
			http_xfer_start(x);
		if (x->state == HTTP_X_WAIT && x->start_at - now < wait)
			wait = (long)(x->start_at - now);
		if (x->state == HTTP_X_WAIT || x->state == HTTP_X_RUN)
			*pending = 1;
	}
	return wait;
}

static void http_collect(struct http *h)
{
	CURLMsg *m;
	int left;

	while ((m = curl_multi_info_read(h->multi, &left)) != NULL) {
		char *priv = NULL;

		if (m->msg != CURLMSG_DONE)
			continue;
		curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, &priv);
		if (priv)
			http_xfer_finished((struct http_xfer *)(void *)priv, m->data.result);
	}
}

/* The stop hook asked to end the calls: each unfinished one ends now. */
static void http_stop_all(struct http *h)
{
	for (struct http_xfer *x = h->xfers; x; x = x->next) {
		if (x->state != HTTP_X_WAIT && x->state != HTTP_X_RUN)
			continue;
		if (x->state == HTTP_X_RUN)
			curl_multi_remove_handle(h->multi, x->easy);
		prov_fail(x->answer, PROV_STOPPED, "stopped by the caller");
		http_xfer_end(x);
	}
}

void http_run(struct http *h)
{
	int pending, running;
	long wait;

	/* A transfer never sent has nothing to do. */
	for (struct http_xfer *x = h->xfers; x; x = x->next)
		if (x->state == HTTP_X_IDLE)
			x->state = HTTP_X_DONE;
	for (;;) {
		wait = http_start_due(h, &pending);
		if (!pending)
			break;
		curl_multi_perform(h->multi, &running);
		http_collect(h);
		wait = http_start_due(h, &pending);
		if (!pending)
			break;
		/* Before the wait: the caller flushes what it has written. */
		if (h->hooks && h->hooks->tick)
			h->hooks->tick(h->hooks->ctx);
		curl_multi_poll(h->multi, NULL, 0, wait > 0 ? (int)wait : 0, NULL);
		if (h->hooks && h->hooks->stop && h->hooks->stop(h->hooks->ctx)) {
			http_stop_all(h);
			break;
		}
	}
}

/* -- helpers for the vendors ---------------------------------------------------------- */

char *http_url(const char *base, const char *path)
{
	size_t n = strlen(base);

	while (n > 0 && base[n - 1] == '/')
		n--;
	while (*path == '/')
		path++;
	return xasprintf("%.*s/%s", (int)n, base, path);
}

const char *http_image_sniff(const void *p, size_t n)
{
	const char *mime = imgin_sniff(p, n);

	/* A provider's picture is a raster; SVG is not taken from one. */
	return mime && strcmp(mime, "image/svg+xml") != 0 ? mime : NULL;
}

/* The media type of a Content-Type value, lower case, without parameters;
 * "" when it holds anything unexpected. */
static void http_media_type(const char *ct, char *out, size_t size)
{
	size_t i = 0;

	while (*ct == ' ')
		ct++;
	for (; ct[i] && ct[i] != ';' && ct[i] != ' ' && i + 1 < size; i++) {
		unsigned char c = (unsigned char)tolower((unsigned char)ct[i]);

		if (!isalnum(c) && !strchr("/.+-_", c)) {
			out[0] = '\0';
			return;
		}
		out[i] = (char)c;
	}
	out[i] = '\0';
}

int http_take_image(struct http_reply *r, struct prov_answer *a)
{
	const char *sniffed = http_image_sniff(r->body.data, r->body.len);
	char type[64];

	http_media_type(r->ctype, type, sizeof type);
	if (r->body.len == 0)
		return prov_fail(a, PROV_BAD_ANSWER, "the image link gave no bytes");
	if (strncmp(type, "image/", 6) != 0) {
		if (sniffed == NULL || (type[0] && strcmp(type, "application/octet-stream") != 0 &&
					strcmp(type, "binary/octet-stream") != 0))
			return prov_fail(a, PROV_BAD_ANSWER, "the image link gave %.60s, not an image",
					 type[0] ? type : "an unknown type");
		snprintf(type, sizeof type, "%s", sniffed);
	}
	free(a->data);
	a->len = r->body.len;
	a->data = (unsigned char *)buf_steal(&r->body);
	snprintf(a->mime, sizeof a->mime, "%s", type);
	return 0;
}
