/* The store backends [store] backend names, one row each in
 * store_backends[] (backends.c): the name, the calls (struct store_ops,
 * backend.h; NULL when this build lacks it) and what it can do. Whatever
 * depends on the backend asks its row, never its name: the configuration
 * which names are known, store_open which calls to use, aivista-admin
 * whether it backs up and recovers the store itself and how it counts its
 * size. A new backend is its files and one row. This header names no
 * store type, so the configuration can ask it. */
#ifndef AV_STORE_BACKENDS_H
#define AV_STORE_BACKENDS_H
#include <stddef.h>

struct conf;
struct store_ops;

/* aivista-admin recover runs its recovery (while no worker has it open);
 * without: its server recovers it (recover_how says how). */
#define STORE_CAN_RECOVER 1u
/* aivista-admin backup copies it into a directory (store_ops.backup);
 * without: its own tools do (backup_how says which). */
#define STORE_CAN_BACKUP 2u
/* What it takes is files in [store] dir (databases, logs, shared regions),
 * counted one by one; without: one database's size. */
#define STORE_BY_FILES 4u
/* A store that could not be reopened is tried again at its next use (a
 * server that may come back) and the worker carries on; without: the
 * worker must exit and be started again. */
#define STORE_RECONNECTS 8u

struct store_backend {
	const char *name;              /* [store] backend = NAME */
	const struct store_ops *ops;   /* NULL: not in this build */
	const char *missing;           /* without ops: what the build lacks, and what to do */
	unsigned flags;                /* STORE_CAN_RECOVER, ... */
	const char *version_name;      /* what its version counts: "format version", ... */
	const char *backup_how;        /* without STORE_CAN_BACKUP: "backed up with ..." */
	const char *recover_how;       /* without STORE_CAN_RECOVER: who recovers it */
};

extern const struct store_backend store_backends[];
extern const size_t store_nbackends;

/* The row of backend name, or NULL for a name no row has. */
const struct store_backend *store_backend_find(const char *name);
/* The row of c's [store] backend (the first row, the default, when c names
 * none), or NULL for a name no row has. */
const struct store_backend *store_backend_of(const struct conf *c);
/* The backends' names in table order, sep between them and last_sep
 * before the last ("bdb or postgresql"), into out (cut to n bytes). */
void store_backend_names(char *out, size_t n, const char *sep, const char *last_sep);

#endif
