/*
 * hsa_system_get_info: the runtime-wide attributes.  Timestamps are
 * CLOCK_BOOTTIME nanoseconds, the clock KFD's GET_CLOCK_COUNTERS reports as
 * system_clock_counter, so profiling timestamps converted from GPU ticks
 * land in the same domain; the frequency is therefore 1 GHz, as rocminfo
 * shows for ROCr ("System Timestamp Freq.: 1000.000000MHz").
 */
#include <string.h>
#include <time.h>

#include "runtime/runtime.h"
#include "runtime/runtime_priv.h"

uint64_t hl_system_timestamp(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The SVM answers read only the agents and KFD's capabilities, so they are
 * the runtime's (src/memory/svm.c sets and gets the attributes themselves). */
bool hl_svm_supported(const struct hl_runtime *rt)
{
	if (!kfd_svm_api(rt->proc))
		return false;
	for (uint32_t i = 0; i < rt->n_agents; i++) {
		const struct hl_agent *a = &rt->agents[i];
		if (a->gpu && !(a->node->props.capability & KFD_CAP_SVMAPI_SUPPORTED))
			return false;
	}
	return true;
}

bool hl_svm_accessible_by_default(const struct hl_runtime *rt)
{
	for (uint32_t i = 0; i < rt->n_agents; i++) {
		const struct hl_agent *a = &rt->agents[i];
		if (a->gpu && !(rt->xnack_enabled && hl_isa_supports_xnack(a->isa)))
			return false;
	}
	return true;
}

/* hsa_amd_vmem_handle_create refuses every system pool (src/memory/vmem.c,
 * as ROCr 1.18's driver does: its memory-only allocations are VRAM), so no
 * host memory comes out of the vmem API, dma-buf or not.  The rt argument
 * is where an answer that depends on the driver would look;
 * test/surface/test_attrs.c holds this answer to handle_create's. */
bool hl_host_alloc_dmabuf(const struct hl_runtime *rt)
{
	(void)rt;
	return false;
}

hsa_status_t hsa_system_get_info(hsa_system_info_t attribute, void *value)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!value)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;

	switch ((int)attribute) {
	case HSA_SYSTEM_INFO_VERSION_MAJOR:
	case HSA_SYSTEM_INFO_VERSION_MINOR:
		*(uint16_t *)value = 1; /* HSA 1.1 */
		break;
	case HSA_SYSTEM_INFO_TIMESTAMP:
		*(uint64_t *)value = hl_system_timestamp();
		break;
	case HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY:
		*(uint64_t *)value = HL_SYSTEM_TIMESTAMP_FREQUENCY;
		break;
	case HSA_SYSTEM_INFO_SIGNAL_MAX_WAIT:
		*(uint64_t *)value = UINT64_MAX;
		break;
	case HSA_SYSTEM_INFO_ENDIANNESS:
		*(hsa_endianness_t *)value = HSA_ENDIANNESS_LITTLE;
		break;
	case HSA_SYSTEM_INFO_MACHINE_MODEL:
		*(hsa_machine_model_t *)value = HSA_MACHINE_MODEL_LARGE;
		break;
	case HSA_SYSTEM_INFO_EXTENSIONS:
		hl_extension_mask(rt, NULL, value);
		break;
	case HSA_AMD_SYSTEM_INFO_BUILD_VERSION:
		*(const char **)value = "hsalite 0.1.0";
		break;
	case HSA_AMD_SYSTEM_INFO_SVM_SUPPORTED:
		*(bool *)value = hl_svm_supported(rt);
		break;
	case HSA_AMD_SYSTEM_INFO_SVM_ACCESSIBLE_BY_DEFAULT:
		*(bool *)value = hl_svm_accessible_by_default(rt);
		break;
	/* We implement no mwaitx waits: report them absent so clients take
	 * their fallbacks instead of calling in. */
	case HL_AMD_SYSTEM_INFO_MWAITX_ENABLED:
		*(bool *)value = false;
		break;
	/* hsa_amd_portable_export_dmabuf stands on EXPORT_DMABUF: ROCr 1.18
	 * answers from the KFD version alone (1.12), GPU or not, and so do we. */
	case HL_AMD_SYSTEM_INFO_DMABUF_SUPPORTED:
		*(bool *)value = rt->proc && kfd_dmabuf_api(rt->proc);
		break;
	/* The virtual memory API (src/memory/vmem.c) stands on EXPORT_DMABUF
	 * and needs a GPU; ROCr 1.18 asks for KFD 1.15 (its GEM_VA path). */
	case HL_AMD_SYSTEM_INFO_VIRTUAL_MEM_API_SUPPORTED:
		*(bool *)value = rt->n_gpus && rt->proc && kfd_dmabuf_api(rt->proc);
		break;
	case HL_AMD_SYSTEM_INFO_XNACK_ENABLED:
		*(bool *)value = rt->xnack_enabled;
		break;
	case HL_AMD_SYSTEM_INFO_EXT_VERSION_MAJOR:
		*(uint16_t *)value = HSA_AMD_INTERFACE_VERSION_MAJOR;
		break;
	case HL_AMD_SYSTEM_INFO_EXT_VERSION_MINOR:
		*(uint16_t *)value = HSA_AMD_INTERFACE_VERSION_MINOR;
		break;
	/* hsa_amd_vmem_export_fabric_handle always fails: the amdkfd UAPI has
	 * no memory fabric (src/memory/vmem.c); import only records a name. */
	case HSA_AMD_SYSTEM_INFO_FABRIC_HANDLES_SUPPORTED:
		*(bool *)value = false;
		break;
	case HSA_AMD_SYSTEM_INFO_HOST_ALLOC_DMA_BUF_SUPPORTED:
		*(bool *)value = hl_host_alloc_dmabuf(rt);
		break;
	default:
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	}
	return HSA_STATUS_SUCCESS;
}
