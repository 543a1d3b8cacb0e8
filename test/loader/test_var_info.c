/*
 * A variable symbol's attributes as ROCr's loader answers them (5.2.3 and
 * 1.18 alike, amd_hsa_code.cpp Symbol and executable.cpp LoadSymbol /
 * Define*ExternalVariable), which HIP reads (hipFuncGetAttributes'
 * constSizeBytes sums VARIABLE_SIZE over the symbols whose VARIABLE_IS_CONST
 * is true):
 *  - a loaded variable: IS_CONST is true when its ELF section has SHF_WRITE
 *    (so .data and .bss are "const", .rodata is not: ROCr's reading, kept
 *    for compatibility), SEGMENT is READONLY only when the section has
 *    SHF_AMDGPU_HSA_READONLY (0x00200000; no v3+ compiler sets it), GLOBAL
 *    otherwise, ALLOCATION AGENT only when it has SHF_AMDGPU_HSA_AGENT
 *    (0x00800000; likewise never set: PROGRAM), ALIGNMENT the section's
 *    sh_addralign;
 *  - an application-defined one: IS_CONST false, SEGMENT READONLY for
 *    hsa_executable_readonly_variable_define and GLOBAL for the two others,
 *    ALLOCATION PROGRAM without an agent and AGENT with one, SIZE and
 *    ALIGNMENT 0 (the application gives neither).
 * The expectations of loaded variables come from the section headers (read
 * with <elf.h> by this file), plus the literal answers for sections.cl's
 * three variables so a wrong reading of the flags cannot pass.
 * Label emu; loader_var_info_rocr runs the same source on Debian's ROCr
 * 5.2.3 (label peer).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "co_file.h"
#include "hl_check.h"
#include "hl_hsa.h"
#include "hsa/hsa.h"

/* amd_hsa_elf.h's SHF_AMDGPU_HSA_READONLY (0x00200000 & SHF_MASKOS). */
#define VAR_SHF_HSA_READONLY 0x00200000u
#define VAR_SHF_HSA_AGENT 0x00800000u

static hsa_agent_t gpu;

static void setup(void)
{
	hsa_agent_t cpu;
	bool have_gpu, have_cpu;

	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	ck_hsa(hl_first_agents(&gpu, &have_gpu, &cpu, &have_cpu));
	ck_assert(have_gpu);
}

static void teardown(void)
{
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

static uint32_t info_u32(hsa_executable_symbol_t s, hsa_executable_symbol_info_t a)
{
	uint32_t v = 0xdeadbeef;
	ck_status(hsa_executable_symbol_get_info(s, a, &v), HSA_STATUS_SUCCESS);
	return v;
}

static bool info_bool(hsa_executable_symbol_t s, hsa_executable_symbol_info_t a)
{
	/* a byte other than 0 and 1 first, so an unwritten answer shows */
	union {
		bool b;
		unsigned char c;
	} v = { .c = 0x5a };
	ck_status(hsa_executable_symbol_get_info(s, a, &v.b), HSA_STATUS_SUCCESS);
	ck_assert_msg(v.c == 0 || v.c == 1, "bool answer %#x", v.c);
	return v.b;
}

/* The section header of ELF section `index` of f. */
static const Elf64_Shdr *section_of(const struct co_file *f, uint16_t index)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)f->data;
	ck_assert_uint_lt(index, eh->e_shnum);
	ck_assert_uint_le(eh->e_shoff + (uint64_t)(index + 1) * sizeof(Elf64_Shdr), f->size);
	return (const Elf64_Shdr *)(f->data + eh->e_shoff) + index;
}

/* Checks variable `name` of e against its ELF section; returns its
 * IS_CONST answer. */
static bool check_loaded_variable(hsa_executable_t e, const struct co_file *f, const char *name)
{
	hsa_executable_symbol_t s;
	ck_status(hsa_executable_get_symbol_by_name(e, name, &gpu, &s), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(info_u32(s, HSA_EXECUTABLE_SYMBOL_INFO_TYPE), HSA_SYMBOL_KIND_VARIABLE);
	const Elf64_Sym *es = co_dynsym(f, name);
	ck_assert_ptr_nonnull(es);
	const Elf64_Shdr *sh = section_of(f, es->st_shndx);
	bool is_const = info_bool(s, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_IS_CONST);
	uint32_t segment = info_u32(s, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SEGMENT);
	ck_assert_msg(is_const == ((sh->sh_flags & SHF_WRITE) != 0),
		      "%s: IS_CONST %d, section flags %#llx", name, is_const,
		      (unsigned long long)sh->sh_flags);
	ck_assert_uint_eq(segment, (sh->sh_flags & VAR_SHF_HSA_READONLY)
					   ? HSA_VARIABLE_SEGMENT_READONLY
					   : HSA_VARIABLE_SEGMENT_GLOBAL);
	ck_assert_uint_eq(info_u32(s, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ALLOCATION),
			  (sh->sh_flags & VAR_SHF_HSA_AGENT) ? HSA_VARIABLE_ALLOCATION_AGENT
							     : HSA_VARIABLE_ALLOCATION_PROGRAM);
	ck_assert_uint_eq(info_u32(s, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE), es->st_size);
	ck_assert_uint_eq(info_u32(s, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ALIGNMENT),
			  sh->sh_addralign);
	ck_assert_uint_eq(info_u32(s, HSA_EXECUTABLE_SYMBOL_INFO_LINKAGE),
			  HSA_SYMBOL_LINKAGE_PROGRAM);
	return is_const;
}

START_TEST(loaded_variables_answer_from_their_section)
{
	struct co_file f;
	ck_assert(co_load(&f, "sections", NULL));
	hsa_code_object_reader_t r;
	hsa_executable_t e;
	ck_status(hsa_code_object_reader_create_from_memory(f.data, f.size, &r),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
					    NULL, &e), HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_load_agent_code_object(e, gpu, r, NULL, NULL), HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_freeze(e, NULL), HSA_STATUS_SUCCESS);
	/* ROCr's answers for the three sections a compiler emits */
	ck_assert(check_loaded_variable(e, &f, "data_var"));
	ck_assert(check_loaded_variable(e, &f, "bss_var"));
	ck_assert(!check_loaded_variable(e, &f, "rodata_var"));
	hsa_executable_symbol_t s;
	ck_status(hsa_executable_get_symbol_by_name(e, "rodata_var", &gpu, &s), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(info_u32(s, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SEGMENT),
			  HSA_VARIABLE_SEGMENT_GLOBAL);
	ck_status(hsa_executable_destroy(e), HSA_STATUS_SUCCESS);
	ck_status(hsa_code_object_reader_destroy(r), HSA_STATUS_SUCCESS);
	co_free(&f);
}
END_TEST

static void check_defined(hsa_executable_t e, const char *name, const hsa_agent_t *agent,
			  hsa_variable_allocation_t allocation, hsa_variable_segment_t segment)
{
	hsa_executable_symbol_t s;
	ck_status(hsa_executable_get_symbol_by_name(e, name, agent, &s), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(info_u32(s, HSA_EXECUTABLE_SYMBOL_INFO_TYPE), HSA_SYMBOL_KIND_VARIABLE);
	ck_assert_uint_eq(info_u32(s, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ALLOCATION), allocation);
	ck_assert_uint_eq(info_u32(s, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SEGMENT), segment);
	ck_assert_msg(!info_bool(s, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_IS_CONST),
		      "%s: an application definition is never const", name);
	/* the application gave neither: ROCr answers 0 for both */
	ck_assert_uint_eq(info_u32(s, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE), 0);
	ck_assert_uint_eq(info_u32(s, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ALIGNMENT), 0);
}

START_TEST(defined_variables_are_never_const)
{
	static uint32_t prog_var, agent_var, ro_var;
	hsa_executable_t e;
	ck_status(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
					    NULL, &e), HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_global_variable_define(e, "prog_var", &prog_var),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_agent_global_variable_define(e, gpu, "agent_var", &agent_var),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_readonly_variable_define(e, gpu, "ro_var", &ro_var),
		  HSA_STATUS_SUCCESS);
	check_defined(e, "prog_var", NULL, HSA_VARIABLE_ALLOCATION_PROGRAM,
		      HSA_VARIABLE_SEGMENT_GLOBAL);
	check_defined(e, "agent_var", &gpu, HSA_VARIABLE_ALLOCATION_AGENT,
		      HSA_VARIABLE_SEGMENT_GLOBAL);
	check_defined(e, "ro_var", &gpu, HSA_VARIABLE_ALLOCATION_AGENT,
		      HSA_VARIABLE_SEGMENT_READONLY);
	ck_status(hsa_executable_destroy(e), HSA_STATUS_SUCCESS);
}
END_TEST

static Suite *var_info_suite(void)
{
	Suite *s = suite_create("loader_var_info");
	TCase *tc = tcase_create("var_info");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, loaded_variables_answer_from_their_section);
	tcase_add_test(tc, defined_variables_are_never_const);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(var_info_suite)
