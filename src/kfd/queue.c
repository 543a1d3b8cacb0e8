/*
 * User-mode queues: CREATE/DESTROY/UPDATE_QUEUE and SET_CU_MASK.  The
 * memory a queue needs (ring, read/write pointer page, EOP, CWSR area with
 * its headers) is allocated and GPU-mapped by the queue layer (src/queue)
 * before kfd_queue_create; the kernel (6.12+) checks each address against
 * the GPU mappings and rejects a size that differs from the node's, so most
 * EINVALs come from there.  We check what we can name precisely first, so
 * the log says which argument is wrong instead of a bare EINVAL.
 *
 * Live queue ids are listed (queue_lock) so that close can destroy what the
 * caller left: the kernel process, and its queues, outlive our fd.
 *
 * We always pass the 96-byte 1.17 struct; older kernels copy only the
 * prefix they know (the ioctl size rides in the command), so this is safe
 * on 1.2+.
 */
#include "kfd/kfd_priv.h"

#include <errno.h>
#include <stdio.h>

#include "util/log.h"

static bool is_pow2(uint64_t v) { return v && !(v & (v - 1)); }
static int destroy_queue_id(struct kfd_process *proc, uint32_t queue_id);

static int check_queue_args(struct kfd_process *proc, const struct kfd_queue_args *a)
{
	const char *why = NULL;

	if (!kfd_process_gpu_by_id(proc, a->gpu_id))
		why = "unknown GPU";
	else if (a->type > KFD_QUEUE_TYPE_SDMA_BY_ENG_ID)
		why = "unknown queue type";
	else if (a->percentage > KFD_QUEUE_PERCENTAGE_MAX)
		why = "percentage above 100";
	else if (a->priority > KFD_QUEUE_PRIORITY_MAX)
		why = "priority above 15";
	else if (!a->ring || ((uintptr_t)a->ring & 0xFF))
		why = "ring is NULL or not 256-byte aligned";
	else if (!is_pow2(a->ring_size))
		why = "ring size is not a power of two";
	else if (!a->read_ptr || !a->write_ptr)
		why = "no read or write pointer";
	else if (!a->eop != !a->eop_size)
		why = "EOP address and size must both be set or both be 0";
	if (why) {
		hl_error(KFD_LOG, "CREATE_QUEUE: EINVAL: %s (GPU 0x%x type %u percentage %u "
			 "priority %u ring %p size %u)", why, a->gpu_id, a->type, a->percentage,
			 a->priority, a->ring, a->ring_size);
		return -EINVAL;
	}
	return 0;
}

/*
 * Why did CREATE_QUEUE say EINVAL?  The kernel (kfd_queue_acquire_buffers,
 * 6.12+) does not tell, so after the fact we repeat its checks against what
 * we know: the node's CWSR sizes and our own allocations.  Only a diagnosis:
 * buffers we did not allocate (SVM ranges) are reported as unknown, never
 * refused up front.  buffer_problem fills and returns why, or returns NULL
 * when the buffer passes the kernel's check.
 */
static const char *buffer_problem(struct kfd_process *proc, uint32_t gpu_id, const void *p,
				  uint64_t expected_size, bool must_start, char *why, size_t len)
{
	uintptr_t start;
	uint64_t size;
	bool mapped;

	if (!kfd_mem_lookup(proc, p, gpu_id, &start, &size, &mapped))
		snprintf(why, len, "is not in an allocation of this process");
	else if (!mapped)
		snprintf(why, len, "is not mapped on GPU 0x%x", gpu_id);
	else if (must_start && start != ((uintptr_t)p & ~(uintptr_t)(KFD_PAGE_SIZE - 1)))
		snprintf(why, len, "is not in the first page of its allocation at 0x%llx",
			 (unsigned long long)start);
	else if (expected_size && size != expected_size)
		snprintf(why, len, "lies in an allocation of 0x%llx bytes, the kernel wants "
			 "exactly 0x%llx", (unsigned long long)size,
			 (unsigned long long)expected_size);
	else
		return NULL;
	return why;
}

static void explain_create_queue_einval(struct kfd_process *proc, const struct kfd_queue_args *a)
{
	const struct kfd_gpu *gpu = kfd_process_gpu_by_id(proc, a->gpu_id);
	struct kfd_cwsr_sizes cw;
	char why[160];
	const char *what = NULL, *problem = NULL;

	kfd_cwsr_sizes(gpu->node, &cw);
	uint32_t xcc = gpu->node->props.num_xcc ? gpu->node->props.num_xcc : 1;
	bool compute = a->type == KFD_QUEUE_TYPE_COMPUTE || a->type == KFD_QUEUE_TYPE_COMPUTE_AQL;

	if ((problem = buffer_problem(proc, a->gpu_id, a->write_ptr, KFD_PAGE_SIZE, true, why,
				      sizeof(why))))
		what = "write pointer";
	else if ((problem = buffer_problem(proc, a->gpu_id, a->read_ptr, KFD_PAGE_SIZE, true,
					   why, sizeof(why))))
		what = "read pointer";
	else if ((problem = buffer_problem(proc, a->gpu_id, a->ring,
					   a->ring_size >= KFD_PAGE_SIZE ? a->ring_size : 0,
					   true, why, sizeof(why))))
		what = "ring";
	if (!problem && compute) {
		if (a->eop && a->eop_size != 4096) {
			snprintf(why, sizeof(why), "size %llu is not the node's 4096",
				 (unsigned long long)a->eop_size);
			what = "EOP buffer";
			problem = why;
		} else if (a->eop && (problem = buffer_problem(proc, a->gpu_id, a->eop, a->eop_size,
								true, why, sizeof(why)))) {
			what = "EOP buffer";
		} else if (a->ctl_stack_size != cw.ctl_stack_size) {
			snprintf(why, sizeof(why), "0x%x is not the node's 0x%x", a->ctl_stack_size,
				 cw.ctl_stack_size);
			what = "ctl_stack_size";
			problem = why;
		} else if (a->ctx_save_size < cw.cwsr_size) {
			snprintf(why, sizeof(why), "0x%x is below the node's cwsr_size 0x%x",
				 a->ctx_save_size, cw.cwsr_size);
			what = "ctx_save_restore_size";
			problem = why;
		} else {
			uint64_t want = KFD_ALIGN_UP(((uint64_t)a->ctx_save_size + cw.debug_size) * xcc,
						     KFD_PAGE_SIZE);
			if ((problem = buffer_problem(proc, a->gpu_id, a->ctx_save, want, true, why,
						      sizeof(why))))
				what = "CWSR area";
		}
	}
	if (problem)
		hl_error(KFD_LOG, "CREATE_QUEUE: EINVAL: the %s %s", what, problem);
}

int kfd_queue_create(struct kfd_process *proc, const struct kfd_queue_args *a,
		     uint32_t *queue_id, uint64_t **doorbell)
{
	int ret = check_queue_args(proc, a);
	if (ret)
		return ret;

	struct kfd_args_create_queue args = {
		.ring_base_address = (uintptr_t)a->ring,
		.write_pointer_address = (uintptr_t)a->write_ptr,
		.read_pointer_address = (uintptr_t)a->read_ptr,
		.ring_size = a->ring_size,
		.gpu_id = a->gpu_id,
		.queue_type = a->type,
		.queue_percentage = a->percentage,
		.queue_priority = a->priority,
		.eop_buffer_address = (uintptr_t)a->eop,
		.eop_buffer_size = a->eop_size,
		.ctx_save_restore_address = (uintptr_t)a->ctx_save,
		.ctx_save_restore_size = a->ctx_save_size,
		.ctl_stack_size = a->ctl_stack_size,
		.sdma_engine_id = a->sdma_engine_id,
	};
	ret = kfd_ioctl(proc->fd, KFD_IOCTL_CREATE_QUEUE, &args);
	if (ret) {
		const char *hint = "";
		if (ret == -EINVAL)
			hint = " (the kernel checks the ring, pointer, EOP and CWSR buffers "
			       "against the GPU mappings and the node's CWSR sizes)";
		else if (ret == -ESRCH)
			hint = " (no VM acquired for this GPU)";
		else if (ret == -ENOSPC)
			hint = " (too many queues for this process and GPU)";
		else if (ret == -KFD_ENOTSUPP)
			hint = " (queue type not supported)";
		hl_error(KFD_LOG, "CREATE_QUEUE: %s: GPU 0x%x type %u ring %p/%u rptr %p wptr %p "
			 "eop %p/%llu ctx %p/%u ctl %u%s", hl_errno_name(ret), a->gpu_id, a->type,
			 a->ring, a->ring_size, (void *)a->read_ptr, (void *)a->write_ptr, a->eop,
			 (unsigned long long)a->eop_size, a->ctx_save, a->ctx_save_size,
			 a->ctl_stack_size, hint);
		if (ret == -EINVAL)
			explain_create_queue_einval(proc, a);
		return ret;
	}

	ret = kfd_doorbell_map(proc, a->gpu_id, args.doorbell_offset, doorbell);
	if (ret) {
		/* A queue nobody can ring is useless: take it down again. */
		destroy_queue_id(proc, args.queue_id);
		return ret;
	}
	pthread_mutex_lock(&proc->priv->queue_lock);
	ret = kfd_id_list_add(&proc->priv->queue_ids, &proc->priv->n_queues,
			      &proc->priv->cap_queues, args.queue_id);
	pthread_mutex_unlock(&proc->priv->queue_lock);
	if (ret) {
		destroy_queue_id(proc, args.queue_id);
		return ret;
	}
	*queue_id = args.queue_id;
	hl_debug(KFD_LOG, "queue %u on GPU 0x%x, doorbell %p", args.queue_id, a->gpu_id,
		 (void *)*doorbell);
	return 0;
}

static int destroy_queue_id(struct kfd_process *proc, uint32_t queue_id)
{
	struct kfd_args_destroy_queue args = { .queue_id = queue_id };
	int ret = kfd_ioctl(proc->fd, KFD_IOCTL_DESTROY_QUEUE, &args);
	if (ret)
		hl_error(KFD_LOG, "DESTROY_QUEUE: %s: queue %u%s", hl_errno_name(ret), queue_id,
			 ret == -EINVAL ? " (no such queue)" : "");
	return ret;
}

int kfd_queue_destroy(struct kfd_process *proc, uint32_t queue_id)
{
	int ret = destroy_queue_id(proc, queue_id);
	if (ret)
		return ret;
	pthread_mutex_lock(&proc->priv->queue_lock);
	kfd_id_list_remove(proc->priv->queue_ids, &proc->priv->n_queues, queue_id);
	pthread_mutex_unlock(&proc->priv->queue_lock);
	return 0;
}

void kfd_queue_release_all(struct kfd_process *proc)
{
	struct kfd_process_private *priv = proc->priv;

	pthread_mutex_lock(&priv->queue_lock);
	if (!kfd_process_forked(proc) && proc->fd >= 0) {
		for (uint32_t i = 0; i < priv->n_queues; i++) {
			hl_warn(KFD_LOG, "close: queue %u was still alive", priv->queue_ids[i]);
			destroy_queue_id(proc, priv->queue_ids[i]);
		}
	}
	priv->n_queues = 0;
	pthread_mutex_unlock(&priv->queue_lock);
}

int kfd_queue_update(struct kfd_process *proc, uint32_t queue_id, uint32_t percentage,
		     uint32_t priority, void *ring, uint32_t ring_size)
{
	const char *why = NULL;
	if (percentage > KFD_QUEUE_PERCENTAGE_MAX)
		why = "percentage above 100";
	else if (priority > KFD_QUEUE_PRIORITY_MAX)
		why = "priority above 15";
	else if (ring_size && !is_pow2(ring_size))
		why = "ring size is not a power of two";
	if (why) {
		hl_error(KFD_LOG, "UPDATE_QUEUE: EINVAL: %s (queue %u percentage %u priority %u "
			 "ring size %u)", why, queue_id, percentage, priority, ring_size);
		return -EINVAL;
	}
	struct kfd_args_update_queue args = {
		.ring_base_address = (uintptr_t)ring,
		.queue_id = queue_id,
		.ring_size = ring_size,
		.queue_percentage = percentage,
		.queue_priority = priority,
	};
	int ret = kfd_ioctl(proc->fd, KFD_IOCTL_UPDATE_QUEUE, &args);
	if (ret)
		hl_error(KFD_LOG, "UPDATE_QUEUE: %s: queue %u ring %p/%u percentage %u priority %u",
			 hl_errno_name(ret), queue_id, ring, ring_size, percentage, priority);
	return ret;
}

int kfd_queue_alloc_gws(struct kfd_process *proc, uint32_t queue_id, uint32_t num_gws,
			uint32_t *first_gws)
{
	struct kfd_args_alloc_queue_gws args = {
		.queue_id = queue_id,
		.num_gws = num_gws,
	};
	int ret = kfd_ioctl(proc->fd, KFD_IOCTL_ALLOC_QUEUE_GWS, &args);
	if (ret) {
		hl_error(KFD_LOG, "ALLOC_QUEUE_GWS: %s: queue %u, %u slots", hl_errno_name(ret),
			 queue_id, num_gws);
		return ret;
	}
	if (first_gws)
		*first_gws = args.first_gws;
	return 0;
}

int kfd_queue_set_cu_mask(struct kfd_process *proc, uint32_t queue_id, const uint32_t *mask,
			  uint32_t num_bits)
{
	if (!mask || num_bits == 0 || num_bits % 32) {
		hl_error(KFD_LOG, "SET_CU_MASK: EINVAL: queue %u: %u mask bits (need a non-zero "
			 "multiple of 32 and a mask)", queue_id, num_bits);
		return -EINVAL;
	}
	struct kfd_args_set_cu_mask args = {
		.queue_id = queue_id,
		.num_cu_mask = num_bits,
		.cu_mask_ptr = (uintptr_t)mask,
	};
	int ret = kfd_ioctl(proc->fd, KFD_IOCTL_SET_CU_MASK, &args);
	if (ret)
		hl_error(KFD_LOG, "SET_CU_MASK: %s: queue %u, %u bits", hl_errno_name(ret), queue_id,
			 num_bits);
	return ret;
}
