/* libcurl's global state, set up on first use rather than at start-up: a
 * worker that never calls a model service or fetches a URL (the offline
 * provider, answers from the cache) never loads the TLS library's tables,
 * which would otherwise be most of its resident size after its store. The
 * workers are single-threaded; curl_global_init is also thread-safe in the
 * libcurl versions supported. */
#ifndef AV_CURLONCE_H
#define AV_CURLONCE_H

/* 0 once libcurl is initialised (the first call does it), -1 if it could
 * not be (logged). Call before curl_easy_init and curl_multi_init. */
int curlonce_init(void);
/* curl_global_cleanup when curlonce_init succeeded; else nothing. */
void curlonce_cleanup(void);

#endif
