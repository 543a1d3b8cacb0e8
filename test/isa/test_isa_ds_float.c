/*
 * test_isa_ds_float.c — the LDS float atomics ds_min/max(_rtn)_f64 and
 * ds_cmpst(_rtn)_f32/f64 against a host model (kernels/ds_float.s):
 *   - min/max: MEM = DATA when DATA < MEM (DATA > MEM for max) or MEM is a
 *     NaN; the _rtn forms return the old MEM (the rule ds_min/max_f32
 *     already follow in emu/isa);
 *   - cmpst: MEM = DATA2 when MEM == DATA compared as floats (-0 equals
 *     +0, a NaN equals nothing); _rtn returns the old MEM.
 * Inputs mix random doubles, equal pairs, signed zeros and NaNs.  And
 * ds_wrxchg2_rtn_b32/b64: two exchanges at ADDR + OFFSET0/1 * size, both
 * old values returned.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "hl_check.h"
#include "isa_harness.h"

#define NLANES 256

enum kind { MIN64, MAX64, CMPST64, CMPST32 };
static const struct form {
	const char *name;
	enum kind kind;
	bool rtn;
} forms[] = {
	{ "min_rtn_f64", MIN64, true }, { "max_rtn_f64", MAX64, true },
	{ "min_f64", MIN64, false },    { "max_f64", MAX64, false },
	{ "cmpst_rtn_f64", CMPST64, true }, { "cmpst_f64", CMPST64, false },
	{ "cmpst_rtn_f32", CMPST32, true }, { "cmpst_f32", CMPST32, false },
};

static double dbl(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
static float flt(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

static void model(const struct form *f, const uint32_t *v, uint32_t *want)
{
	uint64_t mem = (uint64_t)v[1] << 32 | v[0], data = (uint64_t)v[3] << 32 | v[2];
	uint64_t neu = (uint64_t)~v[1] << 32 | (uint32_t)~v[0], old = mem;
	double x = dbl(mem), y = dbl(data);

	switch (f->kind) {
	case MIN64: if (y < x || isnan(x)) mem = data; break;
	case MAX64: if (y > x || isnan(x)) mem = data; break;
	case CMPST64: if (x == y) mem = neu; break;
	case CMPST32:
		old = v[0];
		if (flt(v[0]) == flt(v[2]))
			mem = (mem & ~0xffffffffull) | (uint32_t)~v[0];
		break;
	}
	want[0] = f->rtn ? (uint32_t)old : 0;
	want[1] = f->rtn ? (uint32_t)(old >> 32) : 0;
	want[2] = (uint32_t)mem;
	want[3] = (uint32_t)(mem >> 32);
}

static uint32_t rng;
static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

static void gen(uint32_t *v, bool f32)
{
	static const uint64_t edge[] = { 0, 0x8000000000000000ull, 0x7ff8000000000000ull,
		0xfff0000000000000ull, 0x3ff0000000000000ull };
	for (int k = 0; k < 2; k++) {
		uint64_t d = rnd() % 4 == 0 ? edge[rnd() % 5]
			   : ((uint64_t)(rnd() & 0x800fffff) | (uint64_t)(1000 + rnd() % 40) << 20) << 32 | rnd();
		if (f32 && rnd() % 4 == 0) /* f32 edge values in the low word */
			d = (d & ~0xffffffffull) | (rnd() % 2 ? 0x80000000u : 0x7fc00000u);
		v[2 * k] = (uint32_t)d;
		v[2 * k + 1] = (uint32_t)(d >> 32);
	}
	if (rnd() % 3 == 0) { /* equal pairs for cmpst */
		v[2] = v[0];
		v[3] = v[1];
	}
}

START_TEST(test_ds_float_atomics_match_model)
{
	char path[600];
	static struct hx_code code;
	uint32_t *in = hx_alloc(NLANES * 16), *out = hx_alloc(NLANES * 16), want[4];
	uint64_t args[2] = { (uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out };
	unsigned bad = 0, stored = 0;

	ck_assert_msg(hx_kernel_path("ds_float", KEMU_ISA_GFX90A, path, sizeof(path)) != NULL,
		      "ds_float-gfx90a.co not built");
	ck_assert_int_eq(hx_load(&code, path), 0);
	for (size_t k = 0; k < sizeof(forms) / sizeof(forms[0]); k++) {
		const struct form *f = &forms[k];
		for (unsigned seed = 1; seed <= 4; seed++) {
			struct hx_launch l = { .gfx = KEMU_ISA_GFX90A, .args = args, .args_size = 16,
					       .grid = { NLANES, 1, 1 }, .wg = { NLANES, 1, 1 } };
			struct kemu_isa_error err;
			rng = seed * 0x9e3779b9u + (uint32_t)k * 0x7feb352du;
			for (unsigned i = 0; i < NLANES; i++)
				gen(in + 4 * i, f->kind == CMPST32);
			l.kd = hx_kd(&code, f->name);
			ck_assert_msg(l.kd != 0, "no %s.kd", f->name);
			ck_assert_msg(hx_run(&l, &err) == 0, "%s: %s: %s", f->name,
				      kemu_isa_error_name(err.kind), err.message);
			for (unsigned i = 0; i < NLANES; i++) {
				model(f, in + 4 * i, want);
				stored += want[2] != in[4 * i] || want[3] != in[4 * i + 1];
				for (unsigned j = 0; j < 4; j++)
					if (out[4 * i + j] != want[j] && bad++ < 8)
						fprintf(stderr, "%s lane %u word %u: in %08x %08x %08x %08x: got %08x, model %08x\n",
							f->name, i, j, in[4 * i], in[4 * i + 1], in[4 * i + 2],
							in[4 * i + 3], out[4 * i + j], want[j]);
			}
		}
	}
	ck_assert_msg(stored > 1000, "the atomics changed LDS in only %u lanes", stored);
	ck_assert_msg(bad == 0, "%u words differ from the model", bad);
	hx_unload(&code);
	hx_free(in);
	hx_free(out);
}
END_TEST

START_TEST(test_ds_wrxchg2)
{
	char path[600];
	static struct hx_code code;
	uint32_t *in = hx_alloc(NLANES * 16), *out = hx_alloc(NLANES * 32);
	uint64_t args[2] = { (uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out };
	struct kemu_isa_error err;

	ck_assert_msg(hx_kernel_path("ds_float", KEMU_ISA_GFX90A, path, sizeof(path)) != NULL,
		      "ds_float-gfx90a.co not built");
	ck_assert_int_eq(hx_load(&code, path), 0);
	rng = 12345;
	for (unsigned i = 0; i < NLANES * 4; i++)
		in[i] = rnd();
	for (int b64 = 0; b64 < 2; b64++) {
		struct hx_launch l = { .gfx = KEMU_ISA_GFX90A, .args = args, .args_size = 16,
				       .grid = { NLANES, 1, 1 }, .wg = { NLANES, 1, 1 } };
		l.kd = hx_kd(&code, b64 ? "wrxchg2_rtn_b64" : "wrxchg2_rtn_b32");
		ck_assert(l.kd != 0);
		ck_assert_msg(hx_run(&l, &err) == 0, "%s: %s", kemu_isa_error_name(err.kind), err.message);
		for (unsigned i = 0; i < NLANES; i++) {
			const uint32_t *v = in + 4 * i;
			if (b64) {
				/* returned: the old 16 bytes; after: the complements */
				for (unsigned j = 0; j < 4; j++) {
					ck_assert_msg(out[8 * i + j] == v[j], "b64 lane %u rtn %u", i, j);
					ck_assert_msg(out[8 * i + 4 + j] == ~v[j], "b64 lane %u mem %u", i, j);
				}
			} else {
				ck_assert_msg(out[4 * i] == v[0] && out[4 * i + 1] == v[1], "b32 lane %u rtn", i);
				ck_assert_msg(out[4 * i + 2] == v[2] && out[4 * i + 3] == v[3], "b32 lane %u mem", i);
			}
		}
	}
	hx_unload(&code);
	hx_free(in);
	hx_free(out);
}
END_TEST

static Suite *ds_float_suite(void)
{
	Suite *s = suite_create("isa_ds_float");
	TCase *tc = tcase_create("ds_float");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_ds_float_atomics_match_model);
	tcase_add_test(tc, test_ds_wrxchg2);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(ds_float_suite)
