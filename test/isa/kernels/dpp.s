// dpp.s — DPP forms for test_isa_dpp.c (gfx90a): carries, v_cndmask, float
// source modifiers, row_newbcast and the 64-bit (row_newbcast) forms; and
// the SDWA forms of the carries and v_cndmask.
// Kernarg {const uint32_t *in, uint32_t *out}; one wave: lane i loads
// a, b, c, d = in[4i .. 4i+3] into v2..v5, sets VCC = (a > b) and v8/v9 =
// c/d, runs the instruction under EXEC = {exec_lo, exec_hi}, and stores
// v5, v8, v9 and its VCC bit at out[4i .. 4i+3].
.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
.include "kernel.inc"

.macro T name, elo, ehi, inst:vararg
  KSYM \name
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  v_lshlrev_b32 v6, 4, v0
  s_waitcnt lgkmcnt(0)
  global_load_dwordx4 v[2:5], v6, s[4:5]
  s_waitcnt vmcnt(0)
  v_cmp_gt_u32 vcc, v2, v3
  v_mov_b32 v8, v4
  v_mov_b32 v9, v5
  s_mov_b32 exec_lo, \elo
  s_mov_b32 exec_hi, \ehi
  \inst
  s_mov_b64 exec, -1
  v_cndmask_b32_e64 v10, 0, 1, vcc
  global_store_dword v6, v5, s[6:7]
  global_store_dword v6, v8, s[6:7] offset:4
  global_store_dword v6, v9, s[6:7] offset:8
  global_store_dword v6, v10, s[6:7] offset:12
  s_endpgm
  KDESC \name, 16, 16, 16
.endm

T add_co_shr1,     -1, -1, v_add_co_u32_dpp v5, vcc, v2, v3 row_shr:1 row_mask:0xf bank_mask:0xf
T add_co_shr1_bc,  0xfff7fff7, 0x7fffffff, v_add_co_u32_dpp v5, vcc, v2, v3 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:0
T addc_co_quad,    -1, 0xff00ff00, v_addc_co_u32_dpp v5, vcc, v2, v3, vcc quad_perm:[1,0,3,2] row_mask:0xa bank_mask:0x5
T sub_co_bcast15,  -1, -1, v_sub_co_u32_dpp v5, vcc, v2, v3 row_bcast:15 row_mask:0xf bank_mask:0xf
T subrev_co_ror,   -1, -1, v_subrev_co_u32_dpp v5, vcc, v2, v3 row_ror:5 row_mask:0xf bank_mask:0xf
T subb_co_shl,     0x5555ffff, -1, v_subb_co_u32_dpp v5, vcc, v2, v3, vcc row_shl:2 row_mask:0xf bank_mask:0xf bound_ctrl:0
T cndmask_ror,     -1, -1, v_cndmask_b32_dpp v5, v2, v3, vcc row_ror:3 row_mask:0xf bank_mask:0xf
T add_f32_neg_abs, -1, -1, v_add_f32_dpp v5, -v2, |v3| wave_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:0
T mul_f32_abs,     -1, -1, v_mul_f32_dpp v5, |v2|, -v3 row_mirror row_mask:0xf bank_mask:0xf
T mov_newbcast,    -1, -1, v_mov_b32_dpp v5, v2 row_newbcast:3 row_mask:0xf bank_mask:0xf
T ceil_f64_nb,     -1, 0xf0f0f0f0, v_ceil_f64_dpp v[8:9], v[2:3] row_newbcast:1 row_mask:0xf bank_mask:0xf
T fmac_f64_nb,     -1, -1, v_fmac_f64_dpp v[8:9], v[2:3], v[4:5] row_newbcast:15 row_mask:0xf bank_mask:0xf

// SDWA forms of the carry ops and v_cndmask (same frame, full EXEC)
T add_co_sdwa,     -1, -1, v_add_co_u32_sdwa v5, vcc, v2, v3 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_1 src1_sel:WORD_0
T addc_co_sdwa,    -1, -1, v_addc_co_u32_sdwa v5, vcc, v2, v3, vcc dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:BYTE_3
T cndmask_sdwa,    -1, -1, v_cndmask_b32_sdwa v5, v2, v3, vcc dst_sel:BYTE_2 dst_unused:UNUSED_SEXT src0_sel:BYTE_0 src1_sel:WORD_1
T sub_co_sdwa,     -1, -1, v_sub_co_u32_sdwa v5, vcc, sext(v2), v3 dst_sel:WORD_0 dst_unused:UNUSED_PAD src0_sel:BYTE_0 src1_sel:BYTE_2
T subbrev_co_sdwa, 0xffff0000, -1, v_subbrev_co_u32_sdwa v5, vcc, v2, sext(v3), vcc dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_0 src1_sel:WORD_1
