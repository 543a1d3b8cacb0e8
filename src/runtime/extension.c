/*
 * Extensions: which ones we support and their function tables.
 *
 * Supported: HSA_EXTENSION_AMD_LOADER 1.03 (the table HIP fetches with
 * hsa_system_get_major_extension_table).  Its entries belong to the loader
 * (src/loader), which provides them by defining hl_loader_table(); while no
 * object of the library defines it (a weak reference resolves to NULL) the
 * entries below validate their arguments and return HSA_STATUS_ERROR,
 * never a made-up success.  HSA_EXTENSION_IMAGES 1.0 (src/image): the
 * table is hsa_ext_images_1_pfn_t, the ten 1.00 entries then the three
 * *_with_layout ones, as ROCr 5.2.3 serves it; GPU agents with images set
 * its bit in their own mask (agent_info.c).  Every other extension (the
 * finalizer, performance counters, profiling events, the AMD profiler and
 * aqlprofile) is unsupported: queries say so and table requests fail with
 * INVALID_ARGUMENT, the status the HSA spec gives for an extension the
 * implementation does not support.
 */
#include <string.h>

#include "hsa/hsa_ext_image.h"
#include "hsa/hsa_ven_amd_loader.h"
#include "runtime/runtime.h"
#include "util/log.h"

#define LOADER_MAJOR 1
#define LOADER_MINOR 3
#define IMAGES_MAJOR 1
#define IMAGES_MINOR 0

static bool extension_valid(uint16_t extension)
{
	return extension <= HSA_EXTENSION_STD_LAST ||
	       (extension >= HSA_EXTENSION_AMD_PROFILER && extension <= HSA_EXTENSION_AMD_AQLPROFILE);
}

bool hl_extension_supported(uint16_t extension, uint16_t *major, uint16_t *minor)
{
	switch (extension) {
	case HSA_EXTENSION_AMD_LOADER:
		*major = LOADER_MAJOR;
		*minor = LOADER_MINOR;
		return true;
	case HSA_EXTENSION_IMAGES:
		*major = IMAGES_MAJOR;
		*minor = IMAGES_MINOR;
		return true;
	default:
		return false;
	}
}

void hl_extension_mask(uint8_t mask[128], bool agent_level)
{
	memset(mask, 0, 128);
	if (!agent_level) {
		mask[HSA_EXTENSION_AMD_LOADER / 8] |= 1u << (HSA_EXTENSION_AMD_LOADER % 8);
		mask[HSA_EXTENSION_IMAGES / 8] |= 1u << (HSA_EXTENSION_IMAGES % 8);
	}
}

/* ---- the images table (src/image) ---- */

static const hsa_ext_images_1_pfn_t images_table = {
	.hsa_ext_image_get_capability = hsa_ext_image_get_capability,
	.hsa_ext_image_data_get_info = hsa_ext_image_data_get_info,
	.hsa_ext_image_create = hsa_ext_image_create,
	.hsa_ext_image_destroy = hsa_ext_image_destroy,
	.hsa_ext_image_copy = hsa_ext_image_copy,
	.hsa_ext_image_import = hsa_ext_image_import,
	.hsa_ext_image_export = hsa_ext_image_export,
	.hsa_ext_image_clear = hsa_ext_image_clear,
	.hsa_ext_sampler_create = hsa_ext_sampler_create,
	.hsa_ext_sampler_destroy = hsa_ext_sampler_destroy,
	.hsa_ext_image_get_capability_with_layout = hsa_ext_image_get_capability_with_layout,
	.hsa_ext_image_data_get_info_with_layout = hsa_ext_image_data_get_info_with_layout,
	.hsa_ext_image_create_with_layout = hsa_ext_image_create_with_layout,
};

/* ---- the AMD loader table, pending src/loader ---- */

static hsa_status_t loader_pending(const char *what)
{
	hl_warn("loader", "%s: code-object loading is not implemented yet", what);
	return HSA_STATUS_ERROR;
}

static hsa_status_t loader_query_host_address(const void *device_address, const void **host)
{
	if (!hl_runtime_get())
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!device_address || !host)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	return loader_pending("hsa_ven_amd_loader_query_host_address");
}

static hsa_status_t loader_query_segment_descriptors(hsa_ven_amd_loader_segment_descriptor_t *d,
						     size_t *n)
{
	if (!hl_runtime_get())
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!n)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	(void)d;
	return loader_pending("hsa_ven_amd_loader_query_segment_descriptors");
}

static hsa_status_t loader_query_executable(const void *device_address, hsa_executable_t *exe)
{
	if (!hl_runtime_get())
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!device_address || !exe)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	return loader_pending("hsa_ven_amd_loader_query_executable");
}

static hsa_status_t loader_iterate_loaded_code_objects(
	hsa_executable_t exe,
	hsa_status_t (*cb)(hsa_executable_t, hsa_loaded_code_object_t, void *), void *data)
{
	if (!hl_runtime_get())
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!cb)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	(void)exe;
	(void)data;
	return loader_pending("hsa_ven_amd_loader_executable_iterate_loaded_code_objects");
}

static hsa_status_t loader_loaded_code_object_get_info(
	hsa_loaded_code_object_t lco, hsa_ven_amd_loader_loaded_code_object_info_t attr, void *v)
{
	if (!hl_runtime_get())
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!v)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	(void)lco;
	(void)attr;
	return loader_pending("hsa_ven_amd_loader_loaded_code_object_get_info");
}

static hsa_status_t loader_reader_create_from_file_with_offset_size(
	hsa_file_t file, size_t offset, size_t size, hsa_code_object_reader_t *reader)
{
	if (!hl_runtime_get())
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!reader || size == 0)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	(void)file;
	(void)offset;
	return loader_pending("hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size");
}

static hsa_status_t loader_iterate_executables(hsa_status_t (*cb)(hsa_executable_t, void *),
					       void *data)
{
	if (!hl_runtime_get())
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!cb)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	(void)data;
	return loader_pending("hsa_ven_amd_loader_iterate_executables");
}

/* Defined by src/loader when it exists: the real entries. */
const hsa_ven_amd_loader_1_03_pfn_t *hl_loader_table(void)
	__attribute__((weak, visibility("hidden")));

static const hsa_ven_amd_loader_1_03_pfn_t pending_loader_table = {
	.hsa_ven_amd_loader_query_host_address = loader_query_host_address,
	.hsa_ven_amd_loader_query_segment_descriptors = loader_query_segment_descriptors,
	.hsa_ven_amd_loader_query_executable = loader_query_executable,
	.hsa_ven_amd_loader_executable_iterate_loaded_code_objects =
		loader_iterate_loaded_code_objects,
	.hsa_ven_amd_loader_loaded_code_object_get_info = loader_loaded_code_object_get_info,
	.hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size =
		loader_reader_create_from_file_with_offset_size,
	.hsa_ven_amd_loader_iterate_executables = loader_iterate_executables,
};

/* Bytes of the loader table up to and including minor version `minor`. */
static size_t loader_table_size(uint16_t minor)
{
	switch (minor) {
	case 0:
		return sizeof(hsa_ven_amd_loader_1_00_pfn_t);
	case 1:
		return sizeof(hsa_ven_amd_loader_1_01_pfn_t);
	case 2:
		return sizeof(hsa_ven_amd_loader_1_02_pfn_t);
	default:
		return sizeof(hsa_ven_amd_loader_1_03_pfn_t);
	}
}

/* ---- API ---- */

hsa_status_t hsa_extension_get_name(uint16_t extension, const char **name)
{
	if (!hl_runtime_get())
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!name)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	switch (extension) {
	case HSA_EXTENSION_FINALIZER:
		*name = "HSA_EXTENSION_FINALIZER";
		break;
	case HSA_EXTENSION_IMAGES:
		*name = "HSA_EXTENSION_IMAGES";
		break;
	case HSA_EXTENSION_PERFORMANCE_COUNTERS:
		*name = "HSA_EXTENSION_PERFORMANCE_COUNTERS";
		break;
	case HSA_EXTENSION_PROFILING_EVENTS:
		*name = "HSA_EXTENSION_PROFILING_EVENTS";
		break;
	case HSA_EXTENSION_AMD_PROFILER:
		*name = "HSA_EXTENSION_AMD_PROFILER";
		break;
	case HSA_EXTENSION_AMD_LOADER:
		*name = "HSA_EXTENSION_AMD_LOADER";
		break;
	case HSA_EXTENSION_AMD_AQLPROFILE:
		*name = "HSA_EXTENSION_AMD_AQLPROFILE";
		break;
	default:
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	}
	return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_system_extension_supported(uint16_t extension, uint16_t version_major,
					    uint16_t version_minor, bool *result)
{
	if (!hl_runtime_get())
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!result || !extension_valid(extension))
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	uint16_t major, minor;
	*result = hl_extension_supported(extension, &major, &minor) && version_major == major &&
		  version_minor <= minor;
	return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_system_major_extension_supported(uint16_t extension, uint16_t version_major,
						  uint16_t *version_minor, bool *result)
{
	if (!hl_runtime_get())
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!result || !version_minor || !extension_valid(extension))
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	uint16_t major, minor;
	*result = hl_extension_supported(extension, &major, &minor) && version_major == major;
	if (*result)
		*version_minor = minor;
	return HSA_STATUS_SUCCESS;
}

static hsa_status_t copy_table(uint16_t extension, uint16_t version_major, size_t max_minor_size,
			       size_t length, void *table)
{
	uint16_t major, minor;
	if (!hl_extension_supported(extension, &major, &minor) || version_major != major)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	size_t size = length < max_minor_size ? length : max_minor_size;
	if (extension == HSA_EXTENSION_IMAGES) {
		memcpy(table, &images_table, size);
		return HSA_STATUS_SUCCESS;
	}
	const hsa_ven_amd_loader_1_03_pfn_t *t = hl_loader_table ? hl_loader_table() : NULL;
	memcpy(table, t ? t : &pending_loader_table, size);
	return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_system_get_major_extension_table(uint16_t extension, uint16_t version_major,
						  size_t table_length, void *table)
{
	if (!hl_runtime_get())
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!table || table_length == 0 || !extension_valid(extension))
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	size_t max = extension == HSA_EXTENSION_IMAGES ? sizeof(images_table)
						       : sizeof(pending_loader_table);
	return copy_table(extension, version_major, max, table_length, table);
}

hsa_status_t hsa_system_get_extension_table(uint16_t extension, uint16_t version_major,
					    uint16_t version_minor, void *table)
{
	if (!hl_runtime_get())
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!table || !extension_valid(extension))
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	uint16_t major, minor;
	if (!hl_extension_supported(extension, &major, &minor) || version_minor > minor)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	size_t size = extension == HSA_EXTENSION_IMAGES ? sizeof(hsa_ext_images_1_00_pfn_t)
							: loader_table_size(version_minor);
	return copy_table(extension, version_major, size, size, table);
}

static hsa_status_t agent_extension_check(hsa_agent_t agent, uint16_t extension, bool *result,
					  uint8_t mask[128])
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!result || !extension_valid(extension))
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	if (!hl_agent_lookup(rt, agent))
		return HSA_STATUS_ERROR_INVALID_AGENT;
	hsa_agent_get_info(agent, HSA_AGENT_INFO_EXTENSIONS, mask);
	return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_agent_extension_supported(uint16_t extension, hsa_agent_t agent,
					   uint16_t version_major, uint16_t version_minor,
					   bool *result)
{
	uint8_t mask[128];
	hsa_status_t s = agent_extension_check(agent, extension, result, mask);
	if (s != HSA_STATUS_SUCCESS)
		return s;
	uint16_t major, minor;
	*result = (mask[extension / 8] & (1u << (extension % 8))) &&
		  hl_extension_supported(extension, &major, &minor) && version_major == major &&
		  version_minor <= minor;
	return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_agent_major_extension_supported(uint16_t extension, hsa_agent_t agent,
						 uint16_t version_major, uint16_t *version_minor,
						 bool *result)
{
	uint8_t mask[128];
	if (!version_minor)
		return hl_runtime_get() ? HSA_STATUS_ERROR_INVALID_ARGUMENT
					: HSA_STATUS_ERROR_NOT_INITIALIZED;
	hsa_status_t s = agent_extension_check(agent, extension, result, mask);
	if (s != HSA_STATUS_SUCCESS)
		return s;
	uint16_t major, minor;
	*result = (mask[extension / 8] & (1u << (extension % 8))) &&
		  hl_extension_supported(extension, &major, &minor) && version_major == major;
	if (*result)
		*version_minor = minor;
	return HSA_STATUS_SUCCESS;
}
