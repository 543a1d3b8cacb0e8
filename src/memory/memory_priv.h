/*
 * src/memory's internals, shared by its files only (no other module may
 * include this header): the allocation list, attachments and the host
 * memory registry behind pointer_info, free and shutdown.
 */
#ifndef HSALITE_MEMORY_PRIV_H
#define HSALITE_MEMORY_PRIV_H

#include "memory/memory.h"

/* ---- memory.c ---- */
/* Publishes / unpublishes a record on rt->allocs; caller holds rt->mem_lock. */
void hl_alloc_link_locked(struct hl_runtime *rt, struct hl_alloc *al);
void hl_alloc_unlink_locked(struct hl_runtime *rt, struct hl_alloc *al);
/* Frees the record and what it owns (BO, our mmap); not on the list. */
int hl_alloc_release(struct hl_runtime *rt, struct hl_alloc *al);

/* The BO behind size bytes of a VRAM pool, mapped on its owner GPU. */
int hl_pool_vram_bo(struct hl_runtime *rt, struct hl_pool *pool, uint64_t size,
		    struct kfd_mem **out);

/* ---- suballoc.c: VRAM fragments of 2 MiB blocks (ROCr's SimpleHeap) ---- */
struct hl_sa_block;
int hl_suballoc_attach(struct hl_runtime *rt);
/* Frees every block (the last hsa_shut_down, after the records) / drops
 * the records only (fork child). */
void hl_suballoc_release_all(struct hl_runtime *rt);
void hl_suballoc_forget_all(struct hl_runtime *rt);
/* ROCr's block size, 2 MiB. */
uint64_t hl_suballoc_block_size(void);
/* Whether allocations of pool without flags are fragments: VRAM pools,
 * unless HSA_DISABLE_FRAGMENT_ALLOCATOR=1. */
bool hl_suballoc_wants(const struct hl_runtime *rt, const struct hl_pool *pool);
/* A fragment of size bytes (page-rounded): *ptr in *block.  -ENOMEM etc.
 * when a new block is needed and cannot be had.  Call without mem_lock. */
int hl_suballoc_alloc(struct hl_runtime *rt, struct hl_pool *pool, uint64_t size, void **ptr,
		      struct hl_sa_block **block);
/* Returns the fragment at ptr; the block stays allocated and mapped (in
 * the pool's cache when wholly free) unless it was discarded. */
void hl_suballoc_free(struct hl_runtime *rt, struct hl_pool *pool, struct hl_sa_block *block,
		      const void *ptr);
/* No further fragments from the in-use block of pool holding ptr; it is
 * freed with its last fragment (an exported block, ROCr's
 * IPCFragmentExport).  Call without mem_lock. */
void hl_suballoc_discard(struct hl_runtime *rt, struct hl_pool *pool, const void *ptr);
/* The block's address range and BO: fixed while any fragment is held. */
void hl_suballoc_block_range(const struct hl_sa_block *block, uint64_t *base, uint64_t *len);
struct kfd_mem *hl_suballoc_block_mem(const struct hl_sa_block *block);
/* Whether ptr lies in a block (in use or cached).  Call without mem_lock. */
bool hl_suballoc_in_block(struct hl_runtime *rt, const void *ptr);
/* Frees the cached blocks of the pools agent owns (ROCr's Agent::Trim);
 * true when there was one. */
bool hl_suballoc_trim_agent(struct hl_runtime *rt, const struct hl_agent *agent);

/* ---- small.c ---- */
/* The module's attach / teardown (frees every page; after the modules
 * above are gone) / fork child (drops the records, the BOs are the
 * parent's). */
int hl_small_attach(struct hl_runtime *rt);
void hl_small_release_all(struct hl_runtime *rt);
void hl_small_forget_all(struct hl_runtime *rt);

/* ---- ipc.c ---- */
/* hsa_amd_pointer_info for attached memory; caller holds rt->mem_lock. */
bool hl_ipc_info_locked(struct hl_runtime *rt, const void *ptr, hsa_amd_pointer_info_t *out,
			hsa_agent_t *list, uint32_t max, uint32_t *n_list);
/* Sets the userdata of the attachment that starts at ptr; false when
 * none does.  Caller holds rt->mem_lock. */
bool hl_ipc_set_userdata_locked(struct hl_runtime *rt, const void *ptr, void *userdata);
/* Lists an interop mapping (interop.c: mem imported and GPU-mapped, its
 * metadata buffer, both owned from now on) with the attachments, where
 * pointer info reports it as GRAPHICS.  -ENOMEM. */
int hl_ipc_add_graphics(struct hl_runtime *rt, struct kfd_mem *mem, void *metadata);
/* Unlists and frees the attachment or interop mapping that starts at
 * mapped_ptr: -EINVAL when none does, else kfd_mem_free's result. */
int hl_ipc_release(struct hl_runtime *rt, void *mapped_ptr);
/* Detaches everything (the last hsa_shut_down) / drops the records (fork
 * child, no lock: the runtime is unreachable). */
void hl_ipc_release_all(struct hl_runtime *rt);
void hl_ipc_forget_all(struct hl_runtime *rt);

/* ---- userptr.c: registered (hsa_memory_register) and locked
 * (hsa_amd_memory_lock*) host memory ---- */

/* Pins [ptr, ptr+size) for every GPU at GPU VA == host VA.  Page-granular
 * and counted: pages another registration already pins are shared. */
int hl_userptr_register(struct hl_runtime *rt, void *ptr, uint64_t size);
/* Drops the registration (ptr, size), or the one registration starting at
 * ptr; -ENOENT when there is none. */
int hl_userptr_deregister(struct hl_runtime *rt, void *ptr, uint64_t size);
/* Locks [host, host+size) for the GPUs gpu_ids (n >= 1): an alias USERPTR
 * BO at a GPU address of its own, *agent_ptr inside it at host's page
 * offset.  The same (host, size) again counts and returns the same
 * address.  coarse: reported as coarse-grained (hsa_amd_memory_lock and
 * coarse pools) rather than fine. */
int hl_userptr_lock(struct hl_runtime *rt, void *host, uint64_t size, const uint32_t *gpu_ids,
		    uint32_t n, bool coarse, void **agent_ptr);
/* Drops one lock of the range starting at p (its host or agent address);
 * -ENOENT when there is none. */
int hl_userptr_unlock(struct hl_runtime *rt, void *p);
/* pointer_info for registered or locked memory: fills type, bases, size,
 * userData, global_flags, agentOwner (the first CPU) and the GPU agents it
 * is mapped on (list, room for max).  False when p is neither. */
bool hl_userptr_info(struct hl_runtime *rt, const void *p, hsa_amd_pointer_info_t *out,
		     hsa_agent_t *list, uint32_t max, uint32_t *n_list);
/* hsa_amd_pointer_info_set_userdata on the start of a registered or locked
 * range; -ENOENT when p starts none (or several). */
int hl_userptr_set_userdata(struct hl_runtime *rt, const void *p, void *userdata);
/* The last hsa_shut_down: frees every record and BO; in a fork child
 * (forget) only the records. */
void hl_userptr_release_all(struct hl_runtime *rt);
void hl_userptr_forget_all(struct hl_runtime *rt);

/* ---- vmem.c: the virtual memory API ---- */
int hl_vmem_attach(struct hl_runtime *rt);
/* The last hsa_shut_down: unmaps and frees every mapping, handle and range
 * / in a fork child (no lock, no ioctl) drops the records. */
void hl_vmem_release_all(struct hl_runtime *rt);
void hl_vmem_forget_all(struct hl_runtime *rt);
/* pointer_info of an address inside a reserved range; false otherwise.
 * Takes the vmem lock: call it without rt->mem_lock. */
bool hl_vmem_info(struct hl_runtime *rt, const void *ptr, hsa_amd_pointer_info_t *out,
		  hsa_agent_t *list, uint32_t max, uint32_t *n_list);
/* memory.c: interface 1.18's alloc_flags of a BO. */
uint32_t hl_alloc_flags_of(const struct kfd_mem *mem);
/* hsa_amd_agents_allow_access on a vmem mapping: -ENOENT when ptr is in
 * none, then -EINVAL for an unknown agent, else 0 or the mapping's -errno.
 * Call it without rt->mem_lock. */
int hl_vmem_allow_access(struct hl_runtime *rt, const hsa_agent_t *agents, uint32_t n,
			 const void *ptr);

/* ---- pool.c ---- */
/* ROCr's access rule for agent -> pool (amd_memory_region.cpp GetAgentPoolInfo). */
hsa_amd_memory_pool_access_t hl_pool_access(const struct hl_runtime *rt,
					     const struct hl_agent *agent,
					     const struct hl_pool *pool);

#endif /* HSALITE_MEMORY_PRIV_H */
