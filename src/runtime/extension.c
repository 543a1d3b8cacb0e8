/*
 * Extensions: which ones we support, at which version, and the function
 * tables their owners register.
 *
 * Supported: HSA_EXTENSION_AMD_LOADER 1.03 (the table HIP fetches with
 * hsa_system_get_major_extension_table; src/loader owns it) and
 * HSA_EXTENSION_IMAGES 1.0 (src/image: hsa_ext_images_1_pfn_t, the ten
 * 1.00 entries then the three *_with_layout ones, as ROCr 5.2.3 serves it;
 * GPU agents with images set its bit in their own mask and answer its
 * agent attributes).  Each owner describes its extension with
 * hl_extension_register when the module attaches to a runtime (hsa_init,
 * src/modules.c), so this file names no module above the runtime: it keeps
 * the list and the versions, the owners keep the tables.  An extension on
 * the list whose owner did not register is reported unsupported.  Every
 * other extension (the finalizer, performance counters, profiling events,
 * the AMD profiler and aqlprofile) is unsupported: queries say so.  A table
 * request for one, or for a major version we do not have, answers as ROCr's
 * (5.2.3 and 1.18, hsa.cpp): hsa_system_get_major_extension_table fails
 * with HSA_STATUS_ERROR (what ROCr gives when, e.g., aqlprofile's library is
 * absent: tools such as roctracer's test the call and go on without it), and
 * INVALID_ARGUMENT is kept for a NULL table or a zero length;
 * hsa_system_get_extension_table fails with INVALID_ARGUMENT (ROCr finds no
 * table length for it).
 */
#include <errno.h>
#include <string.h>

#include "hsa/hsa_ext_image.h"
#include "hsa/hsa_ven_amd_loader.h"
#include "runtime/runtime.h"
#include "util/log.h"
#include "runtime/runtime_priv.h"

#define LOADER_MAJOR 1
#define LOADER_MINOR 3
#define IMAGES_MAJOR 1
#define IMAGES_MINOR 0

static bool extension_valid(uint16_t extension)
{
	return extension <= HSA_EXTENSION_STD_LAST ||
	       (extension >= HSA_EXTENSION_AMD_PROFILER && extension <= HSA_EXTENSION_AMD_AQLPROFILE);
}

/* The slot of an extension on our list in rt->extensions, or -1. */
static int extension_slot(uint16_t extension)
{
	switch (extension) {
	case HSA_EXTENSION_AMD_LOADER: return 0;
	case HSA_EXTENSION_IMAGES:     return 1;
	default:                       return -1;
	}
}

int hl_extension_register(struct hl_runtime *rt, const struct hl_extension *ext)
{
	int slot = ext ? extension_slot(ext->id) : -1;
	if (slot < 0 || !ext->table || !ext->size ||
	    (ext->agent_info && ext->agent_attr_first > ext->agent_attr_last))
		return -EINVAL;
	_Static_assert(HL_EXTENSIONS_MAX == 2, "one slot per extension_slot case");
	rt->extensions[slot] = ext;
	return 0;
}

/* The registered extension, with its version, or NULL when unsupported. */
static const struct hl_extension *extension_supported(const struct hl_runtime *rt,
						      uint16_t extension, uint16_t *major,
						      uint16_t *minor)
{
	int slot = extension_slot(extension);
	if (slot < 0 || !rt->extensions[slot])
		return NULL;
	switch (extension) {
	case HSA_EXTENSION_AMD_LOADER:
		*major = LOADER_MAJOR;
		*minor = LOADER_MINOR;
		break;
	default: /* HSA_EXTENSION_IMAGES */
		*major = IMAGES_MAJOR;
		*minor = IMAGES_MINOR;
		break;
	}
	return rt->extensions[slot];
}

void hl_extension_mask(const struct hl_runtime *rt, const struct hl_agent *agent,
		       uint8_t mask[128])
{
	memset(mask, 0, 128);
	for (uint32_t i = 0; i < HL_EXTENSIONS_MAX; i++) {
		const struct hl_extension *ext = rt->extensions[i];
		if (!ext || (agent && !(ext->agent_supported && ext->agent_supported(agent))))
			continue;
		mask[ext->id / 8] |= (uint8_t)(1u << (ext->id % 8));
	}
}

hsa_status_t hl_extension_agent_info(const struct hl_runtime *rt, const struct hl_agent *agent,
				     uint32_t attribute, void *value, bool *answered)
{
	for (uint32_t i = 0; i < HL_EXTENSIONS_MAX; i++) {
		const struct hl_extension *ext = rt->extensions[i];
		if (ext && ext->agent_info && attribute >= ext->agent_attr_first &&
		    attribute <= ext->agent_attr_last) {
			*answered = true;
			return ext->agent_info(agent, attribute, value);
		}
	}
	*answered = false;
	return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

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
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!result || !extension_valid(extension))
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	uint16_t major, minor;
	*result = extension_supported(rt, extension, &major, &minor) && version_major == major &&
		  version_minor <= minor;
	return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_system_major_extension_supported(uint16_t extension, uint16_t version_major,
						  uint16_t *version_minor, bool *result)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!result || !version_minor || !extension_valid(extension))
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	uint16_t major, minor;
	*result = extension_supported(rt, extension, &major, &minor) && version_major == major;
	if (*result)
		*version_minor = minor;
	return HSA_STATUS_SUCCESS;
}

/* Copies the first `size` bytes the caller asked for (at most the bytes of
 * the versions up to max_minor_size) of a supported extension's table. */
static hsa_status_t copy_table(const struct hl_runtime *rt, uint16_t extension,
			       uint16_t version_major, size_t max_minor_size, size_t length,
			       void *table)
{
	uint16_t major, minor;
	const struct hl_extension *ext = extension_supported(rt, extension, &major, &minor);
	if (!ext || version_major != major) {
		hl_debug("runtime", "extension 0x%x major %u: no table (%s)", extension,
			 version_major, ext ? "another major version" : "not supported");
		return HSA_STATUS_ERROR;
	}
	size_t size = length < max_minor_size ? length : max_minor_size;
	if (size > ext->size)
		size = ext->size;
	memcpy(table, ext->table, size);
	return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_system_get_major_extension_table(uint16_t extension, uint16_t version_major,
						  size_t table_length, void *table)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!table || table_length == 0)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	if (!extension_valid(extension)) {
		hl_debug("runtime", "extension 0x%x: no such extension", extension);
		return HSA_STATUS_ERROR;
	}
	size_t max = extension == HSA_EXTENSION_IMAGES ? sizeof(hsa_ext_images_1_pfn_t)
						       : sizeof(hsa_ven_amd_loader_1_03_pfn_t);
	return copy_table(rt, extension, version_major, max, table_length, table);
}

hsa_status_t hsa_system_get_extension_table(uint16_t extension, uint16_t version_major,
					    uint16_t version_minor, void *table)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!table || !extension_valid(extension))
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	uint16_t major, minor;
	if (!extension_supported(rt, extension, &major, &minor) || version_major != major ||
	    version_minor > minor)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	size_t size = extension == HSA_EXTENSION_IMAGES ? sizeof(hsa_ext_images_1_00_pfn_t)
							: loader_table_size(version_minor);
	return copy_table(rt, extension, version_major, size, size, table);
}

static hsa_status_t agent_extension_check(hsa_agent_t agent, uint16_t extension, bool *result,
					  uint8_t mask[128], struct hl_runtime **out)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!result || !extension_valid(extension))
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	if (!hl_agent_lookup(rt, agent))
		return HSA_STATUS_ERROR_INVALID_AGENT;
	hsa_agent_get_info(agent, HSA_AGENT_INFO_EXTENSIONS, mask);
	*out = rt;
	return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_agent_extension_supported(uint16_t extension, hsa_agent_t agent,
					   uint16_t version_major, uint16_t version_minor,
					   bool *result)
{
	uint8_t mask[128];
	struct hl_runtime *rt;
	hsa_status_t s = agent_extension_check(agent, extension, result, mask, &rt);
	if (s != HSA_STATUS_SUCCESS)
		return s;
	uint16_t major, minor;
	*result = (mask[extension / 8] & (1u << (extension % 8))) &&
		  extension_supported(rt, extension, &major, &minor) && version_major == major &&
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
	struct hl_runtime *rt;
	hsa_status_t s = agent_extension_check(agent, extension, result, mask, &rt);
	if (s != HSA_STATUS_SUCCESS)
		return s;
	uint16_t major, minor;
	*result = (mask[extension / 8] & (1u << (extension % 8))) &&
		  extension_supported(rt, extension, &major, &minor) && version_major == major;
	if (*result)
		*version_minor = minor;
	return HSA_STATUS_SUCCESS;
}
