/* The deadline on the worker's writes to the web server (see wtimeout.h). */
#include "config.h"
#include <errno.h>
#include <sys/socket.h>
#include <sys/time.h>
#include "fcgi/wtimeout.h"

int wtimeout_set(int fd, long ms)
{
	struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };

	return setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}

int wtimeout_passed(int err)
{
	return err == EAGAIN || err == EWOULDBLOCK;
}
