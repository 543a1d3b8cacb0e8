/*
 * Waiting on one signal: hsa_signal_wait_{relaxed,scacquire,acquire} and
 * hl_signal_wait, which src/queue and the service thread use too.
 *
 * Hints
 *  - HSA_WAIT_STATE_ACTIVE: poll for HOT_SPIN_NS (ROCr's 200 us), then back
 *    off (pauses, then yield): the caller asked for latency over CPU; it
 *    never sleeps in the kernel.
 *
 * Polling.  A poll is one acquire load, the condition and one pause; the
 * clock is read only every POLLS_PER_CLOCK polls.  Both a pause (25-55 ns
 * here) and clock_gettime (45-55 ns under KVM) cost as much as the whole
 * load, so a loop that read the clock or paused 16 times per poll saw a
 * completion up to a microsecond late; deadlines are still kept to within
 * POLLS_PER_CLOCK polls (about a microsecond).
 *  - HSA_WAIT_STATE_BLOCKED: spin for the signal's adaptive budget (1-200
 *    us, the time the last waits on it took, where ROCr always spins 200
 *    us; see below for a value that is moving), then sleep
 *    in WAIT_EVENTS on the signal's event with a timeout in ms rounded up
 *    from what is left, re-checking the value after every wake.  A sleeper
 *    uses no CPU.  A signal without an event (GPU-only, or the pool was
 *    exhausted) spins with a back-off that ends in 50 us naps.
 *    A value that steps towards the condition (N packets sharing one
 *    completion signal: the CP decrements it and interrupts once per
 *    packet) would wake a sleeper once per step, each wake a WAIT_EVENTS
 *    round trip, and while a sleeper is linked every step costs the stepper
 *    (kfdemu's CP) a wake-up call: on a small, loaded host that is CPU and
 *    time taken from whoever is stepping the value.  So the spin lasts until
 *    the value has been *still* for the window, and a wake that finds the
 *    value moved but the condition false goes back to spinning instead of
 *    straight back to sleep.  The window is the budget, or STEP_SPIN_NS
 *    (200 us) once the value has taken two steps at most 20 us apart; a
 *    wait that ended so sets the next budget to STEP_SPIN_NS (the next
 *    batch).  A value that moves more slowly than that, or not at all, is
 *    slept on as before, and one such wait halves the budget.
 *    Why up to 200 us: a wait that sleeps costs a wake-up (20-100 us on a
 *    loaded VM), and on kfdemu a waiter that wakes that late finds the
 *    engine that served it napping (its spin lasts 20 us), so the next
 *    wait takes a nap and a wake-up again: with a 20 us cap one late wake
 *    kept a loop of 4 KiB copies at ~110 us each (ROCr's 200 us spin: ~1
 *    us), and 1 MiB copies (~23 us on the engine) always slept (~55 us).
 *    A budget that follows waits of up to 200 us spins through them as
 *    ROCr does, and only while the waits are that short.  The spin does
 *    not yield, as ROCr's does not: a sched_yield() between polls past
 *    20 us (tried) can hand the CPU to a neighbour for a whole slice on a
 *    loaded host, and did no better in A/B runs of a loop of copies.
 *
 * The no-missed-wakeup argument (the waker's half is in ops.c):
 *   1. after its spin, the waiter adds itself to side->sleepers, then a
 *      seq_cst fence (spinning needs no count: stores then cost no
 *      syscall); a waiter that leaves to spin again subtracts itself and
 *      does all of 1 afresh before its next sleep, so each sleep is covered;
 *   2. each round snapshots the event age (acquire) *before* loading the
 *      value, and sleeps passing that age as last_event_age;
 *   3. a modifier modifies the value and reads sleepers, both seq_cst.
 * If the value load in 2 missed the store, then by the seq_cst order (ops.c)
 * the modifier's read of sleepers in 3 sees our increment from 1, so it calls
 * SET_EVENT.  That SET cannot be reflected in our snapshot (had it been, the
 * release in hl_signal_event_age_seen / acquire of the snapshot would make
 * the store visible to our later load), so the kernel's age differs from
 * the one we pass and
 * WAIT_EVENTS returns at once.  A GPU completion needs no count: the CP
 * writes the mailbox and interrupts, which sets the event (age bump) too.
 * Without event ages (KFD < 1.14) a set can be consumed by another sleeper,
 * so sleeps are cut to 1 ms: a lost wakeup costs at most that.
 *
 * Timeouts are in HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY ticks (1 GHz, the
 * runtime's CLOCK_BOOTTIME ns); UINT64_MAX waits forever.
 */
#include <sched.h>
#include <time.h>

#include "signal/signal_priv.h"

#define POLLS_PER_CLOCK 16u
#define HOT_SPIN_NS 200000u /* ACTIVE: polls before the back-off */
#define SPIN_NS_MIN 1000u
#define SPIN_NS_MAX 20000u  /* steps closer than this are a batch */
#define BUDGET_NS_MAX 200000u /* ROCr's spin: the longest adaptive budget */
#define STEP_SPIN_NS 200000u /* stillness that ends the spin of a stepping wait */
#define BACKOFF_PAUSE_STEPS 10u  /* 1, 2, 4 ... 512 pauses */
#define BACKOFF_YIELD_STEPS 200u
#define BACKOFF_NAP_NS 50000L
#define KFD_WAIT_MS_MAX 0x7FFFFFFEu

uint64_t hl_signal_ticks_to_ns(uint64_t ticks)
{
	if (ticks == UINT64_MAX)
		return UINT64_MAX;
	unsigned __int128 ns = (unsigned __int128)ticks * 1000000000u /
			       HL_SYSTEM_TIMESTAMP_FREQUENCY;
	return ns >= UINT64_MAX ? UINT64_MAX : (uint64_t)ns;
}

void hl_backoff(struct hl_backoff *b, bool may_sleep)
{
	if (b->step < BACKOFF_PAUSE_STEPS) {
		for (uint32_t i = 0; i < (1u << b->step); i++)
			hl_cpu_relax();
	} else if (b->step < BACKOFF_PAUSE_STEPS + BACKOFF_YIELD_STEPS || !may_sleep) {
		sched_yield();
	} else {
		struct timespec ts = { 0, BACKOFF_NAP_NS };
		nanosleep(&ts, NULL);
	}
	if (b->step < UINT32_MAX)
		b->step++;
}

static uint64_t deadline_after(uint64_t start, uint64_t timeout_ns)
{
	return timeout_ns >= UINT64_MAX - start ? UINT64_MAX : start + timeout_ns;
}

/* One WAIT_EVENTS on ev, passing the age the caller snapshotted before its
 * last value check.  Errors (logged by the thunk) turn into a short nap so a
 * broken event cannot make a hot loop. */
static void sleep_on(struct hl_signal_event *ev, uint64_t seen, uint64_t now, uint64_t deadline)
{
	uint32_t ms = KFD_WAIT_TIMEOUT_INFINITE;
	if (deadline != UINT64_MAX) {
		uint64_t left = (deadline - now + 999999) / 1000000;
		ms = left > KFD_WAIT_MS_MAX ? KFD_WAIT_MS_MAX : (uint32_t)left;
	}
	if (!hl_signal_event_ages(ev) && ms > 1)
		ms = 1;
	struct kfd_event local = ev->kev;
	local.age = seen;
	struct kfd_event *list = &local;
	uint32_t result;
	if (kfd_event_wait(ev->proc, &list, 1, false, ms, &result, NULL)) {
		struct timespec ts = { 0, BACKOFF_NAP_NS };
		nanosleep(&ts, NULL);
		return;
	}
	if (result == KFD_WAIT_COMPLETE)
		hl_signal_event_age_seen(ev, local.age);
}

/* A load of the value that may end the wait.  Acquire: pairs with the
 * release half of the store or RMW (or the CP's release decrement,
 * kemu_cp_signal_complete) that made the condition true, so the caller's
 * reads of the results, and hl_signal_destroy's writes to a signal the CP
 * has just completed, come after it.  This is an acquire load rather than a
 * relaxed load and an acquire fence after the wait: on x86 it is the same
 * instruction, and it is the form ThreadSanitizer sees (GCC 12's TSan does
 * not model atomic_thread_fence).  The relaxed waits get acquire too, which
 * the API allows. */
static inline int64_t value_load(_Atomic int64_t *value)
{
	return hl_load_acquire(value);
}

/* The next spin budget: as long as the last wait took (plus a quarter) when
 * that fits BUDGET_NS_MAX, else halve it (so at most the cap); STEP_SPIN_NS after
 * a wait that saw the value take quick steps (see value_moved): the next
 * wait on this signal is likely the next batch, and its first steps come as
 * soon as the work starts.  One wait that does not step brings it back
 * under the cap. */
static void spin_adapt(struct hl_signal_side *side, uint64_t took, bool stepping)
{
	uint32_t cur = hl_load_relaxed(&side->spin_ns), next;
	if (took <= BUDGET_NS_MAX)
		next = (uint32_t)(took + took / 4);
	else
		next = cur / 2;
	next = next < SPIN_NS_MIN ? SPIN_NS_MIN : next > BUDGET_NS_MAX ? BUDGET_NS_MAX : next;
	if (stepping)
		next = STEP_SPIN_NS;
	hl_store_relaxed(&side->spin_ns, next);
}

/* Whether the value moved since the caller last looked; if so, the spin
 * window until the next sleep.  A value that takes steps at most
 * SPIN_NS_MAX apart is being counted towards the condition (a batch of GPU
 * packets sharing one completion signal: the CP decrements it once per
 * packet, a few hundred ns apart): the wait stays awake until it has been
 * still for STEP_SPIN_NS (ROCr's 200 us, but only for a value that is
 * moving), instead of sleeping and being woken once per step.  A value that
 * moves more slowly keeps the adaptive budget, so its waiter still sleeps
 * between steps. */
static bool value_moved(int64_t v, int64_t *last, uint64_t now, uint64_t *moved,
			uint64_t *window, uint64_t budget, bool *stepping)
{
	if (v == *last)
		return false;
	*stepping = now - *moved <= SPIN_NS_MAX;
	*window = *stepping ? STEP_SPIN_NS : budget;
	*last = v;
	*moved = now;
	return true;
}

static int64_t wait_blocked(struct hl_signal_side *side, struct hl_signal_event *ev,
			    hsa_signal_condition_t cond, int64_t cmp, uint64_t start,
			    uint64_t deadline)
{
	_Atomic int64_t *value = hl_signal_value(side->amd);
	uint64_t budget = hl_load_relaxed(&side->spin_ns), window = budget;
	uint64_t now = start, moved = start;
	bool stepping = false;
	int64_t v = value_load(value), last = v;

	for (;;) {
		/* Spin until the value has been still for the window. */
		while (now - moved < window && now < deadline) {
			for (unsigned i = 0; i < POLLS_PER_CLOCK; i++) {
				v = value_load(value);
				if (hl_signal_satisfied(cond, v, cmp)) {
					/* the last clock reading, at most
					 * POLLS_PER_CLOCK polls old: a fresh one
					 * would cost the waker's latency a clock
					 * read, and the budget is a ceiling with
					 * a quarter's margin anyway */
					spin_adapt(side, now - start, stepping);
					return v;
				}
				hl_cpu_relax();
			}
			if (hl_load_relaxed(&side->kind) != AMD_SIGNAL_KIND_USER)
				return 0;
			now = hl_system_timestamp();
			value_moved(v, &last, now, &moved, &window, budget, &stepping);
		}
		/* Only now count as a sleeper: a store that lands while we
		 * spin costs its thread no SET_EVENT.  Pairs with the seq_cst
		 * modification and sleepers load of signal_notify (ops.c):
		 * from here on, either it sees us, or we see its value. */
		atomic_fetch_add_explicit(&side->sleepers, 1, memory_order_relaxed);
		hl_fence_seq_cst();
		bool done = true;
		for (;;) {
			uint64_t seen = hl_signal_event_age(ev); /* before the value: see top */
			v = value_load(value);
			if (hl_signal_satisfied(cond, v, cmp)) {
				spin_adapt(side, hl_system_timestamp() - start, stepping);
				break;
			}
			if (hl_load_relaxed(&side->kind) != AMD_SIGNAL_KIND_USER) {
				v = 0;
				break;
			}
			now = hl_system_timestamp();
			if (now >= deadline)
				break;
			/* Woken (or about to sleep) with the value moved but
			 * not there yet: spin again rather than sleep once per
			 * step.  The next sleep registers afresh. */
			if (value_moved(v, &last, now, &moved, &window, budget, &stepping)) {
				done = false;
				break;
			}
			sleep_on(ev, seen, now, deadline);
		}
		/* Release: pairs with the acquire drain in hl_signal_destroy. */
		atomic_fetch_sub_explicit(&side->sleepers, 1, memory_order_release);
		if (done)
			return v;
	}
}

static int64_t wait_spinning(struct hl_signal_side *side, hsa_signal_condition_t cond,
			     int64_t cmp, uint64_t deadline, bool may_sleep)
{
	_Atomic int64_t *value = hl_signal_value(side->amd);
	int64_t v;
	/* hot: poll, reading the clock every POLLS_PER_CLOCK polls */
	for (uint64_t hot_end = UINT64_MAX;;) {
		for (unsigned i = 0; i < POLLS_PER_CLOCK; i++) {
			v = value_load(value);
			if (hl_signal_satisfied(cond, v, cmp))
				return v;
			hl_cpu_relax();
		}
		if (hl_load_relaxed(&side->kind) != AMD_SIGNAL_KIND_USER)
			return 0;
		uint64_t now = hl_system_timestamp();
		if (now >= deadline)
			return v;
		if (hot_end == UINT64_MAX) /* an event-less BLOCKED wait: shorter */
			hot_end = now + (may_sleep ? SPIN_NS_MAX : HOT_SPIN_NS);
		else if (now >= hot_end)
			break;
	}
	/* then back off */
	struct hl_backoff b = { 0 };
	for (;;) {
		v = value_load(value);
		if (hl_signal_satisfied(cond, v, cmp))
			return v;
		if (hl_load_relaxed(&side->kind) != AMD_SIGNAL_KIND_USER)
			return 0;
		if (hl_system_timestamp() >= deadline)
			return v;
		hl_backoff(&b, may_sleep);
	}
}

int64_t hl_signal_wait(hsa_signal_t signal, hsa_signal_condition_t cond, int64_t cmp,
		       uint64_t timeout_ns, hsa_wait_state_t hint)
{
	struct hl_signal_side *side = hl_signal_side_lookup(signal.handle);
	if (!side || hl_load_relaxed(&side->kind) != AMD_SIGNAL_KIND_USER)
		return 0;
	int64_t v = value_load(hl_signal_value(side->amd));
	if (hl_signal_satisfied(cond, v, cmp) || timeout_ns == 0)
		return v;

	struct hl_signal_event *ev = hl_load_relaxed(&side->event);
	bool sleeps = ev && hint != HSA_WAIT_STATE_ACTIVE;
	atomic_fetch_add_explicit(&side->users, 1, memory_order_relaxed);
	/* Pairs with the fence in hl_signal_destroy: it sees us in users, or
	 * we see its kind INVALID.  (Sleepers register in wait_blocked.) */
	hl_fence_seq_cst();

	uint64_t start = hl_system_timestamp();
	uint64_t deadline = deadline_after(start, timeout_ns);
	if (sleeps)
		v = wait_blocked(side, ev, cond, cmp, start, deadline);
	else
		v = wait_spinning(side, cond, cmp, deadline, hint != HSA_WAIT_STATE_ACTIVE);

	/* Release: pairs with the acquire loads in hl_signal_destroy's drain,
	 * so our last reads of the signal come before it is recycled. */
	atomic_fetch_sub_explicit(&side->users, 1, memory_order_release);
	return v;
}

static hsa_signal_value_t wait_api(hsa_signal_t s, hsa_signal_condition_t cond,
				   hsa_signal_value_t cmp, uint64_t timeout_hint,
				   hsa_wait_state_t hint)
{
	/* Every value load of the wait is an acquire (value_load): that is
	 * the acquire of the scacquire/acquire variants. */
	return hl_signal_wait(s, cond, cmp, hl_signal_ticks_to_ns(timeout_hint), hint);
}

hsa_signal_value_t hsa_signal_wait_relaxed(hsa_signal_t signal, hsa_signal_condition_t cond,
					   hsa_signal_value_t compare_value,
					   uint64_t timeout_hint, hsa_wait_state_t wait_state_hint)
{
	return wait_api(signal, cond, compare_value, timeout_hint, wait_state_hint);
}

hsa_signal_value_t hsa_signal_wait_scacquire(hsa_signal_t signal, hsa_signal_condition_t cond,
					     hsa_signal_value_t compare_value,
					     uint64_t timeout_hint, hsa_wait_state_t wait_state_hint)
{
	return wait_api(signal, cond, compare_value, timeout_hint, wait_state_hint);
}

hsa_signal_value_t hsa_signal_wait_acquire(hsa_signal_t signal, hsa_signal_condition_t cond,
					   hsa_signal_value_t compare_value,
					   uint64_t timeout_hint, hsa_wait_state_t wait_state_hint)
{
	return wait_api(signal, cond, compare_value, timeout_hint, wait_state_hint);
}
