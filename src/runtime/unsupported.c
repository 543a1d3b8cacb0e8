/*
 * The exported functions hsalite does not implement (yet), in one place,
 * so that every symbol ROCr 5.2.3 exports resolves (a program linked
 * against ROCr loads and runs until it calls one of these) and so that
 * what is missing is visible at a glance.  docs/differences.md lists them.
 *
 * Each function checks what ROCr 5.2.3 checks before it reaches its
 * implementation, where that is cheap and needs nothing we lack, and
 * returns the same status for the same mistake (hsa.cpp IS_OPEN ->
 * NOT_INITIALIZED, IS_BAD_PTR -> INVALID_ARGUMENT, an invalid agent ->
 * INVALID_AGENT, Signal::Convert: handle 0 -> INVALID_ARGUMENT, else an
 * unknown handle -> INVALID_SIGNAL).  Then it logs (warn) that the call is
 * not implemented and returns HSA_STATUS_ERROR_NOT_SUPPORTED.
 *
 * Three groups:
 *  1. ROCr has no working implementation either: we return exactly what
 *     ROCr 5.2.3 returns.
 *     - The finalizer (hsa_ext_program_*): ROCr's table entries stay
 *       hsa_ext_null, which returns HSA_STATUS_ERROR_NOT_INITIALIZED
 *       whatever the arguments, because no libhsa-ext-finalize64.so.1
 *       ships (hsa_ext_interface.cpp).
 *     - hsa_amd_memory_migrate, hsa_amd_memory_pool_can_migrate: ROCr
 *       validates, then MemoryRegion::Migrate / CanMigrate ("not
 *       implemented yet") return OUT_OF_RESOURCES (can_migrate also
 *       stores false).
 *  2. A later issue (graphics interop): NOT_SUPPORTED.
 *  3. PLACEHOLDERS, to be deleted from this file by whoever implements them
 *     (async copies, fills and their profiling): NOT_SUPPORTED.
 */
#include "hsa/hsa.h"
#include "hsa/hsa_ext_amd.h"
#include "hsa/hsa_ext_finalize.h"
#include "runtime/runtime.h"
#include "util/log.h"

#define UNSUP_LOG "api"

static hsa_status_t not_implemented(const char *fn)
{
	hl_warn(UNSUP_LOG, "%s: not implemented in hsalite; returning "
		"HSA_STATUS_ERROR_NOT_SUPPORTED", fn);
	return (hsa_status_t)HSA_STATUS_ERROR_NOT_SUPPORTED;
}

#define REQUIRE_RUNTIME(rt)                                       \
	struct hl_runtime *rt = hl_runtime_get();                 \
	if (!rt)                                                  \
		return HSA_STATUS_ERROR_NOT_INITIALIZED

/* ======================================================================
 * 1. No implementation in ROCr 5.2.3 either: ROCr's exact statuses.
 * ====================================================================== */

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

/* ======================================================================
 * 2. Not implemented yet (a later issue): graphics interop.
 * ====================================================================== */

/* ---- graphics interop ---- */

hsa_status_t hsa_amd_interop_map_buffer(uint32_t num_agents, hsa_agent_t *agents,
					int interop_handle, uint32_t flags, size_t *size,
					void **ptr, size_t *metadata_size, const void **metadata)
{
	REQUIRE_RUNTIME(rt);
	(void)interop_handle;
	(void)metadata_size;
	(void)metadata;
	if (!agents || !size || !ptr || flags || !num_agents)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	for (uint32_t i = 0; i < num_agents; i++)
		if (!hl_agent_lookup(rt, agents[i]))
			return HSA_STATUS_ERROR_INVALID_AGENT;
	return not_implemented(__func__);
}

hsa_status_t hsa_amd_interop_unmap_buffer(void *ptr)
{
	REQUIRE_RUNTIME(rt);
	(void)rt;
	/* ROCr ignores NULL (and every unmap failure): SUCCESS. */
	if (!ptr)
		return HSA_STATUS_SUCCESS;
	return not_implemented(__func__);
}

/* ======================================================================
 * 3. PLACEHOLDERS.  Whoever implements one of these deletes it from here.
 *    Async copies, fills and their profiling (the copy engines).
 * ====================================================================== */

