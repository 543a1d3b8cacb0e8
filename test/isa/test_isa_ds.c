/*
 * test_isa_ds.c — the LDS instructions against a host model of the LDS:
 * reads and writes of every width (sign/zero extension, the d16 halves,
 * b96/b128), read2/write2 and their st64 forms, the 32- and 64-bit
 * atomics with and without return (add, sub, rsub, inc, dec, min/max
 * signed and unsigned, and/or/xor, mskor, cmpst, the float add/min/max/
 * cmpst), wrxchg and wrxchg2(st64), ds_nop.  kernels/ds.s holds one kernel
 * per row of the table below (generated together from the table of
 * instructions); each runs one wave on 4 KiB of generated LDS and per-lane
 * data, and both the returned registers and the whole LDS afterwards are
 * compared with the model.
 *
 * Rules modelled (CDNA2 guide, "Data Share Operations"): address = ADDR +
 * OFFSET, or ADDR + OFFSETn * size (x64 for st64); rsub: MEM = DATA -
 * MEM; inc/dec as the buffer atomics; mskor: MEM = (MEM & ~DATA) | DATA2;
 * cmpst: MEM = DATA2 when MEM == DATA (as floats for cmpst_f32/f64); the
 * _rtn forms return the old value; d16 reads write one half and keep the
 * other.  Lanes touch distinct addresses, so lane order does not matter;
 * float data are exact binary fractions without NaN.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hl_check.h"
#include "isa_harness.h"

struct dform {
	const char *name;
	unsigned off;           /* OFFSET, or OFFSET1 of the two-address forms */
};

static const struct dform dforms[] = {
	{ "ds_add_f32", 4 },
	{ "ds_add_f64", 4 },
	{ "ds_add_rtn_f32", 4 },
	{ "ds_add_rtn_f64", 4 },
	{ "ds_add_rtn_u32", 4 },
	{ "ds_add_rtn_u64", 4 },
	{ "ds_add_u32", 4 },
	{ "ds_add_u64", 4 },
	{ "ds_and_b32", 4 },
	{ "ds_and_b64", 4 },
	{ "ds_and_rtn_b32", 4 },
	{ "ds_and_rtn_b64", 4 },
	{ "ds_cmpst_b32", 4 },
	{ "ds_cmpst_b64", 4 },
	{ "ds_cmpst_f32", 4 },
	{ "ds_cmpst_f64", 4 },
	{ "ds_cmpst_rtn_b32", 4 },
	{ "ds_cmpst_rtn_b64", 4 },
	{ "ds_cmpst_rtn_f32", 4 },
	{ "ds_cmpst_rtn_f64", 4 },
	{ "ds_dec_rtn_u32", 4 },
	{ "ds_dec_rtn_u64", 4 },
	{ "ds_dec_u32", 4 },
	{ "ds_dec_u64", 4 },
	{ "ds_inc_rtn_u32", 4 },
	{ "ds_inc_rtn_u64", 4 },
	{ "ds_inc_u32", 4 },
	{ "ds_inc_u64", 4 },
	{ "ds_max_f32", 4 },
	{ "ds_max_f64", 4 },
	{ "ds_max_i32", 4 },
	{ "ds_max_i64", 4 },
	{ "ds_max_rtn_f32", 4 },
	{ "ds_max_rtn_f64", 4 },
	{ "ds_max_rtn_i32", 4 },
	{ "ds_max_rtn_i64", 4 },
	{ "ds_max_rtn_u32", 4 },
	{ "ds_max_rtn_u64", 4 },
	{ "ds_max_u32", 4 },
	{ "ds_max_u64", 4 },
	{ "ds_min_f32", 4 },
	{ "ds_min_f64", 4 },
	{ "ds_min_i32", 4 },
	{ "ds_min_i64", 4 },
	{ "ds_min_rtn_f32", 4 },
	{ "ds_min_rtn_f64", 4 },
	{ "ds_min_rtn_i32", 4 },
	{ "ds_min_rtn_i64", 4 },
	{ "ds_min_rtn_u32", 4 },
	{ "ds_min_rtn_u64", 4 },
	{ "ds_min_u32", 4 },
	{ "ds_min_u64", 4 },
	{ "ds_mskor_b32", 4 },
	{ "ds_mskor_b64", 4 },
	{ "ds_mskor_rtn_b32", 4 },
	{ "ds_mskor_rtn_b64", 4 },
	{ "ds_nop", 0 },
	{ "ds_or_b32", 4 },
	{ "ds_or_b64", 4 },
	{ "ds_or_rtn_b32", 4 },
	{ "ds_or_rtn_b64", 4 },
	{ "ds_read2_b32", 2 },
	{ "ds_read2_b64", 1 },
	{ "ds_read2st64_b32", 1 },
	{ "ds_read2st64_b64", 1 },
	{ "ds_read_b128", 0 },
	{ "ds_read_b32", 0 },
	{ "ds_read_b64", 0 },
	{ "ds_read_b96", 0 },
	{ "ds_read_i16", 2 },
	{ "ds_read_i8", 3 },
	{ "ds_read_i8_d16", 3 },
	{ "ds_read_i8_d16_hi", 3 },
	{ "ds_read_u16", 2 },
	{ "ds_read_u16_d16", 2 },
	{ "ds_read_u16_d16_hi", 2 },
	{ "ds_read_u8", 3 },
	{ "ds_read_u8_d16", 3 },
	{ "ds_read_u8_d16_hi", 3 },
	{ "ds_rsub_rtn_u32", 4 },
	{ "ds_rsub_rtn_u64", 4 },
	{ "ds_rsub_u32", 4 },
	{ "ds_rsub_u64", 4 },
	{ "ds_sub_rtn_u32", 4 },
	{ "ds_sub_rtn_u64", 4 },
	{ "ds_sub_u32", 4 },
	{ "ds_sub_u64", 4 },
	{ "ds_write2_b32", 2 },
	{ "ds_write2_b64", 1 },
	{ "ds_write2st64_b32", 1 },
	{ "ds_write2st64_b64", 1 },
	{ "ds_write_b128", 0 },
	{ "ds_write_b16", 2 },
	{ "ds_write_b16_d16_hi", 2 },
	{ "ds_write_b32", 0 },
	{ "ds_write_b64", 0 },
	{ "ds_write_b8", 3 },
	{ "ds_write_b8_d16_hi", 3 },
	{ "ds_write_b96", 0 },
	{ "ds_wrxchg2_rtn_b32", 2 },
	{ "ds_wrxchg2_rtn_b64", 1 },
	{ "ds_wrxchg2st64_rtn_b32", 1 },
	{ "ds_wrxchg2st64_rtn_b64", 1 },
	{ "ds_wrxchg_rtn_b32", 4 },
	{ "ds_wrxchg_rtn_b64", 4 },
	{ "ds_xor_b32", 4 },
	{ "ds_xor_b64", 4 },
	{ "ds_xor_rtn_b32", 4 },
	{ "ds_xor_rtn_b64", 4 },
};

static uint32_t rng_state;
static uint32_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

static float fb(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t ub(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static double db(uint64_t u) { double f; memcpy(&f, &u, 8); return f; }
static uint64_t u64b(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }

static uint64_t ld(const uint8_t *lds, uint32_t a, unsigned n) { uint64_t v = 0; memcpy(&v, lds + a, n); return v; }
static void st(uint8_t *lds, uint32_t a, uint64_t v, unsigned n) { memcpy(lds + a, &v, n); }

/* one lane: rec = v[2:13] (12 dwords), reg = v[10:13] afterwards */
static void lane(const struct dform *f, unsigned l, const uint32_t *rec, uint8_t *lds, uint32_t *reg)
{
	const char *k = f->name + 3;
	bool st64 = strstr(k, "st64") != NULL, b64 = strstr(k, "b64") || strstr(k, "64") != NULL;
	uint32_t addr = st64 ? (strstr(k, "b64") ? 8 * l : 4 * l) : 16 * l;
	const uint32_t *d0 = rec, *d1 = rec + 4;
	memcpy(reg, rec + 8, 16);
	if (!strcmp(k, "nop"))
		return;
	if (!strncmp(k, "write2", 6) || !strncmp(k, "read2", 5) || !strncmp(k, "wrxchg2", 7)) {
		unsigned sz = strstr(k, "b64") ? 8 : 4, sc = st64 ? 64 * sz : sz;
		uint32_t a0 = addr, a1 = addr + f->off * sc;
		uint64_t o0 = ld(lds, a0, sz), o1 = ld(lds, a1, sz);
		uint64_t x0 = d0[0] | (sz == 8 ? (uint64_t)d0[1] << 32 : 0), x1 = d1[0] | (sz == 8 ? (uint64_t)d1[1] << 32 : 0);
		if (k[0] == 'w') {
			st(lds, a0, x0, sz);
			st(lds, a1, x1, sz);
		}
		if (k[0] == 'r' || !strncmp(k, "wrxchg", 6)) {
			memcpy(reg, &o0, sz);
			memcpy((uint8_t *)reg + sz, &o1, sz);
		}
		return;
	}
	if (!strncmp(k, "write_", 6)) {
		unsigned bits = (unsigned)atoi(k + 7);
		uint32_t a = addr + f->off;
		if (bits >= 32) { memcpy(lds + a, d0, bits / 8); return; }
		st(lds, a, strstr(k, "d16_hi") ? d0[0] >> 16 : d0[0], bits / 8);
		return;
	}
	if (!strncmp(k, "read_", 5)) {
		unsigned bits = (unsigned)atoi(k + 6);
		uint32_t a = addr + f->off, v;
		if (bits >= 32) { memcpy(reg, lds + a, bits / 8); return; }
		v = (uint32_t)ld(lds, a, bits / 8);
		if (k[5] == 'i')
			v = bits == 8 ? (uint32_t)(int8_t)v : (uint32_t)(int16_t)v;
		if (strstr(k, "d16_hi")) reg[0] = (reg[0] & 0xffff) | v << 16;
		else if (strstr(k, "d16")) reg[0] = (reg[0] & 0xffff0000u) | (v & 0xffff);
		else reg[0] = v;
		return;
	}
	{
		/* atomics at ADDR + 4 */
		unsigned sz = b64 ? 8 : 4;
		uint32_t a = addr + f->off;
		uint64_t old = ld(lds, a, sz), nw;
		uint64_t x = d0[0] | (sz == 8 ? (uint64_t)d0[1] << 32 : 0), y = d1[0] | (sz == 8 ? (uint64_t)d1[1] << 32 : 0);
		bool sg = strstr(k, "_i32") || strstr(k, "_i64");
		if (!strncmp(k, "add_f64", 7) || !strncmp(k, "add_rtn_f64", 11)) nw = u64b(db(old) + db(x));
		else if (!strncmp(k, "add_f32", 7) || !strncmp(k, "add_rtn_f32", 11)) nw = ub(fb((uint32_t)old) + fb((uint32_t)x));
		else if (!strncmp(k, "min_f", 5) || !strncmp(k, "min_rtn_f", 9))
			nw = sz == 8 ? (db(x) < db(old) ? x : old) : (fb((uint32_t)x) < fb((uint32_t)old) ? x : old);
		else if (!strncmp(k, "max_f", 5) || !strncmp(k, "max_rtn_f", 9))
			nw = sz == 8 ? (db(x) > db(old) ? x : old) : (fb((uint32_t)x) > fb((uint32_t)old) ? x : old);
		else if (!strncmp(k, "cmpst_f", 7) || !strncmp(k, "cmpst_rtn_f", 11))
			nw = (sz == 8 ? db(old) == db(x) : fb((uint32_t)old) == fb((uint32_t)x)) ? y : old;
		else if (!strncmp(k, "cmpst", 5)) nw = old == x ? y : old;
		else if (!strncmp(k, "mskor", 5)) nw = (old & ~x) | y;
		else if (!strncmp(k, "wrxchg", 6)) nw = x;
		else if (!strncmp(k, "add", 3)) nw = old + x;
		else if (!strncmp(k, "sub", 3)) nw = old - x;
		else if (!strncmp(k, "rsub", 4)) nw = x - old;
		else if (!strncmp(k, "inc", 3)) nw = old >= x ? 0 : old + 1;
		else if (!strncmp(k, "dec", 3)) nw = (old == 0 || old > x) ? x : old - 1;
		else if (!strncmp(k, "min", 3))
			nw = sg ? (sz == 8 ? ((int64_t)x < (int64_t)old ? x : old) : ((int32_t)x < (int32_t)old ? x : old)) : (x < old ? x : old);
		else if (!strncmp(k, "max", 3))
			nw = sg ? (sz == 8 ? ((int64_t)x > (int64_t)old ? x : old) : ((int32_t)x > (int32_t)old ? x : old)) : (x > old ? x : old);
		else if (!strncmp(k, "and", 3)) nw = old & x;
		else if (!strncmp(k, "or", 2)) nw = old | x;
		else nw = old ^ x;                                      /* xor */
		if (sz == 4) nw &= 0xffffffffu;
		st(lds, a, nw, sz);
		if (strstr(k, "_rtn_"))
			memcpy(reg, &old, sz);
	}
}

static struct hx_code code;

START_TEST(test_ds_match_model)
{
	char path[600];
	uint32_t *in, *out;
	uint64_t args[2];
	unsigned bad = 0;

	if (!hx_kernel_path("ds", KEMU_ISA_GFX90A, path, sizeof(path))) {
		ck_assert_msg(!hx_target_expected(KEMU_ISA_GFX90A), "ds-gfx90a.co not built");
		return;
	}
	ck_assert_int_eq(hx_load(&code, path), 0);
	in = hx_alloc(8192);
	out = hx_alloc(8192);
	args[0] = (uint64_t)(uintptr_t)in;
	args[1] = (uint64_t)(uintptr_t)out;
	for (size_t i = 0; i < sizeof(dforms) / sizeof(dforms[0]); i++) {
		const struct dform *f = &dforms[i];
		bool fl = strstr(f->name, "_f32") || strstr(f->name, "_f64");
		bool f64 = strstr(f->name, "_f64") != NULL, small = strstr(f->name, "inc") || strstr(f->name, "dec");
		for (unsigned seed = 0; seed < 2; seed++) {
			struct hx_launch hl = { .gfx = KEMU_ISA_GFX90A, .args = args, .args_size = 16,
						.grid = { 64, 1, 1 }, .wg = { 64, 1, 1 } };
			struct kemu_isa_error err;
			uint8_t lds[4096];
			char kname[64];
			int rc;
			rng_state = 0x082efa98u ^ (uint32_t)i * 0x85ebca6bu ^ seed * 0x9e3779b9u;
			for (unsigned j = 0; j < 2048; j++)
				in[j] = rnd();
			for (unsigned j = 0; j < 1024; j++) {
				if (small)
					in[j] = rnd() % 8;
				else if (fl && !f64)
					in[j] = ub((float)((int)(rnd() % 201) - 100) * 0.25f);
				else if (fl)
					in[j] = j & 1 ? (uint32_t)(u64b(((int)(rnd() % 201) - 100) * 0.25) >> 32) : 0;
			}
			for (unsigned l = 0; l < 64; l++) {
				uint32_t *r = in + 1024 + 16 * l, *m = in + 4 * l;   /* the lane's slot */
				if (small) { r[0] = rnd() % 6; r[1] = 0; }
				if (fl && !f64) { r[0] = ub((float)((int)(rnd() % 201) - 100) * 0.25f); r[4] = ub(1.5f); }
				if (f64) { uint64_t v = u64b(((int)(rnd() % 201) - 100) * 0.25); r[0] = (uint32_t)v; r[1] = (uint32_t)(v >> 32); r[4] = 0; r[5] = 0x3ff80000u; }
				if (strstr(f->name, "cmpst") && rnd() % 2) {
					/* compare value equal to memory (at ADDR + 4) half the time */
					r[0] = m[1];
					if (strstr(f->name, "64")) r[1] = m[2];
				}
			}
			memcpy(lds, in, 4096);
			snprintf(kname, sizeof(kname), "k_%s", f->name);
			hl.kd = hx_kd(&code, kname);
			ck_assert_msg(hl.kd != 0, "no %s.kd", kname);
			rc = hx_run(&hl, &err);
			ck_assert_msg(rc == 0, "%s: %s: %s", f->name, kemu_isa_error_name(err.kind), err.message);
			for (unsigned l = 0; l < 64; l++) {
				uint32_t reg[4];
				lane(f, l, in + 1024 + 16 * l, lds, reg);
				if (memcmp(reg, out + 4 * l, 16) && bad++ < 6)
					fprintf(stderr, "%s lane %u: regs %08x %08x %08x %08x, model %08x %08x %08x %08x\n",
						f->name, l, out[4 * l], out[4 * l + 1], out[4 * l + 2], out[4 * l + 3],
						reg[0], reg[1], reg[2], reg[3]);
			}
			for (unsigned j = 0; j < 1024; j++) {
				uint32_t w;
				memcpy(&w, lds + 4 * j, 4);
				if (out[256 + j] != w && bad++ < 6)
					fprintf(stderr, "%s: LDS dword %u: %08x, model %08x\n", f->name, j, out[256 + j], w);
			}
		}
	}
	hx_free(in);
	hx_free(out);
	ck_assert_msg(bad == 0, "%u results differ from the model (first ones above)", bad);
}
END_TEST

static Suite *ds_suite(void)
{
	Suite *s = suite_create("isa_ds");
	TCase *tc = tcase_create("ds");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_ds_match_model);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(ds_suite)
