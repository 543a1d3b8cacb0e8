/*
 * IPC signals: HSA_AMD_SIGNAL_IPC, hsa_amd_ipc_signal_create and
 * hsa_amd_ipc_signal_attach.
 *
 * As in ROCr 5.2.3 (ipc_signal.cpp, default_signal.cpp), an IPC signal is
 * its ABI block alone in a page of shareable system memory (ROCr allocates
 * it with AllocateIPC: a NonPaged, i.e. GTT, BO; ours is a 4 KiB GTT BO,
 * fine-grained, mapped to every GPU) and the handle is the IPC memory
 * handle of that page (hsa_amd_ipc_memory_create of 4096 bytes, src/runtime
 * ipc.c).  The page holds ROCr's SharedSignal: the amd_signal_t, then at
 * byte 72 the owner's Signal* (NULL for an IPC signal: SharedSignal::IsIPC)
 * and at byte 80 the multi-process check word 0x71FCCA6A3D5D5276; attach
 * refuses a page without them (INVALID_ARGUMENT), as ROCr's
 * SharedMemorySignal does.
 *
 * Waking: KFD events belong to one process, so an IPC signal has none
 * (event_mailbox_ptr 0: the CP raises no interrupt for it) and every wait
 * on it polls, in this process and the other, as ROCr's BusyWaitSignal
 * does (ours backs off to short naps, wait.c).  hsa_amd_signal_async_handler
 * refuses it (INVALID_SIGNAL), as ROCr 5.2.3's does with interrupts on.
 *
 * Each IPC signal, created or attached, has a slab of its own (slab.c),
 * 64 KiB-aligned; destroying it frees the page (an attached one is
 * detached); the other processes keep theirs.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "memory/memory.h"
#include "signal/signal_priv.h"
#include "util/log.h"

#define IPC_SIGNAL_BYTES 4096u
/* ROCr's SharedSignal after the amd_signal_t (signal.h there). */
#define SHARED_CORE_SIGNAL_OFFSET 72u
#define SHARED_ID_OFFSET 80u
#define SHARED_ID 0x71FCCA6A3D5D5276ull
_Static_assert(sizeof(amd_signal_t) == 64, "amd_signal_t precedes ROCr's SharedSignal fields");

/* The side entry of a fresh IPC slab, made a live user signal without an
 * event; the value in the page is left as it is. */
static void ipc_side_publish(struct hl_signal_side *side, hsa_signal_t *out)
{
	hl_store_relaxed(&side->sleepers, 0);
	hl_store_relaxed(&side->users, 0);
	hl_store_relaxed(&side->spin_ns, 2000u);
	side->internal = false;
	/* A CPU may wait (it polls), but async handlers are refused with
	 * INVALID_SIGNAL, as ROCr 5.2.3 refuses them on every signal that is
	 * not an interrupt signal (hsa_amd_signal_async_handler). */
	side->wants_event = false;
	hl_store_relaxed(&side->event, NULL);
	hl_store_relaxed(&side->copy_agent, NULL);
	hl_store_relaxed(&side->kind, AMD_SIGNAL_KIND_USER);
	/* Release: pairs with the acquire in hl_signal_side_live. */
	hl_store_release(&side->state, HL_SIGNAL_LIVE);
	out->handle = (uint64_t)(uintptr_t)side->amd;
}

int hl_signal_ipc_create(struct hl_runtime *rt, int64_t initial, hsa_signal_t *out)
{
	if (!rt->n_gpus)
		return -ENODEV;
	struct kfd_mem_alloc_args args = {
		.kind = KFD_MEM_GTT,
		.gpu_id = rt->gpu_ids[0],
		.size = IPC_SIGNAL_BYTES,
		.align = HL_SIGNAL_SLAB_BYTES,
		.extra_flags = KFD_ALLOC_COHERENT,
		.host_access = true,
	};
	struct kfd_mem *mem;
	int err = kfd_mem_alloc(rt->proc, &args, &mem);
	if (err)
		return err;
	err = kfd_mem_map(rt->proc, mem, rt->gpu_ids, rt->n_gpus);
	if (err)
		goto err_free_mem;
	uint8_t *page = mem->addr;
	memset(page, 0, IPC_SIGNAL_BYTES);
	amd_signal_t *amd = (amd_signal_t *)page;
	amd->kind = AMD_SIGNAL_KIND_USER;
	hl_store_relaxed(hl_signal_value(amd), initial);
	uint64_t id = SHARED_ID;
	memcpy(page + SHARED_ID_OFFSET, &id, sizeof(id)); /* core_signal stays NULL */

	struct hl_signal_side *side;
	err = hl_signal_ipc_slab_add(rt, mem, &side);
	if (err)
		goto err_free_mem;
	ipc_side_publish(side, out);
	return 0;

err_free_mem:
	kfd_mem_free(rt->proc, mem);
	return err;
}

hsa_status_t hsa_amd_ipc_signal_create(hsa_signal_t signal, hsa_amd_ipc_signal_t *handle)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!handle)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	struct hl_signal_side *side = hl_signal_side_live(signal.handle);
	if (!side || hl_load_relaxed(&side->kind) != AMD_SIGNAL_KIND_USER)
		return hl_signal_bad_handle(signal.handle);
	if (!side->ipc) {
		hl_info(SIGNAL_LOG, "hsa_amd_ipc_signal_create: signal 0x%llx was not created with "
			"HSA_AMD_SIGNAL_IPC", (unsigned long long)signal.handle);
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	}
	struct kfd_mem *mem = kfd_mem_find(rt->proc, side->amd);
	int err = mem ? hl_ipc_export(rt, mem, IPC_SIGNAL_BYTES, handle) : -EINVAL;
	if (err) {
		hl_error(SIGNAL_LOG, "hsa_amd_ipc_signal_create: %s", hl_errno_name(err));
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	}
	return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_ipc_signal_attach(const hsa_amd_ipc_signal_t *handle, hsa_signal_t *signal)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!handle || !signal)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	struct kfd_mem *mem;
	uint64_t offset, len;
	int err = hl_ipc_import(rt, handle, NULL, 0, HL_SIGNAL_SLAB_BYTES, &mem, &offset, &len);
	if (err) {
		hl_error(SIGNAL_LOG, "hsa_amd_ipc_signal_attach: %s", hl_errno_name(err));
		return err == -EINVAL || err == -ENODEV ? HSA_STATUS_ERROR_INVALID_ARGUMENT
							: hl_status_from_errno(err);
	}
	const uint8_t *page = mem->addr;
	uint64_t id = 0, owner = 1;
	if (mem->host_access && offset == 0 && len >= IPC_SIGNAL_BYTES) {
		memcpy(&id, page + SHARED_ID_OFFSET, sizeof(id));
		memcpy(&owner, page + SHARED_CORE_SIGNAL_OFFSET, sizeof(owner));
	}
	if (id != SHARED_ID || owner != 0) {
		hl_error(SIGNAL_LOG, "hsa_amd_ipc_signal_attach: EINVAL: the memory holds no IPC "
			 "signal (check word 0x%llx, owner 0x%llx)", (unsigned long long)id,
			 (unsigned long long)owner);
		err = -EINVAL;
		goto err_free_mem;
	}
	struct hl_signal_side *side;
	err = hl_signal_ipc_slab_add(rt, mem, &side);
	if (err)
		goto err_free_mem;
	ipc_side_publish(side, signal);
	return HSA_STATUS_SUCCESS;

err_free_mem:
	kfd_mem_free(rt->proc, mem);
	return err == -EINVAL ? HSA_STATUS_ERROR_INVALID_ARGUMENT : hl_status_from_errno(err);
}
