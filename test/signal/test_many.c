/*
 * Many signals on kfdemu: more than one slab, slot reuse, and more event
 * signals than the kernel's per-process limit of 4095 (the pool falls back
 * to signals without an event, whose waits still work).  Label emu.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "hl_check.h"
#include "sig_test.h"
#include "signal/signal_priv.h"

#define KERNEL_SIGNAL_EVENTS 4095
#define MANY 4300

static hsa_signal_t *sigs;

static void setup(void)
{
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	sigs = calloc(MANY, sizeof(*sigs));
	ck_assert_ptr_nonnull(sigs);
}

static void teardown(void)
{
	free(sigs);
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

static int cmp_handle(const void *a, const void *b)
{
	uint64_t x = ((const hsa_signal_t *)a)->handle, y = ((const hsa_signal_t *)b)->handle;
	return x < y ? -1 : x > y;
}

START_TEST(beyond_one_slab)
{
	enum { N = 3000 }; /* a slab holds 1024 */
	for (int i = 0; i < N; i++) {
		ck_status(hsa_signal_create(i, 0, NULL, &sigs[i]), HSA_STATUS_SUCCESS);
		ck_value(sigs[i].handle % 64, 0);
	}
	for (int i = 0; i < N; i++)
		ck_value(hsa_signal_load_relaxed(sigs[i]), i);
	hsa_signal_t *sorted = malloc(N * sizeof(*sorted));
	ck_assert_ptr_nonnull(sorted);
	for (int i = 0; i < N; i++)
		sorted[i] = sigs[i];
	qsort(sorted, N, sizeof(*sorted), cmp_handle);
	for (int i = 1; i < N; i++)
		ck_assert_msg(sorted[i].handle >= sorted[i - 1].handle + 64,
			      "signals %#llx and %#llx overlap",
			      (unsigned long long)sorted[i - 1].handle,
			      (unsigned long long)sorted[i].handle);
	for (int i = 0; i < N; i++)
		ck_status(hsa_signal_destroy(sigs[i]), HSA_STATUS_SUCCESS);
	/* Slots are reused: new signals land on addresses we had, except
	 * those the quarantine still holds (the last HL_SIGNAL_QUARANTINE
	 * destroyed), which new slots stand in for. */
	int fresh = 0;
	for (int i = 0; i < N; i++) {
		hsa_signal_t s;
		ck_status(hsa_signal_create(-i, 0, NULL, &s), HSA_STATUS_SUCCESS);
		fresh += bsearch(&s, sorted, N, sizeof(s), cmp_handle) == NULL;
		ck_value(hsa_signal_load_relaxed(s), -i);
		sigs[i] = s;
	}
	ck_assert_msg(fresh <= (int)HL_SIGNAL_QUARANTINE,
		      "%d of %d signals at new addresses: slots are not reused", fresh, N);
	for (int i = 0; i < N; i++)
		ck_status(hsa_signal_destroy(sigs[i]), HSA_STATUS_SUCCESS);
	free(sorted);
}
END_TEST

struct waiter {
	hsa_signal_t s;
	atomic_int started;
	hsa_signal_value_t got;
};

static void *waiter_main(void *arg)
{
	struct waiter *w = arg;
	atomic_store(&w->started, 1);
	w->got = hsa_signal_wait_scacquire(w->s, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
					   HSA_WAIT_STATE_BLOCKED);
	return NULL;
}

static atomic_int handler_calls;
static bool count_call(hsa_signal_value_t v, void *arg)
{
	(void)v;
	(void)arg;
	atomic_fetch_add(&handler_calls, 1);
	return false;
}

START_TEST(more_event_signals_than_the_kernel_allows)
{
	int with_event = 0, first_without = -1;
	for (int i = 0; i < MANY; i++) {
		ck_status(hsa_signal_create(1, 0, NULL, &sigs[i]), HSA_STATUS_SUCCESS);
		if (sig_amd(sigs[i])->event_mailbox_ptr)
			with_event++;
		else if (first_without < 0)
			first_without = i;
	}
	ck_assert_msg(first_without >= 0, "all %d signals got an event", MANY);
	ck_assert_msg(with_event <= KERNEL_SIGNAL_EVENTS, "%d events", with_event);
	ck_assert_msg(with_event > 4000, "only %d signals got an event", with_event);

	/* An event-less signal still wakes a blocked waiter. */
	hsa_signal_t plain = sigs[MANY - 1];
	ck_value(sig_amd(plain)->event_mailbox_ptr, 0);
	struct waiter w = { .s = plain };
	pthread_t t;
	ck_assert_int_eq(pthread_create(&t, NULL, waiter_main, &w), 0);
	while (!atomic_load(&w.started))
		usleep(100);
	usleep(20000);
	hsa_signal_store_screlease(plain, 0);
	pthread_join(t, NULL);
	ck_value(w.got, 0);

	/* ... and runs an async handler (the service thread polls it). */
	atomic_store(&handler_calls, 0);
	hsa_signal_t plain2 = sigs[MANY - 2];
	ck_status(hsa_amd_signal_async_handler(plain2, HSA_SIGNAL_CONDITION_EQ, 0, count_call, NULL),
		  HSA_STATUS_SUCCESS);
	hsa_signal_store_screlease(plain2, 0);
	while (atomic_load(&handler_calls) == 0)
		usleep(1000);
	ck_value(atomic_load(&handler_calls), 1);

	/* A destroyed signal's event goes to the next signal. */
	ck_status(hsa_signal_destroy(sigs[0]), HSA_STATUS_SUCCESS);
	ck_status(hsa_signal_create(1, 0, NULL, &sigs[0]), HSA_STATUS_SUCCESS);
	ck_assert_msg(sig_amd(sigs[0])->event_mailbox_ptr != 0, "the freed event was not reused");

	for (int i = 0; i < MANY; i++)
		ck_status(hsa_signal_destroy(sigs[i]), HSA_STATUS_SUCCESS);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("signal_many");
	TCase *tc = tcase_create("many");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, beyond_one_slab);
	tcase_add_test(tc, more_event_signals_than_the_kernel_allows);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(suite)
