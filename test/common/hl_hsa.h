/*
 * Shared HSA helpers for suites whose one binary runs on either runtime
 * (hsalite, or Debian's ROCr first on LD_LIBRARY_PATH): they use only the
 * public HSA API, so they hold no hsalite internals.
 *
 * ck_hsa(expr) asserts HSA_STATUS_SUCCESS and names the status on failure;
 * ck_status(expr, expected) asserts one given status, both in hex;
 * hl_first_agents() finds the first GPU and the first CPU agent;
 * hl_gpu_kernarg_pool() finds the first GPU and a CPU's kernarg pool;
 * hl_find_pools() finds a GPU's VRAM pool and a CPU's kernarg and system pools;
 * hl_dispatch_1d() submits one kernel dispatch, hl_barrier_and() one
 * barrier-AND packet;
 * hl_hdp_flush_all() flushes every GPU's HDP after the CPU wrote VRAM.
 */
#ifndef HL_HSA_H
#define HL_HSA_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include "hl_check.h"

#define ck_hsa(expr)                                                            \
	do {                                                                    \
		hsa_status_t st_ = (expr);                                      \
		const char *msg_ = "?";                                         \
		hsa_status_string(st_, &msg_);                                  \
		ck_assert_msg(st_ == HSA_STATUS_SUCCESS, "%s: 0x%x %s", #expr,  \
			      (unsigned)st_, msg_);                             \
	} while (0)

#define ck_status(expr, expected)                                               \
	do {                                                                    \
		hsa_status_t s_ = (expr);                                       \
		hsa_status_t e_ = (hsa_status_t)(expected);                     \
		ck_assert_msg(s_ == e_, "%s: got %#x, expected %#x", #expr,     \
			      (unsigned)s_, (unsigned)e_);                      \
	} while (0)

struct hl_first_agents {
	hsa_agent_t gpu, cpu;
	bool have_gpu, have_cpu;
};

static inline hsa_status_t hl_first_agents_cb(hsa_agent_t a, void *data)
{
	struct hl_first_agents *f = data;
	hsa_device_type_t t;

	if (hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t) != HSA_STATUS_SUCCESS)
		return HSA_STATUS_SUCCESS;
	if (t == HSA_DEVICE_TYPE_GPU && !f->have_gpu) {
		f->gpu = a;
		f->have_gpu = true;
	} else if (t == HSA_DEVICE_TYPE_CPU && !f->have_cpu) {
		f->cpu = a;
		f->have_cpu = true;
	}
	return HSA_STATUS_SUCCESS;
}

/* The first GPU and CPU agents; a *have_ flag stays false when there is
 * none.  Returns hsa_iterate_agents' status. */
static inline hsa_status_t hl_first_agents(hsa_agent_t *gpu, bool *have_gpu,
					   hsa_agent_t *cpu, bool *have_cpu)
{
	struct hl_first_agents f = { .have_gpu = false, .have_cpu = false };
	hsa_status_t st = hsa_iterate_agents(hl_first_agents_cb, &f);

	*gpu = f.gpu;
	*have_gpu = f.have_gpu;
	*cpu = f.cpu;
	*have_cpu = f.have_cpu;
	return st;
}

struct hl_gpu_kernarg {
	hsa_agent_t *gpu;
	hsa_amd_memory_pool_t *kernarg;
};

static inline hsa_status_t hl_kernarg_pool_cb(hsa_amd_memory_pool_t pool, void *data)
{
	uint32_t flags = 0;
	hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags);
	if (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT) {
		*(hsa_amd_memory_pool_t *)data = pool;
		return HSA_STATUS_INFO_BREAK;
	}
	return HSA_STATUS_SUCCESS;
}

static inline hsa_status_t hl_gpu_kernarg_cb(hsa_agent_t agent, void *data)
{
	struct hl_gpu_kernarg *f = data;
	hsa_device_type_t type;
	hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type);
	if (type == HSA_DEVICE_TYPE_GPU && !f->gpu->handle)
		*f->gpu = agent;
	if (type == HSA_DEVICE_TYPE_CPU && !f->kernarg->handle)
		hsa_amd_agent_iterate_memory_pools(agent, hl_kernarg_pool_cb, f->kernarg);
	return HSA_STATUS_SUCCESS;
}

/* The first GPU agent into *gpu and the KERNARG_INIT pool of the first CPU
 * agent that has one into *kernarg (a handle stays 0 when there is none).
 * Returns hsa_iterate_agents' status. */
static inline hsa_status_t hl_gpu_kernarg_pool(hsa_agent_t *gpu, hsa_amd_memory_pool_t *kernarg)
{
	struct hl_gpu_kernarg f = { gpu, kernarg };
	gpu->handle = kernarg->handle = 0;
	return hsa_iterate_agents(hl_gpu_kernarg_cb, &f);
}

struct hl_pools {
	hsa_amd_memory_pool_t vram, kernarg, sys;
	bool have_vram, have_kernarg, have_sys;
};

struct hl_pools_walk {
	struct hl_pools *pools;
	bool gpu;       /* the agent whose pools are walked is the GPU */
};

static inline hsa_status_t hl_pools_cb(hsa_amd_memory_pool_t p, void *data)
{
	struct hl_pools_walk *w = data;
	struct hl_pools *f = w->pools;
	hsa_amd_segment_t seg;
	uint32_t flags = 0;
	bool alloc = false;

	if (hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg) !=
		    HSA_STATUS_SUCCESS ||
	    hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED,
					 &alloc) != HSA_STATUS_SUCCESS ||
	    seg != HSA_AMD_SEGMENT_GLOBAL || !alloc ||
	    hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags) !=
		    HSA_STATUS_SUCCESS)
		return HSA_STATUS_SUCCESS;
	if (w->gpu) {
		if (!f->have_vram && (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED)) {
			f->vram = p;
			f->have_vram = true;
		}
	} else if (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT) {
		if (!f->have_kernarg) {
			f->kernarg = p;
			f->have_kernarg = true;
		}
	} else if (!f->have_sys && (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED)) {
		f->sys = p;
		f->have_sys = true;
	}
	return HSA_STATUS_SUCCESS;
}

/* The pools the suites allocate from, each the first of its kind among the
 * global pools the runtime allocates from: vram gpu's coarse-grained pool,
 * kernarg cpu's KERNARG_INIT pool, sys cpu's first fine-grained pool that
 * is not a kernarg pool.  A have_ flag stays false when there is none.
 * Returns the first failing iteration's status. */
static inline hsa_status_t hl_find_pools(hsa_agent_t gpu, hsa_agent_t cpu, struct hl_pools *pools)
{
	ck_assert_ptr_nonnull(pools);
	memset(pools, 0, sizeof(*pools));
	struct hl_pools_walk w = { pools, false };
	hsa_status_t st = hsa_amd_agent_iterate_memory_pools(cpu, hl_pools_cb, &w);
	if (st != HSA_STATUS_SUCCESS)
		return st;
	w.gpu = true;
	return hsa_amd_agent_iterate_memory_pools(gpu, hl_pools_cb, &w);
}

/* Writes one kernel dispatch packet (1-D, 64-item workgroups, grid work-items,
 * system-scope fences, the barrier bit when barrier) into q's next slot,
 * publishes its header with a release store and rings the doorbell; done
 * (handle 0: none) is its completion signal.  Returns the packet's index. */
static inline uint64_t hl_dispatch_1d(hsa_queue_t *q, uint64_t kernel_object, void *kernarg,
				      uint32_t grid, uint32_t private_size, bool barrier,
				      hsa_signal_t done)
{
	uint64_t index = hsa_queue_add_write_index_relaxed(q, 1);
	hsa_kernel_dispatch_packet_t *p =
		(hsa_kernel_dispatch_packet_t *)q->base_address + (index % q->size);
	memset((char *)p + 2, 0, sizeof(*p) - 2);
	p->setup = 1;
	p->workgroup_size_x = 64;
	p->workgroup_size_y = p->workgroup_size_z = 1;
	p->grid_size_x = grid;
	p->grid_size_y = p->grid_size_z = 1;
	p->private_segment_size = private_size;
	p->kernel_object = kernel_object;
	p->kernarg_address = kernarg;
	p->completion_signal = done;
	uint16_t header = HSA_PACKET_TYPE_KERNEL_DISPATCH << HSA_PACKET_HEADER_TYPE |
			  (uint16_t)(barrier ? 1u << HSA_PACKET_HEADER_BARRIER : 0) |
			  HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE |
			  HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE;
	/* release: the packet's body before its header (the CP's acquire) */
	__atomic_store_n(&p->header, header, __ATOMIC_RELEASE);
	hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)index);
	return index;
}

/* Writes a barrier-AND packet (system-scope fences, the barrier bit when
 * barrier) into q's next slot: it waits for dep to reach 0 (handle 0: no
 * dependency), then decrements done (handle 0: none), its completion
 * signal.  Publishes its header with a release store and rings the
 * doorbell.  Returns the packet's index. */
static inline uint64_t hl_barrier_and(hsa_queue_t *q, hsa_signal_t dep, bool barrier,
				      hsa_signal_t done)
{
	uint64_t index = hsa_queue_add_write_index_screlease(q, 1);
	hsa_barrier_and_packet_t *p =
		(hsa_barrier_and_packet_t *)q->base_address + (index % q->size);
	memset((char *)p + 2, 0, sizeof(*p) - 2);
	p->dep_signal[0] = dep;
	p->completion_signal = done;
	uint16_t header = HSA_PACKET_TYPE_BARRIER_AND << HSA_PACKET_HEADER_TYPE |
			  (uint16_t)(barrier ? 1u << HSA_PACKET_HEADER_BARRIER : 0) |
			  HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE |
			  HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE;
	/* release: the packet's body before its header (the CP's acquire) */
	__atomic_store_n(&p->header, header, __ATOMIC_RELEASE);
	hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)index);
	return index;
}

static inline hsa_status_t hl_hdp_flush_cb(hsa_agent_t a, void *data)
{
	(void)data;
	hsa_device_type_t t;
	if (hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t) != HSA_STATUS_SUCCESS ||
	    t != HSA_DEVICE_TYPE_GPU)
		return HSA_STATUS_SUCCESS;
	hsa_amd_hdp_flush_t h = { 0 };
	ck_hsa(hsa_agent_get_info(a, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_HDP_FLUSH, &h));
	ck_assert_ptr_nonnull(h.HDP_MEM_FLUSH_CNTL);
	__atomic_store_n(h.HDP_MEM_FLUSH_CNTL, 1u, __ATOMIC_SEQ_CST);
	return HSA_STATUS_SUCCESS;
}

/* The HDP flush an application owes after writing VRAM through the CPU
 * before a GPU engine reads it, as CLR does (a store to the agent's
 * HSA_AMD_AGENT_INFO_HDP_FLUSH HDP_MEM_FLUSH_CNTL); on every GPU, for
 * suites that do not track which VRAM they wrote.  kfdemu with
 * KFDEMU_HDP=strict stops a GPU read of VRAM written since the last one. */
static inline void hl_hdp_flush_all(void)
{
	ck_hsa(hsa_iterate_agents(hl_hdp_flush_cb, NULL));
}

#endif
