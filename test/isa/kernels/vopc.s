// vopc.s — one kernel per VOPC form for test_isa_vopc.c (gfx90a): every
// compare LLVM decodes as e32 (VOPC), e64 (VOP3, with NEG/ABS on float
// sources) and SDWA (with word/byte selects), GENERATED with the form
// table of test_isa_vopc.c from emu/isa/isa_table.tsv.  One wave of 64:
// lane l loads its 8-dword record in[8l ..]: A in v[2:3], B in v[4:5], and
// is active when dword 4 is nonzero; the compare writes VCC (e32, SDWA) or
// s[10:11] (e64), v_cmpx also EXEC; out[2l] is the lane's result bit,
// out[2l + 1] its EXEC bit after the compare.
.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
.include "kernel.inc"

.macro KD name
  KDESC \name, 16, 24, 16, d32=3
.endm

.macro T name, res, inst:vararg
  KSYM \name
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  v_lshlrev_b32 v1, 5, v0
  v_lshlrev_b32 v14, 3, v0
  s_waitcnt lgkmcnt(0)
  global_load_dwordx4 v[2:5], v1, s[4:5]
  global_load_dwordx4 v[6:9], v1, s[4:5] offset:16
  s_waitcnt vmcnt(0)
  v_cmp_ne_u32 vcc, 0, v6
  s_mov_b64 s[16:17], exec
  s_and_b64 exec, exec, vcc
  s_mov_b64 vcc, -1
  s_mov_b64 s[10:11], -1
  \inst
  s_mov_b64 s[12:13], exec
  s_mov_b64 exec, s[16:17]
  v_cndmask_b32 v10, 0, 1, \res
  v_cndmask_b32 v11, 0, 1, s[12:13]
  global_store_dwordx2 v14, v[10:11], s[6:7]
  s_endpgm
  KD \name
.endm

T v_cmp_class_f32_e32, vcc, v_cmp_class_f32_e32 vcc, v2, v4
T v_cmpx_class_f32_e32, vcc, v_cmpx_class_f32_e32 vcc, v2, v4
T v_cmp_class_f64_e32, vcc, v_cmp_class_f64_e32 vcc, v[2:3], v4
T v_cmpx_class_f64_e32, vcc, v_cmpx_class_f64_e32 vcc, v[2:3], v4
T v_cmp_class_f16_e32, vcc, v_cmp_class_f16_e32 vcc, v2, v4
T v_cmpx_class_f16_e32, vcc, v_cmpx_class_f16_e32 vcc, v2, v4
T v_cmp_f_f16_e32, vcc, v_cmp_f_f16_e32 vcc, v2, v4
T v_cmp_lt_f16_e32, vcc, v_cmp_lt_f16_e32 vcc, v2, v4
T v_cmp_eq_f16_e32, vcc, v_cmp_eq_f16_e32 vcc, v2, v4
T v_cmp_le_f16_e32, vcc, v_cmp_le_f16_e32 vcc, v2, v4
T v_cmp_gt_f16_e32, vcc, v_cmp_gt_f16_e32 vcc, v2, v4
T v_cmp_lg_f16_e32, vcc, v_cmp_lg_f16_e32 vcc, v2, v4
T v_cmp_ge_f16_e32, vcc, v_cmp_ge_f16_e32 vcc, v2, v4
T v_cmp_o_f16_e32, vcc, v_cmp_o_f16_e32 vcc, v2, v4
T v_cmp_u_f16_e32, vcc, v_cmp_u_f16_e32 vcc, v2, v4
T v_cmp_nge_f16_e32, vcc, v_cmp_nge_f16_e32 vcc, v2, v4
T v_cmp_nlg_f16_e32, vcc, v_cmp_nlg_f16_e32 vcc, v2, v4
T v_cmp_ngt_f16_e32, vcc, v_cmp_ngt_f16_e32 vcc, v2, v4
T v_cmp_nle_f16_e32, vcc, v_cmp_nle_f16_e32 vcc, v2, v4
T v_cmp_neq_f16_e32, vcc, v_cmp_neq_f16_e32 vcc, v2, v4
T v_cmp_nlt_f16_e32, vcc, v_cmp_nlt_f16_e32 vcc, v2, v4
T v_cmp_tru_f16_e32, vcc, v_cmp_tru_f16_e32 vcc, v2, v4
T v_cmpx_f_f16_e32, vcc, v_cmpx_f_f16_e32 vcc, v2, v4
T v_cmpx_lt_f16_e32, vcc, v_cmpx_lt_f16_e32 vcc, v2, v4
T v_cmpx_eq_f16_e32, vcc, v_cmpx_eq_f16_e32 vcc, v2, v4
T v_cmpx_le_f16_e32, vcc, v_cmpx_le_f16_e32 vcc, v2, v4
T v_cmpx_gt_f16_e32, vcc, v_cmpx_gt_f16_e32 vcc, v2, v4
T v_cmpx_lg_f16_e32, vcc, v_cmpx_lg_f16_e32 vcc, v2, v4
T v_cmpx_ge_f16_e32, vcc, v_cmpx_ge_f16_e32 vcc, v2, v4
T v_cmpx_o_f16_e32, vcc, v_cmpx_o_f16_e32 vcc, v2, v4
T v_cmpx_u_f16_e32, vcc, v_cmpx_u_f16_e32 vcc, v2, v4
T v_cmpx_nge_f16_e32, vcc, v_cmpx_nge_f16_e32 vcc, v2, v4
T v_cmpx_nlg_f16_e32, vcc, v_cmpx_nlg_f16_e32 vcc, v2, v4
T v_cmpx_ngt_f16_e32, vcc, v_cmpx_ngt_f16_e32 vcc, v2, v4
T v_cmpx_nle_f16_e32, vcc, v_cmpx_nle_f16_e32 vcc, v2, v4
T v_cmpx_neq_f16_e32, vcc, v_cmpx_neq_f16_e32 vcc, v2, v4
T v_cmpx_nlt_f16_e32, vcc, v_cmpx_nlt_f16_e32 vcc, v2, v4
T v_cmpx_tru_f16_e32, vcc, v_cmpx_tru_f16_e32 vcc, v2, v4
T v_cmp_f_f32_e32, vcc, v_cmp_f_f32_e32 vcc, v2, v4
T v_cmp_lt_f32_e32, vcc, v_cmp_lt_f32_e32 vcc, v2, v4
T v_cmp_eq_f32_e32, vcc, v_cmp_eq_f32_e32 vcc, v2, v4
T v_cmp_le_f32_e32, vcc, v_cmp_le_f32_e32 vcc, v2, v4
T v_cmp_gt_f32_e32, vcc, v_cmp_gt_f32_e32 vcc, v2, v4
T v_cmp_lg_f32_e32, vcc, v_cmp_lg_f32_e32 vcc, v2, v4
T v_cmp_ge_f32_e32, vcc, v_cmp_ge_f32_e32 vcc, v2, v4
T v_cmp_o_f32_e32, vcc, v_cmp_o_f32_e32 vcc, v2, v4
T v_cmp_u_f32_e32, vcc, v_cmp_u_f32_e32 vcc, v2, v4
T v_cmp_nge_f32_e32, vcc, v_cmp_nge_f32_e32 vcc, v2, v4
T v_cmp_nlg_f32_e32, vcc, v_cmp_nlg_f32_e32 vcc, v2, v4
T v_cmp_ngt_f32_e32, vcc, v_cmp_ngt_f32_e32 vcc, v2, v4
T v_cmp_nle_f32_e32, vcc, v_cmp_nle_f32_e32 vcc, v2, v4
T v_cmp_neq_f32_e32, vcc, v_cmp_neq_f32_e32 vcc, v2, v4
T v_cmp_nlt_f32_e32, vcc, v_cmp_nlt_f32_e32 vcc, v2, v4
T v_cmp_tru_f32_e32, vcc, v_cmp_tru_f32_e32 vcc, v2, v4
T v_cmpx_f_f32_e32, vcc, v_cmpx_f_f32_e32 vcc, v2, v4
T v_cmpx_lt_f32_e32, vcc, v_cmpx_lt_f32_e32 vcc, v2, v4
T v_cmpx_eq_f32_e32, vcc, v_cmpx_eq_f32_e32 vcc, v2, v4
T v_cmpx_le_f32_e32, vcc, v_cmpx_le_f32_e32 vcc, v2, v4
T v_cmpx_gt_f32_e32, vcc, v_cmpx_gt_f32_e32 vcc, v2, v4
T v_cmpx_lg_f32_e32, vcc, v_cmpx_lg_f32_e32 vcc, v2, v4
T v_cmpx_ge_f32_e32, vcc, v_cmpx_ge_f32_e32 vcc, v2, v4
T v_cmpx_o_f32_e32, vcc, v_cmpx_o_f32_e32 vcc, v2, v4
T v_cmpx_u_f32_e32, vcc, v_cmpx_u_f32_e32 vcc, v2, v4
T v_cmpx_nge_f32_e32, vcc, v_cmpx_nge_f32_e32 vcc, v2, v4
T v_cmpx_nlg_f32_e32, vcc, v_cmpx_nlg_f32_e32 vcc, v2, v4
T v_cmpx_ngt_f32_e32, vcc, v_cmpx_ngt_f32_e32 vcc, v2, v4
T v_cmpx_nle_f32_e32, vcc, v_cmpx_nle_f32_e32 vcc, v2, v4
T v_cmpx_neq_f32_e32, vcc, v_cmpx_neq_f32_e32 vcc, v2, v4
T v_cmpx_nlt_f32_e32, vcc, v_cmpx_nlt_f32_e32 vcc, v2, v4
T v_cmpx_tru_f32_e32, vcc, v_cmpx_tru_f32_e32 vcc, v2, v4
T v_cmp_f_f64_e32, vcc, v_cmp_f_f64_e32 vcc, v[2:3], v[4:5]
T v_cmp_lt_f64_e32, vcc, v_cmp_lt_f64_e32 vcc, v[2:3], v[4:5]
T v_cmp_eq_f64_e32, vcc, v_cmp_eq_f64_e32 vcc, v[2:3], v[4:5]
T v_cmp_le_f64_e32, vcc, v_cmp_le_f64_e32 vcc, v[2:3], v[4:5]
T v_cmp_gt_f64_e32, vcc, v_cmp_gt_f64_e32 vcc, v[2:3], v[4:5]
T v_cmp_lg_f64_e32, vcc, v_cmp_lg_f64_e32 vcc, v[2:3], v[4:5]
T v_cmp_ge_f64_e32, vcc, v_cmp_ge_f64_e32 vcc, v[2:3], v[4:5]
T v_cmp_o_f64_e32, vcc, v_cmp_o_f64_e32 vcc, v[2:3], v[4:5]
T v_cmp_u_f64_e32, vcc, v_cmp_u_f64_e32 vcc, v[2:3], v[4:5]
T v_cmp_nge_f64_e32, vcc, v_cmp_nge_f64_e32 vcc, v[2:3], v[4:5]
T v_cmp_nlg_f64_e32, vcc, v_cmp_nlg_f64_e32 vcc, v[2:3], v[4:5]
T v_cmp_ngt_f64_e32, vcc, v_cmp_ngt_f64_e32 vcc, v[2:3], v[4:5]
T v_cmp_nle_f64_e32, vcc, v_cmp_nle_f64_e32 vcc, v[2:3], v[4:5]
T v_cmp_neq_f64_e32, vcc, v_cmp_neq_f64_e32 vcc, v[2:3], v[4:5]
T v_cmp_nlt_f64_e32, vcc, v_cmp_nlt_f64_e32 vcc, v[2:3], v[4:5]
T v_cmp_tru_f64_e32, vcc, v_cmp_tru_f64_e32 vcc, v[2:3], v[4:5]
T v_cmpx_f_f64_e32, vcc, v_cmpx_f_f64_e32 vcc, v[2:3], v[4:5]
T v_cmpx_lt_f64_e32, vcc, v_cmpx_lt_f64_e32 vcc, v[2:3], v[4:5]
T v_cmpx_eq_f64_e32, vcc, v_cmpx_eq_f64_e32 vcc, v[2:3], v[4:5]
T v_cmpx_le_f64_e32, vcc, v_cmpx_le_f64_e32 vcc, v[2:3], v[4:5]
T v_cmpx_gt_f64_e32, vcc, v_cmpx_gt_f64_e32 vcc, v[2:3], v[4:5]
T v_cmpx_lg_f64_e32, vcc, v_cmpx_lg_f64_e32 vcc, v[2:3], v[4:5]
T v_cmpx_ge_f64_e32, vcc, v_cmpx_ge_f64_e32 vcc, v[2:3], v[4:5]
T v_cmpx_o_f64_e32, vcc, v_cmpx_o_f64_e32 vcc, v[2:3], v[4:5]
T v_cmpx_u_f64_e32, vcc, v_cmpx_u_f64_e32 vcc, v[2:3], v[4:5]
T v_cmpx_nge_f64_e32, vcc, v_cmpx_nge_f64_e32 vcc, v[2:3], v[4:5]
T v_cmpx_nlg_f64_e32, vcc, v_cmpx_nlg_f64_e32 vcc, v[2:3], v[4:5]
T v_cmpx_ngt_f64_e32, vcc, v_cmpx_ngt_f64_e32 vcc, v[2:3], v[4:5]
T v_cmpx_nle_f64_e32, vcc, v_cmpx_nle_f64_e32 vcc, v[2:3], v[4:5]
T v_cmpx_neq_f64_e32, vcc, v_cmpx_neq_f64_e32 vcc, v[2:3], v[4:5]
T v_cmpx_nlt_f64_e32, vcc, v_cmpx_nlt_f64_e32 vcc, v[2:3], v[4:5]
T v_cmpx_tru_f64_e32, vcc, v_cmpx_tru_f64_e32 vcc, v[2:3], v[4:5]
T v_cmp_f_i16_e32, vcc, v_cmp_f_i16_e32 vcc, v2, v4
T v_cmp_lt_i16_e32, vcc, v_cmp_lt_i16_e32 vcc, v2, v4
T v_cmp_eq_i16_e32, vcc, v_cmp_eq_i16_e32 vcc, v2, v4
T v_cmp_le_i16_e32, vcc, v_cmp_le_i16_e32 vcc, v2, v4
T v_cmp_gt_i16_e32, vcc, v_cmp_gt_i16_e32 vcc, v2, v4
T v_cmp_ne_i16_e32, vcc, v_cmp_ne_i16_e32 vcc, v2, v4
T v_cmp_ge_i16_e32, vcc, v_cmp_ge_i16_e32 vcc, v2, v4
T v_cmp_t_i16_e32, vcc, v_cmp_t_i16_e32 vcc, v2, v4
T v_cmp_f_u16_e32, vcc, v_cmp_f_u16_e32 vcc, v2, v4
T v_cmp_lt_u16_e32, vcc, v_cmp_lt_u16_e32 vcc, v2, v4
T v_cmp_eq_u16_e32, vcc, v_cmp_eq_u16_e32 vcc, v2, v4
T v_cmp_le_u16_e32, vcc, v_cmp_le_u16_e32 vcc, v2, v4
T v_cmp_gt_u16_e32, vcc, v_cmp_gt_u16_e32 vcc, v2, v4
T v_cmp_ne_u16_e32, vcc, v_cmp_ne_u16_e32 vcc, v2, v4
T v_cmp_ge_u16_e32, vcc, v_cmp_ge_u16_e32 vcc, v2, v4
T v_cmp_t_u16_e32, vcc, v_cmp_t_u16_e32 vcc, v2, v4
T v_cmpx_f_i16_e32, vcc, v_cmpx_f_i16_e32 vcc, v2, v4
T v_cmpx_lt_i16_e32, vcc, v_cmpx_lt_i16_e32 vcc, v2, v4
T v_cmpx_eq_i16_e32, vcc, v_cmpx_eq_i16_e32 vcc, v2, v4
T v_cmpx_le_i16_e32, vcc, v_cmpx_le_i16_e32 vcc, v2, v4
T v_cmpx_gt_i16_e32, vcc, v_cmpx_gt_i16_e32 vcc, v2, v4
T v_cmpx_ne_i16_e32, vcc, v_cmpx_ne_i16_e32 vcc, v2, v4
T v_cmpx_ge_i16_e32, vcc, v_cmpx_ge_i16_e32 vcc, v2, v4
T v_cmpx_t_i16_e32, vcc, v_cmpx_t_i16_e32 vcc, v2, v4
T v_cmpx_f_u16_e32, vcc, v_cmpx_f_u16_e32 vcc, v2, v4
T v_cmpx_lt_u16_e32, vcc, v_cmpx_lt_u16_e32 vcc, v2, v4
T v_cmpx_eq_u16_e32, vcc, v_cmpx_eq_u16_e32 vcc, v2, v4
T v_cmpx_le_u16_e32, vcc, v_cmpx_le_u16_e32 vcc, v2, v4
T v_cmpx_gt_u16_e32, vcc, v_cmpx_gt_u16_e32 vcc, v2, v4
T v_cmpx_ne_u16_e32, vcc, v_cmpx_ne_u16_e32 vcc, v2, v4
T v_cmpx_ge_u16_e32, vcc, v_cmpx_ge_u16_e32 vcc, v2, v4
T v_cmpx_t_u16_e32, vcc, v_cmpx_t_u16_e32 vcc, v2, v4
T v_cmp_f_i32_e32, vcc, v_cmp_f_i32_e32 vcc, v2, v4
T v_cmp_lt_i32_e32, vcc, v_cmp_lt_i32_e32 vcc, v2, v4
T v_cmp_eq_i32_e32, vcc, v_cmp_eq_i32_e32 vcc, v2, v4
T v_cmp_le_i32_e32, vcc, v_cmp_le_i32_e32 vcc, v2, v4
T v_cmp_gt_i32_e32, vcc, v_cmp_gt_i32_e32 vcc, v2, v4
T v_cmp_ne_i32_e32, vcc, v_cmp_ne_i32_e32 vcc, v2, v4
T v_cmp_ge_i32_e32, vcc, v_cmp_ge_i32_e32 vcc, v2, v4
T v_cmp_t_i32_e32, vcc, v_cmp_t_i32_e32 vcc, v2, v4
T v_cmp_f_u32_e32, vcc, v_cmp_f_u32_e32 vcc, v2, v4
T v_cmp_lt_u32_e32, vcc, v_cmp_lt_u32_e32 vcc, v2, v4
T v_cmp_eq_u32_e32, vcc, v_cmp_eq_u32_e32 vcc, v2, v4
T v_cmp_le_u32_e32, vcc, v_cmp_le_u32_e32 vcc, v2, v4
T v_cmp_gt_u32_e32, vcc, v_cmp_gt_u32_e32 vcc, v2, v4
T v_cmp_ne_u32_e32, vcc, v_cmp_ne_u32_e32 vcc, v2, v4
T v_cmp_ge_u32_e32, vcc, v_cmp_ge_u32_e32 vcc, v2, v4
T v_cmp_t_u32_e32, vcc, v_cmp_t_u32_e32 vcc, v2, v4
T v_cmpx_f_i32_e32, vcc, v_cmpx_f_i32_e32 vcc, v2, v4
T v_cmpx_lt_i32_e32, vcc, v_cmpx_lt_i32_e32 vcc, v2, v4
T v_cmpx_eq_i32_e32, vcc, v_cmpx_eq_i32_e32 vcc, v2, v4
T v_cmpx_le_i32_e32, vcc, v_cmpx_le_i32_e32 vcc, v2, v4
T v_cmpx_gt_i32_e32, vcc, v_cmpx_gt_i32_e32 vcc, v2, v4
T v_cmpx_ne_i32_e32, vcc, v_cmpx_ne_i32_e32 vcc, v2, v4
T v_cmpx_ge_i32_e32, vcc, v_cmpx_ge_i32_e32 vcc, v2, v4
T v_cmpx_t_i32_e32, vcc, v_cmpx_t_i32_e32 vcc, v2, v4
T v_cmpx_f_u32_e32, vcc, v_cmpx_f_u32_e32 vcc, v2, v4
T v_cmpx_lt_u32_e32, vcc, v_cmpx_lt_u32_e32 vcc, v2, v4
T v_cmpx_eq_u32_e32, vcc, v_cmpx_eq_u32_e32 vcc, v2, v4
T v_cmpx_le_u32_e32, vcc, v_cmpx_le_u32_e32 vcc, v2, v4
T v_cmpx_gt_u32_e32, vcc, v_cmpx_gt_u32_e32 vcc, v2, v4
T v_cmpx_ne_u32_e32, vcc, v_cmpx_ne_u32_e32 vcc, v2, v4
T v_cmpx_ge_u32_e32, vcc, v_cmpx_ge_u32_e32 vcc, v2, v4
T v_cmpx_t_u32_e32, vcc, v_cmpx_t_u32_e32 vcc, v2, v4
T v_cmp_f_i64_e32, vcc, v_cmp_f_i64_e32 vcc, v[2:3], v[4:5]
T v_cmp_lt_i64_e32, vcc, v_cmp_lt_i64_e32 vcc, v[2:3], v[4:5]
T v_cmp_eq_i64_e32, vcc, v_cmp_eq_i64_e32 vcc, v[2:3], v[4:5]
T v_cmp_le_i64_e32, vcc, v_cmp_le_i64_e32 vcc, v[2:3], v[4:5]
T v_cmp_gt_i64_e32, vcc, v_cmp_gt_i64_e32 vcc, v[2:3], v[4:5]
T v_cmp_ne_i64_e32, vcc, v_cmp_ne_i64_e32 vcc, v[2:3], v[4:5]
T v_cmp_ge_i64_e32, vcc, v_cmp_ge_i64_e32 vcc, v[2:3], v[4:5]
T v_cmp_t_i64_e32, vcc, v_cmp_t_i64_e32 vcc, v[2:3], v[4:5]
T v_cmp_f_u64_e32, vcc, v_cmp_f_u64_e32 vcc, v[2:3], v[4:5]
T v_cmp_lt_u64_e32, vcc, v_cmp_lt_u64_e32 vcc, v[2:3], v[4:5]
T v_cmp_eq_u64_e32, vcc, v_cmp_eq_u64_e32 vcc, v[2:3], v[4:5]
T v_cmp_le_u64_e32, vcc, v_cmp_le_u64_e32 vcc, v[2:3], v[4:5]
T v_cmp_gt_u64_e32, vcc, v_cmp_gt_u64_e32 vcc, v[2:3], v[4:5]
T v_cmp_ne_u64_e32, vcc, v_cmp_ne_u64_e32 vcc, v[2:3], v[4:5]
T v_cmp_ge_u64_e32, vcc, v_cmp_ge_u64_e32 vcc, v[2:3], v[4:5]
T v_cmp_t_u64_e32, vcc, v_cmp_t_u64_e32 vcc, v[2:3], v[4:5]
T v_cmpx_f_i64_e32, vcc, v_cmpx_f_i64_e32 vcc, v[2:3], v[4:5]
T v_cmpx_lt_i64_e32, vcc, v_cmpx_lt_i64_e32 vcc, v[2:3], v[4:5]
T v_cmpx_eq_i64_e32, vcc, v_cmpx_eq_i64_e32 vcc, v[2:3], v[4:5]
T v_cmpx_le_i64_e32, vcc, v_cmpx_le_i64_e32 vcc, v[2:3], v[4:5]
T v_cmpx_gt_i64_e32, vcc, v_cmpx_gt_i64_e32 vcc, v[2:3], v[4:5]
T v_cmpx_ne_i64_e32, vcc, v_cmpx_ne_i64_e32 vcc, v[2:3], v[4:5]
T v_cmpx_ge_i64_e32, vcc, v_cmpx_ge_i64_e32 vcc, v[2:3], v[4:5]
T v_cmpx_t_i64_e32, vcc, v_cmpx_t_i64_e32 vcc, v[2:3], v[4:5]
T v_cmpx_f_u64_e32, vcc, v_cmpx_f_u64_e32 vcc, v[2:3], v[4:5]
T v_cmpx_lt_u64_e32, vcc, v_cmpx_lt_u64_e32 vcc, v[2:3], v[4:5]
T v_cmpx_eq_u64_e32, vcc, v_cmpx_eq_u64_e32 vcc, v[2:3], v[4:5]
T v_cmpx_le_u64_e32, vcc, v_cmpx_le_u64_e32 vcc, v[2:3], v[4:5]
T v_cmpx_gt_u64_e32, vcc, v_cmpx_gt_u64_e32 vcc, v[2:3], v[4:5]
T v_cmpx_ne_u64_e32, vcc, v_cmpx_ne_u64_e32 vcc, v[2:3], v[4:5]
T v_cmpx_ge_u64_e32, vcc, v_cmpx_ge_u64_e32 vcc, v[2:3], v[4:5]
T v_cmpx_t_u64_e32, vcc, v_cmpx_t_u64_e32 vcc, v[2:3], v[4:5]
T v_cmp_class_f32_e64, s[10:11], v_cmp_class_f32_e64 s[10:11], v2, v4
T v_cmpx_class_f32_e64, s[10:11], v_cmpx_class_f32_e64 s[10:11], -v2, v4
T v_cmp_class_f64_e64, s[10:11], v_cmp_class_f64_e64 s[10:11], v[2:3], v4
T v_cmpx_class_f64_e64, s[10:11], v_cmpx_class_f64_e64 s[10:11], -v[2:3], v4
T v_cmp_class_f16_e64, s[10:11], v_cmp_class_f16_e64 s[10:11], v2, v4
T v_cmpx_class_f16_e64, s[10:11], v_cmpx_class_f16_e64 s[10:11], -v2, v4
T v_cmp_f_f16_e64, s[10:11], v_cmp_f_f16_e64 s[10:11], v2, v4
T v_cmp_lt_f16_e64, s[10:11], v_cmp_lt_f16_e64 s[10:11], -v2, v4
T v_cmp_eq_f16_e64, s[10:11], v_cmp_eq_f16_e64 s[10:11], v2, |v4|
T v_cmp_le_f16_e64, s[10:11], v_cmp_le_f16_e64 s[10:11], -v2, |v4|
T v_cmp_gt_f16_e64, s[10:11], v_cmp_gt_f16_e64 s[10:11], v2, v4
T v_cmp_lg_f16_e64, s[10:11], v_cmp_lg_f16_e64 s[10:11], -v2, v4
T v_cmp_ge_f16_e64, s[10:11], v_cmp_ge_f16_e64 s[10:11], v2, |v4|
T v_cmp_o_f16_e64, s[10:11], v_cmp_o_f16_e64 s[10:11], -v2, |v4|
T v_cmp_u_f16_e64, s[10:11], v_cmp_u_f16_e64 s[10:11], v2, v4
T v_cmp_nge_f16_e64, s[10:11], v_cmp_nge_f16_e64 s[10:11], -v2, v4
T v_cmp_nlg_f16_e64, s[10:11], v_cmp_nlg_f16_e64 s[10:11], v2, |v4|
T v_cmp_ngt_f16_e64, s[10:11], v_cmp_ngt_f16_e64 s[10:11], -v2, |v4|
T v_cmp_nle_f16_e64, s[10:11], v_cmp_nle_f16_e64 s[10:11], v2, v4
T v_cmp_neq_f16_e64, s[10:11], v_cmp_neq_f16_e64 s[10:11], -v2, v4
T v_cmp_nlt_f16_e64, s[10:11], v_cmp_nlt_f16_e64 s[10:11], v2, |v4|
T v_cmp_tru_f16_e64, s[10:11], v_cmp_tru_f16_e64 s[10:11], -v2, |v4|
T v_cmpx_f_f16_e64, s[10:11], v_cmpx_f_f16_e64 s[10:11], v2, v4
T v_cmpx_lt_f16_e64, s[10:11], v_cmpx_lt_f16_e64 s[10:11], -v2, v4
T v_cmpx_eq_f16_e64, s[10:11], v_cmpx_eq_f16_e64 s[10:11], v2, |v4|
T v_cmpx_le_f16_e64, s[10:11], v_cmpx_le_f16_e64 s[10:11], -v2, |v4|
T v_cmpx_gt_f16_e64, s[10:11], v_cmpx_gt_f16_e64 s[10:11], v2, v4
T v_cmpx_lg_f16_e64, s[10:11], v_cmpx_lg_f16_e64 s[10:11], -v2, v4
T v_cmpx_ge_f16_e64, s[10:11], v_cmpx_ge_f16_e64 s[10:11], v2, |v4|
T v_cmpx_o_f16_e64, s[10:11], v_cmpx_o_f16_e64 s[10:11], -v2, |v4|
T v_cmpx_u_f16_e64, s[10:11], v_cmpx_u_f16_e64 s[10:11], v2, v4
T v_cmpx_nge_f16_e64, s[10:11], v_cmpx_nge_f16_e64 s[10:11], -v2, v4
T v_cmpx_nlg_f16_e64, s[10:11], v_cmpx_nlg_f16_e64 s[10:11], v2, |v4|
T v_cmpx_ngt_f16_e64, s[10:11], v_cmpx_ngt_f16_e64 s[10:11], -v2, |v4|
T v_cmpx_nle_f16_e64, s[10:11], v_cmpx_nle_f16_e64 s[10:11], v2, v4
T v_cmpx_neq_f16_e64, s[10:11], v_cmpx_neq_f16_e64 s[10:11], -v2, v4
T v_cmpx_nlt_f16_e64, s[10:11], v_cmpx_nlt_f16_e64 s[10:11], v2, |v4|
T v_cmpx_tru_f16_e64, s[10:11], v_cmpx_tru_f16_e64 s[10:11], -v2, |v4|
T v_cmp_f_f32_e64, s[10:11], v_cmp_f_f32_e64 s[10:11], v2, v4
T v_cmp_lt_f32_e64, s[10:11], v_cmp_lt_f32_e64 s[10:11], -v2, v4
T v_cmp_eq_f32_e64, s[10:11], v_cmp_eq_f32_e64 s[10:11], v2, |v4|
T v_cmp_le_f32_e64, s[10:11], v_cmp_le_f32_e64 s[10:11], -v2, |v4|
T v_cmp_gt_f32_e64, s[10:11], v_cmp_gt_f32_e64 s[10:11], v2, v4
T v_cmp_lg_f32_e64, s[10:11], v_cmp_lg_f32_e64 s[10:11], -v2, v4
T v_cmp_ge_f32_e64, s[10:11], v_cmp_ge_f32_e64 s[10:11], v2, |v4|
T v_cmp_o_f32_e64, s[10:11], v_cmp_o_f32_e64 s[10:11], -v2, |v4|
T v_cmp_u_f32_e64, s[10:11], v_cmp_u_f32_e64 s[10:11], v2, v4
T v_cmp_nge_f32_e64, s[10:11], v_cmp_nge_f32_e64 s[10:11], -v2, v4
T v_cmp_nlg_f32_e64, s[10:11], v_cmp_nlg_f32_e64 s[10:11], v2, |v4|
T v_cmp_ngt_f32_e64, s[10:11], v_cmp_ngt_f32_e64 s[10:11], -v2, |v4|
T v_cmp_nle_f32_e64, s[10:11], v_cmp_nle_f32_e64 s[10:11], v2, v4
T v_cmp_neq_f32_e64, s[10:11], v_cmp_neq_f32_e64 s[10:11], -v2, v4
T v_cmp_nlt_f32_e64, s[10:11], v_cmp_nlt_f32_e64 s[10:11], v2, |v4|
T v_cmp_tru_f32_e64, s[10:11], v_cmp_tru_f32_e64 s[10:11], -v2, |v4|
T v_cmpx_f_f32_e64, s[10:11], v_cmpx_f_f32_e64 s[10:11], v2, v4
T v_cmpx_lt_f32_e64, s[10:11], v_cmpx_lt_f32_e64 s[10:11], -v2, v4
T v_cmpx_eq_f32_e64, s[10:11], v_cmpx_eq_f32_e64 s[10:11], v2, |v4|
T v_cmpx_le_f32_e64, s[10:11], v_cmpx_le_f32_e64 s[10:11], -v2, |v4|
T v_cmpx_gt_f32_e64, s[10:11], v_cmpx_gt_f32_e64 s[10:11], v2, v4
T v_cmpx_lg_f32_e64, s[10:11], v_cmpx_lg_f32_e64 s[10:11], -v2, v4
T v_cmpx_ge_f32_e64, s[10:11], v_cmpx_ge_f32_e64 s[10:11], v2, |v4|
T v_cmpx_o_f32_e64, s[10:11], v_cmpx_o_f32_e64 s[10:11], -v2, |v4|
T v_cmpx_u_f32_e64, s[10:11], v_cmpx_u_f32_e64 s[10:11], v2, v4
T v_cmpx_nge_f32_e64, s[10:11], v_cmpx_nge_f32_e64 s[10:11], -v2, v4
T v_cmpx_nlg_f32_e64, s[10:11], v_cmpx_nlg_f32_e64 s[10:11], v2, |v4|
T v_cmpx_ngt_f32_e64, s[10:11], v_cmpx_ngt_f32_e64 s[10:11], -v2, |v4|
T v_cmpx_nle_f32_e64, s[10:11], v_cmpx_nle_f32_e64 s[10:11], v2, v4
T v_cmpx_neq_f32_e64, s[10:11], v_cmpx_neq_f32_e64 s[10:11], -v2, v4
T v_cmpx_nlt_f32_e64, s[10:11], v_cmpx_nlt_f32_e64 s[10:11], v2, |v4|
T v_cmpx_tru_f32_e64, s[10:11], v_cmpx_tru_f32_e64 s[10:11], -v2, |v4|
T v_cmp_f_f64_e64, s[10:11], v_cmp_f_f64_e64 s[10:11], v[2:3], v[4:5]
T v_cmp_lt_f64_e64, s[10:11], v_cmp_lt_f64_e64 s[10:11], -v[2:3], v[4:5]
T v_cmp_eq_f64_e64, s[10:11], v_cmp_eq_f64_e64 s[10:11], v[2:3], |v[4:5]|
T v_cmp_le_f64_e64, s[10:11], v_cmp_le_f64_e64 s[10:11], -v[2:3], |v[4:5]|
T v_cmp_gt_f64_e64, s[10:11], v_cmp_gt_f64_e64 s[10:11], v[2:3], v[4:5]
T v_cmp_lg_f64_e64, s[10:11], v_cmp_lg_f64_e64 s[10:11], -v[2:3], v[4:5]
T v_cmp_ge_f64_e64, s[10:11], v_cmp_ge_f64_e64 s[10:11], v[2:3], |v[4:5]|
T v_cmp_o_f64_e64, s[10:11], v_cmp_o_f64_e64 s[10:11], -v[2:3], |v[4:5]|
T v_cmp_u_f64_e64, s[10:11], v_cmp_u_f64_e64 s[10:11], v[2:3], v[4:5]
T v_cmp_nge_f64_e64, s[10:11], v_cmp_nge_f64_e64 s[10:11], -v[2:3], v[4:5]
T v_cmp_nlg_f64_e64, s[10:11], v_cmp_nlg_f64_e64 s[10:11], v[2:3], |v[4:5]|
T v_cmp_ngt_f64_e64, s[10:11], v_cmp_ngt_f64_e64 s[10:11], -v[2:3], |v[4:5]|
T v_cmp_nle_f64_e64, s[10:11], v_cmp_nle_f64_e64 s[10:11], v[2:3], v[4:5]
T v_cmp_neq_f64_e64, s[10:11], v_cmp_neq_f64_e64 s[10:11], -v[2:3], v[4:5]
T v_cmp_nlt_f64_e64, s[10:11], v_cmp_nlt_f64_e64 s[10:11], v[2:3], |v[4:5]|
T v_cmp_tru_f64_e64, s[10:11], v_cmp_tru_f64_e64 s[10:11], -v[2:3], |v[4:5]|
T v_cmpx_f_f64_e64, s[10:11], v_cmpx_f_f64_e64 s[10:11], v[2:3], v[4:5]
T v_cmpx_lt_f64_e64, s[10:11], v_cmpx_lt_f64_e64 s[10:11], -v[2:3], v[4:5]
T v_cmpx_eq_f64_e64, s[10:11], v_cmpx_eq_f64_e64 s[10:11], v[2:3], |v[4:5]|
T v_cmpx_le_f64_e64, s[10:11], v_cmpx_le_f64_e64 s[10:11], -v[2:3], |v[4:5]|
T v_cmpx_gt_f64_e64, s[10:11], v_cmpx_gt_f64_e64 s[10:11], v[2:3], v[4:5]
T v_cmpx_lg_f64_e64, s[10:11], v_cmpx_lg_f64_e64 s[10:11], -v[2:3], v[4:5]
T v_cmpx_ge_f64_e64, s[10:11], v_cmpx_ge_f64_e64 s[10:11], v[2:3], |v[4:5]|
T v_cmpx_o_f64_e64, s[10:11], v_cmpx_o_f64_e64 s[10:11], -v[2:3], |v[4:5]|
T v_cmpx_u_f64_e64, s[10:11], v_cmpx_u_f64_e64 s[10:11], v[2:3], v[4:5]
T v_cmpx_nge_f64_e64, s[10:11], v_cmpx_nge_f64_e64 s[10:11], -v[2:3], v[4:5]
T v_cmpx_nlg_f64_e64, s[10:11], v_cmpx_nlg_f64_e64 s[10:11], v[2:3], |v[4:5]|
T v_cmpx_ngt_f64_e64, s[10:11], v_cmpx_ngt_f64_e64 s[10:11], -v[2:3], |v[4:5]|
T v_cmpx_nle_f64_e64, s[10:11], v_cmpx_nle_f64_e64 s[10:11], v[2:3], v[4:5]
T v_cmpx_neq_f64_e64, s[10:11], v_cmpx_neq_f64_e64 s[10:11], -v[2:3], v[4:5]
T v_cmpx_nlt_f64_e64, s[10:11], v_cmpx_nlt_f64_e64 s[10:11], v[2:3], |v[4:5]|
T v_cmpx_tru_f64_e64, s[10:11], v_cmpx_tru_f64_e64 s[10:11], -v[2:3], |v[4:5]|
T v_cmp_f_i16_e64, s[10:11], v_cmp_f_i16_e64 s[10:11], v2, v4
T v_cmp_lt_i16_e64, s[10:11], v_cmp_lt_i16_e64 s[10:11], v2, v4
T v_cmp_eq_i16_e64, s[10:11], v_cmp_eq_i16_e64 s[10:11], v2, v4
T v_cmp_le_i16_e64, s[10:11], v_cmp_le_i16_e64 s[10:11], v2, v4
T v_cmp_gt_i16_e64, s[10:11], v_cmp_gt_i16_e64 s[10:11], v2, v4
T v_cmp_ne_i16_e64, s[10:11], v_cmp_ne_i16_e64 s[10:11], v2, v4
T v_cmp_ge_i16_e64, s[10:11], v_cmp_ge_i16_e64 s[10:11], v2, v4
T v_cmp_t_i16_e64, s[10:11], v_cmp_t_i16_e64 s[10:11], v2, v4
T v_cmp_f_u16_e64, s[10:11], v_cmp_f_u16_e64 s[10:11], v2, v4
T v_cmp_lt_u16_e64, s[10:11], v_cmp_lt_u16_e64 s[10:11], v2, v4
T v_cmp_eq_u16_e64, s[10:11], v_cmp_eq_u16_e64 s[10:11], v2, v4
T v_cmp_le_u16_e64, s[10:11], v_cmp_le_u16_e64 s[10:11], v2, v4
T v_cmp_gt_u16_e64, s[10:11], v_cmp_gt_u16_e64 s[10:11], v2, v4
T v_cmp_ne_u16_e64, s[10:11], v_cmp_ne_u16_e64 s[10:11], v2, v4
T v_cmp_ge_u16_e64, s[10:11], v_cmp_ge_u16_e64 s[10:11], v2, v4
T v_cmp_t_u16_e64, s[10:11], v_cmp_t_u16_e64 s[10:11], v2, v4
T v_cmpx_f_i16_e64, s[10:11], v_cmpx_f_i16_e64 s[10:11], v2, v4
T v_cmpx_lt_i16_e64, s[10:11], v_cmpx_lt_i16_e64 s[10:11], v2, v4
T v_cmpx_eq_i16_e64, s[10:11], v_cmpx_eq_i16_e64 s[10:11], v2, v4
T v_cmpx_le_i16_e64, s[10:11], v_cmpx_le_i16_e64 s[10:11], v2, v4
T v_cmpx_gt_i16_e64, s[10:11], v_cmpx_gt_i16_e64 s[10:11], v2, v4
T v_cmpx_ne_i16_e64, s[10:11], v_cmpx_ne_i16_e64 s[10:11], v2, v4
T v_cmpx_ge_i16_e64, s[10:11], v_cmpx_ge_i16_e64 s[10:11], v2, v4
T v_cmpx_t_i16_e64, s[10:11], v_cmpx_t_i16_e64 s[10:11], v2, v4
T v_cmpx_f_u16_e64, s[10:11], v_cmpx_f_u16_e64 s[10:11], v2, v4
T v_cmpx_lt_u16_e64, s[10:11], v_cmpx_lt_u16_e64 s[10:11], v2, v4
T v_cmpx_eq_u16_e64, s[10:11], v_cmpx_eq_u16_e64 s[10:11], v2, v4
T v_cmpx_le_u16_e64, s[10:11], v_cmpx_le_u16_e64 s[10:11], v2, v4
T v_cmpx_gt_u16_e64, s[10:11], v_cmpx_gt_u16_e64 s[10:11], v2, v4
T v_cmpx_ne_u16_e64, s[10:11], v_cmpx_ne_u16_e64 s[10:11], v2, v4
T v_cmpx_ge_u16_e64, s[10:11], v_cmpx_ge_u16_e64 s[10:11], v2, v4
T v_cmpx_t_u16_e64, s[10:11], v_cmpx_t_u16_e64 s[10:11], v2, v4
T v_cmp_f_i32_e64, s[10:11], v_cmp_f_i32_e64 s[10:11], v2, v4
T v_cmp_lt_i32_e64, s[10:11], v_cmp_lt_i32_e64 s[10:11], v2, v4
T v_cmp_eq_i32_e64, s[10:11], v_cmp_eq_i32_e64 s[10:11], v2, v4
T v_cmp_le_i32_e64, s[10:11], v_cmp_le_i32_e64 s[10:11], v2, v4
T v_cmp_gt_i32_e64, s[10:11], v_cmp_gt_i32_e64 s[10:11], v2, v4
T v_cmp_ne_i32_e64, s[10:11], v_cmp_ne_i32_e64 s[10:11], v2, v4
T v_cmp_ge_i32_e64, s[10:11], v_cmp_ge_i32_e64 s[10:11], v2, v4
T v_cmp_t_i32_e64, s[10:11], v_cmp_t_i32_e64 s[10:11], v2, v4
T v_cmp_f_u32_e64, s[10:11], v_cmp_f_u32_e64 s[10:11], v2, v4
T v_cmp_lt_u32_e64, s[10:11], v_cmp_lt_u32_e64 s[10:11], v2, v4
T v_cmp_eq_u32_e64, s[10:11], v_cmp_eq_u32_e64 s[10:11], v2, v4
T v_cmp_le_u32_e64, s[10:11], v_cmp_le_u32_e64 s[10:11], v2, v4
T v_cmp_gt_u32_e64, s[10:11], v_cmp_gt_u32_e64 s[10:11], v2, v4
T v_cmp_ne_u32_e64, s[10:11], v_cmp_ne_u32_e64 s[10:11], v2, v4
T v_cmp_ge_u32_e64, s[10:11], v_cmp_ge_u32_e64 s[10:11], v2, v4
T v_cmp_t_u32_e64, s[10:11], v_cmp_t_u32_e64 s[10:11], v2, v4
T v_cmpx_f_i32_e64, s[10:11], v_cmpx_f_i32_e64 s[10:11], v2, v4
T v_cmpx_lt_i32_e64, s[10:11], v_cmpx_lt_i32_e64 s[10:11], v2, v4
T v_cmpx_eq_i32_e64, s[10:11], v_cmpx_eq_i32_e64 s[10:11], v2, v4
T v_cmpx_le_i32_e64, s[10:11], v_cmpx_le_i32_e64 s[10:11], v2, v4
T v_cmpx_gt_i32_e64, s[10:11], v_cmpx_gt_i32_e64 s[10:11], v2, v4
T v_cmpx_ne_i32_e64, s[10:11], v_cmpx_ne_i32_e64 s[10:11], v2, v4
T v_cmpx_ge_i32_e64, s[10:11], v_cmpx_ge_i32_e64 s[10:11], v2, v4
T v_cmpx_t_i32_e64, s[10:11], v_cmpx_t_i32_e64 s[10:11], v2, v4
T v_cmpx_f_u32_e64, s[10:11], v_cmpx_f_u32_e64 s[10:11], v2, v4
T v_cmpx_lt_u32_e64, s[10:11], v_cmpx_lt_u32_e64 s[10:11], v2, v4
T v_cmpx_eq_u32_e64, s[10:11], v_cmpx_eq_u32_e64 s[10:11], v2, v4
T v_cmpx_le_u32_e64, s[10:11], v_cmpx_le_u32_e64 s[10:11], v2, v4
T v_cmpx_gt_u32_e64, s[10:11], v_cmpx_gt_u32_e64 s[10:11], v2, v4
T v_cmpx_ne_u32_e64, s[10:11], v_cmpx_ne_u32_e64 s[10:11], v2, v4
T v_cmpx_ge_u32_e64, s[10:11], v_cmpx_ge_u32_e64 s[10:11], v2, v4
T v_cmpx_t_u32_e64, s[10:11], v_cmpx_t_u32_e64 s[10:11], v2, v4
T v_cmp_f_i64_e64, s[10:11], v_cmp_f_i64_e64 s[10:11], v[2:3], v[4:5]
T v_cmp_lt_i64_e64, s[10:11], v_cmp_lt_i64_e64 s[10:11], v[2:3], v[4:5]
T v_cmp_eq_i64_e64, s[10:11], v_cmp_eq_i64_e64 s[10:11], v[2:3], v[4:5]
T v_cmp_le_i64_e64, s[10:11], v_cmp_le_i64_e64 s[10:11], v[2:3], v[4:5]
T v_cmp_gt_i64_e64, s[10:11], v_cmp_gt_i64_e64 s[10:11], v[2:3], v[4:5]
T v_cmp_ne_i64_e64, s[10:11], v_cmp_ne_i64_e64 s[10:11], v[2:3], v[4:5]
T v_cmp_ge_i64_e64, s[10:11], v_cmp_ge_i64_e64 s[10:11], v[2:3], v[4:5]
T v_cmp_t_i64_e64, s[10:11], v_cmp_t_i64_e64 s[10:11], v[2:3], v[4:5]
T v_cmp_f_u64_e64, s[10:11], v_cmp_f_u64_e64 s[10:11], v[2:3], v[4:5]
T v_cmp_lt_u64_e64, s[10:11], v_cmp_lt_u64_e64 s[10:11], v[2:3], v[4:5]
T v_cmp_eq_u64_e64, s[10:11], v_cmp_eq_u64_e64 s[10:11], v[2:3], v[4:5]
T v_cmp_le_u64_e64, s[10:11], v_cmp_le_u64_e64 s[10:11], v[2:3], v[4:5]
T v_cmp_gt_u64_e64, s[10:11], v_cmp_gt_u64_e64 s[10:11], v[2:3], v[4:5]
T v_cmp_ne_u64_e64, s[10:11], v_cmp_ne_u64_e64 s[10:11], v[2:3], v[4:5]
T v_cmp_ge_u64_e64, s[10:11], v_cmp_ge_u64_e64 s[10:11], v[2:3], v[4:5]
T v_cmp_t_u64_e64, s[10:11], v_cmp_t_u64_e64 s[10:11], v[2:3], v[4:5]
T v_cmpx_f_i64_e64, s[10:11], v_cmpx_f_i64_e64 s[10:11], v[2:3], v[4:5]
T v_cmpx_lt_i64_e64, s[10:11], v_cmpx_lt_i64_e64 s[10:11], v[2:3], v[4:5]
T v_cmpx_eq_i64_e64, s[10:11], v_cmpx_eq_i64_e64 s[10:11], v[2:3], v[4:5]
T v_cmpx_le_i64_e64, s[10:11], v_cmpx_le_i64_e64 s[10:11], v[2:3], v[4:5]
T v_cmpx_gt_i64_e64, s[10:11], v_cmpx_gt_i64_e64 s[10:11], v[2:3], v[4:5]
T v_cmpx_ne_i64_e64, s[10:11], v_cmpx_ne_i64_e64 s[10:11], v[2:3], v[4:5]
T v_cmpx_ge_i64_e64, s[10:11], v_cmpx_ge_i64_e64 s[10:11], v[2:3], v[4:5]
T v_cmpx_t_i64_e64, s[10:11], v_cmpx_t_i64_e64 s[10:11], v[2:3], v[4:5]
T v_cmpx_f_u64_e64, s[10:11], v_cmpx_f_u64_e64 s[10:11], v[2:3], v[4:5]
T v_cmpx_lt_u64_e64, s[10:11], v_cmpx_lt_u64_e64 s[10:11], v[2:3], v[4:5]
T v_cmpx_eq_u64_e64, s[10:11], v_cmpx_eq_u64_e64 s[10:11], v[2:3], v[4:5]
T v_cmpx_le_u64_e64, s[10:11], v_cmpx_le_u64_e64 s[10:11], v[2:3], v[4:5]
T v_cmpx_gt_u64_e64, s[10:11], v_cmpx_gt_u64_e64 s[10:11], v[2:3], v[4:5]
T v_cmpx_ne_u64_e64, s[10:11], v_cmpx_ne_u64_e64 s[10:11], v[2:3], v[4:5]
T v_cmpx_ge_u64_e64, s[10:11], v_cmpx_ge_u64_e64 s[10:11], v[2:3], v[4:5]
T v_cmpx_t_u64_e64, s[10:11], v_cmpx_t_u64_e64 s[10:11], v[2:3], v[4:5]
T v_cmp_class_f32_sdwa, vcc, v_cmp_class_f32_sdwa vcc, v2, v4
T v_cmpx_class_f32_sdwa, vcc, v_cmpx_class_f32_sdwa vcc, v2, v4
T v_cmp_class_f16_sdwa, vcc, v_cmp_class_f16_sdwa vcc, v2, v4 src0_sel:WORD_0 src1_sel:WORD_1
T v_cmpx_class_f16_sdwa, vcc, v_cmpx_class_f16_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:WORD_0
T v_cmp_f_f16_sdwa, vcc, v_cmp_f_f16_sdwa vcc, v2, v4 src0_sel:WORD_0 src1_sel:WORD_1
T v_cmp_lt_f16_sdwa, vcc, v_cmp_lt_f16_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:WORD_0
T v_cmp_eq_f16_sdwa, vcc, v_cmp_eq_f16_sdwa vcc, v2, v4 src0_sel:WORD_0 src1_sel:WORD_1
T v_cmp_le_f16_sdwa, vcc, v_cmp_le_f16_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:WORD_0
T v_cmp_gt_f16_sdwa, vcc, v_cmp_gt_f16_sdwa vcc, v2, v4 src0_sel:WORD_0 src1_sel:WORD_1
T v_cmp_lg_f16_sdwa, vcc, v_cmp_lg_f16_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:WORD_0
T v_cmp_ge_f16_sdwa, vcc, v_cmp_ge_f16_sdwa vcc, v2, v4 src0_sel:WORD_0 src1_sel:WORD_1
T v_cmp_o_f16_sdwa, vcc, v_cmp_o_f16_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:WORD_0
T v_cmp_u_f16_sdwa, vcc, v_cmp_u_f16_sdwa vcc, v2, v4 src0_sel:WORD_0 src1_sel:WORD_1
T v_cmp_nge_f16_sdwa, vcc, v_cmp_nge_f16_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:WORD_0
T v_cmp_nlg_f16_sdwa, vcc, v_cmp_nlg_f16_sdwa vcc, v2, v4 src0_sel:WORD_0 src1_sel:WORD_1
T v_cmp_ngt_f16_sdwa, vcc, v_cmp_ngt_f16_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:WORD_0
T v_cmp_nle_f16_sdwa, vcc, v_cmp_nle_f16_sdwa vcc, v2, v4 src0_sel:WORD_0 src1_sel:WORD_1
T v_cmp_neq_f16_sdwa, vcc, v_cmp_neq_f16_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:WORD_0
T v_cmp_nlt_f16_sdwa, vcc, v_cmp_nlt_f16_sdwa vcc, v2, v4 src0_sel:WORD_0 src1_sel:WORD_1
T v_cmp_tru_f16_sdwa, vcc, v_cmp_tru_f16_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:WORD_0
T v_cmpx_f_f16_sdwa, vcc, v_cmpx_f_f16_sdwa vcc, v2, v4 src0_sel:WORD_0 src1_sel:WORD_1
T v_cmpx_lt_f16_sdwa, vcc, v_cmpx_lt_f16_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:WORD_0
T v_cmpx_eq_f16_sdwa, vcc, v_cmpx_eq_f16_sdwa vcc, v2, v4 src0_sel:WORD_0 src1_sel:WORD_1
T v_cmpx_le_f16_sdwa, vcc, v_cmpx_le_f16_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:WORD_0
T v_cmpx_gt_f16_sdwa, vcc, v_cmpx_gt_f16_sdwa vcc, v2, v4 src0_sel:WORD_0 src1_sel:WORD_1
T v_cmpx_lg_f16_sdwa, vcc, v_cmpx_lg_f16_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:WORD_0
T v_cmpx_ge_f16_sdwa, vcc, v_cmpx_ge_f16_sdwa vcc, v2, v4 src0_sel:WORD_0 src1_sel:WORD_1
T v_cmpx_o_f16_sdwa, vcc, v_cmpx_o_f16_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:WORD_0
T v_cmpx_u_f16_sdwa, vcc, v_cmpx_u_f16_sdwa vcc, v2, v4 src0_sel:WORD_0 src1_sel:WORD_1
T v_cmpx_nge_f16_sdwa, vcc, v_cmpx_nge_f16_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:WORD_0
T v_cmpx_nlg_f16_sdwa, vcc, v_cmpx_nlg_f16_sdwa vcc, v2, v4 src0_sel:WORD_0 src1_sel:WORD_1
T v_cmpx_ngt_f16_sdwa, vcc, v_cmpx_ngt_f16_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:WORD_0
T v_cmpx_nle_f16_sdwa, vcc, v_cmpx_nle_f16_sdwa vcc, v2, v4 src0_sel:WORD_0 src1_sel:WORD_1
T v_cmpx_neq_f16_sdwa, vcc, v_cmpx_neq_f16_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:WORD_0
T v_cmpx_nlt_f16_sdwa, vcc, v_cmpx_nlt_f16_sdwa vcc, v2, v4 src0_sel:WORD_0 src1_sel:WORD_1
T v_cmpx_tru_f16_sdwa, vcc, v_cmpx_tru_f16_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:WORD_0
T v_cmp_f_f32_sdwa, vcc, v_cmp_f_f32_sdwa vcc, v2, v4
T v_cmp_lt_f32_sdwa, vcc, v_cmp_lt_f32_sdwa vcc, v2, v4
T v_cmp_eq_f32_sdwa, vcc, v_cmp_eq_f32_sdwa vcc, v2, v4
T v_cmp_le_f32_sdwa, vcc, v_cmp_le_f32_sdwa vcc, v2, v4
T v_cmp_gt_f32_sdwa, vcc, v_cmp_gt_f32_sdwa vcc, v2, v4
T v_cmp_lg_f32_sdwa, vcc, v_cmp_lg_f32_sdwa vcc, v2, v4
T v_cmp_ge_f32_sdwa, vcc, v_cmp_ge_f32_sdwa vcc, v2, v4
T v_cmp_o_f32_sdwa, vcc, v_cmp_o_f32_sdwa vcc, v2, v4
T v_cmp_u_f32_sdwa, vcc, v_cmp_u_f32_sdwa vcc, v2, v4
T v_cmp_nge_f32_sdwa, vcc, v_cmp_nge_f32_sdwa vcc, v2, v4
T v_cmp_nlg_f32_sdwa, vcc, v_cmp_nlg_f32_sdwa vcc, v2, v4
T v_cmp_ngt_f32_sdwa, vcc, v_cmp_ngt_f32_sdwa vcc, v2, v4
T v_cmp_nle_f32_sdwa, vcc, v_cmp_nle_f32_sdwa vcc, v2, v4
T v_cmp_neq_f32_sdwa, vcc, v_cmp_neq_f32_sdwa vcc, v2, v4
T v_cmp_nlt_f32_sdwa, vcc, v_cmp_nlt_f32_sdwa vcc, v2, v4
T v_cmp_tru_f32_sdwa, vcc, v_cmp_tru_f32_sdwa vcc, v2, v4
T v_cmpx_f_f32_sdwa, vcc, v_cmpx_f_f32_sdwa vcc, v2, v4
T v_cmpx_lt_f32_sdwa, vcc, v_cmpx_lt_f32_sdwa vcc, v2, v4
T v_cmpx_eq_f32_sdwa, vcc, v_cmpx_eq_f32_sdwa vcc, v2, v4
T v_cmpx_le_f32_sdwa, vcc, v_cmpx_le_f32_sdwa vcc, v2, v4
T v_cmpx_gt_f32_sdwa, vcc, v_cmpx_gt_f32_sdwa vcc, v2, v4
T v_cmpx_lg_f32_sdwa, vcc, v_cmpx_lg_f32_sdwa vcc, v2, v4
T v_cmpx_ge_f32_sdwa, vcc, v_cmpx_ge_f32_sdwa vcc, v2, v4
T v_cmpx_o_f32_sdwa, vcc, v_cmpx_o_f32_sdwa vcc, v2, v4
T v_cmpx_u_f32_sdwa, vcc, v_cmpx_u_f32_sdwa vcc, v2, v4
T v_cmpx_nge_f32_sdwa, vcc, v_cmpx_nge_f32_sdwa vcc, v2, v4
T v_cmpx_nlg_f32_sdwa, vcc, v_cmpx_nlg_f32_sdwa vcc, v2, v4
T v_cmpx_ngt_f32_sdwa, vcc, v_cmpx_ngt_f32_sdwa vcc, v2, v4
T v_cmpx_nle_f32_sdwa, vcc, v_cmpx_nle_f32_sdwa vcc, v2, v4
T v_cmpx_neq_f32_sdwa, vcc, v_cmpx_neq_f32_sdwa vcc, v2, v4
T v_cmpx_nlt_f32_sdwa, vcc, v_cmpx_nlt_f32_sdwa vcc, v2, v4
T v_cmpx_tru_f32_sdwa, vcc, v_cmpx_tru_f32_sdwa vcc, v2, v4
T v_cmp_f_i16_sdwa, vcc, v_cmp_f_i16_sdwa vcc, v2, v4 src0_sel:WORD_0 src1_sel:WORD_1
T v_cmp_lt_i16_sdwa, vcc, v_cmp_lt_i16_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:WORD_0
T v_cmp_eq_i16_sdwa, vcc, v_cmp_eq_i16_sdwa vcc, v2, v4 src0_sel:WORD_0 src1_sel:WORD_1
T v_cmp_le_i16_sdwa, vcc, v_cmp_le_i16_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:WORD_0
T v_cmp_gt_i16_sdwa, vcc, v_cmp_gt_i16_sdwa vcc, v2, v4 src0_sel:WORD_0 src1_sel:WORD_1
T v_cmp_ne_i16_sdwa, vcc, v_cmp_ne_i16_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:WORD_0
T v_cmp_ge_i16_sdwa, vcc, v_cmp_ge_i16_sdwa vcc, v2, v4 src0_sel:WORD_0 src1_sel:WORD_1
T v_cmp_t_i16_sdwa, vcc, v_cmp_t_i16_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:WORD_0
T v_cmp_f_u16_sdwa, vcc, v_cmp_f_u16_sdwa vcc, v2, v4 src0_sel:WORD_0 src1_sel:WORD_1
T v_cmp_lt_u16_sdwa, vcc, v_cmp_lt_u16_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:WORD_0
T v_cmp_eq_u16_sdwa, vcc, v_cmp_eq_u16_sdwa vcc, v2, v4 src0_sel:WORD_0 src1_sel:WORD_1
T v_cmp_le_u16_sdwa, vcc, v_cmp_le_u16_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:WORD_0
T v_cmp_gt_u16_sdwa, vcc, v_cmp_gt_u16_sdwa vcc, v2, v4 src0_sel:WORD_0 src1_sel:WORD_1
T v_cmp_ne_u16_sdwa, vcc, v_cmp_ne_u16_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:WORD_0
T v_cmp_ge_u16_sdwa, vcc, v_cmp_ge_u16_sdwa vcc, v2, v4 src0_sel:WORD_0 src1_sel:WORD_1
T v_cmp_t_u16_sdwa, vcc, v_cmp_t_u16_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:WORD_0
T v_cmpx_f_i16_sdwa, vcc, v_cmpx_f_i16_sdwa vcc, v2, v4 src0_sel:WORD_0 src1_sel:WORD_1
T v_cmpx_lt_i16_sdwa, vcc, v_cmpx_lt_i16_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:WORD_0
T v_cmpx_eq_i16_sdwa, vcc, v_cmpx_eq_i16_sdwa vcc, v2, v4 src0_sel:WORD_0 src1_sel:WORD_1
T v_cmpx_le_i16_sdwa, vcc, v_cmpx_le_i16_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:WORD_0
T v_cmpx_gt_i16_sdwa, vcc, v_cmpx_gt_i16_sdwa vcc, v2, v4 src0_sel:WORD_0 src1_sel:WORD_1
T v_cmpx_ne_i16_sdwa, vcc, v_cmpx_ne_i16_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:WORD_0
T v_cmpx_ge_i16_sdwa, vcc, v_cmpx_ge_i16_sdwa vcc, v2, v4 src0_sel:WORD_0 src1_sel:WORD_1
T v_cmpx_t_i16_sdwa, vcc, v_cmpx_t_i16_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:WORD_0
T v_cmpx_f_u16_sdwa, vcc, v_cmpx_f_u16_sdwa vcc, v2, v4 src0_sel:WORD_0 src1_sel:WORD_1
T v_cmpx_lt_u16_sdwa, vcc, v_cmpx_lt_u16_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:WORD_0
T v_cmpx_eq_u16_sdwa, vcc, v_cmpx_eq_u16_sdwa vcc, v2, v4 src0_sel:WORD_0 src1_sel:WORD_1
T v_cmpx_le_u16_sdwa, vcc, v_cmpx_le_u16_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:WORD_0
T v_cmpx_gt_u16_sdwa, vcc, v_cmpx_gt_u16_sdwa vcc, v2, v4 src0_sel:WORD_0 src1_sel:WORD_1
T v_cmpx_ne_u16_sdwa, vcc, v_cmpx_ne_u16_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:WORD_0
T v_cmpx_ge_u16_sdwa, vcc, v_cmpx_ge_u16_sdwa vcc, v2, v4 src0_sel:WORD_0 src1_sel:WORD_1
T v_cmpx_t_u16_sdwa, vcc, v_cmpx_t_u16_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:WORD_0
T v_cmp_f_i32_sdwa, vcc, v_cmp_f_i32_sdwa vcc, sext(v2), sext(v4) src0_sel:WORD_1 src1_sel:BYTE_2
T v_cmp_lt_i32_sdwa, vcc, v_cmp_lt_i32_sdwa vcc, sext(v2), sext(v4) src0_sel:WORD_1 src1_sel:BYTE_2
T v_cmp_eq_i32_sdwa, vcc, v_cmp_eq_i32_sdwa vcc, sext(v2), sext(v4) src0_sel:WORD_1 src1_sel:BYTE_2
T v_cmp_le_i32_sdwa, vcc, v_cmp_le_i32_sdwa vcc, sext(v2), sext(v4) src0_sel:WORD_1 src1_sel:BYTE_2
T v_cmp_gt_i32_sdwa, vcc, v_cmp_gt_i32_sdwa vcc, sext(v2), sext(v4) src0_sel:WORD_1 src1_sel:BYTE_2
T v_cmp_ne_i32_sdwa, vcc, v_cmp_ne_i32_sdwa vcc, sext(v2), sext(v4) src0_sel:WORD_1 src1_sel:BYTE_2
T v_cmp_ge_i32_sdwa, vcc, v_cmp_ge_i32_sdwa vcc, sext(v2), sext(v4) src0_sel:WORD_1 src1_sel:BYTE_2
T v_cmp_t_i32_sdwa, vcc, v_cmp_t_i32_sdwa vcc, sext(v2), sext(v4) src0_sel:WORD_1 src1_sel:BYTE_2
T v_cmp_f_u32_sdwa, vcc, v_cmp_f_u32_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:BYTE_2
T v_cmp_lt_u32_sdwa, vcc, v_cmp_lt_u32_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:BYTE_2
T v_cmp_eq_u32_sdwa, vcc, v_cmp_eq_u32_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:BYTE_2
T v_cmp_le_u32_sdwa, vcc, v_cmp_le_u32_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:BYTE_2
T v_cmp_gt_u32_sdwa, vcc, v_cmp_gt_u32_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:BYTE_2
T v_cmp_ne_u32_sdwa, vcc, v_cmp_ne_u32_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:BYTE_2
T v_cmp_ge_u32_sdwa, vcc, v_cmp_ge_u32_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:BYTE_2
T v_cmp_t_u32_sdwa, vcc, v_cmp_t_u32_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:BYTE_2
T v_cmpx_f_i32_sdwa, vcc, v_cmpx_f_i32_sdwa vcc, sext(v2), sext(v4) src0_sel:WORD_1 src1_sel:BYTE_2
T v_cmpx_lt_i32_sdwa, vcc, v_cmpx_lt_i32_sdwa vcc, sext(v2), sext(v4) src0_sel:WORD_1 src1_sel:BYTE_2
T v_cmpx_eq_i32_sdwa, vcc, v_cmpx_eq_i32_sdwa vcc, sext(v2), sext(v4) src0_sel:WORD_1 src1_sel:BYTE_2
T v_cmpx_le_i32_sdwa, vcc, v_cmpx_le_i32_sdwa vcc, sext(v2), sext(v4) src0_sel:WORD_1 src1_sel:BYTE_2
T v_cmpx_gt_i32_sdwa, vcc, v_cmpx_gt_i32_sdwa vcc, sext(v2), sext(v4) src0_sel:WORD_1 src1_sel:BYTE_2
T v_cmpx_ne_i32_sdwa, vcc, v_cmpx_ne_i32_sdwa vcc, sext(v2), sext(v4) src0_sel:WORD_1 src1_sel:BYTE_2
T v_cmpx_ge_i32_sdwa, vcc, v_cmpx_ge_i32_sdwa vcc, sext(v2), sext(v4) src0_sel:WORD_1 src1_sel:BYTE_2
T v_cmpx_t_i32_sdwa, vcc, v_cmpx_t_i32_sdwa vcc, sext(v2), sext(v4) src0_sel:WORD_1 src1_sel:BYTE_2
T v_cmpx_f_u32_sdwa, vcc, v_cmpx_f_u32_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:BYTE_2
T v_cmpx_lt_u32_sdwa, vcc, v_cmpx_lt_u32_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:BYTE_2
T v_cmpx_eq_u32_sdwa, vcc, v_cmpx_eq_u32_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:BYTE_2
T v_cmpx_le_u32_sdwa, vcc, v_cmpx_le_u32_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:BYTE_2
T v_cmpx_gt_u32_sdwa, vcc, v_cmpx_gt_u32_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:BYTE_2
T v_cmpx_ne_u32_sdwa, vcc, v_cmpx_ne_u32_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:BYTE_2
T v_cmpx_ge_u32_sdwa, vcc, v_cmpx_ge_u32_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:BYTE_2
T v_cmpx_t_u32_sdwa, vcc, v_cmpx_t_u32_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:BYTE_2
