/*
 * hsa_amd_queue_create (AMD extension interface 1.26, the header of
 * rocm-systems 41e1945c): queues described by hsa_amd_queue_create_desc_t,
 * several per call.
 *
 * Contract (the header's, and ROCr's own rocrtst QueueCreateTest at
 * rocm-systems develop: facts only):
 *  - NOT_INITIALIZED before hsa_init; INVALID_ARGUMENT for a NULL array or
 *    num_descs 0; INVALID_AGENT for an agent that is none or not a GPU
 *    (rocrtst: an SDMA descriptor on the CPU agent).
 *  - Each descriptor in turn is checked, then made: version 1, known flag
 *    bits only, engine_type COMPUTE, SDMA or AIE, queue_size_bytes a power
 *    of two, priority LOW..HIGH, traffic_class and every reserved byte 0;
 *    for COMPUTE a valid queue type, a size that is a multiple of the
 *    64-byte AQL packet, cu_mask_count a multiple of 32 with a mask
 *    exactly when it is not 0.  A bad one is INVALID_ARGUMENT for it.
 *  - A failure does not stop the batch: every descriptor is tried, each
 *    descs[i].queue is the queue or NULL, the queues made stay, and the
 *    status is the first failure's (rocrtst: a batch whose second
 *    descriptor has a bad size answers INVALID_ARGUMENT with the first
 *    queue made).
 *  - COMPUTE: hsa_queue_create with queue_size_bytes / 64 packets, the
 *    descriptor's type, callback, data and private_segment_size (the
 *    group size is the default, as the header says for version 1), then
 *    the priority (when not NORMAL) and the CU mask (when given) before
 *    the queue is handed out; if either fails the queue is destroyed.
 *    The placement flags are accepted and do not move anything: hsalite
 *    keeps every ring and descriptor in system memory (docs/differences.md).
 *  - SDMA: an application SDMA queue (sdma_queue.c): the ring the
 *    application writes SDMA packets into, pinned to the engine
 *    sdma_engine_id names (ANY: round-robin over the agent's engines);
 *    an engine index at or above the agent's count is INVALID_ARGUMENT,
 *    a kernel that cannot pin a queue to an engine INVALID_QUEUE_CREATION.
 *  - AIE: INVALID_QUEUE_CREATION, as the header says ROCr answers.
 */
#include <stdbool.h>
#include <string.h>

#include "queue/queue_priv.h"
#include "runtime/runtime.h"
#include "util/log.h"

#define AQL_PACKET_BYTES 64u
/* An AMD status outside hsa_status_t's enumerators (hsa_ext_amd.h). */
#define CU_MASK_REDUCED ((hsa_status_t)HSA_STATUS_CU_MASK_REDUCED)
#define KNOWN_FLAGS ((uint16_t)(HSA_AMD_QUEUE_CREATE_DEVICE_MEM_RING_BUF | \
				HSA_AMD_QUEUE_CREATE_DEVICE_MEM_QUEUE_DESCRIPTOR))

static bool all_zero(const void *p, size_t n)
{
	const uint8_t *b = p;
	for (size_t i = 0; i < n; i++)
		if (b[i])
			return false;
	return true;
}

/* Whether d is a descriptor the header accepts; logs why not. */
static bool desc_valid(const hsa_amd_queue_create_desc_t *d, uint32_t i)
{
	const char *why = NULL;
	if (d->version != HSA_AMD_QUEUE_CREATE_DESC_VERSION)
		why = "unknown version";
	else if (d->flags & ~KNOWN_FLAGS)
		why = "unknown flag bits";
	else if (d->engine_type > HSA_AMD_QUEUE_ENGINE_AIE)
		why = "unknown engine_type";
	else if (!all_zero(d->reserved_header, sizeof(d->reserved_header)) ||
		 !all_zero(d->reserved, sizeof(d->reserved)))
		why = "a reserved byte is not 0";
	else if (d->traffic_class)
		why = "traffic_class is reserved (0)";
	else if (!d->queue_size_bytes || (d->queue_size_bytes & (d->queue_size_bytes - 1)))
		why = "queue_size_bytes is not a power of two";
	else if ((uint32_t)d->priority > HSA_AMD_QUEUE_PRIORITY_HIGH)
		why = "invalid priority";
	else if (d->engine_type == HSA_AMD_QUEUE_ENGINE_COMPUTE) {
		const hsa_amd_compute_queue_params_t *c = &d->engine.compute;
		if (c->type != HSA_QUEUE_TYPE_MULTI && c->type != HSA_QUEUE_TYPE_SINGLE &&
		    c->type != HSA_QUEUE_TYPE_COOPERATIVE)
			why = "invalid compute queue type";
		else if (d->queue_size_bytes % AQL_PACKET_BYTES)
			why = "queue_size_bytes is not a multiple of the AQL packet";
		else if (c->cu_mask_count % 32 || !c->cu_mask != !c->cu_mask_count)
			why = "cu_mask_count is not a multiple of 32, or the mask does not match it";
		else if (!all_zero(c->reserved, sizeof(c->reserved)))
			why = "a reserved compute field is not 0";
	} else if (d->engine_type == HSA_AMD_QUEUE_ENGINE_SDMA) {
		if (!all_zero(d->engine.sdma.reserved, sizeof(d->engine.sdma.reserved)))
			why = "a reserved SDMA field is not 0";
	} else if (!all_zero(d->engine.aie.reserved, sizeof(d->engine.aie.reserved))) {
		why = "a reserved AIE field is not 0";
	}
	if (why)
		hl_error(QUEUE_LOG, "hsa_amd_queue_create: descriptor %u: %s", i, why);
	return !why;
}

static hsa_status_t create_compute(hsa_agent_t agent, hsa_amd_queue_create_desc_t *d)
{
	const hsa_amd_compute_queue_params_t *c = &d->engine.compute;
	hsa_queue_t *q = NULL;
	hsa_status_t st = hsa_queue_create(agent, d->queue_size_bytes / AQL_PACKET_BYTES, c->type,
					   d->callback, d->callback_data,
					   c->private_segment_size, UINT32_MAX, &q);
	if (st != HSA_STATUS_SUCCESS)
		return st;
	if (d->priority != HSA_AMD_QUEUE_PRIORITY_NORMAL)
		st = hsa_amd_queue_set_priority(q, d->priority);
	if (st == HSA_STATUS_SUCCESS && c->cu_mask_count)
		st = hsa_amd_queue_cu_set_mask(q, c->cu_mask_count, c->cu_mask);
	if (st != HSA_STATUS_SUCCESS && st != CU_MASK_REDUCED) {
		hl_error(QUEUE_LOG, "hsa_amd_queue_create: priority or CU mask refused (0x%x); "
			 "the queue is destroyed", (unsigned)st);
		(void)hsa_queue_destroy(q);
		return st;
	}
	d->queue = q;
	/* CU_MASK_REDUCED is a success with a note, as from cu_set_mask. */
	return st;
}

hsa_status_t hsa_amd_queue_create(hsa_agent_t agent, hsa_amd_queue_create_desc_t *descs,
				  uint32_t num_descs)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!descs || !num_descs)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	for (uint32_t i = 0; i < num_descs; i++)
		descs[i].queue = NULL;
	struct hl_agent *gpu = hl_gpu_agent_lookup(rt, agent);
	if (!gpu)
		return HSA_STATUS_ERROR_INVALID_AGENT;

	hsa_status_t first = HSA_STATUS_SUCCESS;
	for (uint32_t i = 0; i < num_descs; i++) {
		hsa_status_t st;
		if (!desc_valid(&descs[i], i)) {
			if (first == HSA_STATUS_SUCCESS || first == CU_MASK_REDUCED)
				first = HSA_STATUS_ERROR_INVALID_ARGUMENT;
			continue;
		}
		switch (descs[i].engine_type) {
		case HSA_AMD_QUEUE_ENGINE_COMPUTE:
			st = create_compute(agent, &descs[i]);
			break;
		case HSA_AMD_QUEUE_ENGINE_SDMA:
			st = hl_sdma_queue_create(rt, gpu, &descs[i]);
			break;
		default:
			hl_error(QUEUE_LOG, "hsa_amd_queue_create: descriptor %u: AIE queues "
				 "are not implemented (as in ROCr)", i);
			st = HSA_STATUS_ERROR_INVALID_QUEUE_CREATION;
			break;
		}
		/* The first error wins; CU_MASK_REDUCED (a success with a note)
		 * only over SUCCESS. */
		if (st != HSA_STATUS_SUCCESS &&
		    (first == HSA_STATUS_SUCCESS ||
		     (first == CU_MASK_REDUCED && st != CU_MASK_REDUCED)))
			first = st;
	}
	return first;
}
