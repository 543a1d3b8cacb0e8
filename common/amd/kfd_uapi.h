/*
 * Our own definitions of the amdkfd user-space ABI (/dev/kfd ioctls, mmap
 * offsets, event and memory constants), written from the facts in
 * include/uapi/linux/kfd_ioctl.h of Linux and ROCR-Runtime's copy (ioctl API
 * 1.17; see docs/kfd-uapi.md).  Both sides of the syscall boundary use it:
 * the thunk (src/kfd) issues these ioctls and kfdemu (emu/kfd) answers them,
 * exactly as user space and the kernel share the UAPI header.  Names differ
 * from the kernel's (kfd_args_*, KFD_IOCTL_*) so that a test can include the
 * system header beside this one and compare layouts.
 *
 * Layout rules: every struct is made of naturally aligned __u32/__u64 fields
 * with explicit padding, so its size is the same on every 64-bit ABI.  Each
 * size is pinned below; test/kfd/test_uapi_layout.c compares every size and
 * offset with Linux's header.
 */
#ifndef HSALITE_KFD_UAPI_H
#define HSALITE_KFD_UAPI_H

#include <linux/ioctl.h>
#include <linux/types.h>
#include <stddef.h>

#define KFD_UAPI_MAJOR 1
/* The minor version these definitions follow (CREATE_QUEUE is 96 bytes). */
#define KFD_UAPI_MINOR 17

/* ---- ioctl numbering: type 'K', dispatch on _IOC_NR ---- */
#define KFD_IOCTL_TYPE 'K'
#define KFD_IOCTL_NR_FIRST 0x01
#define KFD_IOCTL_NR_END   0x27 /* first nr past the upstream table (1.18) */
/* ROCm-DKMS-only ioctls (0x80..0x85, e.g. libhsakmt 5.2's IPC 0x80/0x81 and
 * DBG_TRAP 0x82); an upstream kernel answers -ENOTTY (-EINVAL before
 * "drm/amdkfd: return -ENOTTY for unsupported IOCTLs", 2025). */
#define KFD_IOCTL_NR_ROCM_FIRST 0x80
#define KFD_IOCTL_NR_ROCM_LAST  0x85

struct kfd_args_get_version {
	__u32 major_version; /* out */
	__u32 minor_version; /* out */
};

#define KFD_QUEUE_TYPE_COMPUTE        0
#define KFD_QUEUE_TYPE_SDMA           1
#define KFD_QUEUE_TYPE_COMPUTE_AQL    2
#define KFD_QUEUE_TYPE_SDMA_XGMI      3
#define KFD_QUEUE_TYPE_SDMA_BY_ENG_ID 4

#define KFD_QUEUE_PERCENTAGE_MAX 100
#define KFD_QUEUE_PRIORITY_MAX   15
#define KFD_QUEUE_RING_SIZE_MIN  1024 /* bytes; smaller rings are clamped */

/* errno the kernel returns for an unknown queue type (kernel-internal
 * ENOTSUPP, which user space sees as this number). */
#define KFD_ENOTSUPP 524

struct kfd_args_create_queue {
	__u64 ring_base_address;        /* in */
	__u64 write_pointer_address;    /* in: user address the CP polls */
	__u64 read_pointer_address;     /* in: user address the CP reports to */
	__u64 doorbell_offset;          /* out: mmap offset | in-slice offset */
	__u32 ring_size;                /* in: bytes, power of two */
	__u32 gpu_id;                   /* in */
	__u32 queue_type;               /* in: KFD_QUEUE_TYPE_* */
	__u32 queue_percentage;         /* in: bits 7:0 percent, 15:8 pm4 xcc */
	__u32 queue_priority;           /* in: 0..15 */
	__u32 queue_id;                 /* out */
	__u64 eop_buffer_address;       /* in */
	__u64 eop_buffer_size;          /* in */
	__u64 ctx_save_restore_address; /* in */
	__u32 ctx_save_restore_size;    /* in */
	__u32 ctl_stack_size;           /* in */
	__u32 sdma_engine_id;           /* in (1.17+) */
	__u32 pad;
};
/* Before 1.17 the struct ended after ctl_stack_size. */
#define KFD_ARGS_CREATE_QUEUE_SIZE_V1 88

struct kfd_args_destroy_queue {
	__u32 queue_id;
	__u32 pad;
};

struct kfd_args_update_queue {
	__u64 ring_base_address;
	__u32 queue_id;
	__u32 ring_size;
	__u32 queue_percentage;
	__u32 queue_priority;
};

struct kfd_args_set_cu_mask {
	__u32 queue_id;
	__u32 num_cu_mask; /* bits; a non-zero multiple of 32 */
	__u64 cu_mask_ptr;
};

struct kfd_args_get_queue_wave_state {
	__u64 ctl_stack_address;
	__u32 ctl_stack_used_size;
	__u32 save_area_used_size;
	__u32 queue_id;
	__u32 pad;
};

#define KFD_CACHE_POLICY_COHERENT    0
#define KFD_CACHE_POLICY_NONCOHERENT 1

struct kfd_args_set_memory_policy {
	__u64 alternate_aperture_base;
	__u64 alternate_aperture_size;
	__u32 gpu_id;
	__u32 default_policy;
	__u32 alternate_policy;
	__u32 misc_process_flag; /* "pad" before 1.18 */
};

struct kfd_args_get_clock_counters {
	__u64 gpu_clock_counter;    /* out */
	__u64 cpu_clock_counter;    /* out: CLOCK_MONOTONIC_RAW ns */
	__u64 system_clock_counter; /* out: CLOCK_BOOTTIME ns */
	__u64 system_clock_freq;    /* out: always 1e9 */
	__u32 gpu_id;               /* in */
	__u32 pad;
};

struct kfd_process_device_apertures {
	__u64 lds_base;
	__u64 lds_limit;
	__u64 scratch_base;
	__u64 scratch_limit;
	__u64 gpuvm_base;
	__u64 gpuvm_limit;
	__u32 gpu_id;
	__u32 pad;
};

#define KFD_APERTURES_OLD_MAX 7
struct kfd_args_get_process_apertures {
	struct kfd_process_device_apertures process_apertures[KFD_APERTURES_OLD_MAX];
	__u32 num_of_nodes;
	__u32 pad;
};

struct kfd_args_get_process_apertures_new {
	__u64 kfd_process_device_apertures_ptr; /* user array */
	__u32 num_of_nodes; /* in: capacity (0 = count only); out: filled */
	__u32 pad;
};

/* ---- events ---- */
#define KFD_EVENT_TYPE_SIGNAL             0
#define KFD_EVENT_TYPE_NODECHANGE         1
#define KFD_EVENT_TYPE_DEVICESTATECHANGE  2
#define KFD_EVENT_TYPE_HW_EXCEPTION       3
#define KFD_EVENT_TYPE_SYSTEM_EVENT       4
#define KFD_EVENT_TYPE_DEBUG_EVENT        5
#define KFD_EVENT_TYPE_PROFILE_EVENT      6
#define KFD_EVENT_TYPE_QUEUE_EVENT        7
#define KFD_EVENT_TYPE_MEMORY             8

#define KFD_WAIT_COMPLETE 0
#define KFD_WAIT_TIMEOUT  1
#define KFD_WAIT_FAIL     2

#define KFD_WAIT_TIMEOUT_INFINITE 0xFFFFFFFFu

/* The event page: 4096 slots of 8 bytes; "unsignaled" is all ones. */
#define KFD_EVENT_SLOTS      4096
#define KFD_EVENT_PAGE_SIZE  (KFD_EVENT_SLOTS * 8)
#define KFD_EVENT_SLOT_UNSIGNALED (~(__u64)0)
/* Ids of signal events are slot indices (id 0 is reserved); other events
 * take ids from here on. */
#define KFD_EVENT_ID_OTHER_FIRST 0x40000000u

#define KFD_HW_EXCEPTION_WHOLE_GPU_RESET  0
#define KFD_HW_EXCEPTION_PER_ENGINE_RESET 1
#define KFD_HW_EXCEPTION_GPU_HANG 0
#define KFD_HW_EXCEPTION_ECC      1

#define KFD_MEM_ERR_NO_RAS          0
#define KFD_MEM_ERR_SRAM_ECC        1
#define KFD_MEM_ERR_POISON_CONSUMED 2
#define KFD_MEM_ERR_GPU_HANG        3

struct kfd_args_create_event {
	__u64 event_page_offset;  /* in: event-page BO handle (first call,
	                           * dGPU); out: mmap offset of the page */
	__u32 event_trigger_data; /* out (signal events) */
	__u32 event_type;         /* in */
	__u32 auto_reset;         /* in */
	__u32 node_id;            /* in */
	__u32 event_id;           /* out */
	__u32 event_slot_index;   /* out (signal events) */
};

struct kfd_args_destroy_event {
	__u32 event_id;
	__u32 pad;
};

struct kfd_args_set_event {
	__u32 event_id;
	__u32 pad;
};

struct kfd_args_reset_event {
	__u32 event_id;
	__u32 pad;
};

struct kfd_memory_exception_failure {
	__u32 NotPresent;
	__u32 ReadOnly;
	__u32 NoExecute;
	__u32 imprecise;
};

struct kfd_hsa_memory_exception_data {
	struct kfd_memory_exception_failure failure;
	__u64 va;
	__u32 gpu_id;
	__u32 ErrorType; /* KFD_MEM_ERR_* */
};

struct kfd_hsa_hw_exception_data {
	__u32 reset_type;
	__u32 reset_cause;
	__u32 memory_lost;
	__u32 gpu_id;
};

struct kfd_hsa_signal_event_data {
	__u64 last_event_age; /* in/out (1.14+); 0 = no age tracking */
};

struct kfd_event_data {
	union {
		struct kfd_hsa_memory_exception_data memory_exception_data;
		struct kfd_hsa_hw_exception_data hw_exception_data;
		struct kfd_hsa_signal_event_data signal_event_data;
	};
	__u64 kfd_event_data_ext;
	__u32 event_id; /* in */
	__u32 pad;
};

struct kfd_args_wait_events {
	__u64 events_ptr;   /* user array of struct kfd_event_data */
	__u32 num_events;
	__u32 wait_for_all;
	__u32 timeout;      /* ms; 0 polls, KFD_WAIT_TIMEOUT_INFINITE */
	__u32 wait_result;  /* out: KFD_WAIT_* */
};

struct kfd_args_set_scratch_backing_va {
	__u64 va_addr;
	__u32 gpu_id;
	__u32 pad;
};

struct kfd_args_get_tile_config {
	__u64 tile_config_ptr;
	__u64 macro_tile_config_ptr;
	__u32 num_tile_configs;
	__u32 num_macro_tile_configs;
	__u32 gpu_id;
	__u32 gb_addr_config;
	__u32 num_banks;
	__u32 num_ranks;
};

struct kfd_args_set_trap_handler {
	__u64 tba_addr;
	__u64 tma_addr;
	__u32 gpu_id;
	__u32 pad;
};

struct kfd_args_acquire_vm {
	__u32 drm_fd; /* render node fd of this GPU */
	__u32 gpu_id;
};

/* ---- memory ---- */
#define KFD_ALLOC_VRAM        (1u << 0)
#define KFD_ALLOC_GTT         (1u << 1)
#define KFD_ALLOC_USERPTR     (1u << 2)
#define KFD_ALLOC_DOORBELL    (1u << 3)
#define KFD_ALLOC_MMIO_REMAP  (1u << 4)
#define KFD_ALLOC_TYPE_MASK   0x1Fu
#define KFD_ALLOC_CONTIGUOUS_BEST_EFFORT (1u << 23)
#define KFD_ALLOC_EXT_COHERENT (1u << 24)
#define KFD_ALLOC_UNCACHED    (1u << 25)
#define KFD_ALLOC_COHERENT    (1u << 26)
#define KFD_ALLOC_AQL_QUEUE_MEM (1u << 27)
#define KFD_ALLOC_NO_SUBSTITUTE (1u << 28)
#define KFD_ALLOC_PUBLIC      (1u << 29)
#define KFD_ALLOC_EXECUTABLE  (1u << 30)
#define KFD_ALLOC_WRITABLE    (1u << 31)

struct kfd_args_alloc_memory_of_gpu {
	__u64 va_addr;     /* in: GPU VA (the kernel never chooses one) */
	__u64 size;        /* in */
	__u64 handle;      /* out: gpu_id << 32 | index */
	__u64 mmap_offset; /* in: CPU address (USERPTR); out: mmap offset */
	__u32 gpu_id;      /* in */
	__u32 flags;       /* in: KFD_ALLOC_* */
};

struct kfd_args_free_memory_of_gpu {
	__u64 handle;
};

struct kfd_args_map_memory_to_gpu {
	__u64 handle;
	__u64 device_ids_array_ptr; /* user array of __u32 gpu_ids */
	__u32 n_devices;
	__u32 n_success; /* in/out: devices done so far */
};

struct kfd_args_unmap_memory_from_gpu {
	__u64 handle;
	__u64 device_ids_array_ptr;
	__u32 n_devices;
	__u32 n_success;
};

struct kfd_args_alloc_queue_gws {
	__u32 queue_id;
	__u32 num_gws;
	__u32 first_gws;
	__u32 pad;
};

/* dma-buf sharing (GET_DMABUF_INFO 0x1C, IMPORT_DMABUF 0x1D, EXPORT_DMABUF
 * 0x24, API 1.12).  The exported fd is a real file that other processes can
 * receive and import. */
struct kfd_args_get_dmabuf_info {
	__u64 size;          /* out: BO size in bytes */
	__u64 metadata_ptr;  /* in: buffer for the BO's metadata, or 0 */
	__u32 metadata_size; /* in: buffer size; out: metadata size */
	__u32 gpu_id;        /* out: the GPU whose memory it is */
	__u32 flags;         /* out: KFD_ALLOC_VRAM or GTT (| PUBLIC) */
	__u32 dmabuf_fd;     /* in */
};

struct kfd_args_import_dmabuf {
	__u64 va_addr;   /* in: GPU VA for MAP_MEMORY_TO_GPU */
	__u64 handle;    /* out */
	__u32 gpu_id;    /* in */
	__u32 dmabuf_fd; /* in */
};

struct kfd_args_export_dmabuf {
	__u64 handle;    /* in */
	__u32 flags;     /* in: open flags of the new fd (O_CLOEXEC) */
	__u32 dmabuf_fd; /* out */
};

/* ROCm-DKMS IPC (not upstream; libhsakmt 5.2.3's hsaKmtShareMemory and
 * hsaKmtRegisterSharedHandle): a BO exported as a 128-bit share handle
 * the kernel keeps in a table of its own, imported by any process at a VA
 * of its choosing.  flags are stored by EXPORT and returned by IMPORT. */
struct kfd_args_ipc_export_handle {
	__u64 handle;          /* in: the BO */
	__u32 share_handle[4]; /* out */
	__u32 gpu_id;          /* in */
	__u32 flags;           /* in: kept for the importers */
};

struct kfd_args_ipc_import_handle {
	__u64 handle;          /* out: the new BO */
	__u64 va_addr;         /* in */
	__u64 mmap_offset;     /* out: render-node offset for a CPU mapping */
	__u32 share_handle[4]; /* in */
	__u32 gpu_id;          /* in */
	__u32 flags;           /* out: the exporter's */
};

struct kfd_args_smi_events {
	__u32 gpuid;
	__u32 anon_fd;
};

/* SVM (0x20): the attribute array rides in the ioctl size field. */
#define KFD_SVM_OP_SET_ATTR 0
#define KFD_SVM_OP_GET_ATTR 1
#define KFD_SVM_FLAG_HOST_ACCESS       0x01
#define KFD_SVM_FLAG_COHERENT          0x02
#define KFD_SVM_FLAG_HIVE_LOCAL        0x04
#define KFD_SVM_FLAG_GPU_RO            0x08
#define KFD_SVM_FLAG_GPU_EXEC          0x10
#define KFD_SVM_FLAG_GPU_READ_MOSTLY   0x20
#define KFD_SVM_FLAG_GPU_ALWAYS_MAPPED 0x40
/* attribute types (kfd_ioctl_svm_attr_type) */
#define KFD_SVM_ATTR_PREFERRED_LOC     0
#define KFD_SVM_ATTR_PREFETCH_LOC      1
#define KFD_SVM_ATTR_ACCESS            2
#define KFD_SVM_ATTR_ACCESS_IN_PLACE   3
#define KFD_SVM_ATTR_NO_ACCESS         4
#define KFD_SVM_ATTR_SET_FLAGS         5
#define KFD_SVM_ATTR_CLR_FLAGS         6
#define KFD_SVM_ATTR_GRANULARITY       7
/* location values: a gpu_id, or */
#define KFD_SVM_LOCATION_SYSMEM        0u
#define KFD_SVM_LOCATION_UNDEFINED     0xFFFFFFFFu

struct kfd_svm_attribute {
	__u32 type;
	__u32 value;
};

struct kfd_args_svm {
	__u64 start_addr;
	__u64 size;
	__u32 op;
	__u32 nattr;
	struct kfd_svm_attribute attrs[];
};

struct kfd_args_set_xnack_mode {
	__s32 xnack_enabled; /* in: -1 queries; out: current mode */
};

struct kfd_args_available_memory {
	__u64 available; /* out: bytes, 2 MiB aligned down */
	__u32 gpu_id;
	__u32 pad;
};

#define KFD_RUNTIME_ENABLE_MODE_ENABLE    1
#define KFD_RUNTIME_ENABLE_MODE_TTMP_SAVE 2

struct kfd_args_runtime_enable {
	__u64 r_debug;
	__u32 mode_mask;
	__u32 capabilities_mask;
};

/* ---- the ioctl numbers ---- */
#define KFD_IOR(nr, type)  _IOR(KFD_IOCTL_TYPE, nr, type)
#define KFD_IOW(nr, type)  _IOW(KFD_IOCTL_TYPE, nr, type)
#define KFD_IOWR(nr, type) _IOWR(KFD_IOCTL_TYPE, nr, type)

#define KFD_IOCTL_GET_VERSION             KFD_IOR(0x01, struct kfd_args_get_version)
#define KFD_IOCTL_CREATE_QUEUE            KFD_IOWR(0x02, struct kfd_args_create_queue)
#define KFD_IOCTL_DESTROY_QUEUE           KFD_IOWR(0x03, struct kfd_args_destroy_queue)
#define KFD_IOCTL_SET_MEMORY_POLICY       KFD_IOW(0x04, struct kfd_args_set_memory_policy)
#define KFD_IOCTL_GET_CLOCK_COUNTERS      KFD_IOWR(0x05, struct kfd_args_get_clock_counters)
#define KFD_IOCTL_GET_PROCESS_APERTURES   KFD_IOR(0x06, struct kfd_args_get_process_apertures)
#define KFD_IOCTL_UPDATE_QUEUE            KFD_IOW(0x07, struct kfd_args_update_queue)
#define KFD_IOCTL_CREATE_EVENT            KFD_IOWR(0x08, struct kfd_args_create_event)
#define KFD_IOCTL_DESTROY_EVENT           KFD_IOW(0x09, struct kfd_args_destroy_event)
#define KFD_IOCTL_SET_EVENT               KFD_IOW(0x0A, struct kfd_args_set_event)
#define KFD_IOCTL_RESET_EVENT             KFD_IOW(0x0B, struct kfd_args_reset_event)
#define KFD_IOCTL_WAIT_EVENTS             KFD_IOWR(0x0C, struct kfd_args_wait_events)
#define KFD_IOCTL_SET_SCRATCH_BACKING_VA  KFD_IOWR(0x11, struct kfd_args_set_scratch_backing_va)
#define KFD_IOCTL_GET_TILE_CONFIG         KFD_IOWR(0x12, struct kfd_args_get_tile_config)
#define KFD_IOCTL_SET_TRAP_HANDLER        KFD_IOW(0x13, struct kfd_args_set_trap_handler)
#define KFD_IOCTL_GET_PROCESS_APERTURES_NEW KFD_IOWR(0x14, struct kfd_args_get_process_apertures_new)
#define KFD_IOCTL_ACQUIRE_VM              KFD_IOW(0x15, struct kfd_args_acquire_vm)
#define KFD_IOCTL_ALLOC_MEMORY_OF_GPU     KFD_IOWR(0x16, struct kfd_args_alloc_memory_of_gpu)
#define KFD_IOCTL_FREE_MEMORY_OF_GPU      KFD_IOW(0x17, struct kfd_args_free_memory_of_gpu)
#define KFD_IOCTL_MAP_MEMORY_TO_GPU       KFD_IOWR(0x18, struct kfd_args_map_memory_to_gpu)
#define KFD_IOCTL_UNMAP_MEMORY_FROM_GPU   KFD_IOWR(0x19, struct kfd_args_unmap_memory_from_gpu)
#define KFD_IOCTL_SET_CU_MASK             KFD_IOW(0x1A, struct kfd_args_set_cu_mask)
#define KFD_IOCTL_GET_QUEUE_WAVE_STATE    KFD_IOWR(0x1B, struct kfd_args_get_queue_wave_state)
#define KFD_IOCTL_GET_DMABUF_INFO         KFD_IOWR(0x1C, struct kfd_args_get_dmabuf_info)
#define KFD_IOCTL_IMPORT_DMABUF           KFD_IOWR(0x1D, struct kfd_args_import_dmabuf)
#define KFD_IOCTL_ALLOC_QUEUE_GWS         KFD_IOWR(0x1E, struct kfd_args_alloc_queue_gws)
#define KFD_IOCTL_SMI_EVENTS              KFD_IOWR(0x1F, struct kfd_args_smi_events)
#define KFD_IOCTL_SVM(nattr) \
	_IOC(_IOC_READ | _IOC_WRITE, KFD_IOCTL_TYPE, 0x20, \
	     sizeof(struct kfd_args_svm) + (nattr) * sizeof(struct kfd_svm_attribute))
#define KFD_IOCTL_SET_XNACK_MODE          KFD_IOWR(0x21, struct kfd_args_set_xnack_mode)
#define KFD_IOCTL_AVAILABLE_MEMORY        KFD_IOWR(0x23, struct kfd_args_available_memory)
#define KFD_IOCTL_EXPORT_DMABUF           KFD_IOWR(0x24, struct kfd_args_export_dmabuf)
#define KFD_IOCTL_RUNTIME_ENABLE          KFD_IOWR(0x25, struct kfd_args_runtime_enable)
#define KFD_IOCTL_IPC_IMPORT_HANDLE       KFD_IOWR(0x80, struct kfd_args_ipc_import_handle)
#define KFD_IOCTL_IPC_EXPORT_HANDLE       KFD_IOWR(0x81, struct kfd_args_ipc_export_handle)

/* ---- mmap offsets on the kfd fd (byte offsets) ---- */
#define KFD_MMAP_TYPE_SHIFT   62
#define KFD_MMAP_TYPE_MASK    (3ull << KFD_MMAP_TYPE_SHIFT)
#define KFD_MMAP_TYPE_DOORBELL (3ull << KFD_MMAP_TYPE_SHIFT)
#define KFD_MMAP_TYPE_EVENTS   (2ull << KFD_MMAP_TYPE_SHIFT)
#define KFD_MMAP_TYPE_RESERVED (1ull << KFD_MMAP_TYPE_SHIFT)
#define KFD_MMAP_TYPE_MMIO     (0ull << KFD_MMAP_TYPE_SHIFT)
#define KFD_MMAP_GPU_ID_SHIFT 46
#define KFD_MMAP_GPU_ID_MASK  (0xFFFFull << KFD_MMAP_GPU_ID_SHIFT)
#define KFD_MMAP_GPU_ID(id)   ((__u64)(id) << KFD_MMAP_GPU_ID_SHIFT)
#define KFD_MMAP_OFFSET_MASK  ((1ull << KFD_MMAP_GPU_ID_SHIFT) - 1)

/* gfx9+: 1024 doorbells of 8 bytes per process and device. */
#define KFD_DOORBELL_SIZE       8
#define KFD_DOORBELLS_PER_PROCESS 1024
#define KFD_DOORBELL_SLICE_SIZE (KFD_DOORBELL_SIZE * KFD_DOORBELLS_PER_PROCESS)
#define KFD_MMIO_REMAP_SIZE     4096

/* GPU memory handles carry the gpu_id in their upper half. */
#define KFD_HANDLE_GPU_ID(h) ((__u32)((h) >> 32))

/* The context-save area header the thunk writes for each XCC (40 bytes). */
struct kfd_context_save_area_header {
	struct {
		__u32 control_stack_offset;
		__u32 control_stack_size;
		__u32 wave_state_offset;
		__u32 wave_state_size;
	} wave_state;
	__u32 debug_offset;
	__u32 debug_size;
	__u64 err_payload_addr;
	__u32 err_event_id;
	__u32 reserved1;
};

/* ---- pinned layouts ---- */
#define KFD_UAPI_SIZE(type, n) _Static_assert(sizeof(type) == (n), #type " size")
KFD_UAPI_SIZE(struct kfd_args_get_version, 8);
KFD_UAPI_SIZE(struct kfd_args_create_queue, 96);
KFD_UAPI_SIZE(struct kfd_args_destroy_queue, 8);
KFD_UAPI_SIZE(struct kfd_args_update_queue, 24);
KFD_UAPI_SIZE(struct kfd_args_set_cu_mask, 16);
KFD_UAPI_SIZE(struct kfd_args_get_queue_wave_state, 24);
KFD_UAPI_SIZE(struct kfd_args_set_memory_policy, 32);
KFD_UAPI_SIZE(struct kfd_args_get_clock_counters, 40);
KFD_UAPI_SIZE(struct kfd_process_device_apertures, 56);
KFD_UAPI_SIZE(struct kfd_args_get_process_apertures, 400);
KFD_UAPI_SIZE(struct kfd_args_get_process_apertures_new, 16);
KFD_UAPI_SIZE(struct kfd_args_create_event, 32);
KFD_UAPI_SIZE(struct kfd_args_destroy_event, 8);
KFD_UAPI_SIZE(struct kfd_event_data, 48);
KFD_UAPI_SIZE(struct kfd_args_wait_events, 24);
KFD_UAPI_SIZE(struct kfd_args_set_scratch_backing_va, 16);
KFD_UAPI_SIZE(struct kfd_args_get_tile_config, 40);
KFD_UAPI_SIZE(struct kfd_args_set_trap_handler, 24);
KFD_UAPI_SIZE(struct kfd_args_acquire_vm, 8);
KFD_UAPI_SIZE(struct kfd_args_alloc_memory_of_gpu, 40);
KFD_UAPI_SIZE(struct kfd_args_free_memory_of_gpu, 8);
KFD_UAPI_SIZE(struct kfd_args_map_memory_to_gpu, 24);
KFD_UAPI_SIZE(struct kfd_args_unmap_memory_from_gpu, 24);
KFD_UAPI_SIZE(struct kfd_args_alloc_queue_gws, 16);
KFD_UAPI_SIZE(struct kfd_args_get_dmabuf_info, 32);
KFD_UAPI_SIZE(struct kfd_args_import_dmabuf, 24);
KFD_UAPI_SIZE(struct kfd_args_export_dmabuf, 16);
KFD_UAPI_SIZE(struct kfd_args_ipc_export_handle, 32);
KFD_UAPI_SIZE(struct kfd_args_ipc_import_handle, 48);
KFD_UAPI_SIZE(struct kfd_args_svm, 24);
KFD_UAPI_SIZE(struct kfd_args_set_xnack_mode, 4);
KFD_UAPI_SIZE(struct kfd_args_available_memory, 16);
KFD_UAPI_SIZE(struct kfd_args_runtime_enable, 16);
KFD_UAPI_SIZE(struct kfd_context_save_area_header, 40);
_Static_assert(offsetof(struct kfd_args_create_queue, doorbell_offset) == 24, "doorbell_offset");
_Static_assert(offsetof(struct kfd_args_create_queue, queue_id) == 52, "queue_id");
_Static_assert(offsetof(struct kfd_args_create_queue, ctl_stack_size) == 84, "ctl_stack_size");
_Static_assert(offsetof(struct kfd_args_create_queue, sdma_engine_id) ==
	       KFD_ARGS_CREATE_QUEUE_SIZE_V1, "sdma_engine_id");
_Static_assert(offsetof(struct kfd_event_data, kfd_event_data_ext) == 32, "event ext");
_Static_assert(offsetof(struct kfd_event_data, event_id) == 40, "event_id");
_Static_assert(KFD_IOCTL_CREATE_QUEUE == 0xC0604B02u, "CREATE_QUEUE number");
_Static_assert(KFD_IOCTL_GET_VERSION == 0x80084B01u, "GET_VERSION number");
_Static_assert(KFD_IOCTL_ALLOC_MEMORY_OF_GPU == 0xC0284B16u, "ALLOC number");
_Static_assert(KFD_IOCTL_WAIT_EVENTS == 0xC0184B0Cu, "WAIT_EVENTS number");
_Static_assert(offsetof(struct kfd_args_get_dmabuf_info, metadata_size) == 16, "metadata_size");
_Static_assert(offsetof(struct kfd_args_get_dmabuf_info, dmabuf_fd) == 28, "info dmabuf_fd");
_Static_assert(offsetof(struct kfd_args_import_dmabuf, gpu_id) == 16, "import gpu_id");
_Static_assert(offsetof(struct kfd_args_import_dmabuf, dmabuf_fd) == 20, "import dmabuf_fd");
_Static_assert(offsetof(struct kfd_args_export_dmabuf, dmabuf_fd) == 12, "export dmabuf_fd");
_Static_assert(KFD_IOCTL_GET_DMABUF_INFO == 0xC0204B1Cu, "GET_DMABUF_INFO number");
_Static_assert(KFD_IOCTL_IMPORT_DMABUF == 0xC0184B1Du, "IMPORT_DMABUF number");
_Static_assert(KFD_IOCTL_EXPORT_DMABUF == 0xC0104B24u, "EXPORT_DMABUF number");
_Static_assert(offsetof(struct kfd_args_ipc_export_handle, gpu_id) == 24, "ipc export gpu_id");
_Static_assert(offsetof(struct kfd_args_ipc_import_handle, share_handle) == 24, "ipc share");
_Static_assert(offsetof(struct kfd_args_ipc_import_handle, flags) == 44, "ipc import flags");
_Static_assert(KFD_IOCTL_IPC_IMPORT_HANDLE == 0xC0304B80u, "IPC_IMPORT_HANDLE number");
_Static_assert(KFD_IOCTL_IPC_EXPORT_HANDLE == 0xC0204B81u, "IPC_EXPORT_HANDLE number");
_Static_assert(KFD_IOCTL_ALLOC_QUEUE_GWS == 0xC0104B1Eu, "ALLOC_QUEUE_GWS number");
_Static_assert(KFD_IOCTL_GET_QUEUE_WAVE_STATE == 0xC0184B1Bu, "GET_QUEUE_WAVE_STATE number");

#endif /* HSALITE_KFD_UAPI_H */
