/*
 * The driver's side of the GPU interface (gpu/gpu.h): what the engines
 * (emu/cp, emu/sdma) call to reach a process's VM and to raise interrupts,
 * and the interrupt handler's answer to a GPU VM fault.
 *
 * As kfd_int_process_v9.c does for a retry-off fault, the handler, not the
 * engine, decides what a fault does: it evicts every queue of the process
 * on the faulting device, on every engine (kfd_dqm_evict_pasid), then
 * raises the fault to the process (kemu_vm_fault: every MEMORY event).  The
 * engine that saw the fault has stopped its queue already.
 *
 * Locking: the ops are called from engine threads, which may be waited for
 * by a hook running under p->lock, so nothing here takes p->lock.  The
 * translations take p->vm_lock, interrupts and faults p->event_lock, and
 * eviction each engine's registry list and engine locks (never a lock an
 * engine hook holds while it waits).
 */
#include <string.h>

#include "kemu_priv.h"

static void ih_vm_fault(struct kemu_process *p, const struct kemu_vm_fault_info *f)
{
	/* p->pdds is fixed once the process exists: no lock */
	struct kemu_pdd *pdd = p && f ? kemu_pdd_by_id(p, f->gpu_id) : NULL;
	if (!pdd) {
		kemu_err(p ? p->m : NULL, "IH: VM fault on unknown gpu 0x%x: ignored",
			 f ? f->gpu_id : 0);
		return;
	}
	kemu_queues_evict(p, pdd->dev->gpu);
	kemu_vm_fault(p, f);
}

/* The first-level handler reads the second level's TBA/TMA from its TMA
 * page when a wave traps; kfd_process_set_trap_handler writes them there.
 * pdd->tba / tma are atomics for that reason: SET_TRAP_HANDLER stores them
 * under p->lock, which an engine thread may not take. */
static void ih_trap_config(struct kemu_process *p, uint32_t gpu_id, struct kemu_trap_config *out)
{
	struct kemu_pdd *pdd = p ? kemu_pdd_by_id(p, gpu_id) : NULL;
	memset(out, 0, sizeof(*out));
	if (pdd) {
		/* acquire: pairs with the release store of tba in
		 * kemu_ioctl_set_trap_handler, made after tma's */
		out->tba = atomic_load_explicit(&pdd->tba, memory_order_acquire);
		out->tma = atomic_load_explicit(&pdd->tma, memory_order_relaxed);
	}
	out->lenient = p && p->m->trap_lenient;
}

const struct kemu_gpu_ops kemu_ih_gpu_ops = {
	.translate = kemu_vm_translate,
	.translate_range = kemu_vm_translate_range,
	.read = kemu_vm_read,
	.write = kemu_vm_write,
	.interrupt = kemu_event_interrupt,
	.vm_fault = ih_vm_fault,
	.hdp_flush = kemu_hdp_gpu_flush,
	.trap_config = ih_trap_config,
};
