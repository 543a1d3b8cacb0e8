/*
 * hl_trace_tool: an HSA tool (HSA_TOOLS_LIB) for the tests, written against
 * include/hsa/hsa_api_trace.h alone and loaded the same way into hsalite,
 * ROCr 5.2.3 and ROCr 1.18.  OnLoad replaces every entry of every
 * sub-table the runtime hands it (core, AMD extensions, finalizer, images,
 * PC sampling: as many entries as each sub-table's minor_id says) by a stub
 * that counts the call (trace_stubs.S); OnUnload writes, to the file named
 * by HL_TRACE_OUT (else stderr):
 *
 *   runtime_version <n>
 *   failed <count> <name>...          what OnLoad was told
 *   table <name> major <m> minor <bytes> step <s>
 *   call <function> <count>           each function called at least once
 *
 * The function a slot holds is named from the layout of the table's major
 * version: ROCr 5.2.3's (AmdExtTable major 1) or 1.18's (major 2), both in
 * test/abi/abi_api_trace.inc.  HL_TRACE_REFUSE=1 makes OnLoad return false
 * (the runtime must then unload the tool and count it as failed).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hsa/hsa_api_trace.h>

#define MAX_SLOTS 512

__attribute__((visibility("hidden"))) uint64_t hl_tt_counts[MAX_SLOTS];
__attribute__((visibility("hidden"))) void *hl_tt_saved[MAX_SLOTS];
extern char hl_tt_stubs[];

static const struct {
	const char *table, *field;
	long o118, o523;
} layout[] = {
#define F(t, f, o118, o523) { #t, #f, o118, o523 },
#include "abi_api_trace.inc"
#undef F
};

static const char *slot_name[MAX_SLOTS];
static unsigned n_slots;
static uint64_t runtime_version;
static char failed_text[4096];
static char tables_text[4096];

static const char *field_at(const char *table, long offset, bool rocr523)
{
	for (size_t i = 0; i < sizeof(layout) / sizeof(layout[0]); i++)
		if (!strcmp(layout[i].table, table) &&
		    (rocr523 ? layout[i].o523 : layout[i].o118) == offset)
			return layout[i].field;
	return NULL;
}

static void wrap(const char *name, ApiTableVersion *t, bool rocr523)
{
	size_t used = strlen(tables_text);

	if (!t)
		return;
	snprintf(tables_text + used, sizeof(tables_text) - used,
		 "table %s major %u minor %u step %u\n", name, t->major_id, t->minor_id,
		 t->step_id);
	if (t->major_id == 0 || t->minor_id < sizeof(ApiTableVersion))
		return;
	void **entry = (void **)(t + 1);
	size_t n = (t->minor_id - sizeof(ApiTableVersion)) / sizeof(void *);
	for (size_t k = 0; k < n && n_slots < MAX_SLOTS; k++) {
		if (!entry[k])
			continue;
		const char *field = field_at(name, (long)(sizeof(ApiTableVersion) + 8 * k), rocr523);
		slot_name[n_slots] = field ? field : "?";
		hl_tt_saved[n_slots] = entry[k];
		entry[k] = hl_tt_stubs + 16 * n_slots;
		n_slots++;
	}
}

__attribute__((visibility("default"))) bool OnLoad(HsaApiTable *table, uint64_t version,
						   uint64_t failed_count,
						   const char *const *failed_names);
__attribute__((visibility("default"))) void OnUnload(void);

bool OnLoad(HsaApiTable *table, uint64_t version, uint64_t failed_count,
	    const char *const *failed_names)
{
	const char *refuse = getenv("HL_TRACE_REFUSE");
	size_t used;

	runtime_version = version;
	used = (size_t)snprintf(failed_text, sizeof(failed_text), "failed %llu",
				(unsigned long long)failed_count);
	for (uint64_t i = 0; i < failed_count && used < sizeof(failed_text); i++) {
		/* only the file name: the tests compare across build trees */
		const char *slash = strrchr(failed_names[i], '/');
		used += (size_t)snprintf(failed_text + used, sizeof(failed_text) - used, " %s",
					 slash ? slash + 1 : failed_names[i]);
	}
	if (refuse && !strcmp(refuse, "1"))
		return false;

	/* AmdExtTable major 1 is ROCr 5.2.3's layout */
	bool rocr523 = table->amd_ext_ && table->amd_ext_->version.major_id == 1;
	uint32_t root = table->version.minor_id;
	wrap("CoreApiTable", offsetof(HsaApiTable, core_) < root ? &table->core_->version : NULL,
	     rocr523);
	wrap("AmdExtTable",
	     offsetof(HsaApiTable, amd_ext_) < root ? &table->amd_ext_->version : NULL, rocr523);
	wrap("FinalizerExtTable",
	     offsetof(HsaApiTable, finalizer_ext_) < root && table->finalizer_ext_ ?
		     &table->finalizer_ext_->version : NULL,
	     rocr523);
	wrap("ImageExtTable",
	     offsetof(HsaApiTable, image_ext_) < root && table->image_ext_ ?
		     &table->image_ext_->version : NULL,
	     rocr523);
	wrap("PcSamplingExtTable",
	     offsetof(HsaApiTable, pc_sampling_ext_) < root && table->pc_sampling_ext_ ?
		     &table->pc_sampling_ext_->version : NULL,
	     rocr523);
	return true;
}

static int by_name(const void *a, const void *b)
{
	const unsigned *x = a, *y = b;
	return strcmp(slot_name[*x], slot_name[*y]);
}

void OnUnload(void)
{
	const char *path = getenv("HL_TRACE_OUT");
	FILE *out = path ? fopen(path, "w") : stderr;
	unsigned order[MAX_SLOTS];

	if (!out) {
		perror(path);
		out = stderr;
	}
	fprintf(out, "runtime_version %llu\n%s\n%s", (unsigned long long)runtime_version,
		failed_text, tables_text);
	for (unsigned i = 0; i < n_slots; i++)
		order[i] = i;
	qsort(order, n_slots, sizeof(order[0]), by_name);
	for (unsigned i = 0; i < n_slots; i++) {
		uint64_t c = __atomic_load_n(&hl_tt_counts[order[i]], __ATOMIC_RELAXED);
		if (c) {
			const char *n = slot_name[order[i]];
			size_t len = strlen(n);
			/* the field's name less its _fn */
			fprintf(out, "call %.*s %llu\n", (int)(len > 3 ? len - 3 : len), n,
				(unsigned long long)c);
		}
	}
	if (out != stderr)
		fclose(out);
}
