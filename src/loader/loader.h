/*
 * The loader's public face (HSA executables and code objects live behind
 * the hsa_* API; other modules use those, as src/copy does for its blit
 * kernels): what the module table (src/modules.c) runs.
 */
#ifndef HSALITE_LOADER_H
#define HSALITE_LOADER_H

#include "runtime/runtime.h"

/* hsa_init: makes the registry of readers and executables (rt->loader)
 * and registers the AMD loader extension's table with rt.  -errno. */
int hl_loader_attach(struct hl_runtime *rt);

/* The last hsa_shut_down: frees every reader and executable record and
 * the registry (the segments' memory goes with the runtime's allocations,
 * after). */
void hl_loader_teardown(struct hl_runtime *rt);
/* The child's first runtime call: the parent's reader and executable
 * records and its registry go (host memory only; the registry's lock,
 * which a vanished parent thread may hold, is never taken), so the
 * parent's handles are invalid in the child's own runtime. */
void hl_loader_forget(struct hl_runtime *rt);
/* At the fork, in the child: the debugger's list (_amdgpu_r_debug,
 * process-wide, debug.c) is emptied, the child having no GPU code loaded;
 * the registry itself waits for forget (the child never reaches it
 * before). */
void hl_loader_fork_child(void);

#endif /* HSALITE_LOADER_H */
