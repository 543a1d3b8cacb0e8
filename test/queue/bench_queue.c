/*
 * bench-queue: what a queue costs.  Prints, in one run, the time of
 * hsa_queue_create + hsa_queue_destroy (min and median of N pairs, 4096
 * packets, and the first queue of the process separately: it maps the
 * doorbells), the threads present with one queue, and the submission-side
 * cost per packet without a CP (write-index reservation plus doorbell
 * store, one thread).  Standard HSA API only, so the same binary measures
 * ROCr:
 *
 *   kfdemu --preset mi210 -- bench-queue [N]
 *   LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu kfdemu --preset mi210 -- bench-queue [N]
 *
 * A tool, not a test (STYLE.md §12): nothing here can fail a build.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "hsa/hsa.h"

static double now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static int thread_count(void)
{
	DIR *d = opendir("/proc/self/task");
	int n = 0;
	for (struct dirent *e; d && (e = readdir(d));)
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

static hsa_status_t find_gpu(hsa_agent_t agent, void *data)
{
	hsa_device_type_t type;
	hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type);
	if (type == HSA_DEVICE_TYPE_GPU && !((hsa_agent_t *)data)->handle)
		*(hsa_agent_t *)data = agent;
	return HSA_STATUS_SUCCESS;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 50;
	if (n < 1)
		n = 1;
	Dl_info info;
	if (dladdr((void *)hsa_queue_create, &info))
		printf("library: %s\n", info.dli_fname);
	if (hsa_init() != HSA_STATUS_SUCCESS) {
		fprintf(stderr, "hsa_init failed\n");
		return 1;
	}
	hsa_agent_t gpu = { 0 };
	hsa_iterate_agents(find_gpu, &gpu);
	if (!gpu.handle) {
		fprintf(stderr, "no GPU agent\n");
		return 1;
	}
	int threads0 = thread_count();
	hsa_queue_t *q;
	double t0 = now_us();
	if (hsa_queue_create(gpu, 4096, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX,
			     &q) != HSA_STATUS_SUCCESS) {
		fprintf(stderr, "hsa_queue_create failed\n");
		return 1;
	}
	double first = now_us() - t0;
	int threads1 = thread_count();

	double *t = calloc((size_t)n, sizeof(double));
	for (int i = 0; i < n; i++) {
		hsa_queue_t *r;
		double a = now_us();
		if (hsa_queue_create(gpu, 4096, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
				     UINT32_MAX, &r) != HSA_STATUS_SUCCESS) {
			fprintf(stderr, "hsa_queue_create failed at %d\n", i);
			return 1;
		}
		hsa_queue_destroy(r);
		t[i] = now_us() - a;
	}
	qsort(t, (size_t)n, sizeof(double), cmp_double);

	enum { SUBMITS = 1000000 };
	double s0 = now_us();
	for (int i = 0; i < SUBMITS; i++) {
		uint64_t idx = hsa_queue_add_write_index_screlease(q, 1);
		hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)idx);
	}
	double per = (now_us() - s0) * 1e3 / SUBMITS;

	printf("first queue create: %.1f us\n", first);
	printf("create+destroy (4096 packets): min %.1f us, median %.1f us over %d\n", t[0],
	       t[n / 2], n);
	printf("threads: %d before the first queue, %d with it\n", threads0, threads1);
	printf("reserve + doorbell, one thread, no CP: %.1f ns per packet\n", per);
	hsa_queue_destroy(q);
	hsa_shut_down();
	free(t);
	return 0;
}
