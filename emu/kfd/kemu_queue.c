/*
 * User-mode queues: CREATE/DESTROY/UPDATE_QUEUE and SET_CU_MASK, after
 * kfd_chardev.c (set_queue_properties_from_user), kfd_queue.c
 * (kfd_queue_acquire_buffers, 6.12+ with the Nov 2025 CWSR relaxation) and
 * kfd_process_queue_manager.c.  The checks run in the kernel's order and
 * the first failure wins:
 *
 *   1. arguments: percentage > 100, priority > 15 -> -EINVAL; ring address
 *      or rptr/wptr/EOP/ctx-save not user addresses -> -EFAULT; ring size
 *      not a power of two -> -EINVAL (below 1024 it is clamped and written
 *      back); unknown type -> 524 (ENOTSUPP)
 *   2. unknown gpu_id -> -EINVAL; no VM (before ACQUIRE_VM) -> -ESRCH;
 *      SDMA engine id out of range -> -EINVAL
 *   3. the doorbell slice is allocated on the first queue
 *   4. buffers, against the GPU VM mappings: wptr and rptr each in a
 *      one-page mapping that starts at their page; the ring mapping starts
 *      at the ring and is exactly ring_size (checked from 4 KiB up); for
 *      compute queues an EOP buffer (if given) of exactly the node's size in
 *      a mapping of that size, ctl_stack_size equal to the node's, the
 *      ctx-save size >= the node's cwsr_size and a mapping of exactly
 *      ALIGN((ctx_save_size + debug_size) * num_xcc, 4096), or SVM ranges
 *      mapped to the GPU with GPU_ALWAYS_MAPPED covering it -> -EINVAL
 *   5. more than max_queues on the device -> -ENOSPC; no queue id or SDMA
 *      slot left -> -ENOMEM; no CP doorbell left -> -EBUSY
 *
 * The queue keeps a reference on each buffer (so UNMAP of it gives -EBUSY)
 * and its doorbell slot is recorded for the command processor.  Each queue
 * type has one engine (queue_engine, as amdkfd's mqd_mgrs[type]): AQL
 * compute queues run on the CP (emu/cp), SDMA queues on the SDMA engines
 * (emu/sdma).  The driver hands that engine the queue's descriptor (q->hw,
 * gpu/gpu.h) when the queue is created, updated and destroyed, as the
 * device queue manager maps and unmaps queues on the HWS; the hooks return
 * once the engine is done with the old state.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cp/cp.h"
#include "kemu_priv.h"
#include "sdma/sdma.h"

/* Every engine, for what concerns them all (eviction). */
static const struct kemu_engine_ops *const kemu_engines[] = { &kemu_cp_engine,
							      &kemu_sdma_engine };

/* The engine that runs queues of a type (mqd_mgrs[type]); NULL: none. */
static const struct kemu_engine_ops *queue_engine(uint32_t type)
{
	static const struct kemu_engine_ops *const by_type[] = {
		[KFD_QUEUE_TYPE_COMPUTE_AQL] = &kemu_cp_engine,
		[KFD_QUEUE_TYPE_SDMA] = &kemu_sdma_engine,
		[KFD_QUEUE_TYPE_SDMA_XGMI] = &kemu_sdma_engine,
		[KFD_QUEUE_TYPE_SDMA_BY_ENG_ID] = &kemu_sdma_engine,
	};
	return type < KEMU_ARRAY_SIZE(by_type) ? by_type[type] : NULL;
}

/* Brings q's descriptor up to date with the driver's state it mirrors
 * (the wiring and the VMID's GWS count).  Caller holds p->lock. */
static void queue_hw_sync(struct kemu_process *p, struct kemu_queue *q)
{
	struct kemu_pdd *pdd = q->pdd;
	q->hw.vm = (struct kemu_gpu_vm){ .ops = &kemu_ih_gpu_ops, .p = p,
					 .gpu_id = pdd->dev->gpu->gpu_id, .gen = &p->vm_gen,
					 .code_gen = &p->map_gen };
	q->hw.gpu = pdd->dev->gpu;
	q->hw.log_level = p->m->log_level;
	/* the slice stays mapped until the process goes, after its queues */
	q->hw.doorbell = (_Atomic uint64_t *)&pdd->db[q->hw.info.doorbell_index];
	q->hw.num_gws = pdd->num_gws;
}

/* create_queue_cpsch: the queue's engine starts running it.  Caller holds
 * p->lock. */
static int queue_engine_add(struct kemu_process *p, struct kemu_queue *q)
{
	const struct kemu_engine_ops *e = queue_engine(q->hw.info.type);
	queue_hw_sync(p, q);
	return e ? e->add(&q->hw) : 0;
}

/* update_queue: the engine reloads the descriptor.  Caller holds p->lock. */
static void queue_engine_update(struct kemu_process *p, struct kemu_queue *q)
{
	const struct kemu_engine_ops *e = queue_engine(q->hw.info.type);
	queue_hw_sync(p, q);
	if (e)
		e->update(&q->hw);
}

/* destroy_queue_cpsch: returns once the engine no longer touches q. */
static void queue_engine_remove(struct kemu_queue *q)
{
	const struct kemu_engine_ops *e = queue_engine(q->hw.info.type);
	if (e)
		kemu_gpu_queue_remove(e->registry, &q->hw);
}

void kemu_queues_evict(struct kemu_process *p, const struct kemu_gpu *gpu)
{
	for (size_t i = 0; i < KEMU_ARRAY_SIZE(kemu_engines); i++)
		kemu_gpu_evict(kemu_engines[i]->registry, p, gpu);
}

static bool is_power_of_2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* The checks CREATE_QUEUE and UPDATE_QUEUE both make (the kernel writes
 * them out in set_queue_properties_from_user and kfd_ioctl_update_queue):
 * percentage, priority, the ring's address and size; a ring smaller than
 * the minimum is raised to it in *ring_size. */
static int queue_check_ring(uint32_t percentage, uint32_t priority, uint64_t ring_base,
			    uint32_t *ring_size)
{
	if ((percentage & 0xFF) > KFD_QUEUE_PERCENTAGE_MAX)
		return -EINVAL;
	if (priority > KFD_QUEUE_PRIORITY_MAX)
		return -EINVAL;
	if (ring_base && !kemu_access_ok(ring_base, 8))
		return -EFAULT;
	if (*ring_size && !is_power_of_2(*ring_size))
		return -EINVAL;
	if (*ring_size < KFD_QUEUE_RING_SIZE_MIN)
		*ring_size = KFD_QUEUE_RING_SIZE_MIN;
	return 0;
}

/* set_queue_properties_from_user, for CREATE_QUEUE. */
static int queue_check_args(struct kfd_args_create_queue *a)
{
	int err = queue_check_ring(a->queue_percentage, a->queue_priority, a->ring_base_address,
				   &a->ring_size);
	if (err)
		return err;
	if (!kemu_access_ok(a->read_pointer_address, 4) ||
	    !kemu_access_ok(a->write_pointer_address, 4))
		return -EFAULT;
	if (a->eop_buffer_address && !kemu_access_ok(a->eop_buffer_address, 4))
		return -EFAULT;
	if (a->ctx_save_restore_address && !kemu_access_ok(a->ctx_save_restore_address, 4))
		return -EFAULT;
	if (a->queue_type > KFD_QUEUE_TYPE_SDMA_BY_ENG_ID)
		return -KFD_ENOTSUPP;
	return 0;
}

/* kfd_queue_buffer_get: the VM mapping holding addr must start at its page
 * and, when expected >= one page, span exactly expected bytes.  what NULL:
 * no log on failure (the caller has a fallback).  Caller holds p->lock. */
static int queue_buffer_get(struct kemu_pdd *pdd, uint64_t addr, uint64_t expected,
			    struct kemu_bo **out, const char *what)
{
	struct kemu_process *p = pdd->proc;
	uint64_t page = addr >> 12, pages = expected >> 12;
	pthread_rwlock_rdlock(&p->vm_lock);
	const struct kemu_vm_mapping *map = kemu_vm_lookup(&pdd->vm, page);
	bool ok = map && map->start == page && (!pages || map->last == page + pages - 1);
	struct kemu_bo *bo = ok ? map->bo : NULL;
	pthread_rwlock_unlock(&p->vm_lock);
	if (!ok) {
		if (what)
			kemu_info(p->m, "CREATE_QUEUE: %s 0x%llx (expected size 0x%llx) is not the "
				  "start of a GPU mapping of that size: -EINVAL", what,
				  (unsigned long long)addr, (unsigned long long)expected);
		return -EINVAL;
	}
	bo->queue_refs[pdd->dev->index]++;
	*out = bo;
	return 0;
}

static void queue_buffer_put(struct kemu_pdd *pdd, struct kemu_bo **bo)
{
	if (*bo)
		(*bo)->queue_refs[pdd->dev->index]--;
	*bo = NULL;
}

static void queue_release_buffers(struct kemu_queue *q)
{
	queue_buffer_put(q->pdd, &q->wptr_bo);
	queue_buffer_put(q->pdd, &q->rptr_bo);
	queue_buffer_put(q->pdd, &q->ring_bo);
	queue_buffer_put(q->pdd, &q->eop_bo);
	queue_buffer_put(q->pdd, &q->cwsr_bo);
}

/* kfd_queue_acquire_buffers.  Caller holds p->lock. */
static int queue_acquire_buffers(struct kemu_queue *q)
{
	struct kemu_pdd *pdd = q->pdd;
	const struct kemu_gpu *g = pdd->dev->gpu;
	struct kemu_queue_info *i = &q->hw.info;
	int err = queue_buffer_get(pdd, i->wptr_va, KEMU_PAGE_SIZE, &q->wptr_bo, "wptr");
	if (err)
		goto err_release;
	err = queue_buffer_get(pdd, i->rptr_va, KEMU_PAGE_SIZE, &q->rptr_bo, "rptr");
	if (err)
		goto err_release;
	err = queue_buffer_get(pdd, i->ring_base, i->ring_size, &q->ring_bo, "ring");
	if (err)
		goto err_release;
	if (i->type != KFD_QUEUE_TYPE_COMPUTE && i->type != KFD_QUEUE_TYPE_COMPUTE_AQL)
		return 0; /* only compute queues need EOP and CWSR */
	if (i->eop_va) {
		if (q->eop_size != g->eop_buffer_size) {
			kemu_info(pdd->proc->m, "CREATE_QUEUE: EOP size 0x%llx != node's 0x%x: "
				  "-EINVAL", (unsigned long long)q->eop_size, g->eop_buffer_size);
			err = -EINVAL;
			goto err_release;
		}
		err = queue_buffer_get(pdd, i->eop_va, q->eop_size, &q->eop_bo, "EOP buffer");
		if (err)
			goto err_release;
	}
	if (i->ctl_stack_size != g->ctl_stack_size) {
		kemu_info(pdd->proc->m, "CREATE_QUEUE: ctl_stack_size 0x%x != node's 0x%x: -EINVAL",
			  i->ctl_stack_size, g->ctl_stack_size);
		err = -EINVAL;
		goto err_release;
	}
	if (i->ctx_save_size < g->cwsr_size) {
		kemu_info(pdd->proc->m, "CREATE_QUEUE: ctx_save_restore_size 0x%x < node's "
			  "cwsr_size 0x%x: -EINVAL", i->ctx_save_size, g->cwsr_size);
		err = -EINVAL;
		goto err_release;
	}
	uint64_t total = ((uint64_t)i->ctx_save_size + g->debug_memory_size) *
			 (g->num_xcc ? g->num_xcc : 1);
	total = KEMU_ALIGN(total, KEMU_PAGE_SIZE);
	/* a BO mapping, or SVM ranges mapped to this GPU with GPU_ALWAYS_MAPPED
	 * (libhsakmt of ROCr 1.18 registers the area as SVM): as the kernel,
	 * the BO lookup's failure is not an error while the SVM one may pass */
	err = queue_buffer_get(pdd, i->ctx_save_va, total, &q->cwsr_bo, NULL);
	if (err)
		err = kemu_svm_queue_get(pdd->proc, pdd->dev->index, i->ctx_save_va, total);
	if (err) {
		kemu_info(pdd->proc->m, "CREATE_QUEUE: CWSR area 0x%llx is neither the start of a "
			  "GPU mapping of 0x%llx bytes nor SVM ranges of that size mapped to the GPU "
			  "with GPU_ALWAYS_MAPPED: -EINVAL", (unsigned long long)i->ctx_save_va,
			  (unsigned long long)total);
		goto err_release;
	}
	return 0;

err_release:
	queue_release_buffers(q);
	return err;
}

/* allocate_sdma_queue: the first free sdma_id of the queue type's range;
 * SDMA: engine = id % num_sdma_engines, RLC queue = id / num_sdma_engines
 * (so consecutive queues land on different engines); SDMA_XGMI the same
 * over the xGMI engines, which follow the PCIe ones; SDMA_BY_ENG_ID the
 * first free RLC queue of that engine.  q->hw.sdma_slot = engine * queues per
 * engine + RLC queue.  (The kernel's bitmap is per device; ours is per
 * process-device: one process per device in practice.) */
static int queue_alloc_sdma(struct kemu_pdd *pdd, struct kemu_queue *q, uint32_t engine_id)
{
	const struct kemu_gpu *g = pdd->dev->gpu;
	uint32_t per = g->num_sdma_queues_per_engine;
	uint32_t first = 0, count = g->num_sdma_engines;
	if (q->hw.info.type == KFD_QUEUE_TYPE_SDMA_XGMI) {
		first = g->num_sdma_engines;
		count = g->num_sdma_xgmi_engines;
	} else if (q->hw.info.type == KFD_QUEUE_TYPE_SDMA_BY_ENG_ID) {
		first = engine_id;
		count = 1;
	}
	for (uint32_t id = 0; count && id < count * per; id++) {
		uint32_t slot = (first + id % count) * per + id / count;
		if (slot < 128 && !(pdd->sdma_used[slot / 64] >> (slot % 64) & 1)) {
			pdd->sdma_used[slot / 64] |= 1ull << (slot % 64);
			q->hw.sdma_slot = slot;
			return 0;
		}
	}
	return -ENOMEM;
}

static struct kemu_queue *queue_find(struct kemu_process *p, uint32_t id)
{
	for (struct kemu_queue *q = p->queues; q; q = q->next) {
		if (q->hw.info.queue_id == id)
			return q;
	}
	return NULL;
}

static void queue_update_active(struct kemu_queue *q)
{
	q->hw.info.active = q->hw.info.ring_size && q->hw.info.ring_base && q->hw.info.percentage;
}

long kemu_ioctl_create_queue(struct kemu_process *p, void *arg)
{
	struct kfd_args_create_queue *a = arg;
	long err = queue_check_args(a);
	if (err)
		return err;
	pthread_mutex_lock(&p->lock);
	struct kemu_pdd *pdd = kemu_pdd_by_id(p, a->gpu_id);
	if (!pdd) {
		err = -EINVAL;
		goto out_unlock;
	}
	if (kemu_pdd_bind(pdd)) {
		err = -ESRCH;
		goto out_unlock;
	}
	const struct kemu_gpu *g = pdd->dev->gpu;
	if (a->queue_type == KFD_QUEUE_TYPE_COMPUTE) {
		/* a PM4 (non-AQL) compute queue: the kernel accepts it, but
		 * emu/cp runs AQL rings only, so its packets would never run.
		 * Refused loudly rather than accepted and never executed. */
		kemu_warn(p->m, "CREATE_QUEUE: PM4 compute queue (type 0) not emulated, the CP "
			  "runs AQL queues only: -EOPNOTSUPP");
		err = -EOPNOTSUPP;
		goto out_unlock;
	}
	/* kfd_ioctl_create_queue: sdma_engine_id (u32) > max_sdma_eng_id, an
	 * int n - 1 converted to unsigned, so 0xffffffff is refused too (an
	 * "id + 1 > n" test wraps it to 0 and lets it through) */
	if (a->queue_type == KFD_QUEUE_TYPE_SDMA_BY_ENG_ID &&
	    a->sdma_engine_id > (uint32_t)(g->num_sdma_engines + g->num_sdma_xgmi_engines - 1)) {
		kemu_warn(p->m, "CREATE_QUEUE: sdma_engine_id %u exceeds maximum id of %d",
			  a->sdma_engine_id,
			  (int)(g->num_sdma_engines + g->num_sdma_xgmi_engines) - 1);
		err = -EINVAL;
		goto out_unlock;
	}
	if (kemu_doorbell_get_slice(pdd)) {
		err = -ENOMEM;
		goto out_unlock;
	}
	struct kemu_queue *q = calloc(1, sizeof(*q));
	if (!q) {
		err = -ENOMEM;
		goto out_unlock;
	}
	q->pdd = pdd;
	q->hw.info = (struct kemu_queue_info){
		.gpu_id = a->gpu_id, .type = a->queue_type,
		.ring_base = a->ring_base_address, .ring_size = a->ring_size,
		.rptr_va = a->read_pointer_address, .wptr_va = a->write_pointer_address,
		.eop_va = a->eop_buffer_address, .ctx_save_va = a->ctx_save_restore_address,
		.ctx_save_size = a->ctx_save_restore_size, .ctl_stack_size = a->ctl_stack_size,
		.percentage = a->queue_percentage & 0xFF, .priority = a->queue_priority,
	};
	q->eop_size = a->eop_buffer_size;
	err = queue_acquire_buffers(q);
	if (err)
		goto err_free;
	if (a->queue_type == KFD_QUEUE_TYPE_COMPUTE_AQL && a->ctx_save_restore_address) {
		/* allocate_mqd: room for the control stack the firmware
		 * keeps behind each XCC's MQD */
		err = kemu_gpu_cwsr_init(&q->hw, g->num_xcc ? g->num_xcc : 1);
		if (err)
			goto err_release;
	}
	/* pqm_create_queue */
	if (pdd->queue_count >= g->max_queues) {
		kemu_info(p->m, "CREATE_QUEUE: %u queues on gpu 0x%x already: -ENOSPC",
			  pdd->queue_count, a->gpu_id);
		err = -ENOSPC;
		goto err_release;
	}
	uint32_t id;
	for (id = 0; id < KEMU_MAX_QUEUE_IDS; id++) {
		if (!(p->queue_ids[id / 64] >> (id % 64) & 1))
			break;
	}
	if (id == KEMU_MAX_QUEUE_IDS) {
		err = -ENOMEM;
		goto err_release;
	}
	bool sdma = a->queue_type == KFD_QUEUE_TYPE_SDMA ||
		    a->queue_type == KFD_QUEUE_TYPE_SDMA_XGMI ||
		    a->queue_type == KFD_QUEUE_TYPE_SDMA_BY_ENG_ID;
	if (sdma) {
		err = queue_alloc_sdma(pdd, q, a->sdma_engine_id);
		if (err)
			goto err_release;
	}
	err = kemu_doorbell_alloc(pdd, q);
	if (err)
		goto err_sdma;
	q->hw.info.queue_id = id;
	queue_update_active(q);
	err = queue_engine_add(p, q);
	if (err) {
		kemu_doorbell_free(pdd, q);
		goto err_sdma;
	}
	p->queue_ids[id / 64] |= 1ull << (id % 64);
	q->next = p->queues;
	p->queues = q;
	pdd->queue_count++;
	a->queue_id = id;
	a->doorbell_offset = q->hw.info.doorbell_offset;
	pthread_mutex_unlock(&p->lock);
	return 0;

err_sdma:
	if (sdma)
		pdd->sdma_used[q->hw.sdma_slot / 64] &= ~(1ull << (q->hw.sdma_slot % 64));
err_release:
	kemu_gpu_cwsr_fini(&q->hw);
	queue_release_buffers(q);
err_free:
	free(q);
out_unlock:
	pthread_mutex_unlock(&p->lock);
	return err;
}

/* pqm_destroy_queue.  Caller holds p->lock; q is unlinked. */
static void queue_destroy(struct kemu_process *p, struct kemu_queue *q)
{
	struct kemu_pdd *pdd = q->pdd;
	uint32_t t = q->hw.info.type;
	queue_engine_remove(q);
	if (q->hw.info.gws)
		pdd->num_gws = 0; /* the process's GWS goes with its queue */
	if (t == KFD_QUEUE_TYPE_SDMA || t == KFD_QUEUE_TYPE_SDMA_XGMI ||
	    t == KFD_QUEUE_TYPE_SDMA_BY_ENG_ID)
		pdd->sdma_used[q->hw.sdma_slot / 64] &= ~(1ull << (q->hw.sdma_slot % 64));
	kemu_doorbell_free(pdd, q);
	kemu_gpu_cwsr_fini(&q->hw);
	queue_release_buffers(q);
	p->queue_ids[q->hw.info.queue_id / 64] &= ~(1ull << (q->hw.info.queue_id % 64));
	pdd->queue_count--;
	free(q);
}

long kemu_ioctl_destroy_queue(struct kemu_process *p, void *arg)
{
	struct kfd_args_destroy_queue *a = arg;
	long err = -EINVAL;
	pthread_mutex_lock(&p->lock);
	for (struct kemu_queue **pp = &p->queues; *pp; pp = &(*pp)->next) {
		struct kemu_queue *q = *pp;
		if (q->hw.info.queue_id == a->queue_id) {
			*pp = q->next;
			queue_destroy(p, q);
			err = 0;
			break;
		}
	}
	pthread_mutex_unlock(&p->lock);
	return err;
}

void kemu_queues_fini(struct kemu_process *p)
{
	while (p->queues) {
		struct kemu_queue *q = p->queues;
		p->queues = q->next;
		queue_destroy(p, q);
	}
}

long kemu_ioctl_update_queue(struct kemu_process *p, void *arg)
{
	struct kfd_args_update_queue *a = arg;
	long err = queue_check_ring(a->queue_percentage, a->queue_priority, a->ring_base_address,
				    &a->ring_size);
	if (err)
		return err;
	pthread_mutex_lock(&p->lock);
	struct kemu_queue *q = queue_find(p, a->queue_id);
	if (!q) {
		err = -EFAULT; /* pqm_update_queue_properties */
		goto out_unlock;
	}
	if (a->ring_base_address && a->ring_size) {
		/* the new ring must be mapped like at creation */
		struct kemu_bo *ring;
		if (queue_buffer_get(q->pdd, a->ring_base_address, a->ring_size, &ring, "ring")) {
			err = -EFAULT;
			goto out_unlock;
		}
		queue_buffer_put(q->pdd, &q->ring_bo);
		q->ring_bo = ring;
	}
	q->hw.info.ring_base = a->ring_base_address;
	q->hw.info.ring_size = a->ring_size;
	q->hw.info.percentage = a->queue_percentage & 0xFF;
	q->hw.info.priority = a->queue_priority;
	queue_update_active(q);
	queue_engine_update(p, q);
out_unlock:
	pthread_mutex_unlock(&p->lock);
	return err;
}

long kemu_ioctl_set_cu_mask(struct kemu_process *p, void *arg)
{
	struct kfd_args_set_cu_mask *a = arg;
	if (a->num_cu_mask == 0 || a->num_cu_mask % 32)
		return -EINVAL;
	uint32_t bits = a->num_cu_mask > 1024 ? 1024 : a->num_cu_mask;
	uint32_t mask[32];
	if (kemu_copy_from_user(mask, a->cu_mask_ptr, bits / 32 * sizeof(uint32_t)))
		return -EFAULT;
	long err = 0;
	pthread_mutex_lock(&p->lock);
	struct kemu_queue *q = queue_find(p, a->queue_id);
	if (!q) {
		err = -EFAULT; /* pqm_update_mqd */
	} else {
		memset(q->hw.info.cu_mask, 0, sizeof(q->hw.info.cu_mask));
		memcpy(q->hw.info.cu_mask, mask, bits / 32 * sizeof(uint32_t));
		q->hw.info.cu_mask_bits = bits;
	}
	pthread_mutex_unlock(&p->lock);
	return err;
}

int kemu_queue_info(struct kemu_process *p, uint32_t queue_id, struct kemu_queue_info *info)
{
	pthread_mutex_lock(&p->lock);
	struct kemu_queue *q = queue_find(p, queue_id);
	if (q)
		*info = q->hw.info;
	pthread_mutex_unlock(&p->lock);
	return q ? 0 : -EINVAL;
}

/* ALLOC_QUEUE_GWS: kfd_ioctl_alloc_queue_gws + pqm_set_gws.  GWS exists on
 * a device whose topology reports num_gws (else -ENODEV); a process may give
 * it to one queue per device at a time (-EBUSY for a second), num_gws 0
 * releases it (-EINVAL when the process holds none), and the queue is
 * remapped with GWS (update_queue).  first_gws is always 0. */
long kemu_ioctl_alloc_queue_gws(struct kemu_process *p, void *arg)
{
	struct kfd_args_alloc_queue_gws *a = arg;
	long err = 0;
	pthread_mutex_lock(&p->lock);
	struct kemu_queue *q = queue_find(p, a->queue_id);
	if (!q) {
		err = -EINVAL;
		goto out_unlock;
	}
	struct kemu_pdd *pdd = q->pdd;
	const struct kemu_gpu *g = pdd->dev->gpu;
	if (!g->num_gws) {
		err = -ENODEV;
		goto out_unlock;
	}
	bool want = a->num_gws != 0;
	if (want && pdd->num_gws) {
		kemu_info(p->m, "ALLOC_QUEUE_GWS: the process already has GWS on gpu 0x%x: -EBUSY",
			  g->gpu_id);
		err = -EBUSY;
	} else if (!want && !pdd->num_gws) {
		err = -EINVAL;
	} else if (!want && !q->hw.info.gws && g->gfx_target_version < 90402) {
		/* amdgpu_amdkfd_remove_gws_from_process of this queue's NULL
		 * GWS: the kernel oopses there; refuse instead */
		kemu_warn(p->m, "ALLOC_QUEUE_GWS: release through queue %u, which has no GWS: "
			  "-EINVAL (a kernel would oops)", a->queue_id);
		err = -EINVAL;
	} else {
		q->hw.info.gws = want;
		pdd->num_gws = want ? g->num_gws : 0;
		queue_engine_update(p, q); /* update_queue: remapped with is_gws */
	}
	a->first_gws = 0;
out_unlock:
	pthread_mutex_unlock(&p->lock);
	return err;
}

/* GET_QUEUE_WAVE_STATE: pqm_get_wave_state, get_wave_state of the dqm and
 * the v9 MQD manager.  Only an inactive compute queue has a saved state
 * (-EINVAL otherwise; unknown queue -EFAULT).  For each XCC (one MQD each
 * on GC 9.4.3: get_wave_state_v9_4_3, XCC n's part of the user buffer at
 * ctl_stack_address + n x ctx_save_size): the header's wave_state block
 * (control stack offset and used size, wave-state offset and used size, as
 * the MQD has them) at the start, then the used part of the control stack
 * the CP wrote at its own offset, [cntl_stack_offset, ctl_stack_size).  The
 * used sizes returned are XCC 0's, as the kernel's.  A queue without a
 * context-save area has no stack: its MQD's offsets are 0.  A queue a VM
 * fault evicted counts as inactive (evict_process_queues_cpsch clears
 * is_active), once the save its eviction asked for is done. */
long kemu_ioctl_get_queue_wave_state(struct kemu_process *p, void *arg)
{
	struct kfd_args_get_queue_wave_state *a = arg;
	long err = 0;
	pthread_mutex_lock(&p->lock);
	struct kemu_queue *q = queue_find(p, a->queue_id);
	if (!q) {
		err = -EFAULT;
		goto out_unlock;
	}
	uint32_t t = q->hw.info.type;
	if (t != KFD_QUEUE_TYPE_COMPUTE && t != KFD_QUEUE_TYPE_COMPUTE_AQL) {
		err = -EINVAL;
		goto out_unlock;
	}
	/* an evicted queue (a VM fault's kfd_dqm_evict_pasid) is inactive
	 * too: the engine keeps that in its books, not ours */
	const struct kemu_engine_ops *e = queue_engine(t);
	if (q->hw.info.active && !(e && kemu_gpu_queue_evicted(e->registry, &q->hw))) {
		err = -EINVAL;
		goto out_unlock;
	}
	/* inactive: the CP no longer runs the queue (the update hook that
	 * made it so, or kemu_gpu_queue_evicted, returned), so the MQD's
	 * words are stable under p->lock */
	const struct kemu_hw_cwsr *c = &q->hw.cwsr;
	uint32_t size = q->hw.info.ctl_stack_size;
	uint32_t n_xcc = c->ctl_stack ? c->num_xcc : (q->pdd->dev->gpu->num_xcc ?
						      q->pdd->dev->gpu->num_xcc : 1);
	for (uint32_t xcc = 0; xcc < n_xcc && !err; xcc++) {
		struct kfd_context_save_area_header h = { 0 };
		uint32_t stack_off = c->ctl_stack ? c->cntl_stack_offset[xcc] : 0;
		uint32_t wg_off = c->ctl_stack ? c->wg_state_offset[xcc] : 0;
		uint32_t stack_used = c->ctl_stack ? size - stack_off : 0;
		uint32_t save_used = c->ctl_stack ? wg_off - size : 0;
		h.wave_state.control_stack_offset = stack_off;
		h.wave_state.control_stack_size = stack_used;
		h.wave_state.wave_state_offset = wg_off;
		h.wave_state.wave_state_size = save_used;
		if (xcc == 0) {
			a->ctl_stack_used_size = stack_used;
			a->save_area_used_size = save_used;
		}
		uint64_t dst = a->ctl_stack_address + (uint64_t)q->hw.info.ctx_save_size * xcc;
		if (kemu_copy_to_user(dst, &h.wave_state, sizeof(h.wave_state)) ||
		    (stack_used && kemu_copy_to_user(dst + stack_off,
						     (const uint8_t *)c->ctl_stack +
						     (size_t)size * xcc + stack_off, stack_used)))
			err = -EFAULT;
	}
out_unlock:
	pthread_mutex_unlock(&p->lock);
	return err;
}
