/*
 * hsa_executable_freeze invalidates the code caches of the agents the
 * executable holds code for (src/loader/executable.c, src/queue/
 * internal.c).  kfdemu models the instruction cache: a decoded kernel is
 * reused until the process's VM changes (any MAP or UNMAP) or the CP runs
 * an ACQUIRE_MEM with SH_ICACHE_ACTION_ENA.  So the test rewrites a loaded
 * kernel's code in place after every allocation it needs is made, checks
 * that the old code still runs (the cache is what the test is about), and
 * then freezes another executable of the same agent: only the invalidate
 * can make the next dispatch run the new code.  Suite "icache" (label emu);
 * suite "icache_fault" runs with KFDEMU_FAIL=ioctl:CREATE_QUEUE:1 (the
 * internal queue cannot be created: freeze fails, the executable stays
 * unfrozen, a retry succeeds).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "co_file.h"
#include "hl_check.h"
#include "hl_hsa.h"
#include "hsa/hsa.h"
#include "hsa/hsa_ext_amd.h"

#define WAIT_NS (20ull * 1000 * 1000 * 1000)
#define MARK 0x600DC0DEu

static hsa_agent_t gpu;
static hsa_amd_memory_pool_t host_pool;
static struct co_file vadd, globals;

static void setup(void)
{
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	ck_status(hl_gpu_kernarg_pool(&gpu, &host_pool), HSA_STATUS_SUCCESS);
	ck_assert(gpu.handle && host_pool.handle);
	ck_assert_msg(co_load(&vadd, "vadd", NULL), "vadd.%s.co missing", getenv("HL_GFX"));
	ck_assert_msg(co_load(&globals, "globals", NULL), "globals.%s.co missing",
		      getenv("HL_GFX"));
}

static void teardown(void)
{
	co_free(&vadd);
	co_free(&globals);
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

/* An executable with f loaded on the GPU, frozen when freeze is set. */
static hsa_executable_t load(const struct co_file *f, bool freeze)
{
	hsa_code_object_reader_t r;
	hsa_executable_t e;
	ck_status(hsa_code_object_reader_create_from_memory(f->data, f->size, &r),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
					    NULL, &e), HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_load_agent_code_object(e, gpu, r, NULL, NULL), HSA_STATUS_SUCCESS);
	if (freeze)
		ck_status(hsa_executable_freeze(e, NULL), HSA_STATUS_SUCCESS);
	ck_status(hsa_code_object_reader_destroy(r), HSA_STATUS_SUCCESS);
	return e;
}

static hsa_executable_state_t state_of(hsa_executable_t e)
{
	hsa_executable_state_t st = (hsa_executable_state_t)-1;
	ck_status(hsa_executable_get_info(e, HSA_EXECUTABLE_INFO_STATE, &st), HSA_STATUS_SUCCESS);
	return st;
}

static void *host_alloc(size_t size)
{
	void *p = NULL;
	ck_status(hsa_amd_memory_pool_allocate(host_pool, size, 0, &p), HSA_STATUS_SUCCESS);
	memset(p, 0, size);
	return p;
}

/* gfx9: s_mov_b32 s0/s1 <- dst; s_mov_b32 s2, value; s_store_dword s2,
 * s[0:1]; s_waitcnt 0; s_endpgm (the kernel test_cp_dispatch.c builds). */
static unsigned store_kernel(uint32_t *code, uint64_t dst, uint32_t value)
{
	unsigned n = 0;
	code[n++] = 0xBE8000FF; /* s_mov_b32 s0, lit */
	code[n++] = (uint32_t)dst;
	code[n++] = 0xBE8100FF; /* s_mov_b32 s1, lit */
	code[n++] = (uint32_t)(dst >> 32);
	code[n++] = 0xBE8200FF; /* s_mov_b32 s2, lit */
	code[n++] = value;
	code[n++] = 0xC0420080; /* s_store_dword s2, s[0:1], 0x0 */
	code[n++] = 0;
	code[n++] = 0xBF8C0000; /* s_waitcnt 0 */
	code[n++] = 0xBF810000; /* s_endpgm */
	return n;
}

struct vadd_run {
	hsa_queue_t *q;
	hsa_signal_t done;
	uint64_t kd;
	void *kernarg;
	float *a, *b, *c;
};

/* One work-group of vadd with n = 1 (c[0] = a[0] + b[0]), waited for. */
static void vadd_dispatch(struct vadd_run *r)
{
	hsa_signal_store_relaxed(r->done, 1);
	hl_dispatch_1d(r->q, r->kd, r->kernarg, 64, 0, true, r->done);
	ck_assert_int_eq(hsa_signal_wait_scacquire(r->done, HSA_SIGNAL_CONDITION_EQ, 0, WAIT_NS,
						   HSA_WAIT_STATE_BLOCKED), 0);
}

static uint64_t kernel_object(hsa_executable_t e, const char *name, uint32_t *kernarg_size)
{
	hsa_executable_symbol_t s;
	ck_status(hsa_executable_get_symbol_by_name(e, name, &gpu, &s), HSA_STATUS_SUCCESS);
	uint64_t kd = 0;
	ck_status(hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &kd),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_symbol_get_info(
			  s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, kernarg_size),
		  HSA_STATUS_SUCCESS);
	return kd;
}

START_TEST(code_rewritten_in_place_runs_after_next_freeze)
{
	hsa_executable_t e1 = load(&vadd, true);
	uint32_t kernarg_size = 0;
	struct vadd_run r = { 0 };
	r.kd = kernel_object(e1, "vadd", &kernarg_size);
	ck_assert_uint_ge(kernarg_size, 28);

	/* Every allocation (a MAP, which drops kfdemu's decoded kernels as a
	 * TLB flush would) before the kernel is first decoded. */
	r.a = host_alloc(4096);
	r.b = host_alloc(4096);
	r.c = host_alloc(4096);
	volatile uint32_t *out = host_alloc(4096);
	r.kernarg = host_alloc(4096);
	uint64_t args[3] = { (uint64_t)(uintptr_t)r.a, (uint64_t)(uintptr_t)r.b,
			     (uint64_t)(uintptr_t)r.c };
	uint32_t n = 1;
	memcpy(r.kernarg, args, sizeof(args));
	memcpy((char *)r.kernarg + 24, &n, 4);
	r.a[0] = 1.0f;
	r.b[0] = 2.0f;
	ck_status(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
				   UINT32_MAX, &r.q), HSA_STATUS_SUCCESS);
	ck_status(hsa_signal_create(1, 0, NULL, &r.done), HSA_STATUS_SUCCESS);
	hsa_executable_t e2 = load(&globals, false); /* loaded, not frozen */

	vadd_dispatch(&r);
	ck_assert_msg(r.c[0] == 3.0f, "vadd: c[0] = %f, expected 3", (double)r.c[0]);

	/* Different valid code over vadd's, in place (the CPU view of the
	 * code memory is the GPU address). */
	int64_t entry_offset;
	memcpy(&entry_offset, (const void *)(uintptr_t)(r.kd + 16), 8);
	uint32_t code[16];
	unsigned ndw = store_kernel(code, (uint64_t)(uintptr_t)out, MARK);
	memcpy((void *)(uintptr_t)(r.kd + (uint64_t)entry_offset), code, ndw * 4);
	/* out of the HDP, as every CPU write to VRAM a GPU will read (kfdemu
	 * strict stops the dispatch's descriptor read otherwise); a flush
	 * does not touch the instruction cache */
	hl_hdp_flush_all();

	/* No invalidate yet: the cached decode still runs (if this fails,
	 * the emulator no longer caches code and the test proves nothing). */
	r.c[0] = 0.0f;
	vadd_dispatch(&r);
	ck_assert_msg(r.c[0] == 3.0f && *out == 0,
		      "before freeze: c[0] = %f, out = %#x; expected the cached vadd", (double)r.c[0],
		      *out);

	/* Freezing e2 (same agent) invalidates the instruction cache. */
	ck_status(hsa_executable_freeze(e2, NULL), HSA_STATUS_SUCCESS);
	r.c[0] = 0.0f;
	vadd_dispatch(&r);
	ck_assert_msg(*out == MARK && r.c[0] == 0.0f,
		      "after freeze: out = %#x (expected %#x), c[0] = %f (expected 0): the "
		      "rewritten code did not run", *out, MARK, (double)r.c[0]);

	ck_status(hsa_queue_destroy(r.q), HSA_STATUS_SUCCESS);
	ck_status(hsa_signal_destroy(r.done), HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_destroy(e1), HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_destroy(e2), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(freeze_of_many_executables_and_reinit)
{
	/* The internal queue is made once and reused; hsa_shut_down destroys
	 * it and the next runtime makes a new one. */
	for (int round = 0; round < 2; round++) {
		hsa_executable_t e[4];
		for (int i = 0; i < 4; i++)
			e[i] = load(i % 2 ? &vadd : &globals, true);
		for (int i = 0; i < 4; i++) {
			ck_assert_int_eq(state_of(e[i]), HSA_EXECUTABLE_STATE_FROZEN);
			ck_status(hsa_executable_destroy(e[i]), HSA_STATUS_SUCCESS);
		}
		ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
		ck_status(hsa_init(), HSA_STATUS_SUCCESS);
		ck_status(hl_gpu_kernarg_pool(&gpu, &host_pool), HSA_STATUS_SUCCESS);
	}
}
END_TEST

START_TEST(freeze_fails_when_internal_queue_cannot_be_made)
{
	/* KFDEMU_FAIL=ioctl:CREATE_QUEUE:1: the first CREATE_QUEUE, the
	 * internal queue's, fails with ENOMEM. */
	hsa_executable_t e = load(&vadd, false);
	ck_status(hsa_executable_freeze(e, NULL), HSA_STATUS_ERROR_OUT_OF_RESOURCES);
	ck_assert_int_eq(state_of(e), HSA_EXECUTABLE_STATE_UNFROZEN);
	ck_status(hsa_executable_freeze(e, NULL), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(state_of(e), HSA_EXECUTABLE_STATE_FROZEN);
	ck_status(hsa_executable_freeze(e, NULL), HSA_STATUS_ERROR_FROZEN_EXECUTABLE);
	ck_status(hsa_executable_destroy(e), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(freeze_without_agent_code_submits_nothing)
{
	/* an empty executable has no agent to invalidate: nothing can fail */
	hsa_executable_t e;
	ck_status(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
					    NULL, &e), HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_freeze(e, NULL), HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_destroy(e), HSA_STATUS_SUCCESS);
}
END_TEST

static Suite *icache_suite(void)
{
	const char *which = getenv("HL_ICACHE_SUITE");
	bool fault = which && strcmp(which, "fault") == 0;
	Suite *s = suite_create(fault ? "icache_fault" : "icache");
	TCase *tc = tcase_create("freeze");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	if (fault) {
		tcase_add_test(tc, freeze_without_agent_code_submits_nothing);
		tcase_add_test(tc, freeze_fails_when_internal_queue_cannot_be_made);
	} else {
		tcase_add_test(tc, code_rewritten_in_place_runs_after_next_freeze);
		tcase_add_test(tc, freeze_of_many_executables_and_reinit);
	}
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(icache_suite)
