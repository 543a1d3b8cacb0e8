/*
 * Doorbells.  On gfx9+ each process gets one 8 KiB slice of 1024 64-bit
 * doorbells per GPU, allocated by the kernel with the first queue of that
 * GPU.  CREATE_QUEUE returns doorbell_offset = the slice's mmap offset on
 * the kfd fd (type DOORBELL | gpu_id << 46) ORed with the queue's byte
 * offset inside the slice.  As libhsakmt's map_doorbell_dgpu does, we map
 * the slice once per GPU, after the first CREATE_QUEUE: ALLOC(DOORBELL,
 * 8 KiB) at a VA we reserve (the kernel backs it with the slice), mmap of
 * the kfd fd at offset & ~0x1FFF with exactly 8 KiB (the kernel rejects any
 * other length), and MAP to the GPU so shaders can ring doorbells too.
 * The mapping lives until kfd_process_close.
 *
 * doorbell_lock makes the first mapping of a GPU happen once when two
 * threads create its first queues concurrently.
 */
#include "kfd/kfd_priv.h"

#include <errno.h>

#include "util/log.h"

#define DOORBELL_IN_SLICE_MASK ((uint64_t)KFD_DOORBELL_SLICE_SIZE - 1)

int kfd_doorbell_map(struct kfd_process *proc, uint32_t gpu_id, uint64_t doorbell_offset,
		     uint64_t **doorbell)
{
	struct kfd_process_private *priv = proc->priv;
	int idx = kfd_gpu_index(proc, gpu_id);
	int ret = 0;

	if (idx < 0) {
		hl_error(KFD_LOG, "doorbell: EINVAL: unknown GPU 0x%x", gpu_id);
		return -EINVAL;
	}
	if ((doorbell_offset & KFD_MMAP_TYPE_MASK) != KFD_MMAP_TYPE_DOORBELL ||
	    ((doorbell_offset & KFD_MMAP_GPU_ID_MASK) >> KFD_MMAP_GPU_ID_SHIFT) !=
		    (gpu_id & 0xFFFFu)) {
		hl_error(KFD_LOG, "doorbell: EINVAL: offset 0x%llx is not a doorbell of GPU 0x%x",
			 (unsigned long long)doorbell_offset, gpu_id);
		return -EINVAL;
	}
	uint64_t page_offset = doorbell_offset & ~DOORBELL_IN_SLICE_MASK;
	struct kfd_gpu *gpu = &proc->gpus[idx];

	pthread_mutex_lock(&priv->doorbell_lock);
	if (!gpu->doorbell_slice) {
		struct kfd_mem *mem = kfd_mem_new_tracked_doorbell(proc, gpu, page_offset, &ret);
		if (!mem)
			goto out_unlock;
		ret = kfd_mem_map(proc, mem, &gpu_id, 1);
		if (ret) {
			/* Nothing else refers to it yet. */
			kfd_mem_destroy(proc, mem);
			goto out_unlock;
		}
		priv->doorbell_mem[idx] = mem;
		priv->doorbell_page_offset[idx] = page_offset;
		gpu->doorbell_slice = mem->addr;
		hl_debug(KFD_LOG, "doorbells of GPU 0x%x at %p (offset 0x%llx)", gpu_id, mem->addr,
			 (unsigned long long)page_offset);
	} else if (priv->doorbell_page_offset[idx] != page_offset) {
		hl_error(KFD_LOG, "doorbell: EINVAL: offset 0x%llx is outside the slice 0x%llx "
			 "already mapped for GPU 0x%x", (unsigned long long)doorbell_offset,
			 (unsigned long long)priv->doorbell_page_offset[idx], gpu_id);
		ret = -EINVAL;
		goto out_unlock;
	}
	*doorbell = (uint64_t *)((char *)gpu->doorbell_slice +
				 (doorbell_offset & DOORBELL_IN_SLICE_MASK));
out_unlock:
	pthread_mutex_unlock(&priv->doorbell_lock);
	return ret;
}
