/*
 * The blit engine of a GPU agent: an unlisted AQL queue (the blit queue),
 * the agent's blit kernels and a ring of kernel-argument slots, all created
 * on first use; and the one submission path every blit copy and fill goes
 * through.
 *
 * Packets.  A submission reserves ceil(deps / 5) + 1 consecutive slots:
 * barrier-AND packets carrying the dependency signals five at a time (no
 * fences, as ROCr's: the CP holds the queue at a barrier-AND until every
 * dependency is 0), then the kernel dispatch with system-scope acquire and
 * release fences and the caller's completion signal, which the CP
 * decrements when the kernel is done (and then sets the signal's event,
 * waking sleepers).  Dispatches carry no barrier bit: copies without a
 * dependency between them may overlap, as on ROCr.
 *
 * Kernel arguments live in host memory mapped to the GPU (coherent), one
 * slot per ring slot: the dispatch at index i uses kernarg slot i % size,
 * so a slot is free exactly when its ring slot is (the CP has advanced the
 * read index past the packet, after the kernel finished reading them).
 *
 * Lifetime: each GPU agent's engine record hangs off the agent
 * (agent->blit), built once when the module attaches (hsa_init) and filled
 * on first use; the last hsa_shut_down releases every engine (the copy
 * module's teardown step runs before the queue and signal modules' free
 * queues and signals); a fork child forgets the parent's without an ioctl
 * (the forget step).  An engine whose queue stopped (the CP wrote an error
 * code, or a GPU fault or reset evicted it: the error service marks it,
 * src/queue/errors.c) is released and rebuilt at next use, so copies after
 * a handled fault run on a fresh queue.
 *
 * Synchronous waits are bounded (sync_timeout_ns): a GPU that never answers
 * fails the call with -ETIMEDOUT and the engine is rebuilt, as the loader's
 * cache invalidate gives up after 10 s (src/queue/internal.c).
 *
 * Locking: b->lock serialises b's creation and its submissions (we are the
 * queue's only producer); b->sync_lock serialises the users of b's
 * synchronous signal, and is taken before b->lock; rt->copy->lock
 * serialises switches of the profiling bit over every engine.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "copy/copy_priv.h"
#include "queue/queue.h"
#include "runtime/status.h"
#include "signal/signal.h"
#include "util/barrier.h"
#include "util/log.h"

#define BLIT_PACKETS        1024u      /* ring slots (ROCr's blit queues: 1024) */
#define BLIT_WG             64u        /* work-items per group, as blit.cl */
#define BLIT_UNITS_PER_LANE 32u        /* 16-byte units a lane should loop over */
#define BLIT_DEPS_PER_BARRIER 5u
/* The bound of a synchronous blit: 10 s (the internal queue's bound), plus
 * the bytes at 4 MiB/s, far below any engine's rate (kfdemu under ASan
 * copies hundreds of MB/s), so only a GPU that stopped answering hits it. */
#define BLIT_SYNC_BASE_NS   (10ull * 1000 * 1000 * 1000)
#define BLIT_SYNC_MIN_RATE  (4ull << 20)                /* bytes per second */

struct hl_blit {
	pthread_mutex_t lock;          /* creation and submissions */
	pthread_mutex_t sync_lock;     /* users of sync (taken before lock) */
	struct hl_agent *agent;
	_Atomic bool ready;            /* queue, kernels and kernargs exist */
	bool broken;                   /* the queue stopped: rebuild at next get */
	bool profiling;                /* the queue's profiling bit */
	struct hl_queue *q;
	/* The value of q's inactive signal, for hl_blit_get's lock-free look:
	 * a slab word that stays mapped until the last hsa_shut_down, so a
	 * stale pointer reads a wrong value (re-checked under the locks), never
	 * freed memory.  NULL while no queue. */
	_Atomic(_Atomic int64_t *) stop_word;
	struct kfd_mem *kernargs;
	uint32_t slot_bytes;
	struct hl_blit_kernels k;
	hsa_signal_t sync;             /* hl_blit_run_sync's completion signal */
	uint64_t max_items;            /* 4 waves per CU */
};

struct hl_agent *hl_blit_agent(const struct hl_blit *b)
{
	return b->agent;
}

/* Frees what b holds.  at_teardown: the runtime is going (the loader frees
 * the executable itself).  Caller holds b->lock. */
static void blit_release(struct hl_runtime *rt, struct hl_blit *b, bool at_teardown)
{
	hl_store_relaxed(&b->ready, false);
	hl_store_relaxed(&b->stop_word, NULL);
	b->broken = false;
	if (b->q) {
		int err = hl_queue_destroy_unlisted(rt, b->q);
		b->q = NULL;
		if (err) {
			/* The CP may still read the ring, the kernargs and
			 * the signal: keep them (the process's close frees
			 * them). */
			hl_error(COPY_LOG, "%s: blit queue: destroy: %s; its buffers are kept",
				 b->agent->name, hl_errno_name(err));
			b->kernargs = NULL;
			b->sync.handle = 0;
		}
	}
	if (b->sync.handle)
		hl_signal_destroy(b->sync);
	b->sync.handle = 0;
	if (b->kernargs)
		kfd_mem_free(rt->proc, b->kernargs);
	b->kernargs = NULL;
	if (at_teardown)
		memset(&b->k, 0, sizeof(b->k));
	else
		hl_blit_kernels_unload(&b->k);
}

int hl_blit_attach(struct hl_runtime *rt)
{
	rt->copy = calloc(1, sizeof(*rt->copy));
	if (!rt->copy)
		return -ENOMEM;
	pthread_mutex_init(&rt->copy->lock, NULL);
	pthread_mutex_init(&rt->copy->discard_lock, NULL);
	for (uint32_t i = 0; i < rt->n_agents; i++) {
		struct hl_agent *a = &rt->agents[i];
		if (!hl_agent_is_gpu(a))
			continue;
		struct hl_blit *b = calloc(1, sizeof(*b));
		if (!b)
			return -ENOMEM; /* the teardown frees the others */
		pthread_mutex_init(&b->lock, NULL);
		pthread_mutex_init(&b->sync_lock, NULL);
		b->agent = a;
		a->blit = b;
	}
	return 0;
}

void hl_blit_teardown(struct hl_runtime *rt)
{
	if (!rt->copy)
		return; /* attach failed before any engine existed */
	pthread_mutex_lock(&rt->copy->lock);
	for (uint32_t i = 0; i < rt->n_agents; i++) {
		struct hl_blit *b = rt->agents[i].blit;
		if (!b)
			continue;
		pthread_mutex_lock(&b->lock);
		blit_release(rt, b, true);
		pthread_mutex_unlock(&b->lock);
		pthread_mutex_destroy(&b->lock);
		pthread_mutex_destroy(&b->sync_lock);
		free(b);
		rt->agents[i].blit = NULL;
	}
	pthread_mutex_unlock(&rt->copy->lock);
	pthread_mutex_destroy(&rt->copy->lock);
	pthread_mutex_destroy(&rt->copy->discard_lock);
	free(rt->copy);
	rt->copy = NULL;
}

void hl_blit_forget(struct hl_runtime *rt)
{
	/* No lock: the runtime is unreachable and the child has one thread;
	 * the records' locks may be held by threads that are not there, so
	 * they are not destroyed. */
	for (uint32_t i = 0; i < rt->n_agents; i++) {
		free(rt->agents[i].blit);
		rt->agents[i].blit = NULL;
	}
	free(rt->copy);
	rt->copy = NULL;
}

/* Creates b's queue, kernels, kernarg ring and sync signal.  Caller holds
 * b->lock. */
static int blit_create(struct hl_runtime *rt, struct hl_blit *b)
{
	struct hl_agent *agent = b->agent;
	int err = hl_blit_kernels_load(agent, &b->k);
	if (err)
		return err;
	err = hl_queue_create_unlisted(rt, agent, BLIT_PACKETS, &b->q);
	if (err) {
		b->q = NULL;
		hl_error(COPY_LOG, "%s: blit queue: %s", agent->name, hl_errno_name(err));
		goto err_release;
	}
	uint32_t slot = 64;
	for (int i = 0; i < HL_BLIT_KERNELS; i++)
		while (slot < b->k.kernarg_size[i])
			slot += 64;
	b->slot_bytes = slot;
	struct kfd_mem_alloc_args args = {
		.kind = KFD_MEM_USERPTR,
		.gpu_id = agent->gpu->gpu_id,
		.size = (uint64_t)slot * BLIT_PACKETS,
		.align = HL_PAGE_SIZE,
		.extra_flags = KFD_ALLOC_COHERENT,
		.host_access = true,
	};
	err = kfd_mem_alloc(rt->proc, &args, &b->kernargs);
	if (err) {
		b->kernargs = NULL;
		hl_error(COPY_LOG, "%s: blit kernargs: %s", agent->name, hl_errno_name(err));
		goto err_release;
	}
	uint32_t gpu_id = agent->gpu->gpu_id;
	err = kfd_mem_map(rt->proc, b->kernargs, &gpu_id, 1);
	if (err) {
		hl_error(COPY_LOG, "%s: map blit kernargs: %s", agent->name, hl_errno_name(err));
		goto err_release;
	}
	err = hl_signal_create(rt, 0, true, true, &b->sync);
	if (err) {
		b->sync.handle = 0;
		hl_error(COPY_LOG, "%s: blit signal: %s", agent->name, hl_errno_name(err));
		goto err_release;
	}
	const struct kfd_node_properties *p = &agent->node->props;
	uint32_t cus = p->simd_per_cu ? p->simd_count / p->simd_per_cu : 1;
	b->max_items = (uint64_t)(cus ? cus : 1) * 4 * BLIT_WG;
	b->profiling = false;
	hl_blit_set_profiling(b, hl_copy_profiling(rt));
	hl_store_relaxed(&b->stop_word,
			 hl_signal_value((amd_signal_t *)(uintptr_t)b->q->inactive_signal.handle));
	/* release: pairs with the acquire in hl_blit_get's fast path */
	hl_store_release(&b->ready, true);
	hl_debug(COPY_LOG, "%s: blit queue %llu (KFD queue %u), %u-byte kernarg slots",
		 agent->name, (unsigned long long)b->q->amd->hsa_queue.id, b->q->queue_id, slot);
	return 0;

err_release:
	blit_release(rt, b, false);
	return err;
}

int hl_blit_get(struct hl_runtime *rt, struct hl_agent *agent, struct hl_blit **out)
{
	if (!hl_agent_is_gpu(agent))
		return -EINVAL;
	struct hl_blit *b = agent->blit;
	if (!b || agent < rt->agents || agent >= rt->agents + rt->n_agents)
		return -EINVAL;

	/* acquire: pairs with the release store of ready in blit_create, so
	 * a ready engine's fields (stop_word among them) are complete */
	if (hl_load_acquire(&b->ready)) {
		_Atomic int64_t *stop = hl_load_relaxed(&b->stop_word);
		if (stop && !hl_load_relaxed(stop)) {
			*out = b;
			return 0;
		}
	}
	pthread_mutex_lock(&b->sync_lock);
	pthread_mutex_lock(&b->lock);
	int err = 0;
	if (hl_load_relaxed(&b->ready) && hl_queue_stopped(b->q)) {
		uint64_t code = (uint64_t)hl_load_relaxed(hl_load_relaxed(&b->stop_word));
		hl_warn(COPY_LOG, "%s: the blit queue was stopped (%s); replacing it",
			agent->name, code & HL_QUEUE_ERR_FAULT_STOPPED ? "GPU fault or reset" :
			"CP error");
		b->broken = true;
	}
	if (b->broken)
		blit_release(rt, b, false);
	if (!hl_load_relaxed(&b->ready))
		err = blit_create(rt, b);
	pthread_mutex_unlock(&b->lock);
	pthread_mutex_unlock(&b->sync_lock);
	if (!err)
		*out = b;
	return err;
}

uint64_t hl_blit_items(const struct hl_blit *b, uint64_t units)
{
	uint64_t lanes = (units + BLIT_UNITS_PER_LANE - 1) / BLIT_UNITS_PER_LANE;
	uint64_t items = (lanes + BLIT_WG - 1) / BLIT_WG * BLIT_WG;
	if (items < BLIT_WG)
		items = BLIT_WG;
	return items < b->max_items ? items : b->max_items;
}

int hl_blit_submit(struct hl_blit *b, enum hl_blit_kernel k, const void *args,
		   size_t args_size, uint64_t items, uint32_t n_deps, const hsa_signal_t *deps,
		   hsa_signal_t completion)
{
	uint32_t n_barriers = (n_deps + BLIT_DEPS_PER_BARRIER - 1) / BLIT_DEPS_PER_BARRIER;
	uint32_t total = n_barriers + 1;
	if (total > BLIT_PACKETS || args_size > b->slot_bytes || items > UINT32_MAX)
		return -EINVAL;
	pthread_mutex_lock(&b->lock);
	if (!hl_load_relaxed(&b->ready) || b->broken) {
		pthread_mutex_unlock(&b->lock);
		return -EIO;
	}
	amd_queue_t *amd = b->q->amd;
	_Atomic uint64_t *wptr = (_Atomic uint64_t *)(uintptr_t)&amd->write_dispatch_id;
	_Atomic uint64_t *rptr = (_Atomic uint64_t *)(uintptr_t)&amd->read_dispatch_id;
	/* relaxed: we are the only writer of the write index (b->lock) */
	uint64_t index = atomic_load_explicit(wptr, memory_order_relaxed);
	/* Room for every packet: acquire pairs with the CP's release store of
	 * the read index, so the slots (and their kernarg slots) it passed
	 * are no longer read. */
	while (index + total - atomic_load_explicit(rptr, memory_order_acquire) > BLIT_PACKETS) {
		if (hl_queue_stopped(b->q)) {
			b->broken = true;
			hl_store_relaxed(&b->ready, false);
			pthread_mutex_unlock(&b->lock);
			return -EIO;
		}
		sched_yield();
	}
	char *ring = b->q->ring;
	for (uint32_t i = 0; i < n_barriers; i++) {
		hsa_barrier_and_packet_t *p =
			(void *)(ring + ((index + i) % BLIT_PACKETS) * sizeof(*p));
		memset((char *)p + sizeof(uint32_t), 0, sizeof(*p) - sizeof(uint32_t));
		for (uint32_t j = 0; j < BLIT_DEPS_PER_BARRIER; j++) {
			uint32_t d = i * BLIT_DEPS_PER_BARRIER + j;
			if (d < n_deps)
				p->dep_signal[j] = deps[d];
		}
		uint32_t hdr = HSA_PACKET_TYPE_BARRIER_AND << HSA_PACKET_HEADER_TYPE |
			       HSA_FENCE_SCOPE_NONE << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE |
			       HSA_FENCE_SCOPE_NONE << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE;
		/* release: pairs with the CP's acquire load of the header
		 * (queue.h, contract 1): the body is complete when it is valid */
		atomic_store_explicit((_Atomic uint32_t *)(void *)p, hdr, memory_order_release);
	}
	uint64_t di = index + n_barriers;
	void *kernarg = (char *)b->kernargs->addr + (di % BLIT_PACKETS) * b->slot_bytes;
	memcpy(kernarg, args, args_size);
	hsa_kernel_dispatch_packet_t *p =
		(void *)(ring + (di % BLIT_PACKETS) * sizeof(*p));
	p->workgroup_size_x = BLIT_WG;
	p->workgroup_size_y = 1;
	p->workgroup_size_z = 1;
	p->reserved0 = 0;
	p->grid_size_x = (uint32_t)items;
	p->grid_size_y = 1;
	p->grid_size_z = 1;
	p->private_segment_size = b->k.private_size[k];
	p->group_segment_size = b->k.group_size[k];
	p->kernel_object = b->k.object[k];
	p->kernarg_address = kernarg;
	p->reserved2 = 0;
	p->completion_signal = completion;
	uint32_t hdr = (HSA_PACKET_TYPE_KERNEL_DISPATCH << HSA_PACKET_HEADER_TYPE |
			HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE |
			HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE) |
		       (1u << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS) << 16;
	/* relaxed: hl_doorbell_store64 (SFENCE, release store) orders it
	 * before the CP reads the index; the CP reads it only after the
	 * doorbell */
	atomic_store_explicit(wptr, index + total, memory_order_relaxed);
	/* release: pairs with the CP's acquire load of the header; the
	 * kernarg slot and the body are visible to a CP that sees it valid */
	atomic_store_explicit((_Atomic uint32_t *)(void *)p, hdr, memory_order_release);
	hl_doorbell_store64((_Atomic uint64_t *)b->q->doorbell, index + total - 1);
	if (hl_amd_log_on(HSA_AMD_LOG_FLAG_BLIT_KERNEL_PKTS))
		hl_amd_log_blit_packets(&b->q->amd->hsa_queue, ring, index, n_barriers,
					HSA_PACKET_TYPE_BARRIER_AND << HSA_PACKET_HEADER_TYPE, hdr);
	pthread_mutex_unlock(&b->lock);
	return 0;
}

static uint64_t sync_timeout_ns(uint64_t bytes)
{
	uint64_t extra = bytes / BLIT_SYNC_MIN_RATE; /* seconds */
	if (extra > (UINT64_MAX - BLIT_SYNC_BASE_NS) / 1000000000u)
		return UINT64_MAX;
	return BLIT_SYNC_BASE_NS + extra * 1000000000u;
}

/* Marks b for a rebuild at next hl_blit_get.  Caller holds sync_lock. */
static void mark_broken(struct hl_blit *b)
{
	pthread_mutex_lock(&b->lock);
	b->broken = true;
	hl_store_relaxed(&b->ready, false);
	pthread_mutex_unlock(&b->lock);
}

int hl_blit_run_sync(struct hl_blit *b, enum hl_blit_kernel k, const void *args,
		     size_t args_size, uint64_t items, uint64_t bytes)
{
	pthread_mutex_lock(&b->sync_lock);
	amd_signal_t *s = (amd_signal_t *)(uintptr_t)b->sync.handle;
	/* relaxed: the packet's header release store publishes it */
	atomic_store_explicit(hl_signal_value(s), 1, memory_order_relaxed);
	int err = hl_blit_submit(b, k, args, args_size, items, 0, NULL, b->sync);
	if (err)
		goto out_unlock;
	/* b->q stays while we hold sync_lock: hl_blit_get releases a
	 * broken engine only with sync_lock held */
	hsa_signal_t sigs[2] = { b->sync, b->q->inactive_signal };
	hsa_signal_condition_t conds[2] = { HSA_SIGNAL_CONDITION_EQ, HSA_SIGNAL_CONDITION_NE };
	int64_t values[2] = { 0, 0 }, v = 0;
	uint64_t timeout_ns = sync_timeout_ns(bytes);
	uint32_t which = hl_signal_wait_any(2, sigs, conds, values, timeout_ns,
					    HSA_WAIT_STATE_BLOCKED, &v);
	/* acquire: pairs with the CP's release decrement of the signal, so
	 * what the kernel wrote is seen by the caller */
	hl_fence_acquire();
	if (which == 1) {
		bool fatal;
		if ((uint64_t)v & HL_QUEUE_ERR_FAULT_STOPPED)
			hl_error(COPY_LOG, "%s: a GPU fault or reset stopped the blit queue",
				 b->agent->name);
		else
			hl_error(COPY_LOG, "%s: the CP stopped the blit queue with code %#llx (%s)",
				 b->agent->name, (unsigned long long)v,
				 hl_status_name(hl_queue_error_status(v, &fatal)));
		mark_broken(b);
		err = -EIO;
	} else if (which != 0) {
		/* The queue is dropped at next use: DESTROY_QUEUE preempts the
		 * dispatch, which must not write the caller's memory later. */
		hl_error(COPY_LOG, "%s: the blit kernel did not complete in %llu ms; the queue "
			 "is replaced", b->agent->name,
			 (unsigned long long)(timeout_ns / 1000000));
		mark_broken(b);
		err = -ETIMEDOUT;
	}
out_unlock:
	pthread_mutex_unlock(&b->sync_lock);
	return err;
}

void hl_blit_set_profiling(struct hl_blit *b, bool enable)
{
	if (!b->q || b->profiling == enable)
		return;
	hl_queue_set_profiling(b->q->amd, enable);
	b->profiling = enable;
}

void hl_blit_profiling_all(struct hl_runtime *rt, bool enable)
{
	pthread_mutex_lock(&rt->copy->lock);
	hl_store_relaxed(&rt->copy->profiling, enable);
	for (uint32_t i = 0; i < rt->n_agents; i++) {
		struct hl_blit *b = rt->agents[i].blit;
		if (!b)
			continue;
		pthread_mutex_lock(&b->lock);
		if (hl_load_relaxed(&b->ready))
			hl_blit_set_profiling(b, enable);
		pthread_mutex_unlock(&b->lock);
	}
	pthread_mutex_unlock(&rt->copy->lock);
}

bool hl_copy_profiling(const struct hl_runtime *rt)
{
	/* relaxed: a copy issued concurrently with the switch may go either
	 * way, as on ROCr */
	return hl_load_relaxed(&rt->copy->profiling);
}
