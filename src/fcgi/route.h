/* A static route table: method + path pattern, where '*' stands for one
 * path segment that is captured (URL-decoded) into req->captures. */
#ifndef AV_ROUTE_H
#define AV_ROUTE_H
#include <stddef.h>
#include "fcgi/problem.h"

struct req;

struct route {
	const char *method;
	const char *pattern;
	enum problem (*handler)(struct req *r);
};

/* The matching route, or NULL with *why = PB_NOT_FOUND (no such path) or
 * PB_METHOD (the path exists for other methods). Fills the captures. */
const struct route *route_match(const struct route *table, size_t n, struct req *r,
				enum problem *why);

#endif
