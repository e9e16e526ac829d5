/* The time route (seed 004 §7.1): no model, the local clock. A question
 * that names places (东京现在几点, what time is it in London and Paris)
 * is answered in each place's zone (chat_zones.h); else the zone is
 * [workflow.chat] timezone (an IANA name) or, when it is empty, the
 * server's. ICU's calendar computes the local time, its offset and the
 * zone's name in the thread's language; the weekday and the date are
 * written from the catalogue. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unicode/ucal.h>
#include <unicode/ustring.h>
#include "conf/conf.h"
#include "text/msg.h"
#include "util/buf.h"
#include "util/xmalloc.h"
#include "wf/chat/chat_common.h"
#include "wf/chat/chat_zones.h"

#define CHAT_TIME_PLACES 4     /* places one answer covers */

struct chat_time_tm {
	int year, month, day, hour, min, sec, wday;   /* wday 0 = Sunday */
	int offset_min;
	char zone[64];       /* the zone's id as ICU knows it */
	char name[128];      /* its name in the language asked, UTF-8 */
};

static void chat_time_zone_name(UCalendar *cal, const char *lang, struct chat_time_tm *t)
{
	UErrorCode e = U_ZERO_ERROR;
	UChar u[128];
	int dst = ucal_inDaylightTime(cal, &e);
	int32_t n;

	t->name[0] = '\0';
	n = ucal_getTimeZoneDisplayName(cal, U_SUCCESS(e) && dst ? UCAL_DST : UCAL_STANDARD,
					strcmp(lang, "zh") == 0 ? "zh" : "en", u, 127, &e);
	if (U_SUCCESS(e) && n > 0 && n < 128)
		u_strToUTF8(t->name, sizeof t->name, NULL, u, n, &e);
	if (U_FAILURE(e))
		t->name[0] = '\0';
}

/* The calendar's zone id (the server's when none was asked for). */
static void chat_time_zone_id(UCalendar *cal, struct chat_time_tm *t)
{
	UErrorCode e = U_ZERO_ERROR;
	UChar u[64];
	int32_t n = ucal_getTimeZoneID(cal, u, 63, &e);

	t->zone[0] = '\0';
	if (U_SUCCESS(e) && n > 0) {
		u_austrncpy(t->zone, u, n < 63 ? n + 1 : 63);
		t->zone[63] = '\0';
	}
}

/* now in the zone tz ("" or NULL: the server's, as ICU finds it). 0, or
 * -1 when ICU cannot make a calendar. */
static int chat_time_fields(time_t now, const char *tz, const char *lang, struct chat_time_tm *t)
{
	UErrorCode e = U_ZERO_ERROR;
	UChar zid[64];
	UCalendar *cal;

	if (tz && *tz) {
		u_uastrncpy(zid, tz, 63);
		zid[63] = 0;
	}
	cal = ucal_open(tz && *tz ? zid : NULL, -1, "en_US", UCAL_GREGORIAN, &e);
	if (U_FAILURE(e))
		return -1;
	ucal_setMillis(cal, (UDate)now * 1000.0, &e);
	t->year = ucal_get(cal, UCAL_EXTENDED_YEAR, &e);
	t->month = ucal_get(cal, UCAL_MONTH, &e) + 1;
	t->day = ucal_get(cal, UCAL_DATE, &e);
	t->hour = ucal_get(cal, UCAL_HOUR_OF_DAY, &e);
	t->min = ucal_get(cal, UCAL_MINUTE, &e);
	t->sec = ucal_get(cal, UCAL_SECOND, &e);
	t->wday = (ucal_get(cal, UCAL_DAY_OF_WEEK, &e) - UCAL_SUNDAY) % 7;
	t->offset_min = (ucal_get(cal, UCAL_ZONE_OFFSET, &e) + ucal_get(cal, UCAL_DST_OFFSET, &e)) /
			60000;
	chat_time_zone_id(cal, t);
	chat_time_zone_name(cal, lang, t);
	ucal_close(cal);
	return U_FAILURE(e) ? -1 : 0;
}

json_t *chat_time_facts(time_t now, const char *tz, const char *lang)
{
	static const char *const wd_ids[] = { "chat.time.sun", "chat.time.mon", "chat.time.tue",
					      "chat.time.wed", "chat.time.thu", "chat.time.fri",
					      "chat.time.sat" };
	struct chat_time_tm t = { 0 };
	char iso[48], date[40], hms[16], off[8];
	int a;

	if (chat_time_fields(now, tz, lang, &t) < 0)
		return NULL;
	a = t.offset_min < 0 ? -t.offset_min : t.offset_min;
	snprintf(off, sizeof off, "%c%02d%02d", t.offset_min < 0 ? '-' : '+', a / 60 % 100, a % 60);
	snprintf(hms, sizeof hms, "%02d:%02d:%02d", t.hour, t.min, t.sec);
	snprintf(iso, sizeof iso, "%04d-%02d-%02dT%s%s", t.year, t.month, t.day, hms, off);
	snprintf(date, sizeof date, msg_get(lang, "chat.time.date"), t.year, t.month, t.day);
	return json_pack("{s:s, s:s, s:s, s:s, s:i, s:s, s:s, s:s, s:I}", "iso", iso, "date", date,
			 "time", hms, "weekday", msg_get(lang, wd_ids[t.wday]), "wday", t.wday, "timezone",
			 tz && *tz ? tz : t.zone, "zoneName", t.name, "utcOffset", off,
			 "unix", (json_int_t)now);
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

/* The time at one place the question named: the facts with the place as
 * written, its zone's city, and whether the country has several zones. */
static json_t *chat_time_at(time_t now, const char *text, const struct chat_zone_hit *h,
			    const char *lang)
{
	const struct chat_zone *z = &chat_zones[h->place->zone];
	json_t *f = chat_time_facts(now, z->id, lang);
	char *place = xstrndup(text + h->start, h->len);

	if (f) {
		json_object_set_new(f, "place", json_string(place));
		json_object_set_new(f, "city", json_string(strcmp(lang, "zh") == 0 ? z->zh : z->en));
		json_object_set_new(f, "severalZones",
				    json_boolean(h->place->flags & CHAT_ZONE_SEVERAL));
	}
	free(place);
	return f;
}

/* One place's line; a country with several zones says whose time it is. */
static void chat_time_place_line(struct buf *b, const json_t *f, const char *lang)
{
	const char *place = chat_time_str(f, "place"), *date = chat_time_str(f, "date");
	const char *wday = chat_time_str(f, "weekday"), *hms = chat_time_str(f, "time");
	const char *name = chat_time_str(f, "zoneName"), *zone = chat_time_str(f, "timezone");
	const char *off = chat_time_str(f, "utcOffset");
	char *s;

	if (json_is_true(json_object_get(f, "severalZones")))
		s = msg_fmt(lang, "chat.time.several", place, chat_time_str(f, "city"), date, wday, hms,
			    name, zone, off);
	else
		s = msg_fmt(lang, "chat.time.place", place, date, wday, hms, name, zone, off);
	buf_adds(b, s);
	free(s);
}

/* The places the text names, each in its zone: an array of facts, or NULL
 * when it names none. New reference. */
json_t *chat_time_places(time_t now, const char *text, const char *lang)
{
	struct chat_zone_hit hits[CHAT_TIME_PLACES];
	size_t n = chat_zones_find(text, hits, CHAT_TIME_PLACES);
	json_t *all;

	if (n == 0)
		return NULL;
	all = json_array();
	for (size_t i = 0; i < n; i++) {
		json_t *f = chat_time_at(now, text, &hits[i], lang);

		if (f)
			json_array_append_new(all, f);
	}
	if (json_array_size(all) == 0) {
		json_decref(all);
		return NULL;
	}
	return all;
}

char *chat_time_places_text(const json_t *places, const char *lang)
{
	struct buf b;
	const json_t *f;
	size_t i;

	buf_init(&b, 8192);
	json_array_foreach(places, i, f) {
		if (i)
			buf_adds(&b, "\n");
		chat_time_place_line(&b, f, lang);
	}
	return buf_steal(&b);
}

/* -- another day: 明天, 下周三, tomorrow, next Friday ------------------------- */

struct chat_day {
	const char *said;    /* the words as written (in the text) */
	size_t len;
	int days;            /* from today */
};

/* Monday 1 … Sunday 7, from a Chinese weekday character (一 … 六, 日/天). */
static int chat_day_zh_wday(const char *p)
{
	static const char *const d[] = { "一", "二", "三", "四", "五", "六", "日", "天" };

	for (int i = 0; i < 8; i++)
		if (!strncmp(p, d[i], 3))
			return i < 7 ? i + 1 : 7;
	return 0;
}

static int chat_day_en_wday(const char *p)
{
	static const char *const d[] = { "monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
					 "sunday" };

	for (int i = 0; i < 7; i++)
		if (!strncasecmp(p, d[i], strlen(d[i])))
			return i + 1;
	return 0;
}

/* The day text asks about other than today, from today's weekday (0 =
 * Sunday): *d filled and 1, or 0 when it names none. Weeks start on
 * Monday (下周三: the Wednesday of next week); "next Friday" is the first
 * Friday after today. */
static int chat_day_asked(const char *text, int wday, struct chat_day *d)
{
	static const struct { const char *w; int days; } rel[] = {
		{ "大后天", 3 }, { "大前天", -3 }, { "后天", 2 }, { "前天", -2 }, { "明天", 1 }, { "明日", 1 },
		{ "昨天", -1 }, { "the day after tomorrow", 2 }, { "the day before yesterday", -2 },
		{ "tomorrow", 1 }, { "yesterday", -1 },
	};
	static const struct { const char *w; int week; } wk[] = {
		{ "下个星期", 1 }, { "下个礼拜", 1 }, { "下星期", 1 }, { "下礼拜", 1 }, { "下周", 1 },
		{ "上个星期", -1 }, { "上星期", -1 }, { "上礼拜", -1 }, { "上周", -1 }, { "这个星期", 0 },
		{ "这星期", 0 }, { "这礼拜", 0 }, { "这周", 0 }, { "本周", 0 },
	};
	static const struct { const char *w; int how; } en[] = { { "next ", 1 }, { "this ", 0 }, { "last ", -1 } };
	int iso = wday == 0 ? 7 : wday;

	for (size_t i = 0; i < sizeof wk / sizeof wk[0]; i++) {
		const char *p = strstr(text, wk[i].w);
		int t = p ? chat_day_zh_wday(p + strlen(wk[i].w)) : 0;

		if (t) {
			*d = (struct chat_day){ p, strlen(wk[i].w) + 3, wk[i].week * 7 + t - iso };
			return 1;
		}
	}
	for (size_t i = 0; i < sizeof en / sizeof en[0]; i++)
		for (const char *p = strcasestr(text, en[i].w); p; p = strcasestr(p + 1, en[i].w)) {
			int t = chat_day_en_wday(p + strlen(en[i].w)), k;

			if (!t)
				continue;
			k = en[i].how > 0 ? (t - iso + 7) % 7 : en[i].how < 0 ? -((iso - t + 7) % 7) : t - iso;
			if (en[i].how > 0 && k == 0)
				k = 7;
			if (en[i].how < 0 && k == 0)
				k = -7;
			*d = (struct chat_day){ p, strlen(en[i].w) + strcspn(p + strlen(en[i].w), " ?,.!"), k };
			return 1;
		}
	for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
		const char *p = strcasestr(text, rel[i].w);

		if (p) {
			*d = (struct chat_day){ p, strlen(rel[i].w), rel[i].days };
			return 1;
		}
	}
	return 0;
}

/* The answer for another day: its date and weekday in the zone of f
 * (the first place the question named, else the configured one). NULL
 * when the question names no other day. */
static char *chat_time_day_text(time_t now, const char *text, const json_t *f, const char *lang)
{
	const char *tz = json_string_value(json_object_get(f, "timezone"));
	const json_t *w = json_object_get(f, "wday");
	struct chat_day d;
	json_t *g;
	char *said, *out;

	if (!json_is_integer(w) || !chat_day_asked(text, (int)json_integer_value(w), &d) || d.days == 0)
		return NULL;
	g = chat_time_facts(now + (time_t)d.days * 86400, tz, lang);
	if (g == NULL)
		return NULL;
	said = xstrndup(d.said, d.len);
	if (strcmp(lang, "zh") && said[0] >= 'a' && said[0] <= 'z' && !json_object_get(f, "place"))
		said[0] = (char)(said[0] - 'a' + 'A');
	out = json_object_get(f, "place") ?
	      msg_fmt(lang, "chat.time.day.place", chat_time_str(f, "place"), said, chat_time_str(g, "date"),
		      chat_time_str(g, "weekday")) :
	      msg_fmt(lang, "chat.time.day", said, chat_time_str(g, "date"), chat_time_str(g, "weekday"));
	free(said);
	json_decref(g);
	return out;
}

enum node_rc chat_time_query(struct step_ctx *c)
{
	time_t now = time(NULL);
	json_t *places = chat_time_places(now, chat_text(c->state), step_lang(c));
	json_t *f = places ? json_copy(json_array_get(places, 0))
			   : chat_time_facts(now, chat_conf(c)->timezone, step_lang(c));
	char *text;
	enum node_rc rc;

	if (f == NULL)
		f = json_pack("{s:s, s:I}", "timezone", "", "unix", (json_int_t)now);
	text = chat_time_day_text(now, chat_text(c->state), f, step_lang(c));
	if (text == NULL)
		text = places ? chat_time_places_text(places, step_lang(c)) : chat_time_text(f, step_lang(c));
	chat_tool_record(c, "time_query", json_pack("{s:s}", "timezone",
						    chat_time_str(f, "timezone")), 1);
	if (places && json_array_size(places) > 1)
		json_object_set(f, "places", places);
	json_object_set_new(c->state, "time", f);
	rc = chat_finish(c, text, NULL);
	json_decref(places);
	free(text);
	return rc;
}
