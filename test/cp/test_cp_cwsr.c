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

/* ---- the wave state through GET_QUEUE_WAVE_STATE ----
 *
 * An independent decoder of what the ioctl returns and the area holds,
 * written from the layout ROCdbgapi decodes for gfx90a and gfx940
 * (architecture.cpp: gfx9_architecture_t::control_stack_iterate,
 * cwsr_record_t::register_address, gfx90a_t::cwsr_record_t; queue.cpp:
 * the header's offsets) and from the kernel's get_wave_state
 * (kfd_mqd_manager_v9.c): the header's control stack and wave-state
 * offsets and used sizes; the stack's words from its top after two PM4
 * dwords, a state word (bit 31) followed by wave words (bit 31 and 30
 * clear; FIRST_WAVE bit 17, LAST_WAVE bit 16); the records walked down from
 * the wave-state end, each 64 bytes below the previous one: LDS (first
 * wave: state[16:9] x 512 bytes), 16 ttmps, 16 HWREGs (M0, PC lo, PC hi,
 * ...), (state[8:6] + 1) x 16 - 16 SGPRs, (state[5:0] + 1) x 8 VGPR rows
 * of 256 bytes; the last record's VGPRs at the wave-state start. */
struct dec_wave {
	uint32_t xcc;
	uint64_t pc;
	uint32_t s0, s2;            /* the kernel's workgroup id x and counter */
	bool first, last;
	uint32_t lds_bytes, sgprs, vgpr_rows;
};

/* Decodes XCC xcc's part of the ioctl's output (at out) and of the area
 * (host view of ctx) into w[*n...]; returns false with a reason in why. */
static bool dec_xcc(const uint8_t *out, const uint8_t *ctx, uint32_t xcc, struct dec_wave *w,
		    unsigned *n, unsigned max, char *why, size_t whylen)
{
	uint32_t h[4], stack = E.gpu->ctl_stack_size, state = 0;
	memcpy(h, out, sizeof(h));
	if (h[0] + h[1] != stack || h[2] - h[3] != stack) {
		snprintf(why, whylen, "XCC %u header %u+%u, %u-%u: not at the stack's end %u", xcc,
			 h[0], h[1], h[2], h[3], stack);
		return false;
	}
	if (!h[1])
		return h[3] == 0;
	uint64_t last = h[2];
	for (uint32_t off = h[0] + 8; off < stack; off += 4) {
		uint32_t word;
		memcpy(&word, out + off, 4);
		if (word >> 30 & 1)
			continue; /* an event (ROCdbgapi tests that bit first) */
		if (word >> 31) {
			state = word;
			continue;
		}
		if (!state || *n == max) {
			snprintf(why, whylen, "XCC %u: wave word 0x%x without a state or too many",
				 xcc, word);
			return false;
		}
		struct dec_wave *d = &w[(*n)++];
		d->xcc = xcc;
		d->first = word >> 17 & 1;
		d->last = word >> 16 & 1;
		d->lds_bytes = (state >> 9 & 0xFF) * 512;
		d->sgprs = ((state >> 6 & 7) + 1) * 16 - 16;
		d->vgpr_rows = ((state & 0x3F) + 1) * 8;
		uint64_t end = last - 64, ttmps = end - 64 - (d->first ? d->lds_bytes : 0);
		uint64_t hwregs = ttmps - 64, sgprs = hwregs - d->sgprs * 4;
		uint64_t vgprs = sgprs - (uint64_t)d->vgpr_rows * 256;
		if (vgprs < stack || vgprs > last) {
			snprintf(why, whylen, "XCC %u: record below the wave area", xcc);
			return false;
		}
		uint32_t pc_lo, pc_hi;
		memcpy(&pc_lo, ctx + hwregs + 4, 4);
		memcpy(&pc_hi, ctx + hwregs + 8, 4);
		d->pc = (uint64_t)pc_lo | (uint64_t)(pc_hi & 0xFFFF) << 32;
		memcpy(&d->s0, ctx + sgprs, 4);
		memcpy(&d->s2, ctx + sgprs + 8, 4);
		last = vgprs;
	}
	if (last != stack) {
		snprintf(why, whylen, "XCC %u: the records end at 0x%llx, not at the wave-state "
			 "start 0x%x", xcc, (unsigned long long)last, stack);
		return false;
	}
	return true;
}

/* Per wave: buf[1] = 1 (started); spin counting in s2 until buf[0] != 0;
 * then buf[16 + wg] = wg + 1, wg being s0 (ENABLE_SGPR_WORKGROUP_ID_X, no
 * user SGPRs).  The spin loop is code dwords 9..14. */
enum { SPIN_LOOP_FIRST = 9, SPIN_LOOP_END = 15 };
static unsigned spin_flag_kernel(uint32_t *code, uint64_t buf)
{
	unsigned n = 0;
	code[n++] = 0xBE8400FF; /* s_mov_b32 s4, lit */
	code[n++] = (uint32_t)buf;
	code[n++] = 0xBE8500FF; /* s_mov_b32 s5, lit */
	code[n++] = (uint32_t)(buf >> 32);
	code[n++] = 0xBE820080; /* s_mov_b32 s2, 0 */
	code[n++] = 0xBE890081; /* s_mov_b32 s9, 1 */
	code[n++] = 0xC0420242; /* s_store_dword s9, s[4:5], 0x4 */
	code[n++] = 4;
	code[n++] = 0xBF8C0000; /* s_waitcnt 0 */
	code[n++] = 0x80028102; /* loop: s_add_u32 s2, s2, 1 */
	code[n++] = 0xC0030182; /* s_load_dword s6, s[4:5], 0x0 glc */
	code[n++] = 0;
	code[n++] = 0xBF8C0000; /* s_waitcnt 0 */
	code[n++] = 0xBF068006; /* s_cmp_eq_u32 s6, 0 */
	code[n++] = 0xBF85FFFA; /* s_cbranch_scc1 loop */
	code[n++] = 0x8E078200; /* s_lshl_b32 s7, s0, 2 */
	code[n++] = 0x80040704; /* s_add_u32 s4, s4, s7 */
	code[n++] = 0x82058005; /* s_addc_u32 s5, s5, 0 */
	code[n++] = 0x80088100; /* s_add_u32 s8, s0, 1 */
	code[n++] = 0xC0420202; /* s_store_dword s8, s[4:5], 0x40 */
	code[n++] = 0x40;
	code[n++] = 0xBF8C0000; /* s_waitcnt 0 */
	code[n++] = 0xBF810000; /* s_endpgm */
	return n;
}

/* The ioctl writing into out (cwsr_size bytes per XCC: ROCr and ROCdbgapi
 * pass the area itself, which this process sees only through the GPU VM). */
static long wave_state_of(const struct cpq *q, struct kfd_args_get_queue_wave_state *w,
			  uint8_t *out)
{
	memset(w, 0, sizeof(*w));
	w->queue_id = q->id;
	w->ctl_stack_address = (uintptr_t)out;
	return kio(KFD_IOCTL_GET_QUEUE_WAVE_STATE, w);
}

static void set_active(const struct cpq *q, bool on)
{
	struct kfd_args_update_queue u = { .queue_id = q->id, .ring_base_address = q->ring_va,
					   .ring_size = q->size * 64,
					   .queue_percentage = on ? 100 : 0, .queue_priority = 7 };
	ck_assert_int_eq(kio(KFD_IOCTL_UPDATE_QUEUE, &u), 0);
}

enum { SPIN_WGS = 8, SPIN_WAVES = 4, SPIN_MAXW = SPIN_WGS * SPIN_WAVES };

/* The spin kernel dispatched on q as SPIN_WGS workgroups of SPIN_WAVES
 * waves; returns once a wave stored buf[1], with *hb, *entry, *done. */
static void spin_dispatch(struct cpq *q, _Atomic uint32_t **hb, uint64_t *entry, uint64_t *done)
{
	uint64_t buf = emu_buffer(4096, KFD_ALLOC_GTT, NULL), kd;
	uint8_t *host;
	uint32_t code[32], rsrc2 = 1u << 7; /* ENABLE_SGPR_WORKGROUP_ID_X */
	unsigned n = spin_flag_kernel(code, buf);
	*hb = cp_host(buf, 4096);
	kd = cp_hand_kernel(code, n, NULL, &host);
	memcpy(host + 52, &rsrc2, 4);
	*entry = kd + CP_HAND_CODE_OFFSET;
	*done = cp_signal(1);
	hsa_kernel_dispatch_packet_t p = cp_dispatch_packet(kd, SPIN_WGS * SPIN_WAVES * 64,
							    SPIN_WAVES * 64, 0, *done);
	cp_put(q, &p, true);
	uint64_t end = cp_now_ns() + 20000000000ull;
	while (!atomic_load(&(*hb)[1]) && cp_now_ns() < end)
		cp_sleep_ms(1);
	ck_assert_uint_eq(atomic_load(&(*hb)[1]), 1);
}

/* GET_QUEUE_WAVE_STATE of q (inactive, its spin dispatch saved) into out
 * (cwsr_size bytes per XCC), decoded with the area: for each saved
 * workgroup SPIN_WAVES waves from FIRST_WAVE to LAST_WAVE, its workgroup
 * id (s0) on the XCC the round robin gives it, every PC at the entry or in
 * the spin loop, a counter that ran, and the used sizes adding up. */
static void check_spin_wave_state(const struct cpq *q, uint64_t entry, uint8_t *out)
{
	uint32_t n_xcc = E.gpu->num_xcc ? E.gpu->num_xcc : 1;
	uint64_t area = (uint64_t)E.gpu->cwsr_size * n_xcc;
	struct kfd_args_get_queue_wave_state ws;
	memset(out, 0xA5, area);
	ck_assert_int_eq(wave_state_of(q, &ws, out), 0);
	const uint8_t *ctx = cp_host(q->cwsr_va, area);
	struct dec_wave w[SPIN_MAXW];
	unsigned nw = 0;
	char why[160] = "";
	for (uint32_t x = 0; x < n_xcc; x++) {
		const uint8_t *base = out + (size_t)E.gpu->cwsr_size * x;
		uint32_t h[4];
		memcpy(h, base, sizeof(h));
		if (x == 0) {
			ck_assert_uint_eq(ws.ctl_stack_used_size, h[1]);
			ck_assert_uint_eq(ws.save_area_used_size, h[3]);
		}
		ck_assert_msg(dec_xcc(base, ctx + (size_t)E.gpu->cwsr_size * x, x, w, &nw,
				      SPIN_MAXW, why, sizeof(why)), "%s", why);
	}
	ck_assert_msg(nw >= SPIN_WAVES && nw % SPIN_WAVES == 0, "%u waves saved", nw);
	bool seen[SPIN_WGS] = { false };
	unsigned spinning = 0;
	for (unsigned i = 0; i < nw; i += SPIN_WAVES) {
		uint32_t wg = w[i].s0;
		ck_assert_msg(wg < SPIN_WGS && !seen[wg], "workgroup id %u", wg);
		seen[wg] = true;
		for (unsigned k = 0; k < SPIN_WAVES; k++) {
			const struct dec_wave *d = &w[i + k];
			ck_assert_uint_eq(d->first, k == 0);
			ck_assert_uint_eq(d->last, k == SPIN_WAVES - 1);
			ck_assert_uint_eq(d->s0, wg);
			ck_assert_uint_eq(d->xcc, wg % n_xcc);
			ck_assert_uint_eq(d->lds_bytes, 0);
			ck_assert_uint_eq(d->sgprs, 112);
			ck_assert_uint_eq(d->vgpr_rows, 8); /* rsrc1 0 */
			/* spinning, or not started yet: the interpreter runs a
			 * workgroup's waves in turn, and a spinning wave may
			 * keep its turn until the end of its slice */
			bool in_loop = d->pc >= entry + SPIN_LOOP_FIRST * 4 &&
				       d->pc < entry + SPIN_LOOP_END * 4;
			ck_assert_msg(in_loop || d->pc == entry,
				      "workgroup %u wave %u: PC 0x%llx neither at the entry nor in "
				      "the loop at 0x%llx", wg, k, (unsigned long long)d->pc,
				      (unsigned long long)(entry + SPIN_LOOP_FIRST * 4));
			spinning += in_loop;
			/* past the loop's first s_add, the counter ran */
			if (d->pc > entry + SPIN_LOOP_FIRST * 4)
				ck_assert_uint_ge(d->s2, 1);
		}
	}
	/* the wave that stored buf[1] cannot leave the loop: it is saved */
	ck_assert_msg(spinning, "no saved wave in the loop");
	/* XCC 0's used sizes: words (two PM4 dwords, a state per workgroup,
	 * a word per wave) and records (registers, 128 HWREG bytes, 64 above) */
	unsigned on0 = 0;
	for (unsigned i = 0; i < nw; i++)
		on0 += w[i].xcc == 0;
	if (on0) {
		ck_assert_uint_eq(ws.ctl_stack_used_size, 4 * (2 + on0 / SPIN_WAVES + on0));
		ck_assert_uint_eq(ws.save_area_used_size, on0 * (8 * 256 + 112 * 4 + 128 + 64));
	}
}

/* The spin dispatch, preempted every 50 instructions (each time saved
 * through the control stack and restored from it), is running when its
 * queue is made inactive (update_queue_cpsch unmaps it with the waves
 * saved).  GET_QUEUE_WAVE_STATE then reports the saved waves as the kernel
 * does (check_spin_wave_state).  Resumed, every workgroup stores its
 * result; inactive again after the end, the state is empty (the stack was
 * popped at the restore). */
static void wave_state_of_a_preempted_dispatch(void)
{
	setenv("KFDEMU_PREEMPT", "every:50", 1);
	struct cpq q;
	cp_queue_create(&q, 64);
	uint32_t n_xcc = E.gpu->num_xcc ? E.gpu->num_xcc : 1;
	_Atomic uint32_t *hb;
	uint64_t entry, done;
	spin_dispatch(&q, &hb, &entry, &done);
	set_active(&q, false);
	uint8_t *out = malloc((size_t)E.gpu->cwsr_size * n_xcc);
	ck_assert_ptr_nonnull(out);
	check_spin_wave_state(&q, entry, out);

	atomic_store(&hb[0], 1);
	set_active(&q, true);
	ck_assert_int_eq(cp_sig_wait(done, 0, 60000), 0);
	for (unsigned wg = 0; wg < SPIN_WGS; wg++)
		ck_assert_uint_eq(atomic_load(&hb[16 + wg]), wg + 1);
	set_active(&q, false);
	struct kfd_args_get_queue_wave_state ws;
	ck_assert_int_eq(wave_state_of(&q, &ws, out), 0);
	ck_assert_uint_eq(ws.ctl_stack_used_size, 0);
	ck_assert_uint_eq(ws.save_area_used_size, 0);
	free(out);
	ck_assert_int_eq(cp_queue_destroy(&q), 0);
}

/* A VM fault by another queue of the process evicts every queue of it on
 * the GPU (kfd_dqm_evict_pasid): the spin dispatch is saved on the way and
 * its queue, still active in the driver's UPDATE_QUEUE sense, counts as
 * inactive (evict_process_queues_cpsch clears is_active): GET_QUEUE_WAVE_
 * STATE reports what the eviction saved.  Active and not evicted, the
 * ioctl still refuses. */
START_TEST(wave_state_of_an_evicted_queue)
{
	struct cpq a, b;
	cp_queue_create(&a, 64);
	cp_queue_create(&b, 64);
	struct kfd_args_create_event ce = { .event_type = KFD_EVENT_TYPE_MEMORY };
	ck_assert_int_eq(kio(KFD_IOCTL_CREATE_EVENT, &ce), 0);
	_Atomic uint32_t *hb;
	uint64_t entry, done;
	spin_dispatch(&a, &hb, &entry, &done);
	uint8_t *out = malloc(E.gpu->cwsr_size);
	ck_assert_ptr_nonnull(out);
	struct kfd_args_get_queue_wave_state ws;
	ck_assert_int_eq(wave_state_of(&a, &ws, out), -EINVAL); /* running */

	/* b reads a VA nothing maps */
	uint64_t hole = emu_va(4096), bentry, bdone = cp_signal(1);
	uint32_t code[] = { 0xBE8000FF, (uint32_t)hole,         /* s_mov_b32 s0, lit */
			    0xBE8100FF, (uint32_t)(hole >> 32), /* s_mov_b32 s1, lit */
			    0xC0020080, 0,                      /* s_load_dword s2, s[0:1], 0 */
			    0xBF8C0000, 0xBF810000 };           /* s_waitcnt 0; s_endpgm */
	hsa_kernel_dispatch_packet_t p = cp_dispatch_packet(hand_kernel(code, 8, &bentry), 64, 64,
							    0, bdone);
	cp_put(&b, &p, true);
	struct kfd_event_data d = { .event_id = ce.event_id };
	struct kfd_args_wait_events w = { .events_ptr = (uintptr_t)&d, .num_events = 1,
					  .wait_for_all = 1, .timeout = 10000 };
	ck_assert_int_eq(kio(KFD_IOCTL_WAIT_EVENTS, &w), 0);
	ck_assert_uint_eq(w.wait_result, KFD_WAIT_COMPLETE);
	ck_assert_uint_eq(d.memory_exception_data.va & ~0xFFFull, hole);

	check_spin_wave_state(&a, entry, out);
	ck_assert_int_eq(wave_state_of(&b, &ws, out), 0); /* evicted, nothing saved */
	ck_assert_uint_eq(ws.ctl_stack_used_size, 0);
	ck_assert_uint_eq(ws.save_area_used_size, 0);
	free(out);
	ck_assert_int_eq(cp_sig_load(done), 1); /* never resumes: eviction is final */
}
END_TEST

START_TEST(wave_state_reports_the_saved_waves)
{
	wave_state_of_a_preempted_dispatch();
}
END_TEST

static void setup_mi300x(void)
{
	cp_setup_preset("mi300x", 0);
}

/* GC 9.4.3: each XCC saves its own workgroups (the round robin) into its
 * own area with its own control stack (get_wave_state_v9_4_3). */
START_TEST(wave_state_reports_each_xcc_on_mi300x)
{
	ck_assert_uint_gt(E.gpu->num_xcc, 1);
	wave_state_of_a_preempted_dispatch();
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
	tcase_add_test(tc, wave_state_reports_the_saved_waves);
	tcase_add_test(tc, wave_state_of_an_evicted_queue);
	suite_add_tcase(s, tc);
	TCase *tx = tcase_create("mi300x");
	tcase_set_timeout(tx, 120);
	tcase_add_checked_fixture(tx, setup_mi300x, teardown);
	tcase_add_test(tx, wave_state_reports_each_xcc_on_mi300x);
	suite_add_tcase(s, tx);
	TCase *ts = tcase_create("time_slicing");
	tcase_set_timeout(ts, 120);
	tcase_add_checked_fixture(ts, setup_one_slot, teardown);
	tcase_add_test(ts, time_slicing_preempts_an_endless_dispatch);
	suite_add_tcase(s, ts);
	return s;
}

HL_CHECK_MAIN(cwsr_suite)
