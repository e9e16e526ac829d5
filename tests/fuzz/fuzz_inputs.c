/* Data that comes from outside: image data (data URLs, base64), model
 * replies (JSON in prose or fences; streamed replies cut anywhere) and
 * configuration text. Nothing may crash or leak. */
#include "config.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "media/imgin.h"
#include "prov/prov.h"
#include "prov/sse_delta.h"
#include "util/buf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	struct imgin im;
	struct sse_delta sd;
	struct prov_answer a;
	struct conf c;
	struct buf errs;
	json_t *j;
	size_t cut = size ? data[0] % (size + 1) : 0;

	memcpy(s, data, size);
	s[size] = '\0';
	imgin_decode(s, 1 << 16, &im);
	imgin_free(&im);
	j = prov_json_from_text(s);
	if (j && !json_is_object(j))
		abort();
	json_decref(j);
	prov_answer_init(&a);
	sse_delta_init(&sd, 1 << 16, NULL, NULL);
	if (sse_delta_feed(&sd, s, cut, &a) == 0 && sse_delta_feed(&sd, s + cut, size - cut, &a) == 0)
		sse_delta_finish(&sd, &a);
	sse_delta_free(&sd);
	prov_answer_free(&a);
	conf_init(&c);
	buf_init(&errs, 1 << 16);
	conf_load_string(&c, s, "fuzz.conf", &errs);
	buf_free(&errs);
	conf_free(&c);
	free(s);
	return 0;
}
