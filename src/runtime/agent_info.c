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
 * Unknown attributes give INVALID_ARGUMENT, as in ROCr.  Which agent
 * answers what, and how many bytes each answer writes, is ROCr 1.18's
 * (test/surface/test_attrs.c compares them) up to CLOCK_COUNTERS (0xA118).
 * The attributes of AMD's later headers (0xA119-0xA124, interface 1.23 and
 * 1.28), which ROCr 1.18 refuses and no stored ROCr source answers, follow
 * the header's contract with what gfx9 under amdkfd has: AQL runs natively
 * on the CP (no PM4 emulation), no expert scheduling mode, no clusters but
 * the trivial one of a single work-group, no L2 data prefetch, and the
 * grid limits counted in work-groups of one work-item.  Up to 0xA122 only
 * GPU agents answer: a CPU refuses them as ROCr 1.18's CPU agent refuses
 * the GPU-only ideas, and as the one AMD-written answer table seen does (a
 * Rust HSA frontend over "rocddi", its cpu_rejects_amd_agent_info, whose
 * GPU cluster answers are these too).  0xA123 and 0xA124 every agent
 * answers, a CPU with 0 and false.  LUID is Windows' (the header's
 * hsa_luid_t is "valid only on Windows"): both halves 0.  CUID stays
 * INVALID_ARGUMENT: it is not the driver's but AMD's amdcuid registry's
 * (records a root daemon writes, HMAC-derived), which hsalite does not
 * read (docs/differences.md).
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

/* What an answer is computed from: the runtime, the agent and its KFD
 * node properties. */
struct agent_q {
	struct hl_runtime *rt;
	const struct hl_agent *a;
	const struct kfd_node_properties *np;
	bool gpu;
};

static void put_string(void *value, const char *s, size_t size)
{
	/* memcpy, not strncpy: GCC's -O2 stringop-truncation check rejects the
	 * deliberate truncation to size - 1. */
	memset(value, 0, size);
	memcpy(value, s, strnlen(s, size - 1));
}

/* The getters (the tables below; info.c copies their answers out with
 * memcpy: callers such as rocminfo pass fields of packed or hand-laid
 * structs, so value need not be aligned for the type).  Most answers are
 * one expression of q; these macros make a getter of one (HL_INFO_GETTER,
 * runtime.h). */
#define AGENT_ANSWER(fn, type, expr) HL_INFO_GETTER(fn, struct agent_q, type, expr)
#define AGENT_U32(fn, expr) AGENT_ANSWER(fn, uint32_t, expr)
#define AGENT_BOOL(fn, expr) AGENT_ANSWER(fn, bool, expr)
#define AGENT_NAME(fn, expr)                                      \
	static hsa_status_t fn(const void *o, void *out)          \
	{                                                         \
		const struct agent_q *q = o;                      \
		put_string(out, (expr), 64);                      \
		return HSA_STATUS_SUCCESS;                        \
	}

/* NAME and VENDOR_NAME: ROCr clears 63 bytes of a GPU's answer (64 of a
 * CPU's) and copies the string in, so the 64th byte of a GPU's caller's
 * buffer is left as it was (5.2.3 and 1.18 alike): written to the caller's
 * value, the table's size 0. */
#define AGENT_NAME_ROCR(fn, expr)                                 \
	static hsa_status_t fn(const void *o, void *value)        \
	{                                                         \
		const struct agent_q *q = o;                      \
		put_string(value, (expr), q->gpu ? 63 : 64);      \
		return HSA_STATUS_SUCCESS;                        \
	}

AGENT_NAME_ROCR(agent_name, q->a->name)
AGENT_NAME_ROCR(agent_vendor, q->gpu ? "AMD" : "CPU")
AGENT_NAME(agent_product_name, q->a->product_name)
/* The CP runs kernel-dispatch packets only; CPU agents run none. */
AGENT_ANSWER(agent_feature, hsa_agent_feature_t,
	     q->gpu ? HSA_AGENT_FEATURE_KERNEL_DISPATCH : (hsa_agent_feature_t)0)
AGENT_ANSWER(agent_machine_model, hsa_machine_model_t, HSA_MACHINE_MODEL_LARGE)
AGENT_ANSWER(agent_profile, hsa_profile_t, q->a->profile)
AGENT_ANSWER(agent_rounding, hsa_default_float_rounding_mode_t,
	     HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR)
AGENT_BOOL(agent_fast_f16, q->gpu && q->a->gfx_major >= 8)
AGENT_U32(agent_wavefront_size, q->gpu ? q->np->wave_front_size : 0)
AGENT_U32(agent_workgroup_size, q->gpu ? 1024 : 0)
AGENT_U32(agent_grid_size, q->gpu ? UINT32_MAX : 0)
AGENT_U32(agent_fbarrier, q->gpu ? 32 : 0)
AGENT_U32(agent_queues_max, q->gpu ? q->rt->env.max_queues : 0)
AGENT_U32(agent_queue_min, q->gpu ? HL_QUEUE_MIN_PACKETS : 0)
AGENT_U32(agent_queue_max, q->gpu ? HL_QUEUE_MAX_PACKETS : 0)
AGENT_ANSWER(agent_queue_type, hsa_queue_type32_t, HSA_QUEUE_TYPE_MULTI)
AGENT_U32(agent_node, q->a->node_id)
AGENT_ANSWER(agent_device, hsa_device_type_t, q->a->type)
AGENT_ANSWER(agent_isa, hsa_isa_t, q->a->isa)
AGENT_ANSWER(agent_version, uint16_t, 1)
AGENT_U32(agent_chip_id, q->np->device_id)
AGENT_U32(agent_cacheline, q->a->cacheline_size)
AGENT_U32(agent_max_clock,
	  q->gpu ? q->np->max_engine_clk_fcompute : q->np->max_engine_clk_ccompute)
AGENT_U32(agent_watch_points, 1u << ((q->np->capability >> 8) & 0xF))
AGENT_U32(agent_bdfid, q->np->location_id)
AGENT_U32(agent_memory_width, q->a->mem_width)
AGENT_U32(agent_memory_clock, q->a->mem_clk_max)
AGENT_U32(agent_waves_per_cu, q->np->simd_per_cu * q->np->max_waves_per_simd)
AGENT_U32(agent_simds_per_cu, q->np->simd_per_cu)
AGENT_U32(agent_shader_engines, q->np->simd_arrays_per_engine
					? q->np->array_count / q->np->simd_arrays_per_engine
					: 0)
AGENT_U32(agent_arrays_per_se, q->np->simd_arrays_per_engine)
AGENT_U32(agent_domain, q->np->domain)
AGENT_U32(agent_asic_revision,
	  (q->np->capability & KFD_CAP_ASIC_REVISION_MASK) >> KFD_CAP_ASIC_REVISION_SHIFT)
/* Capability bit 28: coherent host access (CPUs: always). */
AGENT_BOOL(agent_svm_direct_host, q->gpu ? (q->np->capability & 0x10000000u) != 0 : true)
AGENT_ANSWER(agent_timestamp_freq, uint64_t, q->a->timestamp_freq)
AGENT_U32(agent_family_id, q->a->family_id)
AGENT_U32(agent_ucode, q->gpu ? (q->np->fw_version & 0x3FF) : 0)
AGENT_U32(agent_sdma_ucode, q->gpu ? (q->np->sdma_fw_version & 0x3FF) : 0)
AGENT_U32(agent_sdma_engines, q->np->num_sdma_engines)
AGENT_U32(agent_sdma_xgmi_engines, q->np->num_sdma_xgmi_engines)
/* Capability bit 1: ATS (the IOMMUv2 path). */
AGENT_U32(agent_iommu, q->gpu && (q->np->capability & 0x2u) ? HL_IOMMU_SUPPORT_V2
							       : HL_IOMMU_SUPPORT_NONE)
AGENT_ANSWER(agent_nearest_cpu, hsa_agent_t,
	     q->gpu && q->a->nearest_cpu ? hl_agent_handle(q->a->nearest_cpu)
					 : (hsa_agent_t){ 0 })
AGENT_ANSWER(agent_aql_extensions, uint64_t, 0)
/* Bit 0 of 8 bytes: HSA_AMD_MEMORY_PROPERTY_AGENT_IS_APU. */
AGENT_ANSWER(agent_memory_properties, uint64_t, q->gpu && q->np->cpu_cores_count > 0 ? 1 : 0)
AGENT_U32(agent_num_xcc, !q->gpu ? 0 : q->np->num_xcc ? q->np->num_xcc : 1)
AGENT_U32(agent_driver_uid, q->gpu ? q->a->gpu->gpu_id : 0)

/* 0xA119-0xA124 (GPU agents only up to 0xA122, as ROCr 1.18's CPU agent
 * refuses the GPU-only ideas).  gfx9's CP runs AQL packets itself; expert
 * scheduling is a gfx1250 compiler mode; no gfx9 dispatch carries L2
 * prefetch regions.  gfx9 has no work-group clusters, so a dispatch is
 * clustered only trivially, a cluster being one work-group: per dimension
 * as many clusters as work-groups, one work-group per cluster.  A plain
 * dispatch's work-groups are the grid limits (GRID_MAX_DIM) at one
 * work-item each; "across all dimensions" is their product.
 * HOST_ALLOC_DMABUF: hsa_amd_vmem_handle_create refuses a system pool
 * (src/memory/vmem.c), so no agent can allocate host memory to export as a
 * dma-buf, and no GPU is offered any (hl_host_alloc_dmabuf). */
static hsa_amd_dim3_t kernel_wg_max_dim(void)
{
	const hsa_dim3_t grid = HL_GRID_MAX_DIM;
	return (hsa_amd_dim3_t){ grid.x, grid.y, grid.z };
}

static uint64_t kernel_wg_max_size(void)
{
	const hsa_amd_dim3_t d = kernel_wg_max_dim();
	return d.x * d.y * d.z; /* below 2^63: 31 + 16 + 16 bits */
}

AGENT_BOOL(agent_pm4_emulation, false)
AGENT_ANSWER(agent_luid, hsa_luid_t, ((hsa_luid_t){ 0, 0 }))
AGENT_BOOL(agent_expert_sched, false)
AGENT_ANSWER(agent_kernel_wg_max_dim, hsa_amd_dim3_t, kernel_wg_max_dim())
AGENT_ANSWER(agent_kernel_wg_max_size, uint64_t, kernel_wg_max_size())
AGENT_ANSWER(agent_cluster_max_dim, hsa_amd_dim3_t, ((hsa_amd_dim3_t){ 1, 1, 1 }))
AGENT_ANSWER(agent_cluster_max_size, uint64_t, 1)
AGENT_U32(agent_prefetch_regions, 0)
AGENT_BOOL(agent_host_alloc_dmabuf, hl_host_alloc_dmabuf(q->rt))

static hsa_status_t agent_workgroup_dim(const void *o, void *out)
{
	const uint16_t dim[3] = { 1024, 1024, 1024 };
	if (((const struct agent_q *)o)->gpu)
		memcpy(out, dim, sizeof(dim));
	return HSA_STATUS_SUCCESS; /* zeros on a CPU */
}

/* ROCr 1.18's grid limits per dimension (5.2.3 said UINT32_MAX for all
 * three; HIP sets its maxGridSize without asking). */
static hsa_status_t agent_grid_dim(const void *o, void *out)
{
	const hsa_dim3_t dim = HL_GRID_MAX_DIM;
	if (((const struct agent_q *)o)->gpu)
		memcpy(out, &dim, sizeof(dim));
	return HSA_STATUS_SUCCESS;
}

static hsa_status_t agent_cache_size(const void *o, void *out)
{
	const struct agent_q *q = o;
	memcpy(out, q->a->cache_size, sizeof(q->a->cache_size));
	return HSA_STATUS_SUCCESS;
}

/* 128 bytes, more than the scratch: written to the caller's value.  ROCr
 * sets IMAGES on GPU agents; we on those with images (src/image's
 * agent_supported). */
static hsa_status_t agent_extensions(const void *o, void *value)
{
	const struct agent_q *q = o;
	hl_extension_mask(q->rt, q->a, value);
	return HSA_STATUS_SUCCESS;
}

static hsa_status_t agent_compute_units(const void *o, void *out)
{
	const struct agent_q *q = o;
	uint32_t n = q->gpu ? (q->np->simd_per_cu ? q->np->simd_count / q->np->simd_per_cu : 0)
			    : q->np->cpu_cores_count;
	memcpy(out, &n, sizeof(n));
	return HSA_STATUS_SUCCESS;
}

static hsa_status_t agent_coop_compute_units(const void *o, void *out)
{
	if (!((const struct agent_q *)o)->gpu)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	return agent_compute_units(o, out);
}

/* The HDP flush registers of the MMIO-remap page mapped at open
 * (kfd_gpu.mmio_remap): HDP_MEM_FLUSH_CNTL at word 0, HDP_REG_FLUSH_CNTL at
 * word 1, as ROCr takes them from the MMIO_REMAP heap; both NULL without
 * the page, as ROCr. */
static hsa_status_t agent_hdp_flush(const void *o, void *out)
{
	const struct agent_q *q = o;
	hsa_amd_hdp_flush_t hdp = { 0 };
	if (q->gpu && q->a->gpu && q->a->gpu->mmio_remap) {
		hdp.HDP_MEM_FLUSH_CNTL = q->a->gpu->mmio_remap;
		hdp.HDP_REG_FLUSH_CNTL = q->a->gpu->mmio_remap + 1;
	}
	memcpy(out, &hdp, sizeof(hdp));
	return HSA_STATUS_SUCCESS;
}

/* GWS in the topology means the kernel can allocate it (KFD reports num_gws
 * only with HWS scheduling); a refusal seen at a cooperative queue's
 * creation withdraws it. */
static hsa_status_t agent_coop_queues(const void *o, void *out)
{
	const struct agent_q *q = o;
	if (!q->gpu)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	*(bool *)out = q->np->num_gws != 0 &&
		       !atomic_load_explicit(&q->a->gws_refused, memory_order_relaxed);
	return HSA_STATUS_SUCCESS;
}

/* Its own length (the string and its NUL): written to the caller's value. */
static hsa_status_t agent_uuid(const void *o, void *value)
{
	const struct agent_q *q = o;
	put_string(value, q->a->uuid, strlen(q->a->uuid) + 1);
	return HSA_STATUS_SUCCESS;
}

static hsa_status_t agent_memory_avail(const void *o, void *out)
{
	const struct agent_q *q = o;
	uint64_t bytes = 0;
	int err = kfd_available_memory(q->rt->proc, q->a->gpu->gpu_id, &bytes);
	if (err)
		return hl_status_from_errno(err);
	memcpy(out, &bytes, sizeof(bytes));
	return HSA_STATUS_SUCCESS;
}

/* Every agent's attributes, in the enums' order. */
static const struct hl_info_attr agent_info[] = {
	{ HSA_AGENT_INFO_NAME, 0, agent_name },
	{ HSA_AGENT_INFO_VENDOR_NAME, 0, agent_vendor },
	{ HSA_AGENT_INFO_FEATURE, sizeof(hsa_agent_feature_t), agent_feature },
	{ HSA_AGENT_INFO_MACHINE_MODEL, sizeof(hsa_machine_model_t), agent_machine_model },
	{ HSA_AGENT_INFO_PROFILE, sizeof(hsa_profile_t), agent_profile },
	{ HSA_AGENT_INFO_DEFAULT_FLOAT_ROUNDING_MODE, sizeof(hsa_default_float_rounding_mode_t),
	  agent_rounding },
	{ HSA_AGENT_INFO_BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES,
	  sizeof(hsa_default_float_rounding_mode_t), agent_rounding },
	{ HSA_AGENT_INFO_FAST_F16_OPERATION, sizeof(bool), agent_fast_f16 },
	{ HSA_AGENT_INFO_WAVEFRONT_SIZE, sizeof(uint32_t), agent_wavefront_size },
	{ HSA_AGENT_INFO_WORKGROUP_MAX_DIM, 3 * sizeof(uint16_t), agent_workgroup_dim },
	{ HSA_AGENT_INFO_WORKGROUP_MAX_SIZE, sizeof(uint32_t), agent_workgroup_size },
	{ HSA_AGENT_INFO_GRID_MAX_DIM, sizeof(hsa_dim3_t), agent_grid_dim },
	{ HSA_AGENT_INFO_GRID_MAX_SIZE, sizeof(uint32_t), agent_grid_size },
	{ HSA_AGENT_INFO_FBARRIER_MAX_SIZE, sizeof(uint32_t), agent_fbarrier },
	{ HSA_AGENT_INFO_QUEUES_MAX, sizeof(uint32_t), agent_queues_max },
	{ HSA_AGENT_INFO_QUEUE_MIN_SIZE, sizeof(uint32_t), agent_queue_min },
	{ HSA_AGENT_INFO_QUEUE_MAX_SIZE, sizeof(uint32_t), agent_queue_max },
	{ HSA_AGENT_INFO_QUEUE_TYPE, sizeof(hsa_queue_type32_t), agent_queue_type },
	{ HSA_AGENT_INFO_NODE, sizeof(uint32_t), agent_node },
	{ HSA_AGENT_INFO_DEVICE, sizeof(hsa_device_type_t), agent_device },
	{ HSA_AGENT_INFO_CACHE_SIZE, sizeof(((struct hl_agent *)0)->cache_size),
	  agent_cache_size },
	{ HSA_AGENT_INFO_ISA, sizeof(hsa_isa_t), agent_isa },
	{ HSA_AGENT_INFO_EXTENSIONS, 0, agent_extensions },
	{ HSA_AGENT_INFO_VERSION_MAJOR, sizeof(uint16_t), agent_version },
	{ HSA_AGENT_INFO_VERSION_MINOR, sizeof(uint16_t), agent_version },

	{ HSA_AMD_AGENT_INFO_CHIP_ID, sizeof(uint32_t), agent_chip_id },
	{ HSA_AMD_AGENT_INFO_CACHELINE_SIZE, sizeof(uint32_t), agent_cacheline },
	{ HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT, sizeof(uint32_t), agent_compute_units },
	{ HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY, sizeof(uint32_t), agent_max_clock },
	{ HSA_AMD_AGENT_INFO_DRIVER_NODE_ID, sizeof(uint32_t), agent_node },
	{ HSA_AMD_AGENT_INFO_MAX_ADDRESS_WATCH_POINTS, sizeof(uint32_t), agent_watch_points },
	{ HSA_AMD_AGENT_INFO_BDFID, sizeof(uint32_t), agent_bdfid },
	{ HSA_AMD_AGENT_INFO_PRODUCT_NAME, 64, agent_product_name },
	{ HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU, sizeof(uint32_t), agent_waves_per_cu },
	{ HSA_AMD_AGENT_INFO_NUM_SIMDS_PER_CU, sizeof(uint32_t), agent_simds_per_cu },
	{ HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES, sizeof(uint32_t), agent_shader_engines },
	{ HSA_AMD_AGENT_INFO_NUM_SHADER_ARRAYS_PER_SE, sizeof(uint32_t), agent_arrays_per_se },
	{ HSA_AMD_AGENT_INFO_HDP_FLUSH, sizeof(hsa_amd_hdp_flush_t), agent_hdp_flush },
	{ HSA_AMD_AGENT_INFO_DOMAIN, sizeof(uint32_t), agent_domain },
	{ HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES, sizeof(bool), agent_coop_queues },
	{ HSA_AMD_AGENT_INFO_UUID, 0, agent_uuid },
	{ HSA_AMD_AGENT_INFO_ASIC_REVISION, sizeof(uint32_t), agent_asic_revision },
	{ HSA_AMD_AGENT_INFO_SVM_DIRECT_HOST_ACCESS, sizeof(bool), agent_svm_direct_host },
	{ HSA_AMD_AGENT_INFO_COOPERATIVE_COMPUTE_UNIT_COUNT, sizeof(uint32_t),
	  agent_coop_compute_units },
	{ HL_AMD_AGENT_INFO_TIMESTAMP_FREQUENCY, sizeof(uint64_t), agent_timestamp_freq },
	{ HL_AMD_AGENT_INFO_ASIC_FAMILY_ID, sizeof(uint32_t), agent_family_id },
	{ HL_AMD_AGENT_INFO_UCODE_VERSION, sizeof(uint32_t), agent_ucode },
	{ HL_AMD_AGENT_INFO_SDMA_UCODE_VERSION, sizeof(uint32_t), agent_sdma_ucode },
	{ HL_AMD_AGENT_INFO_NUM_SDMA_ENG, sizeof(uint32_t), agent_sdma_engines },
	{ HL_AMD_AGENT_INFO_NUM_SDMA_XGMI_ENG, sizeof(uint32_t), agent_sdma_xgmi_engines },
	{ HL_AMD_AGENT_INFO_IOMMU_SUPPORT, sizeof(uint32_t), agent_iommu },
	{ HL_AMD_AGENT_INFO_NEAREST_CPU, sizeof(hsa_agent_t), agent_nearest_cpu },
	{ HL_AMD_AGENT_INFO_MEMORY_PROPERTIES, sizeof(uint64_t), agent_memory_properties },
	{ HL_AMD_AGENT_INFO_AQL_EXTENSIONS, sizeof(uint64_t), agent_aql_extensions },
	/* ROCr 1.18's CPU agent answers these two with 0 */
	{ HL_AMD_AGENT_INFO_NUM_XCC, sizeof(uint32_t), agent_num_xcc },
	{ HL_AMD_AGENT_INFO_DRIVER_UID, sizeof(uint32_t), agent_driver_uid },
	{ HSA_AMD_AGENT_INFO_MAX_DATA_PREFETCH_REGIONS, sizeof(uint32_t), agent_prefetch_regions },
	{ HSA_AMD_AGENT_INFO_HOST_ALLOC_DMABUF_SUPPORTED, sizeof(bool), agent_host_alloc_dmabuf },
};

/* The attributes only GPU agents answer (a CPU's is INVALID_ARGUMENT). */
static const struct hl_info_attr gpu_agent_info[] = {
	/* a CPU has no memory bus of its own in ROCr (5.2.3 and 1.18) */
	{ HSA_AMD_AGENT_INFO_MEMORY_WIDTH, sizeof(uint32_t), agent_memory_width },
	{ HSA_AMD_AGENT_INFO_MEMORY_MAX_FREQUENCY, sizeof(uint32_t), agent_memory_clock },
	{ HL_AMD_AGENT_INFO_MEMORY_AVAIL, sizeof(uint64_t), agent_memory_avail },
	/* AMD's later headers, before 1.23 */
	{ HSA_AMD_AGENT_INFO_PM4_EMULATION, sizeof(bool), agent_pm4_emulation },
	{ HSA_AMD_AGENT_INFO_LUID, sizeof(hsa_luid_t), agent_luid },
	{ HSA_AMD_AGENT_INFO_HAS_EXPERT_SCHED_MODE, sizeof(bool), agent_expert_sched },
	{ HSA_AMD_AGENT_INFO_KERNEL_WG_MAX_SIZE, sizeof(uint64_t), agent_kernel_wg_max_size },
	{ HSA_AMD_AGENT_INFO_KERNEL_CLUSTER_MAX_DIM, sizeof(hsa_amd_dim3_t),
	  agent_kernel_wg_max_dim },
	{ HSA_AMD_AGENT_INFO_KERNEL_CLUSTER_MAX_SIZE, sizeof(uint64_t), agent_kernel_wg_max_size },
	{ HSA_AMD_AGENT_INFO_CLUSTER_MAX_DIM, sizeof(hsa_amd_dim3_t), agent_cluster_max_dim },
	{ HSA_AMD_AGENT_INFO_CLUSTER_MAX_SIZE, sizeof(uint64_t), agent_cluster_max_size },
	{ HSA_AMD_AGENT_INFO_KERNEL_WG_MAX_DIM, sizeof(hsa_amd_dim3_t), agent_kernel_wg_max_dim },
};

/* A CPU's scratch limits and clock counters: ROCr 1.18's CpuAgent answers
 * 0 for the limits and an all-zero hsa_amd_clock_counters_t (it asks the
 * driver nothing). */
static hsa_status_t cpu_scratch_clock(uint32_t attr, void *value)
{
	switch (attr) {
	case HSA_AMD_AGENT_INFO_SCRATCH_LIMIT_MAX:
	case HSA_AMD_AGENT_INFO_SCRATCH_LIMIT_CURRENT:
		memset(value, 0, sizeof(uint64_t));
		return HSA_STATUS_SUCCESS;
	case HSA_AMD_AGENT_INFO_CLOCK_COUNTERS:
		memset(value, 0, sizeof(hsa_amd_clock_counters_t));
		return HSA_STATUS_SUCCESS;
	default:
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
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

	const uint32_t attr = (uint32_t)attribute;
	/* Extension attributes (the image extension's 0x3000..) are answered
	 * by the extension's owner (extension.c). */
	bool found;
	hsa_status_t st = hl_extension_agent_info(rt, a, attr, value, &found);
	if (found)
		return st;

	const struct agent_q q = {
		.rt = rt, .a = a, .np = &a->node->props, .gpu = a->type == HSA_DEVICE_TYPE_GPU,
	};
	st = hl_info_answer(agent_info, HL_INFO_COUNT(agent_info), attr, &q, value, &found);
	if (found)
		return st;
	if (!q.gpu)
		return cpu_scratch_clock(attr, value);
	st = hl_info_answer(gpu_agent_info, HL_INFO_COUNT(gpu_agent_info), attr, &q, value,
			    &found);
	if (found)
		return st;
	/* scratch limits, clock counters (scratch_limit.c) */
	return hl_agent_info_scratch_clock(rt, a, (int)attr, value);
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
