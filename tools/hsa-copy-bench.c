/*
 * hsa-copy-bench: hsa_amd_memory_async_copy throughput host <-> device and
 * the latency of a small copy, beside the host's memcpy of the same sizes
 * measured in the same run.  Standard HSA API only, so the same binary runs
 * against ROCr (LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu) and against
 * hsalite; on kfdemu, HSA_ENABLE_SDMA=0/1 picks ROCr's blit kernels or the
 * SDMA engines.  A tool, not a test (STYLE.md §12): it prints one line per
 * measurement and checks every copy's bytes.
 *
 *   hsa-copy-bench [reps]          (default 9; medians are printed)
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

static hsa_agent_t gpu, cpu;
static hsa_amd_memory_pool_t sys_pool, vram_pool;
static bool have_gpu, have_cpu, have_sys, have_vram;

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static hsa_status_t find_agent(hsa_agent_t a, void *data)
{
	(void)data;
	hsa_device_type_t t;
	hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t);
	if (t == HSA_DEVICE_TYPE_GPU && !have_gpu) {
		gpu = a;
		have_gpu = true;
	} else if (t == HSA_DEVICE_TYPE_CPU && !have_cpu) {
		cpu = a;
		have_cpu = true;
	}
	return HSA_STATUS_SUCCESS;
}

static hsa_status_t find_pool(hsa_amd_memory_pool_t p, void *data)
{
	bool is_gpu = data != NULL;
	hsa_amd_segment_t seg;
	uint32_t flags = 0;
	bool alloc = false;
	hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg);
	hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &alloc);
	if (seg != HSA_AMD_SEGMENT_GLOBAL || !alloc)
		return HSA_STATUS_SUCCESS;
	hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags);
	if (is_gpu && !have_vram && (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED)) {
		vram_pool = p;
		have_vram = true;
	} else if (!is_gpu && (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED) &&
		   !(flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT) && !have_sys) {
		sys_pool = p;
		have_sys = true;
	}
	return HSA_STATUS_SUCCESS;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static uint64_t median(uint64_t *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_u64);
	return v[n / 2];
}

/* One async copy, waited for; returns its wall time or 0 on failure. */
static uint64_t timed_copy(void *dst, hsa_agent_t da, const void *src, hsa_agent_t sa,
			   size_t n, hsa_signal_t s)
{
	hsa_signal_store_relaxed(s, 1);
	uint64_t t0 = now_ns();
	if (hsa_amd_memory_async_copy(dst, da, src, sa, n, 0, NULL, s) != HSA_STATUS_SUCCESS)
		return 0;
	if (hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
				      HSA_WAIT_STATE_BLOCKED) != 0)
		return 0;
	return now_ns() - t0;
}

int main(int argc, char **argv)
{
	int reps = argc > 1 ? atoi(argv[1]) : 9;
	if (reps < 1 || reps > 1000)
		reps = 9;
	if (hsa_init() != HSA_STATUS_SUCCESS) {
		fprintf(stderr, "hsa-copy-bench: hsa_init failed\n");
		return 1;
	}
	hsa_iterate_agents(find_agent, NULL);
	if (!have_gpu || !have_cpu) {
		fprintf(stderr, "hsa-copy-bench: no GPU agent\n");
		return 77;
	}
	hsa_amd_agent_iterate_memory_pools(cpu, find_pool, NULL);
	hsa_amd_agent_iterate_memory_pools(gpu, find_pool, (void *)1);
	if (!have_sys || !have_vram) {
		fprintf(stderr, "hsa-copy-bench: no system or VRAM pool\n");
		return 1;
	}
	static const size_t sizes[] = { 4096, 1u << 20, 64u << 20 };
	const size_t max = 64u << 20;
	uint8_t *host = NULL, *back = NULL, *vram = NULL;
	if (hsa_amd_memory_pool_allocate(sys_pool, max, 0, (void **)&host) ||
	    hsa_amd_memory_pool_allocate(sys_pool, max, 0, (void **)&back) ||
	    hsa_amd_memory_pool_allocate(vram_pool, max, 0, (void **)&vram) ||
	    hsa_amd_agents_allow_access(1, &gpu, NULL, host) ||
	    hsa_amd_agents_allow_access(1, &gpu, NULL, back)) {
		fprintf(stderr, "hsa-copy-bench: allocation failed\n");
		return 1;
	}
	for (size_t i = 0; i < max; i++)
		host[i] = (uint8_t)(i * 131 + 7);
	hsa_signal_t s;
	hsa_signal_create(1, 0, NULL, &s);
	const char *sdma = getenv("HSA_ENABLE_SDMA");
	printf("# hsa-copy-bench: %d reps, medians; HSA_ENABLE_SDMA=%s\n", reps,
	       sdma ? sdma : "(unset)");
	uint64_t *t = calloc((size_t)reps, sizeof(*t));
	int bad = 0;
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		size_t n = sizes[k];
		for (int dir = 0; dir < 3; dir++) {
			for (int r = 0; r < reps; r++) {
				if (dir == 0)
					t[r] = timed_copy(vram, gpu, host, cpu, n, s);
				else if (dir == 1)
					t[r] = timed_copy(back, cpu, vram, gpu, n, s);
				else {
					uint64_t t0 = now_ns();
					memcpy(back, host, n);
					t[r] = now_ns() - t0;
				}
				if (!t[r]) {
					fprintf(stderr, "hsa-copy-bench: copy of %zu failed\n", n);
					return 1;
				}
			}
			if (dir == 1 && memcmp(back, host, n)) {
				fprintf(stderr, "hsa-copy-bench: %zu bytes came back wrong\n", n);
				bad = 1;
			}
			static const char *const names[] = { "h2d", "d2h", "memcpy" };
			uint64_t m = median(t, reps);
			printf("%-7s %9zu bytes  %10.3f us  %8.3f GB/s\n", names[dir], n,
			       (double)m / 1000.0, (double)n / (double)m);
		}
	}
	free(t);
	hsa_signal_destroy(s);
	hsa_amd_memory_pool_free(vram);
	hsa_amd_memory_pool_free(back);
	hsa_amd_memory_pool_free(host);
	hsa_shut_down();
	return bad;
}
