/*
 * Argument and handle validation of every runtime call once initialised:
 * NULL outputs, handles that are not runtime objects (a test address, a
 * real handle plus one byte, one past the last agent, a handle of another
 * kind) and unknown attributes each give the status the HSA spec names,
 * never a crash.  Label emu (hsa_init needs the device).
 */
#include <string.h>

#include "hl_check.h"
#include "rt_test.h"

static hsa_agent_t gpu;
static hsa_amd_memory_pool_t pool;
static hsa_isa_t isa;

static hsa_status_t find_gpu(hsa_agent_t agent, void *data)
{
	hsa_device_type_t type;
	hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type);
	if (type == HSA_DEVICE_TYPE_GPU)
		*(hsa_agent_t *)data = agent;
	return HSA_STATUS_SUCCESS;
}

static hsa_status_t first_pool(hsa_amd_memory_pool_t p, void *data)
{
	*(hsa_amd_memory_pool_t *)data = p;
	return HSA_STATUS_INFO_BREAK;
}

static void setup(void)
{
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	gpu.handle = 0;
	ck_status(hsa_iterate_agents(find_gpu, &gpu), HSA_STATUS_SUCCESS);
	ck_assert(gpu.handle != 0);
	ck_status(hsa_amd_agent_iterate_memory_pools(gpu, first_pool, &pool), HSA_STATUS_INFO_BREAK);
	ck_status(hsa_agent_get_info(gpu, HSA_AGENT_INFO_ISA, &isa), HSA_STATUS_SUCCESS);
}

static void teardown(void)
{
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

/* Handles of the right kind that are not objects. */
static uint64_t bad_handles[4];
static void make_bad_handles(uint64_t good)
{
	bad_handles[0] = RT_BOGUS_HANDLE;
	bad_handles[1] = good + 1;    /* inside an object, misaligned */
	bad_handles[2] = 0;
	bad_handles[3] = ~0ull;
}

/* Callbacks that must never run: the call fails before iterating. */
#define NEVER(name, type)                                          \
	static hsa_status_t name(type h, void *d)                  \
	{                                                          \
		(void)h;                                           \
		(void)d;                                           \
		ck_abort_msg(#name " called");                     \
		return HSA_STATUS_ERROR;                           \
	}
NEVER(never_isa, hsa_isa_t)
NEVER(never_cache, hsa_cache_t)
NEVER(never_region, hsa_region_t)
NEVER(never_pool, hsa_amd_memory_pool_t)
NEVER(never_wavefront, hsa_wavefront_t)

START_TEST(null_outputs_are_invalid_argument)
{
	ck_status(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_agent_get_info(gpu, HSA_AGENT_INFO_NAME, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_iterate_agents(NULL, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_agent_iterate_isas(gpu, NULL, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_agent_iterate_caches(gpu, NULL, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_agent_iterate_regions(gpu, NULL, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_agent_iterate_memory_pools(gpu, NULL, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SIZE, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_agent_memory_pool_get_info(gpu, pool, HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS,
						     NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_region_get_info((hsa_region_t){ pool.handle }, HSA_REGION_INFO_SIZE, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_isa_from_name(NULL, &isa), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_isa_from_name("amdgcn-amd-amdhsa--gfx90a", NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_isa_compatible(isa, isa, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_isa_iterate_wavefronts(isa, NULL, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_isa_get_exception_policies(isa, HSA_PROFILE_BASE, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_agent_get_exception_policies(gpu, HSA_PROFILE_BASE, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_isa_get_round_method(isa, HSA_FP_TYPE_32, HSA_FLUSH_MODE_FTZ, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_extension_get_name(HSA_EXTENSION_AMD_LOADER, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_system_extension_supported(HSA_EXTENSION_AMD_LOADER, 1, 0, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_LOADER, 1, 64, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_agent_extension_supported(HSA_EXTENSION_AMD_LOADER, gpu, 1, 0, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
}
END_TEST

START_TEST(bad_agent_handles_are_invalid_agent)
{
	make_bad_handles(gpu.handle);
	for (int i = 0; i < 4; i++) {
		hsa_agent_t a = { bad_handles[i] };
		uint32_t v;
		uint16_t m;
		bool b;
		ck_status(hsa_agent_get_info(a, HSA_AGENT_INFO_NODE, &v),
			  HSA_STATUS_ERROR_INVALID_AGENT);
		ck_status(hsa_agent_iterate_isas(a, never_isa, NULL),
			  HSA_STATUS_ERROR_INVALID_AGENT);
		ck_status(hsa_agent_iterate_caches(a, never_cache, NULL),
			  HSA_STATUS_ERROR_INVALID_AGENT);
		ck_status(hsa_agent_iterate_regions(a, never_region, NULL),
			  HSA_STATUS_ERROR_INVALID_AGENT);
		ck_status(hsa_amd_agent_iterate_memory_pools(a, never_pool, NULL),
			  HSA_STATUS_ERROR_INVALID_AGENT);
		ck_status(hsa_amd_agent_memory_pool_get_info(
				  a, pool, HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS, &v),
			  HSA_STATUS_ERROR_INVALID_AGENT);
		ck_status(hsa_agent_get_exception_policies(a, HSA_PROFILE_BASE, &m),
			  HSA_STATUS_ERROR_INVALID_AGENT);
		ck_status(hsa_agent_extension_supported(HSA_EXTENSION_AMD_LOADER, a, 1, 0, &b),
			  HSA_STATUS_ERROR_INVALID_AGENT);
	}
}
END_TEST

START_TEST(pool_handle_used_as_agent_is_invalid_agent)
{
	hsa_agent_t a = { pool.handle };
	uint32_t v;
	ck_status(hsa_agent_get_info(a, HSA_AGENT_INFO_NODE, &v), HSA_STATUS_ERROR_INVALID_AGENT);
}
END_TEST

START_TEST(bad_pool_and_region_handles_are_rejected)
{
	make_bad_handles(pool.handle);
	for (int i = 0; i < 4; i++) {
		size_t v;
		void *p;
		ck_status(hsa_amd_memory_pool_get_info((hsa_amd_memory_pool_t){ bad_handles[i] },
						       HSA_AMD_MEMORY_POOL_INFO_SIZE, &v),
			  HSA_STATUS_ERROR_INVALID_MEMORY_POOL);
		ck_status(hsa_amd_agent_memory_pool_get_info(
				  gpu, (hsa_amd_memory_pool_t){ bad_handles[i] },
				  HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS, &v),
			  HSA_STATUS_ERROR_INVALID_MEMORY_POOL);
		ck_status(hsa_amd_memory_pool_allocate((hsa_amd_memory_pool_t){ bad_handles[i] },
						       4096, 0, &p),
			  HSA_STATUS_ERROR_INVALID_MEMORY_POOL);
		ck_status(hsa_region_get_info((hsa_region_t){ bad_handles[i] }, HSA_REGION_INFO_SIZE,
					      &v),
			  HSA_STATUS_ERROR_INVALID_REGION);
		ck_status(hsa_memory_allocate((hsa_region_t){ bad_handles[i] }, 4096, &p),
			  HSA_STATUS_ERROR_INVALID_REGION);
	}
}
END_TEST

START_TEST(bad_isa_and_wavefront_handles_are_rejected)
{
	make_bad_handles(isa.handle);
	/* ISA handles are encodings, so "plus one" may name another valid
	 * ISA: corrupt the reserved bits instead. */
	bad_handles[1] = isa.handle | 0x30;
	for (int i = 0; i < 4; i++) {
		hsa_isa_t bad = { bad_handles[i] };
		uint32_t v;
		uint16_t m;
		bool b;
		hsa_round_method_t rm;
		ck_status(hsa_isa_get_info_alt(bad, HSA_ISA_INFO_NAME_LENGTH, &v),
			  HSA_STATUS_ERROR_INVALID_ISA);
		ck_status(hsa_isa_get_info(bad, HSA_ISA_INFO_NAME_LENGTH, 0, &v),
			  HSA_STATUS_ERROR_INVALID_ISA);
		ck_status(hsa_isa_compatible(bad, isa, &b), HSA_STATUS_ERROR_INVALID_ISA);
		ck_status(hsa_isa_iterate_wavefronts(bad, never_wavefront, NULL),
			  HSA_STATUS_ERROR_INVALID_ISA);
		ck_status(hsa_isa_get_exception_policies(bad, HSA_PROFILE_BASE, &m),
			  HSA_STATUS_ERROR_INVALID_ISA);
		ck_status(hsa_isa_get_round_method(bad, HSA_FP_TYPE_32, HSA_FLUSH_MODE_FTZ, &rm),
			  HSA_STATUS_ERROR_INVALID_ISA);
		ck_status(hsa_wavefront_get_info((hsa_wavefront_t){ bad_handles[i] },
						 HSA_WAVEFRONT_INFO_SIZE, &v),
			  HSA_STATUS_ERROR_INVALID_WAVEFRONT);
	}
	/* An ISA handle is not a wavefront handle. */
	uint32_t v;
	ck_status(hsa_wavefront_get_info((hsa_wavefront_t){ isa.handle }, HSA_WAVEFRONT_INFO_SIZE, &v),
		  HSA_STATUS_ERROR_INVALID_WAVEFRONT);
}
END_TEST

START_TEST(bad_cache_handles_are_invalid_cache)
{
	uint8_t level;
	ck_status(hsa_cache_get_info((hsa_cache_t){ RT_BOGUS_HANDLE }, HSA_CACHE_INFO_LEVEL, &level),
		  HSA_STATUS_ERROR_INVALID_CACHE);
	ck_status(hsa_cache_get_info((hsa_cache_t){ 0 }, HSA_CACHE_INFO_LEVEL, &level),
		  HSA_STATUS_ERROR_INVALID_CACHE);
}
END_TEST

START_TEST(unknown_attributes_are_invalid_argument)
{
	uint64_t v[64];
	ck_status(hsa_system_get_info((hsa_system_info_t)0x7777, v), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_agent_get_info(gpu, (hsa_agent_info_t)0x7777, v),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_memory_pool_get_info(pool, (hsa_amd_memory_pool_info_t)3, v),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_region_get_info((hsa_region_t){ pool.handle }, (hsa_region_info_t)0x7777, v),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_agent_memory_pool_get_info(gpu, pool,
						     (hsa_amd_agent_memory_pool_info_t)9, v),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_isa_get_info_alt(isa, (hsa_isa_info_t)10, v), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_isa_get_info(isa, HSA_ISA_INFO_NAME_LENGTH, 1, v),
		  HSA_STATUS_ERROR_INVALID_INDEX);
}
END_TEST

START_TEST(invalid_enums_are_invalid_argument)
{
	uint16_t m;
	hsa_round_method_t rm;
	ck_status(hsa_isa_get_exception_policies(isa, (hsa_profile_t)7, &m),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_isa_get_round_method(isa, (hsa_fp_type_t)3, HSA_FLUSH_MODE_FTZ, &rm),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_isa_get_round_method(isa, HSA_FP_TYPE_16, (hsa_flush_mode_t)0, &rm),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_isa_get_round_method(isa, HSA_FP_TYPE_64, HSA_FLUSH_MODE_NON_FTZ, &rm),
		  HSA_STATUS_SUCCESS);
	ck_assert_int_eq(rm, HSA_ROUND_METHOD_SINGLE);
	const char *name;
	ck_status(hsa_extension_get_name(0x1FF, &name), HSA_STATUS_ERROR_INVALID_ARGUMENT);
}
END_TEST

static Suite *handles_suite(void)
{
	Suite *s = suite_create("runtime_handles");
	TCase *tc = tcase_create("handles");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, null_outputs_are_invalid_argument);
	tcase_add_test(tc, bad_agent_handles_are_invalid_agent);
	tcase_add_test(tc, pool_handle_used_as_agent_is_invalid_agent);
	tcase_add_test(tc, bad_pool_and_region_handles_are_rejected);
	tcase_add_test(tc, bad_isa_and_wavefront_handles_are_rejected);
	tcase_add_test(tc, bad_cache_handles_are_invalid_cache);
	tcase_add_test(tc, unknown_attributes_are_invalid_argument);
	tcase_add_test(tc, invalid_enums_are_invalid_argument);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(handles_suite)
