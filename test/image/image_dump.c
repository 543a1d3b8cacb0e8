/*
 * image_dump: what a runtime's image extension answers, as text, so that two
 * runtimes can be compared line by line (test/image/peer.sh runs it on
 * Debian's ROCr 5.2.3 and on hsalite under kfdemu and diffs the output).
 *
 * It enumerates every (geometry, channel order, channel type) and prints the
 * capability; for each one the runtime calls capable it computes the data
 * size and alignment for a few sizes in the opaque and the linear layout,
 * creates the image on GPU memory and prints the 12 dwords of the image
 * object the handle points at.  The base address in the descriptor is
 * printed as its distance from the data pointer (the two runs allocate at
 * different addresses).  Then samplers for every descriptor, the agent
 * attributes of the extension and the extension queries.
 *
 * Built against hsalite's public headers and linked with a RUNPATH, so
 * LD_LIBRARY_PATH chooses the runtime.  Exit status 0 unless the dump
 * itself could not run (no GPU, allocation failure): 77 when no GPU.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsa/hsa.h"
#include "hsa/hsa_ext_amd.h"
#include "hsa/hsa_ext_image.h"

static hsa_agent_t gpu;
static hsa_amd_memory_pool_t vram;

static hsa_status_t find_gpu(hsa_agent_t a, void *data)
{
	hsa_device_type_t t;
	(void)data;
	if (hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t) == HSA_STATUS_SUCCESS &&
	    t == HSA_DEVICE_TYPE_GPU && !gpu.handle)
		gpu = a;
	return HSA_STATUS_SUCCESS;
}

static hsa_status_t find_vram(hsa_amd_memory_pool_t p, void *data)
{
	hsa_amd_segment_t seg;
	uint32_t flags;
	(void)data;
	hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg);
	hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags);
	if (seg == HSA_AMD_SEGMENT_GLOBAL && (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED) &&
	    !vram.handle)
		vram = p;
	return HSA_STATUS_SUCCESS;
}

struct dims {
	size_t w, h, d, a;
};

/* A few sizes per geometry: 1, odd, power of two, wide; 1D ones with
 * height 0 (ignored by the spec) and 1. */
static int dims_for(hsa_ext_image_geometry_t g, struct dims *out)
{
	static const struct dims one_d[] = { { 1, 0, 0, 0 }, { 33, 1, 0, 0 }, { 256, 0, 0, 0 },
					     { 1000, 1, 0, 0 } };
	static const struct dims two_d[] = { { 1, 1, 0, 0 }, { 33, 7, 0, 0 }, { 64, 64, 0, 0 },
					     { 300, 20, 0, 0 } };
	static const struct dims three_d[] = { { 1, 1, 1, 0 }, { 33, 7, 3, 0 }, { 64, 64, 8, 0 },
					       { 16, 16, 64, 0 } };
	static const struct dims one_da[] = { { 1, 0, 0, 1 }, { 33, 1, 0, 5 }, { 256, 0, 0, 4 },
					      { 1000, 1, 0, 2 } };
	static const struct dims two_da[] = { { 1, 1, 0, 1 }, { 33, 7, 0, 3 }, { 64, 64, 0, 2 },
					      { 300, 20, 0, 5 } };
	const struct dims *src;
	switch (g) {
	case HSA_EXT_IMAGE_GEOMETRY_1D:
	case HSA_EXT_IMAGE_GEOMETRY_1DB:
		src = one_d;
		break;
	case HSA_EXT_IMAGE_GEOMETRY_2D:
	case HSA_EXT_IMAGE_GEOMETRY_2DDEPTH:
		src = two_d;
		break;
	case HSA_EXT_IMAGE_GEOMETRY_3D:
		src = three_d;
		break;
	case HSA_EXT_IMAGE_GEOMETRY_1DA:
		src = one_da;
		break;
	default:
		src = two_da;
		break;
	}
	memcpy(out, src, 4 * sizeof(*out));
	return 4;
}

/* Print the object the handle points at with the base address replaced by
 * its distance from the data pointer.  The runtimes subtract their VRAM
 * region base (0 on both for a dGPU) before encoding. */
static void print_object(const char *tag, hsa_ext_image_geometry_t g, uint64_t handle,
			 const void *data)
{
	uint32_t w[12];
	memcpy(w, (const void *)(uintptr_t)handle, sizeof(w));
	long long delta;
	if (g == HSA_EXT_IMAGE_GEOMETRY_1DB) {
		uint64_t base = w[0] | ((uint64_t)(w[1] & 0xffff) << 32);
		delta = (long long)(base - (uintptr_t)data);
		w[0] = 0;
		w[1] &= ~0xffffu;
	} else {
		uint64_t base = ((uint64_t)w[0] << 8) | ((uint64_t)(w[1] & 0xff) << 40);
		delta = (long long)(base - (uintptr_t)data);
		w[0] = 0;
		w[1] &= ~0xffu;
	}
	printf("  %s align16=%d base-data=%lld srd", tag, (int)(handle % 16 == 0), delta);
	for (int i = 0; i < 12; i++)
		printf(" %08x", w[i]);
	printf("\n");
}

/* Bytes per element of a format, for a linear row pitch ROCr accepts:
 * ROCr 5.2.3 asserts (addrlib) when the default row pitch, width times
 * element size, is not a multiple of 256 bytes, so the dump passes the
 * aligned pitch then, and 0 (the default) when it is aligned anyway. */
static size_t element_bytes(hsa_ext_image_format_t f)
{
	static const unsigned char type_bytes[16] = { 1, 2, 1, 2, 3, 2, 2, 4,
						       1, 2, 4, 1, 2, 4, 2, 4 };
	switch (f.channel_type) {
	case HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_SHORT_555:
	case HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_SHORT_565:
	case HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_SHORT_101010:
		return type_bytes[f.channel_type];
	default:
		break;
	}
	size_t channels;
	switch (f.channel_order) {
	case HSA_EXT_IMAGE_CHANNEL_ORDER_RG:
	case HSA_EXT_IMAGE_CHANNEL_ORDER_RGX:
	case HSA_EXT_IMAGE_CHANNEL_ORDER_RA:
		channels = 2;
		break;
	case HSA_EXT_IMAGE_CHANNEL_ORDER_RGB:
	case HSA_EXT_IMAGE_CHANNEL_ORDER_RGBX:
	case HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA:
	case HSA_EXT_IMAGE_CHANNEL_ORDER_BGRA:
	case HSA_EXT_IMAGE_CHANNEL_ORDER_ARGB:
	case HSA_EXT_IMAGE_CHANNEL_ORDER_ABGR:
	case HSA_EXT_IMAGE_CHANNEL_ORDER_SRGB:
	case HSA_EXT_IMAGE_CHANNEL_ORDER_SRGBX:
	case HSA_EXT_IMAGE_CHANNEL_ORDER_SRGBA:
	case HSA_EXT_IMAGE_CHANNEL_ORDER_SBGRA:
		channels = 4;
		break;
	default:
		channels = 1;
		break;
	}
	return channels * type_bytes[f.channel_type];
}

static void *alloc_aligned(size_t size, size_t align, void **raw)
{
	if (align < 4096)
		align = 4096;
	if (hsa_amd_memory_pool_allocate(vram, size + align, 0, raw) != HSA_STATUS_SUCCESS)
		return NULL;
	uintptr_t p = ((uintptr_t)*raw + align - 1) & ~(uintptr_t)(align - 1);
	return (void *)p;
}

/* hsa_amd_image_create with the eight descriptor dwords of an image
 * just made (address cleared) on the same data: the object, with the base
 * and the metadata address (made absolute from offset 0: the base) as
 * distances from the data pointer. */
static void dump_amd_image(const hsa_ext_image_descriptor_t *desc, uint64_t handle,
			   const void *data)
{
	uint32_t chip = 0;
	hsa_agent_get_info(gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_CHIP_ID, &chip);
	struct {
		uint32_t version, device, words[8];
	} layout = { 1, 0x1002u << 16 | chip, { 0 } };
	memcpy(layout.words, (const void *)(uintptr_t)handle, sizeof(layout.words));
	if (desc->geometry == HSA_EXT_IMAGE_GEOMETRY_1DB) {
		layout.words[0] = 0;
		layout.words[1] &= ~0xffffu;
	} else {
		layout.words[0] = 0;
		layout.words[1] &= ~0xffu;
	}
	hsa_ext_image_t img = { 0 };
	hsa_status_t st = hsa_amd_image_create(gpu, desc, (const hsa_amd_image_descriptor_t *)&layout,
					       data, HSA_ACCESS_PERMISSION_RW, &img);
	printf("  amd create st=%#x", st);
	if (st == HSA_STATUS_SUCCESS) {
		uint32_t w[12];
		memcpy(w, (const void *)(uintptr_t)img.handle, sizeof(w));
		if (desc->geometry == HSA_EXT_IMAGE_GEOMETRY_1DB) {
			/* a buffer: no metadata */
			w[0] = 0;
			w[1] &= ~0xffffu;
		} else {
			uint64_t meta = ((uint64_t)((w[5] >> 17) & 0xff) << 40) |
					((uint64_t)w[7] << 8);
			printf(" meta-data=%lld", (long long)(meta - (uintptr_t)data));
			w[7] = 0;
			w[5] &= ~(0xffu << 17);
			w[0] = 0;
			w[1] &= ~0xffu;
		}
		for (int i = 0; i < 12; i++)
			printf(" %08x", w[i]);
		printf(" destroy st=%#x", hsa_ext_image_destroy(gpu, img));
	}
	printf("\n");
}

static void dump_image(hsa_ext_image_geometry_t g, hsa_ext_image_format_t f, struct dims d)
{
	hsa_ext_image_descriptor_t desc = { g, d.w, d.h, d.d, d.a, f };
	printf("image g=%d o=%d t=%d %zux%zux%zux%zu\n", g, f.channel_order, f.channel_type, d.w,
	       d.h, d.d, d.a);
	for (int layout = 0; layout < 2; layout++) {
		hsa_ext_image_data_info_t info = { 0, 0 };
		hsa_status_t st;
		/* ROCr 5.2.3 asserts in addrlib for a linear image of height 0
		 * (Gfx9Lib::HwlComputeSurfaceInfoLinear: sliceSize > 0). */
		if (layout == 1 && d.h == 0) {
			printf("  linear skipped: height 0\n");
			continue;
		}
		size_t row = d.w * element_bytes(f);
		size_t row_pitch = row % 256 ? (row + 255) & ~(size_t)255 : 0;
		if (layout == 1)
			printf("  linear row_pitch=%zu\n", row_pitch);
		if (layout == 0)
			st = hsa_ext_image_data_get_info(gpu, &desc, HSA_ACCESS_PERMISSION_RW, &info);
		else
			st = hsa_ext_image_data_get_info_with_layout(
				gpu, &desc, HSA_ACCESS_PERMISSION_RW, HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR,
				row_pitch, 0, &info);
		printf("  %s info st=%#x size=%zu align=%zu\n", layout ? "linear" : "opaque", st,
		       info.size, info.alignment);
		if (st != HSA_STATUS_SUCCESS)
			continue;
		void *raw;
		void *data = alloc_aligned(info.size, info.alignment, &raw);
		if (!data) {
			fprintf(stderr, "image_dump: allocation of %zu bytes failed\n", info.size);
			exit(1);
		}
		hsa_ext_image_t img = { 0 };
		if (layout == 0)
			st = hsa_ext_image_create(gpu, &desc, data, HSA_ACCESS_PERMISSION_RW, &img);
		else
			st = hsa_ext_image_create_with_layout(gpu, &desc, data,
							      HSA_ACCESS_PERMISSION_RW,
							      HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR,
							      row_pitch, 0, &img);
		printf("  %s create st=%#x\n", layout ? "linear" : "opaque", st);
		if (st == HSA_STATUS_SUCCESS) {
			print_object(layout ? "linear" : "opaque", g, img.handle, data);
			if (layout == 0)
				dump_amd_image(&desc, img.handle, data);
			printf("  destroy st=%#x\n", hsa_ext_image_destroy(gpu, img));
		}
		hsa_amd_memory_pool_free(raw);
	}
}

static void dump_samplers(void)
{
	/* Valid descriptors only: ROCr 5.2.3 answers SUCCESS and an all-zero
	 * S# for values out of range, hsalite refuses them (test_image.c). */
	for (int c = 0; c <= 1; c++)
		for (int a = 0; a <= 4; a++)
			for (int fm = 0; fm <= 1; fm++) {
				hsa_ext_sampler_descriptor_t sd = {
					(hsa_ext_sampler_coordinate_mode32_t)c,
					(hsa_ext_sampler_filter_mode32_t)fm,
					(hsa_ext_sampler_addressing_mode32_t)a
				};
				hsa_ext_sampler_t s = { 0 };
				hsa_status_t st = hsa_ext_sampler_create(gpu, &sd, &s);
				printf("sampler c=%d a=%d f=%d st=%#x", c, a, fm, st);
				if (st == HSA_STATUS_SUCCESS) {
					uint32_t w[8];
					memcpy(w, (const void *)(uintptr_t)s.handle, sizeof(w));
					printf(" align16=%d", (int)(s.handle % 16 == 0));
					for (int i = 0; i < 8; i++)
						printf(" %08x", w[i]);
					printf(" destroy st=%#x", hsa_ext_sampler_destroy(gpu, s));
				}
				printf("\n");
			}
}

static void dump_agent_info(void)
{
	for (uint32_t attr = 0x3000; attr <= 0x300c; attr++) {
		uint32_t v[3] = { 0xdeadbeef, 0xdeadbeef, 0xdeadbeef };
		hsa_status_t st = hsa_agent_get_info(gpu, (hsa_agent_info_t)attr, v);
		/* MAX_SAMPLER_HANDLERS: ROCr 5.2.3 answers the chip id (a
		 * missing break), ROCr 1.18 and hsalite 16 (docs/
		 * differences.md; api_statuses and surface_attrs pin each) */
		if (attr == 0x300b && st == HSA_STATUS_SUCCESS) {
			uint32_t chip = 0;
			hsa_agent_get_info(gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_CHIP_ID, &chip);
			if (v[0] == chip || v[0] == 16) {
				printf("agent_info %#x st=%#x chip-or-16 %u %u\n", attr, st, v[1], v[2]);
				goto max_dim;
			}
		}
		printf("agent_info %#x st=%#x %u %u %u\n", attr, st, v[0], v[1], v[2]);
	max_dim:;
		uint32_t m[3] = { 0xdeadbeef, 0xdeadbeef, 0xdeadbeef };
		st = hsa_amd_image_get_info_max_dim(gpu, (hsa_agent_info_t)attr, m);
		printf("max_dim %#x st=%#x %u %u %u\n", attr, st, m[0], m[1], m[2]);
	}
}

static void dump_extension(void)
{
	bool ok = false;
	hsa_status_t st = hsa_system_extension_supported(HSA_EXTENSION_IMAGES, 1, 0, &ok);
	printf("extension_supported 1.0 st=%#x %d\n", st, ok);
	uint16_t minor = 0xffff;
	st = hsa_system_major_extension_supported(HSA_EXTENSION_IMAGES, 1, &minor, &ok);
	printf("major_extension_supported 1 st=%#x %d minor=%u\n", st, ok, minor);
	st = hsa_agent_extension_supported(HSA_EXTENSION_IMAGES, gpu, 1, 0, &ok);
	printf("agent_extension_supported st=%#x %d\n", st, ok);
	hsa_ext_images_1_pfn_t t;
	memset(&t, 0, sizeof(t));
	st = hsa_system_get_major_extension_table(HSA_EXTENSION_IMAGES, 1, sizeof(t), &t);
	printf("major_table st=%#x complete=%d\n", st,
	       t.hsa_ext_image_create_with_layout != NULL && t.hsa_ext_image_get_capability != NULL);
	hsa_ext_images_1_00_pfn_t t0;
	memset(&t0, 0, sizeof(t0));
	st = hsa_system_get_extension_table(HSA_EXTENSION_IMAGES, 1, 0, &t0);
	printf("table 1.0 st=%#x complete=%d\n", st, t0.hsa_ext_sampler_destroy != NULL);
	uint8_t mask[128];
	memset(mask, 0, sizeof(mask));
	hsa_system_get_info(HSA_SYSTEM_INFO_EXTENSIONS, mask);
	printf("system mask images=%d\n", !!(mask[HSA_EXTENSION_IMAGES / 8] &
					      (1u << (HSA_EXTENSION_IMAGES % 8))));
	memset(mask, 0, sizeof(mask));
	hsa_agent_get_info(gpu, HSA_AGENT_INFO_EXTENSIONS, mask);
	printf("agent mask images=%d\n", !!(mask[HSA_EXTENSION_IMAGES / 8] &
					     (1u << (HSA_EXTENSION_IMAGES % 8))));
}

int main(int argc, char **argv)
{
	const char *only = argc > 1 ? argv[1] : "all";
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (hsa_init() != HSA_STATUS_SUCCESS) {
		fprintf(stderr, "image_dump: hsa_init failed\n");
		return 1;
	}
	hsa_iterate_agents(find_gpu, NULL);
	if (!gpu.handle)
		return 77;
	hsa_amd_agent_iterate_memory_pools(gpu, find_vram, NULL);
	if (!vram.handle)
		return 1;
	if (!strcmp(only, "all") || !strcmp(only, "ext"))
		dump_extension();
	if (!strcmp(only, "all") || !strcmp(only, "info"))
		dump_agent_info();
	if (!strcmp(only, "all") || !strcmp(only, "sampler"))
		dump_samplers();
	if (!strcmp(only, "all") || !strcmp(only, "image"))
		for (int g = 0; g <= HSA_EXT_IMAGE_GEOMETRY_2DADEPTH; g++)
			for (int o = 0; o <= HSA_EXT_IMAGE_CHANNEL_ORDER_DEPTH_STENCIL; o++)
				for (int t = 0; t <= HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT; t++) {
					hsa_ext_image_format_t f = {
						(hsa_ext_image_channel_type32_t)t,
						(hsa_ext_image_channel_order32_t)o
					};
					uint32_t cap = 0xdeadbeef;
					hsa_status_t st = hsa_ext_image_get_capability(
						gpu, (hsa_ext_image_geometry_t)g, &f, &cap);
					uint32_t capl = 0xdeadbeef;
					hsa_status_t stl = hsa_ext_image_get_capability_with_layout(
						gpu, (hsa_ext_image_geometry_t)g, &f,
						HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, &capl);
					printf("cap g=%d o=%d t=%d st=%#x %#x linear st=%#x %#x\n", g,
					       o, t, st, cap, stl, capl);
					if (st != HSA_STATUS_SUCCESS || !cap)
						continue;
					struct dims d[4];
					int n = dims_for((hsa_ext_image_geometry_t)g, d);
					for (int i = 0; i < n; i++)
						dump_image((hsa_ext_image_geometry_t)g, f, d[i]);
				}
	hsa_shut_down();
	return 0;
}
