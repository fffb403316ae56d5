/*
 * parallel.c - work on more than one thread: two pieces at once, or a
 * loop over a pool (parallel.h).
 */
#include "hlodiff/parallel.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "hlodiff/arena.h"

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

struct pool {
	pthread_mutex_t lock;
	size_t next, n;
	void (*fn)(void *ctx, size_t i);
	void *ctx;
};

static void *pool_worker(void *arg)
{
	struct pool *p = arg;

	for (;;) {
		size_t i;

		pthread_mutex_lock(&p->lock);
		i = p->next < p->n ? p->next++ : p->n;
		pthread_mutex_unlock(&p->lock);
		if (i == p->n)
			return NULL;
		p->fn(p->ctx, i);
	}
}

void hd_parallel_for(size_t n, int jobs, void (*fn)(void *ctx, size_t i),
		     void *ctx)
{
	struct pool p;
	pthread_t *th;
	size_t t, nt = jobs < 1 ? 1 : (size_t)jobs, started = 0;

	if (nt > n)
		nt = n;
	if (nt <= 1) {
		for (t = 0; t < n; t++)
			fn(ctx, t);
		return;
	}
	p.next = 0;
	p.n = n;
	p.fn = fn;
	p.ctx = ctx;
	pthread_mutex_init(&p.lock, NULL);
	th = hd_xcalloc(nt, sizeof(*th));
	for (t = 0; t < nt; t++)
		if (pthread_create(&th[t], NULL, pool_worker, &p) == 0)
			started++;
		else
			break;
	if (started == 0)
		pool_worker(&p);
	for (t = 0; t < started; t++)
		pthread_join(th[t], NULL);
	free(th);
	pthread_mutex_destroy(&p.lock);
}

int hd_online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > 256 ? 256 : (int)n;
}
