/*
 * test_isa_vop2.c — the VOP2 operations against a host model, each in the
 * forms LLVM decodes for gfx90a: e32, e64 (NEG or ABS on a float source;
 * carries through s[10:11]/s[12:13]), SDWA (WORD_1/WORD_0 for the 16-bit
 * types, BYTE_1/WORD_1 for 32-bit integers) and DPP (quad_perm
 * [1,0,3,2] on SRC0).  kernels/vop2.s holds one kernel per row of the
 * table below (both generated from emu/isa/isa_table.tsv's rows); each
 * runs one wave on generated sources and compares every lane's D and
 * carry-out with the model.
 *
 * The model follows the ISA: f32 add/sub/mul round to nearest even,
 * v_mac_f32 multiplies then adds without denormals (the guide's MAC has
 * no denormal support), fmac is fused; min/max under MODE.IEEE quiet a
 * signalling NaN and return it, return the other operand for a quiet NaN,
 * and order -0 below +0; the 24-bit multiplies take the sign- or zero-
 * extended low 24 bits (hi: bits [63:32] of the product); shifts use the
 * low 5 (4 for 16-bit) bits of S0; 16-bit results are zero-extended;
 * v_ldexp_f16 scales by S1's low 16 bits as a signed integer; the carry
 * ops' carry-out is the unsigned overflow/borrow of the full sum; dot*c
 * accumulate into D and wrap.  f16 data are small binary fractions so
 * that every f16 result is exact; a NaN result must be a NaN.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hl_check.h"
#include "isa_harness.h"
#include "isa_forms.h"

struct v2form {
	const char *name;
	unsigned op;            /* VOP2 opcode */
	int enc;                /* 0 e32, 1 e64, 2 SDWA, 3 DPP */
	int mod;                /* e64: 1 NEG S0, 2 ABS S1; SDWA: 1 16-bit sels, 2 32-bit sels */
};

static const struct v2form v2forms[] = {
	{ "v_add_f32_e32", 0x01, 0, 0 },
	{ "v_add_f32_e64", 0x01, 1, 1 },
	{ "v_add_f32_sdwa", 0x01, 2, 0 },
	{ "v_add_f32_dpp", 0x01, 3, 0 },
	{ "v_sub_f32_e32", 0x02, 0, 0 },
	{ "v_sub_f32_e64", 0x02, 1, 2 },
	{ "v_sub_f32_sdwa", 0x02, 2, 0 },
	{ "v_sub_f32_dpp", 0x02, 3, 0 },
	{ "v_subrev_f32_e32", 0x03, 0, 0 },
	{ "v_subrev_f32_e64", 0x03, 1, 1 },
	{ "v_subrev_f32_sdwa", 0x03, 2, 0 },
	{ "v_subrev_f32_dpp", 0x03, 3, 0 },
	{ "v_mul_f32_e32", 0x05, 0, 0 },
	{ "v_mul_f32_e64", 0x05, 1, 1 },
	{ "v_mul_f32_sdwa", 0x05, 2, 0 },
	{ "v_mul_f32_dpp", 0x05, 3, 0 },
	{ "v_mul_i32_i24_e32", 0x06, 0, 0 },
	{ "v_mul_i32_i24_e64", 0x06, 1, 0 },
	{ "v_mul_i32_i24_sdwa", 0x06, 2, 2 },
	{ "v_mul_i32_i24_dpp", 0x06, 3, 0 },
	{ "v_mul_hi_i32_i24_e32", 0x07, 0, 0 },
	{ "v_mul_hi_i32_i24_e64", 0x07, 1, 0 },
	{ "v_mul_hi_i32_i24_sdwa", 0x07, 2, 2 },
	{ "v_mul_hi_i32_i24_dpp", 0x07, 3, 0 },
	{ "v_mul_u32_u24_e32", 0x08, 0, 0 },
	{ "v_mul_u32_u24_e64", 0x08, 1, 0 },
	{ "v_mul_u32_u24_sdwa", 0x08, 2, 2 },
	{ "v_mul_u32_u24_dpp", 0x08, 3, 0 },
	{ "v_mul_hi_u32_u24_e32", 0x09, 0, 0 },
	{ "v_mul_hi_u32_u24_e64", 0x09, 1, 0 },
	{ "v_mul_hi_u32_u24_sdwa", 0x09, 2, 2 },
	{ "v_mul_hi_u32_u24_dpp", 0x09, 3, 0 },
	{ "v_min_f32_e32", 0x0a, 0, 0 },
	{ "v_min_f32_e64", 0x0a, 1, 2 },
	{ "v_min_f32_sdwa", 0x0a, 2, 0 },
	{ "v_min_f32_dpp", 0x0a, 3, 0 },
	{ "v_max_f32_e32", 0x0b, 0, 0 },
	{ "v_max_f32_e64", 0x0b, 1, 1 },
	{ "v_max_f32_sdwa", 0x0b, 2, 0 },
	{ "v_max_f32_dpp", 0x0b, 3, 0 },
	{ "v_min_i32_e32", 0x0c, 0, 0 },
	{ "v_min_i32_e64", 0x0c, 1, 0 },
	{ "v_min_i32_sdwa", 0x0c, 2, 2 },
	{ "v_min_i32_dpp", 0x0c, 3, 0 },
	{ "v_max_i32_e32", 0x0d, 0, 0 },
	{ "v_max_i32_e64", 0x0d, 1, 0 },
	{ "v_max_i32_sdwa", 0x0d, 2, 2 },
	{ "v_max_i32_dpp", 0x0d, 3, 0 },
	{ "v_min_u32_e32", 0x0e, 0, 0 },
	{ "v_min_u32_e64", 0x0e, 1, 0 },
	{ "v_min_u32_sdwa", 0x0e, 2, 2 },
	{ "v_min_u32_dpp", 0x0e, 3, 0 },
	{ "v_max_u32_e32", 0x0f, 0, 0 },
	{ "v_max_u32_e64", 0x0f, 1, 0 },
	{ "v_max_u32_sdwa", 0x0f, 2, 2 },
	{ "v_max_u32_dpp", 0x0f, 3, 0 },
	{ "v_lshrrev_b32_e32", 0x10, 0, 0 },
	{ "v_lshrrev_b32_e64", 0x10, 1, 0 },
	{ "v_lshrrev_b32_sdwa", 0x10, 2, 2 },
	{ "v_lshrrev_b32_dpp", 0x10, 3, 0 },
	{ "v_ashrrev_i32_e32", 0x11, 0, 0 },
	{ "v_ashrrev_i32_e64", 0x11, 1, 0 },
	{ "v_ashrrev_i32_sdwa", 0x11, 2, 2 },
	{ "v_ashrrev_i32_dpp", 0x11, 3, 0 },
	{ "v_lshlrev_b32_e32", 0x12, 0, 0 },
	{ "v_lshlrev_b32_e64", 0x12, 1, 0 },
	{ "v_lshlrev_b32_sdwa", 0x12, 2, 2 },
	{ "v_lshlrev_b32_dpp", 0x12, 3, 0 },
	{ "v_and_b32_e32", 0x13, 0, 0 },
	{ "v_and_b32_e64", 0x13, 1, 0 },
	{ "v_and_b32_sdwa", 0x13, 2, 2 },
	{ "v_and_b32_dpp", 0x13, 3, 0 },
	{ "v_or_b32_e32", 0x14, 0, 0 },
	{ "v_or_b32_e64", 0x14, 1, 0 },
	{ "v_or_b32_sdwa", 0x14, 2, 2 },
	{ "v_or_b32_dpp", 0x14, 3, 0 },
	{ "v_xor_b32_e32", 0x15, 0, 0 },
	{ "v_xor_b32_e64", 0x15, 1, 0 },
	{ "v_xor_b32_sdwa", 0x15, 2, 2 },
	{ "v_xor_b32_dpp", 0x15, 3, 0 },
	{ "v_mac_f32_e32", 0x16, 0, 0 },
	{ "v_mac_f32_e64", 0x16, 1, 2 },
	{ "v_mac_f32_dpp", 0x16, 3, 0 },
	{ "v_add_co_u32_e32", 0x19, 0, 0 },
	{ "v_add_co_u32_e64", 0x19, 1, 0 },
	{ "v_add_co_u32_sdwa", 0x19, 2, 2 },
	{ "v_add_co_u32_dpp", 0x19, 3, 0 },
	{ "v_sub_co_u32_e32", 0x1a, 0, 0 },
	{ "v_sub_co_u32_e64", 0x1a, 1, 0 },
	{ "v_sub_co_u32_sdwa", 0x1a, 2, 2 },
	{ "v_sub_co_u32_dpp", 0x1a, 3, 0 },
	{ "v_subrev_co_u32_e32", 0x1b, 0, 0 },
	{ "v_subrev_co_u32_e64", 0x1b, 1, 0 },
	{ "v_subrev_co_u32_sdwa", 0x1b, 2, 2 },
	{ "v_subrev_co_u32_dpp", 0x1b, 3, 0 },
	{ "v_addc_co_u32_e32", 0x1c, 0, 0 },
	{ "v_addc_co_u32_e64", 0x1c, 1, 0 },
	{ "v_addc_co_u32_sdwa", 0x1c, 2, 2 },
	{ "v_addc_co_u32_dpp", 0x1c, 3, 0 },
	{ "v_subb_co_u32_e32", 0x1d, 0, 0 },
	{ "v_subb_co_u32_e64", 0x1d, 1, 0 },
	{ "v_subb_co_u32_sdwa", 0x1d, 2, 2 },
	{ "v_subb_co_u32_dpp", 0x1d, 3, 0 },
	{ "v_subbrev_co_u32_e32", 0x1e, 0, 0 },
	{ "v_subbrev_co_u32_e64", 0x1e, 1, 0 },
	{ "v_subbrev_co_u32_sdwa", 0x1e, 2, 2 },
	{ "v_subbrev_co_u32_dpp", 0x1e, 3, 0 },
	{ "v_add_f16_e32", 0x1f, 0, 0 },
	{ "v_add_f16_e64", 0x1f, 1, 1 },
	{ "v_add_f16_sdwa", 0x1f, 2, 1 },
	{ "v_add_f16_dpp", 0x1f, 3, 0 },
	{ "v_sub_f16_e32", 0x20, 0, 0 },
	{ "v_sub_f16_e64", 0x20, 1, 2 },
	{ "v_sub_f16_sdwa", 0x20, 2, 1 },
	{ "v_sub_f16_dpp", 0x20, 3, 0 },
	{ "v_subrev_f16_e32", 0x21, 0, 0 },
	{ "v_subrev_f16_e64", 0x21, 1, 1 },
	{ "v_subrev_f16_sdwa", 0x21, 2, 1 },
	{ "v_subrev_f16_dpp", 0x21, 3, 0 },
	{ "v_mul_f16_e32", 0x22, 0, 0 },
	{ "v_mul_f16_e64", 0x22, 1, 2 },
	{ "v_mul_f16_sdwa", 0x22, 2, 1 },
	{ "v_mul_f16_dpp", 0x22, 3, 0 },
	{ "v_mac_f16_e32", 0x23, 0, 0 },
	{ "v_mac_f16_e64", 0x23, 1, 1 },
	{ "v_mac_f16_dpp", 0x23, 3, 0 },
	{ "v_add_u16_e32", 0x26, 0, 0 },
	{ "v_add_u16_e64", 0x26, 1, 0 },
	{ "v_add_u16_sdwa", 0x26, 2, 1 },
	{ "v_add_u16_dpp", 0x26, 3, 0 },
	{ "v_sub_u16_e32", 0x27, 0, 0 },
	{ "v_sub_u16_e64", 0x27, 1, 0 },
	{ "v_sub_u16_sdwa", 0x27, 2, 1 },
	{ "v_sub_u16_dpp", 0x27, 3, 0 },
	{ "v_subrev_u16_e32", 0x28, 0, 0 },
	{ "v_subrev_u16_e64", 0x28, 1, 0 },
	{ "v_subrev_u16_sdwa", 0x28, 2, 1 },
	{ "v_subrev_u16_dpp", 0x28, 3, 0 },
	{ "v_mul_lo_u16_e32", 0x29, 0, 0 },
	{ "v_mul_lo_u16_e64", 0x29, 1, 0 },
	{ "v_mul_lo_u16_sdwa", 0x29, 2, 1 },
	{ "v_mul_lo_u16_dpp", 0x29, 3, 0 },
	{ "v_lshlrev_b16_e32", 0x2a, 0, 0 },
	{ "v_lshlrev_b16_e64", 0x2a, 1, 0 },
	{ "v_lshlrev_b16_sdwa", 0x2a, 2, 1 },
	{ "v_lshlrev_b16_dpp", 0x2a, 3, 0 },
	{ "v_lshrrev_b16_e32", 0x2b, 0, 0 },
	{ "v_lshrrev_b16_e64", 0x2b, 1, 0 },
	{ "v_lshrrev_b16_sdwa", 0x2b, 2, 1 },
	{ "v_lshrrev_b16_dpp", 0x2b, 3, 0 },
	{ "v_ashrrev_i16_e32", 0x2c, 0, 0 },
	{ "v_ashrrev_i16_e64", 0x2c, 1, 0 },
	{ "v_ashrrev_i16_sdwa", 0x2c, 2, 1 },
	{ "v_ashrrev_i16_dpp", 0x2c, 3, 0 },
	{ "v_max_f16_e32", 0x2d, 0, 0 },
	{ "v_max_f16_e64", 0x2d, 1, 1 },
	{ "v_max_f16_sdwa", 0x2d, 2, 1 },
	{ "v_max_f16_dpp", 0x2d, 3, 0 },
	{ "v_min_f16_e32", 0x2e, 0, 0 },
	{ "v_min_f16_e64", 0x2e, 1, 2 },
	{ "v_min_f16_sdwa", 0x2e, 2, 1 },
	{ "v_min_f16_dpp", 0x2e, 3, 0 },
	{ "v_max_u16_e32", 0x2f, 0, 0 },
	{ "v_max_u16_e64", 0x2f, 1, 0 },
	{ "v_max_u16_sdwa", 0x2f, 2, 1 },
	{ "v_max_u16_dpp", 0x2f, 3, 0 },
	{ "v_max_i16_e32", 0x30, 0, 0 },
	{ "v_max_i16_e64", 0x30, 1, 0 },
	{ "v_max_i16_sdwa", 0x30, 2, 1 },
	{ "v_max_i16_dpp", 0x30, 3, 0 },
	{ "v_min_u16_e32", 0x31, 0, 0 },
	{ "v_min_u16_e64", 0x31, 1, 0 },
	{ "v_min_u16_sdwa", 0x31, 2, 1 },
	{ "v_min_u16_dpp", 0x31, 3, 0 },
	{ "v_min_i16_e32", 0x32, 0, 0 },
	{ "v_min_i16_e64", 0x32, 1, 0 },
	{ "v_min_i16_sdwa", 0x32, 2, 1 },
	{ "v_min_i16_dpp", 0x32, 3, 0 },
	{ "v_ldexp_f16_e32", 0x33, 0, 0 },
	{ "v_ldexp_f16_e64", 0x33, 1, 0 },
	{ "v_ldexp_f16_sdwa", 0x33, 2, 1 },
	{ "v_ldexp_f16_dpp", 0x33, 3, 0 },
	{ "v_add_u32_e32", 0x34, 0, 0 },
	{ "v_add_u32_e64", 0x34, 1, 0 },
	{ "v_add_u32_sdwa", 0x34, 2, 2 },
	{ "v_add_u32_dpp", 0x34, 3, 0 },
	{ "v_sub_u32_e32", 0x35, 0, 0 },
	{ "v_sub_u32_e64", 0x35, 1, 0 },
	{ "v_sub_u32_sdwa", 0x35, 2, 2 },
	{ "v_sub_u32_dpp", 0x35, 3, 0 },
	{ "v_subrev_u32_e32", 0x36, 0, 0 },
	{ "v_subrev_u32_e64", 0x36, 1, 0 },
	{ "v_subrev_u32_sdwa", 0x36, 2, 2 },
	{ "v_subrev_u32_dpp", 0x36, 3, 0 },
	{ "v_dot2c_i32_i16_e32", 0x38, 0, 0 },
	{ "v_dot2c_i32_i16_e64", 0x38, 1, 0 },
	{ "v_dot2c_i32_i16_dpp", 0x38, 3, 0 },
	{ "v_dot4c_i32_i8_e32", 0x39, 0, 0 },
	{ "v_dot4c_i32_i8_e64", 0x39, 1, 0 },
	{ "v_dot4c_i32_i8_dpp", 0x39, 3, 0 },
	{ "v_dot8c_i32_i4_e32", 0x3a, 0, 0 },
	{ "v_dot8c_i32_i4_e64", 0x3a, 1, 0 },
	{ "v_dot8c_i32_i4_dpp", 0x3a, 3, 0 },
	{ "v_fmac_f32_e32", 0x3b, 0, 0 },
	{ "v_fmac_f32_e64", 0x3b, 1, 1 },
	{ "v_fmac_f32_dpp", 0x3b, 3, 0 },
	{ "v_xnor_b32_e32", 0x3d, 0, 0 },
	{ "v_xnor_b32_e64", 0x3d, 1, 0 },
	{ "v_xnor_b32_sdwa", 0x3d, 2, 2 },
	{ "v_xnor_b32_dpp", 0x3d, 3, 0 },
};

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
static float h2f(uint16_t h) { _Float16 x; memcpy(&x, &h, 2); return (float)x; }
static uint16_t f2h(float f) { _Float16 x = (_Float16)f; uint16_t h; memcpy(&h, &x, 2); return h; }

static char type_of(unsigned op)
{
	if (op <= 0x05 || op == 0x0a || op == 0x0b || op == 0x16 || op == 0x3b) return 'f';
	if (op >= 0x19 && op <= 0x1e) return 'c';
	if ((op >= 0x1f && op <= 0x23) || op == 0x2d || op == 0x2e || op == 0x33) return 'g';
	if (op >= 0x26 && op <= 0x32) return 'h';
	return 'i';
}

static bool snan32(uint32_t u) { return (u & 0x7f800000u) == 0x7f800000u && (u & 0x7fffff) && !(u & 0x400000); }
static bool nan32(uint32_t u) { return (u & 0x7fffffffu) > 0x7f800000u; }
static bool nan16(uint16_t u) { return (u & 0x7fff) > 0x7c00; }
static bool snan16(uint16_t u) { return nan16(u) && !(u & 0x200); }

/* IEEE-mode min/max (max when mx) on bits: sNaN -> itself quieted, qNaN ->
 * the other; -0 < +0 */
static uint32_t minmax32(uint32_t a, uint32_t b, bool mx)
{
	if (snan32(a)) return a | 0x400000;
	if (snan32(b)) return b | 0x400000;
	if (nan32(a)) return b;
	if (nan32(b)) return a;
	float x = fb(a), y = fb(b);
	if (x == y) {
		bool na = a >> 31;
		return mx ? (na ? b : a) : (na ? a : b);
	}
	return (mx ? x > y : x < y) ? a : b;
}

static uint16_t minmax16(uint16_t a, uint16_t b, bool mx)
{
	if (snan16(a)) return a | 0x200;
	if (snan16(b)) return b | 0x200;
	if (nan16(a)) return b;
	if (nan16(b)) return a;
	float x = h2f(a), y = h2f(b);
	if (x == y) {
		bool na = a >> 15;
		return mx ? (na ? b : a) : (na ? a : b);
	}
	return (mx ? x > y : x < y) ? a : b;
}

static uint32_t flush(uint32_t u) { return (u & 0x7f800000u) ? u : u & 0x80000000u; }

/* D and carry-out from S0, S1, D's old value and the carry-in */
static void model(unsigned op, uint32_t a, uint32_t b, uint32_t d, bool cin, uint32_t *r, bool *cout)
{
	uint64_t s;
	*cout = false;
	switch (op) {
	case 0x01: *r = ub(fb(a) + fb(b)); break;
	case 0x02: *r = ub(fb(a) - fb(b)); break;
	case 0x03: *r = ub(fb(b) - fb(a)); break;
	case 0x05: *r = ub(fb(a) * fb(b)); break;
	case 0x06: *r = (uint32_t)((int64_t)((int32_t)(a << 8) >> 8) * ((int32_t)(b << 8) >> 8)); break;
	case 0x07: *r = (uint32_t)(((int64_t)((int32_t)(a << 8) >> 8) * ((int32_t)(b << 8) >> 8)) >> 32); break;
	case 0x08: *r = (uint32_t)((uint64_t)(a & 0xffffff) * (b & 0xffffff)); break;
	case 0x09: *r = (uint32_t)(((uint64_t)(a & 0xffffff) * (b & 0xffffff)) >> 32); break;
	case 0x0a: *r = minmax32(a, b, false); break;
	case 0x0b: *r = minmax32(a, b, true); break;
	case 0x0c: *r = (int32_t)a < (int32_t)b ? a : b; break;
	case 0x0d: *r = (int32_t)a > (int32_t)b ? a : b; break;
	case 0x0e: *r = a < b ? a : b; break;
	case 0x0f: *r = a > b ? a : b; break;
	case 0x10: *r = b >> (a & 31); break;
	case 0x11: *r = (uint32_t)((int32_t)b >> (a & 31)); break;
	case 0x12: *r = b << (a & 31); break;
	case 0x13: *r = a & b; break;
	case 0x14: *r = a | b; break;
	case 0x15: *r = a ^ b; break;
	case 0x16: *r = flush(ub(fb(flush(a)) * fb(flush(b)) + fb(flush(d)))); break;
	case 0x19: s = (uint64_t)a + b; *r = (uint32_t)s; *cout = s >> 32; break;
	case 0x1a: *r = a - b; *cout = b > a; break;
	case 0x1b: *r = b - a; *cout = a > b; break;
	case 0x1c: s = (uint64_t)a + b + cin; *r = (uint32_t)s; *cout = s >> 32; break;
	case 0x1d: *r = a - b - cin; *cout = (uint64_t)b + cin > a; break;
	case 0x1e: *r = b - a - cin; *cout = (uint64_t)a + cin > b; break;
	case 0x1f: *r = f2h(h2f((uint16_t)a) + h2f((uint16_t)b)); break;
	case 0x20: *r = f2h(h2f((uint16_t)a) - h2f((uint16_t)b)); break;
	case 0x21: *r = f2h(h2f((uint16_t)b) - h2f((uint16_t)a)); break;
	case 0x22: *r = f2h(h2f((uint16_t)a) * h2f((uint16_t)b)); break;
	case 0x23: *r = f2h(h2f((uint16_t)a) * h2f((uint16_t)b) + h2f((uint16_t)d)); break;
	case 0x26: *r = (a + b) & 0xffff; break;
	case 0x27: *r = (a - b) & 0xffff; break;
	case 0x28: *r = (b - a) & 0xffff; break;
	case 0x29: *r = (a * b) & 0xffff; break;
	case 0x2a: *r = ((b & 0xffff) << (a & 15)) & 0xffff; break;
	case 0x2b: *r = (b & 0xffff) >> (a & 15); break;
	case 0x2c: *r = (uint32_t)((int16_t)b >> (a & 15)) & 0xffff; break;
	case 0x2d: *r = minmax16((uint16_t)a, (uint16_t)b, true); break;
	case 0x2e: *r = minmax16((uint16_t)a, (uint16_t)b, false); break;
	case 0x2f: *r = (a & 0xffff) > (b & 0xffff) ? a & 0xffff : b & 0xffff; break;
	case 0x30: *r = (uint16_t)((int16_t)a > (int16_t)b ? a : b); break;
	case 0x31: *r = (a & 0xffff) < (b & 0xffff) ? a & 0xffff : b & 0xffff; break;
	case 0x32: *r = (uint16_t)((int16_t)a < (int16_t)b ? a : b); break;
	case 0x33: *r = f2h(ldexpf(h2f((uint16_t)a), (int16_t)b)); break;
	case 0x34: *r = a + b; break;
	case 0x35: *r = a - b; break;
	case 0x36: *r = b - a; break;
	case 0x38: case 0x39: case 0x3a: {
		unsigned bits = op == 0x38 ? 16 : op == 0x39 ? 8 : 4;
		int64_t sum = (int32_t)d;
		for (unsigned k = 0; k < 32 / bits; k++)
			sum += (int64_t)((int32_t)(a << (32 - bits * (k + 1))) >> (32 - bits)) *
			       ((int32_t)(b << (32 - bits * (k + 1))) >> (32 - bits));
		*r = (uint32_t)sum;
		break;
	}
	case 0x3b: *r = ub(fmaf(fb(a), fb(b), fb(d))); break;
	case 0x3d: *r = ~(a ^ b); break;
	default: *r = 0xbad; break;
	}
}

static uint32_t gen(char t)
{
	static const uint32_t ef[] = { 0, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0x7fa00000u,
		0x3f800000u, 0xbf800000u, 0x00000003u, 0x80000005u };
	static const uint16_t eh[] = { 0, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x7d00, 0x3c00, 0xbc00 };
	switch (t) {
	case 'f':
		return rnd() % 4 == 0 ? ef[rnd() % 10] : ub((float)((int)(rnd() % 201) - 100) * 0.125f);
	case 'g':
		return (rnd() & 0xffff0000u) |
		       (rnd() % 5 == 0 ? eh[rnd() % 8] : f2h((float)((int)(rnd() % 65) - 32) * 0.25f));
	default:
		return rnd() % 5 == 0 ? (uint32_t[]){ 0, 0xffffffffu, 0x80000000u, 0x7fffffffu, 1 }[rnd() % 5] : rnd();
	}
}

static struct hx_code code;
static int loaded;

static unsigned check(const struct v2form *f)
{
	char path[600];
	char t = type_of(f->op);
	uint32_t *in, *out;
	uint64_t args[2];
	unsigned bad = 0;

	if (!loaded) {
		if (!hx_kernel_path("vop2", KEMU_ISA_GFX90A, path, sizeof(path))) {
			ck_assert_msg(!hx_target_expected(KEMU_ISA_GFX90A), "vop2-gfx90a.co not built");
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
		rng_state = 0x13198a2eu ^ (seed * 0x9e3779b9u) ^ (uint32_t)(f - v2forms) * 0x85ebca6bu;
		for (unsigned l = 0; l < 64; l++) {
			in[4 * l] = gen(t);
			in[4 * l + 1] = gen(t);
			in[4 * l + 2] = t == 'g' || f->op == 0x16 || f->op == 0x3b ? gen(t) : rnd();
			in[4 * l + 3] = rnd();
			if (f->op == 0x33) /* ldexp_f16: moderate exponents */
				in[4 * l + 1] = (rnd() & 0xffff0000u) | (uint16_t)((int)(rnd() % 21) - 10);
		}
		hl.kd = hx_kd(&code, f->name);
		ck_assert_msg(hl.kd != 0, "no %s.kd", f->name);
		rc = hx_run(&hl, &err);
		ck_assert_msg(rc == 0, "%s: %s: %s", f->name, kemu_isa_error_name(err.kind), err.message);
		for (unsigned l = 0; l < 64; l++) {
			unsigned sl = f->enc == 3 ? l ^ 1 : l;
			uint32_t a = in[4 * sl], b = in[4 * l + 1], d = in[4 * l + 2], r;
			bool cin = in[4 * l + 3] & 1, cout, ok;
			if (f->enc == 2 && f->mod == 1) {
				a >>= 16;
				b &= 0xffff;
			} else if (f->enc == 2 && f->mod == 2) {
				a = (a >> 8) & 0xff;
				b >>= 16;
			}
			if (f->enc == 1 && f->mod == 1)
				a ^= t == 'g' ? 0x8000 : 0x80000000u;
			if (f->enc == 1 && f->mod == 2)
				b &= t == 'g' ? 0x7fff : 0x7fffffffu;
			model(f->op, a, b, d, cin, &r, &cout);
			ok = out[2 * l] == r;
			if (!ok && t == 'f')
				ok = nan32(out[2 * l]) && nan32(r);
			if (!ok && t == 'g')
				ok = !(out[2 * l] >> 16) && nan16((uint16_t)out[2 * l]) && nan16((uint16_t)r);
			if (t == 'c' && out[2 * l + 1] != (uint32_t)cout)
				ok = false;
			if (!ok && bad++ < 4)
				fprintf(stderr, "%s lane %u: a %08x b %08x d %08x cin %d: got %08x/%u, model %08x/%d\n",
					f->name, l, a, b, d, cin, out[2 * l], out[2 * l + 1], r, cout);
		}
	}
	hx_free(in);
	hx_free(out);
	return bad;
}

HX_FORMS_TEST(test_vop2_e32_match_model, v2forms, check, 0)
HX_FORMS_TEST(test_vop2_e64_match_model, v2forms, check, 1)
HX_FORMS_TEST(test_vop2_sdwa_match_model, v2forms, check, 2)
HX_FORMS_TEST(test_vop2_dpp_match_model, v2forms, check, 3)

START_TEST(test_model_hand_values)
{
	uint32_t r;
	bool c;
	model(0x0a, 0x80000000u, 0, 0, false, &r, &c);
	ck_assert_uint_eq(r, 0x80000000u);                     /* min(-0, +0) = -0 */
	model(0x0b, 0x7fa00000u, 0x3f800000u, 0, false, &r, &c);
	ck_assert_uint_eq(r, 0x7fe00000u);                     /* max(sNaN, 1) = qNaN */
	model(0x0b, 0x7fc00000u, 0x3f800000u, 0, false, &r, &c);
	ck_assert_uint_eq(r, 0x3f800000u);                     /* max(qNaN, 1) = 1 */
	model(0x1d, 5, 5, 0, true, &r, &c);
	ck_assert(r == 0xffffffffu && c);                      /* 5 - 5 - 1 borrows */
	model(0x07, 0x800000, 0x800000, 0, false, &r, &c);     /* (-2^23)^2 >> 32 */
	ck_assert_uint_eq(r, 0x4000);
	model(0x39, 0xff01ff01u, 0x01010101u, 10, false, &r, &c);
	ck_assert_uint_eq(r, 10);                              /* -1+1-1+1 */
}
END_TEST

static Suite *vop2_suite(void)
{
	Suite *s = suite_create("isa_vop2");
	TCase *tc = tcase_create("vop2");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_model_hand_values);
	tcase_add_test(tc, test_vop2_e32_match_model);
	tcase_add_test(tc, test_vop2_e64_match_model);
	tcase_add_test(tc, test_vop2_sdwa_match_model);
	tcase_add_test(tc, test_vop2_dpp_match_model);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(vop2_suite)
