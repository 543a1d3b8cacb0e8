/*
 * gpu_cwsr.c — the CWSR words of a compute queue's MQD (struct
 * kemu_hw_cwsr, gpu.h): the control stack the firmware pushes when it
 * saves a queue's waves and the two offsets that say how much of the stack
 * and of the context-save area the save used.  The driver allocates them
 * with the queue, as allocate_mqd makes room for the control stack behind
 * the MQD on gfx9 (kfd_mqd_manager_v9.c), and reads them for
 * GET_QUEUE_WAVE_STATE; the CP writes them (emu/cp/cp_ctx.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/gpu.h"

int kemu_gpu_cwsr_init(struct kemu_hw_queue *hq, uint32_t num_xcc)
{
	if (!hq || !num_xcc || num_xcc > KEMU_GPU_MAX_XCC || !hq->info.ctl_stack_size ||
	    hq->info.ctl_stack_size % 4)
		return -EINVAL;
	memset(&hq->cwsr, 0, sizeof(hq->cwsr));
	hq->cwsr.ctl_stack = calloc(num_xcc, hq->info.ctl_stack_size);
	if (!hq->cwsr.ctl_stack)
		return -ENOMEM;
	hq->cwsr.num_xcc = num_xcc;
	kemu_gpu_cwsr_reset(hq);
	return 0;
}

void kemu_gpu_cwsr_reset(struct kemu_hw_queue *hq)
{
	if (!hq || !hq->cwsr.ctl_stack)
		return;
	/* init_mqd: cp_hqd_cntl_stack_offset = cp_hqd_wg_state_offset =
	 * ctl_stack_size (an empty stack, no saved waves) */
	for (uint32_t x = 0; x < hq->cwsr.num_xcc; x++) {
		hq->cwsr.cntl_stack_offset[x] = hq->info.ctl_stack_size;
		hq->cwsr.wg_state_offset[x] = hq->info.ctl_stack_size;
	}
}

void kemu_gpu_cwsr_fini(struct kemu_hw_queue *hq)
{
	if (!hq)
		return;
	free(hq->cwsr.ctl_stack);
	memset(&hq->cwsr, 0, sizeof(hq->cwsr));
}
