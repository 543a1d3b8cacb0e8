/*
 * The GPU virtual memory of a process on one device: the mappings made by
 * MAP_MEMORY_TO_GPU and by the render node's GEM_VA (the same amdgpu_vm:
 * ACQUIRE_VM turned the render file's VM into the compute VM), kept as a
 * sorted array of non-overlapping page ranges
 * (amdgpu_vm's interval tree of bo_va mappings), with permissions from the
 * allocation flags (WRITABLE, EXECUTABLE; every mapping is readable).
 *
 * The GPU side resolves every access through kemu_vm_translate or the
 * copying kemu_vm_read/kemu_vm_write.  An access outside a mapping, or a
 * write to a read-only one, is a GPU page fault; the caller raises it with
 * kemu_vm_fault (kemu_events.c), which is what the IH does for a retry-off
 * fault.  Lookups take process->vm_lock for read; MAP/UNMAP take it for
 * write, so a copy can never see memory that is being unmapped.
 *
 * The GPU's TLBs.  A translation may be kept (the CP's per-queue TLB,
 * emu/isa's decoded programs) together with the VM generation it was made
 * under (kemu_vm_translate_range).  Every change to a VM, under vm_lock
 * for write, bumps process->vm_gen before the lock is released, which is
 * the TLB flush amdgpu_vm does after an unmap: a holder that reads an
 * unchanged generation (acquire, pairs with that bump) may use its
 * translation, one that reads another translates again.  A kept
 * translation is as safe as a fresh one: kemu_vm_translate's pointer is
 * also used after the lock is dropped.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kemu_priv.h"

/* Index of the first mapping whose last page is >= page. */
static size_t vm_search(const struct kemu_vm *vm, uint64_t page)
{
	size_t lo = 0, hi = vm->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (vm->maps[mid].last < page)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct kemu_vm_mapping *kemu_vm_lookup(const struct kemu_vm *vm, uint64_t page)
{
	size_t i = vm_search(vm, page);
	if (i < vm->n && vm->maps[i].start <= page)
		return &vm->maps[i];
	return NULL;
}

int kemu_vm_insert_map(struct kemu_vm *vm, struct kemu_bo *bo, uint64_t va, uint64_t size,
		       uint64_t bo_offset, unsigned perms, bool gem)
{
	if (!size || (va & (KEMU_PAGE_SIZE - 1)) || va + size < va)
		return -EINVAL;
	uint64_t start = va >> 12, last = (va + size - 1) >> 12;
	size_t i = vm_search(vm, start);
	/* amdgpu_vm_bo_map: an overlapping mapping is -EINVAL */
	if (i < vm->n && vm->maps[i].start <= last)
		return -EINVAL;
	struct kemu_vm_mapping *n = kemu_array_room(vm->maps, vm->n, &vm->cap, sizeof(*n), 32);
	if (!n)
		return -ENOMEM;
	vm->maps = n;
	memmove(&vm->maps[i + 1], &vm->maps[i], (vm->n - i) * sizeof(vm->maps[0]));
	vm->maps[i] = (struct kemu_vm_mapping){ start, last, bo, bo_offset, perms, gem };
	vm->n++;
	return 0;
}

int kemu_vm_insert(struct kemu_vm *vm, struct kemu_bo *bo, uint64_t va, uint64_t size,
		   uint64_t bo_offset)
{
	/* KFD mappings are always readable; the rest from the alloc flags */
	unsigned perms = KEMU_ACCESS_READ;
	if (bo->flags & KFD_ALLOC_WRITABLE)
		perms |= KEMU_ACCESS_WRITE;
	if (bo->flags & KFD_ALLOC_EXECUTABLE)
		perms |= KEMU_ACCESS_EXEC;
	return kemu_vm_insert_map(vm, bo, va, size, bo_offset, perms, false);
}

/* Drops the mappings of bo made through one interface (KFD or GEM_VA). */
static void vm_remove(struct kemu_vm *vm, const struct kemu_bo *bo, bool gem)
{
	size_t j = 0;
	for (size_t i = 0; i < vm->n; i++) {
		if (vm->maps[i].bo != bo || vm->maps[i].gem != gem)
			vm->maps[j++] = vm->maps[i];
	}
	vm->n = j;
}

void kemu_vm_remove_bo(struct kemu_vm *vm, const struct kemu_bo *bo)
{
	vm_remove(vm, bo, false);
}

void kemu_vm_remove_gem_bo(struct kemu_vm *vm, const struct kemu_bo *bo)
{
	vm_remove(vm, bo, true);
}

int kemu_vm_remove_gem_at(struct kemu_vm *vm, const struct kemu_bo *bo, uint64_t va)
{
	uint64_t start = va >> 12;
	size_t i = vm_search(vm, start);
	if (i == vm->n || vm->maps[i].start != start || vm->maps[i].bo != bo ||
	    !vm->maps[i].gem)
		return -ENOENT;
	memmove(&vm->maps[i], &vm->maps[i + 1], (vm->n - i - 1) * sizeof(vm->maps[0]));
	vm->n--;
	return 0;
}

void kemu_vm_fini(struct kemu_vm *vm)
{
	free(vm->maps);
	vm->maps = NULL;
	vm->n = vm->cap = 0;
}

/* The emulator's host address of a BO byte offset. */
static uint8_t *bo_host(const struct kemu_bo *bo, uint64_t off)
{
	if (bo->kind == KEMU_BO_USERPTR)
		return (uint8_t *)(uintptr_t)(bo->user_addr + off);
	return bo->host + off;
}

/* An SVM page (GPU VA == CPU VA, system memory): one page at a time, so
 * every page's attributes are checked.  Caller holds vm_lock. */
static uint8_t *svm_resolve(struct kemu_process *p, struct kemu_pdd *pdd, uint64_t va,
			    size_t len, unsigned access, size_t *avail, bool *user,
			    struct kemu_vm_fault_info *fault)
{
	unsigned perms = 0;
	if (!kemu_svm_gpu_page_mapped(p, pdd->dev->index, va >> 12, &perms)) {
		if (fault)
			fault->not_present = true;
		return NULL;
	}
	if ((access & KEMU_ACCESS_WRITE) && !(perms & KEMU_ACCESS_WRITE)) {
		if (fault)
			fault->read_only = true;
		return NULL;
	}
	if ((access & KEMU_ACCESS_EXEC) && !(perms & KEMU_ACCESS_EXEC)) {
		if (fault)
			fault->no_execute = true;
		return NULL;
	}
	uint64_t end = (va | (KEMU_PAGE_SIZE - 1)) + 1;
	*avail = end - va < len ? (size_t)(end - va) : len;
	*user = true;
	return (uint8_t *)(uintptr_t)va;
}

/* Resolves up to len bytes at va inside one mapping: returns the host
 * pointer and the number of bytes available there.  Caller holds vm_lock. */
static uint8_t *vm_resolve(struct kemu_process *p, struct kemu_pdd *pdd, uint64_t va,
			   size_t len, unsigned access, size_t *avail, bool *user,
			   struct kemu_vm_fault_info *fault)
{
	const struct kemu_vm_mapping *map = kemu_vm_lookup(&pdd->vm, va >> 12);
	if (fault)
		*fault = (struct kemu_vm_fault_info){ .va = va,
						      .gpu_id = pdd->dev->gpu->gpu_id };
	if (!map)
		return svm_resolve(p, pdd, va, len, access, avail, user, fault);
	/* a GEM_VA mapping without AMDGPU_VM_PAGE_READABLE: an invalid PTE
	 * for reads */
	if ((access & KEMU_ACCESS_READ) && !(map->perms & KEMU_ACCESS_READ)) {
		if (fault)
			fault->not_present = true;
		return NULL;
	}
	if ((access & KEMU_ACCESS_WRITE) && !(map->perms & KEMU_ACCESS_WRITE)) {
		if (fault)
			fault->read_only = true;
		return NULL;
	}
	if ((access & KEMU_ACCESS_EXEC) && !(map->perms & KEMU_ACCESS_EXEC)) {
		if (fault)
			fault->no_execute = true;
		return NULL;
	}
	uint64_t off = va - (map->start << 12);
	uint64_t end = (map->last + 1) << 12;
	*avail = end - va < len ? (size_t)(end - va) : len;
	*user = map->bo->kind == KEMU_BO_USERPTR;
	/* the HDP model: a read of VRAM pages the CPU wrote after the last
	 * flush (acquire: pairs with the fault handler's release increment,
	 * so the bits it set before are seen) */
	if (map->bo->hdp_dirty && (access & (KEMU_ACCESS_READ | KEMU_ACCESS_EXEC)) &&
	    atomic_load_explicit(&map->bo->hdp_ndirty, memory_order_acquire) &&
	    !kemu_hdp_gpu_read(p, map->bo, map->bo_offset + off, va, avail, access, fault))
		return NULL;
	return bo_host(map->bo, map->bo_offset + off);
}

int kemu_vm_translate(struct kemu_process *p, uint32_t gpu_id, uint64_t gpu_va, size_t len,
		      unsigned access, void **host, struct kemu_vm_fault_info *fault)
{
	struct kemu_pdd *pdd = kemu_pdd_by_id(p, gpu_id);
	if (!pdd)
		return -EINVAL;
	pthread_rwlock_rdlock(&p->vm_lock);
	size_t avail = 0;
	bool user;
	uint8_t *h = vm_resolve(p, pdd, gpu_va, len ? len : 1, access, &avail, &user, fault);
	while (h && avail < (len ? len : 1)) {
		/* cut short by a dirty page (HDP model): the rest must pass too */
		size_t more = 0;
		if (vm_resolve(p, pdd, gpu_va + avail, len - avail, access, &more, &user, fault) ==
		    h + avail) {
			avail += more;
			continue;
		}
		if (fault && !fault->hdp_stale)
			/* the range runs off the end of this mapping */
			*fault = (struct kemu_vm_fault_info){ .va = gpu_va + avail,
							      .gpu_id = gpu_id,
							      .not_present = true };
		h = NULL;
	}
	pthread_rwlock_unlock(&p->vm_lock);
	if (!h)
		return -EFAULT;
	*host = h;
	return 0;
}

void kemu_vm_write_unlock(struct kemu_process *p)
{
	/* release: pairs with kemu_vm_generation's acquire load, so a holder
	 * that sees the new generation also sees the changed mappings */
	atomic_fetch_add_explicit(&p->map_gen, 1, memory_order_release);
	atomic_fetch_add_explicit(&p->vm_gen, 1, memory_order_release);
	pthread_rwlock_unlock(&p->vm_lock);
}

uint64_t kemu_vm_generation(struct kemu_process *p)
{
	/* acquire: pairs with kemu_vm_write_unlock's release increment */
	return atomic_load_explicit(&p->vm_gen, memory_order_acquire);
}

int kemu_vm_translate_range(struct kemu_process *p, uint32_t gpu_id, uint64_t gpu_va,
			    unsigned access, struct kemu_vm_range *out,
			    struct kemu_vm_fault_info *fault)
{
	struct kemu_pdd *pdd = kemu_pdd_by_id(p, gpu_id);
	if (!pdd)
		return -EINVAL;
	pthread_rwlock_rdlock(&p->vm_lock);
	/* under the read lock no mapping change can pass: the range below is
	 * what generation gen maps.  Acquire: the HDP model's fault handler
	 * bumps the generation (release) without the lock after marking a
	 * page dirty; a range made under an older generation is stale */
	out->gen = atomic_load_explicit(&p->vm_gen, memory_order_acquire);
	size_t avail = 0;
	bool user;
	uint8_t *h = vm_resolve(p, pdd, gpu_va, SIZE_MAX, access, &avail, &user, fault);
	pthread_rwlock_unlock(&p->vm_lock);
	if (!h)
		return -EFAULT;
	out->va = gpu_va;
	out->len = avail;
	out->host = h;
	out->access = access;
	return 0;
}

static int vm_copy(struct kemu_process *p, uint32_t gpu_id, uint64_t va, uint8_t *buf,
		   size_t len, bool write, struct kemu_vm_fault_info *fault)
{
	struct kemu_pdd *pdd = kemu_pdd_by_id(p, gpu_id);
	if (!pdd)
		return -EINVAL;
	int ret = 0;
	pthread_rwlock_rdlock(&p->vm_lock);
	while (len) {
		size_t avail = 0;
		bool user = false;
		uint8_t *h = vm_resolve(p, pdd, va, len,
					write ? KEMU_ACCESS_WRITE : KEMU_ACCESS_READ, &avail,
					&user, fault);
		if (!h) {
			ret = -EFAULT;
			break;
		}
		if (user) {
			/* USERPTR pages belong to the application, which may have
			 * unmapped them since: copy with fault checking */
			ret = write ? kemu_copy_to_user((uintptr_t)h, buf, avail)
				    : kemu_copy_from_user(buf, (uintptr_t)h, avail);
			if (ret)
				break;
		} else if (write) {
			memcpy(h, buf, avail);
		} else {
			memcpy(buf, h, avail);
		}
		buf += avail;
		va += avail;
		len -= avail;
	}
	pthread_rwlock_unlock(&p->vm_lock);
	return ret;
}

int kemu_vm_read(struct kemu_process *p, uint32_t gpu_id, uint64_t gpu_va, void *dst,
		 size_t len, struct kemu_vm_fault_info *fault)
{
	return vm_copy(p, gpu_id, gpu_va, dst, len, false, fault);
}

int kemu_vm_write(struct kemu_process *p, uint32_t gpu_id, uint64_t gpu_va, const void *src,
		  size_t len, struct kemu_vm_fault_info *fault)
{
	return vm_copy(p, gpu_id, gpu_va, (uint8_t *)src, len, true, fault);
}
