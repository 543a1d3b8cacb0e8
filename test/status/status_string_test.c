/*
 * hsa_status_string through the built libhsa-runtime64.so: every status
 * code our headers define (status_list.h, generated from include/hsa) has
 * a description that starts with its name; anything else is rejected
 * without touching the caller's pointer.  No test calls hsa_init: the call
 * must work on a runtime that was never initialised.
 */
#include "hl_check.h"

#include <stdint.h>
#include <string.h>

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsa/hsa_ext_finalize.h>
#include <hsa/hsa_ext_image.h>

struct status_entry {
	int value;
	const char *name;
};

static const struct status_entry statuses[] = {
#define STATUS(code) {(int)(code), #code},
#include "status_list.h"
#undef STATUS
};
#define N_STATUSES (sizeof(statuses) / sizeof(statuses[0]))

static const struct status_entry *listed(int value)
{
	for (size_t i = 0; i < N_STATUSES; i++)
		if (statuses[i].value == value)
			return &statuses[i];
	return NULL;
}

START_TEST(test_every_status_string_starts_with_its_name)
{
	for (size_t i = 0; i < N_STATUSES; i++) {
		const char *s = NULL;
		size_t len = strlen(statuses[i].name);
		hsa_status_t rc = hsa_status_string((hsa_status_t)statuses[i].value, &s);

		ck_assert_msg(rc == HSA_STATUS_SUCCESS, "%s (0x%x): returned 0x%x, expected SUCCESS",
			      statuses[i].name, statuses[i].value, rc);
		ck_assert_msg(s != NULL, "%s: string is NULL", statuses[i].name);
		ck_assert_msg(!strncmp(s, statuses[i].name, len) && s[len] == ':',
			      "%s: string is \"%s\", expected \"%s: ...\"", statuses[i].name, s,
			      statuses[i].name);
	}
}
END_TEST

START_TEST(test_every_status_string_explains_the_status)
{
	for (size_t i = 0; i < N_STATUSES; i++) {
		const char *s = NULL;
		size_t len = strlen(statuses[i].name);

		hsa_status_string((hsa_status_t)statuses[i].value, &s);
		ck_assert_msg(s && strlen(s) > len + 12 && s[len + 1] == ' ',
			      "%s: string \"%s\" has no description after the name",
			      statuses[i].name, s ? s : "(null)");
	}
}
END_TEST

START_TEST(test_unknown_status_is_rejected_and_pointer_untouched)
{
	static const int unknown[] = {0x2, 0x3, 39, 49, 0xFFF, 0x1027, 0x1FFF,
				      0x2007, 0x3004, -1, INT32_MAX};
	const char *const sentinel = "untouched";

	for (size_t i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++) {
		const char *s = sentinel;
		hsa_status_t rc = hsa_status_string((hsa_status_t)unknown[i], &s);

		ck_assert_msg(rc == HSA_STATUS_ERROR_INVALID_ARGUMENT,
			      "status 0x%x: returned 0x%x, expected INVALID_ARGUMENT (0x%x)",
			      unknown[i], rc, HSA_STATUS_ERROR_INVALID_ARGUMENT);
		ck_assert_msg(s == sentinel, "status 0x%x: output pointer was overwritten with %p",
			      unknown[i], (const void *)s);
	}
}
END_TEST

START_TEST(test_null_output_pointer_is_rejected)
{
	hsa_status_t rc = hsa_status_string(HSA_STATUS_SUCCESS, NULL);

	ck_assert_msg(rc == HSA_STATUS_ERROR_INVALID_ARGUMENT,
		      "returned 0x%x, expected INVALID_ARGUMENT (0x%x)", rc,
		      HSA_STATUS_ERROR_INVALID_ARGUMENT);
}
END_TEST

/*
 * The converse of the first test: the library knows no status the headers
 * do not define (a stale or mistyped code in its table would show here).
 */
START_TEST(test_no_string_for_a_value_the_headers_lack)
{
	for (int v = -64; v < 0x4000; v++) {
		const char *s = NULL;

		if (hsa_status_string((hsa_status_t)v, &s) != HSA_STATUS_SUCCESS)
			continue;
		ck_assert_msg(listed(v) != NULL, "0x%x has a string (\"%s\") but no header defines it",
			      v, s);
	}
}
END_TEST

START_TEST(test_strings_are_distinct)
{
	for (size_t i = 0; i < N_STATUSES; i++) {
		for (size_t j = i + 1; j < N_STATUSES; j++) {
			const char *a = NULL, *b = NULL;

			hsa_status_string((hsa_status_t)statuses[i].value, &a);
			hsa_status_string((hsa_status_t)statuses[j].value, &b);
			ck_assert_msg(a && b && strcmp(a, b), "%s and %s share the string \"%s\"",
				      statuses[i].name, statuses[j].name, a ? a : "(null)");
		}
	}
}
END_TEST

static Suite *status_suite(void)
{
	Suite *s = suite_create("status_string");
	TCase *tc = tcase_create("hsa_status_string");

	tcase_add_test(tc, test_every_status_string_starts_with_its_name);
	tcase_add_test(tc, test_every_status_string_explains_the_status);
	tcase_add_test(tc, test_unknown_status_is_rejected_and_pointer_untouched);
	tcase_add_test(tc, test_null_output_pointer_is_rejected);
	tcase_add_test(tc, test_no_string_for_a_value_the_headers_lack);
	tcase_add_test(tc, test_strings_are_distinct);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(status_suite)
