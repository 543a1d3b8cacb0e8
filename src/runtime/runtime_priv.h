/*
 * The runtime's private header, shared by the files of src/runtime only
 * (other modules use runtime/runtime.h): building the agents, ISAs and
 * caches at hsa_init, the environment, the extension masks, the SVM
 * answers, and the caches of an agent (cache.c), filled by agent.c.
 */
#ifndef HSALITE_RUNTIME_PRIV_H
#define HSALITE_RUNTIME_PRIV_H

#include "runtime/runtime.h"

/* Upper bound of the caches read from sysfs for one CPU node. */
#define HL_CPU_SYSFS_CACHES_MAX 8

/* Fill out[] (room for the node's KFD caches, plus HL_CPU_SYSFS_CACHES_MAX
 * for a CPU) and a->cache_size; return the count. */
uint32_t hl_cache_fill_cpu(struct hl_agent *a, struct hl_cache *out);
uint32_t hl_cache_fill_gpu(struct hl_agent *a, struct hl_cache *out);


/* ---- ISAs (isa.c) ---- */

enum hl_feature { HL_FEATURE_ANY = 0, HL_FEATURE_OFF = 1, HL_FEATURE_ON = 2 };

/* The ISA of a GPU from its gfx version and target features.  Fails with
 * -ENOENT when the processor is unknown.  sramecc/xnack are ignored (ANY)
 * for processors that do not support the feature. */
int hl_isa_for_gpu(uint32_t major, uint32_t minor, uint32_t stepping,
		   enum hl_feature sramecc, enum hl_feature xnack, hsa_isa_t *out);

static inline struct hl_cache *hl_cache_lookup(const struct hl_runtime *rt, uint64_t handle)
{
	uintptr_t base = (uintptr_t)rt->caches, h = (uintptr_t)handle;
	if (h < base || (h - base) % sizeof(struct hl_cache) != 0 ||
	    (h - base) / sizeof(struct hl_cache) >= rt->n_caches)
		return NULL;
	return &rt->caches[(h - base) / sizeof(struct hl_cache)];
}

/* The largest grid per dimension a GPU agent and its ISA report
 * (HSA_AGENT_INFO_GRID_MAX_DIM, HSA_ISA_INFO_GRID_MAX_DIM): ROCr 1.18's
 * {INT32_MAX, UINT16_MAX, UINT16_MAX} work-items, as HIP's and CUDA's grid
 * limits; ROCr 5.2.3 said UINT32_MAX for each (docs/differences.md,
 * section 4).  GRID_MAX_SIZE stays UINT32_MAX (agent) and UINT64_MAX (ISA),
 * as on both. */
#define HL_GRID_MAX_DIM ((hsa_dim3_t){ INT32_MAX, UINT16_MAX, UINT16_MAX })

/* ---- agent.c ---- */
/* Builds rt->agents, pools and caches from rt->proc's topology, honouring
 * ROCR_VISIBLE_DEVICES and HSA_OVERRIDE_GFX_VERSION.  On failure everything
 * built so far is freed by hl_agents_destroy. */
int hl_agents_build(struct hl_runtime *rt);
void hl_agents_destroy(struct hl_runtime *rt);

/* ---- env.c ---- */
void hl_env_read(struct hl_env *env);
/* The override for the GPU at KFD topology node `node`:
 * HSA_OVERRIDE_GFX_VERSION_<node> wins over HSA_OVERRIDE_GFX_VERSION.
 * Returns true and sets the version when one applies. */
bool hl_env_gfx_override(const struct hl_env *env, uint32_t node,
			 uint32_t *major, uint32_t *minor, uint32_t *stepping);
/* Applies ROCR_VISIBLE_DEVICES to n GPUs whose UUID strings are given, in
 * topology order: writes the visible GPUs' indices, in the order the variable
 * lists them, to order[] (room for n) and returns their count.  Unset: all,
 * in order.  Parsing stops at the first invalid token, as ROCr's does. */
uint32_t hl_env_visible_gpus(const struct hl_env *env, const char *const *uuids, uint32_t n,
			     uint32_t *order);

/* ---- error.c ---- */
/* hsa_init's failure: ROCr reports every load failure as OUT_OF_RESOURCES,
 * and clients check for it, so we do too, but log the real cause and fix. */
hsa_status_t hl_status_init_failure(int err);

/* ---- system_event.c ---- */
/* Frees the handler list (runtime destruction). */
void hl_system_events_destroy(struct hl_runtime *rt);

/* ---- system.c ---- */
/* HSA_AMD_SYSTEM_INFO_SVM_SUPPORTED: the kernel has the SVM ioctl and every
 * GPU the SVMAPISupported capability (ROCr's test; true without GPUs). */
bool hl_svm_supported(const struct hl_runtime *rt);
/* Whether the vmem API makes host-memory handles a dma-buf can carry
 * (HOST_ALLOC_DMABUF_SUPPORTED, agent and system: system.c). */
bool hl_host_alloc_dmabuf(const struct hl_runtime *rt);
/* HSA_AMD_SYSTEM_INFO_SVM_ACCESSIBLE_BY_DEFAULT: every GPU's ISA is
 * xnack+ (true without GPUs, as ROCr). */
bool hl_svm_accessible_by_default(const struct hl_runtime *rt);

/* ---- extension.c ---- */
/* Fills the 128-byte HSA_SYSTEM_INFO_EXTENSIONS (agent NULL) or
 * HSA_AGENT_INFO_EXTENSIONS bitmask from the registered extensions. */
void hl_extension_mask(const struct hl_runtime *rt, const struct hl_agent *agent,
		       uint8_t mask[128]);
/* An agent attribute a registered extension answers: its answer, with
 * *answered set; *answered false when no extension owns the attribute. */
hsa_status_t hl_extension_agent_info(const struct hl_runtime *rt, const struct hl_agent *agent,
				     uint32_t attribute, void *value, bool *answered);

#endif /* HSALITE_RUNTIME_PRIV_H */
