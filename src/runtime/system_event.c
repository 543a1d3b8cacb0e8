/*
 * System events: hsa_amd_register_system_event_handler and the delivery of
 * GPU memory faults, as ROCr 5.2.3 does it (runtime.cpp: VMFaultHandler,
 * SetCustomSystemEventHandler; libhsakmt's hsaKmtWaitOnMultipleEvents
 * turns the KFD event data into the HsaMemoryAccessFault ROCr reads).
 *
 * Who calls what:
 *  - the application registers handlers (any number, each with its data
 *    pointer, duplicates included), kept in registration order for the
 *    runtime's life (the last hsa_shut_down drops them; there is no
 *    unregister in the API);
 *  - the queue error service thread (src/queue/errors.c), which waits on
 *    KFD's MEMORY event whenever a queue exists, calls
 *    hl_system_event_memory_fault when KFD reports a fault, before it stops
 *    the queues of that GPU and calls their error callbacks.
 *
 * ROCr's rules, kept:
 *  - every handler is called with HSA_AMD_GPU_MEMORY_FAULT_EVENT, the GPU
 *    agent (the first agent of the faulting KFD node), the address KFD
 *    reports (the page address on gfx9: kfd_signal_vm_fault_event shifts
 *    the interrupt's page number) and the reason mask below;
 *  - if none is registered or none returns HSA_STATUS_SUCCESS, ROCr prints
 *    "Memory access fault by GPU node-<n> (Agent handle: <p>) on address
 *    <p>[(may not be exact address)]. Reason: <r>." to stderr (unless
 *    HSA_ENABLE_VM_FAULT_MESSAGE=0) and calls abort();
 *  - only the first fault is delivered: ROCr's handler returns false, which
 *    takes the MEMORY event off its async-events list for good.
 *
 * AMD's newer interface adds two events, delivered as ROCr does them:
 *  - HSA_AMD_GPU_HW_EXCEPTION_EVENT (ROCr 1.18's HwExceptionHandler): a GPU
 *    reset KFD reports on its HW_EXCEPTION event (the queue error service
 *    waits on it): agent, reset_type OTHER (KFD does not set a type),
 *    reset_cause ECC or GPU_HANG; unhandled, "HW Exception by GPU node-<n>
 *    (Agent handle: <p>) reason :<ECC|GPU Hang>" and abort(); the first
 *    only;
 *  - HSA_AMD_SYSTEM_SHUTDOWN_EVENT (interface 1.15, Runtime::Release): the
 *    last hsa_shut_down calls every handler with it before anything is
 *    released; the answers are ignored.
 *
 * Locking: sysevt_lock guards the list; delivery copies it and calls the
 * handlers without any lock, so a handler may register another one or call
 * the rest of the API.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/runtime.h"
#include "runtime/runtime_priv.h"
#include "util/array.h"
#include "util/log.h"

#define SYSEVT_LOG "events"

hsa_status_t hsa_amd_register_system_event_handler(hsa_amd_system_event_callback_t callback,
						   void *data)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	/* ROCr stores a NULL callback and calls it at the first fault. */
	if (!callback)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;

	hsa_status_t st = HSA_STATUS_SUCCESS;
	pthread_mutex_lock(&rt->sysevt_lock);
	struct hl_sysevt_handler *h =
		hl_array_room(rt->sysevt, rt->n_sysevt, &rt->cap_sysevt, sizeof(*h), 4);
	if (!h) {
		st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
		goto out_unlock;
	}
	rt->sysevt = h;
	rt->sysevt[rt->n_sysevt++] = (struct hl_sysevt_handler){ callback, data };
out_unlock:
	pthread_mutex_unlock(&rt->sysevt_lock);
	return st;
}

void hl_system_events_destroy(struct hl_runtime *rt)
{
	free(rt->sysevt);
	rt->sysevt = NULL;
	rt->n_sysevt = rt->cap_sysevt = 0;
}

/* A copy of the handlers, to call without the lock; *n 0 when none (or
 * when the copy cannot be made: logged). */
static struct hl_sysevt_handler *handlers_copy(struct hl_runtime *rt, uint32_t *n)
{
	pthread_mutex_lock(&rt->sysevt_lock);
	*n = rt->n_sysevt;
	struct hl_sysevt_handler *copy = *n ? malloc(*n * sizeof(*copy)) : NULL;
	if (copy)
		memcpy(copy, rt->sysevt, *n * sizeof(*copy));
	pthread_mutex_unlock(&rt->sysevt_lock);
	if (*n && !copy) {
		hl_error(SYSEVT_LOG, "%s copying %u handlers", hl_errno_name(ENOMEM), *n);
		*n = 0;
	}
	return copy;
}

void hl_system_event_shutdown(struct hl_runtime *rt)
{
	uint32_t n;
	struct hl_sysevt_handler *copy = handlers_copy(rt, &n);
	hsa_amd_event_t ev;
	memset(&ev, 0, sizeof(ev));
	ev.event_type = HSA_AMD_SYSTEM_SHUTDOWN_EVENT;
	for (uint32_t i = 0; i < n; i++)
		(void)copy[i].fn(&ev, copy[i].data);
	free(copy);
}

/* libhsakmt copies the KFD fields into bit fields (1 bit each, ErrorType 3
 * bits) and sets ECC for ErrorType 1 or 2; GpuAccess it never sets. */
#define FAULT_BIT(v) ((v) & 1u)
#define FAULT_ERROR_TYPE(m) ((m)->ErrorType & 7u)

uint32_t hl_memory_fault_reason_mask(const struct kfd_hsa_memory_exception_data *m)
{
	uint32_t mask = 0, type = FAULT_ERROR_TYPE(m);
	if (FAULT_BIT(m->failure.NotPresent))
		mask |= HSA_AMD_MEMORY_FAULT_PAGE_NOT_PRESENT;
	if (FAULT_BIT(m->failure.ReadOnly))
		mask |= HSA_AMD_MEMORY_FAULT_READ_ONLY;
	if (FAULT_BIT(m->failure.NoExecute))
		mask |= HSA_AMD_MEMORY_FAULT_NX;
	if (FAULT_BIT(m->failure.imprecise))
		mask |= HSA_AMD_MEMORY_FAULT_IMPRECISE;
	/* ROCr's "ECC and ErrorType 0" case cannot happen: ECC is set only
	 * for types 1 and 2. */
	if (type == KFD_MEM_ERR_SRAM_ECC)
		mask |= HSA_AMD_MEMORY_FAULT_SRAMECC;
	if (type == KFD_MEM_ERR_POISON_CONSUMED)
		mask |= HSA_AMD_MEMORY_FAULT_DRAMECC;
	if (type == KFD_MEM_ERR_GPU_HANG)
		mask |= (uint32_t)HSA_AMD_MEMORY_FAULT_HANG;
	return mask;
}

/* ROCr's reason: the first cause that applies. */
static const char *fault_reason(const struct kfd_hsa_memory_exception_data *m)
{
	uint32_t type = FAULT_ERROR_TYPE(m);
	if (FAULT_BIT(m->failure.NotPresent))
		return "Page not present or supervisor privilege";
	if (FAULT_BIT(m->failure.ReadOnly))
		return "Write access to a read-only page";
	if (FAULT_BIT(m->failure.NoExecute))
		return "Execute access to a page marked NX";
	if (type == KFD_MEM_ERR_POISON_CONSUMED)
		return "DRAM ECC failure";
	if (type == KFD_MEM_ERR_SRAM_ECC)
		return "SRAM ECC failure";
	if (type == KFD_MEM_ERR_GPU_HANG)
		return "Generic hang recovery";
	return "Unknown";
}

/* The first agent of the KFD node of gpu_id (ROCr's agents_by_node_[n][0]). */
static const struct hl_agent *fault_agent(const struct hl_runtime *rt, uint32_t gpu_id)
{
	for (uint32_t i = 0; i < rt->n_agents; i++)
		if (rt->agents[i].gpu && rt->agents[i].gpu->gpu_id == gpu_id)
			return &rt->agents[i];
	return NULL;
}

bool hl_system_event_memory_fault(struct hl_runtime *rt,
				  const struct kfd_hsa_memory_exception_data *m)
{
	const struct hl_agent *a = fault_agent(rt, m->gpu_id);
	if (!a) {
		/* libhsakmt cannot map the gpu_id to a node and fails the
		 * wait: ROCr never sees the fault. */
		hl_error(SYSEVT_LOG, "memory fault on unknown GPU 0x%x at 0x%llx: not delivered",
			 m->gpu_id, (unsigned long long)m->va);
		return false;
	}

	pthread_mutex_lock(&rt->sysevt_lock);
	bool first = !rt->vm_fault_seen;
	rt->vm_fault_seen = true;
	uint32_t n = first ? rt->n_sysevt : 0;
	struct hl_sysevt_handler *copy = n ? malloc(n * sizeof(*copy)) : NULL;
	if (copy)
		memcpy(copy, rt->sysevt, n * sizeof(*copy));
	pthread_mutex_unlock(&rt->sysevt_lock);
	if (!first) {
		hl_warn(SYSEVT_LOG, "memory fault on GPU node-%u at 0x%llx: not delivered (only "
			"the first fault reaches system event handlers, as in ROCr)",
			a->node_id, (unsigned long long)m->va);
		return false;
	}
	if (n && !copy) {
		/* Cannot call them: take ROCr's unhandled path. */
		hl_error(SYSEVT_LOG, "memory fault: %s copying %u handlers", hl_errno_name(ENOMEM), n);
		n = 0;
	}

	hsa_amd_event_t ev;
	memset(&ev, 0, sizeof(ev));
	ev.event_type = HSA_AMD_GPU_MEMORY_FAULT_EVENT;
	ev.memory_fault.agent = hl_agent_handle(a);
	ev.memory_fault.virtual_address = m->va;
	ev.memory_fault.fault_reason_mask = hl_memory_fault_reason_mask(m);

	bool handled = false;
	for (uint32_t i = 0; i < n; i++)
		handled |= copy[i].fn(&ev, copy[i].data) == HSA_STATUS_SUCCESS;
	free(copy);
	hl_info(SYSEVT_LOG, "memory fault on GPU node-%u at 0x%llx, reasons 0x%x: %u handler(s)%s",
		a->node_id, (unsigned long long)m->va, ev.memory_fault.fault_reason_mask, n,
		handled ? ", handled" : "");
	if (handled)
		return true;

	if (rt->env.vm_fault_message)
		fprintf(stderr, "Memory access fault by GPU node-%u (Agent handle: %p) on address "
			"%p%s. Reason: %s.\n", a->node_id, (void *)a, (void *)(uintptr_t)m->va,
			FAULT_BIT(m->failure.imprecise) ? "(may not be exact address)" : "",
			fault_reason(m));
	abort();
}

void hl_system_event_hw_exception(struct hl_runtime *rt,
				  const struct kfd_hsa_hw_exception_data *h)
{
	const struct hl_agent *a = fault_agent(rt, h->gpu_id);
	if (!a) {
		hl_error(SYSEVT_LOG, "HW exception on unknown GPU 0x%x: not delivered", h->gpu_id);
		return;
	}
	pthread_mutex_lock(&rt->sysevt_lock);
	bool first = !rt->hw_exception_seen;
	rt->hw_exception_seen = true;
	pthread_mutex_unlock(&rt->sysevt_lock);
	if (!first) {
		hl_warn(SYSEVT_LOG, "HW exception on GPU node-%u: not delivered (only the first "
			"reaches system event handlers, as in ROCr)", a->node_id);
		return;
	}
	uint32_t n;
	struct hl_sysevt_handler *copy = handlers_copy(rt, &n);
	bool ecc = h->reset_cause == 1; /* KFD_HW_EXCEPTION_ECC; 0 is GPU_HANG */
	hsa_amd_event_t ev;
	memset(&ev, 0, sizeof(ev));
	ev.event_type = HSA_AMD_GPU_HW_EXCEPTION_EVENT;
	ev.hw_exception.agent = hl_agent_handle(a);
	ev.hw_exception.reset_type = HSA_AMD_HW_EXCEPTION_RESET_TYPE_OTHER;
	ev.hw_exception.reset_cause = ecc ? HSA_AMD_HW_EXCEPTION_CAUSE_ECC
					  : HSA_AMD_HW_EXCEPTION_CAUSE_GPU_HANG;
	bool handled = false;
	for (uint32_t i = 0; i < n; i++)
		handled |= copy[i].fn(&ev, copy[i].data) == HSA_STATUS_SUCCESS;
	free(copy);
	hl_info(SYSEVT_LOG, "HW exception on GPU node-%u, cause %s: %u handler(s)%s", a->node_id,
		ecc ? "ECC" : "GPU hang", n, handled ? ", handled" : "");
	if (handled)
		return;
	fprintf(stderr, "HW Exception by GPU node-%u (Agent handle: %p) reason :%s\n", a->node_id,
		(void *)a, ecc ? "ECC" : "GPU Hang");
	abort();
}
