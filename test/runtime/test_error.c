/*
 * The one place causes become statuses (src/runtime/error.c, compiled into
 * this test): each errno maps to the status ROCr gives for it, and an
 * hsa_init failure is OUT_OF_RESOURCES with the real cause and the fix in
 * the log (HSALITE_LOG_FILE, set when the test is registered).  Label unit.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hl_check.h"
#include "runtime/runtime_priv.h"

START_TEST(errno_maps_to_rocr_statuses)
{
	static const struct { int err; hsa_status_t want; } cases[] = {
		{ 0, HSA_STATUS_SUCCESS },
		{ -EINVAL, HSA_STATUS_ERROR_INVALID_ARGUMENT },
		{ -ENOMEM, HSA_STATUS_ERROR_OUT_OF_RESOURCES },
		{ -ENOSPC, HSA_STATUS_ERROR_OUT_OF_RESOURCES },
		{ -E2BIG, HSA_STATUS_ERROR_INVALID_ALLOCATION },
		{ -EPERM, HSA_STATUS_ERROR_INVALID_ALLOCATION },
		{ -EOPNOTSUPP, (hsa_status_t)HSA_STATUS_ERROR_NOT_SUPPORTED },
		{ -ENOEXEC, HSA_STATUS_ERROR_INVALID_CODE_OBJECT },
		{ -EXDEV, HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS },
		{ -EIO, HSA_STATUS_ERROR },
		{ ENOMEM, HSA_STATUS_ERROR_OUT_OF_RESOURCES }, /* either sign */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		hsa_status_t got = hl_status_from_errno(cases[i].err);
		ck_assert_msg(got == cases[i].want, "errno %d: got %#x, expected %#x", cases[i].err,
			      (unsigned)got, (unsigned)cases[i].want);
	}
}
END_TEST

static char *read_log(void)
{
	const char *path = getenv("HSALITE_LOG_FILE");
	ck_assert_msg(path != NULL, "HSALITE_LOG_FILE not set");
	FILE *f = fopen(path, "r");
	ck_assert_msg(f != NULL, "no log at %s", path);
	static char buf[8192];
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

START_TEST(init_failure_is_out_of_resources_with_cause_and_fix)
{
	ck_assert_int_eq(hl_status_init_failure(-EACCES), HSA_STATUS_ERROR_OUT_OF_RESOURCES);
	ck_assert_int_eq(hl_status_init_failure(-ENOENT), HSA_STATUS_ERROR_OUT_OF_RESOURCES);
	ck_assert_int_eq(hl_status_init_failure(-ENOMEM), HSA_STATUS_ERROR_OUT_OF_RESOURCES);
	const char *log = read_log();
	ck_assert_msg(strstr(log, "/dev/kfd: EACCES: add the user to the 'render' and 'video' groups"),
		      "EACCES fix missing from the log: '%s'", log);
	ck_assert_msg(strstr(log, "/dev/kfd: ENOENT: the amdgpu driver is not loaded, or run under "
				  "kfdemu"),
		      "ENOENT fix missing from the log: '%s'", log);
	ck_assert_msg(strstr(log, "hsa_init failed: ENOMEM"), "ENOMEM cause missing: '%s'", log);
}
END_TEST

static Suite *error_suite(void)
{
	Suite *s = suite_create("runtime_error");
	TCase *tc = tcase_create("error");
	tcase_add_test(tc, errno_maps_to_rocr_statuses);
	tcase_add_test(tc, init_failure_is_out_of_resources_with_cause_and_fix);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(error_suite)
