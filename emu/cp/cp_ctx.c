/*
 * CWSR on the CP: a dispatch preempted mid-flight has its waves written
 * into the queue's context-save area, and read back when the queue runs
 * again, as the hardware scheduler does it (the SPI raises SAVECTX, the
 * first-level trap handler stores each wave, cwsr_trap_handler_gfx9.asm;
 * the restore routine loads them when the HQD is mapped again).
 *
 * Where.  The area is ctx_save_va (CREATE_QUEUE's ctx_save_restore_address,
 * checked by the driver: kfd_queue_acquire_buffers).  Its first
 * ctl_stack_size bytes are the control stack's (kfd_mqd_manager_v9.c:
 * cp_hqd_cntl_stack_offset/size; on gfx9 the firmware keeps the stack
 * itself in the MQD's buffer and the kernel copies it there only for
 * GET_QUEUE_WAVE_STATE), and the waves' save areas follow from
 * cp_hqd_wg_state_offset = ctl_stack_size on, workgroup after workgroup
 * (emu/isa's kemu_isa_ctx_save gives each one's bytes).  Every byte goes
 * through the queue's GPU VM as the handler's buffer stores do, so an
 * unmapped or read-only area is a VM fault by the queue (raised through the
 * driver's interrupt path, which evicts the process's queues: the hardware
 * would fault in the trap handler the same way); a save that runs past
 * ctx_save_size overwrites the debugger's memory behind it or faults at the
 * end of the mapping, as the SPI's stores would.
 *
 * When.  The requests are the queue's ctx_preempt flag (cp_priv.h):
 * KFDEMU_PREEMPT=every:N (a wave ran N instructions: the stop point emu/isa
 * offers), time slicing when queues outnumber the hardware slots
 * (cp_dispatch.c), and destroy or eviction (destroying: the waves are saved,
 * then the queue stops for good, as unmap_queues_cpsch preempts with CWSR
 * before the kernel frees the MQD).  The dispatch ends its service round
 * without retiring the packet; the next round restores the saved
 * workgroups and starts the ones never started (the dispatcher's progress
 * stays in the MQD, struct kemu_cp_ctx).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cp_priv.h"

#ifdef KEMU_CP_HAVE_ISA
#include "isa.h"
#endif

/* Context saves of every queue (kemu_cp_context_saves): a counter only,
 * relaxed. */
static _Atomic uint64_t cp_context_saves;

uint64_t kemu_cp_context_saves(void)
{
	return atomic_load_explicit(&cp_context_saves, memory_order_relaxed);
}

uint64_t kemu_cp_preempt_every(int log_level)
{
	/* read when a device's CP is created (its first queue), so a test may
	 * change it between machines */
	const char *e = getenv("KFDEMU_PREEMPT");
	char *end = NULL;
	if (!e || !*e || !strcmp(e, "off"))
		return 0;
	if (!strncmp(e, "every:", 6)) {
		unsigned long long n = strtoull(e + 6, &end, 0);
		if (end && !*end && n)
			return n;
	}
	kemu_gpu_warn(log_level, "CP: KFDEMU_PREEMPT=%s is not every:N (N > 0) or off: ignored",
		      e);
	return 0;
}

void kemu_cp_ctx_clear(struct kemu_cp_queue *q)
{
	free(q->ctx.pending);
	free(q->ctx.rec);
	q->ctx.pending = NULL;
	q->ctx.rec = NULL;
	q->ctx.npending = 0;
	q->ctx.nrec = 0;
	q->ctx.used = 0;
	q->ctx.saved = false;
}

#ifdef KEMU_CP_HAVE_ISA

/* Copies len bytes between buf and the GPU VA va through q's VM, page by
 * page (the area may be SVM ranges).  0, or -EFAULT with *f filled. */
static int ctx_copy(struct kemu_cp_queue *q, uint64_t va, uint8_t *buf, size_t len, bool write,
		    struct kemu_vm_fault_info *f)
{
	while (len) {
		size_t chunk = 4096 - (size_t)(va & 4095);
		if (chunk > len)
			chunk = len;
		uint8_t *h = kemu_gpu_map(&q->hw.vm, va, chunk,
					  write ? KEMU_ACCESS_WRITE : KEMU_ACCESS_READ, f);
		if (!h)
			return -EFAULT;
		if (write)
			memcpy(h, buf, chunk);
		else
			memcpy(buf, h, chunk);
		va += chunk;
		buf += chunk;
		len -= chunk;
	}
	return 0;
}

/* Where the waves' save areas start (cp_hqd_wg_state_offset). */
static uint64_t ctx_wave_base(const struct kemu_cp_queue *q)
{
	return q->hw.hq->info.ctx_save_va + q->hw.hq->info.ctl_stack_size;
}

int kemu_cp_ctx_save(struct kemu_cp_queue *q, uint64_t index, uint64_t next_wg,
		     const uint64_t *pending, uint32_t npending, struct kemu_isa_wg_state **sts,
		     uint32_t n)
{
	struct kemu_vm_fault_info f;
	struct kemu_isa_ctx_wg *rec = NULL;
	uint64_t *pend = NULL;
	uint8_t *buf = NULL;
	size_t cap = 0;
	uint32_t used = 0, i;
	int ret = -1;

	kemu_cp_ctx_clear(q);
	if (!q->hw.hq->info.ctx_save_va) {
		/* a compute queue without a context-save area cannot be
		 * preempted mid-dispatch: the SPI has nowhere to save, the
		 * HWS preemption times out and the driver resets the GPU */
		kemu_cp_queue_error(q, KEMU_CP_ERR_TRAP, "preempted with waves in flight but "
				    "the queue has no context-save area (HWS preemption hang)");
		goto out;
	}
	rec = n ? calloc(n, sizeof(*rec)) : NULL;
	pend = npending ? calloc(npending, sizeof(*pend)) : NULL;
	if ((n && !rec) || (npending && !pend)) {
		kemu_cp_queue_error(q, KEMU_CP_ERR_ILLEGAL_INSN, "no host memory for a context save");
		goto out;
	}
	for (i = 0; i < n; i++) {
		size_t bytes = kemu_isa_ctx_bytes(sts[i]);
		if (bytes > cap) {
			uint8_t *nb = realloc(buf, bytes);
			if (!nb) {
				kemu_cp_queue_error(q, KEMU_CP_ERR_ILLEGAL_INSN,
						    "no host memory for a context save");
				goto out;
			}
			buf = nb;
			cap = bytes;
		}
		if (kemu_isa_ctx_save(sts[i], &rec[i], buf, bytes) || used + bytes > UINT32_MAX) {
			kemu_cp_queue_error(q, KEMU_CP_ERR_ILLEGAL_INSN,
					    "a workgroup's context cannot be saved");
			goto out;
		}
		if (ctx_copy(q, ctx_wave_base(q) + used, buf, bytes, true, &f)) {
			char what[160];
			snprintf(what, sizeof(what), "context save of workgroup (%u,%u,%u) into the "
				 "CWSR area at 0x%llx", rec[i].wg_id[0], rec[i].wg_id[1],
				 rec[i].wg_id[2], (unsigned long long)q->hw.hq->info.ctx_save_va);
			kemu_cp_queue_fault(q, &f, what);
			goto out;
		}
		used += (uint32_t)bytes;
	}
	if (npending)
		memcpy(pend, pending, npending * sizeof(*pend));
	q->ctx.saved = true;
	q->ctx.index = index;
	q->ctx.next_wg = next_wg;
	q->ctx.rec = rec;
	q->ctx.nrec = n;
	q->ctx.pending = pend;
	q->ctx.npending = npending;
	q->ctx.used = used;
	q->ctx.saves++;
	atomic_fetch_add_explicit(&cp_context_saves, 1, memory_order_relaxed);
	rec = NULL;
	pend = NULL;
	ret = 0;
	kemu_gpu_dbg(q->hw.hq->log_level, "CP: gpu 0x%x queue %u: dispatch %llu preempted: %u "
		     "workgroups (%u bytes) saved, %u claimed and %llu unclaimed to start",
		     q->hw.gpu_id, q->hw.queue_id, (unsigned long long)index, n, used, npending,
		     (unsigned long long)next_wg);
out:
	for (i = 0; i < n; i++)
		kemu_isa_workgroup_free(sts[i]);
	free(buf);
	free(rec);
	free(pend);
	return ret;
}

int kemu_cp_ctx_restore(struct kemu_cp_queue *q, const struct kemu_isa_program *p,
			const struct kemu_isa_dispatch *d, struct kemu_isa_wg_state ***out,
			uint32_t *nout)
{
	const struct kemu_isa_ctx_wg *rec = q->ctx.rec;
	struct kemu_isa_wg_state **sts = NULL;
	struct kemu_vm_fault_info f;
	struct kemu_isa_error err;
	uint8_t *buf = NULL;
	size_t cap = 0, off = 0;
	uint32_t i, n = q->ctx.nrec;

	*out = NULL;
	*nout = 0;
	if (!n)
		return 0;
	sts = calloc(n, sizeof(*sts));
	if (!sts)
		goto err_memory;
	for (i = 0; i < n; i++) {
		size_t vbytes = (size_t)rec[i].vgpr_rows * 64 * 4;
		size_t bytes = (size_t)rec[i].live * (vbytes + KEMU_ISA_CTX_SGPRS * 4 +
						      KEMU_ISA_CTX_HWREG_BYTES) + rec[i].lds_bytes;
		if (bytes > cap) {
			uint8_t *nb = realloc(buf, bytes);
			if (!nb)
				goto err_memory;
			buf = nb;
			cap = bytes;
		}
		if (ctx_copy(q, ctx_wave_base(q) + off, buf, bytes, false, &f)) {
			kemu_cp_queue_fault(q, &f, "context restore from the CWSR area");
			goto err;
		}
		off += bytes;
		sts[i] = kemu_isa_ctx_restore(p, d, &rec[i], buf, bytes, &err);
		if (!sts[i]) {
			/* what a wave resuming with a corrupt save area meets */
			char what[224];
			snprintf(what, sizeof(what), "context restore: %s", err.message);
			kemu_cp_queue_error(q, KEMU_CP_ERR_ILLEGAL_INSN, what);
			goto err;
		}
	}
	free(buf);
	q->ctx.restores++;
	*out = sts;
	*nout = n;
	return 0;

err_memory:
	kemu_cp_queue_error(q, KEMU_CP_ERR_ILLEGAL_INSN, "no host memory for a context restore");
err:
	for (i = 0; sts && i < n; i++)
		kemu_isa_workgroup_free(sts[i]);
	free(sts);
	free(buf);
	return -1;
}

#endif /* KEMU_CP_HAVE_ISA */
