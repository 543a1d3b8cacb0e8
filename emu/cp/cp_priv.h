/*
 * kfdemu command processor: internal objects, shared by the files of emu/cp.
 *
 *   cp_sched.c    one CP per emulated device: the runlist of its queues, the
 *                 hardware queue slots (one host thread each) and the
 *                 time-slicing between them (CPSCH/HWS), the driver hooks
 *   cp_queue.c    the packet processor of one queue (MEC firmware): fetch,
 *                 header and index protocol, barrier bit, fences, retire
 *   cp_barrier.c  BARRIER_AND, BARRIER_OR and AMD BARRIER_VALUE conditions
 *   cp_dispatch.c KERNEL_DISPATCH: validation, the emu/isa dispatch, scratch
 *   cp_pm4.c      the AMD PM4-IB vendor packet (a small PM4 interpreter)
 *   cp_pool.c     the worker pool that runs independent workgroups
 *   cp_report.c   completion signals, mailbox and interrupt, queue errors
 *                 and VM faults (GPU memory goes through emu/gpu's TLB)
 *
 * Threads and ownership.  A queue is serviced by at most one slot thread at
 * a time (q->hw.owned, under cp->unit.lock: "cp->lock" below); everything in "owner state" below is
 * touched only by that thread, so the packet processor itself takes no
 * lock.  The hooks stop a queue by marking it (q->removing / inactive) and
 * waiting on cp->released until no slot thread owns it.
 *
 * Locking, outermost first: the CP registry's hooks lock (held by a hook
 * for its whole run: which CPs exist) -> its list lock (the CP list, held
 * briefly) -> cp->lock (runlist, ownership) -> cp->pool.lock (jobs), as
 * emu/gpu's registry defines them.  Eviction (kemu_gpu_evict) takes list
 * -> cp->lock only, never hooks, so the driver may evict from a CP or SDMA
 * thread that a hook is waiting for.  CP threads reach the driver only
 * through the queue's struct kemu_gpu_ops (which takes the process's VM
 * and event locks, and on a fault every engine's eviction) and hold no CP
 * lock meanwhile; the driver calls the hooks with its process lock held,
 * which no op takes.  emu/isa's program cache lock is a leaf: taken by
 * dispatches (no CP lock held) and by the pool's teardown (registry lock
 * held), never held while another lock is taken.
 */
#ifndef KEMU_CP_PRIV_H
#define KEMU_CP_PRIV_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cp.h"

/* Error codes the CP ORs into queue_inactive_signal (ROCr's
 * DynamicQueueEventsHandler; src/queue/queue.h states the same contract). */
#define KEMU_CP_ERR_SCRATCH       0x1u
#define KEMU_CP_ERR_DIMENSION     0x2u
#define KEMU_CP_ERR_GROUP_MEMORY  0x4u
#define KEMU_CP_ERR_CODE_OBJECT   0x8u
#define KEMU_CP_ERR_PACKET        0x20u
#define KEMU_CP_ERR_GROUP_SIZE    0x40u
#define KEMU_CP_ERR_VENDOR_PACKET 0x100u
#define KEMU_CP_ERR_APERTURE      0x20000000u
#define KEMU_CP_ERR_ILLEGAL_INSN  0x40000000u
#define KEMU_CP_ERR_TRAP          0x80000000u

/* Packet fields (HSA spec; hsa.h / hsa_ext_amd.h carry the same numbers). */
#define KEMU_CP_PKT_VENDOR     0
#define KEMU_CP_PKT_INVALID    1
#define KEMU_CP_PKT_DISPATCH   2
#define KEMU_CP_PKT_BARRIER_AND 3
#define KEMU_CP_PKT_AGENT      4
#define KEMU_CP_PKT_BARRIER_OR 5
#define KEMU_CP_AMD_FORMAT_PM4_IB 1
#define KEMU_CP_AMD_FORMAT_BARRIER_VALUE 2
#define KEMU_CP_HDR_BARRIER(h)  (((h) >> 8) & 1u)
#define KEMU_CP_HDR_ACQUIRE(h)  (((h) >> 9) & 3u)
#define KEMU_CP_HDR_RELEASE(h)  (((h) >> 11) & 3u)

/* amd_queue_t / amd_signal_t offsets the CP uses (hsa-abi-and-rocr.md 2.3,
 * 2.4; pinned by _Static_assert in include/hsa). */
#define KEMU_CP_AQ_WRITE_ID      56
#define KEMU_CP_AQ_READ_ID       128
#define KEMU_CP_AQ_READ_ID_BASE  136
#define KEMU_CP_AQ_TMPRING       140
#define KEMU_CP_AQ_SCRATCH_SRD   144
#define KEMU_CP_AQ_PROPERTIES    180
#define KEMU_CP_AQ_INACTIVE      192
#define KEMU_CP_AQ_PROFILING_BIT (1u << 3)
#define KEMU_CP_SIG_VALUE        8
#define KEMU_CP_SIG_MAILBOX      16
#define KEMU_CP_SIG_EVENT_ID     24
#define KEMU_CP_SIG_START_TS     32
#define KEMU_CP_SIG_END_TS       40

/* Scheduling: a queue keeps its slot for at most this many packets or this
 * long before the runlist may give the slot to another queue. */
#define KEMU_CP_QUANTUM_PACKETS 32
#define KEMU_CP_QUANTUM_NS      1000000ull
/* Idle polling: emu/gpu's pacing (gpu.h; cp_sched.c for the CP's use). */
#define KEMU_CP_MAX_WORKERS     4
struct kemu_cp;
struct kemu_isa_gws;

/* A dispatch preempted with its context saved (cp_ctx.c): what the MQD
 * keeps of it beside the control stack (hw.cwsr: on gfx9 the stack lives
 * in the MQD's buffer, after the MQD, and reaches the context-save area's
 * first ctl_stack_size bytes only through GET_QUEUE_WAVE_STATE), while the
 * waves' registers and LDS sit in the queue's context-save area from
 * ctl_stack_size on, up to cp_hqd_wg_state_offset. */
struct kemu_cp_ctx {
	bool saved;                    /* the dispatch at index is preempted */
	uint64_t index;                /* its packet index */
	uint64_t next_wg;              /* workgroups from here on never started */
	uint64_t *pending;             /* claimed workgroups that never started */
	uint32_t npending;
	uint32_t nsaved;               /* saved workgroups, every XCC's */
	uint64_t saves, restores;      /* counters (log) */
};

/* One user queue as the CP sees it (an HQD's MQD). */
struct kemu_cp_queue {
	/* identity, VM, doorbell, list and the stop flags (emu/gpu): owned
	 * and removing under cp->unit.lock; hw.stopped is set by the owner
	 * (errors) or by eviction and read by pick(); hw.evicted (a VM
	 * fault's eviction) is final, even for scratch_wait */
	struct kemu_gpu_hwq hw;
	struct kemu_cp *cp;
	/* MQD fields, under cp->lock; the owner copies them when it starts a
	 * service round (UPDATE_QUEUE waits for the owner to release) */
	uint64_t ring_base;
	uint32_t ring_slots;           /* ring_size / 64 */
	uint64_t rptr_va, wptr_va;
	uint32_t priority;             /* 0..15 */
	bool active;                   /* mapped: percentage > 0, ring set */
	/* the GWS control queue (ALLOC_QUEUE_GWS): the process's GWS state,
	 * which the MEC saves and restores with this queue, and how many
	 * resources the VMID gets (qpd num_gws); NULL / 0 otherwise.  Under
	 * cp->lock, like the MQD fields; the owner reads them unlocked */
	struct kemu_isa_gws *gws;
	uint32_t num_gws;
	/* scheduler state, under cp->unit.lock */
	uint64_t vtime;                /* stride scheduling: lowest runs next */
	/* destroy, or eviction after a VM fault (both final): the running
	 * dispatch stops too, between workgroups and its waves within
	 * KEMU_ISA_PREEMPT_INTERVAL instructions (emu/isa polls it relaxed:
	 * it publishes nothing) */
	_Atomic bool destroying;
	/* CWSR (cp_ctx.c): a request to preempt the running dispatch with
	 * its waves saved in the context-save area (the test knob's stop
	 * point, time slicing, inactivation), also set with destroying:
	 * emu/isa polls this flag (relaxed: it publishes nothing; the saved
	 * state travels with the workgroups' return to the owner) */
	_Atomic bool ctx_preempt;
	/* owner state */
	struct kemu_cp_ctx ctx;        /* the dispatch preempted mid-flight */
	bool attached;                 /* amd_va and rptr read */
	bool scratch_wait;             /* stopped for scratch: resumes when the
	                                * inactive signal is 0 again */
	uint64_t amd_va;               /* amd_queue_t, found from the rptr */
	uint64_t rptr;                 /* next packet index */
	uint64_t wait_index;           /* packet whose start_ts is recorded */
	uint64_t wait_start_ts;        /* + 1, 0: none */
	/* the HDP round trip (ops->hdp_packet_fetched): the token of the
	 * packet at hdp_index - 1, taken when it was first fetched (a barrier
	 * that waits or a dispatch resumed after a preemption keeps it) */
	uint64_t hdp_index;            /* + 1, 0: none */
	uint64_t hdp_token;
	/* the write pointer: the doorbell drives the fetch; write_dispatch_id
	 * is read once when the queue is (re)loaded, as hqd_load's one-shot
	 * WPTR poll does: by the CREATE/UPDATE_QUEUE hooks, under cp->lock
	 * while no thread owns the queue */
	uint64_t wptr_polled;
	/* the doorbell value the last service round saw (owner writes; the
	 * scheduler reads it under cp->lock once the queue is released) */
	uint64_t db_seen;
	/* the highest doorbell value rung + 1 (0: none; owner only): a MULTI
	 * queue's doorbell may be written with any value (hsa.h,
	 * hsa_queue_t.doorbell_signal), so a producer ringing a lower index
	 * after another rang a higher one must not hide the higher one's
	 * packets (cp_queue.c) */
	uint64_t db_end;
	/* the doorbell word as the fetch last read it (UINT64_MAX: not rung;
	 * owner only): a new value also raises db_end to write_dispatch_id,
	 * for the stores the poll never saw (cp_queue.c) */
	uint64_t db_last;
	/* the queue's TLB (kemu_cp_map): used only by the thread servicing
	 * the queue; entries carry the VM generation they were made under */
	struct kemu_gpu_tlb tlb;
	/* the TLBs of its dispatches' workers, one per scratch slot: used
	 * only by the participant holding that slot during one of q's
	 * dispatches (they never overlap; the pool lock orders one
	 * dispatch's participants before the next's) */
	struct kemu_gpu_tlb wtlb[KEMU_CP_MAX_WORKERS];
};

/* One dispatch's workgroups, shared by the submitting slot thread and the
 * pool workers (cp_pool.c). */
struct kemu_cp_job;
/* 0: done; -1: failed (no more claims); 1: preempted (this participant
 * claims no more, the others stop on the same request). */
typedef int (*kemu_cp_wg_fn)(struct kemu_cp_job *job, uint64_t wg, unsigned slot);
struct kemu_cp_job {
	kemu_cp_wg_fn run;             /* runs workgroup wg in scratch slot */
	/* instead of claiming workgroups one by one with run: the whole of a
	 * participant's part (a cooperative dispatch, cp_dispatch.c); it must
	 * claim through next and set failed as the default loop does */
	void (*participate)(struct kemu_cp_job *job, unsigned slot);
	void *ctx;
	uint64_t total;                /* workgroups */
	unsigned max_slots;            /* participants at once (scratch slots) */
	_Atomic uint64_t next;         /* next workgroup to claim */
	_Atomic unsigned slots;        /* participants so far */
	_Atomic bool failed;           /* first failure stops further claims */
	unsigned workers;              /* pool threads inside; under pool.lock */
	struct kemu_cp_job *next_job;  /* pool list; under pool.lock */
};

struct kemu_cp_pool {
	pthread_mutex_t lock;
	pthread_cond_t work;           /* workers park here */
	pthread_cond_t left;           /* a worker left a job */
	struct kemu_cp_job *jobs;
	pthread_t threads[KEMU_CP_MAX_WORKERS];
	unsigned n_threads, max_threads;
	bool stopping;
};

/* The CP of one device (its MEC and the HWS scheduling onto its HQDs). */
struct kemu_cp {
	/* the device, the runlist (unit.queues, under unit.lock), the
	 * released condvar and the doorbell watchers (emu/gpu) */
	struct kemu_gpu_unit unit;
	uint32_t gpu_id, gfx_target_version, counter_freq_khz, hqd_slots;
	uint32_t gb_addr_config;        /* for image addressing (emu/isa) */
	pthread_cond_t work;           /* slot threads park / back off here */
	pthread_t *threads;            /* hqd_slots entries, n_threads started */
	uint32_t n_threads;
	bool stopping;
	/* an idle slot thread is polling every queue while the others park;
	 * written under lock, read without it as a hint */
	_Atomic bool poller_active;
	uint64_t vclock;               /* vtime of the last queue picked */
	/* queues with GWS (q->gws) on the runlist; written under lock, read
	 * without it as a hint by dispatches of other queues (cp_dispatch.c) */
	_Atomic uint32_t n_gws;
	/* KFDEMU_PREEMPT=every:N: every dispatch is preempted (its waves
	 * saved in the context-save area and restored) each time one of its
	 * waves ran N instructions (0: off; cp_ctx.c) */
	uint64_t preempt_every;
	/* more queues on the runlist than hardware slots: the HWS time-slices
	 * them, preempting dispatches mid-flight (cp_dispatch.c).  Written
	 * under unit.lock, read without it as a hint */
	_Atomic bool oversubscribed;
	/* bumped (release) by every PM4 ACQUIRE_MEM that invalidates the
	 * shader instruction caches; the program cache keys on it (acquire),
	 * cp_dispatch.c */
	_Atomic uint64_t icache_gen;
	struct kemu_cp_pool pool;
};

/* emu/gpu frees a fork child's inherited queues with free() and finds a
 * unit by its struct kemu_gpu_unit: both are first. */
_Static_assert(offsetof(struct kemu_cp_queue, hw) == 0, "hw first");
_Static_assert(offsetof(struct kemu_cp, unit) == 0, "unit first");

static inline struct kemu_cp_queue *kemu_cp_queue_of(struct kemu_gpu_hwq *h)
{
	return (struct kemu_cp_queue *)((char *)h - offsetof(struct kemu_cp_queue, hw));
}

/* ---- cp_queue.c ---- */
enum kemu_cp_progress { KEMU_CP_IDLE, KEMU_CP_PROGRESS };
/* Processes packets of q until it is idle or blocked, its quantum is used
 * or it must stop.  Called by the owning slot thread without cp->lock. */
enum kemu_cp_progress kemu_cp_queue_service(struct kemu_cp_queue *q, uint64_t ring_base,
					     uint32_t ring_slots);
/* Reads amd_queue_t's location and the read index (first service).
 * -1 after raising a VM fault. */
int kemu_cp_queue_attach(struct kemu_cp_queue *q);

/* ---- cp_barrier.c ---- */
enum kemu_cp_wait { KEMU_CP_WAIT_DONE, KEMU_CP_WAIT_BLOCKED, KEMU_CP_WAIT_FAULT };
/* pkt is a 64-byte copy of the packet.  On FAULT the queue was stopped. */
enum kemu_cp_wait kemu_cp_barrier_ready(struct kemu_cp_queue *q, const uint8_t *pkt,
					 unsigned type);
enum kemu_cp_wait kemu_cp_barrier_value_ready(struct kemu_cp_queue *q, const uint8_t *pkt);

/* ---- cp_pm4.c ---- */
/* Executes the PM4 indirect buffer of an AMD PM4-IB vendor packet.
 * Returns 0, or -1 when the queue was stopped. */
int kemu_cp_pm4_ib(struct kemu_cp_queue *q, const uint8_t *pkt);

/* ---- cp_dispatch.c ---- */
/* Validates and runs the KERNEL_DISPATCH pkt (a copy of the packet at
 * pkt_va, index its dispatch id).  Returns 0 when every workgroup
 * completed, 1 when it was preempted with its context saved (the packet
 * stays; the next call for the same index resumes it), or -1 when the
 * queue was stopped (error code written or VM fault raised). */
int kemu_cp_dispatch(struct kemu_cp_queue *q, const uint8_t *pkt, uint64_t pkt_va,
		     uint64_t index);
/* A queue stopped for scratch: has the runtime resumed it? */
bool kemu_cp_dispatch_scratch_resumed(struct kemu_cp_queue *q);

/* ---- cp_ctx.c ---- */
/* KFDEMU_PREEMPT ("every:N"; unset or "off": 0), read when a CP is
 * created.  Logs a value it cannot parse and returns 0. */
uint64_t kemu_cp_preempt_every(int log_level);
/* Forgets q's saved context (the queue goes, or its dispatch ended). */
void kemu_cp_ctx_clear(struct kemu_cp_queue *q);
struct kemu_isa_wg_state;
struct kemu_isa_program;
struct kemu_isa_dispatch;
/* Writes the n saved workgroups sts of dispatch d (freed, whatever
 * happens) into q's context-save area, each into its XCC's, with their
 * control-stack words in the MQD (q->hw.hq->cwsr), and keeps the
 * dispatch's progress (next_wg, the pending claimed workgroups) in q->ctx.
 * 0, or -1 after raising the VM fault or queue error that stops q.  Owner
 * only. */
int kemu_cp_ctx_save(struct kemu_cp_queue *q, const struct kemu_isa_dispatch *d,
		     uint64_t index, uint64_t next_wg, const uint64_t *pending,
		     uint32_t npending, struct kemu_isa_wg_state **sts, uint32_t n);
/* The saved workgroups of q->ctx rebuilt from the area for program p and
 * dispatch d: *out (malloc'd, *n entries; each resumed or freed by the
 * caller).  0, or -1 after raising the fault or error.  Owner only. */
int kemu_cp_ctx_restore(struct kemu_cp_queue *q, const struct kemu_isa_program *p,
			const struct kemu_isa_dispatch *d, struct kemu_isa_wg_state ***out,
			uint32_t *n);

/* ---- cp_pool.c ---- */
/* Runs every workgroup of job, on the calling thread and up to
 * pool.max_threads workers.  Returns when all participants have left. */
void kemu_cp_pool_run(struct kemu_cp_pool *pool, struct kemu_cp_job *job);
void kemu_cp_pool_init(struct kemu_cp_pool *pool);
/* Joins the workers.  No job may be running. */
void kemu_cp_pool_fini(struct kemu_cp_pool *pool);

/* ---- cp_report.c (and emu/gpu's TLB) ---- */
/* GPU memory through the queue's VM (emu/gpu).  On a fault these fill *f
 * and return NULL / -EFAULT; the caller decides.  kemu_cp_map and
 * kemu_cp_load64 go through the queue's TLB and may be called only by the
 * thread servicing q; kemu_gpu_map (q->vm) translates afresh from any
 * thread (the dispatch's workers use their own TLBs, q->wtlb). */
static inline void *kemu_cp_map(struct kemu_cp_queue *q, uint64_t va, size_t len,
				unsigned access, struct kemu_vm_fault_info *f)
{
	return kemu_gpu_tlb_map(&q->hw.vm, &q->tlb, va, len, access, f);
}
static inline int kemu_cp_load64(struct kemu_cp_queue *q, uint64_t va, uint64_t *out,
				 struct kemu_vm_fault_info *f)
{
	return kemu_gpu_tlb_load64(&q->hw.vm, &q->tlb, va, out, f);
}
/* The GPU clock (GET_CLOCK_COUNTERS gpu_clock_counter domain). */
static inline uint64_t kemu_cp_gpu_clock(const struct kemu_cp *cp)
{
	return kemu_gpu_clock(cp->counter_freq_khz);
}
/* Retires a packet's completion signal (0: none): if profiling, start_ts
 * and an end_ts read just before the value; the release fence already done
 * by the caller, decrement, mailbox and interrupt.  Returns 0, or -1 after
 * raising a VM fault. */
int kemu_cp_signal_complete(struct kemu_cp_queue *q, uint64_t handle, uint64_t start_ts,
			    bool profiling);
/* Stops q with a CP error code: ORs it into queue_inactive_signal and
 * raises its event. */
void kemu_cp_queue_error(struct kemu_cp_queue *q, uint32_t code, const char *what);
/* Stops q with nothing reported: a wave of its dispatch halted (a trap
 * handler's report, or none at all), so the dispatch never completes and
 * the queue makes no progress until it is destroyed, as on hardware. */
void kemu_cp_queue_hang(struct kemu_cp_queue *q, const char *what);
/* A GPU VM fault by q's work: stops q and reports the fault to the
 * driver, whose interrupt handler evicts the process's queues on the
 * device (every engine's) and raises it process-wide. */
void kemu_cp_queue_fault(struct kemu_cp_queue *q, const struct kemu_vm_fault_info *f,
			 const char *what);

/* ---- cp_sched.c ---- */
/* The packet processor found work: if an idle slot thread was polling for
 * everyone, wake the parked slots.  Takes cp->lock. */
void kemu_cp_sched_busy(struct kemu_cp *cp);
/* The GWS q's dispatches may use, with a reference (kemu_isa_gws_put), and
 * its size: q's own as the GWS queue, else that of an active GWS queue of
 * the same process on the device (the VMID has the process's GWS while
 * its GWS queue is mapped: map_process num_gws).  NULL / 0: none.  Called
 * by q's owner without cp->lock. */
struct kemu_isa_gws *kemu_cp_queue_gws(struct kemu_cp_queue *q, uint32_t *num_gws);

#endif /* KEMU_CP_PRIV_H */
