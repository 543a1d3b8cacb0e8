/*
 * Sharing buffer objects between processes over the upstream dma-buf
 * ioctls: EXPORT_DMABUF (1.16+), GET_DMABUF_INFO and IMPORT_DMABUF.
 *
 * Export: a BO's dma-buf fd is made once (O_CLOEXEC) and kept in the
 * kfd_mem until it is freed, so a process that holds the number can take a
 * copy of it (pidfd_getfd, the runtime's IPC handles) while the exporter
 * keeps the allocation.  Freeing the BO closes our fd; the pages live on in
 * every importer and fd holder (dma-buf reference counting).
 *
 * Import: as libhsakmt's hsaKmtRegisterGraphicsHandleToNodes does it,
 * GET_DMABUF_INFO for the size and the exporting GPU, a VA of our own
 * (reserved as kfd_mem_alloc reserves one, inside GPUVM), IMPORT_DMABUF on
 * the exporting GPU when this process has it.  The CPU view is an mmap of
 * the dma-buf itself at that VA (amdgpu dma-bufs mmap their BO; VRAM the
 * CPU cannot reach refuses, and the import is then GPU-only), so CPU VA ==
 * GPU VA as for every other allocation.
 *
 * The ROCm-DKMS kernel's own IPC ioctls (IPC_EXPORT_HANDLE 0x81,
 * IPC_IMPORT_HANDLE 0x80), which ROCr 5.2.3 uses through libhsakmt's
 * hsaKmtShareMemory / hsaKmtRegisterSharedHandle, are here too, used as
 * libhsakmt uses them: export passes libhsakmt's HsaMemFlags of the BO
 * (the kernel hands them to importers), import reserves the VA itself and
 * maps the CPU view through the render node at the offset the kernel gives.
 */
#define _GNU_SOURCE
#include "kfd/kfd_priv.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util/log.h"

int kfd_mem_export_dmabuf(struct kfd_process *proc, struct kfd_mem *mem, int *fd)
{
	struct kfd_process_private *priv = proc->priv;

	if (mem->kind == KFD_MEM_DOORBELL) {
		hl_error(KFD_LOG, "EXPORT_DMABUF: EINVAL: %p is a doorbell page", mem->addr);
		return -EINVAL;
	}
	pthread_mutex_lock(&priv->mem_lock);
	bool have = mem->has_dmabuf_fd;
	int cur = mem->dmabuf_fd;
	pthread_mutex_unlock(&priv->mem_lock);
	if (have) {
		*fd = cur;
		return 0;
	}

	struct kfd_args_export_dmabuf args = { .handle = mem->handle, .flags = O_CLOEXEC };
	int ret = kfd_ioctl(proc->fd, KFD_IOCTL_EXPORT_DMABUF, &args);
	if (ret) {
		hl_error(KFD_LOG, "EXPORT_DMABUF: %s: handle 0x%llx at %p, %llu bytes%s",
			 hl_errno_name(ret), (unsigned long long)mem->handle, mem->addr,
			 (unsigned long long)mem->size,
			 ret == -EPERM ? " (user pages cannot be exported)" :
			 ret == -ENOTTY || ret == -EINVAL ? " (kernel without EXPORT_DMABUF?)" : "");
		return ret;
	}
	/* Two threads exporting one allocation: the first fd stays. */
	pthread_mutex_lock(&priv->mem_lock);
	if (!mem->has_dmabuf_fd) {
		mem->dmabuf_fd = (int)args.dmabuf_fd;
		mem->has_dmabuf_fd = true;
	} else {
		close((int)args.dmabuf_fd);
	}
	*fd = mem->dmabuf_fd;
	pthread_mutex_unlock(&priv->mem_lock);
	hl_debug(KFD_LOG, "EXPORT_DMABUF: %p (%llu bytes) -> fd %d", mem->addr,
		 (unsigned long long)mem->size, *fd);
	return 0;
}

int kfd_dmabuf_info(struct kfd_process *proc, int fd, uint64_t *size, uint32_t *gpu_id,
		    uint32_t *flags, void *metadata, uint32_t *metadata_size)
{
	struct kfd_args_get_dmabuf_info args = {
		.dmabuf_fd = (uint32_t)fd,
		.metadata_ptr = (uintptr_t)metadata,
		.metadata_size = metadata ? *metadata_size : 0,
	};
	int ret = kfd_ioctl(proc->fd, KFD_IOCTL_GET_DMABUF_INFO, &args);
	if (metadata)
		*metadata_size = args.metadata_size;
	if (ret) {
		hl_error(KFD_LOG, "GET_DMABUF_INFO: %s: fd %d%s", hl_errno_name(ret), fd,
			 ret == -EINVAL ? " (not a dma-buf of GPU memory)" : "");
		return ret;
	}
	*size = args.size;
	*gpu_id = args.gpu_id;
	*flags = args.flags;
	return 0;
}

/* The CPU view of an import: the dma-buf mmapped over the reservation.
 * On failure the reservation is made PROT_NONE again (a failed MAP_FIXED
 * may have unmapped part of it) and the import stays GPU-only. */
static bool map_for_cpu(struct kfd_mem *mem, int fd)
{
	void *p = mmap(mem->addr, mem->size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0);
	if (p != MAP_FAILED) {
		/* A BO mapping, like VRAM/GTT in memory.c: a child's copy
		 * would keep the exporter's BO referenced after we free it. */
		if (madvise(mem->addr, mem->size, MADV_DONTFORK))
			hl_warn(KFD_LOG, "madvise(DONTFORK) %p: %s: a fork child will keep a "
				"reference to the BO", mem->addr, hl_errno_name(-errno));
		return true;
	}
	hl_info(KFD_LOG, "import at %p: mmap of the dma-buf: %s; the CPU cannot reach it",
		mem->addr, hl_errno_name(-errno));
	mmap(mem->addr, mem->size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED |
	     MAP_NORESERVE, -1, 0);
	return false;
}

/* IMPORT_DMABUF of fd on gpu_id (0: the exporter if this process has it,
 * else the first GPU) at va, or at a reservation of our own aligned to
 * align when va is NULL and handle_space is false, or in the handle space
 * when handle_space is true.  No CPU or GPU mapping; not tracked yet. */
static int import_bo(struct kfd_process *proc, int fd, uint32_t gpu_id, void *va,
		     bool handle_space, uint64_t align, uint32_t *exporter, struct kfd_mem **out)
{
	uint64_t size;
	uint32_t owner, info_flags;
	int ret;

	*out = NULL;
	if (!proc->n_gpus) {
		hl_error(KFD_LOG, "IMPORT_DMABUF: ENODEV: no GPU to import on");
		return -ENODEV;
	}
	ret = kfd_dmabuf_info(proc, fd, &size, &owner, &info_flags, NULL, NULL);
	if (ret)
		return ret;
	if (size == 0 || (size & (KFD_PAGE_SIZE - 1))) {
		hl_error(KFD_LOG, "IMPORT_DMABUF: EINVAL: fd %d has size %llu, not whole pages",
			 fd, (unsigned long long)size);
		return -EINVAL;
	}
	if (!gpu_id)
		gpu_id = kfd_gpu_index(proc, owner) >= 0 ? owner : proc->gpus[0].gpu_id;
	if (kfd_gpu_index(proc, gpu_id) < 0) {
		hl_error(KFD_LOG, "IMPORT_DMABUF: EINVAL: unknown GPU 0x%x", gpu_id);
		return -EINVAL;
	}

	struct kfd_mem *mem = kfd_mem_new(proc);
	if (!mem)
		return -ENOMEM;
	/* The kernel makes it VRAM on the GPU whose VRAM it is, else a GTT
	 * (sg) BO. */
	mem->kind = (info_flags & KFD_ALLOC_VRAM) && gpu_id == owner ? KFD_MEM_VRAM : KFD_MEM_GTT;
	mem->gpu_id = gpu_id;
	mem->size = size;
	mem->flags = info_flags | KFD_ALLOC_WRITABLE | KFD_ALLOC_EXECUTABLE;
	mem->imported = true;
	if (va) {
		mem->addr = va; /* the caller's reservation, not ours to release */
	} else if (handle_space) {
		mem->addr = kfd_handle_va(size);
		mem->no_address = true;
	} else {
		mem->addr = kfd_va_reserve(size, align ? align : kfd_auto_align(size),
					   &mem->reservation, &mem->reservation_size);
		if (!mem->addr) {
			ret = -errno;
			hl_error(KFD_LOG, "IMPORT_DMABUF: %s: cannot reserve %llu bytes of address "
				 "space", hl_errno_name(ret), (unsigned long long)size);
			goto err_delete;
		}
	}
	if (!mem->no_address && !kfd_in_gpuvm(proc, (uintptr_t)mem->addr, size)) {
		ret = -ENOMEM;
		hl_error(KFD_LOG, "IMPORT_DMABUF: ENOMEM: address %p+%llu is outside a GPU's GPUVM "
			 "aperture", mem->addr, (unsigned long long)size);
		goto err_release_va;
	}

	struct kfd_args_import_dmabuf args = {
		.va_addr = (uintptr_t)mem->addr,
		.gpu_id = gpu_id,
		.dmabuf_fd = (uint32_t)fd,
	};
	ret = kfd_ioctl(proc->fd, KFD_IOCTL_IMPORT_DMABUF, &args);
	if (ret) {
		hl_error(KFD_LOG, "IMPORT_DMABUF: %s: fd %d (%llu bytes of GPU 0x%x) on GPU 0x%x at "
			 "%p", hl_errno_name(ret), fd, (unsigned long long)size, owner, gpu_id,
			 mem->addr);
		goto err_release_va;
	}
	mem->handle = args.handle;
	if (exporter)
		*exporter = owner;
	*out = mem;
	return 0;

err_release_va:
	kfd_va_release(mem);
err_delete:
	kfd_mem_delete(mem);
	return ret;
}

int kfd_mem_import_dmabuf(struct kfd_process *proc, int fd, uint32_t gpu_id, uint64_t align,
			  struct kfd_mem **out)
{
	struct kfd_mem *mem;
	int ret = import_bo(proc, fd, gpu_id, NULL, false, align, NULL, &mem);
	if (ret)
		return ret;
	mem->host_access = map_for_cpu(mem, fd);
	kfd_mem_track(proc, mem);
	hl_debug(KFD_LOG, "IMPORT_DMABUF: fd %d -> %s %llu bytes at %p handle 0x%llx%s", fd,
		 mem->kind == KFD_MEM_VRAM ? "VRAM" : "GTT", (unsigned long long)mem->size,
		 mem->addr, (unsigned long long)mem->handle, mem->host_access ? "" : " (GPU only)");
	*out = mem;
	return 0;
}

int kfd_mem_import_dmabuf_at(struct kfd_process *proc, int fd, uint32_t gpu_id, void *va,
			     uint32_t *exporter, struct kfd_mem **out)
{
	struct kfd_mem *mem;
	int ret = import_bo(proc, fd, gpu_id, va, !va, 0, exporter, &mem);
	if (ret)
		return ret;
	kfd_mem_track(proc, mem);
	hl_debug(KFD_LOG, "IMPORT_DMABUF: fd %d -> %s %llu bytes at %p handle 0x%llx (%s)", fd,
		 mem->kind == KFD_MEM_VRAM ? "VRAM" : "GTT", (unsigned long long)mem->size,
		 mem->addr, (unsigned long long)mem->handle,
		 mem->no_address ? "a handle" : "the caller's range");
	*out = mem;
	return 0;
}

/* ---- the ROCm-DKMS IPC ioctls (0x81, 0x80) ---- */

/* libhsakmt's HsaMemFlags bits, which the DKMS kernel keeps with an export
 * and hands to every importer (ROCr reads its grain from them). */
#define HSA_MEMFLAG_NON_PAGED      (1u << 0)
#define HSA_MEMFLAG_READ_ONLY      (1u << 3)
#define HSA_MEMFLAG_HOST_ACCESS    (1u << 6)
#define HSA_MEMFLAG_NO_SUBSTITUTE  (1u << 7)
#define HSA_MEMFLAG_EXECUTE_ACCESS (1u << 12)
#define HSA_MEMFLAG_COARSE_GRAIN   (1u << 13)
#define HSA_MEMFLAG_UNCACHED       (1u << 17)

static uint32_t hsa_memflags_of(const struct kfd_mem *mem)
{
	uint32_t f = HSA_MEMFLAG_NON_PAGED | HSA_MEMFLAG_NO_SUBSTITUTE | HSA_MEMFLAG_EXECUTE_ACCESS;
	if (!(mem->flags & KFD_ALLOC_WRITABLE))
		f |= HSA_MEMFLAG_READ_ONLY;
	if (mem->host_access)
		f |= HSA_MEMFLAG_HOST_ACCESS;
	if (!(mem->flags & KFD_ALLOC_COHERENT))
		f |= HSA_MEMFLAG_COARSE_GRAIN;
	if (mem->flags & KFD_ALLOC_UNCACHED)
		f |= HSA_MEMFLAG_UNCACHED;
	return f;
}

/* KFD_ALLOC_COHERENT / UNCACHED of an exporter's HsaMemFlags. */
static uint32_t kfd_flags_of(uint32_t hsa_memflags)
{
	uint32_t f = 0;
	if (!(hsa_memflags & HSA_MEMFLAG_COARSE_GRAIN))
		f |= KFD_ALLOC_COHERENT;
	if (hsa_memflags & HSA_MEMFLAG_UNCACHED)
		f |= KFD_ALLOC_UNCACHED;
	return f;
}

int kfd_mem_ipc_export(struct kfd_process *proc, struct kfd_mem *mem, uint32_t share[4])
{
	if (mem->kind == KFD_MEM_DOORBELL)
		return -EINVAL;
	struct kfd_args_ipc_export_handle args = {
		.handle = mem->handle,
		.gpu_id = mem->gpu_id,
		.flags = hsa_memflags_of(mem),
	};
	int ret = kfd_ioctl(proc->fd, KFD_IOCTL_IPC_EXPORT_HANDLE, &args);
	if (ret) {
		/* -ENOTTY (-EINVAL before 6.12): an upstream kernel */
		hl_debug(KFD_LOG, "IPC_EXPORT_HANDLE: %s: handle 0x%llx at %p",
			 hl_errno_name(ret), (unsigned long long)mem->handle, mem->addr);
		return ret;
	}
	memcpy(share, args.share_handle, sizeof(args.share_handle));
	return 0;
}

int kfd_mem_ipc_import(struct kfd_process *proc, const uint32_t share[4], uint32_t gpu_id,
		       uint64_t size, uint64_t align, struct kfd_mem **out)
{
	*out = NULL;
	struct kfd_gpu *gpu = kfd_process_gpu_by_id(proc, gpu_id);
	if (!gpu || size == 0 || (size & (KFD_PAGE_SIZE - 1)))
		return -EINVAL;
	struct kfd_mem *mem = kfd_mem_new(proc);
	if (!mem)
		return -ENOMEM;
	int ret;
	mem->gpu_id = gpu_id;
	mem->size = size;
	mem->imported = true;
	mem->addr = kfd_va_reserve(size, align ? align : kfd_auto_align(size), &mem->reservation,
				   &mem->reservation_size);
	if (!mem->addr) {
		ret = -errno;
		goto err_delete;
	}
	if (!kfd_in_gpuvm(proc, (uintptr_t)mem->addr, size)) {
		ret = -ENOMEM;
		goto err_release_va;
	}
	struct kfd_args_ipc_import_handle args = { .va_addr = (uintptr_t)mem->addr,
						   .gpu_id = gpu_id };
	memcpy(args.share_handle, share, sizeof(args.share_handle));
	ret = kfd_ioctl(proc->fd, KFD_IOCTL_IPC_IMPORT_HANDLE, &args);
	if (ret) {
		hl_error(KFD_LOG, "IPC_IMPORT_HANDLE: %s: share handle %08x%08x%08x%08x on GPU "
			 "0x%x%s", hl_errno_name(ret), share[0], share[1], share[2], share[3],
			 gpu_id, ret == -ENOTTY ? " (a kernel without the ROCm-DKMS IPC ioctls)" :
			 ret == -EINVAL ? " (unknown handle: the exporter freed it?)" : "");
		goto err_release_va;
	}
	mem->handle = args.handle;
	mem->flags = kfd_flags_of(args.flags) | KFD_ALLOC_WRITABLE | KFD_ALLOC_EXECUTABLE;
	/* What the kernel made of it is not reported; the record's kind only
	 * matters to our own bookkeeping (never USERPTR or DOORBELL). */
	mem->kind = KFD_MEM_VRAM;
	/* libhsakmt: a CPU view through the render node when the kernel
	 * gives an offset. */
	if (args.mmap_offset) {
		void *p = mmap(mem->addr, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
			       gpu->render_fd, (off_t)args.mmap_offset);
		if (p != MAP_FAILED) {
			mem->host_access = true;
			/* A render-node BO mapping: as in memory.c. */
			if (madvise(mem->addr, size, MADV_DONTFORK))
				hl_warn(KFD_LOG, "madvise(DONTFORK) %p: %s", mem->addr,
					hl_errno_name(-errno));
		} else {
			mmap(mem->addr, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED |
			     MAP_NORESERVE, -1, 0);
		}
	}
	kfd_mem_track(proc, mem);
	hl_debug(KFD_LOG, "IPC_IMPORT_HANDLE: %llu bytes at %p handle 0x%llx%s",
		 (unsigned long long)size, mem->addr, (unsigned long long)mem->handle,
		 mem->host_access ? "" : " (GPU only)");
	*out = mem;
	return 0;

err_release_va:
	kfd_va_release(mem);
err_delete:
	kfd_mem_delete(mem);
	return ret;
}
