/*
 * HSA_TOOLS_LIB: the tool libraries hsa_init loads and hsa_shut_down
 * unloads, by ROCr's rules (runtime.cpp LoadTools/UnloadTools, flag.h,
 * os_linux.cpp):
 *  - first the table goes to rocprofiler-register (register.c); when that
 *    accepted it, HSA_TOOLS_LIB is skipped unless
 *    HSA_TOOLS_ROCPROFILER_V1_TOOLS is set (and not 0/off/false/no/n/f);
 *  - the libraries are HSA_TOOLS_LIB's names (hl_tools_parse_names),
 *    dlopen'ed RTLD_LAZY in list order, then each library already in the
 *    process that exports HSA_AMD_TOOL_PRIORITY (a uint32_t), ordered after
 *    the list by that priority; a library named twice is loaded once, at
 *    its first place;
 *  - a name that does not dlopen is reported on stderr ("Tool lib "%s"
 *    failed to load.") unless HSA_TOOLS_REPORT_LOAD_FAILURE is "0", and
 *    joins the failed names;
 *  - each library's own OnLoad (a symbol of a dependency does not count) is
 *    called with the table, the table's major version (ROCr 1.18: 3), and
 *    the names that failed so far; a library without OnLoad, or whose
 *    OnLoad returns false, is closed and joins the failed names;
 *  - at the last hsa_shut_down each loaded tool's OnUnload (if any) runs,
 *    last loaded first, then the table is put back and the libraries close.
 * ROCr's WrapAgent/AddAgent hooks hand a tool ROCr's C++ agent objects;
 * hsalite has none to give and does not call them (docs/tools.md).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "runtime/runtime.h"
#include "tools/tools.h"
#include "tools/tools_priv.h"
#include "util/log.h"

#define MAX_TOOLS HL_TOOLS_MAX

typedef bool (*tool_onload_t)(HsaApiTable *table, uint64_t runtime_version,
			      uint64_t failed_tool_count, const char *const *failed_tool_names);
typedef void (*tool_onunload_t)(void);

/* A candidate library: its handle, its place in the load order, the name
 * it was found by. */
struct tool_lib {
	void *handle;
	uint32_t order;
	char *name;
};

/* The symbol if lib itself defines it (dlsym also searches lib's
 * dependencies; ROCr's GetExportAddress keeps only lib's own). */
static void *own_symbol(void *lib, const char *sym)
{
	void *addr = dlsym(lib, sym);
	struct link_map *map;
	Dl_info info;

	if (!addr || dlinfo(lib, RTLD_DI_LINKMAP, &map) != 0 || !dladdr(addr, &info))
		return NULL;
	return strcmp(info.dli_fname, map->l_name) == 0 ? addr : NULL;
}

struct preloaded {
	char *names[MAX_TOOLS];
	int n;
};

/* dl_iterate_phdr: every object of the process whose own symbol table has
 * HSA_AMD_TOOL_PRIORITY (checked by own_symbol on a no-load handle). */
static int find_preloaded(struct dl_phdr_info *info, size_t size, void *data)
{
	struct preloaded *p = data;
	(void)size;

	if (!info->dlpi_name || !info->dlpi_name[0] || p->n >= MAX_TOOLS)
		return 0;
	void *h = dlopen(info->dlpi_name, RTLD_LAZY | RTLD_NOLOAD);
	if (!h)
		return 0;
	if (own_symbol(h, "HSA_AMD_TOOL_PRIORITY"))
		p->names[p->n++] = strdup(info->dlpi_name);
	dlclose(h);
	return 0;
}

static bool report_failures(void)
{
	const char *v = getenv("HSA_TOOLS_REPORT_LOAD_FAILURE");
	return !(v && strcmp(v, "0") == 0);
}

/* HSA_TOOLS_ROCPROFILER_V1_TOOLS: set means yes, unless it is a number
 * that is 0 or one of off/false/no/n/f (any case). */
static bool v1_tools_allowed(void)
{
	const char *v = getenv("HSA_TOOLS_ROCPROFILER_V1_TOOLS");
	static const char *const no[] = { "off", "false", "no", "n", "f" };

	if (!v)
		return false;
	if (v[0] && strspn(v, "0123456789") == strlen(v))
		return strtoull(v, NULL, 10) != 0;
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		if (strcasecmp(v, no[i]) == 0)
			return false;
	return true;
}

static int by_order(const void *a, const void *b)
{
	const struct tool_lib *x = a, *y = b;
	return x->order < y->order ? -1 : x->order > y->order;
}

int hl_tools_attach(struct hl_runtime *rt)
{
	struct hl_tools *t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	int err = pthread_mutex_init(&t->iq_lock, NULL);
	if (err) {
		free(t);
		return -err;
	}
	rt->tools = t;
	return 0;
}

void hl_tools_teardown(struct hl_runtime *rt)
{
	struct hl_tools *t = rt->tools;
	if (!t)
		return;
	/* After the last hsa_shut_down the closing step has unloaded the
	 * tools and destroyed the intercept queues; at exit (no closing
	 * step) the tools stay loaded, as on ROCr, and their intercept
	 * queues are released here. */
	hl_tools_intercept_release(t);
	pthread_mutex_destroy(&t->iq_lock);
	free(t);
	rt->tools = NULL;
}

void hl_tools_opened(struct hl_runtime *rt)
{
	struct hl_tools *t = rt->tools;
	/* hsalite's own defaults first (intercept queues' wrappers) */
	hl_tools_table_reset();
	if (hl_tools_register() && !v1_tools_allowed())
		return;

	const char *list = getenv("HSA_TOOLS_LIB");
	char *names[MAX_TOOLS];
	int n_names = 0;
	struct tool_lib cand[2 * MAX_TOOLS];
	int n_cand = 0;
	const char *failed[2 * MAX_TOOLS];
	int n_failed = 0;
	struct preloaded pre = { .n = 0 };

	if (list && list[0]) {
		n_names = hl_tools_parse_names(list, names, MAX_TOOLS);
		if (n_names < 0) {
			hl_error("tools", "HSA_TOOLS_LIB: %s: no tool loaded", strerror(-n_names));
			return;
		}
	}
	/* the process's own tools come after the list, by their priority */
	dl_iterate_phdr(find_preloaded, &pre);
	for (int i = 0; i < pre.n; i++) {
		void *h = pre.names[i] ? dlopen(pre.names[i], RTLD_LAZY) : NULL;
		const uint32_t *prio = h ? own_symbol(h, "HSA_AMD_TOOL_PRIORITY") : NULL;
		if (prio)
			cand[n_cand++] = (struct tool_lib){ h, *prio + (uint32_t)n_names, pre.names[i] };
		else if (h)
			dlclose(h);
	}
	for (int i = 0, order = 0; i < n_names; i++) {
		void *h = dlopen(names[i], RTLD_LAZY);
		if (h) {
			cand[n_cand++] = (struct tool_lib){ h, (uint32_t)order++, names[i] };
			continue;
		}
		hl_warn("tools", "HSA_TOOLS_LIB: %s: %s", names[i], dlerror());
		failed[n_failed++] = names[i];
		if (report_failures())
			fprintf(stderr, "Tool lib \"%s\" failed to load.\n", names[i]);
	}
	/* one place per library: its first (dlopen counted a reference per
	 * name, so each duplicate gives one back) */
	qsort(cand, (size_t)n_cand, sizeof(cand[0]), by_order);
	for (int i = 0; i < n_cand; i++)
		for (int j = 0; j < i; j++)
			if (cand[j].handle && cand[j].handle == cand[i].handle) {
				dlclose(cand[i].handle);
				cand[i].handle = NULL;
				break;
			}
	for (int i = 0; i < n_cand; i++) {
		if (!cand[i].handle)
			continue;
		tool_onload_t onload = (tool_onload_t)own_symbol(cand[i].handle, "OnLoad");
		if (!onload || t->n_loaded >= MAX_TOOLS) {
			hl_warn("tools", "%s: %s: not loaded", cand[i].name,
				onload ? "too many tools" : "no OnLoad");
			failed[n_failed++] = cand[i].name;
			dlclose(cand[i].handle);
			continue;
		}
		if (!onload(&hl_tools_table, hl_tools_table.version.major_id, (uint64_t)n_failed,
			    failed)) {
			hl_warn("tools", "%s: OnLoad returned false: unloaded", cand[i].name);
			failed[n_failed++] = cand[i].name;
			dlclose(cand[i].handle);
			continue;
		}
		hl_info("tools", "%s: loaded", cand[i].name);
		t->loaded[t->n_loaded++] = cand[i].handle;
	}
	for (int i = 0; i < n_names; i++)
		free(names[i]);
	for (int i = 0; i < pre.n; i++)
		free(pre.names[i]);
}

/*
 * A fork child, at the fork (the child's only thread, before any call of
 * its own).  ROCr 7's core runtime does not notice a fork: its child keeps
 * the parent's tools loaded and its table routed through them, and the
 * child's hsa_init only counts one more reference, so a tool goes on
 * serving the parent's state (its threads, buffers and locks, which the
 * child does not have); the HIP documentation calls that undefined
 * (docs/embedding.md).  hsalite's child starts with no tool, as it starts
 * with no runtime: every entry of the table back to hsalite's own function
 * (so none of the child's calls enters a tool's wrapper), here, at the
 * fork; then, at the child's first runtime call, the forget step drops the
 * parent's intercept queues and the list of loaded tools (both hang off the
 * parent's runtime) without OnUnload (a tool would call hsa_* on a runtime
 * the child does not have) and without dlclose (the code stays mapped, as
 * on ROCr: the tool may have handed out pointers into it, or registered
 * atfork handlers of its own).  The child's own hsa_init loads
 * HSA_TOOLS_LIB again, as in a new process: dlopen finds each library
 * mapped, and OnLoad gets the child's table.
 */
void hl_tools_fork_child(void)
{
	hl_tools_table_reset();
	hl_tools_intercept_fork_child();
}

void hl_tools_forget(struct hl_runtime *rt)
{
	struct hl_tools *t = rt->tools;
	if (!t)
		return;
	hl_tools_intercept_forget(t);
	/* iq_lock is not destroyed: a parent thread may have held it */
	free(t);
	rt->tools = NULL;
}

void hl_tools_closing(struct hl_runtime *rt)
{
	struct hl_tools *t = rt->tools;
	for (int i = t->n_loaded; i-- > 0;) {
		tool_onunload_t onunload =
			(tool_onunload_t)own_symbol(t->loaded[i], "OnUnload");
		if (onunload)
			onunload();
	}
	/* a tool that did not restore its entries leaves none behind */
	hl_tools_table_reset();
	hl_tools_intercept_teardown(t);
	hl_tools_runtime_queue_notifier_clear(rt);
	for (int i = t->n_loaded; i-- > 0;)
		dlclose(t->loaded[i]);
	t->n_loaded = 0;
}
