/*
 * Asynchronous signal handlers and functions: hsa_amd_signal_async_handler,
 * hsa_amd_async_function, and the one service thread that runs them.
 *
 * No thread exists until the first handler or function: the first caller
 * creates it under svc->lock (so two first callers cannot start two), with a
 * private wake event from the pool's reserve.  The thread loops:
 *   1. snapshot the wake event's age, then under svc->lock take the pending
 *      functions, snapshot the age of every registered signal's event
 *      (de-duplicated), fence, and check every handler's condition, marking
 *      satisfied ones in_call;
 *   2. outside the lock, run the functions and the satisfied handlers; a
 *      handler returning false is removed, true keeps it registered (it is
 *      called again as soon as its condition holds: once per satisfied
 *      check, as in ROCr);
 *   3. if nothing ran, sleep in one WAIT_EVENTS on the wake event and all
 *      the signals' events, for at most IDLE_MS: an idle thread uses no CPU,
 *      and a wake whose SET_EVENT failed (logged with its errno) is noticed
 *      that late rather than never (the last hsa_shut_down would join the
 *      thread forever).  Signals without an event (the pool was exhausted)
 *      make it poll every 1 ms instead.
 * Each registration counts in its signal's sleepers, so stores SET_EVENT;
 * the missed-wakeup argument is wait.c's, with the fence in step 1.  New
 * work is queued under the lock and then the wake event is set: after the
 * thread's wake-age snapshot, so its next sleep returns at once.
 *
 * GPU-only signals (no event by design) are refused with INVALID_SIGNAL, as
 * ROCr does: polling them would burn a core.  Destroying a signal drops its
 * registrations (hl_signal_async_forget); a handler running at that moment
 * finishes.  The last hsa_shut_down stops and joins the thread
 * (hl_signal_async_stop); pending functions are dropped.  Called from a
 * handler, it cannot join itself: the thread is detached and exits when the
 * handler returns.
 *
 * The thread is named SVC_THREAD_NAME so tools and tests can tell it from
 * the application's (and kfdemu's) threads.
 */
#define _GNU_SOURCE /* pthread_setname_np */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "signal/signal_priv.h"
#include "util/log.h"

#define SVC_THREAD_NAME "hl-signal-async"
#define IDLE_MS 1000u /* the longest sleep: a lost wake costs at most this */

struct async_reg {
	struct hl_signal_side *side;   /* NULL for a function */
	hsa_signal_condition_t cond;
	int64_t value;
	hsa_amd_signal_handler handler;
	void (*func)(void *arg);
	void *arg;
	int64_t seen;                  /* value that satisfied the condition */
	bool in_call;                  /* the thread runs it now (under lock) */
	bool dead;                     /* removed while in_call: thread frees */
	struct async_reg *next;
	struct async_reg *call_next;   /* thread only */
};

/* What the thread is started with: the service, and the generation it
 * serves (a stop bumps svc->gen: the thread exits at its next look). */
struct service_arg {
	struct hl_signal_async *svc;
	uint64_t gen;
};

static _Thread_local bool on_service_thread;

/* Thread-only buffers for the WAIT_EVENTS list. */
struct wait_set {
	struct kfd_event *copies;
	struct kfd_event **list;
	struct hl_signal_event **evs;
	uint32_t n, cap;
	uint64_t round;
};

static int wait_set_add(struct wait_set *ws, struct hl_signal_event *ev)
{
	if (ws->n == ws->cap) {
		uint32_t cap = ws->cap ? ws->cap * 2 : 32;
		struct kfd_event *c = realloc(ws->copies, cap * sizeof(*c));
		if (c)
			ws->copies = c;
		struct kfd_event **l = realloc(ws->list, cap * sizeof(*l));
		if (l)
			ws->list = l;
		struct hl_signal_event **e = realloc(ws->evs, cap * sizeof(*e));
		if (e)
			ws->evs = e;
		if (!c || !l || !e)
			return -ENOMEM;
		ws->cap = cap;
	}
	ws->copies[ws->n] = ev->kev;
	ws->copies[ws->n].age = hl_signal_event_age(ev); /* before the checks */
	ws->evs[ws->n] = ev;
	ws->n++;
	return 0;
}

static void reg_unlink_locked(struct hl_signal_async *svc, struct async_reg *reg)
{
	for (struct async_reg **pp = &svc->regs; *pp; pp = &(*pp)->next)
		if (*pp == reg) {
			*pp = reg->next;
			return;
		}
}

/* Releases a registration's sleeper count.  Release: pairs with the acquire
 * drain in hl_signal_destroy. */
static void reg_release(struct async_reg *reg)
{
	atomic_fetch_sub_explicit(&reg->side->sleepers, 1, memory_order_release);
}

/* Step 1 (under svc->lock): the calls to make, and the events to sleep on.
 * *poll is set when a registered signal has no event. */
static struct async_reg *collect_locked(struct hl_signal_async *svc, struct wait_set *ws,
				       bool *poll)
{
	struct async_reg *calls = NULL, **tail = &calls;
	ws->n = 0;
	ws->round++;
	wait_set_add(ws, svc->wake);
	for (struct async_reg *r = svc->regs; r; r = r->next) {
		if (r->in_call)
			continue;
		struct hl_signal_event *ev = hl_load_relaxed(&r->side->event);
		if (!ev)
			*poll = true;
		else if (ev->svc_round != ws->round) {
			ev->svc_round = ws->round;
			if (wait_set_add(ws, ev))
				*poll = true; /* could not list it: poll instead */
		}
	}
	/* Pairs with signal_notify's seq_cst operations (ops.c): each
	 * registration is
	 * in its signal's sleepers, so a store we miss below sets the event
	 * after the age snapshots above. */
	hl_fence_seq_cst();
	for (struct async_reg *r = svc->regs; r; r = r->next) {
		if (r->in_call)
			continue;
		/* Acquire: pairs with the release of the store that
		 * satisfied the condition, as a scacquire wait would (a load,
		 * not a fence before the call: see value_load in wait.c). */
		int64_t v = hl_load_acquire(hl_signal_value(r->side->amd));
		if (hl_signal_satisfied(r->cond, v, r->value)) {
			r->in_call = true;
			r->seen = v;
			r->call_next = NULL;
			*tail = r;
			tail = &r->call_next;
		}
	}
	return calls;
}

/* Drops one reference to the service: the module state's (teardown, or a
 * fork child's forget), or the thread's, when it exits.  The thread holds
 * one so that a stop called from a handler, which detaches the thread
 * instead of joining it, cannot free the lock and lists under it.
 * Acq_rel: the last one sees every other's last writes. */
static void svc_unref(struct hl_signal_async *svc)
{
	if (atomic_fetch_sub_explicit(&svc->refs, 1, memory_order_acq_rel) != 1)
		return;
	pthread_mutex_destroy(&svc->lock);
	free(svc);
}

static void *service_main(void *argp)
{
	struct service_arg *arg = argp;
	struct hl_signal_async *svc = arg->svc;
	uint64_t gen = arg->gen;
	free(arg);
	struct wait_set ws = { 0 };
	on_service_thread = true;

	for (;;) {
		bool poll = false;
		pthread_mutex_lock(&svc->lock);
		if (svc->gen != gen) {
			pthread_mutex_unlock(&svc->lock);
			break;
		}
		struct hl_signal_event *wake = svc->wake;
		struct async_reg *funcs = svc->funcs;
		svc->funcs = NULL;
		svc->funcs_tail = &svc->funcs;
		struct async_reg *calls = collect_locked(svc, &ws, &poll);
		pthread_mutex_unlock(&svc->lock);

		bool ran = funcs || calls;
		while (funcs) {
			struct async_reg *f = funcs;
			funcs = f->next;
			f->func(f->arg);
			free(f);
		}
		while (calls) {
			struct async_reg *r = calls;
			calls = r->call_next;
			/* ordered after the store that satisfied the condition
			 * by collect_locked's acquire load of it (r->seen) */
			bool keep = r->handler(r->seen, r->arg);
			pthread_mutex_lock(&svc->lock);
			r->in_call = false;
			if (r->dead) {
				free(r);
			} else if (!keep) {
				reg_unlink_locked(svc, r);
				reg_release(r);
				free(r);
			}
			pthread_mutex_unlock(&svc->lock);
		}
		if (ran)
			continue;

		for (uint32_t i = 0; i < ws.n; i++)
			ws.list[i] = &ws.copies[i];
		uint32_t result;
		int err = kfd_event_wait(wake->proc, ws.list, ws.n, false,
					 poll ? 1 : IDLE_MS, &result, NULL);
		if (err) {
			hl_error(SIGNAL_LOG, "async handlers: WAIT_EVENTS: %s; polling",
				 hl_errno_name(err));
			struct hl_backoff b = { .step = UINT32_MAX - 1 }; /* a nap */
			hl_backoff(&b, true);
		} else if (result == KFD_WAIT_COMPLETE) {
			for (uint32_t i = 0; i < ws.n; i++)
				hl_signal_event_age_seen(ws.evs[i], ws.copies[i].age);
		}
	}
	free(ws.copies);
	free(ws.list);
	free(ws.evs);
	svc_unref(svc);
	return NULL;
}

/* Caller holds svc->lock. */
static int start_locked(struct hl_signals *sg)
{
	struct hl_signal_async *svc = sg->svc;
	if (svc->started)
		return 0;
	struct service_arg *arg = malloc(sizeof(*arg));
	if (!arg)
		return -ENOMEM;
	*arg = (struct service_arg){ .svc = svc, .gen = svc->gen };
	svc->wake = hl_signal_event_get(sg, true);
	if (!svc->wake) {
		free(arg);
		hl_error(SIGNAL_LOG, "async handlers: no event left for the service thread");
		return -ENOSPC;
	}
	atomic_fetch_add_explicit(&svc->refs, 1, memory_order_relaxed); /* the thread's */
	int err = -pthread_create(&svc->thread, NULL, service_main, arg);
	if (err) {
		hl_error(SIGNAL_LOG, "async handlers: pthread_create: %s", hl_errno_name(err));
		atomic_fetch_sub_explicit(&svc->refs, 1, memory_order_relaxed);
		free(arg);
		hl_signal_event_put(sg, svc->wake);
		svc->wake = NULL;
		return err;
	}
	pthread_setname_np(svc->thread, SVC_THREAD_NAME);
	svc->started = true;
	hl_debug(SIGNAL_LOG, "async service thread started");
	return 0;
}

/* A failure is logged: the thread then notices within IDLE_MS. */
static void wake_service(struct hl_signal_event *wake, const char *why)
{
	int err = kfd_event_set(wake->proc, &wake->kev);
	if (err)
		hl_error(SIGNAL_LOG, "async handlers: waking the thread to %s: SET_EVENT: %s; it "
			 "notices within %u ms", why, hl_errno_name(err), IDLE_MS);
}

/* Queues reg (a handler when reg->side, else a function) and wakes the
 * thread, starting it first if needed. */
static hsa_status_t submit(struct hl_runtime *rt, struct async_reg *reg)
{
	struct hl_signal_async *svc = rt->signals->svc;
	pthread_mutex_lock(&svc->lock);
	int err = start_locked(rt->signals);
	if (err) {
		pthread_mutex_unlock(&svc->lock);
		free(reg);
		return hl_status_from_errno(err);
	}
	/* Under svc->lock, a destroy that changed the state before its
	 * hl_signal_async_forget is seen here, so no registration outlives
	 * its signal. */
	if (reg->side && hl_load_relaxed(&reg->side->state) != HL_SIGNAL_LIVE) {
		pthread_mutex_unlock(&svc->lock);
		free(reg);
		return HSA_STATUS_ERROR_INVALID_SIGNAL;
	}
	if (reg->side) {
		atomic_fetch_add_explicit(&reg->side->sleepers, 1, memory_order_relaxed);
		reg->next = svc->regs;
		svc->regs = reg;
	} else {
		*svc->funcs_tail = reg;
		svc->funcs_tail = &reg->next;
	}
	struct hl_signal_event *wake = svc->wake;
	pthread_mutex_unlock(&svc->lock);
	wake_service(wake, "take new work");
	return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_signal_async_handler(hsa_signal_t signal, hsa_signal_condition_t cond,
					  hsa_signal_value_t value,
					  hsa_amd_signal_handler handler, void *arg)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!handler || (unsigned)cond > HSA_SIGNAL_CONDITION_GTE)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	struct hl_signal_side *side = hl_signal_side_live(signal.handle);
	if (!side || hl_load_relaxed(&side->kind) != AMD_SIGNAL_KIND_USER || !side->wants_event)
		return hl_signal_bad_handle(signal.handle);
	struct async_reg *reg = calloc(1, sizeof(*reg));
	if (!reg)
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	reg->side = side;
	reg->cond = cond;
	reg->value = value;
	reg->handler = handler;
	reg->arg = arg;
	return submit(rt, reg);
}

hsa_status_t hsa_amd_async_function(void (*callback)(void *arg), void *arg)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!callback)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	struct async_reg *reg = calloc(1, sizeof(*reg));
	if (!reg)
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	reg->func = callback;
	reg->arg = arg;
	return submit(rt, reg);
}

void hl_signal_async_forget(struct hl_signal_side *side)
{
	struct hl_signal_async *svc = hl_signal_owner(side)->svc;
	pthread_mutex_lock(&svc->lock);
	struct async_reg **pp = &svc->regs;
	while (*pp) {
		struct async_reg *r = *pp;
		if (r->side != side) {
			pp = &r->next;
			continue;
		}
		*pp = r->next;
		reg_release(r);
		if (r->in_call)
			r->dead = true;
		else
			free(r);
	}
	pthread_mutex_unlock(&svc->lock);
}

/* Caller holds svc->lock, or is a fork child's forget step; the thread is
 * gone or detached. */
static void drop_all_locked(struct hl_signal_async *svc, bool release_counts)
{
	while (svc->regs) {
		struct async_reg *r = svc->regs;
		svc->regs = r->next;
		if (release_counts)
			reg_release(r);
		if (r->in_call)
			r->dead = true; /* a detached thread still runs it */
		else
			free(r);
	}
	while (svc->funcs) {
		struct async_reg *f = svc->funcs;
		svc->funcs = f->next;
		free(f);
	}
	svc->funcs_tail = &svc->funcs;
	svc->started = false;
	svc->gen++;
}

int hl_signal_async_init(struct hl_signals *sg)
{
	struct hl_signal_async *svc = calloc(1, sizeof(*svc));
	if (!svc)
		return -ENOMEM;
	pthread_mutex_init(&svc->lock, NULL);
	svc->funcs_tail = &svc->funcs;
	atomic_init(&svc->refs, 1); /* the module state's */
	sg->svc = svc;
	return 0;
}

void hl_signal_async_stop(struct hl_runtime *rt)
{
	if (!rt->signals)
		return; /* torn down already, or never attached */
	struct hl_signals *sg = rt->signals;
	struct hl_signal_async *svc = sg->svc;
	pthread_mutex_lock(&svc->lock);
	if (!svc->started) {
		drop_all_locked(svc, true);
		pthread_mutex_unlock(&svc->lock);
		return;
	}
	struct hl_signal_event *wake = svc->wake;
	pthread_t thread = svc->thread;
	svc->gen++; /* the thread exits at its next look */
	pthread_mutex_unlock(&svc->lock);
	wake_service(wake, "stop");
	if (on_service_thread)
		pthread_detach(thread); /* it drops its reference on the way out */
	else
		pthread_join(thread, NULL);

	pthread_mutex_lock(&svc->lock);
	drop_all_locked(svc, true);
	hl_signal_event_put(sg, svc->wake);
	svc->wake = NULL;
	pthread_mutex_unlock(&svc->lock);
	hl_debug(SIGNAL_LOG, "async service thread stopped");
}

void hl_signal_async_destroy(struct hl_signals *sg)
{
	svc_unref(sg->svc);
	sg->svc = NULL;
}

void hl_signal_async_forget_all(struct hl_signals *sg)
{
	/* A fork child's forget step: the thread did not come along (its
	 * reference goes with it), the lock may have been held at the fork,
	 * the wake event is the parent's (the pool forgets it). */
	struct hl_signal_async *svc = sg->svc;
	drop_all_locked(svc, false); /* in_call ones are the dead thread's: left */
	free(svc);
	sg->svc = NULL;
}
