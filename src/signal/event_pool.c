/*
 * The event pool: KFD signal events (auto-reset) lent to signals.
 *
 * The kernel allows 4095 signal events per process (4096 event-page slots,
 * id 0 reserved) and CREATE_EVENT costs a syscall, so events are created on
 * demand, returned here when their signal dies and lent again; the kernel
 * object is destroyed only at the last hsa_shut_down.  User signals may hold
 * at most HL_SIGNAL_EVENTS_USER of them, leaving the rest for the runtime's
 * own signals.  Past the limit (or when CREATE_EVENT fails) a signal gets no
 * event: it works, but its waiters spin with a back-off, which the log says
 * once per runtime.  The pool is the runtime's (rt->signals, made at
 * hsa_init, gone at the last hsa_shut_down or a fork child's first call).
 *
 * A recycled event may still be signalled from its previous life; its next
 * waiter then wakes once, spuriously, and re-checks its value: cheaper than
 * a RESET_EVENT syscall on every create.
 *
 * An event may be lent to several holders at once (a shared event,
 * signal.h): refs counts them and the last put returns it.
 *
 * Locking: sg->pool_lock covers the lists and counters.
 */
#include <errno.h>
#include <stdlib.h>

#include "signal/signal_priv.h"
#include "util/log.h"

#define KFD_MINOR_EVENT_AGE 14

void hl_signal_event_pool_init(struct hl_signals *sg)
{
	pthread_mutex_init(&sg->pool_lock, NULL);
	sg->pool_free = sg->pool_all = NULL;
	sg->all_tail = &sg->pool_all;
	sg->n_user_lent = 0;
	sg->warned_user = sg->warned_kernel = false;
}

/* Caller holds pool_lock. */
static struct hl_signal_event *event_new(struct hl_signals *sg)
{
	struct hl_runtime *rt = sg->rt;
	struct hl_signal_event *ev = calloc(1, sizeof(*ev));
	if (!ev)
		return NULL;
	int err = kfd_event_create(rt->proc, KFD_EVENT_TYPE_SIGNAL, true, &ev->kev);
	if (err) {
		if (!sg->warned_kernel)
			hl_warn(SIGNAL_LOG, "CREATE_EVENT: %s: signals created from now on have no "
				"interrupt event; their waits spin with a back-off%s",
				hl_errno_name(err),
				err == -ENOSPC ? " (the kernel's 4095 signal events are in use)" : "");
		sg->warned_kernel = true;
		free(ev);
		return NULL;
	}
	ev->proc = rt->proc;
	ev->sg = sg;
	ev->ages = rt->proc->version_minor >= KFD_MINOR_EVENT_AGE;
	hl_store_relaxed(&ev->age, 1); /* the kernel starts every event at age 1 */
	*sg->all_tail = ev;
	sg->all_tail = &ev->all_next;
	return ev;
}

struct hl_signal_event *hl_signal_event_get(struct hl_signals *sg, bool internal)
{
	struct hl_signal_event *ev = NULL;
	pthread_mutex_lock(&sg->pool_lock);
	if (!internal && sg->n_user_lent >= HL_SIGNAL_EVENTS_USER) {
		if (!sg->warned_user)
			hl_warn(SIGNAL_LOG, "%u signals hold interrupt events (the per-process "
				"limit, less a reserve for queues): new signals have none and "
				"their waits spin with a back-off", sg->n_user_lent);
		sg->warned_user = true;
		goto out_unlock;
	}
	ev = sg->pool_free;
	if (ev)
		sg->pool_free = ev->next;
	else
		ev = event_new(sg);
	if (ev) {
		ev->next = NULL;
		ev->refs = 1;
		ev->lent_internal = internal;
		if (!internal)
			sg->n_user_lent++;
	}
out_unlock:
	pthread_mutex_unlock(&sg->pool_lock);
	return ev;
}

void hl_signal_event_put(struct hl_signals *sg, struct hl_signal_event *ev)
{
	if (!ev)
		return;
	pthread_mutex_lock(&sg->pool_lock);
	if (ev->refs > 1) {
		ev->refs--; /* a shared event with other holders left */
		pthread_mutex_unlock(&sg->pool_lock);
		return;
	}
	ev->refs = 0;
	if (!ev->lent_internal)
		sg->n_user_lent--;
	ev->next = sg->pool_free;
	sg->pool_free = ev;
	pthread_mutex_unlock(&sg->pool_lock);
}

struct hl_signal_event *hl_signal_shared_event_get(struct hl_runtime *rt)
{
	return rt && rt->signals ? hl_signal_event_get(rt->signals, true) : NULL;
}

void hl_signal_shared_event_ref(struct hl_signal_event *ev)
{
	if (!ev)
		return;
	pthread_mutex_lock(&ev->sg->pool_lock);
	ev->refs++;
	pthread_mutex_unlock(&ev->sg->pool_lock);
}

void hl_signal_shared_event_put(struct hl_signal_event *ev)
{
	if (ev)
		hl_signal_event_put(ev->sg, ev);
}

int hl_signal_shared_event_set(struct hl_signal_event *ev)
{
	if (!ev)
		return -EINVAL;
	return kfd_event_set(ev->proc, &ev->kev);
}

bool hl_signal_event_ages(const struct hl_signal_event *ev)
{
	return ev->ages;
}

void hl_signal_event_age_seen(struct hl_signal_event *ev, uint64_t age)
{
	uint64_t cur = hl_load_relaxed(&ev->age);
	/* Ages only grow (the kernel skips 0 and 1 on wrap, which 2^64 sets
	 * never reach).  Release: pairs with the acquire in
	 * hl_signal_event_age; the WAIT_EVENTS that returned age happened after
	 * the SET_EVENT that made it, so what the setter stored before is
	 * visible to whoever reads this age. */
	while (age > cur &&
	       !atomic_compare_exchange_weak_explicit(&ev->age, &cur, age, memory_order_release,
						      memory_order_relaxed))
		;
}

/* Frees every event record, destroying its KFD event when destroy is set
 * (a fork child's events are the parent's). */
static void pool_free_all(struct hl_signals *sg, bool destroy)
{
	struct hl_signal_event *ev = sg->pool_all;
	while (ev) {
		struct hl_signal_event *next = ev->all_next;
		if (destroy)
			kfd_event_destroy(ev->proc, &ev->kev);
		free(ev);
		ev = next;
	}
	sg->pool_all = NULL;
	sg->all_tail = &sg->pool_all;
	sg->pool_free = NULL;
	sg->n_user_lent = 0;
}

void hl_signal_event_pool_destroy(struct hl_signals *sg)
{
	pthread_mutex_lock(&sg->pool_lock);
	pool_free_all(sg, true);
	pthread_mutex_unlock(&sg->pool_lock);
}

void hl_signal_event_pool_forget(struct hl_signals *sg)
{
	pool_free_all(sg, false);
}
