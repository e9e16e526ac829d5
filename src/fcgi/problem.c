/* The one table of request errors (see problem.h); they are reported
 * through problem_send (problem_send.c). */
#include "config.h"
#include <string.h>
#include "fcgi/problem.h"

struct problem_def {
	int status;
	const char *code;
	const char *title;
	int retry_after;   /* seconds to wait before trying again (Retry-After, retry:), or 0 */
	/* What the client is told instead of the detail, for the server's own
	 * failures: their detail (a file, a library's error) goes to the log
	 * only. NULL: the detail is the client's to read. */
	const char *public_detail;
};

static const struct problem_def problem_table[PB_COUNT] = {
	[PB_OK] = { 200, "ok", "OK" },
	[PB_BAD_REQUEST] = { 400, "bad_request", "Bad request" },
	[PB_BAD_JSON] = { 400, "bad_json", "Malformed JSON" },
	[PB_JSON_TOO_DEEP] = { 400, "json_too_deep", "JSON nested too deeply" },
	[PB_BAD_LENGTH] = { 400, "bad_content_length", "Body does not match Content-Length" },
	[PB_UNSUPPORTED_MEDIA] = { 415, "unsupported_media_type", "Unsupported media type" },
	[PB_TOO_LARGE] = { 413, "body_too_large", "Request body too large" },
	[PB_IMAGE_TOO_LARGE] = { 413, "image_too_large", "Image too large" },
	[PB_NOT_FOUND] = { 404, "not_found", "Not found" },
	[PB_METHOD] = { 405, "method_not_allowed", "Method not allowed" },
	[PB_BAD_SIGNATURE] = { 403, "bad_thread_id", "Thread ID is not valid" },
	[PB_THREAD_NOT_FOUND] = { 404, "thread_not_found", "Unknown thread" },
	[PB_EXPIRED] = { 410, "thread_expired", "Thread expired" },
	[PB_BUSY] = { 409, "thread_busy", "Thread is busy" },
	[PB_NOT_PAUSED] = { 409, "not_paused", "Thread is not waiting for this decision" },
	[PB_NOT_RUNNING] = { 409, "not_running", "Thread has no run to stop" },
	[PB_ALREADY_CONFIRMED] = { 409, "already_confirmed", "Decision already given" },
	[PB_BAD_EVENT_ID] = { 400, "bad_event_id", "Last-Event-ID is not valid for this thread" },
	[PB_STORE_UNAVAILABLE] = { 503, "store_unavailable", "Store unavailable", 5,
		"the store is not available at the moment: try again shortly (the worker's log says why)" },
	[PB_OVERLOADED] = { 503, "overloaded", "Overloaded, try again", 2 },
	[PB_INTERNAL] = { 500, "internal", "Internal error", 0,
		"the request failed inside the server (the worker's log says why)" },
	[PB_UNKNOWN_WORKFLOW] = { 400, "unknown_workflow", "Unknown workflow" },
	[PB_BAD_LANG] = { 400, "bad_lang", "Unknown language" },
	[PB_BAD_FORMAT] = { 400, "bad_format", "Format not offered" },
	[PB_BAD_PARAM] = { 400, "bad_param", "Bad query parameter" },
	[PB_NOT_CONVERTIBLE] = { 415, "not_convertible", "This asset cannot be given in that format" },
	[PB_RENDER_FAILED] = { 422, "render_failed", "The picture could not be drawn" },
	[PB_STORE_TOO_NEW] = { 503, "store_too_new", "Store written by a newer version", 60,
		"the store was written by a newer version of AiVista than this worker: the workers "
		"must be upgraded (the worker's log says which version)" },
	[PB_REQUEST_TOO_LARGE] = { 413, "request_too_large",
				   "The request would store more than allowed" },
	[PB_PATCH_TOO_LARGE] = { 400, "patch_too_large", "The patch would create too much data" },
	[PB_MISDIRECTED] = { 421, "misdirected_request", "This site does not answer to that host" },
	[PB_FOREIGN_ORIGIN] = { 403, "foreign_origin", "Request from another site refused" },
};

int problem_status(enum problem p)
{
	return problem_table[p].status;
}

const char *problem_code(enum problem p)
{
	return problem_table[p].code;
}

const char *problem_title(enum problem p)
{
	return problem_table[p].title;
}

int problem_retry_after(enum problem p)
{
	return problem_table[p].retry_after;
}

const char *problem_public_detail(enum problem p)
{
	return problem_table[p].public_detail;
}

enum problem problem_by_code(const char *code, enum problem dflt)
{
	for (int p = 0; code && *code && p < PB_COUNT; p++)
		if (strcmp(problem_table[p].code, code) == 0)
			return (enum problem)p;
	return dflt;
}
