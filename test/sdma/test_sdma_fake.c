/*
 * The SDMA engines against a fake GPU interface (test/emu/fake_gpu.h):
 * kfdemu_sdma alone, no driver model behind it.  An RLC queue whose ring,
 * pointers and buffers live in fake-mapped host memory copies, fences and
 * traps (the interrupt goes through the interface), copies across two
 * mappings, and reports a fault on an unmapped destination (ops->vm_fault)
 * for the fake driver to evict, after which the queue runs nothing.
 */
#include <stdatomic.h>
#include <string.h>

#include "fake_gpu.h"
#include "hl_check.h"
#include "sdma.h"

#define BASE     0x100000000ull
#define RING_VA  BASE                    /* 4 KiB ring */
#define RPTR_VA  (BASE + 0x1000)
#define WPTR_VA  (BASE + 0x1008)
#define FENCE_VA (BASE + 0x1100)
#define SRC_VA   (BASE + 0x4000)
#define DST_VA   (BASE + 0x10000)
#define DST2_VA  0x300000000ull          /* a second mapping */
#define RING_SIZE 4096u
#define COPY_LEN 0x8000u

/* SDMA 4.x headers: opcode 7:0, sub-opcode 15:8 */
#define OP_COPY  1u
#define OP_FENCE 5u
#define OP_TRAP  6u

static uint8_t *mem;
static uint64_t wptr;                    /* bytes, monotonic */

static _Atomic uint64_t *word(uint64_t va)
{
	return (_Atomic uint64_t *)(mem + (va - BASE));
}

static void emit(uint32_t dw)
{
	uint32_t *ring = (uint32_t *)(mem + (RING_VA - BASE));
	ring[(wptr / 4) % (RING_SIZE / 4)] = dw;
	wptr += 4;
}

static void emit_copy(uint64_t dst, uint64_t src, uint32_t bytes)
{
	emit(OP_COPY);
	emit(bytes - 1);
	emit(0);
	emit((uint32_t)src);
	emit((uint32_t)(src >> 32));
	emit((uint32_t)dst);
	emit((uint32_t)(dst >> 32));
}

static void emit_fence(uint64_t va, uint32_t data)
{
	emit(OP_FENCE);
	emit((uint32_t)va);
	emit((uint32_t)(va >> 32));
	emit(data);
}

/* Publishes the packets: the write pointer in memory, then the doorbell
 * (release: the ring's dwords before it). */
static void ring_doorbell(void)
{
	atomic_store(word(WPTR_VA), wptr);
	atomic_store_explicit(&F.doorbell, wptr, memory_order_release);
}

static void setup(void)
{
	fake_setup(&kemu_sdma_engine);
	mem = fake_map(BASE, 0x20000, KEMU_ACCESS_READ | KEMU_ACCESS_WRITE);
	wptr = 0;
	F.hq.info.type = 1; /* SDMA: the driver picked the SDMA engines for it */
	F.hq.info.ring_base = RING_VA;
	F.hq.info.ring_size = RING_SIZE;
	F.hq.info.rptr_va = RPTR_VA;
	F.hq.info.wptr_va = WPTR_VA;
	F.hq.info.percentage = 100;
	F.hq.info.active = true;
	F.hq.sdma_slot = 9; /* engine 1, RLC queue 1 */
	ck_assert_int_eq(kemu_sdma_engine.add(&F.hq), 0);
}

static void teardown(void)
{
	kemu_gpu_queue_remove(kemu_sdma_engine.registry, &F.hq);
	fake_teardown();
}

START_TEST(add_rejects_a_descriptor_without_wiring)
{
	struct kemu_hw_queue hq = F.hq;
	hq.vm.ops = NULL;
	ck_assert_int_eq(kemu_sdma_engine.add(&hq), -EINVAL);
	ck_assert_int_eq(kemu_sdma_engine.add(NULL), -EINVAL);
	kemu_gpu_queue_remove(kemu_sdma_engine.registry, &hq);
}
END_TEST

START_TEST(copy_fence_and_trap)
{
	uint8_t *src = mem + (SRC_VA - BASE), *dst = mem + (DST_VA - BASE);
	for (uint32_t i = 0; i < COPY_LEN; i++)
		src[i] = (uint8_t)(i * 7 + 3);
	emit_copy(DST_VA, SRC_VA, COPY_LEN);
	emit_fence(FENCE_VA, 0xC0FFEE);
	emit(OP_TRAP);
	emit(0x55);
	ring_doorbell();
	ck_assert(fake_wait_u64(word(RPTR_VA), wptr));
	ck_assert_int_eq(memcmp(src, dst, COPY_LEN), 0);
	uint32_t fence;
	memcpy(&fence, mem + (FENCE_VA - BASE), 4);
	ck_assert_uint_eq(fence, 0xC0FFEE);
	ck_assert(fake_wait_count(&F.n_irqs, 1));
	pthread_mutex_lock(&F.lock);
	ck_assert_uint_eq(F.irq_id[0], 0x55);
	ck_assert_uint_eq(F.irq_bits[0], 28);
	ck_assert_uint_eq(F.n_faults, 0);
	pthread_mutex_unlock(&F.lock);
}
END_TEST

START_TEST(copy_into_another_mapping)
{
	uint8_t *dst2 = fake_map(DST2_VA, 4096, KEMU_ACCESS_READ | KEMU_ACCESS_WRITE);
	uint8_t *src = mem + (SRC_VA - BASE);
	for (uint32_t i = 0; i < 4096; i++)
		src[i] = (uint8_t)(i ^ 0x5A);
	emit_copy(DST2_VA, SRC_VA, 4096);
	ring_doorbell();
	ck_assert(fake_wait_u64(word(RPTR_VA), wptr));
	ck_assert_int_eq(memcmp(src, dst2, 4096), 0);
}
END_TEST

START_TEST(fault_is_reported_and_the_driver_evicts)
{
	const uint64_t bad = 0xdead0000ull;
	emit_copy(bad, SRC_VA, 64);
	uint64_t at_fault = 0;
	ring_doorbell();
	ck_assert(fake_wait_count(&F.n_evicts, 1));
	pthread_mutex_lock(&F.lock);
	ck_assert_uint_eq(F.n_faults, 1);
	ck_assert_uint_eq(F.fault.va, bad);
	ck_assert_uint_eq(F.fault.gpu_id, F.gpu.gpu_id);
	ck_assert(F.fault.not_present);
	pthread_mutex_unlock(&F.lock);
	/* the read pointer stays at the faulting packet; evicted, the queue
	 * takes no more packets */
	ck_assert_uint_eq(atomic_load(word(RPTR_VA)), at_fault);
	emit_fence(FENCE_VA, 1);
	ring_doorbell();
	fake_sleep_ms(20); /* a wrong engine would have run it by now */
	uint32_t fence;
	memcpy(&fence, mem + (FENCE_VA - BASE), 4);
	ck_assert_uint_eq(fence, 0);
	ck_assert_uint_eq(atomic_load(word(RPTR_VA)), at_fault);
}
END_TEST

static Suite *sdma_fake_suite(void)
{
	Suite *s = suite_create("sdma_fake");
	TCase *tc = tcase_create("core");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, add_rejects_a_descriptor_without_wiring);
	tcase_add_test(tc, copy_fence_and_trap);
	tcase_add_test(tc, copy_into_another_mapping);
	tcase_add_test(tc, fault_is_reported_and_the_driver_evicts);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(sdma_fake_suite)
