/*
 * isa_gws.c — the global wave sync (GWS) block: 64 resources, each a
 * counter, a barrier phase flag and a queue of waiting waves, used by the
 * ds_gws_* instructions (executors in isa_exec_ds.c).
 *
 * Semantics, from the ISA guides' pseudocode (the Vega/CDNA ".arch"
 * descriptions of DS_GWS_*):
 *  - DS_GWS_INIT: counter = DATA of the first active lane; flag = 0;
 *  - DS_GWS_SEMA_V: counter++, type semaphore; DS_GWS_SEMA_BR: counter +=
 *    DATA; DS_GWS_SEMA_RELEASE_ALL: counter = number of queued waves;
 *    DS_GWS_SEMA_P: queue the wave until the counter is positive, then
 *    counter--.  Queued semaphore waves are released in arrival order;
 *  - DS_GWS_BARRIER (type barrier): a wave arriving while counter <= 0 is
 *    the last one: the flag flips, counter = its DATA (the next barrier's
 *    size - 1) and it goes on; any other arrival decrements the counter and
 *    is queued with the current flag, and is released once the flag differs
 *    from the one it queued with (and the resource is still a barrier).
 *    So a barrier of N waves needs counter = N - 1 before the first one
 *    arrives: DS_GWS_INIT (HIP's runtime dispatches __amd_rocclr_gwsInit
 *    with the workgroup count - 1 before a cooperative kernel; ockl's
 *    __ockl_grid_sync then passes the same value to every barrier).
 * The flag is kept as a 64-bit phase (flag = phase & 1), so a wave that was
 * released by a flip is never mistaken for a queued one even if the phase
 * moved again before it looked.  Semaphore waves hold a ticket; the
 * resource hands out tickets (enq) and serves them in order (deq).
 *
 * One mutex guards all 64 resources: a GWS operation is rare (a few per
 * workgroup per grid barrier).  It also orders the memory effects of the
 * waves before a release with those of the released waves, as the
 * hardware's barrier does with the fences ockl puts around it.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "isa_priv.h"

struct gws_res {
	int32_t counter;
	bool semaphore;
	uint64_t phase;         /* barrier flag = phase & 1 */
	uint64_t enq, deq;      /* semaphore tickets issued / served */
	uint32_t barrier_waiting;
};

struct kemu_isa_gws {
	_Atomic unsigned refs;
	pthread_mutex_t lock;
	struct gws_res res[KEMU_ISA_GWS_RESOURCES];
};

struct kemu_isa_gws *kemu_isa_gws_create(void)
{
	struct kemu_isa_gws *g = calloc(1, sizeof(*g));
	if (!g)
		return NULL;
	atomic_init(&g->refs, 1);
	pthread_mutex_init(&g->lock, NULL);
	return g;
}

void kemu_isa_gws_get(struct kemu_isa_gws *g)
{
	/* relaxed: taking a reference needs one already held */
	atomic_fetch_add_explicit(&g->refs, 1, memory_order_relaxed);
}

void kemu_isa_gws_put(struct kemu_isa_gws *g)
{
	if (!g)
		return;
	/* acq_rel: the last put sees every other holder's use of the state */
	if (atomic_fetch_sub_explicit(&g->refs, 1, memory_order_acq_rel) != 1)
		return;
	pthread_mutex_destroy(&g->lock);
	free(g);
}

int kemu_isa_gws_resource(struct kemu_isa_gws *g, unsigned rid,
			  struct kemu_isa_gws_resource *out)
{
	if (!g || !out || rid >= KEMU_ISA_GWS_RESOURCES)
		return -1;
	pthread_mutex_lock(&g->lock);
	const struct gws_res *r = &g->res[rid];
	out->counter = r->counter;
	out->flag = (unsigned)(r->phase & 1);
	out->semaphore = r->semaphore;
	out->waiting = (uint32_t)(r->enq - r->deq) + r->barrier_waiting;
	pthread_mutex_unlock(&g->lock);
	return 0;
}

/* The semaphore release machine: serve queued tickets while the counter is
 * positive.  Caller holds g->lock. */
static bool sema_release(struct gws_res *r)
{
	bool any = false;
	while (r->counter > 0 && r->deq < r->enq) {
		r->counter--;
		r->deq++;
		any = true;
	}
	return any;
}

bool isa_gws_op(struct kemu_isa_gws *g, unsigned op, unsigned rid, uint32_t value,
		uint64_t *token, bool *released)
{
	struct gws_res *r = &g->res[rid];
	bool wait = false;

	*released = false;
	pthread_mutex_lock(&g->lock);
	switch (op) {
	case ISA_DS_GWS_INIT:
		/* flag = 0: a phase with the flag set moves on, which releases
		 * waves queued under it (their flag now differs) */
		if (r->phase & 1) {
			r->phase++;
			*released = r->barrier_waiting != 0;
			r->barrier_waiting = 0;
		}
		r->counter = (int32_t)value;
		break;
	case ISA_DS_GWS_SEMA_V:
		r->semaphore = true;
		r->counter++;
		*released = sema_release(r);
		break;
	case ISA_DS_GWS_SEMA_BR:
		r->semaphore = true;
		r->counter += (int32_t)value;
		*released = sema_release(r);
		break;
	case ISA_DS_GWS_SEMA_RELEASE_ALL:
		r->semaphore = true;
		r->counter = (int32_t)(r->enq - r->deq);
		*released = sema_release(r);
		break;
	case ISA_DS_GWS_SEMA_P: {
		uint64_t before = r->deq;
		r->semaphore = true;
		*token = r->enq++;
		sema_release(r);
		wait = *token >= r->deq;
		/* others released: tickets served beyond the wave's own */
		*released = r->deq - before > (wait ? 0u : 1u);
		break;
	}
	default: /* ISA_DS_GWS_BARRIER */
		r->semaphore = false;
		*token = r->phase;
		if (r->counter <= 0) {
			r->phase++;
			r->counter = (int32_t)value;
			*released = r->barrier_waiting != 0;
			r->barrier_waiting = 0;
		} else {
			r->counter--;
			r->barrier_waiting++;
			wait = true;
		}
		break;
	}
	pthread_mutex_unlock(&g->lock);
	return wait;
}

bool isa_gws_released(struct kemu_isa_gws *g, unsigned op, unsigned rid, uint64_t token)
{
	const struct gws_res *r = &g->res[rid];
	bool done;

	pthread_mutex_lock(&g->lock);
	if (op == ISA_DS_GWS_SEMA_P)
		done = token < r->deq;
	else
		done = !r->semaphore && r->phase != token;
	pthread_mutex_unlock(&g->lock);
	return done;
}
