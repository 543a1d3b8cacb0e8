/*
 * test_isa_vopc.c — every VOPC compare against a host model, in each form
 * LLVM decodes for gfx90a: e32 (VOPC), e64 (VOP3; NEG on SRC0 and ABS on
 * SRC1 of the float compares where the opcode's low bits say so) and SDWA
 * (word selects of the 16-bit types, WORD_1/BYTE_2 with sign extension
 * for i32/u32).  kernels/vopc.s holds one kernel per row of the table
 * below (both generated from emu/isa/isa_table.tsv's rows); each runs one
 * wave on generated A/B pairs (edge values: signed zeros, infinities,
 * quiet and signalling NaNs, denormals, integer extremes, equal pairs)
 * with a partial EXEC, and every lane's result bit and EXEC bit (v_cmpx
 * writes EXEC) are compared with the model.
 *
 * The model is written from the ISA's compare definitions: opcode bits
 * [3:0] F, LT, EQ, LE, GT, LG, GE, O, U, NGE, NLG, NGT, NLE, NEQ, NLT, TRU
 * for floats (an ordered relation is false on a NaN, its N form true;
 * -0 == +0) and F, LT, EQ, LE, GT, NE, GE, T for integers; v_cmp_class
 * tests SRC1's bits 0-9 (sNaN, qNaN, -inf, -normal, -denormal, -0, +0,
 * +denormal, +normal, +inf); inactive lanes get 0; v_cmpx sets EXEC to
 * the result.  Denormals are compared as they are (FP_DENORM keeps them).
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hl_check.h"
#include "isa_harness.h"
#include "isa_forms.h"

struct cform {
	const char *name;
	unsigned op;            /* VOPC opcode */
	int enc;                /* 0 e32, 1 e64, 2 SDWA */
	unsigned neg, abs;      /* e64: NEG on SRC0 (bit 0), ABS on SRC1 (bit 1) */
	int sel;                /* SDWA: 1 A hi/B lo, 2 A lo/B hi, 3 A word1/B byte2 */
};

static const struct cform cforms[] = {
	{ "v_cmp_class_f32_e32", 0x10, 0, 0, 0, 0 },
	{ "v_cmpx_class_f32_e32", 0x11, 0, 0, 0, 0 },
	{ "v_cmp_class_f64_e32", 0x12, 0, 0, 0, 0 },
	{ "v_cmpx_class_f64_e32", 0x13, 0, 0, 0, 0 },
	{ "v_cmp_class_f16_e32", 0x14, 0, 0, 0, 0 },
	{ "v_cmpx_class_f16_e32", 0x15, 0, 0, 0, 0 },
	{ "v_cmp_f_f16_e32", 0x20, 0, 0, 0, 0 },
	{ "v_cmp_lt_f16_e32", 0x21, 0, 0, 0, 0 },
	{ "v_cmp_eq_f16_e32", 0x22, 0, 0, 0, 0 },
	{ "v_cmp_le_f16_e32", 0x23, 0, 0, 0, 0 },
	{ "v_cmp_gt_f16_e32", 0x24, 0, 0, 0, 0 },
	{ "v_cmp_lg_f16_e32", 0x25, 0, 0, 0, 0 },
	{ "v_cmp_ge_f16_e32", 0x26, 0, 0, 0, 0 },
	{ "v_cmp_o_f16_e32", 0x27, 0, 0, 0, 0 },
	{ "v_cmp_u_f16_e32", 0x28, 0, 0, 0, 0 },
	{ "v_cmp_nge_f16_e32", 0x29, 0, 0, 0, 0 },
	{ "v_cmp_nlg_f16_e32", 0x2a, 0, 0, 0, 0 },
	{ "v_cmp_ngt_f16_e32", 0x2b, 0, 0, 0, 0 },
	{ "v_cmp_nle_f16_e32", 0x2c, 0, 0, 0, 0 },
	{ "v_cmp_neq_f16_e32", 0x2d, 0, 0, 0, 0 },
	{ "v_cmp_nlt_f16_e32", 0x2e, 0, 0, 0, 0 },
	{ "v_cmp_tru_f16_e32", 0x2f, 0, 0, 0, 0 },
	{ "v_cmpx_f_f16_e32", 0x30, 0, 0, 0, 0 },
	{ "v_cmpx_lt_f16_e32", 0x31, 0, 0, 0, 0 },
	{ "v_cmpx_eq_f16_e32", 0x32, 0, 0, 0, 0 },
	{ "v_cmpx_le_f16_e32", 0x33, 0, 0, 0, 0 },
	{ "v_cmpx_gt_f16_e32", 0x34, 0, 0, 0, 0 },
	{ "v_cmpx_lg_f16_e32", 0x35, 0, 0, 0, 0 },
	{ "v_cmpx_ge_f16_e32", 0x36, 0, 0, 0, 0 },
	{ "v_cmpx_o_f16_e32", 0x37, 0, 0, 0, 0 },
	{ "v_cmpx_u_f16_e32", 0x38, 0, 0, 0, 0 },
	{ "v_cmpx_nge_f16_e32", 0x39, 0, 0, 0, 0 },
	{ "v_cmpx_nlg_f16_e32", 0x3a, 0, 0, 0, 0 },
	{ "v_cmpx_ngt_f16_e32", 0x3b, 0, 0, 0, 0 },
	{ "v_cmpx_nle_f16_e32", 0x3c, 0, 0, 0, 0 },
	{ "v_cmpx_neq_f16_e32", 0x3d, 0, 0, 0, 0 },
	{ "v_cmpx_nlt_f16_e32", 0x3e, 0, 0, 0, 0 },
	{ "v_cmpx_tru_f16_e32", 0x3f, 0, 0, 0, 0 },
	{ "v_cmp_f_f32_e32", 0x40, 0, 0, 0, 0 },
	{ "v_cmp_lt_f32_e32", 0x41, 0, 0, 0, 0 },
	{ "v_cmp_eq_f32_e32", 0x42, 0, 0, 0, 0 },
	{ "v_cmp_le_f32_e32", 0x43, 0, 0, 0, 0 },
	{ "v_cmp_gt_f32_e32", 0x44, 0, 0, 0, 0 },
	{ "v_cmp_lg_f32_e32", 0x45, 0, 0, 0, 0 },
	{ "v_cmp_ge_f32_e32", 0x46, 0, 0, 0, 0 },
	{ "v_cmp_o_f32_e32", 0x47, 0, 0, 0, 0 },
	{ "v_cmp_u_f32_e32", 0x48, 0, 0, 0, 0 },
	{ "v_cmp_nge_f32_e32", 0x49, 0, 0, 0, 0 },
	{ "v_cmp_nlg_f32_e32", 0x4a, 0, 0, 0, 0 },
	{ "v_cmp_ngt_f32_e32", 0x4b, 0, 0, 0, 0 },
	{ "v_cmp_nle_f32_e32", 0x4c, 0, 0, 0, 0 },
	{ "v_cmp_neq_f32_e32", 0x4d, 0, 0, 0, 0 },
	{ "v_cmp_nlt_f32_e32", 0x4e, 0, 0, 0, 0 },
	{ "v_cmp_tru_f32_e32", 0x4f, 0, 0, 0, 0 },
	{ "v_cmpx_f_f32_e32", 0x50, 0, 0, 0, 0 },
	{ "v_cmpx_lt_f32_e32", 0x51, 0, 0, 0, 0 },
	{ "v_cmpx_eq_f32_e32", 0x52, 0, 0, 0, 0 },
	{ "v_cmpx_le_f32_e32", 0x53, 0, 0, 0, 0 },
	{ "v_cmpx_gt_f32_e32", 0x54, 0, 0, 0, 0 },
	{ "v_cmpx_lg_f32_e32", 0x55, 0, 0, 0, 0 },
	{ "v_cmpx_ge_f32_e32", 0x56, 0, 0, 0, 0 },
	{ "v_cmpx_o_f32_e32", 0x57, 0, 0, 0, 0 },
	{ "v_cmpx_u_f32_e32", 0x58, 0, 0, 0, 0 },
	{ "v_cmpx_nge_f32_e32", 0x59, 0, 0, 0, 0 },
	{ "v_cmpx_nlg_f32_e32", 0x5a, 0, 0, 0, 0 },
	{ "v_cmpx_ngt_f32_e32", 0x5b, 0, 0, 0, 0 },
	{ "v_cmpx_nle_f32_e32", 0x5c, 0, 0, 0, 0 },
	{ "v_cmpx_neq_f32_e32", 0x5d, 0, 0, 0, 0 },
	{ "v_cmpx_nlt_f32_e32", 0x5e, 0, 0, 0, 0 },
	{ "v_cmpx_tru_f32_e32", 0x5f, 0, 0, 0, 0 },
	{ "v_cmp_f_f64_e32", 0x60, 0, 0, 0, 0 },
	{ "v_cmp_lt_f64_e32", 0x61, 0, 0, 0, 0 },
	{ "v_cmp_eq_f64_e32", 0x62, 0, 0, 0, 0 },
	{ "v_cmp_le_f64_e32", 0x63, 0, 0, 0, 0 },
	{ "v_cmp_gt_f64_e32", 0x64, 0, 0, 0, 0 },
	{ "v_cmp_lg_f64_e32", 0x65, 0, 0, 0, 0 },
	{ "v_cmp_ge_f64_e32", 0x66, 0, 0, 0, 0 },
	{ "v_cmp_o_f64_e32", 0x67, 0, 0, 0, 0 },
	{ "v_cmp_u_f64_e32", 0x68, 0, 0, 0, 0 },
	{ "v_cmp_nge_f64_e32", 0x69, 0, 0, 0, 0 },
	{ "v_cmp_nlg_f64_e32", 0x6a, 0, 0, 0, 0 },
	{ "v_cmp_ngt_f64_e32", 0x6b, 0, 0, 0, 0 },
	{ "v_cmp_nle_f64_e32", 0x6c, 0, 0, 0, 0 },
	{ "v_cmp_neq_f64_e32", 0x6d, 0, 0, 0, 0 },
	{ "v_cmp_nlt_f64_e32", 0x6e, 0, 0, 0, 0 },
	{ "v_cmp_tru_f64_e32", 0x6f, 0, 0, 0, 0 },
	{ "v_cmpx_f_f64_e32", 0x70, 0, 0, 0, 0 },
	{ "v_cmpx_lt_f64_e32", 0x71, 0, 0, 0, 0 },
	{ "v_cmpx_eq_f64_e32", 0x72, 0, 0, 0, 0 },
	{ "v_cmpx_le_f64_e32", 0x73, 0, 0, 0, 0 },
	{ "v_cmpx_gt_f64_e32", 0x74, 0, 0, 0, 0 },
	{ "v_cmpx_lg_f64_e32", 0x75, 0, 0, 0, 0 },
	{ "v_cmpx_ge_f64_e32", 0x76, 0, 0, 0, 0 },
	{ "v_cmpx_o_f64_e32", 0x77, 0, 0, 0, 0 },
	{ "v_cmpx_u_f64_e32", 0x78, 0, 0, 0, 0 },
	{ "v_cmpx_nge_f64_e32", 0x79, 0, 0, 0, 0 },
	{ "v_cmpx_nlg_f64_e32", 0x7a, 0, 0, 0, 0 },
	{ "v_cmpx_ngt_f64_e32", 0x7b, 0, 0, 0, 0 },
	{ "v_cmpx_nle_f64_e32", 0x7c, 0, 0, 0, 0 },
	{ "v_cmpx_neq_f64_e32", 0x7d, 0, 0, 0, 0 },
	{ "v_cmpx_nlt_f64_e32", 0x7e, 0, 0, 0, 0 },
	{ "v_cmpx_tru_f64_e32", 0x7f, 0, 0, 0, 0 },
	{ "v_cmp_f_i16_e32", 0xa0, 0, 0, 0, 0 },
	{ "v_cmp_lt_i16_e32", 0xa1, 0, 0, 0, 0 },
	{ "v_cmp_eq_i16_e32", 0xa2, 0, 0, 0, 0 },
	{ "v_cmp_le_i16_e32", 0xa3, 0, 0, 0, 0 },
	{ "v_cmp_gt_i16_e32", 0xa4, 0, 0, 0, 0 },
	{ "v_cmp_ne_i16_e32", 0xa5, 0, 0, 0, 0 },
	{ "v_cmp_ge_i16_e32", 0xa6, 0, 0, 0, 0 },
	{ "v_cmp_t_i16_e32", 0xa7, 0, 0, 0, 0 },
	{ "v_cmp_f_u16_e32", 0xa8, 0, 0, 0, 0 },
	{ "v_cmp_lt_u16_e32", 0xa9, 0, 0, 0, 0 },
	{ "v_cmp_eq_u16_e32", 0xaa, 0, 0, 0, 0 },
	{ "v_cmp_le_u16_e32", 0xab, 0, 0, 0, 0 },
	{ "v_cmp_gt_u16_e32", 0xac, 0, 0, 0, 0 },
	{ "v_cmp_ne_u16_e32", 0xad, 0, 0, 0, 0 },
	{ "v_cmp_ge_u16_e32", 0xae, 0, 0, 0, 0 },
	{ "v_cmp_t_u16_e32", 0xaf, 0, 0, 0, 0 },
	{ "v_cmpx_f_i16_e32", 0xb0, 0, 0, 0, 0 },
	{ "v_cmpx_lt_i16_e32", 0xb1, 0, 0, 0, 0 },
	{ "v_cmpx_eq_i16_e32", 0xb2, 0, 0, 0, 0 },
	{ "v_cmpx_le_i16_e32", 0xb3, 0, 0, 0, 0 },
	{ "v_cmpx_gt_i16_e32", 0xb4, 0, 0, 0, 0 },
	{ "v_cmpx_ne_i16_e32", 0xb5, 0, 0, 0, 0 },
	{ "v_cmpx_ge_i16_e32", 0xb6, 0, 0, 0, 0 },
	{ "v_cmpx_t_i16_e32", 0xb7, 0, 0, 0, 0 },
	{ "v_cmpx_f_u16_e32", 0xb8, 0, 0, 0, 0 },
	{ "v_cmpx_lt_u16_e32", 0xb9, 0, 0, 0, 0 },
	{ "v_cmpx_eq_u16_e32", 0xba, 0, 0, 0, 0 },
	{ "v_cmpx_le_u16_e32", 0xbb, 0, 0, 0, 0 },
	{ "v_cmpx_gt_u16_e32", 0xbc, 0, 0, 0, 0 },
	{ "v_cmpx_ne_u16_e32", 0xbd, 0, 0, 0, 0 },
	{ "v_cmpx_ge_u16_e32", 0xbe, 0, 0, 0, 0 },
	{ "v_cmpx_t_u16_e32", 0xbf, 0, 0, 0, 0 },
	{ "v_cmp_f_i32_e32", 0xc0, 0, 0, 0, 0 },
	{ "v_cmp_lt_i32_e32", 0xc1, 0, 0, 0, 0 },
	{ "v_cmp_eq_i32_e32", 0xc2, 0, 0, 0, 0 },
	{ "v_cmp_le_i32_e32", 0xc3, 0, 0, 0, 0 },
	{ "v_cmp_gt_i32_e32", 0xc4, 0, 0, 0, 0 },
	{ "v_cmp_ne_i32_e32", 0xc5, 0, 0, 0, 0 },
	{ "v_cmp_ge_i32_e32", 0xc6, 0, 0, 0, 0 },
	{ "v_cmp_t_i32_e32", 0xc7, 0, 0, 0, 0 },
	{ "v_cmp_f_u32_e32", 0xc8, 0, 0, 0, 0 },
	{ "v_cmp_lt_u32_e32", 0xc9, 0, 0, 0, 0 },
	{ "v_cmp_eq_u32_e32", 0xca, 0, 0, 0, 0 },
	{ "v_cmp_le_u32_e32", 0xcb, 0, 0, 0, 0 },
	{ "v_cmp_gt_u32_e32", 0xcc, 0, 0, 0, 0 },
	{ "v_cmp_ne_u32_e32", 0xcd, 0, 0, 0, 0 },
	{ "v_cmp_ge_u32_e32", 0xce, 0, 0, 0, 0 },
	{ "v_cmp_t_u32_e32", 0xcf, 0, 0, 0, 0 },
	{ "v_cmpx_f_i32_e32", 0xd0, 0, 0, 0, 0 },
	{ "v_cmpx_lt_i32_e32", 0xd1, 0, 0, 0, 0 },
	{ "v_cmpx_eq_i32_e32", 0xd2, 0, 0, 0, 0 },
	{ "v_cmpx_le_i32_e32", 0xd3, 0, 0, 0, 0 },
	{ "v_cmpx_gt_i32_e32", 0xd4, 0, 0, 0, 0 },
	{ "v_cmpx_ne_i32_e32", 0xd5, 0, 0, 0, 0 },
	{ "v_cmpx_ge_i32_e32", 0xd6, 0, 0, 0, 0 },
	{ "v_cmpx_t_i32_e32", 0xd7, 0, 0, 0, 0 },
	{ "v_cmpx_f_u32_e32", 0xd8, 0, 0, 0, 0 },
	{ "v_cmpx_lt_u32_e32", 0xd9, 0, 0, 0, 0 },
	{ "v_cmpx_eq_u32_e32", 0xda, 0, 0, 0, 0 },
	{ "v_cmpx_le_u32_e32", 0xdb, 0, 0, 0, 0 },
	{ "v_cmpx_gt_u32_e32", 0xdc, 0, 0, 0, 0 },
	{ "v_cmpx_ne_u32_e32", 0xdd, 0, 0, 0, 0 },
	{ "v_cmpx_ge_u32_e32", 0xde, 0, 0, 0, 0 },
	{ "v_cmpx_t_u32_e32", 0xdf, 0, 0, 0, 0 },
	{ "v_cmp_f_i64_e32", 0xe0, 0, 0, 0, 0 },
	{ "v_cmp_lt_i64_e32", 0xe1, 0, 0, 0, 0 },
	{ "v_cmp_eq_i64_e32", 0xe2, 0, 0, 0, 0 },
	{ "v_cmp_le_i64_e32", 0xe3, 0, 0, 0, 0 },
	{ "v_cmp_gt_i64_e32", 0xe4, 0, 0, 0, 0 },
	{ "v_cmp_ne_i64_e32", 0xe5, 0, 0, 0, 0 },
	{ "v_cmp_ge_i64_e32", 0xe6, 0, 0, 0, 0 },
	{ "v_cmp_t_i64_e32", 0xe7, 0, 0, 0, 0 },
	{ "v_cmp_f_u64_e32", 0xe8, 0, 0, 0, 0 },
	{ "v_cmp_lt_u64_e32", 0xe9, 0, 0, 0, 0 },
	{ "v_cmp_eq_u64_e32", 0xea, 0, 0, 0, 0 },
	{ "v_cmp_le_u64_e32", 0xeb, 0, 0, 0, 0 },
	{ "v_cmp_gt_u64_e32", 0xec, 0, 0, 0, 0 },
	{ "v_cmp_ne_u64_e32", 0xed, 0, 0, 0, 0 },
	{ "v_cmp_ge_u64_e32", 0xee, 0, 0, 0, 0 },
	{ "v_cmp_t_u64_e32", 0xef, 0, 0, 0, 0 },
	{ "v_cmpx_f_i64_e32", 0xf0, 0, 0, 0, 0 },
	{ "v_cmpx_lt_i64_e32", 0xf1, 0, 0, 0, 0 },
	{ "v_cmpx_eq_i64_e32", 0xf2, 0, 0, 0, 0 },
	{ "v_cmpx_le_i64_e32", 0xf3, 0, 0, 0, 0 },
	{ "v_cmpx_gt_i64_e32", 0xf4, 0, 0, 0, 0 },
	{ "v_cmpx_ne_i64_e32", 0xf5, 0, 0, 0, 0 },
	{ "v_cmpx_ge_i64_e32", 0xf6, 0, 0, 0, 0 },
	{ "v_cmpx_t_i64_e32", 0xf7, 0, 0, 0, 0 },
	{ "v_cmpx_f_u64_e32", 0xf8, 0, 0, 0, 0 },
	{ "v_cmpx_lt_u64_e32", 0xf9, 0, 0, 0, 0 },
	{ "v_cmpx_eq_u64_e32", 0xfa, 0, 0, 0, 0 },
	{ "v_cmpx_le_u64_e32", 0xfb, 0, 0, 0, 0 },
	{ "v_cmpx_gt_u64_e32", 0xfc, 0, 0, 0, 0 },
	{ "v_cmpx_ne_u64_e32", 0xfd, 0, 0, 0, 0 },
	{ "v_cmpx_ge_u64_e32", 0xfe, 0, 0, 0, 0 },
	{ "v_cmpx_t_u64_e32", 0xff, 0, 0, 0, 0 },
	{ "v_cmp_class_f32_e64", 0x10, 1, 0, 0, 0 },
	{ "v_cmpx_class_f32_e64", 0x11, 1, 1, 0, 0 },
	{ "v_cmp_class_f64_e64", 0x12, 1, 0, 0, 0 },
	{ "v_cmpx_class_f64_e64", 0x13, 1, 1, 0, 0 },
	{ "v_cmp_class_f16_e64", 0x14, 1, 0, 0, 0 },
	{ "v_cmpx_class_f16_e64", 0x15, 1, 1, 0, 0 },
	{ "v_cmp_f_f16_e64", 0x20, 1, 0, 0, 0 },
	{ "v_cmp_lt_f16_e64", 0x21, 1, 1, 0, 0 },
	{ "v_cmp_eq_f16_e64", 0x22, 1, 0, 2, 0 },
	{ "v_cmp_le_f16_e64", 0x23, 1, 1, 2, 0 },
	{ "v_cmp_gt_f16_e64", 0x24, 1, 0, 0, 0 },
	{ "v_cmp_lg_f16_e64", 0x25, 1, 1, 0, 0 },
	{ "v_cmp_ge_f16_e64", 0x26, 1, 0, 2, 0 },
	{ "v_cmp_o_f16_e64", 0x27, 1, 1, 2, 0 },
	{ "v_cmp_u_f16_e64", 0x28, 1, 0, 0, 0 },
	{ "v_cmp_nge_f16_e64", 0x29, 1, 1, 0, 0 },
	{ "v_cmp_nlg_f16_e64", 0x2a, 1, 0, 2, 0 },
	{ "v_cmp_ngt_f16_e64", 0x2b, 1, 1, 2, 0 },
	{ "v_cmp_nle_f16_e64", 0x2c, 1, 0, 0, 0 },
	{ "v_cmp_neq_f16_e64", 0x2d, 1, 1, 0, 0 },
	{ "v_cmp_nlt_f16_e64", 0x2e, 1, 0, 2, 0 },
	{ "v_cmp_tru_f16_e64", 0x2f, 1, 1, 2, 0 },
	{ "v_cmpx_f_f16_e64", 0x30, 1, 0, 0, 0 },
	{ "v_cmpx_lt_f16_e64", 0x31, 1, 1, 0, 0 },
	{ "v_cmpx_eq_f16_e64", 0x32, 1, 0, 2, 0 },
	{ "v_cmpx_le_f16_e64", 0x33, 1, 1, 2, 0 },
	{ "v_cmpx_gt_f16_e64", 0x34, 1, 0, 0, 0 },
	{ "v_cmpx_lg_f16_e64", 0x35, 1, 1, 0, 0 },
	{ "v_cmpx_ge_f16_e64", 0x36, 1, 0, 2, 0 },
	{ "v_cmpx_o_f16_e64", 0x37, 1, 1, 2, 0 },
	{ "v_cmpx_u_f16_e64", 0x38, 1, 0, 0, 0 },
	{ "v_cmpx_nge_f16_e64", 0x39, 1, 1, 0, 0 },
	{ "v_cmpx_nlg_f16_e64", 0x3a, 1, 0, 2, 0 },
	{ "v_cmpx_ngt_f16_e64", 0x3b, 1, 1, 2, 0 },
	{ "v_cmpx_nle_f16_e64", 0x3c, 1, 0, 0, 0 },
	{ "v_cmpx_neq_f16_e64", 0x3d, 1, 1, 0, 0 },
	{ "v_cmpx_nlt_f16_e64", 0x3e, 1, 0, 2, 0 },
	{ "v_cmpx_tru_f16_e64", 0x3f, 1, 1, 2, 0 },
	{ "v_cmp_f_f32_e64", 0x40, 1, 0, 0, 0 },
	{ "v_cmp_lt_f32_e64", 0x41, 1, 1, 0, 0 },
	{ "v_cmp_eq_f32_e64", 0x42, 1, 0, 2, 0 },
	{ "v_cmp_le_f32_e64", 0x43, 1, 1, 2, 0 },
	{ "v_cmp_gt_f32_e64", 0x44, 1, 0, 0, 0 },
	{ "v_cmp_lg_f32_e64", 0x45, 1, 1, 0, 0 },
	{ "v_cmp_ge_f32_e64", 0x46, 1, 0, 2, 0 },
	{ "v_cmp_o_f32_e64", 0x47, 1, 1, 2, 0 },
	{ "v_cmp_u_f32_e64", 0x48, 1, 0, 0, 0 },
	{ "v_cmp_nge_f32_e64", 0x49, 1, 1, 0, 0 },
	{ "v_cmp_nlg_f32_e64", 0x4a, 1, 0, 2, 0 },
	{ "v_cmp_ngt_f32_e64", 0x4b, 1, 1, 2, 0 },
	{ "v_cmp_nle_f32_e64", 0x4c, 1, 0, 0, 0 },
	{ "v_cmp_neq_f32_e64", 0x4d, 1, 1, 0, 0 },
	{ "v_cmp_nlt_f32_e64", 0x4e, 1, 0, 2, 0 },
	{ "v_cmp_tru_f32_e64", 0x4f, 1, 1, 2, 0 },
	{ "v_cmpx_f_f32_e64", 0x50, 1, 0, 0, 0 },
	{ "v_cmpx_lt_f32_e64", 0x51, 1, 1, 0, 0 },
	{ "v_cmpx_eq_f32_e64", 0x52, 1, 0, 2, 0 },
	{ "v_cmpx_le_f32_e64", 0x53, 1, 1, 2, 0 },
	{ "v_cmpx_gt_f32_e64", 0x54, 1, 0, 0, 0 },
	{ "v_cmpx_lg_f32_e64", 0x55, 1, 1, 0, 0 },
	{ "v_cmpx_ge_f32_e64", 0x56, 1, 0, 2, 0 },
	{ "v_cmpx_o_f32_e64", 0x57, 1, 1, 2, 0 },
	{ "v_cmpx_u_f32_e64", 0x58, 1, 0, 0, 0 },
	{ "v_cmpx_nge_f32_e64", 0x59, 1, 1, 0, 0 },
	{ "v_cmpx_nlg_f32_e64", 0x5a, 1, 0, 2, 0 },
	{ "v_cmpx_ngt_f32_e64", 0x5b, 1, 1, 2, 0 },
	{ "v_cmpx_nle_f32_e64", 0x5c, 1, 0, 0, 0 },
	{ "v_cmpx_neq_f32_e64", 0x5d, 1, 1, 0, 0 },
	{ "v_cmpx_nlt_f32_e64", 0x5e, 1, 0, 2, 0 },
	{ "v_cmpx_tru_f32_e64", 0x5f, 1, 1, 2, 0 },
	{ "v_cmp_f_f64_e64", 0x60, 1, 0, 0, 0 },
	{ "v_cmp_lt_f64_e64", 0x61, 1, 1, 0, 0 },
	{ "v_cmp_eq_f64_e64", 0x62, 1, 0, 2, 0 },
	{ "v_cmp_le_f64_e64", 0x63, 1, 1, 2, 0 },
	{ "v_cmp_gt_f64_e64", 0x64, 1, 0, 0, 0 },
	{ "v_cmp_lg_f64_e64", 0x65, 1, 1, 0, 0 },
	{ "v_cmp_ge_f64_e64", 0x66, 1, 0, 2, 0 },
	{ "v_cmp_o_f64_e64", 0x67, 1, 1, 2, 0 },
	{ "v_cmp_u_f64_e64", 0x68, 1, 0, 0, 0 },
	{ "v_cmp_nge_f64_e64", 0x69, 1, 1, 0, 0 },
	{ "v_cmp_nlg_f64_e64", 0x6a, 1, 0, 2, 0 },
	{ "v_cmp_ngt_f64_e64", 0x6b, 1, 1, 2, 0 },
	{ "v_cmp_nle_f64_e64", 0x6c, 1, 0, 0, 0 },
	{ "v_cmp_neq_f64_e64", 0x6d, 1, 1, 0, 0 },
	{ "v_cmp_nlt_f64_e64", 0x6e, 1, 0, 2, 0 },
	{ "v_cmp_tru_f64_e64", 0x6f, 1, 1, 2, 0 },
	{ "v_cmpx_f_f64_e64", 0x70, 1, 0, 0, 0 },
	{ "v_cmpx_lt_f64_e64", 0x71, 1, 1, 0, 0 },
	{ "v_cmpx_eq_f64_e64", 0x72, 1, 0, 2, 0 },
	{ "v_cmpx_le_f64_e64", 0x73, 1, 1, 2, 0 },
	{ "v_cmpx_gt_f64_e64", 0x74, 1, 0, 0, 0 },
	{ "v_cmpx_lg_f64_e64", 0x75, 1, 1, 0, 0 },
	{ "v_cmpx_ge_f64_e64", 0x76, 1, 0, 2, 0 },
	{ "v_cmpx_o_f64_e64", 0x77, 1, 1, 2, 0 },
	{ "v_cmpx_u_f64_e64", 0x78, 1, 0, 0, 0 },
	{ "v_cmpx_nge_f64_e64", 0x79, 1, 1, 0, 0 },
	{ "v_cmpx_nlg_f64_e64", 0x7a, 1, 0, 2, 0 },
	{ "v_cmpx_ngt_f64_e64", 0x7b, 1, 1, 2, 0 },
	{ "v_cmpx_nle_f64_e64", 0x7c, 1, 0, 0, 0 },
	{ "v_cmpx_neq_f64_e64", 0x7d, 1, 1, 0, 0 },
	{ "v_cmpx_nlt_f64_e64", 0x7e, 1, 0, 2, 0 },
	{ "v_cmpx_tru_f64_e64", 0x7f, 1, 1, 2, 0 },
	{ "v_cmp_f_i16_e64", 0xa0, 1, 0, 0, 0 },
	{ "v_cmp_lt_i16_e64", 0xa1, 1, 0, 0, 0 },
	{ "v_cmp_eq_i16_e64", 0xa2, 1, 0, 0, 0 },
	{ "v_cmp_le_i16_e64", 0xa3, 1, 0, 0, 0 },
	{ "v_cmp_gt_i16_e64", 0xa4, 1, 0, 0, 0 },
	{ "v_cmp_ne_i16_e64", 0xa5, 1, 0, 0, 0 },
	{ "v_cmp_ge_i16_e64", 0xa6, 1, 0, 0, 0 },
	{ "v_cmp_t_i16_e64", 0xa7, 1, 0, 0, 0 },
	{ "v_cmp_f_u16_e64", 0xa8, 1, 0, 0, 0 },
	{ "v_cmp_lt_u16_e64", 0xa9, 1, 0, 0, 0 },
	{ "v_cmp_eq_u16_e64", 0xaa, 1, 0, 0, 0 },
	{ "v_cmp_le_u16_e64", 0xab, 1, 0, 0, 0 },
	{ "v_cmp_gt_u16_e64", 0xac, 1, 0, 0, 0 },
	{ "v_cmp_ne_u16_e64", 0xad, 1, 0, 0, 0 },
	{ "v_cmp_ge_u16_e64", 0xae, 1, 0, 0, 0 },
	{ "v_cmp_t_u16_e64", 0xaf, 1, 0, 0, 0 },
	{ "v_cmpx_f_i16_e64", 0xb0, 1, 0, 0, 0 },
	{ "v_cmpx_lt_i16_e64", 0xb1, 1, 0, 0, 0 },
	{ "v_cmpx_eq_i16_e64", 0xb2, 1, 0, 0, 0 },
	{ "v_cmpx_le_i16_e64", 0xb3, 1, 0, 0, 0 },
	{ "v_cmpx_gt_i16_e64", 0xb4, 1, 0, 0, 0 },
	{ "v_cmpx_ne_i16_e64", 0xb5, 1, 0, 0, 0 },
	{ "v_cmpx_ge_i16_e64", 0xb6, 1, 0, 0, 0 },
	{ "v_cmpx_t_i16_e64", 0xb7, 1, 0, 0, 0 },
	{ "v_cmpx_f_u16_e64", 0xb8, 1, 0, 0, 0 },
	{ "v_cmpx_lt_u16_e64", 0xb9, 1, 0, 0, 0 },
	{ "v_cmpx_eq_u16_e64", 0xba, 1, 0, 0, 0 },
	{ "v_cmpx_le_u16_e64", 0xbb, 1, 0, 0, 0 },
	{ "v_cmpx_gt_u16_e64", 0xbc, 1, 0, 0, 0 },
	{ "v_cmpx_ne_u16_e64", 0xbd, 1, 0, 0, 0 },
	{ "v_cmpx_ge_u16_e64", 0xbe, 1, 0, 0, 0 },
	{ "v_cmpx_t_u16_e64", 0xbf, 1, 0, 0, 0 },
	{ "v_cmp_f_i32_e64", 0xc0, 1, 0, 0, 0 },
	{ "v_cmp_lt_i32_e64", 0xc1, 1, 0, 0, 0 },
	{ "v_cmp_eq_i32_e64", 0xc2, 1, 0, 0, 0 },
	{ "v_cmp_le_i32_e64", 0xc3, 1, 0, 0, 0 },
	{ "v_cmp_gt_i32_e64", 0xc4, 1, 0, 0, 0 },
	{ "v_cmp_ne_i32_e64", 0xc5, 1, 0, 0, 0 },
	{ "v_cmp_ge_i32_e64", 0xc6, 1, 0, 0, 0 },
	{ "v_cmp_t_i32_e64", 0xc7, 1, 0, 0, 0 },
	{ "v_cmp_f_u32_e64", 0xc8, 1, 0, 0, 0 },
	{ "v_cmp_lt_u32_e64", 0xc9, 1, 0, 0, 0 },
	{ "v_cmp_eq_u32_e64", 0xca, 1, 0, 0, 0 },
	{ "v_cmp_le_u32_e64", 0xcb, 1, 0, 0, 0 },
	{ "v_cmp_gt_u32_e64", 0xcc, 1, 0, 0, 0 },
	{ "v_cmp_ne_u32_e64", 0xcd, 1, 0, 0, 0 },
	{ "v_cmp_ge_u32_e64", 0xce, 1, 0, 0, 0 },
	{ "v_cmp_t_u32_e64", 0xcf, 1, 0, 0, 0 },
	{ "v_cmpx_f_i32_e64", 0xd0, 1, 0, 0, 0 },
	{ "v_cmpx_lt_i32_e64", 0xd1, 1, 0, 0, 0 },
	{ "v_cmpx_eq_i32_e64", 0xd2, 1, 0, 0, 0 },
	{ "v_cmpx_le_i32_e64", 0xd3, 1, 0, 0, 0 },
	{ "v_cmpx_gt_i32_e64", 0xd4, 1, 0, 0, 0 },
	{ "v_cmpx_ne_i32_e64", 0xd5, 1, 0, 0, 0 },
	{ "v_cmpx_ge_i32_e64", 0xd6, 1, 0, 0, 0 },
	{ "v_cmpx_t_i32_e64", 0xd7, 1, 0, 0, 0 },
	{ "v_cmpx_f_u32_e64", 0xd8, 1, 0, 0, 0 },
	{ "v_cmpx_lt_u32_e64", 0xd9, 1, 0, 0, 0 },
	{ "v_cmpx_eq_u32_e64", 0xda, 1, 0, 0, 0 },
	{ "v_cmpx_le_u32_e64", 0xdb, 1, 0, 0, 0 },
	{ "v_cmpx_gt_u32_e64", 0xdc, 1, 0, 0, 0 },
	{ "v_cmpx_ne_u32_e64", 0xdd, 1, 0, 0, 0 },
	{ "v_cmpx_ge_u32_e64", 0xde, 1, 0, 0, 0 },
	{ "v_cmpx_t_u32_e64", 0xdf, 1, 0, 0, 0 },
	{ "v_cmp_f_i64_e64", 0xe0, 1, 0, 0, 0 },
	{ "v_cmp_lt_i64_e64", 0xe1, 1, 0, 0, 0 },
	{ "v_cmp_eq_i64_e64", 0xe2, 1, 0, 0, 0 },
	{ "v_cmp_le_i64_e64", 0xe3, 1, 0, 0, 0 },
	{ "v_cmp_gt_i64_e64", 0xe4, 1, 0, 0, 0 },
	{ "v_cmp_ne_i64_e64", 0xe5, 1, 0, 0, 0 },
	{ "v_cmp_ge_i64_e64", 0xe6, 1, 0, 0, 0 },
	{ "v_cmp_t_i64_e64", 0xe7, 1, 0, 0, 0 },
	{ "v_cmp_f_u64_e64", 0xe8, 1, 0, 0, 0 },
	{ "v_cmp_lt_u64_e64", 0xe9, 1, 0, 0, 0 },
	{ "v_cmp_eq_u64_e64", 0xea, 1, 0, 0, 0 },
	{ "v_cmp_le_u64_e64", 0xeb, 1, 0, 0, 0 },
	{ "v_cmp_gt_u64_e64", 0xec, 1, 0, 0, 0 },
	{ "v_cmp_ne_u64_e64", 0xed, 1, 0, 0, 0 },
	{ "v_cmp_ge_u64_e64", 0xee, 1, 0, 0, 0 },
	{ "v_cmp_t_u64_e64", 0xef, 1, 0, 0, 0 },
	{ "v_cmpx_f_i64_e64", 0xf0, 1, 0, 0, 0 },
	{ "v_cmpx_lt_i64_e64", 0xf1, 1, 0, 0, 0 },
	{ "v_cmpx_eq_i64_e64", 0xf2, 1, 0, 0, 0 },
	{ "v_cmpx_le_i64_e64", 0xf3, 1, 0, 0, 0 },
	{ "v_cmpx_gt_i64_e64", 0xf4, 1, 0, 0, 0 },
	{ "v_cmpx_ne_i64_e64", 0xf5, 1, 0, 0, 0 },
	{ "v_cmpx_ge_i64_e64", 0xf6, 1, 0, 0, 0 },
	{ "v_cmpx_t_i64_e64", 0xf7, 1, 0, 0, 0 },
	{ "v_cmpx_f_u64_e64", 0xf8, 1, 0, 0, 0 },
	{ "v_cmpx_lt_u64_e64", 0xf9, 1, 0, 0, 0 },
	{ "v_cmpx_eq_u64_e64", 0xfa, 1, 0, 0, 0 },
	{ "v_cmpx_le_u64_e64", 0xfb, 1, 0, 0, 0 },
	{ "v_cmpx_gt_u64_e64", 0xfc, 1, 0, 0, 0 },
	{ "v_cmpx_ne_u64_e64", 0xfd, 1, 0, 0, 0 },
	{ "v_cmpx_ge_u64_e64", 0xfe, 1, 0, 0, 0 },
	{ "v_cmpx_t_u64_e64", 0xff, 1, 0, 0, 0 },
	{ "v_cmp_class_f32_sdwa", 0x10, 2, 0, 0, 0 },
	{ "v_cmpx_class_f32_sdwa", 0x11, 2, 0, 0, 0 },
	{ "v_cmp_class_f16_sdwa", 0x14, 2, 0, 0, 2 },
	{ "v_cmpx_class_f16_sdwa", 0x15, 2, 0, 0, 1 },
	{ "v_cmp_f_f16_sdwa", 0x20, 2, 0, 0, 2 },
	{ "v_cmp_lt_f16_sdwa", 0x21, 2, 0, 0, 1 },
	{ "v_cmp_eq_f16_sdwa", 0x22, 2, 0, 0, 2 },
	{ "v_cmp_le_f16_sdwa", 0x23, 2, 0, 0, 1 },
	{ "v_cmp_gt_f16_sdwa", 0x24, 2, 0, 0, 2 },
	{ "v_cmp_lg_f16_sdwa", 0x25, 2, 0, 0, 1 },
	{ "v_cmp_ge_f16_sdwa", 0x26, 2, 0, 0, 2 },
	{ "v_cmp_o_f16_sdwa", 0x27, 2, 0, 0, 1 },
	{ "v_cmp_u_f16_sdwa", 0x28, 2, 0, 0, 2 },
	{ "v_cmp_nge_f16_sdwa", 0x29, 2, 0, 0, 1 },
	{ "v_cmp_nlg_f16_sdwa", 0x2a, 2, 0, 0, 2 },
	{ "v_cmp_ngt_f16_sdwa", 0x2b, 2, 0, 0, 1 },
	{ "v_cmp_nle_f16_sdwa", 0x2c, 2, 0, 0, 2 },
	{ "v_cmp_neq_f16_sdwa", 0x2d, 2, 0, 0, 1 },
	{ "v_cmp_nlt_f16_sdwa", 0x2e, 2, 0, 0, 2 },
	{ "v_cmp_tru_f16_sdwa", 0x2f, 2, 0, 0, 1 },
	{ "v_cmpx_f_f16_sdwa", 0x30, 2, 0, 0, 2 },
	{ "v_cmpx_lt_f16_sdwa", 0x31, 2, 0, 0, 1 },
	{ "v_cmpx_eq_f16_sdwa", 0x32, 2, 0, 0, 2 },
	{ "v_cmpx_le_f16_sdwa", 0x33, 2, 0, 0, 1 },
	{ "v_cmpx_gt_f16_sdwa", 0x34, 2, 0, 0, 2 },
	{ "v_cmpx_lg_f16_sdwa", 0x35, 2, 0, 0, 1 },
	{ "v_cmpx_ge_f16_sdwa", 0x36, 2, 0, 0, 2 },
	{ "v_cmpx_o_f16_sdwa", 0x37, 2, 0, 0, 1 },
	{ "v_cmpx_u_f16_sdwa", 0x38, 2, 0, 0, 2 },
	{ "v_cmpx_nge_f16_sdwa", 0x39, 2, 0, 0, 1 },
	{ "v_cmpx_nlg_f16_sdwa", 0x3a, 2, 0, 0, 2 },
	{ "v_cmpx_ngt_f16_sdwa", 0x3b, 2, 0, 0, 1 },
	{ "v_cmpx_nle_f16_sdwa", 0x3c, 2, 0, 0, 2 },
	{ "v_cmpx_neq_f16_sdwa", 0x3d, 2, 0, 0, 1 },
	{ "v_cmpx_nlt_f16_sdwa", 0x3e, 2, 0, 0, 2 },
	{ "v_cmpx_tru_f16_sdwa", 0x3f, 2, 0, 0, 1 },
	{ "v_cmp_f_f32_sdwa", 0x40, 2, 0, 0, 0 },
	{ "v_cmp_lt_f32_sdwa", 0x41, 2, 0, 0, 0 },
	{ "v_cmp_eq_f32_sdwa", 0x42, 2, 0, 0, 0 },
	{ "v_cmp_le_f32_sdwa", 0x43, 2, 0, 0, 0 },
	{ "v_cmp_gt_f32_sdwa", 0x44, 2, 0, 0, 0 },
	{ "v_cmp_lg_f32_sdwa", 0x45, 2, 0, 0, 0 },
	{ "v_cmp_ge_f32_sdwa", 0x46, 2, 0, 0, 0 },
	{ "v_cmp_o_f32_sdwa", 0x47, 2, 0, 0, 0 },
	{ "v_cmp_u_f32_sdwa", 0x48, 2, 0, 0, 0 },
	{ "v_cmp_nge_f32_sdwa", 0x49, 2, 0, 0, 0 },
	{ "v_cmp_nlg_f32_sdwa", 0x4a, 2, 0, 0, 0 },
	{ "v_cmp_ngt_f32_sdwa", 0x4b, 2, 0, 0, 0 },
	{ "v_cmp_nle_f32_sdwa", 0x4c, 2, 0, 0, 0 },
	{ "v_cmp_neq_f32_sdwa", 0x4d, 2, 0, 0, 0 },
	{ "v_cmp_nlt_f32_sdwa", 0x4e, 2, 0, 0, 0 },
	{ "v_cmp_tru_f32_sdwa", 0x4f, 2, 0, 0, 0 },
	{ "v_cmpx_f_f32_sdwa", 0x50, 2, 0, 0, 0 },
	{ "v_cmpx_lt_f32_sdwa", 0x51, 2, 0, 0, 0 },
	{ "v_cmpx_eq_f32_sdwa", 0x52, 2, 0, 0, 0 },
	{ "v_cmpx_le_f32_sdwa", 0x53, 2, 0, 0, 0 },
	{ "v_cmpx_gt_f32_sdwa", 0x54, 2, 0, 0, 0 },
	{ "v_cmpx_lg_f32_sdwa", 0x55, 2, 0, 0, 0 },
	{ "v_cmpx_ge_f32_sdwa", 0x56, 2, 0, 0, 0 },
	{ "v_cmpx_o_f32_sdwa", 0x57, 2, 0, 0, 0 },
	{ "v_cmpx_u_f32_sdwa", 0x58, 2, 0, 0, 0 },
	{ "v_cmpx_nge_f32_sdwa", 0x59, 2, 0, 0, 0 },
	{ "v_cmpx_nlg_f32_sdwa", 0x5a, 2, 0, 0, 0 },
	{ "v_cmpx_ngt_f32_sdwa", 0x5b, 2, 0, 0, 0 },
	{ "v_cmpx_nle_f32_sdwa", 0x5c, 2, 0, 0, 0 },
	{ "v_cmpx_neq_f32_sdwa", 0x5d, 2, 0, 0, 0 },
	{ "v_cmpx_nlt_f32_sdwa", 0x5e, 2, 0, 0, 0 },
	{ "v_cmpx_tru_f32_sdwa", 0x5f, 2, 0, 0, 0 },
	{ "v_cmp_f_i16_sdwa", 0xa0, 2, 0, 0, 2 },
	{ "v_cmp_lt_i16_sdwa", 0xa1, 2, 0, 0, 1 },
	{ "v_cmp_eq_i16_sdwa", 0xa2, 2, 0, 0, 2 },
	{ "v_cmp_le_i16_sdwa", 0xa3, 2, 0, 0, 1 },
	{ "v_cmp_gt_i16_sdwa", 0xa4, 2, 0, 0, 2 },
	{ "v_cmp_ne_i16_sdwa", 0xa5, 2, 0, 0, 1 },
	{ "v_cmp_ge_i16_sdwa", 0xa6, 2, 0, 0, 2 },
	{ "v_cmp_t_i16_sdwa", 0xa7, 2, 0, 0, 1 },
	{ "v_cmp_f_u16_sdwa", 0xa8, 2, 0, 0, 2 },
	{ "v_cmp_lt_u16_sdwa", 0xa9, 2, 0, 0, 1 },
	{ "v_cmp_eq_u16_sdwa", 0xaa, 2, 0, 0, 2 },
	{ "v_cmp_le_u16_sdwa", 0xab, 2, 0, 0, 1 },
	{ "v_cmp_gt_u16_sdwa", 0xac, 2, 0, 0, 2 },
	{ "v_cmp_ne_u16_sdwa", 0xad, 2, 0, 0, 1 },
	{ "v_cmp_ge_u16_sdwa", 0xae, 2, 0, 0, 2 },
	{ "v_cmp_t_u16_sdwa", 0xaf, 2, 0, 0, 1 },
	{ "v_cmpx_f_i16_sdwa", 0xb0, 2, 0, 0, 2 },
	{ "v_cmpx_lt_i16_sdwa", 0xb1, 2, 0, 0, 1 },
	{ "v_cmpx_eq_i16_sdwa", 0xb2, 2, 0, 0, 2 },
	{ "v_cmpx_le_i16_sdwa", 0xb3, 2, 0, 0, 1 },
	{ "v_cmpx_gt_i16_sdwa", 0xb4, 2, 0, 0, 2 },
	{ "v_cmpx_ne_i16_sdwa", 0xb5, 2, 0, 0, 1 },
	{ "v_cmpx_ge_i16_sdwa", 0xb6, 2, 0, 0, 2 },
	{ "v_cmpx_t_i16_sdwa", 0xb7, 2, 0, 0, 1 },
	{ "v_cmpx_f_u16_sdwa", 0xb8, 2, 0, 0, 2 },
	{ "v_cmpx_lt_u16_sdwa", 0xb9, 2, 0, 0, 1 },
	{ "v_cmpx_eq_u16_sdwa", 0xba, 2, 0, 0, 2 },
	{ "v_cmpx_le_u16_sdwa", 0xbb, 2, 0, 0, 1 },
	{ "v_cmpx_gt_u16_sdwa", 0xbc, 2, 0, 0, 2 },
	{ "v_cmpx_ne_u16_sdwa", 0xbd, 2, 0, 0, 1 },
	{ "v_cmpx_ge_u16_sdwa", 0xbe, 2, 0, 0, 2 },
	{ "v_cmpx_t_u16_sdwa", 0xbf, 2, 0, 0, 1 },
	{ "v_cmp_f_i32_sdwa", 0xc0, 2, 0, 0, 3 },
	{ "v_cmp_lt_i32_sdwa", 0xc1, 2, 0, 0, 3 },
	{ "v_cmp_eq_i32_sdwa", 0xc2, 2, 0, 0, 3 },
	{ "v_cmp_le_i32_sdwa", 0xc3, 2, 0, 0, 3 },
	{ "v_cmp_gt_i32_sdwa", 0xc4, 2, 0, 0, 3 },
	{ "v_cmp_ne_i32_sdwa", 0xc5, 2, 0, 0, 3 },
	{ "v_cmp_ge_i32_sdwa", 0xc6, 2, 0, 0, 3 },
	{ "v_cmp_t_i32_sdwa", 0xc7, 2, 0, 0, 3 },
	{ "v_cmp_f_u32_sdwa", 0xc8, 2, 0, 0, 3 },
	{ "v_cmp_lt_u32_sdwa", 0xc9, 2, 0, 0, 3 },
	{ "v_cmp_eq_u32_sdwa", 0xca, 2, 0, 0, 3 },
	{ "v_cmp_le_u32_sdwa", 0xcb, 2, 0, 0, 3 },
	{ "v_cmp_gt_u32_sdwa", 0xcc, 2, 0, 0, 3 },
	{ "v_cmp_ne_u32_sdwa", 0xcd, 2, 0, 0, 3 },
	{ "v_cmp_ge_u32_sdwa", 0xce, 2, 0, 0, 3 },
	{ "v_cmp_t_u32_sdwa", 0xcf, 2, 0, 0, 3 },
	{ "v_cmpx_f_i32_sdwa", 0xd0, 2, 0, 0, 3 },
	{ "v_cmpx_lt_i32_sdwa", 0xd1, 2, 0, 0, 3 },
	{ "v_cmpx_eq_i32_sdwa", 0xd2, 2, 0, 0, 3 },
	{ "v_cmpx_le_i32_sdwa", 0xd3, 2, 0, 0, 3 },
	{ "v_cmpx_gt_i32_sdwa", 0xd4, 2, 0, 0, 3 },
	{ "v_cmpx_ne_i32_sdwa", 0xd5, 2, 0, 0, 3 },
	{ "v_cmpx_ge_i32_sdwa", 0xd6, 2, 0, 0, 3 },
	{ "v_cmpx_t_i32_sdwa", 0xd7, 2, 0, 0, 3 },
	{ "v_cmpx_f_u32_sdwa", 0xd8, 2, 0, 0, 3 },
	{ "v_cmpx_lt_u32_sdwa", 0xd9, 2, 0, 0, 3 },
	{ "v_cmpx_eq_u32_sdwa", 0xda, 2, 0, 0, 3 },
	{ "v_cmpx_le_u32_sdwa", 0xdb, 2, 0, 0, 3 },
	{ "v_cmpx_gt_u32_sdwa", 0xdc, 2, 0, 0, 3 },
	{ "v_cmpx_ne_u32_sdwa", 0xdd, 2, 0, 0, 3 },
	{ "v_cmpx_ge_u32_sdwa", 0xde, 2, 0, 0, 3 },
	{ "v_cmpx_t_u32_sdwa", 0xdf, 2, 0, 0, 3 },
};

enum ty { F16, F32, F64, I16, U16, I32, U32, I64, U64 };

static enum ty type_of(unsigned op, bool *cls)
{
	*cls = op >= 0x10 && op <= 0x15;
	if (*cls)
		return op <= 0x11 ? F32 : op <= 0x13 ? F64 : F16;
	if (op < 0x40) return F16;
	if (op < 0x60) return F32;
	if (op < 0x80) return F64;
	if (op < 0xc0) return (op & 8) ? U16 : I16;
	if (op < 0xe0) return (op & 8) ? U32 : I32;
	return (op & 8) ? U64 : I64;
}

static bool is_cmpx(unsigned op)
{
	if (op >= 0x10 && op <= 0x15)
		return op & 1;
	if (op < 0x80)
		return (op & 0x10) != 0;
	return (op & 0x10) != 0;
}

static double h2d(uint16_t h) { _Float16 x; memcpy(&x, &h, 2); return (double)x; }
static double f2d(uint32_t u) { float x; memcpy(&x, &u, 4); return (double)x; }
static double d2d(uint64_t u) { double x; memcpy(&x, &u, 8); return x; }

static bool fcmp(unsigned c, double a, double b)
{
	bool un = isnan(a) || isnan(b);
	switch (c & 15) {
	case 0: return false;
	case 1: return !un && a < b;
	case 2: return !un && a == b;
	case 3: return !un && a <= b;
	case 4: return !un && a > b;
	case 5: return !un && a != b;
	case 6: return !un && a >= b;
	case 7: return !un;
	case 8: return un;
	case 9: return un || !(a >= b);
	case 10: return un || a == b;
	case 11: return un || !(a > b);
	case 12: return un || !(a <= b);
	case 13: return un || a != b;
	case 14: return un || !(a < b);
	default: return true;
	}
}

static bool icmp(unsigned c, bool sgn, uint64_t a, uint64_t b)
{
	bool lt = sgn ? (int64_t)a < (int64_t)b : a < b, eq = a == b;
	switch (c & 7) {
	case 0: return false;
	case 1: return lt;
	case 2: return eq;
	case 3: return lt || eq;
	case 4: return !lt && !eq;
	case 5: return !eq;
	case 6: return !lt;
	default: return true;
	}
}

/* class bit of a value given its sign, exponent-all-ones, zero, denormal,
 * NaN and quiet flags */
static unsigned class_bit(bool s, bool nan, bool quiet, bool inf, bool zero, bool den)
{
	if (nan) return quiet ? 1 : 0;
	if (inf) return s ? 2 : 9;
	if (zero) return s ? 5 : 6;
	if (den) return s ? 4 : 7;
	return s ? 3 : 8;
}

static bool model_bit(const struct cform *f, const uint32_t *r)
{
	bool cls;
	enum ty t = type_of(f->op, &cls);
	uint64_t a = r[0] | (uint64_t)r[1] << 32, b = r[2] | (uint64_t)r[3] << 32;

	/* SDWA selects */
	if (f->enc == 2) {
		if (f->sel == 1) { a = (uint32_t)a >> 16; b &= 0xffff; }
		else if (f->sel == 2) { a &= 0xffff; b = ((uint32_t)b >> 16) & 0xffff; }
		else if (f->sel == 3) {
			a = (uint32_t)a >> 16;
			b = ((uint32_t)b >> 16) & 0xff;
			if (t == I32) {
				a = (uint32_t)(int32_t)(int16_t)a;
				b = (uint32_t)(int32_t)(int8_t)b;
			}
		}
	}
	if (cls) {
		unsigned bit;
		if (t == F32) {
			uint32_t u = (uint32_t)a;
			if (f->neg & 1) u ^= 0x80000000u;
			bit = class_bit(u >> 31, (u & 0x7fffffff) > 0x7f800000, u & 0x400000,
					(u & 0x7fffffff) == 0x7f800000, !(u & 0x7fffffff),
					!(u & 0x7f800000) && (u & 0x7fffff));
		} else if (t == F64) {
			uint64_t u = a;
			if (f->neg & 1) u ^= 1ull << 63;
			bit = class_bit(u >> 63, (u << 1) > (0x7ffull << 53), (u >> 51) & 1,
					(u << 1) == (0x7ffull << 53), !(u << 1),
					!((u >> 52) & 0x7ff) && (u << 12));
			b = (uint32_t)r[2];
		} else {
			uint16_t u = (uint16_t)a;
			if (f->neg & 1) u ^= 0x8000;
			bit = class_bit(u >> 15, (u & 0x7fff) > 0x7c00, u & 0x200, (u & 0x7fff) == 0x7c00,
					!(u & 0x7fff), !(u & 0x7c00) && (u & 0x3ff));
		}
		return (b >> bit) & 1;
	}
	switch (t) {
	case F16: case F32: case F64: {
		double x, y;
		if (t == F16) { x = h2d((uint16_t)a); y = h2d((uint16_t)b); }
		else if (t == F32) { x = f2d((uint32_t)a); y = f2d((uint32_t)b); }
		else { x = d2d(a); y = d2d(b); }
		if (f->enc == 1 && (f->neg & 1)) x = -x;
		if (f->enc == 1 && (f->abs & 2)) y = fabs(y);
		return fcmp(f->op, x, y);
	}
	case I16: return icmp(f->op, true, (uint64_t)(int64_t)(int16_t)a, (uint64_t)(int64_t)(int16_t)b);
	case U16: return icmp(f->op, false, a & 0xffff, b & 0xffff);
	case I32: return icmp(f->op, true, (uint64_t)(int64_t)(int32_t)a, (uint64_t)(int64_t)(int32_t)b);
	case U32: return icmp(f->op, false, (uint32_t)a, (uint32_t)b);
	case I64: return icmp(f->op, true, a, b);
	default: return icmp(f->op, false, a, b);
	}
}

static uint32_t rng_state;
static uint32_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

/* edge values per width; A and B often come from the same few */
static uint64_t gen(enum ty t)
{
	static const uint16_t e16[] = { 0, 0x8000, 0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7e00, 0x7d00,
		0x0001, 0x8001, 0x4000, 0x3c01, 0x7fff, 0xffff };
	static const uint32_t e32[] = { 0, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x7f800000u,
		0xff800000u, 0x7fc00000u, 0x7fa00000u, 1, 0x80000001u, 0x40000000u, 0x3f800001u,
		0x7fffffffu, 0xffffffffu };
	static const uint64_t e64[] = { 0, 1ull << 63, 0x3ff0000000000000ull, 0xbff0000000000000ull,
		0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull,
		0x7ff4000000000000ull, 1, (1ull << 63) | 1, 0x4000000000000000ull,
		0x3ff0000000000001ull, 0x7fffffffffffffffull, ~0ull };
	unsigned k = rnd() % 4, i = rnd() % 14;
	uint64_t r = (uint64_t)rnd() << 32 | rnd();
	switch (t) {
	case F16: case I16: case U16: return k ? e16[i] | (r & 0xffff0000u) : r;
	case F32: case I32: case U32: return k ? e32[i] | (r & 0xffffffff00000000ull) : r;
	default: return k ? e64[i] : r;
	}
}

static struct hx_code code;
static int loaded;

static unsigned check(const struct cform *f)
{
	char path[600];
	uint32_t *in, *out;
	uint64_t args[2];
	unsigned bad = 0;
	bool cls, cx = is_cmpx(f->op);
	enum ty t = type_of(f->op, &cls);

	if (!loaded) {
		if (!hx_kernel_path("vopc", KEMU_ISA_GFX90A, path, sizeof(path))) {
			ck_assert_msg(!hx_target_expected(KEMU_ISA_GFX90A), "vopc-gfx90a.co not built");
			loaded = -1;
		} else {
			ck_assert_int_eq(hx_load(&code, path), 0);
			loaded = 1;
		}
	}
	if (loaded < 0)
		return 0;
	in = hx_alloc(64 * 32);
	out = hx_alloc(64 * 8);
	args[0] = (uint64_t)(uintptr_t)in;
	args[1] = (uint64_t)(uintptr_t)out;
	for (unsigned seed = 0; seed < 3; seed++) {
		struct hx_launch hl = { .gfx = KEMU_ISA_GFX90A, .args = args, .args_size = 16,
					.grid = { 64, 1, 1 }, .wg = { 64, 1, 1 } };
		struct kemu_isa_error err;
		int rc;
		rng_state = 0x243f6a88u ^ (seed * 0x9e3779b9u) ^ (uint32_t)(f - cforms) * 0x85ebca6bu;
		for (unsigned l = 0; l < 64; l++) {
			uint64_t a = gen(t), b = rnd() % 3 == 0 ? a : gen(t);
			uint32_t *r = in + 8 * l;
			if (cls)
				b = rnd() & 0x3ff;
			r[0] = (uint32_t)a; r[1] = (uint32_t)(a >> 32);
			r[2] = (uint32_t)b; r[3] = (uint32_t)(b >> 32);
			r[4] = seed == 0 ? 1 : rnd() % 5 != 0;
			r[5] = r[6] = r[7] = 0;
		}
		hl.kd = hx_kd(&code, f->name);
		ck_assert_msg(hl.kd != 0, "no %s.kd", f->name);
		rc = hx_run(&hl, &err);
		ck_assert_msg(rc == 0, "%s: %s: %s", f->name, kemu_isa_error_name(err.kind), err.message);
		for (unsigned l = 0; l < 64; l++) {
			const uint32_t *r = in + 8 * l;
			bool on = r[4] != 0, bit = on && model_bit(f, r);
			uint32_t want_exec = cx ? bit : on;
			if ((out[2 * l] != (uint32_t)bit || out[2 * l + 1] != want_exec) && bad++ < 4)
				fprintf(stderr, "%s lane %u: a %08x%08x b %08x%08x on %d: got %u/%u, model %u/%u\n",
					f->name, l, r[1], r[0], r[3], r[2], on, out[2 * l], out[2 * l + 1],
					bit, want_exec);
		}
	}
	hx_free(in);
	hx_free(out);
	return bad;
}

HX_FORMS_TEST(test_vopc_e32_match_model, cforms, check, 0)
HX_FORMS_TEST(test_vopc_e64_match_model, cforms, check, 1)
HX_FORMS_TEST(test_vopc_sdwa_match_model, cforms, check, 2)

/* The model on hand-worked values. */
START_TEST(test_model_hand_values)
{
	const struct cform nge = { "x", 0x49, 0, 0, 0, 0 }, lg = { "x", 0x45, 0, 0, 0, 0 };
	const struct cform cls = { "x", 0x10, 0, 0, 0, 0 }, ltu = { "x", 0xc9, 0, 0, 0, 0 };
	const struct cform lti = { "x", 0xc1, 0, 0, 0, 0 }, eqh = { "x", 0x22, 0, 0, 0, 0 };
	uint32_t r[4] = { 0x7fc00000u, 0, 0x3f800000u, 0 };
	ck_assert(model_bit(&nge, r));                /* NaN: not (a >= b) */
	ck_assert(!model_bit(&lg, r));                /* NaN: unordered, LG false */
	r[0] = 0x80000000u; r[2] = 0;
	ck_assert(!model_bit(&lg, r));                /* -0 and +0 are equal */
	r[0] = 0x00000001u; r[2] = 1u << 7;           /* +denormal: bit 7 */
	ck_assert(model_bit(&cls, r));
	r[0] = 0xffffffffu; r[2] = 1;
	ck_assert(!model_bit(&ltu, r));               /* u32: 0xffffffff < 1 false */
	ck_assert(model_bit(&lti, r));                /* i32: -1 < 1 */
	r[0] = 0x12340000u; r[2] = 0x56788000u;       /* f16 +0 == -0 (low halves) */
	ck_assert(model_bit(&eqh, r));
}
END_TEST

static Suite *vopc_suite(void)
{
	Suite *s = suite_create("isa_vopc");
	TCase *tc = tcase_create("vopc");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_model_hand_values);
	tcase_add_test(tc, test_vopc_e32_match_model);
	tcase_add_test(tc, test_vopc_e64_match_model);
	tcase_add_test(tc, test_vopc_sdwa_match_model);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(vopc_suite)
