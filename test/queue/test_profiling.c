/*
 * Profiling: GPU ticks to the system timestamp domain, and the dispatch
 * times read from a completion signal the CP filled (written here by hand,
 * as the CP writes them).  Label emu.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hl_check.h"
#include "q_test.h"

#define AGENT_INFO_TIMESTAMP_FREQUENCY 0xA016 /* newer ROCr headers' attribute */

static void setup(void) { q_init(); }
static void teardown(void) { q_fini(); }

static uint64_t gpu_freq(void)
{
	uint64_t f = 0;
	ck_status(hsa_agent_get_info(q_gpu, (hsa_agent_info_t)AGENT_INFO_TIMESTAMP_FREQUENCY, &f),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_ne(f, 0);
	return f;
}

static int64_t diff(uint64_t a, uint64_t b) { return (int64_t)(a - b); }

START_TEST(one_second_of_ticks_is_one_second_of_system_time)
{
	uint64_t f = gpu_freq(), t0 = 1000000, s0 = 0, s1 = 0;
	ck_status(hsa_amd_profiling_convert_tick_to_system_domain(q_gpu, t0, &s0),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_profiling_convert_tick_to_system_domain(q_gpu, t0 + f, &s1),
		  HSA_STATUS_SUCCESS);
	/* Two samples of the clocks: equal up to the sampling error. */
	int64_t d = diff(s1, s0) - 1000000000;
	ck_assert_msg(llabs(d) < 1000000, "1 s of ticks became %lld ns",
		      (long long)diff(s1, s0));
}
END_TEST

START_TEST(dispatch_time_converts_the_signal_timestamps)
{
	hsa_signal_t sig;
	ck_status(hsa_signal_create(1, 0, NULL, &sig), HSA_STATUS_SUCCESS);
	amd_signal_t *s = (amd_signal_t *)(uintptr_t)sig.handle;
	uint64_t f = gpu_freq();
	s->start_ts = 5 * f;
	s->end_ts = 5 * f + f / 1000; /* 1 ms later */
	hsa_amd_profiling_dispatch_time_t t;
	ck_status(hsa_amd_profiling_get_dispatch_time(q_gpu, sig, &t), HSA_STATUS_SUCCESS);
	int64_t d = diff(t.end, t.start) - 1000000;
	ck_assert_msg(llabs(d) < 1000, "1 ms dispatch measured %lld ns", (long long)diff(t.end, t.start));
	uint64_t start = 0;
	ck_status(hsa_amd_profiling_convert_tick_to_system_domain(q_gpu, s->start_ts, &start),
		  HSA_STATUS_SUCCESS);
	ck_assert_msg(llabs(diff(start, t.start)) < 1000000, "start %llu vs %llu",
		      (unsigned long long)t.start, (unsigned long long)start);
	ck_status(hsa_signal_destroy(sig), HSA_STATUS_SUCCESS);
}
END_TEST

/* A barrier on a profiling queue, run by the CP: its raw start/end ticks.
 * Skips (returns false) without a command processor. */
static bool profiled_barrier(hsa_queue_t *q, hsa_signal_t sig, uint64_t *start, uint64_t *end)
{
	hl_barrier_and(q, (hsa_signal_t){ 0 }, false, sig);
	if (hsa_signal_wait_scacquire(sig, HSA_SIGNAL_CONDITION_LT, 1, 2000000000ull,
				      HSA_WAIT_STATE_BLOCKED) >= 1)
		return false;
	const amd_signal_t *s = (const amd_signal_t *)(uintptr_t)sig.handle;
	*start = s->start_ts;
	*end = s->end_ts;
	return true;
}

/* Real timestamps: both conversions of one tick agree (the same clock
 * pairs), start <= end, a later packet converts later, and a converted end
 * is not after the system clock read once the wait returned. */
START_TEST(conversions_of_real_timestamps_agree)
{
	hsa_queue_t *q = q_create(64, HSA_QUEUE_TYPE_MULTI);
	ck_status(hsa_amd_profiling_set_profiler_enabled(q, 1), HSA_STATUS_SUCCESS);
	hsa_signal_t sig;
	ck_status(hsa_signal_create(1, 0, NULL, &sig), HSA_STATUS_SUCCESS);
	uint64_t prev_end = 0;
	for (int i = 0; i < 20; i++) {
		uint64_t start, end;
		hsa_signal_store_screlease(sig, 1);
		if (!profiled_barrier(q, sig, &start, &end)) {
			printf("no command processor: skipped\n");
			break;
		}
		uint64_t now = 0, conv = 0;
		ck_status(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &now), HSA_STATUS_SUCCESS);
		hsa_amd_profiling_dispatch_time_t t;
		ck_status(hsa_amd_profiling_get_dispatch_time(q_gpu, sig, &t), HSA_STATUS_SUCCESS);
		ck_status(hsa_amd_profiling_convert_tick_to_system_domain(q_gpu, end, &conv),
			  HSA_STATUS_SUCCESS);
		ck_assert_msg(start != 0 && start <= end, "ticks start %llu end %llu",
			      (unsigned long long)start, (unsigned long long)end);
		ck_assert_uint_le(t.start, t.end);
		ck_assert_msg(llabs(diff(conv, t.end)) <= 100, "end %llu vs convert_tick %llu",
			      (unsigned long long)t.end, (unsigned long long)conv);
		/* 1 ms of slack: the pair's own error is tens of ns */
		ck_assert_msg(t.end <= now + 1000000, "end %llu after the clock %llu",
			      (unsigned long long)t.end, (unsigned long long)now);
		ck_assert_uint_ge(t.end, prev_end);
		prev_end = t.end;
	}
	ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
	ck_status(hsa_signal_destroy(sig), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(profiling_arguments_are_checked)
{
	hsa_signal_t sig, bogus = { (uint64_t)(uintptr_t)&sig };
	hsa_amd_profiling_dispatch_time_t t;
	uint64_t sys;
	ck_status(hsa_signal_create(1, 0, NULL, &sig), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_profiling_get_dispatch_time(q_gpu, sig, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_profiling_get_dispatch_time(q_cpu, sig, &t),
		  HSA_STATUS_ERROR_INVALID_AGENT);
	ck_status(hsa_amd_profiling_get_dispatch_time(q_gpu, bogus, &t),
		  HSA_STATUS_ERROR_INVALID_SIGNAL);
	ck_status(hsa_amd_profiling_convert_tick_to_system_domain(q_gpu, 1, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_profiling_convert_tick_to_system_domain(q_cpu, 1, &sys),
		  HSA_STATUS_ERROR_INVALID_AGENT);
	ck_status(hsa_amd_profiling_set_profiler_enabled(NULL, 1),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_signal_destroy(sig), HSA_STATUS_SUCCESS);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("queue_profiling");
	TCase *tc = tcase_create("profiling");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, one_second_of_ticks_is_one_second_of_system_time);
	tcase_add_test(tc, dispatch_time_converts_the_signal_timestamps);
	tcase_add_test(tc, conversions_of_real_timestamps_agree);
	tcase_add_test(tc, profiling_arguments_are_checked);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(suite)
