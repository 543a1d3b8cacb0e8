/*
 * hsa_amd_signal_wait_any and signal groups on kfdemu: the satisfied index
 * and value, timeouts, a sleeper woken through any one of its signals, and
 * skipped handles.  Label emu.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

#include "hl_check.h"
#include "sig_test.h"

#define MS 1000000ull
#define N 4

static hsa_signal_t sigs[N];
static hsa_signal_condition_t conds[N];
static hsa_signal_value_t values[N];

static void setup(void)
{
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	for (int i = 0; i < N; i++) {
		sigs[i] = sig_create(10);
		conds[i] = HSA_SIGNAL_CONDITION_EQ;
		values[i] = i;
	}
}

static void teardown(void)
{
	for (int i = 0; i < N; i++)
		hsa_signal_destroy(sigs[i]);
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

START_TEST(returns_satisfied_index_and_value)
{
	hsa_signal_store_relaxed(sigs[2], 2);
	hsa_signal_value_t v = -1;
	ck_value(hsa_amd_signal_wait_any(N, sigs, conds, values, UINT64_MAX,
					 HSA_WAIT_STATE_BLOCKED, &v), 2);
	ck_value(v, 2);
}
END_TEST

START_TEST(first_of_several_satisfied)
{
	hsa_signal_store_relaxed(sigs[1], 1);
	hsa_signal_store_relaxed(sigs[3], 3);
	hsa_signal_value_t v = -1;
	ck_value(hsa_amd_signal_wait_any(N, sigs, conds, values, 0, HSA_WAIT_STATE_ACTIVE, &v), 1);
	ck_value(v, 1);
}
END_TEST

START_TEST(each_condition)
{
	hsa_signal_condition_t c[N] = { HSA_SIGNAL_CONDITION_NE, HSA_SIGNAL_CONDITION_LT,
					HSA_SIGNAL_CONDITION_GTE, HSA_SIGNAL_CONDITION_EQ };
	hsa_signal_value_t cmp[N] = { 10, 10, 11, 0 };
	hsa_signal_value_t v;
	ck_value(hsa_amd_signal_wait_any(N, sigs, c, cmp, 0, HSA_WAIT_STATE_BLOCKED, &v),
		 UINT32_MAX);
	hsa_signal_store_relaxed(sigs[2], 11);
	ck_value(hsa_amd_signal_wait_any(N, sigs, c, cmp, 0, HSA_WAIT_STATE_BLOCKED, &v), 2);
	hsa_signal_store_relaxed(sigs[1], 9);
	ck_value(hsa_amd_signal_wait_any(N, sigs, c, cmp, 0, HSA_WAIT_STATE_BLOCKED, &v), 1);
	hsa_signal_store_relaxed(sigs[0], 3);
	ck_value(hsa_amd_signal_wait_any(N, sigs, c, cmp, 0, HSA_WAIT_STATE_BLOCKED, &v), 0);
	ck_value(v, 3);
}
END_TEST

START_TEST(times_out_with_uint32_max)
{
	hsa_signal_value_t v = -1;
	uint64_t t0 = sig_now_ns();
	ck_value(hsa_amd_signal_wait_any(N, sigs, conds, values, 20 * MS, HSA_WAIT_STATE_BLOCKED,
					 &v), UINT32_MAX);
	ck_assert(sig_now_ns() - t0 >= 20 * MS);
	ck_value(v, -1);
	ck_value(hsa_amd_signal_wait_any(N, sigs, conds, values, 5 * MS, HSA_WAIT_STATE_ACTIVE,
					 &v), UINT32_MAX);
}
END_TEST

struct any_waiter {
	hsa_wait_state_t hint;
	atomic_int started;
	uint32_t idx;
	hsa_signal_value_t v;
};

static void *any_main(void *arg)
{
	struct any_waiter *w = arg;
	atomic_store(&w->started, 1);
	w->idx = hsa_amd_signal_wait_any(N, sigs, conds, values, UINT64_MAX, w->hint, &w->v);
	return NULL;
}

static void check_woken_by(int which, hsa_wait_state_t hint)
{
	struct any_waiter w = { .hint = hint };
	pthread_t t;
	ck_assert_int_eq(pthread_create(&t, NULL, any_main, &w), 0);
	while (!atomic_load(&w.started))
		usleep(100);
	usleep(30000);
	hsa_signal_store_screlease(sigs[which], which);
	pthread_join(t, NULL);
	ck_value(w.idx, which);
	ck_value(w.v, which);
}

START_TEST(sleeper_woken_by_last_signal) { check_woken_by(N - 1, HSA_WAIT_STATE_BLOCKED); }
END_TEST
START_TEST(sleeper_woken_by_first_signal) { check_woken_by(0, HSA_WAIT_STATE_BLOCKED); }
END_TEST
START_TEST(spinner_woken) { check_woken_by(1, HSA_WAIT_STATE_ACTIVE); }
END_TEST

START_TEST(mixed_gpu_only_signal_still_wakes)
{
	hsa_signal_destroy(sigs[1]);
	ck_status(hsa_amd_signal_create(10, 0, NULL, HSA_AMD_SIGNAL_AMD_GPU_ONLY, &sigs[1]),
		  HSA_STATUS_SUCCESS);
	check_woken_by(1, HSA_WAIT_STATE_BLOCKED);
}
END_TEST

START_TEST(dead_and_null_handles_are_skipped)
{
	hsa_signal_destroy(sigs[0]);
	hsa_signal_t with_null[N] = { sigs[0], { 0 }, sigs[2], sigs[3] };
	hsa_signal_store_relaxed(sigs[3], 3);
	hsa_signal_value_t v;
	/* sigs[0] is dead (its value reads 0, which would match EQ 0). */
	ck_value(hsa_amd_signal_wait_any(N, with_null, conds, values, UINT64_MAX,
					 HSA_WAIT_STATE_BLOCKED, &v), 3);
	sigs[0] = sig_create(10);
}
END_TEST

START_TEST(more_signals_than_the_stack_holds)
{
	enum { M = 40 };
	hsa_signal_t many[M];
	hsa_signal_condition_t c[M];
	hsa_signal_value_t cmp[M];
	for (int i = 0; i < M; i++) {
		many[i] = sig_create(1);
		c[i] = HSA_SIGNAL_CONDITION_EQ;
		cmp[i] = 0;
	}
	hsa_signal_store_relaxed(many[M - 3], 0);
	hsa_signal_value_t v = 5;
	ck_value(hsa_amd_signal_wait_any(M, many, c, cmp, UINT64_MAX, HSA_WAIT_STATE_BLOCKED, &v),
		 M - 3);
	ck_value(v, 0);
	for (int i = 0; i < M; i++)
		ck_status(hsa_signal_destroy(many[i]), HSA_STATUS_SUCCESS);
}
END_TEST

struct group_waiter {
	hsa_signal_group_t g;
	atomic_int started;
	hsa_status_t st;
	hsa_signal_t s;
	hsa_signal_value_t v;
};

static void *group_main(void *arg)
{
	struct group_waiter *w = arg;
	atomic_store(&w->started, 1);
	w->st = hsa_signal_group_wait_any_scacquire(w->g, conds, values, HSA_WAIT_STATE_BLOCKED,
						    &w->s, &w->v);
	return NULL;
}

START_TEST(group_wait_returns_signal_and_value)
{
	hsa_signal_group_t g;
	ck_status(hsa_signal_group_create(N, sigs, 0, NULL, &g), HSA_STATUS_SUCCESS);
	hsa_signal_store_relaxed(sigs[3], 3);
	hsa_signal_t s = { 0 };
	hsa_signal_value_t v = -1;
	ck_status(hsa_signal_group_wait_any_relaxed(g, conds, values, HSA_WAIT_STATE_ACTIVE, &s,
						    &v), HSA_STATUS_SUCCESS);
	ck_value(s.handle, sigs[3].handle);
	ck_value(v, 3);
	ck_status(hsa_signal_group_destroy(g), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(group_sleeper_woken_by_store)
{
	struct group_waiter w = { 0 };
	ck_status(hsa_signal_group_create(N, sigs, 0, NULL, &w.g), HSA_STATUS_SUCCESS);
	pthread_t t;
	ck_assert_int_eq(pthread_create(&t, NULL, group_main, &w), 0);
	while (!atomic_load(&w.started))
		usleep(100);
	usleep(30000);
	hsa_signal_store_screlease(sigs[1], 1);
	pthread_join(t, NULL);
	ck_status(w.st, HSA_STATUS_SUCCESS);
	ck_value(w.s.handle, sigs[1].handle);
	ck_value(w.v, 1);
	ck_status(hsa_signal_group_destroy(w.g), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(group_of_destroyed_signals)
{
	hsa_signal_group_t g;
	hsa_signal_t s = sig_create(1), out;
	ck_status(hsa_signal_group_create(1, &s, 0, NULL, &g), HSA_STATUS_SUCCESS);
	ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
	hsa_signal_value_t v;
	ck_status(hsa_signal_group_wait_any_relaxed(g, conds, values, HSA_WAIT_STATE_BLOCKED,
						    &out, &v), HSA_STATUS_ERROR_INVALID_SIGNAL);
	ck_status(hsa_signal_group_destroy(g), HSA_STATUS_SUCCESS);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("signal_any");
	TCase *tc = tcase_create("any");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, returns_satisfied_index_and_value);
	tcase_add_test(tc, first_of_several_satisfied);
	tcase_add_test(tc, each_condition);
	tcase_add_test(tc, times_out_with_uint32_max);
	tcase_add_test(tc, sleeper_woken_by_last_signal);
	tcase_add_test(tc, sleeper_woken_by_first_signal);
	tcase_add_test(tc, spinner_woken);
	tcase_add_test(tc, mixed_gpu_only_signal_still_wakes);
	tcase_add_test(tc, dead_and_null_handles_are_skipped);
	tcase_add_test(tc, more_signals_than_the_stack_holds);
	tcase_add_test(tc, group_wait_returns_signal_and_value);
	tcase_add_test(tc, group_sleeper_woken_by_store);
	tcase_add_test(tc, group_of_destroyed_signals);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(suite)
