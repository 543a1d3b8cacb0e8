/*
 * Process exit with the runtime still open (issue 22, item 3: the module
 * table runs at hsa_shut_down, at exit and in a fork child).
 *
 * Each case runs in a child process (fork, then exec of this binary with
 * "child <case>": a fresh process whose exit is the real one, with its
 * atexit handlers, LeakSanitizer's check and the libraries' destructors);
 * the parent, which never calls hsa_init, checks the child's exit status
 * and, on hsalite, its log.  A child reports a failed check as its exit
 * status (the step number); a crash or a hang shows as a signal or the
 * timeout, a leak as LeakSanitizer's exit status.
 *
 *   open        exits (returns from main) holding hsa_init's reference, a
 *               queue with an error callback (its service thread), a signal
 *               with an async handler (the async thread), a thread blocked
 *               in hsa_signal_wait_scacquire and memory in two pools.
 *               hsalite's exit step tears all of it down (its log says
 *               so); ROCr leaves it to the process's end.  Exit status 0.
 *   program     an atexit handler the program registers in main runs
 *               before the runtime's exit step, on a live runtime: it
 *               destroys its queue and shuts the runtime down (SUCCESS).
 *   late        a library finalized after the runtime library (a DT_NEEDED
 *               library of lifecycle_exit_late, which dlopens the runtime
 *               later, as a program loads HIP) uses the runtime from its
 *               destructor: a signal keeps its value, an hsa_init /
 *               hsa_shut_down pair works (ROCr 1.18; 5.2.3 answers
 *               OUT_OF_RESOURCES, SUCCESS), exit_late.c; hsalite then tears
 *               down what is left after the last destructor (its log
 *               says so).
 *               LeakSanitizer's exit check runs inside _dl_fini (its
 *               handler belongs to libasan, finalized last), before that
 *               teardown, with the async thread still running: the
 *               runtime, dlopened here, keeps its thread-locals in static
 *               TLS (src/CMakeLists.txt) so the check has no dynamic-TLS
 *               block of that thread to misread.
 *
 * Public API only; LC_PEER=rocr runs it on Debian's ROCr 5.2.3,
 * LC_PEER=rocr118 on ROCr 1.18 (both leave an open runtime to the
 * process's end).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hl_check.h"
#include "lc_test.h"

/* ---- the child ---- */

static const char *child_case; /* set from argv in the child only */

/* A failed check in the child: its exit status, no further handler. */
static void child_fail(int step, const char *what, hsa_status_t got)
{
	fprintf(stderr, "test_exit child %s: step %d: %s: status %#x\n", child_case, step, what,
		(unsigned)got);
	_exit(step);
}

#define child_check(step, expr, expected)                   \
	do {                                                \
		hsa_status_t s_ = (expr);                   \
		if (s_ != (hsa_status_t)(expected))         \
			child_fail((step), #expr, s_);      \
	} while (0)

static bool never_called(hsa_signal_value_t v, void *arg)
{
	(void)v;
	(void)arg;
	return true;
}

static void queue_error(hsa_status_t status, hsa_queue_t *q, void *data)
{
	(void)status;
	(void)q;
	(void)data;
}

static void *waiter_main(void *arg)
{
	hsa_signal_t *s = arg;
	hsa_signal_wait_scacquire(*s, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
				  HSA_WAIT_STATE_BLOCKED);
	return NULL;
}

/* What the program still holds at exit (read by the handlers). */
static hsa_queue_t *held_queue;
static hsa_signal_t held_signal;

static void child_open(void)
{
	struct lc_env env;
	memset(&env, 0, sizeof(env));
	child_check(3, hsa_init(), HSA_STATUS_SUCCESS);
	child_check(4, hsa_iterate_agents(lc_find_agent, &env), HSA_STATUS_SUCCESS);
	if (!env.gpu.handle || !env.sys.handle || !env.vram.handle)
		child_fail(5, "no GPU agent or pools", HSA_STATUS_SUCCESS);
	child_check(10, hsa_queue_create(env.gpu, 64, HSA_QUEUE_TYPE_MULTI, queue_error, NULL,
					 UINT32_MAX, UINT32_MAX, &held_queue),
		    HSA_STATUS_SUCCESS);
	hsa_signal_t handled, waited;
	child_check(11, hsa_signal_create(1, 0, NULL, &handled), HSA_STATUS_SUCCESS);
	child_check(12, hsa_amd_signal_async_handler(handled, HSA_SIGNAL_CONDITION_EQ, 0,
						     never_called, NULL),
		    HSA_STATUS_SUCCESS);
	child_check(13, hsa_signal_create(1, 0, NULL, &waited), HSA_STATUS_SUCCESS);
	static hsa_signal_t waited_copy;
	waited_copy = waited;
	pthread_t waiter;
	if (pthread_create(&waiter, NULL, waiter_main, &waited_copy))
		child_fail(14, "pthread_create", HSA_STATUS_SUCCESS);
	void *a = NULL, *b = NULL;
	child_check(15, hsa_amd_memory_pool_allocate(env.sys, 1 << 20, 0, &a), HSA_STATUS_SUCCESS);
	child_check(16, hsa_amd_memory_pool_allocate(env.vram, 1 << 20, 0, &b), HSA_STATUS_SUCCESS);
	child_check(17, hsa_signal_create(5, 0, NULL, &held_signal), HSA_STATUS_SUCCESS);
	/* return from main: exit(0) with all of it alive */
}

static void program_handler(void)
{
	/* Registered in main, after the runtime's: runs before its exit step. */
	child_check(30, hsa_queue_destroy(held_queue), HSA_STATUS_SUCCESS);
	child_check(31, hsa_signal_destroy(held_signal), HSA_STATUS_SUCCESS);
	child_check(32, hsa_shut_down(), HSA_STATUS_SUCCESS);
	child_check(33, hsa_shut_down(), HSA_STATUS_ERROR_NOT_INITIALIZED);
}

static int child_main(const char *which)
{
	child_case = which;
	child_open();
	if (!strcmp(which, "program"))
		atexit(program_handler);
	else if (strcmp(which, "open"))
		child_fail(2, "unknown case", HSA_STATUS_SUCCESS);
	return 0;
}

/* ---- the parent ---- */

static char self_path[4096];
static char log_path[4200];

static const char *late_binary, *runtime_path; /* argv[1], argv[2] */

/* Runs `child <which>` (the late case: lifecycle_exit_late RUNTIME) and
 * returns its wait status. */
static int run_child(const char *which)
{
	/* the pid in the name: lifecycle_exit and its peer runs are the same
	 * binary, which ctest may run at once, and one run's unlink of the
	 * other's log made it miss its teardown line */
	snprintf(log_path, sizeof(log_path), "%s.%s.%d.log", self_path, which, (int)getpid());
	unlink(log_path);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		setenv("HSALITE_LOG", "info", 1);
		setenv("HSALITE_LOG_FILE", log_path, 1);
		if (!strcmp(which, "late"))
			execl(late_binary, late_binary, runtime_path, (char *)NULL);
		else
			execl("/proc/self/exe", self_path, "child", which, (char *)NULL);
		_exit(127);
	}
	int status = 0;
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	return status;
}

/* Whether a ROCr is under test (LC_PEER set): no hsalite log then. */
static bool peer(void)
{
	return getenv("LC_PEER") != NULL;
}

static void check_exit_0(const char *which, int status)
{
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "child %s: %s %d, expected exit status 0 (a step number is a failed "
		      "check, 23 a leak, a signal a crash)",
		      which, WIFEXITED(status) ? "exit status" : "signal",
		      WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
}

/* Whether hsalite's log says the exit step tore the runtime down. */
static bool log_says_torn_down(void)
{
	char line[512];
	bool found = false;
	FILE *f = fopen(log_path, "r");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, "exit: 1 hsa_init reference(s) outstanding") != NULL;
	fclose(f);
	return found;
}

START_TEST(exit_with_the_runtime_open_tears_it_down)
{
	check_exit_0("open", run_child("open"));
	if (!peer())
		ck_assert_msg(log_says_torn_down(), "no teardown at exit in %s", log_path);
	unlink(log_path); /* kept only when a check failed */
}
END_TEST

START_TEST(program_exit_handlers_run_before_the_exit_step)
{
	check_exit_0("program", run_child("program"));
	if (!peer())
		ck_assert_msg(!log_says_torn_down(), "%s: the program had shut down", log_path);
	unlink(log_path);
}
END_TEST

START_TEST(a_destructor_after_the_runtime_library_still_uses_it)
{
	check_exit_0("late", run_child("late"));
	if (!peer())
		ck_assert_msg(log_says_torn_down(), "no teardown at exit in %s", log_path);
	unlink(log_path); /* kept only when a check failed */
}
END_TEST

static Suite *exit_suite(void)
{
	Suite *s = suite_create("lifecycle_exit");
	TCase *tc = tcase_create("exit");
	tcase_set_timeout(tc, 100);
	tcase_add_test(tc, exit_with_the_runtime_open_tears_it_down);
	tcase_add_test(tc, program_exit_handlers_run_before_the_exit_step);
	tcase_add_test(tc, a_destructor_after_the_runtime_library_still_uses_it);
	suite_add_tcase(s, tc);
	return s;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "child"))
		return child_main(argv[2]);
	if (argc != 3)
		return EXIT_FAILURE;
	late_binary = argv[1];
	runtime_path = argv[2];
	ssize_t n = readlink("/proc/self/exe", self_path, sizeof(self_path) - 1);
	if (n <= 0)
		return EXIT_FAILURE;
	self_path[n] = 0;
	return hl_check_run(exit_suite());
}
