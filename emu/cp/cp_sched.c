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
 * queue's doorbell word without the lock (sched_watch_doorbells), so a
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
 * set q->preempt, which the packet processor checks between packets, and
 * wait on cp->released until no slot thread owns the queue: when the hook
 * returns, the CP no longer touches it (the kernel's unmap_queues with
 * preemption).  A destroyed queue also abandons its running dispatch: its
 * workgroups, running ones included, stop within a few thousand wave
 * instructions (emu/isa's preempt flag), so even a kernel that never ends
 * lets DESTROY_QUEUE return; a VM fault's eviction does the same.
 * UPDATE_QUEUE still waits for the running dispatch to end (no wave state
 * is saved; docs/kfdemu.md).  When a device's last queue goes, its slot
 * threads and pool are joined and the CP is freed, so an idle machine has
 * no CP threads at all.
 *
 * Registry.  CPs are found by device (kemu_cp_registry: the hooks hold
 * its hooks lock for their whole run, the list itself is under its list
 * lock, which the evict hook takes without waiting for anything, so the
 * driver may evict from any engine thread).  A fork child has none of its
 * parent's GPU contexts and none of its CP threads: it forgets the
 * parent's CPs (both registry locks are held across fork so the list is
 * consistent), and its own queues get CPs of their own.
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

static struct {
	pthread_mutex_t hooks;
	pthread_mutex_t list;
	struct kemu_cp *cps;
} kemu_cp_registry = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, NULL };

static pthread_once_t kemu_cp_atfork_once = PTHREAD_ONCE_INIT;

static void cp_atfork_prepare(void)
{
	pthread_mutex_lock(&kemu_cp_registry.hooks);
	pthread_mutex_lock(&kemu_cp_registry.list);
}

static void cp_atfork_parent(void)
{
	pthread_mutex_unlock(&kemu_cp_registry.list);
	pthread_mutex_unlock(&kemu_cp_registry.hooks);
}

static void cp_atfork_child(void)
{
	/* the parent's CP threads do not exist here: free what they used
	 * without touching their locks (a slot may have held one at fork) */
	struct kemu_cp *cp = kemu_cp_registry.cps;
	kemu_cp_registry.cps = NULL;
	while (cp) {
		struct kemu_cp *next = cp->next;
		while (cp->queues) {
			struct kemu_cp_queue *q = cp->queues;
			cp->queues = q->next;
			free(q);
		}
		free(cp->threads);
		free(cp);
		cp = next;
	}
	pthread_mutex_unlock(&kemu_cp_registry.list);
	pthread_mutex_unlock(&kemu_cp_registry.hooks);
}

static void cp_atfork_register(void)
{
	pthread_atfork(cp_atfork_prepare, cp_atfork_parent, cp_atfork_child);
}

/* Whether the scheduler may pick q.  Caller holds cp->lock. */
static bool sched_pickable(const struct kemu_cp_queue *q)
{
	return !q->owned && !q->removing && q->active &&
	       !atomic_load_explicit(&q->evicted, memory_order_relaxed) &&
	       (!atomic_load_explicit(&q->stopped, memory_order_relaxed) || q->scratch_wait);
}

/* The waiting queue with the lowest virtual time.  Caller holds cp->lock. */
static struct kemu_cp_queue *sched_pick(struct kemu_cp *cp)
{
	struct kemu_cp_queue *best = NULL;
	for (struct kemu_cp_queue *q = cp->queues; q; q = q->next) {
		if (!sched_pickable(q))
			continue;
		if (!best || q->vtime < best->vtime)
			best = q;
	}
	return best;
}

/* The poller's nap, without cp->lock: a hook that needs a slot wakes the
 * parked ones (cp->work), so the poller need not be interruptible, and a
 * plain sleep costs one system call where a timed condvar wait costs two. */
static void sched_sleep(struct kemu_cp *cp, uint64_t ns)
{
	pthread_mutex_unlock(&cp->lock);
	struct timespec ts = { (time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull) };
	nanosleep(&ts, NULL);
	pthread_mutex_lock(&cp->lock);
}

/* An idle slot thread watches the doorbell word of every pickable queue,
 * without cp->lock, until one differs from what its last service round saw
 * or KEMU_GPU_DOORBELL_POLLS polls pass: what the HQDs' doorbell logic
 * does in hardware, where a sweep of the runlist under the lock costs
 * several polls.  Relaxed loads: the service round that follows reads the
 * doorbell again with acquire.  Caller holds cp->lock; it is dropped
 * meanwhile, with cp->watching raised so that kemu_cp_queue_remove waits
 * before the process may unmap a doorbell being read. */
static void sched_watch_doorbells(struct kemu_cp *cp)
{
	_Atomic uint64_t *db[KEMU_CP_WATCH_MAX];
	uint64_t seen[KEMU_CP_WATCH_MAX];
	unsigned n = 0;
	for (struct kemu_cp_queue *q = cp->queues; q && n < KEMU_CP_WATCH_MAX; q = q->next) {
		if (!sched_pickable(q))
			continue;
		db[n] = q->doorbell;
		seen[n++] = q->db_seen;
	}
	if (!n)
		return;
	cp->watching++;
	pthread_mutex_unlock(&cp->lock);
	kemu_gpu_watch_doorbells(db, seen, n);
	pthread_mutex_lock(&cp->lock);
	if (!--cp->watching)
		pthread_cond_broadcast(&cp->released);
}

static void *sched_slot_thread(void *arg)
{
	struct kemu_cp *cp = arg;
	uint64_t idle_since = 0, backoff = KEMU_GPU_SLEEP_MIN_NS;
	uint32_t idle_picks = 0;
	bool poller = false;
	pthread_mutex_lock(&cp->lock);
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
			pthread_cond_wait(&cp->work, &cp->lock); /* parked */
			continue;
		}
		q->owned = true;
		cp->vclock = q->vtime;
		uint64_t ring_base = q->ring_base;
		uint32_t ring_slots = q->ring_slots;
		pthread_mutex_unlock(&cp->lock);
		enum kemu_cp_progress r = kemu_cp_queue_service(q, ring_base, ring_slots);
		pthread_mutex_lock(&cp->lock);
		q->owned = false;
		/* a busy queue pays its stride; an idle one is put one stride
		 * after the clock, so idling builds up neither debt nor credit */
		uint64_t stride = KEMU_CP_STRIDE / (q->priority + 1);
		q->vtime = r == KEMU_CP_PROGRESS ? q->vtime + stride : cp->vclock + stride;
		/* a hook that set preempt (under cp->lock) waits for this */
		if (q->removing || atomic_load_explicit(&q->preempt, memory_order_relaxed))
			pthread_cond_broadcast(&cp->released);
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
		if (++idle_picks < cp->n_queues)
			continue;
		sched_watch_doorbells(cp);
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
			pthread_cond_wait(&cp->work, &cp->lock);
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
	pthread_mutex_unlock(&cp->lock);
	return NULL;
}

void kemu_cp_sched_busy(struct kemu_cp *cp)
{
	/* relaxed: a hint; the flag is re-checked under cp->lock */
	if (!atomic_load_explicit(&cp->poller_active, memory_order_relaxed))
		return;
	pthread_mutex_lock(&cp->lock);
	if (atomic_load_explicit(&cp->poller_active, memory_order_relaxed)) {
		atomic_store_explicit(&cp->poller_active, false, memory_order_relaxed);
		pthread_cond_broadcast(&cp->work); /* parked slots take the other queues */
	}
	pthread_mutex_unlock(&cp->lock);
}

/* The CP of hq's device, created if needed.  Caller holds the hooks
 * lock. */
static struct kemu_cp *cp_get(const struct kemu_hw_queue *hq)
{
	for (struct kemu_cp *cp = kemu_cp_registry.cps; cp; cp = cp->next) {
		if (cp->gpu == hq->gpu)
			return cp;
	}
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
	cp->gpu = g;
	cp->log_level = hq->log_level;
	cp->gpu_id = g->gpu_id;
	cp->gfx_target_version = g->gfx_target_version;
	cp->gb_addr_config = g->gb_addr_config;
	cp->counter_freq_khz = g->gpu_counter_freq;
	pthread_mutex_init(&cp->lock, NULL);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&cp->work, &ca);
	pthread_condattr_destroy(&ca);
	pthread_cond_init(&cp->released, NULL);
	kemu_cp_pool_init(&cp->pool);
	pthread_mutex_lock(&kemu_cp_registry.list);
	cp->next = kemu_cp_registry.cps;
	kemu_cp_registry.cps = cp;
	pthread_mutex_unlock(&kemu_cp_registry.list);
	return cp;
}

/* Joins the threads and frees cp (no queue left).  Caller holds the
 * hooks lock, not cp->lock. */
static void cp_destroy(struct kemu_cp *cp)
{
	pthread_mutex_lock(&kemu_cp_registry.list);
	for (struct kemu_cp **pp = &kemu_cp_registry.cps; *pp; pp = &(*pp)->next) {
		if (*pp == cp) {
			*pp = cp->next;
			break;
		}
	}
	pthread_mutex_unlock(&kemu_cp_registry.list);
	pthread_mutex_lock(&cp->lock);
	cp->stopping = true;
	pthread_cond_broadcast(&cp->work);
	pthread_mutex_unlock(&cp->lock);
	for (uint32_t i = 0; i < cp->n_threads; i++)
		pthread_join(cp->threads[i], NULL);
	kemu_cp_pool_fini(&cp->pool);
	pthread_cond_destroy(&cp->released);
	pthread_cond_destroy(&cp->work);
	pthread_mutex_destroy(&cp->lock);
	free(cp->threads);
	free(cp);
}


/* GWS follows the queue's is_gws: a fresh state when it gets GWS, kept
 * while it holds it (the MEC saves and restores it with the queue), gone
 * when released.  Caller holds cp->lock (and p->lock). */
static void queue_load_gws(struct kemu_cp_queue *q, const struct kemu_hw_queue *hq)
{
#ifdef KEMU_CP_HAVE_ISA
	struct kemu_cp *cp = q->cp;
	if (hq->info.gws && !q->gws) {
		q->gws = kemu_isa_gws_create();
		if (!q->gws)
			kemu_gpu_warn(cp->log_level, "CP: gpu 0x%x queue %u: no memory for its GWS state: "
				  "its waves' ds_gws_* will fault", q->gpu_id, q->queue_id);
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

/* Copies the MQD fields of hq.  Caller holds cp->lock (and p->lock). */
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
	pthread_mutex_lock(&cp->lock);
	for (struct kemu_cp_queue *o = cp->queues; o; o = o->next) {
		if (o->p == q->p && o->gws && o->active && !o->removing) {
			g = o->gws;
			kemu_isa_gws_get(g);
			*num_gws = o->num_gws;
			break;
		}
	}
	pthread_mutex_unlock(&cp->lock);
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
	if (!hq || !hq->vm.ops || !hq->vm.gen || !hq->gpu || !hq->doorbell)
		return -EINVAL;
	struct kemu_cp_queue *q = calloc(1, sizeof(*q));
	if (!q)
		return -ENOMEM;
	q->p = hq->vm.p;
	q->hq = hq;
	q->vm = hq->vm;
	q->queue_id = hq->info.queue_id;
	q->gpu_id = hq->vm.gpu_id;
	q->rptr_va = hq->info.rptr_va;
	q->wptr_va = hq->info.wptr_va;
	/* the driver keeps the doorbell mapped until after remove */
	q->doorbell = hq->doorbell;
	/* not rung yet: doorbell + 1 is the write pointer (cp_queue.c), so
	 * ~0 fetches nothing, where a stale 0 would fetch packet 0.  Relaxed:
	 * the queue is not yet visible to the CP nor known to its producers */
	atomic_store_explicit(q->doorbell, UINT64_MAX, memory_order_relaxed);
	q->db_last = UINT64_MAX;
	pthread_once(&kemu_cp_atfork_once, cp_atfork_register);
	pthread_mutex_lock(&kemu_cp_registry.hooks);
	struct kemu_cp *cp = cp_get(hq);
	if (!cp) {
		pthread_mutex_unlock(&kemu_cp_registry.hooks);
		free(q);
		return -ENOMEM;
	}
	q->cp = cp;
	q->wptr_polled = wptr_poll(hq);
	pthread_mutex_lock(&cp->lock);
	queue_load_mqd(q, hq);
	q->vtime = cp->vclock;
	q->next = cp->queues;
	cp->queues = q;
	cp->n_queues++;
	if (cp->n_threads < cp->n_queues && cp->n_threads < cp->hqd_slots &&
	    !pthread_create(&cp->threads[cp->n_threads], NULL, sched_slot_thread, cp))
		cp->n_threads++;
	pthread_cond_broadcast(&cp->work);
	pthread_mutex_unlock(&cp->lock);
	pthread_mutex_unlock(&kemu_cp_registry.hooks);
	kemu_gpu_dbg(cp->log_level, "CP: gpu 0x%x queue %u mapped (%u queues, %u slot threads)",
		 q->gpu_id, q->queue_id, cp->n_queues, cp->n_threads);
	return 0;
}

/* Finds the CP queue of hq.  Caller holds the hooks lock. */
static struct kemu_cp_queue *queue_find(const struct kemu_hw_queue *hq)
{
	for (struct kemu_cp *cp = kemu_cp_registry.cps; cp; cp = cp->next) {
		if (cp->gpu != hq->gpu)
			continue;
		for (struct kemu_cp_queue *q = cp->queues; q; q = q->next) {
			if (q->hq == hq)
				return q;
		}
	}
	return NULL;
}

/* Waits until no slot thread owns q.  Caller holds cp->lock. */
static void queue_wait_released(struct kemu_cp *cp, struct kemu_cp_queue *q)
{
	while (q->owned)
		pthread_cond_wait(&cp->released, &cp->lock);
}

static void cp_queue_update(struct kemu_hw_queue *hq)
{
	if (!hq)
		return;
	pthread_mutex_lock(&kemu_cp_registry.hooks);
	struct kemu_cp_queue *q = queue_find(hq);
	if (q) {
		uint64_t wptr = wptr_poll(hq);
		struct kemu_cp *cp = q->cp;
		pthread_mutex_lock(&cp->lock);
		/* preempt at a packet boundary, then load the new MQD; release:
		 * pairs with the service loop's acquire load */
		atomic_store_explicit(&q->preempt, true, memory_order_release);
		queue_wait_released(cp, q);
		queue_load_mqd(q, hq);
		q->wptr_polled = wptr; /* reloaded: the one-shot WPTR poll */
		/* release: pairs with the service loop's acquire load */
		atomic_store_explicit(&q->preempt, false, memory_order_release);
		pthread_cond_broadcast(&cp->work);
		pthread_mutex_unlock(&cp->lock);
	}
	pthread_mutex_unlock(&kemu_cp_registry.hooks);
}

static void cp_queue_remove(struct kemu_hw_queue *hq)
{
	if (!hq)
		return;
	pthread_mutex_lock(&kemu_cp_registry.hooks);
	struct kemu_cp_queue *q = queue_find(hq);
	if (!q) {
		pthread_mutex_unlock(&kemu_cp_registry.hooks);
		return;
	}
	struct kemu_cp *cp = q->cp;
	pthread_mutex_lock(&cp->lock);
	q->removing = true;
	atomic_store_explicit(&q->destroying, true, memory_order_relaxed);
	/* release: pairs with the service loop's acquire load */
	atomic_store_explicit(&q->preempt, true, memory_order_release);
	queue_wait_released(cp, q);
	/* a slot thread may be reading q's doorbell without the lock */
	while (cp->watching)
		pthread_cond_wait(&cp->released, &cp->lock);
	for (struct kemu_cp_queue **pp = &cp->queues; *pp; pp = &(*pp)->next) {
		if (*pp == q) {
			*pp = q->next;
			break;
		}
	}
	bool last = --cp->n_queues == 0;
#ifdef KEMU_CP_HAVE_ISA
	if (q->gws) {
		/* dispatches of other queues may still hold references */
		kemu_isa_gws_put(q->gws);
		atomic_fetch_sub_explicit(&cp->n_gws, 1, memory_order_relaxed);
	}
#endif
	pthread_mutex_unlock(&cp->lock);
	free(q);
	if (last)
		cp_destroy(cp);
	pthread_mutex_unlock(&kemu_cp_registry.hooks);
}

/* Stops every queue of p on cp.  Takes cp->lock. */
static void cp_evict_process(struct kemu_cp *cp, struct kemu_process *p)
{
	pthread_mutex_lock(&cp->lock);
	for (struct kemu_cp_queue *q = cp->queues; q; q = q->next) {
		if (q->p == p) {
			atomic_store_explicit(&q->evicted, true, memory_order_relaxed);
			atomic_store_explicit(&q->stopped, true, memory_order_relaxed);
			/* the running dispatch too (final, as on a fault) */
			atomic_store_explicit(&q->destroying, true, memory_order_relaxed);
		}
	}
	pthread_mutex_unlock(&cp->lock);
}

static void cp_evict(struct kemu_process *p, const struct kemu_gpu *gpu)
{
	pthread_mutex_lock(&kemu_cp_registry.list);
	for (struct kemu_cp *cp = kemu_cp_registry.cps; cp; cp = cp->next) {
		if (cp->gpu == gpu)
			cp_evict_process(cp, p);
	}
	pthread_mutex_unlock(&kemu_cp_registry.list);
}

const struct kemu_engine_ops kemu_cp_engine = {
	.name = "CP",
	.add = cp_queue_add,
	.update = cp_queue_update,
	.remove = cp_queue_remove,
	.evict = cp_evict,
};
