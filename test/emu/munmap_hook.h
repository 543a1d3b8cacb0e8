/* munmap_hook.c: run a test's function inside munmap(2), right after the
 * system call, once. */
#ifndef HL_MUNMAP_HOOK_H
#define HL_MUNMAP_HOOK_H

#include <stddef.h>

typedef void (*hl_munmap_hook_fn)(void *addr, size_t len, void *data);

/* The next munmap that succeeds calls fn(addr, len, data) before it
 * returns.  NULL fn: nothing is armed. */
void hl_munmap_hook_once(hl_munmap_hook_fn fn, void *data);

#endif
