/*
 * A fake of the driver behind an engine: the GPU interface of emu/gpu/gpu.h
 * (struct kemu_gpu_ops) implemented over a small table of host buffers
 * mapped at fake GPU addresses, with a one-GPU topology, a doorbell word
 * and a queue descriptor (struct kemu_hw_queue) -- no emu/kfd, no machine,
 * no /dev/kfd.  It records what the engine reports (interrupts, VM faults)
 * and answers a fault as the driver's interrupt handler does: by evicting
 * the process's queues through the engine's evict hook.
 *
 * The suites (test/cp/test_cp_fake.c, test/sdma/test_sdma_fake.c) link one
 * engine library and nothing of the driver, so they show that the engine
 * needs no more than gpu.h, and test it below the ioctl layer.
 */
#ifndef FAKE_GPU_H
#define FAKE_GPU_H

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <check.h>

#include "gpu/gpu.h"

/* The driver's process, opaque to the engines: the fake's is a tag. */
struct kemu_process {
	int tag;
};

#define FAKE_MAPS 8
#define FAKE_IRQS 64

struct fake_map {
	uint64_t va, len;
	uint8_t *host;
	unsigned perms;                /* KEMU_ACCESS_* */
};

static struct fake {
	struct kemu_process proc;
	struct kemu_gpu gpu;           /* the topology's view of the device */
	_Atomic uint64_t gen;          /* the VM generation */
	_Atomic uint64_t doorbell;
	const struct kemu_engine_ops *engine;
	struct kemu_hw_queue hq;
	pthread_mutex_t lock;          /* everything below */
	struct fake_map maps[FAKE_MAPS];
	unsigned n_maps;
	uint32_t irq_id[FAKE_IRQS], irq_bits[FAKE_IRQS];
	unsigned n_irqs;
	struct kemu_vm_fault_info fault; /* the first one */
	unsigned n_faults, n_evicts;
	/* ops called with another process or GPU (checked at teardown: the
	 * engine threads cannot fail a Check assertion themselves) */
	_Atomic unsigned bad_calls;
} F;

/* Whether an op was called for the fake's own process and GPU. */
static inline bool fake_mine(const struct kemu_process *p, uint32_t gpu_id)
{
	if (p == &F.proc && gpu_id == F.gpu.gpu_id)
		return true;
	atomic_fetch_add(&F.bad_calls, 1);
	return false;
}

/* The mapping holding va, or NULL.  Caller holds F.lock. */
static inline const struct fake_map *fake_lookup(uint64_t va)
{
	for (unsigned i = 0; i < F.n_maps; i++) {
		if (va - F.maps[i].va < F.maps[i].len)
			return &F.maps[i];
	}
	return NULL;
}

/* Caller holds F.lock.  Returns the mapping or NULL with *f filled. */
static inline const struct fake_map *fake_resolve(uint64_t va, unsigned access,
						  struct kemu_vm_fault_info *f)
{
	const struct fake_map *m = fake_lookup(va);
	struct kemu_vm_fault_info info = { .va = va, .gpu_id = F.gpu.gpu_id };
	if (!m)
		info.not_present = true;
	else if ((access & KEMU_ACCESS_WRITE) && !(m->perms & KEMU_ACCESS_WRITE))
		info.read_only = true;
	else if ((access & KEMU_ACCESS_EXEC) && !(m->perms & KEMU_ACCESS_EXEC))
		info.no_execute = true;
	else
		return m;
	if (f)
		*f = info;
	return NULL;
}

static int fake_translate(struct kemu_process *p, uint32_t gpu_id, uint64_t va, size_t len,
			  unsigned access, void **host, struct kemu_vm_fault_info *f)
{
	if (!fake_mine(p, gpu_id))
		return -EINVAL;
	size_t n = len ? len : 1;
	pthread_mutex_lock(&F.lock);
	const struct fake_map *m = fake_resolve(va, access, f);
	int ret = -EFAULT;
	if (m && n > m->len - (va - m->va)) {
		if (f)
			*f = (struct kemu_vm_fault_info){ .va = m->va + m->len, .gpu_id = gpu_id,
							  .not_present = true };
	} else if (m) {
		*host = m->host + (va - m->va);
		ret = 0;
	}
	pthread_mutex_unlock(&F.lock);
	return ret;
}

static int fake_translate_range(struct kemu_process *p, uint32_t gpu_id, uint64_t va,
				unsigned access, struct kemu_vm_range *out,
				struct kemu_vm_fault_info *f)
{
	if (!fake_mine(p, gpu_id))
		return -EINVAL;
	pthread_mutex_lock(&F.lock);
	const struct fake_map *m = fake_resolve(va, access, f);
	if (m)
		*out = (struct kemu_vm_range){ .va = va, .len = m->len - (va - m->va),
					       .host = m->host + (va - m->va), .access = access,
					       .gen = atomic_load(&F.gen) };
	pthread_mutex_unlock(&F.lock);
	return m ? 0 : -EFAULT;
}

static int fake_read(struct kemu_process *p, uint32_t gpu_id, uint64_t va, void *dst,
		     size_t len, struct kemu_vm_fault_info *f)
{
	void *h;
	int ret = fake_translate(p, gpu_id, va, len, KEMU_ACCESS_READ, &h, f);
	if (!ret)
		memcpy(dst, h, len);
	return ret;
}

static int fake_write(struct kemu_process *p, uint32_t gpu_id, uint64_t va, const void *src,
		      size_t len, struct kemu_vm_fault_info *f)
{
	void *h;
	int ret = fake_translate(p, gpu_id, va, len, KEMU_ACCESS_WRITE, &h, f);
	if (!ret)
		memcpy(h, src, len);
	return ret;
}

static void fake_interrupt(struct kemu_process *p, uint32_t id, uint32_t valid_bits)
{
	if (!fake_mine(p, F.gpu.gpu_id))
		return;
	pthread_mutex_lock(&F.lock);
	if (F.n_irqs < FAKE_IRQS) {
		F.irq_id[F.n_irqs] = id;
		F.irq_bits[F.n_irqs] = valid_bits;
	}
	F.n_irqs++;
	pthread_mutex_unlock(&F.lock);
}

/* The driver's IH: record, then evict the process's queues on the device
 * (the driver would evict on every engine; the fake has one). */
static void fake_vm_fault(struct kemu_process *p, const struct kemu_vm_fault_info *f)
{
	if (!f || !fake_mine(p, f->gpu_id))
		return;
	pthread_mutex_lock(&F.lock);
	if (!F.n_faults++)
		F.fault = *f;
	pthread_mutex_unlock(&F.lock);
	kemu_gpu_evict(F.engine->registry, p, &F.gpu);
	pthread_mutex_lock(&F.lock);
	F.n_evicts++;
	pthread_mutex_unlock(&F.lock);
}

static const struct kemu_gpu_ops fake_ops = {
	.translate = fake_translate,
	.translate_range = fake_translate_range,
	.read = fake_read,
	.write = fake_write,
	.interrupt = fake_interrupt,
	.vm_fault = fake_vm_fault,
};

/* A fresh fake device for engine e; its queue descriptor is F.hq, to be
 * filled by the suite before e->add. */
static inline void fake_setup(const struct kemu_engine_ops *e)
{
	memset(&F, 0, sizeof(F));
	pthread_mutex_init(&F.lock, NULL);
	F.engine = e;
	F.gpu.gpu_id = 0x4242;
	F.gpu.hqd_slots = 2;
	F.gpu.gpu_counter_freq = 100000;
	F.gpu.gfx_target_version = 90010;
	F.gpu.num_sdma_engines = 2;
	F.gpu.num_sdma_queues_per_engine = 8;
	F.hq.vm = (struct kemu_gpu_vm){ .ops = &fake_ops, .p = &F.proc, .gpu_id = F.gpu.gpu_id,
					.gen = &F.gen };
	F.hq.gpu = &F.gpu;
	F.hq.log_level = KEMU_LOG_ERROR;
	F.hq.doorbell = &F.doorbell;
	F.hq.info.gpu_id = F.gpu.gpu_id;
	F.hq.info.queue_id = 1;
}

static inline void fake_teardown(void)
{
	ck_assert_uint_eq(atomic_load(&F.bad_calls), 0);
	for (unsigned i = 0; i < F.n_maps; i++)
		free(F.maps[i].host);
	pthread_mutex_destroy(&F.lock);
}

/* len zeroed bytes mapped at va with perms; returns their host view. */
static inline uint8_t *fake_map(uint64_t va, uint64_t len, unsigned perms)
{
	ck_assert_uint_lt(F.n_maps, FAKE_MAPS);
	uint8_t *h = aligned_alloc(4096, (len + 4095) & ~4095ull);
	ck_assert_ptr_nonnull(h);
	memset(h, 0, len);
	pthread_mutex_lock(&F.lock);
	F.maps[F.n_maps++] = (struct fake_map){ .va = va, .len = len, .host = h, .perms = perms };
	pthread_mutex_unlock(&F.lock);
	/* release: a new mapping, as the driver bumps the generation */
	atomic_fetch_add_explicit(&F.gen, 1, memory_order_release);
	return h;
}

static inline unsigned fake_count(const unsigned *counter)
{
	pthread_mutex_lock(&F.lock);
	unsigned n = *counter;
	pthread_mutex_unlock(&F.lock);
	return n;
}

static inline uint64_t fake_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000ull + (uint64_t)ts.tv_nsec / 1000000ull;
}

static inline void fake_sleep_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

/* Waits (at most 10 s: a bound for a hang, not a timing condition) until
 * the 64-bit word at p equals want. */
static inline bool fake_wait_u64(const _Atomic uint64_t *p, uint64_t want)
{
	uint64_t end = fake_now_ms() + 10000;
	while (atomic_load_explicit(p, memory_order_acquire) != want) {
		if (fake_now_ms() > end)
			return false;
		fake_sleep_ms(1);
	}
	return true;
}

/* Waits (at most 10 s) until *counter (under F.lock) reaches n. */
static inline bool fake_wait_count(const unsigned *counter, unsigned n)
{
	uint64_t end = fake_now_ms() + 10000;
	while (fake_count(counter) < n) {
		if (fake_now_ms() > end)
			return false;
		fake_sleep_ms(1);
	}
	return true;
}

#endif /* FAKE_GPU_H */
