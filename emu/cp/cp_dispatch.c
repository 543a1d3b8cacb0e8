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
 *   - private memory: the per-wave scratch the kernel needs above what
 *     compute_tmpring_size gives per wave (WAVESIZE, 1 KiB units), or fewer
 *     scratch waves (WAVES) than one work-group has -> 0x1, the
 *     out-of-scratch code.  ROCr grows scratch and stores 0 into
 *     queue_inactive_signal to resume: the queue then re-reads the scratch
 *     fields and retries the same packet.
 * Scratch: the backing is the base in scratch_resource_descriptor words
 * 0-1 (the GPU VA for both ROCr and hsalite), WAVES x WAVESIZE bytes; the
 * workgroups that run at once each get their own slot of it, so the pool's
 * parallelism is capped at WAVES / waves-per-workgroup.
 *
 * Execution: workgroups are independent, so they are spread over the CP's
 * worker pool (cp_pool.c).  The first failure stops further workgroups and
 * becomes the queue error: illegal instruction -> 0x40000000, s_trap (and a
 * wave halting or deadlocking at a barrier, which hangs real hardware) ->
 * 0x80000000, an out-of-range LDS access -> 0x20000000 (aperture), a bad
 * descriptor -> 0x8, a bad dispatch -> 0x2; a memory fault -> the VM fault
 * path with the address the interpreter failed to translate.  A queue being
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

static void cp_sendmsg(void *ctx, uint32_t m0_low24, uint32_t wave_id)
{
	struct dispatch_run *r = ctx;
	(void)wave_id;
	r->q->hw.vm.ops->interrupt(r->q->hw.vm.p, m0_low24 & 0xFFFFFFu, 24);
}

static int run_workgroup(struct kemu_cp_job *job, uint64_t wg, unsigned slot)
{
	struct dispatch_run *r = (struct dispatch_run *)job;
	if (atomic_load_explicit(&r->q->destroying, memory_order_relaxed))
		return -1; /* preempted by DESTROY_QUEUE: abandon the rest */
	uint32_t x = (uint32_t)(wg % r->ngx);
	uint32_t y = (uint32_t)(wg / r->ngx % r->ngy);
	uint32_t z = (uint32_t)(wg / r->ngx / r->ngy);
	const struct dispatch_slot *s = &r->slot[slot < KEMU_CP_MAX_WORKERS ? slot
									 : KEMU_CP_MAX_WORKERS];
	struct kemu_isa_error err;
	memset(&err, 0, sizeof(err));
	if (!kemu_isa_run_workgroup_slot(r->prog, &s->d, x, y, z, slot, &err))
		return 0;
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
		if (atomic_load_explicit(&r->q->destroying, memory_order_relaxed)) {
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
		if (rc == 1) {
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
	default: /* s_trap, halt, barrier or GWS deadlock */
		kemu_cp_queue_error(q, KEMU_CP_ERR_TRAP, what);
		return;
	}
}

/* Scratch from amd_queue_t; -1 (queue waiting for scratch) if short. */
static int dispatch_scratch(struct dispatch_run *r, unsigned waves_per_wg, unsigned *slots)
{
	struct kemu_cp_queue *q = r->q;
	uint32_t need = kemu_isa_scratch_wave_bytes(r->prog, &r->d);
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
#ifdef KEMU_ISA_PREEMPT_INTERVAL
	/* DESTROY_QUEUE preempts the waves too, not only between workgroups:
	 * a kernel that never ends cannot hold the destroy */
	d->preempt = &q->destroying;
#endif
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
	if (d->gws && gws_setup(r, slots, kemu_isa_scratch_wave_bytes(r->prog, d) != 0))
		goto out_gws;
	/* every slot a participant may hold (any of them may run any
	 * workgroup), now with the scratch set up */
	unsigned held = r->job.total > 1 ? r->job.max_slots : 1;
	for (unsigned i = 0; i <= KEMU_CP_MAX_WORKERS; i++) {
		if (i < held || i == KEMU_CP_MAX_WORKERS)
			dispatch_slot_init(r, i);
	}
	kemu_cp_pool_run(&q->cp->pool, &r->job);
	if (r->have_err && !dispatch_preempted(&r->err))
		dispatch_fail(r, &r->err);
	else if (r->have_err)
		atomic_store_explicit(&q->hw.stopped, true, memory_order_relaxed); /* destroyed */
	else if (atomic_load_explicit(&r->job.failed, memory_order_relaxed))
		atomic_store_explicit(&q->hw.stopped, true, memory_order_relaxed); /* destroyed */
	else
		ret = 0;
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
