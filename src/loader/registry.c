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
 * Lifetime: the last hsa_shut_down runs hl_loader_teardown from the module
 * table (src/modules.c), which frees the host-side records; the segments'
 * GPU memory belongs to the runtime's allocation list and is released with
 * it right after.  A fork child drops the parent's records at its first
 * call (the table's forget step), so a handle of the parent's is invalid
 * in the child's own runtime, as its agents and queues are.
 */
#define _GNU_SOURCE /* asprintf, PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "loader/loader_priv.h"
#include "runtime/runtime.h"

static pthread_mutex_t loader_mutex = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

struct hl_reader *hl_readers;
struct hl_executable *hl_executables;

void hl_loader_lock(void)
{
	pthread_mutex_lock(&loader_mutex);
}

void hl_loader_unlock(void)
{
	pthread_mutex_unlock(&loader_mutex);
}

struct hl_reader *hl_reader_lookup(hsa_code_object_reader_t h)
{
	for (struct hl_reader *r = hl_readers; r; r = r->next)
		if ((uint64_t)(uintptr_t)r == h.handle)
			return r;
	return NULL;
}

struct hl_executable *hl_executable_lookup(hsa_executable_t h)
{
	for (struct hl_executable *e = hl_executables; e; e = e->next)
		if ((uint64_t)(uintptr_t)e == h.handle)
			return e;
	return NULL;
}

struct hl_symbol *hl_symbol_lookup(hsa_executable_symbol_t h)
{
	for (struct hl_executable *e = hl_executables; e; e = e->next)
		for (struct hl_symbol *s = e->symbols; s; s = s->next)
			if ((uint64_t)(uintptr_t)s == h.handle)
				return s;
	return NULL;
}

struct hl_loaded_co *hl_loaded_co_lookup(hsa_loaded_code_object_t h)
{
	for (struct hl_executable *e = hl_executables; e; e = e->next)
		for (struct hl_loaded_co *l = e->lcos; l; l = l->next)
			if ((uint64_t)(uintptr_t)l == h.handle)
				return l;
	return NULL;
}

void hl_loader_teardown(struct hl_runtime *rt)
{
	(void)rt;
	hl_loader_forget_all();
}

void hl_loader_fork_child(void)
{
	pthread_mutexattr_t attr;
	pthread_mutexattr_init(&attr);
	pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&loader_mutex, &attr);
	pthread_mutexattr_destroy(&attr);
}

void hl_loader_forget(struct hl_runtime *rt)
{
	(void)rt;
	hl_loader_forget_all();
}

void hl_loader_forget_all(void)
{
	hl_loader_lock();
	hl_loader_debug_reset();
	while (hl_readers) {
		struct hl_reader *r = hl_readers;
		hl_readers = r->next;
		free(r->buf);
		free(r->uri);
		free(r);
	}
	while (hl_executables) {
		struct hl_executable *e = hl_executables;
		hl_executables = e->next;
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
	hl_loader_unlock();
}

int hl_loader_runtime_check(void)
{
	return hl_runtime_get() ? 0 : -EINVAL;
}
