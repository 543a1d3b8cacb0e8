/*
 * test_isa_misc.c — scalar control and state instructions and
 * ds_permute_b32 (kernels/misc.s describes each kernel): VCCZ/VCCNZ
 * branches, s_call_b64 and its return, s_setreg_b32/s_getreg_b32 of
 * MODE's rounding field, s_movreld (SGPR[dst + M0] = src), the
 * instructions without a visible effect (the program must go through
 * them: s_sleep, s_setprio, s_wakeup, s_icache_inv, perf levels,
 * s_setkill, s_ttracedata, the debugger branches, which are not taken
 * without a debugger, s_set_gpr_idx_off), s_endpgm_saved ending the
 * program, and ds_permute_b32 on a permutation (lane l's data goes to
 * lane (addr / 4) & 63).  Expected values are worked out here from the
 * ISA, per lane.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hl_check.h"
#include "isa_harness.h"

static struct hx_code code;
static bool have;

static uint32_t rng_state = 0x1b873593u;
static uint32_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

/* runs kernel name on in (64 x 4 dwords); out: 64 x 4 dwords */
static bool run(const char *name, const uint32_t *in, uint32_t *out)
{
	char path[600];
	uint32_t *gin, *gout;
	uint64_t args[2];
	struct kemu_isa_error err;
	int rc;

	if (!have) {
		if (!hx_kernel_path("misc", KEMU_ISA_GFX90A, path, sizeof(path))) {
			ck_assert_msg(!hx_target_expected(KEMU_ISA_GFX90A), "misc-gfx90a.co not built");
			return false;
		}
		ck_assert_int_eq(hx_load(&code, path), 0);
		have = true;
	}
	gin = hx_alloc(1024);
	gout = hx_alloc(1024);
	memcpy(gin, in, 1024);
	args[0] = (uint64_t)(uintptr_t)gin;
	args[1] = (uint64_t)(uintptr_t)gout;
	{
		struct hx_launch hl = { .gfx = KEMU_ISA_GFX90A, .args = args, .args_size = 16,
					.grid = { 64, 1, 1 }, .wg = { 64, 1, 1 } };
		hl.kd = hx_kd(&code, name);
		ck_assert_msg(hl.kd != 0, "no %s.kd", name);
		rc = hx_run(&hl, &err);
		ck_assert_msg(rc == 0, "%s: %s: %s", name, kemu_isa_error_name(err.kind), err.message);
	}
	memcpy(out, gout, 1024);
	hx_free(gin);
	hx_free(gout);
	return true;
}

START_TEST(test_vccz_vccnz)
{
	uint32_t in[256], out[256];
	for (unsigned seed = 0; seed < 3; seed++) {
		bool any = false;
		for (unsigned i = 0; i < 256; i++)
			in[i] = seed == 0 ? 2 * rnd() : rnd();     /* seed 0: VCC = 0 */
		for (unsigned l = 0; l < 64; l++)
			any |= in[4 * l] & 1;
		if (!run("misc_vccz", in, out))
			return;
		for (unsigned l = 0; l < 64; l++) {
			ck_assert_uint_eq(out[4 * l], any ? 2 : 1);
			ck_assert_uint_eq(out[4 * l + 1], any ? 3 : 4);
		}
	}
}
END_TEST

START_TEST(test_call_setreg_movreld)
{
	uint32_t in[256], out[256];
	for (unsigned i = 0; i < 256; i++)
		in[i] = rnd();
	if (!run("misc_call", in, out))
		return;
	for (unsigned l = 0; l < 64; l++) {
		ck_assert_uint_eq(out[4 * l], 5);
		ck_assert_uint_eq(out[4 * l + 1], 6);
	}
	run("misc_setreg", in, out);
	for (unsigned l = 0; l < 64; l++) {
		ck_assert_uint_eq(out[4 * l], in[0] & 15);     /* MODE[3:0] as written */
		ck_assert_uint_eq(out[4 * l + 1], in[1]);      /* s[20 + M0] = s16 */
		ck_assert_uint_eq(out[4 * l + 2], in[1]);      /* s[24:25] = s[16:17] (M0 0) */
	}
}
END_TEST

START_TEST(test_no_effect_and_endpgm_saved)
{
	uint32_t in[256], out[256];
	memset(in, 0, sizeof(in));
	if (!run("misc_noeffect", in, out))
		return;
	for (unsigned l = 0; l < 64; l++)
		ck_assert_uint_eq(out[4 * l], 7);
	run("misc_endpgm_saved", in, out);
	for (unsigned l = 0; l < 64; l++)
		ck_assert_uint_eq(out[4 * l], 8);
}
END_TEST

START_TEST(test_ds_permute)
{
	uint32_t in[256], out[256];
	unsigned perm[64];
	for (unsigned l = 0; l < 64; l++)
		perm[l] = l;
	for (unsigned l = 63; l > 0; l--) {
		unsigned j = rnd() % (l + 1), t = perm[l];
		perm[l] = perm[j];
		perm[j] = t;
	}
	for (unsigned l = 0; l < 64; l++) {
		in[4 * l] = perm[l] | (rnd() & ~63u);   /* bits above 5 ignored (after & 63) */
		in[4 * l + 1] = rnd();
		in[4 * l + 2] = in[4 * l + 3] = 0;
	}
	if (!run("misc_permute", in, out))
		return;
	for (unsigned l = 0; l < 64; l++)
		ck_assert_uint_eq(out[4 * perm[l]], in[4 * l + 1]);
}
END_TEST

static Suite *misc_suite(void)
{
	Suite *s = suite_create("isa_misc");
	TCase *tc = tcase_create("misc");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_vccz_vccnz);
	tcase_add_test(tc, test_call_setreg_movreld);
	tcase_add_test(tc, test_no_effect_and_endpgm_saved);
	tcase_add_test(tc, test_ds_permute);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(misc_suite)
