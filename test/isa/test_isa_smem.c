/*
 * test_isa_smem.c — the scalar memory instructions against a host model:
 * s_load/s_buffer_load of 1-16 dwords, s_store/s_buffer_store, the scalar
 * atomics (s_atomic_*, s_buffer_atomic_*, 32/64-bit, with and without
 * GLC) and the scalar cache operations (no visible effect).
 * kernels/smem.s holds one kernel per row of the table below (generated
 * together); 64 one-wave workgroups each work on their own 64 bytes, and
 * the SGPRs and memory afterwards are compared with the model (atomics as
 * in test_isa_mem.c: inc/dec wrap, cmpswap takes {data, compare}, GLC
 * returns the old value into the data SGPRs).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hl_check.h"
#include "isa_harness.h"

struct smform {
	const char *kernel, *name;
	int rtn;
	unsigned off;
};

static const struct smform smforms[] = {
	{ "k_s_atomic_add_rtn", "s_atomic_add", 1, 0x8 },
	{ "k_s_atomic_add", "s_atomic_add", 0, 0x8 },
	{ "k_s_atomic_add_x2_rtn", "s_atomic_add_x2", 1, 0x8 },
	{ "k_s_atomic_add_x2", "s_atomic_add_x2", 0, 0x8 },
	{ "k_s_atomic_and_rtn", "s_atomic_and", 1, 0x8 },
	{ "k_s_atomic_and", "s_atomic_and", 0, 0x8 },
	{ "k_s_atomic_and_x2_rtn", "s_atomic_and_x2", 1, 0x8 },
	{ "k_s_atomic_and_x2", "s_atomic_and_x2", 0, 0x8 },
	{ "k_s_atomic_cmpswap_rtn", "s_atomic_cmpswap", 1, 0x8 },
	{ "k_s_atomic_cmpswap", "s_atomic_cmpswap", 0, 0x8 },
	{ "k_s_atomic_cmpswap_x2_rtn", "s_atomic_cmpswap_x2", 1, 0x8 },
	{ "k_s_atomic_cmpswap_x2", "s_atomic_cmpswap_x2", 0, 0x8 },
	{ "k_s_atomic_dec_rtn", "s_atomic_dec", 1, 0x8 },
	{ "k_s_atomic_dec", "s_atomic_dec", 0, 0x8 },
	{ "k_s_atomic_dec_x2_rtn", "s_atomic_dec_x2", 1, 0x8 },
	{ "k_s_atomic_dec_x2", "s_atomic_dec_x2", 0, 0x8 },
	{ "k_s_atomic_inc_rtn", "s_atomic_inc", 1, 0x8 },
	{ "k_s_atomic_inc", "s_atomic_inc", 0, 0x8 },
	{ "k_s_atomic_inc_x2_rtn", "s_atomic_inc_x2", 1, 0x8 },
	{ "k_s_atomic_inc_x2", "s_atomic_inc_x2", 0, 0x8 },
	{ "k_s_atomic_or_rtn", "s_atomic_or", 1, 0x8 },
	{ "k_s_atomic_or", "s_atomic_or", 0, 0x8 },
	{ "k_s_atomic_or_x2_rtn", "s_atomic_or_x2", 1, 0x8 },
	{ "k_s_atomic_or_x2", "s_atomic_or_x2", 0, 0x8 },
	{ "k_s_atomic_smax_rtn", "s_atomic_smax", 1, 0x8 },
	{ "k_s_atomic_smax", "s_atomic_smax", 0, 0x8 },
	{ "k_s_atomic_smax_x2_rtn", "s_atomic_smax_x2", 1, 0x8 },
	{ "k_s_atomic_smax_x2", "s_atomic_smax_x2", 0, 0x8 },
	{ "k_s_atomic_smin_rtn", "s_atomic_smin", 1, 0x8 },
	{ "k_s_atomic_smin", "s_atomic_smin", 0, 0x8 },
	{ "k_s_atomic_smin_x2_rtn", "s_atomic_smin_x2", 1, 0x8 },
	{ "k_s_atomic_smin_x2", "s_atomic_smin_x2", 0, 0x8 },
	{ "k_s_atomic_sub_rtn", "s_atomic_sub", 1, 0x8 },
	{ "k_s_atomic_sub", "s_atomic_sub", 0, 0x8 },
	{ "k_s_atomic_sub_x2_rtn", "s_atomic_sub_x2", 1, 0x8 },
	{ "k_s_atomic_sub_x2", "s_atomic_sub_x2", 0, 0x8 },
	{ "k_s_atomic_swap_rtn", "s_atomic_swap", 1, 0x8 },
	{ "k_s_atomic_swap", "s_atomic_swap", 0, 0x8 },
	{ "k_s_atomic_swap_x2_rtn", "s_atomic_swap_x2", 1, 0x8 },
	{ "k_s_atomic_swap_x2", "s_atomic_swap_x2", 0, 0x8 },
	{ "k_s_atomic_umax_rtn", "s_atomic_umax", 1, 0x8 },
	{ "k_s_atomic_umax", "s_atomic_umax", 0, 0x8 },
	{ "k_s_atomic_umax_x2_rtn", "s_atomic_umax_x2", 1, 0x8 },
	{ "k_s_atomic_umax_x2", "s_atomic_umax_x2", 0, 0x8 },
	{ "k_s_atomic_umin_rtn", "s_atomic_umin", 1, 0x8 },
	{ "k_s_atomic_umin", "s_atomic_umin", 0, 0x8 },
	{ "k_s_atomic_umin_x2_rtn", "s_atomic_umin_x2", 1, 0x8 },
	{ "k_s_atomic_umin_x2", "s_atomic_umin_x2", 0, 0x8 },
	{ "k_s_atomic_xor_rtn", "s_atomic_xor", 1, 0x8 },
	{ "k_s_atomic_xor", "s_atomic_xor", 0, 0x8 },
	{ "k_s_atomic_xor_x2_rtn", "s_atomic_xor_x2", 1, 0x8 },
	{ "k_s_atomic_xor_x2", "s_atomic_xor_x2", 0, 0x8 },
	{ "k_s_buffer_atomic_add_rtn", "s_buffer_atomic_add", 1, 0x8 },
	{ "k_s_buffer_atomic_add", "s_buffer_atomic_add", 0, 0x8 },
	{ "k_s_buffer_atomic_add_x2_rtn", "s_buffer_atomic_add_x2", 1, 0x8 },
	{ "k_s_buffer_atomic_add_x2", "s_buffer_atomic_add_x2", 0, 0x8 },
	{ "k_s_buffer_atomic_and_rtn", "s_buffer_atomic_and", 1, 0x8 },
	{ "k_s_buffer_atomic_and", "s_buffer_atomic_and", 0, 0x8 },
	{ "k_s_buffer_atomic_and_x2_rtn", "s_buffer_atomic_and_x2", 1, 0x8 },
	{ "k_s_buffer_atomic_and_x2", "s_buffer_atomic_and_x2", 0, 0x8 },
	{ "k_s_buffer_atomic_cmpswap_rtn", "s_buffer_atomic_cmpswap", 1, 0x8 },
	{ "k_s_buffer_atomic_cmpswap", "s_buffer_atomic_cmpswap", 0, 0x8 },
	{ "k_s_buffer_atomic_cmpswap_x2_rtn", "s_buffer_atomic_cmpswap_x2", 1, 0x8 },
	{ "k_s_buffer_atomic_cmpswap_x2", "s_buffer_atomic_cmpswap_x2", 0, 0x8 },
	{ "k_s_buffer_atomic_dec_rtn", "s_buffer_atomic_dec", 1, 0x8 },
	{ "k_s_buffer_atomic_dec", "s_buffer_atomic_dec", 0, 0x8 },
	{ "k_s_buffer_atomic_dec_x2_rtn", "s_buffer_atomic_dec_x2", 1, 0x8 },
	{ "k_s_buffer_atomic_dec_x2", "s_buffer_atomic_dec_x2", 0, 0x8 },
	{ "k_s_buffer_atomic_inc_rtn", "s_buffer_atomic_inc", 1, 0x8 },
	{ "k_s_buffer_atomic_inc", "s_buffer_atomic_inc", 0, 0x8 },
	{ "k_s_buffer_atomic_inc_x2_rtn", "s_buffer_atomic_inc_x2", 1, 0x8 },
	{ "k_s_buffer_atomic_inc_x2", "s_buffer_atomic_inc_x2", 0, 0x8 },
	{ "k_s_buffer_atomic_or_rtn", "s_buffer_atomic_or", 1, 0x8 },
	{ "k_s_buffer_atomic_or", "s_buffer_atomic_or", 0, 0x8 },
	{ "k_s_buffer_atomic_or_x2_rtn", "s_buffer_atomic_or_x2", 1, 0x8 },
	{ "k_s_buffer_atomic_or_x2", "s_buffer_atomic_or_x2", 0, 0x8 },
	{ "k_s_buffer_atomic_smax_rtn", "s_buffer_atomic_smax", 1, 0x8 },
	{ "k_s_buffer_atomic_smax", "s_buffer_atomic_smax", 0, 0x8 },
	{ "k_s_buffer_atomic_smax_x2_rtn", "s_buffer_atomic_smax_x2", 1, 0x8 },
	{ "k_s_buffer_atomic_smax_x2", "s_buffer_atomic_smax_x2", 0, 0x8 },
	{ "k_s_buffer_atomic_smin_rtn", "s_buffer_atomic_smin", 1, 0x8 },
	{ "k_s_buffer_atomic_smin", "s_buffer_atomic_smin", 0, 0x8 },
	{ "k_s_buffer_atomic_smin_x2_rtn", "s_buffer_atomic_smin_x2", 1, 0x8 },
	{ "k_s_buffer_atomic_smin_x2", "s_buffer_atomic_smin_x2", 0, 0x8 },
	{ "k_s_buffer_atomic_sub_rtn", "s_buffer_atomic_sub", 1, 0x8 },
	{ "k_s_buffer_atomic_sub", "s_buffer_atomic_sub", 0, 0x8 },
	{ "k_s_buffer_atomic_sub_x2_rtn", "s_buffer_atomic_sub_x2", 1, 0x8 },
	{ "k_s_buffer_atomic_sub_x2", "s_buffer_atomic_sub_x2", 0, 0x8 },
	{ "k_s_buffer_atomic_swap_rtn", "s_buffer_atomic_swap", 1, 0x8 },
	{ "k_s_buffer_atomic_swap", "s_buffer_atomic_swap", 0, 0x8 },
	{ "k_s_buffer_atomic_swap_x2_rtn", "s_buffer_atomic_swap_x2", 1, 0x8 },
	{ "k_s_buffer_atomic_swap_x2", "s_buffer_atomic_swap_x2", 0, 0x8 },
	{ "k_s_buffer_atomic_umax_rtn", "s_buffer_atomic_umax", 1, 0x8 },
	{ "k_s_buffer_atomic_umax", "s_buffer_atomic_umax", 0, 0x8 },
	{ "k_s_buffer_atomic_umax_x2_rtn", "s_buffer_atomic_umax_x2", 1, 0x8 },
	{ "k_s_buffer_atomic_umax_x2", "s_buffer_atomic_umax_x2", 0, 0x8 },
	{ "k_s_buffer_atomic_umin_rtn", "s_buffer_atomic_umin", 1, 0x8 },
	{ "k_s_buffer_atomic_umin", "s_buffer_atomic_umin", 0, 0x8 },
	{ "k_s_buffer_atomic_umin_x2_rtn", "s_buffer_atomic_umin_x2", 1, 0x8 },
	{ "k_s_buffer_atomic_umin_x2", "s_buffer_atomic_umin_x2", 0, 0x8 },
	{ "k_s_buffer_atomic_xor_rtn", "s_buffer_atomic_xor", 1, 0x8 },
	{ "k_s_buffer_atomic_xor", "s_buffer_atomic_xor", 0, 0x8 },
	{ "k_s_buffer_atomic_xor_x2_rtn", "s_buffer_atomic_xor_x2", 1, 0x8 },
	{ "k_s_buffer_atomic_xor_x2", "s_buffer_atomic_xor_x2", 0, 0x8 },
	{ "k_s_buffer_load_dword", "s_buffer_load_dword", 0, 0x4 },
	{ "k_s_buffer_load_dwordx16", "s_buffer_load_dwordx16", 0, 0x0 },
	{ "k_s_buffer_load_dwordx2", "s_buffer_load_dwordx2", 0, 0x8 },
	{ "k_s_buffer_load_dwordx4", "s_buffer_load_dwordx4", 0, 0x10 },
	{ "k_s_buffer_load_dwordx8", "s_buffer_load_dwordx8", 0, 0x0 },
	{ "k_s_buffer_store_dword", "s_buffer_store_dword", 0, 0x4 },
	{ "k_s_buffer_store_dwordx2", "s_buffer_store_dwordx2", 0, 0x8 },
	{ "k_s_buffer_store_dwordx4", "s_buffer_store_dwordx4", 0, 0x10 },
	{ "k_s_dcache_discard", "s_dcache_discard", 0, 0x0 },
	{ "k_s_dcache_discard_x2", "s_dcache_discard_x2", 0, 0x0 },
	{ "k_s_dcache_inv", "s_dcache_inv", 0, 0x0 },
	{ "k_s_dcache_inv_vol", "s_dcache_inv_vol", 0, 0x0 },
	{ "k_s_dcache_wb", "s_dcache_wb", 0, 0x0 },
	{ "k_s_dcache_wb_vol", "s_dcache_wb_vol", 0, 0x0 },
	{ "k_s_load_dword", "s_load_dword", 0, 0x4 },
	{ "k_s_load_dwordx16", "s_load_dwordx16", 0, 0x0 },
	{ "k_s_load_dwordx2", "s_load_dwordx2", 0, 0x8 },
	{ "k_s_load_dwordx4", "s_load_dwordx4", 0, 0x10 },
	{ "k_s_load_dwordx8", "s_load_dwordx8", 0, 0x0 },
	{ "k_s_store_dword", "s_store_dword", 0, 0x4 },
	{ "k_s_store_dwordx2", "s_store_dwordx2", 0, 0x8 },
	{ "k_s_store_dwordx4", "s_store_dwordx4", 0, 0x10 },
};

static uint32_t rng_state;
static uint32_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

static void model(const struct smform *f, uint32_t *sg, uint8_t *m)
{
	const char *k = strncmp(f->name, "s_buffer_", 9) ? f->name + 2 : f->name + 9;
	if (!strncmp(k, "load_dword", 10) || !strncmp(k, "store_dword", 11)) {
		const char *x = strstr(k, "dwordx");
		unsigned n = x ? (unsigned)atoi(x + 6) : 1;
		if (k[0] == 'l') memcpy(sg, m + f->off, 4 * n);
		else memcpy(m + f->off, sg, 4 * n);
		return;
	}
	if (strncmp(k, "atomic_", 7))
		return;
	k += 7;
	{
		bool x2 = strstr(k, "_x2") != NULL;
		unsigned sz = x2 ? 8 : 4;
		uint64_t old = 0, v = sg[0] | (x2 ? (uint64_t)sg[1] << 32 : 0), nw;
		uint64_t cmp = x2 ? (sg[2] | (uint64_t)sg[3] << 32) : sg[1];
		memcpy(&old, m + f->off, sz);
		if (!strncmp(k, "swap", 4)) nw = v;
		else if (!strncmp(k, "cmpswap", 7)) nw = old == cmp ? v : old;
		else if (!strncmp(k, "add", 3)) nw = old + v;
		else if (!strncmp(k, "sub", 3)) nw = old - v;
		else if (!strncmp(k, "smin", 4)) nw = x2 ? ((int64_t)v < (int64_t)old ? v : old) : ((int32_t)v < (int32_t)old ? v : old);
		else if (!strncmp(k, "smax", 4)) nw = x2 ? ((int64_t)v > (int64_t)old ? v : old) : ((int32_t)v > (int32_t)old ? v : old);
		else if (!strncmp(k, "umin", 4)) nw = v < old ? v : old;
		else if (!strncmp(k, "umax", 4)) nw = v > old ? v : old;
		else if (!strncmp(k, "and", 3)) nw = old & v;
		else if (!strncmp(k, "or", 2)) nw = old | v;
		else if (!strncmp(k, "xor", 3)) nw = old ^ v;
		else if (!strncmp(k, "inc", 3)) nw = old >= v ? 0 : old + 1;
		else nw = (old == 0 || old > v) ? v : old - 1;
		memcpy(m + f->off, &nw, sz);
		if (f->rtn)
			memcpy(sg, &old, sz);
	}
}

static struct hx_code code;

START_TEST(test_smem_match_model)
{
	char path[600];
	uint32_t *in, *out;
	uint8_t *mem;
	uint64_t args[3];
	unsigned bad = 0;

	if (!hx_kernel_path("smem", KEMU_ISA_GFX90A, path, sizeof(path))) {
		ck_assert_msg(!hx_target_expected(KEMU_ISA_GFX90A), "smem-gfx90a.co not built");
		return;
	}
	ck_assert_int_eq(hx_load(&code, path), 0);
	in = hx_alloc(64 * 64);
	out = hx_alloc(64 * 64);
	mem = hx_alloc(64 * 64);
	args[0] = (uint64_t)(uintptr_t)in;
	args[1] = (uint64_t)(uintptr_t)out;
	args[2] = (uint64_t)(uintptr_t)mem;
	for (size_t i = 0; i < sizeof(smforms) / sizeof(smforms[0]); i++) {
		const struct smform *f = &smforms[i];
		struct hx_launch hl = { .gfx = KEMU_ISA_GFX90A, .args = args, .args_size = 24,
					.grid = { 64 * 64, 1, 1 }, .wg = { 64, 1, 1 } };
		struct kemu_isa_error err;
		uint8_t want[64 * 64];
		bool small = strstr(f->name, "_inc") || strstr(f->name, "_dec");
		int rc;
		rng_state = 0x3f84d5b5u ^ (uint32_t)i * 0x85ebca6bu;
		for (unsigned j = 0; j < 64 * 16; j++) {
			in[j] = small ? rnd() % 6 : rnd();
			((uint32_t *)mem)[j] = small ? rnd() % 8 : rnd();
		}
		for (unsigned g = 0; g < 64; g++)
			if (strstr(f->name, "cmpswap") && rnd() % 2) {
				uint32_t *m = (uint32_t *)(mem + 64 * g);
				if (strstr(f->name, "_x2")) { in[16 * g + 2] = m[2]; in[16 * g + 3] = m[3]; }
				else in[16 * g + 1] = m[2];
			}
		memcpy(want, mem, sizeof(want));
		hl.kd = hx_kd(&code, f->kernel);
		ck_assert_msg(hl.kd != 0, "no %s.kd", f->kernel);
		rc = hx_run(&hl, &err);
		ck_assert_msg(rc == 0, "%s: %s: %s", f->kernel, kemu_isa_error_name(err.kind), err.message);
		for (unsigned g = 0; g < 64; g++) {
			uint32_t sg[16];
			memcpy(sg, in + 16 * g, 64);
			model(f, sg, want + 64 * g);
			if ((memcmp(sg, out + 16 * g, 64) || memcmp(want + 64 * g, mem + 64 * g, 64)) && bad++ < 6)
				fprintf(stderr, "%s wave %u: s24.. %08x %08x (model %08x %08x), mem[8] %08x (model %08x)\n",
					f->kernel, g, out[16 * g], out[16 * g + 1], sg[0], sg[1],
					((uint32_t *)(mem + 64 * g))[2], ((uint32_t *)(want + 64 * g))[2]);
		}
	}
	hx_free(in);
	hx_free(out);
	hx_free(mem);
	ck_assert_msg(bad == 0, "%u waves differ from the model (first ones above)", bad);
}
END_TEST

static Suite *smem_suite(void)
{
	Suite *s = suite_create("isa_smem");
	TCase *tc = tcase_create("smem");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_smem_match_model);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(smem_suite)
