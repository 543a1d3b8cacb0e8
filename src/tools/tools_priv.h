/*
 * Inside the tools module: the live HSA API table (table.c), the loading of
 * tools (load.c) and rocprofiler-register (register.c).
 */
#ifndef HL_TOOLS_PRIV_H
#define HL_TOOLS_PRIV_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hsa/hsa_api_trace.h>

struct hl_runtime;
struct intercept_queue;

#define HL_TOOLS_MAX 64

/*
 * The tools module's per-runtime state (rt->tools): made by the module's
 * attach, freed by its teardown (or forget, in a fork child), so a new
 * runtime starts with no tool and no intercept queue, and nothing of a
 * parent's outlives its runtime.  What stays process-wide, and why, is said
 * beside it: the API table (table.c: the exported trampolines jump through
 * it, one per process as the symbols are), the "any intercept queue?" gate
 * of the store path (intercept.c), the chain cursor (thread-local).
 */
struct hl_tools {
	/* load.c: the tools whose OnLoad accepted, in load order; written
	 * by hsa_init's opened step and the last hsa_shut_down's closing
	 * step, under the runtime's lock (dlopen handles). */
	void *loaded[HL_TOOLS_MAX];
	int n_loaded;
	/* intercept.c: the live intercept queues, under iq_lock (a leaf
	 * lock: never held while a queue is processed or destroyed). */
	pthread_mutex_t iq_lock;
	struct intercept_queue *iq_list;
};

/* The root every tool receives; its sub-tables are the ones the exported
 * trampolines (hl_api_trampolines.S) jump through.  Process-wide by
 * nature: the exported symbols jump through it, and they are one per
 * process; a runtime's life only resets it (table.c). */
extern HsaApiTable hl_tools_table;
/* The core sub-table's first contents, hsalite's own functions
 * (hl_api_trampolines.S, read-only). */
extern const CoreApiTable hl_api_defaults_core __attribute__((visibility("hidden")));

/* Every entry back to hsalite's own function, every version to hsalite's:
 * the state before any tool, and after the last OnUnload. */
void hl_tools_table_reset(void);

/* intercept.c: the table's defaults for the queue calls (destroy,
 * inactivate, CU mask, priority, profiling, queue info) and the doorbell
 * stores are its wrappers (hl_default_<function>, which gen_api.py puts in
 * the entries), which send an intercept queue's to its hardware queue;
 * and it destroys the intercept queues left at the last hsa_shut_down. */
void hl_tools_intercept_teardown(struct hl_tools *t);
/* The teardown step with intercept queues still listed (only at exit,
 * which runs no closing step): each one's doorbell handler stopped and its
 * memory freed, its queue and signal left to their modules' teardown. */
void hl_tools_intercept_release(struct hl_tools *t);
/* A fork child, at the fork: the store path's gate closed and this
 * thread's chain cursor cleared (no lock, no memory freed). */
void hl_tools_intercept_fork_child(void);
/* A fork child, at its first runtime call, with the parent's (now
 * unreachable) runtime's state: the parent's intercept queues' memory is
 * freed without a call on their queues and without their locks, which a
 * parent thread may have held. */
void hl_tools_intercept_forget(struct hl_tools *t);
/* Forgets the hsa_amd_runtime_queue_create_register notifier (the last
 * hsa_shut_down's closing step: the tool that set it is about to close;
 * the next runtime starts with none anyway, rt->queues being new). */
void hl_tools_runtime_queue_notifier_clear(struct hl_runtime *rt);

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
