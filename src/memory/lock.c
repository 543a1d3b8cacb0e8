/*
 * Pinning caller-owned host memory for GPUs: hsa_amd_memory_lock,
 * hsa_amd_memory_lock_to_pool and hsa_amd_memory_unlock (what HIP's
 * hipHostRegister uses), with ROCr 5.2.3's statuses (hsa_ext_amd.cpp,
 * MemoryRegion::Lock/Unlock).  The pages are pinned by an alias USERPTR BO
 * at a GPU address of its own; *agent_ptr is that address at the host
 * pointer's page offset, not the host pointer, as on ROCr over libhsakmt on
 * a dGPU.  The alias is mapped to every GPU whatever the list names, as
 * libhsakmt 5.2.3 maps user memory (fmm_map_to_gpu_nodes ignores the nodes
 * of a userptr and maps all registered ones: every GPU).  A list with no
 * GPU, or a process without GPUs, pins nothing and returns the host
 * pointer.  So does memory inside a pool allocation, which is mapped to the
 * listed GPUs as ROCr maps it; its unlock is a no-op (ROCr's unmaps the
 * whole allocation from every GPU, which we do not copy).  The bookkeeping
 * (counting, overlapping ranges) is userptr.c's.
 *
 * hsa_amd_memory_unlock returns SUCCESS whatever it is given, as ROCr's
 * does (it ignores what the thunk answers); an unknown pointer is logged.
 */
#include <errno.h>
#include <stdlib.h>

#include "memory/memory_priv.h"
#include "util/log.h"

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
	int count = hl_agent_gpu_ids(rt, agents, (uint32_t)n, ids, NULL);
	if (count < 0)
		*status = HSA_STATUS_ERROR_INVALID_AGENT;
	return count;
}

/* host_ptr inside one of our allocations: ROCr's Lock registers the BO
 * libhsakmt already has there and maps it to the listed GPUs, and the agent
 * pointer is the host pointer.  True when host_ptr is such memory. */
static bool lock_allocation(struct hl_runtime *rt, void *host_ptr, const uint32_t *ids,
			    uint32_t n, hsa_status_t *status)
{
	pthread_mutex_lock(&rt->mem_lock);
	struct hl_alloc *al = hl_alloc_find_locked(rt, host_ptr);
	if (al && al->mem) {
		int err = kfd_mem_map(rt->proc, al->mem, ids, n);
		/* MakeKfdMemoryResident failing is OUT_OF_RESOURCES. */
		*status = err ? HSA_STATUS_ERROR_OUT_OF_RESOURCES : HSA_STATUS_SUCCESS;
	}
	pthread_mutex_unlock(&rt->mem_lock);
	return al != NULL;
}

static hsa_status_t lock(struct hl_runtime *rt, void *host_ptr, size_t size,
			 hsa_agent_t *agents, int num_agent, bool coarse, void **agent_ptr)
{
	uint32_t *ids = calloc((size_t)num_agent + rt->n_gpus + 1, sizeof(*ids));
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
	if (lock_allocation(rt, host_ptr, ids, (uint32_t)n, &status)) {
		if (status == HSA_STATUS_SUCCESS)
			*agent_ptr = host_ptr;
		goto out_free_ids;
	}
	int err = hl_userptr_lock(rt, host_ptr, size, rt->gpu_ids, rt->n_gpus, coarse, agent_ptr);
	if (err) {
		hl_error("memory", "lock %p+%zu: %s", host_ptr, size, hl_errno_name(err));
		/* MemoryRegion::Lock: a failed map is OUT_OF_RESOURCES, a
		 * failed registration ERROR. */
		status = err == -ENOMEM ? HSA_STATUS_ERROR_OUT_OF_RESOURCES : HSA_STATUS_ERROR;
	}
out_free_ids:
	free(ids);
	return status;
}

/* hsa_ext_amd.cpp's checks, in its order: *agent_ptr is cleared once the
 * pointers are known good. */
static hsa_status_t lock_args_valid(void *host_ptr, size_t size, hsa_agent_t *agents,
				    int num_agent, void **agent_ptr)
{
	if (!host_ptr || size == 0 || !agent_ptr)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	*agent_ptr = NULL;
	if ((agents && num_agent == 0) || (!agents && num_agent != 0) || num_agent < 0)
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
	/* ROCr locks through its first coarse-grained system region. */
	return lock(rt, host_ptr, size, agents, num_agent, true, agent_ptr);
}

hsa_status_t hsa_amd_memory_lock_to_pool(void *host_ptr, size_t size, hsa_agent_t *agents,
					 int num_agent, hsa_amd_memory_pool_t pool, uint32_t flags,
					 void **agent_ptr)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (flags != 0 && host_ptr && size && agent_ptr)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	hsa_status_t s = lock_args_valid(host_ptr, size, agents, num_agent, agent_ptr);
	if (s != HSA_STATUS_SUCCESS)
		return s;
	const struct hl_pool *p = hl_pool_lookup(rt, pool.handle);
	/* Only pools of a CPU agent describe host pages. */
	if (!p || !hl_pool_is_system(p))
		return (hsa_status_t)HSA_STATUS_ERROR_INVALID_MEMORY_POOL;
	return lock(rt, host_ptr, size, agents, num_agent, p->kind == HL_POOL_SYSTEM_COARSE,
		    agent_ptr);
}

hsa_status_t hsa_amd_memory_unlock(void *host_ptr)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	int err = hl_userptr_unlock(rt, host_ptr);
	if (err == -ENOENT)
		hl_debug("memory", "unlock %p: not the start of a locked range (ignored, as ROCr "
			 "does)", host_ptr);
	else if (err)
		hl_error("memory", "unlock %p: %s", host_ptr, hl_errno_name(err));
	return HSA_STATUS_SUCCESS;
}
