/*
 * Signals before hsa_init (and after the last hsa_shut_down): every call
 * that returns a status says NOT_INITIALIZED; value calls return 0 and
 * touch nothing.  Label unit: no device needed.
 */
#include "hl_check.h"
#include "sig_test.h"

static uint64_t fake_storage[16] __attribute__((aligned(64)));

static hsa_signal_t fake_signal(void)
{
	hsa_signal_t s = { (uint64_t)(uintptr_t)fake_storage };
	return s;
}

static bool never(hsa_signal_value_t v, void *arg)
{
	(void)v;
	(void)arg;
	return false;
}

static void nothing(void *arg) { (void)arg; }

START_TEST(create_before_init)
{
	hsa_signal_t s;
	ck_status(hsa_signal_create(0, 0, NULL, &s), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_signal_create(0, 0, NULL, 0, &s), HSA_STATUS_ERROR_NOT_INITIALIZED);
}
END_TEST

START_TEST(destroy_before_init)
{
	ck_status(hsa_signal_destroy(fake_signal()), HSA_STATUS_ERROR_NOT_INITIALIZED);
}
END_TEST

START_TEST(value_pointer_before_init)
{
	volatile hsa_signal_value_t *p;
	ck_status(hsa_amd_signal_value_pointer(fake_signal(), &p),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
}
END_TEST

START_TEST(async_before_init)
{
	ck_status(hsa_amd_signal_async_handler(fake_signal(), HSA_SIGNAL_CONDITION_EQ, 0, never,
					       NULL), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_async_function(nothing, NULL), HSA_STATUS_ERROR_NOT_INITIALIZED);
}
END_TEST

START_TEST(groups_before_init)
{
	hsa_signal_t s = fake_signal();
	hsa_signal_group_t g = { (uint64_t)(uintptr_t)fake_storage };
	hsa_signal_condition_t c = HSA_SIGNAL_CONDITION_EQ;
	hsa_signal_value_t v = 0;
	ck_status(hsa_signal_group_create(1, &s, 0, NULL, &g), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_signal_group_destroy(g), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_signal_group_wait_any_relaxed(g, &c, &v, HSA_WAIT_STATE_ACTIVE, &s, &v),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_signal_group_wait_any_scacquire(g, &c, &v, HSA_WAIT_STATE_ACTIVE, &s, &v),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
}
END_TEST

/* The fake signal is plain memory holding a USER signal of value 5: a call
 * that trusted the handle would read 5 or change it. */
START_TEST(value_calls_before_init_touch_nothing)
{
	amd_signal_t *amd = (amd_signal_t *)fake_storage;
	amd->kind = AMD_SIGNAL_KIND_USER;
	amd->value = 5;
	hsa_signal_t s = fake_signal();
	ck_value(hsa_signal_load_relaxed(s), 0);
	ck_value(hsa_signal_load_scacquire(s), 0);
	hsa_signal_store_relaxed(s, 7);
	hsa_signal_store_screlease(s, 7);
	hsa_signal_silent_store_relaxed(s, 7);
	hsa_signal_add_relaxed(s, 1);
	hsa_signal_subtract_scacq_screl(s, 1);
	hsa_signal_or_screlease(s, 8);
	ck_value(hsa_signal_exchange_relaxed(s, 9), 0);
	ck_value(hsa_signal_cas_relaxed(s, 5, 9), 0);
	ck_value(hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 1, UINT64_MAX,
					   HSA_WAIT_STATE_BLOCKED), 0);
	ck_value(amd->value, 5);
	ck_value(hsa_signal_load_relaxed((hsa_signal_t){ 0 }), 0);
}
END_TEST

START_TEST(wait_any_before_init)
{
	hsa_signal_t s = fake_signal();
	hsa_signal_condition_t c = HSA_SIGNAL_CONDITION_EQ;
	hsa_signal_value_t v = 0;
	ck_value(hsa_amd_signal_wait_any(1, &s, &c, &v, 0, HSA_WAIT_STATE_ACTIVE, &v), UINT32_MAX);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("signal_uninit");
	TCase *tc = tcase_create("uninit");
	tcase_add_test(tc, create_before_init);
	tcase_add_test(tc, destroy_before_init);
	tcase_add_test(tc, value_pointer_before_init);
	tcase_add_test(tc, async_before_init);
	tcase_add_test(tc, groups_before_init);
	tcase_add_test(tc, value_calls_before_init_touch_nothing);
	tcase_add_test(tc, wait_any_before_init);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(suite)
