/*
 * Async-copy profiling (ROCr 5.2.3's semantics):
 *  - hsa_amd_profiling_async_copy_enable turns on the profiling bit of
 *    every GPU's copy engines, now and for engines created later; the CP
 *    then writes start_ts/end_ts (GPU ticks) into each copy's completion
 *    signal.
 *  - A copy issued while profiling is on records, in its completion
 *    signal, the GPU that copied (never cleared: a later copy without
 *    profiling leaves the old record, as ROCr's async_copy_agent).
 *  - hsa_amd_profiling_get_async_copy_time: HSA_STATUS_ERROR for a signal
 *    no profiled copy used (ROCr: no async_copy_agent); otherwise the
 *    ticks in the system domain.  CPU-to-CPU copies are never profiled
 *    (ROCr enables profiling on GPU agents only).
 */
#include <errno.h>

#include "copy/copy_priv.h"
#include "signal/signal.h"
#include "util/barrier.h"

hsa_status_t hsa_amd_profiling_async_copy_enable(bool enable)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	hl_blit_profiling_all(rt, enable);
	return HSA_STATUS_SUCCESS;
}

void hl_copy_profile_mark(hsa_signal_t completion, struct hl_agent *agent)
{
	hl_signal_copy_agent_set(completion.handle, agent);
}

hsa_status_t hsa_amd_profiling_get_async_copy_time(hsa_signal_t signal,
						   hsa_amd_profiling_async_copy_time_t *time)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!time)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	if (!hl_signal_live(signal.handle))
		return hl_signal_bad_handle(signal.handle);
	struct hl_agent *a = hl_signal_copy_agent(signal.handle);
	if (!a || !hl_agent_lookup(rt, hl_agent_handle(a)))
		return HSA_STATUS_ERROR;
	/* The caller waited for the completion (an acquire pairing with the
	 * CP's release decrement that follows its timestamp writes). */
	uint64_t start, end;
	if (hl_signal_timestamps(signal.handle, false, &start, &end))
		return hl_signal_bad_handle(signal.handle);
	if (a->type != HSA_DEVICE_TYPE_GPU) {
		time->start = start;
		time->end = end;
		return HSA_STATUS_SUCCESS;
	}
	/* end first, as ROCr: the interval is not stretched by the clock
	 * read between the two conversions */
	uint64_t s, e;
	hsa_status_t st = hsa_amd_profiling_convert_tick_to_system_domain(hl_agent_handle(a),
									   end, &e);
	if (st == HSA_STATUS_SUCCESS)
		st = hsa_amd_profiling_convert_tick_to_system_domain(hl_agent_handle(a), start,
								     &s);
	if (st != HSA_STATUS_SUCCESS)
		return st;
	time->start = s;
	time->end = e;
	return HSA_STATUS_SUCCESS;
}
