/*
 * rusage - run a command and report its wall time and peak memory.
 *
 *	rusage CMD [ARGS...]
 *
 * Runs CMD (looked up in PATH), waits for it with wait4(), then prints one
 * line on stderr:
 *
 *	rusage: wall=SECONDS maxrss_kib=N status=S cpu=SECONDS
 *
 * cpu is the child's user plus system time, over all of its threads.
 * S is the exit status, or 128+signal when the child was killed.  rusage
 * exits with S.  It exits 127 when CMD cannot be run and 126 on usage or
 * system errors.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* wait4 */
#endif
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* User plus system time of a finished child, in seconds. */
static double cpu_seconds(const struct rusage *ru)
{
	return (double)ru->ru_utime.tv_sec + (double)ru->ru_utime.tv_usec / 1e6 +
	       (double)ru->ru_stime.tv_sec + (double)ru->ru_stime.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	struct rusage ru;
	double start, wall;
	pid_t pid, got;
	int wstatus, status;

	if (argc < 2) {
		fprintf(stderr, "usage: rusage CMD [ARGS...]\n");
		return 126;
	}
	fflush(NULL);
	start = now();
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "rusage: fork: %s\n", strerror(errno));
		return 126;
	}
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		fprintf(stderr, "rusage: cannot run '%s': %s\n", argv[1],
			strerror(errno));
		_exit(127);
	}
	/* The child's fate is what we report: ignore ^C here, let it die. */
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	do {
		got = wait4(pid, &wstatus, 0, &ru);
	} while (got < 0 && errno == EINTR);
	wall = now() - start;
	if (got < 0) {
		fprintf(stderr, "rusage: wait4: %s\n", strerror(errno));
		return 126;
	}
	if (WIFEXITED(wstatus))
		status = WEXITSTATUS(wstatus);
	else if (WIFSIGNALED(wstatus))
		status = 128 + WTERMSIG(wstatus);
	else
		status = 126;
	fprintf(stderr, "rusage: wall=%.3f maxrss_kib=%ld status=%d cpu=%.3f\n",
		wall, ru.ru_maxrss, status, cpu_seconds(&ru));
	return status;
}
