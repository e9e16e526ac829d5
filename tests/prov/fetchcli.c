/* fetchcli: the URL fetcher and image loading from the command line, for
 * the integration tests: prints one JSON line with the outcome. */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include <curl/curl.h>
#include <jansson.h>
#include <sodium.h>
#include "conf/conf.h"
#include "wf/builtin.h"
#include "media/fetch.h"
#include "media/imgin.h"

int main(int argc, char **argv)
{
	struct conf c;
	struct buf errs;
	struct imgin im;
	unsigned char h[crypto_hash_sha256_BYTES];
	char hex[sizeof h * 2 + 1] = "";
	json_t *j;
	int rc;

	if (argc != 4 || strcmp(argv[1], "-c") != 0) {
		fprintf(stderr, "usage: fetchcli -c CONF URL\n");
		return 2;
	}
	if (sodium_init() < 0 || curl_global_init(CURL_GLOBAL_DEFAULT) != 0)
		return 1;
	/* The workflows' [workflow.*] sections are known. */
	wf_builtin_register();
	conf_init(&c);
	buf_init(&errs, 1 << 16);
	if (conf_load(&c, argv[2], &errs) < 0) {
		fprintf(stderr, "%s", errs.data);
		return 1;
	}
	rc = imgin_load(NULL, &c, argv[3], (size_t)c.fetch_max_bytes, &im);
	if (rc == 0) {
		crypto_hash_sha256(h, im.data, im.len);
		sodium_bin2hex(hex, sizeof hex, h, sizeof h);
	}
	j = json_pack("{s:b, s:s, s:I, s:s, s:s}", "ok", rc == 0, "mime", im.mime, "len",
		      (json_int_t)im.len, "sha256", hex, "error", im.error);
	json_dumpf(j, stdout, JSON_COMPACT);
	putchar('\n');
	json_decref(j);
	imgin_free(&im);
	buf_free(&errs);
	conf_free(&c);
	curl_global_cleanup();
	return 0;
}
