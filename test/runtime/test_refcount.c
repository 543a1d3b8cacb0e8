/*
 * runtime.c's bookkeeping without a device (label unit): the file is
 * compiled into this test with the thunk and the agent builder stubbed, so
 * the reference count can be put next to INT32_MAX without two billion
 * hsa_init calls, and the module table's steps can be observed.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "hl_check.h"
#include "../../src/runtime/runtime.c"

/* ---- stubs for what runtime.c calls ---- */
static struct kfd_process fake_proc;
static bool fake_forked; /* what the thunk's fork step would make true */
int kfd_process_open(struct kfd_process **out)
{
	fake_forked = false;
	*out = &fake_proc;
	return 0;
}
void kfd_process_close(struct kfd_process *proc) { (void)proc; }
void kfd_process_leave_to_exit(struct kfd_process *proc) { (void)proc; }
bool kfd_process_forked(const struct kfd_process *proc) { return proc == &fake_proc && fake_forked; }
int hl_agents_build(struct hl_runtime *rt) { (void)rt; return 0; }
void hl_agents_destroy(struct hl_runtime *rt) { (void)rt; }
void hl_system_events_destroy(struct hl_runtime *rt) { (void)rt; }
void hl_system_event_shutdown(struct hl_runtime *rt) { (void)rt; }
void hl_env_read(struct hl_env *env) { memset(env, 0, sizeof(*env)); }
/* Two fake modules, a below b, recording their steps in `order`; b's
 * attach fails while fail_b_attach is set. */
static char order[16];
static int n_order;
static bool fail_b_attach;
static void step(char c) { if (n_order < (int)sizeof(order)) order[n_order++] = c; }
static int attach_a(struct hl_runtime *rt) { (void)rt; step('A'); return 0; }
static int attach_b(struct hl_runtime *rt)
{
	(void)rt;
	step('B');
	return fail_b_attach ? -ENOMEM : 0;
}
static void teardown_a(struct hl_runtime *rt) { (void)rt; step('a'); }
static void teardown_b(struct hl_runtime *rt) { (void)rt; step('b'); }
static void fork_child_a(void) { step('f'); }
static void fork_child_b(void) { step('g'); }
static void forget_a(struct hl_runtime *rt) { (void)rt; step('x'); }
static void forget_b(struct hl_runtime *rt) { (void)rt; step('y'); }
/* b alone has the steps around a working runtime: opened after every
 * attach, closing before every teardown */
static void opened_b(struct hl_runtime *rt) { (void)rt; step('O'); }
static void closing_b(struct hl_runtime *rt) { (void)rt; step('C'); }
static const struct hl_module test_modules[] = {
	{ .name = "runtime" },
	{ "a", attach_a, teardown_a, fork_child_a, forget_a, NULL, NULL },
	{ "b", attach_b, teardown_b, fork_child_b, forget_b, opened_b, closing_b },
};
/* src/modules.c's hsa_init, with the fake table. */
hsa_status_t hsa_init(void)
{
	return hl_runtime_init(test_modules, 3);
}

static void order_reset(void)
{
	memset(order, 0, sizeof(order));
	n_order = 0;
}
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

START_TEST(modules_attach_in_order_and_tear_down_in_reverse_once)
{
	order_reset();
	ck_assert_int_eq(hsa_init(), HSA_STATUS_SUCCESS);
	ck_assert_str_eq(order, "ABO");
	ck_assert_int_eq(hsa_init(), HSA_STATUS_SUCCESS); /* counts only */
	ck_assert_int_eq(hsa_shut_down(), HSA_STATUS_SUCCESS);
	ck_assert_str_eq(order, "ABO"); /* not the last shutdown */
	ck_assert_int_eq(hsa_shut_down(), HSA_STATUS_SUCCESS);
	ck_assert_str_eq(order, "ABOCba");
}
END_TEST

START_TEST(a_failed_attach_undoes_the_modules_attached)
{
	order_reset();
	fail_b_attach = true;
	ck_assert_int_eq(hsa_init(), HSA_STATUS_ERROR_OUT_OF_RESOURCES);
	fail_b_attach = false;
	/* b undoes its own partial attach, then a */
	ck_assert_str_eq(order, "ABba");
	ck_assert_ptr_null(hl_runtime_get());
	ck_assert_int_eq(hsa_shut_down(), HSA_STATUS_ERROR_NOT_INITIALIZED);
}
END_TEST

START_TEST(a_fork_child_runs_fork_child_then_forget_top_down)
{
	ck_assert_int_eq(hsa_init(), HSA_STATUS_SUCCESS);
	order_reset();
	/* What the atfork child handler does, and what the child's first
	 * call then finds (the thunk's fork step, not in this table, made
	 * the KFD process the parent's). */
	atfork_prepare();
	atfork_child();
	ck_assert_str_eq(order, "gf");
	fake_forked = true;
	ck_assert_ptr_null(hl_runtime_get());
	ck_assert_str_eq(order, "gfyx");
	ck_assert_int_eq(hsa_shut_down(), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_assert_str_eq(order, "gfyx"); /* no teardown of the parent's state */
}
END_TEST

static Suite *refcount_suite(void)
{
	Suite *s = suite_create("runtime_refcount");
	TCase *tc = tcase_create("refcount");
	tcase_add_test(tc, init_at_int32_max_is_refcount_overflow);
	tcase_add_test(tc, modules_attach_in_order_and_tear_down_in_reverse_once);
	tcase_add_test(tc, a_failed_attach_undoes_the_modules_attached);
	tcase_add_test(tc, a_fork_child_runs_fork_child_then_forget_top_down);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(refcount_suite)
