/*
 * hsa_init / hsa_shut_down on a (emulated) device: reference counting, calls
 * after the last shutdown, concurrent init and shutdown, no thread created,
 * and what a fork child sees.  Label emu: runs under kfdemu.
 */
#include <dirent.h>
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hl_check.h"
#include "rt_test.h"

static hsa_status_t first_agent(hsa_agent_t agent, void *data)
{
	*(hsa_agent_t *)data = agent;
	return HSA_STATUS_INFO_BREAK;
}

static int thread_count(void)
{
	DIR *d = opendir("/proc/self/task");
	ck_assert_msg(d != NULL, "cannot open /proc/self/task");
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

START_TEST(init_and_shut_down_succeed)
{
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(init_is_reference_counted)
{
	for (int i = 0; i < 3; i++)
		ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	for (int i = 0; i < 2; i++) {
		ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
		uint16_t major = 0;
		ck_status(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major),
			  HSA_STATUS_SUCCESS);
	}
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
	ck_status(hsa_shut_down(), HSA_STATUS_ERROR_NOT_INITIALIZED);
}
END_TEST

START_TEST(calls_after_last_shut_down_are_not_initialized)
{
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	hsa_agent_t agent = { 0 };
	ck_status(hsa_iterate_agents(first_agent, &agent), HSA_STATUS_INFO_BREAK);
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
	uint32_t node;
	ck_status(hsa_agent_get_info(agent, HSA_AGENT_INFO_NODE, &node),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_iterate_agents(first_agent, &agent), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_shut_down(), HSA_STATUS_ERROR_NOT_INITIALIZED);
}
END_TEST

START_TEST(reinit_after_shut_down_works)
{
	for (int i = 0; i < 3; i++) {
		ck_status(hsa_init(), HSA_STATUS_SUCCESS);
		hsa_agent_t agent = { 0 };
		ck_status(hsa_iterate_agents(first_agent, &agent), HSA_STATUS_INFO_BREAK);
		ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
	}
}
END_TEST

#define N_THREADS 8

static void *init_thread(void *arg)
{
	*(hsa_status_t *)arg = hsa_init();
	return NULL;
}

static void *shut_down_thread(void *arg)
{
	*(hsa_status_t *)arg = hsa_shut_down();
	return NULL;
}

static void run_threads(void *(*fn)(void *), hsa_status_t *status)
{
	pthread_t t[N_THREADS];
	for (int i = 0; i < N_THREADS; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, fn, &status[i]), 0);
	for (int i = 0; i < N_THREADS; i++)
		pthread_join(t[i], NULL);
}

START_TEST(concurrent_init_and_shut_down_balance)
{
	hsa_status_t status[N_THREADS];
	run_threads(init_thread, status);
	for (int i = 0; i < N_THREADS; i++)
		ck_status(status[i], HSA_STATUS_SUCCESS);
	run_threads(shut_down_thread, status);
	for (int i = 0; i < N_THREADS; i++)
		ck_status(status[i], HSA_STATUS_SUCCESS);
	ck_status(hsa_shut_down(), HSA_STATUS_ERROR_NOT_INITIALIZED);
}
END_TEST

START_TEST(init_creates_no_thread)
{
	int before = thread_count();
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	int after = thread_count();
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
	ck_assert_msg(after == before, "threads after hsa_init: %d, expected %d", after, before);
}
END_TEST

/* In the child: 0 when every expectation holds, else the failing step. */
static int fork_child_checks(void)
{
	uint16_t major;
	if (hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major) !=
	    HSA_STATUS_ERROR_NOT_INITIALIZED)
		return 1;
	if (hsa_shut_down() != HSA_STATUS_ERROR_NOT_INITIALIZED)
		return 2;
	/* The child opens the device for itself. */
	if (hsa_init() != HSA_STATUS_SUCCESS)
		return 3;
	if (hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major) != HSA_STATUS_SUCCESS)
		return 4;
	if (hsa_shut_down() != HSA_STATUS_SUCCESS)
		return 5;
	return 0;
}

START_TEST(fork_child_does_not_use_the_parent_runtime)
{
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(fork_child_checks());
	int wstatus = 0;
	ck_assert_int_eq(waitpid(pid, &wstatus, 0), pid);
	ck_assert_msg(WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0,
		      "child failed at step %d", WEXITSTATUS(wstatus));
	/* The parent's runtime is untouched. */
	uint16_t major = 0;
	ck_status(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major), HSA_STATUS_SUCCESS);
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
}
END_TEST

/* The child's checks on the parent's executable: after its own hsa_init
 * the handle is not one of the child's runtime (the loader forgets the
 * parent's registry with the parent's runtime). */
static int fork_child_executable_checks(hsa_executable_t parent_exe)
{
	hsa_executable_state_t state;
	if (hsa_init() != HSA_STATUS_SUCCESS)
		return 1;
	if (hsa_executable_get_info(parent_exe, HSA_EXECUTABLE_INFO_STATE, &state) !=
	    HSA_STATUS_ERROR_INVALID_EXECUTABLE)
		return 2;
	if (hsa_executable_destroy(parent_exe) != HSA_STATUS_ERROR_INVALID_EXECUTABLE)
		return 3;
	hsa_executable_t mine;
	if (hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
				      NULL, &mine) != HSA_STATUS_SUCCESS ||
	    hsa_executable_destroy(mine) != HSA_STATUS_SUCCESS)
		return 4;
	return hsa_shut_down() == HSA_STATUS_SUCCESS ? 0 : 5;
}

START_TEST(fork_child_does_not_find_the_parent_executables)
{
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	hsa_executable_t exe;
	ck_status(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
					    NULL, &exe),
		  HSA_STATUS_SUCCESS);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(fork_child_executable_checks(exe));
	int wstatus = 0;
	ck_assert_int_eq(waitpid(pid, &wstatus, 0), pid);
	ck_assert_msg(WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0,
		      "child failed at step %d (2, 3: the parent's executable was found)",
		      WEXITSTATUS(wstatus));
	hsa_executable_state_t state;
	ck_status(hsa_executable_get_info(exe, HSA_EXECUTABLE_INFO_STATE, &state),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_destroy(exe), HSA_STATUS_SUCCESS);
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
}
END_TEST

static Suite *init_suite(void)
{
	Suite *s = suite_create("runtime_init");
	TCase *tc = tcase_create("init");
	tcase_add_test(tc, init_and_shut_down_succeed);
	tcase_add_test(tc, init_is_reference_counted);
	tcase_add_test(tc, calls_after_last_shut_down_are_not_initialized);
	tcase_add_test(tc, reinit_after_shut_down_works);
	tcase_add_test(tc, concurrent_init_and_shut_down_balance);
	tcase_add_test(tc, init_creates_no_thread);
	tcase_add_test(tc, fork_child_does_not_use_the_parent_runtime);
	tcase_add_test(tc, fork_child_does_not_find_the_parent_executables);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(init_suite)
