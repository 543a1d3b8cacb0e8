// salu.s — one kernel per scalar ALU form for test_isa_salu.c (gfx90a):
// SOP2, SOP1 (incl. the saveexec/wrexec forms and M0-relative reads),
// SOPC and SOPK, GENERATED with the form table of test_isa_salu.c.  One
// wave per workgroup; workgroup g loads in[8g .. 8g+7] into s[16:23]:
// A = s[16:17], B = s[18:19], s20 bit 0 the SCC going in (s[20:21] is
// also D's starting value), s[22:23] the EXEC going in; M0 = s21 & 3
// (s21 & 2 for the 64-bit M0-relative read).  out[8g ..] = D (s24, s25),
// SCC, EXEC after (two dwords).
.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
.include "kernel.inc"

.macro KD name
  KDESC \name, 8, 40, 8
.endm

.macro T name, m0mask, inst:vararg
  KSYM \name
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_lshl_b32 s8, s2, 5
  s_waitcnt lgkmcnt(0)
  s_add_u32 s4, s4, s8
  s_addc_u32 s5, s5, 0
  s_load_dwordx8 s[16:23], s[4:5], 0x0
  s_waitcnt lgkmcnt(0)
  s_and_b32 m0, s21, \m0mask
  s_mov_b64 s[24:25], s[20:21]
  s_mov_b64 s[30:31], exec
  s_mov_b64 exec, s[22:23]
  s_and_b32 s9, s20, 1
  \inst
  s_cselect_b32 s26, 1, 0
  s_mov_b64 s[28:29], exec
  s_mov_b64 exec, s[30:31]
  v_mov_b32 v2, s24
  v_mov_b32 v3, s25
  v_mov_b32 v4, s26
  v_mov_b32 v5, s28
  v_mov_b32 v6, s29
  v_mov_b32 v1, s8
  global_store_dwordx4 v1, v[2:5], s[6:7]
  global_store_dword v1, v6, s[6:7] offset:16
  s_endpgm
  KD \name
.endm

T k_s_add_u32, 3, s_add_u32 s24, s16, s18
T k_s_sub_u32, 3, s_sub_u32 s24, s16, s18
T k_s_add_i32, 3, s_add_i32 s24, s16, s18
T k_s_sub_i32, 3, s_sub_i32 s24, s16, s18
T k_s_addc_u32, 3, s_addc_u32 s24, s16, s18
T k_s_subb_u32, 3, s_subb_u32 s24, s16, s18
T k_s_min_i32, 3, s_min_i32 s24, s16, s18
T k_s_min_u32, 3, s_min_u32 s24, s16, s18
T k_s_max_i32, 3, s_max_i32 s24, s16, s18
T k_s_max_u32, 3, s_max_u32 s24, s16, s18
T k_s_cselect_b32, 3, s_cselect_b32 s24, s16, s18
T k_s_and_b32, 3, s_and_b32 s24, s16, s18
T k_s_or_b32, 3, s_or_b32 s24, s16, s18
T k_s_xor_b32, 3, s_xor_b32 s24, s16, s18
T k_s_andn2_b32, 3, s_andn2_b32 s24, s16, s18
T k_s_orn2_b32, 3, s_orn2_b32 s24, s16, s18
T k_s_nand_b32, 3, s_nand_b32 s24, s16, s18
T k_s_nor_b32, 3, s_nor_b32 s24, s16, s18
T k_s_xnor_b32, 3, s_xnor_b32 s24, s16, s18
T k_s_lshl_b32, 3, s_lshl_b32 s24, s16, s18
T k_s_lshr_b32, 3, s_lshr_b32 s24, s16, s18
T k_s_ashr_i32, 3, s_ashr_i32 s24, s16, s18
T k_s_bfm_b32, 3, s_bfm_b32 s24, s16, s18
T k_s_mul_i32, 3, s_mul_i32 s24, s16, s18
T k_s_bfe_u32, 3, s_bfe_u32 s24, s16, s18
T k_s_bfe_i32, 3, s_bfe_i32 s24, s16, s18
T k_s_absdiff_i32, 3, s_absdiff_i32 s24, s16, s18
T k_s_mul_hi_u32, 3, s_mul_hi_u32 s24, s16, s18
T k_s_mul_hi_i32, 3, s_mul_hi_i32 s24, s16, s18
T k_s_lshl1_add_u32, 3, s_lshl1_add_u32 s24, s16, s18
T k_s_lshl2_add_u32, 3, s_lshl2_add_u32 s24, s16, s18
T k_s_lshl3_add_u32, 3, s_lshl3_add_u32 s24, s16, s18
T k_s_lshl4_add_u32, 3, s_lshl4_add_u32 s24, s16, s18
T k_s_pack_ll_b32_b16, 3, s_pack_ll_b32_b16 s24, s16, s18
T k_s_pack_lh_b32_b16, 3, s_pack_lh_b32_b16 s24, s16, s18
T k_s_pack_hh_b32_b16, 3, s_pack_hh_b32_b16 s24, s16, s18
T k_s_cselect_b64, 3, s_cselect_b64 s[24:25], s[16:17], s[18:19]
T k_s_and_b64, 3, s_and_b64 s[24:25], s[16:17], s[18:19]
T k_s_or_b64, 3, s_or_b64 s[24:25], s[16:17], s[18:19]
T k_s_xor_b64, 3, s_xor_b64 s[24:25], s[16:17], s[18:19]
T k_s_andn2_b64, 3, s_andn2_b64 s[24:25], s[16:17], s[18:19]
T k_s_orn2_b64, 3, s_orn2_b64 s[24:25], s[16:17], s[18:19]
T k_s_nand_b64, 3, s_nand_b64 s[24:25], s[16:17], s[18:19]
T k_s_nor_b64, 3, s_nor_b64 s[24:25], s[16:17], s[18:19]
T k_s_xnor_b64, 3, s_xnor_b64 s[24:25], s[16:17], s[18:19]
T k_s_lshl_b64, 3, s_lshl_b64 s[24:25], s[16:17], s18
T k_s_lshr_b64, 3, s_lshr_b64 s[24:25], s[16:17], s18
T k_s_ashr_i64, 3, s_ashr_i64 s[24:25], s[16:17], s18
T k_s_bfe_u64, 3, s_bfe_u64 s[24:25], s[16:17], s18
T k_s_bfe_i64, 3, s_bfe_i64 s[24:25], s[16:17], s18
T k_s_bfm_b64, 3, s_bfm_b64 s[24:25], s16, s18
T k_s_mov_b32, 3, s_mov_b32 s24, s16
T k_s_cmov_b32, 3, s_cmov_b32 s24, s16
T k_s_not_b32, 3, s_not_b32 s24, s16
T k_s_wqm_b32, 3, s_wqm_b32 s24, s16
T k_s_brev_b32, 3, s_brev_b32 s24, s16
T k_s_bcnt0_i32_b32, 3, s_bcnt0_i32_b32 s24, s16
T k_s_bcnt1_i32_b32, 3, s_bcnt1_i32_b32 s24, s16
T k_s_ff0_i32_b32, 3, s_ff0_i32_b32 s24, s16
T k_s_ff1_i32_b32, 3, s_ff1_i32_b32 s24, s16
T k_s_flbit_i32_b32, 3, s_flbit_i32_b32 s24, s16
T k_s_flbit_i32, 3, s_flbit_i32 s24, s16
T k_s_sext_i32_i8, 3, s_sext_i32_i8 s24, s16
T k_s_sext_i32_i16, 3, s_sext_i32_i16 s24, s16
T k_s_bitset0_b32, 3, s_bitset0_b32 s24, s16
T k_s_bitset1_b32, 3, s_bitset1_b32 s24, s16
T k_s_quadmask_b32, 3, s_quadmask_b32 s24, s16
T k_s_abs_i32, 3, s_abs_i32 s24, s16
T k_s_mov_b64, 3, s_mov_b64 s[24:25], s[16:17]
T k_s_cmov_b64, 3, s_cmov_b64 s[24:25], s[16:17]
T k_s_not_b64, 3, s_not_b64 s[24:25], s[16:17]
T k_s_wqm_b64, 3, s_wqm_b64 s[24:25], s[16:17]
T k_s_brev_b64, 3, s_brev_b64 s[24:25], s[16:17]
T k_s_quadmask_b64, 3, s_quadmask_b64 s[24:25], s[16:17]
T k_s_bcnt0_i32_b64, 3, s_bcnt0_i32_b64 s24, s[16:17]
T k_s_bcnt1_i32_b64, 3, s_bcnt1_i32_b64 s24, s[16:17]
T k_s_ff0_i32_b64, 3, s_ff0_i32_b64 s24, s[16:17]
T k_s_ff1_i32_b64, 3, s_ff1_i32_b64 s24, s[16:17]
T k_s_flbit_i32_b64, 3, s_flbit_i32_b64 s24, s[16:17]
T k_s_flbit_i32_i64, 3, s_flbit_i32_i64 s24, s[16:17]
T k_s_bitset0_b64, 3, s_bitset0_b64 s[24:25], s16
T k_s_bitset1_b64, 3, s_bitset1_b64 s[24:25], s16
T k_s_bitreplicate_b64_b32, 3, s_bitreplicate_b64_b32 s[24:25], s16
T k_s_and_saveexec_b64, 3, s_and_saveexec_b64 s[24:25], s[16:17]
T k_s_or_saveexec_b64, 3, s_or_saveexec_b64 s[24:25], s[16:17]
T k_s_xor_saveexec_b64, 3, s_xor_saveexec_b64 s[24:25], s[16:17]
T k_s_andn2_saveexec_b64, 3, s_andn2_saveexec_b64 s[24:25], s[16:17]
T k_s_orn2_saveexec_b64, 3, s_orn2_saveexec_b64 s[24:25], s[16:17]
T k_s_nand_saveexec_b64, 3, s_nand_saveexec_b64 s[24:25], s[16:17]
T k_s_nor_saveexec_b64, 3, s_nor_saveexec_b64 s[24:25], s[16:17]
T k_s_xnor_saveexec_b64, 3, s_xnor_saveexec_b64 s[24:25], s[16:17]
T k_s_andn1_saveexec_b64, 3, s_andn1_saveexec_b64 s[24:25], s[16:17]
T k_s_orn1_saveexec_b64, 3, s_orn1_saveexec_b64 s[24:25], s[16:17]
T k_s_andn1_wrexec_b64, 3, s_andn1_wrexec_b64 s[24:25], s[16:17]
T k_s_andn2_wrexec_b64, 3, s_andn2_wrexec_b64 s[24:25], s[16:17]
T k_s_movrels_b32, 3, s_movrels_b32 s24, s16
T k_s_movrels_b64, 2, s_movrels_b64 s[24:25], s[16:17]
T k_s_cmp_eq_i32, 3, s_cmp_eq_i32 s16, s18
T k_s_cmp_lg_i32, 3, s_cmp_lg_i32 s16, s18
T k_s_cmp_gt_i32, 3, s_cmp_gt_i32 s16, s18
T k_s_cmp_ge_i32, 3, s_cmp_ge_i32 s16, s18
T k_s_cmp_lt_i32, 3, s_cmp_lt_i32 s16, s18
T k_s_cmp_le_i32, 3, s_cmp_le_i32 s16, s18
T k_s_cmp_eq_u32, 3, s_cmp_eq_u32 s16, s18
T k_s_cmp_lg_u32, 3, s_cmp_lg_u32 s16, s18
T k_s_cmp_gt_u32, 3, s_cmp_gt_u32 s16, s18
T k_s_cmp_ge_u32, 3, s_cmp_ge_u32 s16, s18
T k_s_cmp_lt_u32, 3, s_cmp_lt_u32 s16, s18
T k_s_cmp_le_u32, 3, s_cmp_le_u32 s16, s18
T k_s_bitcmp0_b32, 3, s_bitcmp0_b32 s16, s18
T k_s_bitcmp1_b32, 3, s_bitcmp1_b32 s16, s18
T k_s_cmp_eq_u64, 3, s_cmp_eq_u64 s[16:17], s[18:19]
T k_s_cmp_lg_u64, 3, s_cmp_lg_u64 s[16:17], s[18:19]
T k_s_bitcmp0_b64, 3, s_bitcmp0_b64 s[16:17], s18
T k_s_bitcmp1_b64, 3, s_bitcmp1_b64 s[16:17], s18
T k_s_movk_i32, 3, s_movk_i32 s24, 0x8123
T k_s_cmovk_i32, 3, s_cmovk_i32 s24, 0x7ff0
T k_s_cmpk_eq_i32, 3, s_cmpk_eq_i32 s16, 0xfffe
T k_s_cmpk_lg_i32, 3, s_cmpk_lg_i32 s16, 0x3
T k_s_cmpk_gt_i32, 3, s_cmpk_gt_i32 s16, 0x8000
T k_s_cmpk_ge_i32, 3, s_cmpk_ge_i32 s16, 0x2
T k_s_cmpk_lt_i32, 3, s_cmpk_lt_i32 s16, 0xffff
T k_s_cmpk_le_i32, 3, s_cmpk_le_i32 s16, 0x1
T k_s_cmpk_eq_u32, 3, s_cmpk_eq_u32 s16, 0x2
T k_s_cmpk_lg_u32, 3, s_cmpk_lg_u32 s16, 0xffff
T k_s_cmpk_gt_u32, 3, s_cmpk_gt_u32 s16, 0x8000
T k_s_cmpk_ge_u32, 3, s_cmpk_ge_u32 s16, 0x3
T k_s_cmpk_lt_u32, 3, s_cmpk_lt_u32 s16, 0x1
T k_s_cmpk_le_u32, 3, s_cmpk_le_u32 s16, 0xfffe
T k_s_addk_i32, 3, s_addk_i32 s24, 0x8005
T k_s_mulk_i32, 3, s_mulk_i32 s24, 0xfff3
