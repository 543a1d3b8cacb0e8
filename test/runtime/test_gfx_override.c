/*
 * HSA_OVERRIDE_GFX_VERSION on kfdemu: the GPU agent takes the overridden
 * processor (name and ISA), keeping the device's target features.  The test
 * runs on an MI210 (gfx90a) with HSA_OVERRIDE_GFX_VERSION=9.0.8, or with
 * HSA_OVERRIDE_GFX_VERSION_1=9.0.8 for its node beside another global value.
 * Label emu.
 */
#include <string.h>

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

START_TEST(override_changes_the_gpu_processor)
{
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	hsa_agent_t gpu = { 0 };
	ck_status(hsa_iterate_agents(find_gpu, &gpu), HSA_STATUS_SUCCESS);
	char name[64], isa_name[128];
	hsa_isa_t isa;
	ck_status(hsa_agent_get_info(gpu, HSA_AGENT_INFO_NAME, name), HSA_STATUS_SUCCESS);
	ck_status(hsa_agent_get_info(gpu, HSA_AGENT_INFO_ISA, &isa), HSA_STATUS_SUCCESS);
	ck_status(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME, isa_name), HSA_STATUS_SUCCESS);
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
	ck_assert_str_eq(name, "gfx908");
	ck_assert_msg(!strncmp(isa_name, "amdgcn-amd-amdhsa--gfx908:sramecc", 33), "isa '%s'",
		      isa_name);
}
END_TEST

static Suite *override_suite(void)
{
	Suite *s = suite_create("runtime_gfx_override");
	TCase *tc = tcase_create("override");
	tcase_add_test(tc, override_changes_the_gpu_processor);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(override_suite)
