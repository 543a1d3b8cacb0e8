/*
 * The debugger's view of loaded GPU code: _amdgpu_r_debug, the rendezvous
 * structure ROCr 5.2.3 exports (data symbol, version node ROCR_1) and
 * rocgdb (through amd-dbgapi) reads, exactly as a host debugger reads
 * glibc's _r_debug: a struct r_debug (<link.h>) whose r_map heads a doubly
 * linked list of struct link_map, one per loaded code object, and whose
 * r_brk is the address of a function the loader calls around every change,
 * where the debugger keeps a breakpoint.
 *
 * What ROCr does (loader/executable.cpp), and we do the same:
 *  - r_version 7 (the number ROCr 5.2.3 publishes), r_ldbase 0.
 *  - A loaded code object's link_map has l_addr = its load delta (load
 *    address minus the ELF's lowest PT_LOAD vaddr, so symbol value +
 *    l_addr is the device address), l_name = its URI
 *    ("file:///path#offset=N&size=M" or "memory://pid#offset=0x...&size=N"),
 *    l_ld = 0.
 *  - The objects of an executable are appended, in load order, when the
 *    executable is frozen, and unlinked when it is destroyed (an executable
 *    destroyed unfrozen was never listed).  The last hsa_shut_down empties
 *    the list (ROCr's Loader::Destroy).
 *  - Protocol of a change: r_state = RT_ADD (or RT_DELETE), call the
 *    breakpoint function, edit the list, r_state = RT_CONSISTENT (release),
 *    call it again.  A debugger stopped at the first call sees a consistent
 *    old list; at the second, the new one.
 *
 * Locking: every change runs under the registry's lock (rt->loader; the
 * caller holds it).  The debugger reads the structure from outside the
 * process while it is stopped, so the stores need no particular order
 * beyond the final release.
 *
 * Why this state is process-wide and not the runtime's (rt->loader): the
 * rendezvous is a named data symbol a debugger finds in the library's
 * dynamic symbol table, one per process, as glibc's _r_debug; a runtime is
 * a heap object the debugger cannot find.  The list's tail (debug_tail)
 * goes with its head.  At most one runtime lives at a time, so the list
 * only ever holds that runtime's code objects: its teardown empties it
 * (hl_loader_debug_reset), and at a fork the child empties it at once
 * (hl_loader_debug_fork_child, the loader's fork_child step): the child
 * has no GPU code loaded, and a parent thread may have been between
 * change_begin and change_end, leaving a half-edited list and r_state
 * RT_ADD behind.
 */
#include <link.h>
#include <stdatomic.h>
#include <stddef.h>

#include "loader/loader_priv.h"

/* The breakpoint function: never inlined and with a side effect, so every
 * call stays in the code where the debugger can stop. */
__attribute__((noinline)) static void loader_debug_state(void)
{
	static volatile int side_effect;
	side_effect ^= 1;
}

#define AMDGPU_R_DEBUG_VERSION 7

__attribute__((visibility("default"))) struct r_debug _amdgpu_r_debug = {
	.r_version = AMDGPU_R_DEBUG_VERSION,
	.r_map = NULL,
	.r_brk = (ElfW(Addr))&loader_debug_state,
	.r_state = RT_CONSISTENT,
	.r_ldbase = 0,
};

/* The list's last entry (NULL: empty); process-wide with the list head,
 * see above. */
static struct link_map *debug_tail;

static void set_state(int state, memory_order order)
{
	atomic_store_explicit((_Atomic int *)(uintptr_t)&_amdgpu_r_debug.r_state, state, order);
}

/* Opens a change: the debugger, stopped at the call, sees state and the
 * old list. */
static void change_begin(int state)
{
	set_state(state, memory_order_relaxed);
	atomic_thread_fence(memory_order_acq_rel);
	loader_debug_state();
	atomic_thread_fence(memory_order_acq_rel);
}

static void change_end(void)
{
	/* Release: the list edits come before CONSISTENT. */
	set_state(RT_CONSISTENT, memory_order_release);
	loader_debug_state();
}

static void map_append(struct link_map *m)
{
	m->l_next = NULL;
	m->l_prev = debug_tail;
	if (debug_tail)
		debug_tail->l_next = m;
	else
		_amdgpu_r_debug.r_map = m;
	debug_tail = m;
}

static void map_remove(struct link_map *m)
{
	if (m->l_prev)
		m->l_prev->l_next = m->l_next;
	else
		_amdgpu_r_debug.r_map = m->l_next;
	if (m->l_next)
		m->l_next->l_prev = m->l_prev;
	else
		debug_tail = m->l_prev;
	m->l_next = m->l_prev = NULL;
}

void hl_loader_debug_add(struct hl_executable *e)
{
	change_begin(RT_ADD);
	for (struct hl_loaded_co *l = e->lcos; l; l = l->next) {
		if (l->dbg_listed)
			continue;
		l->dbg.l_addr = (ElfW(Addr))l->delta;
		l->dbg.l_name = l->uri;
		l->dbg.l_ld = NULL;
		map_append(&l->dbg);
		l->dbg_listed = true;
	}
	change_end();
}

void hl_loader_debug_remove(struct hl_executable *e)
{
	bool any = false;
	for (struct hl_loaded_co *l = e->lcos; l && !any; l = l->next)
		any = l->dbg_listed;
	if (!any)
		return;
	change_begin(RT_DELETE);
	for (struct hl_loaded_co *l = e->lcos; l; l = l->next) {
		if (!l->dbg_listed)
			continue;
		map_remove(&l->dbg);
		l->dbg_listed = false;
	}
	change_end();
}

/* In the child at the fork (its one thread, no lock: a parent thread may
 * have held the registry's).  The parent's records keep their dbg_listed
 * flags until the loader's forget step frees them (registry.c's
 * registry_empty resets them, unlinking nothing). */
void hl_loader_debug_fork_child(void)
{
	_amdgpu_r_debug.r_map = NULL;
	debug_tail = NULL;
	set_state(RT_CONSISTENT, memory_order_relaxed);
}

void hl_loader_debug_reset(struct hl_loader_registry *lr)
{
	change_begin(RT_DELETE);
	for (struct hl_executable *e = lr->executables; e; e = e->next)
		for (struct hl_loaded_co *l = e->lcos; l; l = l->next)
			l->dbg_listed = false;
	_amdgpu_r_debug.r_map = NULL;
	debug_tail = NULL;
	change_end();
}
