/*
 * hl_table_grab: a tool whose OnLoad only keeps the table, for suites that
 * call the functions reached through it alone (the intercept queues): the
 * suite links this library and names it in HSA_TOOLS_LIB, so the runtime's
 * dlopen finds it loaded and hands it the table.  The entries are looked up
 * by name in the layout of the table's major version (5.2.3's or 1.18's,
 * test/abi/abi_api_trace.inc), so one suite runs on either runtime.
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "table_grab.h"

static HsaApiTable *grabbed;
static atomic_int loads, unloads;

static const struct {
	const char *table, *field;
	long o118, o523;
} layout[] = {
#define F(t, f, o118, o523) { #t, #f, o118, o523 },
#include "abi_api_trace.inc"
#undef F
};

bool OnLoad(HsaApiTable *table, uint64_t version, uint64_t failed_count,
	    const char *const *failed_names)
{
	(void)version;
	(void)failed_count;
	(void)failed_names;
	grabbed = table;
	atomic_fetch_add(&loads, 1);
	return true;
}

void OnUnload(void)
{
	atomic_fetch_add(&unloads, 1);
}

int hl_grab_loads(void)
{
	return atomic_load(&loads);
}

int hl_grab_unloads(void)
{
	return atomic_load(&unloads);
}

HsaApiTable *hl_grabbed_table(void)
{
	return grabbed;
}

void *hl_grabbed_entry(const char *table, const char *field)
{
	if (!grabbed)
		return NULL;
	bool rocr523 = grabbed->amd_ext_->version.major_id == 1;
	ApiTableVersion *sub = !strcmp(table, "CoreApiTable") ? &grabbed->core_->version :
			       !strcmp(table, "AmdExtTable")  ? &grabbed->amd_ext_->version :
								NULL;
	if (!sub)
		return NULL;
	for (size_t i = 0; i < sizeof(layout) / sizeof(layout[0]); i++) {
		long off = rocr523 ? layout[i].o523 : layout[i].o118;
		if (!strcmp(layout[i].table, table) && !strcmp(layout[i].field, field) && off >= 0 &&
		    (uint32_t)off < sub->minor_id)
			return *(void **)((char *)sub + off);
	}
	return NULL;
}
