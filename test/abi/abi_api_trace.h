/*
 * The HSA API table's layout as one set of headers compiles it
 * (abi_api_trace_ours.cpp: include/hsa; abi_api_trace_theirs.cpp: Debian's
 * ROCr 5.2.3 /usr/include/hsa), for test_api_trace.c to compare with the
 * numbers of abi_api_trace.inc.
 */
#ifndef ABI_API_TRACE_H
#define ABI_API_TRACE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct abi_trace_field {
	const char *table, *field;
	long offset;	 /* as compiled; -1: the headers have no such field */
	long want_118;	 /* abi_api_trace.inc */
	long want_523;
};

/* The fields of abi_api_trace.inc in order, *n of them. */
const struct abi_trace_field *abi_trace_ours(size_t *n);
const struct abi_trace_field *abi_trace_theirs(size_t *n);

/* sizeof of each sub-table and the root, in the order
 * Core, AmdExt, Finalizer, Image, Tools (0: none), PcSampling (0), root;
 * and the table major and step versions, root first. */
void abi_trace_ours_sizes(long sizes[7], long versions[16]);
void abi_trace_theirs_sizes(long sizes[7], long versions[16]);

#ifdef __cplusplus
}
#endif

#endif
