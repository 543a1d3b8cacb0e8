/*
 * Table-driven get_info: the one copy-out for the attribute tables of
 * hsa_agent_get_info (agent_info.c), hsa_isa_get_info (isa.c),
 * hsa_cache_get_info (cache.c) and the region and pool getters
 * (src/memory/pool.c).  Each table row names an attribute, the size of its
 * answer and the getter that computes it; the copy to the caller's value is
 * done here, with memcpy, because callers (rocminfo among them) pass fields
 * of packed or hand-laid structs that need not be aligned for the type.
 */
#include <string.h>

#include "runtime/runtime.h"

hsa_status_t hl_info_answer(const struct hl_info_attr *t, size_t n, uint32_t attribute,
			    const void *obj, void *value, bool *found)
{
	for (size_t i = 0; i < n; i++) {
		if (t[i].attribute != attribute)
			continue;
		*found = true;
		if (t[i].size == 0)
			return t[i].get(obj, value); /* an answer of its own length */
		unsigned char out[HL_INFO_MAX] = { 0 };
		hsa_status_t st = t[i].get(obj, out);
		if (st == HSA_STATUS_SUCCESS)
			memcpy(value, out, t[i].size);
		return st;
	}
	*found = false;
	return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}
