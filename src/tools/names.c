/*
 * HSA_TOOLS_LIB's list of names, parsed as ROCr's runtime.cpp
 * parse_tool_names parses it (the rules are on hl_tools_parse_names).
 * No runtime state: test/tools drives it directly.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "tools/tools_priv.h"

/* ROCr's parse_tool_names, step for step: the text up to the next space,
 * quote or backslash (a "segment") is added to the name being built at a
 * space (inside quotes, with the space), at a closing quote and before a
 * backslash's character; the segment before an opening quote is dropped;
 * an unquoted space and a closing quote end the name (empty ones too), the
 * end of the list ends a non-empty one.  A trailing backslash is dropped
 * (ROCr loops on it forever). */
int hl_tools_parse_names(const char *list, char **names, int max)
{
	size_t cap = strlen(list) + 1, len = 0;
	char *name = malloc(cap);
	bool quoted = false;
	int n = 0;

	if (!name)
		return -ENOMEM;
#define ADD(from, count) (memcpy(name + len, (from), (count)), len += (count))
#define PUSH()                                                      \
	do {                                                        \
		name[len] = '\0';                                   \
		len = 0;                                            \
		if (n < max && !(names[n++] = strdup(name)))        \
			goto err_nomem;                             \
	} while (0)
	for (const char *p = list; *p;) {
		size_t seg = strcspn(p, " \"\\");
		if (!p[seg]) {
			ADD(p, seg);
			break;
		}
		switch (p[seg]) {
		case ' ':
			if (!quoted) {
				ADD(p, seg);
				PUSH();
			} else {
				ADD(p, seg + 1);
			}
			p += seg + 1;
			break;
		case '"':
			if (quoted) {
				quoted = false;
				ADD(p, seg);
				PUSH();
			} else {
				quoted = true;
			}
			p += seg + 1;
			break;
		default: /* backslash */
			ADD(p, seg);
			if (p[seg + 1]) {
				ADD(p + seg + 1, 1);
				p += seg + 2;
			} else {
				p += seg + 1;
			}
			break;
		}
	}
	if (len)
		PUSH();
#undef ADD
#undef PUSH
	free(name);
	return n < max ? n : max;

err_nomem:
	n--;
	while (n > 0)
		free(names[--n]);
	free(name);
	return -ENOMEM;
}
