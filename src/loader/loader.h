/*
 * The loader's public face (HSA executables and code objects live behind
 * the hsa_* API; other modules use those, as src/copy does for its blit
 * kernels): what the module table (src/modules.c) runs.
 */
#ifndef HSALITE_LOADER_H
#define HSALITE_LOADER_H

#include "runtime/runtime.h"

/* hsa_init: registers the AMD loader extension's table with rt.  -errno. */
int hl_loader_attach(struct hl_runtime *rt);

/* The last hsa_shut_down: frees every reader and executable record (the
 * segments' memory goes with the runtime's allocations, after). */
void hl_loader_teardown(struct hl_runtime *rt);
/* At the fork, in the child: a fresh registry lock (a parent thread may
 * have held it). */
void hl_loader_fork_child(void);
/* The child's first runtime call: the parent's reader and executable
 * records go (host memory only), so the parent's handles are invalid in
 * the child's own runtime. */
void hl_loader_forget(struct hl_runtime *rt);

#endif /* HSALITE_LOADER_H */
