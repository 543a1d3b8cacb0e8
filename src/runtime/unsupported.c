/*
 * The exported functions for which ROCr 5.2.3 has no working
 * implementation either, in one place: hsalite returns exactly what ROCr
 * returns, after the same argument checks (hsa.cpp IS_OPEN ->
 * NOT_INITIALIZED, IS_BAD_PTR -> INVALID_ARGUMENT, an invalid pool ->
 * INVALID_MEMORY_POOL), and logs (warn) why.  docs/differences.md lists them.
 *  - The finalizer (hsa_ext_program_*): ROCr's table entries stay
 *    hsa_ext_null, which returns HSA_STATUS_ERROR_NOT_INITIALIZED whatever
 *    the arguments, because no libhsa-ext-finalize64.so.1 ships
 *    (hsa_ext_interface.cpp).
 *  - hsa_amd_memory_migrate, hsa_amd_memory_pool_can_migrate: ROCr
 *    validates, then MemoryRegion::Migrate / CanMigrate ("not implemented
 *    yet") return OUT_OF_RESOURCES (can_migrate also stores false).
 * Every other function ROCr exports is implemented (graphics interop, the
 * last one once here that returned NOT_SUPPORTED, is interop.c).
 */
#include "hsa/hsa.h"
#include "hsa/hsa_ext_amd.h"
#include "hsa/hsa_ext_finalize.h"
#include "runtime/runtime.h"
#include "util/log.h"

#define UNSUP_LOG "api"

#define REQUIRE_RUNTIME(rt)                                       \
	struct hl_runtime *rt = hl_runtime_get();                 \
	if (!rt)                                                  \
		return HSA_STATUS_ERROR_NOT_INITIALIZED

static hsa_status_t no_finalizer(const char *fn)
{
	hl_warn(UNSUP_LOG, "%s: no HSAIL finalizer (none ships with ROCr either); returning "
		"HSA_STATUS_ERROR_NOT_INITIALIZED as ROCr does", fn);
	return HSA_STATUS_ERROR_NOT_INITIALIZED;
}

hsa_status_t hsa_ext_program_create(hsa_machine_model_t machine_model, hsa_profile_t profile,
				    hsa_default_float_rounding_mode_t default_float_rounding_mode,
				    const char *options, hsa_ext_program_t *program)
{
	(void)machine_model;
	(void)profile;
	(void)default_float_rounding_mode;
	(void)options;
	(void)program;
	return no_finalizer(__func__);
}

hsa_status_t hsa_ext_program_destroy(hsa_ext_program_t program)
{
	(void)program;
	return no_finalizer(__func__);
}

hsa_status_t hsa_ext_program_add_module(hsa_ext_program_t program, hsa_ext_module_t module)
{
	(void)program;
	(void)module;
	return no_finalizer(__func__);
}

hsa_status_t hsa_ext_program_iterate_modules(
	hsa_ext_program_t program,
	hsa_status_t (*callback)(hsa_ext_program_t program, hsa_ext_module_t module, void *data),
	void *data)
{
	(void)program;
	(void)callback;
	(void)data;
	return no_finalizer(__func__);
}

hsa_status_t hsa_ext_program_get_info(hsa_ext_program_t program,
				      hsa_ext_program_info_t attribute, void *value)
{
	(void)program;
	(void)attribute;
	(void)value;
	return no_finalizer(__func__);
}

hsa_status_t hsa_ext_program_finalize(hsa_ext_program_t program, hsa_isa_t isa,
				      int32_t call_convention,
				      hsa_ext_control_directives_t control_directives,
				      const char *options, hsa_code_object_type_t code_object_type,
				      hsa_code_object_t *code_object)
{
	(void)program;
	(void)isa;
	(void)call_convention;
	(void)control_directives;
	(void)options;
	(void)code_object_type;
	(void)code_object;
	return no_finalizer(__func__);
}

/* A memory pool handle as ROCr's MemoryRegion::Convert + IsValid sees it. */
static bool pool_valid(struct hl_runtime *rt, hsa_amd_memory_pool_t pool)
{
	return pool.handle && hl_pool_lookup(rt, pool.handle);
}

hsa_status_t hsa_amd_memory_migrate(const void *ptr, hsa_amd_memory_pool_t memory_pool,
				    uint32_t flags)
{
	REQUIRE_RUNTIME(rt);
	if (!ptr || flags)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	if (!pool_valid(rt, memory_pool))
		return (hsa_status_t)HSA_STATUS_ERROR_INVALID_MEMORY_POOL;
	hl_warn(UNSUP_LOG, "hsa_amd_memory_migrate: migration is not implemented (nor in "
		"ROCr 5.2.3); returning HSA_STATUS_ERROR_OUT_OF_RESOURCES as ROCr does");
	return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
}

hsa_status_t hsa_amd_memory_pool_can_migrate(hsa_amd_memory_pool_t src_memory_pool,
					     hsa_amd_memory_pool_t dst_memory_pool, bool *result)
{
	REQUIRE_RUNTIME(rt);
	if (!result)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	if (!pool_valid(rt, src_memory_pool) || !pool_valid(rt, dst_memory_pool))
		return (hsa_status_t)HSA_STATUS_ERROR_INVALID_MEMORY_POOL;
	*result = false;
	hl_warn(UNSUP_LOG, "hsa_amd_memory_pool_can_migrate: migration is not implemented (nor "
		"in ROCr 5.2.3); false, HSA_STATUS_ERROR_OUT_OF_RESOURCES as ROCr does");
	return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
}
