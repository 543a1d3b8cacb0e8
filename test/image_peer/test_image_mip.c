/*
 * test_image_mip.c — mipmapped arrays (hsa_ext_image_create_v2 with
 * mipmap_levels > 1) end to end on kfdemu (mi210): hsalite lays the chain
 * out and writes its T# (src/image), kfdemu's MIMG path reads the T# and
 * addresses the levels (emu/isa/isa_exec_mimg.c): two implementations of
 * GFX9's linear mip rule, checked here against a third, this file's model
 * of addrlib's layout (rows of level 0's width aligned to 256 bytes, level
 * l from row sum(h_i, i < l) of each layer, h_0 the height, 1 for a 1-D
 * chain, then halves rounded up; a 3-D chain: the same per depth slice,
 * level 0's depth slices kept at every level).  2D, 2DA and 3D chains are
 * linear too on gfx90a (hsalite's choice where ROCr would tile them).
 *
 * The kernels (test/isa/kernels/image.cl: mip_copy_1d, _1da, _2d, _2da,
 * _3d) copy level `lod` of one chain to the same level of another with
 * image_load_mip / image_store_mip; a level image
 * (hsa_ext_image_mipmap_array_get_level) with lod 0 addresses its level
 * through BASE_LEVEL.  Levels are filled with hsa_ext_image_import through
 * level images and checked in the chain's raw bytes.  No ROCr the
 * repository runs has these calls (ROCr 1.18 predates them): hsalite only.
 * Skips (77) without a gfx90a GPU or the image extension (ip_kernels.h).
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsa/hsa_ext_image.h>

#include "hl_check.h"
#include "hl_hsa.h"
#include "ip_kernels.h"

static hsa_agent_t gpu;
static hsa_amd_memory_pool_t vram_pool;
static struct ip_kernels K;

static void setup(void)
{
	struct hl_pools pools;

	ip_setup(&K, "image_mip", &pools);
	gpu = K.gpu;
	vram_pool = pools.vram;
}

static void teardown(void)
{
	ip_teardown(&K);
}

/* Dispatch `name`(src, dst, lod) on a gx x gy x gz grid and wait for it. */
static void run(const char *name, hsa_ext_image_t src, hsa_ext_image_t dst, uint32_t lod,
		uint32_t gx, uint32_t gy, uint32_t gz)
{
	const uint64_t args[3] = { src.handle, dst.handle, lod };

	ip_run(&K, name, args, 3, gx, gy, gz);
}

/* ---- a chain and its model ---- */

static const hsa_ext_image_format_t r32ui = { HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT32,
					      HSA_EXT_IMAGE_CHANNEL_ORDER_R };

struct chain {
	hsa_ext_image_descriptor_v2_t d;
	uint32_t height;        /* 1 for 1D and 1DA */
	uint32_t layers;        /* 1 for 1D and 2D; the depth of 3D */
	size_t size;
	void *mem;
	hsa_ext_image_t img;
};

static uint32_t level_width(const struct chain *c, uint32_t l)
{
	uint32_t w = (uint32_t)c->d.width >> l;
	return w ? w : 1;
}

static uint32_t level_height(const struct chain *c, uint32_t l)
{
	uint32_t h = c->height >> l;
	return h ? h : 1;
}

/* Rows of a layer before level l: the levels' heights, each the one
 * before halved and rounded up (1 a level for a 1-D chain). */
static size_t rows_before(const struct chain *c, uint32_t l)
{
	size_t rows = 0;
	uint32_t h = c->height;
	for (uint32_t i = 0; i < l; i++) {
		rows += h;
		h = (h + 1) / 2;
	}
	return rows;
}

/* addrlib's linear chain: 4-byte texels, rows of the width aligned to 256
 * bytes, a layer the rows of every level (rows_before(levels)), level l
 * from row rows_before(l) of each layer. */
static size_t texel_off(const struct chain *c, uint32_t l, uint32_t x, uint32_t y,
			uint32_t layer)
{
	const size_t row = ((c->d.width * 4 + 255) / 256) * 256;
	const size_t layer_rows = rows_before(c, (uint32_t)c->d.mipmap_levels);
	return ((size_t)layer * layer_rows + rows_before(c, l) + y) * row + (size_t)x * 4;
}

static bool is_array(hsa_ext_image_geometry_t g)
{
	return g == HSA_EXT_IMAGE_GEOMETRY_1DA || g == HSA_EXT_IMAGE_GEOMETRY_2DA;
}

static bool is_2d(hsa_ext_image_geometry_t g)
{
	return g == HSA_EXT_IMAGE_GEOMETRY_2D || g == HSA_EXT_IMAGE_GEOMETRY_2DA ||
	       g == HSA_EXT_IMAGE_GEOMETRY_3D;
}

/* The layers of level l, or its depth slices (3D: halved, at least 1;
 * the chain keeps level 0's depth slices at every level). */
static uint32_t level_layers(const struct chain *c, uint32_t l)
{
	if (c->d.geometry != HSA_EXT_IMAGE_GEOMETRY_3D)
		return c->layers;
	uint32_t d = c->layers >> l;
	return d ? d : 1;
}

/* A chain of width x height (2D, 2DA, 3D) x layers (1DA, 2DA; the depth
 * of 3D), r32ui. */
static void chain_create(struct chain *c, hsa_ext_image_geometry_t g, size_t width,
			 size_t height, size_t layers, size_t levels)
{
	hsa_ext_image_data_info_t info;
	memset(c, 0, sizeof(*c));
	const bool is3d = g == HSA_EXT_IMAGE_GEOMETRY_3D;
	c->d = (hsa_ext_image_descriptor_v2_t){ g, width, is_2d(g) ? height : 0,
		is3d ? layers : 0, is_array(g) ? layers : 0, r32ui, levels };
	c->height = is_2d(g) ? (uint32_t)height : 1;
	c->layers = is_array(g) || is3d ? (uint32_t)layers : 1;
	ck_hsa(hsa_ext_image_data_get_info_v2(gpu, &c->d, HSA_ACCESS_PERMISSION_RW, &info));
	ck_assert_uint_eq(info.size, texel_off(c, 0, 0, 0, c->layers));
	ck_assert_uint_eq(info.alignment, 256);
	c->size = info.size;
	ck_hsa(hsa_amd_memory_pool_allocate(vram_pool, info.size, 0, &c->mem));
	uint8_t *zero = calloc(1, info.size);
	ck_assert_ptr_nonnull(zero);
	ck_hsa(hsa_memory_copy(c->mem, zero, info.size));
	free(zero);
	ck_hsa(hsa_ext_image_create_v2(gpu, &c->d, c->mem, HSA_ACCESS_PERMISSION_RW, &c->img));
}

static void chain_destroy(struct chain *c)
{
	ck_hsa(hsa_ext_image_destroy_v2(gpu, c->img));
	ck_hsa(hsa_amd_memory_pool_free(c->mem));
}

/* x < 1024, y < 1024, layer < 64, l < 16 */
static uint32_t pattern(uint32_t l, uint32_t x, uint32_t y, uint32_t layer)
{
	return 0x80000000u | l << 26 | layer << 20 | y << 10 | x;
}

/* The region of level l of c in its level image: (x, y, z) with the
 * layers in y for a 1DA chain and in z for a 2DA one (3D: its depth). */
static hsa_ext_image_region_t level_region(const struct chain *c, uint32_t l)
{
	const bool one_d = !is_2d(c->d.geometry);
	hsa_ext_image_region_t r = { { 0, 0, 0 }, { level_width(c, l),
		one_d ? c->layers : level_height(c, l), one_d ? 1 : level_layers(c, l) } };
	return r;
}

/* Every level of c filled through its level image (import), then the
 * chain's bytes checked against the model. */
static void chain_fill(struct chain *c)
{
	for (uint32_t l = 0; l < c->d.mipmap_levels; l++) {
		const uint32_t w = level_width(c, l), h = level_height(c, l);
		uint32_t *buf = malloc((size_t)w * h * level_layers(c, l) * 4);
		ck_assert_ptr_nonnull(buf);
		for (uint32_t s = 0; s < level_layers(c, l); s++)
			for (uint32_t y = 0; y < h; y++)
				for (uint32_t x = 0; x < w; x++)
					buf[(s * h + y) * w + x] = pattern(l, x, y, s);
		hsa_ext_image_t v;
		ck_hsa(hsa_ext_image_mipmap_array_get_level(gpu, &c->img, l, NULL, &v));
		hsa_ext_image_region_t r = level_region(c, l);
		ck_hsa(hsa_ext_image_import(gpu, buf, 0, 0, v, &r));
		/* a region past the level's extent is refused */
		r.range.x = w + 1;
		ck_status(hsa_ext_image_import(gpu, buf, 0, 0, v, &r),
			  HSA_STATUS_ERROR_INVALID_ARGUMENT);
		ck_hsa(hsa_ext_image_destroy_v2(gpu, v));
		free(buf);
	}
}

/* The chain's bytes: level l (all when l < 0) as the pattern, the other
 * texels of the chain 0. */
static void chain_expect(const struct chain *c, int only)
{
	uint8_t *raw = malloc(c->size);
	ck_assert_ptr_nonnull(raw);
	ck_hsa(hsa_memory_copy(raw, c->mem, c->size));
	for (uint32_t l = 0; l < c->d.mipmap_levels; l++)
		for (uint32_t s = 0; s < level_layers(c, l); s++)
			for (uint32_t y = 0; y < level_height(c, l); y++)
				for (uint32_t x = 0; x < level_width(c, l); x++) {
					const size_t off = texel_off(c, l, x, y, s);
					uint32_t got, want = only < 0 || (uint32_t)only == l ?
						pattern(l, x, y, s) : 0;
					memcpy(&got, raw + off, 4);
					ck_assert_msg(got == want, "level %u layer %u (%u, %u) (byte %zu): "
						      "0x%08x, want 0x%08x", l, s, x, y, off, got, want);
				}
	free(raw);
}

/* ---- tests ---- */

/* Import through level images lands where addrlib's layout puts each
 * level; export through them reads it back. */
static void import_export(hsa_ext_image_geometry_t g, size_t width, size_t height,
			  size_t layers, size_t levels)
{
	struct chain c;
	chain_create(&c, g, width, height, layers, levels);
	chain_fill(&c);
	chain_expect(&c, -1);
	for (uint32_t l = 0; l < levels; l++) {
		const uint32_t w = level_width(&c, l), h = level_height(&c, l);
		uint32_t *out = calloc((size_t)w * h * level_layers(&c, l), 4);
		ck_assert_ptr_nonnull(out);
		hsa_ext_image_t v;
		ck_hsa(hsa_ext_image_mipmap_array_get_level(gpu, &c.img, l, NULL, &v));
		hsa_ext_image_region_t r = level_region(&c, l);
		ck_hsa(hsa_ext_image_export(gpu, v, out, 0, 0, &r));
		for (uint32_t s = 0; s < level_layers(&c, l); s++)
			for (uint32_t y = 0; y < h; y++)
				for (uint32_t x = 0; x < w; x++)
					ck_assert_uint_eq(out[(s * h + y) * w + x], pattern(l, x, y, s));
		ck_hsa(hsa_ext_image_destroy_v2(gpu, v));
		free(out);
	}
	chain_destroy(&c);
}

START_TEST(levels_import_export)
{
	import_export(HSA_EXT_IMAGE_GEOMETRY_1DA, 40, 1, 3, 6);
}
END_TEST

/* 20 x 13: levels of 13, 7, 4, 2, 1 rows (rounded-up halves) holding
 * 13, 6, 3, 1, 1 texel rows (the extents round down). */
START_TEST(levels_import_export_2d)
{
	import_export(HSA_EXT_IMAGE_GEOMETRY_2D, 20, 13, 1, 5);
	import_export(HSA_EXT_IMAGE_GEOMETRY_2DA, 20, 13, 3, 5);
	/* rows of 70 texels: 512 bytes */
	import_export(HSA_EXT_IMAGE_GEOMETRY_2DA, 70, 9, 2, 7);
}
END_TEST

/* 20 x 13 x 6: depth 6, 3, 1, 1, 1 at the levels, each depth slice of the
 * chain holding every level's rows. */
START_TEST(levels_import_export_3d)
{
	import_export(HSA_EXT_IMAGE_GEOMETRY_3D, 20, 13, 6, 5);
}
END_TEST

/* The grid of level l: (x, layer) for a 1-D array, (x, y, layer) for a
 * 2-D one. */
static void run_level(const char *kernel, const struct chain *c, hsa_ext_image_t src,
		      hsa_ext_image_t dst, uint32_t lod, uint32_t l)
{
	const hsa_ext_image_region_t r = level_region(c, l);
	run(kernel, src, dst, lod, r.range.x, r.range.y, r.range.z);
}

/* image_load_mip / image_store_mip at each level >= 1 through the chains'
 * T#s: level l of the destination gets the source's, level 0 and the
 * levels not yet copied stay 0. */
static void copy_levels(hsa_ext_image_geometry_t g, const char *kernel, size_t width,
			size_t height, size_t layers, size_t levels)
{
	struct chain a, b;
	chain_create(&a, g, width, height, layers, levels);
	chain_create(&b, g, width, height, layers, levels);
	chain_fill(&a);
	for (uint32_t l = 1; l < levels; l++)
		run_level(kernel, &a, a.img, b.img, l, l);
	uint8_t *rb = malloc(b.size);
	ck_assert_ptr_nonnull(rb);
	ck_hsa(hsa_memory_copy(rb, b.mem, b.size));
	for (uint32_t l = 0; l < levels; l++)
		for (uint32_t s = 0; s < level_layers(&b, l); s++)
			for (uint32_t y = 0; y < level_height(&b, l); y++)
				for (uint32_t x = 0; x < level_width(&b, l); x++) {
					uint32_t got;
					memcpy(&got, rb + texel_off(&b, l, x, y, s), 4);
					ck_assert_msg(got == (l ? pattern(l, x, y, s) : 0),
						      "%s level %u layer %u (%u, %u): 0x%08x", kernel, l,
						      s, x, y, got);
				}
	free(rb);
	chain_destroy(&a);
	chain_destroy(&b);
}

START_TEST(kernel_copy_levels_1d)
{
	copy_levels(HSA_EXT_IMAGE_GEOMETRY_1D, "mip_copy_1d", 50, 1, 1, 6);
}
END_TEST

START_TEST(kernel_copy_levels_1da)
{
	copy_levels(HSA_EXT_IMAGE_GEOMETRY_1DA, "mip_copy_1da", 40, 1, 3, 6);
}
END_TEST

START_TEST(kernel_copy_levels_2d)
{
	copy_levels(HSA_EXT_IMAGE_GEOMETRY_2D, "mip_copy_2d", 20, 13, 1, 5);
	copy_levels(HSA_EXT_IMAGE_GEOMETRY_2D, "mip_copy_2d", 70, 9, 1, 7);
}
END_TEST

START_TEST(kernel_copy_levels_2da)
{
	copy_levels(HSA_EXT_IMAGE_GEOMETRY_2DA, "mip_copy_2da", 20, 13, 3, 5);
}
END_TEST

START_TEST(kernel_copy_levels_3d)
{
	copy_levels(HSA_EXT_IMAGE_GEOMETRY_3D, "mip_copy_3d", 20, 13, 6, 5);
}
END_TEST

/* A level image's T# (BASE_LEVEL = LAST_LEVEL = l): the kernel at lod 0
 * copies level l only; lod 1 is outside the view (loads read 0, stores
 * are dropped: nothing changes). */
static void level_images(hsa_ext_image_geometry_t g, const char *kernel, size_t width,
			 size_t height, size_t layers, size_t levels)
{
	struct chain a, b;
	chain_create(&a, g, width, height, layers, levels);
	chain_create(&b, g, width, height, layers, levels);
	chain_fill(&a);
	hsa_ext_image_t va, vb;
	ck_hsa(hsa_ext_image_mipmap_array_get_level(gpu, &a.img, 2, NULL, &va));
	ck_hsa(hsa_ext_image_mipmap_array_get_level(gpu, &b.img, 2, NULL, &vb));
	run_level(kernel, &a, va, vb, 0, 2);
	run_level(kernel, &a, va, vb, 1, 3);
	chain_expect(&b, 2);
	ck_hsa(hsa_ext_image_destroy_v2(gpu, va));
	ck_hsa(hsa_ext_image_destroy_v2(gpu, vb));
	chain_destroy(&a);
	chain_destroy(&b);
}

START_TEST(kernel_level_images)
{
	level_images(HSA_EXT_IMAGE_GEOMETRY_1DA, "mip_copy_1da", 40, 1, 3, 6);
	level_images(HSA_EXT_IMAGE_GEOMETRY_2D, "mip_copy_2d", 20, 13, 1, 5);
	level_images(HSA_EXT_IMAGE_GEOMETRY_2DA, "mip_copy_2da", 20, 13, 3, 5);
	level_images(HSA_EXT_IMAGE_GEOMETRY_3D, "mip_copy_3d", 20, 13, 6, 5);
}
END_TEST

static Suite *image_mip_suite(void)
{
	Suite *s = suite_create("image_mip");
	TCase *tc = tcase_create("image_mip");
	tcase_add_unchecked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, levels_import_export);
	tcase_add_test(tc, levels_import_export_2d);
	tcase_add_test(tc, levels_import_export_3d);
	tcase_add_test(tc, kernel_copy_levels_1d);
	tcase_add_test(tc, kernel_copy_levels_1da);
	tcase_add_test(tc, kernel_copy_levels_2d);
	tcase_add_test(tc, kernel_copy_levels_2da);
	tcase_add_test(tc, kernel_copy_levels_3d);
	tcase_add_test(tc, kernel_level_images);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(image_mip_suite)
