/*
 * User-mode SDMA queues: the copy engines ROCr 5.2.3 uses for async copies
 * between a GPU and host memory (BlitSdmaV4), created the way it creates
 * them: lazily, per GPU and per direction (host to device, device to host;
 * peer copies over PCIe take the device-to-host queue), through
 * CREATE_QUEUE with type SDMA, percentage 100 and the maximum priority;
 * copies to a GPU of the same xGMI hive take a queue of type SDMA_XGMI (the
 * kernel places it on an xGMI engine).  A GPU has one queue slot per ROCr
 * blit: host to device, device to host, then one per xGMI engine
 * (hsa_amd_memory_async_copy's hive copies take the first; engine.c's
 * copy_on_engine names any).  As ROCr 1.18 does on KFD 1.17+, a GPU with
 * xGMI engines gets each queue pinned to its engine (SDMA_BY_ENG_ID,
 * sdma_pinned_engine), so an engine id means that engine.
 *
 * Ring protocol (the SDMA 4.x RLC queue): a 1 MiB ring in host memory
 * mapped to the GPU; the read and write pointers are 64-bit byte offsets
 * that only grow (position = pointer & (size - 1)), both in one GPU-mapped
 * page; the producer writes its packets, stores the new write pointer, then
 * rings the doorbell with the same value.  The engine writes back its read
 * pointer after each packet.  A command that would straddle the end of the
 * ring is preceded by zero dwords (one-dword NOPs) up to the end, as ROCr
 * pads.
 *
 * One submission (ROCr's SubmitCommand, in order):
 *   - two POLL_REGMEM per dependency signal: the value's high dword == 0,
 *     then its low dword == 0 (polls compare 32 bits);
 *   - with profiling, TIMESTAMP GET_GLOBAL into the completion signal's
 *     start_ts (32-byte aligned: signals are 64-byte aligned, start_ts is
 *     at byte 32);
 *   - the HDP flush (ROCr's SDMA_PKT_HDP_FLUSH, which ROCr puts in every
 *     gfx9 submission): CPU stores through the BAR to VRAM made before the
 *     submission reach memory before the copy reads it;
 *   - the copy: COPY_LINEAR packets of at most 0x3fffe0 bytes;
 *   - with profiling, TIMESTAMP into a 32-byte aligned slot of ours, then
 *     COPY_LINEAR of its 8 bytes to end_ts (byte 40, which the engine
 *     cannot timestamp into directly); the slots are a ring of 63 in the
 *     pointers' page after rptr and wptr, one per profiled submission (the
 *     engine runs a submission's TIMESTAMP and COPY_LINEAR before the
 *     next one's, so a slot may be reused at once);
 *   - ATOMIC 64-bit add of -1 to the completion signal's value;
 *   - when the signal has an event (event_mailbox_ptr), FENCE of the event
 *     id into the mailbox and TRAP with the id as interrupt context: the
 *     interrupt sets the KFD event and wakes sleeping waiters.
 *
 * Failures: a queue that cannot be created marks the direction failed for
 * the runtime's life, and copies take the blit kernel (ROCr falls back to
 * its blit kernel the same way).  An engine that faults stops its queue
 * (a GPU memory fault, as for a kernel).  A fault or reset anywhere on the
 * GPU stops it too (KFD evicts every queue of the device): the next copy
 * sees the GPU's fault count moved (hl_queue_gpu_faults) and replaces the
 * queue.
 *
 * Lifetime: the records hang off the agents (agent->sdma[dir]), built once
 * when the module attaches (hsa_init) and filled on first use; the copy
 * module's teardown step destroys the queues, its forget step drops a fork
 * parent's records without an ioctl.
 *
 * Locking: each queue's lock serialises its creation and its submissions.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "copy/copy_priv.h"
#include "copy/sdma_packets.h"
#include "queue/queue.h"
#include "signal/signal.h"
#include "util/barrier.h"
#include "util/log.h"

#define SDMA_RING_BYTES  (1u << 20)   /* ROCr's kQueueSize */
#define SDMA_TS_SLOT     64u          /* bytes; timestamps need 32 */
/* the slots after rptr and wptr, inside the pointers' page */
#define SDMA_TS_SLOTS    ((HL_PAGE_SIZE - 64u) / SDMA_TS_SLOT)
#define SDMA_PRIORITY_MAX 15u         /* HSA_QUEUE_PRIORITY_MAXIMUM in KFD's scale */

struct hl_sdma {
	pthread_mutex_t lock;
	struct hl_agent *agent;
	enum hl_sdma_dir dir;
	bool ready;
	bool failed;                   /* creation failed: use the blit kernel */
	struct kfd_mem *ring;
	struct kfd_mem *ptrs;          /* rptr at 0, wptr at 8, ts slots from 64 */
	uint32_t queue_id;
	uint64_t *doorbell;
	uint64_t wptr;                 /* bytes written, ours */
	uint64_t body_end;             /* where the last submission's copy
	                                * packets end (as wptr counts): the
	                                * engine is idle past it (hl_sdma_idle) */
	uint32_t ts_next;
	bool held;                     /* holds the queue error service, which
	                                * watches KFD's MEMORY event for the
	                                * engine's faults (src/queue/errors.c) */
	uint32_t faults;               /* hl_queue_gpu_faults before creation */
};

_Static_assert(HL_SDMA_DIRS == HL_AGENT_SDMA_DIRS, "struct hl_agent's sdma[] has a slot per dir");

static _Atomic uint64_t *rptr_of(const struct hl_sdma *s)
{
	return (_Atomic uint64_t *)s->ptrs->addr;
}

/* Caller holds s->lock. */
static void sdma_release(struct hl_runtime *rt, struct hl_sdma *s)
{
	s->ready = false;
	if (s->held)
		hl_queue_service_unhold(rt);
	s->held = false;
	if (s->queue_id || s->doorbell) {
		int err = kfd_queue_destroy(rt->proc, s->queue_id);
		s->queue_id = 0;
		s->doorbell = NULL;
		if (err) {
			hl_error(COPY_LOG, "%s: SDMA queue: destroy: %s; its ring is kept",
				 s->agent->name, hl_errno_name(err));
			s->ring = NULL;
			s->ptrs = NULL;
		}
	}
	if (s->ring)
		kfd_mem_free(rt->proc, s->ring);
	if (s->ptrs)
		kfd_mem_free(rt->proc, s->ptrs);
	s->ring = NULL;
	s->ptrs = NULL;
}

int hl_sdma_attach(struct hl_runtime *rt)
{
	for (uint32_t i = 0; i < rt->n_agents; i++) {
		struct hl_agent *a = &rt->agents[i];
		if (!hl_agent_is_gpu(a))
			continue;
		for (int d = 0; d < HL_SDMA_DIRS; d++) {
			struct hl_sdma *s = calloc(1, sizeof(*s));
			if (!s)
				return -ENOMEM; /* the teardown frees the others */
			pthread_mutex_init(&s->lock, NULL);
			s->agent = a;
			s->dir = (enum hl_sdma_dir)d;
			a->sdma[d] = s;
		}
	}
	return 0;
}

void hl_sdma_teardown(struct hl_runtime *rt)
{
	for (uint32_t i = 0; i < rt->n_agents; i++) {
		for (int d = 0; d < HL_SDMA_DIRS; d++) {
			struct hl_sdma *s = rt->agents[i].sdma[d];
			if (!s)
				continue;
			pthread_mutex_lock(&s->lock);
			sdma_release(rt, s);
			pthread_mutex_unlock(&s->lock);
			pthread_mutex_destroy(&s->lock);
			free(s);
			rt->agents[i].sdma[d] = NULL;
		}
	}
}

void hl_sdma_forget(struct hl_runtime *rt)
{
	/* No lock: the runtime is unreachable and the child has one thread. */
	for (uint32_t i = 0; i < rt->n_agents; i++) {
		for (int d = 0; d < HL_SDMA_DIRS; d++) {
			free(rt->agents[i].sdma[d]);
			rt->agents[i].sdma[d] = NULL;
		}
	}
}

static int host_buffer(struct hl_runtime *rt, struct hl_agent *agent, uint64_t size,
		       struct kfd_mem **out)
{
	struct kfd_mem_alloc_args args = {
		.kind = KFD_MEM_USERPTR,
		.gpu_id = agent->gpu->gpu_id,
		.size = size,
		.align = HL_PAGE_SIZE,
		.extra_flags = KFD_ALLOC_COHERENT,
		.host_access = true,
	};
	int err = kfd_mem_alloc(rt->proc, &args, out);
	if (err) {
		*out = NULL;
		return err;
	}
	uint32_t gpu_id = agent->gpu->gpu_id;
	err = kfd_mem_map(rt->proc, *out, &gpu_id, 1);
	if (err) {
		kfd_mem_free(rt->proc, *out);
		*out = NULL;
	}
	return err;
}

/*
 * The engine ROCr 1.18 pins a slot's queue to (GpuAgent's blit_lambda):
 * with KFD 1.17+ (SDMA_BY_ENG_ID) on a GPU that has xGMI engines, slot k
 * goes on engine k (host-to-device 0, device-to-host 1, xGMI queue i on
 * engine 2 + i), except that gfx94x swaps the two PCIe engines and gfx9
 * before gfx90a leaves its PCIe queues to the kernel.  -1: let the kernel
 * place it (type SDMA or SDMA_XGMI), as ROCr 5.2.3 always did.
 */
static int sdma_pinned_engine(const struct hl_runtime *rt, const struct hl_sdma *s)
{
	const struct hl_agent *a = s->agent;
	uint32_t n_sdma = a->node->props.num_sdma_engines;
	bool xgmi = s->dir >= HL_SDMA_XGMI;
	if (rt->proc->version_major == 1 && rt->proc->version_minor < 17)
		return -1;
	if (!a->node->props.num_sdma_xgmi_engines || !n_sdma)
		return -1;
	if (!xgmi && a->gfx_major == 9 && a->gfx_minor == 0 && a->gfx_stepping < 10)
		return -1;
	int engine = (int)s->dir;
	if (!xgmi && a->gfx_major == 9 && a->gfx_minor >= 4)
		engine = (engine + 1) % (int)n_sdma;
	return engine;
}

/* Caller holds s->lock. */
static int sdma_create(struct hl_runtime *rt, struct hl_sdma *s)
{
	struct hl_agent *agent = s->agent;
	/* Before the queue exists: a fault from now on replaces it. */
	s->faults = hl_queue_gpu_faults(rt, agent->gpu->gpu_id);
	int err = host_buffer(rt, agent, SDMA_RING_BYTES, &s->ring);
	if (!err)
		err = host_buffer(rt, agent, HL_PAGE_SIZE, &s->ptrs);
	if (err) {
		hl_error(COPY_LOG, "%s: SDMA ring: %s", agent->name, hl_errno_name(err));
		goto err_release;
	}
	memset(s->ring->addr, 0, SDMA_RING_BYTES);
	memset(s->ptrs->addr, 0, HL_PAGE_SIZE);
	uint64_t *ptrs = s->ptrs->addr;
	int engine = sdma_pinned_engine(rt, s);
	struct kfd_queue_args qa = {
		.gpu_id = agent->gpu->gpu_id,
		.type = engine >= 0 ? KFD_QUEUE_TYPE_SDMA_BY_ENG_ID
		      : s->dir >= HL_SDMA_XGMI ? KFD_QUEUE_TYPE_SDMA_XGMI : KFD_QUEUE_TYPE_SDMA,
		.sdma_engine_id = engine >= 0 ? (uint32_t)engine : 0,
		.percentage = 100,
		.priority = SDMA_PRIORITY_MAX,
		.ring = s->ring->addr,
		.ring_size = SDMA_RING_BYTES,
		.read_ptr = &ptrs[0],
		.write_ptr = &ptrs[1],
	};
	err = kfd_queue_create(rt->proc, &qa, &s->queue_id, &s->doorbell);
	if (err) {
		s->queue_id = 0;
		s->doorbell = NULL;
		hl_warn(COPY_LOG, "%s: SDMA queue: %s; copies use blit kernels", agent->name,
			hl_errno_name(err));
		goto err_release;
	}
	s->wptr = 0;
	s->body_end = 0;
	s->ts_next = 0;
	/* An engine that faults raises KFD's MEMORY event: the service
	 * delivers it to the system event handlers (or ROCr's abort). */
	err = hl_queue_service_hold(rt);
	if (err)
		hl_warn(COPY_LOG, "%s: SDMA queue: no error service (%s): its faults go unseen",
			agent->name, hl_errno_name(err));
	s->held = !err;
	s->ready = true;
	hl_debug(COPY_LOG, "%s: SDMA queue %u (%s, engine %d)", agent->name, s->queue_id,
		 s->dir == HL_SDMA_H2D ? "host to device" :
		 s->dir == HL_SDMA_D2H ? "device to host" : "xGMI", engine);
	return 0;

err_release:
	sdma_release(rt, s);
	return err;
}

bool hl_sdma_enabled(void)
{
	const char *v = getenv("HSA_ENABLE_SDMA");
	return !(v && strcmp(v, "0") == 0);
}

int hl_sdma_get(struct hl_runtime *rt, struct hl_agent *agent, enum hl_sdma_dir dir,
		struct hl_sdma **out)
{
	if (!agent->gpu || agent->gfx_major != 9)
		return -ENOTSUP; /* the SDMA 4.x packets are gfx9's */
	struct hl_sdma *s = agent->sdma[dir];
	if (!s || agent < rt->agents || agent >= rt->agents + rt->n_agents)
		return -EINVAL;

	pthread_mutex_lock(&s->lock);
	int err = 0;
	if (s->ready && hl_queue_gpu_faults(rt, agent->gpu->gpu_id) != s->faults) {
		/* KFD stopped it with every queue of the GPU; its pending
		 * copies are lost either way. */
		hl_warn(COPY_LOG, "%s: the SDMA queue was stopped (GPU fault or reset); "
			"replacing it", agent->name);
		sdma_release(rt, s);
	}
	if (s->failed)
		err = -ENODEV;
	else if (!s->ready) {
		/* ROCr places the host-to-device queue on engine 0 of gfx90a
		 * by creating it first */
		if (dir == HL_SDMA_D2H && agent->gfx_minor == 0 && agent->gfx_stepping == 10) {
			struct hl_sdma *h2d = agent->sdma[HL_SDMA_H2D];
			pthread_mutex_unlock(&s->lock);
			pthread_mutex_lock(&h2d->lock);
			if (!h2d->ready && !h2d->failed && sdma_create(rt, h2d))
				h2d->failed = true;
			pthread_mutex_unlock(&h2d->lock);
			pthread_mutex_lock(&s->lock);
		}
		if (!s->ready && !s->failed) {
			err = sdma_create(rt, s);
			s->failed = err != 0;
		}
		if (s->failed)
			err = err ? err : -ENODEV;
	}
	pthread_mutex_unlock(&s->lock);
	if (!err)
		*out = s;
	return err;
}

bool hl_sdma_idle(struct hl_runtime *rt, struct hl_agent *agent, enum hl_sdma_dir slot)
{
	if (agent < rt->agents || agent >= rt->agents + rt->n_agents ||
	    (unsigned)slot >= HL_SDMA_DIRS)
		return true;
	struct hl_sdma *s = agent->sdma[slot];
	if (!s)
		return true;
	pthread_mutex_lock(&s->lock);
	/* Idle once the engine has read past the last copy's packets (ROCr's
	 * PendingBytes: no copy bytes outstanding), even if the completion's
	 * atomic, fence or trap are still to come.  acquire: pairs with the
	 * engine's release write-back of its read pointer, as in sdma_submit's
	 * room check. */
	bool idle = !s->ready ||
		    atomic_load_explicit(rptr_of(s), memory_order_acquire) >= s->body_end;
	pthread_mutex_unlock(&s->lock);
	return idle;
}

/* The copy commands of one submission: body_dw dwords written by write()
 * at p (returns the end). */
struct sdma_body {
	uint64_t body_dw;
	uint32_t *(*write)(uint32_t *p, const void *ctx);
	const void *ctx;
};

/* One submission (see the file comment): dependency polls, the start
 * timestamp, the body, the end timestamp, the decrement, the interrupt. */
static int sdma_submit(struct hl_sdma *s, const struct sdma_body *body, uint32_t n_deps,
		       const hsa_signal_t *deps, hsa_signal_t completion, bool profile)
{
	amd_signal_t *sig = (amd_signal_t *)(uintptr_t)completion.handle;
	uint64_t dw = (uint64_t)(n_deps * 2 + 1) * SDMA_DW_POLL + body->body_dw + SDMA_DW_ATOMIC;
	if (profile)
		dw += 2 * SDMA_DW_TIMESTAMP + SDMA_DW_COPY_LINEAR;
	bool interrupt = sig->event_mailbox_ptr != 0;
	if (interrupt)
		dw += SDMA_DW_FENCE + SDMA_DW_TRAP;
	uint64_t bytes = dw * 4;
	if (bytes >= SDMA_RING_BYTES / 2)
		return -E2BIG;

	pthread_mutex_lock(&s->lock);
	if (!s->ready) {
		pthread_mutex_unlock(&s->lock);
		return -EIO;
	}
	uint64_t pos = s->wptr & (SDMA_RING_BYTES - 1);
	uint64_t pad = pos + bytes > SDMA_RING_BYTES ? SDMA_RING_BYTES - pos : 0;
	uint64_t end = s->wptr + pad + bytes;
	/* Room: the engine must have read everything up to where we write.
	 * acquire: pairs with the engine's release write-back of its read
	 * pointer, after which it no longer reads those bytes. */
	while (end - atomic_load_explicit(rptr_of(s), memory_order_acquire) >=
	       SDMA_RING_BYTES)
		sched_yield();
	char *ring = s->ring->addr;
	if (pad)
		memset(ring + pos, 0, pad);
	uint32_t *p = (uint32_t *)(ring + ((s->wptr + pad) & (SDMA_RING_BYTES - 1)));
	const uint32_t *start = p;
	for (uint32_t i = 0; i < n_deps; i++) {
		uint64_t v = (uint64_t)(uintptr_t)&((amd_signal_t *)(uintptr_t)deps[i].handle)->value;
		p = sdma_poll_eq(p, v + 4, 0);
		p = sdma_poll_eq(p, v, 0);
	}
	uint64_t ts = 0;
	if (profile) {
		p = sdma_timestamp(p, (uint64_t)(uintptr_t)&sig->start_ts);
		ts = (uint64_t)(uintptr_t)s->ptrs->addr + 64 + (uint64_t)(s->ts_next++ % SDMA_TS_SLOTS) *
		     SDMA_TS_SLOT;
	}
	p = sdma_hdp_flush(p);
	p = body->write(p, body->ctx);
	uint64_t body_end = s->wptr + pad + (uint64_t)((char *)p - (char *)start);
	if (profile) {
		p = sdma_timestamp(p, ts);
		p = sdma_copy_linear(p, (uint64_t)(uintptr_t)&sig->end_ts, ts, 8);
	}
	p = sdma_atomic_add64(p, (uint64_t)(uintptr_t)&sig->value, (uint64_t)-1);
	if (interrupt) {
		p = sdma_fence(p, sig->event_mailbox_ptr, sig->event_id);
		p = sdma_trap(p, sig->event_id);
	}
	s->wptr = end;
	s->body_end = body_end;
	/* release: the packets are written before the engine can see the
	 * new write pointer; the doorbell store (hl_doorbell_store64: SFENCE,
	 * release store) is what the engine fetches by (its acquire load) */
	atomic_store_explicit(rptr_of(s) + 1, end, memory_order_release);
	hl_doorbell_store64((_Atomic uint64_t *)s->doorbell, end);
	pthread_mutex_unlock(&s->lock);
	return 0;
}

struct linear_ctx {
	uint64_t dst, src, size;
};

static uint32_t *linear_write(uint32_t *p, const void *c)
{
	const struct linear_ctx *l = c;
	for (uint64_t off = 0; off < l->size; off += SDMA_COPY_MAX) {
		uint64_t n = l->size - off < SDMA_COPY_MAX ? l->size - off : SDMA_COPY_MAX;
		p = sdma_copy_linear(p, l->dst + off, l->src + off, (uint32_t)n);
	}
	return p;
}

int hl_sdma_copy(struct hl_sdma *s, void *dst, const void *src, size_t size, uint32_t n_deps,
		 const hsa_signal_t *deps, hsa_signal_t completion, bool profile)
{
	struct linear_ctx l = { (uint64_t)(uintptr_t)dst, (uint64_t)(uintptr_t)src, size };
	struct sdma_body body = {
		.body_dw = (size + SDMA_COPY_MAX - 1) / SDMA_COPY_MAX * SDMA_DW_COPY_LINEAR,
		.write = linear_write,
		.ctx = &l,
	};
	return sdma_submit(s, &body, n_deps, deps, completion, profile);
}

/*
 * Rect copies: COPY_LINEAR_SUB_WIND packets tiling the box, as ROCr 5.2.3's
 * BuildCopyRectCommand cuts it.  An element is 1 << e bytes (e <= 4); the
 * pitches (and the slices, when the box is deeper than one) must be whole
 * elements of the largest size used, so that size is bounded by their
 * alignment; each tile's element also divides its width and its start's
 * offset from a dword (packet bases are dword aligned, the rest goes in
 * offset_x).  A tile is at most 2^14 elements wide and high and 2^11 deep.
 * Boxes the packet cannot express (a pitch over 2^19 elements, a slice over
 * 2^28) are left to the caller (-ERANGE: the blit kernel copies them).
 */
#define RECT_XY_MAX   (1u << 14)
#define RECT_Z_MAX    (1u << 11)
#define RECT_PITCH_MAX (1u << 19)
#define RECT_SLICE_MAX (1u << 28)

static unsigned max_element(uint64_t w)
{
	return (unsigned)__builtin_ctzll(w | 16);
}

static unsigned umin(unsigned a, unsigned b)
{
	return a < b ? a : b;
}

struct rect_ctx {
	const hsa_pitched_ptr_t *dst, *src;
	const hsa_dim3_t *doff, *soff, *range;
	unsigned max_ele;
	uint64_t body_dw;
};

/* Walks the tiles; writes them when p is not NULL.  Returns the end (or
 * NULL) and counts the dwords. */
static uint32_t *rect_tiles(uint32_t *p, struct rect_ctx *r)
{
	const hsa_dim3_t *range = r->range, *so = r->soff, *dof = r->doff;
	r->body_dw = 0;
	for (uint32_t z = 0; z < range->z; z += RECT_Z_MAX)
		for (uint32_t y = 0; y < range->y; y += RECT_XY_MAX) {
			uint32_t x = 0;
			while (x < range->x) {
				uint32_t width = range->x - x;
				unsigned aligned = umin(umin(max_element((so->x + x) % 4),
							     max_element((dof->x + x) % 4)),
							r->max_ele);
				unsigned e = umin(max_element(width), aligned);
				uint32_t xcount = width >> e;
				if (xcount > RECT_XY_MAX) {
					e = aligned;
					xcount = umin(width >> e, RECT_XY_MAX);
				}
				uint64_t sb = (uint64_t)(uintptr_t)r->src->base + so->x + x +
					      (uint64_t)(so->y + y) * r->src->pitch +
					      (uint64_t)(so->z + z) * r->src->slice;
				uint64_t db = (uint64_t)(uintptr_t)r->dst->base + dof->x + x +
					      (uint64_t)(dof->y + y) * r->dst->pitch +
					      (uint64_t)(dof->z + z) * r->dst->slice;
				x += xcount << e;
				r->body_dw += SDMA_DW_COPY_RECT;
				if (!p)
					continue;
				uint32_t h = umin(range->y - y, RECT_XY_MAX);
				uint32_t d = umin(range->z - z, RECT_Z_MAX);
				bool flat = range->z == 1;
				p = sdma_copy_rect(p, e,
					sb & ~3ull, (uint32_t)((sb % 4) >> e),
					(uint32_t)(r->src->pitch >> e) - 1,
					flat ? 0 : (uint32_t)(r->src->slice >> e) - 1,
					db & ~3ull, (uint32_t)((db % 4) >> e),
					(uint32_t)(r->dst->pitch >> e) - 1,
					flat ? 0 : (uint32_t)(r->dst->slice >> e) - 1,
					xcount - 1, h - 1, d - 1);
			}
		}
	return p;
}

static uint32_t *rect_write(uint32_t *p, const void *c)
{
	struct rect_ctx r = *(const struct rect_ctx *)c;
	return rect_tiles(p, &r);
}

int hl_sdma_copy_rect(struct hl_sdma *s, const hsa_pitched_ptr_t *dst,
		      const hsa_dim3_t *dst_offset, const hsa_pitched_ptr_t *src,
		      const hsa_dim3_t *src_offset, const hsa_dim3_t *range, uint32_t n_deps,
		      const hsa_signal_t *deps, hsa_signal_t completion, bool profile)
{
	struct rect_ctx r = {
		.dst = dst, .src = src, .doff = dst_offset, .soff = src_offset, .range = range,
	};
	unsigned ele = umin(max_element(src->pitch), max_element(dst->pitch));
	if (range->z != 1)
		ele = umin(ele, umin(max_element(src->slice), max_element(dst->slice)));
	r.max_ele = ele;
	unsigned min_ele = umin(umin(ele, max_element(range->x)),
				umin(max_element(src_offset->x % 4), max_element(dst_offset->x % 4)));
	if ((src->pitch >> min_ele) > RECT_PITCH_MAX || (dst->pitch >> min_ele) > RECT_PITCH_MAX)
		return -ERANGE;
	if (range->z != 1 &&
	    ((src->slice >> min_ele) > RECT_SLICE_MAX || (dst->slice >> min_ele) > RECT_SLICE_MAX))
		return -ERANGE;
	rect_tiles(NULL, &r);
	struct sdma_body body = { .body_dw = r.body_dw, .write = rect_write, .ctx = &r };
	return sdma_submit(s, &body, n_deps, deps, completion, profile);
}
