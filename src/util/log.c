/*
 * Log output.  The threshold is read from HSALITE_LOG on first use; a race
 * between two first users is harmless because both compute the same value.
 * Each message is formatted into one buffer and written with one write(2) so
 * lines from several threads do not interleave.
 */
#include "util/log.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* The log is the process's: HSALITE_LOG and HSALITE_LOG_FILE are read once
 * (hl_log_level_init) and hold before, between and after runtimes (a
 * fork child shares the parent's file, as stderr). */
_Atomic int hl_log_threshold = -1;
static _Atomic int log_fd = -1;

static int parse_level(const char *s)
{
	static const char *const names[] = { "none", "error", "warn", "info", "debug" };
	if (!s || !*s)
		return HL_LOG_NONE;
	for (int i = 0; i < 5; i++)
		if (!strcasecmp(s, names[i]))
			return i;
	if (!strcasecmp(s, "warning"))
		return HL_LOG_WARN;
	char *end;
	long v = strtol(s, &end, 10);
	if (*end == '\0' && v >= 0)
		return v > HL_LOG_DEBUG ? HL_LOG_DEBUG : (int)v;
	return HL_LOG_WARN; /* set but unreadable: show problems */
}

int hl_log_level_init(void)
{
	int level = parse_level(getenv("HSALITE_LOG"));
	int fd = STDERR_FILENO;
	const char *path = getenv("HSALITE_LOG_FILE");
	if (level > HL_LOG_NONE && path && *path) {
		int f = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
		if (f >= 0)
			fd = f;
	}
	int expected = -1;
	if (atomic_compare_exchange_strong_explicit(&log_fd, &expected, fd, memory_order_relaxed,
						    memory_order_relaxed) == 0 &&
	    fd != STDERR_FILENO)
		close(fd); /* another thread won the race */
	atomic_store_explicit(&hl_log_threshold, level, memory_order_relaxed);
	return level;
}

void hl_log_write(int level, const char *subsys, const char *fmt, ...)
{
	static const char *const tags[] = { "", "error", "warning", "info", "debug" };
	char buf[1024];
	int n = snprintf(buf, sizeof(buf), "hsalite: %s: %s: ",
			 tags[level < 0 || level > 4 ? 0 : level], subsys);
	if (n < 0)
		return;
	va_list ap;
	va_start(ap, fmt);
	int m = vsnprintf(buf + n, sizeof(buf) - (size_t)n - 1, fmt, ap);
	va_end(ap);
	if (m < 0)
		return;
	size_t len = (size_t)n + (size_t)m;
	if (len > sizeof(buf) - 2)
		len = sizeof(buf) - 2;
	buf[len++] = '\n';
	int fd = atomic_load_explicit(&log_fd, memory_order_relaxed);
	ssize_t w = write(fd < 0 ? STDERR_FILENO : fd, buf, len);
	(void)w;
}

const char *hl_errno_name(int err)
{
	static _Thread_local char unknown[16];
	if (err < 0)
		err = -err;
	switch (err) {
#define E(x) case x: return #x
	E(EPERM); E(ENOENT); E(ESRCH); E(EINTR); E(EIO); E(ENXIO); E(E2BIG);
	E(EBADF); E(EAGAIN); E(ENOMEM); E(EACCES); E(EFAULT); E(EBUSY); E(EEXIST);
	E(ENODEV); E(ENOTDIR); E(EISDIR); E(EINVAL); E(ENFILE); E(EMFILE);
	E(ENOTTY); E(EFBIG); E(ENOSPC); E(ERANGE); E(ENOSYS); E(EOVERFLOW);
	E(EADDRINUSE); E(ETIMEDOUT); E(EOPNOTSUPP); E(ECANCELED); E(EPROTO);
#undef E
	case 524: return "ENOTSUPP";
	default:
		snprintf(unknown, sizeof(unknown), "E%d", err);
		return unknown;
	}
}
