/*
 * test_isa_ops.c — the instructions the interpreter gained last against a
 * host model written from the CDNA2/CDNA3 ISA guides (kernels/ops.s for
 * both targets, ops_img.s for gfx90a, ops942.s for gfx942; each kernel's
 * comment says what it computes): GPR indexing (s_set_gpr_idx_on/idx/
 * mode/off on SRC0/SRC1/SRC2/VDST, a compare's SGPR destination left
 * alone, an index past the VGPRs failing the wave), VSKIP (s_setvskip and
 * MODE.VSKIP through s_setreg; scalar instructions still run), the
 * fork/join branch stack (which path runs first, both paths, CSP back),
 * s_rfe_b64/s_rfe_restore_b64 outside a handler, s_sethalt/
 * s_sendmsghalt, ds_condxchg32_rtn_b64 (the & 0xfff8 address, the
 * bit-31 conditions), s_scratch_load/store (and a fault past the wave's
 * scratch), v_cvt_norm_*_f16 in e64/SDWA/DPP forms, v_accvgpr_mov_b32,
 * the packed image loads/stores, image_store_mip and the thirteen image
 * atomics (gfx90a), and gfx942's global_/scratch_load_lds_* with
 * buffer_inv and the MUBUF loads with the LDS bit; and kernels/gpridx.cl,
 * which clang-19 compiles to GPR indexing.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hl_check.h"
#include "isa_harness.h"

#define NL 64
#define OUTW 16 /* out dwords a lane */

static uint32_t rng_state = 0x2545f491u;
static uint32_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

struct co {
	struct hx_code code;
	bool loaded, missing;
};
static struct co objs[5];

/* The code object <stem>-<gfx>.co, loaded once; NULL when its compiler
 * is missing (the test then checks nothing for that target, as the
 * other isa suites). */
static struct hx_code *code_of(unsigned slot, const char *stem, uint32_t gfx)
{
	char path[600];
	struct co *c = &objs[slot];

	if (c->loaded)
		return &c->code;
	if (c->missing)
		return NULL;
	if (!hx_kernel_path(stem, gfx, path, sizeof(path))) {
		ck_assert_msg(!hx_target_expected(gfx), "%s not built", stem);
		c->missing = true;
		return NULL;
	}
	ck_assert_int_eq(hx_load(&c->code, path), 0);
	c->loaded = true;
	return &c->code;
}

static struct hx_code *ops(uint32_t gfx)
{
	return gfx == KEMU_ISA_GFX90A ? code_of(0, "ops", gfx) : code_of(1, "ops", gfx);
}

/* Runs kernel name of code c on in (64 x 4 dwords) with aux; out: 64 x 16
 * dwords.  Returns hx_run's result (err filled when not 0). */
static int run(struct hx_code *c, uint32_t gfx, const char *name, const uint32_t *in,
	       uint32_t *out, const void *aux, struct kemu_isa_error *err)
{
	uint32_t *gin = hx_alloc(NL * 16), *gout = hx_alloc(NL * OUTW * 4);
	uint64_t args[3];
	int rc;

	memcpy(gin, in, NL * 16);
	args[0] = (uint64_t)(uintptr_t)gin;
	args[1] = (uint64_t)(uintptr_t)gout;
	args[2] = (uint64_t)(uintptr_t)aux;
	struct hx_launch hl = { .gfx = gfx, .args = args, .args_size = sizeof(args),
				.grid = { NL, 1, 1 }, .wg = { NL, 1, 1 } };
	hl.kd = hx_kd(c, name);
	ck_assert_msg(hl.kd != 0, "no %s.kd", name);
	memset(err, 0, sizeof(*err));
	rc = hx_run(&hl, err);
	memcpy(out, gout, NL * OUTW * 4);
	hx_free(gin);
	hx_free(gout);
	return rc;
}

static void run_ok(struct hx_code *c, uint32_t gfx, const char *name, const uint32_t *in,
		   uint32_t *out, const void *aux)
{
	struct kemu_isa_error err;
	int rc = run(c, gfx, name, in, out, aux, &err);
	ck_assert_msg(rc == 0, "%s: %s: %s", name, kemu_isa_error_name(err.kind), err.message);
}

static const uint32_t gfxs[2] = { KEMU_ISA_GFX90A, KEMU_ISA_GFX942 };

/* ---- GPR indexing ---- */

START_TEST(test_gpr_idx)
{
	uint32_t in[NL * 4], out[NL * OUTW];
	for (unsigned g = 0; g < 2; g++) {
		struct hx_code *c = ops(gfxs[g]);
		if (!c)
			continue;
		for (unsigned seed = 0; seed < 8; seed++) {
			for (unsigned i = 0; i < NL * 4; i++)
				in[i] = rnd();
			in[0] = (in[0] & ~3u) | (seed & 3);     /* every index */
			in[1] = (in[1] & ~1u) | (seed >> 2 & 1);
			run_ok(c, gfxs[g], "ops_gpr_idx", in, out, NULL);
			unsigned i0 = in[0] & 3, i1 = in[1] & 1;
			for (unsigned l = 0; l < NL; l++) {
				const uint32_t *o = &out[OUTW * l];
				uint32_t r[6] = { 0, 0, in[4 * l], in[4 * l + 1], in[4 * l + 2],
						  in[4 * l + 3] }; /* r[2..5] = v2..v5 */
				ck_assert_uint_eq(o[0], r[2 + i0]);
				ck_assert_uint_eq(o[1], i1 ? 0 : r[2] + r[3]);
				ck_assert_uint_eq(o[2], i1 ? r[2] + r[3] : 0);
				ck_assert_uint_eq(o[3], r[2 + i1] + r[4 + i1]);
				ck_assert_uint_eq(o[4], (r[2] & 0xffffff) * (r[3] & 0xffffff) + r[2 + i0]);
				ck_assert_uint_eq(o[5], r[2 + i0] < r[3]);
			}
		}
		struct kemu_isa_error err;
		ck_assert_int_ne(run(c, gfxs[g], "ops_gpr_idx_oob", in, out, NULL, &err), 0);
		ck_assert_int_eq(err.kind, KEMU_ISA_ERR_ILLEGAL_INSTRUCTION);
		ck_assert_msg(strstr(err.message, "GPR indexing"), "%s", err.message);
	}
}
END_TEST

/* ---- VSKIP ---- */

START_TEST(test_vskip)
{
	uint32_t in[NL * 4], out[NL * OUTW];
	for (unsigned g = 0; g < 2; g++) {
		struct hx_code *c = ops(gfxs[g]);
		if (!c)
			continue;
		for (unsigned seed = 0; seed < 2; seed++) {
			for (unsigned i = 0; i < NL * 4; i++)
				in[i] = rnd();
			in[0] = seed ? in[0] | 8 : in[0] & ~8u;
			run_ok(c, gfxs[g], "ops_vskip", in, out, NULL);
			for (unsigned l = 0; l < NL; l++) {
				const uint32_t *o = &out[OUTW * l];
				ck_assert_uint_eq(o[0], 0);     /* skipped v_mov */
				ck_assert_uint_eq(o[1], 9);     /* the scalar s_mov ran */
				ck_assert_uint_eq(o[2], 0);     /* skipped ds_write */
				ck_assert_uint_eq(o[3], seed ? 0 : 7);
				ck_assert_uint_eq(o[4], 0);     /* VSKIP through s_setreg */
				ck_assert_uint_eq(o[5], 2);
			}
		}
	}
}
END_TEST

/* ---- the branch stack ---- */

/* The path record s31 of a fork on cond: 1 the fall-through path, 2 the
 * taken one, in the order they ran (the guide: all lanes one way, that
 * path only; else the path with fewer lanes first, the taken one on a
 * tie). */
static uint32_t fork_order(uint64_t cond)
{
	unsigned pass = (unsigned)__builtin_popcountll(cond), fail = NL - pass;
	if (pass == NL)
		return 2;
	if (fail == NL)
		return 1;
	return fail < pass ? (1u << 2 | 2) : (2u << 2 | 1);
}

START_TEST(test_fork_join)
{
	uint32_t in[NL * 4], out[NL * OUTW];
	for (unsigned g = 0; g < 2; g++) {
		struct hx_code *c = ops(gfxs[g]);
		if (!c)
			continue;
		for (unsigned seed = 0; seed < 8; seed++) {
			uint64_t c2 = 0, c3 = 0;
			for (unsigned i = 0; i < NL * 4; i++)
				in[i] = rnd();
			for (unsigned l = 0; l < NL; l++) {
				/* seeds 0-3: all even / all odd / one lane / all but one */
				if (seed < 4) {
					bool odd = seed == 1 || (seed == 2 && l == 5) || (seed == 3 && l != 9);
					in[4 * l] = (in[4 * l] & ~1u) | odd;
					in[4 * l + 1] = (in[4 * l + 1] & ~1u) | !odd;
				}
				c2 |= (uint64_t)(in[4 * l] & 1) << l;
				c3 |= (uint64_t)(in[4 * l + 1] & 1) << l;
			}
			run_ok(c, gfxs[g], "ops_fork", in, out, NULL);
			for (unsigned l = 0; l < NL; l++) {
				const uint32_t *o = &out[OUTW * l];
				ck_assert_uint_eq(o[0], (c2 >> l & 1) ? 2 : 1);
				ck_assert_uint_eq(o[1], fork_order(c2));
				ck_assert_uint_eq(o[2], (c3 >> l & 1) ? 4 : 3);
				ck_assert_uint_eq(o[3], fork_order(c3));
				ck_assert_uint_eq(o[4], 0);     /* CSP back to 0 */
			}
		}
	}
}
END_TEST

/* ---- returns and halts ---- */

START_TEST(test_rfe_and_halt)
{
	uint32_t in[NL * 4], out[NL * OUTW];
	struct kemu_isa_error err;
	memset(in, 0, sizeof(in));
	for (unsigned g = 0; g < 2; g++) {
		struct hx_code *c = ops(gfxs[g]);
		if (!c)
			continue;
		run_ok(c, gfxs[g], "ops_rfe", in, out, NULL);
		for (unsigned l = 0; l < NL; l++) {
			const uint32_t *o = &out[OUTW * l];
			ck_assert_uint_eq(o[0], 0);
			ck_assert_uint_eq(o[1], 2);
			ck_assert_uint_eq(o[2], 0);
			ck_assert_uint_eq(o[3], 4);
			ck_assert_uint_eq(o[4], 5);     /* s_sethalt 0 goes on */
		}
		ck_assert_int_ne(run(c, gfxs[g], "ops_sethalt", in, out, NULL, &err), 0);
		ck_assert_int_eq(err.kind, KEMU_ISA_ERR_HALT);
		ck_assert_int_ne(run(c, gfxs[g], "ops_sendmsghalt", in, out, NULL, &err), 0);
		ck_assert_int_eq(err.kind, KEMU_ISA_ERR_HALT);
	}
}
END_TEST

/* ---- ds_condxchg32_rtn_b64 ---- */

START_TEST(test_condxchg)
{
	uint32_t in[NL * 4], out[NL * OUTW];
	for (unsigned g = 0; g < 2; g++) {
		struct hx_code *c = ops(gfxs[g]);
		if (!c)
			continue;
		for (unsigned seed = 0; seed < 4; seed++) {
			for (unsigned i = 0; i < NL * 4; i++)
				in[i] = rnd();
			run_ok(c, gfxs[g], "ops_condxchg", in, out, NULL);
			for (unsigned l = 0; l < NL; l++) {
				const uint32_t *r = &in[4 * l], *o = &out[OUTW * l];
				ck_assert_uint_eq(o[0], r[0]);
				ck_assert_uint_eq(o[1], r[1]);
				ck_assert_uint_eq(o[2], (r[2] >> 31) ? (r[2] & 0x7fffffffu) : r[0]);
				ck_assert_uint_eq(o[3], (r[3] >> 31) ? (r[3] & 0x7fffffffu) : r[1]);
			}
		}
	}
}
END_TEST

/* ---- s_scratch_load/store ---- */

START_TEST(test_sscratch)
{
	uint32_t in[NL * 4], out[NL * OUTW];
	struct kemu_isa_error err;
	for (unsigned g = 0; g < 2; g++) {
		struct hx_code *c = ops(gfxs[g]);
		if (!c)
			continue;
		for (unsigned i = 0; i < NL * 4; i++)
			in[i] = rnd();
		run_ok(c, gfxs[g], "ops_sscratch", in, out, NULL);
		for (unsigned l = 0; l < NL; l++) {
			const uint32_t *o = &out[OUTW * l];
			ck_assert_uint_eq(o[0], in[2]);
			ck_assert_uint_eq(o[1], in[3]);
			ck_assert_uint_eq(o[2], in[1]);
			for (unsigned k = 0; k < 4; k++)
				ck_assert_uint_eq(o[3 + k], in[k]);
		}
		ck_assert_int_ne(run(c, gfxs[g], "ops_sscratch_oob", in, out, NULL, &err), 0);
		ck_assert_int_eq(err.kind, KEMU_ISA_ERR_MEMORY_FAULT);
	}
}
END_TEST

/* ---- v_cvt_norm_*_f16 ---- */

static double h2d(uint16_t h)
{
	_Float16 x;
	memcpy(&x, &h, 2);
	return (double)x;
}

/* The guide's f16 -> normalized 16-bit conversion: NaN 0, clamp to
 * [-1, 1] ([0, 1]), scale by 32767 (65535), round to nearest even;
 * zero-extended to 32 bits. */
static uint32_t norm16(uint16_t h, bool sgn)
{
	double x = h2d(h);
	if (isnan(x))
		return 0;
	if (sgn)
		return (uint32_t)(int32_t)nearbyint(fmin(fmax(x, -1.0), 1.0) * 32767.0) & 0xffff;
	return (uint32_t)nearbyint(fmin(fmax(x, 0.0), 1.0) * 65535.0);
}

static uint16_t some_f16(void)
{
	static const uint16_t special[] = { 0x0000, 0x8000, 0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7e00,
		0x3800, 0xb800, 0x0001, 0x8001, 0x3bff, 0x4000, 0xc000, 0x7bff, 0x2000 };
	uint32_t r = rnd();
	if ((r & 3) == 0)
		return special[(r >> 2) % 16];
	/* mostly [-2, 2]: where the clamp does not decide */
	return (uint16_t)((r >> 8 & 0x8000) | (0x3000 + ((r >> 2) % 0x1000)));
}

START_TEST(test_cvt_norm)
{
	uint32_t in[NL * 4], out[NL * OUTW];
	for (unsigned g = 0; g < 2; g++) {
		struct hx_code *c = ops(gfxs[g]);
		if (!c)
			continue;
		for (unsigned seed = 0; seed < 6; seed++) {
			for (unsigned i = 0; i < NL * 4; i++)
				in[i] = some_f16() | (uint32_t)some_f16() << 16;
			run_ok(c, gfxs[g], "ops_cvt_norm", in, out, NULL);
			for (unsigned l = 0; l < NL; l++) {
				const uint32_t *r = &in[4 * l], *o = &out[OUTW * l];
				uint16_t v2 = (uint16_t)r[0], v3hi = (uint16_t)(r[1] >> 16);
				unsigned q1 = l ^ 1, q2 = (l & ~3u) | (3 - (l & 3));
				ck_assert_uint_eq(o[0], norm16(v2 ^ 0x8000, true));
				ck_assert_uint_eq(o[1], norm16(v2 & 0x7fff, false));
				ck_assert_uint_eq(o[2], norm16(v3hi, true));
				ck_assert_uint_eq(o[3], (r[2] & 0xffff) | norm16(v3hi, false) << 16);
				ck_assert_uint_eq(o[4], norm16((uint16_t)in[4 * q1], true));
				ck_assert_uint_eq(o[5], norm16((uint16_t)in[4 * q2], false));
			}
		}
	}
}
END_TEST

static float fb(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}
static uint32_t bf(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

/* f32 -> normalized 16 bits (NaN 0, clamp, scale, nearest even) */
static uint32_t norm16f(float x, bool sgn)
{
	if (isnan(x))
		return 0;
	if (sgn)
		return (uint32_t)(int32_t)nearbyint(fmin(fmax(x, -1.0), 1.0) * 32767.0) & 0xffff;
	return (uint32_t)nearbyint(fmin(fmax(x, 0.0), 1.0) * 65535.0);
}
/* v_cvt_pk_u8_f32: u8(x) (NaN/negative 0, 255 saturated, nearest even)
 * into byte k of c */
static uint32_t pk_u8(float x, unsigned k, uint32_t c)
{
	uint32_t v = isnan(x) || x <= 0 ? 0 : x >= 255.0f ? 255 : (uint32_t)nearbyintf(x);
	return (c & ~(0xffu << (8 * k))) | v << (8 * k);
}
static float off_i4(uint32_t v)
{
	return (float)((int32_t)(v << 28) >> 28) / 16.0f;
}
static float clamp01(float x)
{
	return x < 0 ? 0.0f : x > 1 ? 1.0f : x;
}

START_TEST(test_cvt_float_mods)
{
	static const float special[] = { 0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 2.0f, -3.5f, 254.6f, 300.0f,
					 INFINITY, -INFINITY, NAN };
	uint32_t in[NL * 4], out[NL * OUTW];
	for (unsigned g = 0; g < 2; g++) {
		struct hx_code *c = ops(gfxs[g]);
		if (!c)
			continue;
		for (unsigned seed = 0; seed < 4; seed++) {
			for (unsigned i = 0; i < NL * 4; i++) {
				uint32_t r = rnd();
				in[i] = (r & 3) == 0 ? bf(special[(r >> 2) % 12])
						     : bf(((float)(int32_t)(r >> 8) / (float)(1 << 22)) * 1.5f);
			}
			run_ok(c, gfxs[g], "ops_cvt_mods", in, out, NULL);
			for (unsigned l = 0; l < NL; l++) {
				const uint32_t *r = &in[4 * l], *o = &out[OUTW * l];
				float x = fb(r[0]), y = fb(r[1]);
				ck_assert_uint_eq(o[0], norm16f(-x, true) | norm16f(fabsf(y), true) << 16);
				ck_assert_uint_eq(o[1], norm16f(fabsf(x), false) | norm16f(-y, false) << 16);
				ck_assert_uint_eq(o[2], pk_u8(-x, 1, r[2]));
				ck_assert_uint_eq(o[3], pk_u8(fabsf(y), 2, r[3]));
				ck_assert_uint_eq(o[4], bf(off_i4(r[0]) * 2.0f));
				ck_assert_uint_eq(o[5], bf(clamp01(off_i4(r[1]))));
				ck_assert_uint_eq(o[6], bf(clamp01(off_i4(r[2]) * 0.5f)));
			}
		}
	}
}
END_TEST

/* f16 bits of x rounded to nearest even (x exact in double) */
static uint16_t h_of(double x)
{
	_Float16 h = (_Float16)x;
	uint16_t u;
	memcpy(&u, &h, 2);
	return u;
}
/* CLAMP of an f16 result: NaN 0, below 0 to 0, above 1 to 1.0 */
static uint16_t hclamp(uint16_t v)
{
	double x = h2d(v);
	return isnan(x) ? 0 : x < 0 ? 0 : x > 1 ? 0x3c00 : v;
}

START_TEST(test_pk_f16_clamp)
{
	uint32_t in[NL * 4], out[NL * OUTW];
	for (unsigned g = 0; g < 2; g++) {
		struct hx_code *c = ops(gfxs[g]);
		if (!c)
			continue;
		for (unsigned seed = 0; seed < 4; seed++) {
			/* multiples of 1/256 in (-3, 3): sums, products and fmas exact */
			for (unsigned i = 0; i < NL * 4; i++) {
				uint32_t v = 0;
				for (unsigned h = 0; h < 2; h++)
					v |= (uint32_t)h_of(((int)(rnd() % 1535) - 767) / 256.0) << (16 * h);
				in[i] = v;
			}
			run_ok(c, gfxs[g], "ops_pk_clamp", in, out, NULL);
			for (unsigned l = 0; l < NL; l++) {
				const uint32_t *r = &in[4 * l], *o = &out[OUTW * l];
				uint32_t want[5] = { 0, 0, 0, 0, 0 };
				for (unsigned h = 0; h < 2; h++) {
					double x = h2d((uint16_t)(r[0] >> (16 * h)));
					double y = h2d((uint16_t)(r[1] >> (16 * h)));
					double z = h2d((uint16_t)(r[2] >> (16 * h)));
					uint16_t v[5] = { h_of(x + y), h_of(x * y), h_of(x * y + z),
							  h_of(x < y ? x : y), h_of(x > y ? x : y) };
					for (unsigned k = 0; k < 5; k++)
						want[k] |= (uint32_t)hclamp(v[k]) << (16 * h);
				}
				for (unsigned k = 0; k < 5; k++)
					ck_assert_msg(o[k] == want[k], "lane %u op %u: %08x, want %08x", l, k,
						      o[k], want[k]);
			}
		}
	}
}
END_TEST

START_TEST(test_accvgpr_mov)
{
	uint32_t in[NL * 4], out[NL * OUTW];
	for (unsigned g = 0; g < 2; g++) {
		struct hx_code *c = ops(gfxs[g]);
		if (!c)
			continue;
		for (unsigned i = 0; i < NL * 4; i++)
			in[i] = rnd();
		run_ok(c, gfxs[g], "ops_accmov", in, out, NULL);
		for (unsigned l = 0; l < NL; l++) {
			ck_assert_uint_eq(out[OUTW * l], in[4 * l]);
			ck_assert_uint_eq(out[OUTW * l + 1], in[4 * l + 1]);
			ck_assert_uint_eq(out[OUTW * l + 2], in[4 * l]);
		}
	}
}
END_TEST

/* ---- images (gfx90a) ---- */

/* T# of a linear 2-D image of w x 4 texels, row pitch 16 texels, at data:
 * IMG_DATA_FORMAT dfmt, IMG_NUM_FORMAT nfmt, DST_SEL identity, type 2-D
 * (9), SW_LINEAR (GFX9 SQ_IMG_RSRC_WORD0-4). */
static void tsharp(uint32_t *t, const void *data, unsigned dfmt, unsigned nfmt, uint32_t w)
{
	uint64_t va = (uint64_t)(uintptr_t)data;
	memset(t, 0, 32);
	t[0] = (uint32_t)(va >> 8);
	t[1] = (uint32_t)(va >> 40) | dfmt << 20 | nfmt << 26;
	t[2] = (w - 1) | (4u - 1) << 14;
	t[3] = 0xfacu | 9u << 28;      /* DST_SEL X, Y, Z, W; 2-D */
	t[4] = 0 | (16u - 1) << 13;    /* depth 1, pitch 16 */
}

enum { DF8 = 1, DF16 = 2, DF32 = 4, DF8888 = 10, DF32_32 = 11, DF16X4 = 12, DF32X4 = 14 };
enum { NF_UINT = 4, NF_SINT = 5 };

static struct hx_code *imgcode(void)
{
	return code_of(2, "ops_img", KEMU_ISA_GFX90A);
}

START_TEST(test_image_pck)
{
	static const struct { unsigned dfmt, bytes; } fm[] = {
		{ DF8, 1 }, { DF16, 2 }, { DF32, 4 }, { DF8888, 4 }, { DF32_32, 8 }, { DF16X4, 8 },
		{ DF32X4, 16 },
	};
	uint32_t in[NL * 4], out[NL * OUTW];
	struct hx_code *c = imgcode();
	if (!c)
		return;
	for (unsigned f = 0; f < sizeof(fm) / sizeof(fm[0]); f++) {
		unsigned b = fm[f].bytes;
		uint8_t *data = hx_alloc(16 * 4 * 16);
		uint32_t *t = hx_alloc(4096);
		for (unsigned i = 0; i < 16 * 4 * 16; i++)
			data[i] = (uint8_t)rnd();
		tsharp(t, data, fm[f].dfmt, NF_UINT, 16);
		for (unsigned i = 0; i < NL * 4; i++)
			in[i] = rnd();
		run_ok(c, KEMU_ISA_GFX90A, "ops_img_pck", in, out, t);
		for (unsigned l = 0; l < NL; l++) {
			uint32_t d[4] = { 0, 0, 0, 0 }, s[4];
			const uint32_t *o = &out[OUTW * l];
			memcpy(d, data + (size_t)l * b, b);  /* x = l & 15, y = l >> 4, pitch 16 */
			memcpy(s, d, sizeof(s));
			if (b == 1)
				s[0] = (uint32_t)(int32_t)(int8_t)d[0];
			else if (b == 2)
				s[0] = (uint32_t)(int32_t)(int16_t)d[0];
			for (unsigned k = 0; k < 4; k++)
				ck_assert_msg(o[k] == d[k], "dfmt %u lane %u dword %u: %08x, want %08x",
					      fm[f].dfmt, l, k, o[k], d[k]);
			ck_assert_uint_eq(o[4], s[0]);
			ck_assert_uint_eq(o[5], s[2]);
			ck_assert_uint_eq(o[6], d[0]);
			ck_assert_uint_eq(o[7], s[0]);
		}
		/* the stores: lanes < 32 all four dwords, the others 0, 1, 3
		 * from v2, v3, v4 (dword 2 stored as 0) */
		memset(data, 0xee, 16 * 4 * 16);
		run_ok(c, KEMU_ISA_GFX90A, "ops_img_pck_store", in, out, t);
		for (unsigned l = 0; l < NL; l++) {
			uint32_t want[4] = { 0, 0, 0, 0 }, got[4] = { 0, 0, 0, 0 };
			const uint32_t *r = &in[4 * l];
			if (l < 32) {
				memcpy(want, r, 16);
			} else {
				want[0] = r[0], want[1] = r[1], want[3] = r[2];
			}
			memcpy(got, data + (size_t)l * b, b);
			uint32_t m[4] = { 0, 0, 0, 0 };
			memcpy(m, want, b);
			ck_assert_msg(!memcmp(got, m, b), "dfmt %u lane %u: stored texel differs",
				      fm[f].dfmt, l);
			for (unsigned k = 0; k < 4; k++)
				ck_assert_uint_eq(out[OUTW * l + k], m[k]);
		}
		hx_free(data);
		hx_free(t);
	}
}
END_TEST

START_TEST(test_image_store_mip)
{
	uint32_t in[NL * 4], out[NL * OUTW];
	struct hx_code *c = imgcode();
	if (!c)
		return;
	uint32_t *data = hx_alloc(16 * 4 * 16), *t = hx_alloc(4096);
	tsharp(t, data, DF32X4, NF_UINT, 16);
	for (unsigned i = 0; i < NL * 4; i++)
		in[i] = rnd();
	run_ok(c, KEMU_ISA_GFX90A, "ops_img_store_mip", in, out, t);
	for (unsigned l = 0; l < NL; l++)
		for (unsigned k = 0; k < 4; k++) {
			ck_assert_uint_eq(data[4 * l + k], in[4 * l + k]);
			ck_assert_uint_eq(out[OUTW * l + k], in[4 * l + k]);
		}
	hx_free(data);
	hx_free(t);
}
END_TEST

/* ---- linear mip chains ----
 *
 * The layout a chain's T# describes, written here from addrlib's rule for
 * GFX9 linear mips (Gfx9Lib::ComputeSurfaceLinearPadding, the layout
 * hsalite's hsa_ext_image_create_v2 makes): rows of level 0's width
 * aligned to 256 bytes, level l from row sum(h_i, i < l) (h_0 = height,
 * 1 for 1-D; then ceil halves), T# PITCH + 1 rows a slice. */
struct chain {
	unsigned type;          /* 9: 2-D, 10: 3-D, 12: 1-D array, 13: 2-D array */
	uint32_t w, h, layers, levels, base, last; /* layers: depth of 3-D */
	uint32_t pitch, rows;   /* texels a row, rows a slice */
	uint32_t *data;
	uint32_t t[8];
};

static uint32_t ext(uint32_t v, uint32_t l)
{
	v = l >= 32 ? 0 : v >> l;
	return v ? v : 1;
}

static uint32_t chain_row(const struct chain *c, uint32_t level)
{
	uint32_t r = 0, h = c->type == 12 ? 1 : c->h;
	for (uint32_t i = 0; i < level; i++) {
		r += h;
		h = (h + 1) / 2;
	}
	return r;
}

static void chain_make(struct chain *c, unsigned type, uint32_t w, uint32_t h, uint32_t layers,
		       uint32_t levels, uint32_t base, uint32_t last)
{
	memset(c, 0, sizeof(*c));
	c->type = type, c->w = w, c->h = h, c->layers = layers, c->levels = levels;
	c->base = base, c->last = last;
	c->pitch = (w + 63) / 64 * 64;  /* 4-byte texels: 256 bytes = 64 */
	c->rows = chain_row(c, levels);
	c->data = hx_alloc((size_t)c->pitch * c->rows * layers * 4);
	uint64_t va = (uint64_t)(uintptr_t)c->data;
	c->t[0] = (uint32_t)(va >> 8);
	c->t[1] = (uint32_t)(va >> 40) | (uint32_t)DF32 << 20 | (uint32_t)NF_UINT << 26;
	c->t[2] = (w - 1) | (type == 12 ? 0x3fffu : h - 1) << 14;
	c->t[3] = 0xfacu | base << 12 | last << 16 | type << 28; /* SW_LINEAR */
	c->t[4] = (type == 12 || type == 13 || type == 10 ? layers - 1 : 0) | (c->rows - 1) << 13;
	c->t[5] = (levels - 1) << 28;                           /* MAX_MIP */
}

/* Index of texel (x, y or layer) of level `level` in c->data; -1 outside. */
static int64_t chain_texel(const struct chain *c, uint32_t level, uint32_t x, uint32_t y)
{
	if (level < c->base || level > c->last || level >= c->levels || x >= ext(c->w, level))
		return -1;
	uint32_t layer = 0;
	if (c->type == 12) {
		if (y >= c->layers)
			return -1;
		layer = y;
		y = 0;
	} else if (y >= ext(c->h, level)) {
		return -1;
	}
	return ((int64_t)layer * c->rows + chain_row(c, level) + y) * c->pitch + x;
}

/* The start of a chain run: the image kernels (NULL: not built, the
 * caller returns), *t a copy of the chain's T#, every texel of the chain
 * and of *ref (malloc'd, the model) 0xa0000000 + its index. */
static struct hx_code *chain_begin(const struct chain *c, uint32_t **ref, uint32_t **t)
{
	struct hx_code *code = imgcode();
	if (!code)
		return NULL;
	const size_t n = (size_t)c->pitch * c->rows * c->layers;
	*ref = malloc(n * 4);
	*t = hx_alloc(4096);
	ck_assert_ptr_nonnull(*ref);
	memcpy(*t, c->t, sizeof(c->t));
	for (size_t i = 0; i < n; i++)
		(*ref)[i] = c->data[i] = 0xa0000000u | (uint32_t)i;
	return code;
}

/* Every texel of the chain against the model ref. */
static void chain_check_texels(const struct chain *c, const uint32_t *ref)
{
	const size_t n = (size_t)c->pitch * c->rows * c->layers;
	for (size_t i = 0; i < n; i++)
		ck_assert_msg(c->data[i] == ref[i], "texel %zu (row %zu, x %zu): 0x%08x, want 0x%08x",
			      i, i / c->pitch, i % c->pitch, c->data[i], ref[i]);
}

/* Lane l's image_get_resinfo (o[4..7]) against want. */
static void check_resinfo(unsigned l, const uint32_t *o, const uint32_t want[4])
{
	for (unsigned k = 0; k < 4; k++)
		ck_assert_msg(o[4 + k] == want[k], "lane %u resinfo[%u]: %u, want %u", l, k,
			      o[4 + k], want[k]);
}

/* The end of a chain run: the model, the T# and the chain freed. */
static void chain_end(const struct chain *c, uint32_t *ref, uint32_t *t)
{
	free(ref);
	hx_free(t);
	hx_free(c->data);
}

static void chain_run(const struct chain *c)
{
	uint32_t in[NL * 4], out[NL * OUTW], *ref, *t;
	struct hx_code *code = chain_begin(c, &ref, &t);
	if (!code)
		return;
	/* lane l: level offset l & 3 (lanes 56-63: 4 and 100, past every
	 * chain), (x, y) = (k % 8, k / 8) with k = l >> 2: distinct texels
	 * a level, some outside the small levels */
	for (unsigned l = 0; l < NL; l++) {
		uint32_t k = l >> 2;
		in[4 * l] = k % 8;
		in[4 * l + 1] = k / 8;
		in[4 * l + 2] = l >= 56 ? (l & 1 ? 100 : 4) : l & 3;
		in[4 * l + 3] = 0x5000u + l;
	}
	run_ok(code, KEMU_ISA_GFX90A, "ops_img_mip", in, out, t);
	for (unsigned l = 0; l < NL; l++) {
		int64_t i = chain_texel(c, c->base + in[4 * l + 2], in[4 * l], in[4 * l + 1]);
		if (i >= 0)
			ref[i] = in[4 * l + 3];
	}
	chain_check_texels(c, ref);
	for (unsigned l = 0; l < NL; l++) {
		const uint32_t *o = &out[OUTW * l], lod = in[4 * l + 2], lv = c->base + lod;
		int64_t i = chain_texel(c, lv, in[4 * l], in[4 * l + 1]);
		int64_t b = chain_texel(c, c->base, in[4 * l], in[4 * l + 1]);
		ck_assert_msg(o[0] == (i >= 0 ? in[4 * l + 3] : 0), "lane %u load_mip: 0x%08x", l,
			      o[0]);
		ck_assert_msg(o[1] == (b >= 0 ? ref[b] : 0), "lane %u load: 0x%08x", l, o[1]);
		if (c->type == 9 && c->base <= c->last) {
			/* image_sample: BASE_LEVEL, WRAP */
			uint32_t bw = ext(c->w, c->base), bh = ext(c->h, c->base);
			int64_t sidx = chain_texel(c, c->base, in[4 * l] % bw, in[4 * l + 1] % bh);
			ck_assert_msg(sidx >= 0 && o[2] == ref[sidx], "lane %u sample: 0x%08x", l,
				      o[2]);
		}
		uint32_t want[4] = { 0, 0, 0, 0 };
		if (lv <= c->last) {
			want[0] = ext(c->w, lv);
			want[1] = c->type == 12 ? c->layers : ext(c->h, lv);
			want[3] = c->last - c->base + 1;
		}
		check_resinfo(l, o, want);
	}
	chain_end(c, ref, t);
}

/* A 2-D chain of 20 x 13 texels, four levels (rows 13, 7, 4, 2 at rows 0,
 * 13, 20, 24; 26 a slice: the halves round up, the extents down), the
 * whole chain in view. */
START_TEST(test_image_mip_2d)
{
	struct chain c;
	chain_make(&c, 9, 20, 13, 1, 4, 0, 3);
	chain_run(&c);
}
END_TEST

/* A 1-D array chain: 40 texels, 3 layers, six levels (level l is row l of
 * each layer's six). */
START_TEST(test_image_mip_1da)
{
	struct chain c;
	chain_make(&c, 12, 40, 1, 3, 6, 0, 5);
	chain_run(&c);
}
END_TEST

/* The layers of level `level` of a 2-D array chain, or its depth slices
 * (3-D: halved, at least 1; the chain keeps level 0's slices). */
static uint32_t level_layers(const struct chain *c, uint32_t level)
{
	return c->type == 10 ? ext(c->layers, level) : c->layers;
}

/* Index of texel (x, y, layer or z) of level `level` of a 2-D array or
 * 3-D chain in c->data; -1 outside. */
static int64_t chain_texel_2da(const struct chain *c, uint32_t level, uint32_t x, uint32_t y,
			       uint32_t layer)
{
	if (level < c->base || level > c->last || level >= c->levels || x >= ext(c->w, level) ||
	    y >= ext(c->h, level) || layer >= level_layers(c, level))
		return -1;
	return ((int64_t)layer * c->rows + chain_row(c, level) + y) * c->pitch + x;
}

/* ops_img_mip_2da on a 2-D array or 3-D chain: lane l at level offset l & 3
 * (lanes 56-63: 4 and 100, past every chain), (x, y, layer) = (k & 3,
 * k >> 2 & 1, k >> 3) with k = l >> 2 (distinct texels a level, some
 * outside the small levels), lanes 52-55 at layer 2, past a 2-layer
 * chain (and past level >= 1 of a 3-D chain of depth 2 or 3); each
 * stores 0x5000 + l. */
static void chain_run_2da(const struct chain *c)
{
	uint32_t in[NL * 4], out[NL * OUTW], *ref, *t;
	struct hx_code *code = chain_begin(c, &ref, &t);
	if (!code)
		return;
	for (unsigned l = 0; l < NL; l++) {
		uint32_t k = l >> 2;
		in[4 * l] = k & 3;
		in[4 * l + 1] = k >> 2 & 1;
		in[4 * l + 2] = k == 13 ? 2 : k >> 3;
		in[4 * l + 3] = l >= 56 ? (l & 1 ? 100 : 4) : l & 3;
	}
	run_ok(code, KEMU_ISA_GFX90A, "ops_img_mip_2da", in, out, t);
	for (unsigned l = 0; l < NL; l++) {
		const uint32_t *v = &in[4 * l];
		int64_t i = chain_texel_2da(c, c->base + v[3], v[0], v[1], v[2]);
		if (i >= 0)
			ref[i] = 0x5000u + l;
	}
	chain_check_texels(c, ref);
	for (unsigned l = 0; l < NL; l++) {
		const uint32_t *o = &out[OUTW * l], *v = &in[4 * l], lv = c->base + v[3];
		int64_t i = chain_texel_2da(c, lv, v[0], v[1], v[2]);
		int64_t b = chain_texel_2da(c, c->base, v[0], v[1], v[2]);
		ck_assert_msg(o[0] == (i >= 0 ? 0x5000u + l : 0), "lane %u load_mip: 0x%08x", l,
			      o[0]);
		ck_assert_msg(o[1] == (b >= 0 ? ref[b] : 0), "lane %u load: 0x%08x", l, o[1]);
		uint32_t want[4] = { 0, 0, 0, 0 };
		if (lv <= c->last) {
			want[0] = ext(c->w, lv);
			want[1] = ext(c->h, lv);
			want[2] = level_layers(c, lv);
			want[3] = c->last - c->base + 1;
		}
		check_resinfo(l, o, want);
	}
	chain_end(c, ref, t);
}

/* A 3-D chain of 20 x 13 x 3 texels, four levels (depth 3, 1, 1, 1: the
 * slices of level l >= 1 but the first are outside), 26 rows a depth
 * slice; then a level view (BASE_LEVEL = LAST_LEVEL = 1). */
START_TEST(test_image_mip_3d)
{
	struct chain c;
	chain_make(&c, 10, 20, 13, 3, 4, 0, 3);
	chain_run_2da(&c);
	chain_make(&c, 10, 20, 13, 3, 4, 1, 1);
	chain_run_2da(&c);
}
END_TEST

/* A 2-D array chain of 20 x 13 texels, 2 layers, four levels (26 rows a
 * layer: level l of layer s from row 26 s + 0, 13, 20, 24), the whole
 * chain in view; then level views (BASE_LEVEL = LAST_LEVEL = 2, and
 * 1..3), as hsa_ext_image_mipmap_array_get_level makes them. */
START_TEST(test_image_mip_2da)
{
	struct chain c;
	chain_make(&c, 13, 20, 13, 2, 4, 0, 3);
	chain_run_2da(&c);
	chain_make(&c, 13, 20, 13, 2, 4, 2, 2);
	chain_run_2da(&c);
	chain_make(&c, 13, 20, 13, 2, 4, 1, 3);
	chain_run_2da(&c);
}
END_TEST

/* A level view of the 2-D chain (BASE_LEVEL = LAST_LEVEL = 1, as
 * hsa_ext_image_mipmap_array_get_level makes it): image_load and level
 * offset 0 address level 1, offset 1 is outside the view. */
START_TEST(test_image_mip_view)
{
	struct chain c;
	chain_make(&c, 9, 20, 13, 1, 4, 1, 1);
	chain_run(&c);
	chain_make(&c, 9, 20, 13, 1, 4, 2, 3);
	chain_run(&c);
}
END_TEST

/* A16 (and LWE on the loads) on a 16 x 4 UINT 32_32_32_32 image. */
START_TEST(test_image_a16)
{
	uint32_t in[NL * 4], out[NL * OUTW];
	struct hx_code *c = imgcode();
	if (!c)
		return;
	uint32_t *data = hx_alloc(16 * 4 * 16), *t = hx_alloc(4096), orig[NL * 4];
	tsharp(t, data, DF32X4, NF_UINT, 16);
	for (unsigned i = 0; i < NL * 4; i++) {
		orig[i] = data[i] = rnd();
		in[i] = rnd();
	}
	run_ok(c, KEMU_ISA_GFX90A, "ops_img_a16", in, out, t);
	for (unsigned l = 0; l < NL; l++) {
		const uint32_t *o = &out[OUTW * l];
		for (unsigned k = 0; k < 4; k++) {
			ck_assert_uint_eq(o[k], orig[4 * l + k]);       /* texel (l & 15, l >> 4) */
			ck_assert_uint_eq(data[4 * l + k], in[4 * l + k]);
		}
		ck_assert_uint_eq(o[4], 0);                             /* LWE status */
		ck_assert_uint_eq(o[6], orig[4 * l]);
		ck_assert_uint_eq(o[7], 0);
		ck_assert_uint_eq(o[8], 16);                            /* resinfo, level 0 */
		ck_assert_uint_eq(o[9], 4);
		ck_assert_uint_eq(o[10], 0);
		ck_assert_uint_eq(o[11], 1);
	}
	hx_free(data);
	hx_free(t);
}
END_TEST

/* The FLAT atomics' definitions (ISA guide), 32 bits. */
static uint32_t model_atomic(unsigned aop, uint32_t m, uint32_t v, uint32_t cmp)
{
	switch (aop) {
	case 0: return v;                                               /* swap */
	case 1: return m == cmp ? v : m;                                /* cmpswap */
	case 2: return m + v;
	case 3: return m - v;
	case 4: return (int32_t)v < (int32_t)m ? v : m;                 /* smin */
	case 5: return v < m ? v : m;
	case 6: return (int32_t)v > (int32_t)m ? v : m;                 /* smax */
	case 7: return v > m ? v : m;
	case 8: return m & v;
	case 9: return m | v;
	case 10: return m ^ v;
	case 11: return m >= v ? 0 : m + 1;                             /* inc */
	case 12: return (m == 0 || m > v) ? v : m - 1;                  /* dec */
	default: return 0;
	}
}

START_TEST(test_image_atomics)
{
	uint32_t in[NL * 4], out[NL * OUTW];
	struct hx_code *c = imgcode();
	if (!c)
		return;
	for (unsigned seed = 0; seed < 4; seed++) {
		uint32_t *data = hx_alloc(16 * 4 * 4), *t = hx_alloc(4096), init[NL];
		/* 12 texels a row: lanes with x >= 12 are outside */
		tsharp(t, data, DF32, seed & 1 ? NF_SINT : NF_UINT, 12);
		for (unsigned i = 0; i < NL; i++)
			init[i] = data[i] = seed == 3 ? (rnd() & 7) : rnd();
		for (unsigned i = 0; i < NL * 4; i++)
			in[i] = seed == 3 ? (rnd() & 0x8000000fu) : rnd();
		run_ok(c, KEMU_ISA_GFX90A, "ops_img_atomic", in, out, t);
		for (unsigned l = 0; l < NL; l++) {
			const uint32_t *r = &in[4 * l], *o = &out[OUTW * l];
			bool inside = (l & 15) < 12;
			uint32_t m = init[l], ret[9];
			unsigned k = 0;
			static const uint8_t chain[12] = { 0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
			static const bool glc[12] = { 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 1 };
			uint32_t v[12] = { r[0], r[1], r[2], r[3], r[0] ^ r[3], r[1] >> 1, r[2] >> 3,
					   r[3] | r[1], r[0] & 0x0f0f0f0f, r[1], r[2] | 0x80000000u,
					   r[3] | 0x80000000u };
			for (unsigned i = 0; i < 12; i++) {
				if (glc[i])
					ret[k++] = inside ? m : 0;
				m = model_atomic(chain[i], m, v[i], 0);
			}
			uint32_t cur = inside ? m : 0, cmp = cur ^ (l & 1);
			ret[k++] = cur;                         /* the OR of 0 */
			ret[k] = cur;                           /* cmpswap's old value */
			m = model_atomic(1, m, r[0], cmp);
			for (unsigned i = 0; i < 7; i++)
				ck_assert_msg(o[i] == ret[i], "seed %u lane %u return %u: %08x, want %08x",
					      seed, l, i, o[i], ret[i]);
			ck_assert_uint_eq(o[8], ret[7]);
			ck_assert_uint_eq(o[7], ret[8]);
			if (inside)
				ck_assert_msg(data[l] == m, "seed %u lane %u texel %08x, want %08x",
					      seed, l, data[l], m);
			else
				ck_assert_uint_eq(data[l], init[l]);
		}
		hx_free(data);
		hx_free(t);
	}
}
END_TEST

START_TEST(test_image_atomics64)
{
	uint32_t in[NL * 4], out[NL * OUTW];
	struct hx_code *c = imgcode();
	if (!c)
		return;
	for (unsigned seed = 0; seed < 3; seed++) {
		uint64_t *data = hx_alloc(16 * 4 * 8), init[NL];
		uint32_t *t = hx_alloc(4096);
		tsharp(t, data, DF32_32, NF_UINT, 12);
		for (unsigned i = 0; i < NL; i++)
			init[i] = data[i] = (uint64_t)rnd() << 32 | rnd();
		for (unsigned i = 0; i < NL * 4; i++)
			in[i] = rnd();
		run_ok(c, KEMU_ISA_GFX90A, "ops_img_atomic64", in, out, t);
		for (unsigned l = 0; l < NL; l++) {
			const uint32_t *r = &in[4 * l], *o = &out[OUTW * l];
			bool inside = (l & 15) < 12;
			uint64_t m = init[l], ret[4];
			ret[0] = inside ? m : 0;
			m += (uint64_t)r[1] << 32 | r[0];
			ret[1] = inside ? m : 0;
			uint64_t v = (uint64_t)r[3] << 32 | r[2];
			m = v > m ? v : m;
			m ^= (uint64_t)r[3] << 32 | r[0];
			ret[2] = inside ? m : 0;
			ret[3] = ret[2];                        /* cmpswap's old value */
			if (m == (ret[2] ^ (l & 1)))
				m = (uint64_t)r[2] << 32 | r[1];
			for (unsigned i = 0; i < 4; i++) {
				uint64_t got = (uint64_t)o[2 * i + 1] << 32 | o[2 * i];
				ck_assert_msg(got == ret[i], "seed %u lane %u return %u: %016llx, want %016llx",
					      seed, l, i, (unsigned long long)got, (unsigned long long)ret[i]);
			}
			ck_assert_msg(data[l] == (inside ? m : init[l]), "seed %u lane %u texel", seed, l);
		}
		hx_free(data);
		hx_free(t);
	}
}
END_TEST

static uint16_t f2h(float f)
{
	_Float16 x = (_Float16)f;
	uint16_t h;
	memcpy(&h, &x, 2);
	return h;
}

/* A16/LWE image_sample on a 16 x 4 UINT 32_32_32_32 image (integer
 * formats are point-sampled): texel (floor(x) mod 16, floor(y) mod 4). */
START_TEST(test_image_sample_a16_lwe)
{
	uint32_t in[NL * 4], out[NL * OUTW];
	struct hx_code *c = imgcode();
	if (!c)
		return;
	uint32_t *data = hx_alloc(16 * 4 * 16), *t = hx_alloc(4096);
	tsharp(t, data, DF32X4, NF_UINT, 16);
	for (unsigned i = 0; i < 16 * 4 * 4; i++)
		data[i] = rnd();
	for (unsigned seed = 0; seed < 3; seed++) {
		int xy[NL][4];
		for (unsigned l = 0; l < NL; l++) {
			for (unsigned k = 0; k < 4; k++)    /* [-16, 32) x [-4, 8): WRAP */
				xy[l][k] = (int)(rnd() % (k & 1 ? 12 : 48)) - (k & 1 ? 4 : 16);
			in[4 * l] = f2h((float)xy[l][0] + 0.25f) | (uint32_t)f2h((float)xy[l][1] + 0.75f) << 16;
			in[4 * l + 1] = f2h((float)xy[l][2] + 0.5f) | (uint32_t)f2h((float)xy[l][3] + 0.5f) << 16;
			in[4 * l + 2] = in[4 * l + 3] = 0;
		}
		run_ok(c, KEMU_ISA_GFX90A, "ops_img_sample16", in, out, t);
		for (unsigned l = 0; l < NL; l++) {
			const uint32_t *o = &out[OUTW * l];
			unsigned x0 = (unsigned)(xy[l][0] + 16) % 16, y0 = (unsigned)(xy[l][1] + 4) % 4;
			unsigned x1 = (unsigned)(xy[l][2] + 16) % 16, y1 = (unsigned)(xy[l][3] + 4) % 4;
			const uint32_t *t0 = &data[4 * (y0 * 16 + x0)], *t1 = &data[4 * (y1 * 16 + x1)];
			for (unsigned k = 0; k < 4; k++)
				ck_assert_uint_eq(o[k], t0[k]);
			ck_assert_uint_eq(o[4], 0);             /* the LWE status */
			ck_assert_uint_eq(o[6], t1[0]);
			ck_assert_uint_eq(o[7], t1[2]);
			ck_assert_uint_eq(o[8], 0);
		}
	}
	hx_free(data);
	hx_free(t);
}
END_TEST

/* ---- gfx942: loads into the LDS ---- */

START_TEST(test_load_lds)
{
	uint32_t in[NL * 4], out[NL * OUTW];
	struct hx_code *c = code_of(3, "ops942", KEMU_ISA_GFX942);
	if (!c)
		return;
	for (unsigned seed = 0; seed < 3; seed++) {
		for (unsigned i = 0; i < NL * 4; i++)
			in[i] = rnd();
		run_ok(c, KEMU_ISA_GFX942, "ops_load_lds", in, out, NULL);
		for (unsigned l = 0; l < NL; l++) {
			const uint8_t *b = (const uint8_t *)&in[4 * l];
			const uint32_t *o = &out[OUTW * l];
			uint32_t want[10] = {
				in[4 * l],
				b[5],
				(uint32_t)(int32_t)(int8_t)b[9],
				(uint32_t)(b[2] | b[3] << 8),
				(uint32_t)(int32_t)(int16_t)(b[6] | b[7] << 8),
				in[4 * l + 1],
				b[1],
				(uint32_t)(int32_t)(int8_t)b[3],
				(uint32_t)(b[2] | b[3] << 8),
				(uint32_t)(int32_t)(int16_t)(b[6] | b[7] << 8),
			};
			for (unsigned k = 0; k < 10; k++)
				ck_assert_msg(o[k] == want[k], "seed %u lane %u load %u: %08x, want %08x",
					      seed, l, k, o[k], want[k]);
		}
	}
}
END_TEST

/* gfx90a: the GLOBAL loads with the LDS bit (the first five loads of
 * test_load_lds); ops90a_lds.s needs llvm-mc-19, built when clang-19 is. */
static struct hx_code *lds90a(void)
{
	char path[600];
	if (!hx_kernel_path("ops90a_lds", KEMU_ISA_GFX90A, path, sizeof(path))) {
		ck_assert_msg(!hx_kernel_path("preload", KEMU_ISA_GFX90A, path, sizeof(path)),
			      "ops90a_lds not built where the LLVM 19 tools are");
		return NULL;
	}
	return code_of(4, "ops90a_lds", KEMU_ISA_GFX90A);
}

START_TEST(test_load_lds_gfx90a)
{
	uint32_t in[NL * 4], out[NL * OUTW];
	struct hx_code *c = lds90a();
	if (!c)
		return;
	for (unsigned i = 0; i < NL * 4; i++)
		in[i] = rnd();
	run_ok(c, KEMU_ISA_GFX90A, "ops_load_lds90a", in, out, NULL);
	for (unsigned l = 0; l < NL; l++) {
		const uint8_t *b = (const uint8_t *)&in[4 * l];
		const uint32_t *o = &out[OUTW * l];
		ck_assert_uint_eq(o[0], in[4 * l]);
		ck_assert_uint_eq(o[1], b[5]);
		ck_assert_uint_eq(o[2], (uint32_t)(int32_t)(int8_t)b[9]);
		ck_assert_uint_eq(o[3], (uint32_t)(b[2] | b[3] << 8));
		ck_assert_uint_eq(o[4], (uint32_t)(int32_t)(int16_t)(b[6] | b[7] << 8));
	}
}
END_TEST

START_TEST(test_buffer_lds)
{
	uint32_t in[NL * 4], out[NL * OUTW];
	for (unsigned g = 0; g < 2; g++) {
		struct hx_code *c = g ? code_of(3, "ops942", KEMU_ISA_GFX942) : lds90a();
		if (!c)
			continue;
		for (unsigned i = 0; i < NL * 4; i++)
			in[i] = rnd();
		run_ok(c, gfxs[g], g ? "ops_buffer_lds" : "ops_buffer_lds90a", in, out, NULL);
		for (unsigned l = 0; l < NL; l++) {
			const uint8_t *b = (const uint8_t *)&in[4 * l];
			const uint32_t *o = &out[OUTW * l];
			unsigned base = 16 * l;
			/* in range: offset + size <= NUM_RECORDS (1000) */
			ck_assert_uint_eq(o[0], base + 4 <= 1000 ? in[4 * l] : 0);
			ck_assert_uint_eq(o[1], base + 6 <= 1000 ? b[5] : 0);
			ck_assert_uint_eq(o[2], base + 4 <= 1000 ? (uint32_t)(int32_t)(int16_t)(b[2] | b[3] << 8) : 0);
			ck_assert_uint_eq(o[3], base + 8 <= 1000 ? (uint32_t)(b[6] | b[7] << 8) : 0);
		}
	}
}
END_TEST

/* kernels/gpridx.cl as clang-19 compiles it (GPR indexing with a uniform
 * and a per-lane index): two workgroups of 64. */
START_TEST(test_gpr_idx_clang)
{
	enum { N = 128 };
	for (unsigned g = 0; g < 2; g++) {
		char path[600];
		struct hx_code code;
		if (!hx_kernel_path("gpridx", gfxs[g], path, sizeof(path))) {
			/* built exactly when preload is (both need clang-19) */
			ck_assert_msg(!hx_kernel_path("preload", gfxs[g], path, sizeof(path)),
				      "gpridx not built where clang-19 is");
			continue;
		}
		ck_assert_int_eq(hx_load(&code, path), 0);
		for (unsigned seed = 0; seed < 4; seed++) {
			uint32_t *in = hx_alloc(N * 16 * 4), *out = hx_alloc((4096 + N) * 4);
			uint32_t sel = rnd() & 0xff;
			uint64_t args[3];
			struct kemu_isa_error err;
			for (unsigned i = 0; i < N * 16; i++)
				in[i] = seed == 0 ? 5 : rnd(); /* seed 0: one index for all */
			args[0] = (uint64_t)(uintptr_t)in;
			args[1] = (uint64_t)(uintptr_t)out;
			args[2] = sel;
			struct hx_launch hl = { .gfx = gfxs[g], .args = args, .args_size = sizeof(args),
						.grid = { N, 1, 1 }, .wg = { 64, 1, 1 } };
			hl.kd = hx_kd(&code, "gpr_idx");
			ck_assert(hl.kd != 0);
			ck_assert_msg(hx_run(&hl, &err) == 0, "%s: %s", kemu_isa_error_name(err.kind),
				      err.message);
			for (unsigned i = 0; i < N; i++) {
				uint32_t v[16];
				memcpy(v, &in[16 * i], sizeof(v));
				v[sel & 15] = i;
				v[in[16 * i] & 15] += sel;
				for (unsigned k = 0; k < 16; k++)
					ck_assert_msg(out[16 * i + k] == v[k], "%s seed %u item %u v[%u]: %08x, want %08x",
						      g ? "gfx942" : "gfx90a", seed, i, k, out[16 * i + k], v[k]);
				ck_assert_uint_eq(out[4096 + i], v[(sel >> 4) & 15] ^ v[in[16 * i + 1] & 15]);
			}
			hx_free(in);
			hx_free(out);
		}
		hx_unload(&code);
	}
}
END_TEST

static Suite *ops_suite(void)
{
	Suite *s = suite_create("isa_ops");
	TCase *tc = tcase_create("ops");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_gpr_idx);
	tcase_add_test(tc, test_gpr_idx_clang);
	tcase_add_test(tc, test_vskip);
	tcase_add_test(tc, test_fork_join);
	tcase_add_test(tc, test_rfe_and_halt);
	tcase_add_test(tc, test_condxchg);
	tcase_add_test(tc, test_sscratch);
	tcase_add_test(tc, test_cvt_norm);
	tcase_add_test(tc, test_cvt_float_mods);
	tcase_add_test(tc, test_pk_f16_clamp);
	tcase_add_test(tc, test_accvgpr_mov);
	tcase_add_test(tc, test_image_pck);
	tcase_add_test(tc, test_image_store_mip);
	tcase_add_test(tc, test_image_mip_2d);
	tcase_add_test(tc, test_image_mip_1da);
	tcase_add_test(tc, test_image_mip_2da);
	tcase_add_test(tc, test_image_mip_3d);
	tcase_add_test(tc, test_image_mip_view);
	tcase_add_test(tc, test_image_a16);
	tcase_add_test(tc, test_image_atomics);
	tcase_add_test(tc, test_image_atomics64);
	tcase_add_test(tc, test_image_sample_a16_lwe);
	tcase_add_test(tc, test_load_lds);
	tcase_add_test(tc, test_load_lds_gfx90a);
	tcase_add_test(tc, test_buffer_lds);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(ops_suite)
