/*
 * hsa_init when the driver fails part-way (kfdemu fault injection,
 * KFDEMU_FAIL): the failing hsa_init returns the status ROCr gives
 * (HL_EXPECT_FIRST, hex), leaves nothing behind (ASan checks the partial
 * teardown), and the next hsa_init, which the fault no longer hits,
 * succeeds.  Label emu.
 */
#include <stdlib.h>

#include "hl_check.h"
#include "rt_test.h"

START_TEST(failed_init_is_clean_and_retry_succeeds)
{
	const char *expect = getenv("HL_EXPECT_FIRST");
	ck_assert_msg(expect != NULL, "HL_EXPECT_FIRST not set");
	hsa_status_t first = (hsa_status_t)strtoul(expect, NULL, 16);
	ck_status(hsa_init(), first);
	if (first != HSA_STATUS_SUCCESS) {
		uint16_t major;
		ck_status(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major),
			  HSA_STATUS_ERROR_NOT_INITIALIZED);
		ck_status(hsa_shut_down(), HSA_STATUS_ERROR_NOT_INITIALIZED);
		ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	}
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
	ck_status(hsa_shut_down(), HSA_STATUS_ERROR_NOT_INITIALIZED);
}
END_TEST

static Suite *fault_suite(void)
{
	Suite *s = suite_create("runtime_init_fault");
	TCase *tc = tcase_create("fault");
	tcase_add_test(tc, failed_init_is_clean_and_retry_succeeds);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(fault_suite)
