/*
 * Events on the kfdemu driver model (kfd_events.c): ids, the signal-event
 * limit of both event-page paths, SET/RESET/DESTROY rules, WAIT_EVENTS
 * (timeout, poll, any/all, auto-reset, event age, a waiter woken from
 * another thread, destroy while waiting), GPU interrupts and the data of
 * memory and hardware exception events.
 */
#include <pthread.h>
#include <stdatomic.h>

#include "emu_fixture.h"
#include "kfd/kemu_priv.h"

static long create_event(uint32_t type, bool auto_reset, uint64_t page, uint32_t *id)
{
	struct kfd_args_create_event a = { .event_type = type, .auto_reset = auto_reset,
					   .event_page_offset = page };
	long r = kio(KFD_IOCTL_CREATE_EVENT, &a);
	if (!r && id)
		*id = a.event_id;
	return r;
}

static long event_op(unsigned long req, uint32_t id)
{
	struct kfd_args_set_event a = { .event_id = id };
	return kio(req, &a);
}

static long wait_events(struct kfd_event_data *ev, uint32_t n, bool all, uint32_t timeout,
			uint32_t *result)
{
	struct kfd_args_wait_events a = { .events_ptr = (uintptr_t)ev, .num_events = n,
					  .wait_for_all = all, .timeout = timeout };
	long r = kio(KFD_IOCTL_WAIT_EVENTS, &a);
	*result = a.wait_result;
	return r;
}

static long wait_one(uint32_t id, uint32_t timeout, uint32_t *result)
{
	struct kfd_event_data d = { .event_id = id };
	return wait_events(&d, 1, false, timeout, result);
}

/* The dGPU path: a 32 KiB GTT BO as event page. */
static uint64_t event_page_bo(void)
{
	uint64_t h;
	emu_buffer(KFD_EVENT_PAGE_SIZE, KFD_ALLOC_GTT, &h);
	return h;
}

/* Number of waiters blocked on an event (white box). */
static uint32_t waiters_on(uint32_t id)
{
	return kemu_event_waiters(E.p, id);
}

START_TEST(first_signal_event_gets_id_1_and_events_offset)
{
	struct kfd_args_create_event a = { .event_type = KFD_EVENT_TYPE_SIGNAL };
	ck_assert_int_eq(kio(KFD_IOCTL_CREATE_EVENT, &a), 0);
	ck_assert_uint_eq(a.event_id, 1);
	ck_assert_uint_eq(a.event_slot_index, 1);
	ck_assert_uint_eq(a.event_trigger_data, 1);
	ck_assert_uint_eq(a.event_page_offset, KFD_MMAP_TYPE_EVENTS);
}
END_TEST

START_TEST(other_events_get_ids_from_0x40000000)
{
	uint32_t a, b;
	ck_assert_int_eq(create_event(KFD_EVENT_TYPE_MEMORY, false, 0, &a), 0);
	ck_assert_int_eq(create_event(KFD_EVENT_TYPE_HW_EXCEPTION, false, 0, &b), 0);
	ck_assert_uint_eq(a, KFD_EVENT_ID_OTHER_FIRST);
	ck_assert_uint_eq(b, KFD_EVENT_ID_OTHER_FIRST + 1);
}
END_TEST

START_TEST(dgpu_event_page_allows_4095_signal_events)
{
	uint64_t page = event_page_bo();
	uint32_t id;
	ck_assert_int_eq(create_event(KFD_EVENT_TYPE_SIGNAL, false, page, &id), 0);
	for (uint32_t i = 2; i < KFD_EVENT_SLOTS; i++) {
		long r = create_event(KFD_EVENT_TYPE_SIGNAL, false, 0, &id);
		ck_assert_msg(r == 0, "event %u: %ld", i, r);
	}
	ck_assert_uint_eq(id, KFD_EVENT_SLOTS - 1);
	long r = create_event(KFD_EVENT_TYPE_SIGNAL, false, 0, &id);
	ck_assert_msg(r == -ENOSPC, "event 4096 returned %ld, expected %d", r, -ENOSPC);
}
END_TEST

START_TEST(kernel_event_page_allows_255_events_until_mmapped)
{
	uint32_t id;
	for (uint32_t i = 1; i < 256; i++)
		ck_assert_int_eq(create_event(KFD_EVENT_TYPE_SIGNAL, false, 0, &id), 0);
	ck_assert_int_eq(create_event(KFD_EVENT_TYPE_SIGNAL, false, 0, &id), -ENOSPC);
	void *page;
	ck_assert_int_eq(kemu_mmap(E.m, NULL, KFD_EVENT_PAGE_SIZE, PROT_READ | PROT_WRITE,
				   MAP_SHARED, E.kfd, KFD_MMAP_TYPE_EVENTS, &page), 0);
	ck_assert_int_eq(create_event(KFD_EVENT_TYPE_SIGNAL, false, 0, &id), 0);
	ck_assert_uint_eq(id, 256);
	ck_assert_uint_eq(((uint64_t *)page)[id], KFD_EVENT_SLOT_UNSIGNALED);
	munmap(page, KFD_EVENT_PAGE_SIZE);
}
END_TEST

START_TEST(events_mmap_of_one_page_is_einval)
{
	uint32_t id;
	ck_assert_int_eq(create_event(KFD_EVENT_TYPE_SIGNAL, false, 0, &id), 0);
	void *page;
	ck_assert_int_eq(kemu_mmap(E.m, NULL, 4096, PROT_READ, MAP_SHARED, E.kfd,
				   KFD_MMAP_TYPE_EVENTS, &page), -EINVAL);
}
END_TEST

START_TEST(events_mmap_before_any_page_is_einval)
{
	void *page;
	ck_assert_int_eq(kemu_mmap(E.m, NULL, KFD_EVENT_PAGE_SIZE, PROT_READ, MAP_SHARED, E.kfd,
				   KFD_MMAP_TYPE_EVENTS, &page), -EINVAL);
}
END_TEST

START_TEST(events_mmap_of_a_bo_page_maps_the_bo)
{
	uint64_t page = event_page_bo();
	uint32_t id;
	ck_assert_int_eq(create_event(KFD_EVENT_TYPE_SIGNAL, false, page, &id), 0);
	uint64_t *cpu;
	ck_assert_int_eq(kemu_mmap(E.m, NULL, KFD_EVENT_PAGE_SIZE, PROT_READ | PROT_WRITE,
				   MAP_SHARED, E.kfd, KFD_MMAP_TYPE_EVENTS, (void **)&cpu), 0);
	ck_assert_uint_eq(cpu[id], KFD_EVENT_SLOT_UNSIGNALED);
	cpu[id] = id;
	ck_assert_uint_eq(E.p->signal_page[id], id);
	munmap(cpu, KFD_EVENT_PAGE_SIZE);
}
END_TEST

START_TEST(second_event_page_is_einval)
{
	uint64_t page = event_page_bo();
	ck_assert_int_eq(create_event(KFD_EVENT_TYPE_SIGNAL, false, page, NULL), 0);
	ck_assert_int_eq(create_event(KFD_EVENT_TYPE_SIGNAL, false, page, NULL), -EINVAL);
}
END_TEST

START_TEST(event_page_with_unknown_handle_is_einval)
{
	ck_assert_int_eq(create_event(KFD_EVENT_TYPE_SIGNAL, false,
				      ((uint64_t)E.gpu_id << 32) | 40, NULL), -EINVAL);
}
END_TEST

START_TEST(free_of_the_event_page_is_eperm)
{
	uint64_t page = event_page_bo();
	ck_assert_int_eq(create_event(KFD_EVENT_TYPE_SIGNAL, false, page, NULL), 0);
	ck_assert_int_eq(emu_unmap(page), 0);
	struct kfd_args_free_memory_of_gpu f = { .handle = page };
	ck_assert_int_eq(kio(KFD_IOCTL_FREE_MEMORY_OF_GPU, &f), -EPERM);
}
END_TEST

START_TEST(destroy_of_unknown_event_is_einval)
{
	ck_assert_int_eq(event_op(KFD_IOCTL_DESTROY_EVENT, 7), -EINVAL);
}
END_TEST

START_TEST(set_of_unknown_event_is_einval)
{
	ck_assert_int_eq(event_op(KFD_IOCTL_SET_EVENT, 3), -EINVAL);
}
END_TEST

START_TEST(set_of_a_memory_event_is_einval)
{
	uint32_t id;
	ck_assert_int_eq(create_event(KFD_EVENT_TYPE_MEMORY, false, 0, &id), 0);
	ck_assert_int_eq(event_op(KFD_IOCTL_SET_EVENT, id), -EINVAL);
	ck_assert_int_eq(event_op(KFD_IOCTL_RESET_EVENT, id), -EINVAL);
}
END_TEST

START_TEST(wait_on_unknown_event_is_einval)
{
	uint32_t res;
	ck_assert_int_eq(wait_one(5, 0, &res), -EINVAL);
	ck_assert_uint_eq(res, KFD_WAIT_FAIL);
}
END_TEST

START_TEST(wait_with_bad_events_pointer_is_efault)
{
	uint32_t res;
	ck_assert_int_eq(wait_events((struct kfd_event_data *)8, 1, false, 0, &res), -EFAULT);
}
END_TEST

START_TEST(wait_on_unsignaled_event_times_out)
{
	uint32_t id, res = 99;
	ck_assert_int_eq(create_event(KFD_EVENT_TYPE_SIGNAL, false, 0, &id), 0);
	ck_assert_int_eq(wait_one(id, 10, &res), 0);
	ck_assert_msg(res == KFD_WAIT_TIMEOUT, "wait_result %u, expected TIMEOUT", res);
	ck_assert_int_eq(wait_one(id, 0, &res), 0);
	ck_assert_msg(res == KFD_WAIT_TIMEOUT, "poll wait_result %u, expected TIMEOUT", res);
}
END_TEST

START_TEST(wait_on_set_event_completes_and_reset_clears)
{
	uint32_t id, res;
	ck_assert_int_eq(create_event(KFD_EVENT_TYPE_SIGNAL, false, 0, &id), 0);
	ck_assert_int_eq(event_op(KFD_IOCTL_SET_EVENT, id), 0);
	ck_assert_int_eq(wait_one(id, 0, &res), 0);
	ck_assert_uint_eq(res, KFD_WAIT_COMPLETE);
	ck_assert_int_eq(wait_one(id, 0, &res), 0);
	ck_assert_uint_eq(res, KFD_WAIT_COMPLETE); /* manual reset: still signaled */
	ck_assert_int_eq(event_op(KFD_IOCTL_RESET_EVENT, id), 0);
	ck_assert_int_eq(wait_one(id, 0, &res), 0);
	ck_assert_uint_eq(res, KFD_WAIT_TIMEOUT);
}
END_TEST

START_TEST(auto_reset_event_is_consumed_by_one_wait)
{
	uint32_t id, res;
	ck_assert_int_eq(create_event(KFD_EVENT_TYPE_SIGNAL, true, 0, &id), 0);
	ck_assert_int_eq(event_op(KFD_IOCTL_SET_EVENT, id), 0);
	ck_assert_int_eq(wait_one(id, 0, &res), 0);
	ck_assert_uint_eq(res, KFD_WAIT_COMPLETE);
	ck_assert_int_eq(wait_one(id, 0, &res), 0);
	ck_assert_msg(res == KFD_WAIT_TIMEOUT, "second wait %u, expected TIMEOUT", res);
}
END_TEST

START_TEST(wait_any_and_wait_all)
{
	uint32_t a, b, res;
	ck_assert_int_eq(create_event(KFD_EVENT_TYPE_SIGNAL, false, 0, &a), 0);
	ck_assert_int_eq(create_event(KFD_EVENT_TYPE_SIGNAL, false, 0, &b), 0);
	ck_assert_int_eq(event_op(KFD_IOCTL_SET_EVENT, b), 0);
	struct kfd_event_data d[2] = { { .event_id = a }, { .event_id = b } };
	ck_assert_int_eq(wait_events(d, 2, false, 0, &res), 0);
	ck_assert_uint_eq(res, KFD_WAIT_COMPLETE);
	ck_assert_int_eq(wait_events(d, 2, true, 0, &res), 0);
	ck_assert_uint_eq(res, KFD_WAIT_TIMEOUT);
	ck_assert_int_eq(event_op(KFD_IOCTL_SET_EVENT, a), 0);
	ck_assert_int_eq(wait_events(d, 2, true, 0, &res), 0);
	ck_assert_uint_eq(res, KFD_WAIT_COMPLETE);
}
END_TEST

START_TEST(event_age_reports_a_missed_signal)
{
	uint32_t id, res;
	ck_assert_int_eq(create_event(KFD_EVENT_TYPE_SIGNAL, true, 0, &id), 0);
	ck_assert_int_eq(event_op(KFD_IOCTL_SET_EVENT, id), 0);
	ck_assert_int_eq(event_op(KFD_IOCTL_RESET_EVENT, id), 0);
	/* unsignaled now, but its age moved on from 1: the waiter saw it */
	struct kfd_event_data d = { .event_id = id };
	d.signal_event_data.last_event_age = 1;
	ck_assert_int_eq(wait_events(&d, 1, false, 0, &res), 0);
	ck_assert_uint_eq(res, KFD_WAIT_COMPLETE);
	ck_assert_uint_eq(d.signal_event_data.last_event_age, 2);
	ck_assert_int_eq(wait_events(&d, 1, false, 0, &res), 0);
	ck_assert_uint_eq(res, KFD_WAIT_TIMEOUT);
}
END_TEST

struct waiter_arg {
	uint32_t id;
	long ret;
	uint32_t result;
};

static void *waiter_thread(void *p)
{
	struct waiter_arg *w = p;
	w->ret = wait_one(w->id, KFD_WAIT_TIMEOUT_INFINITE, &w->result);
	return NULL;
}

static void wait_until_blocked(uint32_t id)
{
	while (waiters_on(id) == 0)
		sched_yield();
}

START_TEST(set_wakes_a_waiter_in_another_thread)
{
	struct waiter_arg w = { .result = 99 };
	ck_assert_int_eq(create_event(KFD_EVENT_TYPE_SIGNAL, true, 0, &w.id), 0);
	pthread_t t;
	ck_assert_int_eq(pthread_create(&t, NULL, waiter_thread, &w), 0);
	wait_until_blocked(w.id);
	ck_assert_int_eq(event_op(KFD_IOCTL_SET_EVENT, w.id), 0);
	pthread_join(t, NULL);
	ck_assert_int_eq(w.ret, 0);
	ck_assert_uint_eq(w.result, KFD_WAIT_COMPLETE);
	/* auto-reset and a waiter was woken: the event stays unsignaled */
	uint32_t res;
	ck_assert_int_eq(wait_one(w.id, 0, &res), 0);
	ck_assert_uint_eq(res, KFD_WAIT_TIMEOUT);
}
END_TEST

START_TEST(destroy_while_waiting_fails_the_wait_with_eio)
{
	struct waiter_arg w = { .result = 99 };
	ck_assert_int_eq(create_event(KFD_EVENT_TYPE_SIGNAL, false, 0, &w.id), 0);
	pthread_t t;
	ck_assert_int_eq(pthread_create(&t, NULL, waiter_thread, &w), 0);
	wait_until_blocked(w.id);
	ck_assert_int_eq(event_op(KFD_IOCTL_DESTROY_EVENT, w.id), 0);
	pthread_join(t, NULL);
	ck_assert_int_eq(w.ret, -EIO);
	ck_assert_uint_eq(w.result, KFD_WAIT_FAIL);
}
END_TEST

/* Process exit (kemu_machine_shutdown, the shim's destructor): a thread
 * blocked in WAIT_EVENTS wakes with -EINTR as under exit_group's SIGKILL,
 * a wait that starts afterwards fails at once, nothing is left inside the
 * model, and the machine tears down (emu_teardown) under ASan. */
START_TEST(shutdown_wakes_a_blocked_wait_with_eintr)
{
	struct waiter_arg w = { .result = 99 };
	ck_assert_int_eq(create_event(KFD_EVENT_TYPE_SIGNAL, false, 0, &w.id), 0);
	pthread_t t;
	ck_assert_int_eq(pthread_create(&t, NULL, waiter_thread, &w), 0);
	wait_until_blocked(w.id);
	ck_assert_uint_eq(kemu_machine_calls_in_flight(E.m), 1);
	kemu_machine_shutdown(E.m);
	pthread_join(t, NULL);
	ck_assert_int_eq(w.ret, -EINTR);
	ck_assert_uint_eq(w.result, KFD_WAIT_FAIL);
	ck_assert_uint_eq(kemu_machine_calls_in_flight(E.m), 0);
	ck_assert_uint_eq(waiters_on(w.id), 0);
	/* a set event does not help: the fatal signal is tested first */
	ck_assert_int_eq(event_op(KFD_IOCTL_SET_EVENT, w.id), 0);
	uint32_t res;
	ck_assert_int_eq(wait_one(w.id, KFD_WAIT_TIMEOUT_INFINITE, &res), -EINTR);
	ck_assert_uint_eq(res, KFD_WAIT_FAIL);
}
END_TEST

START_TEST(interrupt_with_event_id_signals_and_acknowledges_the_slot)
{
	uint64_t page = event_page_bo();
	uint32_t id, res;
	ck_assert_int_eq(create_event(KFD_EVENT_TYPE_SIGNAL, false, page, &id), 0);
	uint64_t *slots = E.p->signal_page;
	ck_assert_uint_eq(slots[id], KFD_EVENT_SLOT_UNSIGNALED);
	slots[id] = id; /* what the CP writes to the mailbox */
	kemu_event_interrupt(E.p, id, 32);
	ck_assert_uint_eq(slots[id], KFD_EVENT_SLOT_UNSIGNALED);
	ck_assert_int_eq(wait_one(id, 0, &res), 0);
	ck_assert_uint_eq(res, KFD_WAIT_COMPLETE);
}
END_TEST

START_TEST(interrupt_with_bad_id_scans_signaled_slots)
{
	uint32_t a, b, res;
	ck_assert_int_eq(create_event(KFD_EVENT_TYPE_SIGNAL, false, 0, &a), 0);
	ck_assert_int_eq(create_event(KFD_EVENT_TYPE_SIGNAL, false, 0, &b), 0);
	E.p->signal_page[b] = 1;
	kemu_event_interrupt(E.p, 0, 32); /* context id 0: no usable id */
	ck_assert_int_eq(wait_one(b, 0, &res), 0);
	ck_assert_uint_eq(res, KFD_WAIT_COMPLETE);
	ck_assert_int_eq(wait_one(a, 0, &res), 0);
	ck_assert_uint_eq(res, KFD_WAIT_TIMEOUT);
}
END_TEST

START_TEST(gpu_page_fault_fills_memory_event_data)
{
	uint32_t id, res;
	ck_assert_int_eq(create_event(KFD_EVENT_TYPE_MEMORY, false, 0, &id), 0);
	struct kemu_vm_fault_info f;
	void *host;
	ck_assert_int_eq(kemu_vm_translate(E.p, E.gpu_id, 0x12345678, 4, KEMU_ACCESS_READ, &host, &f),
			 -EFAULT);
	kemu_vm_fault(E.p, &f);
	struct kfd_event_data d = { .event_id = id };
	ck_assert_int_eq(wait_events(&d, 1, false, 0, &res), 0);
	ck_assert_uint_eq(res, KFD_WAIT_COMPLETE);
	ck_assert_msg(d.memory_exception_data.va == 0x12345000, "va 0x%llx, expected 0x12345000",
		      (unsigned long long)d.memory_exception_data.va);
	ck_assert_uint_eq(d.memory_exception_data.gpu_id, E.gpu_id);
	ck_assert_uint_eq(d.memory_exception_data.failure.NotPresent, 1);
	ck_assert_uint_eq(d.memory_exception_data.failure.ReadOnly, 0);
}
END_TEST

START_TEST(read_only_fault_reports_read_only)
{
	uint32_t id, res;
	ck_assert_int_eq(create_event(KFD_EVENT_TYPE_MEMORY, false, 0, &id), 0);
	uint64_t va = emu_va(0x1000), h;
	ck_assert_int_eq(emu_alloc_at(va, 0x1000, KFD_ALLOC_GTT, &h), 0);
	ck_assert_int_eq(emu_map(h), 0);
	struct kemu_vm_fault_info f;
	uint64_t v = 1;
	ck_assert_int_eq(kemu_vm_write(E.p, E.gpu_id, va + 8, &v, 8, &f), -EFAULT);
	kemu_vm_fault(E.p, &f);
	struct kfd_event_data d = { .event_id = id };
	ck_assert_int_eq(wait_events(&d, 1, false, 0, &res), 0);
	ck_assert_uint_eq(res, KFD_WAIT_COMPLETE);
	ck_assert_uint_eq(d.memory_exception_data.failure.ReadOnly, 1);
	ck_assert_uint_eq(d.memory_exception_data.failure.NotPresent, 0);
	ck_assert_uint_eq(d.memory_exception_data.va, va);
}
END_TEST

START_TEST(gpu_reset_fills_hw_exception_data)
{
	uint32_t id, res;
	ck_assert_int_eq(create_event(KFD_EVENT_TYPE_HW_EXCEPTION, false, 0, &id), 0);
	kemu_gpu_reset(E.p, E.gpu_id, true);
	struct kfd_event_data d = { .event_id = id };
	ck_assert_int_eq(wait_events(&d, 1, false, 0, &res), 0);
	ck_assert_uint_eq(res, KFD_WAIT_COMPLETE);
	ck_assert_uint_eq(d.hw_exception_data.reset_cause, KFD_HW_EXCEPTION_ECC);
	ck_assert_uint_eq(d.hw_exception_data.memory_lost, 1);
	ck_assert_uint_eq(d.hw_exception_data.gpu_id, E.gpu_id);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("kfdemu_events");
	TCase *tc = tcase_create("events");
	tcase_add_checked_fixture(tc, emu_setup, emu_teardown);
	tcase_add_test(tc, first_signal_event_gets_id_1_and_events_offset);
	tcase_add_test(tc, other_events_get_ids_from_0x40000000);
	tcase_add_test(tc, dgpu_event_page_allows_4095_signal_events);
	tcase_add_test(tc, kernel_event_page_allows_255_events_until_mmapped);
	tcase_add_test(tc, events_mmap_of_one_page_is_einval);
	tcase_add_test(tc, events_mmap_before_any_page_is_einval);
	tcase_add_test(tc, events_mmap_of_a_bo_page_maps_the_bo);
	tcase_add_test(tc, second_event_page_is_einval);
	tcase_add_test(tc, event_page_with_unknown_handle_is_einval);
	tcase_add_test(tc, free_of_the_event_page_is_eperm);
	tcase_add_test(tc, destroy_of_unknown_event_is_einval);
	tcase_add_test(tc, set_of_unknown_event_is_einval);
	tcase_add_test(tc, set_of_a_memory_event_is_einval);
	tcase_add_test(tc, wait_on_unknown_event_is_einval);
	tcase_add_test(tc, wait_with_bad_events_pointer_is_efault);
	tcase_add_test(tc, wait_on_unsignaled_event_times_out);
	tcase_add_test(tc, wait_on_set_event_completes_and_reset_clears);
	tcase_add_test(tc, auto_reset_event_is_consumed_by_one_wait);
	tcase_add_test(tc, wait_any_and_wait_all);
	tcase_add_test(tc, event_age_reports_a_missed_signal);
	tcase_add_test(tc, set_wakes_a_waiter_in_another_thread);
	tcase_add_test(tc, destroy_while_waiting_fails_the_wait_with_eio);
	tcase_add_test(tc, shutdown_wakes_a_blocked_wait_with_eintr);
	tcase_add_test(tc, interrupt_with_event_id_signals_and_acknowledges_the_slot);
	tcase_add_test(tc, interrupt_with_bad_id_scans_signaled_slots);
	tcase_add_test(tc, gpu_page_fault_fills_memory_event_data);
	tcase_add_test(tc, read_only_fault_reports_read_only);
	tcase_add_test(tc, gpu_reset_fills_hw_exception_data);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(suite)
