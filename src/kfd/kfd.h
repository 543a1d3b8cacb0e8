/*
 * The thunk: the only code in hsalite that talks to the kernel driver.  It
 * opens /dev/kfd, reads the KFD sysfs topology, opens each GPU's render node
 * and acquires its VM, allocates and maps GPU memory, creates queues, maps
 * doorbells and manages KFD events.  It knows nothing of HSA: no HSA type
 * appears here, and the runtime maps our -errno results to hsa_status_t in
 * one place (src/runtime).
 *
 * Conventions
 *  - Every function that can fail returns 0 or a negative errno and keeps the
 *    kernel's errno; failures are logged (subsystem "kfd") with the ioctl
 *    name, the errno name and the reason.
 *  - Objects are owned by the caller that created them and freed by their
 *    destroy/free function, which also accepts a partially set-up object.
 *  - Thread safety: kfd_process functions may be called concurrently from
 *    any thread except kfd_process_open/close, which the runtime serialises.
 *    Memory and event bookkeeping is protected by the process's lock.
 */
#ifndef HSALITE_KFD_H
#define HSALITE_KFD_H

#include <stdbool.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "amd/kfd_uapi.h"

#define KFD_DEVICE_PATH "/dev/kfd"
#define KFD_TOPOLOGY_PATH "/sys/devices/virtual/kfd/kfd/topology"
/* We need KFD_IOCTL GET_VERSION major 1 and at least this minor: 1.2 added
 * GET_PROCESS_APERTURES_NEW and the ACQUIRE_VM / ALLOC / MAP memory API. */
#define KFD_MIN_MINOR_VERSION 2

/* ---- topology (sysfs) ---- */

/* nodes/N/mem_banks/M/properties */
#define KFD_HEAP_TYPE_SYSTEM     0
#define KFD_HEAP_TYPE_FB_PUBLIC  1
#define KFD_HEAP_TYPE_FB_PRIVATE 2
#define KFD_HEAP_TYPE_GPU_GDS    3
#define KFD_HEAP_TYPE_GPU_LDS    4
#define KFD_HEAP_TYPE_GPU_SCRATCH 5
struct kfd_mem_bank {
	uint32_t heap_type;
	uint64_t size_in_bytes;
	uint32_t flags;
	uint32_t width;
	uint32_t mem_clk_max;
};

/* nodes/N/caches/M/properties; type is a mask */
#define KFD_CACHE_TYPE_DATA        1
#define KFD_CACHE_TYPE_INSTRUCTION 2
#define KFD_CACHE_TYPE_CPU         4
#define KFD_CACHE_TYPE_HSACU       8
struct kfd_cache {
	uint32_t processor_id_low;
	uint32_t level;
	uint32_t size; /* KiB */
	uint32_t cache_line_size;
	uint32_t cache_lines_per_tag;
	uint32_t association;
	uint32_t latency;
	uint32_t type;
};

/* nodes/N/io_links/M/properties (and p2p_links) */
#define KFD_IOLINK_TYPE_PCIEXPRESS 2
#define KFD_IOLINK_TYPE_XGMI 11
struct kfd_io_link {
	uint32_t type;
	uint32_t version_major;
	uint32_t version_minor;
	uint32_t node_from;
	uint32_t node_to;
	uint32_t weight;
	uint32_t min_latency;
	uint32_t max_latency;
	uint32_t min_bandwidth;
	uint32_t max_bandwidth;
	uint32_t recommended_transfer_size;
	uint32_t flags;
	uint32_t recommended_sdma_engine_id_mask; /* KFD 1.17+: engines for copies over it */
};

/* nodes/N/properties: every key the kernel prints that we use.  Keys absent
 * from the file read as 0 (num_xcc defaults to 1); unknown keys are ignored. */
struct kfd_node_properties {
	uint32_t cpu_cores_count;
	uint32_t simd_count;
	uint32_t mem_banks_count;
	uint32_t caches_count;
	uint32_t io_links_count;
	uint32_t p2p_links_count;
	uint32_t cpu_core_id_base;
	uint32_t simd_id_base;
	uint32_t max_waves_per_simd;
	uint32_t lds_size_in_kb;
	uint32_t gds_size_in_kb;
	uint32_t num_gws;
	uint32_t wave_front_size;
	uint32_t array_count;
	uint32_t simd_arrays_per_engine;
	uint32_t cu_per_simd_array;
	uint32_t simd_per_cu;
	uint32_t max_slots_scratch_cu;
	uint32_t gfx_target_version; /* decimal major*10000 + minor*100 + step */
	uint32_t vendor_id;
	uint32_t device_id;
	uint32_t location_id;
	uint32_t domain;
	uint32_t drm_render_minor;
	uint64_t hive_id;
	uint32_t num_sdma_engines;
	uint32_t num_sdma_xgmi_engines;
	uint32_t num_sdma_queues_per_engine;
	uint32_t num_cp_queues;
	uint32_t max_engine_clk_fcompute;
	uint32_t max_engine_clk_ccompute;
	uint64_t local_mem_size;
	uint32_t fw_version;
	uint32_t capability;
	uint64_t debug_prop;
	uint32_t sdma_fw_version;
	uint64_t unique_id;
	uint32_t num_xcc;
	uint32_t cwsr_size;      /* 0 when the kernel does not export it */
	uint32_t ctl_stack_size; /* 0 when the kernel does not export it */
};

/* capability bits used by the runtime (kfd_sysfs.h) */
#define KFD_CAP_DOORBELL_TYPE_SHIFT 12
#define KFD_CAP_DOORBELL_TYPE_MASK  0x3000u
#define KFD_CAP_SRAM_EDCSUPPORTED   0x04000000u
#define KFD_CAP_SVMAPI_SUPPORTED    0x08000000u
#define KFD_CAP_ASIC_REVISION_SHIFT 22
#define KFD_CAP_ASIC_REVISION_MASK  0x03C00000u

struct kfd_node {
	uint32_t index;  /* N in nodes/N */
	uint32_t gpu_id; /* 0 for a CPU node */
	char name[64];   /* nodes/N/name, may be empty */
	struct kfd_node_properties props;
	struct kfd_mem_bank *mem_banks;
	uint32_t n_mem_banks;
	struct kfd_cache *caches;
	uint32_t n_caches;
	struct kfd_io_link *io_links;
	uint32_t n_io_links;
};

struct kfd_topology {
	uint64_t generation_id;
	uint64_t platform_oem;
	uint64_t platform_id;
	uint64_t platform_rev;
	struct kfd_node *nodes;
	uint32_t n_nodes;
};

/* Reads the tree at root (KFD_TOPOLOGY_PATH normally; a fixture directory in
 * tests).  Retries while generation_id changes under it.  A malformed file
 * gives -EINVAL with the path and line in the log; a missing tree -ENOENT. */
int kfd_topology_read(const char *root, struct kfd_topology *out);
void kfd_topology_free(struct kfd_topology *topo);
static inline bool kfd_node_is_gpu(const struct kfd_node *n) { return n->gpu_id != 0; }

/* ---- the process: /dev/kfd, GPUs, VMs ---- */

/* Per-GPU state once the process is open. */
struct kfd_gpu {
	const struct kfd_node *node; /* in kfd_process.topology */
	uint32_t gpu_id;
	int render_fd;               /* /dev/dri/renderD<drm_render_minor> */
	void *amdgpu_dev;            /* amdgpu_device_handle from libdrm */
	char marketing_name[128];    /* from libdrm, may be empty */
	struct kfd_process_device_apertures apertures;
	uint32_t doorbell_type;      /* capability bits 13:12 (2 on gfx9+) */
	void *doorbell_slice;        /* KFD_DOORBELL_SLICE_SIZE bytes, mapped on
	                              * the first queue; NULL before */
	/* The MMIO-remap page (KFD_MMIO_REMAP_SIZE), mapped at open as
	 * libhsakmt's map_mmio does; NULL when the kernel has none.  Word 0 is
	 * HDP_MEM_FLUSH_CNTL, word 1 HDP_REG_FLUSH_CNTL (enum kfd_mmio_remap). */
	uint32_t *mmio_remap;
};

/* Flushes the GPU's HDP (host data path): CPU stores through the BAR to
 * its VRAM made before this call are visible to GPU reads after it.  Call
 * after writing VRAM the GPU will read (code, kernel arguments, blit
 * sources) and before the doorbell or signal that starts the reader.  A
 * no-op without an MMIO-remap page. */
void kfd_hdp_flush(const struct kfd_gpu *gpu);
struct kfd_process;
/* The CPU wrote [p, p + size): flushes the HDP of each GPU whose VRAM
 * holds the first or last byte (nothing for system memory). */
void kfd_mem_hdp_flush_range(struct kfd_process *proc, const void *p, size_t size);

struct kfd_process {
	int fd;                      /* /dev/kfd */
	uint32_t fork_gen;           /* kfd_fork_gen() at open: a fork child
	                              * (a later generation) must not use fd */
	uint32_t version_major, version_minor;
	struct kfd_topology topology;
	struct kfd_gpu *gpus;        /* the GPU nodes whose render node opened */
	uint32_t n_gpus;
	/* private bookkeeping (memory list, event page, locks) lives behind this */
	struct kfd_process_private *priv;
	/* the process is ending: buffers and events are left to the kernel
	 * (kfd_process_leave_to_exit) */
	_Atomic bool leave_to_exit;
};

/* Opens /dev/kfd (O_RDWR|O_CLOEXEC), checks GET_VERSION (major 1, minor >=
 * KFD_MIN_MINOR_VERSION), reads the topology, and for each GPU node opens its
 * render node, initialises libdrm_amdgpu, reads its apertures
 * (GET_PROCESS_APERTURES_NEW) and does ACQUIRE_VM.  A GPU whose render node
 * cannot be opened is skipped with a warning, as libhsakmt does.  -ENOENT or
 * -EACCES from opening /dev/kfd is returned as such so the caller can say
 * what to fix. */
int kfd_process_open(struct kfd_process **out);
/* Frees every remaining buffer and event, unmaps doorbells, closes render
 * nodes and the kfd fd.  Safe on a partially opened process. */
void kfd_process_close(struct kfd_process *proc);
/* The last teardown of a process that is exiting: from now on buffers
 * (UNMAP_MEMORY_FROM_GPU, FREE_MEMORY_OF_GPU) and events (DESTROY_EVENT)
 * are dropped from the bookkeeping without their ioctl, as ROCr 5.2.3 and
 * libhsakmt leave them at exit: the kernel releases every BO and event of
 * the process when its mm goes (kfd_process_notifier_release ->
 * kfd_process_wq_release), nothing a program can see happens in between,
 * and a BO's address range stays reserved so that nothing is placed over
 * it.  Queues are still destroyed (no ring is freed under a live queue),
 * and doorbells, render nodes and the fd still closed. */
void kfd_process_leave_to_exit(struct kfd_process *proc);
/* True in a fork child of the opener: the fd is the parent's and every ioctl
 * on it would fail with EBADF, so callers must re-open instead.  Known from
 * kfd_fork_child only: the thunk keeps no pid of its own. */
bool kfd_process_forked(const struct kfd_process *proc);
/* The thunk's fork_child step (the first entry of the module table,
 * src/modules.c, run by the runtime's one atfork child handler; a program
 * using the thunk without the runtime calls it in its child itself).  Every
 * process opened before the fork becomes the parent's (kfd_process_forked),
 * and so do the render nodes kept open across opens and the parked event
 * page: the child's next open drops them and starts with its own.  In the
 * child's only thread: no ioctl, no syscall, no lock taken. */
void kfd_fork_child(void);
struct kfd_gpu *kfd_process_gpu_by_id(struct kfd_process *proc, uint32_t gpu_id);

/* One ioctl, retried on EINTR/EAGAIN; returns 0 or -errno (errno kept).
 * With HSALITE_LOG=debug each call is traced with its name and result. */
int kfd_ioctl(int fd, unsigned long request, void *arg);
/* "CREATE_QUEUE" for KFD_IOCTL_CREATE_QUEUE, by _IOC_NR. */
const char *kfd_ioctl_name(unsigned long request);

/* GET_CLOCK_COUNTERS for one GPU. */
int kfd_clock_counters(struct kfd_process *proc, uint32_t gpu_id,
		       struct kfd_args_get_clock_counters *out);
/* AVAILABLE_MEMORY; -EOPNOTSUPP (from -EINVAL/-ENOTTY) on old kernels. */
int kfd_available_memory(struct kfd_process *proc, uint32_t gpu_id, uint64_t *bytes);
/* GB_ADDR_CONFIG of a GPU (GET_TILE_CONFIG, as libhsakmt's
 * hsaKmtGetTileConfig for ROCr's image manager); the tile-mode tables,
 * empty on gfx9, are not read. */
int kfd_gb_addr_config(struct kfd_process *proc, uint32_t gpu_id, uint32_t *value);
/* SET_TRAP_HANDLER: the second-level trap handler (code at tba, its data at
 * tma; GPU VAs mapped on gpu_id) the kernel's first-level handler jumps to
 * on a trap or an exception of any wave of this process on that GPU. */
int kfd_set_trap_handler(struct kfd_process *proc, uint32_t gpu_id, uint64_t tba, uint64_t tma);

/* ---- memory ---- */

enum kfd_mem_kind {
	KFD_MEM_VRAM,     /* device memory; CPU-mapped through the render fd
	                   * only when host_access is set */
	KFD_MEM_GTT,      /* system memory owned by the driver, CPU-mapped
	                   * through the render fd */
	KFD_MEM_USERPTR,  /* anonymous host memory we mmap, registered */
	KFD_MEM_DOORBELL, /* the process doorbell slice (kfd fd) */
	KFD_MEM_MMIO,     /* the GPU's MMIO-remap page: HDP flush registers
	                   * (kfd fd) */
};

struct kfd_mem {
	void *addr;          /* CPU VA == GPU VA */
	uint64_t size;       /* bytes, page-rounded */
	uint64_t handle;     /* KFD handle */
	uint32_t gpu_id;     /* owning device (the one ALLOC was issued on) */
	uint32_t flags;      /* KFD_ALLOC_* passed to ALLOC */
	enum kfd_mem_kind kind;
	bool host_access;    /* mapped for the CPU */
	bool external;       /* USERPTR over caller-owned pages (register) */
	void *user_addr;     /* USERPTR: CPU address of the first page; equals
	                      * addr except for an alias (kfd_mem_register_alias) */
	uint32_t *mapped_gpus; /* gpu_ids it is mapped on */
	uint32_t n_mapped;
	bool no_address;     /* a BO at a handle-space VA (kfd_mem_alloc's
	                      * no_address, kfd_mem_import_dmabuf_at): never
	                      * CPU- or GPU-mapped, reached through dma-bufs */
	void *reservation;   /* VA reservation to release (may equal addr) */
	size_t reservation_size;
	bool imported;       /* IMPORT_DMABUF / IPC_IMPORT_HANDLE of another
	                      * BO's pages (kfd_mem_import_*) */
	bool has_dmabuf_fd;  /* dmabuf_fd is ours (kfd_mem_export_dmabuf) */
	int dmabuf_fd;       /* closed when the record goes */
	struct kfd_mem *next; /* process list, under the process lock */
};

struct kfd_mem_alloc_args {
	enum kfd_mem_kind kind;
	uint32_t gpu_id;     /* device to allocate on (any GPU for GTT/USERPTR) */
	uint64_t size;       /* rounded up to the page size */
	uint64_t align;      /* VA alignment, power of two >= 4096 (0 = auto:
	                      * next power of two up to 2 MiB) */
	uint32_t extra_flags; /* COHERENT, UNCACHED, EXECUTABLE, PUBLIC... */
	bool host_access;    /* CPU-map it (always for GTT/USERPTR) */
	bool readonly;       /* omit WRITABLE */
	bool no_address;     /* libhsakmt's NoAddress: the BO only, at a VA of
	                      * the handle space (non-canonical addresses from
	                      * 1 << 47 that no CPU or GPU mapping uses), not
	                      * CPU-mapped; kfd_mem_map refuses it.  Its pages
	                      * are reached by exporting it and importing the
	                      * dma-buf where they are wanted (the vmem API). */
};

/* Reserves a VA range (anonymous PROT_NONE), ALLOCs the BO at it, and for
 * CPU-visible memory mmaps it there (render fd + mmap_offset for VRAM/GTT,
 * anonymous memory registered as USERPTR for USERPTR), so CPU and GPU see the
 * same address.  Does not map it to any GPU: call kfd_mem_map. */
int kfd_mem_alloc(struct kfd_process *proc, const struct kfd_mem_alloc_args *args,
		  struct kfd_mem **out);
/* A CPU address range of size bytes (page-rounded) reserved PROT_NONE for
 * the GPUs to use: at hint when hint is non-zero, aligned to align and free,
 * else anywhere aligned to align (a power of two >= 4096); inside every
 * GPU's GPUVM aperture.  -ENOMEM when no such range is free, -EINVAL for a
 * bad alignment.  kfd_va_range_release gives it back (whole or a part). */
int kfd_va_range_reserve(struct kfd_process *proc, uint64_t hint, uint64_t size, uint64_t align,
			 void **addr);
void kfd_va_range_release(void *addr, uint64_t size);
/* Registers caller-owned host memory [addr, addr+size) as a USERPTR BO whose
 * GPU VA equals addr (page-rounded outward).  Refused with -EEXIST when the
 * pages overlap another BO's VA (one GPU VA maps one BO). */
int kfd_mem_register(struct kfd_process *proc, void *addr, uint64_t size, uint32_t gpu_id,
		     struct kfd_mem **out);
/* kfd_mem_register with KFD_ALLOC_* extra_flags (COHERENT for fine-grained
 * memory). */
int kfd_mem_register_flags(struct kfd_process *proc, void *addr, uint64_t size,
			   uint32_t gpu_id, uint32_t extra_flags, struct kfd_mem **out);
/* Registers [addr, addr+size) (page-rounded outward) as a USERPTR BO at a
 * GPU VA of its own, reserved for it as for kfd_mem_alloc (mem->addr; not
 * CPU-accessible: mem->host_access is false, the pages are at
 * mem->user_addr).  libhsakmt 5.2.3 places every registered user range so,
 * in its SVM aperture: any number of aliases, overlapping or not, can pin
 * the same pages (the kernel keeps one userptr BO per ALLOC). */
int kfd_mem_register_alias(struct kfd_process *proc, void *addr, uint64_t size,
			   uint32_t gpu_id, uint32_t extra_flags, struct kfd_mem **out);
/* MAP_MEMORY_TO_GPU / UNMAP_MEMORY_FROM_GPU for the listed devices (those
 * already mapped / not mapped are skipped). */
int kfd_mem_map(struct kfd_process *proc, struct kfd_mem *mem, const uint32_t *gpu_ids,
		uint32_t n);
int kfd_mem_unmap(struct kfd_process *proc, struct kfd_mem *mem, const uint32_t *gpu_ids,
		  uint32_t n);
/* Unmaps from every GPU, FREEs the BO, unmaps the CPU range and releases the
 * VA reservation.  NULL is accepted. */
int kfd_mem_free(struct kfd_process *proc, struct kfd_mem *mem);
/* The allocation containing addr, or NULL (under the process lock). */
struct kfd_mem *kfd_mem_find(struct kfd_process *proc, const void *addr);
/* The allocation with the lowest address among those whose VA range
 * overlaps [start, end), or NULL. */
struct kfd_mem *kfd_mem_first_in(struct kfd_process *proc, uintptr_t start, uintptr_t end);

/* ---- SVM ranges (svm.c) ---- */
/* The most attributes one SVM ioctl carries: the array's bytes ride in the
 * 14-bit ioctl size field after the 24-byte header. */
#define KFD_SVM_MAX_ATTRS ((((1u << 14) - 1) - 24u) / 8u)
/* SVM SET_ATTR or GET_ATTR (op) over [start, start + size), page-aligned
 * and non-zero (-EINVAL), with n attributes whose location and access
 * values are gpu_ids (or KFD_SVM_LOCATION_*); GET_ATTR rewrites attrs.
 * -EOPNOTSUPP before KFD 1.5, -E2BIG past KFD_SVM_MAX_ATTRS; the kernel's
 * errors (-EFAULT: unmapped pages, -EADDRINUSE: a BO there, -EINVAL)
 * otherwise. */
int kfd_svm_attrs(struct kfd_process *proc, uint32_t op, uint64_t start, uint64_t size,
		  struct kfd_svm_attribute *attrs, uint32_t n);
/* True when the kernel has the SVM ioctl (KFD 1.5, with SET_XNACK_MODE). */
static inline bool kfd_svm_api(const struct kfd_process *proc)
{
	return proc->version_minor >= 5;
}

/* ---- sharing buffers between processes (share.c) ---- */

/* True when the kernel has EXPORT_DMABUF (KFD 1.12; IMPORT_DMABUF and
 * GET_DMABUF_INFO are older). */
#define KFD_MINOR_EXPORT_DMABUF 12
static inline bool kfd_dmabuf_api(const struct kfd_process *proc)
{
	return proc->version_minor >= KFD_MINOR_EXPORT_DMABUF;
}

/* The BO's dma-buf (EXPORT_DMABUF, O_CLOEXEC), made on the first call and
 * kept open in mem->dmabuf_fd until mem is freed; later calls return the
 * same fd.  VRAM and GTT BOs (the kernel refuses USERPTR with -EPERM);
 * -EINVAL for a doorbell. */
int kfd_mem_export_dmabuf(struct kfd_process *proc, struct kfd_mem *mem, int *fd);
/* GET_DMABUF_INFO on a dma-buf fd: its size, exporting GPU and KFD flags
 * (VRAM or GTT, PUBLIC).  With metadata, *metadata_size bytes there take
 * the BO's metadata and *metadata_size becomes its size (also on failure:
 * the kernel says how much a too-small buffer lacked). */
int kfd_dmabuf_info(struct kfd_process *proc, int fd, uint64_t *size, uint32_t *gpu_id,
		    uint32_t *flags, void *metadata, uint32_t *metadata_size);
/* Imports a dma-buf (IMPORT_DMABUF) at a VA reserved for it (aligned to
 * align, 0 = automatic), on gpu_id (0: the exporting GPU if this process
 * has it, else the first GPU), and maps it for the CPU by mmap of the fd
 * when the file allows (host_access says whether it did).  Not mapped to
 * any GPU: call kfd_mem_map.  The fd stays the caller's; the import holds
 * the buffer.  kfd_mem_free releases it. */
int kfd_mem_import_dmabuf(struct kfd_process *proc, int fd, uint32_t gpu_id, uint64_t align,
			  struct kfd_mem **out);
/* Imports a dma-buf (IMPORT_DMABUF) on gpu_id (0: the exporting GPU if this
 * process has it, else the first GPU) at va, a range the caller reserved
 * and keeps (kfd_mem_free does not release it), or with va NULL at a VA of
 * the handle space (mem->no_address, as kfd_mem_alloc's no_address).  No
 * CPU mapping and no GPU mapping: kfd_mem_map maps an import at va.
 * *exporter (may be NULL) gets the exporting GPU's gpu_id. */
int kfd_mem_import_dmabuf_at(struct kfd_process *proc, int fd, uint32_t gpu_id, void *va,
			     uint32_t *exporter, struct kfd_mem **out);

/* IPC_EXPORT_HANDLE (ROCm-DKMS only): the kernel's 128-bit share handle of
 * mem.  -ENOTTY (-EINVAL before 6.12) from an upstream kernel. */
int kfd_mem_ipc_export(struct kfd_process *proc, struct kfd_mem *mem, uint32_t share[4]);
/* IPC_IMPORT_HANDLE (ROCm-DKMS only): size bytes at a VA reserved for them
 * (aligned to align, 0 = automatic), on gpu_id; CPU-mapped through the
 * render node when the kernel gives an offset.  mem->flags carries the
 * exporter's grain (COHERENT, UNCACHED). */
int kfd_mem_ipc_import(struct kfd_process *proc, const uint32_t share[4], uint32_t gpu_id,
		       uint64_t size, uint64_t align, struct kfd_mem **out);

/* ---- doorbells ---- */
/* Maps the process doorbell slice of a GPU (once; later calls return the same
 * mapping), from a CREATE_QUEUE doorbell_offset: ALLOC(DOORBELL, 8 KiB) at a
 * reserved VA, mmap(kfd fd, offset & ~0x1FFF, exactly 8 KiB), MAP to the GPU.
 * *doorbell is set to the queue's 64-bit doorbell slot. */
int kfd_doorbell_map(struct kfd_process *proc, uint32_t gpu_id, uint64_t doorbell_offset,
		     uint64_t **doorbell);

/* ---- queues ---- */
struct kfd_queue_args {
	uint32_t gpu_id;
	uint32_t type;          /* KFD_QUEUE_TYPE_COMPUTE_AQL */
	uint32_t percentage;    /* 100 */
	uint32_t priority;      /* 0..15; 7 is normal */
	void *ring;             /* GPU-mapped, ring_size bytes, 256 B aligned */
	uint32_t ring_size;     /* bytes, power of two */
	uint64_t *read_ptr;     /* in a one-page GPU-mapped BO */
	uint64_t *write_ptr;    /* in a one-page GPU-mapped BO */
	void *eop;              /* NULL or eop_size bytes of VRAM */
	uint64_t eop_size;
	void *ctx_save;         /* CWSR area */
	uint32_t ctx_save_size; /* per XCC */
	uint32_t ctl_stack_size;
	uint32_t sdma_engine_id; /* type SDMA_BY_ENG_ID (KFD 1.17+): the engine */
};
/* CREATE_QUEUE, then maps the doorbell slice (kfd_doorbell_map). */
int kfd_queue_create(struct kfd_process *proc, const struct kfd_queue_args *args,
		     uint32_t *queue_id, uint64_t **doorbell);
int kfd_queue_destroy(struct kfd_process *proc, uint32_t queue_id);
/* ALLOC_QUEUE_GWS: gives the queue num_gws global wave sync slots (0 takes
 * them back); *first_gws gets the first slot.  The process's GWS on a
 * device goes to one queue at a time (-EBUSY); -ENODEV without GWS.
 * DESTROY_QUEUE releases them. */
int kfd_queue_alloc_gws(struct kfd_process *proc, uint32_t queue_id, uint32_t num_gws,
			uint32_t *first_gws);
int kfd_queue_update(struct kfd_process *proc, uint32_t queue_id, uint32_t percentage,
		     uint32_t priority, void *ring, uint32_t ring_size);
int kfd_queue_set_cu_mask(struct kfd_process *proc, uint32_t queue_id,
			  const uint32_t *mask, uint32_t num_bits);

/* CWSR sizes for a node, by the kernel's formula (kfd_queue.c); the sysfs
 * values win when the kernel exports them. */
struct kfd_cwsr_sizes {
	uint32_t ctl_stack_size;
	uint32_t cwsr_size;      /* ctl stack + workgroup data, per XCC */
	uint32_t debug_size;     /* per XCC */
	uint32_t eop_size;       /* 4096, or 0 for AQL on gfx 9.4.x */
	uint64_t total_size;     /* ALIGN((cwsr + debug) * num_xcc, 4096) */
};
void kfd_cwsr_sizes(const struct kfd_node *node, struct kfd_cwsr_sizes *out);

/* ---- events ---- */
struct kfd_event {
	uint32_t id;
	uint32_t type;             /* KFD_EVENT_TYPE_* */
	bool auto_reset;
	uint64_t *mailbox;         /* signal events: &event_page[slot]; else NULL */
	uint64_t age;              /* last seen event age (1.14+), for waits */
};
/* CREATE_EVENT.  The first signal event of the process allocates the 32 KiB
 * event page (GTT, host-visible, mapped to every GPU, slots set to ~0) and
 * passes its handle, as libhsakmt does on a dGPU. */
int kfd_event_create(struct kfd_process *proc, uint32_t type, bool auto_reset,
		     struct kfd_event *out);
int kfd_event_destroy(struct kfd_process *proc, struct kfd_event *ev);
int kfd_event_set(struct kfd_process *proc, struct kfd_event *ev);
int kfd_event_reset(struct kfd_process *proc, struct kfd_event *ev);
/* WAIT_EVENTS on n events (any, or all), timeout in ms
 * (KFD_WAIT_TIMEOUT_INFINITE).  Returns 0 and sets *result to KFD_WAIT_*;
 * exception data is copied back into data[i] when non-NULL. */
int kfd_event_wait(struct kfd_process *proc, struct kfd_event *const *evs, uint32_t n,
		   bool wait_all, uint32_t timeout_ms, uint32_t *result,
		   struct kfd_event_data *data);
/* The same, but an event that is gone (-EINVAL, or -EIO: destroyed while
 * waiting, which wakes every waiter on it) is logged at debug level only:
 * for a waiter another thread wakes by destroying an event it waits on
 * (the queue error service at the last hsa_shut_down), which logs
 * whatever else it did not expect. */
int kfd_event_wait_quiet(struct kfd_process *proc, struct kfd_event *const *evs, uint32_t n,
			 bool wait_all, uint32_t timeout_ms, uint32_t *result,
			 struct kfd_event_data *data);

#endif /* HSALITE_KFD_H */
