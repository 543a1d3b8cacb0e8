/*
 * Signal value operations on kfdemu: every load, store and read-modify-write
 * flavour, each checked for its result and the value it leaves.  Label emu.
 */
#include "hl_check.h"
#include "sig_test.h"

typedef void (*rmw_fn)(hsa_signal_t, hsa_signal_value_t);
typedef hsa_signal_value_t (*xchg_fn)(hsa_signal_t, hsa_signal_value_t);
typedef hsa_signal_value_t (*cas_fn)(hsa_signal_t, hsa_signal_value_t, hsa_signal_value_t);

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#define ORDERS(op) { op##_relaxed, op##_scacquire, op##_acquire, op##_screlease, \
		     op##_release, op##_scacq_screl, op##_acq_rel }
static const rmw_fn adds[] = ORDERS(hsa_signal_add);
static const rmw_fn subs[] = ORDERS(hsa_signal_subtract);
static const rmw_fn ands[] = ORDERS(hsa_signal_and);
static const rmw_fn ors[] = ORDERS(hsa_signal_or);
static const rmw_fn xors[] = ORDERS(hsa_signal_xor);
static const xchg_fn xchgs[] = ORDERS(hsa_signal_exchange);
static const cas_fn cass[] = ORDERS(hsa_signal_cas);
static hsa_signal_value_t (*const loads[])(hsa_signal_t) = {
	hsa_signal_load_relaxed, hsa_signal_load_scacquire, hsa_signal_load_acquire
};
static void (*const store_fns[])(hsa_signal_t, hsa_signal_value_t) = {
	hsa_signal_store_relaxed, hsa_signal_store_screlease, hsa_signal_store_release,
	hsa_signal_silent_store_relaxed, hsa_signal_silent_store_screlease
};
#pragma GCC diagnostic pop
#define N_ORDERS 7

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

START_TEST(initial_value_loads)
{
	hsa_signal_t s = sig_create(-123456789012345ll);
	for (unsigned i = 0; i < 3; i++)
		ck_value(loads[i](s), -123456789012345ll);
	ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(every_store_flavour)
{
	for (unsigned i = 0; i < 5; i++) {
		store_fns[i](sig, 1000 + i);
		ck_value(hsa_signal_load_relaxed(sig), 1000 + i);
		ck_value(sig_amd(sig)->value, 1000 + i);
	}
}
END_TEST

START_TEST(add)
{
	hsa_signal_store_relaxed(sig, 10);
	for (unsigned i = 0; i < N_ORDERS; i++)
		adds[i](sig, 3);
	ck_value(hsa_signal_load_relaxed(sig), 10 + 3 * N_ORDERS);
}
END_TEST

START_TEST(add_negative_and_wrap)
{
	hsa_signal_store_relaxed(sig, INT64_MAX);
	hsa_signal_add_relaxed(sig, 1);
	ck_value(hsa_signal_load_relaxed(sig), INT64_MIN);
	hsa_signal_add_relaxed(sig, -1);
	ck_value(hsa_signal_load_relaxed(sig), INT64_MAX);
}
END_TEST

START_TEST(subtract)
{
	hsa_signal_store_relaxed(sig, 100);
	for (unsigned i = 0; i < N_ORDERS; i++)
		subs[i](sig, 5);
	ck_value(hsa_signal_load_relaxed(sig), 100 - 5 * N_ORDERS);
}
END_TEST

START_TEST(and)
{
	for (unsigned i = 0; i < N_ORDERS; i++) {
		hsa_signal_store_relaxed(sig, 0xFF);
		ands[i](sig, 0x3C | (1 << (8 + i)));
		ck_value(hsa_signal_load_relaxed(sig), 0x3C);
	}
}
END_TEST

START_TEST(or)
{
	hsa_signal_store_relaxed(sig, 0);
	for (unsigned i = 0; i < N_ORDERS; i++)
		ors[i](sig, 1ll << i);
	ck_value(hsa_signal_load_relaxed(sig), (1 << N_ORDERS) - 1);
}
END_TEST

START_TEST(xor)
{
	hsa_signal_store_relaxed(sig, 0x0F);
	for (unsigned i = 0; i < N_ORDERS; i++)
		xors[i](sig, 0xFF);
	/* an odd number of xors with 0xFF */
	ck_value(hsa_signal_load_relaxed(sig), 0xF0);
}
END_TEST

START_TEST(exchange)
{
	hsa_signal_store_relaxed(sig, 1);
	for (unsigned i = 0; i < N_ORDERS; i++)
		ck_value(xchgs[i](sig, 2 + i), 1 + i);
	ck_value(hsa_signal_load_relaxed(sig), 1 + N_ORDERS);
}
END_TEST

START_TEST(cas_success)
{
	hsa_signal_store_relaxed(sig, 7);
	for (unsigned i = 0; i < N_ORDERS; i++)
		ck_value(cass[i](sig, 7 + i, 8 + i), 7 + i);
	ck_value(hsa_signal_load_relaxed(sig), 7 + N_ORDERS);
}
END_TEST

START_TEST(cas_failure_leaves_value)
{
	hsa_signal_store_relaxed(sig, 7);
	for (unsigned i = 0; i < N_ORDERS; i++)
		ck_value(cass[i](sig, 6, 100), 7);
	ck_value(hsa_signal_load_relaxed(sig), 7);
}
END_TEST

START_TEST(ops_on_gpu_only_signal)
{
	hsa_signal_t s;
	ck_status(hsa_amd_signal_create(5, 0, NULL, HSA_AMD_SIGNAL_AMD_GPU_ONLY, &s),
		  HSA_STATUS_SUCCESS);
	hsa_signal_add_scacq_screl(s, 5);
	ck_value(hsa_signal_cas_screlease(s, 10, 11), 10);
	ck_value(hsa_signal_exchange_scacquire(s, 12), 11);
	ck_value(hsa_signal_load_scacquire(s), 12);
	ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(value_pointer_sees_stores)
{
	volatile hsa_signal_value_t *p;
	ck_status(hsa_amd_signal_value_pointer(sig, &p), HSA_STATUS_SUCCESS);
	hsa_signal_store_screlease(sig, 77);
	ck_value(*p, 77);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("signal_ops");
	TCase *tc = tcase_create("ops");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, initial_value_loads);
	tcase_add_test(tc, every_store_flavour);
	tcase_add_test(tc, add);
	tcase_add_test(tc, add_negative_and_wrap);
	tcase_add_test(tc, subtract);
	tcase_add_test(tc, and);
	tcase_add_test(tc, or);
	tcase_add_test(tc, xor);
	tcase_add_test(tc, exchange);
	tcase_add_test(tc, cas_success);
	tcase_add_test(tc, cas_failure_leaves_value);
	tcase_add_test(tc, ops_on_gpu_only_signal);
	tcase_add_test(tc, value_pointer_sees_stores);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(suite)
