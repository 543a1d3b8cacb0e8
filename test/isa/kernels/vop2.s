// vop2.s — one kernel per VOP2 form for test_isa_vop2.c (gfx90a): the
// VOP2 operations in e32, e64 (NEG or ABS on a float source), SDWA
// (selects) and DPP (quad_perm [1,0,3,2]), GENERATED with the form table
// of test_isa_vop2.c from emu/isa/isa_table.tsv.  Work-item i (one wave)
// loads in[4i .. 4i+3] into v[2:5]: S0, S1, D's starting value (the
// accumulator of mac/fmac/dot*c) and a carry-in bit (bit 0, into VCC and
// s[12:13]); stores D and the carry-out bit at out[2i].  Denormals are
// kept (FP_DENORM 3).
.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
.include "kernel.inc"

.include "vop_kd.inc"

.macro T name, carry, inst:vararg
  KSYM \name
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  v_lshlrev_b32 v1, 4, v0
  v_lshlrev_b32 v14, 3, v0
  s_waitcnt lgkmcnt(0)
  global_load_dwordx4 v[2:5], v1, s[4:5]
  s_waitcnt vmcnt(0)
  v_mov_b32 v6, v4
  v_and_b32 v8, 1, v5
  v_cmp_ne_u32 vcc, 0, v8
  s_mov_b64 s[12:13], vcc
  s_mov_b64 s[10:11], 0
  \inst
  v_cndmask_b32 v7, 0, 1, \carry
  global_store_dwordx2 v14, v[6:7], s[6:7]
  s_endpgm
  KD \name
.endm

T v_add_f32_e32, vcc, v_add_f32_e32 v6, v2, v3
T v_add_f32_e64, s[10:11], v_add_f32_e64 v6, -v2, v3
T v_add_f32_sdwa, vcc, v_add_f32_sdwa v6, v2, v3 dst_sel:DWORD
T v_add_f32_dpp, vcc, v_add_f32_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_sub_f32_e32, vcc, v_sub_f32_e32 v6, v2, v3
T v_sub_f32_e64, s[10:11], v_sub_f32_e64 v6, v2, |v3|
T v_sub_f32_sdwa, vcc, v_sub_f32_sdwa v6, v2, v3 dst_sel:DWORD
T v_sub_f32_dpp, vcc, v_sub_f32_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_subrev_f32_e32, vcc, v_subrev_f32_e32 v6, v2, v3
T v_subrev_f32_e64, s[10:11], v_subrev_f32_e64 v6, -v2, v3
T v_subrev_f32_sdwa, vcc, v_subrev_f32_sdwa v6, v2, v3 dst_sel:DWORD
T v_subrev_f32_dpp, vcc, v_subrev_f32_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_mul_f32_e32, vcc, v_mul_f32_e32 v6, v2, v3
T v_mul_f32_e64, s[10:11], v_mul_f32_e64 v6, -v2, v3
T v_mul_f32_sdwa, vcc, v_mul_f32_sdwa v6, v2, v3 dst_sel:DWORD
T v_mul_f32_dpp, vcc, v_mul_f32_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_mul_i32_i24_e32, vcc, v_mul_i32_i24_e32 v6, v2, v3
T v_mul_i32_i24_e64, s[10:11], v_mul_i32_i24_e64 v6, v2, v3
T v_mul_i32_i24_sdwa, vcc, v_mul_i32_i24_sdwa v6, v2, v3 dst_sel:DWORD src0_sel:BYTE_1 src1_sel:WORD_1
T v_mul_i32_i24_dpp, vcc, v_mul_i32_i24_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_mul_hi_i32_i24_e32, vcc, v_mul_hi_i32_i24_e32 v6, v2, v3
T v_mul_hi_i32_i24_e64, s[10:11], v_mul_hi_i32_i24_e64 v6, v2, v3
T v_mul_hi_i32_i24_sdwa, vcc, v_mul_hi_i32_i24_sdwa v6, v2, v3 dst_sel:DWORD src0_sel:BYTE_1 src1_sel:WORD_1
T v_mul_hi_i32_i24_dpp, vcc, v_mul_hi_i32_i24_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_mul_u32_u24_e32, vcc, v_mul_u32_u24_e32 v6, v2, v3
T v_mul_u32_u24_e64, s[10:11], v_mul_u32_u24_e64 v6, v2, v3
T v_mul_u32_u24_sdwa, vcc, v_mul_u32_u24_sdwa v6, v2, v3 dst_sel:DWORD src0_sel:BYTE_1 src1_sel:WORD_1
T v_mul_u32_u24_dpp, vcc, v_mul_u32_u24_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_mul_hi_u32_u24_e32, vcc, v_mul_hi_u32_u24_e32 v6, v2, v3
T v_mul_hi_u32_u24_e64, s[10:11], v_mul_hi_u32_u24_e64 v6, v2, v3
T v_mul_hi_u32_u24_sdwa, vcc, v_mul_hi_u32_u24_sdwa v6, v2, v3 dst_sel:DWORD src0_sel:BYTE_1 src1_sel:WORD_1
T v_mul_hi_u32_u24_dpp, vcc, v_mul_hi_u32_u24_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_min_f32_e32, vcc, v_min_f32_e32 v6, v2, v3
T v_min_f32_e64, s[10:11], v_min_f32_e64 v6, v2, |v3|
T v_min_f32_sdwa, vcc, v_min_f32_sdwa v6, v2, v3 dst_sel:DWORD
T v_min_f32_dpp, vcc, v_min_f32_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_max_f32_e32, vcc, v_max_f32_e32 v6, v2, v3
T v_max_f32_e64, s[10:11], v_max_f32_e64 v6, -v2, v3
T v_max_f32_sdwa, vcc, v_max_f32_sdwa v6, v2, v3 dst_sel:DWORD
T v_max_f32_dpp, vcc, v_max_f32_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_min_i32_e32, vcc, v_min_i32_e32 v6, v2, v3
T v_min_i32_e64, s[10:11], v_min_i32_e64 v6, v2, v3
T v_min_i32_sdwa, vcc, v_min_i32_sdwa v6, v2, v3 dst_sel:DWORD src0_sel:BYTE_1 src1_sel:WORD_1
T v_min_i32_dpp, vcc, v_min_i32_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_max_i32_e32, vcc, v_max_i32_e32 v6, v2, v3
T v_max_i32_e64, s[10:11], v_max_i32_e64 v6, v2, v3
T v_max_i32_sdwa, vcc, v_max_i32_sdwa v6, v2, v3 dst_sel:DWORD src0_sel:BYTE_1 src1_sel:WORD_1
T v_max_i32_dpp, vcc, v_max_i32_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_min_u32_e32, vcc, v_min_u32_e32 v6, v2, v3
T v_min_u32_e64, s[10:11], v_min_u32_e64 v6, v2, v3
T v_min_u32_sdwa, vcc, v_min_u32_sdwa v6, v2, v3 dst_sel:DWORD src0_sel:BYTE_1 src1_sel:WORD_1
T v_min_u32_dpp, vcc, v_min_u32_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_max_u32_e32, vcc, v_max_u32_e32 v6, v2, v3
T v_max_u32_e64, s[10:11], v_max_u32_e64 v6, v2, v3
T v_max_u32_sdwa, vcc, v_max_u32_sdwa v6, v2, v3 dst_sel:DWORD src0_sel:BYTE_1 src1_sel:WORD_1
T v_max_u32_dpp, vcc, v_max_u32_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_lshrrev_b32_e32, vcc, v_lshrrev_b32_e32 v6, v2, v3
T v_lshrrev_b32_e64, s[10:11], v_lshrrev_b32_e64 v6, v2, v3
T v_lshrrev_b32_sdwa, vcc, v_lshrrev_b32_sdwa v6, v2, v3 dst_sel:DWORD src0_sel:BYTE_1 src1_sel:WORD_1
T v_lshrrev_b32_dpp, vcc, v_lshrrev_b32_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_ashrrev_i32_e32, vcc, v_ashrrev_i32_e32 v6, v2, v3
T v_ashrrev_i32_e64, s[10:11], v_ashrrev_i32_e64 v6, v2, v3
T v_ashrrev_i32_sdwa, vcc, v_ashrrev_i32_sdwa v6, v2, v3 dst_sel:DWORD src0_sel:BYTE_1 src1_sel:WORD_1
T v_ashrrev_i32_dpp, vcc, v_ashrrev_i32_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_lshlrev_b32_e32, vcc, v_lshlrev_b32_e32 v6, v2, v3
T v_lshlrev_b32_e64, s[10:11], v_lshlrev_b32_e64 v6, v2, v3
T v_lshlrev_b32_sdwa, vcc, v_lshlrev_b32_sdwa v6, v2, v3 dst_sel:DWORD src0_sel:BYTE_1 src1_sel:WORD_1
T v_lshlrev_b32_dpp, vcc, v_lshlrev_b32_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_and_b32_e32, vcc, v_and_b32_e32 v6, v2, v3
T v_and_b32_e64, s[10:11], v_and_b32_e64 v6, v2, v3
T v_and_b32_sdwa, vcc, v_and_b32_sdwa v6, v2, v3 dst_sel:DWORD src0_sel:BYTE_1 src1_sel:WORD_1
T v_and_b32_dpp, vcc, v_and_b32_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_or_b32_e32, vcc, v_or_b32_e32 v6, v2, v3
T v_or_b32_e64, s[10:11], v_or_b32_e64 v6, v2, v3
T v_or_b32_sdwa, vcc, v_or_b32_sdwa v6, v2, v3 dst_sel:DWORD src0_sel:BYTE_1 src1_sel:WORD_1
T v_or_b32_dpp, vcc, v_or_b32_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_xor_b32_e32, vcc, v_xor_b32_e32 v6, v2, v3
T v_xor_b32_e64, s[10:11], v_xor_b32_e64 v6, v2, v3
T v_xor_b32_sdwa, vcc, v_xor_b32_sdwa v6, v2, v3 dst_sel:DWORD src0_sel:BYTE_1 src1_sel:WORD_1
T v_xor_b32_dpp, vcc, v_xor_b32_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_mac_f32_e32, vcc, v_mac_f32_e32 v6, v2, v3
T v_mac_f32_e64, s[10:11], v_mac_f32_e64 v6, v2, |v3|
T v_mac_f32_dpp, vcc, v_mac_f32_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_add_co_u32_e32, vcc, v_add_co_u32_e32 v6, vcc, v2, v3
T v_add_co_u32_e64, s[10:11], v_add_co_u32_e64 v6, s[10:11], v2, v3
T v_add_co_u32_sdwa, vcc, v_add_co_u32_sdwa v6, vcc, v2, v3 dst_sel:DWORD src0_sel:BYTE_1 src1_sel:WORD_1
T v_add_co_u32_dpp, vcc, v_add_co_u32_dpp v6, vcc, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_sub_co_u32_e32, vcc, v_sub_co_u32_e32 v6, vcc, v2, v3
T v_sub_co_u32_e64, s[10:11], v_sub_co_u32_e64 v6, s[10:11], v2, v3
T v_sub_co_u32_sdwa, vcc, v_sub_co_u32_sdwa v6, vcc, v2, v3 dst_sel:DWORD src0_sel:BYTE_1 src1_sel:WORD_1
T v_sub_co_u32_dpp, vcc, v_sub_co_u32_dpp v6, vcc, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_subrev_co_u32_e32, vcc, v_subrev_co_u32_e32 v6, vcc, v2, v3
T v_subrev_co_u32_e64, s[10:11], v_subrev_co_u32_e64 v6, s[10:11], v2, v3
T v_subrev_co_u32_sdwa, vcc, v_subrev_co_u32_sdwa v6, vcc, v2, v3 dst_sel:DWORD src0_sel:BYTE_1 src1_sel:WORD_1
T v_subrev_co_u32_dpp, vcc, v_subrev_co_u32_dpp v6, vcc, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_addc_co_u32_e32, vcc, v_addc_co_u32_e32 v6, vcc, v2, v3, vcc
T v_addc_co_u32_e64, s[10:11], v_addc_co_u32_e64 v6, s[10:11], v2, v3, s[12:13]
T v_addc_co_u32_sdwa, vcc, v_addc_co_u32_sdwa v6, vcc, v2, v3, vcc dst_sel:DWORD src0_sel:BYTE_1 src1_sel:WORD_1
T v_addc_co_u32_dpp, vcc, v_addc_co_u32_dpp v6, vcc, v2, v3, vcc quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_subb_co_u32_e32, vcc, v_subb_co_u32_e32 v6, vcc, v2, v3, vcc
T v_subb_co_u32_e64, s[10:11], v_subb_co_u32_e64 v6, s[10:11], v2, v3, s[12:13]
T v_subb_co_u32_sdwa, vcc, v_subb_co_u32_sdwa v6, vcc, v2, v3, vcc dst_sel:DWORD src0_sel:BYTE_1 src1_sel:WORD_1
T v_subb_co_u32_dpp, vcc, v_subb_co_u32_dpp v6, vcc, v2, v3, vcc quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_subbrev_co_u32_e32, vcc, v_subbrev_co_u32_e32 v6, vcc, v2, v3, vcc
T v_subbrev_co_u32_e64, s[10:11], v_subbrev_co_u32_e64 v6, s[10:11], v2, v3, s[12:13]
T v_subbrev_co_u32_sdwa, vcc, v_subbrev_co_u32_sdwa v6, vcc, v2, v3, vcc dst_sel:DWORD src0_sel:BYTE_1 src1_sel:WORD_1
T v_subbrev_co_u32_dpp, vcc, v_subbrev_co_u32_dpp v6, vcc, v2, v3, vcc quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_add_f16_e32, vcc, v_add_f16_e32 v6, v2, v3
T v_add_f16_e64, s[10:11], v_add_f16_e64 v6, -v2, v3
T v_add_f16_sdwa, vcc, v_add_f16_sdwa v6, v2, v3 dst_sel:DWORD src0_sel:WORD_1 src1_sel:WORD_0
T v_add_f16_dpp, vcc, v_add_f16_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_sub_f16_e32, vcc, v_sub_f16_e32 v6, v2, v3
T v_sub_f16_e64, s[10:11], v_sub_f16_e64 v6, v2, |v3|
T v_sub_f16_sdwa, vcc, v_sub_f16_sdwa v6, v2, v3 dst_sel:DWORD src0_sel:WORD_1 src1_sel:WORD_0
T v_sub_f16_dpp, vcc, v_sub_f16_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_subrev_f16_e32, vcc, v_subrev_f16_e32 v6, v2, v3
T v_subrev_f16_e64, s[10:11], v_subrev_f16_e64 v6, -v2, v3
T v_subrev_f16_sdwa, vcc, v_subrev_f16_sdwa v6, v2, v3 dst_sel:DWORD src0_sel:WORD_1 src1_sel:WORD_0
T v_subrev_f16_dpp, vcc, v_subrev_f16_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_mul_f16_e32, vcc, v_mul_f16_e32 v6, v2, v3
T v_mul_f16_e64, s[10:11], v_mul_f16_e64 v6, v2, |v3|
T v_mul_f16_sdwa, vcc, v_mul_f16_sdwa v6, v2, v3 dst_sel:DWORD src0_sel:WORD_1 src1_sel:WORD_0
T v_mul_f16_dpp, vcc, v_mul_f16_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_mac_f16_e32, vcc, v_mac_f16_e32 v6, v2, v3
T v_mac_f16_e64, s[10:11], v_mac_f16_e64 v6, -v2, v3
T v_mac_f16_dpp, vcc, v_mac_f16_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_add_u16_e32, vcc, v_add_u16_e32 v6, v2, v3
T v_add_u16_e64, s[10:11], v_add_u16_e64 v6, v2, v3
T v_add_u16_sdwa, vcc, v_add_u16_sdwa v6, v2, v3 dst_sel:DWORD src0_sel:WORD_1 src1_sel:WORD_0
T v_add_u16_dpp, vcc, v_add_u16_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_sub_u16_e32, vcc, v_sub_u16_e32 v6, v2, v3
T v_sub_u16_e64, s[10:11], v_sub_u16_e64 v6, v2, v3
T v_sub_u16_sdwa, vcc, v_sub_u16_sdwa v6, v2, v3 dst_sel:DWORD src0_sel:WORD_1 src1_sel:WORD_0
T v_sub_u16_dpp, vcc, v_sub_u16_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_subrev_u16_e32, vcc, v_subrev_u16_e32 v6, v2, v3
T v_subrev_u16_e64, s[10:11], v_subrev_u16_e64 v6, v2, v3
T v_subrev_u16_sdwa, vcc, v_subrev_u16_sdwa v6, v2, v3 dst_sel:DWORD src0_sel:WORD_1 src1_sel:WORD_0
T v_subrev_u16_dpp, vcc, v_subrev_u16_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_mul_lo_u16_e32, vcc, v_mul_lo_u16_e32 v6, v2, v3
T v_mul_lo_u16_e64, s[10:11], v_mul_lo_u16_e64 v6, v2, v3
T v_mul_lo_u16_sdwa, vcc, v_mul_lo_u16_sdwa v6, v2, v3 dst_sel:DWORD src0_sel:WORD_1 src1_sel:WORD_0
T v_mul_lo_u16_dpp, vcc, v_mul_lo_u16_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_lshlrev_b16_e32, vcc, v_lshlrev_b16_e32 v6, v2, v3
T v_lshlrev_b16_e64, s[10:11], v_lshlrev_b16_e64 v6, v2, v3
T v_lshlrev_b16_sdwa, vcc, v_lshlrev_b16_sdwa v6, v2, v3 dst_sel:DWORD src0_sel:WORD_1 src1_sel:WORD_0
T v_lshlrev_b16_dpp, vcc, v_lshlrev_b16_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_lshrrev_b16_e32, vcc, v_lshrrev_b16_e32 v6, v2, v3
T v_lshrrev_b16_e64, s[10:11], v_lshrrev_b16_e64 v6, v2, v3
T v_lshrrev_b16_sdwa, vcc, v_lshrrev_b16_sdwa v6, v2, v3 dst_sel:DWORD src0_sel:WORD_1 src1_sel:WORD_0
T v_lshrrev_b16_dpp, vcc, v_lshrrev_b16_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_ashrrev_i16_e32, vcc, v_ashrrev_i16_e32 v6, v2, v3
T v_ashrrev_i16_e64, s[10:11], v_ashrrev_i16_e64 v6, v2, v3
T v_ashrrev_i16_sdwa, vcc, v_ashrrev_i16_sdwa v6, v2, v3 dst_sel:DWORD src0_sel:WORD_1 src1_sel:WORD_0
T v_ashrrev_i16_dpp, vcc, v_ashrrev_i16_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_max_f16_e32, vcc, v_max_f16_e32 v6, v2, v3
T v_max_f16_e64, s[10:11], v_max_f16_e64 v6, -v2, v3
T v_max_f16_sdwa, vcc, v_max_f16_sdwa v6, v2, v3 dst_sel:DWORD src0_sel:WORD_1 src1_sel:WORD_0
T v_max_f16_dpp, vcc, v_max_f16_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_min_f16_e32, vcc, v_min_f16_e32 v6, v2, v3
T v_min_f16_e64, s[10:11], v_min_f16_e64 v6, v2, |v3|
T v_min_f16_sdwa, vcc, v_min_f16_sdwa v6, v2, v3 dst_sel:DWORD src0_sel:WORD_1 src1_sel:WORD_0
T v_min_f16_dpp, vcc, v_min_f16_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_max_u16_e32, vcc, v_max_u16_e32 v6, v2, v3
T v_max_u16_e64, s[10:11], v_max_u16_e64 v6, v2, v3
T v_max_u16_sdwa, vcc, v_max_u16_sdwa v6, v2, v3 dst_sel:DWORD src0_sel:WORD_1 src1_sel:WORD_0
T v_max_u16_dpp, vcc, v_max_u16_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_max_i16_e32, vcc, v_max_i16_e32 v6, v2, v3
T v_max_i16_e64, s[10:11], v_max_i16_e64 v6, v2, v3
T v_max_i16_sdwa, vcc, v_max_i16_sdwa v6, v2, v3 dst_sel:DWORD src0_sel:WORD_1 src1_sel:WORD_0
T v_max_i16_dpp, vcc, v_max_i16_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_min_u16_e32, vcc, v_min_u16_e32 v6, v2, v3
T v_min_u16_e64, s[10:11], v_min_u16_e64 v6, v2, v3
T v_min_u16_sdwa, vcc, v_min_u16_sdwa v6, v2, v3 dst_sel:DWORD src0_sel:WORD_1 src1_sel:WORD_0
T v_min_u16_dpp, vcc, v_min_u16_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_min_i16_e32, vcc, v_min_i16_e32 v6, v2, v3
T v_min_i16_e64, s[10:11], v_min_i16_e64 v6, v2, v3
T v_min_i16_sdwa, vcc, v_min_i16_sdwa v6, v2, v3 dst_sel:DWORD src0_sel:WORD_1 src1_sel:WORD_0
T v_min_i16_dpp, vcc, v_min_i16_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_ldexp_f16_e32, vcc, v_ldexp_f16_e32 v6, v2, v3
T v_ldexp_f16_e64, s[10:11], v_ldexp_f16_e64 v6, v2, v3
T v_ldexp_f16_sdwa, vcc, v_ldexp_f16_sdwa v6, v2, v3 dst_sel:DWORD src0_sel:WORD_1 src1_sel:WORD_0
T v_ldexp_f16_dpp, vcc, v_ldexp_f16_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_add_u32_e32, vcc, v_add_u32_e32 v6, v2, v3
T v_add_u32_e64, s[10:11], v_add_u32_e64 v6, v2, v3
T v_add_u32_sdwa, vcc, v_add_u32_sdwa v6, v2, v3 dst_sel:DWORD src0_sel:BYTE_1 src1_sel:WORD_1
T v_add_u32_dpp, vcc, v_add_u32_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_sub_u32_e32, vcc, v_sub_u32_e32 v6, v2, v3
T v_sub_u32_e64, s[10:11], v_sub_u32_e64 v6, v2, v3
T v_sub_u32_sdwa, vcc, v_sub_u32_sdwa v6, v2, v3 dst_sel:DWORD src0_sel:BYTE_1 src1_sel:WORD_1
T v_sub_u32_dpp, vcc, v_sub_u32_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_subrev_u32_e32, vcc, v_subrev_u32_e32 v6, v2, v3
T v_subrev_u32_e64, s[10:11], v_subrev_u32_e64 v6, v2, v3
T v_subrev_u32_sdwa, vcc, v_subrev_u32_sdwa v6, v2, v3 dst_sel:DWORD src0_sel:BYTE_1 src1_sel:WORD_1
T v_subrev_u32_dpp, vcc, v_subrev_u32_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_dot2c_i32_i16_e32, vcc, v_dot2c_i32_i16_e32 v6, v2, v3
T v_dot2c_i32_i16_e64, s[10:11], .long 0xd1380006, 0x00020702 // v_dot2c_i32_i16_e64 v6, v2, v3 (llvm-mc-14 lacks the e64 form)
T v_dot2c_i32_i16_dpp, vcc, v_dot2c_i32_i16_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_dot4c_i32_i8_e32, vcc, v_dot4c_i32_i8_e32 v6, v2, v3
T v_dot4c_i32_i8_e64, s[10:11], .long 0xd1390006, 0x00020702 // v_dot4c_i32_i8_e64 v6, v2, v3 (llvm-mc-14 lacks the e64 form)
T v_dot4c_i32_i8_dpp, vcc, v_dot4c_i32_i8_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_dot8c_i32_i4_e32, vcc, v_dot8c_i32_i4_e32 v6, v2, v3
T v_dot8c_i32_i4_e64, s[10:11], .long 0xd13a0006, 0x00020702 // v_dot8c_i32_i4_e64 v6, v2, v3 (llvm-mc-14 lacks the e64 form)
T v_dot8c_i32_i4_dpp, vcc, v_dot8c_i32_i4_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_fmac_f32_e32, vcc, v_fmac_f32_e32 v6, v2, v3
T v_fmac_f32_e64, s[10:11], v_fmac_f32_e64 v6, -v2, v3
T v_fmac_f32_dpp, vcc, v_fmac_f32_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T v_xnor_b32_e32, vcc, v_xnor_b32_e32 v6, v2, v3
T v_xnor_b32_e64, s[10:11], v_xnor_b32_e64 v6, v2, v3
T v_xnor_b32_sdwa, vcc, v_xnor_b32_sdwa v6, v2, v3 dst_sel:DWORD src0_sel:BYTE_1 src1_sel:WORD_1
T v_xnor_b32_dpp, vcc, v_xnor_b32_dpp v6, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
