/*
 * The "late" case of lifecycle_exit (test_exit.c): a library whose
 * destructor runs after the runtime library's.  It is a DT_NEEDED library
 * of lifecycle_exit_late, initialized at startup; the runtime is dlopened
 * later (lc_exit_late_arm, called from main), so glibc finalizes the
 * runtime first (ROCr 5.2.3's RuntimeCleanup; hsalite's destructor, which
 * puts its teardown after every destructor).  The destructor then uses the
 * runtime as HIP's does at exit: a signal keeps its value and is destroyed
 * (an async handler's thread is still alive), and an hsa_init /
 * hsa_shut_down pair works, as on ROCr 1.18; ROCr 5.2.3 answers that
 * hsa_init with OUT_OF_RESOURCES (LC_PEER=rocr) and its hsa_shut_down with
 * SUCCESS, doing nothing.  The reference lc_exit_late_arm took stays
 * outstanding: hsalite's exit teardown releases it.  A failed check
 * _exit()s with its step (a destructor returns nothing); a crash or a hang
 * is the parent's to see.
 *
 * The runtime comes from a path, so the same binary runs on hsalite and on
 * Debian's ROCr 5.2.3; the entry points are looked up by name, with the
 * HSA ABI's types (include/hsa).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hsa/hsa.h"
#include "hsa/hsa_ext_amd.h"

#include "exit_late.h"

static struct {
	bool armed;
	hsa_status_t (*init)(void);
	hsa_status_t (*shut_down)(void);
	hsa_signal_value_t (*load)(hsa_signal_t);
	hsa_status_t (*destroy)(hsa_signal_t);
	hsa_signal_t held, handled;
} late;

static bool never_called(hsa_signal_value_t v, void *arg)
{
	(void)v;
	(void)arg;
	return true;
}

int lc_exit_late_arm(const char *path)
{
	void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		fprintf(stderr, "lc-late: dlopen %s: %s\n", path, dlerror());
		return 60;
	}
	hsa_status_t (*create)(hsa_signal_value_t, uint32_t, const hsa_agent_t *,
			       hsa_signal_t *) = dlsym(lib, "hsa_signal_create");
	hsa_status_t (*async)(hsa_signal_t, hsa_signal_condition_t, hsa_signal_value_t,
			      hsa_amd_signal_handler, void *) =
		dlsym(lib, "hsa_amd_signal_async_handler");
	late.init = (hsa_status_t (*)(void))dlsym(lib, "hsa_init");
	late.shut_down = (hsa_status_t (*)(void))dlsym(lib, "hsa_shut_down");
	late.load = (hsa_signal_value_t (*)(hsa_signal_t))dlsym(lib, "hsa_signal_load_scacquire");
	late.destroy = (hsa_status_t (*)(hsa_signal_t))dlsym(lib, "hsa_signal_destroy");
	if (!create || !async || !late.init || !late.shut_down || !late.load || !late.destroy)
		return 61;
	if (late.init() != HSA_STATUS_SUCCESS)
		return 62;
	if (create(5, 0, NULL, &late.held) || create(1, 0, NULL, &late.handled))
		return 63;
	/* keeps the runtime's async thread alive to the end */
	if (async(late.handled, HSA_SIGNAL_CONDITION_EQ, 0, never_called, NULL))
		return 64;
	late.armed = true;
	return 0;
}

static void late_fail(int step, const char *what, long got)
{
	printf("lc-late: step %d: %s: got %#lx\n", step, what, got);
	fflush(stdout);
	_exit(step);
}

__attribute__((destructor)) static void lc_exit_late_fini(void)
{
	if (!late.armed)
		return;
	hsa_signal_value_t v = late.load(late.held);
	if (v != 5)
		late_fail(70, "hsa_signal_load_scacquire", (long)v);
	hsa_status_t s = late.destroy(late.held);
	if (s != HSA_STATUS_SUCCESS)
		late_fail(71, "hsa_signal_destroy", s);
	const char *peer = getenv("LC_PEER");
	bool rocr523 = peer && !strcmp(peer, "rocr");
	if ((s = late.init()) !=
	    (rocr523 ? HSA_STATUS_ERROR_OUT_OF_RESOURCES : HSA_STATUS_SUCCESS))
		late_fail(72, "hsa_init after the runtime's finalization", s);
	if ((s = late.shut_down()) != HSA_STATUS_SUCCESS)
		late_fail(73, "hsa_shut_down after the runtime's finalization", s);
	printf("lc-late: destructor done\n");
	fflush(stdout);
}
