/*
 * The loader on kfdemu: reader -> executable -> load -> freeze -> symbols
 * -> destroy for the kernels compiled for $HL_GFX (the preset's GPU), the
 * other target's object refused, file readers, handle and state checks,
 * and the hsa_ven_amd_loader table.  Expected values come from the ELF
 * files themselves (co_file.c reads them without the loader).  Label emu.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "co_file.h"
#include "hl_check.h"
#include "hl_hsa.h"
#include "hsa/hsa.h"
#include "hsa/hsa_ext_amd.h"
#include "hsa/hsa_ven_amd_loader.h"

static hsa_agent_t gpu, cpu;
static struct co_file vadd;

static hsa_status_t find_agents(hsa_agent_t agent, void *data)
{
	(void)data;
	hsa_device_type_t type;
	hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type);
	if (type == HSA_DEVICE_TYPE_GPU && !gpu.handle)
		gpu = agent;
	if (type == HSA_DEVICE_TYPE_CPU && !cpu.handle)
		cpu = agent;
	return HSA_STATUS_SUCCESS;
}

static void setup(void)
{
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	gpu.handle = cpu.handle = 0;
	ck_status(hsa_iterate_agents(find_agents, NULL), HSA_STATUS_SUCCESS);
	ck_assert(gpu.handle && cpu.handle);
	ck_assert_msg(co_load(&vadd, "vadd", NULL), "vadd.%s.co missing", getenv("HL_GFX"));
}

static void teardown(void)
{
	co_free(&vadd);
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

/* A frozen executable with f loaded on the GPU. */
static hsa_executable_t load(const struct co_file *f, hsa_code_object_reader_t *reader_out)
{
	hsa_code_object_reader_t r;
	hsa_executable_t e;
	ck_status(hsa_code_object_reader_create_from_memory(f->data, f->size, &r),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
					    NULL, &e), HSA_STATUS_SUCCESS);
	hsa_loaded_code_object_t l = { 0 };
	ck_status(hsa_executable_load_agent_code_object(e, gpu, r, NULL, &l), HSA_STATUS_SUCCESS);
	ck_assert(l.handle != 0);
	ck_status(hsa_executable_freeze(e, NULL), HSA_STATUS_SUCCESS);
	if (reader_out)
		*reader_out = r;
	else
		ck_status(hsa_code_object_reader_destroy(r), HSA_STATUS_SUCCESS);
	return e;
}

static uint32_t info_u32(hsa_executable_symbol_t s, hsa_executable_symbol_info_t a)
{
	uint32_t v = 0xdeadbeef;
	ck_status(hsa_executable_symbol_get_info(s, a, &v), HSA_STATUS_SUCCESS);
	return v;
}

static uint64_t info_u64(hsa_executable_symbol_t s, hsa_executable_symbol_info_t a)
{
	uint64_t v = 0xdeadbeefdeadbeefull;
	ck_status(hsa_executable_symbol_get_info(s, a, &v), HSA_STATUS_SUCCESS);
	return v;
}

/* Checks the kernel symbol `kd_name` of e against f's descriptor. */
static hsa_executable_symbol_t check_kernel(hsa_executable_t e, const struct co_file *f,
					   const char *kd_name)
{
	hsa_executable_symbol_t s;
	ck_status(hsa_executable_get_symbol_by_name(e, kd_name, &gpu, &s), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(info_u32(s, HSA_EXECUTABLE_SYMBOL_INFO_TYPE), HSA_SYMBOL_KIND_KERNEL);
	const Elf64_Sym *es = co_dynsym(f, kd_name);
	ck_assert_ptr_nonnull(es);
	const uint8_t *kd = co_sym_bytes(f, es);
	ck_assert_ptr_nonnull(kd);
	uint32_t group, priv, kernarg;
	memcpy(&group, kd, 4);
	memcpy(&priv, kd + 4, 4);
	memcpy(&kernarg, kd + 8, 4);
	ck_assert_uint_eq(info_u32(s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE),
			  kernarg);
	ck_assert_uint_eq(info_u32(s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE), group);
	ck_assert_uint_eq(info_u32(s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE),
			  priv);
	uint64_t ko = info_u64(s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT);
	ck_assert_msg(ko && ko % 64 == 0, "kernel object %#llx is not 64-byte aligned",
		      (unsigned long long)ko);
	ck_assert_mem_eq((const void *)(uintptr_t)ko, kd, 64);
	return s;
}

START_TEST(vadd_loads_and_reports_its_descriptor)
{
	hsa_executable_t e = load(&vadd, NULL);
	hsa_executable_symbol_t s = check_kernel(e, &vadd, "vadd.kd"), bare;
	ck_assert_uint_ge(info_u32(s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE), 28);
	ck_assert_uint_eq(info_u32(s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT), 8);
	/* the bare kernel name finds the same symbol */
	ck_status(hsa_executable_get_symbol_by_name(e, "vadd", &gpu, &bare), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(bare.handle, s.handle);
	char name[16] = { 0 };
	ck_assert_uint_eq(info_u32(s, HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH), 7);
	ck_status(hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_NAME, name),
		  HSA_STATUS_SUCCESS);
	ck_assert_str_eq(name, "vadd.kd");
	hsa_agent_t a;
	ck_status(hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_AGENT, &a),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(a.handle, gpu.handle);
	bool def = false;
	ck_status(hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_IS_DEFINITION, &def),
		  HSA_STATUS_SUCCESS);
	ck_assert(def);
	uint64_t v;
	ck_status(hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS, &v),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_executable_symbol_get_info(
			  s, HSA_EXECUTABLE_SYMBOL_INFO_INDIRECT_FUNCTION_OBJECT, &v),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	uint32_t result = 1;
	ck_status(hsa_executable_validate(e, &result), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(result, 0);
	hsa_executable_state_t st;
	ck_status(hsa_executable_get_info(e, HSA_EXECUTABLE_INFO_STATE, &st), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(st, HSA_EXECUTABLE_STATE_FROZEN);
	ck_status(hsa_executable_destroy(e), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(lds_and_private_kernels_report_segments)
{
	struct co_file lds, priv;
	ck_assert(co_load(&lds, "reduce_lds", NULL));
	ck_assert(co_load(&priv, "private_array", NULL));
	hsa_executable_t e1 = load(&lds, NULL), e2 = load(&priv, NULL);
	hsa_executable_symbol_t s = check_kernel(e1, &lds, "reduce_lds.kd");
	ck_assert_uint_eq(info_u32(s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE), 1024);
	s = check_kernel(e2, &priv, "private_array.kd");
	ck_assert_uint_ge(info_u32(s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE), 256);
	ck_status(hsa_executable_destroy(e1), HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_destroy(e2), HSA_STATUS_SUCCESS);
	co_free(&lds);
	co_free(&priv);
}
END_TEST

struct counts {
	unsigned kernels, variables, other;
};

static hsa_status_t count_sym(hsa_executable_t e, hsa_executable_symbol_t s, void *data)
{
	(void)e;
	struct counts *c = data;
	uint32_t kind = info_u32(s, HSA_EXECUTABLE_SYMBOL_INFO_TYPE);
	if (kind == HSA_SYMBOL_KIND_KERNEL)
		c->kernels++;
	else if (kind == HSA_SYMBOL_KIND_VARIABLE)
		c->variables++;
	else
		c->other++;
	return HSA_STATUS_SUCCESS;
}

static hsa_status_t count_agent_sym(hsa_executable_t e, hsa_agent_t a, hsa_executable_symbol_t s,
				    void *data)
{
	ck_assert_uint_eq(a.handle, gpu.handle);
	return count_sym(e, s, data);
}

START_TEST(globals_are_relocated_in_device_memory)
{
	struct co_file g;
	ck_assert(co_load(&g, "globals", NULL));
	hsa_executable_t e = load(&g, NULL);
	check_kernel(e, &g, "bump.kd");
	check_kernel(e, &g, "fetch.kd");
	hsa_executable_symbol_t table, counter;
	ck_status(hsa_executable_get_symbol_by_name(e, "table", &gpu, &table), HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_get_symbol_by_name(e, "counter", &gpu, &counter),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(info_u32(counter, HSA_EXECUTABLE_SYMBOL_INFO_TYPE),
			  HSA_SYMBOL_KIND_VARIABLE);
	ck_assert_uint_eq(info_u32(counter, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE), 4);
	ck_assert_uint_eq(info_u32(table, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE), 16);
	ck_assert_uint_eq(info_u32(counter, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SEGMENT),
			  HSA_VARIABLE_SEGMENT_GLOBAL);
	uint64_t ta = info_u64(table, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS);
	uint64_t ca = info_u64(counter, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS);
	const uint64_t *t = (const uint64_t *)(uintptr_t)ta;
	ck_assert_msg(t[0] == ca && t[1] == ca, "table = {%#llx, %#llx}, counter at %#llx",
		      (unsigned long long)t[0], (unsigned long long)t[1], (unsigned long long)ca);
	ck_assert_uint_eq(*(const uint32_t *)(uintptr_t)ca, 7);
	/* the two variables sit at the ELF's distance from each other */
	ck_assert_uint_eq(ta - ca, co_dynsym(&g, "table")->st_value -
					   co_dynsym(&g, "counter")->st_value);

	struct counts all = { 0 }, agent = { 0 }, program = { 0 };
	ck_status(hsa_executable_iterate_symbols(e, count_sym, &all), HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_iterate_agent_symbols(e, gpu, count_agent_sym, &agent),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_iterate_program_symbols(e, count_sym, &program),
		  HSA_STATUS_SUCCESS);
	ck_assert_msg(all.kernels == 2 && all.variables == 2 && all.other == 0,
		      "all: %u kernels, %u variables, %u other", all.kernels, all.variables,
		      all.other);
	ck_assert_uint_eq(agent.kernels + agent.variables, 4);
	ck_assert_uint_eq(program.kernels + program.variables, 0);
	ck_status(hsa_executable_destroy(e), HSA_STATUS_SUCCESS);
	co_free(&g);
}
END_TEST

START_TEST(hidden_globals_get_relative_relocations)
{
	struct co_file f;
	ck_assert(co_load(&f, "relative", NULL));
	hsa_executable_t e = load(&f, NULL);
	hsa_executable_symbol_t k, v;
	ck_status(hsa_executable_get_symbol_by_name(e, "relative_read", &gpu, &k),
		  HSA_STATUS_SUCCESS);
	/* hidden variables are not exported, as with ROCr */
	ck_status(hsa_executable_get_symbol_by_name(e, "counter", &gpu, &v),
		  HSA_STATUS_ERROR_INVALID_SYMBOL_NAME);
	uint64_t delta = info_u64(k, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT) -
			 co_dynsym(&f, "relative_read.kd")->st_value;
	const Elf64_Sym *table = co_symtab(&f, "table"), *counter = co_symtab(&f, "counter");
	ck_assert(table && counter);
	const uint64_t *t = (const uint64_t *)(uintptr_t)(delta + table->st_value);
	ck_assert_uint_eq(t[0], delta + counter->st_value);
	ck_assert_uint_eq(t[1], delta + counter->st_value);
	ck_assert_uint_eq(*(const uint32_t *)(uintptr_t)(delta + counter->st_value), 11);
	ck_status(hsa_executable_destroy(e), HSA_STATUS_SUCCESS);
	co_free(&f);
}
END_TEST

static hsa_status_t stop_at_first(hsa_executable_t e, hsa_executable_symbol_t s, void *data)
{
	(void)e;
	(void)s;
	++*(unsigned *)data;
	return HSA_STATUS_INFO_BREAK;
}

START_TEST(iteration_stops_on_callback_status)
{
	struct co_file g;
	ck_assert(co_load(&g, "globals", NULL));
	hsa_executable_t e = load(&g, NULL);
	unsigned n = 0;
	ck_status(hsa_executable_iterate_symbols(e, stop_at_first, &n), HSA_STATUS_INFO_BREAK);
	ck_assert_uint_eq(n, 1);
	ck_status(hsa_executable_destroy(e), HSA_STATUS_SUCCESS);
	co_free(&g);
}
END_TEST

START_TEST(other_isa_object_is_refused)
{
	struct co_file other;
	const char *path = getenv("HL_OTHER_CO");
	if (!path || !co_load_path(&other, path))
		return; /* the other target's compiler is missing: nothing to refuse */
	hsa_code_object_reader_t r;
	hsa_executable_t e;
	ck_status(hsa_code_object_reader_create_from_memory(other.data, other.size, &r),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
					    NULL, &e), HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_load_agent_code_object(e, gpu, r, NULL, NULL),
		  HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS);
	/* nothing was loaded */
	hsa_executable_symbol_t s;
	ck_status(hsa_executable_get_symbol_by_name(e, "vadd.kd", &gpu, &s),
		  HSA_STATUS_ERROR_INVALID_SYMBOL_NAME);
	ck_status(hsa_executable_destroy(e), HSA_STATUS_SUCCESS);
	ck_status(hsa_code_object_reader_destroy(r), HSA_STATUS_SUCCESS);
	co_free(&other);
}
END_TEST

START_TEST(malformed_object_is_invalid_code_object)
{
	uint8_t *bad = malloc(vadd.size);
	ck_assert(bad);
	memcpy(bad, vadd.data, vadd.size);
	bad[EI_CLASS] = ELFCLASS32;
	hsa_code_object_reader_t r;
	hsa_executable_t e;
	ck_status(hsa_code_object_reader_create_from_memory(bad, vadd.size, &r), HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
					    NULL, &e), HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_load_agent_code_object(e, gpu, r, NULL, NULL),
		  HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
	ck_status(hsa_executable_destroy(e), HSA_STATUS_SUCCESS);
	ck_status(hsa_code_object_reader_destroy(r), HSA_STATUS_SUCCESS);
	free(bad);
}
END_TEST

START_TEST(file_reader_valid_and_invalid_fd)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/vadd.%s.co", getenv("HL_CO_DIR"), getenv("HL_GFX"));
	int fd = open(path, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	hsa_code_object_reader_t r;
	ck_status(hsa_code_object_reader_create_from_file(fd, &r), HSA_STATUS_SUCCESS);
	/* the fd stays the caller's, its offset untouched */
	ck_assert_int_eq(lseek(fd, 0, SEEK_CUR), 0);
	hsa_executable_t e;
	ck_status(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
					    NULL, &e), HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_load_agent_code_object(e, gpu, r, NULL, NULL), HSA_STATUS_SUCCESS);
	ck_status(hsa_code_object_reader_destroy(r), HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_freeze(e, NULL), HSA_STATUS_SUCCESS);
	check_kernel(e, &vadd, "vadd.kd");
	ck_status(hsa_executable_destroy(e), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(close(fd), 0);
	/* closed and never-opened descriptors */
	ck_status(hsa_code_object_reader_create_from_file(fd, &r), HSA_STATUS_ERROR_INVALID_FILE);
	ck_status(hsa_code_object_reader_create_from_file(-1, &r), HSA_STATUS_ERROR_INVALID_FILE);
	ck_status(hsa_code_object_reader_create_from_file(0, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
}
END_TEST

START_TEST(handles_and_states_are_validated)
{
	hsa_code_object_reader_t r;
	hsa_executable_t e = load(&vadd, &r);
	hsa_executable_symbol_t s;
	ck_status(hsa_executable_get_symbol_by_name(e, "vadd.kd", &gpu, &s), HSA_STATUS_SUCCESS);
	/* frozen: no more loads, no definitions, no second freeze */
	ck_status(hsa_executable_load_agent_code_object(e, gpu, r, NULL, NULL),
		  HSA_STATUS_ERROR_FROZEN_EXECUTABLE);
	uint64_t var = 0;
	ck_status(hsa_executable_agent_global_variable_define(e, gpu, "x", &var),
		  HSA_STATUS_ERROR_FROZEN_EXECUTABLE);
	ck_status(hsa_executable_freeze(e, NULL), HSA_STATUS_ERROR_FROZEN_EXECUTABLE);
	/* NULLs and unknown names, agents */
	ck_status(hsa_executable_get_symbol_by_name(e, NULL, &gpu, &s),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_executable_get_symbol_by_name(e, "vadd", &gpu, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_executable_get_symbol_by_name(e, "nope", &gpu, &s),
		  HSA_STATUS_ERROR_INVALID_SYMBOL_NAME);
	ck_status(hsa_executable_get_symbol_by_name(e, "vadd.kd", NULL, &s),
		  HSA_STATUS_ERROR_INVALID_SYMBOL_NAME); /* not a program symbol */
	hsa_agent_t bogus = { (uint64_t)(uintptr_t)&var };
	ck_status(hsa_executable_get_symbol_by_name(e, "vadd", &bogus, &s),
		  HSA_STATUS_ERROR_INVALID_AGENT);
	ck_status(hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_TYPE, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	hsa_executable_symbol_t bad_sym = { (uint64_t)(uintptr_t)&var };
	uint32_t u;
	ck_status(hsa_executable_symbol_get_info(bad_sym, HSA_EXECUTABLE_SYMBOL_INFO_TYPE, &u),
		  HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL);
	ck_status(hsa_executable_get_info(e, (hsa_executable_info_t)99, &u),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	/* a fresh executable: CPU agent and bad agent */
	hsa_executable_t e2;
	ck_status(hsa_executable_create_alt((hsa_profile_t)7, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
					    NULL, &e2), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
					    NULL, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
					    NULL, &e2), HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_load_agent_code_object(e2, bogus, r, NULL, NULL),
		  HSA_STATUS_ERROR_INVALID_AGENT);
	ck_status(hsa_executable_load_agent_code_object(e2, cpu, r, NULL, NULL),
		  HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS);
	/* variables: define, find, refuse a duplicate */
	ck_status(hsa_executable_agent_global_variable_define(e2, gpu, "x", &var),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_agent_global_variable_define(e2, gpu, "x", &var),
		  HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED);
	ck_status(hsa_executable_global_variable_define(e2, "p", &var), HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_get_symbol_by_name(e2, "p", NULL, &s), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(info_u64(s, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS),
			  (uint64_t)(uintptr_t)&var);
	ck_assert_uint_eq(info_u32(s, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ALLOCATION),
			  HSA_VARIABLE_ALLOCATION_PROGRAM);
	ck_status(hsa_executable_destroy(e2), HSA_STATUS_SUCCESS);
	/* destroyed handles */
	ck_status(hsa_code_object_reader_destroy(r), HSA_STATUS_SUCCESS);
	ck_status(hsa_code_object_reader_destroy(r), HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER);
	ck_status(hsa_executable_load_agent_code_object(e2, gpu, r, NULL, NULL),
		  HSA_STATUS_ERROR_INVALID_EXECUTABLE);
	ck_status(hsa_executable_destroy(e), HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_destroy(e), HSA_STATUS_ERROR_INVALID_EXECUTABLE);
	ck_status(hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_TYPE, &u),
		  HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL);
	ck_status(hsa_code_object_reader_create_from_memory(vadd.data, 0, &r),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	hsa_code_object_t co;
	ck_status(hsa_code_object_deserialize(vadd.data, vadd.size, NULL, &co),
		  HSA_STATUS_ERROR_NOT_SUPPORTED);
}
END_TEST

START_TEST(destroy_frees_the_segments)
{
	hsa_executable_t e = load(&vadd, NULL);
	hsa_executable_symbol_t s;
	ck_status(hsa_executable_get_symbol_by_name(e, "vadd", &gpu, &s), HSA_STATUS_SUCCESS);
	void *ko = (void *)(uintptr_t)info_u64(s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT);
	hsa_amd_pointer_info_t pi = { .size = sizeof(pi) };
	ck_status(hsa_amd_pointer_info(ko, &pi, NULL, NULL, NULL), HSA_STATUS_SUCCESS);
	ck_assert_int_ne(pi.type, HSA_EXT_POINTER_TYPE_UNKNOWN);
	ck_status(hsa_executable_destroy(e), HSA_STATUS_SUCCESS);
	pi.size = sizeof(pi);
	ck_status(hsa_amd_pointer_info(ko, &pi, NULL, NULL, NULL), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(pi.type, HSA_EXT_POINTER_TYPE_UNKNOWN);
}
END_TEST

struct lco_seen {
	hsa_ven_amd_loader_1_03_pfn_t *t;
	hsa_executable_t want;
	unsigned executables, lcos;
	hsa_loaded_code_object_t lco;
};

static hsa_status_t see_exe(hsa_executable_t e, void *data)
{
	struct lco_seen *d = data;
	if (e.handle == d->want.handle)
		d->executables++;
	return HSA_STATUS_SUCCESS;
}

static hsa_status_t see_lco(hsa_executable_t e, hsa_loaded_code_object_t l, void *data)
{
	struct lco_seen *d = data;
	ck_assert_uint_eq(e.handle, d->want.handle);
	d->lcos++;
	d->lco = l;
	return HSA_STATUS_SUCCESS;
}

START_TEST(loader_extension_table)
{
	hsa_ven_amd_loader_1_03_pfn_t t;
	memset(&t, 0, sizeof(t));
	ck_status(hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_LOADER, 1, sizeof(t), &t),
		  HSA_STATUS_SUCCESS);
	hsa_executable_t e = load(&vadd, NULL);
	struct lco_seen d = { &t, e, 0, 0, { 0 } };
	ck_status(t.hsa_ven_amd_loader_iterate_executables(see_exe, &d), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(d.executables, 1);
	ck_status(t.hsa_ven_amd_loader_executable_iterate_loaded_code_objects(e, see_lco, &d),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(d.lcos, 1);

	uint32_t kind = 0, stype = 0, uri_len = 0;
	uint64_t base = 0, size = 0, mbase = 0, msize = 0;
	int64_t delta = 0;
	hsa_executable_t owner;
	hsa_agent_t agent;
	ck_status(t.hsa_ven_amd_loader_loaded_code_object_get_info(
			  d.lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_EXECUTABLE, &owner),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(owner.handle, e.handle);
	ck_status(t.hsa_ven_amd_loader_loaded_code_object_get_info(
			  d.lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_AGENT, &agent),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(agent.handle, gpu.handle);
	ck_status(t.hsa_ven_amd_loader_loaded_code_object_get_info(
			  d.lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_KIND, &kind),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(kind, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_KIND_AGENT);
	ck_status(t.hsa_ven_amd_loader_loaded_code_object_get_info(
			  d.lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_TYPE,
			  &stype), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(stype, HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_MEMORY);
	ck_status(t.hsa_ven_amd_loader_loaded_code_object_get_info(
			  d.lco,
			  HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_BASE,
			  &mbase), HSA_STATUS_SUCCESS);
	ck_status(t.hsa_ven_amd_loader_loaded_code_object_get_info(
			  d.lco,
			  HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_SIZE,
			  &msize), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(msize, vadd.size);
	ck_assert_mem_eq((const void *)(uintptr_t)mbase, vadd.data, vadd.size);
	int fd;
	ck_status(t.hsa_ven_amd_loader_loaded_code_object_get_info(
			  d.lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_FILE,
			  &fd), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(t.hsa_ven_amd_loader_loaded_code_object_get_info(
			  d.lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_BASE, &base),
		  HSA_STATUS_SUCCESS);
	ck_status(t.hsa_ven_amd_loader_loaded_code_object_get_info(
			  d.lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_SIZE, &size),
		  HSA_STATUS_SUCCESS);
	ck_status(t.hsa_ven_amd_loader_loaded_code_object_get_info(
			  d.lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_DELTA, &delta),
		  HSA_STATUS_SUCCESS);
	hsa_executable_symbol_t s;
	ck_status(hsa_executable_get_symbol_by_name(e, "vadd", &gpu, &s), HSA_STATUS_SUCCESS);
	uint64_t ko = info_u64(s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT);
	ck_assert_uint_eq(ko, (uint64_t)delta + co_dynsym(&vadd, "vadd.kd")->st_value);
	ck_assert(ko >= base && ko + 64 <= base + size);
	ck_status(t.hsa_ven_amd_loader_loaded_code_object_get_info(
			  d.lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI_LENGTH, &uri_len),
		  HSA_STATUS_SUCCESS);
	char uri[256] = { 0 };
	ck_assert_uint_lt(uri_len, sizeof(uri));
	ck_status(t.hsa_ven_amd_loader_loaded_code_object_get_info(
			  d.lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI, uri),
		  HSA_STATUS_SUCCESS);
	ck_assert_msg(strncmp(uri, "memory://", 9) == 0 && strlen(uri) == uri_len, "uri %s", uri);

	hsa_executable_t found;
	ck_status(t.hsa_ven_amd_loader_query_executable((const void *)(uintptr_t)ko, &found),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(found.handle, e.handle);
	const void *host = NULL;
	ck_status(t.hsa_ven_amd_loader_query_host_address((const void *)(uintptr_t)ko, &host),
		  HSA_STATUS_SUCCESS);
	ck_assert_mem_eq(host, co_sym_bytes(&vadd, co_dynsym(&vadd, "vadd.kd")), 64);
	uint64_t outside;
	ck_status(t.hsa_ven_amd_loader_query_executable(&outside, &found),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	size_t n = 0;
	ck_status(t.hsa_ven_amd_loader_query_segment_descriptors(NULL, &n), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(n, 1);
	hsa_ven_amd_loader_segment_descriptor_t sd;
	ck_status(t.hsa_ven_amd_loader_query_segment_descriptors(&sd, &n), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq((uint64_t)(uintptr_t)sd.segment_base, base);
	ck_assert_uint_eq(sd.segment_size, size);
	ck_assert_uint_eq(sd.executable.handle, e.handle);

	hsa_loaded_code_object_t bogus = { (uint64_t)(uintptr_t)&outside };
	ck_status(t.hsa_ven_amd_loader_loaded_code_object_get_info(
			  bogus, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_BASE, &base),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_executable_destroy(e), HSA_STATUS_SUCCESS);
	ck_status(t.hsa_ven_amd_loader_executable_iterate_loaded_code_objects(e, see_lco, &d),
		  HSA_STATUS_ERROR_INVALID_EXECUTABLE);
}
END_TEST

START_TEST(older_and_alternate_entry_points)
{
	hsa_executable_t e = load(&vadd, NULL);
	hsa_executable_symbol_t a, b;
	ck_status(hsa_executable_get_symbol_by_name(e, "vadd.kd", &gpu, &a), HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_get_symbol(e, NULL, "vadd.kd", gpu, 0, &b), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(a.handle, b.handle);
	ck_status(hsa_executable_get_symbol(e, "module", "vadd.kd", gpu, 0, &b),
		  HSA_STATUS_ERROR_INVALID_SYMBOL_NAME);
	uint32_t result = 1;
	ck_status(hsa_executable_validate_alt(e, "", &result), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(result, 0);
	hsa_profile_t prof;
	hsa_default_float_rounding_mode_t round;
	ck_status(hsa_executable_get_info(e, HSA_EXECUTABLE_INFO_PROFILE, &prof), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(prof, HSA_PROFILE_FULL);
	ck_status(hsa_executable_get_info(e, HSA_EXECUTABLE_INFO_DEFAULT_FLOAT_ROUNDING_MODE, &round),
		  HSA_STATUS_SUCCESS);
	ck_assert_int_eq(round, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT);
	ck_status(hsa_executable_destroy(e), HSA_STATUS_SUCCESS);

	/* hsa_executable_create in the frozen state takes no code object */
	hsa_code_object_reader_t r;
	ck_status(hsa_code_object_reader_create_from_memory(vadd.data, vadd.size, &r),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_create(HSA_PROFILE_BASE, HSA_EXECUTABLE_STATE_FROZEN, NULL, &e),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_get_info(e, HSA_EXECUTABLE_INFO_PROFILE, &prof), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(prof, HSA_PROFILE_BASE);
	ck_status(hsa_executable_load_agent_code_object(e, gpu, r, NULL, NULL),
		  HSA_STATUS_ERROR_FROZEN_EXECUTABLE);
	ck_status(hsa_executable_destroy(e), HSA_STATUS_SUCCESS);
	/* program code objects: v4/v5 hold agent code only */
	ck_status(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR,
					    NULL, &e), HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_load_program_code_object(e, r, NULL, NULL),
		  HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS);
	ck_status(hsa_executable_destroy(e), HSA_STATUS_SUCCESS);
	ck_status(hsa_code_object_reader_destroy(r), HSA_STATUS_SUCCESS);

	/* the extension's reader over a window of a file */
	hsa_ven_amd_loader_1_03_pfn_t t;
	ck_status(hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_LOADER, 1, sizeof(t), &t),
		  HSA_STATUS_SUCCESS);
	char path[1024];
	snprintf(path, sizeof(path), "%s/vadd.%s.co", getenv("HL_CO_DIR"), getenv("HL_GFX"));
	int fd = open(path, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	ck_status(t.hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size(
			  fd, 0, vadd.size, &r), HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
					    NULL, &e), HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_load_agent_code_object(e, gpu, r, NULL, NULL), HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_destroy(e), HSA_STATUS_SUCCESS);
	ck_status(hsa_code_object_reader_destroy(r), HSA_STATUS_SUCCESS);
	ck_status(t.hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size(
			  fd, 0, 0, &r), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(t.hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size(
			  fd, 16, vadd.size, &r), HSA_STATUS_ERROR_INVALID_FILE);
	/* a window that starts inside the ELF is not a code object */
	ck_status(t.hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size(
			  fd, 64, 256, &r), HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
					    NULL, &e), HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_load_agent_code_object(e, gpu, r, NULL, NULL),
		  HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
	ck_status(hsa_executable_destroy(e), HSA_STATUS_SUCCESS);
	ck_status(hsa_code_object_reader_destroy(r), HSA_STATUS_SUCCESS);
	close(fd);
}
END_TEST

START_TEST(shutdown_releases_what_was_not_destroyed)
{
	hsa_code_object_reader_t r;
	hsa_executable_t e = load(&vadd, &r);
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	/* the old handles belong to the old runtime */
	ck_status(hsa_executable_freeze(e, NULL), HSA_STATUS_ERROR_INVALID_EXECUTABLE);
	ck_status(hsa_code_object_reader_destroy(r), HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER);
	gpu.handle = cpu.handle = 0;
	ck_status(hsa_iterate_agents(find_agents, NULL), HSA_STATUS_SUCCESS);
	e = load(&vadd, NULL); /* and the new runtime loads afresh */
	check_kernel(e, &vadd, "vadd.kd");
	ck_status(hsa_executable_destroy(e), HSA_STATUS_SUCCESS);
}
END_TEST

static Suite *device_suite(void)
{
	Suite *s = suite_create("loader_device");
	TCase *tc = tcase_create("device");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, vadd_loads_and_reports_its_descriptor);
	tcase_add_test(tc, lds_and_private_kernels_report_segments);
	tcase_add_test(tc, globals_are_relocated_in_device_memory);
	tcase_add_test(tc, hidden_globals_get_relative_relocations);
	tcase_add_test(tc, iteration_stops_on_callback_status);
	tcase_add_test(tc, other_isa_object_is_refused);
	tcase_add_test(tc, malformed_object_is_invalid_code_object);
	tcase_add_test(tc, file_reader_valid_and_invalid_fd);
	tcase_add_test(tc, handles_and_states_are_validated);
	tcase_add_test(tc, destroy_frees_the_segments);
	tcase_add_test(tc, loader_extension_table);
	tcase_add_test(tc, older_and_alternate_entry_points);
	tcase_add_test(tc, shutdown_releases_what_was_not_destroyed);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(device_suite)
