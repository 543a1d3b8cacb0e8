/*
 * Graphics interop: hsa_amd_interop_map_buffer / _unmap_buffer, a dma-buf
 * of GPU memory (a graphics driver's buffer, or any amdgpu BO exported
 * from another process) mapped into this process's GPU address space.
 *
 * As ROCr 5.2.3 (hsa_ext_amd.cpp, Runtime::InteropMap / InteropUnmap over
 * libhsakmt's hsaKmtRegisterGraphicsHandleToNodes and
 * hsaKmtMapMemoryToGPUNodes):
 *  - map checks its arguments (NULL agents, size or ptr, flags != 0, no
 *    agent: INVALID_ARGUMENT; an unknown agent: INVALID_AGENT), then asks
 *    GET_DMABUF_INFO for the size, exporting GPU and the BO's metadata
 *    (into a 64-byte buffer, again with the size the kernel asks for when
 *    that is too small), imports the buffer on the exporting GPU
 *    (IMPORT_DMABUF, at a VA aligned to 256 KiB) and maps it on the
 *    agents' GPUs (a CPU agent among them fails the mapping, as
 *    libhsakmt asks the kernel to map on its node too).  Anything that is not a dma-buf of GPU memory of a GPU
 *    this process has, or a failed import: HSA_STATUS_ERROR; a failed
 *    GPU mapping: OUT_OF_RESOURCES.  *size is the buffer's size, *ptr its
 *    address, *metadata_size and *metadata (each when asked for) the
 *    metadata's size and our copy of it, valid until the unmap.
 *  - unmap returns SUCCESS whatever the pointer (ROCr ignores
 *    InteropUnmap's failures); the start of a mapping is unmapped and
 *    released, anything else is left alone.
 * The mapping is recorded with the IPC attachments (ipc.c), which own it
 * from then on: pointer info reports it (type GRAPHICS, coarse-grained as
 * libhsakmt registers graphics buffers), hsa_amd_ipc_memory_detach takes
 * it as ROCr's does (both are libhsakmt imports there), and
 * hsa_shut_down releases it.  The caller's fd stays the caller's.
 *
 * hsa_amd_interop_map_buffer_with_size (AMD's header 1.29) is the same map
 * with the caller's idea of the size, which ROCr hands libhsakmt and Linux's
 * libhsakmt leaves unused (the dma-buf knows its size); unlike the older
 * call, it takes any flags, as ROCr's does.
 *
 * Beyond ROCr: the CPU can reach the buffer too, at the same address,
 * when the dma-buf can be mmapped (kfd_mem_import_dmabuf).
 */
#include <errno.h>
#include <stdlib.h>

#include "hsa/hsa.h"
#include "hsa/hsa_ext_amd.h"
#include "memory/memory_priv.h"
#include "util/log.h"

#define INTEROP_LOG "interop"
/* libhsakmt's GRAPHICS_METADATA_DEFAULT_SIZE and IMAGE_ALIGN. */
#define INTEROP_METADATA_SIZE 64u
#define INTEROP_ALIGN (256ull << 10)

/* GET_DMABUF_INFO with a metadata buffer of ours (*metadata, malloc'd). */
static int interop_info(struct hl_runtime *rt, int fd, uint64_t *size, uint32_t *owner,
			void **metadata, uint32_t *md_size)
{
	uint32_t flags, want = INTEROP_METADATA_SIZE;
	void *md = calloc(1, want);
	if (!md)
		return -ENOMEM;
	*md_size = want;
	int err = kfd_dmabuf_info(rt->proc, fd, size, owner, &flags, md, md_size);
	if (err && *md_size > want) {
		/* Bigger metadata than the default buffer: once more. */
		free(md);
		want = *md_size;
		md = calloc(1, want);
		if (!md)
			return -ENOMEM;
		err = kfd_dmabuf_info(rt->proc, fd, size, owner, &flags, md, md_size);
	}
	if (err) {
		free(md);
		return err;
	}
	*metadata = md;
	return 0;
}

/* The map itself, once the arguments passed their call's checks. */
static hsa_status_t interop_map(struct hl_runtime *rt, uint32_t num_agents, hsa_agent_t *agents,
				int interop_handle, size_t size_hint, size_t *size, void **ptr,
				size_t *metadata_size, const void **metadata)
{
	uint32_t *ids = calloc(num_agents, sizeof(*ids));
	if (!ids)
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	hsa_status_t status = HSA_STATUS_SUCCESS;
	bool cpu_agent = false;
	int count = hl_agent_gpu_ids(rt, agents, num_agents, ids, &cpu_agent);
	if (count < 0) {
		status = HSA_STATUS_ERROR_INVALID_AGENT;
		goto out_free_ids;
	}
	uint32_t n = (uint32_t)count;

	uint64_t bytes;
	uint32_t owner, md_size;
	void *md;
	int err = interop_info(rt, interop_handle, &bytes, &owner, &md, &md_size);
	if (err) {
		hl_error(INTEROP_LOG, "hsa_amd_interop_map_buffer(fd %d): %s: not a dma-buf of GPU "
			 "memory", interop_handle, hl_errno_name(err));
		/* ROCr: whatever the registration's failure, even memory. */
		status = HSA_STATUS_ERROR;
		goto out_free_ids;
	}
	bool have = false;
	for (uint32_t i = 0; i < rt->n_gpus; i++)
		have |= rt->gpu_ids[i] == owner;
	if (!have) {
		/* libhsakmt imports on the exporting GPU only. */
		hl_error(INTEROP_LOG, "hsa_amd_interop_map_buffer(fd %d): the buffer is on GPU "
			 "0x%x, which this process does not have", interop_handle, owner);
		status = HSA_STATUS_ERROR;
		goto out_free_md;
	}
	struct kfd_mem *mem;
	err = kfd_mem_import_dmabuf(rt->proc, interop_handle, owner, INTEROP_ALIGN, &mem);
	if (err) {
		status = HSA_STATUS_ERROR;
		goto out_free_md;
	}
	/* libhsakmt maps on every agent's node, a CPU's too, which the
	 * kernel refuses (MAP_MEMORY_TO_GPU of gpu_id 0: -EINVAL). */
	err = cpu_agent ? -EINVAL : kfd_mem_map(rt->proc, mem, ids, n);
	if (err) {
		hl_error(INTEROP_LOG, "hsa_amd_interop_map_buffer(fd %d): mapping %llu bytes on "
			 "%u GPU(s): %s%s", interop_handle, (unsigned long long)bytes, n,
			 hl_errno_name(err), cpu_agent ? " (a CPU agent is no GPU to map on, "
			 "as in ROCr)" : "");
		status = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
		goto out_free_mem;
	}
	err = hl_ipc_add_graphics(rt, mem, md);
	if (err) {
		status = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
		goto out_free_mem;
	}
	if (size_hint && size_hint != mem->size)
		hl_debug(INTEROP_LOG, "fd %d: size hint %zu, the dma-buf has %llu bytes (the "
			 "hint does not change what is mapped, as in ROCr on Linux)",
			 interop_handle, size_hint, (unsigned long long)mem->size);
	*size = mem->size;
	*ptr = mem->addr;
	if (metadata_size)
		*metadata_size = md_size;
	if (metadata)
		*metadata = md;
	hl_debug(INTEROP_LOG, "fd %d: %llu bytes at %p, %u bytes of metadata", interop_handle,
		 (unsigned long long)mem->size, mem->addr, md_size);
	goto out_free_ids;

out_free_mem:
	kfd_mem_free(rt->proc, mem);
out_free_md:
	free(md);
out_free_ids:
	free(ids);
	return status;
}

hsa_status_t hsa_amd_interop_map_buffer(uint32_t num_agents, hsa_agent_t *agents,
					int interop_handle, uint32_t flags, size_t *size,
					void **ptr, size_t *metadata_size, const void **metadata)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!agents || !size || !ptr || flags || !num_agents)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	return interop_map(rt, num_agents, agents, interop_handle, 0, size, ptr, metadata_size,
			   metadata);
}

hsa_status_t hsa_amd_interop_map_buffer_with_size(uint32_t num_agents, hsa_agent_t *agents,
						  hsa_handle_t interop_handle, uint32_t flags,
						  size_t size_hint, size_t *size, void **ptr,
						  size_t *metadata_size, const void **metadata)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	/* ROCr's (rocm-systems, hsa_ext_amd.cpp) checks but flags: it passes
	 * HSA_INTEROP_MAP_FLAG_KMT_HANDLE on to libhsakmt as a Windows handle
	 * kind, which Linux's libhsakmt ignores, and drops the other bits. */
	(void)flags;
	if (!agents || !size || !ptr || !num_agents)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	return interop_map(rt, num_agents, agents, interop_handle, size_hint, size, ptr,
			   metadata_size, metadata);
}

hsa_status_t hsa_amd_interop_unmap_buffer(void *ptr)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	/* ROCr ignores what InteropUnmap says: SUCCESS for NULL, for a
	 * pointer that starts no mapping, for one unmapped already. */
	if (ptr)
		(void)hl_ipc_release(rt, ptr);
	return HSA_STATUS_SUCCESS;
}
