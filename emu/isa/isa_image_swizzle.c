/*
 * isa_image_swizzle.c — where a texel of a GFX9 image lives: the byte
 * offset of (x, y, slice) from the image base for the T#'s SW_MODE, as the
 * texture unit addresses it for the device's GB_ADDR_CONFIG (the value
 * GET_TILE_CONFIG reports, which ROCr's addrlib also lays the image out
 * with).
 *
 * Facts (AMD addrlib, GFX9: the surface layouts the hardware reads):
 *  - SW_LINEAR: pitch-major rows, slices of pitch x height.
 *  - Tiled modes cut the surface into blocks of 256 B, 4 KiB or 64 KiB,
 *    numbered row-major (pitch / block width per row of blocks, padded
 *    height / block height rows per slice).  Inside a block:
 *      thin (2-D resources; 3-D with D or R): a 256-byte micro block of
 *      Block256_2d[bpp] texels ({16,16} {16,8} {8,8} {8,4} {4,4} for 1..16
 *      bytes) in the S, D or R pattern, then micro blocks in Morton order
 *      (y bits even, x bits odd); Z: Morton order from the texel on;
 *      thick (3-D with S or Z): 1 KiB micro blocks of Block1K_3d[bpp]
 *      texels, 3-D Morton order (z, y, x) above them.
 *  - The _X modes XOR the pipe and bank bits (above the 256-byte pipe
 *    interleave) with the higher offset bits folded back (FoldXor2d/3d),
 *    and thin ones also with the reversed slice index; pipe bits =
 *    min(block bits - interleave bits, log2(pipes) + log2(SEs)), bank bits
 *    = min(the rest, log2(banks)).
 * PRT (_T) and variable-block modes are not implemented (-1).
 */
#include "isa_priv.h"

static const uint8_t b256_w[5] = { 16, 16, 8, 8, 4 }, b256_h[5] = { 16, 8, 8, 4, 4 };
static const uint8_t b1k_w[5] = { 16, 8, 8, 8, 4 }, b1k_h[5] = { 8, 8, 8, 4, 4 },
		     b1k_d[5] = { 8, 8, 4, 4, 4 };

enum sw_kind { SWK_Z, SWK_S, SWK_D, SWK_R };

static uint32_t bit(uint32_t v, unsigned i)
{
	return (v >> i) & 1;
}

/* Bits [lsb, lsb + n) of v moved to dst. */
static uint32_t bits(uint32_t v, unsigned lsb, unsigned n, unsigned dst)
{
	return ((v >> lsb) & ((1u << n) - 1)) << dst;
}

static uint32_t reverse(uint32_t v, unsigned n)
{
	uint32_t r = 0;
	for (unsigned i = 0; i < n; i++)
		r |= bit(v, n - 1 - i) << i;
	return r;
}

/* 2-D Morton code: y bit i at 2i, x bit i at 2i + 1. */
static uint32_t morton2(uint32_t x, uint32_t y, unsigned n)
{
	uint32_t m = 0;
	for (unsigned i = 0; i < n; i++)
		m |= bit(y, i) << (2 * i) | bit(x, i) << (2 * i + 1);
	return m;
}

/* 3-D Morton code: z at 3i, y at 3i + 1, x at 3i + 2. */
static uint32_t morton3(uint32_t x, uint32_t y, uint32_t z, unsigned n)
{
	uint32_t m = 0;
	for (unsigned i = 0; i < n; i++)
		m |= bit(z, i) << (3 * i) | bit(y, i) << (3 * i + 1) | bit(x, i) << (3 * i + 2);
	return m;
}

static uint32_t fold2(uint32_t v, unsigned n)
{
	return (v & ((1u << n) - 1)) ^ reverse(v >> n, n);
}

/* Every other bit of v from bit 0, n of them. */
static uint32_t demort(uint32_t v, unsigned n)
{
	uint32_t d = 0;
	for (unsigned i = 0; i < n; i++)
		d |= bit(v, 2 * i) << i;
	return d;
}

static uint32_t fold3(uint32_t v, unsigned n)
{
	return (v & ((1u << n) - 1)) ^ reverse(demort(v >> n, n), n) ^
	       reverse(demort(v >> (n + 1), n), n);
}

/* Offset inside the 256-byte micro block of a thin S/D/R layout. */
static uint32_t micro2d(enum sw_kind k, bool is3d, unsigned e, uint32_t x, uint32_t y)
{
	uint32_t o = 0;

	/* a 3-D resource in D reads the standard pattern (addrlib's
	 * HwlIsStandardSwizzle) */
	if (k == SWK_S || (k == SWK_D && is3d)) {
		uint32_t xb = x << e;
		o = (xb & 0xf) | (y & 3) << 4;
		if (e < 3)
			o |= e == 0 ? ((y & 4) << 4) | ((y & 8) << 4) : ((y & 4) << 4) | ((xb & 0x10) << 3);
		else
			o |= (xb & 0x30) << 2;
	} else if (k == SWK_D) {
		if (e == 4) {
			o = bit(x, 0) << 4 | bit(y, 0) << 5 | bit(x, 1) << 6 | bit(y, 1) << 7;
		} else {
			o = bits(x, 0, 3, e) | bits(y, 1, 2, 3 + e) | bits(x, 3, 1, 5 + e) |
			    bits(y, 3, 1, 6 + e);
			o = bits(o, 0, 4, 0) | bit(y, 0) << 4 | bits(o, 4, 3, 5);
		}
	} else { /* R */
		o = bits(y, 0, 3, e) | bits(x, 1, 2, 3 + e) | bits(x, 3, 1, 5 + e) | bits(y, 3, 1, 6 + e);
		o = bits(o, 0, 4, 0) | bit(x, 0) << 4 | bits(o, 4, 3, 5);
		if (e == 3)
			o = bits(o, 0, 6, 0) | bits(x, 1, 2, 6);
	}
	return o;
}

/* Offset inside the 1 KiB micro block of a thick S/Z layout. */
static uint32_t micro3d(enum sw_kind k, unsigned e, uint32_t x, uint32_t y, uint32_t z)
{
	uint32_t o, xh, yh, zh;

	if (k == SWK_S) {
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
	return o | ((morton3(xh, yh, zh, 1) << 7) & 0x380);
}

int kemu_isa_image_offset(const struct kemu_isa_image_layout *l, uint32_t x, uint32_t y,
			  uint32_t z, uint64_t *off)
{
	unsigned sw = l->sw_mode, e = l->elem_log2, blk_log2, kind;
	bool xor_mode, thick;
	uint32_t bw, bh, bd, boff;

	if (e > 4)
		return -1;
	if (sw == 0) {
		*off = (((uint64_t)z * l->height + y) * l->pitch + x) << e;
		return 0;
	}
	if (sw <= 3) {
		blk_log2 = 8;
		kind = sw;      /* S, D, R */
		xor_mode = false;
	} else if (sw <= 11) {
		blk_log2 = sw <= 7 ? 12 : 16;
		kind = (sw - 4) & 3;    /* Z, S, D, R */
		xor_mode = false;
	} else if (sw >= 20 && sw <= 27) {
		blk_log2 = sw <= 23 ? 12 : 16;
		kind = (sw - 20) & 3;
		xor_mode = true;
	} else {
		return -1;      /* PRT (_T), variable, reserved */
	}
	if (kind == SWK_R && !l->is3d && e == 4)
		return -1;      /* no 16-byte rotated layout */
	thick = l->is3d && (kind == SWK_Z || kind == SWK_S);
	if (!thick && kind == SWK_Z && e > 3 && blk_log2 == 8)
		return -1;
	if (thick) {
		unsigned k1 = blk_log2 - 10, avg = k1 / 3, rest = k1 % 3;
		bw = (uint32_t)b1k_w[e] << avg;
		bh = (uint32_t)b1k_h[e] << (avg + rest / 2);
		bd = (uint32_t)b1k_d[e] << (avg + (rest ? 1 : 0));
		boff = morton3(x / b1k_w[e], y / b1k_h[e], z / b1k_d[e], 8) << 10 |
		       micro3d((enum sw_kind)kind, e, x, y, z);
	} else {
		unsigned k2 = blk_log2 - 8, wamp = k2 / 2;
		bw = (uint32_t)b256_w[e] << wamp;
		bh = (uint32_t)b256_h[e] << (k2 - wamp);
		bd = 1;
		if (kind == SWK_Z) {
			if (e == 0 || e == 2) {
				unsigned low = 6 - e, mb = low / 2;
				boff = morton2(y, x, mb) | morton2(x >> mb, y >> mb, 9) << low;
			} else {
				boff = morton2(y, x, 13);
			}
			boff <<= e;
		} else {
			boff = micro2d((enum sw_kind)kind, l->is3d, e, x, y) |
			       morton2(x / b256_w[e], y / b256_h[e], 12) << 8;
		}
	}
	if (xor_mode) {
		unsigned il = l->interleave_log2;
		unsigned pipe = blk_log2 - il < l->pipes_log2 + l->se_log2 ? blk_log2 - il
									  : l->pipes_log2 + l->se_log2;
		unsigned bank = blk_log2 - pipe - il < l->banks_log2 ? blk_log2 - pipe - il
								     : l->banks_log2;
		uint32_t low = boff & ((1u << il) - 1), v = boff >> il, px, bx;

		px = thick ? fold3(v, pipe) : fold2(v, pipe);
		v >>= pipe;
		bx = thick ? fold3(v, bank) : fold2(v, bank);
		v >>= bank;
		boff = ((v << bank | bx) << pipe | px) << il | low;
		if (!thick) {
			boff ^= reverse(z, pipe) << il;
			boff ^= reverse(z >> pipe, bank) << (il + pipe);
		}
	}
	boff &= (1u << blk_log2) - 1;
	/* pitch and height padded to whole blocks */
	uint64_t pitch_blocks = (l->pitch + bw - 1) / bw, height_blocks = (l->height + bh - 1) / bh;
	uint64_t zi = thick ? z / bd : z;
	uint64_t index = (zi * height_blocks + y / bh) * pitch_blocks + x / bw;
	*off = index << blk_log2 | boff;
	return 0;
}
