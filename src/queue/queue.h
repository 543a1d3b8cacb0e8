/*
 * AQL queues: the public face of src/queue, what the modules above it
 * (loader, copy, image) may use.  The registry, the descriptor slot pool
 * and the error service are private (queue_priv.h); the contract with the
 * command processor is here.
 *
 * The runtime's own engines (src/copy's blit queues) drive an unlisted
 * queue themselves: they own the struct hl_queue they created and read its
 * ring, amd_queue_t, doorbell and inactive signal, which never change
 * while it lives; everything else in it is the queue module's.
 *
 * This header also states the contract between the runtime and whatever
 * executes the packets (the MEC firmware on hardware, emu/cp on kfdemu).
 *
 * ------------------------------------------------------------------------
 * What the command processor must do (the contract emu/cp implements; it
 * follows what ROCr expects of the MEC firmware)
 * ------------------------------------------------------------------------
 *  1. Reading packets.  KFD gives the CP read_pointer_address =
 *     &amd_queue.read_dispatch_id and write_pointer_address =
 *     &amd_queue.write_dispatch_id; both are 64-bit packet indices that never
 *     wrap (slot = index % hsa_queue.size).  A doorbell store carries the
 *     index of the last packet published.  The CP processes packets at
 *     read_dispatch_id while their header type is not INVALID (1), and after
 *     finishing one it stores HSA_PACKET_TYPE_INVALID back into that slot's
 *     header type and advances read_dispatch_id by one (a release store:
 *     producers that see the new read index may reuse the slot).
 *  2. Completion.  When a packet with a completion signal retires the CP
 *     atomically decrements the amd_signal_t value by 1 (with the packet's
 *     release fence).  If queue_properties has ENABLE_PROFILING (bit 3), it
 *     first writes start_ts and end_ts (GPU timestamp ticks, the domain of
 *     GET_CLOCK_COUNTERS gpu_clock_counter).  Then, if event_mailbox_ptr is
 *     non-zero, it writes event_id to *event_mailbox_ptr and raises the
 *     end-of-pipe interrupt carrying that id (kfdemu: kemu_event_interrupt
 *     with 32 valid bits), which sets the KFD event.
 *  3. Queue errors.  On an error the CP stops fetching from the queue,
 *     leaves read_dispatch_id at the offending packet, and writes the error
 *     code into amd_queue.queue_inactive_signal's amd_signal_t value (an
 *     atomic OR of the bit below into value, release) and then, as in 2,
 *     writes event_id to the mailbox and raises the interrupt.  Codes (ROCr's
 *     DynamicQueueEventsHandler, hsa-abi-and-rocr.md §1.5):
 *       0x1 / 0x400 out of scratch, wave64 / wave32: the runtime grows
 *               the queue's scratch and stores 0 to resume (Scratch policy
 *               above, hl_queue_scratch_grow_locked); OUT_OF_RESOURCES
 *               only when none can be had
 *       0x200   one-shot scratch done (not fatal; we never ask for it: the
 *               runtime stores 0 to the signal and the CP resumes)
 *       0x2     invalid dimension            -> INCOMPATIBLE_ARGUMENTS
 *       0x4     invalid group memory         -> INVALID_ALLOCATION
 *       0x8     null or invalid code object  -> INVALID_CODE_OBJECT
 *       0x20 / 0x100  bad packet / bad vendor packet -> INVALID_PACKET_FORMAT
 *       0x40    work-group too large         -> INVALID_ARGUMENT
 *       0x80    out of VGPRs                 -> OUT_OF_REGISTERS
 *       0x20000000  address above 48 bits    -> MEMORY_APERTURE_VIOLATION
 *       0x40000000  illegal instruction      -> ILLEGAL_INSTRUCTION
 *       0x80000000  debug trap               -> ERROR_EXCEPTION
 *       any other non-zero value             -> HSA_STATUS_ERROR
 *  4. GPU page faults.  A VM fault of a wave (or of the CP's own access) is
 *     raised process-wide as KFD does: every KFD MEMORY event of the process
 *     gets memory_exception_data {va, gpu_id, NotPresent/ReadOnly/NoExecute}
 *     and is set (kfdemu: kemu_vm_fault), and the process's queues on that
 *     device are evicted (kfd_dqm_evict_pasid).  Our MEMORY and
 *     HW_EXCEPTION events are auto-reset (the CPU cannot reset them).  The runtime then treats every
 *     queue of that GPU as stopped (the kernel evicts the process's queues on
 *     that device) and reports MEMORY_APERTURE_VIOLATION when va is outside
 *     the GPUVM aperture of that GPU, MEMORY_FAULT otherwise.  A GPU reset is
 *     a HW_EXCEPTION event {gpu_id, reset_type, reset_cause, memory_lost}
 *     (kemu_gpu_reset) and is reported as HSA_STATUS_ERROR to that GPU's
 *     queues.  The queue_inactive_signal is not written for these.
 *  5. Scratch: compute_tmpring_size (WAVES bits 11:0 per XCC, WAVESIZE bits
 *     24:12 in 1 KiB units), scratch_resource_descriptor (gfx9 buffer SRD:
 *     base in words 0-1, NUM_RECORDS = bytes in word 2), and
 *     scratch_backing_memory_location (GPU VA of the buffer) describe the
 *     queue's scratch; 0 means the queue has none.
 *  6. The CWSR header at the start of each XCC's save area carries
 *     debug_offset/debug_size as libhsakmt writes them; err_event_id and
 *     err_payload_addr are 0 (we do not use KFD's exception channel).
 */
#ifndef HSALITE_QUEUE_H
#define HSALITE_QUEUE_H

#include <stdbool.h>
#include <stdint.h>

#include "hsa/amd_hsa_queue.h"
#include "hsa/hsa.h"
#include "kfd/kfd.h"
#include "runtime/runtime.h"

/* CU masks as KFD takes them: at most 1024 bits. */
#define HL_QUEUE_CU_MASK_WORDS 32u

struct hl_queue_slot;

/* Not a CP code (those are private, queue_priv.h): the error service ORs it
 * into an unlisted queue's inactive signal when a GPU memory fault or reset
 * on its GPU stopped it (KFD evicted the device's queues; the CP writes
 * nothing then).  A waiter on the signal wakes; the queue's owner sees it
 * stopped and replaces it. */
#define HL_QUEUE_ERR_FAULT_STOPPED    (1ull << 62)

typedef void (*hl_queue_callback_t)(hsa_status_t status, hsa_queue_t *source, void *data);

struct hl_queue {
	amd_queue_t *amd;              /* at slot->addr (page.c) */
	struct hl_queue_slot *slot;
	struct hl_agent *agent;
	uint32_t gpu_id;
	uint32_t queue_id;             /* KFD's; valid when created */
	bool created;                  /* the KFD queue exists */
	uint32_t coop_refs;            /* COOPERATIVE: creates not yet destroyed
	                                * (the one GWS queue of its agent is
	                                * shared); 0 otherwise.  Under
	                                * rt->queues->lock */
	void *ring;                    /* ring_mem's, or a shared-page object
	                                * (a ring under a page, buffers.c) */
	uint32_t ring_bytes;
	struct kfd_mem *ring_mem;
	struct kfd_mem *eop_mem;
	struct kfd_mem *cwsr_mem;
	void *cwsr_svm;                /* or the CWSR area as an SVM range
	                                * (buffers.c), cwsr_svm_size bytes */
	uint64_t cwsr_svm_size;
	struct kfd_mem *scratch_mem;
	bool scratch_dynamic;          /* created with private_segment_size
	                                * UINT32_MAX: the error service grows
	                                * its scratch on demand */
	uint64_t *doorbell;
	hsa_signal_t doorbell_signal;  /* handle 0 until created */
	hsa_signal_t inactive_signal;  /* handle 0 until created */
	bool watching;                 /* counted in the inactive signal's sleepers */
	hl_queue_callback_t callback;  /* NULL: log only */
	void *data;
	/* An application SDMA queue (hsa_amd_queue_create with engine SDMA,
	 * sdma_queue.c): on qs->sdma, never on the AQL registry; the engine
	 * index it was pinned to (SDMA_BY_ENG_ID). */
	bool app_sdma;
	uint32_t sdma_engine;

	/* Control state, under rt->queues->lock (control.c). */
	uint32_t priority;             /* KFD 0..15 */
	bool suspended;                /* UPDATE_QUEUE percentage 0 was issued */
	uint32_t cu_mask[HL_QUEUE_CU_MASK_WORDS];
	uint32_t cu_mask_words;

	/* Error state, under rt->queues->lock (errors.c). */
	bool error_reported;           /* the callback (or log) has run */
	hsa_status_t pending_fault;    /* a VM fault / reset to report, or 0 */
	/* The first GPU memory fault on the queue's GPU while it lived
	 * (hsa_amd_queue_get_info's VM_FAULT_* attributes, interface 1.22). */
	bool vm_fault;
	uint64_t vm_fault_va;
	uint32_t vm_fault_reason;      /* HSA_AMD_MEMORY_FAULT_* bits */

	struct hl_queue *next;         /* registry (or the unlisted list),
	                                * under rt->queues->lock */
};

/* An unlisted queue (no registry, no error service, no user callback) for
 * the runtime's own use; see queue.c.  -errno. */
int hl_queue_create_unlisted(struct hl_runtime *rt, struct hl_agent *agent, uint32_t size,
			     struct hl_queue **out);
int hl_queue_destroy_unlisted(struct hl_runtime *rt, struct hl_queue *q);
/* The runtime-queue notifier (hsa_amd_runtime_queue_create_register,
 * src/tools): called with every unlisted queue hl_queue_create_unlisted
 * makes, once it works, and the agent it serves.  Setting one while one is
 * set is -EBUSY (ROCr: one per process; here one per runtime, which a
 * process has one of at a time); NULL clears it; -EINVAL without rt. */
typedef void (*hl_queue_notifier_t)(const hsa_queue_t *queue, hsa_agent_t agent, void *data);
int hl_queue_set_notifier(struct hl_runtime *rt, hl_queue_notifier_t fn, void *data);
/* Whether q stopped: the CP wrote an error code into its inactive signal,
 * or (unlisted queues) a GPU fault or reset stopped it.  Lock-free. */
bool hl_queue_stopped(const struct hl_queue *q);
/* How many GPU memory faults and resets on gpu_id the error service has
 * handled in runtime rt.  KFD stops every queue of the GPU on one, so an
 * engine of the runtime that is no hl_queue (an SDMA queue) records the
 * count when it creates its queue and replaces the queue when the count
 * moved.  Lock-free. */
uint32_t hl_queue_gpu_faults(const struct hl_runtime *rt, uint32_t gpu_id);

/* Sets or clears ENABLE_PROFILING in an amd_queue_t's queue_properties
 * (hsa_amd_profiling_set_profiler_enabled, src/copy's blit queues).  A
 * release: a packet published after this call (header release store) is
 * seen by the CP with the bit already set. */
void hl_queue_set_profiling(amd_queue_t *amd, bool enable);

/* The status ROCr reports for a queue_inactive_signal value; *fatal is
 * false for codes the runtime recovers from (one-shot scratch release). */
hsa_status_t hl_queue_error_status(int64_t code, bool *fatal);
/* For the runtime's own engines outside the registry (unlisted queues,
 * SDMA queues), which can fault too: keeps the service, and so the watch
 * on KFD's MEMORY event, running until the matching unhold or the last
 * hsa_shut_down (whose queue teardown drops every hold).  hold takes
 * rt->queues->lock (run it without); unhold never joins the thread (the
 * next reap does), so both may be called with the caller's own locks
 * held. */
int hl_queue_service_hold(struct hl_runtime *rt);
void hl_queue_service_unhold(struct hl_runtime *rt);

/* ---- internal.c: the runtime's internal queue per GPU agent ---- */

/* Invalidates agent's instruction, scalar (K$) and L2 caches with a PM4
 * ACQUIRE_MEM on the agent's internal queue (created on first use), and
 * waits, bounded, for the CP to finish it.  For the loader, after code was
 * written to memory the agent executes from.  0, or -errno with the reason
 * logged: -ENOMEM and the KFD's errno when the queue cannot be made, -EIO
 * when the CP stops the queue, -ETIMEDOUT when it does not answer. */
int hl_queue_code_caches_invalidate(struct hl_runtime *rt, struct hl_agent *agent);

/* ---- the module table's steps (src/modules.c) ---- */

/* hsa_init: hangs the internal queue records off the GPU agents. */
int hl_queue_attach(struct hl_runtime *rt);
/* The last hsa_shut_down: the internal queues, then the queues the
 * application left, the error service and the descriptor pages. */
void hl_queue_teardown(struct hl_runtime *rt);
/* The last hsa_shut_down while calls still work: the counted queues'
 * hardware queues (counted.c) are destroyed. */
void hl_queue_closing(struct hl_runtime *rt);
/* At the fork, in the child: trap.c's process-wide list emptied. */
void hl_queue_fork_child(void);
/* The child's first runtime call: the parent's queues are forgotten
 * without an ioctl. */
void hl_queue_forget(struct hl_runtime *rt);

#endif /* HSALITE_QUEUE_H */
