/*
 * amdhsa_kernel_descriptor_t and its AMDHSA_* bit fields against LLVM's
 * llvm::amdhsa definitions (the normative C++ description of code object
 * v3+ descriptors), from the installed LLVM headers.  Both live in one
 * translation unit: their names do not collide.
 *
 * Fields LLVM added after the installed version (kernarg_preload, gfx11
 * rsrc3 fields, USES_DYNAMIC_STACK) are not compared here; the static
 * asserts in amd_hsa_kernel_code.h pin them to AMDGPUUsage's offsets.
 */
#include "hl_check.h"

#include <stddef.h>
#include <stdio.h>

#include <hsa/amd_hsa_kernel_code.h>
#include <llvm/Support/AMDHSAKernelDescriptor.h>

namespace {

struct pair {
	const char *name;
	long long ours;
	long long llvm;
};

/* Count the pairs that differ, printing each to report (NULL: silent). */
size_t report_mismatches(const pair *p, size_t n, FILE *report)
{
	size_t bad = 0;

	for (size_t i = 0; i < n; i++) {
		if (p[i].ours != p[i].llvm) {
			if (report)
				fprintf(report, "kd: %s: ours %lld, llvm %lld\n", p[i].name,
					p[i].ours, p[i].llvm);
			bad++;
		}
	}
	return bad;
}

/* One bit field: its mask, shift and width on both sides. */
#define FIELD(ours, theirs)                                                      \
	{#ours, (long long)(ours), (long long)(llvm::amdhsa::theirs)},           \
	{#ours "_SHIFT", (long long)(ours##_SHIFT), (long long)(llvm::amdhsa::theirs##_SHIFT)}, \
	{#ours "_WIDTH", (long long)(ours##_WIDTH), (long long)(llvm::amdhsa::theirs##_WIDTH)}

#define CHECK_PAIRS(table)                                                       \
	do {                                                                     \
		size_t n = sizeof(table) / sizeof(table[0]);                     \
		size_t bad = report_mismatches(table, n, stderr);                \
		ck_assert_msg(bad == 0, "%zu of %zu values differ from LLVM's (listed on stderr)", \
			      bad, n);                                           \
	} while (0)

} // namespace

START_TEST(test_descriptor_layout_matches_llvm)
{
	typedef amdhsa_kernel_descriptor_t ours_t;
	typedef llvm::amdhsa::kernel_descriptor_t llvm_t;
#define OFF(f) {"offsetof(" #f ")", (long long)offsetof(ours_t, f), (long long)offsetof(llvm_t, f)}
	static const pair table[] = {
		{"sizeof", (long long)sizeof(ours_t), (long long)sizeof(llvm_t)},
		OFF(group_segment_fixed_size),
		OFF(private_segment_fixed_size),
		OFF(kernarg_size),
		OFF(reserved0),
		OFF(kernel_code_entry_byte_offset),
		OFF(reserved1),
		OFF(compute_pgm_rsrc3),
		OFF(compute_pgm_rsrc1),
		OFF(compute_pgm_rsrc2),
		OFF(kernel_code_properties),
	};
#undef OFF
	CHECK_PAIRS(table);
}
END_TEST

START_TEST(test_rsrc1_fields_match_llvm)
{
	static const pair table[] = {
		FIELD(AMDHSA_RSRC1_GRANULATED_WORKITEM_VGPR_COUNT,
		      COMPUTE_PGM_RSRC1_GRANULATED_WORKITEM_VGPR_COUNT),
		FIELD(AMDHSA_RSRC1_GRANULATED_WAVEFRONT_SGPR_COUNT,
		      COMPUTE_PGM_RSRC1_GRANULATED_WAVEFRONT_SGPR_COUNT),
		FIELD(AMDHSA_RSRC1_PRIORITY, COMPUTE_PGM_RSRC1_PRIORITY),
		FIELD(AMDHSA_RSRC1_FLOAT_ROUND_MODE_32, COMPUTE_PGM_RSRC1_FLOAT_ROUND_MODE_32),
		FIELD(AMDHSA_RSRC1_FLOAT_ROUND_MODE_16_64, COMPUTE_PGM_RSRC1_FLOAT_ROUND_MODE_16_64),
		FIELD(AMDHSA_RSRC1_FLOAT_DENORM_MODE_32, COMPUTE_PGM_RSRC1_FLOAT_DENORM_MODE_32),
		FIELD(AMDHSA_RSRC1_FLOAT_DENORM_MODE_16_64, COMPUTE_PGM_RSRC1_FLOAT_DENORM_MODE_16_64),
		FIELD(AMDHSA_RSRC1_PRIV, COMPUTE_PGM_RSRC1_PRIV),
		FIELD(AMDHSA_RSRC1_ENABLE_DX10_CLAMP, COMPUTE_PGM_RSRC1_ENABLE_DX10_CLAMP),
		FIELD(AMDHSA_RSRC1_DEBUG_MODE, COMPUTE_PGM_RSRC1_DEBUG_MODE),
		FIELD(AMDHSA_RSRC1_ENABLE_IEEE_MODE, COMPUTE_PGM_RSRC1_ENABLE_IEEE_MODE),
		FIELD(AMDHSA_RSRC1_BULKY, COMPUTE_PGM_RSRC1_BULKY),
		FIELD(AMDHSA_RSRC1_CDBG_USER, COMPUTE_PGM_RSRC1_CDBG_USER),
		FIELD(AMDHSA_RSRC1_FP16_OVFL, COMPUTE_PGM_RSRC1_FP16_OVFL),
		FIELD(AMDHSA_RSRC1_GFX10_WGP_MODE, COMPUTE_PGM_RSRC1_WGP_MODE),
		FIELD(AMDHSA_RSRC1_GFX10_MEM_ORDERED, COMPUTE_PGM_RSRC1_MEM_ORDERED),
		FIELD(AMDHSA_RSRC1_GFX10_FWD_PROGRESS, COMPUTE_PGM_RSRC1_FWD_PROGRESS),
	};
	CHECK_PAIRS(table);
}
END_TEST

START_TEST(test_rsrc2_fields_match_llvm)
{
	static const pair table[] = {
		FIELD(AMDHSA_RSRC2_ENABLE_PRIVATE_SEGMENT, COMPUTE_PGM_RSRC2_ENABLE_PRIVATE_SEGMENT),
		FIELD(AMDHSA_RSRC2_USER_SGPR_COUNT, COMPUTE_PGM_RSRC2_USER_SGPR_COUNT),
		FIELD(AMDHSA_RSRC2_ENABLE_TRAP_HANDLER, COMPUTE_PGM_RSRC2_ENABLE_TRAP_HANDLER),
		FIELD(AMDHSA_RSRC2_ENABLE_SGPR_WORKGROUP_ID_X,
		      COMPUTE_PGM_RSRC2_ENABLE_SGPR_WORKGROUP_ID_X),
		FIELD(AMDHSA_RSRC2_ENABLE_SGPR_WORKGROUP_ID_Y,
		      COMPUTE_PGM_RSRC2_ENABLE_SGPR_WORKGROUP_ID_Y),
		FIELD(AMDHSA_RSRC2_ENABLE_SGPR_WORKGROUP_ID_Z,
		      COMPUTE_PGM_RSRC2_ENABLE_SGPR_WORKGROUP_ID_Z),
		FIELD(AMDHSA_RSRC2_ENABLE_SGPR_WORKGROUP_INFO,
		      COMPUTE_PGM_RSRC2_ENABLE_SGPR_WORKGROUP_INFO),
		FIELD(AMDHSA_RSRC2_ENABLE_VGPR_WORKITEM_ID, COMPUTE_PGM_RSRC2_ENABLE_VGPR_WORKITEM_ID),
		FIELD(AMDHSA_RSRC2_ENABLE_EXCEPTION_ADDRESS_WATCH,
		      COMPUTE_PGM_RSRC2_ENABLE_EXCEPTION_ADDRESS_WATCH),
		FIELD(AMDHSA_RSRC2_ENABLE_EXCEPTION_MEMORY, COMPUTE_PGM_RSRC2_ENABLE_EXCEPTION_MEMORY),
		FIELD(AMDHSA_RSRC2_GRANULATED_LDS_SIZE, COMPUTE_PGM_RSRC2_GRANULATED_LDS_SIZE),
		FIELD(AMDHSA_RSRC2_ENABLE_EXCEPTION_IEEE_754_FP_INVALID_OPERATION,
		      COMPUTE_PGM_RSRC2_ENABLE_EXCEPTION_IEEE_754_FP_INVALID_OPERATION),
		FIELD(AMDHSA_RSRC2_ENABLE_EXCEPTION_FP_DENORMAL_SOURCE,
		      COMPUTE_PGM_RSRC2_ENABLE_EXCEPTION_FP_DENORMAL_SOURCE),
		FIELD(AMDHSA_RSRC2_ENABLE_EXCEPTION_IEEE_754_FP_DIVISION_BY_ZERO,
		      COMPUTE_PGM_RSRC2_ENABLE_EXCEPTION_IEEE_754_FP_DIVISION_BY_ZERO),
		FIELD(AMDHSA_RSRC2_ENABLE_EXCEPTION_IEEE_754_FP_OVERFLOW,
		      COMPUTE_PGM_RSRC2_ENABLE_EXCEPTION_IEEE_754_FP_OVERFLOW),
		FIELD(AMDHSA_RSRC2_ENABLE_EXCEPTION_IEEE_754_FP_UNDERFLOW,
		      COMPUTE_PGM_RSRC2_ENABLE_EXCEPTION_IEEE_754_FP_UNDERFLOW),
		FIELD(AMDHSA_RSRC2_ENABLE_EXCEPTION_IEEE_754_FP_INEXACT,
		      COMPUTE_PGM_RSRC2_ENABLE_EXCEPTION_IEEE_754_FP_INEXACT),
		FIELD(AMDHSA_RSRC2_ENABLE_EXCEPTION_INT_DIVIDE_BY_ZERO,
		      COMPUTE_PGM_RSRC2_ENABLE_EXCEPTION_INT_DIVIDE_BY_ZERO),
	};
	CHECK_PAIRS(table);
}
END_TEST

START_TEST(test_rsrc3_fields_match_llvm)
{
	static const pair table[] = {
		FIELD(AMDHSA_RSRC3_GFX90A_ACCUM_OFFSET, COMPUTE_PGM_RSRC3_GFX90A_ACCUM_OFFSET),
		FIELD(AMDHSA_RSRC3_GFX90A_TG_SPLIT, COMPUTE_PGM_RSRC3_GFX90A_TG_SPLIT),
		FIELD(AMDHSA_RSRC3_GFX10_SHARED_VGPR_COUNT, COMPUTE_PGM_RSRC3_GFX10_SHARED_VGPR_COUNT),
	};
	CHECK_PAIRS(table);
}
END_TEST

START_TEST(test_kernel_code_properties_match_llvm)
{
	static const pair table[] = {
		FIELD(AMDHSA_KCP_ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER,
		      KERNEL_CODE_PROPERTY_ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER),
		FIELD(AMDHSA_KCP_ENABLE_SGPR_DISPATCH_PTR, KERNEL_CODE_PROPERTY_ENABLE_SGPR_DISPATCH_PTR),
		FIELD(AMDHSA_KCP_ENABLE_SGPR_QUEUE_PTR, KERNEL_CODE_PROPERTY_ENABLE_SGPR_QUEUE_PTR),
		FIELD(AMDHSA_KCP_ENABLE_SGPR_KERNARG_SEGMENT_PTR,
		      KERNEL_CODE_PROPERTY_ENABLE_SGPR_KERNARG_SEGMENT_PTR),
		FIELD(AMDHSA_KCP_ENABLE_SGPR_DISPATCH_ID, KERNEL_CODE_PROPERTY_ENABLE_SGPR_DISPATCH_ID),
		FIELD(AMDHSA_KCP_ENABLE_SGPR_FLAT_SCRATCH_INIT,
		      KERNEL_CODE_PROPERTY_ENABLE_SGPR_FLAT_SCRATCH_INIT),
		FIELD(AMDHSA_KCP_ENABLE_SGPR_PRIVATE_SEGMENT_SIZE,
		      KERNEL_CODE_PROPERTY_ENABLE_SGPR_PRIVATE_SEGMENT_SIZE),
		FIELD(AMDHSA_KCP_ENABLE_WAVEFRONT_SIZE32, KERNEL_CODE_PROPERTY_ENABLE_WAVEFRONT_SIZE32),
	};
	CHECK_PAIRS(table);
}
END_TEST

START_TEST(test_mismatch_is_reported)
{
	static const pair table[] = {{"same", 1, 1}, {"different", 1, 2}};

	ck_assert_uint_eq(report_mismatches(table, 1, NULL), 0);
	ck_assert_uint_eq(report_mismatches(table + 1, 1, NULL), 1);
}
END_TEST

static Suite *kd_suite(void)
{
	Suite *s = suite_create("kernel_descriptor");
	TCase *tc = tcase_create("llvm");

	tcase_add_test(tc, test_descriptor_layout_matches_llvm);
	tcase_add_test(tc, test_rsrc1_fields_match_llvm);
	tcase_add_test(tc, test_rsrc2_fields_match_llvm);
	tcase_add_test(tc, test_rsrc3_fields_match_llvm);
	tcase_add_test(tc, test_kernel_code_properties_match_llvm);
	tcase_add_test(tc, test_mismatch_is_reported);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(kd_suite)
