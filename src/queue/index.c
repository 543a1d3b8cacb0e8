/*
 * The read and write index functions: plain 64-bit atomics on the
 * amd_queue_t's write_dispatch_id and read_dispatch_id with the memory
 * order the name gives (ROCr's AqlQueue, hsa-abi-and-rocr.md §1.4).  These
 * are the hot path of every submission: no lock, no lookup, no allocation.
 * "sc" orders (scacquire, screlease, scacq_screl) are the C11 acquire,
 * release and acq_rel; system scope is what the host already has.
 *
 * Every queue type reserves atomically
 *  - hsa_queue_add_write_index_* is one locked fetch_add, cas one locked
 *    compare-exchange, load and store plain atomics, on every queue type
 *    (MULTI, SINGLE, COOPERATIVE, soft queues), as ROCr's AqlQueue and
 *    HostQueue do.  hsa.h says a SINGLE queue "only supports a single
 *    producer", but HSA programs (and test suites) reserve on SINGLE queues
 *    from several threads and count on ROCr's atomic add; a drop-in keeps
 *    that.  (Until 2026-11 a SINGLE queue's add here was a load and a store,
 *    ~13 ns cheaper per packet on the benchmark host, and lost reservations
 *    under concurrent producers.)
 *  - The order of each operation is the one its name gives.
 *
 * Pairings:
 *  - write index: a producer's release (screlease add/cas/store) pairs with
 *    another producer's acquire on the same index (a concurrent producer,
 *    or a thread that loads the index with
 *    hsa_queue_load_write_index_scacquire), so a slot reserved after mine
 *    sees my earlier writes; the CP does not read the write index for
 *    ordering (the doorbell store is the release it pairs with).
 *  - read index: the acquire load pairs with the CP's (or a soft queue's
 *    consumer's) release store of read_dispatch_id after it finished
 *    reading a packet, so a producer that sees the new index may overwrite
 *    that slot.
 *
 * The pointer is not validated beyond NULL (there is no status to return):
 * a destroyed queue's descriptor page stays mapped (page.c), so a call on
 * it touches harmless memory instead of faulting.  ROCr does no queue-full
 * check and neither do we.
 *
 * hsa_queue_store_read_index_*: the read index of a hardware queue belongs
 * to the CP; ROCr's AqlQueue refuses the store (an assert, a no-op in
 * release builds) and so do we.  A soft queue's read index belongs to its
 * consumer, who stores it (ROCr's HostQueue); soft.c marks soft queues in
 * amd_queue_t.reserved4[0], written before the pointer is returned.
 *
 * A counted queue's handle (hsa_amd_counted_queue_acquire, counted.c) is an
 * amd_queue_t of its own that names its hardware queue: every index
 * function works on the hardware queue's indices (hl_queue_amd_of).
 */
#include "queue/queue_priv.h"

/* A counted queue's handle leads to its hardware queue (one predictable
 * branch on a word in the same cache line as write_dispatch_id). */
static inline _Atomic uint64_t *write_id(const hsa_queue_t *queue)
{
	return (_Atomic uint64_t *)(uintptr_t)&hl_queue_amd_of(queue)->write_dispatch_id;
}

static inline _Atomic uint64_t *read_id(const hsa_queue_t *queue)
{
	return (_Atomic uint64_t *)(uintptr_t)&hl_queue_amd_of(queue)->read_dispatch_id;
}

/* ---- read index ---- */

uint64_t hsa_queue_load_read_index_scacquire(const hsa_queue_t *queue)
{
	if (__builtin_expect(!queue, 0))
		return 0;
	/* Pairs with the CP's release store of read_dispatch_id. */
	return atomic_load_explicit(read_id(queue), memory_order_acquire);
}

uint64_t hsa_queue_load_read_index_acquire(const hsa_queue_t *queue)
{
	return hsa_queue_load_read_index_scacquire(queue);
}

uint64_t hsa_queue_load_read_index_relaxed(const hsa_queue_t *queue)
{
	if (__builtin_expect(!queue, 0))
		return 0;
	return atomic_load_explicit(read_id(queue), memory_order_relaxed);
}

static inline bool is_soft(const hsa_queue_t *queue)
{
	return hl_queue_amd_of(queue)->reserved4[0] == HL_SOFT_QUEUE_MAGIC;
}

void hsa_queue_store_read_index_relaxed(const hsa_queue_t *queue, uint64_t value)
{
	if (__builtin_expect(!queue, 0) || !is_soft(queue))
		return;
	atomic_store_explicit(read_id(queue), value, memory_order_relaxed);
}

void hsa_queue_store_read_index_screlease(const hsa_queue_t *queue, uint64_t value)
{
	if (__builtin_expect(!queue, 0) || !is_soft(queue))
		return;
	/* Pairs with a producer's acquire load of the read index: the
	 * consumer's reads of the slots before value are done. */
	atomic_store_explicit(read_id(queue), value, memory_order_release);
}

void hsa_queue_store_read_index_release(const hsa_queue_t *queue, uint64_t value)
{
	hsa_queue_store_read_index_screlease(queue, value);
}

/* ---- write index: load and store ---- */

uint64_t hsa_queue_load_write_index_scacquire(const hsa_queue_t *queue)
{
	if (__builtin_expect(!queue, 0))
		return 0;
	/* Pairs with a producer's release store/add/cas of the index. */
	return atomic_load_explicit(write_id(queue), memory_order_acquire);
}

uint64_t hsa_queue_load_write_index_acquire(const hsa_queue_t *queue)
{
	return hsa_queue_load_write_index_scacquire(queue);
}

uint64_t hsa_queue_load_write_index_relaxed(const hsa_queue_t *queue)
{
	if (__builtin_expect(!queue, 0))
		return 0;
	return atomic_load_explicit(write_id(queue), memory_order_relaxed);
}

void hsa_queue_store_write_index_relaxed(const hsa_queue_t *queue, uint64_t value)
{
	if (__builtin_expect(!queue, 0))
		return;
	atomic_store_explicit(write_id(queue), value, memory_order_relaxed);
}

void hsa_queue_store_write_index_screlease(const hsa_queue_t *queue, uint64_t value)
{
	if (__builtin_expect(!queue, 0))
		return;
	/* Pairs with the acquire of a later load/add/cas of the index. */
	atomic_store_explicit(write_id(queue), value, memory_order_release);
}

void hsa_queue_store_write_index_release(const hsa_queue_t *queue, uint64_t value)
{
	hsa_queue_store_write_index_screlease(queue, value);
}

/* ---- write index: compare and swap (returns the value seen) ---- */

static inline uint64_t cas_write(const hsa_queue_t *queue, uint64_t expected, uint64_t value,
				 memory_order order)
{
	if (__builtin_expect(!queue, 0))
		return 0;
	/* A failed CAS only reads: its order drops the release half. */
	memory_order fail = order == memory_order_acq_rel ? memory_order_acquire :
			    order == memory_order_release ? memory_order_relaxed : order;
	atomic_compare_exchange_strong_explicit(write_id(queue), &expected, value, order, fail);
	return expected;
}

uint64_t hsa_queue_cas_write_index_scacq_screl(const hsa_queue_t *queue, uint64_t expected,
					       uint64_t value)
{
	/* Acquire pairs with earlier producers' releases, release with later
	 * producers' acquires. */
	return cas_write(queue, expected, value, memory_order_acq_rel);
}

uint64_t hsa_queue_cas_write_index_acq_rel(const hsa_queue_t *queue, uint64_t expected,
					   uint64_t value)
{
	return cas_write(queue, expected, value, memory_order_acq_rel);
}

uint64_t hsa_queue_cas_write_index_scacquire(const hsa_queue_t *queue, uint64_t expected,
					     uint64_t value)
{
	/* Pairs with earlier producers' release of the index. */
	return cas_write(queue, expected, value, memory_order_acquire);
}

uint64_t hsa_queue_cas_write_index_acquire(const hsa_queue_t *queue, uint64_t expected,
					   uint64_t value)
{
	return cas_write(queue, expected, value, memory_order_acquire);
}

uint64_t hsa_queue_cas_write_index_relaxed(const hsa_queue_t *queue, uint64_t expected,
					   uint64_t value)
{
	return cas_write(queue, expected, value, memory_order_relaxed);
}

uint64_t hsa_queue_cas_write_index_screlease(const hsa_queue_t *queue, uint64_t expected,
					     uint64_t value)
{
	/* Pairs with later producers' acquire of the index. */
	return cas_write(queue, expected, value, memory_order_release);
}

uint64_t hsa_queue_cas_write_index_release(const hsa_queue_t *queue, uint64_t expected,
					   uint64_t value)
{
	return cas_write(queue, expected, value, memory_order_release);
}

/* ---- write index: add (returns the old value, the first slot reserved) ---- */

static inline uint64_t add_write(const hsa_queue_t *queue, uint64_t value, memory_order order)
{
	if (__builtin_expect(!queue, 0))
		return 0;
	return atomic_fetch_add_explicit(write_id(queue), value, order);
}

uint64_t hsa_queue_add_write_index_scacq_screl(const hsa_queue_t *queue, uint64_t value)
{
	/* Acquire pairs with earlier producers' releases, release with later
	 * producers' acquires. */
	return add_write(queue, value, memory_order_acq_rel);
}

uint64_t hsa_queue_add_write_index_acq_rel(const hsa_queue_t *queue, uint64_t value)
{
	return add_write(queue, value, memory_order_acq_rel);
}

uint64_t hsa_queue_add_write_index_scacquire(const hsa_queue_t *queue, uint64_t value)
{
	/* Pairs with earlier producers' release of the index. */
	return add_write(queue, value, memory_order_acquire);
}

uint64_t hsa_queue_add_write_index_acquire(const hsa_queue_t *queue, uint64_t value)
{
	return add_write(queue, value, memory_order_acquire);
}

uint64_t hsa_queue_add_write_index_relaxed(const hsa_queue_t *queue, uint64_t value)
{
	return add_write(queue, value, memory_order_relaxed);
}

uint64_t hsa_queue_add_write_index_screlease(const hsa_queue_t *queue, uint64_t value)
{
	/* Pairs with later producers' acquire of the index. */
	return add_write(queue, value, memory_order_release);
}

uint64_t hsa_queue_add_write_index_release(const hsa_queue_t *queue, uint64_t value)
{
	return add_write(queue, value, memory_order_release);
}
