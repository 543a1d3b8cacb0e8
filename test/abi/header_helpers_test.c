/*
 * The few things our headers define that are code rather than layout: the
 * AMD_HSA_BITS_* field macros of amd_hsa_common.h (written differently from
 * ROCr's, so their behaviour is pinned here) and hsa_flag_isset64.
 */
#include "hl_check.h"

#include <stdint.h>

#include <hsa/amd_hsa_kernel_code.h>
#include <hsa/amd_hsa_queue.h>
#include <hsa/hsa_ext_amd.h>

START_TEST(test_bits_enum_gives_shift_width_and_mask)
{
	ck_assert_int_eq(AMD_COMPUTE_PGM_RSRC_TWO_USER_SGPR_COUNT_SHIFT, 1);
	ck_assert_int_eq(AMD_COMPUTE_PGM_RSRC_TWO_USER_SGPR_COUNT_WIDTH, 5);
	ck_assert_int_eq(AMD_COMPUTE_PGM_RSRC_TWO_USER_SGPR_COUNT, 0x3e);
	/* a field reaching bit 31 is a negative int, as in ROCr's header */
	ck_assert_int_eq(AMD_QUEUE_PROPERTIES_RESERVED1, (int)0xffffffe0u);
}
END_TEST

START_TEST(test_bits_get_reads_only_the_field)
{
	uint32_t rsrc2 = 0xffffffffu & ~(uint32_t)AMD_COMPUTE_PGM_RSRC_TWO_USER_SGPR_COUNT;

	rsrc2 |= 9u << 1;
	ck_assert_uint_eq(AMD_HSA_BITS_GET(rsrc2, AMD_COMPUTE_PGM_RSRC_TWO_USER_SGPR_COUNT), 9);
}
END_TEST

START_TEST(test_bits_set_replaces_the_field_and_keeps_the_rest)
{
	uint32_t props = 0xfffffff0u | AMD_QUEUE_PROPERTIES_ENABLE_PROFILING;

	AMD_HSA_BITS_SET(props, AMD_QUEUE_PROPERTIES_ENABLE_PROFILING, 0u);
	ck_assert_msg(props == 0xfffffff0u, "after clearing profiling: 0x%08x, expected 0xfffffff0",
		      props);
	AMD_HSA_BITS_SET(props, AMD_QUEUE_PROPERTIES_IS_PTR64, 1u);
	ck_assert_msg(props == 0xfffffff2u, "after setting ptr64: 0x%08x, expected 0xfffffff2",
		      props);
	/* a value wider than the field is truncated to it */
	AMD_HSA_BITS_SET(props, AMD_QUEUE_PROPERTIES_IS_PTR64, 2u);
	ck_assert_msg(props == 0xfffffff0u, "after setting ptr64 to 2: 0x%08x, expected 0xfffffff0",
		      props);
}
END_TEST

START_TEST(test_flag_isset64_indexes_bits_across_bytes)
{
	uint8_t flags[8] = {0x01, 0x00, 0x80, 0, 0, 0, 0, 0x40};

	ck_assert(hsa_flag_isset64(flags, 0));
	ck_assert(!hsa_flag_isset64(flags, 1));
	ck_assert(!hsa_flag_isset64(flags, 8));
	ck_assert(hsa_flag_isset64(flags, 23));
	ck_assert(hsa_flag_isset64(flags, 62));
	ck_assert(!hsa_flag_isset64(flags, 63));
}
END_TEST

static Suite *helpers_suite(void)
{
	Suite *s = suite_create("header_helpers");
	TCase *tc = tcase_create("macros");

	tcase_add_test(tc, test_bits_enum_gives_shift_width_and_mask);
	tcase_add_test(tc, test_bits_get_reads_only_the_field);
	tcase_add_test(tc, test_bits_set_replaces_the_field_and_keeps_the_rest);
	tcase_add_test(tc, test_flag_isset64_indexes_bits_across_bytes);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(helpers_suite)
