/*
 * HDP: HSA_AMD_AGENT_INFO_HDP_FLUSH hands out the MMIO-remap page's two
 * flush registers (HDP_MEM_FLUSH_CNTL, HDP_REG_FLUSH_CNTL = the next
 * word), a CPU write to VRAM flushed through HDP_MEM_FLUSH_CNTL reaches a
 * blit kernel, one followed by a completed barrier packet (a round trip:
 * gfx90a, the mi210 preset) reaches it too, and one that is not flushed,
 * read by the blit right behind its doorbell, is caught by kfdemu's HDP model
 * (run with KFDEMU_HDP=strict and HSA_ENABLE_SDMA=0, so hsa_memory_copy
 * runs a blit kernel on the CP).  The same binary runs on Debian's ROCr
 * 5.2.3 (LD_LIBRARY_PATH); the unflushed case only on hsalite (ROCr aborts
 * the process on the fault).  kfdemu's counters come from the shim
 * (kfdemu_hdp_counters).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <string.h>

#include "hl_check.h"
#include "hl_hsa.h"
#include "hsa/hsa.h"
#include "hsa/hsa_ext_amd.h"

static hsa_agent_t gpu;
static hsa_amd_memory_pool_t vram, sys;

static hsa_status_t find_pool(hsa_amd_memory_pool_t pool, void *data)
{
	hsa_amd_memory_pool_t *out = data;
	hsa_amd_segment_t seg;
	uint32_t flags = 0;
	bool alloc = false;
	hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg);
	hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags);
	hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &alloc);
	if (seg == HSA_AMD_SEGMENT_GLOBAL && alloc && !out->handle &&
	    (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED))
		*out = pool;
	return HSA_STATUS_SUCCESS;
}

static hsa_status_t find_sys_pool(hsa_amd_memory_pool_t pool, void *data)
{
	hsa_amd_memory_pool_t *out = data;
	hsa_amd_segment_t seg;
	uint32_t flags = 0;
	hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg);
	hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags);
	if (seg == HSA_AMD_SEGMENT_GLOBAL && !out->handle &&
	    (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED))
		*out = pool;
	return HSA_STATUS_SUCCESS;
}

static hsa_status_t find_agents(hsa_agent_t a, void *data)
{
	(void)data;
	hsa_device_type_t t;
	hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t);
	if (t == HSA_DEVICE_TYPE_GPU && !gpu.handle) {
		gpu = a;
		hsa_amd_agent_iterate_memory_pools(a, find_pool, &vram);
	} else if (t == HSA_DEVICE_TYPE_CPU && !sys.handle) {
		hsa_amd_agent_iterate_memory_pools(a, find_sys_pool, &sys);
	}
	return HSA_STATUS_SUCCESS;
}

static void setup(void)
{
	ck_assert_int_eq(hsa_init(), HSA_STATUS_SUCCESS);
	gpu.handle = 0;
	vram.handle = sys.handle = 0;
	ck_assert_int_eq(hsa_iterate_agents(find_agents, NULL), HSA_STATUS_SUCCESS);
	ck_assert(gpu.handle && vram.handle && sys.handle);
}

static void teardown(void)
{
	ck_assert_int_eq(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

/* kfdemu's counters: [mode, violations, flushes, first CPU writes]. */
static void hdp_counters(uint64_t out[4])
{
	int (*fn)(uint64_t *) = (int (*)(uint64_t *))dlsym(RTLD_DEFAULT, "kfdemu_hdp_counters");
	ck_assert_msg(fn, "not under kfdemu: no kfdemu_hdp_counters");
	ck_assert_int_eq(fn(out), 0);
}

static hsa_amd_hdp_flush_t hdp_info(void)
{
	hsa_amd_hdp_flush_t h;
	memset(&h, 0xff, sizeof(h));
	ck_assert_int_eq(hsa_agent_get_info(gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_HDP_FLUSH, &h),
			 HSA_STATUS_SUCCESS);
	return h;
}

/* A page of VRAM the CPU fills, copied to system memory by a blit kernel
 * after flush (or not). */
static hsa_status_t copy_after_cpu_write(bool flush, uint8_t *out, size_t n)
{
	void *src = NULL, *dst = NULL;
	ck_assert_int_eq(hsa_amd_memory_pool_allocate(vram, n, 0, &src), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(hsa_amd_memory_pool_allocate(sys, n, 0, &dst), HSA_STATUS_SUCCESS);
	hsa_agent_t both[2] = { gpu, { 0 } };
	ck_assert_int_eq(hsa_amd_agents_allow_access(1, both, NULL, dst), HSA_STATUS_SUCCESS);
	/* a first copy loads the runtime's blit kernels, whose load flushes
	 * the HDP: the write below must come after it */
	ck_assert_int_eq(hsa_memory_copy(dst, src, n), HSA_STATUS_SUCCESS);
	memset(dst, 0, n);
	memset(src, 0xa5, n); /* through the BAR */
	if (flush) {
		hsa_amd_hdp_flush_t h = hdp_info();
		__atomic_store_n(h.HDP_MEM_FLUSH_CNTL, 1u, __ATOMIC_SEQ_CST);
	}
	hsa_status_t st = hsa_memory_copy(dst, src, n);
	memcpy(out, dst, n);
	hsa_amd_memory_pool_free(src);
	hsa_amd_memory_pool_free(dst);
	return st;
}

/* HIP 5.2.3's small hipMemcpy on gfx90a/gfx94x: the CPU writes VRAM, a
 * barrier packet rung after the writes completes (the CPU waits for it),
 * then a blit kernel reads the VRAM: the round trip landed the writes. */
static void copy_after_round_trip(uint8_t *out, size_t n, uint64_t before[4],
				  uint64_t after[4])
{
	void *src = NULL, *dst = NULL;
	ck_assert_int_eq(hsa_amd_memory_pool_allocate(vram, n, 0, &src), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(hsa_amd_memory_pool_allocate(sys, n, 0, &dst), HSA_STATUS_SUCCESS);
	hsa_agent_t both[2] = { gpu, { 0 } };
	ck_assert_int_eq(hsa_amd_agents_allow_access(1, both, NULL, dst), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(hsa_memory_copy(dst, src, n), HSA_STATUS_SUCCESS); /* blits loaded */
	hsa_queue_t *q = NULL;
	ck_assert_int_eq(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_SINGLE, NULL, NULL, UINT32_MAX,
					  UINT32_MAX, &q), HSA_STATUS_SUCCESS);
	hsa_signal_t done;
	ck_assert_int_eq(hsa_signal_create(1, 0, NULL, &done), HSA_STATUS_SUCCESS);
	memset(dst, 0, n);
	hdp_counters(before); /* the runtime's own flushes (queue, blits) done */
	memset(src, 0x5c, n); /* through the BAR, no flush */
	hl_barrier_and(q, (hsa_signal_t){ 0 }, true, done);
	ck_assert_int_eq(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
						   HSA_WAIT_STATE_BLOCKED), 0);
	ck_assert_int_eq(hsa_memory_copy(dst, src, n), HSA_STATUS_SUCCESS);
	hdp_counters(after);
	memcpy(out, dst, n);
	hsa_signal_destroy(done);
	hsa_queue_destroy(q);
	hsa_amd_memory_pool_free(src);
	hsa_amd_memory_pool_free(dst);
}

START_TEST(round_trip_lands_the_vram_write)
{
	uint64_t before[4], after[4];
	uint8_t got[8192];
	copy_after_round_trip(got, sizeof(got), before, after);
	for (size_t i = 0; i < sizeof(got); i++)
		ck_assert_uint_eq(got[i], 0x5c);
	ck_assert_uint_eq(after[1], before[1]); /* no violation */
	ck_assert_uint_eq(after[2], before[2]); /* and no flush: the round trip */
	ck_assert_uint_gt(after[3], before[3]);
}
END_TEST

START_TEST(hdp_flush_info_gives_the_mmio_registers)
{
	hsa_amd_hdp_flush_t h = hdp_info();
	ck_assert_ptr_nonnull(h.HDP_MEM_FLUSH_CNTL);
	ck_assert_ptr_eq(h.HDP_REG_FLUSH_CNTL, h.HDP_MEM_FLUSH_CNTL + 1);
	/* usable: a store and a read back, as CLR does */
	__atomic_store_n(h.HDP_MEM_FLUSH_CNTL, 1u, __ATOMIC_SEQ_CST);
	(void)__atomic_load_n(h.HDP_MEM_FLUSH_CNTL, __ATOMIC_SEQ_CST);
	/* a CPU agent has none */
	uint64_t c[4];
	hdp_counters(c);
	ck_assert_uint_eq(c[0], 2); /* strict */
}
END_TEST

START_TEST(flushed_vram_write_reaches_the_blit)
{
	uint64_t before[4], after[4];
	hdp_counters(before);
	uint8_t got[4096];
	ck_assert_int_eq(copy_after_cpu_write(true, got, sizeof(got)), HSA_STATUS_SUCCESS);
	for (size_t i = 0; i < sizeof(got); i++)
		ck_assert_uint_eq(got[i], 0xa5);
	hdp_counters(after);
	ck_assert_uint_eq(after[1], before[1]);
	ck_assert_uint_gt(after[2], before[2]);
	ck_assert_uint_gt(after[3], before[3]);
}
END_TEST

START_TEST(unflushed_vram_write_is_caught)
{
	uint64_t before[4], after[4];
	hdp_counters(before);
	uint8_t got[4096];
	hsa_status_t st = copy_after_cpu_write(false, got, sizeof(got));
	hdp_counters(after);
	ck_assert_uint_gt(after[1], before[1]);
	/* strict: the blit queue was stopped by the fault */
	ck_assert_int_ne(st, HSA_STATUS_SUCCESS);
}
END_TEST

static Suite *hdp_suite(void)
{
	Suite *s = suite_create("hdp");
	TCase *tc = tcase_create("info");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, hdp_flush_info_gives_the_mmio_registers);
	tcase_add_test(tc, flushed_vram_write_reaches_the_blit);
	tcase_add_test(tc, round_trip_lands_the_vram_write);
	suite_add_tcase(s, tc);
	TCase *caught = tcase_create("unflushed");
	tcase_add_checked_fixture(caught, setup, teardown);
	tcase_add_test(caught, unflushed_vram_write_is_caught);
	suite_add_tcase(s, caught);
	return s;
}

HL_CHECK_MAIN(hdp_suite)
