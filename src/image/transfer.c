/*
 * Import, export, copy and clear: moving elements between an image and
 * linear memory, between two images, or from a colour.
 *
 * ROCr 5.2.3 runs blit kernels that read and write through the image
 * descriptors (image/blit_kernel.cpp).  We move bytes with the element
 * layout of the surface instead (hl_image_surface_offset), which needs no
 * image instructions: the part of the image the region covers is read
 * into host memory with hsa_memory_copy (a blit on the image's GPU, as any
 * copy from GPU memory), changed there, and written back; for a tiled
 * image that part is the blocks from the region's first to its last, and
 * elements are placed one by one in the GFX9 element order
 * (gfx9_swizzle.h).  So a transfer
 * rewrites the bytes between the region's first and last element with
 * their own values: a kernel writing the image outside the region at the
 * same time may lose its writes (the HSA spec leaves concurrent access to
 * an image during a transfer undefined).  Every call is synchronous, as
 * ROCr's.
 *
 * Facts kept from ROCr: the linear buffer's row pitch is max(given, range
 * width * element size) and its slice pitch max(given, row pitch * range
 * height), for 1DA the row pitch (one row per layer; BlitKernel::
 * CalcBufferRowSlicePitchesInPixel); 1DA images take the layer in y, 2DA
 * in z; a copy needs both images on one agent with the same format, or
 * sRGBA and RGBA UNORM8 either way round (converted per channel with the
 * HSA PRM s-form rules); a clear colour is four floats, four int32 or four
 * uint32 (the integer channel types), sRGB channels converted from
 * linear.  Different: a region outside the image is INVALID_ARGUMENT
 * (ROCr's kernels leave out-of-range elements alone), and images made by
 * hsa_amd_image_create with a compressed surface or a swizzle mode
 * gfx9_swizzle.h does not describe (PRT, variable) are refused with
 * NOT_SUPPORTED (their layout is the caller's: image.c reads it from the
 * T#).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "image/image_priv.h"
#include "util/log.h"

#define LOG "image"

/* The extent of each coordinate of an image: x, y, z. */
static void extent(const struct hl_image *img, uint64_t e[3])
{
	const hsa_ext_image_descriptor_t *d = &img->desc;
	uint64_t w = d->width, h = d->height ? d->height : 1;
	uint64_t layers = d->array_size ? d->array_size : 1;
	e[0] = w;
	e[1] = 1;
	e[2] = 1;
	switch (d->geometry) {
	case HSA_EXT_IMAGE_GEOMETRY_2D:
	case HSA_EXT_IMAGE_GEOMETRY_2DDEPTH:
		e[1] = h;
		break;
	case HSA_EXT_IMAGE_GEOMETRY_3D:
		e[1] = h;
		e[2] = d->depth ? d->depth : 1;
		break;
	case HSA_EXT_IMAGE_GEOMETRY_1DA:
		e[1] = layers;
		break;
	case HSA_EXT_IMAGE_GEOMETRY_2DA:
	case HSA_EXT_IMAGE_GEOMETRY_2DADEPTH:
		e[1] = h;
		e[2] = layers;
		break;
	default:
		break;
	}
}

static bool region_inside(const struct hl_image *img, const hsa_dim3_t *off, const hsa_dim3_t *rng)
{
	uint64_t e[3];
	extent(img, e);
	const uint64_t o[3] = { off->x, off->y, off->z }, r[3] = { rng->x, rng->y, rng->z };
	for (int i = 0; i < 3; i++)
		if (o[i] + r[i] > e[i])
			return false;
	return true;
}

/* Byte offset of image coordinate (x, y, z): 1DA keeps its layer in y. */
static uint64_t elem_offset(const struct hl_image *img, uint64_t x, uint64_t y, uint64_t z)
{
	if (img->desc.geometry == HSA_EXT_IMAGE_GEOMETRY_1DA)
		return hl_image_surface_offset(&img->surf, (uint32_t)x, 0, (uint32_t)y);
	return hl_image_surface_offset(&img->surf, (uint32_t)x, (uint32_t)y, (uint32_t)z);
}

/* The image bytes a region touches, staged in host memory. */
struct stage {
	struct hl_image *img;
	uint64_t first;        /* image byte offset of stage[0] */
	uint64_t len;
	uint8_t *buf;
};

static hsa_status_t stage_read(struct hl_image *img, const hsa_dim3_t *off, const hsa_dim3_t *rng,
			       struct stage *s)
{
	const uint32_t eb = img->surf.elem_bytes;
	s->img = img;
	if (img->surf.sw_mode == HL_SW_LINEAR) {
		s->first = elem_offset(img, off->x, off->y, off->z);
		uint64_t last = elem_offset(img, off->x + rng->x - 1, off->y + rng->y - 1,
					    off->z + rng->z - 1) + eb;
		s->len = last - s->first;
	} else {
		/* Tiled: blocks are numbered slice, row, column, so the
		 * blocks of the region's first and last corners bound every
		 * block it touches (surf.align is the block size). */
		const uint64_t blk = img->surf.align;
		s->first = elem_offset(img, off->x, off->y, off->z) / blk * blk;
		s->len = (elem_offset(img, off->x + rng->x - 1, off->y + rng->y - 1,
				      off->z + rng->z - 1) / blk + 1) * blk - s->first;
	}
	s->buf = malloc(s->len);
	if (!s->buf)
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	hsa_status_t st = hsa_memory_copy(s->buf, (uint8_t *)img->data + s->first, s->len);
	if (st != HSA_STATUS_SUCCESS) {
		free(s->buf);
		s->buf = NULL;
	}
	return st;
}

static hsa_status_t stage_write_back(struct stage *s)
{
	hsa_status_t st = hsa_memory_copy((uint8_t *)s->img->data + s->first, s->buf, s->len);
	free(s->buf);
	s->buf = NULL;
	return st;
}

static uint8_t *stage_at(struct stage *s, uint64_t x, uint64_t y, uint64_t z)
{
	return s->buf + (elem_offset(s->img, x, y, z) - s->first);
}

/* Checks shared by the transfers: the handle names an image whose layout
 * we know. */
static hsa_status_t transfer_image(struct hl_runtime *rt, uint64_t handle, struct hl_image **out)
{
	struct hl_image *img = hl_image_lookup(rt, handle);
	if (!img)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	if (!img->surf.pitch) {
		hl_warn(LOG, "transfer on an image of hsa_amd_image_create whose layout is "
			     "compressed or a swizzle mode not described here");
		return (hsa_status_t)HSA_STATUS_ERROR_NOT_SUPPORTED;
	}

	*out = img;
	return HSA_STATUS_SUCCESS;
}

/* Elements of a row that are contiguous in the image: the whole row in
 * a linear surface, one element in a tiled one. */
static uint64_t row_run(const struct hl_image *img, uint64_t width)
{
	return img->surf.sw_mode == HL_SW_LINEAR ? width : 1;
}

static bool region_empty(const hsa_dim3_t *r)
{
	return !r->x || !r->y || !r->z;
}

/* The linear buffer's pitches in bytes (ROCr's rule, see the top). */
static void buffer_pitches(const struct hl_image *img, const hsa_dim3_t *rng, size_t row_in,
			   size_t slice_in, uint64_t *row, uint64_t *slice)
{
	const uint64_t eb = img->surf.elem_bytes;
	uint64_t r = row_in / eb > rng->x ? row_in / eb : rng->x;
	uint64_t s = r;
	if (img->desc.geometry != HSA_EXT_IMAGE_GEOMETRY_1DA) {
		s = r * rng->y;
		if (slice_in / eb > s)
			s = slice_in / eb;
	}
	*row = r * eb;
	*slice = s * eb;
}

enum direction { TO_IMAGE, FROM_IMAGE };

static hsa_status_t buffer_transfer(struct hl_image *img, void *mem, size_t row_in,
				    size_t slice_in, const hsa_ext_image_region_t *region,
				    enum direction dir)
{
	const hsa_dim3_t *off = &region->offset, *rng = &region->range;
	if (!region_inside(img, off, rng))
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	if (region_empty(rng))
		return HSA_STATUS_SUCCESS;
	const uint64_t eb = img->surf.elem_bytes;
	uint64_t row, slice;
	buffer_pitches(img, rng, row_in, slice_in, &row, &slice);
	const uint64_t span = (rng->z - 1) * slice + (rng->y - 1) * row + rng->x * eb;
	uint8_t *lin = malloc(span);
	if (!lin)
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	struct stage s = { 0 };
	hsa_status_t st = HSA_STATUS_SUCCESS;
	if (dir == TO_IMAGE)
		st = hsa_memory_copy(lin, mem, span);
	if (st == HSA_STATUS_SUCCESS)
		st = stage_read(img, off, rng, &s);
	if (st != HSA_STATUS_SUCCESS)
		goto out_free_linear;
	const uint64_t run = row_run(img, rng->x);
	for (uint64_t z = 0; z < rng->z; z++)
		for (uint64_t y = 0; y < rng->y; y++)
			for (uint64_t x = 0; x < rng->x; x += run) {
				uint8_t *in_image = stage_at(&s, off->x + x, off->y + y, off->z + z);
				uint8_t *in_linear = lin + z * slice + y * row + x * eb;
				if (dir == TO_IMAGE)
					memcpy(in_image, in_linear, run * eb);
				else
					memcpy(in_linear, in_image, run * eb);
			}
	if (dir == TO_IMAGE) {
		st = stage_write_back(&s);
	} else {
		free(s.buf);
		st = hsa_memory_copy(mem, lin, span);
	}
out_free_linear:
	free(lin);
	return st;
}

hsa_status_t hsa_ext_image_import(hsa_agent_t agent, const void *src, size_t src_row_pitch,
				  size_t src_slice_pitch, hsa_ext_image_t dst,
				  const hsa_ext_image_region_t *region)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!agent.handle)
		return HSA_STATUS_ERROR_INVALID_AGENT;
	if (!src || !dst.handle || !region)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	struct hl_image *img;
	hsa_status_t st = transfer_image(rt, dst.handle, &img);
	if (st != HSA_STATUS_SUCCESS)
		return st;
	return buffer_transfer(img, (void *)(uintptr_t)src, src_row_pitch, src_slice_pitch, region,
			       TO_IMAGE);
}

hsa_status_t hsa_ext_image_export(hsa_agent_t agent, hsa_ext_image_t src, void *dst,
				  size_t dst_row_pitch, size_t dst_slice_pitch,
				  const hsa_ext_image_region_t *region)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!agent.handle)
		return HSA_STATUS_ERROR_INVALID_AGENT;
	if (!dst || !src.handle || !region)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	struct hl_image *img;
	hsa_status_t st = transfer_image(rt, src.handle, &img);
	if (st != HSA_STATUS_SUCCESS)
		return st;
	return buffer_transfer(img, dst, dst_row_pitch, dst_slice_pitch, region, FROM_IMAGE);
}

/* HSA PRM 7.1.4.1.2, as ROCr's ImageManager computes them. */
static float srgb_to_linear(float s)
{
	double v = s;
	return (float)(v <= 0.04045f ? v / 12.92f : pow((v + 0.055f) / 1.055f, 2.4f));
}

static float linear_to_srgb(float l)
{
	double v = l;
	if (isnan(v) || v < 0.0)
		return 0.0f;
	if (v > 1.0)
		return 1.0f;
	if (v < 0.0031308)
		return (float)(12.92 * v);
	return (float)(1.055 * pow(v, 5.0 / 12.0) - 0.055);
}

static uint8_t unorm8(float f)
{
	if (!(f > 0.0f))
		return 0;
	if (f >= 1.0f)
		return 255;
	return (uint8_t)lrintf(f * 255.0f);
}

hsa_status_t hsa_ext_image_copy(hsa_agent_t agent, hsa_ext_image_t src, const hsa_dim3_t *src_off,
				hsa_ext_image_t dst, const hsa_dim3_t *dst_off,
				const hsa_dim3_t *range)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!agent.handle)
		return HSA_STATUS_ERROR_INVALID_AGENT;
	if (!src.handle || !dst.handle || !src_off || !dst_off || !range)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	struct hl_image *si, *di;
	hsa_status_t st = transfer_image(rt, src.handle, &si);
	if (st == HSA_STATUS_SUCCESS)
		st = transfer_image(rt, dst.handle, &di);
	if (st != HSA_STATUS_SUCCESS)
		return st;
	if (si->agent != di->agent)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	const hsa_ext_image_format_t sf = si->desc.format, df = di->desc.format;
	int convert = 0; /* 1: sRGB to linear, 2: linear to sRGB */
	if (sf.channel_order != df.channel_order || sf.channel_type != df.channel_type) {
		if (sf.channel_type != HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8 ||
		    df.channel_type != HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8)
			return HSA_STATUS_ERROR_INVALID_ARGUMENT;
		if (sf.channel_order == HSA_EXT_IMAGE_CHANNEL_ORDER_SRGBA &&
		    df.channel_order == HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA)
			convert = 1;
		else if (sf.channel_order == HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA &&
			 df.channel_order == HSA_EXT_IMAGE_CHANNEL_ORDER_SRGBA)
			convert = 2;
		else
			return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	}
	if (!region_inside(si, src_off, range) || !region_inside(di, dst_off, range))
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	if (region_empty(range))
		return HSA_STATUS_SUCCESS;
	struct stage ss = { 0 }, ds = { 0 };
	st = stage_read(si, src_off, range, &ss);
	if (st != HSA_STATUS_SUCCESS)
		return st;
	st = stage_read(di, dst_off, range, &ds);
	if (st != HSA_STATUS_SUCCESS)
		goto out_free_source;
	const uint32_t eb = si->surf.elem_bytes;
	uint64_t run = row_run(si, range->x);
	if (row_run(di, range->x) < run || convert)
		run = 1;
	for (uint64_t z = 0; z < range->z; z++)
		for (uint64_t y = 0; y < range->y; y++)
			for (uint64_t x = 0; x < range->x; x += run) {
				const uint8_t *from = stage_at(&ss, src_off->x + x, src_off->y + y,
							       src_off->z + z);
				uint8_t *to = stage_at(&ds, dst_off->x + x, dst_off->y + y,
						       dst_off->z + z);
				if (!convert) {
					memcpy(to, from, run * eb);
					continue;
				}
				for (int c = 0; c < 3; c++) {
					float v = from[c] / 255.0f;
					to[c] = unorm8(convert == 1 ? srgb_to_linear(v)
								    : linear_to_srgb(v));
				}
				to[3] = from[3];
			}
	st = stage_write_back(&ds);
out_free_source:
	free(ss.buf);
	return st;
}

/* ---- clear ---- */

/* Bits of each hardware component (X, Y, Z, W) of a data format. */
static void component_bits(uint32_t data_format, uint8_t bits[4])
{
	static const struct {
		uint8_t fmt, bits[4];
	} table[] = {
		{ HL_FMT_8, { 8, 0, 0, 0 } },          { HL_FMT_16, { 16, 0, 0, 0 } },
		{ HL_FMT_8_8, { 8, 8, 0, 0 } },        { HL_FMT_32, { 32, 0, 0, 0 } },
		{ HL_FMT_16_16, { 16, 16, 0, 0 } },    { HL_FMT_2_10_10_10, { 10, 10, 10, 2 } },
		{ HL_FMT_8_8_8_8, { 8, 8, 8, 8 } },    { HL_FMT_32_32, { 32, 32, 0, 0 } },
		{ HL_FMT_16_16_16_16, { 16, 16, 16, 16 } },
		{ HL_FMT_32_32_32_32, { 32, 32, 32, 32 } },
		{ HL_FMT_5_6_5, { 5, 6, 5, 0 } },      { HL_FMT_1_5_5_5, { 5, 5, 5, 1 } },
	};
	memset(bits, 0, 4);
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (table[i].fmt == data_format)
			memcpy(bits, table[i].bits, 4);
}

static uint16_t half_from_float(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof(u));
	const uint32_t sign = (u >> 16) & 0x8000, exp = (u >> 23) & 0xff, man = u & 0x7fffff;
	if (exp == 0xff)
		return (uint16_t)(sign | 0x7c00 | (man ? 0x200 : 0));
	int e = (int)exp - 127 + 15;
	if (e >= 31)
		return (uint16_t)(sign | 0x7c00);
	if (e <= 0) {
		if (e < -10)
			return (uint16_t)sign;
		uint32_t m = (man | 0x800000) >> (1 - e);
		return (uint16_t)(sign | ((m + 0x1000) >> 13));
	}
	uint32_t h = sign | (uint32_t)e << 10 | man >> 13;
	if (man & 0x1000)
		h++; /* round half up; carries into the exponent correctly */
	return (uint16_t)h;
}

/* One channel value as the hardware's numeric format stores it in bits. */
static uint32_t encode(uint32_t num_format, uint32_t bits, float f, uint32_t u, int32_t i)
{
	const uint32_t mask = bits >= 32 ? 0xffffffffu : (1u << bits) - 1;
	switch (num_format) {
	case HL_NUM_UNORM:
	case HL_NUM_SRGB: {
		if (!(f > 0.0f))
			return 0;
		if (f >= 1.0f)
			return mask;
		return (uint32_t)lrint((double)f * mask);
	}
	case HL_NUM_SNORM: {
		const double max = (double)(mask >> 1);
		double v = f < -1.0f ? -1.0 : f > 1.0f ? 1.0 : isnan(f) ? 0.0 : (double)f;
		return (uint32_t)(int32_t)lrint(v * max) & mask;
	}
	case HL_NUM_UINT:
		return u > mask ? mask : u;
	case HL_NUM_SINT: {
		const int64_t max = (int64_t)(mask >> 1), min = -max - 1;
		int64_t v = i > max ? max : i < min ? min : i;
		return (uint32_t)v & mask;
	}
	case HL_NUM_FLOAT:
		if (bits == 16)
			return half_from_float(f);
		memcpy(&u, &f, sizeof(u));
		return u;
	default:
		return 0;
	}
}

void hl_image_pack_color(const struct hl_image *img, const void *color, uint8_t out[16])
{
	const struct hl_image_props *p = &img->props;
	const bool integer = p->num_format == HL_NUM_UINT || p->num_format == HL_NUM_SINT;
	const bool srgb = p->num_format == HL_NUM_SRGB;
	float f[4] = { 0, 0, 0, 0 };
	uint32_t u[4] = { 0, 0, 0, 0 };
	memcpy(integer ? (void *)u : (void *)f, color, 16);
	if (srgb)
		for (int c = 0; c < 3; c++)
			f[c] = linear_to_srgb(f[c]);
	/* Which result channel (r, g, b, a) each hardware component holds:
	 * the first channel whose select names it. */
	uint8_t sel[4];
	hl_image_swizzle(img->desc.format.channel_order, sel);
	uint8_t bits[4];
	component_bits(p->data_format, bits);
	memset(out, 0, 16);
	uint32_t bit = 0;
	for (int comp = 0; comp < 4 && bits[comp]; comp++) {
		int ch = -1;
		for (int c = 0; c < 4 && ch < 0; c++)
			if (sel[c] == HL_SEL_X + comp)
				ch = c;
		uint32_t v = ch < 0 ? 0
				    : encode(p->num_format, bits[comp], f[ch], u[ch],
					     (int32_t)u[ch]);
		for (uint32_t b = 0; b < bits[comp]; b++, bit++)
			if (v >> b & 1)
				out[bit / 8] |= (uint8_t)(1u << (bit % 8));
	}
}

hsa_status_t hsa_ext_image_clear(hsa_agent_t agent, hsa_ext_image_t image, const void *data,
				 const hsa_ext_image_region_t *region)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!agent.handle)
		return HSA_STATUS_ERROR_INVALID_AGENT;
	if (!image.handle || !region || !data)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	struct hl_image *img;
	hsa_status_t st = transfer_image(rt, image.handle, &img);
	if (st != HSA_STATUS_SUCCESS)
		return st;
	const hsa_dim3_t *off = &region->offset, *rng = &region->range;
	if (!region_inside(img, off, rng))
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	if (region_empty(rng))
		return HSA_STATUS_SUCCESS;
	uint8_t elem[16];
	hl_image_pack_color(img, data, elem);
	struct stage s = { 0 };
	st = stage_read(img, off, rng, &s);
	if (st != HSA_STATUS_SUCCESS)
		return st;
	const uint32_t eb = img->surf.elem_bytes;
	for (uint64_t z = 0; z < rng->z; z++)
		for (uint64_t y = 0; y < rng->y; y++)
			for (uint64_t x = 0; x < rng->x; x++)
				memcpy(stage_at(&s, off->x + x, off->y + y, off->z + z), elem, eb);
	return stage_write_back(&s);
}
