// vop1.s — one kernel per VOP1 form for test_isa_vop1.c (gfx90a): the
// VOP1 operations in e32, e64 (NEG or ABS on a float source), SDWA (word
// or byte select) and DPP (quad_perm [1,0,3,2]; row_newbcast:1 for the
// 64-bit ones), GENERATED with the form table of test_isa_vop1.c from
// emu/isa/isa_table.tsv.  Work-item i (one wave) loads in[4i .. 4i+3] into
// v[2:5] and v[6:7] = in[4i+2 ..] (D's starting value), runs the
// instruction and stores v[6:7] at out[2i].  Denormals are kept.
.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
.include "kernel.inc"

.include "vop_kd.inc"

.macro T name, inst:vararg
  KSYM \name
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  v_lshlrev_b32 v1, 4, v0
  v_lshlrev_b32 v14, 3, v0
  s_waitcnt lgkmcnt(0)
  global_load_dwordx4 v[2:5], v1, s[4:5]
  s_waitcnt vmcnt(0)
  v_mov_b32 v6, v4
  v_mov_b32 v7, v5
  \inst
  global_store_dwordx2 v14, v[6:7], s[6:7]
  s_endpgm
  KD \name
.endm

T v_mov_b32_e32, v_mov_b32_e32 v6, v2
T v_mov_b32_e64, v_mov_b32_e64 v6, v2
T v_mov_b32_sdwa, v_mov_b32_sdwa v6, v2 dst_sel:DWORD src0_sel:BYTE_2
T v_mov_b32_dpp, v_mov_b32_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_cvt_i32_f64_e32, v_cvt_i32_f64_e32 v6, v[2:3]
T v_cvt_i32_f64_e64, v_cvt_i32_f64_e64 v6, -v[2:3]
T v_cvt_i32_f64_dpp, v_cvt_i32_f64_dpp v6, v[2:3] row_newbcast:1 row_mask:0xf bank_mask:0xf
T v_cvt_f64_i32_e32, v_cvt_f64_i32_e32 v[6:7], v2
T v_cvt_f64_i32_e64, v_cvt_f64_i32_e64 v[6:7], v2
T v_cvt_f64_i32_dpp, v_cvt_f64_i32_dpp v[6:7], v2 row_newbcast:1 row_mask:0xf bank_mask:0xf
T v_cvt_f32_i32_e32, v_cvt_f32_i32_e32 v6, v2
T v_cvt_f32_i32_e64, v_cvt_f32_i32_e64 v6, v2
T v_cvt_f32_i32_sdwa, v_cvt_f32_i32_sdwa v6, v2 dst_sel:DWORD src0_sel:BYTE_2
T v_cvt_f32_i32_dpp, v_cvt_f32_i32_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_cvt_f32_u32_e32, v_cvt_f32_u32_e32 v6, v2
T v_cvt_f32_u32_e64, v_cvt_f32_u32_e64 v6, v2
T v_cvt_f32_u32_sdwa, v_cvt_f32_u32_sdwa v6, v2 dst_sel:DWORD src0_sel:BYTE_2
T v_cvt_f32_u32_dpp, v_cvt_f32_u32_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_cvt_u32_f32_e32, v_cvt_u32_f32_e32 v6, v2
T v_cvt_u32_f32_e64, v_cvt_u32_f32_e64 v6, -v2
T v_cvt_u32_f32_sdwa, v_cvt_u32_f32_sdwa v6, v2 dst_sel:DWORD
T v_cvt_u32_f32_dpp, v_cvt_u32_f32_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_cvt_i32_f32_e32, v_cvt_i32_f32_e32 v6, v2
T v_cvt_i32_f32_e64, v_cvt_i32_f32_e64 v6, |v2|
T v_cvt_i32_f32_sdwa, v_cvt_i32_f32_sdwa v6, v2 dst_sel:DWORD
T v_cvt_i32_f32_dpp, v_cvt_i32_f32_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_cvt_f16_f32_e32, v_cvt_f16_f32_e32 v6, v2
T v_cvt_f16_f32_e64, v_cvt_f16_f32_e64 v6, |v2|
T v_cvt_f16_f32_sdwa, v_cvt_f16_f32_sdwa v6, v2 dst_sel:DWORD
T v_cvt_f16_f32_dpp, v_cvt_f16_f32_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_cvt_f32_f16_e32, v_cvt_f32_f16_e32 v6, v2
T v_cvt_f32_f16_e64, v_cvt_f32_f16_e64 v6, -v2
T v_cvt_f32_f16_sdwa, v_cvt_f32_f16_sdwa v6, v2 dst_sel:DWORD src0_sel:WORD_1
T v_cvt_f32_f16_dpp, v_cvt_f32_f16_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_cvt_rpi_i32_f32_e32, v_cvt_rpi_i32_f32_e32 v6, v2
T v_cvt_rpi_i32_f32_e64, v_cvt_rpi_i32_f32_e64 v6, |v2|
T v_cvt_rpi_i32_f32_sdwa, v_cvt_rpi_i32_f32_sdwa v6, v2 dst_sel:DWORD
T v_cvt_rpi_i32_f32_dpp, v_cvt_rpi_i32_f32_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_cvt_flr_i32_f32_e32, v_cvt_flr_i32_f32_e32 v6, v2
T v_cvt_flr_i32_f32_e64, v_cvt_flr_i32_f32_e64 v6, -v2
T v_cvt_flr_i32_f32_sdwa, v_cvt_flr_i32_f32_sdwa v6, v2 dst_sel:DWORD
T v_cvt_flr_i32_f32_dpp, v_cvt_flr_i32_f32_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_cvt_off_f32_i4_e32, v_cvt_off_f32_i4_e32 v6, v2
T v_cvt_off_f32_i4_e64, v_cvt_off_f32_i4_e64 v6, v2
T v_cvt_off_f32_i4_sdwa, v_cvt_off_f32_i4_sdwa v6, v2 dst_sel:DWORD src0_sel:BYTE_2
T v_cvt_off_f32_i4_dpp, v_cvt_off_f32_i4_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_cvt_f32_f64_e32, v_cvt_f32_f64_e32 v6, v[2:3]
T v_cvt_f32_f64_e64, v_cvt_f32_f64_e64 v6, -v[2:3]
T v_cvt_f32_f64_dpp, v_cvt_f32_f64_dpp v6, v[2:3] row_newbcast:1 row_mask:0xf bank_mask:0xf
T v_cvt_f64_f32_e32, v_cvt_f64_f32_e32 v[6:7], v2
T v_cvt_f64_f32_e64, v_cvt_f64_f32_e64 v[6:7], |v2|
T v_cvt_f64_f32_dpp, v_cvt_f64_f32_dpp v[6:7], v2 row_newbcast:1 row_mask:0xf bank_mask:0xf
T v_cvt_f32_ubyte0_e32, v_cvt_f32_ubyte0_e32 v6, v2
T v_cvt_f32_ubyte0_e64, v_cvt_f32_ubyte0_e64 v6, v2
T v_cvt_f32_ubyte0_sdwa, v_cvt_f32_ubyte0_sdwa v6, v2 dst_sel:DWORD src0_sel:BYTE_2
T v_cvt_f32_ubyte0_dpp, v_cvt_f32_ubyte0_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_cvt_f32_ubyte1_e32, v_cvt_f32_ubyte1_e32 v6, v2
T v_cvt_f32_ubyte1_e64, v_cvt_f32_ubyte1_e64 v6, v2
T v_cvt_f32_ubyte1_sdwa, v_cvt_f32_ubyte1_sdwa v6, v2 dst_sel:DWORD src0_sel:BYTE_2
T v_cvt_f32_ubyte1_dpp, v_cvt_f32_ubyte1_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_cvt_f32_ubyte2_e32, v_cvt_f32_ubyte2_e32 v6, v2
T v_cvt_f32_ubyte2_e64, v_cvt_f32_ubyte2_e64 v6, v2
T v_cvt_f32_ubyte2_sdwa, v_cvt_f32_ubyte2_sdwa v6, v2 dst_sel:DWORD src0_sel:BYTE_2
T v_cvt_f32_ubyte2_dpp, v_cvt_f32_ubyte2_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_cvt_f32_ubyte3_e32, v_cvt_f32_ubyte3_e32 v6, v2
T v_cvt_f32_ubyte3_e64, v_cvt_f32_ubyte3_e64 v6, v2
T v_cvt_f32_ubyte3_sdwa, v_cvt_f32_ubyte3_sdwa v6, v2 dst_sel:DWORD src0_sel:BYTE_2
T v_cvt_f32_ubyte3_dpp, v_cvt_f32_ubyte3_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_cvt_u32_f64_e32, v_cvt_u32_f64_e32 v6, v[2:3]
T v_cvt_u32_f64_e64, v_cvt_u32_f64_e64 v6, -v[2:3]
T v_cvt_u32_f64_dpp, v_cvt_u32_f64_dpp v6, v[2:3] row_newbcast:1 row_mask:0xf bank_mask:0xf
T v_cvt_f64_u32_e32, v_cvt_f64_u32_e32 v[6:7], v2
T v_cvt_f64_u32_e64, v_cvt_f64_u32_e64 v[6:7], v2
T v_cvt_f64_u32_dpp, v_cvt_f64_u32_dpp v[6:7], v2 row_newbcast:1 row_mask:0xf bank_mask:0xf
T v_trunc_f64_e32, v_trunc_f64_e32 v[6:7], v[2:3]
T v_trunc_f64_e64, v_trunc_f64_e64 v[6:7], -v[2:3]
T v_trunc_f64_dpp, v_trunc_f64_dpp v[6:7], v[2:3] row_newbcast:1 row_mask:0xf bank_mask:0xf
T v_ceil_f64_e32, v_ceil_f64_e32 v[6:7], v[2:3]
T v_ceil_f64_e64, v_ceil_f64_e64 v[6:7], |v[2:3]|
T v_ceil_f64_dpp, v_ceil_f64_dpp v[6:7], v[2:3] row_newbcast:1 row_mask:0xf bank_mask:0xf
T v_rndne_f64_e32, v_rndne_f64_e32 v[6:7], v[2:3]
T v_rndne_f64_e64, v_rndne_f64_e64 v[6:7], -v[2:3]
T v_rndne_f64_dpp, v_rndne_f64_dpp v[6:7], v[2:3] row_newbcast:1 row_mask:0xf bank_mask:0xf
T v_floor_f64_e32, v_floor_f64_e32 v[6:7], v[2:3]
T v_floor_f64_e64, v_floor_f64_e64 v[6:7], |v[2:3]|
T v_floor_f64_dpp, v_floor_f64_dpp v[6:7], v[2:3] row_newbcast:1 row_mask:0xf bank_mask:0xf
T v_fract_f32_e32, v_fract_f32_e32 v6, v2
T v_fract_f32_e64, v_fract_f32_e64 v6, -v2
T v_fract_f32_sdwa, v_fract_f32_sdwa v6, v2 dst_sel:DWORD
T v_fract_f32_dpp, v_fract_f32_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_trunc_f32_e32, v_trunc_f32_e32 v6, v2
T v_trunc_f32_e64, v_trunc_f32_e64 v6, |v2|
T v_trunc_f32_sdwa, v_trunc_f32_sdwa v6, v2 dst_sel:DWORD
T v_trunc_f32_dpp, v_trunc_f32_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_ceil_f32_e32, v_ceil_f32_e32 v6, v2
T v_ceil_f32_e64, v_ceil_f32_e64 v6, -v2
T v_ceil_f32_sdwa, v_ceil_f32_sdwa v6, v2 dst_sel:DWORD
T v_ceil_f32_dpp, v_ceil_f32_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_rndne_f32_e32, v_rndne_f32_e32 v6, v2
T v_rndne_f32_e64, v_rndne_f32_e64 v6, |v2|
T v_rndne_f32_sdwa, v_rndne_f32_sdwa v6, v2 dst_sel:DWORD
T v_rndne_f32_dpp, v_rndne_f32_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_floor_f32_e32, v_floor_f32_e32 v6, v2
T v_floor_f32_e64, v_floor_f32_e64 v6, -v2
T v_floor_f32_sdwa, v_floor_f32_sdwa v6, v2 dst_sel:DWORD
T v_floor_f32_dpp, v_floor_f32_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_exp_f32_e32, v_exp_f32_e32 v6, v2
T v_exp_f32_e64, v_exp_f32_e64 v6, |v2|
T v_exp_f32_sdwa, v_exp_f32_sdwa v6, v2 dst_sel:DWORD
T v_exp_f32_dpp, v_exp_f32_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_log_f32_e32, v_log_f32_e32 v6, v2
T v_log_f32_e64, v_log_f32_e64 v6, -v2
T v_log_f32_sdwa, v_log_f32_sdwa v6, v2 dst_sel:DWORD
T v_log_f32_dpp, v_log_f32_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_rcp_f32_e32, v_rcp_f32_e32 v6, v2
T v_rcp_f32_e64, v_rcp_f32_e64 v6, |v2|
T v_rcp_f32_sdwa, v_rcp_f32_sdwa v6, v2 dst_sel:DWORD
T v_rcp_f32_dpp, v_rcp_f32_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_rcp_iflag_f32_e32, v_rcp_iflag_f32_e32 v6, v2
T v_rcp_iflag_f32_e64, v_rcp_iflag_f32_e64 v6, -v2
T v_rcp_iflag_f32_sdwa, v_rcp_iflag_f32_sdwa v6, v2 dst_sel:DWORD
T v_rcp_iflag_f32_dpp, v_rcp_iflag_f32_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_rsq_f32_e32, v_rsq_f32_e32 v6, v2
T v_rsq_f32_e64, v_rsq_f32_e64 v6, |v2|
T v_rsq_f32_sdwa, v_rsq_f32_sdwa v6, v2 dst_sel:DWORD
T v_rsq_f32_dpp, v_rsq_f32_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_rcp_f64_e32, v_rcp_f64_e32 v[6:7], v[2:3]
T v_rcp_f64_e64, v_rcp_f64_e64 v[6:7], -v[2:3]
T v_rcp_f64_dpp, v_rcp_f64_dpp v[6:7], v[2:3] row_newbcast:1 row_mask:0xf bank_mask:0xf
T v_rsq_f64_e32, v_rsq_f64_e32 v[6:7], v[2:3]
T v_rsq_f64_e64, v_rsq_f64_e64 v[6:7], |v[2:3]|
T v_rsq_f64_dpp, v_rsq_f64_dpp v[6:7], v[2:3] row_newbcast:1 row_mask:0xf bank_mask:0xf
T v_sqrt_f32_e32, v_sqrt_f32_e32 v6, v2
T v_sqrt_f32_e64, v_sqrt_f32_e64 v6, -v2
T v_sqrt_f32_sdwa, v_sqrt_f32_sdwa v6, v2 dst_sel:DWORD
T v_sqrt_f32_dpp, v_sqrt_f32_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_sqrt_f64_e32, v_sqrt_f64_e32 v[6:7], v[2:3]
T v_sqrt_f64_e64, v_sqrt_f64_e64 v[6:7], |v[2:3]|
T v_sqrt_f64_dpp, v_sqrt_f64_dpp v[6:7], v[2:3] row_newbcast:1 row_mask:0xf bank_mask:0xf
T v_sin_f32_e32, v_sin_f32_e32 v6, v2
T v_sin_f32_e64, v_sin_f32_e64 v6, -v2
T v_sin_f32_sdwa, v_sin_f32_sdwa v6, v2 dst_sel:DWORD
T v_sin_f32_dpp, v_sin_f32_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_cos_f32_e32, v_cos_f32_e32 v6, v2
T v_cos_f32_e64, v_cos_f32_e64 v6, |v2|
T v_cos_f32_sdwa, v_cos_f32_sdwa v6, v2 dst_sel:DWORD
T v_cos_f32_dpp, v_cos_f32_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_not_b32_e32, v_not_b32_e32 v6, v2
T v_not_b32_e64, v_not_b32_e64 v6, v2
T v_not_b32_sdwa, v_not_b32_sdwa v6, v2 dst_sel:DWORD src0_sel:BYTE_2
T v_not_b32_dpp, v_not_b32_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_bfrev_b32_e32, v_bfrev_b32_e32 v6, v2
T v_bfrev_b32_e64, v_bfrev_b32_e64 v6, v2
T v_bfrev_b32_sdwa, v_bfrev_b32_sdwa v6, v2 dst_sel:DWORD src0_sel:BYTE_2
T v_bfrev_b32_dpp, v_bfrev_b32_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_ffbh_u32_e32, v_ffbh_u32_e32 v6, v2
T v_ffbh_u32_e64, v_ffbh_u32_e64 v6, v2
T v_ffbh_u32_sdwa, v_ffbh_u32_sdwa v6, v2 dst_sel:DWORD src0_sel:BYTE_2
T v_ffbh_u32_dpp, v_ffbh_u32_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_ffbl_b32_e32, v_ffbl_b32_e32 v6, v2
T v_ffbl_b32_e64, v_ffbl_b32_e64 v6, v2
T v_ffbl_b32_sdwa, v_ffbl_b32_sdwa v6, v2 dst_sel:DWORD src0_sel:BYTE_2
T v_ffbl_b32_dpp, v_ffbl_b32_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_ffbh_i32_e32, v_ffbh_i32_e32 v6, v2
T v_ffbh_i32_e64, v_ffbh_i32_e64 v6, v2
T v_ffbh_i32_sdwa, v_ffbh_i32_sdwa v6, v2 dst_sel:DWORD src0_sel:BYTE_2
T v_ffbh_i32_dpp, v_ffbh_i32_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_frexp_exp_i32_f64_e32, v_frexp_exp_i32_f64_e32 v6, v[2:3]
T v_frexp_exp_i32_f64_e64, v_frexp_exp_i32_f64_e64 v6, |v[2:3]|
T v_frexp_exp_i32_f64_dpp, v_frexp_exp_i32_f64_dpp v6, v[2:3] row_newbcast:1 row_mask:0xf bank_mask:0xf
T v_frexp_mant_f64_e32, v_frexp_mant_f64_e32 v[6:7], v[2:3]
T v_frexp_mant_f64_e64, v_frexp_mant_f64_e64 v[6:7], -v[2:3]
T v_frexp_mant_f64_dpp, v_frexp_mant_f64_dpp v[6:7], v[2:3] row_newbcast:1 row_mask:0xf bank_mask:0xf
T v_fract_f64_e32, v_fract_f64_e32 v[6:7], v[2:3]
T v_fract_f64_e64, v_fract_f64_e64 v[6:7], |v[2:3]|
T v_fract_f64_dpp, v_fract_f64_dpp v[6:7], v[2:3] row_newbcast:1 row_mask:0xf bank_mask:0xf
T v_frexp_exp_i32_f32_e32, v_frexp_exp_i32_f32_e32 v6, v2
T v_frexp_exp_i32_f32_e64, v_frexp_exp_i32_f32_e64 v6, -v2
T v_frexp_exp_i32_f32_sdwa, v_frexp_exp_i32_f32_sdwa v6, v2 dst_sel:DWORD
T v_frexp_exp_i32_f32_dpp, v_frexp_exp_i32_f32_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_frexp_mant_f32_e32, v_frexp_mant_f32_e32 v6, v2
T v_frexp_mant_f32_e64, v_frexp_mant_f32_e64 v6, |v2|
T v_frexp_mant_f32_sdwa, v_frexp_mant_f32_sdwa v6, v2 dst_sel:DWORD
T v_frexp_mant_f32_dpp, v_frexp_mant_f32_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_cvt_f16_u16_e32, v_cvt_f16_u16_e32 v6, v2
T v_cvt_f16_u16_e64, v_cvt_f16_u16_e64 v6, v2
T v_cvt_f16_u16_sdwa, v_cvt_f16_u16_sdwa v6, v2 dst_sel:DWORD src0_sel:WORD_1
T v_cvt_f16_u16_dpp, v_cvt_f16_u16_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_cvt_f16_i16_e32, v_cvt_f16_i16_e32 v6, v2
T v_cvt_f16_i16_e64, v_cvt_f16_i16_e64 v6, v2
T v_cvt_f16_i16_sdwa, v_cvt_f16_i16_sdwa v6, v2 dst_sel:DWORD src0_sel:WORD_1
T v_cvt_f16_i16_dpp, v_cvt_f16_i16_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_cvt_u16_f16_e32, v_cvt_u16_f16_e32 v6, v2
T v_cvt_u16_f16_e64, v_cvt_u16_f16_e64 v6, -v2
T v_cvt_u16_f16_sdwa, v_cvt_u16_f16_sdwa v6, v2 dst_sel:DWORD src0_sel:WORD_1
T v_cvt_u16_f16_dpp, v_cvt_u16_f16_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_cvt_i16_f16_e32, v_cvt_i16_f16_e32 v6, v2
T v_cvt_i16_f16_e64, v_cvt_i16_f16_e64 v6, |v2|
T v_cvt_i16_f16_sdwa, v_cvt_i16_f16_sdwa v6, v2 dst_sel:DWORD src0_sel:WORD_1
T v_cvt_i16_f16_dpp, v_cvt_i16_f16_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_rcp_f16_e32, v_rcp_f16_e32 v6, v2
T v_rcp_f16_e64, v_rcp_f16_e64 v6, -v2
T v_rcp_f16_sdwa, v_rcp_f16_sdwa v6, v2 dst_sel:DWORD src0_sel:WORD_1
T v_rcp_f16_dpp, v_rcp_f16_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_sqrt_f16_e32, v_sqrt_f16_e32 v6, v2
T v_sqrt_f16_e64, v_sqrt_f16_e64 v6, |v2|
T v_sqrt_f16_sdwa, v_sqrt_f16_sdwa v6, v2 dst_sel:DWORD src0_sel:WORD_1
T v_sqrt_f16_dpp, v_sqrt_f16_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_rsq_f16_e32, v_rsq_f16_e32 v6, v2
T v_rsq_f16_e64, v_rsq_f16_e64 v6, -v2
T v_rsq_f16_sdwa, v_rsq_f16_sdwa v6, v2 dst_sel:DWORD src0_sel:WORD_1
T v_rsq_f16_dpp, v_rsq_f16_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_log_f16_e32, v_log_f16_e32 v6, v2
T v_log_f16_e64, v_log_f16_e64 v6, |v2|
T v_log_f16_sdwa, v_log_f16_sdwa v6, v2 dst_sel:DWORD src0_sel:WORD_1
T v_log_f16_dpp, v_log_f16_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_exp_f16_e32, v_exp_f16_e32 v6, v2
T v_exp_f16_e64, v_exp_f16_e64 v6, -v2
T v_exp_f16_sdwa, v_exp_f16_sdwa v6, v2 dst_sel:DWORD src0_sel:WORD_1
T v_exp_f16_dpp, v_exp_f16_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_frexp_mant_f16_e32, v_frexp_mant_f16_e32 v6, v2
T v_frexp_mant_f16_e64, v_frexp_mant_f16_e64 v6, |v2|
T v_frexp_mant_f16_sdwa, v_frexp_mant_f16_sdwa v6, v2 dst_sel:DWORD src0_sel:WORD_1
T v_frexp_mant_f16_dpp, v_frexp_mant_f16_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_frexp_exp_i16_f16_e32, v_frexp_exp_i16_f16_e32 v6, v2
T v_frexp_exp_i16_f16_e64, v_frexp_exp_i16_f16_e64 v6, -v2
T v_frexp_exp_i16_f16_sdwa, v_frexp_exp_i16_f16_sdwa v6, v2 dst_sel:DWORD src0_sel:WORD_1
T v_frexp_exp_i16_f16_dpp, v_frexp_exp_i16_f16_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_floor_f16_e32, v_floor_f16_e32 v6, v2
T v_floor_f16_e64, v_floor_f16_e64 v6, |v2|
T v_floor_f16_sdwa, v_floor_f16_sdwa v6, v2 dst_sel:DWORD src0_sel:WORD_1
T v_floor_f16_dpp, v_floor_f16_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_ceil_f16_e32, v_ceil_f16_e32 v6, v2
T v_ceil_f16_e64, v_ceil_f16_e64 v6, -v2
T v_ceil_f16_sdwa, v_ceil_f16_sdwa v6, v2 dst_sel:DWORD src0_sel:WORD_1
T v_ceil_f16_dpp, v_ceil_f16_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_trunc_f16_e32, v_trunc_f16_e32 v6, v2
T v_trunc_f16_e64, v_trunc_f16_e64 v6, |v2|
T v_trunc_f16_sdwa, v_trunc_f16_sdwa v6, v2 dst_sel:DWORD src0_sel:WORD_1
T v_trunc_f16_dpp, v_trunc_f16_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_rndne_f16_e32, v_rndne_f16_e32 v6, v2
T v_rndne_f16_e64, v_rndne_f16_e64 v6, -v2
T v_rndne_f16_sdwa, v_rndne_f16_sdwa v6, v2 dst_sel:DWORD src0_sel:WORD_1
T v_rndne_f16_dpp, v_rndne_f16_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_fract_f16_e32, v_fract_f16_e32 v6, v2
T v_fract_f16_e64, v_fract_f16_e64 v6, |v2|
T v_fract_f16_sdwa, v_fract_f16_sdwa v6, v2 dst_sel:DWORD src0_sel:WORD_1
T v_fract_f16_dpp, v_fract_f16_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_sin_f16_e32, v_sin_f16_e32 v6, v2
T v_sin_f16_e64, v_sin_f16_e64 v6, -v2
T v_sin_f16_sdwa, v_sin_f16_sdwa v6, v2 dst_sel:DWORD src0_sel:WORD_1
T v_sin_f16_dpp, v_sin_f16_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_cos_f16_e32, v_cos_f16_e32 v6, v2
T v_cos_f16_e64, v_cos_f16_e64 v6, |v2|
T v_cos_f16_sdwa, v_cos_f16_sdwa v6, v2 dst_sel:DWORD src0_sel:WORD_1
T v_cos_f16_dpp, v_cos_f16_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_sat_pk_u8_i16_e32, v_sat_pk_u8_i16_e32 v6, v2
T v_sat_pk_u8_i16_e64, v_sat_pk_u8_i16_e64 v6, v2
T v_sat_pk_u8_i16_sdwa, v_sat_pk_u8_i16_sdwa v6, v2 dst_sel:DWORD src0_sel:BYTE_2
T v_sat_pk_u8_i16_dpp, v_sat_pk_u8_i16_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
