/*
 * Scratch (private segment) sizing and the amd_queue_t fields that
 * describe it to the CP, for gfx9 (gfx90a, gfx942: the devices we target).
 *
 * Policy (see queue.h): a queue gets, once, enough scratch for every wave
 * slot of the device at the per-lane size asked for at creation, and never
 * grows.  The numbers follow ROCr's AqlQueue::InitScratchSRD and
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
#include "queue/queue.h"

#define SCRATCH_LANE_ALIGN  16u
#define SCRATCH_WAVE_LANES  64u
#define SCRATCH_WAVE_ALIGN  1024u
#define TMPRING_WAVES_MAX   0xFFFu
#define TMPRING_WAVESIZE_SHIFT 12
#define TMPRING_WAVESIZE_MAX   0x1FFFu

/* SQ_BUF_RSRC_WORD1 */
#define SRD1_BASE_HI_MASK      0xFFFFu
#define SRD1_SWIZZLE_ENABLE    (1u << 31)
/* SQ_BUF_RSRC_WORD3 (gfx9): DST_SEL_X/Y/Z/W = SQ_SEL_X/Y/Z/W (4..7),
 * NUM_FORMAT = UINT (4), DATA_FORMAT = 32 (4), element size 4 bytes (1),
 * INDEX_STRIDE = 64 (3), ADD_TID_ENABLE, TYPE = buffer (0). */
#define SRD3_GFX9 (4u | 5u << 3 | 6u << 6 | 7u << 9 | 4u << 12 | 4u << 15 | 1u << 19 | \
		   3u << 21 | 1u << 23)

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

	amd->scratch_resource_descriptor[0] = (uint32_t)base;
	amd->scratch_resource_descriptor[1] = ((uint32_t)(base >> 32) & SRD1_BASE_HI_MASK) |
					      SRD1_SWIZZLE_ENABLE;
	amd->scratch_resource_descriptor[2] = (uint32_t)size;
	amd->scratch_resource_descriptor[3] = SRD3_GFX9;
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
