/*
 * The LD_PRELOAD shim, end to end: this program runs under the kfdemu
 * launcher (ctest PRESET mi210) and talks to the emulated GPU only through
 * libc calls, as any user-space driver would: open("/dev/kfd"), raw KFD
 * ioctls, mmap of render-node and kfd offsets, fstat, dup, and the
 * redirected sysfs topology.  It exits 77 (skipped) when no /dev/kfd
 * exists, i.e. when run by hand outside the launcher on a machine without
 * an AMD GPU.
 *
 * munmap's order against another thread's mmap of the freed range is
 * checked with munmap_hook.c, which runs the test's mmap inside the
 * system call's caller, the shim.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <dlfcn.h>

#include "hl_check.h"
#include "amd/kfd_uapi.h"
#include "munmap_hook.h"

#define TOPO "/sys/devices/virtual/kfd/kfd/topology"

static int kfd = -1, drm = -1;
static uint32_t gpu_id, minor;

static uint64_t read_prop(const char *file, const char *key)
{
	FILE *f = fopen(file, "r");
	ck_assert_msg(f != NULL, "cannot open %s: %s", file, strerror(errno));
	char k[64];
	unsigned long long v, found = ~0ull;
	while (fscanf(f, "%63s %llu", k, &v) == 2) {
		if (!strcmp(k, key))
			found = v;
	}
	fclose(f);
	ck_assert_msg(found != ~0ull, "no %s in %s", key, file);
	return found;
}

static void setup(void)
{
	kfd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
	ck_assert_msg(kfd >= 0, "open /dev/kfd: %s", strerror(errno));
	FILE *f = fopen(TOPO "/nodes/1/gpu_id", "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fscanf(f, "%u", &gpu_id), 1);
	fclose(f);
}

static void teardown(void)
{
	if (drm >= 0)
		close(drm);
	close(kfd);
	drm = -1;
}

START_TEST(get_version_through_ioctl)
{
	struct kfd_args_get_version v = { 0 };
	ck_assert_int_eq(ioctl(kfd, KFD_IOCTL_GET_VERSION, &v), 0);
	ck_assert_uint_eq(v.major_version, 1);
	ck_assert_uint_ge(v.minor_version, 14);
}
END_TEST

START_TEST(kfd_node_is_a_character_device)
{
	struct stat st;
	ck_assert_int_eq(fstat(kfd, &st), 0);
	ck_assert(S_ISCHR(st.st_mode));
	ck_assert_int_eq(stat("/dev/kfd", &st), 0);
	ck_assert(S_ISCHR(st.st_mode));
}
END_TEST

START_TEST(topology_tree_is_visible_at_the_sysfs_path)
{
	DIR *d = opendir(TOPO "/nodes");
	ck_assert_ptr_nonnull(d);
	int n = 0;
	for (struct dirent *e; (e = readdir(d));)
		n += e->d_name[0] != '.';
	closedir(d);
	ck_assert_int_eq(n, 2); /* CPU node and one GPU */
	ck_assert_uint_eq(read_prop(TOPO "/nodes/1/properties", "gfx_target_version"), 90010);
}
END_TEST

START_TEST(unknown_ioctl_fails_with_enotty)
{
	uint64_t arg = 0;
	errno = 0;
	ck_assert_int_eq(ioctl(kfd, _IOWR('K', 0x60, uint64_t), &arg), -1);
	ck_assert_int_eq(errno, ENOTTY);
}
END_TEST

START_TEST(alloc_mmap_map_through_the_render_node)
{
	minor = (uint32_t)read_prop(TOPO "/nodes/1/properties", "drm_render_minor");
	char path[64];
	snprintf(path, sizeof(path), "/dev/dri/renderD%u", minor);
	drm = open(path, O_RDWR | O_CLOEXEC);
	ck_assert_msg(drm >= 0, "open %s: %s", path, strerror(errno));
	struct stat st;
	ck_assert_int_eq(fstat(drm, &st), 0);
	ck_assert_uint_eq(major(st.st_rdev), 226);
	ck_assert_uint_eq(minor(st.st_rdev), minor);

	/* libdrm's amdgpu_device_initialize keeps a F_DUPFD_CLOEXEC copy */
	int dupfd = fcntl(drm, F_DUPFD_CLOEXEC, 0);
	ck_assert_int_ge(dupfd, 0);
	struct kfd_args_acquire_vm acq = { .drm_fd = (uint32_t)dupfd, .gpu_id = gpu_id };
	ck_assert_msg(ioctl(kfd, KFD_IOCTL_ACQUIRE_VM, &acq) == 0, "ACQUIRE_VM: %s",
		      strerror(errno));
	close(drm); /* the VM keeps the file; the dup still refers to it */
	drm = dupfd;

	/* CPU VA == GPU VA, as libhsakmt arranges it */
	void *va = mmap(NULL, 0x4000, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	ck_assert_ptr_ne(va, MAP_FAILED);
	struct kfd_args_alloc_memory_of_gpu a = {
		.va_addr = (uintptr_t)va, .size = 0x4000, .gpu_id = gpu_id,
		.flags = KFD_ALLOC_GTT | KFD_ALLOC_WRITABLE | KFD_ALLOC_EXECUTABLE };
	ck_assert_int_eq(ioctl(kfd, KFD_IOCTL_ALLOC_MEMORY_OF_GPU, &a), 0);
	ck_assert_uint_eq(a.handle >> 32, gpu_id);
	uint32_t *cpu = mmap(va, 0x4000, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, drm,
			     (off_t)a.mmap_offset);
	ck_assert_ptr_eq(cpu, va);
	cpu[100] = 0x5EED;
	/* a second mapping of the same BO shows the same pages */
	uint32_t *again = mmap(NULL, 0x4000, PROT_READ, MAP_SHARED, drm, (off_t)a.mmap_offset);
	ck_assert_ptr_ne(again, MAP_FAILED);
	ck_assert_uint_eq(again[100], 0x5EED);
	munmap(again, 0x4000);

	uint32_t ids[1] = { gpu_id };
	struct kfd_args_map_memory_to_gpu m = { .handle = a.handle,
						.device_ids_array_ptr = (uintptr_t)ids,
						.n_devices = 1 };
	ck_assert_int_eq(ioctl(kfd, KFD_IOCTL_MAP_MEMORY_TO_GPU, &m), 0);
	ck_assert_uint_eq(m.n_success, 1);
	struct kfd_args_free_memory_of_gpu f = { .handle = a.handle };
	errno = 0;
	ck_assert_int_eq(ioctl(kfd, KFD_IOCTL_FREE_MEMORY_OF_GPU, &f), -1);
	ck_assert_int_eq(errno, EBUSY);
	m.n_success = 0;
	ck_assert_int_eq(ioctl(kfd, KFD_IOCTL_UNMAP_MEMORY_FROM_GPU, &m), 0);
	ck_assert_int_eq(ioctl(kfd, KFD_IOCTL_FREE_MEMORY_OF_GPU, &f), 0);
	munmap(va, 0x4000);
}
END_TEST

START_TEST(doorbell_and_mmio_mmap_through_kfd)
{
	void *db = mmap(NULL, KFD_DOORBELL_SLICE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, kfd,
			(off_t)(KFD_MMAP_TYPE_DOORBELL | KFD_MMAP_GPU_ID(gpu_id)));
	ck_assert_msg(db != MAP_FAILED, "doorbell mmap: %s", strerror(errno));
	munmap(db, KFD_DOORBELL_SLICE_SIZE);
	errno = 0;
	void *bad = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, kfd,
			 (off_t)(KFD_MMAP_TYPE_DOORBELL | KFD_MMAP_GPU_ID(gpu_id)));
	ck_assert_ptr_eq(bad, MAP_FAILED);
	ck_assert_int_eq(errno, EINVAL);
	void *mmio = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, kfd,
			  (off_t)(KFD_MMAP_TYPE_MMIO | KFD_MMAP_GPU_ID(gpu_id)));
	ck_assert_ptr_ne(mmio, MAP_FAILED);
	munmap(mmio, 4096);
}
END_TEST

/* Opens the render node and acquires its VM (as libhsakmt does). */
static void open_render_vm(void)
{
	minor = (uint32_t)read_prop(TOPO "/nodes/1/properties", "drm_render_minor");
	char path[64];
	snprintf(path, sizeof(path), "/dev/dri/renderD%u", minor);
	drm = open(path, O_RDWR | O_CLOEXEC);
	ck_assert_msg(drm >= 0, "open %s: %s", path, strerror(errno));
	struct kfd_args_acquire_vm acq = { .drm_fd = (uint32_t)drm, .gpu_id = gpu_id };
	ck_assert_msg(ioctl(kfd, KFD_IOCTL_ACQUIRE_VM, &acq) == 0, "ACQUIRE_VM: %s",
		      strerror(errno));
}

struct remap {
	uint64_t offset;
	void *got;
};

/* What another thread's mmap may do the moment munmap(2) has freed a
 * range: map a BO of its own there. */
static void map_second_bo_there(void *addr, size_t len, void *data)
{
	struct remap *r = data;
	r->got = mmap(addr, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, drm,
		      (off_t)r->offset);
}

static uint64_t hdp_cpu_faults(void)
{
	int (*counters)(uint64_t *) =
		(int (*)(uint64_t *))dlsym(RTLD_DEFAULT, "kfdemu_hdp_counters");
	uint64_t c[4];
	ck_assert_ptr_nonnull(counters);
	ck_assert_int_eq(counters(c), 0);
	ck_assert_uint_eq(c[0], 2); /* strict, the default */
	return c[3];
}

/*
 * The kernel drops what it tracks of a range (KFD's MMU notifier, the
 * mapping itself) inside munmap, before another thread can map the range;
 * the shim's stand-in must too.  Run after the system call, it would drop
 * the tracking of a VRAM mapping another thread made there meanwhile: that
 * mapping's clean pages stay write-protected with no record, and the first
 * CPU store to them dies with SIGSEGV.
 */
START_TEST(munmap_forgets_the_old_mapping_before_another_takes_the_range)
{
	open_render_vm();
	void *va = mmap(NULL, 0x4000, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	ck_assert_ptr_ne(va, MAP_FAILED);
	struct kfd_args_alloc_memory_of_gpu a[2];
	for (int i = 0; i < 2; i++) {
		a[i] = (struct kfd_args_alloc_memory_of_gpu){
			.va_addr = (uintptr_t)va + (uint64_t)i * 0x2000, .size = 0x2000,
			.gpu_id = gpu_id,
			.flags = KFD_ALLOC_VRAM | KFD_ALLOC_WRITABLE | KFD_ALLOC_PUBLIC };
		ck_assert_msg(ioctl(kfd, KFD_IOCTL_ALLOC_MEMORY_OF_GPU, &a[i]) == 0,
			      "ALLOC_MEMORY_OF_GPU: %s", strerror(errno));
	}
	volatile uint32_t *first = mmap(NULL, 0x2000, PROT_READ | PROT_WRITE, MAP_SHARED, drm,
					(off_t)a[0].mmap_offset);
	ck_assert_ptr_ne((void *)first, MAP_FAILED);
	uint64_t faults = hdp_cpu_faults();

	struct remap r = { .offset = a[1].mmap_offset, .got = MAP_FAILED };
	hl_munmap_hook_once(map_second_bo_there, &r);
	ck_assert_int_eq(munmap((void *)first, 0x2000), 0);
	ck_assert_ptr_eq(r.got, (void *)first);
	/* the second BO's clean page: write-protected and tracked, so the
	 * store is seen (one fault) and goes on */
	first[0] = 0x5eed;
	ck_assert_uint_eq(first[0], 0x5eed);
	ck_assert_uint_eq(hdp_cpu_faults(), faults + 1);

	ck_assert_int_eq(munmap((void *)first, 0x2000), 0);
	for (int i = 0; i < 2; i++) {
		struct kfd_args_free_memory_of_gpu f = { .handle = a[i].handle };
		ck_assert_int_eq(ioctl(kfd, KFD_IOCTL_FREE_MEMORY_OF_GPU, &f), 0);
	}
	munmap(va, 0x4000);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("kfdemu_shim");
	TCase *tc = tcase_create("shim");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, get_version_through_ioctl);
	tcase_add_test(tc, kfd_node_is_a_character_device);
	tcase_add_test(tc, topology_tree_is_visible_at_the_sysfs_path);
	tcase_add_test(tc, unknown_ioctl_fails_with_enotty);
	tcase_add_test(tc, alloc_mmap_map_through_the_render_node);
	tcase_add_test(tc, doorbell_and_mmio_mmap_through_kfd);
	suite_add_tcase(s, tc);
	/* a process of its own (ctest test_emu_shim_munmap, CK_RUN_CASE):
	 * its VM is acquired on a render fd of its own */
	TCase *um = tcase_create("munmap");
	tcase_add_checked_fixture(um, setup, teardown);
	tcase_add_test(um, munmap_forgets_the_old_mapping_before_another_takes_the_range);
	suite_add_tcase(s, um);
	return s;
}

int main(void)
{
	if (access("/dev/kfd", F_OK) != 0)
		return HL_SKIP;
	return hl_check_run(suite());
}
