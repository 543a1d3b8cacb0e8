/*
 * Signal argument and handle validation on kfdemu: NULL arguments, unknown
 * and destroyed handles, consumer lists, attributes, and what value calls
 * do on a destroyed handle.  Label emu.
 */
#include <string.h>

#include "hl_check.h"
#include "sig_test.h"

static hsa_agent_t cpu, gpu;
static uint64_t bogus[16] __attribute__((aligned(64)));

static hsa_status_t find_agents(hsa_agent_t agent, void *data)
{
	(void)data;
	hsa_device_type_t type;
	hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type);
	if (type == HSA_DEVICE_TYPE_CPU && !cpu.handle)
		cpu = agent;
	if (type == HSA_DEVICE_TYPE_GPU && !gpu.handle)
		gpu = agent;
	return HSA_STATUS_SUCCESS;
}

static void setup(void)
{
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	cpu.handle = gpu.handle = 0;
	ck_status(hsa_iterate_agents(find_agents, NULL), HSA_STATUS_SUCCESS);
	ck_assert(cpu.handle && gpu.handle);
}

static void teardown(void)
{
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

static hsa_signal_t bogus_signal(void)
{
	return (hsa_signal_t){ (uint64_t)(uintptr_t)bogus };
}

static bool never(hsa_signal_value_t v, void *arg)
{
	(void)v;
	(void)arg;
	return false;
}

START_TEST(create_null_out)
{
	ck_status(hsa_signal_create(0, 0, NULL, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_signal_create(0, 0, NULL, 0, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
}
END_TEST

START_TEST(create_consumers_null_with_count)
{
	hsa_signal_t s;
	ck_status(hsa_signal_create(0, 1, NULL, &s), HSA_STATUS_ERROR_INVALID_ARGUMENT);
}
END_TEST

START_TEST(create_unknown_consumer)
{
	hsa_signal_t s;
	hsa_agent_t bad = { (uint64_t)(uintptr_t)bogus };
	ck_status(hsa_signal_create(0, 1, &bad, &s), HSA_STATUS_ERROR_INVALID_AGENT);
}
END_TEST

START_TEST(create_repeated_consumer)
{
	hsa_signal_t s;
	hsa_agent_t two[2] = { cpu, cpu };
	ck_status(hsa_signal_create(0, 2, two, &s), HSA_STATUS_ERROR_INVALID_ARGUMENT);
}
END_TEST

/* An IPC signal: ROCr's SharedSignal page (the check word at byte 80, no
 * owner at 72), no event (its waits poll), whatever the consumer list. */
START_TEST(create_ipc_shared_page)
{
	hsa_signal_t s;
	ck_status(hsa_amd_signal_create(7, 1, NULL, HSA_AMD_SIGNAL_IPC, &s), HSA_STATUS_SUCCESS);
	amd_signal_t *a = sig_amd(s);
	ck_value(s.handle % 4096, 0);
	ck_value(a->kind, AMD_SIGNAL_KIND_USER);
	ck_value(a->value, 7);
	ck_value(a->event_mailbox_ptr, 0);
	const uint64_t *words = (const uint64_t *)(uintptr_t)s.handle;
	ck_value(words[9], 0);
	ck_value(words[10], 0x71FCCA6A3D5D5276ull);
	hsa_signal_store_screlease(s, 3);
	ck_value(hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 3, UINT64_MAX,
					   HSA_WAIT_STATE_BLOCKED), 3);
	ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
	ck_status(hsa_signal_destroy(s), HSA_STATUS_ERROR_INVALID_SIGNAL);
	ck_value(hsa_signal_load_relaxed(s), 0);
}
END_TEST

START_TEST(create_fills_abi_struct)
{
	hsa_signal_t s;
	ck_status(hsa_signal_create(42, 0, NULL, &s), HSA_STATUS_SUCCESS);
	amd_signal_t *a = sig_amd(s);
	ck_value(s.handle % 64, 0);
	ck_value(a->kind, AMD_SIGNAL_KIND_USER);
	ck_value(a->value, 42);
	ck_assert_msg(a->event_mailbox_ptr != 0, "a CPU-waitable signal has a mailbox");
	ck_assert_msg(a->event_id != 0, "event id 0 is reserved by the kernel");
	/* The mailbox is the event's slot in the event page: unsignalled. */
	ck_value(*(uint64_t *)(uintptr_t)a->event_mailbox_ptr, (long long)~0ull);
	ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(create_gpu_only_has_no_event)
{
	hsa_signal_t s;
	ck_status(hsa_amd_signal_create(1, 0, NULL, HSA_AMD_SIGNAL_AMD_GPU_ONLY, &s),
		  HSA_STATUS_SUCCESS);
	ck_value(sig_amd(s)->event_mailbox_ptr, 0);
	ck_value(sig_amd(s)->event_id, 0);
	ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(create_gpu_consumers_only_has_no_event)
{
	hsa_signal_t s;
	ck_status(hsa_signal_create(1, 1, &gpu, &s), HSA_STATUS_SUCCESS);
	ck_value(sig_amd(s)->event_mailbox_ptr, 0);
	ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
	hsa_agent_t both[2] = { gpu, cpu };
	ck_status(hsa_signal_create(1, 2, both, &s), HSA_STATUS_SUCCESS);
	ck_assert(sig_amd(s)->event_mailbox_ptr != 0);
	ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
}
END_TEST

/* ROCr 5.2.3's Signal::Convert: handle 0 is INVALID_ARGUMENT, any other
 * handle that is not a signal INVALID_SIGNAL (observed on Debian's ROCr
 * under kfdemu: hsa_signal_destroy({0}) = 0x1001, of a zeroed heap block
 * 0x1006). */
START_TEST(destroy_unknown_handle)
{
	ck_status(hsa_signal_destroy(bogus_signal()), HSA_STATUS_ERROR_INVALID_SIGNAL);
	ck_status(hsa_signal_destroy((hsa_signal_t){ 0 }), HSA_STATUS_ERROR_INVALID_ARGUMENT);
}
END_TEST

START_TEST(destroy_twice)
{
	hsa_signal_t s = sig_create(0);
	ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
	ck_status(hsa_signal_destroy(s), HSA_STATUS_ERROR_INVALID_SIGNAL);
}
END_TEST

START_TEST(destroy_misaligned_handle_inside_a_slab)
{
	hsa_signal_t s = sig_create(0);
	hsa_signal_t inside = { s.handle + 8 };
	ck_status(hsa_signal_destroy(inside), HSA_STATUS_ERROR_INVALID_SIGNAL);
	ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(value_pointer_checks)
{
	hsa_signal_t s = sig_create(3);
	volatile hsa_signal_value_t *p = NULL;
	ck_status(hsa_amd_signal_value_pointer(s, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_signal_value_pointer(bogus_signal(), &p),
		  HSA_STATUS_ERROR_INVALID_SIGNAL);
	ck_status(hsa_amd_signal_value_pointer((hsa_signal_t){ 0 }, &p),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_signal_value_pointer(s, &p), HSA_STATUS_SUCCESS);
	ck_assert_ptr_eq((void *)p, (void *)&sig_amd(s)->value);
	ck_value(*p, 3);
	ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_signal_value_pointer(s, &p), HSA_STATUS_ERROR_INVALID_SIGNAL);
}
END_TEST

START_TEST(value_calls_on_destroyed_signal)
{
	hsa_signal_t s = sig_create(5);
	ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
	ck_value(hsa_signal_load_scacquire(s), 0);
	hsa_signal_store_screlease(s, 9);
	hsa_signal_add_relaxed(s, 9);
	ck_value(hsa_signal_exchange_scacq_screl(s, 9), 0);
	ck_value(hsa_signal_cas_scacquire(s, 0, 9), 0);
	ck_value(hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 1, UINT64_MAX,
					   HSA_WAIT_STATE_BLOCKED), 0);
	ck_value(sig_amd(s)->value, 0);
	ck_value(sig_amd(s)->kind, AMD_SIGNAL_KIND_INVALID);
}
END_TEST

START_TEST(value_calls_on_unknown_handle)
{
	amd_signal_t *a = (amd_signal_t *)bogus;
	a->kind = AMD_SIGNAL_KIND_USER;
	a->value = 5;
	ck_value(hsa_signal_load_relaxed(bogus_signal()), 0);
	hsa_signal_store_relaxed(bogus_signal(), 1);
	hsa_signal_xor_acq_rel(bogus_signal(), 1);
	ck_value(a->value, 5);
}
END_TEST

START_TEST(async_handler_checks)
{
	hsa_signal_t s = sig_create(1), g;
	ck_status(hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_EQ, 0, NULL, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_signal_async_handler(s, (hsa_signal_condition_t)9, 0, never, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_signal_async_handler(bogus_signal(), HSA_SIGNAL_CONDITION_EQ, 0, never,
					       NULL), HSA_STATUS_ERROR_INVALID_SIGNAL);
	ck_status(hsa_amd_signal_async_handler((hsa_signal_t){ 0 }, HSA_SIGNAL_CONDITION_EQ, 0,
					       never, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_signal_create(1, 0, NULL, HSA_AMD_SIGNAL_AMD_GPU_ONLY, &g),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_signal_async_handler(g, HSA_SIGNAL_CONDITION_EQ, 0, never, NULL),
		  HSA_STATUS_ERROR_INVALID_SIGNAL);
	ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_EQ, 0, never, NULL),
		  HSA_STATUS_ERROR_INVALID_SIGNAL);
	ck_status(hsa_amd_async_function(NULL, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_signal_destroy(g), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(group_checks)
{
	hsa_signal_t s = sig_create(1), dead = sig_create(1);
	ck_status(hsa_signal_destroy(dead), HSA_STATUS_SUCCESS);
	hsa_signal_group_t g;
	hsa_signal_t two[2] = { s, s };
	hsa_agent_t bad = { (uint64_t)(uintptr_t)bogus };
	ck_status(hsa_signal_group_create(1, &s, 0, NULL, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_signal_group_create(1, NULL, 0, NULL, &g), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_signal_group_create(0, &s, 0, NULL, &g), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_signal_group_create(2, two, 0, NULL, &g), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_signal_group_create(1, &dead, 0, NULL, &g), HSA_STATUS_ERROR_INVALID_SIGNAL);
	hsa_signal_t zero = { 0 };
	ck_status(hsa_signal_group_create(1, &zero, 0, NULL, &g), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_signal_group_create(1, &s, 1, &bad, &g), HSA_STATUS_ERROR_INVALID_AGENT);
	ck_status(hsa_signal_group_create(1, &s, 0, NULL, &g), HSA_STATUS_SUCCESS);

	hsa_signal_condition_t c = HSA_SIGNAL_CONDITION_EQ;
	hsa_signal_value_t v = 1, out_v;
	hsa_signal_t out_s;
	ck_status(hsa_signal_group_wait_any_relaxed(g, NULL, &v, HSA_WAIT_STATE_ACTIVE, &out_s,
						    &out_v), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_signal_group_wait_any_relaxed(g, &c, &v, HSA_WAIT_STATE_ACTIVE, NULL,
						    &out_v), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	hsa_signal_group_t bad_g = { (uint64_t)(uintptr_t)bogus };
	ck_status(hsa_signal_group_wait_any_relaxed(bad_g, &c, &v, HSA_WAIT_STATE_ACTIVE, &out_s,
						    &out_v), HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP);
	ck_status(hsa_signal_group_destroy(bad_g), HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP);
	ck_status(hsa_signal_group_destroy(g), HSA_STATUS_SUCCESS);
	ck_status(hsa_signal_group_destroy(g), HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP);
	ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(wait_any_bad_arguments)
{
	hsa_signal_t s = sig_create(0);
	hsa_signal_condition_t c = HSA_SIGNAL_CONDITION_EQ;
	hsa_signal_value_t v = 0, out;
	ck_value(hsa_amd_signal_wait_any(0, &s, &c, &v, 0, HSA_WAIT_STATE_ACTIVE, &out),
		 UINT32_MAX);
	ck_value(hsa_amd_signal_wait_any(1, NULL, &c, &v, 0, HSA_WAIT_STATE_ACTIVE, &out),
		 UINT32_MAX);
	ck_value(hsa_amd_signal_wait_any(1, &s, NULL, &v, 0, HSA_WAIT_STATE_ACTIVE, &out),
		 UINT32_MAX);
	ck_value(hsa_amd_signal_wait_any(1, &s, &c, NULL, 0, HSA_WAIT_STATE_ACTIVE, &out),
		 UINT32_MAX);
	/* Only unknown or dead handles: nothing to wait for. */
	hsa_signal_t junk[2] = { { 0 }, bogus_signal() };
	hsa_signal_condition_t cs[2] = { c, c };
	hsa_signal_value_t vs[2] = { 0, 0 };
	ck_value(hsa_amd_signal_wait_any(2, junk, cs, vs, UINT64_MAX, HSA_WAIT_STATE_BLOCKED, &out),
		 UINT32_MAX);
	ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(handles_die_with_the_runtime)
{
	hsa_signal_t s = sig_create(7);
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
	/* The slabs are gone: the handle no longer resolves, nothing crashes. */
	ck_value(hsa_signal_load_relaxed(s), 0);
	hsa_signal_store_relaxed(s, 1);
	ck_status(hsa_signal_destroy(s), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	ck_status(hsa_signal_destroy(s), HSA_STATUS_ERROR_INVALID_SIGNAL);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("signal_args");
	TCase *tc = tcase_create("args");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, create_null_out);
	tcase_add_test(tc, create_consumers_null_with_count);
	tcase_add_test(tc, create_unknown_consumer);
	tcase_add_test(tc, create_repeated_consumer);
	tcase_add_test(tc, create_ipc_shared_page);
	tcase_add_test(tc, create_fills_abi_struct);
	tcase_add_test(tc, create_gpu_only_has_no_event);
	tcase_add_test(tc, create_gpu_consumers_only_has_no_event);
	tcase_add_test(tc, destroy_unknown_handle);
	tcase_add_test(tc, destroy_twice);
	tcase_add_test(tc, destroy_misaligned_handle_inside_a_slab);
	tcase_add_test(tc, value_pointer_checks);
	tcase_add_test(tc, value_calls_on_destroyed_signal);
	tcase_add_test(tc, value_calls_on_unknown_handle);
	tcase_add_test(tc, async_handler_checks);
	tcase_add_test(tc, group_checks);
	tcase_add_test(tc, wait_any_bad_arguments);
	tcase_add_test(tc, handles_die_with_the_runtime);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(suite)
