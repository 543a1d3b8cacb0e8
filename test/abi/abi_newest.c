/*
 * The additions of ROCr 1.18's and AMD's newest public headers that ROCr
 * 5.2.3's headers (abi_rocr_headers' reference) do not have: every new
 * enumerator, the layout of every new struct and the type of every new
 * function, pinned at compile time to the values in
 * rocm-systems projects/rocr-runtime/runtime/hsa-runtime/inc (develop,
 * 2025): a header edit that changes one fails the build of this test.
 * The run checks the same table again, so ctest shows what was pinned.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "hl_check.h"
#include "hsa/hsa.h"
#include "hsa/hsa_ext_amd.h"
#include "hsa/hsa_ext_image.h"
#include "hsa/hsa_ven_amd_pc_sampling.h"

#define PIN(expr, value) _Static_assert((expr) == (value), #expr " == " #value)

/* hsa.h */
PIN(HSA_ACCESS_PERMISSION_NONE, 0);
PIN(HSA_AMD_SYSTEM_INFO_MWAITX_ENABLED, 0x203);
PIN(HSA_AMD_SYSTEM_INFO_DMABUF_SUPPORTED, 0x204);
PIN(HSA_AMD_SYSTEM_INFO_VIRTUAL_MEM_API_SUPPORTED, 0x205);
PIN(HSA_AMD_SYSTEM_INFO_XNACK_ENABLED, 0x206);
PIN(HSA_AMD_SYSTEM_INFO_EXT_VERSION_MAJOR, 0x207);
PIN(HSA_AMD_SYSTEM_INFO_EXT_VERSION_MINOR, 0x208);
PIN(HSA_AMD_SYSTEM_INFO_FABRIC_HANDLES_SUPPORTED, 0x209);
PIN(HSA_AMD_SYSTEM_INFO_HOST_ALLOC_DMA_BUF_SUPPORTED, 0x20A);
PIN(HSA_EXTENSION_AMD_PC_SAMPLING, 0x203);
PIN(HSA_AMD_LAST_EXTENSION, 0x203);
PIN(HSA_DEVICE_TYPE_AIE, 3);
PIN(HSA_REGION_GLOBAL_FLAG_EXTENDED_SCOPE_FINE_GRAINED, 8);
PIN(HSA_CODE_SYMBOL_INFO_KERNEL_WAVEFRONT_SIZE, 19);

/* hsa_ext_amd.h: agent attributes up to CLOCK_COUNTERS */
PIN(HSA_AMD_AGENT_INFO_MEMORY_AVAIL, 0xA015);
PIN(HSA_AMD_AGENT_INFO_TIMESTAMP_FREQUENCY, 0xA016);
PIN(HSA_AMD_AGENT_INFO_ASIC_FAMILY_ID, 0xA107);
PIN(HSA_AMD_AGENT_INFO_UCODE_VERSION, 0xA108);
PIN(HSA_AMD_AGENT_INFO_SDMA_UCODE_VERSION, 0xA109);
PIN(HSA_AMD_AGENT_INFO_NUM_SDMA_ENG, 0xA10A);
PIN(HSA_AMD_AGENT_INFO_NUM_SDMA_XGMI_ENG, 0xA10B);
PIN(HSA_AMD_AGENT_INFO_IOMMU_SUPPORT, 0xA110);
PIN(HSA_AMD_AGENT_INFO_NUM_XCC, 0xA111);
PIN(HSA_AMD_AGENT_INFO_DRIVER_UID, 0xA112);
PIN(HSA_AMD_AGENT_INFO_NEAREST_CPU, 0xA113);
PIN(HSA_AMD_AGENT_INFO_MEMORY_PROPERTIES, 0xA114);
PIN(HSA_AMD_AGENT_INFO_AQL_EXTENSIONS, 0xA115);
PIN(HSA_AMD_AGENT_INFO_SCRATCH_LIMIT_MAX, 0xA116);
PIN(HSA_AMD_AGENT_INFO_SCRATCH_LIMIT_CURRENT, 0xA117);
PIN(HSA_AMD_AGENT_INFO_CLOCK_COUNTERS, 0xA118);
/* and after it (the newest header, interface 1.31) */
PIN(HSA_AMD_AGENT_INFO_PM4_EMULATION, 0xA119);
PIN(HSA_AMD_AGENT_INFO_LUID, 0xA11A);
PIN(HSA_AMD_AGENT_INFO_HAS_EXPERT_SCHED_MODE, 0xA11B);
PIN(HSA_AMD_AGENT_INFO_CUID, 0xA11C);
PIN(HSA_AMD_AGENT_INFO_KERNEL_WG_MAX_SIZE, 0xA11D);
PIN(HSA_AMD_AGENT_INFO_KERNEL_CLUSTER_MAX_DIM, 0xA11E);
PIN(HSA_AMD_AGENT_INFO_KERNEL_CLUSTER_MAX_SIZE, 0xA11F);
PIN(HSA_AMD_AGENT_INFO_CLUSTER_MAX_DIM, 0xA120);
PIN(HSA_AMD_AGENT_INFO_CLUSTER_MAX_SIZE, 0xA121);
PIN(HSA_AMD_AGENT_INFO_KERNEL_WG_MAX_DIM, 0xA122);
PIN(HSA_AMD_AGENT_INFO_MAX_DATA_PREFETCH_REGIONS, 0xA123);
PIN(HSA_AMD_AGENT_INFO_HOST_ALLOC_DMABUF_SUPPORTED, 0xA124);
PIN(sizeof(hsa_amd_dim3_t), 24);
PIN(sizeof(hsa_luid_t), 8);
PIN(offsetof(hsa_luid_t, high), 4);
PIN(offsetof(hsa_amd_dim3_t, y), 8);
PIN(offsetof(hsa_amd_dim3_t, z), 16);
PIN(HSA_AMD_INTERFACE_VERSION_MAJOR, 1);
PIN(HSA_AMD_INTERFACE_VERSION_MINOR, 31);
PIN(HSA_IOMMU_SUPPORT_NONE, 0);
PIN(HSA_IOMMU_SUPPORT_V2, 1);
PIN(HSA_AMD_MEMORY_PROPERTY_AGENT_IS_APU, 1);
PIN(sizeof(hsa_amd_clock_counters_t), 32);
PIN(offsetof(hsa_amd_clock_counters_t, gpu_clock_counter), 0);
PIN(offsetof(hsa_amd_clock_counters_t, cpu_clock_counter), 8);
PIN(offsetof(hsa_amd_clock_counters_t, system_clock_counter), 16);
PIN(offsetof(hsa_amd_clock_counters_t, system_clock_frequency), 24);

/* copy engines */
PIN(HSA_AMD_SDMA_ENGINE_0, 0x1);
PIN(HSA_AMD_SDMA_ENGINE_1, 0x2);
PIN(HSA_AMD_SDMA_ENGINE_2, 0x4);
PIN(HSA_AMD_SDMA_ENGINE_7, 0x80);
PIN(HSA_AMD_SDMA_ENGINE_15, 0x8000);
PIN(sizeof(hsa_amd_sdma_engine_id_t), 4);

/* pools */
PIN(HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_EXTENDED_SCOPE_FINE_GRAINED, 8);
PIN(HSA_AMD_MEMORY_POOL_LOCATION_CPU, 0);
PIN(HSA_AMD_MEMORY_POOL_LOCATION_GPU, 1);
PIN(HSA_AMD_MEMORY_POOL_INFO_LOCATION, 17);
PIN(HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_REC_GRANULE, 18);
PIN(HSA_AMD_MEMORY_POOL_STANDARD_FLAG, 0);
PIN(HSA_AMD_MEMORY_POOL_PCIE_FLAG, 1);
PIN(HSA_AMD_MEMORY_POOL_CONTIGUOUS_FLAG, 2);
PIN(HSA_AMD_MEMORY_POOL_EXECUTABLE_FLAG, 4);
PIN(HSA_AMD_MEMORY_POOL_UNCACHED_FLAG, 8);

/* pointer info, dma-buf */
PIN(HSA_EXT_POINTER_TYPE_RESERVED_ADDR, 5);
PIN(HSA_EXT_POINTER_TYPE_HSA_VMEM, 6);
/* interface 1.13's registered sits in 5.2.3's tail padding; 1.18's
 * alloc_flags grows the struct (its size field versions it) */
PIN(offsetof(hsa_amd_pointer_info_t, registered), 52);
PIN(offsetof(hsa_amd_pointer_info_t, alloc_flags), 56);
PIN(sizeof(hsa_amd_pointer_info_t), 64);
PIN(HSA_AMD_POINTER_INFO_ALLOC_FLAG_EXECUTABLE, 1);
PIN(HSA_AMD_POINTER_INFO_ALLOC_FLAG_CONTIGUOUS, 2);
PIN(HSA_AMD_POINTER_INFO_ALLOC_FLAG_NONPAGED, 4);
PIN(HSA_AMD_POINTER_INFO_ALLOC_FLAG_READONLY, 8);
PIN(HSA_AMD_POINTER_INFO_ALLOC_FLAG_HOST_ACCESS, 16);
PIN(HSA_AMD_POINTER_INFO_ALLOC_FLAG_ATOMIC_FULL, 32);
PIN(HSA_AMD_POINTER_INFO_ALLOC_FLAG_ATOMIC_PARTIAL, 64);
PIN(HSA_STATUS_ERROR_XNACK_DISABLED, 48);
PIN(HSA_AMD_DMABUF_MAPPING_TYPE_NONE, 0);
PIN(HSA_AMD_DMABUF_MAPPING_TYPE_PCIE, 1);

/* system events: the union grew members, not size */
PIN(HSA_AMD_GPU_MEMORY_FAULT_EVENT, 0);
PIN(HSA_AMD_GPU_HW_EXCEPTION_EVENT, 1);
PIN(HSA_AMD_GPU_MEMORY_ERROR_EVENT, 2);
PIN(HSA_AMD_SYSTEM_SHUTDOWN_EVENT, 3);
PIN(HSA_AMD_MEMORY_ERROR_MEMORY_IN_USE, 1);
PIN(HSA_AMD_HW_EXCEPTION_RESET_TYPE_OTHER, 1);
PIN(HSA_AMD_HW_EXCEPTION_CAUSE_GPU_HANG, 1);
PIN(HSA_AMD_HW_EXCEPTION_CAUSE_ECC, 2);
PIN(sizeof(hsa_amd_gpu_hw_exception_info_t), 16);
PIN(offsetof(hsa_amd_gpu_hw_exception_info_t, reset_type), 8);
PIN(offsetof(hsa_amd_gpu_hw_exception_info_t, reset_cause), 12);
PIN(sizeof(hsa_amd_gpu_memory_error_info_t), 24);
PIN(offsetof(hsa_amd_gpu_memory_error_info_t, virtual_address), 8);
PIN(offsetof(hsa_amd_gpu_memory_error_info_t, error_reason_mask), 16);
PIN(sizeof(hsa_amd_event_t), 32);
PIN(offsetof(hsa_amd_event_t, memory_fault), 8);
PIN(offsetof(hsa_amd_event_t, hw_exception), 8);
PIN(offsetof(hsa_amd_event_t, memory_error), 8);

/* queues, scratch, logging */
PIN(HSA_AMD_QUEUE_CREATE_SYSTEM_MEM, 0);
PIN(HSA_AMD_QUEUE_CREATE_DEVICE_MEM_RING_BUF, 1);
PIN(HSA_AMD_QUEUE_CREATE_DEVICE_MEM_QUEUE_DESCRIPTOR, 2);
PIN(HSA_AMD_QUEUE_INFO_AGENT, 0);
PIN(HSA_AMD_QUEUE_INFO_DOORBELL_ID, 1);
PIN(HSA_AMD_LOG_FLAG_BLIT_KERNEL_PKTS, 0);
PIN(HSA_AMD_LOG_FLAG_AQL, 0);
PIN(HSA_AMD_LOG_FLAG_SDMA, 1);
PIN(HSA_AMD_LOG_FLAG_INFO, 2);
PIN(HSA_QUEUE_INFO_USE_COUNT, 2);
PIN(HSA_QUEUE_INFO_HW_ID, 3);
PIN(HSA_AMD_QUEUE_INFO_PREFETCH_METADATA_DISPATCH_PKT_VERSION_MAJOR, 4);
PIN(HSA_AMD_QUEUE_INFO_PREFETCH_METADATA_BARRIER_PKT_VERSION_MINOR, 7);
PIN(HSA_AMD_QUEUE_INFO_PREFETCH_METADATA_RING_BUFFER, 8);
PIN(HSA_AMD_QUEUE_INFO_PROPERTIES, 9);

/* interface 1.14 to 1.21: preload, batch copy, discard, AIS, counted queues */
PIN(HSA_AMD_AGENT_PRELOAD_SKIP_CLOCK_SYNC, 1);
PIN(HSA_AMD_AGENT_PRELOAD_SKIP_BLITS, 2);
PIN(HSA_AMD_MEMORY_COPY_OP_LINEAR, 0);
PIN(HSA_AMD_MEMORY_COPY_OP_LINEAR_BROADCAST, 1);
PIN(HSA_AMD_MEMORY_COPY_OP_LINEAR_SWAP, 2);
PIN(HSA_AMD_MEMORY_COPY_OP_LINEAR_INDIRECT_SRC, 3);
PIN(HSA_AMD_MEMORY_COPY_OP_LINEAR_INDIRECT_DST, 4);
PIN(HSA_AMD_MEMORY_COPY_OP_LINEAR_INDIRECT_SRCDST, 5);
PIN(HSA_AMD_MEMORY_COPY_WAIT_ALWAYS, 0);
PIN(HSA_AMD_MEMORY_COPY_WAIT_GT, 6);
PIN(HSA_AMD_MEMORY_COPY_SIGNAL_NONE, 0);
PIN(HSA_AMD_MEMORY_COPY_SIGNAL_SUB, 3);
PIN(HSA_AMD_MEMORY_COPY_OP_VERSION, 1);
PIN(sizeof(hsa_amd_memory_copy_op_t), 128);
PIN(offsetof(hsa_amd_memory_copy_op_t, num_entries), 4);
PIN(offsetof(hsa_amd_memory_copy_op_t, traffic_class), 6);
PIN(offsetof(hsa_amd_memory_copy_op_t, completion_signal), 8);
PIN(offsetof(hsa_amd_memory_copy_op_t, src), 16);
PIN(offsetof(hsa_amd_memory_copy_op_t, src_list), 16);
PIN(offsetof(hsa_amd_memory_copy_op_t, src_agent), 24);
PIN(offsetof(hsa_amd_memory_copy_op_t, dst_agent), 32);
PIN(offsetof(hsa_amd_memory_copy_op_t, dst_agent_list), 32);
PIN(offsetof(hsa_amd_memory_copy_op_t, dst), 40);
PIN(offsetof(hsa_amd_memory_copy_op_t, size), 48);
PIN(offsetof(hsa_amd_memory_copy_op_t, unused_size), 56);
PIN(offsetof(hsa_amd_memory_copy_op_t, src_size), 48);
PIN(offsetof(hsa_amd_memory_copy_op_t, dst_size), 56);
PIN(offsetof(hsa_amd_memory_copy_op_t, size_list), 48);
PIN(offsetof(hsa_amd_memory_copy_op_t, wait), 64);
PIN(offsetof(hsa_amd_memory_copy_op_t, wait.addr), 72);
PIN(offsetof(hsa_amd_memory_copy_op_t, wait.value), 80);
PIN(offsetof(hsa_amd_memory_copy_op_t, wait.mask), 88);
PIN(offsetof(hsa_amd_memory_copy_op_t, signal), 96);
PIN(offsetof(hsa_amd_memory_copy_op_t, signal.addr), 104);
PIN(offsetof(hsa_amd_memory_copy_op_t, signal.data), 112);
PIN(offsetof(hsa_amd_memory_copy_op_t, reserved1), 120);
PIN(sizeof(hsa_amd_ais_file_handle_t), 8);
PIN(offsetof(hsa_amd_ais_file_handle_t, fd), 0);

/* virtual memory */
PIN(HSA_AMD_VMEM_ADDRESS_NO_REGISTER, 1);
PIN(MEMORY_TYPE_NONE, 0);
PIN(MEMORY_TYPE_PINNED, 1);
PIN(sizeof(hsa_amd_vmem_alloc_handle_t), 8);
PIN(sizeof(hsa_amd_memory_access_desc_t), 16);
PIN(offsetof(hsa_amd_memory_access_desc_t, agent_handle), 8);
/* fabric handles (interface 1.25, iree-org/hsa-runtime-headers 5caf436) */
PIN(sizeof(hsa_fabric_handle_t), 16);
PIN(offsetof(hsa_fabric_handle_t, handle), 0);
PIN(_Alignof(hsa_fabric_handle_t), 1);

/* images */
PIN(sizeof(hsa_ext_sampler_descriptor_v2_t), 20);
PIN(offsetof(hsa_ext_sampler_descriptor_v2_t, filter_mode), 4);
PIN(offsetof(hsa_ext_sampler_descriptor_v2_t, address_modes), 8);
PIN(sizeof(hsa_ext_images_1_pfn_t), 112);
PIN(offsetof(hsa_ext_images_1_pfn_t, hsa_ext_sampler_create_v2), 104);

/* images v2 and interop handles (interface 1.29; include/hsa of
 * iree-org/hsa-runtime-headers 5caf436, from rocm-systems 41e1945c) */
PIN(sizeof(hsa_ext_image_descriptor_v2_t), 56);
PIN(offsetof(hsa_ext_image_descriptor_v2_t, width), offsetof(hsa_ext_image_descriptor_t, width));
PIN(offsetof(hsa_ext_image_descriptor_v2_t, format), offsetof(hsa_ext_image_descriptor_t, format));
PIN(offsetof(hsa_ext_image_descriptor_v2_t, mipmap_levels), 48);
PIN(sizeof(hsa_handle_t), 4);
PIN(sizeof(hsa_interop_map_flag_t), 4);
PIN(HSA_INTEROP_MAP_FLAG_NONE, 0);
PIN(HSA_INTEROP_MAP_FLAG_KMT_HANDLE, 1);

/* PC sampling */
PIN(HSA_VEN_AMD_PCS_METHOD_HOSTTRAP_V1, 0);
PIN(HSA_VEN_AMD_PCS_METHOD_STOCHASTIC_V1, 1);
PIN(HSA_VEN_AMD_PCS_INTERVAL_UNITS_MICRO_SECONDS, 0);
PIN(HSA_VEN_AMD_PCS_INTERVAL_UNITS_CLOCK_CYCLES, 1);
PIN(HSA_VEN_AMD_PCS_INTERVAL_UNITS_INSTRUCTIONS, 2);
PIN(HSA_VEN_AMD_PCS_CONFIGURATION_FLAGS_INTERVAL_POWER_OF_2, 1);
PIN(sizeof(perf_sample_hosttrap_v1_t), 64);
PIN(offsetof(perf_sample_hosttrap_v1_t, hw_id), 32);
PIN(offsetof(perf_sample_hosttrap_v1_t, timestamp), 48);
PIN(offsetof(perf_sample_hosttrap_v1_t, correlation_id), 56);
PIN(sizeof(perf_sample_snapshot_v1_t), 64);
PIN(offsetof(perf_sample_snapshot_v1_t, perf_snapshot_data), 36);
PIN(offsetof(perf_sample_snapshot_v1_t, timestamp), 48);
PIN(sizeof(hsa_ven_amd_pcs_t), 8);
PIN(sizeof(hsa_ven_amd_pcs_configuration_t), 32);
PIN(offsetof(hsa_ven_amd_pcs_configuration_t, min_interval), 8);
PIN(offsetof(hsa_ven_amd_pcs_configuration_t, flags), 24);
PIN(sizeof(hsa_ven_amd_pc_sampling_1_00_pfn_t), 7 * sizeof(void *));

/*
 * Function types: each initialiser must convert without a cast, so the
 * declaration in our header has exactly the type written here (the
 * newest header's).
 */
static uint32_t (*const fn_wait_all)(uint32_t, hsa_signal_t *, hsa_signal_condition_t *,
				     hsa_signal_value_t *, uint64_t, hsa_wait_state_t,
				     hsa_signal_value_t *) = hsa_amd_signal_wait_all;
static hsa_status_t (*const fn_on_engine)(void *, hsa_agent_t, const void *, hsa_agent_t, size_t,
					  uint32_t, const hsa_signal_t *, hsa_signal_t,
					  hsa_amd_sdma_engine_id_t, bool) =
	hsa_amd_memory_async_copy_on_engine;
static hsa_status_t (*const fn_engine_status)(hsa_agent_t, hsa_agent_t, uint32_t *) =
	hsa_amd_memory_copy_engine_status;
static hsa_status_t (*const fn_preferred)(hsa_agent_t, hsa_agent_t, uint32_t *) =
	hsa_amd_memory_get_preferred_copy_engine;
static hsa_status_t (*const fn_export)(const void *, size_t, int *, uint64_t *) =
	hsa_amd_portable_export_dmabuf;
static hsa_status_t (*const fn_export_v2)(const void *, size_t, int *, uint64_t *, uint64_t) =
	hsa_amd_portable_export_dmabuf_v2;
static hsa_status_t (*const fn_close)(int) = hsa_amd_portable_close_dmabuf;
static hsa_status_t (*const fn_queue_info)(hsa_queue_t *, hsa_queue_info_attribute_t, void *) =
	hsa_amd_queue_get_info;
static hsa_status_t (*const fn_scratch)(hsa_agent_t, size_t) =
	hsa_amd_agent_set_async_scratch_limit;
static hsa_status_t (*const fn_logging)(uint8_t *, void *) = hsa_amd_enable_logging;
static hsa_status_t (*const fn_sampler_v2)(hsa_agent_t, const hsa_ext_sampler_descriptor_v2_t *,
					   hsa_ext_sampler_t *) = hsa_ext_sampler_create_v2;
static hsa_status_t (*const fn_spm_acquire)(hsa_agent_t) = hsa_amd_spm_acquire;
static hsa_status_t (*const fn_spm_release)(hsa_agent_t) = hsa_amd_spm_release;
static hsa_status_t (*const fn_spm_dest)(hsa_agent_t, size_t, uint32_t *, uint32_t *, void *,
					 bool *) = hsa_amd_spm_set_dest_buffer;
static hsa_status_t (*const fn_pcs_iterate)(hsa_agent_t,
					    hsa_ven_amd_pcs_iterate_configuration_callback_t,
					    void *) = hsa_ven_amd_pcs_iterate_configuration;
static hsa_status_t (*const fn_pcs_create)(hsa_agent_t, hsa_ven_amd_pcs_method_kind_t,
					   hsa_ven_amd_pcs_units_t, size_t, size_t, size_t,
					   hsa_ven_amd_pcs_data_ready_callback_t, void *,
					   hsa_ven_amd_pcs_t *) = hsa_ven_amd_pcs_create;
static hsa_status_t (*const fn_pcs_create_id)(uint32_t, hsa_agent_t,
					      hsa_ven_amd_pcs_method_kind_t,
					      hsa_ven_amd_pcs_units_t, size_t, size_t, size_t,
					      hsa_ven_amd_pcs_data_ready_callback_t, void *,
					      hsa_ven_amd_pcs_t *) = hsa_ven_amd_pcs_create_from_id;
/* interface 1.14 to 1.21: the types AMD's header gives them */
static hsa_status_t (*const fn_ais[2])(hsa_amd_ais_file_handle_t, void *, uint64_t, int64_t,
				       uint64_t *, int32_t *) = {
	hsa_amd_ais_file_write, hsa_amd_ais_file_read,
};
static hsa_status_t (*const fn_counted_acquire)(hsa_agent_t, hsa_queue_type_t,
						hsa_amd_queue_priority_t,
						void (*)(hsa_status_t, hsa_queue_t *, void *),
						void *, uint64_t, hsa_queue_t **) =
	hsa_amd_counted_queue_acquire;
static hsa_status_t (*const fn_counted_release)(hsa_queue_t *) = hsa_amd_counted_queue_release;
static hsa_status_t (*const fn_batch_copy)(const hsa_amd_memory_copy_op_t *, uint32_t, uint32_t,
					   const hsa_signal_t *) = hsa_amd_memory_async_batch_copy;
static hsa_status_t (*const fn_preload)(hsa_agent_t, uint64_t) = hsa_amd_agent_preload;
static hsa_status_t (*const fn_discard)(void **, size_t *, uint32_t, uint32_t,
					const hsa_signal_t *, hsa_signal_t) =
	hsa_amd_svm_discard_batch_async;
static hsa_status_t (*const fn_event_id)(hsa_signal_t, uint32_t *) = hsa_amd_signal_get_event_id;
/* interface 1.29 and the image v2 calls */
static hsa_status_t (*const fn_fabric_export)(hsa_fabric_handle_t *,
					      hsa_amd_vmem_alloc_handle_t, uint64_t) =
	hsa_amd_vmem_export_fabric_handle;
static hsa_status_t (*const fn_fabric_import)(hsa_fabric_handle_t,
					      hsa_amd_vmem_alloc_handle_t *) =
	hsa_amd_vmem_import_fabric_handle;
static hsa_status_t (*const fn_interop_sized)(uint32_t, hsa_agent_t *, hsa_handle_t, uint32_t,
					      size_t, size_t *, void **, size_t *,
					      const void **) = hsa_amd_interop_map_buffer_with_size;
static hsa_status_t (*const fn_amd_image_v2)(hsa_agent_t, const hsa_ext_image_descriptor_v2_t *,
					     const hsa_amd_image_descriptor_t *, const void *,
					     hsa_access_permission_t, hsa_ext_image_t *) =
	hsa_amd_image_create_v2;
static hsa_status_t (*const fn_image_info_v2)(hsa_agent_t, const hsa_ext_image_descriptor_v2_t *,
					      hsa_access_permission_t,
					      hsa_ext_image_data_info_t *) =
	hsa_ext_image_data_get_info_v2;
static hsa_status_t (*const fn_image_create_v2)(hsa_agent_t,
						const hsa_ext_image_descriptor_v2_t *, const void *,
						hsa_access_permission_t, hsa_ext_image_t *) =
	hsa_ext_image_create_v2;
static hsa_status_t (*const fn_image_destroy_v2)(hsa_agent_t, hsa_ext_image_t) =
	hsa_ext_image_destroy_v2;
static hsa_status_t (*const fn_mip_level)(hsa_agent_t, const hsa_ext_image_t *, uint32_t,
					  const hsa_ext_image_descriptor_v2_t *,
					  hsa_ext_image_t *) = hsa_ext_image_mipmap_array_get_level;
static hsa_status_t (*const fn_pcs_op[4])(hsa_ven_amd_pcs_t) = {
	hsa_ven_amd_pcs_destroy, hsa_ven_amd_pcs_start, hsa_ven_amd_pcs_stop,
	hsa_ven_amd_pcs_flush,
};

/* The run: the same facts as data (a PIN above already failed the build
 * if one is off), and every function pointer resolved by the linker. */
START_TEST(test_new_layouts_and_values)
{
	ck_assert_uint_eq(sizeof(hsa_amd_event_t), 32);
	ck_assert_uint_eq(sizeof(hsa_ext_images_1_pfn_t), 112);
	ck_assert_int_eq(HSA_AMD_AGENT_INFO_CLOCK_COUNTERS, 0xA118);
	ck_assert_int_eq(HSA_AMD_AGENT_INFO_HOST_ALLOC_DMABUF_SUPPORTED, 0xA124);
	ck_assert_int_eq(HSA_AMD_SYSTEM_INFO_HOST_ALLOC_DMA_BUF_SUPPORTED, 0x20A);
	ck_assert_uint_eq(sizeof(hsa_amd_dim3_t), 24);
	ck_assert_int_eq(HSA_AMD_INTERFACE_VERSION_MINOR, 31);
	ck_assert_int_eq(HSA_EXT_POINTER_TYPE_HSA_VMEM, 6);
	ck_assert_uint_eq(offsetof(hsa_amd_pointer_info_t, registered), 52);
	ck_assert_uint_eq(sizeof(hsa_amd_pointer_info_t), 64);
	ck_assert_uint_eq(sizeof(hsa_amd_memory_copy_op_t), 128);
	ck_assert_int_eq(HSA_QUEUE_INFO_HW_ID, 3);
	ck_assert_uint_eq(sizeof(hsa_ext_image_descriptor_v2_t), 56);
	ck_assert_uint_eq(sizeof(hsa_fabric_handle_t), 16);
}
END_TEST

START_TEST(test_new_functions_resolve)
{
	const void *fns[] = {
		(const void *)fn_wait_all, (const void *)fn_on_engine,
		(const void *)fn_engine_status, (const void *)fn_preferred,
		(const void *)fn_export, (const void *)fn_export_v2, (const void *)fn_close,
		(const void *)fn_queue_info, (const void *)fn_scratch, (const void *)fn_logging,
		(const void *)fn_sampler_v2, (const void *)fn_spm_acquire,
		(const void *)fn_spm_release, (const void *)fn_spm_dest,
		(const void *)fn_pcs_iterate, (const void *)fn_pcs_create,
		(const void *)fn_pcs_create_id, (const void *)fn_pcs_op[0],
		(const void *)fn_pcs_op[1], (const void *)fn_pcs_op[2], (const void *)fn_pcs_op[3],
		(const void *)fn_ais[0], (const void *)fn_ais[1], (const void *)fn_counted_acquire,
		(const void *)fn_counted_release, (const void *)fn_batch_copy,
		(const void *)fn_preload, (const void *)fn_discard, (const void *)fn_event_id,
		(const void *)fn_fabric_export, (const void *)fn_fabric_import,
		(const void *)fn_interop_sized, (const void *)fn_amd_image_v2,
		(const void *)fn_image_info_v2, (const void *)fn_image_create_v2,
		(const void *)fn_image_destroy_v2, (const void *)fn_mip_level,
	};
	for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++)
		ck_assert_msg(fns[i] != NULL, "function %zu did not resolve", i);
}
END_TEST

static Suite *newest_suite(void)
{
	Suite *s = suite_create("abi-newest");
	TCase *tc = tcase_create("newest");
	tcase_add_test(tc, test_new_layouts_and_values);
	tcase_add_test(tc, test_new_functions_resolve);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(newest_suite)
