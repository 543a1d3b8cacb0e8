/*
 * Sub-allocation of small device-memory (VRAM) allocations from 2 MiB
 * blocks, as ROCr's fragment allocator does (core/util/simple_heap.h and
 * MemoryRegion::BlockAllocator, identical in ROCr 5.2.3 and 1.18):
 *
 *  - Which allocations: those of a VRAM pool (coarse- or fine-grained, both
 *    "local memory" to ROCr) made without allocation flags
 *    (hsa_amd_memory_pool_allocate with flags 0, hsa_memory_allocate, the
 *    runtime's own ordinary VRAM users).  System pools (fine, kernarg,
 *    coarse) are never sub-allocated, nor executable memory, nor vmem
 *    handles (vmem.c allocates its BOs itself), nor anything when
 *    HSA_DISABLE_FRAGMENT_ALLOCATOR=1.
 *  - Sizes are page-rounded by the caller, so fragments are 4 KiB aligned
 *    and a block's base is 2 MiB aligned (the thunk's automatic alignment).
 *  - Best fit: the smallest free fragment that holds the request, the
 *    oldest published among equal sizes (ROCr's std::multimap keyed by
 *    size); the fragment is cut at its start, the rest published anew.
 *  - No fragment fits: a request below the block size takes the block
 *    cached last, else a new block of the request rounded up to 2 MiB,
 *    allocated and mapped on the owner GPU only (ROCr's AllocateRestrict);
 *    a request above 2 MiB discards its block at once, so nothing else is
 *    ever carved from it and it is freed with its one allocation.
 *  - Free: the fragment merges with free neighbours; a block left wholly
 *    free goes to the pool's cache and stays allocated and mapped (so a
 *    kernel still reading a freed small buffer reads stale data rather
 *    than faulting, as on ROCr), unless it was discarded, which frees it.
 *    The cache is trimmed by ROCr's balance rule (while it holds more than
 *    one block and more than twice the bytes of the blocks in use, the
 *    oldest cached block is freed), wholly when a KFD allocation of the
 *    owner agent fails (then retried once, ROCr's Trim in AllocateMemory;
 *    ROCr retries even when nothing was cached, we only when a block was
 *    freed), and at the last hsa_shut_down.
 *  - Export: an IPC handle of a fragment names the whole block and the
 *    fragment's page offset (ipc.c); the block is then discarded (ROCr's
 *    IPCFragmentExport), so it is never reused and goes back to the kernel
 *    once all its fragments are freed.
 *
 * What the client sees is the fragment: the allocation record
 * (struct hl_alloc) holds the fragment's address and size and points at its
 * block, whose kfd_mem is shared by every fragment of the block (mapping,
 * export and pointer info's accessible agents act on the block).
 *
 * Locking: one mutex per agent guards the heaps of that agent's pools (as
 * ROCr's agent_memory_lock_), held across the block allocation and free
 * ioctls.  It is never taken with rt->mem_lock held, nor mem_lock with it.
 * A block's base, length and kfd_mem never change while the block exists,
 * and a block exists while any fragment of it is allocated, so the holder
 * of a linked allocation record reads them without the lock.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "memory/memory_priv.h"
#include "util/array.h"
#include "util/log.h"

#define SA_LOG "suballoc"
#define SA_BLOCK_SIZE (2ull << 20) /* ROCr's BlockAllocator::block_size_ */

struct hl_sa_frag {
	uint64_t off, size;
	bool free;
	uint64_t seq;                 /* when it was published free */
	struct hl_sa_frag *prev, *next; /* by address within the block */
};

struct hl_sa_block {
	struct kfd_mem *mem;
	uint64_t base, len;
	bool discard;                 /* no further fragments; freed when empty */
	struct hl_sa_frag *frags;     /* covers [base, base + len) */
	struct hl_sa_block *next;     /* the heap's in-use list */
};

struct hl_sa_heap {
	pthread_mutex_t *lock;        /* the owner agent's */
	struct hl_sa_block *blocks;   /* blocks with a fragment in use */
	struct hl_sa_block **cache;   /* wholly free blocks, oldest first */
	uint32_t n_cache, cap_cache;
	uint64_t in_use;              /* bytes of non-discarded used blocks */
	uint64_t cache_size;          /* bytes of cached blocks */
	uint64_t seq;
};

struct hl_suballoc {
	bool disabled;                /* HSA_DISABLE_FRAGMENT_ALLOCATOR=1 */
	uint32_t n_heaps, n_locks;
	struct hl_sa_heap *heaps;     /* one per rt->pools entry */
	pthread_mutex_t *locks;       /* one per rt->agents entry */
};

uint64_t hl_suballoc_block_size(void)
{
	return SA_BLOCK_SIZE;
}

int hl_suballoc_attach(struct hl_runtime *rt)
{
	struct hl_suballoc *sa = calloc(1, sizeof(*sa));
	if (!sa)
		return -ENOMEM;
	sa->disabled = rt->env.no_fragment_alloc;
	sa->n_heaps = rt->n_pools;
	sa->n_locks = rt->n_agents;
	sa->heaps = calloc(sa->n_heaps ? sa->n_heaps : 1, sizeof(*sa->heaps));
	sa->locks = calloc(sa->n_locks ? sa->n_locks : 1, sizeof(*sa->locks));
	if (!sa->heaps || !sa->locks) {
		free(sa->heaps);
		free(sa->locks);
		free(sa);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < sa->n_locks; i++)
		pthread_mutex_init(&sa->locks[i], NULL);
	for (uint32_t i = 0; i < sa->n_heaps; i++) {
		const struct hl_agent *owner = rt->pools[i].owner;
		uint32_t a = owner ? (uint32_t)(owner - rt->agents) : 0;
		sa->heaps[i].lock = &sa->locks[a < sa->n_locks ? a : 0];
	}
	rt->suballoc = sa;
	return 0;
}

bool hl_suballoc_wants(const struct hl_runtime *rt, const struct hl_pool *pool)
{
	return rt->suballoc && !rt->suballoc->disabled &&
	       (pool->kind == HL_POOL_VRAM || pool->kind == HL_POOL_VRAM_FINE);
}

static struct hl_sa_heap *heap_of(struct hl_runtime *rt, const struct hl_pool *pool)
{
	uint32_t i = (uint32_t)(pool - rt->pools);
	return i < rt->suballoc->n_heaps ? &rt->suballoc->heaps[i] : NULL;
}

/* ---- blocks (heap lock held) ---- */

static void block_release(struct hl_runtime *rt, struct hl_sa_block *b)
{
	int err = kfd_mem_free(rt->proc, b->mem);
	if (err)
		hl_error(SA_LOG, "freeing block %#llx (%llu bytes): %s",
			 (unsigned long long)b->base, (unsigned long long)b->len,
			 hl_errno_name(err));
	for (struct hl_sa_frag *f = b->frags, *n; f; f = n) {
		n = f->next;
		free(f);
	}
	free(b);
}

/* Frees every cached block of one heap (ROCr's SimpleHeap::trim). */
static void heap_trim_locked(struct hl_runtime *rt, struct hl_sa_heap *h)
{
	for (uint32_t i = 0; i < h->n_cache; i++)
		block_release(rt, h->cache[i]);
	h->n_cache = 0;
	h->cache_size = 0;
}

/* Frees the oldest cached blocks while the cache holds more than one block
 * and more than twice the bytes in use (ROCr's SimpleHeap::balance). */
static void heap_balance_locked(struct hl_runtime *rt, struct hl_sa_heap *h)
{
	while (h->n_cache > 1 && h->cache_size > h->in_use * 2) {
		struct hl_sa_block *b = h->cache[0];
		h->cache_size -= b->len;
		memmove(&h->cache[0], &h->cache[1], (h->n_cache - 1) * sizeof(h->cache[0]));
		h->n_cache--;
		block_release(rt, b);
	}
}

/* Trims every heap whose pool the agent owns (ROCr's Agent::Trim); the
 * agent's lock is held.  True when a block was freed. */
static bool agent_trim_locked(struct hl_runtime *rt, const struct hl_agent *owner)
{
	bool freed = false;
	for (uint32_t i = 0; i < rt->suballoc->n_heaps; i++)
		if (rt->pools[i].owner == owner) {
			freed |= rt->suballoc->heaps[i].n_cache != 0;
			heap_trim_locked(rt, &rt->suballoc->heaps[i]);
		}
	return freed;
}

static int block_new(struct hl_runtime *rt, struct hl_pool *pool, uint64_t len,
		     struct hl_sa_block **out)
{
	struct hl_sa_block *b = calloc(1, sizeof(*b));
	struct hl_sa_frag *f = calloc(1, sizeof(*f));
	if (!b || !f) {
		free(b);
		free(f);
		return -ENOMEM;
	}
	int err = hl_pool_vram_bo(rt, pool, len, &b->mem);
	if (err == -ENOMEM && agent_trim_locked(rt, pool->owner))
		err = hl_pool_vram_bo(rt, pool, len, &b->mem);
	if (err) {
		free(b);
		free(f);
		return err;
	}
	b->base = (uint64_t)(uintptr_t)b->mem->addr;
	b->len = len;
	f->size = len;
	f->free = true;
	b->frags = f;
	*out = b;
	return 0;
}

static void block_discard_locked(struct hl_runtime *rt, struct hl_sa_heap *h, struct hl_sa_block *b)
{
	if (b->discard)
		return;
	b->discard = true;
	h->in_use -= b->len;
	heap_balance_locked(rt, h);
}

/* Cuts size bytes at the start of free fragment f (ROCr: the fragment's
 * base is the allocation, the remainder published as a new free entry). */
static void frag_take(struct hl_sa_heap *h, struct hl_sa_frag *f, uint64_t size)
{
	if (f->size > size) {
		struct hl_sa_frag *rest = calloc(1, sizeof(*rest));
		if (rest) {
			rest->off = f->off + size;
			rest->size = f->size - size;
			rest->free = true;
			rest->seq = ++h->seq;
			rest->prev = f;
			rest->next = f->next;
			if (f->next)
				f->next->prev = rest;
			f->next = rest;
			f->size = size;
		}
		/* Without memory for the record the whole fragment is given:
		 * the caller's record keeps its own size, and the free
		 * returns all of it. */
	}
	f->free = false;
}

int hl_suballoc_alloc(struct hl_runtime *rt, struct hl_pool *pool, uint64_t size, void **ptr,
		      struct hl_sa_block **block)
{
	struct hl_sa_heap *h = heap_of(rt, pool);
	if (!h || !size || size % HL_PAGE_SIZE)
		return -EINVAL;
	pthread_mutex_lock(h->lock);
	/* Best fit among the published fragments. */
	struct hl_sa_frag *best = NULL;
	struct hl_sa_block *best_b = NULL;
	for (struct hl_sa_block *b = h->blocks; b; b = b->next) {
		if (b->discard)
			continue;
		for (struct hl_sa_frag *f = b->frags; f; f = f->next)
			if (f->free && f->size >= size &&
			    (!best || f->size < best->size ||
			     (f->size == best->size && f->seq < best->seq))) {
				best = f;
				best_b = b;
			}
	}
	if (best) {
		frag_take(h, best, size);
		*ptr = (void *)(uintptr_t)(best_b->base + best->off);
		*block = best_b;
		pthread_mutex_unlock(h->lock);
		return 0;
	}

	struct hl_sa_block *b;
	if (size < SA_BLOCK_SIZE && h->n_cache) {
		b = h->cache[--h->n_cache]; /* the one cached last */
		h->cache_size -= b->len;
	} else {
		uint64_t len = (size + SA_BLOCK_SIZE - 1) & ~(SA_BLOCK_SIZE - 1);
		int err = block_new(rt, pool, len, &b);
		if (err) {
			pthread_mutex_unlock(h->lock);
			return err;
		}
	}
	h->in_use += b->len;
	b->next = h->blocks;
	h->blocks = b;
	frag_take(h, b->frags, size);
	/* A request larger than a block keeps its block to itself, so a
	 * small allocation cannot pin a large block. */
	if (size > SA_BLOCK_SIZE)
		block_discard_locked(rt, h, b);
	*ptr = (void *)(uintptr_t)b->base;
	*block = b;
	pthread_mutex_unlock(h->lock);
	return 0;
}

static void heap_unlink_block(struct hl_sa_heap *h, struct hl_sa_block *b)
{
	for (struct hl_sa_block **pp = &h->blocks; *pp; pp = &(*pp)->next)
		if (*pp == b) {
			*pp = b->next;
			b->next = NULL;
			return;
		}
}

static int cache_push(struct hl_sa_heap *h, struct hl_sa_block *b)
{
	struct hl_sa_block **n = hl_array_room(h->cache, h->n_cache, &h->cap_cache, sizeof(*n), 8);
	if (!n)
		return -ENOMEM;
	h->cache = n;
	h->cache[h->n_cache++] = b;
	h->cache_size += b->len;
	return 0;
}

void hl_suballoc_free(struct hl_runtime *rt, struct hl_pool *pool, struct hl_sa_block *b,
		      const void *ptr)
{
	struct hl_sa_heap *h = heap_of(rt, pool);
	if (!h || !b)
		return;
	uint64_t off = (uint64_t)(uintptr_t)ptr - b->base;
	pthread_mutex_lock(h->lock);
	struct hl_sa_frag *f = b->frags;
	while (f && f->off != off)
		f = f->next;
	if (!f || f->free) {
		pthread_mutex_unlock(h->lock);
		hl_error(SA_LOG, "free %p: no fragment in use there (block %#llx)", ptr,
			 (unsigned long long)b->base);
		return;
	}
	f->free = true;
	/* Merge with the free neighbours. */
	if (f->prev && f->prev->free) {
		struct hl_sa_frag *lo = f->prev;
		lo->size += f->size;
		lo->next = f->next;
		if (f->next)
			f->next->prev = lo;
		free(f);
		f = lo;
	}
	if (f->next && f->next->free) {
		struct hl_sa_frag *hi = f->next;
		f->size += hi->size;
		f->next = hi->next;
		if (hi->next)
			hi->next->prev = f;
		free(hi);
	}
	if (!f->prev && !f->next) {
		/* The whole block is free. */
		heap_unlink_block(h, b);
		if (b->discard) {
			block_release(rt, b);
		} else {
			h->in_use -= b->len;
			if (cache_push(h, b))
				block_release(rt, b); /* no room to remember it */
		}
		heap_balance_locked(rt, h);
		pthread_mutex_unlock(h->lock);
		return;
	}
	f->seq = ++h->seq; /* published anew (a discarded block's never is) */
	pthread_mutex_unlock(h->lock);
}

void hl_suballoc_discard(struct hl_runtime *rt, struct hl_pool *pool, const void *ptr)
{
	struct hl_sa_heap *h = heap_of(rt, pool);
	if (!h)
		return;
	uint64_t a = (uint64_t)(uintptr_t)ptr;
	pthread_mutex_lock(h->lock);
	/* Blocks in use only: a fragment freed meanwhile by another thread
	 * may have taken its block to the cache or back to the kernel. */
	for (struct hl_sa_block *b = h->blocks; b; b = b->next)
		if (a >= b->base && a - b->base < b->len) {
			block_discard_locked(rt, h, b);
			break;
		}
	pthread_mutex_unlock(h->lock);
}

void hl_suballoc_block_range(const struct hl_sa_block *b, uint64_t *base, uint64_t *len)
{
	*base = b->base;
	*len = b->len;
}

struct kfd_mem *hl_suballoc_block_mem(const struct hl_sa_block *b)
{
	return b->mem;
}

bool hl_suballoc_in_block(struct hl_runtime *rt, const void *ptr)
{
	struct hl_suballoc *sa = rt->suballoc;
	uint64_t a = (uint64_t)(uintptr_t)ptr;
	bool found = false;
	for (uint32_t i = 0; sa && i < sa->n_heaps && !found; i++) {
		struct hl_sa_heap *h = &sa->heaps[i];
		pthread_mutex_lock(h->lock);
		for (struct hl_sa_block *b = h->blocks; b && !found; b = b->next)
			found = a >= b->base && a - b->base < b->len;
		for (uint32_t c = 0; c < h->n_cache && !found; c++)
			found = a >= h->cache[c]->base && a - h->cache[c]->base < h->cache[c]->len;
		pthread_mutex_unlock(h->lock);
	}
	return found;
}

bool hl_suballoc_trim_agent(struct hl_runtime *rt, const struct hl_agent *owner)
{
	struct hl_suballoc *sa = rt->suballoc;
	if (!sa)
		return false;
	uint32_t a = (uint32_t)(owner - rt->agents);
	if (a >= sa->n_locks)
		return false;
	pthread_mutex_lock(&sa->locks[a]);
	bool freed = agent_trim_locked(rt, owner);
	pthread_mutex_unlock(&sa->locks[a]);
	return freed;
}

static void heaps_free(struct hl_runtime *rt, bool release)
{
	struct hl_suballoc *sa = rt->suballoc;
	if (!sa)
		return;
	for (uint32_t i = 0; i < sa->n_heaps; i++) {
		struct hl_sa_heap *h = &sa->heaps[i];
		if (release)
			heap_trim_locked(rt, h);
		/* Blocks still in use: their fragments' records were released
		 * before (hl_memory_release_all), so none should remain. */
		for (struct hl_sa_block *b = h->blocks, *n; b; b = n) {
			n = b->next;
			if (release) {
				block_release(rt, b);
			} else {
				for (struct hl_sa_frag *f = b->frags, *fn; f; f = fn) {
					fn = f->next;
					free(f);
				}
				free(b);
			}
		}
		if (!release)
			for (uint32_t c = 0; c < h->n_cache; c++) {
				for (struct hl_sa_frag *f = h->cache[c]->frags, *fn; f; f = fn) {
					fn = f->next;
					free(f);
				}
				free(h->cache[c]);
			}
		free(h->cache);
	}
	for (uint32_t i = 0; release && i < sa->n_locks; i++)
		pthread_mutex_destroy(&sa->locks[i]);
	free(sa->heaps);
	free(sa->locks);
	free(sa);
	rt->suballoc = NULL;
}

void hl_suballoc_release_all(struct hl_runtime *rt)
{
	heaps_free(rt, true);
}

void hl_suballoc_forget_all(struct hl_runtime *rt)
{
	/* Fork child: the BOs are the parent's (kfd_process_close drops the
	 * thunk's records); a parent thread may have held a lock, so none is
	 * taken or destroyed, only the memory is freed. */
	heaps_free(rt, false);
}
