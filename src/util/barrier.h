/*
 * Memory ordering for hsalite, in one place.  Everything that orders memory
 * between threads, or between the host and the GPU, goes through these named
 * helpers over <stdatomic.h>; no volatile or __sync elsewhere.  A caller that
 * uses an acquire or release says in a comment which operation it pairs with.
 *
 * The GPU observes host memory through the same coherence domain as other
 * CPU threads (system-scope atomics on fine-grained memory), so the C11 model
 * plus a store fence before MMIO (the doorbell) is what the hardware needs.
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
 * its header) must be visible before the GPU sees the new value: one aligned
 * 64-bit store with release order.  Pairs with the command processor's read
 * of the doorbell, after which it reads packets with acquire semantics.
 *
 * No store fence: KFD maps the doorbell page uncached (kfd_doorbell_mmap,
 * pgprot_noncached), and x86 never reorders a store to UC memory with
 * earlier write-back stores (SDM vol. 3 8.2.2; only non-temporal, string and
 * WC stores are weakly ordered, and none of ours is), so the release store
 * orders the packet before the doorbell as ROCr's does (AqlQueue::StoreRelaxed
 * on doorbell type 2: a release store and nothing else).  An SFENCE here
 * waited for the packet's stores to the ring, whose line the CP holds, to
 * drain before the doorbell: it lengthened the submit's tail (p99) by tens of
 * ns for no ordering gained.  Non-temporal packet stores by an application
 * need that application's own SFENCE before its header store, with either
 * runtime.
 */
static inline void hl_doorbell_store64(_Atomic uint64_t *doorbell, uint64_t value)
{
	atomic_store_explicit(doorbell, value, memory_order_release);
}

#endif /* HSALITE_BARRIER_H */
