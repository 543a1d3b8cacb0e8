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
 *
 * Linear mip chains (hsa_ext_image_create_v2 with mipmap_levels > 1; the
 * same addrlib calls with numMipLevels = levels; Gfx9Lib::
 * HwlComputeSurfaceInfoLinear and ComputeSurfaceLinearPadding): every
 * level keeps level 0's pitch (width aligned to 256 bytes; a customised
 * pitch applies to one level only), and the levels are stacked as rows of
 * one slice: level l starts at row sum(h_i, i < l), where h_0 is the
 * height (1 for a 1D resource, so level l of a 1D chain is row l) and
 * h_(i+1) = ceil(h_i / 2); the slice holds all the rows (addrlib's
 * mipChainHeight, which it reports as the T#'s pitch field, "epitch",
 * when there is more than one level) and repeats per layer or depth
 * slice (a 3D chain keeps every depth slice at every level).
 * slice = pitch * rows * element size, size = slice * slices, base
 * alignment 256.
 *
 * Tiled mip chains (mips in macro blocks and a packed mip tail, Gfx9Lib::
 * GetMipChainInfo / GetMipStartPos) are not modelled.  Where ROCr would
 * lay a chain out tiled (the optimal layout on a base-profile GPU: 2D,
 * 2DA, 3D and the depth geometries), hsalite lays it out linear instead:
 * the layout is the runtime's choice, the T# says SW_LINEAR, and GFX9
 * allows linear 2-D and 3-D resources with mips (Gfx9Lib::
 * ValidateSwModeParams refuses linear for depth/stencil surfaces, MSAA,
 * PRT 2-D/3-D and some element formats, not for mips, and the 3-D mode
 * mask holds linear; ROCr asks for texture usage only; addrlib's linear
 * padding has no 3-D case: a 3-D chain is the 2-D rule per depth slice).
 * The size differs from ROCr's (no 4/64 KiB blocks; rows padded to 256
 * bytes; a 3-D chain keeps level 0's depth slices at every level) and so
 * does the speed, not what a program reads.
 *
 * Tiled (Gfx9Lib::HwlGetPreferredSurfaceSetting with ROCr's inputs: 256 B
 * and variable blocks forbidden, texture usage only, one sample, one mip
 * level): the candidate blocks, in addrlib's order, are thin 4 KiB, thick
 * 4 KiB (3D only), thin 64 KiB, thick 64 KiB (3D only); each pads width,
 * height and slices to its block and a later block replaces the chosen one
 * when its padded size is at most twice the chosen one's.  The swizzle
 * type is then D (display) for 2D resources, and for 3D Z in a thick block
 * or D in a thin one; of that type and block the XOR variant, the highest
 * mode number (4KB_D_X 22, 64KB_D_X 26, 4KB_Z_X 20, 64KB_Z_X 24).  Block
 * dimensions are gfx9_swizzle.h's (gfx9_block_dims).  The surface is then
 * pitch = width, height and slices aligned to the block; size = pitch *
 * height * element size * slices; base alignment the block size (XOR
 * modes).
 */
#include <errno.h>

#include "amd/gfx9_swizzle.h"
#include "image/image_priv.h"

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

/* Rows before mip level `level` in a linear chain whose level 0 has
 * base_height rows: the sum of the chain's heights, each ceil(half) of
 * the one before. */
static uint64_t chain_rows(uint32_t base_height, uint32_t level)
{
	uint64_t rows = 0;
	uint32_t h = base_height ? base_height : 1;
	for (uint32_t i = 0; i < level; i++) {
		rows += h;
		h = (h >> 1) + (h & 1);
	}
	return rows;
}

static int surface_linear(uint32_t width, uint32_t height, enum rsrc rsrc, uint32_t eb,
			  size_t row_pitch, uint32_t levels, struct hl_image_surface *out)
{
	const uint32_t pitch_align = 256 / eb;
	if (rsrc == RSRC_1D && height > 1)
		return -EINVAL;
	uint32_t pitch = align_up(width, pitch_align);
	uint64_t custom = row_pitch / eb;
	if (custom && levels <= 1) {
		if (custom % pitch_align || custom < pitch || custom > UINT32_MAX)
			return -EINVAL;
		pitch = (uint32_t)custom;
	}
	const uint64_t rows = levels > 1 ? chain_rows(height, levels) : height;
	if (rows > UINT32_MAX)
		return -EINVAL;
	out->sw_mode = HL_SW_LINEAR;
	out->pitch = pitch;
	out->height = (uint32_t)rows;
	out->slice_size = (uint64_t)pitch * rows * eb;
	out->size = out->slice_size * out->slices;
	out->align = 256;
	out->block_w = pitch_align;
	out->block_h = 1;
	out->block_d = 1;
	return 0;
}


static uint32_t log2u(uint32_t v)
{
	uint32_t l = 0;
	while (v >>= 1)
		l++;
	return l;
}

struct block {
	uint32_t w, h, d;
	uint32_t log2_size;
	bool thick;
};

static struct block block_dims(uint32_t log2_size, bool thick, uint32_t eb)
{
	struct block b = { 0, 0, 0, log2_size, thick };
	gfx9_block_dims(log2_size, thick, log2u(eb), &b.w, &b.h, &b.d);
	return b;
}

static uint64_t padded(const struct block *b, uint32_t w, uint32_t h, uint32_t slices)
{
	return (uint64_t)align_up(w, b->w) * align_up(h, b->h) * align_up(slices, b->d);
}

static int surface_tiled(uint32_t width, uint32_t height, enum rsrc rsrc, uint32_t eb,
			 struct hl_image_surface *out)
{
	/* Candidates in addrlib's block order: thin 4K, thick 4K, thin 64K,
	 * thick 64K. */
	struct block cand[4];
	int n = 0;
	cand[n++] = block_dims(12, false, eb);
	if (rsrc == RSRC_3D)
		cand[n++] = block_dims(12, true, eb);
	cand[n++] = block_dims(16, false, eb);
	if (rsrc == RSRC_3D)
		cand[n++] = block_dims(16, true, eb);
	int best = 0;
	uint64_t best_size = 0;
	for (int i = 0; i < n; i++) {
		uint64_t size = padded(&cand[i], width, height, out->slices);
		if (!best_size || size <= best_size * 2) {
			best = i;
			best_size = size;
		}
	}
	const struct block *b = &cand[best];
	if (b->thick)
		out->sw_mode = b->log2_size == 12 ? GFX9_SW_4KB_Z_X : GFX9_SW_64KB_Z_X;
	else
		out->sw_mode = b->log2_size == 12 ? GFX9_SW_4KB_D_X : GFX9_SW_64KB_D_X;
	out->pitch = align_up(width, b->w);
	out->height = align_up(height, b->h);
	const uint32_t slices = align_up(out->slices, b->d);
	out->slice_size = (uint64_t)out->pitch * out->height * eb;
	out->size = out->slice_size * slices;
	out->align = 1ull << b->log2_size;
	out->block_w = b->w;
	out->block_h = b->h;
	out->block_d = b->d;
	return 0;
}

int hl_image_surface(const struct hl_agent *agent, const hsa_ext_image_descriptor_t *desc,
		     const struct hl_image_props *props, bool tiled, size_t row_pitch,
		     uint32_t levels, struct hl_image_surface *out)
{
	(void)agent;
	if (!props->elem_bytes || !levels)
		return -EINVAL;
	out->levels = levels;
	out->base_height = 1;
	const enum rsrc rsrc = rsrc_type(desc->geometry);
	uint32_t width = (uint32_t)desc->width, height = (uint32_t)desc->height;
	size_t slices = desc->array_size > desc->depth ? desc->array_size : desc->depth;
	if (slices > UINT32_MAX)
		return -EINVAL;
	out->slices = slices ? (uint32_t)slices : 1;
	out->tex3d = rsrc == RSRC_3D;
	out->gb_addr_config = 0;
	out->elem_bytes = props->elem_bytes;
	width = width ? width : 1;
	height = height ? height : 1;
	out->base_height = rsrc == RSRC_1D ? 1 : height;
	/* A chain in the optimal layout is laid out linear (the runtime's
	 * choice; see the file comment): addrlib's tiled mip chain is not
	 * modelled. */
	if (rsrc == RSRC_1D || !tiled || levels > 1)
		return surface_linear(width, height, rsrc, props->elem_bytes,
				      tiled ? 0 : row_pitch, levels, out);
	return surface_tiled(width, height, rsrc, props->elem_bytes, out);
}

int hl_image_surface_level(const struct hl_image_surface *chain, uint32_t level,
			   struct hl_image_surface *out, uint64_t *offset)
{
	if (level >= chain->levels || (chain->levels > 1 && chain->sw_mode != HL_SW_LINEAR))
		return -EINVAL;
	*out = *chain;
	*offset = chain_rows(chain->base_height, level) * chain->pitch * chain->elem_bytes;
	if (chain->levels > 1) {
		/* the rows the chain reserves for this level */
		uint32_t h = chain->base_height;
		for (uint32_t i = 0; i < level; i++)
			h = (h >> 1) + (h & 1);
		out->height = h;
	}
	out->levels = 1;
	out->base_height = out->height;
	out->size = chain->size - *offset;
	return 0;
}

uint64_t hl_image_surface_offset(const struct hl_image_surface *s, uint32_t x, uint32_t y,
				 uint32_t z)
{
	if (s->sw_mode != HL_SW_LINEAR) {
		const struct gfx9_surface g = {
			.sw_mode = s->sw_mode,
			.elem_log2 = log2u(s->elem_bytes),
			.is3d = s->tex3d,
			.pitch = s->pitch,
			.height = s->height,
			.cfg = gfx9_addr_config_decode(s->gb_addr_config),
		};
		uint64_t off = 0;
		/* every mode surface_tiled() picks is described */
		gfx9_swizzle_offset(&g, x, y, z, &off);
		return off;
	}
	return (uint64_t)z * s->slice_size + ((uint64_t)y * s->pitch + x) * s->elem_bytes;
}
