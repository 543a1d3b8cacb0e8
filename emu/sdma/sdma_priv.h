/*
 * kfdemu SDMA engines: internal objects, shared by the files of emu/sdma.
 *
 *   sdma_engine.c  the engines of a device: one host thread per engine that
 *                  has queues, its round-robin over its RLC queues, idle
 *                  backoff, and the driver hooks (sdma.h)
 *   sdma_queue.c   one RLC queue: ring fetch, read/write pointers in bytes,
 *                  rptr write-back, packet decode and dispatch, queue
 *                  errors and VM faults
 *   sdma_copy.c    the data movers: COPY_LINEAR, COPY_LINEAR_SUB_WIND,
 *                  CONSTANT_FILL, WRITE_LINEAR, and GPU memory access
 *                  through the queue's VM (emu/gpu's TLB)
 *   sdma_sync.c    FENCE, TRAP, POLL_REGMEM, ATOMIC, TIMESTAMP
 *
 * Packet encodings are the SDMA 4.x ones (vega10_sdma_pkt_open.h, which
 * sdma_v4_0 and sdma_v4_4_2 share; ROCr 5.2.3 sdma_registers.h for the
 * fields its BlitSdmaV4 uses): every packet starts with a dword whose bits
 * 7:0 are the opcode and 15:8 the sub-opcode.
 *
 * Threads and ownership.  A queue belongs to one engine and is serviced
 * only by that engine's thread; everything in "owner state" is touched by
 * that thread alone (and by the hooks while it is provably not servicing
 * the queue: !q->hw.owned under eng->lock).  The hooks stop a queue by
 * setting q->hw.preempt and waiting on eng->unit.released while it is
 * owned (emu/gpu's kemu_gpu_hwq_preempt).
 *
 * Locking, outermost first: the registry's hooks lock (held by a hook for
 * its whole run, like the CP's) -> sd->lock (a device's idle poller role
 * and parking) -> the registry's list lock (the engine list, held briefly)
 * -> eng->lock (eng->unit.lock), as emu/gpu's registry defines them.
 * Nobody takes sd->lock holding eng->lock.  Eviction (kemu_gpu_evict)
 * takes list -> eng->lock only, never hooks, so the driver may call it
 * from an engine or CP thread while a hook waits for that thread.  Engine
 * threads hold no lock while they execute packets; they reach the driver
 * only through the queue's struct kemu_gpu_ops (the process's VM and event
 * locks, and on a fault every engine's eviction), never its process lock.
 */
#ifndef KEMU_SDMA_PRIV_H
#define KEMU_SDMA_PRIV_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sdma.h"

/* ---- packets (SDMA 4.x) ---- */
#define KEMU_SDMA_OP(dw0)      ((dw0) & 0xFFu)
#define KEMU_SDMA_SUBOP(dw0)   (((dw0) >> 8) & 0xFFu)

#define KEMU_SDMA_OP_NOP          0
#define KEMU_SDMA_OP_COPY         1
#define KEMU_SDMA_OP_WRITE        2
#define KEMU_SDMA_OP_INDIRECT     4
#define KEMU_SDMA_OP_FENCE        5
#define KEMU_SDMA_OP_TRAP         6
#define KEMU_SDMA_OP_SEM          7
#define KEMU_SDMA_OP_POLL_REGMEM  8
#define KEMU_SDMA_OP_COND_EXE     9
#define KEMU_SDMA_OP_ATOMIC       10
#define KEMU_SDMA_OP_CONST_FILL   11
#define KEMU_SDMA_OP_PTEPDE       12
#define KEMU_SDMA_OP_TIMESTAMP    13
#define KEMU_SDMA_OP_SRBM_WRITE   14
#define KEMU_SDMA_OP_PRE_EXE      15
#define KEMU_SDMA_OP_DUMMY_TRAP   16

#define KEMU_SDMA_SUB_COPY_LINEAR          0
#define KEMU_SDMA_SUB_COPY_LINEAR_SUB_WIND 4
#define KEMU_SDMA_SUB_WRITE_LINEAR         0
#define KEMU_SDMA_SUB_TIMESTAMP_GET        1
#define KEMU_SDMA_SUB_TIMESTAMP_GET_GLOBAL 2

/* Sizes in dwords of the fixed-size packets. */
#define KEMU_SDMA_DW_COPY_LINEAR   7
#define KEMU_SDMA_DW_COPY_SUB_WIND 13
#define KEMU_SDMA_DW_FENCE         4
#define KEMU_SDMA_DW_TRAP          2
#define KEMU_SDMA_DW_POLL_REGMEM   6
#define KEMU_SDMA_DW_ATOMIC        8
#define KEMU_SDMA_DW_CONST_FILL    5
#define KEMU_SDMA_DW_TIMESTAMP     3
#define KEMU_SDMA_DW_WRITE_HEADER  4   /* + count + 1 data dwords */
#define KEMU_SDMA_DW_MAX_FIXED     13

/* NOP: bits 29:16 of the header count the dwords that follow. */
#define KEMU_SDMA_NOP_COUNT(dw0)        (((dw0) >> 16) & 0x3FFFu)
/* COPY_LINEAR: dw1 = bytes - 1, bits 21:0 on SDMA 4.x, 29:0 on Aldebaran's
 * SDMA 4.4.0 (ROCr's count_ext, used for gfx90a: CreateBlitSdma's 1 << 30
 * copy size); header bit 27 = broadcast; dw2 dst_sw 17:16, src_sw 25:24
 * (endian swap). */
#define KEMU_SDMA_COPY_COUNT_MASK       0x3FFFFFu
#define KEMU_SDMA_COPY_COUNT_MASK_EXT   0x3FFFFFFFu
#define KEMU_SDMA_COPY_BROADCAST(dw0)   (((dw0) >> 27) & 1u)
#define KEMU_SDMA_COPY_SWAPS(dw2)       ((dw2) & 0x03030000u)
/* COPY_LINEAR_SUB_WIND: header bits 31:29 = log2(element bytes). */
#define KEMU_SDMA_SUBWIN_ELEMENT(dw0)   (((dw0) >> 29) & 7u)
#define KEMU_SDMA_SUBWIN_X(dw)          ((dw) & 0x3FFFu)          /* dw3, dw8, dw11 */
#define KEMU_SDMA_SUBWIN_Y(dw)          (((dw) >> 16) & 0x3FFFu)  /* dw3, dw8, dw11 */
#define KEMU_SDMA_SUBWIN_Z(dw)          ((dw) & 0x7FFu)           /* dw4, dw9, dw12 */
#define KEMU_SDMA_SUBWIN_PITCH(dw)      (((dw) >> 13) & 0x7FFFFu) /* dw4, dw9 */
#define KEMU_SDMA_SUBWIN_SLICE(dw)      ((dw) & 0xFFFFFFFu)       /* dw5, dw10 */
#define KEMU_SDMA_SUBWIN_SWAPS(dw12)    ((dw12) & 0x03030000u)
/* CONSTANT_FILL: header sw 17:16, fillsize 31:30 (log2 element bytes);
 * dw4 bits 21:0 = bytes - 1. */
#define KEMU_SDMA_FILL_SW(dw0)          (((dw0) >> 16) & 3u)
#define KEMU_SDMA_FILL_SIZE(dw0)        (((dw0) >> 30) & 3u)
#define KEMU_SDMA_FILL_COUNT(dw4)       ((dw4) & 0x3FFFFFu)
/* WRITE_LINEAR (WRITE_UNTILED): dw3 bits 19:0 = data dwords - 1. */
#define KEMU_SDMA_WRITE_COUNT(dw3)      ((dw3) & 0xFFFFFu)
/* TRAP: dw1 bits 27:0 = interrupt context (the event id). */
#define KEMU_SDMA_TRAP_CTX(dw1)         ((dw1) & 0xFFFFFFFu)
/* POLL_REGMEM: header hdp_flush 26, func 30:28, mem_poll 31; dw5
 * interval 15:0, retry_count 27:16 (0xFFF: forever). */
#define KEMU_SDMA_POLL_HDP_FLUSH(dw0)   (((dw0) >> 26) & 1u)
#define KEMU_SDMA_POLL_FUNC(dw0)        (((dw0) >> 28) & 7u)
#define KEMU_SDMA_POLL_MEM(dw0)         (((dw0) >> 31) & 1u)
#define KEMU_SDMA_POLL_RETRY(dw5)       (((dw5) >> 16) & 0xFFFu)
#define KEMU_SDMA_POLL_FOREVER          0xFFFu
/* ATOMIC: header loop 16, tmz 18, operation 31:25 (a TC_OP code). */
#define KEMU_SDMA_ATOMIC_LOOP(dw0)      (((dw0) >> 16) & 1u)
#define KEMU_SDMA_ATOMIC_OPERATION(dw0) (((dw0) >> 25) & 0x7Fu)

/* ---- scheduling (idle pacing: emu/gpu's, gpu.h explains it) ---- */
/* A queue keeps the engine for at most this many packets or this long
 * before the engine's other queues get a turn. */
#define KEMU_SDMA_QUANTUM_PACKETS 64
#define KEMU_SDMA_QUANTUM_NS      1000000ull
/* The engine threads' timer slack (PR_SET_TIMERSLACK; Linux's default is
 * 50 us, as long as the shortest nap) */
#define KEMU_SDMA_TIMER_SLACK_NS  1000ul

struct kemu_sdma_engine;

enum kemu_sdma_progress {
	KEMU_SDMA_IDLE,       /* nothing to do (or stopped) */
	KEMU_SDMA_BLOCKED,    /* a POLL_REGMEM or looping ATOMIC waits */
	KEMU_SDMA_PROGRESS,   /* executed at least one packet */
};

/* One RLC queue of an engine (its MQD and the engine's state for it). */
struct kemu_sdma_queue {
	/* identity, VM, doorbell, list and the stop flags (emu/gpu): owned
	 * and removing under eng->lock; hw.preempt set by the hooks (stop at
	 * the next packet boundary); hw.stopped by a queue error or a VM
	 * fault (own or eviction): final, the queue ignores its doorbell */
	struct kemu_gpu_hwq hw;
	struct kemu_sdma_engine *eng;
	uint32_t rlc;                  /* RLC queue index on the engine */
	/* MQD, under eng->lock; the owner copies them when it starts a
	 * service round */
	uint64_t ring_base;
	uint32_t ring_size;            /* bytes, a power of two */
	uint64_t rptr_va, wptr_va;
	bool active;
	/* owner state */
	uint64_t rptr;                 /* bytes, monotonic */
	uint64_t wptr;                 /* bytes, monotonic: doorbell or load */
	/* doorbell value last taken as wptr; written by the owner, read
	 * (relaxed) by the device's poller for a parked engine */
	_Atomic uint64_t db_seen;
	uint32_t poll_tries;           /* failed checks of the packet at rptr */
	struct kemu_gpu_tlb tlb;       /* GPU VM translations (sdma_copy.c) */
};

/* The engines of one device share an idle poller (sdma_engine.c). */
struct kemu_sdma_dev {
	const struct kemu_gpu *gpu;    /* the device: registry key */
	pthread_mutex_t lock;
	pthread_cond_t park;           /* idle engines park here */
	struct kemu_sdma_engine *poller; /* polls for all; under lock */
	uint64_t poller_ns;            /* its current nap; under lock */
	uint32_t refs;                 /* engines; under the hooks lock */
	struct kemu_sdma_dev *next;    /* the device list; under the hooks lock */
};

/* One SDMA engine of a device. */
struct kemu_sdma_engine {
	/* the device and engine id (the registry key), the queue list
	 * (unit.queues, under unit.lock: "eng->lock" here), the released
	 * condvar and the doorbell watch (emu/gpu) */
	struct kemu_gpu_unit unit;
	struct kemu_sdma_dev *sd;
	uint32_t gpu_id, engine_id, counter_freq_khz;
	uint32_t copy_count_mask;      /* COPY_LINEAR count bits */
	pthread_cond_t wake;           /* the thread naps / parks here */
	uint32_t rr;                   /* round-robin cursor; under lock */
	pthread_t thread;
	/* set once by engine_destroy (release, under lock); the thread reads it
	 * under lock and, before parking on its device's condvar, under sd->lock
	 * only (acquire): engine_destroy's wake then takes sd->lock after the
	 * store, so a thread that did not see it is already waiting */
	_Atomic bool stopping;
};

/* emu/gpu frees a fork child's inherited queues with free() and finds a
 * unit by its struct kemu_gpu_unit: both are first. */
_Static_assert(offsetof(struct kemu_sdma_queue, hw) == 0, "hw first");
_Static_assert(offsetof(struct kemu_sdma_engine, unit) == 0, "unit first");

static inline struct kemu_sdma_queue *kemu_sdma_queue_of(struct kemu_gpu_hwq *h)
{
	return (struct kemu_sdma_queue *)((char *)h - offsetof(struct kemu_sdma_queue, hw));
}

/* ---- sdma_queue.c ---- */
/* Executes packets of q until it is idle or blocked, its quantum is used
 * or it must stop.  Called by the engine thread without eng->lock. */
enum kemu_sdma_progress kemu_sdma_queue_service(struct kemu_sdma_queue *q, uint64_t ring_base,
						 uint32_t ring_size);
/* Stops q with a log line naming the packet (a malformed or unmodelled
 * packet).  The process goes on; its other queues too. */
void kemu_sdma_queue_error(struct kemu_sdma_queue *q, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A GPU VM fault by q: stops q and reports the fault to the driver, whose
 * interrupt handler evicts the process's queues on the device (every
 * engine's) and raises it process-wide. */
void kemu_sdma_queue_fault(struct kemu_sdma_queue *q, const struct kemu_vm_fault_info *f,
			   const char *what);

/* ---- sdma_copy.c ---- */
/* Host address of va and the bytes that follow it in the same mapping
 * (*avail), through q's TLB.  NULL and *f filled on a fault.  Owner only. */
void *kemu_sdma_map(struct kemu_sdma_queue *q, uint64_t va, unsigned access, uint64_t *avail,
		    struct kemu_vm_fault_info *f);
/* len bytes at va, all in one mapping; NULL and *f on a fault. */
void *kemu_sdma_map_len(struct kemu_sdma_queue *q, uint64_t va, uint64_t len, unsigned access,
			struct kemu_vm_fault_info *f);
/* The packets: dw is the packet (its fixed part).  Return 0, or -1 after
 * stopping the queue (error or fault). */
int kemu_sdma_copy_linear(struct kemu_sdma_queue *q, const uint32_t *dw);
int kemu_sdma_copy_sub_window(struct kemu_sdma_queue *q, const uint32_t *dw);
int kemu_sdma_const_fill(struct kemu_sdma_queue *q, const uint32_t *dw);

/* ---- sdma_sync.c ---- */
/* The GPU clock (GET_CLOCK_COUNTERS gpu_clock_counter and the CP's
 * timestamps: emu/gpu's kemu_gpu_clock). */
static inline uint64_t kemu_sdma_gpu_clock(const struct kemu_sdma_engine *eng)
{
	return kemu_gpu_clock(eng->counter_freq_khz);
}
int kemu_sdma_fence(struct kemu_sdma_queue *q, const uint32_t *dw);
int kemu_sdma_trap(struct kemu_sdma_queue *q, const uint32_t *dw);
int kemu_sdma_timestamp(struct kemu_sdma_queue *q, const uint32_t *dw);
/* POLL_REGMEM and ATOMIC may wait: 1 = not satisfied yet (the packet stays
 * at rptr and is retried), 0 = done, -1 = the queue was stopped. */
int kemu_sdma_poll_regmem(struct kemu_sdma_queue *q, const uint32_t *dw);
int kemu_sdma_atomic(struct kemu_sdma_queue *q, const uint32_t *dw);


#endif /* KEMU_SDMA_PRIV_H */
