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
static bool kern_get(struct kern *k, uint32_t gfx, const char *name)
{
	char path[600];
	memset(k, 0, sizeof(*k));
	k->gfx = gfx;
	if (!hx_kernel_path("corpus", gfx, path, sizeof(path)))
		return false;
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

static Suite *corpus_suite(void)
{
	Suite *s = suite_create("isa_corpus");
	TCase *tc = tcase_create("corpus");
	tcase_set_timeout(tc, 240);
	tcase_add_test(tc, test_vadd);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(corpus_suite)
