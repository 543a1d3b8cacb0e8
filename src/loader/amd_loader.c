/*
 * The hsa_ven_amd_loader extension (1.00-1.03), reached through
 * hsa_system_get_major_extension_table: HIP and debuggers use it to map a
 * device address back to its executable, enumerate loaded code objects and
 * read their storage (HIP reads the ELF bytes back through
 * CODE_OBJECT_STORAGE_MEMORY_BASE/SIZE), and to walk every executable.
 *
 * As ROCr's loader: every loaded code object's storage is MEMORY (the copy
 * the load made, valid while the executable lives); STORAGE_FILE is
 * therefore INVALID_ARGUMENT.  Each loaded code object is one segment (one
 * allocation covers all its PT_LOADs), so query_segment_descriptors gives
 * one descriptor per loaded code object, its storage offset 0.  Device and
 * host addresses of a segment are equal (the memory is mapped at the same
 * virtual address on both sides), so query_host_address answers the
 * address itself once it is found inside a loaded segment.  Unknown
 * addresses and handles are INVALID_ARGUMENT (the extension defines no
 * other status for them).
 */
#include <string.h>

#include "loader/loader_priv.h"
#include "runtime/runtime.h"

static struct hl_loaded_co *lco_containing(const struct hl_loader_registry *lr, const void *p)
{
	uint64_t a = (uint64_t)(uintptr_t)p;
	for (struct hl_executable *e = lr->executables; e; e = e->next)
		for (struct hl_loaded_co *l = e->lcos; l; l = l->next)
			if (a >= l->load_base && a - l->load_base < l->load_size)
				return l;
	return NULL;
}

hsa_status_t hl_loader_query_host_address(const void *device_address, const void **host)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	struct hl_loader_registry *lr = rt->loader;
	if (!device_address || !host)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	hl_loader_lock(lr);
	struct hl_loaded_co *l = lco_containing(lr, device_address);
	if (l)
		*host = device_address;
	hl_loader_unlock(lr);
	return l ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

hsa_status_t hl_loader_query_segment_descriptors(hsa_ven_amd_loader_segment_descriptor_t *d,
						 size_t *n)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	struct hl_loader_registry *lr = rt->loader;
	if (!n || (*n && !d))
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	hsa_status_t st = HSA_STATUS_SUCCESS;
	hl_loader_lock(lr);
	size_t total = 0;
	for (struct hl_executable *e = lr->executables; e; e = e->next)
		for (struct hl_loaded_co *l = e->lcos; l; l = l->next)
			total++;
	if (*n == 0) {
		*n = total;
	} else if (*n < total) {
		st = HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS;
	} else {
		size_t i = 0;
		for (struct hl_executable *e = lr->executables; e; e = e->next) {
			for (struct hl_loaded_co *l = e->lcos; l; l = l->next, i++) {
				memset(&d[i], 0, sizeof(d[i]));
				d[i].agent.handle = (uint64_t)(uintptr_t)l->agent;
				d[i].executable.handle = (uint64_t)(uintptr_t)e;
				d[i].code_object_storage_type =
					HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_MEMORY;
				d[i].code_object_storage_base = l->image;
				d[i].code_object_storage_size = l->image_size;
				d[i].code_object_storage_offset = 0;
				d[i].segment_base = (const void *)(uintptr_t)l->load_base;
				d[i].segment_size = l->load_size;
			}
		}
		*n = total;
	}
	hl_loader_unlock(lr);
	return st;
}

hsa_status_t hl_loader_query_executable(const void *device_address, hsa_executable_t *exe)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	struct hl_loader_registry *lr = rt->loader;
	if (!device_address || !exe)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	hl_loader_lock(lr);
	struct hl_loaded_co *l = lco_containing(lr, device_address);
	if (l)
		exe->handle = (uint64_t)(uintptr_t)l->exe;
	hl_loader_unlock(lr);
	return l ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

hsa_status_t hl_loader_iterate_loaded_code_objects(
	hsa_executable_t executable,
	hsa_status_t (*cb)(hsa_executable_t, hsa_loaded_code_object_t, void *), void *data)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	struct hl_loader_registry *lr = rt->loader;
	if (!cb)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	hsa_status_t st = HSA_STATUS_SUCCESS;
	hl_loader_lock(lr);
	struct hl_executable *e = hl_executable_lookup(lr, executable);
	if (!e)
		st = HSA_STATUS_ERROR_INVALID_EXECUTABLE;
	for (struct hl_loaded_co *l = e ? e->lcos : NULL; l && st == HSA_STATUS_SUCCESS;
	     l = l->next) {
		hsa_loaded_code_object_t h = { (uint64_t)(uintptr_t)l };
		st = cb(executable, h, data);
	}
	hl_loader_unlock(lr);
	return st;
}

static hsa_status_t lco_info(const struct hl_loaded_co *l,
			     hsa_ven_amd_loader_loaded_code_object_info_t attr, void *v)
{
	switch (attr) {
	case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_EXECUTABLE:
		((hsa_executable_t *)v)->handle = (uint64_t)(uintptr_t)l->exe;
		break;
	case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_KIND:
		*(uint32_t *)v = HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_KIND_AGENT;
		break;
	case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_AGENT:
		((hsa_agent_t *)v)->handle = (uint64_t)(uintptr_t)l->agent;
		break;
	case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_TYPE:
		*(uint32_t *)v = HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_MEMORY;
		break;
	case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_BASE:
		*(uint64_t *)v = (uint64_t)(uintptr_t)l->image;
		break;
	case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_SIZE:
		*(uint64_t *)v = l->image_size;
		break;
	case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_DELTA:
		*(int64_t *)v = l->delta;
		break;
	case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_BASE:
		*(uint64_t *)v = l->load_base;
		break;
	case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_SIZE:
		*(uint64_t *)v = l->load_size;
		break;
	case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI_LENGTH:
		*(uint32_t *)v = (uint32_t)strlen(l->uri);
		break;
	case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI:
		memcpy(v, l->uri, strlen(l->uri)); /* URI_LENGTH bytes, as ROCr */
		break;
	default: /* STORAGE_FILE: the storage is memory */
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	}
	return HSA_STATUS_SUCCESS;
}

hsa_status_t hl_loader_loaded_code_object_get_info(
	hsa_loaded_code_object_t lco, hsa_ven_amd_loader_loaded_code_object_info_t attr, void *value)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	struct hl_loader_registry *lr = rt->loader;
	if (!value)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	hl_loader_lock(lr);
	struct hl_loaded_co *l = hl_loaded_co_lookup(lr, lco);
	hsa_status_t st = l ? lco_info(l, attr, value) : HSA_STATUS_ERROR_INVALID_ARGUMENT;
	hl_loader_unlock(lr);
	return st;
}

hsa_status_t hl_loader_iterate_executables(hsa_status_t (*cb)(hsa_executable_t, void *),
					   void *data)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	struct hl_loader_registry *lr = rt->loader;
	if (!cb)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	hsa_status_t st = HSA_STATUS_SUCCESS;
	hl_loader_lock(lr);
	for (struct hl_executable *e = lr->executables; e && st == HSA_STATUS_SUCCESS;) {
		struct hl_executable *next = e->next;
		hsa_executable_t h = { (uint64_t)(uintptr_t)e };
		st = cb(h, data);
		e = next;
	}
	hl_loader_unlock(lr);
	return st;
}

static const hsa_ven_amd_loader_1_03_pfn_t loader_table = {
	.hsa_ven_amd_loader_query_host_address = hl_loader_query_host_address,
	.hsa_ven_amd_loader_query_segment_descriptors = hl_loader_query_segment_descriptors,
	.hsa_ven_amd_loader_query_executable = hl_loader_query_executable,
	.hsa_ven_amd_loader_executable_iterate_loaded_code_objects =
		hl_loader_iterate_loaded_code_objects,
	.hsa_ven_amd_loader_loaded_code_object_get_info = hl_loader_loaded_code_object_get_info,
	.hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size =
		hl_loader_reader_create_from_file_with_offset_size,
	.hsa_ven_amd_loader_iterate_executables = hl_loader_iterate_executables,
};

static const struct hl_extension loader_extension = {
	.id = HSA_EXTENSION_AMD_LOADER,
	.table = &loader_table,
	.size = sizeof(loader_table),
};

int hl_loader_attach(struct hl_runtime *rt)
{
	int err = hl_loader_registry_make(rt);
	if (err)
		return err;
	return hl_extension_register(rt, &loader_extension);
}
