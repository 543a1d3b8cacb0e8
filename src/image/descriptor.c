/*
 * The hardware descriptors of images and samplers, GFX9 layout, as ROCr
 * 5.2.3's ImageManagerAi::PopulateImageSrd and PopulateSamplerSrd write
 * them (field layouts: ROCr's resource_ai.h, the SQ_IMG_RSRC_WORD*,
 * SQ_BUF_RSRC_WORD* and SQ_IMG_SAMP_WORD* registers).
 *
 * Image (T#, 8 dwords):
 *   0  BASE_ADDRESS = address[39:8]
 *   1  BASE_ADDRESS_HI [7:0] = address[47:40], MIN_LOD [19:8] = 0,
 *      DATA_FORMAT [25:20], NUM_FORMAT [29:26]
 *   2  WIDTH-1 [13:0], HEIGHT-1 [27:14] (height 0 wraps to 0x3fff, as ROCr)
 *   3  DST_SEL_X/Y/Z/W [11:0], BASE_LEVEL, LAST_LEVEL = 0, SW_MODE [24:20],
 *      TYPE [31:28]
 *   4  DEPTH [12:0] (layers-1, depth-1, else 0), PITCH-1 [28:13],
 *      BC_SWIZZLE [31:29]
 *   5-7 0 (no metadata, no mips)
 * A 1DB image is a buffer (V#, 4 dwords): BASE_ADDRESS [31:0];
 * BASE_ADDRESS_HI [15:0], STRIDE [29:16] = element size; NUM_RECORDS = width
 * * element size; DST_SEL [11:0], NUM_FORMAT [14:12], DATA_FORMAT [18:15],
 * INDEX_STRIDE [22:21] = element size mod 4 (ROCr stores the size in the
 * 2-bit field), TYPE [31:30] = 0.
 * Then, for HSAIL's image ABI, dword 8 = channel type, 9 = channel order,
 * 10 = width; 11 = 0.
 *
 * The address is the GPU address minus the VRAM region's base
 * (HSA_AMD_REGION_INFO_BASE; ROCr's IsLocalMemory is always true on gfx9).
 */
#include <errno.h>

#include "image/image_priv.h"

/* TEX_BC_SWIZZLE: where the border colour's alpha lands (ROCr's
 * GetBcSwizzle). */
enum { BC_XYZW = 0, BC_XWYZ = 1, BC_WZYX = 2, BC_WXYZ = 3, BC_ZYXW = 4, BC_YXWZ = 5 };

static uint32_t bc_swizzle(const uint8_t sel[4])
{
	const uint8_t r = sel[0], g = sel[1], b = sel[2], a = sel[3];
	if (a == HL_SEL_X) {
		if (b == HL_SEL_Y)
			return BC_WZYX;
		if (r == HL_SEL_X && g == HL_SEL_X && b == HL_SEL_X)
			return BC_XYZW;
		return BC_WXYZ;
	}
	if (r == HL_SEL_X) {
		if (g == HL_SEL_Y)
			return BC_XYZW;
		if (g == HL_SEL_X && b == HL_SEL_X && a == HL_SEL_W)
			return BC_XYZW;
		return BC_XWYZ;
	}
	if (g == HL_SEL_X)
		return BC_YXWZ;
	if (b == HL_SEL_X)
		return BC_ZYXW;
	return BC_XYZW;
}

static uint32_t dst_sel(const uint8_t sel[4])
{
	return (uint32_t)sel[0] | (uint32_t)sel[1] << 3 | (uint32_t)sel[2] << 6 |
	       (uint32_t)sel[3] << 9;
}

void hl_image_write_srd(struct hl_image *img, uint64_t addr)
{
	const hsa_ext_image_descriptor_t *d = &img->desc;
	const struct hl_image_props *p = &img->props;
	uint8_t sel[4];
	hl_image_swizzle(d->format.channel_order, sel);
	uint32_t *w = img->srd;
	for (int i = 0; i < 12; i++)
		w[i] = 0;

	if (d->geometry == HSA_EXT_IMAGE_GEOMETRY_1DB) {
		w[0] = (uint32_t)addr;
		w[1] = (uint32_t)(addr >> 32) & 0xffff;
		w[1] |= (uint32_t)(p->elem_bytes & 0x3fff) << 16;
		w[2] = (uint32_t)(d->width * p->elem_bytes);
		w[3] = dst_sel(sel) | (uint32_t)(p->num_format & 7) << 12 |
		       (uint32_t)(p->data_format & 15) << 15 | (uint32_t)(p->elem_bytes & 3) << 21;
	} else {
		const bool array = d->geometry == HSA_EXT_IMAGE_GEOMETRY_1DA ||
				   d->geometry == HSA_EXT_IMAGE_GEOMETRY_2DA ||
				   d->geometry == HSA_EXT_IMAGE_GEOMETRY_2DADEPTH;
		uint32_t depth = 0;
		if (array)
			depth = (uint32_t)(d->array_size ? d->array_size : 1) - 1;
		else if (d->geometry == HSA_EXT_IMAGE_GEOMETRY_3D)
			depth = (uint32_t)d->depth - 1;
		w[0] = (uint32_t)((addr & 0xffffffffffull) >> 8);
		w[1] = (uint32_t)(addr >> 40) & 0xff;
		w[1] |= (uint32_t)(p->data_format & 0x3f) << 20 | (uint32_t)(p->num_format & 15) << 26;
		w[2] = ((uint32_t)d->width - 1) & 0x3fff;
		w[2] |= (((uint32_t)d->height - 1) & 0x3fff) << 14;
		w[3] = dst_sel(sel) | (img->surf.sw_mode & 31) << 20 |
		       (hl_image_hw_type(d->geometry) & 15) << 28;
		w[4] = (depth & 0x1fff) | ((img->surf.pitch - 1) & 0xffff) << 13 |
		       bc_swizzle(sel) << 29;
	}
	w[8] = d->format.channel_type;
	w[9] = d->format.channel_order;
	w[10] = (uint32_t)d->width;
}

/* SQ_TEX_CLAMP and SQ_TEX_XY_FILTER values. */
enum { CLAMP_WRAP = 0, CLAMP_MIRROR = 1, CLAMP_LAST_TEXEL = 2, CLAMP_BORDER = 6 };
enum { FILTER_POINT = 0, FILTER_BILINEAR = 1 };

int hl_sampler_write_srd(uint32_t srd[8], const hsa_ext_sampler_descriptor_t *d)
{
	uint32_t clamp, filter;
	switch (d->address_mode) {
	case HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE:
		clamp = CLAMP_LAST_TEXEL;
		break;
	case HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_BORDER:
		clamp = CLAMP_BORDER;
		break;
	case HSA_EXT_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT:
		clamp = CLAMP_MIRROR;
		break;
	case HSA_EXT_SAMPLER_ADDRESSING_MODE_UNDEFINED:
	case HSA_EXT_SAMPLER_ADDRESSING_MODE_REPEAT:
		clamp = CLAMP_WRAP;
		break;
	default:
		return -EINVAL;
	}
	switch (d->filter_mode) {
	case HSA_EXT_SAMPLER_FILTER_MODE_NEAREST:
		filter = FILTER_POINT;
		break;
	case HSA_EXT_SAMPLER_FILTER_MODE_LINEAR:
		filter = FILTER_BILINEAR;
		break;
	default:
		return -EINVAL;
	}
	if (d->coordinate_mode != HSA_EXT_SAMPLER_COORDINATE_MODE_UNNORMALIZED &&
	    d->coordinate_mode != HSA_EXT_SAMPLER_COORDINATE_MODE_NORMALIZED)
		return -EINVAL;
	for (int i = 0; i < 8; i++)
		srd[i] = 0;
	/* word0: CLAMP_X/Y/Z [8:0], FORCE_UNNORMALIZED [15] */
	srd[0] = clamp | clamp << 3 | clamp << 6;
	if (d->coordinate_mode == HSA_EXT_SAMPLER_COORDINATE_MODE_UNNORMALIZED)
		srd[0] |= 1u << 15;
	/* word1: MIN_LOD 0, MAX_LOD [23:12] = 4095 */
	srd[1] = 4095u << 12;
	/* word2: XY_MAG_FILTER [21:20], XY_MIN_FILTER [23:22]; Z and MIP
	 * filters none */
	srd[2] = filter << 20 | filter << 22;
	/* word3: BORDER_COLOR_TYPE transparent black (0) */
	return 0;
}
