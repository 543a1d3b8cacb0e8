/*
 * include/hsa/hsa_api_trace.h's layout, compiled as C++ as tools compile
 * it: every field of abi_api_trace.inc must exist here.
 */
#include <hsa/hsa_api_trace.h>

#include "abi_api_trace.h"

#define F(t, f, o118, o523) { #t, #f, (long)offsetof(t, f), o118, o523 },
static const struct abi_trace_field fields[] = {
#include "abi_api_trace.inc"
};
#undef F

const struct abi_trace_field *abi_trace_ours(size_t *n)
{
	*n = sizeof(fields) / sizeof(fields[0]);
	return fields;
}

void abi_trace_ours_sizes(long sizes[7], long v[16])
{
	sizes[0] = sizeof(CoreApiTable);
	sizes[1] = sizeof(AmdExtTable);
	sizes[2] = sizeof(FinalizerExtTable);
	sizes[3] = sizeof(ImageExtTable);
	sizes[4] = sizeof(ToolsApiTable);
	sizes[5] = sizeof(PcSamplingExtTable);
	sizes[6] = sizeof(HsaApiTable);
	long all[16] = {
		HSA_API_TABLE_MAJOR_VERSION,	       HSA_API_TABLE_STEP_VERSION,
		HSA_CORE_API_TABLE_MAJOR_VERSION,      HSA_CORE_API_TABLE_STEP_VERSION,
		HSA_AMD_EXT_API_TABLE_MAJOR_VERSION,   HSA_AMD_EXT_API_TABLE_STEP_VERSION,
		HSA_FINALIZER_API_TABLE_MAJOR_VERSION, HSA_FINALIZER_API_TABLE_STEP_VERSION,
		HSA_IMAGE_API_TABLE_MAJOR_VERSION,     HSA_IMAGE_API_TABLE_STEP_VERSION,
		HSA_TOOLS_API_TABLE_MAJOR_VERSION,     HSA_TOOLS_API_TABLE_STEP_VERSION,
		HSA_PC_SAMPLING_API_TABLE_MAJOR_VERSION, HSA_PC_SAMPLING_API_TABLE_STEP_VERSION,
		HSA_AQLPROFILE_API_TABLE_MAJOR_VERSION, HSA_AQLPROFILE_API_TABLE_STEP_VERSION,
	};
	for (int i = 0; i < 16; i++)
		v[i] = all[i];
	static_assert(sizeof(amd_aql_intercept_marker_t) == 64, "an AQL packet's size");
	static_assert(offsetof(amd_aql_intercept_marker_t, callback) == 8, "marker callback");
	static_assert(offsetof(amd_aql_intercept_marker_t, user_data) == 16, "marker user data");
	static_assert(AMD_AQL_FORMAT_INTERCEPT_MARKER == 0xFE, "marker format");
	static_assert(sizeof(hsa_amd_event_scratch_alloc_end_t) == 48, "alloc end event");
	static_assert(offsetof(hsa_amd_event_scratch_alloc_end_t, dispatch_id) == 24, "dispatch id");
	static_assert(HSA_AMD_TOOL_EVENT_SCRATCH_ASYNC_RECLAIM_END == 6, "last tool event");
}
