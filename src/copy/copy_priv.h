/*
 * Copies and fills: the module's internal header, shared by the files of
 * src/copy.
 *
 * Public entry points (ROCr 5.2.3's semantics and statuses):
 *   hsa_amd_memory_async_copy, hsa_amd_memory_async_copy_rect (async.c),
 *   hsa_amd_memory_fill (fill.c), hsa_memory_copy (memory_copy.c),
 *   hsa_amd_profiling_async_copy_enable / _get_async_copy_time (profiling.c).
 *
 * Engines
 *  - Blit kernels (blit.c, kernels.c, kernels/blit.cl): OpenCL C kernels
 *    built by CMake for every supported gfx and embedded in the library
 *    (hl_blit_codes, generated at build time).  Per GPU agent, on first
 *    need, the code object is loaded through our own loader and an
 *    unlisted AQL queue is created (the blit queue).  A copy is zero or
 *    more barrier-AND packets (up to five dependency signals each; the CP
 *    holds the queue until they are satisfied) followed by one kernel
 *    dispatch whose completion signal is the caller's: the CP decrements
 *    it when the copy is done, and raises the signal's event for sleepers.
 *  - SDMA (sdma.c): user-mode SDMA queues, per GPU and direction, for
 *    async copies between a GPU and host memory or another GPU, and for
 *    copies inside one GPU under 1 MiB, as ROCr chooses; off with
 *    HSA_ENABLE_SDMA=0, and a queue that cannot be created falls back to
 *    the blit kernel.
 *  - CPU: a copy between two CPU agents is a memcpy on a detached thread
 *    after the dependencies are satisfied, as ROCr does.
 *
 * Which GPU copies: the source agent when it is a GPU, else the
 * destination agent (ROCr's Runtime::CopyMemory).  The agent's GPU must be
 * able to reach both ranges (pool memory allowed to it, locked host
 * memory): that is the caller's contract, as with ROCr; a GPU access to
 * unmapped memory is a GPU memory fault.
 *
 * Engines: each GPU agent's blit engine and SDMA queues hang off the agent
 * (agent->blit, agent->sdma[dir]), records built once when the module
 * attaches (lifecycle.c) and filled on first use.
 *
 * Locking: each agent's blit has its own lock, serialising its submissions (one
 * producer) and its lazy creation.  Creation takes the queue module's and
 * the loader's locks inside; none of them is held when calling in here.
 */
#ifndef HSALITE_COPY_PRIV_H
#define HSALITE_COPY_PRIV_H

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hsa/hsa.h"
#include "hsa/hsa_ext_amd.h"
#include "copy/copy.h"
#include "runtime/runtime.h"

#define COPY_LOG "copy"

/* One embedded code object (generated blit_code.c). */
struct hl_blit_code {
	const char *gfx;               /* "gfx90a": the processor it targets */
	const uint8_t *image;
	size_t size;
};
/* Terminated by an entry whose gfx is NULL. */
extern const struct hl_blit_code hl_blit_codes[];

enum hl_blit_kernel {
	HL_BLIT_COPY,
	HL_BLIT_COPY_RECT,
	HL_BLIT_FILL,
	HL_BLIT_KERNELS
};

/* Kernel arguments, as blit.cl declares them (8-byte aligned fields). */
struct hl_blit_copy_args {
	uint64_t src, dst, size, stride;
};
struct hl_blit_rect_args {
	uint64_t src, src_pitch, src_slice;
	uint64_t dst, dst_pitch, dst_slice;
	uint64_t width, height, depth, stride;
};
struct hl_blit_fill_args {
	uint64_t dst, count;
	uint32_t value, pad;
	uint64_t stride;
};

/* The loaded kernels of one agent (kernels.c). */
struct hl_blit_kernels {
	hsa_executable_t exe;
	hsa_code_object_reader_t reader;
	uint64_t object[HL_BLIT_KERNELS];
	uint32_t kernarg_size[HL_BLIT_KERNELS];
	uint32_t group_size[HL_BLIT_KERNELS];
	uint32_t private_size[HL_BLIT_KERNELS];
};

/* ---- kernels.c ---- */

/* The embedded code object for agent's processor, or NULL. */
const struct hl_blit_code *hl_blit_code_for(const struct hl_agent *agent);
/* Loads the blit kernels for agent through the loader.  -errno: -ENOENT
 * when no code object was built for its processor. */
int hl_blit_kernels_load(struct hl_agent *agent, struct hl_blit_kernels *out);
/* Destroys the executable and reader (not at teardown: the loader's own
 * teardown frees them then). */
void hl_blit_kernels_unload(struct hl_blit_kernels *k);

/* ---- blit.c ---- */

struct hl_discard_op;

/* The copy module's per-runtime state (rt->copy), made by the module's
 * attach (blit.c) and gone with its runtime: a new runtime, a fork child's
 * included, starts with profiling off, as ROCr's new Runtime object does,
 * and with no discard pending. */
struct hl_copy_state {
	pthread_mutex_t lock;          /* profiling switches (blit.c) */
	_Atomic bool profiling;        /* hsa_amd_profiling_async_copy_enable */
	/* hsa_amd_svm_discard_batch_async's operations waiting for their
	 * dependencies or for the async service (discard.c), under
	 * discard_lock, a leaf lock. */
	pthread_mutex_t discard_lock;
	struct hl_discard_op *discards;
};

struct hl_blit;

/* The agent's blit engine, created (queue, kernels, kernarg ring) on first
 * use.  -errno; the log says why. */
int hl_blit_get(struct hl_runtime *rt, struct hl_agent *agent, struct hl_blit **out);
/* Submits kernel k over items work-items (a multiple of 64), after every
 * dependency signal reaches 0, decrementing completion when it is done
 * (handle 0: no signal).  args is copied into the packet's kernarg slot.
 * -EIO when the blit queue stopped. */
int hl_blit_submit(struct hl_blit *b, enum hl_blit_kernel k, const void *args,
		   size_t args_size, uint64_t items, uint32_t n_deps, const hsa_signal_t *deps,
		   hsa_signal_t completion);
/* The work-items for n units of work (16 bytes each): a multiple of 64,
 * at least one wave, enough that each lane loops a few times, and at most
 * four waves per CU (ROCr's blit grid). */
uint64_t hl_blit_items(const struct hl_blit *b, uint64_t units);
/* Runs kernel k over bytes of memory and waits for it (hsa_memory_copy,
 * hsa_amd_memory_fill): 0, -EIO when the queue stopped (a CP error, or a
 * GPU fault or reset), -ETIMEDOUT after a bound that grows with bytes; in
 * both cases the engine is rebuilt at next hl_blit_get. */
int hl_blit_run_sync(struct hl_blit *b, enum hl_blit_kernel k, const void *args,
		     size_t args_size, uint64_t items, uint64_t bytes);
/* The GPU agent a blit belongs to. */
struct hl_agent *hl_blit_agent(const struct hl_blit *b);

/* Linear copy and fill on a blit (copy.c). */
int hl_blit_copy(struct hl_blit *b, void *dst, const void *src, size_t size, uint32_t n_deps,
		 const hsa_signal_t *deps, hsa_signal_t completion);
int hl_blit_copy_sync(struct hl_blit *b, void *dst, const void *src, size_t size);

/* ---- sdma.c ---- */

/* Host to device, device to host (also PCIe peers), GPU to GPU in an xGMI
 * hive.  These are also the engine slots hsa_amd_memory_async_copy_on_engine
 * names (engine.c): slot k is HSA_AMD_SDMA_ENGINE_k, so H2D is engine 0,
 * D2H engine 1, and the xGMI queues are slots HL_SDMA_XGMI + i (ROCr's blit
 * table: BlitHostToDev, BlitDevToHost, then one per xGMI engine). */
enum hl_sdma_dir { HL_SDMA_H2D, HL_SDMA_D2H, HL_SDMA_XGMI, HL_SDMA_DIRS = 16 };
struct hl_sdma;

/* HSA_ENABLE_SDMA is not "0". */
bool hl_sdma_enabled(void);
/* The agent's SDMA queue for dir, created on first use.  -errno; a queue
 * that could not be created is not tried again (-ENODEV). */
int hl_sdma_get(struct hl_runtime *rt, struct hl_agent *agent, enum hl_sdma_dir dir,
		struct hl_sdma **out);
/* Whether the agent's queue in slot has nothing pending: never created, or
 * its engine has read everything written (ROCr's DmaEngineIsFree). */
bool hl_sdma_idle(struct hl_runtime *rt, struct hl_agent *agent, enum hl_sdma_dir slot);
/* An async linear copy on s: waits for the dependencies, decrements
 * completion and raises its event; with profile, start/end timestamps in
 * completion. */
int hl_sdma_copy(struct hl_sdma *s, void *dst, const void *src, size_t size, uint32_t n_deps,
		 const hsa_signal_t *deps, hsa_signal_t completion, bool profile);

/* A rect copy on s (ROCr's SDMA tiling); -ERANGE when a pitch or slice is
 * beyond what the packet holds (the caller copies it another way). */
int hl_sdma_copy_rect(struct hl_sdma *s, const hsa_pitched_ptr_t *dst,
		      const hsa_dim3_t *dst_offset, const hsa_pitched_ptr_t *src,
		      const hsa_dim3_t *src_offset, const hsa_dim3_t *range, uint32_t n_deps,
		      const hsa_signal_t *deps, hsa_signal_t completion, bool profile);

/* ---- profiling.c ---- */

/* hsa_amd_profiling_async_copy_enable's state in rt (blit.c). */
bool hl_copy_profiling(const struct hl_runtime *rt);
/* Records which agent copies for completion (the agent whose clock its
 * timestamps are in), when async-copy profiling is on. */
void hl_copy_profile_mark(hsa_signal_t completion, struct hl_agent *agent);
/* Turns the blit queue's profiling bit on or off. */
void hl_blit_set_profiling(struct hl_blit *b, bool enable);
/* Applies enable to every blit engine of rt that exists (blit.c). */
void hl_blit_profiling_all(struct hl_runtime *rt, bool enable);

/* The status of an async copy whose engine (blit kernel or SDMA queue)
 * answered err (0 or -errno), for async.c and engine.c: a bad argument is
 * INVALID_ARGUMENT, a GPU that stopped (-EIO) is ERROR, any other cause
 * OUT_OF_RESOURCES (a narrower table than hl_status_from_errno's). */
static inline hsa_status_t hl_copy_status(int err)
{
	switch (err) {
	case 0: return HSA_STATUS_SUCCESS;
	case -EINVAL: return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	case -EIO: return HSA_STATUS_ERROR;
	default: return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	}
}

/* ---- the per-agent engines' lifecycle (blit.c, sdma.c, prefetch.c),
 * run by lifecycle.c ---- */
int hl_blit_attach(struct hl_runtime *rt);
void hl_blit_teardown(struct hl_runtime *rt);
void hl_blit_forget(struct hl_runtime *rt);
int hl_sdma_attach(struct hl_runtime *rt);
void hl_sdma_teardown(struct hl_runtime *rt);
void hl_sdma_forget(struct hl_runtime *rt);
/* Stops the async service and drops the SVM prefetches still pending. */
void hl_prefetch_teardown(struct hl_runtime *rt);
/* A fork child: the parent's pending prefetches, freed without the lock. */
void hl_prefetch_forget(struct hl_runtime *rt);
/* discard.c: the discards still pending (rt->copy->discards), freed
 * without running: at the last hsa_shut_down once the async service is
 * stopped (hl_prefetch_teardown), and in a fork child with the parent's
 * runtime (no lock: the child has one thread). */
void hl_discard_teardown(struct hl_runtime *rt);
void hl_discard_forget(struct hl_runtime *rt);

#endif /* HSALITE_COPY_PRIV_H */
