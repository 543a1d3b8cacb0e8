/*
 * hsa_amd_queue_get_info (ROCr 1.18): the agent a queue was created on and
 * its doorbell's address (AqlQueue::GetInfo: HSA_AMD_QUEUE_INFO_AGENT, and
 * HSA_AMD_QUEUE_INFO_DOORBELL_ID, the hardware doorbell pointer as a
 * uint64_t).  Statuses as ROCr's: NOT_INITIALIZED, INVALID_QUEUE for a
 * pointer that is not a live queue (NULL too: Queue::Convert of NULL is not
 * valid), INVALID_ARGUMENT for another attribute; a NULL value, which ROCr
 * writes through, is INVALID_ARGUMENT here.
 */
#include <string.h>

#include "queue/queue_priv.h"

hsa_status_t hsa_amd_queue_get_info(hsa_queue_t *queue, hsa_queue_info_attribute_t attribute,
				    void *value)
{
	struct hl_runtime *rt;
	struct hl_queue *q;
	if (!queue)
		return hl_runtime_get() ? HSA_STATUS_ERROR_INVALID_QUEUE
					: HSA_STATUS_ERROR_NOT_INITIALIZED;
	hsa_status_t st = hl_queue_acquire(queue, &rt, &q);
	if (st != HSA_STATUS_SUCCESS)
		return st;
	switch (attribute) {
	case HSA_AMD_QUEUE_INFO_AGENT: {
		if (!value) {
			st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
			break;
		}
		hsa_agent_t a = hl_agent_handle(q->agent);
		memcpy(value, &a, sizeof(a));
		break;
	}
	case HSA_AMD_QUEUE_INFO_DOORBELL_ID: {
		if (!value) {
			st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
			break;
		}
		uint64_t db = (uint64_t)(uintptr_t)q->doorbell;
		memcpy(value, &db, sizeof(db));
		break;
	}
	default:
		st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
	}
	hl_queue_release(rt);
	return st;
}
