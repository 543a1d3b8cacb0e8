/*
 * IPC memory: hsa_amd_ipc_memory_create / attach / detach, and what
 * hsa_amd_pointer_info says about attached memory.
 *
 * Two kinds of handle (8 x uint32, in the slots of libhsakmt's
 * HsaSharedMemoryHandle: ShareHandle[4], ApeInfo{Type, Idx}, SizeInPages,
 * ExportGpuId, so the size and fragment bits sit where ROCr puts them):
 *
 *  - On a ROCm-DKMS kernel, the kernel's own: IPC_EXPORT_HANDLE (0x81)
 *    gives a 128-bit share handle any process can IPC_IMPORT_HANDLE (0x80).
 *    ROCr 5.2.3 (libhsakmt's hsaKmtShareMemory / hsaKmtRegisterSharedHandle)
 *    makes and takes exactly these, so hsalite and ROCr processes share
 *    both ways.  Words 4-5 are libhsakmt's aperture (DGPU, 0), where a ROCr
 *    importer reserves the VA.
 *  - On an upstream kernel (IPC_EXPORT_HANDLE answers -ENOTTY, after which
 *    it is not asked again), the upstream dma-buf ioctls, as later ROCr
 *    releases do: the handle names the exporter's dma-buf fd, and the
 *    importer takes a copy of that fd with pidfd_open + pidfd_getfd (Linux
 *    5.6; the importer must be allowed to ptrace the exporter) rather than
 *    asking a socket server thread in the exporter for it (later ROCr), so
 *    no thread is started:
 *      [0] exporter pid            [1] the dma-buf fd number in the exporter
 *      [2] [3] the dma-buf's inode (low, high): tells a reused fd number
 *          from the buffer (every dma-buf has an inode of its own)
 *      [4] HL_IPC_MAGIC (never an aperture type)
 *      [5] the exporter's KFD_ALLOC_* flags (its grain)
 *    The exporter keeps the fd open until the allocation is freed (the
 *    thunk closes it then), so a handle names the buffer exactly as long as
 *    the exporter has it; a process that attached keeps the pages after
 *    that, as dma-buf reference counting gives.  ROCr 5.2.3 cannot attach
 *    these (it knows only the DKMS ioctls).
 * In both, [6] is the size in pages, with bit 31 and bits 8:0 a fragment
 * offset in pages as ROCr marks a sub-allocation (a VRAM fragment of a
 * 2 MiB block, suballoc.c: the handle names the block), and [7] the
 * exporting GPU's gpu_id.
 *
 * Rules and statuses follow ROCr 5.2.3 (Runtime::IPCCreate, IPCAttach,
 * IPCDetach): create needs the start of an allocation and its whole size
 * (hsa_amd_pointer_info's sizeInBytes) and returns INVALID_ARGUMENT for
 * anything else, including memory the kernel cannot export (system-pool
 * memory is user pages, which neither export takes); attach returns INVALID_ARGUMENT for a handle that names
 * nothing and OUT_OF_RESOURCES when the GPU mapping fails, maps on the
 * agents given (every GPU when none); detach takes the pointer attach
 * returned (INVALID_ARGUMENT otherwise).
 *
 * Attachments are on rt->ipc_imports under rt->mem_lock, with the graphics
 * interop mappings (interop.c): libhsakmt keeps both as imported BOs of one
 * kind, so ROCr's detach unmaps either and so does ours; pointer info tells
 * them apart (IPC, GRAPHICS).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "memory/memory_priv.h"
#include "util/barrier.h"
#include "util/log.h"

#define IPC_LOG "ipc"
#define HL_IPC_MAGIC 0x50494c48u /* "HLIP" */
#define IPC_FRAGMENT_BIT 0x80000000u
#define IPC_FRAGMENT_MASK 0x1ffu
/* ROCr: "Reject sharing allocations larger than ~8TB due to thunk
 * limitations" (SizeInPages is 32 bits). */
#define IPC_MAX_LEN 0x7FFFFFFF000ull

enum { H_PID, H_FD, H_INO_LO, H_INO_HI, H_MAGIC, H_FLAGS, H_PAGES, H_GPU };
/* The DKMS form: words 0-3 the kernel's share handle, 4-5 libhsakmt's
 * HsaApertureInfo (type, index) the importer reserves its VA in. */
enum { H_APE_TYPE = 4, H_APE_IDX = 5 };
#define HSA_APERTURE_DGPU 1u
#define HSA_APERTURE_CPUVM 4u

struct hl_ipc_import {
	void *ptr;            /* what attach returned */
	uint64_t size;        /* the part the handle names */
	bool fragment;        /* ptr is inside mem (a ROCr sub-allocation) */
	uint32_t flags;       /* the exporter's KFD_ALLOC_* flags */
	bool graphics;        /* hsa_amd_interop_map_buffer's (interop.c) */
	void *metadata;       /* the BO's metadata (graphics; owned) */
	struct kfd_mem *mem;
	void *userdata;
	struct hl_ipc_import *next;
};

/* Whether IPC_EXPORT_HANDLE was answered -ENOTTY: an upstream kernel,
 * never asked again. */
static _Atomic bool no_dkms_ipc;

/* Fills every word but H_PAGES for the whole of mem. */
static int export_bo(struct hl_runtime *rt, struct kfd_mem *mem, hsa_amd_ipc_memory_t *handle)
{
	memset(handle, 0, sizeof(*handle));
	handle->handle[H_GPU] = mem->gpu_id;
	/* The ROCm-DKMS kernel's own handles first, as ROCr 5.2.3 makes
	 * them, so ROCr processes can attach ours and we theirs. */
	if (!hl_load_relaxed(&no_dkms_ipc)) {
		int err = kfd_mem_ipc_export(rt->proc, mem, &handle->handle[0]);
		if (!err) {
			handle->handle[H_APE_TYPE] = HSA_APERTURE_DGPU;
			handle->handle[H_APE_IDX] = 0;
			return 0;
		}
		if (err == -ENOTTY)
			hl_store_relaxed(&no_dkms_ipc, true);
	}
	int fd;
	int err = kfd_mem_export_dmabuf(rt->proc, mem, &fd);
	if (err)
		return err;
	struct stat st;
	if (fstat(fd, &st))
		return -errno;
	handle->handle[H_PID] = (uint32_t)getpid();
	handle->handle[H_FD] = (uint32_t)fd;
	handle->handle[H_INO_LO] = (uint32_t)st.st_ino;
	handle->handle[H_INO_HI] = (uint32_t)((uint64_t)st.st_ino >> 32);
	handle->handle[H_MAGIC] = HL_IPC_MAGIC;
	handle->handle[H_FLAGS] = mem->flags;
	return 0;
}

int hl_ipc_export(struct hl_runtime *rt, struct kfd_mem *mem, uint64_t len,
		  hsa_amd_ipc_memory_t *handle)
{
	if (len != mem->size || len > IPC_MAX_LEN)
		return -EINVAL;
	int err = export_bo(rt, mem, handle);
	if (!err)
		handle->handle[H_PAGES] = (uint32_t)(len / HL_PAGE_SIZE);
	return err;
}

/* A fragment at offset off of block mem: the whole block's handle, its size
 * in pages marked as a fragment with the page offset, as ROCr's IPCCreate
 * (handle[6] |= 0x80000000 | offset; blocks are 2 MiB, so the offset fits
 * the nine bits below the size's). */
static int export_fragment(struct hl_runtime *rt, struct kfd_mem *mem, uint64_t off,
			   hsa_amd_ipc_memory_t *handle)
{
	uint64_t pages = mem->size / HL_PAGE_SIZE, off_pages = off / HL_PAGE_SIZE;
	if (off % HL_PAGE_SIZE || off_pages > IPC_FRAGMENT_MASK || mem->size > IPC_MAX_LEN ||
	    (pages & (IPC_FRAGMENT_BIT | IPC_FRAGMENT_MASK)))
		return -EINVAL;
	int err = export_bo(rt, mem, handle);
	if (!err)
		handle->handle[H_PAGES] = (uint32_t)pages | IPC_FRAGMENT_BIT | (uint32_t)off_pages;
	return err;
}

/* A copy of the fd the handle names, checked to be the same file. */
static int handle_fd(const hsa_amd_ipc_memory_t *h)
{
	pid_t pid = (pid_t)h->handle[H_PID];
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pidfd < 0) {
		int err = -errno;
		hl_error(IPC_LOG, "attach: pidfd_open(%d): %s%s", (int)pid, hl_errno_name(err),
			 err == -ESRCH ? " (the exporting process is gone)" : "");
		return err;
	}
	int fd = (int)syscall(SYS_pidfd_getfd, pidfd, (int)h->handle[H_FD], 0);
	int err = fd < 0 ? -errno : 0;
	close(pidfd);
	if (err) {
		hl_error(IPC_LOG, "attach: pidfd_getfd(pid %d, fd %u): %s%s", (int)pid,
			 h->handle[H_FD], hl_errno_name(err),
			 err == -EBADF ? " (the exporter freed the memory)" :
			 err == -EPERM ? " (not allowed to ptrace the exporter: another user, or "
					 "a ptrace restriction)" : "");
		return err;
	}
	struct stat st;
	uint64_t ino = (uint64_t)h->handle[H_INO_HI] << 32 | h->handle[H_INO_LO];
	if (fstat(fd, &st) || (uint64_t)st.st_ino != ino) {
		hl_error(IPC_LOG, "attach: fd %u of pid %d is no longer the exported buffer (the "
			 "exporter freed it)", h->handle[H_FD], (int)pid);
		close(fd);
		return -EINVAL;
	}
	return fd;
}

int hl_ipc_import(struct hl_runtime *rt, const hsa_amd_ipc_memory_t *handle,
		  const uint32_t *gpu_ids, uint32_t n, uint64_t align, struct kfd_mem **out,
		  uint64_t *offset, uint64_t *len)
{
	uint32_t magic = handle->handle[H_MAGIC];
	if (magic != HL_IPC_MAGIC && (magic < HSA_APERTURE_DGPU || magic > HSA_APERTURE_CPUVM)) {
		hl_error(IPC_LOG, "attach: EINVAL: not an IPC handle (word 4 is %#x)", magic);
		return -EINVAL;
	}
	if (!rt->n_gpus)
		return -ENODEV;
	uint32_t pages = handle->handle[H_PAGES];
	uint64_t frag = 0;
	if (pages & IPC_FRAGMENT_BIT) {
		frag = (uint64_t)(pages & IPC_FRAGMENT_MASK) * HL_PAGE_SIZE;
		pages &= ~(IPC_FRAGMENT_BIT | IPC_FRAGMENT_MASK);
	}
	if (!pages)
		return -EINVAL;
	/* Import on the exporting GPU when we have it (0 lets the thunk
	 * choose so), else on the first GPU it is mapped to. */
	uint32_t gpu = handle->handle[H_GPU];
	bool have = false;
	for (uint32_t i = 0; i < rt->n_gpus; i++)
		have |= rt->gpu_ids[i] == gpu;
	if (!have)
		gpu = gpu_ids && n ? gpu_ids[0] : 0;

	struct kfd_mem *mem;
	int err;
	if (magic != HL_IPC_MAGIC) {
		/* A ROCm-DKMS share handle (ROCr 5.2.3's, or ours on that
		 * kernel). */
		err = kfd_mem_ipc_import(rt->proc, &handle->handle[0], gpu ? gpu : rt->gpu_ids[0],
					 (uint64_t)pages * HL_PAGE_SIZE, align, &mem);
		if (err)
			return -EINVAL;
		goto map;
	}
	int fd = handle_fd(handle);
	if (fd < 0)
		return -EINVAL;
	err = kfd_mem_import_dmabuf(rt->proc, fd, gpu, align, &mem);
	close(fd); /* the import holds the buffer now */
	if (err)
		return -EINVAL;
	/* The exporter's grain, for pointer info. */
	mem->flags |= handle->handle[H_FLAGS] & (KFD_ALLOC_COHERENT | KFD_ALLOC_UNCACHED);
map:
	if (mem->size < (uint64_t)pages * HL_PAGE_SIZE || frag >= mem->size) {
		hl_error(IPC_LOG, "attach: EINVAL: the buffer has %llu bytes, the handle names "
			 "%u pages at page %llu", (unsigned long long)mem->size, pages,
			 (unsigned long long)(frag / HL_PAGE_SIZE));
		kfd_mem_free(rt->proc, mem);
		return -EINVAL;
	}
	err = gpu_ids ? (n ? kfd_mem_map(rt->proc, mem, gpu_ids, n) : 0)
		      : kfd_mem_map(rt->proc, mem, rt->gpu_ids, rt->n_gpus);
	if (err) {
		kfd_mem_free(rt->proc, mem);
		return err;
	}
	*out = mem;
	*offset = frag;
	*len = (uint64_t)pages * HL_PAGE_SIZE - frag;
	return 0;
}

hsa_status_t hsa_amd_ipc_memory_create(void *ptr, size_t len, hsa_amd_ipc_memory_t *handle)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!ptr || !handle || len > IPC_MAX_LEN)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;

	/* The start of a pool allocation or of an attachment, whole, as
	 * ROCr's check of hsa_amd_pointer_info's base and size. */
	int err = -EINVAL;
	pthread_mutex_lock(&rt->mem_lock);
	struct hl_alloc *al = hl_alloc_find_locked(rt, ptr);
	struct kfd_mem *mem = NULL;
	struct hl_pool *frag_pool = NULL; /* set when ptr is a fragment */
	uint64_t frag_off = 0;
	if (al && al->ptr == ptr && al->size == len) {
		mem = al->mem;
		uint64_t base, blen;
		if (al->block) {
			hl_suballoc_block_range(al->block, &base, &blen);
			if (base != (uint64_t)(uintptr_t)ptr || blen != len) {
				frag_pool = al->pool;
				frag_off = (uint64_t)(uintptr_t)ptr - base;
			}
		}
	}
	for (struct hl_ipc_import *im = rt->ipc_imports; !al && im; im = im->next)
		if (!im->fragment && im->ptr == ptr && im->size == len)
			mem = im->mem;
	if (mem)
		err = frag_pool ? export_fragment(rt, mem, frag_off, handle)
				: hl_ipc_export(rt, mem, len, handle);
	pthread_mutex_unlock(&rt->mem_lock);
	/* ROCr's IPCFragmentExport: the block is never carved again and goes
	 * back to the kernel with its last fragment (suballoc.c; its lock is
	 * not taken under mem_lock, so the block is found again by address). */
	if (!err && frag_pool)
		hl_suballoc_discard(rt, frag_pool, ptr);
	if (err) {
		hl_error(IPC_LOG, "hsa_amd_ipc_memory_create(%p, %zu): %s", ptr, len,
			 mem ? hl_errno_name(err) : "not the start and size of an allocation");
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	}
	return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_ipc_memory_attach(const hsa_amd_ipc_memory_t *handle, size_t len,
				       uint32_t num_agents, const hsa_agent_t *mapping_agents,
				       void **mapped_ptr)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!handle || !mapped_ptr || (num_agents && !mapping_agents))
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	uint32_t *ids = calloc(num_agents ? num_agents : 1, sizeof(*ids));
	if (!ids)
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	hsa_status_t status = HSA_STATUS_SUCCESS;
	int count = hl_agent_gpu_ids(rt, mapping_agents, num_agents, ids, NULL);
	if (count < 0) {
		status = HSA_STATUS_ERROR_INVALID_AGENT;
		goto out_free_ids;
	}
	uint32_t n = (uint32_t)count;
	struct hl_ipc_import *im = calloc(1, sizeof(*im));
	if (!im) {
		status = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
		goto out_free_ids;
	}
	/* CPU agents only: the memory is mapped on no GPU (libhsakmt maps
	 * the nodes given, and a CPU node is none). */
	uint64_t offset, size;
	int err = hl_ipc_import(rt, handle, num_agents ? ids : NULL, n, 0, &im->mem, &offset,
				&size);
	if (err) {
		free(im);
		status = err == -EINVAL || err == -ENODEV ? HSA_STATUS_ERROR_INVALID_ARGUMENT
							  : HSA_STATUS_ERROR_OUT_OF_RESOURCES;
		goto out_free_ids;
	}
	/* ROCr marks any sub-allocation, also one at the block's start. */
	im->fragment = offset != 0 || (handle->handle[H_PAGES] & IPC_FRAGMENT_BIT);
	im->ptr = (uint8_t *)im->mem->addr + offset;
	/* ROCr: a fragment is min(len, what the block has past the offset). */
	im->size = im->fragment && len < size ? len : size;
	im->flags = im->mem->flags;
	pthread_mutex_lock(&rt->mem_lock);
	im->next = rt->ipc_imports;
	rt->ipc_imports = im;
	pthread_mutex_unlock(&rt->mem_lock);
	*mapped_ptr = im->ptr;
	hl_debug(IPC_LOG, "attached %llu bytes at %p (pid %u's buffer)",
		 (unsigned long long)im->size, im->ptr, handle->handle[H_PID]);
out_free_ids:
	free(ids);
	return status;
}

int hl_ipc_add_graphics(struct hl_runtime *rt, struct kfd_mem *mem, void *metadata)
{
	struct hl_ipc_import *im = calloc(1, sizeof(*im));
	if (!im)
		return -ENOMEM;
	im->ptr = mem->addr;
	im->size = mem->size;
	im->graphics = true;
	im->metadata = metadata;
	im->mem = mem;
	pthread_mutex_lock(&rt->mem_lock);
	im->next = rt->ipc_imports;
	rt->ipc_imports = im;
	pthread_mutex_unlock(&rt->mem_lock);
	return 0;
}

static void import_free(struct hl_runtime *rt, struct hl_ipc_import *im, int *err)
{
	int e = kfd_mem_free(rt->proc, im->mem);
	if (err)
		*err = e;
	free(im->metadata);
	free(im);
}

int hl_ipc_release(struct hl_runtime *rt, void *mapped_ptr)
{
	pthread_mutex_lock(&rt->mem_lock);
	struct hl_ipc_import *found = NULL;
	for (struct hl_ipc_import **pp = &rt->ipc_imports; *pp; pp = &(*pp)->next)
		if ((*pp)->ptr == mapped_ptr) {
			found = *pp;
			*pp = found->next;
			break;
		}
	pthread_mutex_unlock(&rt->mem_lock);
	if (!found) {
		hl_debug(IPC_LOG, "detach %p: not an attached or interop-mapped pointer",
			 mapped_ptr);
		return -EINVAL;
	}
	int err;
	import_free(rt, found, &err);
	return err;
}

hsa_status_t hsa_amd_ipc_memory_detach(void *mapped_ptr)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!mapped_ptr)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	return hl_ipc_release(rt, mapped_ptr) ? HSA_STATUS_ERROR_INVALID_ARGUMENT
					      : HSA_STATUS_SUCCESS;
}

/* What ROCr 5.2.3 reports (libhsakmt's QueryPointerInfo of an imported
 * BO: type REGISTERED_SHARED = HSA_EXT_POINTER_TYPE_IPC, the GPU address
 * and size of the whole import, no CPU address), except inside an attached
 * fragment, which ROCr reports from its allocation map: CPU and GPU address
 * and size the fragment's (a fragment attached with len 0 is empty there,
 * so ROCr reports the whole import for it). */
bool hl_ipc_info_locked(struct hl_runtime *rt, const void *ptr, hsa_amd_pointer_info_t *out,
			hsa_agent_t *list, uint32_t max, uint32_t *n_list)
{
	uintptr_t a = (uintptr_t)ptr;
	struct hl_ipc_import *im = NULL;
	bool in_fragment = false;
	for (struct hl_ipc_import *i = rt->ipc_imports; i && !in_fragment; i = i->next) {
		uintptr_t base = (uintptr_t)i->mem->addr;
		if (i->fragment && a >= (uintptr_t)i->ptr && a - (uintptr_t)i->ptr < i->size) {
			im = i;
			in_fragment = true;
		} else if (!im && a >= base && a - base < i->mem->size) {
			im = i;
		}
	}
	if (!im)
		return false;
	out->type = im->graphics ? HSA_EXT_POINTER_TYPE_GRAPHICS : HSA_EXT_POINTER_TYPE_IPC;
	out->agentBaseAddress = in_fragment ? im->ptr : im->mem->addr;
	out->hostBaseAddress = in_fragment ? im->ptr : NULL;
	out->sizeInBytes = in_fragment ? im->size : im->mem->size;
	out->userData = im->userdata;
	out->global_flags = (im->flags & KFD_ALLOC_COHERENT)
				    ? HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED
				    : HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED;
	if (im->flags & KFD_ALLOC_UNCACHED)
		out->global_flags |= HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT;
	out->agentOwner.handle = 0;
	for (uint32_t i = 0; i < rt->n_agents; i++) {
		const struct hl_agent *ag = &rt->agents[i];
		if (!ag->gpu)
			continue;
		if (ag->gpu->gpu_id == im->mem->gpu_id)
			out->agentOwner = hl_agent_handle(ag);
		for (uint32_t m = 0; m < im->mem->n_mapped && *n_list < max; m++)
			if (im->mem->mapped_gpus[m] == ag->gpu->gpu_id) {
				list[(*n_list)++] = hl_agent_handle(ag);
				break;
			}
	}
	return true;
}

bool hl_ipc_set_userdata_locked(struct hl_runtime *rt, const void *ptr, void *userdata)
{
	for (struct hl_ipc_import *im = rt->ipc_imports; im; im = im->next)
		if (im->ptr == ptr) {
			im->userdata = userdata;
			return true;
		}
	return false;
}

void hl_ipc_release_all(struct hl_runtime *rt)
{
	pthread_mutex_lock(&rt->mem_lock);
	struct hl_ipc_import *im = rt->ipc_imports;
	rt->ipc_imports = NULL;
	pthread_mutex_unlock(&rt->mem_lock);
	while (im) {
		struct hl_ipc_import *next = im->next;
		import_free(rt, im, NULL);
		im = next;
	}
}

void hl_ipc_forget_all(struct hl_runtime *rt)
{
	struct hl_ipc_import *im = rt->ipc_imports;
	rt->ipc_imports = NULL;
	while (im) {
		struct hl_ipc_import *next = im->next;
		free(im->metadata);
		free(im);
		im = next;
	}
}
