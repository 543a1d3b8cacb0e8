/*
 * Dispatch profiling: the queue's ENABLE_PROFILING bit, the timestamps the
 * CP writes into a completion signal, and GPU ticks to the system domain.
 *
 *  - hsa_amd_profiling_set_profiler_enabled sets or clears
 *    AMD_QUEUE_PROPERTIES_ENABLE_PROFILING in amd_queue_t.queue_properties;
 *    the CP then writes start_ts/end_ts (GPU ticks) into the completion
 *    signal of each packet it retires (queue.h, the CP contract).
 *  - Ticks become system time by one fresh GET_CLOCK_COUNTERS sample:
 *    system = system_now - (gpu_now - tick) x 1e9 / gpu_frequency, in the
 *    domain of HSA_SYSTEM_INFO_TIMESTAMP (CLOCK_BOOTTIME ns, which is KFD's
 *    system_clock_counter).  ROCr interpolates between two samples to absorb
 *    drift; one sample per call is exact enough for dispatch times.
 */
#include "queue/queue.h"
#include "util/log.h"

hsa_status_t hsa_amd_profiling_set_profiler_enabled(hsa_queue_t *queue, int enable)
{
	struct hl_runtime *rt;
	struct hl_queue *q;
	hsa_status_t st = hl_queue_acquire(queue, &rt, &q);
	if (st != HSA_STATUS_SUCCESS)
		return st;
	_Atomic uint32_t *props = (_Atomic uint32_t *)(uintptr_t)&q->amd->queue_properties;
	/* Release: a packet published after this call (header release store)
	 * is seen by the CP with the bit already set. */
	if (enable)
		atomic_fetch_or_explicit(props, AMD_QUEUE_PROPERTIES_ENABLE_PROFILING,
					 memory_order_release);
	else
		atomic_fetch_and_explicit(props, ~(uint32_t)AMD_QUEUE_PROPERTIES_ENABLE_PROFILING,
					  memory_order_release);
	hl_queue_release();
	return HSA_STATUS_SUCCESS;
}

static uint64_t tick_convert(const struct kfd_args_get_clock_counters *cc,
			     const struct hl_agent *a, uint64_t tick)
{
	uint64_t freq = a->timestamp_freq ? a->timestamp_freq : 1;
	uint64_t sys_freq = cc->system_clock_freq ? cc->system_clock_freq
						  : HL_SYSTEM_TIMESTAMP_FREQUENCY;
	__int128 delta = (__int128)cc->gpu_clock_counter - (__int128)tick;
	__int128 sys = (__int128)cc->system_clock_counter - delta * sys_freq / freq;
	return sys < 0 ? 0 : (uint64_t)sys;
}

static hsa_status_t gpu_agent(struct hl_runtime **rt, hsa_agent_t agent, struct hl_agent **out)
{
	*rt = hl_runtime_get();
	if (!*rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	struct hl_agent *a = hl_agent_lookup(*rt, agent);
	if (!a || a->type != HSA_DEVICE_TYPE_GPU || !a->gpu)
		return HSA_STATUS_ERROR_INVALID_AGENT;
	*out = a;
	return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_profiling_convert_tick_to_system_domain(hsa_agent_t agent,
							     uint64_t agent_tick,
							     uint64_t *system_tick)
{
	struct hl_runtime *rt;
	struct hl_agent *a;
	hsa_status_t st = gpu_agent(&rt, agent, &a);
	if (st != HSA_STATUS_SUCCESS)
		return st;
	if (!system_tick)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	struct kfd_args_get_clock_counters cc;
	int err = kfd_clock_counters(rt->proc, a->gpu->gpu_id, &cc);
	if (!err)
		*system_tick = tick_convert(&cc, a, agent_tick);
	return hl_status_from_errno(err);
}

hsa_status_t hsa_amd_profiling_get_dispatch_time(hsa_agent_t agent, hsa_signal_t signal,
						 hsa_amd_profiling_dispatch_time_t *time)
{
	struct hl_runtime *rt;
	struct hl_agent *a;
	hsa_status_t st = gpu_agent(&rt, agent, &a);
	if (st != HSA_STATUS_SUCCESS)
		return st;
	if (!time)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	struct hl_signal_side *side = hl_signal_side_live(signal.handle);
	if (!side || hl_load_relaxed(&side->kind) != AMD_SIGNAL_KIND_USER)
		return hl_signal_bad_handle(signal.handle);
	/* The caller waited for the completion (an acquire on the value,
	 * pairing with the CP's release decrement that follows its timestamp
	 * writes), so plain reads see the CP's values. */
	uint64_t start = side->amd->start_ts, end = side->amd->end_ts;
	struct kfd_args_get_clock_counters cc;
	int err = kfd_clock_counters(rt->proc, a->gpu->gpu_id, &cc);
	if (!err) {
		time->start = tick_convert(&cc, a, start);
		time->end = tick_convert(&cc, a, end);
	}
	return hl_status_from_errno(err);
}
