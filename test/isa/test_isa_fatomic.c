/*
 * test_isa_fatomic.c — float atomics against a host model: the MUBUF
 * forms buffer_atomic_add_f32 / pk_add_f16 / add_f64 / min_f64 / max_f64
 * (gfx90a, kernels/fatomic.s) and the FLAT forms gfx942 adds,
 * flat_atomic_add_f32 / pk_add_f16 (kernels/fatomic942.s).  Every lane
 * updates its own 8 bytes, so the order of lanes does not matter:
 *   - adds are IEEE additions rounded to nearest even (pk_add_f16: each
 *     half, correctly rounded to binary16);
 *   - min/max_f64: MEM = DATA when DATA < MEM (> for max) or MEM is a NaN;
 *   - the glc/sc0 forms return the old value, the others leave the data
 *     VGPRs as they were.
 * Inputs are normal numbers (no denormal flushing question), with zeros
 * of both signs and NaNs in MEM for min/max.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "hl_check.h"
#include "isa_harness.h"

#define NLANES 256

enum kind { ADD_F32, PK_ADD_F16, ADD_F64, MIN_F64, MAX_F64 };
struct form {
	const char *name;
	enum kind kind;
	bool rtn;
};

static float flt(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t fu(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static double dbl(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
static uint64_t du(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static double h2d(uint16_t h) { _Float16 x; memcpy(&x, &h, 2); return (double)x; }
static uint16_t d2h(double d) { _Float16 x = (_Float16)d; uint16_t h; memcpy(&h, &x, 2); return h; }

/* mem: this lane's 8 bytes before; v: a, b; out: mem after, v[2:3] after */
static void model(const struct form *f, const uint32_t *mem, const uint32_t *v, uint32_t *mem_after,
		  uint32_t *reg_after)
{
	uint64_t m = (uint64_t)mem[1] << 32 | mem[0], d = (uint64_t)v[1] << 32 | v[0], n = m;
	switch (f->kind) {
	case ADD_F32: n = (m & ~0xffffffffull) | fu(flt(mem[0]) + flt(v[0])); break;
	case PK_ADD_F16:
		n = (m & ~0xffffffffull) | d2h(h2d((uint16_t)mem[0]) + h2d((uint16_t)v[0])) |
		    (uint32_t)d2h(h2d((uint16_t)(mem[0] >> 16)) + h2d((uint16_t)(v[0] >> 16))) << 16;
		break;
	case ADD_F64: n = du(dbl(m) + dbl(d)); break;
	case MIN_F64: if (dbl(d) < dbl(m) || isnan(dbl(m))) n = d; break;
	case MAX_F64: if (dbl(d) > dbl(m) || isnan(dbl(m))) n = d; break;
	}
	mem_after[0] = (uint32_t)n;
	mem_after[1] = (uint32_t)(n >> 32);
	reg_after[0] = v[0];
	reg_after[1] = v[1];
	if (f->rtn) {
		reg_after[0] = mem[0];
		if (f->kind >= ADD_F64)
			reg_after[1] = mem[1];
	}
}

static uint32_t rng;
static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

static uint32_t gen_word(enum kind k, bool hi)
{
	switch (k) {
	case ADD_F32: return (rnd() & 0x807fffff) | ((110 + rnd() % 30) << 23);
	case PK_ADD_F16: /* exponents far apart too (an f16 sum rounded through f32
			  * is still rounded once: when it is not exact in f32,
			  * the smaller term is below half an f16 ulp) */
		return (rnd() & 0x83ff83ff) | ((1 + rnd() % 29) << 10) | ((1 + rnd() % 29) << 26);
	default:
		if (!hi)
			return rnd();
		if (rnd() % 8 == 0)
			return rnd() % 2 ? 0x80000000u : 0x7ff80000u; /* -0 (or -tiny) / NaN */
		return (rnd() & 0x800fffff) | ((1000 + rnd() % 40) << 20);
	}
}

static void run_forms(uint32_t gfx, const char *stem, const struct form *forms, size_t n)
{
	char path[600];
	struct hx_code code;
	uint32_t *in = hx_alloc(NLANES * 16), *out = hx_alloc(NLANES * 8), *mem = hx_alloc(NLANES * 8);
	uint32_t before[NLANES * 2];
	uint64_t args[3] = { (uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out, (uint64_t)(uintptr_t)mem };
	unsigned bad = 0;

	if (!hx_kernel_path(stem, gfx, path, sizeof(path))) {
		ck_assert_msg(!hx_target_expected(gfx), "%s not built", stem);
		return;
	}
	ck_assert_int_eq(hx_load(&code, path), 0);
	for (size_t k = 0; k < n; k++) {
		const struct form *f = &forms[k];
		for (unsigned seed = 1; seed <= 4; seed++) {
			struct hx_launch l = { .gfx = gfx, .args = args, .args_size = 24,
					       .grid = { NLANES, 1, 1 }, .wg = { NLANES, 1, 1 } };
			struct kemu_isa_error err;
			rng = seed * 0x9e3779b9u + (uint32_t)k * 0x7feb352du + gfx;
			for (unsigned i = 0; i < NLANES; i++) {
				for (unsigned j = 0; j < 4; j++)
					in[4 * i + j] = gen_word(f->kind, j % 2);
				mem[2 * i] = gen_word(f->kind, false);
				mem[2 * i + 1] = gen_word(f->kind, true);
			}
			memcpy(before, mem, sizeof(before));
			l.kd = hx_kd(&code, f->name);
			ck_assert_msg(l.kd != 0, "no %s.kd", f->name);
			ck_assert_msg(hx_run(&l, &err) == 0, "%s: %s: %s", f->name,
				      kemu_isa_error_name(err.kind), err.message);
			for (unsigned i = 0; i < NLANES; i++) {
				uint32_t m[2], r[2];
				model(f, before + 2 * i, in + 4 * i, m, r);
				if ((mem[2 * i] != m[0] || mem[2 * i + 1] != m[1] || out[2 * i] != r[0] ||
				     out[2 * i + 1] != r[1]) && bad++ < 8)
					fprintf(stderr, "%s lane %u: mem %08x %08x data %08x %08x: mem %08x %08x (model %08x %08x), regs %08x %08x (model %08x %08x)\n",
						f->name, i, before[2 * i + 1], before[2 * i], in[4 * i + 1],
						in[4 * i], mem[2 * i + 1], mem[2 * i], m[1], m[0],
						out[2 * i + 1], out[2 * i], r[1], r[0]);
			}
		}
	}
	ck_assert_msg(bad == 0, "%s: %u lanes differ from the model", stem, bad);
	hx_unload(&code);
	hx_free(in);
	hx_free(out);
	hx_free(mem);
}

START_TEST(test_buffer_float_atomics_match_model)
{
	static const struct form forms[] = {
		{ "buf_add_f32", ADD_F32, true }, { "buf_pk_add_f16", PK_ADD_F16, false },
		{ "buf_add_f64", ADD_F64, true }, { "buf_min_f64", MIN_F64, true },
		{ "buf_max_f64", MAX_F64, false },
	};
	run_forms(KEMU_ISA_GFX90A, "fatomic", forms, sizeof(forms) / sizeof(forms[0]));
}
END_TEST

START_TEST(test_gfx942_flat_float_atomics_match_model)
{
	static const struct form forms[] = {
		{ "flat_add_f32", ADD_F32, true }, { "flat_pk_add_f16", PK_ADD_F16, false },
	};
	run_forms(KEMU_ISA_GFX942, "fatomic942", forms, sizeof(forms) / sizeof(forms[0]));
}
END_TEST

static Suite *fatomic_suite(void)
{
	Suite *s = suite_create("isa_fatomic");
	TCase *tc = tcase_create("fatomic");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_buffer_float_atomics_match_model);
	tcase_add_test(tc, test_gfx942_flat_float_atomics_match_model);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(fatomic_suite)
