/*
 * Fixture for the SDMA suites: on top of the CP fixture (a machine from
 * the kfdemu core API, GTT/VRAM buffers, signals and events), SDMA queues
 * made with raw CREATE_QUEUE the way libhsakmt makes ROCr's (a byte ring,
 * read and write pointers in one GTT page), a producer that writes packet
 * dwords at the write pointer with wrap-around, stores the new write
 * pointer (in bytes) to write_pointer_address and then to the 64-bit
 * doorbell, as ROCr's BlitSdmaV4 does, and packet builders whose encodings
 * are written out here from the SDMA 4.x field layout.
 */
#ifndef SDMA_FIXTURE_H
#define SDMA_FIXTURE_H

#include "cp_fixture.h"

/* A machine of preset's GPUs, as cp_setup makes an mi210 one. */
static inline void sdma_setup_preset(const char *preset)
{
	cp_setup_preset(preset, 0);
}

struct sdq {
	uint32_t id, type;
	uint32_t size;                 /* ring bytes */
	uint64_t ring_va, ptr_va;
	uint32_t *ring;
	_Atomic uint64_t *rptr, *wptr; /* rptr written back by the engine */
	_Atomic uint64_t *db;
	uint64_t doorbell_offset;
	uint64_t next;                 /* producer's write pointer, bytes */
};

static inline long sdq_create_type(struct sdq *q, uint32_t ring_bytes, uint32_t type,
				   uint32_t engine)
{
	memset(q, 0, sizeof(*q));
	q->size = ring_bytes;
	q->type = type;
	q->ring_va = emu_buffer(ring_bytes, KFD_ALLOC_GTT, NULL);
	q->ring = cp_host(q->ring_va, ring_bytes);
	memset(q->ring, 0xEE, ring_bytes); /* not NOPs: stale bytes must not run */
	q->ptr_va = emu_buffer(4096, KFD_ALLOC_GTT, NULL);
	uint8_t *ptrs = cp_host(q->ptr_va, 4096);
	memset(ptrs, 0, 4096);
	q->wptr = (_Atomic uint64_t *)(ptrs + 8);
	q->rptr = (_Atomic uint64_t *)(ptrs + 16);
	struct kfd_args_create_queue a = {
		.ring_base_address = q->ring_va, .ring_size = ring_bytes,
		.write_pointer_address = q->ptr_va + 8, .read_pointer_address = q->ptr_va + 16,
		.gpu_id = E.gpu_id, .queue_type = type, .queue_percentage = 100,
		.queue_priority = 15, .sdma_engine_id = engine,
	};
	long r = kio(KFD_IOCTL_CREATE_QUEUE, &a);
	if (r)
		return r;
	q->id = a.queue_id;
	q->doorbell_offset = a.doorbell_offset;
	_Atomic uint64_t *slice = kemu_doorbell_slice(E.p, E.gpu_id);
	ck_assert_ptr_nonnull(slice);
	q->db = slice + (a.doorbell_offset & (KFD_DOORBELL_SLICE_SIZE - 1)) / 8;
	return 0;
}

static inline void sdq_create(struct sdq *q, uint32_t ring_bytes)
{
	ck_assert_int_eq(sdq_create_type(q, ring_bytes, KFD_QUEUE_TYPE_SDMA, 0), 0);
}

static inline long sdq_destroy(struct sdq *q)
{
	struct kfd_args_destroy_queue a = { .queue_id = q->id };
	return kio(KFD_IOCTL_DESTROY_QUEUE, &a);
}

/* The doorbell index of the queue (slot in the slice). */
static inline uint32_t sdq_doorbell_id(const struct sdq *q)
{
	return (uint32_t)((q->doorbell_offset & (KFD_DOORBELL_SLICE_SIZE - 1)) / 8);
}

static inline uint64_t sdq_rptr(const struct sdq *q)
{
	return atomic_load_explicit(q->rptr, memory_order_acquire);
}

/* Writes n dwords at the producer's pointer (wrapping), without ringing. */
static inline void sdq_write(struct sdq *q, const uint32_t *dw, uint32_t n)
{
	uint64_t end = cp_now_ns() + 5000000000ull;
	while (q->next + 4ull * n - sdq_rptr(q) >= q->size) {
		ck_assert_msg(cp_now_ns() < end, "SDMA ring full: rptr 0x%llx next 0x%llx",
			      (unsigned long long)sdq_rptr(q), (unsigned long long)q->next);
		sched_yield();
	}
	for (uint32_t i = 0; i < n; i++)
		q->ring[(q->next / 4 + i) % (q->size / 4)] = dw[i];
	q->next += 4ull * n;
}

/* Publishes what was written: wptr memory, then (release) the doorbell. */
static inline void sdq_ring(struct sdq *q)
{
	atomic_store_explicit(q->wptr, q->next, memory_order_relaxed);
	atomic_store_explicit(q->db, q->next, memory_order_release);
}

static inline void sdq_submit(struct sdq *q, const uint32_t *dw, uint32_t n)
{
	sdq_write(q, dw, n);
	sdq_ring(q);
}

/* Waits until the engine's read pointer reaches the producer's; returns
 * whether it did within timeout_ms. */
static inline bool sdq_wait_idle(struct sdq *q, unsigned timeout_ms)
{
	uint64_t end = cp_now_ns() + timeout_ms * 1000000ull;
	while (sdq_rptr(q) != q->next) {
		if (cp_now_ns() > end)
			return false;
		sched_yield();
	}
	return true;
}

/* ---- packet builders (SDMA 4.x encodings) ---- */
#define SD_OP_NOP 0
#define SD_OP_COPY 1
#define SD_OP_WRITE 2
#define SD_OP_FENCE 5
#define SD_OP_TRAP 6
#define SD_OP_POLL 8
#define SD_OP_ATOMIC 10
#define SD_OP_FILL 11
#define SD_OP_TIMESTAMP 13
#define SD_HDR(op, sub) ((uint32_t)(op) | (uint32_t)(sub) << 8)
#define SD_LO(x) ((uint32_t)(x))
#define SD_HI(x) ((uint32_t)((uint64_t)(x) >> 32))

static inline uint32_t sd_nop(uint32_t *p, uint32_t extra)
{
	p[0] = SD_HDR(SD_OP_NOP, 0) | extra << 16;
	for (uint32_t i = 0; i < extra; i++)
		p[1 + i] = 0xDEAD0000u | i; /* skipped, whatever they hold */
	return 1 + extra;
}

static inline uint32_t sd_copy(uint32_t *p, uint64_t dst, uint64_t src, uint32_t bytes)
{
	p[0] = SD_HDR(SD_OP_COPY, 0);
	p[1] = bytes - 1;
	p[2] = 0;
	p[3] = SD_LO(src);
	p[4] = SD_HI(src);
	p[5] = SD_LO(dst);
	p[6] = SD_HI(dst);
	return 7;
}

static inline uint32_t sd_fence(uint32_t *p, uint64_t va, uint32_t data)
{
	p[0] = SD_HDR(SD_OP_FENCE, 0);
	p[1] = SD_LO(va);
	p[2] = SD_HI(va);
	p[3] = data;
	return 4;
}

static inline uint32_t sd_trap(uint32_t *p, uint32_t ctx)
{
	p[0] = SD_HDR(SD_OP_TRAP, 0);
	p[1] = ctx;
	return 2;
}

/* func: 0 always, 1 <, 2 <=, 3 ==, 4 !=, 5 >=, 6 > */
static inline uint32_t sd_poll_mem(uint32_t *p, uint64_t va, uint32_t ref, uint32_t mask,
				   unsigned func, unsigned retry)
{
	p[0] = SD_HDR(SD_OP_POLL, 0) | (uint32_t)func << 28 | 1u << 31;
	p[1] = SD_LO(va);
	p[2] = SD_HI(va);
	p[3] = ref;
	p[4] = mask;
	p[5] = 4u | (uint32_t)retry << 16;
	return 6;
}

/* TC_OP codes: 0x2f add64 (ROCr's signal decrement), 0x28 cmpswap64 ... */
static inline uint32_t sd_atomic(uint32_t *p, unsigned op, uint64_t va, uint64_t src,
				 uint64_t cmp, bool loop)
{
	p[0] = SD_HDR(SD_OP_ATOMIC, 0) | (loop ? 1u << 16 : 0) | (uint32_t)op << 25;
	p[1] = SD_LO(va);
	p[2] = SD_HI(va);
	p[3] = SD_LO(src);
	p[4] = SD_HI(src);
	p[5] = SD_LO(cmp);
	p[6] = SD_HI(cmp);
	p[7] = loop ? 16 : 0;
	return 8;
}

static inline uint32_t sd_fill(uint32_t *p, uint64_t dst, uint32_t data, uint32_t count,
			       unsigned fillsize)
{
	p[0] = SD_HDR(SD_OP_FILL, 0) | (uint32_t)fillsize << 30;
	p[1] = SD_LO(dst);
	p[2] = SD_HI(dst);
	p[3] = data;
	p[4] = count;
	return 5;
}

static inline uint32_t sd_timestamp(uint32_t *p, uint64_t va)
{
	p[0] = SD_HDR(SD_OP_TIMESTAMP, 2);
	p[1] = SD_LO(va);
	p[2] = SD_HI(va);
	return 3;
}

static inline uint32_t sd_write(uint32_t *p, uint64_t dst, const uint32_t *data, uint32_t n)
{
	p[0] = SD_HDR(SD_OP_WRITE, 0);
	p[1] = SD_LO(dst);
	p[2] = SD_HI(dst);
	p[3] = n - 1;
	memcpy(&p[4], data, 4ull * n);
	return 4 + n;
}

/* COPY_LINEAR_SUB_WIND: offsets, pitches and sizes in elements of
 * 1 << elem bytes; base addresses dword aligned. */
struct sd_box { uint64_t base; uint32_t x, y, z, pitch, slice; };
static inline uint32_t sd_copy_rect(uint32_t *p, unsigned elem, const struct sd_box *src,
				    const struct sd_box *dst, uint32_t w, uint32_t h, uint32_t d)
{
	p[0] = SD_HDR(SD_OP_COPY, 4) | (uint32_t)elem << 29;
	p[1] = SD_LO(src->base);
	p[2] = SD_HI(src->base);
	p[3] = src->x | src->y << 16;
	p[4] = src->z | (src->pitch - 1) << 13;
	p[5] = src->slice ? src->slice - 1 : 0;
	p[6] = SD_LO(dst->base);
	p[7] = SD_HI(dst->base);
	p[8] = dst->x | dst->y << 16;
	p[9] = dst->z | (dst->pitch - 1) << 13;
	p[10] = dst->slice ? dst->slice - 1 : 0;
	p[11] = (w - 1) | (h - 1) << 16;
	p[12] = d - 1;
	return 13;
}

#endif
