/* Time in milliseconds: monotonic for intervals, wall clock for event
 * timestamps and expiry. */
#ifndef AV_CLOCK_H
#define AV_CLOCK_H

long long clock_mono_ms(void);
long long clock_wall_ms(void);

#endif
