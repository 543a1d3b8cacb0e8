/*
 * test_isa_image.c — image instructions (MIMG) on kfdemu_isa, driven by the
 * OpenCL C kernels of kernels/image.cl (clang-19 with Debian's
 * rocm-device-libs: ockl's read_image* and write_image* become image_load,
 * image_store and image_sample).
 *
 * The image and sampler objects are built here the way ROCr 5.2.3's
 * image_manager_ai.cpp fills them (8-dword T# + channel type, order and
 * width; 4-dword S#), over host memory the harness maps at the same
 * address.  Expected values come from a host model written from the
 * hardware rules (GFX9 T#/S# fields, format conversions, address modes,
 * point and bilinear filtering with 8-bit sub-texel precision), not from
 * the interpreter.  gfx942 (CDNA3) has no image instructions: the same
 * kernels built for it stop with an illegal instruction.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hl_check.h"
#include "image_model.h"
#include "isa_harness.h"

#ifndef ISA_HAVE_MATHLIB
#define ISA_HAVE_MATHLIB 0
#endif

/* T# field values (GFX9) */
enum { F8 = 1, F16 = 2, F8_8 = 3, F32 = 4, F16_16 = 5, F8_8_8_8 = 10, F32_32 = 11,
       F16X4 = 12, F32X4 = 14 };

/* An image: the model's view (linear data) plus its object. */
struct img {
	uint32_t *obj;          /* 12 dwords: T#, channel type, order, width */
	uint8_t *data;
	unsigned type, dfmt, nfmt, sel;
	uint32_t w, h, d, pitch, bytes, comps, bits;
	size_t size;
};

static struct img_model mdl(const struct img *im)
{
	struct img_model m = { im->data, im->type, im->nfmt, im->sel, im->w, im->h, im->d,
			       im->pitch, im->bytes, im->comps, im->bits };
	return m;
}

static uint8_t *texel(const struct img *im, uint32_t x, uint32_t y, uint32_t z)
{
	struct img_model m = mdl(im);
	return model_texel(&m, x, y, z);
}

static void img_make(struct img *im, unsigned type, unsigned dfmt, unsigned nfmt, unsigned sel,
		     uint32_t w, uint32_t h, uint32_t d, uint32_t pitch)
{
	static const uint8_t bytes[16] = { [F8] = 1, [F16] = 2, [F8_8] = 2, [F32] = 4, [F16_16] = 4,
		[F8_8_8_8] = 4, [F32_32] = 8, [F16X4] = 8, [F32X4] = 16 };
	static const uint8_t comps[16] = { [F8] = 1, [F16] = 1, [F8_8] = 2, [F32] = 1,
		[F16_16] = 2, [F8_8_8_8] = 4, [F32_32] = 2, [F16X4] = 4, [F32X4] = 4 };
	uint32_t rows = (type == T1D || type == T1DA) ? 1 : h;

	memset(im, 0, sizeof(*im));
	im->type = type, im->dfmt = dfmt, im->nfmt = nfmt, im->sel = sel;
	im->w = w, im->h = h, im->d = d, im->pitch = pitch;
	im->bytes = bytes[dfmt];
	im->comps = comps[dfmt];
	im->bits = im->bytes * 8 / im->comps;
	im->size = (size_t)pitch * rows * d * im->bytes;
	im->data = hx_alloc(im->size + 4096);
	im->obj = hx_alloc(4096);
	uint64_t va = (uint64_t)(uintptr_t)im->data;
	im->obj[0] = (uint32_t)(va >> 8);
	im->obj[1] = (uint32_t)(va >> 40) | dfmt << 20 | nfmt << 26;
	im->obj[2] = (w - 1) | (type == T1D || type == T1DA ? 0x3fffu : h - 1) << 14;
	im->obj[3] = sel | type << 28;
	im->obj[4] = (d - 1) | (pitch - 1) << 13;
	im->obj[10] = w;
}

/* Make an image tiled: SW_MODE sw over a surface of size bytes (the
 * texel helpers above stay linear; use kemu's offsets through kernels). */
static void img_tile(struct img *im, unsigned sw, uint32_t pitch, size_t size)
{
	hx_free(im->data);
	im->data = hx_alloc(size);
	im->size = size;
	im->pitch = pitch;
	uint64_t va = (uint64_t)(uintptr_t)im->data;
	im->obj[0] = (uint32_t)(va >> 8);
	im->obj[1] = (im->obj[1] & ~0xffu) | (uint32_t)(va >> 40);
	im->obj[3] |= sw << 20;
	im->obj[4] = (im->obj[4] & 0x1fffu) | (pitch - 1) << 13;
}

static void img_free(struct img *im)
{
	hx_free(im->data);
	hx_free(im->obj);
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)rng;
}

struct samp {
	uint32_t *obj;
	unsigned clamp, linear, unnorm;
};

static void samp_make(struct samp *s, unsigned clamp, unsigned linear, unsigned unnorm)
{
	s->obj = hx_alloc(4096);
	s->clamp = clamp, s->linear = linear, s->unnorm = unnorm;
	s->obj[0] = clamp | clamp << 3 | clamp << 6 | unnorm << 15;
	s->obj[1] = 4095u << 12;
	s->obj[2] = linear << 20 | linear << 22;
	s->obj[3] = 0;          /* TRANS_BLACK */
}

/* ---- running kernels ---- */

static struct hx_code code90a, code942;
/* GB_ADDR_CONFIG the runs pass to the interpreter (kfdemu's mi210 preset:
 * 4 pipes, 256-byte interleave, 16 banks, 1 SE) */
static uint32_t gb_addr_config = 0x22014042;
static bool loaded90a, loaded942;

static struct hx_code *code_for(uint32_t gfx)
{
	char path[600];
	struct hx_code *c = gfx == KEMU_ISA_GFX942 ? &code942 : &code90a;
	bool *l = gfx == KEMU_ISA_GFX942 ? &loaded942 : &loaded90a;
	if (!*l) {
		ck_assert_msg(hx_kernel_path("image", gfx, path, sizeof(path)) != NULL,
			      "image-%s.co not built", gfx == KEMU_ISA_GFX942 ? "gfx942" : "gfx90a");
		ck_assert_int_eq(hx_load(c, path), 0);
		*l = true;
	}
	return c;
}

/* Kernel arguments: np 8-byte values (image/sampler handles, pointers),
 * then the code object v5 implicit arguments (hidden_block_count_{x,y,z}
 * at +0, hidden_group_size_{x,y,z} at +12, hidden_remainder_* at +18,
 * hidden_grid_dims at +64). */
static int run_gfx(uint32_t gfx, const char *name, const uint64_t *args, unsigned np,
		   uint32_t gx, uint32_t gy, uint32_t gz, struct kemu_isa_error *err)
{
	uint8_t ka[64 + 256] = { 0 };
	uint32_t grid[3] = { gx, gy, gz };
	uint16_t wg[3] = { 64, 1, 1 }, dims = gz > 1 ? 3 : gy > 1 ? 2 : 1;
	size_t imp = 8 * (size_t)np;
	struct hx_launch l = { .gfx = gfx, .args = ka, .grid = { gx, gy, gz },
			       .gb_addr_config = gb_addr_config };

	if (gy > 1)
		wg[0] = 8, wg[1] = 8;
	memcpy(ka, args, 8 * np);
	for (unsigned d = 0; d < 3; d++) {
		uint32_t blocks = (grid[d] + wg[d] - 1) / wg[d];
		uint16_t rem = (uint16_t)(grid[d] % wg[d]);
		memcpy(ka + imp + 4 * d, &blocks, 4);
		memcpy(ka + imp + 12 + 2 * d, &wg[d], 2);
		memcpy(ka + imp + 18 + 2 * d, &rem, 2);
		l.wg[d] = wg[d];
	}
	memcpy(ka + imp + 64, &dims, 2);
	l.args_size = imp + 256;
	l.kd = hx_kd(code_for(gfx), name);
	ck_assert_msg(l.kd != 0, "no %s.kd", name);
	return hx_run(&l, err);
}

static void run(const char *name, const uint64_t *args, unsigned np, uint32_t gx, uint32_t gy,
		uint32_t gz)
{
	struct kemu_isa_error err;
	int rc = run_gfx(KEMU_ISA_GFX90A, name, args, np, gx, gy, gz, &err);
	ck_assert_msg(rc == 0, "%s: %s: %s", name, kemu_isa_error_name(err.kind), err.message);
}

#define H(p) ((uint64_t)(uintptr_t)(p))

static void fill_random(struct img *im)
{
	for (size_t i = 0; i < im->size; i++)
		im->data[i] = (uint8_t)rnd();
	if (im->nfmt == FLOAT && im->bits == 16) {
		/* finite halves only (NaN payloads need not survive) */
		for (size_t i = 1; i < im->size; i += 2)
			im->data[i] &= 0x7b;
	} else if (im->nfmt == FLOAT) {
		for (size_t i = 3; i < im->size; i += 4)
			im->data[i] &= 0x7f & ~0x40;
	} else if (im->nfmt == SNORM) {
		/* the most negative code reads -1.0 and stores back as -max */
		for (size_t i = im->bits / 8 - 1; i < im->size; i += im->bits / 8)
			if ((im->data[i] & 0x80) && im->data[i] == 0x80)
				im->data[i] = 0x81;
	}
}

/* Copy kernel over two images of the same shape; every texel inside the
 * image must arrive bit for bit, the pitch padding stays untouched. */
static void check_copy(const char *kernel, unsigned type, unsigned dfmt, unsigned nfmt,
		       unsigned sel, uint32_t w, uint32_t h, uint32_t d, uint32_t pitch)
{
	struct img a, b;
	uint32_t rows, gy, gz;

	img_make(&a, type, dfmt, nfmt, sel, w, h, d, pitch);
	img_make(&b, type, dfmt, nfmt, sel, w, h, d, pitch);
	fill_random(&a);
	memset(b.data, 0xee, b.size);
	uint64_t args[2] = { H(a.obj), H(b.obj) };
	rows = (type == T1D || type == T1DA) ? 1 : h;
	gy = type == T1DA ? d : rows;
	gz = (type == T3D || type == T2DA) ? d : 1;
	run(kernel, args, 2, w, gy, gz);
	for (uint32_t z = 0; z < d; z++)
		for (uint32_t y = 0; y < rows; y++)
			for (uint32_t x = 0; x < pitch; x++) {
				const uint8_t *p = texel(&a, x, y, z), *q = texel(&b, x, y, z);
				bool inside = x < w;
				for (unsigned k = 0; k < a.bytes; k++) {
					uint8_t want = inside ? p[k] : 0xee;
					ck_assert_msg(q[k] == want,
						      "%s fmt %u/%u (%u,%u,%u) byte %u: 0x%02x, expected 0x%02x",
						      kernel, dfmt, nfmt, x, y, z, k, q[k], want);
				}
			}
	img_free(&a);
	img_free(&b);
}

START_TEST(test_copy_2d_formats)
{
	check_copy("copy_2d", T2D, F8_8_8_8, UNORM, RGBA, 33, 7, 1, 64);
	check_copy("copy_2d", T2D, F8_8_8_8, UNORM, BGRA, 20, 5, 1, 64);
	check_copy("copy_2d", T2D, F8, UNORM, R001, 17, 9, 1, 256);
	check_copy("copy_2d", T2D, F16_16, SNORM, SEL(4, 5, 0, 1), 9, 4, 1, 64);
	check_copy("copy_2d", T2D, F16X4, FLOAT, RGBA, 13, 3, 1, 32);
	check_copy("copy_2d", T2D, F32, FLOAT, R001, 70, 2, 1, 128);
	check_copy("copy_2d", T2D, F32X4, FLOAT, RGBA, 5, 5, 1, 16);
	check_copy("copy_2d", T2D, F16, UNORM, R001, 8, 8, 1, 128);
	check_copy("copy_2d_i", T2D, F8_8_8_8, SINT, RGBA, 11, 3, 1, 64);
	check_copy("copy_2d_i", T2D, F32_32, SINT, SEL(4, 5, 0, 1), 11, 3, 1, 32);
	check_copy("copy_2d_ui", T2D, F32X4, UINT, RGBA, 7, 6, 1, 16);
	check_copy("copy_2d_ui", T2D, F16X4, UINT, RGBA, 7, 6, 1, 32);
}
END_TEST

START_TEST(test_copy_1d_3d_arrays)
{
	check_copy("copy_1d", T1D, F8_8_8_8, UNORM, RGBA, 100, 1, 1, 128);
	check_copy("copy_3d", T3D, F8_8, UNORM, SEL(4, 5, 0, 1), 9, 5, 4, 128);
	check_copy("copy_3d", T3D, F32X4, FLOAT, RGBA, 4, 4, 3, 16);
	check_copy("copy_1da", T1DA, F16X4, SNORM, RGBA, 30, 1, 3, 32);
	check_copy("copy_2da", T2DA, F8_8_8_8, UNORM, RGBA, 10, 6, 3, 64);
}
END_TEST

/* read_imagef at integer positions: DST_SEL (BGRA reads memory Z as red;
 * R reads (r, 0, 0, 1)), and positions outside the image read 0. */
START_TEST(test_load_swizzle_and_out_of_range)
{
	struct img a, r;
	int32_t *pos = hx_alloc(4096);
	float *out = hx_alloc(4096);
	const int32_t p[6][2] = { { 0, 0 }, { 3, 1 }, { -1, 0 }, { 4, 0 }, { 0, 2 }, { 1, 1 } };

	img_make(&a, T2D, F8_8_8_8, UNORM, BGRA, 4, 2, 1, 64);
	for (unsigned i = 0; i < 8; i++) {
		uint8_t *t = texel(&a, i % 4, i / 4, 0);
		t[0] = (uint8_t)(10 * i), t[1] = 51, t[2] = 255, t[3] = 102;   /* B G R A */
	}
	memcpy(pos, p, sizeof(p));
	uint64_t args[3] = { H(a.obj), H(pos), H(out) };
	run("load_2d", args, 3, 6, 1, 1);
	for (unsigned i = 0; i < 6; i++) {
		bool in = p[i][0] >= 0 && p[i][0] < 4 && p[i][1] >= 0 && p[i][1] < 2;
		unsigned t = (unsigned)(p[i][1] * 4 + p[i][0]);
		float want[4] = { 1.0f, 0.2f, (float)(10 * t) / 255.0f, 0.4f };
		for (unsigned c = 0; c < 4; c++)
			ck_assert_msg(out[4 * i + c] == (in ? want[c] : 0.0f),
				      "pos (%d,%d) c%u: %a, expected %a", p[i][0], p[i][1], c,
				      out[4 * i + c], in ? want[c] : 0.0f);
	}
	img_make(&r, T2D, F8, UNORM, R001, 4, 2, 1, 256);
	texel(&r, 3, 1, 0)[0] = 255;
	args[0] = H(r.obj);
	run("load_2d", args, 3, 2, 1, 1);
	ck_assert(out[4] == 1.0f && out[5] == 0.0f && out[6] == 0.0f && out[7] == 1.0f);
	ck_assert(out[0] == 0.0f && out[3] == 1.0f);
	img_free(&a);
	img_free(&r);
	hx_free(pos);
	hx_free(out);
}
END_TEST

/* SRGB (8_8_8_8, ROCr's SRGBA UNORM_INT8): red, green and blue are
 * converted from sRGB to linear (IEC 61966-2-1), alpha is plain UNORM. */
START_TEST(test_load_srgb)
{
	struct img a;
	int32_t *pos = hx_alloc(4096);
	float *out = hx_alloc(4096);

	img_make(&a, T2D, F8_8_8_8, 9 /* SRGB */, RGBA, 4, 1, 1, 64);
	for (unsigned i = 0; i < 16; i++)
		a.data[i] = (uint8_t)(i * 17);
	for (int i = 0; i < 4; i++)
		pos[2 * i] = i, pos[2 * i + 1] = 0;
	uint64_t args[3] = { H(a.obj), H(pos), H(out) };
	run("load_2d", args, 3, 4, 1, 1);
	for (unsigned i = 0; i < 16; i++) {
		double c = a.data[i] / 255.0;
		double want = i % 4 == 3 ? c : c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
		ck_assert_msg(fabs(out[i] - want) <= 2e-6, "byte %u = %u: %a, expected %a", i, a.data[i],
			      out[i], want);
	}
	img_free(&a);
	hx_free(pos);
	hx_free(out);
}
END_TEST

/* write_imagef / write_imagei convert as the hardware: normalized values
 * saturate and round to nearest even, NaN stores 0, integers saturate. */
START_TEST(test_store_conversions)
{
	struct img u8, s8, i8, h;
	float *val = hx_alloc(4096);
	int32_t *ival = hx_alloc(4096);
	const float v[8] = { 1.5f, -0.25f, 0.5f, NAN, 127.5f / 255, 1.0f / 255, 0.999f, -1.0f };
	const uint8_t want_u[8] = { 255, 0, 128, 0, 128, 1, 255, 0 };
	const int8_t want_s[8] = { 127, -32, 64, 0, 64, 0, 127, -127 };
	const int32_t iv[8] = { 300, -300, 5, -5, 127, -128, 1 << 30, -(1 << 30) };
	const int8_t want_i[8] = { 127, -128, 5, -5, 127, -128, 127, -128 };

	memcpy(val, v, sizeof(v));
	memcpy(ival, iv, sizeof(iv));
	img_make(&u8, T2D, F8_8_8_8, UNORM, RGBA, 2, 1, 1, 64);
	img_make(&s8, T2D, F8_8_8_8, SNORM, RGBA, 2, 1, 1, 64);
	img_make(&i8, T2D, F8_8_8_8, SINT, RGBA, 2, 1, 1, 64);
	img_make(&h, T2D, F16X4, FLOAT, RGBA, 2, 1, 1, 32);
	uint64_t args[2] = { H(u8.obj), H(val) };
	run("store_2d", args, 2, 2, 1, 1);
	args[0] = H(s8.obj);
	run("store_2d", args, 2, 2, 1, 1);
	args[0] = H(h.obj);
	run("store_2d", args, 2, 2, 1, 1);
	args[0] = H(i8.obj), args[1] = H(ival);
	run("store_2d_i", args, 2, 2, 1, 1);
	for (unsigned i = 0; i < 8; i++) {
		ck_assert_msg(u8.data[i] == want_u[i], "unorm8 of %a: %u, expected %u", v[i],
			      u8.data[i], want_u[i]);
		ck_assert_msg((int8_t)s8.data[i] == want_s[i], "snorm8 of %a: %d, expected %d", v[i],
			      (int8_t)s8.data[i], want_s[i]);
		ck_assert_msg((int8_t)i8.data[i] == want_i[i], "sint8 of %d: %d, expected %d", iv[i],
			      (int8_t)i8.data[i], want_i[i]);
	}
	/* half: 1.5 -> 0x3e00, NaN stays a NaN */
	uint16_t h0, h3;
	memcpy(&h0, h.data, 2);
	memcpy(&h3, h.data + 6, 2);
	ck_assert_uint_eq(h0, 0x3e00);
	ck_assert_msg((h3 & 0x7c00) == 0x7c00 && (h3 & 0x3ff), "NaN stored as 0x%04x", h3);
	img_free(&u8);
	img_free(&s8);
	img_free(&i8);
	img_free(&h);
	hx_free(val);
	hx_free(ival);
}
END_TEST

#define NS 192

/* Sampled reads against the model, for one image and every address mode,
 * filter and coordinate mode.  Coordinates avoid texel boundaries by more
 * than the sub-texel step (point filtering). */
static void check_sample(const char *kernel, struct img *im, unsigned dims, unsigned ncoord)
{
	static const unsigned modes[4] = { 0, 1, 2, 6 };
	float *coord = hx_alloc(NS * 16), *out = hx_alloc(NS * 16);
	uint32_t n[3] = { im->w, im->h, im->d };

	for (unsigned mi = 0; mi < 4; mi++)
		for (unsigned lin = 0; lin < 2; lin++)
			for (unsigned un = 0; un < 2; un++) {
				struct samp s;
				samp_make(&s, modes[mi], lin, un);
				for (unsigned i = 0; i < NS; i++) {
					for (unsigned d = 0; d < ncoord; d++) {
						uint32_t span = d < dims ? n[d] : im->d;
						/* texel units in [-1.5 n, 2.5 n), at least 0.05
						 * texel from an integer */
						float t = (float)((int)(rnd() % (4 * span)) - (int)(3 * span / 2)) +
							  0.05f + 0.9f * (float)(rnd() % 1000) / 1000;
						if (d >= dims)
							t = (float)(rnd() % (im->d + 2)) - 1.0f + 0.25f;
						coord[i * ncoord + d] = d >= dims || un ? t : t / (float)span;
					}
				}
				uint64_t args[4] = { H(im->obj), H(s.obj), H(coord), H(out) };
				run(kernel, args, 4, NS, 1, 1);
				for (unsigned i = 0; i < NS; i++) {
					float want[4];
					struct img_model m = mdl(im);
					model_sample(&m, s.clamp, s.linear, s.unnorm, coord + i * ncoord, dims, want);
					for (unsigned c = 0; c < 4; c++) {
						float got = out[4 * i + c];
						ck_assert_msg(fabsf(got - want[c]) <= 1e-5f * (1 + fabsf(want[c])),
							      "%s mode %u %s %s coord (%a %a %a) c%u: %a, expected %a",
							      kernel, modes[mi], lin ? "linear" : "nearest",
							      un ? "unnormalized" : "normalized",
							      coord[i * ncoord], ncoord > 1 ? coord[i * ncoord + 1] : 0.0f,
							      ncoord > 2 ? coord[i * ncoord + 2] : 0.0f, c, got, want[c]);
					}
				}
				hx_free(s.obj);
			}
	hx_free(coord);
	hx_free(out);
}

START_TEST(test_sample_2d)
{
	struct img a, b;
	img_make(&a, T2D, F8_8_8_8, UNORM, RGBA, 5, 3, 1, 64);
	fill_random(&a);
	check_sample("sample_2d", &a, 2, 2);
	img_make(&b, T2D, F32, FLOAT, R001, 7, 4, 1, 64);
	for (uint32_t i = 0; i < 7 * 4; i++) {
		float f = (float)(rnd() % 2000) / 100.0f - 10.0f;
		memcpy(texel(&b, i % 7, i / 7, 0), &f, 4);
	}
	check_sample("sample_2d", &b, 2, 2);
	img_free(&a);
	img_free(&b);
}
END_TEST

START_TEST(test_sample_1d_3d_array)
{
	struct img a, b, c;
	img_make(&a, T1D, F16X4, FLOAT, RGBA, 9, 1, 1, 32);
	fill_random(&a);
	for (size_t i = 1; i < a.size; i += 2)
		a.data[i] &= 0x4f;      /* moderate magnitudes */
	check_sample("sample_1d", &a, 1, 1);
	img_make(&b, T3D, F8_8, UNORM, SEL(4, 5, 0, 1), 4, 3, 3, 128);
	fill_random(&b);
	check_sample("sample_3d", &b, 3, 4);
	img_make(&c, T2DA, F8_8_8_8, UNORM, BGRA, 4, 4, 3, 64);
	fill_random(&c);
	check_sample("sample_2da", &c, 2, 4);
	img_free(&a);
	img_free(&b);
	img_free(&c);
}
END_TEST

/* read_imageui with a nearest sampler: the integer texel, unconverted. */
START_TEST(test_sample_integer_nearest)
{
	struct img a;
	struct samp s;
	float *coord = hx_alloc(4096);
	uint32_t *out = hx_alloc(4096);

	img_make(&a, T2D, F8_8_8_8, UINT, RGBA, 4, 4, 1, 64);
	fill_random(&a);
	samp_make(&s, 2, 0, 1);
	for (unsigned i = 0; i < 16; i++)
		coord[2 * i] = (float)(i % 4) + 0.5f, coord[2 * i + 1] = (float)(i / 4) + 0.5f;
	uint64_t args[4] = { H(a.obj), H(s.obj), H(coord), H(out) };
	run("sample_2d_ui", args, 4, 16, 1, 1);
	for (unsigned i = 0; i < 16; i++)
		for (unsigned c = 0; c < 4; c++)
			ck_assert_uint_eq(out[4 * i + c], texel(&a, i % 4, i / 4, 0)[c]);
	img_free(&a);
	hx_free(s.obj);
	hx_free(coord);
	hx_free(out);
}
END_TEST

/* An invalid descriptor (DATA_FORMAT 0) reads 0 and drops stores; an
 * unmapped image base is a memory fault, not a host crash. */
START_TEST(test_bad_descriptors)
{
	struct img a, b;
	struct kemu_isa_error err;

	img_make(&a, T2D, F8_8_8_8, UNORM, RGBA, 8, 8, 1, 64);
	img_make(&b, T2D, F8_8_8_8, UNORM, RGBA, 8, 8, 1, 64);
	fill_random(&a);
	memset(b.data, 0x5a, b.size);
	a.obj[1] &= ~(0x3fu << 20);     /* source format INVALID */
	uint64_t args[2] = { H(a.obj), H(b.obj) };
	run("copy_2d", args, 2, 8, 8, 1);
	for (size_t i = 0; i < 8 * 4; i++)
		ck_assert_uint_eq(b.data[i], 0);        /* the zeros that were read */
	a.obj[1] |= F8_8_8_8 << 20;
	b.obj[1] &= ~(0x3fu << 20);                     /* destination INVALID */
	memset(b.data, 0x5a, b.size);
	run("copy_2d", args, 2, 8, 8, 1);
	for (size_t i = 0; i < b.size; i++)
		ck_assert_uint_eq(b.data[i], 0x5a);
	b.obj[1] |= F8_8_8_8 << 20;
	b.obj[0] = 0x100;                               /* base 0x10000: unmapped */
	b.obj[1] &= ~0xffu;
	ck_assert_int_eq(run_gfx(KEMU_ISA_GFX90A, "copy_2d", args, 2, 8, 8, 1, &err), -1);
	ck_assert_msg(err.kind == KEMU_ISA_ERR_MEMORY_FAULT, "%s: %s", kemu_isa_error_name(err.kind),
		      err.message);
	ck_assert_uint_eq(err.va & ~0xfffull, 0x10000);
	img_free(&a);
	img_free(&b);
}
END_TEST

static uint16_t f2h(float f)
{
	/* round to nearest even through the FPU's own conversion */
	_Float16 h = (_Float16)f;
	uint16_t u;
	memcpy(&u, &h, 2);
	return u;
}

/* read_imageh / write_imageh (D16): halves packed two to a VGPR, results
 * rounded to f16, stores widened from f16. */
START_TEST(test_d16_half_reads_and_writes)
{
	struct img h, u8;
	struct samp s;
	int32_t *pos = hx_alloc(4096);
	uint16_t *out = hx_alloc(4096);
	float *coord = hx_alloc(4096);
	const int32_t p[4][2] = { { 0, 0 }, { 3, 1 }, { 2, 0 }, { 9, 9 } };

	img_make(&h, T2D, F16X4, FLOAT, BGRA, 4, 2, 1, 32);
	img_make(&u8, T2D, F8_8_8_8, UNORM, RGBA, 4, 2, 1, 64);
	fill_random(&h);
	fill_random(&u8);
	memcpy(pos, p, sizeof(p));
	uint64_t args[3] = { H(h.obj), H(pos), H(out) };
	run("load_2d_h", args, 3, 4, 1, 1);
	for (unsigned i = 0; i < 4; i++) {
		bool in = i < 3;
		uint16_t *t = in ? (uint16_t *)texel(&h, (uint32_t)p[i][0], (uint32_t)p[i][1], 0) : NULL;
		const unsigned from[4] = { 2, 1, 0, 3 };        /* BGRA */
		for (unsigned c = 0; c < 4; c++)
			ck_assert_msg(out[4 * i + c] == (in ? t[from[c]] : 0), "f16 pos %u c%u: 0x%04x", i, c,
				      out[4 * i + c]);
	}
	args[0] = H(u8.obj);
	run("load_2d_h", args, 3, 3, 1, 1);
	for (unsigned i = 0; i < 3; i++)
		for (unsigned c = 0; c < 4; c++) {
			uint8_t raw = texel(&u8, (uint32_t)p[i][0], (uint32_t)p[i][1], 0)[c];
			ck_assert_uint_eq(out[4 * i + c], f2h((float)raw / 255.0f));
		}
	/* write_imageh into unorm8: 0.5 -> 128, 1.5 -> 255, -1 -> 0 */
	const float v[8] = { 0.5f, 1.5f, -1.0f, 0.25f, 1.0f, 0.0f, 0.75f, 0.125f };
	uint16_t *hv = hx_alloc(4096);
	for (unsigned i = 0; i < 8; i++)
		hv[i] = f2h(v[i]);
	args[0] = H(u8.obj), args[1] = H(hv);
	run("store_2d_h", args, 2, 2, 1, 1);
	const uint8_t want[8] = { 128, 255, 0, 64, 255, 0, 191, 32 };
	for (unsigned i = 0; i < 8; i++)
		ck_assert_msg(u8.data[i] == want[i], "byte %u: %u, expected %u", i, u8.data[i], want[i]);
	/* a bilinear read_imageh is the f16 of the f32 result */
	samp_make(&s, 2, 1, 0);
	for (unsigned i = 0; i < 16; i++)
		coord[2 * i] = 0.1f + 0.05f * i, coord[2 * i + 1] = 0.3f + 0.02f * i;
	uint64_t sargs[4] = { H(h.obj), H(s.obj), H(coord), H(out) };
	run("sample_2d_h", sargs, 4, 16, 1, 1);
	for (unsigned i = 0; i < 16; i++) {
		float want4[4];
		struct img_model m = mdl(&h);
		model_sample(&m, s.clamp, s.linear, s.unnorm, coord + 2 * i, 2, want4);
		for (unsigned c = 0; c < 4; c++) {
			uint16_t w16 = f2h(want4[c]);
			ck_assert_msg(out[4 * i + c] == w16 || out[4 * i + c] == (uint16_t)(w16 + 1) ||
				      out[4 * i + c] == (uint16_t)(w16 - 1),
				      "sample %u c%u: 0x%04x, expected 0x%04x", i, c, out[4 * i + c], w16);
		}
	}
	img_free(&h);
	img_free(&u8);
	hx_free(s.obj);
	hx_free(pos);
	hx_free(out);
	hx_free(coord);
	hx_free(hv);
}
END_TEST

/* Tiled surfaces (the SW_MODEs ROCr 5.2.3 picks for opaque images) are
 * addressed as addrlib lays them out: a linear image is copied into a
 * tiled one, texels are found at the byte offsets ROCr 5.2.3's addrlib
 * (Addr2ComputeSurfaceAddrFromCoord, FAMILY_AI, GB_ADDR_CONFIG 0x22014042)
 * gives, and copied back unchanged. */
START_TEST(test_tiled_layouts_match_addrlib)
{
	static const struct {
		unsigned type, sw, dfmt;
		uint32_t w, h, d, pitch;
		size_t size;
		uint32_t pts[6][4];     /* x, y, z, byte offset from addrlib */
	} cases[] = {
		{ T2DA, 22, F8_8_8_8, 33, 7, 3, 64, 24576,
		  { { 0, 0, 0, 0x0 }, { 1, 0, 0, 0x4 }, { 0, 1, 0, 0x10 }, { 5, 3, 1, 0x2274 },
		    { 32, 6, 2, 0x55c0 }, { 17, 4, 0, 0x984 } } },
		{ T2D, 26, F8_8_8_8, 200, 130, 1, 256, 262144,
		  { { 0, 0, 0, 0x0 }, { 1, 0, 0, 0x4 }, { 0, 1, 0, 0x10 }, { 17, 4, 0, 0x984 },
		    { 199, 129, 0, 0x39c3c }, { 100, 64, 0, 0xd020 } } },
		{ T3D, 20, F8_8, 9, 5, 4, 16, 8192,
		  { { 0, 0, 0, 0x0 }, { 1, 0, 0, 0x2 }, { 0, 1, 0, 0x4 }, { 5, 3, 1, 0x236 },
		    { 8, 4, 3, 0x1860 }, { 8, 4, 3, 0x1860 } } },
		{ T3D, 24, F8_8_8_8, 40, 36, 20, 64, 524288,
		  { { 5, 3, 1, 0x26c }, { 32, 6, 2, 0x109c0 }, { 17, 4, 0, 0xa104 }, { 8, 4, 3, 0x10a0 },
		    { 39, 35, 19, 0x70afc }, { 33, 17, 9, 0x1492c } } },
	};
	for (unsigned c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct img lin, til, back;
		const char *k = cases[c].type == T3D ? "copy_3d" : cases[c].type == T2DA ? "copy_2da" : "copy_2d";
		unsigned sel = cases[c].dfmt == F8_8 ? SEL(4, 5, 0, 1) : RGBA;
		img_make(&lin, cases[c].type, cases[c].dfmt, UNORM, sel, cases[c].w, cases[c].h, cases[c].d,
			 cases[c].w);
		img_make(&til, cases[c].type, cases[c].dfmt, UNORM, sel, cases[c].w, cases[c].h, cases[c].d,
			 cases[c].w);
		img_make(&back, cases[c].type, cases[c].dfmt, UNORM, sel, cases[c].w, cases[c].h, cases[c].d,
			 cases[c].w);
		img_tile(&til, cases[c].sw, cases[c].pitch, cases[c].size);
		fill_random(&lin);
		uint64_t args[2] = { H(lin.obj), H(til.obj) };
		uint32_t gz = cases[c].type == T2D ? 1 : cases[c].d;
		run(k, args, 2, cases[c].w, cases[c].h, gz);
		for (unsigned i = 0; i < 6; i++) {
			const uint32_t *p = cases[c].pts[i];
			ck_assert_msg(!memcmp(til.data + p[3], texel(&lin, p[0], p[1], p[2]), lin.bytes),
				      "SW_MODE %u texel (%u,%u,%u) not at addrlib's offset 0x%x", cases[c].sw,
				      p[0], p[1], p[2], p[3]);
		}
		args[0] = H(til.obj), args[1] = H(back.obj);
		run(k, args, 2, cases[c].w, cases[c].h, gz);
		ck_assert_msg(!memcmp(lin.data, back.data, lin.size), "SW_MODE %u round trip", cases[c].sw);
		img_free(&lin);
		img_free(&til);
		img_free(&back);
	}
}
END_TEST

/* CDNA3 has no image instructions: the same kernel built for gfx942 stops
 * at its first MIMG word. */
START_TEST(test_gfx942_has_no_image_instructions)
{
	struct img a, b;
	struct kemu_isa_error err;

	img_make(&a, T2D, F8_8_8_8, UNORM, RGBA, 8, 8, 1, 64);
	img_make(&b, T2D, F8_8_8_8, UNORM, RGBA, 8, 8, 1, 64);
	uint64_t args[2] = { H(a.obj), H(b.obj) };
	ck_assert_int_eq(run_gfx(KEMU_ISA_GFX942, "copy_2d", args, 2, 8, 8, 1, &err), -1);
	ck_assert_msg(err.kind == KEMU_ISA_ERR_ILLEGAL_INSTRUCTION, "%s", kemu_isa_error_name(err.kind));
	ck_assert_msg(strstr(err.message, "MIMG opcode 0x0 (gfx942 has no image instructions)"),
		      "message: %s", err.message);
	img_free(&a);
	img_free(&b);
}
END_TEST

/* A 1-D buffer image as ROCr builds it: a V# (base, STRIDE = element size,
 * NUM_RECORDS, DST_SEL, NUM_FORMAT, DATA_FORMAT) read and written with
 * buffer_load_format_xyzw / buffer_store_format_xyzw. */
static void img_make_1db(struct img *im, unsigned dfmt, unsigned nfmt, unsigned sel, uint32_t w,
			 uint32_t records)
{
	img_make(im, T1D, dfmt, nfmt, sel, w, 1, 1, w);
	uint64_t va = (uint64_t)(uintptr_t)im->data;
	memset(im->obj, 0, 48);
	im->obj[0] = (uint32_t)va;
	im->obj[1] = (uint32_t)(va >> 32) | im->bytes << 16;
	im->obj[2] = records;
	im->obj[3] = sel | nfmt << 12 | dfmt << 15;
	im->obj[10] = w;
}

START_TEST(test_buffer_image_formats)
{
	struct img a, b, c;
	int32_t *pos = hx_alloc(4096);
	float *out = hx_alloc(4096);

	img_make_1db(&a, F8_8_8_8, UNORM, BGRA, 40, 40);
	img_make_1db(&b, F8_8_8_8, UNORM, BGRA, 40, 40);
	fill_random(&a);
	uint64_t args[3] = { H(a.obj), H(b.obj) };
	run("copy_1db", args, 2, 40, 1, 1);
	ck_assert(!memcmp(a.data, b.data, 40 * 4));
	img_make_1db(&c, F16X4, FLOAT, RGBA, 8, 8);
	fill_random(&c);
	const int32_t p[4] = { 0, 7, 8, 100 };          /* the last two out of range */
	memcpy(pos, p, sizeof(p));
	args[0] = H(a.obj), args[1] = H(pos), args[2] = H(out);
	run("load_1db", args, 3, 2, 1, 1);
	for (unsigned i = 0; i < 2; i++) {
		const uint8_t *t = texel(&a, (uint32_t)p[i], 0, 0);
		ck_assert(out[4 * i] == (float)t[2] / 255.0f && out[4 * i + 2] == (float)t[0] / 255.0f);
	}
	args[0] = H(c.obj);
	run("load_1db", args, 3, 4, 1, 1);
	for (unsigned i = 0; i < 4; i++)
		for (unsigned k = 0; k < 4; k++) {
			float want = 0.0f;
			if (i < 2) {
				struct img_model m = mdl(&c);
				want = comp_float(&m, texel(&c, (uint32_t)p[i], 0, 0), k);
			}
			ck_assert_msg(out[4 * i + k] == want, "pos %d c%u: %a, expected %a", p[i], k,
				      out[4 * i + k], want);
		}
	img_free(&a);
	img_free(&b);
	img_free(&c);
	hx_free(pos);
	hx_free(out);
}
END_TEST

static Suite *image_suite(void)
{
	Suite *s = suite_create("isa_image");
	TCase *tc = tcase_create("image");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_copy_2d_formats);
	tcase_add_test(tc, test_copy_1d_3d_arrays);
	tcase_add_test(tc, test_load_swizzle_and_out_of_range);
	tcase_add_test(tc, test_store_conversions);
	tcase_add_test(tc, test_load_srgb);
	tcase_add_test(tc, test_sample_2d);
	tcase_add_test(tc, test_sample_1d_3d_array);
	tcase_add_test(tc, test_sample_integer_nearest);
	tcase_add_test(tc, test_bad_descriptors);
	tcase_add_test(tc, test_tiled_layouts_match_addrlib);
	tcase_add_test(tc, test_d16_half_reads_and_writes);
	tcase_add_test(tc, test_buffer_image_formats);
	tcase_add_test(tc, test_gfx942_has_no_image_instructions);
	suite_add_tcase(s, tc);
	return s;
}

/* Skipped (77) when CMake could not build kernels/image.cl (it needs
 * clang-19 and the device libraries, as test_isa_mathlib). */
int main(void)
{
	if (!ISA_HAVE_MATHLIB)
		return HL_SKIP;
	return hl_check_run(image_suite());
}
