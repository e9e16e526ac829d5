/* The test worker: the product's worker with the test workflow added. */
#include "config.h"
#include "engine/graph.h"
#include "worker.h"

extern const struct workflow wf_test;

int main(int argc, char **argv)
{
	wf_register(&wf_test);
	return worker_main(argc, argv);
}
