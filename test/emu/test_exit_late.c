/*
 * A library destructor that runs after kfdemu's shim (exit_late_lib.c, a
 * DT_NEEDED library of this binary) still waits on a signal through the
 * runtime's event thread and calls hsa_shut_down, as HIP's does at exit.
 * On a real KFD the device stays alive until exit_group, so the program
 * must exit 0 at once; a shim that froze the machine in its own destructor
 * made the waits return -EINTR forever (HIP 6.3 on ROCr 1.18 never exited).
 *
 * argv[1] is the launcher, argv[2] the runtime library (hsalite's build
 * library, Debian's ROCr 5.2.3 or ROCr 1.18): one ctest registration each.
 * The same binary is the program run under the launcher (--late RUNTIME).
 * Each run is bounded by timeout(1), so the old hang fails instead of
 * hanging ctest.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hl_check.h"
#include "hl_popen.h"
#include "exit_late_lib.h"

static const char *kfdemu, *runtime;
static char self[PATH_MAX];

/* Runs the program under the launcher; its status, and the end of its
 * output in *out (a hung run's log of failing waits can be huge). */
static int run(char **out)
{
	char *line;
	/* the runtimes other than hsalite are not built with ASan: their own
	 * allocations are not ours to report */
	if (asprintf(&line,
		     "{ ASAN_OPTIONS=detect_leaks=0 KFDEMU_LOG=debug timeout -k 5 90 %s -- %s "
		     "--late %s 2>&1; echo \"launcher status $?\"; } | tail -c 262144",
		     kfdemu, self, runtime) < 0)
		return -1;
	int pst = hl_popen_read(line, out);
	free(line);
	ck_assert_int_eq(pst, 0);
	const char *text = *out;
	const char *st = NULL;
	for (const char *s = text; (s = strstr(s, "launcher status ")); s++)
		st = s;
	return st ? atoi(st + strlen("launcher status ")) : -1;
}

static const char *tail(const char *out)
{
	size_t n = strlen(out);
	return n > 3000 ? out + n - 3000 : out;
}

START_TEST(late_destructor_waits_and_shuts_the_runtime_down)
{
	char *out;
	int st = run(&out);
	if (st == EXIT_LATE_NO_RUNTIME) {
		fprintf(stderr, "%s found no GPU agent: skipped\n%s", runtime, tail(out));
		free(out);
		return;
	}
	ck_assert_msg(st == 0, "status %d (124: timed out):\n%s", st, tail(out));
	const char *ran = strstr(out, "exit-late: destructor runs");
	ck_assert_msg(ran, "the late destructor did not run:\n%s", tail(out));
	const char *shut = strstr(ran, "exit-late: hsa_shut_down returned");
	ck_assert_msg(shut, "hsa_shut_down did not return:\n%s", tail(out));
	/* the machine goes after the last destructor, with nobody inside */
	ck_assert_msg(strstr(shut, "machine torn down (0 calls inside)"), "no teardown:\n%s",
		      tail(out));
	ck_assert_msg(!strstr(out, "still inside"), "teardown skipped:\n%s", tail(out));
	ck_assert_msg(!strstr(out, "Sanitizer"), "sanitizer report:\n%s", tail(out));
	free(out);
}
END_TEST

static Suite *exit_late_suite(void)
{
	Suite *s = suite_create("kfdemu_exit_late");
	TCase *tc = tcase_create("late");
	tcase_add_test(tc, late_destructor_waits_and_shuts_the_runtime_down);
	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);
	return s;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--late")) {
		int r = exit_late_arm(argv[2]);
		if (r)
			return r;
		printf("exit-late: main returns\n");
		fflush(stdout);
		return 0; /* the rest happens in exit_late_lib.c's destructor */
	}
	if (argc < 3)
		return EXIT_FAILURE;
	kfdemu = argv[1];
	runtime = argv[2];
	if (access(runtime, R_OK)) {
		fprintf(stderr, "no %s: skipped\n", runtime);
		return HL_SKIP;
	}
	if (!realpath("/proc/self/exe", self))
		return EXIT_FAILURE;
	return hl_check_run(exit_late_suite());
}
