/*
 * Counted queues (AMD's interface 1.16): hsa_amd_counted_queue_acquire and
 * hsa_amd_counted_queue_release, ROCr's CountedQueuePoolManager semantics:
 *
 *  - per GPU agent and priority a pool of hardware queues (MULTI, made by
 *    hsa_queue_create, then hsa_amd_queue_set_priority); an acquire makes
 *    a new one while the pool holds fewer than GPU_MAX_HW_QUEUES (default
 *    4, rt->env.max_hw_queues), else takes the pool's least used (lowest
 *    use count, the first such in creation order);
 *  - every acquire returns a handle of its own: an amd_queue_t whose
 *    hsa_queue_t is a copy of the hardware queue's (same ring, doorbell
 *    signal, size, id) and which names the hardware queue
 *    (HL_COUNTED_QUEUE_MAGIC, queue_priv.h), so the index functions reserve
 *    on the shared write index and packets from every handle go to one
 *    ring in index order;
 *  - release drops the handle and the hardware queue's use count; the
 *    hardware queues stay until hsa_shut_down (re-acquires reuse them).
 *    A released handle is kept (still leading to its queue) and reused by a
 *    later acquire, so a stale handle never touches freed memory;
 *  - HSA_QUEUE_INFO_USE_COUNT / HW_ID answer through hsa_amd_queue_get_info
 *    (info.c);
 *  - an asynchronous error on a hardware queue reaches the callback of
 *    every live handle on it, with the handle as source (ROCr's
 *    TriggerCallback per handle).
 * Statuses are ROCr's: NULL queue or a priority outside LOW..HIGH is
 * INVALID_ARGUMENT, a type other than MULTI INVALID_QUEUE_CREATION, a
 * non-GPU agent INVALID_AGENT (the header's; ROCr's code checks validity
 * only), a failed hardware queue OUT_OF_RESOURCES; release of NULL is
 * INVALID_ARGUMENT, of anything not a live handle HSA_STATUS_ERROR.
 * hsa_queue_destroy, set_priority and cu_set_mask refuse a handle
 * (INVALID_QUEUE: it is not a queue of the registry), as the header says
 * they cannot be used on counted queues.
 *
 * The pool is the runtime's (rt->queues->counted): its hardware queues are
 * destroyed by the queue module's closing step (the last hsa_shut_down,
 * while hsa_* calls still work), its records freed there or, in a fork
 * child, by the queue module's forget step, without the lock (a parent
 * thread may have held it) and without an ioctl.
 *
 * Locking: pool->lock is a leaf with respect to callbacks (the error
 * forwarder copies the handles' callbacks under it and calls them after);
 * it is held across hsa_queue_create, which takes rt->queues->lock, and is
 * never taken with rt->queues->lock held.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "hsa/hsa_ext_amd.h"
#include "queue/queue_priv.h"
#include "util/log.h"

/* Packets of a counted hardware queue's ring: ROCr passes size 0 to its
 * QueueCreate; HIP's streams use 4096-packet queues, so do we. */
#define COUNTED_QUEUE_PACKETS 4096u

typedef void (*counted_cb_t)(hsa_status_t status, hsa_queue_t *source, void *data);

struct hl_counted_hw {
	struct hl_counted_pool *pool; /* the runtime's, for the error callback */
	hsa_queue_t *queue;          /* from hsa_queue_create */
	hsa_agent_t agent;
	hsa_amd_queue_priority_t priority;
	uint32_t use_count;          /* live handles on it */
	struct hl_counted_hw *next;       /* creation order */
};

struct hl_counted_handle {
	amd_queue_t *amd;            /* the handle; 64-byte aligned */
	struct hl_counted_hw *hw;         /* NULL once released */
	counted_cb_t callback;
	void *data;
	struct hl_counted_handle *next;         /* live list, or the free list */
};


/* The hardware queue's error, to each live handle's callback. */
static void counted_error(hsa_status_t status, hsa_queue_t *source, void *data)
{
	struct hl_counted_hw *hw = data;
	struct hl_counted_pool *pool = hw->pool;
	struct { counted_cb_t fn; void *data; hsa_queue_t *h; } calls[64];
	uint32_t n = 0;

	pthread_mutex_lock(&pool->lock);
	for (struct hl_counted_handle *h = pool->live; h; h = h->next)
		if (h->hw == hw && h->callback && n < sizeof(calls) / sizeof(calls[0]))
			calls[n++] = (__typeof__(calls[0])){ h->callback, h->data,
							 &h->amd->hsa_queue };
	pthread_mutex_unlock(&pool->lock);
	if (n == 0)
		hl_error(QUEUE_LOG, "counted hardware queue %llu: status %#x, no handle's callback",
			 (unsigned long long)source->id, status);
	for (uint32_t i = 0; i < n; i++)
		calls[i].fn(status, calls[i].h, calls[i].data);
}

static const uint32_t kfd_priority_of[] = {
	[HSA_AMD_QUEUE_PRIORITY_LOW] = 0,
	[HSA_AMD_QUEUE_PRIORITY_NORMAL] = 1,
	[HSA_AMD_QUEUE_PRIORITY_HIGH] = 2,
};

/* Caller holds pool->lock.  The pool's least used queue once it is full,
 * else a new one; NULL with the reason logged. */
static struct hl_counted_hw *hw_queue_get_locked(struct hl_runtime *rt, hsa_agent_t agent,
					    hsa_amd_queue_priority_t priority)
{
	struct hl_counted_pool *pool = &rt->queues->counted;
	struct hl_counted_hw *least = NULL, **tail = &pool->hw;
	uint32_t in_pool = 0;
	for (struct hl_counted_hw *q = pool->hw; q; q = q->next) {
		tail = &q->next;
		if (q->agent.handle != agent.handle || q->priority != priority)
			continue;
		in_pool++;
		if (!least || q->use_count < least->use_count)
			least = q;
	}
	if (in_pool >= rt->env.max_hw_queues)
		return least;

	struct hl_counted_hw *hw = calloc(1, sizeof(*hw));
	if (!hw) {
		hl_error(QUEUE_LOG, "counted_queue_acquire: %s", strerror(ENOMEM));
		return NULL;
	}
	hw->pool = pool;
	hsa_status_t st = hsa_queue_create(agent, COUNTED_QUEUE_PACKETS, HSA_QUEUE_TYPE_MULTI,
					   counted_error, hw, UINT32_MAX, UINT32_MAX, &hw->queue);
	if (st != HSA_STATUS_SUCCESS) {
		hl_error(QUEUE_LOG, "counted_queue_acquire: hardware queue: status %#x", st);
		free(hw);
		return NULL;
	}
	st = hsa_amd_queue_set_priority(hw->queue, priority);
	if (st != HSA_STATUS_SUCCESS) {
		hl_error(QUEUE_LOG, "counted_queue_acquire: priority %u (KFD %u): status %#x",
			 priority, kfd_priority_of[priority], st);
		hsa_queue_destroy(hw->queue);
		free(hw);
		return NULL;
	}
	hw->agent = agent;
	hw->priority = priority;
	*tail = hw;
	return hw;
}

/* Caller holds pool->lock.  A handle record with its amd_queue_t. */
static struct hl_counted_handle *handle_get_locked(struct hl_counted_pool *pool)
{
	struct hl_counted_handle *h = pool->free_head;
	if (h) {
		pool->free_head = h->next;
		if (!pool->free_head)
			pool->free_tail = NULL;
		h->next = NULL;
		return h;
	}
	h = calloc(1, sizeof(*h));
	if (!h)
		return NULL;
	h->amd = aligned_alloc(64, sizeof(amd_queue_t));
	if (!h->amd) {
		free(h);
		return NULL;
	}
	return h;
}

hsa_status_t hsa_amd_counted_queue_acquire(hsa_agent_t agent, hsa_queue_type_t type,
					   hsa_amd_queue_priority_t priority,
					   void (*callback)(hsa_status_t status,
							    hsa_queue_t *source, void *data),
					   void *data, uint64_t flags, hsa_queue_t **queue)
{
	(void)flags; /* "for future use, ignored" */
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!queue || (uint32_t)priority > HSA_AMD_QUEUE_PRIORITY_HIGH) {
		hl_error(QUEUE_LOG, "counted_queue_acquire: %s",
			 !queue ? "queue is NULL" : "priority is not LOW, NORMAL or HIGH");
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	}
	if (type != HSA_QUEUE_TYPE_MULTI) {
		hl_error(QUEUE_LOG, "counted_queue_acquire: type %u: only MULTI queues are counted",
			 type);
		return HSA_STATUS_ERROR_INVALID_QUEUE_CREATION;
	}
	struct hl_agent *a = hl_gpu_agent_lookup(rt, agent);
	if (!a)
		return HSA_STATUS_ERROR_INVALID_AGENT;

	struct hl_counted_pool *pool = &rt->queues->counted;
	pthread_mutex_lock(&pool->lock);
	struct hl_counted_hw *hw = hw_queue_get_locked(rt, agent, priority);
	struct hl_counted_handle *h = hw ? handle_get_locked(pool) : NULL;
	if (!h) {
		pthread_mutex_unlock(&pool->lock);
		if (hw)
			hl_error(QUEUE_LOG, "counted_queue_acquire: %s", strerror(ENOMEM));
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	}
	/* The handle reads as its hardware queue (the public hsa_queue_t and
	 * the amd_queue_t fields a client may look at), and names it. */
	memcpy(h->amd, hw->queue, sizeof(amd_queue_t));
	uint64_t target = (uint64_t)(uintptr_t)hw->queue;
	h->amd->reserved1[2] = (uint32_t)target;
	h->amd->reserved1[3] = (uint32_t)(target >> 32);
	h->amd->reserved1[0] = HL_COUNTED_QUEUE_MAGIC;
	h->hw = hw;
	h->callback = callback;
	h->data = data;
	h->next = pool->live;
	pool->live = h;
	hw->use_count++;
	*queue = &h->amd->hsa_queue;
	pthread_mutex_unlock(&pool->lock);
	return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_counted_queue_release(hsa_queue_t *queue)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!queue)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	struct hl_counted_pool *pool = &rt->queues->counted;
	pthread_mutex_lock(&pool->lock);
	struct hl_counted_handle **pp = &pool->live;
	while (*pp && &(*pp)->amd->hsa_queue != queue)
		pp = &(*pp)->next;
	struct hl_counted_handle *h = *pp;
	if (!h) {
		pthread_mutex_unlock(&pool->lock);
		hl_error(QUEUE_LOG, "counted_queue_release: %p is not a live counted queue",
			 (void *)queue);
		return HSA_STATUS_ERROR;
	}
	*pp = h->next;
	if (h->hw->use_count > 0)
		h->hw->use_count--;
	h->hw = NULL;
	h->callback = NULL;
	h->next = NULL;
	if (pool->free_tail)
		pool->free_tail->next = h;
	else
		pool->free_head = h;
	pool->free_tail = h;
	pthread_mutex_unlock(&pool->lock);
	return HSA_STATUS_SUCCESS;
}

const hsa_queue_t *hl_counted_queue_hw(struct hl_runtime *rt, const hsa_queue_t *handle,
				       uint32_t *use_count)
{
	struct hl_counted_pool *pool = &rt->queues->counted;
	const hsa_queue_t *hw = NULL;
	pthread_mutex_lock(&pool->lock);
	for (struct hl_counted_handle *h = pool->live; h; h = h->next)
		if (&h->amd->hsa_queue == handle) {
			hw = h->hw->queue;
			if (use_count)
				*use_count = h->hw->use_count;
			break;
		}
	pthread_mutex_unlock(&pool->lock);
	return hw;
}

static void handles_free(struct hl_counted_handle *h)
{
	while (h) {
		struct hl_counted_handle *next = h->next;
		free(h->amd);
		free(h);
		h = next;
	}
}

/* Caller holds pool->lock, or is a fork child's forget step. */
static void records_take(struct hl_counted_pool *pool, struct hl_counted_hw **hw,
			 struct hl_counted_handle **live, struct hl_counted_handle **freed)
{
	*hw = pool->hw;
	*live = pool->live;
	*freed = pool->free_head;
	pool->hw = NULL;
	pool->live = pool->free_head = pool->free_tail = NULL;
}

static void records_free(struct hl_counted_hw *hw, struct hl_counted_handle *live, struct hl_counted_handle *freed,
			 bool destroy)
{
	while (hw) {
		struct hl_counted_hw *next = hw->next;
		if (destroy && hsa_queue_destroy(hw->queue) != HSA_STATUS_SUCCESS)
			hl_warn(QUEUE_LOG, "hsa_shut_down: counted hardware queue %llu: destroy failed",
				(unsigned long long)hw->queue->id);
		free(hw);
		hw = next;
	}
	handles_free(live);
	handles_free(freed);
}

void hl_counted_pool_init(struct hl_counted_pool *pool)
{
	pthread_mutex_init(&pool->lock, NULL);
}

void hl_counted_queues_teardown(struct hl_runtime *rt)
{
	struct hl_counted_pool *pool = &rt->queues->counted;
	struct hl_counted_hw *hw;
	struct hl_counted_handle *live, *freed;
	pthread_mutex_lock(&pool->lock);
	records_take(pool, &hw, &live, &freed);
	pthread_mutex_unlock(&pool->lock);
	/* Outside the lock: hsa_queue_destroy takes rt->queues->lock, never
	 * held with ours taken after it. */
	records_free(hw, live, freed, true);
}

void hl_counted_queues_forget(struct hl_runtime *rt)
{
	struct hl_counted_pool *pool = &rt->queues->counted;
	struct hl_counted_hw *hw;
	struct hl_counted_handle *live, *freed;
	records_take(pool, &hw, &live, &freed);
	records_free(hw, live, freed, false);
}
