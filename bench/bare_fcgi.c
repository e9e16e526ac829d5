/* The floor of the HTTP benchmarks: a FastCGI responder that does nothing
 * but answer, run under the same web server, so the product's rates can
 * be read as a ratio of what the server and libfcgi allow here. */
#include "config.h"
#include <fcgiapp.h>
#include <signal.h>

int main(void)
{
	FCGX_Request r;

	signal(SIGPIPE, SIG_IGN);
	if (FCGX_Init() != 0 || FCGX_InitRequest(&r, 0, 0) != 0)
		return 1;
	while (FCGX_Accept_r(&r) >= 0) {
		FCGX_PutS("Status: 200 OK\r\nContent-Type: application/json\r\n\r\n{\"ok\":true}\n", r.out);
		FCGX_Finish_r(&r);
	}
	return 0;
}
