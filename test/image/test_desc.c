/*
 * The GFX9 descriptor fields (common/amd/gfx9_desc.h), which hsalite's
 * image code writes and kfdemu's interpreter reads: no two fields of a
 * descriptor overlap and each fits its word; a field set keeps its
 * neighbours and keeps only its own width of the value; the split
 * addresses round-trip; and a T#, V# and S# built field by field equal
 * dwords worked out by hand from the ISA guide's tables.  (test/image's
 * image_peer compares whole descriptors with ROCr 5.2.3's.)
 */
#include <string.h>

#include "hl_check.h"
#include "amd/gfx9_desc.h"

struct field {
	const char *name;
	unsigned word, shift, width;
};

/* F(GFX9_T_WIDTH) -> { "GFX9_T_WIDTH", 2, 0, 14 } */
#define F(f) { #f, f }

static const struct field t_fields[] = {
	F(GFX9_T_BASE_ADDRESS), F(GFX9_T_BASE_ADDRESS_HI), F(GFX9_T_MIN_LOD),
	F(GFX9_T_DATA_FORMAT), F(GFX9_T_NUM_FORMAT), F(GFX9_T_WIDTH), F(GFX9_T_HEIGHT),
	F(GFX9_T_DST_SEL(0)), F(GFX9_T_DST_SEL(1)), F(GFX9_T_DST_SEL(2)), F(GFX9_T_DST_SEL(3)),
	F(GFX9_T_BASE_LEVEL), F(GFX9_T_LAST_LEVEL), F(GFX9_T_SW_MODE), F(GFX9_T_TYPE),
	F(GFX9_T_DEPTH), F(GFX9_T_PITCH), F(GFX9_T_BC_SWIZZLE), F(GFX9_T_BASE_ARRAY),
	F(GFX9_T_META_DATA_ADDRESS_HI), F(GFX9_T_MAX_MIP), F(GFX9_T_COMPRESSION_EN),
	F(GFX9_T_META_DATA_ADDRESS),
};
static const struct field v_fields[] = {
	F(GFX9_V_BASE_ADDRESS), F(GFX9_V_BASE_ADDRESS_HI), F(GFX9_V_STRIDE),
	F(GFX9_V_SWIZZLE_ENABLE), F(GFX9_V_NUM_RECORDS),
	F(GFX9_V_DST_SEL(0)), F(GFX9_V_DST_SEL(1)), F(GFX9_V_DST_SEL(2)), F(GFX9_V_DST_SEL(3)),
	F(GFX9_V_NUM_FORMAT), F(GFX9_V_DATA_FORMAT), F(GFX9_V_ELEMENT_SIZE),
	F(GFX9_V_INDEX_STRIDE), F(GFX9_V_ADD_TID_ENABLE), F(GFX9_V_TYPE),
};
static const struct field s_fields[] = {
	F(GFX9_S_CLAMP(0)), F(GFX9_S_CLAMP(1)), F(GFX9_S_CLAMP(2)), F(GFX9_S_FORCE_UNNORMALIZED),
	F(GFX9_S_MIN_LOD), F(GFX9_S_MAX_LOD), F(GFX9_S_XY_MAG_FILTER), F(GFX9_S_XY_MIN_FILTER),
	F(GFX9_S_Z_FILTER), F(GFX9_S_MIP_FILTER), F(GFX9_S_BORDER_COLOR_TYPE),
};

static void check_layout(const char *desc, const struct field *f, size_t n, unsigned dwords)
{
	uint32_t used[8] = { 0 };
	ck_assert_uint_le(dwords, 8);
	for (size_t i = 0; i < n; i++) {
		ck_assert_msg(f[i].word < dwords && f[i].width >= 1 &&
			      f[i].shift + f[i].width <= 32,
			      "%s %s: word %u [%u +%u] outside a %u-dword descriptor", desc,
			      f[i].name, f[i].word, f[i].shift, f[i].width, dwords);
		uint32_t m = gfx9_desc_mask_(f[i].width) << f[i].shift;
		ck_assert_msg(!(used[f[i].word] & m), "%s %s overlaps another field (word %u, 0x%08x)",
			      desc, f[i].name, f[i].word, used[f[i].word] & m);
		used[f[i].word] |= m;
	}
}

START_TEST(fields_disjoint_and_inside)
{
	check_layout("T#", t_fields, sizeof(t_fields) / sizeof(t_fields[0]), GFX9_T_DWORDS);
	check_layout("V#", v_fields, sizeof(v_fields) / sizeof(v_fields[0]), GFX9_V_DWORDS);
	check_layout("S#", s_fields, sizeof(s_fields) / sizeof(s_fields[0]), GFX9_S_DWORDS);
}
END_TEST

START_TEST(set_keeps_neighbours_and_width)
{
	uint32_t d[GFX9_T_DWORDS];
	memset(d, 0xff, sizeof(d));
	GFX9_DESC_SET(d, GFX9_T_SW_MODE, 0);
	ck_assert_uint_eq(d[3], 0xffffffffu & ~(0x1fu << 20));
	/* 0x3f is one bit wider than SW_MODE: the top bit is dropped */
	GFX9_DESC_SET(d, GFX9_T_SW_MODE, 0x3f);
	ck_assert_uint_eq(d[3], 0xffffffffu);
	memset(d, 0, sizeof(d));
	GFX9_DESC_SET(d, GFX9_T_TYPE, 0x1d);
	ck_assert_uint_eq(d[3], 0xd0000000u);
	ck_assert_uint_eq(GFX9_DESC_GET(d, GFX9_T_TYPE), 0xd);
	ck_assert_uint_eq(GFX9_DESC_GET(d, GFX9_T_SW_MODE), 0);
	/* a whole-word field */
	GFX9_DESC_SET(d, GFX9_V_NUM_RECORDS, 0xdeadbeefu);
	ck_assert_uint_eq(d[2], 0xdeadbeefu);
	ck_assert_uint_eq(GFX9_DESC_GET(d, GFX9_V_NUM_RECORDS), 0xdeadbeefu);
}
END_TEST

START_TEST(addresses_round_trip)
{
	uint32_t d[GFX9_T_DWORDS] = { 0 };
	gfx9_t_set_base(d, 0x123456789a00ull);
	ck_assert_uint_eq(d[0], 0x3456789au);
	ck_assert_uint_eq(d[1], 0x12u);
	ck_assert_uint_eq(gfx9_t_base(d), 0x123456789a00ull);
	gfx9_t_set_meta(d, 0xfedcba987600ull);
	ck_assert_uint_eq(d[7], 0xdcba9876u);
	ck_assert_uint_eq(d[5], 0xfeu << 17);
	ck_assert_uint_eq(gfx9_t_meta(d), 0xfedcba987600ull);

	uint32_t v[GFX9_V_DWORDS] = { 0, 0xffffffffu, 0, 0 };
	gfx9_v_set_base(v, 0xfedcba987654ull);
	ck_assert_uint_eq(v[0], 0xba987654u);
	ck_assert_uint_eq(v[1], 0xffff0000u | 0xfedcu); /* STRIDE, SWIZZLE kept */
	ck_assert_uint_eq(gfx9_v_base(v), 0xfedcba987654ull);
}
END_TEST

/* A 640 x 480 2-D 8_8_8_8 UNORM image at 0x7f0012345600, DST_SEL XYZW,
 * SW_64KB_D_X (27), pitch 640, BC_SWIZZLE XYZW, worked out by hand:
 *   word 0 = 0x7f0012345600 >> 8 = 0x00123456 (bits 39:8)
 *   word 1 = 0x7f | DATA_FORMAT 0xa << 20 | NUM_FORMAT 0 << 26 = 0x00a0007f
 *   word 2 = 639 | 479 << 14 = 0x0077c27f
 *   word 3 = 4 | 5 << 3 | 6 << 6 | 7 << 9 | 27 << 20 | 9 << 28 = 0x91b00fac
 *   word 4 = 639 << 13 = 0x004fe000 */
START_TEST(t_known_answer)
{
	uint32_t d[GFX9_T_DWORDS] = { 0 };
	const uint8_t sel[4] = { GFX9_SEL_X, GFX9_SEL_Y, GFX9_SEL_Z, GFX9_SEL_W };
	gfx9_t_set_base(d, 0x7f0012345600ull);
	GFX9_DESC_SET(d, GFX9_T_DATA_FORMAT, 0xa);
	GFX9_DESC_SET(d, GFX9_T_NUM_FORMAT, 0);
	GFX9_DESC_SET(d, GFX9_T_WIDTH, 640 - 1);
	GFX9_DESC_SET(d, GFX9_T_HEIGHT, 480 - 1);
	gfx9_desc_set_dst_sel(d, sel);
	GFX9_DESC_SET(d, GFX9_T_SW_MODE, 27);
	GFX9_DESC_SET(d, GFX9_T_TYPE, GFX9_IMG_2D);
	GFX9_DESC_SET(d, GFX9_T_PITCH, 640 - 1);
	GFX9_DESC_SET(d, GFX9_T_BC_SWIZZLE, GFX9_BC_XYZW);
	const uint32_t want[8] = { 0x00123456u, 0x00a0007fu, 0x0077c27fu, 0x91b00facu,
				   0x004fe000u, 0, 0, 0 };
	for (unsigned i = 0; i < 8; i++)
		ck_assert_msg(d[i] == want[i], "word %u: 0x%08x, want 0x%08x", i, d[i], want[i]);
}
END_TEST

/* The private-segment V# kfdemu and ROCr build: base 0x1234_0000_1000,
 * SWIZZLE_ENABLE, NUM_RECORDS 1 MiB, DST_SEL XYZW, NUM_FORMAT 7 (FLOAT),
 * DATA_FORMAT 4 (32), ELEMENT_SIZE 1 (4 bytes), INDEX_STRIDE 3 (64 lanes),
 * ADD_TID: word 3 = 0xfac | 7 << 12 | 4 << 15 | 1 << 19 | 3 << 21 | 1 << 23
 * = 0x00ea7fac. */
START_TEST(v_known_answer)
{
	uint32_t v[GFX9_V_DWORDS] = { 0 };
	const uint8_t sel[4] = { GFX9_SEL_X, GFX9_SEL_Y, GFX9_SEL_Z, GFX9_SEL_W };
	gfx9_v_set_base(v, 0x123400001000ull);
	GFX9_DESC_SET(v, GFX9_V_SWIZZLE_ENABLE, 1);
	GFX9_DESC_SET(v, GFX9_V_NUM_RECORDS, 1u << 20);
	gfx9_desc_set_dst_sel(v, sel);
	GFX9_DESC_SET(v, GFX9_V_NUM_FORMAT, 7);
	GFX9_DESC_SET(v, GFX9_V_DATA_FORMAT, 4);
	GFX9_DESC_SET(v, GFX9_V_ELEMENT_SIZE, 1);
	GFX9_DESC_SET(v, GFX9_V_INDEX_STRIDE, 3);
	GFX9_DESC_SET(v, GFX9_V_ADD_TID_ENABLE, 1);
	ck_assert_uint_eq(v[0], 0x00001000u);
	ck_assert_uint_eq(v[1], 0x80001234u);
	ck_assert_uint_eq(v[2], 0x00100000u);
	ck_assert_uint_eq(v[3], 0x00ea7facu);
	ck_assert_uint_eq(2u << GFX9_DESC_GET(v, GFX9_V_ELEMENT_SIZE), 4);
	ck_assert_uint_eq(8u << GFX9_DESC_GET(v, GFX9_V_INDEX_STRIDE), 64);
}
END_TEST

/* A clamp-to-edge, bilinear, unnormalized sampler (what hsalite writes):
 * word 0 = 2 | 2 << 3 | 2 << 6 | 1 << 15 = 0x8092, word 1 = 4095 << 12,
 * word 2 = 1 << 20 | 1 << 22, word 3 = 0 (transparent black). */
START_TEST(s_known_answer)
{
	uint32_t s[GFX9_S_DWORDS] = { 0 };
	for (unsigned a = 0; a < 3; a++)
		GFX9_DESC_SET(s, GFX9_S_CLAMP(a), GFX9_CLAMP_LAST_TEXEL);
	GFX9_DESC_SET(s, GFX9_S_FORCE_UNNORMALIZED, 1);
	GFX9_DESC_SET(s, GFX9_S_MAX_LOD, 4095);
	GFX9_DESC_SET(s, GFX9_S_XY_MAG_FILTER, GFX9_XY_FILTER_BILINEAR);
	GFX9_DESC_SET(s, GFX9_S_XY_MIN_FILTER, GFX9_XY_FILTER_BILINEAR);
	ck_assert_uint_eq(s[0], 0x8092u);
	ck_assert_uint_eq(s[1], 0x00fff000u);
	ck_assert_uint_eq(s[2], 0x00500000u);
	ck_assert_uint_eq(s[3], 0);
}
END_TEST

static Suite *desc_suite(void)
{
	Suite *s = suite_create("gfx9_desc");
	TCase *tc = tcase_create("desc");
	tcase_add_test(tc, fields_disjoint_and_inside);
	tcase_add_test(tc, set_keeps_neighbours_and_width);
	tcase_add_test(tc, addresses_round_trip);
	tcase_add_test(tc, t_known_answer);
	tcase_add_test(tc, v_known_answer);
	tcase_add_test(tc, s_known_answer);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(desc_suite)
