/*
 * The signal module's and the counted-queue pool's state belongs to one
 * runtime (rt->signals, rt->queues->counted): each init/shut_down cycle
 * starts afresh with what the last one left live (signals, groups, a
 * handler still registered, counted queues never released), a fork child's
 * own runtime starts afresh from the parent's, and hsa_shut_down called from
 * an async handler (the service thread cannot join itself) leaves nothing
 * behind that the next runtime or the detached thread trips over (ASan and
 * LSan watch for both).  The fork case is a binary of its own
 * (signal_cycles_fork, SIG_FORK_CASE), built without sanitizers only: the
 * parent's counted queue runs kfdemu's CP threads in the process, and
 * neither GCC's ASan allocator nor TSan survives a fork of a threaded
 * parent.  Label emu; hsalite only: neither ROCr 5.2.3 nor
 * ROCr 1.18 has the counted queues (interface 1.16) every case uses.
 */
#include <stdatomic.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hl_check.h"
#include "sig_test.h"

static hsa_status_t pick_gpu(hsa_agent_t agent, void *data)
{
	hsa_device_type_t type;
	if (hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type) == HSA_STATUS_SUCCESS &&
	    type == HSA_DEVICE_TYPE_GPU) {
		*(hsa_agent_t *)data = agent;
		return HSA_STATUS_INFO_BREAK;
	}
	return HSA_STATUS_SUCCESS;
}

static hsa_agent_t gpu(void)
{
	hsa_agent_t a = { 0 };
	hsa_iterate_agents(pick_gpu, &a);
	ck_assert_msg(a.handle, "no GPU agent");
	return a;
}

static bool keep_handler(hsa_signal_value_t v, void *arg)
{
	(void)v;
	(void)arg;
	return true;
}

static bool signal_done(hsa_signal_value_t v, void *arg)
{
	(void)v;
	hsa_signal_store_screlease(*(hsa_signal_t *)arg, 1);
	return false;
}

/* Exit codes and assertion messages name the step that failed. */
static int use_runtime(int step)
{
	static hsa_signal_t s, done;
	if (hsa_signal_create(1, 0, NULL, &s) || hsa_signal_create(0, 0, NULL, &done))
		return step + 1;
	/* the service thread of this runtime runs a handler */
	if (hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_EQ, 0, signal_done, &done))
		return step + 2;
	hsa_signal_store_screlease(s, 0);
	if (hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 1, UINT64_MAX,
				      HSA_WAIT_STATE_BLOCKED) != 1)
		return step + 3;
	/* a group of this runtime's signals */
	hsa_signal_group_t g;
	hsa_signal_t members[2] = { s, done };
	if (hsa_signal_group_create(2, members, 0, NULL, &g))
		return step + 4;
	hsa_signal_condition_t conds[2] = { HSA_SIGNAL_CONDITION_EQ, HSA_SIGNAL_CONDITION_EQ };
	hsa_signal_value_t cmp[2] = { 5, 1 };
	hsa_signal_t which = { 0 };
	hsa_signal_value_t v = 0;
	if (hsa_signal_group_wait_any_scacquire(g, conds, cmp, HSA_WAIT_STATE_BLOCKED, &which,
						&v) ||
	    which.handle != done.handle || v != 1)
		return step + 5;
	/* the counted-queue pool is empty: the first acquire makes a
	 * hardware queue used once */
	hsa_agent_t agent = { 0 };
	hsa_iterate_agents(pick_gpu, &agent);
	hsa_queue_t *q = NULL;
	if (!agent.handle ||
	    hsa_amd_counted_queue_acquire(agent, HSA_QUEUE_TYPE_MULTI,
					  HSA_AMD_QUEUE_PRIORITY_NORMAL, NULL, NULL, 0, &q))
		return step + 6;
	uint32_t uses = 0;
	if (hsa_amd_queue_get_info(q, HSA_QUEUE_INFO_USE_COUNT, &uses) || uses != 1)
		return step + 7;
	/* left live for the shut_down to free: a handler still registered,
	 * the group, both signals, the counted queue */
	if (hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_EQ, 7, keep_handler, NULL))
		return step + 8;
	return 0;
}

#ifndef SIG_FORK_CASE
START_TEST(cycles_start_afresh)
{
	for (int cycle = 0; cycle < 3; cycle++) {
		ck_status(hsa_init(), HSA_STATUS_SUCCESS);
		(void)gpu();
		int failed = use_runtime(10 * cycle);
		ck_assert_msg(!failed, "cycle %d: step %d", cycle, failed);
		ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
	}
}
END_TEST

static atomic_int shut_in_handler = -1;

static bool shut_down_here(hsa_signal_value_t v, void *arg)
{
	(void)v;
	(void)arg;
	atomic_store(&shut_in_handler, (int)hsa_shut_down());
	return false;
}

/* hsa_shut_down from the service thread: it detaches itself; what it reads
 * after the handler returns must outlive the runtime it served. */
START_TEST(shut_down_from_a_handler)
{
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	hsa_signal_t s = sig_create(1);
	ck_status(hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_EQ, 0, shut_down_here,
					       NULL), HSA_STATUS_SUCCESS);
	hsa_signal_store_screlease(s, 0);
	while (atomic_load(&shut_in_handler) < 0)
		usleep(1000);
	ck_status(atomic_load(&shut_in_handler), HSA_STATUS_SUCCESS);
	/* the detached thread leaves: no service thread of ours remains */
	for (int i = 0; i < 5000 && sig_threads_named(SIG_SERVICE_THREAD) > 0; i++)
		usleep(1000);
	ck_value(sig_threads_named(SIG_SERVICE_THREAD), 0);
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	int failed = use_runtime(0);
	ck_assert_msg(!failed, "after the handler's shut_down: step %d", failed);
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
}
END_TEST

#else
START_TEST(fork_child_starts_afresh)
{
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	/* the parent's pool and groups hold records when it forks */
	hsa_queue_t *q = NULL;
	ck_status(hsa_amd_counted_queue_acquire(gpu(), HSA_QUEUE_TYPE_MULTI,
						HSA_AMD_QUEUE_PRIORITY_NORMAL, NULL, NULL, 0, &q),
		  HSA_STATUS_SUCCESS);
	hsa_signal_t s = sig_create(3);
	hsa_signal_group_t g;
	ck_status(hsa_signal_group_create(1, &s, 0, NULL, &g), HSA_STATUS_SUCCESS);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		/* the parent's handles are nothing here until our own init */
		if (hsa_amd_counted_queue_release(q) != HSA_STATUS_ERROR_NOT_INITIALIZED)
			_exit(1);
		if (hsa_signal_load_relaxed(s) != 0)
			_exit(2);
		if (hsa_init() != HSA_STATUS_SUCCESS)
			_exit(3);
		if (hsa_signal_group_destroy(g) != HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP)
			_exit(4);
		int failed = use_runtime(10);
		if (failed)
			_exit(failed);
		_exit(hsa_shut_down() == HSA_STATUS_SUCCESS ? 0 : 30);
	}
	int status = 0;
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "child failed at step %d (status %#x)", WEXITSTATUS(status), status);
	/* the parent's records are untouched */
	ck_value(hsa_signal_load_relaxed(s), 3);
	uint32_t uses = 0;
	ck_status(hsa_amd_queue_get_info(q, HSA_QUEUE_INFO_USE_COUNT, &uses),
		  HSA_STATUS_SUCCESS);
	ck_value(uses, 1);
	ck_status(hsa_signal_group_destroy(g), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_counted_queue_release(q), HSA_STATUS_SUCCESS);
	ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
}
END_TEST
#endif

static Suite *suite(void)
{
	Suite *s = suite_create("signal_cycles");
	TCase *tc = tcase_create("cycles");
	tcase_set_timeout(tc, 120);
#ifdef SIG_FORK_CASE
	tcase_add_test(tc, fork_child_starts_afresh);
#else
	tcase_add_test(tc, cycles_start_afresh);
	tcase_add_test(tc, shut_down_from_a_handler);
#endif
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(suite)
