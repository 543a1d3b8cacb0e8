/* hl_table_grab (table_grab.c): the HSA API table a suite's own tool got. */
#ifndef HL_TABLE_GRAB_H
#define HL_TABLE_GRAB_H

#include <hsa/hsa_api_trace.h>

#ifdef __cplusplus
extern "C" {
#endif

__attribute__((visibility("default"))) bool OnLoad(HsaApiTable *table, uint64_t version,
						   uint64_t failed_count,
						   const char *const *failed_names);
/* Counts OnUnload calls. */
__attribute__((visibility("default"))) void OnUnload(void);
/* How many times OnLoad and OnUnload ran in this process. */
__attribute__((visibility("default"))) int hl_grab_loads(void);
__attribute__((visibility("default"))) int hl_grab_unloads(void);
/* The table OnLoad received (NULL before hsa_init loaded the tool). */
__attribute__((visibility("default"))) HsaApiTable *hl_grabbed_table(void);
/* The entry named field ("hsa_amd_queue_intercept_create_fn") of
 * "CoreApiTable" or "AmdExtTable", or NULL where the table has none. */
__attribute__((visibility("default"))) void *hl_grabbed_entry(const char *table,
							      const char *field);

#ifdef __cplusplus
}
#endif

#endif
