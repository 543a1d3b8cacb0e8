/*
 * The calls other modules use instead of a signal's side entry
 * (signal/signal.h): liveness, the sleeper count and the event a sleeper
 * waits on (src/queue's error service), the CP's timestamps and the agent
 * of the last profiled copy (src/queue and src/copy's profiling).  Each
 * resolves the handle through the lock-free slab table first.
 */
#include <errno.h>

#include "signal/signal_priv.h"

bool hl_signal_live(uint64_t handle)
{
	return hl_signal_side_live(handle) != NULL;
}

bool hl_signal_sleeper_add(uint64_t handle)
{
	struct hl_signal_side *side = hl_signal_side_lookup(handle);
	if (!side)
		return false;
	/* Relaxed: the caller's seq_cst fence that follows orders it before
	 * its first value check (signal_priv.h, "Waking"). */
	atomic_fetch_add_explicit(&side->sleepers, 1, memory_order_relaxed);
	return true;
}

void hl_signal_sleeper_remove(uint64_t handle)
{
	struct hl_signal_side *side = hl_signal_side_lookup(handle);
	/* Release: the caller's last reads of the signal come before its
	 * destroy recycles it (pairs with the acquire in hl_signal_destroy). */
	if (side)
		atomic_fetch_sub_explicit(&side->sleepers, 1, memory_order_release);
}

struct hl_signal_event *hl_signal_wait_entry(uint64_t handle, struct kfd_event *kev)
{
	struct hl_signal_side *side = hl_signal_side_live(handle);
	struct hl_signal_event *ev = side ? hl_load_relaxed(&side->event) : NULL;
	if (!ev)
		return NULL;
	*kev = ev->kev;
	kev->age = hl_signal_event_age(ev);
	return ev;
}

void hl_signal_event_wait_entry(struct hl_signal_event *ev, struct kfd_event *kev)
{
	*kev = ev->kev;
	kev->age = hl_signal_event_age(ev);
}

int hl_signal_timestamps(uint64_t handle, bool user_kind, uint64_t *start, uint64_t *end)
{
	struct hl_signal_side *side = hl_signal_side_live(handle);
	if (!side || (user_kind && hl_load_relaxed(&side->kind) != AMD_SIGNAL_KIND_USER))
		return -EINVAL;
	*start = side->amd->start_ts;
	*end = side->amd->end_ts;
	return 0;
}

void hl_signal_copy_agent_set(uint64_t handle, struct hl_agent *agent)
{
	struct hl_signal_side *side = hl_signal_side_live(handle);
	if (side)
		hl_store_relaxed(&side->copy_agent, agent);
}

struct hl_agent *hl_signal_copy_agent(uint64_t handle)
{
	struct hl_signal_side *side = hl_signal_side_live(handle);
	return side ? hl_load_relaxed(&side->copy_agent) : NULL;
}
