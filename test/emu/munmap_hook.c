/*
 * A test's hook inside munmap(2), for test_emu_shim: linked into the test
 * program (a DT_NEEDED library, so after the preloaded shim and before
 * libc in symbol lookup), its munmap is the "real" one the shim calls.
 * Armed once, it runs the test's function right after the system call,
 * while the shim's munmap has not returned yet: what another thread could
 * do with the freed range before the shim's MMU-notifier stand-in runs.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "munmap_hook.h"

struct hook {
	hl_munmap_hook_fn fn;
	void *data;
};
static struct hook armed;
static atomic_bool is_armed;

void hl_munmap_hook_once(hl_munmap_hook_fn fn, void *data)
{
	if (!fn)
		return;
	armed.fn = fn;
	armed.data = data;
	/* release: pairs with the acquire exchange in munmap (fn and data) */
	atomic_store_explicit(&is_armed, true, memory_order_release);
}

__attribute__((visibility("default"))) int munmap(void *addr, size_t len)
{
	static int (*real)(void *, size_t);
	if (!real) {
		real = (int (*)(void *, size_t))dlsym(RTLD_NEXT, "munmap");
		if (!real) {
			fprintf(stderr, "munmap_hook: no next munmap\n");
			abort();
		}
	}
	int r = real(addr, len);
	/* acquire: pairs with hl_munmap_hook_once's release */
	if (r == 0 && atomic_exchange_explicit(&is_armed, false, memory_order_acquire))
		armed.fn(addr, len, armed.data);
	return r;
}
