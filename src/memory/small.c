/*
 * Small GPU-visible runtime objects: the pieces of host memory, 64 bytes to
 * a page, that the runtime's own objects keep for the GPUs to read and
 * write (queue descriptors, signals, the internal queue's ring), carved
 * from shared pages so that the runtime's first objects cost one ALLOC+MAP
 * (and one UNMAP+FREE at the end) instead of one per kind.  ROCr packs its
 * signals into system-allocator blocks the same way (SharedSignalPool_t,
 * a page first, then doubling) but gives each queue descriptor and ring a
 * BO of its own.  The client's pool allocations never come from here.
 *
 *  - A page is one BO of exactly one page: fine-grained host memory
 *    (USERPTR, COHERENT, executable and writable like every runtime host
 *    buffer), mapped to every GPU at creation.  Exactly one page because
 *    CREATE_QUEUE (6.12+, kfd_queue_acquire_buffers) wants a queue's read
 *    and write pointers in a mapping that starts at their page and is one
 *    page long; any object here may therefore hold them.  The kernel counts
 *    the queues using a mapping, so several queues (and other objects) may
 *    share one page.
 *  - An object is a power of two of 64 to 4096 bytes, aligned to its size,
 *    zeroed; a page is 64 units of 64 bytes with a bitmap of those in use,
 *    and a request takes the first free aligned run of the oldest page that
 *    has one, else a new page.
 *  - Pages live until the last hsa_shut_down.  Most objects do too: their
 *    owners recycle them (the queue module's FIFO of descriptor slots, the
 *    signal module's free list and quarantine), so a stale pointer into a
 *    page always reads mapped memory, as with the per-kind pages this
 *    replaces.  An object whose owner knows no GPU reads it any more (a
 *    small ring after DESTROY_QUEUE) goes back with hl_small_free and may
 *    be handed out again.  The memory module's teardown, which runs after
 *    every module above it, frees the pages; a fork child forgets them.
 *
 * Locking: rt->small->lock, a leaf lock held across the page's ALLOC and
 * MAP (callers may hold their own module's lock: the queue registry's,
 * the signal slabs').
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "memory/memory_priv.h"
#include "util/array.h"
#include "util/log.h"

#define SMALL_LOG "small"
#define SMALL_UNIT 64u
#define SMALL_UNITS (HL_PAGE_SIZE / SMALL_UNIT)

_Static_assert(SMALL_UNITS == 64, "one uint64_t bitmap covers a page");

struct small_page {
	struct kfd_mem *mem;
	uint64_t used;                /* bit i: unit i is in an object */
};

struct hl_small {
	pthread_mutex_t lock;
	struct small_page *pages;     /* in creation order */
	uint32_t n_pages, cap_pages;
};

int hl_small_attach(struct hl_runtime *rt)
{
	struct hl_small *sm = calloc(1, sizeof(*sm));
	if (!sm)
		return -ENOMEM;
	pthread_mutex_init(&sm->lock, NULL);
	rt->small = sm;
	return 0;
}

static void small_free_state(struct hl_runtime *rt, bool kfd_free)
{
	struct hl_small *sm = rt->small;
	if (!sm)
		return;
	for (uint32_t i = 0; i < sm->n_pages; i++)
		if (kfd_free)
			kfd_mem_free(rt->proc, sm->pages[i].mem);
	free(sm->pages);
	pthread_mutex_destroy(&sm->lock);
	free(sm);
	rt->small = NULL;
}

void hl_small_release_all(struct hl_runtime *rt)
{
	small_free_state(rt, true);
}

void hl_small_forget_all(struct hl_runtime *rt)
{
	/* The BOs are the parent's: the thunk's close in the child drops them. */
	small_free_state(rt, false);
}

/* The first unit of a free run of n units (a power of two) aligned to n
 * in a page with bitmap used, or -1. */
static int run_find(uint64_t used, uint32_t n)
{
	uint64_t mask = n == SMALL_UNITS ? ~0ull : ((1ull << n) - 1);
	for (uint32_t u = 0; u < SMALL_UNITS; u += n)
		if (!(used & (mask << u)))
			return (int)u;
	return -1;
}

/* Caller holds sm->lock. */
static int page_add_locked(struct hl_runtime *rt, struct small_page **out)
{
	struct hl_small *sm = rt->small;
	struct small_page *p =
		hl_array_room(sm->pages, sm->n_pages, &sm->cap_pages, sizeof(*p), 4);
	if (!p)
		return -ENOMEM;
	sm->pages = p;
	struct kfd_mem_alloc_args args = {
		.kind = KFD_MEM_USERPTR,
		.gpu_id = rt->gpu_ids[0],
		.size = HL_PAGE_SIZE,
		.align = HL_PAGE_SIZE,
		.extra_flags = KFD_ALLOC_COHERENT,
		.host_access = true,
	};
	struct kfd_mem *mem;
	int err = kfd_mem_alloc(rt->proc, &args, &mem);
	if (err)
		goto err_log;
	err = kfd_mem_map(rt->proc, mem, rt->gpu_ids, rt->n_gpus);
	if (err)
		goto err_free_mem;
	struct small_page *page = &sm->pages[sm->n_pages++];
	page->mem = mem;
	page->used = 0;
	hl_debug(SMALL_LOG, "page %u at %p, mapped to %u GPU(s)", sm->n_pages - 1, mem->addr,
		 rt->n_gpus);
	*out = page;
	return 0;

err_free_mem:
	kfd_mem_free(rt->proc, mem);
err_log:
	hl_error(SMALL_LOG, "runtime object page: %s", hl_errno_name(err));
	return err;
}

int hl_small_alloc(struct hl_runtime *rt, uint32_t size, void **out)
{
	if (!rt || !out || size < SMALL_UNIT || size > HL_PAGE_SIZE || (size & (size - 1)))
		return -EINVAL;
	if (!rt->n_gpus || !rt->small)
		return -ENODEV;
	struct hl_small *sm = rt->small;
	uint32_t n = size / SMALL_UNIT;
	uint64_t mask = n == SMALL_UNITS ? ~0ull : ((1ull << n) - 1);
	int err = 0;
	pthread_mutex_lock(&sm->lock);
	struct small_page *page = NULL;
	int unit = -1;
	for (uint32_t i = 0; i < sm->n_pages && unit < 0; i++) {
		unit = run_find(sm->pages[i].used, n);
		page = &sm->pages[i];
	}
	if (unit < 0) {
		err = page_add_locked(rt, &page);
		unit = 0;
	}
	if (!err) {
		page->used |= mask << unit;
		*out = (char *)page->mem->addr + (size_t)unit * SMALL_UNIT;
		memset(*out, 0, size);
	}
	pthread_mutex_unlock(&sm->lock);
	return err;
}

int hl_small_free(struct hl_runtime *rt, void *p, uint32_t size)
{
	if (!rt || !p || size < SMALL_UNIT || size > HL_PAGE_SIZE || (size & (size - 1)) ||
	    ((uintptr_t)p & (size - 1)) || !rt->small)
		return -EINVAL;
	struct hl_small *sm = rt->small;
	uintptr_t base = (uintptr_t)p & ~(uintptr_t)(HL_PAGE_SIZE - 1);
	uint32_t n = size / SMALL_UNIT, unit = (uint32_t)(((uintptr_t)p - base) / SMALL_UNIT);
	uint64_t mask = (n == SMALL_UNITS ? ~0ull : ((1ull << n) - 1)) << unit;
	int err = -EINVAL;
	pthread_mutex_lock(&sm->lock);
	for (uint32_t i = 0; i < sm->n_pages; i++) {
		struct small_page *page = &sm->pages[i];
		if ((uintptr_t)page->mem->addr != base)
			continue;
		/* Every unit must be in use: a double free or a size that is
		 * not the object's is the caller's bug, refused. */
		if ((page->used & mask) == mask) {
			page->used &= ~mask;
			err = 0;
		}
		break;
	}
	pthread_mutex_unlock(&sm->lock);
	if (err)
		hl_error(SMALL_LOG, "free of %u bytes at %p: not an object of a shared page", size, p);
	return err;
}
