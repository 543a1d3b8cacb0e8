/*
 * PC sampling (hsa_ven_amd_pcs_*, ROCr 1.18's HSA_EXTENSION_AMD_PC_SAMPLING)
 * on a kernel without it.
 *
 * ROCr asks the driver through libhsakmt's hsaKmtPcSampling* calls, which
 * issue AMDKFD_IOC_PC_SAMPLE, an ioctl the upstream amdkfd UAPI hsalite
 * speaks (and kfdemu models) does not have.  ROCr's answers there, after
 * its checks (hsa_ven_amd_pc_sampling.cpp, pcs_runtime.cpp,
 * GpuAgent::PcSampling*):
 *  - every call but destroy/start/stop/flush: NOT_INITIALIZED, then
 *    INVALID_AGENT for a handle that is not a GPU agent;
 *  - iterate_configuration: HSA_STATUS_ERROR (the capability query fails);
 *  - create: INVALID_ARGUMENT for a NULL handle or callback, a method other
 *    than HOSTTRAP_V1 / STOCHASTIC_V1, an interval or buffer size of 0, or
 *    a buffer size that is not a multiple of two samples (2 x 64 bytes);
 *    else HSA_STATUS_ERROR (the kernel refuses the session);
 *  - destroy, start, stop, flush: no session exists, so INVALID_ARGUMENT.
 * Differences (docs/differences.md): hsalite refuses create_from_id with
 * HSA_STATUS_ERROR too (no kernel session id can exist; ROCr issues no
 * ioctl there and may build a session that never samples), a NULL
 * iterate callback is INVALID_ARGUMENT, and a failed create leaves nothing
 * behind (ROCr's keeps its per-method slot busy: its next create is
 * OUT_OF_RESOURCES).
 */
#include "hsa/hsa_ven_amd_pc_sampling.h"
#include "runtime/runtime.h"
#include "util/log.h"

/* sizeof(perf_sample_hosttrap_v1_t) == sizeof(perf_sample_snapshot_v1_t) */
#define PCS_SAMPLE_BYTES 64u
_Static_assert(sizeof(perf_sample_hosttrap_v1_t) == PCS_SAMPLE_BYTES, "host-trap sample");
_Static_assert(sizeof(perf_sample_snapshot_v1_t) == PCS_SAMPLE_BYTES, "snapshot sample");

static hsa_status_t pcs_gpu(hsa_agent_t agent)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	return hl_gpu_agent_lookup(rt, agent) ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_INVALID_AGENT;
}

static hsa_status_t no_pcs(const char *fn)
{
	hl_warn("api", "%s: the amdkfd UAPI has no PC sampling ioctl; returning "
		"HSA_STATUS_ERROR as ROCr does on such a kernel", fn);
	return HSA_STATUS_ERROR;
}

hsa_status_t hsa_ven_amd_pcs_iterate_configuration(
	hsa_agent_t agent, hsa_ven_amd_pcs_iterate_configuration_callback_t configuration_callback,
	void *callback_data)
{
	(void)callback_data;
	hsa_status_t st = pcs_gpu(agent);
	if (st != HSA_STATUS_SUCCESS)
		return st;
	if (!configuration_callback)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	return no_pcs(__func__);
}

/* PcsRuntime::PcSamplingSession's validity. */
static bool session_valid(hsa_ven_amd_pcs_method_kind_t method, size_t interval,
			  size_t buffer_size)
{
	if (method != HSA_VEN_AMD_PCS_METHOD_HOSTTRAP_V1 &&
	    method != HSA_VEN_AMD_PCS_METHOD_STOCHASTIC_V1)
		return false;
	return interval && buffer_size && buffer_size % (2 * PCS_SAMPLE_BYTES) == 0;
}

static hsa_status_t pcs_create(const char *fn, hsa_agent_t agent,
			       hsa_ven_amd_pcs_method_kind_t method, size_t interval,
			       size_t buffer_size, hsa_ven_amd_pcs_data_ready_callback_t cb,
			       hsa_ven_amd_pcs_t *handle)
{
	hsa_status_t st = pcs_gpu(agent);
	if (st != HSA_STATUS_SUCCESS)
		return st;
	if (!handle || !cb)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	if (!session_valid(method, interval, buffer_size))
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	return no_pcs(fn);
}

hsa_status_t hsa_ven_amd_pcs_create(hsa_agent_t agent, hsa_ven_amd_pcs_method_kind_t method,
				    hsa_ven_amd_pcs_units_t units, size_t interval, size_t latency,
				    size_t buffer_size,
				    hsa_ven_amd_pcs_data_ready_callback_t data_ready_callback,
				    void *client_callback_data, hsa_ven_amd_pcs_t *pc_sampling)
{
	(void)units;
	(void)latency;
	(void)client_callback_data;
	return pcs_create(__func__, agent, method, interval, buffer_size, data_ready_callback,
			  pc_sampling);
}

hsa_status_t hsa_ven_amd_pcs_create_from_id(uint32_t pcs_id, hsa_agent_t agent,
					    hsa_ven_amd_pcs_method_kind_t method,
					    hsa_ven_amd_pcs_units_t units, size_t interval,
					    size_t latency, size_t buffer_size,
					    hsa_ven_amd_pcs_data_ready_callback_t data_ready_callback,
					    void *client_callback_data,
					    hsa_ven_amd_pcs_t *pc_sampling)
{
	(void)pcs_id;
	(void)units;
	(void)latency;
	(void)client_callback_data;
	return pcs_create(__func__, agent, method, interval, buffer_size, data_ready_callback,
			  pc_sampling);
}

/* No session can exist: every handle is unknown (ROCr's map lookup). */
static hsa_status_t no_session(const char *fn, hsa_ven_amd_pcs_t s)
{
	hl_info("api", "%s: no PC sampling session %llu", fn, (unsigned long long)s.handle);
	return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

hsa_status_t hsa_ven_amd_pcs_destroy(hsa_ven_amd_pcs_t pc_sampling)
{
	return no_session(__func__, pc_sampling);
}

hsa_status_t hsa_ven_amd_pcs_start(hsa_ven_amd_pcs_t pc_sampling)
{
	return no_session(__func__, pc_sampling);
}

hsa_status_t hsa_ven_amd_pcs_stop(hsa_ven_amd_pcs_t pc_sampling)
{
	return no_session(__func__, pc_sampling);
}

hsa_status_t hsa_ven_amd_pcs_flush(hsa_ven_amd_pcs_t pc_sampling)
{
	return no_session(__func__, pc_sampling);
}
