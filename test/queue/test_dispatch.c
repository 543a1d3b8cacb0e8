/*
 * Dispatch stress: two producer threads publish BARRIER_AND packets with
 * completion signals on one MULTI queue and ring the doorbell; every packet
 * must execute exactly once, counted through the completion signals: each
 * packet has its own signal at 1 that the CP decrements, so exactly once
 * leaves it at 0 (never -1), and the read index ends at the packet count.
 *
 * The count is the issue's: 100 000 packets per thread, or HL_QUEUE_PACKETS
 * (the TSan variant runs a smaller count).
 *
 * This needs a command processor.  Until kfdemu has one, nothing consumes
 * the packets: the first packet is given a short bound to be consumed, and
 * the test exits with 77 (ctest: skipped) if it was not.  Labels emu and
 * stress.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hl_check.h"
#include "q_test.h"

#define PACKETS_DEFAULT 100000u
#define CP_PROBE_NS 2000000000ull /* 2 s for the first packet: "is there a CP?" */

static hsa_queue_t *q;
static hsa_signal_t probe;
static uint32_t PACKETS_PER_THREAD = PACKETS_DEFAULT;

static uint16_t barrier_header(void)
{
	return (uint16_t)(HSA_PACKET_TYPE_BARRIER_AND << HSA_PACKET_HEADER_TYPE |
			  1 << HSA_PACKET_HEADER_BARRIER |
			  HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE |
			  HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE);
}

/* The HSA submission protocol: reserve, wait for room, write the body,
 * publish the header with a release store, ring the doorbell. */
static void submit(hsa_signal_t completion)
{
	uint64_t idx = hsa_queue_add_write_index_screlease(q, 1);
	while (idx - hsa_queue_load_read_index_scacquire(q) >= q->size)
		;
	hsa_barrier_and_packet_t *slot =
		(hsa_barrier_and_packet_t *)q->base_address + (idx & (q->size - 1));
	memset((char *)slot + 4, 0, sizeof(*slot) - 4);
	slot->completion_signal = completion;
	__atomic_store_n((uint32_t *)slot, barrier_header(), __ATOMIC_RELEASE);
	hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)idx);
}

static bool cp_consumed_first_packet(void)
{
	hsa_signal_t s;
	ck_status(hsa_signal_create(1, 0, NULL, &s), HSA_STATUS_SUCCESS);
	submit(s);
	hsa_signal_value_t v = hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 0,
							 CP_PROBE_NS, HSA_WAIT_STATE_BLOCKED);
	probe = s; /* destroyed after the queue: the CP reads its mailbox
	            * after the decrement the wait saw */
	return v == 0;
}

struct producer {
	pthread_t t;
	hsa_signal_t *signals;
};

static void *produce(void *arg)
{
	struct producer *p = arg;
	for (uint32_t i = 0; i < PACKETS_PER_THREAD; i++)
		submit(p->signals[i]);
	return NULL;
}

START_TEST(each_packet_executes_exactly_once)
{
	const char *env = getenv("HL_QUEUE_PACKETS");
	if (env && *env)
		PACKETS_PER_THREAD = (uint32_t)strtoul(env, NULL, 10);
	ck_assert_msg(PACKETS_PER_THREAD > 0, "HL_QUEUE_PACKETS=%s is not a count", env);
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	q_cpu.handle = q_gpu.handle = 0;
	ck_status(hsa_iterate_agents(q_find_agents, NULL), HSA_STATUS_SUCCESS);
	q = q_create(4096, HSA_QUEUE_TYPE_MULTI);
	if (!cp_consumed_first_packet()) {
		printf("no command processor consumed the packet: skipping\n");
		ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
		ck_status(hsa_signal_destroy(probe), HSA_STATUS_SUCCESS);
		ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
		exit(HL_SKIP);
	}

	struct producer p[2];
	for (int t = 0; t < 2; t++) {
		p[t].signals = calloc(PACKETS_PER_THREAD, sizeof(hsa_signal_t));
		for (uint32_t i = 0; i < PACKETS_PER_THREAD; i++)
			ck_status(hsa_signal_create(1, 0, NULL, &p[t].signals[i]), HSA_STATUS_SUCCESS);
	}
	for (int t = 0; t < 2; t++)
		ck_assert_int_eq(pthread_create(&p[t].t, NULL, produce, &p[t]), 0);
	for (int t = 0; t < 2; t++)
		pthread_join(p[t].t, NULL);

	/* Every signal reaches 0 and no lower: once each. */
	for (int t = 0; t < 2; t++) {
		for (uint32_t i = 0; i < PACKETS_PER_THREAD; i++) {
			hsa_signal_value_t v = hsa_signal_wait_scacquire(
				p[t].signals[i], HSA_SIGNAL_CONDITION_LT, 1, UINT64_MAX,
				HSA_WAIT_STATE_BLOCKED);
			ck_assert_msg(v == 0, "packet %u of thread %d: signal %lld, expected 0", i, t,
				      (long long)v);
		}
	}
	ck_assert_uint_eq(hsa_queue_load_read_index_scacquire(q), 2 * PACKETS_PER_THREAD + 1);
	ck_assert_uint_eq(hsa_queue_load_write_index_scacquire(q), 2 * PACKETS_PER_THREAD + 1);
	/* Queue first: the CP reads a signal's mailbox after its decrement. */
	ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
	ck_status(hsa_signal_destroy(probe), HSA_STATUS_SUCCESS);
	for (int t = 0; t < 2; t++) {
		for (uint32_t i = 0; i < PACKETS_PER_THREAD; i++)
			ck_status(hsa_signal_destroy(p[t].signals[i]), HSA_STATUS_SUCCESS);
		free(p[t].signals);
	}
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("queue_dispatch");
	TCase *tc = tcase_create("dispatch");
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, each_packet_executes_exactly_once);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(suite)
