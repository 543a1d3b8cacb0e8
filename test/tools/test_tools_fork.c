/*
 * A fork child's tools (src/tools/load.c, docs/embedding.md): the parent's
 * tool (hl_table_grab, named in HSA_TOOLS_LIB) wraps an entry of the table
 * and registers the runtime-queue notifier; in the child no call reaches
 * the wrapper, before or after the child's own hsa_init, which hands the
 * tool the child's table again (OnLoad), and the notifier is free to be
 * registered anew.  The parent keeps its tool.  Label emu, hsalite only:
 * ROCr's child keeps the parent's tools and runtime, which the HIP
 * documentation calls undefined (ROCr 5.2.3's child dies in it).
 */
#include <check.h>
#include <stdatomic.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hl_check.h"
#include "hsa/hsa.h"
#include "hsa/hsa_ext_amd.h"
#include "table_grab.h"

static atomic_int wrapped_calls;
static hsa_status_t (*real_system_get_info)(hsa_system_info_t, void *);

static hsa_status_t counting_system_get_info(hsa_system_info_t attr, void *value)
{
	atomic_fetch_add(&wrapped_calls, 1);
	return real_system_get_info(attr, value);
}

/* Not exported: tools reach it through the table (AmdExtTable). */
static hsa_status_t register_notifier(hsa_amd_runtime_queue_notifier fn, void *data)
{
	HSA_API_TRACE_TYPE(hsa_amd_runtime_queue_create_register) *reg =
		hl_grabbed_entry("AmdExtTable", "hsa_amd_runtime_queue_create_register_fn");
	return reg ? reg(fn, data) : HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

static void notifier(const hsa_queue_t *q, hsa_agent_t agent, void *data)
{
	(void)q;
	(void)agent;
	(void)data;
}

/* Exit codes name the step that failed. */
static int child_main(void)
{
	uint16_t major = 0;
	int before = atomic_load(&wrapped_calls);
	/* the parent's runtime is gone, and so is its tool's wrapper */
	if (hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major) !=
	    HSA_STATUS_ERROR_NOT_INITIALIZED)
		return 2;
	if (atomic_load(&wrapped_calls) != before)
		return 3;
	if (hsa_init() != HSA_STATUS_SUCCESS)
		return 4;
	/* OnLoad got the child's table, which is hsalite's own again */
	HsaApiTable *t = hl_grabbed_table();
	if (!t || t->core_->hsa_system_get_info_fn == counting_system_get_info)
		return 5;
	if (hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major) != HSA_STATUS_SUCCESS ||
	    major != 1 || atomic_load(&wrapped_calls) != before)
		return 6;
	/* the parent's notifier is not the child's */
	if (register_notifier(notifier, NULL) != HSA_STATUS_SUCCESS)
		return 7;
	if (hsa_shut_down() != HSA_STATUS_SUCCESS)
		return 8;
	return 0;
}

START_TEST(child_has_no_tool_until_its_init)
{
	ck_assert_int_eq(hsa_init(), HSA_STATUS_SUCCESS);
	HsaApiTable *t = hl_grabbed_table();
	ck_assert_msg(t, "HSA_TOOLS_LIB's tool was not loaded");
	real_system_get_info = t->core_->hsa_system_get_info_fn;
	t->core_->hsa_system_get_info_fn = counting_system_get_info;
	ck_assert_int_eq(register_notifier(notifier, NULL),
			 HSA_STATUS_SUCCESS);
	uint16_t major = 0;
	ck_assert_int_eq(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major),
			 HSA_STATUS_SUCCESS);
	ck_assert_int_eq(atomic_load(&wrapped_calls), 1);

	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(child_main());
	int status = 0;
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "child failed at step %d (status %#x)", WEXITSTATUS(status), status);

	/* the parent's tool still wraps its calls */
	ck_assert_int_eq(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major),
			 HSA_STATUS_SUCCESS);
	ck_assert_int_eq(atomic_load(&wrapped_calls), 2);
	t->core_->hsa_system_get_info_fn = real_system_get_info;
	ck_assert_int_eq(hsa_shut_down(), HSA_STATUS_SUCCESS);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("tools_fork");
	TCase *tc = tcase_create("fork");
	tcase_add_test(tc, child_has_no_tool_until_its_init);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(suite)
