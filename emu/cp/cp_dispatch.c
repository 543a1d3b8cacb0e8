/*
 * KERNEL_DISPATCH: the CP's checks, then every workgroup through emu/isa.
 *
 * Checks, in this order, each stopping the queue with the code ROCr maps
 * (queue.h contract 3; the packet stays at read_dispatch_id):
 *   - setup dimensions not 1..3, or a zero grid or workgroup size in a used
 *     dimension -> 0x2 (invalid dimension); unused dimensions count as 1
 *   - workgroup larger than 1024 work-items -> 0x40
 *   - kernel_object null, not 64-byte aligned or not readable -> 0x8; a
 *     descriptor emu/isa refuses -> 0x8
 *   - LDS: the packet's group_segment_size is the work-group's total (the
 *     HSA ABI: static + dynamic, the runtime adds the descriptor's fixed
 *     size) and the descriptor's fixed size alone; either above 64 KiB -> 0x4
 *   - private memory: the packet's private_segment_size (per work-item,
 *     64 lanes a wave, 1 KiB units) above what compute_tmpring_size gives
 *     per wave (WAVESIZE), or fewer scratch waves (WAVES) than one
 *     work-group has -> 0x1, the out-of-scratch code.  ROCr grows scratch
 *     and stores 0 into queue_inactive_signal to resume: the queue then
 *     re-reads the scratch fields and retries the same packet.  Only the
 *     packet counts, as on the CP: the kernel descriptor's
 *     private_segment_fixed_size is the compiler's figure, which the CP
 *     does not weigh, and ROCr's handler (HandleInsufficientScratch, 1.18)
 *     sizes scratch from the packet alone and looks only for packets with
 *     private_segment_size > 0 -- were the descriptor weighed, HIP 6.3's
 *     recursive kernels (descriptor 16400 bytes, packet capped at 16 KiB
 *     by clr) would stop the queue again after every resume, forever.
 * Scratch: the backing is the base in scratch_resource_descriptor words
 * 0-1 (the GPU VA for both ROCr and hsalite), WAVES x WAVESIZE bytes; the
 * workgroups that run at once each get their own slot of it, so the pool's
 * parallelism is capped at WAVES / waves-per-workgroup.
 *
 * Execution: workgroups are independent, so they are spread over the CP's
 * worker pool (cp_pool.c).  The first failure stops further workgroups and
 * becomes the queue error.  Traps and exceptions are the trap handler's
 * (emu/isa, isa_trap.c): a wave that hits s_trap, an illegal instruction
 * or a memory violation (an out-of-range LDS access, a GWS resource outside
 * the VMID's) enters the runtime's second-level handler when
 * SET_TRAP_HANDLER installed one, which reports through the queue's
 * signals and an interrupt and halts the wave; without one the kernel's
 * handler skips the s_trap or halts the wave, and nothing is reported
 * (cp_trap_unreported logs it and counts it).  A halted wave leaves the
 * queue hung (kemu_cp_queue_hang), as on hardware, until it is destroyed.
 * KFDEMU_TRAPS=lenient restores the old reporting when no handler is
 * installed: illegal instruction -> 0x40000000, s_trap or a halt ->
 * 0x80000000, LDS range or MEM_VIOL -> 0x20000000.  Always: a barrier or
 * GWS deadlock (which hangs real hardware) -> 0x80000000, a bad descriptor
 * -> 0x8, a bad dispatch -> 0x2; a memory fault -> the VM fault path with
 * the address the interpreter failed to translate.  A queue being
 * destroyed abandons its dispatch between workgroups (the kernel preempts
 * it; its completion signal is never written).  s_sendmsg interrupts go to
 * the driver model with 24 valid id bits, as the SQ interrupt does.
 *
 * Caches, as the GPU keeps them (each valid for one VM generation, which
 * every MAP/UNMAP/SVM change bumps: kemu_vm.c, "The GPU's TLBs"):
 *   - decoded programs: emu/isa's program cache is the device's
 *     instruction cache, keyed by the CP (its pool) and the process; a
 *     program is reused until the VM generation or the CP's icache
 *     generation (a PM4 ACQUIRE_MEM with SH_ICACHE_ACTION_ENA, cp_pm4.c)
 *     moves, so code rewritten in place without an invalidate keeps
 *     running in its old form, as on hardware.  The pool's teardown with
 *     its CP forgets them (cp_pool.c).
 *   - a TLB per worker slot (q->wtlb, whole mappings from
 *     the driver's translate_range op), so the waves' translations take no VM lock;
 *     the generation is re-read (acquire) on every lookup, as kemu_cp_map
 *     does for the packet processor.  A miss translates afresh and
 *     reports the same fault as a fresh translation would; the first fault
 *     of the dispatch is the one raised.
 *   - each wave's page TLB in emu/isa, which follows the same generation.
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cp_priv.h"

#ifdef KEMU_CP_HAVE_ISA
#include "isa.h"
#endif

/* Device exceptions no trap handler reported (kemu_cp_unreported_exceptions). */
static _Atomic uint64_t cp_unreported;

uint64_t kemu_cp_unreported_exceptions(void)
{
	return atomic_load_explicit(&cp_unreported, memory_order_relaxed);
}

#define KEMU_CP_MAX_LDS      65536u
#define KEMU_CP_MAX_WG_ITEMS 1024u

struct dispatch_geom {
	uint32_t dims, grid[3], ngroups[3];
	uint16_t wg[3];
	uint64_t kernel_object;
};

/* The packet checks that need no interpreter. */
static int dispatch_geometry(struct kemu_cp_queue *q, const uint8_t *pkt,
			     struct dispatch_geom *g)
{
	uint16_t setup;
	memcpy(&setup, pkt + 2, 2);
	memcpy(g->wg, pkt + 4, 6);
	memcpy(g->grid, pkt + 12, 12);
	memcpy(&g->kernel_object, pkt + 32, 8);
	g->dims = setup & 3u;
	if (g->dims < 1) {
		kemu_cp_queue_error(q, KEMU_CP_ERR_DIMENSION, "dispatch setup dimensions");
		return -1;
	}
	uint64_t items = 1;
	for (unsigned i = 0; i < 3; i++) {
		if (i >= g->dims) {
			g->wg[i] = 1;
			g->grid[i] = 1;
		}
		if (!g->wg[i] || !g->grid[i]) {
			kemu_cp_queue_error(q, KEMU_CP_ERR_DIMENSION, "zero grid or workgroup size");
			return -1;
		}
		items *= g->wg[i];
		g->ngroups[i] = (uint32_t)(((uint64_t)g->grid[i] + g->wg[i] - 1) / g->wg[i]);
	}
	if (items > KEMU_CP_MAX_WG_ITEMS) {
		kemu_cp_queue_error(q, KEMU_CP_ERR_GROUP_SIZE, "workgroup above 1024 work-items");
		return -1;
	}
	if (!g->kernel_object || (g->kernel_object & 63)) {
		kemu_cp_queue_error(q, KEMU_CP_ERR_CODE_OBJECT, "kernel_object null or unaligned");
		return -1;
	}
	uint32_t *kd = kemu_cp_map(q, g->kernel_object, 64, KEMU_ACCESS_READ, NULL);
	if (!kd) {
		kemu_cp_queue_error(q, KEMU_CP_ERR_CODE_OBJECT, "kernel_object not mapped");
		return -1;
	}
	uint32_t group;
	memcpy(&group, pkt + 28, 4);
	if (group > KEMU_CP_MAX_LDS || kd[0] > KEMU_CP_MAX_LDS) {
		kemu_cp_queue_error(q, KEMU_CP_ERR_GROUP_MEMORY, "group segment above 64 KiB");
		return -1;
	}
	return 0;
}

bool kemu_cp_dispatch_scratch_resumed(struct kemu_cp_queue *q)
{
	/* the runtime stores 0 into queue_inactive_signal once it grew the
	 * queue's scratch (ROCr HandleInsufficientScratch) */
	struct kemu_vm_fault_info f;
	uint64_t handle, value = 1;
	if (atomic_load_explicit(&q->hw.evicted, memory_order_relaxed))
		return false;
	if (kemu_cp_load64(q, q->amd_va + KEMU_CP_AQ_INACTIVE, &handle, &f) || !handle)
		return false;
	if (kemu_cp_load64(q, handle + KEMU_CP_SIG_VALUE, &value, &f) || value)
		return false;
	q->scratch_wait = false;
	atomic_store_explicit(&q->hw.stopped, false, memory_order_relaxed);
	return true;
}

#ifdef KEMU_CP_HAVE_ISA

struct dispatch_run;

/* What one participant slot of a dispatch runs with: a memory interface
 * whose ctx is the slot (so translations go through the queue's worker
 * TLB for that slot) and the dispatch pointing at it.  Slot
 * KEMU_CP_MAX_WORKERS is a spare without TLB, shared by any participant
 * beyond the pool's size (there is none: the pool has fewer threads). */
struct dispatch_slot {
	struct dispatch_run *r;
	struct kemu_gpu_tlb *tlb;      /* NULL: translate afresh */
	struct kemu_isa_mem mem;
	struct kemu_isa_dispatch d;
};

/* A workgroup of a cooperative dispatch saved while its waves wait on GWS. */
struct gws_saved {
	struct kemu_isa_wg_state *st;
	struct gws_saved *next;
};

struct dispatch_run {
	struct kemu_cp_job job;        /* first: the pool hands it back */
	struct kemu_cp_queue *q;
	const struct kemu_isa_program *prog;
	struct kemu_isa_dispatch d;    /* copied into every slot */
	uint32_t ngx, ngy;
	pthread_mutex_t lock;          /* the first error and fault; GWS mode:
					  everything below */
	bool have_err, have_fault;
	struct kemu_isa_error err;
	struct kemu_vm_fault_info fault;
	/* GWS mode (gws_participate): the saved workgroups, how many
	 * workgroups run now, the free scratch slots (a stack; NULL: the
	 * kernel needs no scratch, every workgroup uses slot 0) */
	pthread_cond_t cond;           /* a workgroup returned, or GWS released */
	struct gws_saved *saved;
	unsigned running;
	unsigned *free_slots, n_free;
	/* CWSR (cp_ctx.c), under lock: workgroups preempted with their
	 * waves saved (GWS mode keeps them on saved, with the ones waiting
	 * on GWS), claimed workgroups that never started, and when the
	 * dispatch (this round of it) began, for time slicing */
	struct gws_saved *preempted;
	uint64_t *pending;
	unsigned npending, cap_pending;
	uint64_t t_start;
	struct dispatch_slot slot[KEMU_CP_MAX_WORKERS + 1];
};

static void *cp_translate(void *ctx, uint64_t va, uint64_t len, unsigned access)
{
	struct dispatch_slot *s = ctx;
	struct dispatch_run *r = s->r;
	unsigned a = 0;
	if (access & (KEMU_ISA_ACCESS_READ | KEMU_ISA_ACCESS_ATOMIC))
		a |= KEMU_ACCESS_READ;
	if (access & (KEMU_ISA_ACCESS_WRITE | KEMU_ISA_ACCESS_ATOMIC))
		a |= KEMU_ACCESS_WRITE;
	if (access & KEMU_ISA_ACCESS_EXEC)
		a |= KEMU_ACCESS_EXEC;
	struct kemu_vm_fault_info f;
	void *h = s->tlb ? kemu_gpu_tlb_map(&r->q->hw.vm, s->tlb, va, (size_t)len, a, &f)
			 : kemu_gpu_map(&r->q->hw.vm, va, (size_t)len, a, &f);
	if (!h) {
		pthread_mutex_lock(&r->lock);
		if (!r->have_fault) {
			r->fault = f;
			r->have_fault = true;
		}
		pthread_mutex_unlock(&r->lock);
	}
	return h;
}

/* The SQ interrupt of s_sendmsg MSG_INTERRUPT.  From a trap handler (PRIV)
 * the 24 bits are, as KFD reads them, an exception mask [23:10] and the
 * doorbell id [9:0] of the wave's queue (ROCr's KFD-exceptions handler
 * sends that): the driver may deliver it to the runtime instead of the
 * event interrupt.  The kernel looks the doorbell up among the process's
 * queues; a wave's handler can only learn its own queue's (GET_DOORBELL),
 * so another id is left to the event interrupt here. */
static void cp_sendmsg(void *ctx, uint32_t m0_low24, uint32_t wave_id)
{
	struct dispatch_run *r = ctx;
	struct kemu_cp_queue *q = r->q;
	uint32_t data = m0_low24 & 0xFFFFFFu;
	const struct kemu_hw_queue *hq = q->hw.hq;
	if ((wave_id & KEMU_ISA_INTERRUPT_PRIV) && hq && q->hw.vm.ops->trap_exception &&
	    (data >> 10) && (data & 0x3FFu) == hq->info.doorbell_index &&
	    q->hw.vm.ops->trap_exception(q->hw.vm.p, q->hw.gpu_id, hq->info.queue_id,
					 hq->info.ctx_save_va, data >> 10))
		return;
	q->hw.vm.ops->interrupt(q->hw.vm.p, data, 24);
}

/* Is the dispatch to be preempted now?  The queue's request (the knob's
 * stop point, destroy, eviction), or time slicing: with more queues on the
 * device than hardware slots, a dispatch that ran its quantum is preempted
 * so that the queues waiting get a slot (the HWS's oversubscription
 * quantum).  Only a queue with a context-save area is sliced mid-dispatch;
 * without one the HWS must wait for the dispatch to drain. */
static bool ctx_preempt_now(struct dispatch_run *r)
{
	struct kemu_cp_queue *q = r->q;
	if (atomic_load_explicit(&q->ctx_preempt, memory_order_relaxed))
		return true;
	if (r->d.preempt_save &&
	    atomic_load_explicit(&q->cp->oversubscribed, memory_order_relaxed) &&
	    kemu_gpu_now_ns() - r->t_start >= KEMU_CP_QUANTUM_NS) {
		atomic_store_explicit(&q->ctx_preempt, true, memory_order_relaxed);
		return true;
	}
	return false;
}

/* emu/isa's poll (kemu_isa_dispatch.preempt_poll): the time slice. */
static bool cp_preempt_poll(void *ctx)
{
	return ctx_preempt_now(ctx);
}

/* Keeps st (2: preempted with its waves saved) for the context save.
 * -1: no host memory (st freed, error recorded). */
static int keep_preempted(struct dispatch_run *r, struct kemu_isa_wg_state *st,
			  struct gws_saved **list)
{
	struct gws_saved *sv = malloc(sizeof(*sv));
	pthread_mutex_lock(&r->lock);
	if (sv) {
		sv->st = st;
		sv->next = *list;
		*list = sv;
	} else if (!r->have_err) {
		r->have_err = true;
		memset(&r->err, 0, sizeof(r->err));
		r->err.kind = KEMU_ISA_ERR_NO_MEMORY;
		snprintf(r->err.message, sizeof(r->err.message),
			 "out of memory keeping a preempted workgroup");
	}
	pthread_mutex_unlock(&r->lock);
	if (!sv) {
		kemu_isa_workgroup_free(st);
		return -1;
	}
	/* the others stop too: the whole dispatch is preempted */
	atomic_store_explicit(&r->q->ctx_preempt, true, memory_order_relaxed);
	return 0;
}

/* A claimed workgroup that will not start before the preemption. */
static int keep_pending(struct dispatch_run *r, uint64_t wg)
{
	int ret = 0;
	pthread_mutex_lock(&r->lock);
	if (r->npending == r->cap_pending) {
		unsigned cap = r->cap_pending ? r->cap_pending * 2 : 8;
		uint64_t *np = realloc(r->pending, cap * sizeof(*np));
		if (!np) {
			ret = -1;
			if (!r->have_err) {
				r->have_err = true;
				memset(&r->err, 0, sizeof(r->err));
				r->err.kind = KEMU_ISA_ERR_NO_MEMORY;
				snprintf(r->err.message, sizeof(r->err.message),
					 "out of memory keeping a preempted dispatch's progress");
			}
			goto out;
		}
		r->pending = np;
		r->cap_pending = cap;
	}
	r->pending[r->npending++] = wg;
out:
	pthread_mutex_unlock(&r->lock);
	return ret;
}

/* The first-level handler skipped an s_trap or halted a wave for want of a
 * second-level handler: silicon says nothing, so the emulator does. */
static void cp_trap_unreported(void *ctx, const struct kemu_isa_error *e)
{
	struct dispatch_run *r = ctx;
	struct kemu_cp_queue *q = r->q;
	atomic_fetch_add_explicit(&cp_unreported, 1, memory_order_relaxed);
	kemu_gpu_warn(q->cp->unit.log_level,
		      "CP: gpu 0x%x queue %u: unreported device exception at pc 0x%llx "
		      "(TRAPSTS 0x%x): %s; no trap handler is installed (SET_TRAP_HANDLER), "
		      "so the kernel's handler %s and nothing is reported",
		      q->hw.gpu_id, q->hw.queue_id, (unsigned long long)e->pc, e->trapsts,
		      e->message, e->kind == KEMU_ISA_ERR_TRAP ? "skips the s_trap" : "halts the wave");
}

static int run_workgroup(struct kemu_cp_job *job, uint64_t wg, unsigned slot)
{
	struct dispatch_run *r = (struct dispatch_run *)job;
	if (ctx_preempt_now(r)) {
		if (!r->d.preempt_save)
			return -1; /* preempted by DESTROY_QUEUE: abandon the rest */
		return keep_pending(r, wg) ? -1 : 1;
	}
	uint32_t x = (uint32_t)(wg % r->ngx);
	uint32_t y = (uint32_t)(wg / r->ngx % r->ngy);
	uint32_t z = (uint32_t)(wg / r->ngx / r->ngy);
	const struct dispatch_slot *s = &r->slot[slot < KEMU_CP_MAX_WORKERS ? slot
									 : KEMU_CP_MAX_WORKERS];
	struct kemu_isa_error err;
	struct kemu_isa_wg_state *st = NULL;
	memset(&err, 0, sizeof(err));
	int rc = kemu_isa_run_workgroup_gws(r->prog, &s->d, x, y, z, slot, &st, &err);
	if (!rc)
		return 0;
	if (rc == 2)
		return keep_preempted(r, st, &r->preempted) ? -1 : 1;
	if (rc == 1) { /* waits on GWS without GWS: cannot happen */
		kemu_isa_workgroup_free(st);
		err.kind = KEMU_ISA_ERR_DEADLOCK;
		snprintf(err.message, sizeof(err.message), "workgroup waits on GWS it lacks");
	}
	pthread_mutex_lock(&r->lock);
	if (!r->have_err) {
		r->err = err;
		r->have_err = true;
	}
	pthread_mutex_unlock(&r->lock);
	return -1;
}

/*
 * A dispatch that may use GWS (its process holds the device's GWS) runs as
 * a cooperative grid.  A grid barrier needs every workgroup resident at
 * once; hipLaunchCooperativeKernel sizes the grid so that it fits on the
 * device, and the hardware then launches all of it.  Here each participant
 * claims workgroups while any is left (and a scratch slot is free) and runs
 * each until it ends or its waves all wait on GWS; such a workgroup is saved
 * (emu/isa copies its waves out of the thread's arena) and keeps its
 * scratch slot.  With nothing left to claim a participant resumes saved
 * workgroups that a GWS operation released since, or sleeps until a
 * workgroup returns or a wave's GWS operation releases waiters
 * (cp_gws_released).  Saved workgroups, none released and none running is
 * a deadlock (a barrier for more waves than the grid has, a semaphore
 * nobody signals, scratch too small for the grid to be resident): the
 * hardware would hang until the driver resets the queue; here it is the
 * queue error of a hang (0x80000000), at once.  Everything under r->lock;
 * lock order r->lock -> the GWS lock (kemu_isa_workgroup_ready), and the
 * release callback runs with no emu/isa lock held.
 */
static void cp_gws_released(void *ctx)
{
	struct dispatch_run *r = ctx;
	pthread_mutex_lock(&r->lock);
	pthread_cond_broadcast(&r->cond);
	pthread_mutex_unlock(&r->lock);
}

/* The first error of the dispatch.  Caller holds r->lock. */
static void gws_record_err(struct dispatch_run *r, const struct kemu_isa_error *e)
{
	if (!r->have_err) {
		r->err = *e;
		r->have_err = true;
	}
	atomic_store_explicit(&r->job.failed, true, memory_order_relaxed);
}

/* A saved workgroup that a GWS operation released, unlinked.  Caller holds
 * r->lock. */
static struct kemu_isa_wg_state *gws_take_ready(struct dispatch_run *r)
{
	for (struct gws_saved **pp = &r->saved; *pp; pp = &(*pp)->next) {
		struct gws_saved *sv = *pp;
		if (kemu_isa_workgroup_ready(sv->st)) {
			struct kemu_isa_wg_state *st = sv->st;
			*pp = sv->next;
			free(sv);
			return st;
		}
	}
	return NULL;
}

static void gws_participate(struct kemu_cp_job *job, unsigned pslot)
{
	struct dispatch_run *r = (struct dispatch_run *)job;
	const struct dispatch_slot *s = &r->slot[pslot < KEMU_CP_MAX_WORKERS ? pslot
									   : KEMU_CP_MAX_WORKERS];
	struct kemu_isa_error err;

	pthread_mutex_lock(&r->lock);
	for (;;) {
		uint64_t next = atomic_load_explicit(&job->next, memory_order_relaxed);
		struct kemu_isa_wg_state *st = NULL;
		unsigned slot = 0;
		int rc;

		if (atomic_load_explicit(&job->failed, memory_order_relaxed))
			break;
		if (ctx_preempt_now(r)) {
			if (r->d.preempt_save)
				break; /* preempted: running and saved workgroups are saved */
			atomic_store_explicit(&job->failed, true, memory_order_relaxed);
			break; /* preempted by DESTROY_QUEUE: abandon the rest */
		}
		if (next < job->total && (!r->free_slots || r->n_free)) {
			if (r->free_slots)
				slot = r->free_slots[--r->n_free];
			/* relaxed: pool_find_job's hint; the claim is under r->lock */
			atomic_store_explicit(&job->next, next + 1, memory_order_relaxed);
		} else if (!(st = gws_take_ready(r))) {
			if (next >= job->total && !r->saved)
				break; /* every workgroup is done or running */
			if (!r->running) {
				memset(&err, 0, sizeof(err));
				err.kind = KEMU_ISA_ERR_DEADLOCK;
				snprintf(err.message, sizeof(err.message),
					 "cooperative grid deadlocked: workgroups wait on GWS "
					 "(%llu of %llu started) and nothing running can release them",
					 (unsigned long long)next, (unsigned long long)job->total);
				gws_record_err(r, &err);
				pthread_cond_broadcast(&r->cond);
				break;
			}
			pthread_cond_wait(&r->cond, &r->lock);
			continue;
		}
		r->running++;
		pthread_mutex_unlock(&r->lock);
		memset(&err, 0, sizeof(err));
		if (st) {
			slot = kemu_isa_workgroup_scratch_slot(st);
			rc = kemu_isa_resume_workgroup(st, &s->d, &err);
		} else {
			uint32_t x = (uint32_t)(next % r->ngx);
			uint32_t y = (uint32_t)(next / r->ngx % r->ngy);
			uint32_t z = (uint32_t)(next / r->ngx / r->ngy);
			rc = kemu_isa_run_workgroup_gws(r->prog, &s->d, x, y, z, slot, &st, &err);
		}
		pthread_mutex_lock(&r->lock);
		r->running--;
		if (rc == 2) /* preempted: ready to run again, keeps its slot */
			atomic_store_explicit(&r->q->ctx_preempt, true, memory_order_relaxed);
		if (rc == 1 || rc == 2) {
			struct gws_saved *sv = malloc(sizeof(*sv));
			if (sv) {
				sv->st = st;
				sv->next = r->saved;
				r->saved = sv;
			} else {
				kemu_isa_workgroup_free(st);
				err.kind = KEMU_ISA_ERR_NO_MEMORY;
				snprintf(err.message, sizeof(err.message),
					 "out of memory saving a workgroup that waits on GWS");
				gws_record_err(r, &err);
			}
		} else {
			if (r->free_slots)
				r->free_slots[r->n_free++] = slot;
			if (rc < 0)
				gws_record_err(r, &err);
		}
		pthread_cond_broadcast(&r->cond);
	}
	pthread_mutex_unlock(&r->lock);
}

/* Sets r up for gws_participate: scratch slots for every workgroup that may
 * be resident at once.  -1: no memory (queue error raised). */
static int gws_setup(struct dispatch_run *r, unsigned slots, bool scratch)
{
	r->job.participate = gws_participate;
	r->job.max_slots = KEMU_CP_MAX_WORKERS; /* participants: one TLB each */
	r->d.gws_released = cp_gws_released;
	r->d.gws_ctx = r;
	pthread_cond_init(&r->cond, NULL);
	if (!scratch)
		return 0;
	r->free_slots = malloc((slots ? slots : 1) * sizeof(*r->free_slots));
	if (!r->free_slots) {
		pthread_cond_destroy(&r->cond);
		kemu_cp_queue_error(r->q, KEMU_CP_ERR_ILLEGAL_INSN,
				    "no host memory for a cooperative dispatch's scratch slots");
		return -1;
	}
	/* slot 0 on top: the first workgroups take the low slots */
	for (unsigned i = 0; i < slots; i++)
		r->free_slots[r->n_free++] = slots - 1 - i;
	return 0;
}

static void gws_teardown(struct dispatch_run *r)
{
	while (r->saved) {
		struct gws_saved *sv = r->saved;
		r->saved = sv->next;
		kemu_isa_workgroup_free(sv->st);
		free(sv);
	}
	free(r->free_slots);
	pthread_cond_destroy(&r->cond);
}

/* The waves stopped because the queue is being destroyed (not an error). */
static bool dispatch_preempted(const struct kemu_isa_error *e)
{
#ifdef KEMU_ISA_PREEMPT_INTERVAL
	return e->kind == KEMU_ISA_PREEMPTED;
#else
	(void)e;
	return false;
#endif
}

/* The queue error for an interpreter failure. */
static void dispatch_fail(struct dispatch_run *r, const struct kemu_isa_error *e)
{
	struct kemu_cp_queue *q = r->q;
	char what[224];
	snprintf(what, sizeof(what), "%s at pc 0x%llx: %s", kemu_isa_error_name(e->kind),
		 (unsigned long long)e->pc, e->message);
	switch (e->kind) {
	case KEMU_ISA_ERR_MEMORY_FAULT: {
		struct kemu_vm_fault_info f = r->fault;
		if (!r->have_fault)
			f = (struct kemu_vm_fault_info){ .va = e->va, .gpu_id = q->hw.gpu_id,
							 .not_present = true };
		kemu_cp_queue_fault(q, &f, what);
		return;
	}
	case KEMU_ISA_ERR_ILLEGAL_INSTRUCTION:
	case KEMU_ISA_ERR_NO_MEMORY:
		kemu_cp_queue_error(q, KEMU_CP_ERR_ILLEGAL_INSN, what);
		return;
	case KEMU_ISA_ERR_BAD_DESCRIPTOR:
		kemu_cp_queue_error(q, KEMU_CP_ERR_CODE_OBJECT, what);
		return;
	case KEMU_ISA_ERR_BAD_DISPATCH:
		kemu_cp_queue_error(q, KEMU_CP_ERR_DIMENSION, what);
		return;
	case KEMU_ISA_ERR_LDS_RANGE:
	case KEMU_ISA_ERR_MEM_VIOL: /* the trap handler's MEM_VIOL code */
		kemu_cp_queue_error(q, KEMU_CP_ERR_APERTURE, what);
		return;
	case KEMU_ISA_ERR_HALT:
		/* a halted wave: its dispatch never completes.  The hardware
		 * model, or a trap handler that halted it (having reported
		 * what it had to), leaves the queue hung until destroyed */
		if (r->d.trap.model == KEMU_ISA_TRAP_HW || e->trap) {
			kemu_cp_queue_hang(q, what);
			return;
		}
		kemu_cp_queue_error(q, KEMU_CP_ERR_TRAP, what);
		return;
	default: /* s_trap (lenient model), barrier or GWS deadlock */
		kemu_cp_queue_error(q, KEMU_CP_ERR_TRAP, what);
		return;
	}
}

/* The saved workgroups of r's dispatch (q->ctx) restored from the
 * context-save area.  GWS mode: they join r->saved (ready to run, holding
 * their scratch slots).  Otherwise this thread resumes them one by one
 * (each in its own scratch slot, through slot 0's TLB), then starts the
 * claimed workgroups that never started, before the pool takes the
 * unclaimed rest; a new preemption keeps what is left for the next save.
 * -1: the queue was stopped (fault or error raised). */
static int dispatch_resume(struct dispatch_run *r)
{
	struct kemu_cp_queue *q = r->q;
	struct kemu_isa_wg_state **sts;
	uint32_t n, i;
	uint64_t *pending = q->ctx.pending;
	uint32_t npending = q->ctx.npending;

	if (kemu_cp_ctx_restore(q, r->prog, &r->slot[0].d, &sts, &n))
		return -1;
	atomic_store_explicit(&r->job.next, q->ctx.next_wg, memory_order_relaxed);
	/* the MQD's copy is consumed: what is left is saved again */
	q->ctx.pending = NULL;
	q->ctx.npending = 0;
	kemu_cp_ctx_clear(q);
	for (i = 0; i < n; i++) {
		struct kemu_isa_wg_state *st = sts[i];
		struct kemu_isa_error err;
		int rc;
		if (r->d.gws) {
			unsigned slot = kemu_isa_workgroup_scratch_slot(st);
			for (unsigned k = 0; r->free_slots && k < r->n_free; k++) {
				if (r->free_slots[k] == slot) {
					r->free_slots[k] = r->free_slots[--r->n_free];
					break;
				}
			}
			if (keep_preempted(r, st, &r->saved))
				break;
			continue;
		}
		if (r->have_err || ctx_preempt_now(r)) {
			if (keep_preempted(r, st, &r->preempted))
				break;
			continue;
		}
		memset(&err, 0, sizeof(err));
		rc = kemu_isa_resume_workgroup(st, &r->slot[0].d, &err);
		if (rc == 2) {
			if (keep_preempted(r, st, &r->preempted))
				break;
		} else if (rc) {
			if (rc == 1)
				kemu_isa_workgroup_free(st);
			if (!r->have_err) {
				r->err = err;
				r->have_err = true;
			}
		}
	}
	for (i++; i < n; i++)
		kemu_isa_workgroup_free(sts[i]);
	free(sts);
	if (r->d.gws) {
		/* resumed by the participants; the request that saved them is
		 * served */
		atomic_store_explicit(&q->ctx_preempt,
				      atomic_load_explicit(&q->destroying, memory_order_relaxed),
				      memory_order_relaxed);
	}
	for (i = 0; i < npending; i++) {
		if (r->have_err)
			break;
		if (run_workgroup(&r->job, pending[i], 0) < 0)
			break;
	}
	free(pending);
	return 0;
}

/* After the workgroups: the queue error of a failure; the context save of
 * a preemption (then 1; a destroyed or evicted queue stops after it); 0
 * when every workgroup completed; -1 when the queue stopped. */
static int dispatch_finish(struct dispatch_run *r, uint64_t index)
{
	struct kemu_cp_queue *q = r->q;
	struct gws_saved *list = r->d.gws ? r->saved : r->preempted;
	uint64_t next = atomic_load_explicit(&r->job.next, memory_order_relaxed);
	uint32_t n = 0;
	int ret = -1;

	if (next > r->job.total)
		next = r->job.total;
	for (struct gws_saved *sv = list; sv; sv = sv->next)
		n++;
	bool preempted = r->d.preempt_save && (n || r->npending || next < r->job.total);
	if (r->have_err && !dispatch_preempted(&r->err)) {
		dispatch_fail(r, &r->err);
	} else if (preempted && !r->have_err) {
		struct kemu_isa_wg_state **sts = malloc((n ? n : 1) * sizeof(*sts));
		if (!sts) {
			kemu_cp_queue_error(q, KEMU_CP_ERR_ILLEGAL_INSN,
					    "no host memory for a context save");
			goto out; /* the lists are freed below and by gws_teardown */
		}
		uint32_t i = 0;
		while (list) {
			struct gws_saved *sv = list;
			list = sv->next;
			sts[i++] = sv->st;
			free(sv);
		}
		if (r->d.gws)
			r->saved = NULL;
		else
			r->preempted = NULL;
		if (!kemu_cp_ctx_save(q, &r->slot[0].d, index, next, r->pending, r->npending,
				     sts, n)) {
			if (atomic_load_explicit(&q->destroying, memory_order_relaxed)) {
				/* destroy or eviction preempted it: saved, as the
				 * hardware does, and the queue stops for good */
				atomic_store_explicit(&q->hw.stopped, true, memory_order_relaxed);
			} else {
				/* the request is served; the next round resumes */
				atomic_store_explicit(&q->ctx_preempt, false, memory_order_relaxed);
				ret = 1;
			}
		}
		free(sts);
	} else if (r->have_err || atomic_load_explicit(&r->job.failed, memory_order_relaxed)) {
		atomic_store_explicit(&q->hw.stopped, true, memory_order_relaxed); /* destroyed */
	} else {
		ret = 0;
	}
out:
	/* what was not saved (an error) goes */
	while (r->preempted) {
		struct gws_saved *sv = r->preempted;
		r->preempted = sv->next;
		kemu_isa_workgroup_free(sv->st);
		free(sv);
	}
	return ret;
}

/* Scratch from amd_queue_t; -1 (queue waiting for scratch) if short.  The
 * per-wave need is the packet's private_segment_size alone (no program:
 * the descriptor's fixed size is not the CP's to weigh; header comment). */
static int dispatch_scratch(struct dispatch_run *r, unsigned waves_per_wg, unsigned *slots)
{
	struct kemu_cp_queue *q = r->q;
	uint32_t need = kemu_isa_scratch_wave_bytes(NULL, &r->d);
	*slots = KEMU_CP_MAX_WORKERS;
	if (!need)
		return 0;
	uint32_t *aq = kemu_cp_map(q, q->amd_va + KEMU_CP_AQ_TMPRING, 4 + 16, KEMU_ACCESS_READ,
				   NULL);
	uint32_t tmpring = aq ? aq[0] : 0;
	uint32_t waves = tmpring & 0xFFFu, wave_bytes = ((tmpring >> 12) & 0x1FFFu) * 1024u;
	if (!aq || wave_bytes < need || waves < waves_per_wg) {
		q->scratch_wait = true;
		kemu_cp_queue_error(q, KEMU_CP_ERR_SCRATCH, "dispatch needs more scratch");
		return -1;
	}
	memcpy(r->d.scratch.srd, aq + 1, 16);
	r->d.scratch.base_va = (uint64_t)aq[1] | (uint64_t)(aq[2] & 0xFFFFu) << 32;
	r->d.scratch.wave_bytes = wave_bytes;
	r->d.scratch.size = (uint64_t)waves * wave_bytes;
	*slots = waves / waves_per_wg;
	return 0;
}

/* Sets up slot i of r from the dispatch template r->d. */
static void dispatch_slot_init(struct dispatch_run *r, unsigned i)
{
	struct dispatch_slot *s = &r->slot[i];
	s->r = r;
	s->tlb = i < KEMU_CP_MAX_WORKERS ? &r->q->wtlb[i] : NULL;
	/* the waves' own TLBs follow the VM generation too: emu/isa reads
	 * it with the acquire load kemu_gpu_vm_generation makes */
	s->mem = (struct kemu_isa_mem){ .ctx = s, .translate = cp_translate,
					.generation = r->q->hw.vm.gen };
	s->d = r->d;
	s->d.mem = &s->mem;
}

int kemu_cp_dispatch(struct kemu_cp_queue *q, const uint8_t *pkt, uint64_t pkt_va,
		     uint64_t index)
{
	struct dispatch_geom g;
	if (dispatch_geometry(q, pkt, &g))
		return -1;
	/* on the stack: the pool is done with the job when kemu_cp_pool_run
	 * returns (cp_pool.c) */
	struct dispatch_run run, *r = &run;
	memset(r, 0, offsetof(struct dispatch_run, slot));
	r->q = q;
	pthread_mutex_init(&r->lock, NULL);
	uint32_t *aq = kemu_cp_map(q, q->amd_va + 64, 8, KEMU_ACCESS_READ, NULL);
	struct kemu_isa_dispatch *d = &r->d;
	d->gfx_target_version = q->cp->gfx_target_version;
	d->gb_addr_config = q->cp->gb_addr_config;
	d->kernel_object = g.kernel_object;
	memcpy(&d->kernarg_address, pkt + 40, 8);
	d->dispatch_packet = pkt_va;
	d->queue_address = q->amd_va;
	d->dispatch_id = index;
	memcpy(d->grid_size, g.grid, sizeof(g.grid));
	memcpy(d->workgroup_size, g.wg, sizeof(g.wg));
	memcpy(&d->group_segment_size, pkt + 28, 4);
	memcpy(&d->private_segment_size, pkt + 24, 4);
	d->max_lds = KEMU_CP_MAX_LDS;
	if (aq) {
		d->apertures.shared_base = (uint64_t)aq[0] << 32;
		d->apertures.private_base = (uint64_t)aq[1] << 32;
	}
	d->interrupt = cp_sendmsg;
	d->interrupt_ctx = r;
	/* Preemption of the waves, not only between workgroups (a kernel that
	 * never ends cannot hold a destroy): with a context-save area the
	 * waves are saved there and the dispatch resumes from them (CWSR,
	 * cp_ctx.c; the knob's stop point every preempt_every instructions);
	 * without one only destroy and eviction preempt, discarding them. */
	d->preempt = &q->ctx_preempt;
	d->preempt_save = q->hw.hq->info.ctx_save_va != 0;
	d->preempt_after = d->preempt_save ? q->cp->preempt_every : 0;
	if (d->preempt_save) {
		d->preempt_poll = cp_preempt_poll;
		d->preempt_ctx = r;
	}
	/* traps: the process's handler as the first-level handler finds it
	 * when a wave traps (read once per dispatch) */
	struct kemu_trap_config tc = { 0 };
	if (q->hw.vm.ops->trap_config)
		q->hw.vm.ops->trap_config(q->hw.vm.p, q->hw.gpu_id, &tc);
	d->trap = (struct kemu_isa_trap){
		.model = tc.lenient ? KEMU_ISA_TRAP_REPORT : KEMU_ISA_TRAP_HW,
		.tba = tc.tba, .tma = tc.tma,
		.doorbell_id = q->hw.hq ? q->hw.hq->info.doorbell_index : 0,
		.unreported = cp_trap_unreported, .ctx = r,
	};
	/* The program cache is the device's instruction cache over this
	 * process's VM (isa.h, cache_vm): keyed by the CP (its pool, whose
	 * teardown forgets them) and the process, and valid while neither a
	 * MAP/UNMAP (the mapping generation, not the TLBs' which a CPU write
	 * to VRAM also moves: gpu.h code_gen) nor a PM4 icache invalidate
	 * (cp_pm4.c) happened since the decode.  Both are read before any code is;
	 * acquire: pairs with the release bumps. */
	d->cache_owner = &q->cp->pool;
	d->cache_vm = q->hw.vm.p;
	d->cache_vm_gen = kemu_gpu_vm_code_generation(&q->hw.vm);
	d->cache_icache_gen = atomic_load_explicit(&q->cp->icache_gen, memory_order_acquire);
	/* the program is fetched through slot 0 before any worker runs */
	dispatch_slot_init(r, 0);
	int ret = -1;
	struct kemu_isa_error err;
	memset(&err, 0, sizeof(err));
	r->prog = kemu_isa_program_get(&r->slot[0].d, &err);
	if (!r->prog) {
		if (err.kind == KEMU_ISA_ERR_MEMORY_FAULT)
			dispatch_fail(r, &err);
		else
			kemu_cp_queue_error(q, KEMU_CP_ERR_CODE_OBJECT, err.message);
		goto out;
	}
	unsigned slots;
	unsigned waves = kemu_isa_waves_per_workgroup(d);
	if (dispatch_scratch(r, waves ? waves : 1, &slots))
		goto out_put;
	r->ngx = g.ngroups[0];
	r->ngy = g.ngroups[1];
	r->job = (struct kemu_cp_job){
		.run = run_workgroup,
		.total = (uint64_t)g.ngroups[0] * g.ngroups[1] * g.ngroups[2],
		.max_slots = slots ? slots : 1,
	};
	/* the process's GWS, if its VMID has it: a cooperative grid */
	d->gws = kemu_cp_queue_gws(q, &d->gws_size);
	if (d->gws && gws_setup(r, slots, r->d.scratch.wave_bytes != 0))
		goto out_gws;
	/* every slot a participant may hold (any of them may run any
	 * workgroup), now with the scratch set up */
	unsigned held = r->job.total > 1 ? r->job.max_slots : 1;
	for (unsigned i = 0; i <= KEMU_CP_MAX_WORKERS; i++) {
		if (i < held || i == KEMU_CP_MAX_WORKERS)
			dispatch_slot_init(r, i);
	}
	r->t_start = kemu_gpu_now_ns();
	if (q->ctx.saved && q->ctx.index != index)
		kemu_cp_ctx_clear(q); /* not this packet's (cannot happen) */
	if (q->ctx.saved) {
		if (dispatch_resume(r))
			goto out_gws_teardown;
	}
	if (!ctx_preempt_now(r) && !r->have_err)
		kemu_cp_pool_run(&q->cp->pool, &r->job);
	ret = dispatch_finish(r, index);
out_gws_teardown:
	free(r->pending);
	if (d->gws)
		gws_teardown(r);
out_gws:
	kemu_isa_gws_put(d->gws);
out_put:
	kemu_isa_program_put((struct kemu_isa_program *)r->prog);
out:
	pthread_mutex_destroy(&r->lock);
	return ret;
}

#else /* !KEMU_CP_HAVE_ISA */

int kemu_cp_dispatch(struct kemu_cp_queue *q, const uint8_t *pkt, uint64_t pkt_va,
		     uint64_t index)
{
	(void)pkt_va;
	(void)index;
	struct dispatch_geom g;
	if (dispatch_geometry(q, pkt, &g))
		return -1;
	kemu_cp_queue_error(q, KEMU_CP_ERR_ILLEGAL_INSN,
			    "kfdemu was built without emu/isa: no kernel can run");
	return -1;
}

#endif
