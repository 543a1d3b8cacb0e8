/*
 * A fork child's tools (src/tools/load.c, docs/embedding.md): the parent's
 * tool (hl_table_grab, named in HSA_TOOLS_LIB) wraps an entry of the table
 * and registers the runtime-queue notifier; in the child no call reaches
 * the wrapper, before or after the child's own hsa_init, which hands the
 * tool the child's table again (OnLoad), and the notifier is free to be
 * registered anew.  The parent keeps its tool.  Label emu, hsalite only:
 * ROCr's child keeps the parent's tools and runtime, which the HIP
 * documentation calls undefined (ROCr 5.2.3's child dies in it).
 *
 * Case "intercept" (plain builds only: the parent forks with kfdemu's CP
 * threads running, as test/fork's queue case): the parent's intercept
 * queue, interceptor registered and a packet run through it, is none of
 * the child's: a store to its doorbell in the child runs no interceptor,
 * the child's hsa_amd_queue_intercept_register refuses it
 * (HSA_STATUS_ERROR_INVALID_QUEUE), and the child's own intercept queue
 * works; the parent's goes on working after the child exits.
 */
#include <check.h>
#include <stdatomic.h>
#include <string.h>
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

/* ---- case "intercept" ---- */

#define WAIT_NS (30ull * 1000 * 1000 * 1000)

static atomic_int parent_seen, child_seen;

static void count_packets(const void *p, uint64_t n, uint64_t idx, void *data,
			  hsa_amd_queue_intercept_packet_writer w)
{
	(void)idx;
	atomic_fetch_add((atomic_int *)data, (int)n);
	w(p, n);
}

static hsa_status_t first_gpu(hsa_agent_t a, void *data)
{
	hsa_device_type_t type;
	if (hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &type) == HSA_STATUS_SUCCESS &&
	    type == HSA_DEVICE_TYPE_GPU) {
		*(hsa_agent_t *)data = a;
		return HSA_STATUS_INFO_BREAK;
	}
	return HSA_STATUS_SUCCESS;
}

/* An intercept queue on the first GPU with count_packets(counter) on it,
 * through the table this runtime's OnLoad got; NULL on any failure. */
static hsa_queue_t *counted_intercept_queue(atomic_int *counter)
{
	HSA_API_TRACE_TYPE(hsa_amd_queue_intercept_create) *create =
		hl_grabbed_entry("AmdExtTable", "hsa_amd_queue_intercept_create_fn");
	HSA_API_TRACE_TYPE(hsa_amd_queue_intercept_register) *reg =
		hl_grabbed_entry("AmdExtTable", "hsa_amd_queue_intercept_register_fn");
	hsa_agent_t gpu = { 0 };
	hsa_queue_t *q = NULL;

	if (!create || !reg || hsa_iterate_agents(first_gpu, &gpu) != HSA_STATUS_INFO_BREAK ||
	    create(gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &q) !=
		    HSA_STATUS_SUCCESS)
		return NULL;
	if (reg(q, count_packets, counter) != HSA_STATUS_SUCCESS) {
		hsa_queue_destroy(q);
		return NULL;
	}
	return q;
}

/* One barrier through q, waited for; true when it completed. */
static bool run_barrier(hsa_queue_t *q)
{
	hsa_signal_t s;
	if (hsa_signal_create(1, 0, NULL, &s) != HSA_STATUS_SUCCESS)
		return false;
	hsa_barrier_and_packet_t p;
	memset(&p, 0, sizeof(p));
	p.completion_signal = s;
	uint64_t idx = hsa_queue_add_write_index_screlease(q, 1);
	hsa_barrier_and_packet_t *slot =
		(hsa_barrier_and_packet_t *)q->base_address + (idx & (q->size - 1));
	memcpy((char *)slot + 2, (const char *)&p + 2, sizeof(p) - 2);
	__atomic_store_n(&slot->header,
			 (uint16_t)((HSA_PACKET_TYPE_BARRIER_AND << HSA_PACKET_HEADER_TYPE) |
				    (1 << HSA_PACKET_HEADER_BARRIER) |
				    (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
				    (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE)),
			 __ATOMIC_RELEASE);
	hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)idx);
	bool done = hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 0, WAIT_NS,
					      HSA_WAIT_STATE_BLOCKED) == 0;
	hsa_signal_destroy(s);
	return done;
}

/* Exit codes name the step that failed. */
static int intercept_child_main(hsa_queue_t *parents)
{
	int parent_before = atomic_load(&parent_seen);
	/* the parent's proxy doorbell: no interceptor runs, nothing breaks */
	hsa_signal_store_screlease(parents->doorbell_signal, 1);
	if (atomic_load(&parent_seen) != parent_before)
		return 2;
	if (hsa_init() != HSA_STATUS_SUCCESS)
		return 3;
	HSA_API_TRACE_TYPE(hsa_amd_queue_intercept_register) *reg =
		hl_grabbed_entry("AmdExtTable", "hsa_amd_queue_intercept_register_fn");
	if (!reg || reg(parents, count_packets, &child_seen) != HSA_STATUS_ERROR_INVALID_QUEUE)
		return 4;
	hsa_queue_t *mine = counted_intercept_queue(&child_seen);
	if (!mine)
		return 5;
	if (!run_barrier(mine) || atomic_load(&child_seen) != 1 ||
	    atomic_load(&parent_seen) != parent_before)
		return 6;
	if (hsa_queue_destroy(mine) != HSA_STATUS_SUCCESS)
		return 7;
	if (hsa_shut_down() != HSA_STATUS_SUCCESS)
		return 8;
	return 0;
}

START_TEST(child_has_none_of_the_parents_intercept_queues)
{
	ck_assert_int_eq(hsa_init(), HSA_STATUS_SUCCESS);
	hsa_queue_t *q = counted_intercept_queue(&parent_seen);
	ck_assert_ptr_nonnull(q);
	ck_assert(run_barrier(q));
	ck_assert_int_eq(atomic_load(&parent_seen), 1);

	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(intercept_child_main(q));
	int status = 0;
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "child failed at step %d (status %#x)", WEXITSTATUS(status), status);

	ck_assert(run_barrier(q));
	ck_assert_int_eq(atomic_load(&parent_seen), 2);
	ck_assert_int_eq(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(hsa_shut_down(), HSA_STATUS_SUCCESS);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("tools_fork");
	TCase *tc = tcase_create("fork");
	tcase_add_test(tc, child_has_no_tool_until_its_init);
	suite_add_tcase(s, tc);
	TCase *ic = tcase_create("intercept");
	tcase_set_timeout(ic, 120);
	tcase_add_test(ic, child_has_none_of_the_parents_intercept_queues);
	suite_add_tcase(s, ic);
	return s;
}

HL_CHECK_MAIN(suite)
