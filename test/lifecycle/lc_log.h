/*
 * Reading what the runtime logged (HSALITE_LOG_FILE): a suite truncates the
 * file before hsa_init and looks for a line afterwards.  hsalite only; on
 * another runtime the file stays empty.
 */
#ifndef HSALITE_LC_LOG_H
#define HSALITE_LC_LOG_H

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static inline void lc_log_truncate(void)
{
	const char *path = getenv("HSALITE_LOG_FILE");
	if (path) {
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd >= 0)
			close(fd);
	}
}

/* Whether a line of the log contains what. */
static inline bool lc_log_has(const char *what)
{
	const char *path = getenv("HSALITE_LOG_FILE");
	FILE *f = path ? fopen(path, "r") : NULL;
	if (!f)
		return false;
	char line[1024];
	bool found = false;
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, what) != NULL;
	fclose(f);
	return found;
}

#endif
