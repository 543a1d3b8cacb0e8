/*
 * KFD events: the kernel objects behind interrupt signals and exception
 * notifications.  A signal event owns a slot in the process's event page
 * (4096 u64 slots, "unsignaled" = all ones); the GPU writes the event id into
 * the slot and raises an interrupt, the kernel clears the slot and wakes
 * WAIT_EVENTS.
 *
 * On a dGPU the page is ours (libhsakmt's path): before the first signal
 * event we allocate 32 KiB of host-visible GTT, map it to every GPU, set all
 * slots to ~0, and pass its handle in event_page_offset; the kernel kmaps it
 * and from then on refuses to FREE it (EPERM), so it lives until close.
 * The mailbox of event e is &page[event_slot_index].
 *
 * Event ages (1.14+): every SET bumps the event's age, and WAIT_EVENTS
 * returns at once for a signal event whose age differs from the
 * last_event_age we pass, so a set that lands between two waits is never
 * lost.  We keep the last age seen in kfd_event.age.
 *
 * event_lock covers the one-time page creation and the list of live event
 * ids (destroyed at close, since the kernel process outlives our fd).  The
 * nesting is event_lock, then stash_lock or mem_lock (never both).
 */
#include "kfd/kfd_priv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util/barrier.h"
#include "util/log.h"

/* Event ages arrived with ioctl API 1.14. */
#define KFD_MINOR_EVENT_AGE 14
#define WAIT_STACK_EVENTS 16

static const char *event_type_name(uint32_t type)
{
	static const char *const names[] = {
		"SIGNAL", "NODECHANGE", "DEVICESTATECHANGE", "HW_EXCEPTION", "SYSTEM_EVENT",
		"DEBUG_EVENT", "PROFILE_EVENT", "QUEUE_EVENT", "MEMORY",
	};
	return type < sizeof(names) / sizeof(names[0]) ? names[type] : "?";
}

/* Caller holds event_lock. */
static int event_page_create(struct kfd_process *proc, struct kfd_mem **out)
{
	struct kfd_mem_alloc_args a = {
		.kind = KFD_MEM_GTT,
		.gpu_id = proc->gpus[0].gpu_id,
		.size = KFD_EVENT_PAGE_SIZE,
		.host_access = true,
		.extra_flags = KFD_ALLOC_UNCACHED, /* the GPU and CPU both poll it */
	};
	struct kfd_mem *mem;
	int ret = kfd_mem_alloc(proc, &a, &mem);
	if (ret)
		return ret;

	_Atomic uint64_t *slots = mem->addr;
	for (uint32_t i = 0; i < KFD_EVENT_SLOTS; i++)
		hl_store_relaxed(&slots[i], KFD_EVENT_SLOT_UNSIGNALED);

	uint32_t *ids = calloc(proc->n_gpus, sizeof(*ids));
	if (!ids) {
		kfd_mem_destroy(proc, mem);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < proc->n_gpus; i++)
		ids[i] = proc->gpus[i].gpu_id;
	ret = kfd_mem_map(proc, mem, ids, proc->n_gpus);
	free(ids);
	if (ret) {
		kfd_mem_destroy(proc, mem);
		return ret;
	}
	*out = mem;
	return 0;
}

int kfd_id_list_add(uint32_t **ids, uint32_t *n, uint32_t *cap, uint32_t id)
{
	if (*n == *cap) {
		uint32_t new_cap = *cap ? *cap * 2 : 64;
		uint32_t *grown = realloc(*ids, new_cap * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		*ids = grown;
		*cap = new_cap;
	}
	(*ids)[(*n)++] = id;
	return 0;
}

void kfd_id_list_remove(uint32_t *ids, uint32_t *n, uint32_t id)
{
	for (uint32_t i = 0; i < *n; i++) {
		if (ids[i] == id) {
			ids[i] = ids[--*n];
			return;
		}
	}
}

/*
 * The event page outlives a close of /dev/kfd: the kernel's process (and
 * its kmap of our page) lives as long as our mm, and a second page handle
 * would get EINVAL.  So close parks the page here, still mapped for the CPU
 * and the GPUs, and the next process opened by the same OS process adopts
 * it instead of allocating another.  A fork child never adopts its
 * parent's page (its kernel process is a new one): the page records the
 * fork generation it was parked in (kfd_fork_gen, process.c).
 */
static pthread_mutex_t stash_lock = PTHREAD_MUTEX_INITIALIZER;
static struct kfd_mem *stashed_page;  /* under stash_lock */
static uint32_t stashed_gen;

/* kfd_fork_child's part: a parent thread closing a process may have held
 * the lock at the fork.  The page itself is dropped by the next adopt,
 * which sees the older generation. */
void kfd_event_fork_child(void)
{
	pthread_mutex_init(&stash_lock, NULL);
}

static void event_page_stash(struct kfd_process *proc, struct kfd_mem *page)
{
	kfd_mem_untrack(proc, page);
	pthread_mutex_lock(&stash_lock);
	stashed_page = page;
	stashed_gen = proc->fork_gen;
	pthread_mutex_unlock(&stash_lock);
}

/* Caller holds event_lock.  The parked page, re-homed in proc, or NULL. */
static struct kfd_mem *event_page_adopt(struct kfd_process *proc)
{
	pthread_mutex_lock(&stash_lock);
	struct kfd_mem *page = stashed_page;
	bool ours = stashed_gen == kfd_fork_gen();
	stashed_page = NULL;
	pthread_mutex_unlock(&stash_lock);
	if (!page)
		return NULL;
	if (!ours) {
		/* The parent's page, inherited as a reservation only. */
		if (page->reservation)
			munmap(page->reservation, page->reservation_size);
		free(page->mapped_gpus);
		free(page);
		return NULL;
	}
	/* Size the mapped list for this process's GPU count. */
	uint32_t cap = proc->n_gpus > page->n_mapped ? proc->n_gpus : page->n_mapped;
	uint32_t *ids = realloc(page->mapped_gpus, (cap ? cap : 1) * sizeof(*ids));
	if (!ids) {
		event_page_stash(proc, page); /* keep it for a later try */
		return NULL;
	}
	page->mapped_gpus = ids;
	page->next = NULL;
	kfd_mem_track(proc, page);
	hl_debug(KFD_LOG, "event page at %p adopted from the previous open", page->addr);
	return page;
}

static int destroy_event_id(struct kfd_process *proc, uint32_t id)
{
	if (hl_load_relaxed(&proc->leave_to_exit))
		return 0; /* the kernel destroys it at the process's end */
	struct kfd_args_destroy_event args = { .event_id = id };
	int ret = kfd_ioctl(proc->fd, KFD_IOCTL_DESTROY_EVENT, &args);
	if (ret)
		hl_error(KFD_LOG, "DESTROY_EVENT: %s: event %u%s", hl_errno_name(ret), id,
			 ret == -EINVAL ? " (no such event)" : "");
	return ret;
}

int kfd_event_create(struct kfd_process *proc, uint32_t type, bool auto_reset,
		     struct kfd_event *out)
{
	struct kfd_process_private *priv = proc->priv;
	int ret;

	memset(out, 0, sizeof(*out));
	if (type > KFD_EVENT_TYPE_MEMORY) {
		hl_error(KFD_LOG, "CREATE_EVENT: EINVAL: unknown event type %u", type);
		return -EINVAL;
	}
	bool has_slot = type == KFD_EVENT_TYPE_SIGNAL || type == KFD_EVENT_TYPE_DEBUG_EVENT;
	struct kfd_args_create_event args = {
		.event_type = type,
		.auto_reset = auto_reset,
		.node_id = 0,
	};

	pthread_mutex_lock(&priv->event_lock);
	if (has_slot && !priv->event_page && proc->n_gpus) {
		priv->event_page = event_page_adopt(proc);
		priv->event_page_registered = priv->event_page != NULL;
	}
	if (has_slot && !priv->event_page && proc->n_gpus) {
		ret = event_page_create(proc, &priv->event_page);
		if (ret)
			goto out_unlock;
		priv->event_page_registered = false;
	}
	/* Until a CREATE_EVENT succeeds with it, the kernel may not have the
	 * page: pass the handle again (it is kept, not freed, on failure). */
	bool handing_page = has_slot && priv->event_page && !priv->event_page_registered;
	if (handing_page)
		args.event_page_offset = priv->event_page->handle;
	ret = kfd_ioctl(proc->fd, KFD_IOCTL_CREATE_EVENT, &args);
	if (ret) {
		hl_error(KFD_LOG, "CREATE_EVENT: %s: %s event%s%s", hl_errno_name(ret),
			 event_type_name(type),
			 handing_page ? " with a new event page" : "",
			 ret == -ENOSPC ? " (all 4095 signal slots in use)" : "");
		goto out_unlock;
	}
	if (handing_page)
		priv->event_page_registered = true;

	if (has_slot && priv->event_page) {
		if (args.event_slot_index >= KFD_EVENT_SLOTS) {
			hl_error(KFD_LOG, "CREATE_EVENT: ERANGE: event %u got slot %u past the "
				 "%u-slot page", args.event_id, args.event_slot_index,
				 KFD_EVENT_SLOTS);
			destroy_event_id(proc, args.event_id);
			ret = -ERANGE;
			goto out_unlock;
		}
		out->mailbox = (uint64_t *)priv->event_page->addr + args.event_slot_index;
	}
	ret = kfd_id_list_add(&priv->event_ids, &priv->n_events, &priv->cap_events,
			      args.event_id);
	if (ret) {
		destroy_event_id(proc, args.event_id);
		out->mailbox = NULL;
		goto out_unlock;
	}
	out->id = args.event_id;
	out->type = type;
	out->auto_reset = auto_reset;
	out->age = 1; /* the kernel starts every event at age 1 */
out_unlock:
	pthread_mutex_unlock(&priv->event_lock);
	return ret;
}

int kfd_event_destroy(struct kfd_process *proc, struct kfd_event *ev)
{
	if (!ev) {
		hl_error(KFD_LOG, "DESTROY_EVENT: EINVAL: no event");
		return -EINVAL;
	}
	int ret = destroy_event_id(proc, ev->id);
	if (ret)
		return ret;
	pthread_mutex_lock(&proc->priv->event_lock);
	kfd_id_list_remove(proc->priv->event_ids, &proc->priv->n_events, ev->id);
	pthread_mutex_unlock(&proc->priv->event_lock);
	ev->mailbox = NULL;
	return 0;
}

int kfd_event_set(struct kfd_process *proc, struct kfd_event *ev)
{
	if (!ev) {
		hl_error(KFD_LOG, "SET_EVENT: EINVAL: no event");
		return -EINVAL;
	}
	struct kfd_args_set_event args = { .event_id = ev->id };
	int ret = kfd_ioctl(proc->fd, KFD_IOCTL_SET_EVENT, &args);
	if (ret)
		hl_error(KFD_LOG, "SET_EVENT: %s: event %u (%s)%s", hl_errno_name(ret), ev->id,
			 event_type_name(ev->type),
			 ret == -EINVAL ? " (unknown, or not a signal event)" : "");
	return ret;
}

int kfd_event_reset(struct kfd_process *proc, struct kfd_event *ev)
{
	if (!ev) {
		hl_error(KFD_LOG, "RESET_EVENT: EINVAL: no event");
		return -EINVAL;
	}
	struct kfd_args_reset_event args = { .event_id = ev->id };
	int ret = kfd_ioctl(proc->fd, KFD_IOCTL_RESET_EVENT, &args);
	if (ret)
		hl_error(KFD_LOG, "RESET_EVENT: %s: event %u (%s)%s", hl_errno_name(ret), ev->id,
			 event_type_name(ev->type),
			 ret == -EINVAL ? " (unknown, or not a signal event)" : "");
	return ret;
}

/* quiet: an event that is gone (-EINVAL: no such id; -EIO: destroyed
 * while waiting, the kernel's wake for DESTROY_EVENT) is the caller's to
 * log, as an event destroyed on purpose to wake the waiter is no error. */
static int event_wait(struct kfd_process *proc, struct kfd_event *const *evs, uint32_t n,
		      bool wait_all, uint32_t timeout_ms, uint32_t *result,
		      struct kfd_event_data *data, bool quiet)
{
	struct kfd_event_data stack[WAIT_STACK_EVENTS];
	struct kfd_event_data *ed = stack;
	bool ages = proc->version_minor >= KFD_MINOR_EVENT_AGE;
	int ret;

	if (!evs || n == 0 || !result) {
		hl_error(KFD_LOG, "WAIT_EVENTS: EINVAL: %u events, list %p, result %p", n,
			 (void *)evs, (void *)result);
		return -EINVAL;
	}
	for (uint32_t i = 0; i < n; i++) {
		if (!evs[i]) {
			hl_error(KFD_LOG, "WAIT_EVENTS: EINVAL: event %u of %u is NULL", i, n);
			return -EINVAL;
		}
	}
	if (n > WAIT_STACK_EVENTS) {
		ed = calloc(n, sizeof(*ed));
		if (!ed)
			return -ENOMEM;
	} else {
		memset(stack, 0, sizeof(stack));
	}
	/* Several threads may wait on one event: its age is read and
	 * written under event_lock. */
	pthread_mutex_lock(&proc->priv->event_lock);
	for (uint32_t i = 0; i < n; i++) {
		ed[i].event_id = evs[i]->id;
		if (ages && evs[i]->type == KFD_EVENT_TYPE_SIGNAL)
			ed[i].signal_event_data.last_event_age = evs[i]->age;
	}
	pthread_mutex_unlock(&proc->priv->event_lock);

	struct kfd_args_wait_events args = {
		.events_ptr = (uintptr_t)ed,
		.num_events = n,
		.wait_for_all = wait_all,
		.timeout = timeout_ms,
	};
	ret = kfd_ioctl(proc->fd, KFD_IOCTL_WAIT_EVENTS, &args);
	if (ret) {
		const char *why = ret == -EINVAL ? " (an unknown event id)" :
				  ret == -EIO ? " (an event was destroyed while waiting)" : "";
		if (quiet && (ret == -EINVAL || ret == -EIO))
			hl_debug(KFD_LOG, "WAIT_EVENTS: %s: %u events (first %u)%s",
				 hl_errno_name(ret), n, evs[0]->id, why);
		else
			hl_error(KFD_LOG, "WAIT_EVENTS: %s: %u events (first %u), %s, timeout %u ms%s",
				 hl_errno_name(ret), n, evs[0]->id, wait_all ? "all" : "any",
				 timeout_ms, why);
		goto out_free;
	}
	*result = args.wait_result;
	if (args.wait_result == KFD_WAIT_COMPLETE && ages) {
		pthread_mutex_lock(&proc->priv->event_lock);
		for (uint32_t i = 0; i < n; i++) {
			if (evs[i]->type == KFD_EVENT_TYPE_SIGNAL &&
			    ed[i].signal_event_data.last_event_age)
				evs[i]->age = ed[i].signal_event_data.last_event_age;
		}
		pthread_mutex_unlock(&proc->priv->event_lock);
	}
	if (data)
		memcpy(data, ed, n * sizeof(*ed));
out_free:
	if (ed != stack)
		free(ed);
	return ret;
}

int kfd_event_wait(struct kfd_process *proc, struct kfd_event *const *evs, uint32_t n,
		   bool wait_all, uint32_t timeout_ms, uint32_t *result,
		   struct kfd_event_data *data)
{
	return event_wait(proc, evs, n, wait_all, timeout_ms, result, data, false);
}

int kfd_event_wait_quiet(struct kfd_process *proc, struct kfd_event *const *evs, uint32_t n,
			 bool wait_all, uint32_t timeout_ms, uint32_t *result,
			 struct kfd_event_data *data)
{
	return event_wait(proc, evs, n, wait_all, timeout_ms, result, data, true);
}

void kfd_event_release_all(struct kfd_process *proc)
{
	struct kfd_process_private *priv = proc->priv;
	bool forked = kfd_process_forked(proc);

	pthread_mutex_lock(&priv->event_lock);
	if (!forked && proc->fd >= 0) {
		for (uint32_t i = 0; i < priv->n_events; i++)
			destroy_event_id(proc, priv->event_ids[i]);
	}
	priv->n_events = 0;
	/* The kernel keeps the page (FREE answers EPERM): park it for the
	 * next open.  A fork child's copy is only a reservation, which
	 * kfd_mem_release_all drops with the rest, as it frees a page the
	 * kernel never took. */
	if (priv->event_page && priv->event_page_registered && !forked)
		event_page_stash(proc, priv->event_page);
	priv->event_page = NULL;
	pthread_mutex_unlock(&priv->event_lock);
}
