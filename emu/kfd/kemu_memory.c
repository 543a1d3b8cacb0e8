/*
 * Buffer objects: ALLOC/FREE/MAP/UNMAP_MEMORY_TO_GPU and AVAILABLE_MEMORY,
 * after kfd_chardev.c and amdgpu_amdkfd_gpuvm.c.
 *
 * Backing store:
 *   VRAM, GTT     a sparse memfd of the BO size; the emulator maps it once
 *                 (bo->host) and user space maps it through the render node
 *                 fd at the BO's DRM fake offset, so both see the same pages;
 *                 the memfd is also the BO's dma-buf (kemu_dmabuf.c)
 *   USERPTR       the application's own pages at the given CPU address
 *   DOORBELL      the process doorbell slice of the device (kemu_doorbell.c)
 *   MMIO_REMAP    the device's MMIO remap page (HDP flush registers)
 *
 * Handles are gpu_id << 32 | idr, where idr is the lowest free index of
 * the owning device (idr_alloc from 0).  VRAM is accounted against the
 * device's VRAM size, GTT and USERPTR against the system limit (-ENOMEM,
 * amdgpu_amdkfd_reserve_mem_limit).  A BO mapped on any GPU cannot be freed
 * (-EBUSY); a BO a queue uses cannot be unmapped (-EBUSY, the queue_refcount
 * of the 6.12 queue-buffer validation).  A BO is also a GEM object: FREE
 * drops the KFD handle, and the BO lives on while a render file holds a
 * GEM handle of it (kemu_gem.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kemu_priv.h"

/* amdgpu_vm max_pfn for a 48-bit VM */
#define KEMU_VM_LIMIT (1ull << 48)
/* kmalloc_array of the device list fails beyond this (KMALLOC_MAX_SIZE) */
#define KEMU_MAX_MAP_DEVICES (1u << 20)

struct kemu_bo *kemu_bo_lookup(struct kemu_pdd *pdd, uint64_t handle)
{
	uint64_t idr = handle & 0xFFFFFFFFull;
	if (idr >= pdd->n_bos)
		return NULL;
	return pdd->bos[idr];
}

int kemu_dev_add_bo(struct kemu_machine *m, struct kemu_device *dev, struct kemu_bo *bo)
{
	pthread_mutex_lock(&m->lock);
	struct kemu_bo **nb = kemu_array_room(dev->bos, dev->n_bos, &dev->cap_bos, sizeof(*nb), 64);
	if (!nb) {
		pthread_mutex_unlock(&m->lock);
		return -ENOMEM;
	}
	dev->bos = nb;
	dev->bos[dev->n_bos++] = bo;
	bo->fake_offset = dev->next_fake_offset;
	dev->next_fake_offset += bo->bo_size;
	pthread_mutex_unlock(&m->lock);
	return 0;
}

int kemu_bo_idr_alloc(struct kemu_pdd *pdd, struct kemu_bo *bo)
{
	uint32_t i;
	for (i = 0; i < pdd->n_bos; i++) {
		if (!pdd->bos[i])
			break;
	}
	if (i == pdd->n_bos) {
		uint32_t n = pdd->n_bos ? pdd->n_bos * 2 : 64;
		struct kemu_bo **nb = realloc(pdd->bos, n * sizeof(*nb));
		if (!nb)
			return -ENOMEM;
		memset(nb + pdd->n_bos, 0, (n - pdd->n_bos) * sizeof(*nb));
		pdd->bos = nb;
		pdd->n_bos = n;
	}
	pdd->bos[i] = bo;
	bo->idr = i;
	return 0;
}

static void bo_host_unmap(void *addr, size_t len)
{
	kemu_sys_munmap(addr, len);
}

void kemu_bo_destroy(struct kemu_bo *bo)
{
	struct kemu_machine *m = bo->proc->m;
	kemu_hdp_bo_fini(bo);
	if (bo->fd >= 0) {
		/* an engine may still be inside an access it translated before
		 * the UNMAP: the mapping goes once its section is over (as
		 * amdgpu frees the pages after the VM update's fences), and the
		 * memfd's pages with it */
		if (bo->host)
			kemu_gpu_retire(bo->host, bo->bo_size, bo_host_unmap);
		kemu_sys_close(bo->fd);
	}
	/* the dma-buf lives on in the fds user space holds (mem->dmabuf put) */
	if (bo->dmabuf_fd >= 0)
		kemu_sys_close(bo->dmabuf_fd);
	pthread_mutex_lock(&m->lock);
	struct kemu_device *dev = bo->pdd->dev;
	for (size_t i = 0; i < dev->n_bos; i++) {
		if (dev->bos[i] == bo) {
			dev->bos[i] = dev->bos[--dev->n_bos];
			break;
		}
	}
	if (bo->imported)
		; /* imports are not charged (import_obj_create) */
	else if (bo->kind == KEMU_BO_VRAM)
		bo->pdd->dev->vram_used -= bo->bo_size;
	else if (bo->kind == KEMU_BO_GTT || bo->kind == KEMU_BO_USERPTR)
		m->sys_used -= bo->bo_size;
	pthread_mutex_unlock(&m->lock);
	free(bo);
}

void kemu_bo_free_all(struct kemu_process *p)
{
	for (uint32_t i = 0; i < p->n_pdds; i++) {
		struct kemu_pdd *pdd = &p->pdds[i];
		for (uint32_t j = 0; j < pdd->n_bos; j++) {
			if (pdd->bos[j])
				kemu_bo_destroy(pdd->bos[j]);
			pdd->bos[j] = NULL;
		}
	}
}

/* amdgpu_amdkfd_reserve_mem_limit.  Caller holds p->lock. */
static int bo_reserve(struct kemu_machine *m, struct kemu_pdd *pdd, enum kemu_bo_kind kind,
		      uint64_t size)
{
	int ret = 0;
	pthread_mutex_lock(&m->lock);
	if (kind == KEMU_BO_VRAM) {
		if (size > pdd->dev->gpu->vram_size - pdd->dev->vram_used)
			ret = -ENOMEM;
		else
			pdd->dev->vram_used += size;
	} else if (kind == KEMU_BO_GTT || kind == KEMU_BO_USERPTR) {
		if (size > m->sys_limit - m->sys_used)
			ret = -ENOMEM;
		else
			m->sys_used += size;
	}
	pthread_mutex_unlock(&m->lock);
	return ret;
}

/* Are all pages of [addr, addr + size) mapped in this process?  (The
 * kernel pins USERPTR pages at allocation: get_user_pages -> -EFAULT.)
 * msync(MS_ASYNC) does no work on Linux but fails with ENOMEM on a hole. */
static bool user_range_mapped(uint64_t addr, uint64_t size)
{
	if (!kemu_access_ok(addr, size))
		return false;
	uint64_t start = addr & ~(KEMU_PAGE_SIZE - 1);
	uint64_t len = KEMU_ALIGN(addr + size, KEMU_PAGE_SIZE) - start;
	return msync((void *)(uintptr_t)start, len, MS_ASYNC) == 0;
}

/* The gpuvm part of ALLOC: creates the BO.  Caller holds p->lock. */
static int bo_create(struct kemu_process *p, struct kemu_pdd *pdd,
		     struct kfd_args_alloc_memory_of_gpu *a, struct kemu_bo **out)
{
	struct kemu_machine *m = p->m;
	enum kemu_bo_kind kind;
	uint32_t flags = a->flags;
	if (flags & KFD_ALLOC_VRAM)
		kind = KEMU_BO_VRAM;
	else if (flags & KFD_ALLOC_GTT)
		kind = KEMU_BO_GTT;
	else if (flags & KFD_ALLOC_USERPTR)
		kind = KEMU_BO_USERPTR;
	else if (flags & KFD_ALLOC_DOORBELL)
		kind = KEMU_BO_DOORBELL;
	else if (flags & KFD_ALLOC_MMIO_REMAP)
		kind = KEMU_BO_MMIO;
	else
		return -EINVAL;
	if (kind == KEMU_BO_USERPTR && !a->mmap_offset)
		return -EINVAL;

	uint64_t size = a->size;
	if (flags & KFD_ALLOC_AQL_QUEUE_MEM)
		size >>= 1; /* mapped twice: at va and va + size/2 */
	uint64_t bo_size = KEMU_ALIGN(size, KEMU_PAGE_SIZE);
	if (!bo_size || bo_size < size)
		return -EINVAL;
	if (kemu_fail_check(m, KEMU_FAIL_ALLOC, 0)) {
		kemu_info(m, "ALLOC_MEMORY_OF_GPU: injected failure -ENOMEM");
		return -ENOMEM;
	}
	int err = bo_reserve(m, pdd, kind, bo_size);
	if (err) {
		kemu_info(m, "ALLOC_MEMORY_OF_GPU: 0x%llx bytes over the memory limit",
			  (unsigned long long)bo_size);
		return err;
	}
	struct kemu_bo *bo = calloc(1, sizeof(*bo));
	if (!bo) {
		err = -ENOMEM;
		goto err_unreserve;
	}
	bo->proc = p;
	bo->pdd = pdd;
	bo->flags = flags;
	bo->kind = kind;
	bo->va = a->va_addr;
	bo->size = a->size;
	bo->bo_size = bo_size;
	bo->fd = -1;
	bo->dmabuf_fd = -1;
	bo->drm_file = pdd->drm_file;

	switch (kind) {
	case KEMU_BO_VRAM:
	case KEMU_BO_GTT:
		/* named and sealed so that its dma-buf can be recognised */
		bo->fd = kemu_bo_memfd(pdd->dev->gpu->gpu_id, flags, bo_size);
		if (bo->fd < 0) {
			err = -ENOMEM;
			goto err_free;
		}
		bo->host = kemu_sys_mmap(NULL, bo_size, PROT_READ | PROT_WRITE, MAP_SHARED,
					 bo->fd, 0);
		if (bo->host == MAP_FAILED) {
			bo->host = NULL;
			err = -ENOMEM;
			goto err_free;
		}
		if (kemu_hdp_bo_init(m, bo)) {
			err = -ENOMEM;
			goto err_free;
		}
		break;
	case KEMU_BO_USERPTR:
		bo->user_addr = a->mmap_offset;
		if (!user_range_mapped(bo->user_addr, bo_size)) {
			err = -EFAULT;
			goto err_free;
		}
		break;
	case KEMU_BO_DOORBELL:
		bo->host = (uint8_t *)pdd->db;
		break;
	case KEMU_BO_MMIO:
		bo->host = pdd->dev->mmio;
		break;
	}
	err = kemu_dev_add_bo(m, pdd->dev, bo);
	if (err)
		goto err_free;
	*out = bo;
	return 0;

err_free:
	kemu_hdp_bo_fini(bo);
	if (bo->host && bo->fd >= 0)
		kemu_sys_munmap(bo->host, bo_size);
	if (bo->fd >= 0)
		kemu_sys_close(bo->fd);
	free(bo);
err_unreserve:
	pthread_mutex_lock(&m->lock);
	if (kind == KEMU_BO_VRAM)
		pdd->dev->vram_used -= bo_size;
	else if (kind == KEMU_BO_GTT || kind == KEMU_BO_USERPTR)
		m->sys_used -= bo_size;
	pthread_mutex_unlock(&m->lock);
	return err;
}

long kemu_ioctl_alloc_memory(struct kemu_process *p, void *arg)
{
	struct kfd_args_alloc_memory_of_gpu *a = arg;
	long err;
	if (a->size == 0)
		return -EINVAL;
	if (kemu_svm_overlaps(p, a->va_addr, a->size) ||
	    ((a->flags & KFD_ALLOC_USERPTR) && kemu_svm_overlaps(p, a->mmap_offset, a->size))) {
		kemu_info(p->m, "ALLOC_MEMORY_OF_GPU: 0x%llx already allocated by SVM: -EADDRINUSE",
			  (unsigned long long)a->va_addr);
		return -EADDRINUSE;
	}
	pthread_mutex_lock(&p->lock);
	struct kemu_pdd *pdd = kemu_pdd_by_id(p, a->gpu_id);
	if (!pdd) {
		err = -EINVAL;
		goto out_unlock;
	}
	/* MI210 and MI300X are large-BAR parts: PUBLIC VRAM is allowed */
	err = kemu_pdd_bind(pdd);
	if (err)
		goto out_unlock;
	if (a->flags & KFD_ALLOC_DOORBELL) {
		if (a->size != KFD_DOORBELL_SLICE_SIZE) {
			err = -EINVAL;
			goto out_unlock;
		}
		if (kemu_doorbell_get_slice(pdd)) {
			err = -ENOMEM;
			goto out_unlock;
		}
	} else if (a->flags & KFD_ALLOC_MMIO_REMAP) {
		if (a->size != KFD_MMIO_REMAP_SIZE) {
			err = -EINVAL;
			goto out_unlock;
		}
	}
	struct kemu_bo *bo;
	err = bo_create(p, pdd, a, &bo);
	if (err)
		goto out_unlock;
	err = kemu_bo_idr_alloc(pdd, bo);
	if (err) {
		kemu_bo_destroy(bo);
		err = -EFAULT; /* kfd_process_device_create_obj_handle failure */
		goto out_unlock;
	}
	bo->kfd_handle = true;
	a->handle = (uint64_t)a->gpu_id << 32 | bo->idr;
	if (bo->kind == KEMU_BO_MMIO)
		a->mmap_offset = KFD_MMAP_TYPE_MMIO | KFD_MMAP_GPU_ID(a->gpu_id);
	else
		a->mmap_offset = bo->fake_offset;
out_unlock:
	pthread_mutex_unlock(&p->lock);
	return err;
}

long kemu_ioctl_free_memory(struct kemu_process *p, void *arg)
{
	struct kfd_args_free_memory_of_gpu *a = arg;
	long err = 0;
	pthread_mutex_lock(&p->lock);
	pthread_mutex_lock(&p->event_lock);
	bool is_signal = p->signal_handle && p->signal_handle == a->handle;
	pthread_mutex_unlock(&p->event_lock);
	if (is_signal) {
		kemu_info(p->m, "FREE_MEMORY_OF_GPU: freeing the event page BO: -EPERM");
		err = -EPERM;
		goto out_unlock;
	}
	struct kemu_pdd *pdd = kemu_pdd_by_id(p, KFD_HANDLE_GPU_ID(a->handle));
	struct kemu_bo *bo = pdd ? kemu_bo_lookup(pdd, a->handle) : NULL;
	if (!bo) {
		err = -EINVAL;
		goto out_unlock;
	}
	if (bo->mapped_mask) {
		err = -EBUSY;
		goto out_unlock;
	}
	pdd->bos[bo->idr] = NULL;
	bo->kfd_handle = false;
	bo->idr = KEMU_BO_NO_IDR;
	/* a GEM handle of a render file keeps the object (and its VRAM
	 * charge, released with the BO) alive: drm_gem_object_put */
	if (!bo->gem_refs)
		kemu_bo_destroy(bo);
out_unlock:
	pthread_mutex_unlock(&p->lock);
	return err;
}

/* Maps bo into the VM of peer (once; again is a no-op).  Caller holds
 * p->lock. */
static int bo_map_one(struct kemu_process *p, struct kemu_bo *bo, struct kemu_pdd *peer)
{
	uint32_t bit = 1u << peer->dev->index;
	if (bo->mapped_mask & bit)
		return 0;
	bool aql = bo->flags & KFD_ALLOC_AQL_QUEUE_MEM;
	uint64_t span = aql ? bo->bo_size * 2 : bo->bo_size;
	if ((bo->va & (KEMU_PAGE_SIZE - 1)) || bo->va + span < bo->va ||
	    bo->va + span > KEMU_VM_LIMIT)
		return -EINVAL;
	pthread_rwlock_wrlock(&p->vm_lock);
	int err = kemu_vm_insert(&peer->vm, bo, bo->va, bo->bo_size, 0);
	if (!err && aql) {
		err = kemu_vm_insert(&peer->vm, bo, bo->va + bo->bo_size, bo->bo_size, 0);
		if (err)
			kemu_vm_remove_bo(&peer->vm, bo);
	}
	kemu_vm_write_unlock(p);
	if (err) {
		kemu_info(p->m, "MAP_MEMORY_TO_GPU: va 0x%llx size 0x%llx overlaps a mapping",
			  (unsigned long long)bo->va, (unsigned long long)span);
		return err;
	}
	bo->mapped_mask |= bit;
	return 0;
}

/* Copies the device id array in; -EINVAL/-EFAULT/-ENOMEM as the kernel. */
static long map_args_devices(struct kfd_args_map_memory_to_gpu *a, uint32_t **out)
{
	if (!a->n_devices || a->n_success > a->n_devices)
		return -EINVAL;
	if (a->n_devices > KEMU_MAX_MAP_DEVICES)
		return -ENOMEM;
	uint32_t *ids = malloc((size_t)a->n_devices * sizeof(*ids));
	if (!ids)
		return -ENOMEM;
	if (kemu_copy_from_user(ids, a->device_ids_array_ptr,
				(size_t)a->n_devices * sizeof(*ids))) {
		free(ids);
		return -EFAULT;
	}
	*out = ids;
	return 0;
}

long kemu_ioctl_map_memory(struct kemu_process *p, void *arg)
{
	struct kfd_args_map_memory_to_gpu *a = arg;
	uint32_t *ids;
	long err = map_args_devices(a, &ids);
	if (err)
		return err;
	pthread_mutex_lock(&p->lock);
	struct kemu_pdd *pdd = kemu_pdd_by_id(p, KFD_HANDLE_GPU_ID(a->handle));
	if (!pdd) {
		err = -EINVAL;
		goto out_unlock;
	}
	err = kemu_pdd_bind(pdd);
	if (err)
		goto out_unlock;
	struct kemu_bo *bo = kemu_bo_lookup(pdd, a->handle);
	if (!bo) {
		err = -ENOMEM; /* sic: kfd_ioctl_map_memory_to_gpu */
		goto out_unlock;
	}
	for (uint32_t i = a->n_success; i < a->n_devices; i++) {
		struct kemu_pdd *peer = kemu_pdd_by_id(p, ids[i]);
		if (!peer) {
			err = -EINVAL;
			goto out_unlock;
		}
		err = kemu_pdd_bind(peer);
		if (err)
			goto out_unlock;
		err = bo_map_one(p, bo, peer);
		if (err)
			goto out_unlock;
		a->n_success = i + 1;
	}
out_unlock:
	pthread_mutex_unlock(&p->lock);
	free(ids);
	return err;
}

long kemu_ioctl_unmap_memory(struct kemu_process *p, void *arg)
{
	struct kfd_args_unmap_memory_from_gpu *a = arg;
	uint32_t *ids;
	long err = map_args_devices((struct kfd_args_map_memory_to_gpu *)a, &ids);
	if (err)
		return err;
	pthread_mutex_lock(&p->lock);
	struct kemu_pdd *pdd = kemu_pdd_by_id(p, KFD_HANDLE_GPU_ID(a->handle));
	struct kemu_bo *bo = pdd ? kemu_bo_lookup(pdd, a->handle) : NULL;
	if (!bo) {
		err = -EINVAL;
		goto out_unlock;
	}
	for (uint32_t i = a->n_success; i < a->n_devices; i++) {
		struct kemu_pdd *peer = kemu_pdd_by_id(p, ids[i]);
		if (!peer) {
			err = -EINVAL;
			goto out_unlock;
		}
		uint32_t bit = 1u << peer->dev->index;
		if (!(bo->mapped_mask & bit)) {
			err = -EINVAL; /* not attached to this VM */
			goto out_unlock;
		}
		if (bo->queue_refs[peer->dev->index]) {
			kemu_info(p->m, "UNMAP_MEMORY_FROM_GPU: BO in use by a queue: -EBUSY");
			err = -EBUSY;
			goto out_unlock;
		}
		pthread_rwlock_wrlock(&p->vm_lock);
		kemu_vm_remove_bo(&peer->vm, bo);
		kemu_vm_write_unlock(p);
		bo->mapped_mask &= ~bit;
		a->n_success = i + 1;
	}
out_unlock:
	pthread_mutex_unlock(&p->lock);
	free(ids);
	return err;
}

long kemu_ioctl_available_memory(struct kemu_process *p, void *arg)
{
	struct kfd_args_available_memory *a = arg;
	struct kemu_pdd *pdd = kemu_pdd_by_id(p, a->gpu_id);
	if (!pdd)
		return -EINVAL;
	pthread_mutex_lock(&p->m->lock);
	uint64_t avail = pdd->dev->gpu->vram_size - pdd->dev->vram_used;
	pthread_mutex_unlock(&p->m->lock);
	a->available = avail & ~((1ull << 21) - 1); /* VRAM_AVAILABLITY_ALIGN */
	return 0;
}
