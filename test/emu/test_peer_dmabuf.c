/*
 * A dma-buf crossing two programs under the launcher, each with a kfdemu
 * machine of its own, the importer being stock ROCr 5.2.3:
 *   - this test (the exporter) allocates a VRAM buffer through raw KFD
 *     ioctls on /dev/kfd (the shim), fills it through its render-node
 *     mapping and exports it (EXPORT_DMABUF);
 *   - it fork+execs itself as --importer, which inherits the launcher's
 *     environment (a fresh shim and machine), receives the fd over a unix
 *     socket (SCM_RIGHTS) and hands it to ROCr's hsa_amd_interop_map_buffer
 *     (libhsakmt: GET_DMABUF_INFO, IMPORT_DMABUF, MAP_MEMORY_TO_GPU); ROCr's
 *     blit kernels copy the buffer to host memory and a new page back in;
 *   - the exporter sees that page in its own mapping.
 * Built against /usr/include/hsa and linked against Debian's ROCr only;
 * exits 77 without a GPU agent.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include "hl_fdpass.h"
#include "hl_hsa.h"
#include "amd/kfd_uapi.h"

#define BUF_SIZE (256u << 10)
#define BUF_VA 0x100000000ull

static uint8_t pattern(uint32_t i)
{
	return (uint8_t)(i * 13 + 5);
}

/* ---- the importer: stock ROCr ---- */

static hsa_agent_t gpu, cpu;
static hsa_amd_memory_pool_t sys_pool;
static bool have_gpu, have_cpu, have_sys;

static hsa_status_t find_sys_pool(hsa_amd_memory_pool_t p, void *data)
{
	(void)data;
	hsa_amd_segment_t seg;
	uint32_t flags = 0;
	bool alloc = false;
	hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg);
	hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &alloc);
	hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags);
	if (seg == HSA_AMD_SEGMENT_GLOBAL && alloc &&
	    (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED) && !have_sys) {
		sys_pool = p;
		have_sys = true;
	}
	return HSA_STATUS_SUCCESS;
}

#define IMPORTER_CHECK(cond, code)                                               \
	do {                                                                     \
		if (!(cond)) {                                                   \
			fprintf(stderr, "importer: %s failed\n", #cond);         \
			return (code);                                           \
		}                                                                \
	} while (0)

static int rocr_copy(void *dst, hsa_agent_t dst_agent, const void *src, hsa_agent_t src_agent,
		     size_t size)
{
	hsa_signal_t s;
	if (hsa_signal_create(1, 0, NULL, &s) != HSA_STATUS_SUCCESS)
		return -1;
	int r = hsa_amd_memory_async_copy(dst, dst_agent, src, src_agent, size, 0, NULL, s) ==
				HSA_STATUS_SUCCESS &&
			hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_LT, 1, 30000000000ull,
						  HSA_WAIT_STATE_BLOCKED) == 0
		? 0
		: -1;
	hsa_signal_destroy(s);
	return r;
}

static int importer(int sock)
{
	IMPORTER_CHECK(hsa_init() == HSA_STATUS_SUCCESS, 10);
	hl_first_agents(&gpu, &have_gpu, &cpu, &have_cpu);
	if (!have_gpu || !have_cpu)
		return HL_SKIP;
	hsa_amd_agent_iterate_memory_pools(cpu, find_sys_pool, NULL);
	IMPORTER_CHECK(have_sys, 11);
	char byte;
	int fd = hl_recv_fd(sock, &byte, 1);
	IMPORTER_CHECK(fd >= 0, 12);

	size_t size = 0, md_size = 99;
	void *ptr = NULL;
	const void *md = NULL;
	hsa_status_t st = hsa_amd_interop_map_buffer(1, &gpu, fd, 0, &size, &ptr, &md_size, &md);
	if (st != HSA_STATUS_SUCCESS)
		fprintf(stderr, "importer: hsa_amd_interop_map_buffer: 0x%x\n", st);
	IMPORTER_CHECK(st == HSA_STATUS_SUCCESS, 13);
	IMPORTER_CHECK(size == BUF_SIZE && ptr && md_size == 0, 14);

	uint8_t *host = NULL;
	IMPORTER_CHECK(hsa_amd_memory_pool_allocate(sys_pool, BUF_SIZE, 0, (void **)&host) ==
			       HSA_STATUS_SUCCESS, 15);
	IMPORTER_CHECK(hsa_amd_agents_allow_access(1, &gpu, NULL, host) == HSA_STATUS_SUCCESS, 16);
	memset(host, 0, BUF_SIZE);
	IMPORTER_CHECK(rocr_copy(host, cpu, ptr, gpu, BUF_SIZE) == 0, 17);
	for (uint32_t i = 0; i < BUF_SIZE; i++) {
		if (host[i] != pattern(i)) {
			fprintf(stderr, "importer: byte %u is 0x%x, expected 0x%x\n", i, host[i],
				pattern(i));
			return 18;
		}
	}
	memset(host, 0x5A, 4096);
	IMPORTER_CHECK(rocr_copy((uint8_t *)ptr + 4096, gpu, host, cpu, 4096) == 0, 19);
	IMPORTER_CHECK(hsa_amd_interop_unmap_buffer(ptr) == HSA_STATUS_SUCCESS, 20);
	hsa_amd_memory_pool_free(host);
	close(fd);
	hsa_shut_down();
	char ok = 'k';
	IMPORTER_CHECK(write(sock, &ok, 1) == 1, 21);
	return 0;
}

/* ---- the exporter: raw KFD ioctls through the shim ---- */

static unsigned read_sysfs_uint(const char *path, const char *key)
{
	FILE *f = fopen(path, "r");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	char name[64];
	unsigned long long v = 0, found = 0;
	if (!key) {
		ck_assert_int_eq(fscanf(f, "%llu", &v), 1);
		found = 1;
	} else {
		while (fscanf(f, "%63s %llu", name, &v) == 2) {
			if (!strcmp(name, key)) {
				found = 1;
				break;
			}
		}
	}
	fclose(f);
	ck_assert_msg(found, "no %s in %s", key ? key : "value", path);
	return (unsigned)v;
}

START_TEST(rocr_in_another_process_imports_the_exported_buffer)
{
	const char *node = "/sys/class/kfd/kfd/topology/nodes/1";
	char path[128];
	snprintf(path, sizeof(path), "%s/gpu_id", node);
	uint32_t gpu_id = read_sysfs_uint(path, NULL);
	snprintf(path, sizeof(path), "%s/properties", node);
	unsigned minor = read_sysfs_uint(path, "drm_render_minor");
	int kfd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
	if (kfd < 0) {
		fprintf(stderr, "no /dev/kfd: skipped\n");
		exit(HL_SKIP);
	}
	snprintf(path, sizeof(path), "/dev/dri/renderD%u", minor);
	int drm = open(path, O_RDWR | O_CLOEXEC);
	ck_assert_int_ge(drm, 0);
	struct kfd_args_acquire_vm av = { .drm_fd = (uint32_t)drm, .gpu_id = gpu_id };
	ck_assert_int_eq(ioctl(kfd, KFD_IOCTL_ACQUIRE_VM, &av), 0);
	struct kfd_args_alloc_memory_of_gpu a = {
		.va_addr = BUF_VA, .size = BUF_SIZE, .gpu_id = gpu_id,
		.flags = KFD_ALLOC_VRAM | KFD_ALLOC_PUBLIC | KFD_ALLOC_WRITABLE };
	ck_assert_int_eq(ioctl(kfd, KFD_IOCTL_ALLOC_MEMORY_OF_GPU, &a), 0);
	uint8_t *cpu_map = mmap(NULL, BUF_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, drm,
				(off_t)a.mmap_offset);
	ck_assert_ptr_ne(cpu_map, MAP_FAILED);
	for (uint32_t i = 0; i < BUF_SIZE; i++)
		cpu_map[i] = pattern(i);
	struct kfd_args_export_dmabuf ex = { .handle = a.handle, .flags = O_CLOEXEC };
	ck_assert_int_eq(ioctl(kfd, KFD_IOCTL_EXPORT_DMABUF, &ex), 0);

	int sv[2];
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		char arg[16];
		snprintf(arg, sizeof(arg), "%d", dup(sv[1]));
		execl("/proc/self/exe", "test_emu_peer_dmabuf", "--importer", arg, (char *)NULL);
		_exit(127);
	}
	close(sv[1]);
	ck_assert_int_eq(hl_send_fd(sv[0], (int)ex.dmabuf_fd, "f", 1), 0);
	close((int)ex.dmabuf_fd);
	char ok = 0;
	ssize_t n = read(sv[0], &ok, 1);
	int st;
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	if (WIFEXITED(st) && WEXITSTATUS(st) == HL_SKIP) {
		fprintf(stderr, "importer: ROCr found no GPU agent: skipped\n");
		exit(HL_SKIP);
	}
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "importer status 0x%x", st);
	ck_assert_int_eq(n, 1);
	for (uint32_t i = 0; i < 4096; i++)
		ck_assert_msg(cpu_map[4096 + i] == 0x5A, "byte %u is 0x%x after ROCr's copy",
			      4096 + i, cpu_map[4096 + i]);
	ck_assert_uint_eq(cpu_map[8192], pattern(8192));
	close(sv[0]);
	munmap(cpu_map, BUF_SIZE);
	struct kfd_args_free_memory_of_gpu f = { .handle = a.handle };
	ck_assert_int_eq(ioctl(kfd, KFD_IOCTL_FREE_MEMORY_OF_GPU, &f), 0);
	close(drm);
	close(kfd);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("peer_dmabuf");
	TCase *tc = tcase_create("dmabuf");
	tcase_set_timeout(tc, 240);
	tcase_add_test(tc, rocr_in_another_process_imports_the_exported_buffer);
	suite_add_tcase(s, tc);
	return s;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--importer"))
		return importer(atoi(argv[2]));
	return hl_check_run(suite());
}
