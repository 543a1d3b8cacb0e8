/*
 * Queue errors: the service thread that turns what the CP and KFD report
 * into the user's error callback, with the status ROCr would give.
 *
 * Two channels (hsa-abi-and-rocr.md §1.5, the CP contract in queue.h):
 *  - the CP writes an error code into a queue's queue_inactive_signal and
 *    interrupts through the signal's KFD event (from src/signal's pool);
 *  - KFD raises process-wide MEMORY (GPU page fault) and HW_EXCEPTION (GPU
 *    reset) events; every queue of that GPU has stopped.
 *
 * GPU memory faults go first to the system event handlers
 * (src/runtime/system_event.c: ROCr's VMFaultHandler, which prints its
 * message and aborts when no handler takes the fault), then, if the process
 * is still alive, to every queue of that GPU as MEMORY_FAULT.  ROCr 5.2.3
 * never reports a VM fault to a queue callback (its ExceptionHandler drops
 * MEMORY_FAULT): ours is the only way a waiter on a stopped queue learns of
 * it, where ROCr's would wait forever.
 *
 * Scratch requests: an out-of-scratch code is not an error while scratch
 * can grow: the thread grows the queue's scratch and stores 0 into the
 * signal, and the CP retries the packet (scratch.c, queue.h).
 *
 * Lifetime: the thread exists while at least one listed queue is live or
 * one of the runtime's own engines (an unlisted queue, an SDMA queue) holds
 * it: anything that runs on the GPU can fault, and a fault must reach the
 * system event handlers or ROCr's default abort (ROCr's async-events thread
 * runs from hsa_init; ours waits for the first thing that can fault).  The
 * first queue or hold starts it (with the MEMORY and HW_EXCEPTION events;
 * its wake is the registry's error_event, the one KFD event every queue's
 * inactive signal interrupts through, so a new queue needs no SET_EVENT to
 * be watched and costs no CREATE_EVENT); destroying the last one stops it
 * (a SET_EVENT on the wake; in the last hsa_shut_down the DESTROY_EVENT of
 * its MEMORY event, which wakes it as well: service_stop_locked), and
 * whoever runs next without the registry's lock joins it
 * (hl_queue_service_reap) and destroys its two events.  A wake is then
 * also what a queue's error looks like: each round checks every queue's
 * value, so either kind of wake is found by the same look.  A stopped service whose
 * thread is still finishing a callback stays on the list until joined, so
 * a callback may destroy its own queue (the thread cannot join itself).
 *
 * Waking without losing an error (src/signal's contract, signal.h):
 *  - each live queue is counted in its inactive signal's sleepers (attach),
 *    followed by a seq_cst fence, so a host store to the signal issues
 *    SET_EVENT; the CP always interrupts when the mailbox is set;
 *  - each round snapshots the event ages *before* checking the values and
 *    waits passing those ages, so a SET between the check and the wait makes
 *    WAIT_EVENTS return at once (KFD 1.14+; older KFDs are polled every
 *    10 ms, as is a queue whose signal got no event).
 *  - no wait is unbounded: an idle thread wakes every SVC_IDLE_MS and looks
 *    again, so a wake whose SET_EVENT failed (logged with its errno) costs
 *    that long instead of a thread that never learns it must stop (a
 *    hsa_shut_down joining it forever, KFDEMU_FAIL=ioctl:SET_EVENT:N).  One
 *    WAIT_EVENTS a second is no measurable cost.
 *
 * Locking: the thread reads the registry and marks queues under
 * qs->lock, and runs callbacks without it, with svc->current naming
 * the queue; destroy waits on qs->idle until no service is inside
 * that queue's callback.
 */
#define _GNU_SOURCE /* pthread_setname_np */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "queue/queue_priv.h"
#include "runtime/status.h"
#include "util/log.h"

#define SVC_POLL_MS 10u
#define SVC_IDLE_MS 1000u /* the longest wait: a lost wake costs at most this */
#define SVC_THREAD_NAME "hl-queue-errors" /* 15 characters: the kernel's limit */
#define SVC_FIXED_EVENTS 3u /* wake (shared), memory, hw exception */

struct hl_queue_service {
	struct hl_runtime *rt;
	pthread_t thread;
	bool stop;                      /* under qs->lock */
	bool started;                   /* the thread was created */
	struct hl_queue *current;       /* callback running, under the lock */
	struct hl_signal_event *wake;   /* the registry's error_event (a
	                                 * reference of ours) */
	struct kfd_event memory, hw;
	bool have_memory, have_hw;
	bool memory_gone;               /* destroyed to stop the thread (under
	                                 * qs->lock; read by the joiner) */
	struct hl_queue_service *next;  /* every unjoined service (the
	                                 * registry's services), under lock */
};

/* ---- status mapping ---- */

hsa_status_t hl_queue_error_status(int64_t value, bool *fatal)
{
	uint64_t code = (uint64_t)value;
	*fatal = true;
	/* ROCr's order: scratch first (reported only when it cannot grow),
	 * then the one-shot release, then the error bits. */
	if (code & (HL_QUEUE_ERR_SCRATCH_WAVE64 | HL_QUEUE_ERR_SCRATCH_WAVE32))
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	if (code == HL_QUEUE_ERR_SCRATCH_ONCE) {
		*fatal = false;
		return HSA_STATUS_SUCCESS;
	}
	if (code & HL_QUEUE_ERR_DIMENSION)
		return HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS;
	if (code & HL_QUEUE_ERR_GROUP_MEMORY)
		return HSA_STATUS_ERROR_INVALID_ALLOCATION;
	if (code & HL_QUEUE_ERR_CODE_OBJECT)
		return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
	if (code & (HL_QUEUE_ERR_PACKET_FORMAT | HL_QUEUE_ERR_VENDOR_PACKET))
		return HSA_STATUS_ERROR_INVALID_PACKET_FORMAT;
	if (code & HL_QUEUE_ERR_GROUP_TOO_LARGE)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	if (code & HL_QUEUE_ERR_VGPRS)
		return (hsa_status_t)HSA_STATUS_ERROR_OUT_OF_REGISTERS;
	if (code & HL_QUEUE_ERR_APERTURE)
		return (hsa_status_t)HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION;
	if (code & HL_QUEUE_ERR_ILLEGAL_INSN)
		return (hsa_status_t)HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION;
	if (code & HL_QUEUE_ERR_TRAP)
		return HSA_STATUS_ERROR_EXCEPTION;
	return HSA_STATUS_ERROR;
}

static _Atomic int64_t *inactive_value(const struct hl_queue *q)
{
	/* The handle is the amd_signal_t address (src/signal). */
	amd_signal_t *s = (amd_signal_t *)(uintptr_t)q->inactive_signal.handle;
	return hl_signal_value(s);
}

static void log_error(const struct hl_queue *q, hsa_status_t st, const char *cause,
		      uint64_t code)
{
	char why[48];
	if (code)
		snprintf(why, sizeof(why), "%s 0x%llx", cause, (unsigned long long)code);
	else
		snprintf(why, sizeof(why), "%s", cause);
	hl_error(QUEUE_LOG, "queue %llu (KFD queue %u, GPU 0x%x) stopped: %s (%s)%s",
		 (unsigned long long)q->amd->hsa_queue.id, q->queue_id, q->gpu_id,
		 hl_status_name(st), why,
		 q->callback ? "" : "; no error callback, the process continues");
}

void hl_queue_error_log_unreported(struct hl_queue *q)
{
	if (q->error_reported || !q->inactive_signal.handle)
		return;
	if (q->pending_fault) {
		log_error(q, q->pending_fault, "GPU fault or reset", 0);
		return;
	}
	/* Pairs with the CP's release store of the error code. */
	int64_t v = atomic_load_explicit(inactive_value(q), memory_order_acquire);
	bool fatal;
	hsa_status_t st = hl_queue_error_status(v, &fatal);
	if (v && fatal)
		log_error(q, st, "CP code", (uint64_t)v);
}

/* ---- the thread ---- */

/* The next queue with an error to report, marked reported.  Caller holds
 * qs->lock. */
static struct hl_queue *take_pending_locked(struct hl_queues *qs, hsa_status_t *st,
					    uint64_t *code)
{
	for (struct hl_queue *q = qs->live; q; q = q->next) {
		if (q->error_reported)
			continue;
		if (q->pending_fault) {
			*st = q->pending_fault;
			*code = 0;
		} else {
			/* Pairs with the CP's release store of the code (or
			 * the host's hsa_signal_store_screlease). */
			int64_t v = atomic_load_explicit(inactive_value(q), memory_order_acquire);
			if (!v)
				continue;
			uint64_t scratch = HL_QUEUE_ERR_SCRATCH_WAVE64 | HL_QUEUE_ERR_SCRATCH_WAVE32;
			if (((uint64_t)v & scratch) && !((uint64_t)v & ~scratch) &&
			    !hl_queue_scratch_grow_locked(qs->rt, q)) {
				/* Release: the new scratch fields come before
				 * the 0 the CP polls for (it then re-reads
				 * them and retries the packet). */
				atomic_store_explicit(inactive_value(q), 0, memory_order_release);
				continue;
			}
			bool fatal;
			*st = hl_queue_error_status(v, &fatal);
			*code = (uint64_t)v;
			if (!fatal) {
				/* One-shot scratch release: nothing to free
				 * (we never ask for it); 0 resumes the CP. */
				hl_warn(QUEUE_LOG, "queue %llu: unexpected one-shot scratch "
					"release; resuming", (unsigned long long)q->amd->hsa_queue.id);
				atomic_store_explicit(inactive_value(q), 0, memory_order_release);
				continue;
			}
		}
		q->error_reported = true;
		/* The queue is already stopped: by the CP, which stops fetching
		 * when it reports a code, or by KFD, which evicts the device's
		 * queues on a VM fault or reset.  ROCr also issues UPDATE_QUEUE
		 * with percentage 0 here (Suspend); we only record it, so later
		 * priority updates keep the queue inactive, and never make the
		 * service thread wait on the CP inside an ioctl. */
		q->suspended = true;
		return q;
	}
	return NULL;
}

/* Runs without qs->lock, with svc->current = q (destroy waits). */
static void report(struct hl_queue *q, hsa_status_t st, uint64_t code)
{
	log_error(q, st, code ? "CP code" : "GPU fault or reset", code);
	if (q->callback)
		q->callback(st, &q->amd->hsa_queue, q->data);
}

static const struct hl_agent *agent_of_gpu(const struct hl_runtime *rt, uint32_t gpu_id)
{
	for (uint32_t i = 0; i < rt->n_agents; i++)
		if (rt->agents[i].gpu && rt->agents[i].gpu->gpu_id == gpu_id)
			return &rt->agents[i];
	return NULL;
}

/* Faults and resets handled per GPU (the registry's gpu_faults): a short
 * table (a process has few GPUs), slots claimed in order under qs->lock and
 * never released; read lock-free.  Caller holds qs->lock. */
static void gpu_faults_count_locked(struct hl_queues *qs, uint32_t gpu_id)
{
	for (uint32_t i = 0; i < HL_QUEUE_FAULT_GPUS_MAX; i++) {
		uint32_t id = hl_load_relaxed(&qs->gpu_faults[i].gpu_id);
		if (id && id != gpu_id)
			continue;
		atomic_fetch_add_explicit(&qs->gpu_faults[i].n, 1, memory_order_relaxed);
		/* Release: pairs with the acquire in hl_queue_gpu_faults, so a
		 * reader that finds the id sees its first count. */
		if (!id)
			hl_store_release(&qs->gpu_faults[i].gpu_id, gpu_id);
		return;
	}
	hl_warn(QUEUE_LOG, "GPU 0x%x: more than %u GPUs faulted; its engines are not "
		"replaced", gpu_id, HL_QUEUE_FAULT_GPUS_MAX);
}

uint32_t hl_queue_gpu_faults(const struct hl_runtime *rt, uint32_t gpu_id)
{
	const struct hl_queues *qs = rt ? rt->queues : NULL;
	if (!qs)
		return 0;
	for (uint32_t i = 0; i < HL_QUEUE_FAULT_GPUS_MAX; i++) {
		uint32_t id = hl_load_acquire(&qs->gpu_faults[i].gpu_id);
		if (!id)
			break;
		if (id == gpu_id)
			return hl_load_relaxed(&qs->gpu_faults[i].n);
	}
	return 0;
}

bool hl_queue_stopped(const struct hl_queue *q)
{
	/* Relaxed: a hint; whoever acts on it re-reads under its own lock. */
	return atomic_load_explicit(inactive_value(q), memory_order_relaxed) != 0;
}

/* Marks every queue of gpu_id with st, and every unlisted one stopped (the
 * OR wakes a runtime thread waiting on it; its owner replaces it at next
 * use), and counts the fault for the runtime's other engines.  Caller
 * holds qs->lock. */
static void mark_gpu_locked(struct hl_queues *qs, uint32_t gpu_id, hsa_status_t st,
			    const char *what)
{
	uint32_t n = 0;
	for (struct hl_queue *q = qs->live; q; q = q->next) {
		if (q->gpu_id != gpu_id || q->error_reported || q->pending_fault)
			continue;
		q->pending_fault = st;
		n++;
	}
	gpu_faults_count_locked(qs, gpu_id);
	for (struct hl_queue *q = qs->unlisted; q; q = q->next)
		if (q->gpu_id == gpu_id)
			hsa_signal_or_screlease(q->inactive_signal, (hsa_signal_value_t)
						HL_QUEUE_ERR_FAULT_STOPPED);
	if (!n)
		hl_error(QUEUE_LOG, "%s on GPU 0x%x: no live queue to report it to", what, gpu_id);
}

/* After the system event handlers took the fault (or none was watching).
 * Caller holds qs->lock. */
static void handle_memory_fault_locked(struct hl_runtime *rt, const struct kfd_event_data *d)
{
	const struct kfd_hsa_memory_exception_data *m = &d->memory_exception_data;
	const struct hl_agent *a = agent_of_gpu(rt, m->gpu_id);
	/* An address past the GPUVM aperture is outside every aperture (ROCr's
	 * "address above 48 bits"); anything else is a page fault. */
	hsa_status_t st = (hsa_status_t)HSA_STATUS_ERROR_MEMORY_FAULT;
	if (a && m->va > a->gpu->apertures.gpuvm_limit)
		st = (hsa_status_t)HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION;
	hl_error(QUEUE_LOG, "memory access fault by GPU node-%u on address 0x%llx: %s%s%s%s",
		 a ? a->node_id : 0, (unsigned long long)m->va,
		 m->failure.NotPresent ? "page not present " : "",
		 m->failure.ReadOnly ? "write to read-only page " : "",
		 m->failure.NoExecute ? "execute of non-executable page " : "",
		 m->failure.imprecise ? "(imprecise)" : "");
	/* Every live queue of that GPU keeps its first fault for
	 * hsa_amd_queue_get_info: KFD's MEMORY event names the GPU, not the
	 * queue, and a fault stops every queue of the process on it. */
	uint32_t reason = hl_memory_fault_reason_mask(m);
	for (struct hl_queue *q = rt->queues->live; q; q = q->next) {
		if (q->gpu_id != m->gpu_id || q->vm_fault)
			continue;
		q->vm_fault = true;
		q->vm_fault_va = m->va;
		q->vm_fault_reason = reason;
	}
	mark_gpu_locked(rt->queues, m->gpu_id, st, "memory fault");
}

static void handle_hw_exception_locked(struct hl_queues *qs, const struct kfd_event_data *d)
{
	const struct kfd_hsa_hw_exception_data *h = &d->hw_exception_data;
	hl_error(QUEUE_LOG, "HW exception on GPU 0x%x: reset type %u, cause %u%s", h->gpu_id,
		 h->reset_type, h->reset_cause, h->memory_lost ? ", memory lost" : "");
	mark_gpu_locked(qs, h->gpu_id, HSA_STATUS_ERROR, "HW exception");
}

struct wait_list {
	struct kfd_event *evs;          /* copies, with the ages to pass */
	struct kfd_event **ptrs;
	struct hl_signal_event **owners; /* NULL for the fixed events */
	struct kfd_event_data *data;
	uint32_t n, cap;
	bool poll;
};

static int wait_list_reserve(struct wait_list *wl, uint32_t n)
{
	if (n <= wl->cap)
		return 0;
	uint32_t cap = n * 2;
	struct kfd_event *evs = calloc(cap, sizeof(*evs));
	struct kfd_event **ptrs = calloc(cap, sizeof(*ptrs));
	struct hl_signal_event **owners = calloc(cap, sizeof(*owners));
	struct kfd_event_data *data = calloc(cap, sizeof(*data));
	if (!evs || !ptrs || !owners || !data) {
		free(evs);
		free(ptrs);
		free(owners);
		free(data);
		return -ENOMEM;
	}
	free(wl->evs);
	free(wl->ptrs);
	free(wl->owners);
	free(wl->data);
	wl->evs = evs;
	wl->ptrs = ptrs;
	wl->owners = owners;
	wl->data = data;
	wl->cap = cap;
	return 0;
}

static void wait_list_add(struct wait_list *wl, const struct kfd_event *ev, uint64_t age,
			  struct hl_signal_event *owner)
{
	wl->evs[wl->n] = *ev;
	wl->evs[wl->n].age = age;
	wl->ptrs[wl->n] = &wl->evs[wl->n];
	wl->owners[wl->n] = owner;
	wl->n++;
}

/* Snapshots the events to wait on, with their ages, before the caller
 * checks the values.  Caller holds qs->lock. */
static int wait_list_build_locked(struct hl_queue_service *svc, struct wait_list *wl)
{
	struct hl_queues *qs = svc->rt->queues;
	int err = wait_list_reserve(wl, qs->n_live + SVC_FIXED_EVENTS);
	if (err)
		return err;
	wl->n = 0;
	wl->poll = svc->rt->proc->version_minor < 14;
	struct kfd_event wake;
	hl_signal_event_wait_entry(svc->wake, &wake);
	wait_list_add(wl, &wake, wake.age, svc->wake);
	if (svc->have_memory)
		wait_list_add(wl, &svc->memory, 0, NULL);
	if (svc->have_hw)
		wait_list_add(wl, &svc->hw, 0, NULL);
	for (struct hl_queue *q = qs->live; q; q = q->next) {
		struct kfd_event kev;
		struct hl_signal_event *ev = hl_signal_wait_entry(q->inactive_signal.handle, &kev);
		if (!ev) {
			wl->poll = true;
			continue;
		}
		if (ev != svc->wake) /* the shared one is in the list already */
			wait_list_add(wl, &kev, kev.age, ev);
	}
	return 0;
}

static void nap(uint32_t ms)
{
	struct timespec ts = { 0, (long)ms * 1000000L };
	nanosleep(&ts, NULL);
}

/* One WAIT_EVENTS on the list; records the ages seen and handles the
 * process-wide events.  Runs without qs->lock.  A failed wait returns its
 * -errno: -EIO or -EINVAL when an event of the list is gone, which is how
 * the last hsa_shut_down stops the thread (service_stop_locked); the
 * caller logs it only when it did not stop us. */
static int wait_round(struct hl_queue_service *svc, struct wait_list *wl)
{
	memset(wl->data, 0, wl->n * sizeof(*wl->data));
	uint32_t result = 0;
	int err = kfd_event_wait_quiet(svc->rt->proc, wl->ptrs, wl->n, false,
				       wl->poll ? SVC_POLL_MS : SVC_IDLE_MS, &result,
				       wl->data);
	if (err)
		return err;
	if (result != KFD_WAIT_COMPLETE)
		return 0;
	bool fault = false, reset = false;
	for (uint32_t i = 0; i < wl->n; i++) {
		const struct kfd_event *ev = &wl->evs[i];
		if (wl->owners[i]) /* the wake (shared) or a queue's own event */
			hl_signal_event_age_seen(wl->owners[i], ev->age);
		else if (svc->have_memory && ev->id == svc->memory.id)
			fault = wl->data[i].memory_exception_data.gpu_id != 0;
		else if (svc->have_hw && ev->id == svc->hw.id)
			reset = wl->data[i].hw_exception_data.gpu_id != 0;
	}
	if (fault || reset) {
		/* The handlers first, without the lock (they may call the
		 * API; with none taking the fault this aborts), then the
		 * queues. */
		for (uint32_t i = 0; fault && i < wl->n; i++)
			if (wl->evs[i].id == svc->memory.id)
				hl_system_event_memory_fault(svc->rt,
							     &wl->data[i].memory_exception_data);
		for (uint32_t i = 0; reset && i < wl->n; i++)
			if (wl->evs[i].id == svc->hw.id)
				hl_system_event_hw_exception(svc->rt,
							     &wl->data[i].hw_exception_data);
		struct hl_queues *qs = svc->rt->queues;
		pthread_mutex_lock(&qs->lock);
		for (uint32_t i = 0; i < wl->n; i++) {
			if (fault && wl->evs[i].id == svc->memory.id)
				handle_memory_fault_locked(svc->rt, &wl->data[i]);
			if (reset && wl->evs[i].id == svc->hw.id)
				handle_hw_exception_locked(qs, &wl->data[i]);
		}
		pthread_mutex_unlock(&qs->lock);
	}
	return 0;
}

static void *service_main(void *arg)
{
	struct hl_queue_service *svc = arg;
	struct hl_queues *qs = svc->rt->queues; /* outlives the thread (joined) */
	struct wait_list wl = { 0 };

	pthread_mutex_lock(&qs->lock);
	while (!svc->stop) {
		if (wait_list_build_locked(svc, &wl)) {
			pthread_mutex_unlock(&qs->lock);
			nap(SVC_POLL_MS);
			pthread_mutex_lock(&qs->lock);
			continue;
		}
		hsa_status_t st;
		uint64_t code;
		struct hl_queue *q = take_pending_locked(qs, &st, &code);
		if (q) {
			svc->current = q;
			pthread_mutex_unlock(&qs->lock);
			report(q, st, code);
			pthread_mutex_lock(&qs->lock);
			svc->current = NULL;
			pthread_cond_broadcast(&qs->idle);
			continue;
		}
		pthread_mutex_unlock(&qs->lock);
		int err = wait_round(svc, &wl);
		pthread_mutex_lock(&qs->lock);
		if (err && !svc->stop) {
			/* Not our stop: an event vanished under us or the
			 * kernel refused (that one kfd_event_wait logged). */
			if (err == -EIO || err == -EINVAL)
				hl_error(QUEUE_LOG, "error service: WAIT_EVENTS: %s (an event it "
					 "waits on is gone); trying again in %u ms",
					 hl_errno_name(err), SVC_POLL_MS);
			pthread_mutex_unlock(&qs->lock);
			nap(SVC_POLL_MS);
			pthread_mutex_lock(&qs->lock);
		}
	}
	pthread_mutex_unlock(&qs->lock);
	free(wl.evs);
	free(wl.ptrs);
	free(wl.owners);
	free(wl.data);
	return NULL;
}

/* ---- start, stop, join ---- */

static void service_free_events(struct hl_queue_service *svc)
{
	struct kfd_process *proc = svc->rt->proc;
	if (svc->have_hw)
		kfd_event_destroy(proc, &svc->hw);
	if (svc->have_memory && !svc->memory_gone)
		kfd_event_destroy(proc, &svc->memory);
	hl_signal_shared_event_put(svc->wake);
	svc->wake = NULL;
}

/* Caller holds qs->lock. */
static int service_start_locked(struct hl_runtime *rt)
{
	struct hl_queue_service *svc = calloc(1, sizeof(*svc));
	if (!svc)
		return -ENOMEM;
	svc->rt = rt;
	/* The wake is the event every queue's inactive signal interrupts
	 * through (queue.c makes it with the first queue; a hold with no
	 * queue yet makes it here): a new queue is then already in the
	 * thread's wait. */
	struct hl_queues *qs = rt->queues;
	if (!qs->error_event)
		qs->error_event = hl_signal_shared_event_get(rt);
	int err = -ENOSPC; /* the pool logged why it has none */
	if (!qs->error_event)
		goto err_free_svc;
	svc->wake = qs->error_event;
	hl_signal_shared_event_ref(svc->wake);
	/* ROCr's BindErrorHandlers creates these manual-reset, but it aborts
	 * on the first fault; the kernel lets the CPU reset only signal
	 * events (RESET_EVENT is EINVAL here), so a manual-reset MEMORY event
	 * would stay signalled and spin us.  Auto-reset: one wake per fault. */
	svc->have_memory = !kfd_event_create(rt->proc, KFD_EVENT_TYPE_MEMORY, true, &svc->memory);
	svc->have_hw = !kfd_event_create(rt->proc, KFD_EVENT_TYPE_HW_EXCEPTION, true, &svc->hw);
	if (!svc->have_memory || !svc->have_hw)
		hl_warn(QUEUE_LOG, "error service: no %s event; those faults will not reach "
			"queue callbacks", !svc->have_memory ? "MEMORY" : "HW_EXCEPTION");

	err = -pthread_create(&svc->thread, NULL, service_main, svc);
	if (err)
		goto err_free_events;
	svc->started = true;
	pthread_setname_np(svc->thread, SVC_THREAD_NAME);
	svc->next = qs->services;
	qs->services = svc;
	qs->svc = svc;
	hl_debug(QUEUE_LOG, "error service started");
	return 0;

err_free_events:
	service_free_events(svc);
err_free_svc:
	hl_error(QUEUE_LOG, "error service: %s", hl_errno_name(err));
	free(svc);
	return err;
}

/* Sets the thread's wake event; why names what the thread should notice.
 * A failure is logged: the thread then notices within SVC_IDLE_MS. */
static void service_wake(struct hl_queue_service *svc, const char *why)
{
	int err = hl_signal_shared_event_set(svc->wake);
	if (err)
		hl_error(QUEUE_LOG, "error service: waking its thread to %s: SET_EVENT: %s; it "
			 "notices within %u ms", why, hl_errno_name(err), SVC_IDLE_MS);
}

/* Tells svc's thread to stop and wakes it.  Caller holds qs->lock and has
 * taken svc off qs->svc.  In the last hsa_shut_down (rt->withdrawn) the
 * wake is the MEMORY event's DESTROY_EVENT, which the teardown issues
 * anyway: the kernel wakes every waiter on a destroyed event (its wait
 * fails, -EIO; destroy_event in kfd_events.c), and a thread not yet in its
 * wait finds the id unknown (-EINVAL) at once.  No other thread can make
 * an event then (rt is withdrawn), so the id is not reused under it.  One
 * SET_EVENT fewer per process than waking it first and destroying after.
 * Otherwise (a runtime in use: another service may start at once and make
 * events) the wake is a SET_EVENT on the shared wake event. */
static void service_stop_locked(struct hl_queue_service *svc)
{
	svc->stop = true;
	if (svc->rt->withdrawn && svc->have_memory) {
		/* a copy: the thread reads svc->memory without the lock */
		struct kfd_event memory = svc->memory;
		int err = kfd_event_destroy(svc->rt->proc, &memory);
		if (!err) {
			svc->memory_gone = true;
			return;
		}
		hl_error(QUEUE_LOG, "error service: stopping it by destroying its MEMORY event: "
			 "%s; waking it instead", hl_errno_name(err));
	}
	service_wake(svc, "stop");
}

int hl_queue_service_attach_locked(struct hl_runtime *rt, struct hl_queue *q)
{
	if (hl_signal_sleeper_add(q->inactive_signal.handle))
		q->watching = true;
	/* Pairs with the fence of a store to the signal (src/signal's
	 * signal_notify): either the thread's next check sees the value, or
	 * the storer sees us counted and sets the event. */
	hl_fence_seq_cst();

	/* q is already counted in n_live (the caller unlists it if we fail). */
	struct hl_queues *qs = rt->queues;
	if (qs->svc) {
		/* A queue on the shared event is in the thread's wait already
		 * (its value is checked each round); one on an event of its
		 * own must be added to the list. */
		struct kfd_event kev;
		if (hl_signal_wait_entry(q->inactive_signal.handle, &kev) != qs->svc->wake)
			service_wake(qs->svc, "watch a new queue");
		return 0;
	}
	return service_start_locked(rt);
}

static bool in_callback_of_locked(const struct hl_queues *qs, const struct hl_queue *q)
{
	for (const struct hl_queue_service *s = qs->services; s; s = s->next)
		if (s->current == q && !pthread_equal(s->thread, pthread_self()))
			return true;
	return false;
}

void hl_queue_service_detach_locked(struct hl_queues *qs, struct hl_queue *q)
{
	while (in_callback_of_locked(qs, q))
		pthread_cond_wait(&qs->idle, &qs->lock);
	struct hl_queue_service *svc = qs->svc;
	if (svc && !qs->n_live && !qs->n_holds) {
		qs->svc = NULL;
		service_stop_locked(svc);
	}
}

int hl_queue_service_hold(struct hl_runtime *rt)
{
	int err = 0;
	struct hl_queues *qs = rt->queues;
	pthread_mutex_lock(&qs->lock);
	qs->n_holds++;
	if (!qs->svc) {
		err = service_start_locked(rt);
		if (err)
			qs->n_holds--;
	}
	pthread_mutex_unlock(&qs->lock);
	return err;
}

void hl_queue_service_unhold(struct hl_runtime *rt)
{
	struct hl_queues *qs = rt->queues;
	if (!qs)
		return; /* after the queue teardown: the holds are gone already */
	pthread_mutex_lock(&qs->lock);
	if (qs->n_holds && !--qs->n_holds &&
	    !qs->n_live && qs->svc) {
		struct hl_queue_service *svc = qs->svc;
		qs->svc = NULL;
		service_stop_locked(svc);
	}
	pthread_mutex_unlock(&qs->lock);
}

void hl_queue_service_stop_locked(struct hl_queues *qs)
{
	qs->n_holds = 0;
	struct hl_queue_service *svc = qs->svc;
	if (svc) {
		qs->svc = NULL;
		service_stop_locked(svc);
	}
}

void hl_queue_service_reap(struct hl_queues *qs)
{
	for (;;) {
		pthread_mutex_lock(&qs->lock);
		struct hl_queue_service **pp = &qs->services, *svc = NULL;
		for (; *pp; pp = &(*pp)->next) {
			if ((*pp)->stop && !pthread_equal((*pp)->thread, pthread_self())) {
				svc = *pp;
				*pp = svc->next;
				break;
			}
		}
		pthread_mutex_unlock(&qs->lock);
		if (!svc)
			return;
		pthread_join(svc->thread, NULL);
		service_free_events(svc);
		hl_debug(QUEUE_LOG, "error service stopped");
		free(svc);
	}
}

void hl_queue_service_forget(struct hl_queues *qs)
{
	while (qs->services) {
		struct hl_queue_service *svc = qs->services;
		qs->services = svc->next;
		free(svc);
	}
	qs->svc = NULL;
}
