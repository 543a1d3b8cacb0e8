/*
 * isa_exec_mode.c — the gfx9 scalar instructions that change how the wave
 * runs the instructions after them (CDNA2/CDNA3 ISA guides, SOP1/SOP2/
 * SOPK/SOPC/SOPP, and the MODE register: GPR_IDX_EN [27], VSKIP [28],
 * CSP [31:29]):
 *  - the branch stack: s_cbranch_g_fork (SOP2), s_cbranch_i_fork (SOPK)
 *    push {the other path's PC, its EXEC} into SGPR[CSP*4 .. CSP*4+3]
 *    (EXEC in the low pair, PC in the high pair) and run the path with
 *    fewer lanes first (the taken one on a tie); s_cbranch_join pops it
 *    until CSP is back to the value saved before the fork.  CSP is 3 bits
 *    and wraps;
 *  - s_setvskip: VSKIP = S0[S1[4:0]]; while it is set no vector
 *    instruction (VOP*, DS, FLAT/GLOBAL/SCRATCH, MUBUF/MTBUF, MIMG) issues;
 *  - GPR indexing: s_set_gpr_idx_on (GPR_IDX_EN = 1, M0[7:0] = S0[7:0],
 *    M0[15:12] = the raw SSRC1 field), s_set_gpr_idx_idx (M0[7:0]),
 *    s_set_gpr_idx_mode (M0[15:12] = SIMM16[3:0]) and s_set_gpr_idx_off
 *    (isa_exec_salu.c).  While GPR_IDX_EN is set, a VALU instruction's
 *    VGPR SRC0/SRC1/SRC2/VDST (M0 bits 12/13/14/15) name register
 *    + M0[7:0]; a scalar destination (compares, v_readlane,
 *    v_readfirstlane) is not indexed.  An index that leaves the wave's
 *    VGPRs fails the wave (the guides leave it undefined).
 *
 * The interpreter's loop (isa_workgroup.c) knows nothing of VSKIP and
 * GPR_IDX_EN: an instruction that turns either on runs the wave itself
 * (mode_run) until both are off again, and only then returns to the loop.
 * Its instructions count against the watchdog like the loop's.  A wave
 * that would leave the loop with a mode still on (s_barrier, a GWS wait,
 * a context save) is failed instead: the loop could not resume the mode,
 * and compilers never emit that (LLVM brackets each indexed instruction
 * with s_set_gpr_idx_on/off).
 */
#include "isa_priv.h"

#define MODE_GPR_IDX_EN (1u << 27)
#define MODE_VSKIP (1u << 28)
#define MODE_CSP_SHIFT 29

/* mode_run's nesting on this thread: an instruction that turns a mode on
 * inside mode_run must not start a second one. */
static _Thread_local unsigned mode_depth;

static bool is_valu(const struct isa_inst *in)
{
	return in->enc == ISA_ENC_VOP1 || in->enc == ISA_ENC_VOP2 || in->enc == ISA_ENC_VOPC ||
	       in->enc == ISA_ENC_VOP3 || in->enc == ISA_ENC_VOP3P;
}

static bool is_vector(const struct isa_inst *in)
{
	return is_valu(in) || in->enc == ISA_ENC_DS || in->enc == ISA_ENC_FLAT ||
	       in->enc == ISA_ENC_SCRATCH || in->enc == ISA_ENC_GLOBAL || in->enc == ISA_ENC_MUBUF ||
	       in->enc == ISA_ENC_MTBUF || in->enc == ISA_ENC_MIMG || in->enc == ISA_ENC_EXP;
}

/* VDST is a VGPR: not a compare (VOP3 opcodes 0..0xff, VOPC), not
 * v_readfirstlane_b32 (VOP3 0x142) nor v_readlane_b32 (0x289). */
static bool dst_is_vgpr(const struct isa_inst *in)
{
	if (in->enc == ISA_ENC_VOP3P)
		return true;
	return in->op > 0xff && in->op != 0x142 && in->op != 0x289;
}

static int index_fail(struct isa_wave *w, const struct isa_inst *in, unsigned row, unsigned idx)
{
	return isa_fail(w, in, KEMU_ISA_ERR_ILLEGAL_INSTRUCTION,
			"GPR indexing at 0x%llx: VGPR row %u + M0 index %u is past the wave's %u VGPRs",
			(unsigned long long)in->addr, row, idx, w->p->vgpr_rows);
}

/* Runs VALU instruction in with its enabled operands indexed by M0. */
static int exec_indexed(struct isa_wave *w, const struct isa_inst *in)
{
	struct isa_inst t = *in;
	uint32_t m0 = w->s[ISA_REG_M0];
	unsigned idx = m0 & 0xff, en = (m0 >> 12) & 15;

	for (unsigned i = 0; i < 3; i++) {
		if (!(en >> i & 1) || t.src[i].kind != ISA_OPND_VGPR)
			continue;
		if (t.src[i].reg + idx >= w->p->vgpr_rows)
			return index_fail(w, in, t.src[i].reg, idx);
		t.src[i].reg = (uint16_t)(t.src[i].reg + idx);
	}
	if ((en & 8) && dst_is_vgpr(in)) {
		if (t.dst + idx >= w->p->vgpr_rows)
			return index_fail(w, in, t.dst, idx);
		t.dst = (uint16_t)(t.dst + idx);
	}
	return in->exec(w, &t);
}

/* Runs the wave while VSKIP or GPR_IDX_EN is set (see the file comment);
 * `from` is the instruction that set it. */
static int mode_run(struct isa_wave *w, const struct isa_inst *from)
{
	uint64_t limit = w->wg->d->wave_instruction_limit, n = 0;
	int r = ISA_STEP_NEXT;

	if (mode_depth)
		return ISA_STEP_NEXT; /* the outer mode_run goes on */
	mode_depth++;
	while (w->mode & (MODE_GPR_IDX_EN | MODE_VSKIP)) {
		const struct isa_inst *in = &w->insts[w->pc];
		if (limit && w->ninst + n >= limit) {
			r = isa_fail(w, in, KEMU_ISA_ERR_WATCHDOG,
				     "wave %u ran %llu instructions without ending (pc 0x%llx, in a "
				     "VSKIP/GPR-indexing region from 0x%llx)", w->id,
				     (unsigned long long)(w->ninst + n), (unsigned long long)in->addr,
				     (unsigned long long)from->addr);
			break;
		}
		w->pc = in->next;
		n++;
		if (is_vector(in) && (w->mode & MODE_VSKIP))
			continue;
		if (is_valu(in) && (w->mode & MODE_GPR_IDX_EN))
			r = exec_indexed(w, in);
		else
			r = in->exec(w, in);
		if (r == ISA_STEP_NEXT)
			continue;
		/* trap entry as the loop does it, for this instruction (the
		 * handler then runs here while a mode is still on) */
		if (r == ISA_STEP_ERROR && isa_trap_raise(w, in) == 0) {
			r = ISA_STEP_NEXT;
			continue;
		}
		if (r != ISA_STEP_END && r != ISA_STEP_ERROR &&
		    (w->mode & (MODE_GPR_IDX_EN | MODE_VSKIP)))
			r = isa_fail(w, in, KEMU_ISA_ERR_ILLEGAL_INSTRUCTION,
				     "wave %u stops at 0x%llx (barrier, GWS wait or context save) with "
				     "MODE.VSKIP or GPR_IDX_EN set: not modelled",
				     w->id, (unsigned long long)in->addr);
		break;
	}
	w->ninst += n;
	mode_depth--;
	return r;
}

int isa_mode_changed(struct isa_wave *w, const struct isa_inst *in)
{
	if (!(w->mode & (MODE_GPR_IDX_EN | MODE_VSKIP)))
		return ISA_STEP_NEXT;
	return mode_run(w, in);
}

/* ---- the branch stack ---- */

static unsigned csp(const struct isa_wave *w)
{
	return w->mode >> MODE_CSP_SHIFT;
}

static void set_csp(struct isa_wave *w, unsigned v)
{
	w->mode = (w->mode & ~(7u << MODE_CSP_SHIFT)) | ((v & 7u) << MODE_CSP_SHIFT);
}

/* Pushes {pc, mask} at SGPR[CSP*4] and increments CSP. */
static void push(struct isa_wave *w, uint64_t pc, uint64_t mask)
{
	unsigned base = csp(w) * 4;
	w->s[base] = (uint32_t)mask;
	w->s[base + 1] = (uint32_t)(mask >> 32);
	w->s[base + 2] = (uint32_t)pc;
	w->s[base + 3] = (uint32_t)(pc >> 32);
	set_csp(w, csp(w) + 1);
}

/* The fork common to g_fork (target a computed address) and i_fork
 * (target PC-relative, in->target). */
static int fork_to(struct isa_wave *w, const struct isa_inst *in, uint64_t cond, uint64_t target,
		   bool relative)
{
	uint64_t exec = isa_exec(w), pass = cond & exec, fail = ~cond & exec;
	uint64_t next = in->addr + in->size;
	bool go;

	if (pass == exec) {
		go = true;
	} else if (fail == exec) {
		go = false;
	} else if (__builtin_popcountll(fail) < __builtin_popcountll(pass)) {
		isa_set_exec(w, fail);
		push(w, target, pass);
		go = false;
	} else {
		isa_set_exec(w, pass);
		push(w, next, fail);
		go = true;
	}
	if (!go)
		return ISA_STEP_NEXT;
	if (relative) {
		w->pc = in->target;
		return ISA_STEP_NEXT;
	}
	return kemu_isa_jump(w, in, target);
}

/* s_cbranch_g_fork S0 (mask), S1 (64-bit byte address) */
int isa_exec_g_fork(struct isa_wave *w, const struct isa_inst *in)
{
	return fork_to(w, in, isa_sread64(w, &in->src[0]), isa_sread64(w, &in->src[1]), false);
}

/* s_cbranch_i_fork SDST (mask, the SOPK destination field), SIMM16 */
int isa_exec_i_fork(struct isa_wave *w, const struct isa_inst *in)
{
	uint64_t target = in->addr + 4 + (uint64_t)(int64_t)(int16_t)(in->offset & 0xffff) * 4;
	return fork_to(w, in, isa_sreg64(w, in->dst), target, true);
}

/* s_cbranch_join S0 (the CSP saved before the fork) */
int isa_exec_join(struct isa_wave *w, const struct isa_inst *in)
{
	unsigned saved = isa_sread32(w, &in->src[0]), base;
	uint64_t pc, mask;

	if (csp(w) == (saved & 7))
		return ISA_STEP_NEXT;
	set_csp(w, csp(w) - 1);
	base = csp(w) * 4;
	mask = (uint64_t)w->s[base] | ((uint64_t)w->s[base + 1] << 32);
	pc = (uint64_t)w->s[base + 2] | ((uint64_t)w->s[base + 3] << 32);
	isa_set_exec(w, mask);
	return kemu_isa_jump(w, in, pc & 0xFFFFFFFFFFFFull);
}

/* ---- VSKIP and GPR indexing ---- */

/* s_setvskip S0, S1: VSKIP = S0[S1[4:0]] */
int isa_exec_setvskip(struct isa_wave *w, const struct isa_inst *in)
{
	uint32_t s0 = isa_sread32(w, &in->src[0]), s1 = isa_sread32(w, &in->src[1]);
	w->mode = (w->mode & ~MODE_VSKIP) | (((s0 >> (s1 & 31)) & 1) ? MODE_VSKIP : 0);
	return isa_mode_changed(w, in);
}

/* s_set_gpr_idx_on S0, imm4 (the raw SSRC1 field, bits [11:8]) */
int isa_exec_gpr_idx_on(struct isa_wave *w, const struct isa_inst *in)
{
	uint32_t s0 = isa_sread32(w, &in->src[0]), imm = (in->word[0] >> 8) & 15;
	uint32_t m0 = w->s[ISA_REG_M0];

	w->s[ISA_REG_M0] = (m0 & ~0xf0ffu) | (s0 & 0xff) | (imm << 12);
	w->mode |= MODE_GPR_IDX_EN;
	return isa_mode_changed(w, in);
}

/* s_set_gpr_idx_idx S0: M0[7:0] = S0[7:0] */
int isa_exec_gpr_idx_idx(struct isa_wave *w, const struct isa_inst *in)
{
	w->s[ISA_REG_M0] = (w->s[ISA_REG_M0] & ~0xffu) | (isa_sread32(w, &in->src[0]) & 0xff);
	return ISA_STEP_NEXT;
}

/* s_set_gpr_idx_mode SIMM16: M0[15:12] = SIMM16[3:0] */
int isa_exec_gpr_idx_mode(struct isa_wave *w, const struct isa_inst *in)
{
	w->s[ISA_REG_M0] = (w->s[ISA_REG_M0] & ~0xf000u) | (((uint32_t)in->offset & 15) << 12);
	return ISA_STEP_NEXT;
}
