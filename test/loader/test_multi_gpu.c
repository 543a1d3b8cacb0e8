/*
 * One executable, the same code object loaded on two GPUs: each agent gets
 * its own segments and symbols (the same name resolves per agent to
 * different kernel objects, each in memory of its own GPU), a second load
 * on the same agent is refused as a duplicate definition, and the loader
 * extension reports two loaded code objects, one per agent.  Label emu.
 */
#include <string.h>

#include "co_file.h"
#include "hl_check.h"
#include "hl_hsa.h"
#include "hsa/hsa.h"
#include "hsa/hsa_ext_amd.h"
#include "hsa/hsa_ven_amd_loader.h"

struct gpus {
	hsa_agent_t a[2];
	unsigned n;
};

static hsa_status_t find_gpus(hsa_agent_t agent, void *data)
{
	struct gpus *g = data;
	hsa_device_type_t type;
	hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type);
	if (type == HSA_DEVICE_TYPE_GPU && g->n < 2)
		g->a[g->n++] = agent;
	return HSA_STATUS_SUCCESS;
}

static hsa_status_t count_lco(hsa_executable_t e, hsa_loaded_code_object_t l, void *data)
{
	(void)e;
	(void)l;
	++*(unsigned *)data;
	return HSA_STATUS_SUCCESS;
}

START_TEST(same_object_on_two_gpus)
{
	struct co_file f;
	ck_assert(co_load(&f, "vadd", NULL));
	const uint8_t *kd = co_sym_bytes(&f, co_dynsym(&f, "vadd.kd"));
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	struct gpus g = { .n = 0 };
	ck_status(hsa_iterate_agents(find_gpus, &g), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(g.n, 2);
	hsa_code_object_reader_t r;
	hsa_executable_t e;
	ck_status(hsa_code_object_reader_create_from_memory(f.data, f.size, &r), HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
					    NULL, &e), HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_load_agent_code_object(e, g.a[0], r, NULL, NULL), HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_load_agent_code_object(e, g.a[1], r, NULL, NULL), HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_load_agent_code_object(e, g.a[0], r, NULL, NULL),
		  HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED);
	ck_status(hsa_executable_freeze(e, NULL), HSA_STATUS_SUCCESS);
	uint64_t ko[2];
	for (int i = 0; i < 2; i++) {
		hsa_executable_symbol_t s;
		ck_status(hsa_executable_get_symbol_by_name(e, "vadd", &g.a[i], &s),
			  HSA_STATUS_SUCCESS);
		ck_status(hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT,
							 &ko[i]), HSA_STATUS_SUCCESS);
		ck_assert_mem_eq((const void *)(uintptr_t)ko[i], kd, 64);
		hsa_amd_pointer_info_t pi = { .size = sizeof(pi) };
		ck_status(hsa_amd_pointer_info((void *)(uintptr_t)ko[i], &pi, NULL, NULL, NULL),
			  HSA_STATUS_SUCCESS);
		ck_assert_uint_eq(pi.agentOwner.handle, g.a[i].handle);
	}
	ck_assert_uint_ne(ko[0], ko[1]);
	hsa_ven_amd_loader_1_03_pfn_t t;
	ck_status(hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_LOADER, 1, sizeof(t), &t),
		  HSA_STATUS_SUCCESS);
	unsigned n = 0;
	ck_status(t.hsa_ven_amd_loader_executable_iterate_loaded_code_objects(e, count_lco, &n),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(n, 2);
	ck_status(hsa_executable_destroy(e), HSA_STATUS_SUCCESS);
	ck_status(hsa_code_object_reader_destroy(r), HSA_STATUS_SUCCESS);
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
	co_free(&f);
}
END_TEST

static Suite *multi_suite(void)
{
	Suite *s = suite_create("loader_multi_gpu");
	TCase *tc = tcase_create("multi");
	tcase_add_test(tc, same_object_on_two_gpus);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(multi_suite)
