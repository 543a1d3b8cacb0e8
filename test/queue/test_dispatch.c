/*
 * Dispatch stress: producers publish BARRIER_AND packets with completion
 * signals and ring the doorbell; every packet must execute exactly once,
 * counted through the completion signals: each packet has its own signal at
 * 1 that the CP decrements, so exactly once leaves it at 0 (never -1), and
 * the read index ends at the packet count.
 *  - each_packet_executes_exactly_once: two producer threads on one MULTI
 *    queue (the locked reservation).
 *  - single_producer_on_single_queue_executes_each_packet_once: one
 *    producer at a time on a SINGLE queue (a locked reservation like every
 *    queue type's, src/queue/index.c), cycling through the seven add orders and
 *    reserving 1-3 packets at a time: every reservation must return the
 *    index right after the previous one.  The producer role moves from one
 *    thread to another half-way (handed over by pthread_join, as the spec
 *    allows: one producer at a time), and the ring is small enough to wrap.
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
#include <sched.h>
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
static uint64_t submit(hsa_signal_t completion)
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
	return idx;
}

static bool cp_consumed_first_packet(void)
{
	hsa_signal_t s;
	ck_status(hsa_signal_create(1, 0, NULL, &s), HSA_STATUS_SUCCESS);
	/* A wrong first reservation would leave the CP at slot 0 and look like
	 * "no CP" (a skip): it fails here instead. */
	uint64_t idx = submit(s);
	ck_assert_msg(idx == 0, "the first reservation of a new queue returned %llu, expected 0",
		      (unsigned long long)idx);
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

/* hsa_init, the agents, a queue, and the probe packet; exits 77 (skip) when
 * no command processor consumed the probe. */
static void start(hsa_queue_type32_t type, uint32_t size)
{
	const char *env = getenv("HL_QUEUE_PACKETS");
	if (env && *env)
		PACKETS_PER_THREAD = (uint32_t)strtoul(env, NULL, 10);
	ck_assert_msg(PACKETS_PER_THREAD > 0, "HL_QUEUE_PACKETS=%s is not a count", env);
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	q_cpu.handle = q_gpu.handle = 0;
	ck_status(hsa_iterate_agents(q_find_agents, NULL), HSA_STATUS_SUCCESS);
	q = q_create(size, type);
	/* ROCr's AqlQueue reports MULTI for a SINGLE request */
	ck_assert_msg(q->type == HSA_QUEUE_TYPE_MULTI, "queue type %u, expected MULTI (asked %u)",
		      q->type, type);
	if (!cp_consumed_first_packet()) {
		printf("no command processor consumed the packet: skipping\n");
		ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
		ck_status(hsa_signal_destroy(probe), HSA_STATUS_SUCCESS);
		ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
		exit(HL_SKIP);
	}
}

static hsa_signal_t *signals_create(uint32_t n)
{
	hsa_signal_t *s = calloc(n, sizeof(hsa_signal_t));
	ck_assert_ptr_nonnull(s);
	for (uint32_t i = 0; i < n; i++)
		ck_status(hsa_signal_create(1, 0, NULL, &s[i]), HSA_STATUS_SUCCESS);
	return s;
}

/* Every signal reaches 0; once the read index has passed every packet (the
 * CP advances it after a packet retired), none is below 0: once each. */
static void check_each_once(hsa_signal_t *const *sets, int n_sets, uint32_t per_set)
{
	for (int t = 0; t < n_sets; t++) {
		for (uint32_t i = 0; i < per_set; i++) {
			hsa_signal_value_t v = hsa_signal_wait_scacquire(
				sets[t][i], HSA_SIGNAL_CONDITION_LT, 1, UINT64_MAX,
				HSA_WAIT_STATE_BLOCKED);
			ck_assert_msg(v == 0, "packet %u of set %d: signal %lld, expected 0", i, t,
				      (long long)v);
		}
	}
	uint64_t total = (uint64_t)n_sets * per_set + 1; /* + the probe */
	ck_assert_uint_eq(hsa_queue_load_read_index_scacquire(q), total);
	ck_assert_uint_eq(hsa_queue_load_write_index_scacquire(q), total);
	for (int t = 0; t < n_sets; t++) {
		for (uint32_t i = 0; i < per_set; i++) {
			hsa_signal_value_t v = hsa_signal_load_scacquire(sets[t][i]);
			ck_assert_msg(v == 0, "packet %u of set %d: signal %lld after the CP "
				      "passed it, expected 0", i, t, (long long)v);
		}
	}
}

/* Queue first: the CP reads a signal's mailbox after its decrement. */
static void finish(hsa_signal_t **sets, int n_sets, uint32_t per_set)
{
	ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
	ck_status(hsa_signal_destroy(probe), HSA_STATUS_SUCCESS);
	for (int t = 0; t < n_sets; t++) {
		for (uint32_t i = 0; i < per_set; i++)
			ck_status(hsa_signal_destroy(sets[t][i]), HSA_STATUS_SUCCESS);
		free(sets[t]);
	}
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

START_TEST(each_packet_executes_exactly_once)
{
	start(HSA_QUEUE_TYPE_MULTI, 4096);
	struct producer p[2];
	hsa_signal_t *sets[2];
	for (int t = 0; t < 2; t++)
		sets[t] = p[t].signals = signals_create(PACKETS_PER_THREAD);
	for (int t = 0; t < 2; t++)
		ck_assert_int_eq(pthread_create(&p[t].t, NULL, produce, &p[t]), 0);
	for (int t = 0; t < 2; t++)
		pthread_join(p[t].t, NULL);
	check_each_once(sets, 2, PACKETS_PER_THREAD);
	finish(sets, 2, PACKETS_PER_THREAD);
}
END_TEST

typedef uint64_t (*add_fn)(const hsa_queue_t *, uint64_t);

static const add_fn single_adds[] = {
	hsa_queue_add_write_index_screlease, hsa_queue_add_write_index_relaxed,
	hsa_queue_add_write_index_scacquire, hsa_queue_add_write_index_scacq_screl,
	hsa_queue_add_write_index_acquire,   hsa_queue_add_write_index_release,
	hsa_queue_add_write_index_acq_rel,
};
#define N_SINGLE_ADDS (sizeof(single_adds) / sizeof(single_adds[0]))

/* One turn of the single producer: packets [first, first + count). */
struct single_turn {
	pthread_t t;
	hsa_signal_t *signals; /* one per packet of the whole run */
	uint32_t first, count;
	uint64_t next;         /* the index the first reservation must return */
	/* The reservation that was not consecutive, which ends the turn
	 * (checked by the main thread: Check's assertions belong to it). */
	bool bad;
	uint32_t bad_packet;
	uint64_t bad_got, bad_want;
};

static void *produce_single(void *arg)
{
	struct single_turn *w = arg;
	uint64_t want = w->next;
	for (uint32_t i = w->first; i < w->first + w->count;) {
		uint32_t k = 1 + i % 3;
		if (k > w->first + w->count - i)
			k = w->first + w->count - i;
		uint64_t idx = single_adds[i % N_SINGLE_ADDS](q, k);
		if (idx != want) {
			/* Stop: a gap would leave the CP waiting at an INVALID
			 * header and this thread waiting for room. */
			w->bad = true;
			w->bad_packet = i;
			w->bad_got = idx;
			w->bad_want = want;
			return NULL;
		}
		want = idx + k;
		while (idx + k - hsa_queue_load_read_index_scacquire(q) > q->size)
			sched_yield();
		for (uint32_t j = 0; j < k; j++) {
			hsa_barrier_and_packet_t *slot = (hsa_barrier_and_packet_t *)q->base_address +
							 ((idx + j) & (q->size - 1));
			memset((char *)slot + 4, 0, sizeof(*slot) - 4);
			slot->completion_signal = w->signals[i + j];
			__atomic_store_n((uint32_t *)slot, barrier_header(), __ATOMIC_RELEASE);
		}
		hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)(idx + k - 1));
		i += k;
	}
	return NULL;
}

START_TEST(single_producer_on_single_queue_executes_each_packet_once)
{
	start(HSA_QUEUE_TYPE_SINGLE, 256);
	uint32_t n = PACKETS_PER_THREAD;
	hsa_signal_t *sets[1] = { signals_create(n) };
	/* Two turns, one thread each; the join hands the producer role over. */
	struct single_turn turn[2] = {
		{ .signals = sets[0], .first = 0, .count = n / 2, .next = 1 },
		{ .signals = sets[0], .first = n / 2, .count = n - n / 2, .next = 1 + n / 2 },
	};
	for (int t = 0; t < 2; t++) {
		ck_assert_int_eq(pthread_create(&turn[t].t, NULL, produce_single, &turn[t]), 0);
		pthread_join(turn[t].t, NULL);
		ck_assert_msg(!turn[t].bad, "turn %d, packet %u: reserved index %llu, expected "
			      "%llu (the previous reservation's end)", t, turn[t].bad_packet,
			      (unsigned long long)turn[t].bad_got,
			      (unsigned long long)turn[t].bad_want);
	}
	check_each_once(sets, 1, n);
	finish(sets, 1, n);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("queue_dispatch");
	TCase *tc = tcase_create("dispatch");
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, each_packet_executes_exactly_once);
	tcase_add_test(tc, single_producer_on_single_queue_executes_each_packet_once);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(suite)
