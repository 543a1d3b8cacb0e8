/*
 * hsa_shut_down when the SET_EVENT that should wake a service thread fails
 * (issue 22, item 5, third fault).  With KFDEMU_FAIL=ioctl:SET_EVENT:N the
 * queue error service's stop wake is refused; the shutdown used to join a
 * thread asleep in WAIT_EVENTS with no timeout, forever.  Now the failure
 * is logged with its errno and the thread, whose waits are bounded, notices
 * the stop on its own: hsa_shut_down returns, and the process can start
 * the runtime again.  The async signal handler thread had the same flaw
 * (case async).
 *
 * The sequence of SET_EVENT calls is fixed.  Case queue (N = 1): two
 * queues (the second needs no wake: its inactive signal interrupts through
 * the event the running service already waits on, src/queue/errors.c),
 * then, once the thread (hsalite names it hl-queue-errors) sleeps, both
 * destroyed (the last one's stop wake: call 1, the one that fails), then
 * hsa_shut_down, which joins the thread.  Case queue_shutdown
 * (KFDEMU_FAIL=ioctl:DESTROY_EVENT:1): the queues left to hsa_shut_down,
 * whose stop wake is the DESTROY_EVENT of the thread's MEMORY event (the
 * process's first; errors.c, service_stop_locked); refused, the shutdown
 * wakes it with a SET_EVENT instead and destroys the event after the join.
 * Case async
 * (N = 2): a handler (its registration wakes the new thread: call 1), then,
 * once the thread (hl-signal-async) sleeps, hsa_shut_down (call 2).  The
 * log must name the failed wake, so a change in that sequence fails the
 * test instead of testing nothing.  A hang is caught by ctest's timeout.
 * Run one case per process (CK_RUN_CASE).
 */
#include <dirent.h>
#include <sched.h>
#include <stdio.h>

#include "hl_check.h"
#include "lc_log.h"
#include "lc_test.h"

static struct lc_env env;

/* The state letter of this process's thread named name, 0 if none. */
static char named_thread_state(const char *name)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	char state = 0;
	while (d && !state && (e = readdir(d))) {
		char path[300], buf[512];
		snprintf(path, sizeof(path), "/proc/self/task/%s/stat", e->d_name);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		size_t n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		buf[n] = 0;
		char *open = strchr(buf, '('), *close = strrchr(buf, ')');
		if (open && close && close[1] == ' ' && (size_t)(close - open - 1) == strlen(name) &&
		    !strncmp(open + 1, name, strlen(name)))
			state = close[2];
	}
	if (d)
		closedir(d);
	return state;
}

/* After the failed wake: the log names it, and a new runtime works. */
static void check_carried_on(const char *logged)
{
	if (!lc_peer_rocr())
		ck_assert_msg(lc_log_has(logged),
			      "the injected failure did not hit the stop wake: no "
			      "\"%s\" in %s", logged, getenv("HSALITE_LOG_FILE"));
	lc_init(&env);
	hsa_queue_t *q = NULL;
	ck_status(hsa_queue_create(env.gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
				   UINT32_MAX, &q),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

/* A runtime with two queues, its error service asleep (hsalite's thread),
 * so only the stop wake can end the service's wait. */
static void two_queues_service_asleep(hsa_queue_t **a, hsa_queue_t **b)
{
	lc_log_truncate();
	lc_init(&env);
	*a = *b = NULL;
	ck_status(hsa_queue_create(env.gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
				   UINT32_MAX, a),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_queue_create(env.gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
				   UINT32_MAX, b),
		  HSA_STATUS_SUCCESS);
	while (!lc_peer_rocr() && named_thread_state("hl-queue-errors") != 'S')
		sched_yield();
}

START_TEST(queue_service_stops_after_failed_wake)
{
	hsa_queue_t *a, *b;
	two_queues_service_asleep(&a, &b);
	ck_status(hsa_queue_destroy(a), HSA_STATUS_SUCCESS);
	ck_status(hsa_queue_destroy(b), HSA_STATUS_SUCCESS);
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
	check_carried_on("error service: waking its thread to stop: SET_EVENT: ENOMEM");
}
END_TEST

START_TEST(queue_service_stops_at_shutdown_after_failed_destroy)
{
	hsa_queue_t *a, *b;
	two_queues_service_asleep(&a, &b);
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
	check_carried_on("error service: stopping it by destroying its MEMORY event: ENOMEM; "
			 "waking it instead");
}
END_TEST

static bool never_called(hsa_signal_value_t value, void *arg)
{
	(void)value;
	(void)arg;
	ck_abort_msg("the handler ran: its condition never held");
	return false;
}

START_TEST(async_service_stops_after_failed_wake)
{
	lc_log_truncate();
	lc_init(&env);
	hsa_signal_t s;
	ck_status(hsa_signal_create(1, 0, NULL, &s), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_EQ, 0, never_called, NULL),
		  HSA_STATUS_SUCCESS);
	/* asleep, so only the stop wake can end its wait (hsalite's thread;
	 * ROCr's has another name and runs from hsa_init) */
	while (!lc_peer_rocr() && named_thread_state("hl-signal-async") != 'S')
		sched_yield();
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
	check_carried_on("async handlers: waking the thread to stop: SET_EVENT: ENOMEM");
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("lifecycle_wake_fail");
	TCase *tc = tcase_create("queue");
	tcase_add_test(tc, queue_service_stops_after_failed_wake);
	suite_add_tcase(s, tc);
	tc = tcase_create("queue_shutdown");
	tcase_add_test(tc, queue_service_stops_at_shutdown_after_failed_destroy);
	suite_add_tcase(s, tc);
	tc = tcase_create("async");
	tcase_add_test(tc, async_service_stops_after_failed_wake);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(suite)
