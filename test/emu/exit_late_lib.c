/*
 * A library whose destructor still uses the GPU runtime, as HIP's does: it
 * is a DT_NEEDED library of the test program, so glibc finalizes it after
 * kfdemu's preloaded shim (a preloaded library, which nothing depends on,
 * is finalized before the program's libraries).  Armed by the program,
 * the destructor makes the runtime's event thread (blocked in WAIT_EVENTS
 * on an async handler's signal) run the handler, waits for it on a second
 * signal, destroys both and calls hsa_shut_down, which joins the runtime's
 * service threads.  On a real KFD all of that works: the device lives until
 * exit_group.  It reports through stdout and _exit()s with a distinct
 * status on each failure (a destructor cannot return one).
 *
 * The runtime is dlopen'ed from a path, so one binary runs on hsalite,
 * Debian's ROCr 5.2.3 and ROCr 1.18; the few entry points are declared
 * here, with the HSA ABI's types.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "exit_late_lib.h"

typedef struct { uint64_t handle; } late_signal_t;
typedef bool (*late_handler_t)(int64_t value, void *arg);

/* HSA_SIGNAL_CONDITION_EQ, HSA_WAIT_STATE_BLOCKED */
#define LATE_EQ 0
#define LATE_BLOCKED 0

static struct {
	bool armed;
	late_signal_t trigger, done;
	int (*shut_down)(void);
	int (*store)(late_signal_t, int64_t);
	int64_t (*wait)(late_signal_t, int, int64_t, uint64_t, int);
	int (*destroy)(late_signal_t);
} late;

/* The async handler, on the runtime's event thread: tells the destructor. */
static bool on_trigger(int64_t value, void *arg)
{
	(void)arg;
	(void)value;
	late.store(late.done, 1);
	return false; /* one-shot */
}

int exit_late_arm(const char *runtime)
{
	void *lib = dlopen(runtime, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		fprintf(stderr, "exit-late: %s\n", dlerror());
		return EXIT_LATE_NO_RUNTIME;
	}
	int (*init)(void) = (int (*)(void))dlsym(lib, "hsa_init");
	int (*create)(int64_t, uint32_t, const void *, late_signal_t *) =
		(int (*)(int64_t, uint32_t, const void *, late_signal_t *))dlsym(lib,
										 "hsa_signal_create");
	int (*async)(late_signal_t, int, int64_t, late_handler_t, void *) =
		(int (*)(late_signal_t, int, int64_t, late_handler_t, void *))dlsym(
			lib, "hsa_amd_signal_async_handler");
	late.shut_down = (int (*)(void))dlsym(lib, "hsa_shut_down");
	late.store = (int (*)(late_signal_t, int64_t))dlsym(lib, "hsa_signal_store_screlease");
	late.wait = (int64_t (*)(late_signal_t, int, int64_t, uint64_t, int))dlsym(
		lib, "hsa_signal_wait_scacquire");
	late.destroy = (int (*)(late_signal_t))dlsym(lib, "hsa_signal_destroy");
	if (!init || !create || !async || !late.shut_down || !late.store || !late.wait ||
	    !late.destroy)
		return 2;
	if (init() != 0)
		return EXIT_LATE_NO_RUNTIME; /* no GPU agent on this runtime */
	if (create(0, 0, NULL, &late.trigger) || create(0, 0, NULL, &late.done))
		return 3;
	if (async(late.trigger, LATE_EQ, 1, on_trigger, NULL))
		return 4;
	late.armed = true;
	return 0;
}

__attribute__((destructor)) static void exit_late_fini(void)
{
	if (!late.armed)
		return;
	printf("exit-late: destructor runs\n");
	fflush(stdout);
	if (late.store(late.trigger, 1))
		_exit(40);
	/* blocks in the runtime (WAIT_EVENTS) until the handler has run */
	if (late.wait(late.done, LATE_EQ, 1, UINT64_MAX, LATE_BLOCKED) != 1)
		_exit(41);
	if (late.destroy(late.trigger) || late.destroy(late.done))
		_exit(42);
	if (late.shut_down())
		_exit(43);
	printf("exit-late: hsa_shut_down returned\n");
	fflush(stdout);
}
