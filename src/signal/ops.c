/*
 * Signal value operations: load, store, silent store, and the
 * read-modify-write families, each a 64-bit C11 atomic on amd_signal_t.value
 * at least as strong as the order its name gives (sc = sequentially
 * consistent in the HSA sense; the deprecated acquire/release/acq_rel names
 * are aliases).  Loads and silent stores use exactly that order; stores and
 * RMWs, which may have to wake a sleeper, run seq_cst (see signal_notify).
 *
 * Hot path: resolve the handle (a lock-free probe, no dereference of the
 * handle), the atomic (seq_cst for every waking modification), then one
 * seq_cst load of the sleeper count; SET_EVENT only when someone sleeps.
 * No lock, no allocation, no fence instruction beyond the atomic's own on a
 * user signal (a doorbell signal's store carries hl_doorbell_store64's
 * SFENCE, src/util/barrier.h).
 *
 * What they do on other handles (never a crash):
 *  - 0, unknown, or a destroyed signal: loads and RMWs return 0, stores do
 *    nothing;
 *  - a doorbell signal (src/queue): every store flavour writes the 64-bit
 *    doorbell through hl_doorbell_store64 (an application SDMA queue's
 *    writes its queue's write pointer first); loads and RMWs return 0 and
 *    change nothing (ROCr asserts on them).
 *  Silent stores wake nobody, as the HSA specification allows.
 */
#include "signal/signal_priv.h"

/*
 * The waker's half of the no-missed-wakeup argument (signal.h).  The
 * modification itself is a seq_cst operation (the order a caller names is a
 * minimum; on x86 a locked RMW or xchg is the same instruction whatever the
 * order) and sleepers is read with a seq_cst load, so no separate fence is
 * needed: half the cost of a release store plus a full fence.  A waiter
 * counts itself in sleepers and then issues a seq_cst fence X before reading
 * the value (wait.c, wait_any.c, async.c, src/queue).  In the single total
 * order S: if our load of sleepers follows X, it sees the increment
 * (C11 7.17.3p10: the increment is sequenced before X) and we SET_EVENT; if
 * it precedes X, our modification (before the load in S) precedes X too, so
 * the waiter's read after X sees it or a later value (7.17.3p9).
 */
static inline void signal_notify(struct hl_signal_side *side)
{
	if (__builtin_expect(atomic_load_explicit(&side->sleepers, memory_order_seq_cst) == 0, 1))
		return;
	struct hl_signal_event *ev = hl_load_relaxed(&side->event);
	if (ev)
		kfd_event_set(ev->proc, &ev->kev);
}

static inline struct hl_signal_side *user_side(hsa_signal_t s)
{
	struct hl_signal_side *side = hl_signal_side_lookup(s.handle);
	if (side && hl_load_relaxed(&side->kind) == AMD_SIGNAL_KIND_USER)
		return side;
	return NULL;
}

static inline int64_t signal_load(hsa_signal_t s, memory_order mo)
{
	struct hl_signal_side *side = user_side(s);
	return side ? atomic_load_explicit(hl_signal_value(side->amd), mo) : 0;
}

static inline void signal_store(hsa_signal_t s, int64_t v, memory_order mo, bool wake)
{
	struct hl_signal_side *side = hl_signal_side_lookup(s.handle);
	if (!side)
		return;
	int32_t kind = hl_load_relaxed(&side->kind);
	if (kind == AMD_SIGNAL_KIND_USER) {
		/* A silent store wakes nobody: the order asked for suffices. */
		atomic_store_explicit(hl_signal_value(side->amd), v,
				      wake ? memory_order_seq_cst : mo);
		if (wake)
			signal_notify(side);
	} else if (kind == AMD_SIGNAL_KIND_DOORBELL) {
		/* An application SDMA queue's write pointer first (ROCr's
		 * SdmaQueue::RingDoorbell).  Release: the packets written
		 * before it are visible to whoever reads the pointer (the
		 * engine loading the queue, an acquire load of the write
		 * index); the doorbell's own fence below orders it before
		 * the doorbell. */
		if (side->publish_wptr)
			atomic_store_explicit((_Atomic uint64_t *)(uintptr_t)
					      &side->amd->queue_ptr->write_dispatch_id,
					      (uint64_t)v, memory_order_release);
		/* Whatever flavour the caller used, the helper's SFENCE and
		 * release store order the packet writes (non-temporal and
		 * write-combined ones too) before the doorbell, as ROCr's
		 * StoreRelaxed and StoreRelease both do (src/util/barrier.h). */
		hl_doorbell_store64((_Atomic uint64_t *)(uintptr_t)side->amd->hardware_doorbell_ptr,
				    (uint64_t)v);
	}
}

enum rmw_op { RMW_ADD, RMW_SUB, RMW_AND, RMW_OR, RMW_XOR, RMW_XCHG };

/* Every RMW runs seq_cst whatever order its name asks (see signal_notify). */
static inline int64_t signal_rmw(hsa_signal_t s, int64_t v, enum rmw_op op)
{
	const memory_order mo = memory_order_seq_cst;
	struct hl_signal_side *side = user_side(s);
	if (!side)
		return 0;
	_Atomic int64_t *p = hl_signal_value(side->amd);
	int64_t old;
	switch (op) {
	case RMW_ADD:  old = atomic_fetch_add_explicit(p, v, mo); break;
	case RMW_SUB:  old = atomic_fetch_sub_explicit(p, v, mo); break;
	case RMW_AND:  old = atomic_fetch_and_explicit(p, v, mo); break;
	case RMW_OR:   old = atomic_fetch_or_explicit(p, v, mo); break;
	case RMW_XOR:  old = atomic_fetch_xor_explicit(p, v, mo); break;
	default:       old = atomic_exchange_explicit(p, v, mo); break;
	}
	signal_notify(side);
	return old;
}

static inline int64_t signal_cas(hsa_signal_t s, int64_t expected, int64_t v)
{
	struct hl_signal_side *side = user_side(s);
	if (!side)
		return 0;
	/* seq_cst like every modification (see signal_notify); a failed CAS
	 * only reads, and seq_cst covers the acquire half any order asks. */
	int64_t old = expected;
	if (atomic_compare_exchange_strong_explicit(hl_signal_value(side->amd), &old, v,
						    memory_order_seq_cst, memory_order_seq_cst))
		signal_notify(side); /* only a successful CAS changes the value */
	return old;
}

#define MO_relaxed     memory_order_relaxed
#define MO_scacquire   memory_order_acquire
#define MO_acquire     memory_order_acquire
#define MO_screlease   memory_order_release
#define MO_release     memory_order_release
#define MO_scacq_screl memory_order_acq_rel
#define MO_acq_rel     memory_order_acq_rel

#define LOAD_FN(sfx) \
	hsa_signal_value_t hsa_signal_load_##sfx(hsa_signal_t s) { return signal_load(s, MO_##sfx); }
LOAD_FN(relaxed)
LOAD_FN(scacquire)
LOAD_FN(acquire)

#define STORE_FN(name, sfx, wake)                                                  \
	void hsa_signal_##name##_##sfx(hsa_signal_t s, hsa_signal_value_t v)       \
	{                                                                          \
		signal_store(s, v, MO_##sfx, wake);                                \
	}
STORE_FN(store, relaxed, true)
STORE_FN(store, screlease, true)
STORE_FN(store, release, true)
STORE_FN(silent_store, relaxed, false)
STORE_FN(silent_store, screlease, false)

#define RMW_VOID_FN(name, op, sfx)                                                 \
	void hsa_signal_##name##_##sfx(hsa_signal_t s, hsa_signal_value_t v)       \
	{                                                                          \
		signal_rmw(s, v, op);                                    \
	}
#define RMW_FAMILY(name, op)                 \
	RMW_VOID_FN(name, op, relaxed)       \
	RMW_VOID_FN(name, op, scacquire)     \
	RMW_VOID_FN(name, op, acquire)       \
	RMW_VOID_FN(name, op, screlease)     \
	RMW_VOID_FN(name, op, release)       \
	RMW_VOID_FN(name, op, scacq_screl)   \
	RMW_VOID_FN(name, op, acq_rel)
RMW_FAMILY(add, RMW_ADD)
RMW_FAMILY(subtract, RMW_SUB)
RMW_FAMILY(and, RMW_AND)
RMW_FAMILY(or, RMW_OR)
RMW_FAMILY(xor, RMW_XOR)

#define XCHG_FN(sfx)                                                                       \
	hsa_signal_value_t hsa_signal_exchange_##sfx(hsa_signal_t s, hsa_signal_value_t v) \
	{                                                                                  \
		return signal_rmw(s, v, RMW_XCHG);                               \
	}
#define CAS_FN(sfx)                                                                    \
	hsa_signal_value_t hsa_signal_cas_##sfx(hsa_signal_t s, hsa_signal_value_t e,  \
						hsa_signal_value_t v)                  \
	{                                                                              \
		return signal_cas(s, e, v);                                  \
	}
#define VALUE_FAMILY(fn) fn(relaxed) fn(scacquire) fn(acquire) fn(screlease) fn(release) \
	fn(scacq_screl) fn(acq_rel)
VALUE_FAMILY(XCHG_FN)
VALUE_FAMILY(CAS_FN)
