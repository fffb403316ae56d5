/*
 * parallel.c - two independent pieces of work at once (parallel.h).
 */
#include "hlodiff/parallel.h"

#include <pthread.h>

void hd_run_two(void *(*here)(void *), void *a, void *(*there)(void *),
		void *b, int parallel)
{
	pthread_t th;
	int threaded = parallel && pthread_create(&th, NULL, there, b) == 0;

	here(a);
	if (threaded)
		pthread_join(th, NULL);
	else
		there(b);
}
