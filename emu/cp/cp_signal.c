/*
 * The CP's side of memory and signals: every access the CP makes for a
 * queue (ring, amd_queue_t, signals, mailboxes, kernel descriptor) goes
 * through the process's GPU VM on the queue's device, so an unmapped or
 * read-only address is a GPU page fault, never a host crash.  The packet
 * processor translates through a small per-queue TLB whose entries are
 * valid for one VM generation (kemu_vm.c: any MAP, UNMAP or SVM change
 * flushes it), as the UTCL2 caches translations until amdgpu_vm flushes.  Atomics are made on the translated host pointer: the BO's pages
 * are shared with the process's own mapping, so they are the same memory
 * the host threads operate on.
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
 * above.  A VM fault is raised process-wide (kemu_vm_fault: every MEMORY
 * event) and the process's queues on the device are evicted, as
 * kfd_int_process_v9.c does (kfd_dqm_evict_pasid); the inactive signal is
 * not written for a fault.  The process's SDMA queues on the device are
 * evicted too (emu/sdma), as the kernel's eviction covers every queue.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <time.h>

#include "cp_priv.h"
#include "sdma/sdma.h"

void *kemu_cp_map_shared(struct kemu_cp_queue *q, uint64_t va, size_t len, unsigned access,
			 struct kemu_vm_fault_info *f)
{
	void *host = NULL;
	if (kemu_vm_translate(q->p, q->gpu_id, va, len, access, &host, f))
		return NULL;
	return host;
}

void *kemu_cp_tlb_map(struct kemu_cp_queue *q, struct kemu_cp_tlb *t, uint64_t va, size_t len,
		      unsigned access, struct kemu_vm_fault_info *f)
{
	size_t n = len ? len : 1;
	uint64_t gen = kemu_vm_generation(q->p);
	for (unsigned i = 0; i < KEMU_CP_TLB_ENTRIES; i++) {
		const struct kemu_vm_range *e = &t->e[i];
		uint64_t off = va - e->va;
		if (e->len && e->gen == gen && off < e->len && n <= e->len - off &&
		    !(access & ~e->access))
			return e->host + off;
	}
	struct kemu_vm_range r;
	if (kemu_vm_translate_range(q->p, q->gpu_id, va, access, &r, f))
		return NULL;
	if (r.len < n) {
		/* the range runs off the end of its mapping */
		if (f)
			*f = (struct kemu_vm_fault_info){ .va = va + r.len, .gpu_id = q->gpu_id,
							  .not_present = true };
		return NULL;
	}
	t->e[t->next++ % KEMU_CP_TLB_ENTRIES] = r;
	return r.host;
}

void *kemu_cp_map(struct kemu_cp_queue *q, uint64_t va, size_t len, unsigned access,
		  struct kemu_vm_fault_info *f)
{
	return kemu_cp_tlb_map(q, &q->tlb, va, len, access, f);
}

int kemu_cp_load64(struct kemu_cp_queue *q, uint64_t va, uint64_t *out,
		   struct kemu_vm_fault_info *f)
{
	_Atomic uint64_t *h = kemu_cp_map(q, va, 8, KEMU_ACCESS_READ, f);
	if (!h)
		return -EFAULT;
	if (va & 7) {
		/* the hardware would split it; no atomicity to keep */
		__builtin_memcpy(out, (void *)h, 8);
		return 0;
	}
	/* acquire: pairs with the host's release store of the value (signal
	 * stores, write index reservation) */
	*out = atomic_load_explicit(h, memory_order_acquire);
	return 0;
}

uint64_t kemu_cp_gpu_clock(const struct kemu_cp *cp)
{
	/* the counter GET_CLOCK_COUNTERS reports (kemu_gpu_ticks) */
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	uint64_t ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	return kemu_gpu_ticks(ns, cp->counter_freq_khz);
}

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
	/* release: pairs with kemu_event_interrupt's acquire read of the slot */
	atomic_store_explicit(mb, event_id, memory_order_release);
	kemu_event_interrupt(q->p, event_id, 32);
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
	atomic_store_explicit(&q->stopped, true, memory_order_relaxed);
	kemu_warn(q->cp->m, "CP: gpu 0x%x queue %u stopped at packet %llu: %s (error 0x%x)",
		  q->gpu_id, q->queue_id, (unsigned long long)q->rptr, what, code);
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

void kemu_cp_queue_fault(struct kemu_cp_queue *q, const struct kemu_vm_fault_info *f,
			 const char *what)
{
	kemu_warn(q->cp->m, "CP: gpu 0x%x queue %u: GPU page fault at 0x%llx (%s)%s",
		  q->gpu_id, q->queue_id, (unsigned long long)f->va, what,
		  f->read_only ? ", write to read-only page" : "");
	atomic_store_explicit(&q->stopped, true, memory_order_relaxed);
	kemu_cp_evict_process(q->cp, q->p);
	/* the device's SDMA queues of the process too (kfd_dqm_evict_pasid) */
	kemu_sdma_evict(q->p, q->cp->dev);
	kemu_vm_fault(q->p, f);
}
