/*
 * test_isa_satomic.c — the scalar atomics (s_atomic_*, s_atomic_*_x2,
 * s_buffer_atomic_*) of kernels/satomic.s: one wave runs a sequence of
 * them and the old values it gets back (GLC) and the memory afterwards
 * are compared with values worked out here from the ISA's definitions
 * (the FLAT atomics' semantics: inc wraps to 0 at the limit, dec reloads
 * the limit at 0 or above it, cmpswap takes {new, compare}); a buffer
 * atomic past NUM_RECORDS does nothing and returns 0.  A second kernel
 * has 64 workgroups on 4 host threads each add 1 to one dword.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "hl_check.h"
#include "isa_harness.h"

static struct hx_code code;

static void load(void)
{
	char path[600];
	static bool loaded;
	if (loaded)
		return;
	ck_assert_msg(hx_kernel_path("satomic", KEMU_ISA_GFX90A, path, sizeof(path)) != NULL,
		      "satomic-gfx90a.co not built");
	ck_assert_int_eq(hx_load(&code, path), 0);
	loaded = true;
}

START_TEST(test_scalar_atomics_sequence)
{
	static const uint32_t init[17] = { 10, 20, 4, 50, 77, 1, 10, 0xff00ff, 0xffffffff, 0,
		0x12345678, 9, 0x11, 0x22, 0x42, 0, 0x5a };
	static const uint32_t mem_want[17] = { 15, 13, 0xfffffffd, 100, 0x1234, 1, 0, 0xf0, 0, 2,
		0xedcba987, 9, 0xaaaa, 0xbbbb, 0x99, 9, 0x5a };
	/* out[k]: the SGPRs stored; -1 marks the two never written (s22, s23) */
	static const int64_t out_want[24] = { 10, 20, 4, 100, 77, 77, 1, 78, 10, 0xff00ff,
		0xffffffff, 0, 0xffffffff, 0, -1, -1, 0x11, 0x22, 0x11, 0x22, 0x42, 0, 0, 0 };
	uint32_t *mem = hx_alloc(4096), *out = hx_alloc(4096);
	uint64_t args[2] = { (uint64_t)(uintptr_t)mem, (uint64_t)(uintptr_t)out };
	struct hx_launch l = { .gfx = KEMU_ISA_GFX90A, .args = args, .args_size = 16,
			       .grid = { 64, 1, 1 }, .wg = { 64, 1, 1 } };
	struct kemu_isa_error err;

	load();
	memcpy(mem, init, sizeof(init));
	l.kd = hx_kd(&code, "t_satomic");
	ck_assert(l.kd != 0);
	ck_assert_msg(hx_run(&l, &err) == 0, "%s: %s", kemu_isa_error_name(err.kind), err.message);
	for (int i = 0; i < 17; i++)
		ck_assert_msg(mem[i] == mem_want[i], "mem[%d] = 0x%x, expected 0x%x", i, mem[i], mem_want[i]);
	for (int i = 0; i < 24; i++)
		if (out_want[i] >= 0)
			ck_assert_msg(out[i] == (uint32_t)out_want[i], "out[%d] = 0x%x, expected 0x%x", i,
				      out[i], (uint32_t)out_want[i]);
	hx_free(mem);
	hx_free(out);
}
END_TEST

START_TEST(test_scalar_atomic_add_from_many_waves)
{
	uint32_t *mem = hx_alloc(4096);
	uint64_t args[2] = { (uint64_t)(uintptr_t)mem, 0 };
	struct hx_launch l = { .gfx = KEMU_ISA_GFX90A, .args = args, .args_size = 16,
			       .grid = { 64 * 64, 1, 1 }, .wg = { 64, 1, 1 }, .threads = 4 };
	struct kemu_isa_error err;

	load();
	mem[0] = 1000;
	l.kd = hx_kd(&code, "t_sadd");
	ck_assert(l.kd != 0);
	ck_assert_msg(hx_run(&l, &err) == 0, "%s: %s", kemu_isa_error_name(err.kind), err.message);
	ck_assert_uint_eq(mem[0], 1064);
	hx_free(mem);
}
END_TEST

static Suite *satomic_suite(void)
{
	Suite *s = suite_create("isa_satomic");
	TCase *tc = tcase_create("satomic");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_scalar_atomics_sequence);
	tcase_add_test(tc, test_scalar_atomic_add_from_many_waves);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(satomic_suite)
