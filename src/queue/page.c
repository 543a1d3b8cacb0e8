/*
 * Descriptor slots: the GPU-mapped host memory that holds a queue's
 * amd_queue_t.  A slot is HL_QUEUE_SLOT_BYTES: the amd_queue_t at its start
 * (64-byte aligned, as the ABI asks), the rest free for its owner (the
 * internal queue keeps its indirect buffer there).  Slots are objects of
 * the memory module's shared pages (hl_small_alloc, src/memory/small.c),
 * which the runtime's first signals share too: CREATE_QUEUE (6.12+,
 * kfd_queue_acquire_buffers) wants the read and write pointers in a
 * mapping that starts at their page and is exactly one page long, checks
 * the page, not the pointer's offset in it, and counts the queues that use
 * a mapping (queue_refcount), so every such page, one BO of one page
 * mapped to every GPU, may hold several queues' pointers and other
 * objects.  ROCr gives every queue a page of its own; no program can tell:
 * the hsa_queue_t * is 64-byte aligned, as ROCr's amd_queue_t declares,
 * and only the queue's CP and the host read or write a slot.
 *
 * Slots are never given back before the last hsa_shut_down: a destroyed
 * queue's slot goes to the tail of a FIFO free list and the next create
 * takes the head, zeroed.  This is what keeps the index functions (which
 * cannot validate their hsa_queue_t *) from faulting on a destroyed queue,
 * and the FIFO order delays reuse of a just-freed slot.  KFD has dropped
 * that queue's reference to the page at DESTROY_QUEUE, so reuse is safe;
 * the pages stay mapped until the memory module's teardown, after this
 * module's.
 *
 * Locking: every function here runs under the registry's lock
 * (rt->queues->lock; queue.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "memory/memory.h"
#include "queue/queue_priv.h"
#include "util/array.h"
#include "util/log.h"

_Static_assert(HL_QUEUE_SLOT_BYTES % AMD_QUEUE_ALIGN_BYTES == 0, "slots keep amd_queue_t aligned");
_Static_assert(sizeof(amd_queue_t) <= HL_QUEUE_SLOT_BYTES, "an amd_queue_t fits a slot");
_Static_assert((HL_QUEUE_SLOT_BYTES & (HL_QUEUE_SLOT_BYTES - 1)) == 0 &&
		       HL_QUEUE_SLOT_BYTES <= HL_PAGE_SIZE,
	       "a slot is one object of a shared page (a power of two, at most a page)");

static void slot_append(struct hl_queues *qs, struct hl_queue_slot *slot)
{
	slot->next = NULL;
	if (qs->free_tail)
		qs->free_tail->next = slot;
	else
		qs->free_head = slot;
	qs->free_tail = slot;
}

/* A new slot from the shared pages, recorded for teardown. */
static int slot_add_locked(struct hl_runtime *rt, struct hl_queue_slot **out)
{
	struct hl_queues *qs = rt->queues;
	struct hl_queue_slot **p =
		hl_array_room(qs->slots, qs->n_slots, &qs->cap_slots, sizeof(*p), 8);
	if (!p)
		return -ENOMEM;
	qs->slots = p;
	struct hl_queue_slot *slot = calloc(1, sizeof(*slot));
	if (!slot)
		return -ENOMEM;
	int err = hl_small_alloc(rt, HL_QUEUE_SLOT_BYTES, &slot->addr);
	if (err) {
		hl_error(QUEUE_LOG, "queue descriptor slot: %s", hl_errno_name(err));
		free(slot);
		return err;
	}
	qs->slots[qs->n_slots++] = slot;
	*out = slot;
	return 0;
}

int hl_queue_slot_get_locked(struct hl_runtime *rt, struct hl_queue_slot **out)
{
	struct hl_queues *qs = rt->queues;
	struct hl_queue_slot *slot = qs->free_head;
	if (!slot)
		return slot_add_locked(rt, out); /* hl_small_alloc zeroes it */
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

void hl_queue_slots_release_locked(struct hl_queues *qs)
{
	for (uint32_t i = 0; i < qs->n_slots; i++)
		free(qs->slots[i]);
	free(qs->slots);
	qs->slots = NULL;
	qs->n_slots = qs->cap_slots = 0;
	qs->free_head = qs->free_tail = NULL;
}
