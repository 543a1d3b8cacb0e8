/*
 * Signal slabs: where amd_signal_t structs live, and the table that turns a
 * handle into its side entry.
 *
 * A slab is HL_SIGNAL_SLAB_BYTES of host memory aligned to its size,
 * registered with KFD as USERPTR (coherent: fine-grained system memory) and
 * mapped to every GPU, so the CP and shaders can read and atomically update
 * the value and read the mailbox fields.  The first slab of a runtime with
 * GPUs is smaller: HL_SIGNAL_FIRST_SLAB_BYTES from the memory module's
 * shared pages (hl_small_alloc: the same fine-grained host memory mapped to
 * every GPU, in a page the queue descriptors share), so a program with few
 * signals registers no slab of its own (ALLOC, MAP, UNMAP, FREE: four
 * ioctls; ROCr's signal pool also starts with one page and grows).  The
 * slab keeps its memory until the last hsa_shut_down, when the memory
 * module frees the page.  Side entries are an ordinary calloc'd array next
 * to the slab descriptor, never GPU-visible.
 *
 * Lookup: slab_table is an open-addressed hash keyed by the 64 KiB region
 * a slab starts in (base >> SLAB_SHIFT), insert-only for the runtime's
 * lifetime (slabs are never freed before the last hsa_shut_down), so
 * readers probe it without a lock: a slot is either NULL (end of the
 * probe) or a fully built slab, published with a release store.  A probe
 * takes the slab whose signals contain the handle: a 64 KiB slab is alone
 * in its region, the first slab and IPC slabs are smaller and may share
 * theirs with another small one (each lies in a BO of its own or in one
 * shared page, so no two overlap).  Teardown empties it; a call racing
 * with the last hsa_shut_down is the caller's bug, as everywhere in the
 * runtime.
 *
 * IPC signals (ipc.c) each have a slab of their own: one signal at the
 * start of a 4 KiB BO that another process shares (created here, or
 * attached from another process), 64 KiB-aligned so the same lookup finds
 * it.  Their slabs go when the signal is destroyed: the table slot becomes
 * SLAB_GONE (probes go on past it; a later insert reuses it).
 *
 * Quarantine: a destroyed slot is not handed out again at once.  It joins
 * the tail of a FIFO and goes back to the free list only when
 * HL_SIGNAL_QUARANTINE later destroys have pushed it out of the head; until
 * then it stays FREE (kind INVALID, value 0), so the stale handle resolves to
 * a dead signal: status calls answer HSA_STATUS_ERROR_INVALID_SIGNAL and
 * value calls do nothing, where an immediate reuse would have let them act
 * on an unrelated live signal (and let a packet still naming it as its
 * completion signal decrement that signal).  When the free list is empty a
 * new slab is made, so the quarantine costs at most HL_SIGNAL_QUARANTINE
 * slots beyond the live ones (signal.h has the sum); only when every slab
 * of HL_SIGNAL_SLABS_MAX is made does the quarantine give up its oldest
 * slot rather than fail the create.
 *
 * State: the slabs, the free list, the quarantine and the IPC slabs are
 * the runtime's (rt->signals, struct hl_signals in signal_priv.h), made by
 * the module's attach step and freed by its teardown or, in a fork child,
 * its forget step.  slab_table alone is process-wide, and stays so: value
 * calls (hsa_signal_load_*, store, the waits) and destroy resolve a bare
 * handle with a lock-free probe and no runtime in hand, and a handle that
 * outlived its runtime (used after the last hsa_shut_down, or inherited by
 * a fork child) must resolve to nothing rather than lead into freed
 * memory: a table in .bss that teardown and the fork step empty gives
 * that with no runtime load on the hot path, where a table inside the
 * runtime would be freed under such a probe.  Handles need not stay valid
 * or unique across init/shut_down cycles (the HSA rules end every signal
 * at the last hsa_shut_down); the table holds slabs of one runtime at a
 * time.
 *
 * Locking: sg->slab_lock covers slab creation, the free list, the
 * quarantine, the IPC slab list, and table inserts and removals.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "memory/memory.h"
#include "signal/signal_priv.h"
#include "util/log.h"

#define SLAB_TABLE_SIZE 8192u /* twice HL_SIGNAL_SLABS_MAX: probes stay short */
#define NO_SLOT UINT32_MAX
/* A table slot whose IPC slab went: probes go on past it, inserts reuse it. */
#define SLAB_GONE ((struct signal_slab *)(uintptr_t)1)
/* Live IPC signals at most (each keeps a table slot while it lives). */
#define IPC_SLABS_MAX 2048u

struct signal_slab {
	uintptr_t base;
	struct hl_signals *owner;   /* the runtime's module state */
	struct kfd_mem *mem;        /* NULL: shared or plain mmap (see below) */
	bool shared;                /* in a shared page (hl_small_alloc); else
				     * mem NULL is a process without GPUs */
	struct signal_slab *ipc_next; /* IPC slabs, under slab_lock */
	uint32_t n_side;
	struct hl_signal_side side[]; /* n_side: HL_SIGNAL_SLAB_SIGNALS, 16 (the
				       * first, shared), or 1 (IPC) */
};

/* Process-wide (see the opening): the slabs of the current runtime. */
static struct signal_slab *_Atomic slab_table[SLAB_TABLE_SIZE];

static uint32_t slab_hash(uintptr_t base)
{
	uint64_t key = (uint64_t)base >> HL_SIGNAL_SLAB_SHIFT;
	return (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 51) & (SLAB_TABLE_SIZE - 1);
}

/* Caller holds slab_lock; index names a slot of a made slab. */
static struct hl_signal_side *slot_side(struct hl_signals *sg, uint32_t index)
{
	return &sg->slabs[index / HL_SIGNAL_SLAB_SIGNALS]->side[index % HL_SIGNAL_SLAB_SIGNALS];
}

/* Caller holds slab_lock: the oldest quarantined slot goes to the free list. */
static void quarantine_release_oldest(struct hl_signals *sg)
{
	struct hl_signal_side *side = slot_side(sg, sg->quarantine_head);
	sg->quarantine_head = side->next_free;
	if (sg->quarantine_head == NO_SLOT)
		sg->quarantine_tail = NO_SLOT;
	sg->quarantine_len--;
	side->next_free = sg->free_head;
	sg->free_head = side->index;
}

struct hl_signals *hl_signal_owner(const struct hl_signal_side *side)
{
	/* A slab's side entries are one array in it: an IPC slab's only one,
	 * a signal slab's numbered by index. */
	const struct hl_signal_side *first =
		side->ipc ? side : side - side->index % HL_SIGNAL_SLAB_SIGNALS;
	const struct signal_slab *slab =
		(const void *)((const char *)first - offsetof(struct signal_slab, side));
	return slab->owner;
}

struct hl_signal_side *hl_signal_side_lookup(uint64_t handle)
{
	if (!handle || (handle & (sizeof(amd_signal_t) - 1)))
		return NULL;
	for (uint32_t i = slab_hash((uintptr_t)handle), n = 0; n < SLAB_TABLE_SIZE;
	     i = (i + 1) & (SLAB_TABLE_SIZE - 1), n++) {
		/* Acquire: pairs with the release in slab_publish, so the
		 * slab's fields and side entries are seen initialised. */
		struct signal_slab *slab = hl_load_acquire(&slab_table[i]);
		if (!slab)
			return NULL;
		if (slab == SLAB_GONE)
			continue;
		/* Unsigned: a handle below the base wraps past n_side. */
		uintptr_t idx = ((uintptr_t)handle - slab->base) / sizeof(amd_signal_t);
		if (idx < slab->n_side)
			return &slab->side[idx];
	}
	return NULL;
}

/* Caller holds slab_lock (inserts and removals are serialised). */
static void slab_publish(struct signal_slab *slab)
{
	uint32_t i = slab_hash(slab->base);
	for (struct signal_slab *cur; (cur = hl_load_relaxed(&slab_table[i])) && cur != SLAB_GONE;)
		i = (i + 1) & (SLAB_TABLE_SIZE - 1);
	/* Release: pairs with the acquire in hl_signal_side_lookup. */
	hl_store_release(&slab_table[i], slab);
}

/* Caller holds slab_lock.  A lookup racing with this is a use of a
 * destroyed handle: it finds the slab or nothing. */
static void slab_unpublish(struct signal_slab *slab)
{
	for (uint32_t i = slab_hash(slab->base), n = 0; n < SLAB_TABLE_SIZE;
	     i = (i + 1) & (SLAB_TABLE_SIZE - 1), n++) {
		struct signal_slab *cur = hl_load_relaxed(&slab_table[i]);
		if (!cur)
			return;
		if (cur == slab) {
			hl_store_release(&slab_table[i], SLAB_GONE);
			return;
		}
	}
}

/* 64 KiB of anonymous memory aligned to 64 KiB (no GPU to register with). */
static void *aligned_anon(void)
{
	size_t len = 2 * (size_t)HL_SIGNAL_SLAB_BYTES;
	uint8_t *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	uintptr_t a = ((uintptr_t)p + HL_SIGNAL_SLAB_BYTES - 1) &
		      ~(uintptr_t)(HL_SIGNAL_SLAB_BYTES - 1);
	if (a > (uintptr_t)p)
		munmap(p, a - (uintptr_t)p);
	uintptr_t end = (uintptr_t)p + len, tail = a + HL_SIGNAL_SLAB_BYTES;
	if (end > tail)
		munmap((void *)tail, end - tail);
	return (void *)a;
}

/* Caller holds slab_lock. */
static int slab_create(struct hl_signals *sg)
{
	struct hl_runtime *rt = sg->rt;
	if (sg->n_slabs == HL_SIGNAL_SLABS_MAX) {
		hl_error(SIGNAL_LOG, "signal create: ENOSPC: all %u slabs (%u signals) in use",
			 HL_SIGNAL_SLABS_MAX, HL_SIGNAL_SLABS_MAX * (uint32_t)HL_SIGNAL_SLAB_SIGNALS);
		return -ENOSPC;
	}
	/* The first slab of a runtime with GPUs is a shared-page object. */
	bool shared = rt->n_gpus && sg->n_slabs == 0;
	uint32_t n_side = shared ? HL_SIGNAL_FIRST_SLAB_BYTES / sizeof(amd_signal_t)
				 : HL_SIGNAL_SLAB_SIGNALS;
	struct signal_slab *slab = calloc(1, sizeof(*slab) + n_side * sizeof(struct hl_signal_side));
	if (!slab)
		return -ENOMEM;
	slab->n_side = n_side;
	slab->owner = sg;
	slab->shared = shared;
	int err;
	if (shared) {
		void *p;
		err = hl_small_alloc(rt, HL_SIGNAL_FIRST_SLAB_BYTES, &p);
		if (err) {
			hl_error(SIGNAL_LOG, "first signal slab: %s", hl_errno_name(err));
			goto err_free_slab;
		}
		slab->base = (uintptr_t)p;
	} else if (rt->n_gpus) {
		struct kfd_mem_alloc_args args = {
			.kind = KFD_MEM_USERPTR,
			.gpu_id = rt->gpu_ids[0],
			.size = HL_SIGNAL_SLAB_BYTES,
			.align = HL_SIGNAL_SLAB_BYTES,
			.extra_flags = KFD_ALLOC_COHERENT,
			.host_access = true,
		};
		err = kfd_mem_alloc(rt->proc, &args, &slab->mem);
		if (err)
			goto err_free_slab;
		err = kfd_mem_map(rt->proc, slab->mem, rt->gpu_ids, rt->n_gpus);
		if (err)
			goto err_free_mem;
		slab->base = (uintptr_t)slab->mem->addr;
		if (slab->base & (HL_SIGNAL_SLAB_BYTES - 1)) {
			hl_error(SIGNAL_LOG, "signal slab at %p is not %u-byte aligned",
				 slab->mem->addr, HL_SIGNAL_SLAB_BYTES);
			err = -EINVAL;
			goto err_free_mem;
		}
	} else {
		void *p = aligned_anon();
		if (!p) {
			err = -ENOMEM;
			goto err_free_slab;
		}
		slab->base = (uintptr_t)p;
	}

	uint32_t index = sg->n_slabs;
	amd_signal_t *amd = (amd_signal_t *)slab->base;
	/* Indices stay slab * HL_SIGNAL_SLAB_SIGNALS + slot for every slab
	 * (slot_side, hl_signal_owner); a small slab leaves the rest of its
	 * range unused. */
	for (uint32_t i = 0; i < n_side; i++) {
		slab->side[i].amd = &amd[i];
		slab->side[i].index = index * HL_SIGNAL_SLAB_SIGNALS + i;
	}
	/* Push in reverse so slot 0 is handed out first. */
	for (uint32_t i = n_side; i-- > 0;) {
		slab->side[i].next_free = sg->free_head;
		sg->free_head = slab->side[i].index;
	}
	sg->slabs[sg->n_slabs++] = slab;
	slab_publish(slab);
	hl_debug(SIGNAL_LOG, "slab %u at %#lx: %u signals%s", index, (unsigned long)slab->base,
		 n_side, shared ? " (shared page)" : "");
	return 0;

err_free_mem:
	kfd_mem_free(rt->proc, slab->mem);
err_free_slab:
	free(slab);
	return err;
}

/*
 * Fork: the child inherits the records of the parent's runtime, whose KFD
 * process, BO registrations and events it cannot use, and whose service
 * thread did not come along; its first runtime call also unmaps the
 * parent's slabs (kfd_process_close in the child).  At the fork itself
 * (the module table's fork_child step, the child's only thread) the
 * process-wide table is emptied, so value calls on the parent's handles
 * resolve to nothing and do nothing from the first instruction on; the
 * records themselves are rt->signals, which the child cannot reach
 * (hl_runtime_get is NULL there) and which its forget step frees without
 * an ioctl or a lock (a parent thread may have held one at the fork).
 */
void hl_signal_fork_child(void)
{
	for (uint32_t i = 0; i < SLAB_TABLE_SIZE; i++)
		hl_store_relaxed(&slab_table[i], NULL);
}

/* Frees the slab records (the KFD memory goes with the caller's choice:
 * freed through the thunk at teardown, left to the thunk's close in a
 * fork child).  Caller holds slab_lock or is the child's forget step. */
static void slabs_free(struct hl_signals *sg, bool kfd_free)
{
	for (uint32_t s = 0; s < sg->n_slabs; s++) {
		struct signal_slab *slab = sg->slabs[s];
		/* A shared slab's page is the memory module's: its teardown,
		 * which runs after ours, frees it. */
		if (!slab->shared && !slab->mem)
			munmap((void *)slab->base, HL_SIGNAL_SLAB_BYTES);
		else if (slab->mem && kfd_free)
			kfd_mem_free(sg->rt->proc, slab->mem);
		free(slab);
		sg->slabs[s] = NULL;
	}
	while (sg->ipc_slabs) {
		struct signal_slab *slab = sg->ipc_slabs;
		sg->ipc_slabs = slab->ipc_next;
		if (kfd_free)
			kfd_mem_free(sg->rt->proc, slab->mem);
		free(slab);
	}
	sg->n_ipc_slabs = 0;
	sg->n_slabs = 0;
	sg->free_head = NO_SLOT;
	sg->quarantine_head = sg->quarantine_tail = NO_SLOT;
	sg->quarantine_len = 0;
}

int hl_signal_attach(struct hl_runtime *rt)
{
	struct hl_signals *sg = calloc(1, sizeof(*sg));
	if (!sg)
		return -ENOMEM;
	sg->rt = rt;
	pthread_mutex_init(&sg->slab_lock, NULL);
	sg->free_head = NO_SLOT;
	sg->quarantine_head = sg->quarantine_tail = NO_SLOT;
	hl_signal_event_pool_init(sg);
	pthread_mutex_init(&sg->group_lock, NULL);
	int err = hl_signal_async_init(sg);
	if (err) {
		free(sg);
		return err;
	}
	rt->signals = sg;
	return 0;
}

/* The parent's runtime in a fork child, now unreachable: every record goes
 * without an ioctl and without a lock (the child has one thread that can
 * reach rt->signals: this one). */
void hl_signal_forget(struct hl_runtime *rt)
{
	struct hl_signals *sg = rt->signals;
	if (!sg)
		return;
	hl_signal_async_forget_all(sg);
	hl_signal_groups_forget(sg);
	slabs_free(sg, false);
	hl_signal_event_pool_forget(sg);
	rt->signals = NULL;
	free(sg);
}

int hl_signal_slot_alloc(struct hl_runtime *rt, struct hl_signal_side **out)
{
	struct hl_signals *sg = rt->signals;
	int err = 0;
	pthread_mutex_lock(&sg->slab_lock);
	/* Every slab made: a stale handle detectable for fewer destroys beats
	 * a failed create. */
	if (sg->free_head == NO_SLOT && sg->n_slabs == HL_SIGNAL_SLABS_MAX && sg->quarantine_len)
		quarantine_release_oldest(sg);
	if (sg->free_head == NO_SLOT)
		err = slab_create(sg);
	if (!err) {
		struct hl_signal_side *side = slot_side(sg, sg->free_head);
		sg->free_head = side->next_free;
		side->next_free = NO_SLOT;
		*out = side;
	}
	pthread_mutex_unlock(&sg->slab_lock);
	return err;
}

void hl_signal_slot_free(struct hl_signal_side *side)
{
	struct hl_signals *sg = hl_signal_owner(side);
	pthread_mutex_lock(&sg->slab_lock);
	side->next_free = NO_SLOT;
	if (sg->quarantine_tail == NO_SLOT)
		sg->quarantine_head = side->index;
	else
		slot_side(sg, sg->quarantine_tail)->next_free = side->index;
	sg->quarantine_tail = side->index;
	if (++sg->quarantine_len > HL_SIGNAL_QUARANTINE)
		quarantine_release_oldest(sg);
	pthread_mutex_unlock(&sg->slab_lock);
}

int hl_signal_ipc_slab_add(struct hl_runtime *rt, struct kfd_mem *mem,
			   struct hl_signal_side **out)
{
	if ((uintptr_t)mem->addr & (HL_SIGNAL_SLAB_BYTES - 1) || !mem->host_access)
		return -EINVAL;
	struct hl_signals *sg = rt->signals;
	struct signal_slab *slab = calloc(1, sizeof(*slab) + sizeof(struct hl_signal_side));
	if (!slab)
		return -ENOMEM;
	slab->base = (uintptr_t)mem->addr;
	slab->mem = mem;
	slab->n_side = 1;
	slab->owner = sg;
	slab->side[0].amd = mem->addr;
	slab->side[0].index = NO_SLOT;
	slab->side[0].next_free = NO_SLOT;
	slab->side[0].ipc = true;
	pthread_mutex_lock(&sg->slab_lock);
	if (sg->n_ipc_slabs == IPC_SLABS_MAX) {
		pthread_mutex_unlock(&sg->slab_lock);
		free(slab);
		hl_error(SIGNAL_LOG, "IPC signal: ENOSPC: %u IPC signals live", IPC_SLABS_MAX);
		return -ENOSPC;
	}
	slab->ipc_next = sg->ipc_slabs;
	sg->ipc_slabs = slab;
	sg->n_ipc_slabs++;
	slab_publish(slab);
	pthread_mutex_unlock(&sg->slab_lock);
	*out = &slab->side[0];
	return 0;
}

void hl_signal_ipc_slab_release(struct hl_signal_side *side)
{
	struct hl_signals *sg = hl_signal_owner(side);
	struct signal_slab *slab = NULL;
	pthread_mutex_lock(&sg->slab_lock);
	for (struct signal_slab **pp = &sg->ipc_slabs; *pp; pp = &(*pp)->ipc_next)
		if (&(*pp)->side[0] == side) {
			slab = *pp;
			*pp = slab->ipc_next;
			sg->n_ipc_slabs--;
			slab_unpublish(slab);
			break;
		}
	pthread_mutex_unlock(&sg->slab_lock);
	if (!slab)
		return;
	kfd_mem_free(sg->rt->proc, slab->mem);
	free(slab);
}

/* Marks side dead for the teardown as hl_signal_destroy does (the slot is
 * not recycled: the slab goes next).  Caller holds slab_lock. */
static void side_kill(struct hl_signal_side *side)
{
	uint32_t live = HL_SIGNAL_LIVE;
	if (atomic_compare_exchange_strong_explicit(&side->state, &live, HL_SIGNAL_DYING,
						    memory_order_relaxed, memory_order_relaxed))
		hl_store_relaxed(&side->kind, AMD_SIGNAL_KIND_INVALID);
}

/* Whether a thread is still inside a wait on side; wakes it if it sleeps.
 * Acquire: pairs with the release decrements of waiters leaving (wait.c,
 * wait_any.c), so their last reads of side, its slab and its event happen
 * before the caller frees them. */
static bool side_busy(struct hl_signal_side *side)
{
	if (!hl_load_acquire(&side->users))
		return false;
	struct hl_signal_event *ev = hl_load_relaxed(&side->event);
	if (ev && hl_load_relaxed(&side->sleepers))
		kfd_event_set(ev->proc, &ev->kev);
	return true;
}

/* Whether any signal still has a thread inside a wait (waking sleepers).
 * Caller holds slab_lock. */
static bool any_busy_locked(struct hl_signals *sg)
{
	bool busy = false;
	for (uint32_t s = 0; s < sg->n_slabs; s++)
		for (uint32_t i = 0; i < sg->slabs[s]->n_side; i++)
			busy |= side_busy(&sg->slabs[s]->side[i]);
	for (struct signal_slab *slab = sg->ipc_slabs; slab; slab = slab->ipc_next)
		busy |= side_busy(&slab->side[0]);
	return busy;
}

/*
 * Threads still inside a wait when the last hsa_shut_down runs (a caller's
 * race by the HSA rules, but one ROCr survives: its waiter stays blocked
 * and the process carries on).  Every wait reads its signal's side entry,
 * its slab and its event, all freed below, so first every live signal dies
 * as in hl_signal_destroy (kind INVALID), then sleepers are woken until
 * every thread has left its wait; each returns 0, the value of a dead
 * signal.  A waiter re-checks the kind after every wake, so this ends.
 * Caller holds slab_lock (no waiter takes it inside a wait).
 */
static void drain_waiters_locked(struct hl_signals *sg)
{
	for (uint32_t s = 0; s < sg->n_slabs; s++)
		for (uint32_t i = 0; i < sg->slabs[s]->n_side; i++)
			side_kill(&sg->slabs[s]->side[i]);
	for (struct signal_slab *slab = sg->ipc_slabs; slab; slab = slab->ipc_next)
		side_kill(&slab->side[0]);
	/* Pairs with the fence a waiter issues after counting itself in users
	 * (wait.c, wait_any.c): either it sees kind INVALID, or we see it. */
	hl_fence_seq_cst();

	struct hl_backoff b = { 0 };
	while (any_busy_locked(sg))
		hl_backoff(&b, true);
}

/*
 * The last hsa_shut_down: the service thread goes first (it sleeps on our
 * events and calls into handlers), then threads still waiting are woken and
 * waited out, then groups, then every slab (handles stop resolving: value
 * calls on them return 0 and do nothing), then the events.
 */
void hl_signal_teardown(struct hl_runtime *rt)
{
	struct hl_signals *sg = rt->signals;
	if (!sg)
		return; /* hsa_init failed before our attach */
	hl_signal_async_stop(rt);
	pthread_mutex_lock(&sg->slab_lock);
	drain_waiters_locked(sg);
	pthread_mutex_unlock(&sg->slab_lock);
	/* After the drain: a thread in a group wait reads its group until it
	 * leaves. */
	hl_signal_groups_destroy(sg);

	pthread_mutex_lock(&sg->slab_lock);
	for (uint32_t i = 0; i < SLAB_TABLE_SIZE; i++)
		hl_store_relaxed(&slab_table[i], NULL);
	slabs_free(sg, true);
	pthread_mutex_unlock(&sg->slab_lock);

	hl_signal_event_pool_destroy(sg);
	hl_signal_async_destroy(sg);
	pthread_mutex_destroy(&sg->slab_lock);
	pthread_mutex_destroy(&sg->pool_lock);
	pthread_mutex_destroy(&sg->group_lock);
	rt->signals = NULL;
	free(sg);
}
