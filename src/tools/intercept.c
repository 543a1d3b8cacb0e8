/*
 * Intercept queues (hsa_api_trace.h): hsa_amd_queue_intercept_create and
 * hsa_amd_queue_intercept_register, ROCr's semantics (intercept_queue.cpp):
 *
 *  - the application gets a proxy queue: its own amd_queue_t (a copy of the
 *    hardware queue's, so id, type, features and properties read the same)
 *    with its own ring of the same size, write and read index, and a
 *    doorbell signal of its own; underneath is an ordinary hardware queue
 *    (hsa_queue_create with the caller's arguments);
 *  - a doorbell store makes the runtime take each packet published on the
 *    proxy, in order, and hand it to the interceptors, last registered
 *    first: each receives (packets, count, proxy index of the first, its
 *    data, writer), and what it passes to writer goes to the interceptor
 *    registered before it; below the first registered is the submitter,
 *    which puts the packets on the hardware queue (so a handler forwards,
 *    rewrites, drops or adds packets);
 *  - a vendor packet of format AMD_AQL_FORMAT_INTERCEPT_MARKER reaching the
 *    submitter is not copied: its callback runs with the hardware queue and
 *    the index the next packet gets there;
 *  - the packets of one rewrite go to the hardware queue together or not
 *    at all; when they do not fit, they wait in an overflow list behind a
 *    retry barrier packet on the hardware queue, whose completion signal is
 *    the proxy's doorbell, so its completion resumes the processing (the
 *    hardware queue then needs room for a packet, the retry packet and one
 *    retry in flight: size >= 3, as ROCr requires);
 *  - once a packet is handed on its proxy slot is invalidated and the
 *    proxy's read index advances, so a producer sees room as the
 *    interceptors consume, not as the GPU does.
 *
 * Where the work runs, as ROCr's InterceptQueue::StoreRelaxed: a host
 * store to the proxy's doorbell (hsa_signal_store_relaxed/_screlease, which
 * reach the runtime through the table since intercept queues exist only
 * when a tool has the table) runs the interceptors in the storing thread
 * before the store returns, so a tool sees the submitting thread (its tid in
 * rocprofiler's records, its thread-locals).  A store made inside an
 * interceptor on this thread, and a store by the GPU (the retry barrier's
 * completion), go to the doorbell signal itself, watched by an async handler
 * (hsa_amd_signal_async_handler, condition "not idle"), so they run on the
 * runtime's async thread (ROCr's async_doorbell_).  The proxy's ring and
 * descriptor are host memory (a GPU cannot produce into an intercept queue).
 *
 * The calls that take a queue and must reach the hardware one
 * (hsa_queue_destroy, hsa_queue_inactivate, the CU mask, the priority,
 * profiling, hsa_amd_queue_get_info), and the two doorbell stores, are the
 * table's defaults here: each is defined as hl_default_<function>, which
 * gen_api.py finds in the objects and puts in the entry (its first
 * contents, the read-only copy hl_tools_table_reset restores, the exported
 * trampoline's direct target) in place of hl_impl_<function>; the wrapper
 * passes a non-proxy queue, or a store to any other signal, on unchanged.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include <hsa/amd_hsa_queue.h>

#include "queue/queue.h"
#include "runtime/runtime.h"
#include "tools/tools_priv.h"
#include "util/barrier.h"
#include "util/log.h"

/* The doorbell's value when no store is pending (ROCr's DOORBELL_MAX). */
#define DOORBELL_IDLE ((hsa_signal_value_t)-1)

/* One AQL packet; no alignment beyond the header's, since interceptors
 * pass packets from wherever they build them (the rings are page-aligned). */
typedef struct {
	uint16_t header;
	uint8_t body[62];
} aql_slot_t;
_Static_assert(sizeof(aql_slot_t) == 64, "an AQL packet");

struct interceptor {
	hsa_amd_queue_intercept_handler fn;
	void *data;
};

struct intercept_queue {
	amd_queue_t *amd;   /* the proxy; &amd->hsa_queue is the application's */
	aql_slot_t *ring;   /* the proxy's ring, size slots */
	hsa_queue_t *lower; /* the hardware queue */
	uint32_t size;
	pthread_mutex_t lock; /* processing, interceptors, overflow */
	struct interceptor *interceptors; /* [0] is the submitter */
	uint32_t n_interceptors, cap_interceptors;
	aql_slot_t *overflow; /* packets of a rewrite waiting for room */
	uint64_t n_overflow;
	uint64_t next;        /* the first proxy packet not yet handed on */
	uint64_t retry_index; /* hardware index of the last retry barrier */
	_Atomic bool quit;    /* destroy under way: the handler stops */
	_Atomic bool active;  /* cleared by inactivate/destroy */
	/* host stores processing it outside the list's lock
	 * (iq_doorbell_take): destroy unlists the queue, then waits for none
	 * before freeing it */
	_Atomic uint32_t storers;
	struct intercept_queue *next_queue;
};

/*
 * The queues themselves hang off the runtime (rt->tools->iq_list, under
 * rt->tools->iq_lock; tools_priv.h).  This count of them is the one word
 * that stays process-wide, on purpose: every hsa_signal_store_relaxed and
 * _screlease of the process passes through iq_store (the table's default
 * entry), and while the count is 0 the store looks no further: no runtime
 * lookup, so the store path costs what it did before intercept queues
 * existed (one load), and a signal value call still needs no runtime in
 * hand, as src/signal/ops.c promises (a store racing the last hsa_shut_down
 * touches no freed runtime).  Written under the live runtime's iq_lock with
 * release, read by the store wrappers with acquire: a queue a thread learnt
 * of (through its creator) is counted; zeroed by the fork_child step (the
 * child has no intercept queue).
 */
static _Atomic uint32_t iq_count;

/* The interceptor chain's position on this thread: writer() calls the
 * interceptor below the one running (ROCr's thread_local Cursor).  Per
 * thread by nature; a fork child's only thread clears its copy. */
static _Thread_local struct {
	struct intercept_queue *q;
	uint64_t pkt_index;
	uint32_t level;
} cursor;

/* The live runtime's tools state, or NULL without a runtime. */
static struct hl_tools *iq_tools(void)
{
	struct hl_runtime *rt = hl_runtime_get();
	return rt ? rt->tools : NULL;
}

/* The intercept queue whose proxy is hq, or NULL (no runtime, or another
 * queue). */
static struct intercept_queue *iq_find(const hsa_queue_t *hq)
{
	struct hl_tools *t = iq_tools();
	struct intercept_queue *q;

	if (!t)
		return NULL;
	pthread_mutex_lock(&t->iq_lock);
	for (q = t->iq_list; q; q = q->next_queue)
		if (&q->amd->hsa_queue == hq)
			break;
	pthread_mutex_unlock(&t->iq_lock);
	return q;
}

static inline uint16_t header_type(uint16_t h)
{
	return (h >> HSA_PACKET_HEADER_TYPE) & ((1u << HSA_PACKET_HEADER_WIDTH_TYPE) - 1);
}

static inline bool is_marker(const aql_slot_t *p)
{
	return header_type(p->header) == HSA_PACKET_TYPE_VENDOR_SPECIFIC &&
	       ((const amd_aql_intercept_marker_t *)p)->format == AMD_AQL_FORMAT_INTERCEPT_MARKER;
}

static const uint16_t invalid_header =
	(HSA_PACKET_TYPE_INVALID << HSA_PACKET_HEADER_TYPE) | (1 << HSA_PACKET_HEADER_BARRIER);
static const uint16_t barrier_header =
	(HSA_PACKET_TYPE_BARRIER_AND << HSA_PACKET_HEADER_TYPE) | (1 << HSA_PACKET_HEADER_BARRIER);

/*
 * Puts count packets on the hardware queue, all or none (unless count alone
 * exceeds the queue: then as many as fit), markers run and dropped; when
 * not all went, a retry barrier (completion signal: the proxy's doorbell)
 * is queued unless one is still pending.  Returns how many of packets[]
 * were consumed.  Caller holds q->lock; the only producer on the hardware
 * queue is this function.
 */
static uint64_t submit_lower(struct intercept_queue *q, const aql_slot_t *packets, uint64_t count)
{
	hsa_queue_t *hw = q->lower;
	aql_slot_t *ring = hw->base_address;
	uint64_t mask = hw->size - 1, markers = 0;

	for (uint64_t i = 0; i < count; i++)
		markers += is_marker(&packets[i]);
	uint64_t write = hsa_queue_load_write_index_relaxed(hw);
	uint64_t read = hsa_queue_load_read_index_scacquire(hw);
	uint64_t free_slots = hw->size - (write - read);
	/* the retry packet has certainly not run while the read index is
	 * below it (ROCr's IsPendingRetryPoint) */
	bool retry_pending = q->retry_index > read;
	uint64_t want = count - markers, n = want;

	if (n >= hw->size)
		n = free_slots - (retry_pending ? 0 : 1);
	else if (free_slots < n + (retry_pending ? 0 : 1))
		n = 0;
	if (n < want && !retry_pending) {
		aql_slot_t *b = &ring[write & mask];
		hsa_barrier_and_packet_t *bp = (hsa_barrier_and_packet_t *)b;

		memset(b->body, 0, sizeof(b->body));
		bp->completion_signal = q->amd->hsa_queue.doorbell_signal;
		/* Pairs with the CP's acquire of the header: the body first. */
		hl_store_release((_Atomic uint16_t *)&b->header, barrier_header);
		hsa_queue_store_write_index_screlease(hw, write + 1);
		hsa_signal_store_screlease(hw->doorbell_signal, (hsa_signal_value_t)write);
		q->retry_index = write;
		write++;
	}
	uint64_t consumed = 0, written = 0, first = 0;
	while (consumed < count && (written < n || is_marker(&packets[consumed]))) {
		const aql_slot_t *p = &packets[consumed++];
		if (is_marker(p)) {
			const amd_aql_intercept_marker_t *m = (const amd_aql_intercept_marker_t *)p;
			if (m->callback)
				m->callback(m, hw, write + written);
			continue;
		}
		aql_slot_t *s = &ring[(write + written) & mask];
		/* the first header is published last, so the CP takes the
		 * packets of one rewrite together */
		if (written == 0) {
			memcpy(s->body, p->body, sizeof(s->body));
			first = consumed - 1;
		} else {
			*s = *p;
		}
		written++;
	}
	if (written) {
		hsa_queue_store_write_index_screlease(hw, write + written);
		/* Pairs with the CP's acquire of the header: every body above
		 * (and the later packets' headers) first. */
		hl_store_release((_Atomic uint16_t *)&ring[write & mask].header, packets[first].header);
		hsa_signal_store_screlease(hw->doorbell_signal,
					   (hsa_signal_value_t)(write + written - 1));
	}
	return consumed;
}

/* The submitter, the interceptor below every registered one. */
static void submit_handler(const void *pkts, uint64_t count, uint64_t user_index, void *data,
			   hsa_amd_queue_intercept_packet_writer writer)
{
	struct intercept_queue *q = data;
	const aql_slot_t *p = pkts;
	(void)user_index;
	(void)writer;

	uint64_t done = submit_lower(q, p, count);
	if (done == count || q->n_overflow)
		return;
	aql_slot_t *o = malloc((count - done) * sizeof(*o));
	if (!o) {
		hl_error("tools", "intercept queue %lu: %s: %lu packets dropped",
			 (unsigned long)q->amd->hsa_queue.id, strerror(ENOMEM),
			 (unsigned long)(count - done));
		return;
	}
	memcpy(o, p + done, (count - done) * sizeof(*o));
	q->overflow = o;
	q->n_overflow = count - done;
}

/* What an interceptor passes on goes to the one registered before it. */
static void writer(const void *pkts, uint64_t count)
{
	if (!cursor.q || cursor.level == 0) {
		hl_error("tools", "intercept writer called outside an interceptor");
		return;
	}
	struct interceptor *h = &cursor.q->interceptors[--cursor.level];
	h->fn(pkts, count, cursor.pkt_index, h->data, writer);
	/* the same interceptor may write more than once */
	cursor.level++;
}

/* Hands every published proxy packet to the interceptors.  Runs in the
 * thread that stored the doorbell, or on the async thread (the doorbell's
 * handler); q->lock serialises the two. */
static void process(struct intercept_queue *q)
{
	pthread_mutex_lock(&q->lock);
	if (q->n_overflow) {
		uint64_t done = submit_lower(q, q->overflow, q->n_overflow);
		if (done < q->n_overflow) {
			memmove(q->overflow, q->overflow + done,
				(q->n_overflow - done) * sizeof(*q->overflow));
			q->n_overflow -= done;
			pthread_mutex_unlock(&q->lock);
			return;
		}
		free(q->overflow);
		q->overflow = NULL;
		q->n_overflow = 0;
	}
	uint64_t mask = q->size - 1, i = q->next;
	uint64_t end = hsa_queue_load_write_index_scacquire(&q->amd->hsa_queue);
	if (end > q->next + q->size)
		end = q->next + q->size;
	cursor.q = q;
	while (i < end && hl_load_relaxed(&q->active)) {
		_Atomic uint16_t *h = (_Atomic uint16_t *)&q->ring[i & mask].header;
		/* Pairs with the producer's release of the header: the body is
		 * visible once the header is. */
		if (header_type(hl_load_acquire(h)) == HSA_PACKET_TYPE_INVALID)
			break;
		cursor.pkt_index = i;
		cursor.level = q->n_interceptors - 1;
		struct interceptor *top = &q->interceptors[cursor.level];
		top->fn(&q->ring[i & mask], 1, i, top->data, writer);
		/* Pairs with the producer's acquire of the read index below:
		 * the slot is free once the index passes it. */
		hl_store_release(h, invalid_header);
		i++;
		if (q->n_overflow)
			break;
	}
	cursor.q = NULL;
	q->next = i;
	hl_store_release((_Atomic uint64_t *)&q->amd->read_dispatch_id, i);
	pthread_mutex_unlock(&q->lock);
}

/* The proxy doorbell's async handler: "not idle" means a store (or the
 * retry barrier's completion).  The exchange takes the store; any later one
 * fires the handler again.  At destroy, the handler acknowledges the quit
 * by storing 0 and leaves (ROCr's HandleAsyncDoorbell). */
static bool doorbell_handler(hsa_signal_value_t value, void *arg)
{
	struct intercept_queue *q = arg;
	(void)value;

	if (hl_load_acquire(&q->quit)) {
		hsa_signal_store_screlease(q->amd->hsa_queue.doorbell_signal, 0);
		return false;
	}
	hsa_signal_exchange_scacq_screl(q->amd->hsa_queue.doorbell_signal, DOORBELL_IDLE);
	process(q);
	return true;
}

static void iq_free(struct intercept_queue *q)
{
	free(q->overflow);
	free(q->interceptors);
	free(q->ring);
	free(q->amd);
	pthread_mutex_destroy(&q->lock);
	free(q);
}

hsa_status_t hsa_amd_queue_intercept_create(
	hsa_agent_t agent, uint32_t size, hsa_queue_type32_t type,
	void (*callback)(hsa_status_t status, hsa_queue_t *source, void *data), void *data,
	uint32_t private_segment_size, uint32_t group_segment_size, hsa_queue_t **queue)
{
	struct hl_tools *t = iq_tools();
	if (!t)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!queue)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	/* a packet, a new retry barrier and one in flight (see above) */
	if (size < 3)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;

	hsa_queue_t *lower;
	hsa_status_t st = hsa_queue_create(agent, size, type, callback, data, private_segment_size,
					   group_segment_size, &lower);
	if (st != HSA_STATUS_SUCCESS)
		return st;
	struct intercept_queue *q = calloc(1, sizeof(*q));
	if (!q)
		goto err_nomem_lower;
	pthread_mutex_init(&q->lock, NULL);
	q->lower = lower;
	q->size = lower->size;
	q->amd = aligned_alloc(4096, (sizeof(amd_queue_t) + 4095) & ~(size_t)4095);
	q->ring = aligned_alloc(4096, ((size_t)q->size * sizeof(aql_slot_t) + 4095) & ~(size_t)4095);
	q->interceptors = malloc(4 * sizeof(*q->interceptors));
	if (!q->amd || !q->ring || !q->interceptors)
		goto err_nomem_queue;
	q->cap_interceptors = 4;
	q->interceptors[q->n_interceptors++] = (struct interceptor){ submit_handler, q };
	/* the proxy reads as the hardware queue does, with its own ring,
	 * indices and doorbell (ROCr's QueueWrapper copies the same way) */
	memcpy(q->amd, (const amd_queue_t *)lower, sizeof(amd_queue_t));
	q->amd->write_dispatch_id = 0;
	q->amd->read_dispatch_id = 0;
	q->amd->hsa_queue.base_address = q->ring;
	for (uint32_t i = 0; i < q->size; i++)
		q->ring[i].header = invalid_header;
	atomic_init(&q->active, true);
	atomic_init(&q->quit, false);

	hsa_signal_t bell;
	st = hsa_signal_create(DOORBELL_IDLE, 0, NULL, &bell);
	if (st != HSA_STATUS_SUCCESS)
		goto err_queue;
	q->amd->hsa_queue.doorbell_signal = bell;
	st = hsa_amd_signal_async_handler(bell, HSA_SIGNAL_CONDITION_NE, DOORBELL_IDLE,
					  doorbell_handler, q);
	if (st != HSA_STATUS_SUCCESS)
		goto err_signal;
	pthread_mutex_lock(&t->iq_lock);
	q->next_queue = t->iq_list;
	t->iq_list = q;
	/* Pairs with the acquire in iq_doorbell_take. */
	hl_store_release(&iq_count, hl_load_relaxed(&iq_count) + 1);
	pthread_mutex_unlock(&t->iq_lock);
	hl_debug("tools", "intercept queue %lu over hardware queue %lu, %u packets",
		 (unsigned long)q->amd->hsa_queue.id, (unsigned long)lower->id, q->size);
	*queue = &q->amd->hsa_queue;
	return HSA_STATUS_SUCCESS;

err_signal:
	hsa_signal_destroy(bell);
err_queue:
	iq_free(q);
	hsa_queue_destroy(lower);
	return st;
err_nomem_queue:
	iq_free(q);
err_nomem_lower:
	hsa_queue_destroy(lower);
	return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
}

hsa_status_t hsa_amd_queue_intercept_register(hsa_queue_t *queue,
					      hsa_amd_queue_intercept_handler callback,
					      void *user_data)
{
	if (!hl_runtime_get())
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!callback || !queue)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	struct intercept_queue *q = iq_find(queue);
	if (!q)
		return HSA_STATUS_ERROR_INVALID_QUEUE;
	pthread_mutex_lock(&q->lock);
	if (q->n_interceptors == q->cap_interceptors) {
		struct interceptor *more =
			realloc(q->interceptors, 2 * q->cap_interceptors * sizeof(*more));
		if (!more) {
			pthread_mutex_unlock(&q->lock);
			return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
		}
		q->interceptors = more;
		q->cap_interceptors *= 2;
	}
	q->interceptors[q->n_interceptors++] = (struct interceptor){ callback, user_data };
	pthread_mutex_unlock(&q->lock);
	return HSA_STATUS_SUCCESS;
}

/* Unlists a proxy and waits until nothing of the runtime's runs on it any
 * more: no host store processing it, and its doorbell handler told to quit
 * and acknowledged (ROCr's ~InterceptQueue).  Only value calls on the
 * doorbell, which need no published runtime (src/signal/ops.c, wait.c):
 * the teardown step runs this with the runtime withdrawn. */
static void iq_quiesce(struct hl_tools *t, struct intercept_queue *q)
{
	pthread_mutex_lock(&t->iq_lock);
	for (struct intercept_queue **pp = &t->iq_list; *pp; pp = &(*pp)->next_queue)
		if (*pp == q) {
			*pp = q->next_queue;
			hl_store_release(&iq_count, hl_load_relaxed(&iq_count) - 1);
			break;
		}
	pthread_mutex_unlock(&t->iq_lock);
	/* Pairs with the release in iq_doorbell_done: a store that found the
	 * queue before it was unlisted has left it. */
	while (hl_load_acquire(&q->storers))
		sched_yield();

	hsa_signal_t bell = q->amd->hsa_queue.doorbell_signal;
	hl_store_relaxed(&q->active, false);
	/* Pairs with the handler's acquire of quit. */
	hl_store_release(&q->quit, true);
	if (hsa_signal_exchange_scacq_screl(bell, 1) != 0)
		hsa_signal_wait_scacquire(bell, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
					  HSA_WAIT_STATE_BLOCKED);
}

/* Unlists and frees a proxy, its doorbell signal and its hardware queue. */
static hsa_status_t iq_destroy(struct hl_tools *t, struct intercept_queue *q)
{
	iq_quiesce(t, q);
	hsa_signal_destroy(q->amd->hsa_queue.doorbell_signal);
	hsa_status_t st = hsa_queue_destroy(q->lower);
	iq_free(q);
	return st;
}

/* ---- the table's defaults for calls that take a queue ---- */

/* hl_default_<fn>: the entry's default (gen_api.py); hsa_* names in this
 * file are hsalite's own functions (hl_api_names.h), not the exported
 * trampolines, so a wrapper passes on without coming back through it. */
#define HL_DEFAULT(fn) __typeof__(fn) hl_default_##fn __attribute__((visibility("hidden")))
HL_DEFAULT(hsa_queue_destroy);
HL_DEFAULT(hsa_queue_inactivate);
HL_DEFAULT(hsa_amd_profiling_set_profiler_enabled);
HL_DEFAULT(hsa_amd_queue_cu_set_mask);
HL_DEFAULT(hsa_amd_queue_cu_get_mask);
HL_DEFAULT(hsa_amd_queue_set_priority);
HL_DEFAULT(hsa_amd_queue_get_info);
HL_DEFAULT(hsa_signal_store_relaxed);
HL_DEFAULT(hsa_signal_store_screlease);

hsa_status_t hl_default_hsa_queue_destroy(hsa_queue_t *queue)
{
	struct intercept_queue *q = iq_find(queue);
	return q ? iq_destroy(iq_tools(), q) : hsa_queue_destroy(queue);
}

hsa_status_t hl_default_hsa_queue_inactivate(hsa_queue_t *queue)
{
	struct intercept_queue *q = iq_find(queue);
	if (!q)
		return hsa_queue_inactivate(queue);
	hl_store_relaxed(&q->active, false);
	return hsa_queue_inactivate(q->lower);
}

hsa_status_t hl_default_hsa_amd_profiling_set_profiler_enabled(hsa_queue_t *queue, int enable)
{
	struct intercept_queue *q = iq_find(queue);
	return hsa_amd_profiling_set_profiler_enabled(q ? q->lower : queue, enable);
}

hsa_status_t hl_default_hsa_amd_queue_cu_set_mask(const hsa_queue_t *queue, uint32_t count,
						 const uint32_t *mask)
{
	struct intercept_queue *q = iq_find(queue);
	return hsa_amd_queue_cu_set_mask(q ? q->lower : queue, count, mask);
}

hsa_status_t hl_default_hsa_amd_queue_cu_get_mask(const hsa_queue_t *queue, uint32_t count,
						 uint32_t *mask)
{
	struct intercept_queue *q = iq_find(queue);
	return hsa_amd_queue_cu_get_mask(q ? q->lower : queue, count, mask);
}

hsa_status_t hl_default_hsa_amd_queue_set_priority(hsa_queue_t *queue,
						  hsa_amd_queue_priority_t priority)
{
	struct intercept_queue *q = iq_find(queue);
	return hsa_amd_queue_set_priority(q ? q->lower : queue, priority);
}

/* ROCr's InterceptQueue::GetInfo answers the agent and the doorbell id from
 * the hardware queue and nothing else. */
hsa_status_t hl_default_hsa_amd_queue_get_info(hsa_queue_t *queue,
					     hsa_queue_info_attribute_t attribute, void *value)
{
	struct intercept_queue *q = iq_find(queue);
	if (!q)
		return hsa_amd_queue_get_info(queue, attribute, value);
	if (attribute != HSA_AMD_QUEUE_INFO_AGENT && attribute != HSA_AMD_QUEUE_INFO_DOORBELL_ID)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	return hsa_amd_queue_get_info(q->lower, attribute, value);
}

/* ---- host stores to a proxy doorbell ---- */

/* The intercept queue whose doorbell s is, held against destroy until
 * iq_doorbell_done; NULL for any other signal (at once while there are no
 * intercept queues) and for a store made inside an interceptor on this
 * thread, which ROCr defers to its async doorbell. */
static struct intercept_queue *iq_doorbell_take(hsa_signal_t s)
{
	if (!hl_load_acquire(&iq_count) || cursor.q)
		return NULL;
	/* Past the gate the runtime is looked up: a store racing the last
	 * hsa_shut_down to a doorbell that shutdown destroys is a use of a
	 * destroyed queue, the caller's bug. */
	struct hl_tools *t = iq_tools();
	if (!t)
		return NULL;
	struct intercept_queue *q;
	pthread_mutex_lock(&t->iq_lock);
	for (q = t->iq_list; q; q = q->next_queue)
		if (q->amd->hsa_queue.doorbell_signal.handle == s.handle) {
			atomic_fetch_add_explicit(&q->storers, 1, memory_order_relaxed);
			break;
		}
	pthread_mutex_unlock(&t->iq_lock);
	return q;
}

static void iq_doorbell_done(struct intercept_queue *q)
{
	/* Pairs with the acquire in iq_destroy's wait. */
	atomic_fetch_sub_explicit(&q->storers, 1, memory_order_release);
}

/* A host store to a proxy doorbell processes the proxy here (ROCr's
 * InterceptQueue::StoreRelaxed; its release form is the same); the value
 * is not kept, as ROCr's doorbell keeps none.  Other signals go to next. */
static void iq_store(hsa_signal_t s, hsa_signal_value_t v,
		     HSA_API_TRACE_TYPE(hsa_signal_store_relaxed) *next)
{
	struct intercept_queue *q = iq_doorbell_take(s);
	if (!q) {
		next(s, v);
		return;
	}
	if (hl_load_relaxed(&q->active))
		process(q);
	iq_doorbell_done(q);
}

/* next: hsalite's own store (hl_impl_, by hl_api_names.h) */
void hl_default_hsa_signal_store_relaxed(hsa_signal_t s, hsa_signal_value_t v)
{
	iq_store(s, v, hsa_signal_store_relaxed);
}

void hl_default_hsa_signal_store_screlease(hsa_signal_t s, hsa_signal_value_t v)
{
	iq_store(s, v, hsa_signal_store_screlease);
}

/* The last hsa_shut_down's closing step (the runtime still published):
 * every intercept queue left is destroyed, as hsa_queue_destroy would. */
void hl_tools_intercept_teardown(struct hl_tools *t)
{
	for (;;) {
		pthread_mutex_lock(&t->iq_lock);
		struct intercept_queue *q = t->iq_list;
		pthread_mutex_unlock(&t->iq_lock);
		if (!q)
			break;
		iq_destroy(t, q);
	}
}

/* The teardown step: reached with queues left only at exit, which runs no
 * closing step (a HIP program never calls hsa_shut_down; its tool's
 * intercept queues live on).  The runtime is withdrawn, so no hsa_* call
 * but value calls: each proxy's handler is stopped and its memory freed;
 * its hardware queue and doorbell signal are left to the queue and signal
 * modules' teardown, which come next and free every queue and signal. */
void hl_tools_intercept_release(struct hl_tools *t)
{
	while (t->iq_list) {
		struct intercept_queue *q = t->iq_list;
		iq_quiesce(t, q);
		iq_free(q);
	}
}

void hl_tools_intercept_fork_child(void)
{
	/* The child's only thread: no intercept queue is the child's (the
	 * list itself goes with the forget step), and if the fork came from
	 * inside an interceptor, this thread's cursor names a parent's queue. */
	hl_store_relaxed(&iq_count, 0);
	cursor.q = NULL;
}

void hl_tools_intercept_forget(struct hl_tools *t)
{
	/* The parent's intercept queues wrap queues of the parent's runtime,
	 * and a parent thread may have held a lock: their memory goes,
	 * without a call on them and without destroying their locks. */
	while (t->iq_list) {
		struct intercept_queue *q = t->iq_list;
		t->iq_list = q->next_queue;
		free(q->overflow);
		free(q->interceptors);
		free(q->ring);
		free(q->amd);
		free(q);
	}
}

/* ---- hsa_amd_runtime_queue_create_register ---- */

/* ROCr keeps one notifier per process and refuses a second with
 * HSA_STATUS_ERROR; hsalite also refuses a NULL callback (ROCr stores it). */
hsa_status_t hsa_amd_runtime_queue_create_register(hsa_amd_runtime_queue_notifier callback,
						   void *user_data)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!callback)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	int err = hl_queue_set_notifier(rt, callback, user_data);
	if (err) {
		hl_info("tools", "hsa_amd_runtime_queue_create_register: a notifier is set already");
		return HSA_STATUS_ERROR;
	}
	return HSA_STATUS_SUCCESS;
}

void hl_tools_runtime_queue_notifier_clear(struct hl_runtime *rt)
{
	hl_queue_set_notifier(rt, NULL, NULL);
}
