/*
 * hsa_amd_ais_file_write / hsa_amd_ais_file_read (AMD's interface 1.14,
 * "experimental"): direct file I/O into and out of device memory (AMD
 * Infinity Storage).  ROCr hands them to libhsakmt's hsaKmtAisReadWriteFile,
 * which resolves the buffer to its BO and issues the AIS ioctl of AMD's
 * DKMS amdkfd; a kernel whose device has no AIS answers -ENODEV and ROCr
 * returns HSA_STATUS_ERROR, leaving size_copied and status untouched.
 *
 * The amdkfd UAPI hsalite drives (the upstream kernel's, and kfdemu's model
 * of it: docs/kfd-uapi.md) has no AIS ioctl, so every device answers as
 * one without AIS does on ROCr: after ROCr's own checks (NOT_INITIALIZED;
 * INVALID_ARGUMENT for a NULL devicePtr or a zero size) and the thunk's
 * (a buffer that is not inside one allocation of the runtime, an fd that
 * is not open: HSA_STATUS_ERROR, as hsaKmtAisReadWriteFile's
 * INVALID_PARAMETER becomes), HSA_STATUS_ERROR with the reason in the log.
 * size_copied and status are never written.  docs/differences.md lists it.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>

#include "copy/copy_priv.h"
#include "util/log.h"

static hsa_status_t ais_io(const char *what, hsa_amd_ais_file_handle_t handle, void *devicePtr,
			   uint64_t size)
{
	if (!hl_runtime_get())
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!devicePtr || !size) {
		hl_error("copy", "ais_file_%s: %s", what, !devicePtr ? "devicePtr is NULL"
								      : "size is 0");
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	}
	hsa_amd_pointer_info_t info;
	memset(&info, 0, sizeof(info));
	info.size = sizeof(info);
	uintptr_t p = (uintptr_t)devicePtr, base;
	if (hsa_amd_pointer_info(devicePtr, &info, NULL, NULL, NULL) != HSA_STATUS_SUCCESS ||
	    info.type == HSA_EXT_POINTER_TYPE_UNKNOWN ||
	    (base = (uintptr_t)info.agentBaseAddress, p - base > info.sizeInBytes) ||
	    size > info.sizeInBytes - (p - base)) {
		hl_error("copy", "ais_file_%s: [%p, +%llu) is not inside one allocation", what,
			 devicePtr, (unsigned long long)size);
		return HSA_STATUS_ERROR;
	}
	if (fcntl(handle.fd, F_GETFL) < 0) {
		hl_error("copy", "ais_file_%s: fd %d: %s", what, handle.fd, strerror(errno));
		return HSA_STATUS_ERROR;
	}
	hl_error("copy", "ais_file_%s: the amdkfd UAPI has no AIS ioctl (ENODEV: no device "
		 "with AMD Infinity Storage)", what);
	return HSA_STATUS_ERROR;
}

hsa_status_t hsa_amd_ais_file_write(hsa_amd_ais_file_handle_t handle, void *devicePtr,
				    uint64_t size, int64_t file_offset, uint64_t *size_copied,
				    int32_t *status)
{
	(void)file_offset; /* not reached: no transfer is possible */
	(void)size_copied;
	(void)status;
	return ais_io("write", handle, devicePtr, size);
}

hsa_status_t hsa_amd_ais_file_read(hsa_amd_ais_file_handle_t handle, void *devicePtr,
				   uint64_t size, int64_t file_offset, uint64_t *size_copied,
				   int32_t *status)
{
	(void)file_offset;
	(void)size_copied;
	(void)status;
	return ais_io("read", handle, devicePtr, size);
}
