/*
 * One SDMA RLC queue: the packet fetch of the engine.
 *
 * Ring protocol (gfx9 user-mode SDMA queues, as amdkfd programs the RLC
 * queue from the MQD in kfd_mqd_manager_v9.c and ROCr 5.2.3's BlitSdmaV4
 * drives it): the ring is ring_size bytes (a power of two) at ring_base;
 * the read and write pointers are 64-bit BYTE offsets that only grow
 * (HwIndexMonotonic), the ring position being pointer & (ring_size - 1).
 * The producer writes its packets, stores the new write pointer to
 * write_pointer_address, then (release) the same value to the queue's
 * 64-bit doorbell.  The engine takes the doorbell value as its write
 * pointer (the doorbell drives the fetch, as on the CP); the value at
 * write_pointer_address is read once when the queue is loaded (CREATE and
 * UPDATE_QUEUE: hqd_sdma_load reads the user's wptr once), so a queue
 * loaded with packets already written starts on them.  After each packet
 * the engine writes its read pointer back to read_pointer_address (64-bit,
 * release: the producer may then reuse the bytes; RPTR_WRITEBACK_ENABLE in
 * the MQD's RB_CNTL), which ROCr reads to find free ring space.
 *
 * Packets may straddle the end of the ring (the position wraps dword by
 * dword; ROCr pads to the end with NOP dwords instead, which this also
 * executes).  A packet whose dwords are not all below the write pointer
 * yet waits for more.  A write pointer more than ring_size ahead of the
 * read pointer (or behind it), an unknown opcode, or a packet this model
 * does not execute stops the queue with a log line naming the packet; the
 * process and its other queues go on (on hardware the engine would raise
 * an illegal-command interrupt and the driver would reset it).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#include "sdma_priv.h"

void kemu_sdma_queue_error(struct kemu_sdma_queue *q, const char *fmt, ...)
{
	char what[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	atomic_store_explicit(&q->hw.stopped, true, memory_order_relaxed);
	kemu_gpu_warn(q->eng->unit.log_level, "SDMA: gpu 0x%x engine %u queue %u stopped at rptr 0x%llx: %s",
		  q->hw.gpu_id, q->eng->engine_id, q->hw.queue_id, (unsigned long long)q->rptr, what);
}

void kemu_sdma_queue_fault(struct kemu_sdma_queue *q, const struct kemu_vm_fault_info *f,
			   const char *what)
{
	kemu_gpu_warn(q->eng->unit.log_level, "SDMA: gpu 0x%x engine %u queue %u: GPU page fault at 0x%llx (%s)%s",
		  q->hw.gpu_id, q->eng->engine_id, q->hw.queue_id, (unsigned long long)f->va, what,
		  f->read_only ? ", write to read-only page" : "");
	atomic_store_explicit(&q->hw.stopped, true, memory_order_relaxed);
	/* kfd_int_process_v9: the driver's IH evicts every queue of the
	 * process on the device (kfd_dqm_evict_pasid), then signals the fault */
	q->hw.vm.ops->vm_fault(q->hw.vm.p, f);
}

/* Dword i of the packet at the read pointer. */
static inline uint32_t ring_dw(const uint32_t *ring, uint32_t mask_dw, uint64_t rptr, uint32_t i)
{
	return ring[(uint32_t)(rptr / 4 + i) & mask_dw];
}

/* Writes the read pointer back.  Returns 0 or -1 after a VM fault. */
static int rptr_writeback(struct kemu_sdma_queue *q)
{
	struct kemu_vm_fault_info f;
	void *h = kemu_sdma_map_len(q, q->rptr_va, 8, KEMU_ACCESS_WRITE, &f);
	if (!h) {
		kemu_sdma_queue_fault(q, &f, "read pointer write-back");
		return -1;
	}
	if (q->rptr_va & 7) {
		atomic_thread_fence(memory_order_release);
		__builtin_memcpy(h, &q->rptr, 8);
		return 0;
	}
	/* release: our reads of the packet (and its effects) come first; pairs
	 * with the producer's acquire load before it reuses the space */
	atomic_store_explicit((_Atomic uint64_t *)h, q->rptr, memory_order_release);
	return 0;
}

/* WRITE_LINEAR: the data dwords stream from the ring to the destination.
 * Returns 0 or -1 after a VM fault. */
static int write_linear(struct kemu_sdma_queue *q, const uint32_t *ring, uint32_t mask_dw,
			uint32_t ndw)
{
	uint64_t dst = ring_dw(ring, mask_dw, q->rptr, 1) |
		       (uint64_t)ring_dw(ring, mask_dw, q->rptr, 2) << 32;
	uint32_t i = 0;
	while (i < ndw) {
		struct kemu_vm_fault_info f;
		uint64_t avail;
		uint8_t *h = kemu_sdma_map(q, dst + 4ull * i, KEMU_ACCESS_WRITE, &avail, &f);
		if (!h) {
			kemu_sdma_queue_fault(q, &f, "WRITE_LINEAR");
			return -1;
		}
		uint64_t n = avail / 4 ? avail / 4 : 1;
		if (n > ndw - i)
			n = ndw - i;
		if (avail < 4 && avail < 4ull * (ndw - i)) {
			/* a dword straddling two mappings: go byte by byte */
			uint32_t v = ring_dw(ring, mask_dw, q->rptr, KEMU_SDMA_DW_WRITE_HEADER + i);
			for (unsigned b = 0; b < 4; b++) {
				uint8_t *hb = kemu_sdma_map_len(q, dst + 4ull * i + b, 1,
								KEMU_ACCESS_WRITE, &f);
				if (!hb) {
					kemu_sdma_queue_fault(q, &f, "WRITE_LINEAR");
					return -1;
				}
				*hb = (uint8_t)(v >> 8 * b);
			}
			i++;
			continue;
		}
		for (uint64_t j = 0; j < n; j++) {
			uint32_t v = ring_dw(ring, mask_dw, q->rptr,
					     KEMU_SDMA_DW_WRITE_HEADER + i + (uint32_t)j);
			__builtin_memcpy(h + 4 * j, &v, 4);
		}
		i += (uint32_t)n;
	}
	return 0;
}

/* The packet's size in dwords from its header (and, for WRITE, its count),
 * or 0 for an opcode this model does not execute (*why says so). */
static uint32_t packet_dwords(uint32_t dw0, uint32_t dw3, const char **why)
{
	unsigned op = KEMU_SDMA_OP(dw0), sub = KEMU_SDMA_SUBOP(dw0);
	*why = NULL;
	switch (op) {
	case KEMU_SDMA_OP_NOP:
		return 1 + KEMU_SDMA_NOP_COUNT(dw0);
	case KEMU_SDMA_OP_COPY:
		if (sub == KEMU_SDMA_SUB_COPY_LINEAR)
			return KEMU_SDMA_DW_COPY_LINEAR;
		if (sub == KEMU_SDMA_SUB_COPY_LINEAR_SUB_WIND)
			return KEMU_SDMA_DW_COPY_SUB_WIND;
		*why = "COPY sub-op (tiled, T2T, SOA, dirty-page or physical copy) is not modelled";
		return 0;
	case KEMU_SDMA_OP_WRITE:
		if (sub == KEMU_SDMA_SUB_WRITE_LINEAR)
			return KEMU_SDMA_DW_WRITE_HEADER + KEMU_SDMA_WRITE_COUNT(dw3) + 1;
		*why = "WRITE sub-op (tiled) is not modelled";
		return 0;
	case KEMU_SDMA_OP_FENCE:       return KEMU_SDMA_DW_FENCE;
	case KEMU_SDMA_OP_TRAP:        return KEMU_SDMA_DW_TRAP;
	case KEMU_SDMA_OP_POLL_REGMEM: return KEMU_SDMA_DW_POLL_REGMEM;
	case KEMU_SDMA_OP_ATOMIC:      return KEMU_SDMA_DW_ATOMIC;
	case KEMU_SDMA_OP_CONST_FILL:  return KEMU_SDMA_DW_CONST_FILL;
	case KEMU_SDMA_OP_TIMESTAMP:   return KEMU_SDMA_DW_TIMESTAMP;
	case KEMU_SDMA_OP_INDIRECT:
		*why = "INDIRECT (an indirect buffer) is not modelled";
		return 0;
	case KEMU_SDMA_OP_SEM:
		*why = "SEM (semaphore) is not modelled";
		return 0;
	case KEMU_SDMA_OP_COND_EXE:
		*why = "COND_EXE is not modelled";
		return 0;
	case KEMU_SDMA_OP_PTEPDE:
		*why = "PTEPDE (page-table update) is not modelled";
		return 0;
	case KEMU_SDMA_OP_SRBM_WRITE:
		*why = "SRBM_WRITE (register write) is not modelled";
		return 0;
	case KEMU_SDMA_OP_PRE_EXE:
		*why = "PRE_EXE is not modelled";
		return 0;
	case KEMU_SDMA_OP_DUMMY_TRAP:
		*why = "DUMMY_TRAP is not modelled";
		return 0;
	default:
		*why = "unknown opcode";
		return 0;
	}
}

/* Executes the packet at rptr (its fixed part copied to dw).  Returns 0
 * when done, 1 when it must be retried, -1 when the queue was stopped. */
static int packet_exec(struct kemu_sdma_queue *q, const uint32_t *dw, const uint32_t *ring,
		       uint32_t mask_dw, uint32_t ndw)
{
	switch (KEMU_SDMA_OP(dw[0])) {
	case KEMU_SDMA_OP_NOP:
		return 0;
	case KEMU_SDMA_OP_COPY:
		if (KEMU_SDMA_SUBOP(dw[0]) == KEMU_SDMA_SUB_COPY_LINEAR)
			return kemu_sdma_copy_linear(q, dw);
		return kemu_sdma_copy_sub_window(q, dw);
	case KEMU_SDMA_OP_WRITE:
		return write_linear(q, ring, mask_dw, ndw - KEMU_SDMA_DW_WRITE_HEADER);
	case KEMU_SDMA_OP_FENCE:
		return kemu_sdma_fence(q, dw);
	case KEMU_SDMA_OP_TRAP:
		return kemu_sdma_trap(q, dw);
	case KEMU_SDMA_OP_POLL_REGMEM:
		return kemu_sdma_poll_regmem(q, dw);
	case KEMU_SDMA_OP_ATOMIC:
		return kemu_sdma_atomic(q, dw);
	case KEMU_SDMA_OP_CONST_FILL:
		return kemu_sdma_const_fill(q, dw);
	default: /* KEMU_SDMA_OP_TIMESTAMP: packet_dwords let no other through */
		return kemu_sdma_timestamp(q, dw);
	}
}

enum kemu_sdma_progress kemu_sdma_queue_service(struct kemu_sdma_queue *q, uint64_t ring_base,
						 uint32_t ring_size)
{
	if (atomic_load_explicit(&q->hw.stopped, memory_order_relaxed))
		return KEMU_SDMA_IDLE;
	/* acquire: pairs with the producer's release store of the doorbell
	 * (ROCr: release fence, then the store), so the packets are visible */
	uint64_t db = atomic_load_explicit(q->hw.doorbell, memory_order_acquire);
	if (db != atomic_load_explicit(&q->db_seen, memory_order_relaxed)) {
		/* relaxed: the poller only compares it with the doorbell */
		atomic_store_explicit(&q->db_seen, db, memory_order_relaxed);
		q->wptr = db;
	}
	if (q->wptr == q->rptr)
		return KEMU_SDMA_IDLE;
	if (q->wptr - q->rptr > ring_size) {
		kemu_sdma_queue_error(q, "write pointer 0x%llx is not within the ring size 0x%x "
				      "ahead of the read pointer", (unsigned long long)q->wptr,
				      ring_size);
		return KEMU_SDMA_PROGRESS;
	}
	struct kemu_vm_fault_info f;
	const uint32_t *ring = kemu_sdma_map_len(q, ring_base, ring_size, KEMU_ACCESS_READ, &f);
	if (!ring) {
		kemu_sdma_queue_fault(q, &f, "SDMA ring");
		return KEMU_SDMA_PROGRESS;
	}
	uint32_t mask_dw = ring_size / 4 - 1;
	uint64_t start = 0;
	unsigned done = 0;
	while (q->wptr - q->rptr >= 4) {
		/* acquire: pairs with the hooks' release store of preempt */
		if (atomic_load_explicit(&q->hw.preempt, memory_order_acquire))
			break;
		if (q->rptr & 3) {
			kemu_sdma_queue_error(q, "read pointer is not dword aligned");
			return KEMU_SDMA_PROGRESS;
		}
		uint32_t avail = (uint32_t)((q->wptr - q->rptr) / 4);
		uint32_t dw0 = ring_dw(ring, mask_dw, q->rptr, 0);
		uint32_t dw3 = avail > 3 ? ring_dw(ring, mask_dw, q->rptr, 3) : 0;
		const char *why;
		uint32_t ndw = packet_dwords(dw0, dw3, &why);
		if (!ndw) {
			kemu_sdma_queue_error(q, "%s (opcode %u, sub-op %u, header 0x%08x)", why,
					      KEMU_SDMA_OP(dw0), KEMU_SDMA_SUBOP(dw0), dw0);
			return KEMU_SDMA_PROGRESS;
		}
		if (ndw > ring_size / 4) {
			kemu_sdma_queue_error(q, "packet of %u dwords is larger than the ring "
					      "(header 0x%08x)", ndw, dw0);
			return KEMU_SDMA_PROGRESS;
		}
		if (ndw > avail)
			break; /* not all written yet */
		uint32_t dw[KEMU_SDMA_DW_MAX_FIXED];
		uint32_t fixed = ndw < KEMU_SDMA_DW_MAX_FIXED ? ndw : KEMU_SDMA_DW_MAX_FIXED;
		for (uint32_t i = 0; i < fixed; i++)
			dw[i] = ring_dw(ring, mask_dw, q->rptr, i);
		int r = packet_exec(q, dw, ring, mask_dw, ndw);
		if (r < 0)
			return KEMU_SDMA_PROGRESS;
		if (r > 0)
			return done ? KEMU_SDMA_PROGRESS : KEMU_SDMA_BLOCKED;
		q->poll_tries = 0;
		q->rptr += 4ull * ndw;
		if (rptr_writeback(q))
			return KEMU_SDMA_PROGRESS;
		if (!done++)
			start = kemu_gpu_now_ns();
		if (done >= KEMU_SDMA_QUANTUM_PACKETS ||
		    (!(done & 7) && kemu_gpu_now_ns() - start > KEMU_SDMA_QUANTUM_NS))
			break;
	}
	return done ? KEMU_SDMA_PROGRESS : KEMU_SDMA_IDLE;
}
