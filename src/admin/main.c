/* aivista-admin: reads the workers' configuration, becomes the store's
 * owner when started by root (files it creates must stay usable by the
 * workers), and runs one command from the table. */
#include "config.h"
#include <errno.h>
#include <getopt.h>
#include <grp.h>
#include <libgen.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sodium.h>
#include "json/jalloc.h"
#include "admin/admin.h"
#include "wf/builtin.h"
#include "store/store.h"
#include "util/buf.h"
#include "util/log.h"
#include "util/xmalloc.h"

static const struct admin_cmd *const admin_cmds[] = {
	&admin_key_entry, &admin_stats_entry, &admin_backup_entry, &admin_recover_entry,
	&admin_prune_entry, &admin_upgrade_entry,
};
#define ADMIN_NCMDS (sizeof admin_cmds / sizeof admin_cmds[0])

static void admin_usage(FILE *f)
{
	fprintf(f, "usage: aivista-admin [-c FILE] COMMAND [ARGUMENTS]\n"
		   "  -c FILE  the workers' configuration (default: $AIVISTA_CONF, else\n"
		   "           %s/aivista.conf)\n"
		   "  -h       this help; -V the version\n"
		   "commands:\n", AV_SYSCONFDIR);
	for (size_t i = 0; i < ADMIN_NCMDS; i++)
		fprintf(f, "  %-18s %s\n", admin_cmds[i]->args, admin_cmds[i]->help);
}

/* Provider keys are the workers' business: a configuration whose only
 * fault is a key missing from this shell's environment is fine here. */
static int admin_config(struct admin *a, const char *path)
{
	struct buf errs;
	int rc;

	buf_init(&errs, 1 << 16);
	/* The workflows declare their own [workflow.*] sections. */
	wf_builtin_register();
	conf_init(&a->conf);
	rc = conf_load(&a->conf, path, &errs);
	if (rc < 0) {
		const char *p = errs.data ? errs.data : "";

		rc = 0;
		while (*p) {
			size_t n = strcspn(p, "\n");

			if (memmem(p, n, "needs an API key", 16) == NULL)
				rc = -1;
			p += n + (p[n] == '\n');
		}
		if (rc < 0)
			fprintf(stderr, "aivista-admin: configuration errors:\n%s",
				errs.data ? errs.data : "");
	}
	buf_free(&errs);
	return rc;
}

/* Started by root: becomes the owner of path (or of its directory, or of
 * that one's directory), so that what the command creates is the workers'.
 * Nothing to do when that owner is root. */
static int admin_become_owner(const char *path)
{
	char buf[4096];
	struct stat st;
	struct passwd *pw;

	if (geteuid() != 0)
		return 0;
	snprintf(buf, sizeof buf, "%s", path);
	while (stat(buf, &st) != 0) {
		char *slash = strrchr(buf, '/');

		if (slash == NULL || slash == buf)
			return 0;
		*slash = '\0';
	}
	if (st.st_uid == 0)
		return 0;
	pw = getpwuid(st.st_uid);
	if ((pw ? initgroups(pw->pw_name, st.st_gid) : setgroups(1, &st.st_gid)) < 0 ||
	    setgid(st.st_gid) < 0 || setuid(st.st_uid) < 0) {
		admin_error("cannot become the owner of %s (uid %ld): %s", buf, (long)st.st_uid,
			    strerror(errno));
		return -1;
	}
	return 0;
}

static const struct admin_cmd *admin_find(const char *name)
{
	for (size_t i = 0; i < ADMIN_NCMDS; i++)
		if (strcmp(admin_cmds[i]->name, name) == 0)
			return admin_cmds[i];
	return NULL;
}

int main(int argc, char **argv)
{
	static struct admin a;
	const struct admin_cmd *cmd;
	const char *conf_path = NULL;
	char *keydir;
	int opt, rc;

	jalloc_install();
	while ((opt = getopt(argc, argv, "+c:hV")) != -1) {
		switch (opt) {
		case 'c': conf_path = optarg; break;
		case 'h': admin_usage(stdout); return 0;
		case 'V': printf("aivista-admin (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION); return 0;
		default: admin_usage(stderr); return 2;
		}
	}
	if (optind >= argc) {
		admin_usage(stderr);
		return 2;
	}
	cmd = admin_find(argv[optind]);
	if (cmd == NULL) {
		admin_error("unknown command '%s'", argv[optind]);
		admin_usage(stderr);
		return 2;
	}
	if (admin_config(&a, conf_path) < 0)
		return 1;
	log_set_level(LOG_LV_WARN);
	store_umask_apply(&a.conf);
	if (sodium_init() < 0) {
		admin_error("libsodium cannot be initialised");
		return 1;
	}
	if (cmd->prepare && (rc = cmd->prepare(&a, argc - optind, argv + optind)) != 0) {
		conf_free(&a.conf);
		return rc;
	}
	keydir = xstrdup(a.conf.key_file);
	rc = admin_become_owner(cmd->key_owner ? dirname(keydir) : a.conf.store_dir);
	free(keydir);
	if (rc == 0)
		rc = cmd->run(&a, argc - optind, argv + optind);
	else
		rc = 1;
	conf_free(&a.conf);
	return rc;
}
