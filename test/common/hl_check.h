/*
 * Shared helpers for hsalite's Check suites.  HL_CHECK_MAIN (or
 * hl_check_run, for a main that does more first) runs one suite in no-fork
 * mode (KFD state belongs to the process that opened /dev/kfd) and exits
 * non-zero when any test failed.
 */
#ifndef HL_CHECK_H
#define HL_CHECK_H

#include <check.h>
#include <stdlib.h>

/* Runs suite s in no-fork mode; the exit status for main. */
static inline int hl_check_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#define HL_CHECK_MAIN(make_suite)                 \
	int main(void)                            \
	{                                         \
		return hl_check_run(make_suite()); \
	}

/* Exit status ctest treats as "skipped" (SKIP_RETURN_CODE 77). */
#define HL_SKIP 77

#endif
