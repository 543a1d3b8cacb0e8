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

#endif /* HSALITE_LOADER_H */
