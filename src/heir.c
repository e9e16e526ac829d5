/* What the workers of a prefork parent do when it dies (see heir.h). */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include "heir.h"
#include "util/log.h"
#include "util/xmalloc.h"

#define HEIR_ENV_HEIR "AIVISTA_PREFORK_HEIR"
#define HEIR_ENV_SERVER "AIVISTA_PREFORK_SERVER"
#define HEIR_ENV_SOCKET "AIVISTA_PREFORK_SOCKET"

extern char **environ;

static int heir_token = -1;		/* read end of a pipe holding one byte */
static char **heir_argv;		/* the parent's command line */
static char **heir_envp[2];		/* its environment, marked: [1] names the server */
static pid_t heir_server;		/* the process that started the first parent */
static int heir_successor;		/* this parent took a dead one's place */
static char heir_path[sizeof ((struct sockaddr_un *)0)->sun_path];
static dev_t heir_dev;
static ino_t heir_ino;

/* The path a unix socket is bound to. 0, or -1 for another kind. */
static int heir_socket_path(int fd, char *path, size_t n)
{
	struct sockaddr_un sa;
	socklen_t len = sizeof sa;

	memset(&sa, 0, sizeof sa);
	if (getsockname(fd, (struct sockaddr *)&sa, &len) < 0 || sa.sun_family != AF_UNIX ||
	    sa.sun_path[0] == '\0')
		return -1;
	snprintf(path, n, "%s", sa.sun_path);
	return 0;
}

/* Who started the first parent and which socket file it served: from the
 * environment in a successor, else found out now. */
static void heir_origin(int listen_fd)
{
	const char *server = getenv(HEIR_ENV_SERVER), *sock = getenv(HEIR_ENV_SOCKET);
	unsigned long long dev, ino;
	struct stat st;

	heir_successor = getenv(HEIR_ENV_HEIR) != NULL;
	heir_server = heir_successor ? (server ? (pid_t)atol(server) : 0) : getppid();
	heir_path[0] = '\0';
	if (heir_socket_path(listen_fd, heir_path, sizeof heir_path) < 0)
		return;
	if (heir_successor && sock && sscanf(sock, "%llu:%llu", &dev, &ino) == 2) {
		heir_dev = (dev_t)dev;
		heir_ino = (ino_t)ino;
	} else if (stat(heir_path, &st) == 0) {
		heir_dev = st.st_dev;
		heir_ino = st.st_ino;
	} else {
		heir_path[0] = '\0';
	}
}

static int heir_own_var(const char *e)
{
	static const char *const names[] = { HEIR_ENV_HEIR "=", HEIR_ENV_SERVER "=",
					     HEIR_ENV_SOCKET "=" };

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strncmp(e, names[i], strlen(names[i])) == 0)
			return 1;
	return 0;
}

/* The environment a successor gets: this one, marked as a successor's,
 * with the socket file, and (with_server) the process to outlive. */
static char **heir_environment(int with_server)
{
	size_t n = 0, k = 0;
	char **envp, buf[96];

	while (environ[n])
		n++;
	envp = xcalloc(n + 4, sizeof *envp);
	for (size_t i = 0; i < n; i++)
		if (!heir_own_var(environ[i]))
			envp[k++] = environ[i];
	envp[k++] = HEIR_ENV_HEIR "=1";
	if (with_server) {
		snprintf(buf, sizeof buf, HEIR_ENV_SERVER "=%ld", (long)heir_server);
		envp[k++] = xstrdup(buf);
	}
	if (heir_path[0]) {
		snprintf(buf, sizeof buf, HEIR_ENV_SOCKET "=%llu:%llu",
			 (unsigned long long)heir_dev, (unsigned long long)heir_ino);
		envp[k++] = xstrdup(buf);
	}
	envp[k] = NULL;
	return envp;
}

int heir_prepare(char **argv, int listen_fd)
{
	int p[2];

	heir_argv = argv;
	heir_origin(listen_fd);
	heir_envp[0] = heir_environment(0);
	heir_envp[1] = heir_server > 1 ? heir_environment(1) : heir_envp[0];
	if (pipe2(p, O_CLOEXEC | O_NONBLOCK) < 0 || write(p[1], "h", 1) != 1) {
		log_error("cannot prepare a successor for the prefork parent: %s", strerror(errno));
		return -1;
	}
	close(p[1]);
	heir_token = p[0];
	return 0;
}

int heir_claim(void)
{
	char c;

	return heir_token >= 0 && read(heir_token, &c, 1) == 1;
}

void heir_take_over(void)
{
	static const char msg[] = "aivista: the prefork parent died: this worker takes its place\n";
	sigset_t none;

	if (write(2, msg, sizeof msg - 1) < 0) {
		/* the log is gone: carry on */
	}
	/* The new image would keep this handler's mask (the signal blocked). */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	/* The web server is watched only if it is still there (spawn-fcgi,
	 * say, left long ago: then nothing is). */
	execve("/proc/self/exe", heir_argv,
	       heir_envp[heir_server > 1 && (kill(heir_server, 0) == 0 || errno == EPERM)]);
	_exit(1);
}

int heir_orphaned(void)
{
	struct stat st;

	if (!heir_successor)
		return 0;	/* the first parent lives as long as it is left to */
	if (heir_server > 1 && kill(heir_server, 0) < 0 && errno == ESRCH) {
		log_info("the web server (pid %ld) has gone: stopping", (long)heir_server);
		return 1;
	}
	if (heir_path[0] &&
	    (stat(heir_path, &st) < 0 || st.st_dev != heir_dev || st.st_ino != heir_ino)) {
		log_info("%s is no longer this pool's socket: stopping", heir_path);
		return 1;
	}
	return 0;
}
