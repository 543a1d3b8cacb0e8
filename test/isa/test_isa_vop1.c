/*
 * test_isa_vop1.c — the VOP1 operations against a host model, each in the
 * forms LLVM decodes for gfx90a: e32, e64 (NEG or ABS on a float source),
 * SDWA (SRC0_SEL WORD_1 for the 16-bit sources, BYTE_2 for integer ones)
 * and DPP (quad_perm [1,0,3,2]; row_newbcast:1 for the 64-bit ones).
 * kernels/vop1.s holds one kernel per row of the table below (both
 * generated from emu/isa/isa_table.tsv's rows); each runs one wave on
 * generated sources and compares every lane's D (two dwords: a 32-bit or
 * 16-bit result leaves the second one alone).
 *
 * The model is written from the ISA's definitions with the host's libm,
 * _Float16 and integer arithmetic: conversions to integers truncate
 * (cvt_rpi: floor(x + 0.5), cvt_flr: floor) and saturate, NaN giving 0;
 * int->float round to nearest even; 16-bit results are zero-extended
 * (gfx9); ffbh/ffbl give -1 for no bit; fract is x - floor(x) kept below
 * 1; frexp as C's.  Transcendental ops (exp, log, rcp, rsq, sqrt, sin,
 * cos) are approximate on the hardware, so their inputs are the ones
 * with exact results (powers of two, exact squares, quarter turns,
 * signed zeros but not sin(-0), infinities, negatives for NaN), where
 * every correct implementation agrees.  A NaN result must be a NaN (payloads are not
 * compared).  Denormals are kept (the kernels set FP_DENORM = 3).
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hl_check.h"
#include "isa_harness.h"
#include "isa_forms.h"

struct v1form {
	const char *name;
	unsigned op;            /* VOP1 opcode */
	int enc;                /* 0 e32, 1 e64, 2 SDWA, 3 DPP */
	int mod;                /* e64: 1 NEG, 2 ABS; SDWA: 1 WORD_1, 2 BYTE_2; DPP: 1 row_newbcast */
};

static const struct v1form v1forms[] = {
	{ "v_mov_b32_e32", 0x01, 0, 0 },
	{ "v_mov_b32_e64", 0x01, 1, 0 },
	{ "v_mov_b32_sdwa", 0x01, 2, 2 },
	{ "v_mov_b32_dpp", 0x01, 3, 0 },
	{ "v_cvt_i32_f64_e32", 0x03, 0, 0 },
	{ "v_cvt_i32_f64_e64", 0x03, 1, 1 },
	{ "v_cvt_i32_f64_dpp", 0x03, 3, 1 },
	{ "v_cvt_f64_i32_e32", 0x04, 0, 0 },
	{ "v_cvt_f64_i32_e64", 0x04, 1, 0 },
	{ "v_cvt_f64_i32_dpp", 0x04, 3, 1 },
	{ "v_cvt_f32_i32_e32", 0x05, 0, 0 },
	{ "v_cvt_f32_i32_e64", 0x05, 1, 0 },
	{ "v_cvt_f32_i32_sdwa", 0x05, 2, 2 },
	{ "v_cvt_f32_i32_dpp", 0x05, 3, 0 },
	{ "v_cvt_f32_u32_e32", 0x06, 0, 0 },
	{ "v_cvt_f32_u32_e64", 0x06, 1, 0 },
	{ "v_cvt_f32_u32_sdwa", 0x06, 2, 2 },
	{ "v_cvt_f32_u32_dpp", 0x06, 3, 0 },
	{ "v_cvt_u32_f32_e32", 0x07, 0, 0 },
	{ "v_cvt_u32_f32_e64", 0x07, 1, 1 },
	{ "v_cvt_u32_f32_sdwa", 0x07, 2, 0 },
	{ "v_cvt_u32_f32_dpp", 0x07, 3, 0 },
	{ "v_cvt_i32_f32_e32", 0x08, 0, 0 },
	{ "v_cvt_i32_f32_e64", 0x08, 1, 2 },
	{ "v_cvt_i32_f32_sdwa", 0x08, 2, 0 },
	{ "v_cvt_i32_f32_dpp", 0x08, 3, 0 },
	{ "v_cvt_f16_f32_e32", 0x0a, 0, 0 },
	{ "v_cvt_f16_f32_e64", 0x0a, 1, 2 },
	{ "v_cvt_f16_f32_sdwa", 0x0a, 2, 0 },
	{ "v_cvt_f16_f32_dpp", 0x0a, 3, 0 },
	{ "v_cvt_f32_f16_e32", 0x0b, 0, 0 },
	{ "v_cvt_f32_f16_e64", 0x0b, 1, 1 },
	{ "v_cvt_f32_f16_sdwa", 0x0b, 2, 1 },
	{ "v_cvt_f32_f16_dpp", 0x0b, 3, 0 },
	{ "v_cvt_rpi_i32_f32_e32", 0x0c, 0, 0 },
	{ "v_cvt_rpi_i32_f32_e64", 0x0c, 1, 2 },
	{ "v_cvt_rpi_i32_f32_sdwa", 0x0c, 2, 0 },
	{ "v_cvt_rpi_i32_f32_dpp", 0x0c, 3, 0 },
	{ "v_cvt_flr_i32_f32_e32", 0x0d, 0, 0 },
	{ "v_cvt_flr_i32_f32_e64", 0x0d, 1, 1 },
	{ "v_cvt_flr_i32_f32_sdwa", 0x0d, 2, 0 },
	{ "v_cvt_flr_i32_f32_dpp", 0x0d, 3, 0 },
	{ "v_cvt_off_f32_i4_e32", 0x0e, 0, 0 },
	{ "v_cvt_off_f32_i4_e64", 0x0e, 1, 0 },
	{ "v_cvt_off_f32_i4_sdwa", 0x0e, 2, 2 },
	{ "v_cvt_off_f32_i4_dpp", 0x0e, 3, 0 },
	{ "v_cvt_f32_f64_e32", 0x0f, 0, 0 },
	{ "v_cvt_f32_f64_e64", 0x0f, 1, 1 },
	{ "v_cvt_f32_f64_dpp", 0x0f, 3, 1 },
	{ "v_cvt_f64_f32_e32", 0x10, 0, 0 },
	{ "v_cvt_f64_f32_e64", 0x10, 1, 2 },
	{ "v_cvt_f64_f32_dpp", 0x10, 3, 1 },
	{ "v_cvt_f32_ubyte0_e32", 0x11, 0, 0 },
	{ "v_cvt_f32_ubyte0_e64", 0x11, 1, 0 },
	{ "v_cvt_f32_ubyte0_sdwa", 0x11, 2, 2 },
	{ "v_cvt_f32_ubyte0_dpp", 0x11, 3, 0 },
	{ "v_cvt_f32_ubyte1_e32", 0x12, 0, 0 },
	{ "v_cvt_f32_ubyte1_e64", 0x12, 1, 0 },
	{ "v_cvt_f32_ubyte1_sdwa", 0x12, 2, 2 },
	{ "v_cvt_f32_ubyte1_dpp", 0x12, 3, 0 },
	{ "v_cvt_f32_ubyte2_e32", 0x13, 0, 0 },
	{ "v_cvt_f32_ubyte2_e64", 0x13, 1, 0 },
	{ "v_cvt_f32_ubyte2_sdwa", 0x13, 2, 2 },
	{ "v_cvt_f32_ubyte2_dpp", 0x13, 3, 0 },
	{ "v_cvt_f32_ubyte3_e32", 0x14, 0, 0 },
	{ "v_cvt_f32_ubyte3_e64", 0x14, 1, 0 },
	{ "v_cvt_f32_ubyte3_sdwa", 0x14, 2, 2 },
	{ "v_cvt_f32_ubyte3_dpp", 0x14, 3, 0 },
	{ "v_cvt_u32_f64_e32", 0x15, 0, 0 },
	{ "v_cvt_u32_f64_e64", 0x15, 1, 1 },
	{ "v_cvt_u32_f64_dpp", 0x15, 3, 1 },
	{ "v_cvt_f64_u32_e32", 0x16, 0, 0 },
	{ "v_cvt_f64_u32_e64", 0x16, 1, 0 },
	{ "v_cvt_f64_u32_dpp", 0x16, 3, 1 },
	{ "v_trunc_f64_e32", 0x17, 0, 0 },
	{ "v_trunc_f64_e64", 0x17, 1, 1 },
	{ "v_trunc_f64_dpp", 0x17, 3, 1 },
	{ "v_ceil_f64_e32", 0x18, 0, 0 },
	{ "v_ceil_f64_e64", 0x18, 1, 2 },
	{ "v_ceil_f64_dpp", 0x18, 3, 1 },
	{ "v_rndne_f64_e32", 0x19, 0, 0 },
	{ "v_rndne_f64_e64", 0x19, 1, 1 },
	{ "v_rndne_f64_dpp", 0x19, 3, 1 },
	{ "v_floor_f64_e32", 0x1a, 0, 0 },
	{ "v_floor_f64_e64", 0x1a, 1, 2 },
	{ "v_floor_f64_dpp", 0x1a, 3, 1 },
	{ "v_fract_f32_e32", 0x1b, 0, 0 },
	{ "v_fract_f32_e64", 0x1b, 1, 1 },
	{ "v_fract_f32_sdwa", 0x1b, 2, 0 },
	{ "v_fract_f32_dpp", 0x1b, 3, 0 },
	{ "v_trunc_f32_e32", 0x1c, 0, 0 },
	{ "v_trunc_f32_e64", 0x1c, 1, 2 },
	{ "v_trunc_f32_sdwa", 0x1c, 2, 0 },
	{ "v_trunc_f32_dpp", 0x1c, 3, 0 },
	{ "v_ceil_f32_e32", 0x1d, 0, 0 },
	{ "v_ceil_f32_e64", 0x1d, 1, 1 },
	{ "v_ceil_f32_sdwa", 0x1d, 2, 0 },
	{ "v_ceil_f32_dpp", 0x1d, 3, 0 },
	{ "v_rndne_f32_e32", 0x1e, 0, 0 },
	{ "v_rndne_f32_e64", 0x1e, 1, 2 },
	{ "v_rndne_f32_sdwa", 0x1e, 2, 0 },
	{ "v_rndne_f32_dpp", 0x1e, 3, 0 },
	{ "v_floor_f32_e32", 0x1f, 0, 0 },
	{ "v_floor_f32_e64", 0x1f, 1, 1 },
	{ "v_floor_f32_sdwa", 0x1f, 2, 0 },
	{ "v_floor_f32_dpp", 0x1f, 3, 0 },
	{ "v_exp_f32_e32", 0x20, 0, 0 },
	{ "v_exp_f32_e64", 0x20, 1, 2 },
	{ "v_exp_f32_sdwa", 0x20, 2, 0 },
	{ "v_exp_f32_dpp", 0x20, 3, 0 },
	{ "v_log_f32_e32", 0x21, 0, 0 },
	{ "v_log_f32_e64", 0x21, 1, 1 },
	{ "v_log_f32_sdwa", 0x21, 2, 0 },
	{ "v_log_f32_dpp", 0x21, 3, 0 },
	{ "v_rcp_f32_e32", 0x22, 0, 0 },
	{ "v_rcp_f32_e64", 0x22, 1, 2 },
	{ "v_rcp_f32_sdwa", 0x22, 2, 0 },
	{ "v_rcp_f32_dpp", 0x22, 3, 0 },
	{ "v_rcp_iflag_f32_e32", 0x23, 0, 0 },
	{ "v_rcp_iflag_f32_e64", 0x23, 1, 1 },
	{ "v_rcp_iflag_f32_sdwa", 0x23, 2, 0 },
	{ "v_rcp_iflag_f32_dpp", 0x23, 3, 0 },
	{ "v_rsq_f32_e32", 0x24, 0, 0 },
	{ "v_rsq_f32_e64", 0x24, 1, 2 },
	{ "v_rsq_f32_sdwa", 0x24, 2, 0 },
	{ "v_rsq_f32_dpp", 0x24, 3, 0 },
	{ "v_rcp_f64_e32", 0x25, 0, 0 },
	{ "v_rcp_f64_e64", 0x25, 1, 1 },
	{ "v_rcp_f64_dpp", 0x25, 3, 1 },
	{ "v_rsq_f64_e32", 0x26, 0, 0 },
	{ "v_rsq_f64_e64", 0x26, 1, 2 },
	{ "v_rsq_f64_dpp", 0x26, 3, 1 },
	{ "v_sqrt_f32_e32", 0x27, 0, 0 },
	{ "v_sqrt_f32_e64", 0x27, 1, 1 },
	{ "v_sqrt_f32_sdwa", 0x27, 2, 0 },
	{ "v_sqrt_f32_dpp", 0x27, 3, 0 },
	{ "v_sqrt_f64_e32", 0x28, 0, 0 },
	{ "v_sqrt_f64_e64", 0x28, 1, 2 },
	{ "v_sqrt_f64_dpp", 0x28, 3, 1 },
	{ "v_sin_f32_e32", 0x29, 0, 0 },
	{ "v_sin_f32_e64", 0x29, 1, 1 },
	{ "v_sin_f32_sdwa", 0x29, 2, 0 },
	{ "v_sin_f32_dpp", 0x29, 3, 0 },
	{ "v_cos_f32_e32", 0x2a, 0, 0 },
	{ "v_cos_f32_e64", 0x2a, 1, 2 },
	{ "v_cos_f32_sdwa", 0x2a, 2, 0 },
	{ "v_cos_f32_dpp", 0x2a, 3, 0 },
	{ "v_not_b32_e32", 0x2b, 0, 0 },
	{ "v_not_b32_e64", 0x2b, 1, 0 },
	{ "v_not_b32_sdwa", 0x2b, 2, 2 },
	{ "v_not_b32_dpp", 0x2b, 3, 0 },
	{ "v_bfrev_b32_e32", 0x2c, 0, 0 },
	{ "v_bfrev_b32_e64", 0x2c, 1, 0 },
	{ "v_bfrev_b32_sdwa", 0x2c, 2, 2 },
	{ "v_bfrev_b32_dpp", 0x2c, 3, 0 },
	{ "v_ffbh_u32_e32", 0x2d, 0, 0 },
	{ "v_ffbh_u32_e64", 0x2d, 1, 0 },
	{ "v_ffbh_u32_sdwa", 0x2d, 2, 2 },
	{ "v_ffbh_u32_dpp", 0x2d, 3, 0 },
	{ "v_ffbl_b32_e32", 0x2e, 0, 0 },
	{ "v_ffbl_b32_e64", 0x2e, 1, 0 },
	{ "v_ffbl_b32_sdwa", 0x2e, 2, 2 },
	{ "v_ffbl_b32_dpp", 0x2e, 3, 0 },
	{ "v_ffbh_i32_e32", 0x2f, 0, 0 },
	{ "v_ffbh_i32_e64", 0x2f, 1, 0 },
	{ "v_ffbh_i32_sdwa", 0x2f, 2, 2 },
	{ "v_ffbh_i32_dpp", 0x2f, 3, 0 },
	{ "v_frexp_exp_i32_f64_e32", 0x30, 0, 0 },
	{ "v_frexp_exp_i32_f64_e64", 0x30, 1, 2 },
	{ "v_frexp_exp_i32_f64_dpp", 0x30, 3, 1 },
	{ "v_frexp_mant_f64_e32", 0x31, 0, 0 },
	{ "v_frexp_mant_f64_e64", 0x31, 1, 1 },
	{ "v_frexp_mant_f64_dpp", 0x31, 3, 1 },
	{ "v_fract_f64_e32", 0x32, 0, 0 },
	{ "v_fract_f64_e64", 0x32, 1, 2 },
	{ "v_fract_f64_dpp", 0x32, 3, 1 },
	{ "v_frexp_exp_i32_f32_e32", 0x33, 0, 0 },
	{ "v_frexp_exp_i32_f32_e64", 0x33, 1, 1 },
	{ "v_frexp_exp_i32_f32_sdwa", 0x33, 2, 0 },
	{ "v_frexp_exp_i32_f32_dpp", 0x33, 3, 0 },
	{ "v_frexp_mant_f32_e32", 0x34, 0, 0 },
	{ "v_frexp_mant_f32_e64", 0x34, 1, 2 },
	{ "v_frexp_mant_f32_sdwa", 0x34, 2, 0 },
	{ "v_frexp_mant_f32_dpp", 0x34, 3, 0 },
	{ "v_cvt_f16_u16_e32", 0x39, 0, 0 },
	{ "v_cvt_f16_u16_e64", 0x39, 1, 0 },
	{ "v_cvt_f16_u16_sdwa", 0x39, 2, 1 },
	{ "v_cvt_f16_u16_dpp", 0x39, 3, 0 },
	{ "v_cvt_f16_i16_e32", 0x3a, 0, 0 },
	{ "v_cvt_f16_i16_e64", 0x3a, 1, 0 },
	{ "v_cvt_f16_i16_sdwa", 0x3a, 2, 1 },
	{ "v_cvt_f16_i16_dpp", 0x3a, 3, 0 },
	{ "v_cvt_u16_f16_e32", 0x3b, 0, 0 },
	{ "v_cvt_u16_f16_e64", 0x3b, 1, 1 },
	{ "v_cvt_u16_f16_sdwa", 0x3b, 2, 1 },
	{ "v_cvt_u16_f16_dpp", 0x3b, 3, 0 },
	{ "v_cvt_i16_f16_e32", 0x3c, 0, 0 },
	{ "v_cvt_i16_f16_e64", 0x3c, 1, 2 },
	{ "v_cvt_i16_f16_sdwa", 0x3c, 2, 1 },
	{ "v_cvt_i16_f16_dpp", 0x3c, 3, 0 },
	{ "v_rcp_f16_e32", 0x3d, 0, 0 },
	{ "v_rcp_f16_e64", 0x3d, 1, 1 },
	{ "v_rcp_f16_sdwa", 0x3d, 2, 1 },
	{ "v_rcp_f16_dpp", 0x3d, 3, 0 },
	{ "v_sqrt_f16_e32", 0x3e, 0, 0 },
	{ "v_sqrt_f16_e64", 0x3e, 1, 2 },
	{ "v_sqrt_f16_sdwa", 0x3e, 2, 1 },
	{ "v_sqrt_f16_dpp", 0x3e, 3, 0 },
	{ "v_rsq_f16_e32", 0x3f, 0, 0 },
	{ "v_rsq_f16_e64", 0x3f, 1, 1 },
	{ "v_rsq_f16_sdwa", 0x3f, 2, 1 },
	{ "v_rsq_f16_dpp", 0x3f, 3, 0 },
	{ "v_log_f16_e32", 0x40, 0, 0 },
	{ "v_log_f16_e64", 0x40, 1, 2 },
	{ "v_log_f16_sdwa", 0x40, 2, 1 },
	{ "v_log_f16_dpp", 0x40, 3, 0 },
	{ "v_exp_f16_e32", 0x41, 0, 0 },
	{ "v_exp_f16_e64", 0x41, 1, 1 },
	{ "v_exp_f16_sdwa", 0x41, 2, 1 },
	{ "v_exp_f16_dpp", 0x41, 3, 0 },
	{ "v_frexp_mant_f16_e32", 0x42, 0, 0 },
	{ "v_frexp_mant_f16_e64", 0x42, 1, 2 },
	{ "v_frexp_mant_f16_sdwa", 0x42, 2, 1 },
	{ "v_frexp_mant_f16_dpp", 0x42, 3, 0 },
	{ "v_frexp_exp_i16_f16_e32", 0x43, 0, 0 },
	{ "v_frexp_exp_i16_f16_e64", 0x43, 1, 1 },
	{ "v_frexp_exp_i16_f16_sdwa", 0x43, 2, 1 },
	{ "v_frexp_exp_i16_f16_dpp", 0x43, 3, 0 },
	{ "v_floor_f16_e32", 0x44, 0, 0 },
	{ "v_floor_f16_e64", 0x44, 1, 2 },
	{ "v_floor_f16_sdwa", 0x44, 2, 1 },
	{ "v_floor_f16_dpp", 0x44, 3, 0 },
	{ "v_ceil_f16_e32", 0x45, 0, 0 },
	{ "v_ceil_f16_e64", 0x45, 1, 1 },
	{ "v_ceil_f16_sdwa", 0x45, 2, 1 },
	{ "v_ceil_f16_dpp", 0x45, 3, 0 },
	{ "v_trunc_f16_e32", 0x46, 0, 0 },
	{ "v_trunc_f16_e64", 0x46, 1, 2 },
	{ "v_trunc_f16_sdwa", 0x46, 2, 1 },
	{ "v_trunc_f16_dpp", 0x46, 3, 0 },
	{ "v_rndne_f16_e32", 0x47, 0, 0 },
	{ "v_rndne_f16_e64", 0x47, 1, 1 },
	{ "v_rndne_f16_sdwa", 0x47, 2, 1 },
	{ "v_rndne_f16_dpp", 0x47, 3, 0 },
	{ "v_fract_f16_e32", 0x48, 0, 0 },
	{ "v_fract_f16_e64", 0x48, 1, 2 },
	{ "v_fract_f16_sdwa", 0x48, 2, 1 },
	{ "v_fract_f16_dpp", 0x48, 3, 0 },
	{ "v_sin_f16_e32", 0x49, 0, 0 },
	{ "v_sin_f16_e64", 0x49, 1, 1 },
	{ "v_sin_f16_sdwa", 0x49, 2, 1 },
	{ "v_sin_f16_dpp", 0x49, 3, 0 },
	{ "v_cos_f16_e32", 0x4a, 0, 0 },
	{ "v_cos_f16_e64", 0x4a, 1, 2 },
	{ "v_cos_f16_sdwa", 0x4a, 2, 1 },
	{ "v_cos_f16_dpp", 0x4a, 3, 0 },
	{ "v_sat_pk_u8_i16_e32", 0x4f, 0, 0 },
	{ "v_sat_pk_u8_i16_e64", 0x4f, 1, 0 },
	{ "v_sat_pk_u8_i16_sdwa", 0x4f, 2, 2 },
	{ "v_sat_pk_u8_i16_dpp", 0x4f, 3, 0 },
};

enum kind { B32, F32, F64, H16, U16 };

struct opinfo { unsigned op; enum kind src, dst; char gen; };
/* gen: a any bits, i integers, f float->int inputs, r rounding inputs,
 * n finite values, e exp inputs, l log inputs, c rcp inputs, q rsq inputs,
 * s sqrt inputs, S sin inputs, C cos inputs, b bit-scan inputs */
static const struct opinfo ops[] = {
	{ 0x01, B32, B32, 'a' }, { 0x03, F64, B32, 'f' }, { 0x04, B32, F64, 'i' }, { 0x05, B32, F32, 'i' },
	{ 0x06, B32, F32, 'i' }, { 0x07, F32, B32, 'f' }, { 0x08, F32, B32, 'f' }, { 0x0a, F32, H16, 'n' },
	{ 0x0b, H16, F32, 'n' }, { 0x0c, F32, B32, 'f' }, { 0x0d, F32, B32, 'f' }, { 0x0e, B32, F32, 'a' },
	{ 0x0f, F64, F32, 'n' }, { 0x10, F32, F64, 'n' }, { 0x11, B32, F32, 'a' }, { 0x12, B32, F32, 'a' },
	{ 0x13, B32, F32, 'a' }, { 0x14, B32, F32, 'a' }, { 0x15, F64, B32, 'f' }, { 0x16, B32, F64, 'i' },
	{ 0x17, F64, F64, 'r' }, { 0x18, F64, F64, 'r' }, { 0x19, F64, F64, 'r' }, { 0x1a, F64, F64, 'r' },
	{ 0x1b, F32, F32, 'n' }, { 0x1c, F32, F32, 'r' }, { 0x1d, F32, F32, 'r' }, { 0x1e, F32, F32, 'r' },
	{ 0x1f, F32, F32, 'r' }, { 0x20, F32, F32, 'e' }, { 0x21, F32, F32, 'l' }, { 0x22, F32, F32, 'c' },
	{ 0x23, F32, F32, 'c' }, { 0x24, F32, F32, 'q' }, { 0x25, F64, F64, 'c' }, { 0x26, F64, F64, 'q' },
	{ 0x27, F32, F32, 's' }, { 0x28, F64, F64, 's' }, { 0x29, F32, F32, 'S' }, { 0x2a, F32, F32, 'C' },
	{ 0x2b, B32, B32, 'a' }, { 0x2c, B32, B32, 'a' }, { 0x2d, B32, B32, 'b' }, { 0x2e, B32, B32, 'b' },
	{ 0x2f, B32, B32, 'b' }, { 0x30, F64, B32, 'n' }, { 0x31, F64, F64, 'n' }, { 0x32, F64, F64, 'n' },
	{ 0x33, F32, B32, 'n' }, { 0x34, F32, F32, 'n' }, { 0x39, U16, H16, 'a' }, { 0x3a, U16, H16, 'a' },
	{ 0x3b, H16, U16, 'f' }, { 0x3c, H16, U16, 'f' }, { 0x3d, H16, H16, 'c' }, { 0x3e, H16, H16, 's' },
	{ 0x3f, H16, H16, 'q' }, { 0x40, H16, H16, 'l' }, { 0x41, H16, H16, 'e' }, { 0x42, H16, H16, 'n' },
	{ 0x43, H16, U16, 'n' }, { 0x44, H16, H16, 'r' }, { 0x45, H16, H16, 'r' }, { 0x46, H16, H16, 'r' },
	{ 0x47, H16, H16, 'r' }, { 0x48, H16, H16, 'n' }, { 0x49, H16, H16, 'S' }, { 0x4a, H16, H16, 'C' },
	{ 0x4f, B32, U16, 'a' },
};

static const struct opinfo *info(unsigned op)
{
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (ops[i].op == op)
			return &ops[i];
	return NULL;
}

static uint32_t rng_state;
static uint32_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

static float fb(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t ub(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static double db(uint64_t u) { double f; memcpy(&f, &u, 8); return f; }
static uint64_t u64b(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }
static double h2d(uint16_t h) { _Float16 x; memcpy(&x, &h, 2); return (double)x; }
static uint16_t d2h(double d) { _Float16 x = (_Float16)d; uint16_t h; memcpy(&h, &x, 2); return h; }
static uint16_t f2h(float f) { _Float16 x = (_Float16)f; uint16_t h; memcpy(&h, &x, 2); return h; }

/* a source value (as a double) of the generator's kind */
static double gval(char g, enum kind k)
{
	static const double S[] = { 0.0, 0.5 - 0.5, 0.25, -0.25, 0.75 }, C[] = { 0.0, 0.5, -0.5, 1.0 };
	int lim = k == H16 ? 14 : k == F32 ? 126 : 1000;
	switch (g) {
	case 'f': {
		static const double e[] = { NAN, INFINITY, -INFINITY, 0.0, -0.0, 3e9, -3e9, 5e9, -0.75,
			2147483647.0, -2147483648.0, 4294967295.0, 65535.5, -32768.5, 70000.0 };
		return rnd() % 3 ? ((int)(rnd() % 401) - 200) * 0.25 : e[rnd() % 15];
	}
	case 'r': {
		static const double e[] = { NAN, INFINITY, -INFINITY, 0.0, -0.0, -0.5, 0.5, 1.5, 2.5, -2.5 };
		if (rnd() % 4 == 0)
			return e[rnd() % 10];
		return ((int)(rnd() % 401) - 200) * 0.125;
	}
	case 'n': {
		double m = (double)(int32_t)rnd() / 2147483648.0;
		int lo = k == H16 ? -24 : k == F32 ? -149 : -1074, hi = k == H16 ? 15 : k == F32 ? 127 : 1023;
		if (rnd() % 8 == 0)
			return rnd() & 1 ? 0.0 : -0.0;
		return ldexp(m, lo + (int)(rnd() % (unsigned)(hi - lo)));
	}
	case 'e': return (double)((int)(rnd() % (unsigned)(k == H16 ? 40 : 280)) - (k == H16 ? 24 : 150));
	case 'l': {
		static const double e[] = { 0.0, -0.0, INFINITY, -1.0, NAN };
		if (rnd() % 6 == 0)
			return e[rnd() % 5];
		return ldexp(1.0, (int)(rnd() % (unsigned)(k == H16 ? 40 : 276)) - (k == H16 ? 24 : 149));
	}
	case 'c': {
		static const double e[] = { 0.0, -0.0, INFINITY, -INFINITY };
		if (rnd() % 6 == 0)
			return e[rnd() % 4];
		return (rnd() & 1 ? -1 : 1) * ldexp(1.0, (int)(rnd() % (unsigned)(2 * lim + 1)) - lim);
	}
	case 'q': {
		static const double e[] = { 0.0, INFINITY, -4.0 };
		if (rnd() % 6 == 0)
			return e[rnd() % 3];
		return ldexp(1.0, 2 * ((int)(rnd() % (unsigned)(lim + 1)) - lim / 2));
	}
	case 's': {
		static const double e[] = { 0.0, -0.0, INFINITY, -4.0 };
		double n = (double)(rnd() % (k == H16 ? 64 : 1000)) / 4;
		return rnd() % 6 == 0 ? e[rnd() % 4] : n * n;
	}
	case 'S': return S[rnd() % 5]; /* sin(-0): the guides do not say */
	case 'C': return C[rnd() % 4];
	default: return 0;
	}
}

static uint64_t enc(double d, enum kind k)
{
	return k == F64 ? u64b(d) : k == F32 ? ub((float)d) : d2h(d);
}

static uint64_t gen(const struct opinfo *o)
{
	uint64_t r = (uint64_t)rnd() << 32 | rnd();
	if (o->gen == 'a' || o->gen == 'i')
		return rnd() % 5 == 0 ? (uint64_t[]){ 0, ~0ull, 0x80000000u, 0x7fffffffu, 0xffff8000ffff7fffull }[rnd() % 5] : r;
	if (o->gen == 'b')
		return rnd() % 4 == 0 ? (uint64_t[]){ 0, 0xffffffffu, 1, 0x80000000u }[rnd() % 4] : r >> (rnd() % 32);
	return enc(gval(o->gen, o->src), o->src) | (o->src == H16 ? (r & 0xffff0000u) : 0);
}

static double sval(uint64_t v, enum kind k)
{
	return k == F64 ? db(v) : k == F32 ? (double)fb((uint32_t)v) : h2d((uint16_t)v);
}

static int64_t f2i(double x, double lo, double hi)
{
	if (isnan(x))
		return 0;
	return x < lo ? (int64_t)lo : x > hi ? (int64_t)hi : (int64_t)x;
}

/* The result bits (64 wide) of op on source bits v. */
static uint64_t model(const struct opinfo *o, uint64_t v, bool *isfloat)
{
	double x = o->src == B32 || o->src == U16 ? 0 : sval(v, o->src), r;
	uint32_t u = (uint32_t)v;
	*isfloat = o->dst == F32 || o->dst == F64 || o->dst == H16;
	switch (o->op) {
	case 0x01: return u;
	case 0x03: return (uint32_t)f2i(trunc(x), -2147483648.0, 2147483647.0);
	case 0x04: return u64b((double)(int32_t)u);
	case 0x05: return ub((float)(int32_t)u);
	case 0x06: return ub((float)u);
	case 0x07: return (uint32_t)f2i(trunc(x), 0, 4294967295.0);
	case 0x08: return (uint32_t)f2i(trunc(x), -2147483648.0, 2147483647.0);
	case 0x0a: return f2h((float)x);
	case 0x0b: return ub((float)x);
	case 0x0c: return (uint32_t)f2i(floor(x + 0.5), -2147483648.0, 2147483647.0);
	case 0x0d: return (uint32_t)f2i(floor(x), -2147483648.0, 2147483647.0);
	case 0x0e: return ub((float)((int32_t)(u << 28) >> 28) / 16.0f);
	case 0x0f: return ub((float)x);
	case 0x10: return u64b(x);
	case 0x11: case 0x12: case 0x13: case 0x14: return ub((float)((u >> (8 * (o->op - 0x11))) & 0xff));
	case 0x15: return (uint32_t)f2i(trunc(x), 0, 4294967295.0);
	case 0x16: return u64b((double)u);
	case 0x17: case 0x1c: case 0x46: r = trunc(x); break;
	case 0x18: case 0x1d: case 0x45: r = ceil(x); break;
	case 0x19: case 0x1e: case 0x47: r = nearbyint(x); break;
	case 0x1a: case 0x1f: case 0x44: r = floor(x); break;
	case 0x1b: case 0x32: case 0x48: {
		double one_below = o->dst == F64 ? db(0x3fefffffffffffffull) : o->dst == F32 ? (double)fb(0x3f7fffffu) : h2d(0x3bff);
		r = x - floor(x);
		if (o->dst == F32) r = (float)r;
		if (o->dst == H16) r = (double)(_Float16)r;
		if (r > one_below) r = one_below;
		if (x == 0) r = 0.0; /* the ISA's S0 + -floor(S0): -0 + +0 is +0 */
		break;
	}
	case 0x20: case 0x41: r = exp2(x); break;
	case 0x21: case 0x40: r = log2(x); break;
	case 0x22: case 0x23: case 0x25: case 0x3d: r = 1.0 / x; break;
	case 0x24: case 0x26: case 0x3f: r = 1.0 / sqrt(x); break;
	case 0x27: case 0x28: case 0x3e: r = sqrt(x); break;
	case 0x29: case 0x49: r = x == 0 ? x : sin(2 * M_PI * x); break;
	case 0x2a: case 0x4a: r = cos(2 * M_PI * x); break;
	case 0x2b: return ~u;
	case 0x2c: {
		uint32_t b = 0;
		for (unsigned i = 0; i < 32; i++)
			b |= ((u >> i) & 1) << (31 - i);
		return b;
	}
	case 0x2d: return u ? (uint32_t)__builtin_clz(u) : 0xffffffffu;
	case 0x2e: return u ? (uint32_t)__builtin_ctz(u) : 0xffffffffu;
	case 0x2f: {
		uint32_t t = (int32_t)u < 0 ? ~u : u;
		return t ? (uint32_t)__builtin_clz(t) : 0xffffffffu;
	}
	case 0x30: case 0x33: case 0x43: {
		int e = 0;
		if (x != 0) frexp(x, &e);
		return o->dst == U16 ? (uint32_t)e & 0xffff : (uint32_t)e;
	}
	case 0x31: case 0x34: case 0x42: {
		int e;
		r = x == 0 ? x : frexp(x, &e);
		break;
	}
	case 0x39: return d2h((double)(u & 0xffff));
	case 0x3a: return d2h((double)(int16_t)u);
	case 0x3b: return (uint32_t)f2i(trunc(x), 0, 65535) & 0xffff;
	case 0x3c: return (uint32_t)f2i(trunc(x), -32768, 32767) & 0xffff;
	case 0x4f: {
		int lo = (int16_t)u, hi = (int16_t)(u >> 16);
		lo = lo < 0 ? 0 : lo > 255 ? 255 : lo;
		hi = hi < 0 ? 0 : hi > 255 ? 255 : hi;
		return (uint32_t)(lo | hi << 8);
	}
	default: return 0xbad;
	}
	return enc(r, o->dst);
}

static bool nan_bits(uint64_t v, enum kind k)
{
	return k == F64 ? isnan(db(v)) : k == F32 ? isnan(fb((uint32_t)v)) :
	       ((v & 0x7c00) == 0x7c00 && (v & 0x3ff));
}

static struct hx_code code;
static int loaded;

static unsigned check(const struct v1form *f)
{
	char path[600];
	const struct opinfo *o = info(f->op);
	uint32_t *in, *out;
	uint64_t args[2];
	unsigned bad = 0;

	ck_assert_msg(o != NULL, "%s: no model", f->name);
	if (!loaded) {
		if (!hx_kernel_path("vop1", KEMU_ISA_GFX90A, path, sizeof(path))) {
			ck_assert_msg(!hx_target_expected(KEMU_ISA_GFX90A), "vop1-gfx90a.co not built");
			loaded = -1;
		} else {
			ck_assert_int_eq(hx_load(&code, path), 0);
			loaded = 1;
		}
	}
	if (loaded < 0)
		return 0;
	in = hx_alloc(64 * 16);
	out = hx_alloc(64 * 8);
	args[0] = (uint64_t)(uintptr_t)in;
	args[1] = (uint64_t)(uintptr_t)out;
	for (unsigned seed = 0; seed < 3; seed++) {
		struct hx_launch hl = { .gfx = KEMU_ISA_GFX90A, .args = args, .args_size = 16,
					.grid = { 64, 1, 1 }, .wg = { 64, 1, 1 } };
		struct kemu_isa_error err;
		int rc;
		rng_state = 0x85a308d3u ^ (seed * 0x9e3779b9u) ^ (uint32_t)(f - v1forms) * 0x85ebca6bu;
		for (unsigned l = 0; l < 64; l++) {
			uint64_t v = gen(o);
			if (f->enc == 2 && f->mod) {
				/* place the value where the select reads it */
				if (f->mod == 1)
					v = (v << 16) | (rnd() & 0xffff);
				else
					v = ((v & 0xff) << 16) | (rnd() & 0xff00ffffu);
			}
			in[4 * l] = (uint32_t)v;
			in[4 * l + 1] = (uint32_t)(v >> 32);
			in[4 * l + 2] = rnd();
			in[4 * l + 3] = rnd();
		}
		hl.kd = hx_kd(&code, f->name);
		ck_assert_msg(hl.kd != 0, "no %s.kd", f->name);
		rc = hx_run(&hl, &err);
		ck_assert_msg(rc == 0, "%s: %s: %s", f->name, kemu_isa_error_name(err.kind), err.message);
		for (unsigned l = 0; l < 64; l++) {
			unsigned sl = f->enc == 3 ? (f->mod ? (l & ~15u) + 1 : l ^ 1) : l;
			uint64_t v = in[4 * sl] | (uint64_t)in[4 * sl + 1] << 32, want, got;
			bool fl, ok;
			if (f->enc == 2 && f->mod == 1)
				v = (uint32_t)v >> 16;
			else if (f->enc == 2 && f->mod == 2)
				v = ((uint32_t)v >> 16) & 0xff;
			if (f->enc == 1 && f->mod) {
				uint64_t sign = o->src == F64 ? 1ull << 63 : o->src == F32 ? 0x80000000u : 0x8000;
				v = f->mod == 1 ? v ^ sign : v & ~sign;
			}
			want = model(o, v, &fl);
			if (o->dst == F64)
				got = out[2 * l] | (uint64_t)out[2 * l + 1] << 32;
			else {
				got = out[2 * l];
				if (out[2 * l + 1] != in[4 * l + 3] && bad++ < 4)
					fprintf(stderr, "%s lane %u: the second dword changed\n", f->name, l);
			}
			ok = got == want || (fl && nan_bits(got, o->dst) && nan_bits(want, o->dst));
			/* sin(-0): the sign of the zero is not specified */
			if (o->gen == 'S' && sval(want, o->dst) == 0 && sval(got, o->dst) == 0)
				ok = true;
			if (!ok && bad++ < 4)
				fprintf(stderr, "%s lane %u: source %016llx: got %llx, model %llx\n", f->name, l,
					(unsigned long long)v, (unsigned long long)got, (unsigned long long)want);
		}
	}
	hx_free(in);
	hx_free(out);
	return bad;
}

HX_FORMS_TEST(test_vop1_e32_match_model, v1forms, check, 0)
HX_FORMS_TEST(test_vop1_e64_match_model, v1forms, check, 1)
HX_FORMS_TEST(test_vop1_sdwa_match_model, v1forms, check, 2)
HX_FORMS_TEST(test_vop1_dpp_match_model, v1forms, check, 3)

START_TEST(test_model_hand_values)
{
	bool fl;
	ck_assert_uint_eq(model(info(0x2f), 0xfffffffeu, &fl), 31);        /* ffbh_i32(-2) */
	ck_assert_uint_eq(model(info(0x2f), 0x40000000u, &fl), 1);
	ck_assert_uint_eq(model(info(0x2d), 0, &fl), 0xffffffffu);
	ck_assert_uint_eq(model(info(0x0e), 0x8, &fl), ub(-0.5f));         /* cvt_off_f32_i4(-8) */
	ck_assert_uint_eq(model(info(0x0c), ub(-2.5f), &fl), (uint32_t)-2); /* rpi: floor(-2.0) */
	ck_assert_uint_eq(model(info(0x08), ub(3e9f), &fl), 0x7fffffffu);
	ck_assert_uint_eq(model(info(0x4f), 0x0123ff80u, &fl), 0xff00u);   /* sat(0x0123)=255, sat(-128)=0 */
	ck_assert_uint_eq(model(info(0x1b), ub(-0x1p-30f), &fl), 0x3f7fffffu); /* fract below 1 */
}
END_TEST

static Suite *vop1_suite(void)
{
	Suite *s = suite_create("isa_vop1");
	TCase *tc = tcase_create("vop1");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_model_hand_values);
	tcase_add_test(tc, test_vop1_e32_match_model);
	tcase_add_test(tc, test_vop1_e64_match_model);
	tcase_add_test(tc, test_vop1_sdwa_match_model);
	tcase_add_test(tc, test_vop1_dpp_match_model);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(vop1_suite)
