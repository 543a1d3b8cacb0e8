/*
 * test_isa_mtbuf.c — the typed buffer accesses (MTBUF tbuffer_*), whose
 * data and number format come from the instruction, not the V#
 * (kernels/mtbuf.s; the V#'s own format fields say 32-bit float, so a
 * wrong source of the format shows): a 32_32_32_32 float load, a 16_16
 * UNORM store (clamp to [0, 1], scale by 65535, round to nearest even,
 * NaN 0) and an 8-bit SINT load (sign-extended), each lane checked
 * against values computed here.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "hl_check.h"
#include "isa_harness.h"

#define NLANES 256

static uint32_t rng = 1;
static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

static float fb(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t ub(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

START_TEST(test_tbuffer_formats)
{
	char path[600];
	struct hx_code code;
	uint32_t *in = hx_alloc(NLANES * 16), *out = hx_alloc(NLANES * 16), *mem = hx_alloc(NLANES * 16);
	uint64_t args[3] = { (uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out, (uint64_t)(uintptr_t)mem };
	struct kemu_isa_error err;
	const char *names[3] = { "tb_load_xyzw_f32", "tb_store_xy_unorm", "tb_load_x_sint8" };

	ck_assert_msg(hx_kernel_path("mtbuf", KEMU_ISA_GFX90A, path, sizeof(path)) != NULL,
		      "mtbuf-gfx90a.co not built");
	ck_assert_int_eq(hx_load(&code, path), 0);
	for (int k = 0; k < 3; k++) {
		struct hx_launch l = { .gfx = KEMU_ISA_GFX90A, .args = args, .args_size = 24,
				       .grid = { NLANES, 1, 1 }, .wg = { NLANES, 1, 1 } };
		for (unsigned i = 0; i < NLANES * 4; i++) {
			/* floats in [-0.5, 1.5] and a few specials for the store */
			in[i] = rnd() % 16 == 0 ? (rnd() % 2 ? 0x7fc00000u : 0xff800000u)
					       : ub((float)(rnd() % 200001) / 100000.0f - 0.5f);
			mem[i] = k == 1 ? 0 : (rnd() & 0x807fffff) | ((100 + rnd() % 50) << 23);
			out[i] = 0xdeadbeef;
		}
		l.kd = hx_kd(&code, names[k]);
		ck_assert(l.kd != 0);
		ck_assert_msg(hx_run(&l, &err) == 0, "%s: %s: %s", names[k], kemu_isa_error_name(err.kind),
			      err.message);
		for (unsigned i = 0; i < NLANES; i++) {
			if (k == 0) {
				for (unsigned j = 0; j < 4; j++)
					ck_assert_msg(out[4 * i + j] == mem[4 * i + j], "%s lane %u comp %u: 0x%x vs 0x%x",
						      names[k], i, j, out[4 * i + j], mem[4 * i + j]);
			} else if (k == 1) {
				uint16_t *m16 = (uint16_t *)mem;
				for (unsigned j = 0; j < 2; j++) {
					float x = fb(in[4 * i + j]);
					uint16_t want = isnan(x) ? 0 : (uint16_t)rint(fminf(fmaxf(x, 0.0f), 1.0f) * 65535.0);
					ck_assert_msg(m16[2 * i + j] == want, "%s lane %u comp %u (%a): 0x%x vs 0x%x",
						      names[k], i, j, (double)x, m16[2 * i + j], want);
				}
			} else {
				int8_t b = (int8_t)((const uint8_t *)mem)[i];
				ck_assert_msg(out[4 * i] == (uint32_t)(int32_t)b, "%s lane %u: 0x%x vs %d", names[k], i,
					      out[4 * i], b);
				ck_assert_uint_eq(out[4 * i + 1], 0);
			}
		}
	}
	hx_unload(&code);
	hx_free(in);
	hx_free(out);
	hx_free(mem);
}
END_TEST

static Suite *mtbuf_suite(void)
{
	Suite *s = suite_create("isa_mtbuf");
	TCase *tc = tcase_create("mtbuf");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_tbuffer_formats);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(mtbuf_suite)
