/*
 * The GFX9 surface layout of an image: what ROCr 5.2.3's ImageManagerAi
 * asks addrlib (Addr2GetPreferredSurfaceSetting, then
 * Addr2ComputeSurfaceInfo) for one mip level, one sample, texture usage.
 *
 * ROCr's inputs: resource type 1D for 1D, 1DA and 1DB (so a 1DA image is
 * one row per layer), 2D for 2D, 2DA and the depth geometries, 3D for 3D;
 * slices = max(1, array_size, depth); width and height as given (addrlib
 * raises 0 to 1); the customised pitch is row_pitch / element size.  The
 * linear layout forbids every block but linear; the optimal layout
 * (TILED, chosen by ROCr for a base-profile GPU and any geometry but 1DB)
 * lets addrlib choose among 4 KiB and 64 KiB blocks.
 *
 * Linear (Gfx9Lib::HwlComputeSurfaceInfoLinear): rows aligned to 256
 * bytes; a 1D resource must have height 1; a customised pitch must be a
 * multiple of that alignment and at least the padded width, and then is
 * the pitch; slice = pitch * height * element size; size = slice * slices;
 * base alignment 256.  Addrlib failures are -EINVAL (ROCr's release build
 * returns HSA_STATUS_ERROR; Debian's ROCr asserts).
 *
 * GFX9 textures of resource type 1D are always linear, so the optimal
 * layout of 1D, 1DA and 1DB images is the linear one.
 */
#include <errno.h>

#include "image/image.h"

enum rsrc { RSRC_1D, RSRC_2D, RSRC_3D };

static enum rsrc rsrc_type(hsa_ext_image_geometry_t g)
{
	switch (g) {
	case HSA_EXT_IMAGE_GEOMETRY_1D:
	case HSA_EXT_IMAGE_GEOMETRY_1DA:
	case HSA_EXT_IMAGE_GEOMETRY_1DB:
		return RSRC_1D;
	case HSA_EXT_IMAGE_GEOMETRY_3D:
		return RSRC_3D;
	default:
		return RSRC_2D;
	}
}

static uint32_t align_up(uint32_t v, uint32_t a)
{
	return (v + a - 1) / a * a;
}

static int surface_linear(uint32_t width, uint32_t height, enum rsrc rsrc, uint32_t eb,
			  size_t row_pitch, struct hl_image_surface *out)
{
	const uint32_t pitch_align = 256 / eb;
	if (rsrc == RSRC_1D && height > 1)
		return -EINVAL;
	uint32_t pitch = align_up(width, pitch_align);
	uint64_t custom = row_pitch / eb;
	if (custom) {
		if (custom % pitch_align || custom < pitch || custom > UINT32_MAX)
			return -EINVAL;
		pitch = (uint32_t)custom;
	}
	out->sw_mode = HL_SW_LINEAR;
	out->pitch = pitch;
	out->height = height;
	out->slice_size = (uint64_t)pitch * height * eb;
	out->size = out->slice_size * out->slices;
	out->align = 256;
	out->block_w = pitch_align;
	out->block_h = 1;
	out->block_d = 1;
	return 0;
}

int hl_image_surface(const struct hl_agent *agent, const hsa_ext_image_descriptor_t *desc,
		     const struct hl_image_props *props, bool tiled, size_t row_pitch,
		     struct hl_image_surface *out)
{
	(void)agent;
	if (!props->elem_bytes)
		return -EINVAL;
	const enum rsrc rsrc = rsrc_type(desc->geometry);
	uint32_t width = (uint32_t)desc->width, height = (uint32_t)desc->height;
	size_t slices = desc->array_size > desc->depth ? desc->array_size : desc->depth;
	if (slices > UINT32_MAX)
		return -EINVAL;
	out->slices = slices ? (uint32_t)slices : 1;
	out->elem_bytes = props->elem_bytes;
	width = width ? width : 1;
	height = height ? height : 1;
	if (rsrc == RSRC_1D || !tiled)
		return surface_linear(width, height, rsrc, props->elem_bytes,
				      tiled ? 0 : row_pitch, out);
	return -ENOTSUP;
}

uint64_t hl_image_surface_offset(const struct hl_image_surface *s, uint32_t x, uint32_t y,
				 uint32_t z)
{
	return (uint64_t)z * s->slice_size + ((uint64_t)y * s->pitch + x) * s->elem_bytes;
}
