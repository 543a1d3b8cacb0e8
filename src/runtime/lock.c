/*
 * Pinning caller-owned host memory for GPUs: hsa_amd_memory_lock,
 * hsa_amd_memory_lock_to_pool and hsa_amd_memory_unlock (what HIP's
 * hipHostRegister uses).  As ROCr 5.2.3 does on a dGPU (MemoryRegion::Lock):
 * the pages are registered with KFD as a USERPTR BO and mapped to the listed
 * GPUs (every GPU when the list is empty); the GPU address equals the host
 * address, so *agent_ptr = host_ptr.  With no GPU to map to nothing is
 * pinned and *agent_ptr = host_ptr as well.
 *
 * Locking the same range again maps it to the newly listed GPUs and counts
 * the lock; unlock drops one count and unpins at zero.  A range overlapping
 * another registration differently is refused by KFD (the error is mapped
 * through error.c).  The records live on rt->allocs (memory.c), so
 * hsa_amd_pointer_info reports the range as HSA_EXT_POINTER_TYPE_LOCKED.
 */
#include <errno.h>
#include <stdlib.h>

#include "runtime/runtime.h"

/* The GPU ids of the listed agents, or of every GPU agent when none are
 * listed.  Returns the count, or -1 with *status set for a bad agent. */
static int lock_targets(struct hl_runtime *rt, const hsa_agent_t *agents, int n, uint32_t *ids,
			hsa_status_t *status)
{
	if (n == 0) {
		for (uint32_t i = 0; i < rt->n_gpus; i++)
			ids[i] = rt->gpu_ids[i];
		return (int)rt->n_gpus;
	}
	int count = 0;
	for (int i = 0; i < n; i++) {
		struct hl_agent *a = hl_agent_lookup(rt, agents[i]);
		if (!a) {
			*status = HSA_STATUS_ERROR_INVALID_AGENT;
			return -1;
		}
		bool dup = false;
		for (int j = 0; a->gpu && j < count; j++)
			dup |= ids[j] == a->gpu->gpu_id;
		if (a->gpu && !dup)
			ids[count++] = a->gpu->gpu_id;
	}
	return count;
}

static hsa_status_t lock(struct hl_runtime *rt, void *host_ptr, size_t size,
			 hsa_agent_t *agents, int num_agent, void **agent_ptr)
{
	uint32_t *ids = calloc((size_t)(num_agent > 0 ? num_agent : 0) + rt->n_gpus + 1,
			       sizeof(*ids));
	if (!ids)
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	hsa_status_t status = HSA_STATUS_SUCCESS;
	int n = lock_targets(rt, agents, num_agent, ids, &status);
	if (n < 0)
		goto out_free_ids;
	if (n == 0) {
		/* Only CPUs: the memory is usable as it is. */
		*agent_ptr = host_ptr;
		goto out_free_ids;
	}

	pthread_mutex_lock(&rt->mem_lock);
	struct hl_alloc *al = hl_alloc_find_locked(rt, host_ptr);
	if (al && al->locked && al->ptr == host_ptr && al->size == size) {
		/* Locked again: add the new GPUs (mapped ones are skipped). */
		int err = al->mem ? kfd_mem_map(rt->proc, al->mem, ids, (uint32_t)n) : 0;
		if (!err)
			al->lock_count++;
		status = hl_status_from_errno(err);
		pthread_mutex_unlock(&rt->mem_lock);
		if (!err)
			*agent_ptr = host_ptr;
		goto out_free_ids;
	}
	pthread_mutex_unlock(&rt->mem_lock);

	al = calloc(1, sizeof(*al));
	if (!al) {
		status = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
		goto out_free_ids;
	}
	al->ptr = host_ptr;
	al->size = size;
	al->registered = true;
	al->locked = true;
	al->lock_count = 1;
	int err = kfd_mem_register(rt->proc, host_ptr, size, ids[0], &al->mem);
	if (err)
		goto err_free_record;
	err = kfd_mem_map(rt->proc, al->mem, ids, (uint32_t)n);
	if (err)
		goto err_unregister;
	pthread_mutex_lock(&rt->mem_lock);
	hl_alloc_link_locked(rt, al);
	pthread_mutex_unlock(&rt->mem_lock);
	*agent_ptr = host_ptr;
	goto out_free_ids;

err_unregister:
	kfd_mem_free(rt->proc, al->mem);
err_free_record:
	free(al);
	status = hl_status_from_errno(err);
out_free_ids:
	free(ids);
	return status;
}

static hsa_status_t lock_args_valid(void *host_ptr, size_t size, hsa_agent_t *agents,
				    int num_agent, void **agent_ptr)
{
	if (!host_ptr || size == 0 || !agent_ptr || num_agent < 0 || (num_agent > 0 && !agents))
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_memory_lock(void *host_ptr, size_t size, hsa_agent_t *agents, int num_agent,
				 void **agent_ptr)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	hsa_status_t s = lock_args_valid(host_ptr, size, agents, num_agent, agent_ptr);
	if (s != HSA_STATUS_SUCCESS)
		return s;
	return lock(rt, host_ptr, size, agents, num_agent, agent_ptr);
}

hsa_status_t hsa_amd_memory_lock_to_pool(void *host_ptr, size_t size, hsa_agent_t *agents,
					 int num_agent, hsa_amd_memory_pool_t pool, uint32_t flags,
					 void **agent_ptr)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	hsa_status_t s = lock_args_valid(host_ptr, size, agents, num_agent, agent_ptr);
	if (s != HSA_STATUS_SUCCESS)
		return s;
	if (flags != 0)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	const struct hl_pool *p = hl_pool_lookup(rt, pool.handle);
	if (!p)
		return (hsa_status_t)HSA_STATUS_ERROR_INVALID_MEMORY_POOL;
	/* Only system memory pools describe host pages.  The pinned pages keep
	 * the caching the kernel gives registered user memory whatever the
	 * pool's grain. */
	if (!hl_pool_is_system(p))
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	return lock(rt, host_ptr, size, agents, num_agent, agent_ptr);
}

hsa_status_t hsa_amd_memory_unlock(void *host_ptr)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!host_ptr)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	pthread_mutex_lock(&rt->mem_lock);
	struct hl_alloc *al = hl_alloc_find_locked(rt, host_ptr);
	if (!al || !al->locked || al->ptr != host_ptr) {
		pthread_mutex_unlock(&rt->mem_lock);
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	}
	if (--al->lock_count > 0) {
		pthread_mutex_unlock(&rt->mem_lock);
		return HSA_STATUS_SUCCESS;
	}
	hl_alloc_unlink_locked(rt, al);
	pthread_mutex_unlock(&rt->mem_lock);
	return hl_status_from_errno(hl_alloc_release(rt, al));
}
