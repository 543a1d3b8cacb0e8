/*
 * The SDMA engines of a device and the driver hooks.
 *
 * Model.  A device has num_sdma_engines PCIe-optimised engines followed by
 * num_sdma_xgmi_engines xGMI ones (the topology; MI210/Aldebaran: 5 SDMA
 * 4.4 instances = 2 + 3, 8 RLC queues each), each with
 * num_sdma_queues_per_engine RLC queues; CREATE_QUEUE picks the engine and
 * RLC queue (kemu_queue.c, allocate_sdma_queue's order) and records it in
 * q->sdma_slot = engine * queues_per_engine + rlc.  An engine is one host
 * thread, created when its first queue is added and joined when its last
 * goes, so engines without queues cost nothing and the engines of a device
 * copy concurrently with each other and with the CP.  The thread services
 * its RLC queues round-robin, each for at most a quantum (64 packets or
 * ~1 ms), as the engine's hardware scheduler switches between its RLC
 * queues.
 *
 * Idle.  Doorbell stores cannot be trapped (gpu.h explains why), so
 * idle engines poll their queues' doorbell words, with the CP's pacing:
 * after the last progress an engine keeps sweeping without sleeping for
 * KEMU_GPU_SPIN_NS (20 us, as the CP), and between two sweeps it watches
 * its queues' doorbell words without its lock, one pause apart, as the
 * CP's idle slots do (cp_sched.c, sched_watch_doorbells): a doorbell rung
 * while it spins is seen within a pause or two, where 64 blind pauses and
 * a locked sweep per look took up to a couple of microseconds on this
 * host's pause (a real engine sees the write in hardware).  Then the
 * engines of a device share
 * one poller, as the CP's slots do: one engine takes the role and naps with
 * an exponential backoff from 50 us to 1 ms (2 ms after 100 ms idle),
 * sweeping its own queues and peeking at the other engines' doorbells after
 * each nap (waking them when one changed), while the other idle engines
 * park without a timeout; a busy engine gives the role back and wakes the
 * parked ones, an engine going idle with a shorter nap than the poller's
 * takes the role over (so a queue busy a moment ago is watched at its own
 * pace, not at the idle device's 2 ms), and a hook (new queue, update,
 * destroy) wakes the engines at once.  An engine whose queue waits in POLL_REGMEM (or a looping ATOMIC)
 * never parks: it re-checks at that pace, polling for the device too when
 * nobody else does.  An engine whose queues are all stopped or inactive
 * parks until a hook.  So an idle device costs one wakeup every millisecond
 * or two, whatever its number of engines, and a doorbell is seen within
 * that long.  The engine threads run with 1 us of timer slack instead of
 * the default 50 us, so a nap lasts what it asks for.
 *
 * Stopping.  UPDATE_QUEUE and DESTROY_QUEUE set q->hw.preempt, which the
 * fetch checks between packets, and wait on eng->unit.released while the
 * thread services q; so when the hook returns, the engine no longer
 * touches the queue (a packet in progress, even a 4 MiB copy, completes
 * first).  Process teardown destroys each queue the same way.
 *
 * Registry.  Engines are units of emu/gpu's engine registry
 * (kemu_sdma_registry), found by (device, engine id).  The hooks hold its
 * hooks lock throughout (they may wait for a thread); the list itself is
 * under its list lock, which eviction (kemu_gpu_evict) takes (with eng->unit.lock)
 * from any GPU-side thread without waiting for anything.  A fork child
 * forgets the parent's engines and devices (sdma_fork_forget and
 * sdma_fork_child, run by emu/gpu's fork handler), as the CP's do.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <time.h>
#include <sys/prctl.h>

#include "sdma_priv.h"

/* The devices' poller state (struct kemu_sdma_dev), under the registry's
 * hooks lock. */
static struct kemu_sdma_dev *kemu_sdma_devs;

/* A fork child: the parent's engine threads do not exist here, so what
 * they used is freed without touching their locks. */
static void sdma_fork_forget(struct kemu_gpu_unit *u)
{
	free((struct kemu_sdma_engine *)u);
}

static void sdma_fork_child(void)
{
	struct kemu_sdma_dev *sd = kemu_sdma_devs;
	kemu_sdma_devs = NULL;
	while (sd) {
		struct kemu_sdma_dev *next = sd->next;
		free(sd);
		sd = next;
	}
}

/* The engines, one unit per (device, engine id). */
static struct kemu_gpu_registry kemu_sdma_registry;

/* Whether the thread may service q.  Caller holds eng->unit.lock. */
static bool engine_pickable(const struct kemu_sdma_queue *q)
{
	return q->active && !q->hw.removing &&
	       !atomic_load_explicit(&q->hw.preempt, memory_order_relaxed) &&
	       !atomic_load_explicit(&q->hw.stopped, memory_order_relaxed);
}

/* Has engine_destroy asked the thread to end?  Acquire: pairs with its
 * release store. */
static bool engine_stopping(struct kemu_sdma_engine *eng)
{
	return atomic_load_explicit(&eng->stopping, memory_order_acquire);
}

/* One round over the engine's queues, each serviced without eng->unit.lock.
 * Returns the best progress seen, KEMU_SDMA_IDLE also when no queue was
 * pickable (*any = false).  Caller holds eng->unit.lock. */
static enum kemu_sdma_progress engine_round(struct kemu_sdma_engine *eng, bool *any)
{
	enum kemu_sdma_progress best = KEMU_SDMA_IDLE;
	uint32_t n = eng->unit.n_queues;
	*any = false;
	for (uint32_t k = 0; k < n && !engine_stopping(eng); k++) {
		/* the (rr + k)-th queue of the list as it is now */
		struct kemu_gpu_hwq *h = eng->unit.queues;
		uint32_t idx = eng->unit.n_queues ? (eng->rr + k) % eng->unit.n_queues : 0;
		for (uint32_t i = 0; h && i < idx; i++)
			h = h->next;
		if (!h || !engine_pickable(kemu_sdma_queue_of(h)))
			continue;
		struct kemu_sdma_queue *q = kemu_sdma_queue_of(h);
		*any = true;
		kemu_gpu_hwq_own(&q->hw);
		uint64_t ring_base = q->ring_base;
		uint32_t ring_size = q->ring_size;
		pthread_mutex_unlock(&eng->unit.lock);
		/* the translations of a service are used within it */
		kemu_gpu_section_begin();
		enum kemu_sdma_progress r = kemu_sdma_queue_service(q, ring_base, ring_size);
		kemu_gpu_section_end();
		pthread_mutex_lock(&eng->unit.lock);
		kemu_gpu_hwq_release(&eng->unit, &q->hw);
		if (r > best)
			best = r;
	}
	eng->rr++;
	return best;
}

/* An absolute CLOCK_MONOTONIC time ns from now. */
static struct timespec deadline(uint64_t ns)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	uint64_t t = (uint64_t)ts.tv_nsec + ns;
	ts.tv_sec += (time_t)(t / 1000000000ull);
	ts.tv_nsec = (long)(t % 1000000000ull);
	return ts;
}

/* Wakes the engines parked on sd and, if one polls for them, takes the
 * role away so each polls for itself again.  Caller holds no engine lock. */
static void dev_wake_parked(struct kemu_sdma_dev *sd)
{
	pthread_mutex_lock(&sd->lock);
	sd->poller = NULL;
	pthread_cond_broadcast(&sd->park);
	pthread_mutex_unlock(&sd->lock);
}

/* The poller's look at the other engines of its device: has a doorbell of
 * one of their queues changed since its engine last took it?  Relaxed
 * loads: the engine that services the queue reads it again with acquire.
 * Caller holds no lock. */
static bool dev_other_doorbells_rung(struct kemu_sdma_engine *self)
{
	bool rung = false;
	pthread_mutex_lock(&kemu_sdma_registry.list);
	for (struct kemu_gpu_unit *u = kemu_sdma_registry.units; u && !rung; u = u->next) {
		struct kemu_sdma_engine *e = (struct kemu_sdma_engine *)u;
		if (e == self || e->sd != self->sd)
			continue;
		pthread_mutex_lock(&e->unit.lock);
		for (struct kemu_gpu_hwq *h = e->unit.queues; h; h = h->next) {
			struct kemu_sdma_queue *q = kemu_sdma_queue_of(h);
			if (engine_pickable(q) &&
			    atomic_load_explicit(q->hw.doorbell, memory_order_relaxed) !=
				    atomic_load_explicit(&q->db_seen, memory_order_relaxed)) {
				rung = true;
				break;
			}
		}
		pthread_mutex_unlock(&e->unit.lock);
	}
	pthread_mutex_unlock(&kemu_sdma_registry.list);
	return rung;
}

/* The spin between two sweeps watches the doorbell word of every pickable
 * queue of the engine (kemu_gpu_unit_watch) until one differs from the
 * value the engine last took, as the CP's idle slots do: so it never waits
 * longer than the blind pauses it replaces, and a queue blocked in
 * POLL_REGMEM is re-checked at the same pace. */
static bool engine_watchable(const struct kemu_gpu_hwq *h, uint64_t *seen)
{
	const struct kemu_sdma_queue *q = kemu_sdma_queue_of((struct kemu_gpu_hwq *)h);
	if (!engine_pickable(q))
		return false;
	/* relaxed: written by this thread only */
	*seen = atomic_load_explicit(&q->db_seen, memory_order_relaxed);
	return true;
}

/* An engine past its spin phase.  If all its queues are idle (may_park)
 * it parks while another engine of the device polls for it; else it takes
 * that role and naps ns before its next sweep, after which it wakes the
 * parked engines if one of their doorbells changed.  An engine with a
 * blocked queue (a POLL_REGMEM) never parks: it polls for the device too
 * when nobody else does, else it naps on its own.  Returns with eng->unit.lock
 * held, as called. */
enum idle_how { IDLE_NAPPED, IDLE_PARKED, IDLE_POLLED };
static enum idle_how engine_idle(struct kemu_sdma_engine *eng, uint64_t ns, bool may_park)
{
	struct kemu_sdma_dev *sd = eng->sd;
	pthread_mutex_unlock(&eng->unit.lock);
	pthread_mutex_lock(&sd->lock);
	/* an engine that was just busy naps shorter than a poller deep in
	 * its backoff: it takes the role over, so a doorbell on a queue that
	 * was busy a moment ago is seen at its pace, not the idle device's */
	if (sd->poller && sd->poller != eng && ns >= sd->poller_ns) {
		if (may_park) {
			/* until the poller, a hook or the role's release wakes us;
			 * engine_destroy may have set stopping and woken the
			 * parked ones after our loop looked and before we took
			 * sd->lock: then do not park (its wake takes sd->lock
			 * after the store, so if we miss it here we are waiting) */
			if (!engine_stopping(eng))
				pthread_cond_wait(&sd->park, &sd->lock);
			pthread_mutex_unlock(&sd->lock);
			pthread_mutex_lock(&eng->unit.lock);
			return IDLE_PARKED;
		}
		pthread_mutex_unlock(&sd->lock);
		pthread_mutex_lock(&eng->unit.lock);
		struct timespec ts = deadline(ns);
		pthread_cond_timedwait(&eng->wake, &eng->unit.lock, &ts);
		return IDLE_NAPPED;
	}
	sd->poller = eng;
	sd->poller_ns = ns;
	struct timespec ts = deadline(ns);
	pthread_cond_timedwait(&sd->park, &sd->lock, &ts);
	bool mine = sd->poller == eng; /* a hook or a busy engine took it back */
	pthread_mutex_unlock(&sd->lock);
	if (mine && dev_other_doorbells_rung(eng))
		dev_wake_parked(sd);
	pthread_mutex_lock(&eng->unit.lock);
	/* the role may have gone meanwhile (a hook, a busy engine, a
	 * takeover): then this was only a nap */
	return mine ? IDLE_POLLED : IDLE_NAPPED;
}

static void *engine_thread(void *arg)
{
	struct kemu_sdma_engine *eng = arg;
	struct kemu_sdma_dev *sd = eng->sd;
	uint64_t idle_since = 0, backoff = KEMU_GPU_SLEEP_MIN_NS;
	bool polling = false; /* this engine may hold sd's poller role */
	/* naps end on time: the default 50 us of timer slack came on top of
	 * every nap, so a doorbell rung just after the spin waited ~135 us
	 * for an idle engine where the CP's blit queue waits ~80 us (loaded
	 * host); the wakeups, and so the idle cost, are as many as before */
	prctl(PR_SET_TIMERSLACK, KEMU_SDMA_TIMER_SLACK_NS, 0, 0, 0);
	kemu_gpu_thread_set_name("SDMA%u", eng->engine_id);
	pthread_mutex_lock(&eng->unit.lock);
	while (!engine_stopping(eng)) {
		bool any;
		enum kemu_sdma_progress r = engine_round(eng, &any);
		if (engine_stopping(eng))
			break;
		if (r == KEMU_SDMA_PROGRESS) {
			idle_since = 0;
			backoff = KEMU_GPU_SLEEP_MIN_NS;
			if (polling) {
				/* busy: the parked engines poll for themselves */
				polling = false;
				pthread_mutex_unlock(&eng->unit.lock);
				dev_wake_parked(sd);
				pthread_mutex_lock(&eng->unit.lock);
			}
			continue;
		}
		if (!any) {
			if (polling) {
				/* the parked engines poll for themselves */
				polling = false;
				pthread_mutex_unlock(&eng->unit.lock);
				dev_wake_parked(sd);
				pthread_mutex_lock(&eng->unit.lock);
				continue;
			}
			/* nothing to service: park until a hook wakes us */
			pthread_cond_wait(&eng->wake, &eng->unit.lock);
			idle_since = 0;
			backoff = KEMU_GPU_SLEEP_MIN_NS;
			continue;
		}
		uint64_t now = kemu_gpu_now_ns();
		if (!idle_since)
			idle_since = now;
		if (now - idle_since < KEMU_GPU_SPIN_NS) {
			/* spin: let a hook in, watch the doorbells, then
			 * sweep again */
			kemu_gpu_unit_watch(&eng->unit, engine_watchable);
			continue;
		}
		/* a queue blocked on memory is re-checked at this pace */
		enum idle_how how = engine_idle(eng, backoff, r == KEMU_SDMA_IDLE);
		polling = how == IDLE_POLLED;
		if (how == IDLE_PARKED) {
			idle_since = 0;
			backoff = KEMU_GPU_SLEEP_MIN_NS;
			continue;
		}
		backoff = kemu_gpu_backoff(backoff, now - idle_since);
	}
	pthread_mutex_unlock(&eng->unit.lock);
	/* give the role up on the way out: the parked engines poll again */
	pthread_mutex_lock(&sd->lock);
	if (sd->poller == eng) {
		sd->poller = NULL;
		pthread_cond_broadcast(&sd->park);
	}
	pthread_mutex_unlock(&sd->lock);
	return NULL;
}

/* Wakes eng wherever it waits (its own condvar, parked or polling on its
 * device's).  Caller holds no engine lock and not sd->lock. */
static void engine_kick(struct kemu_sdma_engine *eng)
{
	pthread_mutex_lock(&eng->unit.lock);
	pthread_cond_broadcast(&eng->wake);
	pthread_mutex_unlock(&eng->unit.lock);
	dev_wake_parked(eng->sd);
}

/* The device's poller state, created with its first engine.  Caller holds
 * the hooks lock. */
static struct kemu_sdma_dev *dev_get(const struct kemu_gpu *gpu)
{
	for (struct kemu_sdma_dev *sd = kemu_sdma_devs; sd; sd = sd->next) {
		if (sd->gpu == gpu) {
			sd->refs++;
			return sd;
		}
	}
	struct kemu_sdma_dev *sd = calloc(1, sizeof(*sd));
	if (!sd)
		return NULL;
	sd->gpu = gpu;
	sd->refs = 1;
	pthread_mutex_init(&sd->lock, NULL);
	kemu_gpu_cond_init(&sd->park);
	sd->next = kemu_sdma_devs;
	kemu_sdma_devs = sd;
	return sd;
}

/* Drops an engine's reference.  Caller holds the hooks lock; the engine's
 * thread was joined. */
static void dev_put(struct kemu_sdma_dev *sd)
{
	if (--sd->refs)
		return;
	for (struct kemu_sdma_dev **pp = &kemu_sdma_devs; *pp; pp = &(*pp)->next) {
		if (*pp == sd) {
			*pp = sd->next;
			break;
		}
	}
	pthread_cond_destroy(&sd->park);
	pthread_mutex_destroy(&sd->lock);
	free(sd);
}

/* The engine (dev, id), created with its thread if needed.  Caller holds
 * the hooks lock. */
static struct kemu_sdma_engine *engine_get(const struct kemu_hw_queue *hq, uint32_t id)
{
	const struct kemu_gpu *g = hq->gpu;
	struct kemu_gpu_unit *u = kemu_gpu_unit_find(&kemu_sdma_registry, g, id);
	if (u)
		return (struct kemu_sdma_engine *)u;
	struct kemu_sdma_engine *eng = calloc(1, sizeof(*eng));
	if (!eng)
		return NULL;
	eng->sd = dev_get(g);
	if (!eng->sd) {
		free(eng);
		return NULL;
	}
	eng->gpu_id = g->gpu_id;
	eng->engine_id = id;
	eng->counter_freq_khz = g->gpu_counter_freq;
	/* Aldebaran (gfx90a, SDMA 4.4.0) takes a 30-bit COPY_LINEAR count:
	 * later ROCr's CreateBlitSdma uses it for gfx9.0.10 only */
	eng->copy_count_mask = g->gfx_target_version == 90010 ?
				       KEMU_SDMA_COPY_COUNT_MASK_EXT : KEMU_SDMA_COPY_COUNT_MASK;
	kemu_gpu_cond_init(&eng->wake);
	/* listed before its thread starts: an engine without queues is
	 * harmless to eviction and to the device's poller */
	kemu_gpu_unit_add(&kemu_sdma_registry, &eng->unit, hq, id);
	if (pthread_create(&eng->thread, NULL, engine_thread, eng)) {
		kemu_gpu_unit_del(&kemu_sdma_registry, &eng->unit);
		kemu_gpu_unit_fini(&eng->unit);
		pthread_cond_destroy(&eng->wake);
		dev_put(eng->sd);
		free(eng);
		return NULL;
	}
	return eng;
}

/* Unlinks the engine, joins its thread and frees it (no queue left).
 * Caller holds the hooks lock, not eng->unit.lock. */
static void engine_destroy(struct kemu_gpu_unit *u)
{
	struct kemu_sdma_engine *eng = (struct kemu_sdma_engine *)u;
	pthread_mutex_lock(&eng->unit.lock);
	/* release: pairs with engine_stopping's acquire in engine_idle */
	atomic_store_explicit(&eng->stopping, true, memory_order_release);
	pthread_mutex_unlock(&eng->unit.lock);
	engine_kick(eng);
	pthread_join(eng->thread, NULL);
	pthread_cond_destroy(&eng->wake);
	kemu_gpu_unit_fini(&eng->unit);
	dev_put(eng->sd);
	free(eng);
}

/* hqd_sdma_load's one-shot read of the user's write pointer
 * (kgd_arcturus_hqd_sdma_load: read_user_wptr, else RB_WPTR = the saved
 * RB_RPTR).  False if it cannot be read. */
static bool wptr_load(const struct kemu_hw_queue *hq, uint64_t *wptr)
{
	return !hq->vm.ops->read(hq->vm.p, hq->vm.gpu_id, hq->info.wptr_va, wptr, sizeof(*wptr),
				 NULL);
}

/* Loads the MQD of hq into q (ring, pointers' addresses, active) and the
 * write pointer (the user's if it could be read, else the read pointer:
 * nothing to do until the doorbell).  Caller holds eng->unit.lock and no thread
 * services q. */
static void queue_load(struct kemu_sdma_queue *q, const struct kemu_hw_queue *hq,
		       bool have_wptr, uint64_t wptr)
{
	q->ring_base = hq->info.ring_base;
	q->ring_size = hq->info.ring_size;
	q->rptr_va = hq->info.rptr_va;
	q->wptr_va = hq->info.wptr_va;
	q->active = hq->info.active && q->ring_size >= 4;
	/* the doorbell as it is now was seen: the loaded wptr stands until
	 * the next doorbell.  Relaxed: ordered by the hook's p->lock and
	 * eng->unit.lock; the thread re-reads it with acquire */
	atomic_store_explicit(&q->db_seen,
			      atomic_load_explicit(q->hw.doorbell, memory_order_relaxed),
			      memory_order_relaxed);
	q->wptr = have_wptr ? wptr : q->rptr;
	q->poll_tries = 0;
}

/* create_queue: hq is an SDMA queue (the driver's choice of engine) with
 * its wiring set; hq->sdma_slot names its engine and RLC queue. */
static int sdma_queue_add(struct kemu_hw_queue *hq)
{
	int err;
	struct kemu_sdma_queue *q = kemu_gpu_hwq_new(sizeof(*q), hq, &err);
	if (!q)
		return err;
	const struct kemu_gpu *g = hq->gpu;
	uint32_t per = g->num_sdma_queues_per_engine ? g->num_sdma_queues_per_engine : 1;
	q->rlc = hq->sdma_slot % per;
	uint64_t wptr = 0;
	bool have_wptr = wptr_load(hq, &wptr);
	kemu_gpu_hooks_lock(&kemu_sdma_registry);
	struct kemu_sdma_engine *eng = engine_get(hq, hq->sdma_slot / per);
	if (!eng) {
		kemu_gpu_hooks_unlock(&kemu_sdma_registry);
		free(q);
		return -ENOMEM;
	}
	q->eng = eng;
	pthread_mutex_lock(&eng->unit.lock);
	queue_load(q, hq, have_wptr, wptr);
	kemu_gpu_hwq_link(&eng->unit, &q->hw);
	pthread_mutex_unlock(&eng->unit.lock);
	engine_kick(eng);
	kemu_gpu_hooks_unlock(&kemu_sdma_registry);
	kemu_gpu_dbg(eng->unit.log_level, "SDMA: gpu 0x%x engine %u rlc queue %u: queue %u mapped "
		     "(ring 0x%llx, %u bytes, doorbell %u)", q->hw.gpu_id, eng->engine_id, q->rlc,
		     q->hw.queue_id, (unsigned long long)q->ring_base, q->ring_size,
		     hq->info.doorbell_index);
	return 0;
}

/* The engine queue of hq, or NULL.  Caller holds the hooks lock. */
static struct kemu_sdma_queue *queue_find(const struct kemu_hw_queue *hq)
{
	struct kemu_gpu_unit *u;
	struct kemu_gpu_hwq *h = kemu_gpu_hwq_find(&kemu_sdma_registry, hq, &u);
	return h ? kemu_sdma_queue_of(h) : NULL;
}

/* A removed queue. */
static void sdma_queue_free(struct kemu_gpu_unit *u, struct kemu_gpu_hwq *h)
{
	struct kemu_sdma_queue *q = kemu_sdma_queue_of(h);
	kemu_gpu_dbg(u->log_level, "SDMA: gpu 0x%x engine %u: queue %u unmapped at rptr 0x%llx",
		     h->gpu_id, u->id, h->queue_id, (unsigned long long)q->rptr);
	free(q);
}

static void sdma_queue_update(struct kemu_hw_queue *hq)
{
	if (!hq)
		return;
	kemu_gpu_hooks_lock(&kemu_sdma_registry);
	struct kemu_sdma_queue *q = queue_find(hq);
	if (q) {
		uint64_t wptr = 0;
		bool have_wptr = wptr_load(hq, &wptr);
		struct kemu_sdma_engine *eng = q->eng;
		pthread_mutex_lock(&eng->unit.lock);
		kemu_gpu_hwq_preempt(&eng->unit, &q->hw);
		/* hqd_sdma_destroy + hqd_sdma_load: the read pointer is kept */
		queue_load(q, hq, have_wptr, wptr);
		kemu_gpu_hwq_resume(&q->hw);
		pthread_mutex_unlock(&eng->unit.lock);
		engine_kick(eng);
	}
	kemu_gpu_hooks_unlock(&kemu_sdma_registry);
}

static struct kemu_gpu_registry kemu_sdma_registry = {
	KEMU_GPU_REGISTRY_INIT("SDMA"),
	.fork_forget = sdma_fork_forget,
	.fork_child = sdma_fork_child,
	.queue_free = sdma_queue_free,
	.unit_destroy = engine_destroy,
};

const struct kemu_engine_ops kemu_sdma_engine = {
	.name = "SDMA",
	.registry = &kemu_sdma_registry,
	.add = sdma_queue_add,
	.update = sdma_queue_update,
};
