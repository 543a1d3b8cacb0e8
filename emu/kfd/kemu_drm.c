/*
 * The render node /dev/dri/renderD<minor> of an emulated GPU.  Its DRM
 * ioctls (version, AMDGPU_INFO queries, ...) are answered by the topology
 * (kemu_drm_info_ioctl, emu/topology) from the GPU's facts; this file does
 * the kernel's part around it, as drm_ioctl() does: the argument is copied
 * in and out by the size and direction in the request, with -EFAULT for a
 * bad pointer.  The buffer ioctls ROCr 1.18 issues (PRIME handle <-> fd,
 * GEM_CLOSE, AMDGPU_GEM_MMAP, AMDGPU_GEM_VA) go to the GEM model
 * (kemu_gem.c), with the kernel table's direction: drm_ioctl copies in and
 * out only what both the caller's request and the kernel's command say
 * (GEM_VA and GEM_CLOSE are _IOW: nothing is written back).  The others
 * (GEM create, userptr, metadata, submission) come back as -ENOSYS from
 * the topology: kfdemu does not model graphics BOs, so they are logged and
 * fail with -EOPNOTSUPP.  Compute BOs are created through /dev/kfd and
 * mapped through this node by their fake offset (kemu_mmap.c).
 *
 * AMDGPU_INFO carries a second user pointer (return_pointer): the answer is
 * produced into a bounce buffer here and copied out with fault checking,
 * so a bad return_pointer is -EFAULT as in amdgpu_info_ioctl, never a host
 * crash.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <libdrm/drm.h>
#include <libdrm/amdgpu_drm.h>

#include "kemu_priv.h"

/* Largest INFO answer we bounce (the kernel copies min(return_size, answer)). */
#define KEMU_INFO_BOUNCE_MAX (1u << 20)

/* AMDGPU_INFO with its answer bounced through kernel memory. */
static long render_info(struct kemu_file *f, unsigned long request, void *kdata)
{
	struct drm_amdgpu_info *req = kdata;
	uint64_t uret = req->return_pointer;
	uint32_t size = req->return_size;
	if (!uret || !size)
		return kemu_drm_info_ioctl(f->dev->gpu, request, kdata); /* -EINVAL there */
	uint32_t bsize = size < KEMU_INFO_BOUNCE_MAX ? size : KEMU_INFO_BOUNCE_MAX;
	uint8_t *bounce = calloc(1, bsize);
	if (!bounce)
		return -ENOMEM;
	/* start from the user's bytes, so what the answer does not cover is
	 * written back unchanged */
	if (kemu_copy_from_user(bounce, uret, bsize)) {
		free(bounce);
		return -EFAULT;
	}
	req->return_pointer = (uintptr_t)bounce;
	req->return_size = bsize;
	long ret = kemu_drm_info_ioctl(f->dev->gpu, request, kdata);
	req->return_pointer = uret;
	req->return_size = size;
	if (!ret && kemu_copy_to_user(uret, bounce, bsize))
		ret = -EFAULT;
	free(bounce);
	return ret;
}

/* The bounce buffer below zero-extends every modelled struct. */
_Static_assert(sizeof(struct drm_amdgpu_gem_va) <= 256 && sizeof(struct drm_prime_handle) <= 256,
	       "GEM ioctl structs fit the stack buffer");

/* The GEM ioctls kemu_gem.c models, with the kernel's command direction
 * (drm_ioctls[] and amdgpu_ioctls_kms[]); false for others. */
static bool gem_ioctl_dir(unsigned nr, unsigned *dir)
{
	switch (nr) {
	case 0x09: /* GEM_CLOSE */
		*dir = _IOC_WRITE;
		return true;
	case 0x2d: /* PRIME_HANDLE_TO_FD */
	case 0x2e: /* PRIME_FD_TO_HANDLE */
		*dir = _IOC_READ | _IOC_WRITE;
		return true;
	case DRM_COMMAND_BASE + DRM_AMDGPU_GEM_MMAP:
		*dir = _IOC_READ | _IOC_WRITE;
		return true;
	case DRM_COMMAND_BASE + DRM_AMDGPU_GEM_VA:
		*dir = _IOC_WRITE;
		return true;
	default:
		return false;
	}
}

long kemu_render_ioctl(struct kemu_file *f, unsigned long request, void *uarg)
{
	struct kemu_machine *m = f->m;
	unsigned size = _IOC_SIZE(request), dir = _IOC_DIR(request);
	unsigned nr = _IOC_NR(request), kdir;
	bool gem = gem_ioctl_dir(nr, &kdir);
	if (gem)
		dir &= kdir; /* drm_ioctl: in and out as both commands say */
	uint8_t stack_buf[256];
	uint8_t *kdata = stack_buf;
	long ret;
	if (size > sizeof(stack_buf)) {
		kdata = calloc(1, size);
		if (!kdata)
			return -ENOMEM;
	}
	memset(kdata, 0, size < sizeof(stack_buf) ? sizeof(stack_buf) : size);
	if ((dir & _IOC_WRITE) && kemu_copy_from_user(kdata, (uintptr_t)uarg, size)) {
		ret = -EFAULT;
		goto out_free;
	}
	if (gem)
		ret = kemu_gem_ioctl(f, nr, kdata); /* kdata zero-extended past size */
	else if (nr == DRM_COMMAND_BASE + DRM_AMDGPU_INFO &&
		 size >= sizeof(struct drm_amdgpu_info))
		ret = render_info(f, request, kdata);
	else
		ret = kemu_drm_info_ioctl(f->dev->gpu, request, kdata);
	if (ret == -ENOSYS) {
		kemu_warn(m, "render node ioctl 0x%lx (nr 0x%x): not emulated: -EOPNOTSUPP",
			  request, (unsigned)_IOC_NR(request));
		ret = -EOPNOTSUPP;
	} else {
		kemu_dbg(m, "render node ioctl 0x%lx (nr 0x%x) -> %ld", request,
			 (unsigned)_IOC_NR(request),
			 ret);
	}
	if ((dir & _IOC_READ) && kemu_copy_to_user((uintptr_t)uarg, kdata, size))
		ret = -EFAULT;
	kemu_record_render(f, request, kdata, ret);
out_free:
	if (kdata != stack_buf)
		free(kdata);
	return ret;
}
