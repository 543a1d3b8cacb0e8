/*
 * Registered and locked host memory on kfdemu (src/memory/userptr.c,
 * lock.c, memory.c), checked against what Debian's ROCr 5.2.3 does on the
 * same emulated MI210 (statuses, pointer_info fields, agent pointers,
 * deallocation callbacks), and used by a GPU kernel (vadd, built by
 * test/loader) so a registration is proven to map the caller's pages.
 *
 * Suite "userptr" (label emu): page-sharing and overlapping ranges
 * registered and dropped in every order, lock pointer semantics,
 * pointer_info for each kind of pointer, userdata, deallocation callbacks.
 * Suite "thread" (HL_USERPTR_SUITE=thread; the TSan pass runs it): two
 * threads register, lock and drop buffers sharing one page while kernels
 * use them.  Suite "multi" (two GPUs): both GPUs use the same pages.
 * Suite "fault" (KFDEMU_FAIL=alloc:4): a BO the driver refuses midway
 * through a registration is rolled back.  Suite "rocr" (label peer): the
 * lock, pointer_info, userdata and callback tests built against
 * /usr/include/hsa and run on Debian's ROCr 5.2.3, the reference.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hl_check.h"
#include "hl_hsa.h"
#include "rt_test.h"

#define WAIT_NS (20ull * 1000 * 1000 * 1000)
#define PAGE 4096u

/* A GPU with vadd loaded and a queue. */
struct dev {
	hsa_agent_t agent;
	hsa_queue_t *queue;
	uint64_t vadd_kd;
};

static hsa_agent_t cpu, gpu;
static struct dev devs[2];
static unsigned n_devs;
static hsa_amd_memory_pool_t sys_fine, sys_coarse, kernarg_pool, vram;
static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
/* Built against Debian's ROCr (HL_PEER_ROCR=1): where hsalite differs on
 * purpose (docs/differences.md), ROCr's answer is expected. */
static bool peer_rocr;

static hsa_status_t find_agents(hsa_agent_t agent, void *data)
{
	(void)data;
	hsa_device_type_t type;
	hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type);
	if (type == HSA_DEVICE_TYPE_CPU && !cpu.handle)
		cpu = agent;
	if (type == HSA_DEVICE_TYPE_GPU && !gpu.handle)
		gpu = agent;
	if (type == HSA_DEVICE_TYPE_GPU && n_devs < 2)
		devs[n_devs++].agent = agent;
	return HSA_STATUS_SUCCESS;
}

static hsa_status_t find_pools(hsa_amd_memory_pool_t pool, void *data)
{
	(void)data;
	uint32_t segment = 0, flags = 0;
	bool all = false;
	hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &segment);
	hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags);
	hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL, &all);
	if (segment != HSA_AMD_SEGMENT_GLOBAL)
		return HSA_STATUS_SUCCESS;
	if (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT)
		kernarg_pool = pool;
	else if (all && flags == HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED)
		sys_fine = pool;
	else if (all && flags == HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED)
		sys_coarse = pool;
	else if (!all && !vram.handle)
		vram = pool;
	return HSA_STATUS_SUCCESS;
}

static void load_vadd(struct dev *d)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/vadd.%s.co", getenv("HL_CO_DIR"), getenv("HL_GFX"));
	d->vadd_kd = rt_load_kernel(path, d->agent, "vadd.kd");
	ck_status(hsa_queue_create(d->agent, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
				   UINT32_MAX, &d->queue), HSA_STATUS_SUCCESS);
}

/* The runtime and its agents and pools, no BO allocated yet. */
static void setup_runtime(void)
{
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	cpu.handle = gpu.handle = 0;
	n_devs = 0;
	peer_rocr = getenv("HL_PEER_ROCR") && !strcmp(getenv("HL_PEER_ROCR"), "1");
	sys_fine.handle = sys_coarse.handle = kernarg_pool.handle = vram.handle = 0;
	ck_status(hsa_iterate_agents(find_agents, NULL), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_agent_iterate_memory_pools(cpu, find_pools, NULL), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_agent_iterate_memory_pools(gpu, find_pools, NULL), HSA_STATUS_SUCCESS);
	ck_assert(sys_fine.handle && sys_coarse.handle && kernarg_pool.handle && vram.handle);
}

static void setup(void)
{
	setup_runtime();
	for (unsigned i = 0; i < n_devs; i++)
		load_vadd(&devs[i]);
}

static void teardown(void)
{
	for (unsigned i = 0; i < n_devs; i++)
		ck_status(hsa_queue_destroy(devs[i].queue), HSA_STATUS_SUCCESS);
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

static void teardown_runtime(void)
{
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

/* An allocation every GPU may use: system memory is given to the GPUs
 * with allow_access, which ROCr requires (hsalite maps it at allocation). */
static void *pool_alloc(hsa_amd_memory_pool_t pool, size_t size)
{
	void *p = NULL;
	ck_status(hsa_amd_memory_pool_allocate(pool, size, 0, &p), HSA_STATUS_SUCCESS);
	if (pool.handle != vram.handle) {
		hsa_agent_t gpus[2] = { devs[0].agent, devs[1].agent };
		ck_status(hsa_amd_agents_allow_access(n_devs, gpus, NULL, p), HSA_STATUS_SUCCESS);
	}
	return p;
}

/* c[i] = a[i] + b[i] for i < n on GPU d (GPU addresses), waited for.
 * Returns false when the dispatch did not complete (a GPU fault). */
static bool vadd_on(struct dev *d, const float *a, const float *b, float *c, uint32_t n)
{
	hsa_queue_t *queue = d->queue;
	struct {
		const float *a, *b;
		float *c;
		uint32_t n;
	} __attribute__((packed)) args = { a, b, c, n };
	void *ka = pool_alloc(kernarg_pool, sizeof(args));
	memcpy(ka, &args, sizeof(args));
	hsa_signal_t done;
	ck_status(hsa_signal_create(1, 0, NULL, &done), HSA_STATUS_SUCCESS);

	pthread_mutex_lock(&queue_lock);
	hl_dispatch_1d(queue, d->vadd_kd, ka, (n + 63) / 64 * 64, 0, true, done);
	pthread_mutex_unlock(&queue_lock);

	bool ok = hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, WAIT_NS,
					    HSA_WAIT_STATE_BLOCKED) == 0;
	ck_status(hsa_signal_destroy(done), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(ka), HSA_STATUS_SUCCESS);
	return ok;
}

static bool vadd(const float *a, const float *b, float *c, uint32_t n)
{
	return vadd_on(&devs[0], a, b, c, n);
}

/* The GPU copies src into dst (n floats, both GPU addresses) through vadd
 * with a zero vector; checked on the host through host_dst. */
static void gpu_copy_check(const float *src, float *dst, const float *host_dst, uint32_t n,
			   float base)
{
	float *zeros = pool_alloc(sys_fine, n * sizeof(float));
	memset(zeros, 0, n * sizeof(float));
	ck_assert_msg(vadd(src, zeros, dst, n), "vadd %p -> %p did not complete", (void *)src,
		      (void *)dst);
	for (uint32_t i = 0; i < n; i++)
		ck_assert_msg(host_dst[i] == base + (float)i, "element %u: %f, expected %f", i,
			      (double)host_dst[i], (double)(base + (float)i));
	ck_status(hsa_amd_memory_pool_free(zeros), HSA_STATUS_SUCCESS);
}

static void fill(float *p, uint32_t n, float base)
{
	for (uint32_t i = 0; i < n; i++)
		p[i] = base + (float)i;
}

static hsa_amd_pointer_info_t info_of(const void *p, uint32_t *n_agents, hsa_agent_t *first)
{
	hsa_amd_pointer_info_t info;
	memset(&info, 0xA5, sizeof(info));
	info.size = sizeof(info);
	uint32_t n = 0xFFFF;
	hsa_agent_t *list = NULL;
	ck_status(hsa_amd_pointer_info(p, &info, malloc, &n, &list), HSA_STATUS_SUCCESS);
	ck_assert_ptr_nonnull(list); /* alloc(0) too, as ROCr calls it */
	if (n_agents)
		*n_agents = n;
	if (first)
		first->handle = n ? list[0].handle : 0;
	free(list);
	return info;
}

/* ---- registration ---- */

START_TEST(two_1k_buffers_on_one_page_register_and_a_kernel_uses_them)
{
	char *page = aligned_alloc(PAGE, PAGE);
	float *x = (float *)page, *y = (float *)(page + 1024);
	fill(x, 256, 1.0f);
	memset(y, 0, 1024);
	ck_status(hsa_memory_register(x, 1024), HSA_STATUS_SUCCESS);
	ck_status(hsa_memory_register(y, 1024), HSA_STATUS_SUCCESS);
	/* Copied into each other by the runtime, then by the GPU. */
	ck_status(hsa_memory_copy(y, x, 1024), HSA_STATUS_SUCCESS);
	ck_assert_mem_eq(y, x, 1024);
	memset(y, 0, 1024);
	gpu_copy_check(x, y, y, 256, 1.0f);
	/* Either one gone, the other's pages stay mapped. */
	ck_status(hsa_memory_deregister(x, 1024), HSA_STATUS_SUCCESS);
	float *src = pool_alloc(sys_fine, 1024);
	fill(src, 256, 7.0f);
	gpu_copy_check(src, y, y, 256, 7.0f);
	ck_status(hsa_memory_deregister(y, 1024), HSA_STATUS_SUCCESS);
	hsa_amd_pointer_info_t info = info_of(y, NULL, NULL);
	ck_assert_int_eq(info.type, HSA_EXT_POINTER_TYPE_UNKNOWN);
	ck_status(hsa_amd_memory_pool_free(src), HSA_STATUS_SUCCESS);
	free(page);
}
END_TEST

/* Byte ranges over a 4-page buffer: overlapping, page-sharing, nested,
 * identical (counted twice). */
static const struct {
	size_t off, len;
} ranges[] = {
	{ 0, 2 * PAGE },
	{ PAGE + 100, 2 * PAGE },
	{ 0, 4 * PAGE },
	{ 0, 2 * PAGE },
	{ 3 * PAGE + 8, 512 },
};
#define N_RANGES (sizeof(ranges) / sizeof(ranges[0]))

/* The k-th permutation of n items (Lehmer code). */
static void permutation(unsigned k, unsigned n, unsigned *out)
{
	unsigned items[8];
	for (unsigned i = 0; i < n; i++)
		items[i] = i;
	for (unsigned i = 0; i < n; i++) {
		unsigned f = 1;
		for (unsigned j = 2; j < n - i; j++)
			f *= j;
		unsigned idx = k / f;
		k %= f;
		out[i] = items[idx];
		memmove(&items[idx], &items[idx + 1], (n - i - idx - 1) * sizeof(items[0]));
	}
}

START_TEST(overlapping_registrations_deregister_in_every_order)
{
	char *buf = aligned_alloc(PAGE, 4 * PAGE);
	float *src = pool_alloc(sys_fine, 4 * PAGE);
	unsigned n_perm = 1;
	for (unsigned i = 2; i <= N_RANGES; i++)
		n_perm *= i;
	/* Every order of deregistration, registering in order and in reverse.
	 * After each step every range still registered is written by the GPU
	 * (its first 64 floats, at its host address). */
	for (unsigned k = 0; k < n_perm; k++) {
		unsigned order[N_RANGES];
		permutation(k, N_RANGES, order);
		bool live[N_RANGES];
		for (unsigned i = 0; i < N_RANGES; i++) {
			unsigned r = k % 2 ? i : N_RANGES - 1 - i;
			ck_status(hsa_memory_register(buf + ranges[r].off, ranges[r].len),
				  HSA_STATUS_SUCCESS);
			live[r] = true;
		}
		for (unsigned step = 0; step < N_RANGES; step++) {
			unsigned r = order[step];
			ck_status(hsa_memory_deregister(buf + ranges[r].off, ranges[r].len),
				  HSA_STATUS_SUCCESS);
			live[r] = false;
			/* Every few orders only: the dispatches dominate the time. */
			for (unsigned j = 0; k % 7 == 0 && j < N_RANGES; j++) {
				if (!live[j])
					continue;
				float *dst = (float *)(buf + ranges[j].off);
				uint32_t n = ranges[j].len / 4 < 64 ? ranges[j].len / 4 : 64;
				fill(src, n, (float)(k * 10 + j));
				memset(dst, 0, n * 4);
				gpu_copy_check(src, dst, dst, n, (float)(k * 10 + j));
			}
		}
		hsa_amd_pointer_info_t info = info_of(buf, NULL, NULL);
		ck_assert_msg(info.type == HSA_EXT_POINTER_TYPE_UNKNOWN,
			      "order %u: still registered after every deregistration", k);
	}
	ck_status(hsa_amd_memory_pool_free(src), HSA_STATUS_SUCCESS);
	free(buf);
}
END_TEST

START_TEST(registration_inside_a_pool_allocation_and_statuses)
{
	char *p = pool_alloc(sys_coarse, 3 * PAGE);
	ck_status(hsa_memory_register(p + 100, PAGE), HSA_STATUS_SUCCESS);
	/* The pool allocation wins, as ROCr's allocation map does. */
	hsa_amd_pointer_info_t info = info_of(p + 200, NULL, NULL);
	ck_assert_int_eq(info.type, HSA_EXT_POINTER_TYPE_HSA);
	ck_status(hsa_memory_deregister(p + 100, PAGE), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(p), HSA_STATUS_SUCCESS);

	/* ROCr 5.2.3's statuses. */
	char local[64];
	ck_status(hsa_memory_register(NULL, 0), HSA_STATUS_SUCCESS);
	ck_status(hsa_memory_register(NULL, 16), HSA_STATUS_SUCCESS);
	ck_status(hsa_memory_register(local, 0), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_memory_deregister(local, sizeof(local)), HSA_STATUS_SUCCESS);
	ck_status(hsa_memory_deregister(NULL, 0), HSA_STATUS_SUCCESS);
	/* Registered twice, deregistered twice. */
	ck_status(hsa_memory_register(local, sizeof(local)), HSA_STATUS_SUCCESS);
	ck_status(hsa_memory_register(local, sizeof(local)), HSA_STATUS_SUCCESS);
	ck_status(hsa_memory_deregister(local, sizeof(local)), HSA_STATUS_SUCCESS);
	info = info_of(local, NULL, NULL);
	ck_assert_int_eq(info.type, HSA_EXT_POINTER_TYPE_LOCKED);
	ck_status(hsa_memory_deregister(local, sizeof(local)), HSA_STATUS_SUCCESS);
	info = info_of(local, NULL, NULL);
	ck_assert_int_eq(info.type, HSA_EXT_POINTER_TYPE_UNKNOWN);
}
END_TEST

/* ---- locks ---- */

START_TEST(lock_returns_a_gpu_alias_of_the_host_pages)
{
	char *page = aligned_alloc(PAGE, 2 * PAGE);
	float *host = (float *)(page + 100);
	void *agent = NULL;
	ck_status(hsa_amd_memory_lock(host, 1024, NULL, 0, &agent), HSA_STATUS_SUCCESS);
	/* ROCr over libhsakmt: another address, the same page offset. */
	ck_assert_ptr_ne(agent, host);
	ck_assert_uint_eq((uintptr_t)agent & (PAGE - 1), 100);
	/* The GPU reads and writes the user pages through it. */
	float *src = pool_alloc(sys_fine, 1024);
	fill(src, 256, 3.0f);
	memset(host, 0, 1024);
	gpu_copy_check(src, agent, host, 256, 3.0f);
	fill(host, 256, 5.0f);
	float *dst = pool_alloc(sys_fine, 1024);
	gpu_copy_check(agent, dst, dst, 256, 5.0f);
	/* The same range again: the same address, counted. */
	void *again = NULL;
	ck_status(hsa_amd_memory_lock_to_pool(host, 1024, &gpu, 1, sys_coarse, 0, &again),
		  HSA_STATUS_SUCCESS);
	ck_assert_ptr_eq(again, agent);
	ck_status(hsa_amd_memory_unlock(host), HSA_STATUS_SUCCESS);
	gpu_copy_check(src, agent, host, 256, 3.0f);
	ck_status(hsa_amd_memory_unlock(host), HSA_STATUS_SUCCESS);
	hsa_amd_pointer_info_t info = info_of(host, NULL, NULL);
	ck_assert_int_eq(info.type, HSA_EXT_POINTER_TYPE_UNKNOWN);
	/* ROCr's unlock answers SUCCESS to anything. */
	ck_status(hsa_amd_memory_unlock(host), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_unlock(NULL), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_pointer_info(agent, &info, NULL, NULL, NULL), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(info.type, HSA_EXT_POINTER_TYPE_UNKNOWN);
	ck_status(hsa_amd_memory_pool_free(src), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(dst), HSA_STATUS_SUCCESS);
	free(page);
}
END_TEST

START_TEST(lock_to_pool_pointer_semantics)
{
	char *page = aligned_alloc(PAGE, 4 * PAGE);
	void *a = NULL, *b = NULL, *c = NULL;
	ck_status(hsa_amd_memory_lock_to_pool(page + 100, 1024, &gpu, 1, sys_fine, 0, &a),
		  HSA_STATUS_SUCCESS);
	/* Overlapping and page-sharing ranges get aliases of their own. */
	ck_status(hsa_amd_memory_lock_to_pool(page + 2000, 1024, NULL, 0, sys_fine, 0, &b),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_lock(page, 3 * PAGE, &gpu, 1, &c), HSA_STATUS_SUCCESS);
	ck_assert(a != b && b != c && a != c);
	ck_assert_uint_eq((uintptr_t)b & (PAGE - 1), 2000);
	/* Every alias maps the same pages. */
	memset(page, 0, 3 * PAGE);
	float *src = pool_alloc(sys_fine, 1024);
	fill(src, 64, 11.0f);
	gpu_copy_check(src, (float *)((char *)c + 2 * PAGE), (float *)(page + 2 * PAGE), 64, 11.0f);
	fill(src, 64, 21.0f);
	gpu_copy_check(src, b, (float *)(page + 2000), 64, 21.0f);
	/* Unlock through an agent pointer, as libhsakmt finds it. */
	ck_status(hsa_amd_memory_unlock(b), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(info_of(page + 2000, NULL, NULL).sizeInBytes, 3 * PAGE);
	/* An interior pointer unlocks nothing. */
	ck_status(hsa_amd_memory_unlock(page + 101), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(info_of(page + 101, NULL, NULL).sizeInBytes, 1024);
	gpu_copy_check(src, a, (float *)(page + 100), 64, 21.0f);
	ck_status(hsa_amd_memory_unlock(page), HSA_STATUS_SUCCESS);
	gpu_copy_check(src, a, (float *)(page + 100), 64, 21.0f);
	ck_status(hsa_amd_memory_unlock(page + 100), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(info_of(page + 100, NULL, NULL).type, HSA_EXT_POINTER_TYPE_UNKNOWN);

	/* Inside a pool allocation: the host pointer, the allocation's info. */
	char *pool_mem = pool_alloc(sys_coarse, 2 * PAGE);
	void *in_pool = NULL;
	ck_status(hsa_amd_memory_lock(pool_mem + 100, 1000, NULL, 0, &in_pool), HSA_STATUS_SUCCESS);
	ck_assert_ptr_eq(in_pool, pool_mem + 100);
	hsa_amd_pointer_info_t pinfo = info_of(pool_mem + 100, NULL, NULL);
	ck_assert_int_eq(pinfo.type, HSA_EXT_POINTER_TYPE_HSA);
	ck_assert_ptr_eq(pinfo.agentBaseAddress, pool_mem);
	ck_assert_uint_eq(pinfo.sizeInBytes, 2 * PAGE);
	ck_status(hsa_amd_memory_unlock(pool_mem + 100), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(pool_mem), HSA_STATUS_SUCCESS);

	/* ROCr's statuses. */
	void *p = (void *)1;
	ck_status(hsa_amd_memory_lock_to_pool(page, PAGE, &gpu, 1, vram, 0, &p),
		  HSA_STATUS_ERROR_INVALID_MEMORY_POOL);
	ck_assert_ptr_null(p);
	ck_status(hsa_amd_memory_lock_to_pool(page, PAGE, &gpu, 0, sys_fine, 0, &p),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_memory_lock_to_pool(page, PAGE, &gpu, 1, sys_fine, 1, &p),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_memory_lock(page, PAGE, NULL, 1, &p), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_memory_lock(page, 0, NULL, 0, &p), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	hsa_agent_t bogus = { RT_BOGUS_HANDLE };
	ck_status(hsa_amd_memory_lock(page, PAGE, &bogus, 1, &p), HSA_STATUS_ERROR_INVALID_AGENT);
	/* Only CPUs listed: nothing to pin, the host pointer back. */
	ck_status(hsa_amd_memory_lock(page, PAGE, &cpu, 1, &p), HSA_STATUS_SUCCESS);
	ck_assert_ptr_eq(p, page);
	ck_assert_int_eq(info_of(page, NULL, NULL).type, HSA_EXT_POINTER_TYPE_UNKNOWN);
	ck_status(hsa_amd_memory_unlock(page), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(src), HSA_STATUS_SUCCESS);
	free(page);
}
END_TEST

START_TEST(overlapping_locks_unlock_in_every_order)
{
	char *buf = aligned_alloc(PAGE, 4 * PAGE);
	float *src = pool_alloc(sys_fine, 1024);
	unsigned n_perm = 1;
	for (unsigned i = 2; i <= N_RANGES; i++)
		n_perm *= i;
	for (unsigned k = 0; k < n_perm; k++) {
		unsigned order[N_RANGES];
		permutation(k, N_RANGES, order);
		void *agent[N_RANGES];
		for (unsigned r = 0; r < N_RANGES; r++)
			ck_status(hsa_amd_memory_lock(buf + ranges[r].off, ranges[r].len, NULL, 0,
						      &agent[r]), HSA_STATUS_SUCCESS);
		ck_assert_ptr_eq(agent[0], agent[3]); /* the same range, counted */
		/* Three ranges start at buf: libhsakmt's exact lookup finds
		 * none of them by that address, so ROCr's unlock does nothing. */
		ck_status(hsa_amd_memory_unlock(buf), HSA_STATUS_SUCCESS);
		for (unsigned step = 0; step < N_RANGES; step++) {
			unsigned r = order[step];
			/* By agent pointer: always one range. */
			ck_status(hsa_amd_memory_unlock(agent[r]), HSA_STATUS_SUCCESS);
			if (k % 11 == 0 && step + 1 < N_RANGES) {
				unsigned j = order[step + 1];
				float *host = (float *)(buf + ranges[j].off);
				fill(src, 64, (float)k);
				memset(host, 0, 64 * 4);
				gpu_copy_check(src, agent[j], host, 64 < ranges[j].len / 4 ? 64 :
					       ranges[j].len / 4, (float)k);
			}
		}
		ck_assert_int_eq(info_of(buf, NULL, NULL).type, HSA_EXT_POINTER_TYPE_UNKNOWN);
		ck_assert_int_eq(info_of(agent[2], NULL, NULL).type, HSA_EXT_POINTER_TYPE_UNKNOWN);
	}
	ck_status(hsa_amd_memory_pool_free(src), HSA_STATUS_SUCCESS);
	free(buf);
}
END_TEST

/* ---- pointer_info: each field as ROCr 5.2.3 sets it on kfdemu ---- */

START_TEST(pointer_info_for_each_kind_of_pointer)
{
	uint32_t n;
	hsa_agent_t first;
	/* Pool allocations: page-rounded size, interior pointers too. */
	char *f = NULL;
	ck_status(hsa_amd_memory_pool_allocate(sys_fine, 100, 0, (void **)&f), HSA_STATUS_SUCCESS);
	hsa_amd_pointer_info_t i = info_of(f + 50, &n, &first);
	ck_assert_int_eq(i.type, HSA_EXT_POINTER_TYPE_HSA);
	ck_assert_ptr_eq(i.agentBaseAddress, f);
	ck_assert_ptr_eq(i.hostBaseAddress, f);
	ck_assert_uint_eq(i.sizeInBytes, PAGE);
	ck_assert_uint_eq(i.agentOwner.handle, cpu.handle);
	ck_assert_uint_eq(i.global_flags, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED);
	ck_assert_ptr_null(i.userData);
	/* Mapped on the GPU since allocation here (ROCr maps it at
	 * allow_access: none yet); never a CPU in the list. */
	ck_assert_uint_eq(n, peer_rocr ? 0 : 1);
	ck_assert_uint_eq(first.handle, peer_rocr ? 0 : gpu.handle);
	ck_assert_int_eq(info_of(f + PAGE, NULL, NULL).type, HSA_EXT_POINTER_TYPE_UNKNOWN);

	char *v = pool_alloc(vram, 5000);
	i = info_of(v + 5000, &n, &first);
	ck_assert_int_eq(i.type, HSA_EXT_POINTER_TYPE_HSA);
	ck_assert_ptr_eq(i.agentBaseAddress, v);
	ck_assert_ptr_eq(i.hostBaseAddress, v);
	ck_assert_uint_eq(i.sizeInBytes, 2 * PAGE);
	ck_assert_uint_eq(i.agentOwner.handle, gpu.handle);
	ck_assert_uint_eq(i.global_flags, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(first.handle, gpu.handle);

	char *k = pool_alloc(kernarg_pool, 64);
	ck_assert_uint_eq(info_of(k, NULL, NULL).global_flags,
			  HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED |
				  HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT);

	/* Locked: the caller's bytes, the alias, the CPU as owner. */
	char *page = aligned_alloc(PAGE, 4 * PAGE);
	void *a1, *a2, *a3;
	ck_status(hsa_amd_memory_lock(page + 100, 1024, NULL, 0, &a1), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_lock(page + 2000, 1024, NULL, 0, &a2), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_lock(page, 3 * PAGE, &gpu, 1, &a3), HSA_STATUS_SUCCESS);
	i = info_of((char *)a1 + 10, &n, &first);
	ck_assert_int_eq(i.type, HSA_EXT_POINTER_TYPE_LOCKED);
	ck_assert_ptr_eq(i.hostBaseAddress, page + 100);
	ck_assert_ptr_eq(i.agentBaseAddress, a1);
	ck_assert_uint_eq(i.sizeInBytes, 1024);
	ck_assert_uint_eq(i.agentOwner.handle, cpu.handle);
	ck_assert_uint_eq(i.global_flags, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(first.handle, gpu.handle);
	/* By host address, libhsakmt's choice among the containing ranges
	 * (what ROCr answered on kfdemu): */
	ck_assert_ptr_eq(info_of(page + 100, NULL, NULL).hostBaseAddress, page);
	ck_assert_ptr_eq(info_of(page + 101, NULL, NULL).hostBaseAddress, page + 100);
	ck_assert_ptr_eq(info_of(page, NULL, NULL).hostBaseAddress, page);
	ck_assert_ptr_eq(info_of(page + 2500, NULL, NULL).hostBaseAddress, page + 2000);
	ck_assert_ptr_eq(info_of(page + 5000, NULL, NULL).hostBaseAddress, page);
	ck_assert_ptr_eq(info_of(page + 5000, NULL, NULL).agentBaseAddress, a3);
	ck_assert_int_eq(info_of(page + 3 * PAGE, NULL, NULL).type, HSA_EXT_POINTER_TYPE_UNKNOWN);
	hsa_amd_memory_unlock(page + 100);
	hsa_amd_memory_unlock(page + 2000);
	hsa_amd_memory_unlock(page);
	void *lf;
	ck_status(hsa_amd_memory_lock_to_pool(page, PAGE, &gpu, 1, sys_fine, 0, &lf),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(info_of(page, NULL, NULL).global_flags,
			  HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED);
	hsa_amd_memory_unlock(page);

	/* Unknown: SUCCESS, the CPU as owner, fine-grained, empty list. */
	char local[16];
	i = info_of(local, &n, NULL);
	ck_assert_int_eq(i.type, HSA_EXT_POINTER_TYPE_UNKNOWN);
	ck_assert_uint_eq(i.agentOwner.handle, cpu.handle);
	ck_assert_uint_eq(i.global_flags, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED);
	ck_assert_ptr_null(i.hostBaseAddress);
	ck_assert_ptr_null(i.agentBaseAddress);
	ck_assert_uint_eq(i.sizeInBytes, 0);
	ck_assert_uint_eq(n, 0);

	/* Arguments, as ROCr: the list only with all three list arguments, a
	 * short struct filled to its size. */
	hsa_amd_pointer_info_t s = { .size = 0 };
	ck_status(hsa_amd_pointer_info(f, &s, NULL, NULL, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	s.size = sizeof(s);
	ck_status(hsa_amd_pointer_info(NULL, &s, NULL, NULL, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_pointer_info(f, NULL, NULL, NULL, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	uint32_t untouched = 77;
	hsa_agent_t *list = NULL;
	ck_status(hsa_amd_pointer_info(f, &s, NULL, &untouched, &list), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(untouched, 77);
	ck_assert_ptr_null(list);
	memset(&s, 0xCD, sizeof(s));
	s.size = 16;
	ck_status(hsa_amd_pointer_info(f, &s, NULL, NULL, NULL), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(s.size, 16);
	ck_assert_int_eq(s.type, HSA_EXT_POINTER_TYPE_HSA);
	ck_assert_uint_eq(s.agentOwner.handle, 0xCDCDCDCDCDCDCDCDull);

	ck_status(hsa_amd_memory_pool_free(f), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(v), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(k), HSA_STATUS_SUCCESS);
	free(page);
}
END_TEST

START_TEST(userdata_on_each_kind_of_pointer)
{
	int t1, t2, t3;
	char *f = pool_alloc(sys_fine, PAGE);
	ck_status(hsa_amd_pointer_info_set_userdata(f, &t1), HSA_STATUS_SUCCESS);
	ck_assert_ptr_eq(info_of(f + 10, NULL, NULL).userData, &t1);

	char *page = aligned_alloc(PAGE, 4 * PAGE);
	void *a1, *a2;
	ck_status(hsa_amd_memory_lock(page + 100, 1024, NULL, 0, &a1), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_lock(page + 2000, 1024, NULL, 0, &a2), HSA_STATUS_SUCCESS);
	/* The start of a locked range, by host or agent address. */
	ck_status(hsa_amd_pointer_info_set_userdata(page + 100, &t1), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_pointer_info_set_userdata(a2, &t2), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_pointer_info_set_userdata(page + 101, &t3),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_assert_ptr_eq(info_of(page + 101, NULL, NULL).userData, &t1);
	ck_assert_ptr_eq(info_of(page + 2000, NULL, NULL).userData, &t2);
	ck_assert_ptr_eq(info_of(a1, NULL, NULL).userData, &t1);
	hsa_amd_memory_unlock(page + 100);
	hsa_amd_memory_unlock(page + 2000);

	if (!peer_rocr) { /* ROCr's hsa_memory_register pins nothing */
		ck_status(hsa_memory_register(page + 8, 64), HSA_STATUS_SUCCESS);
		ck_status(hsa_amd_pointer_info_set_userdata(page + 8, &t3), HSA_STATUS_SUCCESS);
		ck_assert_ptr_eq(info_of(page + 9, NULL, NULL).userData, &t3);
		ck_status(hsa_memory_deregister(page + 8, 64), HSA_STATUS_SUCCESS);
	}

	ck_status(hsa_amd_pointer_info_set_userdata(page, &t1), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_pointer_info_set_userdata(NULL, &t1), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_memory_pool_free(f), HSA_STATUS_SUCCESS);
	free(page);
}
END_TEST

/* ---- deallocation callbacks ---- */

static char trace[256];
static void *trace_base;

static void note(void *ptr, void *user_data)
{
	size_t len = strlen(trace);
	snprintf(trace + len, sizeof(trace) - len, "%s%ld:%ld", len ? " " : "",
		 (long)((char *)ptr - (char *)trace_base), (long)(uintptr_t)user_data);
}

static void note2(void *ptr, void *user_data)
{
	note(ptr, (void *)((uintptr_t)user_data + 100));
}

/* A callback may use the memory API: the freed allocation is gone. */
static void reenter(void *ptr, void *user_data)
{
	(void)user_data;
	ck_status(hsa_amd_memory_pool_free(ptr), HSA_STATUS_ERROR_INVALID_ALLOCATION);
	void *p = pool_alloc(sys_fine, 64);
	ck_status(hsa_amd_memory_pool_free(p), HSA_STATUS_SUCCESS);
	note(ptr, (void *)9);
}

START_TEST(deallocation_callbacks_as_rocr)
{
	char *a = pool_alloc(sys_fine, 100);
	char *v = pool_alloc(vram, 4096);
	char local[8];
	trace[0] = 0;
	trace_base = a;
	ck_status(hsa_amd_register_deallocation_callback(NULL, note, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_register_deallocation_callback(a, NULL, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_register_deallocation_callback(local, note, NULL),
		  HSA_STATUS_ERROR_INVALID_ALLOCATION);
	ck_status(hsa_amd_register_deallocation_callback(a, note, (void *)1), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_register_deallocation_callback(a + 50, note, (void *)2),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_register_deallocation_callback(a + 200, note, (void *)3),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_register_deallocation_callback(a, note2, (void *)4), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_register_deallocation_callback(a, note, (void *)5), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_deregister_deallocation_callback(local, note),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_deregister_deallocation_callback(v, note),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_deregister_deallocation_callback(a + 1, note2),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_deregister_deallocation_callback(NULL, note),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_deregister_deallocation_callback(a, note2), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_deregister_deallocation_callback(a, note2),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_assert_str_eq(trace, "");
	ck_status(hsa_amd_memory_pool_free(a), HSA_STATUS_SUCCESS);
	/* ROCr's order: the deregistered slot took the last callback. */
	ck_assert_str_eq(trace, "0:1 50:2 200:3 0:5");
	ck_status(hsa_amd_deregister_deallocation_callback(a, note),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);

	/* hsa_memory_free runs them too; a callback may use the API. */
	trace[0] = 0;
	trace_base = v;
	ck_status(hsa_amd_register_deallocation_callback(v, reenter, NULL), HSA_STATUS_SUCCESS);
	ck_status(hsa_memory_free(v), HSA_STATUS_SUCCESS);
	ck_assert_str_eq(trace, "0:9");

	/* Locked memory is not an allocation. */
	void *agent;
	ck_status(hsa_amd_memory_lock(local, sizeof(local), NULL, 0, &agent), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_register_deallocation_callback(local, note, NULL),
		  HSA_STATUS_ERROR_INVALID_ALLOCATION);
	ck_status(hsa_amd_register_deallocation_callback(agent, note, NULL),
		  HSA_STATUS_ERROR_INVALID_ALLOCATION);
	ck_status(hsa_amd_memory_unlock(local), HSA_STATUS_SUCCESS);
}
END_TEST

/* ---- threads ---- */

#define THREAD_ROUNDS 12

struct worker {
	char *page;
	unsigned idx;           /* which 1 KiB of the shared page */
	pthread_barrier_t *bar;
	float *src;             /* GPU-visible input */
};

static void *register_worker(void *arg)
{
	struct worker *w = arg;
	for (unsigned round = 0; round < THREAD_ROUNDS; round++) {
		float *mine = (float *)(w->page + w->idx * 1024);
		pthread_barrier_wait(w->bar);
		if (hsa_memory_register(mine, 1024) != HSA_STATUS_SUCCESS)
			return "register";
		pthread_barrier_wait(w->bar);
		/* Both registered: each thread copies into its buffer, then
		 * its kernel writes it. */
		if (hsa_memory_copy(mine, w->src, 1024) != HSA_STATUS_SUCCESS ||
		    mine[100] != w->src[100])
			return "hsa_memory_copy";
		memset(mine, 0, 1024);
		if (!vadd(w->src, w->src, mine, 256))
			return "vadd";
		for (unsigned i = 0; i < 256; i++)
			if (mine[i] != 2.0f * w->src[i])
				return "result";
		pthread_barrier_wait(w->bar);
		if (hsa_memory_deregister(mine, 1024) != HSA_STATUS_SUCCESS)
			return "deregister";
		/* Locks of the same page, concurrently. */
		void *agent = NULL;
		if (hsa_amd_memory_lock(mine, 1024, NULL, 0, &agent) != HSA_STATUS_SUCCESS)
			return "lock";
		memset(mine, 0, 1024);
		if (!vadd(w->src, w->src, agent, 256) || mine[255] != 2.0f * w->src[255])
			return "vadd through the agent pointer";
		hsa_amd_pointer_info_t info = { .size = sizeof(info) };
		if (hsa_amd_pointer_info(agent, &info, NULL, NULL, NULL) != HSA_STATUS_SUCCESS ||
		    info.hostBaseAddress != mine)
			return "pointer_info";
		if (hsa_amd_memory_unlock(mine) != HSA_STATUS_SUCCESS)
			return "unlock";
	}
	return NULL;
}

START_TEST(two_threads_register_and_lock_one_page)
{
	char *page = aligned_alloc(PAGE, PAGE);
	float *src = pool_alloc(sys_fine, 1024);
	fill(src, 256, 0.5f);
	pthread_barrier_t bar;
	pthread_barrier_init(&bar, NULL, 2);
	struct worker w[2] = { { page, 0, &bar, src }, { page, 2, &bar, src } };
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, register_worker, &w[i]), 0);
	for (int i = 0; i < 2; i++) {
		void *ret;
		pthread_join(t[i], &ret);
		ck_assert_msg(ret == NULL, "thread %d failed at %s", i, (const char *)ret);
	}
	pthread_barrier_destroy(&bar);
	ck_assert_int_eq(info_of(page, NULL, NULL).type, HSA_EXT_POINTER_TYPE_UNKNOWN);
	ck_status(hsa_amd_memory_pool_free(src), HSA_STATUS_SUCCESS);
	free(page);
}
END_TEST

/* ---- two GPUs ---- */

START_TEST(two_gpus_use_registered_and_locked_pages)
{
	ck_assert_uint_eq(n_devs, 2);
	char *page = aligned_alloc(PAGE, 2 * PAGE);
	float *x = (float *)page, *y = (float *)(page + 1024);
	float *src = pool_alloc(sys_fine, 1024);
	float *zeros = pool_alloc(sys_fine, 1024);
	memset(zeros, 0, 1024);
	fill(src, 256, 4.0f);
	/* Registered pages are mapped on every GPU at their host address. */
	ck_status(hsa_memory_register(x, 1024), HSA_STATUS_SUCCESS);
	ck_status(hsa_memory_register(y, 1024), HSA_STATUS_SUCCESS);
	uint32_t n;
	hsa_amd_pointer_info_t info = info_of(y, &n, NULL);
	ck_assert_int_eq(info.type, HSA_EXT_POINTER_TYPE_LOCKED);
	ck_assert_uint_eq(n, 2);
	memset(x, 0, 1024);
	ck_assert(vadd_on(&devs[0], src, zeros, x, 256));
	ck_assert(vadd_on(&devs[1], x, zeros, y, 256));
	for (unsigned i = 0; i < 256; i++)
		ck_assert_msg(y[i] == 4.0f + (float)i, "y[%u] = %f", i, (double)y[i]);
	ck_status(hsa_memory_deregister(x, 1024), HSA_STATUS_SUCCESS);
	ck_status(hsa_memory_deregister(y, 1024), HSA_STATUS_SUCCESS);

	/* A lock naming the second GPU only is mapped on both, as ROCr's
	 * (libhsakmt maps user memory on every GPU). */
	void *agent = NULL;
	ck_status(hsa_amd_memory_lock(page + 100, 1024, &devs[1].agent, 1, &agent),
		  HSA_STATUS_SUCCESS);
	hsa_agent_t first;
	info = info_of(page + 100, &n, &first);
	ck_assert_int_eq(info.type, HSA_EXT_POINTER_TYPE_LOCKED);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(first.handle, devs[0].agent.handle);
	memset(page + 100, 0, 1024);
	ck_assert(vadd_on(&devs[1], src, zeros, agent, 256));
	ck_assert(vadd_on(&devs[0], agent, src, agent, 256));
	const float *h = (const float *)(page + 100);
	for (unsigned i = 0; i < 256; i++)
		ck_assert_msg(h[i] == 2.0f * (4.0f + (float)i), "h[%u] = %f", i, (double)h[i]);
	ck_status(hsa_amd_memory_unlock(page + 100), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(src), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(zeros), HSA_STATUS_SUCCESS);
	free(page);
}
END_TEST

/* ---- the driver refusing a BO (KFDEMU_FAIL=alloc:4: BO 1 is hsa_init's
 * MMIO-remap page) ---- */

START_TEST(a_refused_bo_leaves_every_registration_as_it_was)
{
	char *buf = aligned_alloc(PAGE, 3 * PAGE);
	/* BO 1: the middle page. */
	ck_status(hsa_memory_register(buf + PAGE, PAGE), HSA_STATUS_SUCCESS);
	/* The whole range needs page 0 (BO 2) and page 2 (BO 3, refused):
	 * the new BO and the middle page's new reference are undone. */
	ck_assert_int_ne(hsa_memory_register(buf, 3 * PAGE), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(info_of(buf, NULL, NULL).type, HSA_EXT_POINTER_TYPE_UNKNOWN);
	ck_assert_int_eq(info_of(buf + PAGE, NULL, NULL).type, HSA_EXT_POINTER_TYPE_LOCKED);
	ck_status(hsa_memory_deregister(buf + PAGE, PAGE), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(info_of(buf + PAGE, NULL, NULL).type, HSA_EXT_POINTER_TYPE_UNKNOWN);
	/* Nothing stale: the same ranges register and drop again. */
	ck_status(hsa_memory_register(buf, 3 * PAGE), HSA_STATUS_SUCCESS);
	ck_status(hsa_memory_register(buf + PAGE, PAGE), HSA_STATUS_SUCCESS);
	ck_status(hsa_memory_deregister(buf, 3 * PAGE), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(info_of(buf, NULL, NULL).type, HSA_EXT_POINTER_TYPE_UNKNOWN);
	ck_assert_int_eq(info_of(buf + PAGE, NULL, NULL).type, HSA_EXT_POINTER_TYPE_LOCKED);
	ck_status(hsa_memory_deregister(buf + PAGE, PAGE), HSA_STATUS_SUCCESS);
	free(buf);
}
END_TEST

static Suite *userptr_suite(void)
{
	const char *which = getenv("HL_USERPTR_SUITE");
	Suite *s = suite_create("runtime_userptr");
	TCase *tc = tcase_create("userptr");
	tcase_set_timeout(tc, 600);
	if (which && !strcmp(which, "fault")) {
		tcase_add_checked_fixture(tc, setup_runtime, teardown_runtime);
		tcase_add_test(tc, a_refused_bo_leaves_every_registration_as_it_was);
		suite_add_tcase(s, tc);
		return s;
	}
	tcase_add_checked_fixture(tc, setup, teardown);
	if (which && !strcmp(which, "thread")) {
		tcase_add_test(tc, two_threads_register_and_lock_one_page);
	} else if (which && !strcmp(which, "multi")) {
		tcase_add_test(tc, two_gpus_use_registered_and_locked_pages);
	} else if (which && !strcmp(which, "rocr")) {
		/* What hsalite does as ROCr does, run on ROCr itself. */
		tcase_add_test(tc, lock_returns_a_gpu_alias_of_the_host_pages);
		tcase_add_test(tc, lock_to_pool_pointer_semantics);
		tcase_add_test(tc, overlapping_locks_unlock_in_every_order);
		tcase_add_test(tc, pointer_info_for_each_kind_of_pointer);
		tcase_add_test(tc, userdata_on_each_kind_of_pointer);
		tcase_add_test(tc, deallocation_callbacks_as_rocr);
	} else {
		tcase_add_test(tc, two_1k_buffers_on_one_page_register_and_a_kernel_uses_them);
		tcase_add_test(tc, overlapping_registrations_deregister_in_every_order);
		tcase_add_test(tc, registration_inside_a_pool_allocation_and_statuses);
		tcase_add_test(tc, lock_returns_a_gpu_alias_of_the_host_pages);
		tcase_add_test(tc, lock_to_pool_pointer_semantics);
		tcase_add_test(tc, overlapping_locks_unlock_in_every_order);
		tcase_add_test(tc, pointer_info_for_each_kind_of_pointer);
		tcase_add_test(tc, userdata_on_each_kind_of_pointer);
		tcase_add_test(tc, deallocation_callbacks_as_rocr);
	}
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(userptr_suite)
