/*
 * AQL queues: the module's private header, shared by the files of
 * src/queue only (other modules use queue/queue.h, which this one
 * includes).
 *
 * Object model
 *  - A queue is a struct hl_queue (CPU-only bookkeeping) plus the memory the
 *    GPU reads: the ring (host memory, exactly 64 B x size, 4 KiB aligned,
 *    mapped to the queue's GPU; a ring under a page, the internal queue's,
 *    is an object of the shared pages, buffers.c), the amd_queue_t in a 512-byte slot of a
 *    4 KiB page other queues and the first signals share (the kernel
 *    requires rptr and wptr in a one-page mapping that starts at their
 *    page; page.c), the EOP buffer (4 KiB of VRAM; none for AQL
 *    queues on gfx 9.4.x), the CWSR area (host memory) and, when the caller
 *    asked for private memory, a scratch buffer (VRAM).
 *  - The public hsa_queue_t * is &amd_queue->hsa_queue, as with ROCr, so HIP
 *    can hand it to kernels as the hidden queue pointer.
 *  - Descriptor slots are pooled (page.c): hsa_queue_destroy returns the slot
 *    to a FIFO free list instead of unmapping it, and every page stays mapped
 *    until the last hsa_shut_down.  So the index functions, which take an
 *    hsa_queue_t * and have no status to return, never fault on a destroyed
 *    queue: they read or write a page that still exists (after reuse, the new
 *    queue's page, as with ROCr's recycled allocations).
 *  - Status-returning functions validate the pointer by lookup in the
 *    registry of live queues (queue.c, under rt->queues->lock); a destroyed or
 *    unknown queue is HSA_STATUS_ERROR_INVALID_QUEUE.
 *  - The doorbell signal is a DOORBELL-kind amd_signal_t from src/signal
 *    (hl_signal_doorbell_create): hardware_doorbell_ptr = the mapped KFD
 *    doorbell, queue_ptr = the amd_queue_t, so hsa_signal_store_* on it is
 *    one hl_doorbell_store64.
 *
 * Scratch policy (scratch.c)
 *  - private_segment_size at creation is the per-work-item private memory
 *    the queue starts with (UINT32_MAX: none yet, grow as needed, what HIP
 *    asks for).  When non-zero we allocate VRAM for every scratch wave slot
 *    of the device (CUs x max_slots_scratch_cu waves of ALIGN(size, 16) x
 *    64 lanes, rounded to 1 KiB per wave) and describe it in the
 *    amd_queue_t (scratch_* fields, compute_tmpring_size).
 *  - Growing, as ROCr's HandleInsufficientScratch: a dispatch that needs
 *    more makes the CP stop the queue with the out-of-scratch code (0x1,
 *    0x400 for wave32) in queue_inactive_signal; the service thread sizes
 *    new scratch from the packet at the read index (its
 *    private_segment_size, or the kernel descriptor's fixed size if larger),
 *    replaces the buffer, rewrites the scratch fields and stores 0 into the
 *    signal, and the CP re-reads them and retries the packet.  When no
 *    scratch can be had, the error is reported as OUT_OF_RESOURCES, as ROCr
 *    does.  The service runs while any queue lives, so every queue grows
 *    (ROCr registers its scratch handler for every queue too).
 *  - Above 262128 bytes per lane (ROCr's limit) creation fails with
 *    OUT_OF_RESOURCES.
 *  - scratch_backing_memory_location holds the GPU VA of the buffer (we do
 *    not use SET_SCRATCH_BACKING_VA / the scratch aperture yet); the SRD
 *    base is the same VA.
 *
 * Errors (errors.c)
 *  - One service thread exists while at least one listed queue lives
 *    (any queue can fault, and a GPU memory fault must reach the system
 *    event handlers or ROCr's default abort): started by the first
 *    hsa_queue_create, joined when the last queue is destroyed or at
 *    hsa_shut_down.  It watches every live
 *    queue's queue_inactive_signal and the process-wide KFD MEMORY and
 *    HW_EXCEPTION events, records a failed queue as suspended (the CP or
 *    KFD has already stopped it; ROCr's extra UPDATE_QUEUE percentage 0 is
 *    not issued) and calls the user callback once per queue, from the
 *    service thread, with the status ROCr would give.
 *  - A NULL callback does NOT abort the process (ROCr's default handler
 *    aborts; we deliberately differ): the error is logged at error level.
 *    A GPU memory fault is another matter: with no system event handler
 *    taking it, the process aborts with ROCr's message
 *    (src/runtime/system_event.c), whatever the queues' callbacks.
 *  - Callbacks must not call hsa_shut_down (it would join the thread that is
 *    running them).  A callback may destroy its own queue.
 *
 * The contract with the command processor is public: queue/queue.h.
 */
#ifndef HSALITE_QUEUE_PRIV_H
#define HSALITE_QUEUE_PRIV_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "hsa/amd_hsa_queue.h"
#include "hsa/amd_hsa_signal.h"
#include "hsa/hsa.h"
#include "hsa/hsa_ext_amd.h"
#include "kfd/kfd.h"
#include "queue/queue.h"
#include "runtime/runtime.h"
#include "signal/signal.h"
#include "util/barrier.h"

#define QUEUE_LOG "queue"

/* The trap handler (trap.c): attach reads the test switch; ensure installs
 * it on a GPU before its first queue is created (0, or -errno: the queue
 * must not be created); teardown takes it down after the last queue, a fork
 * child forgets it.  hl_queue_trap_set points the handler's map at a
 * queue's amd_queue_t by its doorbell (amd NULL: clears it). */
struct hl_trap;
void hl_queue_trap_attach(struct hl_runtime *rt);
int hl_queue_trap_ensure(struct hl_runtime *rt, struct hl_agent *a);
void hl_queue_trap_teardown(struct hl_runtime *rt);
void hl_queue_trap_forget(struct hl_runtime *rt);
/* A fork child: a fresh lock, and no handler of ours in its KFD process. */
void hl_queue_trap_fork_child(void);
void hl_queue_trap_set(struct hl_agent *a, const uint64_t *doorbell, amd_queue_t *amd);

/* ROCr's per-lane private memory limit (amd_gpu_agent.cpp). */
#define HL_QUEUE_PRIVATE_MAX 262128u
/* libhsakmt's priority map for HSA -3..+3; normal (0) is 7. */
#define HL_QUEUE_PRIORITY_LOW    0u
#define HL_QUEUE_PRIORITY_NORMAL 7u
#define HL_QUEUE_PRIORITY_HIGH   15u

/* CP error codes written into queue_inactive_signal (queue.h, contract 3). */
#define HL_QUEUE_ERR_SCRATCH_WAVE64   0x1ull
#define HL_QUEUE_ERR_SCRATCH_WAVE32   0x400ull
#define HL_QUEUE_ERR_SCRATCH_ONCE     0x200ull
#define HL_QUEUE_ERR_DIMENSION        0x2ull
#define HL_QUEUE_ERR_GROUP_MEMORY     0x4ull
#define HL_QUEUE_ERR_CODE_OBJECT      0x8ull
#define HL_QUEUE_ERR_PACKET_FORMAT    0x20ull
#define HL_QUEUE_ERR_VENDOR_PACKET    0x100ull
#define HL_QUEUE_ERR_GROUP_TOO_LARGE  0x40ull
#define HL_QUEUE_ERR_VGPRS            0x80ull
#define HL_QUEUE_ERR_APERTURE         0x20000000ull
#define HL_QUEUE_ERR_ILLEGAL_INSN     0x40000000ull
#define HL_QUEUE_ERR_TRAP             0x80000000ull

/* A pooled descriptor slot (page.c): HL_QUEUE_SLOT_BYTES of one of the
 * memory module's shared 4 KiB GPU-mapped pages, the amd_queue_t at its
 * start.  The bytes after the amd_queue_t are the slot owner's (the
 * internal queue's IB). */
#define HL_QUEUE_SLOT_BYTES 512u
struct hl_queue_slot {
	void *addr;                    /* in a shared page, mapped to every GPU */
	struct hl_queue_slot *next;    /* free list, under rt->queues->lock */
};

/* A soft queue (soft.c): no KFD queue, a ring in the caller's region. */
struct hl_soft_queue {
	amd_queue_t *amd;              /* at slot->addr */
	struct hl_queue_slot *slot;
	void *ring;                    /* pool allocation, size x 64 bytes */
	struct hl_soft_queue *next;    /* qs->soft, under rt->queues->lock */
};
/* amd_queue_t.reserved4[0] of a soft queue ("SOFT"). */
#define HL_SOFT_QUEUE_MAGIC 0x54464f53u

/*
 * amd_queue_t.reserved1[0] of a counted queue's handle ("CNTQ", counted.c):
 * the handle is an amd_queue_t of its own whose reserved1[2..3] hold the
 * hardware queue's amd_queue_t address (low word first); the index
 * functions follow it (index.c), so every handle of one hardware queue
 * reserves from the same write index.  A hardware queue's reserved1 is 0
 * (its page is zeroed, the CP never writes it).
 */
#define HL_COUNTED_QUEUE_MAGIC 0x51544e43u

static inline const amd_queue_t *hl_queue_amd_of(const hsa_queue_t *queue)
{
	const amd_queue_t *a = (const amd_queue_t *)queue;
	if (__builtin_expect(a->reserved1[0] == HL_COUNTED_QUEUE_MAGIC, 0))
		a = (const amd_queue_t *)(uintptr_t)(a->reserved1[2] |
						     (uint64_t)a->reserved1[3] << 32);
	return a;
}

/* counted.c: the runtime's counted-queue pool (rt->queues->counted), under
 * its lock (taken before rt->queues->lock, never after). */
struct hl_counted_hw;
struct hl_counted_handle;
struct hl_counted_pool {
	pthread_mutex_t lock;
	struct hl_counted_hw *hw;           /* every hardware queue, creation order */
	struct hl_counted_handle *live;
	struct hl_counted_handle *free_head, *free_tail; /* released, oldest first */
};

/* The hardware queue behind a live counted queue's handle (NULL for any
 * other pointer), and the handle's use count. */
const hsa_queue_t *hl_counted_queue_hw(struct hl_runtime *rt, const hsa_queue_t *handle,
				       uint32_t *use_count);
void hl_counted_pool_init(struct hl_counted_pool *pool);
/* The last hsa_shut_down, while hsa_* calls still work (the module's
 * closing step): the counted hardware queues are destroyed and the records
 * freed; in a fork child (forget) the records are freed without an ioctl
 * or the lock. */
void hl_counted_queues_teardown(struct hl_runtime *rt);
void hl_counted_queues_forget(struct hl_runtime *rt);

/* GPU faults and resets the error service handled, per GPU (errors.c). */
#define HL_QUEUE_FAULT_GPUS_MAX 64u
struct hl_queue_fault_count {
	_Atomic uint32_t gpu_id;       /* 0: free, and the end of the used ones */
	_Atomic uint32_t n;
};

/* The module's state, one per runtime: rt->queues, made by the module's
 * attach and freed by its teardown or forget step (queue.c). */
struct hl_queue_service;
struct hl_queues {
	pthread_mutex_t lock;          /* registry, slot pool, control and
	                                * error state, service thread state */
	pthread_mutex_t coop_lock;     /* cooperative creation (queue.c),
	                                * taken before lock */
	pthread_cond_t idle;           /* the service thread left a callback */
	struct hl_runtime *rt;         /* the runtime the state belongs to */
	struct hl_queue *live;
	uint32_t n_live;
	struct hl_queue *unlisted;     /* the runtime's own queues (their
	                                * faults are marked, errors.c) */
	struct hl_soft_queue *soft;    /* live soft queues (soft.c) */
	struct hl_queue *sdma;         /* live application SDMA queues
	                                * (sdma_queue.c), apart from live */
	uint32_t *sdma_next;           /* per agent (its index in rt->agents):
	                                * the engine the next SDMA queue with
	                                * ENGINE_ID_ANY tries first; NULL until
	                                * the first one */
	struct hl_queue_slot *free_head, *free_tail; /* FIFO of free slots */
	struct hl_queue_slot **slots;  /* every slot, for teardown (page.c) */
	uint32_t n_slots, cap_slots;
	struct hl_signal_event *error_event; /* every queue's inactive signal
	                                * and the service's wake share this
	                                * KFD event (errors.c); made with the
	                                * first queue, returned at teardown */
	struct hl_queue_service *svc;  /* errors.c; NULL when no thread */
	struct hl_queue_service *services; /* every unjoined service (errors.c) */
	uint32_t n_holds;              /* hl_queue_service_hold not undone */
	struct hl_queue *current;      /* queue whose callback is running */
	struct hl_queue_fault_count gpu_faults[HL_QUEUE_FAULT_GPUS_MAX];
	struct hl_counted_pool counted; /* counted.c, under its own lock */
	/* Serialises trap handler installs (two threads creating a GPU's
	 * first queues, trap.c); a leaf lock (nothing else is taken under it
	 * but the thunk's). */
	pthread_mutex_t trap_lock;
	/* The tools' runtime-queue notifier (queue.c), under notifier_lock,
	 * a leaf lock. */
	pthread_mutex_t notifier_lock;
	hl_queue_notifier_t notifier_fn;
	void *notifier_data;
	/* Every use of every agent's internal queue (internal.c); taken
	 * under the loader's lock, takes lock and the signal module's. */
	pthread_mutex_t iq_lock;
	bool iq_warned_gfx;            /* the gfx10+ warning was logged */
};

/* ---- queue.c ---- */

/* The live queue whose public pointer is hq, or NULL.  Caller holds
 * qs->lock. */
struct hl_queue *hl_queue_lookup_locked(struct hl_queues *qs, const hsa_queue_t *hq);
/* The runtime and lock for a status-returning call on hq: returns SUCCESS
 * with (*rt)->queues->lock held and *out set, or the status to return
 * (lock not held): NOT_INITIALIZED, INVALID_ARGUMENT (NULL), INVALID_QUEUE. */
hsa_status_t hl_queue_acquire(const hsa_queue_t *hq, struct hl_runtime **rt,
			      struct hl_queue **out);
static inline void hl_queue_release(struct hl_runtime *rt)
{
	pthread_mutex_unlock(&rt->queues->lock);
}

/* The next process-unique hsa_queue_t.id. */
uint64_t hl_queue_next_id(void);


/* Undoes whatever state a queue record reached (DESTROY_QUEUE, signals,
 * buffers, slot) and frees it; q is on no list.  The DESTROY_QUEUE error,
 * if any (the buffers are then kept: the engine may still use them). */
int hl_queue_record_destroy(struct hl_runtime *rt, struct hl_queue *q);

/* ---- sdma_queue.c: application SDMA queues ---- */

/* Makes the SDMA queue d describes on agent (a GPU; d already checked by
 * create_desc.c) and sets d->queue.  The status to return for it. */
hsa_status_t hl_sdma_queue_create(struct hl_runtime *rt, struct hl_agent *agent,
				  hsa_amd_queue_create_desc_t *d);
/* The live application SDMA queue whose public pointer is hq, or NULL.
 * Caller holds qs->lock. */
struct hl_queue *hl_sdma_queue_lookup_locked(struct hl_queues *qs, const hsa_queue_t *hq);
/* Destroys the live application SDMA queue hq of the current runtime: 0,
 * -ENOENT when hq is none, or DESTROY_QUEUE's error. */
int hl_sdma_queue_destroy(const hsa_queue_t *hq);
/* Whether hq is a live application SDMA queue of the current runtime. */
bool hl_sdma_queue_live(const hsa_queue_t *hq);
/* The last hsa_shut_down: destroys the queues the application left. */
void hl_sdma_queues_teardown(struct hl_runtime *rt);
/* A fork child: forgets the parent's records (no ioctl). */
void hl_sdma_queues_forget(struct hl_queues *qs);

/* ---- soft.c ---- */

/* Destroys the live soft queue hq of the current runtime: 0, or -ENOENT
 * when hq is none. */
int hl_soft_queue_destroy(const hsa_queue_t *hq);
/* Whether hq is a live soft queue of the current runtime. */
bool hl_soft_queue_live(const hsa_queue_t *hq);
/* The last hsa_shut_down: frees the records and returns the slots (the
 * rings go with the runtime's allocations). */
void hl_soft_queues_teardown(struct hl_runtime *rt);
/* A fork child: forgets the parent's records. */
void hl_soft_queues_forget(struct hl_queues *qs);

/* ---- page.c ---- */

/* A zeroed descriptor slot from the pool, a new one from the memory
 * module's shared pages when none is free.  Caller holds
 * rt->queues->lock. */
int hl_queue_slot_get_locked(struct hl_runtime *rt, struct hl_queue_slot **out);
/* Back to the FIFO (not unmapped).  Caller holds qs->lock. */
void hl_queue_slot_put_locked(struct hl_queues *qs, struct hl_queue_slot *slot);
/* Frees the slot records (teardown, fork child); the pages are the memory
 * module's, freed by its teardown or left to a fork child's thunk. */
void hl_queue_slots_release_locked(struct hl_queues *qs);

/* ---- buffers.c ---- */

/* size bytes of kind (host memory: CPU-accessible) on q's GPU, 4 KiB
 * aligned, mapped to that GPU only; what names it in the log.  -errno. */
int hl_queue_mem_alloc(struct hl_runtime *rt, struct hl_queue *q, enum kfd_mem_kind kind,
		       uint64_t size, uint32_t extra_flags, const char *what,
		       struct kfd_mem **out);

/* Ring, EOP, CWSR (with headers) and scratch of q, and the fields of the
 * amd_queue_t that describe them.  On failure what was allocated stays in
 * q for hl_queue_buffers_free. */
int hl_queue_buffers_alloc(struct hl_runtime *rt, struct hl_queue *q, uint32_t size,
			   uint32_t private_segment_size);
void hl_queue_buffers_free(struct hl_runtime *rt, struct hl_queue *q);
/* size bytes of VRAM on q's GPU, mapped to it, for scratch.  -errno. */
int hl_queue_scratch_alloc(struct hl_runtime *rt, struct hl_queue *q, uint64_t size,
			   struct kfd_mem **out);

/* ---- scratch.c ---- */

/* Bytes of scratch a queue needs for lane_bytes per work-item on agent,
 * and the amd_queue_t fields for a buffer at base (0: no scratch). */
uint64_t hl_scratch_size(const struct hl_agent *agent, uint32_t lane_bytes);
void hl_scratch_describe(amd_queue_t *amd, const struct hl_agent *agent, uint32_t lane_bytes,
			 uint64_t base, uint64_t size);
/* Replaces q's scratch with one big enough for the dispatch packet at its
 * read index (the CP stopped q with an out-of-scratch code).  Caller holds
 * rt->queues->lock; the CP is waiting.  0, or -errno (logged) when no
 * scratch can be had or the packet asks for no more than q has. */
int hl_queue_scratch_grow_locked(struct hl_runtime *rt, struct hl_queue *q);

/* ---- control.c ---- */

/* The full CU mask of q's agent, recorded at creation (no ioctl). */
void hl_queue_cu_mask_init(struct hl_queue *q);

/* ---- errors.c ---- */

/* Registers q with the error service (q is already in the registry):
 * counts it as a watcher of its inactive signal and starts the thread if
 * none runs (else wakes it).  Caller holds rt->queues->lock. */
int hl_queue_service_attach_locked(struct hl_runtime *rt, struct hl_queue *q);
/* Unregisters q (already unlinked from the registry): waits until the
 * service thread is not in q's callback (unless called from that thread)
 * and, when q was the last live queue, stops the thread.
 * Caller holds rt->queues->lock; the thread is joined by
 * hl_queue_service_reap, without the lock. */
void hl_queue_service_detach_locked(struct hl_queues *qs, struct hl_queue *q);
/* Joins a stopped service thread and frees its events (no-op when none is
 * pending, or when called from the service thread itself). */
void hl_queue_service_reap(struct hl_queues *qs);
/* A fork child: the thread did not survive fork; forget it. */
void hl_queue_service_forget(struct hl_queues *qs);
/* The last hsa_shut_down: drops every hold and stops the service (the
 * live queues are gone).  Caller holds qs->lock. */
void hl_queue_service_stop_locked(struct hl_queues *qs);
/* Logs the error of a callback-less queue that nobody reported (destroy). */
void hl_queue_error_log_unreported(struct hl_queue *q);


/* ---- internal.c: the per-agent internal queues' lifecycle ---- */

/* hsa_init: an empty record per GPU agent (agent->iq).  -ENOMEM. */
int hl_queue_internal_attach(struct hl_runtime *rt);
/* The last hsa_shut_down: destroys the queues and frees the records. */
void hl_queue_internal_teardown(struct hl_runtime *rt);
/* Fork child: frees the parent's records without an ioctl at the child's
 * first runtime call (the lock is rt->queues->iq_lock, the parent's). */
void hl_queue_internal_forget(struct hl_runtime *rt);

#endif /* HSALITE_QUEUE_PRIV_H */
