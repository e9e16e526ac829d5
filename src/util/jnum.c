/* Numbers as people read them (see jnum.h). */
#include "config.h"
#include <math.h>
#include "util/jnum.h"

double jnum_round(double v, int places)
{
	static const double scale[] = { 1, 10, 100, 1000, 1e4, 1e5, 1e6 };
	double s, x, r;

	if (!isfinite(v))
		return 0;
	if (places < 0)
		places = 0;
	if (places > 6)
		places = 6;
	s = scale[places];
	x = v * s;
	/* A product like 0.285 * 100 = 28.499999999999996 stands for the tie
	 * the decimal was written as: nudge it by a billionth before rounding. */
	r = round(x + copysign(1e-9 * fmax(1, fabs(x)), x)) / s;
	return r == 0 ? 0 : r;   /* no "-0.0" */
}

json_t *jnum_real(double v, int places)
{
	return json_real(jnum_round(v, places));
}
