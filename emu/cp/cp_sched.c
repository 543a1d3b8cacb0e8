/*
 * The CP of a device and its scheduler: the hardware queue slots (HQDs) and
 * the runlist that time-slices user queues onto them, as the kernel's
 * CPSCH mode has the HWS firmware do (kfd_device_queue_manager.c:
 * map_queues_cpsch / the runlist; kfd_mqd_manager_v9.c for the HQD state).
 *
 * Model.  A device has hqd_slots hardware queue slots (topology).  Each
 * slot is one host thread, created lazily when the runlist holds more
 * queues than there are slot threads (up to hqd_slots), and parked on
 * cp->work (no CPU) while no queue is waiting for a slot.  A slot thread
 * repeatedly maps the waiting queue with the lowest virtual time, services
 * it for one quantum (at most KEMU_CP_QUANTUM_PACKETS packets or ~1 ms, a
 * dispatch always runs to its end), and unmaps it.  With no more queues
 * than slots every queue is effectively always mapped; with more, they
 * take turns, so every queue makes progress.
 *
 * Priorities (0..15, CREATE/UPDATE_QUEUE) are honoured approximately with
 * stride scheduling: each quantum that made progress adds KEMU_CP_STRIDE /
 * (priority + 1) to the queue's virtual time, so a priority-15 queue gets
 * 16 quanta for each one of a busy priority-0 queue, and none starves.  An
 * idle queue's time is reset to one stride past the clock (the virtual
 * time of the last queue picked), so idle queues are polled round-robin
 * and a queue that wakes up neither jumps ahead nor falls behind.
 *
 * Polling and its cost.  The shim cannot trap doorbell stores (and a
 * futex wait on the doorbell word would never be woken: user space does
 * not FUTEX_WAKE), so an idle CP polls.  A poll of a queue reads its
 * doorbell word only (cp_queue.c: the doorbell drives the fetch), and
 * between two sweeps of the runlist an idle slot thread watches every
 * queue's doorbell word without the lock (kemu_gpu_unit_watch), so a
 * doorbell is seen within tens of nanoseconds while the CP spins, however
 * many idle queues there are.  After the last progress a slot thread
 * keeps re-polling every queue without sleeping for KEMU_GPU_SPIN_NS
 * (20 us: a packet submitted right after another is picked up within
 * microseconds).  Then one slot thread becomes the device's
 * poller: it sleeps on cp->work with an exponential backoff from 50 us to
 * 1 ms (2 ms once the device has been idle for 100 ms, a deeper idle
 * state) and sweeps every queue after each sleep, while the other idle slot
 * threads park (no CPU).  As soon as the poller finds a packet it hands
 * the role back and wakes the parked slots (kemu_cp_sched_busy), so busy
 * queues get their own slots again.  So an idle emulated GPU costs one
 * wakeup per millisecond per device, whatever its number of queues, and
 * the worst latency of a doorbell is ~1 ms on a device idle for less than
 * 100 ms and ~2 ms after that (measured: well under 1% of a core in a
 * release build, ~2-3% under ASan on a loaded host); a new queue, an
 * update or a destroy wakes the parked slots at once.
 *
 * Stopping.  UPDATE_QUEUE (inactive), DESTROY_QUEUE and process teardown
 * set q->hw.preempt, which the packet processor checks between packets, and
 * wait on cp->unit.released until no slot thread owns the queue: when the hook
 * returns, the CP no longer touches it (the kernel's unmap_queues with
 * preemption).  A destroyed queue also abandons its running dispatch: its
 * workgroups, running ones included, stop within a few thousand wave
 * instructions (emu/isa's preempt flag), so even a kernel that never ends
 * lets DESTROY_QUEUE return; a VM fault's eviction does the same.  With a
 * context-save area the waves are saved first (cp_ctx.c), and UPDATE_QUEUE
 * preempts a running dispatch the same way, which resumes from the area
 * when the queue runs again; without one UPDATE_QUEUE waits for the
 * dispatch to end.  When a device's last queue goes, its slot
 * threads and pool are joined and the CP is freed, so an idle machine has
 * no CP threads at all.
 *
 * Registry.  CPs are units of emu/gpu's engine registry (kemu_cp_registry,
 * one per device): the hooks hold its hooks lock for their whole run, the
 * list itself is under its list lock, which eviction (kemu_gpu_evict) takes without
 * waiting for anything, so the driver may evict from any engine thread.
 * A fork child forgets the parent's CPs (cp_fork_forget, run by emu/gpu's
 * fork handler), and its own queues get CPs of their own.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "cp_priv.h"

#ifdef KEMU_CP_HAVE_ISA
#include "isa.h"
#endif

#define KEMU_CP_STRIDE 65536ull

/* A fork child: the parent's CP threads do not exist here, so what they
 * used is freed without touching their locks (a slot may have held one). */
static void cp_fork_forget(struct kemu_gpu_unit *u)
{
	struct kemu_cp *cp = (struct kemu_cp *)u;
	free(cp->threads);
	free(cp);
}

/* Removal and eviction abandon the running dispatch too: its
 * workgroups, running ones included, stop between workgroups and its waves
 * within KEMU_ISA_PREEMPT_INTERVAL instructions. */
static void cp_queue_abandon(struct kemu_gpu_hwq *h)
{
	struct kemu_cp_queue *q = kemu_cp_queue_of(h);
	/* destroying first: a dispatch that sees the preemption request
	 * reads it to know the queue stops after the context save */
	atomic_store_explicit(&q->destroying, true, memory_order_relaxed);
	atomic_store_explicit(&q->ctx_preempt, true, memory_order_relaxed);
}

/* The HWS time-slices when the runlist holds more queues than hardware
 * slots.  Caller holds cp->unit.lock. */
static void sched_oversubscribed(struct kemu_cp *cp)
{
	atomic_store_explicit(&cp->oversubscribed, cp->unit.n_queues > cp->hqd_slots,
			      memory_order_relaxed);
}

/* The CPs, one unit per device (see the file comment, "Registry"). */
static struct kemu_gpu_registry kemu_cp_registry;

/* Whether the scheduler may pick q.  Caller holds cp->unit.lock. */
static bool sched_pickable(const struct kemu_cp_queue *q)
{
	return !q->hw.owned && !q->hw.removing && q->active &&
	       !atomic_load_explicit(&q->hw.evicted, memory_order_relaxed) &&
	       (!atomic_load_explicit(&q->hw.stopped, memory_order_relaxed) || q->scratch_wait);
}

/* The waiting queue with the lowest virtual time.  Caller holds cp->unit.lock. */
static struct kemu_cp_queue *sched_pick(struct kemu_cp *cp)
{
	struct kemu_cp_queue *best = NULL;
	for (struct kemu_gpu_hwq *h = cp->unit.queues; h; h = h->next) {
		struct kemu_cp_queue *q = kemu_cp_queue_of(h);
		if (!sched_pickable(q))
			continue;
		if (!best || q->vtime < best->vtime)
			best = q;
	}
	return best;
}

/* The poller's nap, without cp->unit.lock: a hook that needs a slot wakes the
 * parked ones (cp->work), so the poller need not be interruptible, and a
 * plain sleep costs one system call where a timed condvar wait costs two. */
static void sched_sleep(struct kemu_cp *cp, uint64_t ns)
{
	pthread_mutex_unlock(&cp->unit.lock);
	struct timespec ts = { (time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull) };
	nanosleep(&ts, NULL);
	pthread_mutex_lock(&cp->unit.lock);
}

/* An idle slot thread watches the doorbell word of every pickable queue
 * (kemu_gpu_unit_watch) until one differs from what its last service
 * round saw. */
static bool sched_watchable(const struct kemu_gpu_hwq *h, uint64_t *seen)
{
	const struct kemu_cp_queue *q = kemu_cp_queue_of((struct kemu_gpu_hwq *)h);
	if (!sched_pickable(q))
		return false;
	/* not owned (pickable): its last owner wrote db_seen before it
	 * released q under cp->lock, which we hold */
	*seen = q->db_seen;
	return true;
}

static void *sched_slot_thread(void *arg)
{
	struct kemu_cp *cp = arg;
	uint64_t idle_since = 0, backoff = KEMU_GPU_SLEEP_MIN_NS;
	uint32_t idle_picks = 0;
	bool poller = false;
	kemu_gpu_thread_set_name("CP");
	pthread_mutex_lock(&cp->unit.lock);
	while (!cp->stopping) {
		struct kemu_cp_queue *q = sched_pick(cp);
		if (!q) {
			/* every queue is owned, stopped or inactive: a poller
			 * parking here must give up its role, or all slots
			 * could park with nobody polling; the owners take it
			 * over when they go idle */
			if (poller) {
				poller = false;
				atomic_store_explicit(&cp->poller_active, false,
						      memory_order_relaxed);
			}
			pthread_cond_wait(&cp->work, &cp->unit.lock); /* parked */
			continue;
		}
		kemu_gpu_hwq_own(&q->hw);
		cp->vclock = q->vtime;
		uint64_t ring_base = q->ring_base;
		uint32_t ring_slots = q->ring_slots;
		pthread_mutex_unlock(&cp->unit.lock);
		/* the translations of a service are used within it */
		kemu_gpu_section_begin();
		enum kemu_cp_progress r = kemu_cp_queue_service(q, ring_base, ring_slots);
		kemu_gpu_section_end();
		pthread_mutex_lock(&cp->unit.lock);
		/* a busy queue pays its stride; an idle one is put one stride
		 * after the clock, so idling builds up neither debt nor credit */
		uint64_t stride = KEMU_CP_STRIDE / (q->priority + 1);
		q->vtime = r == KEMU_CP_PROGRESS ? q->vtime + stride : cp->vclock + stride;
		kemu_gpu_hwq_release(&cp->unit, &q->hw);
		if (r == KEMU_CP_PROGRESS) {
			idle_since = 0;
			idle_picks = 0;
			backoff = KEMU_GPU_SLEEP_MIN_NS;
			if (poller && atomic_load_explicit(&cp->poller_active,
							   memory_order_relaxed)) {
				/* work kemu_cp_sched_busy did not see (a barrier
				 * that waited): hand the role back all the same */
				atomic_store_explicit(&cp->poller_active, false,
						      memory_order_relaxed);
				pthread_cond_broadcast(&cp->work);
			}
			poller = false;
			continue;
		}
		/* idle: first look at every other queue once, then watch
		 * their doorbells for a while before the next sweep */
		if (++idle_picks < cp->unit.n_queues)
			continue;
		kemu_gpu_unit_watch(&cp->unit, sched_watchable);
		uint64_t now = kemu_gpu_now_ns();
		if (!idle_since)
			idle_since = now;
		if (now - idle_since < KEMU_GPU_SPIN_NS)
			continue;
		if (poller && !atomic_load_explicit(&cp->poller_active, memory_order_relaxed))
			poller = false; /* the role was handed back meanwhile */
		if (!poller && atomic_load_explicit(&cp->poller_active, memory_order_relaxed)) {
			/* another slot polls for everyone: park until woken by a
			 * hook or by the poller finding work */
			pthread_cond_wait(&cp->work, &cp->unit.lock);
			idle_since = 0;
			idle_picks = 0;
			continue;
		}
		poller = true;
		atomic_store_explicit(&cp->poller_active, true, memory_order_relaxed);
		sched_sleep(cp, backoff);
		backoff = kemu_gpu_backoff(backoff, now - idle_since);
		idle_picks = 0; /* sweep every queue after each sleep */
		if (!atomic_load_explicit(&cp->poller_active, memory_order_relaxed))
			poller = false; /* a hook took the role away */
	}
	if (poller)
		atomic_store_explicit(&cp->poller_active, false, memory_order_relaxed);
	pthread_mutex_unlock(&cp->unit.lock);
	return NULL;
}

void kemu_cp_sched_busy(struct kemu_cp *cp)
{
	/* relaxed: a hint; the flag is re-checked under cp->unit.lock */
	if (!atomic_load_explicit(&cp->poller_active, memory_order_relaxed))
		return;
	pthread_mutex_lock(&cp->unit.lock);
	if (atomic_load_explicit(&cp->poller_active, memory_order_relaxed)) {
		atomic_store_explicit(&cp->poller_active, false, memory_order_relaxed);
		pthread_cond_broadcast(&cp->work); /* parked slots take the other queues */
	}
	pthread_mutex_unlock(&cp->unit.lock);
}

/* The CP of hq's device, created if needed.  Caller holds the hooks
 * lock. */
static struct kemu_cp *cp_get(const struct kemu_hw_queue *hq)
{
	struct kemu_gpu_unit *u = kemu_gpu_unit_find(&kemu_cp_registry, hq->gpu, 0);
	if (u)
		return (struct kemu_cp *)u;
	struct kemu_cp *cp = calloc(1, sizeof(*cp));
	if (!cp)
		return NULL;
	const struct kemu_gpu *g = hq->gpu;
	cp->hqd_slots = g->hqd_slots ? g->hqd_slots : 1;
	cp->threads = calloc(cp->hqd_slots, sizeof(*cp->threads));
	if (!cp->threads) {
		free(cp);
		return NULL;
	}
	cp->gpu_id = g->gpu_id;
	cp->gfx_target_version = g->gfx_target_version;
	cp->gb_addr_config = g->gb_addr_config;
	cp->counter_freq_khz = g->gpu_counter_freq;
	cp->preempt_every = kemu_cp_preempt_every(hq->log_level);
	kemu_gpu_cond_init(&cp->work);
	kemu_cp_pool_init(&cp->pool);
	kemu_gpu_unit_add(&kemu_cp_registry, &cp->unit, hq, 0);
	return cp;
}

/* Joins the threads and frees the CP (no queue left).  Caller holds the
 * hooks lock, not cp->unit.lock. */
static void cp_destroy(struct kemu_gpu_unit *u)
{
	struct kemu_cp *cp = (struct kemu_cp *)u;
	pthread_mutex_lock(&cp->unit.lock);
	cp->stopping = true;
	pthread_cond_broadcast(&cp->work);
	pthread_mutex_unlock(&cp->unit.lock);
	for (uint32_t i = 0; i < cp->n_threads; i++)
		pthread_join(cp->threads[i], NULL);
	kemu_cp_pool_fini(&cp->pool);
	pthread_cond_destroy(&cp->work);
	kemu_gpu_unit_fini(&cp->unit);
	free(cp->threads);
	free(cp);
}


/* GWS follows the queue's is_gws: a fresh state when it gets GWS, kept
 * while it holds it (the MEC saves and restores it with the queue), gone
 * when released.  Caller holds cp->unit.lock (and p->lock). */
static void queue_load_gws(struct kemu_cp_queue *q, const struct kemu_hw_queue *hq)
{
#ifdef KEMU_CP_HAVE_ISA
	struct kemu_cp *cp = q->cp;
	if (hq->info.gws && !q->gws) {
		q->gws = kemu_isa_gws_create();
		if (!q->gws)
			kemu_gpu_warn(cp->unit.log_level, "CP: gpu 0x%x queue %u: no memory for its GWS state: "
				  "its waves' ds_gws_* will fault", q->hw.gpu_id, q->hw.queue_id);
		else
			atomic_fetch_add_explicit(&cp->n_gws, 1, memory_order_relaxed);
	} else if (!hq->info.gws && q->gws) {
		kemu_isa_gws_put(q->gws);
		q->gws = NULL;
		atomic_fetch_sub_explicit(&cp->n_gws, 1, memory_order_relaxed);
	}
	q->num_gws = q->gws ? hq->num_gws : 0;
#else
	(void)q;
	(void)hq;
#endif
}

/* Copies the MQD fields of hq.  Caller holds cp->unit.lock (and p->lock). */
static void queue_load_mqd(struct kemu_cp_queue *q, const struct kemu_hw_queue *hq)
{
	q->ring_base = hq->info.ring_base;
	q->ring_slots = hq->info.ring_size / 64;
	q->priority = hq->info.priority;
	q->active = hq->info.active && q->ring_slots;
	queue_load_gws(q, hq);
}

struct kemu_isa_gws *kemu_cp_queue_gws(struct kemu_cp_queue *q, uint32_t *num_gws)
{
	struct kemu_isa_gws *g = NULL;
	*num_gws = 0;
#ifdef KEMU_CP_HAVE_ISA
	struct kemu_cp *cp = q->cp;
	if (q->gws) { /* owner: stable while it services q */
		kemu_isa_gws_get(q->gws);
		*num_gws = q->num_gws;
		return q->gws;
	}
	/* relaxed: a hint, re-checked under the lock */
	if (!atomic_load_explicit(&cp->n_gws, memory_order_relaxed))
		return NULL;
	pthread_mutex_lock(&cp->unit.lock);
	for (struct kemu_gpu_hwq *h = cp->unit.queues; h; h = h->next) {
		struct kemu_cp_queue *o = kemu_cp_queue_of(h);
		if (o->hw.vm.p == q->hw.vm.p && o->gws && o->active && !o->hw.removing) {
			g = o->gws;
			kemu_isa_gws_get(g);
			*num_gws = o->num_gws;
			break;
		}
	}
	pthread_mutex_unlock(&cp->unit.lock);
#else
	(void)q;
#endif
	return g;
}

/* hqd_load's one-shot WPTR poll: write_dispatch_id when the queue is
 * loaded (0 if it cannot be read: the doorbell alone then drives it). */
static uint64_t wptr_poll(const struct kemu_hw_queue *hq)
{
	uint64_t wptr = 0;
	if (hq->vm.ops->read(hq->vm.p, hq->vm.gpu_id, hq->info.wptr_va, &wptr, sizeof(wptr),
			     NULL))
		return 0;
	return wptr;
}

/* create_queue: hq is an AQL compute queue (the driver's choice of engine)
 * with its wiring set. */
static int cp_queue_add(struct kemu_hw_queue *hq)
{
	int err;
	struct kemu_cp_queue *q = kemu_gpu_hwq_new(sizeof(*q), hq, &err);
	if (!q)
		return err;
	q->rptr_va = hq->info.rptr_va;
	q->wptr_va = hq->info.wptr_va;
	/* not rung yet: doorbell + 1 is the write pointer (cp_queue.c), so
	 * ~0 fetches nothing, where a stale 0 would fetch packet 0.  Relaxed:
	 * the queue is not yet visible to the CP nor known to its producers */
	atomic_store_explicit(q->hw.doorbell, UINT64_MAX, memory_order_relaxed);
	q->db_last = UINT64_MAX;
	kemu_gpu_hooks_lock(&kemu_cp_registry);
	struct kemu_cp *cp = cp_get(hq);
	if (!cp) {
		kemu_gpu_hooks_unlock(&kemu_cp_registry);
		free(q);
		return -ENOMEM;
	}
	q->cp = cp;
	q->wptr_polled = wptr_poll(hq);
	pthread_mutex_lock(&cp->unit.lock);
	queue_load_mqd(q, hq);
	q->vtime = cp->vclock;
	kemu_gpu_hwq_link(&cp->unit, &q->hw);
	sched_oversubscribed(cp);
	if (cp->n_threads < cp->unit.n_queues && cp->n_threads < cp->hqd_slots &&
	    !pthread_create(&cp->threads[cp->n_threads], NULL, sched_slot_thread, cp))
		cp->n_threads++;
	pthread_cond_broadcast(&cp->work);
	pthread_mutex_unlock(&cp->unit.lock);
	kemu_gpu_hooks_unlock(&kemu_cp_registry);
	kemu_gpu_dbg(cp->unit.log_level, "CP: gpu 0x%x queue %u mapped (%u queues, %u slot "
		     "threads)", q->hw.gpu_id, q->hw.queue_id, cp->unit.n_queues, cp->n_threads);
	return 0;
}

/* The CP queue of hq and its CP, or NULL.  Caller holds the hooks lock. */
static struct kemu_cp_queue *queue_find(const struct kemu_hw_queue *hq, struct kemu_cp **cp)
{
	struct kemu_gpu_unit *u;
	struct kemu_gpu_hwq *h = kemu_gpu_hwq_find(&kemu_cp_registry, hq, &u);
	if (!h)
		return NULL;
	*cp = (struct kemu_cp *)u;
	return kemu_cp_queue_of(h);
}

static void cp_queue_update(struct kemu_hw_queue *hq)
{
	if (!hq)
		return;
	kemu_gpu_hooks_lock(&kemu_cp_registry);
	struct kemu_cp *cp;
	struct kemu_cp_queue *q = queue_find(hq, &cp);
	if (q) {
		uint64_t wptr = wptr_poll(hq);
		pthread_mutex_lock(&cp->unit.lock);
		/* preempt (update_queue_cpsch unmaps with
		 * KFD_PREEMPT_TYPE_WAVEFRONT_SAVE): a running dispatch is saved
		 * in the context-save area when the queue has one (cp_ctx.c)
		 * and resumes once the queue is mapped again; without one the
		 * dispatch drains.  Then load the new MQD */
		if (hq->info.ctx_save_va)
			atomic_store_explicit(&q->ctx_preempt, true, memory_order_relaxed);
		kemu_gpu_hwq_preempt(&cp->unit, &q->hw);
		/* served, or no dispatch was running (destroy keeps it set) */
		atomic_store_explicit(&q->ctx_preempt,
				      atomic_load_explicit(&q->destroying, memory_order_relaxed),
				      memory_order_relaxed);
		queue_load_mqd(q, hq);
		q->wptr_polled = wptr; /* reloaded: the one-shot WPTR poll */
		kemu_gpu_hwq_resume(&q->hw);
		pthread_cond_broadcast(&cp->work);
		pthread_mutex_unlock(&cp->unit.lock);
	}
	kemu_gpu_hooks_unlock(&kemu_cp_registry);
}

/* A removed queue: its GWS state goes (dispatches of other queues may
 * still hold references), then the queue. */
static void cp_queue_free(struct kemu_gpu_unit *u, struct kemu_gpu_hwq *h)
{
	struct kemu_cp_queue *q = kemu_cp_queue_of(h);
	struct kemu_cp *cp = (struct kemu_cp *)u;
	pthread_mutex_lock(&cp->unit.lock);
	sched_oversubscribed(cp);
#ifdef KEMU_CP_HAVE_ISA
	if (q->gws) {
		kemu_isa_gws_put(q->gws);
		atomic_fetch_sub_explicit(&cp->n_gws, 1, memory_order_relaxed);
	}
#endif
	pthread_mutex_unlock(&cp->unit.lock);
	if (q->ctx.saves)
		kemu_gpu_info(cp->unit.log_level, "CP: gpu 0x%x queue %u: %llu context saves, %llu "
			      "restores", q->hw.gpu_id, q->hw.queue_id,
			      (unsigned long long)q->ctx.saves, (unsigned long long)q->ctx.restores);
	kemu_cp_ctx_clear(q);
	free(q);
}

static struct kemu_gpu_registry kemu_cp_registry = {
	KEMU_GPU_REGISTRY_INIT("CP"),
	.fork_forget = cp_fork_forget,
	.queue_abandon = cp_queue_abandon,
	.queue_free = cp_queue_free,
	.unit_destroy = cp_destroy,
};

const struct kemu_engine_ops kemu_cp_engine = {
	.name = "CP",
	.registry = &kemu_cp_registry,
	.add = cp_queue_add,
	.update = cp_queue_update,
};
