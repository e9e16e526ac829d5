/* aivista-admin: the administrator's commands on a store (see
 * aivista-admin(8)). One file per command, each exporting one entry of the
 * table in main.c. */
#ifndef AV_ADMIN_H
#define AV_ADMIN_H
#include <sys/types.h>
#include "conf/conf.h"

struct admin {
	struct conf conf;        /* the workers' configuration */
};

struct admin_cmd {
	const char *name;
	const char *args;        /* for the usage line */
	const char *help;
	/* Which path's owner to run as when started by root: the store
	 * directory, or the key file's directory. */
	int key_owner;
	/* Runs first, as the caller (root included): NULL, or 0 / an exit status. */
	int (*prepare)(struct admin *a, int argc, char **argv);
	/* argv[0] is the command's name. Exit status: 0, 1 (failed), 2 (usage). */
	int (*run)(struct admin *a, int argc, char **argv);
};

extern const struct admin_cmd admin_key_entry;
extern const struct admin_cmd admin_stats_entry;
extern const struct admin_cmd admin_backup_entry;
extern const struct admin_cmd admin_recover_entry;
extern const struct admin_cmd admin_prune_entry;
extern const struct admin_cmd admin_upgrade_entry;

/* Messages to stderr, prefixed with the program's name. */
void admin_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Opens the store as a worker does (joining the running workers). NULL
 * after an error message. */
struct store *admin_store_open(struct admin *a);
/* 1 when a process has the environment in dir open (its pid in *pid), 0
 * when none has, -1 when it cannot be told (no environment there). */
int admin_env_in_use(const char *dir, long *pid);
/* mkdir -p: makes path and its missing parents, each 0700 and, when uid
 * is not (uid_t)-1, given to uid:gid. 0, or -1 with errno. */
int admin_mkdirs(const char *path, uid_t uid, gid_t gid);

#endif
