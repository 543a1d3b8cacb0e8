/*
 * isa_valu.h — the VALU executors shared between the decoder
 * (isa_exec_valu.c) and the float/conversion half (isa_exec_vfp.c).
 *
 * Every VALU instruction is decoded into the VOP3 opcode space (gfx9:
 * VOPC 0x000-0x0ff, VOP2 0x100-0x13f, VOP1 0x140-0x1bf, VOP3-only
 * 0x1c0-0x2ff), so one executor serves the e32 and e64 forms; the e32
 * forms get the implicit operands (VCC carry, VCC selector, the
 * accumulator of v_mac/v_fmac) filled in by the decoder.
 */
#ifndef KEMU_ISA_VALU_H
#define KEMU_ISA_VALU_H

#include "isa_priv.h"

/* isa_exec_vfp.c */
int isa_exec_vf32(struct isa_wave *w, const struct isa_inst *in);
/* isa_exec_vf32 for unmodified add/sub/subrev/mul/fma/fmac (the decoder
 * picks it when isa_vf32_fast_ok) */
int isa_exec_vf32_fast(struct isa_wave *w, const struct isa_inst *in);
bool isa_vf32_fast_ok(const struct isa_inst *in);
int isa_exec_vf64(struct isa_wave *w, const struct isa_inst *in);
int isa_exec_vcvt(struct isa_wave *w, const struct isa_inst *in);
int isa_exec_vf16(struct isa_wave *w, const struct isa_inst *in);
int isa_exec_pk_f16(struct isa_wave *w, const struct isa_inst *in);
int isa_exec_div_scale(struct isa_wave *w, const struct isa_inst *in);
/* isa_exec_valu.c: the VOPC compares' general executor */
int isa_exec_vcmp(struct isa_wave *w, const struct isa_inst *in);
bool isa_vfp_supported(unsigned op, bool gfx942);
/* r = fma(a, b, c) on 64 lanes of f32 bits (exact, host FMA if present) */
void isa_fma32_lanes(const uint32_t *a, const uint32_t *b, const uint32_t *c, uint32_t *r);
/* VOP3's output modifiers on 64 lanes of f32 results: OMOD's scale, then
 * CLAMP to [0, 1] (a NaN to 0 under MODE.DX10_CLAMP) */
void isa_outmods_f32(const struct isa_wave *w, const struct isa_inst *in, uint32_t *r);

/* isa_exec_vfast.c: the specialised executors of the common 32-bit
 * integer operations, carries, compares, v_cndmask_b32 and f32
 * add/sub/mul; sets in->exec and returns true when the decoded instruction
 * (whose executor is exec_vb32, exec_carry, exec_vcmp, exec_cndmask or
 * isa_exec_vf32) has one. */
bool isa_vfast_pick(struct isa_inst *in);
/* isa_exec_vfast64.c: the same for the f64 arithmetic, square root,
 * division and ldexp operations (executor isa_exec_vf64 or
 * isa_exec_div_scale) and the 64-bit integer shifts and moves (exec_vb64). */
bool isa_vfast64_pick(struct isa_inst *in);

/* isa_exec_vop3p.c: integer dot products (in->aux: element type) */
int isa_exec_idot(struct isa_wave *w, const struct isa_inst *in);

/* Fetch a 32-bit float-typed source with abs/neg applied (into buf). */
void isa_fetch_f32(struct isa_wave *w, const struct isa_opnd *o, uint32_t *buf);
void isa_fetch_f64(struct isa_wave *w, const struct isa_opnd *o, uint64_t *buf);

/* isa_exec_vextra.c: the executor of a VOP1/VOP2/VOP3 opcode the main
 * table does not list (legacy, cube, quad SAD, f16 dot into f32, fp8
 * conversions), its source types in t; NULL when there is none. */
isa_exec_fn isa_valu_extra(unsigned op, bool gfx942, uint8_t t[3]);
/* isa_exec_vextra.c: v_cvt_pk_u8_f32 / v_cvt_pknorm_*_f32 with ABS/NEG
 * and v_cvt_off_f32_i4 with OMOD/CLAMP around in->inner (exec_vb32). */
int isa_exec_vcvt_mods(struct isa_wave *w, const struct isa_inst *in);
/* f32 bits to a gfx942 FNUZ fp8 (E4M3) or bf8 (E5M2) byte: round to
 * nearest even, or stochastically (sr) adding rnd's low bits; sat
 * (CLAMP) saturates an overflow instead of making NaN (0x80). */
uint8_t kemu_isa_fp8_of(uint32_t u, bool bf8, bool sat, bool sr, uint32_t rnd);

#endif /* KEMU_ISA_VALU_H */
