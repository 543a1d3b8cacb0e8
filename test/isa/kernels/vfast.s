// vfast.s — kernels for test_isa_vfast.c (gfx90a): each runs one 32-bit
// integer VALU instruction with one operand-kind combination (VGPRs, the
// SGPR s8, an inline constant, a literal), the forms that
// isa_exec_vfast.c specialises and, for two scalar sources, the general
// executor.  Lane i loads a, b, c, d = in[4i .. 4i+3] into v2..v5 and
// s8 = b of the wave's first lane; the instruction writes v5 once with
// the whole EXEC (stored at out[2i]) and once, v5 reset to d, under a
// partial EXEC with whole, empty and mixed 8-lane groups (out[2i + 1]);
// TM below does the same for the lane-mask results; T64 and ifz, at the
// end, the pairs the wave loop runs as superinstructions.
.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
.include "kernel.inc"

.macro KD name
  KDESC \name, 16, 16, 16, d32=3
.endm

.macro T name, inst:vararg
  KSYM \name
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  v_lshlrev_b32 v6, 4, v0
  v_lshlrev_b32 v7, 3, v0
  s_waitcnt lgkmcnt(0)
  global_load_dwordx4 v[2:5], v6, s[4:5]
  s_waitcnt vmcnt(0)
  v_readfirstlane_b32 s8, v3
  v_mov_b32 v9, v5
  \inst
  v_mov_b32 v10, v5
  v_mov_b32 v11, v9
  v_mov_b32 v5, v9
  s_mov_b32 exec_lo, 0x00ff5a01
  s_mov_b32 exec_hi, 0xf0ff0080
  \inst
  v_mov_b32 v11, v5
  s_mov_b64 exec, -1
  global_store_dwordx2 v7, v[10:11], s[6:7]
  s_endpgm
  KD \name
.endm

T add_u32_vv, v_add_u32 v5, v2, v3
T add_u32_sv, v_add_u32 v5, s8, v3
T add_u32_vs, v_add_u32_e64 v5, v2, s8
T add_u32_kv, v_add_u32 v5, -3, v3
T add_u32_ss, v_add_u32_e64 v5, s8, 5
T add_u32_lv, v_add_u32 v5, 0x8badf00d, v3
T sub_u32_vv, v_sub_u32 v5, v2, v3
T sub_u32_sv, v_sub_u32 v5, s8, v3
T sub_u32_vs, v_sub_u32_e64 v5, v2, s8
T sub_u32_kv, v_sub_u32 v5, -3, v3
T sub_u32_ss, v_sub_u32_e64 v5, s8, 5
T sub_u32_lv, v_sub_u32 v5, 0x8badf00d, v3
T subrev_u32_vv, v_subrev_u32 v5, v2, v3
T subrev_u32_sv, v_subrev_u32 v5, s8, v3
T subrev_u32_vs, v_subrev_u32_e64 v5, v2, s8
T subrev_u32_kv, v_subrev_u32 v5, -3, v3
T subrev_u32_ss, v_subrev_u32_e64 v5, s8, 5
T subrev_u32_lv, v_subrev_u32 v5, 0x8badf00d, v3
T and_b32_vv, v_and_b32 v5, v2, v3
T and_b32_sv, v_and_b32 v5, s8, v3
T and_b32_vs, v_and_b32_e64 v5, v2, s8
T and_b32_kv, v_and_b32 v5, -3, v3
T and_b32_ss, v_and_b32_e64 v5, s8, 5
T and_b32_lv, v_and_b32 v5, 0x8badf00d, v3
T or_b32_vv, v_or_b32 v5, v2, v3
T or_b32_sv, v_or_b32 v5, s8, v3
T or_b32_vs, v_or_b32_e64 v5, v2, s8
T or_b32_kv, v_or_b32 v5, -3, v3
T or_b32_ss, v_or_b32_e64 v5, s8, 5
T or_b32_lv, v_or_b32 v5, 0x8badf00d, v3
T xor_b32_vv, v_xor_b32 v5, v2, v3
T xor_b32_sv, v_xor_b32 v5, s8, v3
T xor_b32_vs, v_xor_b32_e64 v5, v2, s8
T xor_b32_kv, v_xor_b32 v5, -3, v3
T xor_b32_ss, v_xor_b32_e64 v5, s8, 5
T xor_b32_lv, v_xor_b32 v5, 0x8badf00d, v3
T xnor_b32_vv, v_xnor_b32 v5, v2, v3
T xnor_b32_sv, v_xnor_b32 v5, s8, v3
T xnor_b32_vs, v_xnor_b32_e64 v5, v2, s8
T xnor_b32_kv, v_xnor_b32 v5, -3, v3
T xnor_b32_ss, v_xnor_b32_e64 v5, s8, 5
T xnor_b32_lv, v_xnor_b32 v5, 0x8badf00d, v3
T lshrrev_b32_vv, v_lshrrev_b32 v5, v2, v3
T lshrrev_b32_sv, v_lshrrev_b32 v5, s8, v3
T lshrrev_b32_vs, v_lshrrev_b32_e64 v5, v2, s8
T lshrrev_b32_kv, v_lshrrev_b32 v5, -3, v3
T lshrrev_b32_ss, v_lshrrev_b32_e64 v5, s8, 5
T lshrrev_b32_lv, v_lshrrev_b32 v5, 0x8badf00d, v3
T ashrrev_i32_vv, v_ashrrev_i32 v5, v2, v3
T ashrrev_i32_sv, v_ashrrev_i32 v5, s8, v3
T ashrrev_i32_vs, v_ashrrev_i32_e64 v5, v2, s8
T ashrrev_i32_kv, v_ashrrev_i32 v5, -3, v3
T ashrrev_i32_ss, v_ashrrev_i32_e64 v5, s8, 5
T ashrrev_i32_lv, v_ashrrev_i32 v5, 0x8badf00d, v3
T lshlrev_b32_vv, v_lshlrev_b32 v5, v2, v3
T lshlrev_b32_sv, v_lshlrev_b32 v5, s8, v3
T lshlrev_b32_vs, v_lshlrev_b32_e64 v5, v2, s8
T lshlrev_b32_kv, v_lshlrev_b32 v5, -3, v3
T lshlrev_b32_ss, v_lshlrev_b32_e64 v5, s8, 5
T lshlrev_b32_lv, v_lshlrev_b32 v5, 0x8badf00d, v3
T min_u32_vv, v_min_u32 v5, v2, v3
T min_u32_sv, v_min_u32 v5, s8, v3
T min_u32_vs, v_min_u32_e64 v5, v2, s8
T min_u32_kv, v_min_u32 v5, -3, v3
T min_u32_ss, v_min_u32_e64 v5, s8, 5
T min_u32_lv, v_min_u32 v5, 0x8badf00d, v3
T max_u32_vv, v_max_u32 v5, v2, v3
T max_u32_sv, v_max_u32 v5, s8, v3
T max_u32_vs, v_max_u32_e64 v5, v2, s8
T max_u32_kv, v_max_u32 v5, -3, v3
T max_u32_ss, v_max_u32_e64 v5, s8, 5
T max_u32_lv, v_max_u32 v5, 0x8badf00d, v3
T min_i32_vv, v_min_i32 v5, v2, v3
T min_i32_sv, v_min_i32 v5, s8, v3
T min_i32_vs, v_min_i32_e64 v5, v2, s8
T min_i32_kv, v_min_i32 v5, -3, v3
T min_i32_ss, v_min_i32_e64 v5, s8, 5
T min_i32_lv, v_min_i32 v5, 0x8badf00d, v3
T max_i32_vv, v_max_i32 v5, v2, v3
T max_i32_sv, v_max_i32 v5, s8, v3
T max_i32_vs, v_max_i32_e64 v5, v2, s8
T max_i32_kv, v_max_i32 v5, -3, v3
T max_i32_ss, v_max_i32_e64 v5, s8, 5
T max_i32_lv, v_max_i32 v5, 0x8badf00d, v3
T mul_lo_u32_vv, v_mul_lo_u32 v5, v2, v3
T mul_lo_u32_sv, v_mul_lo_u32 v5, s8, v3
T mul_lo_u32_vs, v_mul_lo_u32 v5, v2, s8
T mul_lo_u32_kv, v_mul_lo_u32 v5, -3, v3
T mul_lo_u32_ss, v_mul_lo_u32 v5, s8, 5
T lshl_add_u32_vvv, v_lshl_add_u32 v5, v2, v3, v4
T lshl_add_u32_svv, v_lshl_add_u32 v5, s8, v3, v4
T lshl_add_u32_vsv, v_lshl_add_u32 v5, v2, s8, v4
T lshl_add_u32_vvs, v_lshl_add_u32 v5, v2, v3, s8
T lshl_add_u32_vkv, v_lshl_add_u32 v5, v2, 4, v4
T add_lshl_u32_vvv, v_add_lshl_u32 v5, v2, v3, v4
T add_lshl_u32_svv, v_add_lshl_u32 v5, s8, v3, v4
T add_lshl_u32_vsv, v_add_lshl_u32 v5, v2, s8, v4
T add_lshl_u32_vvs, v_add_lshl_u32 v5, v2, v3, s8
T add_lshl_u32_vkv, v_add_lshl_u32 v5, v2, 4, v4
T add3_u32_vvv, v_add3_u32 v5, v2, v3, v4
T add3_u32_svv, v_add3_u32 v5, s8, v3, v4
T add3_u32_vsv, v_add3_u32 v5, v2, s8, v4
T add3_u32_vvs, v_add3_u32 v5, v2, v3, s8
T add3_u32_vkv, v_add3_u32 v5, v2, 4, v4
T lshl_or_b32_vvv, v_lshl_or_b32 v5, v2, v3, v4
T lshl_or_b32_svv, v_lshl_or_b32 v5, s8, v3, v4
T lshl_or_b32_vsv, v_lshl_or_b32 v5, v2, s8, v4
T lshl_or_b32_vvs, v_lshl_or_b32 v5, v2, v3, s8
T lshl_or_b32_vkv, v_lshl_or_b32 v5, v2, 4, v4
T and_or_b32_vvv, v_and_or_b32 v5, v2, v3, v4
T and_or_b32_svv, v_and_or_b32 v5, s8, v3, v4
T and_or_b32_vsv, v_and_or_b32 v5, v2, s8, v4
T and_or_b32_vvs, v_and_or_b32 v5, v2, v3, s8
T and_or_b32_vkv, v_and_or_b32 v5, v2, 4, v4
T or3_b32_vvv, v_or3_b32 v5, v2, v3, v4
T or3_b32_svv, v_or3_b32 v5, s8, v3, v4
T or3_b32_vsv, v_or3_b32 v5, v2, s8, v4
T or3_b32_vvs, v_or3_b32 v5, v2, v3, s8
T or3_b32_vkv, v_or3_b32 v5, v2, 4, v4
T xad_u32_vvv, v_xad_u32 v5, v2, v3, v4
T xad_u32_svv, v_xad_u32 v5, s8, v3, v4
T xad_u32_vsv, v_xad_u32 v5, v2, s8, v4
T xad_u32_vvs, v_xad_u32 v5, v2, v3, s8
T xad_u32_vkv, v_xad_u32 v5, v2, 4, v4
T bfi_b32_vvv, v_bfi_b32 v5, v2, v3, v4
T bfi_b32_svv, v_bfi_b32 v5, s8, v3, v4
T bfi_b32_vsv, v_bfi_b32 v5, v2, s8, v4
T bfi_b32_vvs, v_bfi_b32 v5, v2, v3, s8
T bfi_b32_vkv, v_bfi_b32 v5, v2, 4, v4
T mov_b32_v, v_mov_b32 v5, v2
T mov_b32_s, v_mov_b32 v5, s8
T mov_b32_k, v_mov_b32 v5, -16
T mov_b32_l, v_mov_b32 v5, 0x12345678
T not_b32_v, v_not_b32 v5, v2
T not_b32_s, v_not_b32 v5, s8
T not_b32_k, v_not_b32 v5, -16
T add_f32_vv, v_add_f32 v5, v2, v3
T add_f32_sv, v_add_f32 v5, s8, v3
T add_f32_vs, v_add_f32_e64 v5, v2, s8
T add_f32_kv, v_add_f32 v5, -4.0, v3
T add_f32_lv, v_add_f32 v5, 0x3fc00001, v3
T sub_f32_vv, v_sub_f32 v5, v2, v3
T sub_f32_sv, v_sub_f32 v5, s8, v3
T sub_f32_vs, v_sub_f32_e64 v5, v2, s8
T sub_f32_kv, v_sub_f32 v5, -4.0, v3
T sub_f32_lv, v_sub_f32 v5, 0x3fc00001, v3
T subrev_f32_vv, v_subrev_f32 v5, v2, v3
T subrev_f32_sv, v_subrev_f32 v5, s8, v3
T subrev_f32_vs, v_subrev_f32_e64 v5, v2, s8
T subrev_f32_kv, v_subrev_f32 v5, -4.0, v3
T subrev_f32_lv, v_subrev_f32 v5, 0x3fc00001, v3
T mul_f32_vv, v_mul_f32 v5, v2, v3
T mul_f32_sv, v_mul_f32 v5, s8, v3
T mul_f32_vs, v_mul_f32_e64 v5, v2, s8
T mul_f32_kv, v_mul_f32 v5, -4.0, v3
T mul_f32_lv, v_mul_f32 v5, 0x3fc00001, v3
T fmac_f32_vv, v_fmac_f32 v5, v2, v3
T fmac_f32_sv, v_fmac_f32 v5, s8, v3
T fmac_f32_kv, v_fmac_f32 v5, 0.5, v3
T fmac_f32_lv, v_fmac_f32 v5, 0x3fc00001, v3
T fmac_f32_vs, v_fmac_f32_e64 v5, v2, s8
T fma_f32_vvv, v_fma_f32 v5, v2, v3, v4
T fma_f32_svv, v_fma_f32 v5, s8, v3, v4
T fma_f32_vsv, v_fma_f32 v5, v2, s8, v4
T fma_f32_vvs, v_fma_f32 v5, v2, v3, s8
T fma_f32_vkv, v_fma_f32 v5, v2, -2.0, v4

// 16-bit integer operations (VOP2, the vs forms VOP3) and v_mul_hi_u32
// (VOP3), which the fast path also specialises
T mul_hi_u32_vv, v_mul_hi_u32 v5, v2, v3
T mul_hi_u32_sv, v_mul_hi_u32 v5, s8, v3
T mul_hi_u32_vs, v_mul_hi_u32_e64 v5, v2, s8
T mul_hi_u32_kv, v_mul_hi_u32 v5, -3, v3
T add_u16_vv, v_add_u16 v5, v2, v3
T add_u16_sv, v_add_u16 v5, s8, v3
T add_u16_vs, v_add_u16_e64 v5, v2, s8
T add_u16_kv, v_add_u16 v5, -3, v3
T sub_u16_vv, v_sub_u16 v5, v2, v3
T sub_u16_sv, v_sub_u16 v5, s8, v3
T sub_u16_vs, v_sub_u16_e64 v5, v2, s8
T sub_u16_kv, v_sub_u16 v5, -3, v3
T subrev_u16_vv, v_subrev_u16 v5, v2, v3
T subrev_u16_sv, v_subrev_u16 v5, s8, v3
T subrev_u16_vs, v_subrev_u16_e64 v5, v2, s8
T subrev_u16_kv, v_subrev_u16 v5, -3, v3
T mul_lo_u16_vv, v_mul_lo_u16 v5, v2, v3
T mul_lo_u16_sv, v_mul_lo_u16 v5, s8, v3
T mul_lo_u16_vs, v_mul_lo_u16_e64 v5, v2, s8
T mul_lo_u16_kv, v_mul_lo_u16 v5, -3, v3
T lshlrev_b16_vv, v_lshlrev_b16 v5, v2, v3
T lshlrev_b16_sv, v_lshlrev_b16 v5, s8, v3
T lshlrev_b16_vs, v_lshlrev_b16_e64 v5, v2, s8
T lshlrev_b16_kv, v_lshlrev_b16 v5, -3, v3
T lshrrev_b16_vv, v_lshrrev_b16 v5, v2, v3
T lshrrev_b16_sv, v_lshrrev_b16 v5, s8, v3
T lshrrev_b16_vs, v_lshrrev_b16_e64 v5, v2, s8
T lshrrev_b16_kv, v_lshrrev_b16 v5, -3, v3
T ashrrev_i16_vv, v_ashrrev_i16 v5, v2, v3
T ashrrev_i16_sv, v_ashrrev_i16 v5, s8, v3
T ashrrev_i16_vs, v_ashrrev_i16_e64 v5, v2, s8
T ashrrev_i16_kv, v_ashrrev_i16 v5, -3, v3
T max_u16_vv, v_max_u16 v5, v2, v3
T max_u16_sv, v_max_u16 v5, s8, v3
T max_u16_vs, v_max_u16_e64 v5, v2, s8
T max_u16_kv, v_max_u16 v5, -3, v3
T max_i16_vv, v_max_i16 v5, v2, v3
T max_i16_sv, v_max_i16 v5, s8, v3
T max_i16_vs, v_max_i16_e64 v5, v2, s8
T max_i16_kv, v_max_i16 v5, -3, v3
T min_u16_vv, v_min_u16 v5, v2, v3
T min_u16_sv, v_min_u16 v5, s8, v3
T min_u16_vs, v_min_u16_e64 v5, v2, s8
T min_u16_kv, v_min_u16 v5, -3, v3

// TM: the instructions with a lane-mask result (carries, compares) in
// VCC; VCC starts as the carry-in c > b (per lane).  Lane i stores the
// whole-EXEC v5 and VCC bit, then the partial-EXEC ones, at out[4i].
.macro TM name, inst:vararg
  KSYM \name
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  v_lshlrev_b32 v6, 4, v0
  s_waitcnt lgkmcnt(0)
  global_load_dwordx4 v[2:5], v6, s[4:5]
  s_waitcnt vmcnt(0)
  v_readfirstlane_b32 s8, v3
  v_cmp_gt_u32 vcc, v4, v3
  v_mov_b32 v9, v5
  \inst
  v_mov_b32 v10, v5
  v_cndmask_b32 v12, 0, 1, vcc
  v_cmp_gt_u32 vcc, v4, v3
  v_mov_b32 v11, v9
  v_mov_b32 v5, v9
  s_mov_b32 exec_lo, 0x00ff5a01
  s_mov_b32 exec_hi, 0xf0ff0080
  \inst
  v_mov_b32 v11, v5
  s_mov_b64 exec, -1
  v_cndmask_b32 v13, 0, 1, vcc
  global_store_dwordx4 v6, v[10:13], s[6:7]
  s_endpgm
  KD \name
.endm

// v_cndmask_b32: VCC is its one scalar operand (gfx9's constant bus), so
// the uniform sources are inline constants
TM cndmask_b32_vv, v_cndmask_b32 v5, v2, v3, vcc
TM cndmask_b32_kv, v_cndmask_b32 v5, 7, v3, vcc
TM cndmask_b32_vk, v_cndmask_b32_e64 v5, v2, -16, vcc
TM cndmask_b32_kk, v_cndmask_b32_e64 v5, 0, 1, vcc
TM cndmask_b32_kk2, v_cndmask_b32_e64 v5, -1, 64, vcc
TM add_co_u32_vv, v_add_co_u32 v5, vcc, v2, v3
TM add_co_u32_sv, v_add_co_u32 v5, vcc, s8, v3
TM add_co_u32_vs, v_add_co_u32_e64 v5, vcc, v2, s8
TM add_co_u32_kv, v_add_co_u32 v5, vcc, 64, v3
TM addc_co_u32_vv, v_addc_co_u32 v5, vcc, v2, v3, vcc
TM addc_co_u32_kv, v_addc_co_u32 v5, vcc, 64, v3, vcc
TM cmp_lt_i32_vv, v_cmp_lt_i32 vcc, v2, v3
TM cmp_lt_i32_sv, v_cmp_lt_i32 vcc, s8, v3
TM cmp_lt_i32_vs, v_cmp_lt_i32_e64 vcc, v2, s8
TM cmp_lt_i32_kv, v_cmp_lt_i32 vcc, 7, v3
TM cmp_eq_i32_vv, v_cmp_eq_i32 vcc, v2, v3
TM cmp_eq_i32_sv, v_cmp_eq_i32 vcc, s8, v3
TM cmp_eq_i32_vs, v_cmp_eq_i32_e64 vcc, v2, s8
TM cmp_eq_i32_kv, v_cmp_eq_i32 vcc, 7, v3
TM cmp_le_i32_vv, v_cmp_le_i32 vcc, v2, v3
TM cmp_le_i32_sv, v_cmp_le_i32 vcc, s8, v3
TM cmp_le_i32_vs, v_cmp_le_i32_e64 vcc, v2, s8
TM cmp_le_i32_kv, v_cmp_le_i32 vcc, 7, v3
TM cmp_gt_i32_vv, v_cmp_gt_i32 vcc, v2, v3
TM cmp_gt_i32_sv, v_cmp_gt_i32 vcc, s8, v3
TM cmp_gt_i32_vs, v_cmp_gt_i32_e64 vcc, v2, s8
TM cmp_gt_i32_kv, v_cmp_gt_i32 vcc, 7, v3
TM cmp_ne_i32_vv, v_cmp_ne_i32 vcc, v2, v3
TM cmp_ne_i32_sv, v_cmp_ne_i32 vcc, s8, v3
TM cmp_ne_i32_vs, v_cmp_ne_i32_e64 vcc, v2, s8
TM cmp_ne_i32_kv, v_cmp_ne_i32 vcc, 7, v3
TM cmp_ge_i32_vv, v_cmp_ge_i32 vcc, v2, v3
TM cmp_ge_i32_sv, v_cmp_ge_i32 vcc, s8, v3
TM cmp_ge_i32_vs, v_cmp_ge_i32_e64 vcc, v2, s8
TM cmp_ge_i32_kv, v_cmp_ge_i32 vcc, 7, v3
TM cmp_lt_u32_vv, v_cmp_lt_u32 vcc, v2, v3
TM cmp_lt_u32_sv, v_cmp_lt_u32 vcc, s8, v3
TM cmp_lt_u32_vs, v_cmp_lt_u32_e64 vcc, v2, s8
TM cmp_lt_u32_kv, v_cmp_lt_u32 vcc, 7, v3
TM cmp_eq_u32_vv, v_cmp_eq_u32 vcc, v2, v3
TM cmp_eq_u32_sv, v_cmp_eq_u32 vcc, s8, v3
TM cmp_eq_u32_vs, v_cmp_eq_u32_e64 vcc, v2, s8
TM cmp_eq_u32_kv, v_cmp_eq_u32 vcc, 7, v3
TM cmp_le_u32_vv, v_cmp_le_u32 vcc, v2, v3
TM cmp_le_u32_sv, v_cmp_le_u32 vcc, s8, v3
TM cmp_le_u32_vs, v_cmp_le_u32_e64 vcc, v2, s8
TM cmp_le_u32_kv, v_cmp_le_u32 vcc, 7, v3
TM cmp_gt_u32_vv, v_cmp_gt_u32 vcc, v2, v3
TM cmp_gt_u32_sv, v_cmp_gt_u32 vcc, s8, v3
TM cmp_gt_u32_vs, v_cmp_gt_u32_e64 vcc, v2, s8
TM cmp_gt_u32_kv, v_cmp_gt_u32 vcc, 7, v3
TM cmp_ne_u32_vv, v_cmp_ne_u32 vcc, v2, v3
TM cmp_ne_u32_sv, v_cmp_ne_u32 vcc, s8, v3
TM cmp_ne_u32_vs, v_cmp_ne_u32_e64 vcc, v2, s8
TM cmp_ne_u32_kv, v_cmp_ne_u32 vcc, 7, v3
TM cmp_ge_u32_vv, v_cmp_ge_u32 vcc, v2, v3
TM cmp_ge_u32_sv, v_cmp_ge_u32 vcc, s8, v3
TM cmp_ge_u32_vs, v_cmp_ge_u32_e64 vcc, v2, s8
TM cmp_ge_u32_kv, v_cmp_ge_u32 vcc, 7, v3

// T64: a 64-bit add pair, v_add_co_u32 then v_addc_co_u32 on its carry
// (the wave loop's superinstruction, isa_exec_vfast.c, where the forms
// allow it), with v10 = d and v11 = a before it and VCC, s[10:11] and
// s[12:13] = (c > b) per lane.  Lane i stores v10, v11 and the lane's
// bits of VCC, s[10:11], s[12:13] (bits 0, 1, 2) at out[8i] after the
// pair under the whole EXEC, and at out[8i + 4] after it under the
// partial EXEC of T/TM (the state reset in between).  The second's
// sources can be VGPRs or inline constants only (its carry-in takes the
// one scalar read of the constant bus).
.macro T64 name, i1, i2
  KSYM \name
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  v_lshlrev_b32 v6, 4, v0
  v_lshlrev_b32 v7, 5, v0
  s_waitcnt lgkmcnt(0)
  global_load_dwordx4 v[2:5], v6, s[4:5]
  s_waitcnt vmcnt(0)
  v_readfirstlane_b32 s8, v3
  v_cmp_gt_u32 vcc, v4, v3
  s_mov_b64 s[10:11], vcc
  s_mov_b64 s[12:13], vcc
  v_mov_b32 v10, v5
  v_mov_b32 v11, v2
  \i1
  \i2
  v_cndmask_b32_e64 v12, 0, 1, vcc
  v_cndmask_b32_e64 v13, 0, 2, s[10:11]
  v_cndmask_b32_e64 v14, 0, 4, s[12:13]
  v_or3_b32 v12, v12, v13, v14
  global_store_dwordx3 v7, v[10:12], s[6:7]
  v_cmp_gt_u32 vcc, v4, v3
  s_mov_b64 s[10:11], vcc
  s_mov_b64 s[12:13], vcc
  v_mov_b32 v10, v5
  v_mov_b32 v11, v2
  s_mov_b32 exec_lo, 0x00ff5a01
  s_mov_b32 exec_hi, 0xf0ff0080
  \i1
  \i2
  s_mov_b64 exec, -1
  v_cndmask_b32_e64 v12, 0, 1, vcc
  v_cndmask_b32_e64 v13, 0, 2, s[10:11]
  v_cndmask_b32_e64 v14, 0, 4, s[12:13]
  v_or3_b32 v12, v12, v13, v14
  global_store_dwordx3 v7, v[10:12], s[6:7] offset:16
  s_endpgm
  KD \name
.endm

T64 add64_vv, "v_add_co_u32 v10, vcc, v2, v3", "v_addc_co_u32 v11, vcc, v4, v5, vcc"
T64 add64_sv, "v_add_co_u32 v10, vcc, s8, v3", "v_addc_co_u32 v11, vcc, v4, v5, vcc"
T64 add64_vs_vk, "v_add_co_u32_e64 v10, vcc, v2, s8", "v_addc_co_u32_e64 v11, vcc, v4, 64, vcc"
T64 add64_vv_kv, "v_add_co_u32 v10, vcc, v2, v3", "v_addc_co_u32 v11, vcc, 0, v5, vcc"
T64 add64_kv_kv, "v_add_co_u32 v10, vcc, -1, v3", "v_addc_co_u32 v11, vcc, 0, v5, vcc"
T64 add64_pairs, "v_add_co_u32_e64 v10, s[10:11], v2, v3", "v_addc_co_u32_e64 v11, s[12:13], v4, v5, s[10:11]"
T64 add64_hi_reads_lo, "v_add_co_u32 v10, vcc, v2, v3", "v_addc_co_u32 v11, vcc, v10, v5, vcc"
T64 add64_lo_reads_hi, "v_add_co_u32 v10, vcc, v11, v3", "v_addc_co_u32 v11, vcc, v4, v5, vcc"
T64 add64_same_dst, "v_add_co_u32 v10, vcc, v2, v3", "v_addc_co_u32 v10, vcc, v10, v5, vcc"
T64 add64_other_carry, "v_add_co_u32_e64 v10, s[10:11], v2, v3", "v_addc_co_u32_e64 v11, s[12:13], v4, v5, vcc"

// ifz: the opening of a divergent `if` (s_and_saveexec_b64 then
// s_cbranch_execz, a pair the wave loop runs as one superinstruction).
// Lane i: v10 = 1 where c > b (the body ran for it), else 2; v11 = SCC
// after the pair; v12 = the saved EXEC's bit; v13 = 7 when the body ran
// for the wave (a scalar write in it), 3 when the branch skipped it;
// stored at out[8i].  The body opens with a no-op, which the wave loop
// skips after the pair.
KSYM ifz
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  v_lshlrev_b32 v6, 4, v0
  v_lshlrev_b32 v7, 5, v0
  s_waitcnt lgkmcnt(0)
  global_load_dwordx4 v[2:5], v6, s[4:5]
  s_waitcnt vmcnt(0)
  s_mov_b32 s13, 3
  v_mov_b32 v10, 2
  v_cmp_gt_u32 vcc, v4, v3
  s_and_saveexec_b64 s[10:11], vcc
  s_cbranch_execz .Lifz_end
  s_nop 0
  v_mov_b32 v10, 1
  s_mov_b32 s13, 7
.Lifz_end:
  s_cselect_b32 s12, 1, 0
  s_mov_b64 exec, s[10:11]
  v_mov_b32 v11, s12
  v_cndmask_b32_e64 v12, 0, 1, s[10:11]
  v_mov_b32 v13, s13
  global_store_dwordx4 v7, v[10:13], s[6:7]
  s_endpgm
  KD ifz
