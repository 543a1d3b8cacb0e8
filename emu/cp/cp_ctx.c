/*
 * CWSR on the CP: a dispatch preempted mid-flight has its waves written
 * into the queue's context-save area, and read back when the queue runs
 * again, as the hardware scheduler does it (the SPI raises SAVECTX, the
 * first-level trap handler stores each wave, cwsr_trap_handler_gfx9.asm;
 * the restore routine loads them when the HQD is mapped again).
 *
 * Where.  Each XCC has its own area, at ctx_save_va + xcc x ctx_save_size
 * (init_mqd_v9_4_3 points each XCC's MQD there), and the dispatcher hands
 * workgroups to the XCCs round robin, one at a time (compute_tg_chunk_size
 * = 1, which init_mqd_v9_4_3 sets for AQL queues): workgroup n (linear id)
 * runs, and is saved, on XCC n % num_xcc.  An area's first ctl_stack_size
 * bytes are the control stack's (kfd_mqd_manager_v9.c: cp_hqd_cntl_stack_
 * offset/size; on gfx9 the firmware keeps the stack itself in the MQD's
 * buffer, here hq->cwsr, and the kernel copies it there only for
 * GET_QUEUE_WAVE_STATE), and the waves' records follow from
 * ctl_stack_size on, workgroup after workgroup, up to cp_hqd_wg_state_offset
 * (emu/isa's kemu_isa_ctx_save gives each workgroup's bytes).  The stack
 * grows down from ctl_stack_size: per workgroup a state word and a wave
 * word per record (kemu_isa_ctx_relaunch), the last saved workgroup's
 * nearest the top, and on top two dwords ROCdbgapi skips as "the 2 PM4
 * packets at the top of the stack" (their content is not documented in
 * the sources we read: kfdemu writes two type-2 PM4 NOPs there).  So a
 * reader walking the stack from its top meets the records from
 * cp_hqd_wg_state_offset down, as ROCdbgapi's control_stack_iterate does.
 * Every byte of the area goes through the queue's GPU VM as the handler's
 * buffer stores do, so an unmapped or read-only area is a VM fault by the
 * queue (raised through the driver's interrupt path, which evicts the
 * process's queues: the hardware would fault in the trap handler the same
 * way); a save that runs past ctx_save_size overwrites the debugger's
 * memory behind it or faults at the end of the mapping, as the SPI's
 * stores would.  A stack with no room left for a workgroup's words (the
 * kernel sizes it for every wave the device holds) is the hang a real
 * firmware would meet: a queue error.
 *
 * When.  The requests are the queue's ctx_preempt flag (cp_priv.h):
 * KFDEMU_PREEMPT=every:N (a wave ran N instructions: the stop point emu/isa
 * offers), time slicing when queues outnumber the hardware slots
 * (cp_dispatch.c), and destroy or eviction (destroying: the waves are saved,
 * then the queue stops for good, as unmap_queues_cpsch preempts with CWSR
 * before the kernel frees the MQD).  The dispatch ends its service round
 * without retiring the packet; the next round reads the control stack
 * back, restores the saved workgroups from the area and starts the ones
 * never started (the dispatcher's progress stays in the MQD, struct
 * kemu_cp_ctx); the stack is then empty again (both offsets back at
 * ctl_stack_size).
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
	q->ctx.pending = NULL;
	q->ctx.npending = 0;
	q->ctx.nsaved = 0;
	q->ctx.saved = false;
	/* the firmware's writes to the MQD (gpu.h, struct kemu_hw_cwsr) */
	kemu_gpu_cwsr_reset((struct kemu_hw_queue *)q->hw.hq);
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

#define CTX_STACK_HEADER 40u     /* SIZEOF_HSA_USER_CONTEXT_SAVE_AREA_HEADER */
#define CTX_PM4_NOP 0x80000000u  /* a type-2 PM4 packet: one dword */

/* XCC xcc's context-save area (init_mqd_v9_4_3). */
static uint64_t ctx_xcc_base(const struct kemu_cp_queue *q, uint32_t xcc)
{
	return q->hw.hq->info.ctx_save_va + (uint64_t)q->hw.hq->info.ctx_save_size * xcc;
}

/* The XCC workgroup id[3] of d runs on: the linear id round robin. */
static uint32_t ctx_wg_xcc(const struct kemu_isa_dispatch *d, const uint32_t *id,
			   uint32_t n_xcc)
{
	uint64_t g[3];
	for (unsigned i = 0; i < 3; i++) {
		uint64_t ws = d->workgroup_size[i] ? d->workgroup_size[i] : 1;
		g[i] = (d->grid_size[i] + ws - 1) / ws;
	}
	uint64_t linear = id[0] + g[0] * (id[1] + g[1] * (uint64_t)id[2]);
	return (uint32_t)(linear % n_xcc);
}

int kemu_cp_ctx_save(struct kemu_cp_queue *q, const struct kemu_isa_dispatch *d,
		     uint64_t index, uint64_t next_wg, const uint64_t *pending,
		     uint32_t npending, struct kemu_isa_wg_state **sts, uint32_t n)
{
	/* the firmware writes the MQD (gpu.h: the engine's part of it) */
	struct kemu_hw_cwsr *c = (struct kemu_hw_cwsr *)&q->hw.hq->cwsr;
	uint32_t stack_size = q->hw.hq->info.ctl_stack_size;
	struct kemu_vm_fault_info f;
	struct kemu_isa_ctx_wg rec;
	uint32_t words[KEMU_ISA_CTX_MAX_WAVES + 1];
	uint32_t pos[KEMU_GPU_MAX_XCC], used[KEMU_GPU_MAX_XCC] = { 0 };
	uint64_t *pend = NULL;
	uint8_t *buf = NULL;
	size_t cap = 0;
	uint32_t i, x;
	int ret = -1;

	kemu_cp_ctx_clear(q);
	if (!q->hw.hq->info.ctx_save_va || !c->ctl_stack) {
		/* a compute queue without a context-save area cannot be
		 * preempted mid-dispatch: the SPI has nowhere to save, the
		 * HWS preemption times out and the driver resets the GPU */
		kemu_cp_queue_error(q, KEMU_CP_ERR_TRAP, "preempted with waves in flight but "
				    "the queue has no context-save area (HWS preemption hang)");
		goto out;
	}
	pend = npending ? calloc(npending, sizeof(*pend)) : NULL;
	if (npending && !pend) {
		kemu_cp_queue_error(q, KEMU_CP_ERR_ILLEGAL_INSN, "no host memory for a context save");
		goto out;
	}
	for (x = 0; x < c->num_xcc; x++)
		pos[x] = stack_size / 4; /* word index of the stack's top */
	for (i = 0; i < n; i++) {
		size_t bytes = kemu_isa_ctx_bytes(sts[i]);
		unsigned nw;
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
		if (kemu_isa_ctx_save(sts[i], &rec, buf, bytes) ||
		    !(nw = kemu_isa_ctx_relaunch(&rec, words))) {
			kemu_cp_queue_error(q, KEMU_CP_ERR_ILLEGAL_INSN,
					    "a workgroup's context cannot be saved");
			goto out;
		}
		x = ctx_wg_xcc(d, rec.wg_id, c->num_xcc);
		/* the words, the two PM4 dwords on top and the header below
		 * the stack must fit: the kernel sized it for every wave */
		if (pos[x] < CTX_STACK_HEADER / 4 + 2 + nw || used[x] + bytes > UINT32_MAX - stack_size) {
			kemu_cp_queue_error(q, KEMU_CP_ERR_TRAP, "the control stack overflows "
					    "(HWS preemption hang)");
			goto out;
		}
		if (ctx_copy(q, ctx_xcc_base(q, x) + stack_size + used[x], buf, bytes, true, &f)) {
			char what[160];
			snprintf(what, sizeof(what), "context save of workgroup (%u,%u,%u) into the "
				 "CWSR area at 0x%llx", rec.wg_id[0], rec.wg_id[1], rec.wg_id[2],
				 (unsigned long long)ctx_xcc_base(q, x));
			kemu_cp_queue_fault(q, &f, what);
			goto out;
		}
		used[x] += (uint32_t)bytes;
		pos[x] -= nw;
		memcpy(c->ctl_stack + (size_t)x * (stack_size / 4) + pos[x], words, nw * 4);
	}
	for (x = 0; x < c->num_xcc; x++) {
		uint32_t *stack = c->ctl_stack + (size_t)x * (stack_size / 4);
		if (used[x]) {
			pos[x] -= 2;
			stack[pos[x]] = CTX_PM4_NOP;
			stack[pos[x] + 1] = CTX_PM4_NOP;
		}
		c->cntl_stack_offset[x] = pos[x] * 4;
		c->wg_state_offset[x] = stack_size + used[x];
	}
	if (npending)
		memcpy(pend, pending, npending * sizeof(*pend));
	q->ctx.saved = true;
	q->ctx.index = index;
	q->ctx.next_wg = next_wg;
	q->ctx.pending = pend;
	q->ctx.npending = npending;
	q->ctx.nsaved = n;
	q->ctx.saves++;
	atomic_fetch_add_explicit(&cp_context_saves, 1, memory_order_relaxed);
	pend = NULL;
	ret = 0;
	kemu_gpu_dbg(q->hw.hq->log_level, "CP: gpu 0x%x queue %u: dispatch %llu preempted: %u "
		     "workgroups (%u bytes on XCC 0) saved, %u claimed and %llu unclaimed to "
		     "start", q->hw.gpu_id, q->hw.queue_id, (unsigned long long)index, n, used[0],
		     npending, (unsigned long long)next_wg);
out:
	if (ret)
		kemu_gpu_cwsr_reset((struct kemu_hw_queue *)q->hw.hq); /* no half stack */
	for (i = 0; i < n; i++)
		kemu_isa_workgroup_free(sts[i]);
	free(buf);
	free(pend);
	return ret;
}

/* What XCC x's control stack says: every saved workgroup's record read
 * back from its bytes, appended to sts (*ns so far, room for cap).  The
 * stack is walked from its top (after the two PM4 dwords) and the area
 * from cp_hqd_wg_state_offset down, as ROCdbgapi's decoder walks them.
 * 0, or -1 after raising the fault or error. */
static int ctx_restore_xcc(struct kemu_cp_queue *q, uint32_t x, const struct kemu_isa_program *p,
			   const struct kemu_isa_dispatch *d, struct kemu_isa_wg_state **sts,
			   uint32_t *ns, uint32_t cap, uint8_t **buf, size_t *bufcap)
{
	const struct kemu_hw_cwsr *c = &q->hw.hq->cwsr;
	uint32_t stack_size = q->hw.hq->info.ctl_stack_size;
	const uint32_t *stack = c->ctl_stack + (size_t)x * (stack_size / 4);
	uint32_t off = c->cntl_stack_offset[x];
	uint64_t base = ctx_xcc_base(q, x) + stack_size;
	uint64_t top = ctx_xcc_base(q, x) + c->wg_state_offset[x];
	struct kemu_vm_fault_info f;
	struct kemu_isa_error err;
	struct kemu_isa_ctx_wg rec;
	char what[224];

	if (off == stack_size && top == base)
		return 0; /* nothing saved on this XCC */
	if (off % 4 || off > stack_size - 8 || top < base) {
		snprintf(what, sizeof(what), "context restore: XCC %u's control stack offset %u or "
			 "wave-state end 0x%llx is corrupt", x, off, (unsigned long long)top);
		kemu_cp_queue_error(q, KEMU_CP_ERR_ILLEGAL_INSN, what);
		return -1;
	}
	size_t i = off / 4 + 2, end = stack_size / 4;
	while (i < end) {
		size_t nw = kemu_isa_ctx_parse(stack + i, end - i, &rec);
		size_t bytes = nw ? kemu_isa_ctx_rec_bytes(&rec) : 0;
		if (!nw || *ns == cap || bytes > top - base) {
			snprintf(what, sizeof(what), "context restore: XCC %u's control stack is "
				 "corrupt at word %zu", x, i);
			kemu_cp_queue_error(q, KEMU_CP_ERR_ILLEGAL_INSN, what);
			return -1;
		}
		i += nw;
		top -= bytes;
		if (bytes > *bufcap) {
			uint8_t *nb = realloc(*buf, bytes);
			if (!nb) {
				kemu_cp_queue_error(q, KEMU_CP_ERR_ILLEGAL_INSN,
						    "no host memory for a context restore");
				return -1;
			}
			*buf = nb;
			*bufcap = bytes;
		}
		if (ctx_copy(q, top, *buf, bytes, false, &f)) {
			kemu_cp_queue_fault(q, &f, "context restore from the CWSR area");
			return -1;
		}
		struct kemu_isa_wg_state *st = NULL;
		if (!kemu_isa_ctx_identify(&rec, *buf, bytes))
			st = kemu_isa_ctx_restore(p, d, &rec, *buf, bytes, &err);
		else
			snprintf(err.message, sizeof(err.message), "the waves of a record disagree "
				 "on their workgroup");
		if (!st) {
			/* what a wave resuming with a corrupt save area meets */
			snprintf(what, sizeof(what), "context restore: %s", err.message);
			kemu_cp_queue_error(q, KEMU_CP_ERR_ILLEGAL_INSN, what);
			return -1;
		}
		sts[(*ns)++] = st;
	}
	if (top != base) {
		snprintf(what, sizeof(what), "context restore: XCC %u's control stack does not "
			 "account for %llu bytes of saved waves", x, (unsigned long long)(top - base));
		kemu_cp_queue_error(q, KEMU_CP_ERR_ILLEGAL_INSN, what);
		return -1;
	}
	return 0;
}

int kemu_cp_ctx_restore(struct kemu_cp_queue *q, const struct kemu_isa_program *p,
			const struct kemu_isa_dispatch *d, struct kemu_isa_wg_state ***out,
			uint32_t *nout)
{
	const struct kemu_hw_cwsr *c = &q->hw.hq->cwsr;
	struct kemu_isa_wg_state **sts = NULL;
	uint8_t *buf = NULL;
	size_t cap = 0;
	uint32_t n = 0, want = q->ctx.nsaved;

	*out = NULL;
	*nout = 0;
	if (!want)
		return 0;
	if (!c->ctl_stack) {
		kemu_cp_queue_error(q, KEMU_CP_ERR_ILLEGAL_INSN, "context restore without a "
				    "control stack");
		return -1;
	}
	sts = calloc(want, sizeof(*sts));
	if (!sts) {
		kemu_cp_queue_error(q, KEMU_CP_ERR_ILLEGAL_INSN,
				    "no host memory for a context restore");
		return -1;
	}
	for (uint32_t x = 0; x < c->num_xcc; x++) {
		if (ctx_restore_xcc(q, x, p, d, sts, &n, want, &buf, &cap))
			goto err;
	}
	if (n != want) {
		kemu_cp_queue_error(q, KEMU_CP_ERR_ILLEGAL_INSN, "context restore: the control "
				    "stacks hold fewer workgroups than were saved");
		goto err;
	}
	free(buf);
	q->ctx.restores++;
	*out = sts;
	*nout = n;
	return 0;

err:
	for (uint32_t i = 0; i < n; i++)
		kemu_isa_workgroup_free(sts[i]);
	free(sts);
	free(buf);
	return -1;
}

#endif /* KEMU_CP_HAVE_ISA */
