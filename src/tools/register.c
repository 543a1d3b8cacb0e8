/*
 * rocprofiler-register, as ROCr 1.18 uses it (runtime.cpp LoadTools): when
 * librocprofiler-register.so.0 can be loaded, the API table is registered
 * under the name "hsa" with the library's version (HSA 1.18.0 as
 * ROCPROFILER_REGISTER_COMPUTE_VERSION_3 makes it: 11800) and the import
 * function rocprofiler_register_import_hsa, which this file exports: the
 * registrar finds from its address which library is registering.
 * HSA_TOOLS_DISABLE_REGISTER=1 skips it; HSA_TOOLS_REPORT_REGISTER_FAILURE=1
 * prints a refusal on stderr as ROCr does.  Where the library is absent
 * nothing happens.  The types are those of rocprofiler-register.h (not a
 * build dependency: the library is reached by dlopen only).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/tools_priv.h"
#include "util/log.h"

#define HL_HSA_VERSION_MAJOR 1
#define HL_HSA_VERSION_MINOR 18
#define HL_HSA_VERSION_PATCH 0
#define ROCP_REG_SUCCESS 0

typedef struct {
	uint64_t handle;
} rocp_reg_id_t;
typedef uint32_t (*rocp_reg_import_t)(void);
typedef int (*rocp_reg_table_t)(const char *name, rocp_reg_import_t import, uint32_t version,
				void **tables, uint64_t n_tables, rocp_reg_id_t *id);
typedef const char *(*rocp_reg_error_string_t)(int status);

/* The version rocprofiler-register reads from the registering library. */
__attribute__((visibility("default"))) uint32_t rocprofiler_register_import_hsa(void);

uint32_t rocprofiler_register_import_hsa(void)
{
	return 10000 * HL_HSA_VERSION_MAJOR + 100 * HL_HSA_VERSION_MINOR + HL_HSA_VERSION_PATCH;
}

bool hl_tools_register(void)
{
	const char *v = getenv("HSA_TOOLS_DISABLE_REGISTER");
	if (v && strcmp(v, "1") == 0)
		return false;

	/* Kept open once registration took, on purpose and without a
	 * record of it (so no process-wide handle to keep across runtimes or
	 * forks): ROCr never closes it either, and a registered tool may hold
	 * the table to the end of the process.  A later hsa_init's dlopen
	 * finds it loaded and takes one more reference. */
	void *registrar = dlopen("librocprofiler-register.so.0", RTLD_NOW | RTLD_GLOBAL);
	if (!registrar) {
		hl_debug("tools", "rocprofiler-register: not loaded: %s", dlerror());
		return false;
	}
	rocp_reg_table_t reg =
		(rocp_reg_table_t)dlsym(registrar, "rocprofiler_register_library_api_table");
	rocp_reg_error_string_t err_string = (rocp_reg_error_string_t)dlsym(
		registrar, "rocprofiler_register_error_string");
	if (!reg) {
		hl_warn("tools", "rocprofiler-register: no rocprofiler_register_library_api_table");
		dlclose(registrar);
		return false;
	}
	void *table = &hl_tools_table;
	rocp_reg_id_t id = { 0 };
	int status = reg("hsa", rocprofiler_register_import_hsa, rocprofiler_register_import_hsa(),
			 &table, 1, &id);
	if (status != ROCP_REG_SUCCESS) {
		const char *why = err_string ? err_string(status) : "?";
		hl_info("tools", "rocprofiler-register: status %d: %s", status, why);
		v = getenv("HSA_TOOLS_REPORT_REGISTER_FAILURE");
		if (v && strcmp(v, "1") == 0)
			fprintf(stderr, "[hsa-runtime][%i] rocprofiler-register returned status code %i: %s\n",
				(int)getpid(), status, why);
		dlclose(registrar);
		return false;
	}
	hl_info("tools", "rocprofiler-register: the table is registered");
	return true;
}
