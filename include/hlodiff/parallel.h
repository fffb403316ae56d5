/*
 * parallel.h - work on more than one thread: two independent pieces at
 * once, or a loop over a pool of threads.
 */
#ifndef HLODIFF_PARALLEL_H
#define HLODIFF_PARALLEL_H

#include <stddef.h>

/*
 * Runs there(b) on a second thread and here(a) on this one, and returns
 * when both are done.  When parallel is 0, or no thread can be started,
 * runs here(a) and then there(b) on this thread.  The two must not write
 * anything the other reads; the result is then the same either way.
 */
void hd_run_two(void *(*here)(void *), void *a, void *(*there)(void *),
		void *b, int parallel);

/*
 * Calls fn(ctx, i) for i in [0, n) on up to jobs threads (jobs <= 1 or
 * n <= 1: on this thread).  fn must be safe to run concurrently for
 * different i.
 */
void hd_parallel_for(size_t n, int jobs, void (*fn)(void *ctx, size_t i),
		     void *ctx);

/* Online processors (>= 1). */
int hd_online_cpus(void);

#endif
