/*
 * HSA_XNACK=1 on kfdemu: hsa_init switches the process to XNACK on (as ROCr
 * does with hsaKmtSetXNACKMode), so the GPU's ISA is ...:xnack+.  Label emu.
 */
#include <stdlib.h>
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

START_TEST(hsa_xnack_1_gives_an_xnack_on_isa)
{
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	hsa_agent_t gpu = { 0 };
	hsa_isa_t isa;
	char name[128];
	ck_status(hsa_iterate_agents(find_gpu, &gpu), HSA_STATUS_SUCCESS);
	ck_status(hsa_agent_get_info(gpu, HSA_AGENT_INFO_ISA, &isa), HSA_STATUS_SUCCESS);
	ck_status(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME, name), HSA_STATUS_SUCCESS);
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
	/* HL_EXPECT_XNACK=0: the kernel refused the switch (fault injection):
	 * the mode stays off, as ROCr's BindXnackMode leaves it */
	const char *want = getenv("HL_EXPECT_XNACK") && !strcmp(getenv("HL_EXPECT_XNACK"), "0") ?
				   ":xnack-" : ":xnack+";
	size_t n = strlen(name);
	ck_assert_msg(n > 7 && !strcmp(name + n - 7, want), "isa '%s', expected %s", name, want);
}
END_TEST

static Suite *xnack_suite(void)
{
	Suite *s = suite_create("runtime_xnack");
	TCase *tc = tcase_create("xnack");
	tcase_add_test(tc, hsa_xnack_1_gives_an_xnack_on_isa);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(xnack_suite)
