/* Followers woken by LISTEN/NOTIFY: a transaction that changes a thread
 * (its record, its events) sends NOTIFY on the thread's channel just
 * before its COMMIT, so the notification goes out with the commit and
 * only if it commits; a follower LISTENs on that channel on its worker's
 * connection (a direct one: LISTEN does not survive a transaction-mode
 * pooler) and waits on the connection's socket, for at most the time
 * asked, so a lost notification costs one bounded wait, never a hang. */
#include "config.h"
#ifdef HAVE_LIBPQ
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include "store/pg.h"
#include "util/clock.h"
#include "util/log.h"

/* The channel of thread tid: "av_" and its hex digits (a plain
 * identifier, so it needs no quoting). */
static void pg_channel(char out[PG_CHANNEL], const uint8_t tid[STORE_TID])
{
	static const char hex[] = "0123456789abcdef";

	memcpy(out, "av_", 3);
	for (int i = 0; i < STORE_TID; i++) {
		out[3 + 2 * i] = hex[tid[i] >> 4];
		out[4 + 2 * i] = hex[tid[i] & 15];
	}
	out[3 + 2 * STORE_TID] = '\0';
}

void pg_touched(struct store_txn *t, const uint8_t tid[STORE_TID])
{
	pg_channel(PG(t->s)->notify, tid);
}

int pg_notify_pending(struct store *s)
{
	char sql[16 + PG_CHANNEL];

	if (PG(s)->notify[0] == '\0')
		return 0;
	snprintf(sql, sizeof sql, "NOTIFY %s", PG(s)->notify);
	PG(s)->notify[0] = '\0';
	return pg_cmd(s, sql, "notifying the thread's followers");
}

/* Listens on chan (and on nothing else). 0 or a store result. */
static int pg_listen(struct store *s, const char *chan)
{
	char sql[16 + PG_CHANNEL];
	int rc;

	if (strcmp(PG(s)->listen, chan) == 0)
		return 0;
	if (PG(s)->listen[0] && (rc = pg_cmd(s, "UNLISTEN *", "leaving a channel")) != 0)
		return rc;
	PG(s)->listen[0] = '\0';
	snprintf(sql, sizeof sql, "LISTEN %s", chan);
	if ((rc = pg_cmd(s, sql, "listening on the thread's channel")) != 0)
		return rc;
	snprintf(PG(s)->listen, PG_CHANNEL, "%s", chan);
	return 0;
}

/* Takes what arrived: 1 when a notification on chan is among it, 0 when
 * none, -1 when the connection is lost. */
static int pg_notified(struct store *s, const char *chan)
{
	PGnotify *n;
	int found = 0;

	if (!PQconsumeInput(PG(s)->conn))
		return -1;
	while ((n = PQnotifies(PG(s)->conn)) != NULL) {
		found |= strcmp(n->relname, chan) == 0;
		PQfreemem(n);
	}
	return found;
}

int pg_wait(struct store *s, const uint8_t tid[STORE_TID], int ms)
{
	long long end = clock_mono_ms() + ms;
	char chan[PG_CHANNEL];
	int got;

	pg_channel(chan, tid);
	if (PG(s)->conn == NULL || PG(s)->in_txn || pg_listen(s, chan) != 0)
		goto lost;
	while ((got = pg_notified(s, chan)) == 0) {
		struct pollfd pfd = { .fd = PQsocket(PG(s)->conn), .events = POLLIN };
		long long left = end - clock_mono_ms();

		if (left <= 0)
			return 0;
		if (poll(&pfd, 1, (int)left) < 0 && errno != EINTR)
			goto lost;
	}
	if (got > 0)
		return 1;
lost:
	/* The next transaction reconnects; meanwhile the caller polls. */
	log_warn("waiting for a thread's notifications failed: the follower polls");
	s->panicked = 1;
	return 0;
}

void pg_unwatch(struct store *s)
{
	if (PG(s)->conn && PG(s)->listen[0] && !PG(s)->in_txn)
		pg_cmd(s, "UNLISTEN *", "leaving a channel");
	PG(s)->listen[0] = '\0';
}
#endif
