/*
 * Fault injection (KFDEMU_FAIL, set by ctest): one BO allocation, GPU map,
 * device mmap or CREATE_QUEUE fails, inside one of three hsa_queue_create
 * calls (the first, with HL_EXPECT_FAIL=1).  That create must fail cleanly
 * (OUT_OF_RESOURCES, no queue handed out) and undo its partial state
 * (ASan/LSan see no leak); every other create must work.  Label emu.
 */
#include <stdlib.h>

#include "hl_check.h"
#include "q_test.h"

/* Three creates and destroys: the injected call fails once, in one of
 * them (the first, with HL_EXPECT_FAIL=1); every other create works. */
START_TEST(failed_create_leaves_nothing_and_next_create_works)
{
	q_init();
	const char *expect = getenv("HL_EXPECT_FAIL");
	int failures = 0;
	for (int i = 0; i < 3; i++) {
		hsa_queue_t *q = NULL;
		hsa_status_t st = hsa_queue_create(q_gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0,
						   0, &q);
		if (i == 0 && expect && atoi(expect))
			ck_status(st, HSA_STATUS_ERROR_OUT_OF_RESOURCES);
		if (st != HSA_STATUS_SUCCESS) {
			ck_status(st, HSA_STATUS_ERROR_OUT_OF_RESOURCES);
			ck_assert_ptr_null(q);
			ck_assert_msg(++failures == 1, "create %d failed too", i);
			continue;
		}
		ck_assert_uint_eq(hsa_queue_add_write_index_relaxed(q, 1), 0);
		ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
	}
	q_fini();
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("queue_faults");
	TCase *tc = tcase_create("faults");
	tcase_add_test(tc, failed_create_leaves_nothing_and_next_create_works);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(suite)
