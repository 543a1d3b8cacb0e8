/*
 * The loader's registry: every live reader and executable, and the lock
 * that guards them and everything they own.
 *
 * A public handle is the address of a loader object; it is accepted only
 * after it is found here (readers and executables by list membership,
 * symbols and loaded code objects by walking the executables), so a stale
 * or forged handle gives INVALID_* instead of a wild dereference.  The
 * lists are short (a program has a handful of executables), so lookups are
 * linear.
 *
 * The lock is recursive: HIP's iteration callbacks call loader functions
 * (symbol info inside hsa_executable_iterate_symbols, loaded code object
 * info inside the loader table's iteration).
 *
 * Lifetime: the registry is the runtime's (rt->loader), made by the
 * module's attach at hsa_init.  The last hsa_shut_down runs
 * hl_loader_teardown from the module table (src/modules.c), which frees
 * the host-side records and the registry; the segments'
 * GPU memory belongs to the runtime's allocation list and is released with
 * it right after.  A fork child drops the parent's records at its first
 * call (the table's forget step), so a handle of the parent's is invalid
 * in the child's own runtime, as its agents and queues are.
 */
#define _GNU_SOURCE /* PTHREAD_MUTEX_RECURSIVE */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "loader/loader_priv.h"
#include "runtime/runtime.h"

void hl_loader_lock(struct hl_loader_registry *lr)
{
	pthread_mutex_lock(&lr->lock);
}

void hl_loader_unlock(struct hl_loader_registry *lr)
{
	pthread_mutex_unlock(&lr->lock);
}

struct hl_reader *hl_reader_lookup(const struct hl_loader_registry *lr,
				   hsa_code_object_reader_t h)
{
	for (struct hl_reader *r = lr->readers; r; r = r->next)
		if ((uint64_t)(uintptr_t)r == h.handle)
			return r;
	return NULL;
}

struct hl_executable *hl_executable_lookup(const struct hl_loader_registry *lr,
					   hsa_executable_t h)
{
	for (struct hl_executable *e = lr->executables; e; e = e->next)
		if ((uint64_t)(uintptr_t)e == h.handle)
			return e;
	return NULL;
}

struct hl_symbol *hl_symbol_lookup(const struct hl_loader_registry *lr,
				   hsa_executable_symbol_t h)
{
	for (struct hl_executable *e = lr->executables; e; e = e->next)
		for (struct hl_symbol *s = e->symbols; s; s = s->next)
			if ((uint64_t)(uintptr_t)s == h.handle)
				return s;
	return NULL;
}

struct hl_loaded_co *hl_loaded_co_lookup(const struct hl_loader_registry *lr,
					 hsa_loaded_code_object_t h)
{
	for (struct hl_executable *e = lr->executables; e; e = e->next)
		for (struct hl_loaded_co *l = e->lcos; l; l = l->next)
			if ((uint64_t)(uintptr_t)l == h.handle)
				return l;
	return NULL;
}

/* A recursive mutex (iteration callbacks call back into the loader). */
static void registry_lock_init(struct hl_loader_registry *lr)
{
	pthread_mutexattr_t attr;
	pthread_mutexattr_init(&attr);
	pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&lr->lock, &attr);
	pthread_mutexattr_destroy(&attr);
}

int hl_loader_registry_make(struct hl_runtime *rt)
{
	struct hl_loader_registry *lr = calloc(1, sizeof(*lr));
	if (!lr)
		return -ENOMEM;
	registry_lock_init(lr);
	rt->loader = lr;
	return 0;
}

/* Frees every reader and executable record of lr, under its lock. */
static void registry_empty(struct hl_loader_registry *lr)
{
	hl_loader_lock(lr);
	hl_loader_debug_reset(lr);
	while (lr->readers) {
		struct hl_reader *r = lr->readers;
		lr->readers = r->next;
		free(r->buf);
		free(r->uri);
		free(r);
	}
	while (lr->executables) {
		struct hl_executable *e = lr->executables;
		lr->executables = e->next;
		hl_symbol_free_all(e);
		while (e->lcos) {
			struct hl_loaded_co *l = e->lcos;
			e->lcos = l->next;
			hl_co_free(l->co);
			free(l->image);
			free(l->uri);
			free(l);
		}
		free(e);
	}
	hl_loader_unlock(lr);
}

void hl_loader_teardown(struct hl_runtime *rt)
{
	struct hl_loader_registry *lr = rt->loader;
	if (!lr)
		return; /* the attach failed before making it */
	registry_empty(lr);
	pthread_mutex_destroy(&lr->lock);
	free(lr);
	rt->loader = NULL;
}

void hl_loader_fork_child(void)
{
	hl_loader_debug_fork_child();
}

void hl_loader_forget(struct hl_runtime *rt)
{
	struct hl_loader_registry *lr = rt->loader;
	if (!lr)
		return;
	/* A parent thread that is not in the child may have held the lock
	 * at the fork: the child's one thread takes a fresh one. */
	registry_lock_init(lr);
	registry_empty(lr);
	pthread_mutex_destroy(&lr->lock);
	free(lr);
	rt->loader = NULL;
}
