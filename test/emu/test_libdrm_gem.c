/*
 * ROCr 1.18's render-node calls through the real libdrm_amdgpu (Debian
 * 2.4.114) and kfdemu's LD_PRELOAD shim, run under the launcher: the
 * libdrm functions its KfdDriver uses for hsa_amd_vmem_* (amdgpu_bo_import
 * of a KFD dma-buf, amdgpu_bo_export of the KMS handle, DRM_AMDGPU_GEM_MMAP
 * through drmCommandWriteRead, amdgpu_bo_va_op, amdgpu_bo_free) and for
 * IPC of system memory (amdgpu_bo_cpu_map of an imported GTT BO).  libdrm
 * keeps its own table of handles: a second import of the same dma-buf must
 * come back as the same amdgpu_bo (the kernel's same handle), and only the
 * last amdgpu_bo_free closes it.  The GPU side of these mappings is tested
 * against the driver model directly (test_emu_kfd_gem).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <amdgpu.h>
#include <amdgpu_drm.h>
#include <xf86drm.h>

#include "hl_check.h"
#include "amd/kfd_uapi.h"

#define BUF (2u << 20)
#define VMEM_VA 0x7f0000000000ull

static int kfd = -1, drm = -1;
static uint32_t gpu_id;
static amdgpu_device_handle dev;

/* The first GPU node's gpu_id and render minor, from the topology. */
static int first_gpu(uint32_t *minor)
{
	for (int n = 1; n < 64; n++) {
		char path[128];
		snprintf(path, sizeof(path), "/sys/devices/virtual/kfd/kfd/topology/nodes/%d/gpu_id",
			 n);
		FILE *f = fopen(path, "r");
		if (!f)
			return -1;
		unsigned id = 0;
		int ok = fscanf(f, "%u", &id) == 1;
		fclose(f);
		if (!ok || !id)
			continue;
		snprintf(path, sizeof(path),
			 "/sys/devices/virtual/kfd/kfd/topology/nodes/%d/properties", n);
		f = fopen(path, "r");
		if (!f)
			return -1;
		char key[64];
		unsigned long long v;
		while (fscanf(f, "%63s %llu", key, &v) == 2) {
			if (!strcmp(key, "drm_render_minor"))
				*minor = (uint32_t)v;
		}
		fclose(f);
		gpu_id = id;
		return 0;
	}
	return -1;
}

static void setup(void)
{
	kfd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
	if (kfd < 0) {
		fprintf(stderr, "no /dev/kfd: skipped\n");
		exit(HL_SKIP);
	}
	uint32_t minor = 0;
	ck_assert_int_eq(first_gpu(&minor), 0);
	char path[64];
	snprintf(path, sizeof(path), "/dev/dri/renderD%u", minor);
	drm = open(path, O_RDWR | O_CLOEXEC);
	ck_assert_int_ge(drm, 0);
	uint32_t major, minor_v;
	ck_assert_int_eq(amdgpu_device_initialize(drm, &major, &minor_v, &dev), 0);
	struct kfd_args_acquire_vm a = { .drm_fd = (uint32_t)drm, .gpu_id = gpu_id };
	ck_assert_int_eq(ioctl(kfd, KFD_IOCTL_ACQUIRE_VM, &a), 0);
}

static void teardown(void)
{
	amdgpu_device_deinitialize(dev);
	close(drm);
	close(kfd);
}

static uint64_t alloc_bo(uint32_t flags, uint64_t va, uint64_t *offset)
{
	struct kfd_args_alloc_memory_of_gpu a = { .va_addr = va, .size = BUF, .gpu_id = gpu_id,
						  .flags = flags | KFD_ALLOC_WRITABLE };
	ck_assert_int_eq(ioctl(kfd, KFD_IOCTL_ALLOC_MEMORY_OF_GPU, &a), 0);
	if (offset)
		*offset = a.mmap_offset;
	return a.handle;
}

static int export_fd(uint64_t handle)
{
	struct kfd_args_export_dmabuf a = { .handle = handle, .flags = O_CLOEXEC };
	ck_assert_int_eq(ioctl(kfd, KFD_IOCTL_EXPORT_DMABUF, &a), 0);
	return (int)a.dmabuf_fd;
}

static void free_bo(uint64_t handle)
{
	struct kfd_args_free_memory_of_gpu a = { .handle = handle };
	ck_assert_int_eq(ioctl(kfd, KFD_IOCTL_FREE_MEMORY_OF_GPU, &a), 0);
}

/* KfdDriver::ImportDMABuf, Runtime::GetAmdgpuDeviceArgs, KfdDriver::Map,
 * ::Unmap and ::ReleaseShareableHandle, in the order vmem_map,
 * set_access(GPU, CPU) and vmem_unmap issue them. */
START_TEST(vmem_calls_through_libdrm)
{
	uint64_t kfd_off;
	uint64_t h = alloc_bo(KFD_ALLOC_VRAM | KFD_ALLOC_PUBLIC | KFD_ALLOC_NO_SUBSTITUTE, 0,
			      &kfd_off);
	int fd = export_fd(h);
	struct amdgpu_bo_import_result res;
	ck_assert_int_eq(amdgpu_bo_import(dev, amdgpu_bo_handle_type_dma_buf_fd, (uint32_t)fd,
					  &res), 0);
	ck_assert_uint_eq(res.alloc_size, BUF); /* libdrm's lseek(SEEK_END) of the dma-buf */
	close(fd);
	uint32_t kms;
	ck_assert_int_eq(amdgpu_bo_export(res.buf_handle, amdgpu_bo_handle_type_kms, &kms), 0);
	ck_assert_uint_eq(kms, 1);
	union drm_amdgpu_gem_mmap args = { .in.handle = kms };
	ck_assert_int_eq(drmCommandWriteRead(amdgpu_device_get_fd(dev), DRM_AMDGPU_GEM_MMAP, &args,
					     sizeof(args)), 0);
	ck_assert_uint_eq(args.out.addr_ptr, kfd_off);
	/* set_access(GPU): imported again, libdrm finds its own amdgpu_bo */
	fd = export_fd(h);
	struct amdgpu_bo_import_result again;
	ck_assert_int_eq(amdgpu_bo_import(dev, amdgpu_bo_handle_type_dma_buf_fd, (uint32_t)fd,
					  &again), 0);
	ck_assert_ptr_eq(again.buf_handle, res.buf_handle);
	close(fd);
	ck_assert_int_eq(amdgpu_bo_va_op(again.buf_handle, 0, BUF, VMEM_VA, 0, AMDGPU_VA_OP_MAP),
			 0);
	/* the same range again overlaps: amdgpu_vm_bo_map's -EINVAL */
	ck_assert_int_eq(amdgpu_bo_va_op(again.buf_handle, 0, BUF, VMEM_VA, 0, AMDGPU_VA_OP_MAP),
			 -EINVAL);
	/* set_access(CPU): the render fd at the offset, over the reserved range */
	void *range = mmap(NULL, BUF, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	ck_assert_ptr_ne(range, MAP_FAILED);
	uint32_t *cpu = mmap(range, BUF, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
			     amdgpu_device_get_fd(dev), (off_t)args.out.addr_ptr);
	ck_assert_ptr_eq(cpu, range);
	cpu[9] = 0xFACE;
	/* the KFD BO's own offset maps the same pages */
	uint32_t *view = mmap(NULL, BUF, PROT_READ, MAP_SHARED, drm, (off_t)kfd_off);
	ck_assert_ptr_ne(view, MAP_FAILED);
	ck_assert_uint_eq(view[9], 0xFACE);
	/* vmem_unmap: unmap, then release each import */
	ck_assert_int_eq(amdgpu_bo_va_op(again.buf_handle, 0, BUF, VMEM_VA, 0, AMDGPU_VA_OP_UNMAP),
			 0);
	ck_assert_int_eq(amdgpu_bo_va_op(again.buf_handle, 0, BUF, VMEM_VA, 0, AMDGPU_VA_OP_UNMAP),
			 -ENOENT);
	ck_assert_int_eq(amdgpu_bo_free(again.buf_handle), 0);
	ck_assert_int_eq(amdgpu_bo_free(res.buf_handle), 0); /* GEM_CLOSE */
	/* the handle is gone: a raw GEM_CLOSE of it is -EINVAL */
	struct drm_gem_close cl = { .handle = kms };
	ck_assert_int_eq(ioctl(drm, DRM_IOCTL_GEM_CLOSE, &cl), -1);
	ck_assert_int_eq(errno, EINVAL);
	free_bo(h);
	munmap(view, BUF);
	munmap(cpu, BUF);
}
END_TEST

/* Runtime::IPCAttach of system memory: amdgpu_bo_import, amdgpu_bo_cpu_map,
 * amdgpu_bo_va_op at the CPU address, then unmap and amdgpu_bo_free. */
START_TEST(ipc_system_memory_calls_through_libdrm)
{
	uint64_t off;
	uint64_t h = alloc_bo(KFD_ALLOC_GTT, 0x200000000ull, &off);
	uint32_t *mine = mmap(NULL, BUF, PROT_READ | PROT_WRITE, MAP_SHARED, drm, (off_t)off);
	ck_assert_ptr_ne(mine, MAP_FAILED);
	mine[1] = 0xBEEF;
	int fd = export_fd(h);
	struct amdgpu_bo_import_result res;
	ck_assert_int_eq(amdgpu_bo_import(dev, amdgpu_bo_handle_type_dma_buf_fd, (uint32_t)fd,
					  &res), 0);
	close(fd);
	void *cpu;
	ck_assert_int_eq(amdgpu_bo_cpu_map(res.buf_handle, &cpu), 0);
	ck_assert_uint_eq(((uint32_t *)cpu)[1], 0xBEEF);
	ck_assert_int_eq(amdgpu_bo_va_op(res.buf_handle, 0, BUF, (uint64_t)(uintptr_t)cpu, 0,
					 AMDGPU_VA_OP_MAP), 0);
	ck_assert_int_eq(amdgpu_bo_va_op(res.buf_handle, 0, BUF, (uint64_t)(uintptr_t)cpu, 0,
					 AMDGPU_VA_OP_UNMAP), 0);
	ck_assert_int_eq(amdgpu_bo_free(res.buf_handle), 0); /* unmaps the CPU view too */
	munmap(mine, BUF);
	free_bo(h);
}
END_TEST

static Suite *libdrm_gem_suite(void)
{
	Suite *s = suite_create("kfdemu_libdrm_gem");
	TCase *tc = tcase_create("libdrm");
	/* once: ACQUIRE_VM binds the process's one VM to one render file */
	tcase_add_unchecked_fixture(tc, setup, teardown);
	tcase_add_test(tc, vmem_calls_through_libdrm);
	tcase_add_test(tc, ipc_system_memory_calls_through_libdrm);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(libdrm_gem_suite)
