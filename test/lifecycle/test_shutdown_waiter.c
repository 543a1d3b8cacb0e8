/*
 * hsa_shut_down while other threads wait on a signal (issue 22, item 5,
 * first fault).  A waiter blocked in hsa_signal_wait_scacquire died of a
 * heap use-after-free: the last hsa_shut_down freed the event pool, the
 * slabs and the side entries the waiter was reading.  Now the shutdown
 * marks every live signal dead, wakes the sleepers and waits until every
 * thread has left its wait, as hsa_signal_destroy does: the waiter returns
 * 0 (the value of a dead signal), a group waiter INVALID_SIGNAL, and the
 * process carries on (a fresh hsa_init works).
 *
 * A waiter is known to be inside its wait once its value check has started
 * (a relaxed load it cannot pass) and its thread is asleep (state S in
 * /proc): no sleep of the test's own decides it.
 *
 * Debian's ROCr 5.2.3 (LC_PEER=rocr, label peer) keeps the waiter blocked:
 * there the test checks that the waiter is still waiting after hsa_shut_down,
 * a second hsa_init and a wait on a new signal, and leaves it blocked.
 */
#define _GNU_SOURCE /* pthread_tryjoin_np, gettid */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <unistd.h>

#include "hl_check.h"
#include "lc_test.h"

enum waiter_kind { WAIT_BLOCKED, WAIT_ACTIVE, WAIT_GROUP };

struct waiter {
	enum waiter_kind kind;
	hsa_signal_t signal;
	hsa_signal_group_t group;
	_Atomic pid_t tid;
	_Atomic bool done;
	hsa_signal_value_t value;
	hsa_status_t status;
	pthread_t thread;
};

static struct lc_env env;

static void *waiter_main(void *arg)
{
	struct waiter *w = arg;
	w->tid = gettid();
	switch (w->kind) {
	case WAIT_BLOCKED:
	case WAIT_ACTIVE:
		w->value = hsa_signal_wait_scacquire(
			w->signal, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
			w->kind == WAIT_BLOCKED ? HSA_WAIT_STATE_BLOCKED : HSA_WAIT_STATE_ACTIVE);
		break;
	case WAIT_GROUP: {
		hsa_signal_condition_t cond = HSA_SIGNAL_CONDITION_EQ;
		hsa_signal_value_t cmp = 0;
		hsa_signal_t which = { 0 };
		w->status = hsa_signal_group_wait_any_scacquire(w->group, &cond, &cmp,
								HSA_WAIT_STATE_BLOCKED, &which,
								&w->value);
		break;
	}
	}
	w->done = true;
	return NULL;
}

/* The scheduler state letter of thread tid ('S' sleeping, 'R' running). */
static char thread_state(pid_t tid)
{
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	FILE *f = fopen(path, "r");
	if (!f)
		return '?';
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	char *paren = strrchr(buf, ')'); /* the name may hold spaces */
	return paren && paren[1] == ' ' ? paren[2] : '?';
}

/* Starts w and returns once it is inside its wait: for a sleeping wait,
 * once its thread sleeps; for a spinning one, once it is running (it never
 * leaves the wait by itself: the value stays 1). */
static void waiter_start(struct waiter *w)
{
	w->tid = 0;
	w->done = false;
	ck_assert_int_eq(pthread_create(&w->thread, NULL, waiter_main, w), 0);
	while (!w->tid)
		sched_yield();
	char want = w->kind == WAIT_ACTIVE ? 'R' : 'S';
	/* a spinning waiter is running from its first instruction; the
	 * others pass 'S' only in the wait's sleep (nothing else here blocks:
	 * the value stays 1, so the wait cannot end) */
	while (thread_state(w->tid) != want && !w->done)
		sched_yield();
	ck_assert_msg(!w->done, "the waiter left its wait before hsa_shut_down");
}

/* After hsa_shut_down: on hsalite the waiter has returned or returns now;
 * on ROCr it stays blocked. */
static void waiter_check(struct waiter *w, hsa_signal_value_t expect_value,
			 hsa_status_t expect_status)
{
	if (lc_peer_rocr()) {
		ck_assert_int_eq(pthread_tryjoin_np(w->thread, NULL), EBUSY);
		return;
	}
	ck_assert_int_eq(pthread_join(w->thread, NULL), 0);
	ck_assert_msg(w->value == expect_value, "the waiter returned %lld, expected %lld",
		      (long long)w->value, (long long)expect_value);
	if (w->kind == WAIT_GROUP)
		ck_status(w->status, expect_status);
}

/* The process carries on: a new runtime whose signals work. */
static void carry_on(void)
{
	lc_init(&env);
	hsa_signal_t s;
	ck_status(hsa_signal_create(1, 0, NULL, &s), HSA_STATUS_SUCCESS);
	hsa_signal_store_screlease(s, 0);
	ck_assert_int_eq(hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
						   HSA_WAIT_STATE_BLOCKED),
			 0);
	ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

static void run_one(enum waiter_kind kind)
{
	lc_init(&env);
	static struct waiter w; /* outlives the test on ROCr (blocked thread) */
	memset(&w, 0, sizeof(w));
	w.kind = kind;
	ck_status(hsa_signal_create(1, 0, NULL, &w.signal), HSA_STATUS_SUCCESS);
	if (kind == WAIT_GROUP)
		ck_status(hsa_signal_group_create(1, &w.signal, 0, NULL, &w.group),
			  HSA_STATUS_SUCCESS);
	waiter_start(&w);
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
	carry_on();
	waiter_check(&w, 0, HSA_STATUS_ERROR_INVALID_SIGNAL);
}

START_TEST(blocked_waiter_returns_at_shut_down)
{
	run_one(WAIT_BLOCKED);
}
END_TEST

START_TEST(spinning_waiter_returns_at_shut_down)
{
	run_one(WAIT_ACTIVE);
}
END_TEST

START_TEST(group_waiter_returns_at_shut_down)
{
	run_one(WAIT_GROUP);
}
END_TEST

static void add(Suite *s, const char *name, const TTest *t)
{
	TCase *tc = tcase_create(name);
	tcase_add_test(tc, t);
	suite_add_tcase(s, tc);
}

/* One case per test, so CK_RUN_CASE can run one alone (the ROCr report). */
static Suite *suite(void)
{
	Suite *s = suite_create("lifecycle_shutdown_waiter");
	add(s, "blocked", blocked_waiter_returns_at_shut_down);
	add(s, "spinning", spinning_waiter_returns_at_shut_down);
	add(s, "group", group_waiter_returns_at_shut_down);
	return s;
}

HL_CHECK_MAIN(suite)
