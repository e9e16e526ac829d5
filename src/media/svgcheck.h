/* SVG pictures people send are checked before they are stored, so that
 * a picture which would hold the renderer for minutes or take gigabytes
 * does not get in: its bytes, its elements, its filter primitives (fe*
 * elements) and the bytes of character data in its text, tspan and
 * textPath elements, each against a limit ([media] svg_max_*), and its
 * nesting, at most SVGCHECK_MAX_DEPTH elements deep (as libxml2's own
 * parser allows when it builds a tree). The
 * document is walked by libxml2's SAX parser as it stands: no entity is
 * expanded (a document that declares one is refused), nothing is loaded
 * (no DTD, no network), and the walk stops at the first limit passed. A
 * document libxml2 cannot read to its end is refused as well: what was
 * not read was not checked. Drawing is bounded separately (raster.h, under
 * util/budget.h); this check keeps the worst out of the store. */
#ifndef AV_SVGCHECK_H
#define AV_SVGCHECK_H
#include <stddef.h>
#include "conf/conf.h"

#define SVGCHECK_MAX_DEPTH 256

struct svgcheck_limits {
	long long max_bytes;
	long max_elements;
	long max_filters;         /* fe* elements */
	long long max_text_bytes; /* character data inside text, tspan, textPath */
};

enum svgcheck_rc {
	SVGCHECK_OK = 0,
	SVGCHECK_REFUSED = -1,    /* over a count, entities, not well formed: 400 */
	SVGCHECK_TOO_LARGE = -2,  /* more bytes than max_bytes: 413 */
};

/* Checks the SVG svg (len bytes) against lim: SVGCHECK_OK, or a refusal
 * with err filled (clear words for the person who sent it). */
int svgcheck(const struct svgcheck_limits *lim, const void *svg, size_t len, char *err,
	     size_t errlen);
/* The limits of c's [media] section. */
void svgcheck_limits_conf(const struct conf *c, struct svgcheck_limits *lim);

#endif
