/*
 * hsa_amd_agent_preload (AMD's interface 1.19): a performance hint that
 * sets up now what a GPU agent otherwise sets up on first use, so the
 * first copy or profiled dispatch does not pay for it:
 *  - blits (unless HSA_AMD_AGENT_PRELOAD_SKIP_BLITS): the agent's blit
 *    engine (its unlisted AQL queue, the blit kernels loaded, the kernarg
 *    ring: blit.c) and, when SDMA is enabled, its host-to-device and
 *    device-to-host SDMA queues (sdma.c), the engines
 *    hsa_amd_memory_async_copy picks for host transfers;
 *  - clock sync (unless HSA_AMD_AGENT_PRELOAD_SKIP_CLOCK_SYNC): the pairing
 *    of GPU and system clocks that tick conversion uses (queue/profiling.c),
 *    taken through hsa_amd_profiling_convert_tick_to_system_domain, which
 *    pairs the clocks when they never were.
 * Flag bits the header does not define are ignored (flags only say what to
 * skip).  A CPU agent is INVALID_AGENT, as the header says.  What fails to
 * set up is an error: OUT_OF_RESOURCES (or the errno's status), with the
 * reason in the log; a resource already set up is left as it is.  An SDMA
 * queue the driver refuses is not an error (-ENODEV: copies then use the
 * blit kernel, as they would on first use).
 */
#include <errno.h>
#include <string.h>

#include "copy/copy_priv.h"
#include "runtime/status.h"
#include "util/log.h"

hsa_status_t hsa_amd_agent_preload(hsa_agent_t agent, uint64_t flags)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	struct hl_agent *a = hl_gpu_agent_lookup(rt, agent);
	if (!a) {
		hl_error("copy", "agent_preload: %#lx is not a GPU agent",
			 (unsigned long)agent.handle);
		return HSA_STATUS_ERROR_INVALID_AGENT;
	}

	if (!(flags & HSA_AMD_AGENT_PRELOAD_SKIP_BLITS)) {
		struct hl_blit *b;
		int err = hl_blit_get(rt, a, &b);
		if (err) {
			hl_error("copy", "agent_preload: blit engine: %s", strerror(-err));
			return hl_status_from_errno(-err);
		}
		if (hl_sdma_enabled()) {
			static const enum hl_sdma_dir dirs[] = { HL_SDMA_H2D, HL_SDMA_D2H };
			for (unsigned i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
				struct hl_sdma *s;
				err = hl_sdma_get(rt, a, dirs[i], &s);
				if (err && err != -ENODEV) {
					hl_error("copy", "agent_preload: SDMA queue %u: %s", i,
						 strerror(-err));
					return hl_status_from_errno(-err);
				}
			}
		}
	}
	if (!(flags & HSA_AMD_AGENT_PRELOAD_SKIP_CLOCK_SYNC)) {
		uint64_t sys;
		hsa_status_t st = hsa_amd_profiling_convert_tick_to_system_domain(agent, 0, &sys);
		if (st != HSA_STATUS_SUCCESS) {
			hl_error("copy", "agent_preload: clock sync failed (status %#x)", st);
			return st;
		}
	}
	return HSA_STATUS_SUCCESS;
}
