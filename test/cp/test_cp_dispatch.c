/*
 * KERNEL_DISPATCH through the command processor and emu/isa: hand-assembled
 * kernels (s_endpgm; traps and exceptions are test_cp_trap.c's) and, when
 * the build could compile it, a clang-compiled OpenCL vector add loaded
 * from its code object (PT_LOAD segments copied into one GPU buffer, the
 * .kd symbol from .dynsym); kernels that never end, preempted by
 * DESTROY_QUEUE; the program cache as the device's instruction cache (code
 * rewritten in place runs from the cache until a PM4 icache invalidate or
 * a VM change) and the workers' and waves' TLBs after UNMAP; GWS: a grid
 * barrier that saves and resumes workgroups, one that can never open.
 */
#include <elf.h>

#include "cp_fixture.h"
#include "isa/isa.h"

static void setup(void)
{
	cp_setup();
}

static void teardown(void)
{
	emu_teardown();
}

/* s_mov_b32 s0/s1 <- dst; s_mov_b32 s2, value; s_store_dword s2, s[0:1];
 * s_waitcnt 0; s_endpgm.  The value literal is code dword
 * STORE_VALUE_DW (byte 20: past the 16 bytes the old cache compared). */
#define STORE_VALUE_DW 5
static unsigned store_kernel(uint32_t *code, uint64_t dst, uint32_t value)
{
	unsigned n = 0;
	code[n++] = 0xBE8000FF; /* s_mov_b32 s0, lit */
	code[n++] = (uint32_t)dst;
	code[n++] = 0xBE8100FF; /* s_mov_b32 s1, lit */
	code[n++] = (uint32_t)(dst >> 32);
	code[n++] = 0xBE8200FF; /* s_mov_b32 s2, lit */
	code[n++] = value;
	code[n++] = 0xC0420080; /* s_store_dword s2, s[0:1], 0x0 */
	code[n++] = 0;
	code[n++] = 0xBF8C0000; /* s_waitcnt 0 */
	code[n++] = 0xBF810000; /* s_endpgm */
	return n;
}

START_TEST(s_endpgm_kernel_completes)
{
	static const uint32_t code[] = { 0xBF810000 }; /* s_endpgm */
	struct cpq q;
	cp_queue_create(&q, 64);
	uint64_t done = cp_signal(1);
	hsa_kernel_dispatch_packet_t p = cp_dispatch_packet(cp_hand_kernel(code, 1, NULL, NULL), 1024, 64, 0, done);
	cp_put(&q, &p, true);
	ck_assert_int_eq(cp_sig_wait(done, 0, 10000), 0);
	ck_assert_uint_eq(cp_rptr(&q), 1);
	ck_assert_uint_eq(cp_header_at(&q, 0) & 0xFF, HSA_PACKET_TYPE_INVALID);
}
END_TEST

START_TEST(scratch_shortage_stops_then_resumes)
{
	/* a kernel with 16 bytes of private memory per work-item (1 KiB per
	 * wave) on a queue without scratch: the CP stops with 0x1 and leaves
	 * the packet; the runtime provides scratch and stores 0 into the
	 * inactive signal (ROCr's HandleInsufficientScratch); the CP retries */
	static const uint32_t code[] = { 0xBF810000 };
	struct cpq q;
	cp_queue_create(&q, 64);
	uint64_t inactive = cp_inactive_signal(&q, NULL);
	uint64_t kd = cp_hand_kernel(code, 1, NULL, NULL);
	uint32_t priv = 16;
	memcpy((uint8_t *)cp_host(kd, 64) + 4, &priv, 4);
	uint64_t done = cp_signal(1);
	hsa_kernel_dispatch_packet_t p = cp_dispatch_packet(kd, 256, 64, 0, done);
	p.private_segment_size = priv; /* what the CP weighs (cp_dispatch.c) */
	cp_put(&q, &p, true);
	ck_assert_int_eq(cp_sig_wait(inactive, 1, 10000), 1);
	cp_sleep_ms(20);
	ck_assert_int_eq(cp_sig_load(done), 1);
	ck_assert_uint_eq(cp_rptr(&q), 0);
	uint64_t scratch = emu_buffer(64 * 1024, KFD_ALLOC_VRAM, NULL);
	q.aq->scratch_resource_descriptor[0] = (uint32_t)scratch;
	q.aq->scratch_resource_descriptor[1] = (uint32_t)(scratch >> 32) & 0xFFFF;
	q.aq->compute_tmpring_size = 16 | 1u << 12; /* 16 waves of 1 KiB */
	cp_sig_store(inactive, 0);
	ck_assert_int_eq(cp_sig_wait(done, 0, 10000), 0);
	ck_assert_uint_eq(cp_rptr(&q), 1);
}
END_TEST

START_TEST(scratch_sized_from_the_packet_resumes_once)
{
	/* ROCr 1.18 with HIP 6.3: a recursive kernel's descriptor says 16400
	 * bytes per work-item, clr caps the packet's private_segment_size at
	 * 16 KiB, and ROCr's HandleInsufficientScratch sizes the queue's
	 * scratch from the packet alone.  The CP weighs only the packet, so
	 * the dispatch runs after that one resume; weighing the descriptor
	 * stopped the queue again after every resume (HIP hung).  Scaled
	 * down: descriptor 32 bytes (2 KiB a wave), packet 16 (1 KiB). */
	static const uint32_t code[] = { 0xBF810000 };
	struct cpq q;
	cp_queue_create(&q, 64);
	uint64_t inactive = cp_inactive_signal(&q, NULL);
	uint64_t kd = cp_hand_kernel(code, 1, NULL, NULL);
	uint32_t fixed = 32;
	memcpy((uint8_t *)cp_host(kd, 64) + 4, &fixed, 4);
	uint64_t done = cp_signal(1);
	hsa_kernel_dispatch_packet_t p = cp_dispatch_packet(kd, 256, 64, 0, done);
	p.private_segment_size = 16;
	cp_put(&q, &p, true);
	ck_assert_int_eq(cp_sig_wait(inactive, 1, 10000), 1);
	ck_assert_uint_eq(cp_rptr(&q), 0);
	/* as ROCr: 64 lanes x 16 bytes rounded to 1 KiB per wave */
	uint64_t scratch = emu_buffer(64 * 1024, KFD_ALLOC_VRAM, NULL);
	q.aq->scratch_resource_descriptor[0] = (uint32_t)scratch;
	q.aq->scratch_resource_descriptor[1] = (uint32_t)(scratch >> 32) & 0xFFFF;
	q.aq->compute_tmpring_size = 16 | 1u << 12; /* 16 waves of 1 KiB */
	cp_sig_store(inactive, 0);
	ck_assert_int_eq(cp_sig_wait(done, 0, 10000), 0);
	ck_assert_uint_eq(cp_rptr(&q), 1);
	ck_assert_int_eq(cp_sig_load(inactive), 0); /* no second stop */
}
END_TEST

START_TEST(scratch_below_the_packet_stops_again)
{
	/* the other side of the rule: scratch that does not cover the
	 * packet's private_segment_size stops the queue again on resume */
	static const uint32_t code[] = { 0xBF810000 };
	struct cpq q;
	cp_queue_create(&q, 64);
	uint64_t inactive = cp_inactive_signal(&q, NULL);
	uint64_t kd = cp_hand_kernel(code, 1, NULL, NULL);
	uint64_t done = cp_signal(1);
	hsa_kernel_dispatch_packet_t p = cp_dispatch_packet(kd, 256, 64, 0, done);
	p.private_segment_size = 32; /* 2 KiB a wave */
	cp_put(&q, &p, true);
	ck_assert_int_eq(cp_sig_wait(inactive, 1, 10000), 1);
	uint64_t scratch = emu_buffer(64 * 1024, KFD_ALLOC_VRAM, NULL);
	q.aq->scratch_resource_descriptor[0] = (uint32_t)scratch;
	q.aq->scratch_resource_descriptor[1] = (uint32_t)(scratch >> 32) & 0xFFFF;
	q.aq->compute_tmpring_size = 16 | 1u << 12; /* 1 KiB a wave: short */
	cp_sig_store(inactive, 0);
	ck_assert_int_eq(cp_sig_wait(inactive, 1, 10000), 1);
	ck_assert_int_eq(cp_sig_load(done), 1);
	ck_assert_uint_eq(cp_rptr(&q), 0);
	q.aq->compute_tmpring_size = 16 | 2u << 12; /* 2 KiB a wave */
	cp_sig_store(inactive, 0);
	ck_assert_int_eq(cp_sig_wait(done, 0, 10000), 0);
	ck_assert_uint_eq(cp_rptr(&q), 1);
}
END_TEST

#ifdef CP_VADD_CO
/* Loads the code object's PT_LOAD segments at their offsets in one GPU
 * buffer; returns the address of symbol `kd`. */
static uint64_t load_code_object(const char *path, const char *kd)
{
	FILE *f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	static uint8_t file[1 << 16];
	size_t n = fread(file, 1, sizeof(file), f);
	fclose(f);
	ck_assert_uint_gt(n, sizeof(Elf64_Ehdr));
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)file;
	ck_assert_uint_eq(eh->e_machine, EM_AMDGPU);
	uint64_t span = 0;
	for (unsigned i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph = (const Elf64_Phdr *)(file + eh->e_phoff) + i;
		if (ph->p_type == PT_LOAD && ph->p_vaddr + ph->p_memsz > span)
			span = ph->p_vaddr + ph->p_memsz;
	}
	span = (span + 4095) & ~4095ull;
	uint64_t base = emu_buffer(span, KFD_ALLOC_GTT, NULL);
	uint8_t *h = cp_host(base, span);
	memset(h, 0, span);
	for (unsigned i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph = (const Elf64_Phdr *)(file + eh->e_phoff) + i;
		if (ph->p_type == PT_LOAD)
			memcpy(h + ph->p_vaddr, file + ph->p_offset, ph->p_filesz);
	}
	const Elf64_Shdr *sh = (const Elf64_Shdr *)(file + eh->e_shoff);
	for (unsigned i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_type != SHT_DYNSYM)
			continue;
		const Elf64_Sym *sym = (const Elf64_Sym *)(file + sh[i].sh_offset);
		const char *str = (const char *)file + sh[sh[i].sh_link].sh_offset;
		for (unsigned j = 0; j < sh[i].sh_size / sizeof(*sym); j++) {
			if (!strcmp(str + sym[j].st_name, kd))
				return base + sym[j].st_value;
		}
	}
	ck_abort_msg("no symbol %s in %s", kd, path);
	return 0;
}

START_TEST(clang_vector_add_runs)
{
	enum { N = 1000 };
	struct cpq q;
	cp_queue_create(&q, 64);
	uint64_t inactive = cp_inactive_signal(&q, NULL);
	uint64_t kd = load_code_object(CP_VADD_CO, "vadd.kd");
	uint64_t a = emu_buffer(N * 4, KFD_ALLOC_GTT, NULL);
	uint64_t b = emu_buffer(N * 4, KFD_ALLOC_GTT, NULL);
	uint64_t c = emu_buffer(N * 4, KFD_ALLOC_GTT, NULL);
	int32_t *ha = cp_host(a, N * 4), *hb = cp_host(b, N * 4), *hc = cp_host(c, N * 4);
	for (int i = 0; i < N; i++) {
		ha[i] = i;
		hb[i] = 3 * i + 7;
		hc[i] = -1;
	}
	uint64_t args_va = emu_buffer(4096, KFD_ALLOC_GTT, NULL);
	uint8_t *args = cp_host(args_va, 4096);
	memset(args, 0, 4096);
	uint32_t n = N;
	memcpy(args, &a, 8);
	memcpy(args + 8, &b, 8);
	memcpy(args + 16, &c, 8);
	memcpy(args + 24, &n, 4);
	uint64_t done = cp_signal(1);
	hsa_kernel_dispatch_packet_t p = cp_dispatch_packet(kd, 1024, 256, args_va, done);
	cp_put(&q, &p, true);
	int64_t v = cp_sig_wait(done, 0, 20000);
	ck_assert_msg(v == 0, "completion %lld, inactive signal 0x%llx", (long long)v,
		      (long long)cp_sig_load(inactive));
	for (int i = 0; i < N; i++)
		ck_assert_msg(hc[i] == 4 * i + 7, "c[%d] = %d, expected %d", i, hc[i], 4 * i + 7);
}
END_TEST

START_TEST(kernel_store_to_unmapped_memory_is_a_vm_fault)
{
	struct cpq q;
	cp_queue_create(&q, 64);
	uint64_t inactive = cp_inactive_signal(&q, NULL);
	struct kfd_args_create_event ce = { .event_type = KFD_EVENT_TYPE_MEMORY };
	ck_assert_int_eq(kio(KFD_IOCTL_CREATE_EVENT, &ce), 0);
	uint64_t kd = load_code_object(CP_VADD_CO, "vadd.kd");
	uint64_t a = emu_buffer(4096, KFD_ALLOC_GTT, NULL), c = 0x7e0000042000ull;
	uint64_t args_va = emu_buffer(4096, KFD_ALLOC_GTT, NULL);
	uint8_t *args = cp_host(args_va, 4096);
	memset(args, 0, 4096);
	uint32_t n = 64;
	memcpy(args, &a, 8);
	memcpy(args + 8, &a, 8);
	memcpy(args + 16, &c, 8);
	memcpy(args + 24, &n, 4);
	uint64_t done = cp_signal(1);
	hsa_kernel_dispatch_packet_t p = cp_dispatch_packet(kd, 64, 64, args_va, done);
	cp_put(&q, &p, true);
	struct kfd_event_data d = { .event_id = ce.event_id };
	struct kfd_args_wait_events w = { .events_ptr = (uintptr_t)&d, .num_events = 1,
					  .wait_for_all = 1, .timeout = 10000 };
	ck_assert_int_eq(kio(KFD_IOCTL_WAIT_EVENTS, &w), 0);
	ck_assert_uint_eq(w.wait_result, KFD_WAIT_COMPLETE);
	ck_assert_msg(d.memory_exception_data.va == c, "fault va 0x%llx, expected 0x%llx",
		      (unsigned long long)d.memory_exception_data.va, (unsigned long long)c);
	ck_assert_uint_eq(d.memory_exception_data.failure.NotPresent, 1);
	ck_assert_uint_eq(d.memory_exception_data.gpu_id, E.gpu_id);
	cp_sleep_ms(20);
	ck_assert_int_eq(cp_sig_load(done), 1);
	ck_assert_int_eq(cp_sig_load(inactive), 0);
}
END_TEST
#endif

/* A dispatch of a kernel that never ends: DESTROY_QUEUE preempts it and
 * returns promptly (the kernel's CWSR preemption), the packet is not
 * retired (completion signal, header and read_dispatch_id untouched) and
 * the other queues keep working. */
static void destroy_preempts_endless_kernel(const uint32_t *code, unsigned n)
{
	static const uint32_t endpgm[] = { 0xBF810000 };
	struct cpq other, q;
	cp_queue_create(&other, 64);
	cp_queue_create(&q, 64);
	uint64_t done = cp_signal(1);
	/* 64 workgroups of 4 waves: every pool worker runs one */
	hsa_kernel_dispatch_packet_t p = cp_dispatch_packet(cp_hand_kernel(code, n, NULL, NULL), 64 * 256, 256, 0, done);
	struct kemu_isa_stats before, now;
	kemu_isa_stats_get(&before);
	cp_put(&q, &p, true);
	cp_sleep_ms(200); /* running (stats count a workgroup when it returns) */
	ck_assert_int_eq(cp_sig_load(done), 1);
	ck_assert_uint_eq(cp_rptr(&q), 0);
	uint64_t t0 = cp_now_ns();
	ck_assert_int_eq(cp_queue_destroy(&q), 0);
	uint64_t ms = (cp_now_ns() - t0) / 1000000;
	ck_assert_msg(ms < 5000, "DESTROY_QUEUE took %llu ms", (unsigned long long)ms);
	/* the preempted workgroups did run */
	kemu_isa_stats_get(&now);
	ck_assert_uint_gt(now.wave_instructions, before.wave_instructions);
	cp_sleep_ms(20);
	ck_assert_int_eq(cp_sig_load(done), 1);
	ck_assert_uint_eq(cp_rptr(&q), 0);
	ck_assert_uint_eq(cp_header_at(&q, 0) & 0xFF, HSA_PACKET_TYPE_KERNEL_DISPATCH);
	/* the process and its other queues are fine */
	uint64_t ok = cp_signal(1);
	hsa_kernel_dispatch_packet_t e = cp_dispatch_packet(cp_hand_kernel(endpgm, 1, NULL, NULL), 1024, 64, 0, ok);
	cp_put(&other, &e, true);
	ck_assert_int_eq(cp_sig_wait(ok, 0, 10000), 0);
	ck_assert_uint_eq(cp_rptr(&other), 1);
	struct cpq fresh;
	cp_queue_create(&fresh, 64);
	uint64_t ok2 = cp_signal(1);
	e = cp_dispatch_packet(cp_hand_kernel(endpgm, 1, NULL, NULL), 1024, 64, 0, ok2);
	cp_put(&fresh, &e, true);
	ck_assert_int_eq(cp_sig_wait(ok2, 0, 10000), 0);
	ck_assert_int_eq(cp_queue_destroy(&fresh), 0);
	ck_assert_int_eq(cp_queue_destroy(&other), 0);
}

/* Runs kernel kd (one work-item) on q and returns what it stored. */
static uint32_t run_store(struct cpq *q, uint64_t kd, const volatile uint32_t *out)
{
	uint64_t done = cp_signal(1);
	hsa_kernel_dispatch_packet_t p = cp_dispatch_packet(kd, 1, 1, 0, done);
	cp_put(q, &p, true);
	ck_assert_int_eq(cp_sig_wait(done, 0, 10000), 0);
	return *out;
}

/* A PM4-IB packet with one ACQUIRE_MEM (gfx9: CP_COHER_CNTL first) in
 * the buffer at ib_va, and waits for it.  (The buffer is allocated up
 * front: a MAP would change the VM, which drops cached decodes too.) */
static void acquire_mem(struct cpq *q, uint64_t ib_va, uint32_t coher_cntl)
{
	uint32_t *ib = cp_host(ib_va, 4096);
	uint32_t n = 0;
	ib[n++] = 3u << 30 | 5u << 16 | 0x58u << 8; /* ACQUIRE_MEM, 6 body dwords */
	ib[n++] = coher_cntl;
	ib[n++] = 0xFFFFFFFFu;                      /* COHER_SIZE: everything */
	ib[n++] = 0xFFu;
	ib[n++] = 0;
	ib[n++] = 0;
	ib[n++] = 4;                                /* poll interval */
	uint64_t done = cp_signal(1);
	uint8_t p[64];
	memset(p, 0, 64);
	uint16_t header = cp_hdr(HSA_PACKET_TYPE_VENDOR_SPECIFIC, true), format = 1;
	uint32_t cmd[4] = { 3u << 30 | 2u << 16 | 0x3Fu << 8, (uint32_t)ib_va,
			    (uint32_t)(ib_va >> 32) & 0xFFFF, n | 1u << 23 };
	uint32_t remain = 10;
	memcpy(p, &header, 2);
	memcpy(p + 2, &format, 2);
	memcpy(p + 4, cmd, 16);
	memcpy(p + 20, &remain, 4);
	memcpy(p + 56, &done, 8);
	cp_put(q, p, true);
	ck_assert_int_eq(cp_sig_wait(done, 0, 10000), 0);
}

#define COHER_SH_ICACHE (1u << 29)
#define COHER_DATA ((1u << 27) | (1u << 23) | (1u << 22) | (1u << 18)) /* K$, L2, L1, WB */

START_TEST(kernel_decoded_once_for_many_dispatches)
{
	struct cpq q;
	cp_queue_create(&q, 64);
	uint64_t out_va = emu_buffer(4096, KFD_ALLOC_GTT, NULL);
	volatile uint32_t *out = cp_host(out_va, 4096);
	uint32_t code[16];
	uint64_t h;
	uint8_t *host;
	uint64_t kd = cp_hand_kernel(code, store_kernel(code, out_va, 7), &h, &host);
	struct kemu_isa_stats s0, s1;
	kemu_isa_stats_get(&s0);
	for (int i = 0; i < 10; i++) {
		*out = 0;
		ck_assert_uint_eq(run_store(&q, kd, out), 7);
	}
	kemu_isa_stats_get(&s1);
	ck_assert_uint_eq(s1.programs_decoded - s0.programs_decoded, 1);
	ck_assert_uint_ge(s1.programs_reused - s0.programs_reused, 9);
}
END_TEST

START_TEST(code_rewritten_in_place_runs_cached_until_icache_invalidate)
{
	/* as the SQ's instruction cache: a kernel rewritten in place keeps
	 * running its old code; a data-cache ACQUIRE_MEM changes nothing; one
	 * with SH_ICACHE_ACTION_ENA (what ROCr sends after loading code)
	 * makes the next dispatch fetch the new code */
	struct cpq q, q2;
	cp_queue_create(&q, 64);
	cp_queue_create(&q2, 64);
	uint64_t ib_va = emu_buffer(4096, KFD_ALLOC_GTT, NULL);
	uint64_t out_va = emu_buffer(4096, KFD_ALLOC_GTT, NULL);
	volatile uint32_t *out = cp_host(out_va, 4096);
	uint32_t code[16];
	uint64_t h;
	uint8_t *host;
	uint64_t kd = cp_hand_kernel(code, store_kernel(code, out_va, 1), &h, &host);
	ck_assert_uint_eq(run_store(&q, kd, out), 1);
	uint32_t two = 2;
	memcpy(host + 256 + 4 * STORE_VALUE_DW, &two, 4);
	ck_assert_uint_eq(run_store(&q, kd, out), 1);
	acquire_mem(&q, ib_va, COHER_DATA);
	ck_assert_uint_eq(run_store(&q, kd, out), 1);
	acquire_mem(&q, ib_va, COHER_DATA | COHER_SH_ICACHE);
	ck_assert_uint_eq(run_store(&q, kd, out), 2);
	/* the invalidate is the device's: another queue of the process sees
	 * the new code after it too */
	uint32_t three = 3;
	memcpy(host + 256 + 4 * STORE_VALUE_DW, &three, 4);
	ck_assert_uint_eq(run_store(&q2, kd, out), 2);
	acquire_mem(&q, ib_va, COHER_SH_ICACHE);
	ck_assert_uint_eq(run_store(&q2, kd, out), 3);
}
END_TEST

START_TEST(code_rewritten_in_place_runs_new_after_unmap_remap)
{
	/* the VM changed (amdgpu_vm's TLB flush): cached decodes of the
	 * process are dropped too */
	struct cpq q;
	cp_queue_create(&q, 64);
	uint64_t out_va = emu_buffer(4096, KFD_ALLOC_GTT, NULL);
	volatile uint32_t *out = cp_host(out_va, 4096);
	uint32_t code[16];
	uint64_t h;
	uint8_t *host;
	uint64_t kd = cp_hand_kernel(code, store_kernel(code, out_va, 1), &h, &host);
	ck_assert_uint_eq(run_store(&q, kd, out), 1);
	uint32_t two = 2;
	memcpy(host + 256 + 4 * STORE_VALUE_DW, &two, 4);
	ck_assert_uint_eq(run_store(&q, kd, out), 1);
	ck_assert_int_eq(emu_unmap(h), 0);
	ck_assert_int_eq(emu_map(h), 0);
	ck_assert_uint_eq(run_store(&q, kd, out), 2);
}
END_TEST

/* Waits for the process's MEMORY event and checks the fault address. */
static void expect_vm_fault(uint32_t event, uint64_t va)
{
	struct kfd_event_data d = { .event_id = event };
	struct kfd_args_wait_events w = { .events_ptr = (uintptr_t)&d, .num_events = 1,
					  .wait_for_all = 1, .timeout = 10000 };
	ck_assert_int_eq(kio(KFD_IOCTL_WAIT_EVENTS, &w), 0);
	ck_assert_uint_eq(w.wait_result, KFD_WAIT_COMPLETE);
	ck_assert_msg(d.memory_exception_data.va == va, "fault va 0x%llx, expected 0x%llx",
		      (unsigned long long)d.memory_exception_data.va, (unsigned long long)va);
	ck_assert_uint_eq(d.memory_exception_data.failure.NotPresent, 1);
	ck_assert_uint_eq(d.memory_exception_data.gpu_id, E.gpu_id);
}

START_TEST(worker_tlb_not_used_after_unmap)
{
	/* a dispatch translated the buffer (the worker's TLB keeps it); after
	 * UNMAP the next dispatch's store is a VM fault at the same address */
	struct cpq q;
	cp_queue_create(&q, 64);
	uint64_t inactive = cp_inactive_signal(&q, NULL);
	struct kfd_args_create_event ce = { .event_type = KFD_EVENT_TYPE_MEMORY };
	ck_assert_int_eq(kio(KFD_IOCTL_CREATE_EVENT, &ce), 0);
	uint64_t out_h;
	uint64_t out_va = emu_buffer(4096, KFD_ALLOC_GTT, &out_h);
	volatile uint32_t *out = cp_host(out_va, 4096);
	uint32_t code[16];
	uint64_t h;
	uint8_t *host;
	uint64_t kd = cp_hand_kernel(code, store_kernel(code, out_va, 5), &h, &host);
	ck_assert_uint_eq(run_store(&q, kd, out), 5);
	ck_assert_uint_eq(run_store(&q, kd, out), 5);
	ck_assert_int_eq(emu_unmap(out_h), 0);
	*out = 0;
	uint64_t done = cp_signal(1);
	hsa_kernel_dispatch_packet_t p = cp_dispatch_packet(kd, 1, 1, 0, done);
	cp_put(&q, &p, true);
	expect_vm_fault(ce.event_id, out_va);
	cp_sleep_ms(20);
	ck_assert_int_eq(cp_sig_load(done), 1);
	ck_assert_int_eq(cp_sig_load(inactive), 0);
	ck_assert_uint_eq(*out, 0);
}
END_TEST

START_TEST(wave_tlb_not_used_after_unmap)
{
	/* a wave polls a buffer (its own TLB keeps the page); UNMAP while it
	 * runs makes its next load a VM fault, as the TLB flush after an
	 * unmap does on hardware */
	struct cpq q;
	cp_queue_create(&q, 64);
	struct kfd_args_create_event ce = { .event_type = KFD_EVENT_TYPE_MEMORY };
	ck_assert_int_eq(kio(KFD_IOCTL_CREATE_EVENT, &ce), 0);
	uint64_t flag_h;
	uint64_t flag_va = emu_buffer(4096, KFD_ALLOC_GTT, &flag_h);
	memset(cp_host(flag_va, 4096), 0, 4096);
	const uint32_t code[] = {
		0xBE8000FF, (uint32_t)flag_va,         /* s_mov_b32 s0, lo */
		0xBE8100FF, (uint32_t)(flag_va >> 32), /* s_mov_b32 s1, hi */
		0xC00200C0, 0,                         /* 1: s_load_dword s3, s[0:1], 0 */
		0xBF8C0000,                            /* s_waitcnt 0 */
		0xBF068003,                            /* s_cmp_eq_u32 s3, 0 */
		0xBF85FFFB,                            /* s_cbranch_scc1 1b */
		0xBF810000,                            /* s_endpgm */
	};
	uint64_t done = cp_signal(1);
	hsa_kernel_dispatch_packet_t p = cp_dispatch_packet(cp_hand_kernel(code, 10, NULL, NULL), 1, 1, 0, done);
	cp_put(&q, &p, true);
	cp_sleep_ms(100); /* polling */
	ck_assert_int_eq(cp_sig_load(done), 1);
	ck_assert_int_eq(emu_unmap(flag_h), 0);
	expect_vm_fault(ce.event_id, flag_va);
	cp_sleep_ms(20);
	ck_assert_int_eq(cp_sig_load(done), 1);
}
END_TEST

START_TEST(destroy_preempts_infinite_loop)
{
	static const uint32_t code[] = { 0xBF82FFFF }; /* s_branch . */
	destroy_preempts_endless_kernel(code, 1);
}
END_TEST

START_TEST(destroy_preempts_barrier_loop)
{
	/* 1: s_barrier; s_branch 1b */
	static const uint32_t code[] = { 0xBF8A0000, 0xBF82FFFE };
	destroy_preempts_endless_kernel(code, 2);
}
END_TEST

/* GWS (ds_gws_*): the process's GWS after ALLOC_QUEUE_GWS; resource 0. */
#define GWS_M0_0 0xBEFC0080u            /* s_mov_b32 m0, 0 */
#define GWS_V0_2 0x7E000282u            /* v_mov_b32 v0, 2 */
#define GWS_WAIT 0xBF8C0000u            /* s_waitcnt 0 */
#define GWS_END 0xBF810000u             /* s_endpgm */

static void gws_alloc(const struct cpq *q)
{
	struct kfd_args_alloc_queue_gws g = { .queue_id = q->id, .num_gws = 1 };
	ck_assert_int_eq(kemu_ioctl(E.m, E.kfd, KFD_IOCTL_ALLOC_QUEUE_GWS, &g), 0);
}

/* Runs kernel code on grid workgroups of 64 on q and waits for it. */
static void gws_run(struct cpq *q, const uint32_t *code, unsigned n, uint32_t groups)
{
	uint64_t done = cp_signal(1);
	hsa_kernel_dispatch_packet_t p = cp_dispatch_packet(cp_hand_kernel(code, n, NULL, NULL), groups * 64, 64, 0, done);
	cp_put(q, &p, true);
	ck_assert_msg(cp_sig_wait(done, 0, 20000) == 0, "%u workgroups did not complete", groups);
}

START_TEST(gws_barrier_holds_resident_workgroups_until_the_last)
{
	/* ds_gws_init v0 (2), then barriers of 3 workgroups passing 2: two
	 * wait (saved) until the third arrives, twice; then the same on a
	 * second queue of the process while the GWS queue is mapped */
	static const uint32_t init[] = { GWS_M0_0, GWS_V0_2, 0xD9330000, 0, GWS_WAIT, GWS_END };
	static const uint32_t bar[] = { GWS_M0_0, GWS_V0_2, 0xD93B0000, 0, GWS_WAIT, GWS_END };
	struct cpq q, q2;
	cp_queue_create(&q, 64);
	cp_queue_create(&q2, 64);
	gws_alloc(&q);
	gws_run(&q, init, 6, 1);
	gws_run(&q, bar, 6, 3);
	gws_run(&q, bar, 6, 3);
	gws_run(&q2, bar, 6, 3);
	ck_assert_uint_eq(cp_rptr(&q), 3);
	ck_assert_uint_eq(cp_rptr(&q2), 1);
}
END_TEST

START_TEST(gws_barrier_that_never_opens_is_a_hang_error)
{
	/* armed for 3 arrivals, 2 workgroups: the hardware would hang */
	static const uint32_t init[] = { GWS_M0_0, GWS_V0_2, 0xD9330000, 0, GWS_WAIT, GWS_END };
	static const uint32_t bar[] = { GWS_M0_0, GWS_V0_2, 0xD93B0000, 0, GWS_WAIT, GWS_END };
	struct cpq q;
	cp_queue_create(&q, 64);
	gws_alloc(&q);
	gws_run(&q, init, 6, 1);
	uint64_t inactive = cp_inactive_signal(&q, NULL);
	uint64_t done = cp_signal(1);
	hsa_kernel_dispatch_packet_t p = cp_dispatch_packet(cp_hand_kernel(bar, 6, NULL, NULL), 2 * 64, 64, 0, done);
	cp_put(&q, &p, true);
	int64_t v = cp_sig_wait(inactive, 0x80000000ll, 10000);
	ck_assert_msg(v == 0x80000000ll, "inactive signal 0x%llx", (long long)v);
	ck_assert_int_eq(cp_sig_load(done), 1);
}
END_TEST

START_TEST(destroy_preempts_a_cooperative_grid_with_saved_workgroups)
{
	/* armed for 2 arrivals; 3 workgroups: one waits and is released by
	 * the second, which then spins, as does the first once resumed; the
	 * third waits (saved) for an arrival that never comes.  DESTROY
	 * stops the spinning ones and frees the saved one. */
	static const uint32_t init[] = { GWS_M0_0, 0x7E000281 /* v_mov_b32 v0, 1 */, 0xD9330000,
					 0, GWS_WAIT, GWS_END };
	static const uint32_t code[] = { GWS_M0_0, GWS_V0_2, 0xD93B0000, 0, GWS_WAIT,
					 0xBF82FFFF /* s_branch . */ };
	struct cpq q;
	cp_queue_create(&q, 64);
	gws_alloc(&q);
	gws_run(&q, init, 6, 1);
	uint64_t done = cp_signal(1);
	hsa_kernel_dispatch_packet_t p = cp_dispatch_packet(cp_hand_kernel(code, 6, NULL, NULL), 3 * 64, 64, 0, done);
	cp_put(&q, &p, true);
	cp_sleep_ms(200);
	ck_assert_int_eq(cp_sig_load(done), 1);
	uint64_t t0 = cp_now_ns();
	ck_assert_int_eq(cp_queue_destroy(&q), 0);
	uint64_t ms = (cp_now_ns() - t0) / 1000000;
	ck_assert_msg(ms < 5000, "DESTROY_QUEUE took %llu ms", (unsigned long long)ms);
	ck_assert_int_eq(cp_sig_load(done), 1);
	ck_assert_uint_eq(cp_rptr(&q), 1);
}
END_TEST

static Suite *cp_dispatch_suite(void)
{
	Suite *s = suite_create("cp_dispatch");
	TCase *tc = tcase_create("dispatch");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, s_endpgm_kernel_completes);
	tcase_add_test(tc, scratch_shortage_stops_then_resumes);
	tcase_add_test(tc, scratch_sized_from_the_packet_resumes_once);
	tcase_add_test(tc, scratch_below_the_packet_stops_again);
	tcase_add_test(tc, destroy_preempts_infinite_loop);
	tcase_add_test(tc, destroy_preempts_barrier_loop);
	tcase_add_test(tc, kernel_decoded_once_for_many_dispatches);
	tcase_add_test(tc, code_rewritten_in_place_runs_cached_until_icache_invalidate);
	tcase_add_test(tc, code_rewritten_in_place_runs_new_after_unmap_remap);
	tcase_add_test(tc, worker_tlb_not_used_after_unmap);
	tcase_add_test(tc, wave_tlb_not_used_after_unmap);
	tcase_add_test(tc, gws_barrier_holds_resident_workgroups_until_the_last);
	tcase_add_test(tc, gws_barrier_that_never_opens_is_a_hang_error);
	tcase_add_test(tc, destroy_preempts_a_cooperative_grid_with_saved_workgroups);
#ifdef CP_VADD_CO
	tcase_add_test(tc, clang_vector_add_runs);
	tcase_add_test(tc, kernel_store_to_unmapped_memory_is_a_vm_fault);
#endif
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(cp_dispatch_suite)
