/*
 * The read and write index functions: plain 64-bit atomics on the
 * amd_queue_t's write_dispatch_id and read_dispatch_id with the memory
 * order the name gives (ROCr's AqlQueue, hsa-abi-and-rocr.md §1.4).  These
 * are the hot path of every submission: no lock, no lookup, no allocation.
 * "sc" orders (scacquire, screlease, scacq_screl) are the C11 acquire,
 * release and acq_rel; system scope is what the host already has.
 *
 * Reserving on a SINGLE queue (hsa_queue_add_write_index_*)
 *  - hsa.h, HSA_QUEUE_TYPE_SINGLE: "Queue only supports a single producer.
 *    In some scenarios, the application may want to limit the submission of
 *    AQL packets to a single agent.  Queues that support a single producer
 *    may be more efficient than queues supporting multiple producers.  Use
 *    of multiproducer queue mechanics is not supported."
 *  - So on a queue whose hsa_queue_t.type is HSA_QUEUE_TYPE_SINGLE the add
 *    is an atomic load and an atomic store of write_dispatch_id, not a
 *    locked fetch_add: the one producer is the only writer of the write
 *    index (the CP only reads it: it is KFD's write pointer, which the CP
 *    polls, never writes), so nobody can store between the load and the
 *    store.  Measured on the KVM host of docs/benchmarks.md: a producer
 *    loop of lock xadd + 60-byte body + header store p50 19.9 ns per
 *    packet, the same loop with a plain load + store 6.9 ns.
 *  - The orders are the name's, split over the two halves: the acquire
 *    half goes on the load, the release half on the store (relaxed: both
 *    relaxed; acquire: acquire load, relaxed store; release/screlease:
 *    relaxed load, release store; acq_rel/scacq_screl: acquire load,
 *    release store).  A single producer that moves between threads (the
 *    application hands the role over under its own lock, which the spec
 *    allows: one producer at a time) stays correct, because that lock
 *    orders the previous store before the next load.
 *  - We read "a single producer" as one thread submitting at a time (the
 *    spec's "single agent" would allow the CPU agent's many threads; its
 *    last sentence excludes their concurrent reservations).  Two threads
 *    reserving on one SINGLE queue at the same time may both get the same
 *    index; ROCr uses the locked RMW on every type, so such a program
 *    happens to work there (docs/differences.md).  The runtime itself
 *    creates no queue: every SINGLE queue is an application's.
 *  - MULTI queues keep the locked fetch_add (COOPERATIVE queues are refused
 *    at creation; were they added, they are multi-producer and would take
 *    the same path: only SINGLE takes the fast one).  cas, load and store
 *    are the same for every type: a load or store has no RMW to drop, and
 *    a cas is the caller's explicit choice of one, off the reserve path
 *    the enqueue benchmark measures; nothing measured argues for changing
 *    it.
 *  - The type is read from the hsa_queue_t, the first member of the
 *    amd_queue_t (queue.h), on the cache line of write_dispatch_id (offset
 *    0 vs 56): no extra miss.  It is written once, before hsa_queue_create
 *    returns the pointer, so any thread that has the pointer through the
 *    application's own hand-over sees it: a plain load.
 *
 * Pairings:
 *  - write index: a producer's release (screlease add/cas/store) pairs with
 *    another producer's acquire on the same index (a MULTI queue's
 *    concurrent producers; on a SINGLE queue the next producer after a
 *    hand-over, or a thread that loads the index with
 *    hsa_queue_load_write_index_scacquire), so a slot reserved after mine
 *    sees my earlier writes; the CP does not read the write index for
 *    ordering (the doorbell store is the release it pairs with).  On a
 *    SINGLE queue the release store of the add pairs with those same
 *    acquires, and the acquire load of the add pairs with the release
 *    store/add/cas that wrote the value it reads.
 *  - read index: the acquire load pairs with the CP's release store of
 *    read_dispatch_id after it finished reading a packet, so a producer that
 *    sees the new index may overwrite that slot.
 *
 * The pointer is not validated beyond NULL (there is no status to return):
 * a destroyed queue's descriptor page stays mapped (page.c), so a call on
 * it touches harmless memory instead of faulting.  ROCr does no queue-full
 * check and neither do we.
 *
 * hsa_queue_store_read_index_*: the read index of a hardware queue belongs
 * to the CP; ROCr's AqlQueue refuses the store (an assert, a no-op in
 * release builds) because only soft queues may move it.  We have no soft
 * queues, so the store is a no-op.
 */
#include "queue/queue.h"

static inline _Atomic uint64_t *write_id(const hsa_queue_t *queue)
{
	return (_Atomic uint64_t *)(uintptr_t)&((const amd_queue_t *)queue)->write_dispatch_id;
}

static inline _Atomic uint64_t *read_id(const hsa_queue_t *queue)
{
	return (_Atomic uint64_t *)(uintptr_t)&((const amd_queue_t *)queue)->read_dispatch_id;
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

void hsa_queue_store_read_index_relaxed(const hsa_queue_t *queue, uint64_t value)
{
	(void)queue;
	(void)value;
}

void hsa_queue_store_read_index_screlease(const hsa_queue_t *queue, uint64_t value)
{
	(void)queue;
	(void)value;
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

/* The memory orders of one add: the locked RMW's for a MULTI queue, and
 * the halves of it a SINGLE queue's load and store take (file comment). */
struct add_orders {
	memory_order rmw, load, store;
};

#define ADD_RELAXED ((struct add_orders){ memory_order_relaxed, memory_order_relaxed, \
					  memory_order_relaxed })
#define ADD_ACQUIRE ((struct add_orders){ memory_order_acquire, memory_order_acquire, \
					  memory_order_relaxed })
#define ADD_RELEASE ((struct add_orders){ memory_order_release, memory_order_relaxed, \
					  memory_order_release })
#define ADD_ACQ_REL ((struct add_orders){ memory_order_acq_rel, memory_order_acquire, \
					  memory_order_release })

static inline uint64_t add_write(const hsa_queue_t *queue, uint64_t value, struct add_orders o)
{
	if (__builtin_expect(!queue, 0))
		return 0;
	_Atomic uint64_t *w = write_id(queue);
	if (queue->type == HSA_QUEUE_TYPE_SINGLE) {
		/* The only writer of the index: no RMW needed (file comment). */
		uint64_t old = atomic_load_explicit(w, o.load);
		atomic_store_explicit(w, old + value, o.store);
		return old;
	}
	return atomic_fetch_add_explicit(w, value, o.rmw);
}

uint64_t hsa_queue_add_write_index_scacq_screl(const hsa_queue_t *queue, uint64_t value)
{
	/* Acquire pairs with earlier producers' releases, release with later
	 * producers' acquires (SINGLE: the load's acquire and the store's
	 * release pair with the same). */
	return add_write(queue, value, ADD_ACQ_REL);
}

uint64_t hsa_queue_add_write_index_acq_rel(const hsa_queue_t *queue, uint64_t value)
{
	return add_write(queue, value, ADD_ACQ_REL);
}

uint64_t hsa_queue_add_write_index_scacquire(const hsa_queue_t *queue, uint64_t value)
{
	/* Pairs with earlier producers' release of the index (SINGLE: on the
	 * load). */
	return add_write(queue, value, ADD_ACQUIRE);
}

uint64_t hsa_queue_add_write_index_acquire(const hsa_queue_t *queue, uint64_t value)
{
	return add_write(queue, value, ADD_ACQUIRE);
}

uint64_t hsa_queue_add_write_index_relaxed(const hsa_queue_t *queue, uint64_t value)
{
	return add_write(queue, value, ADD_RELAXED);
}

uint64_t hsa_queue_add_write_index_screlease(const hsa_queue_t *queue, uint64_t value)
{
	/* Pairs with later producers' acquire of the index (SINGLE: on the
	 * store). */
	return add_write(queue, value, ADD_RELEASE);
}

uint64_t hsa_queue_add_write_index_release(const hsa_queue_t *queue, uint64_t value)
{
	return add_write(queue, value, ADD_RELEASE);
}
