/*
 * hsa_amd_memory_fill: count 32-bit copies of value from ptr, synchronous,
 * as ROCr 5.2.3's Runtime::FillMemory decides:
 *  - ptr inside an allocation the runtime knows (pool memory, registered or
 *    locked host memory): a GPU fills it, the owner when it is a GPU, else
 *    the first GPU that can access it, with the hl_fill blit kernel;
 *  - known memory no GPU can access: the CPU fills it through its host
 *    address;
 *  - anything else: HSA_STATUS_ERROR_INVALID_ALLOCATION.
 * ROCr's host fallback is memset(ptr, value, 4 x count), which repeats the
 * low byte of value; hsalite stores the 32-bit value, as the GPU does.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "copy/copy_priv.h"
#include "runtime/status.h"
#include "util/log.h"

static int gpu_fill(struct hl_runtime *rt, struct hl_agent *gpu, void *ptr, uint32_t value,
		    size_t count)
{
	struct hl_blit *b;
	int err = hl_blit_get(rt, gpu, &b);
	if (err)
		return err;
	struct hl_blit_fill_args a = {
		.dst = (uint64_t)(uintptr_t)ptr,
		.count = count,
		.value = value,
	};
	uint64_t items = hl_blit_items(b, count / 4 ? count / 4 : 1);
	a.stride = items;
	uint64_t bytes = count > UINT64_MAX / 4 ? UINT64_MAX : (uint64_t)count * 4;
	return hl_blit_run_sync(b, HL_BLIT_FILL, &a, sizeof(a), items, bytes);
}

hsa_status_t hsa_amd_memory_fill(void *ptr, uint32_t value, size_t count)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!ptr || (uintptr_t)ptr % 4)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	if (count == 0)
		return HSA_STATUS_SUCCESS;

	hsa_amd_pointer_info_t info = { .size = sizeof(info) };
	uint32_t n = 0;
	hsa_agent_t *acc = NULL;
	hsa_status_t st = hsa_amd_pointer_info(ptr, &info, malloc, &n, &acc);
	if (st != HSA_STATUS_SUCCESS)
		return st;
	uintptr_t p = (uintptr_t)ptr, end = p + count * sizeof(uint32_t);
	struct hl_agent *gpu = NULL;
	if (count > SIZE_MAX / 4)
		st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
	else if (info.type != HSA_EXT_POINTER_TYPE_UNKNOWN &&
		 (uintptr_t)info.agentBaseAddress <= p &&
		 end <= (uintptr_t)info.agentBaseAddress + info.sizeInBytes) {
		struct hl_agent *owner = hl_agent_lookup(rt, info.agentOwner);
		if (owner && owner->type == HSA_DEVICE_TYPE_GPU)
			gpu = owner;
		for (uint32_t i = 0; !gpu && i < n; i++) {
			struct hl_agent *a = hl_agent_lookup(rt, acc[i]);
			if (a && a->type == HSA_DEVICE_TYPE_GPU)
				gpu = a;
		}
	}
	free(acc);
	if (st != HSA_STATUS_SUCCESS)
		return st;
	if (gpu) {
		int err = gpu_fill(rt, gpu, ptr, value, count);
		/* a GPU with no blit kernels (a processor none were built
		 * for): the CPU fills what it can reach, below */
		if (err != -ENOENT) {
			if (err)
				hl_error(COPY_LOG, "fill %p (%zu values) on %s: %s", ptr, count,
					 gpu->name, hl_errno_name(err));
			return err == 0 ? HSA_STATUS_SUCCESS
			       : err == -EIO ? HSA_STATUS_ERROR : HSA_STATUS_ERROR_OUT_OF_RESOURCES;
		}
	}
	if (info.type != HSA_EXT_POINTER_TYPE_UNKNOWN && info.hostBaseAddress &&
	    (uintptr_t)info.hostBaseAddress <= p &&
	    end <= (uintptr_t)info.hostBaseAddress + info.sizeInBytes) {
		uint32_t *d = ptr;
		for (size_t i = 0; i < count; i++)
			d[i] = value;
		/* through the BAR: visible to the GPU after an HDP flush */
		kfd_mem_hdp_flush_range(rt->proc, ptr, count * sizeof(uint32_t));
		return HSA_STATUS_SUCCESS;
	}
	return HSA_STATUS_ERROR_INVALID_ALLOCATION;
}
