/*
 * Traps and exceptions as the hardware and the kernel take them (emu/isa,
 * isa_trap.c; docs/kfdemu.md, "Traps"), through the CP and raw KFD ioctls:
 *   - no second-level handler (strict, the default): s_trap is skipped
 *     (PC + 4) and the kernel runs on; an illegal instruction or a memory
 *     violation halts the wave, the dispatch never completes and nothing is
 *     written; each is counted (kemu_cp_unreported_exceptions) and logged;
 *   - a handler installed with SET_TRAP_HANDLER runs with the PC, trap id,
 *     STATUS and TMA in the ttmp registers, TRAPSTS readable, MSG_GET_DOORBELL
 *     answering the queue's doorbell slot; s_rfe_b64 returns with SCC
 *     restored, or leaves the wave halted when STATUS.HALT was set;
 *   - a handler's exception interrupt (PRIV, doorbell id and mask) goes to
 *     a RUNTIME_ENABLE'd process as kfd_send_exception_to_runtime sends it
 *     (the context-save header's payload word and event), else it is an
 *     ordinary event interrupt.
 * Hand-assembled code (llvm-mc-19 encodings, each instruction named).
 */
#include "cp_fixture.h"
#include "cp/cp.h"

static void setup(void)
{
	unsetenv("KFDEMU_TRAPS"); /* the default: strict */
	cp_setup();
}

static void teardown(void)
{
	emu_teardown();
}

/* Kernel: s[0:1] = dst, s3 = 0x600D, s4 = 0xBAD, SCC = 1, then the
 * instruction under test (dword TRAP_DW), then s2 = SCC ? s3 : s4 stored
 * to dst.  A trap that returns with SCC restored stores 0x600D. */
#define TRAP_DW 9
static const uint32_t trap_kernel_tmpl[] = {
	0xBE8000FF, 0,          /* s_mov_b32 s0, lo(dst) */
	0xBE8100FF, 0,          /* s_mov_b32 s1, hi(dst) */
	0xBE8300FF, 0x0000600D, /* s_mov_b32 s3, 0x600d */
	0xBE8400FF, 0x00000BAD, /* s_mov_b32 s4, 0xbad */
	0xBF068080,             /* s_cmp_eq_u32 0, 0 */
	0xBF920002,             /* s_trap 2 (or the instruction under test) */
	0x85020403,             /* s_cselect_b32 s2, s3, s4 */
	0xC0430080, 0x00000000, /* s_store_dword s2, s[0:1], 0x0 glc */
	0xBF8CC07F,             /* s_waitcnt lgkmcnt(0) */
	0xBF810000,             /* s_endpgm */
};
#define TRAP_KERNEL_DWORDS (sizeof(trap_kernel_tmpl) / 4)
#define UNDEFINED_SOPP 0xBFFF0000u /* SOPP opcode 127: an illegal instruction */

/* Second-level handler: stores ttmp0, ttmp1, ttmp12, TRAPSTS, the
 * MSG_GET_DOORBELL answer and ttmp14/15 (the TMA) at TMA + 0x0 .. 0x18;
 * then for an s_trap (trap id != 0) returns past it, for an exception
 * returns as it is (the first-level handler set STATUS.HALT: the wave
 * stays halted). */
static const uint32_t handler[] = {
	0xC0431B3D, 0x00000000, /* s_store_dword ttmp0, ttmp[14:15], 0x0 glc */
	0xC0431B7D, 0x00000004, /* s_store_dword ttmp1, ttmp[14:15], 0x4 glc */
	0xC0431E3D, 0x00000008, /* s_store_dword ttmp12, ttmp[14:15], 0x8 glc */
	0xB8EEF803,             /* s_getreg_b32 ttmp2, hwreg(HW_REG_TRAPSTS) */
	0xC0431BBD, 0x0000000C, /* s_store_dword ttmp2, ttmp[14:15], 0xc glc */
	0xBEEF007E,             /* s_mov_b32 ttmp3, exec_lo */
	0xBEFE00FF, 0x80000000, /* s_mov_b32 exec_lo, 0x80000000 */
	0xBF90000A,             /* s_sendmsg sendmsg(MSG_GET_DOORBELL) */
	0xBEF0007E,             /* s_mov_b32 ttmp4, exec_lo */
	0xC0431C3D, 0x00000010, /* s_store_dword ttmp4, ttmp[14:15], 0x10 glc */
	0xBEFE006F,             /* s_mov_b32 exec_lo, ttmp3 */
	0xC0471EBD, 0x00000018, /* s_store_dwordx2 ttmp[14:15], ttmp[14:15], 0x18 glc */
	0xBF8CC07F,             /* s_waitcnt lgkmcnt(0) */
	0x92EEFF6D, 0x00080010, /* s_bfe_u32 ttmp2, ttmp1, 0x80010 (trap id) */
	0xBF840002,             /* s_cbranch_scc0 2 (an exception) */
	0x806C846C,             /* s_add_u32 ttmp0, ttmp0, 4 */
	0x826D806D,             /* s_addc_u32 ttmp1, ttmp1, 0 */
	0x866DFF6D, 0x0000FFFF, /* s_and_b32 ttmp1, ttmp1, 0xffff */
	0xB978F802,             /* s_setreg_b32 hwreg(HW_REG_STATUS), ttmp12 */
	0xBE801F6C,             /* s_rfe_b64 ttmp[0:1] */
};

/* The same handler, first counting its entries at TMA + 0x20 (a wave that
 * left it with its halt lost would trap again and count 2). */
static const uint32_t counting_prologue[] = {
	0xC0031BBD, 0x00000020, /* s_load_dword ttmp2, ttmp[14:15], 0x20 glc */
	0xBF8CC07F,             /* s_waitcnt lgkmcnt(0) */
	0x806E816E,             /* s_add_u32 ttmp2, ttmp2, 1 */
	0xC0431BBD, 0x00000020, /* s_store_dword ttmp2, ttmp[14:15], 0x20 glc */
};
#define TMA_ENTRIES 8 /* dword index of the entry count */

struct trap_run {
	struct cpq q;
	uint64_t kd, code_va;           /* kernel descriptor, its code */
	uint32_t *result;               /* what the kernel stores */
	uint64_t done, inactive;
	uint32_t *tma;                  /* the handler's record (NULL: none) */
	uint64_t tma_va;
};

static void install_handler_code(struct trap_run *t, bool counting)
{
	uint64_t tba = emu_buffer(4096, KFD_ALLOC_GTT, NULL);
	uint8_t *code = cp_host(tba, 4096);
	size_t off = 0;
	if (counting) {
		memcpy(code, counting_prologue, sizeof(counting_prologue));
		off = sizeof(counting_prologue);
	}
	memcpy(code + off, handler, sizeof(handler));
	t->tma_va = emu_buffer(4096, KFD_ALLOC_GTT, NULL);
	t->tma = cp_host(t->tma_va, 4096);
	memset(t->tma, 0xEE, 64);
	t->tma[TMA_ENTRIES] = 0;
	struct kfd_args_set_trap_handler a = { .tba_addr = tba, .tma_addr = t->tma_va,
					       .gpu_id = E.gpu_id };
	ck_assert_int_eq(kio(KFD_IOCTL_SET_TRAP_HANDLER, &a), 0);
}

static void install_handler(struct trap_run *t)
{
	install_handler_code(t, false);
}

/* One wave of the trap kernel with insn at TRAP_DW, on t->q. */
static void trap_dispatch_on(struct trap_run *t, uint32_t insn)
{
	t->inactive = cp_inactive_signal(&t->q, NULL);
	t->done = cp_signal(1);
	uint64_t dst = emu_buffer(4096, KFD_ALLOC_GTT, NULL);
	t->result = cp_host(dst, 4096);
	*t->result = 0;
	uint32_t code[TRAP_KERNEL_DWORDS];
	memcpy(code, trap_kernel_tmpl, sizeof(code));
	code[1] = (uint32_t)dst;
	code[3] = (uint32_t)(dst >> 32);
	code[TRAP_DW] = insn;
	t->kd = emu_buffer(4096, KFD_ALLOC_GTT, NULL);
	uint8_t *h = cp_host(t->kd, 4096);
	memset(h, 0, 4096);
	int64_t entry = 256;
	memcpy(h + 16, &entry, 8);
	memcpy(h + 256, code, sizeof(code));
	t->code_va = t->kd + 256;
	hsa_kernel_dispatch_packet_t p;
	memset(&p, 0, sizeof(p));
	p.header = cp_hdr(HSA_PACKET_TYPE_KERNEL_DISPATCH, true);
	p.setup = 1;
	p.workgroup_size_x = 64;
	p.workgroup_size_y = p.workgroup_size_z = 1;
	p.grid_size_x = 64;
	p.grid_size_y = p.grid_size_z = 1;
	p.kernel_object = t->kd;
	p.completion_signal.handle = t->done;
	cp_put(&t->q, &p, true);
}

/* The same on a fresh queue. */
static void trap_dispatch(struct trap_run *t, uint32_t insn)
{
	cp_queue_create(&t->q, 64);
	trap_dispatch_on(t, insn);
}

/* Waits until the unreported count passes before (10 s at most). */
static uint64_t unreported_wait(uint64_t before)
{
	uint64_t end = cp_now_ns() + 10000000000ull, n;
	while ((n = kemu_cp_unreported_exceptions()) == before && cp_now_ns() < end)
		sched_yield();
	return n;
}

/* The queue hangs: nothing completes, nothing is reported; DESTROY_QUEUE
 * still takes it down (the HWS preempts a halted wave). */
static void expect_hung(struct trap_run *t)
{
	ck_assert_int_eq(cp_queue_destroy(&t->q), 0);
	ck_assert_int_eq(cp_sig_load(t->done), 1);
	ck_assert_int_eq(cp_sig_load(t->inactive), 0);
	ck_assert_uint_eq(cp_rptr(&t->q), 0);
	ck_assert_uint_eq(*t->result, 0);
}

START_TEST(s_trap_without_a_handler_is_skipped_and_unreported)
{
	struct trap_run t = { 0 };
	uint64_t before = kemu_cp_unreported_exceptions();
	trap_dispatch(&t, 0xBF920002); /* s_trap 2 */
	ck_assert_int_eq(cp_sig_wait(t.done, 0, 10000), 0);
	ck_assert_int_eq(cp_sig_load(t.inactive), 0);
	/* PC + 4 with SCC as it was: the kernel stored its result */
	ck_assert_uint_eq(*t.result, 0x600D);
	ck_assert_uint_eq(kemu_cp_unreported_exceptions(), before + 1);
}
END_TEST

START_TEST(illegal_instruction_without_a_handler_halts_unreported)
{
	struct trap_run t = { 0 };
	uint64_t before = kemu_cp_unreported_exceptions();
	trap_dispatch(&t, UNDEFINED_SOPP);
	ck_assert_uint_eq(unreported_wait(before), before + 1);
	expect_hung(&t);
}
END_TEST

START_TEST(gws_memory_violation_without_a_handler_halts_unreported)
{
	/* ds_gws_sema_v gds on a VMID with no GWS: TRAPSTS.MEM_VIOL */
	struct trap_run t = { 0 };
	uint64_t before = kemu_cp_unreported_exceptions();
	cp_queue_create(&t.q, 64);
	t.inactive = cp_inactive_signal(&t.q, NULL);
	t.done = cp_signal(1);
	static const uint32_t code[] = {
		0xBEFC0080,             /* s_mov_b32 m0, 0 */
		0xD9350000, 0,          /* ds_gws_sema_v gds */
		0xBF8C0000,             /* s_waitcnt 0 */
		0xBF810000,             /* s_endpgm */
	};
	uint64_t kd = emu_buffer(4096, KFD_ALLOC_GTT, NULL);
	uint8_t *h = cp_host(kd, 4096);
	memset(h, 0, 4096);
	int64_t entry = 256;
	memcpy(h + 16, &entry, 8);
	memcpy(h + 256, code, sizeof(code));
	uint64_t dst = emu_buffer(4096, KFD_ALLOC_GTT, NULL);
	t.result = cp_host(dst, 4096);
	*t.result = 0;
	hsa_kernel_dispatch_packet_t p;
	memset(&p, 0, sizeof(p));
	p.header = cp_hdr(HSA_PACKET_TYPE_KERNEL_DISPATCH, true);
	p.setup = 1;
	p.workgroup_size_x = p.grid_size_x = 64;
	p.workgroup_size_y = p.workgroup_size_z = p.grid_size_y = p.grid_size_z = 1;
	p.kernel_object = kd;
	p.completion_signal.handle = t.done;
	cp_put(&t.q, &p, true);
	ck_assert_uint_eq(unreported_wait(before), before + 1);
	expect_hung(&t);
}
END_TEST

START_TEST(s_trap_enters_the_handler_with_pc_id_status_and_tma)
{
	struct trap_run t = { 0 };
	uint64_t before = kemu_cp_unreported_exceptions();
	install_handler(&t);
	trap_dispatch(&t, 0xBF920002); /* s_trap 2 */
	ck_assert_int_eq(cp_sig_wait(t.done, 0, 10000), 0);
	ck_assert_int_eq(cp_sig_load(t.inactive), 0);
	uint64_t trap_pc = t.code_va + TRAP_DW * 4;
	ck_assert_uint_eq(t.tma[0], (uint32_t)trap_pc);
	/* ttmp1: PC[47:32], trap id [23:16], HT 0 */
	ck_assert_uint_eq(t.tma[1], (uint32_t)(trap_pc >> 32 & 0xFFFF) | 2u << 16);
	/* ttmp12 = STATUS: SCC and PRIV (read in the handler), no HALT */
	ck_assert_uint_eq(t.tma[2] & 1, 1);
	ck_assert_uint_eq(t.tma[2] & (1u << 5), 1u << 5);
	ck_assert_uint_eq(t.tma[2] & (1u << 13), 0);
	ck_assert_uint_eq(t.tma[3], 0); /* TRAPSTS: no exception */
	uint32_t slot = (uint32_t)(t.q.db - kemu_doorbell_slice(E.p, E.gpu_id));
	ck_assert_uint_eq(t.tma[4], slot);
	ck_assert_uint_eq((uint64_t)t.tma[6] | (uint64_t)t.tma[7] << 32, t.tma_va);
	/* back past the s_trap with SCC restored; nothing unreported */
	ck_assert_uint_eq(*t.result, 0x600D);
	ck_assert_uint_eq(kemu_cp_unreported_exceptions(), before);
}
END_TEST

START_TEST(illegal_instruction_enters_the_handler_and_stays_halted)
{
	struct trap_run t = { 0 };
	uint64_t before = kemu_cp_unreported_exceptions();
	install_handler(&t);
	trap_dispatch(&t, UNDEFINED_SOPP);
	/* the handler's last store, then it returns into a halt */
	uint64_t end = cp_now_ns() + 10000000000ull;
	while (atomic_load_explicit((_Atomic uint32_t *)&t.tma[7], memory_order_acquire) ==
	       0xEEEEEEEEu && cp_now_ns() < end)
		sched_yield();
	ck_assert_uint_eq((uint64_t)t.tma[6] | (uint64_t)t.tma[7] << 32, t.tma_va);
	/* the PC after the instruction, rewound by 8 (L_HALT_WAVE); id 0 */
	uint64_t pc = t.code_va + TRAP_DW * 4 + 4 - 8;
	ck_assert_uint_eq(t.tma[0], (uint32_t)pc);
	ck_assert_uint_eq(t.tma[1], (uint32_t)(pc >> 32 & 0xFFFF));
	ck_assert_uint_eq(t.tma[2] & (1u << 13), 1u << 13); /* STATUS.HALT */
	ck_assert_uint_eq(t.tma[3] & (1u << 11), 1u << 11); /* TRAPSTS.ILLEGAL_INST */
	expect_hung(&t);
	ck_assert_uint_eq(kemu_cp_unreported_exceptions(), before);
}
END_TEST

/* A handler as ROCr 1.18's KFD-exceptions one reports: the queue's doorbell
 * id (MSG_GET_DOORBELL) with an exception mask in [23:10] (0x8 << 10:
 * KFD_EC_MASK(EC_QUEUE_WAVE_ILLEGAL_INSTRUCTION)) by MSG_INTERRUPT from the
 * handler (PRIV), then the wave halted. */
static const uint32_t exception_handler[] = {
	0xBEEF007E,             /* s_mov_b32 ttmp3, exec_lo */
	0xBEFE00FF, 0x80000000, /* s_mov_b32 exec_lo, 0x80000000 */
	0xBF90000A,             /* s_sendmsg sendmsg(MSG_GET_DOORBELL) */
	0x866EFF7E, 0x000003FF, /* s_and_b32 ttmp2, exec_lo, 0x3ff */
	0xBEFE006F,             /* s_mov_b32 exec_lo, ttmp3 */
	0x876EFF6E, 0x00002000, /* s_or_b32 ttmp2, ttmp2, 0x2000 */
	0xBEEF007C,             /* s_mov_b32 ttmp3, m0 */
	0xBEFC006E,             /* s_mov_b32 m0, ttmp2 */
	0xBF800000,             /* s_nop 0 */
	0xBF900001,             /* s_sendmsg sendmsg(MSG_INTERRUPT) */
	0xBEFC006F,             /* s_mov_b32 m0, ttmp3 */
	0xBEF81A8D,             /* s_bitset1_b32 ttmp12, 13 */
	0x866DFF6D, 0x0000FFFF, /* s_and_b32 ttmp1, ttmp1, 0xffff */
	0xB978F802,             /* s_setreg_b32 hwreg(HW_REG_STATUS), ttmp12 */
	0xBE801F6C,             /* s_rfe_b64 ttmp[0:1] */
};

START_TEST(handler_exception_reaches_a_runtime_enabled_process)
{
	/* kfd_send_exception_to_runtime: the mask ORed into the word the
	 * context-save header names, its event set.  The header is user
	 * memory at a CPU address (the area is a USERPTR BO at the same VA) */
	struct kfd_args_runtime_enable re = { .mode_mask = KFD_RUNTIME_ENABLE_MODE_ENABLE };
	ck_assert_int_eq(kio(KFD_IOCTL_RUNTIME_ENABLE, &re), 0);
	uint64_t total = cp_cwsr_total();
	struct kfd_context_save_area_header *csa = aligned_alloc(4096, total);
	ck_assert_ptr_nonnull(csa);
	memset(csa, 0, sizeof(*csa));
	_Atomic uint64_t *payload = aligned_alloc(64, 64);
	ck_assert_ptr_nonnull(payload);
	atomic_store(payload, 0x100); /* a bit set before: kept */
	uint64_t mailbox;
	uint32_t ev = cp_event(&mailbox);
	csa->err_payload_addr = (uintptr_t)payload;
	csa->err_event_id = ev;
	struct kfd_args_alloc_memory_of_gpu a = {
		.va_addr = (uintptr_t)csa, .size = total, .gpu_id = E.gpu_id,
		.flags = KFD_ALLOC_USERPTR | KFD_ALLOC_WRITABLE, .mmap_offset = (uintptr_t)csa };
	ck_assert_int_eq(kio(KFD_IOCTL_ALLOC_MEMORY_OF_GPU, &a), 0);
	ck_assert_int_eq(emu_map(a.handle), 0);

	struct trap_run t = { 0 };
	uint64_t tba = emu_buffer(4096, KFD_ALLOC_GTT, NULL);
	memcpy(cp_host(tba, 4096), exception_handler, sizeof(exception_handler));
	struct kfd_args_set_trap_handler th = { .tba_addr = tba, .gpu_id = E.gpu_id };
	ck_assert_int_eq(kio(KFD_IOCTL_SET_TRAP_HANDLER, &th), 0);
	ck_assert_int_eq(cp_queue_create_at(&t.q, 64, 7, (uintptr_t)csa), 0);
	trap_dispatch_on(&t, UNDEFINED_SOPP);

	struct kfd_event_data d = { .event_id = ev };
	struct kfd_args_wait_events w = { .events_ptr = (uintptr_t)&d, .num_events = 1,
					  .wait_for_all = 1, .timeout = 10000 };
	ck_assert_int_eq(kio(KFD_IOCTL_WAIT_EVENTS, &w), 0);
	ck_assert_uint_eq(w.wait_result, KFD_WAIT_COMPLETE);
	ck_assert_uint_eq(atomic_load(payload), 0x108);
	expect_hung(&t);
	struct kfd_args_free_memory_of_gpu f = { .handle = a.handle };
	ck_assert_int_eq(emu_unmap(a.handle), 0);
	ck_assert_int_eq(kio(KFD_IOCTL_FREE_MEMORY_OF_GPU, &f), 0);
	free(csa);
	free((void *)payload);
}
END_TEST

START_TEST(handler_exception_without_runtime_enable_is_an_event_interrupt)
{
	/* no RUNTIME_ENABLE: kfd_set_dbg_ev_from_interrupt declines and the
	 * interrupt goes to kfd_signal_event_interrupt with its 24 bits; the
	 * queue's header is not touched */
	struct trap_run t = { 0 };
	uint64_t tba = emu_buffer(4096, KFD_ALLOC_GTT, NULL);
	memcpy(cp_host(tba, 4096), exception_handler, sizeof(exception_handler));
	struct kfd_args_set_trap_handler th = { .tba_addr = tba, .gpu_id = E.gpu_id };
	ck_assert_int_eq(kio(KFD_IOCTL_SET_TRAP_HANDLER, &th), 0);
	cp_queue_create(&t.q, 64);
	trap_dispatch_on(&t, UNDEFINED_SOPP);
	ck_assert_int_eq(cp_queue_destroy(&t.q), 0);
	ck_assert_int_eq(cp_sig_load(t.done), 1);
	ck_assert_int_eq(cp_sig_load(t.inactive), 0);
}
END_TEST

/* KFDEMU_TRAPS=lenient: with no handler, the old reporting (queue errors). */
static void setup_lenient(void)
{
	setenv("KFDEMU_TRAPS", "lenient", 1);
	cp_setup();
}

static void teardown_lenient(void)
{
	emu_teardown();
	unsetenv("KFDEMU_TRAPS");
}

static void expect_lenient_error(uint32_t insn, int64_t want)
{
	struct trap_run t = { 0 };
	trap_dispatch(&t, insn);
	int64_t v = cp_sig_wait(t.inactive, want, 10000);
	ck_assert_msg(v == want, "inactive signal 0x%llx, expected 0x%llx", (long long)v,
		      (long long)want);
	ck_assert_int_eq(cp_sig_load(t.done), 1);
}

START_TEST(lenient_s_trap_is_a_trap_error)
{
	expect_lenient_error(0xBF920002, 0x80000000ll);
}
END_TEST

START_TEST(lenient_illegal_instruction_is_an_error)
{
	expect_lenient_error(UNDEFINED_SOPP, 0x40000000ll);
}
END_TEST

START_TEST(lenient_s_trap_still_enters_an_installed_handler)
{
	struct trap_run t = { 0 };
	install_handler(&t);
	trap_dispatch(&t, 0xBF920002);
	ck_assert_int_eq(cp_sig_wait(t.done, 0, 10000), 0);
	ck_assert_uint_eq(*t.result, 0x600D);
	ck_assert_uint_eq(t.tma[1] >> 16 & 0xFF, 2);
}
END_TEST

/*
 * CWSR with traps (KFDEMU_PREEMPT=every:3, so save requests fall inside
 * the handler over and over).  The SQ holds a save while the wave is in
 * its trap handler and takes it when s_rfe_b64 leaves (TRAPSTS.SAVECTX,
 * cwsr_trap_handler_gfx9.asm L_NOT_HALTED); the save keeps TRAPSTS and
 * the trap state.  So the handler's report is the one of an unpreempted
 * run, the handler runs once, and an exception's halt survives.
 */
static void setup_preempt(void)
{
	unsetenv("KFDEMU_TRAPS");
	setenv("KFDEMU_PREEMPT", "every:3", 1);
	cp_setup();
}

static void teardown_preempt(void)
{
	emu_teardown();
	unsetenv("KFDEMU_PREEMPT");
}

START_TEST(preempted_s_trap_reports_as_unpreempted)
{
	struct trap_run t = { 0 };
	uint64_t before = kemu_cp_unreported_exceptions();
	uint64_t saves = kemu_cp_context_saves();
	install_handler_code(&t, true);
	trap_dispatch(&t, 0xBF920002); /* s_trap 2 */
	ck_assert_int_eq(cp_sig_wait(t.done, 0, 30000), 0);
	ck_assert_uint_gt(kemu_cp_context_saves(), saves); /* the knob bit */
	uint64_t trap_pc = t.code_va + TRAP_DW * 4;
	ck_assert_uint_eq(t.tma[0], (uint32_t)trap_pc);
	ck_assert_uint_eq(t.tma[1], (uint32_t)(trap_pc >> 32 & 0xFFFF) | 2u << 16);
	ck_assert_uint_eq(t.tma[2] & 1, 1);                   /* SCC */
	ck_assert_uint_eq(t.tma[2] & (1u << 5), 1u << 5);     /* PRIV */
	ck_assert_uint_eq(t.tma[2] & (1u << 13), 0);          /* no HALT */
	/* TRAPSTS: no exception; SAVECTX (bit 10) may read 1 in the handler,
	 * as on hardware: the save it holds is pending there */
	ck_assert_uint_eq(t.tma[3] & ~(1u << 10), 0);
	uint32_t slot = (uint32_t)(t.q.db - kemu_doorbell_slice(E.p, E.gpu_id));
	ck_assert_uint_eq(t.tma[4], slot);
	ck_assert_uint_eq((uint64_t)t.tma[6] | (uint64_t)t.tma[7] << 32, t.tma_va);
	ck_assert_uint_eq(t.tma[TMA_ENTRIES], 1);
	ck_assert_uint_eq(*t.result, 0x600D);
	ck_assert_uint_eq(kemu_cp_unreported_exceptions(), before);
	ck_assert_int_eq(cp_queue_destroy(&t.q), 0);
}
END_TEST

START_TEST(preempted_illegal_instruction_stays_halted)
{
	struct trap_run t = { 0 };
	uint64_t before = kemu_cp_unreported_exceptions();
	uint64_t saves = kemu_cp_context_saves();
	install_handler_code(&t, true);
	trap_dispatch(&t, UNDEFINED_SOPP);
	uint64_t end = cp_now_ns() + 30000000000ull;
	while (atomic_load_explicit((_Atomic uint32_t *)&t.tma[7], memory_order_acquire) ==
	       0xEEEEEEEEu && cp_now_ns() < end)
		sched_yield();
	ck_assert_uint_eq((uint64_t)t.tma[6] | (uint64_t)t.tma[7] << 32, t.tma_va);
	ck_assert_uint_gt(kemu_cp_context_saves(), saves);
	uint64_t pc = t.code_va + TRAP_DW * 4 + 4 - 8;
	ck_assert_uint_eq(t.tma[0], (uint32_t)pc);
	ck_assert_uint_eq(t.tma[2] & (1u << 13), 1u << 13); /* STATUS.HALT */
	ck_assert_uint_eq(t.tma[3] & (1u << 11), 1u << 11); /* TRAPSTS.ILLEGAL_INST */
	expect_hung(&t);
	/* halted once: a halt lost to a save inside the handler would have
	 * sent the wave back through the illegal instruction */
	ck_assert_uint_eq(t.tma[TMA_ENTRIES], 1);
	ck_assert_uint_eq(kemu_cp_unreported_exceptions(), before);
}
END_TEST

static Suite *cp_trap_suite(void)
{
	Suite *s = suite_create("cp_trap");
	TCase *tc = tcase_create("strict");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, s_trap_without_a_handler_is_skipped_and_unreported);
	tcase_add_test(tc, illegal_instruction_without_a_handler_halts_unreported);
	tcase_add_test(tc, gws_memory_violation_without_a_handler_halts_unreported);
	tcase_add_test(tc, s_trap_enters_the_handler_with_pc_id_status_and_tma);
	tcase_add_test(tc, illegal_instruction_enters_the_handler_and_stays_halted);
	tcase_add_test(tc, handler_exception_reaches_a_runtime_enabled_process);
	tcase_add_test(tc, handler_exception_without_runtime_enable_is_an_event_interrupt);
	suite_add_tcase(s, tc);
	tc = tcase_create("preempted");
	tcase_add_checked_fixture(tc, setup_preempt, teardown_preempt);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, preempted_s_trap_reports_as_unpreempted);
	tcase_add_test(tc, preempted_illegal_instruction_stays_halted);
	suite_add_tcase(s, tc);
	tc = tcase_create("lenient");
	tcase_add_checked_fixture(tc, setup_lenient, teardown_lenient);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, lenient_s_trap_is_a_trap_error);
	tcase_add_test(tc, lenient_illegal_instruction_is_an_error);
	tcase_add_test(tc, lenient_s_trap_still_enters_an_installed_handler);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(cp_trap_suite)
