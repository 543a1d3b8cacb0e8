/*
 * kfdemu-isa-bench — speed of kfdemu's instruction interpreter on one host
 * thread: wave-instructions per second for the OpenCL corpus kernels and
 * for a 2^24-element float vector add, and the vector add's time against
 * the same loop compiled natively for the host, measured in one run.
 *
 * Usage: kfdemu-isa-bench [gfx90a|gfx942] [log2 n (default 24)]
 * BENCH_ONLY=<kernel> runs one corpus kernel (for profiling);
 * BENCH_REPEAT=<k> runs each timed corpus kernel k times and reports its
 * fastest run (default 1: the second run, as before), BENCH_POOL=0 skips
 * the worker-pool table.
 * Times are this thread's CPU time (shared machines), after a first run
 * that decodes the kernel (the decode is cached).  The pool
 * table is wall time (its threads run at once) and process CPU time (the
 * pool's overhead, meaningful on a loaded host too): a 256x256 matmul and the
 * vector add of n elements on 1, 2 and 4 host threads taking workgroups
 * from one counter (the harness's pool, as the CP's workers do), with
 * the speed-up over one thread; the host's online CPU count is printed,
 * as more threads than cores cannot scale.
 * Kernels come from the build tree (ISA_KERNEL_DIR overrides).  This is a
 * tool, not a test: it prints figures and never fails on them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "isa_harness.h"

/* Thread CPU time: the build machines are shared, so wall time would
 * measure the other jobs too. */
static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double wall(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double proc_cpu(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* FNV-1a over every buffer the corpus kernels read and write, printed
 * after each kernel: two builds (or runs with the same BENCH_REPEAT) that
 * print the same hashes computed the same bits. */
#define FNV0 0xcbf29ce484222325ull
static uint64_t fnv(uint64_t h, const void *p, size_t len)
{
	const uint8_t *b = p;
	for (size_t i = 0; i < len; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}

static uint64_t winst(void)
{
	struct kemu_isa_stats s;
	kemu_isa_stats_get(&s);
	return s.wave_instructions;
}

/* The native reference: the same element-wise add, kept out of line so
 * the compiler cannot fold it away. */
__attribute__((noinline)) static void native_vadd(const float *a, const float *b, float *c,
						  uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		c[i] = a[i] + b[i];
}

struct bench {
	const char *kernel;
	uint32_t grid[2];
	uint16_t wg[2];
};

static int run_one(uint32_t gfx, const struct hx_code *code, const char *name, const void *args,
		   size_t asz, uint32_t gx, uint32_t gy, uint16_t wx, uint16_t wy, double *secs,
		   uint64_t *insts)
{
	struct hx_launch l = { .gfx = gfx, .kd = hx_kd(code, name), .args = args, .args_size = asz,
			       .grid = { gx, gy, 1 }, .wg = { wx, wy, 1 } };
	struct kemu_isa_error err;
	uint64_t i0 = winst();
	double t0 = now();
	int rc;

	if (!l.kd) {
		fprintf(stderr, "no kernel %s\n", name);
		return -1;
	}
	rc = hx_run(&l, &err);
	*secs = now() - t0;
	*insts = winst() - i0;
	if (rc)
		fprintf(stderr, "%s: %s: %s\n", name, kemu_isa_error_name(err.kind), err.message);
	return rc;
}

/* One pool row: the kernel on 1, 2 and 4 threads (wall time; 1 thread
 * also in wall time here, so the ratios compare like with like). */
static int pool_row(uint32_t gfx, const struct hx_code *code, const char *label, const char *name,
		    const void *args, size_t asz, uint32_t gx, uint32_t gy, uint16_t wx, uint16_t wy)
{
	static const unsigned nt[] = { 1, 2, 4 };
	double t[3], cpu[3];
	uint64_t insts;

	for (unsigned i = 0; i < 3; i++) {
		double t0 = wall(), c0 = proc_cpu();
		/* 1: the workgroups run on this thread; more: the harness
		 * starts that many workers, each with its own scratch slot */
		struct hx_launch l = { .gfx = gfx, .kd = hx_kd(code, name), .args = args,
				       .args_size = asz, .grid = { gx, gy, 1 }, .wg = { wx, wy, 1 },
				       .threads = nt[i] };
		struct kemu_isa_error err;
		uint64_t i0 = winst();
		if (!l.kd || hx_run(&l, &err)) {
			fprintf(stderr, "%s on %u threads failed\n", name, nt[i]);
			return -1;
		}
		t[i] = wall() - t0;
		cpu[i] = proc_cpu() - c0;
		insts = winst() - i0;
	}
	printf("%-14s %12llu %9.2f %9.2f %9.2f %7.2fx %7.2fx   %9.2f %9.2f %9.2f %6.2f %6.2f\n",
	       label, (unsigned long long)insts, t[0] * 1e3, t[1] * 1e3, t[2] * 1e3, t[0] / t[1],
	       t[0] / t[2], cpu[0] * 1e3, cpu[1] * 1e3, cpu[2] * 1e3, cpu[0] / cpu[1],
	       cpu[0] / cpu[2]);
	return 0;
}

int main(int argc, char **argv)
{
	uint32_t gfx = (argc > 1 && !strcmp(argv[1], "gfx942")) ? KEMU_ISA_GFX942 : KEMU_ISA_GFX90A;
	unsigned lg = argc > 2 ? (unsigned)atoi(argv[2]) : 24;
	uint32_t n = 1u << (lg > 28 ? 28 : lg);
	char path[600];
	struct hx_code code;
	double secs, total_secs = 0;
	uint64_t insts, total_insts = 0;

	if (!hx_kernel_path("corpus", gfx, path, sizeof(path)) || hx_load(&code, path)) {
		fprintf(stderr, "kernels not built (%s)\n", path);
		return 1;
	}
	printf("kfdemu-isa-bench: %s, one host thread\n", gfx == KEMU_ISA_GFX942 ? "gfx942" : "gfx90a");
	printf("%-12s %10s %14s %12s  %s\n", "kernel", "ms", "wave-insts", "M winst/s",
	       "memory hash");

	/* corpus kernels at moderate sizes */
	{
		uint32_t m = 1u << 16;
		float *a = hx_alloc(m * 4), *b = hx_alloc(m * 4), *c = hx_alloc(m * 4);
		uint32_t *u = hx_alloc(m * 4), *bins = hx_alloc(256);
		double *d0 = hx_alloc(m * 8), *d1 = hx_alloc(m * 8);
		for (uint32_t i = 0; i < m; i++) {
			a[i] = (float)(i % 97);
			b[i] = (float)(i % 89);
			u[i] = i * 2654435761u;
			d0[i] = (double)(i % 1000) * 0.5;
		}
		struct { uint64_t a, b, c; uint32_t n; } vargs = { (uintptr_t)a, (uintptr_t)b, (uintptr_t)c, m };
		struct { float s; uint32_t pad; uint64_t x, y; uint32_t n; } sargs = { 2.0f, 0, (uintptr_t)a, (uintptr_t)c, m };
		struct { uint64_t in, out; uint32_t n; } rargs = { (uintptr_t)a, (uintptr_t)c, m };
		struct { uint64_t in, bins; uint32_t n; } hargs = { (uintptr_t)u, (uintptr_t)bins, m };
		struct { uint64_t in, out; uint32_t n; } cargs = { (uintptr_t)u, (uintptr_t)u, m };
		struct { uint64_t in, out; uint32_t n, it; } dargs = { (uintptr_t)d0, (uintptr_t)d1, m / 16, 8 };
		struct { uint64_t a, b, c; uint32_t n; } margs = { (uintptr_t)a, (uintptr_t)b, (uintptr_t)c, 128 };
		struct { uint64_t idx, out; uint32_t n; } pargs = { (uintptr_t)u, (uintptr_t)b, m / 4 };
		struct {
			const char *name; const void *args; size_t asz; uint32_t gx, gy; uint16_t wx, wy;
		} list[] = {
			{ "vadd", &vargs, sizeof(vargs), m, 1, 256, 1 },
			{ "saxpy", &sargs, sizeof(sargs), m, 1, 256, 1 },
			{ "reduce", &rargs, sizeof(rargs), m, 1, 256, 1 },
			{ "histogram", &hargs, sizeof(hargs), m, 1, 256, 1 },
			{ "scan", &cargs, sizeof(cargs), m, 1, 256, 1 },
			{ "dloop", &dargs, sizeof(dargs), m / 16, 1, 64, 1 },
			{ "matmul", &margs, sizeof(margs), 128, 128, 16, 16 },
			{ "privarr", &pargs, sizeof(pargs), m / 4, 1, 64, 1 },
		};
		const char *only = getenv("BENCH_ONLY");
		const char *rep = getenv("BENCH_REPEAT");
		unsigned reps = rep && atoi(rep) > 0 ? (unsigned)atoi(rep) : 1;
		for (unsigned i = 0; i < sizeof(list) / sizeof(list[0]); i++) {
			if (only && strcmp(only, list[i].name))
				continue;
			/* first run decodes the kernel (cached afterwards): not timed */
			if (run_one(gfx, &code, list[i].name, list[i].args, list[i].asz, list[i].gx,
				    list[i].gy, list[i].wx, list[i].wy, &secs, &insts))
				return 1;
			/* fastest of reps runs: another process's burst on a
			 * shared host only ever adds time */
			secs = 1e30;
			for (unsigned r = 0; r < reps; r++) {
				double t;
				if (run_one(gfx, &code, list[i].name, list[i].args, list[i].asz,
					    list[i].gx, list[i].gy, list[i].wx, list[i].wy, &t,
					    &insts))
					return 1;
				secs = t < secs ? t : secs;
			}
			printf("%-12s %10.2f %14llu %12.1f  %016llx\n", list[i].name, secs * 1e3,
			       (unsigned long long)insts, (double)insts / secs / 1e6,
			       (unsigned long long)fnv(fnv(fnv(fnv(fnv(fnv(fnv(FNV0, a, m * 4), b, m * 4),
					c, m * 4), u, m * 4), bins, 256), d0, m * 8), d1, m * 8));
			total_secs += secs;
			total_insts += insts;
		}
		printf("%-12s %10.2f %14llu %12.1f\n", "corpus", total_secs * 1e3,
		       (unsigned long long)total_insts, (double)total_insts / total_secs / 1e6);
		hx_free(a); hx_free(b); hx_free(c); hx_free(u); hx_free(bins); hx_free(d0); hx_free(d1);
	}

	/* the big vector add, and the same loop natively */
	{
		float *a = hx_alloc((size_t)n * 4), *b = hx_alloc((size_t)n * 4), *c = hx_alloc((size_t)n * 4);
		float *ref = malloc((size_t)n * 4);
		struct { uint64_t a, b, c; uint32_t n; } args = { (uintptr_t)a, (uintptr_t)b, (uintptr_t)c, n };
		double tn = 1e9;
		uint32_t bad = 0;

		for (uint32_t i = 0; i < n; i++) {
			a[i] = (float)(i & 1023) * 0.25f;
			b[i] = (float)(i >> 10);
		}
		if (run_one(gfx, &code, "vadd", &args, sizeof(args), n, 1, 256, 1, &secs, &insts))
			return 1;
		for (int r = 0; r < 5; r++) {
			double t0 = now();
			native_vadd(a, b, ref, n);
			if (now() - t0 < tn)
				tn = now() - t0;
		}
		for (uint32_t i = 0; i < n; i++)
			bad += c[i] != ref[i];
		printf("\nvadd n=2^%u: interpreted %.1f ms, %llu wave-insts, %.1f M winst/s, "
		       "%.1f M work-items/s\n", lg, secs * 1e3, (unsigned long long)insts,
		       (double)insts / secs / 1e6, (double)n / secs / 1e6);
		printf("vadd n=2^%u: native %.2f ms; interpreter/native time ratio %.0fx%s\n", lg,
		       tn * 1e3, secs / tn, bad ? " (RESULTS DIFFER)" : "");
		if (!getenv("BENCH_POOL") || atoi(getenv("BENCH_POOL"))) {
			struct { uint64_t a, b, c; uint32_t n; } margs = { (uintptr_t)a, (uintptr_t)b,
									  (uintptr_t)c, 256 };
			printf("\nworker pool: wall ms and speed-up; process CPU ms and its "
			       "efficiency (CPU of 1 thread / CPU of n: 1.00 = the pool adds no "
			       "work); host has %ld online CPUs\n", sysconf(_SC_NPROCESSORS_ONLN));
			printf("%-14s %12s %9s %9s %9s %8s %8s   %9s %9s %9s %6s %6s\n", "kernel",
			       "wave-insts", "1 thr", "2 thr", "4 thr", "2/1", "4/1", "cpu 1", "cpu 2",
			       "cpu 4", "eff 2", "eff 4");
			if (n >= 65536 && pool_row(gfx, &code, "matmul 256^2", "matmul", &margs,
						  sizeof(margs), 256, 256, 16, 16))
				return 1;
			if (pool_row(gfx, &code, "vadd", "vadd", &args, sizeof(args), n, 1, 256, 1))
				return 1;
		}
		hx_free(a); hx_free(b); hx_free(c);
		free(ref);
	}
	hx_unload(&code);
	return 0;
}
