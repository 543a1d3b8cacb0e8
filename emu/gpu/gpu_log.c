/*
 * The emulator's log: KFDEMU_LOG=none|error|warn|info|debug (default warn),
 * to stderr with a "kfdemu[pid]:" prefix.  The driver (emu/kfd, kemu_log)
 * and the engines both print through it; the threshold is the machine's
 * level, which the driver hands each engine with its queues.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <unistd.h>

#include "gpu.h"

void kemu_gpu_vlog(int threshold, enum kemu_log_level lvl, const char *fmt, va_list ap)
{
	static const char *const tag[] = { "", "error", "warning", "info", "debug" };
	if ((int)lvl > threshold || lvl <= KEMU_LOG_NONE || lvl > KEMU_LOG_DEBUG)
		return;
	char buf[1024];
	vsnprintf(buf, sizeof(buf), fmt, ap);
	fprintf(stderr, "kfdemu[%d]: %s: %s\n", (int)getpid(), tag[lvl], buf);
}

void kemu_gpu_log(int threshold, enum kemu_log_level lvl, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	kemu_gpu_vlog(threshold, lvl, fmt, ap);
	va_end(ap);
}

_Thread_local char kemu_gpu_thread_name[16];

void kemu_gpu_thread_set_name(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(kemu_gpu_thread_name, sizeof(kemu_gpu_thread_name), fmt, ap);
	va_end(ap);
}
