/*
 * test_isa_corpus.c — the OpenCL corpus (kernels/corpus.cl) compiled by
 * stock clang for gfx90a and gfx942, run on kfdemu_isa workgroup by
 * workgroup and compared with host references, for several grid sizes
 * including partial workgroups.  Integer and basic f32/f64 arithmetic
 * must match exactly; where the compiler expands division or sqrt the
 * bound is stated at the check (correctly rounded here, since the
 * interpreter's v_rcp/v_sqrt are correctly rounded and the expansions
 * are exact for them).
 */
#include <math.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hl_check.h"
#include "isa_harness.h"

static const uint32_t targets[2] = { KEMU_ISA_GFX90A, KEMU_ISA_GFX942 };

struct kern {
	struct hx_code code;
	uint64_t kd;
	uint32_t gfx;
};

/* Load kernel `name` of corpus-<gfx>.co; false when not built. */
static bool kern_get_from(struct kern *k, const char *stem, uint32_t gfx, const char *name);
static bool kern_get(struct kern *k, uint32_t gfx, const char *name)
{
	return kern_get_from(k, "corpus", gfx, name);
}

static bool kern_get_from(struct kern *k, const char *stem, uint32_t gfx, const char *name)
{
	char path[600];
	const char *only = getenv("ISA_TARGET");
	memset(k, 0, sizeof(*k));
	k->gfx = gfx;
	if (only && strcmp(only, gfx == KEMU_ISA_GFX942 ? "gfx942" : "gfx90a"))
		return false;
	if (!hx_kernel_path(stem, gfx, path, sizeof(path))) {
		/* only a target whose compiler CMake did not find may be
		 * missing; otherwise the test must not pass silently */
		ck_assert_msg(!hx_target_expected(gfx), "%s was not built", path);
		return false;
	}
	ck_assert_msg(hx_load(&k->code, path) == 0, "cannot load %s", path);
	k->kd = hx_kd(&k->code, name);
	ck_assert_msg(k->kd != 0, "no %s.kd in %s", name, path);
	return true;
}

static void run_ok(struct kern *k, const void *args, size_t asz, uint32_t gx, uint32_t gy,
		   uint16_t wx, uint16_t wy)
{
	struct hx_launch l = { .gfx = k->gfx, .kd = k->kd, .args = args, .args_size = asz,
			       .grid = { gx, gy, 1 }, .wg = { wx, wy, 1 } };
	struct kemu_isa_error err;
	int rc = hx_run(&l, &err);
	ck_assert_msg(rc == 0, "%s: dispatch failed: %s: %s", k->gfx == KEMU_ISA_GFX942 ? "gfx942" : "gfx90a",
		      kemu_isa_error_name(err.kind), err.message);
}

static uint64_t va(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

static uint32_t rng_state = 12345;
static uint32_t rnd(void)
{
	rng_state = rng_state * 1664525u + 1013904223u;
	return rng_state >> 8;
}


/* ---- vadd ---- */
START_TEST(test_vadd)
{
	static const uint32_t sizes[] = { 1, 64, 100, 256, 1000, 4097 };
	int ran = 0;
	for (int t = 0; t < 2; t++) {
		struct kern k;
		if (!kern_get(&k, targets[t], "vadd"))
			continue;
		ran++;
		for (unsigned s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
			uint32_t n = sizes[s];
			float *a = hx_alloc(n * 4), *b = hx_alloc(n * 4), *c = hx_alloc(n * 4);
			struct { uint64_t a, b, c; uint32_t n; } args = { va(a), va(b), va(c), n };
			for (uint32_t i = 0; i < n; i++) {
				a[i] = (float)(rnd() % 1000) * 0.37f;
				b[i] = (float)(rnd() % 1000) * -1.13f;
				c[i] = -99.0f;
			}
			run_ok(&k, &args, sizeof(args), n, 1, 256, 1);
			for (uint32_t i = 0; i < n; i++)
				ck_assert_msg(c[i] == a[i] + b[i], "n=%u c[%u] = %a, expected %a", n, i,
					      (double)c[i], (double)(a[i] + b[i]));
			hx_free(a);
			hx_free(b);
			hx_free(c);
		}
		hx_unload(&k.code);
	}
	if (!ran)
		fprintf(stderr, "vadd: no compiled corpus (compilers missing)\n");
}
END_TEST


/* Each test runs on every built target. */
#define FOR_EACH_TARGET(k, name) \
	for (int t_ = 0; t_ < 2; t_++) \
		if (kern_get(&k, targets[t_], name))

static void kern_put(struct kern *k)
{
	hx_unload(&k->code);
}

START_TEST(test_saxpy)
{
	static const uint32_t sizes[] = { 63, 64, 65, 777 };
	struct kern k;
	FOR_EACH_TARGET(k, "saxpy") {
		for (unsigned s = 0; s < 4; s++) {
			uint32_t n = sizes[s];
			float *x = hx_alloc(n * 4), *y = hx_alloc(n * 4), *ref = malloc(n * 4);
			struct { float a; uint32_t pad; uint64_t x, y; uint32_t n; } args = { 2.5f, 0, va(x), va(y), n };
			for (uint32_t i = 0; i < n; i++) {
				x[i] = (float)(int)(rnd() % 2001 - 1000) / 64.0f;
				y[i] = (float)(int)(rnd() % 2001 - 1000) / 32.0f;
				/* the compiler contracts a*x+y into one fma: reference too */
				ref[i] = fmaf(2.5f, x[i], y[i]);
			}
			run_ok(&k, &args, sizeof(args), n, 1, 64, 1);
			for (uint32_t i = 0; i < n; i++)
				ck_assert_msg(y[i] == ref[i], "n=%u y[%u]=%a expected %a", n, i, (double)y[i], (double)ref[i]);
			hx_free(x);
			hx_free(y);
			free(ref);
		}
		kern_put(&k);
	}
}
END_TEST

START_TEST(test_index2d)
{
	static const uint32_t dims[][4] = { { 16, 16, 8, 8 }, { 37, 23, 16, 4 }, { 100, 3, 32, 2 } };
	struct kern k;
	FOR_EACH_TARGET(k, "index2d") {
		for (unsigned s = 0; s < 3; s++) {
			uint32_t w = dims[s][0], h = dims[s][1];
			uint32_t *out = hx_alloc(w * h * 4);
			struct { uint64_t out; uint32_t w, h; } args = { va(out), w, h };
			run_ok(&k, &args, sizeof(args), w, h, (uint16_t)dims[s][2], (uint16_t)dims[s][3]);
			for (uint32_t y = 0; y < h; y++)
				for (uint32_t x = 0; x < w; x++)
					ck_assert_msg(out[y * w + x] == ((y << 16) | x),
						      "%ux%u: out[%u][%u]=0x%x expected 0x%x", w, h, y, x,
						      out[y * w + x], (y << 16) | x);
			hx_free(out);
		}
		kern_put(&k);
	}
}
END_TEST

START_TEST(test_reduce)
{
	static const uint32_t sizes[] = { 256, 1000, 3000 };
	struct kern k;
	FOR_EACH_TARGET(k, "reduce") {
		for (unsigned s = 0; s < 3; s++) {
			uint32_t n = sizes[s], nwg = (n + 255) / 256;
			float *in = hx_alloc(n * 4), *out = hx_alloc(nwg * 4);
			struct { uint64_t in, out; uint32_t n; } args = { va(in), va(out), n };
			for (uint32_t i = 0; i < n; i++)
				in[i] = (float)(rnd() % 100);   /* small integers: sums exact */
			run_ok(&k, &args, sizeof(args), n, 1, 256, 1);
			for (uint32_t g = 0; g < nwg; g++) {
				float ref = 0;
				for (uint32_t i = g * 256; i < n && i < g * 256 + 256; i++)
					ref += in[i];
				ck_assert_msg(out[g] == ref, "n=%u wg %u: %g expected %g", n, g, (double)out[g], (double)ref);
			}
			hx_free(in);
			hx_free(out);
		}
		kern_put(&k);
	}
}
END_TEST

START_TEST(test_matmul)
{
	static const uint32_t sizes[] = { 16, 40 };
	struct kern k;
	FOR_EACH_TARGET(k, "matmul") {
		for (unsigned s = 0; s < 2; s++) {
			uint32_t n = sizes[s], g = (n + 15) / 16 * 16;
			float *A = hx_alloc(n * n * 4), *B = hx_alloc(n * n * 4), *C = hx_alloc(n * n * 4);
			struct { uint64_t a, b, c; uint32_t n; } args = { va(A), va(B), va(C), n };
			for (uint32_t i = 0; i < n * n; i++) {
				A[i] = (float)((int)(rnd() % 9) - 4);
				B[i] = (float)((int)(rnd() % 9) - 4);
			}
			run_ok(&k, &args, sizeof(args), g, g, 16, 16);
			for (uint32_t r = 0; r < n; r++)
				for (uint32_t c = 0; c < n; c++) {
					float ref = 0;
					for (uint32_t i = 0; i < n; i++)
						ref += A[r * n + i] * B[i * n + c];
					ck_assert_msg(C[r * n + c] == ref, "n=%u C[%u][%u]=%g expected %g", n, r, c,
						      (double)C[r * n + c], (double)ref);
				}
			hx_free(A);
			hx_free(B);
			hx_free(C);
		}
		kern_put(&k);
	}
}
END_TEST

START_TEST(test_histogram)
{
	static const uint32_t sizes[] = { 100, 1024, 5000 };
	struct kern k;
	FOR_EACH_TARGET(k, "histogram") {
		for (unsigned s = 0; s < 3; s++) {
			uint32_t n = sizes[s], ref[64] = { 0 };
			uint32_t *in = hx_alloc(n * 4), *bins = hx_alloc(64 * 4);
			struct { uint64_t in, bins; uint32_t n; } args = { va(in), va(bins), n };
			for (uint32_t i = 0; i < n; i++) {
				in[i] = rnd();
				ref[in[i] & 63]++;
			}
			run_ok(&k, &args, sizeof(args), n, 1, 128, 1);
			for (uint32_t b = 0; b < 64; b++)
				ck_assert_msg(bins[b] == ref[b], "n=%u bin %u: %u expected %u", n, b, bins[b], ref[b]);
			hx_free(in);
			hx_free(bins);
		}
		kern_put(&k);
	}
}
END_TEST

START_TEST(test_scan)
{
	static const uint32_t sizes[] = { 256, 300, 1000 };
	struct kern k;
	FOR_EACH_TARGET(k, "scan") {
		for (unsigned s = 0; s < 3; s++) {
			uint32_t n = sizes[s];
			uint32_t *in = hx_alloc(n * 4), *out = hx_alloc(n * 4);
			struct { uint64_t in, out; uint32_t n; } args = { va(in), va(out), n };
			for (uint32_t i = 0; i < n; i++)
				in[i] = rnd() % 1000;
			run_ok(&k, &args, sizeof(args), n, 1, 256, 1);
			for (uint32_t i = 0, acc = 0; i < n; i++) {
				acc = (i % 256 == 0) ? in[i] : acc + in[i];
				ck_assert_msg(out[i] == acc, "n=%u out[%u]=%u expected %u", n, i, out[i], acc);
			}
			hx_free(in);
			hx_free(out);
		}
		kern_put(&k);
	}
}
END_TEST

START_TEST(test_dloop)
{
	struct kern k;
	FOR_EACH_TARGET(k, "dloop") {
		uint32_t n = 200, iters = 17;
		double *in = hx_alloc(n * 8), *out = hx_alloc(n * 8);
		struct { uint64_t in, out; uint32_t n, iters; } args = { va(in), va(out), n, iters };
		for (uint32_t i = 0; i < n; i++)
			in[i] = (double)(rnd() % 100000) / 1000.0 + (i == 0 ? 0 : 0.5);
		run_ok(&k, &args, sizeof(args), n, 1, 64, 1);
		for (uint32_t i = 0; i < n; i++) {
			double acc = 0.0, x = in[i];
			for (uint32_t kk = 1; kk <= iters; kk++)
				acc += sqrt(fma(x, (double)kk, 1.0)) / (x + (double)kk);
			/* f64 division is expanded with v_div_scale/v_rcp/fma/
			 * v_div_fmas/v_div_fixup: correctly rounded; sqrt is
			 * v_sqrt_f64 (correctly rounded here; the hardware is within
			 * 1 ULP): allow 2 ULP per step accumulated over the loop. */
			ck_assert_msg(hx_ulp64(out[i], acc) <= 2 * iters, "out[%u]=%.17g expected %.17g (%llu ulp)",
				      i, out[i], acc, (unsigned long long)hx_ulp64(out[i], acc));
		}
		hx_free(in);
		hx_free(out);
		kern_put(&k);
	}
}
END_TEST

static uint32_t privarr_ref(uint32_t i, uint32_t idx)
{
	uint32_t arr[40];
	for (uint32_t k = 0; k < 40; k++)
		arr[k] = i * 3 + k * k;
	for (uint32_t k = 0; k < 8; k++) {
		uint32_t j = (idx + k * 7) % 40;
		arr[j] ^= arr[(j + 13) % 40] + k;
	}
	return arr[idx % 40] + arr[(idx >> 8) % 40];
}

START_TEST(test_privarr)
{
	static const uint32_t sizes[] = { 64, 150 };
	struct kern k;
	FOR_EACH_TARGET(k, "privarr") {
		for (unsigned s = 0; s < 2; s++) {
			uint32_t n = sizes[s];
			uint32_t *idx = hx_alloc(n * 4), *out = hx_alloc(n * 4);
			struct { uint64_t idx, out; uint32_t n; } args = { va(idx), va(out), n };
			for (uint32_t i = 0; i < n; i++)
				idx[i] = rnd();
			run_ok(&k, &args, sizeof(args), n, 1, 64, 1);
			for (uint32_t i = 0; i < n; i++)
				ck_assert_msg(out[i] == privarr_ref(i, idx[i]), "n=%u out[%u]=%u expected %u", n, i,
					      out[i], privarr_ref(i, idx[i]));
			hx_free(idx);
			hx_free(out);
		}
		kern_put(&k);
	}
}
END_TEST

START_TEST(test_idiv)
{
	struct kern k;
	FOR_EACH_TARGET(k, "idiv") {
		uint32_t n = 300;
		int32_t *a = hx_alloc(n * 4), *b = hx_alloc(n * 4), *q = hx_alloc(n * 4), *r = hx_alloc(n * 4);
		uint32_t *uq = hx_alloc(n * 4), *ur = hx_alloc(n * 4);
		struct { uint64_t a, b, q, r, uq, ur; uint32_t n; } args = { va(a), va(b), va(q), va(r), va(uq), va(ur), n };
		for (uint32_t i = 0; i < n; i++) {
			a[i] = (int32_t)(rnd() * 2654435761u);
			b[i] = (int32_t)(rnd() % 20000) - 10000;
			if (i % 7 == 0)
				b[i] = (int32_t)(rnd() << 8);
			if (b[i] == 0 || (b[i] == -1 && a[i] == INT32_MIN))
				b[i] = 3;
		}
		a[0] = INT32_MIN; b[0] = 7;
		a[1] = INT32_MAX; b[1] = -1;
		a[2] = -7; b[2] = 2;
		run_ok(&k, &args, sizeof(args), n, 1, 64, 1);
		for (uint32_t i = 0; i < n; i++) {
			ck_assert_msg(q[i] == a[i] / b[i] && r[i] == a[i] % b[i], "%d / %d: q=%d r=%d expected %d %d",
				      a[i], b[i], q[i], r[i], a[i] / b[i], a[i] % b[i]);
			ck_assert_msg(uq[i] == (uint32_t)a[i] / (uint32_t)b[i] && ur[i] == (uint32_t)a[i] % (uint32_t)b[i],
				      "%u / %u: q=%u r=%u", (uint32_t)a[i], (uint32_t)b[i], uq[i], ur[i]);
		}
		hx_free(a); hx_free(b); hx_free(q); hx_free(r); hx_free(uq); hx_free(ur);
		kern_put(&k);
	}
}
END_TEST

START_TEST(test_convert)
{
	struct kern k;
	FOR_EACH_TARGET(k, "convert") {
		uint32_t n = 256;
		float *f = hx_alloc(n * 4), *sf = hx_alloc(n * 4), *uf = hx_alloc(n * 4), *df = hx_alloc(n * 4);
		int32_t *s = hx_alloc(n * 4), *fi = hx_alloc(n * 4), *sat = hx_alloc(n * 4);
		uint32_t *fu = hx_alloc(n * 4);
		double *fd = hx_alloc(n * 8);
		struct { uint64_t f, s, fi, fu, sf, uf, fd, df, sat; uint32_t n; } args = {
			va(f), va(s), va(fi), va(fu), va(sf), va(uf), va(fd), va(df), va(sat), n };
		for (uint32_t i = 0; i < n; i++) {
			uint32_t bits = rnd() | (rnd() << 24);
			memcpy(&f[i], &bits, 4);
			if (i % 3 == 0)
				f[i] = (float)((int)(rnd() % 200001) - 100000) / 7.0f;
			s[i] = (int32_t)(rnd() * 2654435761u);
		}
		f[0] = INFINITY; f[1] = -INFINITY; f[2] = NAN; f[3] = 3e9f; f[4] = -3e9f; f[5] = -0.0f;
		f[6] = 2147483520.0f; f[7] = 1e-40f;
		run_ok(&k, &args, sizeof(args), n, 1, 64, 1);
		for (uint32_t i = 0; i < n; i++) {
			float x = f[i];
			float xc = x > 2.0e9f ? 2.0e9f : x < -2.0e9f ? -2.0e9f : x;
			int32_t esat = x != x ? 0 : x >= 2147483647.0f ? INT32_MAX : x <= -2147483648.0f ? INT32_MIN : (int32_t)x;
			if (x == x) {
				ck_assert_msg(fi[i] == (int32_t)xc, "(int)%a = %d expected %d", (double)x, fi[i], (int32_t)xc);
				ck_assert_msg(fu[i] == (uint32_t)(xc < 0 ? -xc : xc), "(uint)|%a| = %u", (double)x, fu[i]);
			}
			ck_assert_msg(sat[i] == esat, "sat(%a) = %d expected %d", (double)x, sat[i], esat);
			ck_assert_msg(sf[i] == (float)s[i], "(float)%d = %a", s[i], (double)sf[i]);
			ck_assert_msg(uf[i] == (float)(uint32_t)s[i], "(float)%u = %a", (uint32_t)s[i], (double)uf[i]);
			if (x == x)
				ck_assert_msg(fd[i] == (double)x * 3.0, "(double)%a*3 = %a", (double)x, fd[i]);
			ck_assert_msg(df[i] == (float)((double)s[i] / 7.0), "(float)(%d/7.0) = %a expected %a", s[i],
				      (double)df[i], (double)(float)((double)s[i] / 7.0));
		}
		hx_free(f); hx_free(sf); hx_free(uf); hx_free(df); hx_free(s); hx_free(fi); hx_free(sat);
		hx_free(fu); hx_free(fd);
		kern_put(&k);
	}
}
END_TEST

/* the kernel's polynomials, evaluated in double after the same f32 range
 * reduction */
static double ref_sin(float x)
{
	float k = rintf(x * 0.31830988618f);
	double r = (double)x - (double)k * 3.14159265359;
	double r2 = r * r;
	double p = r * (1.0 + r2 * (-0.1666666667 + r2 * (0.008333333 + r2 * (-0.000198412698 + r2 * 2.75573e-6))));
	return ((int)k & 1) ? -p : p;
}
static double ref_exp(float x)
{
	float k = rintf(x * 1.44269504089f);
	double r = (double)x - (double)k * 0.69314718056;
	double p = 1.0 + r * (1.0 + r * (0.5 + r * (0.1666666667 + r * (0.0416666667 + r * (0.00833333333 + r * 0.00138888889)))));
	return ldexp(p, (int)k);
}

START_TEST(test_mathlib)
{
	struct kern k;
	FOR_EACH_TARGET(k, "mathlib") {
		uint32_t n = 500;
		float *x = hx_alloc(n * 4), *s = hx_alloc(n * 4), *e = hx_alloc(n * 4), *q = hx_alloc(n * 4);
		float *rt = hx_alloc(n * 4);
		struct { uint64_t x, s, e, q, rt; uint32_t n; } args = { va(x), va(s), va(e), va(q), va(rt), n };
		for (uint32_t i = 0; i < n; i++)
			x[i] = ((float)(rnd() % 20001) - 10000.0f) / 1000.0f;
		run_ok(&k, &args, sizeof(args), n, 1, 64, 1);
		for (uint32_t i = 0; i < n; i++) {
			float v = x[i];
			/* the references evaluate the same polynomials in double;
			 * f32 evaluation with or without fma contraction stays
			 * within 4 f32 ULP of 1.0 (4.8e-7) absolute for sin and
			 * relative for exp */
			ck_assert_msg(fabs((double)s[i] - ref_sin(v)) < 5e-7, "sin(%g) = %.9g expected %.9g", (double)v,
				      (double)s[i], ref_sin(v));
			ck_assert_msg(fabs((double)e[i] / ref_exp(v * 0.25f) - 1.0) < 5e-7, "exp(%g) = %.9g expected %.9g",
				      (double)v * 0.25, (double)e[i], ref_exp(v * 0.25f));
			/* OpenCL 1.2 allows 2.5 ULP for f32 division and clang-14
			 * emits the fast v_rcp_f32 * x form for gfx90a (its result
			 * depends on v_rcp's rounding, 1 ULP on hardware); clang-19
			 * emits the div_scale/fmas/fixup expansion */
			ck_assert_msg(hx_ulp32(q[i], v / (v * v + 1.5f)) <= 3, "%g/(..) = %a expected %a", (double)v,
				      (double)q[i], (double)(v / (v * v + 1.5f)));
			ck_assert_msg(hx_ulp32(rt[i], sqrtf(v * v + 2.0f)) <= 1, "sqrt = %a expected %a",
				      (double)rt[i], (double)sqrtf(v * v + 2.0f));
		}
		hx_free(x); hx_free(s); hx_free(e); hx_free(q); hx_free(rt);
		kern_put(&k);
	}
}
END_TEST

START_TEST(test_kernarg_preload)
{
	int ran = 0;
	for (int t = 0; t < 2; t++) {
		char path[600];
		struct kern k;
		uint32_t n = 200;
		memset(&k, 0, sizeof(k));
		k.gfx = targets[t];
		if (!hx_kernel_path("preload", k.gfx, path, sizeof(path))) {
			ck_assert_msg(!hx_target_expected(KEMU_ISA_GFX942), "%s not built", path);
			continue;
		}
		ck_assert_int_eq(hx_load(&k.code, path), 0);
		k.kd = hx_kd(&k.code, "preload");
		ck_assert(k.kd != 0);
		/* the descriptor asks for preloading (KERNARG_PRELOAD_SPEC_LENGTH) */
		ck_assert_uint_ne(*(const uint16_t *)(uintptr_t)(k.kd + 58) & 0x7f, 0);
		float *x = hx_alloc(n * 4), *y = hx_alloc(n * 4);
		struct { float a; uint32_t pad; uint64_t x, y; uint32_t n; } args = { -1.5f, 0, va(x), va(y), n };
		for (uint32_t i = 0; i < n; i++) {
			x[i] = (float)i;
			y[i] = 1.0f;
		}
		run_ok(&k, &args, sizeof(args), n, 1, 64, 1);
		for (uint32_t i = 0; i < n; i++)
			ck_assert_msg(y[i] == fmaf(-1.5f, (float)i, 1.0f), "%s y[%u] = %g", path, i, (double)y[i]);
		hx_free(x);
		hx_free(y);
		hx_unload(&k.code);
		ran++;
	}
	(void)ran;
}
END_TEST

/* OpenCL 2.0 generic pointers into LDS and private memory (FLAT through
 * the apertures), dereferenced in a function the kernel calls (s_swappc /
 * s_setpc_b64: decoded when first reached). */
START_TEST(test_generic_pointers_and_calls)
{
	for (int t = 0; t < 2; t++) {
		struct kern k;
		uint32_t n = 150, extra = 7;
		if (!kern_get_from(&k, "generic", targets[t], "genptr"))
			continue;
		int32_t *out = hx_alloc(n * 4);
		struct { uint64_t out; int32_t n; } args = { va(out), (int32_t)extra };
		run_ok(&k, &args, sizeof(args), n, 1, 64, 1);
		for (uint32_t i = 0; i < n; i++) {
			int32_t lid = (int32_t)(i % 64), l = lid, priv[4];
			for (int q = 0; q < 4; q++)
				priv[q] = lid * 2 + q;
			if (lid & 1)
				l += 100 + (int32_t)extra;
			else
				priv[lid & 3] += 100 + (int32_t)extra;
			ck_assert_msg(out[i] == l + priv[lid & 3], "%s: out[%u] = %d expected %d",
				      targets[t] == KEMU_ISA_GFX942 ? "gfx942" : "gfx90a", i, out[i],
				      l + priv[lid & 3]);
		}
		hx_free(out);
		kern_put(&k);
	}
}
END_TEST

/* Workgroups on four host threads at once (the CP's thread pool): global
 * atomics from every thread, and scratch in per-thread slots. */
START_TEST(test_workgroups_on_threads)
{
	for (int t = 0; t < 2; t++) {
		struct kern k;
		uint32_t n = 20000, ref[64] = { 0 };
		struct kemu_isa_error err;
		if (!kern_get(&k, targets[t], "histogram"))
			continue;
		uint32_t *in = hx_alloc(n * 4), *bins = hx_alloc(256);
		struct { uint64_t in, bins; uint32_t n; } a = { va(in), va(bins), n };
		for (uint32_t i = 0; i < n; i++) {
			in[i] = rnd();
			ref[in[i] & 63]++;
		}
		struct hx_launch l = { .gfx = k.gfx, .kd = k.kd, .args = &a, .args_size = sizeof(a),
				       .grid = { n, 1, 1 }, .wg = { 64, 1, 1 }, .threads = 4 };
		ck_assert_msg(hx_run(&l, &err) == 0, "%s", err.message);
		for (int b = 0; b < 64; b++)
			ck_assert_msg(bins[b] == ref[b], "bin %d: %u expected %u", b, bins[b], ref[b]);
		hx_free(in);
		hx_free(bins);
		kern_put(&k);

		ck_assert(kern_get(&k, targets[t], "privarr"));
		uint32_t m = 3000;
		uint32_t *idx = hx_alloc(m * 4), *out = hx_alloc(m * 4);
		struct { uint64_t idx, out; uint32_t n; } pa = { va(idx), va(out), m };
		for (uint32_t i = 0; i < m; i++)
			idx[i] = rnd();
		struct hx_launch pl = { .gfx = k.gfx, .kd = k.kd, .args = &pa, .args_size = sizeof(pa),
					.grid = { m, 1, 1 }, .wg = { 64, 1, 1 }, .threads = 4 };
		ck_assert_msg(hx_run(&pl, &err) == 0, "%s", err.message);
		for (uint32_t i = 0; i < m; i++)
			ck_assert_msg(out[i] == privarr_ref(i, idx[i]), "out[%u]", i);
		hx_free(idx);
		hx_free(out);
		kern_put(&k);
	}
}
END_TEST

/* host f16 helpers for the reference (round to nearest even) */
static float h2f(uint16_t h)
{
	uint32_t sg = (uint32_t)(h & 0x8000) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff, u;
	float f;
	if (e == 0x1f)
		u = sg | 0x7f800000u | (m << 13);
	else if (e == 0) {
		f = (float)m * 0x1p-24f;
		return sg ? -f : f;
	} else
		u = sg | ((e + 112) << 23) | (m << 13);
	memcpy(&f, &u, 4);
	return f;
}
static uint16_t d2h_ref(double x)
{
	/* exhaustive: nearest f16 by search over all finite values */
	uint16_t best = 0;
	double bd = INFINITY;
	for (uint32_t h = 0; h < 0x10000; h++) {
		double v = (double)h2f((uint16_t)h), dd;
		if ((h & 0x7c00) == 0x7c00)
			continue;
		dd = fabs(v - x);
		if (dd < bd || (dd == bd && !(h & 1))) {
			bd = dd;
			best = (uint16_t)h;
		}
	}
	return best;
}

START_TEST(test_half)
{
	for (int t = 0; t < 2; t++) {
		struct kern k;
		uint32_t n = 70;
		if (!kern_get_from(&k, "half", targets[t], "hk"))
			continue;
		uint16_t *a = hx_alloc(n * 2), *b = hx_alloc(n * 2), *c = hx_alloc(n * 2);
		uint32_t *d = hx_alloc(n * 4);
		struct { uint64_t a, b, c, d; uint32_t n; } args = { va(a), va(b), va(c), va(d), n };
		for (uint32_t i = 0; i < n; i++) {
			a[i] = d2h_ref((double)((int)(rnd() % 2001) - 1000) / 64.0);
			b[i] = d2h_ref((double)((int)(rnd() % 2001) - 1000) / 32.0);
		}
		run_ok(&k, &args, sizeof(args), n, 1, 64, 1);
		for (uint32_t i = 0; i < n; i++) {
			double x = h2f(a[i]), y = h2f(b[i]);
			/* c = fma(x, y, (x - y) * 0.25) with f16 rounding of each op */
			double q = h2f(d2h_ref(h2f(d2h_ref(x - y)) * 0.25));
			uint16_t ec = d2h_ref(x * y + q);
			uint16_t lo = d2h_ref(x * x + y), hi = d2h_ref(y * y + x);
			ck_assert_msg(c[i] == ec, "c[%u] = 0x%04x expected 0x%04x", i, c[i], ec);
			ck_assert_msg(d[i] == ((uint32_t)lo | (uint32_t)hi << 16), "d[%u] = 0x%08x expected 0x%08x", i,
				      d[i], (uint32_t)lo | (uint32_t)hi << 16);
		}
		hx_free(a); hx_free(b); hx_free(c); hx_free(d);
		kern_put(&k);
	}
}
END_TEST

struct decode_check {
	uint32_t gfx;
	unsigned kernels;
};

static void check_kernel_decodes(const char *name, uint64_t kd, void *ctx)
{
	struct decode_check *dc = ctx;
	struct kemu_isa_dispatch d;
	struct kemu_isa_error err;
	struct kemu_isa_program *p;
	char list[512];
	unsigned n;

	memset(&d, 0, sizeof(d));
	d.gfx_target_version = dc->gfx;
	d.mem = hx_mem();
	d.kernel_object = kd;
	p = kemu_isa_program_get(&d, &err);
	ck_assert_msg(p != NULL, "%s: %s", name, err.message);
	n = kemu_isa_program_unimplemented(p, list, sizeof(list));
	ck_assert_msg(n == 0, "%s: %u unimplemented: %s", name, n, list);
	kemu_isa_program_put(p);
	dc->kernels++;
}

/* Every instruction clang emitted in the corpus code objects (all
 * kernels, both targets; mathlib: with rocm-device-libs linked in, so
 * also the ocml paths no input reached) decodes to an implemented
 * executor. */
START_TEST(test_corpus_fully_implemented)
{
	static const char *const stems[] = { "corpus", "generic", "half", "preload", "mathlib" };
	for (int t = 0; t < 2; t++) {
		for (unsigned s = 0; s < sizeof(stems) / sizeof(stems[0]); s++) {
			char path[600];
			struct hx_code c;
			struct decode_check dc = { targets[t], 0 };
			if (!hx_kernel_path(stems[s], targets[t], path, sizeof(path)))
				continue;
			ck_assert_int_eq(hx_load(&c, path), 0);
			hx_each_kernel(&c, check_kernel_decodes, &dc);
			ck_assert_msg(dc.kernels > 0, "no kernels in %s", path);
			hx_unload(&c);
		}
	}
}
END_TEST

/* Under HX_PREEMPT_AFTER (ctest test_isa_corpus_preempt) the kernels above
 * ran preempted, saved in the CWSR layout and restored: that the results
 * held proves the save and restore; this proves they happened. */
START_TEST(test_context_saves_happened)
{
	if (!hx_preempt_after())
		return;
	ck_assert_msg(atomic_load(&hx_context_saves) > 100,
		      "only %llu context saves with HX_PREEMPT_AFTER=%llu",
		      (unsigned long long)atomic_load(&hx_context_saves),
		      (unsigned long long)hx_preempt_after());
}
END_TEST

static Suite *corpus_suite(void)
{
	Suite *s = suite_create("isa_corpus");
	TCase *tc = tcase_create("corpus");
	tcase_set_timeout(tc, 240);
	tcase_add_test(tc, test_vadd);
	tcase_add_test(tc, test_kernarg_preload);
	tcase_add_test(tc, test_generic_pointers_and_calls);
	tcase_add_test(tc, test_workgroups_on_threads);
	tcase_add_test(tc, test_half);
	tcase_add_test(tc, test_corpus_fully_implemented);
	tcase_add_test(tc, test_saxpy);
	tcase_add_test(tc, test_index2d);
	tcase_add_test(tc, test_reduce);
	tcase_add_test(tc, test_matmul);
	tcase_add_test(tc, test_histogram);
	tcase_add_test(tc, test_scan);
	tcase_add_test(tc, test_dloop);
	tcase_add_test(tc, test_privarr);
	tcase_add_test(tc, test_idiv);
	tcase_add_test(tc, test_convert);
	tcase_add_test(tc, test_mathlib);
	tcase_add_test(tc, test_context_saves_happened);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(corpus_suite)
