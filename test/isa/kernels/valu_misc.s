// valu_misc.s — one kernel per instruction for test_isa_valu_misc.c
// (gfx90a), in the frame of vop16.s: lane i loads a, b, c, d =
// in[4i .. 4i+3] into v2..v5, the instruction writes v5 (which starts at d),
// v5 is stored at out[i].
.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
.include "kernel.inc"

.include "vop16.inc"

T nop,               3, v_nop
T lerp_u8,           3, v_lerp_u8 v5, v2, v3, v4
T sad_hi_u8,         3, v_sad_hi_u8 v5, v2, v3, v4
T msad_u8,           3, v_msad_u8 v5, v2, v3, v4
T cvt_pk_u8_f32,     3, v_cvt_pk_u8_f32 v5, v2, v3, v4
T cvt_pknorm_i16_f32, 3, v_cvt_pknorm_i16_f32 v5, v2, v3
T cvt_pknorm_u16_f32, 3, v_cvt_pknorm_u16_f32 v5, v2, v3
T sat_pk_u8_i16,     3, v_sat_pk_u8_i16 v5, v2
T cvt_off_f32_i4,    3, v_cvt_off_f32_i4 v5, v2
T frexp_mant_f16,    3, v_frexp_mant_f16 v5, v2
T frexp_exp_i16_f16, 3, v_frexp_exp_i16_f16 v5, v2
T mad_f16,           3, v_mad_f16 v5, v2, v3, v4
T div_fixup_f16,     3, v_div_fixup_f16 v5, v2, v3, v4
T dot2_i32_i16,      3, v_dot2_i32_i16 v5, v2, v3, v4
T dot2_u32_u16_c,    3, v_dot2_u32_u16 v5, v2, v3, v4 clamp
T dot4_i32_i8_c,     3, v_dot4_i32_i8 v5, v2, v3, v4 clamp
T dot4_u32_u8,       3, v_dot4_u32_u8 v5, v2, v3, v4
T dot8_i32_i4,       3, v_dot8_i32_i4 v5, v2, v3, v4
T dot8_u32_u4_c,     3, v_dot8_u32_u4 v5, v2, v3, v4 clamp
T dot2c_i32_i16,     3, v_dot2c_i32_i16 v5, v2, v3
T dot4c_i32_i8,      3, v_dot4c_i32_i8 v5, v2, v3
T dot8c_i32_i4,      3, v_dot8c_i32_i4 v5, v2, v3
T madmk_f32,         3, v_madmk_f32 v5, v2, 0x40400000, v3
T madak_f32,         3, v_madak_f32 v5, v2, v3, 0x3f000000
T madmk_f16,         3, v_madmk_f16 v5, v2, 0x4200, v3
T madak_f16,         3, v_madak_f16 v5, v2, v3, 0xb800
T pk_fmac_f16,       3, v_pk_fmac_f16 v5, v2, v3
T cvt_norm_i16_f16,  3, v_cvt_norm_i16_f16 v5, v2
T cvt_norm_u16_f16,  3, v_cvt_norm_u16_f16 v5, v2
T cvt_pknorm_i16_f16, 3, v_cvt_pknorm_i16_f16 v5, v2, v3 op_sel:[1,0,0]
T cvt_pknorm_u16_f16, 3, v_cvt_pknorm_u16_f16 v5, v2, -v3
