/*
 * isa_program.c — the program cache: kernel descriptors checked and code
 * decoded once per (key, generation), shared by every dispatch of the
 * same kernel (the keys and their validity rules are described below).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "isa_priv.h"

/* ---- program cache ----
 *
 * One chain of programs, most recently used first and at most
 * KEMU_ISA_CACHE_PROGRAMS long (the tail is dropped), under cache_lock,
 * which is never held while GPU memory is read or code decoded.  The
 * chain holds one reference to each program on it and every
 * kemu_isa_program_get caller another, so a program dropped from the
 * chain lives until its last user puts it.  Two kinds of key (isa.h,
 * kemu_isa_dispatch.cache_vm):
 *   - mem_ctx programs are still valid when the descriptor and the first
 *     16 code bytes read now are those they were decoded from;
 *   - (owner, vm) programs are valid when the descriptor bytes are the
 *     same and they were decoded under the dispatch's vm_gen and
 *     icache_gen: the code is not read again, as an instruction cache
 *     serves it until the TLB flush or the invalidate.
 * A stale program is dropped when a lookup finds it.  Decoding happens
 * outside the lock; two threads that decode the same kernel at once keep
 * the first one cached.
 */

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static struct kemu_isa_program *cache_head;
static unsigned cache_count;

static void program_free(struct kemu_isa_program *p)
{
	if (!p)
		return;
	if (atomic_load_explicit(&p->code, memory_order_acquire)) {
		kemu_isa_code_free(p);
		pthread_mutex_destroy(&p->ext_lock);
	}
	free(p);
}

int isa_read_direct(const struct kemu_isa_mem *mem, uint64_t va, void *dst, uint32_t len,
		    unsigned access)
{
	uint8_t *d = dst;
	while (len) {
		uint32_t chunk = 4096 - (uint32_t)(va & 4095);
		const void *h;
		if (chunk > len)
			chunk = len;
		h = mem->translate(mem->ctx, va, chunk, access);
		if (!h)
			return -1;
		memcpy(d, h, chunk);
		d += chunk;
		va += chunk;
		len -= chunk;
	}
	return 0;
}

static int descriptor_check(struct kemu_isa_program *p, struct kemu_isa_error *err)
{
	const amdhsa_kernel_descriptor_t *kd = &p->kd;
	uint32_t rsrc1 = kd->compute_pgm_rsrc1, rsrc2 = kd->compute_pgm_rsrc2;
	unsigned kcp = kd->kernel_code_properties;
	unsigned user = 0, user_count = (rsrc2 >> 1) & 0x1f;
	unsigned preload = kd->kernarg_preload & 0x7f;

	if (kcp & (1u << 10))
		goto bad_wave32;
	if (p->gfx942 && (kcp & ((1u << 0) | (1u << 5)))) {
		isa_err_setf(err, KEMU_ISA_ERR_BAD_DESCRIPTOR, p->kd_va,
			 "kernel descriptor at 0x%llx: gfx942 has architected flat scratch; "
			 "private segment buffer / flat scratch init user SGPRs must be 0",
			 (unsigned long long)p->kd_va);
		return -1;
	}
	user += (kcp & 1) ? 4 : 0;
	user += (kcp & 2) ? 2 : 0;
	user += (kcp & 4) ? 2 : 0;
	user += (kcp & 8) ? 2 : 0;
	user += (kcp & 16) ? 2 : 0;
	user += (kcp & 32) ? 2 : 0;
	user += (kcp & 64) ? 1 : 0;
	if (user + preload > user_count || user_count > 16) {
		isa_err_setf(err, KEMU_ISA_ERR_BAD_DESCRIPTOR, p->kd_va,
			 "kernel descriptor at 0x%llx: USER_SGPR_COUNT %u is less than the "
			 "%u enabled user SGPRs + %u preloaded kernarg dwords (or above 16)",
			 (unsigned long long)p->kd_va, user_count, user, preload);
		return -1;
	}
	/* VGPR granule 8 on gfx90a/gfx942 (AMDGPUUsage, compute_pgm_rsrc1). */
	p->vgpr_rows = ((rsrc1 & 0x3f) + 1) * 8;
	p->accum_offset = ((kd->compute_pgm_rsrc3 & 0x3f) + 1) * 4;
	if (p->vgpr_rows > 512 || p->accum_offset > 256) {
		isa_err_setf(err, KEMU_ISA_ERR_BAD_DESCRIPTOR, p->kd_va,
			 "kernel descriptor at 0x%llx: %u VGPRs / ACCUM_OFFSET %u out of range",
			 (unsigned long long)p->kd_va, p->vgpr_rows, p->accum_offset);
		return -1;
	}
	/* MODE from rsrc1: FLOAT_ROUND_MODE_32 [13:12], _16_64 [15:14],
	 * FLOAT_DENORM_MODE_32 [17:16], _16_64 [19:18], DX10_CLAMP [21],
	 * IEEE_MODE [23] map onto MODE [3:0], [7:4], [8], [9]. */
	p->mode = ((rsrc1 >> 12) & 0xff) | (((rsrc1 >> 21) & 1) << 8) | (((rsrc1 >> 23) & 1) << 9);
	p->lds_fixed = kd->group_segment_fixed_size;
	p->private_fixed = kd->private_segment_fixed_size;
	return 0;
bad_wave32:
	isa_err_setf(err, KEMU_ISA_ERR_BAD_DESCRIPTOR, p->kd_va,
		 "kernel descriptor at 0x%llx asks for wave32, which gfx9 does not have",
		 (unsigned long long)p->kd_va);
	return -1;
}

/* Does program p have d's key (not yet: is it still valid)? */
static bool cache_key_match(const struct kemu_isa_program *p, const struct kemu_isa_dispatch *d)
{
	if (p->kd_va != d->kernel_object || p->gfx != d->gfx_target_version)
		return false;
	if (d->cache_vm)
		return p->vm == d->cache_vm && p->owner == d->cache_owner;
	return !p->vm && p->mem_ctx == d->mem->ctx;
}

/* May d run p, which has d's key?  kd: the descriptor bytes read for d;
 * entry: the first code bytes (mem_ctx programs only). */
static bool cache_valid(const struct kemu_isa_program *p, const struct kemu_isa_dispatch *d,
			const uint8_t *kd, const uint8_t *entry)
{
	if (memcmp(p->kd_bytes, kd, 64))
		return false;
	if (d->cache_vm)
		return p->vm_gen == d->cache_vm_gen && p->icache_gen == d->cache_icache_gen;
	return !memcmp(p->entry_bytes, entry, 16);
}

/* p was decoded under newer generations than d read: d is the stale one
 * (it read them before a concurrent unmap or invalidate), so p stays. */
static bool cache_newer(const struct kemu_isa_program *p, const struct kemu_isa_dispatch *d)
{
	return d->cache_vm && (p->vm_gen > d->cache_vm_gen || p->icache_gen > d->cache_icache_gen);
}

/* Takes *pp off the chain; returns it when that was its last reference
 * (the caller frees it after dropping the lock).  Caller holds cache_lock. */
static struct kemu_isa_program *cache_unlink(struct kemu_isa_program **pp)
{
	struct kemu_isa_program *p = *pp;

	*pp = p->next;
	p->next = NULL;
	cache_count--;
	return --p->refs == 0 ? p : NULL;
}

/* Finds d's program on the chain: a valid one is moved to the front and
 * returned with a reference for the caller; a stale one is unlinked (into
 * *dead if it was its last reference).  Caller holds cache_lock. */
static struct kemu_isa_program *cache_find(const struct kemu_isa_dispatch *d, const uint8_t *kd,
					   const uint8_t *entry, struct kemu_isa_program **dead,
					   bool *keep_newer)
{
	*keep_newer = false;
	for (struct kemu_isa_program **pp = &cache_head; *pp; pp = &(*pp)->next) {
		struct kemu_isa_program *p = *pp;
		if (!cache_key_match(p, d))
			continue;
		if (cache_valid(p, d, kd, entry)) {
			*pp = p->next;
			p->next = cache_head;
			cache_head = p;
			p->refs++;
			return p;
		}
		if (cache_newer(p, d)) {
			*keep_newer = true;
			return NULL;
		}
		p = cache_unlink(pp);
		if (p) {
			p->next = *dead;
			*dead = p;
		}
		return NULL;
	}
	return NULL;
}

/* Puts np (refs 1: the caller's) at the front and drops the tail beyond
 * the bound (into the *dead list).  Caller holds cache_lock. */
static void cache_insert(struct kemu_isa_program *np, struct kemu_isa_program **dead)
{
	np->refs++;
	np->next = cache_head;
	cache_head = np;
	cache_count++;
	while (cache_count > KEMU_ISA_CACHE_PROGRAMS) {
		struct kemu_isa_program **pp = &cache_head;
		while ((*pp)->next)
			pp = &(*pp)->next;
		struct kemu_isa_program *p = cache_unlink(pp);
		if (p) {
			p->next = *dead;
			*dead = p;
		}
	}
}

unsigned kemu_isa_cache_count(void)
{
	unsigned n;

	pthread_mutex_lock(&cache_lock);
	n = cache_count;
	pthread_mutex_unlock(&cache_lock);
	return n;
}

static void free_list(struct kemu_isa_program *p)
{
	while (p) {
		struct kemu_isa_program *n = p->next;
		program_free(p);
		p = n;
	}
}

/* cache_find under the lock, for a caller that has not decoded yet. */
static struct kemu_isa_program *cache_lookup(const struct kemu_isa_dispatch *d,
					     const uint8_t *kd, const uint8_t *entry,
					     bool *keep_newer)
{
	struct kemu_isa_program *p, *dead = NULL;

	pthread_mutex_lock(&cache_lock);
	p = cache_find(d, kd, entry, &dead, keep_newer);
	pthread_mutex_unlock(&cache_lock);
	free_list(dead);
	if (p)
		kemu_isa_stats_reused();
	return p;
}

struct kemu_isa_program *kemu_isa_program_get(const struct kemu_isa_dispatch *d,
					      struct kemu_isa_error *err)
{
	struct kemu_isa_program *p, *np = NULL, *dead = NULL;
	uint8_t kd[64], entry[16];
	uint64_t entry_va;
	amdhsa_kernel_descriptor_t kdesc;
	bool keep_newer = false;

	if (!d || !d->mem || !d->mem->translate) {
		isa_err_setf(err, KEMU_ISA_ERR_BAD_DISPATCH, 0, "dispatch without a memory interface");
		return NULL;
	}
	if (d->gfx_target_version != KEMU_ISA_GFX90A && d->gfx_target_version != KEMU_ISA_GFX942) {
		isa_err_setf(err, KEMU_ISA_ERR_BAD_DISPATCH, 0,
			 "gfx_target_version %u is not gfx90a (90010) or gfx942 (90402)",
			 d->gfx_target_version);
		return NULL;
	}
	if ((d->kernel_object & 63) ||
	    isa_read_direct(d->mem, d->kernel_object, kd, 64, KEMU_ISA_ACCESS_READ)) {
		isa_err_setf(err, KEMU_ISA_ERR_BAD_DESCRIPTOR, d->kernel_object,
			 "kernel descriptor at 0x%llx is unaligned or unreadable",
			 (unsigned long long)d->kernel_object);
		return NULL;
	}
	memset(entry, 0, sizeof(entry));
	/* an instruction-cache hit reads no code */
	if (d->cache_vm && (p = cache_lookup(d, kd, entry, &keep_newer)))
		return p;
	memcpy(&kdesc, kd, 64);
	entry_va = d->kernel_object + (uint64_t)kdesc.kernel_code_entry_byte_offset;
	if ((kdesc.kernarg_preload & 0x7f) != 0)
		entry_va += 256; /* firmware with kernarg preload skips the
				    compatibility block */
	if ((entry_va & 255) != 0 && (entry_va & 3) != 0) {
		isa_err_setf(err, KEMU_ISA_ERR_BAD_DESCRIPTOR, d->kernel_object,
			 "kernel entry 0x%llx is not dword aligned", (unsigned long long)entry_va);
		return NULL;
	}
	if (isa_read_direct(d->mem, entry_va, entry, 16, KEMU_ISA_ACCESS_EXEC)) {
		/* A kernel shorter than 16 bytes at the end of a mapping. */
		memset(entry, 0, sizeof(entry));
		if (isa_read_direct(d->mem, entry_va, entry, 4, KEMU_ISA_ACCESS_EXEC)) {
			isa_err_setf(err, KEMU_ISA_ERR_MEMORY_FAULT, entry_va,
				 "kernel code at 0x%llx is not mapped executable",
				 (unsigned long long)entry_va);
			if (err) {
				err->va = entry_va;
				err->access = KEMU_ISA_ACCESS_EXEC;
			}
			return NULL;
		}
	}

	if (!d->cache_vm && (p = cache_lookup(d, kd, entry, &keep_newer)))
		return p;

	np = calloc(1, sizeof(*np));
	if (!np) {
		isa_err_setf(err, KEMU_ISA_ERR_NO_MEMORY, 0, "out of memory for a program");
		return NULL;
	}
	np->refs = 1; /* the caller's */
	np->mem_ctx = d->cache_vm ? NULL : d->mem->ctx;
	np->owner = d->cache_vm ? d->cache_owner : NULL;
	np->vm = d->cache_vm;
	np->vm_gen = d->cache_vm_gen;
	np->icache_gen = d->cache_icache_gen;
	np->kd_va = d->kernel_object;
	memcpy(np->kd_bytes, kd, 64);
	memcpy(np->entry_bytes, entry, 16);
	np->kd = kdesc;
	np->gfx = d->gfx_target_version;
	np->gfx942 = d->gfx_target_version == KEMU_ISA_GFX942;
	np->entry_va = entry_va;
	if (descriptor_check(np, err)) {
		program_free(np);
		return NULL;
	}
	if (kemu_isa_decode_program(np, d->mem)) {
		isa_err_setf(err, KEMU_ISA_ERR_NO_MEMORY, entry_va,
			 "out of memory (or over 2^20 instructions) decoding the kernel at 0x%llx",
			 (unsigned long long)entry_va);
		program_free(np);
		return NULL;
	}
	kemu_isa_stats_add(0, 0, 0, 1);

	pthread_mutex_lock(&cache_lock);
	p = cache_find(d, kd, entry, &dead, &keep_newer);
	if (p) {
		/* another thread decoded it meanwhile: keep that one */
		pthread_mutex_unlock(&cache_lock);
		free_list(dead);
		program_free(np);
		return p;
	}
	if (!keep_newer) /* else np runs this dispatch only */
		cache_insert(np, &dead);
	pthread_mutex_unlock(&cache_lock);
	free_list(dead);
	return np;
}

void kemu_isa_program_put(struct kemu_isa_program *p)
{
	bool last;

	if (!p)
		return;
	pthread_mutex_lock(&cache_lock);
	last = --p->refs == 0;
	pthread_mutex_unlock(&cache_lock);
	if (last)
		program_free(p);
}

void kemu_isa_cache_flush(const void *ctx)
{
	struct kemu_isa_program **pp, *dead = NULL;

	pthread_mutex_lock(&cache_lock);
	pp = &cache_head;
	while (*pp) {
		struct kemu_isa_program *p = *pp;
		if (!ctx || p->mem_ctx == ctx || p->owner == ctx) {
			p = cache_unlink(pp);
			if (p) {
				p->next = dead;
				dead = p;
			}
		} else {
			pp = &p->next;
		}
	}
	pthread_mutex_unlock(&cache_lock);
	free_list(dead);
}
