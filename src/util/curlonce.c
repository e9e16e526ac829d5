/* libcurl initialised on first use (see curlonce.h). */
#include "config.h"
#include <curl/curl.h>
#include "util/curlonce.h"
#include "util/log.h"

static int curlonce_state; /* 0: not yet, 1: done, -1: failed */

int curlonce_init(void)
{
	if (curlonce_state == 0) {
		curlonce_state = curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK ? 1 : -1;
		if (curlonce_state < 0)
			log_error("libcurl initialisation failed");
	}
	return curlonce_state > 0 ? 0 : -1;
}

void curlonce_cleanup(void)
{
	if (curlonce_state > 0)
		curl_global_cleanup();
	curlonce_state = 0;
}
