/* Leveled logging to stderr with secret masking (see log.h). */
#include "config.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "util/log.h"
#include "util/xmalloc.h"

#define LOG_MAX_SECRETS 16
#define LOG_LINE_MAX 2048

static enum log_level log_threshold = LOG_LV_INFO;
static char *log_secrets[LOG_MAX_SECRETS];
static int log_nsecrets;

static const char *const log_names[] = { "error", "warn", "info", "debug" };

void log_set_level(enum log_level lv)
{
	log_threshold = lv;
}

int log_level_parse(const char *name)
{
	for (size_t i = 0; i < sizeof log_names / sizeof log_names[0]; i++)
		if (strcmp(name, log_names[i]) == 0)
			return (int)i;
	return -1;
}

void log_add_secret(const char *secret)
{
	/* Short strings would mask ordinary words; keys are long. */
	if (secret == NULL || strlen(secret) < 6 || log_nsecrets == LOG_MAX_SECRETS)
		return;
	log_secrets[log_nsecrets++] = xstrdup(secret);
}

static int log_b64url(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       c == '-' || c == '_';
}

/* A thread ID is a bearer credential: its signature never reaches the log.
 * "v1.<22>.<43>" keeps the random part (enough to find the thread) and
 * loses the tag. */
static void log_mask_thread_ids(char *line)
{
	for (char *p = strstr(line, "v1."); p; p = strstr(p + 1, "v1.")) {
		int i = 3;

		while (i < 25 && log_b64url(p[i]))
			i++;
		if (i != 25 || p[25] != '.')
			continue;
		for (i = 26; i < 26 + 43 && log_b64url(p[i]); i++)
			p[i] = '*';
	}
}

static void log_mask(char *line)
{
	log_mask_thread_ids(line);
	for (int i = 0; i < log_nsecrets; i++) {
		size_t n = strlen(log_secrets[i]);
		char *p = line;

		while ((p = strstr(p, log_secrets[i])) != NULL) {
			memset(p, '*', n);
			p += n;
		}
	}
	/* One event, one line: embedded newlines would forge log entries. */
	for (char *p = line; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
}

void log_write(enum log_level lv, const char *file, int line, const char *fmt, ...)
{
	char msg[LOG_LINE_MAX];
	const char *base = strrchr(file, '/');
	va_list ap;

	if (lv > log_threshold)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	log_mask(msg);
	fprintf(stderr, "aivista[%ld] %s %s:%d: %s\n", (long)getpid(), log_names[lv],
		base ? base + 1 : file, line, msg);
}
