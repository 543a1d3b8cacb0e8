/*
 * test_isa_valu_misc.c — the smaller VALU instructions against a host
 * model: v_nop, the byte ops v_lerp_u8 / v_sad_hi_u8 / v_msad_u8, the
 * packing conversions v_cvt_pk_u8_f32 / v_cvt_pknorm_{i16,u16}_f32 /
 * v_sat_pk_u8_i16 / v_cvt_off_f32_i4, and the f16 ops v_frexp_mant_f16,
 * v_frexp_exp_i16_f16, v_mad_f16 and v_div_fixup_f16.  Kernels are
 * kernels/valu_misc.s (one instruction each, on 256 lanes of generated
 * inputs, 4 seeds); the model is written here from the CDNA2 ISA guide's
 * descriptions, with the host's _Float16 for binary16:
 *   - float -> u8/norm16 conversions: NaN gives 0, values saturate, then
 *     round to nearest even (the MODE default);
 *   - v_mad_f16 rounds the product to f16 before the add (it is not fused);
 *   - v_frexp_mant_f16 passes infinities and NaNs through (NaNs quieted),
 *     v_frexp_exp_i16_f16 gives 0 for them;
 *   - v_div_fixup_f16 (quotient S0, denominator S1, numerator S2): a NaN
 *     numerator or denominator gives it quieted, 0/0 and inf/inf the
 *     default NaN, x/0 and inf/x infinity, x/inf and 0/x zero (signs
 *     xor'ed), an exponent difference below -25 zero, else |S0| with the
 *     sign of S1 xor S2 (a NaN quotient quieted, as every f16 result);
 *   - 16-bit results are zero-extended into D;
 *   - the integer dot products sum S2 (D for the dot*c forms) and the
 *     products of S0's and S1's elements (element 0 in the low bits, signed
 *     or unsigned), wrapping, or saturating with CLAMP.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hl_check.h"
#include "isa_harness.h"

#define NLANES 256

static struct hx_code code;
static bool loaded;

static float fb(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t ub(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static double h2d(uint32_t h)
{
	_Float16 x;
	uint16_t v = (uint16_t)h;
	memcpy(&x, &v, 2);
	return (double)x;
}
static uint32_t d2h(double d)
{
	_Float16 x = (_Float16)d;
	uint16_t v;
	memcpy(&v, &x, 2);
	return v;
}
static bool hnan(uint32_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff); }

static uint32_t m_nop(const uint32_t *v) { return v[3]; }

static uint32_t m_lerp(const uint32_t *v)
{
	uint32_t o = 0;
	for (int k = 0; k < 4; k++) {
		uint32_t s = ((v[0] >> (8 * k)) & 255) + ((v[1] >> (8 * k)) & 255) + ((v[2] >> (8 * k)) & 1);
		o |= (s / 2) << (8 * k);
	}
	return o;
}

static uint32_t sad(uint32_t a, uint32_t b, bool masked)
{
	uint32_t s = 0;
	for (int k = 0; k < 4; k++) {
		int x = (int)((a >> (8 * k)) & 255), y = (int)((b >> (8 * k)) & 255);
		if (!masked || y)
			s += (uint32_t)abs(x - y);
	}
	return s;
}
static uint32_t m_sad_hi(const uint32_t *v) { return (sad(v[0], v[1], false) << 16) + v[2]; }
static uint32_t m_msad(const uint32_t *v) { return sad(v[0], v[1], true) + v[2]; }

static uint32_t m_pk_u8(const uint32_t *v)
{
	float x = fb(v[0]);
	uint32_t b = isnan(x) ? 0 : (uint32_t)rintf(fminf(fmaxf(x, 0.0f), 255.0f));
	unsigned sh = 8 * (v[1] % 4);
	return (v[2] & ~(255u << sh)) | (b << sh);
}

static uint32_t norm16(float x, bool sgn)
{
	if (isnan(x))
		return 0;
	if (sgn)
		return (uint32_t)(int32_t)rintf(fminf(fmaxf(x, -1.0f), 1.0f) * 32767.0f) & 0xffff;
	return (uint32_t)rintf(fminf(fmaxf(x, 0.0f), 1.0f) * 65535.0f);
}
static uint32_t m_pknorm_i16(const uint32_t *v) { return norm16(fb(v[0]), true) | norm16(fb(v[1]), true) << 16; }
static uint32_t m_pknorm_u16(const uint32_t *v) { return norm16(fb(v[0]), false) | norm16(fb(v[1]), false) << 16; }

static uint32_t sat8(int x) { return x < 0 ? 0 : x > 255 ? 255 : (uint32_t)x; }
static uint32_t m_sat_pk(const uint32_t *v) { return sat8((int16_t)v[0]) | sat8((int16_t)(v[0] >> 16)) << 8; }

static uint32_t m_off_i4(const uint32_t *v)
{
	static const float tab[16] = { 0, 0.0625f, 0.125f, 0.1875f, 0.25f, 0.3125f, 0.375f, 0.4375f,
		-0.5f, -0.4375f, -0.375f, -0.3125f, -0.25f, -0.1875f, -0.125f, -0.0625f };
	return ub(tab[v[0] & 15]);
}

static uint32_t m_frexp_mant(const uint32_t *v)
{
	uint32_t h = v[0] & 0xffff;
	int e;
	if ((h & 0x7c00) == 0x7c00)
		return hnan(h) ? h | 0x200 : h;
	return d2h(frexp(h2d(h), &e));
}

static uint32_t m_frexp_exp(const uint32_t *v)
{
	uint32_t h = v[0] & 0xffff;
	int e = 0;
	if ((h & 0x7c00) != 0x7c00)
		(void)frexp(h2d(h), &e);
	return (uint32_t)e & 0xffff;
}

static uint32_t m_mad_f16(const uint32_t *v)
{
	uint32_t p = d2h(h2d(v[0]) * h2d(v[1])), r = d2h(h2d(p) + h2d(v[2]));
	return hnan(r) ? 0x7e00 : r; /* no NaN input: an invalid operation */
}

static uint32_t m_div_fixup_f16(const uint32_t *v)
{
	uint32_t q = v[0] & 0xffff, d = v[1] & 0xffff, n = v[2] & 0xffff, s = (d ^ n) & 0x8000;
	double fd = h2d(d), fn = h2d(n);
	if (hnan(n))
		return n | 0x200;
	if (hnan(d))
		return d | 0x200;
	if ((fd == 0 && fn == 0) || (isinf(fd) && isinf(fn)))
		return 0x7e00;
	if (fd == 0 || isinf(fn))
		return s | 0x7c00;
	if (isinf(fd) || fn == 0)
		return s;
	if ((int)(n >> 10 & 31) - (int)(d >> 10 & 31) < -25)
		return s;
	q = s | (q & 0x7fff);
	return hnan(q) ? q | 0x200 : q; /* f16 results are quiet NaNs */
}

/* dot products: bits per element, signedness, accumulator from S2 or D */
static uint32_t dot(const uint32_t *v, unsigned bits, bool sgn, bool clamp, bool acc_d)
{
	long long sum = sgn ? (long long)(int32_t)v[acc_d ? 3 : 2] : (long long)v[acc_d ? 3 : 2];
	for (unsigned k = 0; k < 32 / bits; k++) {
		long long x = (v[0] >> (k * bits)) & ((1u << bits) - 1);
		long long y = (v[1] >> (k * bits)) & ((1u << bits) - 1);
		if (sgn) {
			if (x >> (bits - 1))
				x -= 1ll << bits;
			if (y >> (bits - 1))
				y -= 1ll << bits;
		}
		sum += x * y;
	}
	if (clamp && sgn)
		sum = sum > 2147483647ll ? 2147483647ll : sum < -2147483648ll ? -2147483648ll : sum;
	if (clamp && !sgn && sum > 4294967295ll)
		sum = 4294967295ll;
	return (uint32_t)sum;
}
static uint32_t m_dot2_i16(const uint32_t *v) { return dot(v, 16, true, false, false); }
static uint32_t m_dot2_u16_c(const uint32_t *v) { return dot(v, 16, false, true, false); }
static uint32_t m_dot4_i8_c(const uint32_t *v) { return dot(v, 8, true, true, false); }
static uint32_t m_dot4_u8(const uint32_t *v) { return dot(v, 8, false, false, false); }
static uint32_t m_dot8_i4(const uint32_t *v) { return dot(v, 4, true, false, false); }
static uint32_t m_dot8_u4_c(const uint32_t *v) { return dot(v, 4, false, true, false); }
static uint32_t m_dot2c_i16(const uint32_t *v) { return dot(v, 16, true, false, true); }
static uint32_t m_dot4c_i8(const uint32_t *v) { return dot(v, 8, true, false, true); }
static uint32_t m_dot8c_i4(const uint32_t *v) { return dot(v, 4, true, false, true); }

/* v_madmk/madak_f32 (gfx90a: v_mad_f32): denormal inputs and results are
 * flushed (mad has no denormal support), the product is rounded to f32
 * before the add. */
static uint32_t flush(uint32_t u) { return (u & 0x7f800000) ? u : u & 0x80000000; }
static uint32_t mad32(uint32_t a, uint32_t b, uint32_t c)
{
	float p = fb(flush(a)) * fb(flush(b));
	return flush(ub(p + fb(flush(c))));
}
static uint32_t m_madmk_f32(const uint32_t *v) { return mad32(v[0], 0x40400000, v[1]); }
static uint32_t m_madak_f32(const uint32_t *v) { return mad32(v[0], v[1], 0x3f000000); }
static uint32_t mad16(uint32_t a, uint32_t b, uint32_t c)
{
	uint32_t r = d2h(h2d(d2h(h2d(a) * h2d(b))) + h2d(c));
	return hnan(r) ? 0x7e00 : r;
}
static uint32_t m_madmk_f16(const uint32_t *v) { return mad16(v[0], 0x4200, v[1]); }
static uint32_t m_madak_f16(const uint32_t *v) { return mad16(v[0], v[1], 0xb800); }
/* v_pk_fmac_f16: each half fused, rounded once */
static uint32_t m_pk_fmac(const uint32_t *v)
{
	uint32_t o = 0;
	for (int k = 0; k < 2; k++) {
		uint32_t r = d2h(fma(h2d(v[0] >> (16 * k)), h2d(v[1] >> (16 * k)), h2d(v[3] >> (16 * k))));
		o |= (hnan(r) ? 0x7e00 : r) << (16 * k);
	}
	return o;
}

/* f16 -> snorm16/unorm16 (NaN 0, clamp, scale, round to even) */
static uint32_t hnorm(uint32_t h, bool sgn)
{
	double x = h2d(h);
	if (isnan(x))
		return 0;
	if (sgn)
		return (uint32_t)(int32_t)rint(fmin(fmax(x, -1.0), 1.0) * 32767.0) & 0xffff;
	return (uint32_t)rint(fmin(fmax(x, 0.0), 1.0) * 65535.0);
}
static uint32_t m_norm_i16(const uint32_t *v) { return hnorm(v[0], true); }
static uint32_t m_norm_u16(const uint32_t *v) { return hnorm(v[0], false); }
static uint32_t m_pknorm_i16_f16(const uint32_t *v) /* op_sel:[1,0]: S0's high half */
{
	return hnorm(v[0] >> 16, true) | hnorm(v[1], true) << 16;
}
static uint32_t m_pknorm_u16_f16(const uint32_t *v) /* -S1 */
{
	return hnorm(v[0], false) | hnorm((v[1] & 0xffff) ^ 0x8000, false) << 16;
}

enum gen_kind { G_BITS, G_F32, G_F16, G_DOT, G_F32N, G_F16P };
static const struct form {
	const char *name;
	uint32_t (*model)(const uint32_t *v);
	enum gen_kind gen;
} forms[] = {
	{ "nop", m_nop, G_BITS },
	{ "lerp_u8", m_lerp, G_BITS },
	{ "sad_hi_u8", m_sad_hi, G_BITS },
	{ "msad_u8", m_msad, G_BITS },
	{ "cvt_pk_u8_f32", m_pk_u8, G_F32 },
	{ "cvt_pknorm_i16_f32", m_pknorm_i16, G_F32 },
	{ "cvt_pknorm_u16_f32", m_pknorm_u16, G_F32 },
	{ "sat_pk_u8_i16", m_sat_pk, G_BITS },
	{ "cvt_off_f32_i4", m_off_i4, G_BITS },
	{ "frexp_mant_f16", m_frexp_mant, G_F16 },
	{ "frexp_exp_i16_f16", m_frexp_exp, G_F16 },
	{ "mad_f16", m_mad_f16, G_F16 },
	{ "div_fixup_f16", m_div_fixup_f16, G_F16 },
	{ "dot2_i32_i16", m_dot2_i16, G_DOT },
	{ "dot2_u32_u16_c", m_dot2_u16_c, G_DOT },
	{ "dot4_i32_i8_c", m_dot4_i8_c, G_DOT },
	{ "dot4_u32_u8", m_dot4_u8, G_DOT },
	{ "dot8_i32_i4", m_dot8_i4, G_DOT },
	{ "dot8_u32_u4_c", m_dot8_u4_c, G_DOT },
	{ "dot2c_i32_i16", m_dot2c_i16, G_DOT },
	{ "dot4c_i32_i8", m_dot4c_i8, G_DOT },
	{ "dot8c_i32_i4", m_dot8c_i4, G_DOT },
	{ "madmk_f32", m_madmk_f32, G_F32N },
	{ "madak_f32", m_madak_f32, G_F32N },
	{ "madmk_f16", m_madmk_f16, G_F16 },
	{ "madak_f16", m_madak_f16, G_F16 },
	{ "pk_fmac_f16", m_pk_fmac, G_F16P },
	{ "cvt_norm_i16_f16", m_norm_i16, G_F16 },
	{ "cvt_norm_u16_f16", m_norm_u16, G_F16 },
	{ "cvt_pknorm_i16_f16", m_pknorm_i16_f16, G_F16P },
	{ "cvt_pknorm_u16_f16", m_pknorm_u16_f16, G_F16P },
};

static uint32_t rng;
static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

static uint32_t gen(enum gen_kind g, unsigned word)
{
	static const uint32_t f32_edge[] = { 0x7fc00000, 0xff800000, 0x7f800000, 0x3f800000,
		0xbf800000, 0x3f000000, 0x437f0000, 0x437f8000, 0x3effffff, 0x80000000, 0x3b000000 };
	static const uint16_t f16_edge[] = { 0x0000, 0x8000, 0x7c00, 0xfc00, 0x0001, 0x83ff,
		0x3c00, 0x7bff, 0x0400, 0x7e00, 0x7c01 };
	uint32_t x = rnd();
	switch (g) {
	case G_F32:
		if (word == 1 && rnd() % 2) /* S1 of cvt_pk_u8: a byte index */
			return rnd() % 8;
		if (rnd() % 4 == 0)
			return f32_edge[rnd() % (sizeof(f32_edge) / sizeof(f32_edge[0]))];
		return (x & 0x807fffff) | ((110 + rnd() % 30) << 23); /* around [-256, 256] */
	case G_F16: {
		uint32_t h = rnd() % 4 == 0 ? f16_edge[rnd() % (sizeof(f16_edge) / sizeof(f16_edge[0]))]
					    : (x & 0xffff);
		return (rnd() & 0xffff0000) | h;
	}
	case G_F32N: /* finite, with denormals (mad flushes them) */
		if (rnd() % 8 == 0)
			return (x & 0x807fffff) | (rnd() % 2 ? 0 : 0x00800000);
		return (x & 0x807fffff) | ((100 + rnd() % 50) << 23);
	case G_F16P: { /* two non-NaN halves */
		uint32_t h = x;
		if ((h & 0x7c00) == 0x7c00)
			h &= ~0x4000u;
		if ((h & 0x7c000000) == 0x7c000000)
			h &= ~0x40000000u;
		return h;
	}
	case G_DOT: /* extreme elements and accumulators near the saturation points */
		if (rnd() % 4 == 0)
			return rnd() % 2 ? 0x80808080u : 0x7fff7fffu;
		if (word >= 2 && rnd() % 2)
			return rnd() % 2 ? 0x7ffffff0u + rnd() % 16 : 0x80000000u + rnd() % 16;
		return x;
	default:
		return rnd() % 8 == 0 ? 0 : x;
	}
}

static bool no_nan_inputs(const struct form *f)
{
	return f->model == m_mad_f16 || f->model == m_madmk_f16 || f->model == m_madak_f16;
}

START_TEST(test_valu_misc_match_model)
{
	char path[600];
	uint32_t *in = hx_alloc(NLANES * 16), *out = hx_alloc(NLANES * 4);
	uint64_t args[2] = { (uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out };
	unsigned bad = 0;

	if (!loaded) {
		ck_assert_msg(hx_kernel_path("valu_misc", KEMU_ISA_GFX90A, path, sizeof(path)) != NULL,
			      "valu_misc-gfx90a.co not built");
		ck_assert_int_eq(hx_load(&code, path), 0);
		loaded = true;
	}
	for (size_t k = 0; k < sizeof(forms) / sizeof(forms[0]); k++) {
		const struct form *f = &forms[k];
		unsigned changed = 0;
		for (unsigned seed = 1; seed <= 4; seed++) {
			struct hx_launch l = { .gfx = KEMU_ISA_GFX90A, .args = args, .args_size = 16,
					       .grid = { NLANES, 1, 1 }, .wg = { NLANES, 1, 1 } };
			struct kemu_isa_error err;
			rng = seed * 0x9e3779b9u + (uint32_t)k * 0x7feb352du;
			for (unsigned i = 0; i < NLANES * 4; i++) {
				in[i] = gen(f->gen, i % 4);
				while (no_nan_inputs(f) && hnan(in[i]))
					in[i] = gen(f->gen, i % 4);
			}
			l.kd = hx_kd(&code, f->name);
			ck_assert_msg(l.kd != 0, "no %s.kd", f->name);
			ck_assert_msg(hx_run(&l, &err) == 0, "%s: %s: %s", f->name,
				      kemu_isa_error_name(err.kind), err.message);
			for (unsigned i = 0; i < NLANES; i++) {
				uint32_t want = f->model(in + 4 * i);
				changed += out[i] != in[4 * i + 3];
				if (out[i] != want && bad++ < 8)
					fprintf(stderr, "%s lane %u: %08x %08x %08x %08x: got %08x, model %08x\n",
						f->name, i, in[4 * i], in[4 * i + 1], in[4 * i + 2],
						in[4 * i + 3], out[i], want);
			}
		}
		/* every instruction but v_nop writes its destination */
		if (f->model == m_nop)
			ck_assert_uint_eq(changed, 0);
		else
			ck_assert_msg(changed > NLANES, "%s: only %u lanes changed", f->name, changed);
	}
	ck_assert_msg(bad == 0, "%u lanes differ from the model", bad);
	hx_free(in);
	hx_free(out);
}
END_TEST

START_TEST(test_model_hand_values)
{
	uint32_t v[4] = { 0x3f000000, 0, 0x11223344, 0 }; /* 0.5 rounds to even: 0 */
	ck_assert_uint_eq(m_pk_u8(v), 0x11223300);
	v[0] = 0x3fc00000; v[1] = 2;                       /* 1.5 -> 2 into byte 2 */
	ck_assert_uint_eq(m_pk_u8(v), 0x11023344);
	v[0] = 0xbf800000; v[1] = 0x7fc00000;              /* -1 -> -32767, NaN -> 0 */
	ck_assert_uint_eq(m_pknorm_i16(v), 0x00008001);
	v[0] = 0x0100ff80;                                 /* -128 -> 0, 256 -> 255 */
	ck_assert_uint_eq(m_sat_pk(v), 0xff00);
	v[0] = 0x4800;                                     /* 8.0 = 0.5 * 2^4 */
	ck_assert_uint_eq(m_frexp_mant(v), 0x3800);
	ck_assert_uint_eq(m_frexp_exp(v), 4);
	v[0] = 0xff00ff00; v[1] = 0x00ff00ff; v[2] = 0x00000101;
	ck_assert_uint_eq(m_lerp(v), 0x7f7f8080);
	v[0] = 0x00028001; v[1] = 0x0003ffff; v[2] = 10;            /* 2*3 + (-32767)(-1) + 10 */
	ck_assert_uint_eq(m_dot2_i16(v), 32783);
	v[0] = 0x7f7f7f7f; v[1] = 0x7f7f7f7f; v[2] = 0x7fffffff;    /* saturates */
	ck_assert_uint_eq(m_dot4_i8_c(v), 0x7fffffff);
}
END_TEST

static Suite *valu_misc_suite(void)
{
	Suite *s = suite_create("isa_valu_misc");
	TCase *tc = tcase_create("valu_misc");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_model_hand_values);
	tcase_add_test(tc, test_valu_misc_match_model);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(valu_misc_suite)
