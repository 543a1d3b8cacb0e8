/*
 * ROCr 1.18's per-GPU scratch limit and clock-counter attributes:
 * hsa_amd_agent_set_async_scratch_limit, HSA_AMD_AGENT_INFO_SCRATCH_LIMIT_MAX
 * and _CURRENT, and HSA_AMD_AGENT_INFO_CLOCK_COUNTERS.
 *
 * ROCr's rules (amd_gpu_agent.{h,cpp}, flag.h):
 *  - asynchronous scratch reclaim is on for gfx 9.4 with CP firmware 177 or
 *    later and gfx 9.5 with 24 or later, unless HSA_ENABLE_SCRATCH_ASYNC_RECLAIM
 *    is "0"; the firmware version is the node's fw_version & 0x3FF (what
 *    HSA_AMD_AGENT_INFO_UCODE_VERSION reports);
 *  - the limit starts at HSA_SCRATCH_SINGLE_LIMIT_ASYNC (bytes) when set,
 *    else 3 GiB per XCC, and at 0 where reclaim is off;
 *  - SCRATCH_LIMIT_MAX is 4 GiB (the scratch aperture) per XCC;
 *  - setting it: NOT_INITIALIZED, INVALID_AGENT for anything but a GPU,
 *    INVALID_ARGUMENT where reclaim is off or above the maximum.
 * hsalite's scratch policy differs (src/queue/scratch.c: a queue's scratch
 * covers every wave slot and only grows), so the limit is kept and reported
 * but no dispatch is ever given use-once scratch: docs/differences.md.
 *
 * CLOCK_COUNTERS is KFD's GET_CLOCK_COUNTERS for the GPU; a failed ioctl is
 * HSA_STATUS_ERROR, as ROCr's.
 */
#include <stdlib.h>
#include <string.h>

#include "runtime/runtime.h"
#include "util/barrier.h"
#include "util/log.h"

#define SCRATCH_APERTURE_PER_XCC (1ull << 32)
#define SCRATCH_ASYNC_DEFAULT_PER_XCC (3ull << 30)
#define GFX94X_MIN_CP_FW 177u
#define GFX95X_MIN_CP_FW 24u

static uint32_t n_xcc(const struct hl_agent *a)
{
	return a->node->props.num_xcc ? a->node->props.num_xcc : 1;
}

static bool reclaim_enabled(const struct hl_agent *a)
{
	const char *v = getenv("HSA_ENABLE_SCRATCH_ASYNC_RECLAIM");
	if (v && strcmp(v, "0") == 0)
		return false;
	uint32_t fw = a->node->props.fw_version & 0x3FF;
	return a->gfx_major == 9 && ((a->gfx_minor == 4 && fw >= GFX94X_MIN_CP_FW) ||
				     (a->gfx_minor == 5 && fw >= GFX95X_MIN_CP_FW));
}

static uint64_t initial_limit(const struct hl_agent *a)
{
	if (!reclaim_enabled(a))
		return 0;
	const char *v = getenv("HSA_SCRATCH_SINGLE_LIMIT_ASYNC");
	if (v && *v) {
		char *end;
		unsigned long long n = strtoull(v, &end, 0);
		if (*end == '\0' && n)
			return n;
	}
	return SCRATCH_ASYNC_DEFAULT_PER_XCC * n_xcc(a);
}

/*
 * The agent's current limit: the one set, else the default.  Kept in the
 * agent (a->scratch_limit), so each runtime starts from the default and a
 * fork child inherits no lock; it was a process-wide table keyed by the
 * runtime's address, which a later runtime allocated at the same address
 * inherited, with a lock no fork step renewed.  Relaxed: the value is all
 * there is, nothing is published with it.
 */
static uint64_t limit_get(const struct hl_agent *a)
{
	uint64_t v = hl_load_relaxed(&a->scratch_limit);
	return v ? v - 1 : initial_limit(a);
}

static uint64_t scratch_max(const struct hl_agent *a)
{
	return SCRATCH_APERTURE_PER_XCC * n_xcc(a);
}

hsa_status_t hsa_amd_agent_set_async_scratch_limit(hsa_agent_t agent, size_t threshold)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	struct hl_agent *a = hl_gpu_agent_lookup(rt, agent);
	if (!a)
		return HSA_STATUS_ERROR_INVALID_AGENT;
	if (!reclaim_enabled(a)) {
		hl_info("scratch", "%s: no asynchronous scratch reclaim (gfx%u%u%x, CP firmware %u)",
			a->name, a->gfx_major, a->gfx_minor, a->gfx_stepping,
			a->node->props.fw_version & 0x3FF);
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	}
	if (threshold > scratch_max(a))
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	/* threshold <= scratch_max (2^32 per XCC): + 1 cannot wrap */
	hl_store_relaxed(&a->scratch_limit, (uint64_t)threshold + 1);
	return HSA_STATUS_SUCCESS;
}

hsa_status_t hl_agent_info_scratch_clock(struct hl_runtime *rt, const struct hl_agent *a,
					 int attribute, void *value)
{
	switch (attribute) {
	case HSA_AMD_AGENT_INFO_SCRATCH_LIMIT_MAX: {
		uint64_t v = scratch_max(a);
		memcpy(value, &v, sizeof(v));
		return HSA_STATUS_SUCCESS;
	}
	case HSA_AMD_AGENT_INFO_SCRATCH_LIMIT_CURRENT: {
		uint64_t v = a->gpu ? limit_get(a) : 0;
		memcpy(value, &v, sizeof(v));
		return HSA_STATUS_SUCCESS;
	}
	case HSA_AMD_AGENT_INFO_CLOCK_COUNTERS: {
		struct kfd_args_get_clock_counters c;
		int err = kfd_clock_counters(rt->proc, a->gpu->gpu_id, &c);
		if (err) {
			hl_error("agent", "%s: GET_CLOCK_COUNTERS: %s", a->name, hl_errno_name(err));
			return HSA_STATUS_ERROR;
		}
		hsa_amd_clock_counters_t out = {
			.gpu_clock_counter = c.gpu_clock_counter,
			.cpu_clock_counter = c.cpu_clock_counter,
			.system_clock_counter = c.system_clock_counter,
			.system_clock_frequency = c.system_clock_freq,
		};
		memcpy(value, &out, sizeof(out));
		return HSA_STATUS_SUCCESS;
	}
	default:
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	}
}
