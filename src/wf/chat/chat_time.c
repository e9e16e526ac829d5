/* The time route (seed 004 §7.1): no model, the local clock. The time
 * zone is [workflow.chat] timezone (an IANA name) or, when it is empty,
 * the server's; the weekday and the date are written in the thread's
 * language. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "conf/conf.h"
#include "text/msg.h"
#include "util/xmalloc.h"
#include "wf/chat/chat_common.h"

/* localtime_r in the zone tz: TZ is set for the call and put back (workers
 * are single-threaded). */
static void chat_time_local(time_t now, const char *tz, struct tm *tm)
{
	char *saved = NULL;

	if (tz == NULL || *tz == '\0') {
		localtime_r(&now, tm);
		return;
	}
	if (getenv("TZ"))
		saved = xstrdup(getenv("TZ"));
	setenv("TZ", tz, 1);
	tzset();
	localtime_r(&now, tm);
	if (saved)
		setenv("TZ", saved, 1);
	else
		unsetenv("TZ");
	tzset();
	free(saved);
}

json_t *chat_time_facts(time_t now, const char *tz, const char *lang)
{
	static const char *const wd_ids[] = { "chat.time.sun", "chat.time.mon", "chat.time.tue",
					      "chat.time.wed", "chat.time.thu", "chat.time.fri",
					      "chat.time.sat" };
	struct tm tm;
	char iso[40], date[40], hms[16], off[8], zone[64];

	chat_time_local(now, tz, &tm);
	strftime(iso, sizeof iso, "%Y-%m-%dT%H:%M:%S%z", &tm);
	strftime(hms, sizeof hms, "%H:%M:%S", &tm);
	strftime(off, sizeof off, "%z", &tm);
	snprintf(date, sizeof date, msg_get(lang, "chat.time.date"), tm.tm_year + 1900, tm.tm_mon + 1,
		 tm.tm_mday);
	snprintf(zone, sizeof zone, "%s", tz && *tz ? tz : tm.tm_zone ? tm.tm_zone : "");
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:I}", "iso", iso, "date", date, "time", hms,
			 "weekday", msg_get(lang, wd_ids[tm.tm_wday % 7]), "timezone", zone,
			 "utcOffset", off, "unix", (json_int_t)now);
}

static const char *chat_time_str(const json_t *f, const char *key)
{
	return json_string_value(json_object_get(f, key)) ?: "";
}

char *chat_time_text(const json_t *f, const char *lang)
{
	return msg_fmt(lang, "chat.time.answer", chat_time_str(f, "date"), chat_time_str(f, "weekday"),
		       chat_time_str(f, "time"), chat_time_str(f, "timezone"),
		       chat_time_str(f, "utcOffset"),
		       (long long)json_integer_value(json_object_get(f, "unix")));
}

enum node_rc chat_time_query(struct step_ctx *c)
{
	json_t *f = chat_time_facts(time(NULL), chat_conf(c)->timezone, step_lang(c));
	char *text = chat_time_text(f, step_lang(c));
	enum node_rc rc;

	chat_tool_record(c, "time_query", json_pack("{s:s}", "timezone",
						    chat_time_str(f, "timezone")), 1);
	json_object_set_new(c->state, "time", f);
	rc = chat_finish(c, text, NULL);
	free(text);
	return rc;
}
