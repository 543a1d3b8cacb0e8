/*
 * Logging for kfdemu: KFDEMU_LOG=none|error|warn|info|debug (default warn),
 * printed through the engines' log (gpu/gpu_log.c) at the machine's level.
 * At debug level every KFD ioctl is printed with its decoded argument fields
 * before and after the call and its result, from the field tables below
 * (names as in kfd_ioctl.h); the ioctl record (kemu_record.c) prints the
 * same fields.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "kemu_priv.h"

int kemu_log_level_parse(const char *s)
{
	static const char *const names[] = { "none", "error", "warn", "info", "debug" };
	if (!s || !*s)
		return KEMU_LOG_WARN;
	for (int i = 0; i < (int)KEMU_ARRAY_SIZE(names); i++) {
		if (!strcasecmp(s, names[i]))
			return i;
	}
	char *end;
	long v = strtol(s, &end, 10);
	if (!*end && v >= KEMU_LOG_NONE && v <= KEMU_LOG_DEBUG)
		return (int)v;
	return KEMU_LOG_WARN;
}

void kemu_log(const struct kemu_machine *m, enum kemu_log_level lvl, const char *fmt, ...)
{
	/* no machine (early setup): always printed */
	va_list ap;
	va_start(ap, fmt);
	kemu_gpu_vlog(m ? m->log_level : KEMU_LOG_DEBUG, lvl, fmt, ap);
	va_end(ap);
}

struct field { const char *name; unsigned short off, size; };
struct ioctl_desc { const char *name; const struct field *fields; };

#define F(n, o, s) { n, o, s }
static const struct field f_version[] = { F("major", 0, 4), F("minor", 4, 4), {0} };
static const struct field f_create_queue[] = {
	F("ring_base", 0, 8), F("wptr", 8, 8), F("rptr", 16, 8), F("doorbell_offset", 24, 8),
	F("ring_size", 32, 4), F("gpu_id", 36, 4), F("type", 40, 4), F("percentage", 44, 4),
	F("priority", 48, 4), F("queue_id", 52, 4), F("eop", 56, 8), F("eop_size", 64, 8),
	F("ctx_save", 72, 8), F("ctx_save_size", 80, 4), F("ctl_stack_size", 84, 4),
	F("sdma_engine_id", 88, 4), {0} };
static const struct field f_queue_id[] = { F("queue_id", 0, 4), {0} };
static const struct field f_mem_policy[] = {
	F("alt_base", 0, 8), F("alt_size", 8, 8), F("gpu_id", 16, 4), F("default", 20, 4),
	F("alternate", 24, 4), F("misc_flag", 28, 4), {0} };
static const struct field f_clock[] = {
	F("gpu_clock", 0, 8), F("cpu_clock", 8, 8), F("system_clock", 16, 8),
	F("system_freq", 24, 8), F("gpu_id", 32, 4), {0} };
static const struct field f_apertures_old[] = { F("num_of_nodes", 392, 4), {0} };
static const struct field f_update_queue[] = {
	F("ring_base", 0, 8), F("queue_id", 8, 4), F("ring_size", 12, 4),
	F("percentage", 16, 4), F("priority", 20, 4), {0} };
static const struct field f_create_event[] = {
	F("event_page_offset", 0, 8), F("trigger_data", 8, 4), F("type", 12, 4),
	F("auto_reset", 16, 4), F("node_id", 20, 4), F("event_id", 24, 4),
	F("slot_index", 28, 4), {0} };
static const struct field f_event_id[] = { F("event_id", 0, 4), {0} };
static const struct field f_wait[] = {
	F("events_ptr", 0, 8), F("num_events", 8, 4), F("wait_for_all", 12, 4),
	F("timeout", 16, 4), F("wait_result", 20, 4), {0} };
static const struct field f_va_gpu[] = { F("va", 0, 8), F("gpu_id", 8, 4), {0} };
static const struct field f_trap[] = { F("tba", 0, 8), F("tma", 8, 8), F("gpu_id", 16, 4), {0} };
static const struct field f_apertures_new[] = { F("ptr", 0, 8), F("num_of_nodes", 8, 4), {0} };
static const struct field f_acquire_vm[] = { F("drm_fd", 0, 4), F("gpu_id", 4, 4), {0} };
static const struct field f_alloc[] = {
	F("va", 0, 8), F("size", 8, 8), F("handle", 16, 8), F("mmap_offset", 24, 8),
	F("gpu_id", 32, 4), F("flags", 36, 4), {0} };
static const struct field f_handle[] = { F("handle", 0, 8), {0} };
static const struct field f_map[] = {
	F("handle", 0, 8), F("devices_ptr", 8, 8), F("n_devices", 16, 4),
	F("n_success", 20, 4), {0} };
static const struct field f_cu_mask[] = {
	F("queue_id", 0, 4), F("num_cu_mask", 4, 4), F("cu_mask_ptr", 8, 8), {0} };
static const struct field f_xnack[] = { F("xnack_enabled", 0, 4), {0} };
static const struct field f_avail[] = { F("available", 0, 8), F("gpu_id", 8, 4), {0} };
static const struct field f_runtime[] = {
	F("r_debug", 0, 8), F("mode_mask", 8, 4), F("capabilities", 12, 4), {0} };
static const struct field f_wave_state[] = {
	F("ctl_stack", 0, 8), F("ctl_used", 8, 4), F("save_used", 12, 4), F("queue_id", 16, 4),
	{0} };
static const struct field f_dmabuf_info[] = {
	F("size", 0, 8), F("metadata_ptr", 8, 8), F("metadata_size", 16, 4), F("gpu_id", 20, 4),
	F("flags", 24, 4), F("dmabuf_fd", 28, 4), {0} };
static const struct field f_import[] = {
	F("va", 0, 8), F("handle", 8, 8), F("gpu_id", 16, 4), F("dmabuf_fd", 20, 4), {0} };
static const struct field f_gws[] = {
	F("queue_id", 0, 4), F("num_gws", 4, 4), F("first_gws", 8, 4), {0} };
static const struct field f_export[] = {
	F("handle", 0, 8), F("flags", 8, 4), F("dmabuf_fd", 12, 4), {0} };
static const struct field f_tile[] = {
	F("num_tile_configs", 16, 4), F("num_macro_tile_configs", 20, 4), F("gpu_id", 24, 4),
	F("gb_addr_config", 28, 4), {0} };
static const struct field f_svm[] = {
	F("start", 0, 8), F("size", 8, 8), F("op", 16, 4), F("nattr", 20, 4), {0} };
#undef F

static const struct ioctl_desc descs[0x28] = {
	[0x01] = { "GET_VERSION", f_version },
	[0x02] = { "CREATE_QUEUE", f_create_queue },
	[0x03] = { "DESTROY_QUEUE", f_queue_id },
	[0x04] = { "SET_MEMORY_POLICY", f_mem_policy },
	[0x05] = { "GET_CLOCK_COUNTERS", f_clock },
	[0x06] = { "GET_PROCESS_APERTURES", f_apertures_old },
	[0x07] = { "UPDATE_QUEUE", f_update_queue },
	[0x08] = { "CREATE_EVENT", f_create_event },
	[0x09] = { "DESTROY_EVENT", f_event_id },
	[0x0A] = { "SET_EVENT", f_event_id },
	[0x0B] = { "RESET_EVENT", f_event_id },
	[0x0C] = { "WAIT_EVENTS", f_wait },
	[0x0D] = { "DBG_REGISTER_DEPRECATED", NULL },
	[0x0E] = { "DBG_UNREGISTER_DEPRECATED", NULL },
	[0x0F] = { "DBG_ADDRESS_WATCH_DEPRECATED", NULL },
	[0x10] = { "DBG_WAVE_CONTROL_DEPRECATED", NULL },
	[0x11] = { "SET_SCRATCH_BACKING_VA", f_va_gpu },
	[0x12] = { "GET_TILE_CONFIG", f_tile },
	[0x13] = { "SET_TRAP_HANDLER", f_trap },
	[0x14] = { "GET_PROCESS_APERTURES_NEW", f_apertures_new },
	[0x15] = { "ACQUIRE_VM", f_acquire_vm },
	[0x16] = { "ALLOC_MEMORY_OF_GPU", f_alloc },
	[0x17] = { "FREE_MEMORY_OF_GPU", f_handle },
	[0x18] = { "MAP_MEMORY_TO_GPU", f_map },
	[0x19] = { "UNMAP_MEMORY_FROM_GPU", f_map },
	[0x1A] = { "SET_CU_MASK", f_cu_mask },
	[0x1B] = { "GET_QUEUE_WAVE_STATE", f_wave_state },
	[0x1C] = { "GET_DMABUF_INFO", f_dmabuf_info },
	[0x1D] = { "IMPORT_DMABUF", f_import },
	[0x1E] = { "ALLOC_QUEUE_GWS", f_gws },
	[0x1F] = { "SMI_EVENTS", NULL },
	[0x20] = { "SVM", f_svm },
	[0x21] = { "SET_XNACK_MODE", f_xnack },
	[0x22] = { "CRIU_OP", NULL },
	[0x23] = { "AVAILABLE_MEMORY", f_avail },
	[0x24] = { "EXPORT_DMABUF", f_export },
	[0x25] = { "RUNTIME_ENABLE", f_runtime },
	[0x26] = { "DBG_TRAP", NULL },
};

const char *kemu_ioctl_name(unsigned nr)
{
	/* libhsakmt 5.2's non-upstream ioctls */
	static const char *const rocm[] = { "IPC_IMPORT_HANDLE_ROCM(0x80)",
					    "IPC_EXPORT_HANDLE_ROCM(0x81)", "DBG_TRAP_ROCM(0x82)",
					    "CROSS_MEMORY_COPY_ROCM(0x83)", "RLC_SPM_ROCM(0x84)",
					    "0x85" };
	if (nr < KEMU_ARRAY_SIZE(descs) && descs[nr].name)
		return descs[nr].name;
	if (nr >= KFD_IOCTL_NR_ROCM_FIRST && nr <= KFD_IOCTL_NR_ROCM_LAST)
		return rocm[nr - KFD_IOCTL_NR_ROCM_FIRST];
	return "UNKNOWN";
}

size_t kemu_ioctl_fields(unsigned nr, const void *arg, size_t size, char *buf, size_t cap)
{
	size_t len = 0;
	if (!cap)
		return 0;
	buf[0] = 0;
	const struct field *f = nr < KEMU_ARRAY_SIZE(descs) ? descs[nr].fields : NULL;
	for (; arg && f && f->name && len + 64 < cap; f++) {
		if ((size_t)f->off + f->size > size)
			break;
		uint64_t v = 0;
		memcpy(&v, (const uint8_t *)arg + f->off, f->size);
		len += (size_t)snprintf(buf + len, cap - len, " %s=0x%llx", f->name,
					(unsigned long long)v);
	}
	return len < cap ? len : cap - 1;
}

void kemu_log_ioctl(const struct kemu_machine *m, unsigned nr, const char *phase,
		    const void *arg, size_t size, long ret)
{
	if (!m || m->log_level < KEMU_LOG_DEBUG)
		return;
	char buf[768];
	kemu_ioctl_fields(nr, arg, size, buf, sizeof(buf));
	if (!strcmp(phase, "in"))
		kemu_dbg(m, "%s %s:%s", kemu_ioctl_name(nr), phase, buf);
	else
		kemu_dbg(m, "%s %s:%s -> %ld%s%s", kemu_ioctl_name(nr), phase, buf, ret,
			 ret < 0 ? " " : "", ret < 0 ? strerrorname_np((int)-ret) ?: "" : "");
}
