/*
 * The image extension on hsalite (src/image), on kfdemu: the extension
 * table, statuses for mistakes, and import/export/copy/clear round trips
 * checked against a host reference.  The descriptor bytes are compared
 * with ROCr 5.2.3's by image_peer (image_dump on both runtimes).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hl_check.h"
#include "hl_hsa.h"
#include "hsa/hsa.h"
#include "hsa/hsa_ext_amd.h"
#include "hsa/hsa_ext_image.h"

static hsa_agent_t gpu, cpu;
static hsa_amd_memory_pool_t vram;

static hsa_status_t find_agents(hsa_agent_t a, void *data)
{
	(void)data;
	hsa_device_type_t t;
	hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t);
	if (t == HSA_DEVICE_TYPE_GPU && !gpu.handle)
		gpu = a;
	if (t == HSA_DEVICE_TYPE_CPU && !cpu.handle)
		cpu = a;
	return HSA_STATUS_SUCCESS;
}

static hsa_status_t find_vram(hsa_amd_memory_pool_t p, void *data)
{
	(void)data;
	uint32_t flags = 0;
	hsa_amd_segment_t seg;
	hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg);
	hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags);
	if (seg == HSA_AMD_SEGMENT_GLOBAL && (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED))
		vram = p;
	return HSA_STATUS_SUCCESS;
}

static void setup(void)
{
	gpu.handle = cpu.handle = vram.handle = 0;
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	hsa_iterate_agents(find_agents, NULL);
	ck_assert(gpu.handle && cpu.handle);
	hsa_amd_agent_iterate_memory_pools(gpu, find_vram, NULL);
	ck_assert(vram.handle);
}

static void teardown(void)
{
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

static void *gpu_alloc(size_t size)
{
	void *p = NULL;
	ck_status(hsa_amd_memory_pool_allocate(vram, size, 0, &p), HSA_STATUS_SUCCESS);
	return p;
}

static const hsa_ext_image_format_t rgba8 = { HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8,
					      HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA };

/* A linear image of desc on fresh VRAM with the layout's pitches. */
static hsa_ext_image_t make_linear(const hsa_ext_image_descriptor_t *desc, size_t row_pitch,
				   void **data)
{
	hsa_ext_image_data_info_t info;
	ck_status(hsa_ext_image_data_get_info_with_layout(gpu, desc, HSA_ACCESS_PERMISSION_RW,
							  HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR,
							  row_pitch, 0, &info),
		  HSA_STATUS_SUCCESS);
	*data = gpu_alloc(info.size);
	hsa_ext_image_t img;
	ck_status(hsa_ext_image_create_with_layout(gpu, desc, *data, HSA_ACCESS_PERMISSION_RW,
						   HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, row_pitch, 0,
						   &img),
		  HSA_STATUS_SUCCESS);
	return img;
}

START_TEST(extension_table)
{
	bool ok = false;
	ck_status(hsa_system_extension_supported(HSA_EXTENSION_IMAGES, 1, 0, &ok),
		  HSA_STATUS_SUCCESS);
	ck_assert(ok);
	ck_status(hsa_agent_extension_supported(HSA_EXTENSION_IMAGES, gpu, 1, 0, &ok),
		  HSA_STATUS_SUCCESS);
	ck_assert(ok);
	hsa_ext_images_1_pfn_t t;
	memset(&t, 0, sizeof(t));
	ck_status(hsa_system_get_major_extension_table(HSA_EXTENSION_IMAGES, 1, sizeof(t), &t),
		  HSA_STATUS_SUCCESS);
	ck_assert_ptr_eq((void *)t.hsa_ext_image_create, (void *)hsa_ext_image_create);
	ck_assert_ptr_eq((void *)t.hsa_ext_sampler_destroy, (void *)hsa_ext_sampler_destroy);
	ck_assert_ptr_eq((void *)t.hsa_ext_image_create_with_layout,
			 (void *)hsa_ext_image_create_with_layout);
	ck_status(hsa_system_get_major_extension_table(HSA_EXTENSION_IMAGES, 2, sizeof(t), &t),
		  HSA_STATUS_ERROR);
	uint32_t dims[3] = { 0, 0, 0 };
	ck_status(hsa_agent_get_info(gpu, (hsa_agent_info_t)HSA_EXT_AGENT_INFO_IMAGE_3D_MAX_ELEMENTS,
				     dims),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(dims[2], 8192);
	ck_status(hsa_agent_get_info(cpu, (hsa_agent_info_t)HSA_EXT_AGENT_INFO_IMAGE_2D_MAX_ELEMENTS,
				     dims),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(dims[0], 0);
}
END_TEST

START_TEST(statuses)
{
	hsa_agent_t none = { 0 };
	uint32_t cap = 1;
	hsa_ext_image_descriptor_t d = { HSA_EXT_IMAGE_GEOMETRY_2D, 64, 4, 0, 0, rgba8 };
	hsa_ext_image_data_info_t info;
	ck_status(hsa_ext_image_get_capability(none, HSA_EXT_IMAGE_GEOMETRY_2D, &rgba8, &cap),
		  HSA_STATUS_ERROR_INVALID_AGENT);
	ck_status(hsa_ext_image_get_capability(cpu, HSA_EXT_IMAGE_GEOMETRY_2D, &rgba8, &cap),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(cap, 0);
	/* Out of the enumerations: unsupported, not a crash. */
	hsa_ext_image_format_t odd = { 99, 99 };
	ck_status(hsa_ext_image_get_capability(gpu, HSA_EXT_IMAGE_GEOMETRY_2D, &odd, &cap),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(cap, 0);
	ck_status(hsa_ext_image_get_capability_with_layout(gpu, HSA_EXT_IMAGE_GEOMETRY_2D, &rgba8,
							   HSA_EXT_IMAGE_DATA_LAYOUT_OPAQUE, &cap),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_ext_image_data_get_info(cpu, &d, HSA_ACCESS_PERMISSION_RW, &info),
		  HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED);
	ck_status(hsa_ext_image_data_get_info(gpu, &d, (hsa_access_permission_t)7, &info),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	d.width = 16385;
	ck_status(hsa_ext_image_data_get_info_with_layout(gpu, &d, HSA_ACCESS_PERMISSION_RW,
							  HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, 0, 0,
							  &info),
		  HSA_EXT_STATUS_ERROR_IMAGE_SIZE_UNSUPPORTED);
	d.width = 64;
	/* 64 RGBA8 elements are 256 bytes: 512 is a pitch the layout does not
	 * give, 300 one addrlib refuses (not a multiple of 256). */
	ck_status(hsa_ext_image_data_get_info_with_layout(gpu, &d, HSA_ACCESS_PERMISSION_RW,
							  HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, 256, 0,
							  &info),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(info.size, 1024);
	ck_assert_uint_eq(info.alignment, 256);
	ck_status(hsa_ext_image_data_get_info_with_layout(gpu, &d, HSA_ACCESS_PERMISSION_RW,
							  HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, 256,
							  4096, &info),
		  HSA_EXT_STATUS_ERROR_IMAGE_PITCH_UNSUPPORTED);
	ck_status(hsa_ext_image_data_get_info_with_layout(gpu, &d, HSA_ACCESS_PERMISSION_RW,
							  HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, 300, 0,
							  &info),
		  HSA_STATUS_ERROR);

	char *data = gpu_alloc(4096);
	hsa_ext_image_t img;
	ck_status(hsa_ext_image_create_with_layout(gpu, &d, data + 16, HSA_ACCESS_PERMISSION_RW,
						   HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, 0, 0, &img),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_ext_image_create_with_layout(gpu, &d, data, HSA_ACCESS_PERMISSION_RW,
						   HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, 0, 0, &img),
		  HSA_STATUS_SUCCESS);
	hsa_ext_image_t bogus = { (uint64_t)(uintptr_t)data };
	ck_status(hsa_ext_image_destroy(gpu, bogus), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_ext_image_destroy(none, img), HSA_STATUS_ERROR_INVALID_AGENT);
	ck_status(hsa_ext_image_destroy(gpu, img), HSA_STATUS_SUCCESS);
	ck_status(hsa_ext_image_destroy(gpu, img), HSA_STATUS_ERROR_INVALID_ARGUMENT);

	hsa_ext_sampler_descriptor_t sd = { HSA_EXT_SAMPLER_COORDINATE_MODE_NORMALIZED,
					    HSA_EXT_SAMPLER_FILTER_MODE_LINEAR,
					    HSA_EXT_SAMPLER_ADDRESSING_MODE_REPEAT };
	hsa_ext_sampler_t s;
	ck_status(hsa_ext_sampler_create(cpu, &sd, &s), HSA_STATUS_ERROR_INVALID_AGENT);
	sd.filter_mode = (hsa_ext_sampler_filter_mode32_t)2;
	ck_status(hsa_ext_sampler_create(gpu, &sd, &s),
		  HSA_EXT_STATUS_ERROR_SAMPLER_DESCRIPTOR_UNSUPPORTED);
	sd.filter_mode = HSA_EXT_SAMPLER_FILTER_MODE_LINEAR;
	ck_status(hsa_ext_sampler_create(gpu, &sd, &s), HSA_STATUS_SUCCESS);
	const uint32_t *w = (const uint32_t *)(uintptr_t)s.handle;
	ck_assert_uint_eq(w[2], 0x500000);
	ck_status(hsa_ext_sampler_destroy(gpu, s), HSA_STATUS_SUCCESS);
	ck_status(hsa_ext_sampler_destroy(gpu, s), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_memory_pool_free(data), HSA_STATUS_SUCCESS);

	/* The opaque layout of a 2D image is tiled: 4KB_D_X, 32x32 blocks of
	 * 4-byte elements. */
	d.width = 33;
	d.height = 7;
	ck_status(hsa_ext_image_data_get_info(gpu, &d, HSA_ACCESS_PERMISSION_RW, &info),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(info.size, 8192);
	ck_assert_uint_eq(info.alignment, 4096);
	data = gpu_alloc(info.size);
	ck_status(hsa_ext_image_create(gpu, &d, data, HSA_ACCESS_PERMISSION_RW, &img),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_eq((((const uint32_t *)(uintptr_t)img.handle)[3] >> 20) & 31, 22);
	ck_status(hsa_ext_image_destroy(gpu, img), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(data), HSA_STATUS_SUCCESS);
}
END_TEST

/* Import a pattern with one buffer pitch, export with another: the
 * elements come back; a sub-region import changes only that region. */
START_TEST(import_export_round_trip)
{
	hsa_ext_image_descriptor_t d = { HSA_EXT_IMAGE_GEOMETRY_2DA, 33, 7, 0, 3, rgba8 };
	void *data;
	hsa_ext_image_t img = make_linear(&d, 256, &data);
	const size_t in_row = 33 * 4 + 12, in_slice = in_row * 7 + 40;
	static uint8_t in[(33 * 4 + 12) * 7 * 3 + 200], out[33 * 4 * 7 * 3];
	for (size_t i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)(i * 7 + 1);
	hsa_ext_image_region_t all = { { 0, 0, 0 }, { 33, 7, 3 } };
	ck_status(hsa_ext_image_import(gpu, in, in_row, in_slice, img, &all), HSA_STATUS_SUCCESS);
	ck_status(hsa_ext_image_export(gpu, img, out, 0, 0, &all), HSA_STATUS_SUCCESS);
	for (size_t z = 0; z < 3; z++)
		for (size_t y = 0; y < 7; y++)
			ck_assert_mem_eq(out + (z * 7 + y) * 33 * 4, in + z * in_slice + y * in_row,
					 33 * 4);
	/* The linear layout itself: element (x, y, layer) at layer * slice +
	 * y * 256 + x * 4. */
	const uint8_t *raw = data;
	ck_assert_mem_eq(raw + 2 * 256 * 7 + 5 * 256 + 9 * 4, in + 2 * in_slice + 5 * in_row + 9 * 4,
			 4);

	static uint8_t patch[4 * 4 * 2];
	memset(patch, 0xab, sizeof(patch));
	hsa_ext_image_region_t part = { { 10, 3, 1 }, { 4, 2, 1 } };
	ck_status(hsa_ext_image_import(gpu, patch, 0, 0, img, &part), HSA_STATUS_SUCCESS);
	ck_status(hsa_ext_image_export(gpu, img, out, 0, 0, &all), HSA_STATUS_SUCCESS);
	for (size_t z = 0; z < 3; z++)
		for (size_t y = 0; y < 7; y++)
			for (size_t x = 0; x < 33; x++) {
				bool inside = z == 1 && y >= 3 && y < 5 && x >= 10 && x < 14;
				const uint8_t *o = out + ((z * 7 + y) * 33 + x) * 4;
				const uint8_t *e = inside ? patch
							  : in + z * in_slice + y * in_row + x * 4;
				ck_assert_msg(!memcmp(o, e, 4), "element %zu,%zu,%zu", x, y, z);
			}
	hsa_ext_image_region_t outside = { { 30, 0, 0 }, { 4, 1, 1 } };
	ck_status(hsa_ext_image_import(gpu, patch, 0, 0, img, &outside),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_ext_image_destroy(gpu, img), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(data), HSA_STATUS_SUCCESS);
}
END_TEST

/* Tiled images (the opaque layout): import, export, copy to a linear
 * image and clear give back the elements; the bytes sit where the GFX9
 * element order puts them (element (0, 1) of a 4-byte 4KB_D_X surface at
 * byte 16, (1, 0) at 4). */
static void tiled_case(hsa_ext_image_geometry_t g, hsa_ext_image_format_t f, size_t eb,
		       size_t w, size_t h, size_t n)
{
	hsa_ext_image_descriptor_t d = { g, w, h, g == HSA_EXT_IMAGE_GEOMETRY_3D ? n : 0,
					 g == HSA_EXT_IMAGE_GEOMETRY_2DA ? n : 0, f };
	hsa_ext_image_data_info_t info;
	ck_status(hsa_ext_image_data_get_info(gpu, &d, HSA_ACCESS_PERMISSION_RW, &info),
		  HSA_STATUS_SUCCESS);
	void *data = gpu_alloc(info.size + info.alignment);
	void *aligned = (void *)(((uintptr_t)data + info.alignment - 1) & ~(info.alignment - 1));
	hsa_ext_image_t img;
	ck_status(hsa_ext_image_create(gpu, &d, aligned, HSA_ACCESS_PERMISSION_RW, &img),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_ne((((const uint32_t *)(uintptr_t)img.handle)[3] >> 20) & 31, 0);
	const size_t row = w * eb, slice = row * h, total = slice * n;
	uint8_t *in = malloc(total), *out = malloc(total);
	ck_assert(in && out);
	for (size_t i = 0; i < total; i++)
		in[i] = (uint8_t)(i * 13 + i / 7 + 3);
	hsa_ext_image_region_t all = { { 0, 0, 0 }, { w, h, n } };
	ck_status(hsa_ext_image_import(gpu, in, 0, 0, img, &all), HSA_STATUS_SUCCESS);
	memset(out, 0, total);
	ck_status(hsa_ext_image_export(gpu, img, out, 0, 0, &all), HSA_STATUS_SUCCESS);
	ck_assert_msg(!memcmp(in, out, total), "geometry %d: export differs from import", g);
	if (g == HSA_EXT_IMAGE_GEOMETRY_2D && eb == 4) {
		const uint8_t *raw = aligned;
		ck_assert_mem_eq(raw + 4, in + 4, 4);
		ck_assert_mem_eq(raw + 16, in + row, 4);
	}

	/* to a linear image of the same format: its bytes are plain rows */
	hsa_ext_image_descriptor_t ld = d;
	void *lin_data;
	hsa_ext_image_t lin = make_linear(&ld, (row + 255) & ~(size_t)255, &lin_data);
	hsa_dim3_t zero = { 0, 0, 0 }, rng = { w, h, n };
	ck_status(hsa_ext_image_copy(gpu, img, &zero, lin, &zero, &rng), HSA_STATUS_SUCCESS);
	const size_t lrow = (row + 255) & ~(size_t)255;
	for (size_t z = 0; z < n; z++)
		for (size_t y = 0; y < h; y++)
			ck_assert_msg(!memcmp((uint8_t *)lin_data + (z * h + y) * lrow,
					      in + z * slice + y * row, row),
				      "geometry %d: linear copy row %zu slice %zu", g, y, z);

	/* clear a box inside, export, compare with the reference */
	uint32_t zero4[4] = { 0, 0, 0, 0 };
	hsa_ext_image_region_t box = { { 1, 1, n > 1 ? 1 : 0 }, { w - 2, h - 2, 1 } };
	ck_status(hsa_ext_image_clear(gpu, img, zero4, &box), HSA_STATUS_SUCCESS);
	for (size_t y = 1; y < h - 1; y++)
		memset(in + box.offset.z * slice + y * row + eb, 0, (w - 2) * eb);
	ck_status(hsa_ext_image_export(gpu, img, out, 0, 0, &all), HSA_STATUS_SUCCESS);
	ck_assert_msg(!memcmp(in, out, total), "geometry %d: after clear", g);
	ck_status(hsa_ext_image_destroy(gpu, lin), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(lin_data), HSA_STATUS_SUCCESS);
	ck_status(hsa_ext_image_destroy(gpu, img), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(data), HSA_STATUS_SUCCESS);
	free(in);
	free(out);
}

START_TEST(tiled_transfers)
{
	hsa_ext_image_format_t r8 = { HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT8,
				      HSA_EXT_IMAGE_CHANNEL_ORDER_R };
	hsa_ext_image_format_t rgba32f = { HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT,
					   HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA };
	tiled_case(HSA_EXT_IMAGE_GEOMETRY_2D, rgba8, 4, 33, 7, 1);      /* 4KB_D_X */
	tiled_case(HSA_EXT_IMAGE_GEOMETRY_2D, rgba8, 4, 300, 200, 1);   /* 64KB_D_X */
	tiled_case(HSA_EXT_IMAGE_GEOMETRY_2D, rgba32f, 16, 40, 9, 1);
	tiled_case(HSA_EXT_IMAGE_GEOMETRY_2DA, rgba8, 4, 33, 7, 3);
	tiled_case(HSA_EXT_IMAGE_GEOMETRY_3D, rgba8, 4, 33, 7, 5);      /* 4KB_Z_X */
	tiled_case(HSA_EXT_IMAGE_GEOMETRY_3D, r8, 1, 70, 40, 20);       /* 64KB_Z_X */
}
END_TEST

/* An opaque image of d on fresh GPU memory (data; aligned, the image's
 * start) and the AMD layout its T# gives (hsa_amd_image_descriptor_t:
 * version 1, the vendor/chip word, the T# with the address and the
 * swizzle's low byte taken out, which hsa_amd_image_create puts back). */
struct layout_ref {
	void *data, *aligned;
	hsa_ext_image_t ref;
	struct {
		uint32_t version, device, words[8];
	} layout;
};

static void layout_ref_make(const hsa_ext_image_descriptor_t *d, struct layout_ref *r)
{
	hsa_ext_image_data_info_t info;
	ck_status(hsa_ext_image_data_get_info(gpu, d, HSA_ACCESS_PERMISSION_RW, &info),
		  HSA_STATUS_SUCCESS);
	r->data = gpu_alloc(info.size + info.alignment);
	r->aligned = (void *)(((uintptr_t)r->data + info.alignment - 1) & ~(info.alignment - 1));
	ck_status(hsa_ext_image_create(gpu, d, r->aligned, HSA_ACCESS_PERMISSION_RW, &r->ref),
		  HSA_STATUS_SUCCESS);
	uint32_t chip = 0;
	ck_status(hsa_agent_get_info(gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_CHIP_ID, &chip),
		  HSA_STATUS_SUCCESS);
	r->layout.version = 1;
	r->layout.device = 0x1002u << 16 | chip;
	memcpy(r->layout.words, (const void *)(uintptr_t)r->ref.handle, sizeof(r->layout.words));
	r->layout.words[0] = 0;        /* the address is the data pointer's */
	r->layout.words[1] &= ~0xffu;
}

/* hsa_amd_image_create with the T# of an opaque image on the same data:
 * the same descriptor comes out (address, format and swizzle put back),
 * and transfers through it use the layout the T# names. */
START_TEST(amd_image_layout)
{
	hsa_ext_image_descriptor_t d = { HSA_EXT_IMAGE_GEOMETRY_2D, 300, 20, 0, 0, rgba8 };
	struct layout_ref r;
	layout_ref_make(&d, &r);
	void *data = r.data, *aligned = r.aligned;
	hsa_ext_image_t ref = r.ref;
	hsa_ext_image_t img;
	const hsa_amd_image_descriptor_t *l = (const hsa_amd_image_descriptor_t *)&r.layout;
	ck_status(hsa_amd_image_create(gpu, &d, l, (char *)aligned + 16, HSA_ACCESS_PERMISSION_RW,
				       &img),
		  HSA_STATUS_ERROR_INVALID_ALLOCATION);
	r.layout.version = 2;
	ck_status(hsa_amd_image_create(gpu, &d, l, aligned, HSA_ACCESS_PERMISSION_RW, &img),
		  HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED);
	r.layout.version = 1;
	ck_status(hsa_amd_image_create(gpu, &d, l, aligned, HSA_ACCESS_PERMISSION_RW, &img),
		  HSA_STATUS_SUCCESS);
	const uint32_t *wi = (const uint32_t *)(uintptr_t)img.handle;
	const uint32_t *wr = (const uint32_t *)(uintptr_t)ref.handle;
	ck_assert_mem_eq(wi, wr, 5 * sizeof(uint32_t));
	ck_assert_mem_eq(wi + 8, wr + 8, 3 * sizeof(uint32_t));
	/* ROCr makes the metadata offset (0 here) absolute: the base */
	ck_assert_uint_eq(wi[7], wr[0]);

	static uint8_t in[300 * 20 * 4], out[300 * 20 * 4];
	for (size_t i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)(i * 5 + 11);
	hsa_ext_image_region_t all = { { 0, 0, 0 }, { 300, 20, 1 } };
	ck_status(hsa_ext_image_import(gpu, in, 0, 0, img, &all), HSA_STATUS_SUCCESS);
	ck_status(hsa_ext_image_export(gpu, ref, out, 0, 0, &all), HSA_STATUS_SUCCESS);
	ck_assert_mem_eq(in, out, sizeof(in));

	/* a compressed surface's bytes are not its elements */
	r.layout.words[6] |= 1u << 21;
	hsa_ext_image_t comp;
	ck_status(hsa_amd_image_create(gpu, &d, l, aligned, HSA_ACCESS_PERMISSION_RW, &comp),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_ext_image_export(gpu, comp, out, 0, 0, &all), HSA_STATUS_ERROR_NOT_SUPPORTED);
	ck_status(hsa_ext_image_destroy(gpu, comp), HSA_STATUS_SUCCESS);
	ck_status(hsa_ext_image_destroy(gpu, img), HSA_STATUS_SUCCESS);
	ck_status(hsa_ext_image_destroy(gpu, ref), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(data), HSA_STATUS_SUCCESS);
}
END_TEST

/* Version 2 (AMD's newest header), single level (mipmap_levels 0 and 1):
 * the same size, alignment and descriptor as version 1's opaque calls,
 * and data through the image; ROCr's statuses (rocm-systems
 * hsa_ext_image.cpp): agent 0, NULL pointers; get_info_v2 leaves the
 * permission unchecked. */
START_TEST(v2_single_level)
{
	hsa_ext_image_descriptor_t d1 = { HSA_EXT_IMAGE_GEOMETRY_2D, 300, 20, 0, 0, rgba8 };
	hsa_ext_image_data_info_t i1, i2;
	ck_status(hsa_ext_image_data_get_info(gpu, &d1, HSA_ACCESS_PERMISSION_RW, &i1),
		  HSA_STATUS_SUCCESS);
	void *data = gpu_alloc(i1.size + i1.alignment);
	void *aligned = (void *)(((uintptr_t)data + i1.alignment - 1) & ~(i1.alignment - 1));
	hsa_ext_image_t ref;
	ck_status(hsa_ext_image_create(gpu, &d1, aligned, HSA_ACCESS_PERMISSION_RW, &ref),
		  HSA_STATUS_SUCCESS);
	for (size_t levels = 0; levels <= 1; levels++) {
		hsa_ext_image_descriptor_v2_t d2 = { HSA_EXT_IMAGE_GEOMETRY_2D, 300, 20, 0, 0,
						     rgba8, levels };
		memset(&i2, 0xff, sizeof(i2));
		ck_status(hsa_ext_image_data_get_info_v2(gpu, &d2, HSA_ACCESS_PERMISSION_RW, &i2),
			  HSA_STATUS_SUCCESS);
		ck_assert_uint_eq(i2.size, i1.size);
		ck_assert_uint_eq(i2.alignment, i1.alignment);
		/* no permission check in version 2 */
		ck_status(hsa_ext_image_data_get_info_v2(gpu, &d2, (hsa_access_permission_t)0, &i2),
			  HSA_STATUS_SUCCESS);
		ck_assert_uint_eq(i2.size, i1.size);
		hsa_ext_image_t img;
		ck_status(hsa_ext_image_create_v2(gpu, &d2, aligned, HSA_ACCESS_PERMISSION_RW, &img),
			  HSA_STATUS_SUCCESS);
		ck_assert_uint_ne(img.handle, ref.handle);
		ck_assert_mem_eq((const void *)(uintptr_t)img.handle,
				 (const void *)(uintptr_t)ref.handle, 12 * sizeof(uint32_t));
		static uint8_t in[300 * 20 * 4], out[300 * 20 * 4];
		for (size_t i = 0; i < sizeof(in); i++)
			in[i] = (uint8_t)(i * 3 + levels);
		hsa_ext_image_region_t all = { { 0, 0, 0 }, { 300, 20, 1 } };
		ck_status(hsa_ext_image_import(gpu, in, 0, 0, img, &all), HSA_STATUS_SUCCESS);
		ck_status(hsa_ext_image_export(gpu, ref, out, 0, 0, &all), HSA_STATUS_SUCCESS);
		ck_assert_mem_eq(in, out, sizeof(in));
		ck_status(hsa_ext_image_destroy_v2(gpu, img), HSA_STATUS_SUCCESS);
		ck_status(hsa_ext_image_destroy_v2(gpu, img), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	}
	/* An image made by version 1 is destroyed by version 2 too. */
	hsa_ext_image_descriptor_v2_t d2 = { HSA_EXT_IMAGE_GEOMETRY_2D, 300, 20, 0, 0, rgba8, 1 };
	hsa_ext_image_t img;
	hsa_agent_t none = { 0 };
	ck_status(hsa_ext_image_destroy_v2(none, ref), HSA_STATUS_ERROR_INVALID_AGENT);
	ck_status(hsa_ext_image_destroy_v2(gpu, ref), HSA_STATUS_SUCCESS);
	ck_status(hsa_ext_image_data_get_info_v2(none, &d2, HSA_ACCESS_PERMISSION_RW, &i2),
		  HSA_STATUS_ERROR_INVALID_AGENT);
	ck_status(hsa_ext_image_data_get_info_v2(gpu, NULL, HSA_ACCESS_PERMISSION_RW, &i2),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_ext_image_data_get_info_v2(gpu, &d2, HSA_ACCESS_PERMISSION_RW, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_ext_image_create_v2(none, &d2, aligned, HSA_ACCESS_PERMISSION_RW, &img),
		  HSA_STATUS_ERROR_INVALID_AGENT);
	ck_status(hsa_ext_image_create_v2(gpu, NULL, aligned, HSA_ACCESS_PERMISSION_RW, &img),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_ext_image_create_v2(gpu, &d2, NULL, HSA_ACCESS_PERMISSION_RW, &img),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_ext_image_create_v2(gpu, &d2, aligned, HSA_ACCESS_PERMISSION_RW, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	/* version 1's later checks: data misaligned, a format the GPU lacks,
	 * a size over the limit */
	ck_status(hsa_ext_image_create_v2(gpu, &d2, (char *)aligned + 64, HSA_ACCESS_PERMISSION_RW,
					  &img),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	hsa_ext_image_descriptor_v2_t bad = d2;
	bad.format.channel_type = 99;
	bad.format.channel_order = 99;
	ck_status(hsa_ext_image_create_v2(gpu, &bad, aligned, HSA_ACCESS_PERMISSION_RW, &img),
		  HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED);
	bad = d2;
	bad.width = 1u << 20;
	ck_status(hsa_ext_image_data_get_info_v2(gpu, &bad, HSA_ACCESS_PERMISSION_RW, &i2),
		  HSA_EXT_STATUS_ERROR_IMAGE_SIZE_UNSUPPORTED);
	ck_status(hsa_amd_memory_pool_free(data), HSA_STATUS_SUCCESS);
}
END_TEST

/* Mipmapped arrays (mipmap_levels > 1): ROCr's refusals (more levels than
 * 1 + log2 of the largest extent: INVALID_ARGUMENT; a format the GPU
 * lacks); hsalite's (a 1DB chain: INVALID_ARGUMENT); chains are laid out
 * linear (2D and 3D ones where ROCr's would be tiled on mi210).
 * mipmap_array_get_level: NULL pointers, agent 0, a single-level image or
 * a stranger: no array. */
START_TEST(v2_mipmaps)
{
	void *data = gpu_alloc(1u << 20);
	hsa_ext_image_data_info_t info;
	hsa_ext_image_t img = { 77 };
	/* 300x20: 9 levels at most (300 has 9 bits); 3D 4x4x40: 6 */
	hsa_ext_image_descriptor_v2_t d = { HSA_EXT_IMAGE_GEOMETRY_2D, 300, 20, 0, 0, rgba8, 10 };
	ck_status(hsa_ext_image_data_get_info_v2(gpu, &d, HSA_ACCESS_PERMISSION_RW, &info),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_ext_image_create_v2(gpu, &d, data, HSA_ACCESS_PERMISSION_RW, &img),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	hsa_ext_image_descriptor_v2_t d3 = { HSA_EXT_IMAGE_GEOMETRY_3D, 4, 4, 40, 0, rgba8, 7 };
	ck_status(hsa_ext_image_data_get_info_v2(gpu, &d3, HSA_ACCESS_PERMISSION_RW, &info),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	/* linear: 40 depth slices of 4 + 2 + 1 + 1 + 1 + 1 rows of 256 bytes */
	d3.mipmap_levels = 6;
	ck_status(hsa_ext_image_data_get_info_v2(gpu, &d3, HSA_ACCESS_PERMISSION_RW, &info),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(info.size, 40 * 10 * 256);
	ck_assert_uint_eq(info.alignment, 256);
	/* 1D: the width alone counts (20 -> 5 levels); a 1D chain is linear:
	 * one 256-byte row a level */
	hsa_ext_image_descriptor_v2_t d1 = { HSA_EXT_IMAGE_GEOMETRY_1D, 20, 0, 0, 0, rgba8, 6 };
	ck_status(hsa_ext_image_data_get_info_v2(gpu, &d1, HSA_ACCESS_PERMISSION_RW, &info),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	d1.mipmap_levels = 5;
	ck_status(hsa_ext_image_data_get_info_v2(gpu, &d1, HSA_ACCESS_PERMISSION_RW, &info),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(info.size, 5 * 256);
	ck_assert_uint_eq(info.alignment, 256);
	/* 1DB: a buffer has no levels */
	d1.geometry = HSA_EXT_IMAGE_GEOMETRY_1DB;
	ck_status(hsa_ext_image_data_get_info_v2(gpu, &d1, HSA_ACCESS_PERMISSION_RW, &info),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_ext_image_create_v2(gpu, &d1, data, HSA_ACCESS_PERMISSION_RW, &img),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	d.mipmap_levels = 9;
	d.format.channel_type = 99;
	d.format.channel_order = 99;
	ck_status(hsa_ext_image_create_v2(gpu, &d, data, HSA_ACCESS_PERMISSION_RW, &img),
		  HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED);
	d.format = rgba8;
	/* 300x20, 9 levels, linear: rows of 320 texels (1280 bytes), levels
	 * of 20, 10, 5, 3, 2, 1, 1, 1, 1 rows (44) */
	ck_status(hsa_ext_image_data_get_info_v2(gpu, &d, HSA_ACCESS_PERMISSION_RW, &info),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(info.size, 1280 * 44);
	ck_assert_uint_eq(info.alignment, 256);
	ck_status(hsa_ext_image_create_v2(gpu, &d, data, HSA_ACCESS_PERMISSION_RW, &img),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_ext_image_destroy_v2(gpu, img), HSA_STATUS_SUCCESS);
	img.handle = 0;

	/* get_level: NULL pointers; agent 0; a single-level image and a
	 * stranger are no mipmapped arrays */
	hsa_ext_image_descriptor_v2_t one = { HSA_EXT_IMAGE_GEOMETRY_2D, 64, 64, 0, 0, rgba8, 1 };
	ck_status(hsa_ext_image_data_get_info_v2(gpu, &one, HSA_ACCESS_PERMISSION_RW, &info),
		  HSA_STATUS_SUCCESS);
	void *aligned = (void *)(((uintptr_t)data + info.alignment - 1) & ~(info.alignment - 1));
	ck_status(hsa_ext_image_create_v2(gpu, &one, aligned, HSA_ACCESS_PERMISSION_RW, &img),
		  HSA_STATUS_SUCCESS);
	hsa_ext_image_t level = { 0 }, stranger = { (uint64_t)(uintptr_t)data };
	hsa_agent_t none = { 0 };
	ck_status(hsa_ext_image_mipmap_array_get_level(gpu, NULL, 0, &one, &level),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_ext_image_mipmap_array_get_level(gpu, &img, 0, &one, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_ext_image_mipmap_array_get_level(none, &img, 0, &one, &level),
		  HSA_STATUS_ERROR_INVALID_AGENT);
	ck_status(hsa_ext_image_mipmap_array_get_level(gpu, &img, 0, &one, &level),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_ext_image_mipmap_array_get_level(gpu, &stranger, 1, NULL, &level),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_assert_uint_eq(level.handle, 0);
	ck_status(hsa_ext_image_destroy_v2(gpu, img), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(data), HSA_STATUS_SUCCESS);
}
END_TEST

/* T# fields (GFX9 SQ_IMG_RSRC_WORD3-5), read here by hand. */
static uint32_t t_base_level(const uint32_t *t) { return t[3] >> 12 & 15; }
static uint32_t t_last_level(const uint32_t *t) { return t[3] >> 16 & 15; }
static uint32_t t_pitch(const uint32_t *t) { return t[4] >> 13 & 0xffff; }
static uint32_t t_max_mip(const uint32_t *t) { return t[5] >> 28; }
static uint32_t t_sw_mode(const uint32_t *t) { return t[3] >> 20 & 31; }
static uint32_t t_type(const uint32_t *t) { return t[3] >> 28; }
static uint32_t t_depth(const uint32_t *t) { return t[4] & 0x1fff; }

/* A 1DA chain (40 texels, 3 layers) for 1..6 levels: size 3 layers x
 * levels rows of 256 bytes (addrlib's linear chain), one level the
 * version 1 size.  The 6-level array's T#: version 1's for the same image
 * but LAST_LEVEL and MAX_MIP 5, PITCH the rows of a layer - 1 (6 - 1:
 * addrlib's epitch), dword 11 the level count.  Each level image: the
 * array's T# with BASE_LEVEL = LAST_LEVEL = the level; past the last:
 * INVALID_ARGUMENT; a descriptor's format of the same element size
 * changes the format fields only, another size is refused.  Import
 * through the array lands in level 0. */
START_TEST(v2_mip_chain)
{
	const hsa_ext_image_format_t r32ui = { HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT32,
					       HSA_EXT_IMAGE_CHANNEL_ORDER_R };
	hsa_ext_image_descriptor_v2_t d = { HSA_EXT_IMAGE_GEOMETRY_1DA, 40, 0, 0, 3, r32ui, 1 };
	hsa_ext_image_descriptor_t d1 = { HSA_EXT_IMAGE_GEOMETRY_1DA, 40, 0, 0, 3, r32ui };
	hsa_ext_image_data_info_t info, i1;
	ck_status(hsa_ext_image_data_get_info(gpu, &d1, HSA_ACCESS_PERMISSION_RW, &i1),
		  HSA_STATUS_SUCCESS);
	for (size_t levels = 1; levels <= 6; levels++) {
		d.mipmap_levels = levels;
		ck_status(hsa_ext_image_data_get_info_v2(gpu, &d, HSA_ACCESS_PERMISSION_RW, &info),
			  HSA_STATUS_SUCCESS);
		ck_assert_uint_eq(info.size, 3 * levels * 256);
		ck_assert_uint_eq(info.alignment, 256);
		void *mem = gpu_alloc(info.size);
		hsa_ext_image_t img;
		ck_status(hsa_ext_image_create_v2(gpu, &d, mem, HSA_ACCESS_PERMISSION_RW, &img),
			  HSA_STATUS_SUCCESS);
		const uint32_t *t = (const uint32_t *)(uintptr_t)img.handle;
		ck_assert_uint_eq(t_last_level(t), levels - 1);
		ck_assert_uint_eq(t_max_mip(t), levels - 1);
		ck_assert_uint_eq(t_pitch(t), levels > 1 ? levels - 1 : 63);
		hsa_ext_image_t lv = { 0 };
		ck_status(hsa_ext_image_mipmap_array_get_level(gpu, &img, 0, NULL, &lv),
			  levels > 1 ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_INVALID_ARGUMENT);
		if (lv.handle)
			ck_status(hsa_ext_image_destroy_v2(gpu, lv), HSA_STATUS_SUCCESS);
		ck_status(hsa_ext_image_destroy_v2(gpu, img), HSA_STATUS_SUCCESS);
		ck_status(hsa_amd_memory_pool_free(mem), HSA_STATUS_SUCCESS);
	}
	ck_assert_uint_eq(i1.size, 3 * 256);
	uint8_t *data = gpu_alloc(info.size);
	hsa_ext_image_t arr, v1;
	ck_status(hsa_ext_image_create_v2(gpu, &d, data, HSA_ACCESS_PERMISSION_RW, &arr),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_ext_image_create(gpu, &d1, data, HSA_ACCESS_PERMISSION_RW, &v1),
		  HSA_STATUS_SUCCESS);
	uint32_t ta[12], t1[12];
	memcpy(ta, (const void *)(uintptr_t)arr.handle, sizeof(ta));
	memcpy(t1, (const void *)(uintptr_t)v1.handle, sizeof(t1));
	ck_assert_uint_eq(t_base_level(ta), 0);
	ck_assert_uint_eq(t_last_level(ta), 5);
	ck_assert_uint_eq(t_max_mip(ta), 5);
	ck_assert_uint_eq(t_pitch(ta), 5);
	ck_assert_uint_eq(t_pitch(t1), 63);
	ck_assert_uint_eq(ta[11], 6);
	ck_assert_uint_eq(t1[11], 0);
	ck_assert_mem_eq(ta, t1, 3 * sizeof(uint32_t));
	ck_assert_uint_eq(ta[3] & ~(15u << 16), t1[3]);
	ck_assert_uint_eq(ta[4] & ~(0xffffu << 13), t1[4] & ~(0xffffu << 13));
	ck_assert_uint_eq(ta[5] & ~(15u << 28), t1[5]);
	ck_assert_mem_eq(&ta[6], &t1[6], 5 * sizeof(uint32_t));
	ck_status(hsa_ext_image_destroy(gpu, v1), HSA_STATUS_SUCCESS);

	for (uint32_t l = 0; l < 6; l++) {
		hsa_ext_image_t lv = { 0 };
		ck_status(hsa_ext_image_mipmap_array_get_level(gpu, &arr, l, NULL, &lv),
			  HSA_STATUS_SUCCESS);
		ck_assert_uint_ne(lv.handle, 0);
		ck_assert_uint_ne(lv.handle, arr.handle);
		uint32_t tl[12];
		memcpy(tl, (const void *)(uintptr_t)lv.handle, sizeof(tl));
		ck_assert_uint_eq(t_base_level(tl), l);
		ck_assert_uint_eq(t_last_level(tl), l);
		ck_assert_uint_eq(tl[3] & ~(0xffu << 12), ta[3] & ~(0xffu << 12));
		ck_assert_mem_eq(tl, ta, 3 * sizeof(uint32_t));
		ck_assert_mem_eq(&tl[4], &ta[4], 8 * sizeof(uint32_t));
		ck_status(hsa_ext_image_destroy_v2(gpu, lv), HSA_STATUS_SUCCESS);
	}
	hsa_ext_image_t lv = { 5 };
	ck_status(hsa_ext_image_mipmap_array_get_level(gpu, &arr, 6, NULL, &lv),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_assert_uint_eq(lv.handle, 0);
	/* a format of the same element size: the format fields change */
	hsa_ext_image_descriptor_v2_t f = d;
	f.format.channel_type = HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT32;
	ck_status(hsa_ext_image_mipmap_array_get_level(gpu, &arr, 3, &f, &lv), HSA_STATUS_SUCCESS);
	uint32_t tf[12];
	memcpy(tf, (const void *)(uintptr_t)lv.handle, sizeof(tf));
	ck_assert_uint_ne(tf[1], ta[1]);
	ck_assert_uint_eq(tf[1] & 0xfffff, ta[1] & 0xfffff);
	ck_assert_uint_eq(tf[8], HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT32);
	ck_assert_uint_eq(t_base_level(tf), 3);
	ck_status(hsa_ext_image_destroy_v2(gpu, lv), HSA_STATUS_SUCCESS);
	f.format.channel_type = HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT32;
	f.format.channel_order = HSA_EXT_IMAGE_CHANNEL_ORDER_RG;   /* 8 bytes */
	ck_status(hsa_ext_image_mipmap_array_get_level(gpu, &arr, 3, &f, &lv),
		  HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED);

	/* the array's transfers address level 0: rows 0, 6, 12 */
	static uint32_t in[40 * 3];
	for (uint32_t i = 0; i < 40 * 3; i++)
		in[i] = 0x77000000u + i;
	hsa_ext_image_region_t all = { { 0, 0, 0 }, { 40, 3, 1 } };
	ck_status(hsa_ext_image_import(gpu, in, 0, 0, arr, &all), HSA_STATUS_SUCCESS);
	static uint8_t raw[3 * 6 * 256];
	ck_status(hsa_memory_copy(raw, data, sizeof(raw)), HSA_STATUS_SUCCESS);
	for (uint32_t s = 0; s < 3; s++)
		ck_assert_mem_eq(raw + s * 6 * 256, &in[s * 40], 40 * 4);
	ck_status(hsa_ext_image_destroy_v2(gpu, arr), HSA_STATUS_SUCCESS);
	ck_status(hsa_ext_image_mipmap_array_get_level(gpu, &arr, 0, NULL, &lv),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_memory_pool_free(data), HSA_STATUS_SUCCESS);
}
END_TEST

/* 2D, 2DA, 2DADEPTH and 3D chains on mi210 (base profile: ROCr lays them
 * out tiled): laid out linear, as addrlib's Gfx9Lib lays out a linear
 * 2-D chain (a 3-D one: the same per depth slice).  20x13 4-byte texels,
 * 4 levels: rows of 64 texels (256 bytes), levels of 13, 7, 4, 2 rows, 26
 * rows a layer or depth slice; T# SW_MODE 0 (linear), PITCH 25 (the rows
 * of a layer - 1), MAX_MIP and LAST_LEVEL 3, DEPTH the layers or depth
 * slices - 1, dword 11 the level count.  One level stays tiled as in
 * ROCr (version 1's layout). */
START_TEST(v2_mip_chain_linear)
{
	const hsa_ext_image_format_t r32ui = { HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT32,
					       HSA_EXT_IMAGE_CHANNEL_ORDER_R };
	const hsa_ext_image_format_t d32f = { HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT,
					      HSA_EXT_IMAGE_CHANNEL_ORDER_DEPTH };
	const struct {
		hsa_ext_image_geometry_t g;
		size_t layers, depth;
		hsa_ext_image_format_t f;
		uint32_t type;
	} cases[] = {
		{ HSA_EXT_IMAGE_GEOMETRY_2D, 0, 0, r32ui, 9 },
		{ HSA_EXT_IMAGE_GEOMETRY_2DA, 3, 0, r32ui, 13 },
		{ HSA_EXT_IMAGE_GEOMETRY_2DADEPTH, 2, 0, d32f, 13 },
		{ HSA_EXT_IMAGE_GEOMETRY_3D, 0, 5, r32ui, 10 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const size_t n = cases[i].layers + cases[i].depth, layers = n ? n : 1;
		hsa_ext_image_descriptor_v2_t d = { cases[i].g, 20, 13, cases[i].depth,
						    cases[i].layers, cases[i].f, 1 };
		hsa_ext_image_data_info_t info;
		ck_status(hsa_ext_image_data_get_info_v2(gpu, &d, HSA_ACCESS_PERMISSION_RW, &info),
			  HSA_STATUS_SUCCESS);
		void *one = gpu_alloc(info.size + info.alignment);
		void *aligned = (void *)(((uintptr_t)one + info.alignment - 1) &
					 ~(uintptr_t)(info.alignment - 1));
		hsa_ext_image_t img;
		ck_status(hsa_ext_image_create_v2(gpu, &d, aligned, HSA_ACCESS_PERMISSION_RW, &img),
			  HSA_STATUS_SUCCESS);
		ck_assert_uint_ne(t_sw_mode((const uint32_t *)(uintptr_t)img.handle), 0);
		ck_status(hsa_ext_image_destroy_v2(gpu, img), HSA_STATUS_SUCCESS);
		ck_status(hsa_amd_memory_pool_free(one), HSA_STATUS_SUCCESS);

		d.mipmap_levels = 4;
		ck_status(hsa_ext_image_data_get_info_v2(gpu, &d, HSA_ACCESS_PERMISSION_RW, &info),
			  HSA_STATUS_SUCCESS);
		ck_assert_uint_eq(info.size, layers * 26 * 256);
		ck_assert_uint_eq(info.alignment, 256);
		void *mem = gpu_alloc(info.size);
		ck_status(hsa_ext_image_create_v2(gpu, &d, mem, HSA_ACCESS_PERMISSION_RW, &img),
			  HSA_STATUS_SUCCESS);
		uint32_t t[12];
		memcpy(t, (const void *)(uintptr_t)img.handle, sizeof(t));
		ck_assert_uint_eq(t_sw_mode(t), 0);
		ck_assert_uint_eq(t_type(t), cases[i].type);
		ck_assert_uint_eq(t_pitch(t), 25);
		ck_assert_uint_eq(t_depth(t), n ? layers - 1 : 0);
		ck_assert_uint_eq(t_base_level(t), 0);
		ck_assert_uint_eq(t_last_level(t), 3);
		ck_assert_uint_eq(t_max_mip(t), 3);
		ck_assert_uint_eq(t[11], 4);
		hsa_ext_image_t lv = { 0 };
		ck_status(hsa_ext_image_mipmap_array_get_level(gpu, &img, 3, NULL, &lv),
			  HSA_STATUS_SUCCESS);
		ck_assert_uint_eq(t_base_level((const uint32_t *)(uintptr_t)lv.handle), 3);
		ck_status(hsa_ext_image_destroy_v2(gpu, lv), HSA_STATUS_SUCCESS);
		ck_status(hsa_ext_image_destroy_v2(gpu, img), HSA_STATUS_SUCCESS);
		ck_status(hsa_amd_memory_pool_free(mem), HSA_STATUS_SUCCESS);
	}
}
END_TEST

/* hsa_amd_image_create_v2, one level: hsa_amd_image_create's image and
 * statuses; more levels: the mipmap refusals. */
START_TEST(v2_amd_layout)
{
	hsa_ext_image_descriptor_t d = { HSA_EXT_IMAGE_GEOMETRY_2D, 300, 20, 0, 0, rgba8 };
	struct layout_ref r;
	layout_ref_make(&d, &r);
	void *data = r.data, *aligned = r.aligned;
	hsa_ext_image_t ref = r.ref;
	const hsa_amd_image_descriptor_t *l = (const hsa_amd_image_descriptor_t *)&r.layout;
	hsa_ext_image_descriptor_v2_t d2 = { HSA_EXT_IMAGE_GEOMETRY_2D, 300, 20, 0, 0, rgba8, 0 };
	hsa_ext_image_t a1, a2;
	ck_status(hsa_amd_image_create(gpu, &d, l, aligned, HSA_ACCESS_PERMISSION_RW, &a1),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_image_create_v2(gpu, &d2, l, aligned, HSA_ACCESS_PERMISSION_RW, &a2),
		  HSA_STATUS_SUCCESS);
	ck_assert_mem_eq((const void *)(uintptr_t)a1.handle, (const void *)(uintptr_t)a2.handle,
			 12 * sizeof(uint32_t));
	static uint8_t in[300 * 20 * 4], out[300 * 20 * 4];
	for (size_t i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)(i * 13 + 1);
	hsa_ext_image_region_t all = { { 0, 0, 0 }, { 300, 20, 1 } };
	ck_status(hsa_ext_image_import(gpu, in, 0, 0, a2, &all), HSA_STATUS_SUCCESS);
	ck_status(hsa_ext_image_export(gpu, ref, out, 0, 0, &all), HSA_STATUS_SUCCESS);
	ck_assert_mem_eq(in, out, sizeof(in));
	ck_status(hsa_ext_image_destroy_v2(gpu, a2), HSA_STATUS_SUCCESS);
	ck_status(hsa_ext_image_destroy(gpu, a1), HSA_STATUS_SUCCESS);

	hsa_agent_t none = { 0 };
	ck_status(hsa_amd_image_create_v2(none, &d2, l, aligned, HSA_ACCESS_PERMISSION_RW, &a2),
		  HSA_STATUS_ERROR_INVALID_AGENT);
	ck_status(hsa_amd_image_create_v2(gpu, NULL, l, aligned, HSA_ACCESS_PERMISSION_RW, &a2),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_image_create_v2(gpu, &d2, l, NULL, HSA_ACCESS_PERMISSION_RW, &a2),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_image_create_v2(gpu, &d2, l, aligned, HSA_ACCESS_PERMISSION_RW, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_image_create_v2(gpu, &d2, l, (char *)aligned + 16,
					  HSA_ACCESS_PERMISSION_RW, &a2),
		  HSA_STATUS_ERROR_INVALID_ALLOCATION);
	r.layout.version = 2;
	ck_status(hsa_amd_image_create_v2(gpu, &d2, l, aligned, HSA_ACCESS_PERMISSION_RW, &a2),
		  HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED);
	r.layout.version = 1;
	d2.mipmap_levels = 10;
	ck_status(hsa_amd_image_create_v2(gpu, &d2, l, aligned, HSA_ACCESS_PERMISSION_RW, &a2),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	d2.mipmap_levels = 2;
	ck_status(hsa_amd_image_create_v2(gpu, &d2, l, aligned, HSA_ACCESS_PERMISSION_RW, &a2),
		  HSA_EXT_STATUS_ERROR_IMAGE_SIZE_UNSUPPORTED);
	ck_status(hsa_ext_image_destroy(gpu, ref), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(data), HSA_STATUS_SUCCESS);
}
END_TEST

/* 1DA: the layer is y. */
START_TEST(import_1da_layer)
{
	hsa_ext_image_format_t r32 = { HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT32,
				       HSA_EXT_IMAGE_CHANNEL_ORDER_R };
	hsa_ext_image_descriptor_t d = { HSA_EXT_IMAGE_GEOMETRY_1DA, 64, 0, 0, 4, r32 };
	void *data;
	hsa_ext_image_t img = make_linear(&d, 0, &data);
	uint32_t row[64];
	for (int i = 0; i < 64; i++)
		row[i] = 0x1000u + (uint32_t)i;
	hsa_ext_image_region_t layer2 = { { 0, 2, 0 }, { 64, 1, 1 } };
	ck_status(hsa_ext_image_clear(gpu, img, (uint32_t[4]){ 7, 0, 0, 0 },
				      &(hsa_ext_image_region_t){ { 0, 0, 0 }, { 64, 4, 1 } }),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_ext_image_import(gpu, row, 0, 0, img, &layer2), HSA_STATUS_SUCCESS);
	const uint32_t *raw = data;
	ck_assert_uint_eq(raw[2 * 64 + 5], 0x1005);
	ck_assert_uint_eq(raw[1 * 64 + 5], 7);
	ck_assert_uint_eq(raw[3 * 64 + 63], 7);
	ck_status(hsa_ext_image_destroy(gpu, img), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(data), HSA_STATUS_SUCCESS);
}
END_TEST

struct clear_case {
	hsa_ext_image_format_t fmt;
	uint32_t color[4];   /* floats or integers, as the format wants */
	uint8_t bytes[16];   /* the element the hardware would store */
	unsigned size;
};

static uint32_t f2u(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof(u));
	return u;
}

/* Clear each format and compare the stored element with its encoding
 * (128 elements: a row of 2-byte elements is 256 bytes, the default pitch
 * the linear layout accepts). */
START_TEST(clear_formats)
{
	const struct clear_case cases[] = {
		{ rgba8, { f2u(1.0f), f2u(0.5f), f2u(0.0f), f2u(0.25f) }, { 255, 128, 0, 64 }, 4 },
		{ { HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8, HSA_EXT_IMAGE_CHANNEL_ORDER_BGRA },
		  { f2u(1.0f), f2u(0.5f), f2u(0.0f), f2u(2.0f) }, { 0, 128, 255, 255 }, 4 },
		{ { HSA_EXT_IMAGE_CHANNEL_TYPE_SNORM_INT8, HSA_EXT_IMAGE_CHANNEL_ORDER_ARGB },
		  { f2u(-1.0f), f2u(0.5f), f2u(0.0f), f2u(1.0f) }, { 127, 0x81, 64, 0 }, 4 },
		{ { HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT, HSA_EXT_IMAGE_CHANNEL_ORDER_R },
		  { f2u(1.5f), 0, 0, 0 }, { 0, 0, 0xc0, 0x3f }, 4 },
		{ { HSA_EXT_IMAGE_CHANNEL_TYPE_HALF_FLOAT, HSA_EXT_IMAGE_CHANNEL_ORDER_RG },
		  { f2u(1.0f), f2u(-2.0f), 0, 0 }, { 0x00, 0x3c, 0x00, 0xc0 }, 4 },
		{ { HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT8, HSA_EXT_IMAGE_CHANNEL_ORDER_RA },
		  { (uint32_t)-300, 0, 0, 5 }, { 0x80, 5 }, 2 },
		{ { HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT16, HSA_EXT_IMAGE_CHANNEL_ORDER_A },
		  { 1, 2, 3, 70000 }, { 0xff, 0xff }, 2 },
		/* 565: B in bits 0-4, G 5-10, R 11-15 */
		{ { HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_SHORT_565, HSA_EXT_IMAGE_CHANNEL_ORDER_RGB },
		  { f2u(1.0f), f2u(0.0f), f2u(1.0f), 0 }, { 0x1f, 0xf8 }, 2 },
		/* sRGB: linear 0.5 is s-form 0.7354 -> 188 */
		{ { HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8, HSA_EXT_IMAGE_CHANNEL_ORDER_SRGBA },
		  { f2u(0.5f), f2u(0.0f), f2u(1.0f), f2u(0.5f) }, { 188, 0, 255, 128 }, 4 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct clear_case *c = &cases[i];
		hsa_ext_image_descriptor_t d = { HSA_EXT_IMAGE_GEOMETRY_2D, 128, 3, 0, 0, c->fmt };
		void *data;
		hsa_ext_image_t img = make_linear(&d, 0, &data);
		memset(data, 0x5a, 128 * 3 * c->size);
		hl_hdp_flush_all(); /* CPU writes to VRAM, then the GPU's reads */
		hsa_ext_image_region_t r = { { 1, 1, 0 }, { 126, 1, 1 } };
		ck_status(hsa_ext_image_clear(gpu, img, c->color, &r), HSA_STATUS_SUCCESS);
		const uint8_t *raw = data;
		ck_assert_msg(!memcmp(raw + (128 + 5) * c->size, c->bytes, c->size),
			      "case %zu: element %02x %02x %02x %02x", i, raw[(128 + 5) * c->size],
			      raw[(128 + 5) * c->size + 1], raw[(128 + 5) * c->size + 2],
			      raw[(128 + 5) * c->size + 3]);
		ck_assert_uint_eq(raw[128 * c->size], 0x5a);     /* (0,1) outside */
		ck_assert_uint_eq(raw[5 * c->size], 0x5a);      /* row 0 */
		ck_status(hsa_ext_image_destroy(gpu, img), HSA_STATUS_SUCCESS);
		ck_status(hsa_amd_memory_pool_free(data), HSA_STATUS_SUCCESS);
	}
}
END_TEST

START_TEST(copy_between_images)
{
	hsa_ext_image_descriptor_t d = { HSA_EXT_IMAGE_GEOMETRY_3D, 64, 5, 4, 0, rgba8 };
	void *a_data, *b_data;
	hsa_ext_image_t a = make_linear(&d, 0, &a_data);
	hsa_ext_image_t b = make_linear(&d, 0, &b_data);
	memset(b_data, 0, 64 * 4 * 5 * 4);
	uint32_t *ra = a_data;
	for (uint32_t i = 0; i < 64 * 5 * 4; i++)
		ra[i] = i * 2654435761u;
	hl_hdp_flush_all();
	hsa_dim3_t so = { 3, 1, 1 }, dof = { 10, 2, 0 }, rng = { 20, 3, 2 };
	ck_status(hsa_ext_image_copy(gpu, a, &so, b, &dof, &rng), HSA_STATUS_SUCCESS);
	const uint32_t *rb = b_data;
	for (uint32_t z = 0; z < 4; z++)
		for (uint32_t y = 0; y < 5; y++)
			for (uint32_t x = 0; x < 64; x++) {
				bool inside = x >= 10 && x < 30 && y >= 2 && y < 5 && z < 2;
				uint32_t e = inside ? ra[((z + 1) * 5 + y - 1) * 64 + x - 7] : 0;
				ck_assert_msg(rb[(z * 5 + y) * 64 + x] == e, "element %u,%u,%u", x,
					      y, z);
			}
	hsa_ext_image_format_t other = { HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT8,
					 HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA };
	hsa_ext_image_descriptor_t d2 = d;
	d2.format = other;
	void *c_data;
	hsa_ext_image_t c = make_linear(&d2, 0, &c_data);
	ck_status(hsa_ext_image_copy(gpu, a, &so, c, &dof, &rng), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	hsa_dim3_t big = { 60, 1, 1 };
	ck_status(hsa_ext_image_copy(gpu, a, &so, b, &dof, &big), HSA_STATUS_ERROR_INVALID_ARGUMENT);

	/* sRGBA to RGBA converts each colour channel to linear. */
	hsa_ext_image_descriptor_t ds = d;
	ds.format.channel_order = HSA_EXT_IMAGE_CHANNEL_ORDER_SRGBA;
	void *s_data;
	hsa_ext_image_t s = make_linear(&ds, 0, &s_data);
	uint8_t *rs = s_data;
	rs[0] = 188;
	rs[1] = 0;
	rs[2] = 255;
	rs[3] = 77;
	hl_hdp_flush_all();
	hsa_dim3_t zero = { 0, 0, 0 }, one = { 1, 1, 1 };
	ck_status(hsa_ext_image_copy(gpu, s, &zero, b, &zero, &one), HSA_STATUS_SUCCESS);
	const uint8_t *rb8 = b_data;
	ck_assert_uint_eq(rb8[0], 128);
	ck_assert_uint_eq(rb8[1], 0);
	ck_assert_uint_eq(rb8[2], 255);
	ck_assert_uint_eq(rb8[3], 77);
	hsa_ext_image_t imgs[] = { a, b, c, s };
	void *datas[] = { a_data, b_data, c_data, s_data };
	for (int i = 0; i < 4; i++) {
		ck_status(hsa_ext_image_destroy(gpu, imgs[i]), HSA_STATUS_SUCCESS);
		ck_status(hsa_amd_memory_pool_free(datas[i]), HSA_STATUS_SUCCESS);
	}
}
END_TEST

/* 1DB: a buffer descriptor, element size stride, width * size records. */
START_TEST(buffer_image)
{
	hsa_ext_image_format_t f = { HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT,
				     HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA };
	hsa_ext_image_descriptor_t d = { HSA_EXT_IMAGE_GEOMETRY_1DB, 1000, 0, 0, 0, f };
	hsa_ext_image_data_info_t info;
	ck_status(hsa_ext_image_data_get_info(gpu, &d, HSA_ACCESS_PERMISSION_RW, &info),
		  HSA_STATUS_SUCCESS);
	void *data = gpu_alloc(info.size);
	hsa_ext_image_t img;
	ck_status(hsa_ext_image_create(gpu, &d, data, HSA_ACCESS_PERMISSION_RW, &img),
		  HSA_STATUS_SUCCESS);
	const uint32_t *w = (const uint32_t *)(uintptr_t)img.handle;
	ck_assert_uint_eq(w[2], 16000);
	ck_assert_uint_eq((w[1] >> 16) & 0x3fff, 16);
	float c[4] = { 1, 2, 3, 4 };
	hsa_ext_image_region_t r = { { 999, 0, 0 }, { 1, 1, 1 } };
	ck_status(hsa_ext_image_clear(gpu, img, c, &r), HSA_STATUS_SUCCESS);
	ck_assert(((float *)data)[999 * 4 + 3] == 4.0f);
	ck_status(hsa_ext_image_destroy(gpu, img), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(data), HSA_STATUS_SUCCESS);
}
END_TEST

static Suite *image_suite(void)
{
	Suite *s = suite_create("image");
	TCase *tc = tcase_create("image");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, extension_table);
	tcase_add_test(tc, statuses);
	tcase_add_test(tc, import_export_round_trip);
	tcase_add_test(tc, import_1da_layer);
	tcase_add_test(tc, tiled_transfers);
	tcase_add_test(tc, amd_image_layout);
	tcase_add_test(tc, v2_single_level);
	tcase_add_test(tc, v2_mipmaps);
	tcase_add_test(tc, v2_mip_chain);
	tcase_add_test(tc, v2_mip_chain_linear);
	tcase_add_test(tc, v2_amd_layout);
	tcase_add_test(tc, clear_formats);
	tcase_add_test(tc, copy_between_images);
	tcase_add_test(tc, buffer_image);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(image_suite)
