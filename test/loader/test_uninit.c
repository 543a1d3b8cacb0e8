/*
 * Every loader entry point before hsa_init answers NOT_INITIALIZED (the
 * loader extension's entries are reachable only through an initialised
 * runtime, so they are covered by the device suites).  Label unit.
 */
#include <stdint.h>

#include "hl_check.h"
#include "hsa/hsa.h"

#define ck_uninit(expr)                                                              \
	do {                                                                         \
		hsa_status_t s_ = (expr);                                            \
		ck_assert_msg(s_ == HSA_STATUS_ERROR_NOT_INITIALIZED,                 \
			      "%s: got %#x, expected NOT_INITIALIZED (%#x)", #expr,    \
			      (unsigned)s_, (unsigned)HSA_STATUS_ERROR_NOT_INITIALIZED); \
	} while (0)

static hsa_status_t sym_cb(hsa_executable_t e, hsa_executable_symbol_t s, void *d)
{
	(void)e;
	(void)s;
	(void)d;
	return HSA_STATUS_SUCCESS;
}

static hsa_status_t agent_sym_cb(hsa_executable_t e, hsa_agent_t a, hsa_executable_symbol_t s,
				 void *d)
{
	(void)a;
	return sym_cb(e, s, d);
}

START_TEST(everything_before_init)
{
	static const uint8_t bytes[64] = { 0x7f, 'E', 'L', 'F' };
	hsa_code_object_reader_t r = { 1 };
	hsa_executable_t e = { 1 };
	hsa_executable_symbol_t s = { 1 };
	hsa_agent_t a = { 1 };
	hsa_loaded_code_object_t l;
	uint32_t u;
	uint64_t v;
	ck_uninit(hsa_code_object_reader_create_from_memory(bytes, sizeof(bytes), &r));
	ck_uninit(hsa_code_object_reader_create_from_file(0, &r));
	ck_uninit(hsa_code_object_reader_destroy(r));
	ck_uninit(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
					    NULL, &e));
	ck_uninit(hsa_executable_create(HSA_PROFILE_FULL, HSA_EXECUTABLE_STATE_UNFROZEN, NULL, &e));
	ck_uninit(hsa_executable_load_agent_code_object(e, a, r, NULL, &l));
	ck_uninit(hsa_executable_load_program_code_object(e, r, NULL, &l));
	ck_uninit(hsa_executable_freeze(e, NULL));
	ck_uninit(hsa_executable_get_info(e, HSA_EXECUTABLE_INFO_STATE, &u));
	ck_uninit(hsa_executable_get_symbol_by_name(e, "vadd", &a, &s));
	ck_uninit(hsa_executable_get_symbol(e, NULL, "vadd", a, 0, &s));
	ck_uninit(hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &v));
	ck_uninit(hsa_executable_iterate_symbols(e, sym_cb, NULL));
	ck_uninit(hsa_executable_iterate_program_symbols(e, sym_cb, NULL));
	ck_uninit(hsa_executable_iterate_agent_symbols(e, a, agent_sym_cb, NULL));
	ck_uninit(hsa_executable_validate(e, &u));
	ck_uninit(hsa_executable_validate_alt(e, NULL, &u));
	ck_uninit(hsa_executable_global_variable_define(e, "x", &v));
	ck_uninit(hsa_executable_agent_global_variable_define(e, a, "x", &v));
	ck_uninit(hsa_executable_readonly_variable_define(e, a, "x", &v));
	ck_uninit(hsa_executable_destroy(e));
	hsa_code_object_t co = { 1 };
	ck_uninit(hsa_code_object_deserialize((void *)bytes, sizeof(bytes), NULL, &co));
	ck_uninit(hsa_code_object_destroy(co));
	ck_uninit(hsa_executable_load_code_object(e, a, co, NULL));
}
END_TEST

static Suite *uninit_suite(void)
{
	Suite *s = suite_create("loader_uninit");
	TCase *tc = tcase_create("uninit");
	tcase_add_test(tc, everything_before_init);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(uninit_suite)
