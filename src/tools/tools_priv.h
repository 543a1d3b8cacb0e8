/*
 * Inside the tools module: the live HSA API table (table.c), the loading of
 * tools (load.c) and rocprofiler-register (register.c).
 */
#ifndef HL_TOOLS_PRIV_H
#define HL_TOOLS_PRIV_H

#include <stdbool.h>
#include <stddef.h>

#include <hsa/hsa_api_trace.h>

/* The root every tool receives; its sub-tables are the ones the exported
 * trampolines (hl_api_trampolines.S) jump through. */
extern HsaApiTable hl_tools_table;

/* Every entry back to hsalite's own function, every version to hsalite's:
 * the state before any tool, and after the last OnUnload. */
void hl_tools_table_reset(void);

/* intercept.c: points the table's queue calls (destroy, inactivate, CU
 * mask, priority, profiling, queue info) at wrappers that send an intercept
 * queue's to its hardware queue; and destroys the intercept queues left at
 * the last hsa_shut_down. */
void hl_tools_intercept_defaults(CoreApiTable *core, AmdExtTable *amd);
void hl_tools_intercept_teardown(void);
/* A fork child, at the fork: the parent's intercept queues are dropped
 * (memory freed, no call on their queues), the lock made anew. */
void hl_tools_intercept_fork_child(void);
/* Forgets the hsa_amd_runtime_queue_create_register notifier (the last
 * hsa_shut_down: the next runtime starts with none). */
void hl_tools_runtime_queue_notifier_clear(void);

/* The names HSA_TOOLS_LIB lists, ROCr's parse: a space separates names,
 * double quotes keep spaces in one, a backslash takes the next character
 * as it is.  Returns the count (names[] holds at most max; each a
 * malloc'd string the caller frees), or -ENOMEM. */
int hl_tools_parse_names(const char *list, char **names, int max);

/* rocprofiler-register: registers the table as "hsa" when
 * librocprofiler-register.so.0 loads; true when it accepted it (ROCr then
 * skips HSA_TOOLS_LIB unless HSA_TOOLS_ROCPROFILER_V1_TOOLS asks for it). */
bool hl_tools_register(void);

#endif
