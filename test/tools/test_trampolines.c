/*
 * The exported functions of the HSA API table against their entries, as a
 * tool sees them (hl_table_grab is this suite's tool): while an entry is
 * the runtime's own, the exported call runs the runtime's function; once a
 * tool replaced it, the next call runs the tool's, also after many calls
 * down the runtime's path (hsalite's trampolines jump directly while the
 * entry is unchanged and through it otherwise: src/tools/gen_api.py, "The
 * trampoline"); put back, the runtime's again; and again, swap after swap.
 * The deprecated alias (hsa_signal_store_release) follows its sc
 * function's entry.  The functions are the submit's three (reserve, read
 * index, doorbell store), a signal load and an AMD extension call.  The
 * same binary runs on hsalite and on Debian's ROCr 5.2.3
 * (tools_trampolines_rocr_mi210), whose exported functions call through
 * their entries always.
 */
#include <stdint.h>
#include <string.h>

#include "hl_hsa.h"
#include "table_grab.h"

/* calls down the runtime's path before each swap: what a program's hot
 * loop does before a tool's entry appears */
#define WARM 1000
#define ROUNDS 3
/* what the tool's functions answer: no runtime call answers these */
#define SEEN_STATUS ((hsa_status_t)0x7E57)
#define SEEN_INDEX 0x7E5700000000ull
#define SEEN_VALUE ((hsa_signal_value_t)0x7E570000)

static hsa_agent_t gpu;
static hsa_queue_t *queue;
static hsa_signal_t signal;
static int stores, reserves, read_indices, loads, copy_enables;

static void tool_store(hsa_signal_t s, hsa_signal_value_t v)
{
	(void)s, (void)v;
	stores++;
}

static uint64_t tool_reserve(const hsa_queue_t *q, uint64_t n)
{
	(void)q, (void)n;
	reserves++;
	return SEEN_INDEX;
}

static uint64_t tool_read_index(const hsa_queue_t *q)
{
	(void)q;
	read_indices++;
	return SEEN_INDEX;
}

static hsa_signal_value_t tool_load(hsa_signal_t s)
{
	(void)s;
	loads++;
	return SEEN_VALUE;
}

static hsa_status_t tool_copy_enable(bool on)
{
	(void)on;
	copy_enables++;
	return SEEN_STATUS;
}

static void setup(void)
{
	bool have_gpu, have_cpu;
	hsa_agent_t cpu;

	ck_hsa(hsa_init());
	ck_assert_msg(hl_grabbed_table() != NULL, "HSA_TOOLS_LIB did not load hl_table_grab");
	ck_hsa(hl_first_agents(&gpu, &have_gpu, &cpu, &have_cpu));
	ck_assert(have_gpu);
	ck_hsa(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_SINGLE, NULL, NULL, UINT32_MAX, UINT32_MAX,
				&queue));
	ck_hsa(hsa_signal_create(1, 0, NULL, &signal));
	stores = reserves = read_indices = loads = copy_enables = 0;
}

static void teardown(void)
{
	ck_hsa(hsa_signal_destroy(signal));
	ck_hsa(hsa_queue_destroy(queue));
	ck_hsa(hsa_shut_down());
}

/* The runtime's answers, through the exported functions: a reserve of 0
 * packets and the read index of an unused queue are 0; a store is seen by
 * a load. */
static void runtime_path(int round)
{
	for (int i = 0; i < WARM; i++) {
		hsa_signal_value_t v = (hsa_signal_value_t)(round * WARM + i);
		hsa_signal_store_screlease(signal, v);
		ck_assert_int_eq(hsa_signal_load_relaxed(signal), v);
		ck_assert_uint_eq(hsa_queue_add_write_index_screlease(queue, 0), 0);
		ck_assert_uint_eq(hsa_queue_load_read_index_scacquire(queue), 0);
	}
	hsa_signal_store_release(signal, 5);
	ck_assert_int_eq(hsa_signal_load_relaxed(signal), 5);
	ck_hsa(hsa_amd_profiling_async_copy_enable(false));
}

START_TEST(exported_calls_follow_their_entries)
{
	CoreApiTable *core = hl_grabbed_table()->core_;
	AmdExtTable *amd = hl_grabbed_table()->amd_ext_;
	CoreApiTable core_saved = *core;
	AmdExtTable amd_saved = *amd;

	for (int round = 0; round < ROUNDS; round++) {
		runtime_path(round);
		ck_assert_int_eq(stores + reserves + read_indices + loads + copy_enables, 0);

		core->hsa_signal_store_screlease_fn = tool_store;
		core->hsa_queue_add_write_index_screlease_fn = tool_reserve;
		core->hsa_queue_load_read_index_scacquire_fn = tool_read_index;
		core->hsa_signal_load_relaxed_fn = tool_load;
		amd->hsa_amd_profiling_async_copy_enable_fn = tool_copy_enable;

		hsa_signal_store_screlease(signal, 9);
		hsa_signal_store_release(signal, 9); /* the alias, the same entry */
		uint64_t idx = hsa_queue_add_write_index_screlease(queue, 0);
		uint64_t rd = hsa_queue_load_read_index_scacquire(queue);
		hsa_signal_value_t v = hsa_signal_load_relaxed(signal);
		hsa_status_t st = hsa_amd_profiling_async_copy_enable(false);

		*core = core_saved;
		*amd = amd_saved;
		ck_assert_int_eq(stores, 2);
		ck_assert_uint_eq(idx, SEEN_INDEX);
		ck_assert_uint_eq(rd, SEEN_INDEX);
		ck_assert_int_eq(v, SEEN_VALUE);
		ck_assert_int_eq(st, SEEN_STATUS);
		ck_assert_int_eq(reserves, 1);
		ck_assert_int_eq(read_indices, 1);
		ck_assert_int_eq(loads, 1);
		ck_assert_int_eq(copy_enables, 1);
		/* the tool's stores never reached the signal */
		ck_assert_int_eq(hsa_signal_load_relaxed(signal), 5);
		stores = reserves = read_indices = loads = copy_enables = 0;
	}
	/* put back: the runtime's path once more, no tool call */
	runtime_path(ROUNDS);
	ck_assert_int_eq(stores + reserves + read_indices + loads + copy_enables, 0);
}
END_TEST

static Suite *trampolines_suite(void)
{
	Suite *s = suite_create("tools-trampolines");
	TCase *tc = tcase_create("entries");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, exported_calls_follow_their_entries);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(trampolines_suite)
