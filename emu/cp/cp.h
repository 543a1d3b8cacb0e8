/*
 * kfdemu command processor: the engine the driver model (emu/kfd) hands
 * AQL compute queues to.
 *
 * The CP is the GPU side of a user queue: the MEC firmware that fetches AQL
 * packets from a ring, executes them (kernel dispatch through emu/isa,
 * barriers) and retires them (completion signals, end-of-pipe interrupts),
 * plus the hardware scheduler (CPSCH/HWS) that maps the process's queues
 * onto the device's hardware queue slots (HQDs).  See docs/kfdemu.md,
 * "Command processor", and cp_priv.h for the design.
 *
 * The driver calls the hooks of kemu_cp_engine (gpu/gpu.h, struct
 * kemu_engine_ops) where amdkfd talks to the device queue manager
 * (kfd_device_queue_manager.c): create_queue -> add, update_queue ->
 * update, destroy_queue -> remove, kfd_dqm_evict_pasid -> evict.  Every
 * hook may be called with the driver's process lock held (the CP's threads
 * never take it) and is synchronous like the kernel's: when update
 * (inactivation) or remove returns, the CP no longer touches the queue,
 * exactly as destroy_queue returns only after the HWS unmapped (preempted)
 * it.  The CP reaches memory, interrupts and faults only through the
 * queue's struct kemu_gpu_ops.
 */
#ifndef KEMU_CP_H
#define KEMU_CP_H

#include "gpu/gpu.h"

extern const struct kemu_engine_ops kemu_cp_engine;

/* How many device exceptions (an s_trap, an illegal instruction, a memory
 * violation) no trap handler reported, in this process, since it started:
 * each is also a warning in the log ("unreported device exception").  For
 * tests that prove a runtime without a trap handler loses them. */
uint64_t kemu_cp_unreported_exceptions(void);

/* How many times a queue's dispatch was context-saved into its CWSR area
 * (preemption, eviction, time slicing, DESTROY with waves in flight), in
 * this process, since it started.  For tests that prove a knob preempted. */
uint64_t kemu_cp_context_saves(void);

#endif /* KEMU_CP_H */
