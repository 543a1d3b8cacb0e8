/*
 * The virtual memory API (hsa_amd_vmem_*, ROCr 1.18; HIP's hipMemCreate,
 * hipMemAddressReserve, hipMemMap and hipMemSetAccess sit on it): address
 * ranges reserved with no memory behind them, physical memory handles with
 * no address, mappings of a handle into a range, access per agent, and
 * handles shared between processes as dma-buf fds.
 *
 * What ROCr 1.18 does with the kernel (runtime.cpp VMemory*, libhsakmt's
 * fmm.c) and what we do instead, over the KFD ioctls only:
 *  - reserve: libhsakmt's OnlyAddress range of its SVM aperture (ROCr tries
 *    the caller's address first, then any); here a PROT_NONE CPU range
 *    inside GPUVM (kfd_va_range_reserve), MAP_FIXED_NOREPLACE at the
 *    caller's address first.  NO_REGISTER: plain anonymous memory for the
 *    CPU, as ROCr's mmap.
 *  - handle: libhsakmt's NoAddress allocation, ALLOC_MEMORY_OF_GPU of
 *    device memory at a VA of a non-canonical "handle space" that is never
 *    mapped (kfd_mem_alloc_args.no_address); the public handle is that VA,
 *    as ROCr's is the thunk address.  Device pools only.
 *  - map: ROCr exports the handle's dma-buf, imports it on the owner's
 *    render node (DRM PRIME_FD_TO_HANDLE) and asks GEM_MMAP for the CPU
 *    offset; access comes later.  We import the dma-buf with KFD's
 *    IMPORT_DMABUF at the mapped address (kfd_mem_import_dmabuf_at), a
 *    second BO over the same pages whose GPU VA is the range.
 *  - set_access: ROCr maps a GPU with the render node's GEM_VA (per-mapping
 *    read/write bits) and the CPU with an mmap of the render node; we map
 *    a GPU with MAP_MEMORY_TO_GPU of the import (NONE unmaps it) and the
 *    CPU with an mmap of the dma-buf at the range, with the permission's
 *    protection.  KFD imports are always WRITABLE, so a GPU given RO can
 *    still write: get_access reports what was set (docs/differences.md).
 *  - shareable handles: EXPORT_DMABUF of the handle's BO (a new fd for the
 *    caller each time); import is GET_DMABUF_INFO + IMPORT_DMABUF into the
 *    handle space (libhsakmt's RegisterGraphicsHandleToNodes), and the new
 *    handle maps like any other.
 *  - fabric handles (interface 1.25, newer than ROCr 1.18; AMD's current
 *    runtime.cpp VMemoryExport/ImportFabricHandle, KfdDriver's
 *    FABRIC_HANDLE share type): ROCr asks libhsakmt's hsaKmtHandleExport
 *    for a HSA_EXTERNAL_HANDLE_FABRIC and answers HSA_STATUS_ERROR when it
 *    fails.  The amdkfd UAPI (and kfdemu) has no memory fabric, so an
 *    export that passes ROCr's checks answers that ERROR.  An import is
 *    lazy in ROCr: it records the 16 bytes and succeeds; the import proper
 *    runs when access is set and fails there.  We record it the same way
 *    and fail where we import, at map (docs/differences.md).
 * A map must cover the whole handle: KFD maps whole BOs, where GEM_VA can
 * map a prefix (ROCr accepts a smaller size).  in_offset and the flags are
 * ignored, as ROCr 1.18 ignores them.
 *
 * State: rt->vmem, three lists under vm->lock (the API is not a hot path and
 * a process holds few ranges).  The lock is held across the ioctls, which
 * keeps a mapping from being unmapped while its access changes; it is a
 * leaf with respect to rt->mem_lock (never held together).
 * Reference counts follow ROCr: a handle lives while it is referenced
 * (create, import, retain) or mapped; a range cannot be freed while mapped.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "memory/memory_priv.h"
#include "util/log.h"

#define VMEM_LOG "vmem"

/* hsa_amd_vmem_address_reserve: the caller's range. */
struct vmem_range {
	struct vmem_range *next;
	uintptr_t va;
	uint64_t size;        /* as the caller gave it (address_free compares) */
	void *os_addr;        /* what to unmap: NO_REGISTER keeps the unaligned mmap */
	uint64_t os_size;
	bool registered;      /* reserved for the GPUs; else NO_REGISTER host memory */
	uint32_t use_count;   /* mappings inside it */
};

/* hsa_amd_vmem_handle_create / _import_shareable_handle: memory without an
 * address.  mem->addr (the handle space) is the public handle. */
struct vmem_handle {
	struct vmem_handle *next;
	struct kfd_mem *mem;
	struct hl_pool *pool;
	uint64_t size;
	bool pinned;          /* MEMORY_TYPE_PINNED */
	bool imported;        /* import_shareable_handle's: no fabric export */
	uint32_t ref_count;   /* create/import, retains; release drops one */
	uint32_t use_count;   /* mappings of it */
};

/* hsa_amd_vmem_map: a handle at [va, va + size). */
struct vmem_map {
	struct vmem_map *next;
	uintptr_t va;
	uint64_t size;
	struct vmem_handle *h;
	struct vmem_range *range;
	struct kfd_mem *import;           /* the handle's dma-buf at va */
	hsa_access_permission_t *perm;    /* per agent of rt->agents */
	bool cpu_mapped;                  /* the dma-buf is mmapped at va */
};

/* hsa_amd_vmem_import_fabric_handle: the name as given, not yet imported
 * (ROCr's MemoryHandle(hsa_fabric_handle_t)).  The record's address is the
 * public handle: a heap address, never one of the handle space's
 * non-canonical ones, so the two kinds cannot be confused. */
struct vmem_fabric {
	struct vmem_fabric *next;
	hsa_fabric_handle_t name;
	uint32_t ref_count;   /* import; release drops one */
};

struct hl_vmem {
	pthread_mutex_t lock;
	struct vmem_range *ranges;
	struct vmem_handle *handles;
	struct vmem_map *maps;
	struct vmem_fabric *fabrics;
};

static bool api_supported(const struct hl_runtime *rt)
{
	return rt->n_gpus && rt->proc && kfd_dmabuf_api(rt->proc);
}

int hl_vmem_attach(struct hl_runtime *rt)
{
	struct hl_vmem *vm = calloc(1, sizeof(*vm));
	if (!vm)
		return -ENOMEM;
	pthread_mutex_init(&vm->lock, NULL);
	rt->vmem = vm;
	return 0;
}

/* ---- lookups; caller holds vm->lock ---- */

static struct vmem_range *range_containing(struct hl_vmem *vm, uintptr_t va, uint64_t size)
{
	for (struct vmem_range *r = vm->ranges; r; r = r->next)
		if (va >= r->va && va - r->va <= r->size && size <= r->size - (va - r->va))
			return r;
	return NULL;
}

static struct vmem_handle *handle_find(struct hl_vmem *vm, hsa_amd_vmem_alloc_handle_t handle)
{
	for (struct vmem_handle *h = vm->handles; h; h = h->next)
		if ((uint64_t)(uintptr_t)h->mem->addr == handle.handle)
			return h;
	return NULL;
}

/* Compares the value with each record's address; never dereferences it. */
static struct vmem_fabric *fabric_find(struct hl_vmem *vm, hsa_amd_vmem_alloc_handle_t handle)
{
	for (struct vmem_fabric *f = vm->fabrics; f; f = f->next)
		if ((uint64_t)(uintptr_t)f == handle.handle)
			return f;
	return NULL;
}

static void fabric_unlink_locked(struct hl_vmem *vm, struct vmem_fabric *f)
{
	for (struct vmem_fabric **pp = &vm->fabrics; *pp; pp = &(*pp)->next)
		if (*pp == f) {
			*pp = f->next;
			break;
		}
	free(f);
}

static struct vmem_map *map_at(struct hl_vmem *vm, uintptr_t va)
{
	for (struct vmem_map *m = vm->maps; m; m = m->next)
		if (m->va == va)
			return m;
	return NULL;
}

/* The mappings that tile [va, va + size) from va on, each starting where
 * the previous ends, into out (room for max); their count, or -1 when va
 * starts none or a gap comes first.  exact: the last must end at va + size
 * (unmap); else it may run past (set_access, as ROCr's loop). */
static int map_chain(struct hl_vmem *vm, uintptr_t va, uint64_t size, bool exact,
		     struct vmem_map **out, int max)
{
	int n = 0;
	uintptr_t at = va;
	while (at - va < size) {
		struct vmem_map *m = map_at(vm, at);
		if (!m || n == max)
			return -1;
		out[n++] = m;
		at += m->size;
	}
	if (exact && at - va != size)
		return -1;
	return n;
}

static hsa_status_t chain_alloc(struct hl_vmem *vm, uintptr_t va, uint64_t size, bool exact,
				struct vmem_map ***out, int *n)
{
	int count = 0;
	for (struct vmem_map *m = vm->maps; m; m = m->next)
		count++;
	*out = calloc(count ? (size_t)count : 1, sizeof(**out));
	if (!*out)
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	*n = map_chain(vm, va, size, exact, *out, count);
	if (*n < 0) {
		free(*out);
		*out = NULL;
		return HSA_STATUS_ERROR_INVALID_ALLOCATION;
	}
	return HSA_STATUS_SUCCESS;
}

/* ---- address ranges ---- */

static hsa_status_t reserve(void **va, size_t size, uint64_t address, uint64_t alignment,
			    uint64_t flags, bool always_check_api)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (size == 0)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	bool no_register = flags & HSA_AMD_VMEM_ADDRESS_NO_REGISTER;
	/* ROCr: _reserve asks for the API only for GPU ranges, _align always */
	if ((always_check_api || !no_register) && !api_supported(rt))
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	if (!va)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	if (alignment < HL_PAGE_SIZE)
		alignment = HL_PAGE_SIZE;
	if (alignment & (alignment - 1)) {
		hl_debug(VMEM_LOG, "reserve: alignment 0x%llx is not a power of two",
			 (unsigned long long)alignment);
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	}

	struct vmem_range *r = calloc(1, sizeof(*r));
	if (!r)
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	r->size = size;
	r->registered = !no_register;
	if (no_register) {
		/* ROCr: anonymous read-write memory, aligned inside a larger
		 * mapping it keeps whole; THP advised for 2 MiB and more. */
		uint64_t len = size + alignment - HL_PAGE_SIZE;
		void *p = mmap((void *)(uintptr_t)address, len, PROT_READ | PROT_WRITE,
			       MAP_ANONYMOUS | MAP_PRIVATE | MAP_NORESERVE, -1, 0);
		if (p == MAP_FAILED) {
			hl_error(VMEM_LOG, "reserve %zu bytes (NO_REGISTER): %s", size,
				 hl_errno_name(-errno));
			free(r);
			return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
		}
		r->os_addr = p;
		r->os_size = len;
		r->va = ((uintptr_t)p + alignment - 1) & ~(uintptr_t)(alignment - 1);
		if (size >= (2u << 20))
			(void)madvise((void *)r->va, size, MADV_HUGEPAGE);
	} else {
		void *p;
		int err = kfd_va_range_reserve(rt->proc, address, size, alignment, &p);
		if (err) {
			hl_error(VMEM_LOG, "reserve %zu bytes at 0x%llx: %s", size,
				 (unsigned long long)address, hl_errno_name(err));
			free(r);
			return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
		}
		r->os_addr = p;
		r->os_size = size;
		r->va = (uintptr_t)p;
	}
	pthread_mutex_lock(&rt->vmem->lock);
	r->next = rt->vmem->ranges;
	rt->vmem->ranges = r;
	pthread_mutex_unlock(&rt->vmem->lock);
	*va = (void *)r->va;
	return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_vmem_address_reserve(void **va, size_t size, uint64_t address,
					  uint64_t flags)
{
	return reserve(va, size, address, 0, flags, false);
}

hsa_status_t hsa_amd_vmem_address_reserve_align(void **va, size_t size, uint64_t address,
						uint64_t alignment, uint64_t flags)
{
	return reserve(va, size, address, alignment, flags, true);
}

static void range_release(struct vmem_range *r)
{
	if (r->registered)
		kfd_va_range_release(r->os_addr, r->os_size);
	else
		munmap(r->os_addr, r->os_size);
	free(r);
}

hsa_status_t hsa_amd_vmem_address_free(void *va, size_t size)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!va || size == 0)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	struct hl_vmem *vm = rt->vmem;
	hsa_status_t status = HSA_STATUS_SUCCESS;
	pthread_mutex_lock(&vm->lock);
	struct vmem_range **pp = &vm->ranges;
	while (*pp && (*pp)->va != (uintptr_t)va)
		pp = &(*pp)->next;
	struct vmem_range *r = *pp;
	if (!r) {
		hl_debug(VMEM_LOG, "address_free %p: not a reserved range", va);
		status = HSA_STATUS_ERROR_INVALID_ALLOCATION;
	} else if (r->size != size) {
		hl_debug(VMEM_LOG, "address_free %p: size %zu, reserved %llu", va, size,
			 (unsigned long long)r->size);
		status = HSA_STATUS_ERROR_INVALID_ARGUMENT;
	} else if (r->use_count) {
		hl_debug(VMEM_LOG, "address_free %p: %u mappings inside", va, r->use_count);
		status = HSA_STATUS_ERROR_RESOURCE_FREE;
	} else {
		*pp = r->next;
		range_release(r);
	}
	pthread_mutex_unlock(&vm->lock);
	return status;
}

/* ---- handles ---- */

/* Frees the handle's BO and record once nothing holds it; caller holds
 * vm->lock. */
static void handle_put_locked(struct hl_runtime *rt, struct vmem_handle *h)
{
	if (h->ref_count || h->use_count)
		return;
	for (struct vmem_handle **pp = &rt->vmem->handles; *pp; pp = &(*pp)->next)
		if (*pp == h) {
			*pp = h->next;
			break;
		}
	int err = kfd_mem_free(rt->proc, h->mem);
	if (err)
		hl_error(VMEM_LOG, "handle %p: free: %s", h->mem->addr, hl_errno_name(err));
	free(h);
}

hsa_status_t hsa_amd_vmem_handle_create(hsa_amd_memory_pool_t pool, size_t size,
					hsa_amd_memory_type_t type, uint64_t flags,
					hsa_amd_vmem_alloc_handle_t *memory_handle)
{
	(void)flags; /* unused, as in ROCr 1.18 */
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (size == 0 || !api_supported(rt))
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	if (type != MEMORY_TYPE_NONE && type != MEMORY_TYPE_PINNED)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	struct hl_pool *p = hl_pool_lookup(rt, pool.handle);
	if (!p || !memory_handle || size % HL_PAGE_SIZE)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	/* ROCr's MemoryRegion::Allocate, then the driver's MemoryOnly rule */
	if (!hl_pool_is_allocatable(p) || size > p->alloc_max)
		return HSA_STATUS_ERROR_INVALID_ALLOCATION;
	if (hl_pool_is_system(p)) {
		hl_debug(VMEM_LOG, "handle_create: a system pool has no memory-only allocation");
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	}

	struct vmem_handle *h = calloc(1, sizeof(*h));
	if (!h)
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	struct kfd_mem_alloc_args args = {
		.kind = KFD_MEM_VRAM,
		.gpu_id = p->owner->gpu->gpu_id,
		.size = size,
		/* PUBLIC when the CPU can reach the pool: set_access may mmap it */
		.host_access = p->host_access,
		.no_address = true,
	};
	if (p->kind == HL_POOL_VRAM_FINE)
		args.extra_flags = KFD_ALLOC_COHERENT | KFD_ALLOC_UNCACHED;
	int err = kfd_mem_alloc(rt->proc, &args, &h->mem);
	if (err) {
		hl_error(VMEM_LOG, "handle_create %zu bytes: %s", size, hl_errno_name(err));
		free(h);
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	}
	h->pool = p;
	h->size = size;
	h->pinned = type == MEMORY_TYPE_PINNED;
	h->ref_count = 1;
	pthread_mutex_lock(&rt->vmem->lock);
	h->next = rt->vmem->handles;
	rt->vmem->handles = h;
	pthread_mutex_unlock(&rt->vmem->lock);
	memory_handle->handle = (uint64_t)(uintptr_t)h->mem->addr;
	return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_vmem_handle_release(hsa_amd_vmem_alloc_handle_t memory_handle)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	hsa_status_t status = HSA_STATUS_SUCCESS;
	pthread_mutex_lock(&rt->vmem->lock);
	struct vmem_handle *h = handle_find(rt->vmem, memory_handle);
	struct vmem_fabric *f = h ? NULL : fabric_find(rt->vmem, memory_handle);
	if (f) {
		/* never mapped (map refuses it): the last release frees it */
		if (--f->ref_count == 0)
			fabric_unlink_locked(rt->vmem, f);
	} else if (!h || !h->ref_count) {
		/* released already, still mapped: ROCr says INVALID_ALLOCATION too */
		hl_debug(VMEM_LOG, "handle_release 0x%llx: not a live handle",
			 (unsigned long long)memory_handle.handle);
		status = HSA_STATUS_ERROR_INVALID_ALLOCATION;
	} else {
		h->ref_count--;
		handle_put_locked(rt, h);
	}
	pthread_mutex_unlock(&rt->vmem->lock);
	return status;
}

hsa_status_t hsa_amd_vmem_retain_alloc_handle(hsa_amd_vmem_alloc_handle_t *memory_handle,
					      void *addr)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!addr || !memory_handle)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	hsa_status_t status = HSA_STATUS_SUCCESS;
	pthread_mutex_lock(&rt->vmem->lock);
	struct vmem_map *m = map_at(rt->vmem, (uintptr_t)addr);
	if (!m) {
		status = HSA_STATUS_ERROR_INVALID_ALLOCATION;
	} else {
		m->h->ref_count++;
		memory_handle->handle = (uint64_t)(uintptr_t)m->h->mem->addr;
	}
	pthread_mutex_unlock(&rt->vmem->lock);
	return status;
}

hsa_status_t hsa_amd_vmem_get_alloc_properties_from_handle(
	hsa_amd_vmem_alloc_handle_t memory_handle, hsa_amd_memory_pool_t *pool,
	hsa_amd_memory_type_t *type)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!pool || !type)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	hsa_status_t status = HSA_STATUS_SUCCESS;
	pthread_mutex_lock(&rt->vmem->lock);
	struct vmem_handle *h = handle_find(rt->vmem, memory_handle);
	if (!h && fabric_find(rt->vmem, memory_handle)) {
		/* ROCr's answer for a handle imported by name: no pool yet */
		pool->handle = 0;
		*type = MEMORY_TYPE_NONE;
	} else if (!h) {
		status = HSA_STATUS_ERROR_INVALID_ALLOCATION;
	} else {
		pool->handle = (uint64_t)(uintptr_t)h->pool;
		*type = h->pinned ? MEMORY_TYPE_PINNED : MEMORY_TYPE_NONE;
	}
	pthread_mutex_unlock(&rt->vmem->lock);
	return status;
}

/* ---- shareable handles ---- */

hsa_status_t hsa_amd_vmem_export_shareable_handle(int *dmabuf_fd,
						  hsa_amd_vmem_alloc_handle_t handle,
						  uint64_t flags)
{
	(void)flags; /* unused, as in ROCr 1.18 */
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!dmabuf_fd)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	*dmabuf_fd = -1;
	hsa_status_t status = HSA_STATUS_SUCCESS;
	pthread_mutex_lock(&rt->vmem->lock);
	struct vmem_handle *h = handle_find(rt->vmem, handle);
	int fd = -1;
	int err = h ? kfd_mem_export_dmabuf(rt->proc, h->mem, &fd) : 0;
	if (!h && fabric_find(rt->vmem, handle)) {
		/* AMD's newer ROCr: an imported handle is not exported again */
		hl_debug(VMEM_LOG, "export 0x%llx: a fabric import has no memory here",
			 (unsigned long long)handle.handle);
		status = HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS;
	} else if (!h) {
		status = HSA_STATUS_ERROR_INVALID_ALLOCATION;
	} else if (err) {
		status = err == -EINVAL ? HSA_STATUS_ERROR_INVALID_ARGUMENT
					: HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	} else {
		/* The thunk keeps its fd for the BO's life; the caller gets
		 * an fd of its own on the same dma-buf, as each EXPORT gives. */
		int own = fcntl(fd, F_DUPFD_CLOEXEC, 0);
		if (own < 0) {
			hl_error(VMEM_LOG, "export: dup of dma-buf fd %d: %s", fd,
				 hl_errno_name(-errno));
			status = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
		} else {
			*dmabuf_fd = own;
		}
	}
	pthread_mutex_unlock(&rt->vmem->lock);
	return status;
}

/* ROCr's lookupRegion: the last pool of the agent that allows allocation. */
static struct hl_pool *import_pool(struct hl_runtime *rt, uint32_t gpu_id)
{
	for (uint32_t i = 0; i < rt->n_agents; i++) {
		struct hl_agent *a = &rt->agents[i];
		if (!a->gpu || a->gpu->gpu_id != gpu_id)
			continue;
		struct hl_pool *last = NULL;
		for (uint32_t j = 0; j < a->n_pools; j++)
			if (hl_pool_is_allocatable(&a->pools[j]))
				last = &a->pools[j];
		return last;
	}
	return NULL;
}

hsa_status_t hsa_amd_vmem_import_shareable_handle(int dmabuf_fd,
						  hsa_amd_vmem_alloc_handle_t *handle)
{
	if (!handle || dmabuf_fd < 0)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	struct vmem_handle *h = calloc(1, sizeof(*h));
	if (!h)
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	uint32_t exporter = 0;
	int err = rt->n_gpus ? kfd_mem_import_dmabuf_at(rt->proc, dmabuf_fd, 0, NULL, &exporter,
							&h->mem)
			     : -ENODEV;
	if (err) {
		/* libhsakmt's RegisterGraphicsHandleToNodes failing */
		hl_error(VMEM_LOG, "import fd %d: %s", dmabuf_fd, hl_errno_name(err));
		free(h);
		return HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS;
	}
	h->pool = import_pool(rt, exporter);
	if (!h->pool) {
		hl_error(VMEM_LOG, "import fd %d: its GPU 0x%x is not an agent of this process",
			 dmabuf_fd, exporter);
		kfd_mem_free(rt->proc, h->mem);
		free(h);
		return HSA_STATUS_ERROR_INVALID_ALLOCATION;
	}
	h->size = h->mem->size;
	h->imported = true;
	h->ref_count = 1;
	pthread_mutex_lock(&rt->vmem->lock);
	h->next = rt->vmem->handles;
	rt->vmem->handles = h;
	pthread_mutex_unlock(&rt->vmem->lock);
	handle->handle = (uint64_t)(uintptr_t)h->mem->addr;
	return HSA_STATUS_SUCCESS;
}

/* ---- fabric handles ---- */

hsa_status_t hsa_amd_vmem_export_fabric_handle(hsa_fabric_handle_t *fabric_handle,
					       hsa_amd_vmem_alloc_handle_t handle,
					       uint64_t flags)
{
	(void)flags; /* unused, as in ROCr */
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	/* ROCr's order: the handle, then whether it was imported, then the
	 * driver's NULL check, then the driver's export */
	hsa_status_t status;
	pthread_mutex_lock(&rt->vmem->lock);
	struct vmem_handle *h = handle_find(rt->vmem, handle);
	if (!h && !fabric_find(rt->vmem, handle)) {
		hl_debug(VMEM_LOG, "export_fabric_handle: 0x%llx is not a handle",
			 (unsigned long long)handle.handle);
		status = HSA_STATUS_ERROR_INVALID_ALLOCATION;
	} else if (!h || h->imported) {
		hl_debug(VMEM_LOG, "export_fabric_handle: 0x%llx was imported",
			 (unsigned long long)handle.handle);
		status = HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS;
	} else if (!fabric_handle) {
		status = HSA_STATUS_ERROR_INVALID_ARGUMENT;
	} else {
		/* ROCr's answer when hsaKmtHandleExport cannot make a fabric
		 * handle; *fabric_handle untouched, as there */
		hl_error(VMEM_LOG, "export_fabric_handle 0x%llx: the amdkfd UAPI has no memory "
			 "fabric to export GPU 0x%x's memory on", (unsigned long long)handle.handle,
			 h->mem->gpu_id);
		status = HSA_STATUS_ERROR;
	}
	pthread_mutex_unlock(&rt->vmem->lock);
	return status;
}

hsa_status_t hsa_amd_vmem_import_fabric_handle(hsa_fabric_handle_t fabric_handle,
					       hsa_amd_vmem_alloc_handle_t *handle)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!handle) /* ROCr writes through it unchecked */
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	struct vmem_fabric *f = calloc(1, sizeof(*f));
	if (!f)
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	f->name = fabric_handle;
	f->ref_count = 1;
	pthread_mutex_lock(&rt->vmem->lock);
	f->next = rt->vmem->fabrics;
	rt->vmem->fabrics = f;
	pthread_mutex_unlock(&rt->vmem->lock);
	handle->handle = (uint64_t)(uintptr_t)f;
	return HSA_STATUS_SUCCESS;
}

/* ---- mappings ---- */

hsa_status_t hsa_amd_vmem_map(void *va, size_t size, size_t in_offset,
			      hsa_amd_vmem_alloc_handle_t memory_handle, uint64_t flags)
{
	(void)in_offset; /* ROCr 1.18 maps from the start of the handle */
	(void)flags;
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!va || size == 0)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	struct hl_vmem *vm = rt->vmem;
	uintptr_t a = (uintptr_t)va;
	hsa_status_t status = HSA_STATUS_ERROR_INVALID_ARGUMENT;

	pthread_mutex_lock(&vm->lock);
	struct vmem_range *r = range_containing(vm, a, size);
	if (!r) {
		hl_debug(VMEM_LOG, "map %p+%zu: not inside a reserved range", va, size);
		goto out_unlock;
	}
	for (struct vmem_map *m = vm->maps; m; m = m->next)
		if (a < m->va + m->size && m->va < a + size) {
			hl_debug(VMEM_LOG, "map %p+%zu: overlaps the mapping at 0x%llx", va, size,
				 (unsigned long long)m->va);
			goto out_unlock;
		}
	struct vmem_handle *h = handle_find(vm, memory_handle);
	if (!h && fabric_find(vm, memory_handle)) {
		/* Where we import a handle's memory, and ROCr's status when
		 * its (later) import of a fabric name fails. */
		hl_error(VMEM_LOG, "map %p: handle 0x%llx names memory across a fabric, and "
			 "the amdkfd UAPI has no memory fabric to import it from", va,
			 (unsigned long long)memory_handle.handle);
		status = HSA_STATUS_ERROR;
		goto out_unlock;
	}
	if (!h) {
		hl_debug(VMEM_LOG, "map %p: 0x%llx is not a handle", va,
			 (unsigned long long)memory_handle.handle);
		goto out_unlock;
	}
	if (size != h->size || a % HL_PAGE_SIZE) {
		hl_debug(VMEM_LOG, "map %p+%zu: a page-aligned mapping of the whole handle "
			 "(%llu bytes) is needed", va, size, (unsigned long long)h->size);
		goto out_unlock;
	}

	struct vmem_map *m = calloc(1, sizeof(*m));
	hsa_access_permission_t *perm = calloc(rt->n_agents, sizeof(*perm));
	if (!m || !perm) {
		free(m);
		free(perm);
		status = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
		goto out_unlock;
	}
	int fd;
	int err = kfd_mem_export_dmabuf(rt->proc, h->mem, &fd);
	if (err) {
		/* ROCr 1.18's KfdDriver::ExportDMABuf answers OUT_OF_RESOURCES
		 * for a driver that refuses the export (INVALID_ARGUMENT only
		 * for the thunk's own parameter checks, which a live handle
		 * passes) */
		hl_error(VMEM_LOG, "map %p+%zu: export: %s", va, size, hl_errno_name(err));
		free(m);
		free(perm);
		status = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
		goto out_unlock;
	}
	err = kfd_mem_import_dmabuf_at(rt->proc, fd, h->mem->gpu_id, va, NULL, &m->import);
	if (err) {
		hl_error(VMEM_LOG, "map %p+%zu: import: %s", va, size, hl_errno_name(err));
		free(m);
		free(perm);
		status = err == -EINVAL ? HSA_STATUS_ERROR_INVALID_ARGUMENT : HSA_STATUS_ERROR;
		goto out_unlock;
	}
	m->va = a;
	m->size = size;
	m->h = h;
	m->range = r;
	m->perm = perm; /* calloc: HSA_ACCESS_PERMISSION_NONE everywhere */
	m->next = vm->maps;
	vm->maps = m;
	r->use_count++;
	h->use_count++;
	status = HSA_STATUS_SUCCESS;
out_unlock:
	pthread_mutex_unlock(&vm->lock);
	return status;
}

/* What lies under a range where nothing is mapped for the CPU. */
static int cpu_reset(const struct vmem_map *m)
{
	int prot = m->range->registered ? PROT_NONE : PROT_READ | PROT_WRITE;
	void *p = mmap((void *)m->va, m->size, prot,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
	return p == MAP_FAILED ? -errno : 0;
}

/* Gives agent a (index ai) perm on m; caller holds vm->lock.  -errno. */
static int access_set(struct hl_runtime *rt, struct vmem_map *m, uint32_t ai,
		      hsa_access_permission_t perm)
{
	const struct hl_agent *a = &rt->agents[ai];
	int err;
	if (a->gpu) {
		err = perm == HSA_ACCESS_PERMISSION_NONE
			      ? kfd_mem_unmap(rt->proc, m->import, &a->gpu->gpu_id, 1)
			      : kfd_mem_map(rt->proc, m->import, &a->gpu->gpu_id, 1);
	} else if (perm == HSA_ACCESS_PERMISSION_NONE) {
		err = m->cpu_mapped ? cpu_reset(m) : 0;
		if (!err)
			m->cpu_mapped = false;
	} else {
		int prot = (perm & HSA_ACCESS_PERMISSION_RO ? PROT_READ : 0) |
			   (perm & HSA_ACCESS_PERMISSION_WO ? PROT_WRITE : 0);
		int fd;
		err = kfd_mem_export_dmabuf(rt->proc, m->h->mem, &fd);
		if (!err) {
			void *p = mmap((void *)m->va, m->size, prot, MAP_SHARED | MAP_FIXED, fd, 0);
			err = p == MAP_FAILED ? -errno : 0;
		}
		if (!err) {
			m->cpu_mapped = true;
			/* a BO mapping: a fork child's copy would hold the BO */
			(void)madvise((void *)m->va, m->size, MADV_DONTFORK);
		}
	}
	if (err) {
		hl_error(VMEM_LOG, "set_access 0x%llx+%llu for %s: %s", (unsigned long long)m->va,
			 (unsigned long long)m->size, a->name, hl_errno_name(err));
		return err;
	}
	m->perm[ai] = perm;
	return 0;
}

hsa_status_t hsa_amd_vmem_set_access(void *va, size_t size,
				     const hsa_amd_memory_access_desc_t *desc, size_t desc_cnt)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!va || size == 0 || !desc || desc_cnt == 0)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	for (size_t i = 0; i < desc_cnt; i++)
		if (!hl_agent_lookup(rt, desc[i].agent_handle))
			return HSA_STATUS_ERROR_INVALID_AGENT;
	for (size_t i = 0; i < desc_cnt; i++)
		if (desc[i].permissions < HSA_ACCESS_PERMISSION_NONE ||
		    desc[i].permissions > HSA_ACCESS_PERMISSION_RW)
			return HSA_STATUS_ERROR_INVALID_ARGUMENT;

	struct hl_vmem *vm = rt->vmem;
	struct vmem_map **chain = NULL;
	int n = 0;
	hsa_status_t status = HSA_STATUS_ERROR_INVALID_ARGUMENT;
	pthread_mutex_lock(&vm->lock);
	if (!range_containing(vm, (uintptr_t)va, size))
		goto out_unlock;
	status = chain_alloc(vm, (uintptr_t)va, size, false, &chain, &n);
	if (status != HSA_STATUS_SUCCESS)
		goto out_unlock;
	for (int c = 0; c < n && status == HSA_STATUS_SUCCESS; c++)
		for (size_t i = 0; i < desc_cnt; i++) {
			uint32_t ai = (uint32_t)(hl_agent_lookup(rt, desc[i].agent_handle) -
						 rt->agents);
			if (chain[c]->perm[ai] == desc[i].permissions && desc[i].permissions)
				continue;
			if (access_set(rt, chain[c], ai, desc[i].permissions)) {
				/* ROCr forgets the agent's entry when enabling fails */
				chain[c]->perm[ai] = HSA_ACCESS_PERMISSION_NONE;
				status = HSA_STATUS_ERROR;
				break;
			}
		}
	free(chain);
out_unlock:
	pthread_mutex_unlock(&vm->lock);
	return status;
}

hsa_status_t hsa_amd_vmem_get_access(void *va, hsa_access_permission_t *perms,
				     hsa_agent_t agent_handle)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!va || !perms)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	*perms = HSA_ACCESS_PERMISSION_NONE;
	uintptr_t a = (uintptr_t)va;
	hsa_status_t status = HSA_STATUS_SUCCESS;
	pthread_mutex_lock(&rt->vmem->lock);
	struct vmem_map *m = rt->vmem->maps;
	while (m && !(a >= m->va && a - m->va < m->size))
		m = m->next;
	const struct hl_agent *ag = hl_agent_lookup(rt, agent_handle);
	if (!m)
		status = HSA_STATUS_ERROR_INVALID_ALLOCATION;
	else if (!ag || !ag->gpu) /* ROCr answers for GPU agents only */
		status = HSA_STATUS_ERROR_INVALID_AGENT;
	else
		*perms = m->perm[ag - rt->agents];
	pthread_mutex_unlock(&rt->vmem->lock);
	return status;
}

/* Undoes one mapping (access, import, counts, the handle if it was the
 * last hold); caller holds vm->lock.  -errno with the mapping kept. */
static int map_remove_locked(struct hl_runtime *rt, struct vmem_map *m)
{
	struct hl_vmem *vm = rt->vmem;
	if (m->cpu_mapped) {
		int err = cpu_reset(m);
		if (err) {
			hl_error(VMEM_LOG, "unmap 0x%llx: CPU view: %s", (unsigned long long)m->va,
				 hl_errno_name(err));
			return err;
		}
		m->cpu_mapped = false;
	}
	/* unmaps it from every GPU first */
	int err = kfd_mem_free(rt->proc, m->import);
	if (err)
		return err;
	for (struct vmem_map **pp = &vm->maps; *pp; pp = &(*pp)->next)
		if (*pp == m) {
			*pp = m->next;
			break;
		}
	m->range->use_count--;
	m->h->use_count--;
	handle_put_locked(rt, m->h);
	free(m->perm);
	free(m);
	return 0;
}

hsa_status_t hsa_amd_vmem_unmap(void *va, size_t size)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!va || size == 0)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	struct hl_vmem *vm = rt->vmem;
	struct vmem_map **chain;
	int n;
	pthread_mutex_lock(&vm->lock);
	hsa_status_t status = chain_alloc(vm, (uintptr_t)va, size, true, &chain, &n);
	for (int c = 0; status == HSA_STATUS_SUCCESS && c < n; c++)
		if (map_remove_locked(rt, chain[c]))
			status = HSA_STATUS_ERROR;
	if (chain)
		free(chain);
	pthread_mutex_unlock(&vm->lock);
	return status;
}

/* hsa_amd_agents_allow_access on a mapped address (ROCr 1.18's
 * VMemoryMapAllowAccess): RW for the agents on the mapping that contains
 * ptr and the mappings that follow it without a gap.  -ENOENT when no
 * mapping contains ptr, then -EINVAL for an unknown agent, else the
 * result. */
int hl_vmem_allow_access(struct hl_runtime *rt, const hsa_agent_t *agents, uint32_t n,
			 const void *ptr)
{
	struct hl_vmem *vm = rt->vmem;
	uintptr_t a = (uintptr_t)ptr;
	int err = -ENOENT;
	pthread_mutex_lock(&vm->lock);
	struct vmem_map *m = vm->maps;
	while (m && !(a >= m->va && a - m->va < m->size))
		m = m->next;
	/* ROCr 1.18 (VMemoryMapAllowAccess) looks at the agents first, mapped
	 * or not; then an address no mapping holds is -ENOENT (the caller's
	 * INVALID_ALLOCATION) */
	for (uint32_t i = 0; i < n; i++)
		if (!hl_agent_lookup(rt, agents[i])) {
			err = -EINVAL;
			goto out_unlock;
		}
	while (m) {
		for (uint32_t i = 0; i < n; i++) {
			uint32_t ai = (uint32_t)(hl_agent_lookup(rt, agents[i]) - rt->agents);
			err = m->perm[ai] == HSA_ACCESS_PERMISSION_RW
				      ? 0
				      : access_set(rt, m, ai, HSA_ACCESS_PERMISSION_RW);
			if (err)
				goto out_unlock;
		}
		err = 0;
		m = map_at(vm, m->va + m->size);
	}
out_unlock:
	pthread_mutex_unlock(&vm->lock);
	return err;
}

/* pointer_info of a reserved range, as libhsakmt reports its OnlyAddress
 * objects to ROCr 1.18: RESERVED_ADDR, the range's start as the agent
 * address, no host address, owned by the first CPU, fine-grained flags.
 * NO_REGISTER ranges are unknown to the thunk. */
bool hl_vmem_info(struct hl_runtime *rt, const void *ptr, hsa_amd_pointer_info_t *out,
		  hsa_agent_t *list, uint32_t max, uint32_t *n_list)
{
	uintptr_t a = (uintptr_t)ptr;
	bool found = false;
	pthread_mutex_lock(&rt->vmem->lock);
	/* A mapped handle first (interface 1.12's HSA_VMEM, as AMD's newer
	 * Runtime::VMemoryPtrInfo fills it: both bases are the queried
	 * address, the size the mapping's, the agents those given access). */
	for (struct vmem_map *m = rt->vmem->maps; m && !found; m = m->next) {
		if (a < m->va || a - m->va >= m->size)
			continue;
		found = true;
		out->type = HSA_EXT_POINTER_TYPE_HSA_VMEM;
		out->agentBaseAddress = (void *)ptr;
		out->hostBaseAddress = (void *)ptr;
		out->sizeInBytes = m->size;
		out->registered = true;
		out->agentOwner = hl_agent_handle(m->h->pool->owner);
		uint32_t flags = 0;
		(void)hsa_amd_memory_pool_get_info(
			(hsa_amd_memory_pool_t){ (uint64_t)(uintptr_t)m->h->pool },
			HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags);
		out->global_flags = flags;
		out->alloc_flags = hl_alloc_flags_of(m->h->mem);
		for (uint32_t i = 0; i < rt->n_agents && *n_list < max; i++)
			if (m->perm[i] != HSA_ACCESS_PERMISSION_NONE)
				list[(*n_list)++] = hl_agent_handle(&rt->agents[i]);
	}
	/* Else a reserved range, registered or NO_REGISTER (1.12's
	 * RESERVED_ADDR: no agent address, the host address of the range). */
	for (struct vmem_range *r = rt->vmem->ranges; r && !found; r = r->next) {
		if (a < r->va || a - r->va >= r->size)
			continue;
		found = true;
		out->type = HSA_EXT_POINTER_TYPE_RESERVED_ADDR;
		out->agentBaseAddress = NULL;
		out->hostBaseAddress = (void *)r->va;
		out->sizeInBytes = r->size;
		out->registered = r->registered;
	}
	pthread_mutex_unlock(&rt->vmem->lock);
	return found;
}

int hl_vmem_reserved_range(struct hl_runtime *rt, const void *ptr, size_t size,
			   struct hl_vmem_extent *out)
{
	uintptr_t a = (uintptr_t)ptr;
	int err = -ENOENT;
	if (!rt->vmem)
		return err;
	pthread_mutex_lock(&rt->vmem->lock);
	for (struct vmem_range *r = rt->vmem->ranges; r; r = r->next) {
		if (a < r->va || a - r->va >= r->size)
			continue;
		err = size > r->size - (a - r->va) ? -ERANGE : 0;
		out->va = r->va;
		out->size = r->size;
		out->registered = r->registered;
		out->mapped = false;
		for (struct vmem_map *m = rt->vmem->maps; m; m = m->next)
			if (m->range == r && a < m->va + m->size && m->va < a + size)
				out->mapped = true;
		break;
	}
	pthread_mutex_unlock(&rt->vmem->lock);
	return err;
}

/* ---- the runtime's life ---- */

void hl_vmem_release_all(struct hl_runtime *rt)
{
	struct hl_vmem *vm = rt->vmem;
	if (!vm)
		return;
	pthread_mutex_lock(&vm->lock);
	while (vm->maps) {
		struct vmem_map *m = vm->maps;
		if (map_remove_locked(rt, m)) {
			/* leave its BO to kfd_process_close */
			vm->maps = m->next;
			free(m->perm);
			free(m);
		}
	}
	while (vm->handles) {
		struct vmem_handle *h = vm->handles;
		vm->handles = h->next;
		kfd_mem_free(rt->proc, h->mem);
		free(h);
	}
	while (vm->ranges) {
		struct vmem_range *r = vm->ranges;
		vm->ranges = r->next;
		range_release(r);
	}
	while (vm->fabrics)
		fabric_unlink_locked(vm, vm->fabrics);
	pthread_mutex_unlock(&vm->lock);
	pthread_mutex_destroy(&vm->lock);
	free(vm);
	rt->vmem = NULL;
}

void hl_vmem_forget_all(struct hl_runtime *rt)
{
	struct hl_vmem *vm = rt->vmem;
	if (!vm)
		return;
	/* The BOs are the parent's; the ranges stay reserved in the child,
	 * as any inherited mapping does.  No lock: rt is unreachable. */
	while (vm->maps) {
		struct vmem_map *m = vm->maps;
		vm->maps = m->next;
		free(m->perm);
		free(m);
	}
	while (vm->handles) {
		struct vmem_handle *h = vm->handles;
		vm->handles = h->next;
		free(h);
	}
	while (vm->ranges) {
		struct vmem_range *r = vm->ranges;
		vm->ranges = r->next;
		free(r);
	}
	/* fabric names are ours alone: nothing of the kernel's behind them */
	while (vm->fabrics)
		fabric_unlink_locked(vm, vm->fabrics);
	free(vm);
	rt->vmem = NULL;
}
