// vfast64.s — kernels for test_isa_vfast64.c (gfx90a): each runs one f64
// or 64-bit integer VALU instruction (the forms isa_exec_vfast64.c
// specialises: VGPR pairs, the SGPR pair s[8:9], an inline constant,
// neg/abs modifiers) or the compiler's whole f64 division or square-root
// refinement sequence (the ones isa_vfast64_fuse fuses).  Lane i loads a, b, c, d =
// in[8i .. 8i+7] (dword pairs) into v[2:3], v[4:5], v[6:7], v[8:9] and
// s[8:9] = b of the wave's first lane; the instruction writes v[8:9]
// (VCC-like results to s[10:11]) once with the whole EXEC and once, v[8:9]
// reset to d, under a partial EXEC whose 4-lane groups are whole, empty
// and mixed.  out[8i .. 8i+7]: whole result, partial result, whole
// s[10:11], partial s[10:11].  The TF forms first clear MODE's f64
// denormal bits (flush in and out): the general executor's case.
.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
.include "kernel.inc"

.include "vfast64.inc"

T add_f64_vv, v_add_f64 v[8:9], v[2:3], v[4:5]
T add_f64_sv, v_add_f64 v[8:9], s[8:9], v[4:5]
T add_f64_kv, v_add_f64 v[8:9], -4.0, v[4:5]
T add_f64_nv, v_add_f64 v[8:9], -v[2:3], |v[4:5]|
TF add_f64_flush, v_add_f64 v[8:9], v[2:3], v[4:5]
T mul_f64_vv, v_mul_f64 v[8:9], v[2:3], v[4:5]
T mul_f64_vs, v_mul_f64 v[8:9], v[2:3], s[8:9]
T mul_f64_vk, v_mul_f64 v[8:9], v[2:3], 0.5
T fma_f64_vvv, v_fma_f64 v[8:9], v[2:3], v[4:5], v[6:7]
T fma_f64_nvk, v_fma_f64 v[8:9], -v[2:3], v[4:5], 1.0
T fma_f64_vsv, v_fma_f64 v[8:9], v[2:3], s[8:9], -|v[6:7]|
TF fma_f64_flush, v_fma_f64 v[8:9], v[2:3], v[4:5], v[6:7]
T fmac_f64_vv, v_fmac_f64 v[8:9], v[2:3], v[4:5]
T fmac_f64_sv, v_fmac_f64 v[8:9], s[8:9], v[4:5]
T rcp_f64_v, v_rcp_f64 v[8:9], v[2:3]
T rcp_f64_n, v_rcp_f64_e64 v[8:9], -v[2:3]
T rsq_f64_v, v_rsq_f64 v[8:9], v[2:3]
T sqrt_f64_v, v_sqrt_f64 v[8:9], v[2:3]
T sqrt_f64_a, v_sqrt_f64_e64 v[8:9], |v[2:3]|
TF sqrt_f64_flush, v_sqrt_f64 v[8:9], v[2:3]
// the compiler's f64 division a / den (LLVM's expansion; clang-14,
// gfx90a); den = b, v[4:5], or the SGPR pair s[8:9] (the fused form's
// broadcast input)
.macro DIV den
  v_div_scale_f64 v[22:23], s[10:11], \den, \den, v[2:3]
  v_rcp_f64 v[24:25], v[22:23]
  v_div_scale_f64 v[26:27], vcc, v[2:3], \den, v[2:3]
  v_fma_f64 v[28:29], -v[22:23], v[24:25], 1.0
  v_fmac_f64 v[24:25], v[24:25], v[28:29]
  v_fma_f64 v[28:29], -v[22:23], v[24:25], 1.0
  v_fmac_f64 v[24:25], v[24:25], v[28:29]
  v_mul_f64 v[28:29], v[26:27], v[24:25]
  v_fma_f64 v[22:23], -v[22:23], v[28:29], v[26:27]
  v_div_fmas_f64 v[22:23], v[22:23], v[24:25], v[28:29]
  v_div_fixup_f64 v[8:9], v[22:23], \den, v[2:3]
.endm
T div_f64, DIV v[4:5]
// the compiler's f64 square-root refinement after v_rsq_f64 (LLVM's
// expansion; clang-19, gfx942): x = a, y = b, the result in v[8:9]
.macro SQRTSEQ
  v_mul_f64 v[8:9], v[2:3], v[4:5]
  v_mul_f64 v[24:25], v[4:5], 0.5
  v_fma_f64 v[26:27], -v[24:25], v[8:9], 0.5
  v_fmac_f64 v[8:9], v[8:9], v[26:27]
  v_fmac_f64 v[24:25], v[24:25], v[26:27]
  v_fma_f64 v[26:27], -v[8:9], v[8:9], v[2:3]
  v_fmac_f64 v[8:9], v[26:27], v[24:25]
  v_fma_f64 v[26:27], -v[8:9], v[8:9], v[2:3]
  v_fmac_f64 v[8:9], v[26:27], v[24:25]
.endm
T sqrt_seq, SQRTSEQ
// the refinement with its fifth step's result in another pair, so the
// last two read the first H (a dataflow isa_vfast64_fuse must not take:
// run one by one)
.macro SQRTX
  v_mul_f64 v[8:9], v[2:3], v[4:5]
  v_mul_f64 v[24:25], v[4:5], 0.5
  v_fma_f64 v[26:27], -v[24:25], v[8:9], 0.5
  v_fmac_f64 v[8:9], v[8:9], v[26:27]
  v_fma_f64 v[28:29], v[24:25], v[26:27], v[24:25]
  v_fma_f64 v[26:27], -v[8:9], v[8:9], v[2:3]
  v_fmac_f64 v[8:9], v[26:27], v[24:25]
  v_fma_f64 v[26:27], -v[8:9], v[8:9], v[2:3]
  v_fmac_f64 v[8:9], v[26:27], v[24:25]
.endm
T sqrt_seq_x, SQRTX
T div_f64_s, DIV s[8:9]
// v_ldexp_f64: exponents within range (S1 = c's low byte, sign-extended),
// a constant, and raw 32-bit c (mostly out of range: the general executor)
.macro LDX
  v_bfe_i32 v6, v6, 0, 8
  v_ldexp_f64 v[8:9], v[2:3], v6
.endm
T ldexp_f64_v8, LDX
T ldexp_f64_k, v_ldexp_f64 v[8:9], v[2:3], -7
T ldexp_f64_vraw, v_ldexp_f64 v[8:9], -v[2:3], v6
// 64-bit shifts: amount from a VGPR (c's low dword: only its low 6 bits
// count), the SGPR s8, a constant
T lshlrev_b64_vv, v_lshlrev_b64 v[8:9], v6, v[2:3]
T lshlrev_b64_sv, v_lshlrev_b64 v[8:9], s8, v[2:3]
T lshlrev_b64_kv, v_lshlrev_b64 v[8:9], 3, v[2:3]
T lshlrev_b64_vs, v_lshlrev_b64 v[8:9], v6, s[8:9]
T lshrrev_b64_vv, v_lshrrev_b64 v[8:9], v6, v[2:3]
T lshrrev_b64_kv, v_lshrrev_b64 v[8:9], 35, v[2:3]
T ashrrev_i64_vv, v_ashrrev_i64 v[8:9], v6, v[2:3]
T ashrrev_i64_kv, v_ashrrev_i64 v[8:9], 37, v[2:3]
T ashrrev_i64_sv, v_ashrrev_i64 v[8:9], s8, v[2:3]
// conversions of a scalar (s8) or a constant: one value for every lane
T cvt_f64_u32_s, v_cvt_f64_u32 v[8:9], s8
T cvt_f64_u32_k, v_cvt_f64_u32_e64 v[8:9], -7
T cvt_f64_i32_s, v_cvt_f64_i32 v[8:9], s8
T cvt_f64_i32_k, v_cvt_f64_i32_e64 v[8:9], -7
// one division helper alone, its VCC-like result in s[10:11]
T div_scale_den, v_div_scale_f64 v[8:9], s[10:11], v[4:5], v[4:5], v[2:3]
T div_scale_num, v_div_scale_f64 v[8:9], s[10:11], v[2:3], v[4:5], v[2:3]
T div_fixup_vvv, v_div_fixup_f64 v[8:9], v[6:7], v[4:5], v[2:3]
