/*
 * Queue control: hsa_queue_inactivate, hsa_amd_queue_set_priority and the
 * CU masks.  Each is one KFD ioctl on a live queue, issued with
 * rt->queues->lock held so that destroy cannot run underneath and the
 * recorded state (priority, suspended, mask) matches what KFD last got.
 *
 *  - inactivate: UPDATE_QUEUE with percentage 0 (KFD then treats the queue
 *    as inactive and unmaps it); the queue stays valid and can be
 *    destroyed.  ROCr destroys the KFD queue here; we keep it so that
 *    UPDATE_QUEUE could bring it back.
 *  - priority: LOW / NORMAL / HIGH are HSA -3 / 0 / +3, which libhsakmt maps
 *    to KFD 0 / 7 / 15; UPDATE_QUEUE keeps the percentage (0 if suspended).
 *  - CU masks (ROCr's AqlQueue::SetCUMasking / GetCUMasking): the mask is
 *    clipped to the agent's CUs silently, as ROCr clips it (5.2.3 and 1.18
 *    answer SUCCESS; their CU_MASK_REDUCED is for a mask HSA_CU_MASK's
 *    process-wide mask cut, which hsalite does not read).  A count of 0 restores
 *    the full mask.  KFD gets ceil(CUs / 32) words.  The full mask is
 *    recorded at creation without an ioctl, as ROCr does.
 * An application SDMA queue (sdma_queue.c) is not in the registry: every
 * call here answers INVALID_QUEUE for it (ROCr's SdmaQueue::SetPriority
 * and SetCUMasking), but inactivate, which answers ERROR (its
 * SdmaQueue::Inactivate).
 */
#include <string.h>

#include "queue/queue_priv.h"
#include "util/log.h"

static uint32_t agent_cus(const struct hl_agent *a)
{
	const struct kfd_node_properties *p = &a->node->props;
	uint32_t cus = p->simd_per_cu ? p->simd_count / p->simd_per_cu : 0;
	return cus > HL_QUEUE_CU_MASK_WORDS * 32 ? HL_QUEUE_CU_MASK_WORDS * 32 : cus;
}

static void full_mask(const struct hl_agent *a, uint32_t *mask, uint32_t *words)
{
	uint32_t cus = agent_cus(a);
	*words = (cus + 31) / 32;
	memset(mask, 0, HL_QUEUE_CU_MASK_WORDS * sizeof(*mask));
	for (uint32_t i = 0; i < cus; i++)
		mask[i / 32] |= 1u << (i % 32);
}

void hl_queue_cu_mask_init(struct hl_queue *q)
{
	full_mask(q->agent, q->cu_mask, &q->cu_mask_words);
}

hsa_status_t hsa_queue_inactivate(hsa_queue_t *queue)
{
	struct hl_runtime *rt;
	struct hl_queue *q;
	hsa_status_t st = hl_queue_acquire(queue, &rt, &q);
	if (st == HSA_STATUS_ERROR_INVALID_QUEUE && hl_soft_queue_live(queue))
		return HSA_STATUS_SUCCESS; /* nothing runs it (ROCr's HostQueue) */
	if (st == HSA_STATUS_ERROR_INVALID_QUEUE && hl_sdma_queue_live(queue))
		return HSA_STATUS_ERROR; /* ROCr's SdmaQueue::Inactivate */
	if (st != HSA_STATUS_SUCCESS)
		return st;
	int err = 0;
	if (!q->suspended) {
		err = kfd_queue_update(rt->proc, q->queue_id, 0, q->priority, q->ring,
				       q->amd->hsa_queue.size * 64);
		if (!err)
			q->suspended = true;
	}
	hl_queue_release(rt);
	return hl_status_from_errno(err);
}

hsa_status_t hsa_amd_queue_set_priority(hsa_queue_t *queue, hsa_amd_queue_priority_t priority)
{
	uint32_t kfd_priority;
	switch (priority) {
	case HSA_AMD_QUEUE_PRIORITY_LOW:    kfd_priority = HL_QUEUE_PRIORITY_LOW; break;
	case HSA_AMD_QUEUE_PRIORITY_NORMAL: kfd_priority = HL_QUEUE_PRIORITY_NORMAL; break;
	case HSA_AMD_QUEUE_PRIORITY_HIGH:   kfd_priority = HL_QUEUE_PRIORITY_HIGH; break;
	default:                            kfd_priority = UINT32_MAX; break;
	}
	struct hl_runtime *rt;
	struct hl_queue *q;
	hsa_status_t st = hl_queue_acquire(queue, &rt, &q);
	if (st != HSA_STATUS_SUCCESS)
		return st;
	if (kfd_priority == UINT32_MAX) {
		hl_queue_release(rt);
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	}
	int err = kfd_queue_update(rt->proc, q->queue_id, q->suspended ? 0 : 100, kfd_priority,
				   q->ring, q->amd->hsa_queue.size * 64);
	if (!err)
		q->priority = kfd_priority;
	hl_queue_release(rt);
	return hl_status_from_errno(err);
}

hsa_status_t hsa_amd_queue_cu_set_mask(const hsa_queue_t *queue, uint32_t num_cu_mask_count,
				       const uint32_t *cu_mask)
{
	struct hl_runtime *rt;
	struct hl_queue *q;
	hsa_status_t st = hl_queue_acquire(queue, &rt, &q);
	if (st != HSA_STATUS_SUCCESS)
		return st;
	if (num_cu_mask_count % 32 || (num_cu_mask_count && !cu_mask)) {
		hl_queue_release(rt);
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	}

	uint32_t full[HL_QUEUE_CU_MASK_WORDS], mask[HL_QUEUE_CU_MASK_WORDS], words;
	full_mask(q->agent, full, &words);
	bool reduced = false;
	if (num_cu_mask_count == 0) {
		memcpy(mask, full, sizeof(mask));
	} else {
		uint32_t given = num_cu_mask_count / 32;
		memset(mask, 0, sizeof(mask));
		for (uint32_t i = 0; i < given; i++) {
			uint32_t allowed = i < words ? full[i] : 0;
			if (cu_mask[i] & ~allowed)
				reduced = true;
			if (i < words)
				mask[i] = cu_mask[i] & allowed;
		}
	}
	int err = kfd_queue_set_cu_mask(rt->proc, q->queue_id, mask, words * 32);
	if (!err) {
		memcpy(q->cu_mask, mask, sizeof(mask));
		q->cu_mask_words = words;
	}
	if (!err && reduced)
		hl_info(QUEUE_LOG, "CU mask of queue %llu reduced to the agent's %u CUs",
			(unsigned long long)queue->id, agent_cus(q->agent));
	hl_queue_release(rt);
	if (err)
		return hl_status_from_errno(err);
	return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_queue_cu_get_mask(const hsa_queue_t *queue, uint32_t num_cu_mask_count,
				       uint32_t *cu_mask)
{
	struct hl_runtime *rt;
	struct hl_queue *q;
	hsa_status_t st = hl_queue_acquire(queue, &rt, &q);
	if (st != HSA_STATUS_SUCCESS)
		return st;
	if (!cu_mask || num_cu_mask_count == 0 || num_cu_mask_count % 32) {
		hl_queue_release(rt);
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	}
	uint32_t want = num_cu_mask_count / 32;
	for (uint32_t i = 0; i < want; i++)
		cu_mask[i] = i < q->cu_mask_words ? q->cu_mask[i] : 0;
	hl_queue_release(rt);
	return HSA_STATUS_SUCCESS;
}
