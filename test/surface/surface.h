/*
 * Helpers of the surface suites (ROCr 1.18's additions): status
 * assertions, agents and pools found through the public API only, so each
 * binary also runs on another runtime first on LD_LIBRARY_PATH.
 */
#ifndef HL_SURFACE_H
#define HL_SURFACE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "hl_check.h"
#include "hl_hsa.h"
#include "hsa/hsa.h"
#include "hsa/hsa_ext_amd.h"

#define SURF_MAX_GPUS 8

struct surf_agents {
	hsa_agent_t cpu;
	hsa_agent_t gpu[SURF_MAX_GPUS];
	uint32_t n_gpus;
};

static inline hsa_status_t surf_agent_cb(hsa_agent_t a, void *data)
{
	struct surf_agents *s = data;
	hsa_device_type_t t;
	if (hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t) != HSA_STATUS_SUCCESS)
		return HSA_STATUS_ERROR;
	if (t == HSA_DEVICE_TYPE_CPU && !s->cpu.handle)
		s->cpu = a;
	else if (t == HSA_DEVICE_TYPE_GPU && s->n_gpus < SURF_MAX_GPUS)
		s->gpu[s->n_gpus++] = a;
	return HSA_STATUS_SUCCESS;
}

static inline void surf_agents(struct surf_agents *s)
{
	memset(s, 0, sizeof(*s));
	ck_status(hsa_iterate_agents(surf_agent_cb, s), HSA_STATUS_SUCCESS);
	ck_assert_msg(s->cpu.handle && s->n_gpus, "a CPU and a GPU agent are needed");
}

struct surf_pool_want {
	bool system;     /* a system (host) pool, else device memory */
	bool fine;       /* fine-grained */
	hsa_amd_memory_pool_t pool;
};

static inline hsa_status_t surf_pool_cb(hsa_amd_memory_pool_t p, void *data)
{
	struct surf_pool_want *w = data;
	hsa_amd_segment_t seg;
	uint32_t flags = 0;
	bool alloc = false;
	hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg);
	hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &alloc);
	if (seg != HSA_AMD_SEGMENT_GLOBAL || !alloc)
		return HSA_STATUS_SUCCESS;
	hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags);
	if (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT)
		return HSA_STATUS_SUCCESS;
	bool fine = flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED;
	if (fine != w->fine)
		return HSA_STATUS_SUCCESS;
	w->pool = p;
	return HSA_STATUS_INFO_BREAK;
}

/* The agent's first allocatable global pool of the given grain. */
static inline hsa_amd_memory_pool_t surf_pool(hsa_agent_t agent, bool fine)
{
	struct surf_pool_want w = { .fine = fine };
	hsa_amd_agent_iterate_memory_pools(agent, surf_pool_cb, &w);
	ck_assert_msg(w.pool.handle, "no %s pool", fine ? "fine-grained" : "coarse-grained");
	return w.pool;
}

/* Host memory every GPU can reach (the CPU's fine-grained pool, allowed to
 * all GPUs). */
static inline void *surf_host_alloc(const struct surf_agents *a, size_t size)
{
	void *p = NULL;
	ck_status(hsa_amd_memory_pool_allocate(surf_pool(a->cpu, true), size, 0, &p),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_agents_allow_access(a->n_gpus, a->gpu, NULL, p), HSA_STATUS_SUCCESS);
	return p;
}

/* Device memory of gpu, reachable by every GPU and the CPU. */
static inline void *surf_vram_alloc(const struct surf_agents *a, hsa_agent_t gpu, size_t size)
{
	void *p = NULL;
	ck_status(hsa_amd_memory_pool_allocate(surf_pool(gpu, false), size, 0, &p),
		  HSA_STATUS_SUCCESS);
	hsa_agent_t all[SURF_MAX_GPUS + 1];
	memcpy(all, a->gpu, a->n_gpus * sizeof(hsa_agent_t));
	all[a->n_gpus] = a->cpu;
	ck_status(hsa_amd_agents_allow_access(a->n_gpus + 1, all, NULL, p), HSA_STATUS_SUCCESS);
	return p;
}

/* Waits for a completion signal to reach 0. */
static inline void surf_wait_zero(hsa_signal_t s)
{
	while (hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
					 HSA_WAIT_STATE_BLOCKED) != 0)
		;
}

/* Whether the runtime under test is hsalite (its build version starts
 * "hsalite").  Checks that hand ROCr a NULL or garbage argument it does
 * not validate (it writes through it, or aborts) run on hsalite only; each
 * such check names ROCr's source line.  Before hsa_init the answer needs a
 * runtime open, so the call opens and closes one. */
static inline bool surf_is_hsalite(void)
{
	const char *v = NULL;
	hsa_status_t st = hsa_system_get_info(HSA_AMD_SYSTEM_INFO_BUILD_VERSION, &v);
	if (st == HSA_STATUS_ERROR_NOT_INITIALIZED) {
		ck_status(hsa_init(), HSA_STATUS_SUCCESS);
		st = hsa_system_get_info(HSA_AMD_SYSTEM_INFO_BUILD_VERSION, &v);
		bool lite = st == HSA_STATUS_SUCCESS && v && !strncmp(v, "hsalite", 7);
		ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
		return lite;
	}
	return st == HSA_STATUS_SUCCESS && v && !strncmp(v, "hsalite", 7);
}

static inline uint32_t surf_u32_info(hsa_agent_t a, int attribute)
{
	uint32_t v = 0;
	ck_status(hsa_agent_get_info(a, (hsa_agent_info_t)attribute, &v), HSA_STATUS_SUCCESS);
	return v;
}

/* The fixture of the surface suites: a runtime opened and its agents found
 * in `agents` before each case (setup), the runtime shut down after it
 * (teardown). */
#define SURF_FIXTURE(agents)                                    \
	static struct surf_agents agents;                        \
	static void setup(void)                                  \
	{                                                        \
		ck_status(hsa_init(), HSA_STATUS_SUCCESS);       \
		surf_agents(&agents);                            \
	}                                                        \
	static void teardown(void)                               \
	{                                                        \
		ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);  \
	}

#endif
