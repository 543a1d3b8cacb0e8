/*
 * Events (kfd_events.c): CREATE/DESTROY/SET/RESET_EVENT, WAIT_EVENTS, the
 * signal page, GPU interrupts and exception events.
 *
 * Ids: 0 is reserved at process creation; SIGNAL and DEBUG events take the
 * lowest free id in [1, signal_mapped_size / 8) and that id is also their
 * slot in the signal page and their trigger data; other types take the
 * lowest free id from 0x40000000.  The signal page is 4096 u64 slots,
 * "unsignaled" = ~0.  It is either the GTT BO whose handle the first
 * CREATE_EVENT passes (dGPU path: all 4096 slots usable at once) or a page
 * the kernel allocates, of which only 256 slots are usable until user space
 * mmaps it through the kfd fd (EVENTS offset).  A signal event beyond the
 * usable slots fails with -ENOSPC.
 *
 * Waiting: each WAIT_EVENTS call owns a condvar and one waiter per event,
 * linked on the event; SET_EVENT marks every linked waiter activated and
 * wakes a sleeping call, whose waiter then leaves the event's wait queue
 * (the kernel's autoremove wake-up, event_set).  Everything is under process->event_lock only, so a
 * blocked waiter holds no machine-wide lock (pthread_cond_timedwait drops
 * event_lock while sleeping).  Auto-reset is consumed when a waiter starts
 * (init_event_waiter) and set_event leaves an auto-reset event unsignaled
 * when it woke someone, exactly as the kernel does.
 *
 * Exit: a process that exits while a thread waits has that thread killed
 * (exit_group's SIGKILL): kemu_events_kill wakes every waiter, and a wait of
 * a dying process returns -EINTR (fatal_signal_pending is tested before the
 * wait condition), so nothing sleeps inside the model when it is torn down.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "kemu_priv.h"

/* Legacy (kernel-allocated) page: usable slots before it is mmapped. */
#define KEMU_SIGNAL_SLOTS_UNMAPPED 256

struct kemu_event_waiter {
	struct kemu_event *ev;       /* NULL once the event was destroyed */
	bool activated;
	bool age_enabled;
	bool linked;                 /* on ev->waiters */
	/* on the event's wait queue: linked and not yet woken by a set (an
	 * unqueued waiter stays linked so that DESTROY_EVENT still finds it) */
	bool queued;
	pthread_cond_t *cv;
	struct kemu_wait_call *call;
	struct kemu_event_waiter *next;
};

/* One WAIT_EVENTS call in progress, on p->wait_calls (event_lock).  The
 * waiting thread frees it; only a fork child, which has none of its
 * parent's threads, finds calls left at teardown and frees them. */
struct kemu_wait_call {
	struct kemu_wait_call *next;
	/* TASK_INTERRUPTIBLE: from the condition check until a SET_EVENT
	 * wakes the call (event_set) */
	bool sleeping;
	struct kemu_event_waiter w[];
};

/* ---- lookup and ids (event_lock held) ---- */

static struct kemu_event *event_lookup(struct kemu_process *p, uint32_t id)
{
	if (id < KFD_EVENT_SLOTS)
		return p->sig_events ? p->sig_events[id] : NULL;
	for (uint32_t i = 0; i < p->n_other; i++) {
		if (p->other_events[i]->id == id)
			return p->other_events[i];
	}
	return NULL;
}

static void waiter_unlink(struct kemu_event_waiter *w)
{
	if (!w->linked || !w->ev)
		return;
	for (struct kemu_event_waiter **pp = &w->ev->waiters; *pp; pp = &(*pp)->next) {
		if (*pp == w) {
			*pp = w->next;
			break;
		}
	}
	w->linked = false;
}

/* set_event: caller holds event_lock.  The kernel's waiters are on the
 * event's wait queue with autoremove_wake_function: the set that wakes a
 * sleeping waiter also takes it off the queue, so a second set before that
 * waiter's call has returned finds no waiter and leaves an auto-reset event
 * signaled for the next WAIT_EVENTS (two threads waiting on one event, as
 * ROCr's queues and its async-event thread do, would otherwise lose it).  A
 * waiter whose call is awake already (another of its events woke it) stays
 * queued and absorbs the set, as there. */
static void event_set(struct kemu_event *ev)
{
	bool queued = false; /* waitqueue_active */
	for (struct kemu_event_waiter *w = ev->waiters; w && !queued; w = w->next)
		queued = w->queued;
	ev->signaled = !ev->auto_reset || !queued;
	if (!++ev->age)
		ev->age = 2; /* never wrap back to the reserved ages 0 and 1 */
	for (struct kemu_event_waiter *w = ev->waiters; w; w = w->next) {
		if (!w->queued)
			continue;
		w->activated = true;
		if (w->call->sleeping) {
			w->call->sleeping = false;
			w->queued = false;
			pthread_cond_signal(w->cv);
		}
	}
}

/* destroy_event: caller holds event_lock and has unlinked ev from the id
 * tables. */
static void event_free(struct kemu_process *p, struct kemu_event *ev)
{
	for (struct kemu_event_waiter *w = ev->waiters; w; w = w->next) {
		w->ev = NULL;
		w->linked = false;
		pthread_cond_signal(w->cv);
	}
	if (ev->type == KFD_EVENT_TYPE_SIGNAL || ev->type == KFD_EVENT_TYPE_DEBUG_EVENT)
		p->signal_event_count--;
	free(ev);
}

/* ---- the signal page ---- */

/* allocate_signal_page: the kernel's own page.  Caller holds event_lock. */
static int signal_page_alloc(struct kemu_process *p)
{
	int fd = kemu_sys_memfd("kfdemu-events", KFD_EVENT_PAGE_SIZE, true);
	if (fd < 0)
		return -ENOMEM;
	void *page = kemu_sys_mmap(NULL, KFD_EVENT_PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
				   fd, 0);
	if (page == MAP_FAILED) {
		kemu_sys_close(fd);
		return -ENOMEM;
	}
	memset(page, 0xFF, KFD_EVENT_PAGE_SIZE);
	p->signal_fd = fd;
	p->signal_page = page;
	p->signal_page_slots = KFD_EVENT_SLOTS;
	p->signal_mapped_size = KEMU_SIGNAL_SLOTS_UNMAPPED * 8;
	return 0;
}

/* kfd_kmap_event_page: the dGPU path, the page is a user GTT BO. */
static int signal_page_from_handle(struct kemu_process *p, uint64_t handle)
{
	int err = 0;
	pthread_mutex_lock(&p->lock);
	pthread_mutex_lock(&p->event_lock);
	if (p->signal_page) {
		kemu_info(p->m, "CREATE_EVENT: event page is already set: -EINVAL");
		err = -EINVAL;
		goto out_unlock;
	}
	struct kemu_pdd *pdd = kemu_pdd_by_id(p, KFD_HANDLE_GPU_ID(handle));
	if (!pdd) {
		err = -EINVAL;
		goto out_unlock;
	}
	err = kemu_pdd_bind(pdd);
	if (err)
		goto out_unlock;
	struct kemu_bo *bo = kemu_bo_lookup(pdd, handle);
	if (!bo || (bo->kind != KEMU_BO_GTT && bo->kind != KEMU_BO_VRAM)) {
		/* unknown handle, or not a BO the kernel can kmap */
		err = -EINVAL;
		goto out_unlock;
	}
	/* The kernel memsets all 4096 slots whatever the BO size; we stop at
	 * the end of the BO. */
	uint64_t bytes = bo->bo_size < KFD_EVENT_PAGE_SIZE ? bo->bo_size : KFD_EVENT_PAGE_SIZE;
	memset(bo->host, 0xFF, bytes);
	p->signal_page = (uint64_t *)bo->host;
	p->signal_page_slots = (uint32_t)(bytes / 8);
	p->signal_mapped_size = bo->bo_size;
	p->signal_handle = handle;
	p->signal_bo = bo;
	bo->is_signal_page = true;
out_unlock:
	pthread_mutex_unlock(&p->event_lock);
	pthread_mutex_unlock(&p->lock);
	return err;
}

int kemu_events_mmap(struct kemu_process *p, void *addr, size_t len, int prot, int flags,
		     void **out)
{
	/* get_order(len) must be that of 32 KiB: (16 KiB, 32 KiB] */
	if (len <= KFD_EVENT_PAGE_SIZE / 2 || len > KFD_EVENT_PAGE_SIZE) {
		kemu_info(p->m, "mmap events: size 0x%zx is not the event page: -EINVAL", len);
		return -EINVAL;
	}
	int err = 0;
	pthread_mutex_lock(&p->event_lock);
	/* the kernel maps whatever page is installed: its own, or the kmapped
	 * user BO of the dGPU path */
	int fd = p->signal_fd >= 0 ? p->signal_fd : p->signal_bo ? p->signal_bo->fd : -1;
	if (!p->signal_page || fd < 0 ||
	    (p->signal_bo && len > p->signal_bo->bo_size)) {
		err = -EINVAL;
		goto out_unlock;
	}
	void *m = kemu_sys_mmap(addr, len, prot, flags, fd, 0);
	if (m == MAP_FAILED) {
		err = -errno;
		goto out_unlock;
	}
	/* VM_DONTCOPY, as kfd_event_mmap sets: not inherited by a fork child */
	madvise(m, len, MADV_DONTFORK);
	p->signal_mapped_size = len;
	*out = m;
out_unlock:
	pthread_mutex_unlock(&p->event_lock);
	return err;
}

/* ---- ioctls ---- */

static int event_id_alloc_other(struct kemu_process *p, uint32_t *id)
{
	/* lowest free id from KFD_EVENT_ID_OTHER_FIRST (idr_alloc) */
	uint32_t want = KFD_EVENT_ID_OTHER_FIRST;
	bool again = true;
	while (again) {
		again = false;
		for (uint32_t i = 0; i < p->n_other; i++) {
			if (p->other_events[i]->id == want) {
				want++;
				again = true;
			}
		}
	}
	if (p->n_other == p->cap_other) {
		uint32_t cap = p->cap_other ? p->cap_other * 2 : 16;
		struct kemu_event **n = realloc(p->other_events, cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		p->other_events = n;
		p->cap_other = cap;
	}
	*id = want;
	return 0;
}

long kemu_ioctl_create_event(struct kemu_process *p, void *arg)
{
	struct kfd_args_create_event *a = arg;
	long err;
	if (a->event_page_offset) {
		err = signal_page_from_handle(p, a->event_page_offset);
		if (err)
			return err;
	}
	struct kemu_event *ev = calloc(1, sizeof(*ev));
	if (!ev)
		return -ENOMEM;
	ev->type = a->event_type;
	ev->auto_reset = a->auto_reset != 0;
	ev->age = 1;
	pthread_mutex_lock(&p->event_lock);
	a->event_page_offset = 0;
	if (ev->type == KFD_EVENT_TYPE_SIGNAL || ev->type == KFD_EVENT_TYPE_DEBUG_EVENT) {
		if (!p->signal_page) {
			err = signal_page_alloc(p);
			if (err)
				goto err_unlock;
		}
		if (!p->sig_events) {
			p->sig_events = calloc(KFD_EVENT_SLOTS, sizeof(*p->sig_events));
			if (!p->sig_events) {
				err = -ENOMEM;
				goto err_unlock;
			}
		}
		uint64_t limit = p->signal_mapped_size / 8;
		if (limit > p->signal_page_slots)
			limit = p->signal_page_slots;
		if (p->signal_event_count >= limit) {
			kemu_info(p->m, "CREATE_EVENT: signal event limit %llu reached: -ENOSPC",
				  (unsigned long long)limit);
			err = -ENOSPC;
			goto err_unlock;
		}
		uint32_t id;
		for (id = 1; id < limit && p->sig_events[id]; id++)
			;
		if (id >= limit) {
			err = -ENOSPC;
			goto err_unlock;
		}
		ev->id = id;
		p->sig_events[id] = ev;
		p->signal_event_count++;
		a->event_page_offset = KFD_MMAP_TYPE_EVENTS;
		a->event_slot_index = id;
	} else {
		err = event_id_alloc_other(p, &ev->id);
		if (err)
			goto err_unlock;
		p->other_events[p->n_other++] = ev;
	}
	a->event_id = ev->id;
	a->event_trigger_data = ev->id;
	pthread_mutex_unlock(&p->event_lock);
	return 0;

err_unlock:
	pthread_mutex_unlock(&p->event_lock);
	free(ev);
	return err;
}

long kemu_ioctl_destroy_event(struct kemu_process *p, void *arg)
{
	struct kfd_args_destroy_event *a = arg;
	long err = 0;
	pthread_mutex_lock(&p->event_lock);
	struct kemu_event *ev = event_lookup(p, a->event_id);
	if (!ev) {
		err = -EINVAL;
	} else {
		if (ev->id < KFD_EVENT_SLOTS) {
			p->sig_events[ev->id] = NULL;
		} else {
			for (uint32_t i = 0; i < p->n_other; i++) {
				if (p->other_events[i] == ev)
					p->other_events[i] = p->other_events[--p->n_other];
			}
		}
		event_free(p, ev);
	}
	pthread_mutex_unlock(&p->event_lock);
	return err;
}

int kemu_event_set_id(struct kemu_process *p, uint32_t id)
{
	int err = 0;
	pthread_mutex_lock(&p->event_lock);
	struct kemu_event *ev = event_lookup(p, id);
	if (!ev || ev->type != KFD_EVENT_TYPE_SIGNAL)
		err = -EINVAL; /* only signal events can be CPU-signaled */
	else
		event_set(ev);
	pthread_mutex_unlock(&p->event_lock);
	return err;
}

long kemu_ioctl_set_event(struct kemu_process *p, void *arg)
{
	struct kfd_args_set_event *a = arg;
	return kemu_event_set_id(p, a->event_id);
}

long kemu_ioctl_reset_event(struct kemu_process *p, void *arg)
{
	struct kfd_args_reset_event *a = arg;
	long err = 0;
	pthread_mutex_lock(&p->event_lock);
	struct kemu_event *ev = event_lookup(p, a->event_id);
	if (!ev || ev->type != KFD_EVENT_TYPE_SIGNAL)
		err = -EINVAL;
	else
		ev->signaled = false;
	pthread_mutex_unlock(&p->event_lock);
	return err;
}

/* test_event_condition.  Caller holds event_lock. */
static uint32_t wait_condition(bool all, uint32_t n, const struct kemu_event_waiter *w)
{
	uint32_t activated = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (!w[i].ev)
			return KFD_WAIT_FAIL;
		if (w[i].activated) {
			if (!all)
				return KFD_WAIT_COMPLETE;
			activated++;
		}
	}
	return activated == n ? KFD_WAIT_COMPLETE : KFD_WAIT_TIMEOUT;
}

/* copy_signaled_event_data.  Caller holds event_lock. */
static int wait_copy_out(uint64_t uevents, uint32_t n, const struct kemu_event_waiter *w)
{
	for (uint32_t i = 0; i < n; i++) {
		const struct kemu_event *ev = w[i].ev;
		if (!ev)
			return -EINVAL;
		if (!w[i].activated)
			continue;
		uint64_t dst = uevents + (uint64_t)i * sizeof(struct kfd_event_data);
		int err = 0;
		if (ev->type == KFD_EVENT_TYPE_MEMORY)
			err = kemu_copy_to_user(dst, &ev->data.memory, sizeof(ev->data.memory));
		else if (ev->type == KFD_EVENT_TYPE_HW_EXCEPTION)
			err = kemu_copy_to_user(dst, &ev->data.hw, sizeof(ev->data.hw));
		else if (ev->type == KFD_EVENT_TYPE_SIGNAL && w[i].age_enabled)
			err = kemu_copy_to_user(dst, &ev->age, sizeof(ev->age));
		if (err)
			return -EFAULT;
	}
	return 0;
}

long kemu_ioctl_wait_events(struct kemu_process *p, void *arg)
{
	struct kfd_args_wait_events *a = arg;
	uint32_t n = a->num_events;
	bool all = a->wait_for_all != 0;
	long ret = 0;
	struct timespec deadline;
	bool infinite = a->timeout == KFD_WAIT_TIMEOUT_INFINITE;
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	if (!infinite) {
		uint64_t ms = a->timeout > 0x7FFFFFFFu ? 0x7FFFFFFFu : a->timeout;
		deadline.tv_sec += (time_t)(ms / 1000);
		deadline.tv_nsec += (long)(ms % 1000) * 1000000L;
		if (deadline.tv_nsec >= 1000000000L) {
			deadline.tv_sec++;
			deadline.tv_nsec -= 1000000000L;
		}
	}
	pthread_condattr_t ca;
	pthread_cond_t cv;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&cv, &ca);
	pthread_condattr_destroy(&ca);
	/* kcalloc of the waiters fails for absurd counts */
	struct kemu_wait_call *call = n > (1u << 22) ? NULL :
		calloc(1, sizeof(*call) + (n ? n : 1) * sizeof(struct kemu_event_waiter));
	if (!call) {
		ret = -ENOMEM;
		goto out_cv;
	}
	struct kemu_event_waiter *w = call->w;
	uint32_t result = KFD_WAIT_FAIL;
	uint32_t inited = 0;
	pthread_mutex_lock(&p->event_lock);
	call->next = p->wait_calls;
	p->wait_calls = call;
	for (; inited < n; inited++) {
		struct kfd_event_data d;
		if (kemu_copy_from_user(&d, a->events_ptr + (uint64_t)inited * sizeof(d),
					sizeof(d))) {
			ret = -EFAULT;
			goto out_unlock;
		}
		/* init_event_waiter */
		struct kemu_event *ev = event_lookup(p, d.event_id);
		if (!ev) {
			ret = -EINVAL;
			goto out_unlock;
		}
		struct kemu_event_waiter *wi = &w[inited];
		wi->ev = ev;
		wi->cv = &cv;
		wi->call = call;
		wi->activated = ev->signaled;
		ev->signaled = ev->signaled && !ev->auto_reset;
		if (ev->type == KFD_EVENT_TYPE_SIGNAL && d.signal_event_data.last_event_age) {
			wi->age_enabled = true;
			if (ev->age != d.signal_event_data.last_event_age)
				wi->activated = true;
		}
		if (!wi->activated) {
			wi->next = ev->waiters;
			ev->waiters = wi;
			wi->linked = true;
			wi->queued = true;
		}
	}
	for (;;) {
		if (p->dying) {
			/* fatal_signal_pending: checked before the condition */
			ret = -EINTR;
			break;
		}
		call->sleeping = true; /* set_current_state, then the check */
		result = wait_condition(all, n, w);
		if (result != KFD_WAIT_TIMEOUT)
			break;
		if (infinite) {
			pthread_cond_wait(&cv, &p->event_lock);
		} else if (pthread_cond_timedwait(&cv, &p->event_lock, &deadline) == ETIMEDOUT) {
			result = wait_condition(all, n, w);
			break;
		}
	}
	call->sleeping = false;
	if (result == KFD_WAIT_COMPLETE)
		ret = wait_copy_out(a->events_ptr, n, w);
out_unlock:
	for (uint32_t i = 0; i < inited; i++)
		waiter_unlink(&w[i]);
	for (struct kemu_wait_call **pp = &p->wait_calls; *pp; pp = &(*pp)->next) {
		if (*pp == call) {
			*pp = call->next;
			break;
		}
	}
	pthread_mutex_unlock(&p->event_lock);
	free(call);
out_cv:
	pthread_cond_destroy(&cv);
	if (ret)
		result = KFD_WAIT_FAIL;
	else if (result == KFD_WAIT_FAIL)
		ret = -EIO; /* an event was destroyed while waiting */
	a->wait_result = result;
	return ret;
}

/* ---- GPU side ---- */

/* set_event_from_interrupt.  Caller holds event_lock. */
static void event_set_from_interrupt(struct kemu_process *p, struct kemu_event *ev)
{
	if (!ev || (ev->type != KFD_EVENT_TYPE_SIGNAL && ev->type != KFD_EVENT_TYPE_DEBUG_EVENT))
		return;
	/* acknowledge: the slot returns to unsignaled before the event is set;
	 * release pairs with the user's acquire load of the mailbox */
	atomic_store_explicit((_Atomic uint64_t *)&p->signal_page[ev->id],
			      KFD_EVENT_SLOT_UNSIGNALED, memory_order_release);
	event_set(ev);
}

static bool slot_signaled(struct kemu_process *p, uint32_t id)
{
	/* acquire pairs with the CP's release store of the mailbox value */
	return id < p->signal_page_slots &&
	       atomic_load_explicit((_Atomic uint64_t *)&p->signal_page[id],
				    memory_order_acquire) != KFD_EVENT_SLOT_UNSIGNALED;
}

void kemu_event_interrupt(struct kemu_process *p, uint32_t partial_id, uint32_t valid_bits)
{
	pthread_mutex_lock(&p->event_lock);
	if (!p->signal_page || !p->sig_events)
		goto out_unlock;
	struct kemu_event *ev = NULL;
	if (valid_bits) {
		if (valid_bits > 31 || (1u << valid_bits) >= KFD_EVENT_SLOTS) {
			if (slot_signaled(p, partial_id))
				ev = p->sig_events[partial_id];
		} else {
			for (uint32_t id = partial_id; id < KFD_EVENT_SLOTS && !ev;
			     id += 1u << valid_bits) {
				if (slot_signaled(p, id))
					ev = p->sig_events[id];
			}
		}
	}
	if (ev) {
		event_set_from_interrupt(p, ev);
		goto out_unlock;
	}
	/* the id was not usable: scan every signaled slot */
	for (uint32_t id = 1; id < KFD_EVENT_SLOTS; id++) {
		if (p->sig_events[id] && slot_signaled(p, id))
			event_set_from_interrupt(p, p->sig_events[id]);
	}
out_unlock:
	pthread_mutex_unlock(&p->event_lock);
}

void kemu_vm_fault(struct kemu_process *p, const struct kemu_vm_fault_info *f)
{
	struct kfd_hsa_memory_exception_data d = {
		.failure = { .NotPresent = f->not_present, .ReadOnly = f->read_only,
			     .NoExecute = f->no_execute, .imprecise = 0 },
		.va = f->va & ~(KEMU_PAGE_SIZE - 1),
		.gpu_id = f->gpu_id,
	};
	kemu_info(p->m, "GPU VM fault: gpu 0x%x va 0x%llx%s%s%s%s", f->gpu_id,
		  (unsigned long long)f->va, f->not_present ? " not-present" : "",
		  f->read_only ? " read-only" : "", f->no_execute ? " no-execute" : "",
		  f->hdp_stale ? " (HDP: stale CPU write, strict mode)" : "");
	pthread_mutex_lock(&p->event_lock);
	for (uint32_t i = 0; i < p->n_other; i++) {
		struct kemu_event *ev = p->other_events[i];
		if (ev->type == KFD_EVENT_TYPE_MEMORY) {
			ev->data.memory = d;
			event_set(ev);
		}
	}
	pthread_mutex_unlock(&p->event_lock);
}

void kemu_gpu_reset(struct kemu_process *p, uint32_t gpu_id, bool ecc)
{
	pthread_mutex_lock(&p->event_lock);
	for (uint32_t i = 0; i < p->n_other; i++) {
		struct kemu_event *ev = p->other_events[i];
		if (ev->type == KFD_EVENT_TYPE_HW_EXCEPTION) {
			ev->data.hw = (struct kfd_hsa_hw_exception_data){
				.reset_type = KFD_HW_EXCEPTION_WHOLE_GPU_RESET,
				.reset_cause = ecc ? KFD_HW_EXCEPTION_ECC : KFD_HW_EXCEPTION_GPU_HANG,
				.memory_lost = 1, .gpu_id = gpu_id };
			event_set(ev);
		} else if (ev->type == KFD_EVENT_TYPE_MEMORY && ecc) {
			ev->data.memory = (struct kfd_hsa_memory_exception_data){
				.failure = { .imprecise = 1 }, .gpu_id = gpu_id,
				.ErrorType = KFD_MEM_ERR_SRAM_ECC };
			event_set(ev);
		}
	}
	pthread_mutex_unlock(&p->event_lock);
}

uint32_t kemu_event_waiters(struct kemu_process *p, uint32_t id)
{
	uint32_t n = 0;
	pthread_mutex_lock(&p->event_lock);
	struct kemu_event *ev = event_lookup(p, id);
	for (struct kemu_event_waiter *w = ev ? ev->waiters : NULL; w; w = w->next)
		n++;
	pthread_mutex_unlock(&p->event_lock);
	return n;
}

void kemu_events_kill(struct kemu_process *p)
{
	pthread_mutex_lock(&p->event_lock);
	p->dying = true;
	for (uint32_t id = 0; p->sig_events && id < KFD_EVENT_SLOTS; id++) {
		for (struct kemu_event_waiter *w = p->sig_events[id] ? p->sig_events[id]->waiters : NULL;
		     w; w = w->next)
			pthread_cond_signal(w->cv);
	}
	for (uint32_t i = 0; i < p->n_other; i++) {
		for (struct kemu_event_waiter *w = p->other_events[i]->waiters; w; w = w->next)
			pthread_cond_signal(w->cv);
	}
	pthread_mutex_unlock(&p->event_lock);
}

void kemu_events_fini(struct kemu_process *p)
{
	pthread_mutex_lock(&p->event_lock);
	if (p->sig_events) {
		for (uint32_t id = 0; id < KFD_EVENT_SLOTS; id++) {
			if (p->sig_events[id])
				event_free(p, p->sig_events[id]);
		}
	}
	for (uint32_t i = 0; i < p->n_other; i++)
		event_free(p, p->other_events[i]);
	free(p->sig_events);
	free(p->other_events);
	p->sig_events = p->other_events = NULL;
	p->n_other = 0;
	/* waits of threads this process does not have (a fork child's copy) */
	while (p->wait_calls) {
		struct kemu_wait_call *c = p->wait_calls;
		p->wait_calls = c->next;
		free(c);
	}
	if (p->signal_fd >= 0) {
		kemu_sys_munmap(p->signal_page, KFD_EVENT_PAGE_SIZE);
		kemu_sys_close(p->signal_fd);
		p->signal_fd = -1;
	}
	p->signal_page = NULL;
	pthread_mutex_unlock(&p->event_lock);
}
