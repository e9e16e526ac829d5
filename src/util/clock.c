/* Millisecond clocks (see clock.h). */
#include "config.h"
#include <time.h>
#include "util/clock.h"

static long long clock_ms(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

long long clock_mono_ms(void)
{
	return clock_ms(CLOCK_MONOTONIC);
}

long long clock_wall_ms(void)
{
	return clock_ms(CLOCK_REALTIME);
}
