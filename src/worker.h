/* The worker's entry point, in the library so that test binaries can
 * register test workflows and then run the very same worker. */
#ifndef AV_WORKER_H
#define AV_WORKER_H

int worker_main(int argc, char **argv);

#endif
