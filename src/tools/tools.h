/*
 * The tools module's face to the rest of the runtime (docs/tools.md): the
 * HSA API table the exported functions jump through, HSA_TOOLS_LIB's
 * libraries and rocprofiler-register.  Its two steps run in src/modules.c's
 * table: opened, once the runtime is published (tools call hsa_* from
 * OnLoad, as ROCr's do), and closing, at the last hsa_shut_down while the
 * runtime is still there (OnUnload may call hsa_* too); and fork_child, at
 * a fork, in the child.
 */
#ifndef HL_TOOLS_H
#define HL_TOOLS_H

struct hl_runtime;

/* Loads HSA_TOOLS_LIB's tools and registers with rocprofiler-register. */
void hl_tools_opened(struct hl_runtime *rt);

/* Calls each loaded tool's OnUnload, last loaded first, puts every entry
 * of the table back to hsalite's function and closes the libraries. */
void hl_tools_closing(struct hl_runtime *rt);

/* A fork child, at the fork: no tool any more (the table is hsalite's
 * own, the parent's intercept queues and list of tools are forgotten,
 * without OnUnload or dlclose) until the child's own hsa_init loads them
 * again (load.c says why). */
void hl_tools_fork_child(void);

#endif
