/*
 * ROCr 5.2.3's hsa_api_trace.h (Debian, /usr/include/hsa) compiled as tools
 * compile it (AMD_INTERNAL_BUILD: its includes are then the siblings in
 * /usr/include/hsa).  The fields 5.2.3 lacks are reported at offset -1;
 * the sub-tables 1.18 added are reported with size 0.
 */
#define AMD_INTERNAL_BUILD 1
#include <hsa/hsa_api_trace.h>

#include "abi_api_trace.h"

/* offsetof(t, f) if 5.2.3's t has a member f, else -1: the member test is
 * by overload resolution on a pointer to member. */
#define F(t, f, o118, o523) { #t, #f, off_##t##_##f(), o118, o523 },

#define HAS_MEMBER(t, f)                                                        \
	template <typename T> static auto has_##t##_##f(int)->decltype(&T::f, long()) \
	{                                                                       \
		return (long)offsetof(T, f);                                    \
	}                                                                       \
	template <typename T> static long has_##t##_##f(...) { return -1; }    \
	static long off_##t##_##f() { return has_##t##_##f<t>(0); }

/* the root's and the sub-tables' members, from the same list */
#define G(t, f, o118, o523) HAS_MEMBER(t, f)
struct ToolsApiTable { ApiTableVersion version; };      /* 5.2.3 has none */
struct PcSamplingExtTable { ApiTableVersion version; }; /* nor this */
#undef F
#define F G
#include "abi_api_trace.inc"
#undef F
#define F(t, f, o118, o523) { #t, #f, off_##t##_##f(), o118, o523 },

static const struct abi_trace_field fields[] = {
#include "abi_api_trace.inc"
};

const struct abi_trace_field *abi_trace_theirs(size_t *n)
{
	*n = sizeof(fields) / sizeof(fields[0]);
	return fields;
}

void abi_trace_theirs_sizes(long sizes[7], long v[16])
{
	sizes[0] = sizeof(CoreApiTable);
	sizes[1] = sizeof(AmdExtTable);
	sizes[2] = sizeof(FinalizerExtTable);
	sizes[3] = sizeof(ImageExtTable);
	sizes[4] = 0;
	sizes[5] = 0;
	sizes[6] = sizeof(HsaApiTable);
	long all[16] = {
		HSA_API_TABLE_MAJOR_VERSION,	       HSA_API_TABLE_STEP_VERSION,
		HSA_CORE_API_TABLE_MAJOR_VERSION,      HSA_CORE_API_TABLE_STEP_VERSION,
		HSA_AMD_EXT_API_TABLE_MAJOR_VERSION,   HSA_AMD_EXT_API_TABLE_STEP_VERSION,
		HSA_FINALIZER_API_TABLE_MAJOR_VERSION, HSA_FINALIZER_API_TABLE_STEP_VERSION,
		HSA_IMAGE_API_TABLE_MAJOR_VERSION,     HSA_IMAGE_API_TABLE_STEP_VERSION,
		0, 0, 0, 0,
		HSA_AQLPROFILE_API_TABLE_MAJOR_VERSION, HSA_AQLPROFILE_API_TABLE_STEP_VERSION,
	};
	for (int i = 0; i < 16; i++)
		v[i] = all[i];
}
