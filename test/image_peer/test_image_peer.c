/*
 * test_image_peer.c — OpenCL C image kernels (test/isa/kernels/image.cl,
 * clang-19 + rocm-device-libs, gfx90a, code object v4) on a runtime's
 * image extension under kfdemu: images created with hsa_ext_image_create
 * (opaque layout: tiled for 2-D and 3-D) on VRAM, filled with hsa_ext_image_import, copied by
 * read_image* -> write_image* kernels and read back with
 * hsa_ext_image_export, bit for bit; sampled with nearest and linear
 * filtering, every address mode and normalized / unnormalized
 * coordinates, checked against the host model of the hardware's rules
 * (test/isa/image_model.h) over the imported data.
 *
 * IMAGE_PEER_LAYOUT=linear makes every image linear
 * (hsa_ext_image_create_with_layout, rows padded to 256 bytes) instead.
 *
 * Formats: RGBA and BGRA UNORM_INT8, R FLOAT, RG SNORM_INT16, RGBA
 * HALF_FLOAT, RG UNORM_INT8, RGBA SIGNED_INT8 / UNSIGNED_INT32; geometries
 * 1D, 2D, 3D, 1DA, 2DA, 1DB.  The same binary runs on Debian's ROCr 5.2.3 and on
 * hsalite (LD_LIBRARY_PATH picks; the binary has a RUNPATH to hsalite).
 * Skips (77) when there is no GPU, or the runtime has no image extension.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsa/hsa_ext_image.h>

#include "hl_hsa.h"
#include "ip_kernels.h"
#include "image_model.h"

static hsa_agent_t gpu;
static hsa_amd_memory_pool_t sys_pool, vram_pool;
/* IMAGE_PEER_LAYOUT=linear: images in the linear layout
 * (hsa_ext_image_create_with_layout); otherwise opaque */
static bool linear_layout;
static struct ip_kernels K;

static void *sys_alloc(size_t size)
{
	void *p = NULL;
	ck_hsa(hsa_amd_memory_pool_allocate(sys_pool, size, 0, &p));
	ck_hsa(hsa_amd_agents_allow_access(1, &gpu, NULL, p));
	memset(p, 0, size);
	return p;
}

static void setup(void)
{
	struct hl_pools pools;

	const char *lay = getenv("IMAGE_PEER_LAYOUT");
	linear_layout = lay && !strcmp(lay, "linear");
	ip_setup(&K, "image_peer", &pools);
	ck_assert(pools.have_sys);
	gpu = K.gpu;
	sys_pool = pools.sys;
	vram_pool = pools.vram;
}

static void teardown(void)
{
	ip_teardown(&K);
}


/* ---- images ---- */

struct fmt {
	hsa_ext_image_channel_order_t order;
	hsa_ext_image_channel_type_t type;
	unsigned nfmt, sel, bytes, comps;
};

static const struct fmt RGBA8 = { HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA,
	HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8, UNORM, RGBA, 4, 4 };
static const struct fmt BGRA8 = { HSA_EXT_IMAGE_CHANNEL_ORDER_BGRA,
	HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8, UNORM, BGRA, 4, 4 };
static const struct fmt R32F = { HSA_EXT_IMAGE_CHANNEL_ORDER_R, HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT,
	FLOAT, R001, 4, 1 };
static const struct fmt RG16S = { HSA_EXT_IMAGE_CHANNEL_ORDER_RG,
	HSA_EXT_IMAGE_CHANNEL_TYPE_SNORM_INT16, SNORM, SEL(4, 5, 0, 1), 4, 2 };
static const struct fmt RG8 = { HSA_EXT_IMAGE_CHANNEL_ORDER_RG,
	HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8, UNORM, SEL(4, 5, 0, 1), 2, 2 };
static const struct fmt RGBA16F = { HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA,
	HSA_EXT_IMAGE_CHANNEL_TYPE_HALF_FLOAT, FLOAT, RGBA, 8, 4 };
static const struct fmt DEPTH16 = { HSA_EXT_IMAGE_CHANNEL_ORDER_DEPTH,
	HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT16, UNORM, R001, 2, 1 };
static const struct fmt DEPTH32F = { HSA_EXT_IMAGE_CHANNEL_ORDER_DEPTH,
	HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT, FLOAT, R001, 4, 1 };
static const struct fmt RGBA8I = { HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA,
	HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT8, SINT, RGBA, 4, 4 };
static const struct fmt RGBA32UI = { HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA,
	HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT32, UINT, RGBA, 16, 4 };

struct pimg {
	hsa_ext_image_t handle;
	void *mem;
	struct img_model m;     /* the host copy (linear, pitch = width) */
	size_t bytes;
	hsa_ext_image_descriptor_t desc;
};

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)rng;
}

static unsigned model_type(hsa_ext_image_geometry_t g)
{
	switch (g) {
	case HSA_EXT_IMAGE_GEOMETRY_1D: case HSA_EXT_IMAGE_GEOMETRY_1DB: return T1D;
	case HSA_EXT_IMAGE_GEOMETRY_3D: return T3D;
	case HSA_EXT_IMAGE_GEOMETRY_1DA: return T1DA;
	case HSA_EXT_IMAGE_GEOMETRY_2DA: return T2DA;
	default: return T2D;
	}
}

/* An opaque image of w x h x d (d: depth or array size), host copy zeroed. */
static void pimg_create(struct pimg *im, hsa_ext_image_geometry_t g, const struct fmt *f,
			uint32_t w, uint32_t h, uint32_t d)
{
	hsa_ext_image_data_info_t info;
	bool one_d = g == HSA_EXT_IMAGE_GEOMETRY_1D || g == HSA_EXT_IMAGE_GEOMETRY_1DA ||
		     g == HSA_EXT_IMAGE_GEOMETRY_1DB;

	memset(im, 0, sizeof(*im));
	im->desc.geometry = g;
	im->desc.width = w;
	im->desc.height = one_d ? 0 : h;
	im->desc.depth = g == HSA_EXT_IMAGE_GEOMETRY_3D ? d : 0;
	im->desc.array_size = (g == HSA_EXT_IMAGE_GEOMETRY_1DA || g == HSA_EXT_IMAGE_GEOMETRY_2DA) ? d : 0;
	im->desc.format.channel_order = f->order;
	im->desc.format.channel_type = f->type;
	/* linear: rows of a multiple of 256 bytes (GFX9's linear pitch
	 * alignment, which ROCr requires the given pitch to match) */
	size_t row = ((size_t)w * f->bytes + 255) & ~(size_t)255;
	size_t slice = one_d ? row : row * h;
	if (linear_layout) {
		ck_hsa(hsa_ext_image_data_get_info_with_layout(gpu, &im->desc, HSA_ACCESS_PERMISSION_RW,
							       HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, row,
							       slice, &info));
	} else {
		ck_hsa(hsa_ext_image_data_get_info(gpu, &im->desc, HSA_ACCESS_PERMISSION_RW, &info));
	}
	ck_hsa(hsa_amd_memory_pool_allocate(vram_pool, info.size + info.alignment, 0, &im->mem));
	uintptr_t a = ((uintptr_t)im->mem + info.alignment - 1) & ~(uintptr_t)(info.alignment - 1);
	if (linear_layout)
		ck_hsa(hsa_ext_image_create_with_layout(gpu, &im->desc, (void *)a, HSA_ACCESS_PERMISSION_RW,
							HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, row, slice,
							&im->handle));
	else
		ck_hsa(hsa_ext_image_create(gpu, &im->desc, (void *)a, HSA_ACCESS_PERMISSION_RW,
					    &im->handle));
	im->m.type = model_type(g);
	im->m.nfmt = f->nfmt;
	im->m.sel = f->sel;
	im->m.w = w;
	im->m.h = one_d ? 1 : h;
	im->m.d = d;
	im->m.pitch = w;
	im->m.bytes = f->bytes;
	im->m.comps = f->comps;
	im->m.bits = f->bytes * 8 / f->comps;
	im->bytes = (size_t)w * im->m.h * d * f->bytes;
	im->m.data = sys_alloc(im->bytes);
}

static void pimg_destroy(struct pimg *im)
{
	ck_hsa(hsa_ext_image_destroy(gpu, im->handle));
	hsa_amd_memory_pool_free(im->mem);
	hsa_amd_memory_pool_free(im->m.data);
}

static hsa_ext_image_region_t whole(const struct pimg *im)
{
	hsa_ext_image_region_t r;
	memset(&r, 0, sizeof(r));
	r.range.x = im->m.w;
	r.range.y = im->m.type == T1DA ? im->m.d : im->m.h;
	r.range.z = im->m.type == T3D || im->m.type == T2DA ? im->m.d : 1;
	return r;
}

static void pimg_import(struct pimg *im)
{
	hsa_ext_image_region_t r = whole(im);
	size_t row = (size_t)im->m.w * im->m.bytes;
	ck_hsa(hsa_ext_image_import(gpu, im->m.data, row, row * im->m.h, im->handle, &r));
}

static void pimg_export(struct pimg *im, uint8_t *dst)
{
	hsa_ext_image_region_t r = whole(im);
	size_t row = (size_t)im->m.w * im->m.bytes;
	ck_hsa(hsa_ext_image_export(gpu, im->handle, dst, row, row * im->m.h, &r));
}

/* Random texels (finite halves and floats, no most-negative SNORM code:
 * it reads -1.0 and stores back as -max). */
static void fill_random(struct img_model *m, size_t bytes)
{
	for (size_t i = 0; i < bytes; i++)
		m->data[i] = (uint8_t)rnd();
	if (m->nfmt == FLOAT && m->bits == 16)
		for (size_t i = 1; i < bytes; i += 2)
			m->data[i] &= 0x5b;
	else if (m->nfmt == FLOAT)
		for (size_t i = 3; i < bytes; i += 4)
			m->data[i] &= 0x3f;
	else if (m->nfmt == SNORM)
		for (size_t i = m->bits / 8 - 1; i < bytes; i += m->bits / 8)
			if (m->data[i] == 0x80)
				m->data[i] = 0x81;
}

static void check_copy(const char *kernel, hsa_ext_image_geometry_t g, const struct fmt *f,
		       uint32_t w, uint32_t h, uint32_t d)
{
	struct pimg a, b;
	uint8_t *back;

	pimg_create(&a, g, f, w, h, d);
	pimg_create(&b, g, f, w, h, d);
	fill_random(&a.m, a.bytes);
	pimg_import(&a);
	memset(b.m.data, 0xcd, b.bytes);
	pimg_import(&b);
	uint64_t args[2] = { a.handle.handle, b.handle.handle };
	hsa_ext_image_region_t r = whole(&a);
	ip_run(&K, kernel, args, 2, (uint32_t)r.range.x, (uint32_t)r.range.y, (uint32_t)r.range.z);
	back = sys_alloc(b.bytes);
	pimg_export(&b, back);
	for (size_t i = 0; i < a.bytes; i++)
		ck_assert_msg(back[i] == a.m.data[i],
			      "%s order %d type %d geometry %d: byte %zu (texel %zu) = 0x%02x, expected 0x%02x",
			      kernel, f->order, f->type, g, i, i / f->bytes, back[i], a.m.data[i]);
	hsa_amd_memory_pool_free(back);
	pimg_destroy(&a);
	pimg_destroy(&b);
}

START_TEST(copy_2d_formats)
{
	check_copy("copy_2d", HSA_EXT_IMAGE_GEOMETRY_2D, &RGBA8, 33, 7, 1);
	check_copy("copy_2d", HSA_EXT_IMAGE_GEOMETRY_2D, &BGRA8, 20, 9, 1);
	check_copy("copy_2d", HSA_EXT_IMAGE_GEOMETRY_2D, &R32F, 70, 3, 1);
	check_copy("copy_2d", HSA_EXT_IMAGE_GEOMETRY_2D, &RG16S, 9, 4, 1);
	check_copy("copy_2d", HSA_EXT_IMAGE_GEOMETRY_2D, &RGBA16F, 13, 5, 1);
	check_copy("copy_2d", HSA_EXT_IMAGE_GEOMETRY_2D, &RG8, 64, 64, 1);
	check_copy("copy_2d_depth", HSA_EXT_IMAGE_GEOMETRY_2DDEPTH, &DEPTH16, 21, 5, 1);
	check_copy("copy_2d_depth", HSA_EXT_IMAGE_GEOMETRY_2DDEPTH, &DEPTH32F, 9, 9, 1);
	check_copy("copy_2d_i", HSA_EXT_IMAGE_GEOMETRY_2D, &RGBA8I, 11, 3, 1);
	check_copy("copy_2d_ui", HSA_EXT_IMAGE_GEOMETRY_2D, &RGBA32UI, 7, 6, 1);
}
END_TEST

START_TEST(copy_1d_3d_arrays)
{
	check_copy("copy_1d", HSA_EXT_IMAGE_GEOMETRY_1D, &RGBA8, 100, 1, 1);
	check_copy("copy_1d", HSA_EXT_IMAGE_GEOMETRY_1D, &R32F, 33, 1, 1);
	check_copy("copy_3d", HSA_EXT_IMAGE_GEOMETRY_3D, &RG8, 9, 5, 4);
	check_copy("copy_3d", HSA_EXT_IMAGE_GEOMETRY_3D, &RGBA16F, 16, 16, 4);
	check_copy("copy_1da", HSA_EXT_IMAGE_GEOMETRY_1DA, &RGBA8, 30, 1, 3);
	/* 1-D buffer images: a V#, buffer_load/store_format_xyzw */
	check_copy("copy_1db", HSA_EXT_IMAGE_GEOMETRY_1DB, &BGRA8, 100, 1, 1);
	check_copy("copy_1db", HSA_EXT_IMAGE_GEOMETRY_1DB, &RGBA16F, 33, 1, 1);
	check_copy("copy_2da", HSA_EXT_IMAGE_GEOMETRY_2DA, &BGRA8, 10, 6, 3);
}
END_TEST

#define NS 128

/* Sampled reads of one image with every sampler, against the model. */
static void check_sample(const char *kernel, hsa_ext_image_geometry_t g, const struct fmt *f,
			 uint32_t w, uint32_t h, uint32_t d, unsigned dims, unsigned ncoord)
{
	static const struct {
		hsa_ext_sampler_addressing_mode_t hsa;
		unsigned hw;    /* SQ_TEX_CLAMP */
	} modes[4] = {
		{ HSA_EXT_SAMPLER_ADDRESSING_MODE_REPEAT, 0 },
		{ HSA_EXT_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT, 1 },
		{ HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE, 2 },
		{ HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_BORDER, 6 },
	};
	struct pimg im;
	float *coord, *out;
	uint32_t n[3] = { w, h, d };

	pimg_create(&im, g, f, w, h, d);
	fill_random(&im.m, im.bytes);
	pimg_import(&im);
	coord = sys_alloc(NS * 16);
	out = sys_alloc(NS * 16);
	for (unsigned mi = 0; mi < 4; mi++)
		for (unsigned lin = 0; lin < 2; lin++)
			for (unsigned un = 0; un < 2; un++) {
				hsa_ext_sampler_descriptor_t sd = {
					.coordinate_mode = un ? HSA_EXT_SAMPLER_COORDINATE_MODE_UNNORMALIZED
							      : HSA_EXT_SAMPLER_COORDINATE_MODE_NORMALIZED,
					.filter_mode = lin ? HSA_EXT_SAMPLER_FILTER_MODE_LINEAR
							   : HSA_EXT_SAMPLER_FILTER_MODE_NEAREST,
					.address_mode = modes[mi].hsa,
				};
				hsa_ext_sampler_t s;
				/* repeat modes need normalized coordinates (HSA) */
				if (un && modes[mi].hw < 2)
					continue;
				ck_hsa(hsa_ext_sampler_create(gpu, &sd, &s));
				for (unsigned i = 0; i < NS; i++)
					for (unsigned k = 0; k < ncoord; k++) {
						uint32_t span = k < dims ? n[k] : d;
						float t = (float)((int)(rnd() % (4 * span)) - (int)(3 * span / 2)) +
							  0.05f + 0.9f * (float)(rnd() % 1000) / 1000;
						if (k >= dims)
							t = (float)(rnd() % (d + 2)) - 1.0f + 0.25f;
						coord[i * ncoord + k] = k >= dims || un ? t : t / (float)span;
					}
				uint64_t args[4] = { im.handle.handle, s.handle, (uint64_t)(uintptr_t)coord,
						     (uint64_t)(uintptr_t)out };
				ip_run(&K, kernel, args, 4, NS, 1, 1);
				for (unsigned i = 0; i < NS; i++) {
					float want[4];
					model_sample(&im.m, modes[mi].hw, lin, un, coord + i * ncoord, dims, want);
					for (unsigned c = 0; c < 4; c++) {
						float got = out[4 * i + c];
						ck_assert_msg(fabsf(got - want[c]) <= 1e-5f * (1 + fabsf(want[c])),
							      "%s order %d type %d mode %u %s %s coord (%a %a %a) c%u: %a, expected %a",
							      kernel, f->order, f->type, modes[mi].hw,
							      lin ? "linear" : "nearest", un ? "unnormalized" : "normalized",
							      coord[i * ncoord], ncoord > 1 ? coord[i * ncoord + 1] : 0.0f,
							      ncoord > 2 ? coord[i * ncoord + 2] : 0.0f, c, got, want[c]);
					}
				}
				ck_hsa(hsa_ext_sampler_destroy(gpu, s));
			}
	hsa_amd_memory_pool_free(coord);
	hsa_amd_memory_pool_free(out);
	pimg_destroy(&im);
}

START_TEST(sample_2d)
{
	check_sample("sample_2d", HSA_EXT_IMAGE_GEOMETRY_2D, &RGBA8, 5, 3, 1, 2, 2);
	check_sample("sample_2d", HSA_EXT_IMAGE_GEOMETRY_2D, &R32F, 7, 4, 1, 2, 2);
	check_sample("sample_2d", HSA_EXT_IMAGE_GEOMETRY_2D, &BGRA8, 4, 4, 1, 2, 2);
}
END_TEST

START_TEST(sample_1d_3d_array)
{
	check_sample("sample_1d", HSA_EXT_IMAGE_GEOMETRY_1D, &RGBA16F, 9, 1, 1, 1, 1);
	check_sample("sample_3d", HSA_EXT_IMAGE_GEOMETRY_3D, &RG8, 4, 3, 3, 3, 4);
	check_sample("sample_2da", HSA_EXT_IMAGE_GEOMETRY_2DA, &RGBA8, 4, 4, 3, 2, 4);
}
END_TEST

static Suite *image_peer_suite(void)
{
	Suite *s = suite_create("image_peer");
	TCase *tc = tcase_create("image_peer");
	tcase_add_unchecked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, copy_2d_formats);
	tcase_add_test(tc, copy_1d_3d_arrays);
	tcase_add_test(tc, sample_2d);
	tcase_add_test(tc, sample_1d_3d_array);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(image_peer_suite)
