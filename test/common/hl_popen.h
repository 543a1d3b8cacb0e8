/*
 * Running a shell command line and keeping all it printed: the suites that
 * run a program under the kfdemu launcher and read its log and status
 * (test/emu: exit, exit_late, launcher, peer_rocminfo).
 */
#ifndef HL_POPEN_H
#define HL_POPEN_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

/* Runs line with popen and reads its whole output into *out (malloc'd,
 * NUL-terminated; the caller frees it).  Returns pclose's status (decode it
 * with WIFEXITED/WEXITSTATUS), or -1 when the command could not be started
 * (*out is then NULL). */
static inline int hl_popen_read(const char *line, char **out)
{
	*out = NULL;
	FILE *p = popen(line, "r");
	if (!p)
		return -1;
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), p)) > 0)
		if (mem)
			fwrite(buf, 1, n, mem);
	if (mem)
		fclose(mem);
	int st = pclose(p);
	*out = text;
	return text ? st : -1;
}

#endif
