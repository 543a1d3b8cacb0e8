/*
 * Memory: allocation from pools and regions, access, registration, copies
 * and pointer queries, over the thunk's kfd_mem objects.
 *
 * Placement follows ROCr 5.2.3 over libhsakmt on a dGPU:
 *  - system pools: anonymous host pages registered as USERPTR (coherent for
 *    the fine-grained pools) and mapped to every GPU agent at allocation, so
 *    kernels can read kernargs without an allow_access call;
 *  - VRAM: a VRAM BO, CPU-mapped only with a large BAR (FB_PUBLIC), mapped to
 *    its own GPU; other agents get it through hsa_amd_agents_allow_access.
 * hsa_amd_agents_allow_access gives the allocation exactly the listed GPUs
 * (plus the owner for VRAM), as hsaKmtMapMemoryToGPUNodes does.  With no GPU
 * at all, system memory is plain anonymous memory.
 *
 * Small VRAM allocations are fragments of 2 MiB blocks (suballoc.c, ROCr's
 * fragment allocator): the record holds the fragment and points at its
 * block, whose BO every fragment of the block shares.
 *
 * Every allocation is recorded in rt->allocs under rt->mem_lock (a list: the
 * API is not a hot path and a process keeps few, large allocations), with
 * its userdata and deallocation callbacks.  Registered and locked host
 * memory is userptr.c's; hsa_amd_pointer_info asks both.
 *
 * Deallocation callbacks follow ROCr 5.2.3 (runtime.cpp): registered on any
 * address inside a pool allocation, run in registration order (a
 * deregistration moves the last callback into the freed slot) by
 * hsa_amd_memory_pool_free / hsa_memory_free after the allocation has left
 * the list and before its memory goes, without the lock, so a callback may
 * call the memory API.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "memory/memory_priv.h"
#include "util/array.h"
#include "util/log.h"

static uint64_t page_align(uint64_t size)
{
	return (size + HL_PAGE_SIZE - 1) & ~(uint64_t)(HL_PAGE_SIZE - 1);
}

struct hl_alloc *hl_alloc_find_locked(struct hl_runtime *rt, const void *p)
{
	uintptr_t a = (uintptr_t)p;
	for (struct hl_alloc *al = rt->allocs; al; al = al->next)
		if (a >= (uintptr_t)al->ptr && a - (uintptr_t)al->ptr < al->size)
			return al;
	return NULL;
}

void hl_alloc_link_locked(struct hl_runtime *rt, struct hl_alloc *al)
{
	al->next = rt->allocs;
	rt->allocs = al;
}

void hl_alloc_unlink_locked(struct hl_runtime *rt, struct hl_alloc *al)
{
	for (struct hl_alloc **pp = &rt->allocs; *pp; pp = &(*pp)->next)
		if (*pp == al) {
			*pp = al->next;
			return;
		}
}

int hl_alloc_release(struct hl_runtime *rt, struct hl_alloc *al)
{
	int err = 0;
	if (al->block)
		hl_suballoc_free(rt, al->pool, al->block, al->ptr); /* the block stays */
	else if (al->mem)
		err = kfd_mem_free(rt->proc, al->mem);
	else
		munmap(al->ptr, al->size);
	free(al->cbs);
	free(al);
	return err;
}

/* The KFD allocation of size bytes of a VRAM pool, mapped on the owner GPU
 * only (other agents get it through hsa_amd_agents_allow_access). */
static int vram_bo(struct hl_runtime *rt, struct hl_pool *pool, uint64_t size,
		   struct kfd_mem **out)
{
	struct kfd_mem_alloc_args args = {
		.kind = KFD_MEM_VRAM,
		.gpu_id = pool->owner->gpu->gpu_id,
		.size = size,
		.host_access = pool->host_access,
	};
	if (pool->kind == HL_POOL_VRAM_FINE)
		args.extra_flags = KFD_ALLOC_COHERENT | KFD_ALLOC_UNCACHED;
	struct kfd_mem *mem;
	int err = kfd_mem_alloc(rt->proc, &args, &mem);
	if (err)
		return err;
	err = kfd_mem_map(rt->proc, mem, &pool->owner->gpu->gpu_id, 1);
	if (err) {
		kfd_mem_free(rt->proc, mem);
		return err;
	}
	*out = mem;
	return 0;
}

int hl_pool_vram_bo(struct hl_runtime *rt, struct hl_pool *pool, uint64_t size,
		    struct kfd_mem **out)
{
	return vram_bo(rt, pool, size, out);
}

int hl_pool_allocate_flags(struct hl_runtime *rt, struct hl_pool *pool, uint64_t size,
			   uint32_t flags, void **out)
{
	if (!hl_pool_is_allocatable(pool))
		return -EPERM;
	if (size > pool->alloc_max)
		return -E2BIG;
	size = page_align(size);

	struct hl_alloc *al = calloc(1, sizeof(*al));
	if (!al)
		return -ENOMEM;
	al->pool = pool;
	al->size = size;

	int err;
	if (!(flags & HL_ALLOC_WHOLE) && hl_suballoc_wants(rt, pool)) {
		err = hl_suballoc_alloc(rt, pool, size, &al->ptr, &al->block);
		if (err)
			goto err_free_record;
		al->mem = hl_suballoc_block_mem(al->block);
	} else if (hl_pool_is_system(pool) && rt->n_gpus == 0) {
		void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			       -1, 0);
		if (p == MAP_FAILED) {
			err = -errno;
			goto err_free_record;
		}
		al->ptr = p;
	} else if (hl_pool_is_system(pool)) {
		struct kfd_mem_alloc_args args = {
			.kind = KFD_MEM_USERPTR,
			.gpu_id = rt->gpu_ids[0],
			.size = size,
			.host_access = true,
		};
		if (pool->kind != HL_POOL_SYSTEM_COARSE)
			args.extra_flags = KFD_ALLOC_COHERENT;
		err = kfd_mem_alloc(rt->proc, &args, &al->mem);
		if (err)
			goto err_free_record;
		err = kfd_mem_map(rt->proc, al->mem, rt->gpu_ids, rt->n_gpus);
		if (err)
			goto err_free_mem;
		al->ptr = al->mem->addr;
	} else {
		/* ROCr: a failed KFD allocation trims the owner's block
		 * caches and is tried once more (here only when that freed
		 * something: nothing else could make it pass). */
		err = vram_bo(rt, pool, size, &al->mem);
		if (err == -ENOMEM && hl_suballoc_trim_agent(rt, pool->owner))
			err = vram_bo(rt, pool, size, &al->mem);
		if (err)
			goto err_free_record;
		al->ptr = al->mem->addr;
	}

	pthread_mutex_lock(&rt->mem_lock);
	hl_alloc_link_locked(rt, al);
	pthread_mutex_unlock(&rt->mem_lock);
	*out = al->ptr;
	return 0;

err_free_mem:
	kfd_mem_free(rt->proc, al->mem);
err_free_record:
	free(al);
	return err;
}

int hl_pool_allocate(struct hl_runtime *rt, struct hl_pool *pool, uint64_t size, void **out)
{
	return hl_pool_allocate_flags(rt, pool, size, 0, out);
}

int hl_memory_attach(struct hl_runtime *rt)
{
	/* First: the teardown below destroys it, attach failed or not. */
	pthread_mutex_init(&rt->svm_lock, NULL);
	int err = hl_suballoc_attach(rt);
	if (err)
		return err;
	err = hl_small_attach(rt);
	if (err)
		goto err_suballoc;
	err = hl_vmem_attach(rt);
	if (err)
		goto err_small;
	return 0;

err_small:
	hl_small_release_all(rt);
err_suballoc:
	hl_suballoc_release_all(rt);
	return err;
}

void hl_memory_release_all(struct hl_runtime *rt)
{
	/* Mappings first: they hold imports of handles' BOs. */
	hl_vmem_release_all(rt);
	pthread_mutex_lock(&rt->mem_lock);
	struct hl_alloc *al = rt->allocs;
	rt->allocs = NULL;
	pthread_mutex_unlock(&rt->mem_lock);
	while (al) {
		struct hl_alloc *next = al->next;
		hl_alloc_release(rt, al);
		al = next;
	}
	/* Every fragment is back: the blocks go, cached or not. */
	hl_suballoc_release_all(rt);
	/* The queue and signal modules above are gone with their objects. */
	hl_small_release_all(rt);
	hl_ipc_release_all(rt);
	hl_userptr_release_all(rt);
	/* The copy module above dropped the pending prefetches. */
	pthread_mutex_destroy(&rt->svm_lock);
}

void hl_memory_forget_all(struct hl_runtime *rt)
{
	hl_vmem_forget_all(rt);
	struct hl_alloc *al = rt->allocs;
	rt->allocs = NULL;
	while (al) {
		struct hl_alloc *next = al->next;
		/* Plain host memory has no BO: unmap our copy like any other. */
		if (!al->mem)
			munmap(al->ptr, al->size);
		free(al->cbs);
		free(al);
		al = next;
	}
	hl_suballoc_forget_all(rt);
	hl_small_forget_all(rt);
	hl_ipc_forget_all(rt);
	hl_userptr_forget_all(rt);
}

static hsa_status_t allocate(struct hl_runtime *rt, struct hl_pool *pool, size_t size, void **ptr)
{
	int err = hl_pool_allocate(rt, pool, size, ptr);
	if (err) {
		hl_debug("memory", "allocate %zu bytes: %s", size, hl_errno_name(err));
		return hl_status_from_errno(err);
	}
	return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_memory_pool_allocate(hsa_amd_memory_pool_t memory_pool, size_t size,
					  uint32_t flags, void **ptr)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!ptr || size == 0 || flags != 0)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	struct hl_pool *pool = hl_pool_lookup(rt, memory_pool.handle);
	if (!pool)
		return (hsa_status_t)HSA_STATUS_ERROR_INVALID_MEMORY_POOL;
	return allocate(rt, pool, size, ptr);
}

hsa_status_t hsa_memory_allocate(hsa_region_t region, size_t size, void **ptr)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!ptr || size == 0)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	struct hl_pool *pool = hl_pool_lookup(rt, region.handle);
	if (!pool)
		return HSA_STATUS_ERROR_INVALID_REGION;
	return allocate(rt, pool, size, ptr);
}

/* Frees the pool allocation that starts at ptr. */
static hsa_status_t free_allocation(void *ptr)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!ptr)
		return HSA_STATUS_SUCCESS; /* the spec's no-op */
	pthread_mutex_lock(&rt->mem_lock);
	struct hl_alloc *al = hl_alloc_find_locked(rt, ptr);
	if (!al || al->ptr != ptr) {
		pthread_mutex_unlock(&rt->mem_lock);
		hl_debug("memory", "free %p: not the start of an allocation", ptr);
		return HSA_STATUS_ERROR_INVALID_ALLOCATION;
	}
	hl_alloc_unlink_locked(rt, al);
	pthread_mutex_unlock(&rt->mem_lock);
	/* Off the list, so a callback cannot free it again. */
	for (uint32_t i = 0; i < al->n_cbs; i++)
		al->cbs[i].fn(al->cbs[i].ptr, al->cbs[i].user_data);
	return hl_status_from_errno(hl_alloc_release(rt, al));
}

hsa_status_t hsa_amd_memory_pool_free(void *ptr)
{
	return free_allocation(ptr);
}

hsa_status_t hsa_memory_free(void *ptr)
{
	return free_allocation(ptr);
}

/* A fragment that is its whole block (exactly 2 MiB): ROCr treats it as a
 * plain allocation (MemoryRegion::AllowAccess compares the block with the
 * allocation). */
static bool fragment_is_block(const struct hl_alloc *al)
{
	uint64_t base, len;
	hl_suballoc_block_range(al->block, &base, &len);
	return base == (uint64_t)(uintptr_t)al->ptr && len == al->size;
}

hsa_status_t hsa_amd_agents_allow_access(uint32_t num_agents, const hsa_agent_t *agents,
					 const uint32_t *flags, const void *ptr)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	/* flags is reserved and must be NULL in this interface version. */
	if (num_agents == 0 || !agents || !ptr || flags)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	/* ROCr (Runtime::AllowAccess) looks the start of an allocation up
	 * before it looks at the agents.  Anything else is ROCr 1.18's
	 * VMemoryMapAllowAccess: INVALID_AGENT for an agent it does not know,
	 * INVALID_ALLOCATION where no mapping is (ROCr 5.2.3 said ERROR for
	 * both; HIP 5.2.3 treats every failure alike: docs/differences.md). */
	pthread_mutex_lock(&rt->mem_lock);
	struct hl_alloc *found = hl_alloc_find_locked(rt, ptr);
	bool is_start = found && found->ptr == ptr;
	pthread_mutex_unlock(&rt->mem_lock);
	if (!is_start) {
		/* ROCr 1.18: then a vmem mapping (RW for the agents) */
		int err = hl_vmem_allow_access(rt, agents, num_agents, ptr);
		if (err == -EINVAL)
			return HSA_STATUS_ERROR_INVALID_AGENT;
		if (err == -ENOENT) {
			hl_debug("memory", "allow_access %p: not the start of an allocation", ptr);
			return HSA_STATUS_ERROR_INVALID_ALLOCATION;
		}
		return err ? HSA_STATUS_ERROR : HSA_STATUS_SUCCESS;
	}

	/* room for the list, the GPUs a block is mapped on and the owner */
	uint32_t *ids = calloc((size_t)num_agents + rt->n_gpus + 1, sizeof(*ids));
	if (!ids)
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	hsa_status_t status = HSA_STATUS_SUCCESS;
	int count = hl_agent_gpu_ids(rt, agents, num_agents, ids, NULL);
	if (count < 0) {
		status = HSA_STATUS_ERROR_INVALID_AGENT;
		goto out_free_ids;
	}
	uint32_t n = (uint32_t)count;

	pthread_mutex_lock(&rt->mem_lock);
	struct hl_alloc *al = hl_alloc_find_locked(rt, ptr);
	if (!al || al->ptr != ptr) {
		/* Freed by another thread meanwhile. */
		pthread_mutex_unlock(&rt->mem_lock);
		status = HSA_STATUS_ERROR;
		goto out_free_ids;
	}
	if (al->mem && al->block && !fragment_is_block(al)) {
		/* A fragment: ROCr maps its whole block on the union of the
		 * list and the GPUs the block is mapped on (access is sticky:
		 * other fragments of the block may need the mappings). */
		for (uint32_t m = 0; m < al->mem->n_mapped; m++) {
			bool listed = false;
			for (uint32_t j = 0; j < n; j++)
				listed |= ids[j] == al->mem->mapped_gpus[m];
			if (!listed && n < num_agents + rt->n_gpus)
				ids[n++] = al->mem->mapped_gpus[m];
		}
	}
	if (al->mem) {
		/* VRAM stays mapped on its own GPU whatever the list says. */
		if (!hl_pool_is_system(al->pool)) {
			bool has_owner = false;
			for (uint32_t j = 0; j < n; j++)
				has_owner |= ids[j] == al->pool->owner->gpu->gpu_id;
			if (!has_owner)
				ids[n++] = al->pool->owner->gpu->gpu_id;
		}
		/* Exactly the listed GPUs: unmap the others, map the new ones. */
		uint32_t stale[64], n_stale = 0;
		for (uint32_t m = 0; m < al->mem->n_mapped && n_stale < 64; m++) {
			bool listed = false;
			for (uint32_t j = 0; j < n; j++)
				listed |= ids[j] == al->mem->mapped_gpus[m];
			if (!listed)
				stale[n_stale++] = al->mem->mapped_gpus[m];
		}
		int err = n_stale ? kfd_mem_unmap(rt->proc, al->mem, stale, n_stale) : 0;
		if (!err && n)
			err = kfd_mem_map(rt->proc, al->mem, ids, n);
		status = hl_status_from_errno(err);
	}
	pthread_mutex_unlock(&rt->mem_lock);

out_free_ids:
	free(ids);
	return status;
}

/* ROCr 5.2.3 accepts anything but (non-NULL, 0) and pins nothing; we pin
 * (userptr.c), so kernels may use the host address of registered memory. */
hsa_status_t hsa_memory_register(void *ptr, size_t size)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (ptr && size == 0)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	if (!ptr)
		return HSA_STATUS_SUCCESS;
	int err = hl_userptr_register(rt, ptr, size);
	if (err) {
		hl_error("memory", "register %p+%zu: %s", ptr, size, hl_errno_name(err));
		return hl_status_from_errno(err);
	}
	return HSA_STATUS_SUCCESS;
}

/* SUCCESS whatever it is given, as ROCr 5.2.3's. */
hsa_status_t hsa_memory_deregister(void *ptr, size_t size)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	int err = hl_userptr_deregister(rt, ptr, size);
	if (err == -ENOENT)
		hl_debug("memory", "deregister %p+%zu: not a registration (ignored, as ROCr does)",
			 ptr, size);
	else if (err)
		hl_error("memory", "deregister %p+%zu: %s", ptr, size, hl_errno_name(err));
	return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_memory_assign_agent(void *ptr, hsa_agent_t agent, hsa_access_permission_t access)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!ptr || access < HSA_ACCESS_PERMISSION_RO || access > HSA_ACCESS_PERMISSION_RW)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	struct hl_agent *a = hl_agent_lookup(rt, agent);
	if (!a)
		return HSA_STATUS_ERROR_INVALID_AGENT;

	hsa_status_t status = HSA_STATUS_SUCCESS;
	pthread_mutex_lock(&rt->mem_lock);
	struct hl_alloc *al = hl_alloc_find_locked(rt, ptr);
	if (!al) {
		status = HSA_STATUS_ERROR_INVALID_ARGUMENT;
	} else if (al->mem && a->gpu) {
		/* Ownership of coarse-grained memory moves to the agent: make
		 * sure it is mapped there (a no-op when it already is). */
		status = hl_status_from_errno(kfd_mem_map(rt->proc, al->mem, &a->gpu->gpu_id, 1));
	}
	pthread_mutex_unlock(&rt->mem_lock);
	return status;
}

/* Pool allocations, as ROCr's allocation map reports them. */
/* Interface 1.18's alloc_flags: the BO as the driver holds it (what
 * ROCr reads from the thunk's HsaMemFlags).  NONPAGED: VRAM and GTT BOs
 * (pinned by the driver), not userptr pages; the two atomic-access bits
 * are not reported (KFD's flags do not say it: see docs/differences.md). */
uint32_t hl_alloc_flags_of(const struct kfd_mem *mem)
{
	uint32_t f = 0;
	if (!mem)
		return 0;
	if (mem->flags & KFD_ALLOC_EXECUTABLE)
		f |= HSA_AMD_POINTER_INFO_ALLOC_FLAG_EXECUTABLE;
	if (mem->flags & KFD_ALLOC_CONTIGUOUS_BEST_EFFORT)
		f |= HSA_AMD_POINTER_INFO_ALLOC_FLAG_CONTIGUOUS;
	if (mem->flags & (KFD_ALLOC_VRAM | KFD_ALLOC_GTT))
		f |= HSA_AMD_POINTER_INFO_ALLOC_FLAG_NONPAGED;
	if (!(mem->flags & KFD_ALLOC_WRITABLE))
		f |= HSA_AMD_POINTER_INFO_ALLOC_FLAG_READONLY;
	if (mem->host_access)
		f |= HSA_AMD_POINTER_INFO_ALLOC_FLAG_HOST_ACCESS;
	return f;
}

static bool alloc_info_locked(struct hl_runtime *rt, const void *ptr, hsa_amd_pointer_info_t *out,
			      hsa_agent_t *list, uint32_t max, uint32_t *n_list)
{
	struct hl_alloc *al = hl_alloc_find_locked(rt, ptr);
	if (!al)
		return false;
	out->type = HSA_EXT_POINTER_TYPE_HSA;
	/* ROCr: "agent and host address must match" for its allocations,
	 * CPU-visible or not. */
	out->agentBaseAddress = al->ptr;
	out->hostBaseAddress = al->ptr;
	out->sizeInBytes = al->size;
	out->userData = al->userdata;
	out->agentOwner = hl_agent_handle(al->pool->owner);
	uint32_t flags = 0;
	(void)hsa_amd_memory_pool_get_info((hsa_amd_memory_pool_t){ (uint64_t)(uintptr_t)al->pool },
					   HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags);
	out->global_flags = flags;
	out->alloc_flags = hl_alloc_flags_of(al->mem);
	/* The GPUs it is mapped on (libhsakmt's mapped nodes: never a CPU). */
	for (uint32_t i = 0; i < rt->n_agents && *n_list < max; i++) {
		const struct hl_agent *a = &rt->agents[i];
		for (uint32_t m = 0; a->gpu && al->mem && m < al->mem->n_mapped; m++)
			if (al->mem->mapped_gpus[m] == a->gpu->gpu_id) {
				list[(*n_list)++] = hl_agent_handle(a);
				break;
			}
	}
	return true;
}

/* Other memory the thunk allocated (queues, signals, code): what
 * libhsakmt's QueryPointerInfo reports for an allocated object. */
static bool bo_info(struct hl_runtime *rt, const void *ptr, hsa_amd_pointer_info_t *out,
		    hsa_agent_t *list, uint32_t max, uint32_t *n_list)
{
	struct kfd_mem *mem = kfd_mem_find(rt->proc, ptr);
	if (!mem || mem->external || mem->kind == KFD_MEM_DOORBELL)
		return false;
	/* An import the runtime made for itself (an attached IPC signal's
	 * page): libhsakmt's REGISTERED_SHARED, no CPU address, as for
	 * hsa_amd_ipc_memory_attach (ipc.c). */
	out->type = mem->imported ? HSA_EXT_POINTER_TYPE_IPC : HSA_EXT_POINTER_TYPE_HSA;
	out->alloc_flags = hl_alloc_flags_of(mem);
	out->agentBaseAddress = mem->addr;
	out->hostBaseAddress = mem->imported ? NULL : mem->addr;
	out->sizeInBytes = mem->size;
	out->global_flags = (mem->flags & KFD_ALLOC_COHERENT)
				    ? HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED
				    : HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED;
	if (rt->n_cpus)
		out->agentOwner = hl_agent_handle(&rt->agents[0]);
	for (uint32_t i = 0; i < rt->n_agents; i++) {
		const struct hl_agent *a = &rt->agents[i];
		if (!a->gpu)
			continue;
		if ((mem->kind == KFD_MEM_VRAM || mem->imported) && a->gpu->gpu_id == mem->gpu_id)
			out->agentOwner = hl_agent_handle(a);
		for (uint32_t m = 0; m < mem->n_mapped && *n_list < max; m++)
			if (mem->mapped_gpus[m] == a->gpu->gpu_id) {
				list[(*n_list)++] = hl_agent_handle(a);
				break;
			}
	}
	return true;
}

/* As ROCr 5.2.3's Runtime::PtrInfo: an unknown pointer is SUCCESS with type
 * UNKNOWN, the first CPU as owner and fine-grained flags; the list is
 * returned only when alloc, the count and the list pointer are all given. */
hsa_status_t hsa_amd_pointer_info(const void *ptr, hsa_amd_pointer_info_t *info,
				  void *(*alloc)(size_t), uint32_t *num_agents_accessible,
				  hsa_agent_t **accessible)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!ptr || !info || info->size == 0)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	bool want_list = alloc && num_agents_accessible && accessible;

	hsa_amd_pointer_info_t out;
	memset(&out, 0, sizeof(out));
	hsa_agent_t list[64];
	uint32_t n_list = 0;

	pthread_mutex_lock(&rt->mem_lock);
	bool found = alloc_info_locked(rt, ptr, &out, list, 64, &n_list);
	if (!found)
		found = hl_ipc_info_locked(rt, ptr, &out, list, 64, &n_list);
	pthread_mutex_unlock(&rt->mem_lock);
	if (!found)
		found = hl_userptr_info(rt, ptr, &out, list, 64, &n_list);
	bool vmem = false;
	if (!found)
		found = vmem = hl_vmem_info(rt, ptr, &out, list, 64, &n_list);
	/* Inside a block but in no fragment: freed memory, which the client
	 * must not see as the block (ROCr 1.18: UNKNOWN). */
	if (!found && !hl_suballoc_in_block(rt, ptr))
		found = bo_info(rt, ptr, &out, list, 64, &n_list);
	/* newer ROCr: every pointer its allocation map or the thunk knows; a
	 * reserved range says itself (NO_REGISTER ones are not) */
	if (!vmem)
		out.registered = found;
	if (!found) {
		memset(&out, 0, sizeof(out));
		n_list = 0;
		out.type = HSA_EXT_POINTER_TYPE_UNKNOWN;
		out.global_flags = HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED;
		if (rt->n_cpus)
			out.agentOwner = hl_agent_handle(&rt->agents[0]);
	}

	/* Versioned by size: fill only what the caller's struct has room for. */
	uint32_t size = info->size < sizeof(out) ? info->size : (uint32_t)sizeof(out);
	out.size = size;
	memcpy(info, &out, size);
	if (want_list) {
		*accessible = alloc(n_list * sizeof(hsa_agent_t));
		if (!*accessible)
			return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
		*num_agents_accessible = n_list;
		memcpy(*accessible, list, n_list * sizeof(hsa_agent_t));
	}
	return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_pointer_info_set_userdata(const void *ptr, void *userdata)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!ptr)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	/* The start of an allocation, as ROCr keys its allocation map; then
	 * the start of a locked or registered range, as libhsakmt's. */
	pthread_mutex_lock(&rt->mem_lock);
	struct hl_alloc *al = hl_alloc_find_locked(rt, ptr);
	bool done = al && al->ptr == ptr;
	if (done)
		al->userdata = userdata;
	else
		done = hl_ipc_set_userdata_locked(rt, ptr, userdata);
	pthread_mutex_unlock(&rt->mem_lock);
	if (done || !hl_userptr_set_userdata(rt, ptr, userdata))
		return HSA_STATUS_SUCCESS;
	return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

hsa_status_t hsa_amd_register_deallocation_callback(void *ptr,
						    hsa_amd_deallocation_callback_t callback,
						    void *user_data)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!ptr || !callback)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	hsa_status_t status = HSA_STATUS_SUCCESS;
	pthread_mutex_lock(&rt->mem_lock);
	struct hl_alloc *al = hl_alloc_find_locked(rt, ptr);
	if (!al) {
		status = HSA_STATUS_ERROR_INVALID_ALLOCATION;
		goto out_unlock;
	}
	struct hl_dealloc_cb *n = hl_array_room(al->cbs, al->n_cbs, &al->cap_cbs, sizeof(*n), 4);
	if (!n) {
		status = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
		goto out_unlock;
	}
	al->cbs = n;
	al->cbs[al->n_cbs++] = (struct hl_dealloc_cb){ ptr, callback, user_data };
out_unlock:
	pthread_mutex_unlock(&rt->mem_lock);
	return status;
}

hsa_status_t hsa_amd_deregister_deallocation_callback(void *ptr,
						      hsa_amd_deallocation_callback_t callback)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!ptr || !callback)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	hsa_status_t status = HSA_STATUS_ERROR_INVALID_ARGUMENT;
	pthread_mutex_lock(&rt->mem_lock);
	struct hl_alloc *al = hl_alloc_find_locked(rt, ptr);
	/* Every registration of this (ptr, callback); the last one takes the
	 * freed slot, which is the order ROCr's runs them in afterwards. */
	uint32_t i = 0;
	while (al && i < al->n_cbs) {
		if (al->cbs[i].ptr == ptr && al->cbs[i].fn == callback) {
			al->cbs[i] = al->cbs[--al->n_cbs];
			status = HSA_STATUS_SUCCESS;
		} else {
			i++;
		}
	}
	pthread_mutex_unlock(&rt->mem_lock);
	return status;
}
