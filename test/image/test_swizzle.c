/*
 * The GFX9 tiled element order (common/amd/gfx9_swizzle.h, shared with
 * kfdemu's image instructions, whose test_isa_image holds known answers
 * from addrlib for all modes) on its own: for every swizzle mode ROCr's
 * images use and every element size, on the
 * MI210's GB_ADDR_CONFIG and on a 4-SE, 8-pipe one, each element of a
 * surface of a few blocks lands at a distinct, element-aligned offset
 * inside its own block (the block index is row-major), and a few offsets
 * worked out by hand from addrlib's rules.
 */
#include <stdlib.h>
#include <string.h>

#include "hl_check.h"
#include "amd/gfx9_swizzle.h"

struct dims {
	uint32_t w, h, d;
};

static struct dims block_dims(uint32_t log2_size, bool thick, uint32_t e)
{
	struct dims d;
	gfx9_block_dims(log2_size, thick, e, &d.w, &d.h, &d.d);
	return d;
}

static uint32_t block_log2(uint32_t sw)
{
	return sw == GFX9_SW_4KB_Z_X || sw == GFX9_SW_4KB_D_X ? 12 : 16;
}

/* A surface of bx * by blocks per slice and bz slices of blocks. */
static void check_bijective(uint32_t sw, bool tex3d, bool thick, uint32_t e, uint32_t gb,
			    uint32_t bx, uint32_t by, uint32_t bz)
{
	const uint32_t blk_log2 = block_log2(sw);
	struct dims b = block_dims(blk_log2, thick, e);
	struct gfx9_surface s = {
		.sw_mode = sw, .elem_log2 = e, .is3d = tex3d,
		.pitch = bx * b.w, .height = by * b.h,
		.cfg = gfx9_addr_config_decode(gb),
	};
	const uint32_t slices = bz * b.d;
	const uint64_t blocks = (uint64_t)bx * by * bz;
	const uint64_t size = blocks << blk_log2;
	uint8_t *seen = calloc(size >> e, 1);
	ck_assert_ptr_nonnull(seen);
	for (uint32_t z = 0; z < slices; z++)
		for (uint32_t y = 0; y < s.height; y++)
			for (uint32_t x = 0; x < s.pitch; x++) {
				/* plain ifs: a passing ck_assert costs a message
				 * to Check's log, too slow per element */
				uint64_t off = 0;
				if (gfx9_swizzle_offset(&s, x, y, z, &off))
					ck_abort_msg("sw %u e %u: not described", sw, e);
				uint64_t block = ((uint64_t)(z / b.d) * by + y / b.h) * bx + x / b.w;
				if (off >= size || off % (1u << e))
					ck_abort_msg("sw %u e %u (%u,%u,%u): offset %llu", sw, e, x, y,
						     z, (unsigned long long)off);
				if (off >> blk_log2 != block)
					ck_abort_msg("sw %u e %u (%u,%u,%u): block %llu, expected %llu",
						     sw, e, x, y, z,
						     (unsigned long long)(off >> blk_log2),
						     (unsigned long long)block);
				if (seen[off >> e])
					ck_abort_msg("sw %u e %u (%u,%u,%u): offset %llu twice", sw, e,
						     x, y, z, (unsigned long long)off);
				seen[off >> e] = 1;
			}
	free(seen);
}

/* MI210 (kfdemu's preset): 4 pipes, 256 B interleave, 16 banks, 1 SE. */
#define GB_MI210 0x22014042u
/* 8 pipes, 4 shader engines, 4 banks */
#define GB_WIDE ((3u) | (2u << 12) | (2u << 19))

START_TEST(thin_2d_bijective)
{
	/* 64 KiB blocks hold up to 64Ki elements: fewer of them. */
	for (uint32_t e = 0; e <= 4; e++) {
		check_bijective(GFX9_SW_4KB_D_X, false, false, e, GB_MI210, 2, 2, 3);
		check_bijective(GFX9_SW_4KB_D_X, false, false, e, GB_WIDE, 2, 2, 3);
		check_bijective(GFX9_SW_64KB_D_X, false, false, e, GB_MI210, 2, 1, 2);
	}
	check_bijective(GFX9_SW_64KB_D_X, false, false, 2, GB_WIDE, 1, 2, 2);
}
END_TEST

START_TEST(volume_bijective)
{
	for (uint32_t e = 0; e <= 4; e++) {
		check_bijective(GFX9_SW_4KB_Z_X, true, true, e, GB_MI210, 2, 2, 2);
		check_bijective(GFX9_SW_4KB_D_X, true, false, e, GB_MI210, 2, 2, 3);
		check_bijective(GFX9_SW_64KB_Z_X, true, true, e, GB_MI210, 2, 1, 1);
	}
	check_bijective(GFX9_SW_64KB_Z_X, true, true, 2, GB_WIDE, 1, 1, 2);
}
END_TEST

static uint64_t offset(const struct gfx9_surface *s, uint32_t x, uint32_t y, uint32_t z)
{
	uint64_t off = ~0ull;
	ck_assert_int_eq(gfx9_swizzle_offset(s, x, y, z, &off), 0);
	return off;
}

/* Worked by hand from the rules (gfx9_swizzle.h's top comment), MI210:
 * 4 KiB block, 2 pipe bits, 2 bank bits. */
START_TEST(hand_worked)
{
	struct gfx9_surface s = {
		.sw_mode = GFX9_SW_4KB_D_X, .elem_log2 = 2, .pitch = 64, .height = 64,
		.cfg = gfx9_addr_config_decode(GB_MI210),
	};
	/* x = 1: x[2:0] at bit 2 -> 4 */
	ck_assert_uint_eq(offset(&s, 1, 0, 0), 4);
	/* y = 1: y0 at bit 4 -> 16 */
	ck_assert_uint_eq(offset(&s, 0, 1, 0), 16);
	/* x = 4: x2 at bit 4, moved up to 5 -> 32 */
	ck_assert_uint_eq(offset(&s, 4, 0, 0), 32);
	/* y = 2: y1 at bit 3+2 = 5, moved up to 6 -> 64 */
	ck_assert_uint_eq(offset(&s, 0, 2, 0), 64);
	/* x = 8: the second micro tile in x, Morton bit 1 -> 512; bits 8..11
	 * (0b0010): pipe fold 10 ^ reverse(00) = 10 -> 512 stays */
	ck_assert_uint_eq(offset(&s, 8, 0, 0), 512);
	/* y = 8: Morton bit 0 -> 256 */
	ck_assert_uint_eq(offset(&s, 0, 8, 0), 256);
	/* x = 32: the next block -> 4096 (its Morton bits are above the
	 * block; the bank fold takes bits 12,13: tile x = 4 puts Morton bit
	 * 5 (bit 13) which reversed into the bank bits is bit 0 -> 1024) */
	ck_assert_uint_eq(offset(&s, 32, 0, 0), 4096 + 1024);
	/* slice 1 (2x2 blocks further) of a thin surface: reverse(1, 2) = 2
	 * into the pipe bits */
	ck_assert_uint_eq(offset(&s, 0, 0, 1), 4 * 4096 + (2u << 8));
}
END_TEST

static Suite *swizzle_suite(void)
{
	Suite *s = suite_create("gfx9_swizzle");
	TCase *tc = tcase_create("swizzle");
	tcase_add_test(tc, thin_2d_bijective);
	tcase_add_test(tc, volume_bijective);
	tcase_add_test(tc, hand_worked);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(swizzle_suite)
