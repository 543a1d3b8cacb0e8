/*
 * Soft queues (src/queue/soft.c): hsa_soft_queue_create builds a queue in
 * the caller's region that no hardware reads; a consumer thread (the
 * "agent") waits on the doorbell signal, reads AGENT_DISPATCH packets from
 * the read index up to the doorbell value, completes each one's signal,
 * frees the slot and stores the read index.  The producer pushes more
 * packets than the ring holds, so slots are reused.  Label emu.
 */
#include <pthread.h>
#include <string.h>

#include "hl_check.h"
#include "q_test.h"

#define SOFT_SIZE    64u
#define SOFT_PACKETS 1000u
#define SOFT_TYPE    0x5ABC

static hsa_region_t sys_region;

static hsa_status_t find_region(hsa_region_t region, void *data)
{
	(void)data;
	hsa_region_segment_t seg;
	hsa_region_get_info(region, HSA_REGION_INFO_SEGMENT, &seg);
	if (seg == HSA_REGION_SEGMENT_GLOBAL) {
		sys_region = region;
		return HSA_STATUS_INFO_BREAK;
	}
	return HSA_STATUS_SUCCESS;
}

static void setup(void)
{
	q_init();
	sys_region.handle = 0;
	hsa_agent_iterate_regions(q_cpu, find_region, NULL);
	ck_assert(sys_region.handle);
}

static void teardown(void)
{
	q_fini();
}

struct consumer {
	hsa_queue_t *q;
	uint64_t seen;     /* packets consumed */
	uint64_t sum;      /* of arg[0] */
	bool bad;          /* a packet not as produced */
};

static void *consume(void *arg)
{
	struct consumer *c = arg;
	hsa_queue_t *q = c->q;
	hsa_agent_dispatch_packet_t *ring = q->base_address;
	uint64_t rd = hsa_queue_load_read_index_relaxed(q);
	while (c->seen < SOFT_PACKETS) {
		/* The doorbell carries the index of the last packet published. */
		hsa_signal_value_t db = hsa_signal_wait_scacquire(q->doorbell_signal,
								  HSA_SIGNAL_CONDITION_GTE,
								  (hsa_signal_value_t)rd, UINT64_MAX,
								  HSA_WAIT_STATE_BLOCKED);
		while (rd <= (uint64_t)db) {
			hsa_agent_dispatch_packet_t *p = &ring[rd % q->size];
			uint16_t h = __atomic_load_n(&p->header, __ATOMIC_ACQUIRE);
			if ((h & 0xFF) != HSA_PACKET_TYPE_AGENT_DISPATCH || p->type != SOFT_TYPE ||
			    p->arg[1] != rd)
				c->bad = true;
			c->sum += p->arg[0];
			hsa_signal_t done = p->completion_signal;
			__atomic_store_n(&p->header, HSA_PACKET_TYPE_INVALID, __ATOMIC_RELAXED);
			rd++;
			/* The slot is free: the producer may reuse it. */
			hsa_queue_store_read_index_screlease(q, rd);
			hsa_signal_subtract_screlease(done, 1);
			c->seen++;
		}
	}
	return NULL;
}

START_TEST(a_soft_queue_takes_packets)
{
	hsa_signal_t doorbell, done;
	ck_status(hsa_signal_create(-1, 0, NULL, &doorbell), HSA_STATUS_SUCCESS);
	ck_status(hsa_signal_create(SOFT_PACKETS, 0, NULL, &done), HSA_STATUS_SUCCESS);
	hsa_queue_t *q = NULL;
	ck_status(hsa_soft_queue_create(sys_region, SOFT_SIZE, HSA_QUEUE_TYPE_MULTI,
					HSA_QUEUE_FEATURE_AGENT_DISPATCH, doorbell, &q),
		  HSA_STATUS_SUCCESS);
	ck_assert_ptr_nonnull(q);
	ck_assert_uint_eq(q->size, SOFT_SIZE);
	ck_assert_uint_eq(q->type, HSA_QUEUE_TYPE_MULTI);
	ck_assert_uint_eq(q->features, HSA_QUEUE_FEATURE_AGENT_DISPATCH);
	ck_assert_uint_eq(q->doorbell_signal.handle, doorbell.handle);
	ck_assert_uint_eq(q_amd(q)->queue_properties & AMD_QUEUE_PROPERTIES_IS_PTR64,
			  AMD_QUEUE_PROPERTIES_IS_PTR64);
	ck_assert_uint_eq(hsa_queue_load_read_index_relaxed(q), 0);
	ck_assert_uint_eq(hsa_queue_load_write_index_relaxed(q), 0);
	hsa_agent_dispatch_packet_t *ring = q->base_address;
	for (uint32_t i = 0; i < SOFT_SIZE; i++)
		ck_assert_uint_eq(ring[i].header, HSA_PACKET_TYPE_INVALID);

	struct consumer c = { .q = q };
	pthread_t t;
	ck_assert_int_eq(pthread_create(&t, NULL, consume, &c), 0);
	uint64_t want = 0;
	for (uint64_t i = 0; i < SOFT_PACKETS; i++) {
		uint64_t idx = hsa_queue_add_write_index_screlease(q, 1);
		while (idx - hsa_queue_load_read_index_scacquire(q) >= q->size)
			; /* full: wait for the consumer */
		hsa_agent_dispatch_packet_t *p = &ring[idx % q->size];
		memset((char *)p + 4, 0, sizeof(*p) - 4);
		p->type = SOFT_TYPE;
		p->arg[0] = i * 3 + 1;
		p->arg[1] = idx;
		p->completion_signal = done;
		want += i * 3 + 1;
		uint32_t word = HSA_PACKET_TYPE_AGENT_DISPATCH |
				(uint32_t)SOFT_TYPE << 16;
		__atomic_store_n((uint32_t *)p, word, __ATOMIC_RELEASE);
		hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)idx);
	}
	ck_assert_int_eq(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
						   HSA_WAIT_STATE_BLOCKED), 0);
	pthread_join(t, NULL);
	ck_assert(!c.bad);
	ck_assert_uint_eq(c.seen, SOFT_PACKETS);
	ck_assert_uint_eq(c.sum, want);
	ck_assert_uint_eq(hsa_queue_load_read_index_scacquire(q), SOFT_PACKETS);
	ck_assert_uint_eq(hsa_queue_load_write_index_scacquire(q), SOFT_PACKETS);

	/* Not a hardware queue: ROCr's HostQueue answers these so. */
	uint32_t mask[2] = { 1, 0 };
	ck_status(hsa_amd_queue_cu_set_mask(q, 32, mask), HSA_STATUS_ERROR_INVALID_QUEUE);
	ck_status(hsa_amd_queue_set_priority(q, HSA_AMD_QUEUE_PRIORITY_HIGH),
		  HSA_STATUS_ERROR_INVALID_QUEUE);
	ck_status(hsa_amd_profiling_set_profiler_enabled(q, 1), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(q_amd(q)->queue_properties & AMD_QUEUE_PROPERTIES_ENABLE_PROFILING,
			  AMD_QUEUE_PROPERTIES_ENABLE_PROFILING);
	ck_status(hsa_amd_profiling_set_profiler_enabled(q, 0), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(q_amd(q)->queue_properties & AMD_QUEUE_PROPERTIES_ENABLE_PROFILING, 0);
	ck_status(hsa_queue_inactivate(q), HSA_STATUS_SUCCESS);
	ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
	ck_status(hsa_queue_destroy(q), HSA_STATUS_ERROR_INVALID_QUEUE);
	ck_status(hsa_signal_destroy(doorbell), HSA_STATUS_SUCCESS);
	ck_status(hsa_signal_destroy(done), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(ids_are_unique_and_hardware_read_index_is_the_cp_s)
{
	hsa_signal_t doorbell;
	ck_status(hsa_signal_create(0, 0, NULL, &doorbell), HSA_STATUS_SUCCESS);
	hsa_queue_t *soft = NULL, *hw = q_create(64, HSA_QUEUE_TYPE_SINGLE);
	ck_status(hsa_soft_queue_create(sys_region, 128, HSA_QUEUE_TYPE_SINGLE,
					HSA_QUEUE_FEATURE_AGENT_DISPATCH, doorbell, &soft),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_ne(soft->id, hw->id);
	hsa_queue_store_read_index_relaxed(soft, 7);
	ck_assert_uint_eq(hsa_queue_load_read_index_relaxed(soft), 7);
	hsa_queue_store_read_index_relaxed(hw, 7);
	ck_assert_uint_eq(hsa_queue_load_read_index_relaxed(hw), 0);
	hsa_region_t bad = { 8 };
	hsa_queue_t *q;
	ck_status(hsa_soft_queue_create(bad, 64, HSA_QUEUE_TYPE_MULTI,
					HSA_QUEUE_FEATURE_AGENT_DISPATCH, doorbell, &q),
		  HSA_STATUS_ERROR_INVALID_REGION);
	hsa_signal_t zombie;
	ck_status(hsa_signal_create(0, 0, NULL, &zombie), HSA_STATUS_SUCCESS);
	ck_status(hsa_signal_destroy(zombie), HSA_STATUS_SUCCESS);
	ck_status(hsa_soft_queue_create(sys_region, 64, HSA_QUEUE_TYPE_MULTI,
					HSA_QUEUE_FEATURE_AGENT_DISPATCH, zombie, &q),
		  HSA_STATUS_ERROR_INVALID_SIGNAL);
	ck_status(hsa_queue_destroy(hw), HSA_STATUS_SUCCESS);
	/* soft is left to hsa_shut_down (teardown). */
	ck_status(hsa_signal_destroy(doorbell), HSA_STATUS_SUCCESS);
}
END_TEST

static Suite *soft_suite(void)
{
	Suite *s = suite_create("queue_soft");
	TCase *tc = tcase_create("soft");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, a_soft_queue_takes_packets);
	tcase_add_test(tc, ids_are_unique_and_hardware_read_index_is_the_cp_s);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(soft_suite)
