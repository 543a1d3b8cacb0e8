/*
 * The runtime's first signals share a page with the queue descriptors
 * (src/memory/small.c: one BO of one page, mapped to every GPU; the
 * signal module's first slab is 16 signals of it, slab.c; the queue
 * module's 512-byte descriptor slots are others, queue/page.c).  What must
 * hold: a queue and the signals made after it live in one page; the CP
 * reads and writes signals there (a barrier-AND packet waits on one and
 * decrements another); the 17th signal opens a 64 KiB slab and works the
 * same; an address in the shared page that is not a signal of the first
 * slab (the queue's own descriptor, the bytes past the slab) is rejected
 * as a signal and never written through; queues beyond the page's slots
 * take a new page and run.  Each case runs in a runtime of its own
 * (hsa_init / hsa_shut_down per case), so the first slab is made anew each
 * time.  Label emu.
 */
#include <stdint.h>

#include "hl_check.h"
#include "sig_test.h"

#define PAGE 4096u
#define FIRST_SLAB_SIGNALS 16
#define WAIT_NS (30ull * 1000 * 1000 * 1000)

static hsa_agent_t gpu;

static void setup(void)
{
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	hsa_agent_t cpu;
	bool have_gpu = false, have_cpu = false;
	ck_status(hl_first_agents(&gpu, &have_gpu, &cpu, &have_cpu), HSA_STATUS_SUCCESS);
	ck_assert_msg(have_gpu, "no GPU agent");
}

static void teardown(void)
{
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

static uintptr_t page_of(uint64_t addr)
{
	return (uintptr_t)addr & ~(uintptr_t)(PAGE - 1);
}

static hsa_queue_t *queue_make(void)
{
	hsa_queue_t *q = NULL;
	ck_status(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_SINGLE, NULL, NULL, UINT32_MAX,
				   UINT32_MAX, &q),
		  HSA_STATUS_SUCCESS);
	return q;
}

static hsa_signal_t sig_make(hsa_signal_value_t v)
{
	hsa_signal_t s;
	ck_status(hsa_signal_create(v, 0, NULL, &s), HSA_STATUS_SUCCESS);
	return s;
}

/* The CP waits on dep and completes done; the host releases dep. */
static void barrier_round(hsa_queue_t *q, hsa_signal_t dep, hsa_signal_t done)
{
	hsa_signal_store_relaxed(dep, 1);
	hsa_signal_store_relaxed(done, 1);
	hl_barrier_and(q, dep, false, done);
	hsa_signal_store_screlease(dep, 0);
	ck_value(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, WAIT_NS,
					   HSA_WAIT_STATE_BLOCKED),
		 0);
}

START_TEST(first_signals_share_the_queue_page)
{
	hsa_queue_t *q = queue_make();
	hsa_signal_t s = sig_make(5);
	ck_assert_msg(page_of(s.handle) == page_of((uintptr_t)q),
		      "signal %#llx is not in the page of queue %p",
		      (unsigned long long)s.handle, (void *)q);
	ck_value(hsa_signal_load_relaxed(s), 5);
	hsa_signal_add_scacq_screl(s, 2);
	ck_value(hsa_signal_load_scacquire(s), 7);
	ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
	ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(cp_uses_signals_in_the_shared_page)
{
	hsa_queue_t *q = queue_make();
	hsa_signal_t dep = sig_make(1), done = sig_make(1);
	ck_assert(page_of(dep.handle) == page_of((uintptr_t)q));
	ck_assert(page_of(done.handle) == page_of((uintptr_t)q));
	barrier_round(q, dep, done);
	ck_status(hsa_signal_destroy(dep), HSA_STATUS_SUCCESS);
	ck_status(hsa_signal_destroy(done), HSA_STATUS_SUCCESS);
	ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(signal_past_the_first_slab_gets_a_slab)
{
	hsa_queue_t *q = queue_make();
	enum { N = FIRST_SLAB_SIGNALS + 1 };
	hsa_signal_t s[N];
	int in_page = 0, first_out = -1;
	for (int i = 0; i < N; i++) {
		s[i] = sig_make(i + 1);
		if (page_of(s[i].handle) == page_of((uintptr_t)q))
			in_page++;
		else if (first_out < 0)
			first_out = i;
	}
	/* The runtime's own signals (the queue's) took some of the 16. */
	ck_assert_msg(in_page >= 1 && in_page < FIRST_SLAB_SIGNALS,
		      "%d of %d signals in the queue's page", in_page, N);
	ck_assert_msg(first_out == in_page, "signal %d left the page, then %d more stayed",
		      first_out, in_page - first_out);
	for (int i = in_page; i < N; i++)
		ck_assert_msg(page_of(s[i].handle) != page_of((uintptr_t)q),
			      "signal %d went back to the shared page", i);
	/* Every signal keeps its own value, and the CP completes one of
	 * each kind. */
	for (int i = 0; i < N; i++)
		ck_value(hsa_signal_load_relaxed(s[i]), i + 1);
	barrier_round(q, s[0], s[N - 1]);
	barrier_round(q, s[N - 1], s[0]);
	for (int i = 0; i < N; i++)
		ck_status(hsa_signal_destroy(s[i]), HSA_STATUS_SUCCESS);
	ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(page_bytes_that_are_not_signals_are_rejected)
{
	hsa_queue_t *q = queue_make();
	hsa_signal_t s = sig_make(3);
	/* The first slab is 1 KiB aligned to 1 KiB: the signal's slab starts
	 * at the signal rounded down, and ends 1 KiB on. */
	uint64_t slab = s.handle & ~(uint64_t)1023;
	hsa_signal_t descriptor = { (uintptr_t)q };
	hsa_signal_t past = { slab + 1024 };
	hsa_signal_t before = { slab - 64 };
	hsa_queue_t before_q = *q; /* the CP does not write hsa_queue_t */
	hsa_signal_t others[] = { descriptor, past, before };
	for (unsigned i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
		hsa_signal_t o = others[i];
		if (page_of(o.handle) != page_of(s.handle))
			continue; /* only addresses in the shared page matter */
		volatile hsa_signal_value_t *p;
		ck_status(hsa_amd_signal_value_pointer(o, &p), HSA_STATUS_ERROR_INVALID_SIGNAL);
		ck_status(hsa_signal_destroy(o), HSA_STATUS_ERROR_INVALID_SIGNAL);
		ck_value(hsa_signal_load_relaxed(o), 0);
		hsa_signal_store_relaxed(o, 0x5a5a);
		hsa_signal_add_relaxed(o, 1);
	}
	/* Nothing was written through the bogus handles. */
	ck_assert_msg(memcmp(&before_q, q, sizeof(*q)) == 0, "the queue's hsa_queue_t changed");
	ck_value(hsa_signal_load_relaxed(s), 3);
	hsa_signal_t done = sig_make(1), dep = sig_make(1);
	barrier_round(q, dep, done);
	ck_status(hsa_signal_destroy(dep), HSA_STATUS_SUCCESS);
	ck_status(hsa_signal_destroy(done), HSA_STATUS_SUCCESS);
	ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
	ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(queues_beyond_the_page_run)
{
	/* 16 signals take 1 KiB of the first page, which leaves six 512-byte
	 * descriptor slots: eight queues need a second page. */
	enum { NQ = 8 };
	hsa_queue_t *q[NQ];
	hsa_signal_t dep = sig_make(1), done = sig_make(1);
	int pages = 0;
	for (int i = 0; i < NQ; i++) {
		q[i] = queue_make();
		ck_assert_msg(((uintptr_t)q[i] & 63) == 0, "queue %d at %p", i, (void *)q[i]);
		bool seen = false;
		for (int j = 0; j < i; j++)
			seen |= page_of((uintptr_t)q[j]) == page_of((uintptr_t)q[i]);
		pages += !seen;
	}
	ck_assert_msg(pages == 2, "%d queues in %d pages", NQ, pages);
	for (int i = 0; i < NQ; i++)
		barrier_round(q[i], dep, done);
	for (int i = 0; i < NQ; i++)
		ck_status(hsa_queue_destroy(q[i]), HSA_STATUS_SUCCESS);
	ck_status(hsa_signal_destroy(dep), HSA_STATUS_SUCCESS);
	ck_status(hsa_signal_destroy(done), HSA_STATUS_SUCCESS);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("signal_shared_page");
	TCase *tc = tcase_create("shared_page");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, first_signals_share_the_queue_page);
	tcase_add_test(tc, cp_uses_signals_in_the_shared_page);
	tcase_add_test(tc, signal_past_the_first_slab_gets_a_slab);
	tcase_add_test(tc, page_bytes_that_are_not_signals_are_rejected);
	tcase_add_test(tc, queues_beyond_the_page_run);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(suite)
