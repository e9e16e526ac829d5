/* The request layer on arbitrary input: the first bytes (up to a NUL)
 * are the request URI, the next up to another NUL the Content-Length,
 * the rest the body. Nothing may crash, leak or read out of bounds. */
#include "config.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz.h"
#include "fcgi/req.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct conf conf;
	static int ready;
	char uri[600], cl[64], *envp[5];
	const char *p = (const char *)data, *end = p + size, *body;
	struct fuzz_io io;
	struct req r;
	json_t *j = NULL;
	char detail[256], *v;

	if (!ready) {
		conf_init(&conf);
		conf.max_body_bytes = 1 << 16;
		conf.json_max_depth = 16;
		ready = 1;
	}
	fuzz_take(&p, end, uri + 12, sizeof uri - 12);
	memcpy(uri, "REQUEST_URI=", 12);
	fuzz_take(&p, end, cl + 15, sizeof cl - 15);
	memcpy(cl, "CONTENT_LENGTH=", 15);
	body = p;
	envp[0] = "REQUEST_METHOD=POST";
	envp[1] = uri;
	envp[2] = cl;
	envp[3] = "CONTENT_TYPE=application/json";
	envp[4] = NULL;
	fuzz_io_init(&io, body, (size_t)(end - body));
	if (req_init(&r, &conf, envp, fuzz_in(&io), fuzz_out(&io)) == PB_OK) {
		req_body_json(&r, &j, detail, sizeof detail);
		json_decref(j);
		v = req_query_get(&r, "threadId");
		free(v);
	}
	req_free(&r);
	fuzz_io_free(&io);
	return 0;
}
