/*
 * Soft queues: hsa_soft_queue_create, a queue no hardware reads, for an
 * agent the application implements itself (a CPU thread that consumes
 * AGENT_DISPATCH packets, say).  As ROCr 5.2.3's HostQueue:
 *  - the ring is size x 64 bytes allocated from the caller's region, every
 *    header INVALID; the amd_queue_t lives in runtime memory;
 *  - hsa_queue_t: base_address, size, the caller's doorbell signal (any
 *    signal; the consumer waits on it), a process-unique id, type,
 *    features, and AMD_QUEUE_PROPERTIES_IS_PTR64;
 *  - no KFD queue (no CREATE_QUEUE), no scratch, no error service; the
 *    read index belongs to the consumer, so hsa_queue_store_read_index_*
 *    moves it (index.c), and the write index functions are the same
 *    atomics as on every queue;
 *  - hsa_queue_destroy frees the ring (the doorbell signal stays the
 *    caller's); hsa_queue_inactivate succeeds and does nothing;
 *    hsa_amd_profiling_set_profiler_enabled sets or clears the queue's
 *    profiling bit; the CU mask and priority calls return INVALID_QUEUE
 *    (HostQueue's overrides).
 *
 * The amd_queue_t is a descriptor slot from the queue module's pool
 * (page.c), so, like a hardware queue's, it stays mapped after destroy and
 * the index functions never fault on a stale pointer; it is GPU-mapped, so
 * a GPU may produce into a soft queue in fine-grained memory too.  Its
 * reserved4[0] word holds HL_SOFT_QUEUE_MAGIC, which tells index.c that the
 * read index may be stored (a hardware queue's slot has 0 there: slots are
 * zeroed when taken).
 *
 * Soft queues are kept on qs->soft (under qs->lock), apart from
 * the hardware registry, so every call that acts on a KFD queue rejects
 * them with INVALID_QUEUE without a special case.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "memory/memory.h"
#include "queue/queue_priv.h"
#include "util/log.h"

/* A live soft queue whose public pointer is hq, or NULL.  Caller holds
 * qs->lock. */
static struct hl_soft_queue **soft_find_locked(struct hl_queues *qs, const hsa_queue_t *hq)
{
	for (struct hl_soft_queue **pp = &qs->soft; *pp; pp = &(*pp)->next)
		if (&(*pp)->amd->hsa_queue == hq)
			return pp;
	return NULL;
}

/* Frees sq's ring (when the runtime is still up: at teardown the runtime's
 * allocation list releases it) and returns its slot.  sq is unlisted. */
static void soft_free(struct hl_queues *qs, struct hl_soft_queue *sq, bool free_ring)
{
	if (free_ring && sq->ring)
		hsa_amd_memory_pool_free(sq->ring);
	pthread_mutex_lock(&qs->lock);
	hl_queue_slot_put_locked(qs, sq->slot);
	pthread_mutex_unlock(&qs->lock);
	free(sq);
}

hsa_status_t hsa_soft_queue_create(hsa_region_t region, uint32_t size, hsa_queue_type32_t type,
				   uint32_t features, hsa_signal_t doorbell_signal,
				   hsa_queue_t **queue)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	/* ROCr 5.2.3's checks (hsa.cpp), in its order. */
	if (!queue || !region.handle || !doorbell_signal.handle || !size ||
	    (size & (size - 1)) || (type != HSA_QUEUE_TYPE_MULTI && type != HSA_QUEUE_TYPE_SINGLE) ||
	    !features)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	struct hl_pool *pool = hl_pool_lookup(rt, region.handle);
	if (!pool)
		return HSA_STATUS_ERROR_INVALID_REGION;
	if (!hl_signal_live(doorbell_signal.handle))
		return hl_signal_bad_handle(doorbell_signal.handle);
	if (!hl_pool_is_allocatable(pool) || !pool->host_access) {
		/* ROCr writes the ring's headers with the CPU too. */
		hl_error(QUEUE_LOG, "hsa_soft_queue_create: the region is not host-accessible "
			 "allocatable memory");
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	}
	if (!rt->n_gpus) {
		hl_error(QUEUE_LOG, "hsa_soft_queue_create: no GPU to map the queue to");
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	}
	struct hl_queues *qs = rt->queues;
	struct hl_soft_queue *sq = calloc(1, sizeof(*sq));
	if (!sq)
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	pthread_mutex_lock(&qs->lock);
	int err = hl_queue_slot_get_locked(rt, &sq->slot);
	pthread_mutex_unlock(&qs->lock);
	if (err)
		goto err_free_sq;
	err = hl_pool_allocate(rt, pool, (uint64_t)size * sizeof(hsa_kernel_dispatch_packet_t),
			       &sq->ring);
	if (err)
		goto err_put_slot;
	for (uint32_t i = 0; i < size; i++)
		((hsa_kernel_dispatch_packet_t *)sq->ring)[i].header = HSA_PACKET_TYPE_INVALID;

	amd_queue_t *amd = sq->slot->addr;
	sq->amd = amd;
	amd->hsa_queue.base_address = sq->ring;
	amd->hsa_queue.size = size;
	amd->hsa_queue.doorbell_signal = doorbell_signal;
	amd->hsa_queue.id = hl_queue_next_id();
	amd->hsa_queue.type = type;
	amd->hsa_queue.features = features;
	AMD_HSA_BITS_SET(amd->queue_properties, AMD_QUEUE_PROPERTIES_IS_PTR64, 1);
	amd->reserved4[0] = HL_SOFT_QUEUE_MAGIC;

	pthread_mutex_lock(&qs->lock);
	sq->next = qs->soft;
	qs->soft = sq;
	pthread_mutex_unlock(&qs->lock);
	hl_debug(QUEUE_LOG, "soft queue %llu: %u packets at %p", (unsigned long long)amd->hsa_queue.id,
		 size, sq->ring);
	*queue = &amd->hsa_queue;
	return HSA_STATUS_SUCCESS;

err_put_slot:
	pthread_mutex_lock(&qs->lock);
	hl_queue_slot_put_locked(qs, sq->slot);
	pthread_mutex_unlock(&qs->lock);
err_free_sq:
	free(sq);
	return hl_status_from_errno(err);
}

int hl_soft_queue_destroy(const hsa_queue_t *hq)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return -ENOENT;
	struct hl_queues *qs = rt->queues;
	pthread_mutex_lock(&qs->lock);
	struct hl_soft_queue **pp = soft_find_locked(qs, hq);
	struct hl_soft_queue *sq = pp ? *pp : NULL;
	if (sq)
		*pp = sq->next;
	pthread_mutex_unlock(&qs->lock);
	if (!sq)
		return -ENOENT;
	soft_free(qs, sq, true);
	return 0;
}

bool hl_soft_queue_live(const hsa_queue_t *hq)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return false;
	struct hl_queues *qs = rt->queues;
	pthread_mutex_lock(&qs->lock);
	bool live = soft_find_locked(qs, hq) != NULL;
	pthread_mutex_unlock(&qs->lock);
	return live;
}

void hl_soft_queues_teardown(struct hl_runtime *rt)
{
	struct hl_queues *qs = rt->queues;
	pthread_mutex_lock(&qs->lock);
	struct hl_soft_queue *sq = qs->soft;
	qs->soft = NULL;
	pthread_mutex_unlock(&qs->lock);
	while (sq) {
		struct hl_soft_queue *next = sq->next;
		hl_warn(QUEUE_LOG, "hsa_shut_down: soft queue %llu was still alive",
			(unsigned long long)sq->amd->hsa_queue.id);
		soft_free(qs, sq, false);
		sq = next;
	}
}

void hl_soft_queues_forget(struct hl_queues *qs)
{
	struct hl_soft_queue *sq = qs->soft;
	while (sq) {
		struct hl_soft_queue *next = sq->next;
		free(sq);
		sq = next;
	}
	qs->soft = NULL;
}
