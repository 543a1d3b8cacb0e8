/*
 * The one way the thunk issues a /dev/kfd ioctl.  The kernel may interrupt a
 * KFD call (a signal during WAIT_EVENTS or a page-table update) and asks us
 * to retry with EINTR or EAGAIN, as libhsakmt's kmtIoctl does; the argument
 * struct is passed back unchanged, so in/out progress fields such as
 * MAP_MEMORY_TO_GPU's n_success make the retry resume where the kernel
 * stopped.  Every other failure comes back as -errno, and errno itself is
 * left holding the kernel's value for callers that look at it.
 */
#include "kfd/kfd_priv.h"

#include <errno.h>
#include <sys/ioctl.h>

#include "util/log.h"

int kfd_ioctl(int fd, unsigned long request, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, request, arg);
	} while (ret == -1 && (errno == EINTR || errno == EAGAIN));

	int err = ret == -1 ? -errno : 0;
	if (hl_log_enabled(HL_LOG_DEBUG)) {
		hl_log_write(HL_LOG_DEBUG, KFD_LOG, "ioctl %s (fd %d) = %s",
			     kfd_ioctl_name(request), fd, err ? hl_errno_name(err) : "0");
		errno = -err; /* the log may have touched errno */
	}
	return err;
}

/* Names by _IOC_NR, from the kernel's amdkfd_ioctls table (1.20) plus the
 * ROCm DKMS-only range. */
static const char *const ioctl_names[] = {
	[0x01] = "GET_VERSION",
	[0x02] = "CREATE_QUEUE",
	[0x03] = "DESTROY_QUEUE",
	[0x04] = "SET_MEMORY_POLICY",
	[0x05] = "GET_CLOCK_COUNTERS",
	[0x06] = "GET_PROCESS_APERTURES",
	[0x07] = "UPDATE_QUEUE",
	[0x08] = "CREATE_EVENT",
	[0x09] = "DESTROY_EVENT",
	[0x0A] = "SET_EVENT",
	[0x0B] = "RESET_EVENT",
	[0x0C] = "WAIT_EVENTS",
	[0x0D] = "DBG_REGISTER",
	[0x0E] = "DBG_UNREGISTER",
	[0x0F] = "DBG_ADDRESS_WATCH",
	[0x10] = "DBG_WAVE_CONTROL",
	[0x11] = "SET_SCRATCH_BACKING_VA",
	[0x12] = "GET_TILE_CONFIG",
	[0x13] = "SET_TRAP_HANDLER",
	[0x14] = "GET_PROCESS_APERTURES_NEW",
	[0x15] = "ACQUIRE_VM",
	[0x16] = "ALLOC_MEMORY_OF_GPU",
	[0x17] = "FREE_MEMORY_OF_GPU",
	[0x18] = "MAP_MEMORY_TO_GPU",
	[0x19] = "UNMAP_MEMORY_FROM_GPU",
	[0x1A] = "SET_CU_MASK",
	[0x1B] = "GET_QUEUE_WAVE_STATE",
	[0x1C] = "GET_DMABUF_INFO",
	[0x1D] = "IMPORT_DMABUF",
	[0x1E] = "ALLOC_QUEUE_GWS",
	[0x1F] = "SMI_EVENTS",
	[0x20] = "SVM",
	[0x21] = "SET_XNACK_MODE",
	[0x22] = "CRIU_OP",
	[0x23] = "AVAILABLE_MEMORY",
	[0x24] = "EXPORT_DMABUF",
	[0x25] = "RUNTIME_ENABLE",
	[0x26] = "DBG_TRAP",
	[0x27] = "CREATE_PROCESS",
};

const char *kfd_ioctl_name(unsigned long request)
{
	unsigned int nr = _IOC_NR(request);

	if (_IOC_TYPE(request) != KFD_IOCTL_TYPE)
		return "NOT_KFD";
	if (nr < sizeof(ioctl_names) / sizeof(ioctl_names[0]) && ioctl_names[nr])
		return ioctl_names[nr];
	if (nr >= KFD_IOCTL_NR_ROCM_FIRST && nr <= KFD_IOCTL_NR_ROCM_LAST)
		return "ROCM_DKMS";
	return "UNKNOWN";
}
