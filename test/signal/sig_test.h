/*
 * Helpers shared by the signal suites: status assertions that print both
 * values, runtime setup, a clock in ns, the calling thread's CPU time and
 * the process's thread count.
 */
#ifndef HSALITE_SIG_TEST_H
#define HSALITE_SIG_TEST_H

#include <check.h>
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "hsa/amd_hsa_signal.h"
#include "hsa/hsa.h"
#include "hsa/hsa_ext_amd.h"
#include "hl_hsa.h"

#define ck_value(expr, expected)                                               \
	do {                                                                   \
		long long v_ = (long long)(expr);                              \
		long long e_ = (long long)(expected);                          \
		ck_assert_msg(v_ == e_, "%s: got %lld, expected %lld", #expr,  \
			      v_, e_);                                         \
	} while (0)

static inline uint64_t sig_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* CPU time (user + system) of the calling thread, in ns. */
static inline uint64_t sig_thread_cpu_ns(void)
{
	struct rusage ru;
	getrusage(RUSAGE_THREAD, &ru);
	return (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000ull +
	       (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ull;
}

/* Threads of this process (entries of /proc/self/task). */
static inline int sig_thread_count(void)
{
	DIR *d = opendir("/proc/self/task");
	int n = 0;
	if (!d)
		return -1;
	for (struct dirent *e; (e = readdir(d));)
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

/* Threads of this process named name (/proc/self/task/N/comm). */
static inline int sig_threads_named(const char *name)
{
	DIR *d = opendir("/proc/self/task");
	int n = 0;
	if (!d)
		return -1;
	for (struct dirent *e; (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		char path[300], comm[64] = { 0 };
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", e->d_name);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f)) {
			comm[strcspn(comm, "\n")] = 0;
			n += strcmp(comm, name) == 0;
		}
		fclose(f);
	}
	closedir(d);
	return n;
}

/* The tid of the first thread named name, or 0. */
static inline int sig_thread_named(const char *name)
{
	DIR *d = opendir("/proc/self/task");
	int tid = 0;
	if (!d)
		return 0;
	for (struct dirent *e; !tid && (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		char path[300], comm[64] = { 0 };
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", e->d_name);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f)) {
			comm[strcspn(comm, "\n")] = 0;
			if (!strcmp(comm, name))
				tid = atoi(e->d_name);
		}
		fclose(f);
	}
	closedir(d);
	return tid;
}

/* The async service thread's name (src/signal/async.c). */
#define SIG_SERVICE_THREAD "hl-signal-async"

/* CPU time of any thread of this process by its tid, in ns: the kernel's
 * per-thread CPU clock id, as glibc's pthread_getcpuclockid builds it
 * ((~tid << 3) | CPUCLOCK_PERTHREAD_MASK | CPUCLOCK_SCHED). */
static inline uint64_t sig_tid_cpu_ns(int tid)
{
	struct timespec ts = { 0, 0 };
	clockid_t id = (clockid_t)((~(unsigned)tid << 3) | 6);
	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline amd_signal_t *sig_amd(hsa_signal_t s)
{
	return (amd_signal_t *)(uintptr_t)s.handle;
}

static inline hsa_signal_t sig_create(hsa_signal_value_t v)
{
	hsa_signal_t s = { 0 };
	ck_status(hsa_signal_create(v, 0, NULL, &s), HSA_STATUS_SUCCESS);
	return s;
}

#endif
