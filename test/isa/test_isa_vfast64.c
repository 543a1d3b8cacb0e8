/*
 * test_isa_vfast64.c — the f64 fast path (isa_exec_vfast64.c) against a
 * host model: v_add/mul/fma/fmac/rcp/rsq/sqrt_f64 with each operand kind
 * it takes (VGPR pairs, the SGPR pair s[8:9], an inline constant) and the
 * neg/abs modifiers; the compiler's whole f64 division sequence
 * (div_scale, rcp, fma, div_fmas, div_fixup); v_ldexp_f64 with
 * exponents in and out of range; gfx942's square-root refinement after
 * v_rsq_f64 (fused, like the division, into one superinstruction by
 * isa_vfast64_fuse), a variant of it the fusion must refuse, and the
 * division by an SGPR pair; the fused sequences split by every stop
 * point, their stop points, and their bits against the instructions run
 * one by one; the 64-bit shifts, and gfx942's
 * v_mov_b64 and v_lshl_add_u64 (kernels/vfast64942.s); v_div_scale_f64 and
 * v_div_fixup_f64 alone (kernels/vfast64.s).  Each under the whole EXEC
 * and under a partial one whose 4-lane groups are whole, empty and mixed.
 *
 * The inputs put the general executor's cases where the fast path must
 * hand over: wave 0 and 1 hold ordinary values only, wave 2 holds special
 * values (zeros, infinities, NaNs, denormals, huge and tiny numbers) only
 * in lanes the partial EXEC leaves out (so the whole-EXEC run goes to the
 * general executor and the partial one must not), wave 3 in active lanes
 * too.  The _flush kernels clear MODE's f64 denormal bits first.
 *
 * The model is the CDNA2 ISA guide's, computed on the host: the IEEE
 * operation, rounded to nearest even; a NaN input comes back quieted (two
 * NaN inputs: which one is the host's operand order, not modelled), a NaN
 * the operation makes is 0x7ff8000000000000; input modifiers on the sign
 * bit; with the denormal bits clear, denormal inputs and results are
 * signed zeros.  The division sequence gives the correctly rounded
 * quotient S2 / S1 (a NaN numerator, then a NaN denominator, quieted; 0/0
 * and inf/inf the default NaN).  v_div_scale_f64 alone, where S1 is
 * normal with |S1| < 2^1022 and S2's exponent is in (53, 2047) within
 * (-1000, 768) of S1's, returns S0 and clears VCC; v_div_fixup_f64 alone,
 * with S1 and S2 normal and the quotient not below 2^-1075, returns |S0|
 * with the sign of S1 ^ S2; other lanes of those two are checked only
 * through the whole sequence.  The shifts take the low 6 bits of their
 * amount, v_lshl_add_u64 the low 3: (S0 << S1) + S2, wrapping.
 */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "hl_check.h"
#include "isa_harness.h"
#include "isa_stops.h"

#define NLANES 256
#define SIGN 0x8000000000000000ull
#define QNAN 0x7ff8000000000000ull

enum op {
	OP_ADD, OP_MUL, OP_FMA, OP_RCP, OP_RSQ, OP_SQRT, OP_DIV, OP_LDEXP, OP_SCALE, OP_FIXUP,
	/* gfx942's square-root refinement (SQRTSEQ), and with its fifth
	 * step's result set aside (SQRTX) */
	OP_SQRTSEQ, OP_SQRTX,
	/* v_cvt_f64_u32/i32 (of a scalar or a constant: one conversion) */
	OP_CVTU, OP_CVTI,
	/* 64-bit integer: no NaN rule, no flushing */
	OP_SHL, OP_SHR, OP_ASHR, OP_MOV, OP_LSHL_ADD,
};

/* A source: the lane's a, b, c or d, s[8:9] (b of the wave's first lane),
 * a constant, c's low byte sign-extended or its low dword (ldexp's
 * integer, a shift amount), s8 (the low dword of s[8:9]); mod: 1 neg, 2 abs (abs first, as the hardware). */
enum src { SRC_A, SRC_B, SRC_C, SRC_D, SRC_S, SRC_K, SRC_C8, SRC_C32, SRC_S32 };

static const struct form {
	const char *name;
	enum op op;
	bool flush;
	bool gfx942;                    /* in vfast64942.s */
	struct { enum src src; uint8_t mod; uint64_t k; } s[3];
} forms[] = {
	{ "add_f64_vv", OP_ADD, false, false, { { SRC_A, 0, 0 }, { SRC_B, 0, 0 } } },
	{ "add_f64_sv", OP_ADD, false, false, { { SRC_S, 0, 0 }, { SRC_B, 0, 0 } } },
	{ "add_f64_kv", OP_ADD, false, false, { { SRC_K, 0, 0xc010000000000000ull }, { SRC_B, 0, 0 } } },
	{ "add_f64_nv", OP_ADD, false, false, { { SRC_A, 1, 0 }, { SRC_B, 2, 0 } } },
	{ "add_f64_flush", OP_ADD, true, false, { { SRC_A, 0, 0 }, { SRC_B, 0, 0 } } },
	{ "mul_f64_vv", OP_MUL, false, false, { { SRC_A, 0, 0 }, { SRC_B, 0, 0 } } },
	{ "mul_f64_vs", OP_MUL, false, false, { { SRC_A, 0, 0 }, { SRC_S, 0, 0 } } },
	{ "mul_f64_vk", OP_MUL, false, false, { { SRC_A, 0, 0 }, { SRC_K, 0, 0x3fe0000000000000ull } } },
	{ "fma_f64_vvv", OP_FMA, false, false, { { SRC_A, 0, 0 }, { SRC_B, 0, 0 }, { SRC_C, 0, 0 } } },
	{ "fma_f64_nvk", OP_FMA, false, false, { { SRC_A, 1, 0 }, { SRC_B, 0, 0 }, { SRC_K, 0, 0x3ff0000000000000ull } } },
	{ "fma_f64_vsv", OP_FMA, false, false, { { SRC_A, 0, 0 }, { SRC_S, 0, 0 }, { SRC_C, 3, 0 } } },
	{ "fma_f64_flush", OP_FMA, true, false, { { SRC_A, 0, 0 }, { SRC_B, 0, 0 }, { SRC_C, 0, 0 } } },
	{ "fmac_f64_vv", OP_FMA, false, false, { { SRC_A, 0, 0 }, { SRC_B, 0, 0 }, { SRC_D, 0, 0 } } },
	{ "fmac_f64_sv", OP_FMA, false, false, { { SRC_S, 0, 0 }, { SRC_B, 0, 0 }, { SRC_D, 0, 0 } } },
	{ "rcp_f64_v", OP_RCP, false, false, { { SRC_A, 0, 0 } } },
	{ "rcp_f64_n", OP_RCP, false, false, { { SRC_A, 1, 0 } } },
	{ "rsq_f64_v", OP_RSQ, false, false, { { SRC_A, 0, 0 } } },
	{ "sqrt_f64_v", OP_SQRT, false, false, { { SRC_A, 0, 0 } } },
	{ "sqrt_f64_a", OP_SQRT, false, false, { { SRC_A, 2, 0 } } },
	{ "sqrt_f64_flush", OP_SQRT, true, false, { { SRC_A, 0, 0 } } },
	{ "div_f64", OP_DIV, false, false, { { SRC_B, 0, 0 }, { SRC_A, 0, 0 } } },
	{ "div_f64_s", OP_DIV, false, false, { { SRC_S, 0, 0 }, { SRC_A, 0, 0 } } },
	{ "sqrt_seq", OP_SQRTSEQ, false, false, { { SRC_A, 0, 0 }, { SRC_B, 0, 0 } } },
	{ "sqrt_seq_x", OP_SQRTX, false, false, { { SRC_A, 0, 0 }, { SRC_B, 0, 0 } } },
	{ "cvt_f64_u32_s", OP_CVTU, false, false, { { SRC_S32, 0, 0 } } },
	{ "cvt_f64_u32_k", OP_CVTU, false, false, { { SRC_K, 0, (uint32_t)-7 } } },
	{ "cvt_f64_i32_s", OP_CVTI, false, false, { { SRC_S32, 0, 0 } } },
	{ "cvt_f64_i32_k", OP_CVTI, false, false, { { SRC_K, 0, (uint32_t)-7 } } },
	{ "ldexp_f64_v8", OP_LDEXP, false, false, { { SRC_A, 0, 0 }, { SRC_C8, 0, 0 } } },
	{ "ldexp_f64_k", OP_LDEXP, false, false, { { SRC_A, 0, 0 }, { SRC_K, 0, (uint32_t)-7 } } },
	{ "ldexp_f64_vraw", OP_LDEXP, false, false, { { SRC_A, 1, 0 }, { SRC_C32, 0, 0 } } },
	{ "lshlrev_b64_vv", OP_SHL, false, false, { { SRC_C32, 0, 0 }, { SRC_A, 0, 0 } } },
	{ "lshlrev_b64_sv", OP_SHL, false, false, { { SRC_S32, 0, 0 }, { SRC_A, 0, 0 } } },
	{ "lshlrev_b64_kv", OP_SHL, false, false, { { SRC_K, 0, 3 }, { SRC_A, 0, 0 } } },
	{ "lshlrev_b64_vs", OP_SHL, false, false, { { SRC_C32, 0, 0 }, { SRC_S, 0, 0 } } },
	{ "lshrrev_b64_vv", OP_SHR, false, false, { { SRC_C32, 0, 0 }, { SRC_A, 0, 0 } } },
	{ "lshrrev_b64_kv", OP_SHR, false, false, { { SRC_K, 0, 35 }, { SRC_A, 0, 0 } } },
	{ "ashrrev_i64_vv", OP_ASHR, false, false, { { SRC_C32, 0, 0 }, { SRC_A, 0, 0 } } },
	{ "ashrrev_i64_kv", OP_ASHR, false, false, { { SRC_K, 0, 37 }, { SRC_A, 0, 0 } } },
	{ "ashrrev_i64_sv", OP_ASHR, false, false, { { SRC_S32, 0, 0 }, { SRC_A, 0, 0 } } },
	{ "mov_b64_v", OP_MOV, false, true, { { SRC_A, 0, 0 } } },
	{ "mov_b64_s", OP_MOV, false, true, { { SRC_S, 0, 0 } } },
	{ "lshl_add_u64_vvv", OP_LSHL_ADD, false, true, { { SRC_A, 0, 0 }, { SRC_C32, 0, 0 }, { SRC_B, 0, 0 } } },
	{ "lshl_add_u64_vkv", OP_LSHL_ADD, false, true, { { SRC_A, 0, 0 }, { SRC_K, 0, 2 }, { SRC_B, 0, 0 } } },
	{ "lshl_add_u64_vvs", OP_LSHL_ADD, false, true, { { SRC_A, 0, 0 }, { SRC_C32, 0, 0 }, { SRC_S, 0, 0 } } },
	{ "lshl_add_u64_skv", OP_LSHL_ADD, false, true, { { SRC_S, 0, 0 }, { SRC_K, 0, 0 }, { SRC_B, 0, 0 } } },
	{ "lshl_add_u64_vks", OP_LSHL_ADD, false, true, { { SRC_A, 0, 0 }, { SRC_K, 0, 3 }, { SRC_S, 0, 0 } } },
	{ "div_scale_den", OP_SCALE, false, false, { { SRC_B, 0, 0 }, { SRC_B, 0, 0 }, { SRC_A, 0, 0 } } },
	{ "div_scale_num", OP_SCALE, false, false, { { SRC_A, 0, 0 }, { SRC_B, 0, 0 }, { SRC_A, 0, 0 } } },
	{ "div_fixup_vvv", OP_FIXUP, false, false, { { SRC_C, 0, 0 }, { SRC_B, 0, 0 }, { SRC_A, 0, 0 } } },
};

/* The partial EXEC of vfast64.s. */
static bool active(unsigned lane)
{
	return (0xf0ff00800ff05a01ull >> (lane & 63)) & 1;
}

static uint32_t rng;
static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

static double f64(uint64_t u)
{
	double d;
	memcpy(&d, &u, 8);
	return d;
}
static uint64_t u64(double d)
{
	uint64_t u;
	memcpy(&u, &d, 8);
	return u;
}
static bool isnan64(uint64_t u)
{
	return (u & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
}
static unsigned expo(uint64_t u)
{
	return (unsigned)(u >> 52) & 0x7ff;
}
static uint64_t flush(uint64_t u)
{
	return expo(u) == 0 ? (u & SIGN) : u;
}

/* An ordinary value: random sign and fraction, exponent within 2^±60. */
static uint64_t ordinary(void)
{
	uint64_t frac = ((uint64_t)rnd() << 32 | rnd()) & 0xfffffffffffffull;
	uint64_t e = 1023 - 60 + rnd() % 121;
	return (uint64_t)(rnd() & 1) << 63 | e << 52 | frac;
}

static const uint64_t special[] = {
	0, SIGN, 0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000001ull,
	0xfff8000000000000ull /* x86's NaN as an input */, 0x7ff0000000000001ull /* sNaN */,
	0x000000000000abcdull, 0x800fffffffffffffull, 0x0010000000000000ull,
	0x7e37e43c8800759cull /* 1e300 */, 0x01a56e1fc2f8f359ull /* 1e-300 */,
	0x7fefffffffffffffull, 0xffefffffffffffffull,
};

/* Fills lane i's a, b, c, d (in[8i .. 8i+7]). */
static void fill(uint32_t *in)
{
	for (unsigned i = 0; i < NLANES; i++) {
		unsigned wave = i / 64, l = i % 64;
		uint64_t v[4];
		for (unsigned j = 0; j < 4; j++)
			v[j] = ordinary();
		if ((wave == 2 && !active(l) && l % 3 == 0) || (wave == 3 && l % 4 == 1))
			v[rnd() % 3] = special[rnd() % (sizeof(special) / sizeof(special[0]))];
		for (unsigned j = 0; j < 4; j++) {
			in[8 * i + 2 * j] = (uint32_t)v[j];
			in[8 * i + 2 * j + 1] = (uint32_t)(v[j] >> 32);
		}
	}
}

/* For the square-root refinement, whose fused form takes inputs below
 * 2^31 only: the ordinary a and b (exponents within 2^+-60) brought
 * within 2^+-28, the special values left as they are. */
static void tame(uint32_t *in)
{
	for (unsigned i = 0; i < NLANES; i++)
		for (unsigned j = 0; j < 2; j++) {
			uint32_t *hi = &in[8 * i + 2 * j + 1];
			uint32_t e = (*hi >> 20) & 0x7ff;
			if (e >= 1023 - 60 && e <= 1023 + 60)
				*hi = (*hi & 0x800fffffu) | (1023 - 28 + (e - 963) % 57) << 20;
		}
}

static uint64_t quiet(uint64_t u)
{
	return u | 0x8000000000000ull;
}

static bool model(const struct form *f, const uint64_t x[3], uint64_t *r);

/* The square-root refinement (kernels/vfast64.s, SQRTSEQ) as its nine
 * instructions, each by model(): x, y the inputs, a source a step's
 * result (0..8), x (-1), y (-2) or 0.5 (-3), negated where neg; SQRTX
 * sets the fifth step's result aside, so the seventh and ninth read the
 * second's.  False when a step is undecided. */
static bool seq_model(bool setaside, uint64_t x, uint64_t y, uint64_t *r)
{
	static const struct form mul = { "mul", OP_MUL, false, false, { { SRC_A, 0, 0 } } };
	static const struct form fma3 = { "fma", OP_FMA, false, false, { { SRC_A, 0, 0 } } };
	static const struct { bool fma; int8_t s[3]; bool neg; } st[9] = {
		{ false, { -1, -2 }, false }, { false, { -2, -3 }, false },
		{ true, { 1, 0, -3 }, true }, { true, { 0, 2, 0 }, false },
		{ true, { 1, 2, 1 }, false }, { true, { 3, 3, -1 }, true },
		{ true, { 5, 4, 3 }, false }, { true, { 6, 6, -1 }, true },
		{ true, { 7, 4, 6 }, false },
	};
	uint64_t v[9];

	for (unsigned i = 0; i < 9; i++) {
		uint64_t a[3] = { 0, 0, 0 };
		for (unsigned j = 0; j < (st[i].fma ? 3u : 2u); j++) {
			int k = st[i].s[j];
			if (setaside && (i == 6 || i == 8) && k == 4)
				k = 1;
			a[j] = k == -1 ? x : k == -2 ? y : k == -3 ? 0x3fe0000000000000ull : v[k];
		}
		if (st[i].neg)
			a[0] ^= SIGN;
		if (!model(st[i].fma ? &fma3 : &mul, a, &v[i]))
			return false;
	}
	*r = v[8];
	return true;
}

/* The lane's result, or false when the model does not decide it (two NaN
 * inputs; a division helper outside its ordinary case). */
static bool model(const struct form *f, const uint64_t x[3], uint64_t *r)
{
	unsigned n = f->op <= OP_MUL || f->op == OP_DIV || f->op == OP_SQRTSEQ || f->op == OP_SQRTX ? 2
		   : f->op == OP_CVTU || f->op == OP_CVTI ? 1
		   : f->op == OP_FMA || f->op >= OP_SCALE ? 3 : 1;
	uint64_t y[3];
	unsigned nans = 0, first = 3;
	double res;

	for (unsigned j = 0; j < 3; j++) {
		y[j] = j < n ? x[j] : 0;
		if (f->flush)
			y[j] = flush(y[j]);
		if (j < n && isnan64(y[j])) {
			nans++;
			first = first < j ? first : j;
		}
	}
	switch (f->op) {
	case OP_CVTU: *r = u64((double)(uint32_t)x[0]); return true;
	case OP_CVTI: *r = u64((double)(int32_t)(uint32_t)x[0]); return true;
	case OP_SQRTSEQ:
	case OP_SQRTX:
		return seq_model(f->op == OP_SQRTX, x[0], x[1], r);
	case OP_SHL: *r = x[1] << (x[0] & 63); return true;
	case OP_SHR: *r = x[1] >> (x[0] & 63); return true;
	case OP_ASHR: *r = (uint64_t)((int64_t)x[1] >> (x[0] & 63)); return true;
	case OP_MOV: *r = x[0]; return true;
	case OP_LSHL_ADD: *r = (x[0] << (x[1] & 7)) + x[2]; return true;
	case OP_SCALE: {
		int e1 = (int)expo(y[1]), e2 = (int)expo(y[2]);
		if (!(e1 >= 1 && e1 < 2045 && e2 > 53 && e2 < 2047 && e2 - e1 < 768 && e2 - e1 > -1000))
			return false;
		*r = y[0];
		return true;
	}
	case OP_FIXUP: {
		int e1 = (int)expo(y[1]), e2 = (int)expo(y[2]);
		uint64_t q = ((y[1] ^ y[2]) & SIGN) | (y[0] & ~SIGN);
		if (e1 < 1 || e1 > 2046 || e2 < 1 || e2 > 2046 || e2 - e1 < -1075)
			return false;
		/* the NaN rule applies to what it returns */
		*r = (q == 0xfff8000000000000ull && y[0] != q) ? QNAN : q;
		return true;
	}
	case OP_LDEXP: {
		/* S1 is an integer, clamped to +-5000 (beyond, every result
		 * is the same) */
		int32_t k = (int32_t)(uint32_t)x[1];
		k = k < -5000 ? -5000 : k > 5000 ? 5000 : k;
		*r = isnan64(y[0]) ? quiet(y[0]) : u64(ldexp(f64(y[0]), k));
		return true;
	}
	case OP_DIV:
		/* S2 / S1: the numerator's NaN first */
		if (isnan64(y[1]))
			*r = quiet(y[1]);
		else if (isnan64(y[0]))
			*r = quiet(y[0]);
		else if (isnan(res = f64(y[1]) / f64(y[0])))
			*r = QNAN;
		else
			*r = u64(res);
		return true;
	default:
		break;
	}
	if (nans > 1)
		return false;
	if (nans) {
		*r = quiet(y[first]);
		return true;
	}
	switch (f->op) {
	case OP_ADD: res = f64(y[0]) + f64(y[1]); break;
	case OP_MUL: res = f64(y[0]) * f64(y[1]); break;
	case OP_FMA: res = fma(f64(y[0]), f64(y[1]), f64(y[2])); break;
	case OP_RCP: res = 1.0 / f64(y[0]); break;
	case OP_RSQ: res = 1.0 / sqrt(f64(y[0])); break;
	default: res = sqrt(f64(y[0])); break;
	}
	*r = isnan(res) ? QNAN : f->flush ? flush(u64(res)) : u64(res);
	return true;
}

static uint64_t lane64(const uint32_t *p)
{
	return (uint64_t)p[0] | (uint64_t)p[1] << 32;
}

/* Runs the forms (only those named in only, when not NULL), each with
 * the stop point of a context save (HX_PREEMPT_AFTER: the wave saved,
 * rebuilt and resumed) after each instruction count from after_from to
 * after_to (0: none), and checks them against the model. */
static void match_model(const char *const *only, unsigned after_from, unsigned after_to)
{
	static struct hx_code codes[2];
	static const char *const stem[2] = { "vfast64", "vfast64942" };
	static const uint32_t gfx[2] = { KEMU_ISA_GFX90A, KEMU_ISA_GFX942 };
	bool have[2] = { false, false };
	char path[600];
	uint32_t *in = hx_alloc(NLANES * 32), *out = hx_alloc(NLANES * 32);
	uint64_t args[2] = { (uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out };
	unsigned bad = 0;

	for (unsigned t = 0; t < 2; t++) {
		if (!hx_kernel_path(stem[t], gfx[t], path, sizeof(path))) {
			ck_assert_msg(!hx_target_expected(gfx[t]), "%s kernels not built", stem[t]);
			continue;
		}
		ck_assert_int_eq(hx_load(&codes[t], path), 0);
		have[t] = true;
	}
	for (size_t k = 0; k < sizeof(forms) / sizeof(forms[0]); k++) {
		const struct form *f = &forms[k];
		unsigned changed = 0, decided = 0, t = f->gfx942;
		bool listed = only == NULL;
		for (unsigned j = 0; only && only[j]; j++)
			listed |= strcmp(only[j], f->name) == 0;
		if (!have[t] || !listed)
			continue;
		for (unsigned seed = 1; seed <= 3; seed++)
		for (unsigned after = after_from; after <= after_to; after++) {
			struct hx_launch l = { .gfx = gfx[t], .args = args, .args_size = 16,
					       .grid = { NLANES, 1, 1 }, .wg = { NLANES, 1, 1 } };
			struct kemu_isa_error err;
			bool wave_ordinary[NLANES / 64];
			rng = seed * 0x9e3779b9u + (uint32_t)k * 0x7feb352du;
			fill(in);
			if (f->op == OP_SQRTSEQ || f->op == OP_SQRTX)
				tame(in);
			memset(out, 0xa5, NLANES * 32);
			char num[16];
			int rc;
			l.kd = hx_kd(&codes[t], f->name);
			ck_assert_msg(l.kd != 0, "no %s.kd", f->name);
			if (after) {
				snprintf(num, sizeof(num), "%u", after);
				setenv("HX_PREEMPT_AFTER", num, 1);
			}
			rc = hx_run(&l, &err);
			unsetenv("HX_PREEMPT_AFTER");
			ck_assert_msg(rc == 0, "%s after %u: %s: %s", f->name, after,
				      kemu_isa_error_name(err.kind), err.message);
			for (unsigned wv = 0; wv < NLANES / 64; wv++)
				wave_ordinary[wv] = true;
			for (unsigned i = 0; i < NLANES; i++) {
				const uint32_t *v = in + 8 * i, *o = out + 8 * i;
				uint64_t x[3] = { 0, 0, 0 }, want, d = lane64(v + 6);
				for (unsigned j = 0; j < 3; j++) {
					switch (f->s[j].src) {
					case SRC_A: x[j] = lane64(v); break;
					case SRC_B: x[j] = lane64(v + 2); break;
					case SRC_C: x[j] = lane64(v + 4); break;
					case SRC_D: x[j] = d; break;
					case SRC_S: x[j] = lane64(in + 8 * (i & ~63u) + 2); break;
					case SRC_C8: x[j] = (uint32_t)(int32_t)(int8_t)v[4]; break;
					case SRC_C32: x[j] = v[4]; break;
					case SRC_S32: x[j] = in[8 * (i & ~63u) + 2]; break;
					default: x[j] = f->s[j].k; break;
					}
					if (f->s[j].mod & 2)
						x[j] &= ~SIGN;
					if (f->s[j].mod & 1)
						x[j] ^= SIGN;
				}
				if (!model(f, x, &want)) {
					wave_ordinary[i / 64] = false;
					continue;
				}
				decided++;
				changed += want != d;
				if ((lane64(o) != want || lane64(o + 2) != (active(i) ? want : d)) &&
				    bad++ < 8)
					fprintf(stderr, "%s after %u lane %u: %016llx %016llx %016llx %016llx: got "
						"%016llx %016llx, model %016llx\n", f->name, after, i,
						(unsigned long long)lane64(v), (unsigned long long)lane64(v + 2),
						(unsigned long long)lane64(v + 4), (unsigned long long)d,
						(unsigned long long)lane64(o), (unsigned long long)lane64(o + 2),
						(unsigned long long)want);
			}
			/* VCC of div_scale alone: clear in a wave of ordinary lanes */
			for (unsigned i = 0; f->op == OP_SCALE && i < NLANES; i++) {
				const uint32_t *o = out + 8 * i;
				if (wave_ordinary[i / 64] && (lane64(o + 4) | lane64(o + 6)) && bad++ < 8)
					fprintf(stderr, "%s lane %u: VCC %016llx %016llx, model 0\n",
						f->name, i, (unsigned long long)lane64(o + 4),
						(unsigned long long)lane64(o + 6));
			}
		}
		/* the inputs make every operation change most lanes, and the
		 * model decides most of them */
		ck_assert_msg(decided > 2 * NLANES && changed > 2 * NLANES,
			      "%s: %u lanes decided, %u changed", f->name, decided, changed);
	}
	ck_assert_msg(bad == 0, "%u lanes differ from the model", bad);
	for (unsigned t = 0; t < 2; t++)
		if (have[t])
			hx_unload(&codes[t]);
	hx_free(in);
	hx_free(out);
}

START_TEST(test_vfast64_match_model)
{
	match_model(NULL, 0, 0);
}
END_TEST

/* The fused sequences (isa_vfast64_fuse) split by a stop point at every
 * instruction boundary of their kernels (12 instructions before the
 * first copy, 9 between the two): the wave loop runs the first alone
 * and the rest one by one, and the restored wave goes on; the same
 * results as unsplit. */
START_TEST(test_vfast64_fused_preempted)
{
	static const char *const fused[] = { "div_f64", "div_f64_s", "sqrt_seq", NULL };

	match_model(fused, 1, 48);
}
END_TEST

START_TEST(test_model_hand_values)
{
	static const struct form add = { "add", OP_ADD, false, false, { { SRC_A, 0, 0 }, { SRC_B, 0, 0 } } };
	static const struct form div = { "div", OP_DIV, false, false, { { SRC_B, 0, 0 }, { SRC_A, 0, 0 } } };
	static const struct form fl = { "flush", OP_SQRT, true, false, { { SRC_A, 0, 0 } } };
	uint64_t r = 0, x[3] = { 0x7ff0000000000000ull, 0xfff0000000000000ull, 0 };

	ck_assert(model(&add, x, &r) && r == QNAN);          /* inf + -inf */
	x[0] = 0xfff8000000000000ull;
	x[1] = 0x3ff0000000000000ull;
	ck_assert(model(&add, x, &r) && r == 0xfff8000000000000ull); /* input NaN kept */
	x[0] = 0;
	x[1] = 0;
	ck_assert(model(&div, x, &r) && r == QNAN);          /* 0 / 0 */
	x[0] = 0x4000000000000000ull;                        /* 2 */
	x[1] = 0x4008000000000000ull;                        /* 3 */
	ck_assert(model(&div, x, &r) && r == u64(3.0 / 2.0));
	x[0] = 0x800000000000abcdull;                        /* -denormal */
	ck_assert(model(&fl, x, &r) && r == SIGN);           /* sqrt(-0) */
	ck_assert(active(0) && !active(1) && !active(4) && !active(8) && active(9));
	ck_assert(!active(32 + 6));
	ck_assert(active(32 + 7) && active(63) && !active(59));
}
END_TEST

/* The fused sequences give the bits of their instructions run one by
 * one (each through its own executor) in every lane, also those the
 * model leaves undecided: each kernel run whole, then with a context
 * save after the first instruction of its first copy (that copy then
 * runs one by one: the whole-EXEC result) and of its second (the
 * partial-EXEC one).  Waves 0 and 2 run fused (wave 2's special values
 * are outside the partial EXEC); waves 1 and 3 have special values in
 * active lanes, where the fused executors must hand the sequence to the
 * instructions (the NaNs they make show that they ran). */
START_TEST(test_vfast64_fused_as_unfused)
{
	static const struct { const char *name; unsigned first, second; } k[] = {
		{ "div_f64", 13, 33 }, { "div_f64_s", 13, 33 }, { "sqrt_seq", 13, 31 },
	};
	static struct hx_code code;
	char path[600];
	uint32_t *in = hx_alloc(NLANES * 32), *out[3];
	uint64_t args[2] = { (uint64_t)(uintptr_t)in, 0 };
	unsigned bad = 0, nans = 0;

	ck_assert_msg(hx_kernel_path("vfast64", KEMU_ISA_GFX90A, path, sizeof(path)) != NULL,
		      "vfast64-gfx90a.co not built");
	ck_assert_int_eq(hx_load(&code, path), 0);
	for (unsigned r = 0; r < 3; r++)
		out[r] = hx_alloc(NLANES * 32);
	for (size_t f = 0; f < sizeof(k) / sizeof(k[0]); f++)
		for (unsigned seed = 1; seed <= 3; seed++) {
			rng = seed * 0x85ebca6bu + (uint32_t)f;
			fill(in);
			tame(in);
			/* wave 1: every fourth lane special, active or not */
			for (unsigned i = 64; i < 128; i += 4)
				for (unsigned j = 0; j < 2; j++) {
					uint64_t v = special[rnd() % (sizeof(special) / sizeof(special[0]))];
					in[8 * i + 2 * j] = (uint32_t)v;
					in[8 * i + 2 * j + 1] = (uint32_t)(v >> 32);
				}
			for (unsigned r = 0; r < 3; r++) {
				struct hx_launch l = { .gfx = KEMU_ISA_GFX90A, .args = args,
						       .args_size = 16, .grid = { NLANES, 1, 1 },
						       .wg = { NLANES, 1, 1 } };
				struct kemu_isa_error err;
				char num[16];
				int rc;
				args[1] = (uint64_t)(uintptr_t)out[r];
				memset(out[r], 0xa5, NLANES * 32);
				l.kd = hx_kd(&code, k[f].name);
				ck_assert(l.kd != 0);
				if (r) {
					snprintf(num, sizeof(num), "%u", r == 1 ? k[f].first : k[f].second);
					setenv("HX_PREEMPT_AFTER", num, 1);
				}
				rc = hx_run(&l, &err);
				unsetenv("HX_PREEMPT_AFTER");
				ck_assert_msg(rc == 0, "%s run %u: %s: %s", k[f].name, r,
					      kemu_isa_error_name(err.kind), err.message);
			}
			for (unsigned i = 0; i < NLANES; i++) {
				const uint32_t *o0 = out[0] + 8 * i, *o1 = out[1] + 8 * i;
				const uint32_t *o2 = out[2] + 8 * i;
				nans += isnan64(lane64(o0)) && !isnan64(lane64(in + 8 * i)) &&
					!isnan64(lane64(in + 8 * i + 2));
				if ((lane64(o0) != lane64(o1) || lane64(o0 + 2) != lane64(o2 + 2) ||
				     memcmp(o0 + 4, o1 + 4, 16) || memcmp(o0 + 4, o2 + 4, 16)) &&
				    bad++ < 8)
					fprintf(stderr, "%s lane %u: fused %016llx %016llx, one by one "
						"%016llx %016llx\n", k[f].name, i,
						(unsigned long long)lane64(o0),
						(unsigned long long)lane64(o0 + 2),
						(unsigned long long)lane64(o1),
						(unsigned long long)lane64(o2 + 2));
			}
		}
	/* the special inputs made NaNs inside the sequences */
	ck_assert_msg(nans > 0, "no NaN made from non-NaN inputs");
	ck_assert_msg(bad == 0, "%u lanes differ between fused and one by one", bad);
	hx_unload(&code);
	for (unsigned r = 0; r < 3; r++)
		hx_free(out[r]);
	hx_free(in);
}
END_TEST

/* Runs kernel on one wave of ordinary values with a watchdog of k = 1,
 * 2, ... instructions until the wave ends; each stop must come after
 * exactly k instructions, one instruction (4 or 8 bytes) past the last
 * (the kernels are straight-line).  Returns the k that let it end. */
static unsigned stop_points(const char *kernel)
{
	static struct hx_code code;
	char path[600];
	uint32_t *in = hx_alloc(NLANES * 32), *out = hx_alloc(NLANES * 32);
	uint64_t args[2] = { (uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out };
	unsigned k;

	ck_assert_msg(hx_kernel_path("vfast64", KEMU_ISA_GFX90A, path, sizeof(path)) != NULL,
		      "vfast64-gfx90a.co not built");
	ck_assert_int_eq(hx_load(&code, path), 0);
	rng = 0x6a09e667u;
	fill(in);
	tame(in);
	k = hx_stop_points(&code, kernel, args);
	hx_unload(&code);
	hx_free(in);
	hx_free(out);
	return k;
}

/* The wave loop's stop points stay exact through the fused sequences:
 * a watchdog of k instructions stops the wave after exactly k, at
 * boundary k, also inside a sequence, and the wave's length counts
 * every instruction of both copies (vfast64.inc: 12 + 11 + 9 + 11 + 8
 * for the division, 12 + 9 + 9 + 9 + 8 for the refinement). */
START_TEST(test_vfast64_fused_stop_points)
{
	ck_assert_uint_eq(stop_points("div_f64"), 51);
	ck_assert_uint_eq(stop_points("sqrt_seq"), 47);
}
END_TEST

static Suite *vfast64_suite(void)
{
	Suite *s = suite_create("isa_vfast64");
	TCase *tc = tcase_create("vfast64");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_model_hand_values);
	tcase_add_test(tc, test_vfast64_match_model);
	tcase_add_test(tc, test_vfast64_fused_preempted);
	tcase_add_test(tc, test_vfast64_fused_stop_points);
	tcase_add_test(tc, test_vfast64_fused_as_unfused);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(vfast64_suite)
