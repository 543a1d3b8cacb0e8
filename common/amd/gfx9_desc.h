/*
 * GFX9 resource descriptors by field: the image resource (T#, 8 dwords,
 * SQ_IMG_RSRC_WORD0-7), the buffer resource (V#, 4 dwords,
 * SQ_BUF_RSRC_WORD0-3) and the sampler (S#, 4 dwords, SQ_IMG_SAMP_WORD0-3)
 * of gfx9 (Vega) and CDNA 1-2 (gfx908, gfx90a).  The one description of
 * these layouts in the project: the runtime writes descriptors with it
 * (src/image/descriptor.c, image.c) and kfdemu's interpreter reads them
 * (emu/isa/isa_exec_mimg.c, isa_exec_flat.c), so both sides of the syscall
 * boundary name the same bits.  Header-only, no HSA or KFD types.
 *
 * Facts: AMD's "Vega" and "AMD Instinct MI200 (CDNA2)" ISA guides, tables
 * "Image Resource Definition", "Buffer Resource Descriptor" and "Image
 * Sampler Definition"; the register field names are those of ROCr 5.2.3's
 * resource_ai.h.  Only the fields hsalite writes or kfdemu reads are named;
 * the rest of each word is zero in every descriptor hsalite builds
 * (test/image_peer compares them with ROCr 5.2.3's byte for byte).
 *
 * A field is a macro that expands to "word, shift, width", used through
 *   GFX9_DESC_GET(d, GFX9_T_WIDTH)         the field of descriptor d
 *   GFX9_DESC_SET(d, GFX9_T_WIDTH, w - 1)  the field replaced by the value's
 *                                          low `width` bits, the rest kept
 */
#ifndef HSALITE_GFX9_DESC_H
#define HSALITE_GFX9_DESC_H

#include <stdint.h>

/* ---- T#: image resource (SQ_IMG_RSRC_WORD0-7) ---- */
#define GFX9_T_DWORDS 8
#define GFX9_T_BASE_ADDRESS 0, 0, 32     /* address[39:8] (256-byte aligned) */
#define GFX9_T_BASE_ADDRESS_HI 1, 0, 8   /* address[47:40] */
#define GFX9_T_MIN_LOD 1, 8, 12
#define GFX9_T_DATA_FORMAT 1, 20, 6      /* IMG_DATA_FORMAT */
#define GFX9_T_NUM_FORMAT 1, 26, 4       /* IMG_NUM_FORMAT */
#define GFX9_T_WIDTH 2, 0, 14            /* width - 1 */
#define GFX9_T_HEIGHT 2, 14, 14          /* height - 1 */
#define GFX9_T_DST_SEL(c) 3, 3 * (c), 3  /* c = 0..3: X, Y, Z, W (SQ_SEL) */
#define GFX9_T_BASE_LEVEL 3, 12, 4
#define GFX9_T_LAST_LEVEL 3, 16, 4
#define GFX9_T_SW_MODE 3, 20, 5          /* addrlib's AddrSwizzleMode */
#define GFX9_T_TYPE 3, 28, 4             /* SQ_RSRC_IMG_* */
#define GFX9_T_DEPTH 4, 0, 13            /* depth - 1, or slices - 1 of an array */
#define GFX9_T_PITCH 4, 13, 16           /* pitch - 1, in elements; a linear mip
                                          * chain (MAX_MIP > 0): its rows per
                                          * slice - 1 (addrlib's epitch) */
#define GFX9_T_BC_SWIZZLE 4, 29, 3       /* TEX_BC_SWIZZLE */
#define GFX9_T_BASE_ARRAY 5, 0, 13
#define GFX9_T_META_DATA_ADDRESS_HI 5, 17, 8 /* metadata address[47:40] */
#define GFX9_T_MAX_MIP 5, 28, 4          /* the resource's last mip level (levels - 1) */
#define GFX9_T_COMPRESSION_EN 6, 21, 1
#define GFX9_T_META_DATA_ADDRESS 7, 0, 32    /* metadata address[39:8] */

/* SQ_RSRC_IMG_*: T# TYPE */
enum {
	GFX9_IMG_1D = 8,
	GFX9_IMG_2D = 9,
	GFX9_IMG_3D = 10,
	GFX9_IMG_CUBE = 11,
	GFX9_IMG_1D_ARRAY = 12,
	GFX9_IMG_2D_ARRAY = 13,
};

/* SQ_SEL_*: DST_SEL of a T# or V# (a constant, or a component of the
 * element in memory) */
enum { GFX9_SEL_0 = 0, GFX9_SEL_1 = 1, GFX9_SEL_X = 4, GFX9_SEL_Y = 5, GFX9_SEL_Z = 6,
       GFX9_SEL_W = 7 };

/* TEX_BC_SWIZZLE: where the border colour's components land */
enum { GFX9_BC_XYZW = 0, GFX9_BC_XWYZ = 1, GFX9_BC_WZYX = 2, GFX9_BC_WXYZ = 3,
       GFX9_BC_ZYXW = 4, GFX9_BC_YXWZ = 5 };

/* ---- V#: buffer resource (SQ_BUF_RSRC_WORD0-3) ---- */
#define GFX9_V_DWORDS 4
#define GFX9_V_BASE_ADDRESS 0, 0, 32     /* address[31:0] (byte aligned) */
#define GFX9_V_BASE_ADDRESS_HI 1, 0, 16  /* address[47:32] */
#define GFX9_V_STRIDE 1, 16, 14          /* bytes per record */
#define GFX9_V_SWIZZLE_ENABLE 1, 31, 1
#define GFX9_V_NUM_RECORDS 2, 0, 32
#define GFX9_V_DST_SEL(c) 3, 3 * (c), 3  /* c = 0..3: X, Y, Z, W (SQ_SEL) */
#define GFX9_V_NUM_FORMAT 3, 12, 3       /* BUF_NUM_FORMAT */
#define GFX9_V_DATA_FORMAT 3, 15, 4      /* BUF_DATA_FORMAT */
#define GFX9_V_ELEMENT_SIZE 3, 19, 2     /* swizzle element: 2 << n bytes */
#define GFX9_V_INDEX_STRIDE 3, 21, 2     /* swizzle index stride: 8 << n */
#define GFX9_V_ADD_TID_ENABLE 3, 23, 1
#define GFX9_V_TYPE 3, 30, 2             /* 0: buffer */

/* ---- S#: sampler (SQ_IMG_SAMP_WORD0-3) ---- */
#define GFX9_S_DWORDS 4
#define GFX9_S_CLAMP(axis) 0, 3 * (axis), 3 /* axis = 0..2: X, Y, Z (SQ_TEX_CLAMP) */
#define GFX9_S_FORCE_UNNORMALIZED 0, 15, 1
#define GFX9_S_MIN_LOD 1, 0, 12          /* unsigned 4.8 */
#define GFX9_S_MAX_LOD 1, 12, 12         /* unsigned 4.8 */
#define GFX9_S_XY_MAG_FILTER 2, 20, 2    /* SQ_TEX_XY_FILTER */
#define GFX9_S_XY_MIN_FILTER 2, 22, 2
#define GFX9_S_Z_FILTER 2, 24, 2         /* SQ_TEX_Z_FILTER */
#define GFX9_S_MIP_FILTER 2, 26, 2
#define GFX9_S_BORDER_COLOR_TYPE 3, 30, 2 /* SQ_TEX_BORDER_COLOR */

/* SQ_TEX_CLAMP */
enum {
	GFX9_CLAMP_WRAP = 0,
	GFX9_CLAMP_MIRROR = 1,
	GFX9_CLAMP_LAST_TEXEL = 2,
	GFX9_CLAMP_MIRROR_ONCE_LAST_TEXEL = 3,
	GFX9_CLAMP_HALF_BORDER = 4,
	GFX9_CLAMP_MIRROR_ONCE_HALF_BORDER = 5,
	GFX9_CLAMP_BORDER = 6,
	GFX9_CLAMP_MIRROR_ONCE_BORDER = 7,
};
/* SQ_TEX_XY_FILTER */
enum { GFX9_XY_FILTER_POINT = 0, GFX9_XY_FILTER_BILINEAR = 1 };

/* ---- access ---- */

static inline uint32_t gfx9_desc_mask_(unsigned width)
{
	return width >= 32 ? 0xffffffffu : (1u << width) - 1u;
}

static inline uint32_t gfx9_desc_get_(const uint32_t *d, unsigned word, unsigned shift,
				      unsigned width)
{
	return (d[word] >> shift) & gfx9_desc_mask_(width);
}

static inline void gfx9_desc_set_(uint32_t *d, unsigned word, unsigned shift, unsigned width,
				  uint32_t v)
{
	const uint32_t m = gfx9_desc_mask_(width) << shift;
	d[word] = (d[word] & ~m) | ((v << shift) & m);
}

/* The field argument expands to "word, shift, width" before the call is
 * formed (a macro argument not used with # or ## is expanded first). */
#define GFX9_DESC_GET(d, field) gfx9_desc_get_((d), field)
#define GFX9_DESC_SET(d, field, v) gfx9_desc_set_((d), field, (uint32_t)(v))

/* T# base: a 256-byte aligned 48-bit address split over words 0 and 1. */
static inline uint64_t gfx9_t_base(const uint32_t *d)
{
	return ((uint64_t)GFX9_DESC_GET(d, GFX9_T_BASE_ADDRESS) |
		(uint64_t)GFX9_DESC_GET(d, GFX9_T_BASE_ADDRESS_HI) << 32) << 8;
}

static inline void gfx9_t_set_base(uint32_t *d, uint64_t addr)
{
	GFX9_DESC_SET(d, GFX9_T_BASE_ADDRESS, addr >> 8);
	GFX9_DESC_SET(d, GFX9_T_BASE_ADDRESS_HI, addr >> 40);
}

/* T# metadata (DCC/HTILE) address: 256-byte aligned, words 5 and 7. */
static inline uint64_t gfx9_t_meta(const uint32_t *d)
{
	return ((uint64_t)GFX9_DESC_GET(d, GFX9_T_META_DATA_ADDRESS) |
		(uint64_t)GFX9_DESC_GET(d, GFX9_T_META_DATA_ADDRESS_HI) << 32) << 8;
}

static inline void gfx9_t_set_meta(uint32_t *d, uint64_t addr)
{
	GFX9_DESC_SET(d, GFX9_T_META_DATA_ADDRESS, addr >> 8);
	GFX9_DESC_SET(d, GFX9_T_META_DATA_ADDRESS_HI, addr >> 40);
}

/* V# base: a byte address, 48 bits over words 0 and 1. */
static inline uint64_t gfx9_v_base(const uint32_t *d)
{
	return (uint64_t)GFX9_DESC_GET(d, GFX9_V_BASE_ADDRESS) |
	       (uint64_t)GFX9_DESC_GET(d, GFX9_V_BASE_ADDRESS_HI) << 32;
}

static inline void gfx9_v_set_base(uint32_t *d, uint64_t addr)
{
	GFX9_DESC_SET(d, GFX9_V_BASE_ADDRESS, addr);
	GFX9_DESC_SET(d, GFX9_V_BASE_ADDRESS_HI, addr >> 32);
}

/* DST_SEL_X/Y/Z/W of a T# or V# (the same bits of word 3 in both). */
static inline void gfx9_desc_set_dst_sel(uint32_t *d, const uint8_t sel[4])
{
	for (unsigned c = 0; c < 4; c++)
		GFX9_DESC_SET(d, GFX9_T_DST_SEL(c), sel[c]);
}

#endif /* HSALITE_GFX9_DESC_H */
