/*
 * AQL queues: the public face of src/queue, what the modules above it
 * (loader, copy, image) may use.  The registry, the descriptor page pool,
 * the error service and the CP contract are private (queue_priv.h).
 *
 * The runtime's own engines (src/copy's blit queues) drive an unlisted
 * queue themselves: they own the struct hl_queue they created and read its
 * ring, amd_queue_t, doorbell and inactive signal, which never change
 * while it lives; everything else in it is the queue module's.
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

struct hl_queue_page;

/* Not a CP code (those are private, queue_priv.h): the error service ORs it
 * into an unlisted queue's inactive signal when a GPU memory fault or reset
 * on its GPU stopped it (KFD evicted the device's queues; the CP writes
 * nothing then).  A waiter on the signal wakes; the queue's owner sees it
 * stopped and replaces it. */
#define HL_QUEUE_ERR_FAULT_STOPPED    (1ull << 62)

typedef void (*hl_queue_callback_t)(hsa_status_t status, hsa_queue_t *source, void *data);

struct hl_queue {
	amd_queue_t *amd;              /* at offset 0 of page->mem */
	struct hl_queue_page *page;
	struct hl_agent *agent;
	uint32_t gpu_id;
	uint32_t queue_id;             /* KFD's; valid when created */
	bool created;                  /* the KFD queue exists */
	uint32_t coop_refs;            /* COOPERATIVE: creates not yet destroyed
	                                * (the one GWS queue of its agent is
	                                * shared); 0 otherwise.  Under
	                                * hl_queues.lock */
	struct kfd_mem *ring_mem;
	struct kfd_mem *eop_mem;
	struct kfd_mem *cwsr_mem;
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

	/* Control state, under hl_queues.lock (control.c). */
	uint32_t priority;             /* KFD 0..15 */
	bool suspended;                /* UPDATE_QUEUE percentage 0 was issued */
	uint32_t cu_mask[HL_QUEUE_CU_MASK_WORDS];
	uint32_t cu_mask_words;

	/* Error state, under hl_queues.lock (errors.c). */
	bool error_reported;           /* the callback (or log) has run */
	hsa_status_t pending_fault;    /* a VM fault / reset to report, or 0 */

	struct hl_queue *next;         /* registry (or the unlisted list),
	                                * under hl_queues.lock */
};

/* An unlisted queue (no registry, no error service, no user callback) for
 * the runtime's own use; see queue.c.  -errno. */
int hl_queue_create_unlisted(struct hl_runtime *rt, struct hl_agent *agent, uint32_t size,
			     struct hl_queue **out);
int hl_queue_destroy_unlisted(struct hl_runtime *rt, struct hl_queue *q);
/* Whether q stopped: the CP wrote an error code into its inactive signal,
 * or (unlisted queues) a GPU fault or reset stopped it.  Lock-free. */
bool hl_queue_stopped(const struct hl_queue *q);
/* How many GPU memory faults and resets on gpu_id the error service has
 * handled in this process.  KFD stops every queue of the GPU on one, so an
 * engine of the runtime that is no hl_queue (an SDMA queue) records the
 * count when it creates its queue and replaces the queue when the count
 * moved.  Lock-free. */
uint32_t hl_queue_gpu_faults(uint32_t gpu_id);

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
 * hsa_shut_down (whose queue teardown drops every hold).  hold binds the
 * module to rt (hl_queues_attach: run it without hl_queues.lock); unhold
 * never joins the thread (the next reap does), so both may be called
 * with the caller's own locks held. */
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

#endif /* HSALITE_QUEUE_H */
