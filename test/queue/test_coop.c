/*
 * Cooperative queues (src/queue/queue.c): an agent that reports GWS
 * (HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES) creates one cooperative queue
 * holding a GWS slot (ALLOC_QUEUE_GWS), shared by every cooperative create
 * on it and destroyed with the last destroy, after which a new one can be
 * made (the GWS went with the queue).  With HL_GWS_REFUSED=1 the suite runs
 * with kfdemu refusing the first ALLOC_QUEUE_GWS: the create fails with
 * OUT_OF_RESOURCES and the agent stops reporting cooperative queues.
 * Label emu.
 */
#include <stdlib.h>
#include <string.h>

#include "hl_check.h"
#include "q_test.h"

static bool coop_reported(void)
{
	bool coop = false;
	ck_status(hsa_agent_get_info(q_gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES,
				     &coop), HSA_STATUS_SUCCESS);
	return coop;
}

static bool refused(void)
{
	const char *e = getenv("HL_GWS_REFUSED");
	return e && strcmp(e, "1") == 0;
}

START_TEST(one_shared_gws_queue_per_agent)
{
	q_init();
	ck_assert_msg(coop_reported(), "the mi210 preset has GWS: cooperative queues expected");
	hsa_queue_t *a = NULL, *b = NULL, *multi = q_create(64, HSA_QUEUE_TYPE_MULTI);
	ck_status(hsa_queue_create(q_gpu, 128, HSA_QUEUE_TYPE_COOPERATIVE, NULL, NULL, UINT32_MAX,
				   UINT32_MAX, &a), HSA_STATUS_SUCCESS);
	ck_assert_ptr_nonnull(a);
	ck_assert_uint_eq(a->type, HSA_QUEUE_TYPE_COOPERATIVE);
	ck_assert_uint_eq(a->size, 128);
	ck_status(hsa_queue_create(q_gpu, 64, HSA_QUEUE_TYPE_COOPERATIVE, NULL, NULL, 0, 0, &b),
		  HSA_STATUS_SUCCESS);
	ck_assert_ptr_eq(a, b);
	ck_assert_ptr_ne(a, multi);
	/* The first destroy leaves it to its other creator. */
	ck_status(hsa_queue_destroy(a), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_queue_set_priority(b, HSA_AMD_QUEUE_PRIORITY_HIGH), HSA_STATUS_SUCCESS);
	ck_status(hsa_queue_destroy(b), HSA_STATUS_SUCCESS);
	ck_status(hsa_queue_destroy(b), HSA_STATUS_ERROR_INVALID_QUEUE);
	/* The GWS went with the queue: a new cooperative queue gets it. */
	ck_status(hsa_queue_create(q_gpu, 64, HSA_QUEUE_TYPE_COOPERATIVE, NULL, NULL, 0, 0, &a),
		  HSA_STATUS_SUCCESS);
	ck_assert(coop_reported());
	ck_status(hsa_queue_destroy(a), HSA_STATUS_SUCCESS);
	ck_status(hsa_queue_destroy(multi), HSA_STATUS_SUCCESS);
	q_fini();
}
END_TEST

START_TEST(refused_gws_withdraws_cooperative_queues)
{
	q_init();
	ck_assert(coop_reported());
	hsa_queue_t *q = NULL;
	ck_status(hsa_queue_create(q_gpu, 64, HSA_QUEUE_TYPE_COOPERATIVE, NULL, NULL, 0, 0, &q),
		  HSA_STATUS_ERROR_OUT_OF_RESOURCES);
	ck_assert_ptr_null(q);
	ck_assert(!coop_reported());
	ck_status(hsa_queue_create(q_gpu, 64, HSA_QUEUE_TYPE_COOPERATIVE, NULL, NULL, 0, 0, &q),
		  HSA_STATUS_ERROR_INVALID_QUEUE_CREATION);
	/* Other queues are unaffected. */
	q = q_create(64, HSA_QUEUE_TYPE_MULTI);
	ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
	q_fini();
}
END_TEST

static Suite *coop_suite(void)
{
	Suite *s = suite_create("queue_coop");
	TCase *tc = tcase_create("coop");
	if (refused())
		tcase_add_test(tc, refused_gws_withdraws_cooperative_queues);
	else
		tcase_add_test(tc, one_shared_gws_queue_per_agent);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(coop_suite)
