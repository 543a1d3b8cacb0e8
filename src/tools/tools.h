/*
 * The tools module's face to the rest of the runtime (docs/tools.md): the
 * HSA API table the exported functions jump through, HSA_TOOLS_LIB's
 * libraries and rocprofiler-register.  Its steps run in src/modules.c's
 * table: attach (rt->tools: the loaded tools and the intercept queues);
 * opened, once the runtime is published (tools call hsa_* from OnLoad, as
 * ROCr's do); closing, at the last hsa_shut_down while the runtime is
 * still there (OnUnload may call hsa_* too); teardown (frees rt->tools);
 * and fork_child, at a fork, and forget, at a fork child's first call.
 */
#ifndef HL_TOOLS_H
#define HL_TOOLS_H

struct hl_runtime;

/* Makes rt->tools (no tool, no intercept queue): 0 or -ENOMEM. */
int hl_tools_attach(struct hl_runtime *rt);

/* Frees rt->tools; intercept queues still listed (exit runs no closing
 * step) have their doorbell handlers stopped and their memory freed. */
void hl_tools_teardown(struct hl_runtime *rt);

/* Loads HSA_TOOLS_LIB's tools and registers with rocprofiler-register. */
void hl_tools_opened(struct hl_runtime *rt);

/* Calls each loaded tool's OnUnload, last loaded first, puts every entry
 * of the table back to hsalite's function and closes the libraries. */
void hl_tools_closing(struct hl_runtime *rt);

/* A fork child, at the fork: no tool any more (the table is hsalite's
 * own) until the child's own hsa_init loads them again (load.c says why). */
void hl_tools_fork_child(void);

/* A fork child, at its first runtime call, with the parent's runtime: its
 * intercept queues and list of tools are forgotten, without OnUnload or
 * dlclose, and rt->tools freed. */
void hl_tools_forget(struct hl_runtime *rt);

#endif
