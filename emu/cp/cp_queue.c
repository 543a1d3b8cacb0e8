/*
 * The packet processor of one AQL queue: what the MEC firmware does for an
 * HQD (HSA spec chapter 2, hsa-abi-and-rocr.md 1.4 and 2.5, queue.h
 * contract 1-3).
 *
 * Fetch.  read_dispatch_id (amd_queue_t + 128, KFD's read pointer) is the
 * next packet; the queue holds work while it is below the write pointer.
 * The doorbell drives it: a doorbell carries the index of the last packet
 * published (SLOT_BASED_WPTR; batches ring it once), so the write pointer
 * is the doorbell + 1 -- the highest doorbell rung so far + 1: on a MULTI
 * queue the doorbell "can be updated with any value" (hsa.h,
 * hsa_queue_t.doorbell_signal), and two producers ring their own indices
 * in whatever order they finish, so a lower value written after a higher
 * one must not take back the higher one's packets (it did: a producer
 * waiting for room behind a packet the CP no longer looked at hung
 * queue_dispatch_stress about one run in five).  write_dispatch_id (KFD's write pointer) is read
 * once when the queue is loaded (by the CREATE_QUEUE and UPDATE_QUEUE
 * hooks, cp_sched.c), as hqd_load's one-shot WPTR poll does
 * (amdgpu_amdkfd_gfx_v9.c), never polled: so packets a producer reserved
 * and published but did not ring for wait for a doorbell, as on the
 * hardware, and the CP reads none of the producers' lines while they
 * reserve and write (a poll of write_dispatch_id would take its cache line
 * away from every reservation).  A doorbell
 * ahead of the published packets is harmless: the CP consumes a slot only
 * once its header type is not INVALID (acquire load of the 16-bit header,
 * pairs with the producer's release store that publishes the packet), so
 * it simply waits there, as SLOT_BASED_WPTR does; for the same reason a
 * write pointer more than a ring ahead cannot make it run stale slots.
 *
 * Lost doorbells.  Keeping the highest value is not enough: B rings 11,
 * then A, late, rings 10, and the hardware's doorbell logic sees both
 * stores, but a poll of the word sees only the last one and may never see
 * B's 11 (the CP thread descheduled meanwhile, as under load).  A late
 * value below what was already fetched shows itself (the fetch then goes
 * on over valid headers, kemu_cp_queue_service), but one the CP had not
 * reached yet does not: it fetches up to it and stops, "caught up".  With
 * the ring full and both producers waiting for room, nobody rings again
 * and the queue hangs with published packets.  So when the poll sees a new doorbell
 * value it also reads write_dispatch_id once: every index rung for so far
 * is below it.  Reserved packets not yet published in that range stop the
 * fetch at their INVALID header, as a doorbell ahead does; the cost is that
 * a packet published but not yet rung for may run on another producer's
 * doorbell, which the HSA protocol allows (its header is valid).  No
 * doorbell, no fetch: write_dispatch_id is read only on a doorbell change.
 *
 * Ordering.  Packets run to completion one at a time, in order, so the
 * barrier bit (wait for every earlier packet of the queue) always holds;
 * the header is decoded anyway and bad types are rejected.  An acquire
 * fence scope other than NONE is a seq_cst fence before the packet runs
 * (the cache invalidate); a release scope other than NONE is a seq_cst
 * fence before the completion signal is written (the cache writeback), in
 * addition to the release order of the signal update itself.
 *
 * Retire.  When a packet is done and its body no longer needed (a kernel
 * reads its dispatch packet through the dispatch pointer until it ends),
 * the header type is reset to INVALID and read_dispatch_id advanced
 * (release: pairs with the producer's acquire load of the read index
 * before it reuses the slot), then the completion signal is retired
 * (cp_report.c).  With ENABLE_PROFILING, start_ts is read the moment the
 * packet's header is seen valid (for a barrier that waits: when the CP first
 * found it), and end_ts the moment before the completion signal's value is
 * written (cp_report.c), so pickup (doorbell to start_ts), execution (start_ts
 * to end_ts) and wake-up (end_ts to the waiter's return) can be told apart.
 *
 * Errors stop the queue with read_dispatch_id left at the offending packet:
 * AGENT_DISPATCH (the CP does not execute it; ROCr does not advertise the
 * feature) and unknown types -> 0x20, a vendor packet other than AMD
 * PM4-IB (cp_pm4.c) and BARRIER_VALUE -> 0x100, a BARRIER_VALUE with an unknown condition -> 0x20,
 * dispatch errors in cp_dispatch.c.  A GPU page fault on the ring, the
 * amd_queue_t or a signal is reported to the driver, which evicts the
 * process's queues (cp_report.c).
 */
#define _GNU_SOURCE
#include <string.h>
#include <time.h>

#include "cp_priv.h"

int kemu_cp_queue_attach(struct kemu_cp_queue *q)
{
	/* the CP finds amd_queue_t from the rptr address it was given and the
	 * read_dispatch_id_field_base_byte_offset next to it (ROCr sets 128) */
	struct kemu_vm_fault_info f;
	uint32_t *base_off = kemu_cp_map(q, q->rptr_va + 8, 4, KEMU_ACCESS_READ, &f);
	if (!base_off) {
		kemu_cp_queue_fault(q, &f, "amd_queue_t.read_dispatch_id_field_base_byte_offset");
		return -1;
	}
	uint32_t off = *base_off;
	if (off != KEMU_CP_AQ_READ_ID)
		off = KEMU_CP_AQ_READ_ID; /* nothing else is a valid layout */
	q->amd_va = q->rptr_va - off;
	if (kemu_cp_load64(q, q->rptr_va, &q->rptr, &f)) {
		kemu_cp_queue_fault(q, &f, "read_dispatch_id");
		return -1;
	}
	q->attached = true;
	return 0;
}

/* Header INVALID and read index + 1: the slot is the producer's again. */
static void packet_consume(struct kemu_cp_queue *q, _Atomic uint16_t *hdr, uint16_t header)
{
	/* release: pairs with the producer's acquire load of the header when
	 * it checks the slot is free (and orders the reset before the index) */
	atomic_store_explicit(hdr, (uint16_t)((header & ~0xFFu) | KEMU_CP_PKT_INVALID),
			      memory_order_release);
	q->rptr++;
	struct kemu_vm_fault_info f;
	_Atomic uint64_t *rp = kemu_cp_map(q, q->rptr_va, 8, KEMU_ACCESS_WRITE, &f);
	if (!rp) {
		kemu_cp_queue_fault(q, &f, "read_dispatch_id");
		return;
	}
	/* release: pairs with the producer's acquire load of read_dispatch_id
	 * (hsa_queue_load_read_index_scacquire) before it reuses the slot */
	atomic_store_explicit(rp, q->rptr, memory_order_release);
}

static bool queue_profiling(struct kemu_cp_queue *q)
{
	_Atomic uint32_t *props = kemu_cp_map(q, q->amd_va + KEMU_CP_AQ_PROPERTIES, 4,
					      KEMU_ACCESS_READ, NULL);
	/* relaxed: a mode bit the runtime toggles between dispatches
	 * (hsa_amd_profiling_set_profiler_enabled); nothing is published by it */
	return props && (atomic_load_explicit(props, memory_order_relaxed) &
			 KEMU_CP_AQ_PROFILING_BIT);
}

/* Retire a packet that is done: consume, then the completion signal (and
 * its end_ts, cp_report.c). */
static int packet_retire(struct kemu_cp_queue *q, _Atomic uint16_t *hdr, uint16_t header,
			 const uint8_t *pkt, bool profiling, uint64_t start_ts)
{
	uint64_t signal;
	memcpy(&signal, pkt + 56, 8);
	packet_consume(q, hdr, header);
	if (atomic_load_explicit(&q->hw.stopped, memory_order_relaxed))
		return -1;
	if (KEMU_CP_HDR_RELEASE(header))
		atomic_thread_fence(memory_order_seq_cst); /* the release fence scope */
	/* the packet completed: the driver's HDP model hears it before the
	 * completion signal tells the CPU */
	const struct kemu_gpu_ops *ops = q->hw.vm.ops;
	if (ops->hdp_packet_done && q->hdp_index)
		ops->hdp_packet_done(q->hw.vm.p, q->hw.vm.gpu_id, q->hw.hq->info.doorbell_index,
				     q->hdp_index - 1, q->hdp_token);
	q->hdp_index = 0;
	return kemu_cp_signal_complete(q, signal, start_ts, profiling);
}

/* start_ts of a packet, read as soon as its header is seen valid: now, or
 * for a barrier that waited, when it was first seen.  The clock is read
 * only for a profiling queue (a read costs as much as a barrier packet's
 * whole processing). */
static uint64_t packet_start(struct kemu_cp_queue *q, bool profiling)
{
	if (!profiling)
		return 0;
	if (q->wait_start_ts > 1 && q->wait_index == q->rptr)
		return q->wait_start_ts - 1;
	return kemu_cp_gpu_clock(q->cp);
}

/* The packet at rptr waits (a barrier's dependency): remember when it was
 * first seen (start + 1; 1 when not profiling: only "waiting"). */
static void packet_waits(struct kemu_cp_queue *q, uint64_t start)
{
	if (!q->wait_start_ts || q->wait_index != q->rptr) {
		q->wait_index = q->rptr;
		q->wait_start_ts = start + 1;
	}
}

/* One packet at q->rptr.  Returns 1 if it retired, 0 if the queue must
 * wait (not published, dependency pending), 2 if its dispatch was
 * preempted with its context saved (the round ends: the HWS unmaps the
 * queue), -1 if the queue stopped. */
static int packet_process(struct kemu_cp_queue *q, uint64_t ring_base, uint32_t ring_slots)
{
	struct kemu_vm_fault_info f;
	uint64_t slot_va = ring_base + (q->rptr % ring_slots) * 64;
	uint8_t *slot = kemu_cp_map(q, slot_va, 64, KEMU_ACCESS_READ | KEMU_ACCESS_WRITE, &f);
	if (!slot) {
		kemu_cp_queue_fault(q, &f, "AQL ring");
		return -1;
	}
	_Atomic uint16_t *hdr = (_Atomic uint16_t *)slot;
	/* acquire: pairs with the producer's release store of the header that
	 * publishes the packet body */
	uint16_t header = atomic_load_explicit(hdr, memory_order_acquire);
	unsigned type = header & 0xFF;
	if (type == KEMU_CP_PKT_INVALID)
		return 0;
	if (!q->wait_start_ts || q->wait_index != q->rptr)
		kemu_cp_sched_busy(q->cp); /* a new packet, not a waiting barrier */
	if (q->hdp_index != q->rptr + 1) {
		/* first fetch of this packet: the doorbell stores it follows */
		const struct kemu_gpu_ops *ops = q->hw.vm.ops;
		q->hdp_token = ops->hdp_packet_fetched
				       ? ops->hdp_packet_fetched(q->hw.vm.p, q->hw.vm.gpu_id,
								 q->hw.hq->info.doorbell_index,
								 q->rptr)
				       : 0;
		q->hdp_index = q->rptr + 1;
	}
	bool profiling = queue_profiling(q);
	uint64_t start = packet_start(q, profiling); /* the pickup */
	uint8_t pkt[64];
	memcpy(pkt, slot, sizeof(pkt));
	if (KEMU_CP_HDR_ACQUIRE(header))
		atomic_thread_fence(memory_order_seq_cst); /* the acquire fence scope */
	enum kemu_cp_wait w;
	switch (type) {
	case KEMU_CP_PKT_DISPATCH: {
		int d = kemu_cp_dispatch(q, pkt, slot_va, q->rptr);
		if (d > 0)
			return 2; /* preempted, context saved: resumes next round */
		if (d)
			return -1;
	}
		return packet_retire(q, hdr, header, pkt, profiling, start) ? -1 : 1;
	case KEMU_CP_PKT_BARRIER_AND:
	case KEMU_CP_PKT_BARRIER_OR:
		w = kemu_cp_barrier_ready(q, pkt, type);
		break;
	case KEMU_CP_PKT_VENDOR:
		if (pkt[2] == KEMU_CP_AMD_FORMAT_PM4_IB) {
			if (kemu_cp_pm4_ib(q, pkt))
				return -1;
			return packet_retire(q, hdr, header, pkt, profiling, start) ? -1 : 1;
		}
		if (pkt[2] != KEMU_CP_AMD_FORMAT_BARRIER_VALUE) {
			kemu_cp_queue_error(q, KEMU_CP_ERR_VENDOR_PACKET, "unsupported vendor packet");
			return -1;
		}
		uint32_t cond;
		memcpy(&cond, pkt + 32, 4);
		if (cond > 3) {
			kemu_cp_queue_error(q, KEMU_CP_ERR_PACKET, "BARRIER_VALUE condition");
			return -1;
		}
		w = kemu_cp_barrier_value_ready(q, pkt);
		break;
	default: /* AGENT_DISPATCH and reserved types */
		kemu_cp_queue_error(q, KEMU_CP_ERR_PACKET, type == KEMU_CP_PKT_AGENT
				    ? "AGENT_DISPATCH packet on a GPU queue" : "bad packet type");
		return -1;
	}
	if (w == KEMU_CP_WAIT_FAULT)
		return -1;
	if (w == KEMU_CP_WAIT_BLOCKED) {
		packet_waits(q, start);
		return 0;
	}
	return packet_retire(q, hdr, header, pkt, profiling, start) ? -1 : 1;
}

/* A doorbell value the fetch had not seen (~0: not rung): the write pointer
 * moves to the packet it names, never back, and to write_dispatch_id as it
 * is now, which covers every index rung for before this doorbell, the
 * stores the poll never saw included (see Lost doorbells above). */
static void queue_rung(struct kemu_cp_queue *q, uint64_t db)
{
	q->db_last = db;
	if (db == UINT64_MAX)
		return;
	uint64_t end = db + 1;
	uint64_t wdi;
	if (!kemu_cp_load64(q, q->amd_va + KEMU_CP_AQ_WRITE_ID, &wdi, NULL) && wdi > end)
		end = wdi;
	if (end > q->db_end)
		q->db_end = end;
}

enum kemu_cp_progress kemu_cp_queue_service(struct kemu_cp_queue *q, uint64_t ring_base,
					     uint32_t ring_slots)
{
	/* a queue stopped for scratch resumes when its runtime says so; any
	 * other stop is final */
	if (q->scratch_wait && !kemu_cp_dispatch_scratch_resumed(q))
		return KEMU_CP_IDLE;
	if (atomic_load_explicit(&q->hw.stopped, memory_order_relaxed))
		return KEMU_CP_IDLE;
	if (!q->attached && kemu_cp_queue_attach(q))
		return KEMU_CP_IDLE;
	uint64_t t0 = 0;
	unsigned done = 0;
	/* acquire: pairs with the hooks' release store of preempt (update,
	 * destroy), which then wait for this thread to let the queue go */
	while (!atomic_load_explicit(&q->hw.preempt, memory_order_acquire)) {
		/* acquire: pairs with the producer's release store of the
		 * doorbell (after its packets were published) */
		uint64_t db = atomic_load_explicit(q->hw.doorbell, memory_order_acquire);
		/* the highest value rung (~0: not rung): two producers of a
		 * MULTI queue ring their own indices in any order.  The
		 * hardware's doorbell sees every write; this word is polled,
		 * so a higher value overwritten by a late lower one before a
		 * poll is missed.  A new value below what was already
		 * fetched is such a late ring: the higher ones it hid were
		 * rung after their packets were published, so the fetch goes
		 * on while headers are valid (up to a ring's worth).  (A
		 * doorbell naming the packet just fetched, rptr - 1, is the
		 * ordinary caught-up state, not a late ring.) */
		if (db != UINT64_MAX && db + 1 > q->db_end)
			q->db_end = db + 1;
		else if (db != UINT64_MAX && db != q->db_seen && db + 1 < q->rptr &&
			 q->rptr + ring_slots > q->db_end)
			q->db_end = q->rptr + ring_slots;
		/* a late ring that is not below the read index hides the
		 * higher ones just as well (the fetch stops at it, "caught
		 * up"): each new value also reads write_dispatch_id
		 * (queue_rung) */
		if (db != q->db_last)
			queue_rung(q, db);
		uint64_t end = q->wptr_polled > q->db_end ? q->wptr_polled : q->db_end;
		if (end <= q->rptr) {
			q->db_seen = db; /* what the idle watch compares with */
			break;
		}
		int r = packet_process(q, ring_base, ring_slots);
		if (r == 2) {
			done++; /* progress, and the slot goes to the others */
			break;
		}
		if (r <= 0)
			break;
		/* the quantum runs from the first packet: an idle poll reads
		 * no clock */
		if (!done++)
			t0 = kemu_gpu_now_ns();
		if (done >= KEMU_CP_QUANTUM_PACKETS ||
		    (done % 4 == 0 && kemu_gpu_now_ns() - t0 >= KEMU_CP_QUANTUM_NS))
			break;
	}
	return done ? KEMU_CP_PROGRESS : KEMU_CP_IDLE;
}
