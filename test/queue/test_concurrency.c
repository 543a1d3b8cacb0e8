/*
 * Concurrency of the write index on one MULTI queue: two threads per
 * operation family keep each operation atomic.
 *  - add: 2 x N reservations hand out every index in [0, 2N) exactly once;
 *  - cas: 2 x N compare-and-swap increments each succeed on a distinct
 *    value and the index ends at 2N;
 *  - store/load: a reader never sees a torn 64-bit value.
 * N comes from HL_QUEUE_ITERS (default 100000; the TSan build runs fewer).
 * And on a SINGLE queue, as ROCr allows (src/queue/index.c): four threads
 * each add 1 M times (HL_QUEUE_ADDS), each with another memory order, and
 * every index in [0, 4M) is handed out exactly once.  A load + store
 * reservation loses indices within a few thousand iterations.
 * Labels emu and stress.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hl_check.h"
#include "q_test.h"

static hsa_queue_t *q;
static uint64_t iters;

static void setup_type(hsa_queue_type32_t type)
{
	const char *e = getenv("HL_QUEUE_ITERS");
	iters = e ? strtoull(e, NULL, 10) : 100000;
	q_init();
	q = q_create(64, type);
	/* ROCr's AqlQueue reports MULTI for a SINGLE request */
	ck_assert_msg(q->type == HSA_QUEUE_TYPE_MULTI, "queue type %u, expected MULTI (asked %u)",
		      q->type, type);
}

static void setup(void)
{
	setup_type(HSA_QUEUE_TYPE_MULTI);
}

static void setup_single(void)
{
	setup_type(HSA_QUEUE_TYPE_SINGLE);
}

static void teardown(void)
{
	ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
	q_fini();
}

struct worker {
	pthread_t t;
	uint64_t *got;   /* values this thread obtained */
	uint64_t n;
};

static void *add_worker(void *arg)
{
	struct worker *w = arg;
	for (uint64_t i = 0; i < iters; i++)
		w->got[w->n++] = hsa_queue_add_write_index_scacq_screl(q, 1);
	return NULL;
}

static void *cas_worker(void *arg)
{
	struct worker *w = arg;
	while (w->n < iters) {
		uint64_t cur = hsa_queue_load_write_index_relaxed(q);
		if (hsa_queue_cas_write_index_scacq_screl(q, cur, cur + 1) == cur)
			w->got[w->n++] = cur;
	}
	return NULL;
}

static void run_two(void *(*fn)(void *), struct worker w[2])
{
	for (int i = 0; i < 2; i++) {
		w[i].got = calloc(iters, sizeof(uint64_t));
		w[i].n = 0;
		ck_assert_ptr_nonnull(w[i].got);
	}
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_create(&w[i].t, NULL, fn, &w[i]), 0);
	for (int i = 0; i < 2; i++)
		pthread_join(w[i].t, NULL);
}

/* Every value in [0, 2N) was obtained by exactly one thread, once. */
static void check_each_once(struct worker w[2])
{
	uint8_t *seen = calloc(2 * iters, 1);
	ck_assert_ptr_nonnull(seen);
	for (int t = 0; t < 2; t++) {
		ck_assert_uint_eq(w[t].n, iters);
		for (uint64_t i = 0; i < w[t].n; i++) {
			uint64_t v = w[t].got[i];
			ck_assert_msg(v < 2 * iters, "index %llu out of range",
				      (unsigned long long)v);
			ck_assert_msg(!seen[v], "index %llu handed out twice",
				      (unsigned long long)v);
			seen[v] = 1;
		}
		free(w[t].got);
	}
	for (uint64_t v = 0; v < 2 * iters; v++)
		ck_assert_msg(seen[v], "index %llu never handed out", (unsigned long long)v);
	free(seen);
	ck_assert_uint_eq(hsa_queue_load_write_index_scacquire(q), 2 * iters);
}

START_TEST(two_threads_adding_get_every_index_once)
{
	struct worker w[2];
	run_two(add_worker, w);
	check_each_once(w);
	printf("add: 2 x %llu reservations, every index once\n", (unsigned long long)iters);
}
END_TEST

START_TEST(two_threads_cas_incrementing_get_every_index_once)
{
	struct worker w[2];
	run_two(cas_worker, w);
	check_each_once(w);
}
END_TEST

static atomic_bool stop_reader;
static uint64_t torn;

/* Values of the form v * 0x0000000100000001: both halves equal. */
static void *store_worker(void *arg)
{
	uint64_t base = (uint64_t)(uintptr_t)arg;
	for (uint64_t i = 0; i < iters; i++) {
		uint64_t half = (base + i) & 0xFFFFFFFFu;
		hsa_queue_store_write_index_screlease(q, half << 32 | half);
	}
	return NULL;
}

static void *load_worker(void *arg)
{
	(void)arg;
	while (!atomic_load(&stop_reader)) {
		uint64_t v = hsa_queue_load_write_index_scacquire(q);
		if ((v >> 32) != (v & 0xFFFFFFFFu))
			torn++;
	}
	return NULL;
}

START_TEST(stores_and_loads_are_never_torn)
{
	pthread_t s1, s2, r;
	atomic_store(&stop_reader, false);
	torn = 0;
	ck_assert_int_eq(pthread_create(&r, NULL, load_worker, NULL), 0);
	ck_assert_int_eq(pthread_create(&s1, NULL, store_worker, (void *)(uintptr_t)1), 0);
	ck_assert_int_eq(pthread_create(&s2, NULL, store_worker, (void *)(uintptr_t)0x80000000u),
			 0);
	pthread_join(s1, NULL);
	pthread_join(s2, NULL);
	atomic_store(&stop_reader, true);
	pthread_join(r, NULL);
	ck_assert_uint_eq(torn, 0);
}
END_TEST

/* Four producers on a SINGLE queue, one memory order each. */
#define SINGLE_THREADS 4
static uint64_t adds;

struct add_thread {
	pthread_t t;
	int order;
	uint64_t *got;
};

static void *single_add_worker(void *arg)
{
	struct add_thread *w = arg;
	for (uint64_t i = 0; i < adds; i++) {
		uint64_t v;
		switch (w->order) {
		case 0: v = hsa_queue_add_write_index_scacq_screl(q, 1); break;
		case 1: v = hsa_queue_add_write_index_relaxed(q, 1); break;
		case 2: v = hsa_queue_add_write_index_screlease(q, 1); break;
		default: v = hsa_queue_add_write_index_scacquire(q, 1); break;
		}
		w->got[i] = v;
	}
	return NULL;
}

START_TEST(four_threads_adding_on_a_single_queue_land_exactly)
{
	const char *e = getenv("HL_QUEUE_ADDS");
	adds = e ? strtoull(e, NULL, 10) : 1000000;
	struct add_thread w[SINGLE_THREADS];
	for (int i = 0; i < SINGLE_THREADS; i++) {
		w[i].order = i;
		w[i].got = malloc(adds * sizeof(uint64_t));
		ck_assert_ptr_nonnull(w[i].got);
	}
	for (int i = 0; i < SINGLE_THREADS; i++)
		ck_assert_int_eq(pthread_create(&w[i].t, NULL, single_add_worker, &w[i]), 0);
	for (int i = 0; i < SINGLE_THREADS; i++)
		pthread_join(w[i].t, NULL);
	uint64_t total = SINGLE_THREADS * adds;
	ck_assert_uint_eq(hsa_queue_load_write_index_scacquire(q), total);
	uint8_t *seen = calloc(total, 1);
	ck_assert_ptr_nonnull(seen);
	for (int t = 0; t < SINGLE_THREADS; t++) {
		for (uint64_t i = 0; i < adds; i++) {
			uint64_t v = w[t].got[i];
			ck_assert_msg(v < total && !seen[v], "index %llu out of range or twice",
				      (unsigned long long)v);
			seen[v] = 1;
		}
		free(w[t].got);
	}
	free(seen);
	printf("SINGLE queue: %d x %llu adds, every index once\n", SINGLE_THREADS,
	       (unsigned long long)adds);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("queue_concurrency");
	TCase *tc = tcase_create("concurrency");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, two_threads_adding_get_every_index_once);
	tcase_add_test(tc, two_threads_cas_incrementing_get_every_index_once);
	tcase_add_test(tc, stores_and_loads_are_never_torn);
	suite_add_tcase(s, tc);
	TCase *single = tcase_create("single");
	tcase_add_checked_fixture(single, setup_single, teardown);
	tcase_set_timeout(single, 600);
	tcase_add_test(single, four_threads_adding_on_a_single_queue_land_exactly);
	suite_add_tcase(s, single);
	return s;
}

HL_CHECK_MAIN(suite)
