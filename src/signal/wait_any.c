/*
 * Waiting on several signals: hsa_amd_signal_wait_any and the engine under
 * signal groups (group.c).
 *
 * As in ROCr's WaitMultiple: handles that are 0, unknown or dead are
 * skipped, and with none left the call returns UINT32_MAX.  With the
 * BLOCKED hint, and every live signal holding an event, the call spins a
 * few microseconds and then sleeps in one WAIT_EVENTS on all the events
 * ("any"), re-checking every value after each wake; otherwise (ACTIVE hint,
 * or a signal without an event) it spins with a back-off.  The
 * no-missed-wakeup argument is the single wait's (wait.c), per signal: we
 * count ourselves in each signal's sleepers, fence, and snapshot every age
 * before checking the values.  A signal destroyed during the wait drops out
 * of the set (we release its counts so its destroy can finish).
 */
#include <stdlib.h>
#include <time.h>

#include "signal/signal_priv.h"

#define ANY_STACK 16u
#define ANY_SPIN_NS 4000u
#define KFD_WAIT_MS_MAX 0x7FFFFFFEu

struct any_entry {
	struct hl_signal_side *side;   /* NULL: skipped or dropped */
	struct hl_signal_event *ev;
};

struct any_wait {
	uint32_t n, live;
	bool sleeps;
	struct any_entry *e;
	struct kfd_event *copies;      /* per-round event copies with ages */
	struct kfd_event **list;
};

static void entry_release(struct any_wait *w, uint32_t i)
{
	struct hl_signal_side *side = w->e[i].side;
	/* Release: pairs with the acquire drain in hl_signal_destroy. */
	if (w->sleeps)
		atomic_fetch_sub_explicit(&side->sleepers, 1, memory_order_release);
	atomic_fetch_sub_explicit(&side->users, 1, memory_order_release);
	w->e[i].side = NULL;
	w->live--;
}

/* The first satisfied signal's index, or UINT32_MAX; drops dead ones. */
static uint32_t any_check(struct any_wait *w, const hsa_signal_condition_t *conds,
			  const int64_t *values, int64_t *value)
{
	for (uint32_t i = 0; i < w->n; i++) {
		struct hl_signal_side *side = w->e[i].side;
		if (!side)
			continue;
		/* Acquire: pairs with the release that satisfied the
		 * condition (an acquire load, not a fence after the wait:
		 * see value_load in wait.c).  The relaxed group wait gets it
		 * too, which the API allows. */
		int64_t v = hl_load_acquire(hl_signal_value(side->amd));
		if (hl_load_relaxed(&side->kind) != AMD_SIGNAL_KIND_USER) {
			entry_release(w, i);
			continue;
		}
		if (hl_signal_satisfied(conds[i], v, values[i])) {
			*value = v;
			return i;
		}
	}
	return UINT32_MAX;
}

static void any_sleep(struct any_wait *w, uint64_t now, uint64_t deadline)
{
	uint32_t k = 0;
	struct kfd_process *proc = NULL;
	bool ages = true;
	/* The copies carry the ages any_snapshot took before this round's
	 * value checks. */
	for (uint32_t i = 0; i < w->n; i++) {
		if (!w->e[i].side)
			continue;
		w->list[k] = &w->copies[i];
		proc = w->e[i].ev->proc;
		ages &= hl_signal_event_ages(w->e[i].ev);
		k++;
	}
	uint32_t ms = KFD_WAIT_TIMEOUT_INFINITE;
	if (deadline != UINT64_MAX) {
		uint64_t left = (deadline - now + 999999) / 1000000;
		ms = left > KFD_WAIT_MS_MAX ? KFD_WAIT_MS_MAX : (uint32_t)left;
	}
	if (!ages && ms > 1)
		ms = 1;
	uint32_t result;
	if (kfd_event_wait(proc, w->list, k, false, ms, &result, NULL)) {
		struct timespec ts = { 0, 50000 };
		nanosleep(&ts, NULL);
		return;
	}
	if (result != KFD_WAIT_COMPLETE)
		return;
	for (uint32_t i = 0; i < w->n; i++)
		if (w->e[i].side)
			hl_signal_event_age_seen(w->e[i].ev, w->copies[i].age);
}

/* Snapshots every live event's age into its copy (before the values). */
static void any_snapshot(struct any_wait *w)
{
	for (uint32_t i = 0; i < w->n; i++) {
		if (!w->e[i].side)
			continue;
		w->copies[i] = w->e[i].ev->kev;
		w->copies[i].age = hl_signal_event_age(w->e[i].ev);
	}
}

uint32_t hl_signal_wait_any(uint32_t n, const hsa_signal_t *signals,
			    const hsa_signal_condition_t *conds, const int64_t *values,
			    uint64_t timeout_ns, hsa_wait_state_t hint, int64_t *value)
{
	struct any_entry e_stack[ANY_STACK];
	struct kfd_event c_stack[ANY_STACK];
	struct kfd_event *l_stack[ANY_STACK];
	struct any_wait w = { .n = n, .sleeps = hint != HSA_WAIT_STATE_ACTIVE,
			      .e = e_stack, .copies = c_stack, .list = l_stack };
	uint32_t idx = UINT32_MAX;
	int64_t v = 0;

	if (n > ANY_STACK) {
		w.e = calloc(n, sizeof(*w.e));
		w.copies = calloc(n, sizeof(*w.copies));
		w.list = calloc(n, sizeof(*w.list));
		if (!w.e || !w.copies || !w.list)
			goto out_free;
	}
	for (uint32_t i = 0; i < n; i++) {
		struct hl_signal_side *side = hl_signal_side_lookup(signals[i].handle);
		w.e[i].side = NULL;
		if (!side || hl_load_relaxed(&side->kind) != AMD_SIGNAL_KIND_USER)
			continue;
		w.e[i].side = side;
		w.e[i].ev = hl_load_relaxed(&side->event);
		w.sleeps &= w.e[i].ev != NULL;
		w.live++;
	}
	if (!w.live)
		goto out_free;

	for (uint32_t i = 0; i < n; i++) {
		if (!w.e[i].side)
			continue;
		atomic_fetch_add_explicit(&w.e[i].side->users, 1, memory_order_relaxed);
		if (w.sleeps)
			atomic_fetch_add_explicit(&w.e[i].side->sleepers, 1, memory_order_relaxed);
	}
	/* Pairs with signal_notify's seq_cst operations (ops.c) and the fence
	 * in hl_signal_destroy,
	 * as in hl_signal_wait. */
	hl_fence_seq_cst();

	uint64_t start = hl_system_timestamp(), now = start;
	uint64_t deadline = timeout_ns >= UINT64_MAX - start ? UINT64_MAX : start + timeout_ns;
	struct hl_backoff b = { 0 };
	for (;;) {
		if (w.sleeps)
			any_snapshot(&w);
		idx = any_check(&w, conds, values, &v);
		if (idx != UINT32_MAX || !w.live || now >= deadline)
			break;
		if (w.sleeps && now - start >= ANY_SPIN_NS)
			any_sleep(&w, now, deadline);
		else if (w.sleeps)
			hl_cpu_relax();
		else
			hl_backoff(&b, true);
		now = hl_system_timestamp();
	}
	for (uint32_t i = 0; i < n; i++)
		if (w.e[i].side)
			entry_release(&w, i);
	if (idx != UINT32_MAX && value)
		*value = v;
out_free:
	if (w.e != e_stack) {
		free(w.e);
		free(w.copies);
		free(w.list);
	}
	return idx;
}

uint32_t hsa_amd_signal_wait_any(uint32_t signal_count, hsa_signal_t *signals,
				 hsa_signal_condition_t *conds, hsa_signal_value_t *values,
				 uint64_t timeout_hint, hsa_wait_state_t wait_hint,
				 hsa_signal_value_t *satisfying_value)
{
	if (!hl_runtime_get() || !signal_count || !signals || !conds || !values)
		return UINT32_MAX;
	uint32_t idx = hl_signal_wait_any(signal_count, signals, conds, values,
					  hl_signal_ticks_to_ns(timeout_hint), wait_hint,
					  satisfying_value);
	/* The acquire is any_check's load of the satisfying value. */
	return idx;
}
