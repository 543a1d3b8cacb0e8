/*
 * kfdemu's render-node buffer ioctls (kemu_gem.c): PRIME_FD_TO_HANDLE,
 * PRIME_HANDLE_TO_FD, GEM_CLOSE, AMDGPU_GEM_MMAP and AMDGPU_GEM_VA, with the
 * kernel's validation and errno, handles per render file, the lifetime of
 * an object named by a handle, and GPU access through GEM_VA mappings.
 * The sequences are those ROCr 1.18's libhsakmt and libdrm_amdgpu issue for
 * hsa_amd_vmem_map / _set_access / _unmap (recorded under KFDEMU_LOG=debug),
 * so CI keeps them working without ROCr 1.18.
 */
#define _GNU_SOURCE
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <libdrm/drm.h>
#include <libdrm/amdgpu_drm.h>

#include "emu_fixture.h"

#include "gpu/gpu.h"

#define BUF (2u << 20)
#define VMEM_VA 0x7f0000000000ull /* where ROCr's vmem reserve puts ranges */
#define RWX (AMDGPU_VM_PAGE_READABLE | AMDGPU_VM_PAGE_WRITEABLE | AMDGPU_VM_PAGE_EXECUTABLE)

static long rio(int fd, unsigned long req, void *arg)
{
	return kemu_ioctl(E.m, fd, req, arg);
}

static int export_fd(uint64_t handle)
{
	struct kfd_args_export_dmabuf a = { .handle = handle, .flags = O_CLOEXEC };
	ck_assert_int_eq(kio(KFD_IOCTL_EXPORT_DMABUF, &a), 0);
	return (int)a.dmabuf_fd;
}

static long fd_to_handle(int drm, int fd, uint32_t *handle)
{
	struct drm_prime_handle a = { .fd = fd };
	long r = rio(drm, DRM_IOCTL_PRIME_FD_TO_HANDLE, &a);
	if (!r)
		*handle = a.handle;
	return r;
}

static long gem_close(int drm, uint32_t handle)
{
	struct drm_gem_close a = { .handle = handle };
	return rio(drm, DRM_IOCTL_GEM_CLOSE, &a);
}

static long gem_mmap(int drm, uint32_t handle, uint64_t *offset)
{
	union drm_amdgpu_gem_mmap a = { .in.handle = handle };
	long r = rio(drm, DRM_IOCTL_AMDGPU_GEM_MMAP, &a);
	*offset = a.out.addr_ptr;
	return r;
}

/* amdgpu_bo_va_op_raw issues GEM_VA as a read-write command */
static long gem_va(int drm, uint32_t handle, uint32_t op, uint32_t flags, uint64_t va,
		   uint64_t offset, uint64_t size)
{
	struct drm_amdgpu_gem_va a = { .handle = handle, .operation = op, .flags = flags,
				       .va_address = va, .offset_in_bo = offset, .map_size = size };
	return rio(drm, DRM_IOWR(DRM_COMMAND_BASE + DRM_AMDGPU_GEM_VA, struct drm_amdgpu_gem_va),
		   &a);
}

/* A VRAM BO as ROCr's hsa_amd_vmem_handle_create makes it (no VA, host
 * access), with its fake offset. */
static uint64_t vmem_bo(uint32_t extra, uint64_t *offset)
{
	struct kfd_args_alloc_memory_of_gpu a = {
		.size = BUF, .gpu_id = E.gpu_id,
		.flags = KFD_ALLOC_VRAM | KFD_ALLOC_WRITABLE | KFD_ALLOC_NO_SUBSTITUTE | extra };
	ck_assert_int_eq(kio(KFD_IOCTL_ALLOC_MEMORY_OF_GPU, &a), 0);
	if (offset)
		*offset = a.mmap_offset;
	return a.handle;
}

static uint64_t vram_available(void)
{
	struct kfd_args_available_memory a = { .gpu_id = E.gpu_id };
	ck_assert_int_eq(kio(KFD_IOCTL_AVAILABLE_MEMORY, &a), 0);
	return a.available;
}

static int open_render(uint32_t gpu)
{
	char path[64];
	snprintf(path, sizeof(path), "/dev/dri/renderD%u", E.topo.gpus[gpu].drm_render_minor);
	int fd = kemu_open(E.m, path, O_RDWR | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	return fd;
}

extern const struct kemu_gpu_ops kemu_ih_gpu_ops;

/* The GPU reads va on gpu through its VM; -EFAULT if it faults. */
static int gpu_read32(uint32_t gpu_id, uint64_t va, uint32_t *v, struct kemu_vm_fault_info *f)
{
	return kemu_vm_read(E.p, gpu_id, va, v, sizeof(*v), f);
}

/* hsa_amd_vmem_map + _set_access(GPU, CPU) + _unmap on ROCr 1.18. */
START_TEST(rocr_vmem_sequence_maps_for_gpu_and_cpu)
{
	uint64_t kfd_offset;
	uint64_t h = vmem_bo(KFD_ALLOC_PUBLIC, &kfd_offset);
	/* vmem_map: export, import on the owner's render fd, ask the offset */
	int fd = export_fd(h);
	uint32_t gem;
	ck_assert_int_eq(fd_to_handle(E.drm, fd, &gem), 0);
	ck_assert_uint_eq(gem, 1);
	close(fd);
	uint64_t off;
	ck_assert_int_eq(gem_mmap(E.drm, gem, &off), 0);
	ck_assert_uint_eq(off, kfd_offset); /* the KFD BO itself */
	/* set_access(GPU): export and import again: the same handle */
	fd = export_fd(h);
	uint32_t again;
	ck_assert_int_eq(fd_to_handle(E.drm, fd, &again), 0);
	ck_assert_uint_eq(again, gem);
	close(fd);
	ck_assert_int_eq(gem_va(E.drm, gem, AMDGPU_VA_OP_MAP, RWX, VMEM_VA, 0, BUF), 0);
	/* set_access(CPU): the render node at the offset, over the range */
	void *cpu;
	ck_assert_int_eq(kemu_mmap(E.m, NULL, BUF, PROT_READ | PROT_WRITE, MAP_SHARED, E.drm, off,
				   &cpu), 0);
	((uint32_t *)cpu)[100] = 0xC0FFEE;
	/* a CPU write through the BAR reaches the GPU after an HDP flush
	 * (the HDP model is strict: docs/kfdemu.md, "HDP") */
	kemu_ih_gpu_ops.hdp_flush(E.p, E.gpu_id);
	uint32_t v = 0;
	ck_assert_int_eq(gpu_read32(E.gpu_id, VMEM_VA + 400, &v, NULL), 0);
	ck_assert_uint_eq(v, 0xC0FFEE);
	uint32_t w = 0x5EED;
	ck_assert_int_eq(kemu_vm_write(E.p, E.gpu_id, VMEM_VA + BUF - 4, &w, 4, NULL), 0);
	ck_assert_uint_eq(((uint32_t *)cpu)[BUF / 4 - 1], 0x5EED);
	/* vmem_unmap: unmap, close (libdrm's last reference), free */
	ck_assert_int_eq(gem_va(E.drm, gem, AMDGPU_VA_OP_UNMAP, 0, VMEM_VA, 0, BUF), 0);
	struct kemu_vm_fault_info f;
	ck_assert_int_eq(gpu_read32(E.gpu_id, VMEM_VA, &v, &f), -EFAULT);
	ck_assert(f.not_present);
	ck_assert_int_eq(gem_close(E.drm, gem), 0);
	struct kfd_args_free_memory_of_gpu fr = { .handle = h };
	ck_assert_int_eq(kio(KFD_IOCTL_FREE_MEMORY_OF_GPU, &fr), 0);
	munmap(cpu, BUF);
}
END_TEST

START_TEST(handles_are_per_file_and_lowest_free_from_one)
{
	uint64_t h1 = vmem_bo(KFD_ALLOC_PUBLIC, NULL), h2 = vmem_bo(KFD_ALLOC_PUBLIC, NULL);
	int f1 = export_fd(h1), f2 = export_fd(h2);
	uint32_t a, b, c;
	ck_assert_int_eq(fd_to_handle(E.drm, f1, &a), 0);
	ck_assert_int_eq(fd_to_handle(E.drm, f2, &b), 0);
	ck_assert_uint_eq(a, 1);
	ck_assert_uint_eq(b, 2);
	/* another file of the same device has its own handles */
	int other = open_render(0);
	ck_assert_int_eq(fd_to_handle(other, f2, &c), 0);
	ck_assert_uint_eq(c, 1);
	ck_assert_int_eq(gem_close(E.drm, a), 0);
	ck_assert_int_eq(fd_to_handle(E.drm, f1, &c), 0);
	ck_assert_uint_eq(c, 1); /* idr: the lowest free again */
	/* a handle names nothing on another file */
	ck_assert_int_eq(gem_close(other, 2), -EINVAL);
	ck_assert_int_eq(gem_close(other, 1), 0);
	ck_assert_int_eq(gem_close(other, 1), -EINVAL);
	ck_assert_int_eq(gem_close(E.drm, 0), -EINVAL);
	kemu_close(E.m, other);
	close(f1);
	close(f2);
}
END_TEST

START_TEST(fd_to_handle_refuses_what_is_no_dma_buf)
{
	uint32_t h;
	ck_assert_int_eq(fd_to_handle(E.drm, -1, &h), -EBADF);
	int fds[2];
	ck_assert_int_eq(pipe(fds), 0);
	ck_assert_int_eq(fd_to_handle(E.drm, fds[0], &h), -EINVAL);
	close(fds[0]);
	ck_assert_int_eq(fd_to_handle(E.drm, fds[0], &h), -EBADF);
	close(fds[1]);
	int memfd = (int)syscall(SYS_memfd_create, "not-a-dmabuf", 0);
	ck_assert_int_ge(memfd, 0);
	ck_assert_int_eq(fd_to_handle(E.drm, memfd, &h), -EINVAL);
	close(memfd);
}
END_TEST

START_TEST(handle_to_fd_exports_the_object)
{
	uint64_t h = vmem_bo(KFD_ALLOC_PUBLIC, NULL);
	int fd = export_fd(h);
	uint32_t gem;
	ck_assert_int_eq(fd_to_handle(E.drm, fd, &gem), 0);
	struct drm_prime_handle a = { .handle = gem, .flags = DRM_CLOEXEC | 0x100 };
	ck_assert_int_eq(rio(E.drm, DRM_IOCTL_PRIME_HANDLE_TO_FD, &a), -EINVAL);
	a = (struct drm_prime_handle){ .handle = gem + 7, .flags = DRM_CLOEXEC };
	ck_assert_int_eq(rio(E.drm, DRM_IOCTL_PRIME_HANDLE_TO_FD, &a), -ENOENT);
	a = (struct drm_prime_handle){ .handle = gem, .flags = DRM_CLOEXEC | DRM_RDWR };
	ck_assert_int_eq(rio(E.drm, DRM_IOCTL_PRIME_HANDLE_TO_FD, &a), 0);
	ck_assert_int_eq(fcntl(a.fd, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
	struct stat s1, s2;
	ck_assert_int_eq(fstat(fd, &s1), 0);
	ck_assert_int_eq(fstat(a.fd, &s2), 0);
	ck_assert_uint_eq(s1.st_ino, s2.st_ino); /* the object's one dma-buf */
	uint32_t back;
	ck_assert_int_eq(fd_to_handle(E.drm, a.fd, &back), 0);
	ck_assert_uint_eq(back, gem);
	/* without DRM_CLOEXEC the new fd is inherited across exec */
	struct drm_prime_handle b = { .handle = gem };
	ck_assert_int_eq(rio(E.drm, DRM_IOCTL_PRIME_HANDLE_TO_FD, &b), 0);
	ck_assert_int_eq(fcntl(b.fd, F_GETFD) & FD_CLOEXEC, 0);
	close(a.fd);
	close(b.fd);
	close(fd);
}
END_TEST

START_TEST(gem_mmap_answers_offsets_even_of_invisible_vram)
{
	uint64_t off = 1;
	ck_assert_int_eq(gem_mmap(E.drm, 5, &off), -ENOENT);
	ck_assert_uint_eq(off, 0); /* the answer is zeroed first */
	/* VRAM without PUBLIC is not NO_CPU_ACCESS (KFD since 2021): the thunk
	 * maps it too, PROT_NONE */
	uint64_t kfd_off;
	uint64_t h = vmem_bo(0, &kfd_off);
	int fd = export_fd(h);
	uint32_t gem;
	ck_assert_int_eq(fd_to_handle(E.drm, fd, &gem), 0);
	ck_assert_int_eq(gem_mmap(E.drm, gem, &off), 0);
	ck_assert_uint_eq(off, kfd_off);
	ck_assert_int_eq(gem_va(E.drm, gem, AMDGPU_VA_OP_MAP, RWX, VMEM_VA, 0, BUF), 0);
	ck_assert_int_eq(gem_close(E.drm, gem), 0);
	close(fd);
}
END_TEST

START_TEST(gem_va_validates_as_amdgpu_gem_va_ioctl)
{
	uint64_t h = vmem_bo(KFD_ALLOC_PUBLIC, NULL);
	int fd = export_fd(h);
	uint32_t g;
	ck_assert_int_eq(fd_to_handle(E.drm, fd, &g), 0);
	const uint32_t MAP = AMDGPU_VA_OP_MAP;
	ck_assert_int_eq(gem_va(E.drm, g, MAP, RWX, 0x8000, 0, 4096), -EINVAL); /* < 64 KiB */
	ck_assert_int_eq(gem_va(E.drm, g, MAP, RWX, 0x0000900000000000ull, 0, 4096), -EINVAL);
	ck_assert_int_eq(gem_va(E.drm, g, MAP, RWX, (1ull << 48) - (2ull << 20), 0, 4096),
			 -EINVAL); /* in AMDGPU_VA_RESERVED_TOP */
	ck_assert_int_eq(gem_va(E.drm, g, MAP, RWX | (1u << 12), VMEM_VA, 0, 4096), -EINVAL);
	ck_assert_int_eq(gem_va(E.drm, g, 9, RWX, VMEM_VA, 0, 4096), -EINVAL);
	ck_assert_int_eq(gem_va(E.drm, g + 1, MAP, RWX, VMEM_VA, 0, 4096), -ENOENT);
	ck_assert_int_eq(gem_va(E.drm, g, MAP, RWX, VMEM_VA + 8, 0, 4096), -EINVAL);
	ck_assert_int_eq(gem_va(E.drm, g, MAP, RWX, VMEM_VA, 4, 4096), -EINVAL);
	ck_assert_int_eq(gem_va(E.drm, g, MAP, RWX, VMEM_VA, 0, 100), -EINVAL);
	ck_assert_int_eq(gem_va(E.drm, g, MAP, RWX, VMEM_VA, 0, 0), -EINVAL);
	ck_assert_int_eq(gem_va(E.drm, g, MAP, RWX, VMEM_VA, 4096, BUF), -EINVAL); /* past BO */
	/* a window of the BO, then an overlap with it and with a KFD mapping */
	ck_assert_int_eq(gem_va(E.drm, g, MAP, RWX, VMEM_VA, 4096, 8192), 0);
	ck_assert_int_eq(gem_va(E.drm, g, MAP, RWX, VMEM_VA + 4096, 0, 4096), -EINVAL);
	uint64_t kh;
	uint64_t kva = emu_buffer(4096, KFD_ALLOC_GTT, &kh);
	ck_assert_int_eq(gem_va(E.drm, g, MAP, RWX, kva, 0, 4096), -EINVAL);
	/* UNMAP finds a mapping by its start only */
	ck_assert_int_eq(gem_va(E.drm, g, AMDGPU_VA_OP_UNMAP, 0, VMEM_VA + 4096, 0, 4096),
			 -ENOENT);
	ck_assert_int_eq(gem_va(E.drm, g, AMDGPU_VA_OP_UNMAP, 0, VMEM_VA, 0, 4096), 0);
	ck_assert_int_eq(gem_va(E.drm, g, AMDGPU_VA_OP_UNMAP, 0, VMEM_VA, 0, 4096), -ENOENT);
	/* a KFD mapping is not GEM_VA's to unmap, and UNMAP_MEMORY leaves GEM's */
	ck_assert_int_eq(gem_va(E.drm, g, AMDGPU_VA_OP_UNMAP, 0, kva, 0, 4096), -ENOENT);
	/* not modelled: refused, never a silent success */
	ck_assert_int_eq(gem_va(E.drm, 0, AMDGPU_VA_OP_CLEAR, 0, VMEM_VA, 0, 4096), -EOPNOTSUPP);
	ck_assert_int_eq(gem_va(E.drm, g, AMDGPU_VA_OP_REPLACE, RWX, VMEM_VA, 0, 4096),
			 -EOPNOTSUPP);
	ck_assert_int_eq(gem_va(E.drm, 0, MAP, AMDGPU_VM_PAGE_PRT, VMEM_VA, 0, 4096), -EOPNOTSUPP);
	ck_assert_int_eq(gem_close(E.drm, g), 0);
	close(fd);
}
END_TEST

START_TEST(gem_va_is_a_write_only_command_with_the_hole_masked)
{
	uint64_t h = vmem_bo(KFD_ALLOC_PUBLIC, NULL);
	int fd = export_fd(h);
	uint32_t g;
	ck_assert_int_eq(fd_to_handle(E.drm, fd, &g), 0);
	uint64_t high = 0xffff800000200000ull; /* the upper half, above the hole */
	struct drm_amdgpu_gem_va a = { .handle = g, .operation = AMDGPU_VA_OP_MAP, .flags = RWX,
				       .va_address = high, .map_size = 4096 };
	ck_assert_int_eq(rio(E.drm, DRM_IOWR(DRM_COMMAND_BASE + DRM_AMDGPU_GEM_VA,
					     struct drm_amdgpu_gem_va), &a), 0);
	ck_assert_uint_eq(a.va_address, high); /* _IOW: nothing written back */
	uint32_t v;
	ck_assert_int_eq(gpu_read32(E.gpu_id, high & 0x0000ffffffffffffull, &v, NULL), 0);
	ck_assert_int_eq(gem_close(E.drm, g), 0);
	close(fd);
}
END_TEST

START_TEST(gem_va_permissions_are_the_flags)
{
	uint64_t h = vmem_bo(KFD_ALLOC_PUBLIC, NULL);
	int fd = export_fd(h);
	uint32_t g;
	ck_assert_int_eq(fd_to_handle(E.drm, fd, &g), 0);
	ck_assert_int_eq(gem_va(E.drm, g, AMDGPU_VA_OP_MAP, AMDGPU_VM_PAGE_READABLE, VMEM_VA, 0,
				4096), 0);
	ck_assert_int_eq(gem_va(E.drm, g, AMDGPU_VA_OP_MAP, AMDGPU_VM_PAGE_WRITEABLE,
				VMEM_VA + 4096, 0, 4096), 0);
	uint32_t v = 1;
	struct kemu_vm_fault_info f;
	ck_assert_int_eq(gpu_read32(E.gpu_id, VMEM_VA, &v, NULL), 0);
	memset(&f, 0, sizeof(f));
	ck_assert_int_eq(kemu_vm_write(E.p, E.gpu_id, VMEM_VA, &v, 4, &f), -EFAULT);
	ck_assert(f.read_only);
	ck_assert_int_eq(kemu_vm_write(E.p, E.gpu_id, VMEM_VA + 4096, &v, 4, NULL), 0);
	memset(&f, 0, sizeof(f));
	ck_assert_int_eq(gpu_read32(E.gpu_id, VMEM_VA + 4096, &v, &f), -EFAULT);
	ck_assert(f.not_present);
	/* GEM_CLOSE drops the object's mappings in this file's VM */
	ck_assert_int_eq(gem_close(E.drm, g), 0);
	ck_assert_int_eq(gpu_read32(E.gpu_id, VMEM_VA, &v, NULL), -EFAULT);
	close(fd);
}
END_TEST

START_TEST(a_handle_keeps_the_object_after_free)
{
	uint64_t before = vram_available();
	uint64_t off;
	uint64_t h = vmem_bo(KFD_ALLOC_PUBLIC, &off);
	ck_assert_uint_eq(vram_available(), before - BUF);
	int fd = export_fd(h);
	int other = open_render(0); /* a file without the VM, as a second user */
	uint32_t g;
	ck_assert_int_eq(fd_to_handle(other, fd, &g), 0);
	close(fd);
	/* the handle lets that file map the object */
	void *cpu;
	ck_assert_int_eq(kemu_mmap(E.m, NULL, BUF, PROT_READ | PROT_WRITE, MAP_SHARED, other, off,
				   &cpu), 0);
	struct kfd_args_free_memory_of_gpu fr = { .handle = h };
	ck_assert_int_eq(kio(KFD_IOCTL_FREE_MEMORY_OF_GPU, &fr), 0);
	ck_assert_int_eq(kio(KFD_IOCTL_FREE_MEMORY_OF_GPU, &fr), -EINVAL); /* KFD handle gone */
	ck_assert_uint_eq(vram_available(), before - BUF); /* the object lives */
	uint64_t off2;
	ck_assert_int_eq(gem_mmap(other, g, &off2), 0);
	ck_assert_uint_eq(off2, off);
	/* GEM_VA on a file no KFD process acquired: not modelled */
	ck_assert_int_eq(gem_va(other, g, AMDGPU_VA_OP_MAP, RWX, VMEM_VA, 0, BUF), -EOPNOTSUPP);
	/* the last close of the file releases its handles, and the object */
	kemu_close(E.m, other);
	ck_assert_uint_eq(vram_available(), before);
	munmap(cpu, BUF);
}
END_TEST

START_TEST(mmap_needs_a_handle_on_that_file)
{
	uint64_t off;
	uint64_t h = vmem_bo(KFD_ALLOC_PUBLIC, &off);
	int other = open_render(0);
	void *cpu;
	ck_assert_int_eq(kemu_mmap(E.m, NULL, 4096, PROT_READ, MAP_SHARED, other, off, &cpu),
			 -EACCES);
	int fd = export_fd(h);
	uint32_t g;
	ck_assert_int_eq(fd_to_handle(other, fd, &g), 0);
	ck_assert_int_eq(kemu_mmap(E.m, NULL, 4096, PROT_READ, MAP_SHARED, other, off, &cpu), 0);
	munmap(cpu, 4096);
	ck_assert_int_eq(gem_close(other, g), 0);
	ck_assert_int_eq(kemu_mmap(E.m, NULL, 4096, PROT_READ, MAP_SHARED, other, off, &cpu),
			 -EACCES);
	kemu_close(E.m, other);
	close(fd);
}
END_TEST

/* hsa_amd_vmem_set_access for a second GPU: the owner's dma-buf imported
 * on that GPU's render node is a new GTT object sharing the pages. */
START_TEST(another_device_imports_a_gtt_object_of_the_same_pages)
{
	uint64_t off;
	uint64_t h = vmem_bo(KFD_ALLOC_PUBLIC, &off);
	const struct kemu_gpu *g1 = &E.topo.gpus[1];
	int drm1 = open_render(1);
	struct kfd_args_acquire_vm acq = { .drm_fd = (uint32_t)drm1, .gpu_id = g1->gpu_id };
	ck_assert_int_eq(kio(KFD_IOCTL_ACQUIRE_VM, &acq), 0);
	int fd = export_fd(h);
	uint32_t g, again;
	ck_assert_int_eq(fd_to_handle(drm1, fd, &g), 0);
	ck_assert_int_eq(fd_to_handle(drm1, fd, &again), 0);
	ck_assert_uint_eq(again, g);
	uint64_t off1;
	ck_assert_int_eq(gem_mmap(drm1, g, &off1), 0);
	ck_assert_uint_ne(off1, 0);
	ck_assert_int_eq(gem_va(drm1, g, AMDGPU_VA_OP_MAP, RWX, VMEM_VA, 0, BUF), 0);
	void *cpu;
	ck_assert_int_eq(kemu_mmap(E.m, NULL, BUF, PROT_READ | PROT_WRITE, MAP_SHARED, E.drm, off,
				   &cpu), 0);
	((uint32_t *)cpu)[7] = 0xABCD;
	uint32_t v = 0;
	ck_assert_int_eq(gpu_read32(g1->gpu_id, VMEM_VA + 28, &v, NULL), 0);
	ck_assert_uint_eq(v, 0xABCD);
	/* GPU 0 has no mapping there */
	ck_assert_int_eq(gpu_read32(E.gpu_id, VMEM_VA + 28, &v, NULL), -EFAULT);
	ck_assert_int_eq(gem_close(drm1, g), 0);
	ck_assert_int_eq(gpu_read32(g1->gpu_id, VMEM_VA + 28, &v, NULL), -EFAULT);
	munmap(cpu, BUF);
	close(fd);
}
END_TEST

/* The importer of another process: a machine of its own (as under the
 * shim), the dma-buf inherited.  Returns 0 or the step that failed. */
static int child_import(int fd)
{
	struct kemu_topology t;
	struct kemu_machine *m;
	struct kemu_machine_options o = { .size = sizeof(o), .log_level = KEMU_LOG_NONE };
	if (kemu_topology_create("mi210", 1, false, &t) || kemu_machine_create(&t, &o, &m))
		return 10;
	char path[64];
	snprintf(path, sizeof(path), "/dev/dri/renderD%u", t.gpus[0].drm_render_minor);
	int kfd = kemu_open(m, "/dev/kfd", O_RDWR | O_CLOEXEC);
	int drm = kemu_open(m, path, O_RDWR | O_CLOEXEC);
	struct kfd_args_acquire_vm acq = { .drm_fd = (uint32_t)drm, .gpu_id = t.gpus[0].gpu_id };
	if (kfd < 0 || drm < 0 || kemu_ioctl(m, kfd, KFD_IOCTL_ACQUIRE_VM, &acq))
		return 11;
	struct drm_prime_handle ph = { .fd = fd };
	if (kemu_ioctl(m, drm, DRM_IOCTL_PRIME_FD_TO_HANDLE, &ph) || ph.handle != 1)
		return 12;
	union drm_amdgpu_gem_mmap mm = { .in.handle = ph.handle };
	void *cpu;
	if (kemu_ioctl(m, drm, DRM_IOCTL_AMDGPU_GEM_MMAP, &mm) ||
	    kemu_mmap(m, NULL, BUF, PROT_READ | PROT_WRITE, MAP_SHARED, drm, mm.out.addr_ptr, &cpu))
		return 13;
	if (((uint32_t *)cpu)[3] != 0x600D)
		return 14;
	struct drm_amdgpu_gem_va va = { .handle = ph.handle, .operation = AMDGPU_VA_OP_MAP,
					.flags = RWX, .va_address = VMEM_VA, .map_size = BUF };
	if (kemu_ioctl(m, drm, DRM_IOCTL_AMDGPU_GEM_VA, &va))
		return 15;
	uint32_t v = 0x1EAF;
	struct kemu_process *p = kemu_process_find(m, getpid());
	if (!p || kemu_vm_write(p, t.gpus[0].gpu_id, VMEM_VA + 16, &v, 4, NULL))
		return 16; /* the child's GPU writes through its GEM_VA mapping */
	struct drm_gem_close cl = { .handle = ph.handle };
	if (kemu_ioctl(m, drm, DRM_IOCTL_GEM_CLOSE, &cl))
		return 17;
	kemu_machine_destroy(m);
	kemu_topology_destroy(&t);
	return 0;
}

/* ROCr 1.18's IPC and vmem shareable handles: a dma-buf passed to another
 * process becomes a new object there, sharing the pages both ways. */
START_TEST(another_process_imports_the_same_pages)
{
	uint64_t off;
	uint64_t h = vmem_bo(KFD_ALLOC_PUBLIC, &off);
	void *cpu;
	ck_assert_int_eq(kemu_mmap(E.m, NULL, BUF, PROT_READ | PROT_WRITE, MAP_SHARED, E.drm, off,
				   &cpu), 0);
	((uint32_t *)cpu)[3] = 0x600D;
	int fd = export_fd(h);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(child_import(fd));
	int st;
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child failed at step %d",
		      WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	ck_assert_uint_eq(((uint32_t *)cpu)[4], 0x1EAF);
	munmap(cpu, BUF);
	close(fd);
}
END_TEST

static void setup_two(void)
{
	emu_setup_preset("mi210", 2, true);
}

static Suite *gem_suite(void)
{
	Suite *s = suite_create("kfdemu_gem");
	TCase *tc = tcase_create("gem");
	tcase_add_checked_fixture(tc, emu_setup, emu_teardown);
	tcase_add_test(tc, rocr_vmem_sequence_maps_for_gpu_and_cpu);
	tcase_add_test(tc, handles_are_per_file_and_lowest_free_from_one);
	tcase_add_test(tc, fd_to_handle_refuses_what_is_no_dma_buf);
	tcase_add_test(tc, handle_to_fd_exports_the_object);
	tcase_add_test(tc, gem_mmap_answers_offsets_even_of_invisible_vram);
	tcase_add_test(tc, gem_va_validates_as_amdgpu_gem_va_ioctl);
	tcase_add_test(tc, gem_va_is_a_write_only_command_with_the_hole_masked);
	tcase_add_test(tc, gem_va_permissions_are_the_flags);
	tcase_add_test(tc, a_handle_keeps_the_object_after_free);
	tcase_add_test(tc, mmap_needs_a_handle_on_that_file);
	tcase_add_test(tc, another_process_imports_the_same_pages);
	suite_add_tcase(s, tc);
	TCase *two = tcase_create("two_gpus");
	tcase_add_checked_fixture(two, setup_two, emu_teardown);
	tcase_add_test(two, another_device_imports_a_gtt_object_of_the_same_pages);
	suite_add_tcase(s, two);
	return s;
}

HL_CHECK_MAIN(gem_suite)
