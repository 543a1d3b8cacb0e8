/*
 * Descriptor pages: the one-page, GPU-mapped allocations that hold an
 * amd_queue_t.  CREATE_QUEUE (6.12+) wants the read and write pointers in a
 * mapping that starts at their page and is exactly one page long, so each
 * queue gets a page of its own.
 *
 * Pages are never unmapped before the last hsa_shut_down: a destroyed
 * queue's page goes to the tail of a FIFO free list and the next create
 * takes the head, zeroed.  This is what keeps the index functions (which
 * cannot validate their hsa_queue_t *) from faulting on a destroyed queue,
 * and the FIFO order delays reuse of a just-freed page.  KFD has dropped its
 * reference to the page at DESTROY_QUEUE, so reuse is safe.  Each page is
 * mapped to every GPU so any queue can take any page.
 *
 * Locking: every function here runs under the registry's lock
 * (rt->queues->lock; queue.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "queue/queue_priv.h"
#include "util/array.h"
#include "util/log.h"

static int page_record(struct hl_queues *qs, struct hl_queue_page *page)
{
	struct hl_queue_page **p =
		hl_array_room(qs->pages, qs->n_pages, &qs->cap_pages, sizeof(*p), 32);
	if (!p)
		return -ENOMEM;
	qs->pages = p;
	qs->pages[qs->n_pages++] = page;
	return 0;
}

int hl_queue_page_get_locked(struct hl_runtime *rt, struct hl_queue_page **out)
{
	struct hl_queues *qs = rt->queues;
	struct hl_queue_page *page = qs->free_head;
	if (page) {
		qs->free_head = page->next;
		if (!qs->free_head)
			qs->free_tail = NULL;
		page->next = NULL;
		memset(page->mem->addr, 0, HL_PAGE_SIZE);
		*out = page;
		return 0;
	}

	page = calloc(1, sizeof(*page));
	if (!page)
		return -ENOMEM;
	/* Fine-grained host memory (COHERENT): the CP and the host both read
	 * and write the dispatch ids and the scratch fields. */
	struct kfd_mem_alloc_args args = {
		.kind = KFD_MEM_USERPTR,
		.gpu_id = rt->gpu_ids[0],
		.size = HL_PAGE_SIZE,
		.align = HL_PAGE_SIZE,
		.extra_flags = KFD_ALLOC_COHERENT,
		.host_access = true,
	};
	int err = kfd_mem_alloc(rt->proc, &args, &page->mem);
	if (err)
		goto err_free_page;
	err = kfd_mem_map(rt->proc, page->mem, rt->gpu_ids, rt->n_gpus);
	if (err)
		goto err_free_mem;
	err = page_record(qs, page);
	if (err)
		goto err_free_mem;
	memset(page->mem->addr, 0, HL_PAGE_SIZE);
	*out = page;
	return 0;

err_free_mem:
	kfd_mem_free(rt->proc, page->mem);
err_free_page:
	free(page);
	hl_error(QUEUE_LOG, "queue descriptor page: %s", hl_errno_name(err));
	return err;
}

void hl_queue_page_put_locked(struct hl_queues *qs, struct hl_queue_page *page)
{
	page->next = NULL;
	if (qs->free_tail)
		qs->free_tail->next = page;
	else
		qs->free_head = page;
	qs->free_tail = page;
}

void hl_queue_pages_release_locked(struct hl_runtime *rt, bool forget)
{
	struct hl_queues *qs = rt->queues;
	for (uint32_t i = 0; i < qs->n_pages; i++) {
		if (!forget)
			kfd_mem_free(rt->proc, qs->pages[i]->mem);
		free(qs->pages[i]);
	}
	free(qs->pages);
	qs->pages = NULL;
	qs->n_pages = qs->cap_pages = 0;
	qs->free_head = qs->free_tail = NULL;
}
