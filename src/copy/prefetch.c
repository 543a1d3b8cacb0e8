/*
 * hsa_amd_svm_prefetch_async: an SVM migration scheduled on signals the way
 * an async copy is, ROCr 5.2.3's SvmPrefetch.  The migration itself and the
 * list of pending prefetches PREFETCH_LOCATION reads are src/memory/svm.c's;
 * this file waits for the dependencies on the signal module's async service
 * (which sits above memory, so the scheduling lives here, above both).
 *
 *  - The prefetch runs on the async service thread once every dependency
 *    signal is 0 (the last one first, then down the list, as ROCr chains
 *    them), then decrements the completion signal.  Failures after the
 *    call returned are logged: the completion signal is still decremented,
 *    so a waiter never hangs.
 *  - Where ROCr dereferences what it is given (a NULL dependency list with
 *    a count, dead signal or agent handles) we return INVALID_ARGUMENT,
 *    INVALID_SIGNAL or INVALID_AGENT instead of crashing.
 *
 * The last hsa_shut_down stops the async service before dropping the
 * prefetches still pending (hl_prefetch_teardown, the copy module's
 * teardown step), so no handler runs on a freed one.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "copy/copy_priv.h"
#include "memory/memory.h"
#include "signal/signal.h"
#include "util/log.h"

#define PREFETCH_PAGE 4096ull

struct prefetch_op {
	struct hl_svm_prefetch pf;     /* first: published in memory's list */
	hsa_signal_t completion;       /* handle 0: none */
	uint32_t remaining;            /* dependencies still to wait for */
	hsa_signal_t deps[];           /* the first num_dep_signals - 1 */
};

/* On the service thread: the kernel migrates, then the waiter is told. */
static void prefetch_run(struct prefetch_op *op)
{
	hl_svm_prefetch_migrate(&op->pf);
	hl_svm_prefetch_unpublish(&op->pf);
	if (op->completion.handle)
		hsa_signal_subtract_relaxed(op->completion, 1);
	free(op);
}

static void prefetch_now(void *arg)
{
	prefetch_run(arg);
}

/* A dependency reached 0: wait for the next one down, or run. */
static bool prefetch_dep_done(hsa_signal_value_t value, void *arg)
{
	(void)value;
	struct prefetch_op *op = arg;
	while (op->remaining) {
		hsa_signal_t next = op->deps[--op->remaining];
		hsa_status_t st = hsa_amd_signal_async_handler(next, HSA_SIGNAL_CONDITION_EQ, 0,
							       prefetch_dep_done, op);
		if (st == HSA_STATUS_SUCCESS)
			return false;
		hl_error("svm", "hsa_amd_svm_prefetch_async: dependency signal 0x%llx: status "
			 "0x%x; not waiting for it", (unsigned long long)next.handle, st);
	}
	prefetch_run(op);
	return false;
}

static void prefetch_release(struct hl_svm_prefetch *pf)
{
	free((struct prefetch_op *)pf);
}

/* The last hsa_shut_down: no handler may run any more, then the pending
 * prefetches (never started, or waiting for a signal) are dropped. */
void hl_prefetch_teardown(struct hl_runtime *rt)
{
	hl_signal_async_stop(rt);
	hl_svm_prefetch_drop_all(rt, prefetch_release);
}

/* A fork child's first runtime call: the parent's pending prefetches are
 * copies in the child's heap that nothing will run. */
void hl_prefetch_forget(struct hl_runtime *rt)
{
	hl_svm_prefetch_forget_all(rt, prefetch_release);
}

static hsa_status_t prefetch_check_signal(hsa_signal_t s)
{
	return hl_signal_live(s.handle) ? HSA_STATUS_SUCCESS : hl_signal_bad_handle(s.handle);
}

hsa_status_t hsa_amd_svm_prefetch_async(void *ptr, size_t size, hsa_agent_t agent,
					uint32_t num_dep_signals, const hsa_signal_t *dep_signals,
					hsa_signal_t completion_signal)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	struct hl_agent *dest = hl_agent_lookup(rt, agent);
	if (!dest)
		return HSA_STATUS_ERROR_INVALID_AGENT;
	if (num_dep_signals && !dep_signals)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	hsa_status_t st;
	for (uint32_t i = 0; i < num_dep_signals; i++)
		if ((st = prefetch_check_signal(dep_signals[i])))
			return st;
	if (completion_signal.handle && (st = prefetch_check_signal(completion_signal)))
		return st;
	uint32_t n_deps = num_dep_signals ? num_dep_signals - 1 : 0;
	struct prefetch_op *op = calloc(1, sizeof(*op) + n_deps * sizeof(op->deps[0]));
	if (!op)
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	op->pf.rt = rt;
	/* An empty or NULL range is not refused here (ROCr returns SUCCESS);
	 * the kernel's refusal is logged when the prefetch runs. */
	uint64_t base = (uintptr_t)ptr & ~(PREFETCH_PAGE - 1);
	op->pf.base = base;
	op->pf.len = (((uintptr_t)ptr + size + PREFETCH_PAGE - 1) & ~(PREFETCH_PAGE - 1)) - base;
	op->pf.loc = hl_svm_location(dest);
	op->completion = completion_signal;
	op->remaining = n_deps;
	if (n_deps)
		memcpy(op->deps, dep_signals, n_deps * sizeof(op->deps[0]));

	hl_svm_prefetch_publish(&op->pf);
	if (num_dep_signals)
		st = hsa_amd_signal_async_handler(dep_signals[num_dep_signals - 1],
						  HSA_SIGNAL_CONDITION_EQ, 0, prefetch_dep_done,
						  op);
	else
		st = hsa_amd_async_function(prefetch_now, op);
	if (st) {
		hl_svm_prefetch_unpublish(&op->pf);
		free(op);
	}
	return st;
}
