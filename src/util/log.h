/*
 * The runtime's log.  Silent by default; HSALITE_LOG=error|warn|info|debug
 * (or 1..4) turns it on, and HSALITE_LOG_FILE=path sends it to a file
 * instead of stderr.  Messages say what failed and why, with the errno name:
 *   hsalite: error: kfd: CREATE_QUEUE: EINVAL (Invalid argument): ring ...
 */
#ifndef HSALITE_LOG_H
#define HSALITE_LOG_H

#include <stdatomic.h>

enum hl_log_level {
	HL_LOG_NONE = 0,
	HL_LOG_ERROR = 1,
	HL_LOG_WARN = 2,
	HL_LOG_INFO = 3,
	HL_LOG_DEBUG = 4,
};

/* The current threshold; -1 until the environment has been read. */
extern _Atomic int hl_log_threshold;

int hl_log_level_init(void);
void hl_log_write(int level, const char *subsys, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* "EINVAL" for 22 (or "E123" for an unknown number); err may be negative. */
const char *hl_errno_name(int err);

static inline int hl_log_enabled(int level)
{
	int t = atomic_load_explicit(&hl_log_threshold, memory_order_relaxed);
	if (t < 0)
		t = hl_log_level_init();
	return level <= t;
}

#define hl_log(level, subsys, ...)                                  \
	do {                                                        \
		if (hl_log_enabled(level))                          \
			hl_log_write((level), (subsys), __VA_ARGS__); \
	} while (0)

#define hl_error(subsys, ...) hl_log(HL_LOG_ERROR, subsys, __VA_ARGS__)
#define hl_warn(subsys, ...)  hl_log(HL_LOG_WARN, subsys, __VA_ARGS__)
#define hl_info(subsys, ...)  hl_log(HL_LOG_INFO, subsys, __VA_ARGS__)
#define hl_debug(subsys, ...) hl_log(HL_LOG_DEBUG, subsys, __VA_ARGS__)

#endif /* HSALITE_LOG_H */
