/*
 * parallel.h - two independent pieces of work at once.
 */
#ifndef HLODIFF_PARALLEL_H
#define HLODIFF_PARALLEL_H

/*
 * Runs there(b) on a second thread and here(a) on this one, and returns
 * when both are done.  When parallel is 0, or no thread can be started,
 * runs here(a) and then there(b) on this thread.  The two must not write
 * anything the other reads; the result is then the same either way.
 */
void hd_run_two(void *(*here)(void *), void *a, void *(*there)(void *),
		void *b, int parallel);

#endif
