/* The HTTP API under /api/: one handler per endpoint, collected in the
 * route table of dispatch.c. */
#ifndef AV_API_H
#define AV_API_H
#include "fcgi/problem.h"

struct req;

/* Answers one request: routes it, runs the handler, reports a failure
 * once. Never exits. */
void api_dispatch(struct req *r);

enum problem api_health(struct req *r);

#endif
