/*
 * GPU memory: buffer objects the kernel allocates (VRAM, GTT), host pages it
 * pins for the GPU (USERPTR), and their CPU and GPU mappings.
 *
 * Address model (libhsakmt's "mmap aperture" on gfx9+): the kernel never
 * picks a GPU VA, so we reserve one ourselves with an anonymous PROT_NONE
 * MAP_NORESERVE mmap, aligned to the next power of two of the size up to
 * 2 MiB (or the caller's alignment), with a guard page on each side.  The
 * CPU mapping is then put at exactly that address with MAP_FIXED, so CPU VA
 * == GPU VA:
 *   VRAM/GTT  mmap(va, size, RW, MAP_SHARED|MAP_FIXED, render fd, mmap_offset)
 *             (VRAM without host_access keeps the PROT_NONE reservation)
 *   USERPTR   anonymous shared RW pages at va, registered with va_addr =
 *             mmap_offset = va (the kernel pins them through the mmu
 *             notifier).
 * Caller-owned pages are registered the same way at their own address
 * (kfd_mem_register), or as an alias (kfd_mem_register_alias): va_addr a
 * reservation of ours, mmap_offset the caller's pages, which is how
 * libhsakmt registers every user range.  The kernel lets several USERPTR
 * BOs pin the same pages; only GPU VAs must not overlap (amdgpu_vm_bo_map
 * answers -EINVAL at MAP), so kfd_mem_register refuses a range that
 * overlaps another BO's VA with -EEXIST before asking.
 * Fork.  What a child inherits follows ROCr 7's libhsakmt (rocm-systems PR
 * #356: Megatron-LM and NCCL pin host memory, then fork workers that read
 * it) and the kernel's mmap flags:
 *  - USERPTR host memory (system pools, signal slabs, queue rings) is
 *    MAP_SHARED | MAP_ANONYMOUS with no MADV_DONTFORK, as libhsakmt's
 *    fmm_allocate_host_gpu: the child keeps the pages as ordinary CPU
 *    memory shared with the parent, and since a shared mapping is not made
 *    copy-on-write at fork, the parent's GPU mappings see no mmu-notifier
 *    invalidation (no eviction of its queues).  A fork child's release of
 *    the inherited records leaves them mapped (kfd_mem_release_all), as
 *    libhsakmt's fmm_clear_all_mem does on the mmap aperture.
 *  - Caller-registered pages are the caller's mapping: nothing is advised.
 *  - VRAM and GTT mapped through the render node get MADV_DONTFORK, as
 *    libhsakmt's fmm_map_to_cpu does: the kernel's TTM mapping has no
 *    VM_DONTCOPY, and a child's copy would hold a BO reference that keeps
 *    the parent's freed memory allocated.
 *  - Doorbells are not advised: the kernel's kfd_doorbell_mmap sets
 *    VM_DONTCOPY itself.
 *
 * Every allocation is on the process list (mem_lock) for kfd_mem_find and
 * for close.  mapped_gpus is updated under mem_lock from what the kernel
 * reports in n_success, so a partly failed MAP leaves the bookkeeping true.
 * The ioctls run without the lock; one kfd_mem must not be mapped, unmapped
 * or freed from two threads at once (the runtime owns each allocation).
 */
#include "kfd/kfd_priv.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util/barrier.h"
#include "util/log.h"

#define GUARD_SIZE KFD_PAGE_SIZE
/* Larger than any GPUVM range: rejects sizes that would overflow below. */
#define MAX_ALLOC_SIZE (1ull << 47)

static const char *kind_name(enum kfd_mem_kind kind)
{
	switch (kind) {
	case KFD_MEM_VRAM: return "VRAM";
	case KFD_MEM_GTT: return "GTT";
	case KFD_MEM_USERPTR: return "USERPTR";
	case KFD_MEM_DOORBELL: return "DOORBELL";
	case KFD_MEM_MMIO: return "MMIO_REMAP";
	}
	return "?";
}

void *kfd_va_reserve(uint64_t size, uint64_t align, void **base, size_t *base_size)
{
	size_t len = size + align + 2 * GUARD_SIZE;
	void *p = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return NULL;

	uintptr_t start = (uintptr_t)p;
	uintptr_t addr = KFD_ALIGN_UP(start + GUARD_SIZE, (uintptr_t)align);
	uintptr_t keep_start = addr - GUARD_SIZE;
	uintptr_t keep_end = addr + size + GUARD_SIZE;

	/* Trim to [guard][block][guard]; munmap of our own range cannot fail. */
	if (keep_start > start)
		munmap(p, keep_start - start);
	if (start + len > keep_end)
		munmap((void *)keep_end, start + len - keep_end);
	*base = (void *)keep_start;
	*base_size = size + 2 * GUARD_SIZE;
	return (void *)addr;
}

/* The handle space: libhsakmt's mem_handle_aperture, non-canonical
 * addresses from 1 << 47 that no CPU pointer and no GPUVM range can hold.
 * A BO allocated there is named by its VA and never mapped; each gets
 * fresh addresses (a guard page apart), never reused in this process. */
#define HANDLE_SPACE_BASE (1ull << 47)
static _Atomic uint64_t handle_space_next = HANDLE_SPACE_BASE;

void *kfd_handle_va(uint64_t size)
{
	uint64_t span = KFD_ALIGN_UP(size, KFD_PAGE_SIZE) + GUARD_SIZE;
	/* relaxed: only uniqueness matters, nothing is published with it */
	return (void *)(uintptr_t)atomic_fetch_add_explicit(&handle_space_next, span,
							     memory_order_relaxed);
}

int kfd_va_range_reserve(struct kfd_process *proc, uint64_t hint, uint64_t size, uint64_t align,
			 void **addr)
{
	if (size == 0 || size > MAX_ALLOC_SIZE || align < KFD_PAGE_SIZE ||
	    (align & (align - 1)) || align > MAX_ALLOC_SIZE)
		return -EINVAL;
	size = KFD_ALIGN_UP(size, KFD_PAGE_SIZE);
	if (hint && !(hint & (align - 1)) && kfd_in_gpuvm(proc, (uintptr_t)hint, size)) {
		/* MAP_FIXED_NOREPLACE: EEXIST when anything is mapped there. */
		void *p = mmap((void *)(uintptr_t)hint, size, PROT_NONE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE,
			       -1, 0);
		if (p == (void *)(uintptr_t)hint) {
			*addr = p;
			return 0;
		}
		/* Kernels before 4.17 treat the flag as a hint only. */
		if (p != MAP_FAILED)
			munmap(p, size);
		hl_debug(KFD_LOG, "reserve 0x%llx+%llu: taken, reserving elsewhere",
			 (unsigned long long)hint, (unsigned long long)size);
	}
	size_t len = size + align;
	void *p = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return -ENOMEM;
	uintptr_t start = (uintptr_t)p, a = KFD_ALIGN_UP(start, (uintptr_t)align);
	if (a > start)
		munmap(p, a - start);
	if (start + len > a + size)
		munmap((void *)(a + size), start + len - (a + size));
	if (!kfd_in_gpuvm(proc, a, size)) {
		munmap((void *)a, size);
		hl_error(KFD_LOG, "reserve %llu bytes: ENOMEM: %p is outside a GPU's GPUVM aperture",
			 (unsigned long long)size, (void *)a);
		return -ENOMEM;
	}
	*addr = (void *)a;
	return 0;
}

void kfd_va_range_release(void *addr, uint64_t size)
{
	/* munmap of a range we reserved cannot fail */
	munmap(addr, KFD_ALIGN_UP(size, KFD_PAGE_SIZE));
}

void kfd_va_release(struct kfd_mem *mem)
{
	if (mem->reservation)
		munmap(mem->reservation, mem->reservation_size);
	mem->reservation = NULL;
}

struct kfd_mem *kfd_mem_new(struct kfd_process *proc)
{
	struct kfd_mem *mem = calloc(1, sizeof(*mem));
	if (!mem)
		return NULL;
	mem->mapped_gpus = calloc(proc->n_gpus ? proc->n_gpus : 1, sizeof(uint32_t));
	if (!mem->mapped_gpus) {
		free(mem);
		return NULL;
	}
	return mem;
}

void kfd_mem_delete(struct kfd_mem *mem)
{
	/* Our dma-buf fd of it (kfd_mem_export_dmabuf): the exported file
	 * lives on in every process that imported it or holds an fd. */
	if (mem->has_dmabuf_fd)
		close(mem->dmabuf_fd);
	free(mem->mapped_gpus);
	free(mem);
}

void kfd_mem_track(struct kfd_process *proc, struct kfd_mem *mem)
{
	struct kfd_process_private *priv = proc->priv;
	pthread_mutex_lock(&priv->mem_lock);
	mem->next = priv->mem_list;
	priv->mem_list = mem;
	pthread_mutex_unlock(&priv->mem_lock);
}

/* Caller holds mem_lock. */
static bool mem_is_tracked(struct kfd_process *proc, const struct kfd_mem *mem)
{
	for (struct kfd_mem *m = proc->priv->mem_list; m; m = m->next)
		if (m == mem)
			return true;
	return false;
}

void kfd_mem_untrack(struct kfd_process *proc, struct kfd_mem *mem)
{
	struct kfd_process_private *priv = proc->priv;
	pthread_mutex_lock(&priv->mem_lock);
	for (struct kfd_mem **pp = &priv->mem_list; *pp; pp = &(*pp)->next) {
		if (*pp == mem) {
			*pp = mem->next;
			break;
		}
	}
	pthread_mutex_unlock(&priv->mem_lock);
	mem->next = NULL;
}

/* Resolves gpu_id 0 (any GPU) to the first GPU for system memory. */
static struct kfd_gpu *alloc_gpu(struct kfd_process *proc, enum kfd_mem_kind kind,
				 uint32_t gpu_id)
{
	if (gpu_id == 0 && kind != KFD_MEM_VRAM && proc->n_gpus)
		return &proc->gpus[0];
	return kfd_process_gpu_by_id(proc, gpu_id);
}

bool kfd_in_gpuvm(const struct kfd_process *proc, uintptr_t addr, uint64_t size)
{
	for (uint32_t i = 0; i < proc->n_gpus; i++) {
		const struct kfd_process_device_apertures *ap = &proc->gpus[i].apertures;
		if (addr < ap->gpuvm_base || addr + size - 1 > ap->gpuvm_limit)
			return false;
	}
	return true;
}

/* ALLOC_MEMORY_OF_GPU, logging the kernel's answer with what we asked. */
static int alloc_bo(struct kfd_process *proc, struct kfd_mem *mem, uint64_t mmap_offset_in,
		    uint64_t *mmap_offset_out)
{
	struct kfd_args_alloc_memory_of_gpu args = {
		.va_addr = (uintptr_t)mem->addr,
		.size = mem->size,
		.mmap_offset = mmap_offset_in,
		.gpu_id = mem->gpu_id,
		.flags = mem->flags,
	};
	int ret = kfd_ioctl(proc->fd, KFD_IOCTL_ALLOC_MEMORY_OF_GPU, &args);
	if (ret) {
		hl_error(KFD_LOG, "ALLOC_MEMORY_OF_GPU: %s: %s %llu bytes at %p on GPU 0x%x, "
			 "flags 0x%x%s", hl_errno_name(ret), kind_name(mem->kind),
			 (unsigned long long)mem->size, mem->addr, mem->gpu_id, mem->flags,
			 ret == -ENOMEM ? " (out of memory for this kind)" :
			 ret == -ENODEV ? " (no VM acquired for this GPU)" : "");
		return ret;
	}
	mem->handle = args.handle;
	if (mmap_offset_out)
		*mmap_offset_out = args.mmap_offset;
	return 0;
}

int kfd_free_bo(struct kfd_process *proc, struct kfd_mem *mem)
{
	if (hl_load_relaxed(&proc->leave_to_exit)) {
		/* the kernel frees it when the process ends; its range stays
		 * reserved until then (kfd_va_release does nothing now) */
		mem->reservation = NULL;
		return 0;
	}
	struct kfd_args_free_memory_of_gpu args = { .handle = mem->handle };
	int ret = kfd_ioctl(proc->fd, KFD_IOCTL_FREE_MEMORY_OF_GPU, &args);
	if (ret)
		hl_error(KFD_LOG, "FREE_MEMORY_OF_GPU: %s: %s handle 0x%llx at %p%s",
			 hl_errno_name(ret), kind_name(mem->kind),
			 (unsigned long long)mem->handle, mem->addr,
			 ret == -EBUSY ? " (still mapped on a GPU)" :
			 ret == -EPERM ? " (it is the event page)" : "");
	return ret;
}

static int check_alloc_args(struct kfd_process *proc, const struct kfd_mem_alloc_args *a,
			    struct kfd_gpu **gpu)
{
	if (a->kind != KFD_MEM_VRAM && a->kind != KFD_MEM_GTT && a->kind != KFD_MEM_USERPTR) {
		hl_error(KFD_LOG, "ALLOC_MEMORY_OF_GPU: EINVAL: kind %d cannot be allocated "
			 "(doorbells come from kfd_doorbell_map)", (int)a->kind);
		return -EINVAL;
	}
	if (a->size == 0 || a->size > MAX_ALLOC_SIZE) {
		hl_error(KFD_LOG, "ALLOC_MEMORY_OF_GPU: EINVAL: size %llu is 0 or too large",
			 (unsigned long long)a->size);
		return -EINVAL;
	}
	if (a->align && (a->align < KFD_PAGE_SIZE || (a->align & (a->align - 1)) ||
			 a->align > MAX_ALLOC_SIZE)) {
		hl_error(KFD_LOG, "ALLOC_MEMORY_OF_GPU: EINVAL: alignment 0x%llx is not a power "
			 "of two >= 4096", (unsigned long long)a->align);
		return -EINVAL;
	}
	if (a->extra_flags & KFD_ALLOC_TYPE_MASK) {
		hl_error(KFD_LOG, "ALLOC_MEMORY_OF_GPU: EINVAL: extra flags 0x%x hold type bits",
			 a->extra_flags);
		return -EINVAL;
	}
	if (a->extra_flags & KFD_ALLOC_AQL_QUEUE_MEM) {
		/* The kernel would back only half the size and map it twice (the
		 * gfx7/8 ring wrap workaround); our VA layout does not do that. */
		hl_error(KFD_LOG, "ALLOC_MEMORY_OF_GPU: EINVAL: AQL_QUEUE_MEM is not supported "
			 "(gfx9+ rings need no double mapping)");
		return -EINVAL;
	}
	*gpu = alloc_gpu(proc, a->kind, a->gpu_id);
	if (!*gpu) {
		hl_error(KFD_LOG, "ALLOC_MEMORY_OF_GPU: EINVAL: unknown GPU 0x%x", a->gpu_id);
		return -EINVAL;
	}
	return 0;
}

uint64_t kfd_auto_align(uint64_t size)
{
	uint64_t align = KFD_PAGE_SIZE;
	while (align < size && align < KFD_MAX_AUTO_ALIGN)
		align <<= 1;
	return align;
}

int kfd_mem_alloc(struct kfd_process *proc, const struct kfd_mem_alloc_args *args,
		  struct kfd_mem **out)
{
	struct kfd_gpu *gpu;
	struct kfd_mem *mem;
	uint64_t mmap_offset = 0;
	int ret;

	*out = NULL;
	ret = check_alloc_args(proc, args, &gpu);
	if (ret)
		return ret;
	mem = kfd_mem_new(proc);
	if (!mem)
		return -ENOMEM;
	mem->kind = args->kind;
	mem->gpu_id = gpu->gpu_id;
	mem->size = KFD_ALIGN_UP(args->size, KFD_PAGE_SIZE);
	mem->host_access = args->kind != KFD_MEM_VRAM || args->host_access;

	uint64_t align = args->align ? args->align : kfd_auto_align(mem->size);
	if (args->no_address) {
		if (args->kind != KFD_MEM_VRAM) {
			/* libhsakmt takes NoAddress for device memory only */
			hl_error(KFD_LOG, "ALLOC_MEMORY_OF_GPU: EINVAL: a %s BO cannot be "
				 "allocated without an address", kind_name(args->kind));
			ret = -EINVAL;
			goto err_delete;
		}
		mem->addr = kfd_handle_va(mem->size);
		mem->no_address = true;
		mem->host_access = false;
	} else {
		mem->addr = kfd_va_reserve(mem->size, align, &mem->reservation,
					   &mem->reservation_size);
	}
	if (!mem->addr) {
		ret = -errno;
		hl_error(KFD_LOG, "ALLOC_MEMORY_OF_GPU: %s: cannot reserve %llu bytes of address "
			 "space", hl_errno_name(ret), (unsigned long long)mem->size);
		goto err_delete;
	}
	if (!mem->no_address && !kfd_in_gpuvm(proc, (uintptr_t)mem->addr, mem->size)) {
		ret = -ENOMEM;
		hl_error(KFD_LOG, "ALLOC_MEMORY_OF_GPU: ENOMEM: address %p+%llu is outside a "
			 "GPU's GPUVM aperture", mem->addr, (unsigned long long)mem->size);
		goto err_release_va;
	}

	/* libhsakmt's conventions: always NO_SUBSTITUTE and EXECUTABLE,
	 * WRITABLE unless read-only, PUBLIC for CPU-visible VRAM. */
	mem->flags = KFD_ALLOC_NO_SUBSTITUTE | KFD_ALLOC_EXECUTABLE | args->extra_flags;
	if (!args->readonly)
		mem->flags |= KFD_ALLOC_WRITABLE;
	switch (args->kind) {
	case KFD_MEM_VRAM:
		mem->flags |= KFD_ALLOC_VRAM | (args->host_access ? KFD_ALLOC_PUBLIC : 0);
		break;
	case KFD_MEM_GTT:
		mem->flags |= KFD_ALLOC_GTT;
		break;
	default:
		mem->flags |= KFD_ALLOC_USERPTR;
		break;
	}

	if (args->kind == KFD_MEM_USERPTR) {
		/* The pages must exist before the kernel looks them up. */
		/* Shared, not private: inherited by a fork child without
		 * copy-on-write (see the head of this file). */
		void *p = mmap(mem->addr, mem->size, PROT_READ | PROT_WRITE,
			       MAP_SHARED | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
		if (p == MAP_FAILED) {
			ret = -errno;
			hl_error(KFD_LOG, "ALLOC_MEMORY_OF_GPU: %s: cannot back USERPTR memory at "
				 "%p", hl_errno_name(ret), mem->addr);
			goto err_release_va;
		}
		mmap_offset = (uintptr_t)mem->addr;
		mem->user_addr = mem->addr;
	}
	ret = alloc_bo(proc, mem, mmap_offset, &mmap_offset);
	if (ret)
		goto err_release_va;

	if (args->kind != KFD_MEM_USERPTR && mem->host_access) {
		void *p = mmap(mem->addr, mem->size, PROT_READ | PROT_WRITE,
			       MAP_SHARED | MAP_FIXED, gpu->render_fd, (off_t)mmap_offset);
		if (p == MAP_FAILED) {
			ret = -errno;
			hl_error(KFD_LOG, "mmap %s: %s: render fd %d offset 0x%llx at %p, %llu bytes",
				 kind_name(mem->kind), hl_errno_name(ret), gpu->render_fd,
				 (unsigned long long)mmap_offset, mem->addr,
				 (unsigned long long)mem->size);
			goto err_free_bo;
		}
	}
	/* BO mappings only: USERPTR host memory stays a fork child's. */
	if (args->kind != KFD_MEM_USERPTR && mem->host_access &&
	    madvise(mem->addr, mem->size, MADV_DONTFORK))
		hl_warn(KFD_LOG, "madvise(DONTFORK) %p: %s: a fork child will keep a reference to "
			"the BO", mem->addr, hl_errno_name(-errno));

	kfd_mem_track(proc, mem);
	hl_debug(KFD_LOG, "alloc %s %llu bytes at %p handle 0x%llx flags 0x%x",
		 kind_name(mem->kind), (unsigned long long)mem->size, mem->addr,
		 (unsigned long long)mem->handle, mem->flags);
	*out = mem;
	return 0;

err_free_bo:
	kfd_free_bo(proc, mem);
err_release_va:
	kfd_va_release(mem);
err_delete:
	kfd_mem_delete(mem);
	return ret;
}

/* Registers [addr, addr+size) page-rounded: at its own VA (GPU VA == CPU
 * VA) or, for an alias, at a VA reserved for it. */
static int register_user(struct kfd_process *proc, void *addr, uint64_t size, uint32_t gpu_id,
			 uint32_t extra_flags, bool alias, struct kfd_mem **out)
{
	const char *what = alias ? "register (alias)" : "register";
	struct kfd_gpu *gpu;
	struct kfd_mem *mem;
	int ret;

	*out = NULL;
	if (!addr || size == 0 || size > MAX_ALLOC_SIZE) {
		hl_error(KFD_LOG, "%s: EINVAL: %p+%llu is not a memory range", what, addr,
			 (unsigned long long)size);
		return -EINVAL;
	}
	if (extra_flags & KFD_ALLOC_TYPE_MASK) {
		hl_error(KFD_LOG, "%s: EINVAL: extra flags 0x%x hold type bits", what, extra_flags);
		return -EINVAL;
	}
	gpu = alloc_gpu(proc, KFD_MEM_USERPTR, gpu_id);
	if (!gpu) {
		hl_error(KFD_LOG, "%s: EINVAL: unknown GPU 0x%x", what, gpu_id);
		return -EINVAL;
	}
	uintptr_t start = (uintptr_t)addr & ~(uintptr_t)(KFD_PAGE_SIZE - 1);
	uintptr_t end = KFD_ALIGN_UP((uintptr_t)addr + size, (uintptr_t)KFD_PAGE_SIZE);

	if (!alias) {
		/* One GPU VA maps one BO: MAP would fail with EINVAL later. */
		struct kfd_mem *m = kfd_mem_first_in(proc, start, end);
		if (m) {
			hl_error(KFD_LOG, "register: EEXIST: %p+%llu overlaps the %s allocation at "
				 "%p", addr, (unsigned long long)size, kind_name(m->kind), m->addr);
			return -EEXIST;
		}
	}

	mem = kfd_mem_new(proc);
	if (!mem)
		return -ENOMEM;
	mem->kind = KFD_MEM_USERPTR;
	mem->gpu_id = gpu->gpu_id;
	mem->size = end - start;
	mem->user_addr = (void *)start;
	mem->external = true;
	mem->flags = KFD_ALLOC_USERPTR | KFD_ALLOC_NO_SUBSTITUTE | KFD_ALLOC_EXECUTABLE |
		     KFD_ALLOC_WRITABLE | extra_flags;
	if (alias) {
		/* The CPU keeps the reservation PROT_NONE: it reaches the
		 * pages at user_addr, as with libhsakmt's SVM aperture. */
		mem->addr = kfd_va_reserve(mem->size, KFD_PAGE_SIZE, &mem->reservation,
					   &mem->reservation_size);
		if (!mem->addr) {
			ret = -errno;
			hl_error(KFD_LOG, "%s: %s: cannot reserve %llu bytes of address space",
				 what, hl_errno_name(ret), (unsigned long long)mem->size);
			goto err_delete;
		}
		if (!kfd_in_gpuvm(proc, (uintptr_t)mem->addr, mem->size)) {
			ret = -ENOMEM;
			hl_error(KFD_LOG, "%s: ENOMEM: address %p+%llu is outside a GPU's GPUVM "
				 "aperture", what, mem->addr, (unsigned long long)mem->size);
			goto err_release_va;
		}
	} else {
		mem->addr = (void *)start;
		mem->host_access = true;
	}
	ret = alloc_bo(proc, mem, start, NULL);
	if (ret)
		goto err_release_va;
	kfd_mem_track(proc, mem);
	hl_debug(KFD_LOG, "%s %p+%llu: USERPTR %llu bytes at GPU VA %p handle 0x%llx", what,
		 addr, (unsigned long long)size, (unsigned long long)mem->size, mem->addr,
		 (unsigned long long)mem->handle);
	*out = mem;
	return 0;

err_release_va:
	kfd_va_release(mem);
err_delete:
	kfd_mem_delete(mem);
	return ret;
}

int kfd_mem_register(struct kfd_process *proc, void *addr, uint64_t size, uint32_t gpu_id,
		     struct kfd_mem **out)
{
	return register_user(proc, addr, size, gpu_id, 0, false, out);
}

int kfd_mem_register_flags(struct kfd_process *proc, void *addr, uint64_t size,
			   uint32_t gpu_id, uint32_t extra_flags, struct kfd_mem **out)
{
	return register_user(proc, addr, size, gpu_id, extra_flags, false, out);
}

int kfd_mem_register_alias(struct kfd_process *proc, void *addr, uint64_t size,
			   uint32_t gpu_id, uint32_t extra_flags, struct kfd_mem **out)
{
	return register_user(proc, addr, size, gpu_id, extra_flags, true, out);
}

static bool mem_mapped_on(const struct kfd_mem *mem, uint32_t gpu_id)
{
	for (uint32_t i = 0; i < mem->n_mapped; i++)
		if (mem->mapped_gpus[i] == gpu_id)
			return true;
	return false;
}

/* MAP or UNMAP on the listed GPUs that need it. */
static int mem_map_common(struct kfd_process *proc, struct kfd_mem *mem,
			  const uint32_t *gpu_ids, uint32_t n, bool map)
{
	const char *op = map ? "MAP_MEMORY_TO_GPU" : "UNMAP_MEMORY_FROM_GPU";
	struct kfd_process_private *priv = proc->priv;
	uint32_t *todo, n_todo = 0;
	int ret = 0;

	if (!mem || (n && !gpu_ids)) {
		hl_error(KFD_LOG, "%s: EINVAL: no memory or no GPU list", op);
		return -EINVAL;
	}
	if (map && mem->no_address) {
		hl_error(KFD_LOG, "%s: EINVAL: %p is a BO without an address (a handle): import "
			 "its dma-buf where it is to be mapped", op, mem->addr);
		return -EINVAL;
	}
	todo = calloc(n ? n : 1, sizeof(*todo));
	if (!todo)
		return -ENOMEM;

	pthread_mutex_lock(&priv->mem_lock);
	if (!mem_is_tracked(proc, mem)) {
		pthread_mutex_unlock(&priv->mem_lock);
		hl_error(KFD_LOG, "%s: EINVAL: %p is not an allocation of this process", op,
			 (void *)mem);
		ret = -EINVAL;
		goto out_free;
	}
	for (uint32_t i = 0; i < n; i++) {
		if (kfd_gpu_index(proc, gpu_ids[i]) < 0) {
			pthread_mutex_unlock(&priv->mem_lock);
			hl_error(KFD_LOG, "%s: EINVAL: unknown GPU 0x%x", op, gpu_ids[i]);
			ret = -EINVAL;
			goto out_free;
		}
		bool listed = false;
		for (uint32_t j = 0; j < n_todo; j++)
			listed |= todo[j] == gpu_ids[i];
		if (!listed && mem_mapped_on(mem, gpu_ids[i]) != map)
			todo[n_todo++] = gpu_ids[i];
	}
	pthread_mutex_unlock(&priv->mem_lock);
	if (!n_todo)
		goto out_free;

	/* Same layout for MAP and UNMAP; n_success lets kfd_ioctl's retry
	 * resume after the devices the kernel already handled. */
	struct kfd_args_map_memory_to_gpu args = {
		.handle = mem->handle,
		.device_ids_array_ptr = (uintptr_t)todo,
		.n_devices = n_todo,
		.n_success = 0,
	};
	ret = kfd_ioctl(proc->fd, map ? KFD_IOCTL_MAP_MEMORY_TO_GPU
				      : KFD_IOCTL_UNMAP_MEMORY_FROM_GPU, &args);
	uint32_t done = ret ? (args.n_success < n_todo ? args.n_success : n_todo) : n_todo;
	if (ret)
		hl_error(KFD_LOG, "%s: %s: %s handle 0x%llx at %p, %llu bytes: %u of %u GPUs done "
			 "(first failing GPU 0x%x)", op, hl_errno_name(ret), kind_name(mem->kind),
			 (unsigned long long)mem->handle, mem->addr,
			 (unsigned long long)mem->size, done, n_todo, todo[done < n_todo ? done : 0]);

	pthread_mutex_lock(&priv->mem_lock);
	for (uint32_t i = 0; i < done; i++) {
		if (map) {
			/* Each known GPU at most once, so n_gpus slots suffice
			 * unless two threads map one buffer (not allowed). */
			if (!mem_mapped_on(mem, todo[i]) && mem->n_mapped < proc->n_gpus)
				mem->mapped_gpus[mem->n_mapped++] = todo[i];
			continue;
		}
		for (uint32_t j = 0; j < mem->n_mapped; j++) {
			if (mem->mapped_gpus[j] == todo[i]) {
				mem->mapped_gpus[j] = mem->mapped_gpus[--mem->n_mapped];
				break;
			}
		}
	}
	pthread_mutex_unlock(&priv->mem_lock);
out_free:
	free(todo);
	return ret;
}

int kfd_mem_map(struct kfd_process *proc, struct kfd_mem *mem, const uint32_t *gpu_ids,
		uint32_t n)
{
	return mem_map_common(proc, mem, gpu_ids, n, true);
}

int kfd_mem_unmap(struct kfd_process *proc, struct kfd_mem *mem, const uint32_t *gpu_ids,
		  uint32_t n)
{
	return mem_map_common(proc, mem, gpu_ids, n, false);
}

/* Unmaps mem from every GPU it is mapped on. */
static int mem_unmap_all(struct kfd_process *proc, struct kfd_mem *mem)
{
	uint32_t ids[mem->n_mapped ? mem->n_mapped : 1];
	uint32_t n;

	pthread_mutex_lock(&proc->priv->mem_lock);
	if (hl_load_relaxed(&proc->leave_to_exit)) {
		/* left to the kernel with the BO (kfd_process_leave_to_exit) */
		mem->n_mapped = 0;
		pthread_mutex_unlock(&proc->priv->mem_lock);
		return 0;
	}
	n = mem->n_mapped;
	memcpy(ids, mem->mapped_gpus, n * sizeof(ids[0]));
	pthread_mutex_unlock(&proc->priv->mem_lock);
	return n ? mem_map_common(proc, mem, ids, n, false) : 0;
}

int kfd_mem_free(struct kfd_process *proc, struct kfd_mem *mem)
{
	struct kfd_process_private *priv = proc->priv;

	if (!mem)
		return 0;
	/* The kernel answers EPERM to FREE of the event page; say so before
	 * unmapping it from the GPUs that write its slots. */
	pthread_mutex_lock(&priv->event_lock);
	bool event_page = mem == priv->event_page && priv->event_page_registered;
	pthread_mutex_unlock(&priv->event_lock);
	if (event_page) {
		hl_error(KFD_LOG, "FREE_MEMORY_OF_GPU: EPERM: %p is the event page, which lives "
			 "until the process closes", mem->addr);
		return -EPERM;
	}
	return kfd_mem_destroy(proc, mem);
}

int kfd_mem_destroy(struct kfd_process *proc, struct kfd_mem *mem)
{
	int ret;

	pthread_mutex_lock(&proc->priv->mem_lock);
	bool tracked = mem_is_tracked(proc, mem);
	pthread_mutex_unlock(&proc->priv->mem_lock);
	if (!tracked) {
		hl_error(KFD_LOG, "FREE_MEMORY_OF_GPU: EINVAL: %p is not an allocation of this "
			 "process", (void *)mem);
		return -EINVAL;
	}

	/* The kernel refuses to free a BO that is still mapped (EBUSY). */
	uint32_t was_mapped[mem->n_mapped ? mem->n_mapped : 1];
	uint32_t n_was_mapped = mem->n_mapped;
	memcpy(was_mapped, mem->mapped_gpus, n_was_mapped * sizeof(was_mapped[0]));
	ret = mem_unmap_all(proc, mem);
	if (ret)
		return ret;
	ret = kfd_free_bo(proc, mem);
	if (ret) {
		/* Still allocated and listed: put the GPU mappings back so the
		 * failed call changed nothing. */
		if (n_was_mapped && mem_map_common(proc, mem, was_mapped, n_was_mapped, true))
			hl_warn(KFD_LOG, "%p: could not restore its GPU mappings after the failed "
				"FREE", mem->addr);
		return ret;
	}
	kfd_mem_untrack(proc, mem);
	kfd_va_release(mem);
	kfd_mem_delete(mem);
	return 0;
}

bool kfd_mem_lookup(struct kfd_process *proc, const void *addr, uint32_t gpu_id,
		    uintptr_t *start, uint64_t *size, bool *mapped)
{
	struct kfd_process_private *priv = proc->priv;
	uintptr_t a = (uintptr_t)addr;
	bool found = false;

	pthread_mutex_lock(&priv->mem_lock);
	for (struct kfd_mem *m = priv->mem_list; m; m = m->next) {
		if (a >= (uintptr_t)m->addr && a - (uintptr_t)m->addr < m->size) {
			*start = (uintptr_t)m->addr;
			*size = m->size;
			*mapped = mem_mapped_on(m, gpu_id);
			found = true;
			break;
		}
	}
	pthread_mutex_unlock(&priv->mem_lock);
	return found;
}

struct kfd_mem *kfd_mem_find(struct kfd_process *proc, const void *addr)
{
	struct kfd_process_private *priv = proc->priv;
	struct kfd_mem *found = NULL;
	uintptr_t a = (uintptr_t)addr;

	pthread_mutex_lock(&priv->mem_lock);
	for (struct kfd_mem *m = priv->mem_list; m; m = m->next) {
		if (a >= (uintptr_t)m->addr && a - (uintptr_t)m->addr < m->size) {
			found = m;
			break;
		}
	}
	pthread_mutex_unlock(&priv->mem_lock);
	return found;
}

struct kfd_mem *kfd_mem_first_in(struct kfd_process *proc, uintptr_t start, uintptr_t end)
{
	struct kfd_process_private *priv = proc->priv;
	struct kfd_mem *found = NULL;

	pthread_mutex_lock(&priv->mem_lock);
	for (struct kfd_mem *m = priv->mem_list; m; m = m->next) {
		uintptr_t a = (uintptr_t)m->addr;
		if (a < end && start < a + m->size && (!found || a < (uintptr_t)found->addr))
			found = m;
	}
	pthread_mutex_unlock(&priv->mem_lock);
	return found;
}

/* A page of the kfd fd behind a BO (doorbell slice, MMIO-remap page):
 * ALLOC at a VA we reserve, then mmap of the kfd fd at the offset the
 * caller knows (mmap_offset, doorbells) or the one ALLOC returns (MMIO). */
static struct kfd_mem *new_tracked_kfd_page(struct kfd_process *proc, struct kfd_gpu *gpu,
					    enum kfd_mem_kind kind, uint32_t type_flag,
					    uint64_t size, uint64_t mmap_offset, int *err)
{
	struct kfd_mem *mem = kfd_mem_new(proc);
	int ret;

	if (!mem) {
		*err = -ENOMEM;
		return NULL;
	}
	mem->kind = kind;
	mem->gpu_id = gpu->gpu_id;
	mem->size = size;
	mem->host_access = true;
	/* libhsakmt map_doorbell_dgpu and map_mmio: DOORBELL or MMIO_REMAP,
	 * WRITABLE|COHERENT|NO_SUBSTITUTE. */
	mem->flags = type_flag | KFD_ALLOC_WRITABLE | KFD_ALLOC_COHERENT | KFD_ALLOC_NO_SUBSTITUTE;
	mem->addr = kfd_va_reserve(mem->size, mem->size, &mem->reservation,
				   &mem->reservation_size);
	if (!mem->addr) {
		ret = -errno;
		hl_error(KFD_LOG, "%s: %s: cannot reserve address space", kind_name(kind),
			 hl_errno_name(ret));
		goto err_delete;
	}
	uint64_t returned = 0;
	ret = alloc_bo(proc, mem, 0, &returned);
	if (ret)
		goto err_release_va;
	if (kind == KFD_MEM_MMIO)
		mmap_offset = returned;
	/* The kernel insists on exactly the page's length (one doorbell
	 * slice, one 4 KiB MMIO page). */
	void *p = mmap(mem->addr, mem->size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
		       proc->fd, (off_t)mmap_offset);
	if (p == MAP_FAILED) {
		ret = -errno;
		hl_error(KFD_LOG, "mmap %s: %s: kfd fd offset 0x%llx, %llu bytes", kind_name(kind),
			 hl_errno_name(ret), (unsigned long long)mmap_offset,
			 (unsigned long long)mem->size);
		goto err_free_bo;
	}
	/* No madvise: kfd_doorbell_mmap and kfd_mmio_mmap make the mapping
	 * VM_DONTCOPY. */
	kfd_mem_track(proc, mem);
	return mem;

err_free_bo:
	kfd_free_bo(proc, mem);
err_release_va:
	kfd_va_release(mem);
err_delete:
	kfd_mem_delete(mem);
	*err = ret;
	return NULL;
}

struct kfd_mem *kfd_mem_new_tracked_doorbell(struct kfd_process *proc, struct kfd_gpu *gpu,
					     uint64_t mmap_offset, int *err)
{
	return new_tracked_kfd_page(proc, gpu, KFD_MEM_DOORBELL, KFD_ALLOC_DOORBELL,
				    KFD_DOORBELL_SLICE_SIZE, mmap_offset, err);
}

struct kfd_mem *kfd_mem_new_tracked_mmio(struct kfd_process *proc, struct kfd_gpu *gpu, int *err)
{
	return new_tracked_kfd_page(proc, gpu, KFD_MEM_MMIO, KFD_ALLOC_MMIO_REMAP,
				    KFD_MMIO_REMAP_SIZE, 0, err);
}

void kfd_mem_release_all(struct kfd_process *proc)
{
	struct kfd_process_private *priv = proc->priv;
	bool forked = kfd_process_forked(proc);

	pthread_mutex_lock(&priv->mem_lock);
	struct kfd_mem *list = priv->mem_list;
	priv->mem_list = NULL;
	pthread_mutex_unlock(&priv->mem_lock);

	for (uint32_t i = 0; i < proc->n_gpus; i++) {
		proc->gpus[i].doorbell_slice = NULL;
		if (priv->doorbell_mem)
			priv->doorbell_mem[i] = NULL;
	}
	while (list) {
		struct kfd_mem *mem = list;
		list = mem->next;
		/* In a fork child the fd is the parent's: ioctls would get EBADF
		 * and the parent still owns the BOs. */
		if (!forked && proc->fd >= 0) {
			/* Put it back on the list only for the unmap bookkeeping. */
			mem->next = NULL;
			kfd_mem_track(proc, mem);
			if (!mem_unmap_all(proc, mem))
				kfd_free_bo(proc, mem);
			kfd_mem_untrack(proc, mem);
		}
		/* A fork child keeps inherited USERPTR host memory mapped: it is
		 * the application's CPU memory now (the head of this file). */
		if (!forked || mem->kind != KFD_MEM_USERPTR || mem->external)
			kfd_va_release(mem);
		kfd_mem_delete(mem);
	}
}

void kfd_mem_hdp_flush_range(struct kfd_process *proc, const void *p, size_t size)
{
	if (!proc || !p || !size)
		return;
	const struct kfd_mem *a = kfd_mem_find(proc, p);
	const struct kfd_mem *b = kfd_mem_find(proc, (const char *)p + size - 1);
	/* VRAM only: system memory does not pass the HDP */
	if (a && a->kind == KFD_MEM_VRAM)
		kfd_hdp_flush(kfd_process_gpu_by_id(proc, a->gpu_id));
	if (b && b != a && b->kind == KFD_MEM_VRAM)
		kfd_hdp_flush(kfd_process_gpu_by_id(proc, b->gpu_id));
}
