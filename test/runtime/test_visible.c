/*
 * ROCR_VISIBLE_DEVICES on a two-GPU kfdemu machine: the GPU agents are the
 * listed GPUs in the listed order.  The test is registered with the variable
 * set and HL_EXPECT_NODES naming the KFD nodes expected, in order (GPU 0 is
 * node 1, GPU 1 node 2).  Also used with an unknown HSA_OVERRIDE_GFX_VERSION,
 * where no GPU agent is expected.  Label emu.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hl_check.h"
#include "rt_test.h"

struct nodes {
	char list[64];
	size_t len;
};

static hsa_status_t gpu_nodes(hsa_agent_t agent, void *data)
{
	struct nodes *n = data;
	hsa_device_type_t type;
	uint32_t node = 0;
	ck_status(hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type), HSA_STATUS_SUCCESS);
	if (type != HSA_DEVICE_TYPE_GPU)
		return HSA_STATUS_SUCCESS;
	ck_status(hsa_agent_get_info(agent, HSA_AGENT_INFO_NODE, &node), HSA_STATUS_SUCCESS);
	n->len += (size_t)snprintf(n->list + n->len, sizeof(n->list) - n->len, "%s%u",
				   n->len ? "," : "", node);
	return HSA_STATUS_SUCCESS;
}

START_TEST(gpu_agents_follow_rocr_visible_devices)
{
	const char *expect = getenv("HL_EXPECT_NODES");
	ck_assert_msg(expect != NULL, "HL_EXPECT_NODES not set");
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	struct nodes n = { .len = 0 };
	n.list[0] = '\0';
	ck_status(hsa_iterate_agents(gpu_nodes, &n), HSA_STATUS_SUCCESS);
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
	ck_assert_msg(!strcmp(n.list, expect), "ROCR_VISIBLE_DEVICES=%s: GPU nodes '%s', expected '%s'",
		      getenv("ROCR_VISIBLE_DEVICES"), n.list, expect);
}
END_TEST

static Suite *visible_suite(void)
{
	Suite *s = suite_create("runtime_visible");
	TCase *tc = tcase_create("visible");
	tcase_add_test(tc, gpu_agents_follow_rocr_visible_devices);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(visible_suite)
