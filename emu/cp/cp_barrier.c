/*
 * Barrier packets (HSA spec 2.9.6-2.9.7, hsa-abi-and-rocr.md 2.5):
 * BARRIER_AND completes when every dependency signal's value is 0,
 * BARRIER_OR when any is.  The spec reads a null handle as a satisfied
 * dependency for AND and as an unsatisfied one for OR (so an OR may list
 * fewer than five signals, and an OR of five nulls never completes).  The
 * AMD vendor BARRIER_VALUE packet (AmdFormat 2) completes when
 * (value & mask) <cond> compare holds for its one signal.
 *
 * The CP never blocks on a dependency: each check reads the values once
 * (acquire: pairs with the host's or another queue's release store or
 * decrement of the value) and reports BLOCKED, and the slot thread polls
 * again with backoff, servicing other queues in between (cp_sched.c).
 * Reading a dependency from an unmapped address is a GPU page fault.
 */
#define _GNU_SOURCE
#include <string.h>

#include "cp_priv.h"

/* Value of the signal at handle: 0 on success, else fault raised. */
static int signal_value(struct kemu_cp_queue *q, uint64_t handle, int64_t *v)
{
	struct kemu_vm_fault_info f;
	uint64_t raw;
	if (kemu_cp_load64(q, handle + KEMU_CP_SIG_VALUE, &raw, &f)) {
		kemu_cp_queue_fault(q, &f, "barrier dependency signal");
		return -1;
	}
	*v = (int64_t)raw;
	return 0;
}

enum kemu_cp_wait kemu_cp_barrier_ready(struct kemu_cp_queue *q, const uint8_t *pkt,
					 unsigned type)
{
	uint64_t dep[5];
	memcpy(dep, pkt + 8, sizeof(dep));
	bool any_zero = false, all_zero = true;
	for (unsigned i = 0; i < 5; i++) {
		if (!dep[i])
			continue;
		int64_t v;
		if (signal_value(q, dep[i], &v))
			return KEMU_CP_WAIT_FAULT;
		if (v == 0)
			any_zero = true;
		else
			all_zero = false;
	}
	if (type == KEMU_CP_PKT_BARRIER_AND)
		return all_zero ? KEMU_CP_WAIT_DONE : KEMU_CP_WAIT_BLOCKED;
	/* OR: a null handle is an unsatisfied dependency, so an OR of five
	 * null handles never completes (HSA spec, barrier-OR dep_signal) */
	return any_zero ? KEMU_CP_WAIT_DONE : KEMU_CP_WAIT_BLOCKED;
}

enum kemu_cp_wait kemu_cp_barrier_value_ready(struct kemu_cp_queue *q, const uint8_t *pkt)
{
	uint64_t handle, value, mask;
	uint32_t cond;
	memcpy(&handle, pkt + 8, 8);
	memcpy(&value, pkt + 16, 8);
	memcpy(&mask, pkt + 24, 8);
	memcpy(&cond, pkt + 32, 4);
	if (!handle)
		return KEMU_CP_WAIT_DONE;
	int64_t v;
	if (signal_value(q, handle, &v))
		return KEMU_CP_WAIT_FAULT;
	int64_t masked = (int64_t)((uint64_t)v & mask);
	bool ok;
	switch (cond) {
	case 0: ok = masked == (int64_t)value; break;  /* EQ */
	case 1: ok = masked != (int64_t)value; break;  /* NE */
	case 2: ok = masked < (int64_t)value; break;   /* LT */
	default: ok = masked >= (int64_t)value; break; /* GTE (checked by caller) */
	}
	return ok ? KEMU_CP_WAIT_DONE : KEMU_CP_WAIT_BLOCKED;
}
