/*
 * Two threads per operation family on one signal, on kfdemu: exact totals
 * for add / subtract / CAS loops, no lost bit updates for and / or / xor,
 * every exchanged value accounted for, store/wait ping-pong with sleeping
 * waiters (a missed wakeup hangs and fails by timeout), and concurrent
 * create/destroy.  Labels emu, stress; counts sized for TSan in CI.
 */
#include <pthread.h>
#include <stdatomic.h>

#include "hl_check.h"
#include "sig_test.h"

#define OPS 100000
#define ROUNDS 2000

static hsa_signal_t sig;

static void setup(void)
{
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	sig = sig_create(0);
}

static void teardown(void)
{
	ck_status(hsa_signal_destroy(sig), HSA_STATUS_SUCCESS);
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

struct worker {
	pthread_t t;
	int id;
	long long sum;       /* exchange: values returned */
	int errors;          /* bit families: lost updates seen */
};

static void run_two(void *(*fn)(void *), struct worker w[2])
{
	for (int i = 0; i < 2; i++) {
		w[i] = (struct worker){ .id = i };
		ck_assert_int_eq(pthread_create(&w[i].t, NULL, fn, &w[i]), 0);
	}
	for (int i = 0; i < 2; i++)
		pthread_join(w[i].t, NULL);
}

static void *adder(void *arg)
{
	(void)arg;
	for (int i = 0; i < OPS; i++)
		hsa_signal_add_scacq_screl(sig, 1);
	return NULL;
}

START_TEST(two_adders_exact_total)
{
	struct worker w[2];
	run_two(adder, w);
	ck_value(hsa_signal_load_scacquire(sig), 2 * OPS);
}
END_TEST

static void *subtracter(void *arg)
{
	(void)arg;
	for (int i = 0; i < OPS; i++)
		hsa_signal_subtract_relaxed(sig, 1);
	return NULL;
}

START_TEST(two_subtracters_exact_total)
{
	hsa_signal_store_relaxed(sig, 2 * OPS);
	struct worker w[2];
	run_two(subtracter, w);
	ck_value(hsa_signal_load_scacquire(sig), 0);
}
END_TEST

static void *cas_incrementer(void *arg)
{
	(void)arg;
	for (int i = 0; i < OPS / 2; i++) {
		hsa_signal_value_t cur = hsa_signal_load_relaxed(sig), seen;
		while ((seen = hsa_signal_cas_scacq_screl(sig, cur, cur + 1)) != cur)
			cur = seen;
	}
	return NULL;
}

START_TEST(two_cas_loops_exact_total)
{
	struct worker w[2];
	run_two(cas_incrementer, w);
	ck_value(hsa_signal_load_scacquire(sig), OPS);
}
END_TEST

/* Each thread owns one bit: after its OR the bit must read set, after its
 * AND (with the complement) clear, whatever the other thread does. */
static void *or_and_bit(void *arg)
{
	struct worker *w = arg;
	hsa_signal_value_t bit = 1ll << (w->id * 40);
	for (int i = 0; i < OPS / 2; i++) {
		hsa_signal_or_scacq_screl(sig, bit);
		w->errors += !(hsa_signal_load_relaxed(sig) & bit);
		hsa_signal_and_scacq_screl(sig, ~bit);
		w->errors += !!(hsa_signal_load_relaxed(sig) & bit);
	}
	return NULL;
}

START_TEST(two_threads_or_and_own_bits)
{
	struct worker w[2];
	run_two(or_and_bit, w);
	ck_value(w[0].errors + w[1].errors, 0);
	ck_value(hsa_signal_load_relaxed(sig), 0);
}
END_TEST

static void *xor_bit(void *arg)
{
	struct worker *w = arg;
	hsa_signal_value_t bit = 1ll << (w->id * 40 + 3);
	for (int i = 0; i < OPS; i++) {
		hsa_signal_xor_relaxed(sig, bit);
		bool set = (hsa_signal_load_relaxed(sig) & bit) != 0;
		w->errors += set != (i % 2 == 0);
	}
	return NULL;
}

START_TEST(two_threads_xor_own_bits)
{
	struct worker w[2];
	run_two(xor_bit, w);
	ck_value(w[0].errors + w[1].errors, 0);
	ck_value(hsa_signal_load_relaxed(sig), 0); /* an even number of flips each */
}
END_TEST

/* Thread k writes k*OPS+1 .. k*OPS+OPS; every value written is either
 * returned by some exchange or left in the signal. */
static void *exchanger(void *arg)
{
	struct worker *w = arg;
	for (long long i = 1; i <= OPS; i++)
		w->sum += hsa_signal_exchange_scacq_screl(sig, (long long)w->id * OPS + i);
	return NULL;
}

START_TEST(two_exchangers_lose_nothing)
{
	struct worker w[2];
	run_two(exchanger, w);
	long long written = 0;
	for (long long k = 0; k < 2; k++)
		for (long long i = 1; i <= OPS; i++)
			written += k * OPS + i;
	ck_value(w[0].sum + w[1].sum + hsa_signal_load_relaxed(sig), written);
}
END_TEST

/* Ping-pong: thread 0 waits for an even value and makes it odd, thread 1
 * the reverse, both with the BLOCKED hint.  A missed wakeup hangs. */
static void *ping(void *arg)
{
	struct worker *w = arg;
	for (int i = w->id; i < 2 * ROUNDS; i += 2) {
		hsa_signal_value_t v = hsa_signal_wait_scacquire(sig, HSA_SIGNAL_CONDITION_EQ, i,
								 UINT64_MAX, HSA_WAIT_STATE_BLOCKED);
		w->errors += v != i;
		hsa_signal_store_screlease(sig, i + 1);
	}
	return NULL;
}

START_TEST(ping_pong_blocked_waits)
{
	struct worker w[2];
	run_two(ping, w);
	ck_value(w[0].errors + w[1].errors, 0);
	ck_value(hsa_signal_load_relaxed(sig), 2 * ROUNDS);
}
END_TEST

/* The same through wait_any on {sig, an idle signal}. */
static hsa_signal_t idle;
static void *ping_any(void *arg)
{
	struct worker *w = arg;
	hsa_signal_t set[2] = { idle, sig };
	hsa_signal_condition_t c[2] = { HSA_SIGNAL_CONDITION_NE, HSA_SIGNAL_CONDITION_EQ };
	for (int i = w->id; i < 2 * ROUNDS; i += 2) {
		hsa_signal_value_t cmp[2] = { 0, i }, v = -1;
		uint32_t idx = hsa_amd_signal_wait_any(2, set, c, cmp, UINT64_MAX,
						       HSA_WAIT_STATE_BLOCKED, &v);
		w->errors += idx != 1 || v != i;
		hsa_signal_store_screlease(sig, i + 1);
	}
	return NULL;
}

START_TEST(ping_pong_wait_any)
{
	idle = sig_create(0);
	struct worker w[2];
	run_two(ping_any, w);
	ck_value(w[0].errors + w[1].errors, 0);
	ck_value(hsa_signal_load_relaxed(sig), 2 * ROUNDS);
	ck_status(hsa_signal_destroy(idle), HSA_STATUS_SUCCESS);
}
END_TEST

static void *creator(void *arg)
{
	struct worker *w = arg;
	for (int i = 0; i < 2000; i++) {
		hsa_signal_t s;
		if (hsa_signal_create(i, 0, NULL, &s) != HSA_STATUS_SUCCESS) {
			w->errors++;
			continue;
		}
		hsa_signal_add_relaxed(s, 1);
		w->errors += hsa_signal_load_relaxed(s) != i + 1;
		w->errors += hsa_signal_destroy(s) != HSA_STATUS_SUCCESS;
	}
	return NULL;
}

START_TEST(two_threads_create_and_destroy)
{
	struct worker w[2];
	run_two(creator, w);
	ck_value(w[0].errors + w[1].errors, 0);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("signal_stress");
	TCase *tc = tcase_create("stress");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, two_adders_exact_total);
	tcase_add_test(tc, two_subtracters_exact_total);
	tcase_add_test(tc, two_cas_loops_exact_total);
	tcase_add_test(tc, two_threads_or_and_own_bits);
	tcase_add_test(tc, two_threads_xor_own_bits);
	tcase_add_test(tc, two_exchangers_lose_nothing);
	tcase_add_test(tc, ping_pong_blocked_waits);
	tcase_add_test(tc, ping_pong_wait_any);
	tcase_add_test(tc, two_threads_create_and_destroy);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(suite)
