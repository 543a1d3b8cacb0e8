/*
 * Private to the thunk (src/kfd): the process bookkeeping behind
 * kfd_process.priv and the helpers the object files share.  Nothing here is
 * part of the contract in kfd.h.
 *
 * Locking: mem_lock protects the allocation list and every kfd_mem's
 * mapped_gpus/n_mapped; doorbell_lock serialises the one-time doorbell
 * mapping of each GPU; event_lock serialises the creation of the event page
 * and protects the list of live event ids.  No function holds two of them
 * at once except kfd_doorbell_map and kfd_event_create, which take
 * doorbell_lock/event_lock and then (inside kfd_mem_*) mem_lock: that is the
 * only nesting order.  kfd_mem_free takes event_lock on its own (to refuse
 * the event page), so code holding event_lock calls kfd_mem_destroy.
 * queue_lock protects only the list of live queue ids.
 */
#ifndef HSALITE_KFD_PRIV_H
#define HSALITE_KFD_PRIV_H

#include <pthread.h>

#include "kfd/kfd.h"

#define KFD_LOG "kfd"
#define KFD_PAGE_SIZE 4096ull
/* The largest VA alignment we pick automatically (libhsakmt's mmap aperture
 * aligns to the next power of two of the size, capped at 2 MiB). */
#define KFD_MAX_AUTO_ALIGN (2ull << 20)

#define KFD_ALIGN_UP(x, a) (((x) + (a) - 1) & ~((__typeof__(x))(a) - 1))

struct kfd_process_private {
	pthread_mutex_t mem_lock;
	struct kfd_mem *mem_list;       /* under mem_lock */

	pthread_mutex_t doorbell_lock;
	uint64_t *doorbell_page_offset; /* per GPU index: mmap offset of its
	                                 * slice, under doorbell_lock */
	struct kfd_mem **doorbell_mem;  /* per GPU index, under doorbell_lock */

	pthread_mutex_t queue_lock;
	uint32_t *queue_ids;            /* live queues, under queue_lock */
	uint32_t n_queues, cap_queues;

	pthread_mutex_t event_lock;
	struct kfd_mem *event_page;     /* under event_lock (set once) */
	bool event_page_registered;     /* the kernel took its handle */
	uint32_t *event_ids;            /* live events, under event_lock */
	uint32_t n_events, cap_events;
	bool locks_ready;
};

/* memory.c */
/* Reserves size bytes of address space aligned to align (a power of two),
 * with a PROT_NONE guard page on each side: base and base_size describe the
 * whole reservation to munmap later, the return value the usable block. */
void *kfd_va_reserve(uint64_t size, uint64_t align, void **base, size_t *base_size);
/* size bytes of the handle space (kfd_mem_alloc_args.no_address): an
 * address no mapping uses, to name a BO that is never mapped. */
void *kfd_handle_va(uint64_t size);
/* The pieces of a kfd_mem's life that memory.c and share.c share: a
 * fresh record (mapped_gpus sized for the process), its deletion (closes
 * our dma-buf fd of it), the VA reservation's release, the GPUVM check,
 * FREE_MEMORY_OF_GPU with the kernel's answer logged, and the automatic VA
 * alignment (next power of two of the size, up to 2 MiB). */
struct kfd_mem *kfd_mem_new(struct kfd_process *proc);
void kfd_mem_delete(struct kfd_mem *mem);
void kfd_va_release(struct kfd_mem *mem);
bool kfd_in_gpuvm(const struct kfd_process *proc, uintptr_t addr, uint64_t size);
int kfd_free_bo(struct kfd_process *proc, struct kfd_mem *mem);
uint64_t kfd_auto_align(uint64_t size);
/* Index of gpu_id in proc->gpus, or -1. */
int kfd_gpu_index(const struct kfd_process *proc, uint32_t gpu_id);
/* Drops every allocation at close: unmaps from GPUs and FREEs unless the fd
 * is not ours (fork child), then releases CPU ranges. */
void kfd_mem_release_all(struct kfd_process *proc);
/* The DOORBELL object of gpu: ALLOC(DOORBELL, one slice) at a reserved VA,
 * mmap(kfd fd, mmap_offset) over it, tracked on the process list; not yet
 * mapped to the GPU.  NULL with *err = -errno on failure. */
struct kfd_mem *kfd_mem_new_tracked_doorbell(struct kfd_process *proc, struct kfd_gpu *gpu,
					     uint64_t mmap_offset, int *err);
/* The GPU's MMIO-remap page (ALLOC MMIO_REMAP 4 KiB + mmap of the kfd fd),
 * tracked; NULL and *err on failure. */
struct kfd_mem *kfd_mem_new_tracked_mmio(struct kfd_process *proc, struct kfd_gpu *gpu,
					 int *err);

/* kfd_mem_free without the event-page check, for callers that hold
 * event_lock (kfd_mem_free takes it) or free their own fresh objects. */
int kfd_mem_destroy(struct kfd_process *proc, struct kfd_mem *mem);
/* The allocation holding addr (under mem_lock): its start and size, and
 * whether it is mapped on gpu_id.  False when no allocation holds addr. */
bool kfd_mem_lookup(struct kfd_process *proc, const void *addr, uint32_t gpu_id,
		    uintptr_t *start, uint64_t *size, bool *mapped);
/* Adds/removes mem on the process list (takes mem_lock). */
void kfd_mem_track(struct kfd_process *proc, struct kfd_mem *mem);
void kfd_mem_untrack(struct kfd_process *proc, struct kfd_mem *mem);

/* event.c: destroys the live events; keeps the event page for a re-open. */
void kfd_event_release_all(struct kfd_process *proc);
/* process.c: the fork generation, bumped by kfd_fork_child; whatever the
 * thunk keeps across opens records the generation it was made in. */
uint32_t kfd_fork_gen(void);
/* event.c: kfd_fork_child's part for the parked event page. */
void kfd_event_fork_child(void);

/* queue.c: destroys the queues still alive at close. */
void kfd_queue_release_all(struct kfd_process *proc);

/* Growable list of u32 ids (events, queues); caller holds the owning lock. */
int kfd_id_list_add(uint32_t **ids, uint32_t *n, uint32_t *cap, uint32_t id);
void kfd_id_list_remove(uint32_t *ids, uint32_t *n, uint32_t id);

/* topology.c: reads one whole small sysfs file into buf (NUL-terminated). */
/* Test seam: when set, called after each snapshot of the tree and before
 * generation_id is read again, with the attempt number from 0. */
extern void (*kfd_topology_snapshot_hook)(const char *root, int attempt);
int kfd_sysfs_read(const char *path, char *buf, size_t cap);

#endif /* HSALITE_KFD_PRIV_H */
