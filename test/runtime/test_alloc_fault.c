/*
 * A pool allocation the driver refuses (kfdemu KFDEMU_FAIL=alloc:2, the
 * second BO allocation of the process fails with ENOMEM) returns
 * OUT_OF_RESOURCES, as ROCr does, leaves nothing behind, and the next
 * allocation succeeds.  hsa_init itself allocates one BO, the GPU's
 * MMIO-remap page.  Label emu.
 */
#include "hl_check.h"
#include "rt_test.h"

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

START_TEST(refused_allocation_is_out_of_resources)
{
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	hsa_agent_t gpu = { 0 };
	hsa_amd_memory_pool_t vram = { 0 };
	ck_status(hsa_iterate_agents(find_gpu, &gpu), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_agent_iterate_memory_pools(gpu, first_pool, &vram), HSA_STATUS_INFO_BREAK);
	void *p = NULL;
	ck_status(hsa_amd_memory_pool_allocate(vram, 1 << 20, 0, &p),
		  HSA_STATUS_ERROR_OUT_OF_RESOURCES);
	ck_status(hsa_amd_memory_pool_allocate(vram, 1 << 20, 0, &p), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(p), HSA_STATUS_SUCCESS);
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
}
END_TEST

static Suite *alloc_fault_suite(void)
{
	Suite *s = suite_create("runtime_alloc_fault");
	TCase *tc = tcase_create("alloc_fault");
	tcase_add_test(tc, refused_allocation_is_out_of_resources);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(alloc_fault_suite)
