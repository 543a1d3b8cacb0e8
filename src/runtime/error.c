/*
 * Causes to statuses, in one place.  Everything below the API edge returns
 * 0 or -errno and keeps the kernel's errno; the API functions hand it here.
 * Argument and handle validation returns its status directly: those are not
 * causes from below but the caller's mistakes, named by the HSA spec.
 */
#include <errno.h>

#include "runtime/runtime.h"
#include "runtime/runtime_priv.h"
#include "util/log.h"

hsa_status_t hl_status_from_errno(int err)
{
	if (err < 0)
		err = -err;
	switch (err) {
	case 0:
		return HSA_STATUS_SUCCESS;
	case EINVAL:
	case EFAULT:
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	case ENOMEM:
	case ENOSPC:
	case EMFILE:
	case ENFILE:
	case EAGAIN:
	case EBUSY:
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	case E2BIG:   /* larger than the pool can ever give */
	case EPERM:   /* the pool does not allow runtime allocation */
	case ENOENT:  /* no allocation at this address */
		return HSA_STATUS_ERROR_INVALID_ALLOCATION;
	case ENOEXEC: /* the loader: a malformed code object (reason logged) */
		return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
	case EXDEV:   /* the loader: a code object for another ISA, as ROCr */
		return HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS;
	case EOPNOTSUPP:
	case ENOSYS:
	case ENOTTY:
		return (hsa_status_t)HSA_STATUS_ERROR_NOT_SUPPORTED;
	default:
		return HSA_STATUS_ERROR;
	}
}

hsa_status_t hl_status_init_failure(int err)
{
	if (err < 0)
		err = -err;
	switch (err) {
	case EACCES:
	case EPERM:
		hl_error("runtime", "/dev/kfd: %s: add the user to the 'render' and 'video' groups",
			 hl_errno_name(err));
		break;
	case ENOENT:
	case ENODEV:
	case ENXIO:
		hl_error("runtime", "/dev/kfd: %s: the amdgpu driver is not loaded, or run under kfdemu",
			 hl_errno_name(err));
		break;
	default:
		hl_error("runtime", "hsa_init failed: %s", hl_errno_name(err));
		break;
	}
	/* ROCr maps every Load() failure to this status and clients (rocminfo,
	 * HIP) test for it; the log above carries the real cause. */
	return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
}
