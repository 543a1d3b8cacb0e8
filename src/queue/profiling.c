/*
 * Dispatch profiling: the queue's ENABLE_PROFILING bit, the timestamps the
 * CP writes into a completion signal, and GPU ticks to the system domain.
 *
 *  - hsa_amd_profiling_set_profiler_enabled sets or clears
 *    AMD_QUEUE_PROPERTIES_ENABLE_PROFILING in amd_queue_t.queue_properties;
 *    the CP then writes start_ts/end_ts (GPU ticks) into the completion
 *    signal of each packet it retires (queue.h, the CP contract).
 *  - Ticks become system time (the domain of HSA_SYSTEM_INFO_TIMESTAMP,
 *    CLOCK_BOOTTIME ns, KFD's system_clock_counter) as ROCr's
 *    GpuAgent::TranslateTime does it, from two GET_CLOCK_COUNTERS pairs per
 *    agent: the first one taken (0) and the latest (1).  A tick at or after
 *    pair 0 is extrapolated from pair 1 with the ratio measured between the
 *    pairs (which absorbs the drift between the GPU's counter and the
 *    NTP-slewed system clock); pair 1 is retaken, one ioctl, when the tick
 *    lies past it by more than a quarter of the span between the pairs or
 *    by more than 1/16 s, so the extrapolation's error stays a fraction of
 *    one pair's.  A tick before pair 0 (from before the first conversion)
 *    uses the nominal counter frequency from pair 0.  Most conversions are
 *    therefore a spinlock and a few multiplies, not an ioctl (several us on
 *    kfdemu, an MMIO read of the GPU counter on hardware): the breakdown of
 *    tools/hsa-dispatch-bench measured 3.1 us per get_dispatch_time with a
 *    fresh pair per call, against ROCr's 60 ns.
 */
#include <sched.h>

#include "queue/queue_priv.h"
#include "util/log.h"

void hl_queue_set_profiling(amd_queue_t *amd, bool enable)
{
	_Atomic uint32_t *props = (_Atomic uint32_t *)(uintptr_t)&amd->queue_properties;
	/* Release: a packet published after this call (header release store)
	 * is seen by the CP with the bit already set. */
	if (enable)
		atomic_fetch_or_explicit(props, AMD_QUEUE_PROPERTIES_ENABLE_PROFILING,
					 memory_order_release);
	else
		atomic_fetch_and_explicit(props, ~(uint32_t)AMD_QUEUE_PROPERTIES_ENABLE_PROFILING,
					  memory_order_release);
}

hsa_status_t hsa_amd_profiling_set_profiler_enabled(hsa_queue_t *queue, int enable)
{
	struct hl_runtime *rt;
	struct hl_queue *q;
	hsa_status_t st = hl_queue_acquire(queue, &rt, &q);
	bool soft = st == HSA_STATUS_ERROR_INVALID_QUEUE &&
		    (hl_soft_queue_live(queue) || hl_sdma_queue_live(queue));
	if (st != HSA_STATUS_SUCCESS && !soft)
		return st;
	/* A soft queue's bit, and an application SDMA queue's, is only
	 * recorded (ROCr's Queue::SetProfiling, which neither HostQueue nor
	 * SdmaQueue overrides): a soft queue's consumer may read it, no SDMA
	 * engine does. */
	hl_queue_set_profiling(soft ? (amd_queue_t *)queue : q->amd, enable != 0);
	if (!soft)
		hl_queue_release(rt);
	return HSA_STATUS_SUCCESS;
}

/* sys0 + (tick - gpu0) x num / den, signed, clamped to 0..UINT64_MAX. */
static uint64_t scale_from(uint64_t sys0, uint64_t gpu0, uint64_t tick, uint64_t num, uint64_t den)
{
	__int128 sys = (__int128)sys0 + ((__int128)tick - (__int128)gpu0) * (__int128)num /
					 (__int128)den;
	return sys < 0 ? 0 : sys > (__int128)UINT64_MAX ? UINT64_MAX : (uint64_t)sys;
}

static void clock_lock(struct hl_agent *a)
{
	/* acquire: pairs with clock_unlock's release, so the pairs written by
	 * the last holder are seen */
	while (atomic_exchange_explicit(&a->clock_busy, true, memory_order_acquire))
		sched_yield();
}

static void clock_unlock(struct hl_agent *a)
{
	/* release: pairs with clock_lock's acquire */
	atomic_store_explicit(&a->clock_busy, false, memory_order_release);
}

/* A fresh pair into slot 1 (and 0 on the first); -errno. */
static int clock_sync(struct hl_runtime *rt, struct hl_agent *a)
{
	struct kfd_args_get_clock_counters cc;
	int err = kfd_clock_counters(rt->proc, a->gpu->gpu_id, &cc);
	if (err)
		return err;
	uint64_t sys_freq = cc.system_clock_freq ? cc.system_clock_freq
						 : HL_SYSTEM_TIMESTAMP_FREQUENCY;
	/* the system counter in HSA_SYSTEM_INFO_TIMESTAMP ticks (1 GHz) */
	uint64_t sys = scale_from(0, 0, cc.system_clock_counter, HL_SYSTEM_TIMESTAMP_FREQUENCY,
				  sys_freq);
	if (!a->clock_valid || cc.gpu_clock_counter < a->clock_gpu1) {
		/* first, or the counter went back (reset): start over */
		a->clock_gpu0 = cc.gpu_clock_counter;
		a->clock_sys0 = sys;
		a->clock_valid = true;
	}
	a->clock_gpu1 = cc.gpu_clock_counter;
	a->clock_sys1 = sys;
	return 0;
}

/* Converts n ticks under one lock (get_dispatch_time's start and end see
 * the same pairs); -errno. */
static int ticks_convert(struct hl_runtime *rt, struct hl_agent *a, const uint64_t *tick,
			 uint64_t *sys, unsigned n)
{
	uint64_t freq = a->timestamp_freq ? a->timestamp_freq : 1;
	int err = 0;
	clock_lock(a);
	if (!a->clock_valid)
		err = clock_sync(rt, a);
	for (unsigned i = 0; i < n && !err; i++) {
		uint64_t span = a->clock_gpu1 - a->clock_gpu0;
		uint64_t limit = span / 4 < freq / 16 ? span / 4 : freq / 16;
		if (tick[i] > a->clock_gpu1 && tick[i] - a->clock_gpu1 > limit) {
			err = clock_sync(rt, a);
			if (err)
				break;
			span = a->clock_gpu1 - a->clock_gpu0;
		}
		if (tick[i] < a->clock_gpu0)
			sys[i] = scale_from(a->clock_sys0, a->clock_gpu0, tick[i],
					    HL_SYSTEM_TIMESTAMP_FREQUENCY, freq);
		else if (!span)
			sys[i] = scale_from(a->clock_sys1, a->clock_gpu1, tick[i],
					    HL_SYSTEM_TIMESTAMP_FREQUENCY, freq);
		else
			sys[i] = scale_from(a->clock_sys1, a->clock_gpu1, tick[i],
					    a->clock_sys1 - a->clock_sys0, span);
	}
	clock_unlock(a);
	return err;
}

static hsa_status_t gpu_agent(struct hl_runtime **rt, hsa_agent_t agent, struct hl_agent **out)
{
	*rt = hl_runtime_get();
	if (!*rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	struct hl_agent *a = hl_gpu_agent_lookup(*rt, agent);
	if (!a)
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
	return hl_status_from_errno(ticks_convert(rt, a, &agent_tick, system_tick, 1));
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
	/* end first, as ROCr: a resync for it then serves start too */
	uint64_t ticks[2], sys[2];
	if (hl_signal_timestamps(signal.handle, true, &ticks[1], &ticks[0]))
		return hl_signal_bad_handle(signal.handle);
	int err = ticks_convert(rt, a, ticks, sys, 2);
	if (!err) {
		time->end = sys[0];
		time->start = sys[1];
	}
	return hl_status_from_errno(err);
}
