/* A minimal TAP producer for the C unit tests (run by tap-driver.sh). */
#ifndef AV_TAP_H
#define AV_TAP_H
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_n, tap_failed;

#define ok(cond, ...) tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
#define is_int(got, want, ...) tap_is_int((long long)(got), (long long)(want), __FILE__, __LINE__, __VA_ARGS__)
#define is_str(got, want, ...) tap_is_str((got), (want), __FILE__, __LINE__, __VA_ARGS__)

__attribute__((format(printf, 4, 5)))
static inline int tap_ok(int pass, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d - ", pass ? "ok" : "not ok", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!pass) {
		printf("#   failed at %s:%d\n", file, line);
		tap_failed++;
	}
	return pass;
}

__attribute__((format(printf, 5, 6)))
static inline int tap_is_int(long long got, long long want, const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	int pass = got == want;

	printf("%s %d - ", pass ? "ok" : "not ok", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!pass) {
		printf("#   failed at %s:%d: got %lld, want %lld\n", file, line, got, want);
		tap_failed++;
	}
	return pass;
}

__attribute__((format(printf, 5, 6)))
static inline int tap_is_str(const char *got, const char *want, const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	int pass = got && want ? strcmp(got, want) == 0 : got == want;

	printf("%s %d - ", pass ? "ok" : "not ok", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!pass) {
		printf("#   failed at %s:%d\n#   got:  '%s'\n#   want: '%s'\n", file, line,
		       got ? got : "(null)", want ? want : "(null)");
		tap_failed++;
	}
	return pass;
}

/* A test that cannot go on (its setup failed): TAP's bail out, exit 99
 * (a hard error, not a failed test). */
__attribute__((format(printf, 1, 2), noreturn))
static inline void tap_bail(const char *fmt, ...)
{
	va_list ap;

	printf("Bail out! ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	exit(99);
}

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return 0;
}

#endif
