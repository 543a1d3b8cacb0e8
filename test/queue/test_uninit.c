/*
 * Queue functions without a runtime: every status-returning one answers
 * HSA_STATUS_ERROR_NOT_INITIALIZED, and the index functions, which have
 * no status, do nothing on a NULL queue.  Label unit.
 */
#include "hl_check.h"
#include "q_test.h"

START_TEST(create_before_init_is_not_initialized)
{
	hsa_agent_t agent = { 1 };
	hsa_queue_t *q = NULL;
	ck_status(hsa_queue_create(agent, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_assert_ptr_null(q);
}
END_TEST

START_TEST(control_before_init_is_not_initialized)
{
	amd_queue_t fake = { 0 };
	hsa_queue_t *q = &fake.hsa_queue;
	uint32_t mask[1] = { 1 };
	ck_status(hsa_queue_destroy(q), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_queue_inactivate(q), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_queue_cu_set_mask(q, 32, mask), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_queue_cu_get_mask(q, 32, mask), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_queue_set_priority(q, HSA_AMD_QUEUE_PRIORITY_HIGH),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_profiling_set_profiler_enabled(q, 1), HSA_STATUS_ERROR_NOT_INITIALIZED);
}
END_TEST

START_TEST(profiling_before_init_is_not_initialized)
{
	hsa_agent_t agent = { 1 };
	hsa_signal_t sig = { 1 };
	hsa_amd_profiling_dispatch_time_t t;
	uint64_t sys;
	ck_status(hsa_amd_profiling_get_dispatch_time(agent, sig, &t),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_profiling_convert_tick_to_system_domain(agent, 1, &sys),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
}
END_TEST

START_TEST(soft_queue_before_init_is_not_initialized)
{
	hsa_region_t region = { 1 };
	hsa_signal_t sig = { 1 };
	hsa_queue_t *q = NULL;
	ck_status(hsa_soft_queue_create(region, 64, HSA_QUEUE_TYPE_MULTI, 0, sig, &q),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
}
END_TEST

START_TEST(index_functions_ignore_null_queue)
{
	ck_assert_uint_eq(hsa_queue_load_write_index_relaxed(NULL), 0);
	ck_assert_uint_eq(hsa_queue_load_read_index_scacquire(NULL), 0);
	ck_assert_uint_eq(hsa_queue_add_write_index_scacq_screl(NULL, 5), 0);
	ck_assert_uint_eq(hsa_queue_cas_write_index_relaxed(NULL, 0, 5), 0);
	hsa_queue_store_write_index_screlease(NULL, 5);
	hsa_queue_store_read_index_relaxed(NULL, 5);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("queue_uninit");
	TCase *tc = tcase_create("uninit");
	tcase_add_test(tc, create_before_init_is_not_initialized);
	tcase_add_test(tc, control_before_init_is_not_initialized);
	tcase_add_test(tc, profiling_before_init_is_not_initialized);
	tcase_add_test(tc, soft_queue_before_init_is_not_initialized);
	tcase_add_test(tc, index_functions_ignore_null_queue);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(suite)
