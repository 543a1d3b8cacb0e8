/*
 * Helpers shared by the runtime suites: status assertions that print both
 * statuses, a stale-handle source (an address no runtime object lives
 * at: a local of the test, never inside the runtime's arrays), and loading
 * one kernel of a code object file onto an agent.
 */
#ifndef HSALITE_RT_TEST_H
#define HSALITE_RT_TEST_H

#include <check.h>
#include <stdint.h>
#include <stdio.h>

#include "hsa/hsa.h"
#include "hsa/hsa_ext_amd.h"
#include "hl_hsa.h"

static uint64_t rt_test_bogus_storage[8] __attribute__((unused));
/* A handle value that is not any runtime object: the address of test data. */
#define RT_BOGUS_HANDLE ((uint64_t)(uintptr_t)&rt_test_bogus_storage[3])

/* Loads the code object file at path onto agent (a frozen executable that
 * lives until hsa_shut_down) and returns the kernel object of symbol. */
static inline uint64_t rt_load_kernel(const char *path, hsa_agent_t agent, const char *symbol)
{
	static char image[1 << 16];
	FILE *f = fopen(path, "rb");
	ck_assert_msg(f, "%s missing", path);
	size_t n = fread(image, 1, sizeof(image), f);
	fclose(f);
	ck_assert_uint_gt(n, 0);

	hsa_code_object_reader_t r;
	hsa_executable_t e;
	ck_status(hsa_code_object_reader_create_from_memory(image, n, &r), HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_create_alt(HSA_PROFILE_FULL,
					    HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL, &e),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_load_agent_code_object(e, agent, r, NULL, NULL),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_freeze(e, NULL), HSA_STATUS_SUCCESS);
	ck_status(hsa_code_object_reader_destroy(r), HSA_STATUS_SUCCESS);
	hsa_executable_symbol_t s;
	ck_status(hsa_executable_get_symbol_by_name(e, symbol, &agent, &s), HSA_STATUS_SUCCESS);
	uint64_t kd = 0;
	ck_status(hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &kd),
		  HSA_STATUS_SUCCESS);
	return kd;
}

#endif
