/*
 * The SDMA engines on the kfdemu core API: every packet ROCr 5.2.3 and the
 * kernel emit for SDMA 4.x (NOP, COPY_LINEAR, COPY_LINEAR_SUB_WIND,
 * CONSTANT_FILL, WRITE_LINEAR, FENCE, TRAP, POLL_REGMEM, ATOMIC, TIMESTAMP),
 * the ring protocol (byte pointers, rptr write-back, wrap-around, the
 * write pointer read at load), errors (bad opcode, VM fault), the engine
 * layout (queues on engines as allocate_sdma_queue places them, two
 * engines at once) and the hooks (update, destroy while blocked).  Each
 * test creates its own machine.
 */
#include <pthread.h>
#include <sys/resource.h>

#include "kfd/kemu_priv.h"
#include "sdma_fixture.h"

static void setup(void)
{
	cp_setup();
}

static void teardown(void)
{
	emu_teardown();
}

/* A GTT buffer with its host view. */
static uint8_t *gtt(uint64_t size, uint64_t *va)
{
	*va = emu_buffer(size, KFD_ALLOC_GTT, NULL);
	return cp_host(*va, size);
}

static uint8_t *vram(uint64_t size, uint64_t *va)
{
	*va = emu_buffer(size, KFD_ALLOC_VRAM, NULL);
	return cp_host(*va, size);
}

START_TEST(nop_advances_read_pointer_in_bytes)
{
	struct sdq q;
	sdq_create(&q, 4096);
	ck_assert_uint_eq(sdq_rptr(&q), 0);
	uint32_t p[16], n = sd_nop(p, 3);
	n += sd_nop(p + n, 0);
	sdq_submit(&q, p, n);
	ck_assert(sdq_wait_idle(&q, 5000));
	ck_assert_uint_eq(sdq_rptr(&q), 20); /* 4 + 1 dwords */
	ck_assert_uint_eq(atomic_load(q.wptr), 20);
}
END_TEST

START_TEST(packets_wait_for_their_doorbell)
{
	struct sdq q;
	sdq_create(&q, 4096);
	uint64_t va;
	uint32_t *dst = (uint32_t *)gtt(4096, &va);
	uint32_t p[8], n = sd_fence(p, va, 0x1234);
	sdq_write(&q, p, n);
	atomic_store(q.wptr, q.next); /* memory only: the doorbell drives */
	cp_sleep_ms(20);
	ck_assert_uint_eq(dst[0], 0);
	ck_assert_uint_eq(sdq_rptr(&q), 0);
	sdq_ring(&q);
	ck_assert(sdq_wait_idle(&q, 5000));
	ck_assert_uint_eq(dst[0], 0x1234);
}
END_TEST

START_TEST(copy_linear_vram_and_gtt)
{
	struct sdq q;
	sdq_create(&q, 4096);
	const uint32_t len = 1u << 20;
	uint64_t hva, dva, bva;
	uint8_t *host = gtt(len + 4096, &hva), *dev = vram(len + 4096, &dva);
	uint8_t *back = gtt(len + 4096, &bva);
	for (uint32_t i = 0; i < len + 4096; i++)
		host[i] = (uint8_t)(i * 7 + 3);
	memset(back, 0, len + 4096);
	/* host -> VRAM at odd offsets, then VRAM -> host: 1 MiB + 5 bytes */
	uint32_t p[16], n = sd_copy(p, dva + 3, hva + 1, len + 5);
	n += sd_copy(p + n, bva + 2, dva + 3, len + 5);
	sdq_submit(&q, p, n);
	ck_assert(sdq_wait_idle(&q, 10000));
	ck_assert_int_eq(memcmp(dev + 3, host + 1, len + 5), 0);
	ck_assert_int_eq(memcmp(back + 2, host + 1, len + 5), 0);
	ck_assert_uint_eq(back[0], 0);
	ck_assert_uint_eq(back[1], 0);
	ck_assert_uint_eq(back[len + 7], 0);
}
END_TEST

START_TEST(copy_linear_of_one_byte_and_a_30_bit_count)
{
	/* Aldebaran's SDMA 4.4.0 (mi210) takes a 30-bit count: past 4 MiB in
	 * one packet, as later ROCr copies on gfx90a */
	struct sdq q;
	sdq_create(&q, 4096);
	const uint32_t len = (1u << 22) + 4096;
	uint64_t sva, dva;
	uint8_t *s = gtt(len + 4096, &sva), *d = gtt(len + 4096, &dva);
	for (uint32_t i = 0; i < len; i++)
		s[i] = (uint8_t)(i ^ (i >> 8));
	memset(d, 0, len + 4096);
	uint32_t p[16], n = sd_copy(p, dva, sva, len);
	n += sd_copy(p + n, dva + len, sva + 5, 1);
	sdq_submit(&q, p, n);
	ck_assert(sdq_wait_idle(&q, 20000));
	ck_assert_int_eq(memcmp(d, s, len), 0);
	ck_assert_uint_eq(d[len], s[5]);
	ck_assert_uint_eq(d[len + 1], 0);
}
END_TEST

static void setup_mi300x(void)
{
	sdma_setup_preset("mi300x");
}

START_TEST(mi300x_copy_count_is_22_bits)
{
	/* SDMA 4.4.2: bits 29:22 of the count are not the count */
	struct sdq q;
	sdq_create(&q, 4096);
	uint64_t sva, dva;
	uint8_t *s = gtt(8192, &sva), *d = gtt(8192, &dva);
	memset(s, 0x77, 8192);
	memset(d, 0, 8192);
	uint32_t p[16], n = sd_copy(p, dva, sva, 16);
	p[1] |= 1u << 22;
	sdq_submit(&q, p, n);
	ck_assert(sdq_wait_idle(&q, 5000));
	ck_assert_uint_eq(d[15], 0x77);
	ck_assert_uint_eq(d[16], 0);
	/* the engines of the preset: 2 PCIe + 14 xGMI, 8 RLC queues each */
	ck_assert_uint_eq(E.gpu->num_sdma_engines, 2);
	ck_assert_uint_eq(E.gpu->num_sdma_xgmi_engines, 14);
	ck_assert_uint_eq(E.gpu->num_sdma_queues_per_engine, 8);
	struct sdq last;
	ck_assert_int_eq(sdq_create_type(&last, 4096, KFD_QUEUE_TYPE_SDMA_BY_ENG_ID, 15), 0);
	n = sd_fence(p, dva + 4096, 5);
	sdq_submit(&last, p, n);
	ck_assert(sdq_wait_idle(&last, 5000));
	ck_assert_uint_eq(d[4096], 5);
}
END_TEST

/* Two BOs at adjacent VAs: copies and fills run across the boundary
 * mapping by mapping, a fill's element pattern keeping its phase. */
START_TEST(copy_and_fill_cross_adjacent_mappings)
{
	struct sdq q;
	sdq_create(&q, 4096);
	uint64_t va = emu_va(8192), h0, h1;
	ck_assert_int_eq(emu_alloc_at(va, 4096, KFD_ALLOC_GTT | KFD_ALLOC_WRITABLE, &h0), 0);
	ck_assert_int_eq(emu_alloc_at(va + 4096, 4096, KFD_ALLOC_GTT | KFD_ALLOC_WRITABLE, &h1), 0);
	ck_assert_int_eq(emu_map(h0), 0);
	ck_assert_int_eq(emu_map(h1), 0);
	uint8_t *lo = cp_host(va, 4096), *hi = cp_host(va + 4096, 4096);
	memset(lo, 0, 4096);
	memset(hi, 0, 4096);
	uint64_t sva;
	uint8_t *src = gtt(4096, &sva);
	for (int i = 0; i < 4096; i++)
		src[i] = (uint8_t)(i * 11 + 2);
	/* 1000 bytes straddling the boundary, then 3 dwords of 0x11223344
	 * from 6 bytes before it (the boundary falls inside an element) */
	uint32_t p[16], n = sd_copy(p, va + 4096 - 500, sva, 1000);
	n += sd_fill(p + n, va + 2048 - 6, 0, 0, 2); /* zero form, one dword */
	sdq_submit(&q, p, n);
	ck_assert(sdq_wait_idle(&q, 5000));
	ck_assert_int_eq(memcmp(lo + 4096 - 500, src, 500), 0);
	ck_assert_int_eq(memcmp(hi, src + 500, 500), 0);
	n = sd_fill(p, va + 4096 - 6, 0x11223344u, (3 - 1) * 4, 2);
	sdq_submit(&q, p, n);
	ck_assert(sdq_wait_idle(&q, 5000));
	static const uint8_t pat[4] = { 0x44, 0x33, 0x22, 0x11 };
	for (int i = 0; i < 12; i++) {
		uint8_t got = i < 6 ? lo[4096 - 6 + i] : hi[i - 6];
		ck_assert_msg(got == pat[i % 4], "byte %d: 0x%x", i, got);
	}
	ck_assert_uint_eq(hi[6], src[500 + 6]);
}
END_TEST

START_TEST(copy_sub_window_box)
{
	struct sdq q;
	sdq_create(&q, 4096);
	uint64_t sva, dva;
	uint8_t *s = gtt(65536, &sva), *d = gtt(65536, &dva);
	for (uint32_t i = 0; i < 65536; i++)
		s[i] = (uint8_t)(i * 13 + 1);
	memset(d, 0, 65536);
	/* 4-byte elements: a 5 x 3 x 2 box from (2, 1, 1) of a 16 x 8 x 4
	 * source to (1, 2, 0) of a 12 x 6 x 2 destination */
	struct sd_box src = { .base = sva, .x = 2, .y = 1, .z = 1, .pitch = 16, .slice = 16 * 8 };
	struct sd_box dst = { .base = dva, .x = 1, .y = 2, .z = 0, .pitch = 12, .slice = 12 * 6 };
	uint32_t p[16], n = sd_copy_rect(p, 2, &src, &dst, 5, 3, 2);
	sdq_submit(&q, p, n);
	ck_assert(sdq_wait_idle(&q, 5000));
	for (uint32_t z = 0; z < 2; z++) {
		for (uint32_t y = 0; y < 6; y++) {
			for (uint32_t x = 0; x < 12; x++) {
				const uint8_t *got = d + 4 * (x + y * 12 + z * 72);
				bool in = x >= 1 && x < 6 && y >= 2 && y < 5;
				uint32_t sx = x - 1 + 2, sy = y - 2 + 1, sz = z + 1;
				const uint8_t *want = s + 4 * (sx + sy * 16 + sz * 128);
				for (int b = 0; b < 4; b++) {
					uint8_t w = in ? want[b] : 0;
					ck_assert_msg(got[b] == w, "(%u,%u,%u) byte %d: 0x%x, want 0x%x",
						      x, y, z, b, got[b], w);
				}
			}
		}
	}
}
END_TEST

START_TEST(copy_sub_window_bytes_like_rocr_2d)
{
	struct sdq q;
	sdq_create(&q, 4096);
	uint64_t sva, dva;
	uint8_t *s = gtt(8192, &sva), *d = gtt(8192, &dva);
	for (uint32_t i = 0; i < 8192; i++)
		s[i] = (uint8_t)(i * 3 + 5);
	memset(d, 0, 8192);
	/* 1-byte elements, 2D (slice unused), odd width and offsets */
	struct sd_box src = { .base = sva, .x = 3, .y = 2, .pitch = 100 };
	struct sd_box dst = { .base = dva, .x = 1, .y = 0, .pitch = 64 };
	uint32_t p[16], n = sd_copy_rect(p, 0, &src, &dst, 37, 9, 1);
	sdq_submit(&q, p, n);
	ck_assert(sdq_wait_idle(&q, 5000));
	for (uint32_t y = 0; y < 9; y++)
		ck_assert_int_eq(memcmp(d + 1 + y * 64, s + 3 + (2 + y) * 100, 37), 0);
	ck_assert_uint_eq(d[0], 0);
	ck_assert_uint_eq(d[38], 0);
}
END_TEST

START_TEST(constant_fill_sizes)
{
	struct sdq q;
	sdq_create(&q, 4096);
	uint64_t va;
	uint8_t *b = gtt(4096, &va);
	memset(b, 0x55, 4096);
	uint32_t p[32], n = 0;
	/* ROCr: dwords, count = (dwords - 1) * 4 */
	n += sd_fill(p + n, va, 0xA1B2C3D4u, (10 - 1) * 4, 2);
	/* the kernel: bytes, count = bytes - 1 */
	n += sd_fill(p + n, va + 100, 0x000000EEu, 7 - 1, 0);
	/* words: 3 of them */
	n += sd_fill(p + n, va + 200, 0xFFFF1234u, 3 * 2 - 1, 1);
	sdq_submit(&q, p, n);
	ck_assert(sdq_wait_idle(&q, 5000));
	for (int i = 0; i < 10; i++)
		ck_assert_uint_eq(((uint32_t *)b)[i], 0xA1B2C3D4u);
	ck_assert_uint_eq(b[40], 0x55);
	for (int i = 0; i < 7; i++)
		ck_assert_uint_eq(b[100 + i], 0xEE);
	ck_assert_uint_eq(b[107], 0x55);
	ck_assert_uint_eq(b[99], 0x55);
	for (int i = 0; i < 3; i++)
		ck_assert_uint_eq(((uint16_t *)(b + 200))[i], 0x1234);
	ck_assert_uint_eq(b[206], 0x55);
}
END_TEST

START_TEST(write_linear_streams_its_data)
{
	struct sdq q;
	sdq_create(&q, 4096);
	uint64_t va;
	uint32_t *b = (uint32_t *)gtt(4096, &va);
	uint32_t data[5] = { 1, 0xFFFFFFFFu, 3, 0x80000000u, 5 };
	uint32_t p[16], n = sd_write(p, va + 8, data, 5);
	sdq_submit(&q, p, n);
	ck_assert(sdq_wait_idle(&q, 5000));
	ck_assert_uint_eq(sdq_rptr(&q), 4 * 9);
	ck_assert_uint_eq(b[1], 0);
	ck_assert_int_eq(memcmp(b + 2, data, sizeof(data)), 0);
	ck_assert_uint_eq(b[7], 0);
}
END_TEST

START_TEST(fence_writes_32_bits)
{
	struct sdq q;
	sdq_create(&q, 4096);
	uint64_t va;
	uint32_t *b = (uint32_t *)gtt(4096, &va);
	b[3] = 0xFFFFFFFFu;
	uint32_t p[8], n = sd_fence(p, va + 8, 0xCAFEF00Du);
	sdq_submit(&q, p, n);
	ck_assert(sdq_wait_idle(&q, 5000));
	ck_assert_uint_eq(b[2], 0xCAFEF00Du);
	ck_assert_uint_eq(b[3], 0xFFFFFFFFu);
}
END_TEST

/* ROCr's completion: atomic decrement of the signal, FENCE of the event
 * id into its mailbox, TRAP carrying the id. */
START_TEST(trap_wakes_wait_events)
{
	struct sdq q;
	sdq_create(&q, 4096);
	uint32_t ev;
	uint64_t done = cp_signal_with_event(1, &ev);
	uint64_t mailbox = cp_sig(done)->event_mailbox_ptr;
	struct kfd_event_data d = { .event_id = ev };
	struct kfd_args_wait_events w = { .events_ptr = (uintptr_t)&d, .num_events = 1,
					  .wait_for_all = 1, .timeout = 0 };
	ck_assert_int_eq(kio(KFD_IOCTL_WAIT_EVENTS, &w), 0);
	ck_assert_uint_eq(w.wait_result, KFD_WAIT_TIMEOUT);
	uint32_t p[32], n = sd_atomic(p, 0x2f, done + 8, UINT64_MAX, 0, false);
	n += sd_fence(p + n, mailbox, ev);
	n += sd_trap(p + n, ev);
	sdq_submit(&q, p, n);
	w.timeout = 5000;
	uint64_t t0 = cp_now_ns();
	ck_assert_int_eq(kio(KFD_IOCTL_WAIT_EVENTS, &w), 0);
	ck_assert_msg(w.wait_result == KFD_WAIT_COMPLETE, "WAIT_EVENTS result %u after %llu ms",
		      w.wait_result, (unsigned long long)((cp_now_ns() - t0) / 1000000));
	ck_assert_int_eq(cp_sig_load(done), 0);
}
END_TEST

/* A blocked waiter is woken by the TRAP (not just found signaled). */
static struct kfd_args_wait_events trap_w;
static void *trap_waiter(void *arg)
{
	(void)arg;
	long r = kio(KFD_IOCTL_WAIT_EVENTS, &trap_w);
	return (void *)(intptr_t)r;
}

START_TEST(trap_wakes_a_blocked_waiter)
{
	struct sdq q;
	sdq_create(&q, 4096);
	uint64_t mailbox;
	uint32_t ev = cp_event(&mailbox);
	struct kfd_event_data d = { .event_id = ev };
	trap_w = (struct kfd_args_wait_events){ .events_ptr = (uintptr_t)&d, .num_events = 1,
						.wait_for_all = 1, .timeout = 10000 };
	pthread_t t;
	ck_assert_int_eq(pthread_create(&t, NULL, trap_waiter, NULL), 0);
	uint64_t end = cp_now_ns() + 5000000000ull;
	while (kemu_event_waiters(E.p, ev) == 0 && cp_now_ns() < end)
		sched_yield();
	ck_assert_uint_eq(kemu_event_waiters(E.p, ev), 1);
	uint32_t p[16], n = sd_fence(p, mailbox, ev);
	n += sd_trap(p + n, ev);
	sdq_submit(&q, p, n);
	void *r;
	pthread_join(t, &r);
	ck_assert_int_eq((int)(intptr_t)r, 0);
	ck_assert_uint_eq(trap_w.wait_result, KFD_WAIT_COMPLETE);
}
END_TEST

START_TEST(poll_regmem_waits_for_memory)
{
	struct sdq q;
	sdq_create(&q, 4096);
	uint64_t va;
	_Atomic uint32_t *b = (_Atomic uint32_t *)gtt(4096, &va);
	uint32_t p[32], n = 0;
	/* == 5 on the low byte, then < 3, then a fence */
	n += sd_poll_mem(p + n, va, 5, 0xFF, 3, 0xFFF);
	n += sd_poll_mem(p + n, va + 4, 3, 0xFFFFFFFF, 1, 0xFFF);
	n += sd_fence(p + n, va + 8, 77);
	atomic_store(&b[1], 9);
	sdq_submit(&q, p, n);
	cp_sleep_ms(20);
	ck_assert_uint_eq(atomic_load(&b[2]), 0);
	ck_assert_uint_eq(sdq_rptr(&q), 0); /* the poll stays at the read pointer */
	atomic_store_explicit(&b[0], 0x1205, memory_order_release); /* masked: 5 */
	cp_sleep_ms(20);
	ck_assert_uint_eq(sdq_rptr(&q), 24); /* past the first poll */
	ck_assert_uint_eq(atomic_load(&b[2]), 0);
	atomic_store_explicit(&b[1], 2, memory_order_release);
	ck_assert(sdq_wait_idle(&q, 5000));
	ck_assert_uint_eq(atomic_load(&b[2]), 77);
}
END_TEST

START_TEST(poll_regmem_with_retry_count_gives_up)
{
	struct sdq q;
	sdq_create(&q, 4096);
	uint64_t va;
	uint32_t *b = (uint32_t *)gtt(4096, &va);
	uint32_t p[16], n = sd_poll_mem(p, va, 1, 0xFFFFFFFF, 3, 4);
	n += sd_fence(p + n, va + 8, 1);
	sdq_submit(&q, p, n);
	ck_assert(sdq_wait_idle(&q, 5000));
	ck_assert_uint_eq(b[2], 1);
	ck_assert_uint_eq(b[0], 0);
}
END_TEST

START_TEST(poll_regmem_hdp_flush_forms_complete)
{
	struct sdq q;
	sdq_create(&q, 4096);
	uint64_t va;
	uint32_t *b = (uint32_t *)gtt(4096, &va);
	/* ROCr 5.2.3's hdp_flush_cmd, then the kernel's HDP flush (hdp_flush
	 * bit, register form, func ==, ref = mask = the flush bit) */
	uint32_t p[32] = { 0x8, 0x0, 0x80000000u, 0, 0, 0 }, n = 6;
	p[n++] = 8u | 1u << 26 | 3u << 28;
	p[n++] = 0x5480u << 2;
	p[n++] = 0x5484u << 2;
	p[n++] = 1;
	p[n++] = 1;
	p[n++] = 10u | 0xFFFu << 16;
	n += sd_fence(p + n, va, 3);
	sdq_submit(&q, p, n);
	ck_assert(sdq_wait_idle(&q, 5000));
	ck_assert_uint_eq(b[0], 3);
}
END_TEST

START_TEST(atomic_operations)
{
	struct sdq q;
	sdq_create(&q, 4096);
	uint64_t va;
	uint8_t *b = gtt(4096, &va);
	uint64_t *q64 = (uint64_t *)b;
	uint32_t *q32 = (uint32_t *)(b + 256);
	q64[0] = 5;                      /* add64 -1 (ROCr's decrement) */
	q64[1] = 0x100000000ull;         /* add64 -1 borrows across halves */
	q64[2] = 7;                      /* cmpswap64 hit */
	q64[3] = 8;                      /* cmpswap64 miss */
	q64[4] = 1;                      /* sub64 */
	q32[0] = 10;                     /* swap32 */
	q32[1] = 4;                      /* inc32 wraps at src */
	q32[2] = 0;                      /* dec32 at 0 -> src */
	q32[3] = 0xF0;                   /* or32 */
	q32[4] = 3;                      /* umax32 */
	q32[5] = (uint32_t)-5;           /* smin32 */
	uint32_t p[128], n = 0;
	n += sd_atomic(p + n, 0x2f, va, UINT64_MAX, 0, false);
	n += sd_atomic(p + n, 0x2f, va + 8, UINT64_MAX, 0, false);
	n += sd_atomic(p + n, 0x28, va + 16, 99, 7, false);
	n += sd_atomic(p + n, 0x68, va + 24, 99, 7, false);   /* no-return form */
	n += sd_atomic(p + n, 0x30, va + 32, 3, 0, false);
	n += sd_atomic(p + n, 0x07, va + 256, 42, 0, false);
	n += sd_atomic(p + n, 0x18, va + 260, 4, 0, false);
	n += sd_atomic(p + n, 0x59, va + 264, 9, 0, false);   /* no-return dec */
	n += sd_atomic(p + n, 0x16, va + 268, 0x0F, 0, false);
	n += sd_atomic(p + n, 0x14, va + 272, 2, 0, false);
	n += sd_atomic(p + n, 0x11, va + 276, (uint32_t)-7, 0, false);
	sdq_submit(&q, p, n);
	ck_assert(sdq_wait_idle(&q, 5000));
	ck_assert_uint_eq(q64[0], 4);
	ck_assert_uint_eq(q64[1], 0xFFFFFFFFull);
	ck_assert_uint_eq(q64[2], 99);
	ck_assert_uint_eq(q64[3], 8);
	ck_assert_uint_eq(q64[4], (uint64_t)-2);
	ck_assert_uint_eq(q32[0], 42);
	ck_assert_uint_eq(q32[1], 0);
	ck_assert_uint_eq(q32[2], 9);
	ck_assert_uint_eq(q32[3], 0xFF);
	ck_assert_uint_eq(q32[4], 3);
	ck_assert_uint_eq(q32[5], (uint32_t)-7);
}
END_TEST

START_TEST(atomic_cmpswap_loop_waits_for_compare)
{
	struct sdq q;
	sdq_create(&q, 4096);
	uint64_t va;
	_Atomic uint64_t *b = (_Atomic uint64_t *)gtt(4096, &va);
	atomic_store(&b[0], 1);
	uint32_t p[16], n = sd_atomic(p, 0x28, va, 50, 0, true);
	n += sd_fence(p + n, va + 8, 1);
	sdq_submit(&q, p, n);
	cp_sleep_ms(20);
	ck_assert_uint_eq(atomic_load(&b[0]), 1);
	ck_assert_uint_eq(sdq_rptr(&q), 0);
	atomic_store(&b[0], 0);
	ck_assert(sdq_wait_idle(&q, 5000));
	ck_assert_uint_eq(atomic_load(&b[0]), 50);
	ck_assert_uint_eq(atomic_load(&b[1]), 1);
}
END_TEST

START_TEST(timestamp_is_the_gpu_clock)
{
	struct sdq q;
	sdq_create(&q, 4096);
	uint64_t va;
	uint64_t *b = (uint64_t *)gtt(4096, &va);
	struct kfd_args_get_clock_counters c0 = { .gpu_id = E.gpu_id }, c1 = c0;
	ck_assert_int_eq(kio(KFD_IOCTL_GET_CLOCK_COUNTERS, &c0), 0);
	uint32_t p[16], n = sd_timestamp(p, va);
	sdq_submit(&q, p, n);
	ck_assert(sdq_wait_idle(&q, 5000));
	cp_sleep_ms(15);
	n = sd_timestamp(p, va + 32);
	sdq_submit(&q, p, n);
	ck_assert(sdq_wait_idle(&q, 5000));
	ck_assert_int_eq(kio(KFD_IOCTL_GET_CLOCK_COUNTERS, &c1), 0);
	ck_assert_msg(c0.gpu_clock_counter <= b[0] && b[0] < b[4] && b[4] <= c1.gpu_clock_counter,
		      "clock %llu <= ts %llu < ts %llu <= clock %llu",
		      (unsigned long long)c0.gpu_clock_counter, (unsigned long long)b[0],
		      (unsigned long long)b[4], (unsigned long long)c1.gpu_clock_counter);
	/* 100 MHz: 15 ms is at least 1.5 M ticks */
	ck_assert_uint_ge(b[4] - b[0], 1500000);
}
END_TEST

START_TEST(ring_wraps_around)
{
	struct sdq q;
	sdq_create(&q, 4096);
	uint64_t va;
	uint32_t *b = (uint32_t *)gtt(4096, &va);
	/* one NOP dword first, so that fences straddle the ring's end */
	uint32_t p[8], n = sd_nop(p, 0);
	sdq_submit(&q, p, n);
	for (uint32_t i = 0; i < 1000; i++) {
		n = sd_fence(p, va + 4 * (i % 64), i);
		sdq_write(&q, p, n);
		if (i % 7 == 6)
			sdq_ring(&q);
	}
	sdq_ring(&q);
	ck_assert(sdq_wait_idle(&q, 10000));
	ck_assert_uint_eq(sdq_rptr(&q), 4 + 1000 * 16);
	for (uint32_t i = 1000 - 64; i < 1000; i++)
		ck_assert_uint_eq(b[i % 64], i);
}
END_TEST

START_TEST(write_pointer_is_read_at_load)
{
	struct sdq q;
	sdq_create(&q, 4096);
	uint64_t va;
	uint32_t *b = (uint32_t *)gtt(4096, &va);
	/* deactivate, write a packet and the wptr memory only, reactivate:
	 * hqd_sdma_load reads the user's wptr */
	struct kfd_args_update_queue u = { .queue_id = q.id, .ring_base_address = q.ring_va,
					   .ring_size = q.size, .queue_percentage = 0,
					   .queue_priority = 15 };
	ck_assert_int_eq(kio(KFD_IOCTL_UPDATE_QUEUE, &u), 0);
	uint32_t p[8], n = sd_fence(p, va, 9);
	sdq_write(&q, p, n);
	atomic_store(q.wptr, q.next);
	cp_sleep_ms(10);
	ck_assert_uint_eq(b[0], 0);
	u.queue_percentage = 100;
	ck_assert_int_eq(kio(KFD_IOCTL_UPDATE_QUEUE, &u), 0);
	ck_assert(sdq_wait_idle(&q, 5000));
	ck_assert_uint_eq(b[0], 9);
}
END_TEST

START_TEST(inactive_queue_ignores_its_doorbell)
{
	struct sdq q;
	sdq_create(&q, 4096);
	uint64_t va;
	uint32_t *b = (uint32_t *)gtt(4096, &va);
	struct kfd_args_update_queue u = { .queue_id = q.id, .ring_base_address = q.ring_va,
					   .ring_size = q.size, .queue_percentage = 0,
					   .queue_priority = 15 };
	ck_assert_int_eq(kio(KFD_IOCTL_UPDATE_QUEUE, &u), 0);
	uint32_t p[8], n = sd_fence(p, va, 4);
	sdq_submit(&q, p, n);
	cp_sleep_ms(20);
	ck_assert_uint_eq(b[0], 0);
	ck_assert_uint_eq(sdq_rptr(&q), 0);
	u.queue_percentage = 100;
	ck_assert_int_eq(kio(KFD_IOCTL_UPDATE_QUEUE, &u), 0);
	ck_assert(sdq_wait_idle(&q, 5000));
	ck_assert_uint_eq(b[0], 4);
}
END_TEST

static uint32_t memory_event(void)
{
	struct kfd_args_create_event ce = { .event_type = KFD_EVENT_TYPE_MEMORY };
	ck_assert_int_eq(kio(KFD_IOCTL_CREATE_EVENT, &ce), 0);
	return ce.event_id;
}

START_TEST(unmapped_copy_source_is_a_vm_fault)
{
	struct sdq q, other;
	sdq_create(&q, 4096);
	sdq_create(&other, 4096); /* on engine 1 */
	struct cpq cq;
	cp_queue_create(&cq, 64);
	uint32_t ev = memory_event();
	uint64_t va;
	uint32_t *b = (uint32_t *)gtt(4096, &va);
	uint64_t bad = 0x7e0000003000ull;
	uint32_t p[16], n = sd_copy(p, va, bad + 0x10, 64);
	n += sd_fence(p + n, va + 64, 1);
	sdq_submit(&q, p, n);
	struct kfd_event_data d = { .event_id = ev };
	struct kfd_args_wait_events w = { .events_ptr = (uintptr_t)&d, .num_events = 1,
					  .wait_for_all = 1, .timeout = 5000 };
	ck_assert_int_eq(kio(KFD_IOCTL_WAIT_EVENTS, &w), 0);
	ck_assert_uint_eq(w.wait_result, KFD_WAIT_COMPLETE);
	ck_assert_uint_eq(d.memory_exception_data.va, bad);
	ck_assert_uint_eq(d.memory_exception_data.gpu_id, E.gpu_id);
	ck_assert_uint_eq(d.memory_exception_data.failure.NotPresent, 1);
	/* the queue stopped at the copy; the process's other queues on the
	 * device (SDMA and CP) are evicted */
	cp_sleep_ms(20);
	ck_assert_uint_eq(sdq_rptr(&q), 0);
	ck_assert_uint_eq(b[16], 0);
	n = sd_fence(p, va + 68, 1);
	sdq_submit(&other, p, n);
	uint64_t after = cp_signal(1);
	hsa_barrier_and_packet_t bp = cp_barrier(HSA_PACKET_TYPE_BARRIER_AND, after, 0, 0);
	cp_put(&cq, &bp, true);
	cp_sleep_ms(30);
	ck_assert_uint_eq(b[17], 0);
	ck_assert_int_eq(cp_sig_load(after), 1);
}
END_TEST

START_TEST(write_to_read_only_page_is_a_vm_fault)
{
	struct sdq q;
	sdq_create(&q, 4096);
	uint32_t ev = memory_event();
	uint64_t va = emu_va(4096), h;
	ck_assert_int_eq(emu_alloc_at(va, 4096, KFD_ALLOC_GTT, &h), 0); /* not WRITABLE */
	ck_assert_int_eq(emu_map(h), 0);
	uint32_t p[8], n = sd_fence(p, va + 8, 1);
	sdq_submit(&q, p, n);
	struct kfd_event_data d = { .event_id = ev };
	struct kfd_args_wait_events w = { .events_ptr = (uintptr_t)&d, .num_events = 1,
					  .wait_for_all = 1, .timeout = 5000 };
	ck_assert_int_eq(kio(KFD_IOCTL_WAIT_EVENTS, &w), 0);
	ck_assert_uint_eq(w.wait_result, KFD_WAIT_COMPLETE);
	ck_assert_uint_eq(d.memory_exception_data.va, va);
	ck_assert_uint_eq(d.memory_exception_data.failure.ReadOnly, 1);
}
END_TEST

START_TEST(bad_opcode_stops_only_that_queue)
{
	struct sdq q, other;
	sdq_create(&q, 4096);
	sdq_create(&other, 4096);
	uint64_t va;
	uint32_t *b = (uint32_t *)gtt(4096, &va);
	uint32_t p[16], n = sd_fence(p, va, 1);
	p[n++] = 0x0000007Fu; /* no such opcode */
	n += sd_fence(p + n, va + 4, 2);
	sdq_submit(&q, p, n);
	uint64_t end = cp_now_ns() + 5000000000ull;
	while (sdq_rptr(&q) < 16 && cp_now_ns() < end)
		sched_yield();
	cp_sleep_ms(30);
	ck_assert_uint_eq(sdq_rptr(&q), 16); /* stopped at the bad packet */
	ck_assert_uint_eq(b[0], 1);
	ck_assert_uint_eq(b[1], 0);
	/* a queue that stopped ignores later doorbells */
	n = sd_fence(p, va + 8, 3);
	sdq_submit(&q, p, n);
	/* the other queue (and the process) go on */
	n = sd_fence(p, va + 12, 4);
	sdq_submit(&other, p, n);
	ck_assert(sdq_wait_idle(&other, 5000));
	ck_assert_uint_eq(b[3], 4);
	ck_assert_uint_eq(b[2], 0);
	ck_assert_int_eq(sdq_destroy(&q), 0);
}
END_TEST

START_TEST(unmodelled_packet_bad_size_and_bad_write_pointer_stop_the_queue)
{
	struct sdq q, r;
	sdq_create(&q, 4096);
	sdq_create(&r, 4096);
	uint64_t va;
	uint32_t *b = (uint32_t *)gtt(4096, &va);
	uint32_t p[16] = { SD_HDR(SD_OP_COPY, 1) }; /* a tiled copy */
	sdq_submit(&q, p, 14);
	cp_sleep_ms(20);
	ck_assert_uint_eq(sdq_rptr(&q), 0);
	/* a WRITE_LINEAR whose size (count + 5 dwords) exceeds the ring */
	struct sdq w;
	sdq_create(&w, 4096);
	uint32_t big[8] = { SD_HDR(SD_OP_WRITE, 0), SD_LO(va), SD_HI(va), 4096 };
	sdq_submit(&w, big, 8);
	cp_sleep_ms(20);
	ck_assert_uint_eq(sdq_rptr(&w), 0);
	/* a write pointer beyond the ring */
	uint32_t n = sd_fence(p, va, 1);
	sdq_write(&r, p, n);
	atomic_store_explicit(r.db, 8192, memory_order_release);
	cp_sleep_ms(20);
	ck_assert_uint_eq(sdq_rptr(&r), 0);
	ck_assert_uint_eq(b[0], 0);
}
END_TEST

START_TEST(queues_land_on_engines_like_the_kernel)
{
	/* allocate_sdma_queue: engine = id % 2, RLC queue = id / 2; doorbell
	 * 0x100 + 10 * engine + (queue & 1) * 512 + queue / 2 */
	struct sdq q[3], x, by;
	uint32_t want[3] = { 0x100, 0x10A, 0x100 + 512 };
	for (int i = 0; i < 3; i++) {
		sdq_create(&q[i], 4096);
		ck_assert_uint_eq(sdq_doorbell_id(&q[i]), want[i]);
	}
	ck_assert_int_eq(sdq_create_type(&x, 4096, KFD_QUEUE_TYPE_SDMA_XGMI, 0), 0);
	ck_assert_uint_eq(sdq_doorbell_id(&x), 0x100 + 10 * E.gpu->num_sdma_engines);
	uint32_t last = E.gpu->num_sdma_engines + E.gpu->num_sdma_xgmi_engines - 1;
	ck_assert_int_eq(sdq_create_type(&by, 4096, KFD_QUEUE_TYPE_SDMA_BY_ENG_ID, last), 0);
	ck_assert_uint_eq(sdq_doorbell_id(&by), 0x100 + 10 * last);
	/* every one of them runs */
	uint64_t va;
	uint32_t *b = (uint32_t *)gtt(4096, &va);
	struct sdq *all[5] = { &q[0], &q[1], &q[2], &x, &by };
	for (int i = 0; i < 5; i++) {
		uint32_t p[8], n = sd_fence(p, va + 4 * i, 10 + i);
		sdq_submit(all[i], p, n);
	}
	for (int i = 0; i < 5; i++) {
		ck_assert(sdq_wait_idle(all[i], 5000));
		ck_assert_uint_eq(b[i], 10 + i);
	}
}
END_TEST

/* One engine blocks in POLL_REGMEM while the other completes a copy and
 * then releases it with a FENCE.  Both engines first go idle long enough
 * for one to poll for the device and the other to park, and each is the
 * blocked one in turn, so the poller role is exercised both ways. */
static void blocked_and_busy(struct sdq *blocked, struct sdq *busy, uint64_t va, uint32_t *m,
			     uint64_t sva, uint64_t dva, uint8_t *d, uint32_t len)
{
	m[0] = m[1] = 0;
	d[len - 1] = 0;
	cp_sleep_ms(150);
	uint32_t p[32], n = sd_poll_mem(p, va, 1, 0xFFFFFFFF, 3, 0xFFF);
	n += sd_fence(p + n, va + 4, 2);
	sdq_submit(blocked, p, n);
	cp_sleep_ms(10);
	n = sd_copy(p, dva, sva, len);
	n += sd_fence(p + n, va, 1);
	sdq_submit(busy, p, n);
	ck_assert(sdq_wait_idle(busy, 5000));
	ck_assert_uint_eq(d[len - 1], 0x3C);
	ck_assert(sdq_wait_idle(blocked, 5000));
	ck_assert_uint_eq(m[1], 2);
}

START_TEST(two_engines_run_at_once)
{
	struct sdq a, b;
	sdq_create(&a, 4096);
	sdq_create(&b, 4096);
	ck_assert_uint_ne(sdq_doorbell_id(&a) / 10, sdq_doorbell_id(&b) / 10);
	uint64_t va;
	uint32_t *m = (uint32_t *)gtt(4096, &va);
	const uint32_t len = 256 * 1024;
	uint64_t sva, dva;
	uint8_t *s = gtt(len, &sva), *d = gtt(len, &dva);
	memset(s, 0x3C, len);
	blocked_and_busy(&a, &b, va, m, sva, dva, d, len);
	blocked_and_busy(&b, &a, va, m, sva, dva, d, len);
}
END_TEST

START_TEST(destroy_returns_while_blocked_in_poll)
{
	struct sdq q;
	sdq_create(&q, 4096);
	uint64_t va;
	gtt(4096, &va);
	uint32_t p[8], n = sd_poll_mem(p, va, 1, 0xFFFFFFFF, 3, 0xFFF);
	sdq_submit(&q, p, n);
	cp_sleep_ms(10);
	ck_assert_int_eq(sdq_destroy(&q), 0);
	ck_assert_int_eq(sdq_destroy(&q), -EINVAL);
	/* the slot is free again */
	struct sdq again;
	sdq_create(&again, 4096);
	ck_assert_uint_eq(sdq_doorbell_id(&again), 0x100);
}
END_TEST

static uint64_t cpu_ns(void)
{
	struct rusage r;
	getrusage(RUSAGE_SELF, &r);
	return (uint64_t)r.ru_utime.tv_sec * 1000000000ull + (uint64_t)r.ru_utime.tv_usec * 1000ull +
	       (uint64_t)r.ru_stime.tv_sec * 1000000000ull + (uint64_t)r.ru_stime.tv_usec * 1000ull;
}

static _Atomic bool floor_stop;

/* The floor: a thread that only wakes every 2 ms, the engines' deepest
 * idle pace (what one wakeup costs on this host, under this load). */
static void *floor_sleeper(void *arg)
{
	(void)arg;
	while (!atomic_load(&floor_stop)) {
		struct timespec ts = { 0, 2000000 };
		nanosleep(&ts, NULL);
	}
	return NULL;
}

/* CPU share of the process over ms of wall time. */
static double cpu_share(unsigned ms)
{
	uint64_t c0 = cpu_ns(), t0 = cp_now_ns();
	cp_sleep_ms(ms);
	return 100.0 * (double)(cpu_ns() - c0) / (double)(cp_now_ns() - t0);
}

START_TEST(idle_engines_cost_little_cpu)
{
	atomic_store(&floor_stop, false);
	pthread_t t;
	ck_assert_int_eq(pthread_create(&t, NULL, floor_sleeper, NULL), 0);
	double floor = cpu_share(500);
	atomic_store(&floor_stop, true);
	pthread_join(t, NULL);
	struct sdq q[4];
	for (int i = 0; i < 4; i++)
		sdq_create(&q[i], 4096); /* engines 0 and 1, two queues each */
	cp_sleep_ms(150); /* past the spin phase and into deep idle */
	double pct = cpu_share(500);
	printf("sdma: idle CPU with 2 engines, 4 queues: %.2f%% of one core "
	       "(a thread waking every 2 ms: %.2f%%)\n", pct, floor);
	/* one poller for the device: about one such wakeup, whatever the
	 * number of engines and queues */
#ifdef __SANITIZE_THREAD__
	double limit = 10.0 * floor + 10.0; /* TSan makes each wakeup far dearer */
#else
	double limit = 3.0 * floor + 3.0;
#endif
	ck_assert_msg(pct < limit, "idle SDMA engines used %.2f%% CPU (limit %.2f%%)", pct, limit);
}
END_TEST

static Suite *sdma_packets_suite(void)
{
	Suite *s = suite_create("sdma_packets");
	TCase *tc = tcase_create("packets");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, nop_advances_read_pointer_in_bytes);
	tcase_add_test(tc, packets_wait_for_their_doorbell);
	tcase_add_test(tc, copy_linear_vram_and_gtt);
	tcase_add_test(tc, copy_linear_of_one_byte_and_a_30_bit_count);
	tcase_add_test(tc, copy_and_fill_cross_adjacent_mappings);
	tcase_add_test(tc, copy_sub_window_box);
	tcase_add_test(tc, copy_sub_window_bytes_like_rocr_2d);
	tcase_add_test(tc, constant_fill_sizes);
	tcase_add_test(tc, write_linear_streams_its_data);
	tcase_add_test(tc, fence_writes_32_bits);
	tcase_add_test(tc, trap_wakes_wait_events);
	tcase_add_test(tc, trap_wakes_a_blocked_waiter);
	tcase_add_test(tc, poll_regmem_waits_for_memory);
	tcase_add_test(tc, poll_regmem_with_retry_count_gives_up);
	tcase_add_test(tc, poll_regmem_hdp_flush_forms_complete);
	tcase_add_test(tc, atomic_operations);
	tcase_add_test(tc, atomic_cmpswap_loop_waits_for_compare);
	tcase_add_test(tc, timestamp_is_the_gpu_clock);
	tcase_add_test(tc, ring_wraps_around);
	tcase_add_test(tc, write_pointer_is_read_at_load);
	tcase_add_test(tc, inactive_queue_ignores_its_doorbell);
	tcase_add_test(tc, unmapped_copy_source_is_a_vm_fault);
	tcase_add_test(tc, write_to_read_only_page_is_a_vm_fault);
	tcase_add_test(tc, bad_opcode_stops_only_that_queue);
	tcase_add_test(tc, unmodelled_packet_bad_size_and_bad_write_pointer_stop_the_queue);
	tcase_add_test(tc, queues_land_on_engines_like_the_kernel);
	tcase_add_test(tc, two_engines_run_at_once);
	tcase_add_test(tc, destroy_returns_while_blocked_in_poll);
	suite_add_tcase(s, tc);
	TCase *mi300x = tcase_create("mi300x");
	tcase_add_checked_fixture(mi300x, setup_mi300x, teardown);
	tcase_set_timeout(mi300x, 60);
	tcase_add_test(mi300x, mi300x_copy_count_is_22_bits);
	suite_add_tcase(s, mi300x);
	TCase *idle = tcase_create("idle");
	tcase_add_checked_fixture(idle, setup, teardown);
	tcase_set_timeout(idle, 60);
	tcase_add_test(idle, idle_engines_cost_little_cpu);
	suite_add_tcase(s, idle);
	return s;
}

HL_CHECK_MAIN(sdma_packets_suite)
