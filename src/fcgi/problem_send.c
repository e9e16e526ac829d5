/* Reporting a request error to the client, once (see problem.h): as
 * application/problem+json before the headers, as an SSE "error" event
 * after. Above the table (problem.c), the request (req.c) and the event
 * stream (sse.c), which it writes through. */
#include "config.h"
#include <stdarg.h>
#include <stdio.h>
#include <jansson.h>
#include "fcgi/problem.h"
#include "fcgi/req.h"
#include "fcgi/sse.h"
#include "util/log.h"

enum problem problem_send(struct req *r, enum problem p, const char *fmt, ...)
{
	char detail[512], extra[80];
	va_list ap;
	json_t *j;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof detail, fmt, ap);
	va_end(ap);
	if (problem_public_detail(p)) {
		log_warn("%s %s -> %d %s: %s", r->method, r->path, problem_status(p), problem_code(p),
			 detail);
		snprintf(detail, sizeof detail, "%s", problem_public_detail(p));
	} else {
		log_info("%s %s -> %d %s: %s", r->method, r->path, problem_status(p),
			 problem_code(p), detail);
	}
	if (r->sse) {
		if (problem_retry_after(p))
			sse_retry(r->sse, problem_retry_after(p) * 1000);
		j = json_pack("{s:s, s:s, s:s, s:n}", "type", "error", "code", problem_code(p),
			      "message", detail, "node");
		sse_event(r->sse, 0, j);
		json_decref(j);
		return p;
	}
	j = json_pack("{s:s, s:s, s:i, s:s, s:s}", "type", "about:blank", "title", problem_title(p),
		      "status", problem_status(p), "detail", detail, "code", problem_code(p));
	snprintf(extra, sizeof extra, "Cache-Control: no-store\r\nRetry-After: %d\r\n",
		 problem_retry_after(p));
	req_send_json_with(r, problem_status(p), "application/problem+json", j,
			   problem_retry_after(p) ? extra : NULL);
	json_decref(j);
	return p;
}
