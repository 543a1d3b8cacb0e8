/*
 * test_isa_mathlib.c — OpenCL math-library calls (kernels/mathlib.cl,
 * linked with Debian's rocm-device-libs 5.2.3 by clang-19 for gfx90a and
 * gfx942) run on kfdemu_isa and compared with the host libm.
 *
 * The reference is the host's long double function of the same input,
 * rounded to the kernel's type: glibc's x87 long double functions are
 * far more accurate than the bounds below, so the observed error is the
 * device library's (and the interpreter's) own.  The bound for each
 * function is the OpenCL C full-profile limit (OpenCL C 2.0 spec, 7.4,
 * "ULP values for single / double precision built-in math functions"):
 *   f32: sin/cos 4, tan 5, exp/exp2/log/log2 3, pow 16, sqrt 3, rsqrt 2,
 *        atan2 6, sinh 4, tanh 5, erf 16, cbrt 2, fma/floor/ceil/rint/
 *        fmod/ldexp/frexp 0 (exact);
 *   f64: the same, except sqrt correctly rounded (0).
 * A NaN reference needs a NaN, an infinite one the same infinity, a zero
 * one a zero of the same sign (OpenCL C 7.5.1: edge cases as C99 Annex F).
 * Inputs are edge values (±0, denormals, ±Inf, NaN, huge sin/cos
 * arguments that take ocml's Payne-Hanek path with v_trig_preop_f64)
 * followed by pseudo-random values over each function's domain; each
 * kernel runs on a grid of whole workgroups with the tail guarded, on
 * one ending in a partial workgroup, and on a single work-item.
 *
 * The largest error seen per function and target is printed (stderr).
 */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hl_check.h"
#include "isa_harness.h"

/* Both targets are expected exactly when CMake found clang-19 and the
 * device libraries (ISA_HAVE_MATHLIB); otherwise the test skips. */
#ifndef ISA_HAVE_MATHLIB
#define ISA_HAVE_MATHLIB 0
#endif

#define NRAND 448

enum shape { UN, BIN, TER, LDEXP, FREXP };

struct mfn {
	const char *name;
	enum shape shape;
	long double (*ref)(long double);
	long double (*ref2)(long double, long double);
	unsigned ulp32, ulp64;
	/* random inputs: x uniform in [lo, hi] (y in [lo2, hi2]); bits:
	 * x has random finite positive bits instead */
	double lo, hi, lo2, hi2;
	bool bits;
};

static long double ref_rsqrt(long double x)
{
	return 1.0L / sqrtl(x);
}

/* x / y: f32 2.5 ulp (3 from the rounded reference), f64 correctly
 * rounded */
static long double ref_div(long double x, long double y)
{
	return x / y;
}

static const struct mfn fns[] = {
	{ "sin", UN, sinl, NULL, 4, 4, -100, 100, 0, 0, false },
	{ "cos", UN, cosl, NULL, 4, 4, -100, 100, 0, 0, false },
	{ "tan", UN, tanl, NULL, 5, 5, -100, 100, 0, 0, false },
	{ "exp", UN, expl, NULL, 3, 3, -100, 100, 0, 0, false },
	{ "exp2", UN, exp2l, NULL, 3, 3, -150, 150, 0, 0, false },
	{ "log", UN, logl, NULL, 3, 3, 0, 0, 0, 0, true },
	{ "log2", UN, log2l, NULL, 3, 3, 0, 0, 0, 0, true },
	{ "sqrt", UN, sqrtl, NULL, 3, 0, 0, 0, 0, 0, true },
	{ "rsqrt", UN, ref_rsqrt, NULL, 2, 2, 0, 0, 0, 0, true },
	{ "sinh", UN, sinhl, NULL, 4, 4, -90, 90, 0, 0, false },
	{ "tanh", UN, tanhl, NULL, 5, 5, -20, 20, 0, 0, false },
	{ "erf", UN, erfl, NULL, 16, 16, -6, 6, 0, 0, false },
	{ "cbrt", UN, cbrtl, NULL, 2, 2, 0, 0, 0, 0, true },
	{ "floor", UN, floorl, NULL, 0, 0, -1e7, 1e7, 0, 0, false },
	{ "ceil", UN, ceill, NULL, 0, 0, -1e7, 1e7, 0, 0, false },
	{ "rint", UN, rintl, NULL, 0, 0, -1e7, 1e7, 0, 0, false },
	{ "pow", BIN, NULL, powl, 16, 16, 0, 50, -20, 20, false },
	{ "atan2", BIN, NULL, atan2l, 6, 6, -10, 10, -10, 10, false },
	{ "fmod", BIN, NULL, fmodl, 0, 0, -1e6, 1e6, -100, 100, false },
	{ "div", BIN, NULL, ref_div, 3, 0, -1e3, 1e3, -1e3, 1e3, false },
	{ "fma", TER, NULL, NULL, 0, 0, -1e3, 1e3, -1e3, 1e3, false },
	{ "ldexp", LDEXP, NULL, NULL, 0, 0, -10, 10, -160, 160, false },
	{ "frexp", FREXP, NULL, NULL, 0, 0, 0, 0, 0, 0, true },
};
#define NFNS (sizeof(fns) / sizeof(fns[0]))

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t rnd64(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static double uniform(double lo, double hi)
{
	return lo + (hi - lo) * ((double)(rnd64() >> 11) / 9007199254740992.0);
}

/* The hardest double to reduce mod pi/2 (Muller, "Elementary Functions",
 * table 11.1: 6381956970095103 * 2^797 lies within 2^-61 of an odd
 * multiple of pi/2).  ocml's trigredlarge multiplies by three
 * v_trig_preop_f64 segments, 159 bits of 2/pi past the exponent shift
 * (795 bits here), so the reduced argument keeps only ~42 correct bits
 * and cos/tan come out ~400 ulp from the true value: a limit of the
 * library (the same on hardware), not of the interpreter.  The expected
 * values are the exact cos/tan of x reduced with 2/pi truncated to
 * 795 + 159 bits (mpmath, 3000-bit precision); the interpreter must match
 * them within the usual bound, which checks every bit of the three
 * segments.  True values: cos -0x1.14ae72e6ba22fp-61,
 * tan -0x1.d9ba9a7975636p+60. */
#define HARD_REDUCE (6381956970095103.0 * 0x1p797)
static const struct {
	const char *fn;
	double want;
} hard_reduce[] = {
	{ "cos", -0x1.14ae72e6ba09ap-61 },
	{ "tan", -0x1.d9ba9a79758ebp+60 },
};

/* Edge inputs, common to every function (as x; y and z get 1.5 where
 * the function has them, then the mixed list below). */
static const double edges[] = {
	0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 3.0, -3.0, 10.0, 1e-30, -1e-30,
	INFINITY, -INFINITY, NAN, 1e6, -1e6, 1e22, 1e38, -1e38, 3.0e38,
	/* large sin/cos arguments (f64 only past float's range) */
	1e100, -1e200, 1e300, 1.7976931348623157e308, HARD_REDUCE,
	0x1p1023, 5.0e-324, -5.0e-324, 2.2250738585072014e-308, 0x1p-1030,
	/* float denormals and the float range limits */
	0x1p-149, -0x1p-149, 0x1p-130, 0x1.fffffcp-127, 0x1p-126, 88.7, 89.0, -103.0,
	709.7, 710.0, -745.0, 1024.0, -1075.0, 128.0, -150.0,
	3.14159265358979, 1.5707963267948966, 1e-8, -1e-8,
};
#define NEDGE (sizeof(edges) / sizeof(edges[0]))
/* pairs for the two-argument functions */
static const double edge_pairs[][2] = {
	{ 0.0, -1.0 }, { -0.0, -1.0 }, { 0.0, 0.0 }, { -0.0, -0.0 }, { 1.0, NAN },
	{ NAN, 0.0 }, { -8.0, 1.0 / 3.0 }, { -8.0, 3.0 }, { 2.0, INFINITY },
	{ 0.5, INFINITY }, { -INFINITY, 3.0 }, { INFINITY, -INFINITY }, { 1.0, 0.0 },
	{ -0.0, 0.0 }, { 1e30, 1e-30 }, { 5.0, -0.0 }, { -5.0, INFINITY }, { 7.5, 2.0 },
	{ 1e-40, 2.0 }, { 2.0, 130.0 }, { 2.0, -149.5 }, { -2.0, 1025.0 },
	/* quotients in and near the denormal range, huge divisors
	 * (v_div_scale's scaling cases) */
	{ 1.5, 1.7976931348623157e308 }, { -1.5, 0x1p1022 }, { 0x1p-1000, 0x1p100 },
	{ 1.7976931348623157e308, 0x1p-60 }, { 5e-324, 0.75 }, { 3.0e38, 1e-10 },
	{ 1.5, 3.0e38 }, { 0x1p-120, 0x1p20 },
};
#define NPAIR (sizeof(edge_pairs) / sizeof(edge_pairs[0]))
static const int edge_k[] = { 0, 1, -1, 127, 128, -126, -149, -150, 1023, 1024, -1074, -1075, 2000, -2000 };
#define NK (sizeof(edge_k) / sizeof(edge_k[0]))

/* Exponent of frexp per C99 (the host reference). */
static int frexp_exp(long double x)
{
	int e = 0;
	if (!isfinite(x) || x == 0)
		return 0;
	(void)frexpl(x, &e);
	return e;
}

struct case_data {
	unsigned n;
	double *x, *y, *z;      /* inputs as doubles (converted per type) */
	int *k;
};

static void make_inputs(const struct mfn *f, bool f64, struct case_data *c)
{
	unsigned n = NEDGE + NPAIR + NK + NRAND, i = 0;
	c->x = calloc(n, sizeof(double));
	c->y = calloc(n, sizeof(double));
	c->z = calloc(n, sizeof(double));
	c->k = calloc(n, sizeof(int));
	ck_assert(c->x && c->y && c->z && c->k);
	for (unsigned e = 0; e < NEDGE; e++, i++) {
		c->x[i] = edges[e];
		c->y[i] = 1.5;
		c->z[i] = -0.25;
		c->k[i] = 3;
	}
	if (f->shape != UN && f->shape != FREXP) {
		for (unsigned e = 0; e < NPAIR; e++, i++) {
			c->x[i] = edge_pairs[e][0];
			c->y[i] = edge_pairs[e][1];
			c->z[i] = e & 1 ? -0.0 : edge_pairs[e][0];
			c->k[i] = (int)e - 11;
		}
		for (unsigned e = 0; e < NK; e++, i++) {
			c->x[i] = e & 1 ? 1.5 : 0x1p-140;
			c->y[i] = e & 2 ? -3.0 : 0x1p-130;
			c->z[i] = 1e-45;
			c->k[i] = edge_k[e];
		}
	}
	for (unsigned r = 0; r < NRAND; r++, i++) {
		if (f->bits) {
			if (f64) {
				uint64_t b = rnd64() % 0x7ff0000000000000ull;
				memcpy(&c->x[i], &b, 8);
			} else {
				uint32_t b = (uint32_t)(rnd64() % 0x7f800000u);
				float v;
				memcpy(&v, &b, 4);
				c->x[i] = v;
			}
			if (f->shape == FREXP && (r & 1))
				c->x[i] = -c->x[i];
		} else {
			c->x[i] = uniform(f->lo, f->hi);
		}
		c->y[i] = uniform(f->lo2, f->hi2);
		c->z[i] = uniform(f->lo, f->hi);
		c->k[i] = (int)lround(c->y[i] * (f64 ? 7.0 : 1.0));
		if (f->shape == FREXP || f->shape == LDEXP)
			c->x[i] *= (r & 3) == 0 ? 1e-300 : 1.0;
		if (!strcmp(f->name, "fmod") && (r & 7) == 0)
			c->x[i] = uniform(-1e30, 1e30);
	}
	c->n = i;
}

static void free_inputs(struct case_data *c)
{
	free(c->x);
	free(c->y);
	free(c->z);
	free(c->k);
}

/* Reference value of f at input i, in long double. */
static long double reference(const struct mfn *f, bool f64, long double x, long double y, long double z, int k)
{
	switch (f->shape) {
	case UN:
		/* sqrt f64 is checked as correctly rounded: no double rounding */
		if (f64 && f->ref == sqrtl)
			return sqrt((double)x);
		return f->ref(x);
	case BIN:
		/* f64 x / y is checked as correctly rounded */
		if (f64 && f->ref2 == ref_div)
			return (double)x / (double)y;
		return f->ref2(x, y);
	case TER:
		/* fmal then a second rounding is not fma: it misrounds when
		 * the long double sum lands on a float/double midpoint */
		return f64 ? fma((double)x, (double)y, (double)z) : fmaf((float)x, (float)y, (float)z);
	case LDEXP:
		return ldexpl(x, k);
	case FREXP: {
		int e;
		return frexpl(x, &e);
	}
	}
	return NAN;
}

/* Kernel arguments: np pointers, uint n, then the code object v5
 * implicit arguments (AMDGPU LLVM docs, "Code Object V5 Metadata"):
 * hidden_block_count_{x,y,z} u32 at +0, hidden_group_size_{x,y,z} u16
 * at +12, hidden_remainder_{x,y,z} u16 at +18, hidden_global_offset_*
 * u64 at +40, hidden_grid_dims u16 at +64; +256 in all. */
struct kargs {
	uint8_t b[64 + 256];
	size_t size;
};

static void kargs_build(struct kargs *a, const uint64_t *ptrs, unsigned np, uint32_t n, uint32_t grid,
			uint16_t wg)
{
	size_t imp = (8 * np + 4 + 7) & ~(size_t)7;
	uint32_t blocks = (grid + wg - 1) / wg, one = 1;
	uint16_t rem = (uint16_t)(grid % wg), wg1 = 1, dims = 1, zero = 0;
	memset(a, 0, sizeof(*a));
	memcpy(a->b, ptrs, 8 * np);
	memcpy(a->b + 8 * np, &n, 4);
	memcpy(a->b + imp + 0, &blocks, 4);
	memcpy(a->b + imp + 4, &one, 4);
	memcpy(a->b + imp + 8, &one, 4);
	memcpy(a->b + imp + 12, &wg, 2);
	memcpy(a->b + imp + 14, &wg1, 2);
	memcpy(a->b + imp + 16, &wg1, 2);
	memcpy(a->b + imp + 18, &rem, 2);
	memcpy(a->b + imp + 20, &zero, 2);
	memcpy(a->b + imp + 22, &zero, 2);
	memcpy(a->b + imp + 64, &dims, 2);
	a->size = imp + 256;
}

static const char *gfx_name(uint32_t gfx)
{
	return gfx == KEMU_ISA_GFX942 ? "gfx942" : "gfx90a";
}

/* One comparison; returns the ULP error (0 for exact functions),
 * failing the test past `bound` or on a special-value mismatch. */
static uint64_t check_one(const struct mfn *f, bool f64, uint32_t gfx, double x, double y, long double want,
			  double got, unsigned bound)
{
	uint64_t u;
	const char *t = f64 ? "f64" : "f32";
	if (isnan(want)) {
		ck_assert_msg(isnan(got), "%s %s_%s(%a, %a) = %a, expected NaN", gfx_name(gfx), f->name, t, x, y, got);
		return 0;
	}
	if (want == 0 || isinf(want)) {
		ck_assert_msg(got == (double)want && !signbit(got) == !signbit(want),
			      "%s %s_%s(%a, %a) = %a, expected %La", gfx_name(gfx), f->name, t, x, y, got, want);
		return 0;
	}
	u = f64 ? hx_ulp64(got, (double)want) : hx_ulp32((float)got, (float)want);
	ck_assert_msg(u <= bound, "%s %s_%s(%a, %a) = %a, expected %a: %llu ulp > %u", gfx_name(gfx), f->name, t, x, y,
		      got, f64 ? (double)want : (double)(float)want, (unsigned long long)u, bound);
	return u;
}

static void run_fn(struct hx_code *code, uint32_t gfx, const struct mfn *f, bool f64)
{
	static const struct { uint16_t wg; int grid; } shapes[] = {
		{ 64, 0 },     /* grid = n: the last workgroup is partial */
		{ 256, 1 },    /* grid rounded up to whole workgroups, tail guarded */
		{ 1, 2 },      /* one work-item */
	};
	size_t es = f64 ? 8 : 4;
	char kname[64];
	struct case_data c;
	uint64_t kd, maxu = 0;

	snprintf(kname, sizeof(kname), "%s_%s", f->name, f64 ? "f64" : "f32");
	kd = hx_kd(code, kname);
	ck_assert_msg(kd != 0, "no %s.kd", kname);
	make_inputs(f, f64, &c);
	for (unsigned s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
		uint32_t n = shapes[s].grid == 2 ? 1 : c.n, grid;
		uint16_t wg = shapes[s].wg;
		void *a = hx_alloc(n * es), *b = hx_alloc(n * es), *z = hx_alloc(n * es), *r = hx_alloc(n * es);
		int *k = hx_alloc(n * 4);
		uint64_t p[5];
		unsigned np = 0;
		struct kargs ka;
		struct kemu_isa_error err;
		struct hx_launch l;

		ck_assert(a && b && z && r && k);
		for (uint32_t i = 0; i < n; i++) {
			if (f64) {
				((double *)a)[i] = c.x[i];
				((double *)b)[i] = c.y[i];
				((double *)z)[i] = c.z[i];
			} else {
				((float *)a)[i] = (float)c.x[i];
				((float *)b)[i] = (float)c.y[i];
				((float *)z)[i] = (float)c.z[i];
			}
			k[i] = c.k[i];
			/* poison: an untouched output fails the check */
			memset((uint8_t *)r + i * es, 0x7f, es);
		}
		p[np++] = (uint64_t)(uintptr_t)a;
		switch (f->shape) {
		case UN: break;
		case BIN: p[np++] = (uint64_t)(uintptr_t)b; break;
		case TER:
			p[np++] = (uint64_t)(uintptr_t)b;
			p[np++] = (uint64_t)(uintptr_t)z;
			break;
		case LDEXP: p[np++] = (uint64_t)(uintptr_t)k; break;
		case FREXP: break;
		}
		p[np++] = (uint64_t)(uintptr_t)r;
		if (f->shape == FREXP) {
			p[np++] = (uint64_t)(uintptr_t)k;
			memset(k, 0x55, n * 4);
		}
		grid = shapes[s].grid == 1 ? (n + wg - 1) / wg * wg : n;
		kargs_build(&ka, p, np, n, grid, wg);
		memset(&l, 0, sizeof(l));
		l.gfx = gfx;
		l.kd = kd;
		l.args = ka.b;
		l.args_size = ka.size;
		l.grid[0] = grid;
		l.wg[0] = wg;
		ck_assert_msg(hx_run(&l, &err) == 0, "%s %s (grid %u, wg %u): %s: %s", gfx_name(gfx), kname, grid,
			      wg, kemu_isa_error_name(err.kind), err.message);
		for (uint32_t i = 0; i < n; i++) {
			long double x = f64 ? (long double)((double *)a)[i] : (long double)((float *)a)[i];
			long double y = f64 ? (long double)((double *)b)[i] : (long double)((float *)b)[i];
			long double zz = f64 ? (long double)((double *)z)[i] : (long double)((float *)z)[i];
			long double want = reference(f, f64, x, y, zz, c.k[i]);
			double got = f64 ? ((double *)r)[i] : (double)((float *)r)[i];
			uint64_t u;
			if (!f64)
				want = (float)want;
			else
				want = (double)want;
			for (unsigned h = 0; f64 && x == HARD_REDUCE && h < 2; h++)
				if (!strcmp(f->name, hard_reduce[h].fn))
					want = hard_reduce[h].want;
			u = check_one(f, f64, gfx, (double)x, (double)y, want, got, f64 ? f->ulp64 : f->ulp32);
			if (u > maxu)
				maxu = u;
			if (f->shape == FREXP)
				ck_assert_msg(k[i] == frexp_exp(x), "%s %s(%La): exponent %d, expected %d",
					      gfx_name(gfx), kname, x, k[i], frexp_exp(x));
		}
		hx_free(a);
		hx_free(b);
		hx_free(z);
		hx_free(r);
		hx_free(k);
	}
	fprintf(stderr, "mathlib %s %-8s max %llu ulp (bound %u, %u inputs)\n", gfx_name(gfx), kname,
		(unsigned long long)maxu, f64 ? f->ulp64 : f->ulp32, c.n);
	free_inputs(&c);
}

static void run_target(uint32_t gfx, bool f64)
{
	char path[600];
	struct hx_code code;
	const char *only = getenv("ISA_TARGET");
	const char *fn = getenv("ISA_MATHLIB_FN");

	if (only && strcmp(only, gfx_name(gfx)))
		return;
	if (!hx_kernel_path("mathlib", gfx, path, sizeof(path))) {
		/* not built: only allowed when CMake skipped it */
		ck_assert_msg(!ISA_HAVE_MATHLIB, "%s was not built", path);
		return;
	}
	ck_assert_msg(hx_load(&code, path) == 0, "cannot load %s", path);
	for (unsigned i = 0; i < NFNS; i++)
		if (!fn || !strcmp(fn, fns[i].name))
			run_fn(&code, gfx, &fns[i], f64);
	hx_unload(&code);
}

START_TEST(test_mathlib_f32_gfx90a) { run_target(KEMU_ISA_GFX90A, false); }
END_TEST
START_TEST(test_mathlib_f64_gfx90a) { run_target(KEMU_ISA_GFX90A, true); }
END_TEST
START_TEST(test_mathlib_f32_gfx942) { run_target(KEMU_ISA_GFX942, false); }
END_TEST
START_TEST(test_mathlib_f64_gfx942) { run_target(KEMU_ISA_GFX942, true); }
END_TEST

static Suite *mathlib_suite(void)
{
	Suite *s = suite_create("isa_mathlib");
	TCase *tc = tcase_create("mathlib");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_mathlib_f32_gfx90a);
	tcase_add_test(tc, test_mathlib_f64_gfx90a);
	tcase_add_test(tc, test_mathlib_f32_gfx942);
	tcase_add_test(tc, test_mathlib_f64_gfx942);
	suite_add_tcase(s, tc);
	return s;
}

/* Skipped (77) when CMake did not build mathlib (no clang-19 or no
 * device libraries): there is nothing to run. */
int main(void)
{
	if (!ISA_HAVE_MATHLIB)
		return HL_SKIP;
	return hl_check_run(mathlib_suite());
}
