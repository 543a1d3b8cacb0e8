/*
 * hsa_agent_get_info: every core HSA_AGENT_INFO_* attribute and the
 * HSA_AMD_AGENT_INFO_* ones, computed from the KFD node properties the way
 * ROCr's GpuAgent::GetInfo / CpuAgent::GetInfo compute them from libhsakmt's
 * HsaNodeProperties (which libhsakmt derives from the same sysfs keys):
 *
 *   compute units     simd_count / simd_per_cu
 *   shader engines    array_count / simd_arrays_per_engine
 *   arrays per engine simd_arrays_per_engine
 *   waves per CU      simd_per_cu * max_waves_per_simd
 *   watch points      1 << capability[11:8]
 *   ASIC revision     capability[25:22]
 *   ucode versions    fw_version & 0x3FF, sdma_fw_version & 0x3FF
 *
 * Unknown attributes give INVALID_ARGUMENT, as in ROCr.
 *
 * hsa_amd_coherency_get/set_type live here too: the agent's default
 * coherency for memory it allocates.  On gfx9+ the MTYPE is chosen per
 * allocation (fine- or coarse-grained pool), so as in ROCr outside Kaveri
 * the setting is recorded and reported but changes no page-table policy.
 */
#include <string.h>

#include "runtime/runtime.h"
#include "runtime/runtime_priv.h"
#include "util/barrier.h"

static void put_string(void *value, const char *s, size_t size)
{
	/* memcpy, not strncpy: GCC's -O2 stringop-truncation check rejects the
	 * deliberate truncation to size - 1. */
	memset(value, 0, size);
	memcpy(value, s, strnlen(s, size - 1));
}

/* Integer answers are stored with memcpy: callers (rocminfo among them)
 * pass fields of packed or hand-laid structs, so `value` need not be
 * aligned for the type; ROCr's plain stores only work because x86 forgives
 * them. */
static void put_u16(void *value, uint16_t v)
{
	memcpy(value, &v, sizeof(v));
}

static void put_u32(void *value, uint32_t v)
{
	memcpy(value, &v, sizeof(v));
}

static void put_u64(void *value, uint64_t v)
{
	memcpy(value, &v, sizeof(v));
}

static hsa_status_t gpu_only_info(struct hl_runtime *rt, const struct hl_agent *a, int attribute,
				  void *value)
{
	const struct kfd_node_properties *np = &a->node->props;
	switch (attribute) {
	case HL_AMD_AGENT_INFO_MEMORY_AVAIL: {
		uint64_t bytes = 0;
		int err = kfd_available_memory(rt->proc, a->gpu->gpu_id, &bytes);
		if (err)
			return hl_status_from_errno(err);
		put_u64(value, bytes);
		return HSA_STATUS_SUCCESS;
	}
	case HL_AMD_AGENT_INFO_NUM_XCC:
		put_u32(value, np->num_xcc ? np->num_xcc : 1);
		return HSA_STATUS_SUCCESS;
	case HL_AMD_AGENT_INFO_DRIVER_UID:
		put_u32(value, a->gpu->gpu_id);
		return HSA_STATUS_SUCCESS;
	default:
		/* scratch limits, clock counters (scratch_limit.c) */
		return hl_agent_info_scratch_clock(rt, a, attribute, value);
	}
}

hsa_status_t hsa_agent_get_info(hsa_agent_t agent, hsa_agent_info_t attribute, void *value)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!value)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	const struct hl_agent *a = hl_agent_lookup(rt, agent);
	if (!a)
		return HSA_STATUS_ERROR_INVALID_AGENT;

	const bool gpu = a->type == HSA_DEVICE_TYPE_GPU;
	const struct kfd_node_properties *np = &a->node->props;
	const int attr = (int)attribute;

	/* Extension attributes (the image extension's 0x3000..) are answered
	 * by the extension's owner (extension.c). */
	bool answered;
	hsa_status_t ext_st = hl_extension_agent_info(rt, a, (uint32_t)attr, value, &answered);
	if (answered)
		return ext_st;

	switch (attr) {
	case HSA_AGENT_INFO_NAME:
		put_string(value, a->name, 64);
		break;
	case HSA_AGENT_INFO_VENDOR_NAME:
		put_string(value, gpu ? "AMD" : "CPU", 64);
		break;
	case HSA_AGENT_INFO_FEATURE:
		/* The CP runs kernel-dispatch packets only; CPU agents run none. */
		*(hsa_agent_feature_t *)value = gpu ? HSA_AGENT_FEATURE_KERNEL_DISPATCH : 0;
		break;
	case HSA_AGENT_INFO_MACHINE_MODEL:
		*(hsa_machine_model_t *)value = HSA_MACHINE_MODEL_LARGE;
		break;
	case HSA_AGENT_INFO_PROFILE:
		*(hsa_profile_t *)value = a->profile;
		break;
	case HSA_AGENT_INFO_DEFAULT_FLOAT_ROUNDING_MODE:
	case HSA_AGENT_INFO_BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES:
		*(hsa_default_float_rounding_mode_t *)value = HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR;
		break;
	case HSA_AGENT_INFO_FAST_F16_OPERATION:
		*(bool *)value = gpu && a->gfx_major >= 8;
		break;
	case HSA_AGENT_INFO_WAVEFRONT_SIZE:
		put_u32(value, gpu ? np->wave_front_size : 0);
		break;
	case HSA_AGENT_INFO_WORKGROUP_MAX_DIM: {
		const uint16_t dim[3] = { 1024, 1024, 1024 };
		if (gpu)
			memcpy(value, dim, sizeof(dim));
		else
			memset(value, 0, sizeof(dim));
		break;
	}
	case HSA_AGENT_INFO_WORKGROUP_MAX_SIZE:
		put_u32(value, gpu ? 1024 : 0);
		break;
	case HSA_AGENT_INFO_GRID_MAX_DIM: {
		const hsa_dim3_t dim = { UINT32_MAX, UINT32_MAX, UINT32_MAX };
		if (gpu)
			memcpy(value, &dim, sizeof(dim));
		else
			memset(value, 0, sizeof(dim));
		break;
	}
	case HSA_AGENT_INFO_GRID_MAX_SIZE:
		put_u32(value, gpu ? UINT32_MAX : 0);
		break;
	case HSA_AGENT_INFO_FBARRIER_MAX_SIZE:
		put_u32(value, gpu ? 32 : 0);
		break;
	case HSA_AGENT_INFO_QUEUES_MAX:
		put_u32(value, gpu ? rt->env.max_queues : 0);
		break;
	case HSA_AGENT_INFO_QUEUE_MIN_SIZE:
		put_u32(value, gpu ? HL_QUEUE_MIN_PACKETS : 0);
		break;
	case HSA_AGENT_INFO_QUEUE_MAX_SIZE:
		put_u32(value, gpu ? HL_QUEUE_MAX_PACKETS : 0);
		break;
	case HSA_AGENT_INFO_QUEUE_TYPE:
		*(hsa_queue_type32_t *)value = HSA_QUEUE_TYPE_MULTI;
		break;
	case HSA_AGENT_INFO_NODE:
		put_u32(value, a->node_id);
		break;
	case HSA_AGENT_INFO_DEVICE:
		*(hsa_device_type_t *)value = a->type;
		break;
	case HSA_AGENT_INFO_CACHE_SIZE:
		memcpy(value, a->cache_size, sizeof(a->cache_size));
		break;
	case HSA_AGENT_INFO_ISA:
		*(hsa_isa_t *)value = a->isa;
		break;
	case HSA_AGENT_INFO_EXTENSIONS:
		/* ROCr sets IMAGES on GPU agents; we on those with images
		 * (src/image's agent_supported). */
		hl_extension_mask(rt, a, value);
		break;
	case HSA_AGENT_INFO_VERSION_MAJOR:
	case HSA_AGENT_INFO_VERSION_MINOR:
		put_u16(value, 1);
		break;

	case HSA_AMD_AGENT_INFO_CHIP_ID:
		put_u32(value, np->device_id);
		break;
	case HSA_AMD_AGENT_INFO_CACHELINE_SIZE:
		put_u32(value, a->cacheline_size);
		break;
	case HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT:
	case HSA_AMD_AGENT_INFO_COOPERATIVE_COMPUTE_UNIT_COUNT:
		if (attr == HSA_AMD_AGENT_INFO_COOPERATIVE_COMPUTE_UNIT_COUNT && !gpu)
			return HSA_STATUS_ERROR_INVALID_ARGUMENT;
		put_u32(value, gpu ? (np->simd_per_cu ? np->simd_count / np->simd_per_cu : 0)
					 : np->cpu_cores_count);
		break;
	case HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY:
		put_u32(value, gpu ? np->max_engine_clk_fcompute : np->max_engine_clk_ccompute);
		break;
	case HSA_AMD_AGENT_INFO_DRIVER_NODE_ID:
		put_u32(value, a->node_id);
		break;
	case HSA_AMD_AGENT_INFO_MAX_ADDRESS_WATCH_POINTS:
		put_u32(value, 1u << ((np->capability >> 8) & 0xF));
		break;
	case HSA_AMD_AGENT_INFO_BDFID:
		put_u32(value, np->location_id);
		break;
	case HSA_AMD_AGENT_INFO_MEMORY_WIDTH:
		put_u32(value, a->mem_width);
		break;
	case HSA_AMD_AGENT_INFO_MEMORY_MAX_FREQUENCY:
		put_u32(value, a->mem_clk_max);
		break;
	case HSA_AMD_AGENT_INFO_PRODUCT_NAME:
		put_string(value, a->product_name, 64);
		break;
	case HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU:
		put_u32(value, np->simd_per_cu * np->max_waves_per_simd);
		break;
	case HSA_AMD_AGENT_INFO_NUM_SIMDS_PER_CU:
		put_u32(value, np->simd_per_cu);
		break;
	case HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES:
		put_u32(value, np->simd_arrays_per_engine ?
				     np->array_count / np->simd_arrays_per_engine : 0);
		break;
	case HSA_AMD_AGENT_INFO_NUM_SHADER_ARRAYS_PER_SE:
		put_u32(value, np->simd_arrays_per_engine);
		break;
	case HSA_AMD_AGENT_INFO_HDP_FLUSH: {
		/* The HDP flush registers of the MMIO-remap page mapped at open
		 * (kfd_gpu.mmio_remap): HDP_MEM_FLUSH_CNTL at word 0,
		 * HDP_REG_FLUSH_CNTL at word 1, as ROCr takes them from the
		 * MMIO_REMAP heap; both NULL without the page, as ROCr. */
		hsa_amd_hdp_flush_t hdp = { 0 };
		if (gpu && a->gpu && a->gpu->mmio_remap) {
			hdp.HDP_MEM_FLUSH_CNTL = a->gpu->mmio_remap;
			hdp.HDP_REG_FLUSH_CNTL = a->gpu->mmio_remap + 1;
		}
		memcpy(value, &hdp, sizeof(hdp));
		break;
	}
	case HSA_AMD_AGENT_INFO_DOMAIN:
		put_u32(value, np->domain);
		break;
	case HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES:
		if (!gpu)
			return HSA_STATUS_ERROR_INVALID_ARGUMENT;
		/* GWS in the topology means the kernel can allocate it (KFD
		 * reports num_gws only with HWS scheduling); a refusal seen
		 * at a cooperative queue's creation withdraws it. */
		*(bool *)value = np->num_gws != 0 &&
				 !atomic_load_explicit(&a->gws_refused, memory_order_relaxed);
		break;
	case HSA_AMD_AGENT_INFO_UUID:
		put_string(value, a->uuid, strlen(a->uuid) + 1);
		break;
	case HSA_AMD_AGENT_INFO_ASIC_REVISION:
		put_u32(value, (np->capability & KFD_CAP_ASIC_REVISION_MASK) >>
				     KFD_CAP_ASIC_REVISION_SHIFT);
		break;
	case HSA_AMD_AGENT_INFO_SVM_DIRECT_HOST_ACCESS:
		/* Capability bit 28: coherent host access (CPUs: always). */
		*(bool *)value = gpu ? (np->capability & 0x10000000u) != 0 : true;
		break;
	case HL_AMD_AGENT_INFO_TIMESTAMP_FREQUENCY:
		put_u64(value, a->timestamp_freq);
		break;
	case HL_AMD_AGENT_INFO_ASIC_FAMILY_ID:
		put_u32(value, a->family_id);
		break;
	case HL_AMD_AGENT_INFO_UCODE_VERSION:
		put_u32(value, gpu ? (np->fw_version & 0x3FF) : 0);
		break;
	case HL_AMD_AGENT_INFO_SDMA_UCODE_VERSION:
		put_u32(value, gpu ? (np->sdma_fw_version & 0x3FF) : 0);
		break;
	case HL_AMD_AGENT_INFO_NUM_SDMA_ENG:
		put_u32(value, np->num_sdma_engines);
		break;
	case HL_AMD_AGENT_INFO_NUM_SDMA_XGMI_ENG:
		put_u32(value, np->num_sdma_xgmi_engines);
		break;
	case HL_AMD_AGENT_INFO_IOMMU_SUPPORT:
		/* Capability bit 1: ATS (the IOMMUv2 path). */
		put_u32(value, gpu && (np->capability & 0x2u) ? HL_IOMMU_SUPPORT_V2
								    : HL_IOMMU_SUPPORT_NONE);
		break;
	case HL_AMD_AGENT_INFO_NEAREST_CPU: {
		hsa_agent_t cpu = { 0 };
		if (gpu && a->nearest_cpu)
			cpu = hl_agent_handle(a->nearest_cpu);
		*(hsa_agent_t *)value = cpu;
		break;
	}
	case HL_AMD_AGENT_INFO_MEMORY_PROPERTIES:
		/* Bit 0: HSA_AMD_MEMORY_PROPERTY_AGENT_IS_APU. */
		memset(value, 0, 8);
		if (gpu && np->cpu_cores_count > 0)
			((uint8_t *)value)[0] |= 1;
		break;
	case HL_AMD_AGENT_INFO_AQL_EXTENSIONS:
		memset(value, 0, 8);
		break;
	default:
		if (gpu)
			return gpu_only_info(rt, a, attr, value);
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	}
	return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_coherency_get_type(hsa_agent_t agent, hsa_amd_coherency_type_t *type)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!type)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	struct hl_agent *a = hl_agent_lookup(rt, agent);
	if (!a || a->type != HSA_DEVICE_TYPE_GPU)
		return HSA_STATUS_ERROR_INVALID_AGENT;
	*type = (hsa_amd_coherency_type_t)hl_load_relaxed(&a->coherency);
	return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_coherency_set_type(hsa_agent_t agent, hsa_amd_coherency_type_t type)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (type != HSA_AMD_COHERENCY_TYPE_COHERENT && type != HSA_AMD_COHERENCY_TYPE_NONCOHERENT)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	struct hl_agent *a = hl_agent_lookup(rt, agent);
	if (!a || a->type != HSA_DEVICE_TYPE_GPU)
		return HSA_STATUS_ERROR_INVALID_AGENT;
	/* A setting, not an ordering point: relaxed (nothing is published). */
	hl_store_relaxed(&a->coherency, (int)type);
	return HSA_STATUS_SUCCESS;
}
