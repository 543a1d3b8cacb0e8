/*
 * Fixture for the kfdemu driver-model suites: a fresh machine per test
 * (mi210 unless told otherwise), the calling process's /dev/kfd and render
 * node opened through the core API, and helpers that issue raw KFD ioctls
 * and return 0 or -errno, as the kernel would.  Nothing here goes through
 * the LD_PRELOAD shim: these suites drive kfdemu_core directly.
 */
#ifndef EMU_FIXTURE_H
#define EMU_FIXTURE_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "hl_check.h"
#include "kfdemu.h"
#include "amd/kfd_uapi.h"

struct emu {
	struct kemu_topology topo;
	struct kemu_machine *m;
	int kfd, drm;
	uint32_t gpu_id;
	const struct kemu_gpu *gpu;
	struct kemu_process *p;
};

static struct emu E;

/* A machine on E.topo as the caller made it (a preset's, perhaps edited:
 * E is otherwise zero), its first GPU, the calling process's /dev/kfd and
 * render node open and, when acquire, the render node's VM acquired. */
static inline void emu_setup_machine(bool acquire)
{
	struct kemu_machine_options o = { .size = sizeof(o), .log_level = KEMU_LOG_NONE };
	ck_assert_int_eq(kemu_machine_create(&E.topo, &o, &E.m), 0);
	E.gpu = &E.topo.gpus[0];
	E.gpu_id = E.gpu->gpu_id;
	E.kfd = kemu_open(E.m, "/dev/kfd", O_RDWR | O_CLOEXEC);
	ck_assert_int_ge(E.kfd, 0);
	char path[64];
	snprintf(path, sizeof(path), "/dev/dri/renderD%u", E.gpu->drm_render_minor);
	E.drm = kemu_open(E.m, path, O_RDWR | O_CLOEXEC);
	ck_assert_int_ge(E.drm, 0);
	E.p = kemu_process_find(E.m, getpid());
	ck_assert_ptr_nonnull(E.p);
	if (acquire) {
		struct kfd_args_acquire_vm a = { .drm_fd = (uint32_t)E.drm, .gpu_id = E.gpu_id };
		ck_assert_int_eq(kemu_ioctl(E.m, E.kfd, KFD_IOCTL_ACQUIRE_VM, &a), 0);
	}
}

static inline void emu_setup_preset(const char *preset, uint32_t gpus, bool acquire)
{
	memset(&E, 0, sizeof(E));
	ck_assert_int_eq(kemu_topology_create(preset, gpus, false, &E.topo), 0);
	emu_setup_machine(acquire);
}

static inline void emu_setup(void)
{
	emu_setup_preset("mi210", 1, true);
}

static inline void emu_setup_no_vm(void)
{
	emu_setup_preset("mi210", 1, false);
}

static inline void emu_teardown(void)
{
	kemu_close(E.m, E.drm);
	kemu_close(E.m, E.kfd);
	kemu_machine_destroy(E.m);
	kemu_topology_destroy(&E.topo);
}

static inline long kio(unsigned long req, void *arg)
{
	return kemu_ioctl(E.m, E.kfd, req, arg);
}

/* A GPU VA in the user half, page aligned, unique per call. */
static inline uint64_t emu_va(uint64_t size)
{
	static uint64_t next = 0x100000000ull;
	uint64_t va = next;
	next += (size + 0xFFFFF) & ~0xFFFFFull;
	next += 0x100000; /* a guard gap between buffers */
	return va;
}

/* ALLOC of the given type at a fresh VA; returns -errno or 0 and handle. */
static inline long emu_alloc_at(uint64_t va, uint64_t size, uint32_t flags, uint64_t *handle)
{
	struct kfd_args_alloc_memory_of_gpu a = {
		.va_addr = va, .size = size, .gpu_id = E.gpu_id, .flags = flags };
	long r = kio(KFD_IOCTL_ALLOC_MEMORY_OF_GPU, &a);
	if (!r && handle)
		*handle = a.handle;
	return r;
}

static inline long emu_map(uint64_t handle)
{
	uint32_t ids[1] = { E.gpu_id };
	struct kfd_args_map_memory_to_gpu a = {
		.handle = handle, .device_ids_array_ptr = (uintptr_t)ids, .n_devices = 1 };
	return kio(KFD_IOCTL_MAP_MEMORY_TO_GPU, &a);
}

static inline long emu_unmap(uint64_t handle)
{
	uint32_t ids[1] = { E.gpu_id };
	struct kfd_args_unmap_memory_from_gpu a = {
		.handle = handle, .device_ids_array_ptr = (uintptr_t)ids, .n_devices = 1 };
	return kio(KFD_IOCTL_UNMAP_MEMORY_FROM_GPU, &a);
}

/* Allocates and maps a GTT (or VRAM) buffer; returns its VA. */
static inline uint64_t emu_buffer(uint64_t size, uint32_t type, uint64_t *handle)
{
	uint64_t va = emu_va(size);
	uint64_t h;
	ck_assert_int_eq(emu_alloc_at(va, size, type | KFD_ALLOC_WRITABLE | KFD_ALLOC_EXECUTABLE, &h),
			 0);
	ck_assert_int_eq(emu_map(h), 0);
	if (handle)
		*handle = h;
	return va;
}

#endif
