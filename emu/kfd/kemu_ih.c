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

/* KFD_EC_MASK(EC_QUEUE_WAVE_ABORT .. EC_QUEUE_WAVE_APERTURE_VIOLATION): the
 * wave exceptions a trap handler reports (codes 1-6; KFD_EC_MASK(ec) is
 * 1 << (ec - 1)). */
#define KEMU_EC_MASK_QUEUE_WAVE 0x3Full

/*
 * kfd_set_dbg_ev_from_interrupt for a process no debugger attached to
 * (kfdemu has none): a queue exception from a trap handler goes to the
 * runtime when it enabled KFD's runtime (RUNTIME_ENABLE), as
 * kfd_send_exception_to_runtime does it: the exception mask ORed into the
 * 64-bit word the queue's context-save-area header points at
 * (err_payload_addr), then that header's err_event_id set.  Otherwise (or
 * when the header cannot be read) it is not delivered and the CP raises
 * the event interrupt.  Runs on a CP thread: no p->lock (the runtime
 * state is read from its atomic copy), the event lock only.
 */
static bool ih_trap_exception(struct kemu_process *p, uint32_t gpu_id, uint32_t queue_id,
			      uint64_t ctx_save_va, uint64_t ec_mask)
{
	struct kfd_context_save_area_header h;
	uint64_t cur;
	if (!p || !(ec_mask & KEMU_EC_MASK_QUEUE_WAVE) || !ctx_save_va ||
	    /* acquire: pairs with the release store in RUNTIME_ENABLE */
	    !atomic_load_explicit(&p->runtime_enabled, memory_order_acquire))
		return false;
	if (kemu_copy_from_user(&h, ctx_save_va, sizeof(h)) || !h.err_payload_addr ||
	    kemu_copy_from_user(&cur, h.err_payload_addr, sizeof(cur))) {
		kemu_warn(p->m, "IH: gpu 0x%x queue %u: trap handler exception 0x%llx: the "
			  "context-save header at 0x%llx or its error payload is unreadable: "
			  "not sent to the runtime", gpu_id, queue_id,
			  (unsigned long long)ec_mask, (unsigned long long)ctx_save_va);
		return false;
	}
	cur |= ec_mask;
	if (kemu_copy_to_user(h.err_payload_addr, &cur, sizeof(cur)))
		return false;
	kemu_info(p->m, "IH: gpu 0x%x queue %u: exception 0x%llx from the trap handler sent "
		  "to the runtime (event %u)", gpu_id, queue_id, (unsigned long long)ec_mask,
		  h.err_event_id);
	(void)kemu_event_set_id(p, h.err_event_id);
	return true;
}

const struct kemu_gpu_ops kemu_ih_gpu_ops = {
	.translate = kemu_vm_translate,
	.translate_range = kemu_vm_translate_range,
	.read = kemu_vm_read,
	.write = kemu_vm_write,
	.interrupt = kemu_event_interrupt,
	.vm_fault = ih_vm_fault,
	.hdp_flush = kemu_hdp_gpu_flush,
	.hdp_packet_fetched = kemu_hdp_gpu_packet_fetched,
	.hdp_packet_done = kemu_hdp_gpu_packet_done,
	.trap_config = ih_trap_config,
	.trap_exception = ih_trap_exception,
};
