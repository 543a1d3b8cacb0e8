/*
 * Stock ROCr 5.2.3 on kfdemu asks for GWS when it creates a cooperative
 * queue (hsaKmtAllocQueueGWS on its single shared GWS queue) and fails the
 * queue when ALLOC_QUEUE_GWS fails ("GWS allocation failed",
 * OUT_OF_RESOURCES).  With GWS modelled the queue is created, reported as
 * supported by HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES, shared by a second
 * cooperative queue, and can be destroyed and created again (destroying the
 * GWS queue releases the process's GWS).  Built against /usr/include/hsa,
 * linked against Debian's ROCr only; runs under the launcher (mi210).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include "hl_check.h"

static hsa_agent_t gpu;
static bool have_gpu;

static hsa_status_t find_gpu(hsa_agent_t a, void *data)
{
	(void)data;
	hsa_device_type_t t;
	if (hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t) == HSA_STATUS_SUCCESS &&
	    t == HSA_DEVICE_TYPE_GPU && !have_gpu) {
		gpu = a;
		have_gpu = true;
	}
	return HSA_STATUS_SUCCESS;
}

static void setup(void)
{
	ck_assert_int_eq(hsa_init(), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(hsa_iterate_agents(find_gpu, NULL), HSA_STATUS_SUCCESS);
	if (!have_gpu) {
		fprintf(stderr, "peer_gws: ROCr found no GPU agent: skipped\n");
		exit(HL_SKIP);
	}
}

static void teardown(void)
{
	hsa_shut_down();
}

static hsa_status_t coop_queue(hsa_queue_t **q)
{
	return hsa_queue_create(gpu, 1024, HSA_QUEUE_TYPE_COOPERATIVE, NULL, NULL, UINT32_MAX,
				UINT32_MAX, q);
}

START_TEST(rocr_creates_cooperative_queues_with_gws)
{
	bool coop = false;
	ck_assert_int_eq(hsa_agent_get_info(gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES,
					    &coop), HSA_STATUS_SUCCESS);
	ck_assert(coop);
	hsa_queue_t *a = NULL, *b = NULL;
	hsa_status_t st = coop_queue(&a);
	ck_assert_msg(st == HSA_STATUS_SUCCESS, "cooperative queue: status 0x%x", st);
	ck_assert_int_eq(coop_queue(&b), HSA_STATUS_SUCCESS); /* the shared GWS queue again */
	ck_assert_int_eq(hsa_queue_destroy(b), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(hsa_queue_destroy(a), HSA_STATUS_SUCCESS);
	/* the last reference gone, ROCr destroyed the queue and its GWS: a new
	 * one must get GWS again */
	ck_assert_int_eq(coop_queue(&a), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(hsa_queue_destroy(a), HSA_STATUS_SUCCESS);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("peer_gws");
	TCase *tc = tcase_create("gws");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, rocr_creates_cooperative_queues_with_gws);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(suite)
