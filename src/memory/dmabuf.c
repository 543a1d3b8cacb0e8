/*
 * dma-buf export of runtime allocations (ROCr 1.18, interface 1.1 and 1.9):
 * hsa_amd_portable_export_dmabuf, _v2 and hsa_amd_portable_close_dmabuf.
 *
 * The fd is KFD's EXPORT_DMABUF of the allocation's BO, the same export the
 * IPC handles use (src/kfd/share.c keeps one fd per BO for the allocation's
 * life); the caller gets its own descriptor of that dma-buf (a duplicate,
 * close-on-exec), as libhsakmt's hsaKmtExportDMABufHandle hands out a new
 * fd per call, so closing it never disturbs the runtime or other exports.
 * Any importer (hsa_amd_interop_map_buffer, another process, a graphics
 * API) reaches the whole BO; *offset says where ptr lies in it.
 *
 * ROCr's rules (hsa_ext_amd.cpp, Runtime::DmaBufExport / DmaBufClose):
 *  - NOT_INITIALIZED; INVALID_ARGUMENT for NULL ptr, dmabuf or offset and
 *    a size of 0;
 *  - [ptr, ptr + size) must lie inside one allocation of a memory pool,
 *    else INVALID_ALLOCATION; one owned by a CPU agent (system memory) is
 *    INVALID_AGENT;
 *  - HSA_AMD_DMABUF_MAPPING_TYPE_PCIE needs a GPU whose VRAM the host can
 *    reach (large BAR): NOT_SUPPORTED otherwise;
 *  - a refused export is INVALID_ARGUMENT when the driver calls the
 *    arguments invalid, else OUT_OF_RESOURCES;
 *  - close: close(2), SUCCESS or RESOURCE_FREE; it needs no open runtime.
 *    hsalite also refuses to close its own /dev/kfd descriptor.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "memory/memory_priv.h"
#include "util/log.h"

#define DMABUF_LOG "dmabuf"

static bool large_bar(const struct hl_agent *gpu)
{
	for (uint32_t i = 0; i < gpu->n_pools; i++)
		if ((gpu->pools[i].kind == HL_POOL_VRAM || gpu->pools[i].kind == HL_POOL_VRAM_FINE) &&
		    gpu->pools[i].host_access)
			return true;
	return false;
}

hsa_status_t hsa_amd_portable_export_dmabuf_v2(const void *ptr, size_t size, int *dmabuf,
					       uint64_t *offset, uint64_t flags)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!ptr || !dmabuf || !offset || !size)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;

	hsa_status_t st = HSA_STATUS_SUCCESS;
	int fd = -1, err = 0;
	uint64_t off = 0;
	pthread_mutex_lock(&rt->mem_lock);
	struct hl_alloc *al = hl_alloc_find_locked(rt, ptr);
	if (!al || (uintptr_t)ptr - (uintptr_t)al->ptr + size > al->size ||
	    (uintptr_t)ptr - (uintptr_t)al->ptr + size < size) {
		st = HSA_STATUS_ERROR_INVALID_ALLOCATION;
		goto out_unlock;
	}
	const struct hl_agent *owner = al->pool ? al->pool->owner : NULL;
	if (!owner || owner->type != HSA_DEVICE_TYPE_GPU) {
		st = HSA_STATUS_ERROR_INVALID_AGENT;
		goto out_unlock;
	}
	if ((flags & HSA_AMD_DMABUF_MAPPING_TYPE_PCIE) && !large_bar(owner)) {
		st = (hsa_status_t)HSA_STATUS_ERROR_NOT_SUPPORTED;
		goto out_unlock;
	}
	int kept;
	err = kfd_mem_export_dmabuf(rt->proc, al->mem, &kept);
	if (!err) {
		/* the caller's own descriptor; the kept one is the BO's */
		fd = fcntl(kept, F_DUPFD_CLOEXEC, 0);
		if (fd < 0)
			err = -errno;
	}
	off = (uint64_t)((uintptr_t)ptr - (uintptr_t)al->mem->addr);
out_unlock:
	pthread_mutex_unlock(&rt->mem_lock);
	if (st != HSA_STATUS_SUCCESS) {
		hl_info(DMABUF_LOG, "export %p (%zu bytes): %s", ptr, size,
			st == HSA_STATUS_ERROR_INVALID_ALLOCATION ? "not inside one pool allocation"
			: st == HSA_STATUS_ERROR_INVALID_AGENT ? "system memory (a CPU agent's pool)"
			: "PCIe mapping needs host-visible VRAM (large BAR)");
		return st;
	}
	if (err) {
		hl_error(DMABUF_LOG, "export %p (%zu bytes): %s", ptr, size, hl_errno_name(err));
		return err == -EINVAL ? HSA_STATUS_ERROR_INVALID_ARGUMENT
				      : HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	}
	*dmabuf = fd;
	*offset = off;
	return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_portable_export_dmabuf(const void *ptr, size_t size, int *dmabuf,
					    uint64_t *offset)
{
	return hsa_amd_portable_export_dmabuf_v2(ptr, size, dmabuf, offset,
						 HSA_AMD_DMABUF_MAPPING_TYPE_NONE);
}

hsa_status_t hsa_amd_portable_close_dmabuf(int dmabuf)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (rt && dmabuf == rt->proc->fd) {
		hl_error(DMABUF_LOG, "close_dmabuf(%d): that is the runtime's /dev/kfd", dmabuf);
		return HSA_STATUS_ERROR_RESOURCE_FREE;
	}
	if (close(dmabuf) == 0)
		return HSA_STATUS_SUCCESS;
	hl_info(DMABUF_LOG, "close_dmabuf(%d): %s", dmabuf, hl_errno_name(-errno));
	return HSA_STATUS_ERROR_RESOURCE_FREE;
}
