/*
 * Scratch (private segment) sizing and the amd_queue_t fields that
 * describe it to the CP, for gfx9 (gfx90a, gfx942: the devices we target).
 *
 * Policy (see queue.h): a queue gets enough scratch for every wave slot of
 * the device at the per-lane size asked for at creation (none for
 * UINT32_MAX), and grows it when the CP asks (hl_queue_scratch_grow_locked,
 * from the error service thread).  The numbers follow ROCr's AqlQueue::InitScratchSRD and
 * GpuAgent::AcquireQueueScratch for gfx9:
 *  - per-lane bytes are aligned to 16, a wave is 64 lanes, and the per-wave
 *    size is aligned to 1 KiB (COMPUTE_TMPRING_SIZE.WAVESIZE counts 1 KiB
 *    units on gfx9);
 *  - the wave slots are CUs x max_slots_scratch_cu (topology), and the
 *    register image gives WAVES per XCC, at most 4095 (12 bits);
 *  - the SRD is a raw buffer over the whole allocation with swizzling on,
 *    index stride 64 and ADD_TID, as ROCr encodes SQ_BUF_RSRC_WORD3 for
 *    gfx9.
 */
#include <errno.h>
#include <string.h>

#include "amd/gfx9_desc.h"
#include "memory/memory.h"
#include "queue/queue_priv.h"
#include "util/log.h"

#define SCRATCH_LANE_ALIGN  16u
#define SCRATCH_WAVE_LANES  64u
#define SCRATCH_WAVE_ALIGN  1024u
#define TMPRING_WAVES_MAX   0xFFFu
#define TMPRING_WAVESIZE_SHIFT 12
#define TMPRING_WAVESIZE_MAX   0x1FFFu

static uint32_t lane_size(uint32_t lane_bytes)
{
	return (lane_bytes + SCRATCH_LANE_ALIGN - 1) & ~(SCRATCH_LANE_ALIGN - 1);
}

static uint64_t wave_size(uint32_t lane_bytes)
{
	uint64_t w = (uint64_t)lane_size(lane_bytes) * SCRATCH_WAVE_LANES;
	return (w + SCRATCH_WAVE_ALIGN - 1) & ~(uint64_t)(SCRATCH_WAVE_ALIGN - 1);
}

static uint32_t wave_slots(const struct hl_agent *agent)
{
	const struct kfd_node_properties *p = &agent->node->props;
	uint32_t cus = p->simd_per_cu ? p->simd_count / p->simd_per_cu : 0;
	uint32_t slots = p->max_slots_scratch_cu ? p->max_slots_scratch_cu : 32;
	return cus * slots;
}

uint64_t hl_scratch_size(const struct hl_agent *agent, uint32_t lane_bytes)
{
	if (!lane_bytes)
		return 0;
	return wave_size(lane_bytes) * wave_slots(agent);
}

void hl_scratch_describe(amd_queue_t *amd, const struct hl_agent *agent, uint32_t lane_bytes,
			 uint64_t base, uint64_t size)
{
	uint32_t num_xcc = agent->node->props.num_xcc ? agent->node->props.num_xcc : 1;

	/* The private-segment V# (gfx9, common/amd/gfx9_desc.h): swizzled,
	 * stride 0, DST_SEL X/Y/Z/W, 32-bit UINT elements of 4 bytes, index
	 * stride 64 (a wave), ADD_TID, type buffer; NUM_RECORDS the size's low
	 * 32 bits. */
	static const uint8_t sel[4] = { GFX9_SEL_X, GFX9_SEL_Y, GFX9_SEL_Z, GFX9_SEL_W };
	uint32_t *srd = amd->scratch_resource_descriptor;
	for (unsigned i = 0; i < GFX9_V_DWORDS; i++)
		srd[i] = 0;
	gfx9_v_set_base(srd, base);
	GFX9_DESC_SET(srd, GFX9_V_SWIZZLE_ENABLE, 1);
	GFX9_DESC_SET(srd, GFX9_V_NUM_RECORDS, size);
	gfx9_desc_set_dst_sel(srd, sel);
	GFX9_DESC_SET(srd, GFX9_V_NUM_FORMAT, 4);      /* BUF_NUM_FORMAT_UINT */
	GFX9_DESC_SET(srd, GFX9_V_DATA_FORMAT, 4);     /* BUF_DATA_FORMAT_32 */
	GFX9_DESC_SET(srd, GFX9_V_ELEMENT_SIZE, 1);    /* 4 bytes */
	GFX9_DESC_SET(srd, GFX9_V_INDEX_STRIDE, 3);    /* 64 */
	GFX9_DESC_SET(srd, GFX9_V_ADD_TID_ENABLE, 1);
	amd->scratch_backing_memory_location = base;
	amd->scratch_backing_memory_byte_size = size / num_xcc;

	if (!base || !size) {
		amd->compute_tmpring_size = 0;
		amd->scratch_wave64_lane_byte_size = 0;
		return;
	}
	uint64_t per_wave = wave_size(lane_bytes);
	uint64_t waves = size / per_wave / num_xcc;
	if (waves > TMPRING_WAVES_MAX)
		waves = TMPRING_WAVES_MAX;
	uint64_t units = per_wave / SCRATCH_WAVE_ALIGN;
	if (units > TMPRING_WAVESIZE_MAX)
		units = TMPRING_WAVESIZE_MAX;
	amd->compute_tmpring_size = (uint32_t)waves | (uint32_t)units << TMPRING_WAVESIZE_SHIFT;
	amd->scratch_wave64_lane_byte_size = lane_size(lane_bytes);
}

/* ---- growing on demand (queue.h: scratch policy) ---- */

/* Above this, a queue gets scratch for the waves of the dispatch that asked
 * rather than for every wave slot of the device. */
#define SCRATCH_FULL_MAX (256ull << 20)
#define KD_PRIVATE_FIXED_OFFSET 4 /* kernel descriptor: private_segment_fixed_size */

/* The kernel descriptor's private_segment_fixed_size, when kernel_object
 * lies in memory the runtime knows the CPU can read (the loader places
 * code there); 0 otherwise. */
static uint32_t kd_private_fixed(struct hl_runtime *rt, uint64_t kernel_object)
{
	uint32_t fixed = 0;
	if (!kernel_object || kernel_object % 64)
		return 0;
	const void *kd = (const void *)(uintptr_t)kernel_object;
	pthread_mutex_lock(&rt->mem_lock);
	struct hl_alloc *al = hl_alloc_find_locked(rt, kd);
	bool readable = al && al->pool && al->pool->host_access &&
			kernel_object + 64 <= (uint64_t)(uintptr_t)al->ptr + al->size;
	if (readable)
		memcpy(&fixed, (const uint8_t *)kd + KD_PRIVATE_FIXED_OFFSET, sizeof(fixed));
	pthread_mutex_unlock(&rt->mem_lock);
	return fixed;
}

static uint64_t div_up(uint64_t a, uint64_t b)
{
	return b ? (a + b - 1) / b : 0;
}

int hl_queue_scratch_grow_locked(struct hl_runtime *rt, struct hl_queue *q)
{
	amd_queue_t *amd = q->amd;
	uint64_t id = amd->hsa_queue.id;
	/* The CP left the read index at the packet that needs scratch. */
	uint64_t rd = atomic_load_explicit((_Atomic uint64_t *)(uintptr_t)&amd->read_dispatch_id,
					   memory_order_acquire);
	const hsa_kernel_dispatch_packet_t *pkt =
		(const hsa_kernel_dispatch_packet_t *)q->ring + rd % amd->hsa_queue.size;
	if (((pkt->header >> HSA_PACKET_HEADER_TYPE) & 0xFF) != HSA_PACKET_TYPE_KERNEL_DISPATCH) {
		hl_error(QUEUE_LOG, "queue %llu: scratch request for a packet that is no dispatch",
			 (unsigned long long)id);
		return -EINVAL;
	}
	uint32_t lane = pkt->private_segment_size;
	uint32_t fixed = kd_private_fixed(rt, pkt->kernel_object);
	if (fixed > lane)
		lane = fixed;
	if (lane > HL_QUEUE_PRIVATE_MAX) {
		hl_error(QUEUE_LOG, "queue %llu: a dispatch needs %u bytes of private memory per "
			 "work-item, above the limit of %u", (unsigned long long)id, lane,
			 HL_QUEUE_PRIVATE_MAX);
		return -E2BIG;
	}
	uint32_t have = amd->scratch_wave64_lane_byte_size;
	if (lane_size(lane) < have)
		lane = have; /* never shrink a queue's per-lane size */

	/* The dispatch's waves: what a smaller buffer must still hold. */
	uint32_t setup = pkt->setup & 3;
	uint64_t wg_items = (uint64_t)pkt->workgroup_size_x *
			    (setup > 1 ? pkt->workgroup_size_y : 1) *
			    (setup > 2 ? pkt->workgroup_size_z : 1);
	uint64_t wgs = div_up(pkt->grid_size_x, pkt->workgroup_size_x) *
		       (setup > 1 ? div_up(pkt->grid_size_y, pkt->workgroup_size_y) : 1) *
		       (setup > 2 ? div_up(pkt->grid_size_z, pkt->workgroup_size_z) : 1);
	uint64_t wg_waves = div_up(wg_items, SCRATCH_WAVE_LANES);
	if (!wg_waves)
		wg_waves = 1;
	uint64_t per_wave = wave_size(lane);
	uint64_t slots = wave_slots(q->agent);
	uint64_t want = slots;
	uint64_t dispatch_waves = wgs * wg_waves;
	if (per_wave * slots > SCRATCH_FULL_MAX && dispatch_waves < slots)
		want = dispatch_waves;
	if (want < wg_waves)
		want = wg_waves;

	uint64_t cur_waves = amd->compute_tmpring_size & TMPRING_WAVES_MAX;
	uint64_t cur_wave_bytes = ((amd->compute_tmpring_size >> TMPRING_WAVESIZE_SHIFT) &
				   TMPRING_WAVESIZE_MAX) * SCRATCH_WAVE_ALIGN;
	if (q->scratch_mem && per_wave <= cur_wave_bytes && want <= cur_waves) {
		/* The CP asked although the queue has what the packet says:
		 * nothing bigger to give (the packet understates its need). */
		hl_error(QUEUE_LOG, "queue %llu: out of scratch with %llu bytes per wave for %llu "
			 "waves already (the packet asks for %u bytes per work-item)",
			 (unsigned long long)id, (unsigned long long)cur_wave_bytes,
			 (unsigned long long)cur_waves, pkt->private_segment_size);
		return -ENOSPC;
	}

	struct kfd_mem *mem = NULL;
	uint64_t size = per_wave * want;
	int err = hl_queue_scratch_alloc(rt, q, size, &mem);
	if (err && want > wg_waves && want > dispatch_waves) {
		/* The device-wide size failed: the dispatch's own waves. */
		want = dispatch_waves > wg_waves ? dispatch_waves : wg_waves;
		size = per_wave * want;
		err = hl_queue_scratch_alloc(rt, q, size, &mem);
	}
	if (err && want > wg_waves) {
		/* One work-group at a time, as the least that can run. */
		want = wg_waves;
		size = per_wave * want;
		err = hl_queue_scratch_alloc(rt, q, size, &mem);
	}
	if (err)
		return err;
	/* The CP is stopped on this queue and reads the scratch fields again
	 * only after the signal is reset: the old buffer is unused. */
	if (q->scratch_mem)
		kfd_mem_free(rt->proc, q->scratch_mem);
	q->scratch_mem = mem;
	hl_scratch_describe(amd, q->agent, lane, (uint64_t)(uintptr_t)mem->addr, size);
	hl_info(QUEUE_LOG, "queue %llu: scratch grown to %llu bytes (%u bytes per work-item, "
		"%llu waves)", (unsigned long long)id, (unsigned long long)size, lane_size(lane),
		(unsigned long long)want);
	return 0;
}
