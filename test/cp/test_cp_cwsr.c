/*
 * CWSR on the CP (emu/cp/cp_ctx.c): dispatches preempted mid-flight with
 * their waves written into the queue's context-save area and restored from
 * it -- under the KFDEMU_PREEMPT knob, on DESTROY with waves in flight, on
 * UPDATE_QUEUE and by time slicing when queues outnumber the hardware
 * slots -- and a save
 * area the GPU cannot write failing as on hardware (a VM fault by the
 * queue).  Hand-assembled kernels, so no compiler is needed; the kernels
 * the compilers make are preempted in test_isa_corpus_preempt and the HIP
 * corpus (hip_*_preempt_*).
 */
#include <check.h>
#include <stdlib.h>

#include "cp_fixture.h"

/* What the save layout puts where (emu/isa/isa.h): per wave, the VGPRs (8
 * rows for the hand kernels: rsrc1 0), 112 SGPRs, then the HWREG block
 * with the PC at +4. */
#define HAND_VGPR_ROWS 8u
#define HWREG_OFFSET (HAND_VGPR_ROWS * 256u + 112u * 4u)

static void setup(void)
{
	cp_setup();
}

static void setup_one_slot(void)
{
	cp_setup_slots(1);
}

static void teardown(void)
{
	emu_teardown();
	unsetenv("KFDEMU_PREEMPT");
}

/* A hand kernel (cp_hand_kernel); *entry gets its code's VA. */
static uint64_t hand_kernel(const uint32_t *code, unsigned n, uint64_t *entry)
{
	uint64_t kd = cp_hand_kernel(code, n, NULL, NULL);
	*entry = kd + CP_HAND_CODE_OFFSET;
	return kd;
}

/* s[0:1] = dst; s2 = 0; s3 = iterations; loop { s2 += 3; s3 -= 1;
 * s_cmp_lg_u32 s3, 0; s_cbranch_scc1 loop }; store s2 to dst.  A
 * preemption between the compare and the branch needs SCC saved; one
 * anywhere needs s2 and s3. */
static unsigned loop_kernel(uint32_t *code, uint64_t dst, uint32_t iterations)
{
	unsigned n = 0;
	code[n++] = 0xBE8000FF; /* s_mov_b32 s0, lit */
	code[n++] = (uint32_t)dst;
	code[n++] = 0xBE8100FF; /* s_mov_b32 s1, lit */
	code[n++] = (uint32_t)(dst >> 32);
	code[n++] = 0xBE820080; /* s_mov_b32 s2, 0 */
	code[n++] = 0xBE8300FF; /* s_mov_b32 s3, lit */
	code[n++] = iterations;
	code[n++] = 0x80028302; /* s_add_u32 s2, s2, 3 */
	code[n++] = 0x80838103; /* s_sub_u32 s3, s3, 1 */
	code[n++] = 0xBF078003; /* s_cmp_lg_u32 s3, 0 */
	code[n++] = 0xBF85FFFC; /* s_cbranch_scc1 -4 */
	code[n++] = 0xC0420080; /* s_store_dword s2, s[0:1], 0x0 */
	code[n++] = 0;
	code[n++] = 0xBF8C0000; /* s_waitcnt 0 */
	code[n++] = 0xBF810000; /* s_endpgm */
	return n;
}

/* The PC the first saved wave of the area's last save holds. */
static uint64_t saved_pc(const struct cpq *q)
{
	const uint8_t *h = cp_host(q->cwsr_va + E.gpu->ctl_stack_size, HWREG_OFFSET + 16);
	uint32_t lo, hi;
	memcpy(&lo, h + HWREG_OFFSET + 4, 4);
	memcpy(&hi, h + HWREG_OFFSET + 8, 4);
	return (uint64_t)lo | (uint64_t)(hi & 0xFFFF) << 32;
}

/* Under KFDEMU_PREEMPT=every:7 a loop of 2000 iterations per wave is
 * preempted hundreds of times, each time saved into the area and
 * restored from it, and still stores 3 x 2000; the area holds a wave whose
 * PC is in the loop. */
START_TEST(knob_preempts_a_loop_and_the_result_holds)
{
	enum { ITER = 2000 };
	setenv("KFDEMU_PREEMPT", "every:7", 1);
	struct cpq q;
	cp_queue_create(&q, 64);
	uint64_t inactive = cp_inactive_signal(&q, NULL);
	uint64_t out = emu_buffer(4096, KFD_ALLOC_GTT, NULL), entry;
	uint32_t *hout = cp_host(out, 4096);
	uint32_t code[32];
	unsigned n = loop_kernel(code, out, ITER);
	uint64_t done = cp_signal(1);
	/* 4 workgroups of one wave: the pool preempts them together */
	hsa_kernel_dispatch_packet_t p = cp_dispatch_packet(hand_kernel(code, n, &entry), 4 * 64, 64, 0, done);
	cp_put(&q, &p, true);
	int64_t v = cp_sig_wait(done, 0, 60000);
	ck_assert_msg(v == 0, "completion %lld, inactive signal 0x%llx", (long long)v,
		      (long long)cp_sig_load(inactive));
	ck_assert_uint_eq(hout[0], 3u * ITER);
	ck_assert_uint_eq(cp_rptr(&q), 1);
	uint64_t pc = saved_pc(&q);
	ck_assert_msg(pc >= entry + 7 * 4 && pc < entry + 11 * 4,
		      "saved PC 0x%llx is not in the loop at 0x%llx", (unsigned long long)pc,
		      (unsigned long long)(entry + 7 * 4));
	ck_assert_int_eq(cp_queue_destroy(&q), 0);
}
END_TEST

/* A context-save area the GPU may only read: CREATE_QUEUE accepts it (the
 * kernel checks the mapping's place and size, not its access), and the
 * first preemption's save faults as the trap handler's stores would: a
 * read-only VM fault at the area, reported to the process (MEMORY event),
 * the queue stopped with the dispatch unretired. */
START_TEST(read_only_save_area_faults_under_preemption)
{
	setenv("KFDEMU_PREEMPT", "every:7", 1);
	struct cpq q;
	ck_assert_int_eq(cp_queue_create_cwsr(&q, 64, 7, KFD_ALLOC_GTT), 0);
	struct kfd_args_create_event ce = { .event_type = KFD_EVENT_TYPE_MEMORY };
	ck_assert_int_eq(kio(KFD_IOCTL_CREATE_EVENT, &ce), 0);
	uint64_t out = emu_buffer(4096, KFD_ALLOC_GTT, NULL), entry;
	uint32_t code[32];
	unsigned n = loop_kernel(code, out, 2000);
	uint64_t done = cp_signal(1);
	hsa_kernel_dispatch_packet_t p = cp_dispatch_packet(hand_kernel(code, n, &entry), 64, 64, 0, done);
	cp_put(&q, &p, true);
	struct kfd_event_data d = { .event_id = ce.event_id };
	struct kfd_args_wait_events w = { .events_ptr = (uintptr_t)&d, .num_events = 1,
					  .wait_for_all = 1, .timeout = 10000 };
	ck_assert_int_eq(kio(KFD_IOCTL_WAIT_EVENTS, &w), 0);
	ck_assert_uint_eq(w.wait_result, KFD_WAIT_COMPLETE);
	uint64_t va = d.memory_exception_data.va;
	ck_assert_msg(va >= q.cwsr_va + E.gpu->ctl_stack_size && va < q.cwsr_va + E.gpu->cwsr_size,
		      "fault at 0x%llx, not in the save area at 0x%llx", (unsigned long long)va,
		      (unsigned long long)q.cwsr_va);
	ck_assert_uint_eq(d.memory_exception_data.failure.ReadOnly, 1);
	cp_sleep_ms(20);
	ck_assert_int_eq(cp_sig_load(done), 1);
	ck_assert_uint_eq(cp_rptr(&q), 0);
}
END_TEST

/* DESTROY_QUEUE with waves in flight saves them first (unmap_queues with
 * CWSR), then the queue goes: the area holds the endless loop's waves. */
START_TEST(destroy_saves_the_waves_in_flight)
{
	static const uint32_t spin[] = { 0xBF82FFFF }; /* s_branch -1 */
	struct cpq q;
	cp_queue_create(&q, 64);
	uint64_t entry, done = cp_signal(1);
	hsa_kernel_dispatch_packet_t p = cp_dispatch_packet(hand_kernel(spin, 1, &entry), 8 * 256, 256, 0, done);
	cp_put(&q, &p, true);
	cp_sleep_ms(100);
	ck_assert_uint_eq(saved_pc(&q), 0); /* nothing saved yet */
	ck_assert_int_eq(cp_queue_destroy(&q), 0);
	ck_assert_uint_eq(saved_pc(&q), entry);
	ck_assert_int_eq(cp_sig_load(done), 1);
}
END_TEST

/* buf[0] = 1 (started); spin until buf[1] != 0; buf[2] = 42.  The spin
 * loop is code dwords 8..12. */
static unsigned wait_flag_kernel(uint32_t *code, uint64_t buf)
{
	unsigned n = 0;
	code[n++] = 0xBE8000FF; /* s_mov_b32 s0, lit */
	code[n++] = (uint32_t)buf;
	code[n++] = 0xBE8100FF; /* s_mov_b32 s1, lit */
	code[n++] = (uint32_t)(buf >> 32);
	code[n++] = 0xBE820081; /* s_mov_b32 s2, 1 */
	code[n++] = 0xC0420080; /* s_store_dword s2, s[0:1], 0x0 */
	code[n++] = 0;
	code[n++] = 0xBF8C0000; /* s_waitcnt 0 */
	code[n++] = 0xC00300C0; /* loop: s_load_dword s3, s[0:1], 0x4 glc */
	code[n++] = 4;
	code[n++] = 0xBF8C0000; /* s_waitcnt 0 */
	code[n++] = 0xBF068003; /* s_cmp_eq_u32 s3, 0 */
	code[n++] = 0xBF85FFFB; /* s_cbranch_scc1 loop */
	code[n++] = 0x8002A902; /* s_add_u32 s2, s2, 41 */
	code[n++] = 0xC0420080; /* s_store_dword s2, s[0:1], 0x8 */
	code[n++] = 8;
	code[n++] = 0xBF8C0000; /* s_waitcnt 0 */
	code[n++] = 0xBF810000; /* s_endpgm */
	return n;
}

/* UPDATE_QUEUE to inactive while a dispatch runs returns with its waves
 * saved in the area (update_queue_cpsch preempts with wave save) instead
 * of waiting for a kernel that cannot end while the queue is inactive;
 * when the queue is active again the dispatch resumes from the area (s2
 * kept) and ends once the host lets it. */
START_TEST(inactivation_saves_a_running_dispatch_and_activation_resumes_it)
{
	struct cpq q;
	cp_queue_create(&q, 64);
	uint64_t buf = emu_buffer(4096, KFD_ALLOC_GTT, NULL), entry;
	_Atomic uint32_t *hb = cp_host(buf, 4096);
	uint32_t code[32];
	unsigned n = wait_flag_kernel(code, buf);
	uint64_t done = cp_signal(1);
	hsa_kernel_dispatch_packet_t p = cp_dispatch_packet(hand_kernel(code, n, &entry), 64, 64, 0, done);
	cp_put(&q, &p, true);
	uint64_t end = cp_now_ns() + 20000000000ull;
	while (!atomic_load(&hb[0]) && cp_now_ns() < end)
		cp_sleep_ms(1);
	ck_assert_uint_eq(atomic_load(&hb[0]), 1); /* running */
	struct kfd_args_update_queue u = { .queue_id = q.id, .ring_base_address = q.ring_va,
					   .ring_size = q.size * 64, .queue_percentage = 0,
					   .queue_priority = 7 };
	ck_assert_int_eq(kio(KFD_IOCTL_UPDATE_QUEUE, &u), 0);
	uint64_t pc = saved_pc(&q);
	ck_assert_msg(pc >= entry + 8 * 4 && pc < entry + 13 * 4,
		      "saved PC 0x%llx is not in the spin loop at 0x%llx", (unsigned long long)pc,
		      (unsigned long long)(entry + 8 * 4));
	atomic_store(&hb[1], 1); /* nothing runs it while inactive */
	cp_sleep_ms(20);
	ck_assert_int_eq(cp_sig_load(done), 1);
	ck_assert_uint_eq(atomic_load(&hb[2]), 0);
	u.queue_percentage = 100;
	ck_assert_int_eq(kio(KFD_IOCTL_UPDATE_QUEUE, &u), 0);
	ck_assert_int_eq(cp_sig_wait(done, 0, 20000), 0);
	ck_assert_uint_eq(atomic_load(&hb[2]), 42);
	ck_assert_int_eq(cp_queue_destroy(&q), 0);
}
END_TEST

/* Two queues on one hardware slot: queue a's kernel never ends, yet
 * queue b's dispatch completes, because the HWS time-slices an
 * oversubscribed runlist and preempts a's dispatch mid-flight (its waves
 * saved) at the end of its quantum.  Then a resumes (from the area) until
 * it is destroyed. */
START_TEST(time_slicing_preempts_an_endless_dispatch)
{
	static const uint32_t spin[] = { 0xBF82FFFF };
	static const uint32_t endpgm[] = { 0xBF810000 };
	struct cpq a, b;
	cp_queue_create(&a, 64);
	cp_queue_create(&b, 64);
	uint64_t entry, adone = cp_signal(1), bdone = cp_signal(1);
	hsa_kernel_dispatch_packet_t p = cp_dispatch_packet(hand_kernel(spin, 1, &entry), 4 * 64, 64, 0, adone);
	cp_put(&a, &p, true);
	cp_sleep_ms(50);
	p = cp_dispatch_packet(hand_kernel(endpgm, 1, &entry), 64, 64, 0, bdone);
	cp_put(&b, &p, true);
	ck_assert_int_eq(cp_sig_wait(bdone, 0, 20000), 0);
	ck_assert_uint_eq(cp_rptr(&b), 1);
	ck_assert_int_eq(cp_sig_load(adone), 1);
	ck_assert_int_eq(cp_queue_destroy(&a), 0);
	ck_assert_int_eq(cp_queue_destroy(&b), 0);
}
END_TEST

static Suite *cwsr_suite(void)
{
	Suite *s = suite_create("cp_cwsr");
	TCase *tc = tcase_create("cwsr");
	tcase_set_timeout(tc, 120);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, knob_preempts_a_loop_and_the_result_holds);
	tcase_add_test(tc, read_only_save_area_faults_under_preemption);
	tcase_add_test(tc, destroy_saves_the_waves_in_flight);
	tcase_add_test(tc, inactivation_saves_a_running_dispatch_and_activation_resumes_it);
	suite_add_tcase(s, tc);
	TCase *ts = tcase_create("time_slicing");
	tcase_set_timeout(ts, 120);
	tcase_add_checked_fixture(ts, setup_one_slot, teardown);
	tcase_add_test(ts, time_slicing_preempts_an_endless_dispatch);
	suite_add_tcase(s, ts);
	return s;
}

HL_CHECK_MAIN(cwsr_suite)
