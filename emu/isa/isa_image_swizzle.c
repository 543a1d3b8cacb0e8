/*
 * isa_image_swizzle.c — where a texel of a GFX9 image lives, for the image
 * instructions: the byte offset of (x, y, slice) from the image base for
 * the T#'s SW_MODE and the device's GB_ADDR_CONFIG.  The element order is
 * described once, in common/amd/gfx9_swizzle.h, which the runtime's image
 * transfers use too; its facts and how it was checked against addrlib are
 * there.
 */
#include "isa_priv.h"

#include "amd/gfx9_swizzle.h"

int kemu_isa_image_offset(const struct kemu_isa_image_layout *l, uint32_t x, uint32_t y,
			  uint32_t z, uint64_t *off)
{
	const struct gfx9_surface s = {
		.sw_mode = l->sw_mode,
		.elem_log2 = l->elem_log2,
		.is3d = l->is3d,
		.pitch = l->pitch,
		.height = l->height,
		.cfg = {
			.pipes_log2 = l->pipes_log2,
			.banks_log2 = l->banks_log2,
			.se_log2 = l->se_log2,
			.interleave_log2 = l->interleave_log2,
		},
	};
	return gfx9_swizzle_offset(&s, x, y, z, off);
}
