/*
 * Queue errors raised by kfdemu's command processor, end to end: a bad
 * packet stops the queue, the CP writes its code into queue_inactive_signal
 * and interrupts, and the queue's callback gets ROCr's status; a GPU page
 * fault (a barrier whose dependency signal is not mapped) reaches the system
 * event handler first (which takes it, so the process lives on), then every
 * queue of the GPU as MEMORY_FAULT, through KFD's MEMORY event; profiling
 * timestamps come back through hsa_amd_profiling_get_dispatch_time.
 * Without a CP (packets are not consumed within a short bound) the suite
 * exits 77 (skipped).  Label emu.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hl_check.h"
#include "q_test.h"

#define CP_PROBE_NS 2000000000ull

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
struct seen {
	int calls;
	hsa_status_t status;
	int faults_before;      /* system event handler calls at the callback */
};
static int faults;              /* under lock */
static hsa_amd_gpu_memory_fault_info_t fault;

static hsa_status_t on_fault(const hsa_amd_event_t *ev, void *data)
{
	(void)data;
	pthread_mutex_lock(&lock);
	faults++;
	fault = ev->memory_fault;
	pthread_mutex_unlock(&lock);
	return HSA_STATUS_SUCCESS;
}

static void callback(hsa_status_t status, hsa_queue_t *source, void *data)
{
	(void)source;
	struct seen *s = data;
	pthread_mutex_lock(&lock);
	s->calls++;
	s->status = status;
	s->faults_before = faults;
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
}

/* Waits for the first callback; ctest's TIMEOUT bounds a lost one. */
static hsa_status_t wait_callback(struct seen *s)
{
	pthread_mutex_lock(&lock);
	while (!s->calls)
		pthread_cond_wait(&cond, &lock);
	hsa_status_t st = s->status;
	pthread_mutex_unlock(&lock);
	return st;
}

static hsa_queue_t *create_watched(struct seen *s)
{
	hsa_queue_t *q = NULL;
	memset(s, 0, sizeof(*s));
	ck_status(hsa_queue_create(q_gpu, 64, HSA_QUEUE_TYPE_MULTI, callback, s, 0, 0, &q),
		  HSA_STATUS_SUCCESS);
	return q;
}

/* Writes body (64 bytes, header word first) into the next slot, publishes
 * the header word with a release store and rings the doorbell. */
static void publish(hsa_queue_t *q, const void *body)
{
	uint64_t idx = hsa_queue_add_write_index_screlease(q, 1);
	uint8_t *slot = (uint8_t *)q->base_address + (idx & (q->size - 1)) * 64;
	memcpy(slot + 4, (const uint8_t *)body + 4, 60);
	uint32_t word;
	memcpy(&word, body, 4);
	__atomic_store_n((uint32_t *)slot, word, __ATOMIC_RELEASE);
	hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)idx);
}

static uint16_t header(unsigned type)
{
	return (uint16_t)(type << HSA_PACKET_HEADER_TYPE |
			  HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE |
			  HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE);
}

static void barrier(hsa_queue_t *q, uint64_t dep, hsa_signal_t completion)
{
	hsa_barrier_and_packet_t p;
	memset(&p, 0, sizeof(p));
	p.header = header(HSA_PACKET_TYPE_BARRIER_AND);
	p.dep_signal[0].handle = dep;
	p.completion_signal = completion;
	publish(q, &p);
}

static void setup(void)
{
	q_init();
	/* Is there a CP?  One barrier with a completion signal. */
	hsa_queue_t *q = q_create(64, HSA_QUEUE_TYPE_MULTI);
	hsa_signal_t s;
	ck_status(hsa_signal_create(1, 0, NULL, &s), HSA_STATUS_SUCCESS);
	barrier(q, 0, s);
	hsa_signal_value_t v = hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 0, CP_PROBE_NS,
							 HSA_WAIT_STATE_BLOCKED);
	/* Queue first: once DESTROY_QUEUE returns the CP no longer reads the
	 * completion signal (it reads its mailbox after the decrement). */
	hsa_queue_destroy(q);
	hsa_signal_destroy(s);
	if (v != 0) {
		printf("no command processor consumed the packet: skipping\n");
		q_fini();
		exit(HL_SKIP);
	}
}

static void teardown(void) { q_fini(); }

START_TEST(bad_packet_type_is_invalid_packet_format)
{
	struct seen s;
	hsa_queue_t *q = create_watched(&s);
	uint8_t p[64] = { 0 };
	uint16_t h = header(7); /* a reserved packet type */
	memcpy(p, &h, 2);
	publish(q, p);
	ck_status(wait_callback(&s), HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
	ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(null_kernel_object_is_invalid_code_object)
{
	struct seen s;
	hsa_queue_t *q = create_watched(&s);
	hsa_kernel_dispatch_packet_t p;
	memset(&p, 0, sizeof(p));
	p.header = header(HSA_PACKET_TYPE_KERNEL_DISPATCH);
	p.setup = 1;
	p.workgroup_size_x = p.workgroup_size_y = p.workgroup_size_z = 1;
	p.grid_size_x = p.grid_size_y = p.grid_size_z = 1;
	publish(q, &p);
	ck_status(wait_callback(&s), HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
	ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(zero_dimensions_are_incompatible_arguments)
{
	struct seen s;
	hsa_queue_t *q = create_watched(&s);
	hsa_kernel_dispatch_packet_t p;
	memset(&p, 0, sizeof(p));
	p.header = header(HSA_PACKET_TYPE_KERNEL_DISPATCH);
	p.setup = 0; /* no dimensions */
	publish(q, &p);
	ck_status(wait_callback(&s), HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS);
	ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(page_fault_stops_every_queue_of_the_gpu)
{
	struct seen a, b;
	faults = 0;
	ck_status(hsa_amd_register_system_event_handler(on_fault, NULL), HSA_STATUS_SUCCESS);
	hsa_queue_t *qa = create_watched(&a);
	hsa_queue_t *qb = create_watched(&b);
	hsa_signal_t none = { 0 };
	/* A dependency signal in the GPUVM range that nothing maps; the CP
	 * reads its value at +8, KFD reports the page. */
	barrier(qa, 0x7f0000000000ull, none);
	ck_status(wait_callback(&a), HSA_STATUS_ERROR_MEMORY_FAULT);
	ck_status(wait_callback(&b), HSA_STATUS_ERROR_MEMORY_FAULT);
	ck_assert_int_eq(a.faults_before, 1);
	ck_assert_int_eq(b.faults_before, 1);
	ck_assert_uint_eq(fault.agent.handle, q_gpu.handle);
	ck_assert_uint_eq(fault.virtual_address, 0x7f0000000000ull);
	ck_assert_uint_eq(fault.fault_reason_mask, HSA_AMD_MEMORY_FAULT_PAGE_NOT_PRESENT);
	ck_status(hsa_queue_destroy(qa), HSA_STATUS_SUCCESS);
	ck_status(hsa_queue_destroy(qb), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(profiled_barrier_has_ordered_timestamps)
{
	hsa_queue_t *q = q_create(64, HSA_QUEUE_TYPE_MULTI);
	ck_status(hsa_amd_profiling_set_profiler_enabled(q, 1), HSA_STATUS_SUCCESS);
	hsa_signal_t s;
	ck_status(hsa_signal_create(1, 0, NULL, &s), HSA_STATUS_SUCCESS);
	uint64_t before = 0, after = 0;
	ck_status(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &before), HSA_STATUS_SUCCESS);
	barrier(q, 0, s);
	ck_assert_int_eq(hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
						   HSA_WAIT_STATE_BLOCKED), 0);
	ck_status(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &after), HSA_STATUS_SUCCESS);
	hsa_amd_profiling_dispatch_time_t t;
	ck_status(hsa_amd_profiling_get_dispatch_time(q_gpu, s, &t), HSA_STATUS_SUCCESS);
	ck_assert_uint_ne(t.start, 0);
	ck_assert_uint_le(t.start, t.end);
	/* Within the host's window, give or take the conversion's error. */
	ck_assert_msg(t.start + 1000000 >= before && t.end <= after + 1000000,
		      "dispatch [%llu, %llu] outside host window [%llu, %llu]",
		      (unsigned long long)t.start, (unsigned long long)t.end,
		      (unsigned long long)before, (unsigned long long)after);
	ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
	ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("queue_cp_errors");
	TCase *tc = tcase_create("cp_errors");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, bad_packet_type_is_invalid_packet_format);
	tcase_add_test(tc, null_kernel_object_is_invalid_code_object);
	tcase_add_test(tc, zero_dimensions_are_incompatible_arguments);
	tcase_add_test(tc, page_fault_stops_every_queue_of_the_gpu);
	tcase_add_test(tc, profiled_barrier_has_ordered_timestamps);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(suite)
