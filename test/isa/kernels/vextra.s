// vextra.s — one kernel per instruction form for test_isa_vextra.c (gfx90a): the
// legacy, cube, quad-SAD, pkaccum, f16-dot forms.  GENERATED with the
// form table of test_isa_vextra.c.  Kernarg {const uint32_t *in, uint32_t
// *out}; work-item i (one workgroup of 256) loads its 12-dword record
// in[12i ..] into v[2:13], runs the instruction (destination v6, v[6:7]
// or v[6:9], so D starts as record dwords 4-7) and stores v[6:9] at
// out[4i ..].  Denormals are kept (FP_DENORM 3) unless a form says _ftz.
.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
.include "kernel.inc"

.include "vextra.inc"

T exp_legacy, 3, v_exp_legacy_f32 v6, v2
T exp_legacy_e64, 3, v_exp_legacy_f32_e64 v6, -v2 mul:2
T exp_legacy_sdwa, 3, v_exp_legacy_f32_sdwa v6, v2 dst_sel:DWORD src0_sel:DWORD
T exp_legacy_dpp, 3, v_exp_legacy_f32_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T log_legacy, 3, v_log_legacy_f32 v6, v2
T log_legacy_e64, 3, v_log_legacy_f32_e64 v6, |v2| clamp
T log_legacy_sdwa, 3, v_log_legacy_f32_sdwa v6, v2 dst_sel:DWORD src0_sel:DWORD
T log_legacy_dpp, 3, v_log_legacy_f32_dpp v6, v2 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:0
T mad_legacy_f16, 3, v_mad_legacy_f16 v6, v2, v3, v4
T mad_legacy_f16_m, 3, v_mad_legacy_f16 v6, -v2, |v3|, v4
T fma_legacy_f16, 3, v_fma_legacy_f16 v6, v2, v3, v4
T div_fixup_legacy_f16, 3, v_div_fixup_legacy_f16 v6, v2, v3, v4
T mad_legacy_u16, 3, v_mad_legacy_u16 v6, v2, v3, v4
T mad_legacy_u16_c, 3, v_mad_legacy_u16 v6, v2, v3, v4 clamp
T mad_legacy_i16, 3, v_mad_legacy_i16 v6, v2, v3, v4
T mad_legacy_i16_c, 3, v_mad_legacy_i16 v6, v2, v3, v4 clamp
T cubeid, 3, v_cubeid_f32 v6, v2, v3, v4
T cubesc, 3, v_cubesc_f32 v6, v2, v3, v4
T cubetc, 3, v_cubetc_f32 v6, v2, v3, v4
T cubema, 3, v_cubema_f32 v6, v2, v3, v4
T cubesc_m, 3, v_cubesc_f32 v6, -v2, |v3|, -|v4|
T cubema_o, 3, v_cubema_f32 v6, v2, v3, v4 div:2
T qsad, 3, v_qsad_pk_u16_u8 v[6:7], v[2:3], v4, v[10:11]
T qsad_c, 3, v_qsad_pk_u16_u8 v[6:7], v[2:3], v4, v[10:11] clamp
T mqsad_pk, 3, v_mqsad_pk_u16_u8 v[6:7], v[2:3], v4, v[10:11]
T mqsad_u32, 3, v_mqsad_u32_u8 v[6:9], v[2:3], v4, v[10:13]
T pkaccum, 3, v_cvt_pkaccum_u8_f32 v6, v2, v3
T dot2c, 3, v_dot2c_f32_f16 v6, v2, v3
T dot2c_e64, 3, .long 0xd1370006, 0x00020702 // v_dot2c_f32_f16_e64 v6, v2, v3 (llvm-mc-14 lacks the e64 form)
T dot2c_dpp, 3, v_dot2c_f32_f16_dpp v6, v2, v3 quad_perm:[3,2,1,0] row_mask:0xf bank_mask:0xf
T dot2, 3, v_dot2_f32_f16 v6, v2, v3, v4
T dot2_neg, 3, v_dot2_f32_f16 v6, v2, v3, v4 neg_lo:[1,0,1] neg_hi:[0,1,0]
T dot2_c, 3, v_dot2_f32_f16 v6, v2, v3, v4 clamp
