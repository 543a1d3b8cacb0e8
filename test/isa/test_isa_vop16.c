/*
 * test_isa_vop16.c — the 16-bit and mixed-precision VALU families against a
 * host model: the VOP3P packed 16-bit integer ops (v_pk_add_u16 and the
 * rest of 0x00-0x0d), v_fma_mix_f32 / v_fma_mixlo_f16 / v_fma_mixhi_f16,
 * and the VOP3 v_min3/max3/med3 in i16, u16 and f16.  Each kernel of
 * kernels/vop16.s runs one instruction form on 256 lanes of generated
 * inputs (edge values mixed with random bits) for several seeds; every
 * lane's result is compared with the model below, which is written from
 * the ISA rules (CDNA2 ISA guide, VOP3P and VOP3 sections; LLVM's mad-mix
 * selection for the mix ops' rounding) and uses the host's _Float16 for
 * conversions, never the interpreter's helpers.
 *
 * Rules modelled (the interpreter's file comments state the same ones):
 *   - OP_SEL bit i picks the high half of source i for the low result
 *     (VOP3: for the result), OP_SEL_HI bit i for the high result; VOP3
 *     OP_SEL bit 3 writes the high half of D and keeps the low one, else
 *     D is the zero-extended 16-bit result.  Inline constants are their
 *     32-bit value (1 is {1, 0}; the f16 1.0 is 0x3c00 in the low half).
 *   - packed integer CLAMP saturates add/sub/mad to the result type.
 *   - mix: OP_SEL_HI bit i makes source i an f16 (OP_SEL bit i: which
 *     half); NEG_LO negates, NEG_HI takes the absolute value (first); one
 *     f32 fma, then round to f16 for mixlo/mixhi (keeping D's other half);
 *     a NaN result is the first NaN source quieted, or 0x7fc00000.
 *   - f16 min/max with MODE.IEEE: a signalling NaN gives itself quieted,
 *     a quiet NaN the other operand; -0 < +0; med3 with a NaN is min3.
 *   - FP_DENORM 0 (the _ftz kernels): denormal inputs and results become
 *     zeros of their sign; CLAMP maps NaN and negatives to 0, >1 to 1.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hl_check.h"
#include "isa_harness.h"

#define NLANES 256
#define NSEEDS 4

static struct hx_code code;
static bool loaded;

static void load(void)
{
	char path[600];
	if (loaded)
		return;
	ck_assert_msg(hx_kernel_path("vop16", KEMU_ISA_GFX90A, path, sizeof(path)) != NULL,
		      "vop16-gfx90a.co not built");
	ck_assert_int_eq(hx_load(&code, path), 0);
	loaded = true;
}

/* ---- the host model ---- */

static float h2f(uint16_t h)
{
	_Float16 x;
	memcpy(&x, &h, 2);
	return (float)x;
}

static uint16_t f2h(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	if (isnan(f)) /* sign, quiet bit, the top 9 payload bits */
		return (uint16_t)(((u >> 16) & 0x8000) | 0x7e00 | ((u >> 13) & 0x1ff));
	_Float16 x = (_Float16)f;
	uint16_t h;
	memcpy(&h, &x, 2);
	return h;
}

static float fbits(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}

static uint32_t ubits(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

static bool hnan(uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff); }
static bool hdenorm(uint16_t h) { return (h & 0x7c00) == 0 && (h & 0x3ff); }

static uint16_t half_of(uint32_t v, unsigned hi)
{
	return (uint16_t)(hi ? v >> 16 : v);
}

/* One form of an instruction as the kernel encodes it. */
enum kind { PK_INT, MIX, V3_16 };
struct form {
	const char *name;
	enum kind kind;
	unsigned op;            /* VOP3P / VOP3 opcode */
	unsigned opsel, opsel_hi, neg, abs;
	bool clamp, ftz;
	int bsrc;               /* 0: VGPR b, 1: SGPR (lane 0's b), 2: constant */
	uint32_t kb, kc;        /* constants for b (bsrc 2) and c (kc_used) */
	bool kc_used;
};

static uint32_t model_pk_int(const struct form *f, const uint32_t s[3])
{
	uint32_t out = 0;
	for (unsigned half = 0; half < 2; half++) {
		unsigned sel = half ? f->opsel_hi : f->opsel;
		uint16_t a = half_of(s[0], sel & 1), b = half_of(s[1], sel >> 1 & 1);
		uint16_t c = half_of(s[2], sel >> 2 & 1);
		int16_t sa = (int16_t)a, sb = (int16_t)b, sc = (int16_t)c;
		long r;
		switch (f->op) {
		case 0x00: r = (long)sa * sb + sc; if (f->clamp) r = r > 32767 ? 32767 : r < -32768 ? -32768 : r; break;
		case 0x01: r = (long)((unsigned long)a * b); break;
		case 0x02: r = (long)sa + sb; if (f->clamp) r = r > 32767 ? 32767 : r < -32768 ? -32768 : r; break;
		case 0x03: r = (long)sa - sb; if (f->clamp) r = r > 32767 ? 32767 : r < -32768 ? -32768 : r; break;
		case 0x04: r = (long)b << (a % 16); break;
		case 0x05: r = b >> (a % 16); break;
		case 0x06: r = sb >> (a % 16); break;
		case 0x07: r = sa > sb ? sa : sb; break;
		case 0x08: r = sa < sb ? sa : sb; break;
		case 0x09: r = (long)a * b + c; if (f->clamp && r > 65535) r = 65535; break;
		case 0x0a: r = (long)a + b; if (f->clamp && r > 65535) r = 65535; break;
		case 0x0b: r = (long)a - b; if (f->clamp && r < 0) r = 0; break;
		case 0x0c: r = a > b ? a : b; break;
		default:   r = a < b ? a : b; break;
		}
		out |= ((uint32_t)r & 0xffff) << (16 * half);
	}
	return out;
}

static float mix_src(const struct form *f, unsigned i, uint32_t raw)
{
	if (f->opsel_hi >> i & 1) {
		uint16_t h = half_of(raw, f->opsel >> i & 1);
		if (f->abs >> i & 1)
			h &= 0x7fff;
		if (f->neg >> i & 1)
			h ^= 0x8000;
		if (f->ftz && hdenorm(h))
			h &= 0x8000;
		return h2f(h);
	}
	if (f->abs >> i & 1)
		raw &= 0x7fffffff;
	if (f->neg >> i & 1)
		raw ^= 0x80000000;
	if (f->ftz && (raw & 0x7f800000) == 0)
		raw &= 0x80000000;
	return fbits(raw);
}

static uint32_t model_mix(const struct form *f, const uint32_t s[3], uint32_t d)
{
	float x[3];
	uint32_t r;
	for (unsigned i = 0; i < 3; i++)
		x[i] = mix_src(f, i, s[i]);
	r = ubits(fmaf(x[0], x[1], x[2]));
	if (isnan(fbits(r))) {
		r = 0x7fc00000;
		for (unsigned i = 0; i < 3; i++) {
			if (isnan(x[i])) {
				r = ubits(x[i]) | 0x400000;
				break;
			}
		}
	}
	if (f->clamp) {
		float v = fbits(r);
		r = (isnan(v) || v < 0) ? 0 : v > 1 ? 0x3f800000 : r;
	}
	if (f->op == 0x20)
		return f->ftz && (r & 0x7f800000) == 0 ? r & 0x80000000 : r;
	uint16_t h = f2h(fbits(r));
	if (f->ftz && hdenorm(h))
		h &= 0x8000;
	return f->op == 0x21 ? (d & 0xffff0000) | h : (d & 0xffff) | ((uint32_t)h << 16);
}

/* f16 min/max under MODE.IEEE = 1 (the kernels' default). */
static uint16_t hmin(uint16_t a, uint16_t b)
{
	if (hnan(a) || hnan(b)) {
		if (hnan(a) && !(a & 0x200))
			return a | 0x200;
		if (hnan(b) && !(b & 0x200))
			return b | 0x200;
		return hnan(a) ? b : a;
	}
	if (h2f(a) == h2f(b))
		return (a & 0x8000) ? a : b;
	return h2f(a) < h2f(b) ? a : b;
}

static uint16_t hmax(uint16_t a, uint16_t b)
{
	if (hnan(a) || hnan(b)) {
		if (hnan(a) && !(a & 0x200))
			return a | 0x200;
		if (hnan(b) && !(b & 0x200))
			return b | 0x200;
		return hnan(a) ? b : a;
	}
	if (h2f(a) == h2f(b))
		return (a & 0x8000) ? b : a;
	return h2f(a) > h2f(b) ? a : b;
}

static uint32_t model_v3_16(const struct form *f, const uint32_t s[3], uint32_t d)
{
	uint16_t v[3];
	uint32_t r;
	for (unsigned i = 0; i < 3; i++) {
		v[i] = half_of(s[i], f->opsel >> i & 1);
		if (f->abs >> i & 1)
			v[i] &= 0x7fff;
		if (f->neg >> i & 1)
			v[i] ^= 0x8000;
		if (f->ftz && hdenorm(v[i]))
			v[i] &= 0x8000;
	}
	switch (f->op) {
	case 0x1f5: case 0x1f8: case 0x1fb: { /* i16 */
		int x = (int16_t)v[0], y = (int16_t)v[1], z = (int16_t)v[2], m;
		if (f->op == 0x1f5)
			m = x < y ? (x < z ? x : z) : (y < z ? y : z);
		else if (f->op == 0x1f8)
			m = x > y ? (x > z ? x : z) : (y > z ? y : z);
		else /* the middle one: sum minus min and max */
			m = x + y + z - (x < y ? (x < z ? x : z) : (y < z ? y : z)) -
			    (x > y ? (x > z ? x : z) : (y > z ? y : z));
		r = (uint32_t)m & 0xffff;
		break;
	}
	case 0x1f6: case 0x1f9: case 0x1fc: {
		unsigned x = v[0], y = v[1], z = v[2], lo, hi;
		lo = x < y ? (x < z ? x : z) : (y < z ? y : z);
		hi = x > y ? (x > z ? x : z) : (y > z ? y : z);
		r = f->op == 0x1f6 ? lo : f->op == 0x1f9 ? hi : x + y + z - lo - hi;
		break;
	}
	default: { /* f16 */
		uint16_t h;
		if (f->op == 0x1f4) {
			h = hmin(hmin(v[0], v[1]), v[2]);
		} else if (f->op == 0x1f7) {
			h = hmax(hmax(v[0], v[1]), v[2]);
		} else if (hnan(v[0]) || hnan(v[1]) || hnan(v[2])) {
			h = hmin(hmin(v[0], v[1]), v[2]);
		} else {
			uint16_t mx = hmax(hmax(v[0], v[1]), v[2]);
			h = mx == v[0] ? hmax(v[1], v[2]) : mx == v[1] ? hmax(v[0], v[2]) : hmax(v[0], v[1]);
		}
		if (hnan(h))
			h |= 0x200;
		if (f->ftz && hdenorm(h))
			h &= 0x8000;
		if (f->clamp) {
			float x = h2f(h);
			h = (isnan(x) || x < 0) ? 0 : x > 1 ? 0x3c00 : h;
		}
		r = h;
		break;
	}
	}
	return (f->opsel & 8) ? (d & 0xffff) | (r << 16) : r;
}

/* ---- the forms of kernels/vop16.s ---- */

#define PK(n, o, s, sh, c) { n, PK_INT, o, s, sh, 0, 0, c, false, 0, 0, 0, false }
#define MX(n, o, s, sh, ng, ab, c, z) { n, MIX, o, s, sh, ng, ab, c, z, 0, 0, 0, false }
#define V3(n, o, s, ng, ab, c, z) { n, V3_16, o, s, 0, ng, ab, c, z, 0, 0, 0, false }

static const struct form forms[] = {
	PK("pk_mad_i16", 0x00, 0, 7, false),
	PK("pk_mad_i16_c", 0x00, 0, 7, true),
	PK("pk_mul_lo_u16", 0x01, 1, 2, false),
	PK("pk_add_i16", 0x02, 0, 3, false),
	PK("pk_add_i16_c", 0x02, 0, 3, true),
	PK("pk_sub_i16_c", 0x03, 2, 3, true),
	PK("pk_lshlrev_b16", 0x04, 0, 3, false),
	PK("pk_lshrrev_b16", 0x05, 0, 2, false),
	PK("pk_ashrrev_i16", 0x06, 0, 3, false),
	PK("pk_max_i16", 0x07, 0, 3, false),
	PK("pk_min_i16", 0x08, 3, 0, false),
	PK("pk_mad_u16", 0x09, 6, 7, false),
	PK("pk_mad_u16_c", 0x09, 0, 7, true),
	PK("pk_add_u16", 0x0a, 0, 3, false),
	PK("pk_add_u16_c", 0x0a, 1, 3, true),
	{ "pk_add_u16_s", PK_INT, 0x0a, 0, 3, 0, 0, false, false, 1, 0, 0, false },
	{ "pk_add_u16_k", PK_INT, 0x0a, 0, 3, 0, 0, false, false, 2, 1, 0, false },
	PK("pk_sub_u16", 0x0b, 0, 3, false),
	PK("pk_sub_u16_c", 0x0b, 0, 3, true),
	PK("pk_max_u16", 0x0c, 0, 3, false),
	PK("pk_min_u16", 0x0d, 0, 1, false),
	MX("fma_mix_f32", 0x20, 0, 0, 0, 0, false, false),
	MX("fma_mix_f32_h", 0x20, 5, 7, 0, 0, false, false),
	MX("fma_mix_f32_m", 0x20, 2, 5, 5, 6, false, false),
	MX("fma_mix_f32_c", 0x20, 0, 3, 0, 0, true, false),
	MX("fma_mix_f32_ftz", 0x20, 0, 5, 0, 0, false, true),
	{ "fma_mix_f32_k", MIX, 0x20, 0, 7, 0, 0, false, false, 2, 0x3c00, 0, false },
	MX("fma_mixlo_f16", 0x21, 0, 7, 0, 0, false, false),
	MX("fma_mixlo_f16_f32", 0x21, 0, 0, 0, 0, false, false),
	MX("fma_mixlo_f16_m", 0x21, 3, 3, 5, 1, true, false),
	MX("fma_mixlo_f16_ftz", 0x21, 0, 7, 0, 0, false, true),
	{ "fma_mixlo_f16_s", MIX, 0x21, 0, 7, 0, 0, false, false, 1, 0, 0, false },
	MX("fma_mixhi_f16", 0x22, 4, 7, 0, 0, false, false),
	MX("fma_mixhi_f16_f32", 0x22, 0, 2, 0, 0, true, false),
	V3("min3_i16", 0x1f5, 0, 0, 0, false, false),
	V3("min3_i16_h", 0x1f5, 0xd, 0, 0, false, false),
	{ "min3_i16_k", V3_16, 0x1f5, 0, 0, 0, 0, false, false, 2, 0xffffffff, 5, true },
	V3("min3_u16", 0x1f6, 2, 0, 0, false, false),
	V3("max3_i16", 0x1f8, 0, 0, 0, false, false),
	V3("max3_u16", 0x1f9, 0xf, 0, 0, false, false),
	V3("med3_i16", 0x1fb, 0, 0, 0, false, false),
	{ "med3_i16_s", V3_16, 0x1fb, 4, 0, 0, 0, false, false, 1, 0, 0, false },
	V3("med3_u16", 0x1fc, 0, 0, 0, false, false),
	V3("min3_f16", 0x1f4, 0, 0, 0, false, false),
	V3("max3_f16", 0x1f7, 9, 0, 0, false, false),
	V3("med3_f16", 0x1fa, 0, 0, 0, false, false),
	V3("med3_f16_m", 0x1fa, 6, 1, 2, true, false),
	V3("med3_f16_ftz", 0x1fa, 0, 0, 0, false, true),
};

/* ---- inputs ---- */

static uint32_t rng_state;
static uint32_t rnd(void)
{
	/* xorshift32: reproducible across hosts */
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

static const uint16_t edge16[] = { 0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfe01,
	0x0001, 0x83ff, 0x03ff, 0x0400, 0x7bff, 0xfbff, 0x3c00, 0xbc00, 0x3800, 0x3bff,
	0x7fff, 0x8001, 0xffff, 0x0002, 0x000f, 0x0010, 0x0011, 0x4000, 0xc000 };
static const uint32_t edge32[] = { 0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000,
	0x7f800001, 0x00000001, 0x807fffff, 0x3f800000, 0xbf800000, 0x477fe000, 0x477ff000,
	0x33800000, 0x33000000, 0x387fc000, 0x3f7fffff, 0x3f800001 };

static uint16_t gen16(void)
{
	uint32_t k = rnd() % 4;
	if (k == 0)
		return edge16[rnd() % (sizeof(edge16) / sizeof(edge16[0]))];
	if (k == 1) /* moderate f16 values, so that sums and products stay finite */
		return (uint16_t)((rnd() & 0x83ff) | ((10 + rnd() % 10) << 10));
	return (uint16_t)rnd();
}

static uint32_t gen32(void)
{
	uint32_t k = rnd() % 4;
	if (k == 0)
		return edge32[rnd() % (sizeof(edge32) / sizeof(edge32[0]))];
	if (k == 1) /* near the f16 range, where mixlo's rounding matters */
		return (rnd() & 0x807fffff) | ((100 + rnd() % 50) << 23);
	return (uint32_t)gen16() | ((uint32_t)gen16() << 16);
}

/* ---- the test ---- */

static unsigned check_form(const struct form *f)
{
	uint32_t *in = hx_alloc(NLANES * 16), *out = hx_alloc(NLANES * 4);
	uint64_t args[2] = { (uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out };
	unsigned bad = 0, changed = 0;

	load();
	for (unsigned seed = 0; seed < NSEEDS; seed++) {
		struct hx_launch l = { .gfx = KEMU_ISA_GFX90A, .args = args, .args_size = 16,
				       .grid = { NLANES, 1, 1 }, .wg = { NLANES, 1, 1 } };
		struct kemu_isa_error err;
		int rc;

		rng_state = 0x9e3779b9u ^ (seed * 0x85ebca6bu) ^ (f->op * 0xc2b2ae35u) ^ (uint32_t)strlen(f->name);
		for (unsigned i = 0; i < NLANES * 4; i++)
			in[i] = gen32();
		l.kd = hx_kd(&code, f->name);
		ck_assert_msg(l.kd != 0, "no %s.kd", f->name);
		rc = hx_run(&l, &err);
		ck_assert_msg(rc == 0, "%s: %s: %s", f->name, kemu_isa_error_name(err.kind), err.message);
		for (unsigned i = 0; i < NLANES; i++) {
			const uint32_t *v = in + 4 * i;
			uint32_t s[3] = { v[0], v[1], v[2] }, want;
			if (f->bsrc == 1)
				s[1] = in[4 * (i & ~63u) + 1];
			else if (f->bsrc == 2)
				s[1] = f->kb;
			if (f->kc_used)
				s[2] = f->kc;
			want = f->kind == PK_INT ? model_pk_int(f, s) :
			       f->kind == MIX ? model_mix(f, s, v[3]) : model_v3_16(f, s, v[3]);
			if (out[i] != v[3])
				changed++;
			if (out[i] != want && bad++ < 5)
				fprintf(stderr, "%s lane %u: a %08x b %08x c %08x d %08x: got %08x, model %08x\n",
					f->name, i, s[0], s[1], s[2], v[3], out[i], want);
		}
	}
	/* the instruction did write its destination */
	ck_assert_msg(changed > NLANES, "%s: only %u lanes changed", f->name, changed);
	hx_free(in);
	hx_free(out);
	return bad;
}

static void check_kind(enum kind k)
{
	unsigned bad = 0, n = 0;
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		if (forms[i].kind != k)
			continue;
		bad += check_form(&forms[i]);
		n++;
	}
	ck_assert_msg(n > 0, "no forms");
	ck_assert_msg(bad == 0, "%u lanes differ from the model (first ones above)", bad);
}

START_TEST(test_packed_int16_ops_match_model)
{
	check_kind(PK_INT);
}
END_TEST

START_TEST(test_fma_mix_ops_match_model)
{
	check_kind(MIX);
}
END_TEST

START_TEST(test_min3_max3_med3_16bit_match_model)
{
	check_kind(V3_16);
}
END_TEST

/* The model itself, on values worked by hand, so a wrong model cannot
 * agree with a wrong interpreter unnoticed. */
START_TEST(test_model_hand_values)
{
	const struct form add_c = PK("x", 0x0a, 0, 3, true), sub_i = PK("x", 0x03, 0, 3, true);
	const struct form mixlo = MX("x", 0x21, 0, 7, 0, 0, false, false);
	const struct form mixf = MX("x", 0x20, 1, 1, 0, 2, false, false);
	const struct form med = V3("x", 0x1fb, 0, 0, 0, false, false);
	const struct form fmin = V3("x", 0x1f4, 8, 0, 0, false, false);
	uint32_t s[3];

	s[0] = 0xfff00001; s[1] = 0x00200002; s[2] = 0;
	ck_assert_uint_eq(model_pk_int(&add_c, s), 0xffff0003);     /* saturated high half */
	s[0] = 0x80000000; s[1] = 0x00010001; s[2] = 0;
	ck_assert_uint_eq(model_pk_int(&sub_i, s), 0x8000ffff);     /* -32768 - 1 clamps */
	s[0] = 0x3c00; s[1] = 0x4000; s[2] = 0x3800;                /* 1 * 2 + 0.5 = 2.5 */
	ck_assert_uint_eq(model_mix(&mixlo, s, 0xabcd1234), 0xabcd4100);
	s[0] = 0x40000000; s[1] = 0xc0400000; s[2] = 0x3f800000;    /* f16 hi 2.0, |-3.0|, 1 */
	ck_assert_uint_eq(model_mix(&mixf, s, 0), 0x40e00000);      /* 7.0 */
	s[0] = 0xffff; s[1] = 5; s[2] = 0x8000;                     /* -1, 5, -32768 */
	ck_assert_uint_eq(model_v3_16(&med, s, 0xffffffff), 0xffff);
	/* min(min(sNaN, 1), 2): the quieted sNaN, then min(qNaN, 2) = 2 (the
	 * ISA's V_MIN_F16(V_MIN_F16(S0, S1), S2)), into the high half */
	s[0] = 0x7c01; s[1] = 0x3c00; s[2] = 0x4000;
	ck_assert_uint_eq(model_v3_16(&fmin, s, 0x1234), 0x40001234);
}
END_TEST

static Suite *vop16_suite(void)
{
	Suite *s = suite_create("isa_vop16");
	TCase *tc = tcase_create("vop16");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_model_hand_values);
	tcase_add_test(tc, test_packed_int16_ops_match_model);
	tcase_add_test(tc, test_fma_mix_ops_match_model);
	tcase_add_test(tc, test_min3_max3_med3_16bit_match_model);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(vop16_suite)
