/*
 * Doorbells (kfd_doorbell.c, gfx9 without MES): each process gets one slice
 * of 1024 64-bit doorbells per device, 8 KiB, allocated on first use (first
 * queue, DOORBELL allocation or doorbell mmap).  The slice is a memfd: user
 * space maps it through the kfd fd, the emulator keeps its own mapping and
 * the command processor polls the slots of the queues recorded here.
 *
 * Doorbell ids of CP queues are the first free bit of a per-process bitmap
 * in which the SOC15 non-CP range (SDMA, IH, VCN) and its mirror (+512) are
 * reserved.  The range below is the vega20 layout that amdgpu uses for
 * gfx90a; we did not verify it for gfx942 (kfd-uapi-facts.md open
 * question 8).  The byte offset of a doorbell in the slice is id * 8.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sys/mman.h>

#include "kemu_priv.h"

#define KEMU_DB_NON_CP_FIRST 0x100
#define KEMU_DB_NON_CP_LAST  0x18F
#define KEMU_DB_MIRROR       512
#define KEMU_DB_SDMA_RANGE   10 /* doorbells per SDMA engine */

static void db_set(uint64_t *bm, uint32_t i)   { bm[i / 64] |= 1ull << (i % 64); }
static void db_clear(uint64_t *bm, uint32_t i) { bm[i / 64] &= ~(1ull << (i % 64)); }
static bool db_test(const uint64_t *bm, uint32_t i) { return bm[i / 64] >> (i % 64) & 1; }

int kemu_doorbell_get_slice(struct kemu_pdd *pdd)
{
	if (pdd->db)
		return 0;
	int fd = kemu_sys_memfd("kfdemu-doorbell", KFD_DOORBELL_SLICE_SIZE, true);
	if (fd < 0)
		return fd;
	void *p = kemu_sys_mmap(NULL, KFD_DOORBELL_SLICE_SIZE, PROT_READ | PROT_WRITE,
				MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		kemu_sys_close(fd);
		return -ENOMEM;
	}
	pdd->db_fd = fd;
	pdd->db = p;
	/* init_doorbell_bitmap: reserve the non-CP range and its mirror */
	for (uint32_t i = KEMU_DB_NON_CP_FIRST; i <= KEMU_DB_NON_CP_LAST; i++) {
		db_set(pdd->db_bitmap, i);
		db_set(pdd->db_bitmap, i + KEMU_DB_MIRROR);
	}
	return 0;
}

int kemu_doorbell_alloc(struct kemu_pdd *pdd, struct kemu_queue *q)
{
	uint32_t id;
	uint32_t type = q->hw.info.type;
	if (type == KFD_QUEUE_TYPE_COMPUTE || type == KFD_QUEUE_TYPE_COMPUTE_AQL) {
		for (id = 0; id < KFD_DOORBELLS_PER_PROCESS; id++) {
			if (!db_test(pdd->db_bitmap, id))
				break;
		}
		if (id == KFD_DOORBELLS_PER_PROCESS)
			return -EBUSY;
	} else {
		/* SDMA: engine block + (queue & 1) * mirror + queue / 2 */
		const struct kemu_gpu *g = pdd->dev->gpu;
		uint32_t per_engine = g->num_sdma_queues_per_engine ? g->num_sdma_queues_per_engine : 1;
		uint32_t engine = q->hw.sdma_slot / per_engine, queue = q->hw.sdma_slot % per_engine;
		id = KEMU_DB_NON_CP_FIRST + engine * KEMU_DB_SDMA_RANGE +
		     (queue & 1) * KEMU_DB_MIRROR + (queue >> 1);
		if (id >= KFD_DOORBELLS_PER_PROCESS)
			return -EINVAL;
	}
	/* SDMA ids are static and sit in the reserved range: no bitmap */
	if (type == KFD_QUEUE_TYPE_COMPUTE || type == KFD_QUEUE_TYPE_COMPUTE_AQL)
		db_set(pdd->db_bitmap, id);
	pdd->db_queue[id] = q;
	q->hw.info.doorbell_index = id;
	q->hw.info.doorbell_offset = KFD_MMAP_TYPE_DOORBELL | KFD_MMAP_GPU_ID(pdd->dev->gpu->gpu_id) |
				  (uint64_t)id * KFD_DOORBELL_SIZE;
	pdd->db[id] = 0;
	return 0;
}

void kemu_doorbell_free(struct kemu_pdd *pdd, struct kemu_queue *q)
{
	uint32_t id = q->hw.info.doorbell_index;
	if (id >= KFD_DOORBELLS_PER_PROCESS || pdd->db_queue[id] != q)
		return;
	pdd->db_queue[id] = NULL;
	if (q->hw.info.type == KFD_QUEUE_TYPE_COMPUTE || q->hw.info.type == KFD_QUEUE_TYPE_COMPUTE_AQL)
		db_clear(pdd->db_bitmap, id);
}

void kemu_doorbell_fini(struct kemu_pdd *pdd)
{
	if (pdd->db)
		kemu_sys_munmap(pdd->db, KFD_DOORBELL_SLICE_SIZE);
	if (pdd->db_fd >= 0)
		kemu_sys_close(pdd->db_fd);
	pdd->db = NULL;
	pdd->db_fd = -1;
}

_Atomic uint64_t *kemu_doorbell_slice(struct kemu_process *p, uint32_t gpu_id)
{
	struct kemu_pdd *pdd = kemu_pdd_by_id(p, gpu_id);
	if (!pdd)
		return NULL;
	pthread_mutex_lock(&p->lock);
	uint64_t *db = pdd->db;
	pthread_mutex_unlock(&p->lock);
	/* user space stores doorbells with 64-bit release stores; the CP
	 * reads them with acquire loads through this view */
	return (_Atomic uint64_t *)db;
}
