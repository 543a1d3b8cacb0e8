/*
 * The HSA 1.0 code object API (hsa_code_object_*, hsa_code_symbol_*,
 * hsa_executable_load_code_object), deprecated since HSA 1.1 and built for
 * BRIG-finalised code object v1/v2.
 *
 * hsalite loads code objects only through readers (v4/v5); this API is
 * refused, honestly: hsa_code_object_deserialize returns NOT_SUPPORTED
 * (with a log line saying what to use instead), so no hsa_code_object_t
 * ever exists, and every function taking one answers INVALID_CODE_OBJECT
 * (INVALID_CODE_SYMBOL for a code symbol) after the usual NULL and
 * initialisation checks.
 */
#include "hsa/hsa_ext_amd.h"
#include "loader/loader_priv.h"
#include "runtime/runtime.h"
#include "util/log.h"

#define LOG "loader"

hsa_status_t hsa_code_object_serialize(hsa_code_object_t code_object,
	hsa_status_t (*alloc_callback)(size_t size, hsa_callback_data_t data, void **address),
	hsa_callback_data_t callback_data, const char *options, void **serialized_code_object,
	size_t *serialized_code_object_size)
{
	(void)code_object;
	(void)callback_data;
	(void)options;
	if (!hl_runtime_get())
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!alloc_callback || !serialized_code_object || !serialized_code_object_size)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
}

hsa_status_t hsa_code_object_deserialize(void *serialized_code_object,
					 size_t serialized_code_object_size, const char *options,
					 hsa_code_object_t *code_object)
{
	(void)options;
	if (!hl_runtime_get())
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!serialized_code_object || serialized_code_object_size == 0 || !code_object)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	hl_error(LOG, "hsa_code_object_deserialize: the HSA 1.0 code object API is not supported; "
		 "use hsa_code_object_reader_create_from_memory and "
		 "hsa_executable_load_agent_code_object");
	return (hsa_status_t)HSA_STATUS_ERROR_NOT_SUPPORTED;
}

hsa_status_t hsa_code_object_destroy(hsa_code_object_t code_object)
{
	(void)code_object;
	if (!hl_runtime_get())
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
}

hsa_status_t hsa_code_object_get_info(hsa_code_object_t code_object,
				      hsa_code_object_info_t attribute, void *value)
{
	(void)code_object;
	(void)attribute;
	if (!hl_runtime_get())
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!value)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
}

hsa_status_t hsa_executable_load_code_object(hsa_executable_t executable, hsa_agent_t agent,
					     hsa_code_object_t code_object, const char *options)
{
	(void)code_object;
	(void)options;
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	struct hl_loader_registry *lr = rt->loader;
	hl_loader_lock(lr);
	bool exe_ok = hl_executable_lookup(lr, executable) != NULL;
	hl_loader_unlock(lr);
	if (!exe_ok)
		return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
	if (!hl_agent_lookup(rt, agent))
		return HSA_STATUS_ERROR_INVALID_AGENT;
	return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
}

hsa_status_t hsa_code_object_get_symbol(hsa_code_object_t code_object, const char *symbol_name,
					hsa_code_symbol_t *symbol)
{
	(void)code_object;
	if (!hl_runtime_get())
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!symbol_name || !symbol)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
}

hsa_status_t hsa_code_object_get_symbol_from_name(hsa_code_object_t code_object,
						  const char *module_name, const char *symbol_name,
						  hsa_code_symbol_t *symbol)
{
	(void)module_name;
	return hsa_code_object_get_symbol(code_object, symbol_name, symbol);
}

hsa_status_t hsa_code_symbol_get_info(hsa_code_symbol_t code_symbol,
				      hsa_code_symbol_info_t attribute, void *value)
{
	(void)code_symbol;
	(void)attribute;
	if (!hl_runtime_get())
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!value)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	return HSA_STATUS_ERROR_INVALID_CODE_SYMBOL;
}

hsa_status_t hsa_code_object_iterate_symbols(hsa_code_object_t code_object,
	hsa_status_t (*callback)(hsa_code_object_t, hsa_code_symbol_t, void *), void *data)
{
	(void)code_object;
	(void)data;
	if (!hl_runtime_get())
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!callback)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
}
