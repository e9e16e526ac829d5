/* Places shared by the processes of one host: at most N taken, one given
 * back is free again, and so is one whose holder died without giving it
 * back (another process, killed). */
#include "config.h"
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tap.h"
#include "util/hostslot.h"

#define MAX_PLACES 2

enum step_op { TAKE, GIVE, CHILD_TAKES, CHILD_DIES };

struct step {
	const char *name;
	enum step_op op;
	int arg;   /* GIVE: which place held by this process */
	int want;  /* TAKE: hostslot_take's answer */
};

static const struct step steps[] = {
	{ "the first place", TAKE, 0, 0 },
	{ "another process takes the second", CHILD_TAKES, 0, 0 },
	{ "a third while both are held", TAKE, 0, 1 },
	{ "the holder is killed", CHILD_DIES, 0, 0 },
	{ "its place is free again", TAKE, 0, 0 },
	{ "full again", TAKE, 0, 1 },
	{ "one given back", GIVE, 0, 0 },
	{ "that one is taken again", TAKE, 0, 0 },
};

struct state {
	const char *path;
	int fds[8];
	int nfds;
	pid_t child;
};

/* A process that takes a place, says so on the pipe and waits to be killed. */
static pid_t child_take(const char *path)
{
	int p[2], fd;
	char c = 0;
	pid_t pid;

	if (pipe(p) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		c = hostslot_take(path, MAX_PLACES, &fd) == 0 ? 'y' : 'n';
		if (write(p[1], &c, 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(p[1]);
	if (pid < 0 || read(p[0], &c, 1) != 1 || c != 'y')
		pid = -1;
	close(p[0]);
	return pid;
}

static void run_step(struct state *st, const struct step *s)
{
	int fd = -1, status;

	switch (s->op) {
	case TAKE:
		is_int(hostslot_take(st->path, MAX_PLACES, &fd), s->want, "%s", s->name);
		ok((fd >= 0) == (s->want == 0), "%s: a descriptor only when taken", s->name);
		if (fd >= 0)
			st->fds[st->nfds++] = fd;
		break;
	case GIVE:
		hostslot_give(&st->fds[s->arg]);
		is_int(st->fds[s->arg], -1, "%s: the descriptor is let go", s->name);
		break;
	case CHILD_TAKES:
		st->child = child_take(st->path);
		ok(st->child > 0, "%s", s->name);
		break;
	case CHILD_DIES:
		kill(st->child, SIGKILL);
		ok(waitpid(st->child, &status, 0) == st->child, "%s", s->name);
		break;
	}
}

int main(void)
{
	char dir[] = "/tmp/t_hostslot.XXXXXX", path[256];
	struct state st = { path, { 0 }, 0, 0 };
	int fd = 7;

	if (mkdtemp(dir) == NULL)
		return 99;
	snprintf(path, sizeof path, "%s/places.lock", dir);
	for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
		run_step(&st, &steps[i]);
	for (int i = 0; i < st.nfds; i++)
		hostslot_give(&st.fds[i]);
	is_int(hostslot_take(path, MAX_PLACES, &fd), 0, "all given back: free");
	hostslot_give(&fd);
	hostslot_give(&fd);
	is_int(fd, -1, "giving back twice does nothing");

	snprintf(path, sizeof path, "%s/missing/places.lock", dir);
	fd = 7;
	is_int(hostslot_take(path, MAX_PLACES, &fd), -1, "a file that cannot be made: an error");
	ok(fd == -1 && errno == ENOENT, "... no descriptor, errno says why");

	snprintf(path, sizeof path, "%s/places.lock", dir);
	unlink(path);
	rmdir(dir);
	return tap_done();
}
