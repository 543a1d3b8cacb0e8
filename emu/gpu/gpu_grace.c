/*
 * When may the host memory behind a freed BO go?  An engine translates a
 * GPU address to a host pointer (gpu_tlb.c, kemu_gpu_map) and then uses
 * it; the driver's UNMAP bumps the VM generation, so every translation
 * made afterwards faults, but an access whose translation was made just
 * before can still be under way when FREE_MEMORY_OF_GPU returns.  On the
 * hardware that access completes against the old pages (amdgpu frees a
 * BO's pages only after the VM update and TLB flush fences signalled); in
 * kfdemu munmapping the emulator's mapping of the BO under it crashed the
 * host (a SEGV in the interpreter's global load, seen in loaded runs of
 * runtime_suballoc_off_faults).
 *
 * So the driver hands the mapping to kemu_gpu_retire instead of unmapping
 * it, and it is unmapped once every engine section that was open at that
 * moment has closed (quiescent-state reclamation).  Each engine thread
 * marks the spans in which it may hold a translation (a CP slot thread
 * serving a queue, a CP pool worker running workgroups, an SDMA engine's
 * round) with kemu_gpu_section_begin/_end: a per-thread sequence number,
 * odd inside.  Retiring takes a snapshot of the odd ones; the mapping goes
 * when each of those has moved on.  Retired mappings are reclaimed at the
 * next retire, so a section that lasts (a kernel spinning for ever) only
 * delays reclaiming host memory the program already freed.
 *
 * Ordering (store-buffering between an engine and the retiring thread):
 * section_begin stores its odd number and then issues a seq_cst fence
 * before the engine loads the VM generation; retire issues a seq_cst fence
 * after the UNMAP's generation bump (which happens before the FREE) and
 * before it reads the numbers.  So either the retirer sees the engine
 * inside, or the engine's next translation sees the new generation and
 * faults instead of using the mapping.  section_end's release store pairs
 * with the reclaimer's acquire load: every access of the section happens
 * before the munmap.
 */
#define _GNU_SOURCE
#include <stdlib.h>

#include "gpu.h"

/* Engine threads at once (8 GPUs with their CP slot threads, pool workers
 * and SDMA engines stay far below it).  A thread that finds no slot free
 * runs its sections unmarked, and retiring then keeps the mapping for good
 * (counted in overflow, never unmapped under a reader). */
#define GRACE_SLOTS 512

struct grace_slot {
	_Atomic bool used;
	_Atomic uint64_t seq; /* odd while the thread is inside a section */
	char pad[64 - sizeof(_Atomic bool) - sizeof(_Atomic uint64_t)];
};

static struct grace_slot grace_slots[GRACE_SLOTS];
/* threads running unmarked (no slot was free) */
static _Atomic unsigned grace_unmarked;
/* slots ever claimed are below this: a retire reads no further */
static _Atomic unsigned grace_high;

struct grace_wait {
	unsigned slot;
	uint64_t seq;
};

struct retired {
	struct retired *next;
	void *addr;
	size_t len;
	void (*unmap)(void *addr, size_t len);
	unsigned n_wait;
	bool forever; /* an unmarked engine thread was running */
	struct grace_wait wait[];
};

static struct {
	pthread_mutex_t lock;
	struct retired *list;
} grace = { PTHREAD_MUTEX_INITIALIZER, NULL };

static _Thread_local struct grace_slot *my_slot;
static _Thread_local bool my_unmarked;
static pthread_key_t grace_key;
static pthread_once_t grace_key_once = PTHREAD_ONCE_INIT;

static void slot_release(void *arg)
{
	struct grace_slot *s = arg;
	/* release: pairs with a claimer's acquire exchange; the slot's last
	 * number is even (no section open at thread exit) */
	atomic_store_explicit(&s->used, false, memory_order_release);
}

static void grace_key_make(void)
{
	if (pthread_key_create(&grace_key, slot_release))
		grace_key = (pthread_key_t)-1;
}

static struct grace_slot *slot_claim(void)
{
	pthread_once(&grace_key_once, grace_key_make);
	for (unsigned i = 0; i < GRACE_SLOTS; i++) {
		struct grace_slot *s = &grace_slots[i];
		/* acquire: pairs with slot_release's store by the slot's last
		 * owner, whose sequence number this thread continues */
		if (!atomic_load_explicit(&s->used, memory_order_relaxed) &&
		    !atomic_exchange_explicit(&s->used, true, memory_order_acquire)) {
			if (grace_key != (pthread_key_t)-1)
				pthread_setspecific(grace_key, s);
			/* relaxed is enough: this thread's own later seq_cst fence
			 * (section_begin) orders the raise before its first odd
			 * number, and a retirer reads the mark after its fence */
			unsigned h = atomic_load_explicit(&grace_high, memory_order_relaxed);
			while (h < i + 1 &&
			       !atomic_compare_exchange_weak_explicit(&grace_high, &h, i + 1,
								      memory_order_relaxed,
								      memory_order_relaxed))
				;
			return s;
		}
	}
	return NULL;
}

void kemu_gpu_section_begin(void)
{
	struct grace_slot *s = my_slot;
	if (!s && !my_unmarked) {
		s = my_slot = slot_claim();
		if (!s) {
			my_unmarked = true;
			atomic_fetch_add_explicit(&grace_unmarked, 1, memory_order_relaxed);
		}
	}
	if (s) {
		/* only this thread writes its number */
		uint64_t v = atomic_load_explicit(&s->seq, memory_order_relaxed);
		atomic_store_explicit(&s->seq, v | 1, memory_order_relaxed);
	}
	/* seq_cst: pairs with kemu_gpu_retire's fence (the store-buffering
	 * pair in the file comment): the odd number is visible to a retirer,
	 * or this thread's generation loads see the UNMAP's bump */
	atomic_thread_fence(memory_order_seq_cst);
}

void kemu_gpu_section_end(void)
{
	struct grace_slot *s = my_slot;
	if (!s)
		return;
	uint64_t v = atomic_load_explicit(&s->seq, memory_order_relaxed);
	/* release: pairs with reclaim's acquire load: the section's accesses
	 * happen before the mapping is unmapped */
	atomic_store_explicit(&s->seq, (v | 1) + 1, memory_order_release);
}

static bool retired_done(const struct retired *r)
{
	if (r->forever)
		return false;
	for (unsigned i = 0; i < r->n_wait; i++) {
		/* acquire: pairs with section_end's release store */
		uint64_t v = atomic_load_explicit(&grace_slots[r->wait[i].slot].seq,
						  memory_order_acquire);
		if (v == r->wait[i].seq)
			return false;
	}
	return true;
}

/* Unmaps what no open section can reach any more.  Caller holds
 * grace.lock. */
static void reclaim_locked(void)
{
	for (struct retired **pp = &grace.list; *pp;) {
		struct retired *r = *pp;
		if (!retired_done(r)) {
			pp = &r->next;
			continue;
		}
		*pp = r->next;
		r->unmap(r->addr, r->len);
		free(r);
	}
}

void kemu_gpu_retire(void *addr, size_t len, void (*unmap)(void *addr, size_t len))
{
	if (!addr || !unmap)
		return;
	/* seq_cst: pairs with kemu_gpu_section_begin's fence; the UNMAP's
	 * generation bump happened before this FREE */
	atomic_thread_fence(memory_order_seq_cst);
	unsigned n = 0, high = atomic_load_explicit(&grace_high, memory_order_relaxed);
	struct grace_wait wait[GRACE_SLOTS];
	for (unsigned i = 0; i < high && i < GRACE_SLOTS; i++) {
		/* acquire: a section that ended is ordered before the unmap */
		uint64_t v = atomic_load_explicit(&grace_slots[i].seq, memory_order_acquire);
		if (v & 1)
			wait[n++] = (struct grace_wait){ i, v };
	}
	bool forever = atomic_load_explicit(&grace_unmarked, memory_order_relaxed) != 0;
	pthread_mutex_lock(&grace.lock);
	if (!n && !forever) {
		unmap(addr, len);
	} else {
		struct retired *r = malloc(sizeof(*r) + n * sizeof(r->wait[0]));
		if (r) {
			*r = (struct retired){ .addr = addr, .len = len, .unmap = unmap,
					       .n_wait = n, .forever = forever };
			for (unsigned i = 0; i < n; i++)
				r->wait[i] = wait[i];
			r->next = grace.list;
			grace.list = r;
		}
		/* out of memory: the mapping stays, which is safe */
	}
	reclaim_locked();
	pthread_mutex_unlock(&grace.lock);
}

unsigned kemu_gpu_retired_count(void)
{
	unsigned n = 0;
	pthread_mutex_lock(&grace.lock);
	reclaim_locked();
	for (struct retired *r = grace.list; r; r = r->next)
		n++;
	pthread_mutex_unlock(&grace.lock);
	return n;
}

void kemu_gpu_grace_fork_child(void)
{
	/* the parent's engine threads do not exist here: nothing can reach a
	 * retired mapping, and their slots are free (single-threaded child;
	 * the lock may have been held by a parent thread: start afresh) */
	pthread_mutex_init(&grace.lock, NULL);
	for (unsigned i = 0; i < GRACE_SLOTS; i++) {
		atomic_store_explicit(&grace_slots[i].used, false, memory_order_relaxed);
		atomic_store_explicit(&grace_slots[i].seq, 0, memory_order_relaxed);
	}
	atomic_store_explicit(&grace_unmarked, 0, memory_order_relaxed);
	atomic_store_explicit(&grace_high, 0, memory_order_relaxed);
	struct retired *r = grace.list;
	grace.list = NULL;
	while (r) {
		struct retired *next = r->next;
		r->unmap(r->addr, r->len);
		free(r);
		r = next;
	}
	my_slot = NULL;
	my_unmarked = false;
}
