/*
 * The render node /dev/dri/renderD<minor> of an emulated GPU.  Its DRM
 * ioctls (version, AMDGPU_INFO queries, ...) are answered by the topology
 * (kemu_drm_info_ioctl, emu/topology) from the GPU's facts; this file does
 * the kernel's part around it, as drm_ioctl() does: the argument is copied
 * in and out by the size and direction in the request, with -EFAULT for a
 * bad pointer.  Buffer ioctls (GEM create/mmap/VA) come back as -ENOSYS
 * from the topology: kfdemu does not model graphics BOs, so they are logged
 * and fail with -EOPNOTSUPP.  Compute BOs are created through /dev/kfd and
 * mapped through this node by their fake offset (kemu_mmap.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kemu_priv.h"

long kemu_render_ioctl(struct kemu_file *f, unsigned long request, void *uarg)
{
	struct kemu_machine *m = f->m;
	unsigned size = _IOC_SIZE(request), dir = _IOC_DIR(request);
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
out_free:
	if (kdata != stack_buf)
		free(kdata);
	return ret;
}
