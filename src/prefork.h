/* The prefork parent: one process that holds the listening socket and
 * keeps a fixed number of worker children accepting on it, so requests
 * queued on the socket wait for whichever worker is free, and a worker
 * that dies costs only the request it was serving. */
#ifndef AV_PREFORK_H
#define AV_PREFORK_H

#include <signal.h>

/* Most children a parent runs (-w). */
#define PREFORK_MAX 256

/* The signal a child gets when its parent dies (see heir.h). */
#define PREFORK_PARENT_GONE SIGUSR2

/* Forks n children (1..PREFORK_MAX) and watches them: one that ends is
 * started again, after a pause that grows while children keep dying
 * young. SIGTERM, SIGINT and SIGUSR1 are passed on to every child (each
 * finishes its request and exits); once all are gone the parent returns.
 *
 * Returns in every child with *is_child set to 1 and 0 as value: the child
 * then starts up as a worker of its own (libraries, store). Returns in the
 * parent with *is_child 0 and the parent's exit status. The caller must
 * not have opened the store or anything a child needs fresh. */
int prefork_run(int n, int *is_child);

#endif
