/*
 * isa_ctx.c — context save and restore (CWSR) of a saved workgroup: its
 * waves and LDS written to, and rebuilt from, bytes in the layout of the
 * kernel's first-level trap handler (drivers/gpu/drm/amd/amdkfd/
 * cwsr_trap_handler_gfx9.asm, L_SAVE and L_RESTORE; isa.h gives the
 * offsets), each wave's record where the SPI places it and the
 * control-stack words the firmware pushes for the workgroup (COMPUTE_
 * RELAUNCH, as ROCdbgapi decodes them).  The CP decides when and where
 * (emu/cp/cp_ctx.c): it writes these bytes into the queue's context-save
 * area through the GPU VM and the words into the MQD's control stack.
 *
 * What the hardware keeps elsewhere and kfdemu keeps in the wave's HWREG
 * block, in dwords the handler leaves unused (0x28-0x3F): a wave queued
 * on a GWS resource (the GDS holds its queue on hardware) and the
 * instructions the wave ran (the watchdog's count, which the driver's hang
 * detection does not restart on a resume).  What the SPI knows of a
 * relaunched wave (its workgroup id, its place in the workgroup, the
 * workgroup's size) sits in the slots of ttmp0-3, which the handler never
 * saves (they are its working registers; 0x40-0x4F).  A wave's TLB is not
 * state: it starts empty after a restore, as after any context switch.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "isa_priv.h"

/* HWREG block offsets (bytes), as the handler's write_hwreg_to_mem order */
#define CTX_HW_M0       0x00
#define CTX_HW_PC_LO    0x04
#define CTX_HW_PC_HI    0x08
#define CTX_HW_EXEC_LO  0x0C
#define CTX_HW_EXEC_HI  0x10
#define CTX_HW_STATUS   0x14
#define CTX_HW_TRAPSTS  0x18
#define CTX_HW_XNACK_LO 0x1C
#define CTX_HW_XNACK_HI 0x20
#define CTX_HW_MODE     0x24
#define CTX_HW_GWS      0x28    /* kfdemu: [0] waiting, [15:8] rid, [23:16] op */
#define CTX_HW_GWS_TOK  0x2C    /* kfdemu: 64-bit token */
#define CTX_HW_NINST    0x34    /* kfdemu: 64-bit instruction count */
#define CTX_HW_KTRAP    0x3C    /* kfdemu: [0] a second-level handler ran */
#define CTX_HW_TTMP0    0x40    /* ttmp n at 0x40 + 4n; the handler stores 4-11, 13 */
#define CTX_HW_WG_ID    0x40    /* kfdemu: workgroup id x, y, z (ttmp0-2 slots) */
#define CTX_HW_WAVE     0x4C    /* kfdemu: [7:0] wave in group, [15:8] waves,
                                 * [31:16] scratch slot (ttmp3) */

/* The trap temporaries L_SAVE stores and L_RESTORE loads: ttmp4-11 and
 * ttmp13, which the SPI initialises for the debugger.  ttmp0-3, 12, 14
 * and 15 are the handler's own working registers: a wave is never saved
 * while its trap handler uses them (isa_workgroup.c holds the save until
 * s_rfe_b64), and after a restore they hold what L_RESTORE left there. */
#define CTX_TTMPS_SAVED 0x2FF0u /* bits 4-11 and 13 */

/* SQ_WAVE_STATUS bits */
#define CTX_STATUS_SCC        (1u << 0)
#define CTX_STATUS_PRIV       (1u << 5)
#define CTX_STATUS_EXECZ      (1u << 9)
#define CTX_STATUS_VCCZ       (1u << 10)
#define CTX_STATUS_IN_BARRIER (1u << 12)

#define CTX_LDS_GRANULE 512u    /* 128 dwords, COMPUTE_RELAUNCH's LDS unit */
#define CTX_SGPR_SAVED 108u     /* s0..s101, FLAT_SCRATCH, XNACK_MASK, VCC */

/* COMPUTE_RELAUNCH words (ROCdbgapi architecture.cpp: compute_relaunch_is_
 * state/is_event, gfx9 and gfx90a cwsr_record_t's payload fields) */
#define RL_STATE         (1u << 31)
#define RL_EVENT         (1u << 30)
#define RL_ST_VGPRS(w)   ((w) & 0x3Fu)          /* 8-VGPR granules - 1 (gfx90a) */
#define RL_ST_SGPRS(w)   ((w) >> 6 & 0x7u)      /* 16-SGPR granules - 1, ttmps in */
#define RL_ST_LDS(w)     ((w) >> 9 & 0xFFu)     /* 128-dword granules (gfx90a) */
#define RL_ST_ACCUM(w)   ((w) >> 24 & 0x3Fu)    /* 4-VGPR granules - 1 */
#define RL_WV_SCRATCH_ID(w) ((w) & 0x1FFu)
#define RL_WV_SCRATCH_EN (1u << 15)
#define RL_WV_LAST       (1u << 16)
#define RL_WV_FIRST      (1u << 17)

/* One wave's record: registers, HWREG block and the gap above it. */
static size_t wave_area_bytes(uint32_t vgpr_rows)
{
	return (size_t)vgpr_rows * ISA_LANES * 4 + KEMU_ISA_CTX_SGPRS * 4 +
	       KEMU_ISA_CTX_HWREG_BYTES + KEMU_ISA_CTX_WAVE_GAP;
}

static uint32_t lds_saved_bytes(uint32_t lds_size)
{
	return (lds_size + CTX_LDS_GRANULE - 1) / CTX_LDS_GRANULE * CTX_LDS_GRANULE;
}

static void put32(uint8_t *b, size_t off, uint32_t v)
{
	memcpy(b + off, &v, 4);
}

static uint32_t get32(const uint8_t *b, size_t off)
{
	uint32_t v;
	memcpy(&v, b + off, 4);
	return v;
}

size_t kemu_isa_ctx_bytes(const struct kemu_isa_wg_state *st)
{
	if (!st)
		return 0;
	return (size_t)st->wg.live * wave_area_bytes(st->wg.p->vgpr_rows) +
	       lds_saved_bytes(st->wg.lds_size);
}

size_t kemu_isa_ctx_rec_bytes(const struct kemu_isa_ctx_wg *rec)
{
	if (!rec)
		return 0;
	return (size_t)rec->live * wave_area_bytes(rec->vgpr_rows) + rec->lds_bytes;
}

static void wave_save(const struct isa_wave *w, uint32_t vgpr_rows, uint8_t *b)
{
	size_t vbytes = (size_t)vgpr_rows * ISA_LANES * 4;
	uint8_t *sg = b + vbytes, *hw = sg + KEMU_ISA_CTX_SGPRS * 4;
	uint64_t pc = w->insts[w->pc].addr, exec = isa_exec(w);
	uint32_t status = 0;

	memcpy(b, w->v, vbytes);
	memset(sg, 0, KEMU_ISA_CTX_SGPRS * 4);
	memcpy(sg, w->s, CTX_SGPR_SAVED * 4);
	memset(hw, 0, KEMU_ISA_CTX_HWREG_BYTES + KEMU_ISA_CTX_WAVE_GAP);
	if (w->scc)
		status |= CTX_STATUS_SCC;
	if (!exec)
		status |= CTX_STATUS_EXECZ;
	if (!isa_vcc(w))
		status |= CTX_STATUS_VCCZ;
	if (w->at_barrier)
		status |= CTX_STATUS_IN_BARRIER;
	/* L_SAVE reads STATUS inside the save trap: PRIV is set in the
	 * saved word (L_RESTORE's s_rfe_b64 clears it again) */
	status |= CTX_STATUS_PRIV;
	put32(hw, CTX_HW_M0, w->s[ISA_REG_M0]);
	put32(hw, CTX_HW_PC_LO, (uint32_t)pc);
	put32(hw, CTX_HW_PC_HI, (uint32_t)(pc >> 32) & 0xFFFFu);
	put32(hw, CTX_HW_EXEC_LO, (uint32_t)exec);
	put32(hw, CTX_HW_EXEC_HI, (uint32_t)(exec >> 32));
	put32(hw, CTX_HW_STATUS, status);
	/* L_SAVE clears SAVECTX before it stores TRAPSTS */
	put32(hw, CTX_HW_TRAPSTS, w->trapsts & ~ISA_TRAPSTS_SAVECTX);
	put32(hw, CTX_HW_XNACK_LO, w->s[ISA_REG_XNACK_LO]);
	put32(hw, CTX_HW_XNACK_HI, w->s[ISA_REG_XNACK_LO + 1]);
	put32(hw, CTX_HW_MODE, w->mode);
	put32(hw, CTX_HW_GWS, (w->gws_wait ? 1u : 0u) | (uint32_t)w->gws_rid << 8 |
				      (uint32_t)w->gws_op << 16);
	put32(hw, CTX_HW_GWS_TOK, (uint32_t)w->gws_token);
	put32(hw, CTX_HW_GWS_TOK + 4, (uint32_t)(w->gws_token >> 32));
	put32(hw, CTX_HW_NINST, (uint32_t)w->ninst);
	put32(hw, CTX_HW_NINST + 4, (uint32_t)(w->ninst >> 32));
	put32(hw, CTX_HW_KTRAP, w->trap.handled ? 1u : 0u);
	for (unsigned t = 0; t < 16; t++) {
		if (CTX_TTMPS_SAVED >> t & 1)
			put32(hw, CTX_HW_TTMP0 + 4 * t, w->s[ISA_REG_TTMP0 + t]);
	}
	for (unsigned i = 0; i < 3; i++)
		put32(hw, CTX_HW_WG_ID + 4 * i, w->wg->id[i]);
	put32(hw, CTX_HW_WAVE, (w->id & 0xFFu) | (w->wg->nwaves & 0xFFu) << 8 |
				       (uint32_t)w->wg->scratch_slot << 16);
}

int kemu_isa_ctx_save(const struct kemu_isa_wg_state *st, struct kemu_isa_ctx_wg *rec,
		      uint8_t *buf, size_t len)
{
	if (!st || !rec || !buf || len < kemu_isa_ctx_bytes(st) ||
	    st->wg.nwaves > KEMU_ISA_CTX_MAX_WAVES)
		return -EINVAL;
	const struct isa_wg *wg = &st->wg;
	uint32_t rows = wg->p->vgpr_rows;
	size_t area = wave_area_bytes(rows), off = 0;
	unsigned n = 0;

	memset(rec, 0, sizeof(*rec));
	memcpy(rec->wg_id, wg->id, sizeof(rec->wg_id));
	rec->nwaves = wg->nwaves;
	rec->scratch_slot = wg->scratch_slot;
	rec->scratch_en = (wg->d->scratch.wave_bytes ? wg->d->scratch.wave_bytes
			   : kemu_isa_scratch_wave_bytes(wg->p, wg->d)) != 0;
	rec->vgpr_rows = rows;
	rec->accum_rows = wg->p->accum_offset;
	rec->lds_bytes = lds_saved_bytes(wg->lds_size);
	for (unsigned i = wg->nwaves; i-- > 0;) {
		if (!wg->waves[i].done)
			rec->live++;
	}
	/* from the highest live wave up to the lowest, which carries the LDS
	 * on top of its registers (the handler's FirstWaveInTG) */
	for (unsigned i = wg->nwaves; i-- > 0;) {
		const struct isa_wave *w = &wg->waves[i];
		if (w->done)
			continue;
		wave_save(w, rows, buf + off);
		if (++n == rec->live) {
			size_t lds_at = off + area - KEMU_ISA_CTX_WAVE_GAP;
			memcpy(buf + lds_at, wg->lds, wg->lds_size);
			memset(buf + lds_at + wg->lds_size, 0,
			       rec->lds_bytes - wg->lds_size + KEMU_ISA_CTX_WAVE_GAP);
			off += rec->lds_bytes;
		}
		off += area;
		rec->wave_id[n - 1] = (uint8_t)w->id;
	}
	return 0;
}

unsigned kemu_isa_ctx_relaunch(const struct kemu_isa_ctx_wg *rec, uint32_t *words)
{
	if (!rec || !words || !rec->live || rec->live > KEMU_ISA_CTX_MAX_WAVES ||
	    !rec->vgpr_rows || rec->vgpr_rows % 8 || rec->vgpr_rows > 512 ||
	    rec->accum_rows < 4 || rec->accum_rows % 4 || rec->accum_rows > 256 ||
	    rec->lds_bytes % CTX_LDS_GRANULE || rec->lds_bytes / CTX_LDS_GRANULE > 0xFF ||
	    rec->scratch_slot > 0xFFFF)
		return 0;
	words[0] = RL_STATE | (rec->vgpr_rows / 8 - 1) |
		   ((KEMU_ISA_CTX_SGPRS + 16) / 16 - 1) << 6 |
		   (rec->lds_bytes / CTX_LDS_GRANULE) << 9 | (rec->accum_rows / 4 - 1) << 24;
	/* the top record (the first wave) first */
	for (unsigned k = 0; k < rec->live; k++) {
		/* the scoreboard id has 9 bits; a cooperative dispatch may
		 * hold more slots: the record keeps the whole number */
		uint32_t w = rec->scratch_slot & 0x1FFu;
		if (rec->scratch_en)
			w |= RL_WV_SCRATCH_EN;
		if (k == 0)
			w |= RL_WV_FIRST;
		if (k == rec->live - 1)
			w |= RL_WV_LAST;
		words[1 + k] = w;
	}
	return rec->live + 1;
}

size_t kemu_isa_ctx_parse(const uint32_t *words, size_t n, struct kemu_isa_ctx_wg *rec)
{
	size_t i = 0;
	uint32_t state = 0;

	if (!words || !rec)
		return 0;
	memset(rec, 0, sizeof(*rec));
	for (; i < n; i++) {
		uint32_t w = words[i];
		if (w & RL_EVENT)
			continue; /* ROCdbgapi tests the event bit first */
		if (w & RL_STATE) {
			if (rec->live)
				return 0; /* a state inside a group: no LAST_WAVE */
			state = w;
			continue;
		}
		if (!state || (rec->live == 0) != !!(w & RL_WV_FIRST) ||
		    rec->live == KEMU_ISA_CTX_MAX_WAVES)
			return 0;
		if (rec->live == 0) {
			rec->scratch_slot = RL_WV_SCRATCH_ID(w);
			rec->scratch_en = (w & RL_WV_SCRATCH_EN) != 0;
		}
		rec->live++;
		if (w & RL_WV_LAST)
			break;
	}
	if (i == n || !rec->live || RL_ST_SGPRS(state) + 1 != (KEMU_ISA_CTX_SGPRS + 16) / 16)
		return 0;
	rec->vgpr_rows = (RL_ST_VGPRS(state) + 1) * 8;
	rec->accum_rows = (RL_ST_ACCUM(state) + 1) * 4;
	rec->lds_bytes = RL_ST_LDS(state) * CTX_LDS_GRANULE;
	return i + 1;
}

int kemu_isa_ctx_identify(struct kemu_isa_ctx_wg *rec, const uint8_t *buf, size_t len)
{
	if (!rec || !buf || !rec->live || rec->live > KEMU_ISA_CTX_MAX_WAVES ||
	    len < kemu_isa_ctx_rec_bytes(rec))
		return -EINVAL;
	size_t area = wave_area_bytes(rec->vgpr_rows), off = 0;
	size_t hw = (size_t)rec->vgpr_rows * ISA_LANES * 4 + KEMU_ISA_CTX_SGPRS * 4;
	for (unsigned k = 0; k < rec->live; k++, off += area) {
		uint32_t id[3], wave = get32(buf, off + hw + CTX_HW_WAVE);
		for (unsigned i = 0; i < 3; i++)
			id[i] = get32(buf, off + hw + CTX_HW_WG_ID + 4 * i);
		if (k == 0) {
			memcpy(rec->wg_id, id, sizeof(id));
			rec->nwaves = wave >> 8 & 0xFFu;
		} else if (memcmp(rec->wg_id, id, sizeof(id)) || rec->nwaves != (wave >> 8 & 0xFFu)) {
			return -EINVAL;
		}
		if ((wave >> 16 & 0x1FFu) != (rec->scratch_slot & 0x1FFu))
			return -EINVAL; /* the words' scoreboard id */
		if (k == rec->live - 1)
			rec->scratch_slot = wave >> 16;
		rec->wave_id[k] = (uint8_t)wave;
	}
	return 0;
}

/* Restores one wave of wg from its area b; -1 with err set. */
static int wave_restore(struct isa_wave *w, struct isa_wg *wg, unsigned id, const uint8_t *b,
			struct kemu_isa_error *err)
{
	const struct kemu_isa_program *p = wg->p;
	const struct kemu_isa_dispatch *d = wg->d;
	size_t vbytes = (size_t)p->vgpr_rows * ISA_LANES * 4;
	const uint8_t *sg = b + vbytes, *hw = sg + KEMU_ISA_CTX_SGPRS * 4;
	uint32_t status = get32(hw, CTX_HW_STATUS), gws = get32(hw, CTX_HW_GWS);
	uint64_t pc = (uint64_t)get32(hw, CTX_HW_PC_LO) |
		      (uint64_t)(get32(hw, CTX_HW_PC_HI) & 0xFFFFu) << 32;

	w->p = p;
	w->wg = wg;
	w->id = id;
	w->err = err;
	w->done = false;
	memcpy(w->v, b, vbytes);
	memset(w->s, 0, sizeof(w->s));
	memcpy(w->s, sg, CTX_SGPR_SAVED * 4);
	for (unsigned t = 0; t < 16; t++) {
		if (CTX_TTMPS_SAVED >> t & 1)
			w->s[ISA_REG_TTMP0 + t] = get32(hw, CTX_HW_TTMP0 + 4 * t);
	}
	/* what L_RESTORE leaves in its own registers: the PC in ttmp0/1
	 * (s_restore_pc_lo/hi, PC[47:32] only), STATUS in ttmp14 and TRAPSTS
	 * in ttmp15; ttmp2, 3 and 12 held its offsets and temporaries
	 * (kfdemu: 0) */
	w->s[ISA_REG_TTMP0 + 0] = (uint32_t)pc;
	w->s[ISA_REG_TTMP0 + 1] = (uint32_t)(pc >> 32);
	w->s[ISA_REG_TTMP0 + 14] = status;
	w->s[ISA_REG_TTMP0 + 15] = get32(hw, CTX_HW_TRAPSTS);
	w->s[ISA_REG_M0] = get32(hw, CTX_HW_M0);
	w->s[ISA_REG_EXEC_LO] = get32(hw, CTX_HW_EXEC_LO);
	w->s[ISA_REG_EXEC_HI] = get32(hw, CTX_HW_EXEC_HI);
	w->s[ISA_REG_XNACK_LO] = get32(hw, CTX_HW_XNACK_LO);
	w->s[ISA_REG_XNACK_LO + 1] = get32(hw, CTX_HW_XNACK_HI);
	w->scc = status & CTX_STATUS_SCC ? 1 : 0;
	w->at_barrier = (status & CTX_STATUS_IN_BARRIER) != 0;
	/* L_RESTORE writes TRAPSTS around SAVECTX, which it leaves alone */
	w->trapsts = get32(hw, CTX_HW_TRAPSTS) & ~ISA_TRAPSTS_SAVECTX;
	/* PRIV: the restore's s_rfe_b64 leaves the handler; HALT is never
	 * saved set (a halted wave ends its workgroup with an error) */
	w->trap.priv = false;
	w->trap.halt = false;
	w->trap.handled = (get32(hw, CTX_HW_KTRAP) & 1u) != 0;
	w->mode = get32(hw, CTX_HW_MODE);
	w->gws_wait = gws & 1u;
	w->gws_rid = (uint8_t)(gws >> 8);
	w->gws_op = (uint8_t)(gws >> 16);
	w->gws_token = (uint64_t)get32(hw, CTX_HW_GWS_TOK) |
		       (uint64_t)get32(hw, CTX_HW_GWS_TOK + 4) << 32;
	w->ninst = (uint64_t)get32(hw, CTX_HW_NINST) | (uint64_t)get32(hw, CTX_HW_NINST + 4) << 32;
	w->tlb_gen = 0;
	memset(w->tlb, 0, sizeof(w->tlb));
	w->scratch_bytes = d->scratch.wave_bytes ? d->scratch.wave_bytes
						 : kemu_isa_scratch_wave_bytes(p, d);
	w->scratch_base = wg->scratch_slot_base + (uint64_t)id * w->scratch_bytes;
	/* the PC back to an instruction index, as s_setpc_b64 resolves it (the
	 * program's code may have grown since, never shrunk) */
	if (kemu_isa_jump(w, NULL, pc) != ISA_STEP_NEXT)
		return -1;
	return 0;
}

struct kemu_isa_wg_state *kemu_isa_ctx_restore(const struct kemu_isa_program *p,
					       const struct kemu_isa_dispatch *d,
					       const struct kemu_isa_ctx_wg *rec,
					       const uint8_t *buf, size_t len,
					       struct kemu_isa_error *err)
{
	if (err)
		memset(err, 0, sizeof(*err));
	if (!p || !d || !d->mem || !rec || !buf) {
		isa_err_setf(err, KEMU_ISA_ERR_BAD_DISPATCH, 0, "context restore: no program, "
			     "dispatch, record or data");
		return NULL;
	}
	unsigned nwaves = kemu_isa_waves_per_workgroup(d);
	uint32_t lds_size = d->group_segment_size > p->lds_fixed ? d->group_segment_size
								 : p->lds_fixed;
	size_t area = wave_area_bytes(p->vgpr_rows);
	if (rec->vgpr_rows != p->vgpr_rows || rec->accum_rows != p->accum_offset ||
	    rec->live == 0 || rec->live > rec->nwaves ||
	    rec->nwaves > KEMU_ISA_CTX_MAX_WAVES || rec->nwaves > nwaves ||
	    rec->lds_bytes != lds_saved_bytes(lds_size) ||
	    len < rec->live * area + rec->lds_bytes) {
		isa_err_setf(err, KEMU_ISA_ERR_BAD_DISPATCH, 0,
			     "context restore: record of workgroup (%u,%u,%u) (%u of %u waves, "
			     "%u VGPRs, %u LDS bytes) does not fit the dispatch or %zu bytes",
			     rec->wg_id[0], rec->wg_id[1], rec->wg_id[2], rec->live, rec->nwaves,
			     rec->vgpr_rows, rec->lds_bytes, len);
		return NULL;
	}
	nwaves = rec->nwaves;
	size_t vbytes = (size_t)p->alloc_rows * ISA_LANES * sizeof(uint32_t);
	size_t wbytes = (nwaves * sizeof(struct isa_wave) + 63) & ~(size_t)63;
	size_t need = nwaves * (sizeof(struct isa_wave) + vbytes) + lds_size + 64;
	struct kemu_isa_wg_state *st = aligned_alloc(64, (sizeof(*st) + need + 63) & ~(size_t)63);
	if (!st) {
		isa_err_setf(err, KEMU_ISA_ERR_NO_MEMORY, 0, "out of memory restoring a workgroup");
		return NULL;
	}
	/* zeroed: the ended waves' slots, the rows past vgpr_rows (never read
	 * by correct code) and the LDS beyond what was saved */
	memset(st->data, 0, need);
	st->size = need;
	struct isa_wg *wg = &st->wg;
	memset(wg, 0, sizeof(*wg));
	wg->d = d;
	wg->p = p;
	wg->mem = d->mem;
	wg->lds_size = lds_size;
	wg->waves = (struct isa_wave *)st->data;
	wg->nwaves = nwaves;
	wg->scratch_slot = rec->scratch_slot;
	uint32_t wave_bytes = d->scratch.wave_bytes ? d->scratch.wave_bytes
						    : kemu_isa_scratch_wave_bytes(p, d);
	wg->scratch_slot_base = d->scratch.base_va + (uint64_t)rec->scratch_slot *
				kemu_isa_waves_per_workgroup(d) * wave_bytes;
	for (unsigned i = 0; i < 3; i++) {
		uint64_t ws = d->workgroup_size[i], start = (uint64_t)rec->wg_id[i] * ws;
		if (!ws || start >= d->grid_size[i]) {
			isa_err_setf(err, KEMU_ISA_ERR_BAD_DISPATCH, 0,
				     "context restore: workgroup (%u,%u,%u) is outside the grid",
				     rec->wg_id[0], rec->wg_id[1], rec->wg_id[2]);
			free(st);
			return NULL;
		}
		wg->id[i] = rec->wg_id[i];
		wg->size[i] = d->grid_size[i] - start < ws ? (uint32_t)(d->grid_size[i] - start)
							   : (uint32_t)ws;
	}
	uint8_t *vmem = st->data + wbytes;
	wg->lds = vmem + nwaves * vbytes;
	for (unsigned i = 0; i < nwaves; i++) {
		wg->waves[i].v = (uint32_t *)(vmem + i * vbytes);
		wg->waves[i].done = true;
		wg->waves[i].p = p;
		wg->waves[i].wg = wg;
		wg->waves[i].id = i;
		wg->waves[i].insts = atomic_load_explicit(&((struct kemu_isa_program *)p)->code,
							  memory_order_acquire)->insts;
	}
	size_t off = 0;
	for (unsigned n = 0; n < rec->live; n++) {
		unsigned id = rec->wave_id[n];
		if (id >= nwaves || !wg->waves[id].done) {
			isa_err_setf(err, KEMU_ISA_ERR_BAD_DISPATCH, 0,
				     "context restore: wave %u of workgroup (%u,%u,%u) is not a "
				     "wave of it or saved twice", id, rec->wg_id[0], rec->wg_id[1],
				     rec->wg_id[2]);
			free(st);
			return NULL;
		}
		if (wave_restore(&wg->waves[id], wg, id, buf + off, err)) {
			free(st);
			return NULL;
		}
		wg->waves[id].err = NULL;
		if (n == rec->live - 1) /* the top record: the LDS above it */
			memcpy(wg->lds, buf + off + area - KEMU_ISA_CTX_WAVE_GAP, lds_size);
		off += area;
		wg->live++;
		if (wg->waves[id].at_barrier)
			wg->at_barrier++;
	}
	return st;
}
