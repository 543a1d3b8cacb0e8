/*
 * kfdemu SDMA engines: the engine the driver model (emu/kfd) hands SDMA
 * queues to.
 *
 * The SDMA engines are the GPU's copy engines.  amdkfd gives a process
 * user-mode SDMA queues (CREATE_QUEUE types SDMA, SDMA_XGMI and
 * SDMA_BY_ENG_ID), each an RLC queue of one engine: a byte ring of SDMA
 * packets with a 64-bit doorbell carrying the write pointer in bytes and a
 * read pointer the engine writes back.  See docs/kfdemu.md, "SDMA engines",
 * and sdma_priv.h for the design.
 *
 * The hooks of kemu_sdma_engine (gpu/gpu.h, struct kemu_engine_ops) mirror
 * the CP's (cp.h): create_queue -> add (hq->sdma_slot names the engine and
 * RLC queue), update_queue -> update (the queue stops at a packet boundary
 * and is reloaded, its write pointer read once from write_pointer_address
 * as hqd_sdma_load does), destroy_queue -> remove, kfd_dqm_evict_pasid ->
 * evict.  They are called with the driver's process lock held (the
 * engines' threads never take it) and synchronous: when update or remove
 * returns, no engine touches the queue any more.
 */
#ifndef KEMU_SDMA_H
#define KEMU_SDMA_H

#include "gpu/gpu.h"

extern const struct kemu_engine_ops kemu_sdma_engine;

#endif /* KEMU_SDMA_H */
