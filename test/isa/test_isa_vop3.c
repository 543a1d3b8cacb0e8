/*
 * test_isa_vop3.c — the VOP3-only integer, bit-field, 64-bit shift,
 * mad/sad, min3/max3/med3, packing and legacy-multiply instructions, the
 * 64-bit fmac and the packed f16 arithmetic (VOP3P) against a host model.
 * kernels/vop3.s holds one kernel per name below (generated together);
 * each runs one wave on generated sources (edge values mixed in) and
 * every lane's D is compared with the model, written from the ISA's
 * definitions: min3/max3 of floats are the IEEE-mode two-operand min/max
 * applied twice (a signalling NaN returned quieted, a quiet NaN giving the
 * other operand, -0 below +0), med3 of floats with a NaN is min3; the
 * legacy multiply makes 0 * anything 0; v_mad_f32 rounds the product and
 * the sum (no denormals: none in the data); the bit-field ops read offset
 * and width from their low 5 bits; mbcnt counts the bits of S0 below the
 * lane's own (lanes 0-31 in _lo, 32-63 in _hi) and adds S1; 16-bit results
 * are zero-extended; CLAMP saturates v_add/sub_i32.  v_cvt_pk_u16_u32/
 * i16_i32 get in-range values only: the guides name the conversion
 * (u32_to_u16) without saying whether it saturates or truncates, and the
 * two readings differ only out of range.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hl_check.h"
#include "isa_harness.h"

static const char *const names[] = {
	"v_mad_legacy_f32",
	"v_mad_f32",
	"v_mul_legacy_f32",
	"v_mad_i32_i24",
	"v_mad_u32_u24",
	"v_bfe_i32",
	"v_bfe_u32",
	"v_min3_f32",
	"v_max3_f32",
	"v_med3_f32",
	"v_min3_i32",
	"v_max3_i32",
	"v_med3_i32",
	"v_min3_u32",
	"v_max3_u32",
	"v_med3_u32",
	"v_sad_u16",
	"v_sad_u32",
	"v_mad_i64_i32",
	"v_mad_u64_u32",
	"v_mad_u16",
	"v_mad_i16",
	"v_lshrrev_b64",
	"v_lshlrev_b64",
	"v_ashrrev_i64",
	"v_cvt_pk_u16_u32",
	"v_cvt_pk_i16_i32",
	"v_add_i32",
	"v_sub_i32",
	"v_add_i32_c",
	"v_sub_i32_c",
	"v_add_i16",
	"v_sub_i16",
	"v_pack_b32_f16",
	"v_fmac_f64_e64",
	"v_pk_add_f16",
	"v_pk_mul_f16",
	"v_pk_min_f16",
	"v_pk_max_f16",
	"v_pk_fma_f16",
	"v_alignbit_b32",
	"v_alignbyte_b32",
	"v_xad_u32",
	"v_lshl_add_u32",
	"v_add_lshl_u32",
	"v_add3_u32",
	"v_lshl_or_b32",
	"v_and_or_b32",
	"v_or3_b32",
	"v_mul_lo_u32",
	"v_mul_hi_u32",
	"v_mul_hi_i32",
	"v_bfi_b32",
	"v_bcnt_u32_b32",
	"v_mbcnt_lo_u32_b32",
	"v_mbcnt_hi_u32_b32",
	"v_bfm_b32",
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
static float h2f(uint16_t h) { _Float16 x; memcpy(&x, &h, 2); return (float)x; }
static uint16_t f2h(float f) { _Float16 x = (_Float16)f; uint16_t h; memcpy(&h, &x, 2); return h; }

static bool nan32(uint32_t u) { return (u & 0x7fffffffu) > 0x7f800000u; }
static bool nan16(uint16_t u) { return (u & 0x7fff) > 0x7c00; }

static uint32_t mm32(uint32_t a, uint32_t b, bool mx)
{
	if (nan32(a) && !(a & 0x400000)) return a | 0x400000;
	if (nan32(b) && !(b & 0x400000)) return b | 0x400000;
	if (nan32(a)) return b;
	if (nan32(b)) return a;
	if (fb(a) == fb(b)) return mx ? ((a >> 31) ? b : a) : ((a >> 31) ? a : b);
	return (mx ? fb(a) > fb(b) : fb(a) < fb(b)) ? a : b;
}

static uint16_t mm16(uint16_t a, uint16_t b, bool mx)
{
	if (nan16(a) && !(a & 0x200)) return a | 0x200;
	if (nan16(b) && !(b & 0x200)) return b | 0x200;
	if (nan16(a)) return b;
	if (nan16(b)) return a;
	if (h2f(a) == h2f(b)) return mx ? ((a >> 15) ? b : a) : ((a >> 15) ? a : b);
	return (mx ? h2f(a) > h2f(b) : h2f(a) < h2f(b)) ? a : b;
}

static uint32_t med3u(uint32_t a, uint32_t b, uint32_t c, bool sg)
{
	int64_t x = sg ? (int32_t)a : (int64_t)a, y = sg ? (int32_t)b : (int64_t)b, z = sg ? (int32_t)c : (int64_t)c;
	int64_t lo = x < y ? x : y, hi = x < y ? y : x;
	return (uint32_t)(z < lo ? lo : z > hi ? hi : z);
}

static uint32_t sat(int64_t v, int64_t lo, int64_t hi) { return (uint32_t)(v < lo ? lo : v > hi ? hi : v); }

/* D (two dwords) from the lane record r (v2..v9) and the lane number */
static uint64_t model(const char *n, const uint32_t *r, unsigned lane, bool *fl)
{
	uint32_t a = r[0], b = r[1], c = r[2];
	uint64_t d0 = r[4] | (uint64_t)r[5] << 32, hi = (uint64_t)r[5] << 32;
	*fl = false;
#define N(x) (!strcmp(n, x))
	if (N("v_mad_legacy_f32")) { *fl = true; float p = (fb(a) == 0 || fb(b) == 0) ? 0.0f : fb(a) * fb(b); return hi | ub(p + fb(c)); }
	if (N("v_mad_f32")) { *fl = true; volatile float p = fb(a) * fb(b); return hi | ub(p + fb(c)); }
	if (N("v_mul_legacy_f32")) { *fl = true; return hi | ((fb(a) == 0 || fb(b) == 0) ? 0 : ub(fb(a) * fb(b))); }
	if (N("v_mad_i32_i24")) return hi | (uint32_t)((int64_t)((int32_t)(a << 8) >> 8) * ((int32_t)(b << 8) >> 8) + (int32_t)c);
	if (N("v_mad_u32_u24")) return hi | (uint32_t)((uint64_t)(a & 0xffffff) * (b & 0xffffff) + c);
	if (N("v_bfe_u32") || N("v_bfe_i32")) {
		unsigned off = b & 31, w = c & 31;
		uint32_t x = w ? (a >> off) & ((1u << w) - 1) : 0;
		if (N("v_bfe_i32") && w && ((x >> (w - 1)) & 1)) x |= ~((1u << w) - 1);
		return hi | x;
	}
	if (N("v_min3_f32")) { *fl = true; return hi | mm32(mm32(a, b, false), c, false); }
	if (N("v_max3_f32")) { *fl = true; return hi | mm32(mm32(a, b, true), c, true); }
	if (N("v_med3_f32")) {
		*fl = true;
		if (nan32(a) || nan32(b) || nan32(c)) return hi | mm32(mm32(a, b, false), c, false);
		uint32_t mx = mm32(mm32(a, b, true), c, true);
		return hi | (mx == a ? mm32(b, c, true) : mx == b ? mm32(a, c, true) : mm32(a, b, true));
	}
	if (N("v_min3_i32")) { int32_t x = (int32_t)a < (int32_t)b ? (int32_t)a : (int32_t)b; return hi | (uint32_t)(x < (int32_t)c ? x : (int32_t)c); }
	if (N("v_max3_i32")) { int32_t x = (int32_t)a > (int32_t)b ? (int32_t)a : (int32_t)b; return hi | (uint32_t)(x > (int32_t)c ? x : (int32_t)c); }
	if (N("v_min3_u32")) { uint32_t x = a < b ? a : b; return hi | (x < c ? x : c); }
	if (N("v_max3_u32")) { uint32_t x = a > b ? a : b; return hi | (x > c ? x : c); }
	if (N("v_med3_i32")) return hi | med3u(a, b, c, true);
	if (N("v_med3_u32")) return hi | med3u(a, b, c, false);
	if (N("v_sad_u16")) {
		uint32_t s = c;
		for (unsigned k = 0; k < 32; k += 16) { uint32_t x = (a >> k) & 0xffff, y = (b >> k) & 0xffff; s += x > y ? x - y : y - x; }
		return hi | s;
	}
	if (N("v_sad_u32")) return hi | ((a > b ? a - b : b - a) + c);
	if (N("v_mad_i64_i32")) return (uint64_t)((int64_t)(int32_t)a * (int32_t)b) + (r[2] | (uint64_t)r[3] << 32);
	if (N("v_mad_u64_u32")) return (uint64_t)a * b + (r[2] | (uint64_t)r[3] << 32);
	if (N("v_mad_u16") || N("v_mad_i16")) return hi | ((a * b + c) & 0xffff);
	if (N("v_lshrrev_b64")) return (r[2] | (uint64_t)r[3] << 32) >> (a & 63);
	if (N("v_lshlrev_b64")) return (r[2] | (uint64_t)r[3] << 32) << (a & 63);
	if (N("v_ashrrev_i64")) return (uint64_t)((int64_t)(r[2] | (uint64_t)r[3] << 32) >> (a & 63));
	if (N("v_cvt_pk_u16_u32")) return hi | sat(a, 0, 0xffff) | sat(b, 0, 0xffff) << 16;
	if (N("v_cvt_pk_i16_i32")) return hi | (sat((int32_t)a, -32768, 32767) & 0xffff) | sat((int32_t)b, -32768, 32767) << 16;
	if (N("v_add_i32")) return hi | (a + b);
	if (N("v_sub_i32")) return hi | (a - b);
	if (N("v_add_i32_c")) return hi | sat((int64_t)(int32_t)a + (int32_t)b, INT32_MIN, INT32_MAX);
	if (N("v_sub_i32_c")) return hi | sat((int64_t)(int32_t)a - (int32_t)b, INT32_MIN, INT32_MAX);
	if (N("v_add_i16")) return hi | ((a + b) & 0xffff);
	if (N("v_sub_i16")) return hi | ((a - b) & 0xffff);
	if (N("v_pack_b32_f16")) return hi | (a & 0xffff) | b << 16;
	if (N("v_fmac_f64_e64")) { *fl = true; return u64b(fma(db(r[0] | (uint64_t)r[1] << 32), db(r[2] | (uint64_t)r[3] << 32), db(d0))); }
	if (!strncmp(n, "v_pk_", 5)) {
		uint32_t o = 0;
		*fl = true;
		for (unsigned h = 0; h < 2; h++) {
			uint16_t x = (uint16_t)(a >> (16 * h)), y = (uint16_t)(b >> (16 * h)), z = (uint16_t)(c >> (16 * h)), q;
			if (N("v_pk_add_f16")) q = f2h(h2f(x) + h2f(y));
			else if (N("v_pk_mul_f16")) q = f2h(h2f(x) * h2f(y));
			else if (N("v_pk_fma_f16")) q = f2h(h2f(x) * h2f(y) + h2f(z));
			else q = mm16(x, y, N("v_pk_max_f16"));
			o |= (uint32_t)q << (16 * h);
		}
		return hi | o;
	}
	if (N("v_alignbit_b32")) return hi | (uint32_t)((((uint64_t)a << 32) | b) >> (c & 31));
	if (N("v_alignbyte_b32")) return hi | (uint32_t)((((uint64_t)a << 32) | b) >> (8 * (c & 3)));
	if (N("v_xad_u32")) return hi | ((a ^ b) + c);
	if (N("v_lshl_add_u32")) return hi | ((a << (b & 31)) + c);
	if (N("v_add_lshl_u32")) return hi | ((a + b) << (c & 31));
	if (N("v_add3_u32")) return hi | (a + b + c);
	if (N("v_lshl_or_b32")) return hi | ((a << (b & 31)) | c);
	if (N("v_and_or_b32")) return hi | ((a & b) | c);
	if (N("v_or3_b32")) return hi | (a | b | c);
	if (N("v_mul_lo_u32")) return hi | (a * b);
	if (N("v_mul_hi_u32")) return hi | (uint32_t)(((uint64_t)a * b) >> 32);
	if (N("v_mul_hi_i32")) return hi | (uint32_t)(((int64_t)(int32_t)a * (int32_t)b) >> 32);
	if (N("v_bfi_b32")) return hi | ((a & b) | (~a & c));
	if (N("v_bcnt_u32_b32")) return hi | ((uint32_t)__builtin_popcount(a) + b);
	if (N("v_mbcnt_lo_u32_b32")) return hi | ((uint32_t)__builtin_popcount(a & (lane >= 32 ? ~0u : (1u << lane) - 1)) + b);
	if (N("v_mbcnt_hi_u32_b32")) return hi | ((uint32_t)__builtin_popcount(a & (lane < 32 ? 0 : (uint32_t)((1ull << (lane - 32)) - 1))) + b);
	if (N("v_bfm_b32")) return hi | (((1u << (a & 31)) - 1) << (b & 31));
#undef N
	return 0xbad;
}

static struct hx_code code;

START_TEST(test_vop3_match_model)
{
	char path[600];
	uint32_t *in, *out;
	uint64_t args[2];
	unsigned bad = 0;

	if (!hx_kernel_path("vop3", KEMU_ISA_GFX90A, path, sizeof(path))) {
		ck_assert_msg(!hx_target_expected(KEMU_ISA_GFX90A), "vop3-gfx90a.co not built");
		return;
	}
	ck_assert_int_eq(hx_load(&code, path), 0);
	in = hx_alloc(64 * 32);
	out = hx_alloc(64 * 8);
	args[0] = (uint64_t)(uintptr_t)in;
	args[1] = (uint64_t)(uintptr_t)out;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const char *n = names[i];
		bool f32 = strstr(n, "_f32") != NULL, f16 = strstr(n, "_f16") && strncmp(n, "v_pack", 6);
		bool f64 = strstr(n, "_f64") != NULL;
		for (unsigned seed = 0; seed < 3; seed++) {
			struct hx_launch hl = { .gfx = KEMU_ISA_GFX90A, .args = args, .args_size = 16,
						.grid = { 64, 1, 1 }, .wg = { 64, 1, 1 } };
			struct kemu_isa_error err;
			char kname[64];
			int rc;
			rng_state = 0xec4e6c89u ^ (uint32_t)i * 0x85ebca6bu ^ seed * 0x9e3779b9u;
			for (unsigned l = 0; l < 64; l++) {
				uint32_t *r = in + 8 * l;
				for (unsigned k = 0; k < 8; k++) {
					r[k] = rnd() % 6 == 0 ? (uint32_t[]){ 0, ~0u, 0x80000000u, 0x7fffffffu, 0xffff, 0x8000 }[rnd() % 6] : rnd();
					if (f32)
						r[k] = rnd() % 5 == 0 ? (uint32_t[]){ 0, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0x7fa00000u }[rnd() % 6]
								      : ub((float)((int)(rnd() % 33) - 16) * 0.25f);
					if (f16) {
						uint16_t h[2];
						for (unsigned q = 0; q < 2; q++)
							h[q] = rnd() % 5 == 0 ? (uint16_t[]){ 0, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x7d00 }[rnd() % 6]
									      : f2h((float)((int)(rnd() % 33) - 16) * 0.25f);
						r[k] = h[0] | (uint32_t)h[1] << 16;
					}
				}
				if (f64)
					for (unsigned k = 0; k < 6; k += 2) {
						uint64_t v = u64b((double)((int)(rnd() % 33) - 16) * 0.25);
						r[k] = (uint32_t)v; r[k + 1] = (uint32_t)(v >> 32);
					}
				if (strstr(n, "v_bfe")) { r[1] = rnd() % 32; r[2] = rnd() % (33 - r[1]); }
				if (strstr(n, "v_cvt_pk_u16_u32")) { r[0] &= 0xffff; r[1] &= 0xffff; }
				if (strstr(n, "v_cvt_pk_i16_i32")) { r[0] = (uint32_t)(int16_t)r[0]; r[1] = (uint32_t)(int16_t)r[1]; }
				if (strstr(n, "med3") || strstr(n, "min3") || strstr(n, "max3"))
					if (rnd() % 4 == 0) r[2] = r[0];
			}
			snprintf(kname, sizeof(kname), "k_%s", n);
			hl.kd = hx_kd(&code, kname);
			ck_assert_msg(hl.kd != 0, "no %s.kd", kname);
			rc = hx_run(&hl, &err);
			ck_assert_msg(rc == 0, "%s: %s: %s", n, kemu_isa_error_name(err.kind), err.message);
			for (unsigned l = 0; l < 64; l++) {
				bool fl;
				uint64_t want = model(n, in + 8 * l, l, &fl), got = out[2 * l] | (uint64_t)out[2 * l + 1] << 32;
				bool ok = got == want;
				if (!ok && fl && f64) ok = isnan(db(got)) && isnan(db(want));
				if (!ok && fl && f32) ok = (got >> 32) == (want >> 32) && nan32((uint32_t)got) && nan32((uint32_t)want);
				if (!ok && fl && f16) {
					ok = (got >> 32) == (want >> 32);
					for (unsigned h = 0; h < 2 && ok; h++) {
						uint16_t x = (uint16_t)(got >> (16 * h)), y = (uint16_t)(want >> (16 * h));
						ok = x == y || (nan16(x) && nan16(y));
					}
				}
				if (!ok && bad++ < 6)
					fprintf(stderr, "%s lane %u: %08x %08x %08x %08x: got %016llx, model %016llx\n", n, l,
						in[8 * l], in[8 * l + 1], in[8 * l + 2], in[8 * l + 3],
						(unsigned long long)got, (unsigned long long)want);
			}
		}
	}
	hx_free(in);
	hx_free(out);
	ck_assert_msg(bad == 0, "%u results differ from the model (first ones above)", bad);
}
END_TEST

static Suite *vop3_suite(void)
{
	Suite *s = suite_create("isa_vop3");
	TCase *tc = tcase_create("vop3");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_vop3_match_model);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(vop3_suite)
