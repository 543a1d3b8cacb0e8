/*
 * The trap handler of each GPU agent: what makes a device exception reach
 * the runtime.  On hardware the kernel's first-level CWSR handler only
 * jumps to the runtime's second-level handler (SET_TRAP_HANDLER); without
 * one an s_trap is skipped and an illegal instruction or memory violation
 * halts the wave, and nothing is reported (docs/kfdemu.md, "Traps").
 * ROCr installs its handler on every GPU at start (GpuAgent::BindTrapHandler,
 * amd_gpu_agent.cpp@rocm-5.2.3 ~1433); we install it on a GPU just before
 * its first queue (ours or the user's) is created, which is the same for
 * the GPU (no wave runs before a queue exists) and keeps hsa_init free of
 * BO allocations, as the rest of hsalite allocates on first use.
 *
 * The handler (trap/trap_gfx9.s) writes ROCr's codes into the trapping
 * queue's queue_inactive_signal and interrupts through its event, so the
 * queue-error thread (errors.c) reports it as it reports the CP's codes:
 * s_trap 2 (abort, assert, __builtin_trap) and the debugger's trap ids ->
 * HSA_STATUS_ERROR_EXCEPTION, an illegal instruction ->
 * HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION, an aperture violation ->
 * HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION.  It finds the queue through
 * its TMA: HL_TRAP_DOORBELLS amd_queue_t pointers by doorbell slot, which
 * queue.c sets when it creates a queue and clears once DESTROY_QUEUE has
 * returned (no wave of it runs after that).
 *
 * Placement as ROCr's (AssembleShader: system_allocator, executable, then
 * a CPU memcpy): host memory registered with KFD (USERPTR, coherent,
 * uncached) and mapped on that GPU only, one BO holding the code and, at
 * its next page, the TMA; the CPU writes them directly, and no VRAM or HDP
 * flush is involved.
 *
 * HSALITE_NO_TRAP_HANDLER=1 (a test switch, read with the others in
 * src/runtime/env.c) withholds the handler: device exceptions are then lost
 * as on a runtime without one, which kfdemu logs as "unreported device
 * exception".
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "queue/queue_priv.h"
#include "queue/trap.h"
#include "util/barrier.h"
#include "util/log.h"

/* TBA and TMA share one BO (code first, the TMA at the next page): one
 * allocation and mapping instead of two, the same memory and flags. */
struct hl_trap {
	struct kfd_mem *code;           /* the BO: TBA at its start */
	_Atomic uint64_t *tma;          /* HL_TRAP_DOORBELLS queue pointers, in code */
	bool installed;                 /* SET_TRAP_HANDLER succeeded */
};

static const struct hl_trap_code *trap_code_for(const struct hl_agent *a)
{
	const char *proc = hl_isa_processor(a->isa);
	if (!proc)
		return NULL;
	for (const struct hl_trap_code *c = hl_trap_codes; c->gfx; c++)
		if (strcmp(c->gfx, proc) == 0)
			return c;
	return NULL;
}

static int alloc_host(struct hl_runtime *rt, const struct hl_agent *a, uint64_t size,
		      const char *what, struct kfd_mem **out)
{
	struct kfd_mem_alloc_args args = {
		.kind = KFD_MEM_USERPTR,
		.gpu_id = a->gpu->gpu_id,
		.size = size,
		.align = HL_PAGE_SIZE,
		.extra_flags = KFD_ALLOC_COHERENT | KFD_ALLOC_UNCACHED,
		.host_access = true,
	};
	uint32_t gpu_id = a->gpu->gpu_id;
	int err = kfd_mem_alloc(rt->proc, &args, out);
	if (!err) {
		err = kfd_mem_map(rt->proc, *out, &gpu_id, 1);
		if (err) {
			kfd_mem_free(rt->proc, *out);
			*out = NULL;
		}
	}
	if (err)
		hl_error(QUEUE_LOG, "trap handler %s (%llu bytes) on GPU 0x%x: %s", what,
			 (unsigned long long)size, gpu_id, hl_errno_name(err));
	return err;
}

/* GPUs whose kernel-side handler still names a BO we freed.  The kernel
 * keeps a process's TBA/TMA across a last hsa_shut_down and a later
 * hsa_init (its process lives as long as the mm); they are replaced before
 * that GPU's next queue, or cleared then if the handler is withheld, so
 * the teardown need not clear them (ROCr does not either: one
 * SET_TRAP_HANDLER per GPU less).
 *
 * Process-wide on purpose, not the runtime's: it records the kernel's
 * state of this process, which outlives every runtime (one runtime's
 * teardown writes it, the next runtime's first queue on that GPU reads
 * it).  Its lock is the live runtime's (rt->queues->trap_lock): at most
 * one runtime lives at a time, its queue creations touch the list under
 * that lock, and the teardown touches it once the runtime is withdrawn
 * (hl_runtime_lock held, no queue left).  A fork child empties it at the
 * fork (its KFD process is new: no handler of ours in it). */
#define TRAP_STALE_MAX 64
static uint32_t stale_gpu[TRAP_STALE_MAX];
static uint32_t n_stale;

static bool stale_take(uint32_t gpu_id)
{
	for (uint32_t i = 0; i < n_stale; i++)
		if (stale_gpu[i] == gpu_id) {
			stale_gpu[i] = stale_gpu[--n_stale];
			return true;
		}
	return false;
}

static void trap_free(struct hl_runtime *rt, struct hl_agent *a)
{
	struct hl_trap *t = a->trap;
	if (!t)
		return;
	/* Our queues are gone (the queue module's teardown ran first), so
	 * no wave can enter the handler while it is taken down.  With no room
	 * to remember it, clear it now. */
	if (t->installed && t->code) {
		(void)stale_take(a->gpu->gpu_id);
		if (n_stale < TRAP_STALE_MAX)
			stale_gpu[n_stale++] = a->gpu->gpu_id;
		else
			(void)kfd_set_trap_handler(rt->proc, a->gpu->gpu_id, 0, 0);
	}
	if (t->code)
		kfd_mem_free(rt->proc, t->code);
	free(t);
	a->trap = NULL;
}

static int trap_install(struct hl_runtime *rt, struct hl_agent *a)
{
	const struct hl_trap_code *c = trap_code_for(a);
	struct hl_trap *t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	a->trap = t;
	if (!c) {
		/* recorded as done: said once, not at every queue */
		t->installed = true;
		hl_warn(QUEUE_LOG, "GPU 0x%x (%s): no trap handler was built for it: its device "
			"exceptions (s_trap, illegal instructions) will not be reported",
			a->gpu->gpu_id, a->name);
		return 0;
	}
	uint64_t code_size = (c->size + HL_PAGE_SIZE - 1) & ~(uint64_t)(HL_PAGE_SIZE - 1);
	int err = alloc_host(rt, a, code_size + HL_TRAP_DOORBELLS * sizeof(uint64_t),
			     "code and TMA", &t->code);
	if (err)
		return err; /* the teardown frees what there is */
	t->tma = (_Atomic uint64_t *)((char *)t->code->addr + code_size);
	memcpy(t->code->addr, c->code, c->size);
	memset((void *)t->tma, 0, HL_TRAP_DOORBELLS * sizeof(uint64_t));
	/* release: the code and the empty map before the handler is live
	 * (the ioctl orders them for the GPU as well) */
	hl_fence_release();
	err = kfd_set_trap_handler(rt->proc, a->gpu->gpu_id, (uint64_t)(uintptr_t)t->code->addr,
				   (uint64_t)(uintptr_t)t->tma);
	if (err)
		return err;
	t->installed = true;
	(void)stale_take(a->gpu->gpu_id); /* replaced */
	hl_debug(QUEUE_LOG, "GPU 0x%x: trap handler (%s, %zu bytes) at %p, TMA %p",
		 a->gpu->gpu_id, c->gfx, c->size, t->code->addr, (void *)t->tma);
	return 0;
}

void hl_queue_trap_attach(struct hl_runtime *rt)
{
	if (rt->env.no_trap_handler)
		hl_warn(QUEUE_LOG, "HSALITE_NO_TRAP_HANDLER=1: no trap handler will be installed; "
			"device exceptions will not be reported (a test switch)");
}

int hl_queue_trap_ensure(struct hl_runtime *rt, struct hl_agent *a)
{
	int err = 0;
	if (!rt || !a || !a->gpu)
		return -EINVAL;
	/* HSALITE_NO_TRAP_HANDLER=1, read once at hsa_init */
	bool withheld = rt->env.no_trap_handler;
	pthread_mutex_lock(&rt->queues->trap_lock);
	if (withheld && stale_take(a->gpu->gpu_id)) {
		/* an earlier runtime's handler, its BO freed: none now */
		err = kfd_set_trap_handler(rt->proc, a->gpu->gpu_id, 0, 0);
		if (err)
			hl_error(QUEUE_LOG, "GPU 0x%x: clearing an earlier trap handler: %s",
				 a->gpu->gpu_id, hl_errno_name(err));
	}
	if (!withheld && !(a->trap && a->trap->installed)) {
		trap_free(rt, a); /* what a failed attempt left */
		err = trap_install(rt, a);
		if (err)
			trap_free(rt, a);
	}
	pthread_mutex_unlock(&rt->queues->trap_lock);
	return err;
}

/* After the registry went (rt->queues is NULL by now): rt is withdrawn and
 * no queue is left, so no install can run alongside (see stale_gpu). */
void hl_queue_trap_teardown(struct hl_runtime *rt)
{
	for (uint32_t i = 0; i < rt->n_agents; i++)
		trap_free(rt, &rt->agents[i]);
}

void hl_queue_trap_fork_child(void)
{
	/* the child's KFD process is new: no handler of ours in it */
	n_stale = 0;
}

void hl_queue_trap_forget(struct hl_runtime *rt)
{
	/* a fork child: the buffers and the handler are the parent's */
	for (uint32_t i = 0; i < rt->n_agents; i++) {
		free(rt->agents[i].trap);
		rt->agents[i].trap = NULL;
	}
}

/* The doorbell slot of a queue: its place in the GPU's doorbell slice. */
static int doorbell_slot(const struct hl_agent *a, const uint64_t *doorbell, uint32_t *slot)
{
	uintptr_t base = (uintptr_t)a->gpu->doorbell_slice, db = (uintptr_t)doorbell;
	if (!base || db < base || (db - base) / sizeof(uint64_t) >= HL_TRAP_DOORBELLS)
		return -EINVAL;
	*slot = (uint32_t)((db - base) / sizeof(uint64_t));
	return 0;
}

void hl_queue_trap_set(struct hl_agent *a, const uint64_t *doorbell, amd_queue_t *amd)
{
	uint32_t slot;
	if (!a || !a->trap || !a->trap->tma || !doorbell)
		return;
	if (doorbell_slot(a, doorbell, &slot)) {
		hl_warn(QUEUE_LOG, "GPU 0x%x: doorbell %p is outside the slice %p: the trap "
			"handler cannot find this queue", a->gpu->gpu_id, (const void *)doorbell,
			a->gpu->doorbell_slice);
		return;
	}
	_Atomic uint64_t *map = a->trap->tma;
	/* release: the queue's amd_queue_t (its inactive signal) before the
	 * pointer a trapping wave loads; clearing needs no order (the queue's
	 * waves are gone) */
	atomic_store_explicit(&map[slot], (uint64_t)(uintptr_t)amd,
			      amd ? memory_order_release : memory_order_relaxed);
}
