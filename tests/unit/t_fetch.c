/* The URL fetcher's address rules, and URLs refused before any connection
 * is made (no network is needed: every case here is refused at the check). */
#include "config.h"
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include "tap.h"
#include "conf/conf.h"
#include "media/fetch.h"

struct addr_case {
	const char *addr;
	int public_;
};

static const struct addr_case addrs[] = {
	{ "127.0.0.1", 0 }, { "127.255.0.9", 0 }, { "10.0.0.1", 0 }, { "10.255.255.255", 0 },
	{ "172.16.0.1", 0 }, { "172.31.255.1", 0 }, { "192.168.1.1", 0 }, { "169.254.169.254", 0 },
	{ "169.254.0.1", 0 }, { "100.64.0.1", 0 }, { "0.0.0.0", 0 }, { "224.0.0.1", 0 },
	{ "255.255.255.255", 0 }, { "192.0.2.7", 0 }, { "198.18.0.1", 0 },
	{ "::1", 0 }, { "::", 0 }, { "fe80::1", 0 }, { "fc00::1", 0 }, { "fd12:3456::1", 0 },
	{ "ff02::1", 0 }, { "::ffff:127.0.0.1", 0 }, { "::ffff:10.1.2.3", 0 },
	{ "::ffff:169.254.169.254", 0 }, { "64:ff9b::a9fe:a9fe", 0 }, { "2001:db8::1", 0 },
	{ "::127.0.0.1", 0 }, { "::10.0.0.1", 0 }, { "::8.8.8.8", 0 }, { "::2", 0 },
	{ "fec0::1", 0 }, { "feff:ffff::1", 0 }, { "2002:7f00:1::1", 0 }, { "2002:a9fe:a9fe::", 0 },
	{ "2002:808:808::1", 1 }, { "2a00:1450::1", 1 },
	{ "8.8.8.8", 1 }, { "1.1.1.1", 1 }, { "172.32.0.1", 1 }, { "172.15.255.255", 1 },
	{ "11.0.0.1", 1 }, { "2606:4700::1111", 1 }, { "::ffff:8.8.8.8", 1 },
};

struct url_case {
	const char *url;
	const char *why; /* a word the error must contain */
};

static const struct url_case urls[] = {
	{ "file:///etc/passwd", "only http and https" },
	{ "ftp://example.com/a.png", "only http and https" },
	{ "gopher://127.0.0.1/", "only http and https" },
	{ "http://127.0.0.1/a.png", "not public" },
	{ "http://127.1/a.png", "not public" },
	{ "http://2130706433/a.png", "" },  /* refused either way: not a URL to curl, or 127.0.0.1 */
	{ "http://[::1]/a.png", "not public" },
	{ "http://[::ffff:127.0.0.1]/a.png", "not public" },
	{ "http://10.0.0.1/a.png", "not public" },
	{ "http://169.254.169.254/latest/meta-data/", "not public" },
	{ "http://0.0.0.0:8080/", "not public" },
	{ "http://localhost/a.png", "not public" },
	{ "https://192.168.0.10/a.png", "not public" },
	{ "not a url", "not a URL" },
	{ "", "not a URL" },
};

int main(void)
{
	struct conf c;

	for (size_t i = 0; i < sizeof addrs / sizeof addrs[0]; i++) {
		struct sockaddr_in v4 = { .sin_family = AF_INET };
		struct sockaddr_in6 v6 = { .sin6_family = AF_INET6 };
		const struct sockaddr *sa;

		if (inet_pton(AF_INET, addrs[i].addr, &v4.sin_addr) == 1)
			sa = (const struct sockaddr *)&v4;
		else if (inet_pton(AF_INET6, addrs[i].addr, &v6.sin6_addr) == 1)
			sa = (const struct sockaddr *)&v6;
		else {
			ok(0, "%s parses", addrs[i].addr);
			continue;
		}
		is_int(fetch_addr_public(sa), addrs[i].public_, "%s is %s", addrs[i].addr,
		       addrs[i].public_ ? "public" : "not public");
	}
	conf_init(&c);
	for (size_t i = 0; i < sizeof urls / sizeof urls[0]; i++) {
		struct fetch_result r;
		int rc = fetch_image(&c, urls[i].url, &r);

		is_int(rc, -1, "refused: %s", urls[i].url);
		ok(strstr(r.error, urls[i].why) != NULL, "  because: %s", r.error);
		fetch_result_free(&r);
	}
	conf_free(&c);
	return tap_done();
}
