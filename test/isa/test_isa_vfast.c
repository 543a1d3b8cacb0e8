/*
 * test_isa_vfast.c — the VALU fast path (isa_exec_vfast.c) against a host
 * model: every 32-bit (and 16-bit) integer operation it specialises,
 * with each operand kind it specialises (VGPR rows, the SGPR s8, an
 * inline constant, a literal) and, with two scalar sources, the general executor it leaves
 * them to; under the whole EXEC and under a partial one whose 8-lane
 * groups are whole, empty and mixed (kernels/vfast.s).  Inactive lanes
 * keep their register and have 0 in a lane mask (carry-out, compare).  The model is the CDNA2 ISA guide's: wrapping
 * arithmetic, shift amounts from the low 5 bits, v_bfi_b32 D = (S0 & S1) |
 * (~S0 & S2), v_xad_u32 D = (S0 ^ S1) + S2, the carry-out bit 32 of
 * S0 + S1 (+ the carry-in of v_addc_co_u32); for f32 add/sub/mul the
 * IEEE operation with a NaN input returned quieted and a NaN the operation
 * makes returned as 0x7fc00000; fma/fmac fused (one rounding), the same
 * NaN rules; v_cndmask_b32 S1 where the lane's VCC bit is set, else S0.
 * Then the wave loop's superinstructions (the 64-bit add pair, the
 * saveexec/execz pair) against the two instructions run in sequence, and
 * its stop points, exact through them and the no-ops it skips.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hl_check.h"
#include "isa_harness.h"
#include "isa_stops.h"

#define NLANES 256

enum op {
	OP_ADD_U32, OP_SUB_U32, OP_SUBREV_U32, OP_AND_B32, OP_OR_B32, OP_XOR_B32, OP_XNOR_B32,
	OP_LSHRREV_B32, OP_ASHRREV_I32, OP_LSHLREV_B32, OP_MIN_U32, OP_MAX_U32, OP_MIN_I32,
	OP_MAX_I32, OP_MUL_LO_U32, OP_LSHL_ADD_U32, OP_ADD_LSHL_U32, OP_ADD3_U32, OP_LSHL_OR_B32,
	OP_AND_OR_B32, OP_OR3_B32, OP_XAD_U32, OP_BFI_B32, OP_MOV_B32, OP_NOT_B32,
	OP_MUL_HI_U32, OP_ADD_U16, OP_SUB_U16, OP_SUBREV_U16, OP_MUL_LO_U16, OP_LSHLREV_B16,
	OP_LSHRREV_B16, OP_ASHRREV_I16, OP_MAX_U16, OP_MAX_I16, OP_MIN_U16,
	OP_ADD_F32, OP_SUB_F32, OP_SUBREV_F32, OP_MUL_F32, OP_FMAC_F32, OP_FMA_F32,
};

/* Where a source comes from: a lane's a, b, c or d (the destination's
 * old value), s8 (b of the wave's first lane), or a constant. */
enum src { SRC_A, SRC_B, SRC_C, SRC_S, SRC_K, SRC_D };

static const struct form {
	const char *name;
	enum op op;
	struct { enum src src; uint32_t k; } s[3];
} forms[] = {
	{ "fmac_f32_vv", OP_FMAC_F32, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_D, 0 } } },
	{ "fmac_f32_sv", OP_FMAC_F32, { { SRC_S, 0 }, { SRC_B, 0 }, { SRC_D, 0 } } },
	{ "fmac_f32_kv", OP_FMAC_F32, { { SRC_K, 0x3f000000 }, { SRC_B, 0 }, { SRC_D, 0 } } },
	{ "fmac_f32_lv", OP_FMAC_F32, { { SRC_K, 0x3fc00001 }, { SRC_B, 0 }, { SRC_D, 0 } } },
	{ "fmac_f32_vs", OP_FMAC_F32, { { SRC_A, 0 }, { SRC_S, 0 }, { SRC_D, 0 } } },
	{ "fma_f32_vvv", OP_FMA_F32, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_C, 0 } } },
	{ "fma_f32_svv", OP_FMA_F32, { { SRC_S, 0 }, { SRC_B, 0 }, { SRC_C, 0 } } },
	{ "fma_f32_vsv", OP_FMA_F32, { { SRC_A, 0 }, { SRC_S, 0 }, { SRC_C, 0 } } },
	{ "fma_f32_vvs", OP_FMA_F32, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_S, 0 } } },
	{ "fma_f32_vkv", OP_FMA_F32, { { SRC_A, 0 }, { SRC_K, 0xc0000000 }, { SRC_C, 0 } } },
	{ "add_f32_vv", OP_ADD_F32, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "add_f32_sv", OP_ADD_F32, { { SRC_S, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "add_f32_vs", OP_ADD_F32, { { SRC_A, 0 }, { SRC_S, 0 }, { SRC_A, 0 } } },
	{ "add_f32_kv", OP_ADD_F32, { { SRC_K, 0xc0800000 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "add_f32_lv", OP_ADD_F32, { { SRC_K, 0x3fc00001 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "sub_f32_vv", OP_SUB_F32, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "sub_f32_sv", OP_SUB_F32, { { SRC_S, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "sub_f32_vs", OP_SUB_F32, { { SRC_A, 0 }, { SRC_S, 0 }, { SRC_A, 0 } } },
	{ "sub_f32_kv", OP_SUB_F32, { { SRC_K, 0xc0800000 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "sub_f32_lv", OP_SUB_F32, { { SRC_K, 0x3fc00001 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "subrev_f32_vv", OP_SUBREV_F32, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "subrev_f32_sv", OP_SUBREV_F32, { { SRC_S, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "subrev_f32_vs", OP_SUBREV_F32, { { SRC_A, 0 }, { SRC_S, 0 }, { SRC_A, 0 } } },
	{ "subrev_f32_kv", OP_SUBREV_F32, { { SRC_K, 0xc0800000 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "subrev_f32_lv", OP_SUBREV_F32, { { SRC_K, 0x3fc00001 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "mul_f32_vv", OP_MUL_F32, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "mul_f32_sv", OP_MUL_F32, { { SRC_S, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "mul_f32_vs", OP_MUL_F32, { { SRC_A, 0 }, { SRC_S, 0 }, { SRC_A, 0 } } },
	{ "mul_f32_kv", OP_MUL_F32, { { SRC_K, 0xc0800000 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "mul_f32_lv", OP_MUL_F32, { { SRC_K, 0x3fc00001 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "add_u32_vv", OP_ADD_U32, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "add_u32_sv", OP_ADD_U32, { { SRC_S, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "add_u32_vs", OP_ADD_U32, { { SRC_A, 0 }, { SRC_S, 0 }, { SRC_A, 0 } } },
	{ "add_u32_kv", OP_ADD_U32, { { SRC_K, 0xfffffffd }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "add_u32_ss", OP_ADD_U32, { { SRC_S, 0 }, { SRC_K, 5 }, { SRC_A, 0 } } },
	{ "add_u32_lv", OP_ADD_U32, { { SRC_K, 0x8badf00d }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "sub_u32_vv", OP_SUB_U32, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "sub_u32_sv", OP_SUB_U32, { { SRC_S, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "sub_u32_vs", OP_SUB_U32, { { SRC_A, 0 }, { SRC_S, 0 }, { SRC_A, 0 } } },
	{ "sub_u32_kv", OP_SUB_U32, { { SRC_K, 0xfffffffd }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "sub_u32_ss", OP_SUB_U32, { { SRC_S, 0 }, { SRC_K, 5 }, { SRC_A, 0 } } },
	{ "sub_u32_lv", OP_SUB_U32, { { SRC_K, 0x8badf00d }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "subrev_u32_vv", OP_SUBREV_U32, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "subrev_u32_sv", OP_SUBREV_U32, { { SRC_S, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "subrev_u32_vs", OP_SUBREV_U32, { { SRC_A, 0 }, { SRC_S, 0 }, { SRC_A, 0 } } },
	{ "subrev_u32_kv", OP_SUBREV_U32, { { SRC_K, 0xfffffffd }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "subrev_u32_ss", OP_SUBREV_U32, { { SRC_S, 0 }, { SRC_K, 5 }, { SRC_A, 0 } } },
	{ "subrev_u32_lv", OP_SUBREV_U32, { { SRC_K, 0x8badf00d }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "and_b32_vv", OP_AND_B32, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "and_b32_sv", OP_AND_B32, { { SRC_S, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "and_b32_vs", OP_AND_B32, { { SRC_A, 0 }, { SRC_S, 0 }, { SRC_A, 0 } } },
	{ "and_b32_kv", OP_AND_B32, { { SRC_K, 0xfffffffd }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "and_b32_ss", OP_AND_B32, { { SRC_S, 0 }, { SRC_K, 5 }, { SRC_A, 0 } } },
	{ "and_b32_lv", OP_AND_B32, { { SRC_K, 0x8badf00d }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "or_b32_vv", OP_OR_B32, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "or_b32_sv", OP_OR_B32, { { SRC_S, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "or_b32_vs", OP_OR_B32, { { SRC_A, 0 }, { SRC_S, 0 }, { SRC_A, 0 } } },
	{ "or_b32_kv", OP_OR_B32, { { SRC_K, 0xfffffffd }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "or_b32_ss", OP_OR_B32, { { SRC_S, 0 }, { SRC_K, 5 }, { SRC_A, 0 } } },
	{ "or_b32_lv", OP_OR_B32, { { SRC_K, 0x8badf00d }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "xor_b32_vv", OP_XOR_B32, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "xor_b32_sv", OP_XOR_B32, { { SRC_S, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "xor_b32_vs", OP_XOR_B32, { { SRC_A, 0 }, { SRC_S, 0 }, { SRC_A, 0 } } },
	{ "xor_b32_kv", OP_XOR_B32, { { SRC_K, 0xfffffffd }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "xor_b32_ss", OP_XOR_B32, { { SRC_S, 0 }, { SRC_K, 5 }, { SRC_A, 0 } } },
	{ "xor_b32_lv", OP_XOR_B32, { { SRC_K, 0x8badf00d }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "xnor_b32_vv", OP_XNOR_B32, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "xnor_b32_sv", OP_XNOR_B32, { { SRC_S, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "xnor_b32_vs", OP_XNOR_B32, { { SRC_A, 0 }, { SRC_S, 0 }, { SRC_A, 0 } } },
	{ "xnor_b32_kv", OP_XNOR_B32, { { SRC_K, 0xfffffffd }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "xnor_b32_ss", OP_XNOR_B32, { { SRC_S, 0 }, { SRC_K, 5 }, { SRC_A, 0 } } },
	{ "xnor_b32_lv", OP_XNOR_B32, { { SRC_K, 0x8badf00d }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "lshrrev_b32_vv", OP_LSHRREV_B32, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "lshrrev_b32_sv", OP_LSHRREV_B32, { { SRC_S, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "lshrrev_b32_vs", OP_LSHRREV_B32, { { SRC_A, 0 }, { SRC_S, 0 }, { SRC_A, 0 } } },
	{ "lshrrev_b32_kv", OP_LSHRREV_B32, { { SRC_K, 0xfffffffd }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "lshrrev_b32_ss", OP_LSHRREV_B32, { { SRC_S, 0 }, { SRC_K, 5 }, { SRC_A, 0 } } },
	{ "lshrrev_b32_lv", OP_LSHRREV_B32, { { SRC_K, 0x8badf00d }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "ashrrev_i32_vv", OP_ASHRREV_I32, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "ashrrev_i32_sv", OP_ASHRREV_I32, { { SRC_S, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "ashrrev_i32_vs", OP_ASHRREV_I32, { { SRC_A, 0 }, { SRC_S, 0 }, { SRC_A, 0 } } },
	{ "ashrrev_i32_kv", OP_ASHRREV_I32, { { SRC_K, 0xfffffffd }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "ashrrev_i32_ss", OP_ASHRREV_I32, { { SRC_S, 0 }, { SRC_K, 5 }, { SRC_A, 0 } } },
	{ "ashrrev_i32_lv", OP_ASHRREV_I32, { { SRC_K, 0x8badf00d }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "lshlrev_b32_vv", OP_LSHLREV_B32, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "lshlrev_b32_sv", OP_LSHLREV_B32, { { SRC_S, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "lshlrev_b32_vs", OP_LSHLREV_B32, { { SRC_A, 0 }, { SRC_S, 0 }, { SRC_A, 0 } } },
	{ "lshlrev_b32_kv", OP_LSHLREV_B32, { { SRC_K, 0xfffffffd }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "lshlrev_b32_ss", OP_LSHLREV_B32, { { SRC_S, 0 }, { SRC_K, 5 }, { SRC_A, 0 } } },
	{ "lshlrev_b32_lv", OP_LSHLREV_B32, { { SRC_K, 0x8badf00d }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "min_u32_vv", OP_MIN_U32, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "min_u32_sv", OP_MIN_U32, { { SRC_S, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "min_u32_vs", OP_MIN_U32, { { SRC_A, 0 }, { SRC_S, 0 }, { SRC_A, 0 } } },
	{ "min_u32_kv", OP_MIN_U32, { { SRC_K, 0xfffffffd }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "min_u32_ss", OP_MIN_U32, { { SRC_S, 0 }, { SRC_K, 5 }, { SRC_A, 0 } } },
	{ "min_u32_lv", OP_MIN_U32, { { SRC_K, 0x8badf00d }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "max_u32_vv", OP_MAX_U32, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "max_u32_sv", OP_MAX_U32, { { SRC_S, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "max_u32_vs", OP_MAX_U32, { { SRC_A, 0 }, { SRC_S, 0 }, { SRC_A, 0 } } },
	{ "max_u32_kv", OP_MAX_U32, { { SRC_K, 0xfffffffd }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "max_u32_ss", OP_MAX_U32, { { SRC_S, 0 }, { SRC_K, 5 }, { SRC_A, 0 } } },
	{ "max_u32_lv", OP_MAX_U32, { { SRC_K, 0x8badf00d }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "min_i32_vv", OP_MIN_I32, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "min_i32_sv", OP_MIN_I32, { { SRC_S, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "min_i32_vs", OP_MIN_I32, { { SRC_A, 0 }, { SRC_S, 0 }, { SRC_A, 0 } } },
	{ "min_i32_kv", OP_MIN_I32, { { SRC_K, 0xfffffffd }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "min_i32_ss", OP_MIN_I32, { { SRC_S, 0 }, { SRC_K, 5 }, { SRC_A, 0 } } },
	{ "min_i32_lv", OP_MIN_I32, { { SRC_K, 0x8badf00d }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "max_i32_vv", OP_MAX_I32, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "max_i32_sv", OP_MAX_I32, { { SRC_S, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "max_i32_vs", OP_MAX_I32, { { SRC_A, 0 }, { SRC_S, 0 }, { SRC_A, 0 } } },
	{ "max_i32_kv", OP_MAX_I32, { { SRC_K, 0xfffffffd }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "max_i32_ss", OP_MAX_I32, { { SRC_S, 0 }, { SRC_K, 5 }, { SRC_A, 0 } } },
	{ "max_i32_lv", OP_MAX_I32, { { SRC_K, 0x8badf00d }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "mul_lo_u32_vv", OP_MUL_LO_U32, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "mul_lo_u32_sv", OP_MUL_LO_U32, { { SRC_S, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "mul_lo_u32_vs", OP_MUL_LO_U32, { { SRC_A, 0 }, { SRC_S, 0 }, { SRC_A, 0 } } },
	{ "mul_lo_u32_kv", OP_MUL_LO_U32, { { SRC_K, 0xfffffffd }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "mul_lo_u32_ss", OP_MUL_LO_U32, { { SRC_S, 0 }, { SRC_K, 5 }, { SRC_A, 0 } } },
	{ "lshl_add_u32_vvv", OP_LSHL_ADD_U32, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_C, 0 } } },
	{ "lshl_add_u32_svv", OP_LSHL_ADD_U32, { { SRC_S, 0 }, { SRC_B, 0 }, { SRC_C, 0 } } },
	{ "lshl_add_u32_vsv", OP_LSHL_ADD_U32, { { SRC_A, 0 }, { SRC_S, 0 }, { SRC_C, 0 } } },
	{ "lshl_add_u32_vvs", OP_LSHL_ADD_U32, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_S, 0 } } },
	{ "lshl_add_u32_vkv", OP_LSHL_ADD_U32, { { SRC_A, 0 }, { SRC_K, 4 }, { SRC_C, 0 } } },
	{ "add_lshl_u32_vvv", OP_ADD_LSHL_U32, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_C, 0 } } },
	{ "add_lshl_u32_svv", OP_ADD_LSHL_U32, { { SRC_S, 0 }, { SRC_B, 0 }, { SRC_C, 0 } } },
	{ "add_lshl_u32_vsv", OP_ADD_LSHL_U32, { { SRC_A, 0 }, { SRC_S, 0 }, { SRC_C, 0 } } },
	{ "add_lshl_u32_vvs", OP_ADD_LSHL_U32, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_S, 0 } } },
	{ "add_lshl_u32_vkv", OP_ADD_LSHL_U32, { { SRC_A, 0 }, { SRC_K, 4 }, { SRC_C, 0 } } },
	{ "add3_u32_vvv", OP_ADD3_U32, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_C, 0 } } },
	{ "add3_u32_svv", OP_ADD3_U32, { { SRC_S, 0 }, { SRC_B, 0 }, { SRC_C, 0 } } },
	{ "add3_u32_vsv", OP_ADD3_U32, { { SRC_A, 0 }, { SRC_S, 0 }, { SRC_C, 0 } } },
	{ "add3_u32_vvs", OP_ADD3_U32, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_S, 0 } } },
	{ "add3_u32_vkv", OP_ADD3_U32, { { SRC_A, 0 }, { SRC_K, 4 }, { SRC_C, 0 } } },
	{ "lshl_or_b32_vvv", OP_LSHL_OR_B32, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_C, 0 } } },
	{ "lshl_or_b32_svv", OP_LSHL_OR_B32, { { SRC_S, 0 }, { SRC_B, 0 }, { SRC_C, 0 } } },
	{ "lshl_or_b32_vsv", OP_LSHL_OR_B32, { { SRC_A, 0 }, { SRC_S, 0 }, { SRC_C, 0 } } },
	{ "lshl_or_b32_vvs", OP_LSHL_OR_B32, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_S, 0 } } },
	{ "lshl_or_b32_vkv", OP_LSHL_OR_B32, { { SRC_A, 0 }, { SRC_K, 4 }, { SRC_C, 0 } } },
	{ "and_or_b32_vvv", OP_AND_OR_B32, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_C, 0 } } },
	{ "and_or_b32_svv", OP_AND_OR_B32, { { SRC_S, 0 }, { SRC_B, 0 }, { SRC_C, 0 } } },
	{ "and_or_b32_vsv", OP_AND_OR_B32, { { SRC_A, 0 }, { SRC_S, 0 }, { SRC_C, 0 } } },
	{ "and_or_b32_vvs", OP_AND_OR_B32, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_S, 0 } } },
	{ "and_or_b32_vkv", OP_AND_OR_B32, { { SRC_A, 0 }, { SRC_K, 4 }, { SRC_C, 0 } } },
	{ "or3_b32_vvv", OP_OR3_B32, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_C, 0 } } },
	{ "or3_b32_svv", OP_OR3_B32, { { SRC_S, 0 }, { SRC_B, 0 }, { SRC_C, 0 } } },
	{ "or3_b32_vsv", OP_OR3_B32, { { SRC_A, 0 }, { SRC_S, 0 }, { SRC_C, 0 } } },
	{ "or3_b32_vvs", OP_OR3_B32, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_S, 0 } } },
	{ "or3_b32_vkv", OP_OR3_B32, { { SRC_A, 0 }, { SRC_K, 4 }, { SRC_C, 0 } } },
	{ "xad_u32_vvv", OP_XAD_U32, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_C, 0 } } },
	{ "xad_u32_svv", OP_XAD_U32, { { SRC_S, 0 }, { SRC_B, 0 }, { SRC_C, 0 } } },
	{ "xad_u32_vsv", OP_XAD_U32, { { SRC_A, 0 }, { SRC_S, 0 }, { SRC_C, 0 } } },
	{ "xad_u32_vvs", OP_XAD_U32, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_S, 0 } } },
	{ "xad_u32_vkv", OP_XAD_U32, { { SRC_A, 0 }, { SRC_K, 4 }, { SRC_C, 0 } } },
	{ "bfi_b32_vvv", OP_BFI_B32, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_C, 0 } } },
	{ "bfi_b32_svv", OP_BFI_B32, { { SRC_S, 0 }, { SRC_B, 0 }, { SRC_C, 0 } } },
	{ "bfi_b32_vsv", OP_BFI_B32, { { SRC_A, 0 }, { SRC_S, 0 }, { SRC_C, 0 } } },
	{ "bfi_b32_vvs", OP_BFI_B32, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_S, 0 } } },
	{ "bfi_b32_vkv", OP_BFI_B32, { { SRC_A, 0 }, { SRC_K, 4 }, { SRC_C, 0 } } },
	{ "mov_b32_v", OP_MOV_B32, { { SRC_A, 0 }, { SRC_A, 0 }, { SRC_A, 0 } } },
	{ "mov_b32_s", OP_MOV_B32, { { SRC_S, 0 }, { SRC_A, 0 }, { SRC_A, 0 } } },
	{ "mov_b32_k", OP_MOV_B32, { { SRC_K, 0xfffffff0 }, { SRC_A, 0 }, { SRC_A, 0 } } },
	{ "mov_b32_l", OP_MOV_B32, { { SRC_K, 0x12345678 }, { SRC_A, 0 }, { SRC_A, 0 } } },
	{ "not_b32_v", OP_NOT_B32, { { SRC_A, 0 }, { SRC_A, 0 }, { SRC_A, 0 } } },
	{ "not_b32_s", OP_NOT_B32, { { SRC_S, 0 }, { SRC_A, 0 }, { SRC_A, 0 } } },
	{ "not_b32_k", OP_NOT_B32, { { SRC_K, 0xfffffff0 }, { SRC_A, 0 }, { SRC_A, 0 } } },
	{ "mul_hi_u32_vv", OP_MUL_HI_U32, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "mul_hi_u32_sv", OP_MUL_HI_U32, { { SRC_S, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "mul_hi_u32_vs", OP_MUL_HI_U32, { { SRC_A, 0 }, { SRC_S, 0 }, { SRC_A, 0 } } },
	{ "mul_hi_u32_kv", OP_MUL_HI_U32, { { SRC_K, 0xfffffffd }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "add_u16_vv", OP_ADD_U16, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "add_u16_sv", OP_ADD_U16, { { SRC_S, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "add_u16_vs", OP_ADD_U16, { { SRC_A, 0 }, { SRC_S, 0 }, { SRC_A, 0 } } },
	{ "add_u16_kv", OP_ADD_U16, { { SRC_K, 0xfffffffd }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "sub_u16_vv", OP_SUB_U16, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "sub_u16_sv", OP_SUB_U16, { { SRC_S, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "sub_u16_vs", OP_SUB_U16, { { SRC_A, 0 }, { SRC_S, 0 }, { SRC_A, 0 } } },
	{ "sub_u16_kv", OP_SUB_U16, { { SRC_K, 0xfffffffd }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "subrev_u16_vv", OP_SUBREV_U16, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "subrev_u16_sv", OP_SUBREV_U16, { { SRC_S, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "subrev_u16_vs", OP_SUBREV_U16, { { SRC_A, 0 }, { SRC_S, 0 }, { SRC_A, 0 } } },
	{ "subrev_u16_kv", OP_SUBREV_U16, { { SRC_K, 0xfffffffd }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "mul_lo_u16_vv", OP_MUL_LO_U16, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "mul_lo_u16_sv", OP_MUL_LO_U16, { { SRC_S, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "mul_lo_u16_vs", OP_MUL_LO_U16, { { SRC_A, 0 }, { SRC_S, 0 }, { SRC_A, 0 } } },
	{ "mul_lo_u16_kv", OP_MUL_LO_U16, { { SRC_K, 0xfffffffd }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "lshlrev_b16_vv", OP_LSHLREV_B16, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "lshlrev_b16_sv", OP_LSHLREV_B16, { { SRC_S, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "lshlrev_b16_vs", OP_LSHLREV_B16, { { SRC_A, 0 }, { SRC_S, 0 }, { SRC_A, 0 } } },
	{ "lshlrev_b16_kv", OP_LSHLREV_B16, { { SRC_K, 0xfffffffd }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "lshrrev_b16_vv", OP_LSHRREV_B16, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "lshrrev_b16_sv", OP_LSHRREV_B16, { { SRC_S, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "lshrrev_b16_vs", OP_LSHRREV_B16, { { SRC_A, 0 }, { SRC_S, 0 }, { SRC_A, 0 } } },
	{ "lshrrev_b16_kv", OP_LSHRREV_B16, { { SRC_K, 0xfffffffd }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "ashrrev_i16_vv", OP_ASHRREV_I16, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "ashrrev_i16_sv", OP_ASHRREV_I16, { { SRC_S, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "ashrrev_i16_vs", OP_ASHRREV_I16, { { SRC_A, 0 }, { SRC_S, 0 }, { SRC_A, 0 } } },
	{ "ashrrev_i16_kv", OP_ASHRREV_I16, { { SRC_K, 0xfffffffd }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "max_u16_vv", OP_MAX_U16, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "max_u16_sv", OP_MAX_U16, { { SRC_S, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "max_u16_vs", OP_MAX_U16, { { SRC_A, 0 }, { SRC_S, 0 }, { SRC_A, 0 } } },
	{ "max_u16_kv", OP_MAX_U16, { { SRC_K, 0xfffffffd }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "max_i16_vv", OP_MAX_I16, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "max_i16_sv", OP_MAX_I16, { { SRC_S, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "max_i16_vs", OP_MAX_I16, { { SRC_A, 0 }, { SRC_S, 0 }, { SRC_A, 0 } } },
	{ "max_i16_kv", OP_MAX_I16, { { SRC_K, 0xfffffffd }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "min_u16_vv", OP_MIN_U16, { { SRC_A, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "min_u16_sv", OP_MIN_U16, { { SRC_S, 0 }, { SRC_B, 0 }, { SRC_A, 0 } } },
	{ "min_u16_vs", OP_MIN_U16, { { SRC_A, 0 }, { SRC_S, 0 }, { SRC_A, 0 } } },
	{ "min_u16_kv", OP_MIN_U16, { { SRC_K, 0xfffffffd }, { SRC_B, 0 }, { SRC_A, 0 } } },
};

static float fb(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t ub(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static bool isnan32(uint32_t u) { return (u & 0x7fffffff) > 0x7f800000; }

/* An f32 result: a NaN input comes back quieted; a NaN the operation
 * makes (inf - inf, 0 * inf) is AMD's default 0x7fc00000 (the kernels run
 * with denormals kept, MODE's default for these code objects). */
static uint32_t f32res(float r, uint32_t x, uint32_t y)
{
	if (isnan32(x))
		return x | 0x400000;
	if (isnan32(y))
		return y | 0x400000;
	return r != r ? 0x7fc00000u : ub(r);
}
static uint32_t f32res3(float r, uint32_t x, uint32_t y, uint32_t z)
{
	return isnan32(z) ? z | 0x400000 : f32res(r, x, y);
}

static uint32_t model(enum op op, uint32_t x, uint32_t y, uint32_t z)
{
	switch (op) {
	case OP_ADD_F32: return f32res(fb(x) + fb(y), x, y);
	case OP_SUB_F32: return f32res(fb(x) - fb(y), x, y);
	case OP_SUBREV_F32: return f32res(fb(y) - fb(x), x, y);
	case OP_MUL_F32: return f32res(fb(x) * fb(y), x, y);
	case OP_FMAC_F32: case OP_FMA_F32: return f32res3(fmaf(fb(x), fb(y), fb(z)), x, y, z);
	case OP_ADD_U32: return x + y;
	case OP_SUB_U32: return x - y;
	case OP_SUBREV_U32: return y - x;
	case OP_AND_B32: return x & y;
	case OP_OR_B32: return x | y;
	case OP_XOR_B32: return x ^ y;
	case OP_XNOR_B32: return ~(x ^ y);
	case OP_LSHRREV_B32: return y >> (x & 31);
	case OP_ASHRREV_I32: return (uint32_t)((int32_t)y >> (x & 31));
	case OP_LSHLREV_B32: return y << (x & 31);
	case OP_MIN_U32: return x < y ? x : y;
	case OP_MAX_U32: return x > y ? x : y;
	case OP_MIN_I32: return (int32_t)x < (int32_t)y ? x : y;
	case OP_MAX_I32: return (int32_t)x > (int32_t)y ? x : y;
	case OP_MUL_LO_U32: return x * y;
	case OP_LSHL_ADD_U32: return (x << (y & 31)) + z;
	case OP_ADD_LSHL_U32: return (x + y) << (z & 31);
	case OP_ADD3_U32: return x + y + z;
	case OP_LSHL_OR_B32: return (x << (y & 31)) | z;
	case OP_AND_OR_B32: return (x & y) | z;
	case OP_OR3_B32: return x | y | z;
	case OP_XAD_U32: return (x ^ y) + z;
	case OP_BFI_B32: return (x & y) | (~x & z);
	case OP_MOV_B32: return x;
	case OP_NOT_B32: return ~x;
	case OP_MUL_HI_U32: return (uint32_t)(((uint64_t)x * y) >> 32);
	case OP_ADD_U16: return (x + y) & 0xffff;
	case OP_SUB_U16: return (x - y) & 0xffff;
	case OP_SUBREV_U16: return (y - x) & 0xffff;
	case OP_MUL_LO_U16: return (x * y) & 0xffff;
	case OP_LSHLREV_B16: return ((y & 0xffff) << (x & 15)) & 0xffff;
	case OP_LSHRREV_B16: return (y & 0xffff) >> (x & 15);
	case OP_ASHRREV_I16: return (uint32_t)((int16_t)(y & 0xffff) >> (x & 15)) & 0xffff;
	case OP_MAX_U16: return (x & 0xffff) > (y & 0xffff) ? x & 0xffff : y & 0xffff;
	case OP_MAX_I16: return (int16_t)(x & 0xffff) > (int16_t)(y & 0xffff) ? x & 0xffff : y & 0xffff;
	case OP_MIN_U16: return (x & 0xffff) < (y & 0xffff) ? x & 0xffff : y & 0xffff;
	}
	return 0;
}

/* The partial EXEC of vfast.s (exec_lo 0x00ff5a01, exec_hi 0xf0ff0080). */
static bool active(unsigned lane)
{
	uint64_t exec = 0x00ff5a01ull | (0xf0ff0080ull << 32);
	return exec >> (lane % 64) & 1;
}

static uint32_t rng;
static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

/* Inputs with the edges of the operations: signs, 0, all ones, shift
 * amounts above 31. */
static uint32_t gen(void)
{
	static const uint32_t edge[] = { 0, 1, 7, 31, 32, 33, 0x7fffffff, 0x80000000, 0xffffffff,
		0x7f800000, 0xff800000 };
	uint32_t x = rnd();
	return rnd() % 4 == 0 ? edge[x % (sizeof(edge) / sizeof(edge[0]))] : x;
}

START_TEST(test_vfast_match_model)
{
	static struct hx_code code;
	char path[600];
	uint32_t *in = hx_alloc(NLANES * 16), *out = hx_alloc(NLANES * 8);
	uint64_t args[2] = { (uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out };
	unsigned bad = 0;

	ck_assert_msg(hx_kernel_path("vfast", KEMU_ISA_GFX90A, path, sizeof(path)) != NULL,
		      "vfast-gfx90a.co not built");
	ck_assert_int_eq(hx_load(&code, path), 0);
	for (size_t k = 0; k < sizeof(forms) / sizeof(forms[0]); k++) {
		const struct form *f = &forms[k];
		unsigned changed = 0;
		for (unsigned seed = 1; seed <= 3; seed++) {
			struct hx_launch l = { .gfx = KEMU_ISA_GFX90A, .args = args, .args_size = 16,
					       .grid = { NLANES, 1, 1 }, .wg = { NLANES, 1, 1 } };
			struct kemu_isa_error err;
			rng = seed * 0x9e3779b9u + (uint32_t)k * 0x7feb352du;
			for (unsigned i = 0; i < NLANES * 4; i++)
				in[i] = gen();
			memset(out, 0xa5, NLANES * 8);
			l.kd = hx_kd(&code, f->name);
			ck_assert_msg(l.kd != 0, "no %s.kd", f->name);
			ck_assert_msg(hx_run(&l, &err) == 0, "%s: %s: %s", f->name,
				      kemu_isa_error_name(err.kind), err.message);
			for (unsigned i = 0; i < NLANES; i++) {
				const uint32_t *v = in + 4 * i;
				uint32_t x[3], want, want_part;
				for (unsigned j = 0; j < 3; j++) {
					switch (f->s[j].src) {
					case SRC_A: x[j] = v[0]; break;
					case SRC_B: x[j] = v[1]; break;
					case SRC_C: x[j] = v[2]; break;
					case SRC_S: x[j] = in[4 * (i & ~63u) + 1]; break;
					case SRC_D: x[j] = v[3]; break;
					default: x[j] = f->s[j].k; break;
					}
				}
				/* two NaN inputs: which one comes back is the host's
				 * operand order, not modelled */
				if (f->op >= OP_ADD_F32 && isnan32(x[0]) + isnan32(x[1]) +
				    (f->op >= OP_FMAC_F32 && isnan32(x[2])) > 1)
					continue;
				want = model(f->op, x[0], x[1], x[2]);
				want_part = active(i) ? want : v[3];
				changed += want != v[3];
				if ((out[2 * i] != want || out[2 * i + 1] != want_part) && bad++ < 8)
					fprintf(stderr, "%s lane %u: %08x %08x %08x %08x: got %08x %08x, "
						"model %08x %08x\n", f->name, i, v[0], v[1], v[2], v[3],
						out[2 * i], out[2 * i + 1], want, want_part);
			}
		}
		/* the inputs make every operation change most lanes */
		ck_assert_msg(changed > NLANES, "%s: only %u lanes changed", f->name, changed);
	}
	ck_assert_msg(bad == 0, "%u lanes differ from the model", bad);
	hx_unload(&code);
	hx_free(in);
	hx_free(out);
}
END_TEST

/* The lane-mask forms (TM in vfast.s): carries and compares into VCC, and
 * v_cndmask_b32 selecting by it (VCC = c > b before the instruction). */
enum mop {
	M_CNDMASK_B32, M_ADD_CO_U32, M_ADDC_CO_U32, M_CMP_LT_I32, M_CMP_EQ_I32, M_CMP_LE_I32,
	M_CMP_GT_I32,
	M_CMP_NE_I32, M_CMP_GE_I32, M_CMP_LT_U32, M_CMP_EQ_U32, M_CMP_LE_U32, M_CMP_GT_U32,
	M_CMP_NE_U32, M_CMP_GE_U32,
};
static const struct mform {
	const char *name;
	enum mop op;
	struct { enum src src; uint32_t k; } s[2];
} mforms[] = {
	{ "cndmask_b32_vv", M_CNDMASK_B32, { { SRC_A, 0 }, { SRC_B, 0 } } },
	{ "cndmask_b32_kv", M_CNDMASK_B32, { { SRC_K, 7 }, { SRC_B, 0 } } },
	{ "cndmask_b32_vk", M_CNDMASK_B32, { { SRC_A, 0 }, { SRC_K, 0xfffffff0 } } },
	{ "cndmask_b32_kk", M_CNDMASK_B32, { { SRC_K, 0 }, { SRC_K, 1 } } },
	{ "cndmask_b32_kk2", M_CNDMASK_B32, { { SRC_K, 0xffffffff }, { SRC_K, 64 } } },
	{ "add_co_u32_vv", M_ADD_CO_U32, { { SRC_A, 0 }, { SRC_B, 0 } } },
	{ "add_co_u32_sv", M_ADD_CO_U32, { { SRC_S, 0 }, { SRC_B, 0 } } },
	{ "add_co_u32_vs", M_ADD_CO_U32, { { SRC_A, 0 }, { SRC_S, 0 } } },
	{ "add_co_u32_kv", M_ADD_CO_U32, { { SRC_K, 64 }, { SRC_B, 0 } } },
	{ "addc_co_u32_vv", M_ADDC_CO_U32, { { SRC_A, 0 }, { SRC_B, 0 } } },
	{ "addc_co_u32_kv", M_ADDC_CO_U32, { { SRC_K, 64 }, { SRC_B, 0 } } },
	{ "cmp_lt_i32_vv", M_CMP_LT_I32, { { SRC_A, 0 }, { SRC_B, 0 } } },
	{ "cmp_lt_i32_sv", M_CMP_LT_I32, { { SRC_S, 0 }, { SRC_B, 0 } } },
	{ "cmp_lt_i32_vs", M_CMP_LT_I32, { { SRC_A, 0 }, { SRC_S, 0 } } },
	{ "cmp_lt_i32_kv", M_CMP_LT_I32, { { SRC_K, 7 }, { SRC_B, 0 } } },
	{ "cmp_eq_i32_vv", M_CMP_EQ_I32, { { SRC_A, 0 }, { SRC_B, 0 } } },
	{ "cmp_eq_i32_sv", M_CMP_EQ_I32, { { SRC_S, 0 }, { SRC_B, 0 } } },
	{ "cmp_eq_i32_vs", M_CMP_EQ_I32, { { SRC_A, 0 }, { SRC_S, 0 } } },
	{ "cmp_eq_i32_kv", M_CMP_EQ_I32, { { SRC_K, 7 }, { SRC_B, 0 } } },
	{ "cmp_le_i32_vv", M_CMP_LE_I32, { { SRC_A, 0 }, { SRC_B, 0 } } },
	{ "cmp_le_i32_sv", M_CMP_LE_I32, { { SRC_S, 0 }, { SRC_B, 0 } } },
	{ "cmp_le_i32_vs", M_CMP_LE_I32, { { SRC_A, 0 }, { SRC_S, 0 } } },
	{ "cmp_le_i32_kv", M_CMP_LE_I32, { { SRC_K, 7 }, { SRC_B, 0 } } },
	{ "cmp_gt_i32_vv", M_CMP_GT_I32, { { SRC_A, 0 }, { SRC_B, 0 } } },
	{ "cmp_gt_i32_sv", M_CMP_GT_I32, { { SRC_S, 0 }, { SRC_B, 0 } } },
	{ "cmp_gt_i32_vs", M_CMP_GT_I32, { { SRC_A, 0 }, { SRC_S, 0 } } },
	{ "cmp_gt_i32_kv", M_CMP_GT_I32, { { SRC_K, 7 }, { SRC_B, 0 } } },
	{ "cmp_ne_i32_vv", M_CMP_NE_I32, { { SRC_A, 0 }, { SRC_B, 0 } } },
	{ "cmp_ne_i32_sv", M_CMP_NE_I32, { { SRC_S, 0 }, { SRC_B, 0 } } },
	{ "cmp_ne_i32_vs", M_CMP_NE_I32, { { SRC_A, 0 }, { SRC_S, 0 } } },
	{ "cmp_ne_i32_kv", M_CMP_NE_I32, { { SRC_K, 7 }, { SRC_B, 0 } } },
	{ "cmp_ge_i32_vv", M_CMP_GE_I32, { { SRC_A, 0 }, { SRC_B, 0 } } },
	{ "cmp_ge_i32_sv", M_CMP_GE_I32, { { SRC_S, 0 }, { SRC_B, 0 } } },
	{ "cmp_ge_i32_vs", M_CMP_GE_I32, { { SRC_A, 0 }, { SRC_S, 0 } } },
	{ "cmp_ge_i32_kv", M_CMP_GE_I32, { { SRC_K, 7 }, { SRC_B, 0 } } },
	{ "cmp_lt_u32_vv", M_CMP_LT_U32, { { SRC_A, 0 }, { SRC_B, 0 } } },
	{ "cmp_lt_u32_sv", M_CMP_LT_U32, { { SRC_S, 0 }, { SRC_B, 0 } } },
	{ "cmp_lt_u32_vs", M_CMP_LT_U32, { { SRC_A, 0 }, { SRC_S, 0 } } },
	{ "cmp_lt_u32_kv", M_CMP_LT_U32, { { SRC_K, 7 }, { SRC_B, 0 } } },
	{ "cmp_eq_u32_vv", M_CMP_EQ_U32, { { SRC_A, 0 }, { SRC_B, 0 } } },
	{ "cmp_eq_u32_sv", M_CMP_EQ_U32, { { SRC_S, 0 }, { SRC_B, 0 } } },
	{ "cmp_eq_u32_vs", M_CMP_EQ_U32, { { SRC_A, 0 }, { SRC_S, 0 } } },
	{ "cmp_eq_u32_kv", M_CMP_EQ_U32, { { SRC_K, 7 }, { SRC_B, 0 } } },
	{ "cmp_le_u32_vv", M_CMP_LE_U32, { { SRC_A, 0 }, { SRC_B, 0 } } },
	{ "cmp_le_u32_sv", M_CMP_LE_U32, { { SRC_S, 0 }, { SRC_B, 0 } } },
	{ "cmp_le_u32_vs", M_CMP_LE_U32, { { SRC_A, 0 }, { SRC_S, 0 } } },
	{ "cmp_le_u32_kv", M_CMP_LE_U32, { { SRC_K, 7 }, { SRC_B, 0 } } },
	{ "cmp_gt_u32_vv", M_CMP_GT_U32, { { SRC_A, 0 }, { SRC_B, 0 } } },
	{ "cmp_gt_u32_sv", M_CMP_GT_U32, { { SRC_S, 0 }, { SRC_B, 0 } } },
	{ "cmp_gt_u32_vs", M_CMP_GT_U32, { { SRC_A, 0 }, { SRC_S, 0 } } },
	{ "cmp_gt_u32_kv", M_CMP_GT_U32, { { SRC_K, 7 }, { SRC_B, 0 } } },
	{ "cmp_ne_u32_vv", M_CMP_NE_U32, { { SRC_A, 0 }, { SRC_B, 0 } } },
	{ "cmp_ne_u32_sv", M_CMP_NE_U32, { { SRC_S, 0 }, { SRC_B, 0 } } },
	{ "cmp_ne_u32_vs", M_CMP_NE_U32, { { SRC_A, 0 }, { SRC_S, 0 } } },
	{ "cmp_ne_u32_kv", M_CMP_NE_U32, { { SRC_K, 7 }, { SRC_B, 0 } } },
	{ "cmp_ge_u32_vv", M_CMP_GE_U32, { { SRC_A, 0 }, { SRC_B, 0 } } },
	{ "cmp_ge_u32_sv", M_CMP_GE_U32, { { SRC_S, 0 }, { SRC_B, 0 } } },
	{ "cmp_ge_u32_vs", M_CMP_GE_U32, { { SRC_A, 0 }, { SRC_S, 0 } } },
	{ "cmp_ge_u32_kv", M_CMP_GE_U32, { { SRC_K, 7 }, { SRC_B, 0 } } },
};

/* The lane's D (d when the instruction has none) and VCC bit; cin: the
 * lane's carry-in bit (v_cndmask_b32: its selector bit). */
static void mmodel(enum mop op, uint32_t x, uint32_t y, bool cin, uint32_t d, uint32_t *r,
		   bool *bit)
{
	uint64_t t = (uint64_t)x + y + (op == M_ADDC_CO_U32 && cin);
	*r = d;
	switch (op) {
	case M_CNDMASK_B32: *r = cin ? y : x; *bit = cin; break; /* VCC unchanged */
	case M_ADD_CO_U32: case M_ADDC_CO_U32: *r = (uint32_t)t; *bit = t >> 32; break;
	case M_CMP_LT_I32: *bit = (int32_t)x < (int32_t)y; break;
	case M_CMP_EQ_I32: case M_CMP_EQ_U32: *bit = x == y; break;
	case M_CMP_LE_I32: *bit = (int32_t)x <= (int32_t)y; break;
	case M_CMP_GT_I32: *bit = (int32_t)x > (int32_t)y; break;
	case M_CMP_NE_I32: case M_CMP_NE_U32: *bit = x != y; break;
	case M_CMP_GE_I32: *bit = (int32_t)x >= (int32_t)y; break;
	case M_CMP_LT_U32: *bit = x < y; break;
	case M_CMP_LE_U32: *bit = x <= y; break;
	case M_CMP_GT_U32: *bit = x > y; break;
	case M_CMP_GE_U32: *bit = x >= y; break;
	}
}

START_TEST(test_vfast_masks_match_model)
{
	static struct hx_code code;
	char path[600];
	uint32_t *in = hx_alloc(NLANES * 16), *out = hx_alloc(NLANES * 16);
	uint64_t args[2] = { (uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out };
	unsigned bad = 0;

	ck_assert_msg(hx_kernel_path("vfast", KEMU_ISA_GFX90A, path, sizeof(path)) != NULL,
		      "vfast-gfx90a.co not built");
	ck_assert_int_eq(hx_load(&code, path), 0);
	for (size_t k = 0; k < sizeof(mforms) / sizeof(mforms[0]); k++) {
		const struct mform *f = &mforms[k];
		unsigned set = 0;
		for (unsigned seed = 1; seed <= 3; seed++) {
			struct hx_launch l = { .gfx = KEMU_ISA_GFX90A, .args = args, .args_size = 16,
					       .grid = { NLANES, 1, 1 }, .wg = { NLANES, 1, 1 } };
			struct kemu_isa_error err;
			rng = seed * 0x85ebca6bu + (uint32_t)k * 0xc2b2ae35u;
			for (unsigned i = 0; i < NLANES * 4; i++)
				in[i] = gen();
			memset(out, 0xa5, NLANES * 16);
			l.kd = hx_kd(&code, f->name);
			ck_assert_msg(l.kd != 0, "no %s.kd", f->name);
			ck_assert_msg(hx_run(&l, &err) == 0, "%s: %s: %s", f->name,
				      kemu_isa_error_name(err.kind), err.message);
			for (unsigned i = 0; i < NLANES; i++) {
				const uint32_t *v = in + 4 * i, *o = out + 4 * i;
				uint32_t x[2], r, want[4];
				bool bit = false;
				for (unsigned j = 0; j < 2; j++) {
					switch (f->s[j].src) {
					case SRC_A: x[j] = v[0]; break;
					case SRC_B: x[j] = v[1]; break;
					case SRC_S: x[j] = in[4 * (i & ~63u) + 1]; break;
					default: x[j] = f->s[j].k; break;
					}
				}
				mmodel(f->op, x[0], x[1], v[2] > v[1], v[3], &r, &bit);
				want[0] = r;
				want[1] = active(i) ? r : v[3];
				want[2] = bit;
				/* inactive lanes: 0 in the mask; v_cndmask_b32 leaves
				 * VCC (the compare's, under the whole EXEC) alone */
				want[3] = f->op == M_CNDMASK_B32 ? bit : active(i) && bit;
				set += bit;
				if (memcmp(o, want, 16) && bad++ < 8)
					fprintf(stderr, "%s lane %u: %08x %08x %08x %08x: got %08x %08x %u %u, "
						"model %08x %08x %u %u\n", f->name, i, v[0], v[1], v[2], v[3],
						o[0], o[1], o[2], o[3], want[0], want[1], want[2], want[3]);
			}
		}
		/* the inputs give both answers (equality of random words is
		 * rare: eq/ne forms are checked for the common answer only) */
		if (f->op == M_CMP_EQ_I32 || f->op == M_CMP_EQ_U32)
			ck_assert_msg(set < 3 * NLANES, "%s: every lane set", f->name);
		else if (f->op == M_CMP_NE_I32 || f->op == M_CMP_NE_U32)
			ck_assert_msg(set > 0, "%s: no lane set", f->name);
		else
			ck_assert_msg(set > 0 && set < 3 * NLANES, "%s: %u of %u lanes set", f->name,
				      set, 3 * NLANES);
	}
	ck_assert_msg(bad == 0, "%u lanes differ from the model", bad);
	hx_unload(&code);
	hx_free(in);
	hx_free(out);
}
END_TEST

START_TEST(test_model_hand_values)
{
	ck_assert_uint_eq(model(OP_ASHRREV_I32, 33, 0x80000000u, 0), 0xc0000000u);
	ck_assert_uint_eq(model(OP_LSHL_ADD_U32, 0x80000001u, 32, 1), 0x80000002u);
	ck_assert_uint_eq(model(OP_MIN_I32, 0xffffffffu, 1, 0), 0xffffffffu);
	ck_assert_uint_eq(model(OP_BFI_B32, 0xff00ff00u, 0x12345678u, 0x9abcdef0u), 0x12bc56f0u);
	ck_assert_uint_eq(model(OP_XAD_U32, 0xf0u, 0xffu, 1), 0x10u);
	ck_assert(!active(0 + 1) && active(0) && active(8 + 1) && !active(8) && active(16 + 7));
	ck_assert(!active(24) && active(32 + 7) && !active(32 + 8) && active(63));
}
END_TEST

/* The 64-bit add pairs (T64 in vfast.s): v_add_co_u32 then
 * v_addc_co_u32 on its carry, which the wave loop runs as one
 * superinstruction where the forms allow it, against the two
 * instructions' ISA semantics run one after the other over a wave: the
 * first's sum and carry-out (under EXEC, 0 in inactive lanes) to its
 * VGPR and SGPR pair, then the second's over the state the first left.
 * The forms: each operand kind, distinct carry pairs, the second reading
 * the first's result row, the first reading the row the second writes,
 * one destination for both, and a carry-in that is not the first's
 * carry-out (not fused). */
enum p64src { P_V2, P_V3, P_V4, P_V5, P_V10, P_V11, P_S8, P_K };
enum p64sdst { P_VCC, P_S10, P_S12 };
struct p64inst {
	unsigned dst;                   /* VGPR 10 or 11 */
	enum p64sdst sdst, cin;         /* cin: the second's carry-in */
	struct { enum p64src src; uint32_t k; } s[2];
};
static const struct p64form {
	const char *name;
	struct p64inst i[2];
} p64forms[] = {
	{ "add64_vv", { { 10, P_VCC, 0, { { P_V2, 0 }, { P_V3, 0 } } },
			{ 11, P_VCC, P_VCC, { { P_V4, 0 }, { P_V5, 0 } } } } },
	{ "add64_sv", { { 10, P_VCC, 0, { { P_S8, 0 }, { P_V3, 0 } } },
			{ 11, P_VCC, P_VCC, { { P_V4, 0 }, { P_V5, 0 } } } } },
	{ "add64_vs_vk", { { 10, P_VCC, 0, { { P_V2, 0 }, { P_S8, 0 } } },
			   { 11, P_VCC, P_VCC, { { P_V4, 0 }, { P_K, 64 } } } } },
	{ "add64_vv_kv", { { 10, P_VCC, 0, { { P_V2, 0 }, { P_V3, 0 } } },
			   { 11, P_VCC, P_VCC, { { P_K, 0 }, { P_V5, 0 } } } } },
	{ "add64_kv_kv", { { 10, P_VCC, 0, { { P_K, 0xffffffffu }, { P_V3, 0 } } },
			   { 11, P_VCC, P_VCC, { { P_K, 0 }, { P_V5, 0 } } } } },
	{ "add64_pairs", { { 10, P_S10, 0, { { P_V2, 0 }, { P_V3, 0 } } },
			   { 11, P_S12, P_S10, { { P_V4, 0 }, { P_V5, 0 } } } } },
	{ "add64_hi_reads_lo", { { 10, P_VCC, 0, { { P_V2, 0 }, { P_V3, 0 } } },
				 { 11, P_VCC, P_VCC, { { P_V10, 0 }, { P_V5, 0 } } } } },
	{ "add64_lo_reads_hi", { { 10, P_VCC, 0, { { P_V11, 0 }, { P_V3, 0 } } },
				 { 11, P_VCC, P_VCC, { { P_V4, 0 }, { P_V5, 0 } } } } },
	{ "add64_same_dst", { { 10, P_VCC, 0, { { P_V2, 0 }, { P_V3, 0 } } },
			      { 10, P_VCC, P_VCC, { { P_V10, 0 }, { P_V5, 0 } } } } },
	{ "add64_other_carry", { { 10, P_S10, 0, { { P_V2, 0 }, { P_V3, 0 } } },
				 { 11, P_S12, P_VCC, { { P_V4, 0 }, { P_V5, 0 } } } } },
};

/* One wave of a form under exec: v[r][lane] for rows 2..5, 10, 11, m the
 * three lane masks, s8 the SGPR. */
static void p64model(const struct p64form *f, uint32_t v[12][64], uint64_t m[3], uint32_t s8,
		     uint64_t exec)
{
	for (unsigned j = 0; j < 2; j++) {
		const struct p64inst *p = &f->i[j];
		uint32_t res[64];
		uint64_t carry = 0;
		for (unsigned l = 0; l < 64; l++) {
			uint64_t x[2], t;
			for (unsigned q = 0; q < 2; q++) {
				switch (p->s[q].src) {
				case P_V2: x[q] = v[2][l]; break;
				case P_V3: x[q] = v[3][l]; break;
				case P_V4: x[q] = v[4][l]; break;
				case P_V5: x[q] = v[5][l]; break;
				case P_V10: x[q] = v[10][l]; break;
				case P_V11: x[q] = v[11][l]; break;
				case P_S8: x[q] = s8; break;
				default: x[q] = p->s[q].k; break;
				}
			}
			t = x[0] + x[1] + (j == 1 ? m[p->cin] >> l & 1 : 0);
			res[l] = (uint32_t)t;
			carry |= (uint64_t)(t >> 32) << l;
		}
		for (unsigned l = 0; l < 64; l++)
			if (exec >> l & 1)
				v[p->dst][l] = res[l];
		m[p->sdst] = carry & exec;
	}
}

static void p64check(const struct p64form *f, const uint32_t *in, const uint32_t *out,
		     unsigned *bad, const char *what)
{
	uint64_t partial = 0x00ff5a01ull | (0xf0ff0080ull << 32);

	for (unsigned wv = 0; wv < NLANES / 64; wv++) {
		for (unsigned run = 0; run < 2; run++) {
			uint32_t v[12][64];
			uint64_t m[3] = { 0 }, exec = run ? partial : ~0ull;
			for (unsigned l = 0; l < 64; l++) {
				const uint32_t *x = in + 4 * (wv * 64 + l);
				v[2][l] = x[0];
				v[3][l] = x[1];
				v[4][l] = x[2];
				v[5][l] = x[3];
				v[10][l] = x[3];
				v[11][l] = x[0];
				if (x[2] > x[1])
					m[0] |= 1ull << l;
			}
			m[1] = m[2] = m[0];
			p64model(f, v, m, in[4 * wv * 64 + 1], exec);
			for (unsigned l = 0; l < 64; l++) {
				const uint32_t *o = out + 8 * (wv * 64 + l) + 4 * run;
				uint32_t want[3] = { v[10][l], v[11][l],
						     (uint32_t)((m[0] >> l & 1) | (m[1] >> l & 1) << 1 |
								(m[2] >> l & 1) << 2) };
				if (memcmp(o, want, sizeof(want)) && (*bad)++ < 8)
					fprintf(stderr, "%s %s lane %u run %u: got %08x %08x %x, "
						"model %08x %08x %x\n", f->name, what, wv * 64 + l, run,
						o[0], o[1], o[2], want[0], want[1], want[2]);
			}
		}
	}
}

/* Runs every form, with the stop point of a context save (HX_PREEMPT_AFTER,
 * the wave saved, rebuilt and resumed) after each instruction count from
 * after_from to after_to (0: none), and checks it against the model. */
static void p64run(unsigned after_from, unsigned after_to)
{
	static struct hx_code code;
	char path[600];
	uint32_t *in = hx_alloc(NLANES * 16), *out = hx_alloc(NLANES * 32);
	uint64_t args[2] = { (uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out };
	unsigned bad = 0;

	ck_assert_msg(hx_kernel_path("vfast", KEMU_ISA_GFX90A, path, sizeof(path)) != NULL,
		      "vfast-gfx90a.co not built");
	ck_assert_int_eq(hx_load(&code, path), 0);
	for (size_t k = 0; k < sizeof(p64forms) / sizeof(p64forms[0]); k++) {
		const struct p64form *f = &p64forms[k];
		for (unsigned after = after_from; after <= after_to; after++) {
			struct hx_launch l = { .gfx = KEMU_ISA_GFX90A, .args = args, .args_size = 16,
					       .grid = { NLANES, 1, 1 }, .wg = { NLANES, 1, 1 } };
			struct kemu_isa_error err;
			char what[32];
			int rc;
			rng = 0x2545f491u + (uint32_t)k * 0x9e3779b9u + after;
			for (unsigned i = 0; i < NLANES * 4; i++)
				in[i] = gen();
			/* carries: lanes whose low words sum past 2^32 */
			for (unsigned i = 0; i < NLANES; i += 3)
				in[4 * i + 1] = 0xffffffffu - (in[4 * i] & 0xff);
			memset(out, 0xa5, NLANES * 32);
			l.kd = hx_kd(&code, f->name);
			ck_assert_msg(l.kd != 0, "no %s.kd", f->name);
			if (after) {
				snprintf(what, sizeof(what), "%u", after);
				setenv("HX_PREEMPT_AFTER", what, 1);
			}
			snprintf(what, sizeof(what), "after %u", after);
			rc = hx_run(&l, &err);
			unsetenv("HX_PREEMPT_AFTER");
			ck_assert_msg(rc == 0, "%s %s: %s: %s", f->name, what,
				      kemu_isa_error_name(err.kind), err.message);
			p64check(f, in, out, &bad, what);
		}
	}
	ck_assert_msg(bad == 0, "%u lanes differ from the model", bad);
	hx_unload(&code);
	hx_free(in);
	hx_free(out);
}

START_TEST(test_vfast_add64_match_model)
{
	p64run(0, 0);
}
END_TEST

/* A stop point between the two instructions of a pair splits it: the
 * wave loop then runs the first alone, saves, and the restored wave
 * runs the second (every count up to past the second pair). */
START_TEST(test_vfast_add64_preempted)
{
	p64run(1, 36);
}
END_TEST

/* Runs kernel on one wave (every lane's c = c, the rest 0) with a
 * watchdog of k = 1, 2, ... instructions until the wave ends; returns
 * the k that let it end. */
static unsigned stop_points(struct hx_code *code, const char *kernel, uint32_t c)
{
	uint32_t *in = hx_alloc(NLANES * 16), *out = hx_alloc(NLANES * 32);
	uint64_t args[2] = { (uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out };
	unsigned k;

	memset(in, 0, NLANES * 16);
	for (unsigned i = 0; i < NLANES; i++)
		in[4 * i + 2] = c;
	k = hx_stop_points(code, kernel, args);
	hx_free(in);
	hx_free(out);
	return k;
}

/* The wave loop's stop points are exact with the superinstructions and
 * the no-ops it skips: a watchdog of k instructions stops the wave after
 * exactly k, at the instruction boundary k, for every k up to the
 * kernel's length, so the stops' PCs step one instruction (4 or 8 bytes)
 * at a time (straight-line paths) and the first k that lets the wave end
 * is its length.  add64_vv: two fused pairs and four s_waitcnt in 35
 * instructions (T64: 12, the pair, 5, 7, the pair, 7); ifz with every
 * lane in the body: the saveexec/execz pair and an s_nop after it, 21
 * instructions. */
START_TEST(test_stop_points_exact)
{
	static struct hx_code code;
	char path[600];

	ck_assert_msg(hx_kernel_path("vfast", KEMU_ISA_GFX90A, path, sizeof(path)) != NULL,
		      "vfast-gfx90a.co not built");
	ck_assert_int_eq(hx_load(&code, path), 0);
	ck_assert_uint_eq(stop_points(&code, "add64_vv", 0), 35);
	ck_assert_uint_eq(stop_points(&code, "ifz", 1), 21);
	hx_unload(&code);
}
END_TEST

/* ifz (vfast.s) against the model of s_and_saveexec_b64 then
 * s_cbranch_execz: four waves, one with every lane in the body, one with
 * none (the branch taken), two mixed. */
START_TEST(test_ifz_match_model)
{
	static struct hx_code code;
	char path[600];
	uint32_t *in = hx_alloc(NLANES * 16), *out = hx_alloc(NLANES * 32);
	uint64_t args[2] = { (uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out };
	struct hx_launch l = { .gfx = KEMU_ISA_GFX90A, .args = args, .args_size = 16,
			       .grid = { NLANES, 1, 1 }, .wg = { NLANES, 1, 1 } };
	struct kemu_isa_error err;
	unsigned bad = 0;

	ck_assert_msg(hx_kernel_path("vfast", KEMU_ISA_GFX90A, path, sizeof(path)) != NULL,
		      "vfast-gfx90a.co not built");
	ck_assert_int_eq(hx_load(&code, path), 0);
	rng = 0x1b873593u;
	for (unsigned i = 0; i < NLANES * 4; i++)
		in[i] = gen();
	for (unsigned i = 64; i < 128; i++) /* wave 1: c == b */
		in[4 * i + 2] = in[4 * i + 1];
	for (unsigned i = 128; i < 192; i++) { /* wave 2: c = b + 1 */
		if (in[4 * i + 1] == ~0u)
			in[4 * i + 1] = 5;
		in[4 * i + 2] = in[4 * i + 1] + 1;
	}
	memset(out, 0xa5, NLANES * 32);
	l.kd = hx_kd(&code, "ifz");
	ck_assert(l.kd != 0);
	ck_assert_msg(hx_run(&l, &err) == 0, "ifz: %s: %s", kemu_isa_error_name(err.kind),
		      err.message);
	for (unsigned wv = 0; wv < NLANES / 64; wv++) {
		bool any = false;
		for (unsigned i = wv * 64; i < wv * 64 + 64; i++)
			any |= in[4 * i + 2] > in[4 * i + 1];
		ck_assert_msg(wv == 1 ? !any : any, "wave %u: inputs", wv);
		for (unsigned i = wv * 64; i < wv * 64 + 64; i++) {
			uint32_t want[4] = { in[4 * i + 2] > in[4 * i + 1] ? 1u : 2u, any, 1,
					     any ? 7u : 3u };
			if (memcmp(out + 8 * i, want, sizeof(want)) && bad++ < 8)
				fprintf(stderr, "ifz lane %u: got %u %u %u %u, model %u %u %u %u\n", i,
					out[8 * i], out[8 * i + 1], out[8 * i + 2], out[8 * i + 3],
					want[0], want[1], want[2], want[3]);
		}
	}
	ck_assert_msg(bad == 0, "%u lanes differ from the model", bad);
	hx_unload(&code);
	hx_free(in);
	hx_free(out);
}
END_TEST

static Suite *vfast_suite(void)
{
	Suite *s = suite_create("isa_vfast");
	TCase *tc = tcase_create("vfast");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_model_hand_values);
	tcase_add_test(tc, test_vfast_match_model);
	tcase_add_test(tc, test_vfast_masks_match_model);
	tcase_add_test(tc, test_vfast_add64_match_model);
	tcase_add_test(tc, test_vfast_add64_preempted);
	tcase_add_test(tc, test_stop_points_exact);
	tcase_add_test(tc, test_ifz_match_model);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(vfast_suite)
