/*
 * Signal objects: creation and destruction (public and for src/queue), and
 * hsa_amd_signal_value_pointer.
 *
 * A user signal's amd_signal_t gets kind USER, the initial value, and when a
 * CPU may wait on it (no consumer list, or a CPU agent in it, and not
 * HSA_AMD_SIGNAL_AMD_GPU_ONLY, as ROCr decides) an event from the pool:
 * event_id and event_mailbox_ptr are what the CP needs to write the mailbox
 * and raise the interrupt that wakes a sleeper.
 *
 * Destroy never leaves a waiter hanging and never frees under one: it marks
 * the signal dead (state DYING, kind INVALID), fences, then wakes sleepers
 * with SET_EVENT until every thread inside a wait on it has left (they
 * re-check the kind after each wake), and only then recycles the event and
 * the slot.  Value calls on the dead handle afterwards read 0 and do
 * nothing; status calls answer HSA_STATUS_ERROR_INVALID_SIGNAL.
 *
 * HSA_AMD_SIGNAL_IPC makes an IPC signal (ipc.c), whatever the consumers,
 * as ROCr does.  Destroying one leaves the shared value alone (another
 * process may still use it) and frees its memory; destroying an attached
 * one detaches it.  Unknown attribute bits are ignored, as ROCr ignores
 * them.
 */
#include <errno.h>
#include <string.h>

#include "signal/signal_priv.h"
#include "util/log.h"

#define SPIN_NS_INITIAL 2000u

/* A signal on ev (taken by the caller, NULL for none). */
static int signal_create(struct hl_runtime *rt, int64_t initial, struct hl_signal_event *ev,
			 bool need_event, bool internal, hsa_signal_t *out)
{
	struct hl_signal_side *side;
	int err = hl_signal_slot_alloc(rt, &side);
	if (err) {
		if (ev)
			hl_signal_event_put(ev->sg, ev);
		return err;
	}

	amd_signal_t *amd = side->amd;
	memset(amd, 0, sizeof(*amd));
	amd->kind = AMD_SIGNAL_KIND_USER;
	hl_store_relaxed(hl_signal_value(amd), initial);
	if (ev) {
		amd->event_mailbox_ptr = (uint64_t)(uintptr_t)ev->kev.mailbox;
		amd->event_id = ev->kev.id;
	}
	hl_store_relaxed(&side->sleepers, 0);
	hl_store_relaxed(&side->users, 0);
	hl_store_relaxed(&side->spin_ns, SPIN_NS_INITIAL);
	side->internal = internal;
	side->wants_event = need_event;
	hl_store_relaxed(&side->event, ev);
	hl_store_relaxed(&side->copy_agent, NULL);
	hl_store_relaxed(&side->kind, AMD_SIGNAL_KIND_USER);
	/* Release: pairs with the acquire in hl_signal_side_live; a thread
	 * that sees LIVE sees the fields above complete.  (Value calls read
	 * only the kind, relaxed: the handle reached them through the
	 * caller's own synchronisation.) */
	hl_store_release(&side->state, HL_SIGNAL_LIVE);
	out->handle = (uint64_t)(uintptr_t)amd;
	return 0;
}

int hl_signal_create(struct hl_runtime *rt, int64_t initial, bool need_event, bool internal,
		     hsa_signal_t *out)
{
	if (!rt || !rt->signals || !out)
		return -EINVAL;
	struct hl_signal_event *ev = need_event ? hl_signal_event_get(rt->signals, internal) : NULL;
	return signal_create(rt, initial, ev, need_event, internal, out);
}

int hl_signal_create_on_event(struct hl_runtime *rt, int64_t initial, struct hl_signal_event *ev,
			      hsa_signal_t *out)
{
	if (!rt || !ev || !out)
		return -EINVAL;
	hl_signal_shared_event_ref(ev);
	return signal_create(rt, initial, ev, true, true, out);
}

static int doorbell_create(struct hl_runtime *rt, uint64_t *doorbell, amd_queue_t *queue,
			   bool publish_wptr, hsa_signal_t *out)
{
	if (!doorbell || (publish_wptr && !queue))
		return -EINVAL;
	struct hl_signal_side *side;
	int err = hl_signal_slot_alloc(rt, &side);
	if (err)
		return err;
	amd_signal_t *amd = side->amd;
	memset(amd, 0, sizeof(*amd));
	amd->kind = AMD_SIGNAL_KIND_DOORBELL;
	amd->hardware_doorbell_ptr = doorbell;
	amd->queue_ptr = queue;
	hl_store_relaxed(&side->sleepers, 0);
	hl_store_relaxed(&side->users, 0);
	side->internal = true;
	side->wants_event = false;
	side->publish_wptr = publish_wptr;
	hl_store_relaxed(&side->event, NULL);
	hl_store_relaxed(&side->kind, AMD_SIGNAL_KIND_DOORBELL);
	hl_store_release(&side->state, HL_SIGNAL_LIVE); /* as in hl_signal_create */
	out->handle = (uint64_t)(uintptr_t)amd;
	return 0;
}

int hl_signal_doorbell_create(struct hl_runtime *rt, uint64_t *doorbell, amd_queue_t *queue,
			      hsa_signal_t *out)
{
	return doorbell_create(rt, doorbell, queue, false, out);
}

int hl_signal_sdma_doorbell_create(struct hl_runtime *rt, uint64_t *doorbell, amd_queue_t *queue,
				   hsa_signal_t *out)
{
	return doorbell_create(rt, doorbell, queue, true, out);
}

int hl_signal_destroy(hsa_signal_t signal)
{
	struct hl_signal_side *side = hl_signal_side_lookup(signal.handle);
	uint32_t live = HL_SIGNAL_LIVE;
	if (!side || !atomic_compare_exchange_strong_explicit(&side->state, &live, HL_SIGNAL_DYING,
							      memory_order_relaxed,
							      memory_order_relaxed))
		return -EINVAL;

	amd_signal_t *amd = side->amd;
	hl_store_relaxed(&side->kind, AMD_SIGNAL_KIND_INVALID);
	if (!side->ipc)
		amd->kind = AMD_SIGNAL_KIND_INVALID;
	hl_signal_async_forget(side);
	/* Pairs with the fence a waiter issues after counting itself in users
	 * (wait.c, wait_any.c): either it sees kind INVALID, or we see it. */
	hl_fence_seq_cst();

	struct hl_signal_event *ev = hl_load_relaxed(&side->event);
	struct hl_backoff b = { 0 };
	/* Acquire: pairs with the release decrements of waiters leaving, so
	 * their last reads of the signal happen before we recycle it. */
	while (hl_load_acquire(&side->users) || hl_load_acquire(&side->sleepers)) {
		if (ev && hl_load_relaxed(&side->sleepers))
			kfd_event_set(ev->proc, &ev->kev);
		hl_backoff(&b, true);
	}

	if (side->ipc) {
		hl_store_relaxed(&side->state, HL_SIGNAL_FREE);
		hl_signal_ipc_slab_release(side);
		return 0;
	}
	hl_store_relaxed(hl_signal_value(amd), 0);
	amd->event_mailbox_ptr = 0;
	amd->event_id = 0;
	hl_store_relaxed(&side->event, NULL);
	hl_signal_event_put(hl_signal_owner(side), ev);
	hl_store_relaxed(&side->state, HL_SIGNAL_FREE);
	hl_signal_slot_free(side);
	return 0;
}

static hsa_status_t check_consumers(const struct hl_runtime *rt, uint32_t n,
				    const hsa_agent_t *consumers, bool *cpu_consumer)
{
	*cpu_consumer = n == 0;
	for (uint32_t i = 0; i < n; i++) {
		const struct hl_agent *a = hl_agent_lookup(rt, consumers[i]);
		if (!a)
			return HSA_STATUS_ERROR_INVALID_AGENT;
		for (uint32_t j = 0; j < i; j++)
			if (consumers[j].handle == consumers[i].handle)
				return HSA_STATUS_ERROR_INVALID_ARGUMENT;
		if (a->type == HSA_DEVICE_TYPE_CPU)
			*cpu_consumer = true;
	}
	return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_signal_create(hsa_signal_value_t initial_value, uint32_t num_consumers,
				   const hsa_agent_t *consumers, uint64_t attributes,
				   hsa_signal_t *signal)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!signal)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	/* ROCr looks at the consumers only for an interrupt signal. */
	if (attributes & HSA_AMD_SIGNAL_IPC) {
		int err = hl_signal_ipc_create(rt, initial_value, signal);
		if (err)
			hl_error(SIGNAL_LOG, "hsa_amd_signal_create(IPC): %s", hl_errno_name(err));
		return hl_status_from_errno(err);
	}
	if (num_consumers && !consumers)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	bool cpu_consumer;
	hsa_status_t st = check_consumers(rt, num_consumers, consumers, &cpu_consumer);
	if (st != HSA_STATUS_SUCCESS)
		return st;
	bool need_event = cpu_consumer && !(attributes & HSA_AMD_SIGNAL_AMD_GPU_ONLY);
	int err = hl_signal_create(rt, initial_value, need_event, false, signal);
	if (err)
		hl_error(SIGNAL_LOG, "hsa_signal_create: %s", hl_errno_name(err));
	return hl_status_from_errno(err);
}

hsa_status_t hsa_signal_create(hsa_signal_value_t initial_value, uint32_t num_consumers,
			       const hsa_agent_t *consumers, hsa_signal_t *signal)
{
	return hsa_amd_signal_create(initial_value, num_consumers, consumers, 0, signal);
}

hsa_status_t hsa_signal_destroy(hsa_signal_t signal)
{
	if (!hl_runtime_get())
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	struct hl_signal_side *side = hl_signal_side_live(signal.handle);
	if (!side || side->internal)
		return hl_signal_bad_handle(signal.handle);
	/* A concurrent destroy of the same handle loses the race here. */
	return hl_signal_destroy(signal) ? HSA_STATUS_ERROR_INVALID_SIGNAL : HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_signal_value_pointer(hsa_signal_t signal,
					  volatile hsa_signal_value_t **value_ptr)
{
	if (!hl_runtime_get())
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!value_ptr)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	struct hl_signal_side *side = hl_signal_side_live(signal.handle);
	if (!side || hl_load_relaxed(&side->kind) != AMD_SIGNAL_KIND_USER)
		return hl_signal_bad_handle(signal.handle);
	*value_ptr = &side->amd->value;
	return HSA_STATUS_SUCCESS;
}

/*
 * hsa_amd_signal_get_event_id (interface 1.21): the KFD event the CP
 * interrupts through when the signal changes, as its amd_signal_t names it
 * for the GPU; 0 for a signal no CPU waits on (AMD_GPU_ONLY, or consumers
 * without a CPU: no event was taken).  AMD's header answers an invalid
 * signal with INVALID_ARGUMENT, not INVALID_SIGNAL.
 */
hsa_status_t hsa_amd_signal_get_event_id(hsa_signal_t signal, uint32_t *event_id)
{
	if (!hl_runtime_get())
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!event_id)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	struct hl_signal_side *side = hl_signal_side_live(signal.handle);
	if (!side || hl_load_relaxed(&side->kind) == AMD_SIGNAL_KIND_INVALID) {
		hl_error(SIGNAL_LOG, "signal_get_event_id: %#lx is not a live signal",
			 (unsigned long)signal.handle);
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	}
	*event_id = side->amd->event_id;
	return HSA_STATUS_SUCCESS;
}
