/* When a prefork parent dies (killed, say), its workers still hold the
 * shared socket, so a web server that spawned the parent (lighttpd
 * bin-path) connects to it, finds it answering, takes it for a socket
 * someone else serves and never spawns a parent again. So one worker
 * takes the dead parent's place: it claims a one-byte token (only one
 * can), finishes its request and executes itself as the parent, keeping
 * the socket open throughout; the others finish their requests and exit,
 * and the new parent starts fresh workers. A successor watches what the
 * first parent was started by, if it was still there at the takeover (a
 * web server; not spawn-fcgi, which leaves at once): it stops when that
 * process has gone, or when the socket's path names another socket (the
 * web server made a new one), so no pool is left behind. The first
 * parent watches nothing: it runs until it is told to stop. */
#ifndef AV_HEIR_H
#define AV_HEIR_H

/* In the parent, before the first fork: the token, and the command line
 * and environment a successor runs with. 0, or -1 (no successor then). */
int heir_prepare(char **argv, int listen_fd);

/* In a worker whose parent died; async-signal-safe. 1 for the one worker
 * that takes over, 0 for the others. */
int heir_claim(void);

/* Executes the parent's command line in this process, the listening
 * socket kept (fd 0 or the -l socket); async-signal-safe. Does not return. */
void heir_take_over(void);

/* In the parent, now and then: 1 when a successor should stop (see above). */
int heir_orphaned(void);

#endif
