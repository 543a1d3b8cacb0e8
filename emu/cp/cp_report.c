/*
 * How the CP reports: completion signals, their mailboxes and end-of-pipe
 * interrupts, queue errors and GPU VM faults.  Every access goes through
 * the queue's GPU VM (emu/gpu's TLB, cp_priv.h's kemu_cp_map), so an
 * unmapped or read-only address is a GPU page fault, never a host crash.
 *
 * Retiring a completion signal is what the CP's end-of-kernel path does
 * (hsa-abi-and-rocr.md 2.5, 3.3; queue.h contract 2): with profiling on,
 * write start_ts (when the packet was picked up) and end_ts (read just
 * before the value is written, so the time between end_ts and a waiter's
 * return is the waiter's and the memory's, as with the end-of-pipe event
 * that writes both on hardware), GPU clock ticks in the GET_CLOCK_COUNTERS
 * gpu_clock_counter domain; decrement value by one (64-bit atomic at
 * handle + 8, release: pairs with the waiter's acquire load of the value);
 * then, when event_mailbox_ptr != 0, store event_id into the mailbox
 * (release: pairs with the IH's acquire read of the slot) and raise the
 * end-of-pipe interrupt with all 32 id bits valid.  event_mailbox_ptr and
 * event_id are read before the value is written: the value store is what
 * lets a waiter return and destroy the signal (hl_signal_destroy clears
 * both fields), so after it the signal is no longer ours to read.  No
 * program can tell the difference: the runtime sets both fields before the
 * signal is first used and never changes them while it is live.
 *
 * Queue errors follow queue.h contract 3: OR the code into
 * queue_inactive_signal's value (release), then mailbox and interrupt as
 * above.  A VM fault stops the queue and is reported to the driver
 * (ops->vm_fault), whose interrupt handler evicts every queue of the
 * process on the device, on every engine, and raises the fault
 * process-wide, as kfd_int_process_v9.c does (kfd_dqm_evict_pasid); the
 * inactive signal is not written for a fault.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <time.h>

#include "cp_priv.h"

/* The mailbox (0: none) and event id of signal `handle`, read before the
 * signal's value is written (see the file comment).  Returns 0 or -1 after
 * raising a VM fault. */
static int signal_event_read(struct kemu_cp_queue *q, uint64_t handle, uint64_t *mailbox,
			     uint32_t *event_id, const char *what)
{
	struct kemu_vm_fault_info f;
	*event_id = 0;
	if (kemu_cp_load64(q, handle + KEMU_CP_SIG_MAILBOX, mailbox, &f))
		goto fault;
	if (!*mailbox)
		return 0;
	uint32_t *idp = kemu_cp_map(q, handle + KEMU_CP_SIG_EVENT_ID, 4, KEMU_ACCESS_READ, &f);
	if (!idp)
		goto fault;
	*event_id = *idp;
	return 0;
fault:
	kemu_cp_queue_fault(q, &f, what);
	return -1;
}

/* Mailbox store + end-of-pipe interrupt, after the signal's value.  The
 * mailbox is the event's slot in the process's event page, not part of the
 * signal, so it outlives a signal destroyed meanwhile.  Returns 0 or -1
 * after raising a VM fault. */
static int signal_interrupt(struct kemu_cp_queue *q, uint64_t mailbox, uint32_t event_id,
			    const char *what)
{
	if (!mailbox)
		return 0;
	struct kemu_vm_fault_info f;
	_Atomic uint64_t *mb = kemu_cp_map(q, mailbox, 8, KEMU_ACCESS_WRITE, &f);
	if (!mb) {
		kemu_cp_queue_fault(q, &f, what);
		return -1;
	}
	/* release: pairs with the IH's acquire read of the slot (the
	 * driver's interrupt op) */
	atomic_store_explicit(mb, event_id, memory_order_release);
	q->hw.vm.ops->interrupt(q->hw.vm.p, event_id, 32);
	return 0;
}

int kemu_cp_signal_complete(struct kemu_cp_queue *q, uint64_t handle, uint64_t start_ts,
			    bool profiling)
{
	if (!handle)
		return 0;
	struct kemu_vm_fault_info f;
	uint64_t *ts = NULL;
	if (profiling) {
		ts = kemu_cp_map(q, handle + KEMU_CP_SIG_START_TS, 16, KEMU_ACCESS_WRITE, &f);
		if (!ts) {
			kemu_cp_queue_fault(q, &f, "completion signal timestamps");
			return -1;
		}
	}
	_Atomic int64_t *v = kemu_cp_map(q, handle + KEMU_CP_SIG_VALUE, 8,
					 KEMU_ACCESS_READ | KEMU_ACCESS_WRITE, &f);
	if (!v) {
		kemu_cp_queue_fault(q, &f, "completion signal");
		return -1;
	}
	uint64_t mailbox;
	uint32_t event_id;
	if (signal_event_read(q, handle, &mailbox, &event_id, "completion signal"))
		return -1;
	if (ts) {
		/* end_ts at the signal write, as the end-of-pipe event writes
		 * both: everything the CP does for the packet is before it */
		uint64_t stamps[2] = { start_ts, kemu_cp_gpu_clock(q->cp) };
		memcpy(ts, stamps, sizeof(stamps));
	}
	/* release: the packet's results (and timestamps) before the value;
	 * pairs with the waiter's acquire load of the signal value.  It also
	 * orders our reads of the signal above before hl_signal_destroy's
	 * writes to it (a waiter destroys only after that acquire load). */
	atomic_fetch_sub_explicit(v, 1, memory_order_release);
	return signal_interrupt(q, mailbox, event_id, "completion signal mailbox");
}

void kemu_cp_queue_error(struct kemu_cp_queue *q, uint32_t code, const char *what)
{
	atomic_store_explicit(&q->hw.stopped, true, memory_order_relaxed);
	kemu_gpu_warn(q->cp->unit.log_level, "CP: gpu 0x%x queue %u stopped at packet %llu: %s (error 0x%x)",
		  q->hw.gpu_id, q->hw.queue_id, (unsigned long long)q->rptr, what, code);
	struct kemu_vm_fault_info f;
	uint64_t handle;
	if (kemu_cp_load64(q, q->amd_va + KEMU_CP_AQ_INACTIVE, &handle, &f)) {
		kemu_cp_queue_fault(q, &f, "amd_queue_t.queue_inactive_signal");
		return;
	}
	if (!handle)
		return;
	_Atomic int64_t *v = kemu_cp_map(q, handle + KEMU_CP_SIG_VALUE, 8,
					 KEMU_ACCESS_READ | KEMU_ACCESS_WRITE, &f);
	if (!v) {
		kemu_cp_queue_fault(q, &f, "queue_inactive_signal");
		return;
	}
	uint64_t mailbox;
	uint32_t event_id;
	if (signal_event_read(q, handle, &mailbox, &event_id, "queue_inactive_signal"))
		return;
	/* release: pairs with the runtime's acquire load of the inactive
	 * signal (its error handler reads amd_queue_t after it) */
	atomic_fetch_or_explicit(v, (int64_t)code, memory_order_release);
	signal_interrupt(q, mailbox, event_id, "queue_inactive_signal mailbox");
}

void kemu_cp_queue_hang(struct kemu_cp_queue *q, const char *what)
{
	atomic_store_explicit(&q->hw.stopped, true, memory_order_relaxed);
	kemu_gpu_info(q->cp->unit.log_level,
		      "CP: gpu 0x%x queue %u hangs at packet %llu: %s (a halted wave: the "
		      "dispatch never completes; nothing is written by the CP)",
		      q->hw.gpu_id, q->hw.queue_id, (unsigned long long)q->rptr, what);
}

void kemu_cp_queue_fault(struct kemu_cp_queue *q, const struct kemu_vm_fault_info *f,
			 const char *what)
{
	kemu_gpu_warn(q->cp->unit.log_level, "CP: gpu 0x%x queue %u: GPU page fault at 0x%llx (%s)%s",
		  q->hw.gpu_id, q->hw.queue_id, (unsigned long long)f->va, what,
		  f->read_only ? ", write to read-only page" : "");
	atomic_store_explicit(&q->hw.stopped, true, memory_order_relaxed);
	/* the driver's IH evicts the process's queues on the device, this
	 * CP's included (kemu_cp_engine.evict), then raises the fault */
	q->hw.vm.ops->vm_fault(q->hw.vm.p, f);
}
