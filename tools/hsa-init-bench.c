/*
 * hsa-init-bench: what hsa_init costs.  Measures N hsa_init + hsa_shut_down
 * pairs in one process (wall time of each pair and of hsa_init alone, min
 * and median), and after one hsa_init the threads the runtime started
 * (/proc/self/task) and the resident memory it added (VmRSS).  It uses only
 * the standard HSA API, so the same binary compares us with ROCr:
 *
 *   kfdemu --preset mi210 -- hsa-init-bench [N]
 *   LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu kfdemu --preset mi210 -- hsa-init-bench [N]
 *
 * The library actually loaded is printed first.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hsa/hsa.h"

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int thread_count(void)
{
	DIR *d = opendir("/proc/self/task");
	if (!d)
		return -1;
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

static long rss_kib(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	if (!f)
		return -1;
	char line[256];
	long kib = -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmRSS: %ld kB", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void report(const char *what, double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	printf("%-26s min %8.3f ms   p50 %8.3f ms   max %8.3f ms\n", what, v[0], v[n / 2],
	       v[n - 1]);
}

int main(int argc, char **argv)
{
	int runs = argc > 1 ? atoi(argv[1]) : 20;
	if (runs < 1 || runs > 100000) {
		fprintf(stderr, "usage: %s [runs (1..100000)]\n", argv[0]);
		return 2;
	}
	Dl_info info;
	if (dladdr((void *)hsa_init, &info) && info.dli_fname)
		printf("library: %s\n", info.dli_fname);

	int threads_before = thread_count();
	long rss_before = rss_kib();
	double t0 = now_ms();
	hsa_status_t s = hsa_init();
	double first = now_ms() - t0;
	if (s != HSA_STATUS_SUCCESS) {
		const char *msg = "?";
		hsa_status_string(s, &msg);
		fprintf(stderr, "hsa_init failed: %#x %s\n", (unsigned)s, msg);
		return 1;
	}
	int threads_after = thread_count();
	long rss_after = rss_kib();
	hsa_shut_down();
	printf("first hsa_init:            %8.3f ms\n", first);
	printf("threads after hsa_init:    %d (before: %d, started: %d)\n", threads_after,
	       threads_before, threads_after - threads_before);
	printf("RSS added by hsa_init:     %ld KiB\n", rss_after - rss_before);

	double *pair = calloc((size_t)runs, sizeof(double));
	double *init = calloc((size_t)runs, sizeof(double));
	if (!pair || !init)
		return 1;
	for (int i = 0; i < runs; i++) {
		double a = now_ms();
		s = hsa_init();
		double b = now_ms();
		if (s != HSA_STATUS_SUCCESS) {
			fprintf(stderr, "hsa_init failed on run %d: %#x\n", i, (unsigned)s);
			return 1;
		}
		hsa_shut_down();
		double c = now_ms();
		init[i] = b - a;
		pair[i] = c - a;
	}
	printf("runs: %d\n", runs);
	report("hsa_init:", init, runs);
	report("hsa_init + hsa_shut_down:", pair, runs);
	free(pair);
	free(init);
	return 0;
}
