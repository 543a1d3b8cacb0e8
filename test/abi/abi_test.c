/*
 * Header ABI test: our include/hsa against Debian's ROCr 5.2.3 headers.
 *
 * abi_ours.c/abi_theirs.c (and the C++ pair for function types) evaluate
 * the same generated item lists against each set of headers; this suite
 * compares the two tables, one kind of item per test, and prints every
 * mismatch as "item: ours X, theirs Y".  The lists come from
 * gen_abi_lists.py and cover every typedef (size, alignment), every struct
 * member offset, every enumerator and integer macro, and every function of
 * hsa.h, hsa_ext_amd.h and hsa_ven_amd_loader.h.
 */
#include "hl_check.h"

#include <stdio.h>
#include <string.h>

#include "abi_table.h"

enum item_kind { KIND_SIZE, KIND_ALIGN, KIND_OFFSET, KIND_CONST };

static enum item_kind item_kind_of(const char *name)
{
	if (!strncmp(name, "sizeof(", 7))
		return KIND_SIZE;
	if (!strncmp(name, "_Alignof(", 9))
		return KIND_ALIGN;
	if (!strncmp(name, "offsetof(", 9))
		return KIND_OFFSET;
	return KIND_CONST;
}

/*
 * Items whose value moved on in ROCr 1.18's headers in a way that keeps
 * every 5.2.3 client working; both values are pinned, so neither side can
 * drift unnoticed:
 *  - hsa_ext_images_1_pfn_t gained hsa_ext_sampler_create_v2 at its end
 *    (hsa_system_get_major_extension_table copies the length the caller
 *    asks for, so a 5.2.3 client gets the 13 entries it knows);
 *  - HSA_AMD_LAST_EXTENSION: HSA_EXTENSION_AMD_PC_SAMPLING (0x203) joined
 *    the range;
 *  - HSA_AMD_INTERFACE_VERSION_MINOR: the AMD interface version hsalite
 *    implements (hsa_ext_amd.h says which steps).
 */
static const struct {
	const char *name;
	long long theirs, ours;
} evolved[] = {
	{ "sizeof(hsa_ext_images_1_pfn_t)", 104, 112 },
	{ "HSA_AMD_LAST_EXTENSION", 0x202, 0x203 },
	{ "HSA_AMD_INTERFACE_VERSION_MINOR", 0, 31 },
};

/* 1: name is an evolved item and both values are the pinned ones; -1: an
 * evolved item with some other value; 0: not evolved. */
static int evolved_ok(const char *name, long long ours, long long theirs)
{
	for (size_t i = 0; i < sizeof(evolved) / sizeof(evolved[0]); i++)
		if (!strcmp(evolved[i].name, name))
			return ours == evolved[i].ours && theirs == evolved[i].theirs ? 1 : -1;
	return 0;
}

/*
 * Count the items of one kind that differ, printing each to report (NULL:
 * silent).  The tables are
 * built from one list, so entry i names the same item on both sides; a
 * name or length disagreement is itself reported as a mismatch.
 */
static size_t compare_items(const struct abi_item *ours, size_t n_ours,
			    const struct abi_item *theirs, size_t n_theirs, enum item_kind kind,
			    size_t *checked, FILE *report)
{
	size_t bad = 0;

	*checked = 0;
	if (n_ours != n_theirs) {
		if (report)
			fprintf(report, "abi: table lengths differ: ours %zu, theirs %zu\n", n_ours,
				n_theirs);
		return 1;
	}
	for (size_t i = 0; i < n_ours; i++) {
		if (strcmp(ours[i].name, theirs[i].name)) {
			if (report)
				fprintf(report, "abi: entry %zu: ours names %s, theirs %s\n", i,
					ours[i].name, theirs[i].name);
			bad++;
			continue;
		}
		if (item_kind_of(theirs[i].name) != kind)
			continue;
		(*checked)++;
		int ev = evolved_ok(theirs[i].name, ours[i].value, theirs[i].value);
		if (ev == 1)
			continue;
		if (ev == -1 || ours[i].value != theirs[i].value) {
			if (report)
				fprintf(report, "abi: %s: ours %lld, theirs %lld\n", theirs[i].name,
					ours[i].value, theirs[i].value);
			bad++;
		}
	}
	return bad;
}

static void check_kind(enum item_kind kind, const char *what)
{
	size_t checked;
	size_t bad = compare_items(abi_items_ours, abi_items_ours_count, abi_items_theirs,
				   abi_items_theirs_count, kind, &checked, stderr);

	ck_assert_msg(checked > 0, "no %s items in the generated lists", what);
	ck_assert_msg(bad == 0, "%zu of %zu %s differ from ROCr's (listed on stderr)", bad,
		      checked, what);
}

START_TEST(test_type_sizes_match)
{
	check_kind(KIND_SIZE, "type sizes");
}
END_TEST

START_TEST(test_type_alignments_match)
{
	check_kind(KIND_ALIGN, "type alignments");
}
END_TEST

START_TEST(test_member_offsets_match)
{
	check_kind(KIND_OFFSET, "member offsets");
}
END_TEST

START_TEST(test_constants_match)
{
	check_kind(KIND_CONST, "enumerators and macros");
}
END_TEST

/*
 * amd_hsa_elf.h: ROCr's copy is C++ only, so both tables come from C++
 * translation units; every kind of item is compared in one test.
 */
START_TEST(test_elf_header_items_match)
{
	static const enum item_kind kinds[] = {KIND_SIZE, KIND_ALIGN, KIND_OFFSET, KIND_CONST};
	size_t bad = 0, total = 0;

	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		size_t checked;

		bad += compare_items(abi_elf_ours, abi_elf_ours_count, abi_elf_theirs,
				     abi_elf_theirs_count, kinds[k], &checked, stderr);
		total += checked;
	}
	ck_assert_msg(total > 0, "no amd_hsa_elf.h items in the generated list");
	ck_assert_msg(bad == 0, "%zu of %zu amd_hsa_elf.h items differ from ROCr's", bad, total);
}
END_TEST

/* Length and start of the <type> in "... [with T = <type>]". */
static int type_len(const char *pretty)
{
	const char *t = strstr(pretty, "T = ");
	size_t n;

	t = t ? t + 4 : pretty;
	n = strlen(t);
	return (int)(n && t[n - 1] == ']' ? n - 1 : n);
}

static const char *type_start(const char *pretty)
{
	const char *t = strstr(pretty, "T = ");

	return t ? t + 4 : pretty;
}

START_TEST(test_function_types_match)
{
	size_t bad = 0;

	ck_assert_msg(abi_funcs_ours_count == abi_funcs_theirs_count,
		      "function lists differ in length: ours %zu, theirs %zu", abi_funcs_ours_count,
		      abi_funcs_theirs_count);
	for (size_t i = 0; i < abi_funcs_theirs_count; i++) {
		const struct abi_func *o = &abi_funcs_ours[i], *t = &abi_funcs_theirs[i];

		if (strcmp(o->name, t->name) || strcmp(o->type, t->type)) {
			fprintf(stderr, "abi: %s: ours %.*s, theirs %.*s\n", t->name,
				type_len(o->type), type_start(o->type), type_len(t->type),
				type_start(t->type));
			bad++;
		}
	}
	ck_assert_msg(bad == 0, "%zu of %zu function declarations differ from ROCr's", bad,
		      abi_funcs_theirs_count);
}
END_TEST

/* The comparison itself must be able to fail. */
START_TEST(test_comparison_reports_a_difference)
{
	static const struct abi_item a[] = {{"sizeof(x_t)", 8}, {"X_ONE", 1}, {"X_TWO", 2}};
	static const struct abi_item b[] = {{"sizeof(x_t)", 8}, {"X_ONE", 1}, {"X_TWO", 3}};
	size_t checked, bad;

	bad = compare_items(a, 3, b, 3, KIND_CONST, &checked, NULL);
	ck_assert_msg(checked == 2 && bad == 1, "constants: checked %zu (want 2), bad %zu (want 1)",
		      checked, bad);
	bad = compare_items(a, 3, b, 3, KIND_SIZE, &checked, NULL);
	ck_assert_msg(checked == 1 && bad == 0, "sizes: checked %zu (want 1), bad %zu (want 0)",
		      checked, bad);
}
END_TEST

static const struct abi_item *find_item(const struct abi_item *t, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(t[i].name, name))
			return &t[i];
	return NULL;
}

/*
 * The layouts peers depend on, with the numbers from
 * shared/research/hsa-abi-and-rocr.md section 2: guards against a list
 * generator that silently dropped them, and against both sides drifting
 * together.
 */
START_TEST(test_pinned_layouts_are_listed_with_their_values)
{
	static const struct abi_item pins[] = {
		{"sizeof(hsa_queue_t)", 40},
		{"offsetof(hsa_queue_t, doorbell_signal)", 16},
		{"sizeof(amd_queue_t)", 256},
		{"_Alignof(amd_queue_t)", 64},
		{"offsetof(amd_queue_t, write_dispatch_id)", 56},
		{"offsetof(amd_queue_t, read_dispatch_id)", 128},
		{"offsetof(amd_queue_t, read_dispatch_id_field_base_byte_offset)", 136},
		{"offsetof(amd_queue_t, queue_properties)", 180},
		{"offsetof(amd_queue_t, queue_inactive_signal)", 192},
		{"sizeof(amd_signal_t)", 64},
		{"offsetof(amd_signal_t, value)", 8},
		{"offsetof(amd_signal_t, queue_ptr)", 48},
		{"sizeof(hsa_kernel_dispatch_packet_t)", 64},
		{"offsetof(hsa_kernel_dispatch_packet_t, kernarg_address)", 40},
		{"sizeof(hsa_agent_dispatch_packet_t)", 64},
		{"sizeof(hsa_barrier_and_packet_t)", 64},
		{"sizeof(hsa_barrier_or_packet_t)", 64},
		{"sizeof(hsa_amd_barrier_value_packet_t)", 64},
		{"sizeof(amd_kernel_code_t)", 256},
		{"HSA_STATUS_ERROR_FATAL", 0x1026},
		{"HSA_STATUS_CU_MASK_REDUCED", 44},
		{"AMD_QUEUE_PROPERTIES_IS_PTR64", 2},
		{"AMD_SIGNAL_KIND_DOORBELL", -1},
	};

	for (size_t i = 0; i < sizeof(pins) / sizeof(pins[0]); i++) {
		const struct abi_item *o =
			find_item(abi_items_ours, abi_items_ours_count, pins[i].name);

		ck_assert_msg(o != NULL, "%s is missing from the generated lists", pins[i].name);
		ck_assert_msg(o->value == pins[i].value, "%s: ours %lld, expected %lld",
			      pins[i].name, o->value, pins[i].value);
	}
}
END_TEST

START_TEST(test_key_functions_are_listed)
{
	static const char *const names[] = {"hsa_init", "hsa_queue_create",
					    "hsa_amd_memory_pool_allocate",
					    "hsa_amd_signal_async_handler",
					    "hsa_ven_amd_loader_query_host_address"};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		size_t j = 0;

		while (j < abi_funcs_theirs_count && strcmp(abi_funcs_theirs[j].name, names[i]))
			j++;
		ck_assert_msg(j < abi_funcs_theirs_count, "%s is missing from abi_funcs.h", names[i]);
	}
}
END_TEST

static Suite *abi_suite(void)
{
	Suite *s = suite_create("abi");
	TCase *tc = tcase_create("rocr-5.2.3");

	tcase_add_test(tc, test_type_sizes_match);
	tcase_add_test(tc, test_type_alignments_match);
	tcase_add_test(tc, test_member_offsets_match);
	tcase_add_test(tc, test_constants_match);
	tcase_add_test(tc, test_function_types_match);
	tcase_add_test(tc, test_elf_header_items_match);
	tcase_add_test(tc, test_comparison_reports_a_difference);
	tcase_add_test(tc, test_pinned_layouts_are_listed_with_their_values);
	tcase_add_test(tc, test_key_functions_are_listed);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(abi_suite)
