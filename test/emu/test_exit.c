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
 *   --fork-waiter   the same, and a fork child that exits first
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
#include "hl_popen.h"
#include "amd/kfd_uapi.h"

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
static _Atomic pid_t waiter_tid;

static void *blocked_waiter(void *arg)
{
	(void)arg;
	waiter_tid = gettid();
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
		sleep_ms(1); /* keeps the debug log short */
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
	/* wait until the waiter sleeps in futex (202), i.e. on its condvar
	 * inside WAIT_EVENTS */
	for (int i = 0; i < 5000; i++) {
		char path[64], line[32] = "";
		snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", (int)waiter_tid);
		FILE *f = waiter_tid ? fopen(path, "r") : NULL;
		if (f) {
			bool in_futex = fgets(line, sizeof(line), f) && !strncmp(line, "202 ", 4);
			fclose(f);
			if (in_futex)
				break;
		}
		sleep_ms(1);
	}
	sleep_ms(20);
	printf("raw-waiter: exiting with both threads inside\n");
	fflush(stdout);
	return 0;
}

/* A fork child of a process whose thread waits in WAIT_EVENTS has none of
 * its parent's threads: its exit must neither wait for them nor touch its
 * copy of the machine (a lock may be held in it), and the parent then
 * exits as above. */
static int fork_waiter(void)
{
	int r = raw_waiter();
	if (r)
		return r;
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0)
		return 13;
	if (pid == 0)
		exit(0); /* destructors run: the shim's teardown of the copy */
	int st;
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		return 14;
	printf("fork-waiter: child exited\n");
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
	int st = hl_popen_read(line, out);
	free(line);
	ck_assert_msg(st != -1, "could not run the launcher");
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The end of a long log, small enough for a Check message. */
static const char *tail(const char *out)
{
	size_t n = strlen(out);
	return n > 3000 ? out + n - 3000 : out;
}

static void expect_clean_teardown(const char *out)
{
	ck_assert_msg(strstr(out, "EINTR"), "the waiter was not woken:\n%s", tail(out));
	ck_assert_msg(strstr(out, "machine torn down (0 calls inside)"), "no teardown:\n%s",
		      tail(out));
	ck_assert_msg(!strstr(out, "still inside"), "teardown skipped:\n%s", tail(out));
	ck_assert_msg(!strstr(out, "to user code"), "a killed thread ran on:\n%s", tail(out));
	ck_assert_msg(!strstr(out, "Sanitizer"), "sanitizer report:\n%s", tail(out));
}

START_TEST(exit_with_threads_inside_tears_the_machine_down)
{
	char *out;
	int st = run("", "--raw-waiter", &out);
	ck_assert_msg(st == 0, "status %d:\n%s", st, tail(out));
	ck_assert_msg(strstr(out, "raw-waiter: exiting"), "%s", tail(out));
	expect_clean_teardown(out);
	free(out);
}
END_TEST

START_TEST(fork_child_of_a_waiting_process_exits_at_once)
{
	char *out;
	int st = run("", "--fork-waiter", &out);
	ck_assert_msg(st == 0, "status %d:\n%s", st, tail(out));
	ck_assert_msg(strstr(out, "fork-waiter: child exited"), "%s", tail(out));
	/* only the parent tears its machine down */
	const char *first = strstr(out, "machine torn down");
	ck_assert_msg(first && !strstr(first + 1, "machine torn down"),
		      "one teardown expected:\n%s", tail(out));
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
	ck_assert_msg(st == 0, "status %d:\n%s", st, tail(out));
	ck_assert_msg(strstr(out, "rocr-noshut: exiting"), "%s", tail(out));
	expect_clean_teardown(out);
	free(out);
}
END_TEST

static Suite *exit_suite(void)
{
	Suite *s = suite_create("kfdemu_exit");
	TCase *raw = tcase_create("raw");
	tcase_add_test(raw, exit_with_threads_inside_tears_the_machine_down);
	tcase_add_test(raw, fork_child_of_a_waiting_process_exits_at_once);
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
	if (argc == 2 && !strcmp(argv[1], "--fork-waiter"))
		return fork_waiter();
	if (argc == 2 && !strcmp(argv[1], "--rocr-noshut"))
		return rocr_noshut();
	if (argc < 2)
		return EXIT_FAILURE;
	kfdemu = argv[1];
	if (!realpath("/proc/self/exe", self))
		return EXIT_FAILURE;
	return hl_check_run(exit_suite());
}
