/*
 * Memory ordering for hsalite, in one place.  Everything that orders memory
 * between threads, or between the host and the GPU, goes through these named
 * helpers over <stdatomic.h>; no volatile or __sync elsewhere.  A caller that
 * uses an acquire or release says in a comment which operation it pairs with.
 *
 * The GPU observes host memory through the same coherence domain as other
 * CPU threads (system-scope atomics on fine-grained memory), so the C11 model
 * is what ordinary memory needs; the one MMIO store, the doorbell, also gets
 * the CPU's store fence first (hl_doorbell_store64).
 */
#ifndef HSALITE_BARRIER_H
#define HSALITE_BARRIER_H

#include <stdatomic.h>
#include <stdint.h>

#define hl_load_relaxed(p)     atomic_load_explicit((p), memory_order_relaxed)
#define hl_load_acquire(p)     atomic_load_explicit((p), memory_order_acquire)
#define hl_store_relaxed(p, v) atomic_store_explicit((p), (v), memory_order_relaxed)
#define hl_store_release(p, v) atomic_store_explicit((p), (v), memory_order_release)

static inline void hl_fence_acquire(void) { atomic_thread_fence(memory_order_acquire); }
static inline void hl_fence_release(void) { atomic_thread_fence(memory_order_release); }
static inline void hl_fence_seq_cst(void) { atomic_thread_fence(memory_order_seq_cst); }

/*
 * Ring a gfx9+ doorbell: every write that the packet depends on (its body and
 * its header, and whatever the packet points at) must be visible before the
 * GPU sees the new value.  Pairs with the command processor's read of the
 * doorbell, after which it reads packets with acquire semantics.  Every
 * doorbell hsalite rings goes through here: AQL queues (the doorbell signal's
 * stores in src/signal/ops.c), the internal PM4 queue (src/queue/internal.c),
 * the blit queue (src/copy/blit.c) and the SDMA rings (src/copy/sdma.c; ROCr
 * rings those after a std::atomic_thread_fence(release) only, no SFENCE,
 * amd_blit_sdma.cpp UpdateWriteAndDoorbellRegister: one helper for every
 * engine is simpler and costs one fence per copy).  A soft queue's doorbell
 * is a user signal (src/queue/soft.c): no MMIO.
 *
 * x86-64: SFENCE, then the 64-bit store, as ROCr does on every x86-64 build.
 * ROCr 5.2.3 stores the doorbell with atomic::Store(..., release)
 * (amd_aql_queue.cpp:431, AqlQueue::StoreRelaxed, doorbell type 2), and its
 * atomic helpers (core/util/atomic_helpers.h, X64_ORDER_WC on __x86_64__)
 * turn every release store into _mm_sfence() and a plain store; current ROCr
 * (rocm-systems, amd_aql_queue.cpp AqlQueue::StoreRelaxed) writes
 * _mm_sfence() and the store outright.  A release store alone orders only
 * write-back stores: KFD maps the doorbell page uncached (kfd_doorbell_mmap,
 * pgprot_noncached), and x86 keeps a UC store behind earlier WB stores, but
 * not behind non-temporal stores (MOVNT*, MOVDIR64B) or stores to
 * write-combining memory (a VRAM BAR mapping), which are weakly ordered
 * (SDM vol. 3 8.2.2) until an SFENCE.  A client that writes its packets or
 * kernel arguments that way relies on ROCr's SFENCE here, so hsalite gives the
 * same guarantee.  Cost: the SFENCE waits for the submitter's store buffer to
 * drain, tens of ns at p99 on the shared 2-vCPU host (docs/benchmarks.md).
 *
 * aarch64: DMB OSHST, then a release store.  ROCr has no aarch64 doorbell
 * path of its own (off x86-64 its atomic helpers are plain C11, so the
 * doorbell store would be a release store, STLR); the DMB is the barrier
 * Linux puts before every MMIO write (writel: __iowmb = dma_wmb = DMB OSHST,
 * arch/arm64/include/asm/io.h and barrier.h), ordering the packet's
 * Normal-memory stores for an observer in the outer-shareable domain, the
 * GPU, before the Device-memory doorbell store.  The kernel does not rely on
 * STLR alone for that, so neither do we.
 *
 * Elsewhere: a release store (ROCr's fallback); hsalite is built and tested
 * on x86-64 only.
 */
static inline void hl_doorbell_store64(_Atomic uint64_t *doorbell, uint64_t value)
{
#if defined(__x86_64__)
	/* "memory": the compiler keeps the packet's stores before the fence */
	__asm__ __volatile__("sfence" ::: "memory");
#elif defined(__aarch64__)
	__asm__ __volatile__("dmb oshst" ::: "memory");
#endif
	atomic_store_explicit(doorbell, value, memory_order_release);
}

/*
 * Store to a 32-bit MMIO register (the HDP flush register of the MMIO-remap
 * page, mapped uncached by kfd_mmio_mmap): the CPU's stores before it,
 * write-combined VRAM BAR stores included, must reach the device first, so
 * the same fence as a doorbell goes before the store (SFENCE on x86-64,
 * DMB OSHST on aarch64, as the kernel's writel).
 */
static inline void hl_mmio_store32(_Atomic uint32_t *reg, uint32_t value)
{
#if defined(__x86_64__)
	__asm__ __volatile__("sfence" ::: "memory");
#elif defined(__aarch64__)
	__asm__ __volatile__("dmb oshst" ::: "memory");
#endif
	atomic_store_explicit(reg, value, memory_order_release);
}

#endif /* HSALITE_BARRIER_H */
