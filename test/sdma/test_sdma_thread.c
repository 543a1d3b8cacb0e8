/*
 * The SDMA engines under concurrency (run under TSan by CI): producers on
 * several host threads feeding queues on different engines and on one
 * engine at once, CREATE/DESTROY_QUEUE racing with an engine that is
 * executing a neighbour queue, destroy while a copy stream is in flight,
 * and machine teardown with queues still mapped and blocked.  Each test
 * creates its own machine.
 */
#include <pthread.h>

#include "sdma_fixture.h"

static void setup(void)
{
	cp_setup();
}

static void teardown(void)
{
	emu_teardown();
}

#define PRODUCERS 4
#define ROUNDS 200

struct producer {
	struct sdq q;
	uint64_t src_va, dst_va, sig_va;
	uint8_t *src, *dst;
	_Atomic int64_t *sig;
	int failures;
};

/* Each round: copy 4 KiB with a new pattern, then decrement the counter
 * with ROCr's ATOMIC; wait on the counter; check the copy. */
static void *producer_run(void *arg)
{
	struct producer *pr = arg;
	for (int r = 0; r < ROUNDS; r++) {
		memset(pr->src, r & 0xFF, 4096);
		atomic_store_explicit(pr->sig, 1, memory_order_release);
		uint32_t p[32], n = sd_copy(p, pr->dst_va, pr->src_va, 4096);
		n += sd_atomic(p + n, 0x2f, pr->sig_va, UINT64_MAX, 0, false);
		sdq_submit(&pr->q, p, n);
		uint64_t end = cp_now_ns() + 10000000000ull;
		while (atomic_load_explicit(pr->sig, memory_order_acquire) != 0) {
			if (cp_now_ns() > end) {
				pr->failures++;
				return NULL;
			}
			sched_yield();
		}
		if (pr->dst[0] != (uint8_t)r || pr->dst[4095] != (uint8_t)r)
			pr->failures++;
	}
	return NULL;
}

static void producer_init(struct producer *pr, uint32_t type, uint32_t engine)
{
	memset(pr, 0, sizeof(*pr));
	ck_assert_int_eq(sdq_create_type(&pr->q, 4096, type, engine), 0);
	pr->src_va = emu_buffer(4096, KFD_ALLOC_GTT, NULL);
	pr->dst_va = emu_buffer(4096, KFD_ALLOC_VRAM, NULL);
	pr->sig_va = emu_buffer(4096, KFD_ALLOC_GTT, NULL);
	pr->src = cp_host(pr->src_va, 4096);
	pr->dst = cp_host(pr->dst_va, 4096);
	pr->sig = cp_host(pr->sig_va, 8);
}

START_TEST(producers_on_every_engine)
{
	static struct producer pr[PRODUCERS];
	/* engine 0, engine 1 (allocate_sdma_queue alternates), the first
	 * xGMI engine, and a second queue of engine 0 */
	producer_init(&pr[0], KFD_QUEUE_TYPE_SDMA, 0);
	producer_init(&pr[1], KFD_QUEUE_TYPE_SDMA, 0);
	producer_init(&pr[2], KFD_QUEUE_TYPE_SDMA_XGMI, 0);
	producer_init(&pr[3], KFD_QUEUE_TYPE_SDMA_BY_ENG_ID, 0);
	pthread_t t[PRODUCERS];
	for (int i = 0; i < PRODUCERS; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, producer_run, &pr[i]), 0);
	for (int i = 0; i < PRODUCERS; i++)
		pthread_join(t[i], NULL);
	for (int i = 0; i < PRODUCERS; i++)
		ck_assert_msg(pr[i].failures == 0, "producer %d: %d failures", i, pr[i].failures);
}
END_TEST

static _Atomic bool churn_stop;

static void *churn_run(void *arg)
{
	int *made = arg;
	while (!atomic_load(&churn_stop)) {
		struct sdq q;
		/* BY_ENG_ID 0: the engine the producer is busy on */
		if (sdq_create_type(&q, 4096, KFD_QUEUE_TYPE_SDMA_BY_ENG_ID, 0))
			continue;
		uint32_t p[4], n = sd_nop(p, 2);
		sdq_submit(&q, p, n);
		if (sdq_destroy(&q))
			return NULL; /* made stops counting: the test sees it */
		(*made)++;
	}
	return NULL;
}

START_TEST(create_and_destroy_beside_a_busy_queue)
{
	static struct producer pr;
	producer_init(&pr, KFD_QUEUE_TYPE_SDMA_BY_ENG_ID, 0);
	atomic_store(&churn_stop, false);
	static int made;
	made = 0;
	pthread_t c, t;
	ck_assert_int_eq(pthread_create(&c, NULL, churn_run, &made), 0);
	ck_assert_int_eq(pthread_create(&t, NULL, producer_run, &pr), 0);
	pthread_join(t, NULL);
	atomic_store(&churn_stop, true);
	pthread_join(c, NULL);
	ck_assert_int_eq(pr.failures, 0);
	ck_assert_int_gt(made, 0);
}
END_TEST

static _Atomic bool stream_stop;

static void *stream_run(void *arg)
{
	struct producer *pr = arg;
	while (!atomic_load(&stream_stop)) {
		uint32_t p[8], n = sd_copy(p, pr->dst_va, pr->src_va, 4096);
		/* the ring may never drain once destroyed: write without the
		 * full-ring wait, at most one ring's worth ahead */
		if (pr->q.next + 4ull * n - sdq_rptr(&pr->q) >= pr->q.size) {
			sched_yield();
			continue;
		}
		sdq_submit(&pr->q, p, n);
	}
	return NULL;
}

START_TEST(destroy_while_copies_stream_in)
{
	static struct producer pr;
	producer_init(&pr, KFD_QUEUE_TYPE_SDMA, 0);
	atomic_store(&stream_stop, false);
	pthread_t t;
	ck_assert_int_eq(pthread_create(&t, NULL, stream_run, &pr), 0);
	/* destroy only once the engine is executing (on a loaded host its
	 * first pickup may take longer than any fixed sleep) */
	uint64_t end = cp_now_ns() + 10000000000ull;
	while (sdq_rptr(&pr.q) == 0 && cp_now_ns() < end)
		cp_sleep_ms(1);
	cp_sleep_ms(5);
	ck_assert_int_eq(sdq_destroy(&pr.q), 0);
	uint64_t rptr = sdq_rptr(&pr.q);
	cp_sleep_ms(10);
	ck_assert_uint_eq(sdq_rptr(&pr.q), rptr); /* no engine touches it now */
	atomic_store(&stream_stop, true);
	pthread_join(t, NULL);
	ck_assert_uint_gt(rptr, 0);
}
END_TEST

START_TEST(teardown_with_blocked_queues)
{
	/* the fixture's teardown destroys the machine with these mapped: the
	 * engines must stop and be joined */
	struct sdq q[3];
	uint64_t va = emu_buffer(4096, KFD_ALLOC_GTT, NULL);
	for (int i = 0; i < 3; i++) {
		sdq_create(&q[i], 4096);
		uint32_t p[8], n = sd_poll_mem(p, va, 1, 0xFFFFFFFF, 3, 0xFFF);
		sdq_submit(&q[i], p, n);
	}
	cp_sleep_ms(5);
}
END_TEST

static Suite *sdma_thread_suite(void)
{
	Suite *s = suite_create("sdma_thread");
	TCase *tc = tcase_create("thread");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, producers_on_every_engine);
	tcase_add_test(tc, create_and_destroy_beside_a_busy_queue);
	tcase_add_test(tc, destroy_while_copies_stream_in);
	tcase_add_test(tc, teardown_with_blocked_queues);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(sdma_thread_suite)
