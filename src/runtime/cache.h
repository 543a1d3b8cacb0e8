/*
 * Caches of an agent (cache.c), filled at hsa_init by agent.c.
 */
#ifndef HSALITE_RUNTIME_CACHE_H
#define HSALITE_RUNTIME_CACHE_H

#include "runtime/runtime.h"

/* Upper bound of the caches read from sysfs for one CPU node. */
#define HL_CPU_SYSFS_CACHES_MAX 8

/* Fill out[] (room for the node's KFD caches, plus HL_CPU_SYSFS_CACHES_MAX
 * for a CPU) and a->cache_size; return the count. */
uint32_t hl_cache_fill_cpu(struct hl_agent *a, struct hl_cache *out);
uint32_t hl_cache_fill_gpu(struct hl_agent *a, struct hl_cache *out);

#endif
