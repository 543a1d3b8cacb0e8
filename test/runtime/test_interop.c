/*
 * Graphics interop: hsa_amd_interop_map_buffer / _unmap_buffer on a
 * dma-buf made by another process.
 *
 * The suite fork+execs this binary as --exporter (under the launcher, a
 * process with a kfdemu machine of its own, as a graphics driver's client
 * would be): it allocates a VRAM BO with raw KFD ioctls, fills it through
 * its render-node mapping, exports it (EXPORT_DMABUF) and sends the fd over
 * a unix socket (SCM_RIGHTS); later, told so, it checks the page the suite
 * wrote.  The suite, after hsa_init, maps the fd and checks the size,
 * metadata, pointer info, the bytes (GPU copies both ways), the unmap and
 * ROCr's statuses for mistakes.
 *
 * One binary for both runtimes: runtime_interop (hsalite) and
 * runtime_interop_rocr (Debian's ROCr 5.2.3 first on LD_LIBRARY_PATH), so
 * each expectation is ROCr's; INTEROP_CPU_VIEW=1 (hsalite's run) also reads
 * the mapping through the CPU.  hsa_amd_interop_map_buffer_with_size (AMD's
 * header 1.29, newer than both peers) is looked up at run time: the peers
 * lack it, and INTEROP_WITH_SIZE=1 (hsalite's run) requires it; its
 * expectations are ROCr's source's (rocm-systems hsa_ext_amd.cpp and
 * Runtime::InteropMap).  Exits 77 without a GPU.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hl_fdpass.h"
#include "hl_hsa.h"
#include "hsa/hsa.h"
#include "hsa/hsa_ext_amd.h"
#include "amd/kfd_uapi.h"

#define BUF_SIZE (256u << 10)
#define BUF_VA 0x100000000ull

static uint8_t pattern(uint32_t i)
{
	return (uint8_t)(i * 7 + 3);
}

/* ---- the exporter: raw KFD ioctls, no HSA runtime ---- */

static int read_sysfs(const char *path, const char *key, unsigned long long *out)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	char name[64];
	unsigned long long v;
	int found = -1;
	if (!key) {
		found = fscanf(f, "%llu", &v) == 1 ? 0 : -1;
	} else {
		while (fscanf(f, "%63s %llu", name, &v) == 2)
			if (!strcmp(name, key)) {
				found = 0;
				break;
			}
	}
	fclose(f);
	*out = v;
	return found;
}

#define EXPORTER_CHECK(cond, code)                                               \
	do {                                                                     \
		if (!(cond)) {                                                   \
			fprintf(stderr, "exporter: %s failed\n", #cond);         \
			return (code);                                           \
		}                                                                \
	} while (0)

static int exporter(int sock)
{
	unsigned long long gpu_id, minor;
	EXPORTER_CHECK(read_sysfs("/sys/class/kfd/kfd/topology/nodes/1/gpu_id", NULL,
				  &gpu_id) == 0, 10);
	EXPORTER_CHECK(read_sysfs("/sys/class/kfd/kfd/topology/nodes/1/properties",
				  "drm_render_minor", &minor) == 0, 11);
	int kfd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
	EXPORTER_CHECK(kfd >= 0, 12);
	char path[64];
	snprintf(path, sizeof(path), "/dev/dri/renderD%llu", minor);
	int drm = open(path, O_RDWR | O_CLOEXEC);
	EXPORTER_CHECK(drm >= 0, 13);
	struct kfd_args_acquire_vm av = { .drm_fd = (uint32_t)drm, .gpu_id = (uint32_t)gpu_id };
	EXPORTER_CHECK(ioctl(kfd, KFD_IOCTL_ACQUIRE_VM, &av) == 0, 14);
	struct kfd_args_alloc_memory_of_gpu a = {
		.va_addr = BUF_VA, .size = BUF_SIZE, .gpu_id = (uint32_t)gpu_id,
		.flags = KFD_ALLOC_VRAM | KFD_ALLOC_PUBLIC | KFD_ALLOC_WRITABLE };
	EXPORTER_CHECK(ioctl(kfd, KFD_IOCTL_ALLOC_MEMORY_OF_GPU, &a) == 0, 15);
	uint8_t *cpu = mmap(NULL, BUF_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, drm,
			    (off_t)a.mmap_offset);
	EXPORTER_CHECK(cpu != MAP_FAILED, 16);
	for (uint32_t i = 0; i < BUF_SIZE; i++)
		cpu[i] = pattern(i);
	struct kfd_args_export_dmabuf ex = { .handle = a.handle, .flags = O_CLOEXEC };
	EXPORTER_CHECK(ioctl(kfd, KFD_IOCTL_EXPORT_DMABUF, &ex) == 0, 17);
	EXPORTER_CHECK(hl_send_fd(sock, (int)ex.dmabuf_fd, "f", 1) == 0, 18);
	close((int)ex.dmabuf_fd);

	/* The suite wrote 0xA5 over the second page: check it and answer. */
	char cmd;
	EXPORTER_CHECK(read(sock, &cmd, 1) == 1, 19);
	char ok = 'y';
	for (uint32_t i = 4096; i < 8192; i++)
		if (cpu[i] != 0xA5)
			ok = 'n';
	if (cpu[0] != pattern(0) || cpu[8192] != pattern(8192))
		ok = 'n';
	EXPORTER_CHECK(write(sock, &ok, 1) == 1, 20);
	munmap(cpu, BUF_SIZE);
	struct kfd_args_free_memory_of_gpu f = { .handle = a.handle };
	EXPORTER_CHECK(ioctl(kfd, KFD_IOCTL_FREE_MEMORY_OF_GPU, &f) == 0, 21);
	close(drm);
	close(kfd);
	return 0;
}

/* ---- the suite: the runtime under test ---- */

static hsa_agent_t gpu, cpu;
static hsa_amd_memory_pool_t sys_pool;
static bool have_gpu, have_cpu, have_sys;
static int sock = -1, dmabuf = -1;
static pid_t child;

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

static void copy(void *dst, hsa_agent_t dst_agent, const void *src, hsa_agent_t src_agent,
		 size_t size)
{
	hsa_signal_t s;
	ck_status(hsa_signal_create(1, 0, NULL, &s), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_async_copy(dst, dst_agent, src, src_agent, size, 0, NULL, s),
		  HSA_STATUS_SUCCESS);
	ck_assert_int_eq(hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_LT, 1,
						   60000000000ull, HSA_WAIT_STATE_BLOCKED), 0);
	hsa_signal_destroy(s);
}

static void setup(void)
{
	int sv[2];
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	child = fork();
	ck_assert_int_ge(child, 0);
	if (child == 0) {
		char arg[16];
		snprintf(arg, sizeof(arg), "%d", dup(sv[1]));
		execl("/proc/self/exe", "runtime_interop", "--exporter", arg, (char *)NULL);
		_exit(127);
	}
	close(sv[1]);
	sock = sv[0];
	char byte;
	dmabuf = hl_recv_fd(sock, &byte, 1);
	ck_assert_msg(dmabuf >= 0, "no dma-buf from the exporter");

	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	hl_first_agents(&gpu, &have_gpu, &cpu, &have_cpu);
	if (!have_gpu || !have_cpu) {
		fprintf(stderr, "no GPU agent: skipped\n");
		exit(HL_SKIP);
	}
	hsa_amd_agent_iterate_memory_pools(cpu, find_sys_pool, NULL);
	ck_assert(have_sys);
}

START_TEST(map_read_write_unmap)
{
	setup();
	size_t size = 0, md_size = 99;
	void *ptr = NULL;
	const void *md = NULL;
	ck_status(hsa_amd_interop_map_buffer(1, &gpu, dmabuf, 0, &size, &ptr, &md_size, &md),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(size, BUF_SIZE);
	ck_assert_ptr_nonnull(ptr);
	/* A BO made through KFD carries no metadata (DRM_AMDGPU_GEM_METADATA
	 * sets it); the buffer libhsakmt passed the kernel is still given. */
	ck_assert_uint_eq(md_size, 0);
	ck_assert_ptr_nonnull(md);
	ck_assert_uint_eq((uintptr_t)ptr % (256u << 10), 0);

	/* Pointer info: libhsakmt's registered graphics BO. */
	hsa_amd_pointer_info_t info;
	memset(&info, 0, sizeof(info));
	info.size = sizeof(info);
	uint32_t n = 0;
	hsa_agent_t *list = NULL;
	ck_status(hsa_amd_pointer_info((uint8_t *)ptr + 4096, &info, malloc, &n, &list),
		  HSA_STATUS_SUCCESS);
	ck_assert_int_eq(info.type, HSA_EXT_POINTER_TYPE_GRAPHICS);
	ck_assert_ptr_eq(info.agentBaseAddress, ptr);
	ck_assert_ptr_null(info.hostBaseAddress);
	ck_assert_uint_eq(info.sizeInBytes, BUF_SIZE);
	ck_assert_uint_eq(info.agentOwner.handle, gpu.handle);
	ck_assert_uint_eq(info.global_flags, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(list[0].handle, gpu.handle);
	free(list);

	/* hsalite (INTEROP_CPU_VIEW=1) maps the buffer for the CPU as well,
	 * at the same address; ROCr's mapping is GPU-only. */
	if (getenv("INTEROP_CPU_VIEW")) {
		const volatile uint8_t *b = ptr;
		for (uint32_t i = 0; i < BUF_SIZE; i += 4093)
			ck_assert_uint_eq(b[i], pattern(i));
	}

	/* The exporter's bytes, through a GPU copy; then a page back. */
	uint8_t *host = NULL;
	ck_status(hsa_amd_memory_pool_allocate(sys_pool, BUF_SIZE, 0, (void **)&host),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_agents_allow_access(1, &gpu, NULL, host), HSA_STATUS_SUCCESS);
	memset(host, 0, BUF_SIZE);
	copy(host, cpu, ptr, gpu, BUF_SIZE);
	for (uint32_t i = 0; i < BUF_SIZE; i++)
		ck_assert_msg(host[i] == pattern(i), "byte %u is 0x%x, expected 0x%x", i, host[i],
			      pattern(i));
	memset(host, 0xA5, 4096);
	copy((uint8_t *)ptr + 4096, gpu, host, cpu, 4096);

	/* Unmap: SUCCESS, and SUCCESS again for what is no longer mapped, a
	 * pointer inside nothing, one inside our host buffer. */
	ck_status(hsa_amd_interop_unmap_buffer(ptr), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_interop_unmap_buffer(ptr), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_interop_unmap_buffer(NULL), HSA_STATUS_SUCCESS);
	memset(&info, 0, sizeof(info));
	info.size = sizeof(info);
	ck_status(hsa_amd_pointer_info(ptr, &info, NULL, NULL, NULL), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(info.type, HSA_EXT_POINTER_TYPE_UNKNOWN);

	/* The exporter sees the page the GPU wrote. */
	char cmd = 'c', ok = 0;
	ck_assert_int_eq(write(sock, &cmd, 1), 1);
	ck_assert_int_eq(read(sock, &ok, 1), 1);
	ck_assert_msg(ok == 'y', "the exporter did not see the page written");

	/* A CPU agent among the agents: ROCr maps on its node too, which
	 * libhsakmt cannot (OUT_OF_RESOURCES), and nothing stays mapped. */
	hsa_agent_t both[2] = { gpu, cpu };
	ck_status(hsa_amd_interop_map_buffer(2, both, dmabuf, 0, &size, &ptr, NULL, NULL),
		  HSA_STATUS_ERROR_OUT_OF_RESOURCES);
	ck_status(hsa_amd_interop_map_buffer(1, &cpu, dmabuf, 0, &size, &ptr, NULL, NULL),
		  HSA_STATUS_ERROR_OUT_OF_RESOURCES);

	/* Mapped again, after the exporter freed its BO: the fd keeps the
	 * buffer (dma-buf reference counting). */
	ck_status(hsa_amd_interop_map_buffer(1, &gpu, dmabuf, 0, &size, &ptr, NULL, NULL),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(size, BUF_SIZE);
	memset(host, 0, BUF_SIZE);
	copy(host, cpu, ptr, gpu, 3 * 4096);
	ck_assert_uint_eq(host[0], pattern(0));
	ck_assert_uint_eq(host[4096], 0xA5);
	ck_assert_uint_eq(host[8191], 0xA5);
	ck_assert_uint_eq(host[8192], pattern(8192));
	ck_status(hsa_amd_interop_unmap_buffer(ptr), HSA_STATUS_SUCCESS);
	/* hsa_amd_ipc_memory_detach releases a mapping too (both runtimes
	 * keep it as an import, as an IPC attachment). */
	ck_status(hsa_amd_interop_map_buffer(1, &gpu, dmabuf, 0, &size, &ptr, NULL, NULL),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_ipc_memory_detach(ptr), HSA_STATUS_SUCCESS);
	memset(&info, 0, sizeof(info));
	info.size = sizeof(info);
	ck_status(hsa_amd_pointer_info(ptr, &info, NULL, NULL, NULL), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(info.type, HSA_EXT_POINTER_TYPE_UNKNOWN);
	ck_status(hsa_amd_ipc_memory_detach(ptr), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	/* Unmap of memory that is no interop mapping: SUCCESS, the memory
	 * untouched. */
	ck_status(hsa_amd_interop_unmap_buffer(host + 64), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(host), HSA_STATUS_SUCCESS);

	int st;
	ck_assert_int_eq(waitpid(child, &st, 0), child);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "exporter status 0x%x", st);
}
END_TEST

typedef hsa_status_t (*interop_map_sized_t)(uint32_t, hsa_agent_t *, hsa_handle_t, uint32_t,
					 size_t, size_t *, void **, size_t *, const void **);

/* hsa_amd_interop_map_buffer_with_size, or NULL on a runtime without it. */
static interop_map_sized_t with_size(void)
{
	interop_map_sized_t fn;
	void *sym = dlsym(RTLD_DEFAULT, "hsa_amd_interop_map_buffer_with_size");
	memcpy(&fn, &sym, sizeof(fn));
	if (getenv("INTEROP_WITH_SIZE"))
		ck_assert_msg(fn, "hsa_amd_interop_map_buffer_with_size is not exported");
	return fn;
}

/* After map_read_write_unmap: the exporter has freed its BO, our fd keeps
 * the buffer, whose second page the GPU set to 0xA5. */
START_TEST(map_with_size)
{
	interop_map_sized_t map = with_size();
	if (!map) {
		fprintf(stderr, "no hsa_amd_interop_map_buffer_with_size: skipped\n");
		return;
	}
	uint8_t *host = NULL;
	ck_status(hsa_amd_memory_pool_allocate(sys_pool, 3 * 4096, 0, (void **)&host),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_agents_allow_access(1, &gpu, NULL, host), HSA_STATUS_SUCCESS);
	/* The hint is the caller's; the size is the dma-buf's, whatever the
	 * hint (0: unknown, the right size, a wrong one), and flags (the
	 * Windows KMT_HANDLE, an unknown bit) are not checked. */
	const size_t hints[] = { BUF_SIZE, 0, 4096, 4 * BUF_SIZE };
	const uint32_t flags[] = { 0, HSA_INTEROP_MAP_FLAG_KMT_HANDLE, 0x80, 0 };
	for (unsigned k = 0; k < sizeof(hints) / sizeof(hints[0]); k++) {
		size_t size = 0, md_size = 99;
		void *ptr = NULL;
		const void *md = NULL;
		ck_status(map(1, &gpu, dmabuf, flags[k], hints[k], &size, &ptr, &md_size, &md),
			  HSA_STATUS_SUCCESS);
		ck_assert_uint_eq(size, BUF_SIZE);
		ck_assert_ptr_nonnull(ptr);
		ck_assert_uint_eq((uintptr_t)ptr % (256u << 10), 0);
		ck_assert_uint_eq(md_size, 0);
		ck_assert_ptr_nonnull(md);
		hsa_amd_pointer_info_t info;
		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		ck_status(hsa_amd_pointer_info((uint8_t *)ptr + BUF_SIZE - 1, &info, NULL, NULL,
					       NULL), HSA_STATUS_SUCCESS);
		ck_assert_int_eq(info.type, HSA_EXT_POINTER_TYPE_GRAPHICS);
		ck_assert_ptr_eq(info.agentBaseAddress, ptr);
		ck_assert_uint_eq(info.sizeInBytes, BUF_SIZE);
		/* The buffer's bytes: pattern, the page written, pattern. */
		memset(host, 0, 3 * 4096);
		copy(host, cpu, ptr, gpu, 3 * 4096);
		ck_assert_uint_eq(host[1], pattern(1));
		ck_assert_uint_eq(host[4096], 0xA5);
		ck_assert_uint_eq(host[8191], 0xA5);
		ck_assert_uint_eq(host[8193], pattern(8193));
		ck_status(hsa_amd_interop_unmap_buffer(ptr), HSA_STATUS_SUCCESS);
		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		ck_status(hsa_amd_pointer_info(ptr, &info, NULL, NULL, NULL), HSA_STATUS_SUCCESS);
		ck_assert_int_eq(info.type, HSA_EXT_POINTER_TYPE_UNKNOWN);
	}
	ck_status(hsa_amd_memory_pool_free(host), HSA_STATUS_SUCCESS);

	/* ROCr's checks: NULL agents, size or ptr, no agent; an unknown agent;
	 * then what libhsakmt refuses (no dma-buf of GPU memory): ERROR; a CPU
	 * agent, which it cannot map on: OUT_OF_RESOURCES. */
	size_t size;
	void *ptr;
	hsa_agent_t none = { 0 };
	ck_status(map(1, NULL, dmabuf, 0, BUF_SIZE, &size, &ptr, NULL, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(map(0, &gpu, dmabuf, 0, BUF_SIZE, &size, &ptr, NULL, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(map(1, &gpu, dmabuf, 0, BUF_SIZE, NULL, &ptr, NULL, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(map(1, &gpu, dmabuf, 0, BUF_SIZE, &size, NULL, NULL, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(map(1, &none, dmabuf, 0, BUF_SIZE, &size, &ptr, NULL, NULL),
		  HSA_STATUS_ERROR_INVALID_AGENT);
	ck_status(map(1, &gpu, -1, 0, BUF_SIZE, &size, &ptr, NULL, NULL), HSA_STATUS_ERROR);
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	ck_assert_int_ge(null, 0);
	ck_status(map(1, &gpu, null, 0, 0, &size, &ptr, NULL, NULL), HSA_STATUS_ERROR);
	close(null);
	ck_status(map(1, &cpu, dmabuf, 0, BUF_SIZE, &size, &ptr, NULL, NULL),
		  HSA_STATUS_ERROR_OUT_OF_RESOURCES);
}
END_TEST

START_TEST(mistakes)
{
	size_t size;
	void *ptr;
	hsa_agent_t none = { 0 };
	ck_status(hsa_amd_interop_map_buffer(1, NULL, dmabuf, 0, &size, &ptr, NULL, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_interop_map_buffer(0, &gpu, dmabuf, 0, &size, &ptr, NULL, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_interop_map_buffer(1, &gpu, dmabuf, 1, &size, &ptr, NULL, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_interop_map_buffer(1, &gpu, dmabuf, 0, NULL, &ptr, NULL, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_interop_map_buffer(1, &gpu, dmabuf, 0, &size, NULL, NULL, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_interop_map_buffer(1, &none, dmabuf, 0, &size, &ptr, NULL, NULL),
		  HSA_STATUS_ERROR_INVALID_AGENT);
	/* Not a dma-buf of GPU memory: HSA_STATUS_ERROR. */
	ck_status(hsa_amd_interop_map_buffer(1, &gpu, -1, 0, &size, &ptr, NULL, NULL),
		  HSA_STATUS_ERROR);
	int fds[2];
	ck_assert_int_eq(pipe(fds), 0);
	ck_status(hsa_amd_interop_map_buffer(1, &gpu, fds[0], 0, &size, &ptr, NULL, NULL),
		  HSA_STATUS_ERROR);
	close(fds[0]);
	close(fds[1]);
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	ck_assert_int_ge(null, 0);
	ck_status(hsa_amd_interop_map_buffer(1, &gpu, null, 0, &size, &ptr, NULL, NULL),
		  HSA_STATUS_ERROR);
	close(null);
	close(dmabuf);
	close(sock);
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
	/* Closed: NOT_INITIALIZED. */
	ck_status(hsa_amd_interop_map_buffer(1, &gpu, 0, 0, &size, &ptr, NULL, NULL),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_interop_unmap_buffer(NULL), HSA_STATUS_ERROR_NOT_INITIALIZED);
	interop_map_sized_t map = with_size();
	if (map)
		ck_status(map(1, &gpu, 0, 0, 0, &size, &ptr, NULL, NULL),
			  HSA_STATUS_ERROR_NOT_INITIALIZED);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("runtime_interop");
	TCase *tc = tcase_create("interop");
	tcase_set_timeout(tc, 240);
	tcase_add_test(tc, map_read_write_unmap);
	tcase_add_test(tc, map_with_size);
	tcase_add_test(tc, mistakes);
	suite_add_tcase(s, tc);
	return s;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--exporter"))
		return exporter(atoi(argv[2]));
	return hl_check_run(suite());
}
