/*
 * The CP's scheduler: more queues than hardware queue slots all make
 * progress (the runlist time-slices them), priorities are honoured
 * approximately, and DESTROY_QUEUE stops a busy queue at a packet boundary
 * and returns only once the CP no longer touches it.
 */
#include <sys/wait.h>

#include "cp_fixture.h"

static void teardown(void)
{
	emu_teardown();
}

/* Publishes n barrier packets on q counting down `done`, with one doorbell
 * per half ring (the CP fetches up to the doorbell only: a producer that
 * waits for room must have rung for what it published) and one at the end. */
static void fill(struct cpq *q, uint64_t done, unsigned n)
{
	uint64_t last = 0;
	for (unsigned i = 0; i < n; i++) {
		hsa_barrier_and_packet_t p = cp_barrier(HSA_PACKET_TYPE_BARRIER_AND, done, 0, 0);
		last = cp_put(q, &p, false);
		if ((i + 1) % (q->size / 2) == 0)
			atomic_store_explicit(q->db, last, memory_order_release);
	}
	atomic_store_explicit(q->db, last, memory_order_release);
}

START_TEST(more_queues_than_slots_all_progress)
{
	cp_setup_slots(2);
	enum { NQ = 8, NP = 200 };
	struct cpq q[NQ];
	uint64_t done[NQ];
	for (int i = 0; i < NQ; i++) {
		cp_queue_create(&q[i], 256);
		done[i] = cp_signal(NP);
	}
	for (int i = 0; i < NQ; i++)
		fill(&q[i], done[i], NP);
	for (int i = 0; i < NQ; i++) {
		int64_t v = cp_sig_wait(done[i], 0, 20000);
		ck_assert_msg(v == 0, "queue %d: %lld packets left", i, (long long)v);
	}
}
END_TEST

START_TEST(bursts_with_idle_gaps_are_never_lost)
{
	/* submissions separated by idle gaps long enough for the slots to go
	 * through spinning, polling and parking: every burst must complete */
	cp_setup_slots(3);
	enum { NQ = 6, ROUNDS = 60 };
	struct cpq q[NQ];
	for (int i = 0; i < NQ; i++)
		cp_queue_create(&q[i], 64);
	unsigned seed = 12345;
	for (int r = 0; r < ROUNDS; r++) {
		seed = seed * 1103515245u + 12345u;
		int which = (int)((seed >> 16) % NQ), n = 1 + (int)((seed >> 8) % 5);
		uint64_t done = cp_signal(n);
		for (int i = 0; i < n; i++) {
			hsa_barrier_and_packet_t p = cp_barrier(HSA_PACKET_TYPE_BARRIER_AND, done, 0, 0);
			cp_put(&q[which], &p, i == n - 1);
		}
		int64_t v = cp_sig_wait(done, 0, 5000);
		ck_assert_msg(v == 0, "round %d, queue %d: %lld of %d packets left", r, which,
			      (long long)v, n);
		cp_sleep_ms((seed >> 4) % 4);
		if (cp_n_sigs >= CP_MAX_SIGS - 1)
			cp_n_sigs = 0;
	}
}
END_TEST

START_TEST(blocked_queues_do_not_hold_every_slot)
{
	/* two slots, two queues waiting on a dependency forever, and a third
	 * queue with work: the runlist still gives it a slot */
	cp_setup_slots(2);
	struct cpq w1, w2, busy;
	cp_queue_create(&w1, 64);
	cp_queue_create(&w2, 64);
	cp_queue_create(&busy, 64);
	uint64_t never = cp_signal(1), x = cp_signal(1), y = cp_signal(1);
	hsa_barrier_and_packet_t p = cp_barrier(HSA_PACKET_TYPE_BARRIER_AND, x, never, 0);
	cp_put(&w1, &p, true);
	p.completion_signal.handle = y;
	cp_put(&w2, &p, true);
	uint64_t done = cp_signal(100);
	fill(&busy, done, 100);
	ck_assert_int_eq(cp_sig_wait(done, 0, 10000), 0);
	ck_assert_int_eq(cp_sig_load(x), 1);
	ck_assert_int_eq(cp_sig_load(y), 1);
}
END_TEST

START_TEST(higher_priority_queue_runs_first)
{
	/* one slot, two busy queues; the completion timestamps (profiling)
	 * tell the order in GPU time, whatever the test thread observes */
	cp_setup_slots(1);
	enum { NP = 480 };
	struct cpq lo, hi;
	ck_assert_int_eq(cp_queue_create_prio(&lo, 512, 0), 0);
	ck_assert_int_eq(cp_queue_create_prio(&hi, 512, 15), 0);
	lo.aq->queue_properties |= 1u << AMD_QUEUE_PROPERTIES_ENABLE_PROFILING_SHIFT;
	hi.aq->queue_properties |= 1u << AMD_QUEUE_PROPERTIES_ENABLE_PROFILING_SHIFT;
	/* a gate at the head of both queues so they start together */
	uint64_t gate = cp_signal(1), g1 = cp_signal(1), g2 = cp_signal(1);
	uint64_t lo_half = cp_signal(NP / 2), lo_done = cp_signal(NP / 2), hi_done = cp_signal(NP);
	hsa_barrier_and_packet_t p = cp_barrier(HSA_PACKET_TYPE_BARRIER_AND, g1, gate, 0);
	cp_put(&lo, &p, false);
	p.completion_signal.handle = g2;
	cp_put(&hi, &p, false);
	fill(&lo, lo_half, NP / 2);
	fill(&lo, lo_done, NP / 2);
	fill(&hi, hi_done, NP);
	cp_sleep_ms(20);
	cp_sig_store(gate, 0);
	ck_assert_int_eq(cp_sig_wait(hi_done, 0, 20000), 0);
	ck_assert_int_eq(cp_sig_wait(lo_done, 0, 20000), 0); /* not starved */
	uint64_t hi_end = cp_sig(hi_done)->end_ts, lo_half_end = cp_sig(lo_half)->end_ts;
	printf("cp: priority 15 queue finished %lld ticks %s the priority 0 queue's half-way "
	       "point\n", (long long)(hi_end > lo_half_end ? hi_end - lo_half_end
						       : lo_half_end - hi_end),
	       hi_end < lo_half_end ? "before" : "after");
	ck_assert_msg(hi_end < lo_half_end, "priority 15 ended at %llu, priority 0 was half "
		      "done at %llu", (unsigned long long)hi_end, (unsigned long long)lo_half_end);
}
END_TEST

START_TEST(destroy_during_activity_stops_cleanly)
{
	cp_setup();
	enum { NP = 1000 };
	struct cpq q;
	cp_queue_create(&q, 1024);
	uint64_t done = cp_signal(NP);
	fill(&q, done, NP);
	while (cp_sig_load(done) == NP)
		sched_yield();
	uint64_t t0 = cp_now_ns();
	ck_assert_int_eq(cp_queue_destroy(&q), 0);
	uint64_t took = cp_now_ns() - t0;
	int64_t at_destroy = cp_sig_load(done);
	uint64_t rptr = cp_rptr(&q);
	cp_sleep_ms(30);
	/* the CP no longer touches the queue: nothing changes afterwards */
	ck_assert_int_eq(cp_sig_load(done), at_destroy);
	ck_assert_uint_eq(cp_rptr(&q), rptr);
	ck_assert_msg(took < 1000000000ull, "DESTROY_QUEUE took %llu ms",
		      (unsigned long long)(took / 1000000));
	/* a packet boundary: consumed packets and the read index agree */
	ck_assert_int_eq((int64_t)NP - at_destroy, (int64_t)rptr);
}
END_TEST

START_TEST(inactivating_a_busy_queue_stops_it_at_a_packet_boundary)
{
	/* UPDATE_QUEUE percentage 0 while a slot is servicing the queue: the
	 * hook waits for the slot to let it go (this once hung when the slot
	 * did not wake it), then nothing moves until it is active again */
	cp_setup();
	enum { NP = 1000, ROUNDS = 20 };
	struct cpq q;
	cp_queue_create(&q, 1024);
	uint64_t done = cp_signal(NP);
	fill(&q, done, NP);
	struct kfd_args_update_queue u = { .queue_id = q.id, .ring_base_address = q.ring_va,
					   .ring_size = 1024 * 64, .queue_priority = 7 };
	for (int i = 0; i < ROUNDS && cp_sig_load(done); i++) {
		u.queue_percentage = 0;
		ck_assert_int_eq(kio(KFD_IOCTL_UPDATE_QUEUE, &u), 0);
		int64_t left = cp_sig_load(done);
		uint64_t rptr = cp_rptr(&q);
		ck_assert_int_eq((int64_t)NP - left, (int64_t)rptr);
		cp_sleep_ms(2);
		ck_assert_int_eq(cp_sig_load(done), left);
		u.queue_percentage = 100;
		ck_assert_int_eq(kio(KFD_IOCTL_UPDATE_QUEUE, &u), 0);
	}
	ck_assert_int_eq(cp_sig_wait(done, 0, 10000), 0);
}
END_TEST

START_TEST(destroy_of_blocked_queue_returns)
{
	cp_setup();
	struct cpq q;
	cp_queue_create(&q, 64);
	uint64_t never = cp_signal(1), done = cp_signal(1);
	hsa_barrier_and_packet_t p = cp_barrier(HSA_PACKET_TYPE_BARRIER_AND, done, never, 0);
	cp_put(&q, &p, true);
	cp_sleep_ms(10);
	ck_assert_int_eq(cp_queue_destroy(&q), 0);
	ck_assert_int_eq(cp_sig_load(done), 1);
}
END_TEST

START_TEST(teardown_with_busy_queues)
{
	/* the process goes away (machine destroy) while queues are busy */
	cp_setup_slots(2);
	struct cpq q[4];
	for (int i = 0; i < 4; i++) {
		cp_queue_create(&q[i], 256);
		fill(&q[i], cp_signal(200), 200);
	}
}
END_TEST

START_TEST(fork_child_gets_its_own_cp)
{
	/* the parent has a queue waiting on a gate; a fork child (a new KFD
	 * process) runs its own queue, and the parent's is untouched by it */
	cp_setup();
#ifdef __SANITIZE_THREAD__
	/* TSan cannot start threads in the child of a multi-threaded fork */
	puts("cp: fork test skipped under TSan");
	return;
#endif
	struct cpq q;
	cp_queue_create(&q, 64);
	uint64_t gate = cp_signal(1), done = cp_signal(1);
	hsa_barrier_and_packet_t p = cp_barrier(HSA_PACKET_TYPE_BARRIER_AND, done, gate, 0);
	cp_put(&q, &p, true);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int st = 1;
		E.kfd = kemu_open(E.m, "/dev/kfd", O_RDWR | O_CLOEXEC);
		char path[64];
		snprintf(path, sizeof(path), "/dev/dri/renderD%u", E.gpu->drm_render_minor);
		E.drm = kemu_open(E.m, path, O_RDWR | O_CLOEXEC);
		E.p = kemu_process_find(E.m, getpid());
		struct kfd_args_acquire_vm a = { .drm_fd = (uint32_t)E.drm, .gpu_id = E.gpu_id };
		cp_sig_va = 0;
		if (E.kfd >= 0 && E.drm >= 0 && E.p && !kio(KFD_IOCTL_ACQUIRE_VM, &a)) {
			struct cpq c;
			cp_queue_create(&c, 64);
			uint64_t cd = cp_signal(3);
			for (int i = 0; i < 3; i++) {
				hsa_barrier_and_packet_t b = cp_barrier(HSA_PACKET_TYPE_BARRIER_AND,
									cd, 0, 0);
				cp_put(&c, &b, true);
			}
			st = cp_sig_wait(cd, 0, 10000) == 0 ? 0 : 2;
			cp_queue_destroy(&c);
		}
		_exit(st);
	}
	int status = 0;
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status 0x%x", status);
	ck_assert_int_eq(cp_sig_load(done), 1);
	cp_sig_store(gate, 0);
	ck_assert_int_eq(cp_sig_wait(done, 0, 5000), 0);
}
END_TEST

static Suite *cp_sched_suite(void)
{
	Suite *s = suite_create("cp_sched");
	TCase *tc = tcase_create("sched");
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, more_queues_than_slots_all_progress);
	tcase_add_test(tc, bursts_with_idle_gaps_are_never_lost);
	tcase_add_test(tc, blocked_queues_do_not_hold_every_slot);
	tcase_add_test(tc, higher_priority_queue_runs_first);
	tcase_add_test(tc, destroy_during_activity_stops_cleanly);
	tcase_add_test(tc, inactivating_a_busy_queue_stops_it_at_a_packet_boundary);
	tcase_add_test(tc, destroy_of_blocked_queue_returns);
	tcase_add_test(tc, teardown_with_busy_queues);
	tcase_add_test(tc, fork_child_gets_its_own_cp);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(cp_sched_suite)
