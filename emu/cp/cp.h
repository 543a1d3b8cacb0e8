/*
 * kfdemu command processor: the interface the driver model (emu/kfd) calls.
 *
 * The CP is the GPU side of a user queue: the MEC firmware that fetches AQL
 * packets from a ring, executes them (kernel dispatch through emu/isa,
 * barriers) and retires them (completion signals, end-of-pipe interrupts),
 * plus the hardware scheduler (CPSCH/HWS) that maps the process's queues
 * onto the device's hardware queue slots (HQDs).  See docs/kfdemu.md,
 * "Command processor", and cp_priv.h for the design.
 *
 * The driver model calls these hooks where amdkfd talks to the device queue
 * manager (kfd_device_queue_manager.c): create_queue -> kemu_cp_queue_add,
 * update_queue -> kemu_cp_queue_update, destroy_queue -> kemu_cp_queue_remove.
 * Every hook may be called with process->lock held (the CP's threads never
 * take it) and is synchronous like the kernel's: when update (inactivation)
 * or remove returns, the CP no longer touches the queue, exactly as
 * destroy_queue returns only after the HWS unmapped (preempted) it.
 */
#ifndef KEMU_CP_H
#define KEMU_CP_H

#include <stdint.h>

struct kemu_device;
struct kemu_process;
struct kemu_queue;

/* Starts executing q (an AQL compute queue; other types are ignored: SDMA
 * queues run on emu/sdma's engines).  Caller holds p->lock; q is fully set up
 * (doorbell allocated, buffers referenced).  -ENOMEM if the CP cannot
 * track it; the caller then fails CREATE_QUEUE. */
int kemu_cp_queue_add(struct kemu_process *p, struct kemu_queue *q);
/* q->info changed (UPDATE_QUEUE: ring, percentage, priority).  A queue that
 * became inactive stops at a packet boundary before this returns.  Caller
 * holds p->lock. */
void kemu_cp_queue_update(struct kemu_process *p, struct kemu_queue *q);
/* Stops q at a packet boundary and forgets it; returns once no CP thread
 * touches it.  Safe for queues the CP never took.  Caller may hold p->lock. */
void kemu_cp_queue_remove(struct kemu_process *p, struct kemu_queue *q);
/* Stops every queue of p on dev, as a GPU VM fault does
 * (kfd_dqm_evict_pasid); for the SDMA engines' faults (emu/sdma).  Takes
 * the CP registry lock and cp->lock; never call it holding either. */
void kemu_cp_evict_device(struct kemu_process *p, const struct kemu_device *dev);

#endif /* KEMU_CP_H */
