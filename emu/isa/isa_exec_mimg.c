/*
 * isa_exec_mimg.c — image instructions (MIMG) of gfx90a: image_load,
 * image_load_mip, image_store, image_store_mip, image_get_resinfo,
 * image_sample, the _pck forms and the image atomics (see "the packed
 * forms" below), reading the image resource (T#, 8 SGPRs) and the sampler
 * (S#, 4 SGPRs) as the hardware defines them (CDNA2 ISA guide "Image
 * resource" / "Image sampler"; GFX9 SQ_IMG_RSRC_WORD0-7 and
 * SQ_IMG_SAMP_WORD0-3, the layout ROCr 5.2.3's resource_ai.h fills).
 *
 * gfx90a has the base image set only: no image_sample_l/_b/_lz/_c/_d,
 * gather4 or get_lod (LLVM: gfx90a lacks "extended-image-insts"); its mip
 * level access is the _mip forms' level operand and the T#'s level
 * fields (see "Mip levels" below).  gfx942 (CDNA3) has no image
 * instructions at all: MIMG words stay illegal there (LLVM rejects them
 * for gfx940+ as well), whatever clang-19 still emits for them.
 *
 * Encoding (gfx90a): w0 DMASK [11:8], UNORM 12, GLC 13, DA 14,
 * R128/A16 15, ACC 16 (data in AGPRs; gfx90a has no TFE), LWE 17,
 * OP [24:18], SLC 25; w1 VADDR [7:0], VDATA [15:8], SRSRC [20:16] (SGPR
 * quad), SSAMP [25:21] (SGPR quad), D16 31.  VADDR is a run of
 * consecutive VGPRs whose length the resource type decides (gfx9 has no
 * NSA): the coordinates (x, y, z or slice), then the mip level for the
 * _mip forms.  DMASK selects the components returned (packed from VDATA
 * on) or stored (read packed from VDATA; the unselected ones store 0);
 * D16 packs them as 16-bit halves (OpenCL's read_imageh/write_imageh).
 *
 * Texel addressing: base (T# BASE_ADDRESS, 256-byte units) plus the
 * offset of (x, y, slice) in the surface layout SW_MODE names, for the
 * device's GB_ADDR_CONFIG (isa_image_swizzle.c): SW_LINEAR rows of PITCH
 * texels and slices of PITCH x HEIGHT (1-D types have no rows), or the
 * GFX9 tiled layouts (256 B / 4 KiB / 64 KiB blocks, S/D/R/Z micro tiling,
 * the pipe/bank XOR of the _X modes) that ROCr 5.2.3 picks for opaque
 * images (SW_4KB_D_X / SW_64KB_D_X for 2-D, SW_4KB_Z_X / SW_64KB_Z_X for
 * 3-D, linear for 1-D).  PRT (_T) and variable-block modes stop the wave
 * with an error.
 *
 * Formats: the data formats 8, 16, 32, 8_8, 16_16, 32_32, 8_8_8_8,
 * 16_16_16_16, 32_32_32_32, 5_6_5, 1_5_5_5 and 2_10_10_10 (component X
 * in the low bits) with the number formats UNORM, SNORM, USCALED,
 * SSCALED, UINT, SINT, FLOAT (16 and 32 bits) and SRGB (8 bits); the
 * result goes through DST_SEL_X/Y/Z/W (0, 1, or a component), a store
 * through its inverse.  Missing components read as 0 (Y, Z) and 1 (W).
 * Stores convert as the hardware: round to nearest even and saturate for
 * the normalized types, saturate the integer ones.  DATA_FORMAT INVALID
 * reads 0 and drops stores; any other unknown format stops the wave with
 * an error naming it (not silently wrong).
 *
 * Sampling: coordinates are normalized unless the instruction's UNORM bit
 * or the sampler's FORCE_UNNORMALIZED is set; XY_MAG_FILTER point or
 * bilinear (the magnification filter: in a compute shader there are no
 * derivatives, the LOD is 0, and ROCr sets MIN = MAG), Z_FILTER NONE
 * follows it for 3-D images, POINT and LINEAR as named; array slices are
 * the rounded (nearest even) slice coordinate clamped to the array.
 * Address modes per axis on texel indices: WRAP, MIRROR,
 * CLAMP_LAST_TEXEL, MIRROR_ONCE_LAST_TEXEL, CLAMP_BORDER and
 * MIRROR_ONCE_BORDER (the HALF_BORDER modes as the BORDER ones).  Border
 * colour: TRANS_BLACK, OPAQUE_BLACK, OPAQUE_WHITE placed into the texel
 * through BC_SWIZZLE, then DST_SEL as any texel; REGISTER (a table the
 * driver programs) reads as TRANS_BLACK.  Approximation: the bilinear
 * weights are computed in float from texel-space coordinates rounded to
 * 8 fraction bits (see
 * texel_coord(), so the weights are multiples of 1/256 as in hardware
 * with 8-bit sub-texel precision; the texture unit's own rounding of the
 * products is not modelled); integer formats are not filtered (point).
 *
 * Mip levels (GFX9 T#): the resource has MAX_MIP + 1 levels (word 5);
 * the view the instruction sees is BASE_LEVEL..LAST_LEVEL.  An access
 * without a level operand (image_load, _store, _pck, the atomics, and
 * image_sample, whose LOD is 0 in a compute shader) reads BASE_LEVEL; the
 * _mip forms read BASE_LEVEL + their level; a level past LAST_LEVEL or
 * MAX_MIP is out of range.  WIDTH, HEIGHT and DEPTH are level 0's: level
 * l is max(1, extent >> l) (array layers kept).  A linear chain
 * (SW_LINEAR, MAX_MIP > 0) is laid out as addrlib's Gfx9Lib lays it out
 * for the hardware (ComputeSurfaceLinearPadding): rows of level 0's width
 * aligned to 256 bytes, level l starting at row sum(h_i, i < l) with h_0
 * the height (1 for 1-D types) and h_(i+1) = ceil(h_i / 2), PITCH + 1
 * rows per slice (addrlib's "epitch", the chain's height, which is what
 * PITCH holds when there are levels).  A tiled chain (mips in macro
 * blocks and a packed mip tail) stops the wave with an error naming it.
 * image_get_resinfo answers for BASE_LEVEL + its level (up to LAST_LEVEL)
 * and counts LAST_LEVEL - BASE_LEVEL + 1 levels.
 *
 * Out of range: a load outside the image returns 0 in every component, a
 * store outside it is dropped; memory the texels map to that is not
 * mapped faults the queue like any VM fault.
 */
#include <math.h>

#include "amd/gfx9_desc.h"
#include "isa_float.h"
#include "isa_priv.h"

/* ---- opcodes (gfx9 MIMG) ---- */
#define OP_LOAD 0x00
#define OP_LOAD_MIP 0x01
#define OP_STORE 0x08
#define OP_STORE_MIP 0x09
#define OP_GET_RESINFO 0x0e
#define OP_SAMPLE 0x20

/* in->flags */
#define MI_UNORM 1
#define MI_D16 2
#define MI_GLC 4        /* image atomics: return the old value */
#define MI_SGN 8        /* image_load(_mip)_pck_sgn */
#define MI_D16_HI 16    /* buffer_load/store_format_d16_hi_x: the high half */
#define MI_A16 32       /* 16-bit address components, two a VGPR */
#define MI_LWE 64       /* loads/sample: one more VGPR, the LOD-warning status */
#define MTBUF_FMT 0x100u        /* in->offset1: the format comes from the instruction */

static const char *const mimg_names[0x21] = {
	[0x00] = "image_load", [0x01] = "image_load_mip", [0x02] = "image_load_pck",
	[0x03] = "image_load_pck_sgn", [0x04] = "image_load_mip_pck",
	[0x05] = "image_load_mip_pck_sgn", [0x08] = "image_store", [0x09] = "image_store_mip",
	[0x0a] = "image_store_pck", [0x0b] = "image_store_mip_pck",
	[0x0e] = "image_get_resinfo", [0x10] = "image_atomic_swap",
	[0x11] = "image_atomic_cmpswap", [0x12] = "image_atomic_add", [0x13] = "image_atomic_sub",
	[0x14] = "image_atomic_smin", [0x15] = "image_atomic_umin", [0x16] = "image_atomic_smax",
	[0x17] = "image_atomic_umax", [0x18] = "image_atomic_and", [0x19] = "image_atomic_or",
	[0x1a] = "image_atomic_xor", [0x1b] = "image_atomic_inc", [0x1c] = "image_atomic_dec",
	[0x20] = "image_sample",
};

const char *kemu_isa_mimg_mnemonic(int gfx942, unsigned op)
{
	if (gfx942 || op >= sizeof(mimg_names) / sizeof(mimg_names[0]))
		return NULL;
	return mimg_names[op];
}

/* ---- resource and sampler ---- */

/* SQ_RSRC_IMG_* (T# TYPE) */
enum { RT_1D = GFX9_IMG_1D, RT_2D = GFX9_IMG_2D, RT_3D = GFX9_IMG_3D, RT_CUBE = GFX9_IMG_CUBE,
       RT_1D_ARRAY = GFX9_IMG_1D_ARRAY, RT_2D_ARRAY = GFX9_IMG_2D_ARRAY };
/* IMG_NUM_FORMAT */
enum { NF_UNORM = 0, NF_SNORM = 1, NF_USCALED = 2, NF_SSCALED = 3, NF_UINT = 4, NF_SINT = 5,
       NF_FLOAT = 7, NF_SRGB = 9 };
/* DST_SEL */
enum { SEL_0 = GFX9_SEL_0, SEL_1 = GFX9_SEL_1, SEL_X = GFX9_SEL_X };
/* SQ_TEX_CLAMP */
enum { CL_WRAP = GFX9_CLAMP_WRAP, CL_MIRROR = GFX9_CLAMP_MIRROR,
       CL_LAST_TEXEL = GFX9_CLAMP_LAST_TEXEL, CL_MIRROR_ONCE_LAST = GFX9_CLAMP_MIRROR_ONCE_LAST_TEXEL,
       CL_HALF_BORDER = GFX9_CLAMP_HALF_BORDER,
       CL_MIRROR_ONCE_HALF_BORDER = GFX9_CLAMP_MIRROR_ONCE_HALF_BORDER,
       CL_BORDER = GFX9_CLAMP_BORDER, CL_MIRROR_ONCE_BORDER = GFX9_CLAMP_MIRROR_ONCE_BORDER };

struct fmt {
	uint8_t bytes;          /* per texel */
	uint8_t comps;
	uint8_t bits[4];
	uint8_t shift[4];       /* bit offset of component X, Y, Z, W */
};

/* IMG_DATA_FORMAT -> layout; bytes 0: not implemented. */
static bool fmt_of(unsigned dfmt, struct fmt *f)
{
	static const struct fmt tab[] = {
		[0x01] = { 1, 1, { 8 }, { 0 } },                                /* 8 */
		[0x02] = { 2, 1, { 16 }, { 0 } },                               /* 16 */
		[0x03] = { 2, 2, { 8, 8 }, { 0, 8 } },                          /* 8_8 */
		[0x04] = { 4, 1, { 32 }, { 0 } },                               /* 32 */
		[0x05] = { 4, 2, { 16, 16 }, { 0, 16 } },                       /* 16_16 */
		[0x09] = { 4, 4, { 10, 10, 10, 2 }, { 0, 10, 20, 30 } },        /* 2_10_10_10 */
		[0x0a] = { 4, 4, { 8, 8, 8, 8 }, { 0, 8, 16, 24 } },            /* 8_8_8_8 */
		[0x0b] = { 8, 2, { 32, 32 }, { 0, 32 } },                       /* 32_32 */
		[0x0c] = { 8, 4, { 16, 16, 16, 16 }, { 0, 16, 32, 48 } },       /* 16_16_16_16 */
		[0x0e] = { 16, 4, { 32, 32, 32, 32 }, { 0, 32, 64, 96 } },      /* 32_32_32_32 */
		[0x10] = { 2, 3, { 5, 6, 5 }, { 0, 5, 11 } },                   /* 5_6_5 */
		[0x11] = { 2, 4, { 5, 5, 5, 1 }, { 0, 5, 10, 15 } },            /* 1_5_5_5 */
	};
	if (dfmt >= sizeof(tab) / sizeof(tab[0]) || !tab[dfmt].bytes)
		return false;
	*f = tab[dfmt];
	return true;
}

struct tsharp {
	uint64_t base;
	unsigned dfmt, nfmt, type, sw_mode;
	uint32_t width, height, depth, pitch, base_array;
	unsigned base_level, last_level, max_mip;
	uint32_t w0, h0, d0;    /* level 0's extent (width etc. are the level's) */
	uint64_t level_off;     /* bytes from the base to the level's first row */
	uint8_t dst_sel[4];
	unsigned bc_swizzle;
	struct fmt f;
	bool fmt_ok;
	struct kemu_isa_image_layout lay;
};

static void tsharp_read(const struct isa_wave *w, unsigned sreg, struct tsharp *t)
{
	uint32_t d[GFX9_T_DWORDS];

	for (unsigned i = 0; i < GFX9_T_DWORDS; i++)
		d[i] = w->s[(sreg + i) & 127];
	t->base = gfx9_t_base(d);
	t->dfmt = GFX9_DESC_GET(d, GFX9_T_DATA_FORMAT);
	t->nfmt = GFX9_DESC_GET(d, GFX9_T_NUM_FORMAT);
	t->width = GFX9_DESC_GET(d, GFX9_T_WIDTH) + 1;
	t->height = GFX9_DESC_GET(d, GFX9_T_HEIGHT) + 1;
	for (unsigned i = 0; i < 4; i++)
		t->dst_sel[i] = (uint8_t)GFX9_DESC_GET(d, GFX9_T_DST_SEL(i));
	t->base_level = GFX9_DESC_GET(d, GFX9_T_BASE_LEVEL);
	t->last_level = GFX9_DESC_GET(d, GFX9_T_LAST_LEVEL);
	t->sw_mode = GFX9_DESC_GET(d, GFX9_T_SW_MODE);
	t->type = GFX9_DESC_GET(d, GFX9_T_TYPE);
	t->depth = GFX9_DESC_GET(d, GFX9_T_DEPTH) + 1;
	t->pitch = GFX9_DESC_GET(d, GFX9_T_PITCH) + 1;
	t->bc_swizzle = GFX9_DESC_GET(d, GFX9_T_BC_SWIZZLE);
	t->base_array = GFX9_DESC_GET(d, GFX9_T_BASE_ARRAY);
	t->fmt_ok = fmt_of(t->dfmt, &t->f);
	/* 1-D types have no rows: HEIGHT is not used (ROCr leaves it
	 * 0x3fff); arrays count their slices in DEPTH */
	if (t->type == RT_1D || t->type == RT_1D_ARRAY)
		t->height = 1;
	if (t->type == RT_1D || t->type == RT_2D)
		t->depth = 1;
	uint32_t gb = w->wg->d->gb_addr_config;
	t->lay = (struct kemu_isa_image_layout){
		.sw_mode = t->sw_mode, .elem_log2 = t->fmt_ok ? (unsigned)__builtin_ctz(t->f.bytes) : 0,
		.pitch = t->pitch, .height = t->height, .is3d = t->type == RT_3D,
		/* GB_ADDR_CONFIG: NUM_PIPES [2:0], PIPE_INTERLEAVE_SIZE [5:3],
		 * NUM_BANKS [14:12], NUM_SHADER_ENGINES [20:19] (log2 each) */
		.pipes_log2 = gb & 7, .interleave_log2 = 8 + ((gb >> 3) & 7),
		.banks_log2 = (gb >> 12) & 7, .se_log2 = (gb >> 19) & 3,
	};
	t->max_mip = GFX9_DESC_GET(d, GFX9_T_MAX_MIP);
	t->w0 = t->width;
	t->h0 = t->height;
	t->d0 = t->depth;
	t->level_off = 0;
	if (t->max_mip && t->sw_mode == 0 && t->fmt_ok) {
		/* a linear chain: rows of the 256-byte aligned width, PITCH
		 * the rows of one slice */
		const uint32_t align = 256u >> t->lay.elem_log2;
		t->lay.pitch = (t->width + align - 1) / align * align;
		t->lay.height = t->pitch;
	}
}

static uint32_t halved(uint32_t v, uint32_t l)
{
	v = l >= 32 ? 0 : v >> l;
	return v ? v : 1;
}

/* Makes t address mip level `level` (absolute): 0 done, 1 a level outside
 * the view or the resource (out of range), -1 an error was raised (a
 * tiled chain).  t must have passed check_resource(). */
static int tsharp_level(struct isa_wave *w, const struct isa_inst *in, struct tsharp *t,
			uint64_t level)
{
	if (level < t->base_level || level > t->last_level || level > t->max_mip)
		return 1;
	if (!t->max_mip)
		return 0;       /* one level: level 0 */
	if (t->sw_mode != 0) {
		isa_fail(w, in, KEMU_ISA_ERR_ILLEGAL_INSTRUCTION,
			 "%s at 0x%llx: mip level %u of a tiled mip chain (SW_MODE %u, MAX_MIP %u) "
			 "not implemented", mimg_names[in->op], (unsigned long long)in->addr,
			 (unsigned)level, t->sw_mode, t->max_mip);
		return -1;
	}
	const uint32_t l = (uint32_t)level;
	const bool one_d = t->type == RT_1D || t->type == RT_1D_ARRAY;
	uint64_t rows = 0;
	uint32_t h = one_d ? 1 : t->h0;
	for (uint32_t i = 0; i < l; i++) {
		rows += h;
		h = (h >> 1) + (h & 1);
	}
	t->width = halved(t->w0, l);
	if (!one_d)
		t->height = halved(t->h0, l);
	if (t->type == RT_3D)
		t->depth = halved(t->d0, l);
	t->level_off = (rows * t->lay.pitch) << t->lay.elem_log2;
	return 0;
}

static bool is_array(const struct tsharp *t)
{
	return t->type == RT_1D_ARRAY || t->type == RT_2D_ARRAY;
}

/* Coordinates a resource type takes: x [, y] [, z or slice]. */
static unsigned type_coords(unsigned type)
{
	switch (type) {
	case RT_1D: return 1;
	case RT_2D: case RT_1D_ARRAY: return 2;
	case RT_3D: case RT_2D_ARRAY: return 3;
	default: return 0;
	}
}

struct ssharp {
	unsigned clamp[3];
	bool force_unnorm;
	unsigned mag_filter, z_filter, border;
};

static void ssharp_read(const struct isa_wave *w, unsigned sreg, struct ssharp *s)
{
	uint32_t d[GFX9_S_DWORDS];

	for (unsigned i = 0; i < GFX9_S_DWORDS; i++)
		d[i] = w->s[(sreg + i) & 127];
	for (unsigned i = 0; i < 3; i++)
		s->clamp[i] = GFX9_DESC_GET(d, GFX9_S_CLAMP(i));
	s->force_unnorm = GFX9_DESC_GET(d, GFX9_S_FORCE_UNNORMALIZED);
	s->mag_filter = GFX9_DESC_GET(d, GFX9_S_XY_MAG_FILTER);
	s->z_filter = GFX9_DESC_GET(d, GFX9_S_Z_FILTER);
	s->border = GFX9_DESC_GET(d, GFX9_S_BORDER_COLOR_TYPE);
}

/* ---- texel conversion ---- */

static bool nfmt_is_int(unsigned nfmt)
{
	return nfmt == NF_UINT || nfmt == NF_SINT;
}

/* The register value "1" of a number format (SEL_1, missing W). */
static uint32_t one_of(unsigned nfmt)
{
	return nfmt_is_int(nfmt) ? 1u : 0x3f800000u;
}

static bool nfmt_ok(const struct tsharp *t)
{
	switch (t->nfmt) {
	case NF_UNORM: case NF_SNORM: case NF_USCALED: case NF_SSCALED: case NF_UINT:
	case NF_SINT:
		return true;
	case NF_FLOAT:
		for (unsigned c = 0; c < t->f.comps; c++)
			if (t->f.bits[c] != 16 && t->f.bits[c] != 32)
				return false;
		return true;
	case NF_SRGB:
		return t->dfmt == 0x0a;
	default:
		return false;
	}
}

static uint32_t field_get(const uint8_t *buf, unsigned off, unsigned bits)
{
	uint64_t v = 0;
	memcpy(&v, buf + off / 8, 8);
	v >>= off % 8;
	return bits == 32 ? (uint32_t)v : (uint32_t)(v & ((1ull << bits) - 1));
}

static void field_put(uint8_t *buf, unsigned off, unsigned bits, uint32_t raw)
{
	uint64_t v, m = (bits == 32 ? 0xffffffffull : (1ull << bits) - 1) << (off % 8);
	memcpy(&v, buf + off / 8, 8);
	v = (v & ~m) | (((uint64_t)raw << (off % 8)) & m);
	memcpy(buf + off / 8, &v, 8);
}

static float srgb_to_linear(float c)
{
	return c <= 0.04045f ? c / 12.92f : powf((c + 0.055f) / 1.055f, 2.4f);
}

static float linear_to_srgb(float c)
{
	return c <= 0.0031308f ? c * 12.92f : 1.055f * powf(c, 1.0f / 2.4f) - 0.055f;
}

/* Raw component bits -> register value. */
static uint32_t decode_comp(unsigned nfmt, unsigned bits, unsigned c, uint32_t raw)
{
	uint32_t max = bits == 32 ? 0xffffffffu : (1u << bits) - 1;
	int32_t sraw = bits == 32 ? (int32_t)raw
				  : (int32_t)(raw << (32 - bits)) >> (32 - bits);
	float f;

	switch (nfmt) {
	case NF_UNORM:
		f = (float)((double)raw / max);
		break;
	case NF_SNORM:
		f = (float)((double)sraw / (double)(max >> 1));
		if (f < -1.0f)
			f = -1.0f;
		break;
	case NF_USCALED:
		f = (float)raw;
		break;
	case NF_SSCALED:
		f = (float)sraw;
		break;
	case NF_UINT:
		return raw;
	case NF_SINT:
		return (uint32_t)sraw;
	case NF_FLOAT:
		return bits == 16 ? u32_of(f16_to_f32((uint16_t)raw)) : raw;
	case NF_SRGB:
		f = (float)raw / 255.0f;
		if (c < 3)
			f = srgb_to_linear(f);
		break;
	default:
		return 0;
	}
	return u32_of(f);
}

static uint32_t round_sat(double v, double lo, double hi)
{
	if (v != v)
		return 0;
	if (v < lo)
		v = lo;
	if (v > hi)
		v = hi;
	return (uint32_t)(int64_t)nearbyint(v);
}

/* Register value -> raw component bits (store). */
static uint32_t encode_comp(unsigned nfmt, unsigned bits, unsigned c, uint32_t reg)
{
	uint32_t max = bits == 32 ? 0xffffffffu : (1u << bits) - 1;
	int64_t smax = (int64_t)(max >> 1), smin = -smax - 1;
	float f = f32_of(reg);

	switch (nfmt) {
	case NF_UNORM:
		if (f != f)
			return 0;
		f = f < 0.0f ? 0.0f : f > 1.0f ? 1.0f : f;
		return round_sat((double)f * max, 0, max);
	case NF_SNORM:
		if (f != f)
			return 0;
		f = f < -1.0f ? -1.0f : f > 1.0f ? 1.0f : f;
		return round_sat((double)f * (double)smax, (double)-smax, (double)smax) & max;
	case NF_USCALED:
		return round_sat(f, 0, max);
	case NF_SSCALED:
		return round_sat(f, (double)smin, (double)smax) & max;
	case NF_UINT:
		return reg > max ? max : reg;
	case NF_SINT: {
		int64_t v = (int32_t)reg;
		v = v < smin ? smin : v > smax ? smax : v;
		return (uint32_t)v & max;
	}
	case NF_FLOAT:
		return bits == 16 ? f32_to_f16(f) : reg;
	case NF_SRGB:
		if (f != f)
			return 0;
		f = f < 0.0f ? 0.0f : f > 1.0f ? 1.0f : f;
		if (c < 3)
			f = linear_to_srgb(f);
		return round_sat((double)f * 255.0, 0, 255);
	default:
		return 0;
	}
}

/* Texel bytes -> the four memory components as register values (missing
 * ones: 0, 0, 1). */
static void texel_decode(const struct tsharp *t, const uint8_t *buf, uint32_t mem[4])
{
	mem[0] = mem[1] = mem[2] = 0;
	mem[3] = one_of(t->nfmt);
	for (unsigned c = 0; c < t->f.comps; c++)
		mem[c] = decode_comp(t->nfmt, t->f.bits[c], c,
				     field_get(buf, t->f.shift[c], t->f.bits[c]));
}

/* Memory components -> the shader's view through DST_SEL. */
static void apply_dst_sel(const struct tsharp *t, const uint32_t mem[4], uint32_t out[4])
{
	for (unsigned i = 0; i < 4; i++) {
		unsigned s = t->dst_sel[i];
		out[i] = s >= SEL_X ? mem[s - SEL_X] : s == SEL_1 ? one_of(t->nfmt) : 0;
	}
}

/* ---- addressing ---- */

static uint64_t texel_va(const struct tsharp *t, uint32_t x, uint32_t y, uint32_t slice)
{
	uint64_t off = 0;
	/* check_resource() refused the modes kemu_isa_image_offset() cannot
	 * address */
	kemu_isa_image_offset(&t->lay, x, y, slice, &off);
	return t->base + t->level_off + off;
}

/* Slices a resource has: depth for 3-D, the array size for arrays. */
static uint32_t slices_of(const struct tsharp *t)
{
	return t->type == RT_3D || is_array(t) ? t->depth : 1;
}

static int read_texel(struct isa_wave *w, const struct isa_inst *in, const struct tsharp *t,
		      uint32_t x, uint32_t y, uint32_t slice, uint32_t mem[4])
{
	uint8_t buf[24] = { 0 };

	if (isa_mem_read(w, in, texel_va(t, x, y, slice + (is_array(t) ? t->base_array : 0)),
			 buf, t->f.bytes))
		return -1;
	texel_decode(t, buf, mem);
	return 0;
}

static int fail_format(struct isa_wave *w, const struct isa_inst *in, const struct tsharp *t)
{
	return isa_fail(w, in, KEMU_ISA_ERR_ILLEGAL_INSTRUCTION,
			"%s at 0x%llx: image data format %u / number format %u not implemented",
			mimg_names[in->op], (unsigned long long)in->addr, t->dfmt, t->nfmt);
}

/* A resource the instruction can address: 0 yes, 1 no (loads read 0,
 * stores drop: the hardware's answer to an invalid descriptor), -1 an
 * error was raised (a valid descriptor the interpreter does not
 * implement). */
static int check_resource(struct isa_wave *w, const struct isa_inst *in, const struct tsharp *t)
{
	if (t->dfmt == 0 || t->type < RT_1D)
		return 1;
	if (!type_coords(t->type)) {
		isa_fail(w, in, KEMU_ISA_ERR_ILLEGAL_INSTRUCTION,
			 "%s at 0x%llx: image type %u (cube/MSAA) not implemented",
			 mimg_names[in->op], (unsigned long long)in->addr, t->type);
		return -1;
	}
	if (!t->fmt_ok || !nfmt_ok(t)) {
		fail_format(w, in, t);
		return -1;
	}
	uint64_t off;
	if (kemu_isa_image_offset(&t->lay, 0, 0, 0, &off)) {
		isa_fail(w, in, KEMU_ISA_ERR_ILLEGAL_INSTRUCTION,
			 "%s at 0x%llx: image SW_MODE %u not implemented (PRT or variable block)",
			 mimg_names[in->op], (unsigned long long)in->addr, t->sw_mode);
		return -1;
	}
	return 0;
}

static unsigned data_row(const struct isa_inst *in, unsigned i)
{
	return in->data_reg + i;
}

/* Address component i of a lane: a VGPR each, or with A16 16 bits each,
 * two a VGPR (low half first); an integer coordinate or mip level is the
 * 16-bit value zero-extended (image_sample reads its f16 halves itself). */
static uint32_t addr_comp(struct isa_wave *w, const struct isa_inst *in, unsigned lane, unsigned i)
{
	if (!(in->flags & MI_A16))
		return isa_vrow(w, in->addr_reg + i)[lane];
	return (isa_vrow(w, in->addr_reg + i / 2)[lane] >> (16 * (i % 2))) & 0xffff;
}

/* LWE: the VGPR after the data gets the access status: 0, as kfdemu
 * samples LOD 0 only (no MIN_LOD clamp to warn of) and gfx90a has no TFE. */
static void write_lwe(struct isa_wave *w, const struct isa_inst *in, unsigned lane)
{
	unsigned n = (unsigned)__builtin_popcount(in->aux & 15u);
	if (!(in->flags & MI_LWE))
		return;
	if (in->flags & MI_D16)
		n = (n + 1) / 2;
	isa_vrow(w, data_row(in, n))[lane] = 0;
}

/* Write the DMASK-selected components of out[] to the lane's VDATA.  D16:
 * 16-bit components packed two to a VGPR (low half first; gfx90a packs
 * D16 data), f32 results converted to f16 (round to nearest even), the
 * integer ones (is_int) truncated; the unused high half of an odd count
 * is 0. */
static void write_result(struct isa_wave *w, const struct isa_inst *in, unsigned lane,
			 const uint32_t out[4], bool is_int)
{
	unsigned k = 0;

	if (!(in->flags & MI_D16)) {
		for (unsigned i = 0; i < 4; i++)
			if (in->aux & (1u << i))
				isa_vrow(w, data_row(in, k++))[lane] = out[i];
		return;
	}
	if (in->flags & MI_D16_HI) {    /* x into the high half, the low one kept */
		uint32_t *r = &isa_vrow(w, data_row(in, 0))[lane];
		uint32_t h = is_int ? out[0] & 0xffff : f32_to_f16(f32_of(out[0]));
		*r = (*r & 0xffffu) | (h << 16);
		return;
	}
	uint32_t packed[2] = { 0, 0 };
	for (unsigned i = 0; i < 4; i++) {
		if (!(in->aux & (1u << i)))
			continue;
		uint32_t h = is_int ? out[i] & 0xffff : f32_to_f16(f32_of(out[i]));
		packed[k / 2] |= h << (16 * (k % 2));
		k++;
	}
	for (unsigned r = 0; r < (k + 1) / 2; r++)
		isa_vrow(w, data_row(in, r))[lane] = packed[r];
}

/* The DMASK-selected store data of a lane (unselected components 0); D16:
 * unpacked from halves, f16 widened to f32, integers sign- (SINT) or
 * zero-extended. */
static void read_store_data(struct isa_wave *w, const struct isa_inst *in, unsigned lane,
			    unsigned nfmt, uint32_t data[4])
{
	unsigned k = 0;

	for (unsigned i = 0; i < 4; i++) {
		if (!(in->aux & (1u << i)))
			continue;
		if (!(in->flags & MI_D16)) {
			data[i] = isa_vrow(w, data_row(in, k++))[lane];
			continue;
		}
		uint32_t h = (isa_vrow(w, data_row(in, k / 2))[lane] >> (16 * (k % 2))) & 0xffff;
		if (in->flags & MI_D16_HI)
			h = isa_vrow(w, data_row(in, 0))[lane] >> 16;
		k++;
		if (nfmt == NF_SINT)
			data[i] = (uint32_t)(int32_t)(int16_t)h;
		else if (nfmt == NF_UINT)
			data[i] = h;
		else
			data[i] = u32_of(f16_to_f32((uint16_t)h));
	}
}

static int exec_image_load(struct isa_wave *w, const struct isa_inst *in)
{
	struct tsharp t;
	uint64_t exec = isa_exec(w);
	unsigned nc;
	int rc;

	tsharp_read(w, in->saddr, &t);
	rc = check_resource(w, in, &t);
	if (rc < 0)
		return ISA_STEP_ERROR;
	nc = type_coords(t.type);
	for (uint64_t e = exec; e; e &= e - 1) {
		unsigned lane = (unsigned)__builtin_ctzll(e);
		uint32_t c[4] = { 0, 0, 0, 0 }, mem[4], out[4] = { 0, 0, 0, 0 };
		uint32_t x, y = 0, s = 0;

		if (rc == 0) {
			struct tsharp lt = t;
			for (unsigned i = 0; i < nc + (in->op == OP_LOAD_MIP); i++)
				c[i] = addr_comp(w, in, lane, i);
			x = c[0];
			if (t.type == RT_1D_ARRAY)
				s = c[1];
			else if (nc > 1)
				y = c[1];
			if (nc > 2)
				s = c[2];
			int m = tsharp_level(w, in, &lt, (uint64_t)t.base_level +
							 (in->op == OP_LOAD_MIP ? c[nc] : 0));
			if (m < 0)
				return ISA_STEP_ERROR;
			if (!m && x < lt.width && y < lt.height && s < slices_of(&lt)) {
				if (read_texel(w, in, &lt, x, y, s, mem))
					return ISA_STEP_ERROR;
				apply_dst_sel(&lt, mem, out);
			}
		}
		write_result(w, in, lane, out, nfmt_is_int(t.nfmt));
		write_lwe(w, in, lane);
	}
	return ISA_STEP_NEXT;
}

static int exec_image_store(struct isa_wave *w, const struct isa_inst *in)
{
	struct tsharp t;
	uint64_t exec = isa_exec(w);
	unsigned nc;
	int rc;

	tsharp_read(w, in->saddr, &t);
	rc = check_resource(w, in, &t);
	if (rc)
		return rc < 0 ? ISA_STEP_ERROR : ISA_STEP_NEXT;
	nc = type_coords(t.type);
	for (uint64_t e = exec; e; e &= e - 1) {
		unsigned lane = (unsigned)__builtin_ctzll(e);
		uint32_t c[4] = { 0, 0, 0, 0 }, data[4] = { 0, 0, 0, 0 };
		uint32_t x, y = 0, s = 0;
		uint8_t buf[24] = { 0 };
		struct tsharp lt = t;

		for (unsigned i = 0; i < nc + (in->op == OP_STORE_MIP); i++)
			c[i] = addr_comp(w, in, lane, i);
		x = c[0];
		if (t.type == RT_1D_ARRAY)
			s = c[1];
		else if (nc > 1)
			y = c[1];
		if (nc > 2)
			s = c[2];
		int m = tsharp_level(w, in, &lt, (uint64_t)t.base_level +
						 (in->op == OP_STORE_MIP ? c[nc] : 0));
		if (m < 0)
			return ISA_STEP_ERROR;
		if (m || x >= lt.width || y >= lt.height || s >= slices_of(&lt))
			continue;
		read_store_data(w, in, lane, t.nfmt, data);
		/* Memory component m takes the shader component whose DST_SEL
		 * reads it back (the first one); none: 0. */
		for (unsigned mc = 0; mc < t.f.comps; mc++) {
			uint32_t v = 0;
			for (unsigned i = 0; i < 4; i++) {
				if (t.dst_sel[i] == SEL_X + mc) {
					v = data[i];
					break;
				}
			}
			field_put(buf, t.f.shift[mc], t.f.bits[mc],
				  encode_comp(t.nfmt, t.f.bits[mc], mc, v));
		}
		if (isa_mem_write(w, in, texel_va(&lt, x, y, s + (is_array(&t) ? t.base_array : 0)),
				  buf, t.f.bytes))
			return ISA_STEP_ERROR;
	}
	return ISA_STEP_NEXT;
}

/* ---- the packed (no-conversion) forms and the image atomics ----
 *
 * image_load_pck/_sgn, image_load_mip_pck/_sgn, image_store_pck and
 * image_store_mip_pck move the texel's bits without format conversion
 * (CDNA2 ISA guide: "without format conversion; 8- and 16-bit elements
 * are (not) sign-extended"): the texel is read as its dwords, DMASK bit i
 * selecting dword i (packed from VDATA on, as the converting forms pack
 * components); a texel of 1 or 2 bytes is zero-extended (_sgn: sign-
 * extended) into its dword.  A store writes the texel's bytes from the
 * selected dwords (unselected ones 0).  DST_SEL is not applied (it is a
 * conversion).
 *
 * image_atomic_* (opcodes 0x10-0x1c: swap, cmpswap, add, sub, smin, umin,
 * smax, umax, and, or, xor, inc, dec, the FLAT atomics' order) do one
 * atomic on the texel, which must be a 32-bit (DATA_FORMAT 32) or 64-bit
 * (32_32) integer or, for swap/cmpswap, float texel; other formats stop
 * the wave with an error.  VDATA holds the data (cmpswap: data then the
 * compare value); with GLC the texel's old value is returned to VDATA.
 * Out of range: nothing is done and GLC returns 0. */

#define OP_ATOMIC_FIRST 0x10
#define OP_ATOMIC_LAST 0x1c

/* The lane's texel coordinates and, in *lt, t at its level (BASE_LEVEL,
 * plus the level operand of a _mip form): 0 inside, 1 outside the image
 * or its levels, -1 error raised. */
static int lane_texel(struct isa_wave *w, const struct isa_inst *in, const struct tsharp *t,
		      unsigned lane, bool mip, uint32_t *x, uint32_t *y, uint32_t *s,
		      struct tsharp *lt)
{
	unsigned nc = type_coords(t->type);
	uint32_t c[4] = { 0, 0, 0, 0 };

	for (unsigned i = 0; i < nc + mip; i++)
		c[i] = addr_comp(w, in, lane, i);
	*x = c[0];
	*y = 0;
	*s = 0;
	if (t->type == RT_1D_ARRAY)
		*s = c[1];
	else if (nc > 1)
		*y = c[1];
	if (nc > 2)
		*s = c[2];
	*lt = *t;
	int m = tsharp_level(w, in, lt, (uint64_t)t->base_level + (mip ? c[nc] : 0));
	if (m)
		return m;
	return *x < lt->width && *y < lt->height && *s < slices_of(lt) ? 0 : 1;
}

static uint64_t lane_texel_va(const struct tsharp *t, uint32_t x, uint32_t y, uint32_t s)
{
	return texel_va(t, x, y, s + (is_array(t) ? t->base_array : 0));
}

static int exec_image_pck(struct isa_wave *w, const struct isa_inst *in)
{
	struct tsharp t;
	uint64_t exec = isa_exec(w);
	bool store = in->op >= OP_STORE, mip = in->op == 0x04 || in->op == 0x05 || in->op == 0x0b;
	int rc;

	tsharp_read(w, in->saddr, &t);
	rc = check_resource(w, in, &t);
	if (rc < 0)
		return ISA_STEP_ERROR;
	if (rc && store)
		return ISA_STEP_NEXT;
	for (uint64_t e = exec; e; e &= e - 1) {
		unsigned lane = (unsigned)__builtin_ctzll(e), k = 0;
		uint32_t x = 0, y = 0, sl = 0, d[4] = { 0, 0, 0, 0 };
		struct tsharp lt = t;
		int m = rc ? 1 : lane_texel(w, in, &t, lane, mip, &x, &y, &sl, &lt);

		if (m < 0)
			return ISA_STEP_ERROR;
		if (store) {
			if (m)
				continue;
			for (unsigned i = 0; i < 4; i++)
				if (in->aux & (1u << i))
					d[i] = isa_vrow(w, data_row(in, k++))[lane];
			if (isa_mem_write(w, in, lane_texel_va(&lt, x, y, sl), d, t.f.bytes))
				return ISA_STEP_ERROR;
			continue;
		}
		if (!m) {
			if (isa_mem_read(w, in, lane_texel_va(&lt, x, y, sl), d, t.f.bytes))
				return ISA_STEP_ERROR;
			if (t.f.bytes < 4 && (in->flags & MI_SGN))
				d[0] = t.f.bytes == 1 ? (uint32_t)(int32_t)(int8_t)d[0]
						      : (uint32_t)(int32_t)(int16_t)d[0];
		}
		for (unsigned i = 0; i < 4; i++)
			if (in->aux & (1u << i))
				isa_vrow(w, data_row(in, k++))[lane] = d[i];
		write_lwe(w, in, lane);
	}
	return ISA_STEP_NEXT;
}

uint64_t kemu_isa_mem_atomic(void *p, unsigned bytes, unsigned aop, uint64_t v, uint64_t cmp);

static int exec_image_atomic(struct isa_wave *w, const struct isa_inst *in)
{
	struct tsharp t;
	uint64_t exec = isa_exec(w);
	unsigned aop = in->op - OP_ATOMIC_FIRST, n, nd;
	bool fl;
	int rc;

	tsharp_read(w, in->saddr, &t);
	rc = check_resource(w, in, &t);
	if (rc < 0)
		return ISA_STEP_ERROR;
	n = t.f.bytes;
	fl = t.nfmt == NF_FLOAT;
	if (!rc && ((n != 4 && n != 8) || t.f.comps != n / 4 ||
		    (t.nfmt != NF_UINT && t.nfmt != NF_SINT && !(fl && n == 4 && aop <= 1))))
		return isa_fail(w, in, KEMU_ISA_ERR_ILLEGAL_INSTRUCTION,
				"%s at 0x%llx: image atomic on data format %u / number format %u "
				"(a 32- or 64-bit integer texel, or a 32-bit float one for swap/cmpswap, "
				"is needed)", mimg_names[in->op], (unsigned long long)in->addr, t.dfmt,
				t.nfmt);
	nd = rc ? 1 : n / 4;
	for (uint64_t e = exec; e; e &= e - 1) {
		unsigned lane = (unsigned)__builtin_ctzll(e);
		uint32_t x = 0, y = 0, sl = 0;
		uint64_t v = 0, c = 0, old = 0;
		struct tsharp lt = t;
		int m = rc ? 1 : lane_texel(w, in, &t, lane, false, &x, &y, &sl, &lt);

		if (m < 0)
			return ISA_STEP_ERROR;
		if (!m) {
			void *h;
			uint64_t va = lane_texel_va(&lt, x, y, sl);
			for (unsigned i = 0; i < nd; i++) {
				v |= (uint64_t)isa_vrow(w, data_row(in, i))[lane] << (32 * i);
				if (aop == 1)
					c |= (uint64_t)isa_vrow(w, data_row(in, nd + i))[lane] << (32 * i);
			}
			if (va & (n - 1))
				return isa_fault(w, in, va, KEMU_ISA_ACCESS_ATOMIC);
			h = isa_mem_map(w, in, va, n, KEMU_ISA_ACCESS_READ | KEMU_ISA_ACCESS_WRITE |
						      KEMU_ISA_ACCESS_ATOMIC);
			if (!h)
				return ISA_STEP_ERROR;
			old = kemu_isa_mem_atomic(h, n, aop, v, c);
		}
		if (in->flags & MI_GLC)
			for (unsigned i = 0; i < nd; i++)
				isa_vrow(w, data_row(in, i))[lane] = (uint32_t)(old >> (32 * i));
	}
	return ISA_STEP_NEXT;
}

static int exec_image_get_resinfo(struct isa_wave *w, const struct isa_inst *in)
{
	struct tsharp t;
	uint64_t exec = isa_exec(w);

	tsharp_read(w, in->saddr, &t);
	for (uint64_t e = exec; e; e &= e - 1) {
		unsigned lane = (unsigned)__builtin_ctzll(e);
		uint32_t mip = addr_comp(w, in, lane, 0), out[4] = { 0, 0, 0, 0 };
		unsigned levels = t.last_level >= t.base_level ? t.last_level - t.base_level + 1 : 0;

		if (t.type >= RT_1D && mip < levels) {
			/* the extent of level BASE_LEVEL + mip */
			const uint32_t l = t.base_level + mip;
			out[0] = halved(t.width, l);
			out[1] = halved(t.height, l);
			out[2] = t.type == RT_3D ? halved(t.depth, l) : is_array(&t) ? t.depth : 0;
			if (t.type == RT_1D_ARRAY) {
				out[1] = t.depth;
				out[2] = 0;
			}
			if (t.type == RT_1D)
				out[1] = 0;
			out[3] = levels;
		}
		write_result(w, in, lane, out, true);
	}
	return ISA_STEP_NEXT;
}

/* Texel index i on an axis of n texels under address mode m; -1: the
 * border colour. */
static int64_t address_axis(int64_t i, int64_t n, unsigned m)
{
	int64_t r;

	switch (m) {
	case CL_WRAP:
		r = i % n;
		return r < 0 ? r + n : r;
	case CL_MIRROR:
		r = i % (2 * n);
		if (r < 0)
			r += 2 * n;
		return r >= n ? 2 * n - 1 - r : r;
	case CL_LAST_TEXEL:
		return i < 0 ? 0 : i >= n ? n - 1 : i;
	case CL_MIRROR_ONCE_LAST:
		if (i < 0)
			i = -1 - i;
		return i >= n ? n - 1 : i;
	case CL_HALF_BORDER: case CL_BORDER:
		return i < 0 || i >= n ? -1 : i;
	default: /* the MIRROR_ONCE border modes */
		if (i < 0)
			i = -1 - i;
		return i >= n ? -1 : i;
	}
}

/* Border colour as memory components (BC_SWIZZLE puts the RGBA border
 * into X, Y, Z, W; DST_SEL then reads it as a texel). */
static void border_mem(const struct tsharp *t, const struct ssharp *s, uint32_t mem[4])
{
	static const uint8_t bcs[8][4] = {
		{ 0, 1, 2, 3 },  /* XYZW */
		{ 0, 3, 1, 2 },  /* XWYZ */
		{ 3, 2, 1, 0 },  /* WZYX */
		{ 3, 0, 1, 2 },  /* WXYZ */
		{ 2, 1, 0, 3 },  /* ZYXW */
		{ 1, 0, 3, 2 },  /* YXWZ */
		{ 0, 1, 2, 3 }, { 0, 1, 2, 3 },
	};
	uint32_t one = one_of(t->nfmt), rgba[4] = { 0, 0, 0, 0 };

	if (s->border == 1)                     /* OPAQUE_BLACK */
		rgba[3] = one;
	else if (s->border == 2)                /* OPAQUE_WHITE */
		rgba[0] = rgba[1] = rgba[2] = rgba[3] = one;
	for (unsigned c = 0; c < 4; c++)
		mem[c] = rgba[bcs[t->bc_swizzle][c]];
}

/* Texel-space coordinate from a float coordinate, in fixed point with
 * ISA_SUBTEXEL_BITS fraction bits (rounded to nearest even): the texture
 * unit addresses texels in fixed point (D3D10+ hardware guarantees at
 * least 8 bits of sub-texel precision; GFX9's exact rounding is not
 * documented).  ockl's nearest-filter path relies on it: it sends
 * floor(c * n) * rcp(n), whose product with n may land a hair below the
 * integer it meant. */
#define ISA_SUBTEXEL_BITS 8
static double texel_coord(float c, uint32_t n, bool unnorm)
{
	double u = unnorm ? (double)c : (double)(c * (float)n);
	if (u != u)
		return 0.0;
	/* far outside any image: keep the integer arithmetic in range */
	u = u < -0x1p40 ? -0x1p40 : u > 0x1p40 ? 0x1p40 : u;
	return nearbyint(u * (1 << ISA_SUBTEXEL_BITS)) / (1 << ISA_SUBTEXEL_BITS);
}

struct axis {
	int64_t i[2];           /* texel indices after addressing (-1: border) */
	float wt[2];            /* weights */
	unsigned n;             /* 1 (point) or 2 (linear) */
};

static void axis_setup(struct axis *a, double u, uint32_t n, unsigned mode, bool linear)
{
	if (!linear) {
		a->n = 1;
		a->i[0] = address_axis((int64_t)floor(u), n, mode);
		a->wt[0] = 1.0f;
		return;
	}
	double v = u - 0.5, f = floor(v);
	float frac = (float)(v - f);
	a->n = 2;
	a->i[0] = address_axis((int64_t)f, n, mode);
	a->i[1] = address_axis((int64_t)f + 1, n, mode);
	a->wt[0] = 1.0f - frac;
	a->wt[1] = frac;
}

static int exec_image_sample(struct isa_wave *w, const struct isa_inst *in)
{
	struct tsharp t;
	struct ssharp s;
	uint64_t exec = isa_exec(w);
	unsigned nc;
	int rc;

	tsharp_read(w, in->saddr, &t);
	ssharp_read(w, in->sdst, &s);
	rc = check_resource(w, in, &t);
	if (rc == 0)
		rc = tsharp_level(w, in, &t, t.base_level); /* LOD 0: BASE_LEVEL */
	if (rc < 0)
		return ISA_STEP_ERROR;
	nc = type_coords(t.type);
	bool unnorm = (in->flags & MI_UNORM) || s.force_unnorm;
	bool is_int = nfmt_is_int(t.nfmt);
	bool lin_xy = s.mag_filter == 1 || s.mag_filter == 3;
	bool lin_z = s.z_filter == 0 ? lin_xy : s.z_filter == 2;
	uint32_t bmem[4];

	if (rc == 0)
		border_mem(&t, &s, bmem);
	for (uint64_t e = exec; e; e &= e - 1) {
		unsigned lane = (unsigned)__builtin_ctzll(e);
		float c[3] = { 0, 0, 0 };
		uint32_t out[4] = { 0, 0, 0, 0 }, acc[4] = { 0, 0, 0, 0 };
		struct axis ax[3];
		uint32_t slice = 0;
		float sum[4] = { 0, 0, 0, 0 };

		if (rc) {
			write_result(w, in, lane, out, is_int);
			write_lwe(w, in, lane);
			continue;
		}
		for (unsigned i = 0; i < nc; i++) {
			uint32_t a = isa_vrow(w, in->addr_reg + ((in->flags & MI_A16) ? i / 2 : i))[lane];
			c[i] = (in->flags & MI_A16) ? f16_to_f32((uint16_t)(a >> (16 * (i % 2)))) : f32_of(a);
		}
		/* x always; y for 2-D kinds; z for 3-D; arrays: the slice */
		unsigned dims = t.type == RT_3D ? 3 : (t.type == RT_2D || t.type == RT_2D_ARRAY) ? 2 : 1;
		if (is_array(&t)) {
			float sc = c[dims];
			double r = sc != sc ? 0.0 : nearbyint((double)sc);
			slice = r < 0 ? 0 : r > t.depth - 1 ? t.depth - 1 : (uint32_t)r;
		}
		const uint32_t size[3] = { t.width, t.height, t.type == RT_3D ? t.depth : 1 };
		for (unsigned d = 0; d < 3; d++) {
			if (d >= dims) {
				ax[d].n = 1;
				ax[d].i[0] = 0;
				ax[d].wt[0] = 1.0f;
				continue;
			}
			bool lin = !is_int && (d == 2 ? lin_z : lin_xy);
			axis_setup(&ax[d], texel_coord(c[d], size[d], unnorm), size[d], s.clamp[d], lin);
		}
		for (unsigned k = 0; k < ax[2].n; k++) {
			for (unsigned j = 0; j < ax[1].n; j++) {
				for (unsigned i = 0; i < ax[0].n; i++) {
					uint32_t mem[4];
					float wgt = ax[0].wt[i] * ax[1].wt[j] * ax[2].wt[k];
					if (ax[0].i[i] < 0 || ax[1].i[j] < 0 || ax[2].i[k] < 0) {
						memcpy(mem, bmem, sizeof(mem));
					} else {
						uint32_t z = t.type == RT_3D ? (uint32_t)ax[2].i[k] : slice;
						if (read_texel(w, in, &t, (uint32_t)ax[0].i[i],
							       (uint32_t)ax[1].i[j], z, mem))
							return ISA_STEP_ERROR;
					}
					if (is_int) {
						memcpy(acc, mem, sizeof(acc));
						continue;
					}
					for (unsigned ch = 0; ch < 4; ch++)
						sum[ch] += wgt * f32_of(mem[ch]);
				}
			}
		}
		if (!is_int)
			for (unsigned ch = 0; ch < 4; ch++)
				acc[ch] = u32_of(sum[ch]);
		apply_dst_sel(&t, acc, out);
		write_result(w, in, lane, out, is_int);
		write_lwe(w, in, lane);
	}
	return ISA_STEP_NEXT;
}

void kemu_isa_decode_mimg(const struct isa_decoder *dc, struct isa_inst *in)
{
	uint32_t w0 = in->word[0], w1 = in->word[1];
	unsigned op = (w0 >> 18) & 0x7f;

	in->op = (uint16_t)op;
	if (dc->gfx942)
		return;         /* CDNA3 has no image instructions */
	/* A16 (16-bit address components) on every image instruction; LWE
	 * (the status dword after the data) on the ones that return texels:
	 * on a store, an atomic or get_resinfo it stays illegal (no status
	 * defined there) */
	if ((w0 >> 15) & 1)
		in->flags |= MI_A16;
	if ((w0 >> 17) & 1) {
		if (op != OP_SAMPLE && op != OP_LOAD && op != OP_LOAD_MIP && (op < 0x02 || op > 0x05))
			return;
		in->flags |= MI_LWE;
	}
	if ((w1 >> 31) & 1)
		in->flags |= MI_D16;                            /* D16 */
	in->aux = (uint16_t)((w0 >> 8) & 0xf);                  /* DMASK */
	if (w0 & (1u << 12))
		in->flags |= MI_UNORM;
	in->addr_reg = w1 & 0xff;
	in->data_reg = (uint16_t)(((w1 >> 8) & 0xff) + ((w0 >> 16) & 1 ? dc->p->accum_offset : 0));
	in->saddr = (uint16_t)(((w1 >> 16) & 0x1f) * 4);      /* T# */
	in->sdst = (uint16_t)(((w1 >> 21) & 0x1f) * 4);       /* S# */
	/* the VGPR rows an instruction may name (decode sizes the file):
	 * up to 4 data rows (5 with LWE) and 4 address rows */
	in->dst = (uint16_t)(in->data_reg + ((in->flags & MI_LWE) ? 4 : 3));
	switch (op) {
	case OP_LOAD: case OP_LOAD_MIP:
		in->exec = exec_image_load;
		break;
	case OP_STORE: case OP_STORE_MIP:
		in->exec = exec_image_store;
		break;
	case OP_GET_RESINFO:
		in->exec = exec_image_get_resinfo;
		break;
	case OP_SAMPLE:
		in->exec = exec_image_sample;
		break;
	case 0x02: case 0x03: case 0x04: case 0x05: case 0x0a: case 0x0b:
		/* the _pck forms: D16 has nothing to pack (no conversion) */
		if (in->flags & MI_D16)
			break;
		if (op == 0x03 || op == 0x05)
			in->flags |= MI_SGN;
		in->exec = exec_image_pck;
		break;
	default:
		if (op >= OP_ATOMIC_FIRST && op <= OP_ATOMIC_LAST && !(in->flags & MI_D16)) {
			if (w0 & (1u << 13))
				in->flags |= MI_GLC;
			in->exec = exec_image_atomic;
		}
		break;
	}
}

/* ---- typed buffer access: buffer_load_format_* / buffer_store_format_*
 *
 * The MUBUF format opcodes (0x00-0x0f) read and write elements of a
 * buffer resource (V#) in the format its word 3 names, the way 1-D buffer
 * images (image1d_buffer_t, HSA_EXT_IMAGE_GEOMETRY_1DB: ROCr builds a
 * V# for them) are accessed; they share the format conversions above.
 * V# (GFX9 SQ_BUF_RSRC_WORD0-3): BASE_ADDRESS [47:0], STRIDE [61:48],
 * SWIZZLE_ENABLE bit 63, NUM_RECORDS word 2, DST_SEL_X/Y/Z/W [11:0],
 * NUM_FORMAT [14:12], DATA_FORMAT [18:15] (the image data-format numbers
 * for 8 ... 32_32_32_32), ADD_TID_ENABLE bit 23 of word 3.  Address
 * base + soffset + index * stride + offset, index = VGPR (IDXEN) + lane
 * (ADD_TID), offset = VGPR (OFFEN) + the instruction's offset; out of
 * range (index >= NUM_RECORDS with a stride, else offset + element size >
 * NUM_RECORDS) reads 0 and drops stores.  Opcodes: 0x00-0x03 load x..xyzw,
 * 0x04-0x07 store x..xyzw, 0x08-0x0f their D16 forms.  Swizzled buffers
 * (SWIZZLE_ENABLE) with a format are not implemented (error).
 */
#define TB_OFFEN 4
#define TB_IDXEN 8

static int exec_buffer_format(struct isa_wave *w, const struct isa_inst *in)
{
	uint32_t vd[GFX9_V_DWORDS];
	for (unsigned i = 0; i < GFX9_V_DWORDS; i++)
		vd[i] = w->s[(in->saddr + i) & 127];
	uint64_t base = gfx9_v_base(vd), exec = isa_exec(w);
	uint32_t stride = GFX9_DESC_GET(vd, GFX9_V_STRIDE), soffset = isa_sread32(w, &in->src[0]);
	uint32_t num_records = GFX9_DESC_GET(vd, GFX9_V_NUM_RECORDS);
	/* 0x00-0x0f: loads have bit 2 clear; 0x26/0x27: the d16_hi_x load/store */
	bool store = in->op == 0x27 || (in->op < 0x10 && (in->op & 4) != 0);
	bool add_tid = GFX9_DESC_GET(vd, GFX9_V_ADD_TID_ENABLE);
	struct tsharp t;

	memset(&t, 0, sizeof(t));
	for (unsigned i = 0; i < 4; i++)
		t.dst_sel[i] = (uint8_t)GFX9_DESC_GET(vd, GFX9_V_DST_SEL(i));
	t.nfmt = GFX9_DESC_GET(vd, GFX9_V_NUM_FORMAT);
	t.dfmt = GFX9_DESC_GET(vd, GFX9_V_DATA_FORMAT);
	if (in->offset1 & MTBUF_FMT) {  /* tbuffer_*: the instruction's format */
		t.dfmt = in->offset1 & 15;
		t.nfmt = (in->offset1 >> 4) & 7;
	}
	t.fmt_ok = fmt_of(t.dfmt, &t.f);
	if (t.dfmt == 0) {              /* INVALID: loads read 0, stores drop */
		if (!store)
			for (uint64_t e = exec; e; e &= e - 1) {
				unsigned lane = (unsigned)__builtin_ctzll(e);
				uint32_t z[4] = { 0, 0, 0, 0 };
				write_result(w, in, lane, z, false);
			}
		return ISA_STEP_NEXT;
	}
	if (!t.fmt_ok || !nfmt_ok(&t) || t.nfmt == NF_SRGB)
		return isa_fail(w, in, KEMU_ISA_ERR_ILLEGAL_INSTRUCTION,
				"buffer format access at 0x%llx: data format %u / number format %u not "
				"implemented", (unsigned long long)in->addr, t.dfmt, t.nfmt);
	if (GFX9_DESC_GET(vd, GFX9_V_SWIZZLE_ENABLE))
		return isa_fail(w, in, KEMU_ISA_ERR_ILLEGAL_INSTRUCTION,
				"buffer format access at 0x%llx: swizzled buffer not implemented",
				(unsigned long long)in->addr);
	for (uint64_t e = exec; e; e &= e - 1) {
		unsigned lane = (unsigned)__builtin_ctzll(e);
		uint32_t vidx = 0, voff = 0, out[4] = { 0, 0, 0, 0 };
		unsigned vr = in->addr_reg;
		uint8_t buf[24] = { 0 };

		if (in->flags & TB_IDXEN)
			vidx = isa_vrow(w, vr++)[lane];
		if (in->flags & TB_OFFEN)
			voff = isa_vrow(w, vr)[lane];
		uint64_t index = (uint64_t)vidx + (add_tid ? lane : 0);
		uint64_t offset = (uint64_t)voff + (uint32_t)in->offset;
		bool oob = stride ? (index >= num_records || offset + t.f.bytes > stride)
				  : offset + t.f.bytes > num_records;
		uint64_t va = base + soffset + index * stride + offset;

		if (store) {
			uint32_t data[4] = { 0, 0, 0, 0 };
			if (oob)
				continue;
			read_store_data(w, in, lane, t.nfmt, data);
			for (unsigned mc = 0; mc < t.f.comps; mc++) {
				uint32_t v = 0;
				for (unsigned i = 0; i < 4; i++) {
					if (t.dst_sel[i] == SEL_X + mc) {
						v = data[i];
						break;
					}
				}
				field_put(buf, t.f.shift[mc], t.f.bits[mc],
					  encode_comp(t.nfmt, t.f.bits[mc], mc, v));
			}
			if (isa_mem_write(w, in, va, buf, t.f.bytes))
				return ISA_STEP_ERROR;
			continue;
		}
		if (!oob) {
			uint32_t mem[4];
			if (isa_mem_read(w, in, va, buf, t.f.bytes))
				return ISA_STEP_ERROR;
			texel_decode(&t, buf, mem);
			apply_dst_sel(&t, mem, out);
		}
		write_result(w, in, lane, out, nfmt_is_int(t.nfmt));
	}
	return ISA_STEP_NEXT;
}

/* MTBUF: OFFSET [11:0], OFFEN [12], IDXEN [13], GLC [14], OP [18:15],
 * DFMT [22:19], NFMT [25:23]; the second dword as MUBUF's.  The ops are
 * numbered as the MUBUF format ops (x..xyzw loads, stores, then d16). */
void kemu_isa_decode_mtbuf(const struct isa_decoder *dc, struct isa_inst *in)
{
	uint32_t w0 = in->word[0], w1 = in->word[1];
	unsigned op = (w0 >> 15) & 0xf;

	in->op = (uint16_t)op;
	in->aux = (uint16_t)((1u << ((op & 3) + 1)) - 1);
	if (op >= 0x08)
		in->flags |= MI_D16;
	in->offset1 = MTBUF_FMT | ((w0 >> 19) & 15) | (((w0 >> 23) & 7) << 4);
	in->offset = (int32_t)(w0 & 0xfff);
	if (w0 & (1u << 12))
		in->flags |= TB_OFFEN;
	if (w0 & (1u << 13))
		in->flags |= TB_IDXEN;
	in->addr_reg = w1 & 0xff;
	in->data_reg = (uint16_t)(((w1 >> 8) & 0xff) + ((w1 >> 23) & 1 ? dc->p->accum_offset : 0));
	in->dst = (uint16_t)(in->data_reg + 3);
	in->saddr = (uint16_t)(((w1 >> 16) & 0x1f) * 4);
	kemu_isa_opnd(&in->src[0], (w1 >> 24) & 0xff, ISA_T_B32, 0);
	if (in->src[0].kind == ISA_OPND_BAD || (w1 >> 24) == ISA_SRC_LITERAL)
		return;
	in->exec = exec_buffer_format;
}

void kemu_isa_decode_mubuf_format(const struct isa_decoder *dc, struct isa_inst *in)
{
	uint32_t w0 = in->word[0], w1 = in->word[1];
	unsigned op = (w0 >> 18) & 0x7f;

	in->op = (uint16_t)op;
	if ((op > 0x0f && op != 0x26 && op != 0x27) || (w0 >> 16) & 1)
		return;                 /* LDS DMA: not implemented */
	/* the component count (x .. xyzw) is the DMASK of the shared
	 * write_result/read_store_data */
	in->aux = (uint16_t)((1u << ((op & 3) + 1)) - 1);
	if (op >= 0x08)
		in->flags |= MI_D16;
	if (op == 0x26 || op == 0x27) { /* buffer_load/store_format_d16_hi_x */
		in->aux = 1;
		in->flags |= MI_D16_HI;
	}
	in->offset = (int32_t)(w0 & 0xfff);
	if (w0 & (1u << 12))
		in->flags |= TB_OFFEN;
	if (w0 & (1u << 13))
		in->flags |= TB_IDXEN;
	in->addr_reg = w1 & 0xff;
	in->data_reg = (uint16_t)(((w1 >> 8) & 0xff) + ((w1 >> 23) & 1 ? dc->p->accum_offset : 0));
	in->dst = (uint16_t)(in->data_reg + 3);
	in->saddr = (uint16_t)(((w1 >> 16) & 0x1f) * 4);
	kemu_isa_opnd(&in->src[0], (w1 >> 24) & 0xff, ISA_T_B32, 0);
	if (in->src[0].kind == ISA_OPND_BAD || (w1 >> 24) == ISA_SRC_LITERAL)
		return;
	in->exec = exec_buffer_format;
}
