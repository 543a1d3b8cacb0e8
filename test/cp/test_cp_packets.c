/*
 * The command processor's packet protocol on the kfdemu core API: barrier
 * packets and their dependencies, the index and header protocol (batched
 * doorbells, wrap-around, INVALID headers, read_dispatch_id), completion
 * signals with mailbox and event wake-up, profiling timestamps, and the
 * queue errors of bad packets.  Each test creates its own machine.
 */
#include <pthread.h>
#include <sys/resource.h>

#include "cp_fixture.h"
#include "hsa/hsa_ext_amd.h"

static void setup(void)
{
	cp_setup();
}

static void teardown(void)
{
	emu_teardown();
}

START_TEST(barrier_and_without_dependencies_completes)
{
	struct cpq q;
	cp_queue_create(&q, 64);
	uint64_t done = cp_signal(1);
	hsa_barrier_and_packet_t p = cp_barrier(HSA_PACKET_TYPE_BARRIER_AND, done, 0, 0);
	cp_put(&q, &p, true);
	ck_assert_int_eq(cp_sig_wait(done, 0, 5000), 0);
}
END_TEST

START_TEST(barrier_and_waits_for_every_dependency)
{
	struct cpq q;
	cp_queue_create(&q, 64);
	uint64_t d0 = cp_signal(1), d1 = cp_signal(1), done = cp_signal(1);
	hsa_barrier_and_packet_t p = cp_barrier(HSA_PACKET_TYPE_BARRIER_AND, done, d0, d1);
	cp_put(&q, &p, true);
	cp_sleep_ms(30);
	ck_assert_int_eq(cp_sig_load(done), 1);
	ck_assert_uint_eq(cp_rptr(&q), 0);
	cp_sig_store(d0, 0);
	cp_sleep_ms(30);
	ck_assert_msg(cp_sig_load(done) == 1, "AND completed with one dependency still 1");
	cp_sig_store(d1, 0);
	ck_assert_int_eq(cp_sig_wait(done, 0, 5000), 0);
	ck_assert_uint_eq(cp_rptr(&q), 1);
}
END_TEST

START_TEST(barrier_or_completes_on_any_dependency)
{
	struct cpq q;
	cp_queue_create(&q, 64);
	uint64_t d0 = cp_signal(1), d1 = cp_signal(5), done = cp_signal(1);
	hsa_barrier_and_packet_t p = cp_barrier(HSA_PACKET_TYPE_BARRIER_OR, done, d0, d1);
	cp_put(&q, &p, true);
	cp_sleep_ms(30);
	ck_assert_int_eq(cp_sig_load(done), 1);
	cp_sig_store(d1, 0);
	ck_assert_int_eq(cp_sig_wait(done, 0, 5000), 0);
}
END_TEST

START_TEST(barrier_or_of_null_handles_never_completes)
{
	/* HSA spec: for barrier-OR a null handle is an unsatisfied dependency */
	struct cpq q;
	cp_queue_create(&q, 64);
	uint64_t done = cp_signal(1);
	hsa_barrier_and_packet_t p = cp_barrier(HSA_PACKET_TYPE_BARRIER_OR, done, 0, 0);
	cp_put(&q, &p, true);
	cp_sleep_ms(50);
	ck_assert_int_eq(cp_sig_load(done), 1);
	ck_assert_uint_eq(cp_rptr(&q), 0);
	ck_assert_int_eq(cp_queue_destroy(&q), 0); /* a waiting queue still goes away */
}
END_TEST

START_TEST(dependent_barrier_waits_for_other_queue)
{
	/* queue B's barrier depends on queue A's completion signal */
	struct cpq a, b;
	cp_queue_create(&a, 64);
	cp_queue_create(&b, 64);
	uint64_t gate = cp_signal(1), a_done = cp_signal(1), b_done = cp_signal(1);
	hsa_barrier_and_packet_t pb = cp_barrier(HSA_PACKET_TYPE_BARRIER_AND, b_done, a_done, 0);
	cp_put(&b, &pb, true);
	hsa_barrier_and_packet_t pa = cp_barrier(HSA_PACKET_TYPE_BARRIER_AND, a_done, gate, 0);
	cp_put(&a, &pa, true);
	cp_sleep_ms(30);
	ck_assert_int_eq(cp_sig_load(b_done), 1);
	cp_sig_store(gate, 0);
	ck_assert_int_eq(cp_sig_wait(b_done, 0, 5000), 0);
	ck_assert_int_eq(cp_sig_load(a_done), 0);
}
END_TEST

START_TEST(batched_doorbell_consumes_every_packet)
{
	struct cpq q;
	cp_queue_create(&q, 64);
	uint64_t done = cp_signal(20);
	uint64_t last = 0;
	for (int i = 0; i < 20; i++) {
		hsa_barrier_and_packet_t p = cp_barrier(HSA_PACKET_TYPE_BARRIER_AND, done, 0, 0);
		last = cp_put(&q, &p, false);
	}
	atomic_store_explicit(q.db, last, memory_order_release); /* one doorbell */
	ck_assert_int_eq(cp_sig_wait(done, 0, 5000), 0);
	uint64_t end = cp_now_ns() + 2000000000ull;
	while (cp_rptr(&q) != 20 && cp_now_ns() < end)
		sched_yield();
	ck_assert_uint_eq(cp_rptr(&q), 20);
	for (uint64_t i = 0; i < 20; i++)
		ck_assert_uint_eq(cp_header_at(&q, i) & 0xFF, HSA_PACKET_TYPE_INVALID);
}
END_TEST

START_TEST(packets_wait_for_their_doorbell)
{
	/* the doorbell drives the fetch (SLOT_BASED_WPTR): packets reserved
	 * through write_dispatch_id and published but not rung for stay in
	 * the ring, however long the CP polls; one doorbell takes them all */
	struct cpq q;
	cp_queue_create(&q, 64);
	uint64_t done = cp_signal(3);
	uint64_t last = 0;
	for (int i = 0; i < 3; i++) {
		hsa_barrier_and_packet_t p = cp_barrier(HSA_PACKET_TYPE_BARRIER_AND, done, 0, 0);
		last = cp_put(&q, &p, false);
	}
	cp_sleep_ms(30); /* through the CP's spin and several of its polls */
	ck_assert_int_eq(cp_sig_load(done), 3);
	ck_assert_uint_eq(cp_rptr(&q), 0);
	atomic_store_explicit(q.db, last, memory_order_release);
	ck_assert_int_eq(cp_sig_wait(done, 0, 5000), 0);
}
END_TEST

/* Two producers of a MULTI queue ring in any order: B's doorbell of the
 * last packet, then A's late one of an older packet, back to back, so the
 * CP's poll of the word almost never sees B's.  The hardware never lowers
 * its write pointer: every packet runs, and nothing else will ring (the
 * producers of queue_dispatch_stress wait for room in a full ring). */
START_TEST(late_doorbell_of_an_older_packet_hides_nothing)
{
	struct cpq q;
	cp_queue_create(&q, 64);
	uint64_t first = cp_signal(1), done = cp_signal(3);
	hsa_barrier_and_packet_t p = cp_barrier(HSA_PACKET_TYPE_BARRIER_AND, first, 0, 0);
	cp_put(&q, &p, true); /* the queue is running: the CP polls its doorbell */
	ck_assert_int_eq(cp_sig_wait(first, 0, 5000), 0);
	p.completion_signal.handle = done;
	uint64_t a = cp_put(&q, &p, false);
	cp_put(&q, &p, false);
	uint64_t b = cp_put(&q, &p, false);
	/* release: pairs with the CP's acquire load of the doorbell */
	atomic_store_explicit(q.db, b, memory_order_release);
	atomic_store_explicit(q.db, a, memory_order_release);
	ck_assert_int_eq(cp_sig_wait(done, 0, 5000), 0);
	ck_assert_uint_eq(cp_rptr(&q), b + 1);
}
END_TEST

START_TEST(ring_wraps_around)
{
	struct cpq q;
	cp_queue_create(&q, 16); /* KFD's minimum ring: 1 KiB */
	uint64_t done = cp_signal(16 * 5 + 3);
	for (int i = 0; i < 16 * 5 + 3; i++) {
		hsa_barrier_and_packet_t p = cp_barrier(HSA_PACKET_TYPE_BARRIER_AND, done, 0, 0);
		cp_put(&q, &p, (i % 7) == 6 || i == 16 * 5 + 2);
	}
	ck_assert_int_eq(cp_sig_wait(done, 0, 5000), 0);
	uint64_t end = cp_now_ns() + 2000000000ull;
	while (cp_rptr(&q) != 16 * 5 + 3 && cp_now_ns() < end)
		sched_yield();
	ck_assert_uint_eq(cp_rptr(&q), 16 * 5 + 3);
}
END_TEST

START_TEST(unpublished_header_is_waited_for)
{
	/* the doorbell runs ahead of a slot whose header is still INVALID: the
	 * CP waits there and consumes the packet once it is published */
	struct cpq q;
	cp_queue_create(&q, 64);
	uint64_t done = cp_signal(1);
	atomic_store_explicit((_Atomic uint64_t *)&q.aq->write_dispatch_id, 1,
			      memory_order_release);
	hsa_barrier_and_packet_t p = cp_barrier(HSA_PACKET_TYPE_BARRIER_AND, done, 0, 0);
	memcpy(q.ring + 2, (uint8_t *)&p + 2, 62);
	atomic_store_explicit(q.db, 0, memory_order_release);
	cp_sleep_ms(20);
	ck_assert_int_eq(cp_sig_load(done), 1);
	ck_assert_uint_eq(cp_rptr(&q), 0);
	atomic_store_explicit((_Atomic uint16_t *)q.ring, p.header, memory_order_release);
	q.next = 1;
	ck_assert_int_eq(cp_sig_wait(done, 0, 5000), 0);
}
END_TEST

START_TEST(completion_mailbox_wakes_wait_events)
{
	struct cpq q;
	cp_queue_create(&q, 64);
	uint32_t ev;
	uint64_t done = cp_signal_with_event(1, &ev);
	uint64_t gate = cp_signal(1);
	hsa_barrier_and_packet_t p = cp_barrier(HSA_PACKET_TYPE_BARRIER_AND, done, gate, 0);
	cp_put(&q, &p, true);
	struct kfd_event_data d = { .event_id = ev };
	struct kfd_args_wait_events w = { .events_ptr = (uintptr_t)&d, .num_events = 1,
					  .wait_for_all = 1, .timeout = 0 };
	ck_assert_int_eq(kio(KFD_IOCTL_WAIT_EVENTS, &w), 0);
	ck_assert_uint_eq(w.wait_result, KFD_WAIT_TIMEOUT);
	cp_sig_store(gate, 0);
	w.timeout = 5000;
	uint64_t t0 = cp_now_ns();
	ck_assert_int_eq(kio(KFD_IOCTL_WAIT_EVENTS, &w), 0);
	ck_assert_msg(w.wait_result == KFD_WAIT_COMPLETE, "WAIT_EVENTS result %u after %llu ms",
		      w.wait_result, (unsigned long long)((cp_now_ns() - t0) / 1000000));
	ck_assert_int_eq(cp_sig_load(done), 0);
}
END_TEST

START_TEST(profiling_timestamps_span_the_packet)
{
	struct cpq q;
	cp_queue_create(&q, 64);
	q.aq->queue_properties |= 1u << AMD_QUEUE_PROPERTIES_ENABLE_PROFILING_SHIFT;
	uint64_t gate = cp_signal(1), done = cp_signal(1);
	struct kfd_args_get_clock_counters c0 = { .gpu_id = E.gpu_id }, c1 = c0;
	ck_assert_int_eq(kio(KFD_IOCTL_GET_CLOCK_COUNTERS, &c0), 0);
	hsa_barrier_and_packet_t p = cp_barrier(HSA_PACKET_TYPE_BARRIER_AND, done, gate, 0);
	cp_put(&q, &p, true);
	cp_sleep_ms(20);
	cp_sig_store(gate, 0);
	ck_assert_int_eq(cp_sig_wait(done, 0, 5000), 0);
	ck_assert_int_eq(kio(KFD_IOCTL_GET_CLOCK_COUNTERS, &c1), 0);
	uint64_t s = cp_sig(done)->start_ts, e = cp_sig(done)->end_ts;
	ck_assert_msg(c0.gpu_clock_counter <= s && s < e && e <= c1.gpu_clock_counter,
		      "clock %llu <= start %llu < end %llu <= clock %llu",
		      (unsigned long long)c0.gpu_clock_counter, (unsigned long long)s,
		      (unsigned long long)e, (unsigned long long)c1.gpu_clock_counter);
	/* the barrier waited ~20 ms: 100 MHz ticks */
	ck_assert_msg(e - s >= 1000000, "end - start = %llu ticks", (unsigned long long)(e - s));
}
END_TEST

/* start_ts is the pickup: a packet published but not rung for waits for
 * its doorbell (the fetch is doorbell-driven), so its start_ts is not before
 * a clock reading taken between the publish and the doorbell; end_ts is
 * before the completion the waiter sees. */
START_TEST(profiling_start_is_the_pickup)
{
	struct cpq q;
	cp_queue_create(&q, 64);
	q.aq->queue_properties |= 1u << AMD_QUEUE_PROPERTIES_ENABLE_PROFILING_SHIFT;
	/* packet 0 first: a doorbell of 0 would already cover packet 0 */
	uint64_t first = cp_signal(1), done = cp_signal(1);
	hsa_barrier_and_packet_t p = cp_barrier(HSA_PACKET_TYPE_BARRIER_AND, first, 0, 0);
	cp_put(&q, &p, true);
	ck_assert_int_eq(cp_sig_wait(first, 0, 5000), 0);
	p.completion_signal.handle = done;
	uint64_t idx = cp_put(&q, &p, false);
	cp_sleep_ms(5);
	struct kfd_args_get_clock_counters c0 = { .gpu_id = E.gpu_id }, c1 = c0;
	ck_assert_int_eq(kio(KFD_IOCTL_GET_CLOCK_COUNTERS, &c0), 0);
	/* release: pairs with the CP's acquire load of the doorbell */
	atomic_store_explicit(q.db, idx, memory_order_release);
	ck_assert_int_eq(cp_sig_wait(done, 0, 5000), 0);
	ck_assert_int_eq(kio(KFD_IOCTL_GET_CLOCK_COUNTERS, &c1), 0);
	uint64_t s = cp_sig(done)->start_ts, e = cp_sig(done)->end_ts;
	ck_assert_msg(c0.gpu_clock_counter <= s && s <= e && e <= c1.gpu_clock_counter,
		      "doorbell at %llu <= start %llu <= end %llu <= clock %llu",
		      (unsigned long long)c0.gpu_clock_counter, (unsigned long long)s,
		      (unsigned long long)e, (unsigned long long)c1.gpu_clock_counter);
}
END_TEST

/* A MULTI queue's doorbell may be written with any value (hsa.h): packet 1
 * published and rung first, then packet 0 published and rung with the
 * lower index, as two producers do when the one with the earlier slot
 * finishes last.  Both must run: the lower doorbell does not take back the
 * higher one. */
START_TEST(lower_doorbell_after_higher_keeps_the_higher)
{
	struct cpq q;
	cp_queue_create(&q, 64);
	uint64_t s0 = cp_signal(1), s1 = cp_signal(1);
	hsa_barrier_and_packet_t p0 = cp_barrier(HSA_PACKET_TYPE_BARRIER_AND, s0, 0, 0);
	hsa_barrier_and_packet_t p1 = cp_barrier(HSA_PACKET_TYPE_BARRIER_AND, s1, 0, 0);
	/* two producers of a MULTI queue: both reserved their slot first
	 * (write_dispatch_id 2, as hsa_queue_add_write_index does), then the
	 * one with slot 1 publishes and rings 1 before the one with slot 0
	 * rings 0.  Whether the CP's poll saw the 1 before the 0 overwrote it
	 * depends on the host's scheduling (the 5 ms below is no promise on a
	 * loaded host); either way both packets must run. */
	atomic_store_explicit((_Atomic uint64_t *)&q.aq->write_dispatch_id, 2,
			      memory_order_release);
	/* slot 1 first, rung with 1: the CP waits at slot 0's INVALID header */
	uint8_t *slot1 = q.ring + 64;
	memcpy(slot1 + 2, (const uint8_t *)&p1 + 2, 62);
	atomic_store_explicit((_Atomic uint16_t *)slot1, p1.header, memory_order_release);
	atomic_store_explicit(q.db, 1, memory_order_release);
	cp_sleep_ms(5);
	/* then slot 0, rung with 0 */
	uint8_t *slot0 = q.ring;
	memcpy(slot0 + 2, (const uint8_t *)&p0 + 2, 62);
	atomic_store_explicit((_Atomic uint16_t *)slot0, p0.header, memory_order_release);
	atomic_store_explicit(q.db, 0, memory_order_release);
	q.next = 2;
	ck_assert_int_eq(cp_sig_wait(s0, 0, 5000), 0);
	ck_assert_msg(cp_sig_wait(s1, 0, 2000) == 0,
		      "packet 1 (rung with 1 before packet 0 was rung with 0) never ran");
}
END_TEST

START_TEST(no_timestamps_without_profiling)
{
	struct cpq q;
	cp_queue_create(&q, 64);
	uint64_t done = cp_signal(1);
	hsa_barrier_and_packet_t p = cp_barrier(HSA_PACKET_TYPE_BARRIER_AND, done, 0, 0);
	cp_put(&q, &p, true);
	ck_assert_int_eq(cp_sig_wait(done, 0, 5000), 0);
	ck_assert_uint_eq(cp_sig(done)->start_ts, 0);
	ck_assert_uint_eq(cp_sig(done)->end_ts, 0);
}
END_TEST

START_TEST(barrier_value_packet)
{
	struct cpq q;
	cp_queue_create(&q, 64);
	uint64_t s = cp_signal(0x13), done = cp_signal(1);
	hsa_amd_barrier_value_packet_t p;
	memset(&p, 0, sizeof(p));
	p.header.header = cp_hdr(HSA_PACKET_TYPE_VENDOR_SPECIFIC, true);
	p.header.AmdFormat = HSA_AMD_PACKET_TYPE_BARRIER_VALUE;
	p.signal.handle = s;
	p.value = 0x20;
	p.mask = 0xF0;
	p.cond = HSA_SIGNAL_CONDITION_EQ;
	p.completion_signal.handle = done;
	cp_put(&q, &p, true);
	cp_sleep_ms(30);
	ck_assert_int_eq(cp_sig_load(done), 1);
	cp_sig_store(s, 0x2F);
	ck_assert_int_eq(cp_sig_wait(done, 0, 5000), 0);
}
END_TEST

/* An AMD PM4-IB vendor packet (ROCr's ExecutePM4) jumping to ib_va. */
static void pm4_ib_packet(uint8_t *p, uint64_t ib_va, uint32_t ndw, uint64_t completion)
{
	memset(p, 0, 64);
	uint16_t header = cp_hdr(HSA_PACKET_TYPE_VENDOR_SPECIFIC, true), format = 1;
	uint32_t cmd[4] = { 3u << 30 | 2u << 16 | 0x3Fu << 8, (uint32_t)ib_va & ~3u,
			    (uint32_t)(ib_va >> 32) & 0xFFFF, ndw | 1u << 23 };
	uint32_t remain = 10;
	memcpy(p, &header, 2);
	memcpy(p + 2, &format, 2);
	memcpy(p + 4, cmd, 16);
	memcpy(p + 20, &remain, 4);
	memcpy(p + 56, &completion, 8);
}

START_TEST(pm4_ib_packet_runs_its_buffer)
{
	struct cpq q;
	cp_queue_create(&q, 64);
	uint64_t ib_va = emu_buffer(4096, KFD_ALLOC_GTT, NULL);
	uint64_t dst_va = emu_buffer(4096, KFD_ALLOC_GTT, NULL);
	uint32_t *ib = cp_host(ib_va, 4096), *dst = cp_host(dst_va, 4096);
	unsigned n = 0;
	ib[n++] = 3u << 30 | 5u << 16 | 0x58u << 8; /* ACQUIRE_MEM, 6 body dwords */
	for (int i = 0; i < 6; i++)
		ib[n++] = 0;
	ib[n++] = 3u << 30 | 4u << 16 | 0x37u << 8; /* WRITE_DATA, 5 body dwords */
	ib[n++] = 5u << 8;                          /* DST_SEL memory */
	ib[n++] = (uint32_t)dst_va + 8;
	ib[n++] = (uint32_t)(dst_va >> 32);
	ib[n++] = 0xC0FFEE;
	ib[n++] = 0xBEEF;
	ib[n++] = 0x80000000u;                      /* type-2 filler */
	uint64_t done = cp_signal(1);
	uint8_t p[64];
	pm4_ib_packet(p, ib_va, n, done);
	cp_put(&q, p, true);
	ck_assert_int_eq(cp_sig_wait(done, 0, 5000), 0);
	ck_assert_uint_eq(dst[2], 0xC0FFEE);
	ck_assert_uint_eq(dst[3], 0xBEEF);
}
END_TEST

/* A bad packet stops q with `code` in its inactive signal and raises the
 * signal's event; rptr stays at the packet and later packets stay. */
static void expect_queue_error(const void *bad, uint64_t code)
{
	struct cpq q;
	cp_queue_create(&q, 64);
	uint32_t ev;
	uint64_t inactive = cp_inactive_signal(&q, &ev);
	uint64_t before = cp_signal(1), after = cp_signal(1);
	hsa_barrier_and_packet_t p = cp_barrier(HSA_PACKET_TYPE_BARRIER_AND, before, 0, 0);
	cp_put(&q, &p, true);
	cp_put(&q, bad, true);
	p.completion_signal.handle = after;
	cp_put(&q, &p, true);
	ck_assert_int_eq(cp_sig_wait(before, 0, 5000), 0);
	struct kfd_event_data d = { .event_id = ev };
	struct kfd_args_wait_events w = { .events_ptr = (uintptr_t)&d, .num_events = 1,
					  .wait_for_all = 1, .timeout = 5000 };
	ck_assert_int_eq(kio(KFD_IOCTL_WAIT_EVENTS, &w), 0);
	ck_assert_uint_eq(w.wait_result, KFD_WAIT_COMPLETE);
	ck_assert_msg(cp_sig_load(inactive) == (int64_t)code, "inactive signal 0x%llx, expected 0x%llx",
		      (unsigned long long)cp_sig_load(inactive), (unsigned long long)code);
	/* the queue is stopped: the packet after the bad one never runs, even
	 * when the doorbell is rung again */
	atomic_store_explicit(q.db, 2, memory_order_release);
	cp_sleep_ms(30);
	ck_assert_int_eq(cp_sig_load(after), 1);
	ck_assert_uint_eq(cp_rptr(&q), 1);
	ck_assert_uint_ne(cp_header_at(&q, 1) & 0xFF, HSA_PACKET_TYPE_INVALID);
	ck_assert_int_eq(cp_queue_destroy(&q), 0);
}

START_TEST(agent_dispatch_is_invalid_packet_format)
{
	hsa_agent_dispatch_packet_t p;
	memset(&p, 0, sizeof(p));
	p.header = cp_hdr(HSA_PACKET_TYPE_AGENT_DISPATCH, false);
	expect_queue_error(&p, 0x20);
}
END_TEST

START_TEST(reserved_packet_type_is_invalid_packet_format)
{
	hsa_barrier_and_packet_t p = cp_barrier(HSA_PACKET_TYPE_BARRIER_AND, 0, 0, 0);
	p.header = (uint16_t)((p.header & ~0xFF) | 9);
	expect_queue_error(&p, 0x20);
}
END_TEST

START_TEST(unknown_vendor_packet_is_vendor_error)
{
	hsa_amd_barrier_value_packet_t p;
	memset(&p, 0, sizeof(p));
	p.header.header = cp_hdr(HSA_PACKET_TYPE_VENDOR_SPECIFIC, false);
	p.header.AmdFormat = 7;
	expect_queue_error(&p, 0x100);
}
END_TEST

START_TEST(pm4_ib_with_unknown_opcode_is_vendor_error)
{
	uint64_t ib_va = emu_buffer(4096, KFD_ALLOC_GTT, NULL);
	uint32_t *ib = cp_host(ib_va, 4096);
	ib[0] = 3u << 30 | 0u << 16 | 0x15u << 8; /* DISPATCH_DIRECT-ish: not modelled */
	ib[1] = 0;
	uint8_t p[64];
	pm4_ib_packet(p, ib_va, 2, 0);
	expect_queue_error(p, 0x100);
}
END_TEST

static hsa_kernel_dispatch_packet_t dispatch_packet(void)
{
	hsa_kernel_dispatch_packet_t p;
	memset(&p, 0, sizeof(p));
	p.header = cp_hdr(HSA_PACKET_TYPE_KERNEL_DISPATCH, true);
	p.setup = 1;
	p.workgroup_size_x = 64;
	p.workgroup_size_y = p.workgroup_size_z = 1;
	p.grid_size_x = 64;
	p.grid_size_y = p.grid_size_z = 1;
	p.kernel_object = 0x40000000; /* never reached by the checks below */
	return p;
}

START_TEST(dispatch_with_zero_dimensions_is_dimension_error)
{
	hsa_kernel_dispatch_packet_t p = dispatch_packet();
	p.setup = 0;
	expect_queue_error(&p, 0x2);
}
END_TEST

START_TEST(dispatch_with_zero_grid_is_dimension_error)
{
	hsa_kernel_dispatch_packet_t p = dispatch_packet();
	p.grid_size_x = 0;
	expect_queue_error(&p, 0x2);
}
END_TEST

START_TEST(dispatch_above_1024_items_is_group_size_error)
{
	hsa_kernel_dispatch_packet_t p = dispatch_packet();
	p.setup = 2;
	p.workgroup_size_x = 64;
	p.workgroup_size_y = 32;
	p.grid_size_y = 32;
	expect_queue_error(&p, 0x40);
}
END_TEST

START_TEST(dispatch_of_null_kernel_object_is_code_object_error)
{
	hsa_kernel_dispatch_packet_t p = dispatch_packet();
	p.kernel_object = 0;
	expect_queue_error(&p, 0x8);
}
END_TEST

START_TEST(dispatch_of_unmapped_kernel_object_is_code_object_error)
{
	hsa_kernel_dispatch_packet_t p = dispatch_packet();
	p.kernel_object = 0x7f0000000000ull;
	expect_queue_error(&p, 0x8);
}
END_TEST

START_TEST(dispatch_above_64k_lds_is_group_memory_error)
{
	hsa_kernel_dispatch_packet_t p = dispatch_packet();
	p.kernel_object = emu_buffer(4096, KFD_ALLOC_GTT, NULL);
	p.group_segment_size = 65536 + 4;
	expect_queue_error(&p, 0x4);
}
END_TEST

START_TEST(unmapped_dependency_is_a_vm_fault)
{
	struct cpq q, other;
	cp_queue_create(&q, 64);
	cp_queue_create(&other, 64);
	uint64_t inactive = cp_inactive_signal(&q, NULL);
	struct kfd_args_create_event ce = { .event_type = KFD_EVENT_TYPE_MEMORY };
	ck_assert_int_eq(kio(KFD_IOCTL_CREATE_EVENT, &ce), 0);
	uint64_t done = cp_signal(1), after = cp_signal(1);
	uint64_t bad = 0x7e0000001000ull;
	hsa_barrier_and_packet_t p = cp_barrier(HSA_PACKET_TYPE_BARRIER_AND, done, bad, 0);
	cp_put(&q, &p, true);
	struct kfd_event_data d = { .event_id = ce.event_id };
	struct kfd_args_wait_events w = { .events_ptr = (uintptr_t)&d, .num_events = 1,
					  .wait_for_all = 1, .timeout = 5000 };
	ck_assert_int_eq(kio(KFD_IOCTL_WAIT_EVENTS, &w), 0);
	ck_assert_uint_eq(w.wait_result, KFD_WAIT_COMPLETE);
	ck_assert_uint_eq(d.memory_exception_data.va, bad);
	ck_assert_uint_eq(d.memory_exception_data.gpu_id, E.gpu_id);
	ck_assert_uint_eq(d.memory_exception_data.failure.NotPresent, 1);
	ck_assert_int_eq(cp_sig_load(done), 1);
	ck_assert_int_eq(cp_sig_load(inactive), 0); /* faults do not use it */
	/* the process's queues on the device are evicted */
	hsa_barrier_and_packet_t p2 = cp_barrier(HSA_PACKET_TYPE_BARRIER_AND, after, 0, 0);
	cp_put(&other, &p2, true);
	cp_sleep_ms(30);
	ck_assert_int_eq(cp_sig_load(after), 1);
}
END_TEST

START_TEST(error_leaves_other_queues_running)
{
	struct cpq bad, good;
	cp_queue_create(&bad, 64);
	cp_queue_create(&good, 64);
	uint64_t inactive = cp_inactive_signal(&bad, NULL);
	hsa_agent_dispatch_packet_t a;
	memset(&a, 0, sizeof(a));
	a.header = cp_hdr(HSA_PACKET_TYPE_AGENT_DISPATCH, false);
	cp_put(&bad, &a, true);
	ck_assert_int_eq(cp_sig_wait(inactive, 0x20, 5000), 0x20);
	uint64_t done = cp_signal(50);
	for (int i = 0; i < 50; i++) {
		hsa_barrier_and_packet_t p = cp_barrier(HSA_PACKET_TYPE_BARRIER_AND, done, 0, 0);
		cp_put(&good, &p, true);
	}
	ck_assert_int_eq(cp_sig_wait(done, 0, 5000), 0);
}
END_TEST

START_TEST(inactive_queue_stops_and_resumes)
{
	struct cpq q;
	cp_queue_create(&q, 64);
	struct kfd_args_update_queue u = { .queue_id = q.id, .ring_base_address = q.ring_va,
					   .ring_size = 64 * 64, .queue_percentage = 0,
					   .queue_priority = 7 };
	ck_assert_int_eq(kio(KFD_IOCTL_UPDATE_QUEUE, &u), 0);
	uint64_t done = cp_signal(1);
	hsa_barrier_and_packet_t p = cp_barrier(HSA_PACKET_TYPE_BARRIER_AND, done, 0, 0);
	cp_put(&q, &p, true);
	cp_sleep_ms(30);
	ck_assert_int_eq(cp_sig_load(done), 1);
	u.queue_percentage = 100;
	ck_assert_int_eq(kio(KFD_IOCTL_UPDATE_QUEUE, &u), 0);
	ck_assert_int_eq(cp_sig_wait(done, 0, 5000), 0);
}
END_TEST

START_TEST(barrier_round_trip_latency)
{
	/* a figure for the report: submit one BARRIER_AND and spin on its
	 * completion signal, as a busy runtime would */
	struct cpq q;
	cp_queue_create(&q, 256);
	uint64_t done = cp_signal(0);
	enum { N = 2000 };
	uint64_t t0 = cp_now_ns();
	for (int i = 0; i < N; i++) {
		cp_sig_store(done, 1);
		hsa_barrier_and_packet_t p = cp_barrier(HSA_PACKET_TYPE_BARRIER_AND, done, 0, 0);
		cp_put(&q, &p, true);
		ck_assert_int_eq(cp_sig_wait(done, 0, 5000), 0);
	}
	uint64_t per = (cp_now_ns() - t0) / N;
	printf("cp: BARRIER_AND round trip %llu ns (mean of %d, busy queue)\n",
	       (unsigned long long)per, N);
	ck_assert_uint_lt(per, 10000000); /* under 10 ms even under sanitizers */
}
END_TEST

/* What a thread that only wakes every 2 ms (the CP's deepest idle pace)
 * costs on this host under its current load: the floor the idle CP is
 * held to, measured in the same run (a fixed 5% failed on a loaded CI
 * host where the bare sleeper alone took 3-8%). */
static _Atomic bool idle_floor_stop;

static void *idle_floor_sleeper(void *arg)
{
	(void)arg;
	while (!atomic_load(&idle_floor_stop)) {
		struct timespec ts = { 0, 2000000 };
		nanosleep(&ts, NULL);
	}
	return NULL;
}

static double idle_cpu_share(unsigned ms)
{
	struct rusage r0, r1;
	getrusage(RUSAGE_SELF, &r0);
	uint64_t t0 = cp_now_ns();
	cp_sleep_ms(ms);
	getrusage(RUSAGE_SELF, &r1);
	uint64_t wall = cp_now_ns() - t0;
	uint64_t cpu = (uint64_t)(r1.ru_utime.tv_sec - r0.ru_utime.tv_sec) * 1000000000ull +
		       (uint64_t)(r1.ru_stime.tv_sec - r0.ru_stime.tv_sec) * 1000000000ull +
		       (uint64_t)(r1.ru_utime.tv_usec - r0.ru_utime.tv_usec) * 1000ull +
		       (uint64_t)(r1.ru_stime.tv_usec - r0.ru_stime.tv_usec) * 1000ull;
	return 100.0 * (double)cpu / (double)wall;
}

START_TEST(idle_cp_costs_little_cpu)
{
	unsigned ms = getenv("CP_IDLE_MS") ? (unsigned)atoi(getenv("CP_IDLE_MS")) : 500;
	atomic_store(&idle_floor_stop, false);
	pthread_t t;
	ck_assert_int_eq(pthread_create(&t, NULL, idle_floor_sleeper, NULL), 0);
	double floor = idle_cpu_share(ms);
	atomic_store(&idle_floor_stop, true);
	pthread_join(t, NULL);
	struct cpq q[3];
	for (int i = 0; i < 3; i++)
		cp_queue_create(&q[i], 64);
	cp_sleep_ms(100); /* past the spin phase */
	double pct = idle_cpu_share(ms);
	printf("cp: idle CPU with 3 queues: %.2f%% of one core (a thread waking every 2 ms: "
	       "%.2f%%)\n", pct, floor);
#ifdef __SANITIZE_THREAD__
	double limit = 25.0; /* TSan makes every poll ~10x dearer */
#else
	double limit = 5.0;
#endif
	if (limit < 3.0 * floor + 3.0)
		limit = 3.0 * floor + 3.0;
	ck_assert_msg(pct < limit, "idle CP used %.2f%% CPU (limit %.2f%%)", pct, limit);
}
END_TEST

static Suite *cp_packets_suite(void)
{
	Suite *s = suite_create("cp_packets");
	TCase *tc = tcase_create("packets");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, barrier_and_without_dependencies_completes);
	tcase_add_test(tc, barrier_and_waits_for_every_dependency);
	tcase_add_test(tc, barrier_or_completes_on_any_dependency);
	tcase_add_test(tc, barrier_or_of_null_handles_never_completes);
	tcase_add_test(tc, dependent_barrier_waits_for_other_queue);
	tcase_add_test(tc, batched_doorbell_consumes_every_packet);
	tcase_add_test(tc, packets_wait_for_their_doorbell);
	tcase_add_test(tc, late_doorbell_of_an_older_packet_hides_nothing);
	tcase_add_test(tc, ring_wraps_around);
	tcase_add_test(tc, unpublished_header_is_waited_for);
	tcase_add_test(tc, completion_mailbox_wakes_wait_events);
	tcase_add_test(tc, profiling_timestamps_span_the_packet);
	tcase_add_test(tc, profiling_start_is_the_pickup);
	tcase_add_test(tc, lower_doorbell_after_higher_keeps_the_higher);
	tcase_add_test(tc, no_timestamps_without_profiling);
	tcase_add_test(tc, barrier_value_packet);
	tcase_add_test(tc, pm4_ib_packet_runs_its_buffer);
	tcase_add_test(tc, pm4_ib_with_unknown_opcode_is_vendor_error);
	tcase_add_test(tc, agent_dispatch_is_invalid_packet_format);
	tcase_add_test(tc, reserved_packet_type_is_invalid_packet_format);
	tcase_add_test(tc, unknown_vendor_packet_is_vendor_error);
	tcase_add_test(tc, dispatch_with_zero_dimensions_is_dimension_error);
	tcase_add_test(tc, dispatch_with_zero_grid_is_dimension_error);
	tcase_add_test(tc, dispatch_above_1024_items_is_group_size_error);
	tcase_add_test(tc, dispatch_of_null_kernel_object_is_code_object_error);
	tcase_add_test(tc, dispatch_of_unmapped_kernel_object_is_code_object_error);
	tcase_add_test(tc, dispatch_above_64k_lds_is_group_memory_error);
	tcase_add_test(tc, unmapped_dependency_is_a_vm_fault);
	tcase_add_test(tc, error_leaves_other_queues_running);
	tcase_add_test(tc, inactive_queue_stops_and_resumes);
	tcase_add_test(tc, barrier_round_trip_latency);
	suite_add_tcase(s, tc);
	TCase *idle = tcase_create("idle");
	tcase_add_checked_fixture(idle, setup, teardown);
	tcase_set_timeout(idle, 60);
	tcase_add_test(idle, idle_cp_costs_little_cpu);
	suite_add_tcase(s, idle);
	return s;
}

HL_CHECK_MAIN(cp_packets_suite)
