/*
 * A queue's doorbell signal (kind AMD_SIGNAL_KIND_DOORBELL, made by
 * src/queue through hl_signal_doorbell_create) seen through the signal API
 * on kfdemu: stores ring the doorbell and leave the ABI struct intact,
 * every other value call returns 0 and changes nothing, status calls
 * refuse it.  Label emu.
 */
#include "hl_check.h"
#include "sig_test.h"

static hsa_agent_t gpu;
static hsa_queue_t *queue;

static hsa_status_t find_gpu(hsa_agent_t agent, void *data)
{
	(void)data;
	hsa_device_type_t type;
	hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type);
	if (type == HSA_DEVICE_TYPE_GPU && !gpu.handle)
		gpu = agent;
	return HSA_STATUS_SUCCESS;
}

static void setup(void)
{
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	gpu.handle = 0;
	ck_status(hsa_iterate_agents(find_gpu, NULL), HSA_STATUS_SUCCESS);
	ck_assert(gpu.handle);
	ck_status(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_SINGLE, NULL, NULL, UINT32_MAX,
				   UINT32_MAX, &queue), HSA_STATUS_SUCCESS);
}

static void teardown(void)
{
	ck_status(hsa_queue_destroy(queue), HSA_STATUS_SUCCESS);
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

START_TEST(doorbell_signal_layout)
{
	amd_signal_t *a = sig_amd(queue->doorbell_signal);
	ck_value(a->kind, AMD_SIGNAL_KIND_DOORBELL);
	ck_assert_ptr_nonnull((void *)a->hardware_doorbell_ptr);
	ck_assert_ptr_nonnull(a->queue_ptr);
	ck_value(a->event_mailbox_ptr, 0);
}
END_TEST

START_TEST(store_rings_the_doorbell)
{
	amd_signal_t *a = sig_amd(queue->doorbell_signal);
	volatile uint64_t *db = a->hardware_doorbell_ptr;
	/* The write index is 0 and nothing was submitted: ringing with 0 asks
	 * the CP for nothing. */
	hsa_signal_store_screlease(queue->doorbell_signal, 0);
	hsa_signal_store_relaxed(queue->doorbell_signal, 0);
	ck_assert_ptr_eq((void *)a->hardware_doorbell_ptr, (void *)db);
	ck_value(*db, 0);
	ck_value(a->kind, AMD_SIGNAL_KIND_DOORBELL);
}
END_TEST

START_TEST(other_value_calls_do_nothing)
{
	hsa_signal_t s = queue->doorbell_signal;
	amd_signal_t *a = sig_amd(s);
	volatile uint64_t *db = a->hardware_doorbell_ptr;
	ck_value(hsa_signal_load_scacquire(s), 0);
	hsa_signal_add_screlease(s, 5);
	hsa_signal_or_relaxed(s, 1);
	ck_value(hsa_signal_exchange_scacq_screl(s, 7), 0);
	ck_value(hsa_signal_cas_relaxed(s, 0, 7), 0);
	ck_value(hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 1, UINT64_MAX,
					   HSA_WAIT_STATE_BLOCKED), 0);
	ck_assert_ptr_eq((void *)a->hardware_doorbell_ptr, (void *)db);
}
END_TEST

static bool never(hsa_signal_value_t v, void *arg)
{
	(void)v;
	(void)arg;
	return false;
}

START_TEST(status_calls_refuse_it)
{
	hsa_signal_t s = queue->doorbell_signal;
	volatile hsa_signal_value_t *p;
	ck_status(hsa_signal_destroy(s), HSA_STATUS_ERROR_INVALID_SIGNAL);
	ck_status(hsa_amd_signal_value_pointer(s, &p), HSA_STATUS_ERROR_INVALID_SIGNAL);
	ck_status(hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_EQ, 0, never, NULL),
		  HSA_STATUS_ERROR_INVALID_SIGNAL);
	hsa_signal_group_t g;
	ck_status(hsa_signal_group_create(1, &s, 0, NULL, &g), HSA_STATUS_ERROR_INVALID_SIGNAL);
	/* The queue's inactive signal is the runtime's too. */
	amd_queue_t *aq = (amd_queue_t *)queue;
	ck_status(hsa_signal_destroy(aq->queue_inactive_signal), HSA_STATUS_ERROR_INVALID_SIGNAL);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("signal_doorbell");
	TCase *tc = tcase_create("doorbell");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, doorbell_signal_layout);
	tcase_add_test(tc, store_rings_the_doorbell);
	tcase_add_test(tc, other_value_calls_do_nothing);
	tcase_add_test(tc, status_calls_refuse_it);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(suite)
