/*
 * hsa_ext_amd.h - AMD's extensions to the HSA API (the "hsa_amd_*" calls):
 * ROCr 5.2.3's set, grown to ROCr 1.18's (ROCm 7.0: copy engines, dma-buf
 * export, queue info, scratch limits, wait-all, logging, SPM, the virtual
 * memory API) and to AMD's interface 1.31 (counted queues, batch copy,
 * preload, SVM discard, AIS, signal event ids, the attributes, pointer
 * types, system events, queue descriptors and application SDMA queues,
 * external semaphores, fabric handles, image v2).  Every value and layout
 * of 5.2.3 is kept but hsa_amd_pointer_info_t's size, which its size
 * field versions.
 *
 * rocminfo and HIP are written against these names; the layouts of the
 * public structs below are pinned by test/abi against Debian's header.
 * Memory pools are the AMD replacement for hsa_region_t: each KFD memory
 * bank of an agent shows up as one pool.
 */
#ifndef HSA_RUNTIME_EXT_AMD_H_
#define HSA_RUNTIME_EXT_AMD_H_

#include "hsa.h"
#include "hsa_ext_image.h"
#include "hsa_ven_amd_pc_sampling.h"

/*
 * Version of this interface as hsalite implements it.  AMD's steps: 1.1
 * dma-buf export, 1.2 hsa_amd_memory_async_copy_on_engine, 1.3 the
 * EXTENDED_SCOPE_FINE_GRAINED pool flag, 1.4 the virtual memory API, 1.5
 * MEMORY_PROPERTIES, 1.6 vmem_address_reserve_align, 1.7 signal_wait_all,
 * 1.8 get_preferred_copy_engine, 1.9 export_dmabuf_v2, 1.10
 * HSA_AMD_VMEM_ADDRESS_NO_REGISTER, 1.11 CLOCK_COUNTERS (ROCr 1.18 stops
 * here), 1.12 pointer types HSA_VMEM and RESERVED_ADDR, 1.13 pointer info's
 * registered, 1.14 hsa_amd_ais_file_write/_read, 1.15 the shutdown system
 * event, 1.16 counted queues, 1.17 hsa_amd_memory_async_batch_copy, 1.18
 * pointer info's alloc_flags, 1.19 hsa_amd_agent_preload, 1.20
 * hsa_amd_svm_discard_batch_async, 1.21 hsa_amd_signal_get_event_id, 1.22
 * a queue's VM-fault state in hsa_amd_queue_get_info, 1.23 the agent's
 * MAX_DATA_PREFETCH_REGIONS, 1.24 external semaphore handles, 1.25 fabric
 * handles for vmem, 1.26 hsa_amd_queue_create (queues from a descriptor,
 * the application SDMA queues among them), 1.27 queue signal/wait on an
 * external semaphore, 1.28 HOST_ALLOC_DMABUF_SUPPORTED (agent and system),
 * 1.29 hsa_amd_image_create_v2 and hsa_amd_interop_map_buffer_with_size,
 * 1.30 a queue's engine type and SDMA engine, 1.31 its read and write
 * pointer addresses.
 * hsalite has every step to 1.31.  What no device under the amdkfd UAPI
 * can do (AIS file I/O, external semaphores, fabric export, dma-buf host
 * allocations, L2 data prefetch, clusters on gfx9) answers as a runtime
 * does on hardware without it: docs/differences.md says how, case by case.
 * hsa_system_get_info's HSA_AMD_SYSTEM_INFO_EXT_VERSION_MINOR reports it.
 */
#define HSA_AMD_INTERFACE_VERSION_MAJOR 1
#define HSA_AMD_INTERFACE_VERSION_MINOR 31

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Test bit `bit` of a little-endian bit array such as the uint8_t[8]
 * attributes newer ROCr reports; bit 0 is bit 0 of value[0].
 */
static __inline__ bool hsa_flag_isset64(uint8_t *value, uint32_t bit)
{
	return (value[bit / 8] >> (bit % 8)) & 1u;
}

/* Set bit `bit` of such an array. */
static __inline__ void hsa_flag_set64(uint8_t *value, uint32_t bit)
{
	value[bit / 8] = (uint8_t)(value[bit / 8] | (1u << (bit % 8)));
}

/* hsa_signal_condition_t carried in a fixed 32-bit field. */
typedef uint32_t hsa_signal_condition32_t;

/* ---- the AMD vendor-specific AQL packet --------------------------------- */

/* Value of AmdFormat in a packet whose HSA type is VENDOR_SPECIFIC. */
typedef enum {
	HSA_AMD_PACKET_TYPE_BARRIER_VALUE = 2
} hsa_amd_packet_type_t;
typedef uint8_t hsa_amd_packet_type8_t;

typedef struct hsa_amd_packet_header_s {
	uint16_t header; /* the HSA header, type = HSA_PACKET_TYPE_VENDOR_SPECIFIC */
	hsa_amd_packet_type8_t AmdFormat;
	uint8_t reserved;
} hsa_amd_vendor_packet_header_t;

/*
 * Barrier on a signal value: the packet processor waits until
 * "(signal & mask) <cond> value" holds, then completes.
 */
typedef struct hsa_amd_barrier_value_packet_s {
	hsa_amd_vendor_packet_header_t header;
	uint32_t reserved0;
	hsa_signal_t signal;
	hsa_signal_value_t value;
	hsa_signal_value_t mask;
	hsa_signal_condition32_t cond;
	uint32_t reserved1;
	uint64_t reserved2;
	uint64_t reserved3;
	hsa_signal_t completion_signal;
} hsa_amd_barrier_value_packet_t;

/* ---- AMD status codes (hsa_status_t values) ----------------------------- */

enum {
	HSA_STATUS_ERROR_INVALID_MEMORY_POOL = 40,
	HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION = 41, /* access outside every aperture */
	HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION = 42,
	HSA_STATUS_ERROR_MEMORY_FAULT = 43,  /* page fault; see the system event */
	HSA_STATUS_CU_MASK_REDUCED = 44,     /* mask applied minus CUs the process may not use */
	HSA_STATUS_ERROR_OUT_OF_REGISTERS = 45,
	HSA_STATUS_ERROR_RESOURCE_BUSY = 46,
	HSA_STATUS_ERROR_NOT_SUPPORTED = 47,
	HSA_STATUS_ERROR_XNACK_DISABLED = 48 /* the call needs XNACK (interface 1.20) */
};

/* ---- agent and region attributes ---------------------------------------- */

typedef enum hsa_amd_agent_info_s {
	HSA_AMD_AGENT_INFO_CHIP_ID = 0xA000,              /* uint32_t PCI device id */
	HSA_AMD_AGENT_INFO_CACHELINE_SIZE = 0xA001,       /* uint32_t bytes */
	HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT = 0xA002,   /* uint32_t */
	HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY = 0xA003,  /* uint32_t MHz */
	HSA_AMD_AGENT_INFO_DRIVER_NODE_ID = 0xA004,       /* uint32_t KFD node */
	HSA_AMD_AGENT_INFO_MAX_ADDRESS_WATCH_POINTS = 0xA005,
	HSA_AMD_AGENT_INFO_BDFID = 0xA006,                /* uint32_t bus/device/function */
	HSA_AMD_AGENT_INFO_MEMORY_WIDTH = 0xA007,         /* uint32_t bits */
	HSA_AMD_AGENT_INFO_MEMORY_MAX_FREQUENCY = 0xA008, /* uint32_t MHz */
	HSA_AMD_AGENT_INFO_PRODUCT_NAME = 0xA009,         /* char[64] marketing name */
	HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU = 0xA00A,
	HSA_AMD_AGENT_INFO_NUM_SIMDS_PER_CU = 0xA00B,
	HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES = 0xA00C,
	HSA_AMD_AGENT_INFO_NUM_SHADER_ARRAYS_PER_SE = 0xA00D,
	HSA_AMD_AGENT_INFO_HDP_FLUSH = 0xA00E,            /* hsa_amd_hdp_flush_t */
	HSA_AMD_AGENT_INFO_DOMAIN = 0xA00F,               /* uint32_t PCI domain */
	HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES = 0xA010,   /* bool */
	HSA_AMD_AGENT_INFO_UUID = 0xA011,                 /* char[21], "GPU-" + 16 hex digits */
	HSA_AMD_AGENT_INFO_ASIC_REVISION = 0xA012,        /* uint32_t */
	HSA_AMD_AGENT_INFO_SVM_DIRECT_HOST_ACCESS = 0xA013, /* bool */
	HSA_AMD_AGENT_INFO_COOPERATIVE_COMPUTE_UNIT_COUNT = 0xA014,
	HSA_AMD_AGENT_INFO_MEMORY_AVAIL = 0xA015,         /* uint64_t bytes free in its pools */
	HSA_AMD_AGENT_INFO_TIMESTAMP_FREQUENCY = 0xA016,  /* uint64_t Hz */
	HSA_AMD_AGENT_INFO_ASIC_FAMILY_ID = 0xA107,       /* uint32_t */
	HSA_AMD_AGENT_INFO_UCODE_VERSION = 0xA108,        /* uint32_t CP firmware */
	HSA_AMD_AGENT_INFO_SDMA_UCODE_VERSION = 0xA109,   /* uint32_t */
	HSA_AMD_AGENT_INFO_NUM_SDMA_ENG = 0xA10A,         /* uint32_t host<->device engines */
	HSA_AMD_AGENT_INFO_NUM_SDMA_XGMI_ENG = 0xA10B,    /* uint32_t extra engines for xGMI peers */
	HSA_AMD_AGENT_INFO_IOMMU_SUPPORT = 0xA110,        /* hsa_amd_iommu_version_t */
	HSA_AMD_AGENT_INFO_NUM_XCC = 0xA111,              /* uint32_t */
	HSA_AMD_AGENT_INFO_DRIVER_UID = 0xA112,           /* uint32_t */
	HSA_AMD_AGENT_INFO_NEAREST_CPU = 0xA113,          /* hsa_agent_t */
	HSA_AMD_AGENT_INFO_MEMORY_PROPERTIES = 0xA114,    /* uint8_t[8], hsa_amd_agent_memory_properties_t bits */
	HSA_AMD_AGENT_INFO_AQL_EXTENSIONS = 0xA115,       /* uint8_t[8] */
	HSA_AMD_AGENT_INFO_SCRATCH_LIMIT_MAX = 0xA116,    /* uint64_t bytes */
	HSA_AMD_AGENT_INFO_SCRATCH_LIMIT_CURRENT = 0xA117, /* uint64_t bytes, the use-once threshold */
	HSA_AMD_AGENT_INFO_CLOCK_COUNTERS = 0xA118,       /* hsa_amd_clock_counters_t */
	/* AMD's later headers (0xA119-0xA122 came without a version step of
	 * their own, before 1.23) */
	HSA_AMD_AGENT_INFO_PM4_EMULATION = 0xA119,        /* bool: AQL run by PM4 emulation */
	HSA_AMD_AGENT_INFO_LUID = 0xA11A,                 /* hsa_luid_t, Windows only */
	HSA_AMD_AGENT_INFO_HAS_EXPERT_SCHED_MODE = 0xA11B, /* bool */
	HSA_AMD_AGENT_INFO_CUID = 0xA11C,                 /* uint8_t[16], amdcuid's secondary UUIDv8 */
	HSA_AMD_AGENT_INFO_KERNEL_WG_MAX_SIZE = 0xA11D,   /* uint64_t work-groups, all dims */
	HSA_AMD_AGENT_INFO_KERNEL_CLUSTER_MAX_DIM = 0xA11E, /* hsa_amd_dim3_t clusters */
	HSA_AMD_AGENT_INFO_KERNEL_CLUSTER_MAX_SIZE = 0xA11F, /* uint64_t clusters, all dims */
	HSA_AMD_AGENT_INFO_CLUSTER_MAX_DIM = 0xA120,      /* hsa_amd_dim3_t work-groups */
	HSA_AMD_AGENT_INFO_CLUSTER_MAX_SIZE = 0xA121,     /* uint64_t work-groups per cluster */
	HSA_AMD_AGENT_INFO_KERNEL_WG_MAX_DIM = 0xA122,    /* hsa_amd_dim3_t work-groups */
	/* 1.23: L2 data prefetch regions a dispatch may name; 0 = none */
	HSA_AMD_AGENT_INFO_MAX_DATA_PREFETCH_REGIONS = 0xA123, /* uint32_t */
	/* 1.28: a CPU agent can allocate host memory through the vmem API
	 * and export it as a dma-buf; a GPU agent can reach such memory.
	 * AMD means to retire it for HSA_AMD_SYSTEM_INFO_HOST_ALLOC_DMA_BUF_SUPPORTED. */
	HSA_AMD_AGENT_INFO_HOST_ALLOC_DMABUF_SUPPORTED = 0xA124 /* bool */
} hsa_amd_agent_info_t;

/* Dispatch limits per dimension (the KERNEL_WG and CLUSTER attributes):
 * 64-bit, unlike hsa_dim3_t. */
typedef struct hsa_amd_dim3_s {
	uint64_t x;
	uint64_t y;
	uint64_t z;
} hsa_amd_dim3_t;

typedef enum {
	HSA_IOMMU_SUPPORT_NONE = 0,
	HSA_IOMMU_SUPPORT_V2 = 1
} hsa_amd_iommu_version_t;

/* A snapshot of the agent's clocks (KFD's GET_CLOCK_COUNTERS). */
typedef struct hsa_amd_clock_counters_s {
	uint64_t gpu_clock_counter;
	uint64_t cpu_clock_counter;
	uint64_t system_clock_counter;
	uint64_t system_clock_frequency; /* Hz */
} hsa_amd_clock_counters_t;

/* Bit numbers of HSA_AMD_AGENT_INFO_MEMORY_PROPERTIES (hsa_flag_isset64). */
typedef enum hsa_amd_agent_memory_properties_s {
	HSA_AMD_MEMORY_PROPERTY_AGENT_IS_APU = (1 << 0)
} hsa_amd_agent_memory_properties_t;

/*
 * Copy engines as the copy-engine calls name them: one bit each.  Engine
 * 0 is the agent's host-to-device engine, 1 its device-to-host engine,
 * 2 and up its xGMI engines (ROCr's blit table offsets 1, 2, 3...).
 */
typedef enum hsa_amd_sdma_engine_id {
	HSA_AMD_SDMA_ENGINE_0 = 0x1,
	HSA_AMD_SDMA_ENGINE_1 = 0x2,
	HSA_AMD_SDMA_ENGINE_2 = 0x4,
	HSA_AMD_SDMA_ENGINE_3 = 0x8,
	HSA_AMD_SDMA_ENGINE_4 = 0x10,
	HSA_AMD_SDMA_ENGINE_5 = 0x20,
	HSA_AMD_SDMA_ENGINE_6 = 0x40,
	HSA_AMD_SDMA_ENGINE_7 = 0x80,
	HSA_AMD_SDMA_ENGINE_8 = 0x100,
	HSA_AMD_SDMA_ENGINE_9 = 0x200,
	HSA_AMD_SDMA_ENGINE_10 = 0x400,
	HSA_AMD_SDMA_ENGINE_11 = 0x800,
	HSA_AMD_SDMA_ENGINE_12 = 0x1000,
	HSA_AMD_SDMA_ENGINE_13 = 0x2000,
	HSA_AMD_SDMA_ENGINE_14 = 0x4000,
	HSA_AMD_SDMA_ENGINE_15 = 0x8000
} hsa_amd_sdma_engine_id_t;

/* MMIO addresses a host writes to flush the GPU's host data path. */
typedef struct hsa_amd_hdp_flush_s {
	uint32_t *HDP_MEM_FLUSH_CNTL;
	uint32_t *HDP_REG_FLUSH_CNTL;
} hsa_amd_hdp_flush_t;

typedef enum hsa_amd_region_info_s {
	HSA_AMD_REGION_INFO_HOST_ACCESSIBLE = 0xA000, /* bool */
	HSA_AMD_REGION_INFO_BASE = 0xA001,            /* void * */
	HSA_AMD_REGION_INFO_BUS_WIDTH = 0xA002,       /* uint32_t bits */
	HSA_AMD_REGION_INFO_MAX_CLOCK_FREQUENCY = 0xA003 /* uint32_t MHz */
} hsa_amd_region_info_t;

typedef enum hsa_amd_coherency_type_s {
	HSA_AMD_COHERENCY_TYPE_COHERENT = 0,
	HSA_AMD_COHERENCY_TYPE_NONCOHERENT = 1
} hsa_amd_coherency_type_t;

/* Flags of hsa_amd_portable_export_dmabuf_v2. */
typedef enum hsa_amd_dma_buf_mapping_type_s {
	HSA_AMD_DMABUF_MAPPING_TYPE_NONE = 0,
	HSA_AMD_DMABUF_MAPPING_TYPE_PCIE = 1 /* importer maps it over PCIe (large BAR only) */
} hsa_amd_dma_buf_mapping_type_t;

hsa_status_t HSA_API hsa_amd_coherency_get_type(hsa_agent_t agent, hsa_amd_coherency_type_t *type);
hsa_status_t HSA_API hsa_amd_coherency_set_type(hsa_agent_t agent, hsa_amd_coherency_type_t type);

/* ---- profiling ---------------------------------------------------------- */

/* Timestamps in agent ticks; convert with ..._convert_tick_to_system_domain. */
typedef struct hsa_amd_profiling_dispatch_time_s {
	uint64_t start;
	uint64_t end;
} hsa_amd_profiling_dispatch_time_t;

typedef struct hsa_amd_profiling_async_copy_time_s {
	uint64_t start;
	uint64_t end;
} hsa_amd_profiling_async_copy_time_t;

hsa_status_t HSA_API hsa_amd_profiling_set_profiler_enabled(hsa_queue_t *queue, int enable);
hsa_status_t HSA_API hsa_amd_profiling_async_copy_enable(bool enable);
/* signal: the completion signal of the profiled dispatch. */
hsa_status_t HSA_API hsa_amd_profiling_get_dispatch_time(hsa_agent_t agent, hsa_signal_t signal,
	hsa_amd_profiling_dispatch_time_t *time);
hsa_status_t HSA_API hsa_amd_profiling_get_async_copy_time(hsa_signal_t signal,
	hsa_amd_profiling_async_copy_time_t *time);
hsa_status_t HSA_API hsa_amd_profiling_convert_tick_to_system_domain(hsa_agent_t agent,
	uint64_t agent_tick, uint64_t *system_tick);

/* ---- signals ------------------------------------------------------------ */

/* Bits of the attributes argument of hsa_amd_signal_create. */
typedef enum {
	HSA_AMD_SIGNAL_AMD_GPU_ONLY = 1, /* only GPUs wait: no interrupt event needed */
	HSA_AMD_SIGNAL_IPC = 2           /* shareable with another process */
} hsa_amd_signal_attribute_t;

hsa_status_t HSA_API hsa_amd_signal_create(hsa_signal_value_t initial_value,
	uint32_t num_consumers, const hsa_agent_t *consumers, uint64_t attributes,
	hsa_signal_t *signal);
/* Address of the signal's value word, for clients that poll it directly. */
hsa_status_t HSA_API hsa_amd_signal_value_pointer(hsa_signal_t signal,
	volatile hsa_signal_value_t **value_ptr);

/*
 * Runs on the runtime's event thread when the condition holds; return true
 * to stay registered, false to be removed.
 */
typedef bool (*hsa_amd_signal_handler)(hsa_signal_value_t value, void *arg);

hsa_status_t HSA_API hsa_amd_signal_async_handler(hsa_signal_t signal,
	hsa_signal_condition_t cond, hsa_signal_value_t value, hsa_amd_signal_handler handler,
	void *arg);
/*
 * Wait until every signals[i] satisfies conds[i] against values[i] (NULL
 * or invalid signals count as satisfied); returns 0 when all are, or
 * UINT32_MAX on timeout.  satisfying_values (may be NULL) receives each
 * signal's value, 0 for the skipped ones.
 */
uint32_t HSA_API hsa_amd_signal_wait_all(uint32_t signal_count, hsa_signal_t *signals,
	hsa_signal_condition_t *conds, hsa_signal_value_t *values, uint64_t timeout_hint,
	hsa_wait_state_t wait_hint, hsa_signal_value_t *satisfying_values);

/* Run callback(arg) once on the runtime's event thread. */
hsa_status_t HSA_API hsa_amd_async_function(void (*callback)(void *arg), void *arg);

/*
 * Wait until any signals[i] satisfies conds[i] against values[i]; returns
 * its index, or UINT32_MAX on timeout.
 */
uint32_t HSA_API hsa_amd_signal_wait_any(uint32_t signal_count, hsa_signal_t *signals,
	hsa_signal_condition_t *conds, hsa_signal_value_t *values, uint64_t timeout_hint,
	hsa_wait_state_t wait_hint, hsa_signal_value_t *satisfying_value);

hsa_status_t HSA_API hsa_amd_image_get_info_max_dim(hsa_agent_t agent,
	hsa_agent_info_t attribute, void *value);

/* ---- queues ------------------------------------------------------------- */

/* cu_mask: num_cu_mask_count bits (a multiple of 32), bit i = CU i. */
hsa_status_t HSA_API hsa_amd_queue_cu_set_mask(const hsa_queue_t *queue,
	uint32_t num_cu_mask_count, const uint32_t *cu_mask);
hsa_status_t HSA_API hsa_amd_queue_cu_get_mask(const hsa_queue_t *queue,
	uint32_t num_cu_mask_count, uint32_t *cu_mask);

/* ---- memory pools ------------------------------------------------------- */

typedef enum {
	HSA_AMD_SEGMENT_GLOBAL = 0,
	HSA_AMD_SEGMENT_READONLY = 1,
	HSA_AMD_SEGMENT_PRIVATE = 2,
	HSA_AMD_SEGMENT_GROUP = 3
} hsa_amd_segment_t;

typedef struct hsa_amd_memory_pool_s {
	uint64_t handle;
} hsa_amd_memory_pool_t;

typedef enum hsa_amd_memory_pool_global_flag_s {
	HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT = 1,
	HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED = 2,
	HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED = 4,
	HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_EXTENDED_SCOPE_FINE_GRAINED = 8
} hsa_amd_memory_pool_global_flag_t;

typedef enum hsa_amd_memory_pool_location_s {
	HSA_AMD_MEMORY_POOL_LOCATION_CPU = 0,
	HSA_AMD_MEMORY_POOL_LOCATION_GPU = 1
} hsa_amd_memory_pool_location_t;

typedef enum {
	HSA_AMD_MEMORY_POOL_INFO_SEGMENT = 0,          /* hsa_amd_segment_t */
	HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS = 1,     /* uint32_t flag bits */
	HSA_AMD_MEMORY_POOL_INFO_SIZE = 2,             /* size_t */
	HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED = 5,   /* bool */
	HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE = 6,   /* size_t */
	HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT = 7, /* size_t */
	HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL = 15,      /* bool */
	HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE = 16,         /* size_t */
	HSA_AMD_MEMORY_POOL_INFO_LOCATION = 17,               /* hsa_amd_memory_pool_location_t */
	HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_REC_GRANULE = 18 /* size_t */
} hsa_amd_memory_pool_info_t;

/* Bits of hsa_amd_memory_pool_allocate's flags. */
typedef enum hsa_amd_memory_pool_flag_s {
	HSA_AMD_MEMORY_POOL_STANDARD_FLAG = 0,
	HSA_AMD_MEMORY_POOL_PCIE_FLAG = (1 << 0),       /* fine grain, per-link ordering */
	HSA_AMD_MEMORY_POOL_CONTIGUOUS_FLAG = (1 << 1),
	HSA_AMD_MEMORY_POOL_EXECUTABLE_FLAG = (1 << 2),
	HSA_AMD_MEMORY_POOL_UNCACHED_FLAG = (1 << 3)
} hsa_amd_memory_pool_flag_t;

hsa_status_t HSA_API hsa_amd_memory_pool_get_info(hsa_amd_memory_pool_t memory_pool,
	hsa_amd_memory_pool_info_t attribute, void *value);
hsa_status_t HSA_API hsa_amd_agent_iterate_memory_pools(hsa_agent_t agent,
	hsa_status_t (*callback)(hsa_amd_memory_pool_t memory_pool, void *data), void *data);
/* flags must be 0 in this interface version. */
hsa_status_t HSA_API hsa_amd_memory_pool_allocate(hsa_amd_memory_pool_t memory_pool, size_t size,
	uint32_t flags, void **ptr);
hsa_status_t HSA_API hsa_amd_memory_pool_free(void *ptr);

/*
 * Copy size bytes once every dep_signal reads 0; completion_signal is
 * decremented when the copy is visible to both agents.
 */
hsa_status_t HSA_API hsa_amd_memory_async_copy(void *dst, hsa_agent_t dst_agent,
	const void *src, hsa_agent_t src_agent, size_t size, uint32_t num_dep_signals,
	const hsa_signal_t *dep_signals, hsa_signal_t completion_signal);

/*
 * hsa_amd_memory_async_copy on the engine engine_id names (one bit); a copy
 * inside one GPU takes its blit kernel unless force_copy_on_sdma.
 */
hsa_status_t HSA_API hsa_amd_memory_async_copy_on_engine(void *dst, hsa_agent_t dst_agent,
	const void *src, hsa_agent_t src_agent, size_t size, uint32_t num_dep_signals,
	const hsa_signal_t *dep_signals, hsa_signal_t completion_signal,
	hsa_amd_sdma_engine_id_t engine_id, bool force_copy_on_sdma);
/* The engines (hsa_amd_sdma_engine_id_t bits) idle now for copies from
 * src_agent to dst_agent; OUT_OF_RESOURCES when none is. */
hsa_status_t HSA_API hsa_amd_memory_copy_engine_status(hsa_agent_t dst_agent,
	hsa_agent_t src_agent, uint32_t *engine_ids_mask);
/* The engines the driver recommends for that direction (0: none). */
hsa_status_t HSA_API hsa_amd_memory_get_preferred_copy_engine(hsa_agent_t dst_agent,
	hsa_agent_t src_agent, uint32_t *recommended_ids_mask);

/* A 3D buffer: pitch is the row stride, slice the plane stride, in bytes. */
typedef struct hsa_pitched_ptr_s {
	void *base;
	size_t pitch;
	size_t slice;
} hsa_pitched_ptr_t;

typedef enum {
	hsaHostToHost = 0,
	hsaHostToDevice = 1,
	hsaDeviceToHost = 2,
	hsaDeviceToDevice = 3
} hsa_amd_copy_direction_t;

hsa_status_t HSA_API hsa_amd_memory_async_copy_rect(const hsa_pitched_ptr_t *dst,
	const hsa_dim3_t *dst_offset, const hsa_pitched_ptr_t *src, const hsa_dim3_t *src_offset,
	const hsa_dim3_t *range, hsa_agent_t copy_agent, hsa_amd_copy_direction_t dir,
	uint32_t num_dep_signals, const hsa_signal_t *dep_signals, hsa_signal_t completion_signal);

typedef enum {
	HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED = 0,
	HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT = 1,
	HSA_AMD_MEMORY_POOL_ACCESS_DISALLOWED_BY_DEFAULT = 2 /* needs hsa_amd_agents_allow_access */
} hsa_amd_memory_pool_access_t;

typedef enum {
	HSA_AMD_LINK_INFO_TYPE_HYPERTRANSPORT = 0,
	HSA_AMD_LINK_INFO_TYPE_QPI = 1,
	HSA_AMD_LINK_INFO_TYPE_PCIE = 2,
	HSA_AMD_LINK_INFO_TYPE_INFINBAND = 3,
	HSA_AMD_LINK_INFO_TYPE_XGMI = 4
} hsa_amd_link_info_type_t;

/* One hop between an agent and a pool, as KFD's IO-link topology reports it. */
typedef struct hsa_amd_memory_pool_link_info_s {
	uint32_t min_latency;   /* ns */
	uint32_t max_latency;
	uint32_t min_bandwidth; /* MB/s */
	uint32_t max_bandwidth;
	bool atomic_support_32bit;
	bool atomic_support_64bit;
	bool coherent_support;
	hsa_amd_link_info_type_t link_type;
	uint32_t numa_distance;
} hsa_amd_memory_pool_link_info_t;

typedef enum {
	HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS = 0,        /* hsa_amd_memory_pool_access_t */
	HSA_AMD_AGENT_MEMORY_POOL_INFO_NUM_LINK_HOPS = 1, /* uint32_t */
	HSA_AMD_AGENT_MEMORY_POOL_INFO_LINK_INFO = 2      /* link_info_t[NUM_LINK_HOPS] */
} hsa_amd_agent_memory_pool_info_t;

hsa_status_t HSA_API hsa_amd_agent_memory_pool_get_info(hsa_agent_t agent,
	hsa_amd_memory_pool_t memory_pool, hsa_amd_agent_memory_pool_info_t attribute,
	void *value);
/* flags is reserved (NULL). */
hsa_status_t HSA_API hsa_amd_agents_allow_access(uint32_t num_agents, const hsa_agent_t *agents,
	const uint32_t *flags, const void *ptr);
hsa_status_t HSA_API hsa_amd_memory_pool_can_migrate(hsa_amd_memory_pool_t src_memory_pool,
	hsa_amd_memory_pool_t dst_memory_pool, bool *result);
hsa_status_t HSA_API hsa_amd_memory_migrate(const void *ptr, hsa_amd_memory_pool_t memory_pool,
	uint32_t flags);

/*
 * Pin host memory and map it for the agents (all GPUs when num_agent is 0);
 * *agent_ptr is the address the agents use.
 */
hsa_status_t HSA_API hsa_amd_memory_lock(void *host_ptr, size_t size, hsa_agent_t *agents,
	int num_agent, void **agent_ptr);
hsa_status_t HSA_API hsa_amd_memory_lock_to_pool(void *host_ptr, size_t size,
	hsa_agent_t *agents, int num_agent, hsa_amd_memory_pool_t pool, uint32_t flags,
	void **agent_ptr);
hsa_status_t HSA_API hsa_amd_memory_unlock(void *host_ptr);
/* Fill count 32-bit words at ptr (4-byte aligned) with value. */
hsa_status_t HSA_API hsa_amd_memory_fill(void *ptr, uint32_t value, size_t count);

/* ---- interop and images ------------------------------------------------- */

/* interop_handle: a DMA-buf file descriptor. */
hsa_status_t HSA_API hsa_amd_interop_map_buffer(uint32_t num_agents, hsa_agent_t *agents,
	int interop_handle, uint32_t flags, size_t *size, void **ptr, size_t *metadata_size,
	const void **metadata);
/*
 * As hsa_amd_interop_map_buffer, with the buffer's size as the caller
 * knows it (0: unknown).  AMD's header 1.29; a Linux dma-buf carries its
 * own size, which *size reports.
 */
hsa_status_t HSA_API hsa_amd_interop_map_buffer_with_size(uint32_t num_agents,
	hsa_agent_t *agents, hsa_handle_t interop_handle, uint32_t flags, size_t size_hint,
	size_t *size, void **ptr, size_t *metadata_size, const void **metadata);
hsa_status_t HSA_API hsa_amd_interop_unmap_buffer(void *ptr);

/* Vendor-specific image layout; data[] is variable-length. */
typedef struct hsa_amd_image_descriptor_s {
	uint32_t version;
	uint32_t deviceID;
	uint32_t data[1];
} hsa_amd_image_descriptor_t;

hsa_status_t HSA_API hsa_amd_image_create(hsa_agent_t agent,
	const hsa_ext_image_descriptor_t *image_descriptor,
	const hsa_amd_image_descriptor_t *image_layout, const void *image_data,
	hsa_access_permission_t access_permission, hsa_ext_image_t *image);

/* hsa_amd_image_create with a version 2 descriptor (AMD's header 1.29). */
hsa_status_t HSA_API hsa_amd_image_create_v2(hsa_agent_t agent,
	const hsa_ext_image_descriptor_v2_t *image_descriptor,
	const hsa_amd_image_descriptor_t *image_layout, const void *image_data,
	hsa_access_permission_t access_permission, hsa_ext_image_t *image);

/* ---- pointer queries ---------------------------------------------------- */

typedef enum {
	HSA_EXT_POINTER_TYPE_UNKNOWN = 0,  /* not known to the runtime */
	HSA_EXT_POINTER_TYPE_HSA = 1,      /* allocated by the runtime */
	HSA_EXT_POINTER_TYPE_LOCKED = 2,   /* pinned host memory */
	HSA_EXT_POINTER_TYPE_GRAPHICS = 3, /* imported through interop */
	HSA_EXT_POINTER_TYPE_IPC = 4,      /* attached from another process */
	HSA_EXT_POINTER_TYPE_RESERVED_ADDR = 5, /* a hsa_amd_vmem_address_reserve range */
	HSA_EXT_POINTER_TYPE_HSA_VMEM = 6  /* a hsa_amd_vmem_handle_create handle, mapped */
} hsa_amd_pointer_type_t;

/* size: set by the caller to sizeof(hsa_amd_pointer_info_t) (versioning). */
typedef struct hsa_amd_pointer_info_s {
	uint32_t size;
	hsa_amd_pointer_type_t type;
	void *agentBaseAddress;
	void *hostBaseAddress;
	size_t sizeInBytes;
	void *userData;
	hsa_agent_t agentOwner;
	uint32_t global_flags;
	/* interface 1.13: the runtime knows the memory (in the padding after
	 * global_flags, so 5.2.3's 56 bytes hold it) */
	bool registered;
	/* interface 1.18: hsa_amd_pointer_info_alloc_flag_t bits.  It grows
	 * the struct to 64 bytes; a caller built against an older header sets
	 * size to 56 and the runtime writes nothing past it. */
	uint32_t alloc_flags;
} hsa_amd_pointer_info_t;

/* Bits of hsa_amd_pointer_info_t.alloc_flags: the allocation as the
 * kernel driver holds it. */
typedef enum hsa_amd_pointer_info_alloc_flag_s {
	HSA_AMD_POINTER_INFO_ALLOC_FLAG_EXECUTABLE = (1 << 0),
	HSA_AMD_POINTER_INFO_ALLOC_FLAG_CONTIGUOUS = (1 << 1),
	HSA_AMD_POINTER_INFO_ALLOC_FLAG_NONPAGED = (1 << 2),
	HSA_AMD_POINTER_INFO_ALLOC_FLAG_READONLY = (1 << 3),
	HSA_AMD_POINTER_INFO_ALLOC_FLAG_HOST_ACCESS = (1 << 4),
	HSA_AMD_POINTER_INFO_ALLOC_FLAG_ATOMIC_FULL = (1 << 5),
	HSA_AMD_POINTER_INFO_ALLOC_FLAG_ATOMIC_PARTIAL = (1 << 6)
} hsa_amd_pointer_info_alloc_flag_t;

/* alloc (may be NULL) allocates *accessible, which the caller frees. */
hsa_status_t HSA_API hsa_amd_pointer_info(const void *ptr, hsa_amd_pointer_info_t *info,
	void *(*alloc)(size_t), uint32_t *num_agents_accessible, hsa_agent_t **accessible);
hsa_status_t HSA_API hsa_amd_pointer_info_set_userdata(const void *ptr, void *userdata);

/* ---- inter-process sharing --------------------------------------------- */

typedef struct hsa_amd_ipc_memory_s {
	uint32_t handle[8];
} hsa_amd_ipc_memory_t;

hsa_status_t HSA_API hsa_amd_ipc_memory_create(void *ptr, size_t len, hsa_amd_ipc_memory_t *handle);
hsa_status_t HSA_API hsa_amd_ipc_memory_attach(const hsa_amd_ipc_memory_t *handle, size_t len,
	uint32_t num_agents, const hsa_agent_t *mapping_agents, void **mapped_ptr);
hsa_status_t HSA_API hsa_amd_ipc_memory_detach(void *mapped_ptr);

typedef hsa_amd_ipc_memory_t hsa_amd_ipc_signal_t;

hsa_status_t HSA_API hsa_amd_ipc_signal_create(hsa_signal_t signal, hsa_amd_ipc_signal_t *handle);
hsa_status_t HSA_API hsa_amd_ipc_signal_attach(const hsa_amd_ipc_signal_t *handle,
	hsa_signal_t *signal);

/* ---- external semaphores (interface 1.24, 1.27) -------------------------- */

/* Vulkan's external semaphore handle types (libhsakmt's
 * HSA_EXTERNAL_SEMAPHORE_HANDLE_TYPE). */
typedef enum {
	HSA_AMD_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32 = 0,
	HSA_AMD_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32_KMT = 1,
	HSA_AMD_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD = 2
} hsa_amd_external_semaphore_handle_type_t;

typedef struct hsa_amd_external_semaphore_s {
	uint64_t handle;
} hsa_amd_external_semaphore_t;

typedef struct {
	hsa_amd_external_semaphore_handle_type_t type;
	union {
		void *win32_handle;  /* the WIN32 types */
		int fd;              /* OPAQUE_FD */
	} handle;
} hsa_amd_external_semaphore_handle_descriptor_t;

hsa_status_t HSA_API hsa_amd_external_semaphore_handle_open(hsa_agent_t agent,
	const hsa_amd_external_semaphore_handle_descriptor_t *desc,
	hsa_amd_external_semaphore_t *out_sem);
hsa_status_t HSA_API hsa_amd_external_semaphore_handle_close(hsa_amd_external_semaphore_t sem);
hsa_status_t HSA_API hsa_amd_queue_signal_external_semaphore(hsa_queue_t *queue,
	hsa_amd_external_semaphore_t sem, uint64_t value);
hsa_status_t HSA_API hsa_amd_queue_wait_external_semaphore(hsa_queue_t *queue,
	hsa_amd_external_semaphore_t sem, uint64_t value);

/* ---- system events ------------------------------------------------------ */

typedef enum hsa_amd_event_type_s {
	HSA_AMD_GPU_MEMORY_FAULT_EVENT = 0,
	HSA_AMD_GPU_HW_EXCEPTION_EVENT = 1,
	HSA_AMD_GPU_MEMORY_ERROR_EVENT = 2,
	HSA_AMD_SYSTEM_SHUTDOWN_EVENT = 3  /* no payload */
} hsa_amd_event_type_t;

/* Bits of fault_reason_mask. */
typedef enum {
	HSA_AMD_MEMORY_FAULT_PAGE_NOT_PRESENT = 1 << 0,
	HSA_AMD_MEMORY_FAULT_READ_ONLY = 1 << 1,
	HSA_AMD_MEMORY_FAULT_NX = 1 << 2,
	HSA_AMD_MEMORY_FAULT_HOST_ONLY = 1 << 3,
	HSA_AMD_MEMORY_FAULT_DRAMECC = 1 << 4,
	HSA_AMD_MEMORY_FAULT_IMPRECISE = 1 << 5,
	HSA_AMD_MEMORY_FAULT_SRAMECC = 1 << 6,
	/* bit 31; spelled so that it is a valid int constant */
	HSA_AMD_MEMORY_FAULT_HANG = -0x7fffffff - 1
} hsa_amd_memory_fault_reason_t;

typedef struct hsa_amd_gpu_memory_fault_info_s {
	hsa_agent_t agent;
	uint64_t virtual_address;
	uint32_t fault_reason_mask;
} hsa_amd_gpu_memory_fault_info_t;

/* Bits of memory_error's error_reason_mask. */
typedef enum {
	HSA_AMD_MEMORY_ERROR_MEMORY_IN_USE = (1 << 0)
} hsa_amd_memory_error_reason_t;

typedef struct hsa_amd_gpu_memory_error_info_s {
	hsa_agent_t agent;
	uint64_t virtual_address;
	uint32_t error_reason_mask;
} hsa_amd_gpu_memory_error_info_t;

typedef enum {
	HSA_AMD_HW_EXCEPTION_RESET_TYPE_OTHER = 1 << 0
} hsa_amd_hw_exception_reset_type_t;

typedef enum {
	HSA_AMD_HW_EXCEPTION_CAUSE_GPU_HANG = 1 << 0,
	HSA_AMD_HW_EXCEPTION_CAUSE_ECC = 1 << 1
} hsa_amd_hw_exception_reset_cause_t;

typedef struct hsa_amd_gpu_hw_exception_info_s {
	hsa_agent_t agent;
	hsa_amd_hw_exception_reset_type_t reset_type;
	hsa_amd_hw_exception_reset_cause_t reset_cause;
} hsa_amd_gpu_hw_exception_info_t;

/* The union's largest member is 5.2.3's memory_fault: the size is kept. */
typedef struct hsa_amd_event_s {
	hsa_amd_event_type_t event_type;
	__extension__ union {
		hsa_amd_gpu_memory_fault_info_t memory_fault;
		hsa_amd_gpu_hw_exception_info_t hw_exception;
		hsa_amd_gpu_memory_error_info_t memory_error;
	};
} hsa_amd_event_t;

typedef hsa_status_t (*hsa_amd_system_event_callback_t)(const hsa_amd_event_t *event, void *data);

hsa_status_t HSA_API hsa_amd_register_system_event_handler(
	hsa_amd_system_event_callback_t callback, void *data);

/* ---- queue priority ----------------------------------------------------- */

typedef enum hsa_amd_queue_priority_s {
	HSA_AMD_QUEUE_PRIORITY_LOW = 0,
	HSA_AMD_QUEUE_PRIORITY_NORMAL = 1,
	HSA_AMD_QUEUE_PRIORITY_HIGH = 2
} hsa_amd_queue_priority_t;

hsa_status_t HSA_API hsa_amd_queue_set_priority(hsa_queue_t *queue,
	hsa_amd_queue_priority_t priority);

/* Where hsa_queue_create's flags put a queue's ring and descriptor. */
typedef enum {
	HSA_AMD_QUEUE_CREATE_SYSTEM_MEM = 0,
	HSA_AMD_QUEUE_CREATE_DEVICE_MEM_RING_BUF = (1 << 0),
	HSA_AMD_QUEUE_CREATE_DEVICE_MEM_QUEUE_DESCRIPTOR = (1 << 1)
} hsa_amd_queue_create_flag_t;

/* ---- descriptor queue creation (interface 1.26) -------------------------- */

/* The engine a queue feeds; 0, compute, is what a zeroed descriptor asks. */
typedef enum {
	HSA_AMD_QUEUE_ENGINE_COMPUTE = 0, /* an AQL queue */
	HSA_AMD_QUEUE_ENGINE_SDMA = 1,    /* a copy queue the application writes */
	HSA_AMD_QUEUE_ENGINE_AIE = 2      /* reserved: creation is refused */
} hsa_amd_queue_engine_t;

/* sdma_engine_id: let the runtime pick the engine. */
#define HSA_AMD_SDMA_ENGINE_ID_ANY UINT32_MAX
/* The one descriptor version defined. */
#define HSA_AMD_QUEUE_CREATE_DESC_VERSION 1
/* private_segment_size: the runtime's default (hsa_queue_create's UINT32_MAX). */
#define HSA_AMD_PRIVATE_SEGMENT_SIZE_DEFAULT UINT32_MAX

typedef struct hsa_amd_compute_queue_params_s {
	const uint32_t *cu_mask;       /* NULL when cu_mask_count is 0 */
	hsa_queue_type32_t type;       /* MULTI, SINGLE or COOPERATIVE */
	uint32_t private_segment_size; /* bytes per work-item, or the DEFAULT */
	uint32_t cu_mask_count;        /* bits, a multiple of 32; 0: every CU */
	uint32_t reserved[3];          /* 0 */
} hsa_amd_compute_queue_params_t;

typedef struct hsa_amd_sdma_queue_params_s {
	uint32_t sdma_engine_id;       /* an index below the agent's SDMA
	                                * engine count, or HSA_AMD_SDMA_ENGINE_ID_ANY */
	uint32_t reserved[7];          /* 0 */
} hsa_amd_sdma_queue_params_t;

typedef struct hsa_amd_aie_queue_params_s {
	uint32_t reserved[8];          /* 0 */
} hsa_amd_aie_queue_params_t;

/* 96 bytes on LP64: a common header, one arm of the engine union (32 bytes),
 * then reserved bytes that must be 0. */
typedef struct hsa_amd_queue_create_desc_s {
	uint16_t version;              /* HSA_AMD_QUEUE_CREATE_DESC_VERSION */
	uint16_t flags;                /* hsa_amd_queue_create_flag_t bits */
	uint8_t engine_type;           /* hsa_amd_queue_engine_t */
	uint8_t reserved_header[3];    /* 0 */
	uint32_t queue_size_bytes;     /* a power of 2 (a multiple of 64 for AQL) */
	hsa_amd_queue_priority_t priority;
	void (*callback)(hsa_status_t status, hsa_queue_t *source, void *data);
	void *callback_data;
	hsa_queue_t *queue;            /* out: the queue, or NULL on failure */
	union {
		hsa_amd_compute_queue_params_t compute;
		hsa_amd_sdma_queue_params_t sdma;
		hsa_amd_aie_queue_params_t aie;
		uint8_t reserved[32];
	} engine;
	uint32_t traffic_class;        /* reserved: 0 */
	uint8_t reserved[20];          /* 0 */
} hsa_amd_queue_create_desc_t;

/* Creates num_descs queues on agent, each written to its descs[i].queue;
 * the ones made before a failure stay, the status is the first error. */
hsa_status_t HSA_API hsa_amd_queue_create(hsa_agent_t agent,
	hsa_amd_queue_create_desc_t *descs, uint32_t num_descs);

typedef enum {
	HSA_AMD_QUEUE_INFO_AGENT = 0,       /* hsa_agent_t the queue was created on */
	HSA_AMD_QUEUE_INFO_DOORBELL_ID = 1, /* uint64_t: the address of its doorbell */
	/* uint32_t: users of a counted queue's hardware queue; int32_t -1 for
	 * a queue hsa_amd_counted_queue_acquire did not return */
	HSA_QUEUE_INFO_USE_COUNT = 2,
	/* uint32_t: the hardware queue's id (equal ids, one hardware queue) */
	HSA_QUEUE_INFO_HW_ID = 3,
	/* uint8_t each: versions of the metadata prefetch packets, 0xFF when
	 * the queue has no metadata ring */
	HSA_AMD_QUEUE_INFO_PREFETCH_METADATA_DISPATCH_PKT_VERSION_MAJOR = 4,
	HSA_AMD_QUEUE_INFO_PREFETCH_METADATA_DISPATCH_PKT_VERSION_MINOR = 5,
	HSA_AMD_QUEUE_INFO_PREFETCH_METADATA_BARRIER_PKT_VERSION_MAJOR = 6,
	HSA_AMD_QUEUE_INFO_PREFETCH_METADATA_BARRIER_PKT_VERSION_MINOR = 7,
	HSA_AMD_QUEUE_INFO_PREFETCH_METADATA_RING_BUFFER = 8, /* uint64_t address */
	HSA_AMD_QUEUE_INFO_PROPERTIES = 9,  /* uint8_t[8] bit array */
	/* interface 1.22: the queue's VM fault, after a GPU memory fault */
	HSA_AMD_QUEUE_INFO_VM_FAULT_STATUS = 10,  /* bool */
	HSA_AMD_QUEUE_INFO_VM_FAULT_ADDRESS = 11, /* uint64_t, when STATUS */
	HSA_AMD_QUEUE_INFO_VM_FAULT_REASON = 12,  /* uint32_t HSA_AMD_MEMORY_FAULT_*
	                                           * bits, when STATUS */
	/* interface 1.30 */
	HSA_AMD_QUEUE_INFO_ENGINE_TYPE = 13,      /* hsa_amd_queue_engine_t */
	HSA_AMD_QUEUE_INFO_SDMA_ENGINE_ID = 14,   /* uint32_t, SDMA queues only */
	/* interface 1.31: uint64_t addresses of the monotonic indices */
	HSA_AMD_QUEUE_INFO_READ_POINTER = 15,
	HSA_AMD_QUEUE_INFO_WRITE_POINTER = 16
} hsa_queue_info_attribute_t;

hsa_status_t HSA_API hsa_amd_queue_get_info(hsa_queue_t *queue,
	hsa_queue_info_attribute_t attribute, void *value);

/* ---- deallocation callbacks --------------------------------------------- */

typedef void (*hsa_amd_deallocation_callback_t)(void *ptr, void *user_data);

/* callback runs when the allocation containing ptr is freed. */
hsa_status_t HSA_API hsa_amd_register_deallocation_callback(void *ptr,
	hsa_amd_deallocation_callback_t callback, void *user_data);
hsa_status_t HSA_API hsa_amd_deregister_deallocation_callback(void *ptr,
	hsa_amd_deallocation_callback_t callback);

/* ---- shared virtual memory ---------------------------------------------- */

typedef enum hsa_amd_svm_model_s {
	HSA_AMD_SVM_GLOBAL_FLAG_FINE_GRAINED = 0,
	HSA_AMD_SVM_GLOBAL_FLAG_COARSE_GRAINED = 1,
	HSA_AMD_SVM_GLOBAL_FLAG_INDETERMINATE = 2
} hsa_amd_svm_model_t;

typedef enum hsa_amd_svm_attribute_s {
	HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG = 0,
	HSA_AMD_SVM_ATTRIB_READ_ONLY = 1,
	HSA_AMD_SVM_ATTRIB_HIVE_LOCAL = 2,
	HSA_AMD_SVM_ATTRIB_MIGRATION_GRANULARITY = 3,
	HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION = 4,
	HSA_AMD_SVM_ATTRIB_PREFETCH_LOCATION = 5,
	HSA_AMD_SVM_ATTRIB_READ_MOSTLY = 6,
	HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE = 0x200,
	HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE_IN_PLACE = 0x201,
	HSA_AMD_SVM_ATTRIB_AGENT_NO_ACCESS = 0x202,
	HSA_AMD_SVM_ATTRIB_ACCESS_QUERY = 0x203
} hsa_amd_svm_attribute_t;

typedef struct hsa_amd_svm_attribute_pair_s {
	uint64_t attribute; /* hsa_amd_svm_attribute_t */
	uint64_t value;
} hsa_amd_svm_attribute_pair_t;

hsa_status_t HSA_API hsa_amd_svm_attributes_set(void *ptr, size_t size,
	hsa_amd_svm_attribute_pair_t *attribute_list, size_t attribute_count);
hsa_status_t HSA_API hsa_amd_svm_attributes_get(void *ptr, size_t size,
	hsa_amd_svm_attribute_pair_t *attribute_list, size_t attribute_count);
hsa_status_t HSA_API hsa_amd_svm_prefetch_async(void *ptr, size_t size, hsa_agent_t agent,
	uint32_t num_dep_signals, const hsa_signal_t *dep_signals, hsa_signal_t completion_signal);

/* ---- stream performance monitor ----------------------------------------- */

hsa_status_t HSA_API hsa_amd_spm_acquire(hsa_agent_t preferred_agent);
hsa_status_t HSA_API hsa_amd_spm_release(hsa_agent_t preferred_agent);
/* timeout: in/out, milliseconds. */
hsa_status_t HSA_API hsa_amd_spm_set_dest_buffer(hsa_agent_t preferred_agent,
	size_t size_in_bytes, uint32_t *timeout, uint32_t *size_copied, void *dest,
	bool *is_data_loss);

/* ---- dma-buf export ----------------------------------------------------- */

/*
 * A dma-buf fd for [ptr, ptr + size), which must lie inside one GPU
 * allocation; *offset is ptr's offset in the exported buffer.  The fd is
 * the caller's (hsa_amd_portable_close_dmabuf or close).
 */
hsa_status_t HSA_API hsa_amd_portable_export_dmabuf(const void *ptr, size_t size, int *dmabuf,
	uint64_t *offset);
/* flags: hsa_amd_dma_buf_mapping_type_t. */
hsa_status_t HSA_API hsa_amd_portable_export_dmabuf_v2(const void *ptr, size_t size,
	int *dmabuf, uint64_t *offset, uint64_t flags);
hsa_status_t HSA_API hsa_amd_portable_close_dmabuf(int dmabuf);

/* ---- virtual memory (ROCr 1.18) ------------------------------------------ */

typedef enum hsa_amd_vmem_address_reserve_flag_s {
	HSA_AMD_VMEM_ADDRESS_NO_REGISTER = (1 << 0)
} hsa_amd_vmem_address_reserve_flag_t;

typedef struct hsa_amd_vmem_alloc_handle_s {
	uint64_t handle;
} hsa_amd_vmem_alloc_handle_t;

typedef enum {
	MEMORY_TYPE_NONE,
	MEMORY_TYPE_PINNED
} hsa_amd_memory_type_t;

typedef struct hsa_amd_memory_access_desc_s {
	hsa_access_permission_t permissions;
	hsa_agent_t agent_handle;
} hsa_amd_memory_access_desc_t;

hsa_status_t HSA_API hsa_amd_vmem_address_reserve(void **va, size_t size, uint64_t address,
	uint64_t flags);
hsa_status_t HSA_API hsa_amd_vmem_address_reserve_align(void **va, size_t size,
	uint64_t address, uint64_t alignment, uint64_t flags);
hsa_status_t HSA_API hsa_amd_vmem_address_free(void *va, size_t size);
hsa_status_t HSA_API hsa_amd_vmem_handle_create(hsa_amd_memory_pool_t pool, size_t size,
	hsa_amd_memory_type_t type, uint64_t flags, hsa_amd_vmem_alloc_handle_t *memory_handle);
hsa_status_t HSA_API hsa_amd_vmem_handle_release(hsa_amd_vmem_alloc_handle_t memory_handle);
hsa_status_t HSA_API hsa_amd_vmem_map(void *va, size_t size, size_t in_offset,
	hsa_amd_vmem_alloc_handle_t memory_handle, uint64_t flags);
hsa_status_t HSA_API hsa_amd_vmem_unmap(void *va, size_t size);
hsa_status_t HSA_API hsa_amd_vmem_set_access(void *va, size_t size,
	const hsa_amd_memory_access_desc_t *desc, size_t desc_cnt);
hsa_status_t HSA_API hsa_amd_vmem_get_access(void *va, hsa_access_permission_t *perms,
	hsa_agent_t agent_handle);
hsa_status_t HSA_API hsa_amd_vmem_export_shareable_handle(int *dmabuf_fd,
	hsa_amd_vmem_alloc_handle_t handle, uint64_t flags);
hsa_status_t HSA_API hsa_amd_vmem_import_shareable_handle(int dmabuf_fd,
	hsa_amd_vmem_alloc_handle_t *handle);
hsa_status_t HSA_API hsa_amd_vmem_retain_alloc_handle(hsa_amd_vmem_alloc_handle_t *memory_handle,
	void *addr);
hsa_status_t HSA_API hsa_amd_vmem_get_alloc_properties_from_handle(
	hsa_amd_vmem_alloc_handle_t memory_handle, hsa_amd_memory_pool_t *pool,
	hsa_amd_memory_type_t *type);

/* ---- fabric handles (interface 1.25) ------------------------------------ */

/*
 * A memory handle named across a memory fabric: 16 opaque bytes, passed by
 * value, that another process (or node) imports.  Exporting needs a GPU
 * and a kernel with a memory fabric; without one the export answers
 * HSA_STATUS_ERROR (docs/differences.md, "fabric handles").  flags must be
 * 0 (unused).
 */
typedef struct hsa_fabric_handle_s {
	uint8_t handle[16];
} hsa_fabric_handle_t;

hsa_status_t HSA_API hsa_amd_vmem_export_fabric_handle(hsa_fabric_handle_t *fabric_handle,
	hsa_amd_vmem_alloc_handle_t handle, uint64_t flags);
hsa_status_t HSA_API hsa_amd_vmem_import_fabric_handle(hsa_fabric_handle_t fabric_handle,
	hsa_amd_vmem_alloc_handle_t *handle);

/* ---- scratch and logging ------------------------------------------------ */

/*
 * Dispatches needing more scratch than threshold bytes get it for their own
 * run only (use-once); see HSA_AMD_AGENT_INFO_SCRATCH_LIMIT_*.
 */
hsa_status_t HSA_API hsa_amd_agent_set_async_scratch_limit(hsa_agent_t agent, size_t threshold);

/* Bit numbers in the uint8_t[8] flags of hsa_amd_enable_logging. */
typedef enum hsa_amd_log_flag_s {
	HSA_AMD_LOG_FLAG_BLIT_KERNEL_PKTS = 0, /* the AQL packets of the runtime's blit queues */
	HSA_AMD_LOG_FLAG_AQL = 0,              /* the newer name of bit 0 */
	HSA_AMD_LOG_FLAG_SDMA = 1,             /* SDMA packets */
	HSA_AMD_LOG_FLAG_INFO = 2              /* informational messages */
} hsa_amd_log_flag_t;

/* flags: uint8_t[8] bit array; file: a FILE * (NULL: stderr). */
hsa_status_t HSA_API hsa_amd_enable_logging(uint8_t *flags, void *file);

/* ---- AMD's interface 1.14 to 1.21 ---------------------------------------- */

/* Bits of hsa_amd_agent_preload's flags: the resources not to set up. */
typedef enum hsa_amd_agent_preload_flag_s {
	HSA_AMD_AGENT_PRELOAD_SKIP_CLOCK_SYNC = (1 << 0),
	HSA_AMD_AGENT_PRELOAD_SKIP_BLITS = (1 << 1)
} hsa_amd_agent_preload_flag_t;

/*
 * A performance hint (1.19): set up now what the GPU agent would otherwise
 * set up on first use (its blit kernels and queues, the clock pairing used
 * to convert its ticks), less what flags skip.  INVALID_AGENT for a CPU.
 */
hsa_status_t HSA_API hsa_amd_agent_preload(hsa_agent_t agent, uint64_t flags);

/* The KFD event behind a signal (1.21); 0 when no event backs it. */
hsa_status_t HSA_API hsa_amd_signal_get_event_id(hsa_signal_t signal, uint32_t *event_id);

/* ---- batched copies (1.17) ---------------------------------------------- */

typedef enum {
	HSA_AMD_MEMORY_COPY_OP_LINEAR = 0,               /* one copy, or num_entries copies */
	HSA_AMD_MEMORY_COPY_OP_LINEAR_BROADCAST = 1,     /* one source, num_entries destinations */
	HSA_AMD_MEMORY_COPY_OP_LINEAR_SWAP = 2,          /* exchange src and dst */
	HSA_AMD_MEMORY_COPY_OP_LINEAR_INDIRECT_SRC = 3,  /* src is a void ** read at copy time */
	HSA_AMD_MEMORY_COPY_OP_LINEAR_INDIRECT_DST = 4,  /* dst is a void ** read at copy time */
	HSA_AMD_MEMORY_COPY_OP_LINEAR_INDIRECT_SRCDST = 5
} hsa_amd_memory_copy_op_type_t;

/* Comparison of a copy's wait-before-copy: (*addr & mask) <op> value. */
typedef enum {
	HSA_AMD_MEMORY_COPY_WAIT_ALWAYS = 0, /* no wait */
	HSA_AMD_MEMORY_COPY_WAIT_LT = 1,
	HSA_AMD_MEMORY_COPY_WAIT_LE = 2,
	HSA_AMD_MEMORY_COPY_WAIT_EQ = 3,
	HSA_AMD_MEMORY_COPY_WAIT_NE = 4,
	HSA_AMD_MEMORY_COPY_WAIT_GE = 5,
	HSA_AMD_MEMORY_COPY_WAIT_GT = 6
} hsa_amd_memory_copy_wait_function_t;

/* A copy's signal-after-copy: a 64-bit atomic on addr with data. */
typedef enum {
	HSA_AMD_MEMORY_COPY_SIGNAL_NONE = 0,
	HSA_AMD_MEMORY_COPY_SIGNAL_WRITE = 1,
	HSA_AMD_MEMORY_COPY_SIGNAL_ADD = 2,
	HSA_AMD_MEMORY_COPY_SIGNAL_SUB = 3
} hsa_amd_memory_copy_signal_op_t;

/* The only hsa_amd_memory_copy_op_t.version there is. */
#define HSA_AMD_MEMORY_COPY_OP_VERSION 1

/*
 * One operation of hsa_amd_memory_async_batch_copy (128 bytes).  Which
 * member of each union counts depends on type and num_entries: LINEAR
 * with num_entries 0 uses src, dst, size; LINEAR with num_entries > 0
 * (at most 1024) src_list, dst_list, dst_agent_list, size_list;
 * BROADCAST src, dst_list, dst_agent_list, size; SWAP with num_entries 0
 * src, dst, src_size, dst_size.  Reserved fields must be 0.
 */
typedef struct hsa_amd_memory_copy_op_s {
	uint16_t version;       /* HSA_AMD_MEMORY_COPY_OP_VERSION */
	uint16_t type;          /* hsa_amd_memory_copy_op_type_t */
	uint16_t num_entries;
	uint16_t traffic_class; /* 0: unspecified */
	hsa_signal_t completion_signal;
	__extension__ union {
		void *src;
		void **src_list;
	};
	__extension__ union {
		hsa_agent_t src_agent;
		hsa_agent_t *src_agent_list; /* reserved */
	};
	__extension__ union {
		hsa_agent_t dst_agent;
		hsa_agent_t *dst_agent_list;
	};
	__extension__ union {
		void *dst;
		void **dst_list;
	};
	__extension__ union {
		__extension__ struct {
			size_t size;
			size_t unused_size; /* 0 */
		};
		__extension__ struct {
			size_t src_size; /* SWAP */
			size_t dst_size;
		};
		__extension__ struct {
			size_t *size_list; /* LINEAR with num_entries > 0 */
			size_t reserved0;
		};
	};
	struct {
		uint16_t function; /* hsa_amd_memory_copy_wait_function_t */
		uint16_t scope;    /* hsa_fence_scope_t */
		uint32_t reserved;
		void *addr;
		uint64_t value;
		uint64_t mask;
	} wait;
	struct {
		uint16_t operation; /* hsa_amd_memory_copy_signal_op_t */
		uint16_t scope;     /* hsa_fence_scope_t */
		uint32_t reserved;
		void *addr;
		uint64_t data;
	} signal;
	uint64_t reserved1[1];
} hsa_amd_memory_copy_op_t;

/*
 * Submit num_copy_ops operations, each to start once every dep_signal
 * reads 0.  They share one completion signal, which the caller sets to
 * num_copy_ops and each finished operation decrements.
 */
hsa_status_t HSA_API hsa_amd_memory_async_batch_copy(const hsa_amd_memory_copy_op_t *copy_ops,
	uint32_t num_copy_ops, uint32_t num_dep_signals, const hsa_signal_t *dep_signals);

/* ---- SVM discard (1.20) ------------------------------------------------- */

/*
 * Let the system reclaim the pages behind count ranges of
 * hsa_amd_vmem_address_reserve'd memory once the dep_signals read 0;
 * completion_signal (may be 0) is decremented when done.  Needs XNACK.
 */
hsa_status_t HSA_API hsa_amd_svm_discard_batch_async(void **ptrs, size_t *sizes, uint32_t count,
	uint32_t num_dep_signals, const hsa_signal_t *dep_signals, hsa_signal_t completion_signal);

/* ---- AIS file I/O (1.14, experimental) ---------------------------------- */

/* A file for the AIS calls: on Linux, fd.  (__extension__: a struct whose
 * only member is an anonymous union, as AMD declares it.) */
__extension__ typedef struct hsa_amd_ais_file_handle_s {
	union {
		void *handle;
		int fd;
		uint8_t pad[8];
	};
} hsa_amd_ais_file_handle_t;

hsa_status_t HSA_API hsa_amd_ais_file_write(hsa_amd_ais_file_handle_t handle, void *devicePtr,
	uint64_t size, int64_t file_offset, uint64_t *size_copied, int32_t *status);
hsa_status_t HSA_API hsa_amd_ais_file_read(hsa_amd_ais_file_handle_t handle, void *devicePtr,
	uint64_t size, int64_t file_offset, uint64_t *size_copied, int32_t *status);

/* ---- counted queues (1.16) ---------------------------------------------- */

/*
 * A queue handle of its own on a hardware queue that may be shared: per
 * agent and priority, a new hardware queue while fewer than
 * GPU_MAX_HW_QUEUES exist, else the least used one.  type must be
 * HSA_QUEUE_TYPE_MULTI.  Each handle is released once with
 * hsa_amd_counted_queue_release (not hsa_queue_destroy); the hardware
 * queues live until hsa_shut_down.
 */
hsa_status_t HSA_API hsa_amd_counted_queue_acquire(hsa_agent_t agent, hsa_queue_type_t type,
	hsa_amd_queue_priority_t priority,
	void (*callback)(hsa_status_t status, hsa_queue_t *source, void *data), void *data,
	uint64_t flags, hsa_queue_t **queue);
hsa_status_t HSA_API hsa_amd_counted_queue_release(hsa_queue_t *queue);

#ifdef __cplusplus
} /* extern "C" */
#endif

#ifdef HSA_LARGE_MODEL
HSA_LAYOUT_ASSERT_(sizeof(hsa_amd_barrier_value_packet_t) == 64, "AQL packets are 64 bytes");
HSA_LAYOUT_ASSERT_(offsetof(hsa_amd_barrier_value_packet_t, signal) == 8, "barrier-value.signal");
HSA_LAYOUT_ASSERT_(offsetof(hsa_amd_barrier_value_packet_t, value) == 16, "barrier-value.value");
HSA_LAYOUT_ASSERT_(offsetof(hsa_amd_barrier_value_packet_t, mask) == 24, "barrier-value.mask");
HSA_LAYOUT_ASSERT_(offsetof(hsa_amd_barrier_value_packet_t, cond) == 32, "barrier-value.cond");
HSA_LAYOUT_ASSERT_(offsetof(hsa_amd_barrier_value_packet_t, completion_signal) == 56,
		   "barrier-value.completion_signal");
HSA_LAYOUT_ASSERT_(sizeof(hsa_amd_memory_copy_op_t) == 128, "batch copy operation");
HSA_LAYOUT_ASSERT_(offsetof(hsa_amd_memory_copy_op_t, wait) == 64, "copy_op.wait");
HSA_LAYOUT_ASSERT_(offsetof(hsa_amd_memory_copy_op_t, signal) == 96, "copy_op.signal");
HSA_LAYOUT_ASSERT_(sizeof(hsa_amd_pointer_info_t) == 64, "pointer info, interface 1.18");
#endif

#endif /* HSA_RUNTIME_EXT_AMD_H_ */
