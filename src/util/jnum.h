/* Numbers in the JSON the server writes, as people read them.
 *
 * Every document written for clients or the store (events, thread state,
 * checkpoints, answers) is dumped with JNUM_DUMP: 15 significant digits,
 * the most a double keeps through decimal and back, so 0.85 is written
 * "0.85" and a value read from the store is written again byte for byte.
 * Scores, confidences, shares and progress are rounded where they are
 * computed to the places they mean (jnum_round), so 1/3 is 0.33, not
 * 0.333333333333333. */
#ifndef AV_JNUM_H
#define AV_JNUM_H

#include <jansson.h>

#define JNUM_DUMP (JSON_COMPACT | JSON_REAL_PRECISION(15))

/* Places for a score, confidence, share or progress fraction in [0, 1]. */
#define JNUM_SCORE 2

/* v rounded half away from zero to `places` decimals (0..6); NaN and
 * infinities (which JSON cannot carry) become 0. */
double jnum_round(double v, int places);

/* A new JSON real holding jnum_round(v, places). */
json_t *jnum_real(double v, int places);

#endif
