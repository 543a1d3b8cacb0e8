/*
 * isa_probe.c — kfdemu-isa-probe: asks the interpreter, one instruction
 * per input line, whether it executes it (kemu_isa_probe).  Input lines
 * are "<gfx90a|gfx942> <word0> [<word1> [<word2>]]" in hex; each output
 * line is "1 <bytes>" (implemented), "0 <bytes>" (decoded length, not
 * implemented) or "0 0" (not decodable).  Used by emu/isa/isa_table.py to
 * fill and check the "interp" column of the generated instruction table.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa.h"

int main(void)
{
	char line[256];
	unsigned lineno = 0;

	while (fgets(line, sizeof(line), stdin)) {
		char target[16];
		unsigned w[3], size;
		uint32_t words[3], gfx;
		int n, rc;

		lineno++;
		n = sscanf(line, "%15s %x %x %x", target, &w[0], &w[1], &w[2]);
		if (n < 2) {
			fprintf(stderr, "kfdemu-isa-probe: line %u: expected \"<gfx> <word>...\"\n", lineno);
			return 2;
		}
		if (!strcmp(target, "gfx90a"))
			gfx = KEMU_ISA_GFX90A;
		else if (!strcmp(target, "gfx942"))
			gfx = KEMU_ISA_GFX942;
		else {
			fprintf(stderr, "kfdemu-isa-probe: line %u: unknown target %s\n", lineno, target);
			return 2;
		}
		for (int i = 0; i < n - 1; i++)
			words[i] = w[i];
		rc = kemu_isa_probe(gfx, words, (unsigned)(n - 1), &size);
		if (rc < 0) {
			fprintf(stderr, "kfdemu-isa-probe: line %u: %s\n", lineno, strerror(-rc));
			return 2;
		}
		printf("%d %u\n", rc, size);
	}
	return 0;
}
