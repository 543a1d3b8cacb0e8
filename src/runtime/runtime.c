/*
 * hsa_init / hsa_shut_down and the process-wide runtime object.
 *
 * Reference counted like ROCr's Runtime::Acquire/Release: the first hsa_init
 * opens /dev/kfd (kfd_process_open) and builds the agents; later ones only
 * count, up to INT32_MAX (REFCOUNT_OVERFLOW beyond).  The last hsa_shut_down
 * frees everything; one more returns NOT_INITIALIZED instead of crashing.
 * hl_runtime_lock serialises the first init and the last shutdown, so any
 * number of threads may call both concurrently.  No thread is created: there
 * is nothing to wait for until a queue or a signal handler exists.
 *
 * Modules: the steps of every module above the runtime (attach at init,
 * teardown at the last shutdown, fork_child and forget in a fork child) run
 * from one table in dependency order, which src/modules.c's hsa_init hands
 * to hl_runtime_init, from here only: no module registers a teardown or an
 * atfork handler of its own.
 *
 * Fork: the child inherits a copy of the runtime whose /dev/kfd belongs to
 * the parent (KFD refuses its ioctls).  The one atfork handler marks the
 * child and runs the modules' fork_child steps (the thunk's, listed first,
 * makes the KFD process the parent's); its first call sees
 * kfd_process_forked() and drops the inherited state without a single ioctl
 * (the modules' forget steps; kfd_process_close skips ioctls in a fork
 * child and only releases the child's CPU mappings and fds) and sets the
 * count to 0.
 * From then on every call in the child returns
 * HSA_STATUS_ERROR_NOT_INITIALIZED, hsa_shut_down included, until the child
 * calls hsa_init, which opens /dev/kfd afresh for the child.
 *
 * Exit: the table's third caller.  ROCr 1.18 (rocm-systems) does nothing at
 * exit: an open runtime keeps working through every atexit handler and
 * library destructor (HIP's calls hsa_shut_down from its own, inside
 * _dl_fini) and is left to the process's end, its threads running.  ROCr
 * 5.2.3 had a static RuntimeCleanup object whose destructor, registered as
 * the library loaded, marked it unloaded (hsa_init then answered
 * OUT_OF_RESOURCES, hsa_shut_down SUCCESS doing nothing) without freeing an
 * open runtime; ROCr dropped it after it broke loading the library again
 * (ROCR-Runtime issue #275).
 *
 * hsalite keeps the runtime working through every destructor, as ROCr
 * 1.18 does, and then, after the last of them, runs the modules' teardown
 * as the last hsa_shut_down would (runtime_exit; a fork child's only
 * forgets the parent's runtime): our ELF destructor runs inside _dl_fini,
 * and a handler it registers runs once _dl_fini has finalized every
 * library.  So the service threads are joined before kfdemu's shim plays
 * exit_group (its handler, registered from its own destructor, which is
 * finalized before us, runs after ours) and the process ends with nothing
 * of ours allocated or open.  The library is linked -z nodelete, so dlclose
 * never unmaps code a thread or that handler runs, and the destructor runs
 * at exit only.  A thread of the program still writing packets after every
 * destructor races the teardown, as it would race the last hsa_shut_down.
 *
 * A teardown during exit (this one, or the last hsa_shut_down called from
 * an exit handler or a destructor such as HIP's) leaves the process's
 * buffers and events to the kernel, which releases them when the process
 * ends, instead of one UNMAP/FREE/DESTROY_EVENT ioctl each: ROCr 5.2.3
 * leaves them too, and nothing a program can see happens in between
 * (kfd_process_leave_to_exit; queues are still destroyed).  Exit has begun
 * once a handler registered at the first hsa_init has run: glibc runs it
 * before _dl_fini, which was registered earlier, and so before every
 * library destructor.  A runtime first initialised from a library
 * constructor registers it before _dl_fini: its destructor-time
 * shutdown then frees everything, as before.  User memory is freed either
 * way (LeakSanitizer checks the exit).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/runtime.h"
#include "runtime/runtime_priv.h"
#include "util/barrier.h"
#include "util/log.h"

static pthread_mutex_t hl_runtime_lock = PTHREAD_MUTEX_INITIALIZER;
static int32_t hl_refcount;              /* under hl_runtime_lock */
static struct hl_runtime *_Atomic hl_rt; /* published runtime, or NULL */
static atomic_bool hl_forked;            /* set in a fork child */
static pthread_once_t hl_atfork_once = PTHREAD_ONCE_INIT;
/* The module table (src/modules.c), set by the first hsa_init under
 * hl_runtime_lock and never changed: the same table every time. */
static const struct hl_module *hl_modules;
static uint32_t hl_n_modules;

/* The lock is held across fork so the child never inherits it locked. */
static void atfork_prepare(void) { pthread_mutex_lock(&hl_runtime_lock); }
static void atfork_parent(void) { pthread_mutex_unlock(&hl_runtime_lock); }
/* The child's only thread, at the fork: the modules' fork_child steps, top
 * module first, then the runtime's own lock. */
static void atfork_child(void)
{
	hl_store_relaxed(&hl_forked, true);
	for (uint32_t i = hl_n_modules; i-- > 0;)
		if (hl_modules[i].fork_child)
			hl_modules[i].fork_child();
	pthread_mutex_unlock(&hl_runtime_lock);
}

static void atfork_register(void)
{
	pthread_atfork(atfork_prepare, atfork_parent, atfork_child);
}

/* The parent's runtime in a fork child: our records go, the thunk releases
 * the child's copies of mappings and fds without touching the parent's BOs. */
static void runtime_destroy_forked(struct hl_runtime *rt)
{
	for (uint32_t i = hl_n_modules; i-- > 0;)
		if (hl_modules[i].forget)
			hl_modules[i].forget(rt);
	hl_system_events_destroy(rt);
	hl_agents_destroy(rt);
	kfd_process_close(rt->proc);
	pthread_mutex_destroy(&rt->sysevt_lock);
	pthread_mutex_destroy(&rt->userptr_lock);
	pthread_mutex_destroy(&rt->mem_lock);
	free(rt);
}

/* Called with hl_runtime_lock held in a fork child. */
static void runtime_abandon_if_forked(void)
{
	struct hl_runtime *rt = hl_load_relaxed(&hl_rt);
	if (rt && kfd_process_forked(rt->proc)) {
		hl_warn("runtime", "fork child: the runtime initialised by the parent is not "
			"usable here; call hsa_init in the child");
		hl_store_relaxed(&hl_rt, NULL);
		hl_refcount = 0;
		runtime_destroy_forked(rt);
	}
	hl_store_relaxed(&hl_forked, false);
}

struct hl_runtime *hl_runtime_get(void)
{
	if (__builtin_expect(hl_load_relaxed(&hl_forked), 0)) {
		pthread_mutex_lock(&hl_runtime_lock);
		runtime_abandon_if_forked();
		pthread_mutex_unlock(&hl_runtime_lock);
	}
	/* Pairs with the release store in hsa_init that publishes the fully
	 * built runtime. */
	return hl_load_acquire(&hl_rt);
}

/* The modules' teardown steps, top module first, from module `from` (the
 * number attached) down. */
static void modules_teardown(struct hl_runtime *rt, uint32_t from)
{
	for (uint32_t i = from; i-- > 0;)
		if (hl_modules[i].teardown)
			hl_modules[i].teardown(rt);
}

/* Called with hl_runtime_lock held, rt already withdrawn from hl_rt. */
static void runtime_destroy(struct hl_runtime *rt)
{
	rt->withdrawn = true;
	modules_teardown(rt, hl_n_modules);
	hl_system_events_destroy(rt);
	hl_agents_destroy(rt);
	kfd_process_close(rt->proc);
	pthread_mutex_destroy(&rt->sysevt_lock);
	pthread_mutex_destroy(&rt->userptr_lock);
	pthread_mutex_destroy(&rt->mem_lock);
	free(rt);
}

static int runtime_create(struct hl_runtime **out)
{
	struct hl_runtime *rt = calloc(1, sizeof(*rt));
	if (!rt)
		return -ENOMEM;
	pthread_mutex_init(&rt->mem_lock, NULL);
	pthread_mutex_init(&rt->userptr_lock, NULL);
	pthread_mutex_init(&rt->sysevt_lock, NULL);
	hl_env_read(&rt->env);

	int err = kfd_process_open(&rt->proc);
	if (err)
		goto err_free_runtime;
	err = hl_agents_build(rt);
	if (err)
		goto err_close_process;
	for (uint32_t i = 0; i < hl_n_modules; i++) {
		if (hl_modules[i].attach && (err = hl_modules[i].attach(rt))) {
			hl_error("runtime", "hsa_init: module %s: %s", hl_modules[i].name,
				 hl_errno_name(err));
			/* the failed module undoes its own partial attach */
			modules_teardown(rt, i + 1);
			goto err_close_process;
		}
	}
	hl_info("runtime", "initialised: %u CPU agent(s), %u GPU agent(s)", rt->n_cpus, rt->n_gpus);
	*out = rt;
	return 0;

err_close_process:
	hl_agents_destroy(rt);
	kfd_process_close(rt->proc);
err_free_runtime:
	pthread_mutex_destroy(&rt->sysevt_lock);
	pthread_mutex_destroy(&rt->userptr_lock);
	pthread_mutex_destroy(&rt->mem_lock);
	free(rt);
	return err;
}

/* Set by the handler below once exit has begun. */
static atomic_bool hl_exiting;
static pthread_once_t hl_exit_once = PTHREAD_ONCE_INIT;

/* glibc; not declared by any header */
int __cxa_atexit(void (*fn)(void *), void *arg, void *dso);

static void runtime_exit_begins(void *unused)
{
	(void)unused;
	/* relaxed: read under hl_runtime_lock by the teardown on this thread
	 * (exit handlers and destructors run on the exiting thread) */
	hl_store_relaxed(&hl_exiting, true);
}

static void exit_hook_register(void)
{
	if (__cxa_atexit(runtime_exit_begins, NULL, NULL) != 0)
		hl_debug("runtime", "exit: __cxa_atexit failed: an exit teardown frees every "
			 "buffer and event itself");
}

hsa_status_t hl_runtime_init(const struct hl_module *modules, uint32_t n)
{
	pthread_once(&hl_atfork_once, atfork_register);
	pthread_mutex_lock(&hl_runtime_lock);
	/* Read under this lock only (or in the atfork child handler, after
	 * the prepare handler took it). */
	hl_modules = modules;
	hl_n_modules = n;
	if (hl_load_relaxed(&hl_forked))
		runtime_abandon_if_forked();

	hsa_status_t status = HSA_STATUS_SUCCESS;
	if (hl_refcount == INT32_MAX) {
		status = HSA_STATUS_ERROR_REFCOUNT_OVERFLOW;
	} else if (hl_refcount == 0) {
		struct hl_runtime *rt = NULL;
		int err = runtime_create(&rt);
		if (err) {
			status = hl_status_init_failure(err);
		} else {
			/* Pairs with the acquire in hl_runtime_get: readers see
			 * the agents only once they are complete. */
			hl_store_release(&hl_rt, rt);
			hl_refcount = 1;
			pthread_once(&hl_exit_once, exit_hook_register);
			for (uint32_t i = 0; i < hl_n_modules; i++)
				if (hl_modules[i].opened)
					hl_modules[i].opened(rt);
		}
	} else {
		hl_refcount++;
	}
	pthread_mutex_unlock(&hl_runtime_lock);
	return status;
}

hsa_status_t hsa_shut_down(void)
{
	pthread_mutex_lock(&hl_runtime_lock);
	if (hl_load_relaxed(&hl_forked))
		runtime_abandon_if_forked();

	hsa_status_t status = HSA_STATUS_SUCCESS;
	if (hl_refcount == 0) {
		status = HSA_STATUS_ERROR_NOT_INITIALIZED;
	} else if (--hl_refcount == 0) {
		struct hl_runtime *rt = hl_load_relaxed(&hl_rt);
		if (hl_load_relaxed(&hl_exiting))
			kfd_process_leave_to_exit(rt->proc);
		/* ROCr's Runtime::Release: the handlers first, with the
		 * runtime whole. */
		hl_system_event_shutdown(rt);
		for (uint32_t i = hl_n_modules; i-- > 0;)
			if (hl_modules[i].closing)
				hl_modules[i].closing(rt);
		/* Withdraw first so no new call starts on a runtime being freed
		 * (calls racing with the last shutdown are the caller's bug).
		 * Pairs with the acquire in hl_runtime_get, which then sees NULL. */
		hl_store_release(&hl_rt, NULL);
		runtime_destroy(rt);
	}
	pthread_mutex_unlock(&hl_runtime_lock);
	return status;
}

/* The exit teardown (see the top of this file), after every destructor. */
static void runtime_exit(void *unused)
{
	(void)unused;
	pthread_mutex_lock(&hl_runtime_lock);
	if (hl_load_relaxed(&hl_forked))
		runtime_abandon_if_forked();
	struct hl_runtime *rt = hl_load_relaxed(&hl_rt);
	if (rt) {
		hl_info("runtime", "exit: %d hsa_init reference(s) outstanding: tearing the "
			"runtime down", hl_refcount);
		/* Pairs with the acquire in hl_runtime_get, as in hsa_shut_down. */
		hl_store_release(&hl_rt, NULL);
		hl_refcount = 0;
		kfd_process_leave_to_exit(rt->proc);
		runtime_destroy(rt);
	}
	pthread_mutex_unlock(&hl_runtime_lock);
}

/* glibc finalizes the library, inside _dl_fini: only at exit (-z
 * nodelete).  The teardown goes after every other destructor. */
__attribute__((destructor)) static void runtime_fini(void)
{
	/* Registered during exit, with no DSO handle: glibc runs it after
	 * the handler now running (_dl_fini), so after every destructor. */
	if (__cxa_atexit(runtime_exit, NULL, NULL) != 0) {
		hl_warn("runtime", "exit: __cxa_atexit failed: tearing the runtime down now");
		runtime_exit(NULL);
	}
}
