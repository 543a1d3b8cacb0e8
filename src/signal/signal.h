/*
 * Signals: the public face of src/signal, what the modules above it (queue,
 * loader, copy, image) may call.  A signal's state (its side entry, its KFD
 * event, its waiter counts) stays private (signal_priv.h); other modules
 * reach it through these calls, never through fields.
 *
 * Handles are the amd_signal_t addresses (the ABI the GPU reads, as ROCr);
 * every call here resolves a handle through the module's lock-free table
 * first, so any handle value is safe to pass.
 *
 * Errors: internal functions return 0 or -errno; the API edge maps them
 * through hl_status_from_errno (src/runtime/error.c).
 */
#ifndef HSALITE_SIGNAL_H
#define HSALITE_SIGNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "hsa/amd_hsa_signal.h"
#include "hsa/hsa.h"
#include "hsa/hsa_ext_amd.h"
#include "kfd/kfd.h"
#include "runtime/runtime.h"

/* The status ROCr 5.2.3's Signal::Convert gives a handle that is not a
 * usable signal: handle 0 is INVALID_ARGUMENT (it throws before looking),
 * anything else INVALID_SIGNAL. */
static inline hsa_status_t hl_signal_bad_handle(uint64_t handle)
{
	return handle ? HSA_STATUS_ERROR_INVALID_SIGNAL : HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

static inline _Atomic int64_t *hl_signal_value(amd_signal_t *s)
{
	return (_Atomic int64_t *)(uintptr_t)&s->value;
}

/* True when handle names a live signal of ours.  Lock-free; acquire (pairs
 * with the release that publishes a created signal). */
bool hl_signal_live(uint64_t handle);

/* ---- signal.c ---- */

/* Creates a signal.  need_event: a CPU may wait on it (take an event from
 * the pool; without one the signal still works, its waits spin).
 * internal: a runtime signal (may use the reserve of events; rejected by
 * hsa_signal_destroy). */
int hl_signal_create(struct hl_runtime *rt, int64_t initial, bool need_event, bool internal,
		     hsa_signal_t *out);
/* Destroys a live signal: marks it dead, wakes and waits out every thread
 * inside a wait on it, drops its async handlers, returns its event to the
 * pool and its slot to the free list.  -EINVAL for an unknown or dead one. */
int hl_signal_destroy(hsa_signal_t signal);

/*
 * A runtime event several internal signals share (src/queue: every queue's
 * inactive signal and the error service's wake are one KFD event, so a new
 * queue costs no CREATE_EVENT and no SET_EVENT to re-arm the service's
 * wait).  A waiter on any of them may wake for another's store and
 * re-checks its own value, as after any spurious wake.  The event is
 * counted: hl_signal_shared_event_get takes one from the pool with one
 * reference, each signal made on it and each hl_signal_shared_event_ref
 * adds one, hl_signal_shared_event_put and the signals' destroys drop them,
 * and the last returns it to the pool (destroyed at the last hsa_shut_down
 * as every pool event).  NULL when the pool has none (its log says why).
 */
struct hl_signal_event *hl_signal_shared_event_get(struct hl_runtime *rt);
void hl_signal_shared_event_ref(struct hl_signal_event *ev);
void hl_signal_shared_event_put(struct hl_signal_event *ev);
/* An internal signal on ev (a reference is taken), as hl_signal_create
 * with need_event and internal. */
int hl_signal_create_on_event(struct hl_runtime *rt, int64_t initial, struct hl_signal_event *ev,
			      hsa_signal_t *out);
/* SET_EVENT on ev: -errno. */
int hl_signal_shared_event_set(struct hl_signal_event *ev);

/*
 * For src/queue: a doorbell signal (kind AMD_SIGNAL_KIND_DOORBELL) taken
 * from our slabs, so that every handle the API sees resolves through one
 * table.  hardware_doorbell_ptr = doorbell, queue_ptr = queue.  A store
 * (any store flavour, silent ones too) writes the value to the doorbell with
 * hl_doorbell_store64; loads return 0; read-modify-write operations do
 * nothing and return 0; waits return 0 at once.  Destroy it with
 * hl_signal_destroy (hsa_signal_destroy refuses it with INVALID_SIGNAL).
 */
int hl_signal_doorbell_create(struct hl_runtime *rt, uint64_t *doorbell, amd_queue_t *queue,
			      hsa_signal_t *out);
/*
 * The same for an application SDMA queue (src/queue/sdma_queue.c): a store
 * of v first writes v to queue->write_dispatch_id (a release store: the
 * SDMA engine reads that write pointer when it loads the queue, and the
 * application's hsa_queue_load_write_index_* read it), then rings the
 * doorbell with v, as ROCr's SdmaQueue::RingDoorbell.  queue must not be
 * NULL (-EINVAL).
 */
int hl_signal_sdma_doorbell_create(struct hl_runtime *rt, uint64_t *doorbell, amd_queue_t *queue,
				   hsa_signal_t *out);

/* The module table's steps (src/modules.c): attach makes rt->signals
 * (-ENOMEM); the last hsa_shut_down stops the async service and frees
 * groups, slabs, events and rt->signals; at a fork the child empties the
 * handle table, so value calls on the parent's handles resolve to nothing
 * and do nothing, and its forget step frees the parent's records without
 * an ioctl (slab.c). */
int hl_signal_attach(struct hl_runtime *rt);
void hl_signal_teardown(struct hl_runtime *rt);
void hl_signal_fork_child(void);
void hl_signal_forget(struct hl_runtime *rt);

/* Stops and joins the async service thread; frees pending work (teardown
 * of a module whose handlers must not run any more).  Nothing once the
 * signal module is torn down. */
void hl_signal_async_stop(struct hl_runtime *rt);

/* ---- waiting ---- */

/*
 * Waits until the signal's value satisfies cond against cmp, the timeout
 * (ns, UINT64_MAX = none) passes, or the signal dies.  Returns the last
 * value seen (0 for a dead or non-user signal).  Relaxed: the caller adds
 * an acquire fence if it needs one.  Usable from any runtime thread; src/queue
 * waits for "value changed" with HSA_SIGNAL_CONDITION_NE and the old value.
 */
int64_t hl_signal_wait(hsa_signal_t signal, hsa_signal_condition_t cond, int64_t cmp,
		       uint64_t timeout_ns, hsa_wait_state_t hint);

static inline int64_t hl_signal_wait_change(hsa_signal_t signal, int64_t old, uint64_t timeout_ns)
{
	return hl_signal_wait(signal, HSA_SIGNAL_CONDITION_NE, old, timeout_ns,
			      HSA_WAIT_STATE_BLOCKED);
}

/* Index of the first of n signals that satisfies its condition (its value
 * in *value), or UINT32_MAX after timeout_ns or when no signal is live.
 * Handles that are 0, unknown or dead are skipped, as ROCr does. */
uint32_t hl_signal_wait_any(uint32_t n, const hsa_signal_t *signals,
			    const hsa_signal_condition_t *conds, const int64_t *values,
			    uint64_t timeout_ns, hsa_wait_state_t hint, int64_t *value);

/* ---- sleeping on a signal's KFD event from outside the module (src/queue's
 * error service watches queue inactive signals) ---- */

struct hl_signal_event;

/* Counts the caller as a thread that may sleep on the signal's event (so a
 * store to it sets the event) / drops that count.  The caller issues a
 * seq_cst fence after the add before its first value check (the "no missed
 * wakeup" contract, signal_priv.h).  hl_signal_sleeper_add is false when
 * handle is none of ours (nothing counted).  The remove is a release: the
 * caller's last reads of the signal come before a destroy recycles it
 * (pairs with the acquire in hl_signal_destroy). */
bool hl_signal_sleeper_add(uint64_t handle);
void hl_signal_sleeper_remove(uint64_t handle);
/* One entry of a WAIT_EVENTS list for a live signal: its event into *kev
 * with the age snapshot to pass (taken before the caller checks the value).
 * Returns the event to hand to hl_signal_event_age_seen with the age
 * WAIT_EVENTS returns, or NULL when the signal is dead or has no event
 * (the caller must poll it). */
struct hl_signal_event *hl_signal_wait_entry(uint64_t handle, struct kfd_event *kev);
/* The same for an event itself (a shared one): *kev with its age snapshot. */
void hl_signal_event_wait_entry(struct hl_signal_event *ev, struct kfd_event *kev);
/* Records an age returned by WAIT_EVENTS if it is newer than the one kept.
 * Release: pairs with the acquire of the snapshot in hl_signal_event_age. */
void hl_signal_event_age_seen(struct hl_signal_event *ev, uint64_t age);

/* ---- profiling ---- */

/* The start and end timestamps the CP wrote into a live signal's
 * amd_signal_t; user_kind refuses any kind but AMD_SIGNAL_KIND_USER
 * (doorbell signals).
 * -EINVAL when the handle is not such a signal.  The caller waited for the
 * completion (an acquire on the value, pairing with the CP's release
 * decrement that follows its timestamp writes), so plain reads suffice. */
int hl_signal_timestamps(uint64_t handle, bool user_kind, uint64_t *start, uint64_t *end);
/* The GPU (or CPU) agent of the last profiled async copy that completed a
 * live signal (src/copy): set (ignored for a dead signal), and read (NULL
 * when none or dead).  Relaxed: the caller waited for the completion. */
void hl_signal_copy_agent_set(uint64_t handle, struct hl_agent *agent);
struct hl_agent *hl_signal_copy_agent(uint64_t handle);

#endif /* HSALITE_SIGNAL_H */
