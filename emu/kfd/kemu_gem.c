/*
 * GEM objects on the render node: the buffer ioctls ROCr 1.18 issues
 * through libdrm_amdgpu for its virtual-memory API, dma-buf import and
 * IPC of system memory (amdgpu_bo_import, amdgpu_bo_va_op, amdgpu_bo_free,
 * its own DRM_AMDGPU_GEM_MMAP): PRIME_FD_TO_HANDLE, PRIME_HANDLE_TO_FD,
 * GEM_CLOSE, AMDGPU_GEM_MMAP and AMDGPU_GEM_VA, after drm_prime.c,
 * drm_gem.c and amdgpu_gem.c of the 6.12 kernel.
 *
 * Every KFD BO is a GEM object (as amdgpu's are), with no handle on any
 * user file until PRIME_FD_TO_HANDLE gives it one.  Handles are per render
 * file (drm_file.object_idr): the lowest free number from 1, and the same
 * dma-buf imported twice on one file gives the same handle (the file's
 * PRIME lookup).  Importing a dma-buf on the device whose BO it is gives
 * that very object (amdgpu_gem_prime_import: dma_buf->priv, same device);
 * a dma-buf of another device or another process (whose machine is not
 * this one) becomes a new BO sharing its pages, in GTT unless it is this
 * device's VRAM.  A BO lives while its KFD handle or any GEM handle does:
 * FREE_MEMORY_OF_GPU of a BO a render file still names leaves the object
 * (and its VRAM charge) until GEM_CLOSE.  A handle also allows the file to
 * mmap the object at its fake offset (drm_vma_node_allow).
 *
 * GEM_VA maps into the render file's VM, which ACQUIRE_VM made the KFD
 * process's GPU VM on that device: the mappings sit beside
 * MAP_MEMORY_TO_GPU's (kemu_vm.c, tagged as GEM mappings) and the CP, SDMA
 * and ISA translate through them alike, with the permissions of the VA
 * flags.  GEM_CLOSE drops the object's GEM_VA mappings in that VM
 * (amdgpu_gem_object_close deletes the file's bo_va).
 *
 * Kernel facts modelled, in the kernel's order:
 *   PRIME_FD_TO_HANDLE  not an open fd -EBADF, not a dma-buf -EINVAL
 *                       (dma_buf_get); flags ignored
 *   PRIME_HANDLE_TO_FD  flags other than DRM_CLOEXEC|DRM_RDWR -EINVAL,
 *                       unknown handle -ENOENT, USERPTR -EPERM
 *                       (amdgpu_gem_prime_export); the object's dma-buf is
 *                       made once (read-write only if asked then) and every
 *                       call installs a new fd of it
 *   GEM_CLOSE           unknown handle -EINVAL (drm_gem_handle_delete)
 *   AMDGPU_GEM_MMAP     the answer zeroed first, unknown handle -ENOENT,
 *                       USERPTR -EPERM (no KFD BO is NO_CPU_ACCESS), else
 *                       the object's fake offset
 *   AMDGPU_GEM_VA       va below AMDGPU_VA_RESERVED_BOTTOM (64 KiB) or in
 *                       the GMC hole -EINVAL; va (hole-masked) + size past
 *                       the VM less AMDGPU_VA_RESERVED_TOP -EINVAL; flags
 *                       outside the valid set -EINVAL; an unknown operation
 *                       -EINVAL; unknown handle -ENOENT; MAP: va, offset or
 *                       size not page aligned, zero or wrapping sizes, a
 *                       range past the BO or past max_pfn, or an overlap
 *                       with any mapping -EINVAL; UNMAP: no GEM mapping of
 *                       the object starting at va -ENOENT
 * Not modelled, refused with -EOPNOTSUPP and logged: GEM_VA's CLEAR and
 * REPLACE operations and PRT mappings (ROCr issues none), GEM_VA on a
 * render file no KFD process acquired (its graphics VM runs nothing here),
 * importing a doorbell or MMIO dma-buf of another device.
 *
 * Locking: machine->gem_lock serializes the GEM ioctls and file release
 * (handle tables, gem_refs), outside each BO's process lock; the handle
 * tables are changed with machine->lock held too, so render-node mmap can
 * read them under machine->lock alone.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <libdrm/drm.h>
#include <libdrm/amdgpu_drm.h>

#include "kemu_priv.h"

/* drm.h core numbers and the amdgpu ones (relative to DRM_COMMAND_BASE) */
#define KEMU_NR_GEM_CLOSE 0x09
#define KEMU_NR_PRIME_HANDLE_TO_FD 0x2d
#define KEMU_NR_PRIME_FD_TO_HANDLE 0x2e
#define KEMU_NR_AMDGPU_GEM_MMAP (DRM_COMMAND_BASE + DRM_AMDGPU_GEM_MMAP)
#define KEMU_NR_AMDGPU_GEM_VA (DRM_COMMAND_BASE + DRM_AMDGPU_GEM_VA)

/* amdgpu_vm.h of 6.12: the low 64 KiB, and CSA + SEQ64 + trap pages at the
 * top, are the kernel's; the GMC hole splits the 48-bit space. */
#define KEMU_VA_RESERVED_BOTTOM (1ull << 16)
#define KEMU_VA_RESERVED_TOP ((2ull << 12) + (2ull << 20) + (2ull << 20))
#define KEMU_GMC_HOLE_START 0x0000800000000000ull
#define KEMU_GMC_HOLE_END 0xffff800000000000ull
#define KEMU_GMC_HOLE_MASK 0x0000ffffffffffffull
/* vm_manager.max_pfn of a 48-bit gfx9 VM */
#define KEMU_VM_MAX_PFN (1ull << 36)
/* AMDGPU_VM_PAGE_NOALLOC (newer than some amdgpu_drm.h copies) */
#define KEMU_VM_PAGE_NOALLOC (1u << 9)

/* ---- handle tables (caller holds gem_lock; changes take m->lock) ---- */

static struct kemu_gem_handle *handle_find(const struct kemu_file *f, uint32_t handle)
{
	for (size_t i = 0; i < f->n_gem; i++) {
		if (f->gem[i].handle == handle)
			return &f->gem[i];
	}
	return NULL;
}

bool kemu_gem_file_has_bo(const struct kemu_file *f, const struct kemu_bo *bo)
{
	for (size_t i = 0; i < f->n_gem; i++) {
		if (f->gem[i].bo == bo)
			return true;
	}
	return false;
}

/* idr_alloc(&object_idr, 1, 0): the lowest free handle from 1. */
static int handle_add(struct kemu_file *f, struct kemu_bo *bo, uint32_t *out)
{
	struct kemu_machine *m = f->m;
	uint32_t h = 1;
	for (bool taken = true; taken; ) {
		taken = false;
		for (size_t i = 0; i < f->n_gem; i++) {
			if (f->gem[i].handle == h) {
				taken = true;
				h++;
				break;
			}
		}
	}
	pthread_mutex_lock(&m->lock);
	struct kemu_gem_handle *n = kemu_array_room(f->gem, f->n_gem, &f->cap_gem, sizeof(*n), 16);
	if (!n) {
		pthread_mutex_unlock(&m->lock);
		return -ENOMEM;
	}
	f->gem = n;
	f->gem[f->n_gem++] = (struct kemu_gem_handle){ h, bo };
	pthread_mutex_unlock(&m->lock);
	*out = h;
	return 0;
}

static void handle_remove(struct kemu_file *f, struct kemu_gem_handle *e)
{
	pthread_mutex_lock(&f->m->lock);
	*e = f->gem[--f->n_gem];
	pthread_mutex_unlock(&f->m->lock);
}

/* ---- objects ---- */

/* The file holding the pages of bo, whose identity a dma-buf of it shares. */
static int bo_pages_fd(const struct kemu_bo *bo)
{
	switch (bo->kind) {
	case KEMU_BO_USERPTR:
		return -1;
	case KEMU_BO_DOORBELL:
		return bo->pdd->db_fd;
	case KEMU_BO_MMIO:
		return bo->pdd->dev->mmio_fd;
	default:
		return bo->fd;
	}
}

static bool bo_is_dmabuf(const struct kemu_bo *bo, const struct kemu_dmabuf_desc *d)
{
	int fd = bo_pages_fd(bo);
	struct stat st;
	return fd >= 0 && syscall(SYS_fstat, fd, &st) == 0 && (uint64_t)st.st_dev == d->dev &&
	       (uint64_t)st.st_ino == d->ino;
}

/* amdgpu_gem_prime_import for a dma-buf of this device: the object it was
 * exported from, when this machine has it (an exporter rather than an
 * earlier import of the same pages).  Takes m->lock. */
static struct kemu_bo *device_object(struct kemu_machine *m, struct kemu_device *dev,
				     struct kemu_process *p, const struct kemu_dmabuf_desc *d)
{
	struct kemu_bo *found = NULL;
	pthread_mutex_lock(&m->lock);
	for (size_t i = 0; i < dev->n_bos; i++) {
		struct kemu_bo *bo = dev->bos[i];
		if (bo->proc != p || !bo_is_dmabuf(bo, d))
			continue;
		if (!found || (found->imported && !bo->imported))
			found = bo;
	}
	pthread_mutex_unlock(&m->lock);
	return found;
}

/* Drops one GEM reference of bo held through file f: its GEM_VA mappings
 * in f's VM go (amdgpu_gem_object_close), and the BO with its last
 * reference.  Caller holds gem_lock and bo->proc->lock. */
static void gem_put(struct kemu_file *f, struct kemu_bo *bo)
{
	struct kemu_process *p = bo->proc;
	struct kemu_pdd *pdd = &p->pdds[f->dev->index];
	if (pdd->drm_file == f) {
		pthread_rwlock_wrlock(&p->vm_lock);
		kemu_vm_remove_gem_bo(&pdd->vm, bo);
		kemu_vm_write_unlock(p);
	}
	if (--bo->gem_refs == 0 && !bo->kfd_handle)
		kemu_bo_destroy(bo);
}

void kemu_gem_release_file(struct kemu_file *f)
{
	struct kemu_machine *m = f->m;
	if (f->node != KEMU_NODE_RENDER)
		return;
	pthread_mutex_lock(&m->gem_lock);
	while (f->n_gem) {
		struct kemu_gem_handle *e = &f->gem[f->n_gem - 1];
		struct kemu_bo *bo = e->bo;
		struct kemu_process *p = bo->proc;
		handle_remove(f, e);
		pthread_mutex_lock(&p->lock);
		gem_put(f, bo);
		pthread_mutex_unlock(&p->lock);
	}
	pthread_mutex_unlock(&m->gem_lock);
}

/* ---- the ioctls (caller holds gem_lock) ---- */

static long prime_fd_to_handle(struct kemu_file *f, struct drm_prime_handle *a)
{
	struct kemu_machine *m = f->m;
	struct kemu_dmabuf_desc d;
	long err = kemu_dmabuf_identify(a->fd, &d);
	if (err) {
		kemu_info(m, "PRIME_FD_TO_HANDLE: fd %d: %s", a->fd, strerrorname_np((int)-err));
		return err;
	}
	/* the file's PRIME lookup: this dma-buf already has a handle here */
	for (size_t i = 0; i < f->n_gem; i++) {
		if (bo_is_dmabuf(f->gem[i].bo, &d)) {
			a->handle = f->gem[i].handle;
			return 0;
		}
	}
	struct kemu_process *p = kemu_process_get(m, getpid());
	if (!p)
		return -ENOMEM;
	pthread_mutex_lock(&p->lock);
	struct kemu_bo *bo = device_object(m, f->dev, p, &d);
	bool created = false;
	if (!bo) {
		if (!d.gpu_memory) {
			kemu_warn(m, "PRIME_FD_TO_HANDLE: fd %d: a doorbell or MMIO dma-buf of "
				  "another device: not modelled: -EOPNOTSUPP", a->fd);
			err = -EOPNOTSUPP;
			goto out_unlock;
		}
		err = kemu_dmabuf_bo_create(p, &p->pdds[f->dev->index], a->fd, &d, &bo);
		if (err)
			goto out_unlock;
		bo->drm_file = NULL; /* only files with a handle may mmap it */
		err = kemu_dev_add_bo(m, f->dev, bo);
		if (err) {
			kemu_bo_destroy(bo);
			goto out_unlock;
		}
		created = true;
	}
	uint32_t handle;
	err = handle_add(f, bo, &handle);
	if (err) {
		if (created)
			kemu_bo_destroy(bo);
		goto out_unlock;
	}
	bo->gem_refs++;
	a->handle = handle;
	kemu_dbg(m, "PRIME_FD_TO_HANDLE: fd %d (gpu 0x%x, 0x%" PRIx64 " bytes) -> handle %u (%s)",
		 a->fd, d.gpu_id, d.size, handle, created ? "new object" : "its object");
out_unlock:
	pthread_mutex_unlock(&p->lock);
	return err;
}

static long prime_handle_to_fd(struct kemu_file *f, struct drm_prime_handle *a)
{
	if (a->flags & ~(uint32_t)(DRM_CLOEXEC | DRM_RDWR))
		return -EINVAL;
	struct kemu_gem_handle *e = handle_find(f, a->handle);
	if (!e)
		return -ENOENT;
	struct kemu_bo *bo = e->bo;
	struct kemu_process *p = bo->proc;
	pthread_mutex_lock(&p->lock);
	long err = kemu_bo_dmabuf_file(bo, (a->flags & DRM_RDWR) != 0);
	if (!err) {
		/* dma_buf_fd: a new fd of the object's one dma-buf */
		long fd = syscall(SYS_fcntl, bo->dmabuf_fd,
				  (a->flags & DRM_CLOEXEC) ? F_DUPFD_CLOEXEC : F_DUPFD, 0);
		if (fd < 0)
			err = -errno;
		else
			a->fd = (int)fd;
	}
	pthread_mutex_unlock(&p->lock);
	if (err)
		kemu_info(f->m, "PRIME_HANDLE_TO_FD: handle %u: %s", a->handle,
			  strerrorname_np((int)-err));
	return err;
}

static long gem_close(struct kemu_file *f, struct drm_gem_close *a)
{
	struct kemu_gem_handle *e = handle_find(f, a->handle);
	if (!e) {
		kemu_info(f->m, "GEM_CLOSE: no handle %u on this file: -EINVAL", a->handle);
		return -EINVAL;
	}
	struct kemu_bo *bo = e->bo;
	struct kemu_process *p = bo->proc;
	handle_remove(f, e);
	pthread_mutex_lock(&p->lock);
	gem_put(f, bo);
	pthread_mutex_unlock(&p->lock);
	return 0;
}

static long gem_mmap(struct kemu_file *f, union drm_amdgpu_gem_mmap *a)
{
	uint32_t handle = a->in.handle;
	memset(a, 0, sizeof(*a));
	struct kemu_gem_handle *e = handle_find(f, handle);
	if (!e)
		return -ENOENT;
	struct kemu_bo *bo = e->bo;
	/* amdgpu_mode_dumb_mmap refuses user pages and NO_CPU_ACCESS BOs; KFD
	 * makes no VRAM NO_CPU_ACCESS since 2021 (non-PUBLIC VRAM is only not
	 * CPU_ACCESS_REQUIRED: the thunk maps every BO, invisible ones
	 * PROT_NONE), so only USERPTR is refused here */
	if (bo->kind == KEMU_BO_USERPTR) {
		kemu_info(f->m, "AMDGPU_GEM_MMAP: handle %u is user memory: -EPERM", handle);
		return -EPERM;
	}
	a->out.addr_ptr = bo->fake_offset;
	return 0;
}

static long gem_va(struct kemu_file *f, struct drm_amdgpu_gem_va *a)
{
	struct kemu_machine *m = f->m;
	const uint32_t valid = AMDGPU_VM_DELAY_UPDATE | AMDGPU_VM_PAGE_READABLE |
			       AMDGPU_VM_PAGE_WRITEABLE | AMDGPU_VM_PAGE_EXECUTABLE |
			       AMDGPU_VM_MTYPE_MASK | KEMU_VM_PAGE_NOALLOC;
	const uint32_t prt = AMDGPU_VM_DELAY_UPDATE | AMDGPU_VM_PAGE_PRT;
	uint64_t va = a->va_address, size = a->map_size, off = a->offset_in_bo;
	if (va < KEMU_VA_RESERVED_BOTTOM || (va >= KEMU_GMC_HOLE_START && va < KEMU_GMC_HOLE_END)) {
		kemu_info(m, "AMDGPU_GEM_VA: va 0x%" PRIx64 " is reserved or in the hole: -EINVAL", va);
		return -EINVAL;
	}
	va &= KEMU_GMC_HOLE_MASK;
	if (va + size > KEMU_VM_MAX_PFN * KEMU_PAGE_SIZE - KEMU_VA_RESERVED_TOP) {
		kemu_info(m, "AMDGPU_GEM_VA: va 0x%" PRIx64 " + 0x%" PRIx64 " in the top reserved "
			  "area: -EINVAL", va, size);
		return -EINVAL;
	}
	if ((a->flags & ~valid) && (a->flags & ~prt)) {
		kemu_info(m, "AMDGPU_GEM_VA: invalid flags 0x%08x: -EINVAL", a->flags);
		return -EINVAL;
	}
	switch (a->operation) {
	case AMDGPU_VA_OP_MAP:
	case AMDGPU_VA_OP_UNMAP:
	case AMDGPU_VA_OP_CLEAR:
	case AMDGPU_VA_OP_REPLACE:
		break;
	default:
		kemu_info(m, "AMDGPU_GEM_VA: unsupported operation %u: -EINVAL", a->operation);
		return -EINVAL;
	}
	struct kemu_gem_handle *e = NULL;
	if (a->operation != AMDGPU_VA_OP_CLEAR && !(a->flags & AMDGPU_VM_PAGE_PRT)) {
		e = handle_find(f, a->handle);
		if (!e)
			return -ENOENT;
	}
	if (!e || a->operation == AMDGPU_VA_OP_REPLACE) {
		kemu_warn(m, "AMDGPU_GEM_VA: %s: not modelled: -EOPNOTSUPP",
			  !e ? "PRT mappings and CLEAR" : "REPLACE");
		return -EOPNOTSUPP;
	}
	struct kemu_bo *bo = e->bo;
	struct kemu_process *p = bo->proc;
	struct kemu_pdd *pdd = &p->pdds[f->dev->index];
	long err = 0;
	pthread_mutex_lock(&p->lock);
	if (pdd->drm_file != f) {
		kemu_warn(m, "AMDGPU_GEM_VA on a render file no KFD process acquired (a "
			  "graphics VM): not modelled: -EOPNOTSUPP");
		err = -EOPNOTSUPP;
		goto out_unlock;
	}
	if (a->operation == AMDGPU_VA_OP_UNMAP) {
		pthread_rwlock_wrlock(&p->vm_lock);
		err = kemu_vm_remove_gem_at(&pdd->vm, bo, va);
		kemu_vm_write_unlock(p);
		if (err)
			kemu_info(m, "AMDGPU_GEM_VA: handle %u has no mapping at 0x%" PRIx64
				  ": -ENOENT", a->handle, va);
		goto out_unlock;
	}
	/* amdgpu_vm_verify_parameters */
	if ((va | off | size) & (KEMU_PAGE_SIZE - 1) || va + size <= va || off + size <= off ||
	    off + size > bo->bo_size || ((va + size - 1) >> 12) >= KEMU_VM_MAX_PFN) {
		kemu_info(m, "AMDGPU_GEM_VA: map 0x%" PRIx64 "+0x%" PRIx64 " at offset 0x%" PRIx64
			  " of a 0x%" PRIx64 "-byte BO: -EINVAL", va, size, off, bo->bo_size);
		err = -EINVAL;
		goto out_unlock;
	}
	unsigned perms = 0;
	if (a->flags & AMDGPU_VM_PAGE_READABLE)
		perms |= KEMU_ACCESS_READ;
	if (a->flags & AMDGPU_VM_PAGE_WRITEABLE)
		perms |= KEMU_ACCESS_WRITE;
	if (a->flags & AMDGPU_VM_PAGE_EXECUTABLE)
		perms |= KEMU_ACCESS_EXEC;
	pthread_rwlock_wrlock(&p->vm_lock);
	err = kemu_vm_insert_map(&pdd->vm, bo, va, size, off, perms, true);
	kemu_vm_write_unlock(p);
	if (err)
		kemu_info(m, "AMDGPU_GEM_VA: va 0x%" PRIx64 "-0x%" PRIx64 " conflicts with a "
			  "mapping: %s", va, va + size - 1, strerrorname_np((int)-err));
out_unlock:
	pthread_mutex_unlock(&p->lock);
	return err;
}

long kemu_gem_ioctl(struct kemu_file *f, unsigned nr, void *kdata)
{
	struct kemu_machine *m = f->m;
	long ret;
	pthread_mutex_lock(&m->gem_lock);
	switch (nr) {
	case KEMU_NR_PRIME_FD_TO_HANDLE:
		ret = prime_fd_to_handle(f, kdata);
		break;
	case KEMU_NR_PRIME_HANDLE_TO_FD:
		ret = prime_handle_to_fd(f, kdata);
		break;
	case KEMU_NR_GEM_CLOSE:
		ret = gem_close(f, kdata);
		break;
	case KEMU_NR_AMDGPU_GEM_MMAP:
		ret = gem_mmap(f, kdata);
		break;
	case KEMU_NR_AMDGPU_GEM_VA:
		ret = gem_va(f, kdata);
		break;
	default:
		ret = -ENOSYS;
		break;
	}
	pthread_mutex_unlock(&m->gem_lock);
	return ret;
}
