/* aivista.fcgi: the FastCGI worker. */
#include "config.h"
#include "worker.h"

int main(int argc, char **argv)
{
	return worker_main(argc, argv);
}
