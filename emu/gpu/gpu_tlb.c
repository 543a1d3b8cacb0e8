/*
 * GPU VM translation for the engines: every access an engine makes for a
 * queue (ring, pointers, signals, the buffers its packets name) goes
 * through the queue's VM (the driver's translate ops), so an unmapped or
 * read-only address is a GPU page fault, never a host crash.
 *
 * Engines translate through small TLBs whose entries are valid for one VM
 * generation (the driver bumps it on any MAP, UNMAP or SVM change), as the
 * UTCL2 caches translations until amdgpu_vm flushes them.  An entry covers
 * a whole mapping, so a packet's accesses usually hit one or two entries.
 * Atomics are made on the translated host pointer: the BO's pages are
 * shared with the process's own mapping, so they are the same memory the
 * host threads operate on.
 */
#define _GNU_SOURCE
#include <errno.h>

#include "gpu.h"

void *kemu_gpu_map(const struct kemu_gpu_vm *vm, uint64_t va, size_t len, unsigned access,
		   struct kemu_vm_fault_info *f)
{
	void *host = NULL;
	if (vm->ops->translate(vm->p, vm->gpu_id, va, len, access, &host, f))
		return NULL;
	return host;
}

/* A miss: translates the mapping at va and keeps it in t.  NULL and *f on
 * a fault. */
static const struct kemu_vm_range *tlb_fill(const struct kemu_gpu_vm *vm,
					    struct kemu_gpu_tlb *t, uint64_t va, unsigned access,
					    struct kemu_vm_fault_info *f)
{
	struct kemu_vm_range r;
	if (vm->ops->translate_range(vm->p, vm->gpu_id, va, access, &r, f))
		return NULL;
	struct kemu_vm_range *e = &t->e[t->next++ % KEMU_GPU_TLB_ENTRIES];
	*e = r;
	return e;
}

void *kemu_gpu_tlb_lookup(const struct kemu_gpu_vm *vm, struct kemu_gpu_tlb *t, uint64_t va,
			  unsigned access, uint64_t *avail, struct kemu_vm_fault_info *f)
{
	uint64_t gen = kemu_gpu_vm_generation(vm);
	for (unsigned i = 0; i < KEMU_GPU_TLB_ENTRIES; i++) {
		const struct kemu_vm_range *e = &t->e[i];
		uint64_t off = va - e->va;
		if (e->len && e->gen == gen && off < e->len && !(access & ~e->access)) {
			*avail = e->len - off;
			return e->host + off;
		}
	}
	const struct kemu_vm_range *e = tlb_fill(vm, t, va, access, f);
	if (!e)
		return NULL;
	*avail = e->len;
	return e->host;
}

void *kemu_gpu_tlb_map(const struct kemu_gpu_vm *vm, struct kemu_gpu_tlb *t, uint64_t va,
		       size_t len, unsigned access, struct kemu_vm_fault_info *f)
{
	size_t n = len ? len : 1;
	uint64_t gen = kemu_gpu_vm_generation(vm);
	for (unsigned i = 0; i < KEMU_GPU_TLB_ENTRIES; i++) {
		const struct kemu_vm_range *e = &t->e[i];
		uint64_t off = va - e->va;
		if (e->len && e->gen == gen && off < e->len && n <= e->len - off &&
		    !(access & ~e->access))
			return e->host + off;
	}
	const struct kemu_vm_range *e = tlb_fill(vm, t, va, access, f);
	if (!e)
		return NULL;
	if (e->len < n) {
		/* the range runs off the end of its mapping */
		if (f)
			*f = (struct kemu_vm_fault_info){ .va = va + e->len, .gpu_id = vm->gpu_id,
							  .not_present = true };
		return NULL;
	}
	return e->host;
}

int kemu_gpu_tlb_load64(const struct kemu_gpu_vm *vm, struct kemu_gpu_tlb *t, uint64_t va,
			uint64_t *out, struct kemu_vm_fault_info *f)
{
	_Atomic uint64_t *h = kemu_gpu_tlb_map(vm, t, va, 8, KEMU_ACCESS_READ, f);
	if (!h)
		return -EFAULT;
	if (va & 7) {
		/* the hardware would split it; no atomicity to keep */
		__builtin_memcpy(out, (void *)h, 8);
		return 0;
	}
	/* acquire: pairs with the host's release store of the value (signal
	 * stores, write index reservation) */
	*out = atomic_load_explicit(h, memory_order_acquire);
	return 0;
}
