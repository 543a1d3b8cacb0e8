/*
 * test_isa_dsextra.c — the rarer LDS forms and the bf16 packed atomics
 * against a host model: ds_append / ds_consume (M0-addressed, once per
 * wave, partial and empty EXEC), ds_read/write_addtid_b32 (M0 + OFFSET +
 * 4 * lane, out of range reads 0), ds_wrap_rtn_b32, and on gfx942
 * ds_pk_add(_rtn)_f16/bf16 and global/flat_atomic_pk_add_bf16 (returning
 * and not).  kernels/dsextra.s and dsextra942.s describe each kernel; the
 * model below follows the interpreter's file comments (isa_exec_ds.c) from
 * the ISA text, with its own LDS array and the host's _Float16; bf16 sums
 * are rounded by comparing the two neighbours.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hl_check.h"
#include "isa_harness.h"

#define NREC 8

static uint32_t rng_state;
static uint32_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

static float fb(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static float h2f(uint16_t h) { _Float16 x; memcpy(&x, &h, 2); return (float)x; }
static uint16_t f2h(float f) { _Float16 x = (_Float16)f; uint16_t h; memcpy(&h, &x, 2); return h; }

/* bf16 nearest even to x (finite), by the two truncation neighbours */
static uint16_t bf16_rne(double x)
{
	float f = (float)x; /* exact: sums of two bf16 within 9 binades fit f32; farther
			       apart the smaller one is below half a bf16 ulp either way */
	uint32_t u;
	memcpy(&u, &f, 4);
	if (isnan(f))
		return 0x7fc0;
	if (isinf(f))
		return (uint16_t)(u >> 16);
	uint32_t lo = u & 0xffff0000u, hi = lo + 0x10000u;
	double dl = fabs((double)fb(lo) - x), dh = fabs((double)fb(hi) - x);
	if (dl < dh || (dl == dh && !((lo >> 16) & 1)))
		return (uint16_t)(lo >> 16);
	return (uint16_t)(hi >> 16);
}

static uint32_t pk_add(uint32_t a, uint32_t b, bool bf)
{
	uint32_t r = 0;
	for (unsigned h = 0; h < 2; h++) {
		uint16_t x = (uint16_t)(a >> (16 * h)), y = (uint16_t)(b >> (16 * h)), s;
		if (bf)
			s = bf16_rne((double)fb((uint32_t)x << 16) + (double)fb((uint32_t)y << 16));
		else
			s = f2h(h2f(x) + h2f(y));
		r |= (uint32_t)s << (16 * h);
	}
	return r;
}

/* equal, or NaN where the model has NaN (payloads are not defined) */
static bool same(uint32_t g, uint32_t w, bool bf)
{
	uint16_t em = bf ? 0x7f80 : 0x7c00, mm = bf ? 0x7f : 0x3ff;
	if (g == w)
		return true;
	for (unsigned h = 0; h < 2; h++) {
		uint16_t x = (uint16_t)(g >> (16 * h)), y = (uint16_t)(w >> (16 * h));
		bool nx = (x & em) == em && (x & mm), ny = (y & em) == em && (y & mm);
		if (x != y && !(nx && ny))
			return false;
	}
	return true;
}

static uint16_t gen_half(bool bf, bool small)
{
	if (small)
		return bf ? 0x3f80 : f2h((float)(rnd() % 9));
	switch (rnd() % 6) {
	case 0: return (uint16_t)rnd();                         /* anything, NaN/inf included */
	case 1: return bf ? 0x7f80 : 0x7c00;
	default: {
		float v = (float)((int)(rnd() % 2001) - 1000) / 64.0f;
		if (bf) {
			uint32_t u;
			memcpy(&u, &v, 4);
			return (uint16_t)(u >> 16);
		}
		return f2h(v);
	}
	}
}

struct run {
	uint32_t in[64 * NREC], out[64 * 4], mem[64];
};

static void launch(struct hx_code *c, uint32_t gfx, const char *name, struct run *r)
{
	uint32_t *in = hx_alloc(sizeof(r->in)), *out = hx_alloc(sizeof(r->out)), *mem = hx_alloc(256);
	uint64_t args[3] = { (uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out, (uint64_t)(uintptr_t)mem };
	struct hx_launch l = { .gfx = gfx, .args = args, .args_size = 24, .grid = { 64, 1, 1 },
			       .wg = { 64, 1, 1 } };
	struct kemu_isa_error err;
	int rc;

	memcpy(in, r->in, sizeof(r->in));
	l.kd = hx_kd(c, name);
	ck_assert_msg(l.kd != 0, "no %s.kd", name);
	rc = hx_run(&l, &err);
	ck_assert_msg(rc == 0, "%s: %s: %s", name, kemu_isa_error_name(err.kind), err.message);
	memcpy(r->out, out, sizeof(r->out));
	memcpy(r->mem, mem, sizeof(r->mem));
	hx_free(in);
	hx_free(out);
	hx_free(mem);
}

static struct hx_code code90, code942;
static int have90, have942;

static struct hx_code *load(bool g942)
{
	char path[600];
	uint32_t gfx = g942 ? KEMU_ISA_GFX942 : KEMU_ISA_GFX90A;
	int *h = g942 ? &have942 : &have90;
	struct hx_code *c = g942 ? &code942 : &code90;
	if (*h)
		return *h > 0 ? c : NULL;
	if (!hx_kernel_path(g942 ? "dsextra942" : "dsextra", gfx, path, sizeof(path))) {
		ck_assert_msg(!hx_target_expected(gfx), "dsextra kernels not built");
		*h = -1;
		return NULL;
	}
	ck_assert_int_eq(hx_load(c, path), 0);
	*h = 1;
	return c;
}

#define OUT(l, k) r.out[4 * (l) + (k)]

START_TEST(test_append_consume)
{
	struct hx_code *c = load(false);
	struct run r;
	if (!c)
		return;
	for (unsigned seed = 0; seed < 6; seed++) {
		uint32_t init, n = 0;
		rng_state = 0x1234567u + seed * 0x9e3779b9u;
		for (unsigned i = 0; i < 64 * NREC; i++)
			r.in[i] = rnd();
		for (unsigned l = 0; l < 64; l++) {
			/* seed 0: all lanes; 1: none but one; others random */
			r.in[NREC * l + 1] = seed == 0 ? 1 : seed == 1 ? l == 37 : rnd() & 1;
			n += r.in[NREC * l + 1] != 0;
		}
		init = seed == 2 ? 0xfffffff0u : r.in[0]; /* seed 2: the counter wraps */
		r.in[0] = init;
		launch(c, KEMU_ISA_GFX90A, "ds_append_consume", &r);
		for (unsigned l = 0; l < 64; l++) {
			bool on = r.in[NREC * l + 1] != 0;
			ck_assert_uint_eq(OUT(l, 0), on ? init : 0xdeadbeef);
			ck_assert_uint_eq(OUT(l, 1), on ? init + n : 0xdeadbeef);
			ck_assert_uint_eq(OUT(l, 2), on ? init : 0xdeadbeef);
			ck_assert_uint_eq(OUT(l, 3), init + n);
		}
		launch(c, KEMU_ISA_GFX90A, "ds_append_none", &r);
		for (unsigned l = 0; l < 64; l++) {
			ck_assert_uint_eq(OUT(l, 0), 0xdeadbeef);
			ck_assert_uint_eq(OUT(l, 3), init);
		}
	}
}
END_TEST

START_TEST(test_addtid)
{
	struct hx_code *c = load(false);
	struct run r;
	if (!c)
		return;
	for (unsigned seed = 0; seed < 4; seed++) {
		uint32_t lds[256];
		rng_state = 0xabcdefu + seed * 0x9e3779b9u;
		for (unsigned i = 0; i < 64 * NREC; i++)
			r.in[i] = rnd();
		for (unsigned l = 0; l < 64; l++)
			r.in[NREC * l + 1] = seed == 0 ? 1 : rnd() & 1;
		launch(c, KEMU_ISA_GFX90A, "ds_addtid", &r);
		memset(lds, 0, sizeof(lds));
		for (unsigned l = 0; l < 64; l++)
			if (r.in[NREC * l + 1])
				lds[(0x44 + 4 * l) / 4] = r.in[NREC * l];
		for (unsigned l = 0; l < 64; l++) {
			uint32_t a = 0x3c0 + 4 * l;
			ck_assert_uint_eq(OUT(l, 0), lds[(0x44 + 4 * l) / 4]);
			ck_assert_uint_eq(OUT(l, 1), a + 4 <= 1024 ? lds[a / 4] : 0);
		}
	}
}
END_TEST

START_TEST(test_wrap)
{
	struct hx_code *c = load(false);
	struct run r;
	if (!c)
		return;
	for (unsigned seed = 0; seed < 4; seed++) {
		rng_state = 0x777u + seed * 0x9e3779b9u;
		for (unsigned i = 0; i < 64 * NREC; i++)
			r.in[i] = seed & 1 ? rnd() % 8 : rnd();
		launch(c, KEMU_ISA_GFX90A, "ds_wrap", &r);
		for (unsigned l = 0; l < 64; l++) {
			uint32_t m = r.in[NREC * l], d = r.in[NREC * l + 1], d2 = r.in[NREC * l + 2];
			ck_assert_uint_eq(OUT(l, 0), m);
			ck_assert_uint_eq(OUT(l, 1), m >= d ? m - d : m + d2);
		}
	}
}
END_TEST

START_TEST(test_pk_add_gfx942)
{
	static const struct { const char *name; bool bf, rtn, global; } k[] = {
		{ "ds_pk_add_f16", false, false, false }, { "ds_pk_add_rtn_f16", false, true, false },
		{ "ds_pk_add_bf16", true, false, false }, { "ds_pk_add_rtn_bf16", true, true, false },
		{ "global_atomic_pk_add_bf16", true, false, true },
		{ "global_atomic_pk_add_bf16_rtn", true, true, true },
		{ "flat_atomic_pk_add_bf16", true, true, true },
	};
	struct hx_code *c = load(true);
	struct run r;
	unsigned bad = 0;
	if (!c)
		return;
	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		for (unsigned seed = 0; seed < 4; seed++) {
			rng_state = 0x5151u + seed * 0x9e3779b9u + (uint32_t)i * 0x85ebca6bu;
			for (unsigned j = 0; j < 64 * NREC; j++)
				r.in[j] = rnd();
			for (unsigned l = 0; l < 64; l++)
				for (unsigned w = 0; w < 2; w++)
					r.in[NREC * l + w] = gen_half(k[i].bf, false) |
							     (uint32_t)gen_half(k[i].bf, false) << 16;
			launch(c, KEMU_ISA_GFX942, k[i].name, &r);
			for (unsigned l = 0; l < 64; l++) {
				uint32_t a = r.in[NREC * l], b = r.in[NREC * l + 1], want = pk_add(a, b, k[i].bf);
				if (!same(OUT(l, 1), want, k[i].bf) && bad++ < 6)
					fprintf(stderr, "%s lane %u: %08x + %08x: got %08x, model %08x\n",
						k[i].name, l, a, b, OUT(l, 1), want);
				if (k[i].rtn && OUT(l, 0) != a && bad++ < 6)
					fprintf(stderr, "%s lane %u: returned %08x, old %08x\n", k[i].name, l,
						OUT(l, 0), a);
				if (!k[i].rtn && OUT(l, 0) != 0xdeadbeef && bad++ < 6)
					fprintf(stderr, "%s lane %u: wrote %08x without return\n", k[i].name, l,
						OUT(l, 0));
			}
		}
	}
	/* all lanes into one dword: small integers, exact in any order */
	rng_state = 99;
	for (unsigned j = 0; j < 64 * NREC; j++)
		r.in[j] = rnd();
	{
		float lo = 0, hi = 0;
		for (unsigned l = 0; l < 64; l++) {
			r.in[NREC * l + 1] = gen_half(false, true) | (uint32_t)gen_half(false, true) << 16;
			lo += h2f((uint16_t)r.in[NREC * l + 1]);
			hi += h2f((uint16_t)(r.in[NREC * l + 1] >> 16));
		}
		r.in[0] = f2h(1.0f) | (uint32_t)f2h(-2.0f) << 16;
		launch(c, KEMU_ISA_GFX942, "ds_pk_add_f16_same", &r);
		for (unsigned l = 0; l < 64; l++)
			ck_assert_uint_eq(OUT(l, 1), f2h(lo + 1.0f) | (uint32_t)f2h(hi - 2.0f) << 16);
	}
	ck_assert_msg(bad == 0, "%u results differ from the model", bad);
}
END_TEST

START_TEST(test_model_hand_values)
{
	ck_assert_uint_eq(pk_add(0x3c003c00, 0x3c00bc00, false), 0x40000000);  /* hi 1+1, lo 1-1 */
	ck_assert_uint_eq(pk_add(0x3f803f80, 0x3f800000, true), 0x40003f80);    /* bf16 hi 1+1, lo 1+0 */
	ck_assert_uint_eq(bf16_rne(1.0 + 1.0 / 256), 0x3f80);                   /* tie to even */
	ck_assert_uint_eq(bf16_rne(1.0 + 3.0 / 256), 0x3f82);                   /* tie to even, up */
}
END_TEST

static Suite *dsextra_suite(void)
{
	Suite *s = suite_create("isa_dsextra");
	TCase *tc = tcase_create("dsextra");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_model_hand_values);
	tcase_add_test(tc, test_append_consume);
	tcase_add_test(tc, test_addtid);
	tcase_add_test(tc, test_wrap);
	tcase_add_test(tc, test_pk_add_gfx942);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(dsextra_suite)
