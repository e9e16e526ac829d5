/* What the orchestrate tools share (orch_tool_util.h): their error
 * results and the check that a file is text. */
#include "config.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "wf/orchestrate/orch_tool_util.h"

json_t *orch_tool_error(const char *code, const char *fmt, ...)
{
	char msg[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return json_pack("{s:s, s:s}", "error", code, "message", msg);
}

json_t *orch_tool_ws_error(const char *err)
{
	const char *colon = strstr(err, ": ");
	char code[48];

	if (colon == NULL || (size_t)(colon - err) >= sizeof code)
		return orch_tool_error("store_failed", "%s", err);
	snprintf(code, sizeof code, "%.*s", (int)(colon - err), err);
	return orch_tool_error(code, "%s", colon + 2);
}

/* UTF-8 text without NUL, as jansson checks it. */
int orch_tool_is_text(const void *data, size_t len)
{
	json_t *s;

	if (memchr(data, 0, len))
		return 0;
	s = json_stringn(data, len);
	json_decref(s);
	return s != NULL;
}
