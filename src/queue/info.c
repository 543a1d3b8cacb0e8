/*
 * hsa_amd_queue_get_info (ROCr 1.18): the agent a queue was created on and
 * its doorbell's address (AqlQueue::GetInfo: HSA_AMD_QUEUE_INFO_AGENT, and
 * HSA_AMD_QUEUE_INFO_DOORBELL_ID, the hardware doorbell pointer as a
 * uint64_t).  Statuses as ROCr's: NOT_INITIALIZED, INVALID_QUEUE for a
 * pointer that is not a live queue (NULL too: Queue::Convert of NULL is not
 * valid), INVALID_ARGUMENT for another attribute; a NULL value, which ROCr
 * writes through, is INVALID_ARGUMENT here.
 *
 * AMD's newer header adds (interface 1.16 and later):
 *  - HSA_QUEUE_INFO_USE_COUNT: a counted queue's handle (counted.c) gives
 *    its hardware queue's use count (uint32_t); any other live queue
 *    int32_t -1, as ROCr's CountedQueuePoolManager;
 *  - HSA_QUEUE_INFO_HW_ID: the hardware queue's id (uint32_t, the low word
 *    of hsa_queue_t.id, as ROCr): a handle answers for its hardware queue;
 *    the header says it serves non-counted queues too, and it does here;
 *  - the metadata prefetch attributes: hsalite creates no metadata ring
 *    (KFD 1.22's metadata_ring_size is not used), so the packet versions
 *    are 0xFF ("not supported", the header's value) and the ring address
 *    is 0; HSA_AMD_QUEUE_INFO_PROPERTIES is uint8_t[8] with no bit set.
 * Every other call that takes a queue refuses a handle (it is not in the
 * registry); AGENT and DOORBELL_ID answer for the hardware queue.
 *
 * Interface 1.22 and 1.30-1.31 (AMD's header at rocm-systems 41e1945c):
 *  - VM_FAULT_STATUS (bool), _ADDRESS (uint64_t), _REASON (uint32_t
 *    HSA_AMD_MEMORY_FAULT_* bits): the first GPU memory fault the error
 *    service saw on the queue's GPU while the queue lived (errors.c; KFD's
 *    MEMORY event names a GPU, not a queue); false, 0 and 0 without one;
 *  - ENGINE_TYPE: HSA_AMD_QUEUE_ENGINE_COMPUTE for AQL queues and counted
 *    handles, HSA_AMD_QUEUE_ENGINE_SDMA for application SDMA queues
 *    (sdma_queue.c); SDMA_ENGINE_ID (uint32_t), which the header defines
 *    for SDMA queues only, is the engine index the queue runs on (never
 *    HSA_AMD_SDMA_ENGINE_ID_ANY: the engine an ANY request was given), and
 *    INVALID_ARGUMENT for the others;
 *  - READ_POINTER / WRITE_POINTER: the addresses (as uint64_t) of the
 *    amd_queue_t's read_dispatch_id and write_dispatch_id, the monotonic
 *    indices the CP and the producers use (a counted handle: its hardware
 *    queue's, which is where its packets go); an SDMA queue's are its
 *    KFD read and write pointers, byte counts (rocrtst's
 *    SdmaQueueCreateDestroyTest reads them through these addresses).
 * An application SDMA queue answers AGENT, DOORBELL_ID, USE_COUNT (-1),
 * HW_ID and the four above; the AQL-only attributes (metadata prefetch,
 * PROPERTIES, VM_FAULT_*) are INVALID_ARGUMENT for it: it has no AQL
 * descriptor, and KFD names no queue in an SDMA engine's fault.
 */
#include <stdbool.h>
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
	uint32_t use_count = 0;
	const hsa_queue_t *hw = (rt = hl_runtime_get()) ? hl_counted_queue_hw(rt, queue, &use_count)
						       : NULL;
	hsa_status_t st = hl_queue_acquire(hw ? hw : queue, &rt, &q);
	if (st == HSA_STATUS_ERROR_INVALID_QUEUE && !hw) {
		/* an application SDMA queue, looked up under the same lock */
		pthread_mutex_lock(&rt->queues->lock);
		q = hl_sdma_queue_lookup_locked(rt->queues, queue);
		if (q)
			st = HSA_STATUS_SUCCESS;
		else
			pthread_mutex_unlock(&rt->queues->lock);
	}
	if (st != HSA_STATUS_SUCCESS)
		return st;
	if (q->app_sdma) {
		switch (attribute) {
		case HSA_AMD_QUEUE_INFO_PREFETCH_METADATA_DISPATCH_PKT_VERSION_MAJOR:
		case HSA_AMD_QUEUE_INFO_PREFETCH_METADATA_DISPATCH_PKT_VERSION_MINOR:
		case HSA_AMD_QUEUE_INFO_PREFETCH_METADATA_BARRIER_PKT_VERSION_MAJOR:
		case HSA_AMD_QUEUE_INFO_PREFETCH_METADATA_BARRIER_PKT_VERSION_MINOR:
		case HSA_AMD_QUEUE_INFO_PREFETCH_METADATA_RING_BUFFER:
		case HSA_AMD_QUEUE_INFO_PROPERTIES:
		case HSA_AMD_QUEUE_INFO_VM_FAULT_STATUS:
		case HSA_AMD_QUEUE_INFO_VM_FAULT_ADDRESS:
		case HSA_AMD_QUEUE_INFO_VM_FAULT_REASON:
			hl_queue_release(rt);
			return HSA_STATUS_ERROR_INVALID_ARGUMENT;
		default:
			break;
		}
	}
	switch (attribute) {
	case HSA_QUEUE_INFO_USE_COUNT: {
		if (!value) {
			st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
			break;
		}
		int32_t n = hw ? (int32_t)use_count : -1;
		memcpy(value, &n, sizeof(n));
		break;
	}
	case HSA_QUEUE_INFO_HW_ID: {
		if (!value) {
			st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
			break;
		}
		uint32_t id = (uint32_t)q->amd->hsa_queue.id;
		memcpy(value, &id, sizeof(id));
		break;
	}
	case HSA_AMD_QUEUE_INFO_PREFETCH_METADATA_DISPATCH_PKT_VERSION_MAJOR:
	case HSA_AMD_QUEUE_INFO_PREFETCH_METADATA_DISPATCH_PKT_VERSION_MINOR:
	case HSA_AMD_QUEUE_INFO_PREFETCH_METADATA_BARRIER_PKT_VERSION_MAJOR:
	case HSA_AMD_QUEUE_INFO_PREFETCH_METADATA_BARRIER_PKT_VERSION_MINOR:
		if (!value)
			st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
		else
			*(uint8_t *)value = 0xFF;
		break;
	case HSA_AMD_QUEUE_INFO_PREFETCH_METADATA_RING_BUFFER: {
		if (!value) {
			st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
			break;
		}
		uint64_t none = 0;
		memcpy(value, &none, sizeof(none));
		break;
	}
	case HSA_AMD_QUEUE_INFO_PROPERTIES:
		if (!value)
			st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
		else
			memset(value, 0, 8);
		break;
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
	case HSA_AMD_QUEUE_INFO_VM_FAULT_STATUS:
		if (!value)
			st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
		else
			*(bool *)value = q->vm_fault;
		break;
	case HSA_AMD_QUEUE_INFO_VM_FAULT_ADDRESS: {
		if (!value) {
			st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
			break;
		}
		uint64_t va = q->vm_fault ? q->vm_fault_va : 0;
		memcpy(value, &va, sizeof(va));
		break;
	}
	case HSA_AMD_QUEUE_INFO_VM_FAULT_REASON: {
		if (!value) {
			st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
			break;
		}
		uint32_t why = q->vm_fault ? q->vm_fault_reason : 0;
		memcpy(value, &why, sizeof(why));
		break;
	}
	case HSA_AMD_QUEUE_INFO_ENGINE_TYPE: {
		if (!value) {
			st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
			break;
		}
		hsa_amd_queue_engine_t e = q->app_sdma ? HSA_AMD_QUEUE_ENGINE_SDMA
						       : HSA_AMD_QUEUE_ENGINE_COMPUTE;
		memcpy(value, &e, sizeof(e));
		break;
	}
	case HSA_AMD_QUEUE_INFO_SDMA_ENGINE_ID: {
		if (!value || !q->app_sdma) { /* SDMA queues only */
			st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
			break;
		}
		memcpy(value, &q->sdma_engine, sizeof(q->sdma_engine));
		break;
	}
	case HSA_AMD_QUEUE_INFO_READ_POINTER:
	case HSA_AMD_QUEUE_INFO_WRITE_POINTER: {
		if (!value) {
			st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
			break;
		}
		const volatile uint64_t *idx = attribute == HSA_AMD_QUEUE_INFO_READ_POINTER
			? &q->amd->read_dispatch_id : &q->amd->write_dispatch_id;
		uint64_t addr = (uint64_t)(uintptr_t)idx;
		memcpy(value, &addr, sizeof(addr));
		break;
	}
	default:
		st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
	}
	hl_queue_release(rt);
	return st;
}
