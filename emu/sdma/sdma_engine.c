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
 * Stopping.  UPDATE_QUEUE and DESTROY_QUEUE set q->preempt, which the
 * fetch checks between packets, and wait on eng->released while the
 * thread services q; so when the hook returns, the engine no longer
 * touches the queue (a packet in progress, even a 4 MiB copy, completes
 * first).  Process teardown destroys each queue the same way.
 *
 * Registry.  Engines are found by (device, engine id) in a list.  The hooks
 * hold kemu_sdma_registry.hooks throughout (they may wait for a thread);
 * the list itself is under kemu_sdma_registry.list, which the evict hook
 * takes (with eng->lock) from any GPU-side thread without waiting for
 * anything.  A fork child forgets the parent's engines (their threads do
 * not exist there), as the CP's registry does.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <time.h>
#include <sys/prctl.h>

#include "sdma_priv.h"

static struct {
	pthread_mutex_t hooks;
	pthread_mutex_t list;
	struct kemu_sdma_engine *engines;
	struct kemu_sdma_dev *devs;    /* under hooks */
} kemu_sdma_registry = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, NULL, NULL };

static pthread_once_t kemu_sdma_atfork_once = PTHREAD_ONCE_INIT;

static void sdma_atfork_prepare(void)
{
	pthread_mutex_lock(&kemu_sdma_registry.hooks);
	pthread_mutex_lock(&kemu_sdma_registry.list);
}

static void sdma_atfork_parent(void)
{
	pthread_mutex_unlock(&kemu_sdma_registry.list);
	pthread_mutex_unlock(&kemu_sdma_registry.hooks);
}

static void sdma_atfork_child(void)
{
	/* the parent's engine threads do not exist here: free what they used
	 * without touching their locks */
	struct kemu_sdma_engine *eng = kemu_sdma_registry.engines;
	kemu_sdma_registry.engines = NULL;
	while (eng) {
		struct kemu_sdma_engine *next = eng->next;
		while (eng->queues) {
			struct kemu_sdma_queue *q = eng->queues;
			eng->queues = q->next;
			free(q);
		}
		free(eng);
		eng = next;
	}
	struct kemu_sdma_dev *sd = kemu_sdma_registry.devs;
	kemu_sdma_registry.devs = NULL;
	while (sd) {
		struct kemu_sdma_dev *next = sd->next;
		free(sd);
		sd = next;
	}
	pthread_mutex_unlock(&kemu_sdma_registry.list);
	pthread_mutex_unlock(&kemu_sdma_registry.hooks);
}

static void sdma_atfork_register(void)
{
	pthread_atfork(sdma_atfork_prepare, sdma_atfork_parent, sdma_atfork_child);
}

/* Whether the thread may service q.  Caller holds eng->lock. */
static bool engine_pickable(const struct kemu_sdma_queue *q)
{
	return q->active && !q->removing &&
	       !atomic_load_explicit(&q->preempt, memory_order_relaxed) &&
	       !atomic_load_explicit(&q->stopped, memory_order_relaxed);
}

/* One round over the engine's queues, each serviced without eng->lock.
 * Returns the best progress seen, KEMU_SDMA_IDLE also when no queue was
 * pickable (*any = false).  Caller holds eng->lock. */
static enum kemu_sdma_progress engine_round(struct kemu_sdma_engine *eng, bool *any)
{
	enum kemu_sdma_progress best = KEMU_SDMA_IDLE;
	uint32_t n = eng->n_queues;
	*any = false;
	for (uint32_t k = 0; k < n && !eng->stopping; k++) {
		/* the (rr + k)-th queue of the list as it is now */
		struct kemu_sdma_queue *q = eng->queues;
		uint32_t idx = eng->n_queues ? (eng->rr + k) % eng->n_queues : 0;
		for (uint32_t i = 0; q && i < idx; i++)
			q = q->next;
		if (!q || !engine_pickable(q))
			continue;
		*any = true;
		eng->busy = q;
		uint64_t ring_base = q->ring_base;
		uint32_t ring_size = q->ring_size;
		pthread_mutex_unlock(&eng->lock);
		enum kemu_sdma_progress r = kemu_sdma_queue_service(q, ring_base, ring_size);
		pthread_mutex_lock(&eng->lock);
		eng->busy = NULL;
		/* a hook that set preempt or removing (under eng->lock) waits */
		if (q->removing || atomic_load_explicit(&q->preempt, memory_order_relaxed))
			pthread_cond_broadcast(&eng->released);
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
	for (struct kemu_sdma_engine *e = kemu_sdma_registry.engines; e && !rung; e = e->next) {
		if (e == self || e->sd != self->sd)
			continue;
		pthread_mutex_lock(&e->lock);
		for (struct kemu_sdma_queue *q = e->queues; q; q = q->next) {
			if (engine_pickable(q) &&
			    atomic_load_explicit(q->doorbell, memory_order_relaxed) !=
				    atomic_load_explicit(&q->db_seen, memory_order_relaxed)) {
				rung = true;
				break;
			}
		}
		pthread_mutex_unlock(&e->lock);
	}
	pthread_mutex_unlock(&kemu_sdma_registry.list);
	return rung;
}

/* The spin between two sweeps: watches the doorbell word of every
 * pickable queue of eng, without eng->lock, until one differs from the
 * value the engine last took or KEMU_GPU_DOORBELL_POLLS polls pass (the
 * CP's sched_watch_doorbells).  So it never waits longer than the blind
 * pauses it replaces, and a queue blocked in POLL_REGMEM is re-checked at
 * the same pace.  Relaxed loads: the sweep that follows reads the
 * doorbell again with acquire.  eng->watching is raised meanwhile: a queue
 * being removed waits for it (sdma_queue_remove), so the process
 * cannot unmap a doorbell slice being read.  Caller holds eng->lock; it is
 * dropped meanwhile. */
static void engine_watch_doorbells(struct kemu_sdma_engine *eng)
{
	_Atomic uint64_t *db[KEMU_SDMA_WATCH_MAX];
	uint64_t seen[KEMU_SDMA_WATCH_MAX];
	unsigned n = 0;
	for (struct kemu_sdma_queue *q = eng->queues; q && n < KEMU_SDMA_WATCH_MAX; q = q->next) {
		if (!engine_pickable(q))
			continue;
		db[n] = q->doorbell;
		/* relaxed: written by this thread only */
		seen[n++] = atomic_load_explicit(&q->db_seen, memory_order_relaxed);
	}
	eng->watching = true;
	pthread_mutex_unlock(&eng->lock);
	kemu_gpu_watch_doorbells(db, seen, n);
	pthread_mutex_lock(&eng->lock);
	eng->watching = false;
	pthread_cond_broadcast(&eng->released);
}

/* An engine past its spin phase.  If all its queues are idle (may_park)
 * it parks while another engine of the device polls for it; else it takes
 * that role and naps ns before its next sweep, after which it wakes the
 * parked engines if one of their doorbells changed.  An engine with a
 * blocked queue (a POLL_REGMEM) never parks: it polls for the device too
 * when nobody else does, else it naps on its own.  Returns with eng->lock
 * held, as called. */
enum idle_how { IDLE_NAPPED, IDLE_PARKED, IDLE_POLLED };
static enum idle_how engine_idle(struct kemu_sdma_engine *eng, uint64_t ns, bool may_park)
{
	struct kemu_sdma_dev *sd = eng->sd;
	pthread_mutex_unlock(&eng->lock);
	pthread_mutex_lock(&sd->lock);
	/* an engine that was just busy naps shorter than a poller deep in
	 * its backoff: it takes the role over, so a doorbell on a queue that
	 * was busy a moment ago is seen at its pace, not the idle device's */
	if (sd->poller && sd->poller != eng && ns >= sd->poller_ns) {
		if (may_park) {
			/* until the poller, a hook or the role's release wakes us */
			pthread_cond_wait(&sd->park, &sd->lock);
			pthread_mutex_unlock(&sd->lock);
			pthread_mutex_lock(&eng->lock);
			return IDLE_PARKED;
		}
		pthread_mutex_unlock(&sd->lock);
		pthread_mutex_lock(&eng->lock);
		struct timespec ts = deadline(ns);
		pthread_cond_timedwait(&eng->wake, &eng->lock, &ts);
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
	pthread_mutex_lock(&eng->lock);
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
	pthread_mutex_lock(&eng->lock);
	while (!eng->stopping) {
		bool any;
		enum kemu_sdma_progress r = engine_round(eng, &any);
		if (eng->stopping)
			break;
		if (r == KEMU_SDMA_PROGRESS) {
			idle_since = 0;
			backoff = KEMU_GPU_SLEEP_MIN_NS;
			if (polling) {
				/* busy: the parked engines poll for themselves */
				polling = false;
				pthread_mutex_unlock(&eng->lock);
				dev_wake_parked(sd);
				pthread_mutex_lock(&eng->lock);
			}
			continue;
		}
		if (!any) {
			if (polling) {
				/* the parked engines poll for themselves */
				polling = false;
				pthread_mutex_unlock(&eng->lock);
				dev_wake_parked(sd);
				pthread_mutex_lock(&eng->lock);
				continue;
			}
			/* nothing to service: park until a hook wakes us */
			pthread_cond_wait(&eng->wake, &eng->lock);
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
			engine_watch_doorbells(eng);
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
	pthread_mutex_unlock(&eng->lock);
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
	pthread_mutex_lock(&eng->lock);
	pthread_cond_broadcast(&eng->wake);
	pthread_mutex_unlock(&eng->lock);
	dev_wake_parked(eng->sd);
}

/* The device's poller state, created with its first engine.  Caller holds
 * the hooks lock. */
static struct kemu_sdma_dev *dev_get(const struct kemu_gpu *gpu)
{
	for (struct kemu_sdma_dev *sd = kemu_sdma_registry.devs; sd; sd = sd->next) {
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
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&sd->park, &ca);
	pthread_condattr_destroy(&ca);
	sd->next = kemu_sdma_registry.devs;
	kemu_sdma_registry.devs = sd;
	return sd;
}

/* Drops an engine's reference.  Caller holds the hooks lock; the engine's
 * thread was joined. */
static void dev_put(struct kemu_sdma_dev *sd)
{
	if (--sd->refs)
		return;
	for (struct kemu_sdma_dev **pp = &kemu_sdma_registry.devs; *pp; pp = &(*pp)->next) {
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
	for (struct kemu_sdma_engine *e = kemu_sdma_registry.engines; e; e = e->next) {
		if (e->gpu == g && e->engine_id == id)
			return e;
	}
	struct kemu_sdma_engine *eng = calloc(1, sizeof(*eng));
	if (!eng)
		return NULL;
	eng->sd = dev_get(g);
	if (!eng->sd) {
		free(eng);
		return NULL;
	}
	eng->gpu = g;
	eng->log_level = hq->log_level;
	eng->gpu_id = g->gpu_id;
	eng->engine_id = id;
	eng->counter_freq_khz = g->gpu_counter_freq;
	/* Aldebaran (gfx90a, SDMA 4.4.0) takes a 30-bit COPY_LINEAR count:
	 * later ROCr's CreateBlitSdma uses it for gfx9.0.10 only */
	eng->copy_count_mask = g->gfx_target_version == 90010 ?
				       KEMU_SDMA_COPY_COUNT_MASK_EXT : KEMU_SDMA_COPY_COUNT_MASK;
	pthread_mutex_init(&eng->lock, NULL);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&eng->wake, &ca);
	pthread_condattr_destroy(&ca);
	pthread_cond_init(&eng->released, NULL);
	if (pthread_create(&eng->thread, NULL, engine_thread, eng)) {
		pthread_cond_destroy(&eng->released);
		pthread_cond_destroy(&eng->wake);
		pthread_mutex_destroy(&eng->lock);
		dev_put(eng->sd);
		free(eng);
		return NULL;
	}
	pthread_mutex_lock(&kemu_sdma_registry.list);
	eng->next = kemu_sdma_registry.engines;
	kemu_sdma_registry.engines = eng;
	pthread_mutex_unlock(&kemu_sdma_registry.list);
	return eng;
}

/* Unlinks eng, joins its thread and frees it (no queue left).  Caller
 * holds the hooks lock, not eng->lock. */
static void engine_destroy(struct kemu_sdma_engine *eng)
{
	pthread_mutex_lock(&kemu_sdma_registry.list);
	for (struct kemu_sdma_engine **pp = &kemu_sdma_registry.engines; *pp; pp = &(*pp)->next) {
		if (*pp == eng) {
			*pp = eng->next;
			break;
		}
	}
	pthread_mutex_unlock(&kemu_sdma_registry.list);
	pthread_mutex_lock(&eng->lock);
	eng->stopping = true;
	pthread_mutex_unlock(&eng->lock);
	engine_kick(eng);
	pthread_join(eng->thread, NULL);
	pthread_cond_destroy(&eng->released);
	pthread_cond_destroy(&eng->wake);
	pthread_mutex_destroy(&eng->lock);
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
 * nothing to do until the doorbell).  Caller holds eng->lock and no thread
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
	 * eng->lock; the thread re-reads it with acquire */
	atomic_store_explicit(&q->db_seen,
			      atomic_load_explicit(q->doorbell, memory_order_relaxed),
			      memory_order_relaxed);
	q->wptr = have_wptr ? wptr : q->rptr;
	q->poll_tries = 0;
}

/* create_queue: hq is an SDMA queue (the driver's choice of engine) with
 * its wiring set; hq->sdma_slot names its engine and RLC queue. */
static int sdma_queue_add(struct kemu_hw_queue *hq)
{
	if (!hq || !hq->vm.ops || !hq->vm.gen || !hq->gpu || !hq->doorbell)
		return -EINVAL;
	const struct kemu_gpu *g = hq->gpu;
	uint32_t per = g->num_sdma_queues_per_engine ? g->num_sdma_queues_per_engine : 1;
	struct kemu_sdma_queue *q = calloc(1, sizeof(*q));
	if (!q)
		return -ENOMEM;
	q->p = hq->vm.p;
	q->hq = hq;
	q->vm = hq->vm;
	q->queue_id = hq->info.queue_id;
	q->gpu_id = hq->vm.gpu_id;
	q->rlc = hq->sdma_slot % per;
	/* the driver keeps the doorbell mapped until after remove */
	q->doorbell = hq->doorbell;
	uint64_t wptr = 0;
	bool have_wptr = wptr_load(hq, &wptr);
	pthread_once(&kemu_sdma_atfork_once, sdma_atfork_register);
	pthread_mutex_lock(&kemu_sdma_registry.hooks);
	struct kemu_sdma_engine *eng = engine_get(hq, hq->sdma_slot / per);
	if (!eng) {
		pthread_mutex_unlock(&kemu_sdma_registry.hooks);
		free(q);
		return -ENOMEM;
	}
	q->eng = eng;
	pthread_mutex_lock(&eng->lock);
	queue_load(q, hq, have_wptr, wptr);
	q->next = eng->queues;
	eng->queues = q;
	eng->n_queues++;
	pthread_mutex_unlock(&eng->lock);
	engine_kick(eng);
	pthread_mutex_unlock(&kemu_sdma_registry.hooks);
	kemu_gpu_dbg(eng->log_level, "SDMA: gpu 0x%x engine %u rlc queue %u: queue %u mapped "
		     "(ring 0x%llx, %u bytes, doorbell %u)", q->gpu_id, eng->engine_id, q->rlc,
		     q->queue_id, (unsigned long long)q->ring_base, q->ring_size,
		     hq->info.doorbell_index);
	return 0;
}

/* The engine queue of hq.  Caller holds the hooks lock. */
static struct kemu_sdma_queue *queue_find(const struct kemu_hw_queue *hq)
{
	for (struct kemu_sdma_engine *e = kemu_sdma_registry.engines; e; e = e->next) {
		if (e->gpu != hq->gpu)
			continue;
		for (struct kemu_sdma_queue *q = e->queues; q; q = q->next) {
			if (q->hq == hq)
				return q;
		}
	}
	return NULL;
}

/* Waits until the thread does not service q.  Caller holds eng->lock. */
static void queue_wait_released(struct kemu_sdma_engine *eng, struct kemu_sdma_queue *q)
{
	while (eng->busy == q)
		pthread_cond_wait(&eng->released, &eng->lock);
}

static void sdma_queue_update(struct kemu_hw_queue *hq)
{
	if (!hq)
		return;
	pthread_mutex_lock(&kemu_sdma_registry.hooks);
	struct kemu_sdma_queue *q = queue_find(hq);
	if (q) {
		uint64_t wptr = 0;
		bool have_wptr = wptr_load(hq, &wptr);
		struct kemu_sdma_engine *eng = q->eng;
		pthread_mutex_lock(&eng->lock);
		/* release: pairs with the fetch's acquire load */
		atomic_store_explicit(&q->preempt, true, memory_order_release);
		queue_wait_released(eng, q);
		/* hqd_sdma_destroy + hqd_sdma_load: the read pointer is kept */
		queue_load(q, hq, have_wptr, wptr);
		atomic_store_explicit(&q->preempt, false, memory_order_release);
		pthread_mutex_unlock(&eng->lock);
		engine_kick(eng);
	}
	pthread_mutex_unlock(&kemu_sdma_registry.hooks);
}

static void sdma_queue_remove(struct kemu_hw_queue *hq)
{
	if (!hq)
		return;
	pthread_mutex_lock(&kemu_sdma_registry.hooks);
	struct kemu_sdma_queue *q = queue_find(hq);
	if (!q) {
		pthread_mutex_unlock(&kemu_sdma_registry.hooks);
		return;
	}
	struct kemu_sdma_engine *eng = q->eng;
	pthread_mutex_lock(&eng->lock);
	q->removing = true;
	/* release: pairs with the fetch's acquire load */
	atomic_store_explicit(&q->preempt, true, memory_order_release);
	queue_wait_released(eng, q);
	/* the thread may be reading q's doorbell without the lock */
	while (eng->watching)
		pthread_cond_wait(&eng->released, &eng->lock);
	for (struct kemu_sdma_queue **pp = &eng->queues; *pp; pp = &(*pp)->next) {
		if (*pp == q) {
			*pp = q->next;
			break;
		}
	}
	bool last = --eng->n_queues == 0;
	pthread_mutex_unlock(&eng->lock);
	kemu_gpu_dbg(eng->log_level, "SDMA: gpu 0x%x engine %u: queue %u unmapped at rptr 0x%llx",
		 q->gpu_id, eng->engine_id, q->queue_id, (unsigned long long)q->rptr);
	free(q);
	if (last)
		engine_destroy(eng);
	pthread_mutex_unlock(&kemu_sdma_registry.hooks);
}

/* Stops every queue of p on eng.  Takes eng->lock. */
static void engine_evict(struct kemu_sdma_engine *eng, struct kemu_process *p)
{
	pthread_mutex_lock(&eng->lock);
	for (struct kemu_sdma_queue *q = eng->queues; q; q = q->next) {
		if (q->p == p)
			atomic_store_explicit(&q->stopped, true, memory_order_relaxed);
	}
	pthread_mutex_unlock(&eng->lock);
}

static void sdma_evict(struct kemu_process *p, const struct kemu_gpu *gpu)
{
	pthread_mutex_lock(&kemu_sdma_registry.list);
	for (struct kemu_sdma_engine *e = kemu_sdma_registry.engines; e; e = e->next) {
		if (e->gpu == gpu)
			engine_evict(e, p);
	}
	pthread_mutex_unlock(&kemu_sdma_registry.list);
}

const struct kemu_engine_ops kemu_sdma_engine = {
	.name = "SDMA",
	.add = sdma_queue_add,
	.update = sdma_queue_update,
	.remove = sdma_queue_remove,
	.evict = sdma_evict,
};
