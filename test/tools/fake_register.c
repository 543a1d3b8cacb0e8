/*
 * A stand-in librocprofiler-register.so.0 for tools_register_*: it checks
 * what the runtime registers (rocprofiler-register.h's contract: the name
 * "hsa", an import function returning the version passed, one table whose
 * first member is a version) and prints one line on stderr:
 *
 *   fake-register: hsa version <v> import <v'> tables <n> root major <m> minor <bytes>
 *
 * It returns FAKE_REGISTER_STATUS (default 0, success).  Built in its own
 * directory, found through LD_LIBRARY_PATH.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint32_t (*import_fn)(void);
typedef struct {
	uint64_t handle;
} reg_id_t;

__attribute__((visibility("default"))) int
rocprofiler_register_library_api_table(const char *name, import_fn import, uint32_t version,
				       void **tables, uint64_t n_tables, reg_id_t *id);
__attribute__((visibility("default"))) const char *rocprofiler_register_error_string(int status);

int rocprofiler_register_library_api_table(const char *name, import_fn import, uint32_t version,
					   void **tables, uint64_t n_tables, reg_id_t *id)
{
	const char *st = getenv("FAKE_REGISTER_STATUS");
	const uint32_t *root = n_tables && tables ? tables[0] : NULL;

	if (!name || !import || !tables || !id || !root) {
		fprintf(stderr, "fake-register: bad arguments\n");
		return 8; /* ROCP_REG_INVALID_ARGUMENT */
	}
	fprintf(stderr, "fake-register: %s version %u import %u tables %llu root major %u minor %u\n",
		name, version, import(), (unsigned long long)n_tables, root[0], root[1]);
	id->handle = 1;
	return st ? atoi(st) : 0;
}

const char *rocprofiler_register_error_string(int status)
{
	return status ? "fake refusal" : "success";
}
