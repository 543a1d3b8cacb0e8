/*
 * The SDMA synchronisation packets: FENCE, TRAP, POLL_REGMEM, ATOMIC and
 * TIMESTAMP.  This is how ROCr 5.2.3 (BlitSdmaV4::SubmitCommand) completes
 * a copy: POLL_REGMEM on each dependency signal's two value halves, the
 * copy, TIMESTAMP GET_GLOBAL into the signal's sdma start/end slots when
 * profiling, ATOMIC add -1 (64-bit, TC_OP_ATOMIC_ADD_RTN_64) on the
 * completion signal's value, and for an interrupt signal a FENCE of the
 * event id into the event mailbox followed by a TRAP carrying the id.
 *
 * Ordering.  The engine executes its packets in order, one host thread per
 * engine; every store a packet makes is visible before the stores of the
 * packets after it: FENCE and ATOMIC use release operations (they pair
 * with the host's acquire loads of signal values and of the event slot in
 * kemu_event_interrupt), and the memmove of a copy comes before them in
 * program order.  POLL_REGMEM reads with acquire (pairs with the host's
 * release store of the polled value).
 *
 * TRAP raises the SDMA trap interrupt: kfd_int_process_v9.c handles
 * SOC15_INTSRC_SDMA_TRAP from an SDMA client with
 * kfd_signal_event_interrupt(pasid, context_id0 & 0xfffffff, 28), the
 * context id being the packet's 28-bit int_context.
 *
 * POLL_REGMEM.  The memory form (mem_poll = 1) compares (value & mask)
 * with the reference using func (0 always, 1 <, 2 <=, 3 ==, 4 !=, 5 >=,
 * 6 >; 7 reserved).  Unsatisfied, the packet stays at the read pointer and
 * the engine turns to its other queues, re-checking at its polling pace
 * (sdma_engine.c) instead of every `interval` clocks; retry_count 0xFFF
 * waits forever, a smaller count gives up after that many re-checks and
 * the engine goes on with the next packet (no interrupt is modelled for
 * the timeout).  The register form (mem_poll = 0) polls an MMIO register,
 * which kfdemu does not model, except two forms: hdp_flush = 1 (the
 * kernel's HDP flush: write the request register, poll the done register)
 * and ROCr's SDMA_PKT_HDP_FLUSH {0x8, 0, 0x80000000, 0, 0, 0} (func 0,
 * "always", with bit 31 of the address's high dword) are an HDP flush of
 * the queue's device (ops->hdp_flush, emu/kfd/kemu_hdp.c) and a full
 * memory fence, done at once; any other func = 0 (always) poll completes
 * at once.  Any other register poll stops the queue.
 *
 * ATOMIC operations are TC_OP codes (the gfx9 TC_OP enum): bits 4:0 pick
 * the operation (7 swap, 8 cmpswap, 15 add, 16 sub, 17 smin, 18 umin,
 * 19 smax, 20 umax, 21 and, 22 or, 23 xor, 24 inc, 25 dec), bit 5 selects
 * 64-bit, bit 6 the no-return variant (the returned value goes nowhere in
 * an SDMA packet, so both variants are the same here).  The floating-point
 * ones (fcmpswap, fmin, fmax) stop the queue as not modelled.  With the
 * loop bit a cmpswap that fails is retried (like an unsatisfied poll)
 * until it succeeds.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <time.h>

#include "sdma_priv.h"

int kemu_sdma_fence(struct kemu_sdma_queue *q, const uint32_t *dw)
{
	uint64_t va = dw[1] | (uint64_t)dw[2] << 32;
	struct kemu_vm_fault_info f;
	void *h = kemu_sdma_map_len(q, va, 4, KEMU_ACCESS_WRITE, &f);
	if (!h) {
		kemu_sdma_queue_fault(q, &f, "FENCE");
		return -1;
	}
	if (va & 3) {
		/* no atomicity to keep; order with a fence */
		atomic_thread_fence(memory_order_release);
		memcpy(h, &dw[3], 4);
		return 0;
	}
	/* release: everything before (copies) is visible first; pairs with
	 * the host's acquire load (signal value, event slot) */
	atomic_store_explicit((_Atomic uint32_t *)h, dw[3], memory_order_release);
	return 0;
}

int kemu_sdma_trap(struct kemu_sdma_queue *q, const uint32_t *dw)
{
	uint32_t ctx = KEMU_SDMA_TRAP_CTX(dw[1]);
	kemu_gpu_dbg(q->eng->unit.log_level, "SDMA: gpu 0x%x engine %u queue %u: TRAP context 0x%x",
		 q->hw.gpu_id, q->eng->engine_id, q->hw.queue_id, ctx);
	q->hw.vm.ops->interrupt(q->hw.vm.p, ctx, 28);
	return 0;
}

int kemu_sdma_timestamp(struct kemu_sdma_queue *q, const uint32_t *dw)
{
	unsigned sub = KEMU_SDMA_SUBOP(dw[0]);
	if (sub != KEMU_SDMA_SUB_TIMESTAMP_GET_GLOBAL && sub != KEMU_SDMA_SUB_TIMESTAMP_GET) {
		kemu_sdma_queue_error(q, "TIMESTAMP sub-op %u (SET) is not modelled", sub);
		return -1;
	}
	/* GET (the engine's local counter) reads the same clock: kfdemu keeps
	 * one counter per device */
	uint64_t va = dw[1] | (uint64_t)dw[2] << 32;
	struct kemu_vm_fault_info f;
	void *h = kemu_sdma_map_len(q, va, 8, KEMU_ACCESS_WRITE, &f);
	if (!h) {
		kemu_sdma_queue_fault(q, &f, "TIMESTAMP");
		return -1;
	}
	uint64_t ts = kemu_sdma_gpu_clock(q->eng);
	if (va & 7) {
		atomic_thread_fence(memory_order_release);
		memcpy(h, &ts, 8);
	} else {
		/* release: pairs with the profiler's acquire of the signal */
		atomic_store_explicit((_Atomic uint64_t *)h, ts, memory_order_release);
	}
	return 0;
}

static bool poll_compare(unsigned func, uint32_t v, uint32_t ref)
{
	switch (func) {
	case 0: return true;
	case 1: return v < ref;
	case 2: return v <= ref;
	case 3: return v == ref;
	case 4: return v != ref;
	case 5: return v >= ref;
	case 6: return v > ref;
	default: return false;
	}
}

int kemu_sdma_poll_regmem(struct kemu_sdma_queue *q, const uint32_t *dw)
{
	unsigned func = KEMU_SDMA_POLL_FUNC(dw[0]);
	if (KEMU_SDMA_SUBOP(dw[0]) != 0) {
		kemu_sdma_queue_error(q, "POLL_REGMEM sub-op %u (POLL_REG_WRITE_MEM / "
				      "POLL_DBIT_WRITE_MEM / POLL_MEM_VERIFY) is not modelled",
				      KEMU_SDMA_SUBOP(dw[0]));
		return -1;
	}
	if (func == 7) {
		kemu_sdma_queue_error(q, "POLL_REGMEM function 7 is reserved");
		return -1;
	}
	if (KEMU_SDMA_POLL_HDP_FLUSH(dw[0]) ||
	    (!KEMU_SDMA_POLL_MEM(dw[0]) && func == 0 && dw[1] == 0 && dw[2] == 0x80000000u)) {
		/* the HDP flush: host writes through the HDP before it are
		 * visible to the reads after it (the kernel's hdp_flush = 1 form,
		 * or ROCr's SDMA_PKT_HDP_FLUSH {0x8, 0, 0x80000000, 0, 0, 0},
		 * which the gfx9 SDMA firmware >= 0x1A5 takes as one) */
		atomic_thread_fence(memory_order_seq_cst);
		if (q->hw.vm.ops->hdp_flush)
			q->hw.vm.ops->hdp_flush(q->hw.vm.p, q->hw.vm.gpu_id);
		return 0;
	}
	if (!KEMU_SDMA_POLL_MEM(dw[0])) {
		if (func == 0)
			return 0; /* "always": no register is read */
		kemu_sdma_queue_error(q, "POLL_REGMEM of register 0x%x (func %u): MMIO registers "
				      "are not modelled", dw[1] >> 2, func);
		return -1;
	}
	uint64_t va = (dw[1] | (uint64_t)dw[2] << 32) & ~3ull;
	struct kemu_vm_fault_info f;
	_Atomic uint32_t *h = kemu_sdma_map_len(q, va, 4, KEMU_ACCESS_READ, &f);
	if (!h) {
		kemu_sdma_queue_fault(q, &f, "POLL_REGMEM");
		return -1;
	}
	/* acquire: pairs with the host's release store of the value */
	uint32_t v = atomic_load_explicit(h, memory_order_acquire);
	if (poll_compare(func, v & dw[4], dw[3]))
		return 0;
	unsigned retry = KEMU_SDMA_POLL_RETRY(dw[5]);
	if (retry != KEMU_SDMA_POLL_FOREVER && q->poll_tries >= retry) {
		kemu_gpu_info(q->eng->unit.log_level, "SDMA: gpu 0x%x engine %u queue %u: POLL_REGMEM at 0x%llx "
			  "gave up after %u retries (value 0x%x, mask 0x%x, func %u, ref 0x%x)",
			  q->hw.gpu_id, q->eng->engine_id, q->hw.queue_id, (unsigned long long)va,
			  retry, v, dw[4], func, dw[3]);
		return 0;
	}
	q->poll_tries++;
	return 1;
}

/* TC_OP low bits (the operation). */
enum {
	TC_SWAP = 7, TC_CMPSWAP = 8, TC_ADD = 15, TC_SUB = 16, TC_SMIN = 17, TC_UMIN = 18,
	TC_SMAX = 19, TC_UMAX = 20, TC_AND = 21, TC_OR = 22, TC_XOR = 23, TC_INC = 24,
	TC_DEC = 25,
};

static const char *atomic_name(unsigned op)
{
	static const char *const names[32] = {
		[TC_SWAP] = "swap", [TC_CMPSWAP] = "cmpswap", [TC_ADD] = "add", [TC_SUB] = "sub",
		[TC_SMIN] = "smin", [TC_UMIN] = "umin", [TC_SMAX] = "smax", [TC_UMAX] = "umax",
		[TC_AND] = "and", [TC_OR] = "or", [TC_XOR] = "xor", [TC_INC] = "inc",
		[TC_DEC] = "dec",
	};
	return names[op & 31];
}

/* The new value of an integer TC atomic on old (width bits). */
static uint64_t atomic_apply(unsigned op, uint64_t old, uint64_t src, uint64_t cmp, bool wide)
{
	uint64_t mask = wide ? UINT64_MAX : UINT32_MAX;
	int64_t so = wide ? (int64_t)old : (int32_t)(uint32_t)old;
	int64_t ss = wide ? (int64_t)src : (int32_t)(uint32_t)src;
	src &= mask;
	switch (op) {
	case TC_SWAP:    return src;
	case TC_CMPSWAP: return old == (cmp & mask) ? src : old;
	case TC_ADD:     return (old + src) & mask;
	case TC_SUB:     return (old - src) & mask;
	case TC_SMIN:    return (uint64_t)(so < ss ? so : ss) & mask;
	case TC_UMIN:    return old < src ? old : src;
	case TC_SMAX:    return (uint64_t)(so > ss ? so : ss) & mask;
	case TC_UMAX:    return old > src ? old : src;
	case TC_AND:     return old & src;
	case TC_OR:      return old | src;
	case TC_XOR:     return old ^ src;
	case TC_INC:     return old >= src ? 0 : old + 1;
	default:         return (old == 0 || old > src) ? src : old - 1; /* TC_DEC */
	}
}

int kemu_sdma_atomic(struct kemu_sdma_queue *q, const uint32_t *dw)
{
	unsigned code = KEMU_SDMA_ATOMIC_OPERATION(dw[0]);
	unsigned op = code & 31;
	bool wide = code & 32;
	if (!atomic_name(op)) {
		kemu_sdma_queue_error(q, "ATOMIC operation %u (TC_OP 0x%x) is not modelled "
				      "(floating-point or reserved)", op, code);
		return -1;
	}
	uint64_t va = dw[1] | (uint64_t)dw[2] << 32;
	uint64_t src = dw[3] | (uint64_t)dw[4] << 32;
	uint64_t cmp = dw[5] | (uint64_t)dw[6] << 32;
	unsigned size = wide ? 8 : 4;
	if (va & (size - 1)) {
		kemu_sdma_queue_error(q, "ATOMIC %s%s at 0x%llx is not %u-byte aligned",
				      atomic_name(op), wide ? "64" : "32", (unsigned long long)va,
				      size);
		return -1;
	}
	struct kemu_vm_fault_info f;
	void *h = kemu_sdma_map_len(q, va, size, KEMU_ACCESS_READ | KEMU_ACCESS_WRITE, &f);
	if (!h) {
		kemu_sdma_queue_fault(q, &f, "ATOMIC");
		return -1;
	}
	/* acq_rel: the release orders everything before (copies, stores)
	 * before the new value, pairing with the host's acquire load of a
	 * signal; the acquire pairs with host stores to the word */
	if (wide) {
		_Atomic uint64_t *a = h;
		if (op == TC_ADD) {
			atomic_fetch_add_explicit(a, src, memory_order_acq_rel);
			return 0;
		}
		uint64_t old = atomic_load_explicit(a, memory_order_acquire);
		for (;;) {
			if (op == TC_CMPSWAP && old != cmp)
				break;
			uint64_t nv = atomic_apply(op, old, src, cmp, true);
			if (atomic_compare_exchange_weak_explicit(a, &old, nv, memory_order_acq_rel,
								  memory_order_acquire))
				return 0;
		}
	} else {
		_Atomic uint32_t *a = h;
		uint32_t old = atomic_load_explicit(a, memory_order_acquire);
		for (;;) {
			if (op == TC_CMPSWAP && old != (uint32_t)cmp)
				break;
			uint32_t nv = (uint32_t)atomic_apply(op, old, src, cmp, false);
			if (atomic_compare_exchange_weak_explicit(a, &old, nv, memory_order_acq_rel,
								  memory_order_acquire))
				return 0;
		}
	}
	/* a cmpswap whose compare failed: done, or retried with the loop bit */
	return KEMU_SDMA_ATOMIC_LOOP(dw[0]) ? 1 : 0;
}
