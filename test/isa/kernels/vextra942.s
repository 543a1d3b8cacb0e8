// vextra942.s — one kernel per instruction form for test_isa_vextra.c (gfx942): the
// legacy, cube, quad-SAD, pkaccum, f16-dot and fp8/bf8 conversion forms.  GENERATED with the
// form table of test_isa_vextra.c.  Kernarg {const uint32_t *in, uint32_t
// *out}; work-item i (one workgroup of 256) loads its 12-dword record
// in[12i ..] into v[2:13], runs the instruction (destination v6, v[6:7]
// or v[6:9], so D starts as record dwords 4-7) and stores v[6:9] at
// out[4i ..].  Denormals are kept (FP_DENORM 3) unless a form says _ftz.
.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
.include "kernel.inc"

.include "vextra.inc"

T cvt_f32_fp8, 3, v_cvt_f32_fp8 v6, v2
T cvt_f32_fp8_e64, 3, v_cvt_f32_fp8_e64 v6, v2
T cvt_f32_fp8_sdwa, 3, v_cvt_f32_fp8_sdwa v6, v2 src0_sel:BYTE_3
T cvt_f32_fp8_dpp, 3, v_cvt_f32_fp8_dpp v6, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
T cvt_f32_bf8, 3, v_cvt_f32_bf8 v6, v2
T cvt_f32_bf8_e64, 3, v_cvt_f32_bf8_e64 v6, v2
T cvt_f32_bf8_sdwa, 3, v_cvt_f32_bf8_sdwa v6, v2 src0_sel:BYTE_1
T cvt_f32_bf8_dpp, 3, v_cvt_f32_bf8_dpp v6, v2 row_shl:1 row_mask:0xf bank_mask:0xf bound_ctrl:0
T cvt_pk_f32_fp8, 3, v_cvt_pk_f32_fp8 v[6:7], v2
T cvt_pk_f32_fp8_e64, 3, v_cvt_pk_f32_fp8_e64 v[6:7], v2
T cvt_pk_f32_fp8_sdwa, 3, v_cvt_pk_f32_fp8_sdwa v[6:7], v2 src0_sel:WORD_1
T cvt_pk_f32_fp8_dpp, 3, v_cvt_pk_f32_fp8_dpp v[6:7], v2 row_newbcast:1 row_mask:0xf bank_mask:0xf
T cvt_pk_f32_bf8, 3, v_cvt_pk_f32_bf8 v[6:7], v2
T cvt_pk_f32_bf8_e64, 3, v_cvt_pk_f32_bf8_e64 v[6:7], v2
T cvt_pk_f32_bf8_sdwa, 3, v_cvt_pk_f32_bf8_sdwa v[6:7], v2 src0_sel:WORD_1
T cvt_pk_f32_bf8_dpp, 3, v_cvt_pk_f32_bf8_dpp v[6:7], v2 row_newbcast:1 row_mask:0xf bank_mask:0xf
T cvt_pk_fp8_f32, 3, v_cvt_pk_fp8_f32 v6, v2, v3
T cvt_pk_fp8_f32_hi, 3, v_cvt_pk_fp8_f32 v6, -v2, |v3| op_sel:[0,0,1]
T cvt_pk_bf8_f32, 3, v_cvt_pk_bf8_f32 v6, v2, v3
T cvt_pk_bf8_f32_hi, 3, v_cvt_pk_bf8_f32 v6, v2, v3 op_sel:[0,0,1]
T cvt_sr_fp8_f32, 3, v_cvt_sr_fp8_f32 v6, v2, v3
T cvt_sr_fp8_f32_b3, 3, v_cvt_sr_fp8_f32 v6, v2, v3 op_sel:[0,0,1,1]
T cvt_sr_bf8_f32, 3, v_cvt_sr_bf8_f32 v6, v2, v3
T cvt_sr_bf8_f32_b2, 3, v_cvt_sr_bf8_f32 v6, -v2, v3 op_sel:[0,0,0,1]
T dot2c942, 3, v_dot2c_f32_f16 v6, v2, v3
T dot2_942, 3, v_dot2_f32_f16 v6, v2, v3, v4 neg_lo:[0,1,1] neg_hi:[1,0,0] clamp
T exp_legacy942, 3, v_exp_legacy_f32 v6, v2
T log_legacy942, 3, v_log_legacy_f32_e64 v6, v2
T cubeid942, 3, v_cubeid_f32 v6, v2, v3, v4
T qsad942, 3, v_mqsad_pk_u16_u8 v[6:7], v[2:3], v4, v[10:11]
T mov_b64_e64, 3, v_mov_b64_e64 v[6:7], v[2:3]
T mov_b64_dpp, 3, v_mov_b64_dpp v[6:7], v[2:3] row_newbcast:1 row_mask:0xf bank_mask:0xf
