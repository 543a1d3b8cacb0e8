/*
 * isa_trap.c — traps and exceptions as the SQ and the kernel's first-level
 * trap handler take them (isa.h, struct kemu_isa_trap).
 *
 * Facts followed (Linux drivers/gpu/drm/amd/amdkfd/cwsr_trap_handler_gfx9.asm,
 * torvalds/linux as stored at commit 010e85f9e47c, the handler of the 6.x
 * kernels with the L_HALT_WAVE path; the gfx9 source covers gfx90a and
 * gfx942; ISA guides for Vega/CDNA2/CDNA3, "Trap and Exception
 * Registers"):
 *   - entry: the SQ saves the PC in ttmp0 / ttmp1[15:0], the trap id in
 *     ttmp1[23:16] (0 for an exception) and jumps to TBA with STATUS.PRIV
 *     set.  For s_trap the PC is the s_trap itself; for an exception, the
 *     instruction after the one that raised it.
 *   - first level (the kernel's): STATUS into ttmp12; an illegal
 *     instruction (TRAPSTS.ILLEGAL_INST, bit 11) or a memory violation
 *     (TRAPSTS.MEM_VIOL, bit 8) sets STATUS.HALT in ttmp12 and rewinds the
 *     PC by 8 (L_HALT_WAVE); IB_STS's replay bits go to ttmp11[31:26]; then
 *     the second-level TBA and TMA are read from the first-level TMA
 *     (kfd_process_set_trap_handler writes them there) and, when the TBA is
 *     not 0, the handler jumps to it with ttmp14/15 = the second-level TMA.
 *   - no second level (L_NO_NEXT_TRAP): an exception (TRAPSTS[8:0]) returns
 *     to the PC as it is, an s_trap to PC + 4; STATUS (HALT included) is
 *     restored and s_rfe_b64 returns.  So a trap is skipped and an illegal
 *     instruction or memory violation leaves the wave halted: the dispatch
 *     never completes and nothing reaches user space.  VM faults are not
 *     traps here: the UTCL2 interrupt reports them (the CP's fault path).
 *   - s_rfe_b64 returns to PC[47:0] and clears PRIV; a STATUS.HALT written
 *     by the handler halts the wave from then on (the runtime's handler
 *     halts it after reporting, and the queue hangs until it is destroyed).
 *   - s_sendmsg MSG_GET_DOORBELL (10) returns the queue's doorbell id in
 *     EXEC_LO with bit 31 clear (ROCr's handler polls that bit).
 * CWSR (isa_workgroup.c, isa_ctx.c): a context save requested while the
 * wave is in its handler (PRIV) waits in TRAPSTS.SAVECTX until s_rfe_b64
 * leaves it, as the SQ holds the save trap ("Any concurrent SAVECTX will be
 * handled upon re-entry", L_NOT_HALTED); so a wave is never saved with its
 * handler's ttmps in use, and the save keeps what the kernel's L_SAVE
 * keeps (ttmp4-11 and 13, TRAPSTS, STATUS).
 * Not modelled: single-step and the debugger's
 * ttmp setup (ttmp4-11 from the SPI), the first-level TMA's debug flag,
 * math exceptions (MODE.EXCP_EN).  An exception inside the handler (PRIV)
 * is not a trap: it stops the workgroup with its error.
 */
#include <stdio.h>

#include "isa_priv.h"

#define STATUS_SCC   (1u << 0)
#define STATUS_PRIV  (1u << 5)
#define STATUS_EXECZ (1u << 9)
#define STATUS_VCCZ  (1u << 10)
#define STATUS_HALT  (1u << 13)

#define TTMP(n) (ISA_REG_TTMP0 + (n))
#define TTMP11_IB_STS_SAVE_MASK 0xFC000000u  /* first level's IB_STS copy */

uint32_t isa_trap_status(const struct isa_wave *w)
{
	/* IN_BARRIER and the priorities are left 0 */
	uint32_t st = w->scc & 1;
	st |= (isa_exec(w) == 0) ? STATUS_EXECZ : 0;
	st |= (isa_vcc(w) == 0) ? STATUS_VCCZ : 0;
	st |= w->trap.priv ? STATUS_PRIV : 0;
	st |= w->trap.halt ? STATUS_HALT : 0;
	return st;
}

static int wave_halted(struct isa_wave *w, const struct isa_inst *in, uint64_t pc,
		       const char *why)
{
	bool handled = w->trap.handled;
	isa_fail(w, in, KEMU_ISA_ERR_HALT, "wave %u halted at pc 0x%llx %s", w->id,
		 (unsigned long long)pc, why);
	if (w->err) {
		w->err->pc = pc;
		w->err->trapsts = w->trapsts;
		w->err->trap = handled ? KEMU_ISA_TRAP_HANDLED : 0;
	}
	return ISA_STEP_ERROR;
}

int isa_trap_status_write(struct isa_wave *w, const struct isa_inst *in, uint32_t val,
			  uint32_t mask)
{
	if (mask & STATUS_SCC)
		w->scc = val & 1;
	/* HALT is the trap handler's to set; it takes effect when the
	 * handler returns (s_rfe_b64).  EXECZ/VCCZ follow EXEC/VCC and PRIV
	 * only s_rfe_b64 clears: neither is written. */
	if ((mask & STATUS_HALT) && w->trap.priv)
		w->trap.halt = (val & STATUS_HALT) != 0;
	(void)in;
	return ISA_STEP_NEXT;
}

int isa_exec_rfe(struct isa_wave *w, const struct isa_inst *in)
{
	uint64_t pc = isa_sread64(w, &in->src[0]) & 0xFFFFFFFFFFFFull;

	w->trap.priv = false;
	if (w->trap.halt)
		return wave_halted(w, in, pc, "by its trap handler (STATUS.HALT at s_rfe_b64)");
	int r = kemu_isa_jump(w, in, pc);
	if (r != ISA_STEP_NEXT || !(w->trapsts & ISA_TRAPSTS_SAVECTX))
		return r;
	/* the save held while the wave was in its handler: the wave
	 * re-enters the first level for it at the PC it returned to, and
	 * L_SAVE clears SAVECTX */
	w->trapsts &= ~ISA_TRAPSTS_SAVECTX;
	return isa_wave_preempted(w, &w->insts[w->pc]);
}

int isa_trap_get_doorbell(struct isa_wave *w, const struct isa_inst *in)
{
	(void)in;
	/* bit 31 clear: the reply has arrived */
	w->s[ISA_REG_EXEC_LO] = w->wg->d->trap.doorbell_id & 0x7FFFFFFFu;
	return ISA_STEP_NEXT;
}

int isa_trap_raise(struct isa_wave *w, const struct isa_inst *in)
{
	const struct kemu_isa_trap *t = &w->wg->d->trap;
	struct kemu_isa_error *e = w->err;
	uint32_t excp = 0, trap_id = 0, status;
	uint64_t pc;

	if (!e || w->trap.priv)
		return -1;
	switch (e->kind) {
	case KEMU_ISA_ERR_TRAP:
		trap_id = e->trap_id & 0xFF;
		pc = in->addr;
		break;
	case KEMU_ISA_ERR_ILLEGAL_INSTRUCTION:
		excp = ISA_TRAPSTS_ILLEGAL_INST;
		pc = in->addr + in->size;
		break;
	case KEMU_ISA_ERR_MEM_VIOL:
	case KEMU_ISA_ERR_LDS_RANGE:
		excp = ISA_TRAPSTS_MEM_VIOL;
		pc = in->addr + in->size;
		break;
	default:
		return -1;
	}
	if (!t->tba && t->model != KEMU_ISA_TRAP_HW)
		return -1; /* the lenient model: the error stands */

	/* the SQ: TRAPSTS, PRIV; the first level: STATUS, L_HALT_WAVE */
	w->trapsts |= excp;
	w->trap.priv = true;
	status = isa_trap_status(w);
	if (excp) {
		status |= STATUS_HALT;
		pc -= 8;
	}
	if (t->tba) {
		/* L_FETCH_2ND_TRAP: IB_STS's replay state is 0 here */
		w->s[TTMP(0)] = (uint32_t)pc;
		w->s[TTMP(1)] = (uint32_t)(pc >> 32 & 0xFFFF) | trap_id << 16;
		w->s[TTMP(11)] &= ~TTMP11_IB_STS_SAVE_MASK;
		w->s[TTMP(12)] = status;
		w->s[TTMP(14)] = (uint32_t)t->tma;
		w->s[TTMP(15)] = (uint32_t)(t->tma >> 32);
		w->trap.halt = (status & STATUS_HALT) != 0;
		w->trap.handled = true;
		memset(e, 0, sizeof(*e));
		if (kemu_isa_jump(w, in, t->tba) != ISA_STEP_NEXT)
			return -1; /* the TBA is not decodable code: err says so */
		return 0;
	}
	/* L_NO_NEXT_TRAP: nothing is reported; the emulator says it */
	e->trapsts = w->trapsts;
	e->trap = KEMU_ISA_TRAP_UNREPORTED;
	if (t->unreported)
		t->unreported(t->ctx, e);
	w->trap.priv = false;
	if (status & STATUS_HALT) {
		char what[sizeof(e->message)];
		memcpy(what, e->message, sizeof(what));
		w->trap.halt = true;
		wave_halted(w, in, pc, "by the first-level trap handler (no second-level handler)");
		e->trap = KEMU_ISA_TRAP_UNREPORTED;
		snprintf(e->message, sizeof(e->message), "%s", what);
		return -1;
	}
	memset(e, 0, sizeof(*e));
	/* s_trap: PC + 4 */
	if (kemu_isa_jump(w, in, pc + 4) != ISA_STEP_NEXT)
		return -1;
	return 0;
}
