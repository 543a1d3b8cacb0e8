/*
 * fork() with GPU state live in the parent (docs/embedding.md, "Fork"):
 *  - pinned: after allocating from the fine-grained system pool and
 *    locking (hsa_amd_memory_lock) a buffer of its own, the parent forks;
 *    the child reads and writes both as CPU memory and exits 0.  Pool
 *    memory is shared with the parent (what the child wrote, the parent
 *    reads), locked memory is the application's own private mapping (the
 *    child wrote its copy).  The parent then copies both through the GPU.
 *  - queue: fork with a queue that has run a packet; the parent's queue
 *    runs packets after the fork; the child touches inherited pool memory
 *    and, with FORK_CHILD_HSA=1, makes the calls the docs allow: a call on
 *    an inherited object answers NOT_INITIALIZED, hsa_init starts a fresh
 *    runtime, whose queue runs a packet.
 *  - async_copy: fork right after hsa_amd_memory_async_copy is issued; the
 *    copy completes with the right bytes; the child exits 0.
 * The child runs no checks of the Check framework: it returns a step
 * number through its exit status.  With FORK_PEER=rocr (the same binary
 * on Debian's ROCr 5.2.3) the child leaves pool memory alone (ROCr 5.2.3
 * marks it MADV_DONTFORK: the child would die of SIGSEGV) and makes no
 * HSA call.  CK_RUN_CASE picks a case.  Label emu (peer on ROCr).
 */
#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hl_check.h"
#include "hl_hsa.h"
#include "hsa/hsa.h"
#include "hsa/hsa_ext_amd.h"

#define SIZE (1u << 20)
#define WAIT_NS (120ull * 1000 * 1000 * 1000)

static hsa_agent_t cpu, gpu;
static hsa_amd_memory_pool_t sys_pool, vram;
static bool peer_rocr;

static hsa_status_t find_pool(hsa_amd_memory_pool_t p, void *data)
{
	hsa_amd_segment_t seg;
	uint32_t flags = 0;
	bool alloc = false;
	hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg);
	hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &alloc);
	hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags);
	hsa_amd_memory_pool_t *out = data;
	if (seg != HSA_AMD_SEGMENT_GLOBAL || !alloc || out->handle)
		return HSA_STATUS_SUCCESS;
	if (out == &sys_pool && !(flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED))
		return HSA_STATUS_SUCCESS;
	*out = p;
	return HSA_STATUS_SUCCESS;
}

static hsa_status_t find_agent(hsa_agent_t a, void *data)
{
	(void)data;
	hsa_device_type_t t;
	hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t);
	if (t == HSA_DEVICE_TYPE_CPU && !cpu.handle) {
		cpu = a;
		hsa_amd_agent_iterate_memory_pools(a, find_pool, &sys_pool);
	} else if (t == HSA_DEVICE_TYPE_GPU && !gpu.handle) {
		gpu = a;
		hsa_amd_agent_iterate_memory_pools(a, find_pool, &vram);
	}
	return HSA_STATUS_SUCCESS;
}

static void setup(void)
{
	const char *p = getenv("FORK_PEER");
	peer_rocr = p && strcmp(p, "rocr") == 0;
	cpu.handle = gpu.handle = sys_pool.handle = vram.handle = 0;
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	ck_status(hsa_iterate_agents(find_agent, NULL), HSA_STATUS_SUCCESS);
	ck_assert(cpu.handle && gpu.handle && sys_pool.handle && vram.handle);
}

static void teardown(void)
{
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

/* A fine-grained system-pool buffer the GPU may reach, filled with seed. */
static uint32_t *pool_buffer(uint32_t seed)
{
	void *p = NULL;
	ck_status(hsa_amd_memory_pool_allocate(sys_pool, SIZE, 0, &p), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_agents_allow_access(1, &gpu, NULL, p), HSA_STATUS_SUCCESS);
	uint32_t *w = p;
	for (uint32_t i = 0; i < SIZE / 4; i++)
		w[i] = seed + i;
	return w;
}

static void *vram_buffer(void)
{
	void *p = NULL;
	ck_status(hsa_amd_memory_pool_allocate(vram, SIZE, 0, &p), HSA_STATUS_SUCCESS);
	return p;
}

/* Copies SIZE bytes on the GPU's engines and waits. */
static void gpu_copy(void *dst, hsa_agent_t dst_agent, const void *src, hsa_agent_t src_agent)
{
	hsa_signal_t done;
	ck_status(hsa_signal_create(1, 0, NULL, &done), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_async_copy(dst, dst_agent, src, src_agent, SIZE, 0, NULL, done),
		  HSA_STATUS_SUCCESS);
	ck_assert_int_eq(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1, WAIT_NS,
						   HSA_WAIT_STATE_BLOCKED), 0);
	ck_status(hsa_signal_destroy(done), HSA_STATUS_SUCCESS);
}

/* host (CPU-readable) -> VRAM -> out, through the GPU; out compared with
 * seed + i. */
static void check_through_gpu(const void *gpu_src, uint32_t seed)
{
	void *dev = vram_buffer();
	uint32_t *out = pool_buffer(0);
	memset(out, 0, SIZE);
	gpu_copy(dev, gpu, gpu_src, cpu);
	gpu_copy(out, cpu, dev, gpu);
	for (uint32_t i = 0; i < SIZE / 4; i++)
		ck_assert_msg(out[i] == seed + i, "word %u through the GPU: %#x, expected %#x", i,
			      out[i], seed + i);
	ck_status(hsa_amd_memory_pool_free(out), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(dev), HSA_STATUS_SUCCESS);
}

/* In the child: 0 if words hold seed + i, then rewrites them as
 * new_seed + i. */
static bool child_touch(uint32_t *w, uint32_t seed, uint32_t new_seed)
{
	for (uint32_t i = 0; i < SIZE / 4; i++)
		if (w[i] != seed + i)
			return false;
	for (uint32_t i = 0; i < SIZE / 4; i++)
		w[i] = new_seed + i;
	return true;
}

/* Waits for the child; fails with its step or its signal. */
static void reap(pid_t pid)
{
	int status = 0;
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(!WIFSIGNALED(status), "the child died of signal %d", WTERMSIG(status));
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the child failed at step %d",
		      WEXITSTATUS(status));
}

/* The child's HSA calls after touching inherited pool memory: the parent's
 * objects answer NOT_INITIALIZED (and are not freed), its own hsa_init
 * works, and the inherited memory stays mapped through both. */
static int child_after_pinning(uint32_t *pool)
{
	if (hsa_amd_memory_pool_free(pool) != HSA_STATUS_ERROR_NOT_INITIALIZED)
		return 3;
	if (hsa_init() != HSA_STATUS_SUCCESS)
		return 4;
	if (!child_touch(pool, 0x3000, 0x3000))
		return 5;
	if (hsa_amd_memory_pool_free(pool) != HSA_STATUS_ERROR_INVALID_ALLOCATION)
		return 6;
	if (hsa_shut_down() != HSA_STATUS_SUCCESS)
		return 7;
	return child_touch(pool, 0x3000, 0x3000) ? 0 : 8;
}

START_TEST(pinned)
{
	uint32_t *pool = pool_buffer(0x1000);
	uint32_t *own = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
			     0);
	ck_assert(own != MAP_FAILED);
	for (uint32_t i = 0; i < SIZE / 4; i++)
		own[i] = 0x2000 + i;
	void *own_gpu = NULL;
	ck_status(hsa_amd_memory_lock(own, SIZE, &gpu, 1, &own_gpu), HSA_STATUS_SUCCESS);

	fflush(NULL);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		if (!peer_rocr && !child_touch(pool, 0x1000, 0x3000))
			_exit(1);
		if (!child_touch(own, 0x2000, 0x4000))
			_exit(2);
		if (!peer_rocr)
			_exit(child_after_pinning(pool));
		_exit(0);
	}
	reap(pid);

	/* Pool memory is shared with the child, locked memory was copied. */
	uint32_t pool_seed = peer_rocr ? 0x1000 : 0x3000;
	for (uint32_t i = 0; i < SIZE / 4; i++) {
		ck_assert_msg(pool[i] == pool_seed + i, "pool word %u: %#x, expected %#x", i,
			      pool[i], pool_seed + i);
		ck_assert_msg(own[i] == 0x2000 + i, "locked word %u: %#x, expected %#x", i, own[i],
			      0x2000 + i);
	}
	/* The parent's GPU mappings of both still reach the same pages. */
	check_through_gpu(pool, pool_seed);
	check_through_gpu(own_gpu, 0x2000);
	ck_status(hsa_amd_memory_unlock(own), HSA_STATUS_SUCCESS);
	munmap(own, SIZE);
	ck_status(hsa_amd_memory_pool_free(pool), HSA_STATUS_SUCCESS);
}
END_TEST

/* A barrier-AND packet with a completion signal, waited for. */
static bool run_barrier(hsa_queue_t *q)
{
	hsa_signal_t done;
	if (hsa_signal_create(1, 0, NULL, &done) != HSA_STATUS_SUCCESS)
		return false;
	hl_barrier_and(q, (hsa_signal_t){ 0 }, true, done);
	bool ok = hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1, WAIT_NS,
					    HSA_WAIT_STATE_BLOCKED) == 0;
	return hsa_signal_destroy(done) == HSA_STATUS_SUCCESS && ok;
}

static hsa_status_t find_gpu(hsa_agent_t a, void *data)
{
	hsa_device_type_t t;
	hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t);
	if (t == HSA_DEVICE_TYPE_GPU)
		*(hsa_agent_t *)data = a;
	return HSA_STATUS_SUCCESS;
}

/* The child's HSA calls after fork, as the docs allow them. */
static int child_hsa(hsa_queue_t *inherited)
{
	if (hsa_queue_destroy(inherited) != HSA_STATUS_ERROR_NOT_INITIALIZED)
		return 11;
	if (hsa_init() != HSA_STATUS_SUCCESS)
		return 12;
	hsa_agent_t g = { 0 };
	hsa_iterate_agents(find_gpu, &g);
	hsa_queue_t *q = NULL;
	if (!g.handle || hsa_queue_create(g, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q) !=
			 HSA_STATUS_SUCCESS)
		return 13;
	if (!run_barrier(q))
		return 14;
	if (hsa_queue_destroy(q) != HSA_STATUS_SUCCESS || hsa_shut_down() != HSA_STATUS_SUCCESS)
		return 15;
	return 0;
}

START_TEST(queue)
{
	uint32_t *pool = pool_buffer(0x5000);
	hsa_queue_t *q = NULL;
	ck_status(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q),
		  HSA_STATUS_SUCCESS);
	ck_assert(run_barrier(q));
	const char *e = getenv("FORK_CHILD_HSA");
	bool child_calls = !peer_rocr && e && atoi(e);

	fflush(NULL);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		if (!peer_rocr && !child_touch(pool, 0x5000, 0x6000))
			_exit(1);
		_exit(child_calls ? child_hsa(q) : 0);
	}
	reap(pid);
	for (int i = 0; i < 3; i++)
		ck_assert_msg(run_barrier(q), "packet %d after the fork did not complete", i);
	check_through_gpu(pool, peer_rocr ? 0x5000 : 0x6000);
	ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(pool), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(async_copy)
{
	uint32_t *src = pool_buffer(0x7000);
	uint32_t *out = pool_buffer(0);
	memset(out, 0, SIZE);
	void *dev = vram_buffer();
	hsa_signal_t done;
	ck_status(hsa_signal_create(1, 0, NULL, &done), HSA_STATUS_SUCCESS);

	fflush(NULL);
	ck_status(hsa_amd_memory_async_copy(dev, gpu, src, cpu, SIZE, 0, NULL, done),
		  HSA_STATUS_SUCCESS);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		/* Reads only: the parent's engine may still be reading src. */
		if (!peer_rocr)
			for (uint32_t i = 0; i < SIZE / 4; i++)
				if (src[i] != 0x7000 + i)
					_exit(1);
		_exit(0);
	}
	ck_assert_int_eq(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1, WAIT_NS,
						   HSA_WAIT_STATE_BLOCKED), 0);
	reap(pid);
	gpu_copy(out, cpu, dev, gpu);
	for (uint32_t i = 0; i < SIZE / 4; i++)
		ck_assert_msg(out[i] == 0x7000 + i, "word %u: %#x, expected %#x", i, out[i],
			      0x7000 + i);
	ck_status(hsa_signal_destroy(done), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(dev), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(out), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(src), HSA_STATUS_SUCCESS);
}
END_TEST

static TCase *fork_case(const char *name)
{
	TCase *tc = tcase_create(name);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 300);
	return tc;
}

static Suite *suite(void)
{
	Suite *s = suite_create("fork");
	TCase *tc = fork_case("pinned");
	tcase_add_test(tc, pinned);
	suite_add_tcase(s, tc);
	tc = fork_case("queue");
	tcase_add_test(tc, queue);
	suite_add_tcase(s, tc);
	tc = fork_case("async_copy");
	tcase_add_test(tc, async_copy);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(suite)
