/*
 * hsa_amd_signal_wait_all (ROCr 1.18, interface 1.7): wait until every
 * signal has satisfied its condition.
 *
 * ROCr's semantics (hsa_amd_signal_wait_all, Signal::WaitMultiple with
 * wait_on_all):
 *  - handles that are 0 or not live signals count as satisfied and are
 *    skipped; their satisfying value is 0; with none left the call returns
 *    0 at once;
 *  - a signal is done once it has been seen satisfying its condition (it is
 *    not re-checked later), and its satisfying value is the value seen then;
 *  - 0 when all are done; UINT32_MAX on timeout, an unknown condition, a
 *    signal destroyed during the wait, or before hsa_init.
 * One deliberate difference: ROCr indexes conds and values by the position
 * among the live signals (it compacts the signal list but not the other
 * two), so a skipped signal shifts the conditions of the ones after it;
 * hsalite keeps every array indexed by the caller's position
 * (docs/differences.md).
 *
 * "Seen once" means the signals can be waited for one after the other:
 * each wait is hl_signal_wait with what is left of the timeout, which
 * sleeps on the signal's event under the BLOCKED hint exactly as
 * hsa_signal_wait_* does (wait.c carries the no-missed-wakeup argument).
 */
#include <stdlib.h>

#include "signal/signal_priv.h"
#include "util/barrier.h"

static bool cond_known(hsa_signal_condition_t c)
{
	return c == HSA_SIGNAL_CONDITION_EQ || c == HSA_SIGNAL_CONDITION_NE ||
	       c == HSA_SIGNAL_CONDITION_LT || c == HSA_SIGNAL_CONDITION_GTE;
}

static bool cond_met(hsa_signal_condition_t c, int64_t v, int64_t cmp)
{
	switch (c) {
	case HSA_SIGNAL_CONDITION_EQ: return v == cmp;
	case HSA_SIGNAL_CONDITION_NE: return v != cmp;
	case HSA_SIGNAL_CONDITION_LT: return v < cmp;
	case HSA_SIGNAL_CONDITION_GTE: return v >= cmp;
	}
	return false;
}

/* A signal the wait takes part in: live and of the user kind (the same set
 * hsa_amd_signal_wait_any waits on). */
static bool waitable(hsa_signal_t s)
{
	struct hl_signal_side *side = s.handle ? hl_signal_side_live(s.handle) : NULL;
	return side && hl_load_relaxed(&side->kind) == AMD_SIGNAL_KIND_USER;
}

uint32_t hsa_amd_signal_wait_all(uint32_t signal_count, hsa_signal_t *signals,
				 hsa_signal_condition_t *conds, hsa_signal_value_t *values,
				 uint64_t timeout_hint, hsa_wait_state_t wait_hint,
				 hsa_signal_value_t *satisfying_values)
{
	if (!hl_runtime_get())
		return UINT32_MAX;
	if (signal_count && (!signals || !conds || !values))
		return UINT32_MAX;
	/* ROCr sleeps for any hint but ACTIVE */
	if (wait_hint != HSA_WAIT_STATE_ACTIVE)
		wait_hint = HSA_WAIT_STATE_BLOCKED;

	for (uint32_t i = 0; i < signal_count; i++)
		if (waitable(signals[i]) && !cond_known(conds[i]))
			return UINT32_MAX;
	if (satisfying_values)
		for (uint32_t i = 0; i < signal_count; i++)
			satisfying_values[i] = 0;

	uint64_t timeout_ns = hl_signal_ticks_to_ns(timeout_hint);
	uint64_t start = hl_system_timestamp();
	uint64_t deadline = timeout_ns >= UINT64_MAX - start ? UINT64_MAX : start + timeout_ns;
	for (uint32_t i = 0; i < signal_count; i++) {
		if (!waitable(signals[i]))
			continue;
		uint64_t now = hl_system_timestamp();
		uint64_t left = deadline == UINT64_MAX ? UINT64_MAX
			      : now >= deadline ? 0 : deadline - now;
		int64_t v = hl_signal_wait(signals[i], conds[i], values[i], left, wait_hint);
		/* a signal destroyed during the wait reads as 0: not a value */
		if (!hl_signal_side_live(signals[i].handle) || !cond_met(conds[i], v, values[i]))
			return UINT32_MAX;
		/* acquire: pairs with the release that satisfied the condition
		 * (hl_signal_wait's loads are relaxed) */
		hl_fence_acquire();
		if (satisfying_values)
			satisfying_values[i] = v;
	}
	return 0;
}
