/*
 * A load whose segment allocation the driver refuses (kfdemu
 * KFDEMU_FAIL=alloc:2: hsa_init allocates one BO, the GPU's MMIO-remap
 * page, so the load's is the second)
 * returns OUT_OF_RESOURCES, leaves the executable without the code object
 * or any of its symbols, and the same load succeeds next time.  Label emu.
 */
#include <string.h>

#include "co_file.h"
#include "hl_check.h"
#include "hl_hsa.h"
#include "hsa/hsa.h"

static hsa_status_t find_gpu(hsa_agent_t agent, void *data)
{
	hsa_device_type_t type;
	hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type);
	if (type == HSA_DEVICE_TYPE_GPU)
		*(hsa_agent_t *)data = agent;
	return HSA_STATUS_SUCCESS;
}

static hsa_status_t count(hsa_executable_t e, hsa_executable_symbol_t s, void *data)
{
	(void)e;
	(void)s;
	++*(unsigned *)data;
	return HSA_STATUS_SUCCESS;
}

START_TEST(refused_segment_allocation_is_out_of_resources)
{
	struct co_file f;
	ck_assert(co_load(&f, "vadd", NULL));
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	hsa_agent_t gpu = { 0 };
	ck_status(hsa_iterate_agents(find_gpu, &gpu), HSA_STATUS_SUCCESS);
	hsa_code_object_reader_t r;
	hsa_executable_t e;
	ck_status(hsa_code_object_reader_create_from_memory(f.data, f.size, &r), HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
					    NULL, &e), HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_load_agent_code_object(e, gpu, r, NULL, NULL),
		  HSA_STATUS_ERROR_OUT_OF_RESOURCES);
	unsigned n = 0;
	ck_status(hsa_executable_iterate_symbols(e, count, &n), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(n, 0);
	ck_status(hsa_executable_load_agent_code_object(e, gpu, r, NULL, NULL), HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_iterate_symbols(e, count, &n), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(n, 1);
	ck_status(hsa_executable_destroy(e), HSA_STATUS_SUCCESS);
	ck_status(hsa_code_object_reader_destroy(r), HSA_STATUS_SUCCESS);
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
	co_free(&f);
}
END_TEST

static Suite *fault_suite(void)
{
	Suite *s = suite_create("loader_load_fault");
	TCase *tc = tcase_create("fault");
	tcase_add_test(tc, refused_segment_allocation_is_out_of_resources);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(fault_suite)
