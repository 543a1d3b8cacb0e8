// vop16.s — one kernel per instruction form for test_isa_vop16.c (gfx90a):
// the VOP3P packed 16-bit integer ops, v_fma_mix*, and the VOP3 16-bit
// min3/max3/med3.  Kernarg: {const uint32_t *in, uint32_t *out}; work-item
// i (one workgroup of 256) loads a, b, c, d = in[4i .. 4i+3] into v2..v5,
// so the destination v5 starts at d (mixlo/mixhi and OP_SEL[3] keep half of
// it), runs the instruction and stores v5 at out[i].  The _s forms take source b
// from lane 0 of the wave through an SGPR; the _k forms use inline
// constants; the _ftz forms run with MODE.FP_DENORM = 0 for every type.
.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
.include "kernel.inc"

.include "vop16.inc"

// packed 16-bit integer ops
T pk_mad_i16,        3, v_pk_mad_i16 v5, v2, v3, v4
T pk_mad_i16_c,      3, v_pk_mad_i16 v5, v2, v3, v4 clamp
T pk_mul_lo_u16,     3, v_pk_mul_lo_u16 v5, v2, v3 op_sel:[1,0] op_sel_hi:[0,1]
T pk_add_i16,        3, v_pk_add_i16 v5, v2, v3
T pk_add_i16_c,      3, v_pk_add_i16 v5, v2, v3 clamp
T pk_sub_i16_c,      3, v_pk_sub_i16 v5, v2, v3 op_sel:[0,1] clamp
T pk_lshlrev_b16,    3, v_pk_lshlrev_b16 v5, v2, v3
T pk_lshrrev_b16,    3, v_pk_lshrrev_b16 v5, v2, v3 op_sel_hi:[0,1]
T pk_ashrrev_i16,    3, v_pk_ashrrev_i16 v5, v2, v3
T pk_max_i16,        3, v_pk_max_i16 v5, v2, v3
T pk_min_i16,        3, v_pk_min_i16 v5, v2, v3 op_sel:[1,1] op_sel_hi:[0,0]
T pk_mad_u16,        3, v_pk_mad_u16 v5, v2, v3, v4 op_sel:[0,1,1]
T pk_mad_u16_c,      3, v_pk_mad_u16 v5, v2, v3, v4 clamp
T pk_add_u16,        3, v_pk_add_u16 v5, v2, v3
T pk_add_u16_c,      3, v_pk_add_u16 v5, v2, v3 op_sel:[1,0] clamp
T pk_add_u16_s,      3, v_pk_add_u16 v5, v2, s8
T pk_add_u16_k,      3, v_pk_add_u16 v5, v2, 1
T pk_sub_u16,        3, v_pk_sub_u16 v5, v2, v3
T pk_sub_u16_c,      3, v_pk_sub_u16 v5, v2, v3 clamp
T pk_max_u16,        3, v_pk_max_u16 v5, v2, v3
T pk_min_u16,        3, v_pk_min_u16 v5, v2, v3 op_sel_hi:[1,0]

// mixed precision
T fma_mix_f32,       3, v_fma_mix_f32 v5, v2, v3, v4
T fma_mix_f32_h,     3, v_fma_mix_f32 v5, v2, v3, v4 op_sel:[1,0,1] op_sel_hi:[1,1,1]
T fma_mix_f32_m,     3, v_fma_mix_f32 v5, -v2, |v3|, -|v4| op_sel:[0,1,0] op_sel_hi:[1,0,1]
T fma_mix_f32_c,     3, v_fma_mix_f32 v5, v2, v3, v4 op_sel_hi:[1,1,0] clamp
T fma_mix_f32_ftz,   0, v_fma_mix_f32 v5, v2, v3, v4 op_sel_hi:[1,0,1]
T fma_mix_f32_k,     3, v_fma_mix_f32 v5, v2, 1.0, v4 op_sel_hi:[1,1,1]
T fma_mixlo_f16,     3, v_fma_mixlo_f16 v5, v2, v3, v4 op_sel_hi:[1,1,1]
T fma_mixlo_f16_f32, 3, v_fma_mixlo_f16 v5, v2, v3, v4
T fma_mixlo_f16_m,   3, v_fma_mixlo_f16 v5, -|v2|, v3, -v4 op_sel:[1,1,0] op_sel_hi:[1,1,0] clamp
T fma_mixlo_f16_ftz, 0, v_fma_mixlo_f16 v5, v2, v3, v4 op_sel_hi:[1,1,1]
T fma_mixlo_f16_s,   3, v_fma_mixlo_f16 v5, v2, s8, v4 op_sel_hi:[1,1,1]
T fma_mixhi_f16,     3, v_fma_mixhi_f16 v5, v2, v3, v4 op_sel:[0,0,1] op_sel_hi:[1,1,1]
T fma_mixhi_f16_f32, 3, v_fma_mixhi_f16 v5, v2, v3, v4 op_sel_hi:[0,1,0] clamp

// VOP3 16-bit min3/max3/med3
T min3_i16,          3, v_min3_i16 v5, v2, v3, v4
T min3_i16_h,        3, v_min3_i16 v5, v2, v3, v4 op_sel:[1,0,1,1]
T min3_i16_k,        3, v_min3_i16 v5, v2, -1, 5
T min3_u16,          3, v_min3_u16 v5, v2, v3, v4 op_sel:[0,1,0,0]
T max3_i16,          3, v_max3_i16 v5, v2, v3, v4
T max3_u16,          3, v_max3_u16 v5, v2, v3, v4 op_sel:[1,1,1,1]
T med3_i16,          3, v_med3_i16 v5, v2, v3, v4
T med3_i16_s,        3, v_med3_i16 v5, v2, s8, v4 op_sel:[0,0,1,0]
T med3_u16,          3, v_med3_u16 v5, v2, v3, v4
T min3_f16,          3, v_min3_f16 v5, v2, v3, v4
T max3_f16,          3, v_max3_f16 v5, v2, v3, v4 op_sel:[1,0,0,1]
T med3_f16,          3, v_med3_f16 v5, v2, v3, v4
T med3_f16_m,        3, v_med3_f16 v5, -v2, |v3|, v4 op_sel:[0,1,1,0] clamp
T med3_f16_ftz,      0, v_med3_f16 v5, v2, v3, v4
