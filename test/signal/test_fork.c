/*
 * Signals across fork on kfdemu: the child inherits the parent's slabs,
 * events and service thread as records only (the KFD process is the
 * parent's); after its own hsa_init it gets fresh slabs and events, waits
 * work and handlers run on a thread of its own.  The parent's signals are
 * untouched.  Label emu.
 */
#include <stdatomic.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hl_check.h"
#include "sig_test.h"

static atomic_int child_calls;

static bool count_call(hsa_signal_value_t v, void *arg)
{
	(void)v;
	hsa_signal_t done = *(hsa_signal_t *)arg;
	atomic_fetch_add(&child_calls, 1);
	hsa_signal_store_screlease(done, 1);
	return false;
}

/* Exit codes name the step that failed. */
static int child_main(hsa_signal_t parents)
{
	if (hsa_signal_destroy(parents) != HSA_STATUS_ERROR_NOT_INITIALIZED)
		return 2;
	if (hsa_init() != HSA_STATUS_SUCCESS)
		return 3;
	if (hsa_signal_destroy(parents) != HSA_STATUS_ERROR_INVALID_SIGNAL)
		return 4;
	static hsa_signal_t s, done;
	if (hsa_signal_create(1, 0, NULL, &s) || hsa_signal_create(0, 0, NULL, &done))
		return 5;
	if (!sig_amd(s)->event_mailbox_ptr)
		return 6;
	if (hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_EQ, 0, count_call, &done))
		return 7;
	hsa_signal_store_screlease(s, 0);
	if (hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 1, UINT64_MAX,
				      HSA_WAIT_STATE_BLOCKED) != 1)
		return 8;
	if (atomic_load(&child_calls) != 1)
		return 9;
	if (hsa_signal_destroy(s) || hsa_signal_destroy(done))
		return 10;
	if (hsa_shut_down() != HSA_STATUS_SUCCESS)
		return 11;
	return 0;
}

static bool parent_handler(hsa_signal_value_t v, void *arg)
{
	(void)v;
	(void)arg;
	return true;
}

static void mark_ran(void *arg)
{
	hsa_signal_store_screlease(*(hsa_signal_t *)arg, 1);
}

START_TEST(child_gets_its_own_signals)
{
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	hsa_signal_t s = sig_create(41);
	/* A running service thread in the parent: the child must not rely on
	 * it.  TSan cannot follow a child that starts threads after a fork of
	 * a threaded parent (it reuses the dead thread's id), so under TSan the
	 * parent has none. */
#ifndef __SANITIZE_THREAD__
	ck_status(hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_EQ, -1, parent_handler,
					       NULL), HSA_STATUS_SUCCESS);
	/* Let the thread settle into its sleep: GCC's ASan allocator is not
	 * fork-safe, and a fork while another thread is inside malloc leaves
	 * the child's allocator locked. */
	static hsa_signal_t ran;
	ran = sig_create(0);
	ck_status(hsa_amd_async_function(mark_ran, &ran), HSA_STATUS_SUCCESS);
	ck_value(hsa_signal_wait_scacquire(ran, HSA_SIGNAL_CONDITION_EQ, 1, UINT64_MAX,
					   HSA_WAIT_STATE_BLOCKED), 1);
	usleep(50000);
#else
	(void)parent_handler;
	(void)mark_ran;
#endif
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(child_main(s));
	int status = 0;
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "child failed at step %d (status %#x)", WEXITSTATUS(status), status);
	ck_value(hsa_signal_load_relaxed(s), 41);
	hsa_signal_add_relaxed(s, 1);
	ck_value(hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 42, UINT64_MAX,
					   HSA_WAIT_STATE_BLOCKED), 42);
	ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
#ifndef __SANITIZE_THREAD__
	ck_status(hsa_signal_destroy(ran), HSA_STATUS_SUCCESS);
#endif
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("signal_fork");
	TCase *tc = tcase_create("fork");
	tcase_add_test(tc, child_gets_its_own_signals);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(suite)
