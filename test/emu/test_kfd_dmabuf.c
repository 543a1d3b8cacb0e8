/*
 * kfdemu dma-buf ioctls: EXPORT_DMABUF, GET_DMABUF_INFO and IMPORT_DMABUF,
 * their validation and errno, and a second process (this binary exec'd
 * again with --import-child, with a kfdemu machine of its own) importing
 * over SCM_RIGHTS what the first exported and sharing its bytes both ways.
 */
#define _GNU_SOURCE
#include <stdatomic.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "emu_fixture.h"
#include "hl_fdpass.h"

#define EXPECT_ERR(call, err) ck_assert_int_eq((call), (err))
#define BUF_SIZE (64u << 10)
#define CHILD_VA 0x300000000ull

static long export_bo(uint64_t handle, uint32_t flags, int *fd)
{
	struct kfd_args_export_dmabuf a = { .handle = handle, .flags = flags };
	long r = kio(KFD_IOCTL_EXPORT_DMABUF, &a);
	if (!r)
		*fd = (int)a.dmabuf_fd;
	return r;
}

static long dmabuf_info(int fd, struct kfd_args_get_dmabuf_info *out)
{
	static uint8_t metadata[64];
	memset(out, 0, sizeof(*out));
	out->dmabuf_fd = (uint32_t)fd;
	out->metadata_ptr = (uintptr_t)metadata;
	out->metadata_size = sizeof(metadata);
	return kio(KFD_IOCTL_GET_DMABUF_INFO, out);
}

static long import_fd(int fd, uint32_t gpu_id, uint64_t va, uint64_t *handle)
{
	struct kfd_args_import_dmabuf a = { .va_addr = va, .gpu_id = gpu_id,
					    .dmabuf_fd = (uint32_t)fd };
	long r = kio(KFD_IOCTL_IMPORT_DMABUF, &a);
	if (!r && handle)
		*handle = a.handle;
	return r;
}

/* A VRAM buffer with a known pattern, mapped for the CPU through the
 * render node as user space does. */
static uint8_t *pattern_buffer(uint32_t extra_flags, uint64_t *handle)
{
	uint64_t va = emu_va(BUF_SIZE);
	struct kfd_args_alloc_memory_of_gpu a = {
		.va_addr = va, .size = BUF_SIZE, .gpu_id = E.gpu_id,
		.flags = KFD_ALLOC_VRAM | KFD_ALLOC_WRITABLE | extra_flags };
	ck_assert_int_eq(kio(KFD_IOCTL_ALLOC_MEMORY_OF_GPU, &a), 0);
	void *cpu;
	ck_assert_int_eq(kemu_mmap(E.m, NULL, BUF_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, E.drm,
				   a.mmap_offset, &cpu), 0);
	uint8_t *b = cpu;
	for (uint32_t i = 0; i < BUF_SIZE; i++)
		b[i] = (uint8_t)(i * 7 + 1);
	*handle = a.handle;
	return b;
}

START_TEST(export_gives_an_fd_of_the_same_memory)
{
	uint64_t h;
	uint8_t *cpu = pattern_buffer(KFD_ALLOC_PUBLIC, &h);
	int fd;
	ck_assert_int_eq(export_bo(h, O_RDWR | O_CLOEXEC, &fd), 0);
	ck_assert_int_eq(fcntl(fd, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
	uint8_t *view = mmap(NULL, BUF_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ck_assert_ptr_ne(view, MAP_FAILED);
	ck_assert_int_eq(memcmp(view, cpu, BUF_SIZE), 0);
	view[100] = 0xEE;
	ck_assert_uint_eq(cpu[100], 0xEE);
	/* a second export is another fd of the same dma-buf */
	int fd2;
	ck_assert_int_eq(export_bo(h, 0, &fd2), 0);
	ck_assert_int_ne(fd2, fd);
	ck_assert_int_eq(fcntl(fd2, F_GETFD) & FD_CLOEXEC, 0);
	struct stat s1, s2;
	ck_assert_int_eq(fstat(fd, &s1), 0);
	ck_assert_int_eq(fstat(fd2, &s2), 0);
	ck_assert_uint_eq(s1.st_ino, s2.st_ino);
	ck_assert_int_eq(s1.st_size, BUF_SIZE);
	munmap(view, BUF_SIZE);
	munmap(cpu, BUF_SIZE);
	close(fd);
	close(fd2);
}
END_TEST

START_TEST(export_of_a_read_only_bo_is_a_read_only_file)
{
	uint64_t h;
	ck_assert_int_eq(emu_alloc_at(emu_va(BUF_SIZE), BUF_SIZE, KFD_ALLOC_GTT, &h), 0);
	int fd;
	ck_assert_int_eq(export_bo(h, O_CLOEXEC, &fd), 0);
	ck_assert_ptr_eq(mmap(NULL, BUF_SIZE, PROT_WRITE, MAP_SHARED, fd, 0), MAP_FAILED);
	ck_assert_int_eq(errno, EACCES);
	close(fd);
}
END_TEST

START_TEST(export_errors_are_the_kernels)
{
	int fd;
	uint64_t h;
	ck_assert_int_eq(emu_alloc_at(emu_va(BUF_SIZE), BUF_SIZE, KFD_ALLOC_GTT, &h), 0);
	EXPECT_ERR(export_bo(h ^ (0x4000ull << 32), 0, &fd), -EINVAL); /* unknown gpu */
	EXPECT_ERR(export_bo(h + 100, 0, &fd), -EINVAL);                /* unknown handle */
	static uint8_t user[BUF_SIZE] __attribute__((aligned(4096)));
	struct kfd_args_alloc_memory_of_gpu a = {
		.va_addr = emu_va(BUF_SIZE), .size = BUF_SIZE, .gpu_id = E.gpu_id,
		.flags = KFD_ALLOC_USERPTR | KFD_ALLOC_WRITABLE, .mmap_offset = (uintptr_t)user };
	ck_assert_int_eq(kio(KFD_IOCTL_ALLOC_MEMORY_OF_GPU, &a), 0);
	EXPECT_ERR(export_bo(a.handle, 0, &fd), -EPERM); /* amdgpu_gem_prime_export */
}
END_TEST

START_TEST(dmabuf_info_reports_size_gpu_and_domain)
{
	uint64_t h;
	uint8_t *cpu = pattern_buffer(KFD_ALLOC_PUBLIC, &h);
	int fd;
	ck_assert_int_eq(export_bo(h, O_CLOEXEC, &fd), 0);
	struct kfd_args_get_dmabuf_info info;
	ck_assert_int_eq(dmabuf_info(fd, &info), 0);
	ck_assert_uint_eq(info.size, BUF_SIZE);
	ck_assert_uint_eq(info.gpu_id, E.gpu_id);
	ck_assert_uint_eq(info.flags, KFD_ALLOC_VRAM | KFD_ALLOC_PUBLIC);
	ck_assert_uint_eq(info.metadata_size, 0);
	close(fd);
	munmap(cpu, BUF_SIZE);

	ck_assert_int_eq(emu_alloc_at(emu_va(3 * 4096 + 1), 3 * 4096 + 1,
				      KFD_ALLOC_GTT | KFD_ALLOC_WRITABLE, &h), 0);
	ck_assert_int_eq(export_bo(h, O_CLOEXEC, &fd), 0);
	/* no metadata buffer: metadata_size is left as it was */
	struct kfd_args_get_dmabuf_info i2 = { .dmabuf_fd = (uint32_t)fd, .metadata_size = 77 };
	ck_assert_int_eq(kio(KFD_IOCTL_GET_DMABUF_INFO, &i2), 0);
	ck_assert_uint_eq(i2.size, 4 * 4096);
	ck_assert_uint_eq(i2.flags, KFD_ALLOC_GTT);
	ck_assert_uint_eq(i2.metadata_size, 77);
	/* kzalloc of an absurd metadata buffer fails first */
	i2.metadata_ptr = 4096;
	i2.metadata_size = 64u << 20;
	EXPECT_ERR(kio(KFD_IOCTL_GET_DMABUF_INFO, &i2), -ENOMEM);
	close(fd);
}
END_TEST

START_TEST(dmabuf_info_of_other_files_fails)
{
	struct kfd_args_get_dmabuf_info info;
	EXPECT_ERR(dmabuf_info(987, &info), -EBADF);      /* not open */
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
	EXPECT_ERR(dmabuf_info(null, &info), -EINVAL);    /* not a dma-buf */
	close(null);
	int plain = memfd_create("kfdemu-bo:1:1", MFD_CLOEXEC);
	EXPECT_ERR(dmabuf_info(plain, &info), -EINVAL);   /* looks like one, is not */
	close(plain);
	/* a doorbell BO exports (a CPU-domain BO), but only VRAM/GTT have info */
	uint64_t h;
	ck_assert_int_eq(emu_alloc_at(emu_va(KFD_DOORBELL_SLICE_SIZE), KFD_DOORBELL_SLICE_SIZE,
				      KFD_ALLOC_DOORBELL | KFD_ALLOC_WRITABLE, &h), 0);
	int fd;
	ck_assert_int_eq(export_bo(h, O_CLOEXEC, &fd), 0);
	EXPECT_ERR(dmabuf_info(fd, &info), -EINVAL);
	EXPECT_ERR(import_fd(fd, E.gpu_id, emu_va(KFD_DOORBELL_SLICE_SIZE), NULL), -EINVAL);
	/* its pages are the doorbells */
	uint64_t *db = mmap(NULL, KFD_DOORBELL_SLICE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ck_assert_ptr_ne(db, MAP_FAILED);
	db[5] = 1234;
	ck_assert_uint_eq(atomic_load(&kemu_doorbell_slice(E.p, E.gpu_id)[5]), 1234);
	munmap(db, KFD_DOORBELL_SLICE_SIZE);
	close(fd);
}
END_TEST

START_TEST(import_on_the_same_gpu_shares_the_bytes)
{
	uint64_t h;
	uint8_t *cpu = pattern_buffer(0, &h);
	int fd;
	ck_assert_int_eq(export_bo(h, O_CLOEXEC, &fd), 0);
	uint64_t va = emu_va(BUF_SIZE), h2;
	ck_assert_int_eq(import_fd(fd, E.gpu_id, va, &h2), 0);
	ck_assert_uint_eq(h2 >> 32, E.gpu_id);
	ck_assert_uint_ne(h2, h);
	ck_assert_int_eq(emu_map(h2), 0);
	uint8_t got[256];
	ck_assert_int_eq(kemu_vm_read(E.p, E.gpu_id, va + 4096, got, sizeof(got), NULL), 0);
	ck_assert_int_eq(memcmp(got, cpu + 4096, sizeof(got)), 0);
	/* imported memory is GPU-writable whatever the exporter asked */
	uint32_t v = 0xC0FFEE;
	ck_assert_int_eq(kemu_vm_write(E.p, E.gpu_id, va + 8, &v, sizeof(v), NULL), 0);
	ck_assert_int_eq(memcmp(cpu + 8, &v, sizeof(v)), 0);
	/* re-exporting the import gives the same dma-buf */
	int fd2;
	ck_assert_int_eq(export_bo(h2, O_CLOEXEC, &fd2), 0);
	struct stat s1, s2;
	ck_assert_int_eq(fstat(fd, &s1), 0);
	ck_assert_int_eq(fstat(fd2, &s2), 0);
	ck_assert_uint_eq(s1.st_ino, s2.st_ino);
	ck_assert_int_eq(emu_unmap(h2), 0);
	struct kfd_args_free_memory_of_gpu f = { .handle = h2 };
	ck_assert_int_eq(kio(KFD_IOCTL_FREE_MEMORY_OF_GPU, &f), 0);
	close(fd);
	close(fd2);
	munmap(cpu, BUF_SIZE);
}
END_TEST

START_TEST(import_is_not_charged_to_vram)
{
	uint64_t h;
	uint8_t *cpu = pattern_buffer(0, &h);
	int fd;
	ck_assert_int_eq(export_bo(h, O_CLOEXEC, &fd), 0);
	struct kfd_args_available_memory before = { .gpu_id = E.gpu_id }, after = before;
	ck_assert_int_eq(kio(KFD_IOCTL_AVAILABLE_MEMORY, &before), 0);
	ck_assert_int_eq(import_fd(fd, E.gpu_id, emu_va(BUF_SIZE), NULL), 0);
	ck_assert_int_eq(kio(KFD_IOCTL_AVAILABLE_MEMORY, &after), 0);
	ck_assert_uint_eq(after.available, before.available);
	close(fd);
	munmap(cpu, BUF_SIZE);
}
END_TEST

START_TEST(dmabuf_outlives_the_exporters_bo)
{
	uint64_t h;
	uint8_t *cpu = pattern_buffer(0, &h);
	uint8_t expect[64];
	memcpy(expect, cpu + 512, sizeof(expect));
	munmap(cpu, BUF_SIZE);
	int fd;
	ck_assert_int_eq(export_bo(h, O_CLOEXEC, &fd), 0);
	struct kfd_args_free_memory_of_gpu f = { .handle = h };
	ck_assert_int_eq(kio(KFD_IOCTL_FREE_MEMORY_OF_GPU, &f), 0);
	uint64_t va = emu_va(BUF_SIZE), h2;
	ck_assert_int_eq(import_fd(fd, E.gpu_id, va, &h2), 0);
	ck_assert_int_eq(emu_map(h2), 0);
	uint8_t got[64];
	ck_assert_int_eq(kemu_vm_read(E.p, E.gpu_id, va + 512, got, sizeof(got), NULL), 0);
	ck_assert_int_eq(memcmp(got, expect, sizeof(got)), 0);
	close(fd);
}
END_TEST

START_TEST(import_errors_are_the_kernels)
{
	uint64_t h;
	ck_assert_int_eq(emu_alloc_at(emu_va(BUF_SIZE), BUF_SIZE, KFD_ALLOC_GTT, &h), 0);
	int fd;
	ck_assert_int_eq(export_bo(h, O_CLOEXEC, &fd), 0);
	EXPECT_ERR(import_fd(fd, E.gpu_id ^ 0x4000, emu_va(BUF_SIZE), NULL), -EINVAL);
	EXPECT_ERR(import_fd(999, E.gpu_id, emu_va(BUF_SIZE), NULL), -EBADF);
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
	EXPECT_ERR(import_fd(null, E.gpu_id, emu_va(BUF_SIZE), NULL), -EINVAL);
	close(null);
	close(fd);
}
END_TEST

START_TEST(import_before_acquire_vm_is_enodev)
{
	/* a second machine stands for another process whose VM is not bound */
	struct kemu_topology t;
	struct kemu_machine *m2;
	ck_assert_int_eq(kemu_topology_create("mi210", 1, false, &t), 0);
	struct kemu_machine_options o = { .size = sizeof(o), .log_level = KEMU_LOG_NONE };
	ck_assert_int_eq(kemu_machine_create(&t, &o, &m2), 0);
	int kfd = kemu_open(m2, "/dev/kfd", O_RDWR | O_CLOEXEC);
	uint64_t h;
	ck_assert_int_eq(emu_alloc_at(emu_va(BUF_SIZE), BUF_SIZE, KFD_ALLOC_GTT, &h), 0);
	int fd;
	ck_assert_int_eq(export_bo(h, O_CLOEXEC, &fd), 0);
	struct kfd_args_import_dmabuf a = { .va_addr = emu_va(BUF_SIZE),
					    .gpu_id = t.gpus[0].gpu_id, .dmabuf_fd = (uint32_t)fd };
	EXPECT_ERR(kemu_ioctl(m2, kfd, KFD_IOCTL_IMPORT_DMABUF, &a), -ENODEV);
	close(fd);
	kemu_close(m2, kfd);
	kemu_machine_destroy(m2);
	kemu_topology_destroy(&t);
}
END_TEST

/* ---- a second process ---- */

struct share_msg {
	uint64_t size;
	uint32_t gpu_id;
	uint32_t flags;
};

#define CHILD_CHECK(cond, code)                                                 \
	do {                                                                    \
		if (!(cond)) {                                                  \
			fprintf(stderr, "import child: %s failed\n", #cond);    \
			return (code);                                          \
		}                                                               \
	} while (0)

/* The importing process: a kfdemu machine of its own, the fd from the
 * socket, the exporter's bytes read through its own GPU VM, and a write
 * back that the exporter must see. */
static int import_child(int sock)
{
	struct kemu_topology t;
	struct kemu_machine *m;
	CHILD_CHECK(kemu_topology_create("mi210", 1, false, &t) == 0, 10);
	struct kemu_machine_options o = { .size = sizeof(o), .log_level = KEMU_LOG_NONE };
	CHILD_CHECK(kemu_machine_create(&t, &o, &m) == 0, 11);
	uint32_t gpu_id = t.gpus[0].gpu_id;
	char path[64];
	snprintf(path, sizeof(path), "/dev/dri/renderD%u", t.gpus[0].drm_render_minor);
	int kfd = kemu_open(m, "/dev/kfd", O_RDWR | O_CLOEXEC);
	int drm = kemu_open(m, path, O_RDWR | O_CLOEXEC);
	CHILD_CHECK(kfd >= 0 && drm >= 0, 12);
	struct kfd_args_acquire_vm av = { .drm_fd = (uint32_t)drm, .gpu_id = gpu_id };
	CHILD_CHECK(kemu_ioctl(m, kfd, KFD_IOCTL_ACQUIRE_VM, &av) == 0, 13);

	struct share_msg msg;
	int fd = hl_recv_fd(sock, &msg, sizeof(msg));
	CHILD_CHECK(fd >= 0, 14);
	struct kfd_args_get_dmabuf_info info = { .dmabuf_fd = (uint32_t)fd };
	CHILD_CHECK(kemu_ioctl(m, kfd, KFD_IOCTL_GET_DMABUF_INFO, &info) == 0, 15);
	CHILD_CHECK(info.size == msg.size && info.gpu_id == msg.gpu_id &&
		    info.flags == msg.flags, 16);
	CHILD_CHECK(info.gpu_id == gpu_id, 17);
	struct kfd_args_import_dmabuf im = { .va_addr = CHILD_VA, .gpu_id = gpu_id,
					     .dmabuf_fd = (uint32_t)fd };
	CHILD_CHECK(kemu_ioctl(m, kfd, KFD_IOCTL_IMPORT_DMABUF, &im) == 0, 18);
	uint32_t ids[1] = { gpu_id };
	struct kfd_args_map_memory_to_gpu mp = { .handle = im.handle,
						 .device_ids_array_ptr = (uintptr_t)ids,
						 .n_devices = 1 };
	CHILD_CHECK(kemu_ioctl(m, kfd, KFD_IOCTL_MAP_MEMORY_TO_GPU, &mp) == 0, 19);
	struct kemu_process *p = kemu_process_find(m, getpid());
	static uint8_t got[BUF_SIZE];
	CHILD_CHECK(kemu_vm_read(p, gpu_id, CHILD_VA, got, BUF_SIZE, NULL) == 0, 20);
	for (uint32_t i = 0; i < BUF_SIZE; i++)
		CHILD_CHECK(got[i] == (uint8_t)(i * 7 + 1), 21);
	uint8_t mark[4096];
	memset(mark, 0xA5, sizeof(mark));
	CHILD_CHECK(kemu_vm_write(p, gpu_id, CHILD_VA + 4096, mark, sizeof(mark), NULL) == 0, 22);
	char ok = 'k';
	CHILD_CHECK(write(sock, &ok, 1) == 1, 23);
	close(fd);
	kemu_close(m, drm);
	kemu_close(m, kfd);
	kemu_machine_destroy(m);
	kemu_topology_destroy(&t);
	return 0;
}

START_TEST(second_process_imports_over_a_unix_socket)
{
	uint64_t h;
	uint8_t *cpu = pattern_buffer(KFD_ALLOC_PUBLIC, &h);
	int fd;
	ck_assert_int_eq(export_bo(h, O_CLOEXEC, &fd), 0);
	int sv[2];
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		/* a fresh program: its own kfdemu machine, only the socket kept */
		char arg[16];
		int s = dup(sv[1]);
		snprintf(arg, sizeof(arg), "%d", s);
		execl("/proc/self/exe", "test_emu_kfd_dmabuf", "--import-child", arg, (char *)NULL);
		_exit(127);
	}
	close(sv[1]);
	struct share_msg msg = { .size = BUF_SIZE, .gpu_id = E.gpu_id,
				 .flags = KFD_ALLOC_VRAM | KFD_ALLOC_PUBLIC };
	ck_assert_int_eq(hl_send_fd(sv[0], fd, &msg, sizeof(msg)), 0);
	close(fd); /* the child holds the dma-buf now */
	char ok = 0;
	ssize_t n = read(sv[0], &ok, 1);
	int st;
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child status 0x%x", st);
	ck_assert_int_eq(n, 1);
	ck_assert_int_eq(ok, 'k');
	for (uint32_t i = 0; i < 4096; i++)
		ck_assert_uint_eq(cpu[4096 + i], 0xA5);
	ck_assert_uint_eq(cpu[8192], (uint8_t)(8192 * 7 + 1));
	close(sv[0]);
	munmap(cpu, BUF_SIZE);
}
END_TEST

static Suite *dmabuf_suite(void)
{
	Suite *s = suite_create("kfdemu_dmabuf");
	TCase *tc = tcase_create("dmabuf");
	tcase_add_checked_fixture(tc, emu_setup, emu_teardown);
	tcase_add_test(tc, export_gives_an_fd_of_the_same_memory);
	tcase_add_test(tc, export_of_a_read_only_bo_is_a_read_only_file);
	tcase_add_test(tc, export_errors_are_the_kernels);
	tcase_add_test(tc, dmabuf_info_reports_size_gpu_and_domain);
	tcase_add_test(tc, dmabuf_info_of_other_files_fails);
	tcase_add_test(tc, import_on_the_same_gpu_shares_the_bytes);
	tcase_add_test(tc, import_is_not_charged_to_vram);
	tcase_add_test(tc, dmabuf_outlives_the_exporters_bo);
	tcase_add_test(tc, import_errors_are_the_kernels);
	tcase_add_test(tc, import_before_acquire_vm_is_enodev);
	tcase_add_test(tc, second_process_imports_over_a_unix_socket);
	suite_add_tcase(s, tc);
	return s;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--import-child"))
		return import_child(atoi(argv[2]));
	return hl_check_run(dmabuf_suite());
}
