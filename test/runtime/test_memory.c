/*
 * Memory on kfdemu: pool and region allocation and free, allow_access,
 * registration, locking, hsa_memory_copy between CPU-visible buffers and
 * pointer info.  Label emu.
 */
#include <stdlib.h>
#include <string.h>

#include "hl_check.h"
#include "rt_test.h"

static hsa_agent_t cpu, gpu;
static hsa_amd_memory_pool_t sys_fine, sys_coarse, vram, lds;

static hsa_status_t find_agents(hsa_agent_t agent, void *data)
{
	(void)data;
	hsa_device_type_t type;
	hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type);
	if (type == HSA_DEVICE_TYPE_CPU && !cpu.handle)
		cpu = agent;
	if (type == HSA_DEVICE_TYPE_GPU && !gpu.handle)
		gpu = agent;
	return HSA_STATUS_SUCCESS;
}

static hsa_status_t find_pools(hsa_amd_memory_pool_t pool, void *data)
{
	(void)data;
	uint32_t segment, flags;
	hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &segment);
	hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags);
	bool all = false;
	hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL, &all);
	if (segment == HSA_AMD_SEGMENT_GROUP)
		lds = pool;
	else if (all && flags == HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED)
		sys_fine = pool;
	else if (all && flags == HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED)
		sys_coarse = pool;
	else if (!all && flags == HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED && !vram.handle)
		vram = pool;
	return HSA_STATUS_SUCCESS;
}

static void setup(void)
{
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	cpu.handle = gpu.handle = 0;
	sys_fine.handle = sys_coarse.handle = vram.handle = lds.handle = 0;
	ck_status(hsa_iterate_agents(find_agents, NULL), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_agent_iterate_memory_pools(cpu, find_pools, NULL), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_agent_iterate_memory_pools(gpu, find_pools, NULL), HSA_STATUS_SUCCESS);
	ck_assert(sys_fine.handle && sys_coarse.handle && vram.handle && lds.handle);
}

static void teardown(void)
{
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

START_TEST(system_pool_allocation_is_cpu_writable_and_freed)
{
	void *p = NULL;
	ck_status(hsa_amd_memory_pool_allocate(sys_fine, 10000, 0, &p), HSA_STATUS_SUCCESS);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq((uintptr_t)p % 4096, 0);
	memset(p, 0x5a, 10000);
	ck_assert_uint_eq(((unsigned char *)p)[9999], 0x5a);
	ck_status(hsa_amd_memory_pool_free(p), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(double_free_is_invalid_allocation)
{
	void *p = NULL;
	ck_status(hsa_amd_memory_pool_allocate(sys_coarse, 4096, 0, &p), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(p), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(p), HSA_STATUS_ERROR_INVALID_ALLOCATION);
	char local[16];
	ck_status(hsa_amd_memory_pool_free(local), HSA_STATUS_ERROR_INVALID_ALLOCATION);
	ck_status(hsa_amd_memory_pool_free(NULL), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(vram_allocation_and_free)
{
	void *p = NULL;
	ck_status(hsa_amd_memory_pool_allocate(vram, 1 << 20, 0, &p), HSA_STATUS_SUCCESS);
	ck_assert_ptr_nonnull(p);
	ck_status(hsa_amd_memory_pool_free(p), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(bad_allocation_requests_are_rejected)
{
	void *p = NULL;
	size_t max = 0;
	ck_status(hsa_amd_memory_pool_allocate(sys_fine, 0, 0, &p), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_memory_pool_allocate(sys_fine, 4096, 0, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_memory_pool_allocate(sys_fine, 4096, 0x80, &p),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_memory_pool_allocate(lds, 4096, 0, &p), HSA_STATUS_ERROR_INVALID_ALLOCATION);
	ck_status(hsa_amd_memory_pool_get_info(vram, HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE, &max),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_allocate(vram, max + 4096, 0, &p),
		  HSA_STATUS_ERROR_INVALID_ALLOCATION);
}
END_TEST

static hsa_status_t find_kernarg_region(hsa_region_t region, void *data)
{
	uint32_t flags = 0;
	hsa_region_get_info(region, HSA_REGION_INFO_GLOBAL_FLAGS, &flags);
	if (flags & HSA_REGION_GLOBAL_FLAG_KERNARG) {
		*(hsa_region_t *)data = region;
		return HSA_STATUS_INFO_BREAK;
	}
	return HSA_STATUS_SUCCESS;
}

START_TEST(kernarg_region_allocation_through_hsa_memory_allocate)
{
	hsa_region_t region = { 0 };
	ck_status(hsa_agent_iterate_regions(gpu, find_kernarg_region, &region), HSA_STATUS_INFO_BREAK);
	void *p = NULL;
	ck_status(hsa_memory_allocate(region, 256, &p), HSA_STATUS_SUCCESS);
	memset(p, 1, 256);
	ck_status(hsa_memory_free(p), HSA_STATUS_SUCCESS);
	ck_status(hsa_memory_allocate(region, 0, &p), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_memory_free(NULL), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(allow_access_maps_to_listed_agents)
{
	void *p = NULL;
	ck_status(hsa_amd_memory_pool_allocate(vram, 65536, 0, &p), HSA_STATUS_SUCCESS);
	hsa_agent_t both[2] = { cpu, gpu };
	ck_status(hsa_amd_agents_allow_access(2, both, NULL, p), HSA_STATUS_SUCCESS);
	void *s = NULL;
	ck_status(hsa_amd_memory_pool_allocate(sys_coarse, 4096, 0, &s), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_agents_allow_access(1, &gpu, NULL, s), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(s), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(p), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(allow_access_rejects_bad_arguments)
{
	void *p = NULL;
	ck_status(hsa_amd_memory_pool_allocate(sys_fine, 4096, 0, &p), HSA_STATUS_SUCCESS);
	hsa_agent_t bogus = { RT_BOGUS_HANDLE };
	char local[16];
	ck_status(hsa_amd_agents_allow_access(0, &gpu, NULL, p), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_agents_allow_access(1, NULL, NULL, p), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_agents_allow_access(1, &gpu, NULL, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_agents_allow_access(1, &bogus, NULL, p), HSA_STATUS_ERROR_INVALID_AGENT);
	/* ROCr 1.18: the start of an allocation, else the agents, then a
	 * vmem mapping or INVALID_ALLOCATION (5.2.3: ERROR for all three). */
	ck_status(hsa_amd_agents_allow_access(1, &gpu, NULL, local),
		  HSA_STATUS_ERROR_INVALID_ALLOCATION);
	ck_status(hsa_amd_agents_allow_access(1, &gpu, NULL, (char *)p + 8),
		  HSA_STATUS_ERROR_INVALID_ALLOCATION);
	ck_status(hsa_amd_agents_allow_access(1, &bogus, NULL, local),
		  HSA_STATUS_ERROR_INVALID_AGENT);
	ck_status(hsa_amd_memory_pool_free(p), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(memory_copy_between_cpu_visible_buffers)
{
	void *a = NULL;
	ck_status(hsa_amd_memory_pool_allocate(sys_fine, 8192, 0, &a), HSA_STATUS_SUCCESS);
	char *heap = malloc(8192);
	for (int i = 0; i < 8192; i++)
		heap[i] = (char)(i * 7);
	ck_status(hsa_memory_copy(a, heap, 8192), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(memcmp(a, heap, 8192), 0);
	memset(heap, 0, 8192);
	ck_status(hsa_memory_copy(heap, a, 8192), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(heap[8191], (char)(8191 * 7));
	ck_status(hsa_memory_copy(heap, a, 0), HSA_STATUS_SUCCESS);
	ck_status(hsa_memory_copy(NULL, a, 16), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_memory_copy(heap, NULL, 16), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	free(heap);
	ck_status(hsa_amd_memory_pool_free(a), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(register_and_deregister_host_memory)
{
	void *buf = aligned_alloc(4096, 16384);
	ck_status(hsa_memory_register(buf, 16384), HSA_STATUS_SUCCESS);
	ck_status(hsa_memory_deregister(buf, 16384), HSA_STATUS_SUCCESS);
	/* ROCr 5.2.3's statuses: deregister and (NULL, n) always succeed. */
	ck_status(hsa_memory_deregister(buf, 16384), HSA_STATUS_SUCCESS);
	ck_status(hsa_memory_register(NULL, 16), HSA_STATUS_SUCCESS);
	ck_status(hsa_memory_register(buf, 0), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	free(buf);
}
END_TEST

START_TEST(assign_agent_validates_and_accepts_owned_memory)
{
	void *p = NULL;
	ck_status(hsa_amd_memory_pool_allocate(sys_coarse, 4096, 0, &p), HSA_STATUS_SUCCESS);
	ck_status(hsa_memory_assign_agent(p, gpu, HSA_ACCESS_PERMISSION_RW), HSA_STATUS_SUCCESS);
	ck_status(hsa_memory_assign_agent(p, gpu, (hsa_access_permission_t)0),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_memory_assign_agent(p, (hsa_agent_t){ RT_BOGUS_HANDLE },
					  HSA_ACCESS_PERMISSION_RW),
		  HSA_STATUS_ERROR_INVALID_AGENT);
	ck_status(hsa_memory_assign_agent(NULL, gpu, HSA_ACCESS_PERMISSION_RW),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_memory_pool_free(p), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(pointer_info_describes_an_allocation)
{
	void *p = NULL;
	ck_status(hsa_amd_memory_pool_allocate(sys_fine, 4096, 0, &p), HSA_STATUS_SUCCESS);
	hsa_amd_pointer_info_t info = { .size = sizeof(info) };
	uint32_t n = 0;
	hsa_agent_t *list = NULL;
	ck_status(hsa_amd_pointer_info((char *)p + 100, &info, malloc, &n, &list),
		  HSA_STATUS_SUCCESS);
	ck_assert_int_eq(info.type, HSA_EXT_POINTER_TYPE_HSA);
	ck_assert_ptr_eq(info.agentBaseAddress, p);
	ck_assert_ptr_eq(info.hostBaseAddress, p);
	ck_assert_uint_eq(info.sizeInBytes, 4096);
	ck_assert_uint_eq(info.agentOwner.handle, cpu.handle);
	ck_assert_uint_eq(n, 1); /* the GPU it is mapped to (never a CPU, as ROCr) */
	free(list);
	char local;
	ck_status(hsa_amd_pointer_info(&local, &info, NULL, NULL, NULL), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(info.type, HSA_EXT_POINTER_TYPE_UNKNOWN);
	ck_status(hsa_amd_pointer_info(p, NULL, NULL, NULL, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_memory_pool_free(p), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(lock_pins_host_memory_for_the_gpu)
{
	void *buf = aligned_alloc(4096, 8192), *agent_ptr = NULL;
	ck_status(hsa_amd_memory_lock(buf, 8192, &gpu, 1, &agent_ptr), HSA_STATUS_SUCCESS);
	ck_assert_ptr_ne(agent_ptr, buf); /* a GPU alias, as ROCr's */
	hsa_amd_pointer_info_t info = { .size = sizeof(info) };
	ck_status(hsa_amd_pointer_info(buf, &info, NULL, NULL, NULL), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(info.type, HSA_EXT_POINTER_TYPE_LOCKED);
	ck_status(hsa_amd_memory_unlock(buf), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_unlock(buf), HSA_STATUS_SUCCESS); /* ROCr: always */
	free(buf);
}
END_TEST

START_TEST(lock_twice_needs_two_unlocks)
{
	void *buf = aligned_alloc(4096, 4096), *agent_ptr = NULL;
	ck_status(hsa_amd_memory_lock(buf, 4096, NULL, 0, &agent_ptr), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_lock_to_pool(buf, 4096, &gpu, 1, sys_fine, 0, &agent_ptr),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_unlock(buf), HSA_STATUS_SUCCESS);
	hsa_amd_pointer_info_t info = { .size = sizeof(info) };
	ck_status(hsa_amd_pointer_info(buf, &info, NULL, NULL, NULL), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(info.type, HSA_EXT_POINTER_TYPE_LOCKED);
	ck_status(hsa_amd_memory_unlock(buf), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_pointer_info(buf, &info, NULL, NULL, NULL), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(info.type, HSA_EXT_POINTER_TYPE_UNKNOWN);
	free(buf);
}
END_TEST

START_TEST(lock_rejects_bad_arguments)
{
	char buf[64];
	void *agent_ptr;
	hsa_agent_t bogus = { RT_BOGUS_HANDLE };
	ck_status(hsa_amd_memory_lock(NULL, 64, NULL, 0, &agent_ptr),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_memory_lock(buf, 0, NULL, 0, &agent_ptr), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_memory_lock(buf, 64, NULL, 0, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_memory_lock(buf, 64, NULL, 1, &agent_ptr),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_memory_lock(buf, 64, &bogus, 1, &agent_ptr),
		  HSA_STATUS_ERROR_INVALID_AGENT);
	ck_status(hsa_amd_memory_lock_to_pool(buf, 64, &gpu, 1, vram, 0, &agent_ptr),
		  HSA_STATUS_ERROR_INVALID_MEMORY_POOL);
	ck_status(hsa_amd_memory_lock_to_pool(buf, 64, &gpu, 1,
					      (hsa_amd_memory_pool_t){ RT_BOGUS_HANDLE }, 0,
					      &agent_ptr),
		  HSA_STATUS_ERROR_INVALID_MEMORY_POOL);
	/* ROCr's unlock answers SUCCESS to anything. */
	ck_status(hsa_amd_memory_unlock(NULL), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_unlock(buf), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(userdata_is_returned_by_pointer_info)
{
	void *p = NULL;
	int tag;
	ck_status(hsa_amd_memory_pool_allocate(sys_fine, 4096, 0, &p), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_pointer_info_set_userdata(p, &tag), HSA_STATUS_SUCCESS);
	hsa_amd_pointer_info_t info = { .size = sizeof(info) };
	ck_status(hsa_amd_pointer_info(p, &info, NULL, NULL, NULL), HSA_STATUS_SUCCESS);
	ck_assert_ptr_eq(info.userData, &tag);
	ck_status(hsa_amd_pointer_info_set_userdata((char *)p + 8, &tag),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_pointer_info_set_userdata(NULL, &tag), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_memory_pool_free(p), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(shut_down_frees_what_is_left)
{
	/* Leaked on purpose: the last hsa_shut_down releases it (ASan checks). */
	void *p = NULL;
	ck_status(hsa_amd_memory_pool_allocate(sys_fine, 4096, 0, &p), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_allocate(vram, 4096, 0, &p), HSA_STATUS_SUCCESS);
}
END_TEST

static Suite *memory_suite(void)
{
	Suite *s = suite_create("runtime_memory");
	TCase *tc = tcase_create("memory");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, system_pool_allocation_is_cpu_writable_and_freed);
	tcase_add_test(tc, double_free_is_invalid_allocation);
	tcase_add_test(tc, vram_allocation_and_free);
	tcase_add_test(tc, bad_allocation_requests_are_rejected);
	tcase_add_test(tc, kernarg_region_allocation_through_hsa_memory_allocate);
	tcase_add_test(tc, allow_access_maps_to_listed_agents);
	tcase_add_test(tc, allow_access_rejects_bad_arguments);
	tcase_add_test(tc, memory_copy_between_cpu_visible_buffers);
	tcase_add_test(tc, register_and_deregister_host_memory);
	tcase_add_test(tc, assign_agent_validates_and_accepts_owned_memory);
	tcase_add_test(tc, pointer_info_describes_an_allocation);
	tcase_add_test(tc, lock_pins_host_memory_for_the_gpu);
	tcase_add_test(tc, lock_twice_needs_two_unlocks);
	tcase_add_test(tc, lock_rejects_bad_arguments);
	tcase_add_test(tc, userdata_is_returned_by_pointer_info);
	tcase_add_test(tc, shut_down_frees_what_is_left);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(memory_suite)
