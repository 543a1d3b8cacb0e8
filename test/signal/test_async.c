/*
 * Async handlers and functions on kfdemu: a handler runs once per satisfied
 * condition and stays registered only while it returns true; its value
 * argument; functions run; the service thread starts on first use only,
 * idles without CPU, and is joined by hsa_shut_down; destroying a signal
 * drops its handlers, from any thread, even from inside the handler.
 * Label emu.
 */
#include <stdatomic.h>
#include <unistd.h>

#include "hl_check.h"
#include "sig_test.h"

static hsa_signal_t done;   /* handlers and functions add 1 here */
static atomic_int calls;
static atomic_llong last_value;

static void setup(void)
{
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	done = sig_create(0);
	atomic_store(&calls, 0);
	atomic_store(&last_value, -1);
}

static void teardown(void)
{
	ck_status(hsa_signal_destroy(done), HSA_STATUS_SUCCESS);
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

/* Waits (no timeout) until done reaches n. */
static void wait_done(hsa_signal_value_t n)
{
	ck_value(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_GTE, n, UINT64_MAX,
					   HSA_WAIT_STATE_BLOCKED) >= n, 1);
}

static void bump(void *arg)
{
	(void)arg;
	hsa_signal_add_screlease(done, 1);
}

/* Two function round trips: once the second has run, every handler the
 * thread found satisfied before it took the first has run too. */
static void barrier_through_service_thread(void)
{
	hsa_signal_value_t base = hsa_signal_load_scacquire(done);
	ck_status(hsa_amd_async_function(bump, NULL), HSA_STATUS_SUCCESS);
	wait_done(base + 1);
	ck_status(hsa_amd_async_function(bump, NULL), HSA_STATUS_SUCCESS);
	wait_done(base + 2);
}

static bool once(hsa_signal_value_t v, void *arg)
{
	(void)arg;
	atomic_store(&last_value, v);
	atomic_fetch_add(&calls, 1);
	hsa_signal_add_screlease(done, 1);
	return false;
}

START_TEST(handler_called_once_then_removed)
{
	hsa_signal_t s = sig_create(1);
	ck_status(hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_EQ, 0, once, NULL),
		  HSA_STATUS_SUCCESS);
	barrier_through_service_thread();
	ck_value(atomic_load(&calls), 0);
	hsa_signal_store_screlease(s, 0);
	wait_done(3);
	ck_value(atomic_load(&calls), 1);
	ck_value(atomic_load(&last_value), 0);
	hsa_signal_store_screlease(s, 1);
	hsa_signal_store_screlease(s, 0);
	barrier_through_service_thread();
	ck_value(atomic_load(&calls), 1);
	ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(handler_gets_the_satisfying_value)
{
	hsa_signal_t s = sig_create(0);
	ck_status(hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_GTE, 40, once, NULL),
		  HSA_STATUS_SUCCESS);
	hsa_signal_store_screlease(s, 42);
	wait_done(1);
	ck_value(atomic_load(&last_value), 42);
	ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
}
END_TEST

/* Returns true (stay registered) the first time, after re-arming the
 * signal; false the second time. */
static bool rearm(hsa_signal_value_t v, void *arg)
{
	hsa_signal_t s = *(hsa_signal_t *)arg;
	(void)v;
	int n = atomic_fetch_add(&calls, 1) + 1;
	hsa_signal_store_relaxed(s, 1);
	hsa_signal_add_screlease(done, 1);
	return n < 2;
}

START_TEST(handler_rearms_by_returning_true)
{
	static hsa_signal_t s;
	s = sig_create(1);
	ck_status(hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_EQ, 0, rearm, &s),
		  HSA_STATUS_SUCCESS);
	hsa_signal_store_screlease(s, 0);
	wait_done(1);
	ck_value(atomic_load(&calls), 1);
	hsa_signal_store_screlease(s, 0);
	wait_done(2);
	ck_value(atomic_load(&calls), 2);
	hsa_signal_store_screlease(s, 0);
	barrier_through_service_thread();
	ck_value(atomic_load(&calls), 2);
	ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(two_handlers_on_one_signal)
{
	hsa_signal_t s = sig_create(1);
	ck_status(hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_EQ, 0, once, NULL),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_LT, 1, once, NULL),
		  HSA_STATUS_SUCCESS);
	hsa_signal_store_screlease(s, 0);
	wait_done(2);
	ck_value(atomic_load(&calls), 2);
	ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(async_function_runs)
{
	ck_status(hsa_amd_async_function(bump, NULL), HSA_STATUS_SUCCESS);
	wait_done(1);
	ck_value(hsa_signal_load_relaxed(done), 1);
}
END_TEST

START_TEST(thread_is_lazy_and_joined_at_shutdown)
{
	int before = sig_thread_count();
	ck_value(sig_threads_named(SIG_SERVICE_THREAD), 0);
	hsa_signal_t s = sig_create(1);
	ck_value(sig_thread_count(), before); /* creating signals starts nothing */
	ck_status(hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_EQ, 0, once, NULL),
		  HSA_STATUS_SUCCESS);
	ck_value(sig_threads_named(SIG_SERVICE_THREAD), 1);
	ck_status(hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_EQ, 5, once, NULL),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_async_function(bump, NULL), HSA_STATUS_SUCCESS);
	ck_value(sig_threads_named(SIG_SERVICE_THREAD), 1); /* one, whatever the load */
	wait_done(1);
	ck_status(hsa_signal_destroy(done), HSA_STATUS_SUCCESS);
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
	ck_value(sig_threads_named(SIG_SERVICE_THREAD), 0);
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	done = sig_create(0);
}
END_TEST

/* The service thread uses no CPU while idle: < 2 % of a core over 0.5 s. */
START_TEST(idle_service_thread_uses_no_cpu)
{
	hsa_signal_t s = sig_create(1);
	ck_status(hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_EQ, 0, once, NULL),
		  HSA_STATUS_SUCCESS);
	barrier_through_service_thread();
	int svc_tid = sig_thread_named(SIG_SERVICE_THREAD);
	ck_assert_msg(svc_tid > 0, "no thread named %s", SIG_SERVICE_THREAD);
	uint64_t cpu0 = sig_tid_cpu_ns(svc_tid), t0 = sig_now_ns();
	usleep(500000);
	uint64_t cpu = sig_tid_cpu_ns(svc_tid) - cpu0, wall = sig_now_ns() - t0;
	ck_assert_msg(cpu * 50 < wall, "the idle service thread used %llu ns CPU in %llu ns",
		      (unsigned long long)cpu, (unsigned long long)wall);
	ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(destroy_drops_the_handler)
{
	hsa_signal_t s = sig_create(1);
	ck_status(hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_EQ, 0, once, NULL),
		  HSA_STATUS_SUCCESS);
	barrier_through_service_thread();
	ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
	hsa_signal_t reused = sig_create(0); /* may get the same slot */
	barrier_through_service_thread();
	ck_value(atomic_load(&calls), 0);
	ck_status(hsa_signal_destroy(reused), HSA_STATUS_SUCCESS);
}
END_TEST

static bool destroy_self(hsa_signal_value_t v, void *arg)
{
	(void)v;
	hsa_signal_t s = *(hsa_signal_t *)arg;
	atomic_fetch_add(&calls, hsa_signal_destroy(s) == HSA_STATUS_SUCCESS);
	hsa_signal_add_screlease(done, 1);
	return true; /* the registration is gone anyway */
}

START_TEST(handler_destroys_its_own_signal)
{
	static hsa_signal_t s;
	s = sig_create(1);
	ck_status(hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_EQ, 0, destroy_self, &s),
		  HSA_STATUS_SUCCESS);
	hsa_signal_store_screlease(s, 0);
	wait_done(1);
	ck_value(atomic_load(&calls), 1);
	barrier_through_service_thread();
	ck_status(hsa_signal_destroy(s), HSA_STATUS_ERROR_INVALID_SIGNAL);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("signal_async");
	TCase *tc = tcase_create("async");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, handler_called_once_then_removed);
	tcase_add_test(tc, handler_gets_the_satisfying_value);
	tcase_add_test(tc, handler_rearms_by_returning_true);
	tcase_add_test(tc, two_handlers_on_one_signal);
	tcase_add_test(tc, async_function_runs);
	tcase_add_test(tc, thread_is_lazy_and_joined_at_shutdown);
	tcase_add_test(tc, idle_service_thread_uses_no_cpu);
	tcase_add_test(tc, destroy_drops_the_handler);
	tcase_add_test(tc, handler_destroys_its_own_signal);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(suite)
