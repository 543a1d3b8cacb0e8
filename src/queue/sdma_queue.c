/*
 * Application SDMA queues: hsa_amd_queue_create with engine_type
 * HSA_AMD_QUEUE_ENGINE_SDMA (interface 1.26, AMD's header at rocm-systems
 * 41e1945c), a KFD SDMA queue whose ring the application fills with SDMA
 * packets itself.  What the application gets, as ROCr's SdmaQueue and
 * rocrtst's QueueCreateTest (SdmaQueueCreateDestroyTest,
 * SdmaQueueErrorCallbackTest) show it:
 *  - hsa_queue_t: base_address = the ring, size = its size in BYTES (SDMA
 *    read and write pointers are byte offsets), type SINGLE (one producer:
 *    the application serialises its writes), features 0, a process-unique
 *    id, and a doorbell signal;
 *  - the read and write pointers are the amd_queue_t's read_dispatch_id
 *    and write_dispatch_id, handed to CREATE_QUEUE as the queue's rptr and
 *    wptr: 64-bit byte counts that only grow (position = pointer & (size -
 *    1)).  The engine writes the read pointer back as it retires packets,
 *    so hsa_queue_load_read_index_* read it and the write index calls move
 *    the write pointer, with no special case in index.c;
 *  - a store of v to the doorbell signal (any store flavour) writes v to
 *    the write pointer, then rings the doorbell with v
 *    (hl_signal_sdma_doorbell_create; ROCr's SdmaQueue::RingDoorbell):
 *    the application publishes its packets by storing the new byte count;
 *  - hsa_amd_queue_get_info (info.c): ENGINE_TYPE SDMA, SDMA_ENGINE_ID the
 *    engine index the queue runs on (never ENGINE_ID_ANY), READ_POINTER /
 *    WRITE_POINTER the addresses above, AGENT, DOORBELL_ID;
 *  - hsa_queue_destroy destroys it (DESTROY_QUEUE first: the engine stops
 *    touching the ring, pending packets or not).
 *
 * Engine choice: the header says every SDMA queue is created with KFD's
 * SDMA_BY_ENG_ID type (KFD 1.17+; an older kernel cannot place it:
 * INVALID_QUEUE_CREATION), sdma_engine_id an index below the agent's
 * engine count (PCIe engines first, the xGMI ones above them: KFD's and
 * HSA_AMD_AGENT_INFO_NUM_SDMA_ENG + _XGMI_ENG), and ENGINE_ID_ANY a
 * round-robin over them, so queues created one after another land on
 * different engines.  For ANY, an engine whose queue slots are all taken
 * (CREATE_QUEUE: ENOMEM) passes the turn to the next; a named engine that
 * is full is OUT_OF_RESOURCES.  An index at or above the count is
 * INVALID_ARGUMENT (the header's "the selected engine's parameters are
 * invalid"), checked before any ioctl.
 *
 * Ring: host memory (ROCr's system allocator), GPU-mapped, zeroed (zero
 * dwords are SDMA NOPs).  KFD clamps a ring below 1 KiB to 1 KiB
 * (KFD_QUEUE_RING_SIZE_MIN), after which the engine wraps at 1 KiB: such a
 * queue gets a 1 KiB ring and hsa_queue_t.size says so, so an application
 * that wraps at queue->size, as the header asks, stays in step with the
 * engine.  The placement flags are accepted and move nothing (every ring
 * is in system memory, as for compute queues); the priority is accepted
 * and the queue runs at KFD's maximum, as ROCr creates it.
 *
 * Faults: an engine that faults stops its queue and raises KFD's MEMORY
 * event, which the queue error service delivers to the system event
 * handlers (each queue holds the service while it lives, as src/copy's
 * SDMA queues do).  The descriptor's callback is kept but not called:
 * ROCr calls it when the kernel resets one SDMA queue, which the KFD UAPI
 * hsalite drives and kfdemu do not report per queue (docs/differences.md).
 *
 * The queues are struct hl_queue records on qs->sdma (under qs->lock),
 * apart from the AQL registry: the error service, the trap handler and the
 * AQL control calls never see them.  hsa_queue_inactivate answers ERROR
 * for them (ROCr's SdmaQueue::Inactivate); priority and CU mask calls
 * INVALID_QUEUE (its SetPriority / SetCUMasking).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "queue/queue_priv.h"
#include "util/log.h"

#define SDMA_PRIORITY_MAX 15u /* ROCr: HSA_AMD_QUEUE_PRIORITY_MAXIMUM */

struct hl_queue *hl_sdma_queue_lookup_locked(struct hl_queues *qs, const hsa_queue_t *hq)
{
	for (struct hl_queue *q = qs->sdma; q; q = q->next)
		if (&q->amd->hsa_queue == hq)
			return q;
	return NULL;
}

bool hl_sdma_queue_live(const hsa_queue_t *hq)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt || !hq)
		return false;
	pthread_mutex_lock(&rt->queues->lock);
	bool live = hl_sdma_queue_lookup_locked(rt->queues, hq) != NULL;
	pthread_mutex_unlock(&rt->queues->lock);
	return live;
}

/* The engine count SDMA_BY_ENG_ID indexes: PCIe engines, then xGMI. */
static uint32_t engine_count(const struct hl_agent *a)
{
	return a->node->props.num_sdma_engines + a->node->props.num_sdma_xgmi_engines;
}

/* The first engine an ENGINE_ID_ANY queue tries on a: the agent's turn,
 * advanced for the next one.  -ENOMEM when the turn table cannot be made. */
static int engine_turn(struct hl_runtime *rt, struct hl_agent *a, uint32_t n, uint32_t *out)
{
	struct hl_queues *qs = rt->queues;
	size_t i = (size_t)(a - rt->agents);
	int err = 0;
	pthread_mutex_lock(&qs->lock);
	if (!qs->sdma_next)
		qs->sdma_next = calloc(rt->n_agents, sizeof(*qs->sdma_next));
	if (qs->sdma_next) {
		*out = qs->sdma_next[i] % n;
		qs->sdma_next[i] = (*out + 1) % n;
	} else {
		err = -ENOMEM;
	}
	pthread_mutex_unlock(&qs->lock);
	return err;
}

/* CREATE_QUEUE of q's ring on engine, and its doorbell signal. */
static int sdma_queue_start(struct hl_runtime *rt, struct hl_queue *q, uint32_t engine,
			    uint32_t ring_size)
{
	struct kfd_queue_args args = {
		.gpu_id = q->gpu_id,
		.type = KFD_QUEUE_TYPE_SDMA_BY_ENG_ID,
		.sdma_engine_id = engine,
		.percentage = 100,
		.priority = SDMA_PRIORITY_MAX,
		.ring = q->ring_mem->addr,
		.ring_size = ring_size,
		.read_ptr = (uint64_t *)(uintptr_t)&q->amd->read_dispatch_id,
		.write_ptr = (uint64_t *)(uintptr_t)&q->amd->write_dispatch_id,
	};
	int err = kfd_queue_create(rt->proc, &args, &q->queue_id, &q->doorbell);
	if (err)
		return err;
	q->created = true;
	q->sdma_engine = engine;
	return 0;
}

/* The queue record, its slot, ring, KFD queue and doorbell signal; the
 * caller publishes it.  -errno (the cause logged). */
static int sdma_queue_make(struct hl_runtime *rt, struct hl_agent *agent,
			   const hsa_amd_queue_create_desc_t *d, struct hl_queue **out)
{
	uint32_t n = engine_count(agent);
	bool any = d->engine.sdma.sdma_engine_id == HSA_AMD_SDMA_ENGINE_ID_ANY;
	uint32_t first = d->engine.sdma.sdma_engine_id;
	if (any) {
		int err = engine_turn(rt, agent, n, &first);
		if (err)
			return err;
	}
	uint32_t ring_size = d->queue_size_bytes < KFD_QUEUE_RING_SIZE_MIN
		? KFD_QUEUE_RING_SIZE_MIN : d->queue_size_bytes;

	struct hl_queue *q = calloc(1, sizeof(*q));
	if (!q)
		return -ENOMEM;
	q->agent = agent;
	q->gpu_id = agent->gpu->gpu_id;
	q->callback = d->callback;
	q->data = d->callback_data;
	q->priority = SDMA_PRIORITY_MAX;
	q->app_sdma = true;

	struct hl_queues *qs = rt->queues;
	pthread_mutex_lock(&qs->lock);
	int err = hl_queue_slot_get_locked(rt, &q->slot);
	pthread_mutex_unlock(&qs->lock);
	if (err)
		goto err_destroy;
	q->amd = q->slot->addr;
	/* a ring of at least a page: the kernel checks the mapping from
	 * 4 KiB up, below that any mapping that holds the ring */
	uint64_t bytes = ring_size < HL_PAGE_SIZE ? HL_PAGE_SIZE : ring_size;
	err = hl_queue_mem_alloc(rt, q, KFD_MEM_USERPTR, bytes,
				 KFD_ALLOC_COHERENT | KFD_ALLOC_EXECUTABLE, "SDMA ring", &q->ring_mem);
	if (err)
		goto err_destroy;
	q->ring = q->ring_mem->addr;
	q->ring_bytes = (uint32_t)bytes;
	memset(q->ring, 0, bytes);

	/* the turn's engine first; for ANY, the others in turn while the
	 * kernel has no queue slot left on the one tried */
	err = -ENOMEM;
	for (uint32_t k = 0; k < (any ? n : 1) && err == -ENOMEM; k++)
		err = sdma_queue_start(rt, q, (first + k) % n, ring_size);
	if (err) {
		hl_error(QUEUE_LOG, "SDMA queue on %s (engine %s%u, %u bytes): CREATE_QUEUE: %s",
			 agent->name, any ? "any from " : "", first, ring_size, hl_errno_name(err));
		goto err_destroy;
	}
	err = hl_signal_sdma_doorbell_create(rt, q->doorbell, q->amd, &q->doorbell_signal);
	if (err) {
		hl_error(QUEUE_LOG, "SDMA queue doorbell signal: %s", hl_errno_name(err));
		goto err_destroy;
	}
	hsa_queue_t *hq = &q->amd->hsa_queue;
	hq->type = HSA_QUEUE_TYPE_SINGLE;
	hq->features = 0;
	hq->base_address = q->ring_mem->addr;
	hq->size = ring_size;
	hq->doorbell_signal = q->doorbell_signal;
	hq->id = hl_queue_next_id();
	*out = q;
	return 0;

err_destroy:
	hl_queue_record_destroy(rt, q);
	return err;
}

hsa_status_t hl_sdma_queue_create(struct hl_runtime *rt, struct hl_agent *agent,
				  hsa_amd_queue_create_desc_t *d)
{
	if (!rt || !agent || !agent->gpu || !d)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	uint32_t n = engine_count(agent);
	uint32_t id = d->engine.sdma.sdma_engine_id;
	if (id != HSA_AMD_SDMA_ENGINE_ID_ANY && id >= n) {
		hl_error(QUEUE_LOG, "hsa_amd_queue_create: %s has %u SDMA engines, engine %u asked",
			 agent->name, n, id);
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	}
	if (!n || (rt->proc->version_major == 1 && rt->proc->version_minor < 17)) {
		hl_error(QUEUE_LOG, "hsa_amd_queue_create: %s: %s", agent->name,
			 n ? "the kernel (KFD < 1.17) cannot place a queue on an SDMA engine"
			   : "no SDMA engine");
		return HSA_STATUS_ERROR_INVALID_QUEUE_CREATION;
	}
	struct hl_queue *q;
	int err = sdma_queue_make(rt, agent, d, &q);
	if (err)
		return hl_status_from_errno(err);
	/* Its engine's faults reach the system event handlers. */
	err = hl_queue_service_hold(rt);
	if (err) {
		hl_error(QUEUE_LOG, "SDMA queue: no error service (%s)", hl_errno_name(err));
		hl_queue_record_destroy(rt, q);
		return hl_status_from_errno(err);
	}
	struct hl_queues *qs = rt->queues;
	pthread_mutex_lock(&qs->lock);
	q->next = qs->sdma;
	qs->sdma = q;
	pthread_mutex_unlock(&qs->lock);
	hl_debug(QUEUE_LOG, "SDMA queue %llu: KFD queue %u on GPU 0x%x engine %u, %u bytes at %p",
		 (unsigned long long)q->amd->hsa_queue.id, q->queue_id, q->gpu_id, q->sdma_engine,
		 q->amd->hsa_queue.size, q->ring_mem->addr);
	d->queue = &q->amd->hsa_queue;
	return HSA_STATUS_SUCCESS;
}

/* Unlinks hq's record from qs->sdma: the record, or NULL.  Caller holds
 * qs->lock. */
static struct hl_queue *sdma_unlink_locked(struct hl_queues *qs, const hsa_queue_t *hq)
{
	for (struct hl_queue **pp = &qs->sdma; *pp; pp = &(*pp)->next) {
		struct hl_queue *q = *pp;
		if (&q->amd->hsa_queue == hq) {
			*pp = q->next;
			q->next = NULL;
			return q;
		}
	}
	return NULL;
}

int hl_sdma_queue_destroy(const hsa_queue_t *hq)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt || !hq)
		return -ENOENT;
	struct hl_queues *qs = rt->queues;
	pthread_mutex_lock(&qs->lock);
	struct hl_queue *q = sdma_unlink_locked(qs, hq);
	pthread_mutex_unlock(&qs->lock);
	if (!q)
		return -ENOENT;
	int err = hl_queue_record_destroy(rt, q);
	hl_queue_service_unhold(rt);
	return err;
}

void hl_sdma_queues_teardown(struct hl_runtime *rt)
{
	struct hl_queues *qs = rt->queues;
	pthread_mutex_lock(&qs->lock);
	while (qs->sdma) {
		struct hl_queue *q = qs->sdma;
		qs->sdma = q->next;
		q->next = NULL;
		pthread_mutex_unlock(&qs->lock);
		hl_warn(QUEUE_LOG, "hsa_shut_down: SDMA queue %llu was still alive",
			(unsigned long long)q->amd->hsa_queue.id);
		/* the service's holds are gone with it (queue_teardown) */
		hl_queue_record_destroy(rt, q);
		pthread_mutex_lock(&qs->lock);
	}
	free(qs->sdma_next);
	qs->sdma_next = NULL;
	pthread_mutex_unlock(&qs->lock);
}

void hl_sdma_queues_forget(struct hl_queues *qs)
{
	/* No lock, no ioctl: a fork child's copy of the parent's records. */
	struct hl_queue *q = qs->sdma;
	while (q) {
		struct hl_queue *next = q->next;
		free(q);
		q = next;
	}
	qs->sdma = NULL;
	free(qs->sdma_next);
	qs->sdma_next = NULL;
}
