/*
 * GPU memory and the ioctl front door on the kfdemu driver model:
 * ALLOC/FREE/MAP/UNMAP rules with the kernel's errno, the GPU VM (translate,
 * permissions), the render-node and kfd mmap offsets, ACQUIRE_VM, dispatch
 * errors (unknown nr, ROCm-only nr, deprecated nr, fork child) and fault
 * injection.
 */
#include <stdatomic.h>
#include <sys/wait.h>
#include <unistd.h>

#include "emu_fixture.h"

#include <libdrm/drm.h>
#include <libdrm/amdgpu_drm.h>

#define EXPECT_ERR(expr, err)                                                  \
	do {                                                                   \
		long r_ = (expr);                                              \
		ck_assert_msg(r_ == (err), "%s returned %ld, expected %d", #expr, r_, (err)); \
	} while (0)

START_TEST(get_version_reports_1_17)
{
	struct kfd_args_get_version v = { 0 };
	ck_assert_int_eq(kio(KFD_IOCTL_GET_VERSION, &v), 0);
	ck_assert_uint_eq(v.major_version, 1);
	ck_assert_uint_eq(v.minor_version, KEMU_KFD_MINOR);
}
END_TEST

START_TEST(apertures_are_readable_before_acquire_vm)
{
	struct kfd_process_device_apertures ap[4];
	struct kfd_args_get_process_apertures_new a = {
		.kfd_process_device_apertures_ptr = (uintptr_t)ap, .num_of_nodes = 0 };
	ck_assert_int_eq(kio(KFD_IOCTL_GET_PROCESS_APERTURES_NEW, &a), 0);
	ck_assert_uint_eq(a.num_of_nodes, 1);
	a.num_of_nodes = 4;
	ck_assert_int_eq(kio(KFD_IOCTL_GET_PROCESS_APERTURES_NEW, &a), 0);
	ck_assert_uint_eq(a.num_of_nodes, 1);
	ck_assert_uint_eq(ap[0].gpu_id, E.gpu_id);
	ck_assert_uint_eq(ap[0].gpuvm_limit, E.gpu->gpuvm_limit);
}
END_TEST

START_TEST(apertures_to_bad_pointer_is_efault)
{
	struct kfd_args_get_process_apertures_new a = {
		.kfd_process_device_apertures_ptr = 8, .num_of_nodes = 1 };
	EXPECT_ERR(kio(KFD_IOCTL_GET_PROCESS_APERTURES_NEW, &a), -EFAULT);
}
END_TEST

START_TEST(alloc_before_acquire_vm_is_enodev)
{
	EXPECT_ERR(emu_alloc_at(emu_va(0x1000), 0x1000, KFD_ALLOC_GTT, NULL), -ENODEV);
}
END_TEST

START_TEST(map_before_acquire_vm_is_enodev)
{
	EXPECT_ERR(emu_map((uint64_t)E.gpu_id << 32), -ENODEV);
}
END_TEST

START_TEST(acquire_vm_twice_with_another_fd_is_ebusy)
{
	char path[64];
	snprintf(path, sizeof(path), "/dev/dri/renderD%u", E.gpu->drm_render_minor);
	int other = kemu_open(E.m, path, O_RDWR);
	ck_assert_int_ge(other, 0);
	struct kfd_args_acquire_vm a = { .drm_fd = (uint32_t)E.drm, .gpu_id = E.gpu_id };
	ck_assert_int_eq(kio(KFD_IOCTL_ACQUIRE_VM, &a), 0);
	EXPECT_ERR(kio(KFD_IOCTL_ACQUIRE_VM, &a), 0);
	a.drm_fd = (uint32_t)other;
	EXPECT_ERR(kio(KFD_IOCTL_ACQUIRE_VM, &a), -EBUSY);
	kemu_close(E.m, other);
}
END_TEST

START_TEST(acquire_vm_with_a_non_drm_fd_is_einval)
{
	struct kfd_args_acquire_vm a = { .drm_fd = (uint32_t)E.kfd, .gpu_id = E.gpu_id };
	EXPECT_ERR(kio(KFD_IOCTL_ACQUIRE_VM, &a), -EINVAL);
}
END_TEST

START_TEST(alloc_of_size_zero_is_einval)
{
	EXPECT_ERR(emu_alloc_at(emu_va(0x1000), 0, KFD_ALLOC_GTT, NULL), -EINVAL);
}
END_TEST

START_TEST(alloc_on_unknown_gpu_is_einval)
{
	struct kfd_args_alloc_memory_of_gpu a = { .va_addr = emu_va(0x1000), .size = 0x1000,
						  .gpu_id = E.gpu_id ^ 0x4000,
						  .flags = KFD_ALLOC_GTT };
	EXPECT_ERR(kio(KFD_IOCTL_ALLOC_MEMORY_OF_GPU, &a), -EINVAL);
}
END_TEST

START_TEST(alloc_without_a_type_is_einval)
{
	EXPECT_ERR(emu_alloc_at(emu_va(0x1000), 0x1000, KFD_ALLOC_WRITABLE, NULL), -EINVAL);
}
END_TEST

START_TEST(alloc_doorbell_of_wrong_size_is_einval)
{
	EXPECT_ERR(emu_alloc_at(emu_va(0x1000), 0x1000, KFD_ALLOC_DOORBELL, NULL), -EINVAL);
}
END_TEST

START_TEST(alloc_mmio_of_wrong_size_is_einval)
{
	EXPECT_ERR(emu_alloc_at(emu_va(0x2000), 0x2000, KFD_ALLOC_MMIO_REMAP, NULL), -EINVAL);
}
END_TEST

START_TEST(alloc_userptr_without_address_is_einval)
{
	EXPECT_ERR(emu_alloc_at(emu_va(0x1000), 0x1000, KFD_ALLOC_USERPTR, NULL), -EINVAL);
}
END_TEST

START_TEST(alloc_userptr_of_unmapped_pages_is_efault)
{
	void *p = mmap(NULL, 0x2000, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(p, MAP_FAILED);
	munmap(p, 0x2000);
	struct kfd_args_alloc_memory_of_gpu a = { .va_addr = (uintptr_t)p, .size = 0x2000,
						  .mmap_offset = (uintptr_t)p,
						  .gpu_id = E.gpu_id, .flags = KFD_ALLOC_USERPTR };
	EXPECT_ERR(kio(KFD_IOCTL_ALLOC_MEMORY_OF_GPU, &a), -EFAULT);
}
END_TEST

START_TEST(alloc_beyond_vram_is_enomem)
{
	EXPECT_ERR(emu_alloc_at(emu_va(0x1000), E.gpu->vram_size + 0x1000, KFD_ALLOC_VRAM, NULL),
		   -ENOMEM);
}
END_TEST

START_TEST(handles_are_gpu_id_and_lowest_free_index)
{
	uint64_t h0, h1, h2;
	ck_assert_int_eq(emu_alloc_at(emu_va(0x1000), 0x1000, KFD_ALLOC_GTT, &h0), 0);
	ck_assert_int_eq(emu_alloc_at(emu_va(0x1000), 0x1000, KFD_ALLOC_GTT, &h1), 0);
	ck_assert_uint_eq(h0, (uint64_t)E.gpu_id << 32);
	ck_assert_uint_eq(h1, ((uint64_t)E.gpu_id << 32) | 1);
	struct kfd_args_free_memory_of_gpu f = { .handle = h0 };
	ck_assert_int_eq(kio(KFD_IOCTL_FREE_MEMORY_OF_GPU, &f), 0);
	ck_assert_int_eq(emu_alloc_at(emu_va(0x1000), 0x1000, KFD_ALLOC_GTT, &h2), 0);
	ck_assert_uint_eq(h2, h0);
}
END_TEST

START_TEST(mmio_mmap_offset_is_the_gpu_id)
{
	struct kfd_args_alloc_memory_of_gpu a = { .va_addr = emu_va(0x1000), .size = 0x1000,
						  .gpu_id = E.gpu_id, .flags = KFD_ALLOC_MMIO_REMAP };
	ck_assert_int_eq(kio(KFD_IOCTL_ALLOC_MEMORY_OF_GPU, &a), 0);
	ck_assert_uint_eq(a.mmap_offset, KFD_MMAP_TYPE_MMIO | KFD_MMAP_GPU_ID(E.gpu_id));
}
END_TEST

START_TEST(map_with_zero_devices_is_einval)
{
	uint64_t h;
	ck_assert_int_eq(emu_alloc_at(emu_va(0x1000), 0x1000, KFD_ALLOC_GTT, &h), 0);
	uint32_t ids[1] = { E.gpu_id };
	struct kfd_args_map_memory_to_gpu a = { .handle = h, .device_ids_array_ptr = (uintptr_t)ids,
						.n_devices = 0 };
	EXPECT_ERR(kio(KFD_IOCTL_MAP_MEMORY_TO_GPU, &a), -EINVAL);
}
END_TEST

START_TEST(map_with_n_success_over_n_devices_is_einval)
{
	uint64_t h;
	ck_assert_int_eq(emu_alloc_at(emu_va(0x1000), 0x1000, KFD_ALLOC_GTT, &h), 0);
	uint32_t ids[1] = { E.gpu_id };
	struct kfd_args_map_memory_to_gpu a = { .handle = h, .device_ids_array_ptr = (uintptr_t)ids,
						.n_devices = 1, .n_success = 2 };
	EXPECT_ERR(kio(KFD_IOCTL_MAP_MEMORY_TO_GPU, &a), -EINVAL);
}
END_TEST

START_TEST(map_of_unknown_handle_is_enomem)
{
	EXPECT_ERR(emu_map(((uint64_t)E.gpu_id << 32) | 77), -ENOMEM);
}
END_TEST

START_TEST(map_to_unknown_peer_is_einval)
{
	uint64_t h;
	ck_assert_int_eq(emu_alloc_at(emu_va(0x1000), 0x1000, KFD_ALLOC_GTT, &h), 0);
	uint32_t ids[1] = { E.gpu_id ^ 0x4000 };
	struct kfd_args_map_memory_to_gpu a = { .handle = h, .device_ids_array_ptr = (uintptr_t)ids,
						.n_devices = 1 };
	EXPECT_ERR(kio(KFD_IOCTL_MAP_MEMORY_TO_GPU, &a), -EINVAL);
}
END_TEST

START_TEST(map_with_bad_device_array_is_efault)
{
	uint64_t h;
	ck_assert_int_eq(emu_alloc_at(emu_va(0x1000), 0x1000, KFD_ALLOC_GTT, &h), 0);
	struct kfd_args_map_memory_to_gpu a = { .handle = h, .device_ids_array_ptr = 24,
						.n_devices = 1 };
	EXPECT_ERR(kio(KFD_IOCTL_MAP_MEMORY_TO_GPU, &a), -EFAULT);
}
END_TEST

START_TEST(map_overlapping_an_existing_mapping_is_einval)
{
	uint64_t va = emu_va(0x4000), h0, h1;
	ck_assert_int_eq(emu_alloc_at(va, 0x4000, KFD_ALLOC_GTT, &h0), 0);
	ck_assert_int_eq(emu_alloc_at(va + 0x2000, 0x4000, KFD_ALLOC_GTT, &h1), 0);
	ck_assert_int_eq(emu_map(h0), 0);
	EXPECT_ERR(emu_map(h1), -EINVAL);
}
END_TEST

START_TEST(map_twice_is_a_no_op)
{
	uint64_t h;
	ck_assert_int_eq(emu_alloc_at(emu_va(0x1000), 0x1000, KFD_ALLOC_GTT, &h), 0);
	ck_assert_int_eq(emu_map(h), 0);
	ck_assert_int_eq(emu_map(h), 0);
	ck_assert_int_eq(emu_unmap(h), 0);
}
END_TEST

START_TEST(unmap_of_unmapped_bo_is_einval)
{
	uint64_t h;
	ck_assert_int_eq(emu_alloc_at(emu_va(0x1000), 0x1000, KFD_ALLOC_GTT, &h), 0);
	EXPECT_ERR(emu_unmap(h), -EINVAL);
}
END_TEST

START_TEST(unmap_of_unknown_handle_is_einval)
{
	EXPECT_ERR(emu_unmap(((uint64_t)E.gpu_id << 32) | 5), -EINVAL);
}
END_TEST

START_TEST(free_while_mapped_is_ebusy)
{
	uint64_t h;
	emu_buffer(0x1000, KFD_ALLOC_GTT, &h);
	struct kfd_args_free_memory_of_gpu f = { .handle = h };
	EXPECT_ERR(kio(KFD_IOCTL_FREE_MEMORY_OF_GPU, &f), -EBUSY);
	ck_assert_int_eq(emu_unmap(h), 0);
	EXPECT_ERR(kio(KFD_IOCTL_FREE_MEMORY_OF_GPU, &f), 0);
}
END_TEST

START_TEST(free_of_unknown_handle_is_einval)
{
	struct kfd_args_free_memory_of_gpu f = { .handle = ((uint64_t)E.gpu_id << 32) | 9 };
	EXPECT_ERR(kio(KFD_IOCTL_FREE_MEMORY_OF_GPU, &f), -EINVAL);
}
END_TEST

START_TEST(available_memory_drops_by_vram_allocations)
{
	struct kfd_args_available_memory a = { .gpu_id = E.gpu_id };
	ck_assert_int_eq(kio(KFD_IOCTL_AVAILABLE_MEMORY, &a), 0);
	uint64_t before = a.available;
	ck_assert_uint_eq(before % (2u << 20), 0);
	ck_assert_int_eq(emu_alloc_at(emu_va(64u << 20), 64u << 20, KFD_ALLOC_VRAM, NULL), 0);
	ck_assert_int_eq(kio(KFD_IOCTL_AVAILABLE_MEMORY, &a), 0);
	ck_assert_uint_eq(a.available, before - (64u << 20));
}
END_TEST

START_TEST(gpu_vm_sees_what_the_cpu_mapping_writes)
{
	uint64_t va = emu_va(0x2000);
	struct kfd_args_alloc_memory_of_gpu a = { .va_addr = va, .size = 0x2000,
						  .gpu_id = E.gpu_id,
						  .flags = KFD_ALLOC_GTT | KFD_ALLOC_WRITABLE };
	ck_assert_int_eq(kio(KFD_IOCTL_ALLOC_MEMORY_OF_GPU, &a), 0);
	ck_assert_int_eq(emu_map(a.handle), 0);
	void *cpu = NULL;
	ck_assert_int_eq(kemu_mmap(E.m, NULL, 0x2000, PROT_READ | PROT_WRITE, MAP_SHARED, E.drm,
				   a.mmap_offset, &cpu), 0);
	((uint32_t *)cpu)[0x1000 / 4] = 0xC0FFEE;
	uint32_t v = 0;
	ck_assert_int_eq(kemu_vm_read(E.p, E.gpu_id, va + 0x1000, &v, 4, NULL), 0);
	ck_assert_uint_eq(v, 0xC0FFEE);
	v = 0xBEEF;
	ck_assert_int_eq(kemu_vm_write(E.p, E.gpu_id, va + 4, &v, 4, NULL), 0);
	ck_assert_uint_eq(((uint32_t *)cpu)[1], 0xBEEF);
	munmap(cpu, 0x2000);
}
END_TEST

START_TEST(render_mmap_outside_any_bo_is_einval)
{
	void *cpu;
	EXPECT_ERR(kemu_mmap(E.m, NULL, 0x1000, PROT_READ, MAP_SHARED, E.drm, 0x7000000000ull, &cpu),
		   -EINVAL);
}
END_TEST

START_TEST(render_mmap_of_userptr_is_eperm)
{
	void *p = mmap(NULL, 0x1000, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct kfd_args_alloc_memory_of_gpu a = { .va_addr = (uintptr_t)p, .size = 0x1000,
						  .mmap_offset = (uintptr_t)p,
						  .gpu_id = E.gpu_id, .flags = KFD_ALLOC_USERPTR };
	ck_assert_int_eq(kio(KFD_IOCTL_ALLOC_MEMORY_OF_GPU, &a), 0);
	void *cpu;
	EXPECT_ERR(kemu_mmap(E.m, NULL, 0x1000, PROT_READ, MAP_SHARED, E.drm, a.mmap_offset, &cpu),
		   -EPERM);
	munmap(p, 0x1000);
}
END_TEST

START_TEST(userptr_is_the_users_pages)
{
	uint32_t *p = mmap(NULL, 0x1000, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct kfd_args_alloc_memory_of_gpu a = { .va_addr = (uintptr_t)p, .size = 0x1000,
						  .mmap_offset = (uintptr_t)p, .gpu_id = E.gpu_id,
						  .flags = KFD_ALLOC_USERPTR | KFD_ALLOC_WRITABLE };
	ck_assert_int_eq(kio(KFD_IOCTL_ALLOC_MEMORY_OF_GPU, &a), 0);
	ck_assert_int_eq(emu_map(a.handle), 0);
	p[3] = 1234;
	uint32_t v = 0;
	ck_assert_int_eq(kemu_vm_read(E.p, E.gpu_id, (uintptr_t)p + 12, &v, 4, NULL), 0);
	ck_assert_uint_eq(v, 1234);
	ck_assert_int_eq(emu_unmap(a.handle), 0);
	munmap(p, 0x1000);
}
END_TEST

/* amdgpu lets any number of USERPTR BOs pin the same pages (each ALLOC
 * takes its own references; no overlap check at ALLOC): only their GPU VAs
 * may not overlap, refused at MAP (amdgpu_vm_bo_map: -EINVAL), never
 * -EEXIST.  libhsakmt registers overlapping user ranges so, each at a GPU
 * VA of its own. */
START_TEST(userptr_bos_may_pin_the_same_pages)
{
	uint32_t *p = mmap(NULL, 0x3000, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(p, MAP_FAILED);
	uint64_t vb = emu_va(0x3000);
	uint64_t va[3] = { emu_va(0x2000), vb, vb + 0x1000 };
	uint64_t off[3] = { 0, 0x1000, 0 };
	uint64_t size[3] = { 0x2000, 0x2000, 0x1000 };
	uint64_t h[3];
	for (int i = 0; i < 3; i++) {
		struct kfd_args_alloc_memory_of_gpu a = {
			.va_addr = va[i], .size = size[i], .mmap_offset = (uintptr_t)p + off[i],
			.gpu_id = E.gpu_id, .flags = KFD_ALLOC_USERPTR | KFD_ALLOC_WRITABLE };
		ck_assert_int_eq(kio(KFD_IOCTL_ALLOC_MEMORY_OF_GPU, &a), 0);
		h[i] = a.handle;
	}
	ck_assert_int_eq(emu_map(h[0]), 0);
	ck_assert_int_eq(emu_map(h[1]), 0);
	/* The third's GPU VA overlaps the second's. */
	EXPECT_ERR(emu_map(h[2]), -EINVAL);
	p[0x1000 / 4] = 77;
	uint32_t v0 = 0, v1 = 0;
	ck_assert_int_eq(kemu_vm_read(E.p, E.gpu_id, va[0] + 0x1000, &v0, 4, NULL), 0);
	ck_assert_int_eq(kemu_vm_read(E.p, E.gpu_id, va[1], &v1, 4, NULL), 0);
	ck_assert_uint_eq(v0, 77);
	ck_assert_uint_eq(v1, 77);
	ck_assert_int_eq(emu_unmap(h[0]), 0);
	ck_assert_int_eq(emu_unmap(h[1]), 0);
	munmap(p, 0x3000);
}
END_TEST

START_TEST(translate_of_unmapped_va_is_not_present)
{
	struct kemu_vm_fault_info f;
	void *h;
	EXPECT_ERR(kemu_vm_translate(E.p, E.gpu_id, 0x7000, 4, KEMU_ACCESS_READ, &h, &f), -EFAULT);
	ck_assert(f.not_present);
	ck_assert_uint_eq(f.va, 0x7000);
}
END_TEST

START_TEST(write_to_read_only_mapping_is_read_only_fault)
{
	uint64_t va = emu_va(0x1000), h;
	ck_assert_int_eq(emu_alloc_at(va, 0x1000, KFD_ALLOC_GTT, &h), 0);
	ck_assert_int_eq(emu_map(h), 0);
	struct kemu_vm_fault_info f;
	uint32_t v = 1;
	EXPECT_ERR(kemu_vm_write(E.p, E.gpu_id, va, &v, 4, &f), -EFAULT);
	ck_assert(f.read_only);
	ck_assert(!f.not_present);
	EXPECT_ERR(kemu_vm_read(E.p, E.gpu_id, va, &v, 4, &f), 0);
}
END_TEST

START_TEST(unmapped_memory_is_gone_from_the_gpu_vm)
{
	uint64_t h;
	uint64_t va = emu_buffer(0x1000, KFD_ALLOC_VRAM, &h);
	void *host;
	ck_assert_int_eq(kemu_vm_translate(E.p, E.gpu_id, va, 8, KEMU_ACCESS_WRITE, &host, NULL), 0);
	ck_assert_int_eq(emu_unmap(h), 0);
	EXPECT_ERR(kemu_vm_translate(E.p, E.gpu_id, va, 8, KEMU_ACCESS_READ, &host, NULL), -EFAULT);
}
END_TEST

START_TEST(aql_queue_mem_is_mapped_twice)
{
	uint64_t va = emu_va(0x4000), h;
	ck_assert_int_eq(emu_alloc_at(va, 0x4000, KFD_ALLOC_GTT | KFD_ALLOC_WRITABLE |
				      KFD_ALLOC_AQL_QUEUE_MEM, &h), 0);
	ck_assert_int_eq(emu_map(h), 0);
	uint32_t v = 77, w = 0;
	ck_assert_int_eq(kemu_vm_write(E.p, E.gpu_id, va + 0x10, &v, 4, NULL), 0);
	ck_assert_int_eq(kemu_vm_read(E.p, E.gpu_id, va + 0x2010, &w, 4, NULL), 0);
	ck_assert_uint_eq(w, 77);
}
END_TEST

START_TEST(doorbell_mmap_must_be_the_whole_slice)
{
	void *cpu;
	uint64_t off = KFD_MMAP_TYPE_DOORBELL | KFD_MMAP_GPU_ID(E.gpu_id);
	EXPECT_ERR(kemu_mmap(E.m, NULL, 0x1000, PROT_WRITE, MAP_SHARED, E.kfd, off, &cpu), -EINVAL);
	ck_assert_int_eq(kemu_mmap(E.m, NULL, 0x2000, PROT_READ | PROT_WRITE, MAP_SHARED, E.kfd,
				   off, &cpu), 0);
	((uint64_t *)cpu)[3] = 42;
	_Atomic uint64_t *slice = kemu_doorbell_slice(E.p, E.gpu_id);
	ck_assert_uint_eq(atomic_load(&slice[3]), 42);
	munmap(cpu, 0x2000);
}
END_TEST

START_TEST(mmio_mmap_must_be_one_page)
{
	void *cpu;
	uint64_t off = KFD_MMAP_TYPE_MMIO | KFD_MMAP_GPU_ID(E.gpu_id);
	EXPECT_ERR(kemu_mmap(E.m, NULL, 0x2000, PROT_WRITE, MAP_SHARED, E.kfd, off, &cpu), -EINVAL);
	ck_assert_int_eq(kemu_mmap(E.m, NULL, 0x1000, PROT_WRITE, MAP_SHARED, E.kfd, off, &cpu), 0);
	munmap(cpu, 0x1000);
}
END_TEST

START_TEST(kfd_mmap_with_unknown_gpu_is_enodev)
{
	void *cpu;
	uint64_t off = KFD_MMAP_TYPE_DOORBELL | KFD_MMAP_GPU_ID(E.gpu_id ^ 0x4000);
	EXPECT_ERR(kemu_mmap(E.m, NULL, 0x2000, PROT_WRITE, MAP_SHARED, E.kfd, off, &cpu), -ENODEV);
}
END_TEST

START_TEST(unknown_ioctl_nr_is_enotty)
{
	uint64_t arg[8] = { 0 };
	EXPECT_ERR(kio(_IOWR('K', 0x50, uint64_t), arg), -ENOTTY);
	EXPECT_ERR(kio(_IOWR('K', 0x00, uint64_t), arg), -ENOTTY);
}
END_TEST

/* libhsakmt 5.2's ROCm-DKMS ioctls (IPC 0x80/0x81, DBG_TRAP 0x82, cross
 * memory copy 0x83, SPM 0x84): past the upstream table, -ENOTTY since
 * "drm/amdkfd: return -ENOTTY for unsupported IOCTLs" */
START_TEST(rocm_dkms_ioctls_are_enotty)
{
	uint64_t arg[8] = { 0 };
	EXPECT_ERR(kio(_IOC(_IOC_READ | _IOC_WRITE, 'K', 0x80, 48), arg), -ENOTTY);
	EXPECT_ERR(kio(_IOC(_IOC_READ | _IOC_WRITE, 'K', 0x81, 32), arg), -ENOTTY);
	EXPECT_ERR(kio(_IOC(_IOC_READ | _IOC_WRITE, 'K', 0x82, 40), arg), -ENOTTY);
	EXPECT_ERR(kio(_IOC(_IOC_READ | _IOC_WRITE, 'K', 0x84, 32), arg), -ENOTTY);
	EXPECT_ERR(kio(_IOC(_IOC_READ | _IOC_WRITE, 'K', 0x27, 8), arg), -ENOTTY);
}
END_TEST

START_TEST(deprecated_dbg_ioctl_is_eperm)
{
	uint64_t arg[2] = { 0 };
	EXPECT_ERR(kio(_IOW('K', 0x0D, uint64_t), arg), -EPERM);
}
END_TEST

START_TEST(ioctl_argument_at_bad_address_is_efault)
{
	EXPECT_ERR(kio(KFD_IOCTL_GET_VERSION, (void *)16), -EFAULT);
}
END_TEST

START_TEST(ioctl_from_a_fork_child_is_ebadf)
{
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct kfd_args_get_version v;
		_exit(kio(KFD_IOCTL_GET_VERSION, &v) == -EBADF ? 0 : 1);
	}
	int st;
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child did not get -EBADF");
}
END_TEST

START_TEST(clock_counters_report_1ghz_system_clock)
{
	struct kfd_args_get_clock_counters c = { .gpu_id = E.gpu_id };
	ck_assert_int_eq(kio(KFD_IOCTL_GET_CLOCK_COUNTERS, &c), 0);
	ck_assert_uint_eq(c.system_clock_freq, 1000000000ull);
	ck_assert_uint_ne(c.gpu_clock_counter, 0);
}
END_TEST

START_TEST(memory_policy_with_bad_policy_is_einval)
{
	struct kfd_args_set_memory_policy a = { .gpu_id = E.gpu_id, .default_policy = 2 };
	EXPECT_ERR(kio(KFD_IOCTL_SET_MEMORY_POLICY, &a), -EINVAL);
}
END_TEST

START_TEST(memory_policy_before_acquire_vm_is_esrch)
{
	struct kfd_args_set_memory_policy a = { .gpu_id = E.gpu_id };
	EXPECT_ERR(kio(KFD_IOCTL_SET_MEMORY_POLICY, &a), -ESRCH);
}
END_TEST

START_TEST(trap_handler_before_acquire_vm_is_esrch)
{
	struct kfd_args_set_trap_handler a = { .gpu_id = E.gpu_id, .tba_addr = 0x1000 };
	EXPECT_ERR(kio(KFD_IOCTL_SET_TRAP_HANDLER, &a), -ESRCH);
}
END_TEST

START_TEST(runtime_enable_twice_is_ebusy)
{
	struct kfd_args_runtime_enable r = { .mode_mask = KFD_RUNTIME_ENABLE_MODE_ENABLE };
	ck_assert_int_eq(kio(KFD_IOCTL_RUNTIME_ENABLE, &r), 0);
	EXPECT_ERR(kio(KFD_IOCTL_RUNTIME_ENABLE, &r), -EBUSY);
	r.mode_mask = 0;
	ck_assert_int_eq(kio(KFD_IOCTL_RUNTIME_ENABLE, &r), 0);
}
END_TEST

START_TEST(xnack_query_reports_off_and_enable_sticks)
{
	struct kfd_args_set_xnack_mode x = { .xnack_enabled = -1 };
	ck_assert_int_eq(kio(KFD_IOCTL_SET_XNACK_MODE, &x), 0);
	ck_assert_int_eq(x.xnack_enabled, 0);
	x.xnack_enabled = 1;
	ck_assert_int_eq(kio(KFD_IOCTL_SET_XNACK_MODE, &x), 0);
	x.xnack_enabled = -1;
	ck_assert_int_eq(kio(KFD_IOCTL_SET_XNACK_MODE, &x), 0);
	ck_assert_int_eq(x.xnack_enabled, 1);
}
END_TEST

START_TEST(injected_alloc_failure_hits_the_nth_alloc)
{
	ck_assert_int_eq(kemu_machine_set_fail(E.m, "alloc:2"), 0);
	ck_assert_int_eq(emu_alloc_at(emu_va(0x1000), 0x1000, KFD_ALLOC_GTT, NULL), 0);
	EXPECT_ERR(emu_alloc_at(emu_va(0x1000), 0x1000, KFD_ALLOC_GTT, NULL), -ENOMEM);
	ck_assert_int_eq(emu_alloc_at(emu_va(0x1000), 0x1000, KFD_ALLOC_GTT, NULL), 0);
}
END_TEST

START_TEST(injected_mmap_failure_is_enomem)
{
	ck_assert_int_eq(kemu_machine_set_fail(E.m, "mmap:1"), 0);
	void *cpu;
	uint64_t off = KFD_MMAP_TYPE_MMIO | KFD_MMAP_GPU_ID(E.gpu_id);
	EXPECT_ERR(kemu_mmap(E.m, NULL, 0x1000, PROT_READ, MAP_SHARED, E.kfd, off, &cpu), -ENOMEM);
	ck_assert_int_eq(kemu_mmap(E.m, NULL, 0x1000, PROT_READ, MAP_SHARED, E.kfd, off, &cpu), 0);
	munmap(cpu, 0x1000);
}
END_TEST

START_TEST(old_apertures_ioctl_lists_every_gpu)
{
	struct kfd_args_get_process_apertures a;
	memset(&a, 0xFF, sizeof(a));
	ck_assert_int_eq(kio(KFD_IOCTL_GET_PROCESS_APERTURES, &a), 0);
	ck_assert_uint_eq(a.num_of_nodes, 1);
	ck_assert_uint_eq(a.process_apertures[0].gpu_id, E.gpu_id);
	ck_assert_uint_eq(a.process_apertures[0].lds_base, E.gpu->lds_base);
}
END_TEST

START_TEST(ioctl_type_byte_is_ignored)
{
	/* kfd_ioctl dispatches on the number alone */
	struct kfd_args_get_version v = { 0 };
	ck_assert_int_eq(kio(_IOR('Z', 0x01, struct kfd_args_get_version), &v), 0);
	ck_assert_uint_eq(v.major_version, 1);
}
END_TEST

START_TEST(drm_info_answer_lands_in_the_user_buffer)
{
	uint32_t answer[2] = { 0, 0xAAAAAAAA };
	struct drm_amdgpu_info q = { .return_pointer = (uintptr_t)answer, .return_size = 8,
				     .query = AMDGPU_INFO_ACCEL_WORKING };
	ck_assert_int_eq(kemu_ioctl(E.m, E.drm, DRM_IOCTL_AMDGPU_INFO, &q), 0);
	ck_assert_uint_eq(answer[0], 1);
	ck_assert_uint_eq(answer[1], 0xAAAAAAAA); /* beyond the 4-byte answer: untouched */
}
END_TEST

START_TEST(drm_info_to_bad_return_pointer_is_efault)
{
	struct drm_amdgpu_info q = { .return_pointer = 32, .return_size = 4,
				     .query = AMDGPU_INFO_ACCEL_WORKING };
	EXPECT_ERR(kemu_ioctl(E.m, E.drm, DRM_IOCTL_AMDGPU_INFO, &q), -EFAULT);
}
END_TEST

START_TEST(second_open_shares_the_process)
{
	uint64_t h;
	ck_assert_int_eq(emu_alloc_at(emu_va(0x1000), 0x1000, KFD_ALLOC_GTT, &h), 0);
	int kfd2 = kemu_open(E.m, "/dev/kfd", O_RDWR);
	ck_assert_int_ge(kfd2, 0);
	struct kfd_args_free_memory_of_gpu f = { .handle = h };
	EXPECT_ERR(kemu_ioctl(E.m, kfd2, KFD_IOCTL_FREE_MEMORY_OF_GPU, &f), 0);
	kemu_close(E.m, kfd2);
	/* closing one fd leaves the process (and its VM) alive */
	EXPECT_ERR(emu_alloc_at(emu_va(0x1000), 0x1000, KFD_ALLOC_GTT, NULL), 0);
}
END_TEST

START_TEST(malformed_fail_spec_is_einval)
{
	EXPECT_ERR(kemu_machine_set_fail(E.m, "ioctl:NO_SUCH_IOCTL:1"), -EINVAL);
	EXPECT_ERR(kemu_machine_set_fail(E.m, "alloc:zero"), -EINVAL);
	EXPECT_ERR(kemu_machine_set_fail(E.m, "mmap:0"), -EINVAL);
}
END_TEST

START_TEST(injected_open_failure_is_enomem)
{
	ck_assert_int_eq(kemu_machine_set_fail(E.m, "open:1"), 0);
	EXPECT_ERR(kemu_open(E.m, "/dev/kfd", O_RDWR), -ENOMEM);
}
END_TEST

START_TEST(unknown_node_path_is_enoent)
{
	EXPECT_ERR(kemu_open(E.m, "/dev/dri/renderD200", O_RDWR), -ENOENT);
	EXPECT_ERR(kemu_open(E.m, "/dev/kfd0", O_RDWR), -ENOENT);
}
END_TEST

START_TEST(dup_of_kfd_fd_works_and_close_releases)
{
	int d = dup(E.kfd);
	ck_assert_int_ge(d, 0);
	kemu_fd_dup(E.m, E.kfd, d);
	struct kfd_args_get_version v;
	ck_assert_int_eq(kemu_ioctl(E.m, d, KFD_IOCTL_GET_VERSION, &v), 0);
	ck_assert_int_eq(kemu_close(E.m, d), 0);
	EXPECT_ERR(kemu_ioctl(E.m, d, KFD_IOCTL_GET_VERSION, &v), -EBADF);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("kfdemu_memory");
	TCase *vm = tcase_create("with_vm");
	tcase_add_checked_fixture(vm, emu_setup, emu_teardown);
	TCase *novm = tcase_create("without_vm");
	tcase_add_checked_fixture(novm, emu_setup_no_vm, emu_teardown);

	tcase_add_test(novm, get_version_reports_1_17);
	tcase_add_test(novm, apertures_are_readable_before_acquire_vm);
	tcase_add_test(novm, apertures_to_bad_pointer_is_efault);
	tcase_add_test(novm, alloc_before_acquire_vm_is_enodev);
	tcase_add_test(novm, map_before_acquire_vm_is_enodev);
	tcase_add_test(novm, acquire_vm_twice_with_another_fd_is_ebusy);
	tcase_add_test(novm, acquire_vm_with_a_non_drm_fd_is_einval);
	tcase_add_test(novm, memory_policy_before_acquire_vm_is_esrch);
	tcase_add_test(novm, trap_handler_before_acquire_vm_is_esrch);
	tcase_add_test(novm, unknown_ioctl_nr_is_enotty);
	tcase_add_test(novm, rocm_dkms_ioctls_are_enotty);
	tcase_add_test(novm, deprecated_dbg_ioctl_is_eperm);
	tcase_add_test(novm, ioctl_argument_at_bad_address_is_efault);
	tcase_add_test(novm, ioctl_from_a_fork_child_is_ebadf);
	tcase_add_test(novm, injected_open_failure_is_enomem);
	tcase_add_test(novm, malformed_fail_spec_is_einval);
	tcase_add_test(novm, injected_mmap_failure_is_enomem);
	tcase_add_test(novm, old_apertures_ioctl_lists_every_gpu);
	tcase_add_test(novm, ioctl_type_byte_is_ignored);
	tcase_add_test(novm, drm_info_answer_lands_in_the_user_buffer);
	tcase_add_test(novm, drm_info_to_bad_return_pointer_is_efault);
	tcase_add_test(novm, unknown_node_path_is_enoent);
	tcase_add_test(novm, dup_of_kfd_fd_works_and_close_releases);
	tcase_add_test(novm, runtime_enable_twice_is_ebusy);
	tcase_add_test(novm, xnack_query_reports_off_and_enable_sticks);

	tcase_add_test(vm, alloc_of_size_zero_is_einval);
	tcase_add_test(vm, alloc_on_unknown_gpu_is_einval);
	tcase_add_test(vm, alloc_without_a_type_is_einval);
	tcase_add_test(vm, alloc_doorbell_of_wrong_size_is_einval);
	tcase_add_test(vm, alloc_mmio_of_wrong_size_is_einval);
	tcase_add_test(vm, alloc_userptr_without_address_is_einval);
	tcase_add_test(vm, alloc_userptr_of_unmapped_pages_is_efault);
	tcase_add_test(vm, alloc_beyond_vram_is_enomem);
	tcase_add_test(vm, handles_are_gpu_id_and_lowest_free_index);
	tcase_add_test(vm, mmio_mmap_offset_is_the_gpu_id);
	tcase_add_test(vm, map_with_zero_devices_is_einval);
	tcase_add_test(vm, map_with_n_success_over_n_devices_is_einval);
	tcase_add_test(vm, map_of_unknown_handle_is_enomem);
	tcase_add_test(vm, map_to_unknown_peer_is_einval);
	tcase_add_test(vm, map_with_bad_device_array_is_efault);
	tcase_add_test(vm, map_overlapping_an_existing_mapping_is_einval);
	tcase_add_test(vm, map_twice_is_a_no_op);
	tcase_add_test(vm, unmap_of_unmapped_bo_is_einval);
	tcase_add_test(vm, unmap_of_unknown_handle_is_einval);
	tcase_add_test(vm, free_while_mapped_is_ebusy);
	tcase_add_test(vm, free_of_unknown_handle_is_einval);
	tcase_add_test(vm, available_memory_drops_by_vram_allocations);
	tcase_add_test(vm, gpu_vm_sees_what_the_cpu_mapping_writes);
	tcase_add_test(vm, render_mmap_outside_any_bo_is_einval);
	tcase_add_test(vm, render_mmap_of_userptr_is_eperm);
	tcase_add_test(vm, userptr_is_the_users_pages);
	tcase_add_test(vm, userptr_bos_may_pin_the_same_pages);
	tcase_add_test(vm, translate_of_unmapped_va_is_not_present);
	tcase_add_test(vm, write_to_read_only_mapping_is_read_only_fault);
	tcase_add_test(vm, unmapped_memory_is_gone_from_the_gpu_vm);
	tcase_add_test(vm, aql_queue_mem_is_mapped_twice);
	tcase_add_test(vm, doorbell_mmap_must_be_the_whole_slice);
	tcase_add_test(vm, mmio_mmap_must_be_one_page);
	tcase_add_test(vm, kfd_mmap_with_unknown_gpu_is_enodev);
	tcase_add_test(vm, clock_counters_report_1ghz_system_clock);
	tcase_add_test(vm, memory_policy_with_bad_policy_is_einval);
	tcase_add_test(vm, injected_alloc_failure_hits_the_nth_alloc);
	tcase_add_test(vm, second_open_shares_the_process);
	suite_add_tcase(s, novm);
	suite_add_tcase(s, vm);
	return s;
}

HL_CHECK_MAIN(suite)
