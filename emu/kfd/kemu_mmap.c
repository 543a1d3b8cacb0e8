/*
 * mmap of the emulated device files (kfd_mmap in kfd_chardev.c and
 * drm_gem_mmap for the render node).
 *
 * /dev/kfd offsets carry a type in bits 63:62 and a gpu_id in bits 61:46:
 *   DOORBELL (3)     the process doorbell slice; length exactly 8 KiB
 *   EVENTS (2)       the kernel-allocated signal page; (16 KiB, 32 KiB]
 *   RESERVED_MEM (1) the CWSR TBA/TMA pages; length exactly 2 pages
 *   MMIO (0)         the MMIO remap page; length exactly 4 KiB
 * DOORBELL, RESERVED_MEM and MMIO need a known gpu_id (-ENODEV).  The
 * mapping belongs to the calling process's KFD process, whichever kfd fd
 * is used (the kernel uses current's process); a caller without one gets
 * -EINVAL.
 *
 * Fork follows the kernel's vm_flags exactly: every /dev/kfd mapping is
 * VM_DONTCOPY (kfd_doorbell_mmap, kfd_event_mmap, kfd_reserved_mem_mmap,
 * kfd_mmio_mmap all set it), so a fork child does not inherit it
 * (MADV_DONTFORK here).  A render-node BO mapping is not: ttm_bo_mmap_obj
 * sets VM_PFNMAP | VM_IO | VM_DONTEXPAND | VM_DONTDUMP only, and the
 * child's copy shares the BO's pages (our memfd, MAP_SHARED) and keeps it
 * alive (ttm_bo_vm_open takes a reference), whatever kind the BO is.
 * USERPTR memory is the process's own mapping; the driver never maps it.
 *
 * Render-node offsets are DRM fake offsets: the range must lie inside one
 * BO of that device (-EINVAL), the BO must be allowed for this file (the
 * render file the process passed to ACQUIRE_VM, or one holding a GEM handle
 * of it: -EACCES), and USERPTR BOs
 * cannot be mapped (-EPERM).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kemu_priv.h"

#define KEMU_CWSR_TBA_TMA_SIZE (2 * KEMU_PAGE_SIZE)

static int map_fd(void *addr, size_t len, int prot, int flags, int fd, uint64_t off,
		  bool dontcopy, void **out)
{
	void *m = kemu_sys_mmap(addr, len, prot, flags, fd, (off_t)off);
	if (m == MAP_FAILED)
		return -errno;
	if (dontcopy)
		madvise(m, len, MADV_DONTFORK);
	*out = m;
	return 0;
}

int kemu_kfd_mmap(struct kemu_file *f, void *addr, size_t len, int prot, int flags,
		  uint64_t offset, void **out)
{
	struct kemu_machine *m = f->m;
	struct kemu_process *p = kemu_process_find(m, getpid());
	if (!p)
		return -EINVAL;
	uint32_t gpu_id = (uint32_t)((offset & KFD_MMAP_GPU_ID_MASK) >> KFD_MMAP_GPU_ID_SHIFT);
	struct kemu_pdd *pdd = gpu_id ? kemu_pdd_by_id(p, gpu_id) : NULL;
	uint64_t type = offset & KFD_MMAP_TYPE_MASK;
	int err;

	if (type == KFD_MMAP_TYPE_EVENTS)
		return kemu_events_mmap(p, addr, len, prot, flags, out);
	if (!pdd)
		return -ENODEV;
	pthread_mutex_lock(&p->lock);
	switch (type) {
	case KFD_MMAP_TYPE_DOORBELL:
		if (len != KFD_DOORBELL_SLICE_SIZE) {
			kemu_info(m, "mmap doorbell: length 0x%zx != 0x%x: -EINVAL", len,
				  KFD_DOORBELL_SLICE_SIZE);
			err = -EINVAL;
			break;
		}
		err = kemu_doorbell_get_slice(pdd) ? -ENOMEM : 0;
		if (!err)
			err = map_fd(addr, len, prot, flags, pdd->db_fd, 0, true, out);
		break;
	case KFD_MMAP_TYPE_MMIO:
		if (len != KFD_MMIO_REMAP_SIZE) {
			kemu_info(m, "mmap MMIO: length 0x%zx != 0x%x: -EINVAL", len,
				  KFD_MMIO_REMAP_SIZE);
			err = -EINVAL;
			break;
		}
		err = map_fd(addr, len, prot, flags, pdd->dev->mmio_fd, 0, true, out);
		break;
	default: /* KFD_MMAP_TYPE_RESERVED */
		if (len != KEMU_CWSR_TBA_TMA_SIZE) {
			err = -EINVAL;
			break;
		}
		if (pdd->cwsr_fd < 0) {
			int fd = kemu_sys_memfd("kfdemu-cwsr", KEMU_CWSR_TBA_TMA_SIZE, true);
			if (fd < 0) {
				err = -ENOMEM;
				break;
			}
			pdd->cwsr_fd = fd;
		}
		err = map_fd(addr, len, prot, flags, pdd->cwsr_fd, 0, true, out);
		break;
	}
	pthread_mutex_unlock(&p->lock);
	return err;
}

int kemu_render_mmap(struct kemu_file *f, void *addr, size_t len, int prot, int flags,
		     uint64_t offset, void **out)
{
	struct kemu_machine *m = f->m;
	struct kemu_device *dev = f->dev;
	uint64_t pages = KEMU_ALIGN(len, KEMU_PAGE_SIZE);
	int err = -EINVAL;
	if (!len || (offset & (KEMU_PAGE_SIZE - 1)))
		return -EINVAL;
	pthread_mutex_lock(&m->lock);
	for (size_t i = 0; i < dev->n_bos; i++) {
		struct kemu_bo *bo = dev->bos[i];
		if (offset < bo->fake_offset || offset - bo->fake_offset >= bo->bo_size ||
		    pages > bo->bo_size - (offset - bo->fake_offset))
			continue;
		if (bo->drm_file != f && !kemu_gem_file_has_bo(f, bo)) {
			err = -EACCES; /* drm_vma_node_is_allowed */
			break;
		}
		uint64_t off = offset - bo->fake_offset;
		switch (bo->kind) {
		case KEMU_BO_USERPTR:
			err = -EPERM;
			break;
		case KEMU_BO_DOORBELL:
			err = map_fd(addr, len, prot, flags, bo->pdd->db_fd, off, false, out);
			break;
		case KEMU_BO_MMIO:
			err = map_fd(addr, len, prot, flags, dev->mmio_fd, off, false, out);
			break;
		default:
			err = map_fd(addr, len, prot, flags, bo->fd, off, false, out);
			break;
		}
		break;
	}
	pthread_mutex_unlock(&m->lock);
	return err;
}

/* The HDP model's view of a new CPU mapping (kemu_hdp.c): a render-node
 * mapping of VRAM is tracked for CPU writes, one of an MMIO-remap page (kfd
 * fd or render node) is the flush register's.  Called after the mapping
 * replaced whatever was there. */
void kemu_kfd_mmap_hdp(struct kemu_file *f, void *addr, size_t len, int prot, int flags,
		       uint64_t offset)
{
	struct kemu_machine *m = f->m;
	uint64_t type = offset & KFD_MMAP_TYPE_MASK;
	if (type != KFD_MMAP_TYPE_MMIO && type != KFD_MMAP_TYPE_DOORBELL)
		return;
	uint32_t gpu_id = (uint32_t)((offset & KFD_MMAP_GPU_ID_MASK) >> KFD_MMAP_GPU_ID_SHIFT);
	struct kemu_device *dev = kemu_device_by_id(m, gpu_id);
	if (dev && type == KFD_MMAP_TYPE_MMIO)
		kemu_hdp_cpu_mapped(m, dev, NULL, 0, addr, len, prot, flags);
	else if (dev && f->proc)
		/* the whole slice (the mmap checked the length) */
		kemu_hdp_doorbell_mapped(m, kemu_pdd_by_id(f->proc, gpu_id), 0, addr, len, prot,
					 flags);
}

void kemu_render_mmap_hdp(struct kemu_file *f, void *addr, size_t len, int prot, int flags,
			  uint64_t offset)
{
	struct kemu_machine *m = f->m;
	struct kemu_device *dev = f->dev;
	pthread_mutex_lock(&m->lock);
	for (size_t i = 0; i < dev->n_bos; i++) {
		struct kemu_bo *bo = dev->bos[i];
		if (offset < bo->fake_offset || offset - bo->fake_offset >= bo->bo_size)
			continue;
		if (bo->kind == KEMU_BO_VRAM)
			kemu_hdp_cpu_mapped(m, dev, bo, offset - bo->fake_offset, addr, len, prot,
					    flags);
		else if (bo->kind == KEMU_BO_MMIO)
			kemu_hdp_cpu_mapped(m, dev, NULL, 0, addr, len, prot, flags);
		else if (bo->kind == KEMU_BO_DOORBELL)
			kemu_hdp_doorbell_mapped(m, bo->pdd, offset - bo->fake_offset, addr, len,
						 prot, flags);
		break;
	}
	pthread_mutex_unlock(&m->lock);
}
