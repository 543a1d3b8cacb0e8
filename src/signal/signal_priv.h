/*
 * Signals: the module's private header, shared by the files of src/signal
 * only (other modules use signal/signal.h, which this one includes).
 *
 * Object model
 *  - A signal is an amd_signal_t (64 bytes, the ABI the GPU reads) carved
 *    from a slab: 64 KiB of host memory, 64 KiB aligned, registered with
 *    KFD and mapped to every GPU (fine-grained system memory); the first
 *    slab is smaller, a shared-page object of the memory module's (slab.c).
 *    The handle is the amd_signal_t address, as with ROCr.
 *  - Everything the runtime keeps per signal (state, kind, waiter counts,
 *    its KFD event) lives in a side entry in CPU-only memory, never in the
 *    64 bytes.  A handle is resolved by hl_signal_side_lookup: a lock-free
 *    probe of a table of slabs keyed by the 64 KiB region a slab starts
 *    in; it never dereferences what the caller passed, so any handle value
 *    is safe.
 *  - Slabs stay mapped until the last hsa_shut_down.  A destroyed slot is
 *    marked free (kind INVALID in the side entry and in the ABI struct,
 *    value 0) and quarantined: a later create reuses it only after
 *    HL_SIGNAL_QUARANTINE more destroys (slab.c), so a stale handle stays
 *    detectably dead that long instead of naming the next signal at once.
 *  - Signals a CPU may wait on get a KFD signal event (auto-reset) from the
 *    event pool (event_pool.c); the event id and its mailbox slot are put
 *    in event_id / event_mailbox_ptr so the CP can interrupt.
 *
 * Waking (the "no missed wakeup" contract, ops.c and wait.c)
 *  - A thread that may sleep counts itself in side->sleepers, issues a
 *    seq_cst fence, and from then on snapshots the event's age *before*
 *    each check of the value, and sleeps passing that age.
 *  - A modifying operation does its atomic as a seq_cst operation, reads
 *    sleepers with a seq_cst load, and issues SET_EVENT only if it is not
 *    0.  Either the waiter's check sees the new value, or the modifier sees
 *    the waiter and its SET_EVENT bumps the event age past the waiter's
 *    snapshot, so WAIT_EVENTS returns at once (ops.c has the argument).
 *
 * Errors: internal functions return 0 or -errno; the API edge maps them
 * through hl_status_from_errno (src/runtime/error.c).
 */
#ifndef HSALITE_SIGNAL_PRIV_H
#define HSALITE_SIGNAL_PRIV_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "hsa/amd_hsa_signal.h"
#include "hsa/hsa.h"
#include "hsa/hsa_ext_amd.h"
#include "kfd/kfd.h"
#include "runtime/runtime.h"
#include "signal/signal.h"
#include "util/barrier.h"

#define SIGNAL_LOG "signal"

#define HL_SIGNAL_SLAB_SHIFT   16
#define HL_SIGNAL_SLAB_BYTES   (1u << HL_SIGNAL_SLAB_SHIFT)             /* 64 KiB */
#define HL_SIGNAL_SLAB_SIGNALS (HL_SIGNAL_SLAB_BYTES / sizeof(amd_signal_t)) /* 1024 */
#define HL_SIGNAL_SLABS_MAX    4096u                                     /* 4 Mi signals */
/* The first slab of a runtime with GPUs: 1 KiB (16 signals) of the memory
 * module's shared pages (hl_small_alloc), next to the queue descriptors,
 * so a program with few signals registers no slab of its own; the rest
 * are HL_SIGNAL_SLAB_BYTES.  A quarter of a page: the 512-byte queue
 * slots (and the internal queue's 1 KiB ring) keep the rest. */
#define HL_SIGNAL_FIRST_SLAB_BYTES 1024u

/*
 * Destroyed slots a create does not take (slab.c), oldest out first.  The
 * size weighs memory against detection: each quarantined slot holds 64
 * bytes of the GPU-mapped slab and a 56-byte side entry, so 1024 slots cost
 * at most one extra slab (64 KiB registered, mapped to every GPU, plus 56
 * KiB of side entries) however many signals live; and a use-after-destroy
 * stays HSA_STATUS_ERROR_INVALID_SIGNAL (or a no-op) until 1024 further
 * signals are destroyed: the usual stale handle outlives its signal by one
 * loop iteration or one dispatch/copy round, a handful of destroys, so this
 * catches it with a wide margin while the memory stays one slab.  A larger
 * quarantine buys a longer window at one slab per 1024 slots.
 */
#define HL_SIGNAL_QUARANTINE   1024u

/* User signals may take events up to this many; the rest of the kernel's
 * 4095 is kept for the runtime's own signals (queue error / inactive
 * signals, the service thread's wake event). */
#define HL_SIGNAL_EVENTS_USER  4031u

/* ---- the module's state (struct hl_signals, rt->signals) ----
 *
 * Everything the module keeps for a runtime hangs off rt->signals: made by
 * the attach step (hsa_init), freed by the teardown (the last
 * hsa_shut_down) or, in a fork child, by the forget step, so a new runtime
 * starts afresh and nothing of a parent's outlives its runtime.  Only the
 * handle lookup table (slab.c's slab_table) is process-wide, for the
 * reasons given there.  Calls that name a signal reach its runtime's state
 * through the signal (hl_signal_owner), so destroy and the queue and copy
 * modules' teardowns need no runtime in hand.
 */

struct signal_slab;
struct signal_group;
struct async_reg;

/* The async service (async.c), under its lock; freed by the last of its
 * references: the module state's and, while it runs, the thread's. */
struct hl_signal_async {
	_Atomic uint32_t refs;
	pthread_mutex_t lock;
	struct async_reg *regs;        /* handlers */
	struct async_reg *funcs;       /* pending functions, FIFO */
	struct async_reg **funcs_tail;
	bool started;
	uint64_t gen;                  /* bumped by stop: the thread exits */
	pthread_t thread;
	struct hl_signal_event *wake;
};

struct hl_signals {
	struct hl_runtime *rt;
	/* slab.c: slab_lock covers slab creation, the free list, the
	 * quarantine, the IPC slab list and table inserts and removals. */
	pthread_mutex_t slab_lock;
	struct signal_slab *slabs[HL_SIGNAL_SLABS_MAX];
	uint32_t n_slabs;
	uint32_t free_head;            /* slab * 1024 + slot */
	/* FIFO through next_free, oldest at the head */
	uint32_t quarantine_head, quarantine_tail, quarantine_len;
	struct signal_slab *ipc_slabs;
	uint32_t n_ipc_slabs;
	/* event_pool.c: pool_lock covers the lists and counters. */
	pthread_mutex_t pool_lock;
	struct hl_signal_event *pool_free;  /* idle events */
	struct hl_signal_event *pool_all;   /* every event, for teardown */
	struct hl_signal_event **all_tail;
	uint32_t n_user_lent;
	bool warned_user, warned_kernel;
	/* group.c: live groups, under group_lock */
	pthread_mutex_t group_lock;
	struct signal_group *groups;
	struct hl_signal_async *svc;   /* async.c */
};

/* ---- event_pool.c ---- */

/* One KFD signal event, owned by the pool and lent to one signal at a time.
 * Never destroyed before the runtime goes, so a sleeper that still names it
 * after its signal died only sees a spurious wakeup. */
struct hl_signal_event {
	struct kfd_event kev;          /* id, type; kev.age is not used */
	struct kfd_process *proc;
	struct hl_signals *sg;         /* the pool it belongs to */
	_Atomic uint64_t age;          /* newest age any waiter saw (1.14+) */
	bool ages;                     /* KFD 1.14+: WAIT_EVENTS takes ages */
	bool lent_internal;            /* under the pool lock */
	uint32_t refs;                 /* holders while lent (signals sharing
	                                * it, hl_signal_shared_event_ref), under
	                                * the pool lock; 0 when idle */
	uint64_t svc_round;            /* service thread only: de-duplication */
	struct hl_signal_event *next;  /* idle list, under the pool lock */
	struct hl_signal_event *all_next; /* every event, under the pool lock */
};

/* An event from the pool, or NULL when the pool is at its limit (user:
 * HL_SIGNAL_EVENTS_USER; internal: the kernel's) or CREATE_EVENT failed.
 * The first refusal of each kind is logged once. */
struct hl_signal_event *hl_signal_event_get(struct hl_signals *sg, bool internal);
void hl_signal_event_put(struct hl_signals *sg, struct hl_signal_event *ev);
void hl_signal_event_pool_init(struct hl_signals *sg);
/* Destroys every event (teardown). */
void hl_signal_event_pool_destroy(struct hl_signals *sg);
/* A fork child's forget step: frees every record without an ioctl or the
 * lock (the events are the parent's). */
void hl_signal_event_pool_forget(struct hl_signals *sg);
/* True when KFD has event ages (1.14+): sleepers may wait without a bound. */
bool hl_signal_event_ages(const struct hl_signal_event *ev);


static inline uint64_t hl_signal_event_age(struct hl_signal_event *ev)
{
	/* Acquire: pairs with the release in hl_signal_event_age_seen, so a
	 * value stored before the SET that produced this age is visible to
	 * the value check that follows the snapshot. */
	return hl_load_acquire(&ev->age);
}

/* ---- slab.c ---- */

enum hl_signal_state { HL_SIGNAL_FREE = 0, HL_SIGNAL_LIVE = 1, HL_SIGNAL_DYING = 2 };

struct hl_signal_side {
	_Atomic uint32_t state;        /* enum hl_signal_state */
	_Atomic int32_t kind;          /* AMD_SIGNAL_KIND_*; INVALID when free */
	_Atomic uint32_t sleepers;     /* threads that may sleep on the event,
	                                * plus async handler registrations */
	_Atomic uint32_t users;        /* every thread inside a wait */
	_Atomic uint32_t spin_ns;      /* adaptive spin budget of BLOCKED waits */
	bool internal;                 /* created by the runtime (queue) */
	bool ipc;                      /* an IPC signal: its amd_signal_t is
	                                * shared with other processes (ipc.c) */
	bool wants_event;              /* a CPU may wait (not GPU-only) */
	struct hl_signal_event *_Atomic event; /* NULL: nobody can sleep on it */
	struct hl_agent *_Atomic copy_agent; /* the GPU of the last profiled
	                                * async copy it completed (src/copy) */
	bool publish_wptr;             /* a DOORBELL signal of an application
	                                * SDMA queue: a store also writes its
	                                * queue's write_dispatch_id (ops.c) */
	amd_signal_t *amd;
	uint32_t index;                /* slab number * 1024 + slot */
	uint32_t next_free;            /* free list, under the slab lock */
};

/* The side entry of a handle if it lies in one of our slabs, else NULL.
 * Lock-free; never dereferences the handle. */
struct hl_signal_side *hl_signal_side_lookup(uint64_t handle);

/* The side entry of a live signal (state LIVE), or NULL. */
static inline struct hl_signal_side *hl_signal_side_live(uint64_t handle)
{
	struct hl_signal_side *side = hl_signal_side_lookup(handle);
	/* Acquire: pairs with the release that publishes LIVE in
	 * hl_signal_create, so the side fields read next are complete. */
	if (side && hl_load_acquire(&side->state) == HL_SIGNAL_LIVE)
		return side;
	return NULL;
}

/* The state of the runtime side belongs to (its slab's owner). */
struct hl_signals *hl_signal_owner(const struct hl_signal_side *side);

/* Takes a free slot (state still FREE); -ENOMEM / -ENOSPC when no slab can
 * be had. */
int hl_signal_slot_alloc(struct hl_runtime *rt, struct hl_signal_side **out);
void hl_signal_slot_free(struct hl_signal_side *side);
/* A slab of one signal at the start of mem (host-visible, 64 KiB-aligned),
 * for an IPC signal; the slab owns mem from then on.  The side entry is
 * FREE with ipc set; the caller fills it. */
int hl_signal_ipc_slab_add(struct hl_runtime *rt, struct kfd_mem *mem,
			   struct hl_signal_side **out);
/* Unpublishes the IPC signal's slab and frees it and its memory. */
void hl_signal_ipc_slab_release(struct hl_signal_side *side);


/* ---- ipc.c ---- */

/* An IPC signal (HSA_AMD_SIGNAL_IPC): its own 4 KiB GTT BO, laid out as
 * ROCr's SharedSignal, no KFD event (waits poll, as ROCr's busy-wait
 * signals). */
int hl_signal_ipc_create(struct hl_runtime *rt, int64_t initial, hsa_signal_t *out);

/* ---- wait.c ---- */

static inline bool hl_signal_satisfied(hsa_signal_condition_t cond, int64_t v, int64_t cmp)
{
	switch (cond) {
	case HSA_SIGNAL_CONDITION_EQ:  return v == cmp;
	case HSA_SIGNAL_CONDITION_NE:  return v != cmp;
	case HSA_SIGNAL_CONDITION_LT:  return v < cmp;
	case HSA_SIGNAL_CONDITION_GTE: return v >= cmp;
	default:                       return true; /* unknown: never block */
	}
}

static inline void hl_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

/* Timestamp ticks (HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY) to ns; saturates. */
uint64_t hl_signal_ticks_to_ns(uint64_t ticks);

/* A growing back-off for spinning waits: pause, then sched_yield, then (if
 * may_sleep) short naps, so an event-less BLOCKED wait does not peg a core. */
struct hl_backoff { uint32_t step; };
void hl_backoff(struct hl_backoff *b, bool may_sleep);


/* ---- async.c ---- */

/* Makes sg->svc (attach): 0 or -ENOMEM.  The teardown drops the state's
 * reference once the thread is stopped (hl_signal_async_stop). */
int hl_signal_async_init(struct hl_signals *sg);
void hl_signal_async_destroy(struct hl_signals *sg);
/* Drops the async handlers registered on a dying signal, releasing their
 * sleeper counts (a handler running right now finishes). */
void hl_signal_async_forget(struct hl_signal_side *side);
/* A fork child's forget step: the thread did not survive the fork; frees
 * its lists without the lock (the wake event goes with the pool). */
void hl_signal_async_forget_all(struct hl_signals *sg);

/* ---- group.c ---- */
/* Frees every group: at teardown (under the lock), in a fork child's
 * forget step (without it). */
void hl_signal_groups_destroy(struct hl_signals *sg);
void hl_signal_groups_forget(struct hl_signals *sg);

#endif /* HSALITE_SIGNAL_PRIV_H */
