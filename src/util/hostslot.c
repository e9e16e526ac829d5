/* Places shared by the processes of one host (see hostslot.h). */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "util/hostslot.h"

/* 0: byte i locked through fd; 1: another holds it; -1: error. */
static int hostslot_lock(int fd, long i)
{
	struct flock fl;

	memset(&fl, 0, sizeof fl);
	fl.l_type = F_WRLCK;
	fl.l_whence = SEEK_SET;
	fl.l_start = i;
	fl.l_len = 1;
	if (fcntl(fd, F_OFD_SETLK, &fl) == 0)
		return 0;
	return errno == EAGAIN || errno == EACCES ? 1 : -1;
}

int hostslot_take(const char *path, long max, int *fd)
{
	int f = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0660), rc = 1;

	*fd = -1;
	if (f < 0)
		return -1;
	for (long i = 0; i < max && rc == 1; i++)
		rc = hostslot_lock(f, i);
	if (rc != 0) {
		int e = errno;

		close(f);
		errno = e;
		return rc;
	}
	*fd = f;
	return 0;
}

void hostslot_give(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}
