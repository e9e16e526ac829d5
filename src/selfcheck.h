/* What "aivista.fcgi -t" checks beyond the configuration's syntax: that
 * the store directory can be used by the user running the check (the user
 * the workers would run as), or created by it. */
#ifndef AV_SELFCHECK_H
#define AV_SELFCHECK_H
#include <stdio.h>
#include "conf/conf.h"

/* Writes one line per finding to out ("store: ..."). Returns 0 when the
 * workers could use the store directory as this user, 1 when not. */
int selfcheck_store(const struct conf *c, FILE *out);

#endif
