/*
 * The HSA API table's layout (include/hsa/hsa_api_trace.h) against the
 * numbers derived from ROCr 1.18's and ROCr 5.2.3's hsa_api_trace.h
 * (abi_api_trace.inc), and Debian's 5.2.3 header compiled against the same
 * numbers: every field's offset, every sub-table's size, every version.
 * Each mismatch prints "table.field: compiled X, wanted Y".  This file
 * also compiles our header as C, which hsalite's own sources do.
 */
#include "hl_check.h"

#include <stdio.h>

#include <hsa/hsa_api_trace.h>

#include "abi_api_trace.h"

/* hsalite builds its table from this header in C: the same sizes there. */
_Static_assert(sizeof(CoreApiTable) == 1016, "core table");
_Static_assert(sizeof(AmdExtTable) == 744, "AMD extension table");
_Static_assert(sizeof(HsaApiTable) == 64, "root");
_Static_assert(offsetof(AmdExtTable, hsa_amd_portable_export_dmabuf_v2_fn) == 600, "last of 1.18");
_Static_assert(offsetof(AmdExtTable, hsa_amd_memory_async_batch_copy_fn) == 640, "batch copy");
_Static_assert(offsetof(AmdExtTable, hsa_amd_signal_get_event_id_fn) == 664, "step 0x0D");
_Static_assert(offsetof(AmdExtTable, hsa_amd_external_semaphore_handle_close_fn) == 680,
	       "semaphore close");
_Static_assert(offsetof(AmdExtTable, hsa_amd_queue_create_fn) == 704, "queue create");
_Static_assert(offsetof(AmdExtTable, hsa_amd_interop_map_buffer_with_size_fn) == 736, "last AMD");

/* stands for an entry in the copy test */
static hsa_status_t fake_init(void)
{
	return HSA_STATUS_SUCCESS;
}

static int mismatches(const struct abi_trace_field *f, size_t n, int theirs)
{
	int bad = 0;

	for (size_t i = 0; i < n; i++) {
		long want = theirs ? f[i].want_523 : f[i].want_118;
		if (f[i].offset != want) {
			printf("%s %s.%s: compiled %ld, wanted %ld\n", theirs ? "5.2.3" : "ours",
			       f[i].table, f[i].field, f[i].offset, want);
			bad++;
		}
	}
	return bad;
}

START_TEST(fields_at_rocr_118_offsets)
{
	size_t n;
	const struct abi_trace_field *f = abi_trace_ours(&n);

	ck_assert_uint_eq(n, 255);
	ck_assert_int_eq(mismatches(f, n, 0), 0);
}
END_TEST

START_TEST(debian_523_header_at_derived_offsets)
{
	size_t n, present = 0;
	const struct abi_trace_field *f = abi_trace_theirs(&n);

	ck_assert_int_eq(mismatches(f, n, 1), 0);
	for (size_t i = 0; i < n; i++)
		present += f[i].offset >= 0;
	/* 5.2.3: 4 root pointers, 125 core, 48 AMD, 6 finalizer, 13 image */
	ck_assert_uint_eq(present, 4 + 125 + 48 + 6 + 13);
}
END_TEST

static void check_sizes(const long got[7], const long want[7], const char *who)
{
	static const char *names[7] = { "Core", "AmdExt", "Finalizer", "Image",
					"Tools", "PcSampling", "HsaApiTable" };
	for (int i = 0; i < 7; i++) {
		if (got[i] != want[i])
			printf("%s sizeof %s: %ld, wanted %ld\n", who, names[i], got[i], want[i]);
		ck_assert_int_eq(got[i], want[i]);
	}
}

START_TEST(table_sizes_and_versions)
{
	/* ROCr 1.18's hsa_api_trace.cpp pins the same sizes by static_assert,
	 * but AmdExtTable's: 1.18's 608 and 17 entries of the newest header */
	static const long ours_size[7] = { 1016, 744, 64, 128, 64, 72, 64 };
	static const long their_size[7] = { 1016, 400, 64, 120, 0, 0, 48 };
	/* root, core, amd, finalizer, image, tools, pc sampling, aqlprofile:
	 * major, step */
	static const long ours_ver[16] = { 3, 1, 2, 0, 2, 0x12, 2, 0, 2, 1, 1, 0, 1, 0, 1, 0 };
	static const long their_ver[16] = { 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 1, 0 };
	long sizes[7], ver[16];

	abi_trace_ours_sizes(sizes, ver);
	check_sizes(sizes, ours_size, "ours");
	for (int i = 0; i < 16; i++)
		ck_assert_int_eq(ver[i], ours_ver[i]);
	abi_trace_theirs_sizes(sizes, ver);
	check_sizes(sizes, their_size, "5.2.3");
	for (int i = 0; i < 16; i++)
		ck_assert_int_eq(ver[i], their_ver[i]);
}
END_TEST

/* ROCr's copyTables keeps what both sides have: a tool built against a
 * smaller (older) root copies only the sub-tables that root has. */
START_TEST(copy_tables_stops_at_the_smaller_root)
{
	static CoreApiTable core_src, core_dst;
	static ToolsApiTable tools_src, tools_dst;
	HsaApiTable src = { { 3, sizeof(HsaApiTable), 1, 0 }, &core_src, NULL, NULL, NULL,
			    &tools_src, NULL };
	HsaApiTable dst = { { 3, offsetof(HsaApiTable, tools_), 0, 0 }, &core_dst, NULL, NULL,
			    NULL, &tools_dst, NULL };

	core_src.version = (ApiTableVersion){ 2, sizeof(CoreApiTable), 0, 0 };
	core_dst.version = (ApiTableVersion){ 2, sizeof(CoreApiTable), 0, 0 };
	core_src.hsa_init_fn = fake_init;
	tools_src.version = (ApiTableVersion){ 1, sizeof(ToolsApiTable), 0, 0 };
	tools_dst.version = (ApiTableVersion){ 1, sizeof(ToolsApiTable), 0, 0 };
	tools_src.hsa_amd_tool_scratch_event_alloc_start_fn = (hsa_amd_tool_event)1;
	/* the amd, finalizer and image sub-tables sit inside dst's minor_id:
	 * give both sides none of them (major 0 is skipped) */
	static AmdExtTable amd;
	static FinalizerExtTable fin;
	static ImageExtTable img;
	src.amd_ext_ = dst.amd_ext_ = &amd;
	src.finalizer_ext_ = dst.finalizer_ext_ = &fin;
	src.image_ext_ = dst.image_ext_ = &img;

	copyTables(&src, &dst);
	ck_assert_ptr_eq(core_dst.hsa_init_fn, fake_init);
	ck_assert_ptr_null(tools_dst.hsa_amd_tool_scratch_event_alloc_start_fn);
	ck_assert_uint_eq(dst.version.minor_id, offsetof(HsaApiTable, tools_));
}
END_TEST

static Suite *api_trace_suite(void)
{
	Suite *s = suite_create("abi_api_trace");
	TCase *tc = tcase_create("layout");

	tcase_add_test(tc, fields_at_rocr_118_offsets);
	tcase_add_test(tc, debian_523_header_at_derived_offsets);
	tcase_add_test(tc, table_sizes_and_versions);
	tcase_add_test(tc, copy_tables_stops_at_the_smaller_root);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(api_trace_suite)
