/*
 * hsa_memory_copy: a synchronous copy between any two ranges, the way ROCr
 * 5.2.3's Runtime::CopyMemory(dst, src, size) chooses:
 *  - each side is looked up (hsa_amd_pointer_info): inside a known
 *    allocation it belongs to its owner (or the first agent that can
 *    access it); otherwise it is host memory the GPU may not reach, which
 *    is locked for the copy if a GPU takes part;
 *  - both sides system memory: memmove on the CPU;
 *  - one GPU on either or both sides: that GPU's blit kernel, waited for;
 *    the other side's unknown host pages are locked to it for the copy;
 *  - two different GPUs: through a system-memory bounce buffer, source GPU
 *    then destination GPU (ROCr: GPUs need not be peers, and a peer
 *    mapping may go away during the copy).
 * Before any of that the ranges are checked against what the runtime knows:
 * a range that wraps around the address space, or that starts inside an
 * allocation of the runtime and runs past its end, is INVALID_ARGUMENT (the
 * status ROCr gives a bad pointer here).  ROCr 5.2.3 checks neither: it
 * hands such a size to memmove or to the GPU (docs/differences.md).
 * So VRAM the CPU cannot map is copied like any other, and VRAM the CPU
 * can map is still copied by the GPU, as on ROCr (large-BAR reads over
 * PCIe are slow).  When a GPU has no blit kernels (a processor we built
 * none for) and both ranges are CPU-mapped, the CPU copies instead.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "copy/copy_priv.h"
#include "runtime/status.h"
#include "util/log.h"

struct side {
	void *ptr;
	struct hl_agent *agent;        /* owner; NULL: unknown host memory */
	bool gpu;
};

/* Whether [p, p + size) starts inside the allocation info describes (by
 * its agent or its host address) and runs past its end.  Overflow-safe. */
static bool overruns(const hsa_amd_pointer_info_t *info, uintptr_t p, size_t size)
{
	if (info->type == HSA_EXT_POINTER_TYPE_UNKNOWN)
		return false;
	uintptr_t bases[2] = { (uintptr_t)info->agentBaseAddress,
			       (uintptr_t)info->hostBaseAddress };
	for (int i = 0; i < 2; i++) {
		if (!bases[i] || p < bases[i] || p - bases[i] >= info->sizeInBytes)
			continue;
		return size > info->sizeInBytes - (p - bases[i]);
	}
	return false;
}

static hsa_status_t classify(struct hl_runtime *rt, void *ptr, size_t size, struct side *out)
{
	hsa_amd_pointer_info_t info = { .size = sizeof(info) };
	uint32_t n = 0;
	hsa_agent_t *acc = NULL;
	hsa_status_t st = hsa_amd_pointer_info(ptr, &info, malloc, &n, &acc);
	if (st != HSA_STATUS_SUCCESS)
		return st;
	uintptr_t p = (uintptr_t)ptr, base = (uintptr_t)info.agentBaseAddress;
	if (overruns(&info, p, size)) {
		hl_error(COPY_LOG, "hsa_memory_copy: EINVAL: %zu bytes at %p run past the end of "
			 "its allocation (%zu bytes at %p)", size, ptr, (size_t)info.sizeInBytes,
			 info.agentBaseAddress);
		free(acc);
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	}
	out->ptr = ptr;
	out->agent = NULL;
	out->gpu = false;
	if (info.type != HSA_EXT_POINTER_TYPE_UNKNOWN && base <= p &&
	    p - base < info.sizeInBytes && size <= info.sizeInBytes - (p - base)) {
		struct hl_agent *a = hl_agent_lookup(rt, info.agentOwner);
		if (!a && n)
			a = hl_agent_lookup(rt, acc[0]);
		out->agent = a;
		out->gpu = a && a->type == HSA_DEVICE_TYPE_GPU;
	}
	free(acc);
	return HSA_STATUS_SUCCESS;
}

static bool cpu_mapped(struct hl_runtime *rt, const void *p, size_t size)
{
	const struct kfd_mem *a = kfd_mem_find(rt->proc, p);
	const struct kfd_mem *b = kfd_mem_find(rt->proc, (const char *)p + size - 1);
	return (!a || a->host_access) && (!b || b->host_access);
}

/* One GPU copies; host memory unknown to the runtime is locked to it for
 * the duration. */
static hsa_status_t gpu_copy(struct hl_runtime *rt, struct hl_agent *gpu, struct side *d,
			     struct side *s, size_t size)
{
	struct hl_blit *b;
	int err = hl_blit_get(rt, gpu, &b);
	if (err) {
		if (cpu_mapped(rt, d->ptr, size) && cpu_mapped(rt, s->ptr, size)) {
			memmove(d->ptr, s->ptr, size);
			/* through the BAR: visible to the GPU after an HDP flush */
			kfd_mem_hdp_flush_range(rt->proc, d->ptr, size);
			return HSA_STATUS_SUCCESS;
		}
		hl_error(COPY_LOG, "hsa_memory_copy %p <- %p: %s cannot copy and the CPU "
			 "cannot reach both ranges", d->ptr, s->ptr, gpu->name);
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	}
	hsa_agent_t h = hl_agent_handle(gpu);
	void *dp = d->ptr, *sp = s->ptr;
	bool dl = false, sl = false;
	hsa_status_t st = HSA_STATUS_SUCCESS;
	if (!s->agent) {
		st = hsa_amd_memory_lock(s->ptr, size, &h, 1, &sp);
		sl = st == HSA_STATUS_SUCCESS;
	}
	if (st == HSA_STATUS_SUCCESS && !d->agent) {
		st = hsa_amd_memory_lock(d->ptr, size, &h, 1, &dp);
		dl = st == HSA_STATUS_SUCCESS;
	}
	if (st != HSA_STATUS_SUCCESS) {
		hl_error(COPY_LOG, "hsa_memory_copy %p <- %p: locking host memory for %s: %s",
			 d->ptr, s->ptr, gpu->name, hl_status_name(st));
		goto out_unlock;
	}
	err = hl_blit_copy_sync(b, dp, sp, size);
	if (err) {
		hl_error(COPY_LOG, "hsa_memory_copy %p <- %p on %s: %s", d->ptr, s->ptr, gpu->name,
			 hl_errno_name(err));
		st = HSA_STATUS_ERROR;
	}
out_unlock:
	if (dl)
		hsa_amd_memory_unlock(d->ptr);
	if (sl)
		hsa_amd_memory_unlock(s->ptr);
	return st;
}

static struct hl_pool *system_pool(struct hl_runtime *rt)
{
	for (uint32_t i = 0; i < rt->n_pools; i++)
		if (rt->pools[i].kind == HL_POOL_SYSTEM_FINE)
			return &rt->pools[i];
	return NULL;
}

hsa_status_t hsa_memory_copy(void *dst, const void *src, size_t size)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!dst || !src)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	if (size == 0)
		return HSA_STATUS_SUCCESS;
	if ((uintptr_t)dst > UINTPTR_MAX - size || (uintptr_t)src > UINTPTR_MAX - size) {
		hl_error(COPY_LOG, "hsa_memory_copy %p <- %p: EINVAL: %zu bytes wrap around the "
			 "address space", dst, src, size);
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	}
	struct side d, s;
	hsa_status_t st = classify(rt, dst, size, &d);
	if (st == HSA_STATUS_SUCCESS)
		st = classify(rt, (void *)src, size, &s);
	if (st != HSA_STATUS_SUCCESS)
		return st;
	if (!d.gpu && !s.gpu) {
		memmove(dst, src, size);
		return HSA_STATUS_SUCCESS;
	}
	if (d.gpu && s.gpu && d.agent != s.agent) {
		struct hl_pool *pool = system_pool(rt);
		void *bounce = NULL;
		if (!pool)
			return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
		hsa_amd_memory_pool_t ph = { (uint64_t)(uintptr_t)pool };
		st = hsa_amd_memory_pool_allocate(ph, size, 0, &bounce);
		if (st != HSA_STATUS_SUCCESS)
			return st;
		struct side t;
		st = classify(rt, bounce, size, &t);
		if (st == HSA_STATUS_SUCCESS)
			st = gpu_copy(rt, s.agent, &t, &s, size);
		if (st == HSA_STATUS_SUCCESS)
			st = gpu_copy(rt, d.agent, &d, &t, size);
		hsa_amd_memory_pool_free(bounce);
		return st;
	}
	return gpu_copy(rt, s.gpu ? s.agent : d.agent, &d, &s, size);
}
