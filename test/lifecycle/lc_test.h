/*
 * Helpers shared by the lifecycle-fault suites (issue 22, item 5): status
 * assertions that print both values, and the agents and pools every suite
 * looks up.  Public API only, so each binary also runs on Debian's ROCr
 * 5.2.3 (LD_LIBRARY_PATH; the binaries carry a RUNPATH).
 */
#ifndef HSALITE_LC_TEST_H
#define HSALITE_LC_TEST_H

#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hsa/hsa.h"
#include "hsa/hsa_ext_amd.h"
#include "hl_hsa.h"

struct lc_env {
	hsa_agent_t cpu, gpu;
	hsa_amd_memory_pool_t sys;     /* the CPU's fine-grained pool */
	hsa_amd_memory_pool_t kernarg; /* the CPU's kernarg pool */
	hsa_amd_memory_pool_t vram;    /* the first GPU's own pool */
};

static inline hsa_status_t lc_find_pool(hsa_amd_memory_pool_t p, void *data)
{
	hsa_amd_memory_pool_t *out = data; /* [0] sys, [1] kernarg, [2] vram */
	hsa_amd_segment_t seg;
	uint32_t flags = 0;
	bool alloc = false, all = true;
	hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg);
	hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &alloc);
	hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags);
	hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL, &all);
	if (seg != HSA_AMD_SEGMENT_GLOBAL || !alloc)
		return HSA_STATUS_SUCCESS;
	if ((flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED) && !out[0].handle)
		out[0] = p;
	if ((flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT) && !out[1].handle)
		out[1] = p;
	if (!all && !out[2].handle)
		out[2] = p;
	return HSA_STATUS_SUCCESS;
}

static inline hsa_status_t lc_find_agent(hsa_agent_t a, void *data)
{
	struct lc_env *env = data;
	hsa_device_type_t t;
	hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t);
	hsa_amd_memory_pool_t pools[3] = { { 0 }, { 0 }, { 0 } };
	if (t == HSA_DEVICE_TYPE_CPU && !env->cpu.handle) {
		env->cpu = a;
		hsa_amd_agent_iterate_memory_pools(a, lc_find_pool, pools);
		env->sys = pools[0];
		env->kernarg = pools[1];
	} else if (t == HSA_DEVICE_TYPE_GPU && !env->gpu.handle) {
		env->gpu = a;
		hsa_amd_agent_iterate_memory_pools(a, lc_find_pool, pools);
		env->vram = pools[2];
	}
	return HSA_STATUS_SUCCESS;
}

/* hsa_init, then the first CPU and GPU and their pools. */
static inline void lc_init(struct lc_env *env)
{
	memset(env, 0, sizeof(*env));
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	ck_status(hsa_iterate_agents(lc_find_agent, env), HSA_STATUS_SUCCESS);
	ck_assert(env->cpu.handle && env->gpu.handle && env->sys.handle && env->kernarg.handle &&
		  env->vram.handle);
}

/* Whether the library under test is Debian's ROCr (LC_PEER=rocr). */
static inline bool lc_peer_rocr(void)
{
	const char *p = getenv("LC_PEER");
	return p && strcmp(p, "rocr") == 0;
}

#endif
