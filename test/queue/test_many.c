/*
 * The KFD per-process queue limit: 127 queues per GPU on an MI210 (the
 * kernel's max_queues, kfd_process_queue_manager.c).  Creating up to the
 * limit works, the next one fails cleanly with OUT_OF_RESOURCES (ENOSPC),
 * and after destroying one a queue can be created again.  Label emu.
 */
#include <stdlib.h>

#include "hl_check.h"
#include "q_test.h"

#define KFD_MAX_QUEUES 127

static void setup(void) { q_init(); }
static void teardown(void) { q_fini(); }

START_TEST(queue_past_the_kfd_limit_fails_cleanly)
{
	hsa_queue_t *qs[KFD_MAX_QUEUES];
	for (int i = 0; i < KFD_MAX_QUEUES; i++) {
		qs[i] = NULL;
		hsa_status_t st = hsa_queue_create(q_gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0,
						   &qs[i]);
		ck_assert_msg(st == HSA_STATUS_SUCCESS, "queue %d: got %#x, expected SUCCESS", i + 1,
			      (unsigned)st);
	}
	hsa_queue_t *extra = NULL;
	ck_status(hsa_queue_create(q_gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &extra),
		  HSA_STATUS_ERROR_OUT_OF_RESOURCES);
	ck_assert_ptr_null(extra);

	ck_status(hsa_queue_destroy(qs[0]), HSA_STATUS_SUCCESS);
	ck_status(hsa_queue_create(q_gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &qs[0]),
		  HSA_STATUS_SUCCESS);
	for (int i = 0; i < KFD_MAX_QUEUES; i++)
		ck_status(hsa_queue_destroy(qs[i]), HSA_STATUS_SUCCESS);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("queue_many");
	TCase *tc = tcase_create("many");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, queue_past_the_kfd_limit_fails_cleanly);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(suite)
