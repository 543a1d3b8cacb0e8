/*
 * hsa_amd_signal_wait_all (ROCr 1.18): arguments, skipped handles, values,
 * timeouts, and signals set from other threads (two, then eight under
 * contention).  Label surface; runs under kfdemu (mi210).
 */
#include <pthread.h>
#include <stdint.h>

#include "surface.h"

static const hsa_signal_condition_t EQ = HSA_SIGNAL_CONDITION_EQ;

/* Before hsa_init, and with the arrays missing, the call fails:
 * UINT32_MAX.  ROCr 1.18 throws NOT_INITIALIZED, and its CATCHRET for a
 * uint32_t result aborts the process (handleExceptionT,
 * core/runtime/hsa_ext_amd.cpp lines 180-183 and 595-596), so the check
 * runs on hsalite only. */
START_TEST(wait_all_before_init)
{
	if (!surf_is_hsalite())
		return;
	hsa_signal_t s[1] = { { 0 } };
	hsa_signal_condition_t c[1] = { EQ };
	hsa_signal_value_t v[1] = { 0 };
	ck_assert_uint_eq(hsa_amd_signal_wait_all(1, s, c, v, 0, HSA_WAIT_STATE_ACTIVE, NULL),
			  UINT32_MAX);
}
END_TEST

static void setup(void)
{
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
}

static void teardown(void)
{
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

static hsa_signal_t make(hsa_signal_value_t v)
{
	hsa_signal_t s;
	ck_status(hsa_signal_create(v, 0, NULL, &s), HSA_STATUS_SUCCESS);
	return s;
}

START_TEST(wait_all_bad_arrays)
{
	hsa_signal_t s[1] = { make(0) };
	hsa_signal_condition_t c[1] = { EQ };
	hsa_signal_value_t v[1] = { 0 };
	/* ROCr 1.18 reads the arrays unchecked (hsa_amd_signal_wait_all,
	 * core/runtime/hsa_ext_amd.cpp line 603; Signal::WaitMultiple,
	 * core/runtime/signal.cpp line 270): hsalite only */
	if (surf_is_hsalite()) {
		ck_assert_uint_eq(hsa_amd_signal_wait_all(1, NULL, c, v, 0, HSA_WAIT_STATE_ACTIVE,
							  NULL), UINT32_MAX);
		ck_assert_uint_eq(hsa_amd_signal_wait_all(1, s, NULL, v, 0, HSA_WAIT_STATE_ACTIVE,
							  NULL), UINT32_MAX);
		ck_assert_uint_eq(hsa_amd_signal_wait_all(1, s, c, NULL, 0, HSA_WAIT_STATE_ACTIVE,
							  NULL), UINT32_MAX);
	}
	/* nothing to wait for */
	ck_assert_uint_eq(hsa_amd_signal_wait_all(0, s, c, v, 0, HSA_WAIT_STATE_ACTIVE, NULL), 0);
	hsa_signal_destroy(s[0]);
}
END_TEST

START_TEST(wait_all_unknown_condition)
{
	hsa_signal_t s[1] = { make(0) };
	hsa_signal_condition_t c[1] = { (hsa_signal_condition_t)99 };
	hsa_signal_value_t v[1] = { 0 };
	ck_assert_uint_eq(hsa_amd_signal_wait_all(1, s, c, v, UINT64_MAX, HSA_WAIT_STATE_BLOCKED,
						  NULL), UINT32_MAX);
	hsa_signal_destroy(s[0]);
}
END_TEST

/* Handles 0 and handles that are no signal count as satisfied, value 0;
 * each signal kept is tested with its own condition and value.  ROCr 1.18
 * does not: it packs the kept signals but hands WaitMultiple the
 * caller's conds and values unpacked (core/runtime/hsa_ext_amd.cpp line
 * 622), so the signal at index 2 would be tested with index 0's EQ 1 and
 * never satisfy it.  On another runtime every entry gets the same
 * condition, which either reading satisfies. */
START_TEST(wait_all_skips_null_and_unknown)
{
	static uint64_t not_a_signal[16];
	hsa_signal_t s[3] = { { 0 }, { (uint64_t)(uintptr_t)&not_a_signal[4] }, make(5) };
	hsa_signal_condition_t c[3] = { EQ, EQ, HSA_SIGNAL_CONDITION_GTE };
	hsa_signal_value_t v[3] = { 1, 1, 5 };
	if (!surf_is_hsalite()) {
		c[0] = c[1] = HSA_SIGNAL_CONDITION_GTE;
		v[0] = v[1] = 5;
	}
	hsa_signal_value_t out[3] = { 77, 77, 77 };
	ck_assert_uint_eq(hsa_amd_signal_wait_all(3, s, c, v, UINT64_MAX, HSA_WAIT_STATE_BLOCKED,
						  out), 0);
	ck_assert_int_eq(out[0], 0);
	ck_assert_int_eq(out[1], 0);
	ck_assert_int_eq(out[2], 5);
	/* only skipped ones: 0 at once, every value 0 */
	out[0] = out[1] = 77;
	ck_assert_uint_eq(hsa_amd_signal_wait_all(2, s, c, v, 0, HSA_WAIT_STATE_ACTIVE, out), 0);
	ck_assert_int_eq(out[0], 0);
	ck_assert_int_eq(out[1], 0);
	hsa_signal_destroy(s[2]);
}
END_TEST

/* One signal never satisfies its condition: UINT32_MAX after the timeout,
 * though the other one does (a wait for all, not any). */
START_TEST(wait_all_times_out)
{
	uint64_t freq = 0;
	ck_status(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &freq),
		  HSA_STATUS_SUCCESS);
	hsa_signal_t s[2] = { make(0), make(1) };
	hsa_signal_condition_t c[2] = { EQ, EQ };
	hsa_signal_value_t v[2] = { 0, 0 };
	for (int hint = 0; hint < 2; hint++)
		ck_assert_uint_eq(hsa_amd_signal_wait_all(2, s, c, v, freq / 1000,
							  hint ? HSA_WAIT_STATE_BLOCKED
							       : HSA_WAIT_STATE_ACTIVE,
							  NULL), UINT32_MAX);
	hsa_signal_destroy(s[0]);
	hsa_signal_destroy(s[1]);
}
END_TEST

struct setter {
	hsa_signal_t *s;
	uint32_t n;
	uint32_t rounds;   /* decrements per signal */
};

static void *set_later(void *arg)
{
	struct setter *st = arg;
	for (uint32_t r = 0; r < st->rounds; r++)
		for (uint32_t i = 0; i < st->n; i++)
			hsa_signal_subtract_screlease(st->s[i], 1);
	return NULL;
}

/* Two signals brought to 0 by another thread: both values reported. */
static void two_from_thread(hsa_wait_state_t hint)
{
	hsa_signal_t s[2] = { make(1), make(1) };
	hsa_signal_condition_t c[2] = { EQ, HSA_SIGNAL_CONDITION_LT };
	hsa_signal_value_t v[2] = { 0, 1 };
	hsa_signal_value_t out[2] = { 9, 9 };
	struct setter st = { .s = s, .n = 2, .rounds = 1 };
	pthread_t t;
	ck_assert_int_eq(pthread_create(&t, NULL, set_later, &st), 0);
	ck_assert_uint_eq(hsa_amd_signal_wait_all(2, s, c, v, UINT64_MAX, hint, out), 0);
	pthread_join(t, NULL);
	ck_assert_int_eq(out[0], 0);
	ck_assert_int_eq(out[1], 0);
	hsa_signal_destroy(s[0]);
	hsa_signal_destroy(s[1]);
}

START_TEST(wait_all_two_signals_blocked)
{
	two_from_thread(HSA_WAIT_STATE_BLOCKED);
}
END_TEST

START_TEST(wait_all_two_signals_active)
{
	two_from_thread(HSA_WAIT_STATE_ACTIVE);
}
END_TEST

/* Eight signals, four threads each taking two of them from 1000 to 0 one
 * decrement at a time while the waiter sleeps and wakes.  ROCr 1.18 sleeps
 * here in a KFD wait for all of the signals' events, those of signals
 * already satisfied included (Signal::WaitMultiple, core/runtime/
 * signal.cpp lines 228-233 and 323): once a wake has taken their events'
 * ages, a signal at 0 signals no more and the wait never returns (a hang
 * seen on kfdemu, which waits as the kernel's kfd_wait_on_events does).
 * On another runtime the waiter polls (ACTIVE): the values still count. */
START_TEST(wait_all_contention)
{
	enum { N = 8, THREADS = 4, ROUNDS = 1000 };
	hsa_wait_state_t hint = surf_is_hsalite() ? HSA_WAIT_STATE_BLOCKED : HSA_WAIT_STATE_ACTIVE;
	hsa_signal_t s[N];
	hsa_signal_condition_t c[N];
	hsa_signal_value_t v[N], out[N];
	for (int i = 0; i < N; i++) {
		s[i] = make(ROUNDS);
		c[i] = EQ;
		v[i] = 0;
		out[i] = -1;
	}
	struct setter st[THREADS];
	pthread_t t[THREADS];
	for (int i = 0; i < THREADS; i++) {
		st[i] = (struct setter){ .s = &s[2 * i], .n = 2, .rounds = ROUNDS };
		ck_assert_int_eq(pthread_create(&t[i], NULL, set_later, &st[i]), 0);
	}
	ck_assert_uint_eq(hsa_amd_signal_wait_all(N, s, c, v, UINT64_MAX, hint, out), 0);
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	for (int i = 0; i < N; i++) {
		ck_assert_int_eq(out[i], 0);
		ck_assert_int_eq(hsa_signal_load_scacquire(s[i]), 0);
		hsa_signal_destroy(s[i]);
	}
}
END_TEST

static Suite *wait_all_suite(void)
{
	Suite *s = suite_create("surface-wait-all");
	TCase *pre = tcase_create("uninit");
	tcase_add_test(pre, wait_all_before_init);
	suite_add_tcase(s, pre);
	TCase *tc = tcase_create("wait_all");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, wait_all_bad_arrays);
	tcase_add_test(tc, wait_all_unknown_condition);
	tcase_add_test(tc, wait_all_skips_null_and_unknown);
	tcase_add_test(tc, wait_all_times_out);
	tcase_add_test(tc, wait_all_two_signals_blocked);
	tcase_add_test(tc, wait_all_two_signals_active);
	tcase_add_test(tc, wait_all_contention);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(wait_all_suite)
