/*
 * Stream performance monitor calls (ROCr 1.18): hsa_amd_spm_acquire,
 * _release and _set_dest_buffer.
 *
 * ROCr hands them to libhsakmt's hsaKmtSPMAcquire / Release /
 * SetDestBuffer, which issue AMDKFD_IOC_RLC_SPM (0x84), an ioctl only the
 * ROCm DKMS kernel has: the upstream amdkfd UAPI hsalite speaks (and
 * kfdemu models) ends at 0x24 and has no SPM.  There the ioctl fails and
 * ROCr answers HSA_STATUS_ERROR for every GPU, after its checks
 * (NOT_INITIALIZED; INVALID_AGENT for a handle that is not a GPU agent).
 * hsalite gives the same answers without issuing an ioctl the kernel does
 * not have.  Where ROCr writes through NULL out-pointers of
 * set_dest_buffer, hsalite answers INVALID_ARGUMENT (docs/differences.md).
 */
#include "runtime/runtime.h"
#include "util/log.h"

static hsa_status_t spm_gpu(hsa_agent_t agent)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	return hl_gpu_agent_lookup(rt, agent) ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_INVALID_AGENT;
}

static hsa_status_t no_spm(const char *fn)
{
	hl_warn("api", "%s: the amdkfd UAPI has no SPM ioctl (ROCm DKMS's RLC_SPM); returning "
		"HSA_STATUS_ERROR as ROCr does on such a kernel", fn);
	return HSA_STATUS_ERROR;
}

hsa_status_t hsa_amd_spm_acquire(hsa_agent_t preferred_agent)
{
	hsa_status_t st = spm_gpu(preferred_agent);
	return st != HSA_STATUS_SUCCESS ? st : no_spm(__func__);
}

hsa_status_t hsa_amd_spm_release(hsa_agent_t preferred_agent)
{
	hsa_status_t st = spm_gpu(preferred_agent);
	return st != HSA_STATUS_SUCCESS ? st : no_spm(__func__);
}

hsa_status_t hsa_amd_spm_set_dest_buffer(hsa_agent_t preferred_agent, size_t size_in_bytes,
					 uint32_t *timeout, uint32_t *size_copied, void *dest,
					 bool *is_data_loss)
{
	(void)size_in_bytes;
	(void)dest;
	hsa_status_t st = spm_gpu(preferred_agent);
	if (st != HSA_STATUS_SUCCESS)
		return st;
	if (!timeout || !size_copied || !is_data_loss)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	return no_spm(__func__);
}
