/*
 * isa_exec_vfp.c — VALU floating point: f32 and f64 arithmetic, the
 * division helpers (v_div_scale/fmas/fixup), transcendentals and the
 * conversions (CDNA2/CDNA3 ISA guides; pseudo-code of the division
 * helpers as AMD documents it for V_DIV_SCALE/V_DIV_FMAS/V_DIV_FIXUP).
 *
 * Semantics kept from the guides:
 *  - input modifiers: abs clears and neg flips the sign bit (applied to
 *    the raw bits, so they work on NaNs too); output modifiers: omod
 *    (x2, x4, /2) then clamp to [0, 1] (NaN -> 0 with DX10_CLAMP);
 *  - MODE.FP_DENORM: when bit 0 of the type's field is clear, denormal
 *    inputs are flushed to signed zero; when bit 1 is clear, denormal
 *    results are; v_mad_f32/v_mac_f32 never keep denormals (the gfx9
 *    guides: "denormals not supported");
 *  - v_min/v_max: in IEEE mode a signalling NaN input gives a quiet NaN,
 *    otherwise a NaN input returns the other operand; -0 < +0;
 *  - a NaN generated from non-NaN inputs is the positive default quiet
 *    NaN (0x7fc00000 / 0x7ff8000000000000);
 *  - float -> int: NaN -> 0, saturate, truncate (v_cvt_flr and v_cvt_rpi
 *    round first);
 *  - v_rcp/v_rsq/v_sqrt/v_exp/v_log/v_sin/v_cos: the hardware is within
 *    1 ULP (the guides' bounds); here they are computed in double and
 *    rounded once, so they are within 0.5 ULP of the true value —
 *    inside the hardware's bound, not bit-identical to it.  v_rcp_f64 /
 *    v_rsq_f64 / v_sqrt_f64 are correctly rounded (hardware: about 2^-51
 *    relative before the compiler's Newton steps).
 */
#include <fenv.h>
#include <float.h>
#include <math.h>
#include <stdatomic.h>
#include <string.h>

#include "isa_float.h"
#include "isa_valu.h"

#define L for (unsigned l = 0; l < ISA_LANES; l++)

ISA_HOT void isa_fetch_f32(struct isa_wave *w, const struct isa_opnd *o, uint32_t *buf)
{
	uint32_t tmp[ISA_LANES];
	const uint32_t *s = isa_vsrc32(w, o, tmp);
	uint32_t andm = o->abs ? 0x7fffffffu : ~0u, xorm = o->neg ? 0x80000000u : 0;
	L buf[l] = (s[l] & andm) ^ xorm;
}

ISA_HOT void isa_fetch_f64(struct isa_wave *w, const struct isa_opnd *o, uint64_t *buf)
{
	uint64_t andm = o->abs ? 0x7fffffffffffffffull : ~0ull;
	uint64_t xorm = o->neg ? 0x8000000000000000ull : 0;
	isa_vsrc64(w, o, buf);
	if (o->abs | o->neg) {
		L buf[l] = (buf[l] & andm) ^ xorm;
	}
}

/* Fused multiply-add over 64 lanes.  fmaf()/fma() are exact (IEEE
 * fusedMultiplyAdd) on any host, but without hardware FMA in the baseline
 * x86-64 ISA each lane is a libm call; when the CPU has FMA the lanes are
 * computed by a copy of the loop compiled for it (same results: both are
 * the correctly rounded fused operation). */
__attribute__((target("avx2,fma"))) static void fma32_lanes_hw(const uint32_t *a,
		const uint32_t *b, const uint32_t *c, uint32_t *r)
{
	L r[l] = u32_of(__builtin_fmaf(f32_of(a[l]), f32_of(b[l]), f32_of(c[l])));
}
static void fma32_lanes_sw(const uint32_t *a, const uint32_t *b, const uint32_t *c, uint32_t *r)
{
	L r[l] = u32_of(fmaf(f32_of(a[l]), f32_of(b[l]), f32_of(c[l])));
}
__attribute__((target("avx2,fma"))) static void fma64_lanes_hw(const uint64_t *a,
		const uint64_t *b, const uint64_t *c, uint64_t *r)
{
	L r[l] = u64_of(__builtin_fma(f64_of(a[l]), f64_of(b[l]), f64_of(c[l])));
}
static void fma64_lanes_sw(const uint64_t *a, const uint64_t *b, const uint64_t *c, uint64_t *r)
{
	L r[l] = u64_of(fma(f64_of(a[l]), f64_of(b[l]), f64_of(c[l])));
}
static bool host_has_fma(void)
{
	/* 0 unknown, 1 no, 2 yes; threads may compute it concurrently, with
	 * the same answer (relaxed atomics: no data race) */
	static _Atomic int known;
	int k = atomic_load_explicit(&known, memory_order_relaxed);
	if (!k) {
		k = (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) ? 2 : 1;
		atomic_store_explicit(&known, k, memory_order_relaxed);
	}
	return k == 2;
}
void isa_fma32_lanes(const uint32_t *a, const uint32_t *b, const uint32_t *c, uint32_t *r)
{
	if (host_has_fma())
		fma32_lanes_hw(a, b, c, r);
	else
		fma32_lanes_sw(a, b, c, r);
}
static void fma64_lanes(const uint64_t *a, const uint64_t *b, const uint64_t *c, uint64_t *r)
{
	if (host_has_fma())
		fma64_lanes_hw(a, b, c, r);
	else
		fma64_lanes_sw(a, b, c, r);
}

static inline uint32_t quiet32(uint32_t u) { return u | 0x400000u; }
static inline uint64_t quiet64(uint64_t u) { return u | 0x8000000000000ull; }

static uint32_t fmin32(uint32_t a, uint32_t b, bool ieee)
{
	float x = f32_of(a), y = f32_of(b);
	if (isnan(x) || isnan(y)) {
		if (ieee && is_snan32(a))
			return quiet32(a);
		if (ieee && is_snan32(b))
			return quiet32(b);
		return isnan(x) ? b : a;
	}
	if (x == y)
		return (a >> 31) ? a : b;
	return x < y ? a : b;
}

static uint32_t fmax32(uint32_t a, uint32_t b, bool ieee)
{
	float x = f32_of(a), y = f32_of(b);
	if (isnan(x) || isnan(y)) {
		if (ieee && is_snan32(a))
			return quiet32(a);
		if (ieee && is_snan32(b))
			return quiet32(b);
		return isnan(x) ? b : a;
	}
	if (x == y)
		return (a >> 31) ? b : a;
	return x > y ? a : b;
}

static uint64_t fmin64(uint64_t a, uint64_t b, bool ieee)
{
	double x = f64_of(a), y = f64_of(b);
	if (isnan(x) || isnan(y)) {
		if (ieee && is_snan64(a))
			return quiet64(a);
		if (ieee && is_snan64(b))
			return quiet64(b);
		return isnan(x) ? b : a;
	}
	if (x == y)
		return (a >> 63) ? a : b;
	return x < y ? a : b;
}

static uint64_t fmax64(uint64_t a, uint64_t b, bool ieee)
{
	double x = f64_of(a), y = f64_of(b);
	if (isnan(x) || isnan(y)) {
		if (ieee && is_snan64(a))
			return quiet64(a);
		if (ieee && is_snan64(b))
			return quiet64(b);
		return isnan(x) ? b : a;
	}
	if (x == y)
		return (a >> 63) ? b : a;
	return x > y ? a : b;
}

static int32_t ldexp_exp(uint32_t v)
{
	return (int32_t)v; /* S1 of v_ldexp is a signed 32-bit integer */
}

static float fract32(float x)
{
	float r;
	if (isinf(x))
		return NAN;
	r = x - floorf(x);
	/* largest float below 1.0 (0x3f7fffff) */
	return r < 0x1.fffffep-1f ? r : 0x1.fffffep-1f;
}

static double fract64(double x)
{
	double r;
	if (isinf(x))
		return NAN;
	r = x - floor(x);
	return r < 0x1.fffffffffffffp-1 ? r : 0x1.fffffffffffffp-1;
}

/* V_DIV_FMAS with VCC set: fma(a, b, c) * 2^k rounded once.  The
 * hardware scales before it rounds, so when the scaled result is denormal
 * (a quotient in the denormal range: 2^-1022 / 1.5) rounding the fma to
 * double first and then again into the denormal range would round twice
 * and can miss by one ulp.  The fma is rounded to odd in long double (64
 * significand bits, >= 2 more than double's 53 and float's 24) and
 * scaled exactly there; rounding that to the target is then correctly
 * rounded (Boldo & Melquiond, "When double rounding is odd", 2005). */
_Static_assert(LDBL_MANT_DIG >= 55, "round-to-odd needs 2 extra significand bits");
static long double fma_scaled_odd(long double a, long double b, long double c, int k)
{
	fenv_t env;
	long double r;

	feholdexcept(&env);
	fesetround(FE_TOWARDZERO);
	/* without -frounding-math the compiler takes fmal for a pure
	 * function it may move across fesetround/fetestexcept: these empty
	 * asm statements pin it between them */
	__asm__ __volatile__("" : "+m"(a), "+m"(b), "+m"(c) : : "memory");
	r = fmal(a, b, c);
	__asm__ __volatile__("" : "+m"(r) : : "memory");
	if (fetestexcept(FE_INEXACT) && isfinite(r)) {
		/* round to odd: an inexact truncated result gets its last
		 * significand bit set (the low 64 bits of the significand
		 * come first on little-endian x87 and binary128 alike) */
		uint64_t m;
		memcpy(&m, &r, sizeof(m));
		m |= 1;
		memcpy(&r, &m, sizeof(m));
	}
	fesetenv(&env);
	return ldexpl(r, k);
}

static inline unsigned exp32(uint32_t u) { return (u >> 23) & 0xff; }
static inline unsigned exp64(uint64_t u) { return (unsigned)(u >> 52) & 0x7ff; }

/* V_DIV_FIXUP: S0 quotient, S1 denominator, S2 numerator. */
static uint32_t div_fixup32(uint32_t q, uint32_t d, uint32_t n)
{
	float fd = f32_of(d), fn = f32_of(n);
	uint32_t sign = (d ^ n) & 0x80000000u;
	if (isnan(fn))
		return quiet32(n);
	if (isnan(fd))
		return quiet32(d);
	if (fd == 0 && fn == 0)
		return 0x7fc00000u;
	if (isinf(fd) && isinf(fn))
		return 0x7fc00000u;
	if (fd == 0 || isinf(fn))
		return sign | 0x7f800000u;
	if (isinf(fd) || fn == 0)
		return sign;
	if ((int)exp32(n) - (int)exp32(d) < -150)
		return sign;                    /* underflow */
	if (exp32(d) == 255)
		return sign | 0x7f800000u;      /* overflow */
	return sign | (q & 0x7fffffffu);
}

/* v_div_fixup_f16: div_fixup32's rules on binary16 (quotient q, denominator
 * d, numerator n); the underflow bound is the f16 one (2^-24 / 2^15). */
static uint32_t div_fixup16(uint32_t q, uint32_t d, uint32_t n)
{
	float fd = f16_to_f32((uint16_t)d), fn = f16_to_f32((uint16_t)n);
	uint32_t sign = (d ^ n) & 0x8000u;
	if (isnan(fn))
		return (n | 0x200) & 0xffff;
	if (isnan(fd))
		return (d | 0x200) & 0xffff;
	if ((fd == 0 && fn == 0) || (isinf(fd) && isinf(fn)))
		return 0x7e00;
	if (fd == 0 || isinf(fn))
		return sign | 0x7c00;
	if (isinf(fd) || fn == 0)
		return sign;
	if ((int)((n >> 10) & 0x1f) - (int)((d >> 10) & 0x1f) < -25)
		return sign;                    /* underflow */
	return sign | (q & 0x7fff);
}

static uint64_t div_fixup64(uint64_t q, uint64_t d, uint64_t n)
{
	double fd = f64_of(d), fn = f64_of(n);
	uint64_t sign = (d ^ n) & 0x8000000000000000ull;
	if (isnan(fn))
		return quiet64(n);
	if (isnan(fd))
		return quiet64(d);
	if (fd == 0 && fn == 0)
		return 0x7ff8000000000000ull;
	if (isinf(fd) && isinf(fn))
		return 0x7ff8000000000000ull;
	if (fd == 0 || isinf(fn))
		return sign | 0x7ff0000000000000ull;
	if (isinf(fd) || fn == 0)
		return sign;
	if ((int)exp64(n) - (int)exp64(d) < -1075)
		return sign;
	if (exp64(d) == 2047)
		return sign | 0x7ff0000000000000ull;
	return sign | (q & 0x7fffffffffffffffull);
}

static bool is_denorm32(float x) { return fpclassify(x) == FP_SUBNORMAL; }
static bool is_denorm64(double x) { return fpclassify(x) == FP_SUBNORMAL; }

int isa_exec_div_scale(struct isa_wave *w, const struct isa_inst *in)
{
	uint64_t vcc = 0, exec = isa_exec(w);

	if (in->op == 0x1e0) {
		uint32_t a[ISA_LANES], b[ISA_LANES], c[ISA_LANES], r[ISA_LANES];
		isa_fetch_f32(w, &in->src[0], a);
		isa_fetch_f32(w, &in->src[1], b);
		isa_fetch_f32(w, &in->src[2], c);
		L {
			float s0 = f32_of(a[l]), s1 = f32_of(b[l]), s2 = f32_of(c[l]), d = s0;
			bool v = false;
			int e1 = (int)exp32(b[l]), e2 = (int)exp32(c[l]);
			/* fast path as for f64 (|S1| < 2^126, quotient normal) */
			if (e1 >= 1 && e1 < 253 && e2 > 23 && e2 < 255 && e2 - e1 < 96 &&
			    e2 - e1 > -120) {
				r[l] = a[l];
				continue;
			}
			if (s2 == 0 || s1 == 0) {
				d = NAN;
			} else if ((int)exp32(c[l]) - (int)exp32(b[l]) >= 96) {
				v = true;
				if (s0 == s1)
					d = ldexpf(s0, 64);
			} else if (is_denorm32(s1)) {
				d = ldexpf(s0, 64);
			} else if (is_denorm32(1.0f / s1) && is_denorm32(s2 / s1)) {
				/* 2^-64, not the guide's 2^64: see the f64 case */
				v = true;
				if (s0 == s1)
					d = ldexpf(s0, -64);
			} else if (is_denorm32(1.0f / s1)) {
				d = ldexpf(s0, -64);
			} else if (is_denorm32(s2 / s1)) {
				v = true;
				if (s0 == s2)
					d = ldexpf(s0, 64);
			} else if (exp32(c[l]) <= 23) {
				d = ldexpf(s0, 64);
			}
			r[l] = u32_of(d);
			vcc |= (uint64_t)v << l;
		}
		isa_vdst32(w, in->dst, r);
	} else {
		uint64_t a[ISA_LANES], b[ISA_LANES], c[ISA_LANES], r[ISA_LANES];
		isa_fetch_f64(w, &in->src[0], a);
		isa_fetch_f64(w, &in->src[1], b);
		isa_fetch_f64(w, &in->src[2], c);
		L {
			double s0 = f64_of(a[l]), s1 = f64_of(b[l]), s2 = f64_of(c[l]), d = s0;
			bool v = false;
			int e1 = (int)exp64(b[l]), e2 = (int)exp64(c[l]);
			/* Fast path, none of the cases below can apply: both
			 * normal, 1/S1 normal (|S1| < 2^1022), S2/S1 normal and
			 * far from overflow, S2 not tiny. */
			if (e1 >= 1 && e1 < 2045 && e2 > 53 && e2 < 2047 && e2 - e1 < 768 &&
			    e2 - e1 > -1000) {
				r[l] = a[l];
				continue;
			}
			if (s2 == 0 || s1 == 0) {
				d = NAN;
			} else if ((int)exp64(c[l]) - (int)exp64(b[l]) >= 768) {
				v = true;
				if (s0 == s1)
					d = ldexp(s0, 128);
			} else if (is_denorm64(s1)) {
				d = ldexp(s0, 128);
			} else if (is_denorm64(1.0 / s1) && is_denorm64(s2 / s1)) {
				/* The guide's pseudo-code reads "only scale the
				 * denominator: D = ldexp(S0, 128)", but here
				 * |S1| >= 2^1022 (1/S1 is denormal), so that is
				 * +Inf and every such division (1.5 / DBL_MAX,
				 * in ocml's atan2) would end in NaN.  The
				 * consistent reading scales the denominator down:
				 * 1/S1' is normal, the quotient grows by 2^128 to
				 * a normal value, and V_DIV_FMAS (VCC set, S2's
				 * exponent < 1023) scales it back by 2^-128 with
				 * one rounding - the correctly rounded denormal
				 * quotient that test_isa_mathlib checks. */
				v = true;
				if (s0 == s1)
					d = ldexp(s0, -128);
			} else if (is_denorm64(1.0 / s1)) {
				d = ldexp(s0, -128);
			} else if (is_denorm64(s2 / s1)) {
				v = true;
				if (s0 == s2)
					d = ldexp(s0, 128);
			} else if (exp64(c[l]) <= 53) {
				d = ldexp(s0, 128);
			}
			r[l] = u64_of(d);
			vcc |= (uint64_t)v << l;
		}
		isa_vdst64(w, in->dst, r);
	}
	isa_swrite64(w, in->sdst, vcc & exec);
	return ISA_STEP_NEXT;
}

void isa_outmods_f32(const struct isa_wave *w, const struct isa_inst *in, uint32_t *r)
{
	if (in->omod) {
		float m = in->omod == 1 ? 2.0f : in->omod == 2 ? 4.0f : 0.5f;
		L r[l] = u32_of(f32_of(r[l]) * m);
	}
	if (in->clamp) {
		L {
			float x = f32_of(r[l]);
			if (isnan(x))
				r[l] = (w->mode & ISA_MODE_DX10_CLAMP) ? 0 : r[l];
			else
				r[l] = x < 0 ? 0 : x > 1 ? 0x3f800000u : r[l];
		}
	}
}

static void outmods64(const struct isa_wave *w, const struct isa_inst *in, uint64_t *r)
{
	if (in->omod) {
		double m = in->omod == 1 ? 2.0 : in->omod == 2 ? 4.0 : 0.5;
		L r[l] = u64_of(f64_of(r[l]) * m);
	}
	if (in->clamp) {
		L {
			double x = f64_of(r[l]);
			if (isnan(x))
				r[l] = (w->mode & ISA_MODE_DX10_CLAMP) ? 0 : r[l];
			else
				r[l] = x < 0 ? 0 : x > 1 ? 0x3ff0000000000000ull : r[l];
		}
	}
}

bool isa_vfp_supported(unsigned op, bool gfx942)
{
	(void)gfx942;
	switch (op) {
	/* f32 */
	case 0x101: case 0x102: case 0x103: case 0x105: case 0x10a: case 0x10b: case 0x116:
	case 0x13b: case 0x1c0: case 0x1c1: case 0x1cb: case 0x1d0: case 0x1d3: case 0x1d6:
	case 0x1de: case 0x1e2: case 0x15b: case 0x15c: case 0x15d: case 0x15e: case 0x15f:
	case 0x160: case 0x161: case 0x162: case 0x163: case 0x164: case 0x167: case 0x169:
	case 0x16a: case 0x174: case 0x288: case 0x2a1:
	/* f64 */
	case 0x280: case 0x281: case 0x282: case 0x283: case 0x284: case 0x104: case 0x1cc:
	case 0x1df: case 0x1e3: case 0x157: case 0x158: case 0x159: case 0x15a: case 0x165:
	case 0x166: case 0x168: case 0x171: case 0x172:
		return true;
	default:
		return false;
	}
}

ISA_HOT int isa_exec_vf32(struct isa_wave *w, const struct isa_inst *in)
{
	uint32_t a[ISA_LANES], b[ISA_LANES], c[ISA_LANES], r[ISA_LANES];
	unsigned dn = isa_denorm32(w);
	bool ieee = w->mode & ISA_MODE_IEEE;
	unsigned op = in->op;

	if (op == 0x116 || op == 0x1c0 || op == 0x1c1) /* mad/mac: no denormals */
		dn = 0;
	isa_fetch_f32(w, &in->src[0], a);
	if (in->src[1].kind)
		isa_fetch_f32(w, &in->src[1], b);
	if (in->src[2].kind)
		isa_fetch_f32(w, &in->src[2], c);
	if (!(dn & 1)) {
		L a[l] = flush32(a[l]);
		if (in->src[1].kind && op != 0x288) { L b[l] = flush32(b[l]); }
		if (in->src[2].kind) { L c[l] = flush32(c[l]); }
	}
#define F(x) f32_of(x)
#define U(x) u32_of(x)
	switch (op) {
	case 0x101: L r[l] = U(F(a[l]) + F(b[l])); break;
	case 0x102: L r[l] = U(F(a[l]) - F(b[l])); break;
	case 0x103: L r[l] = U(F(b[l]) - F(a[l])); break;
	case 0x105: L r[l] = U(F(a[l]) * F(b[l])); break;
	case 0x2a1: /* v_mul_legacy_f32: 0 * anything (incl. inf/NaN) = 0 */
		L r[l] = (F(a[l]) == 0 || F(b[l]) == 0) ? 0 : U(F(a[l]) * F(b[l]));
		break;
	case 0x10a: L r[l] = fmin32(a[l], b[l], ieee); break;
	case 0x10b: L r[l] = fmax32(a[l], b[l], ieee); break;
	case 0x116: case 0x1c1: /* mac/mad: unfused multiply then add */
		L r[l] = U(F(a[l]) * F(b[l]) + F(c[l]));
		break;
	case 0x1c0: /* v_mad_legacy_f32: 0 * x = 0 */
		L {
			float p = (F(a[l]) == 0 || F(b[l]) == 0) ? 0.0f : F(a[l]) * F(b[l]);
			r[l] = U(p + F(c[l]));
		}
		break;
	case 0x13b: case 0x1cb: isa_fma32_lanes(a, b, c, r); break;
	case 0x1d0: L r[l] = fmin32(fmin32(a[l], b[l], ieee), c[l], ieee); break;
	case 0x1d3: L r[l] = fmax32(fmax32(a[l], b[l], ieee), c[l], ieee); break;
	case 0x1d6: /* v_med3_f32 */
		L {
			if (isnan(F(a[l])) || isnan(F(b[l])) || isnan(F(c[l]))) {
				r[l] = fmin32(fmin32(a[l], b[l], ieee), c[l], ieee);
			} else {
				uint32_t mx = fmax32(fmax32(a[l], b[l], ieee), c[l], ieee);
				if (mx == a[l]) r[l] = fmax32(b[l], c[l], ieee);
				else if (mx == b[l]) r[l] = fmax32(a[l], c[l], ieee);
				else r[l] = fmax32(a[l], b[l], ieee);
			}
		}
		break;
	case 0x1de: L r[l] = div_fixup32(a[l], b[l], c[l]); break;
	case 0x1e2: { /* v_div_fmas_f32 */
		uint64_t vcc = isa_vcc(w);
		L {
			float f;
			if (vcc >> l & 1)
				f = (float)fma_scaled_odd(F(a[l]), F(b[l]), F(c[l]),
							  exp32(c[l]) >= 127 ? 64 : -64);
			else
				f = fmaf(F(a[l]), F(b[l]), F(c[l]));
			r[l] = U(f);
		}
		break;
	}
	case 0x15b: L r[l] = U(fract32(F(a[l]))); break;
	case 0x15c: L r[l] = U(truncf(F(a[l]))); break;
	case 0x15d: L r[l] = U(ceilf(F(a[l]))); break;
	case 0x15e: L r[l] = U(nearbyintf(F(a[l]))); break; /* host rounding: RNE */
	case 0x15f: L r[l] = U(floorf(F(a[l]))); break;
	case 0x160: L r[l] = U((float)exp2((double)F(a[l]))); break;
	case 0x161: L r[l] = U((float)log2((double)F(a[l]))); break;
	case 0x162: case 0x163: L r[l] = U((float)(1.0 / (double)F(a[l]))); break;
	case 0x164: L r[l] = U((float)(1.0 / sqrt((double)F(a[l])))); break;
	case 0x167: L r[l] = U(sqrtf(F(a[l]))); break;
	case 0x169: /* v_sin_f32: input in revolutions (sin(2*pi*x)) */
		L {
			double x = F(a[l]);
			r[l] = isinf(x) ? 0x7fc00000u : U((float)sin(2.0 * M_PI * (x - floor(x))));
		}
		break;
	case 0x16a:
		L {
			double x = F(a[l]);
			r[l] = isinf(x) ? 0x7fc00000u : U((float)cos(2.0 * M_PI * (x - floor(x))));
		}
		break;
	case 0x174: /* v_frexp_mant_f32 */
		L {
			float x = F(a[l]);
			int e;
			r[l] = (isnan(x) || isinf(x)) ? a[l] : U(frexpf(x, &e));
		}
		break;
	case 0x288: /* v_ldexp_f32 */
		L {
			int32_t e = ldexp_exp(b[l]);
			r[l] = U(ldexpf(F(a[l]), e < -1000 ? -1000 : e > 1000 ? 1000 : e));
		}
		break;
	default:
		return isa_exec_illegal(w, in);
	}
#undef F
#undef U
	/* A NaN the operation generates (no NaN input) is the default quiet
	 * NaN 0x7fc00000 on AMD; x86 makes 0xffc00000: fix those up, but
	 * keep an input NaN that happened to have these bits. */
	L {
		if (r[l] == 0xffc00000u && a[l] != r[l] && (!in->src[1].kind || b[l] != r[l]) &&
		    (!in->src[2].kind || c[l] != r[l]))
			r[l] = 0x7fc00000u;
	}
	if (!(dn & 2)) {
		L r[l] = flush32(r[l]);
	}
	isa_outmods_f32(w, in, r);
	isa_vdst32(w, in->dst, r);
	return ISA_STEP_NEXT;
}

/* The f32 arithmetic compilers emit most (add, sub, subrev, mul, fma,
 * fmac) without input or output modifiers: one lane loop per operation
 * straight from the source rows, with the NaN fix-up of isa_exec_vf32 in
 * the same loop.  Chosen at decode (isa_vf32_fast_ok); with a MODE that
 * flushes f32 denormals (which s_setreg may set at any time) it defers to
 * isa_exec_vf32, so results are the same bits either way. */
bool isa_vf32_fast_ok(const struct isa_inst *in)
{
	switch (in->op) {
	case 0x101: case 0x102: case 0x103: case 0x105: case 0x13b: case 0x1cb:
		break;
	default:
		return false;
	}
	if (in->clamp || in->omod)
		return false;
	for (unsigned i = 0; i < 3; i++)
		if (in->src[i].abs || in->src[i].neg)
			return false;
	return in->src[1].kind && (in->src[2].kind || (in->op != 0x13b && in->op != 0x1cb));
}

/* AMD's default NaN for an operation that made one (see isa_exec_vf32). */
static inline uint32_t qnan_fix2(uint32_t r, uint32_t a, uint32_t b)
{
	return (r == 0xffc00000u && a != r && b != r) ? 0x7fc00000u : r;
}

ISA_HOT int isa_exec_vf32_fast(struct isa_wave *w, const struct isa_inst *in)
{
	uint32_t ba[ISA_LANES], bb[ISA_LANES], bc[ISA_LANES], r[ISA_LANES];
	const uint32_t *a, *b, *c;

	if (isa_denorm32(w) != 3)
		return isa_exec_vf32(w, in);
	a = isa_vsrc32(w, &in->src[0], ba);
	b = isa_vsrc32(w, &in->src[1], bb);
#define F(x) f32_of(x)
#define U(x) u32_of(x)
	switch (in->op) {
	case 0x101: L r[l] = qnan_fix2(U(F(a[l]) + F(b[l])), a[l], b[l]); break;
	case 0x102: L r[l] = qnan_fix2(U(F(a[l]) - F(b[l])), a[l], b[l]); break;
	case 0x103: L r[l] = qnan_fix2(U(F(b[l]) - F(a[l])), a[l], b[l]); break;
	case 0x105: L r[l] = qnan_fix2(U(F(a[l]) * F(b[l])), a[l], b[l]); break;
	default: /* 0x13b v_fmac_f32, 0x1cb v_fma_f32 */
		c = isa_vsrc32(w, &in->src[2], bc);
		isa_fma32_lanes(a, b, c, r);
		L r[l] = (qnan_fix2(r[l], a[l], b[l]) == r[l] || c[l] == r[l]) ? r[l] : 0x7fc00000u;
		break;
	}
#undef F
#undef U
	isa_vdst32(w, in->dst, r);
	return ISA_STEP_NEXT;
}

/* v_trig_preop_f64 returns 53-bit pieces of 2/pi for the Payne-Hanek
 * reduction in the f64 sin/cos of ROCm's device libraries.  The hardware
 * holds 1201 fraction bits of 2/pi; these are its first 1216 (computed
 * with integer arithmetic from Machin's formula; they start A2F9836E...,
 * the well-known expansion), of which bits beyond 1201 are taken as 0. */
static const uint64_t two_over_pi[19] = {
	0xa2f9836e4e441529ull, 0xfc2757d1f534ddc0ull, 0xdb6295993c439041ull,
	0xfe5163abdebbc561ull, 0xb7246e3a424dd2e0ull, 0x06492eea09d1921cull,
	0xfe1deb1cb129a73eull, 0xe88235f52ebb4484ull, 0xe99c7026b45f7e41ull,
	0x3991d639835339f4ull, 0x9c845f8bbdf9283bull, 0x1ff897ffde05980full,
	0xef2f118b5a0a6d1full, 0x6d367ecf27cb09b7ull, 0x4f463f669e5fea2dull,
	0x7527bac7ebe5f17bull, 0x3d0739f78a5292eaull, 0x6bfb5fb11f8d5d08ull,
	0x56033046fc7b6babull,
};

/* Fraction bit `pos` of 2/pi (1 = the 2^-1 bit); 0 past bit 1201. */
static unsigned two_over_pi_bit(unsigned pos)
{
	if (pos < 1 || pos > 1201)
		return 0;
	pos -= 1;
	return (unsigned)(two_over_pi[pos / 64] >> (63 - pos % 64)) & 1;
}

/* V_TRIG_PREOP_F64: shift = S1[4:0] * 53, plus exponent(S0) - 1077 when
 * the exponent is above 1077; D = the 53 bits of 2/pi after the first
 * `shift`, scaled by 2^-(53 + shift) (2^128 more when exponent(S0) >=
 * 1968, to stay out of the denormal range). */
static uint64_t trig_preop(uint64_t s0, uint32_t s1)
{
	unsigned e = exp64(s0), shift = (s1 & 31) * 53;
	uint64_t seg = 0;
	int scale;

	if (e > 1077)
		shift += e - 1077;
	for (unsigned i = 1; i <= 53; i++)
		seg = (seg << 1) | two_over_pi_bit(shift + i);
	scale = -53 - (int)shift;
	if (e >= 1968)
		scale += 128;
	return u64_of(ldexp((double)seg, scale));
}

ISA_HOT int isa_exec_vf64(struct isa_wave *w, const struct isa_inst *in)
{
	uint64_t a[ISA_LANES], b[ISA_LANES], c[ISA_LANES], r[ISA_LANES];
	uint32_t ib[ISA_LANES];
	const uint32_t *bi = NULL;
	unsigned dn = isa_denorm64(w), op = in->op;
	bool ieee = w->mode & ISA_MODE_IEEE;

	isa_fetch_f64(w, &in->src[0], a);
	if (op == 0x284 || op == 0x292)
		bi = isa_vsrc32(w, &in->src[1], ib);
	else if (in->src[1].kind)
		isa_fetch_f64(w, &in->src[1], b);
	if (in->src[2].kind)
		isa_fetch_f64(w, &in->src[2], c);
	if (!(dn & 1)) {
		L a[l] = flush64(a[l]);
		if (in->src[1].kind && !bi) { L b[l] = flush64(b[l]); }
		if (in->src[2].kind) { L c[l] = flush64(c[l]); }
	}
#define F(x) f64_of(x)
#define U(x) u64_of(x)
	switch (op) {
	case 0x280: L r[l] = U(F(a[l]) + F(b[l])); break;
	case 0x281: L r[l] = U(F(a[l]) * F(b[l])); break;
	case 0x282: L r[l] = fmin64(a[l], b[l], ieee); break;
	case 0x283: L r[l] = fmax64(a[l], b[l], ieee); break;
	case 0x284:
		L {
			int32_t e = (int32_t)bi[l];
			r[l] = U(ldexp(F(a[l]), e < -5000 ? -5000 : e > 5000 ? 5000 : e));
		}
		break;
	case 0x104: case 0x1cc: fma64_lanes(a, b, c, r); break;
	case 0x292: L r[l] = trig_preop(a[l], bi[l]); break;
	case 0x1df: L r[l] = div_fixup64(a[l], b[l], c[l]); break;
	case 0x1e3: { /* v_div_fmas_f64 */
		uint64_t vcc = isa_vcc(w);
		L {
			double f;
			if (vcc >> l & 1)
				f = (double)fma_scaled_odd(F(a[l]), F(b[l]), F(c[l]),
							   exp64(c[l]) >= 1023 ? 128 : -128);
			else
				f = fma(F(a[l]), F(b[l]), F(c[l]));
			r[l] = U(f);
		}
		break;
	}
	case 0x157: L r[l] = U(trunc(F(a[l]))); break;
	case 0x158: L r[l] = U(ceil(F(a[l]))); break;
	case 0x159: L r[l] = U(nearbyint(F(a[l]))); break;
	case 0x15a: L r[l] = U(floor(F(a[l]))); break;
	case 0x165: L r[l] = U(1.0 / F(a[l])); break;
	case 0x166: L r[l] = U(1.0 / sqrt(F(a[l]))); break;
	case 0x168: L r[l] = U(sqrt(F(a[l]))); break;
	case 0x171:
		L {
			double x = F(a[l]);
			int e;
			r[l] = (isnan(x) || isinf(x)) ? a[l] : U(frexp(x, &e));
		}
		break;
	case 0x172: L r[l] = U(fract64(F(a[l]))); break;
	default:
		return isa_exec_illegal(w, in);
	}
#undef F
#undef U
	{
		/* an absent operand compares as SRC0 (already required to
		 * differ), so the loop has no branches and vectorises */
		const uint64_t *bp = (bi || !in->src[1].kind) ? a : b;
		const uint64_t *cp = !in->src[2].kind ? a : c;
		L {
			uint64_t x = r[l];
			bool gen = x == 0xfff8000000000000ull && a[l] != x && bp[l] != x && cp[l] != x;
			r[l] = gen ? 0x7ff8000000000000ull : x;
		}
	}
	if (!(dn & 2)) {
		L r[l] = flush64(r[l]);
	}
	outmods64(w, in, r);
	isa_vdst64(w, in->dst, r);
	return ISA_STEP_NEXT;
}

/* ---- f16 arithmetic (VOP2/VOP3) ----
 * Each f16 operation is computed exactly in double and rounded once to
 * f16 (double holds every f16 sum and product exactly), so results are
 * the correctly rounded IEEE binary16 ones.  OP_SEL bit i reads the high
 * half of source i; OP_SEL bit 3 writes the high half and keeps the low
 * one; otherwise the result goes to the low half and the high half is
 * zeroed (gfx9 16-bit ops).  MODE.FP_DENORM[7:6] governs f16 denormals. */
static inline double h2d(uint32_t h)
{
	return (double)f16_to_f32((uint16_t)h);
}
static inline uint32_t d2h(double x)
{
	/* round the double to f16 via f32 is double rounding; do it directly:
	 * every value here is a sum/product of f16s, exact in f32 unless the
	 * exponents are far apart, so round to f32 with round-to-odd first */
	float f = (float)x;
	if ((double)f != x && !isnan(x)) {
		uint32_t u = u32_of(f);
		if (((double)f > x) == (x > 0))
			u -= 1;   /* truncate toward zero ... */
		u |= 1;       /* ... and make it odd: round-to-odd keeps the
				 information the final rounding needs */
		f = f32_of(u);
	}
	return f32_to_f16(f);
}

static inline bool h_isdenorm(uint32_t h)
{
	return (h & 0x7c00) == 0 && (h & 0x3ff);
}

/* An f16 value to snorm16 (sgn) or unorm16 bits: NaN gives 0, the value
 * is clamped to [-1, 1] / [0, 1], scaled by 32767 / 65535 and rounded to
 * nearest even. */
static uint32_t norm16_of(double x, bool sgn)
{
	if (isnan(x))
		return 0;
	if (sgn)
		return (uint32_t)(int32_t)nearbyint((x < -1 ? -1 : x > 1 ? 1 : x) * 32767.0) & 0xffff;
	return (uint32_t)nearbyint((x < 0 ? 0 : x > 1 ? 1 : x) * 65535.0);
}

/* v_min_f16/v_max_f16 as min3/max3/med3 use them: with MODE.IEEE a
 * signalling NaN input gives itself quieted, otherwise a NaN input
 * gives the other operand; -0 < +0 (as fmin32/fmax32). */
/* The NaN rule both share: true with *r set when a or b is a NaN. */
static bool nan16_pick(uint32_t a, uint32_t b, bool ieee, uint32_t *r)
{
	bool an = isnan(h2d(a)), bn = isnan(h2d(b));
	if (!an && !bn)
		return false;
	if (ieee && an && !(a & 0x200))
		*r = a | 0x200;
	else if (ieee && bn && !(b & 0x200))
		*r = b | 0x200;
	else
		*r = an ? b : a;
	return true;
}
static uint32_t fmin16(uint32_t a, uint32_t b, bool ieee)
{
	uint32_t r;
	if (nan16_pick(a, b, ieee, &r))
		return r;
	double x = h2d(a), y = h2d(b);
	if (x == y)
		return (a & 0x8000) ? a : b;
	return x < y ? a : b;
}
static uint32_t fmax16(uint32_t a, uint32_t b, bool ieee)
{
	uint32_t r;
	if (nan16_pick(a, b, ieee, &r))
		return r;
	double x = h2d(a), y = h2d(b);
	if (x == y)
		return (a & 0x8000) ? b : a;
	return x > y ? a : b;
}

ISA_HOT int isa_exec_vf16(struct isa_wave *w, const struct isa_inst *in)
{
	uint32_t ta[ISA_LANES], tb[ISA_LANES], tc[ISA_LANES], r[ISA_LANES];
	const uint32_t *sa = isa_vsrc32(w, &in->src[0], ta);
	const uint32_t *sb = in->src[1].kind ? isa_vsrc32(w, &in->src[1], tb) : sa;
	const uint32_t *sc = in->src[2].kind ? isa_vsrc32(w, &in->src[2], tc) : sa;
	uint32_t a[ISA_LANES], b[ISA_LANES], c[ISA_LANES];
	unsigned dn = isa_denorm64(w);
	const struct isa_opnd *o = in->src;
	bool hi_dst = in->opsel & 8;
	uint32_t *d = isa_vrow(w, in->dst);
	uint64_t exec = isa_exec(w);
	bool ieee = w->mode & ISA_MODE_IEEE;

	L {
		a[l] = ((sa[l] >> ((in->opsel & 1) ? 16 : 0)) & (o[0].abs ? 0x7fff : 0xffff)) ^ (o[0].neg ? 0x8000 : 0);
		b[l] = ((sb[l] >> ((in->opsel & 2) ? 16 : 0)) & (o[1].abs ? 0x7fff : 0xffff)) ^ (o[1].neg ? 0x8000 : 0);
		c[l] = ((sc[l] >> ((in->opsel & 4) ? 16 : 0)) & (o[2].abs ? 0x7fff : 0xffff)) ^ (o[2].neg ? 0x8000 : 0);
		if (!(dn & 1)) {
			if (h_isdenorm(a[l])) a[l] &= 0x8000;
			if (h_isdenorm(b[l])) b[l] &= 0x8000;
			if (h_isdenorm(c[l])) c[l] &= 0x8000;
		}
	}
	switch (in->op) {
	case 0x11f: L r[l] = d2h(h2d(a[l]) + h2d(b[l])); break;
	case 0x120: L r[l] = d2h(h2d(a[l]) - h2d(b[l])); break;
	case 0x121: L r[l] = d2h(h2d(b[l]) - h2d(a[l])); break;
	case 0x122: L r[l] = d2h(h2d(a[l]) * h2d(b[l])); break;
	case 0x123: case 0x203: /* v_mac_f16 (D = S0 * S1 + D), v_mad_f16: product rounded first */
		L r[l] = d2h(h2d(d2h(h2d(a[l]) * h2d(b[l]))) + h2d(c[l]));
		break;
	case 0x207: L r[l] = div_fixup16(a[l], b[l], c[l]); break;          /* v_div_fixup_f16 */
	case 0x182: L { /* v_frexp_mant_f16: inf and NaN pass through */
			double x = h2d(a[l]);
			int e;
			r[l] = (isnan(x) || isinf(x)) ? a[l] : d2h(frexp(x, &e));
		}
		break;
	case 0x183: L { /* v_frexp_exp_i16_f16: inf and NaN give 0 */
			double x = h2d(a[l]);
			int e = 0;
			if (!isnan(x) && !isinf(x))
				(void)frexp(x, &e);
			r[l] = (uint32_t)e & 0xffff;
		}
		goto int_out;
	case 0x18d: case 0x18e: L { /* v_cvt_norm_i16_f16 / u16: clamp, scale, round to even */
			r[l] = norm16_of(h2d(a[l]), in->op == 0x18d);
		}
		goto int_out;
	case 0x299: case 0x29a: /* v_cvt_pknorm_i16_f16 / u16: {norm(S1), norm(S0)}, 32 bits */
		for (unsigned l = 0; l < ISA_LANES; l++)
			if (exec >> l & 1)
				d[l] = norm16_of(h2d(a[l]), in->op == 0x299) |
				       norm16_of(h2d(b[l]), in->op == 0x299) << 16;
		return ISA_STEP_NEXT;
	case 0x189: case 0x18a: L { /* v_sin_f16 / v_cos_f16: input in revolutions */
			double x = h2d(a[l]), f = 2.0 * M_PI * (x - floor(x));
			r[l] = isinf(x) ? 0x7e00 : d2h(in->op == 0x189 ? sin(f) : cos(f));
		}
		break;
	case 0x206: /* v_fma_f16: fused */
		L r[l] = d2h(fma(h2d(a[l]), h2d(b[l]), h2d(c[l])));
		break;
	/* v_max_f16 / v_min_f16: the IEEE-mode NaN rules of v_max3/min3 (a
	 * signalling NaN is returned quieted, a quiet one gives the other) */
	case 0x12d: L r[l] = fmax16(a[l], b[l], ieee); break;
	case 0x12e: L r[l] = fmin16(a[l], b[l], ieee); break;
	case 0x1f4: L r[l] = fmin16(fmin16(a[l], b[l], ieee), c[l], ieee); break; /* v_min3_f16 */
	case 0x1f7: L r[l] = fmax16(fmax16(a[l], b[l], ieee), c[l], ieee); break; /* v_max3_f16 */
	case 0x1fa: /* v_med3_f16: as v_med3_f32 */
		L {
			if (isnan(h2d(a[l])) || isnan(h2d(b[l])) || isnan(h2d(c[l]))) {
				r[l] = fmin16(fmin16(a[l], b[l], ieee), c[l], ieee);
			} else {
				uint32_t mx = fmax16(fmax16(a[l], b[l], ieee), c[l], ieee);
				if (mx == a[l]) r[l] = fmax16(b[l], c[l], ieee);
				else if (mx == b[l]) r[l] = fmax16(a[l], c[l], ieee);
				else r[l] = fmax16(a[l], b[l], ieee);
			}
		}
		break;
	case 0x17d: L r[l] = d2h(1.0 / h2d(a[l])); break;                 /* v_rcp_f16 */
	case 0x17e: L r[l] = d2h(sqrt(h2d(a[l]))); break;                 /* v_sqrt_f16 */
	case 0x17f: L r[l] = d2h(1.0 / sqrt(h2d(a[l]))); break;           /* v_rsq_f16 */
	case 0x180: L r[l] = d2h(log2(h2d(a[l]))); break;                 /* v_log_f16 */
	case 0x181: L r[l] = d2h(exp2(h2d(a[l]))); break;                 /* v_exp_f16 */
	case 0x184: L r[l] = d2h(floor(h2d(a[l]))); break;
	case 0x185: L r[l] = d2h(ceil(h2d(a[l]))); break;
	case 0x186: L r[l] = d2h(trunc(h2d(a[l]))); break;
	case 0x187: L r[l] = d2h(nearbyint(h2d(a[l]))); break;
	case 0x188: L { /* v_fract_f16: below 1.0 (0x3bff) */
			double x = h2d(a[l]);
			r[l] = isinf(x) ? 0x7e00 : d2h(x - floor(x));
			if (r[l] == 0x3c00)
				r[l] = 0x3bff;
		}
		break;
	case 0x179: L r[l] = d2h((double)(sa[l] & 0xffff)); break;        /* v_cvt_f16_u16 */
	case 0x17a: L r[l] = d2h((double)(int16_t)(sa[l] & 0xffff)); break; /* v_cvt_f16_i16 */
	case 0x17b: L { /* v_cvt_u16_f16: NaN -> 0, saturate, truncate */
			double x = h2d(a[l]);
			r[l] = isnan(x) || x <= 0 ? 0 : x >= 65535.0 ? 0xffff : (uint32_t)x;
		}
		goto int_out;
	case 0x17c: L {
			double x = h2d(a[l]);
			int32_t v = isnan(x) ? 0 : x >= 32767.0 ? 32767 : x <= -32768.0 ? -32768 : (int32_t)x;
			r[l] = (uint32_t)v & 0xffff;
		}
		goto int_out;
	case 0x133: L { /* v_ldexp_f16: S1 is a signed 16-bit integer */
			int e = (int16_t)(sb[l] & 0xffff);
			r[l] = d2h(ldexp(h2d(a[l]), e));
		}
		break;
	default:
		return isa_exec_illegal(w, in);
	}
	L {
		if ((r[l] & 0x7fff) > 0x7c00)
			r[l] = (isnan(h2d(a[l])) || (in->src[1].kind && isnan(h2d(b[l]))) ||
				(in->src[2].kind && isnan(h2d(c[l])))) ? r[l] | 0x200 : 0x7e00;
		if (!(dn & 2) && h_isdenorm(r[l]))
			r[l] &= 0x8000;
		if (in->clamp) {
			double x = h2d(r[l]);
			r[l] = isnan(x) ? 0 : x < 0 ? 0 : x > 1 ? 0x3c00 : r[l];
		}
	}
int_out:
	for (unsigned l = 0; l < ISA_LANES; l++) {
		if (!(exec >> l & 1))
			continue;
		d[l] = hi_dst ? (d[l] & 0xffff) | (r[l] << 16) : r[l];
	}
	return ISA_STEP_NEXT;
}

/* Packed f16 (VOP3P): source i is one register holding {lo, hi}; OP_SEL
 * bit i picks the half feeding the low result, OP_SEL_HI bit i the half
 * feeding the high result; NEG_LO/NEG_HI flip the signs. */
ISA_HOT int isa_exec_pk_f16(struct isa_wave *w, const struct isa_inst *in)
{
	uint32_t t[3][ISA_LANES], r[ISA_LANES];
	const uint32_t *s[3];
	unsigned nsrc = (in->op == 0x0e || in->op == 0x13c) ? 3 : 2, dn = isa_denorm64(w);

	for (unsigned i = 0; i < nsrc; i++)
		s[i] = isa_vsrc32(w, &in->src[i], t[i]);
	L {
		uint32_t out = 0;
		for (unsigned half = 0; half < 2; half++) {
			uint32_t v[3] = { 0, 0, 0 }, res;
			double x[3] = { 0, 0, 0 };
			for (unsigned i = 0; i < nsrc; i++) {
				unsigned sel = half ? (in->opsel_hi >> i) & 1 : (in->opsel >> i) & 1;
				unsigned neg = half ? (in->neg_hi >> i) & 1 : (in->neg_lo >> i) & 1;
				v[i] = ((s[i][l] >> (sel ? 16 : 0)) & 0xffff) ^ (neg ? 0x8000 : 0);
				if (!(dn & 1) && h_isdenorm(v[i]))
					v[i] &= 0x8000;
				x[i] = h2d(v[i]);
			}
			switch (in->op) {
			case 0x0e: case 0x13c: res = d2h(fma(x[0], x[1], x[2])); break; /* pk_fma, pk_fmac */
			case 0x0f: res = d2h(x[0] + x[1]); break;
			case 0x10: res = d2h(x[0] * x[1]); break;
			/* pk_min/max: the IEEE-mode rules of v_min/max_f16 (-0 below
			 * +0, a signalling NaN returned quieted) */
			case 0x11: res = fmin16(v[0], v[1], w->mode & ISA_MODE_IEEE); break;
			default:   res = fmax16(v[0], v[1], w->mode & ISA_MODE_IEEE); break;
			}
			if ((res & 0x7fff) > 0x7c00 && !isnan(x[0]) && !isnan(x[1]) && !isnan(x[2]))
				res = 0x7e00;
			if (!(dn & 2) && h_isdenorm(res))
				res &= 0x8000;
			out |= (res & 0xffff) << (16 * half);
		}
		r[l] = out;
	}
	isa_vdst32(w, in->dst, r);
	return ISA_STEP_NEXT;
}

/* ---- conversions ---- */

ISA_HOT int isa_exec_vcvt(struct isa_wave *w, const struct isa_inst *in)
{
	uint32_t r[ISA_LANES], tmp[ISA_LANES];
	uint64_t r64[ISA_LANES];
	bool wide = false;
	unsigned op = in->op;

	switch (op) {
	case 0x143: case 0x14f: case 0x155: case 0x170: { /* from f64 */
		uint64_t a[ISA_LANES];
		isa_fetch_f64(w, &in->src[0], a);
		if (!(isa_denorm64(w) & 1)) { L a[l] = flush64(a[l]); }
		switch (op) {
		case 0x143: L r[l] = (uint32_t)cvt_i32_f64(f64_of(a[l])); break;
		case 0x155: L r[l] = cvt_u32_f64(f64_of(a[l])); break;
		case 0x14f: L {
				uint32_t u = u32_of((float)f64_of(a[l]));
				r[l] = (isa_denorm32(w) & 2) ? u : flush32(u);
			}
			break;
		default: L { /* v_frexp_exp_i32_f64: inf/NaN -> 0 */
				double x = f64_of(a[l]);
				int e = 0;
				if (!isnan(x) && !isinf(x))
					(void)frexp(x, &e);
				r[l] = (uint32_t)e;
			}
			break;
		}
		break;
	}
	case 0x144: case 0x156: { /* i32/u32 -> f64 */
		const uint32_t *a = isa_vsrc32(w, &in->src[0], tmp);
		if (op == 0x144) { L r64[l] = u64_of((double)(int32_t)a[l]); }
		else { L r64[l] = u64_of((double)a[l]); }
		wide = true;
		break;
	}
	case 0x145: case 0x146: { /* i32/u32 -> f32 (RNE) */
		const uint32_t *a = isa_vsrc32(w, &in->src[0], tmp);
		if (op == 0x145) { L r[l] = u32_of((float)(int32_t)a[l]); }
		else { L r[l] = u32_of((float)a[l]); }
		break;
	}
	case 0x151: case 0x152: case 0x153: case 0x154: { /* v_cvt_f32_ubyteN */
		const uint32_t *a = isa_vsrc32(w, &in->src[0], tmp);
		unsigned sh = 8 * (op - 0x151);
		L r[l] = u32_of((float)((a[l] >> sh) & 0xff));
		break;
	}
	case 0x147: case 0x148: case 0x14c: case 0x14d: case 0x150: case 0x173: case 0x14a: {
		uint32_t a[ISA_LANES];
		isa_fetch_f32(w, &in->src[0], a);
		if (!(isa_denorm32(w) & 1)) { L a[l] = flush32(a[l]); }
		switch (op) {
		case 0x147: L r[l] = cvt_u32_f64((double)f32_of(a[l])); break;
		case 0x148: L r[l] = (uint32_t)cvt_i32_f64((double)f32_of(a[l])); break;
		case 0x14c: L r[l] = (uint32_t)cvt_i32_f64(floor((double)f32_of(a[l]) + 0.5)); break;
		case 0x14d: L r[l] = (uint32_t)cvt_i32_f64(floor((double)f32_of(a[l]))); break;
		case 0x14a: L r[l] = f32_to_f16(f32_of(a[l])); break; /* high half 0 */
		case 0x173: L {
				float x = f32_of(a[l]);
				int e = 0;
				if (!isnan(x) && !isinf(x))
					(void)frexpf(x, &e);
				r[l] = (uint32_t)e;
			}
			break;
		default: /* 0x150 f32 -> f64 */
			L r64[l] = u64_of((double)f32_of(a[l]));
			wide = true;
			break;
		}
		break;
	}
	case 0x14b: { /* f16 -> f32 */
		const uint32_t *a = isa_vsrc32(w, &in->src[0], tmp);
		L {
			uint32_t h = a[l] & 0xffff;
			if (in->src[0].abs) h &= 0x7fff;
			if (in->src[0].neg) h ^= 0x8000;
			r[l] = u32_of(f16_to_f32((uint16_t)h));
		}
		break;
	}
	case 0x296: { /* v_cvt_pkrtz_f16_f32: round toward zero */
		uint32_t a[ISA_LANES], b[ISA_LANES];
		isa_fetch_f32(w, &in->src[0], a);
		isa_fetch_f32(w, &in->src[1], b);
		L {
			uint16_t lo, hi;
			float x = f32_of(a[l]), y = f32_of(b[l]);
			lo = f32_to_f16(x);
			hi = f32_to_f16(y);
			/* undo a round-up: RTZ never increases the magnitude */
			if (!isnan(x) && fabsf(f16_to_f32(lo)) > fabsf(x)) lo--;
			if (!isnan(y) && fabsf(f16_to_f32(hi)) > fabsf(y)) hi--;
			r[l] = lo | ((uint32_t)hi << 16);
		}
		break;
	}
	case 0x2a0: { /* v_pack_b32_f16 */
		uint32_t ba[ISA_LANES], bb[ISA_LANES];
		const uint32_t *a = isa_vsrc32(w, &in->src[0], ba), *b = isa_vsrc32(w, &in->src[1], bb);
		unsigned s0 = (in->opsel & 1) ? 16 : 0, s1 = (in->opsel & 2) ? 16 : 0;
		L r[l] = ((a[l] >> s0) & 0xffff) | (((b[l] >> s1) & 0xffff) << 16);
		break;
	}
	default:
		return isa_exec_illegal(w, in);
	}
	if (wide) {
		isa_vdst64(w, in->dst, r64);
	} else {
		if (in->clamp && (op == 0x14f || op == 0x145 || op == 0x146 ||
				  (op >= 0x151 && op <= 0x154)))
			isa_outmods_f32(w, in, r);
		isa_vdst32(w, in->dst, r);
	}
	return ISA_STEP_NEXT;
}
