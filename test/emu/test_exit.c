/*
 * A program that exits while one of its threads is blocked in WAIT_EVENTS
 * (normal for ROCr: its event thread waits until hsa_shut_down, which many
 * programs never call) and another keeps calling into the emulator.  Under
 * the launcher the shim's destructor must wake the waiter as exit_group's
 * SIGKILL would (-EINTR), keep both threads from running on, tear the
 * machine down, and the program must exit with its own status at once:
 * no hang, no "calls still inside the emulator" fallback.
 *
 * argv[1] is the launcher.  The same binary is the program run under it:
 *   --raw-waiter    raw KFD ioctls: a MEMORY event waited for forever, and a
 *                   thread looping GET_VERSION
 *   --rocr-noshut   Debian's ROCr 5.2.3 (dlopen'ed): hsa_init, a signal
 *                   with an async handler (ROCr's event thread), no
 *                   hsa_shut_down; exits 77 without ROCr or a GPU agent
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hl_check.h"
#include "uapi/kfd_uapi.h"

#define ROCR_LIB "/usr/lib/x86_64-linux-gnu/libhsa-runtime64.so.1"

static const char *kfdemu;
static char self[PATH_MAX];

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

/* ---- the programs run under the launcher ---- */

static int kfd_fd;
static uint32_t event_id;

static void *blocked_waiter(void *arg)
{
	(void)arg;
	struct kfd_event_data d = { .event_id = event_id };
	struct kfd_args_wait_events w = { .events_ptr = (uintptr_t)&d, .num_events = 1,
					  .timeout = KFD_WAIT_TIMEOUT_INFINITE };
	int r = ioctl(kfd_fd, KFD_IOCTL_WAIT_EVENTS, &w);
	/* never reached: the process exits while this thread waits */
	fprintf(stderr, "raw-waiter: WAIT_EVENTS returned %d (errno %d) to user code\n", r, errno);
	return NULL;
}

static void *busy_caller(void *arg)
{
	(void)arg;
	for (;;) {
		struct kfd_args_get_version v;
		if (ioctl(kfd_fd, KFD_IOCTL_GET_VERSION, &v) < 0) {
			fprintf(stderr, "raw-waiter: GET_VERSION failed (errno %d)\n", errno);
			return NULL;
		}
	}
}

static int raw_waiter(void)
{
	kfd_fd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
	if (kfd_fd < 0)
		return 10;
	struct kfd_args_create_event c = { .event_type = KFD_EVENT_TYPE_MEMORY };
	if (ioctl(kfd_fd, KFD_IOCTL_CREATE_EVENT, &c) < 0)
		return 11;
	event_id = c.event_id;
	pthread_t a, b;
	if (pthread_create(&a, NULL, blocked_waiter, NULL) ||
	    pthread_create(&b, NULL, busy_caller, NULL))
		return 12;
	sleep_ms(100);
	printf("raw-waiter: exiting with both threads inside\n");
	fflush(stdout);
	return 0;
}

/* The few ROCr entry points used, declared here so that this binary links
 * against neither ROCr nor hsalite. */
typedef struct { uint64_t handle; } rocr_signal_t;
typedef bool (*rocr_handler_t)(int64_t value, void *arg);

static bool on_signal(int64_t value, void *arg)
{
	(void)value;
	(void)arg;
	return true;
}

static int rocr_noshut(void)
{
	void *lib = dlopen(ROCR_LIB, RTLD_NOW | RTLD_LOCAL);
	if (!lib)
		return HL_SKIP;
	int (*init)(void) = (int (*)(void))dlsym(lib, "hsa_init");
	int (*signal_create)(int64_t, uint32_t, const void *, rocr_signal_t *) =
		(int (*)(int64_t, uint32_t, const void *, rocr_signal_t *))dlsym(lib,
										 "hsa_signal_create");
	int (*async)(rocr_signal_t, int, int64_t, rocr_handler_t, void *) =
		(int (*)(rocr_signal_t, int, int64_t, rocr_handler_t, void *))dlsym(
			lib, "hsa_amd_signal_async_handler");
	if (!init || !signal_create || !async)
		return 20;
	if (init() != 0)
		return HL_SKIP; /* no GPU agent (e.g. a host whose topology ROCr refuses) */
	rocr_signal_t s;
	if (signal_create(1, 0, NULL, &s) != 0)
		return 21;
	if (async(s, 0 /* EQ */, 0, on_signal, NULL) != 0)
		return 22;
	sleep_ms(300); /* ROCr's event thread spins a little, then waits in the kernel */
	printf("rocr-noshut: exiting without hsa_shut_down\n");
	fflush(stdout);
	return 0;
}

/* ---- the suite ---- */

static int run(const char *env, const char *mode, char **out)
{
	char *line;
	if (asprintf(&line, "%s KFDEMU_LOG=debug %s -- %s %s 2>&1", env, kfdemu, self, mode) < 0)
		return -1;
	FILE *p = popen(line, "r");
	free(line);
	ck_assert_ptr_nonnull(p);
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), p)) > 0)
		fwrite(buf, 1, n, mem);
	fclose(mem);
	int st = pclose(p);
	*out = text;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void expect_clean_teardown(const char *out)
{
	ck_assert_msg(strstr(out, "EINTR"), "the waiter was not woken:\n%s", out);
	ck_assert_msg(strstr(out, "machine torn down (0 calls inside)"), "no teardown:\n%s", out);
	ck_assert_msg(!strstr(out, "still inside"), "teardown skipped:\n%s", out);
	ck_assert_msg(!strstr(out, "to user code"), "a killed thread ran on:\n%s", out);
	ck_assert_msg(!strstr(out, "Sanitizer"), "sanitizer report:\n%s", out);
}

START_TEST(exit_with_threads_inside_tears_the_machine_down)
{
	char *out;
	int st = run("", "--raw-waiter", &out);
	ck_assert_msg(st == 0, "status %d:\n%s", st, out);
	ck_assert_msg(strstr(out, "raw-waiter: exiting"), "%s", out);
	expect_clean_teardown(out);
	free(out);
}
END_TEST

START_TEST(rocr_exit_without_shut_down_tears_the_machine_down)
{
	if (access(ROCR_LIB, R_OK)) {
		fprintf(stderr, "no %s: skipped\n", ROCR_LIB);
		return;
	}
	char *out;
	/* ROCr is not built with ASan: its own allocations are not ours to
	 * report (the launcher disables leak checks only for programs that
	 * are not sanitized themselves) */
	int st = run("HSA_ENABLE_SDMA=0 ASAN_OPTIONS=detect_leaks=0", "--rocr-noshut", &out);
	if (st == HL_SKIP) {
		fprintf(stderr, "ROCr found no GPU agent: skipped\n%s", out);
		free(out);
		return;
	}
	ck_assert_msg(st == 0, "status %d:\n%s", st, out);
	ck_assert_msg(strstr(out, "rocr-noshut: exiting"), "%s", out);
	expect_clean_teardown(out);
	free(out);
}
END_TEST

static Suite *exit_suite(void)
{
	Suite *s = suite_create("kfdemu_exit");
	TCase *raw = tcase_create("raw");
	tcase_add_test(raw, exit_with_threads_inside_tears_the_machine_down);
	tcase_set_timeout(raw, 60);
	suite_add_tcase(s, raw);
	TCase *rocr = tcase_create("rocr");
	tcase_add_test(rocr, rocr_exit_without_shut_down_tears_the_machine_down);
	tcase_set_timeout(rocr, 120);
	suite_add_tcase(s, rocr);
	return s;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--raw-waiter"))
		return raw_waiter();
	if (argc == 2 && !strcmp(argv[1], "--rocr-noshut"))
		return rocr_noshut();
	if (argc < 2)
		return EXIT_FAILURE;
	kfdemu = argv[1];
	if (!realpath("/proc/self/exe", self))
		return EXIT_FAILURE;
	SRunner *sr = srunner_create(exit_suite());
	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
