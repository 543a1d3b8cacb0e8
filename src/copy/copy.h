/*
 * src/copy's public face: what the module table (src/modules.c) runs.
 * Copies and fills live behind the hsa_* API (hsa_memory_copy,
 * hsa_amd_memory_async_copy*, hsa_amd_memory_fill, hsa_amd_svm_prefetch_
 * async); the engines are private (copy_priv.h).
 */
#ifndef HSALITE_COPY_H
#define HSALITE_COPY_H

#include "runtime/runtime.h"

/* hsa_init: the module's state (rt->copy) and the per-agent engine
 * records (agent->blit, agent->sdma[]). */
int hl_copy_attach(struct hl_runtime *rt);
/* The last hsa_shut_down: pending prefetches, SDMA queues, blit engines,
 * the module's state. */
void hl_copy_teardown(struct hl_runtime *rt);
/* The child's first runtime call: the parent's engine records and the
 * module's state (rt->copy) go without an ioctl. */
void hl_copy_forget(struct hl_runtime *rt);

#endif /* HSALITE_COPY_H */
