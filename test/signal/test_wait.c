/*
 * Single-signal waits on kfdemu: every condition satisfied and timing out,
 * waiters in other threads woken by stores (BLOCKED and ACTIVE), several
 * waiters on one signal, a destroy waking a sleeper, the CPU a sleeping
 * waiter uses, and the wake-up latency (printed, not asserted).  Label emu.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "hl_check.h"
#include "sig_test.h"

#define MS 1000000ull

static void setup(void)
{
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
}

static void teardown(void)
{
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

struct waiter {
	pthread_t thread;
	hsa_signal_t sig;
	hsa_signal_condition_t cond;
	hsa_signal_value_t cmp;
	uint64_t timeout;
	hsa_wait_state_t hint;
	atomic_int started;
	hsa_signal_value_t got;
	uint64_t returned_ns, cpu_ns;
};

static void *waiter_main(void *arg)
{
	struct waiter *w = arg;
	uint64_t cpu0 = sig_thread_cpu_ns();
	atomic_store(&w->started, 1);
	w->got = hsa_signal_wait_scacquire(w->sig, w->cond, w->cmp, w->timeout, w->hint);
	w->returned_ns = sig_now_ns();
	w->cpu_ns = sig_thread_cpu_ns() - cpu0;
	return NULL;
}

static void waiter_start(struct waiter *w, hsa_signal_t s, hsa_signal_condition_t cond,
			 hsa_signal_value_t cmp, uint64_t timeout, hsa_wait_state_t hint)
{
	*w = (struct waiter){ .sig = s, .cond = cond, .cmp = cmp, .timeout = timeout,
			      .hint = hint };
	ck_assert_int_eq(pthread_create(&w->thread, NULL, waiter_main, w), 0);
	while (!atomic_load(&w->started))
		usleep(100);
}

START_TEST(satisfied_conditions_return_at_once)
{
	hsa_signal_t s = sig_create(5);
	for (int hint = 0; hint < 2; hint++) {
		ck_value(hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 5, 0, hint), 5);
		ck_value(hsa_signal_wait_relaxed(s, HSA_SIGNAL_CONDITION_NE, 4, 0, hint), 5);
		ck_value(hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_LT, 6, UINT64_MAX, hint), 5);
		ck_value(hsa_signal_wait_relaxed(s, HSA_SIGNAL_CONDITION_GTE, 5, UINT64_MAX, hint), 5);
	}
	ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
}
END_TEST

/* A wait whose condition never holds returns after the timeout (a 1 GHz
 * tick is a ns), with the value unchanged. */
static void check_timeout(hsa_signal_condition_t cond, hsa_signal_value_t cmp,
			  hsa_wait_state_t hint)
{
	hsa_signal_t s = sig_create(5);
	uint64_t freq = 0;
	ck_status(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &freq),
		  HSA_STATUS_SUCCESS);
	ck_value(freq, 1000000000);
	uint64_t t0 = sig_now_ns();
	ck_value(hsa_signal_wait_scacquire(s, cond, cmp, 20 * MS, hint), 5);
	uint64_t took = sig_now_ns() - t0;
	ck_assert_msg(took >= 20 * MS, "returned after %llu ns, before the 20 ms timeout",
		      (unsigned long long)took);
	ck_value(hsa_signal_load_relaxed(s), 5);
	ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
}

START_TEST(eq_times_out_blocked) { check_timeout(HSA_SIGNAL_CONDITION_EQ, 4, HSA_WAIT_STATE_BLOCKED); }
END_TEST
START_TEST(ne_times_out_blocked) { check_timeout(HSA_SIGNAL_CONDITION_NE, 5, HSA_WAIT_STATE_BLOCKED); }
END_TEST
START_TEST(lt_times_out_blocked) { check_timeout(HSA_SIGNAL_CONDITION_LT, 5, HSA_WAIT_STATE_BLOCKED); }
END_TEST
START_TEST(gte_times_out_blocked) { check_timeout(HSA_SIGNAL_CONDITION_GTE, 6, HSA_WAIT_STATE_BLOCKED); }
END_TEST
START_TEST(eq_times_out_active) { check_timeout(HSA_SIGNAL_CONDITION_EQ, 4, HSA_WAIT_STATE_ACTIVE); }
END_TEST
START_TEST(gte_times_out_active) { check_timeout(HSA_SIGNAL_CONDITION_GTE, 6, HSA_WAIT_STATE_ACTIVE); }
END_TEST

START_TEST(unknown_condition_does_not_block)
{
	hsa_signal_t s = sig_create(5);
	ck_value(hsa_signal_wait_scacquire(s, (hsa_signal_condition_t)77, 0, UINT64_MAX,
					   HSA_WAIT_STATE_BLOCKED), 5);
	ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
}
END_TEST

static void check_woken(hsa_signal_t s, hsa_wait_state_t hint)
{
	struct waiter w;
	waiter_start(&w, s, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX, hint);
	usleep(30000); /* let it reach its sleep */
	hsa_signal_store_screlease(s, 0);
	pthread_join(w.thread, NULL);
	ck_value(w.got, 0);
}

START_TEST(blocked_waiter_woken_by_store)
{
	hsa_signal_t s = sig_create(1);
	check_woken(s, HSA_WAIT_STATE_BLOCKED);
	ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(active_waiter_woken_by_store)
{
	hsa_signal_t s = sig_create(1);
	check_woken(s, HSA_WAIT_STATE_ACTIVE);
	ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(gpu_only_waiter_woken_by_store)
{
	hsa_signal_t s;
	ck_status(hsa_amd_signal_create(1, 0, NULL, HSA_AMD_SIGNAL_AMD_GPU_ONLY, &s),
		  HSA_STATUS_SUCCESS);
	check_woken(s, HSA_WAIT_STATE_BLOCKED);
	ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(blocked_waiter_woken_by_subtract)
{
	hsa_signal_t s = sig_create(2);
	struct waiter w;
	waiter_start(&w, s, HSA_SIGNAL_CONDITION_LT, 1, UINT64_MAX, HSA_WAIT_STATE_BLOCKED);
	usleep(20000);
	hsa_signal_subtract_screlease(s, 1);
	usleep(20000);
	hsa_signal_subtract_screlease(s, 1);
	pthread_join(w.thread, NULL);
	ck_value(w.got, 0);
	ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(three_waiters_woken_by_one_store)
{
	hsa_signal_t s = sig_create(1);
	struct waiter w[3];
	for (int i = 0; i < 3; i++)
		waiter_start(&w[i], s, HSA_SIGNAL_CONDITION_NE, 1, UINT64_MAX,
			     HSA_WAIT_STATE_BLOCKED);
	usleep(30000);
	hsa_signal_store_relaxed(s, 9);
	for (int i = 0; i < 3; i++) {
		pthread_join(w[i].thread, NULL);
		ck_value(w[i].got, 9);
	}
	ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(destroy_wakes_a_sleeping_waiter)
{
	hsa_signal_t s = sig_create(1);
	struct waiter w;
	waiter_start(&w, s, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX, HSA_WAIT_STATE_BLOCKED);
	usleep(30000);
	ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
	pthread_join(w.thread, NULL);
	ck_value(w.got, 0);
}
END_TEST

/* A sleeping waiter uses no CPU: < 2 % of a core over ~1 s, first with a
 * timeout that expires, then woken by a store. */
START_TEST(blocked_waiter_cpu_time_timeout)
{
	hsa_signal_t s = sig_create(1);
	struct waiter w;
	uint64_t t0 = sig_now_ns();
	waiter_start(&w, s, HSA_SIGNAL_CONDITION_EQ, 0, 1000 * MS, HSA_WAIT_STATE_BLOCKED);
	pthread_join(w.thread, NULL);
	uint64_t wall = w.returned_ns - t0;
	ck_value(w.got, 1);
	ck_assert_msg(wall >= 1000 * MS, "woke after %llu ns", (unsigned long long)wall);
	printf("signal_wait: blocked waiter, 1 s timeout: %.3f ms CPU over %.3f ms (%.3f%%)\n",
	       w.cpu_ns / 1e6, wall / 1e6, 100.0 * (double)w.cpu_ns / (double)wall);
	ck_assert_msg(w.cpu_ns * 50 < wall, "waiter used %llu ns CPU in %llu ns",
		      (unsigned long long)w.cpu_ns, (unsigned long long)wall);
	ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(blocked_waiter_cpu_time_woken)
{
	hsa_signal_t s = sig_create(1);
	struct waiter w;
	uint64_t t0 = sig_now_ns();
	waiter_start(&w, s, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX, HSA_WAIT_STATE_BLOCKED);
	usleep(1000000);
	hsa_signal_store_screlease(s, 0);
	pthread_join(w.thread, NULL);
	uint64_t wall = w.returned_ns - t0;
	ck_value(w.got, 0);
	printf("signal_wait: blocked waiter woken after 1 s: %.3f ms CPU (%.3f%%)\n",
	       w.cpu_ns / 1e6, 100.0 * (double)w.cpu_ns / (double)wall);
	ck_assert_msg(w.cpu_ns * 50 < wall, "waiter used %llu ns CPU in %llu ns",
		      (unsigned long long)w.cpu_ns, (unsigned long long)wall);
	ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
}
END_TEST

/* A value counted down in steps, the way a batch of GPU packets sharing one
 * completion signal counts it: quick runs (the waiter spins through them)
 * broken by pauses of 300 us (it sleeps, is woken by a step that does not
 * satisfy it, spins again, sleeps again).  Every round must end with the
 * waiter seeing 0, long before its 10 s timeout: a lost wake-up on the way
 * back to sleep would leave it asleep on a value that is already there. */
START_TEST(blocked_waiter_follows_a_counting_signal)
{
	enum { ROUNDS = 40, STEPS = 64 };
	hsa_signal_t s = sig_create(0);
	for (int r = 0; r < ROUNDS; r++) {
		hsa_signal_store_relaxed(s, STEPS);
		struct waiter w;
		waiter_start(&w, s, HSA_SIGNAL_CONDITION_LT, 1, 10000 * MS,
			     HSA_WAIT_STATE_BLOCKED);
		for (int i = 0; i < STEPS; i++) {
			if (i % 8 == (r & 7))
				usleep(300);
			hsa_signal_subtract_screlease(s, 1);
		}
		pthread_join(w.thread, NULL);
		ck_value(w.got, 0);
	}
	ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
}
END_TEST

/* A value that moves but slowly (a step every 2 ms) is not a reason to
 * stay awake: the waiter sleeps between steps.  < 5 % of a core over
 * ~0.5 s (the steps cost a wake-up each). */
START_TEST(blocked_waiter_cpu_time_slow_steps)
{
	hsa_signal_t s = sig_create(0);
	struct waiter w;
	uint64_t t0 = sig_now_ns();
	waiter_start(&w, s, HSA_SIGNAL_CONDITION_EQ, -1, 500 * MS, HSA_WAIT_STATE_BLOCKED);
	int steps = 0;
	while (sig_now_ns() - t0 < 520 * MS) {
		usleep(2000);
		hsa_signal_add_screlease(s, 1);
		steps++;
	}
	pthread_join(w.thread, NULL);
	uint64_t wall = w.returned_ns - t0;
	ck_assert_int_ge(w.got, 1);
	printf("signal_wait: blocked waiter, a step every 2 ms (%d steps), 0.5 s timeout: "
	       "%.3f ms CPU over %.3f ms (%.3f%%)\n", steps, w.cpu_ns / 1e6, wall / 1e6,
	       100.0 * (double)w.cpu_ns / (double)wall);
	ck_assert_msg(w.cpu_ns * 20 < wall, "waiter used %llu ns CPU in %llu ns",
		      (unsigned long long)w.cpu_ns, (unsigned long long)wall);
	ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
}
END_TEST

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Store in this thread -> a sleeping waiter returns: printed as a figure,
 * asserted only for correctness (every round's value arrives). */
START_TEST(wake_latency_report)
{
	enum { ROUNDS = 100 };
	static uint64_t lat[ROUNDS];
	hsa_signal_t s = sig_create(0);
	for (int i = 0; i < ROUNDS; i++) {
		struct waiter w;
		waiter_start(&w, s, HSA_SIGNAL_CONDITION_EQ, i + 1, UINT64_MAX,
			     HSA_WAIT_STATE_BLOCKED);
		usleep(2000); /* past any spin: the waiter sleeps in WAIT_EVENTS */
		uint64_t t0 = sig_now_ns();
		hsa_signal_store_screlease(s, i + 1);
		pthread_join(w.thread, NULL);
		ck_value(w.got, i + 1);
		lat[i] = w.returned_ns - t0;
	}
	qsort(lat, ROUNDS, sizeof(lat[0]), cmp_u64);
	printf("signal_wait: blocked wake-up latency (store -> waiter returns), %d rounds: "
	       "min %.1f us, median %.1f us, p90 %.1f us, max %.1f us\n", ROUNDS,
	       lat[0] / 1e3, lat[ROUNDS / 2] / 1e3, lat[ROUNDS * 9 / 10] / 1e3,
	       lat[ROUNDS - 1] / 1e3);
	ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("signal_wait");
	TCase *tc = tcase_create("wait");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, satisfied_conditions_return_at_once);
	tcase_add_test(tc, eq_times_out_blocked);
	tcase_add_test(tc, ne_times_out_blocked);
	tcase_add_test(tc, lt_times_out_blocked);
	tcase_add_test(tc, gte_times_out_blocked);
	tcase_add_test(tc, eq_times_out_active);
	tcase_add_test(tc, gte_times_out_active);
	tcase_add_test(tc, unknown_condition_does_not_block);
	tcase_add_test(tc, blocked_waiter_woken_by_store);
	tcase_add_test(tc, active_waiter_woken_by_store);
	tcase_add_test(tc, gpu_only_waiter_woken_by_store);
	tcase_add_test(tc, blocked_waiter_woken_by_subtract);
	tcase_add_test(tc, three_waiters_woken_by_one_store);
	tcase_add_test(tc, destroy_wakes_a_sleeping_waiter);
	tcase_add_test(tc, blocked_waiter_cpu_time_timeout);
	tcase_add_test(tc, blocked_waiter_cpu_time_woken);
	tcase_add_test(tc, blocked_waiter_follows_a_counting_signal);
	tcase_add_test(tc, blocked_waiter_cpu_time_slow_steps);
	tcase_add_test(tc, wake_latency_report);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(suite)
