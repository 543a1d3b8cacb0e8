/*
 * hsa_amd_tool.h - the events a runtime raises for tools through the tools
 * sub-table of the HSA API table (hsa_api_trace.h: ToolsApiTable), as ROCr
 * 1.18 declares them: scratch memory given to, taken from and reclaimed
 * from a queue.  Each event is passed as a pointer to a struct whose first
 * member says its kind.
 */
#ifndef HSA_RUNTIME_AMD_TOOL_EVENTS_H_
#define HSA_RUNTIME_AMD_TOOL_EVENTS_H_

#include <stddef.h>
#include <stdint.h>

#include "hsa.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
	HSA_AMD_EVENT_SCRATCH_ALLOC_FLAG_NONE = 0,
	/* the scratch serves one dispatch only */
	HSA_AMD_EVENT_SCRATCH_ALLOC_FLAG_USE_ONCE = (1 << 0),
	/* the alternate scratch, not the main one */
	HSA_AMD_EVENT_SCRATCH_ALLOC_FLAG_ALT = (1 << 1)
} hsa_amd_event_scratch_alloc_flag_t;

typedef enum {
	HSA_AMD_TOOL_EVENT_MIN = 0,
	HSA_AMD_TOOL_EVENT_SCRATCH_ALLOC_START,
	HSA_AMD_TOOL_EVENT_SCRATCH_ALLOC_END,
	HSA_AMD_TOOL_EVENT_SCRATCH_FREE_START,
	HSA_AMD_TOOL_EVENT_SCRATCH_FREE_END,
	HSA_AMD_TOOL_EVENT_SCRATCH_ASYNC_RECLAIM_START,
	HSA_AMD_TOOL_EVENT_SCRATCH_ASYNC_RECLAIM_END,
	HSA_AMD_TOOL_EVENT_MAX
} hsa_amd_tool_event_kind_t;

typedef struct {
	hsa_amd_tool_event_kind_t kind;
} hsa_amd_tool_event_none_t;

typedef struct {
	hsa_amd_tool_event_kind_t kind;
	const hsa_queue_t *queue;
	hsa_amd_event_scratch_alloc_flag_t flags;
	uint64_t dispatch_id; /* the packet that needs more scratch */
} hsa_amd_event_scratch_alloc_start_t;

typedef struct {
	hsa_amd_tool_event_kind_t kind;
	const hsa_queue_t *queue;
	hsa_amd_event_scratch_alloc_flag_t flags;
	uint64_t dispatch_id;
	size_t size;      /* bytes of scratch given */
	size_t num_slots; /* the waves it has room for */
} hsa_amd_event_scratch_alloc_end_t;

typedef struct {
	hsa_amd_tool_event_kind_t kind;
	const hsa_queue_t *queue;
	hsa_amd_event_scratch_alloc_flag_t flags;
} hsa_amd_event_scratch_free_start_t;

typedef struct {
	hsa_amd_tool_event_kind_t kind;
	const hsa_queue_t *queue;
	hsa_amd_event_scratch_alloc_flag_t flags;
} hsa_amd_event_scratch_free_end_t;

typedef struct {
	hsa_amd_tool_event_kind_t kind;
	const hsa_queue_t *queue;
	hsa_amd_event_scratch_alloc_flag_t flags;
} hsa_amd_event_scratch_async_reclaim_start_t;

typedef struct {
	hsa_amd_tool_event_kind_t kind;
	const hsa_queue_t *queue;
	hsa_amd_event_scratch_alloc_flag_t flags;
} hsa_amd_event_scratch_async_reclaim_end_t;

typedef union {
	const hsa_amd_tool_event_none_t *none;
	const hsa_amd_event_scratch_alloc_start_t *scratch_alloc_start;
	const hsa_amd_event_scratch_alloc_end_t *scratch_alloc_end;
	const hsa_amd_event_scratch_free_start_t *scratch_free_start;
	const hsa_amd_event_scratch_free_end_t *scratch_free_end;
	const hsa_amd_event_scratch_async_reclaim_start_t *scratch_async_reclaim_start;
	const hsa_amd_event_scratch_async_reclaim_end_t *scratch_async_reclaim_end;
} hsa_amd_tool_event_t;

typedef hsa_status_t (*hsa_amd_tool_event)(hsa_amd_tool_event_t);

#ifdef __cplusplus
}
#endif

#endif /* HSA_RUNTIME_AMD_TOOL_EVENTS_H_ */
