/* The table of store backends (backends.h): one row each, and the
 * questions asked of it. */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "conf/conf.h"
#include "store/backend.h"
#include "store/backends.h"

/* The first row is the default, as [store] backend's is. */
const struct store_backend store_backends[] = {
	{ .name = "bdb", .ops = &store_bdb_ops,
	  .flags = STORE_CAN_RECOVER | STORE_CAN_BACKUP | STORE_BY_FILES,
	  .version_name = "format version" },
	{ .name = "postgresql",
#ifdef HAVE_LIBPQ
	  .ops = &store_pg_ops,
#endif
	  .missing = "PostgreSQL support: configure --with-postgresql (needs libpq-dev) and rebuild",
	  .flags = STORE_RECONNECTS,
	  .version_name = "schema version",
	  .backup_how = "backed up with PostgreSQL's own tools: pg_dump (or pg_basebackup for the "
			"whole cluster)",
	  .recover_how = "the PostgreSQL server recovers its own database" },
};
const size_t store_nbackends = sizeof store_backends / sizeof store_backends[0];

const struct store_backend *store_backend_find(const char *name)
{
	for (size_t i = 0; name && i < store_nbackends; i++)
		if (strcmp(store_backends[i].name, name) == 0)
			return &store_backends[i];
	return NULL;
}

const struct store_backend *store_backend_of(const struct conf *c)
{
	return c->store_backend ? store_backend_find(c->store_backend) : &store_backends[0];
}

void store_backend_names(char *out, size_t n, const char *sep, const char *last_sep)
{
	size_t len = 0;

	if (n == 0)
		return;
	out[0] = '\0';
	for (size_t i = 0; i < store_nbackends && len < n; i++)
		len += (size_t)snprintf(out + len, n - len, "%s%s",
					i == 0 ? "" : i + 1 == store_nbackends ? last_sep : sep,
					store_backends[i].name);
}
