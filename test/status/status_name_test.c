/*
 * hl_status_name, the runtime-internal short form.  It is hidden in the
 * shared library, so this suite compiles src/runtime/status.c into the test
 * itself.
 */
#include "hl_check.h"

#include <string.h>

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsa/hsa_ext_finalize.h>
#include <hsa/hsa_ext_image.h>

#include "runtime/status.h"

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

START_TEST(test_name_of_every_status_is_its_enumerator)
{
	for (size_t i = 0; i < N_STATUSES; i++) {
		const char *name = hl_status_name((hsa_status_t)statuses[i].value);

		ck_assert_msg(name && !strcmp(name, statuses[i].name),
			      "0x%x: name \"%s\", expected \"%s\"", statuses[i].value,
			      name ? name : "(null)", statuses[i].name);
	}
}
END_TEST

START_TEST(test_name_of_unknown_status_is_unknown)
{
	const char *name = hl_status_name((hsa_status_t)0x1027);

	ck_assert_msg(name && !strcmp(name, "HSA_STATUS_UNKNOWN"),
		      "0x1027: name \"%s\", expected \"HSA_STATUS_UNKNOWN\"", name ? name : "(null)");
}
END_TEST

START_TEST(test_name_is_the_prefix_of_the_full_string)
{
	for (size_t i = 0; i < N_STATUSES; i++) {
		const char *full = NULL;
		const char *name = hl_status_name((hsa_status_t)statuses[i].value);

		hsa_status_string((hsa_status_t)statuses[i].value, &full);
		ck_assert_msg(full && !strncmp(full, name, strlen(name)),
			      "%s: full string \"%s\" does not start with the name", name,
			      full ? full : "(null)");
	}
}
END_TEST

static Suite *status_name_suite(void)
{
	Suite *s = suite_create("status_name");
	TCase *tc = tcase_create("hl_status_name");

	tcase_add_test(tc, test_name_of_every_status_is_its_enumerator);
	tcase_add_test(tc, test_name_of_unknown_status_is_unknown);
	tcase_add_test(tc, test_name_is_the_prefix_of_the_full_string);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(status_name_suite)
