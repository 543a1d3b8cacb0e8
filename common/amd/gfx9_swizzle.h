/*
 * Where element (x, y, slice) of a GFX9 image lives: its byte offset from
 * the image base for the T#'s SW_MODE, as the texture unit addresses it
 * for the device's GB_ADDR_CONFIG (the value GET_TILE_CONFIG reports,
 * with which ROCr's addrlib lays images out).  The one description of the
 * GFX9 element order in the project: the runtime's image transfers
 * (src/image/transfer.c) and kfdemu's image instructions
 * (emu/isa/isa_image_swizzle.c) both use it.  Header-only, no HSA or KFD
 * types.  Checked against ROCr 5.2.3's addrlib built on the side
 * (Addr2ComputeSurfaceAddrFromCoord, FAMILY_AI; see emu/isa's commit
 * "images in their tiled layouts": every non-PRT mode, 1-16 byte
 * elements, 2-D and 3-D, five GB_ADDR_CONFIGs, no difference), and by the
 * known answers in test/isa/test_isa_image.c and test/image/test_swizzle.c.
 *
 * Facts (AMD addrlib, GFX9: HwlComputeSurfaceAddrFromCoordTiled):
 *  - SW_LINEAR (0): pitch-major rows, slices of pitch x height.
 *  - Tiled modes cut the surface into blocks of 256 B (modes 1-3), 4 KiB
 *    (4-7, 20-23) or 64 KiB (8-11, 24-27), numbered row-major (pitch /
 *    block width per row of blocks, padded height / block height rows per
 *    slice, slices of blocks).  The swizzle type is Z, S, D, R for modes
 *    4n..4n+3 (256 B: S, D, R).  Inside a block:
 *      thin (2-D resources; 3-D in D or R): a 256-byte micro block of
 *      {16,16} {16,8} {8,8} {8,4} {4,4} elements (1..16 bytes) in the S,
 *      D or R pattern (a 3-D resource in D reads the S pattern), micro
 *      blocks in Morton order above it (y bits even, x bits odd); Z:
 *      Morton order from the element on;
 *      thick (3-D in S or Z): 1 KiB micro blocks of {16,8,8} {8,8,8}
 *      {8,8,4} {8,4,4} {4,4,4}, 3-D Morton order (z, y, x) above them.
 *  - The _X modes (20-27) XOR the pipe and bank bits above the 256-byte
 *    pipe interleave with higher offset bits folded back (FoldXor2d/3d),
 *    and thin ones also with the reversed slice index; pipe bits =
 *    min(block bits - interleave bits, log2 pipes + log2 SEs), bank bits
 *    = min(the rest, log2 banks).
 * PRT (_T) and variable-block modes are not described (-1).
 */
#ifndef HSALITE_GFX9_SWIZZLE_H
#define HSALITE_GFX9_SWIZZLE_H

#include <stdbool.h>
#include <stdint.h>

/* The swizzle modes ROCr 5.2.3's images are created in (AddrSwizzleMode). */
enum gfx9_sw_mode {
	GFX9_SW_LINEAR = 0,
	GFX9_SW_4KB_Z_X = 20,
	GFX9_SW_4KB_D_X = 22,
	GFX9_SW_64KB_Z_X = 24,
	GFX9_SW_64KB_D_X = 26,
};

/* The GB_ADDR_CONFIG fields the element order depends on. */
struct gfx9_addr_config {
	unsigned pipes_log2, banks_log2, se_log2, interleave_log2;
};

static inline struct gfx9_addr_config gfx9_addr_config_decode(uint32_t gb_addr_config)
{
	struct gfx9_addr_config c;
	c.pipes_log2 = gb_addr_config & 7;                   /* NUM_PIPES [2:0] */
	c.interleave_log2 = 8 + ((gb_addr_config >> 3) & 7); /* PIPE_INTERLEAVE_SIZE [5:3] */
	c.banks_log2 = (gb_addr_config >> 12) & 7;           /* NUM_BANKS [14:12] */
	c.se_log2 = (gb_addr_config >> 19) & 3;              /* NUM_SHADER_ENGINES [20:19] */
	return c;
}

/* A surface: pitch and height in elements (padded to whole blocks here);
 * height 1 for 1-D types. */
struct gfx9_surface {
	unsigned sw_mode;
	unsigned elem_log2;            /* log2 bytes per element, 0..4 */
	bool is3d;                     /* resource type 3-D */
	uint32_t pitch, height;
	struct gfx9_addr_config cfg;
};

enum gfx9_sw_kind { GFX9_SWK_Z, GFX9_SWK_S, GFX9_SWK_D, GFX9_SWK_R };

static inline uint32_t gfx9_bit(uint32_t v, unsigned i)
{
	return (v >> i) & 1;
}

/* Bits [lsb, lsb + n) of v moved to dst. */
static inline uint32_t gfx9_bits(uint32_t v, unsigned lsb, unsigned n, unsigned dst)
{
	return ((v >> lsb) & ((1u << n) - 1)) << dst;
}

static inline uint32_t gfx9_reverse(uint32_t v, unsigned n)
{
	uint32_t r = 0;
	for (unsigned i = 0; i < n; i++)
		r |= gfx9_bit(v, n - 1 - i) << i;
	return r;
}

/* 2-D Morton code: y bit i at 2i, x bit i at 2i + 1. */
static inline uint32_t gfx9_morton2(uint32_t x, uint32_t y, unsigned n)
{
	uint32_t m = 0;
	for (unsigned i = 0; i < n; i++)
		m |= gfx9_bit(y, i) << (2 * i) | gfx9_bit(x, i) << (2 * i + 1);
	return m;
}

/* 3-D Morton code: z at 3i, y at 3i + 1, x at 3i + 2. */
static inline uint32_t gfx9_morton3(uint32_t x, uint32_t y, uint32_t z, unsigned n)
{
	uint32_t m = 0;
	for (unsigned i = 0; i < n; i++)
		m |= gfx9_bit(z, i) << (3 * i) | gfx9_bit(y, i) << (3 * i + 1) |
		     gfx9_bit(x, i) << (3 * i + 2);
	return m;
}

static inline uint32_t gfx9_fold2(uint32_t v, unsigned n)
{
	return (v & ((1u << n) - 1)) ^ gfx9_reverse(v >> n, n);
}

/* Every other bit of v from bit 0, n of them. */
static inline uint32_t gfx9_demort(uint32_t v, unsigned n)
{
	uint32_t d = 0;
	for (unsigned i = 0; i < n; i++)
		d |= gfx9_bit(v, 2 * i) << i;
	return d;
}

static inline uint32_t gfx9_fold3(uint32_t v, unsigned n)
{
	return (v & ((1u << n) - 1)) ^ gfx9_reverse(gfx9_demort(v >> n, n), n) ^
	       gfx9_reverse(gfx9_demort(v >> (n + 1), n), n);
}

/* Offset inside the 256-byte micro block of a thin S, D or R layout. */
static inline uint32_t gfx9_micro2d(enum gfx9_sw_kind k, bool is3d, unsigned e, uint32_t x,
				    uint32_t y)
{
	uint32_t o;
	/* a 3-D resource in D reads the standard pattern (addrlib's
	 * HwlIsStandardSwizzle) */
	if (k == GFX9_SWK_S || (k == GFX9_SWK_D && is3d)) {
		const uint32_t xb = x << e;
		o = (xb & 0xf) | (y & 3) << 4;
		if (e < 3)
			o |= (y & 4) << 4 | (e == 0 ? (y & 8) << 4 : (xb & 0x10) << 3);
		else
			o |= (xb & 0x30) << 2;
	} else if (k == GFX9_SWK_D) {
		if (e == 4)
			return gfx9_bit(x, 0) << 4 | gfx9_bit(y, 0) << 5 | gfx9_bit(x, 1) << 6 |
			       gfx9_bit(y, 1) << 7;
		o = gfx9_bits(x, 0, 3, e) | gfx9_bits(y, 1, 2, 3 + e) | gfx9_bits(x, 3, 1, 5 + e) |
		    gfx9_bits(y, 3, 1, 6 + e);
		o = gfx9_bits(o, 0, 4, 0) | gfx9_bit(y, 0) << 4 | gfx9_bits(o, 4, 3, 5);
	} else { /* R */
		o = gfx9_bits(y, 0, 3, e) | gfx9_bits(x, 1, 2, 3 + e) | gfx9_bits(x, 3, 1, 5 + e) |
		    gfx9_bits(y, 3, 1, 6 + e);
		o = gfx9_bits(o, 0, 4, 0) | gfx9_bit(x, 0) << 4 | gfx9_bits(o, 4, 3, 5);
		if (e == 3)
			o = gfx9_bits(o, 0, 6, 0) | gfx9_bits(x, 1, 2, 6);
	}
	return o;
}

/* Offset inside the 1 KiB micro block of a thick S or Z layout. */
static inline uint32_t gfx9_micro3d(enum gfx9_sw_kind k, unsigned e, uint32_t x, uint32_t y,
				    uint32_t z)
{
	uint32_t o, xh, yh, zh;
	if (k == GFX9_SWK_S) {
		if (e <= 1)
			o = (z & 4) >> 2 | (y & 4) >> 1;
		else if (e == 2)
			o = (y & 4) >> 2 | (x & 4) >> 1;
		else if (e == 3)
			o = (x & 6) >> 1;
		else
			o = x & 3;
		return o << 8 | ((x << e) & 0xf) | (y & 3) << 4 | (z & 3) << 6;
	}
	switch (e) {
	case 0:
		o = (x & 1) | (y & 1) << 1 | (x & 2) << 1 | (y & 2) << 2;
		o |= (z & 3) << 4 | (x & 4) << 4;
		xh = x >> 3, yh = y >> 2, zh = z >> 2;
		break;
	case 1:
		o = (x & 1) | (y & 1) << 1 | (x & 2) << 1 | (y & 2) << 2;
		o = o << 1 | (z & 3) << 5;
		xh = x >> 2, yh = y >> 2, zh = z >> 2;
		break;
	case 2:
		o = (x & 1) | (y & 1) << 1 | (x & 2) << 1 | (z & 1) << 3;
		o = o << 2 | (y & 2) << 5;
		xh = x >> 2, yh = y >> 2, zh = z >> 1;
		break;
	case 3:
		o = (x & 1) | (y & 1) << 1 | (z & 1) << 2 | (x & 2) << 2;
		o <<= 3;
		xh = x >> 2, yh = y >> 1, zh = z >> 1;
		break;
	default:
		o = ((x & 1) | (y & 1) << 1 | (z & 1) << 2) << 4;
		xh = x >> 1, yh = y >> 1, zh = z >> 1;
		break;
	}
	return o | ((gfx9_morton3(xh, yh, zh, 1) << 7) & 0x380);
}

/* Elements per block of 2^blk_log2 bytes: thin blocks scale the 256-byte
 * micro block by 2^(n/2) in width and 2^(n - n/2) in height (n = blk_log2
 * - 8); thick ones the 1 KiB micro block by 2^(m/3) each way, the
 * remainder going to depth, then height (m = blk_log2 - 10). */
static inline void gfx9_block_dims(unsigned blk_log2, bool thick, unsigned e, uint32_t *w,
				   uint32_t *h, uint32_t *d)
{
	static const uint8_t b256_w[5] = { 16, 16, 8, 8, 4 }, b256_h[5] = { 16, 8, 8, 4, 4 };
	static const uint8_t b1k_w[5] = { 16, 8, 8, 8, 4 }, b1k_h[5] = { 8, 8, 8, 4, 4 },
			     b1k_d[5] = { 8, 8, 4, 4, 4 };
	if (thick) {
		const unsigned k1 = blk_log2 - 10, avg = k1 / 3, rest = k1 % 3;
		*w = (uint32_t)b1k_w[e] << avg;
		*h = (uint32_t)b1k_h[e] << (avg + rest / 2);
		*d = (uint32_t)b1k_d[e] << (avg + (rest ? 1 : 0));
	} else {
		const unsigned k2 = blk_log2 - 8, wamp = k2 / 2;
		*w = (uint32_t)b256_w[e] << wamp;
		*h = (uint32_t)b256_h[e] << (k2 - wamp);
		*d = 1;
	}
}

/* Byte offset of element (x, y, z = slice or depth) from the image base in
 * *off; -1 for a mode this does not describe (PRT, variable, reserved, a
 * 16-byte 2-D rotated or 256-byte Z layout). */
static inline int gfx9_swizzle_offset(const struct gfx9_surface *s, uint32_t x, uint32_t y,
				      uint32_t z, uint64_t *off)
{
	static const uint8_t b256_w[5] = { 16, 16, 8, 8, 4 }, b256_h[5] = { 16, 8, 8, 4, 4 };
	static const uint8_t b1k_w[5] = { 16, 8, 8, 8, 4 }, b1k_h[5] = { 8, 8, 8, 4, 4 },
			     b1k_d[5] = { 8, 8, 4, 4, 4 };
	const unsigned sw = s->sw_mode, e = s->elem_log2;
	unsigned blk_log2, kind;
	bool xor_mode;
	uint32_t bw, bh, bd, boff;

	if (e > 4)
		return -1;
	if (sw == GFX9_SW_LINEAR) {
		*off = (((uint64_t)z * s->height + y) * s->pitch + x) << e;
		return 0;
	}
	if (sw <= 3) {
		blk_log2 = 8;
		kind = sw; /* S, D, R */
		xor_mode = false;
	} else if (sw <= 11) {
		blk_log2 = sw <= 7 ? 12 : 16;
		kind = (sw - 4) & 3; /* Z, S, D, R */
		xor_mode = false;
	} else if (sw >= 20 && sw <= 27) {
		blk_log2 = sw <= 23 ? 12 : 16;
		kind = (sw - 20) & 3;
		xor_mode = true;
	} else {
		return -1; /* PRT (_T), variable, reserved */
	}
	if (kind == GFX9_SWK_R && !s->is3d && e == 4)
		return -1; /* no 16-byte rotated layout */
	const bool thick = s->is3d && (kind == GFX9_SWK_Z || kind == GFX9_SWK_S);
	if (!thick && kind == GFX9_SWK_Z && e > 3 && blk_log2 == 8)
		return -1;
	gfx9_block_dims(blk_log2, thick, e, &bw, &bh, &bd);
	if (thick) {
		boff = gfx9_morton3(x / b1k_w[e], y / b1k_h[e], z / b1k_d[e], 8) << 10 |
		       gfx9_micro3d((enum gfx9_sw_kind)kind, e, x, y, z);
	} else {
		if (kind == GFX9_SWK_Z) {
			if (e == 0 || e == 2) {
				const unsigned low = 6 - e, mb = low / 2;
				boff = gfx9_morton2(y, x, mb) |
				       gfx9_morton2(x >> mb, y >> mb, 9) << low;
			} else {
				boff = gfx9_morton2(y, x, 13);
			}
			boff <<= e;
		} else {
			boff = gfx9_micro2d((enum gfx9_sw_kind)kind, s->is3d, e, x, y) |
			       gfx9_morton2(x / b256_w[e], y / b256_h[e], 12) << 8;
		}
	}
	if (xor_mode) {
		const unsigned il = s->cfg.interleave_log2;
		const unsigned ps = s->cfg.pipes_log2 + s->cfg.se_log2;
		const unsigned pipe = blk_log2 - il < ps ? blk_log2 - il : ps;
		const unsigned bank = blk_log2 - pipe - il < s->cfg.banks_log2 ? blk_log2 - pipe - il
									      : s->cfg.banks_log2;
		uint32_t low = boff & ((1u << il) - 1), v = boff >> il, px, bx;

		px = thick ? gfx9_fold3(v, pipe) : gfx9_fold2(v, pipe);
		v >>= pipe;
		bx = thick ? gfx9_fold3(v, bank) : gfx9_fold2(v, bank);
		v >>= bank;
		boff = ((v << bank | bx) << pipe | px) << il | low;
		if (!thick) {
			boff ^= gfx9_reverse(z, pipe) << il;
			boff ^= gfx9_reverse(z >> pipe, bank) << (il + pipe);
		}
	}
	boff &= (1u << blk_log2) - 1;
	/* pitch and height padded to whole blocks */
	const uint64_t pitch_blocks = (s->pitch + bw - 1) / bw;
	const uint64_t height_blocks = (s->height + bh - 1) / bh;
	const uint64_t zi = thick ? z / bd : z;
	const uint64_t index = (zi * height_blocks + y / bh) * pitch_blocks + x / bw;
	*off = index << blk_log2 | boff;
	return 0;
}

#endif /* HSALITE_GFX9_SWIZZLE_H */
