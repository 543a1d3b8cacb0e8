/*
 * The runtime without a device (label unit, run outside kfdemu): every public
 * call made before hsa_init returns NOT_INITIALIZED without touching its
 * arguments, and hsa_init fails cleanly with ROCr's OUT_OF_RESOURCES when
 * /dev/kfd is missing, logging the cause and the fix.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hl_check.h"
#include "hsa/hsa_ven_amd_loader.h"
#include "rt_test.h"

static hsa_status_t never_called(hsa_agent_t a, void *d)
{
	(void)a;
	(void)d;
	ck_abort_msg("callback called before hsa_init");
	return HSA_STATUS_ERROR;
}

START_TEST(system_calls_before_init_are_not_initialized)
{
	uint64_t v;
	bool b;
	uint16_t minor;
	const char *name;
	uint8_t table[64];
	ck_status(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &v), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_iterate_agents(never_called, NULL), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_system_extension_supported(HSA_EXTENSION_AMD_LOADER, 1, 0, &b),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_system_major_extension_supported(HSA_EXTENSION_AMD_LOADER, 1, &minor, &b),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_LOADER, 1, sizeof(table),
						       table),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_system_get_extension_table(HSA_EXTENSION_AMD_LOADER, 1, 0, table),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_extension_get_name(HSA_EXTENSION_AMD_LOADER, &name),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
}
END_TEST

START_TEST(agent_calls_before_init_are_not_initialized)
{
	hsa_agent_t agent = { RT_BOGUS_HANDLE };
	uint32_t v;
	uint16_t m;
	bool b;
	ck_status(hsa_agent_get_info(agent, HSA_AGENT_INFO_NODE, &v), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_agent_iterate_isas(agent, NULL, NULL), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_agent_iterate_caches(agent, NULL, NULL), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_agent_iterate_regions(agent, NULL, NULL), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_agent_iterate_memory_pools(agent, NULL, NULL),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_agent_get_exception_policies(agent, HSA_PROFILE_BASE, &m),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_agent_extension_supported(HSA_EXTENSION_AMD_LOADER, agent, 1, 0, &b),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_agent_major_extension_supported(HSA_EXTENSION_AMD_LOADER, agent, 1, &m, &b),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
	hsa_cache_t cache = { RT_BOGUS_HANDLE };
	ck_status(hsa_cache_get_info(cache, HSA_CACHE_INFO_LEVEL, &v), HSA_STATUS_ERROR_NOT_INITIALIZED);
}
END_TEST

START_TEST(isa_calls_before_init_are_not_initialized)
{
	hsa_isa_t isa = { RT_BOGUS_HANDLE };
	hsa_wavefront_t wf = { RT_BOGUS_HANDLE };
	uint32_t v;
	uint16_t m;
	bool b;
	hsa_round_method_t rm;
	ck_status(hsa_isa_from_name("amdgcn-amd-amdhsa--gfx90a", &isa),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_isa_get_info(isa, HSA_ISA_INFO_NAME_LENGTH, 0, &v),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME_LENGTH, &v),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_isa_compatible(isa, isa, &b), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_isa_iterate_wavefronts(isa, NULL, NULL), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_wavefront_get_info(wf, HSA_WAVEFRONT_INFO_SIZE, &v),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_isa_get_exception_policies(isa, HSA_PROFILE_BASE, &m),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_isa_get_round_method(isa, HSA_FP_TYPE_32, HSA_FLUSH_MODE_FTZ, &rm),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
}
END_TEST

START_TEST(memory_calls_before_init_are_not_initialized)
{
	hsa_region_t region = { RT_BOGUS_HANDLE };
	hsa_amd_memory_pool_t pool = { RT_BOGUS_HANDLE };
	hsa_agent_t agent = { RT_BOGUS_HANDLE };
	char buf[64];
	void *p;
	uint32_t v;
	hsa_amd_pointer_info_t info = { .size = sizeof(info) };
	ck_status(hsa_region_get_info(region, HSA_REGION_INFO_SIZE, &v),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SIZE, &v),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_agent_memory_pool_get_info(agent, pool,
						     HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS, &v),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_memory_pool_allocate(pool, 4096, 0, &p), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_memory_pool_free(buf), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_memory_allocate(region, 4096, &p), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_memory_free(buf), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_agents_allow_access(1, &agent, NULL, buf), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_memory_register(buf, sizeof(buf)), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_memory_deregister(buf, sizeof(buf)), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_memory_copy(buf, buf + 32, 16), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_memory_assign_agent(buf, agent, HSA_ACCESS_PERMISSION_RW),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_pointer_info(buf, &info, NULL, NULL, NULL),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_pointer_info_set_userdata(buf, NULL), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_memory_lock(buf, sizeof(buf), NULL, 0, &p),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_memory_lock_to_pool(buf, sizeof(buf), NULL, 0, pool, 0, &p),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_memory_unlock(buf), HSA_STATUS_ERROR_NOT_INITIALIZED);
	hsa_amd_coherency_type_t type;
	ck_status(hsa_amd_coherency_get_type(agent, &type), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_coherency_set_type(agent, HSA_AMD_COHERENCY_TYPE_COHERENT),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
}
END_TEST

START_TEST(shut_down_before_init_is_not_initialized)
{
	ck_status(hsa_shut_down(), HSA_STATUS_ERROR_NOT_INITIALIZED);
}
END_TEST

/* Needs a machine without /dev/kfd (and not under kfdemu): the CI host. */
START_TEST(init_without_kfd_is_out_of_resources_and_logs_the_fix)
{
	if (access("/dev/kfd", F_OK) == 0)
		return; /* a real or emulated KFD is present: nothing to check */
	ck_status(hsa_init(), HSA_STATUS_ERROR_OUT_OF_RESOURCES);

	const char *path = getenv("HSALITE_LOG_FILE");
	ck_assert_msg(path != NULL, "the test runs with HSALITE_LOG_FILE set");
	FILE *f = fopen(path, "r");
	ck_assert_msg(f != NULL, "log file %s not written", path);
	char buf[4096] = { 0 };
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	ck_assert_msg(n > 0 && strstr(buf, "/dev/kfd: ENOENT") &&
		      strstr(buf, "the amdgpu driver is not loaded, or run under kfdemu"),
		      "log lacks the cause and the fix: '%s'", buf);
}
END_TEST

START_TEST(failed_init_leaves_the_runtime_uninitialized)
{
	if (access("/dev/kfd", F_OK) == 0)
		return;
	ck_status(hsa_init(), HSA_STATUS_ERROR_OUT_OF_RESOURCES);
	uint16_t major;
	ck_status(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_shut_down(), HSA_STATUS_ERROR_NOT_INITIALIZED);
}
END_TEST

static Suite *uninit_suite(void)
{
	Suite *s = suite_create("runtime_uninit");
	TCase *tc = tcase_create("uninit");
	tcase_add_test(tc, system_calls_before_init_are_not_initialized);
	tcase_add_test(tc, agent_calls_before_init_are_not_initialized);
	tcase_add_test(tc, isa_calls_before_init_are_not_initialized);
	tcase_add_test(tc, memory_calls_before_init_are_not_initialized);
	tcase_add_test(tc, shut_down_before_init_is_not_initialized);
	tcase_add_test(tc, init_without_kfd_is_out_of_resources_and_logs_the_fix);
	tcase_add_test(tc, failed_init_leaves_the_runtime_uninitialized);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(uninit_suite)
