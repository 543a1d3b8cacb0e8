/*
 * Fork: a child inherits the parent's queues (and, in the parent, a
 * running error service) but none of them is usable there; the child
 * gets NOT_INITIALIZED until it calls hsa_init, then creates and destroys
 * its own queues, and the parent's queues keep working.  With
 * HL_PARENT_LIVE=0 the parent destroys its queue before forking (the child
 * still inherits the module's state: registry, page pool, runtime).  With
 * HL_PARENT_CALLBACK=1 the parent's queue has a callback, so its error
 * service thread runs across the fork (not under TSan, which cannot start
 * threads in the child of a threaded fork).  Label emu.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hl_check.h"
#include "q_test.h"

static void callback(hsa_status_t status, hsa_queue_t *source, void *data)
{
	(void)status;
	(void)source;
	(void)data;
}

/* The child's checks, as an exit code: 0 when all hold, else the step. */
static int child(hsa_queue_t *inherited)
{
	hsa_queue_t *q = NULL;
	if (hsa_queue_destroy(inherited) != HSA_STATUS_ERROR_NOT_INITIALIZED)
		return 1;
	if (hsa_init() != HSA_STATUS_SUCCESS)
		return 2;
	q_cpu.handle = q_gpu.handle = 0;
	hsa_iterate_agents(q_find_agents, NULL);
	if (hsa_queue_destroy(inherited) != HSA_STATUS_ERROR_INVALID_QUEUE)
		return 3;
	if (hsa_queue_create(q_gpu, 64, HSA_QUEUE_TYPE_MULTI, callback, NULL, 0, 0, &q) !=
	    HSA_STATUS_SUCCESS)
		return 4;
	if (hsa_queue_add_write_index_relaxed(q, 1) != 0)
		return 5;
	if (hsa_queue_destroy(q) != HSA_STATUS_SUCCESS)
		return 6;
	if (hsa_shut_down() != HSA_STATUS_SUCCESS)
		return 7;
	return 0;
}

START_TEST(child_gets_its_own_queues_and_parent_keeps_its)
{
	q_init();
	const char *e = getenv("HL_PARENT_CALLBACK");
	bool with_thread = e && atoi(e);
	hsa_queue_t *q = NULL;
	ck_status(hsa_queue_create(q_gpu, 64, HSA_QUEUE_TYPE_MULTI, with_thread ? callback : NULL,
				   NULL, 0, 0, &q),
		  HSA_STATUS_SUCCESS);
	const char *live_env = getenv("HL_PARENT_LIVE");
	bool live = !live_env || atoi(live_env);
	if (!live)
		ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
	fflush(NULL);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(child(q));
	int status = 0;
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "child failed at step %d (status %#x)", WEXITSTATUS(status), status);
	if (live) {
		ck_status(hsa_amd_queue_set_priority(q, HSA_AMD_QUEUE_PRIORITY_HIGH),
			  HSA_STATUS_SUCCESS);
		ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
	}
	q_fini();
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("queue_fork");
	TCase *tc = tcase_create("fork");
	tcase_add_test(tc, child_gets_its_own_queues_and_parent_keeps_its);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(suite)
