/*
 * Fork after copies: the parent's copy engines (its GPU's blit queue and,
 * with SDMA on, its SDMA queues, records on the agent) exist at the fork.
 * The child's first copy call finds no runtime (NOT_INITIALIZED); after its
 * own hsa_init it copies with engines of its own, and the parent's engines
 * keep working.  Async-copy profiling the parent switched on is off in the
 * child's runtime (the switch lives in the runtime, rt->copy, as in ROCr's
 * Runtime object), so the child's copy is not profiled.  Label emu; kfdemu's engines run threads in this process,
 * so this is a threaded fork: plain builds only (see test/queue's fork
 * tests).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hl_check.h"
#include "hsa/hsa.h"
#include "hsa/hsa_ext_amd.h"

#define BYTES (256u * 1024u)

static hsa_agent_t cpu, gpu;
static hsa_amd_memory_pool_t sys_pool, vram;

static hsa_status_t find_pool(hsa_amd_memory_pool_t p, void *data)
{
	hsa_amd_segment_t seg;
	bool alloc = false;
	hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg);
	hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &alloc);
	hsa_amd_memory_pool_t *out = data;
	if (seg == HSA_AMD_SEGMENT_GLOBAL && alloc && !out->handle)
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

static bool find_all(void)
{
	cpu.handle = gpu.handle = sys_pool.handle = vram.handle = 0;
	return hsa_iterate_agents(find_agent, NULL) == HSA_STATUS_SUCCESS && cpu.handle &&
	       gpu.handle && sys_pool.handle && vram.handle;
}

/* Host -> VRAM -> host through the GPU's engines; 0, or the failed step. */
static int round_trip(uint8_t seed)
{
	uint8_t *src = NULL, *back = NULL;
	void *dev = NULL;
	if (hsa_amd_memory_pool_allocate(sys_pool, BYTES, 0, (void **)&src) ||
	    hsa_amd_memory_pool_allocate(sys_pool, BYTES, 0, (void **)&back) ||
	    hsa_amd_memory_pool_allocate(vram, BYTES, 0, &dev))
		return 10;
	hsa_agent_t both[2] = { cpu, gpu };
	if (hsa_amd_agents_allow_access(2, both, NULL, dev) ||
	    hsa_amd_agents_allow_access(2, both, NULL, src) ||
	    hsa_amd_agents_allow_access(2, both, NULL, back))
		return 11;
	for (uint32_t i = 0; i < BYTES; i++)
		src[i] = (uint8_t)(i * 7 + seed);
	memset(back, 0, BYTES);
	if (hsa_memory_copy(dev, src, BYTES) != HSA_STATUS_SUCCESS)
		return 12;
	if (hsa_memory_copy(back, dev, BYTES) != HSA_STATUS_SUCCESS)
		return 13;
	int step = memcmp(src, back, BYTES) ? 14 : 0;
	hsa_amd_memory_pool_free(dev);
	hsa_amd_memory_pool_free(back);
	hsa_amd_memory_pool_free(src);
	return step;
}

/* The child's checks, as an exit code: 0 when all hold, else the step. */
static int child(void)
{
	uint8_t a = 0, b = 0;
	if (hsa_memory_copy(&a, &b, 1) != HSA_STATUS_ERROR_NOT_INITIALIZED)
		return 1;
	if (hsa_init() != HSA_STATUS_SUCCESS)
		return 2;
	if (!find_all())
		return 3;
	int step = round_trip(0x5a);
	if (step)
		return step;
	if (hsa_shut_down() != HSA_STATUS_SUCCESS)
		return 4;
	return 0;
}

START_TEST(child_copies_with_its_own_engines_and_parent_keeps_its)
{
	ck_assert_int_eq(hsa_init(), HSA_STATUS_SUCCESS);
	ck_assert(find_all());
	ck_assert_int_eq(round_trip(0x11), 0); /* the parent's engines exist */
	fflush(NULL);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(child());
	int status = 0;
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "child failed at step %d (status %#x)", WEXITSTATUS(status), status);
	ck_assert_int_eq(round_trip(0x22), 0);
	ck_assert_int_eq(hsa_shut_down(), HSA_STATUS_SUCCESS);
}
END_TEST

/* The child's view of profiling: its async copy is not profiled. */
static int child_profiling(void)
{
	if (hsa_init() != HSA_STATUS_SUCCESS)
		return 1;
	if (!find_all())
		return 2;
	void *src = NULL, *dev = NULL;
	hsa_signal_t done;
	if (hsa_amd_memory_pool_allocate(sys_pool, 4096, 0, &src) ||
	    hsa_amd_memory_pool_allocate(vram, 4096, 0, &dev) ||
	    hsa_signal_create(1, 0, NULL, &done))
		return 3;
	hsa_agent_t both[2] = { cpu, gpu };
	if (hsa_amd_agents_allow_access(2, both, NULL, src))
		return 4;
	if (hsa_amd_memory_async_copy(dev, gpu, src, gpu, 4096, 0, NULL, done))
		return 5;
	if (hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
				      HSA_WAIT_STATE_BLOCKED) != 0)
		return 6;
	hsa_amd_profiling_async_copy_time_t t;
	if (hsa_amd_profiling_get_async_copy_time(done, &t) != HSA_STATUS_ERROR)
		return 7; /* profiled: the parent's switch came along */
	hsa_signal_destroy(done);
	hsa_amd_memory_pool_free(dev);
	hsa_amd_memory_pool_free(src);
	return hsa_shut_down() == HSA_STATUS_SUCCESS ? 0 : 8;
}

START_TEST(child_runtime_starts_with_copy_profiling_off)
{
	ck_assert_int_eq(hsa_init(), HSA_STATUS_SUCCESS);
	ck_assert(find_all());
	ck_assert_int_eq(hsa_amd_profiling_async_copy_enable(true), HSA_STATUS_SUCCESS);
	fflush(NULL);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(child_profiling());
	int status = 0;
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "child failed at step %d (status %#x; 7: its copy was profiled)",
		      WEXITSTATUS(status), status);
	ck_assert_int_eq(hsa_amd_profiling_async_copy_enable(false), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(hsa_shut_down(), HSA_STATUS_SUCCESS);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("copy_fork");
	TCase *tc = tcase_create("fork");
	tcase_add_test(tc, child_copies_with_its_own_engines_and_parent_keeps_its);
	tcase_add_test(tc, child_runtime_starts_with_copy_profiling_off);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(suite)
