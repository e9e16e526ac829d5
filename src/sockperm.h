/* The mode and group of the worker's own unix socket (-l PATH with -M and
 * -G), as spawn-fcgi sets them: without them the socket gets the umask's
 * mode and the caller's group, and the web server may not connect. */
#ifndef AV_SOCKPERM_H
#define AV_SOCKPERM_H
#include <stddef.h>
#include <sys/types.h>

/* Parses an octal mode of at most 0777 ("0660", "660"). 0 or -1. */
int sockperm_parse_mode(const char *s, mode_t *mode);
/* Resolves a group name or number. 0 or -1. */
int sockperm_parse_group(const char *s, gid_t *gid);
/* 1 when the -l address is a unix socket path (libfcgi's rule: no ':'). */
int sockperm_is_path(const char *addr);
/* Applies mode (when mode_set) and group (when group_set) to the socket at
 * path. 0, or -1 with the reason in err. */
int sockperm_apply(const char *path, int mode_set, mode_t mode, int group_set, gid_t gid,
		   char *err, size_t errlen);

#endif
