/*
 * kfdemu SDMA engines: the interface the driver model (emu/kfd) and the
 * command processor (emu/cp) call.
 *
 * The SDMA engines are the GPU's copy engines.  amdkfd gives a process
 * user-mode SDMA queues (CREATE_QUEUE types SDMA, SDMA_XGMI and
 * SDMA_BY_ENG_ID), each an RLC queue of one engine: a byte ring of SDMA
 * packets with a 64-bit doorbell carrying the write pointer in bytes and a
 * read pointer the engine writes back.  See docs/kfdemu.md, "SDMA engines",
 * and sdma_priv.h for the design.
 *
 * The hooks mirror the CP's (cp.h): create_queue -> kemu_sdma_queue_add,
 * update_queue -> kemu_sdma_queue_update, destroy_queue ->
 * kemu_sdma_queue_remove, called with process->lock held (the engines'
 * threads never take it) and synchronous: when update (inactivation) or
 * remove returns, no engine touches the queue any more.
 */
#ifndef KEMU_SDMA_H
#define KEMU_SDMA_H

#include <stdint.h>

struct kemu_process;
struct kemu_queue;
struct kemu_device;

/* Starts executing q if it is an SDMA queue (other types are ignored: 0).
 * q->sdma_slot names its engine and RLC queue.  Caller holds p->lock;
 * q is fully set up.  -ENOMEM if the engine cannot track it; the caller
 * then fails CREATE_QUEUE. */
int kemu_sdma_queue_add(struct kemu_process *p, struct kemu_queue *q);
/* q->info changed (UPDATE_QUEUE).  The queue stops at a packet boundary
 * and is reloaded (the write pointer is read once from
 * write_pointer_address, as hqd_sdma_load does).  Caller holds p->lock. */
void kemu_sdma_queue_update(struct kemu_process *p, struct kemu_queue *q);
/* Stops q at a packet boundary and forgets it; returns once no engine
 * thread touches it.  Safe for queues no engine took. */
void kemu_sdma_queue_remove(struct kemu_process *p, struct kemu_queue *q);
/* Stops every SDMA queue of p on dev (kfd_dqm_evict_pasid after a GPU VM
 * fault).  Takes no lock a hook holds while it waits, so any GPU-side
 * thread may call it. */
void kemu_sdma_evict(struct kemu_process *p, const struct kemu_device *dev);

#endif /* KEMU_SDMA_H */
