/*
 * The copy-engine calls of ROCr 1.18 (interface 1.2 and 1.8):
 * hsa_amd_memory_async_copy_on_engine, hsa_amd_memory_copy_engine_status
 * and hsa_amd_memory_get_preferred_copy_engine, over the SDMA queues of
 * sdma.c.
 *
 * Engine ids (hsa_amd_sdma_engine_id_t, one bit) name ROCr's per-GPU blit
 * table: bit k is slot k of sdma.c, so HSA_AMD_SDMA_ENGINE_0 is the
 * host-to-device queue, _1 the device-to-host queue and _2 + i the i-th
 * xGMI queue (ROCr's BlitHostToDev, BlitDevToHost, DefaultBlitCount + i).
 * The copying GPU is the source agent when it is a GPU, else the
 * destination (Runtime::CopyMemoryOnEngine).
 *
 * ROCr's rules, kept:
 *  - copy_on_engine checks its arguments as hsa_amd_memory_async_copy, then
 *    rejects an id that is not one bit, or beyond the GPU's engines
 *    (NUM_SDMA_ENG + NUM_SDMA_XGMI_ENG), with INVALID_ARGUMENT; a copy
 *    between two GPUs of one hive must name an xGMI engine, any other copy
 *    may name any engine; on gfx90a only host-to-device copies may use
 *    engine 0 (a RAS erratum ROCr works around).  A copy
 *    inside one GPU runs on the blit kernel unless force_copy_on_sdma; with
 *    HSA_ENABLE_SDMA=0 every copy runs on the blit kernel.
 *  - status: the same agent on both sides is INVALID_AGENT, two CPUs
 *    HSA_STATUS_ERROR; the mask has each idle engine that may serve the
 *    direction (between hive peers the xGMI engines, else engine 0 (not
 *    for gfx90a device-to-host), the device-to-host engine (engine 1, or
 *    engine 0 on a GPU with one SDMA engine) and the xGMI engines);
 *    OUT_OF_RESOURCES when none is idle.  An engine is idle when its
 *    queue was never created or has read everything written to it.
 *  - preferred: the KFD io-link's recommended_sdma_engine_id_mask between
 *    two GPUs, when KFD is 1.17 or later, the GPU is gfx 9.4 or later, the
 *    mask names one engine and HSA_ENABLE_SDMA_RECOMMENDED_ENG is not 0;
 *    else 0.
 * Where ROCr dereferences a NULL output pointer we return INVALID_ARGUMENT,
 * and before hsa_init (ROCr does not check) NOT_INITIALIZED.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "copy/copy_priv.h"
#include "signal/signal.h"
#include "util/log.h"

static bool is_gpu(const struct hl_agent *a)
{
	return a->type == HSA_DEVICE_TYPE_GPU && a->gpu;
}

static bool same_hive(const struct hl_agent *a, const struct hl_agent *b)
{
	return is_gpu(a) && is_gpu(b) && b->node->props.hive_id &&
	       a->node->props.hive_id == b->node->props.hive_id;
}

static bool is_gfx90a(const struct hl_agent *a)
{
	return a->gfx_major == 9 && a->gfx_minor == 0 && a->gfx_stepping == 10;
}

static uint32_t n_xgmi_slots(const struct hl_agent *gpu)
{
	uint32_t n = gpu->node->props.num_sdma_xgmi_engines;
	return n < HL_SDMA_DIRS - HL_SDMA_XGMI ? n : HL_SDMA_DIRS - HL_SDMA_XGMI;
}

/* Both agents looked up; *gpu the one that copies (NULL: two CPUs). */
static hsa_status_t lookup_pair(hsa_agent_t dst_agent, hsa_agent_t src_agent,
				struct hl_runtime **rt, struct hl_agent **da,
				struct hl_agent **sa)
{
	*rt = hl_runtime_get();
	if (!*rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	*da = hl_agent_lookup(*rt, dst_agent);
	if (!*da)
		return HSA_STATUS_ERROR_INVALID_AGENT;
	*sa = hl_agent_lookup(*rt, src_agent);
	if (!*sa)
		return HSA_STATUS_ERROR_INVALID_AGENT;
	return HSA_STATUS_SUCCESS;
}

static struct hl_agent *copy_agent_of(struct hl_agent *da, struct hl_agent *sa)
{
	return is_gpu(sa) ? sa : is_gpu(da) ? da : NULL;
}

hsa_status_t hsa_amd_memory_copy_engine_status(hsa_agent_t dst_agent, hsa_agent_t src_agent,
					       uint32_t *engine_ids_mask)
{
	struct hl_runtime *rt;
	struct hl_agent *da, *sa;
	hsa_status_t st = lookup_pair(dst_agent, src_agent, &rt, &da, &sa);
	if (st != HSA_STATUS_SUCCESS)
		return st;
	if (!engine_ids_mask)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	if (da == sa)
		return HSA_STATUS_ERROR_INVALID_AGENT;
	struct hl_agent *gpu = copy_agent_of(da, sa);
	if (!gpu)
		return HSA_STATUS_ERROR; /* ROCr's Agent base: no DMA between CPUs */

	uint32_t mask = 0, n_xgmi = n_xgmi_slots(gpu);
	if (same_hive(sa, da) && n_xgmi) {
		for (uint32_t i = 0; i < n_xgmi; i++)
			if (hl_sdma_idle(rt, gpu, HL_SDMA_XGMI + i))
				mask |= (uint32_t)HSA_AMD_SDMA_ENGINE_2 << i;
	} else {
		bool h2d = !is_gpu(sa) && is_gpu(da);
		if (hl_sdma_idle(rt, gpu, HL_SDMA_H2D) && (h2d || !is_gfx90a(gpu)))
			mask |= HSA_AMD_SDMA_ENGINE_0;
		if (hl_sdma_idle(rt, gpu, HL_SDMA_D2H))
			mask |= gpu->node->props.num_sdma_engines > 1 ? HSA_AMD_SDMA_ENGINE_1
								      : HSA_AMD_SDMA_ENGINE_0;
		for (uint32_t i = 0; i < n_xgmi; i++)
			if (hl_sdma_idle(rt, gpu, HL_SDMA_XGMI + i))
				mask |= (uint32_t)HSA_AMD_SDMA_ENGINE_2 << i;
	}
	*engine_ids_mask = mask;
	return mask ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_OUT_OF_RESOURCES;
}

/* KFD 1.17 is the first to print recommended_sdma_engine_id_mask. */
#define KFD_MINOR_REC_SDMA 17

static bool recommended_enabled(const struct hl_runtime *rt, const struct hl_agent *gpu)
{
	const char *v = getenv("HSA_ENABLE_SDMA_RECOMMENDED_ENG");
	if (v && strcmp(v, "0") == 0)
		return false;
	return (rt->proc->version_major > 1 || rt->proc->version_minor >= KFD_MINOR_REC_SDMA) &&
	       gpu->gfx_major == 9 && gpu->gfx_minor >= 4;
}

hsa_status_t hsa_amd_memory_get_preferred_copy_engine(hsa_agent_t dst_agent,
						      hsa_agent_t src_agent,
						      uint32_t *recommended_ids_mask)
{
	struct hl_runtime *rt;
	struct hl_agent *da, *sa;
	hsa_status_t st = lookup_pair(dst_agent, src_agent, &rt, &da, &sa);
	if (st != HSA_STATUS_SUCCESS)
		return st;
	if (!recommended_ids_mask)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	if (da == sa)
		return HSA_STATUS_ERROR_INVALID_AGENT;
	struct hl_agent *gpu = copy_agent_of(da, sa);
	if (!gpu)
		return HSA_STATUS_ERROR;

	/* ROCr registers a recommendation only from a GPU to a GPU peer */
	uint32_t mask = 0;
	if (is_gpu(da) && gpu != da && recommended_enabled(rt, gpu)) {
		const struct kfd_node *n = gpu->node;
		for (uint32_t i = 0; i < n->n_io_links; i++) {
			uint32_t m = n->io_links[i].recommended_sdma_engine_id_mask;
			if (n->io_links[i].node_to == da->node_id && m && !(m & (m - 1)))
				mask = m;
		}
	}
	*recommended_ids_mask = mask;
	return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_memory_async_copy_on_engine(void *dst, hsa_agent_t dst_agent,
						 const void *src, hsa_agent_t src_agent,
						 size_t size, uint32_t num_dep_signals,
						 const hsa_signal_t *dep_signals,
						 hsa_signal_t completion_signal,
						 hsa_amd_sdma_engine_id_t engine_id,
						 bool force_copy_on_sdma)
{
	if (!dst || !src)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	if (!num_dep_signals != !dep_signals)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	struct hl_runtime *rt;
	struct hl_agent *da, *sa;
	hsa_status_t st = lookup_pair(dst_agent, src_agent, &rt, &da, &sa);
	if (st != HSA_STATUS_SUCCESS)
		return st;
	for (uint32_t i = 0; i < num_dep_signals; i++)
		if (!hl_signal_live(dep_signals[i].handle))
			return hl_signal_bad_handle(dep_signals[i].handle);
	if (!hl_signal_live(completion_signal.handle))
		return hl_signal_bad_handle(completion_signal.handle);
	if (size == 0)
		return HSA_STATUS_SUCCESS;

	uint32_t id = (uint32_t)engine_id;
	if (!id || (id & (id - 1)))
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	unsigned slot = (unsigned)ffs((int)id) - 1; /* ROCr's engine_offset - 1 */
	struct hl_agent *gpu = copy_agent_of(da, sa);
	if (!gpu) {
		hl_error(COPY_LOG, "copy on engine %#x: neither agent is a GPU", id);
		return HSA_STATUS_ERROR; /* ROCr's Agent base DmaCopyOnEngine */
	}
	uint32_t n_sdma = gpu->node->props.num_sdma_engines;
	uint32_t n_xgmi = gpu->node->props.num_sdma_xgmi_engines;
	if (slot + 1 > n_sdma + n_xgmi || slot >= HL_SDMA_DIRS)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;

	bool same_gpu = sa == da && da == gpu;
	bool p2p = !same_gpu && is_gpu(sa) && is_gpu(da);
	bool blit = !hl_sdma_enabled() || (same_gpu && !force_copy_on_sdma);
	if (hl_sdma_enabled()) {
		bool xgmi = p2p && same_hive(sa, da) && n_xgmi;
		bool h2d = !is_gpu(sa) && is_gpu(da);
		/* ROCr: hive peers copy on xGMI engines only; gfx90a keeps
		 * engine 0 for host-to-device copies */
		if ((xgmi && slot + 1 <= n_sdma) ||
		    (!h2d && !same_gpu && is_gfx90a(gpu) && slot == HL_SDMA_H2D)) {
			hl_error(COPY_LOG, "copy on engine %#x: not an engine for this direction on %s",
				 id, gpu->name);
			return HSA_STATUS_ERROR_INVALID_ARGUMENT;
		}
	}

	bool profile = hl_copy_profiling(rt);
	if (profile)
		hl_copy_profile_mark(completion_signal, gpu);
	int err;
	if (!blit) {
		struct hl_sdma *q;
		err = hl_sdma_get(rt, gpu, (enum hl_sdma_dir)slot, &q);
		if (!err)
			err = hl_sdma_copy(q, dst, src, size, num_dep_signals, dep_signals,
					   completion_signal, profile);
		if (!err)
			return HSA_STATUS_SUCCESS;
		if (err != -ENODEV && err != -ENOTSUP) {
			hl_error(COPY_LOG, "copy on engine %#x of %s: %s", id, gpu->name,
				 hl_errno_name(err));
			return hl_copy_status(err);
		}
		/* the queue cannot be had: ROCr's blit falls back the same way */
		hl_warn(COPY_LOG, "copy on engine %#x of %s: no SDMA queue; blit kernel", id,
			gpu->name);
	}
	struct hl_blit *b;
	err = hl_blit_get(rt, gpu, &b);
	if (err)
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	err = hl_blit_copy(b, dst, src, size, num_dep_signals, dep_signals, completion_signal);
	if (err)
		hl_error(COPY_LOG, "copy on engine %#x of %s (blit kernel): %s", id, gpu->name,
			 hl_errno_name(err));
	return hl_copy_status(err);
}
