// ops.s — kernels for test_isa_ops.c, assembled for gfx90a and for gfx942
// (no .amdgcn_target: the build's -mcpu names it): the mode-changing
// scalar instructions (GPR indexing, s_setvskip, the fork/join branch
// stack, s_rfe_b64/s_rfe_restore_b64, s_sethalt, s_sendmsghalt),
// ds_condxchg32_rtn_b64, s_scratch_load/store, v_cvt_norm_*_f16 in their
// e64/SDWA/DPP forms and v_accvgpr_mov_b32.
// Kernarg {const uint32_t *in, uint32_t *out, const uint32_t *aux}; one
// wave of 64: lane l loads in[4l .. 4l+3] into v[2:5] and stores
// v[40:55] at out[16l ..]; test_isa_ops.c computes each from the ISA.

.include "kernel.inc"

.include "ops.inc"

// GPR indexing.  i0 = lane 0's v2 & 3, i1 = lane 0's v3 & 1.
//  v40 = v[2 + i0] (SRC0); v[41 + i1] = v2 + v3 (DST);
//  v43 = v[2 + i1] + v[4 + i1] (s_set_gpr_idx_mode SRC0|SRC1);
//  v44 = u24(v2) * u24(v3) + v[2 + i0] (s_set_gpr_idx_idx, SRC2);
//  v45 = v[2 + i0] < v3 (a compare: the SGPR destination is not indexed).
BEGIN ops_gpr_idx
  v_readfirstlane_b32 s8, v2
  s_and_b32 s8, s8, 3
  v_readfirstlane_b32 s9, v3
  s_and_b32 s9, s9, 1
  s_set_gpr_idx_on s8, gpr_idx(SRC0)
  v_mov_b32 v40, v2
  s_set_gpr_idx_off
  s_set_gpr_idx_on s9, gpr_idx(DST)
  v_add_u32 v41, v2, v3
  s_set_gpr_idx_mode gpr_idx(SRC0,SRC1)
  v_add_u32 v43, v2, v4
  s_set_gpr_idx_idx s8
  s_set_gpr_idx_mode gpr_idx(SRC2)
  v_mad_u32_u24 v44, v2, v3, v2
  s_set_gpr_idx_mode gpr_idx(SRC0,DST)
  v_cmp_lt_u32 s[20:21], v2, v3
  s_set_gpr_idx_off
  v_cndmask_b32 v45, 0, 1, s[20:21]
END ops_gpr_idx

// An index past the wave's VGPRs stops the wave.
BEGIN ops_gpr_idx_oob
  s_movk_i32 s8, 200
  s_set_gpr_idx_on s8, gpr_idx(SRC0)
  v_mov_b32 v40, v2
  s_set_gpr_idx_off
END ops_gpr_idx_oob

// VSKIP.  LDS dword 4l is 0, then a skipped ds_write of v2 and v_mov v40
// = 5; the scalar s_mov inside runs: v41 = 9, v42 = the LDS dword (0).
// v43 = 7 unless bit 3 of lane 0's v2 set VSKIP (s_setvskip s8, 3); v44
// stays 0 under VSKIP set through s_setreg (MODE bit 28); v45 = 2.
BEGIN ops_vskip
  v_readfirstlane_b32 s8, v2
  ds_write_b32 v14, v40
  s_waitcnt lgkmcnt(0)
  s_setvskip 1, 0
  ds_write_b32 v14, v2
  v_mov_b32 v40, 5
  s_mov_b32 s10, 9
  s_setvskip 0, 0
  v_mov_b32 v41, s10
  ds_read_b32 v42, v14
  s_waitcnt lgkmcnt(0)
  s_setvskip s8, 3
  v_mov_b32 v43, 7
  s_setvskip 0, 0
  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 28, 1), 1
  v_mov_b32 v44, 1
  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 28, 1), 0
  v_mov_b32 v45, 2
END ops_vskip

// The branch stack.  s_cbranch_i_fork on "v2 odd": the fall-through path
// sets v40 = 1 and appends 1 to the path record s31 (two bits a path),
// the taken path v40 = 2 and appends 2; s_cbranch_join runs the other
// path, then goes on.  v41 = s31.  The same with s_cbranch_g_fork on "v3
// odd" to an address computed with s_getpc_b64: v42 (3 / 4), v43 = s31.
// v44 = MODE.CSP after both (back to its value before).
BEGIN ops_fork
  s_mov_b64 s[24:25], exec
  v_and_b32 v6, 1, v2
  v_cmp_ne_u32 s[22:23], 0, v6
  s_getreg_b32 s30, hwreg(HW_REG_MODE, 29, 3)
  s_mov_b32 s31, 0
  s_cbranch_i_fork s[22:23], .Lif_taken
  v_mov_b32 v40, 1
  s_lshl_b32 s31, s31, 2
  s_or_b32 s31, s31, 1
  s_branch .Lif_join
.Lif_taken:
  v_mov_b32 v40, 2
  s_lshl_b32 s31, s31, 2
  s_or_b32 s31, s31, 2
.Lif_join:
  s_cbranch_join s30
  s_mov_b64 exec, s[24:25]
  v_mov_b32 v41, s31
  v_and_b32 v6, 1, v3
  v_cmp_ne_u32 s[22:23], 0, v6
  s_mov_b32 s31, 0
  s_getpc_b64 s[26:27]
.Lgf_pc:
  s_add_u32 s26, s26, .Lgf_taken-.Lgf_pc
  s_addc_u32 s27, s27, 0
  s_cbranch_g_fork s[22:23], s[26:27]
  v_mov_b32 v42, 3
  s_lshl_b32 s31, s31, 2
  s_or_b32 s31, s31, 1
  s_branch .Lgf_join
.Lgf_taken:
  v_mov_b32 v42, 4
  s_lshl_b32 s31, s31, 2
  s_or_b32 s31, s31, 2
.Lgf_join:
  s_cbranch_join s30
  s_mov_b64 exec, s[24:25]
  v_mov_b32 v43, s31
  s_getreg_b32 s32, hwreg(HW_REG_MODE, 29, 3)
  v_mov_b32 v44, s32
END ops_fork

// s_rfe_b64 and s_rfe_restore_b64 outside a trap handler: jumps to S0
// (v40, v42 skipped: 0; v41 = 2, v43 = 4); s_sethalt 0 goes on (v44 = 5).
BEGIN ops_rfe
  s_getpc_b64 s[26:27]
.Lrfe_pc:
  s_add_u32 s26, s26, .Lrfe_to-.Lrfe_pc
  s_addc_u32 s27, s27, 0
  s_rfe_b64 s[26:27]
  v_mov_b32 v40, 1
.Lrfe_to:
  v_mov_b32 v41, 2
  s_getpc_b64 s[26:27]
.Lrfr_pc:
  s_add_u32 s26, s26, .Lrfr_to-.Lrfr_pc
  s_addc_u32 s27, s27, 0
  s_mov_b32 s28, 1
  s_rfe_restore_b64 s[26:27], s28
  v_mov_b32 v42, 3
.Lrfr_to:
  v_mov_b32 v43, 4
  s_sethalt 0
  v_mov_b32 v44, 5
END ops_rfe

// s_sethalt 1 and s_sendmsghalt halt the wave (no debugger resumes it).
BEGIN ops_sethalt
  s_sethalt 1
  v_mov_b32 v40, 1
END ops_sethalt

BEGIN ops_sendmsghalt
  s_sendmsghalt sendmsg(MSG_INTERRUPT)
  v_mov_b32 v40, 1
END ops_sendmsghalt

// ds_condxchg32_rtn_b64: LDS qword l = {v2, v3}; the exchange at 8l + 5
// (+ 0x10000 on odd lanes: both dropped by the & 0xfff8) with data
// {v4, v5}; v[40:41] = the old qword, v[42:43] the qword after.
BEGIN ops_condxchg
  v_lshlrev_b32 v20, 3, v0
  ds_write_b64 v20, v[2:3]
  s_waitcnt lgkmcnt(0)
  v_and_b32 v21, 1, v0
  v_lshlrev_b32 v21, 16, v21
  v_add_u32 v21, v21, v20
  v_add_u32 v21, 5, v21
  ds_condxchg32_rtn_b64 v[40:41], v21, v[4:5]
  s_waitcnt lgkmcnt(0)
  ds_read_b64 v[42:43], v20
  s_waitcnt lgkmcnt(0)
END ops_condxchg

// s_scratch_store/load (64 bytes of scratch a lane: 4 KiB a wave).
// Lane 0's v2..v5 (s8..s11) go to wave scratch 0x140.. (x4), 0x180 (s8),
// 0x184 (s9), 0x188.. (x2 s10, s11); read back with an SGPR offset
// (x2 at 0x148: v40, v41), x1 at 0x144 (v42), x4 at 0x180 (v43..v46).
BEGIN ops_sscratch
  v_readfirstlane_b32 s8, v2
  v_readfirstlane_b32 s9, v3
  v_readfirstlane_b32 s10, v4
  v_readfirstlane_b32 s11, v5
  s_mov_b32 s20, 0x100
  s_mov_b32 s21, 0
  s_scratch_store_dwordx4 s[8:11], s[20:21], 0x40
  s_scratch_store_dword s8, s[20:21], 0x80
  s_scratch_store_dword s9, s[20:21], 0x84
  s_scratch_store_dwordx2 s[10:11], s[20:21], 0x88
  s_waitcnt lgkmcnt(0)
  s_movk_i32 s22, 0x48
  s_scratch_load_dwordx2 s[12:13], s[20:21], s22
  s_scratch_load_dword s14, s[20:21], 0x44
  s_scratch_load_dwordx4 s[16:19], s[20:21], 0x80
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v40, s12
  v_mov_b32 v41, s13
  v_mov_b32 v42, s14
  v_mov_b32 v43, s16
  v_mov_b32 v44, s17
  v_mov_b32 v45, s18
  v_mov_b32 v46, s19
END ops_sscratch, 64

// A scalar scratch access past the wave's scratch faults.
BEGIN ops_sscratch_oob
  s_mov_b32 s20, 0x100000
  s_mov_b32 s21, 0
  s_scratch_load_dword s8, s[20:21], 0x0
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v40, s8
END ops_sscratch_oob, 64

// v_cvt_norm_i16/u16_f16 beyond e32: v40 = norm_i16(-v2.lo) (e64 NEG),
// v41 = norm_u16(|v2.lo|) (e64 ABS), v42 = norm_i16(v3.hi) (SDWA WORD_1),
// v43 = {norm_u16(v3.hi), v4.lo} (SDWA dst WORD_1, UNUSED_PRESERVE),
// v44 = norm_i16 of lane (l ^ 1)'s v2.lo (DPP quad_perm [1,0,3,2]),
// v45 = norm_u16 of lane (l & ~3 | 3 - (l & 3))'s v2.lo ([3,2,1,0]).
BEGIN ops_cvt_norm
  v_cvt_norm_i16_f16_e64 v40, -v2
  v_cvt_norm_u16_f16_e64 v41, |v2|
  v_cvt_norm_i16_f16_sdwa v42, v3 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1
  v_mov_b32 v43, v4
  v_cvt_norm_u16_f16_sdwa v43, v3 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1
  v_cvt_norm_i16_f16_dpp v44, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
  v_cvt_norm_u16_f16_dpp v45, v2 quad_perm:[3,2,1,0] row_mask:0xf bank_mask:0xf
END ops_cvt_norm

// v_accvgpr_mov_b32: a2 = a0 (v2), a3 = a1 (v3), then a1 = a2: v40 = a2,
// v41 = a3, v42 = a1 (= v2).
BEGIN ops_accmov
  v_accvgpr_write_b32 a0, v2
  v_accvgpr_write_b32 a1, v3
  v_accvgpr_mov_b32 a2, a0
  v_accvgpr_mov_b32 a3, a1
  v_accvgpr_mov_b32 a1, a2
  v_accvgpr_read_b32 v40, a2
  v_accvgpr_read_b32 v41, a3
  v_accvgpr_read_b32 v42, a1
END ops_accmov

// The float modifiers of the conversions in the integer table:
// v40 = pknorm_i16(-v2, |v3|), v41 = pknorm_u16(|v2|, -v3),
// v42 = cvt_pk_u8(-v2) into byte 1 of v4, v43 = cvt_pk_u8(|v3|) into
// byte 2 of v5, v44 = cvt_off_i4(v2) * 2, v45 = clamp(cvt_off_i4(v3)),
// v46 = clamp(cvt_off_i4(v4) / 2).
BEGIN ops_cvt_mods
  v_cvt_pknorm_i16_f32 v40, -v2, |v3|
  v_cvt_pknorm_u16_f32 v41, |v2|, -v3
  v_cvt_pk_u8_f32 v42, -v2, 1, v4
  v_cvt_pk_u8_f32 v43, |v3|, 2, v5
  v_cvt_off_f32_i4_e64 v44, v2 mul:2
  v_cvt_off_f32_i4_e64 v45, v3 clamp
  v_cvt_off_f32_i4_e64 v46, v4 clamp div:2
END ops_cvt_mods

// CLAMP on the packed f16 operations: v40 add, v41 mul, v42 fma (v4),
// v43 min, v44 max of v2 and v3, each half clamped to [0, 1].
BEGIN ops_pk_clamp
  v_pk_add_f16 v40, v2, v3 clamp
  v_pk_mul_f16 v41, v2, v3 clamp
  v_pk_fma_f16 v42, v2, v3, v4 clamp
  v_pk_min_f16 v43, v2, v3 clamp
  v_pk_max_f16 v44, v2, v3 clamp
END ops_pk_clamp
