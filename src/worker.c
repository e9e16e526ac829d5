/* The worker process: start-up and the FastCGI accept loop, nothing else.
 *
 * Served on fd 0 when a web server spawns the process (lighttpd bin-path,
 * mod_fcgid), or on the socket given with -l (spawn-fcgi, systemd, by hand).
 * With -w N the process becomes a prefork parent (prefork.c) and the N
 * children it forks run everything below on the same listening socket.
 * Signal handlers go in before FCGX_Init so libfcgi keeps them: SIGPIPE is
 * ignored (a client that left is seen as a failed write), SIGTERM/SIGINT/
 * SIGUSR1 let the current request finish and then end the process. */
#include "config.h"
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <fcgiapp.h>
#include <sodium.h>
#include "api/api.h"
#include "app.h"
#include "fcgi/fcgxio.h"
#include "fcgi/req.h"
#include "fcgi/wtimeout.h"
#include "store/store.h"
#include "engine/engine.h"
#include "util/budget.h"
#include "util/clock.h"
#include "util/curlonce.h"
#include "util/log.h"
#include "worker.h"
#include "kb/kb.h"
#include "kb/shelf.h"
#include "prov/prov.h"
#include "heir.h"
#include "json/jalloc.h"
#include "prefork.h"
#include "wf/builtin.h"
#include "text/seg.h"
#include "selfcheck.h"
#include "sockperm.h"

#ifndef AV_PKGDATADIR
#define AV_PKGDATADIR "/usr/share/aivista"
#endif

#define MAIN_REOPEN_MS 5000

static volatile sig_atomic_t main_stop;
static volatile sig_atomic_t main_busy;
static volatile sig_atomic_t main_heir;
static int main_listen_fd;

/* Outside a request the process is blocked in accept(), which SA_RESTART
 * would resume: closing the listening descriptor makes it fail instead,
 * and the loop ends. Inside a request only the flag is set. */
static void main_on_signal(int sig)
{
	main_stop = 1;
	if (!main_busy)
		close(main_listen_fd);
}

/* The prefork parent died (see heir.h): one worker takes its place, at
 * once when idle, else after its request; the others stop as on SIGTERM.
 * The socket stays open in the one that takes over. */
static void main_on_parent_gone(int sig)
{
	main_stop = 1;
	if (!main_heir && heir_claim()) {
		main_heir = 1;
		if (!main_busy)
			heir_take_over();
	} else if (!main_busy && !main_heir) {
		close(main_listen_fd);
	}
}

/* The signals above, held back while a request is served: the handlers
 * only set flags then, and a handler that ran would end a write that
 * waits on the web server at once (the kernel does not restart a socket
 * write with a deadline, wtimeout.h), cutting a stream short that
 * would have finished. */
static sigset_t main_stop_signals;

static void main_signals(void)
{
	struct sigaction sa;

	sigemptyset(&main_stop_signals);
	sigaddset(&main_stop_signals, SIGTERM);
	sigaddset(&main_stop_signals, SIGINT);
	sigaddset(&main_stop_signals, SIGUSR1);
	sigaddset(&main_stop_signals, PREFORK_PARENT_GONE);
	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sa.sa_handler = main_on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_handler = main_on_parent_gone;
	sigaction(PREFORK_PARENT_GONE, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
}

/* A store that failed to open (disk full, permissions) is tried again
 * now and then, so the worker heals without a restart. */
static void main_ensure_store(struct app *app)
{
	static long long last_try;
	long long now = clock_mono_ms();

	if (app->store || now - last_try < MAIN_REOPEN_MS)
		return;
	last_try = now;
	app->store = store_open(&app->conf, app->store_err, sizeof app->store_err);
	if (app->store &&
	    tid_keys_load(app->keys, app->conf.key_file, app->store_err, sizeof app->store_err) < 0) {
		store_close(app->store);
		app->store = NULL;
	}
	if (app->store == NULL) {
		char verr[64];

		app->store_too_new = store_version_compat(store_version_read(
			app->conf.store_dir, verr, sizeof verr)) == STORE_COMPAT_NEWER;
		log_error("%s", app->store_err);
	}
}

static void main_serve_one(struct app *app, FCGX_Request *fr)
{
	struct io_in in = fcgxio_in(fr->in);
	struct io_out out = fcgxio_out(fr->out);
	struct req r;
	enum problem p;

	/* The client's port ties a request cut short by a dying worker to
	 * that worker in the log (the chaos soak reads it). */
	log_debug("accepted a request from port %s",
		  FCGX_GetParam("REMOTE_PORT", fr->envp) ? FCGX_GetParam("REMOTE_PORT", fr->envp) : "-");
	main_ensure_store(app);
	/* Drawings and OCR run under the [media] budget and stop when this
	 * connection closes (util/budget.h). */
	budget_configure(app->conf.media_cpu_ms, app->conf.media_memory_bytes,
			 app->conf.media_time_ms);
	budget_watch(fr->ipcFd);
	p = req_init(&r, &app->conf, fr->envp, in, out);
	r.app = app;
	if (p != PB_OK)
		problem_send(&r, p, "the request URI cannot be parsed");
	else
		api_dispatch(&r);
	if (wtimeout_passed(FCGX_GetError(fr->out)))
		log_warn("%s %s: the web server took nothing for %ld ms ([server] write_timeout_ms): "
			 "the response is abandoned", r.method ? r.method : "-", r.path ? r.path : "-",
			 app->conf.write_timeout_ms);
	log_debug("%s %s %d", r.method, r.uri, r.status);
	budget_watch(-1);
	/* A request's store budget ends with it, whichever way it ended. */
	if (app->store)
		store_request_budget(app->store, 0);
	req_free(&r);
}

static int main_is_unix(int fd)
{
	struct sockaddr_storage sa;
	socklen_t n = sizeof sa;

	return getsockname(fd, (struct sockaddr *)&sa, &n) == 0 && sa.ss_family == AF_UNIX;
}

/* Every write on the connection gets the deadline (wtimeout.h). */
static void main_write_deadline(struct app *app, int fd)
{
	static int warned;

	if (wtimeout_set(fd, app->conf.write_timeout_ms) < 0 && !warned++)
		log_warn("cannot set the write deadline on the web server's connection: %s",
			 strerror(errno));
}

static int main_loop(struct app *app, int fd)
{
	FCGX_Request fr;
	int quick_close = main_is_unix(fd);

	if (FCGX_InitRequest(&fr, fd, 0) != 0) {
		log_error("cannot initialise a FastCGI request");
		return 1;
	}
	while (!main_stop && !app->fatal) {
		main_busy = 0;
		if (main_stop)
			break;
		if (FCGX_Accept_r(&fr) < 0)
			break;
		main_busy = 1;
		sigprocmask(SIG_BLOCK, &main_stop_signals, NULL);
		main_write_deadline(app, fr.ipcFd);
		main_serve_one(app, &fr);
		fcgxio_finish(&fr, quick_close);
		sigprocmask(SIG_UNBLOCK, &main_stop_signals, NULL);
		/* Housekeeping after the client has its answer. */
		if (app->store) {
			store_maintain(app->store);
			if (lease_back_pending())
				lease_back_run(app->store);
			store_prune(app->store, clock_wall_ms(), 4);
			store_cache_prune(app->store, 4);
			if (store_needs_restart(app->store))
				app->fatal = 1;
		}
	}
	main_busy = 1;
	FCGX_Free(&fr, 1);
	return 0;
}

static void main_usage(FILE *f)
{
	fprintf(f, "usage: aivista.fcgi [-c FILE] [-l ADDRESS [-M MODE] [-G GROUP]] [-b BACKLOG]\n"
		   "                   [-w N] [-t] [-V]\n"
		   "  -c FILE     configuration (default: $AIVISTA_CONF, else %s/aivista.conf)\n"
		   "  -l ADDRESS  listen on ADDRESS (:PORT, HOST:PORT or a socket path) instead\n"
		   "              of the socket a web server passes on standard input\n"
		   "  -M MODE     with -l PATH: the socket's mode, in octal (0660)\n"
		   "  -G GROUP    with -l PATH: the socket's group (the web server's)\n"
		   "  -b BACKLOG  listen backlog with -l (default 128)\n"
		   "  -w N        run N workers on the one listening socket, under a parent\n"
		   "              that restarts any that dies (default: this process serves)\n"
		   "  -t          check the configuration, and that this user can use the\n"
		   "              store directory, and exit\n"
		   "  -V          print the version and exit\n", AV_SYSCONFDIR);
}

static int main_config(struct app *app, const char *path, int check_only)
{
	struct buf errs;
	int rc;

	buf_init(&errs, 1 << 16);
	conf_init(&app->conf);
	rc = conf_load(&app->conf, path, &errs);
	if (rc < 0)
		fprintf(stderr, "aivista: configuration errors:\n%s", errs.data ? errs.data : "");
	buf_free(&errs);
	if (rc == 0 && check_only) {
		if (selfcheck_store(&app->conf, stdout) != 0) {
			printf("configuration not usable (%s)\n",
			       app->conf.path ? app->conf.path : "built-in defaults");
			return -1;
		}
		printf("configuration ok (%s)\n", app->conf.path ? app->conf.path : "built-in defaults");
	}
	if (rc == 0) {
		log_set_level((enum log_level)log_level_parse(app->conf.log_level));
		lease_host_set(app->conf.store_host_id);
	}
	return rc;
}

/* The word list of the segmenter ([kb] words). Without it, words ICU
 * splits stay split: logged, and the worker serves on. */
static void main_words(const struct conf *c)
{
	const char *path = c->kb_words && *c->kb_words ? c->kb_words : AV_PKGDATADIR "/words.txt";
	char err[512];

	if (text_seg_load(path, err, sizeof err) < 0)
		log_error("word list: %s; words ICU splits are not joined", err);
	else
		log_debug("word list: %zu words (%s)", text_seg_listed_count(), path);
}

/* -M and -G: how the socket of -l PATH is to be made. */
struct main_sock {
	int mode_set, group_set;
	mode_t mode;
	gid_t gid;
};

/* The listening socket: opened from -l ADDRESS (a path given sock's mode
 * and group), else standard input, which must be one. Returns 0 or the
 * exit status. */
static int main_listen(const char *listen_addr, int backlog, const struct main_sock *sock,
		       int *fd)
{
	char err[512];

	*fd = 0;
	if (listen_addr) {
		*fd = FCGX_OpenSocket(listen_addr, backlog);
		if (*fd < 0) {
			log_error("cannot listen on %s: %s", listen_addr, strerror(errno));
			return 1;
		}
		if (sockperm_apply(listen_addr, sock->mode_set, sock->mode, sock->group_set,
				   sock->gid, err, sizeof err) < 0) {
			log_error("%s", err);
			return 1;
		}
	} else if (FCGX_IsCGI()) {
		fprintf(stderr, "aivista.fcgi: standard input is not a FastCGI socket: "
				"run it from a web server, or give -l ADDRESS\n");
		return 2;
	}
	return 0;
}

int worker_main(int argc, char **argv)
{
	static struct app app;
	static struct tid_keys keys;
	const char *conf_path = NULL, *listen_addr = NULL;
	int opt, check_only = 0, backlog = 128, fd = 0, rc, workers = 0, is_child = 0;
	struct main_sock sock = { 0, 0, 0, 0 };

	jalloc_install();
	app.keys = &keys;
	while ((opt = getopt(argc, argv, "c:l:b:w:M:G:tVh")) != -1) {
		switch (opt) {
		case 'c': conf_path = optarg; break;
		case 'l': listen_addr = optarg; break;
		case 'M':
			if (sockperm_parse_mode(optarg, &sock.mode) < 0) {
				fprintf(stderr, "aivista.fcgi: -M takes an octal mode (0660)\n");
				return 2;
			}
			sock.mode_set = 1;
			break;
		case 'G':
			if (sockperm_parse_group(optarg, &sock.gid) < 0) {
				fprintf(stderr, "aivista.fcgi: -G %s: no such group\n", optarg);
				return 2;
			}
			sock.group_set = 1;
			break;
		case 'b': backlog = atoi(optarg) > 0 ? atoi(optarg) : 128; break;
		case 'w':
			workers = atoi(optarg);
			if (workers < 1 || workers > PREFORK_MAX) {
				fprintf(stderr, "aivista.fcgi: -w takes 1 to %d\n", PREFORK_MAX);
				return 2;
			}
			break;
		case 't': check_only = 1; break;
		case 'V': printf("%s %s\n", PACKAGE_NAME, PACKAGE_VERSION); return 0;
		case 'h': main_usage(stdout); return 0;
		default: main_usage(stderr); return 2;
		}
	}
	if ((sock.mode_set || sock.group_set) && !sockperm_is_path(listen_addr)) {
		fprintf(stderr, "aivista.fcgi: -M and -G go with -l PATH (a unix socket)\n");
		return 2;
	}
	/* The workflows declare their own configuration keys. */
	wf_builtin_register();
	if (main_config(&app, conf_path, check_only) < 0)
		return 1;
	if (check_only)
		return 0;
	rc = main_listen(listen_addr, backlog, &sock, &fd);
	if (rc != 0)
		return rc;
	if (workers > 0) {
		heir_prepare(argv, fd);
		rc = prefork_run(workers, &is_child);
		if (!is_child)
			return rc;
	}
	/* Signal handlers after FCGX_IsCGI (in main_listen), which runs
	 * FCGX_Init: libfcgi's own handlers are replaced by these. */
	main_listen_fd = fd;
	main_signals();
	if (sodium_init() < 0 || FCGX_Init() != 0) {
		log_error("library initialisation failed");
		return 1;
	}
	app.start_ms = clock_mono_ms();
	main_words(&app.conf);
	app.prov = prov_new(&app.conf);
	main_ensure_store(&app);
	log_info("worker ready (%s)", listen_addr ? listen_addr : "socket from the web server");
	rc = main_loop(&app, fd);
	store_close(app.store);
	prov_free(app.prov);
	kb_shelf_free(app.kbs);
	conf_free(&app.conf);
	curlonce_cleanup();
	if (main_heir)
		heir_take_over();
	log_info("worker stopped");
	return rc;
}
