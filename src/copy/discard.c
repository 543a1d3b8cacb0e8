/*
 * hsa_amd_svm_discard_batch_async (AMD's interface 1.20): after every
 * dependency signal reads 0, let the system reclaim the pages behind a
 * batch of ranges of hsa_amd_vmem_address_reserve'd memory, then
 * decrement the completion signal (handle 0: none).  Scheduled as
 * hsa_amd_svm_prefetch_async is (prefetch.c): on the async service, the
 * last dependency first, then down the list.
 *
 * What a discard releases:
 *  - a range reserved with HSA_AMD_VMEM_ADDRESS_NO_REGISTER (the SVM use:
 *    host pages the GPUs reach through XNACK, hsa_amd_svm_attributes_set)
 *    is madvise(MADV_DONTNEED)'d: its pages go back to the kernel, whose
 *    MMU notifier drops the GPUs' mappings (KFD's SVM ranges), and the next
 *    touch, CPU or GPU, faults in zero pages;
 *  - a registered reserved range that nothing is mapped into has no pages;
 *  - a range a hsa_amd_vmem_map'ped handle backs (HSA_VMEM) keeps them: the
 *    handle owns its VRAM until hsa_amd_vmem_unmap and release, and the
 *    header makes discarding a hint ("may be released").
 * Statuses: NOT_INITIALIZED; INVALID_ARGUMENT for ptrs or sizes NULL, count
 * 0, dependencies without an array, a NULL pointer or a zero size, or a
 * range that is not inside one reserved range (src/memory/vmem.c's
 * ranges, NO_REGISTER ones included); INVALID_SIGNAL for a dead dependency or
 * completion signal; then, XNACK being off, XNACK_DISABLED (the header's:
 * without XNACK the GPUs could not fault the pages back).  A madvise the
 * kernel refuses after the call returned is logged; the completion signal
 * is still decremented, so a waiter never hangs.
 *
 * The last hsa_shut_down stops the async service (prefetch.c's teardown
 * runs first) and frees the discards still pending, which are the
 * runtime's (rt->copy->discards); a fork child drops the parent's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "copy/copy_priv.h"
#include "memory/memory.h"
#include "signal/signal.h"
#include "util/log.h"

struct discard_range {
	uintptr_t base; /* page-aligned */
	size_t len;     /* page multiple */
	bool host;      /* NO_REGISTER host pages: madvise them */
};

struct hl_discard_op {
	/* rt->copy->discards, under rt->copy->discard_lock */
	struct hl_discard_op *next, *prev;
	struct hl_copy_state *copy;     /* the runtime's that holds the list */
	hsa_signal_t completion;        /* handle 0: none */
	uint32_t n_ranges;
	struct discard_range *ranges;
	uint32_t remaining;             /* dependencies still to wait for */
	hsa_signal_t deps[];            /* the first num_dep_signals - 1 */
};

/* The list is the runtime's (rt->copy), not the process's: the operations
 * of one runtime never reach the next one's teardown, and a fork child
 * forgets the parent's with the parent's runtime.  An operation keeps its
 * runtime's state: the async service that runs it is stopped before the
 * teardown frees that state, so op->copy outlives every run. */
static void pending_add(struct hl_discard_op *op)
{
	struct hl_copy_state *c = op->copy;
	pthread_mutex_lock(&c->discard_lock);
	op->prev = NULL;
	op->next = c->discards;
	if (c->discards)
		c->discards->prev = op;
	c->discards = op;
	pthread_mutex_unlock(&c->discard_lock);
}

static void pending_remove(struct hl_discard_op *op)
{
	struct hl_copy_state *c = op->copy;
	pthread_mutex_lock(&c->discard_lock);
	if (op->prev)
		op->prev->next = op->next;
	else
		c->discards = op->next;
	if (op->next)
		op->next->prev = op->prev;
	pthread_mutex_unlock(&c->discard_lock);
}

static void op_free(struct hl_discard_op *op)
{
	free(op->ranges);
	free(op);
}

/* On the service thread, every dependency at 0. */
static void discard_run(struct hl_discard_op *op)
{
	for (uint32_t i = 0; i < op->n_ranges; i++) {
		const struct discard_range *r = &op->ranges[i];
		if (r->host && madvise((void *)r->base, r->len, MADV_DONTNEED) != 0)
			hl_error("svm", "svm_discard_batch_async: madvise(%#lx, %zu): %s",
				 (unsigned long)r->base, r->len, strerror(errno));
	}
	pending_remove(op);
	if (op->completion.handle)
		hsa_signal_subtract_screlease(op->completion, 1);
	op_free(op);
}

static void discard_now(void *arg)
{
	discard_run(arg);
}

static bool discard_dep_done(hsa_signal_value_t value, void *arg)
{
	(void)value;
	struct hl_discard_op *op = arg;
	while (op->remaining) {
		hsa_signal_t next = op->deps[--op->remaining];
		if (hsa_amd_signal_async_handler(next, HSA_SIGNAL_CONDITION_EQ, 0,
						 discard_dep_done, op) == HSA_STATUS_SUCCESS)
			return false;
		hl_error("svm", "svm_discard_batch_async: dependency signal %#lx is gone; not "
			 "waiting for it", (unsigned long)next.handle);
	}
	discard_run(op);
	return false;
}

static void discard_free_list(struct hl_discard_op *op)
{
	while (op) {
		struct hl_discard_op *next = op->next;
		op_free(op);
		op = next;
	}
}

/* The copy module's teardown, after the async service stopped. */
void hl_discard_teardown(struct hl_runtime *rt)
{
	if (!rt->copy)
		return; /* attach failed before the state existed */
	pthread_mutex_lock(&rt->copy->discard_lock);
	struct hl_discard_op *op = rt->copy->discards;
	rt->copy->discards = NULL;
	pthread_mutex_unlock(&rt->copy->discard_lock);
	discard_free_list(op);
}

/* A fork child's first runtime call: the parent's discards are copies in
 * the child's heap that nothing will run; no lock (a parent thread may
 * have held it at the fork). */
void hl_discard_forget(struct hl_runtime *rt)
{
	if (!rt->copy)
		return;
	discard_free_list(rt->copy->discards);
	rt->copy->discards = NULL;
}

/* The pages of [p, p + size) to give back, inside one reserved range:
 * 0, or INVALID_ARGUMENT. */
static hsa_status_t range_of(struct hl_runtime *rt, const void *p, size_t size,
			     struct discard_range *out)
{
	struct hl_vmem_extent e;
	if (!p || !size || hl_vmem_reserved_range(rt, p, size, &e) != 0)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	uintptr_t a = (uintptr_t)p, page = (uintptr_t)sysconf(_SC_PAGESIZE);
	/* Only whole pages inside the span are given back. */
	uintptr_t base = (a + page - 1) & ~(page - 1);
	uintptr_t end = (a + size) & ~(page - 1);
	out->base = base;
	out->len = end > base ? end - base : 0;
	out->host = !e.registered && !e.mapped && out->len;
	return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_svm_discard_batch_async(void **ptrs, size_t *sizes, uint32_t count,
					     uint32_t num_dep_signals,
					     const hsa_signal_t *dep_signals,
					     hsa_signal_t completion_signal)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!ptrs || !sizes || count == 0 || (num_dep_signals && !dep_signals)) {
		hl_error("svm", "svm_discard_batch_async: %s",
			 count == 0 ? "count is 0" : "a NULL array");
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	}
	for (uint32_t i = 0; i < num_dep_signals; i++)
		if (!hl_signal_live(dep_signals[i].handle))
			return hl_signal_bad_handle(dep_signals[i].handle);
	if (completion_signal.handle && !hl_signal_live(completion_signal.handle))
		return hl_signal_bad_handle(completion_signal.handle);

	uint32_t n_deps = num_dep_signals ? num_dep_signals - 1 : 0;
	struct hl_discard_op *op = calloc(1, sizeof(*op) + n_deps * sizeof(op->deps[0]));
	struct discard_range *ranges = calloc(count, sizeof(*ranges));
	if (!op || !ranges) {
		free(op);
		free(ranges);
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	}
	op->ranges = ranges;
	op->n_ranges = count;
	for (uint32_t i = 0; i < count; i++) {
		if (range_of(rt, ptrs[i], sizes[i], &ranges[i]) != HSA_STATUS_SUCCESS) {
			hl_error("svm", "svm_discard_batch_async: range %u (%p, %zu) is not inside "
				 "a hsa_amd_vmem_address_reserve range", i, ptrs[i], sizes[i]);
			op_free(op);
			return HSA_STATUS_ERROR_INVALID_ARGUMENT;
		}
	}
	if (!rt->xnack_enabled) {
		hl_error("svm", "svm_discard_batch_async: XNACK is off (HSA_XNACK=1 turns it on)");
		op_free(op);
		return (hsa_status_t)HSA_STATUS_ERROR_XNACK_DISABLED;
	}
	op->copy = rt->copy;
	op->completion = completion_signal;
	op->remaining = n_deps;
	if (n_deps)
		memcpy(op->deps, dep_signals, n_deps * sizeof(op->deps[0]));

	pending_add(op);
	hsa_status_t st;
	if (num_dep_signals)
		st = hsa_amd_signal_async_handler(dep_signals[num_dep_signals - 1],
						  HSA_SIGNAL_CONDITION_EQ, 0, discard_dep_done, op);
	else
		st = hsa_amd_async_function(discard_now, op);
	if (st != HSA_STATUS_SUCCESS) {
		pending_remove(op);
		op_free(op);
	}
	return st;
}
