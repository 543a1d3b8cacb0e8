/*
 * The hardware descriptors of images and samplers, GFX9 layout, as ROCr
 * 5.2.3's ImageManagerAi::PopulateImageSrd and PopulateSamplerSrd write
 * them.  The fields are named in common/amd/gfx9_desc.h, which kfdemu's
 * interpreter reads them with.
 *
 * Image (T#, 8 dwords): base, DATA_FORMAT and NUM_FORMAT, WIDTH-1 and
 * HEIGHT-1 (height 0 wraps to 0x3fff, as ROCr), DST_SEL of the channel
 * order, SW_MODE, TYPE, DEPTH (layers-1, depth-1, else 0), PITCH-1,
 * BC_SWIZZLE; MIN_LOD, BASE_LEVEL and LAST_LEVEL 0, words 5-7 0 (no
 * metadata, no mips).
 * A mip chain of n levels (ROCr's PopulateMipmapSrd): LAST_LEVEL and
 * MAX_MIP n - 1, dword 11 = n.  Its PITCH is what addrlib reports for the
 * hardware (Mesa's ac_surface: epitch = epitchIsHeight ? mipChainHeight - 1
 * : mipChainPitch - 1): for a linear chain the rows of one slice - 1 (the
 * texture unit takes the row pitch from WIDTH, aligned to 256 bytes).
 * ROCr writes the row pitch there instead, which the hardware would read
 * as the layer stride of a 1DA chain (docs/differences.md).
 * A 1DB image is a buffer (V#, 4 dwords): base, STRIDE = element size,
 * NUM_RECORDS = width * element size, DST_SEL, NUM_FORMAT, DATA_FORMAT,
 * INDEX_STRIDE = element size mod 4 (ROCr stores the size in the 2-bit
 * field), TYPE 0.
 * Then, for HSAIL's image ABI, dword 8 = channel type, 9 = channel order,
 * 10 = width; 11 = 0.
 *
 * The address is the GPU address minus the VRAM region's base
 * (HSA_AMD_REGION_INFO_BASE; ROCr's IsLocalMemory is always true on gfx9).
 */
#include <errno.h>

#include "amd/gfx9_desc.h"
#include "image/image_priv.h"

/* TEX_BC_SWIZZLE for a channel order's DST_SEL: where the border colour's
 * alpha lands (ROCr's GetBcSwizzle). */
static uint32_t bc_swizzle(const uint8_t sel[4])
{
	const uint8_t r = sel[0], g = sel[1], b = sel[2], a = sel[3];
	if (a == HL_SEL_X) {
		if (b == HL_SEL_Y)
			return GFX9_BC_WZYX;
		if (r == HL_SEL_X && g == HL_SEL_X && b == HL_SEL_X)
			return GFX9_BC_XYZW;
		return GFX9_BC_WXYZ;
	}
	if (r == HL_SEL_X) {
		if (g == HL_SEL_Y)
			return GFX9_BC_XYZW;
		if (g == HL_SEL_X && b == HL_SEL_X && a == HL_SEL_W)
			return GFX9_BC_XYZW;
		return GFX9_BC_XWYZ;
	}
	if (g == HL_SEL_X)
		return GFX9_BC_YXWZ;
	if (b == HL_SEL_X)
		return GFX9_BC_ZYXW;
	return GFX9_BC_XYZW;
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
		gfx9_v_set_base(w, addr);
		GFX9_DESC_SET(w, GFX9_V_STRIDE, p->elem_bytes);
		GFX9_DESC_SET(w, GFX9_V_NUM_RECORDS, d->width * p->elem_bytes);
		gfx9_desc_set_dst_sel(w, sel);
		GFX9_DESC_SET(w, GFX9_V_NUM_FORMAT, p->num_format);
		GFX9_DESC_SET(w, GFX9_V_DATA_FORMAT, p->data_format);
		/* ROCr stores the element size in the 2-bit field */
		GFX9_DESC_SET(w, GFX9_V_INDEX_STRIDE, p->elem_bytes);
	} else {
		const bool array = d->geometry == HSA_EXT_IMAGE_GEOMETRY_1DA ||
				   d->geometry == HSA_EXT_IMAGE_GEOMETRY_2DA ||
				   d->geometry == HSA_EXT_IMAGE_GEOMETRY_2DADEPTH;
		uint32_t depth = 0;
		if (array)
			depth = (uint32_t)(d->array_size ? d->array_size : 1) - 1;
		else if (d->geometry == HSA_EXT_IMAGE_GEOMETRY_3D)
			depth = (uint32_t)d->depth - 1;
		gfx9_t_set_base(w, addr);
		GFX9_DESC_SET(w, GFX9_T_DATA_FORMAT, p->data_format);
		GFX9_DESC_SET(w, GFX9_T_NUM_FORMAT, p->num_format);
		GFX9_DESC_SET(w, GFX9_T_WIDTH, d->width - 1);
		GFX9_DESC_SET(w, GFX9_T_HEIGHT, d->height - 1);
		gfx9_desc_set_dst_sel(w, sel);
		GFX9_DESC_SET(w, GFX9_T_SW_MODE, img->surf.sw_mode);
		GFX9_DESC_SET(w, GFX9_T_TYPE, hl_image_hw_type(d->geometry));
		GFX9_DESC_SET(w, GFX9_T_DEPTH, depth);
		const struct hl_image_surface *c = &img->chain;
		GFX9_DESC_SET(w, GFX9_T_PITCH, (c->levels > 1 ? c->height : c->pitch) - 1);
		GFX9_DESC_SET(w, GFX9_T_BC_SWIZZLE, bc_swizzle(sel));
		if (c->levels > 1) {
			GFX9_DESC_SET(w, GFX9_T_LAST_LEVEL, c->levels - 1);
			GFX9_DESC_SET(w, GFX9_T_MAX_MIP, c->levels - 1);
			w[11] = c->levels;
		}
	}
	w[8] = d->format.channel_type;
	w[9] = d->format.channel_order;
	w[10] = (uint32_t)d->width;
}

static int clamp_of(uint32_t mode, uint32_t *clamp)
{
	switch (mode) {
	case HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE:
		*clamp = GFX9_CLAMP_LAST_TEXEL;
		return 0;
	case HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_BORDER:
		*clamp = GFX9_CLAMP_BORDER;
		return 0;
	case HSA_EXT_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT:
		*clamp = GFX9_CLAMP_MIRROR;
		return 0;
	case HSA_EXT_SAMPLER_ADDRESSING_MODE_UNDEFINED:
	case HSA_EXT_SAMPLER_ADDRESSING_MODE_REPEAT:
		*clamp = GFX9_CLAMP_WRAP;
		return 0;
	default:
		return -EINVAL;
	}
}

int hl_sampler_write_srd_v2(uint32_t srd[8], const hsa_ext_sampler_descriptor_v2_t *d)
{
	uint32_t clamp[3], filter;
	for (unsigned axis = 0; axis < 3; axis++)
		if (clamp_of(d->address_modes[axis], &clamp[axis]))
			return -EINVAL;
	switch (d->filter_mode) {
	case HSA_EXT_SAMPLER_FILTER_MODE_NEAREST:
		filter = GFX9_XY_FILTER_POINT;
		break;
	case HSA_EXT_SAMPLER_FILTER_MODE_LINEAR:
		filter = GFX9_XY_FILTER_BILINEAR;
		break;
	default:
		return -EINVAL;
	}
	if (d->coordinate_mode != HSA_EXT_SAMPLER_COORDINATE_MODE_UNNORMALIZED &&
	    d->coordinate_mode != HSA_EXT_SAMPLER_COORDINATE_MODE_NORMALIZED)
		return -EINVAL;
	for (int i = 0; i < 8; i++)
		srd[i] = 0;
	for (unsigned axis = 0; axis < 3; axis++)
		GFX9_DESC_SET(srd, GFX9_S_CLAMP(axis), clamp[axis]);
	GFX9_DESC_SET(srd, GFX9_S_FORCE_UNNORMALIZED,
		      d->coordinate_mode == HSA_EXT_SAMPLER_COORDINATE_MODE_UNNORMALIZED);
	GFX9_DESC_SET(srd, GFX9_S_MAX_LOD, 4095); /* MIN_LOD 0 */
	/* MIN = MAG; Z and MIP filters none (0) */
	GFX9_DESC_SET(srd, GFX9_S_XY_MAG_FILTER, filter);
	GFX9_DESC_SET(srd, GFX9_S_XY_MIN_FILTER, filter);
	/* BORDER_COLOR_TYPE transparent black (0) */
	return 0;
}

/* The one-mode descriptor is the v2 one with that mode on every axis, as
 * ROCr 1.18's hsa_ext_sampler_create builds it. */
int hl_sampler_write_srd(uint32_t srd[8], const hsa_ext_sampler_descriptor_t *d)
{
	hsa_ext_sampler_descriptor_v2_t v2 = {
		.coordinate_mode = d->coordinate_mode,
		.filter_mode = d->filter_mode,
		.address_modes = { d->address_mode, d->address_mode, d->address_mode },
	};
	return hl_sampler_write_srd_v2(srd, &v2);
}
