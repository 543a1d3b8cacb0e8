/*
 * dma-buf sharing of buffer objects: EXPORT_DMABUF, IMPORT_DMABUF and
 * GET_DMABUF_INFO (kfd_chardev.c; amdgpu_amdkfd_gpuvm_export_dmabuf,
 * amdgpu_amdkfd_gpuvm_import_dmabuf_fd and amdgpu_amdkfd_get_dmabuf_info).
 *
 * A kfdemu dma-buf is a real file, so it can be inherited or passed over a
 * unix socket (SCM_RIGHTS) to another process, which has a kfdemu machine
 * of its own.  The file is the BO's memfd itself (reopened read-write, or
 * read-only for a BO without WRITABLE, as amdgpu exports with DRM_RDWR only
 * for writable BOs), so every process that imports it maps the same pages.
 * What the importer must learn about the buffer rides on the memfd:
 *   name   "kfdemu-bo:<gpu_id>:<flags>" (hex): the GPU whose memory it is
 *          and the KFD_ALLOC_* flags GET_DMABUF_INFO reports (VRAM or GTT,
 *          plus PUBLIC for host-visible VRAM: CPU_ACCESS_REQUIRED);
 *   size   the BO size (amdgpu_bo_size), fixed by F_SEAL_SHRINK|GROW, as a
 *          dma-buf's size is (and so nobody can truncate pages the emulator
 *          maps);
 * and is read back with readlink("/proc/self/fd/N") and fstat.
 *
 * Kernel facts modelled:
 *   - EXPORT: unknown gpu in the handle, no pdd, unknown handle -EINVAL;
 *     USERPTR -EPERM (amdgpu_gem_prime_export refuses user memory); the BO's
 *     dma-buf is created once (mem->dmabuf) and every export installs a new
 *     fd of that same file (dma_buf_fd: only O_CLOEXEC of flags matters);
 *     DOORBELL and MMIO_REMAP BOs export their pages (a CPU-domain BO).
 *   - dma_buf_get: not an open fd -EBADF, an fd that is no dma-buf -EINVAL.
 *   - GET_DMABUF_INFO and IMPORT accept only VRAM and GTT BOs of amdgpu
 *     (-EINVAL otherwise); INFO reports size, gpu_id, flags and a metadata
 *     size of 0 (KFD BOs carry no metadata: that is DRM_AMDGPU_GEM_METADATA,
 *     a graphics ioctl), and fails with -ENOMEM when the metadata buffer is
 *     larger than kzalloc can give.
 *   - IMPORT: unknown gpu -EINVAL, no VM -ENODEV (bind); the new BO is not
 *     charged to any memory limit (import_obj_create does not reserve), has
 *     alloc flags VRAM-or-GTT | WRITABLE | EXECUTABLE, is in VRAM when
 *     imported on the GPU that exported it and in GTT on another GPU (the
 *     sg BO of amdgpu_dma_buf_create_obj), and is mapped later with
 *     MAP_MEMORY_TO_GPU at va_addr.  Re-exporting it gives the original
 *     dma-buf (mem->dmabuf is the imported one).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kemu_priv.h"

#define KEMU_DMABUF_NAME "kfdemu-bo"
#define KEMU_DMABUF_SEALS (F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL)
/* kzalloc beyond KMALLOC_MAX_SIZE (order-10 pages) fails */
#define KEMU_KMALLOC_MAX (4ull << 20)


int kemu_bo_memfd(uint32_t gpu_id, uint32_t flags, uint64_t size)
{
	char name[64];
	uint32_t info_flags = flags & KFD_ALLOC_VRAM ? KFD_ALLOC_VRAM : KFD_ALLOC_GTT;
	if ((flags & KFD_ALLOC_VRAM) && (flags & KFD_ALLOC_PUBLIC))
		info_flags |= KFD_ALLOC_PUBLIC;
	snprintf(name, sizeof(name), KEMU_DMABUF_NAME ":%x:%x", gpu_id, info_flags);
	int fd = (int)syscall(SYS_memfd_create, name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0)
		return -errno;
	if (syscall(SYS_ftruncate, fd, (off_t)size) < 0 ||
	    syscall(SYS_fcntl, fd, F_ADD_SEALS, KEMU_DMABUF_SEALS) < 0) {
		int err = -errno;
		kemu_sys_close(fd);
		return err;
	}
	return fd;
}

/* A new open file of the same memfd (as open("/proc/self/fd/N") gives),
 * with its own access mode. */
static int reopen_fd(int fd, int flags)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	int r = (int)syscall(SYS_openat, AT_FDCWD, path, flags | O_CLOEXEC);
	return r < 0 ? -errno : r;
}

int kemu_dmabuf_identify(int fd, struct kemu_dmabuf_desc *d)
{
	if (fd < 0 || syscall(SYS_fcntl, fd, F_GETFD) < 0)
		return -EBADF;
	char path[64], link[256];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	long n = syscall(SYS_readlink, path, link, sizeof(link) - 1);
	if (n <= 0)
		return -EINVAL;
	link[n] = 0;
	memset(d, 0, sizeof(*d));
	struct stat st;
	if (syscall(SYS_fstat, fd, &st) < 0)
		return -EINVAL;
	d->dev = st.st_dev;
	d->ino = st.st_ino;
	static const char doorbell[] = "/memfd:kfdemu-doorbell", mmio[] = "/memfd:kfdemu-mmio";
	if (!strncmp(link, doorbell, sizeof(doorbell) - 1) ||
	    !strncmp(link, mmio, sizeof(mmio) - 1))
		return 0; /* a dma-buf of a CPU-domain BO */
	unsigned gpu_id, flags;
	if (sscanf(link, "/memfd:" KEMU_DMABUF_NAME ":%x:%x", &gpu_id, &flags) != 2)
		return -EINVAL;
	long seals = syscall(SYS_fcntl, fd, F_GET_SEALS);
	if (seals != KEMU_DMABUF_SEALS || st.st_size <= 0)
		return -EINVAL;
	d->gpu_memory = true;
	d->gpu_id = gpu_id;
	d->flags = flags;
	d->size = (uint64_t)st.st_size;
	return 0;
}

int kemu_bo_dmabuf_file(struct kemu_bo *bo, bool writable)
{
	if (bo->dmabuf_fd >= 0)
		return 0;
	int src;
	switch (bo->kind) {
	case KEMU_BO_USERPTR:
		return -EPERM;
	case KEMU_BO_DOORBELL:
		src = bo->pdd->db_fd;
		break;
	case KEMU_BO_MMIO:
		src = bo->pdd->dev->mmio_fd;
		break;
	default:
		src = bo->fd;
		break;
	}
	int fd = reopen_fd(src, writable ? O_RDWR : O_RDONLY);
	if (fd < 0)
		return fd;
	bo->dmabuf_fd = fd;
	return 0;
}

long kemu_ioctl_export_dmabuf(struct kemu_process *p, void *arg)
{
	struct kfd_args_export_dmabuf *a = arg;
	if (!kemu_device_by_id(p->m, KFD_HANDLE_GPU_ID(a->handle)))
		return -EINVAL;
	long err;
	pthread_mutex_lock(&p->lock);
	struct kemu_pdd *pdd = kemu_pdd_by_id(p, KFD_HANDLE_GPU_ID(a->handle));
	struct kemu_bo *bo = pdd ? kemu_bo_lookup(pdd, a->handle) : NULL;
	if (!bo) {
		err = -EINVAL;
		goto out_unlock;
	}
	err = kemu_bo_dmabuf_file(bo, bo->flags & KFD_ALLOC_WRITABLE);
	if (err) {
		kemu_info(p->m, "EXPORT_DMABUF: handle 0x%llx: %s", (unsigned long long)a->handle,
			  strerrorname_np((int)-err));
		goto out_unlock;
	}
	/* dma_buf_fd: a new fd of the same file; only O_CLOEXEC is looked at */
	long fd = syscall(SYS_fcntl, bo->dmabuf_fd,
			  (a->flags & O_CLOEXEC) ? F_DUPFD_CLOEXEC : F_DUPFD, 0);
	if (fd < 0) {
		err = -errno;
		goto out_unlock;
	}
	a->dmabuf_fd = (uint32_t)fd;
out_unlock:
	pthread_mutex_unlock(&p->lock);
	return err;
}

long kemu_ioctl_get_dmabuf_info(struct kemu_process *p, void *arg)
{
	struct kfd_args_get_dmabuf_info *a = arg;
	if (a->metadata_ptr && a->metadata_size > KEMU_KMALLOC_MAX)
		return -ENOMEM;
	struct kemu_dmabuf_desc d;
	int err = kemu_dmabuf_identify((int)a->dmabuf_fd, &d);
	if (err)
		return err;
	if (!d.gpu_memory || !kemu_device_by_id(p->m, d.gpu_id)) {
		kemu_info(p->m, "GET_DMABUF_INFO: fd %u is not a VRAM/GTT BO: -EINVAL",
			  a->dmabuf_fd);
		return -EINVAL;
	}
	a->size = d.size;
	if (a->metadata_ptr)
		a->metadata_size = 0; /* amdgpu_bo_get_metadata: none was set */
	a->gpu_id = d.gpu_id;
	a->flags = d.flags;
	return 0;
}

int kemu_dmabuf_bo_create(struct kemu_process *p, struct kemu_pdd *pdd, int fd,
			  const struct kemu_dmabuf_desc *d, struct kemu_bo **out)
{
	struct kemu_bo *bo = calloc(1, sizeof(*bo));
	if (!bo)
		return -ENOMEM;
	bool same_gpu = d->gpu_id == pdd->dev->gpu->gpu_id;
	bo->proc = p;
	bo->pdd = pdd;
	bo->idr = KEMU_BO_NO_IDR;
	bo->kind = same_gpu && (d->flags & KFD_ALLOC_VRAM) ? KEMU_BO_VRAM : KEMU_BO_GTT;
	bo->flags = (bo->kind == KEMU_BO_VRAM ? KFD_ALLOC_VRAM : KFD_ALLOC_GTT) |
		    KFD_ALLOC_WRITABLE | KFD_ALLOC_EXECUTABLE;
	bo->imported = true;
	bo->size = bo->bo_size = d->size;
	bo->drm_file = pdd->drm_file;
	bo->fd = reopen_fd(fd, O_RDWR);
	bo->dmabuf_fd = (int)syscall(SYS_fcntl, fd, F_DUPFD_CLOEXEC, 0);
	int err;
	if (bo->fd < 0 || bo->dmabuf_fd < 0) {
		err = -ENOMEM;
		goto err_free;
	}
	bo->host = kemu_sys_mmap(NULL, d->size, PROT_READ | PROT_WRITE, MAP_SHARED, bo->fd, 0);
	if (bo->host == MAP_FAILED) {
		bo->host = NULL;
		err = -ENOMEM;
		goto err_free;
	}
	*out = bo;
	return 0;

err_free:
	kemu_bo_destroy(bo);
	return err;
}

/* The import shared by IMPORT_DMABUF and the DKMS IPC_IMPORT_HANDLE: a
 * new BO of p on gpu_id sharing the dma-buf's pages.  With mmap_offset
 * (DKMS) it is listed for render-node mmap and its fake offset returned, as
 * amdgpu_amdkfd_gpuvm_import_dmabuf does when asked.  Caller holds p->lock. */
static long import_fd(struct kemu_process *p, uint32_t gpu_id, int fd, uint64_t va,
		      uint64_t *handle, uint64_t *mmap_offset)
{
	struct kemu_machine *m = p->m;
	struct kemu_pdd *pdd = kemu_pdd_by_id(p, gpu_id);
	if (!pdd)
		return -EINVAL;
	long err = kemu_pdd_bind(pdd);
	if (err)
		return err;
	struct kemu_dmabuf_desc d;
	err = kemu_dmabuf_identify(fd, &d);
	if (!err && !d.gpu_memory)
		err = -EINVAL; /* import_obj_create: only VRAM and GTT BOs */
	if (err) {
		kemu_info(m, "IMPORT: fd %d: %s", fd, strerrorname_np((int)-err));
		return err;
	}
	struct kemu_bo *bo;
	err = kemu_dmabuf_bo_create(p, pdd, fd, &d, &bo);
	if (err)
		return err;
	bo->va = va;
	if (mmap_offset) {
		err = kemu_dev_add_bo(m, pdd->dev, bo);
		if (err)
			goto err_free;
	}
	err = kemu_bo_idr_alloc(pdd, bo);
	if (err) {
		err = -EFAULT; /* kfd_process_device_create_obj_handle failure */
		goto err_free;
	}
	bo->kfd_handle = true;
	*handle = (uint64_t)gpu_id << 32 | bo->idr;
	if (mmap_offset)
		*mmap_offset = bo->fake_offset;
	kemu_dbg(m, "IMPORT: fd %d of gpu 0x%x (%s, 0x%" PRIx64 " bytes) -> handle 0x%llx", fd,
		 d.gpu_id, bo->kind == KEMU_BO_VRAM ? "VRAM" : "GTT", d.size,
		 (unsigned long long)*handle);
	return 0;

err_free:
	kemu_bo_destroy(bo);
	return err;
}

long kemu_ioctl_import_dmabuf(struct kemu_process *p, void *arg)
{
	struct kfd_args_import_dmabuf *a = arg;
	pthread_mutex_lock(&p->lock);
	uint64_t handle = 0;
	long err = import_fd(p, a->gpu_id, (int)a->dmabuf_fd, a->va_addr, &handle, NULL);
	pthread_mutex_unlock(&p->lock);
	if (!err)
		a->handle = handle;
	return err;
}

/*
 * The ROCm-DKMS IPC pair (kfd_ipc.c of ROCK-Kernel-Driver), answered with
 * KFDEMU_DKMS_IPC=1.  The kernel exports the BO's dma-buf once per BO
 * (kfd_bo->kfd_ipc_obj: a second export gives the same handle), files it
 * under 128 random bits in a table every process shares, keeps the export
 * flags with it, and IMPORT looks the bits up (-EINVAL when unknown) and
 * imports the dma-buf at va_addr on gpu_id, returning the BO's mmap offset
 * and the flags.  Each process here has a machine of its own, so the table
 * is the exporting processes themselves: the share handle names the
 * exporter's dma-buf fd (pid, fd number, low 32 bits of its inode) and
 * carries the flags, and IMPORT takes a copy of that fd with pidfd_getfd.
 * The difference: a handle works while the exporter's BO lives (the kernel's
 * works while any BO made from it lives).
 */
long kemu_ioctl_ipc_export_handle(struct kemu_process *p, void *arg)
{
	struct kfd_args_ipc_export_handle *a = arg;
	long err;
	pthread_mutex_lock(&p->lock);
	struct kemu_pdd *pdd = kemu_pdd_by_id(p, a->gpu_id);
	struct kemu_bo *bo = pdd ? kemu_bo_lookup(pdd, (uint64_t)a->gpu_id << 32 |
						   (uint32_t)a->handle) : NULL;
	if (!bo) {
		err = -EINVAL;
		goto out_unlock;
	}
	err = kemu_bo_dmabuf_file(bo, bo->flags & KFD_ALLOC_WRITABLE);
	if (err)
		goto out_unlock;
	struct stat st;
	if (syscall(SYS_fstat, bo->dmabuf_fd, &st) < 0) {
		err = -errno;
		goto out_unlock;
	}
	a->share_handle[0] = (uint32_t)getpid();
	a->share_handle[1] = (uint32_t)bo->dmabuf_fd;
	a->share_handle[2] = (uint32_t)st.st_ino;
	a->share_handle[3] = a->flags;
out_unlock:
	pthread_mutex_unlock(&p->lock);
	if (err)
		kemu_info(p->m, "IPC_EXPORT_HANDLE: handle 0x%llx on gpu 0x%x: %s",
			  (unsigned long long)a->handle, a->gpu_id, strerrorname_np((int)-err));
	return err;
}

long kemu_ioctl_ipc_import_handle(struct kemu_process *p, void *arg)
{
	struct kfd_args_ipc_import_handle *a = arg;
	if (!kemu_pdd_by_id(p, a->gpu_id))
		return -EINVAL;
	/* the table lookup: unknown bits are -EINVAL */
	int pidfd = (int)syscall(SYS_pidfd_open, (pid_t)a->share_handle[0], 0);
	int fd = pidfd < 0 ? -1 : (int)syscall(SYS_pidfd_getfd, pidfd, (int)a->share_handle[1], 0);
	if (pidfd >= 0)
		kemu_sys_close(pidfd);
	struct stat st;
	if (fd < 0 || syscall(SYS_fstat, fd, &st) < 0 ||
	    (uint32_t)st.st_ino != a->share_handle[2]) {
		kemu_info(p->m, "IPC_IMPORT_HANDLE: unknown share handle (pid %u fd %u): -EINVAL",
			  a->share_handle[0], a->share_handle[1]);
		if (fd >= 0)
			kemu_sys_close(fd);
		return -EINVAL;
	}
	pthread_mutex_lock(&p->lock);
	uint64_t handle = 0, offset = 0;
	long err = import_fd(p, a->gpu_id, fd, a->va_addr, &handle, &offset);
	pthread_mutex_unlock(&p->lock);
	kemu_sys_close(fd);
	if (!err) {
		a->handle = handle;
		a->mmap_offset = offset;
		a->flags = a->share_handle[3];
	}
	return err;
}
