/*
 * runtime.c's bookkeeping without a device (label unit): the file is
 * compiled into this test with the thunk and the agent builder stubbed, so
 * the reference count can be put next to INT32_MAX without two billion
 * hsa_init calls, and the teardown hooks can be observed.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "hl_check.h"
#include "../../src/runtime/runtime.c"

/* ---- stubs for what runtime.c calls ---- */
static struct kfd_process fake_proc;
int kfd_process_open(struct kfd_process **out)
{
	fake_proc.pid = getpid();
	*out = &fake_proc;
	return 0;
}
void kfd_process_close(struct kfd_process *proc) { (void)proc; }
bool kfd_process_forked(const struct kfd_process *proc) { return proc->pid != getpid(); }
int hl_agents_build(struct hl_runtime *rt) { (void)rt; return 0; }
void hl_agents_destroy(struct hl_runtime *rt) { (void)rt; }
void hl_memory_release_all(struct hl_runtime *rt) { (void)rt; }
void hl_memory_forget_all(struct hl_runtime *rt) { (void)rt; }
void hl_system_events_destroy(struct hl_runtime *rt) { (void)rt; }
void hl_env_read(struct hl_env *env) { memset(env, 0, sizeof(*env)); }
/* No module above the runtime: its own bookkeeping is what is tested. */
const struct hl_module hl_modules[] = { { .name = "runtime" } };
const uint32_t hl_n_modules = 1;
hsa_status_t hl_status_init_failure(int err)
{
	(void)err;
	return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
}

START_TEST(init_at_int32_max_is_refcount_overflow)
{
	ck_assert_int_eq(hsa_init(), HSA_STATUS_SUCCESS);
	hl_refcount = INT32_MAX; /* as if INT32_MAX inits had succeeded */
	ck_assert_int_eq(hsa_init(), HSA_STATUS_ERROR_REFCOUNT_OVERFLOW);
	ck_assert_int_eq(hl_refcount, INT32_MAX);
	hl_refcount = 1;
	ck_assert_int_eq(hsa_shut_down(), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(hsa_shut_down(), HSA_STATUS_ERROR_NOT_INITIALIZED);
}
END_TEST

static int order[8], n_order;
static void teardown_a(struct hl_runtime *rt) { (void)rt; order[n_order++] = 'a'; }
static void teardown_b(struct hl_runtime *rt) { (void)rt; order[n_order++] = 'b'; }

START_TEST(teardown_hooks_run_once_in_reverse_order)
{
	ck_assert_int_eq(hsa_init(), HSA_STATUS_SUCCESS);
	struct hl_runtime *rt = hl_runtime_get();
	n_order = 0;
	ck_assert_int_eq(hl_runtime_on_teardown(rt, teardown_a), 0);
	ck_assert_int_eq(hl_runtime_on_teardown(rt, teardown_b), 0);
	ck_assert_int_eq(hl_runtime_on_teardown(rt, teardown_a), 0); /* ignored */
	ck_assert_int_eq(hsa_init(), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(hsa_shut_down(), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(n_order, 0); /* not the last shutdown */
	ck_assert_int_eq(hsa_shut_down(), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(n_order, 2);
	ck_assert_int_eq(order[0], 'b');
	ck_assert_int_eq(order[1], 'a');
}
END_TEST

#define HOOK(n) static void hook##n(struct hl_runtime *rt) { (void)rt; }
HOOK(0) HOOK(1) HOOK(2) HOOK(3) HOOK(4) HOOK(5) HOOK(6) HOOK(7) HOOK(8)

START_TEST(teardown_hooks_beyond_the_table_are_refused)
{
	void (*hooks[])(struct hl_runtime *) = { hook0, hook1, hook2, hook3, hook4,
						 hook5, hook6, hook7, hook8 };
	ck_assert_int_eq(hsa_init(), HSA_STATUS_SUCCESS);
	struct hl_runtime *rt = hl_runtime_get();
	for (int i = 0; i < HL_TEARDOWN_MAX; i++)
		ck_assert_int_eq(hl_runtime_on_teardown(rt, hooks[i]), 0);
	ck_assert_int_eq(hl_runtime_on_teardown(rt, hooks[HL_TEARDOWN_MAX]), -ENOSPC);
	ck_assert_int_eq(hsa_shut_down(), HSA_STATUS_SUCCESS);
}
END_TEST

static Suite *refcount_suite(void)
{
	Suite *s = suite_create("runtime_refcount");
	TCase *tc = tcase_create("refcount");
	tcase_add_test(tc, init_at_int32_max_is_refcount_overflow);
	tcase_add_test(tc, teardown_hooks_run_once_in_reverse_order);
	tcase_add_test(tc, teardown_hooks_beyond_the_table_are_refused);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(refcount_suite)
