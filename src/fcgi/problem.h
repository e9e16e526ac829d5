/* The one table of request errors: each has a stable code, an HTTP status
 * and a title, and is reported through problem_send() only. */
#ifndef AV_PROBLEM_H
#define AV_PROBLEM_H

struct req;

enum problem {
	PB_OK = 0,
	PB_BAD_REQUEST,
	PB_BAD_JSON,
	PB_JSON_TOO_DEEP,
	PB_BAD_LENGTH,
	PB_UNSUPPORTED_MEDIA,
	PB_TOO_LARGE,
	PB_IMAGE_TOO_LARGE,
	PB_NOT_FOUND,
	PB_METHOD,
	PB_BAD_SIGNATURE,
	PB_THREAD_NOT_FOUND,
	PB_EXPIRED,
	PB_BUSY,
	PB_NOT_PAUSED,
	PB_NOT_RUNNING,
	PB_ALREADY_CONFIRMED,
	PB_BAD_EVENT_ID,
	PB_STORE_UNAVAILABLE,
	PB_OVERLOADED,
	PB_INTERNAL,
	PB_UNKNOWN_WORKFLOW,
	PB_BAD_LANG,
	PB_BAD_FORMAT,
	PB_BAD_PARAM,
	PB_NOT_CONVERTIBLE,
	PB_RENDER_FAILED,
	PB_STORE_TOO_NEW,
	PB_REQUEST_TOO_LARGE,   /* the request would add more than [store] max_request_bytes */
	PB_PATCH_TOO_LARGE,     /* a JSON Patch would create more than its byte budget */
	PB_MISDIRECTED,         /* Host not in [server] allowed_hosts */
	PB_FOREIGN_ORIGIN,      /* a state-changing request from another site */
	PB_COUNT
};

int problem_status(enum problem p);
const char *problem_code(enum problem p);
const char *problem_title(enum problem p);
/* Seconds a client waits before trying again (Retry-After, retry:), or 0. */
int problem_retry_after(enum problem p);
/* What the client is told instead of the detail for the server's own
 * failures (the detail goes to the log only), or NULL. */
const char *problem_public_detail(enum problem p);
/* The problem whose code is code, or dflt when there is none (NULL or ""
 * included). */
enum problem problem_by_code(const char *code, enum problem dflt);
/* problem_send.c: reports p once: as application/problem+json while no header has gone
 * out, as an SSE "error" event after. Returns p, so handlers can
 * "return problem_send(...)". */
enum problem problem_send(struct req *r, enum problem p, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
