/*
 * What every engine needs below its packets (gpu.h says the contracts):
 * the registry of its units per device and their queue lists, the
 * protocol by which a hook stops a queue and waits for the unit's threads
 * to let go of it (amdkfd's unmap_queues with preemption), eviction of a
 * process's queues, fork handling, the doorbell watch and the clocks.  The
 * CP (emu/cp) and the SDMA engines (emu/sdma) keep only what differs: how
 * their threads pick and pace queues and what a packet does.
 *
 * Fork.  A fork child has none of its parent's GPU contexts and none of
 * its engine threads: it forgets the parent's units (each registry's hooks
 * and list locks are held across fork so the lists are consistent), and
 * its own queues get units of their own.  One atfork handler covers every
 * registry that has been used, in the order of first use.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <time.h>

#include "gpu.h"

uint64_t kemu_gpu_clock(uint32_t counter_freq_khz)
{
	/* the counter GET_CLOCK_COUNTERS reports: one function (kemu_gpu_ticks)
	 * so the CP's stamps, the SDMA's and the ioctl agree tick for tick */
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	uint64_t ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	return kemu_gpu_ticks(ns, counter_freq_khz);
}

uint64_t kemu_gpu_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int kemu_gpu_cond_init(pthread_cond_t *c)
{
	if (!c)
		return EINVAL;
	pthread_condattr_t ca;
	int err = pthread_condattr_init(&ca);
	if (err)
		return err;
	err = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	if (!err)
		err = pthread_cond_init(c, &ca);
	pthread_condattr_destroy(&ca);
	return err;
}

static inline void gpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

void kemu_gpu_watch_doorbells(_Atomic uint64_t *const *db, const uint64_t *seen, unsigned n)
{
	if (!db || !seen)
		return;
	for (unsigned i = 0; i < KEMU_GPU_DOORBELL_POLLS; i++) {
		for (unsigned j = 0; j < n; j++) {
			if (atomic_load_explicit(db[j], memory_order_relaxed) != seen[j])
				return;
		}
		gpu_relax();
	}
}

/* ---- the registries and fork ---- */

static struct {
	pthread_mutex_t lock;          /* the list; held across fork */
	struct kemu_gpu_registry *regs;
} gpu_forkable = { PTHREAD_MUTEX_INITIALIZER, NULL };
static pthread_once_t gpu_atfork_once = PTHREAD_ONCE_INIT;

static void gpu_atfork_prepare(void)
{
	pthread_mutex_lock(&gpu_forkable.lock);
	for (struct kemu_gpu_registry *r = gpu_forkable.regs; r; r = r->next_registry) {
		pthread_mutex_lock(&r->hooks);
		pthread_mutex_lock(&r->list);
	}
}

static void gpu_atfork_parent(void)
{
	for (struct kemu_gpu_registry *r = gpu_forkable.regs; r; r = r->next_registry) {
		pthread_mutex_unlock(&r->list);
		pthread_mutex_unlock(&r->hooks);
	}
	pthread_mutex_unlock(&gpu_forkable.lock);
}

static void gpu_atfork_child(void)
{
	kemu_gpu_grace_fork_child();
	for (struct kemu_gpu_registry *r = gpu_forkable.regs; r; r = r->next_registry) {
		/* the parent's unit threads do not exist here: free what they
		 * used without touching their locks (one may have held one) */
		struct kemu_gpu_unit *u = r->units;
		r->units = NULL;
		while (u) {
			struct kemu_gpu_unit *next = u->next;
			while (u->queues) {
				struct kemu_gpu_hwq *q = u->queues;
				u->queues = q->next;
				free(q); /* the engine's queue: q is its first member */
			}
			r->fork_forget(u);
			u = next;
		}
		if (r->fork_child)
			r->fork_child();
		pthread_mutex_unlock(&r->list);
		pthread_mutex_unlock(&r->hooks);
	}
	pthread_mutex_unlock(&gpu_forkable.lock);
}

static void gpu_atfork_register(void)
{
	pthread_atfork(gpu_atfork_prepare, gpu_atfork_parent, gpu_atfork_child);
}

void kemu_gpu_hooks_lock(struct kemu_gpu_registry *reg)
{
	pthread_once(&gpu_atfork_once, gpu_atfork_register);
	pthread_mutex_lock(&gpu_forkable.lock);
	if (!reg->forked) {
		/* appended: prepare takes the registries in the order of first
		 * use, the order in which their hooks nest (none today) */
		struct kemu_gpu_registry **pp = &gpu_forkable.regs;
		while (*pp)
			pp = &(*pp)->next_registry;
		*pp = reg;
		reg->forked = true;
	}
	pthread_mutex_unlock(&gpu_forkable.lock);
	pthread_mutex_lock(&reg->hooks);
}

void kemu_gpu_hooks_unlock(struct kemu_gpu_registry *reg)
{
	pthread_mutex_unlock(&reg->hooks);
}

/* ---- units ---- */

struct kemu_gpu_unit *kemu_gpu_unit_find(struct kemu_gpu_registry *reg,
					 const struct kemu_gpu *gpu, uint32_t id)
{
	for (struct kemu_gpu_unit *u = reg->units; u; u = u->next) {
		if (u->gpu == gpu && u->id == id)
			return u;
	}
	return NULL;
}

void kemu_gpu_unit_add(struct kemu_gpu_registry *reg, struct kemu_gpu_unit *u,
		       const struct kemu_hw_queue *hq, uint32_t id)
{
	u->gpu = hq->gpu;
	u->id = id;
	u->log_level = hq->log_level;
	pthread_mutex_init(&u->lock, NULL);
	pthread_cond_init(&u->released, NULL);
	pthread_mutex_lock(&reg->list);
	u->next = reg->units;
	reg->units = u;
	pthread_mutex_unlock(&reg->list);
}

void kemu_gpu_unit_del(struct kemu_gpu_registry *reg, struct kemu_gpu_unit *u)
{
	pthread_mutex_lock(&reg->list);
	for (struct kemu_gpu_unit **pp = &reg->units; *pp; pp = &(*pp)->next) {
		if (*pp == u) {
			*pp = u->next;
			break;
		}
	}
	pthread_mutex_unlock(&reg->list);
}

void kemu_gpu_unit_fini(struct kemu_gpu_unit *u)
{
	pthread_cond_destroy(&u->released);
	pthread_mutex_destroy(&u->lock);
}

/* ---- queues ---- */

void *kemu_gpu_hwq_new(size_t size, const struct kemu_hw_queue *hq, int *err)
{
	if (size < sizeof(struct kemu_gpu_hwq) || !hq || !hq->vm.ops || !hq->vm.gen ||
	    !hq->gpu || !hq->doorbell) {
		*err = -EINVAL;
		return NULL;
	}
	struct kemu_gpu_hwq *q = calloc(1, size);
	if (!q) {
		*err = -ENOMEM;
		return NULL;
	}
	q->hq = hq;
	q->vm = hq->vm;
	q->doorbell = hq->doorbell;
	q->queue_id = hq->info.queue_id;
	q->gpu_id = hq->vm.gpu_id;
	return q;
}

struct kemu_gpu_hwq *kemu_gpu_hwq_find(struct kemu_gpu_registry *reg,
				       const struct kemu_hw_queue *hq, struct kemu_gpu_unit **unit)
{
	for (struct kemu_gpu_unit *u = reg->units; u; u = u->next) {
		if (u->gpu != hq->gpu)
			continue;
		for (struct kemu_gpu_hwq *q = u->queues; q; q = q->next) {
			if (q->hq == hq) {
				*unit = u;
				return q;
			}
		}
	}
	return NULL;
}

void kemu_gpu_hwq_link(struct kemu_gpu_unit *u, struct kemu_gpu_hwq *q)
{
	q->next = u->queues;
	u->queues = q;
	u->n_queues++;
}

/* Waits until no unit thread owns q.  Caller holds u->lock. */
static void hwq_wait_released(struct kemu_gpu_unit *u, struct kemu_gpu_hwq *q)
{
	while (q->owned)
		pthread_cond_wait(&u->released, &u->lock);
}

void kemu_gpu_hwq_preempt(struct kemu_gpu_unit *u, struct kemu_gpu_hwq *q)
{
	/* release: pairs with the service loop's acquire load */
	atomic_store_explicit(&q->preempt, true, memory_order_release);
	hwq_wait_released(u, q);
}

/* Stops q for good and takes it off u's list once no thread services it
 * nor reads its doorbell.  Returns whether u has no queue left.  Caller
 * holds u->lock, which it drops while waiting. */
static bool hwq_unlink(struct kemu_gpu_registry *reg, struct kemu_gpu_unit *u,
		       struct kemu_gpu_hwq *q)
{
	q->removing = true;
	if (reg->queue_abandon)
		reg->queue_abandon(q);
	kemu_gpu_hwq_preempt(u, q);
	/* a unit thread may be reading q's doorbell without the lock */
	while (u->watching)
		pthread_cond_wait(&u->released, &u->lock);
	for (struct kemu_gpu_hwq **pp = &u->queues; *pp; pp = &(*pp)->next) {
		if (*pp == q) {
			*pp = q->next;
			break;
		}
	}
	return --u->n_queues == 0;
}

void kemu_gpu_queue_remove(struct kemu_gpu_registry *reg, const struct kemu_hw_queue *hq)
{
	if (!reg || !hq)
		return;
	kemu_gpu_hooks_lock(reg);
	struct kemu_gpu_unit *u;
	struct kemu_gpu_hwq *q = kemu_gpu_hwq_find(reg, hq, &u);
	if (q) {
		pthread_mutex_lock(&u->lock);
		bool last = hwq_unlink(reg, u, q);
		pthread_mutex_unlock(&u->lock);
		reg->queue_free(u, q);
		if (last) {
			kemu_gpu_unit_del(reg, u);
			reg->unit_destroy(u);
		}
	}
	kemu_gpu_hooks_unlock(reg);
}

void kemu_gpu_hwq_release(struct kemu_gpu_unit *u, struct kemu_gpu_hwq *q)
{
	q->owned = false;
	/* a hook that set preempt or removing (under u->lock) waits for this */
	if (q->removing || atomic_load_explicit(&q->preempt, memory_order_relaxed))
		pthread_cond_broadcast(&u->released);
}

void kemu_gpu_evict(struct kemu_gpu_registry *reg, struct kemu_process *p,
		    const struct kemu_gpu *gpu)
{
	if (!reg || !gpu)
		return;
	pthread_mutex_lock(&reg->list);
	for (struct kemu_gpu_unit *u = reg->units; u; u = u->next) {
		if (u->gpu != gpu)
			continue;
		pthread_mutex_lock(&u->lock);
		for (struct kemu_gpu_hwq *q = u->queues; q; q = q->next) {
			if (q->vm.p != p)
				continue;
			atomic_store_explicit(&q->evicted, true, memory_order_relaxed);
			atomic_store_explicit(&q->stopped, true, memory_order_relaxed);
			if (reg->queue_abandon)
				reg->queue_abandon(q);
		}
		pthread_mutex_unlock(&u->lock);
	}
	pthread_mutex_unlock(&reg->list);
}

bool kemu_gpu_queue_evicted(struct kemu_gpu_registry *reg, const struct kemu_hw_queue *hq)
{
	bool evicted = false;
	if (!reg || !hq)
		return false;
	kemu_gpu_hooks_lock(reg);
	struct kemu_gpu_unit *u;
	struct kemu_gpu_hwq *q = kemu_gpu_hwq_find(reg, hq, &u);
	if (q) {
		pthread_mutex_lock(&u->lock);
		/* set under u->lock by kemu_gpu_evict */
		evicted = atomic_load_explicit(&q->evicted, memory_order_relaxed);
		if (evicted) {
			/* the owner, if any, saves what the eviction stopped,
			 * then lets go (it broadcasts because preempt is set);
			 * the queue stays stopped for good */
			kemu_gpu_hwq_preempt(u, q);
			kemu_gpu_hwq_resume(q);
		}
		pthread_mutex_unlock(&u->lock);
	}
	kemu_gpu_hooks_unlock(reg);
	return evicted;
}

void kemu_gpu_unit_watch(struct kemu_gpu_unit *u,
			 bool (*watchable)(const struct kemu_gpu_hwq *q, uint64_t *seen))
{
	_Atomic uint64_t *db[KEMU_GPU_WATCH_MAX];
	uint64_t seen[KEMU_GPU_WATCH_MAX];
	unsigned n = 0;
	for (struct kemu_gpu_hwq *q = u->queues; q && n < KEMU_GPU_WATCH_MAX; q = q->next) {
		if (watchable(q, &seen[n]))
			db[n++] = q->doorbell;
	}
	if (!n)
		return;
	u->watching++;
	pthread_mutex_unlock(&u->lock);
	kemu_gpu_watch_doorbells(db, seen, n);
	pthread_mutex_lock(&u->lock);
	if (!--u->watching)
		pthread_cond_broadcast(&u->released);
}
