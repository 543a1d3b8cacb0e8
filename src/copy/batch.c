/*
 * hsa_amd_memory_async_batch_copy (AMD's interface 1.17): a batch of copy
 * operations (hsa_amd_memory_copy_op_t), each a copy, a list of copies
 * (LINEAR with num_entries > 0) or one source to several destinations
 * (LINEAR_BROADCAST), each to start once every dependency signal reads 0.
 * The operations share one completion signal, which the caller set to
 * num_copy_ops: each operation decrements it by one when all of its copies
 * are done.
 *
 * Every copy goes through hsa_amd_memory_async_copy, so it runs on the
 * engine a single copy would (the source GPU's SDMA queue or blit kernel,
 * async.c).  An operation of one copy hands the caller's completion signal
 * to it; an operation of n copies gives them a signal of its own set to n,
 * and an async handler on that signal reaching 0 decrements the caller's
 * signal and destroys its own (destroying a signal inside its handler is
 * allowed: signal/async.c).  A copy of size 0 is done at once (there is
 * nothing to order after the dependencies).
 *
 * The whole batch is checked before anything is submitted: copy_ops NULL,
 * num_copy_ops 0, dependencies without an array, a version other than
 * HSA_AMD_MEMORY_COPY_OP_VERSION, operations that do not share one live
 * completion signal, NULL pointers or lists, num_entries outside the
 * type's range (at most 1024), reserved fields not 0: INVALID_ARGUMENT (the
 * header's status for all of them).  What no engine of hsalite can do is
 * NOT_SUPPORTED, before anything runs: the SWAP and INDIRECT types and the
 * SDMA-side wait-before-copy and signal-after-copy (they need the SDMA
 * engine's POLL_REGMEM and atomic packets, which src/copy does not issue),
 * and a traffic class (QoS) other than 0.  A submission that fails midway
 * returns the failing copy's status: operations before it run to
 * completion, the rest (and the rest of the failing operation) are not
 * submitted, and the failing operation does not decrement the signal.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "copy/copy_priv.h"
#include "signal/signal.h"
#include "util/log.h"

#define BATCH_ENTRIES_MAX 1024u

struct batch_op_done {
	hsa_signal_t own;        /* n at the start, one per copy done */
	hsa_signal_t completion; /* the caller's */
	bool failed;             /* submission stopped midway: no decrement */
};

static bool batch_op_finished(hsa_signal_value_t value, void *arg)
{
	(void)value;
	struct batch_op_done *d = arg;
	if (!d->failed)
		hsa_signal_subtract_screlease(d->completion, 1);
	hsa_signal_destroy(d->own);
	free(d);
	return false;
}

static hsa_status_t bad(const char *why, uint32_t i)
{
	hl_error("copy", "async_batch_copy: operation %u: %s", i, why);
	return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

static hsa_status_t check_op(const hsa_amd_memory_copy_op_t *op, uint32_t i,
			     hsa_signal_t completion)
{
	if (op->version != HSA_AMD_MEMORY_COPY_OP_VERSION)
		return bad("version is not HSA_AMD_MEMORY_COPY_OP_VERSION", i);
	if (op->completion_signal.handle != completion.handle)
		return bad("the operations of a batch share one completion signal", i);
	if (op->reserved1[0] || op->wait.reserved || op->signal.reserved)
		return bad("a reserved field is not 0", i);
	switch (op->type) {
	case HSA_AMD_MEMORY_COPY_OP_LINEAR:
		if (op->num_entries == 0) {
			if (!op->src || !op->dst)
				return bad("src or dst is NULL", i);
			if (op->unused_size)
				return bad("unused_size is not 0", i);
		} else {
			if (op->num_entries > BATCH_ENTRIES_MAX)
				return bad("num_entries is above 1024", i);
			if (!op->src_list || !op->dst_list || !op->dst_agent_list || !op->size_list)
				return bad("a list is NULL", i);
			if (op->reserved0)
				return bad("reserved0 is not 0", i);
			for (uint32_t k = 0; k < op->num_entries; k++)
				if (!op->src_list[k] || !op->dst_list[k])
					return bad("a src_list or dst_list entry is NULL", i);
		}
		break;
	case HSA_AMD_MEMORY_COPY_OP_LINEAR_BROADCAST:
		if (op->num_entries == 0 || op->num_entries > BATCH_ENTRIES_MAX)
			return bad("a broadcast needs 1 to 1024 destinations", i);
		if (!op->src || !op->dst_list || !op->dst_agent_list)
			return bad("src, dst_list or dst_agent_list is NULL", i);
		if (op->unused_size)
			return bad("unused_size is not 0", i);
		for (uint32_t k = 0; k < op->num_entries; k++)
			if (!op->dst_list[k])
				return bad("a dst_list entry is NULL", i);
		break;
	case HSA_AMD_MEMORY_COPY_OP_LINEAR_SWAP:
	case HSA_AMD_MEMORY_COPY_OP_LINEAR_INDIRECT_SRC:
	case HSA_AMD_MEMORY_COPY_OP_LINEAR_INDIRECT_DST:
	case HSA_AMD_MEMORY_COPY_OP_LINEAR_INDIRECT_SRCDST:
		hl_error("copy", "async_batch_copy: operation %u: type %u needs SDMA swap or "
			 "indirect packets, which hsalite does not issue", i, op->type);
		return (hsa_status_t)HSA_STATUS_ERROR_NOT_SUPPORTED;
	default:
		return bad("unknown type", i);
	}
	if (op->wait.function != HSA_AMD_MEMORY_COPY_WAIT_ALWAYS || op->wait.addr ||
	    op->signal.operation != HSA_AMD_MEMORY_COPY_SIGNAL_NONE || op->signal.addr) {
		if (op->wait.function > HSA_AMD_MEMORY_COPY_WAIT_GT ||
		    op->signal.operation > HSA_AMD_MEMORY_COPY_SIGNAL_SUB)
			return bad("unknown wait function or signal operation", i);
		hl_error("copy", "async_batch_copy: operation %u: wait-before-copy and "
			 "signal-after-copy need SDMA packets hsalite does not issue", i);
		return (hsa_status_t)HSA_STATUS_ERROR_NOT_SUPPORTED;
	}
	if (op->traffic_class) {
		hl_error("copy", "async_batch_copy: operation %u: traffic class %u: no QoS", i,
			 op->traffic_class);
		return (hsa_status_t)HSA_STATUS_ERROR_NOT_SUPPORTED;
	}
	return HSA_STATUS_SUCCESS;
}

/* The k-th copy of op. */
static void copy_of(const hsa_amd_memory_copy_op_t *op, uint32_t k, void **dst,
		    hsa_agent_t *dst_agent, const void **src, size_t *size)
{
	if (op->num_entries == 0) {
		*dst = op->dst;
		*dst_agent = op->dst_agent;
		*src = op->src;
		*size = op->size;
	} else if (op->type == HSA_AMD_MEMORY_COPY_OP_LINEAR) {
		*dst = op->dst_list[k];
		*dst_agent = op->dst_agent_list[k];
		*src = op->src_list[k];
		*size = op->size_list[k];
	} else { /* broadcast */
		*dst = op->dst_list[k];
		*dst_agent = op->dst_agent_list[k];
		*src = op->src;
		*size = op->size;
	}
}

static hsa_status_t submit_op(const hsa_amd_memory_copy_op_t *op, uint32_t n_deps,
			      const hsa_signal_t *deps)
{
	uint32_t n = op->num_entries ? op->num_entries : 1;
	void *dst;
	hsa_agent_t dst_agent;
	const void *src;
	size_t size;

	if (n == 1) {
		copy_of(op, 0, &dst, &dst_agent, &src, &size);
		if (size == 0) {
			hsa_signal_subtract_screlease(op->completion_signal, 1);
			return HSA_STATUS_SUCCESS;
		}
		return hsa_amd_memory_async_copy(dst, dst_agent, src, op->src_agent, size, n_deps,
						 deps, op->completion_signal);
	}

	struct batch_op_done *d = calloc(1, sizeof(*d));
	if (!d)
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	d->completion = op->completion_signal;
	hsa_status_t st = hsa_signal_create((hsa_signal_value_t)n, 0, NULL, &d->own);
	if (st != HSA_STATUS_SUCCESS) {
		free(d);
		return st;
	}
	st = hsa_amd_signal_async_handler(d->own, HSA_SIGNAL_CONDITION_EQ, 0, batch_op_finished,
					  d);
	if (st != HSA_STATUS_SUCCESS) {
		hsa_signal_destroy(d->own);
		free(d);
		return st;
	}
	/* From here the handler owns d: it runs once own reaches 0. */
	for (uint32_t k = 0; k < n; k++) {
		copy_of(op, k, &dst, &dst_agent, &src, &size);
		if (size == 0) {
			hsa_signal_subtract_screlease(d->own, 1);
			continue;
		}
		st = hsa_amd_memory_async_copy(dst, dst_agent, src, op->src_agent, size, n_deps,
					       deps, d->own);
		if (st != HSA_STATUS_SUCCESS) {
			/* The copies not submitted count as done, so the handler
			 * still runs and frees; failed keeps it from decrementing
			 * the caller's signal.  Written before the subtract
			 * (release), read by the handler after its wait
			 * (acquire). */
			d->failed = true;
			hsa_signal_subtract_screlease(d->own, (hsa_signal_value_t)(n - k));
			return st;
		}
	}
	return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_memory_async_batch_copy(const hsa_amd_memory_copy_op_t *copy_ops,
					     uint32_t num_copy_ops, uint32_t num_dep_signals,
					     const hsa_signal_t *dep_signals)
{
	if (!hl_runtime_get())
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!copy_ops || num_copy_ops == 0 || (num_dep_signals && !dep_signals)) {
		hl_error("copy", "async_batch_copy: %s",
			 !copy_ops || !num_copy_ops ? "no operations"
						    : "dependencies without an array");
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	}
	hsa_signal_t completion = copy_ops[0].completion_signal;
	if (!hl_signal_live(completion.handle)) {
		hl_error("copy", "async_batch_copy: completion signal %#lx is not live",
			 (unsigned long)completion.handle);
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	}
	for (uint32_t i = 0; i < num_copy_ops; i++) {
		hsa_status_t st = check_op(&copy_ops[i], i, completion);
		if (st != HSA_STATUS_SUCCESS)
			return st;
	}
	for (uint32_t i = 0; i < num_copy_ops; i++) {
		hsa_status_t st = submit_op(&copy_ops[i], num_dep_signals, dep_signals);
		if (st != HSA_STATUS_SUCCESS) {
			hl_error("copy", "async_batch_copy: operation %u of %u: status %#x; the "
				 "later ones were not submitted", i, num_copy_ops, st);
			return st;
		}
	}
	return HSA_STATUS_SUCCESS;
}
