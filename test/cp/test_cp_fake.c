/*
 * The command processor against a fake GPU interface (test/emu/fake_gpu.h):
 * kfdemu_cp alone, no driver model behind it.  An AQL queue whose ring,
 * amd_queue_t and signals live in fake-mapped host memory runs barrier
 * packets: retire (header INVALID, read index, completion signal value,
 * mailbox and end-of-pipe interrupt through the interface), a dependency
 * that holds the queue, an update that deactivates and reloads the queue,
 * and a fault that the CP reports (ops->vm_fault) for the fake driver to
 * evict, after which the queue runs nothing.
 */
#include <stdatomic.h>
#include <string.h>

#include "cp.h"
#include "fake_gpu.h"
#include "hl_check.h"

/* The queue's memory: one mapping, laid out as a runtime would. */
#define BASE        0x100000000ull
#define AQ_VA       BASE                 /* amd_queue_t */
#define RING_VA     (BASE + 0x1000)
#define SIG_VA      (BASE + 0x2000)      /* 64-byte amd_signal_t slots */
#define MAILBOX_VA  (BASE + 0x3000)
#define SLOTS       16u
/* amd_queue_t and amd_signal_t offsets (include/hsa pins them) */
#define AQ_WRITE_ID 56
#define AQ_READ_ID  128
#define AQ_READ_OFF 136
#define SIG_VALUE   8
#define SIG_MAILBOX 16
#define SIG_EVENT   24
/* AQL header: type BARRIER_AND, barrier bit, system acquire and release */
#define HDR_BARRIER_AND (3u | 1u << 8 | 2u << 9 | 2u << 11)
#define HDR_INVALID 1u

static uint8_t *mem;

static _Atomic uint64_t *word(uint64_t va)
{
	return (_Atomic uint64_t *)(mem + (va - BASE));
}

static uint64_t signal_at(unsigned i, int64_t value, uint64_t mailbox, uint32_t event_id)
{
	uint64_t va = SIG_VA + 64ull * i;
	atomic_store(word(va + SIG_VALUE), (uint64_t)value);
	atomic_store(word(va + SIG_MAILBOX), mailbox);
	memcpy(mem + (va + SIG_EVENT - BASE), &event_id, 4);
	return va;
}

/* Writes a BARRIER_AND at index and publishes it (header last, release),
 * then rings the doorbell with the index. */
static void submit_barrier(uint64_t index, uint64_t dep, uint64_t completion)
{
	uint8_t *pkt = mem + (RING_VA - BASE) + index % SLOTS * 64;
	memset(pkt + 2, 0, 62);
	memcpy(pkt + 8, &dep, 8);
	memcpy(pkt + 56, &completion, 8);
	/* release: the body before the header (the CP's acquire load) */
	atomic_store_explicit((_Atomic uint16_t *)pkt, (uint16_t)HDR_BARRIER_AND,
			      memory_order_release);
	atomic_store(word(AQ_VA + AQ_WRITE_ID), index + 1);
	atomic_store_explicit(&F.doorbell, index, memory_order_release);
}

static uint16_t header_at(uint64_t index)
{
	return atomic_load((_Atomic uint16_t *)(mem + (RING_VA - BASE) + index % SLOTS * 64));
}

static void setup(void)
{
	fake_setup(&kemu_cp_engine);
	mem = fake_map(BASE, 0x10000, KEMU_ACCESS_READ | KEMU_ACCESS_WRITE);
	for (unsigned i = 0; i < SLOTS; i++)
		atomic_store((_Atomic uint16_t *)(mem + (RING_VA - BASE) + i * 64),
			     (uint16_t)HDR_INVALID);
	uint32_t off = AQ_READ_ID;
	memcpy(mem + AQ_READ_OFF, &off, 4);
	F.hq.info.type = 2; /* COMPUTE_AQL: the driver picked the CP for it */
	F.hq.info.ring_base = RING_VA;
	F.hq.info.ring_size = SLOTS * 64;
	F.hq.info.rptr_va = AQ_VA + AQ_READ_ID;
	F.hq.info.wptr_va = AQ_VA + AQ_WRITE_ID;
	F.hq.info.percentage = 100;
	F.hq.info.active = true;
	ck_assert_int_eq(kemu_cp_engine.add(&F.hq), 0);
}

static void teardown(void)
{
	kemu_gpu_queue_remove(kemu_cp_engine.registry, &F.hq);
	fake_teardown();
}

START_TEST(add_rejects_a_descriptor_without_wiring)
{
	struct kemu_hw_queue hq = F.hq;
	hq.doorbell = NULL;
	ck_assert_int_eq(kemu_cp_engine.add(&hq), -EINVAL);
	ck_assert_int_eq(kemu_cp_engine.add(NULL), -EINVAL);
	/* removing a queue the CP never took is harmless */
	kemu_gpu_queue_remove(kemu_cp_engine.registry, &hq);
}
END_TEST

START_TEST(barrier_retires_signal_mailbox_and_interrupt)
{
	uint64_t done = signal_at(0, 1, MAILBOX_VA, 7);
	submit_barrier(0, 0, done);
	ck_assert(fake_wait_u64(word(done + SIG_VALUE), 0));
	ck_assert(fake_wait_count(&F.n_irqs, 1));
	ck_assert_uint_eq(atomic_load(word(AQ_VA + AQ_READ_ID)), 1);
	ck_assert_uint_eq(header_at(0) & 0xFF, HDR_INVALID);
	ck_assert_uint_eq(atomic_load(word(MAILBOX_VA)), 7);
	pthread_mutex_lock(&F.lock);
	ck_assert_uint_eq(F.irq_id[0], 7);
	ck_assert_uint_eq(F.irq_bits[0], 32);
	ck_assert_uint_eq(F.n_faults, 0);
	pthread_mutex_unlock(&F.lock);
}
END_TEST

START_TEST(barrier_waits_for_its_dependency)
{
	uint64_t dep = signal_at(0, 1, 0, 0), done = signal_at(1, 1, 0, 0);
	submit_barrier(0, dep, done);
	fake_sleep_ms(20); /* a wrong CP would have retired it by now */
	ck_assert_uint_eq(atomic_load(word(done + SIG_VALUE)), 1);
	ck_assert_uint_eq(atomic_load(word(AQ_VA + AQ_READ_ID)), 0);
	atomic_store(word(dep + SIG_VALUE), 0);
	ck_assert(fake_wait_u64(word(done + SIG_VALUE), 0));
	ck_assert_uint_eq(atomic_load(word(AQ_VA + AQ_READ_ID)), 1);
	ck_assert_uint_eq(fake_count(&F.n_irqs), 0); /* no mailbox: no interrupt */
}
END_TEST

START_TEST(inactive_queue_runs_after_update_reloads_it)
{
	F.hq.info.active = false;
	kemu_cp_engine.update(&F.hq);
	uint64_t done = signal_at(0, 1, 0, 0);
	submit_barrier(0, 0, done);
	fake_sleep_ms(20);
	ck_assert_uint_eq(atomic_load(word(done + SIG_VALUE)), 1);
	F.hq.info.active = true;
	kemu_cp_engine.update(&F.hq);
	ck_assert(fake_wait_u64(word(done + SIG_VALUE), 0));
}
END_TEST

START_TEST(fault_is_reported_and_the_driver_evicts)
{
	/* a completion signal nobody mapped */
	const uint64_t bad = 0xdead0000ull;
	submit_barrier(0, 0, bad);
	ck_assert(fake_wait_count(&F.n_evicts, 1));
	pthread_mutex_lock(&F.lock);
	ck_assert_uint_eq(F.n_faults, 1);
	ck_assert_uint_eq(F.fault.va, bad + SIG_VALUE);
	ck_assert_uint_eq(F.fault.gpu_id, F.gpu.gpu_id);
	ck_assert(F.fault.not_present);
	pthread_mutex_unlock(&F.lock);
	/* evicted: the next packet never runs */
	uint64_t done = signal_at(0, 1, 0, 0);
	submit_barrier(1, 0, done);
	fake_sleep_ms(20);
	ck_assert_uint_eq(atomic_load(word(done + SIG_VALUE)), 1);
	ck_assert_uint_eq(fake_count(&F.n_faults), 1);
}
END_TEST

START_TEST(read_only_signal_is_a_read_only_fault)
{
	const uint64_t ro = 0x200000000ull;
	uint8_t *h = fake_map(ro, 4096, KEMU_ACCESS_READ);
	int64_t one = 1;
	memcpy(h + SIG_VALUE, &one, 8);
	submit_barrier(0, 0, ro);
	ck_assert(fake_wait_count(&F.n_evicts, 1));
	pthread_mutex_lock(&F.lock);
	ck_assert_uint_eq(F.fault.va, ro + SIG_VALUE);
	ck_assert(F.fault.read_only);
	pthread_mutex_unlock(&F.lock);
	ck_assert_uint_eq(atomic_load((_Atomic uint64_t *)(h + SIG_VALUE)), 1);
}
END_TEST

static Suite *cp_fake_suite(void)
{
	Suite *s = suite_create("cp_fake");
	TCase *tc = tcase_create("core");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, add_rejects_a_descriptor_without_wiring);
	tcase_add_test(tc, barrier_retires_signal_mailbox_and_interrupt);
	tcase_add_test(tc, barrier_waits_for_its_dependency);
	tcase_add_test(tc, inactive_queue_runs_after_update_reloads_it);
	tcase_add_test(tc, fault_is_reported_and_the_driver_evicts);
	tcase_add_test(tc, read_only_signal_is_a_read_only_fault);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(cp_fake_suite)
