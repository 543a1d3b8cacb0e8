/*
 * hsa_queue_create / hsa_queue_destroy, the registry of live queues and the
 * module's lifetime (teardown at the last hsa_shut_down, fork children).
 *
 * Creation, in ROCr's order (AqlQueue::AqlQueue, hsa-abi-and-rocr.md §1.2):
 * descriptor slot (zeroed: rptr = wptr = 0), ring with every header
 * INVALID, EOP, CWSR with its headers, scratch, the amd_queue_t fields,
 * the queue_inactive_signal (an interrupt signal the CP writes error codes
 * into), CREATE_QUEUE and the doorbell mapping (kfd_queue_create, priority
 * 7, percentage 100), then the doorbell signal and the process-unique id.
 * Only then is the queue published in the registry and the error service.
 *
 * Destruction (hsa-abi-and-rocr.md §1.6, docs/kfd-uapi.md): unpublish (and
 * wait out a running error callback), DESTROY_QUEUE first so the CP stops
 * touching the queue's memory, then the signals and the buffers; the
 * descriptor slot goes back to the pool (page.c).  queue_destroy undoes
 * any partial state, so creation failures use it too.
 *
 * Cooperative queues (HSA_QUEUE_TYPE_COOPERATIVE), as ROCr 5.2.3's
 * GpuAgent::QueueCreate / InitGWS: an agent has at most one, shared by
 * every cooperative create on it and counted (coop_refs); the first create
 * makes a queue (the caller's size and callback) and gives it one GWS slot
 * with ALLOC_QUEUE_GWS (the kernel lets a process's GWS go to one queue per
 * device), later creates return the same hsa_queue_t *, and each destroy
 * drops a count; the last one destroys the queue, which releases the GWS.
 * An agent without GWS in its topology refuses with
 * INVALID_QUEUE_CREATION (ROCr's answer); a refused ALLOC_QUEUE_GWS is
 * OUT_OF_RESOURCES, as ROCr's "GWS allocation failed", and marks the agent
 * (gws_refused) so HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES reports false
 * from then on.  The registry's coop_lock serialises cooperative creation,
 * so two threads never race to create the shared queue (lock order:
 * coop_lock, then lock).
 *
 * State: the registry (struct hl_queues: live and unlisted queues, soft
 * queues, the slot pool, the error service) is the runtime's, rt->queues,
 * made by the module's attach at hsa_init and freed by its teardown (or,
 * in a fork child, its forget step), so a new runtime starts with an empty
 * one and nothing of it outlives its runtime; so are the tools' notifier
 * and the internal queues' lock.  Only the queue id counter
 * (process-unique, as ROCr's) and trap.c's list of stale trap handlers
 * (the KFD process's state, which outlives every runtime) stay
 * process-wide.
 * The submit path (index.c, the doorbell) never reads the registry.
 *
 * Locking: rt->queues->lock protects the registry and everything
 * reachable from it; ioctls of creation run without it (only the
 * publication takes it), so creating queues on two threads overlaps.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "queue/queue_priv.h"
#include "util/log.h"

static _Atomic uint64_t queue_next_id; /* hsa_queue.id, never reused */

/* The registry's lock may be held in a fork child by a thread that does
 * not exist there (the service thread, a creator), but it is the parent
 * runtime's: the child never reaches it through a call (hl_runtime_get is
 * NULL there) and its forget step frees it without taking it.  So the
 * fork step has only trap.c's process-wide list to empty.
 * No prepare step takes the registry's lock, so fork adds no lock order
 * against the runtime's lock (the last hsa_shut_down takes the runtime's,
 * then ours).  The registry's links are each updated by one store, so the
 * child, which only forgets the parent's queues (hl_queue_forget), never
 * walks a half-linked list. */
void hl_queue_fork_child(void)
{
	hl_queue_trap_fork_child();
}

struct hl_queue *hl_queue_lookup_locked(struct hl_queues *qs, const hsa_queue_t *hq)
{
	for (struct hl_queue *q = qs->live; q; q = q->next)
		if (&q->amd->hsa_queue == hq)
			return q;
	return NULL;
}

/* The state of a runtime that is gone without our teardown: a fork child
 * (the thread, the KFD queues and the BOs belong to the parent).  Forget it
 * without a single ioctl, nor the lock (the child has one thread and the
 * runtime is unreachable). */
static void queues_forget(struct hl_queues *qs)
{
	struct hl_queue *q = qs->live;
	while (q) {
		struct hl_queue *next = q->next;
		free(q);
		q = next;
	}
	qs->live = NULL;
	hl_sdma_queues_forget(qs);
	qs->unlisted = NULL; /* their owners forget them */
	qs->n_live = qs->n_holds = 0;
	hl_soft_queues_forget(qs);
	qs->current = NULL;
	hl_queue_service_forget(qs);
	qs->error_event = NULL; /* the signal pool forgets its records */
	hl_queue_slots_release_locked(qs);
}

uint64_t hl_queue_next_id(void)
{
	return atomic_fetch_add_explicit(&queue_next_id, 1, memory_order_relaxed);
}

hsa_status_t hl_queue_acquire(const hsa_queue_t *hq, struct hl_runtime **rt,
			      struct hl_queue **out)
{
	struct hl_runtime *r = hl_runtime_get();
	if (!r)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!hq)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	struct hl_queues *qs = r->queues;
	pthread_mutex_lock(&qs->lock);
	struct hl_queue *q = hl_queue_lookup_locked(qs, hq);
	if (!q) {
		pthread_mutex_unlock(&qs->lock);
		return HSA_STATUS_ERROR_INVALID_QUEUE;
	}
	*rt = r;
	*out = q;
	return HSA_STATUS_SUCCESS;
}

/* Undoes any state queue_create reached, in the safe order.  q is not in
 * the registry.  Returns the DESTROY_QUEUE error, if any (then the buffers
 * are left allocated: the CP may still use them). */
static int queue_destroy(struct hl_runtime *rt, struct hl_queue *q)
{
	return hl_queue_record_destroy(rt, q);
}

int hl_queue_record_destroy(struct hl_runtime *rt, struct hl_queue *q)
{
	int err = 0;
	if (q->created) {
		err = kfd_queue_destroy(rt->proc, q->queue_id);
		if (err) {
			hl_error(QUEUE_LOG, "queue %llu: DESTROY_QUEUE failed (%s); its buffers are "
				 "kept", (unsigned long long)q->amd->hsa_queue.id,
				 hl_errno_name(err));
			return err;
		}
		q->created = false;
		/* no wave of it runs any more (an SDMA queue never had an
		 * entry in the trap handler's map) */
		if (!q->app_sdma)
			hl_queue_trap_set(q->agent, q->doorbell, NULL);
	}
	if (q->watching) {
		/* A release: our last reads of the signal come before its
		 * destroy recycles it (signal.h). */
		hl_signal_sleeper_remove(q->inactive_signal.handle);
		q->watching = false;
	}
	if (q->doorbell_signal.handle)
		hl_signal_destroy(q->doorbell_signal);
	if (q->inactive_signal.handle)
		hl_signal_destroy(q->inactive_signal);
	q->doorbell_signal.handle = q->inactive_signal.handle = 0;
	hl_queue_buffers_free(rt, q);
	if (q->slot) {
		struct hl_queues *qs = rt->queues;
		pthread_mutex_lock(&qs->lock);
		hl_queue_slot_put_locked(qs, q->slot);
		pthread_mutex_unlock(&qs->lock);
	}
	free(q);
	return 0;
}

/* The agent's shared cooperative queue, or NULL.  Caller holds
 * qs->lock. */
static struct hl_queue *coop_find_locked(struct hl_queues *qs, const struct hl_agent *a)
{
	for (struct hl_queue *q = qs->live; q; q = q->next)
		if (q->coop_refs && q->agent == a)
			return q;
	return NULL;
}

/* Gives the new cooperative queue q (not yet published) its GWS slot, as
 * ROCr's AqlQueue::EnableGWS(1).  On failure q is destroyed and the agent
 * stops reporting cooperative queues. */
static int coop_enable(struct hl_runtime *rt, struct hl_queue *q)
{
	uint32_t first;
	int err = kfd_queue_alloc_gws(rt->proc, q->queue_id, 1, &first);
	if (!err)
		return 0;
	atomic_store_explicit(&q->agent->gws_refused, true, memory_order_relaxed);
	hl_error(QUEUE_LOG, "COOPERATIVE queue on %s: GWS allocation failed (%s); the agent no "
		 "longer reports cooperative queues", q->agent->name, hl_errno_name(err));
	queue_destroy(rt, q);
	return err;
}

static hsa_status_t check_create_args(struct hl_runtime *rt, hsa_agent_t agent, uint32_t size,
				      hsa_queue_type32_t type, uint32_t private_segment_size,
				      hsa_queue_t **queue, struct hl_agent **out)
{
	if (!queue)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	struct hl_agent *a = hl_agent_lookup(rt, agent);
	if (!a)
		return HSA_STATUS_ERROR_INVALID_AGENT;
	/* A CPU agent runs no AQL queue: ROCr's CpuAgent::QueueCreate answers
	 * ERROR (5.2.3 and 1.18 alike). */
	if (!hl_agent_is_gpu(a)) {
		hl_error(QUEUE_LOG, "hsa_queue_create: %s is not a kernel agent", a->name);
		return HSA_STATUS_ERROR;
	}
	if (size == 0 || (size & (size - 1)) || size < HL_QUEUE_MIN_PACKETS) {
		hl_error(QUEUE_LOG, "hsa_queue_create: size %u is not a power of two in [%u, %u]",
			 size, HL_QUEUE_MIN_PACKETS, HL_QUEUE_MAX_PACKETS);
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	}
	/* A power of two above HSA_AGENT_INFO_QUEUE_MAX_SIZE: ROCr's GpuAgent
	 * answers OUT_OF_RESOURCES (5.2.3 and 1.18 alike). */
	if (size > HL_QUEUE_MAX_PACKETS) {
		hl_error(QUEUE_LOG, "hsa_queue_create: size %u is above the agent's %u", size,
			 HL_QUEUE_MAX_PACKETS);
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	}
	if (type == HSA_QUEUE_TYPE_COOPERATIVE &&
	    (!a->node->props.num_gws || atomic_load_explicit(&a->gws_refused,
							     memory_order_relaxed))) {
		hl_error(QUEUE_LOG, "hsa_queue_create: %s has no GWS for a COOPERATIVE queue",
			 a->name);
		return HSA_STATUS_ERROR_INVALID_QUEUE_CREATION;
	}
	if (type != HSA_QUEUE_TYPE_MULTI && type != HSA_QUEUE_TYPE_SINGLE &&
	    type != HSA_QUEUE_TYPE_COOPERATIVE)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	if (private_segment_size != UINT32_MAX && private_segment_size > HL_QUEUE_PRIVATE_MAX) {
		hl_error(QUEUE_LOG, "hsa_queue_create: %u bytes of private memory per work-item "
			 "is above the limit of %u", private_segment_size, HL_QUEUE_PRIVATE_MAX);
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	}
	*out = a;
	return HSA_STATUS_SUCCESS;
}

static int queue_create(struct hl_runtime *rt, struct hl_agent *agent, uint32_t size,
			hsa_queue_type32_t type, hl_queue_callback_t callback, void *data,
			uint32_t private_segment_size, struct hl_queue **out)
{
	/* the GPU's trap handler before its first queue: every wave may trap */
	int err = hl_queue_trap_ensure(rt, agent);
	if (err)
		return err;
	struct hl_queue *q = calloc(1, sizeof(*q));
	if (!q)
		return -ENOMEM;
	q->agent = agent;
	q->gpu_id = agent->gpu->gpu_id;
	q->callback = callback;
	q->data = data;
	q->priority = HL_QUEUE_PRIORITY_NORMAL;

	struct hl_queues *qs = rt->queues;
	pthread_mutex_lock(&qs->lock);
	err = hl_queue_slot_get_locked(rt, &q->slot);
	pthread_mutex_unlock(&qs->lock);
	if (err)
		goto err_destroy;
	q->amd = q->slot->addr;
	/* ROCr's AqlQueue reports MULTI for a SINGLE request (5.2.3 and 1.18
	 * alike: any producer may use it); COOPERATIVE stays. */
	q->amd->hsa_queue.type =
		type == HSA_QUEUE_TYPE_COOPERATIVE ? HSA_QUEUE_TYPE_COOPERATIVE : HSA_QUEUE_TYPE_MULTI;

	err = hl_queue_buffers_alloc(rt, q, size, private_segment_size);
	if (err)
		goto err_destroy;
	hl_queue_cu_mask_init(q);

	/* On the registry's shared error event (errors.c); on an event of its
	 * own when there is none (the pool was out: the service then wakes
	 * for this queue with a SET_EVENT, as it would for any foreign
	 * event). */
	pthread_mutex_lock(&qs->lock);
	if (!qs->error_event)
		qs->error_event = hl_signal_shared_event_get(rt);
	struct hl_signal_event *shared = qs->error_event;
	if (shared)
		hl_signal_shared_event_ref(shared); /* held across the unlock */
	pthread_mutex_unlock(&qs->lock);
	if (shared) {
		err = hl_signal_create_on_event(rt, 0, shared, &q->inactive_signal);
		hl_signal_shared_event_put(shared);
	} else {
		err = hl_signal_create(rt, 0, true, true, &q->inactive_signal);
	}
	if (err) {
		hl_error(QUEUE_LOG, "queue_inactive_signal: %s", hl_errno_name(err));
		goto err_destroy;
	}
	q->amd->queue_inactive_signal = q->inactive_signal;

	struct kfd_cwsr_sizes sz;
	kfd_cwsr_sizes(agent->node, &sz);
	struct kfd_queue_args args = {
		.gpu_id = q->gpu_id,
		.type = KFD_QUEUE_TYPE_COMPUTE_AQL,
		.percentage = 100,
		.priority = q->priority,
		.ring = q->ring,
		.ring_size = size * 64,
		.read_ptr = (uint64_t *)(uintptr_t)&q->amd->read_dispatch_id,
		.write_ptr = (uint64_t *)(uintptr_t)&q->amd->write_dispatch_id,
		.eop = q->eop_mem ? q->eop_mem->addr : NULL,
		.eop_size = q->eop_mem ? sz.eop_size : 0,
		.ctx_save = q->cwsr_mem ? q->cwsr_mem->addr : q->cwsr_svm,
		.ctx_save_size = sz.cwsr_size,
		.ctl_stack_size = sz.ctl_stack_size,
	};
	err = kfd_queue_create(rt->proc, &args, &q->queue_id, &q->doorbell);
	if (err)
		goto err_destroy;
	q->created = true;

	err = hl_signal_doorbell_create(rt, q->doorbell, q->amd, &q->doorbell_signal);
	if (err) {
		hl_error(QUEUE_LOG, "doorbell signal: %s", hl_errno_name(err));
		goto err_destroy;
	}
	q->amd->hsa_queue.doorbell_signal = q->doorbell_signal;
	q->amd->hsa_queue.id = hl_queue_next_id();
	/* its waves' traps find it from here on (trap.c) */
	hl_queue_trap_set(agent, q->doorbell, q->amd);
	*out = q;
	return 0;

err_destroy:
	queue_destroy(rt, q);
	return err;
}

hsa_status_t hsa_queue_create(hsa_agent_t agent, uint32_t size, hsa_queue_type32_t type,
			      void (*callback)(hsa_status_t status, hsa_queue_t *source, void *data),
			      void *data, uint32_t private_segment_size, uint32_t group_segment_size,
			      hsa_queue_t **queue)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	struct hl_agent *a;
	hsa_status_t st = check_create_args(rt, agent, size, type, private_segment_size, queue, &a);
	if (st != HSA_STATUS_SUCCESS)
		return st;
	/* group_segment_size is a hint ROCr ignores: LDS is per dispatch. */
	(void)group_segment_size;
	/* UINT32_MAX: no scratch yet, grown on demand (a cooperative queue,
	 * shared by every creator, always grows). */
	bool dynamic = private_segment_size == UINT32_MAX || type == HSA_QUEUE_TYPE_COOPERATIVE;
	if (private_segment_size == UINT32_MAX)
		private_segment_size = 0;

	int err;
	struct hl_queues *qs = rt->queues;
	bool coop = type == HSA_QUEUE_TYPE_COOPERATIVE;
	if (coop) {
		pthread_mutex_lock(&qs->coop_lock);
		pthread_mutex_lock(&qs->lock);
		struct hl_queue *shared = coop_find_locked(qs, a);
		if (shared)
			shared->coop_refs++;
		pthread_mutex_unlock(&qs->lock);
		if (shared) {
			pthread_mutex_unlock(&qs->coop_lock);
			*queue = &shared->amd->hsa_queue;
			return HSA_STATUS_SUCCESS;
		}
	}

	struct hl_queue *q;
	err = queue_create(rt, a, size, type, callback, data, private_segment_size, &q);
	if (!err && coop)
		err = coop_enable(rt, q);
	if (err) {
		if (coop)
			pthread_mutex_unlock(&qs->coop_lock);
		return coop && err != -ENOMEM ? HSA_STATUS_ERROR_OUT_OF_RESOURCES :
						hl_status_from_errno(err);
	}

	pthread_mutex_lock(&qs->lock);
	q->coop_refs = coop ? 1 : 0;
	q->scratch_dynamic = dynamic;
	q->next = qs->live;
	qs->live = q;
	qs->n_live++;
	err = hl_queue_service_attach_locked(rt, q);
	if (err) {
		qs->live = q->next;
		qs->n_live--;
	}
	pthread_mutex_unlock(&qs->lock);
	if (coop)
		pthread_mutex_unlock(&qs->coop_lock);
	if (err) {
		queue_destroy(rt, q);
		return hl_status_from_errno(err);
	}
	hl_debug(QUEUE_LOG, "queue %llu: KFD queue %u on GPU 0x%x, %u packets at %p, doorbell %p",
		 (unsigned long long)q->amd->hsa_queue.id, q->queue_id, q->gpu_id, size,
		 q->ring, (void *)q->doorbell);
	*queue = &q->amd->hsa_queue;
	return HSA_STATUS_SUCCESS;
}

/* Unpublishes q: after this no API call and no service-thread callback
 * uses it.  Caller holds qs->lock. */
static void queue_unpublish_locked(struct hl_queues *qs, struct hl_queue *q)
{
	for (struct hl_queue **pp = &qs->live; *pp; pp = &(*pp)->next) {
		if (*pp == q) {
			*pp = q->next;
			break;
		}
	}
	qs->n_live--;
	hl_queue_service_detach_locked(qs, q);
}

hsa_status_t hsa_queue_destroy(hsa_queue_t *queue)
{
	struct hl_runtime *rt;
	struct hl_queue *q;
	hsa_status_t st = hl_queue_acquire(queue, &rt, &q);
	if (st == HSA_STATUS_ERROR_INVALID_QUEUE) {
		if (!hl_soft_queue_destroy(queue))
			return HSA_STATUS_SUCCESS;
		int err = hl_sdma_queue_destroy(queue);
		if (err != -ENOENT)
			return hl_status_from_errno(err);
	}
	if (st != HSA_STATUS_SUCCESS)
		return st;
	if (q->coop_refs > 1) {
		/* The agent's shared cooperative queue stays for its other
		 * creators. */
		q->coop_refs--;
		hl_queue_release(rt);
		return HSA_STATUS_SUCCESS;
	}
	queue_unpublish_locked(rt->queues, q);
	hl_queue_release(rt);
	hl_queue_service_reap(rt->queues);
	hl_queue_error_log_unreported(q);
	int err = queue_destroy(rt, q);
	return err ? hl_status_from_errno(err) : HSA_STATUS_SUCCESS;
}

/* For the runtime's own queues (internal.c): a queue that is not in the
 * registry, so no public call accepts its pointer, the error service does
 * not watch its inactive signal (it holds the service for the MEMORY
 * event: its faults reach the system event handlers), and queue_teardown
 * never sees it; its owner destroys it (with
 * hl_queue_destroy_unlisted) from its teardown step, which the module table
 * runs before queue_teardown frees the slots (the internal queues first
 * thing in hl_queue_teardown, src/copy's from a module above).  It is on
 * qs->unlisted, so a GPU fault or reset on its GPU marks it stopped
 * (errors.c) and its owner replaces it. */
/* The notifier is a tool's, and hangs off the runtime (qs->notifier_*):
 * a fork child, which has no tool until its own hsa_init loads them again
 * (src/tools/load.c), has none, and neither has a new runtime. */
int hl_queue_set_notifier(struct hl_runtime *rt, hl_queue_notifier_t fn, void *data)
{
	if (!rt || !rt->queues)
		return -EINVAL;
	struct hl_queues *qs = rt->queues;
	int err = 0;

	pthread_mutex_lock(&qs->notifier_lock);
	if (fn && qs->notifier_fn)
		err = -EBUSY;
	else
		qs->notifier_fn = fn, qs->notifier_data = data;
	pthread_mutex_unlock(&qs->notifier_lock);
	return err;
}

int hl_queue_create_unlisted(struct hl_runtime *rt, struct hl_agent *agent, uint32_t size,
			     struct hl_queue **out)
{
	int err = queue_create(rt, agent, size, HSA_QUEUE_TYPE_SINGLE, NULL, NULL, 0, out);
	if (err)
		return err;
	/* Its faults must reach the system event handlers too. */
	err = hl_queue_service_hold(rt);
	if (err) {
		queue_destroy(rt, *out);
		*out = NULL;
		return err;
	}
	struct hl_queues *qs = rt->queues;
	pthread_mutex_lock(&qs->lock);
	(*out)->next = qs->unlisted;
	qs->unlisted = *out;
	pthread_mutex_unlock(&qs->lock);
	/* A tool learns of the runtime's own queues (ROCr's
	 * InternalQueueCreateNotify, called as its utility queues are made). */
	pthread_mutex_lock(&qs->notifier_lock);
	hl_queue_notifier_t fn = qs->notifier_fn;
	void *data = qs->notifier_data;
	pthread_mutex_unlock(&qs->notifier_lock);
	if (fn)
		fn(&(*out)->amd->hsa_queue, (hsa_agent_t){ (uint64_t)(uintptr_t)agent }, data);
	return 0;
}

int hl_queue_destroy_unlisted(struct hl_runtime *rt, struct hl_queue *q)
{
	struct hl_queues *qs = rt->queues;
	pthread_mutex_lock(&qs->lock);
	for (struct hl_queue **pp = &qs->unlisted; *pp; pp = &(*pp)->next)
		if (*pp == q) {
			*pp = q->next;
			break;
		}
	pthread_mutex_unlock(&qs->lock);
	int err = queue_destroy(rt, q);
	hl_queue_service_unhold(rt);
	return err;
}

/* The registry's end: its lists are empty (teardown) or forgotten (a fork
 * child, where a vanished thread may hold the locks: not destroyed). */
static void queues_free(struct hl_runtime *rt, bool forked)
{
	struct hl_queues *qs = rt->queues;
	if (!forked) {
		pthread_cond_destroy(&qs->idle);
		pthread_mutex_destroy(&qs->counted.lock);
		pthread_mutex_destroy(&qs->coop_lock);
		pthread_mutex_destroy(&qs->trap_lock);
		pthread_mutex_destroy(&qs->notifier_lock);
		pthread_mutex_destroy(&qs->iq_lock);
		pthread_mutex_destroy(&qs->lock);
	}
	free(qs);
	rt->queues = NULL;
}

/* The last hsa_shut_down (hl_runtime_lock held, rt withdrawn): destroy
 * the queues the application left, stop the thread, free the slots and
 * the registry. */
static void queue_teardown(struct hl_runtime *rt)
{
	struct hl_queues *qs = rt->queues;
	if (!qs)
		return; /* the module's attach failed before making it */
	pthread_mutex_lock(&qs->lock);
	while (qs->live) {
		struct hl_queue *q = qs->live;
		hl_warn(QUEUE_LOG, "hsa_shut_down: queue %llu was still alive",
			(unsigned long long)q->amd->hsa_queue.id);
		queue_unpublish_locked(qs, q);
		pthread_mutex_unlock(&qs->lock);
		hl_queue_service_reap(qs);
		queue_destroy(rt, q);
		pthread_mutex_lock(&qs->lock);
	}
	hl_queue_service_stop_locked(qs);
	pthread_mutex_unlock(&qs->lock);
	hl_queue_service_reap(qs);
	/* before the pages their pointers live in */
	hl_sdma_queues_teardown(rt);
	/* No queue and no service is left to use it. */
	hl_signal_shared_event_put(qs->error_event);
	qs->error_event = NULL;
	hl_soft_queues_teardown(rt);
	pthread_mutex_lock(&qs->lock);
	hl_queue_slots_release_locked(qs);
	pthread_mutex_unlock(&qs->lock);
	queues_free(rt, false);
}

/* The registry, empty, on rt (the module's attach, before rt is
 * published).  -ENOMEM. */
static int queues_make(struct hl_runtime *rt)
{
	struct hl_queues *qs = calloc(1, sizeof(*qs));
	if (!qs)
		return -ENOMEM;
	pthread_mutex_init(&qs->lock, NULL);
	pthread_mutex_init(&qs->coop_lock, NULL);
	pthread_mutex_init(&qs->trap_lock, NULL);
	pthread_mutex_init(&qs->notifier_lock, NULL);
	pthread_mutex_init(&qs->iq_lock, NULL);
	pthread_cond_init(&qs->idle, NULL);
	hl_counted_pool_init(&qs->counted);
	qs->rt = rt;
	rt->queues = qs;
	return 0;
}

int hl_queue_attach(struct hl_runtime *rt)
{
	int err = queues_make(rt);
	if (err)
		return err;
	hl_queue_trap_attach(rt);
	return hl_queue_internal_attach(rt);
}

void hl_queue_teardown(struct hl_runtime *rt)
{
	/* The internal queues are unlisted queues of ours: they go first;
	 * the trap handler last, once no queue is left to trap. */
	hl_queue_internal_teardown(rt);
	queue_teardown(rt);
	hl_queue_trap_teardown(rt);
}

void hl_queue_closing(struct hl_runtime *rt)
{
	hl_counted_queues_teardown(rt);
}

void hl_queue_forget(struct hl_runtime *rt)
{
	hl_queue_trap_forget(rt);
	hl_queue_internal_forget(rt);
	if (rt->queues) {
		hl_counted_queues_forget(rt);
		queues_forget(rt->queues);
		queues_free(rt, true);
	}
}
