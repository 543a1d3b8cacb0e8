/*
 * The runtime's internal queue per GPU agent, and the one job it has so far:
 * invalidating the agent's code caches after the loader wrote code.
 *
 * Why: the SQ's instruction cache, the scalar (K$) cache and L2 may hold
 * lines of memory that held other code before (a freed and recycled code
 * allocation).  ROCr (GpuAgent::InvalidateCodeCaches, 5.2.3) submits, on
 * its internal utility queue, an AMD vendor AQL packet of format PM4-IB
 * whose indirect buffer holds one PM4 ACQUIRE_MEM with CP_COHER_CNTL =
 * 0x28840000 (SH_ICACHE_ACTION_ENA bit 29, SH_KCACHE_ACTION_ENA 27,
 * TC_ACTION_ENA 23, TC_WB_ACTION_ENA 18: observed on kfdemu from Debian's
 * ROCr 5.2.3), and waits for its completion signal.  We send the same.
 *
 * The packet (gfx9+ layout, AqlQueue::ExecutePM4; emu/cp/cp_pm4.c accepts
 * it): u16 HSA header (VENDOR_SPECIFIC, barrier, system acquire and release
 * scopes), u8 AmdFormat = 1 (PM4-IB) and a reserved byte, at byte 4 the
 * four dwords of a PM4 INDIRECT_BUFFER (type-3 header, base bits 31:2,
 * base bits 47:32, size in dwords | VALID bit 23), at byte 20
 * dw_cnt_remain = 10 (the dwords of the slot after the command), the
 * completion signal at byte 56.  The gfx9 ACQUIRE_MEM body is CP_COHER_CNTL,
 * COHER_SIZE (0xFFFFFFFF), COHER_SIZE_HI (0xFFFFFF), COHER_BASE (0),
 * COHER_BASE_HI (0), POLL_INTERVAL (0xA), as amdgpu's gfx_v9_0_emit_mem_sync.
 * gfx10+ replaced CP_COHER_CNTL with GCR_CNTL in another packet layout,
 * which nothing here can test; those agents are skipped with a warning.
 *
 * Lifetime: one queue per GPU agent, created on first need (16 packets, no
 * scratch, unlisted: no public call accepts it, the error service does not
 * watch it), its 1 KiB ring an object of the shared pages its descriptor
 * slot comes from too (buffers.c: no BO of its own), with its indirect
 * buffer after the amd_queue_t in the queue's own descriptor slot (host
 * memory mapped to the GPUs, coherent, so the CPU's writes need no flush
 * before the CP reads them; executable, as ROCr's separate buffer), and a
 * completion signal with a KFD event for
 * each packet (made before it, destroyed once it is done).  The record
 * hangs off the agent (agent->iq, built when the module attaches); the
 * queue goes at the last hsa_shut_down (the queue module's
 * teardown step, before it frees the queues and the signal module its
 * slabs), or when the queue fails: a queue the CP stopped, one a GPU fault
 * or reset stopped (marked by the error service, even between uses), or one
 * that did not answer in time, is destroyed (DESTROY_QUEUE preempts whatever
 * it still holds) and the next invalidate makes a new one.
 *
 * Locking: one mutex (rt->queues->iq_lock, the runtime's: a new runtime
 * or a fork child starts with a fresh one) serialises every use of every internal
 * queue and guards the table; submissions are rare (one per executable
 * freeze and agent), so one lock is simpler than one per agent.  Taken
 * under the loader's lock; it takes rt->queues->lock and the signal
 * module's locks inside (queue creation), never the other way round.
 * A fork child drops the parent's records without an ioctl (their memory
 * belongs to the parent's /dev/kfd): the module table's forget step.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "queue/queue_priv.h"
#include "runtime/status.h"
#include "util/barrier.h"
#include "util/log.h"

/* The CP's smallest ring (1 KiB): one packet is in flight at a time
 * (iq_lock, and each use waits for its packet), and a ring under a page
 * needs no BO of its own (buffers.c). */
#define IQ_PACKETS      16u
/* The IB: the rest of the queue's own descriptor slot, after its
 * amd_queue_t (that slot is host memory mapped on every GPU, and only this
 * queue uses it until DESTROY_QUEUE), instead of a BO of its own: one
 * ALLOC+MAP and UNMAP+FREE less per GPU for 7 dwords. */
#define IQ_IB_OFFSET    ((uint32_t)sizeof(amd_queue_t))
#define IQ_IB_BYTES     (HL_QUEUE_SLOT_BYTES - IQ_IB_OFFSET)
_Static_assert(sizeof(amd_queue_t) % 4 == 0, "the IB is dword aligned");
_Static_assert(IQ_IB_BYTES >= 7 * 4, "the ACQUIRE_MEM fits the slot");
/* How long the CP may take for one invalidate before the load fails.
 * Generous: on kfdemu under ASan and a loaded host a round trip is
 * milliseconds; on hardware, microseconds. */
#define IQ_TIMEOUT_NS   (10ull * 1000 * 1000 * 1000)

#define PM4_TYPE3_HDR(op, body_dw) (3u << 30 | ((body_dw) - 1u) << 16 | (op) << 8)
#define PM4_INDIRECT_BUFFER     0x3Fu
#define PM4_ACQUIRE_MEM         0x58u
#define PM4_IB_VALID            (1u << 23)
#define COHER_SH_ICACHE_ACTION  (1u << 29)
#define COHER_SH_KCACHE_ACTION  (1u << 27)
#define COHER_TC_ACTION         (1u << 23)
#define COHER_TC_WB_ACTION      (1u << 18)
#define AMD_AQL_FORMAT_PM4_IB   1u
#define PM4_IB_DW_CNT_REMAIN    10u

/* The packet's byte layout (see the file comment); static-asserted so a
 * slip cannot send the CP a malformed command. */
struct iq_pm4_ib_packet {
	uint16_t header;
	uint8_t amd_format;
	uint8_t reserved0;
	uint32_t ib_jump_cmd[4];
	uint32_t dw_cnt_remain;
	uint32_t reserved1[8];
	hsa_signal_t completion_signal;
};
_Static_assert(sizeof(struct iq_pm4_ib_packet) == 64, "one AQL slot");
_Static_assert(offsetof(struct iq_pm4_ib_packet, amd_format) == 2, "AmdFormat at byte 2");
_Static_assert(offsetof(struct iq_pm4_ib_packet, ib_jump_cmd) == 4, "IB command at byte 4");
_Static_assert(offsetof(struct iq_pm4_ib_packet, dw_cnt_remain) == 20, "dw_cnt_remain at 20");
_Static_assert(offsetof(struct iq_pm4_ib_packet, completion_signal) == 56, "signal at 56");

/* One GPU agent's internal queue (agent->iq, built when the module
 * attaches, freed at teardown). */
struct hl_iq {
	struct hl_queue *q;            /* NULL until first use, or after a failure */
	uint32_t *ib;                  /* the indirect buffer, in q's slot */
	hsa_signal_t done;             /* completion signal, handle 0 when none */
};

/* Frees what e holds (any partial state).  Caller holds iq_lock. */
static void iq_release(struct hl_runtime *rt, struct hl_iq *e)
{
	if (e->q) {
		int err = hl_queue_destroy_unlisted(rt, e->q);
		e->q = NULL;
		if (err) {
			/* The CP may still read the queue, its IB and its
			 * signal: keep them all (the signal module's teardown
			 * and the process's close release them). */
			hl_error(QUEUE_LOG, "internal queue: destroy: %s; its buffers are kept",
				 hl_errno_name(err));
			e->done.handle = 0;
			e->ib = NULL; /* in the slot the queue module keeps */
			return;
		}
	}
	if (e->done.handle)
		hl_signal_destroy(e->done);
	e->done.handle = 0;
	e->ib = NULL; /* went with the queue's slot */
}

int hl_queue_internal_attach(struct hl_runtime *rt)
{
	for (uint32_t i = 0; i < rt->n_agents; i++) {
		struct hl_agent *a = &rt->agents[i];
		if (!hl_agent_is_gpu(a))
			continue;
		a->iq = calloc(1, sizeof(*a->iq));
		if (!a->iq)
			return -ENOMEM; /* the teardown frees the others */
	}
	return 0;
}

/* The last hsa_shut_down (hl_runtime_lock held, rt withdrawn), before the
 * queue module frees the queue pages. */
void hl_queue_internal_teardown(struct hl_runtime *rt)
{
	pthread_mutex_lock(&rt->queues->iq_lock);
	for (uint32_t i = 0; i < rt->n_agents; i++) {
		struct hl_agent *a = &rt->agents[i];
		if (a->iq)
			iq_release(rt, a->iq);
		free(a->iq);
		a->iq = NULL;
	}
	pthread_mutex_unlock(&rt->queues->iq_lock);
}

/* The parent's runtime in a fork child: forget it without a single ioctl.
 * No lock: the runtime is unreachable and the child has one thread. */
void hl_queue_internal_forget(struct hl_runtime *rt)
{
	for (uint32_t i = 0; i < rt->n_agents; i++) {
		free(rt->agents[i].iq);
		rt->agents[i].iq = NULL;
	}
}

static int iq_create(struct hl_runtime *rt, struct hl_agent *agent, struct hl_iq *e)
{
	int err = hl_queue_create_unlisted(rt, agent, IQ_PACKETS, &e->q);
	if (err) {
		e->q = NULL;
		hl_error(QUEUE_LOG, "internal queue on %s: %s", agent->name, hl_errno_name(err));
		return err;
	}
	e->ib = (uint32_t *)((char *)e->q->slot->addr + IQ_IB_OFFSET);
	hl_debug(QUEUE_LOG, "internal queue %llu on %s (KFD queue %u)",
		 (unsigned long long)e->q->amd->hsa_queue.id, agent->name, e->q->queue_id);
	return 0;
}

/* Writes the ACQUIRE_MEM into the IB and the PM4-IB packet into the next
 * slot, publishes it and rings the doorbell.  Returns the packet's index.
 * We are the queue's only producer (iq_lock), and every earlier packet has
 * completed (we waited for it, or destroyed the queue), so the slot is
 * free. */
static uint64_t iq_submit(struct hl_iq *e)
{
	amd_queue_t *amd = e->q->amd;
	uint32_t *ib = e->ib;
	uint32_t n = 0;
	ib[n++] = PM4_TYPE3_HDR(PM4_ACQUIRE_MEM, 6);
	ib[n++] = COHER_SH_ICACHE_ACTION | COHER_SH_KCACHE_ACTION | COHER_TC_ACTION |
		  COHER_TC_WB_ACTION;               /* CP_COHER_CNTL = 0x28840000 */
	ib[n++] = 0xFFFFFFFFu;                      /* CP_COHER_SIZE: all memory */
	ib[n++] = 0x00FFFFFFu;                      /* CP_COHER_SIZE_HI */
	ib[n++] = 0;                                /* CP_COHER_BASE */
	ib[n++] = 0;                                /* CP_COHER_BASE_HI */
	ib[n++] = 0xAu;                             /* POLL_INTERVAL */

	/* the handle is the amd_signal_t's address (the ABI HIP relies on);
	 * relaxed: the header's release store below publishes the value */
	amd_signal_t *done = (amd_signal_t *)(uintptr_t)e->done.handle;
	atomic_store_explicit(hl_signal_value(done), 1, memory_order_relaxed);
	_Atomic uint64_t *wptr = (_Atomic uint64_t *)(uintptr_t)&amd->write_dispatch_id;
	uint64_t index = atomic_load_explicit(wptr, memory_order_relaxed);
	struct iq_pm4_ib_packet *slot =
		(void *)((char *)e->q->ring + (index % IQ_PACKETS) * 64);
	uint64_t base = (uint64_t)(uintptr_t)ib;
	slot->amd_format = AMD_AQL_FORMAT_PM4_IB;
	slot->reserved0 = 0;
	slot->ib_jump_cmd[0] = PM4_TYPE3_HDR(PM4_INDIRECT_BUFFER, 3);
	slot->ib_jump_cmd[1] = (uint32_t)base & ~3u;
	slot->ib_jump_cmd[2] = (uint32_t)(base >> 32) & 0xFFFFu;
	slot->ib_jump_cmd[3] = n | PM4_IB_VALID;
	slot->dw_cnt_remain = PM4_IB_DW_CNT_REMAIN;
	memset(slot->reserved1, 0, sizeof(slot->reserved1));
	slot->completion_signal = e->done;
	/* relaxed: hl_doorbell_store64 (SFENCE, release store) orders it
	 * before the CP reads the write index; the CP never reads it before
	 * the doorbell */
	atomic_store_explicit(wptr, index + 1, memory_order_relaxed);
	uint16_t header = HSA_PACKET_TYPE_VENDOR_SPECIFIC << HSA_PACKET_HEADER_TYPE |
			  1u << HSA_PACKET_HEADER_BARRIER |
			  HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE |
			  HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE;
	/* release: pairs with the CP's acquire load of the header (contract 1
	 * in queue.h); the IB, the body and the code the loader wrote before
	 * this call are visible to a CP that sees the valid header */
	atomic_store_explicit((_Atomic uint16_t *)&slot->header, header, memory_order_release);
	hl_doorbell_store64((_Atomic uint64_t *)e->q->doorbell, index);
	return index;
}

/* Waits for the packet: 0 when its completion signal reached 0; -EIO when
 * the CP stopped the queue (code in the inactive signal); -ETIMEDOUT. */
static int iq_wait(struct hl_iq *e, const struct hl_agent *agent)
{
	hsa_signal_t sigs[2] = { e->done, e->q->inactive_signal };
	hsa_signal_condition_t conds[2] = { HSA_SIGNAL_CONDITION_EQ, HSA_SIGNAL_CONDITION_NE };
	int64_t values[2] = { 0, 0 }, v = 0;
	uint32_t which = hl_signal_wait_any(2, sigs, conds, values, IQ_TIMEOUT_NS,
					    HSA_WAIT_STATE_BLOCKED, &v);
	/* acquire: pairs with the CP's release decrement of the completion
	 * signal (or its release OR of the error code), so what the packet
	 * did is seen by whatever the loader does next */
	hl_fence_acquire();
	if (which == 0)
		return 0;
	if (which == 1) {
		bool fatal;
		hsa_status_t st = hl_queue_error_status(v, &fatal);
		if ((uint64_t)v & HL_QUEUE_ERR_FAULT_STOPPED)
			hl_error(QUEUE_LOG, "internal queue on %s: a GPU fault or reset stopped it "
				 "during the cache-invalidate packet", agent->name);
		else
			hl_error(QUEUE_LOG, "internal queue on %s: the CP stopped it with code "
				 "%#llx (%s) on the cache-invalidate packet", agent->name,
				 (unsigned long long)v, hl_status_name(st));
		return -EIO;
	}
	hl_error(QUEUE_LOG, "internal queue on %s: the cache-invalidate packet did not complete "
		 "in %llu ms (read index %llu); the queue is dropped", agent->name,
		 (unsigned long long)(IQ_TIMEOUT_NS / 1000000),
		 (unsigned long long)atomic_load_explicit(
			 (_Atomic uint64_t *)(uintptr_t)&e->q->amd->read_dispatch_id,
			 memory_order_relaxed));
	return -ETIMEDOUT;
}

int hl_queue_code_caches_invalidate(struct hl_runtime *rt, struct hl_agent *agent)
{
	if (!rt || !hl_agent_is_gpu(agent) || agent < rt->agents || agent >= rt->agents + rt->n_agents)
		return -EINVAL;
	pthread_mutex_lock(&rt->queues->iq_lock);
	int err = 0;
	if (agent->gfx_major != 9) {
		if (!rt->queues->iq_warned_gfx)
			hl_warn(QUEUE_LOG, "%s: code caches are not invalidated after loads on "
				"gfx%u (only the gfx9 ACQUIRE_MEM is implemented)", agent->name,
				agent->gfx_major);
		rt->queues->iq_warned_gfx = true;
		goto out_unlock;
	}
	struct hl_iq *e = agent->iq;
	if (!e) {
		err = -EINVAL; /* not a GPU agent of rt's (attach built them all) */
		goto out_unlock;
	}
	if (e->q && hl_queue_stopped(e->q)) {
		/* A GPU fault or reset stopped it since its last use (errors.c
		 * marks it): a fresh queue, not a 10 s wait for nothing. */
		hl_warn(QUEUE_LOG, "internal queue on %s was stopped (GPU fault or reset); "
			"replacing it", agent->name);
		iq_release(rt, e);
	}
	if (!e->q) {
		err = iq_create(rt, agent, e);
		if (err)
			goto out_unlock;
	}
	/* The completion signal lives for one packet: its KFD event goes back
	 * to src/signal's pool as soon as the packet is done, where the
	 * program's next signal takes it instead of a CREATE_EVENT (and the
	 * process's last hsa_shut_down a DESTROY_EVENT fewer).  A late
	 * interrupt for it costs that signal's waiter one spurious wake (the
	 * pool's contract). */
	err = hl_signal_create(rt, 0, true, true, &e->done);
	if (err) {
		e->done.handle = 0;
		hl_error(QUEUE_LOG, "internal queue on %s: completion signal: %s", agent->name,
			 hl_errno_name(err));
		goto out_unlock;
	}
	iq_submit(e);
	err = iq_wait(e, agent);
	if (err) {
		iq_release(rt, e); /* a stopped or silent queue is not reused */
	} else {
		hl_signal_destroy(e->done);
		e->done.handle = 0;
	}
out_unlock:
	pthread_mutex_unlock(&rt->queues->iq_lock);
	return err;
}
