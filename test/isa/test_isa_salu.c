/*
 * test_isa_salu.c — the scalar ALU (SOP2, SOP1 incl. saveexec/wrexec and
 * s_movrels, SOPC, SOPK) against a host model.  kernels/salu.s holds one
 * kernel per row of the table below (generated together); each runs 64
 * one-wave workgroups, workgroup g on its own generated A, B, SCC, D and
 * EXEC, and every result (D, SCC, EXEC) is compared with the model.
 *
 * The model is the ISA's definitions: 32-bit add/sub set SCC to the
 * unsigned carry/borrow (_u32) or the signed overflow (_i32); min/max set
 * SCC when S0 is taken; bitwise ops, shifts, bfe, absdiff, abs, not,
 * wqm, bcnt and quadmask set SCC = (D != 0); the lshlN_add carry is that
 * of the 32-bit add (S0's top bits are zero in the data, where the
 * guides' pseudo code reads two ways); bfm, mul, pack, brev, ff*, flbit,
 * sext, bitset, bitreplicate and movk/cmovk/mulk leave SCC alone; cselect
 * and cmov read it; ff0/ff1/flbit give -1 when no bit is found;
 * saveexec: D = the old EXEC, EXEC = op(S0, EXEC), SCC = (EXEC != 0);
 * wrexec: D = the new EXEC; s_movrels reads SGPR[S0 + M0]; SOPK's signed
 * forms sign-extend the immediate, the unsigned compares zero-extend it.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hl_check.h"
#include "isa_harness.h"

struct sform {
	const char *name;
	uint32_t k;             /* SOPK immediate */
};

static const struct sform sforms[] = {
	{ "s_add_u32", 0x0 },
	{ "s_sub_u32", 0x0 },
	{ "s_add_i32", 0x0 },
	{ "s_sub_i32", 0x0 },
	{ "s_addc_u32", 0x0 },
	{ "s_subb_u32", 0x0 },
	{ "s_min_i32", 0x0 },
	{ "s_min_u32", 0x0 },
	{ "s_max_i32", 0x0 },
	{ "s_max_u32", 0x0 },
	{ "s_cselect_b32", 0x0 },
	{ "s_and_b32", 0x0 },
	{ "s_or_b32", 0x0 },
	{ "s_xor_b32", 0x0 },
	{ "s_andn2_b32", 0x0 },
	{ "s_orn2_b32", 0x0 },
	{ "s_nand_b32", 0x0 },
	{ "s_nor_b32", 0x0 },
	{ "s_xnor_b32", 0x0 },
	{ "s_lshl_b32", 0x0 },
	{ "s_lshr_b32", 0x0 },
	{ "s_ashr_i32", 0x0 },
	{ "s_bfm_b32", 0x0 },
	{ "s_mul_i32", 0x0 },
	{ "s_bfe_u32", 0x0 },
	{ "s_bfe_i32", 0x0 },
	{ "s_absdiff_i32", 0x0 },
	{ "s_mul_hi_u32", 0x0 },
	{ "s_mul_hi_i32", 0x0 },
	{ "s_lshl1_add_u32", 0x0 },
	{ "s_lshl2_add_u32", 0x0 },
	{ "s_lshl3_add_u32", 0x0 },
	{ "s_lshl4_add_u32", 0x0 },
	{ "s_pack_ll_b32_b16", 0x0 },
	{ "s_pack_lh_b32_b16", 0x0 },
	{ "s_pack_hh_b32_b16", 0x0 },
	{ "s_cselect_b64", 0x0 },
	{ "s_and_b64", 0x0 },
	{ "s_or_b64", 0x0 },
	{ "s_xor_b64", 0x0 },
	{ "s_andn2_b64", 0x0 },
	{ "s_orn2_b64", 0x0 },
	{ "s_nand_b64", 0x0 },
	{ "s_nor_b64", 0x0 },
	{ "s_xnor_b64", 0x0 },
	{ "s_lshl_b64", 0x0 },
	{ "s_lshr_b64", 0x0 },
	{ "s_ashr_i64", 0x0 },
	{ "s_bfe_u64", 0x0 },
	{ "s_bfe_i64", 0x0 },
	{ "s_bfm_b64", 0x0 },
	{ "s_mov_b32", 0x0 },
	{ "s_cmov_b32", 0x0 },
	{ "s_not_b32", 0x0 },
	{ "s_wqm_b32", 0x0 },
	{ "s_brev_b32", 0x0 },
	{ "s_bcnt0_i32_b32", 0x0 },
	{ "s_bcnt1_i32_b32", 0x0 },
	{ "s_ff0_i32_b32", 0x0 },
	{ "s_ff1_i32_b32", 0x0 },
	{ "s_flbit_i32_b32", 0x0 },
	{ "s_flbit_i32", 0x0 },
	{ "s_sext_i32_i8", 0x0 },
	{ "s_sext_i32_i16", 0x0 },
	{ "s_bitset0_b32", 0x0 },
	{ "s_bitset1_b32", 0x0 },
	{ "s_quadmask_b32", 0x0 },
	{ "s_abs_i32", 0x0 },
	{ "s_mov_b64", 0x0 },
	{ "s_cmov_b64", 0x0 },
	{ "s_not_b64", 0x0 },
	{ "s_wqm_b64", 0x0 },
	{ "s_brev_b64", 0x0 },
	{ "s_quadmask_b64", 0x0 },
	{ "s_bcnt0_i32_b64", 0x0 },
	{ "s_bcnt1_i32_b64", 0x0 },
	{ "s_ff0_i32_b64", 0x0 },
	{ "s_ff1_i32_b64", 0x0 },
	{ "s_flbit_i32_b64", 0x0 },
	{ "s_flbit_i32_i64", 0x0 },
	{ "s_bitset0_b64", 0x0 },
	{ "s_bitset1_b64", 0x0 },
	{ "s_bitreplicate_b64_b32", 0x0 },
	{ "s_and_saveexec_b64", 0x0 },
	{ "s_or_saveexec_b64", 0x0 },
	{ "s_xor_saveexec_b64", 0x0 },
	{ "s_andn2_saveexec_b64", 0x0 },
	{ "s_orn2_saveexec_b64", 0x0 },
	{ "s_nand_saveexec_b64", 0x0 },
	{ "s_nor_saveexec_b64", 0x0 },
	{ "s_xnor_saveexec_b64", 0x0 },
	{ "s_andn1_saveexec_b64", 0x0 },
	{ "s_orn1_saveexec_b64", 0x0 },
	{ "s_andn1_wrexec_b64", 0x0 },
	{ "s_andn2_wrexec_b64", 0x0 },
	{ "s_movrels_b32", 0x0 },
	{ "s_movrels_b64", 0x0 },
	{ "s_cmp_eq_i32", 0x0 },
	{ "s_cmp_lg_i32", 0x0 },
	{ "s_cmp_gt_i32", 0x0 },
	{ "s_cmp_ge_i32", 0x0 },
	{ "s_cmp_lt_i32", 0x0 },
	{ "s_cmp_le_i32", 0x0 },
	{ "s_cmp_eq_u32", 0x0 },
	{ "s_cmp_lg_u32", 0x0 },
	{ "s_cmp_gt_u32", 0x0 },
	{ "s_cmp_ge_u32", 0x0 },
	{ "s_cmp_lt_u32", 0x0 },
	{ "s_cmp_le_u32", 0x0 },
	{ "s_bitcmp0_b32", 0x0 },
	{ "s_bitcmp1_b32", 0x0 },
	{ "s_cmp_eq_u64", 0x0 },
	{ "s_cmp_lg_u64", 0x0 },
	{ "s_bitcmp0_b64", 0x0 },
	{ "s_bitcmp1_b64", 0x0 },
	{ "s_movk_i32", 0x8123 },
	{ "s_cmovk_i32", 0x7ff0 },
	{ "s_cmpk_eq_i32", 0xfffe },
	{ "s_cmpk_lg_i32", 0x3 },
	{ "s_cmpk_gt_i32", 0x8000 },
	{ "s_cmpk_ge_i32", 0x2 },
	{ "s_cmpk_lt_i32", 0xffff },
	{ "s_cmpk_le_i32", 0x1 },
	{ "s_cmpk_eq_u32", 0x2 },
	{ "s_cmpk_lg_u32", 0xffff },
	{ "s_cmpk_gt_u32", 0x8000 },
	{ "s_cmpk_ge_u32", 0x3 },
	{ "s_cmpk_lt_u32", 0x1 },
	{ "s_cmpk_le_u32", 0xfffe },
	{ "s_addk_i32", 0x8005 },
	{ "s_mulk_i32", 0xfff3 },
};

struct st {
	uint64_t a, b, d, exec;
	uint32_t s21;
	bool scc;
};

static bool is(const char *n, const char *m) { return strcmp(n, m) == 0; }
static bool pre(const char *n, const char *p) { return strncmp(n, p, strlen(p)) == 0; }

static uint32_t brev32(uint32_t v)
{
	uint32_t r = 0;
	for (unsigned i = 0; i < 32; i++)
		r |= ((v >> i) & 1) << (31 - i);
	return r;
}

static int ffx(uint64_t v, unsigned bits, int want)
{
	for (unsigned i = 0; i < bits; i++)
		if ((int)((v >> i) & 1) == want)
			return (int)i;
	return -1;
}

static int flbit(uint64_t v, unsigned bits, bool sgn)
{
	bool s = (v >> (bits - 1)) & 1;
	for (int i = (int)bits - 1; i >= 0; i--) {
		bool b = (v >> i) & 1;
		if (sgn ? b != s : b)
			return (int)bits - 1 - i;
	}
	return -1;
}

static uint64_t wqm(uint64_t v, unsigned bits)
{
	uint64_t r = 0;
	for (unsigned i = 0; i < bits; i += 4)
		if ((v >> i) & 15)
			r |= 15ull << i;
	return r;
}

static uint64_t quadmask(uint64_t v, unsigned bits)
{
	uint64_t r = 0;
	for (unsigned i = 0; i < bits / 4; i++)
		if ((v >> (4 * i)) & 15)
			r |= 1ull << i;
	return r;
}

/* out: D (64), SCC, EXEC */
static void model(const struct sform *f, const struct st *s, uint64_t *d, bool *scc, uint64_t *exec)
{
	const char *n = f->name;
	uint32_t a = (uint32_t)s->a, b = (uint32_t)s->b, r = 0;
	uint64_t r64 = 0;
	bool wide = false, setz = false;
	int32_t ki = (int16_t)f->k;
	uint32_t ku = f->k & 0xffff;

	*d = s->d;
	*scc = s->scc;
	*exec = s->exec;
	if (is(n, "s_add_u32")) { r = a + b; *scc = (uint64_t)a + b > 0xffffffffu; }
	else if (is(n, "s_sub_u32")) { r = a - b; *scc = b > a; }
	else if (is(n, "s_add_i32")) { r = a + b; *scc = ((~(a ^ b)) & (a ^ r)) >> 31; }
	else if (is(n, "s_sub_i32")) { r = a - b; *scc = ((a ^ b) & (a ^ r)) >> 31; }
	else if (is(n, "s_addc_u32")) { r = a + b + s->scc; *scc = (uint64_t)a + b + s->scc > 0xffffffffu; }
	else if (is(n, "s_subb_u32")) { r = a - b - s->scc; *scc = (uint64_t)b + s->scc > a; }
	else if (is(n, "s_min_i32")) { *scc = (int32_t)a < (int32_t)b; r = *scc ? a : b; }
	else if (is(n, "s_min_u32")) { *scc = a < b; r = *scc ? a : b; }
	else if (is(n, "s_max_i32")) { *scc = (int32_t)a > (int32_t)b; r = *scc ? a : b; }
	else if (is(n, "s_max_u32")) { *scc = a > b; r = *scc ? a : b; }
	else if (is(n, "s_cselect_b32")) r = s->scc ? a : b;
	else if (is(n, "s_cselect_b64")) { wide = true; r64 = s->scc ? s->a : s->b; }
	else if (is(n, "s_and_b32")) { r = a & b; setz = true; }
	else if (is(n, "s_or_b32")) { r = a | b; setz = true; }
	else if (is(n, "s_xor_b32")) { r = a ^ b; setz = true; }
	else if (is(n, "s_andn2_b32")) { r = a & ~b; setz = true; }
	else if (is(n, "s_orn2_b32")) { r = a | ~b; setz = true; }
	else if (is(n, "s_nand_b32")) { r = ~(a & b); setz = true; }
	else if (is(n, "s_nor_b32")) { r = ~(a | b); setz = true; }
	else if (is(n, "s_xnor_b32")) { r = ~(a ^ b); setz = true; }
	else if (is(n, "s_and_b64")) { wide = setz = true; r64 = s->a & s->b; }
	else if (is(n, "s_or_b64")) { wide = setz = true; r64 = s->a | s->b; }
	else if (is(n, "s_xor_b64")) { wide = setz = true; r64 = s->a ^ s->b; }
	else if (is(n, "s_andn2_b64")) { wide = setz = true; r64 = s->a & ~s->b; }
	else if (is(n, "s_orn2_b64")) { wide = setz = true; r64 = s->a | ~s->b; }
	else if (is(n, "s_nand_b64")) { wide = setz = true; r64 = ~(s->a & s->b); }
	else if (is(n, "s_nor_b64")) { wide = setz = true; r64 = ~(s->a | s->b); }
	else if (is(n, "s_xnor_b64")) { wide = setz = true; r64 = ~(s->a ^ s->b); }
	else if (is(n, "s_lshl_b32")) { r = a << (b & 31); setz = true; }
	else if (is(n, "s_lshr_b32")) { r = a >> (b & 31); setz = true; }
	else if (is(n, "s_ashr_i32")) { r = (uint32_t)((int32_t)a >> (b & 31)); setz = true; }
	else if (is(n, "s_lshl_b64")) { wide = setz = true; r64 = s->a << (b & 63); }
	else if (is(n, "s_lshr_b64")) { wide = setz = true; r64 = s->a >> (b & 63); }
	else if (is(n, "s_ashr_i64")) { wide = setz = true; r64 = (uint64_t)((int64_t)s->a >> (b & 63)); }
	else if (is(n, "s_bfm_b32")) r = ((1u << (a & 31)) - 1) << (b & 31);
	else if (is(n, "s_bfm_b64")) { wide = true; r64 = ((1ull << (a & 63)) - 1) << (b & 63); }
	else if (is(n, "s_mul_i32")) r = a * b;
	else if (is(n, "s_mul_hi_u32")) r = (uint32_t)(((uint64_t)a * b) >> 32);
	else if (is(n, "s_mul_hi_i32")) r = (uint32_t)(((int64_t)(int32_t)a * (int32_t)b) >> 32);
	else if (pre(n, "s_bfe_")) {
		unsigned off = b & 63, w = (b >> 16) & 0x7f;
		bool sg = n[6] == 'i', w64 = strstr(n, "64") != NULL;
		uint64_t v = w64 ? s->a : a, m = w >= 64 ? ~0ull : (1ull << w) - 1;
		uint64_t x = (v >> (w64 ? off : off & 31)) & m;
		if (sg && w && w < 64 && (x >> (w - 1)) & 1)
			x |= ~m;
		setz = true;
		if (w64) { wide = true; r64 = x; } else r = (uint32_t)x;
	}
	else if (is(n, "s_absdiff_i32")) { int64_t t = (int64_t)(int32_t)a - (int32_t)b; r = (uint32_t)(t < 0 ? -t : t); setz = true; }
	else if (pre(n, "s_lshl") && strstr(n, "_add_u32")) {
		unsigned sh = (unsigned)(n[6] - '0');
		uint64_t t = (uint64_t)(a << sh) + b;
		r = (uint32_t)t; *scc = t >> 32;
	}
	else if (is(n, "s_pack_ll_b32_b16")) r = (a & 0xffff) | b << 16;
	else if (is(n, "s_pack_lh_b32_b16")) r = (a & 0xffff) | (b & 0xffff0000u);
	else if (is(n, "s_pack_hh_b32_b16")) r = a >> 16 | (b & 0xffff0000u);
	else if (is(n, "s_mov_b32")) r = a;
	else if (is(n, "s_cmov_b32")) r = s->scc ? a : (uint32_t)s->d;
	else if (is(n, "s_not_b32")) { r = ~a; setz = true; }
	else if (is(n, "s_wqm_b32")) { r = (uint32_t)wqm(a, 32); setz = true; }
	else if (is(n, "s_brev_b32")) r = brev32(a);
	else if (is(n, "s_bcnt0_i32_b32")) { r = 32 - (uint32_t)__builtin_popcount(a); setz = true; }
	else if (is(n, "s_bcnt1_i32_b32")) { r = (uint32_t)__builtin_popcount(a); setz = true; }
	else if (is(n, "s_ff0_i32_b32")) r = (uint32_t)ffx(a, 32, 0);
	else if (is(n, "s_ff1_i32_b32")) r = (uint32_t)ffx(a, 32, 1);
	else if (is(n, "s_flbit_i32_b32")) r = (uint32_t)flbit(a, 32, false);
	else if (is(n, "s_flbit_i32")) r = (uint32_t)flbit(a, 32, true);
	else if (is(n, "s_sext_i32_i8")) r = (uint32_t)(int8_t)a;
	else if (is(n, "s_sext_i32_i16")) r = (uint32_t)(int16_t)a;
	else if (is(n, "s_bitset0_b32")) r = (uint32_t)s->d & ~(1u << (a & 31));
	else if (is(n, "s_bitset1_b32")) r = (uint32_t)s->d | (1u << (a & 31));
	else if (is(n, "s_quadmask_b32")) { r = (uint32_t)quadmask(a, 32); setz = true; }
	else if (is(n, "s_abs_i32")) { r = (int32_t)a < 0 ? -a : a; setz = true; }
	else if (is(n, "s_mov_b64")) { wide = true; r64 = s->a; }
	else if (is(n, "s_cmov_b64")) { wide = true; r64 = s->scc ? s->a : s->d; }
	else if (is(n, "s_not_b64")) { wide = setz = true; r64 = ~s->a; }
	else if (is(n, "s_wqm_b64")) { wide = setz = true; r64 = wqm(s->a, 64); }
	else if (is(n, "s_brev_b64")) { wide = true; r64 = (uint64_t)brev32(a) << 32 | brev32((uint32_t)(s->a >> 32)); }
	else if (is(n, "s_quadmask_b64")) { wide = setz = true; r64 = quadmask(s->a, 64); }
	else if (is(n, "s_bcnt0_i32_b64")) { r = 64 - (uint32_t)__builtin_popcountll(s->a); setz = true; }
	else if (is(n, "s_bcnt1_i32_b64")) { r = (uint32_t)__builtin_popcountll(s->a); setz = true; }
	else if (is(n, "s_ff0_i32_b64")) r = (uint32_t)ffx(s->a, 64, 0);
	else if (is(n, "s_ff1_i32_b64")) r = (uint32_t)ffx(s->a, 64, 1);
	else if (is(n, "s_flbit_i32_b64")) r = (uint32_t)flbit(s->a, 64, false);
	else if (is(n, "s_flbit_i32_i64")) r = (uint32_t)flbit(s->a, 64, true);
	else if (is(n, "s_bitset0_b64")) { wide = true; r64 = s->d & ~(1ull << (a & 63)); }
	else if (is(n, "s_bitset1_b64")) { wide = true; r64 = s->d | (1ull << (a & 63)); }
	else if (is(n, "s_bitreplicate_b64_b32")) {
		wide = true;
		for (unsigned i = 0; i < 32; i++)
			if ((a >> i) & 1)
				r64 |= 3ull << (2 * i);
	}
	else if (strstr(n, "exec_b64")) {
		uint64_t e = s->exec, x = s->a, ne;
		if (pre(n, "s_and_s")) ne = x & e;
		else if (pre(n, "s_or_s")) ne = x | e;
		else if (pre(n, "s_xor_s")) ne = x ^ e;
		else if (pre(n, "s_andn2_s")) ne = x & ~e;
		else if (pre(n, "s_orn2_s")) ne = x | ~e;
		else if (pre(n, "s_nand_s")) ne = ~(x & e);
		else if (pre(n, "s_nor_s")) ne = ~(x | e);
		else if (pre(n, "s_xnor_s")) ne = ~(x ^ e);
		else if (pre(n, "s_andn1_s")) ne = ~x & e;
		else if (pre(n, "s_orn1_s")) ne = ~x | e;
		else if (pre(n, "s_andn1_w")) ne = ~x & e;
		else ne = x & ~e;                       /* s_andn2_wrexec */
		wide = true;
		r64 = strstr(n, "wrexec") ? ne : e;
		*exec = ne;
		*scc = ne != 0;
	}
	else if (is(n, "s_movrels_b32")) {
		uint32_t sg[4] = { a, (uint32_t)(s->a >> 32), b, (uint32_t)(s->b >> 32) };
		r = sg[s->s21 & 3];
	}
	else if (is(n, "s_movrels_b64")) { wide = true; r64 = (s->s21 & 2) ? s->b : s->a; }
	else if (pre(n, "s_cmp_") || pre(n, "s_bitcmp")) {
		bool u = strstr(n, "_u32") || strstr(n, "_u64");
		int64_t x = u ? (int64_t)a : (int32_t)a, y = u ? (int64_t)b : (int32_t)b;
		if (strstr(n, "64") && !pre(n, "s_bitcmp")) { x = (int64_t)s->a; y = (int64_t)s->b; }
		if (pre(n, "s_bitcmp")) {
			bool w64 = strstr(n, "_b64") != NULL;
			uint64_t v = w64 ? s->a : a;
			bool bit = (v >> (b & (w64 ? 63 : 31))) & 1;
			*scc = n[8] == '1' ? bit : !bit;
		} else if (strstr(n, "_eq_")) *scc = x == y;
		else if (strstr(n, "_lg_")) *scc = x != y;
		else if (strstr(n, "_gt_")) *scc = x > y;
		else if (strstr(n, "_ge_")) *scc = x >= y;
		else if (strstr(n, "_lt_")) *scc = x < y;
		else *scc = x <= y;
		return;
	}
	else if (pre(n, "s_cmpk_")) {
		bool u = strstr(n, "_u32") != NULL;
		int64_t x = u ? (int64_t)a : (int32_t)a, y = u ? (int64_t)ku : ki;
		if (strstr(n, "_eq_")) *scc = x == y;
		else if (strstr(n, "_lg_")) *scc = x != y;
		else if (strstr(n, "_gt_")) *scc = x > y;
		else if (strstr(n, "_ge_")) *scc = x >= y;
		else if (strstr(n, "_lt_")) *scc = x < y;
		else *scc = x <= y;
		return;
	}
	else if (is(n, "s_movk_i32")) r = (uint32_t)ki;
	else if (is(n, "s_cmovk_i32")) r = s->scc ? (uint32_t)ki : (uint32_t)s->d;
	else if (is(n, "s_addk_i32")) {
		uint32_t dd = (uint32_t)s->d, k = (uint32_t)ki;
		r = dd + k;
		*scc = ((~(dd ^ k)) & (dd ^ r)) >> 31;
	}
	else if (is(n, "s_mulk_i32")) r = (uint32_t)s->d * (uint32_t)ki;
	else
		r = 0xbad;
	if (wide) {
		*d = r64;
		if (setz) *scc = r64 != 0;
	} else {
		*d = (s->d & 0xffffffff00000000ull) | r;
		if (setz) *scc = r != 0;
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

static uint32_t edge(void)
{
	static const uint32_t e[] = { 0, 1, 0xffffffffu, 0x80000000u, 0x7fffffffu, 0xfffe, 3, 2, 0x8000 };
	return rnd() % 3 ? rnd() >> (rnd() % 32) : e[rnd() % 9];
}

static struct hx_code code;
static int loaded;

START_TEST(test_salu_match_model)
{
	char path[600];
	uint32_t *in, *out;
	uint64_t args[2];
	unsigned bad = 0;

	if (!hx_kernel_path("salu", KEMU_ISA_GFX90A, path, sizeof(path))) {
		ck_assert_msg(!hx_target_expected(KEMU_ISA_GFX90A), "salu-gfx90a.co not built");
		return;
	}
	ck_assert_int_eq(hx_load(&code, path), 0);
	loaded = 1;
	in = hx_alloc(64 * 32);
	out = hx_alloc(64 * 32);
	args[0] = (uint64_t)(uintptr_t)in;
	args[1] = (uint64_t)(uintptr_t)out;
	for (size_t i = 0; i < sizeof(sforms) / sizeof(sforms[0]); i++) {
		const struct sform *f = &sforms[i];
		char kname[64];
		struct hx_launch hl = { .gfx = KEMU_ISA_GFX90A, .args = args, .args_size = 16,
					.grid = { 64 * 64, 1, 1 }, .wg = { 64, 1, 1 } };
		struct kemu_isa_error err;
		int rc;
		rng_state = 0xa4093822u ^ (uint32_t)i * 0x85ebca6bu;
		for (unsigned g = 0; g < 64; g++) {
			uint32_t *r = in + 8 * g;
			for (unsigned k = 0; k < 8; k++)
				r[k] = edge();
			if (rnd() % 4 == 0)
				r[2] = r[0], r[3] = r[1];                       /* equal operands */
			if (strstr(f->name, "_bfe_")) {
				unsigned w64 = strstr(f->name, "64") ? 64 : 32, off = rnd() % w64;
				r[2] = off | (rnd() % (w64 - off + 1)) << 16;
			}
			if (strstr(f->name, "_add_u32") && strstr(f->name, "s_lshl"))
				r[0] &= 0x0fffffffu;
			r[6] |= 1;                                              /* EXEC nonzero */
		}
		snprintf(kname, sizeof(kname), "k_%s", f->name);
		hl.kd = hx_kd(&code, kname);
		ck_assert_msg(hl.kd != 0, "no %s.kd", kname);
		rc = hx_run(&hl, &err);
		ck_assert_msg(rc == 0, "%s: %s: %s", f->name, kemu_isa_error_name(err.kind), err.message);
		for (unsigned g = 0; g < 64; g++) {
			const uint32_t *r = in + 8 * g, *o = out + 8 * g;
			struct st s = { r[0] | (uint64_t)r[1] << 32, r[2] | (uint64_t)r[3] << 32,
					r[4] | (uint64_t)r[5] << 32, r[6] | (uint64_t)r[7] << 32, r[5], r[4] & 1 };
			uint64_t d, e;
			bool scc;
			model(f, &s, &d, &scc, &e);
			if ((o[0] != (uint32_t)d || o[1] != (uint32_t)(d >> 32) || o[2] != (uint32_t)scc ||
			     o[3] != (uint32_t)e || o[4] != (uint32_t)(e >> 32)) && bad++ < 8)
				fprintf(stderr, "%s: A %016llx B %016llx D %016llx scc %d exec %016llx: got D %08x%08x scc %u exec %08x%08x, model D %016llx scc %d exec %016llx\n",
					f->name, (unsigned long long)s.a, (unsigned long long)s.b,
					(unsigned long long)s.d, s.scc, (unsigned long long)s.exec, o[1], o[0], o[2],
					o[4], o[3], (unsigned long long)d, scc, (unsigned long long)e);
		}
	}
	hx_free(in);
	hx_free(out);
	ck_assert_msg(bad == 0, "%u results differ from the model (first ones above)", bad);
}
END_TEST

START_TEST(test_model_hand_values)
{
	const struct sform fl = { "s_flbit_i32", 0 }, ad = { "s_add_i32", 0 }, bf = { "s_bfe_i32", 0 };
	struct st s = { 0xfffffffeu, 0, 0, 1, 0, false };
	uint64_t d, e;
	bool scc;
	model(&fl, &s, &d, &scc, &e);
	ck_assert_uint_eq((uint32_t)d, 31);             /* -2: the first bit unlike the sign */
	s.a = 0x7fffffff; s.b = 1;
	model(&ad, &s, &d, &scc, &e);
	ck_assert(scc && (uint32_t)d == 0x80000000u);   /* signed overflow */
	s.a = 0xf0; s.b = 4 | 4 << 16;
	model(&bf, &s, &d, &scc, &e);
	ck_assert_uint_eq((uint32_t)d, 0xffffffffu);    /* field 0xf sign-extended */
}
END_TEST

static Suite *salu_suite(void)
{
	Suite *s = suite_create("isa_salu");
	TCase *tc = tcase_create("salu");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_model_hand_values);
	tcase_add_test(tc, test_salu_match_model);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(salu_suite)
