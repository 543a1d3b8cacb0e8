// vop3.s — one kernel per VOP3-only form for test_isa_vop3.c (gfx90a),
// GENERATED with its form table.  Work-item i (one wave) loads in[8i ..]
// into v[2:9] (v6, v7: D's starting value), runs the instruction and
// stores v[6:7] at out[2i].  Denormals are kept (FP_DENORM 3).
.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
.include "kernel.inc"

.include "vop_kd.inc"

.macro T name, inst:vararg
  KSYM \name
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  v_lshlrev_b32 v1, 5, v0
  v_lshlrev_b32 v14, 3, v0
  s_waitcnt lgkmcnt(0)
  global_load_dwordx4 v[2:5], v1, s[4:5]
  global_load_dwordx4 v[6:9], v1, s[4:5] offset:16
  s_waitcnt vmcnt(0)
  \inst
  global_store_dwordx2 v14, v[6:7], s[6:7]
  s_endpgm
  KD \name
.endm

T k_v_mad_legacy_f32, v_mad_legacy_f32 v6, v2, v3, v4
T k_v_mad_f32, v_mad_f32 v6, v2, v3, v4
T k_v_mul_legacy_f32, v_mul_legacy_f32 v6, v2, v3
T k_v_mad_i32_i24, v_mad_i32_i24 v6, v2, v3, v4
T k_v_mad_u32_u24, v_mad_u32_u24 v6, v2, v3, v4
T k_v_bfe_i32, v_bfe_i32 v6, v2, v3, v4
T k_v_bfe_u32, v_bfe_u32 v6, v2, v3, v4
T k_v_min3_f32, v_min3_f32 v6, v2, v3, v4
T k_v_max3_f32, v_max3_f32 v6, v2, v3, v4
T k_v_med3_f32, v_med3_f32 v6, v2, v3, v4
T k_v_min3_i32, v_min3_i32 v6, v2, v3, v4
T k_v_max3_i32, v_max3_i32 v6, v2, v3, v4
T k_v_med3_i32, v_med3_i32 v6, v2, v3, v4
T k_v_min3_u32, v_min3_u32 v6, v2, v3, v4
T k_v_max3_u32, v_max3_u32 v6, v2, v3, v4
T k_v_med3_u32, v_med3_u32 v6, v2, v3, v4
T k_v_sad_u16, v_sad_u16 v6, v2, v3, v4
T k_v_sad_u32, v_sad_u32 v6, v2, v3, v4
T k_v_mad_i64_i32, v_mad_i64_i32 v[6:7], s[10:11], v2, v3, v[4:5]
T k_v_mad_u64_u32, v_mad_u64_u32 v[6:7], s[10:11], v2, v3, v[4:5]
T k_v_mad_u16, v_mad_u16 v6, v2, v3, v4
T k_v_mad_i16, v_mad_i16 v6, v2, v3, v4
T k_v_lshrrev_b64, v_lshrrev_b64 v[6:7], v2, v[4:5]
T k_v_lshlrev_b64, v_lshlrev_b64 v[6:7], v2, v[4:5]
T k_v_ashrrev_i64, v_ashrrev_i64 v[6:7], v2, v[4:5]
T k_v_cvt_pk_u16_u32, v_cvt_pk_u16_u32 v6, v2, v3
T k_v_cvt_pk_i16_i32, v_cvt_pk_i16_i32 v6, v2, v3
T k_v_add_i32, v_add_i32 v6, v2, v3
T k_v_sub_i32, v_sub_i32 v6, v2, v3
T k_v_add_i32_c, v_add_i32 v6, v2, v3 clamp
T k_v_sub_i32_c, v_sub_i32 v6, v2, v3 clamp
T k_v_add_i16, v_add_i16 v6, v2, v3
T k_v_sub_i16, v_sub_i16 v6, v2, v3
T k_v_pack_b32_f16, v_pack_b32_f16 v6, v2, v3
T k_v_fmac_f64_e64, v_fmac_f64_e64 v[6:7], v[2:3], v[4:5]
T k_v_pk_add_f16, v_pk_add_f16 v6, v2, v3
T k_v_pk_mul_f16, v_pk_mul_f16 v6, v2, v3
T k_v_pk_min_f16, v_pk_min_f16 v6, v2, v3
T k_v_pk_max_f16, v_pk_max_f16 v6, v2, v3
T k_v_pk_fma_f16, v_pk_fma_f16 v6, v2, v3, v4
T k_v_alignbit_b32, v_alignbit_b32 v6, v2, v3, v4
T k_v_alignbyte_b32, v_alignbyte_b32 v6, v2, v3, v4
T k_v_xad_u32, v_xad_u32 v6, v2, v3, v4
T k_v_lshl_add_u32, v_lshl_add_u32 v6, v2, v3, v4
T k_v_add_lshl_u32, v_add_lshl_u32 v6, v2, v3, v4
T k_v_add3_u32, v_add3_u32 v6, v2, v3, v4
T k_v_lshl_or_b32, v_lshl_or_b32 v6, v2, v3, v4
T k_v_and_or_b32, v_and_or_b32 v6, v2, v3, v4
T k_v_or3_b32, v_or3_b32 v6, v2, v3, v4
T k_v_mul_lo_u32, v_mul_lo_u32 v6, v2, v3
T k_v_mul_hi_u32, v_mul_hi_u32 v6, v2, v3
T k_v_mul_hi_i32, v_mul_hi_i32 v6, v2, v3
T k_v_bfi_b32, v_bfi_b32 v6, v2, v3, v4
T k_v_bcnt_u32_b32, v_bcnt_u32_b32 v6, v2, v3
T k_v_mbcnt_lo_u32_b32, v_mbcnt_lo_u32_b32 v6, v2, v3
T k_v_mbcnt_hi_u32_b32, v_mbcnt_hi_u32_b32 v6, v2, v3
T k_v_bfm_b32, v_bfm_b32 v6, v2, v3
