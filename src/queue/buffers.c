/*
 * The memory a queue hands to CREATE_QUEUE, and the amd_queue_t fields that
 * describe the queue to the CP.  The kernel (6.12+, kfd_queue.c
 * kfd_queue_acquire_buffers) checks each buffer against the GPU VM:
 *  - ring: a mapping that starts at the ring and is exactly ring_size bytes
 *    (so the ring is its own allocation of 64 B x size) when ring_size is a
 *    page or more; a smaller ring (the CP takes them from 1 KiB,
 *    CP_HQD_PQ_CONTROL.QUEUE_SIZE >= 7, 256 dwords) is checked in pages,
 *    that is only for its page to start a mapping (kfd_queue_buffer_get's
 *    expected_size >> PAGE_SHIFT is 0), so it may be an object of the
 *    memory module's shared one-page BOs (the internal queue's 16 packets,
 *    internal.c: one ALLOC+MAP and UNMAP+FREE fewer);
 *  - EOP: exactly the node's eop_buffer_size (4 KiB) when given; libhsakmt
 *    gives none for AQL queues on gfx 9.4.x, and neither do we;
 *  - CWSR: ctl_stack_size equal to the node's, ctx_save_restore_size at
 *    least its cwsr_size, and a mapping of exactly
 *    ALIGN((cwsr + debug) x num_xcc, 4096) bytes (kfd_cwsr_sizes).
 *    The kernel also takes SVM ranges mapped on the GPU with
 *    GPU_ALWAYS_MAPPED there, which is how ROCr 1.18's libhsakmt places it
 *    when it can, and so do we (cwsr_svm): one ioctl instead of four.
 * Placement follows ROCr/libhsakmt on a dGPU: ring and CWSR in host memory
 * mapped to the GPU, EOP and scratch in VRAM.  Each buffer is mapped to the
 * queue's GPU only, but a small ring, which shares a page mapped to every
 * GPU (as ROCr maps its rings).
 *
 * Every partial state is undone by hl_queue_buffers_free, which frees
 * whatever q records.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "memory/memory.h"
#include "queue/queue_priv.h"
#include "util/log.h"

int hl_queue_mem_alloc(struct hl_runtime *rt, struct hl_queue *q, enum kfd_mem_kind kind,
		       uint64_t size, uint32_t extra_flags, const char *what,
		       struct kfd_mem **out)
{
	struct kfd_mem_alloc_args args = {
		.kind = kind,
		.gpu_id = q->gpu_id,
		.size = size,
		.align = HL_PAGE_SIZE,
		.extra_flags = extra_flags,
		.host_access = kind != KFD_MEM_VRAM,
	};
	struct kfd_mem *mem;
	int err = kfd_mem_alloc(rt->proc, &args, &mem);
	if (err)
		goto err_log;
	err = kfd_mem_map(rt->proc, mem, &q->gpu_id, 1);
	if (err)
		goto err_free_mem;
	*out = mem;
	return 0;

err_free_mem:
	kfd_mem_free(rt->proc, mem);
err_log:
	hl_error(QUEUE_LOG, "queue %s (%llu bytes) on GPU 0x%x: %s", what,
		 (unsigned long long)size, q->gpu_id, hl_errno_name(err));
	return err;
}

/* libhsakmt's per-XCC header: the debug area follows the num_xcc save
 * areas, so XCC i finds it (num_xcc - i) areas past its own header. */
static void cwsr_write_headers(void *area, const struct kfd_cwsr_sizes *sz, uint32_t num_xcc)
{
	for (uint32_t i = 0; i < num_xcc; i++) {
		struct kfd_context_save_area_header *h =
			(void *)((char *)area + (uint64_t)i * sz->cwsr_size);
		memset(h, 0, sizeof(*h));
		h->debug_offset = (num_xcc - i) * sz->cwsr_size;
		h->debug_size = sz->debug_size * num_xcc;
		h->err_payload_addr = 0;
		h->err_event_id = 0;
	}
}

static void ring_fill_invalid(void *ring, uint32_t packets)
{
	/* Only the header of each slot: bodies stay as the allocator left
	 * them (zero).  No other thread or the CP sees the ring yet. */
	for (uint32_t i = 0; i < packets; i++)
		*(uint16_t *)((char *)ring + (uint64_t)i * 64) = HSA_PACKET_TYPE_INVALID;
}

static void describe_queue(struct hl_queue *q, uint32_t size)
{
	amd_queue_t *amd = q->amd;
	const struct kfd_node_properties *p = &q->agent->node->props;
	const struct kfd_process_device_apertures *ap = &q->agent->gpu->apertures;

	amd->hsa_queue.features = HSA_QUEUE_FEATURE_KERNEL_DISPATCH;
	amd->hsa_queue.base_address = q->ring;
	amd->hsa_queue.size = size;
	amd->read_dispatch_id_field_base_byte_offset =
		(uint32_t)offsetof(amd_queue_t, read_dispatch_id);
	amd->max_cu_id = (p->simd_per_cu ? p->simd_count / p->simd_per_cu : 1) - 1;
	amd->max_wave_id = p->max_waves_per_simd * p->simd_per_cu - 1;
	amd->group_segment_aperture_base_hi = (uint32_t)(ap->lds_base >> 32);
	amd->private_segment_aperture_base_hi = (uint32_t)(ap->scratch_base >> 32);
	AMD_HSA_BITS_SET(amd->queue_properties, AMD_QUEUE_PROPERTIES_IS_PTR64, 1);
}

#define CWSR_SVM_ALIGN (2ull << 20) /* libhsakmt's GPU_HUGE_PAGE_SIZE */

/* The CWSR area as ROCr 1.18's libhsakmt places it when the kernel has the
 * SVM API (queues.c, "Allocate unified memory for context save restore
 * area on dGPU"): anonymous memory, 2 MiB aligned, not inherited by a fork
 * child (a copy-on-write fault there would evict the parent's queues),
 * headers written, then registered as an SVM range with the GPU as
 * prefetch location and access, system memory preferred, flags
 * HOST_ACCESS | GPU_EXEC | GPU_ALWAYS_MAPPED (KFD 1.11+) and the largest
 * granularity.  The kernel takes such a range for CWSR
 * (kfd_queue_acquire_buffers), and it costs one SVM ioctl where a BO takes
 * ALLOC and MAP, then UNMAP and FREE: munmap after DESTROY_QUEUE ends the
 * range (the kernel's MMU notifier).  Non-zero when the kernel lacks it or
 * refuses: the caller falls back to a BO, as libhsakmt does. */
static int cwsr_svm(struct hl_runtime *rt, struct hl_queue *q, const struct kfd_cwsr_sizes *sz,
		    uint32_t num_xcc)
{
	/* libhsakmt's hsakmt_is_svm_api_supported: the SVM ioctl and every
	 * GPU's SVMAPISupported */
	bool svm = kfd_svm_api(rt->proc) && rt->proc->version_minor >= 11;
	for (uint32_t i = 0; svm && i < rt->n_agents; i++)
		svm = !rt->agents[i].gpu ||
		      (rt->agents[i].node->props.capability & KFD_CAP_SVMAPI_SUPPORTED);
	if (!svm)
		return -EOPNOTSUPP;
	uint64_t size = sz->total_size;
	char *raw = mmap(NULL, size + CWSR_SVM_ALIGN, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED)
		return -errno;
	char *addr = (char *)(((uintptr_t)raw + CWSR_SVM_ALIGN - 1) & ~(CWSR_SVM_ALIGN - 1));
	if (addr > raw)
		munmap(raw, (size_t)(addr - raw));
	if (raw + size + CWSR_SVM_ALIGN > addr + size)
		munmap(addr + size, (size_t)(raw + size + CWSR_SVM_ALIGN - (addr + size)));
	if (madvise(addr, size, MADV_DONTFORK))
		hl_warn(QUEUE_LOG, "CWSR area: madvise(DONTFORK): %s", hl_errno_name(-errno));
	cwsr_write_headers(addr, sz, num_xcc);
	uint32_t flags = KFD_SVM_FLAG_HOST_ACCESS | KFD_SVM_FLAG_GPU_EXEC |
			 KFD_SVM_FLAG_GPU_ALWAYS_MAPPED;
	struct kfd_svm_attribute attrs[] = {
		{ KFD_SVM_ATTR_PREFETCH_LOC, q->gpu_id },
		{ KFD_SVM_ATTR_PREFERRED_LOC, KFD_SVM_LOCATION_SYSMEM },
		{ KFD_SVM_ATTR_CLR_FLAGS, ~flags },
		{ KFD_SVM_ATTR_SET_FLAGS, flags },
		{ KFD_SVM_ATTR_ACCESS, q->gpu_id },
		{ KFD_SVM_ATTR_GRANULARITY, 0xFF },
	};
	int err = kfd_svm_attrs(rt->proc, KFD_SVM_OP_SET_ATTR, (uint64_t)(uintptr_t)addr, size,
				attrs, sizeof(attrs) / sizeof(attrs[0]));
	if (err) {
		hl_warn(QUEUE_LOG, "CWSR area on GPU 0x%x as an SVM range: %s; a BO instead",
			q->gpu_id, hl_errno_name(err));
		munmap(addr, size);
		return err;
	}
	q->cwsr_svm = addr;
	q->cwsr_svm_size = size;
	return 0;
}

int hl_queue_buffers_alloc(struct hl_runtime *rt, struct hl_queue *q, uint32_t size,
			   uint32_t private_segment_size)
{
	const struct kfd_node *node = q->agent->node;
	uint32_t num_xcc = node->props.num_xcc ? node->props.num_xcc : 1;
	struct kfd_cwsr_sizes sz;
	kfd_cwsr_sizes(node, &sz);

	uint64_t ring_bytes = (uint64_t)size * 64;
	int err;
	if (ring_bytes < HL_PAGE_SIZE) {
		err = hl_small_alloc(rt, (uint32_t)ring_bytes, &q->ring);
		if (err) {
			hl_error(QUEUE_LOG, "queue ring (%u packets) on GPU 0x%x: %s", size,
				 q->gpu_id, hl_errno_name(err));
			q->ring = NULL;
			return err;
		}
	} else {
		err = hl_queue_mem_alloc(rt, q, KFD_MEM_USERPTR, ring_bytes,
					 KFD_ALLOC_COHERENT | KFD_ALLOC_EXECUTABLE, "ring",
					 &q->ring_mem);
		if (err)
			return err;
		q->ring = q->ring_mem->addr;
	}
	q->ring_bytes = (uint32_t)ring_bytes;
	ring_fill_invalid(q->ring, size);

	if (sz.eop_size) {
		err = hl_queue_mem_alloc(rt, q, KFD_MEM_VRAM, sz.eop_size, 0, "EOP buffer",
					 &q->eop_mem);
		if (err)
			return err;
	}
	if (sz.total_size && cwsr_svm(rt, q, &sz, num_xcc) != 0) {
		err = hl_queue_mem_alloc(rt, q, KFD_MEM_USERPTR, sz.total_size, 0, "CWSR area",
					 &q->cwsr_mem);
		if (err)
			return err;
		cwsr_write_headers(q->cwsr_mem->addr, &sz, num_xcc);
	}

	describe_queue(q, size);
	uint64_t scratch = hl_scratch_size(q->agent, private_segment_size);
	if (scratch) {
		err = hl_queue_mem_alloc(rt, q, KFD_MEM_VRAM, scratch, 0, "scratch",
					 &q->scratch_mem);
		if (err)
			return err;
	}
	hl_scratch_describe(q->amd, q->agent, private_segment_size,
			    q->scratch_mem ? (uint64_t)(uintptr_t)q->scratch_mem->addr : 0, scratch);
	return 0;
}

int hl_queue_scratch_alloc(struct hl_runtime *rt, struct hl_queue *q, uint64_t size,
			   struct kfd_mem **out)
{
	return hl_queue_mem_alloc(rt, q, KFD_MEM_VRAM, size, 0, "scratch", out);
}

void hl_queue_buffers_free(struct hl_runtime *rt, struct hl_queue *q)
{
	if (q->cwsr_svm)
		munmap(q->cwsr_svm, q->cwsr_svm_size);
	q->cwsr_svm = NULL;
	/* A small ring goes back to the shared pages: after DESTROY_QUEUE
	 * (or before CREATE_QUEUE) no CP reads it. */
	if (q->ring && !q->ring_mem)
		hl_small_free(rt, q->ring, q->ring_bytes);
	q->ring = NULL;
	q->ring_bytes = 0;
	struct kfd_mem **mems[] = { &q->scratch_mem, &q->cwsr_mem, &q->eop_mem, &q->ring_mem };
	for (size_t i = 0; i < sizeof(mems) / sizeof(mems[0]); i++) {
		if (*mems[i])
			kfd_mem_free(rt->proc, *mems[i]);
		*mems[i] = NULL;
	}
}
