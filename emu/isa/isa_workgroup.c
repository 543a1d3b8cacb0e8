/*
 * isa_workgroup.c — workgroups: the wave's initial state from the kernel
 * descriptor, the wave loop and the round-robin barrier scheduler, and
 * saving/resuming a workgroup that waits on GWS.  The program cache is in
 * isa_program.c; the helpers every executor shares (registers, memory,
 * errors) in isa_wave.c.
 *
 * Initial wave state follows LLVM AMDGPUUsage, "Initial Kernel Execution
 * State": user SGPRs in the order private segment buffer (4), dispatch
 * ptr (2), queue ptr (2), kernarg segment ptr (2), dispatch id (2), flat
 * scratch init (2), private segment size (1), then preloaded kernel
 * arguments (gfx90a/gfx942, KERNARG_PRELOAD; the CP then enters 256 bytes
 * past the entry point, skipping the compatibility block), then at
 * USER_SGPR_COUNT the system SGPRs: workgroup id x, y, z, workgroup info
 * and the private segment wavefront offset, each only when enabled in
 * COMPUTE_PGM_RSRC2.  gfx90a/gfx942 pack the work-item ids into v0
 * (x in [9:0], y in [19:10], z in [29:20]).  gfx942 has architected flat
 * scratch: FLAT_SCRATCH holds the wave's scratch base at entry and there
 * is no private segment buffer, flat scratch init or wave offset SGPR.
 *
 * Scheduling: the waves of one workgroup run one at a time, each until it
 * ends, reaches s_barrier or is queued on a GWS resource; the barrier opens
 * once every live wave has reached it.  Waves that have ended do not hold a
 * barrier (as on hardware, where a terminated wave no longer counts), so
 * any number of barriers, in loops or not, works.  A workgroup whose waves
 * all wait on GWS (only other workgroups can release them) is saved to the
 * heap and handed back to the caller (kemu_isa_run_workgroup_gws), which
 * resumes it on any thread once a release happened; the common case runs in
 * the thread's arena and is never copied.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "amd/gfx9_desc.h"
#include "isa_priv.h"

/* ---- workgroups ---- */

unsigned kemu_isa_waves_per_workgroup(const struct kemu_isa_dispatch *d)
{
	uint64_t n = (uint64_t)d->workgroup_size[0] * d->workgroup_size[1] * d->workgroup_size[2];
	return (unsigned)((n + ISA_LANES - 1) / ISA_LANES);
}

uint32_t kemu_isa_scratch_wave_bytes(const struct kemu_isa_program *p,
				     const struct kemu_isa_dispatch *d)
{
	uint64_t per_item = d->private_segment_size;
	uint64_t bytes;

	if (p && p->private_fixed > per_item)
		per_item = p->private_fixed;
	per_item = (per_item + 3) & ~3ull;
	bytes = per_item * ISA_LANES;
	bytes = (bytes + 1023) & ~1023ull;
	return bytes > UINT32_MAX ? UINT32_MAX : (uint32_t)bytes;
}

void kemu_isa_scratch_srd(uint64_t base_va, uint64_t size, uint32_t srd[4])
{
	/* The private-segment V# (gfx9): swizzled, stride 0, 32-bit FLOAT
	 * elements of 4 bytes, index stride 64 (a wave), ADD_TID. */
	static const uint8_t sel[4] = { GFX9_SEL_X, GFX9_SEL_Y, GFX9_SEL_Z, GFX9_SEL_W };

	for (unsigned i = 0; i < GFX9_V_DWORDS; i++)
		srd[i] = 0;
	gfx9_v_set_base(srd, base_va);
	GFX9_DESC_SET(srd, GFX9_V_SWIZZLE_ENABLE, 1);
	GFX9_DESC_SET(srd, GFX9_V_NUM_RECORDS, size > UINT32_MAX ? UINT32_MAX : size);
	gfx9_desc_set_dst_sel(srd, sel);
	GFX9_DESC_SET(srd, GFX9_V_NUM_FORMAT, 7);      /* BUF_NUM_FORMAT_FLOAT */
	GFX9_DESC_SET(srd, GFX9_V_DATA_FORMAT, 4);     /* BUF_DATA_FORMAT_32 */
	GFX9_DESC_SET(srd, GFX9_V_ELEMENT_SIZE, 1);    /* 4 bytes */
	GFX9_DESC_SET(srd, GFX9_V_INDEX_STRIDE, 3);    /* 64 */
	GFX9_DESC_SET(srd, GFX9_V_ADD_TID_ENABLE, 1);
}

struct wg_arena {
	void *mem;
	size_t size;
};

static pthread_key_t arena_key;
static pthread_once_t arena_once = PTHREAD_ONCE_INIT;

static void arena_free(void *a)
{
	struct wg_arena *ar = a;
	if (ar) {
		free(ar->mem);
		free(ar);
	}
}

static void arena_init(void)
{
	(void)pthread_key_create(&arena_key, arena_free);
}

/* Per-thread scratch memory for wave state, reused across workgroups. */
static void *arena_get(size_t size)
{
	struct wg_arena *ar;

	pthread_once(&arena_once, arena_init);
	ar = pthread_getspecific(arena_key);
	if (!ar) {
		ar = calloc(1, sizeof(*ar));
		if (!ar)
			return NULL;
		if (pthread_setspecific(arena_key, ar)) {
			free(ar);
			return NULL;
		}
	}
	if (ar->size < size) {
		void *m = aligned_alloc(64, (size + 63) & ~(size_t)63);
		if (!m)
			return NULL;
		memset(m, 0, (size + 63) & ~(size_t)63);
		free(ar->mem);
		ar->mem = m;
		ar->size = size;
	}
	return ar->mem;
}

static void wave_init(struct isa_wave *w, struct isa_wg *wg, unsigned id, unsigned nitems)
{
	const struct kemu_isa_program *p = wg->p;
	const struct kemu_isa_dispatch *d = wg->d;
	const amdhsa_kernel_descriptor_t *kd = &p->kd;
	uint32_t rsrc2 = kd->compute_pgm_rsrc2;
	unsigned kcp = kd->kernel_code_properties, s = 0;
	unsigned first = id * ISA_LANES, active;
	unsigned vgpr_items = (rsrc2 >> 11) & 3;
	uint64_t exec;
	uint32_t *v0;

	/* plain store loops (vectorised): a memset here became rep stos,
	 * whose start-up cost showed per wave */
	for (unsigned i = 0; i < ISA_NSREG; i++)
		w->s[i] = 0;
	w->scc = 0;
	w->p = p;
	w->insts = atomic_load_explicit(&((struct kemu_isa_program *)p)->code,
					memory_order_acquire)->insts;
	w->pc = p->entry;
	w->mode = p->mode;
	w->trapsts = 0;
	memset(&w->trap, 0, sizeof(w->trap));
	w->wg = wg;
	w->id = id;
	w->done = false;
	w->ninst = 0;
	w->tlb_gen = 0;
	for (unsigned i = 0; i < ISA_TLB; i++) /* page 0: not valid */
		w->tlb[i].page = 0;
	w->scratch_bytes = d->scratch.wave_bytes ? d->scratch.wave_bytes
						 : kemu_isa_scratch_wave_bytes(p, d);
	w->scratch_base = wg->scratch_slot_base + (uint64_t)id * w->scratch_bytes;

	if (kcp & 1) { /* private segment buffer: the scratch SRD */
		uint32_t srd[4];
		if (d->scratch.srd[0] | d->scratch.srd[1] | d->scratch.srd[2] | d->scratch.srd[3])
			memcpy(srd, d->scratch.srd, sizeof(srd));
		else
			kemu_isa_scratch_srd(d->scratch.base_va, d->scratch.size, srd);
		for (unsigned i = 0; i < 4; i++)
			w->s[s++] = srd[i];
	}
	if (kcp & 2) {
		w->s[s++] = (uint32_t)d->dispatch_packet;
		w->s[s++] = (uint32_t)(d->dispatch_packet >> 32);
	}
	if (kcp & 4) {
		w->s[s++] = (uint32_t)d->queue_address;
		w->s[s++] = (uint32_t)(d->queue_address >> 32);
	}
	if (kcp & 8) {
		w->s[s++] = (uint32_t)d->kernarg_address;
		w->s[s++] = (uint32_t)(d->kernarg_address >> 32);
	}
	if (kcp & 16) {
		w->s[s++] = (uint32_t)d->dispatch_id;
		w->s[s++] = (uint32_t)(d->dispatch_id >> 32);
	}
	if (kcp & 32) { /* GFX9: base of the queue's scratch backing */
		w->s[s++] = (uint32_t)d->scratch.base_va;
		w->s[s++] = (uint32_t)(d->scratch.base_va >> 32);
	}
	if (kcp & 64)
		w->s[s++] = (d->private_segment_size + 3) & ~3u;
	/* Preloaded kernarg dwords (the hardware has already checked they are
	 * readable in workgroup_run). */
	s = (rsrc2 >> 1) & 0x1f;
	if (rsrc2 & (1u << 7))
		w->s[s++] = wg->id[0];
	if (rsrc2 & (1u << 8))
		w->s[s++] = wg->id[1];
	if (rsrc2 & (1u << 9))
		w->s[s++] = wg->id[2];
	if (rsrc2 & (1u << 10)) /* workgroup info: wave count in [5:0]? we
				   provide the wave count of the workgroup */
		w->s[s++] = (nitems + ISA_LANES - 1) / ISA_LANES;
	if ((rsrc2 & 1) && !p->gfx942)
		w->s[s++] = (uint32_t)(w->scratch_base - d->scratch.base_va);
	if (p->gfx942) {
		/* Architected flat scratch: FLAT_SCRATCH = wave scratch base. */
		w->s[ISA_REG_FLAT_SCR_LO] = (uint32_t)w->scratch_base;
		w->s[ISA_REG_FLAT_SCR_LO + 1] = (uint32_t)(w->scratch_base >> 32);
	}

	/* EXEC: the lanes that hold work-items of this (possibly partial)
	 * workgroup. */
	active = nitems - first < ISA_LANES ? nitems - first : ISA_LANES;
	exec = active >= 64 ? ~0ull : (1ull << active) - 1;
	isa_set_exec(w, exec);

	/* VGPRs the kernel allocated start at zero (the hardware leaves them
	 * undefined; zero keeps runs reproducible).  The safety rows beyond
	 * were zeroed when the arena was allocated and are never read by
	 * correct code. */
	memset(w->v, 0, (size_t)p->vgpr_rows * ISA_LANES * sizeof(uint32_t));
	v0 = isa_vrow(w, 0);
	if (wg->size[1] == 1 && wg->size[2] == 1) {
		/* 1-D workgroup: x is the flat id */
		for (unsigned l = 0; l < active; l++)
			v0[l] = first + l;
	} else {
		/* work-item ids of lane 0, then stepped (no divisions per lane) */
		uint32_t x = first % wg->size[0];
		uint32_t y = (first / wg->size[0]) % wg->size[1];
		uint32_t z = first / (wg->size[0] * wg->size[1]);
		for (unsigned l = 0; l < active; l++) {
			uint32_t packed = x;
			if (vgpr_items >= 1)
				packed |= y << 10;
			if (vgpr_items >= 2)
				packed |= z << 20;
			v0[l] = packed;
			if (++x == wg->size[0]) {
				x = 0;
				if (++y == wg->size[1]) {
					y = 0;
					z++;
				}
			}
		}
	}
}

/* Whether the dispatch asks its waves to stop.  Relaxed: the flag only
 * tells the wave to stop, it publishes no data (the CP synchronises with
 * the workgroup's return, not with this load). */
static bool preempt_requested(const struct kemu_isa_dispatch *d)
{
	return (d->preempt && atomic_load_explicit(d->preempt, memory_order_relaxed)) ||
	       (d->preempt_poll && d->preempt_poll(d->preempt_ctx));
}

int isa_wave_preempted(struct isa_wave *w, const struct isa_inst *in)
{
	/* with a context save the wave keeps its state: w->pc is in, not yet
	 * executed, where the restored wave resumes */
	if (w->wg->d->preempt_save)
		return ISA_STEP_PREEMPT;
	/* err->pc: where the wave would resume */
	return isa_fail(w, in, KEMU_ISA_PREEMPTED, "wave %u preempted at pc 0x%llx", w->id,
			(unsigned long long)in->addr);
}

static int wave_run(struct isa_wave *w)
{
	const struct kemu_isa_dispatch *d = w->wg->d;
	uint64_t n = 0, limit = d->wave_instruction_limit, check, stop = UINT64_MAX;
	int r;

	if (limit)
		limit = limit > w->ninst ? limit - w->ninst : 1;
	else
		limit = UINT64_MAX;
	/* the CP's stop point for a context save (isa.h, preempt_after) */
	if (d->preempt_save && d->preempt_after)
		stop = d->preempt_after;
	/* One countdown serves the watchdog, the stop point and the
	 * preemption poll, so the hot loop keeps its single compare. */
	check = (d->preempt || d->preempt_poll) && limit > KEMU_ISA_PREEMPT_INTERVAL
			? KEMU_ISA_PREEMPT_INTERVAL : limit;
	if (stop < check)
		check = stop;
	/* w->insts is reloaded every step: an indirect jump may move the
	 * wave to a newer (longer) version of the code. */
	for (;;) {
		const struct isa_inst *in = &w->insts[w->pc];
		/* n == check, or a superinstruction (span 2 to 11) would run past
		 * it: the countdown's events, then this instruction alone */
		if (check - n < in->span) {
			if (n == check) {
				if (n == limit) {
					r = isa_fail(w, in, KEMU_ISA_ERR_WATCHDOG,
						     "wave %u ran %llu instructions without ending (pc 0x%llx)",
						     w->id, (unsigned long long)(w->ninst + n),
						     (unsigned long long)in->addr);
					break;
				}
				if (n == stop || preempt_requested(d)) {
					/* A wave in its trap handler (STATUS.PRIV) does
					 * not take the save trap: the SQ keeps SAVECTX
					 * pending and the wave re-enters for it when
					 * s_rfe_b64 leaves the handler (isa_exec_rfe;
					 * cwsr_trap_handler_gfx9.asm, L_NOT_HALTED: "Any
					 * concurrent SAVECTX will be handled upon
					 * re-entry").  The handler's ttmps are never
					 * saved mid-flight, as on hardware. */
					if (!w->trap.priv) {
						r = isa_wave_preempted(w, in);
						break;
					}
					w->trapsts |= ISA_TRAPSTS_SAVECTX;
				}
				check = limit - n > KEMU_ISA_PREEMPT_INTERVAL
						? n + KEMU_ISA_PREEMPT_INTERVAL : limit;
				if (stop > n && stop < check)
					check = stop;
			}
			if (check - n < in->span) {
				w->pc = in->next;
				n++;
				r = in->exec(w, in);
				goto ran;
			}
		}
		w->pc = in->next;
		n += in->span;
		r = in->run(w, in);
ran:
		if (r) {
			/* trap entry: the only way back into the loop */
			if (r == ISA_STEP_ERROR && isa_trap_raise(w, in) == 0)
				continue;
			break;
		}
		/* The no-ops after an instruction that fell through run here,
		 * counted, without a call each (s_waitcnt and s_nop are a
		 * fifth of what compilers emit).  Never past the countdown:
		 * the stop point and the polls stay at the same instruction
		 * as if each no-op had gone round the loop.  in->fall is past
		 * a superinstruction's pair, so the single executor of its
		 * first (a stop point between them) never matches. */
		if (in->nskip && w->pc == in->fall && check - n >= in->nskip) {
			w->pc = in->after;
			n += in->nskip;
		}
	}
	w->ninst += n;
	return r;
}

int kemu_isa_run_workgroup(const struct kemu_isa_program *p, const struct kemu_isa_dispatch *d,
			   uint32_t x, uint32_t y, uint32_t z, struct kemu_isa_error *err)
{
	return kemu_isa_run_workgroup_slot(p, d, x, y, z, 0, err);
}

/*
 * The workgroup scheduler: runs the waves round-robin, each until it ends,
 * reaches s_barrier or is queued on GWS.  The barrier opens when every live
 * wave has reached it (a wave that ended no longer counts); a wave queued on
 * GWS runs again once its resource released it.  Returns 0 when every wave
 * ended, -1 on an error (err set), 1 when no wave can run: some wait on GWS
 * (and the others at a barrier behind them), so only another workgroup can
 * release them.
 */
static int wg_schedule(struct isa_wg *wg, struct kemu_isa_error *err)
{
	const struct kemu_isa_dispatch *d = wg->d;

	for (;;) {
		bool progress = false;
		for (unsigned i = 0; i < wg->nwaves; i++) {
			struct isa_wave *w = &wg->waves[i];
			int r;
			if (w->done || w->at_barrier)
				continue;
			if (w->gws_wait) {
				if (!isa_gws_released(d->gws, w->gws_op, w->gws_rid, w->gws_token))
					continue;
				w->gws_wait = false;
			}
			w->err = err;
			/* at s_barrier (and before the first instruction);
			 * not inside the trap handler (wave_run) */
			if (!w->trap.priv && preempt_requested(d))
				return isa_wave_preempted(w, &w->insts[w->pc]) == ISA_STEP_PREEMPT ? 2
												    : -1;
			r = wave_run(w);
			progress = true;
			if (r == ISA_STEP_PREEMPT)
				return 2;
			if (r == ISA_STEP_END) {
				w->done = true;
				wg->live--;
			} else if (r == ISA_STEP_BARRIER) {
				w->at_barrier = true;
				wg->at_barrier++;
			} else if (r == ISA_STEP_ERROR) {
				return -1;
			}
			/* ISA_STEP_GWS: w->gws_wait is set */
		}
		if (!wg->live)
			return 0;
		if (wg->at_barrier && wg->at_barrier == wg->live) {
			for (unsigned i = 0; i < wg->nwaves; i++)
				wg->waves[i].at_barrier = false;
			wg->at_barrier = 0;
			continue;
		}
		if (!progress)
			return 1;
	}
}

static uint64_t wg_insts(const struct isa_wg *wg)
{
	uint64_t total_insts = 0;
	for (unsigned i = 0; i < wg->nwaves; i++)
		total_insts += wg->waves[i].ninst;
	return total_insts;
}

/* The statistics of a run of the workgroup that started with base
 * instructions done: the instructions of this run, and the waves and the
 * workgroup once it is over (rc 0 or -1; 1 and 2 suspend it). */
static void wg_count(const struct isa_wg *wg, uint64_t base, int rc)
{
	bool over = rc != 1 && rc != 2;
	kemu_isa_stats_add(wg_insts(wg) - base, over ? wg->nwaves : 0, over ? 1 : 0, 0);
}

/* Copies the workgroup out of the thread's arena (struct
 * kemu_isa_wg_state, isa_priv.h); returns rc (1: waits on GWS, 2:
 * preempted) or -1. */
static int wg_suspend(struct isa_wg *wg, uint8_t *arena, size_t need, int rc,
		      struct kemu_isa_wg_state **saved, struct kemu_isa_error *err)
{
	struct kemu_isa_wg_state *st = aligned_alloc(64, (sizeof(*st) + need + 63) & ~(size_t)63);
	if (!st) {
		isa_err_setf(err, KEMU_ISA_ERR_NO_MEMORY, 0,
			 "out of memory saving a workgroup that waits on GWS");
		return -1;
	}
	memcpy(st->data, arena, need);
	st->size = need;
	st->wg = *wg;
	st->wg.waves = (struct isa_wave *)st->data;
	st->wg.lds = st->data + (wg->lds - arena);
	for (unsigned i = 0; i < wg->nwaves; i++) {
		struct isa_wave *w = &st->wg.waves[i];
		w->v = (uint32_t *)(st->data + ((uint8_t *)wg->waves[i].v - arena));
		w->wg = &st->wg;
		w->err = NULL;
	}
	*saved = st;
	return rc;
}

static int wg_start(const struct kemu_isa_program *p, const struct kemu_isa_dispatch *d,
		    uint32_t x, uint32_t y, uint32_t z, unsigned slot,
		    struct kemu_isa_wg_state **saved, struct kemu_isa_error *err)
{
	struct isa_wg wg;
	struct isa_wave *waves;
	unsigned nwaves, nitems;
	uint32_t max_lds = d && d->max_lds ? d->max_lds : 65536;
	uint32_t wave_bytes;
	size_t vbytes, need;
	uint8_t *arena;
	int rc;
	uint32_t gid[3] = { x, y, z };

	if (err)
		memset(err, 0, sizeof(*err));
	if (!p || !d || !d->mem) {
		isa_err_setf(err, KEMU_ISA_ERR_BAD_DISPATCH, 0, "no program or dispatch");
		return -1;
	}
	memset(&wg, 0, sizeof(wg));
	wg.d = d;
	wg.p = p;
	wg.mem = d->mem;
	for (int i = 0; i < 3; i++) {
		uint32_t ws = d->workgroup_size[i], gs = d->grid_size[i];
		uint64_t start = (uint64_t)gid[i] * ws;
		if (ws == 0 || gs == 0 || start >= gs) {
			isa_err_setf(err, KEMU_ISA_ERR_BAD_DISPATCH, 0,
				 "workgroup (%u,%u,%u) is outside grid %ux%ux%u / workgroup %ux%ux%u",
				 x, y, z, d->grid_size[0], d->grid_size[1], d->grid_size[2],
				 d->workgroup_size[0], d->workgroup_size[1], d->workgroup_size[2]);
			return -1;
		}
		wg.id[i] = gid[i];
		/* The last workgroup in a dimension may be partial (HSA allows
		 * grids that are not a multiple of the workgroup size). */
		wg.size[i] = gs - start < ws ? (uint32_t)(gs - start) : ws;
	}
	nitems = wg.size[0] * wg.size[1] * wg.size[2];
	if ((uint64_t)d->workgroup_size[0] * d->workgroup_size[1] * d->workgroup_size[2] > 1024) {
		isa_err_setf(err, KEMU_ISA_ERR_BAD_DISPATCH, 0, "workgroup of more than 1024 work-items");
		return -1;
	}
	nwaves = (nitems + ISA_LANES - 1) / ISA_LANES;
	wg.lds_size = d->group_segment_size > p->lds_fixed ? d->group_segment_size : p->lds_fixed;
	if (wg.lds_size > max_lds) {
		isa_err_setf(err, KEMU_ISA_ERR_LDS_RANGE, 0,
			 "group segment of %u bytes is above the %u bytes of LDS", wg.lds_size,
			 max_lds);
		return -1;
	}
	wave_bytes = d->scratch.wave_bytes ? d->scratch.wave_bytes
					   : kemu_isa_scratch_wave_bytes(p, d);
	if (d->private_segment_size || p->private_fixed) {
		uint64_t per_wg = (uint64_t)kemu_isa_waves_per_workgroup(d) * wave_bytes;
		uint64_t end = (uint64_t)(slot + 1) * per_wg;
		if (!d->scratch.base_va || end > d->scratch.size) {
			isa_err_setf(err, KEMU_ISA_ERR_BAD_DISPATCH, 0,
				 "scratch backing of %llu bytes at 0x%llx is too small for slot %u "
				 "(%llu bytes per workgroup)",
				 (unsigned long long)d->scratch.size,
				 (unsigned long long)d->scratch.base_va, slot,
				 (unsigned long long)per_wg);
			return -1;
		}
	}
	wg.scratch_slot = slot;
	wg.scratch_slot_base = d->scratch.base_va +
		(uint64_t)slot * kemu_isa_waves_per_workgroup(d) * wave_bytes;

	vbytes = (size_t)p->alloc_rows * ISA_LANES * sizeof(uint32_t);
	need = nwaves * (sizeof(struct isa_wave) + vbytes) + wg.lds_size + 64;
	arena = arena_get(need);
	if (!arena) {
		isa_err_setf(err, KEMU_ISA_ERR_NO_MEMORY, 0, "out of memory for %u waves", nwaves);
		return -1;
	}
	waves = (struct isa_wave *)arena;
	{
		uint8_t *vmem = arena + (((nwaves * sizeof(struct isa_wave)) + 63) & ~(size_t)63);
		for (unsigned i = 0; i < nwaves; i++)
			waves[i].v = (uint32_t *)(vmem + i * vbytes);
		wg.lds = vmem + nwaves * vbytes;
	}
	/* LDS is not initialised by the hardware; zero it so results never
	 * depend on a previous workgroup's data on this host thread. */
	memset(wg.lds, 0, wg.lds_size);

	for (unsigned i = 0; i < nwaves; i++) {
		wave_init(&waves[i], &wg, i, nitems);
		waves[i].err = err;
		waves[i].at_barrier = false;
		waves[i].gws_wait = false;
	}
	/* Preloaded kernel arguments (KERNARG_PRELOAD): the CP reads them
	 * from the kernarg segment into the SGPRs after the user SGPRs. */
	if (p->kd.kernarg_preload & 0x7f) {
		unsigned len = p->kd.kernarg_preload & 0x7f;
		unsigned off = (p->kd.kernarg_preload >> 7) & 0x1ff;
		unsigned kcp = p->kd.kernel_code_properties, s0 = 0;
		uint32_t args[128];
		s0 += (kcp & 1) ? 4 : 0;
		s0 += (kcp & 2) ? 2 : 0;
		s0 += (kcp & 4) ? 2 : 0;
		s0 += (kcp & 8) ? 2 : 0;
		s0 += (kcp & 16) ? 2 : 0;
		s0 += (kcp & 32) ? 2 : 0;
		s0 += (kcp & 64) ? 1 : 0;
		if (isa_read_direct(d->mem, d->kernarg_address + off * 4ull, args, len * 4,
				KEMU_ISA_ACCESS_READ)) {
			isa_err_setf(err, KEMU_ISA_ERR_MEMORY_FAULT, p->entry_va,
				 "GPU memory fault: kernarg preload read at VA 0x%llx",
				 (unsigned long long)(d->kernarg_address + off * 4ull));
			if (err) {
				err->va = d->kernarg_address + off * 4ull;
				err->access = KEMU_ISA_ACCESS_READ;
			}
			return -1;
		}
		for (unsigned i = 0; i < nwaves; i++)
			memcpy(&waves[i].s[s0], args, len * 4);
	}

	wg.waves = waves;
	wg.nwaves = nwaves;
	wg.live = nwaves;
	rc = wg_schedule(&wg, err);
	if (rc == 2 && !saved) {
		/* preempt_save without a place to save: as without it */
		isa_fail(&waves[0], NULL, KEMU_ISA_PREEMPTED,
			 "workgroup (%u,%u,%u) preempted", x, y, z);
		rc = -1;
	}
	if (rc == 2 || (rc == 1 && saved)) {
		wg_count(&wg, 0, rc);
		return wg_suspend(&wg, arena, need, rc, saved, err);
	}
	if (rc == 1) {
		isa_fail(&waves[0], NULL, KEMU_ISA_ERR_DEADLOCK,
			 "workgroup (%u,%u,%u) waits on GWS, which only other workgroups can "
			 "release, and cannot be suspended", x, y, z);
		rc = -1;
	}
	wg_count(&wg, 0, rc);
	return rc;
}

int kemu_isa_run_workgroup_slot(const struct kemu_isa_program *p,
				const struct kemu_isa_dispatch *d, uint32_t x, uint32_t y,
				uint32_t z, unsigned slot, struct kemu_isa_error *err)
{
	return wg_start(p, d, x, y, z, slot, NULL, err);
}

int kemu_isa_run_workgroup_gws(const struct kemu_isa_program *p,
			       const struct kemu_isa_dispatch *d, uint32_t x, uint32_t y,
			       uint32_t z, unsigned slot, struct kemu_isa_wg_state **saved,
			       struct kemu_isa_error *err)
{
	if (!saved) {
		isa_err_setf(err, KEMU_ISA_ERR_BAD_DISPATCH, 0, "no place for a saved workgroup");
		return -1;
	}
	*saved = NULL;
	return wg_start(p, d, x, y, z, slot, saved, err);
}

int kemu_isa_resume_workgroup(struct kemu_isa_wg_state *st, const struct kemu_isa_dispatch *d,
			      struct kemu_isa_error *err)
{
	int rc;

	if (err)
		memset(err, 0, sizeof(*err));
	if (!st || !d || !d->mem) {
		isa_err_setf(err, KEMU_ISA_ERR_BAD_DISPATCH, 0, "no saved workgroup or dispatch");
		kemu_isa_workgroup_free(st);
		return -1;
	}
	st->wg.d = d;
	st->wg.mem = d->mem;
	uint64_t base = wg_insts(&st->wg);
	rc = wg_schedule(&st->wg, err);
	wg_count(&st->wg, base, rc);
	if (rc == 1 || rc == 2)
		return rc;
	kemu_isa_workgroup_free(st);
	return rc;
}

bool kemu_isa_workgroup_ready(const struct kemu_isa_wg_state *st)
{
	const struct isa_wg *wg = &st->wg;
	for (unsigned i = 0; i < wg->nwaves; i++) {
		const struct isa_wave *w = &wg->waves[i];
		if (w->done)
			continue;
		/* preempted: a wave that neither waits on GWS nor at a barrier */
		if (!w->gws_wait && !w->at_barrier)
			return true;
		if (w->gws_wait &&
		    isa_gws_released(wg->d->gws, w->gws_op, w->gws_rid, w->gws_token))
			return true;
	}
	return false;
}

unsigned kemu_isa_workgroup_scratch_slot(const struct kemu_isa_wg_state *st)
{
	return st->wg.scratch_slot;
}

void kemu_isa_workgroup_free(struct kemu_isa_wg_state *st)
{
	free(st);
}
