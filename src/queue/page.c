/*
 * Descriptor slots: the GPU-mapped host memory that holds a queue's
 * amd_queue_t.  CREATE_QUEUE (6.12+, kfd_queue_acquire_buffers) wants the
 * read and write pointers in a mapping that starts at their page and is
 * exactly one page long; it checks the page, not the pointer's offset in
 * it, and counts the queues that use a mapping (queue_refcount), so several
 * queues may have their pointers in one page.  A page is therefore cut into
 * HL_QUEUE_SLOTS_PER_PAGE slots of HL_QUEUE_SLOT_BYTES: the amd_queue_t at
 * the slot's start (64-byte aligned, as the ABI asks), the rest free for
 * its owner (the internal queue keeps its indirect buffer there).  One BO
 * serves eight queues where each took an ALLOC+MAP and an UNMAP+FREE of
 * its own (ROCr gives every queue its own page; no program can tell: the
 * hsa_queue_t * is 64-byte aligned, as ROCr's amd_queue_t declares, and
 * only the queue's CP and the host read or write a slot).
 *
 * Slots are never unmapped before the last hsa_shut_down: a destroyed
 * queue's slot goes to the tail of a FIFO free list and the next create
 * takes the head, zeroed.  This is what keeps the index functions (which
 * cannot validate their hsa_queue_t *) from faulting on a destroyed queue,
 * and the FIFO order delays reuse of a just-freed slot.  KFD has dropped
 * that queue's reference to the page at DESTROY_QUEUE, so reuse is safe;
 * the page itself stays mapped while any slot of it is in use, since pages
 * are freed only at teardown.  Each page is mapped to every GPU so any
 * queue can take any slot.
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

_Static_assert(HL_QUEUE_SLOT_BYTES % AMD_QUEUE_ALIGN_BYTES == 0, "slots keep amd_queue_t aligned");
_Static_assert(sizeof(amd_queue_t) <= HL_QUEUE_SLOT_BYTES, "an amd_queue_t fits a slot");
_Static_assert(HL_QUEUE_SLOTS_PER_PAGE * HL_QUEUE_SLOT_BYTES == HL_PAGE_SIZE,
	       "the slots tile the page");

/* A page and its slots: one BO, never freed before teardown. */
struct hl_queue_page {
	struct kfd_mem *mem;
	struct hl_queue_slot slots[HL_QUEUE_SLOTS_PER_PAGE];
};

static int page_record(struct hl_queues *qs, struct hl_queue_page *page)
{
	struct hl_queue_page **p =
		hl_array_room(qs->pages, qs->n_pages, &qs->cap_pages, sizeof(*p), 8);
	if (!p)
		return -ENOMEM;
	qs->pages = p;
	qs->pages[qs->n_pages++] = page;
	return 0;
}

static void slot_append(struct hl_queues *qs, struct hl_queue_slot *slot)
{
	slot->next = NULL;
	if (qs->free_tail)
		qs->free_tail->next = slot;
	else
		qs->free_head = slot;
	qs->free_tail = slot;
}

/* A new page, mapped to every GPU, its slots on the free list. */
static int page_add_locked(struct hl_runtime *rt)
{
	struct hl_queues *qs = rt->queues;
	struct hl_queue_page *page = calloc(1, sizeof(*page));
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
	for (uint32_t i = 0; i < HL_QUEUE_SLOTS_PER_PAGE; i++) {
		page->slots[i].addr = (char *)page->mem->addr + (size_t)i * HL_QUEUE_SLOT_BYTES;
		slot_append(qs, &page->slots[i]);
	}
	return 0;

err_free_mem:
	kfd_mem_free(rt->proc, page->mem);
err_free_page:
	free(page);
	hl_error(QUEUE_LOG, "queue descriptor page: %s", hl_errno_name(err));
	return err;
}

int hl_queue_slot_get_locked(struct hl_runtime *rt, struct hl_queue_slot **out)
{
	struct hl_queues *qs = rt->queues;
	if (!qs->free_head) {
		int err = page_add_locked(rt);
		if (err)
			return err;
	}
	struct hl_queue_slot *slot = qs->free_head;
	qs->free_head = slot->next;
	if (!qs->free_head)
		qs->free_tail = NULL;
	slot->next = NULL;
	memset(slot->addr, 0, HL_QUEUE_SLOT_BYTES);
	*out = slot;
	return 0;
}

void hl_queue_slot_put_locked(struct hl_queues *qs, struct hl_queue_slot *slot)
{
	slot_append(qs, slot);
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
