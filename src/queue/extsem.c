/*
 * External semaphores (AMD extension interface 1.24 and 1.27):
 * hsa_amd_external_semaphore_handle_open/_close and
 * hsa_amd_queue_signal/wait_external_semaphore.
 *
 * ROCr routes these to libhsakmt's hsaKmtImportExternalSemaphore,
 * ...DestroyExternalSemaphore and hsaKmtQueueSignal/WaitExternalSemaphore,
 * which exist for WDDM (Windows: D3DKMT synchronization objects).  On Linux
 * the KFD thunk has no such call (the header: "Linux / KFD is currently a
 * stub returning HSA_STATUS_ERROR_NOT_SUPPORTED"), and neither the amdkfd
 * UAPI nor kfdemu has a syncobj a queue could signal or wait on.  So
 * hsalite, like ROCr over KFD, checks the arguments the header describes and
 * then answers NOT_SUPPORTED; no semaphore is ever opened.
 *
 * Statuses, checked in this order:
 *  - open: NOT_INITIALIZED; INVALID_AGENT (none, or not a GPU);
 *    INVALID_ARGUMENT (desc or out_sem NULL); NOT_SUPPORTED for a type the
 *    enum lacks; INVALID_ARGUMENT for a NULL OS handle (a negative fd);
 *    then NOT_SUPPORTED.  *out_sem is zeroed whenever it can be written.
 *  - close: NOT_INITIALIZED; INVALID_ARGUMENT for handle 0; NOT_SUPPORTED.
 *  - signal / wait: NOT_INITIALIZED; INVALID_QUEUE for NULL or a pointer
 *    that is not a live AQL or application SDMA queue of the runtime
 *    (the header names "a queue"); INVALID_ARGUMENT for
 *    handle 0; NOT_SUPPORTED.  Nothing is written into the queue.
 */
#include <string.h>

#include "queue/queue_priv.h"
#include "runtime/runtime.h"
#include "util/log.h"

#define EXTSEM_LOG "extsem"
/* An AMD status outside hsa_status_t's enumerators (hsa_ext_amd.h). */
#define NOT_SUPPORTED ((hsa_status_t)HSA_STATUS_ERROR_NOT_SUPPORTED)

hsa_status_t hsa_amd_external_semaphore_handle_open(
	hsa_agent_t agent, const hsa_amd_external_semaphore_handle_descriptor_t *desc,
	hsa_amd_external_semaphore_t *out_sem)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (out_sem)
		out_sem->handle = 0;
	struct hl_agent *a = hl_agent_lookup(rt, agent);
	if (!a || !hl_agent_is_gpu(a))
		return HSA_STATUS_ERROR_INVALID_AGENT;
	if (!desc || !out_sem)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	switch (desc->type) {
	case HSA_AMD_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD:
		if (desc->handle.fd < 0)
			return HSA_STATUS_ERROR_INVALID_ARGUMENT;
		break;
	case HSA_AMD_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32:
	case HSA_AMD_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32_KMT:
		if (!desc->handle.win32_handle)
			return HSA_STATUS_ERROR_INVALID_ARGUMENT;
		break;
	default:
		hl_error(EXTSEM_LOG, "external semaphore handle type %u is unknown",
			 (unsigned)desc->type);
		return NOT_SUPPORTED;
	}
	hl_info(EXTSEM_LOG, "external semaphore (type %u) on %s: the amdkfd UAPI has no "
		"syncobj import (ROCr over KFD answers NOT_SUPPORTED too)",
		(unsigned)desc->type, a->name);
	return NOT_SUPPORTED;
}

hsa_status_t hsa_amd_external_semaphore_handle_close(hsa_amd_external_semaphore_t sem)
{
	if (!hl_runtime_get())
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!sem.handle)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	hl_error(EXTSEM_LOG, "close of external semaphore 0x%llx: none can be open over KFD",
		 (unsigned long long)sem.handle);
	return NOT_SUPPORTED;
}

/* The checks signal and wait share. */
static hsa_status_t queue_sem_op(const char *what, hsa_queue_t *queue,
				 hsa_amd_external_semaphore_t sem)
{
	if (!hl_runtime_get())
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!queue)
		return HSA_STATUS_ERROR_INVALID_QUEUE;
	struct hl_runtime *rt;
	struct hl_queue *q;
	hsa_status_t st = hl_queue_acquire(queue, &rt, &q);
	if (st == HSA_STATUS_ERROR_INVALID_QUEUE && hl_sdma_queue_live(queue))
		st = HSA_STATUS_SUCCESS; /* a queue too (not locked: nothing read) */
	else if (st != HSA_STATUS_SUCCESS)
		return st == HSA_STATUS_ERROR_NOT_INITIALIZED ? st : HSA_STATUS_ERROR_INVALID_QUEUE;
	else
		hl_queue_release(rt);
	if (!sem.handle)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	hl_error(EXTSEM_LOG, "%s of external semaphore 0x%llx: none can be open over KFD", what,
		 (unsigned long long)sem.handle);
	return NOT_SUPPORTED;
}

hsa_status_t hsa_amd_queue_signal_external_semaphore(hsa_queue_t *queue,
						     hsa_amd_external_semaphore_t sem,
						     uint64_t value)
{
	(void)value; /* nothing is queued: see the file's comment */
	return queue_sem_op("signal", queue, sem);
}

hsa_status_t hsa_amd_queue_wait_external_semaphore(hsa_queue_t *queue,
						   hsa_amd_external_semaphore_t sem,
						   uint64_t value)
{
	(void)value;
	return queue_sem_op("wait", queue, sem);
}
