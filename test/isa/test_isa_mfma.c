/*
 * test_isa_mfma.c — the matrix cores against a host model: every MFMA form
 * of gfx90a and gfx942 and gfx942's SMFMAC, each with its modifiers
 * (CBSZ/ABID broadcast, BLGP lane patterns, gfx942's f64 NEG, SMFMAC's
 * index sets), C and D in VGPRs, in AGPRs (A and B too), and C an inline
 * constant.  kernels/mfma.s (gfx90a) and kernels/mfma942.s (gfx942) hold
 * one kernel per row of the table below (both generated from the same
 * list); each runs one wave on per-lane records of generated A, B, C and
 * index data.
 *
 * The model is written from the matrix layouts of the CDNA2/CDNA3 ISA
 * guides (AMD's matrix instruction calculator for gfx9 prints them): it
 * unpacks whole matrices from the lanes, multiplies them as matrices and
 * places D back.  Data are chosen so that every partial sum is exact
 * (small integers and binary fractions, denormals with small mantissas),
 * where the ISA leaves nothing to the order or precision of the k-sum, so
 * the comparison is bit for bit; for i8 the 32-bit sums wrap (C near the
 * limits); a NaN input must give a NaN result (the payload is not
 * defined).  fp8/bf8 are gfx942's FNUZ E4M3/E5M2, decoded here by hand.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hl_check.h"
#include "isa_harness.h"

enum ty { T_F32, T_XF32, T_F16, T_BF16, T_I8, T_F64, T_FP8, T_BF8 };
enum { G90, G942 };

struct mform {
	const char *name;
	int gfx;
	unsigned m, k, blocks;
	enum ty ta, tb;
	int sparse, cbsz, abid, blgp, neg, kconst;
};

static const struct mform mforms[] = {
	{ "mf_mfma_f32_32x32x1f32", G90, 32, 1, 2, T_F32, T_F32, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x1f32_acc", G90, 32, 1, 2, T_F32, T_F32, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x1f32_k", G90, 32, 1, 2, T_F32, T_F32, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f32_32x32x1f32_cb", G90, 32, 1, 2, T_F32, T_F32, 0, 1, 1, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x1f32_cb1", G90, 32, 1, 2, T_F32, T_F32, 0, 1, 1, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x1f32_blgp", G90, 32, 1, 2, T_F32, T_F32, 0, 0, 0, 1, 0, 0 },
	{ "mf_mfma_f32_16x16x1f32", G90, 16, 1, 4, T_F32, T_F32, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x1f32_acc", G90, 16, 1, 4, T_F32, T_F32, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x1f32_k", G90, 16, 1, 4, T_F32, T_F32, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f32_16x16x1f32_cb", G90, 16, 1, 4, T_F32, T_F32, 0, 2, 3, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x1f32_cb1", G90, 16, 1, 4, T_F32, T_F32, 0, 1, 1, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x1f32_blgp", G90, 16, 1, 4, T_F32, T_F32, 0, 0, 0, 1, 0, 0 },
	{ "mf_mfma_f32_4x4x1f32", G90, 4, 1, 16, T_F32, T_F32, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_4x4x1f32_acc", G90, 4, 1, 16, T_F32, T_F32, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_4x4x1f32_k", G90, 4, 1, 16, T_F32, T_F32, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f32_4x4x1f32_cb", G90, 4, 1, 16, T_F32, T_F32, 0, 4, 15, 0, 0, 0 },
	{ "mf_mfma_f32_4x4x1f32_cb1", G90, 4, 1, 16, T_F32, T_F32, 0, 1, 1, 0, 0, 0 },
	{ "mf_mfma_f32_4x4x1f32_blgp", G90, 4, 1, 16, T_F32, T_F32, 0, 0, 0, 6, 0, 0 },
	{ "mf_mfma_f32_32x32x2f32", G90, 32, 2, 1, T_F32, T_F32, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x2f32_acc", G90, 32, 2, 1, T_F32, T_F32, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x2f32_k", G90, 32, 2, 1, T_F32, T_F32, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f32_16x16x4f32", G90, 16, 4, 1, T_F32, T_F32, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x4f32_acc", G90, 16, 4, 1, T_F32, T_F32, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x4f32_k", G90, 16, 4, 1, T_F32, T_F32, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f32_32x32x4f16", G90, 32, 4, 2, T_F16, T_F16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x4f16_acc", G90, 32, 4, 2, T_F16, T_F16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x4f16_k", G90, 32, 4, 2, T_F16, T_F16, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f32_32x32x4f16_cb", G90, 32, 4, 2, T_F16, T_F16, 0, 1, 1, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x4f16_cb1", G90, 32, 4, 2, T_F16, T_F16, 0, 1, 1, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x4f16_blgp", G90, 32, 4, 2, T_F16, T_F16, 0, 0, 0, 1, 0, 0 },
	{ "mf_mfma_f32_16x16x4f16", G90, 16, 4, 4, T_F16, T_F16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x4f16_acc", G90, 16, 4, 4, T_F16, T_F16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x4f16_k", G90, 16, 4, 4, T_F16, T_F16, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f32_16x16x4f16_cb", G90, 16, 4, 4, T_F16, T_F16, 0, 2, 1, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x4f16_cb1", G90, 16, 4, 4, T_F16, T_F16, 0, 1, 1, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x4f16_blgp", G90, 16, 4, 4, T_F16, T_F16, 0, 0, 0, 1, 0, 0 },
	{ "mf_mfma_f32_4x4x4f16", G90, 4, 4, 16, T_F16, T_F16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_4x4x4f16_acc", G90, 4, 4, 16, T_F16, T_F16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_4x4x4f16_k", G90, 4, 4, 16, T_F16, T_F16, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f32_4x4x4f16_cb", G90, 4, 4, 16, T_F16, T_F16, 0, 4, 1, 0, 0, 0 },
	{ "mf_mfma_f32_4x4x4f16_cb1", G90, 4, 4, 16, T_F16, T_F16, 0, 1, 1, 0, 0, 0 },
	{ "mf_mfma_f32_4x4x4f16_blgp", G90, 4, 4, 16, T_F16, T_F16, 0, 0, 0, 6, 0, 0 },
	{ "mf_mfma_f32_32x32x8f16", G90, 32, 8, 1, T_F16, T_F16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x8f16_acc", G90, 32, 8, 1, T_F16, T_F16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x8f16_k", G90, 32, 8, 1, T_F16, T_F16, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f32_16x16x16f16", G90, 16, 16, 1, T_F16, T_F16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x16f16_acc", G90, 16, 16, 1, T_F16, T_F16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x16f16_k", G90, 16, 16, 1, T_F16, T_F16, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_i32_32x32x4i8", G90, 32, 4, 2, T_I8, T_I8, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_i32_32x32x4i8_acc", G90, 32, 4, 2, T_I8, T_I8, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_i32_32x32x4i8_k", G90, 32, 4, 2, T_I8, T_I8, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_i32_32x32x4i8_cb", G90, 32, 4, 2, T_I8, T_I8, 0, 1, 1, 0, 0, 0 },
	{ "mf_mfma_i32_32x32x4i8_cb1", G90, 32, 4, 2, T_I8, T_I8, 0, 1, 1, 0, 0, 0 },
	{ "mf_mfma_i32_32x32x4i8_blgp", G90, 32, 4, 2, T_I8, T_I8, 0, 0, 0, 7, 0, 0 },
	{ "mf_mfma_i32_16x16x4i8", G90, 16, 4, 4, T_I8, T_I8, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_i32_16x16x4i8_acc", G90, 16, 4, 4, T_I8, T_I8, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_i32_16x16x4i8_k", G90, 16, 4, 4, T_I8, T_I8, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_i32_16x16x4i8_cb", G90, 16, 4, 4, T_I8, T_I8, 0, 2, 3, 0, 0, 0 },
	{ "mf_mfma_i32_16x16x4i8_cb1", G90, 16, 4, 4, T_I8, T_I8, 0, 1, 1, 0, 0, 0 },
	{ "mf_mfma_i32_16x16x4i8_blgp", G90, 16, 4, 4, T_I8, T_I8, 0, 0, 0, 7, 0, 0 },
	{ "mf_mfma_i32_4x4x4i8", G90, 4, 4, 16, T_I8, T_I8, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_i32_4x4x4i8_acc", G90, 4, 4, 16, T_I8, T_I8, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_i32_4x4x4i8_k", G90, 4, 4, 16, T_I8, T_I8, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_i32_4x4x4i8_cb", G90, 4, 4, 16, T_I8, T_I8, 0, 4, 15, 0, 0, 0 },
	{ "mf_mfma_i32_4x4x4i8_cb1", G90, 4, 4, 16, T_I8, T_I8, 0, 1, 1, 0, 0, 0 },
	{ "mf_mfma_i32_4x4x4i8_blgp", G90, 4, 4, 16, T_I8, T_I8, 0, 0, 0, 5, 0, 0 },
	{ "mf_mfma_i32_32x32x8i8", G90, 32, 8, 1, T_I8, T_I8, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_i32_32x32x8i8_acc", G90, 32, 8, 1, T_I8, T_I8, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_i32_32x32x8i8_k", G90, 32, 8, 1, T_I8, T_I8, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_i32_16x16x16i8", G90, 16, 16, 1, T_I8, T_I8, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_i32_16x16x16i8_acc", G90, 16, 16, 1, T_I8, T_I8, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_i32_16x16x16i8_k", G90, 16, 16, 1, T_I8, T_I8, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f32_32x32x4bf16_1k", G90, 32, 4, 2, T_BF16, T_BF16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x4bf16_1k_acc", G90, 32, 4, 2, T_BF16, T_BF16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x4bf16_1k_k", G90, 32, 4, 2, T_BF16, T_BF16, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f32_32x32x4bf16_1k_cb", G90, 32, 4, 2, T_BF16, T_BF16, 0, 1, 1, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x4bf16_1k_cb1", G90, 32, 4, 2, T_BF16, T_BF16, 0, 1, 1, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x4bf16_1k_blgp", G90, 32, 4, 2, T_BF16, T_BF16, 0, 0, 0, 5, 0, 0 },
	{ "mf_mfma_f32_16x16x4bf16_1k", G90, 16, 4, 4, T_BF16, T_BF16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x4bf16_1k_acc", G90, 16, 4, 4, T_BF16, T_BF16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x4bf16_1k_k", G90, 16, 4, 4, T_BF16, T_BF16, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f32_16x16x4bf16_1k_cb", G90, 16, 4, 4, T_BF16, T_BF16, 0, 2, 3, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x4bf16_1k_cb1", G90, 16, 4, 4, T_BF16, T_BF16, 0, 1, 1, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x4bf16_1k_blgp", G90, 16, 4, 4, T_BF16, T_BF16, 0, 0, 0, 5, 0, 0 },
	{ "mf_mfma_f32_4x4x4bf16_1k", G90, 4, 4, 16, T_BF16, T_BF16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_4x4x4bf16_1k_acc", G90, 4, 4, 16, T_BF16, T_BF16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_4x4x4bf16_1k_k", G90, 4, 4, 16, T_BF16, T_BF16, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f32_4x4x4bf16_1k_cb", G90, 4, 4, 16, T_BF16, T_BF16, 0, 4, 15, 0, 0, 0 },
	{ "mf_mfma_f32_4x4x4bf16_1k_cb1", G90, 4, 4, 16, T_BF16, T_BF16, 0, 1, 1, 0, 0, 0 },
	{ "mf_mfma_f32_4x4x4bf16_1k_blgp", G90, 4, 4, 16, T_BF16, T_BF16, 0, 0, 0, 3, 0, 0 },
	{ "mf_mfma_f32_32x32x8bf16_1k", G90, 32, 8, 1, T_BF16, T_BF16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x8bf16_1k_acc", G90, 32, 8, 1, T_BF16, T_BF16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x8bf16_1k_k", G90, 32, 8, 1, T_BF16, T_BF16, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f32_16x16x16bf16_1k", G90, 16, 16, 1, T_BF16, T_BF16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x16bf16_1k_acc", G90, 16, 16, 1, T_BF16, T_BF16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x16bf16_1k_k", G90, 16, 16, 1, T_BF16, T_BF16, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f32_32x32x2bf16", G90, 32, 2, 2, T_BF16, T_BF16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x2bf16_acc", G90, 32, 2, 2, T_BF16, T_BF16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x2bf16_k", G90, 32, 2, 2, T_BF16, T_BF16, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f32_32x32x2bf16_cb", G90, 32, 2, 2, T_BF16, T_BF16, 0, 1, 1, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x2bf16_cb1", G90, 32, 2, 2, T_BF16, T_BF16, 0, 1, 1, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x2bf16_blgp", G90, 32, 2, 2, T_BF16, T_BF16, 0, 0, 0, 2, 0, 0 },
	{ "mf_mfma_f32_16x16x2bf16", G90, 16, 2, 4, T_BF16, T_BF16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x2bf16_acc", G90, 16, 2, 4, T_BF16, T_BF16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x2bf16_k", G90, 16, 2, 4, T_BF16, T_BF16, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f32_16x16x2bf16_cb", G90, 16, 2, 4, T_BF16, T_BF16, 0, 2, 3, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x2bf16_cb1", G90, 16, 2, 4, T_BF16, T_BF16, 0, 1, 1, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x2bf16_blgp", G90, 16, 2, 4, T_BF16, T_BF16, 0, 0, 0, 2, 0, 0 },
	{ "mf_mfma_f32_4x4x2bf16", G90, 4, 2, 16, T_BF16, T_BF16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_4x4x2bf16_acc", G90, 4, 2, 16, T_BF16, T_BF16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_4x4x2bf16_k", G90, 4, 2, 16, T_BF16, T_BF16, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f32_4x4x2bf16_cb", G90, 4, 2, 16, T_BF16, T_BF16, 0, 4, 15, 0, 0, 0 },
	{ "mf_mfma_f32_4x4x2bf16_cb1", G90, 4, 2, 16, T_BF16, T_BF16, 0, 1, 1, 0, 0, 0 },
	{ "mf_mfma_f32_4x4x2bf16_blgp", G90, 4, 2, 16, T_BF16, T_BF16, 0, 0, 0, 7, 0, 0 },
	{ "mf_mfma_f32_32x32x4bf16", G90, 32, 4, 1, T_BF16, T_BF16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x4bf16_acc", G90, 32, 4, 1, T_BF16, T_BF16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x4bf16_k", G90, 32, 4, 1, T_BF16, T_BF16, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f32_16x16x8bf16", G90, 16, 8, 1, T_BF16, T_BF16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x8bf16_acc", G90, 16, 8, 1, T_BF16, T_BF16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x8bf16_k", G90, 16, 8, 1, T_BF16, T_BF16, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f64_16x16x4f64", G90, 16, 4, 1, T_F64, T_F64, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f64_16x16x4f64_acc", G90, 16, 4, 1, T_F64, T_F64, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f64_16x16x4f64_k", G90, 16, 4, 1, T_F64, T_F64, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f64_4x4x4f64", G90, 4, 4, 4, T_F64, T_F64, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f64_4x4x4f64_acc", G90, 4, 4, 4, T_F64, T_F64, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f64_4x4x4f64_k", G90, 4, 4, 4, T_F64, T_F64, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f64_4x4x4f64_cb", G90, 4, 4, 4, T_F64, T_F64, 0, 2, 3, 0, 0, 0 },
	{ "mf_mfma_f64_4x4x4f64_cb1", G90, 4, 4, 4, T_F64, T_F64, 0, 1, 1, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x8_xf32", G942, 16, 8, 1, T_XF32, T_XF32, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x8_xf32_acc", G942, 16, 8, 1, T_XF32, T_XF32, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x8_xf32_k", G942, 16, 8, 1, T_XF32, T_XF32, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f32_32x32x4_xf32", G942, 32, 4, 1, T_XF32, T_XF32, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x4_xf32_acc", G942, 32, 4, 1, T_XF32, T_XF32, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x4_xf32_k", G942, 32, 4, 1, T_XF32, T_XF32, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f32_32x32x1_2b_f32", G942, 32, 1, 2, T_F32, T_F32, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x1_2b_f32_acc", G942, 32, 1, 2, T_F32, T_F32, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x1_2b_f32_k", G942, 32, 1, 2, T_F32, T_F32, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f32_32x32x1_2b_f32_cb", G942, 32, 1, 2, T_F32, T_F32, 0, 1, 1, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x1_2b_f32_cb1", G942, 32, 1, 2, T_F32, T_F32, 0, 1, 1, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x1_2b_f32_blgp", G942, 32, 1, 2, T_F32, T_F32, 0, 0, 0, 5, 0, 0 },
	{ "mf_mfma_f32_16x16x1_4b_f32", G942, 16, 1, 4, T_F32, T_F32, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x1_4b_f32_acc", G942, 16, 1, 4, T_F32, T_F32, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x1_4b_f32_k", G942, 16, 1, 4, T_F32, T_F32, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f32_16x16x1_4b_f32_cb", G942, 16, 1, 4, T_F32, T_F32, 0, 2, 3, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x1_4b_f32_cb1", G942, 16, 1, 4, T_F32, T_F32, 0, 1, 1, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x1_4b_f32_blgp", G942, 16, 1, 4, T_F32, T_F32, 0, 0, 0, 5, 0, 0 },
	{ "mf_mfma_f32_4x4x1_16b_f32", G942, 4, 1, 16, T_F32, T_F32, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_4x4x1_16b_f32_acc", G942, 4, 1, 16, T_F32, T_F32, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_4x4x1_16b_f32_k", G942, 4, 1, 16, T_F32, T_F32, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f32_4x4x1_16b_f32_cb", G942, 4, 1, 16, T_F32, T_F32, 0, 4, 15, 0, 0, 0 },
	{ "mf_mfma_f32_4x4x1_16b_f32_cb1", G942, 4, 1, 16, T_F32, T_F32, 0, 1, 1, 0, 0, 0 },
	{ "mf_mfma_f32_4x4x1_16b_f32_blgp", G942, 4, 1, 16, T_F32, T_F32, 0, 0, 0, 4, 0, 0 },
	{ "mf_mfma_f32_32x32x2_f32", G942, 32, 2, 1, T_F32, T_F32, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x2_f32_acc", G942, 32, 2, 1, T_F32, T_F32, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x2_f32_k", G942, 32, 2, 1, T_F32, T_F32, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f32_16x16x4_f32", G942, 16, 4, 1, T_F32, T_F32, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x4_f32_acc", G942, 16, 4, 1, T_F32, T_F32, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x4_f32_k", G942, 16, 4, 1, T_F32, T_F32, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f32_32x32x4_2b_f16", G942, 32, 4, 2, T_F16, T_F16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x4_2b_f16_acc", G942, 32, 4, 2, T_F16, T_F16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x4_2b_f16_k", G942, 32, 4, 2, T_F16, T_F16, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f32_32x32x4_2b_f16_cb", G942, 32, 4, 2, T_F16, T_F16, 0, 1, 1, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x4_2b_f16_cb1", G942, 32, 4, 2, T_F16, T_F16, 0, 1, 1, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x4_2b_f16_blgp", G942, 32, 4, 2, T_F16, T_F16, 0, 0, 0, 5, 0, 0 },
	{ "mf_mfma_f32_16x16x4_4b_f16", G942, 16, 4, 4, T_F16, T_F16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x4_4b_f16_acc", G942, 16, 4, 4, T_F16, T_F16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x4_4b_f16_k", G942, 16, 4, 4, T_F16, T_F16, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f32_16x16x4_4b_f16_cb", G942, 16, 4, 4, T_F16, T_F16, 0, 2, 1, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x4_4b_f16_cb1", G942, 16, 4, 4, T_F16, T_F16, 0, 1, 1, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x4_4b_f16_blgp", G942, 16, 4, 4, T_F16, T_F16, 0, 0, 0, 5, 0, 0 },
	{ "mf_mfma_f32_4x4x4_16b_f16", G942, 4, 4, 16, T_F16, T_F16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_4x4x4_16b_f16_acc", G942, 4, 4, 16, T_F16, T_F16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_4x4x4_16b_f16_k", G942, 4, 4, 16, T_F16, T_F16, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f32_4x4x4_16b_f16_cb", G942, 4, 4, 16, T_F16, T_F16, 0, 4, 1, 0, 0, 0 },
	{ "mf_mfma_f32_4x4x4_16b_f16_cb1", G942, 4, 4, 16, T_F16, T_F16, 0, 1, 1, 0, 0, 0 },
	{ "mf_mfma_f32_4x4x4_16b_f16_blgp", G942, 4, 4, 16, T_F16, T_F16, 0, 0, 0, 4, 0, 0 },
	{ "mf_mfma_f32_32x32x8_f16", G942, 32, 8, 1, T_F16, T_F16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x8_f16_acc", G942, 32, 8, 1, T_F16, T_F16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x8_f16_k", G942, 32, 8, 1, T_F16, T_F16, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f32_16x16x16_f16", G942, 16, 16, 1, T_F16, T_F16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x16_f16_acc", G942, 16, 16, 1, T_F16, T_F16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x16_f16_k", G942, 16, 16, 1, T_F16, T_F16, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_i32_32x32x4_2b_i8", G942, 32, 4, 2, T_I8, T_I8, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_i32_32x32x4_2b_i8_acc", G942, 32, 4, 2, T_I8, T_I8, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_i32_32x32x4_2b_i8_k", G942, 32, 4, 2, T_I8, T_I8, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_i32_32x32x4_2b_i8_cb", G942, 32, 4, 2, T_I8, T_I8, 0, 1, 1, 0, 0, 0 },
	{ "mf_mfma_i32_32x32x4_2b_i8_cb1", G942, 32, 4, 2, T_I8, T_I8, 0, 1, 1, 0, 0, 0 },
	{ "mf_mfma_i32_32x32x4_2b_i8_blgp", G942, 32, 4, 2, T_I8, T_I8, 0, 0, 0, 4, 0, 0 },
	{ "mf_mfma_i32_16x16x4_4b_i8", G942, 16, 4, 4, T_I8, T_I8, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_i32_16x16x4_4b_i8_acc", G942, 16, 4, 4, T_I8, T_I8, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_i32_16x16x4_4b_i8_k", G942, 16, 4, 4, T_I8, T_I8, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_i32_16x16x4_4b_i8_cb", G942, 16, 4, 4, T_I8, T_I8, 0, 2, 3, 0, 0, 0 },
	{ "mf_mfma_i32_16x16x4_4b_i8_cb1", G942, 16, 4, 4, T_I8, T_I8, 0, 1, 1, 0, 0, 0 },
	{ "mf_mfma_i32_16x16x4_4b_i8_blgp", G942, 16, 4, 4, T_I8, T_I8, 0, 0, 0, 4, 0, 0 },
	{ "mf_mfma_i32_4x4x4_16b_i8", G942, 4, 4, 16, T_I8, T_I8, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_i32_4x4x4_16b_i8_acc", G942, 4, 4, 16, T_I8, T_I8, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_i32_4x4x4_16b_i8_k", G942, 4, 4, 16, T_I8, T_I8, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_i32_4x4x4_16b_i8_cb", G942, 4, 4, 16, T_I8, T_I8, 0, 4, 15, 0, 0, 0 },
	{ "mf_mfma_i32_4x4x4_16b_i8_cb1", G942, 4, 4, 16, T_I8, T_I8, 0, 1, 1, 0, 0, 0 },
	{ "mf_mfma_i32_4x4x4_16b_i8_blgp", G942, 4, 4, 16, T_I8, T_I8, 0, 0, 0, 3, 0, 0 },
	{ "mf_mfma_i32_32x32x16_i8", G942, 32, 16, 1, T_I8, T_I8, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_i32_32x32x16_i8_acc", G942, 32, 16, 1, T_I8, T_I8, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_i32_32x32x16_i8_k", G942, 32, 16, 1, T_I8, T_I8, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_i32_16x16x32_i8", G942, 16, 32, 1, T_I8, T_I8, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_i32_16x16x32_i8_acc", G942, 16, 32, 1, T_I8, T_I8, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_i32_16x16x32_i8_k", G942, 16, 32, 1, T_I8, T_I8, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f32_32x32x4_2b_bf16", G942, 32, 4, 2, T_BF16, T_BF16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x4_2b_bf16_acc", G942, 32, 4, 2, T_BF16, T_BF16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x4_2b_bf16_k", G942, 32, 4, 2, T_BF16, T_BF16, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f32_32x32x4_2b_bf16_cb", G942, 32, 4, 2, T_BF16, T_BF16, 0, 1, 1, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x4_2b_bf16_cb1", G942, 32, 4, 2, T_BF16, T_BF16, 0, 1, 1, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x4_2b_bf16_blgp", G942, 32, 4, 2, T_BF16, T_BF16, 0, 0, 0, 6, 0, 0 },
	{ "mf_mfma_f32_16x16x4_4b_bf16", G942, 16, 4, 4, T_BF16, T_BF16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x4_4b_bf16_acc", G942, 16, 4, 4, T_BF16, T_BF16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x4_4b_bf16_k", G942, 16, 4, 4, T_BF16, T_BF16, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f32_16x16x4_4b_bf16_cb", G942, 16, 4, 4, T_BF16, T_BF16, 0, 2, 3, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x4_4b_bf16_cb1", G942, 16, 4, 4, T_BF16, T_BF16, 0, 1, 1, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x4_4b_bf16_blgp", G942, 16, 4, 4, T_BF16, T_BF16, 0, 0, 0, 6, 0, 0 },
	{ "mf_mfma_f32_4x4x4_16b_bf16", G942, 4, 4, 16, T_BF16, T_BF16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_4x4x4_16b_bf16_acc", G942, 4, 4, 16, T_BF16, T_BF16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_4x4x4_16b_bf16_k", G942, 4, 4, 16, T_BF16, T_BF16, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f32_4x4x4_16b_bf16_cb", G942, 4, 4, 16, T_BF16, T_BF16, 0, 4, 15, 0, 0, 0 },
	{ "mf_mfma_f32_4x4x4_16b_bf16_cb1", G942, 4, 4, 16, T_BF16, T_BF16, 0, 1, 1, 0, 0, 0 },
	{ "mf_mfma_f32_4x4x4_16b_bf16_blgp", G942, 4, 4, 16, T_BF16, T_BF16, 0, 0, 0, 5, 0, 0 },
	{ "mf_mfma_f32_32x32x8_bf16", G942, 32, 8, 1, T_BF16, T_BF16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x8_bf16_acc", G942, 32, 8, 1, T_BF16, T_BF16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x8_bf16_k", G942, 32, 8, 1, T_BF16, T_BF16, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f32_16x16x16_bf16", G942, 16, 16, 1, T_BF16, T_BF16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x16_bf16_acc", G942, 16, 16, 1, T_BF16, T_BF16, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x16_bf16_k", G942, 16, 16, 1, T_BF16, T_BF16, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f64_16x16x4_f64", G942, 16, 4, 1, T_F64, T_F64, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f64_16x16x4_f64_acc", G942, 16, 4, 1, T_F64, T_F64, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f64_16x16x4_f64_k", G942, 16, 4, 1, T_F64, T_F64, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f64_16x16x4_f64_neg", G942, 16, 4, 1, T_F64, T_F64, 0, 0, 0, 0, 5, 0 },
	{ "mf_mfma_f64_16x16x4_f64_neg2", G942, 16, 4, 1, T_F64, T_F64, 0, 0, 0, 0, 2, 0 },
	{ "mf_mfma_f64_4x4x4_4b_f64", G942, 4, 4, 4, T_F64, T_F64, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f64_4x4x4_4b_f64_acc", G942, 4, 4, 4, T_F64, T_F64, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f64_4x4x4_4b_f64_k", G942, 4, 4, 4, T_F64, T_F64, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f64_4x4x4_4b_f64_cb", G942, 4, 4, 4, T_F64, T_F64, 0, 2, 3, 0, 0, 0 },
	{ "mf_mfma_f64_4x4x4_4b_f64_cb1", G942, 4, 4, 4, T_F64, T_F64, 0, 1, 1, 0, 0, 0 },
	{ "mf_mfma_f64_4x4x4_4b_f64_neg", G942, 4, 4, 4, T_F64, T_F64, 0, 0, 0, 0, 5, 0 },
	{ "mf_mfma_f64_4x4x4_4b_f64_neg2", G942, 4, 4, 4, T_F64, T_F64, 0, 0, 0, 0, 2, 0 },
	{ "mf_mfma_f32_16x16x32_bf8_bf8", G942, 16, 32, 1, T_BF8, T_BF8, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x32_bf8_bf8_acc", G942, 16, 32, 1, T_BF8, T_BF8, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x32_bf8_bf8_k", G942, 16, 32, 1, T_BF8, T_BF8, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f32_16x16x32_bf8_fp8", G942, 16, 32, 1, T_BF8, T_FP8, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x32_bf8_fp8_acc", G942, 16, 32, 1, T_BF8, T_FP8, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x32_bf8_fp8_k", G942, 16, 32, 1, T_BF8, T_FP8, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f32_16x16x32_fp8_bf8", G942, 16, 32, 1, T_FP8, T_BF8, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x32_fp8_bf8_acc", G942, 16, 32, 1, T_FP8, T_BF8, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x32_fp8_bf8_k", G942, 16, 32, 1, T_FP8, T_BF8, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f32_16x16x32_fp8_fp8", G942, 16, 32, 1, T_FP8, T_FP8, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x32_fp8_fp8_acc", G942, 16, 32, 1, T_FP8, T_FP8, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_16x16x32_fp8_fp8_k", G942, 16, 32, 1, T_FP8, T_FP8, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f32_32x32x16_bf8_bf8", G942, 32, 16, 1, T_BF8, T_BF8, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x16_bf8_bf8_acc", G942, 32, 16, 1, T_BF8, T_BF8, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x16_bf8_bf8_k", G942, 32, 16, 1, T_BF8, T_BF8, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f32_32x32x16_bf8_fp8", G942, 32, 16, 1, T_BF8, T_FP8, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x16_bf8_fp8_acc", G942, 32, 16, 1, T_BF8, T_FP8, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x16_bf8_fp8_k", G942, 32, 16, 1, T_BF8, T_FP8, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f32_32x32x16_fp8_bf8", G942, 32, 16, 1, T_FP8, T_BF8, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x16_fp8_bf8_acc", G942, 32, 16, 1, T_FP8, T_BF8, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x16_fp8_bf8_k", G942, 32, 16, 1, T_FP8, T_BF8, 0, 0, 0, 0, 0, 1 },
	{ "mf_mfma_f32_32x32x16_fp8_fp8", G942, 32, 16, 1, T_FP8, T_FP8, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x16_fp8_fp8_acc", G942, 32, 16, 1, T_FP8, T_FP8, 0, 0, 0, 0, 0, 0 },
	{ "mf_mfma_f32_32x32x16_fp8_fp8_k", G942, 32, 16, 1, T_FP8, T_FP8, 0, 0, 0, 0, 0, 1 },
	{ "mf_smfmac_f32_16x16x32_f16", G942, 16, 32, 1, T_F16, T_F16, 1, 0, 0, 0, 0, 0 },
	{ "mf_smfmac_f32_16x16x32_f16_set3", G942, 16, 32, 1, T_F16, T_F16, 1, 0, 3, 0, 0, 0 },
	{ "mf_smfmac_f32_16x16x32_f16_cb", G942, 16, 32, 1, T_F16, T_F16, 1, 1, 1, 0, 0, 0 },
	{ "mf_smfmac_f32_32x32x16_f16", G942, 32, 16, 1, T_F16, T_F16, 1, 0, 0, 0, 0, 0 },
	{ "mf_smfmac_f32_32x32x16_f16_set3", G942, 32, 16, 1, T_F16, T_F16, 1, 0, 3, 0, 0, 0 },
	{ "mf_smfmac_f32_32x32x16_f16_cb", G942, 32, 16, 1, T_F16, T_F16, 1, 1, 1, 0, 0, 0 },
	{ "mf_smfmac_f32_16x16x32_bf16", G942, 16, 32, 1, T_BF16, T_BF16, 1, 0, 0, 0, 0, 0 },
	{ "mf_smfmac_f32_16x16x32_bf16_set3", G942, 16, 32, 1, T_BF16, T_BF16, 1, 0, 3, 0, 0, 0 },
	{ "mf_smfmac_f32_16x16x32_bf16_cb", G942, 16, 32, 1, T_BF16, T_BF16, 1, 1, 1, 0, 0, 0 },
	{ "mf_smfmac_f32_32x32x16_bf16", G942, 32, 16, 1, T_BF16, T_BF16, 1, 0, 0, 0, 0, 0 },
	{ "mf_smfmac_f32_32x32x16_bf16_set3", G942, 32, 16, 1, T_BF16, T_BF16, 1, 0, 3, 0, 0, 0 },
	{ "mf_smfmac_f32_32x32x16_bf16_cb", G942, 32, 16, 1, T_BF16, T_BF16, 1, 1, 1, 0, 0, 0 },
	{ "mf_smfmac_i32_16x16x64_i8", G942, 16, 64, 1, T_I8, T_I8, 1, 0, 0, 0, 0, 0 },
	{ "mf_smfmac_i32_16x16x64_i8_set1", G942, 16, 64, 1, T_I8, T_I8, 1, 0, 1, 0, 0, 0 },
	{ "mf_smfmac_i32_16x16x64_i8_cb", G942, 16, 64, 1, T_I8, T_I8, 1, 1, 1, 0, 0, 0 },
	{ "mf_smfmac_i32_32x32x32_i8", G942, 32, 32, 1, T_I8, T_I8, 1, 0, 0, 0, 0, 0 },
	{ "mf_smfmac_i32_32x32x32_i8_set1", G942, 32, 32, 1, T_I8, T_I8, 1, 0, 1, 0, 0, 0 },
	{ "mf_smfmac_i32_32x32x32_i8_cb", G942, 32, 32, 1, T_I8, T_I8, 1, 1, 1, 0, 0, 0 },
	{ "mf_smfmac_f32_16x16x64_bf8_bf8", G942, 16, 64, 1, T_BF8, T_BF8, 1, 0, 0, 0, 0, 0 },
	{ "mf_smfmac_f32_16x16x64_bf8_bf8_set1", G942, 16, 64, 1, T_BF8, T_BF8, 1, 0, 1, 0, 0, 0 },
	{ "mf_smfmac_f32_16x16x64_bf8_bf8_cb", G942, 16, 64, 1, T_BF8, T_BF8, 1, 1, 1, 0, 0, 0 },
	{ "mf_smfmac_f32_16x16x64_bf8_fp8", G942, 16, 64, 1, T_BF8, T_FP8, 1, 0, 0, 0, 0, 0 },
	{ "mf_smfmac_f32_16x16x64_bf8_fp8_set1", G942, 16, 64, 1, T_BF8, T_FP8, 1, 0, 1, 0, 0, 0 },
	{ "mf_smfmac_f32_16x16x64_bf8_fp8_cb", G942, 16, 64, 1, T_BF8, T_FP8, 1, 1, 1, 0, 0, 0 },
	{ "mf_smfmac_f32_16x16x64_fp8_bf8", G942, 16, 64, 1, T_FP8, T_BF8, 1, 0, 0, 0, 0, 0 },
	{ "mf_smfmac_f32_16x16x64_fp8_bf8_set1", G942, 16, 64, 1, T_FP8, T_BF8, 1, 0, 1, 0, 0, 0 },
	{ "mf_smfmac_f32_16x16x64_fp8_bf8_cb", G942, 16, 64, 1, T_FP8, T_BF8, 1, 1, 1, 0, 0, 0 },
	{ "mf_smfmac_f32_16x16x64_fp8_fp8", G942, 16, 64, 1, T_FP8, T_FP8, 1, 0, 0, 0, 0, 0 },
	{ "mf_smfmac_f32_16x16x64_fp8_fp8_set1", G942, 16, 64, 1, T_FP8, T_FP8, 1, 0, 1, 0, 0, 0 },
	{ "mf_smfmac_f32_16x16x64_fp8_fp8_cb", G942, 16, 64, 1, T_FP8, T_FP8, 1, 1, 1, 0, 0, 0 },
	{ "mf_smfmac_f32_32x32x32_bf8_bf8", G942, 32, 32, 1, T_BF8, T_BF8, 1, 0, 0, 0, 0, 0 },
	{ "mf_smfmac_f32_32x32x32_bf8_bf8_set1", G942, 32, 32, 1, T_BF8, T_BF8, 1, 0, 1, 0, 0, 0 },
	{ "mf_smfmac_f32_32x32x32_bf8_bf8_cb", G942, 32, 32, 1, T_BF8, T_BF8, 1, 1, 1, 0, 0, 0 },
	{ "mf_smfmac_f32_32x32x32_bf8_fp8", G942, 32, 32, 1, T_BF8, T_FP8, 1, 0, 0, 0, 0, 0 },
	{ "mf_smfmac_f32_32x32x32_bf8_fp8_set1", G942, 32, 32, 1, T_BF8, T_FP8, 1, 0, 1, 0, 0, 0 },
	{ "mf_smfmac_f32_32x32x32_bf8_fp8_cb", G942, 32, 32, 1, T_BF8, T_FP8, 1, 1, 1, 0, 0, 0 },
	{ "mf_smfmac_f32_32x32x32_fp8_bf8", G942, 32, 32, 1, T_FP8, T_BF8, 1, 0, 0, 0, 0, 0 },
	{ "mf_smfmac_f32_32x32x32_fp8_bf8_set1", G942, 32, 32, 1, T_FP8, T_BF8, 1, 0, 1, 0, 0, 0 },
	{ "mf_smfmac_f32_32x32x32_fp8_bf8_cb", G942, 32, 32, 1, T_FP8, T_BF8, 1, 1, 1, 0, 0, 0 },
	{ "mf_smfmac_f32_32x32x32_fp8_fp8", G942, 32, 32, 1, T_FP8, T_FP8, 1, 0, 0, 0, 0, 0 },
	{ "mf_smfmac_f32_32x32x32_fp8_fp8_set1", G942, 32, 32, 1, T_FP8, T_FP8, 1, 0, 1, 0, 0, 0 },
	{ "mf_smfmac_f32_32x32x32_fp8_fp8_cb", G942, 32, 32, 1, T_FP8, T_FP8, 1, 1, 1, 0, 0, 0 },
};

#define NREC 48         /* dwords per lane of input: A 0-3, B 4-7, C 8-39, index 40 */
#define NOUT 32         /* dwords per lane of output */

static unsigned bits_of(enum ty t)
{
	switch (t) {
	case T_F32: case T_XF32: return 32;
	case T_F16: case T_BF16: return 16;
	case T_F64: return 64;
	default: return 8;
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

static float fbits(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t ubits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static double dbits(uint64_t u) { double f; memcpy(&f, &u, 8); return f; }
static uint64_t u64bits(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }

/* FNUZ: 0x80 NaN, no infinity, no -0; E4M3 bias 8, E5M2 bias 16 */
static double fp8_val(uint8_t v, int bf8)
{
	int mb = bf8 ? 2 : 3, bias = bf8 ? 16 : 8;
	int e = (v & 0x7f) >> mb, m = v & ((1 << mb) - 1);
	double x;
	if (v == 0x80)
		return NAN;
	x = e ? ldexp(1.0 + m / (double)(1 << mb), e - bias) : ldexp(m / (double)(1 << mb), 1 - bias);
	return (v & 0x80) ? -x : x;
}

/* The value of element bits x of type t. */
static double val(uint64_t x, enum ty t)
{
	switch (t) {
	case T_F32: case T_XF32: return fbits((uint32_t)x);  /* test data are exact in xf32 */
	case T_F16: { _Float16 h; uint16_t b = (uint16_t)x; memcpy(&h, &b, 2); return (double)h; }
	case T_BF16: return fbits((uint32_t)(x & 0xffff) << 16);
	case T_I8: return (int8_t)x;
	case T_F64: return dbits(x);
	case T_FP8: return fp8_val((uint8_t)x, 0);
	default: return fp8_val((uint8_t)x, 1);
	}
}

/* Element e of a lane's packed operand at dwords rec[0..]. */
static uint64_t raw(const uint32_t *rec, unsigned e, enum ty t)
{
	unsigned b = bits_of(t), bit = e * b;
	uint64_t w = rec[bit / 32] | (b == 64 ? (uint64_t)rec[bit / 32 + 1] << 32 : 0);
	return b == 64 ? w : (w >> (bit % 32)) & ((1ull << b) - 1);
}

/* Generated element bits: mode 0 small exact values, 1 denormals with
 * small mantissas (f16, fp8, bf8) or i8 extremes, 2 as 0 with NaN and
 * infinities planted by the caller. */
static uint64_t gen(enum ty t, int mode)
{
	int s = (int)(rnd() % 17) - 8;
	switch (t) {
	case T_F32: case T_XF32: return ubits((float)s * 0.25f);
	case T_F16: {
		if (mode == 1)
			return (rnd() & 0x8000) | (1 + rnd() % 15);
		_Float16 h = (_Float16)((float)s * 0.25f);
		uint16_t b;
		memcpy(&b, &h, 2);
		return b;
	}
	case T_BF16: return ubits((float)s * 0.25f) >> 16;
	case T_I8: return mode == 1 ? ((rnd() & 1) ? 0x80 : 0x7f) : rnd() & 0xff;
	case T_F64: return u64bits((double)s * 0.125);
	case T_FP8: {
		if (mode == 1)
			return (rnd() & 0x80) | (1 + rnd() % 7);
		uint32_t v = (rnd() & 0x80) | ((6 + rnd() % 5) << 3) | (rnd() & 7);
		return v == 0x80 ? 0 : v;
	}
	default: {
		if (mode == 1)
			return (rnd() & 0x80) | (1 + rnd() % 3);
		uint32_t v = (rnd() & 0x80) | ((14 + rnd() % 5) << 2) | (rnd() & 3);
		return v == 0x80 ? 0 : v;
	}
	}
}

static void put(uint32_t *rec, unsigned e, enum ty t, uint64_t x)
{
	unsigned b = bits_of(t), bit = e * b;
	if (b == 64) {
		rec[bit / 32] = (uint32_t)x;
		rec[bit / 32 + 1] = (uint32_t)(x >> 32);
		return;
	}
	uint32_t mask = (uint32_t)(((1ull << b) - 1) << (bit % 32));
	rec[bit / 32] = (rec[bit / 32] & ~mask) | ((uint32_t)(x << (bit % 32)) & mask);
}

/* Where D[b][i][j] lives: result register (values; f64 ones are pairs) and
 * lane.  32-bit results come in groups of 4 rows x N lanes, filling a
 * register's lanes with row groups and blocks before the next register;
 * f64 results in groups of 1 row. */
static void d_pos(const struct mform *f, unsigned b, unsigned i, unsigned j, unsigned *reg,
		  unsigned *lane)
{
	unsigned M = f->m, N = f->m, h = f->ta == T_F64 ? 1 : 4;
	unsigned rows_per_reg = 64 / N;                     /* row groups in one register */
	unsigned blk_per_reg = (M * N / h) >= 64 ? 1 : 64 / (M * N / h);
	*reg = b * (M * N / 64) + (i / (h * rows_per_reg)) * h + i % h;
	*lane = (b % blk_per_reg) * N + ((i / h) % rows_per_reg) * blk_per_reg * N + j;
}

static unsigned blgp_src(unsigned lane, int blgp)
{
	static const int base[8] = { -1, 0, 32, -1, 0, 16, 32, 48 };
	if (blgp == 0)
		return lane;
	if (blgp == 3)
		return (lane + 16) & 63;
	if (blgp <= 2)
		return (lane & 31) + (unsigned)base[blgp];
	return (lane & 15) + (unsigned)base[blgp];
}

/* D = C + A x B over the whole wave; in: 64 records, out: 64 x NOUT. */
static void model(const struct mform *f, const uint32_t *in, uint32_t *out)
{
	unsigned M = f->m, K = f->k, NB = f->blocks, kA = f->sparse ? K / 2 : K;
	unsigned kplA = kA * M * NB / 64, kplB = K * M * NB / 64;
	bool f64 = f->ta == T_F64, isint = f->ta == T_I8;
	unsigned nval = M * M * NB / 64, nreg = f64 ? 2 * nval : nval;
	double sa = (f->neg & 1) ? -1 : 1, sb = (f->neg & 2) ? -1 : 1, sc = (f->neg & 4) ? -1 : 1;
	static double A[16][32][64], Bm[16][64][32];
	static int Akeep[32][64];

	/* unpack: lane l, element e of A is row l % M of block (l / M) % NB,
	 * column (l / (M*NB)) * kpl + e; B the same with columns for rows */
	memset(Akeep, 0, sizeof(Akeep));
	for (unsigned l = 0; l < 64; l++) {
		const uint32_t *rec = in + NREC * l;
		for (unsigned e = 0; e < kplA; e++) {
			unsigned i = l % M, b = (l / M) % NB, kk = (l / (M * NB)) * kplA + e, k = kk;
			if (f->sparse) {
				/* kept element kk of the row: index 2 bits of its set */
				unsigned set = f->cbsz ? 0 : (unsigned)f->abid;
				unsigned per = 64 / bits_of(f->ta), pos = set * per + e;
				unsigned idx = (rec[40] >> (4 * (pos / 2) + 2 * (pos % 2))) & 3;
				k = 4 * (kk / 2) + idx;
				Akeep[i][kk] = (int)k;
			}
			A[b][i][f->sparse ? kk : k] = sa * val(raw(rec, e, f->ta), f->ta);
		}
	}
	for (unsigned l = 0; l < 64; l++) {
		const uint32_t *rec = in + NREC * blgp_src(l, f->blgp) + 4;
		for (unsigned e = 0; e < kplB; e++) {
			unsigned j = l % M, b = (l / M) % NB, k = (l / (M * NB)) * kplB + e;
			Bm[b][k][j] = sb * val(raw(rec, e, f->tb), f->tb);
		}
	}
	for (unsigned r = 0; r < nreg; r++)
		for (unsigned l = 0; l < 64; l++)
			out[NOUT * l + r] = f->kconst ? (f64 ? (r & 1 ? 0x3ff00000u : 0) : isint ? 1 : 0x3f800000u)
						      : in[NREC * l + 8 + r];
	for (unsigned b = 0; b < NB; b++) {
		/* CBSZ/ABID: block b multiplies A block (b rounded down to 2^CBSZ) + ABID */
		unsigned ab = f->sparse ? 0 : (b & ~((1u << f->cbsz) - 1)) + (unsigned)f->abid;
		for (unsigned i = 0; i < M; i++)
			for (unsigned j = 0; j < M; j++) {
				unsigned reg, lane;
				d_pos(f, b, i, j, &reg, &lane);
				uint32_t *o = out + NOUT * lane;
				if (f64) {
					double acc = sc * dbits(o[2 * reg] | (uint64_t)o[2 * reg + 1] << 32);
					for (unsigned k = 0; k < K; k++)
						acc = fma(A[ab][i][k], Bm[b][k][j], acc);
					o[2 * reg] = (uint32_t)u64bits(acc);
					o[2 * reg + 1] = (uint32_t)(u64bits(acc) >> 32);
				} else if (isint) {
					uint32_t acc = o[reg];
					for (unsigned k = 0; k < kA; k++) {
						unsigned kb = f->sparse ? (unsigned)Akeep[i][k] : k;
						acc += (uint32_t)((int32_t)A[ab][i][k] * (int32_t)Bm[b][kb][j]);
					}
					o[reg] = acc;
				} else {
					float acc = fbits(o[reg]);
					for (unsigned k = 0; k < kA; k++) {
						unsigned kb = f->sparse ? (unsigned)Akeep[i][k] : k;
						acc = fmaf((float)A[ab][i][k], (float)Bm[b][kb][j], acc);
					}
					o[reg] = ubits(acc);
				}
			}
	}
}

static struct hx_code code90, code942;
static int loaded90, loaded942;

static struct hx_code *code_for(int gfx)
{
	char path[600];
	uint32_t g = gfx == G90 ? KEMU_ISA_GFX90A : KEMU_ISA_GFX942;
	int *ld = gfx == G90 ? &loaded90 : &loaded942;
	struct hx_code *c = gfx == G90 ? &code90 : &code942;
	if (*ld)
		return *ld > 0 ? c : NULL;
	if (!hx_kernel_path(gfx == G90 ? "mfma" : "mfma942", g, path, sizeof(path))) {
		ck_assert_msg(!hx_target_expected(g), "the %s MFMA kernels were not built",
			      gfx == G90 ? "gfx90a" : "gfx942");
		*ld = -1;
		return NULL;
	}
	ck_assert_int_eq(hx_load(c, path), 0);
	*ld = 1;
	return c;
}

/* Runs form f on one generated input (mode, seed); returns lanes x
 * registers that differ from the model. */
static unsigned check(const struct mform *f, int mode, unsigned seed)
{
	struct hx_code *c = code_for(f->gfx);
	uint32_t *in, *out, want[64 * NOUT];
	uint64_t args[2];
	bool f64 = f->ta == T_F64, fl = f->ta != T_I8;
	unsigned kA = f->sparse ? f->k / 2 : f->k, kplA = kA * f->m * f->blocks / 64;
	unsigned kplB = f->k * f->m * f->blocks / 64, nval = f->m * f->m * f->blocks / 64;
	unsigned nreg = f64 ? 2 * nval : nval, bad = 0, changed = 0;
	struct kemu_isa_error err;
	int rc;

	if (!c)
		return 0;
	in = hx_alloc(64 * NREC * 4);
	out = hx_alloc(64 * NOUT * 4);
	args[0] = (uint64_t)(uintptr_t)in;
	args[1] = (uint64_t)(uintptr_t)out;
	rng_state = 0x2545f491u ^ (seed * 0x9e3779b9u) ^ (uint32_t)(f - mforms) * 0x85ebca6bu;
	for (unsigned l = 0; l < 64; l++) {
		uint32_t *rec = in + NREC * l;
		for (unsigned e = 0; e < kplA; e++)
			put(rec, e, f->ta, gen(f->ta, mode));
		for (unsigned e = 0; e < kplB; e++)
			put(rec + 4, e, f->tb, gen(f->tb, mode));
		for (unsigned r = 0; r < 32; r++) {
			int s = (int)(rnd() % 33) - 16;
			if (f64)
				rec[8 + r] = (r & 1) ? (uint32_t)(u64bits(s * 0.5) >> 32) : 0;
			else if (!fl)
				rec[8 + r] = mode == 1 ? 0x7fffff00u + rnd() % 512 : rnd();
			else if (mode == 1) /* a few units of the denormal products */
				rec[8 + r] = ubits(ldexpf((float)s, f->ta == T_F16 ? -48 : -20));
			else
				rec[8 + r] = ubits((float)s * 0.5f);
		}
		/* sparse indices: each 4-bit group two distinct positions, ascending */
		rec[40] = 0;
		for (unsigned g = 0; g < 8; g++) {
			static const uint8_t pairs[6] = { 0x4, 0x8, 0xc, 0x9, 0xd, 0xe };
			rec[40] |= (uint32_t)pairs[rnd() % 6] << (4 * g);
		}
		for (unsigned r = 0; r < NOUT; r++)
			out[NOUT * l + r] = 0xdeadbeef;
	}
	if (mode == 2 && fl) {
		/* a NaN in A (lane 5, element 0) and an infinity in B (lane 9) */
		if (f->ta == T_FP8 || f->ta == T_BF8)
			put(in + NREC * 5, 0, f->ta, 0x80);
		else
			put(in + NREC * 5, 0, f->ta, f64 ? 0x7ff8000000000000ull : f->ta == T_F16 ? 0x7e00
						  : f->ta == T_BF16 ? 0x7fc0 : 0x7fc00000u);
		if (f->tb != T_FP8 && f->tb != T_BF8)
			put(in + NREC * 9 + 4, 0, f->tb, f64 ? 0x7ff0000000000000ull : f->tb == T_F16 ? 0x7c00
						      : f->tb == T_BF16 ? 0x7f80 : 0x7f800000u);
	}
	model(f, in, want);
	{
		struct hx_launch l = { .gfx = f->gfx == G90 ? KEMU_ISA_GFX90A : KEMU_ISA_GFX942,
				       .args = args, .args_size = 16, .grid = { 64, 1, 1 },
				       .wg = { 64, 1, 1 } };
		l.kd = hx_kd(c, f->name);
		ck_assert_msg(l.kd != 0, "no %s.kd", f->name);
		rc = hx_run(&l, &err);
		ck_assert_msg(rc == 0, "%s: %s: %s", f->name, kemu_isa_error_name(err.kind), err.message);
	}
	for (unsigned l = 0; l < 64; l++) {
		for (unsigned r = 0; r < nreg; r += f64 ? 2 : 1) {
			uint64_t g = out[NOUT * l + r], w = want[NOUT * l + r];
			bool ok;
			if (f64) {
				g |= (uint64_t)out[NOUT * l + r + 1] << 32;
				w |= (uint64_t)want[NOUT * l + r + 1] << 32;
				ok = g == w || (isnan(dbits(w)) && isnan(dbits(g)));
			} else {
				ok = g == w || (fl && isnan(fbits((uint32_t)w)) && isnan(fbits((uint32_t)g)));
			}
			if (g != in[NREC * l + 8 + r])
				changed++;
			if (!ok && bad++ < 4)
				fprintf(stderr, "%s mode %d: lane %u reg %u: got %llx, model %llx\n", f->name,
					mode, l, r, (unsigned long long)g, (unsigned long long)w);
		}
	}
	ck_assert_msg(changed > 0, "%s: D unchanged", f->name);
	hx_free(in);
	hx_free(out);
	return bad;
}

static void run_all(int gfx)
{
	unsigned bad = 0, n = 0;
	for (size_t i = 0; i < sizeof(mforms) / sizeof(mforms[0]); i++) {
		const struct mform *f = &mforms[i];
		if (f->gfx != gfx)
			continue;
		for (int mode = 0; mode < 3; mode++) {
			if (mode == 1 && (f->ta == T_F32 || f->ta == T_XF32 || f->ta == T_BF16 || f->ta == T_F64))
				continue; /* their denormal products fall below f32/f64 */
			bad += check(f, mode, 1);
			if (mode == 0)
				bad += check(f, mode, 2);
		}
		n++;
	}
	ck_assert_msg(n > 0, "no forms");
	ck_assert_msg(bad == 0, "%u results differ from the model (first ones above)", bad);
}

START_TEST(test_mfma_gfx90a_match_model)
{
	run_all(G90);
}
END_TEST

START_TEST(test_mfma_smfmac_gfx942_match_model)
{
	run_all(G942);
}
END_TEST

/* The model's layout and arithmetic on hand-worked cases, so that a wrong
 * model cannot agree with a wrong interpreter unnoticed. */
START_TEST(test_model_hand_values)
{
	const struct mform f16 = { "x", G90, 16, 4, 1, T_F32, T_F32, 0, 0, 0, 0, 0, 0 };
	const struct mform f4 = { "x", G90, 4, 1, 16, T_F32, T_F32, 0, 0, 0, 0, 0, 0 };
	const struct mform d16 = { "x", G90, 16, 4, 1, T_F64, T_F64, 0, 0, 0, 0, 0, 0 };
	unsigned reg, lane;

	/* 16x16x4 f32: D[i][j] in register i % 4 of lane j + 16 (i / 4) */
	d_pos(&f16, 0, 6, 3, &reg, &lane);
	ck_assert_uint_eq(reg, 2);
	ck_assert_uint_eq(lane, 19);
	/* 4x4x1 (16 blocks): D[i][j] of block b in register i, lane 4b + j */
	d_pos(&f4, 5, 2, 1, &reg, &lane);
	ck_assert_uint_eq(reg, 2);
	ck_assert_uint_eq(lane, 21);
	/* f64 16x16x4: D[i][j] in pair i / 4 of lane j + 16 (i % 4) */
	d_pos(&d16, 0, 6, 3, &reg, &lane);
	ck_assert_uint_eq(reg, 1);
	ck_assert_uint_eq(lane, 35);
	ck_assert(fp8_val(0x7f, 0) == 240.0);       /* E4M3FNUZ max */
	ck_assert(fp8_val(0x7f, 1) == 57344.0);     /* E5M2FNUZ max */
	ck_assert(fp8_val(0x01, 0) == 0x1p-10);     /* smallest fp8 denormal */
	ck_assert(fp8_val(0x40, 0) == 1.0);
	ck_assert(isnan(fp8_val(0x80, 1)));
	ck_assert_uint_eq(blgp_src(40, 1), 8);
	ck_assert_uint_eq(blgp_src(3, 2), 35);
	ck_assert_uint_eq(blgp_src(60, 3), 12);
	ck_assert_uint_eq(blgp_src(33, 6), 33);
	ck_assert_uint_eq(blgp_src(2, 7), 50);
}
END_TEST

static Suite *mfma_suite(void)
{
	Suite *s = suite_create("isa_mfma");
	TCase *tc = tcase_create("mfma");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_model_hand_values);
	tcase_add_test(tc, test_mfma_gfx90a_match_model);
	tcase_add_test(tc, test_mfma_smfmac_gfx942_match_model);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(mfma_suite)
