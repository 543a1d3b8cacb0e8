/*
 * kfdemu driver model: internal objects.  The split follows amdkfd:
 *
 *   kemu_machine.c   machine, devices, file table, fault injection, logging
 *   kemu_chardev.c   /dev/kfd: ioctl dispatch (kfd_chardev.c), simple ioctls
 *   kemu_process.c   kfd_process / process-device data, apertures, ACQUIRE_VM
 *   kemu_memory.c    buffer objects: ALLOC/FREE/MAP/UNMAP (amdgpu_amdkfd_gpuvm.c)
 *   kemu_dmabuf.c    EXPORT/IMPORT_DMABUF, GET_DMABUF_INFO (shared across processes)
 *   kemu_vm.c        the GPU page table per process and device, faults
 *   kemu_queue.c     CREATE/DESTROY/UPDATE_QUEUE, CU mask (kfd_queue.c, pqm),
 *                    the engine of each queue type (mqd_mgrs[type])
 *   kemu_ih.c        the GPU interface the engines call (gpu/gpu.h): VM,
 *                    interrupts, and the fault handler that evicts
 *   kemu_doorbell.c  per-process doorbell slices (kfd_doorbell.c)
 *   kemu_events.c    events and WAIT_EVENTS (kfd_events.c)
 *   kemu_drm.c       the render node: ioctl entry, DRM info via the topology
 *   kemu_gem.c       GEM handles and PRIME of render files, GEM_MMAP, GEM_VA
 *   kemu_mmap.c      mmap of kfd and render offsets
 *   kemu_svm.c       SVM attribute ranges (kfd_svm.c, without migration)
 *   kemu_uaccess.c   copy_from_user/copy_to_user with fault checking
 *   kemu_log.c       KFDEMU_LOG and the ioctl argument decoder
 *   kemu_record.c    KFDEMU_IOCTL_RECORD, one line per call into the model
 *
 * Locking, outermost first:
 *   machine->gem_lock the render files' GEM handle tables and BO gem_refs
 *                     (kemu_gem.c); tables also change under machine->lock
 *   process->lock     "p->mutex": pdds, BOs, queues, doorbells, runtime state
 *   process->vm_lock  (rwlock) every GPU VM of the process; taken for read by
 *                     the GPU side, for write by MAP/UNMAP
 *   process->event_lock  events and the signal page; waiters sleep on their
 *                     own condvar with only this lock, never machine->lock
 *   machine->lock     the file table, the process list, device counters;
 *                     held only briefly, never while taking another lock
 *   machine->record_lock  one record line (number and write), taken after
 *                     a call returned, with nothing else taken under it
 * A function comment says which lock it expects held ("Caller holds ...").
 */
#ifndef KFDEMU_PRIV_H
#define KFDEMU_PRIV_H

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "kfdemu.h"
#include "amd/kfd_uapi.h"

#define KEMU_PAGE_SIZE 4096ull
#define KEMU_ALIGN(x, a) (((x) + (a) - 1) & ~((uint64_t)(a) - 1))
#define KEMU_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
/*
 * Room for one more element in an appendable array (n of *cap in use, elem
 * bytes each): items itself while n < *cap, else the array reallocated to
 * twice *cap (first when *cap is 0) with *cap updated; NULL when the
 * memory is not there or the size would not fit a size_t, items and *cap
 * then unchanged.  The caller stores the result back, under the lock that
 * guards the array, before appending.
 */
static inline void *kemu_array_room(void *items, size_t n, size_t *cap, size_t elem, size_t first)
{
	if (!cap || !elem || !first || n > *cap)
		return NULL;
	if (n < *cap)
		return items;
	size_t grown = *cap ? *cap * 2 : first;
	if (grown <= *cap || grown > SIZE_MAX / elem)
		return NULL;
	void *p = realloc(items, grown * elem);
	if (p)
		*cap = grown;
	return p;
}

/* x86-64 user address limit (TASK_SIZE_MAX with 4-level paging). */
#define KEMU_TASK_SIZE 0x00007FFFFFFFF000ull

/* The DRM fake-offset space starts at DRM_FILE_PAGE_OFFSET_START (4 GiB
 * on 64-bit) */
#define KEMU_DRM_FAKE_OFFSET_BASE 0x100000000ull

/* Per-process queue ids: the first free bit of a 1024-bit bitmap. */
#define KEMU_MAX_QUEUE_IDS 1024

/* ---- logging ---- */
void kemu_log(const struct kemu_machine *m, enum kemu_log_level lvl,
	      const char *fmt, ...) __attribute__((format(printf, 3, 4)));
#define kemu_err(m, ...)  kemu_log(m, KEMU_LOG_ERROR, __VA_ARGS__)
#define kemu_warn(m, ...) kemu_log(m, KEMU_LOG_WARN, __VA_ARGS__)
#define kemu_info(m, ...) kemu_log(m, KEMU_LOG_INFO, __VA_ARGS__)
#define kemu_dbg(m, ...)  kemu_log(m, KEMU_LOG_DEBUG, __VA_ARGS__)
int kemu_log_level_parse(const char *s);
/* Prints "name: field=value ..." for an ioctl argument (debug level). */
void kemu_log_ioctl(const struct kemu_machine *m, unsigned nr, const char *phase,
		    const void *arg, size_t size, long ret);
const char *kemu_ioctl_name(unsigned nr);
/* Formats " name=0x.." for each field of ioctl nr's argument that lies
 * within size bytes into buf (cap bytes, NUL-terminated); returns the
 * length written. */
size_t kemu_ioctl_fields(unsigned nr, const void *arg, size_t size, char *buf, size_t cap);

/* ---- the ioctl record (kemu_record.c): KFDEMU_IOCTL_RECORD=<file> ---- */
/* Opens the record file the environment names (called once per machine;
 * no-op without it); writes one "gpu" line per device. */
void kemu_record_init(struct kemu_machine *m);
void kemu_record_fini(struct kemu_machine *m);
/* A /dev/kfd ioctl: arg is the kernel copy after the handler (NULL when it
 * failed before the copy-in), in the copy before it (for MAP/UNMAP's device
 * array and SVM's attributes, read from user memory / the argument). */
void kemu_record_kfd(struct kemu_machine *m, unsigned nr, const void *arg, size_t size,
		     long ret);
struct kemu_file;
/* A render-node ioctl (kdata: the argument after the call). */
void kemu_record_render(struct kemu_file *f, unsigned long request, const void *kdata,
			long ret);
/* An mmap of an emulated file (ret 0 or -errno). */
void kemu_record_mmap(struct kemu_file *f, size_t len, int prot, int flags, uint64_t offset,
		      int ret);
/* An open of an emulated node (gpu: the render node's device index, -1 for
 * /dev/kfd; ret the fd or -errno). */
void kemu_record_open(struct kemu_machine *m, int gpu, int ret);

/* ---- fault injection ---- */
enum kemu_fail_site { KEMU_FAIL_IOCTL, KEMU_FAIL_ALLOC, KEMU_FAIL_MMAP, KEMU_FAIL_OPEN };
#define KEMU_FAIL_RULES 16
struct kemu_fail_rule {
	enum kemu_fail_site site;
	unsigned ioctl_nr;      /* KEMU_FAIL_IOCTL only */
	uint64_t nth;           /* fail the nth matching call (1-based) */
	_Atomic uint64_t count; /* matching calls so far */
};
/* True if this call must fail (counts the call). */
bool kemu_fail_check(struct kemu_machine *m, enum kemu_fail_site site, unsigned nr);

/* ---- raw system calls: the model must not re-enter an LD_PRELOAD shim ---- */
void *kemu_sys_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
int kemu_sys_munmap(void *addr, size_t len);
int kemu_sys_close(int fd);
int kemu_sys_memfd(const char *name, uint64_t size, bool cloexec);

/* ---- user memory ---- */
int kemu_copy_from_user(void *dst, uint64_t uaddr, size_t len);
int kemu_copy_to_user(uint64_t uaddr, const void *src, size_t len);
static inline bool kemu_access_ok(uint64_t addr, uint64_t size)
{
	return addr <= KEMU_TASK_SIZE && size <= KEMU_TASK_SIZE - addr;
}

/* ---- devices ---- */
struct kemu_device {
	const struct kemu_gpu *gpu;    /* points into machine->topo */
	uint32_t index;                /* 0..n_gpus-1 */
	int mmio_fd;                   /* the MMIO remap page (HDP registers) */
	void *mmio;
	uint64_t vram_used;            /* bytes; under machine->lock */
	uint64_t next_fake_offset;     /* DRM vma manager; under machine->lock */
	/* BOs with a fake offset on this device, for render-node mmap (the
	 * DRM vma offset manager); under machine->lock */
	struct kemu_bo **bos;
	size_t n_bos, cap_bos;
	_Atomic uint64_t hdp_flushes;  /* HDP flushes seen (kemu_hdp.c) */
	/* the round trip (kemu_hdp.c, gfx90a/gfx94x): the last seal taken at
	 * a doorbell store (seals number the device's rings that found
	 * unsealed dirty pages, from 1), and the highest seal a packet
	 * fetched after its ring has completed: pages sealed at or below it
	 * have landed */
	_Atomic uint32_t hdp_seal_seq, hdp_landed;
	/* a page of it turned dirty (or was written again once sealed)
	 * after the last seal: its doorbell mappings are armed; under the
	 * model's lock */
	bool hdp_unsealed;
};

/* ---- files ---- */
struct kemu_file {
	struct kemu_machine *m;
	enum kemu_node node;
	struct kemu_device *dev;       /* render node: its GPU */
	struct kemu_process *proc;     /* /dev/kfd: the opener's process */
	pid_t owner;                   /* host process that opened it */
	uint32_t fd_refs;              /* fds in the table; under machine->lock */
	uint32_t users;                /* fd_refs + VMs bound to it (ACQUIRE_VM) */
	int stat_fd;                   /* an fd kept so that dev/ino stay unique */
	/* render node: the GEM handles of this file (drm_file.object_idr,
	 * with the PRIME lookup riding on it); under machine->lock */
	struct kemu_gem_handle *gem;
	size_t n_gem, cap_gem;
	struct kemu_file *next;
};
/* A GEM handle: names bo on one render file (kemu_gem.c). */
struct kemu_gem_handle {
	uint32_t handle;               /* >= 1, lowest free (idr_alloc from 1) */
	struct kemu_bo *bo;
};
/* Releases the GEM handles of a render file that lost its last user
 * (drm_gem_release); takes each BO's process lock.  Caller holds nothing. */
void kemu_gem_release_file(struct kemu_file *f);
/* Does f hold a GEM handle of bo (drm_vma_node_is_allowed)?  Caller holds
 * machine->lock. */
bool kemu_gem_file_has_bo(const struct kemu_file *f, const struct kemu_bo *bo);
/* The render node's buffer ioctls: GEM_CLOSE, PRIME_HANDLE_TO_FD,
 * PRIME_FD_TO_HANDLE, AMDGPU_GEM_MMAP, AMDGPU_GEM_VA; -ENOSYS for any
 * other nr.  kdata is the kernel copy. */
long kemu_gem_ioctl(struct kemu_file *f, unsigned nr, void *kdata);
struct kemu_file *kemu_file_get_fd(struct kemu_machine *m, int fd);
/* Drops a reference taken by kemu_file_get_fd or held by a VM. */
void kemu_file_put(struct kemu_file *f);

/* ---- buffer objects ---- */
enum kemu_bo_kind { KEMU_BO_VRAM, KEMU_BO_GTT, KEMU_BO_USERPTR, KEMU_BO_DOORBELL,
		    KEMU_BO_MMIO };
struct kemu_bo {
	struct kemu_process *proc;
	struct kemu_pdd *pdd;          /* owning device */
	uint32_t idr;                  /* handle = gpu_id << 32 | idr */
	uint32_t flags;                /* KFD_ALLOC_* */
	enum kemu_bo_kind kind;
	uint64_t va, size;             /* as allocated */
	uint64_t bo_size;              /* backing size (size/2 for AQL_QUEUE_MEM) */
	int fd;                        /* memfd backing; -1 for USERPTR/DOORBELL/MMIO */
	uint8_t *host;                 /* the emulator's view of the pages */
	uint64_t user_addr;            /* USERPTR: the user's pages */
	uint64_t fake_offset;          /* DRM mmap offset (VRAM/GTT) */
	struct kemu_file *drm_file;    /* render file allowed to mmap it */
	uint32_t mapped_mask;          /* devices whose VM maps it */
	uint32_t queue_refs[KEMU_MAX_GPUS]; /* queues using it, per device */
	bool is_signal_page;           /* event page handle (FREE -> -EPERM) */
	bool imported;                 /* IMPORT_DMABUF: not charged to a limit */
	int dmabuf_fd;                 /* its dma-buf file once exported, or -1 */
	/* VRAM with the HDP model on: a bit per page the CPU wrote through
	 * the BAR since the device's last HDP flush, and their count
	 * (kemu_hdp.c) */
	_Atomic uint64_t *hdp_dirty;
	_Atomic uint32_t hdp_ndirty;
	/* dirty pages a bulk CPU write (memcpy) finished with, kept without
	 * access so that a CPU read-back of them is seen (gfx90a/gfx94x), and
	 * each dirty page's content when it was clean: what the GPU would
	 * read from memory (an anonymous shadow of bo_size bytes) */
	_Atomic uint64_t *hdp_watched;
	uint8_t *hdp_snap;
	/* per page (devices whose writes land after a round trip, gfx90a/
	 * gfx94x): 0 while a dirty page was written after the last doorbell
	 * store, else the seal of the first doorbell store after its last
	 * write (kemu_device.hdp_seal_seq); under the model's lock */
	uint32_t *hdp_seal;
	/* GEM object lifetime: the KFD handle (idr slot) and the GEM handles
	 * of render files each hold it; destroyed when both are gone.  A BO
	 * made by PRIME_FD_TO_HANDLE has no KFD handle.  Under proc->lock. */
	bool kfd_handle;
	uint32_t gem_refs;
};
#define KEMU_BO_NO_IDR UINT32_MAX   /* idr of a BO without a KFD handle */

/* ---- GPU VM ---- */
struct kemu_vm_mapping {
	uint64_t start, last;          /* GPU pages, inclusive */
	struct kemu_bo *bo;
	uint64_t bo_offset;            /* byte offset of start in the BO */
	unsigned perms;                /* KEMU_ACCESS_* */
	bool gem;                      /* made by GEM_VA on the render node */
};
struct kemu_vm {
	struct kemu_vm_mapping *maps;  /* sorted by start, non-overlapping */
	size_t n, cap;
};
/* Caller holds process->vm_lock for write. */
int kemu_vm_insert(struct kemu_vm *vm, struct kemu_bo *bo, uint64_t va, uint64_t size,
		   uint64_t bo_offset);
int kemu_vm_insert_map(struct kemu_vm *vm, struct kemu_bo *bo, uint64_t va, uint64_t size,
		       uint64_t bo_offset, unsigned perms, bool gem);
/* The KFD (MAP_MEMORY_TO_GPU) mappings of bo. */
void kemu_vm_remove_bo(struct kemu_vm *vm, const struct kemu_bo *bo);
/* The GEM_VA mappings of bo: all of them, or the one starting at va
 * (-ENOENT: amdgpu_vm_bo_unmap found none). */
void kemu_vm_remove_gem_bo(struct kemu_vm *vm, const struct kemu_bo *bo);
int kemu_vm_remove_gem_at(struct kemu_vm *vm, const struct kemu_bo *bo, uint64_t va);
/* Releases vm_lock taken for write, after bumping vm_gen: every GPU-side
 * translation cached before (CP TLBs, decoded programs) is then stale. */
void kemu_vm_write_unlock(struct kemu_process *p);
/* Caller holds process->vm_lock (read or write). */
const struct kemu_vm_mapping *kemu_vm_lookup(const struct kemu_vm *vm, uint64_t page);
void kemu_vm_fini(struct kemu_vm *vm);

/* ---- queues ---- */
struct kemu_queue {
	struct kemu_pdd *pdd;
	/* the descriptor its engine runs (gpu/gpu.h): hw.info the queue's
	 * properties, hw.sdma_slot an SDMA queue's engine*queues + queue */
	struct kemu_hw_queue hw;
	uint64_t eop_size;
	struct kemu_bo *ring_bo, *rptr_bo, *wptr_bo, *eop_bo, *cwsr_bo;
	struct kemu_queue *next;
};

/* ---- process-device data (kfd_process_device) ---- */
struct kemu_pdd {
	struct kemu_process *proc;
	struct kemu_device *dev;
	struct kemu_file *drm_file;    /* set by ACQUIRE_VM; NULL = no VM */
	struct kemu_bo **bos;          /* the idr: index = handle low half */
	int cwsr_fd;                   /* RESERVED_MEM (TBA/TMA) pages, or -1 */
	uint32_t n_bos;
	struct kemu_vm vm;             /* under proc->vm_lock */
	/* doorbells */
	int db_fd;                     /* -1 until allocated */
	uint64_t *db;                  /* the slice, 1024 slots */
	uint64_t db_bitmap[KFD_DOORBELLS_PER_PROCESS / 64];
	struct kemu_queue *db_queue[KFD_DOORBELLS_PER_PROCESS];
	/* per doorbell: the seal its last store took while the device had
	 * unsealed dirty pages (kemu_hdp.c), 0: none.  Written by the HDP
	 * fault handler, read by the CP at each packet it fetches */
	_Atomic uint32_t hdp_db_seal[KFD_DOORBELLS_PER_PROCESS];
	/* per doorbell: index + 1 of a packet the CP completed before any
	 * doorbell store covering it (the lost-doorbell fetch ran ahead), 0:
	 * none; the next ring that seals lands its seal at once, as the
	 * packet's completion on silicon follows that ring (kemu_hdp.c) */
	_Atomic uint64_t hdp_db_early[KFD_DOORBELLS_PER_PROCESS];
	/* per doorbell: the seal such a ring took, landed at the queue's next
	 * fetch (0: none) */
	_Atomic uint32_t hdp_db_pending[KFD_DOORBELLS_PER_PROCESS];
	uint32_t queue_count;
	/* bitmap of SDMA queue slots, engine * queues + queue: up to 128
	 * (KFD_MAX_SDMA_QUEUES; MI300X has 16 engines x 8) */
	uint64_t sdma_used[2];
	uint32_t num_gws;              /* qpd.num_gws: GWS held by one queue, or 0 */
	/* qpd state */
	uint32_t default_policy, alternate_policy, misc_process_flag;
	uint64_t alt_base, alt_size;
	/* SET_TRAP_HANDLER's second-level handler: written under p->lock
	 * (tma relaxed, then tba release), read by engine threads without it
	 * (kemu_ih.c, ih_trap_config) */
	_Atomic uint64_t tba, tma;
	uint64_t scratch_va;
	struct kfd_process_device_apertures apertures;
};

/* ---- events ---- */
struct kemu_event_waiter;
struct kemu_wait_call;
struct kemu_event {
	uint32_t id, type;
	bool auto_reset, signaled;
	uint64_t age;
	struct kemu_event_waiter *waiters;  /* intrusive list */
	union {
		struct kfd_hsa_memory_exception_data memory;
		struct kfd_hsa_hw_exception_data hw;
	} data;
};

/* ---- SVM ranges (kemu_svm.c) ---- */
struct kemu_svm_span {
	uint64_t start, last;          /* pages, inclusive */
};
/* The calling process mapped [addr, addr + len) from a device file. */
void kemu_svm_device_mapped(struct kemu_machine *m, uint64_t addr, uint64_t len);
struct kemu_svm_range {
	uint64_t start, last;          /* CPU == GPU pages, inclusive */
	uint32_t preferred_loc, prefetch_loc;
	uint32_t flags;                /* KFD_SVM_FLAG_* */
	uint32_t granularity;
	uint32_t access, aip;          /* device-index bitmaps */
};
long kemu_ioctl_svm(struct kemu_process *p, void *arg, size_t size);
/* Is any SVM range inside [addr, addr + size)?  Takes vm_lock. */
bool kemu_svm_overlaps(struct kemu_process *p, uint64_t addr, uint64_t size);
/* CWSR area as SVM ranges (kfd_queue_buffer_svm_get).  Caller holds p->lock. */
int kemu_svm_queue_get(struct kemu_process *p, uint32_t idx, uint64_t addr, uint64_t size);
/* Caller holds vm_lock. */
const struct kemu_svm_range *kemu_svm_lookup(const struct kemu_process *p, uint64_t page);
bool kemu_svm_gpu_page_mapped(const struct kemu_process *p, uint32_t idx, uint64_t page,
			      unsigned *perms);
void kemu_svm_fini(struct kemu_process *p);

/* ---- the process ---- */
enum kemu_runtime_state { KEMU_RUNTIME_DISABLED, KEMU_RUNTIME_ENABLED };
struct kemu_process {
	struct kemu_machine *m;
	pid_t pid;
	pthread_mutex_t lock;
	pthread_rwlock_t vm_lock;
	/* bumped before every vm_lock write unlock (kemu_vm_write_unlock):
	 * a translation cached under generation g is valid while it reads g */
	_Atomic uint64_t vm_gen;
	/* bumped with vm_gen by mapping changes only (not by the HDP model's
	 * CPU-write faults): the instruction cache's key (gpu.h code_gen) */
	_Atomic uint64_t map_gen;
	struct kemu_pdd pdds[KEMU_MAX_GPUS];
	uint32_t n_pdds;
	struct kemu_queue *queues;
	uint64_t queue_ids[KEMU_MAX_QUEUE_IDS / 64];
	struct kemu_svm_range *svm;    /* sorted; under vm_lock */
	size_t n_svm, cap_svm;
	/* CPU pages mapped from /dev/kfd or a render node (VM_IO|VM_PFNMAP
	 * in the kernel), inclusive [start, last] spans, unsorted; under
	 * dev_vma_lock, a leaf lock */
	pthread_mutex_t dev_vma_lock;
	struct kemu_svm_span *dev_vmas;
	size_t n_dev_vmas, cap_dev_vmas;
	enum kemu_runtime_state runtime_state;
	/* runtime_state == ENABLED, for engine threads that may not take
	 * p->lock (kemu_ih.c, ih_trap_exception): stored with release after
	 * the state under p->lock, read with acquire */
	_Atomic bool runtime_enabled;
	uint64_t r_debug;
	bool xnack_enabled;
	/* events (event_lock) */
	pthread_mutex_t event_lock;
	bool dying;                    /* exit teardown began: waits end with -EINTR */
	struct kemu_wait_call *wait_calls; /* WAIT_EVENTS calls in progress */
	struct kemu_event **sig_events;   /* by id (= slot), KFD_EVENT_SLOTS entries */
	struct kemu_event **other_events; /* ids from KFD_EVENT_ID_OTHER_FIRST */
	uint32_t n_other, cap_other;
	uint64_t *signal_page;         /* NULL until the first signal event */
	uint32_t signal_page_slots;    /* u64 slots backed by signal_page memory */
	uint64_t signal_mapped_size;   /* bytes of usable slots */
	uint32_t signal_event_count;   /* includes the reserved id 0 */
	uint64_t signal_handle;        /* user BO holding the page, or 0 */
	struct kemu_bo *signal_bo;     /* that BO (FREE of it is -EPERM) */
	int signal_fd;                 /* kernel-allocated page, or -1 */
	struct kemu_process *next;
};

struct kemu_pdd *kemu_pdd_by_id(struct kemu_process *p, uint32_t gpu_id);
/* kfd_bind_process_to_device: -ENODEV before ACQUIRE_VM.  Caller holds p->lock. */
int kemu_pdd_bind(struct kemu_pdd *pdd);
struct kemu_process *kemu_process_get(struct kemu_machine *m, pid_t pid);
void kemu_process_destroy(struct kemu_process *p);

/* ---- the machine ---- */
struct kemu_fd_entry { int fd; struct kemu_file *file; };
struct kemu_machine {
	struct kemu_topology topo;
	pthread_mutex_t lock;
	/* the render nodes' GEM handles (kemu_gem.c): outermost, before any
	 * process->lock */
	pthread_mutex_t gem_lock;
	struct kemu_device devs[KEMU_MAX_GPUS];
	struct kemu_file *files;
	struct kemu_fd_entry *fds;
	size_t n_fds, cap_fds;
	struct kemu_process *procs;
	uint64_t sys_limit, sys_used;  /* GTT + USERPTR accounting */
	int log_level;
	int record_fd;                 /* KFDEMU_IOCTL_RECORD, or -1 */
	/* a leaf lock: numbers and writes one record line (kemu_record.c) */
	pthread_mutex_t record_lock;
	uint64_t record_seq;           /* lines written; under record_lock */
	struct kemu_fail_rule fail[KEMU_FAIL_RULES];
	unsigned n_fail;
	bool trap_lenient;             /* KFDEMU_TRAPS=lenient: traps and
	                                * exceptions with no trap handler are
	                                * queue errors (emu/cp, cp_dispatch.c) */
	bool dkms_ipc;                 /* KFDEMU_DKMS_IPC=1: answer the ROCm-DKMS
	                                * IPC ioctls 0x80/0x81 (kemu_dmabuf.c) */
	_Atomic uint32_t calls_in_flight; /* ioctl/mmap calls inside the model */
	int hdp_mode;                  /* KFDEMU_HDP: enum kemu_hdp_mode */
	_Atomic uint64_t hdp_violations, hdp_cpu_faults, hdp_readbacks;
	_Atomic uint64_t hdp_seals, hdp_landed_pages;
	/* files whose last user went, waiting for kemu_machine_reap (their
	 * GEM handles need process locks, which nest outside machine->lock) */
	struct kemu_file *dead_files;
};
/* Releases the files that lost their last user.  Caller holds no lock. */
void kemu_machine_reap(struct kemu_machine *m);
struct kemu_device *kemu_device_by_id(struct kemu_machine *m, uint32_t gpu_id);

/* ---- the HDP model (kemu_hdp.c) ---- */
/* KFDEMU_HDP: NULL/"" or "strict", "warn", "off"; -1 for anything else. */
int kemu_hdp_mode_parse(const char *s);
/* Installs the process's SIGSEGV handler (once) unless the mode is off. */
int kemu_hdp_init(struct kemu_machine *m);
/* VRAM BO creation / destruction: the dirty-page bitmap; destruction
 * leaves the BO's CPU mappings writable and untracked. */
int kemu_hdp_bo_init(struct kemu_machine *m, struct kemu_bo *bo);
void kemu_hdp_bo_fini(struct kemu_bo *bo);
void kemu_hdp_device_fini(struct kemu_device *dev);
/* The calling process mapped VRAM BO bo (from byte bo_off) or, with bo
 * NULL, dev's MMIO-remap page at [addr, addr + len). */
void kemu_hdp_cpu_mapped(struct kemu_machine *m, struct kemu_device *dev, struct kemu_bo *bo,
			 uint64_t bo_off, void *addr, size_t len, int prot, int flags);
/* The calling process mapped pdd's doorbell slice from byte slice_off at
 * [addr, addr + len): a store there is a doorbell ring, which seals the
 * device's dirty pages (the round trip). */
void kemu_hdp_doorbell_mapped(struct kemu_machine *m, struct kemu_pdd *pdd, uint64_t slice_off,
			      void *addr, size_t len, int prot, int flags);
/* [addr, addr + len) was unmapped or mapped over. */
void kemu_hdp_cpu_unmapped(uint64_t addr, uint64_t len);
/* Does dev's HDP complete the CPU's BAR writes at a CPU read-back
 * through the BAR (gfx90a, gfx94x), so that the read counts as a flush? */
bool kemu_hdp_readback_completes(const struct kemu_device *dev);
/* Does dev's HDP hold no CPU write (RO=0) and keep them in order, so that
 * writes before a doorbell store have landed once the CP completed a
 * packet it fetched after that store (gfx90a, gfx94x)?  The per-ASIC
 * switch of the round trip; docs/kfdemu.md "HDP". */
bool kemu_hdp_roundtrip_lands(const struct kemu_device *dev);
/* The doorbell slice of pdd is gone (process teardown): its CPU mappings
 * are no longer watched. */
void kemu_hdp_pdd_fini(struct kemu_pdd *pdd);
/* ops->hdp_packet_fetched and ops->hdp_packet_done of the CP. */
uint64_t kemu_hdp_gpu_packet_fetched(struct kemu_process *p, uint32_t gpu_id,
				     uint32_t doorbell_index, uint64_t index);
void kemu_hdp_gpu_packet_done(struct kemu_process *p, uint32_t gpu_id, uint32_t doorbell_index,
			      uint64_t index, uint64_t token);
/* An HDP flush of dev (MMIO register write, SDMA flush packet). */
void kemu_hdp_flush(struct kemu_device *dev);
/* ops->hdp_flush of the engines. */
void kemu_hdp_gpu_flush(struct kemu_process *p, uint32_t gpu_id);
/* A GPU read of [va, va + *avail) at bo_off of a VRAM bo with dirty pages
 * (vm_resolve, vm_lock held): true to go on (*avail clipped before the
 * first dirty page), false for a strict-mode violation (*fault marked). */
bool kemu_hdp_gpu_read(struct kemu_process *p, struct kemu_bo *bo, uint64_t bo_off,
		       uint64_t va, size_t *avail, unsigned access,
		       struct kemu_vm_fault_info *fault);

/* ---- ioctl handlers: arg is the kernel copy, zero-extended ---- */
typedef long (*kemu_ioctl_fn)(struct kemu_process *p, void *arg);
long kemu_ioctl_get_process_apertures(struct kemu_process *p, void *arg);
long kemu_ioctl_get_process_apertures_new(struct kemu_process *p, void *arg);
long kemu_ioctl_acquire_vm(struct kemu_process *p, void *arg);
long kemu_ioctl_set_memory_policy(struct kemu_process *p, void *arg);
long kemu_ioctl_set_scratch_backing_va(struct kemu_process *p, void *arg);
long kemu_ioctl_set_trap_handler(struct kemu_process *p, void *arg);
long kemu_ioctl_set_xnack_mode(struct kemu_process *p, void *arg);
long kemu_ioctl_runtime_enable(struct kemu_process *p, void *arg);
/* kfd_set_event: sets signal event id of p (takes event_lock); -EINVAL for
 * an unknown id or a non-signal event. */
int kemu_event_set_id(struct kemu_process *p, uint32_t id);
long kemu_ioctl_alloc_memory(struct kemu_process *p, void *arg);
long kemu_ioctl_free_memory(struct kemu_process *p, void *arg);
long kemu_ioctl_map_memory(struct kemu_process *p, void *arg);
long kemu_ioctl_unmap_memory(struct kemu_process *p, void *arg);
long kemu_ioctl_available_memory(struct kemu_process *p, void *arg);
long kemu_ioctl_ipc_export_handle(struct kemu_process *p, void *arg);
long kemu_ioctl_ipc_import_handle(struct kemu_process *p, void *arg);
long kemu_ioctl_create_queue(struct kemu_process *p, void *arg);
long kemu_ioctl_destroy_queue(struct kemu_process *p, void *arg);
long kemu_ioctl_update_queue(struct kemu_process *p, void *arg);
long kemu_ioctl_set_cu_mask(struct kemu_process *p, void *arg);
long kemu_ioctl_create_event(struct kemu_process *p, void *arg);
long kemu_ioctl_destroy_event(struct kemu_process *p, void *arg);
long kemu_ioctl_set_event(struct kemu_process *p, void *arg);
long kemu_ioctl_reset_event(struct kemu_process *p, void *arg);
long kemu_ioctl_wait_events(struct kemu_process *p, void *arg);
long kemu_ioctl_export_dmabuf(struct kemu_process *p, void *arg);
long kemu_ioctl_import_dmabuf(struct kemu_process *p, void *arg);
long kemu_ioctl_get_dmabuf_info(struct kemu_process *p, void *arg);
long kemu_ioctl_alloc_queue_gws(struct kemu_process *p, void *arg);
long kemu_ioctl_get_queue_wave_state(struct kemu_process *p, void *arg);

/* memory helpers */
struct kemu_bo *kemu_bo_lookup(struct kemu_pdd *pdd, uint64_t handle);
/* Lists bo on its device (render-node mmap finds it there) and gives it
 * the next DRM fake offset; takes m->lock.  kemu_bo_destroy unlists it. */
int kemu_dev_add_bo(struct kemu_machine *m, struct kemu_device *dev, struct kemu_bo *bo);
/* Takes the lowest free handle index of pdd for bo.  Caller holds p->lock. */
int kemu_bo_idr_alloc(struct kemu_pdd *pdd, struct kemu_bo *bo);
/* Releases the backing store, dma-buf and accounting of bo (not its idr
 * slot).  Caller holds p->lock. */
void kemu_bo_destroy(struct kemu_bo *bo);
/* What an fd says about itself when it is a kfdemu dma-buf. */
struct kemu_dmabuf_desc {
	bool gpu_memory;   /* a VRAM or GTT BO (else a CPU-domain BO) */
	uint32_t gpu_id;   /* exporting GPU */
	uint32_t flags;    /* KFD_ALLOC_VRAM or GTT, | PUBLIC */
	uint64_t size;
	uint64_t dev, ino; /* the file's identity: the dma-buf (and its pages) */
};
/* dma_buf_get + the amdgpu checks: -EBADF, or -EINVAL for a file that is
 * not a dma-buf; fills *d for a kfdemu one (kemu_dmabuf.c). */
int kemu_dmabuf_identify(int fd, struct kemu_dmabuf_desc *d);
/* mem->dmabuf: the BO's dma-buf file, created on first export, read-write
 * or read-only as asked then; -EPERM for USERPTR.  Caller holds p->lock. */
int kemu_bo_dmabuf_file(struct kemu_bo *bo, bool writable);
/* A new BO of p on pdd's device sharing the pages of dma-buf fd (described
 * by d), in VRAM when it is that device's VRAM, else GTT; no handle, no
 * fake offset yet.  Caller holds p->lock. */
int kemu_dmabuf_bo_create(struct kemu_process *p, struct kemu_pdd *pdd, int fd,
			  const struct kemu_dmabuf_desc *d, struct kemu_bo **out);
/* The memfd backing a VRAM/GTT BO of gpu_id allocated with flags: named and
 * sealed as a kfdemu dma-buf (kemu_dmabuf.c).  Returns the fd or -errno. */
int kemu_bo_memfd(uint32_t gpu_id, uint32_t flags, uint64_t size);
void kemu_bo_free_all(struct kemu_process *p);
/* events helpers */
void kemu_events_fini(struct kemu_process *p);
/* The process is exiting (its threads got SIGKILL): every blocked
 * WAIT_EVENTS wakes and returns -EINTR, as do later ones.  Takes event_lock. */
void kemu_events_kill(struct kemu_process *p);
/* Waiters currently blocked on event id (for tests). */
uint32_t kemu_event_waiters(struct kemu_process *p, uint32_t id);
/* queue helpers */
void kemu_queues_fini(struct kemu_process *p);
/* Stops every queue of p on gpu, on every engine (kfd_dqm_evict_pasid):
 * final.  Takes no process lock (engine threads call it, kemu_ih.c). */
void kemu_queues_evict(struct kemu_process *p, const struct kemu_gpu *gpu);
/* The GPU interface the driver gives its engines (kemu_ih.c). */
extern const struct kemu_gpu_ops kemu_ih_gpu_ops;
/* doorbells: allocates the slice on first use.  Caller holds p->lock. */
int kemu_doorbell_get_slice(struct kemu_pdd *pdd);
int kemu_doorbell_alloc(struct kemu_pdd *pdd, struct kemu_queue *q);
void kemu_doorbell_free(struct kemu_pdd *pdd, struct kemu_queue *q);
void kemu_doorbell_fini(struct kemu_pdd *pdd);
/* mmap */
int kemu_kfd_mmap(struct kemu_file *f, void *addr, size_t len, int prot, int flags,
		  uint64_t offset, void **out);
int kemu_render_mmap(struct kemu_file *f, void *addr, size_t len, int prot, int flags,
		     uint64_t offset, void **out);
/* After a successful mmap (MAP_FIXED's unmap done): the HDP model's part. */
void kemu_kfd_mmap_hdp(struct kemu_file *f, void *addr, size_t len, int prot, int flags,
		       uint64_t offset);
void kemu_render_mmap_hdp(struct kemu_file *f, void *addr, size_t len, int prot, int flags,
			  uint64_t offset);
long kemu_render_ioctl(struct kemu_file *f, unsigned long request, void *arg);
long kemu_kfd_ioctl(struct kemu_file *f, unsigned long request, void *arg);
/* Event-page helpers for mmap. Caller holds nothing. */
int kemu_events_mmap(struct kemu_process *p, void *addr, size_t len, int prot, int flags,
		     void **out);

#endif /* KFDEMU_PRIV_H */
