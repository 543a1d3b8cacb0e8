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
 *   end OnUnload|exit                 exit: the program never called
 *                                     hsa_shut_down (the summary is then
 *                                     written by a destructor)
 *   failed <count> <name>...          what OnLoad was told
 *   table <name> major <m> minor <bytes> step <s>
 *   call <function> <count>           each function called at least once
 *   extension_table <id> <status>     what OnLoad got asking the runtime's
 *                                     entry for the aqlprofile and loader
 *                                     tables, as roctracer's and
 *                                     rocprofiler's OnLoad do (they go on
 *                                     without aqlprofile when the runtime
 *                                     answers HSA_STATUS_ERROR, ROCr's answer
 *                                     without its library)
 *
 * The function a slot holds is named from the layout of the table's major
 * version: ROCr 5.2.3's (AmdExtTable major 1) or 1.18's (major 2), both in
 * test/abi/abi_api_trace.inc.  HL_TRACE_REFUSE=1 makes OnLoad return false
 * (the runtime must then unload the tool and count it as failed);
 * HL_TRACE_NO_TIMING=1 leaves the queues alone (counting only).
 *
 * Dispatch timing: every queue the program creates with hsa_queue_create is
 * made an intercept queue (hsa_amd_queue_intercept_create, profiling on)
 * whose interceptor gives each kernel dispatch a completion signal of the
 * tool's and forwards after it a barrier-AND packet that waits for that
 * signal and then completes the program's own signal; when the tool's
 * signal completes, hsa_amd_profiling_get_dispatch_time gives the kernel's
 * start and end.  OnUnload adds
 *
 *   dispatches <n> timed <m>
 *   dispatch <intercept index> kernel_object <hex> ticks <end - start>
 *            start <s> end <e> host_before <b> host_after <a>
 *
 * all in the system timestamp domain (hsa_system_get_info TIMESTAMP, which
 * hsa_amd_profiling_get_dispatch_time converts to): host_before is read in
 * the interceptor before the packet is passed on (the kernel cannot start
 * earlier), host_after once its completion signal was seen at 0 (it cannot
 * end later), so a correct kernel time has b <= s <= e <= a.
 *
 * The tool's own calls go straight to the saved entries: they are not
 * counted.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hsa/hsa_api_trace.h>
/* The header spells its entries decltype(fn), as ROCr's (tools' generators
 * read it as text), and in C defines decltype for itself only. */
#ifdef decltype
#error "hsa_api_trace.h left its C decltype macro defined"
#endif

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
static char extension_text[256];

/* The function a slot held before the tool wrapped it, by name (NULL if
 * the runtime's table has no such entry). */
static void *original(const char *field)
{
	for (unsigned i = 0; i < n_slots; i++)
		if (!strcmp(slot_name[i], field))
			return hl_tt_saved[i];
	return NULL;
}

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

/* ---- dispatch timing through intercept queues ---- */

#define MAX_DISPATCHES 4096

struct dispatch {
	uint64_t index, kernel_object;
	hsa_agent_t agent;
	hsa_signal_t signal; /* the tool's completion signal */
	uint64_t start, end;
	uint64_t host_before, host_after; /* the window the kernel ran in */
	_Atomic int timed;
};

static struct dispatch dispatches[MAX_DISPATCHES];
static _Atomic unsigned n_dispatches;

static struct {
	HSA_API_TRACE_TYPE(hsa_queue_create) *queue_create;
	HSA_API_TRACE_TYPE(hsa_amd_queue_intercept_create) *intercept_create;
	HSA_API_TRACE_TYPE(hsa_amd_queue_intercept_register) *intercept_register;
	HSA_API_TRACE_TYPE(hsa_amd_profiling_set_profiler_enabled) *profiler_enabled;
	HSA_API_TRACE_TYPE(hsa_amd_profiling_get_dispatch_time) *dispatch_time;
	HSA_API_TRACE_TYPE(hsa_signal_create) *signal_create;
	HSA_API_TRACE_TYPE(hsa_signal_destroy) *signal_destroy;
	HSA_API_TRACE_TYPE(hsa_signal_load_scacquire) *signal_load;
	HSA_API_TRACE_TYPE(hsa_amd_signal_async_handler) *async_handler;
	HSA_API_TRACE_TYPE(hsa_system_get_info) *system_info;
} rt;

/* the host's now in the system timestamp domain; 0 if the runtime fails */
static uint64_t host_now(void)
{
	uint64_t ts = 0;

	if (rt.system_info(HSA_SYSTEM_INFO_TIMESTAMP, &ts) != HSA_STATUS_SUCCESS)
		return 0;
	return ts;
}

static void read_time(struct dispatch *d)
{
	hsa_amd_profiling_dispatch_time_t t;
	int expected = 0;

	if (!__atomic_compare_exchange_n(&d->timed, &expected, 2, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE))
		return; /* timed, or being timed */
	/* the completion signal is 0 (the caller saw it): the kernel is over */
	d->host_after = host_now();
	if (rt.dispatch_time(d->agent, d->signal, &t) == HSA_STATUS_SUCCESS) {
		d->start = t.start;
		d->end = t.end;
		__atomic_store_n(&d->timed, 1, __ATOMIC_RELEASE);
	} else {
		__atomic_store_n(&d->timed, 3, __ATOMIC_RELEASE);
	}
}

static bool dispatch_done(hsa_signal_value_t value, void *arg)
{
	(void)value;
	read_time(arg);
	return false;
}

/* The interceptor: one packet at a time (the runtime hands them so). */
static void interceptor(const void *pkts, uint64_t count, uint64_t index, void *data,
			hsa_amd_queue_intercept_packet_writer writer)
{
	const hsa_agent_t *agent = data;
	const hsa_kernel_dispatch_packet_t *in = pkts;

	for (uint64_t i = 0; i < count; i++) {
		uint16_t type = (in[i].header >> HSA_PACKET_HEADER_TYPE) & 0xff;
		unsigned n = __atomic_load_n(&n_dispatches, __ATOMIC_RELAXED);
		hsa_signal_t mine;
		if (type != HSA_PACKET_TYPE_KERNEL_DISPATCH || n >= MAX_DISPATCHES ||
		    rt.signal_create(1, 0, NULL, &mine) != HSA_STATUS_SUCCESS) {
			writer(&in[i], 1);
			continue;
		}
		struct dispatch *d = &dispatches[n];
		d->index = index + i;
		d->kernel_object = in[i].kernel_object;
		d->agent = *agent;
		d->signal = mine;
		d->host_before = host_now();
		__atomic_store_n(&n_dispatches, n + 1, __ATOMIC_RELEASE);

		struct {
			hsa_kernel_dispatch_packet_t dispatch;
			hsa_barrier_and_packet_t barrier;
		} out;
		memcpy(&out.dispatch, &in[i], sizeof(out.dispatch));
		out.dispatch.completion_signal = mine;
		memset(&out.barrier, 0, sizeof(out.barrier));
		/* waits for the kernel, then completes the program's signal
		 * with the kernel's release scope */
		out.barrier.header =
			(HSA_PACKET_TYPE_BARRIER_AND << HSA_PACKET_HEADER_TYPE) |
			(1 << HSA_PACKET_HEADER_BARRIER) |
			(in[i].header & (3 << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE));
		out.barrier.dep_signal[0] = mine;
		out.barrier.completion_signal = in[i].completion_signal;
		rt.async_handler(mine, HSA_SIGNAL_CONDITION_EQ, 0, dispatch_done, d);
		writer(&out, 2);
	}
}

static hsa_agent_t queue_agents[64];
static _Atomic unsigned n_queue_agents;

/* hsa_queue_create's entry: an intercept queue with profiling on, or (the
 * runtime refusing one) the queue asked for. */
static hsa_status_t traced_queue_create(hsa_agent_t agent, uint32_t size, hsa_queue_type32_t type,
					void (*callback)(hsa_status_t, hsa_queue_t *, void *),
					void *data, uint32_t private_size, uint32_t group_size,
					hsa_queue_t **queue)
{
	unsigned a = __atomic_fetch_add(&n_queue_agents, 1, __ATOMIC_RELAXED);
	if (a < 64 && rt.intercept_create &&
	    rt.intercept_create(agent, size, type, callback, data, private_size, group_size,
				queue) == HSA_STATUS_SUCCESS) {
		queue_agents[a] = agent;
		rt.intercept_register(*queue, interceptor, &queue_agents[a]);
		rt.profiler_enabled(*queue, 1);
		return HSA_STATUS_SUCCESS;
	}
	return rt.queue_create(agent, size, type, callback, data, private_size, group_size, queue);
}

static void timing_setup(void)
{
	rt.queue_create = original("hsa_queue_create_fn");
	rt.intercept_create = original("hsa_amd_queue_intercept_create_fn");
	rt.intercept_register = original("hsa_amd_queue_intercept_register_fn");
	rt.profiler_enabled = original("hsa_amd_profiling_set_profiler_enabled_fn");
	rt.dispatch_time = original("hsa_amd_profiling_get_dispatch_time_fn");
	rt.signal_create = original("hsa_signal_create_fn");
	rt.signal_destroy = original("hsa_signal_destroy_fn");
	rt.signal_load = original("hsa_signal_load_scacquire_fn");
	rt.async_handler = original("hsa_amd_signal_async_handler_fn");
	rt.system_info = original("hsa_system_get_info_fn");
	if (!rt.queue_create || !rt.intercept_create || !rt.intercept_register ||
	    !rt.profiler_enabled || !rt.dispatch_time || !rt.signal_create ||
	    !rt.signal_destroy || !rt.signal_load || !rt.async_handler || !rt.system_info)
		return;
	for (unsigned i = 0; i < n_slots; i++)
		if (!strcmp(slot_name[i], "hsa_queue_create_fn"))
			hl_tt_saved[i] = (void *)traced_queue_create;
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

	/* the extension tables a real tool asks for at OnLoad, before it wraps
	 * anything (roctracer 5.2's HsaRsrcFactory: aqlprofile major 1, the
	 * loader major 1), through the runtime's own entry */
	used = 0;
	if (table->core_ && table->core_->hsa_system_get_major_extension_table_fn) {
		static const uint16_t ids[] = { HSA_EXTENSION_AMD_AQLPROFILE,
						HSA_EXTENSION_AMD_LOADER };
		for (unsigned i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
			unsigned char buf[256];
			hsa_status_t st = table->core_->hsa_system_get_major_extension_table_fn(
				ids[i], 1, sizeof(buf), buf);
			used += (size_t)snprintf(extension_text + used,
						 sizeof(extension_text) - used,
						 "extension_table %u %#x\n", ids[i], (unsigned)st);
		}
	}

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
	/* HL_TRACE_NO_TIMING=1: count only (the per-call cost of a table hop,
	 * docs/tools.md), no intercept queues */
	const char *no_timing = getenv("HL_TRACE_NO_TIMING");
	if (!no_timing || strcmp(no_timing, "1"))
		timing_setup();
	return true;
}

static int by_name(const void *a, const void *b)
{
	const unsigned *x = a, *y = b;
	return strcmp(slot_name[*x], slot_name[*y]);
}

static bool summary_written;

/* The summary; runtime_alive: at OnUnload (the runtime may still be asked
 * for times and have signals freed), not at process exit. */
static void write_summary(bool runtime_alive)
{
	const char *path = getenv("HL_TRACE_OUT");
	FILE *out = path ? fopen(path, "w") : stderr;
	unsigned order[MAX_SLOTS];

	if (!out) {
		perror(path);
		out = stderr;
	}
	summary_written = true;
	fprintf(out, "runtime_version %llu\nend %s\n%s\n%s%s", (unsigned long long)runtime_version,
		runtime_alive ? "OnUnload" : "exit", failed_text, tables_text, extension_text);
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
	unsigned nd = __atomic_load_n(&n_dispatches, __ATOMIC_ACQUIRE), timed = 0;
	for (unsigned i = 0; i < nd; i++) {
		/* a kernel the program saw complete before the tool's handler
		 * ran: its signal is 0 already */
		if (runtime_alive && rt.signal_load(dispatches[i].signal) == 0)
			read_time(&dispatches[i]);
		timed += __atomic_load_n(&dispatches[i].timed, __ATOMIC_ACQUIRE) == 1;
	}
	fprintf(out, "dispatches %u timed %u\n", nd, timed);
	for (unsigned i = 0; i < nd; i++) {
		struct dispatch *d = &dispatches[i];
		if (__atomic_load_n(&d->timed, __ATOMIC_ACQUIRE) == 1)
			fprintf(out,
				"dispatch %llu kernel_object %llx ticks %llu start %llu end %llu "
				"host_before %llu host_after %llu\n",
				(unsigned long long)d->index, (unsigned long long)d->kernel_object,
				(unsigned long long)(d->end - d->start),
				(unsigned long long)d->start, (unsigned long long)d->end,
				(unsigned long long)d->host_before,
				(unsigned long long)d->host_after);
		else
			fprintf(out, "dispatch %llu kernel_object %llx untimed\n",
				(unsigned long long)d->index, (unsigned long long)d->kernel_object);
		if (runtime_alive)
			rt.signal_destroy(d->signal);
	}
	if (out != stderr)
		fclose(out);
}

void OnUnload(void)
{
	write_summary(true);
}

/* A program that never calls hsa_shut_down (HIP's runtime does not) never
 * gets OnUnload: the summary is written at exit, from what the handlers
 * recorded, without calling the runtime. */
__attribute__((destructor)) static void at_exit(void)
{
	if (!summary_written && n_slots)
		write_summary(false);
}
