/*
 * hsa_amd_memory_async_copy and hsa_amd_memory_async_copy_rect: argument
 * checks in ROCr 5.2.3's order and with its statuses, then the engine.
 *
 *  - A GPU on either side: the source agent's GPU copies when it is a GPU,
 *    else the destination's (Runtime::CopyMemory): on one of its SDMA
 *    queues where ROCr would use SDMA (use_sdma), else, or when the queue
 *    cannot be had, with its blit kernel.
 *  - CPU to CPU: a detached thread waits for the dependencies (blocked
 *    waits), copies with memcpy and subtracts 1 from the completion signal,
 *    as ROCr does.
 *  - Size 0 (or a rect with an empty range) succeeds without touching the
 *    completion signal, as in ROCr.
 *  - Engine failures (the blit kernels cannot be loaded, the blit queue
 *    cannot be created) are HSA_STATUS_ERROR_OUT_OF_RESOURCES, ROCr's status
 *    when its blit creation throws.
 *
 * Rect copies run on SDMA as ROCr's (COPY_LINEAR_SUB_WIND tiles), after its
 * argument checks (dword-aligned bases, pitches and slices; the box inside
 * the pitch and slice).  ROCr 5.2.3 has no other engine for them
 * (OUT_OF_RESOURCES with HSA_ENABLE_SDMA=0, INVALID_ARGUMENT for a pitch
 * the packet cannot hold); hsalite copies those with a blit kernel.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "copy/copy_priv.h"
#include "runtime/status.h"
#include "signal/signal.h"
#include "util/log.h"

static hsa_status_t check_deps(uint32_t n_deps, const hsa_signal_t *deps)
{
	for (uint32_t i = 0; i < n_deps; i++)
		if (!hl_signal_live(deps[i].handle))
			return hl_signal_bad_handle(deps[i].handle);
	return HSA_STATUS_SUCCESS;
}

/* ---- CPU to CPU ---- */

struct cpu_copy {
	void *dst;
	const void *src;
	size_t size;
	uint32_t n_deps;
	hsa_signal_t completion;
	hsa_signal_t deps[];
};

static void *cpu_copy_run(void *arg)
{
	struct cpu_copy *c = arg;
	for (uint32_t i = 0; i < c->n_deps; i++)
		while (hsa_signal_wait_scacquire(c->deps[i], HSA_SIGNAL_CONDITION_EQ, 0,
						 UINT64_MAX, HSA_WAIT_STATE_BLOCKED) != 0)
			;
	memcpy(c->dst, c->src, c->size);
	/* release: the copied bytes are visible to whoever sees the signal
	 * drop (its acquire wait) */
	hsa_signal_subtract_screlease(c->completion, 1);
	free(c);
	return NULL;
}

static hsa_status_t cpu_copy(void *dst, const void *src, size_t size, uint32_t n_deps,
			     const hsa_signal_t *deps, hsa_signal_t completion)
{
	struct cpu_copy *c = malloc(sizeof(*c) + n_deps * sizeof(hsa_signal_t));
	if (!c)
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	c->dst = dst;
	c->src = src;
	c->size = size;
	c->n_deps = n_deps;
	c->completion = completion;
	if (n_deps)
		memcpy(c->deps, deps, n_deps * sizeof(hsa_signal_t));
	pthread_attr_t attr;
	pthread_t t;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	int err = pthread_create(&t, &attr, cpu_copy_run, c);
	pthread_attr_destroy(&attr);
	if (err) {
		hl_error(COPY_LOG, "async copy CPU to CPU: thread: %s", hl_errno_name(-err));
		free(c);
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	}
	return HSA_STATUS_SUCCESS;
}

/* ---- linear ---- */

/* ROCr's GetBlitObject: copies inside one GPU take the device-to-host
 * engine under HSA_FORCE_SDMA_SIZE (1 MiB), else the blit kernel; host to
 * device the H2D engine; device to host and GPU to GPU the D2H engine,
 * GPU to GPU inside an xGMI hive an xGMI engine.  At every size, as ROCr:
 * a small copy on an engine that is awake (one that finished work within
 * the last few microseconds, as in a loop of copies) takes ~1 us on
 * kfdemu where the blit kernel's dispatch takes ~5 us, and an engine that
 * has gone idle answers its doorbell no later than the CP answers the blit
 * queue's (both poll with the same pacing on kfdemu). */
#define SDMA_FORCE_SIZE (1u << 20)

static bool use_sdma(const struct hl_agent *gpu, const struct hl_agent *sa,
		     const struct hl_agent *da, size_t size, enum hl_sdma_dir *dir)
{
	if (!hl_sdma_enabled())
		return false;
	if (sa == da) {
		*dir = HL_SDMA_D2H;
		return size < SDMA_FORCE_SIZE;
	}
	*dir = sa->type != HSA_DEVICE_TYPE_GPU ? HL_SDMA_H2D : HL_SDMA_D2H;
	/* two GPUs of one hive: an xGMI engine, when the GPU has one */
	if (sa->gpu && da->gpu && sa->node->props.hive_id &&
	    sa->node->props.hive_id == da->node->props.hive_id &&
	    gpu->node->props.num_sdma_xgmi_engines)
		*dir = HL_SDMA_XGMI;
	return true;
}

hsa_status_t hsa_amd_memory_async_copy(void *dst, hsa_agent_t dst_agent, const void *src,
				       hsa_agent_t src_agent, size_t size,
				       uint32_t num_dep_signals, const hsa_signal_t *dep_signals,
				       hsa_signal_t completion_signal)
{
	if (!dst || !src)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	if (!num_dep_signals != !dep_signals)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	struct hl_agent *da = hl_agent_lookup(rt, dst_agent);
	if (!da)
		return HSA_STATUS_ERROR_INVALID_AGENT;
	struct hl_agent *sa = hl_agent_lookup(rt, src_agent);
	if (!sa)
		return HSA_STATUS_ERROR_INVALID_AGENT;
	hsa_status_t st = check_deps(num_dep_signals, dep_signals);
	if (st != HSA_STATUS_SUCCESS)
		return st;
	if (!hl_signal_live(completion_signal.handle))
		return hl_signal_bad_handle(completion_signal.handle);
	if (size == 0)
		return HSA_STATUS_SUCCESS;

	struct hl_agent *gpu = sa->type == HSA_DEVICE_TYPE_GPU ? sa
			     : da->type == HSA_DEVICE_TYPE_GPU ? da : NULL;
	if (!gpu)
		return cpu_copy(dst, src, size, num_dep_signals, dep_signals, completion_signal);

	bool profile = hl_copy_profiling(rt);
	if (profile)
		hl_copy_profile_mark(completion_signal, gpu);
	int err;
	struct hl_sdma *q;
	enum hl_sdma_dir dir;
	if (use_sdma(gpu, sa, da, size, &dir) && hl_sdma_get(rt, gpu, dir, &q) == 0) {
		err = hl_sdma_copy(q, dst, src, size, num_dep_signals, dep_signals,
				   completion_signal, profile);
		if (err == 0)
			goto out;
	}
	struct hl_blit *b;
	err = hl_blit_get(rt, gpu, &b);
	if (err)
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	err = hl_blit_copy(b, dst, src, size, num_dep_signals, dep_signals, completion_signal);
out:
	if (err)
		hl_error(COPY_LOG, "async copy %p <- %p (%zu bytes) on %s: %s", dst, src, size,
			 gpu->name, hl_errno_name(err));
	return hl_copy_status(err);
}

/* ---- rect ---- */

static bool rect_ok(const hsa_pitched_ptr_t *p, const hsa_dim3_t *off, const hsa_dim3_t *range)
{
	if ((uintptr_t)p->base % 4 || p->pitch % 4 || p->slice % 4)
		return false;
	if ((uint64_t)off->x + range->x > p->pitch)
		return false;
	if (p->slice && (uint64_t)off->y + range->y > p->slice / p->pitch)
		return false;
	return true;
}

hsa_status_t hsa_amd_memory_async_copy_rect(const hsa_pitched_ptr_t *dst,
					    const hsa_dim3_t *dst_offset,
					    const hsa_pitched_ptr_t *src,
					    const hsa_dim3_t *src_offset, const hsa_dim3_t *range,
					    hsa_agent_t copy_agent, hsa_amd_copy_direction_t dir,
					    uint32_t num_dep_signals, const hsa_signal_t *dep_signals,
					    hsa_signal_t completion_signal)
{
	if (!dst || !src || !dst_offset || !src_offset || !range)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	if (!num_dep_signals != !dep_signals)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	if (dir == hsaHostToHost)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	struct hl_agent *gpu = hl_gpu_agent_lookup(rt, copy_agent);
	if (!gpu)
		return HSA_STATUS_ERROR_INVALID_AGENT;
	hsa_status_t st = check_deps(num_dep_signals, dep_signals);
	if (st != HSA_STATUS_SUCCESS)
		return st;
	if (!hl_signal_live(completion_signal.handle))
		return hl_signal_bad_handle(completion_signal.handle);
	if (!range->x || !range->y || !range->z)
		return HSA_STATUS_SUCCESS;
	if (gpu->gfx_major < 9)
		return HSA_STATUS_ERROR_INVALID_AGENT;
	if (!rect_ok(src, src_offset, range) || !rect_ok(dst, dst_offset, range) ||
	    (range->z > 1 && (!src->slice || !dst->slice))) {
		hl_error(COPY_LOG, "async copy rect: bases, pitches and slices must be 4-byte "
			 "aligned and the box inside them");
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	}

	bool profile = hl_copy_profiling(rt);
	if (profile)
		hl_copy_profile_mark(completion_signal, gpu);
	/* ROCr: the host-to-device SDMA queue for hsaHostToDevice, else the
	 * device-to-host one */
	struct hl_sdma *q;
	enum hl_sdma_dir sdir = dir == hsaHostToDevice ? HL_SDMA_H2D : HL_SDMA_D2H;
	if (hl_sdma_enabled() && hl_sdma_get(rt, gpu, sdir, &q) == 0 &&
	    hl_sdma_copy_rect(q, dst, dst_offset, src, src_offset, range, num_dep_signals,
			      dep_signals, completion_signal, profile) == 0)
		return HSA_STATUS_SUCCESS;
	struct hl_blit *b;
	int err = hl_blit_get(rt, gpu, &b);
	if (err)
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	struct hl_blit_rect_args a = {
		.src = (uint64_t)(uintptr_t)src->base + (uint64_t)src_offset->z * src->slice +
		       (uint64_t)src_offset->y * src->pitch + src_offset->x,
		.src_pitch = src->pitch,
		.src_slice = src->slice,
		.dst = (uint64_t)(uintptr_t)dst->base + (uint64_t)dst_offset->z * dst->slice +
		       (uint64_t)dst_offset->y * dst->pitch + dst_offset->x,
		.dst_pitch = dst->pitch,
		.dst_slice = dst->slice,
		.width = range->x,
		.height = range->y,
		.depth = range->z,
	};
	uint64_t units = ((uint64_t)range->x + 15) / 16 * range->y * range->z;
	uint64_t items = hl_blit_items(b, units);
	a.stride = items;
	err = hl_blit_submit(b, HL_BLIT_COPY_RECT, &a, sizeof(a), items, num_dep_signals,
			     dep_signals, completion_signal);
	if (err)
		hl_error(COPY_LOG, "async copy rect on %s: %s", gpu->name, hl_errno_name(err));
	return hl_copy_status(err);
}
