/*
 * src/memory's public face: what the modules above it (signal, queue,
 * loader, copy, image) and the runtime's lifecycle may use.  The memory
 * module owns every allocation the API hands out: pool allocations
 * (memory.c, pool.c), registered and locked host memory (userptr.c,
 * lock.c), IPC and interop attachments (ipc.c, interop.c) and SVM
 * attributes (svm.c); and the shared pages the runtime's own small
 * GPU-visible objects come from (small.c).  Its state hangs off struct
 * hl_runtime (allocs, ipc_imports, userptr, small, under mem_lock /
 * userptr_lock / their own locks as runtime.h says).
 *
 * Layering: runtime < memory < signal < queue < loader < copy < image.
 * Memory calls the runtime and the thunk only; nothing here may include a
 * header of a module above it.  Its internals are in memory_priv.h.
 */
#ifndef HSALITE_MEMORY_H
#define HSALITE_MEMORY_H

#include <stdint.h>

#include "hsa/hsa.h"
#include "hsa/hsa_ext_amd.h"
#include "runtime/runtime.h"

/* A callback registered with hsa_amd_register_deallocation_callback. */
struct hl_dealloc_cb {
	void *ptr;                 /* the pointer it was registered with */
	hsa_amd_deallocation_callback_t fn;
	void *user_data;
};

/* One allocation made through pools, for free / allow_access /
 * pointer_info.  mem is NULL for host memory in a process without GPUs.
 * Fields other than userdata and the callbacks never change after the
 * record is published on rt->allocs; those are under rt->mem_lock. */
struct hl_sa_block;

struct hl_alloc {
	void *ptr;
	uint64_t size;
	struct kfd_mem *mem;       /* the BO; for a fragment its block's */
	struct hl_sa_block *block; /* the block it is a fragment of, or NULL */
	struct hl_pool *pool;
	void *userdata;            /* hsa_amd_pointer_info_set_userdata */
	struct hl_dealloc_cb *cbs; /* run by the free, in this order */
	uint32_t n_cbs, cap_cbs;
	struct hl_alloc *next;
};

/* ---- memory.c ---- */
/* hsa_init: the module's own state (the virtual memory API's, vmem.c). */
int hl_memory_attach(struct hl_runtime *rt);
/* Frees every allocation still recorded (the last hsa_shut_down). */
void hl_memory_release_all(struct hl_runtime *rt);
/* Drops the records only, leaving the BOs to kfd_process_close (fork child:
 * the BOs are the parent's).  No lock: the runtime is unreachable. */
void hl_memory_forget_all(struct hl_runtime *rt);
/* Allocates size bytes from pool and maps it per ROCr's rules: system memory
 * to every GPU agent, VRAM to its owner only. */
int hl_pool_allocate(struct hl_runtime *rt, struct hl_pool *pool, uint64_t size, void **out);
/* hl_pool_allocate with HL_ALLOC_* flags. */
#define HL_ALLOC_WHOLE 1u /* a BO of its own, never a fragment (ROCr: any
			   * allocation flag but Restrict, e.g. executable code) */
int hl_pool_allocate_flags(struct hl_runtime *rt, struct hl_pool *pool, uint64_t size,
			   uint32_t flags, void **out);
/* The allocation containing p, or NULL; caller holds rt->mem_lock. */
struct hl_alloc *hl_alloc_find_locked(struct hl_runtime *rt, const void *p);

/* ---- small.c: small GPU-visible runtime objects ---- */

/*
 * size bytes (a power of two, 64 to 4096) of fine-grained host memory for
 * a runtime object the GPUs read or write, aligned to size and zeroed, in
 * a page shared with other such objects.  Every page is a BO of exactly
 * one page mapped to every GPU, so an object may hold a queue's read and
 * write pointers (CREATE_QUEUE's one-page check).  The object lives until
 * the last hsa_shut_down unless given back (most owners recycle theirs).
 * -EINVAL for a bad size, -ENODEV without a GPU, else the thunk's -errno.
 */
int hl_small_alloc(struct hl_runtime *rt, uint32_t size, void **out);
/* Gives back an object of size bytes at p (as hl_small_alloc gave it) once
 * no GPU reads or writes it; the page stays.  -EINVAL for anything else
 * (logged). */
int hl_small_free(struct hl_runtime *rt, void *p, uint32_t size);

/* ---- ipc.c: memory shared between processes (hsa_amd_ipc_memory_*) ---- */

/* Fills an IPC handle for the whole of mem (len must be its size): the
 * dma-buf handle (pid, fd, inode) of the BO's dma-buf, kept open by the
 * thunk until mem is freed.  -errno as the thunk gives it. */
int hl_ipc_export(struct hl_runtime *rt, struct kfd_mem *mem, uint64_t len,
		  hsa_amd_ipc_memory_t *handle);
/* Imports what a handle names: maps it on the n GPUs listed (every GPU
 * when gpu_ids is NULL), at a VA aligned to align (0: automatic).  *offset and *len
 * are the part the handle names (a fragment of a larger block, as ROCr's
 * handles may name).  -EINVAL for a handle that names nothing (a dead
 * exporter, a closed or reused fd); -ENOMEM etc. from mapping. */
int hl_ipc_import(struct hl_runtime *rt, const hsa_amd_ipc_memory_t *handle,
		  const uint32_t *gpu_ids, uint32_t n, uint64_t align, struct kfd_mem **mem,
		  uint64_t *offset, uint64_t *len);

/* ---- vmem.c: the virtual memory API's ranges, for src/copy ---- */

/* A hsa_amd_vmem_address_reserve range as svm_discard_batch_async needs it. */
struct hl_vmem_extent {
	uintptr_t va;
	uint64_t size;
	bool registered; /* reserved for the GPUs; false: NO_REGISTER host pages */
	bool mapped;     /* a handle is mapped somewhere in the queried span */
};
/* The reserved range holding [ptr, ptr + size): 0, -ENOENT when ptr is in
 * none, -ERANGE when the span runs past its end. */
int hl_vmem_reserved_range(struct hl_runtime *rt, const void *ptr, size_t size,
			   struct hl_vmem_extent *out);

/* ---- svm.c: prefetches pending on signals ---- */

/* The KFD SVM location of an agent: its gpu_id, SYSMEM for a CPU. */
uint32_t hl_svm_location(const struct hl_agent *a);

/* One hsa_amd_svm_prefetch_async not yet run.  The scheduler (src/copy/
 * prefetch.c, above the signal module it waits on) embeds it, publishes it
 * before its first handler can run and unpublishes it when it ran, so
 * PREFETCH_LOCATION reports its destination meanwhile. */
struct hl_svm_prefetch {
	struct hl_svm_prefetch *next;  /* the pending list, newest first */
	struct hl_runtime *rt;
	uint64_t base, len;            /* whole pages */
	uint32_t loc;                  /* KFD location: gpu_id or SYSMEM */
};
void hl_svm_prefetch_publish(struct hl_svm_prefetch *op);
void hl_svm_prefetch_unpublish(struct hl_svm_prefetch *op);
/* Sets PREFETCH_LOC on the range (the kernel migrates); a refusal is
 * logged, not returned: the caller signals completion either way. */
void hl_svm_prefetch_migrate(const struct hl_svm_prefetch *op);
/* Unlinks every pending prefetch of rt and hands each to release (the last
 * hsa_shut_down, once nothing can run them any more). */
void hl_svm_prefetch_drop_all(struct hl_runtime *rt, void (*release)(struct hl_svm_prefetch *op));
/* The same in a fork child, with the parent's runtime (the copy module's
 * forget step): no lock, which a parent thread may have held at the fork. */
void hl_svm_prefetch_forget_all(struct hl_runtime *rt,
				void (*release)(struct hl_svm_prefetch *op));

#endif /* HSALITE_MEMORY_H */
