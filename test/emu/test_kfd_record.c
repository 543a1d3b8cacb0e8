/*
 * The ioctl record (KFDEMU_IOCTL_RECORD, emu/kfd/kemu_record.c), through the
 * driver model's C API: a machine created with the variable set appends a
 * "gpu" line per device and one line per open, KFD ioctl (fields after the
 * call, MAP's device list read from user memory, refused ioctls with their
 * errno), render-node ioctl (the AMDGPU_INFO query) and mmap, numbered in
 * order; without the variable nothing is written; lines of concurrent
 * threads never interleave.  test/ioctl_diff reads these lines.
 */
#include <pthread.h>
#include <sys/ioctl.h>

#include <libdrm/drm.h>
#include <libdrm/amdgpu_drm.h>

#include "emu_fixture.h"

static char path[64];

static void record_setup(void)
{
	snprintf(path, sizeof(path), "/tmp/kfdemu-record-%d.txt", (int)getpid());
	unlink(path);
	ck_assert_int_eq(setenv("KFDEMU_IOCTL_RECORD", path, 1), 0);
	emu_setup();
	unsetenv("KFDEMU_IOCTL_RECORD"); /* read at machine creation only */
}

static void record_teardown(void)
{
	emu_teardown();
	unlink(path);
}

/* The record's lines (the machine may still be live: each line is written
 * when its call returns). */
static char *lines[4096];
static int n_lines;

static void read_record(void)
{
	for (int i = 0; i < n_lines; i++)
		free(lines[i]);
	n_lines = 0;
	FILE *f = fopen(path, "r");
	ck_assert_msg(f != NULL, "no record at %s", path);
	char buf[2048];
	while (fgets(buf, sizeof(buf), f) && n_lines < (int)(sizeof(lines) / sizeof(lines[0]))) {
		size_t len = strlen(buf);
		ck_assert_msg(len > 0 && buf[len - 1] == '\n', "line %d not terminated: %s", n_lines,
			      buf);
		buf[len - 1] = 0;
		lines[n_lines++] = strdup(buf);
	}
	fclose(f);
}

/* The first line (after the "<seq> <pid> <tid> " prefix) starting with what;
 * checks the prefix: sequence numbers count up from 0 in file order and the
 * pid is ours. */
static const char *find(const char *what)
{
	long seq = 0;
	for (int i = 0; i < n_lines; i++) {
		long s, pid, tid;
		int off = 0;
		if (sscanf(lines[i], "%ld %ld %ld %n", &s, &pid, &tid, &off) != 3 || !off)
			continue; /* the "gpu" header lines */
		ck_assert_int_eq(s, seq);
		ck_assert_int_eq(pid, getpid());
		seq++;
		if (!strncmp(lines[i] + off, what, strlen(what)))
			return lines[i] + off;
	}
	return NULL;
}

START_TEST(header_and_opens_come_first)
{
	read_record();
	ck_assert_int_ge(n_lines, 4);
	char want[96];
	snprintf(want, sizeof(want), "%d gpu 0 gpu_id=0x%x minor=%u", (int)getpid(), E.gpu_id,
		 E.gpu->drm_render_minor);
	ck_assert_str_eq(lines[0], want);
	ck_assert_ptr_nonnull(find("open kfd ret=0"));
	ck_assert_ptr_nonnull(find("open 0 ret=0"));
	snprintf(want, sizeof(want), "kfd ACQUIRE_VM ret=0 drm_fd=0x%x gpu_id=0x%x", E.drm,
		 E.gpu_id);
	ck_assert_ptr_nonnull(find(want));
}
END_TEST

START_TEST(alloc_and_map_carry_flags_sizes_and_devices)
{
	uint64_t h;
	uint32_t flags = KFD_ALLOC_VRAM | KFD_ALLOC_WRITABLE | KFD_ALLOC_PUBLIC;
	ck_assert_int_eq(emu_alloc_at(emu_va(0x3000), 0x3000, flags, &h), 0);
	ck_assert_int_eq(emu_map(h), 0);
	read_record();
	const char *a = find("kfd ALLOC_MEMORY_OF_GPU ret=0 ");
	ck_assert_ptr_nonnull(a);
	char want[64];
	snprintf(want, sizeof(want), " size=0x3000 handle=0x%llx ", (unsigned long long)h);
	ck_assert_msg(strstr(a, want), "%s: no '%s'", a, want);
	snprintf(want, sizeof(want), " gpu_id=0x%x flags=0x%x", E.gpu_id, flags);
	ck_assert_msg(strstr(a, want), "%s: no '%s'", a, want);
	const char *m = find("kfd MAP_MEMORY_TO_GPU ret=0 ");
	ck_assert_ptr_nonnull(m);
	snprintf(want, sizeof(want), " n_success=0x1 devices=0x%x", E.gpu_id);
	ck_assert_msg(strstr(m, want), "%s: no '%s'", m, want);
}
END_TEST

START_TEST(failures_are_recorded_with_their_errno)
{
	/* FREE of an unknown handle: -EINVAL from the handler */
	struct kfd_args_free_memory_of_gpu f = { .handle = 0xdead };
	ck_assert_int_eq(kio(KFD_IOCTL_FREE_MEMORY_OF_GPU, &f), -EINVAL);
	/* a ROCm-DKMS-only ioctl: -ENOTTY before dispatch, no argument */
	ck_assert_int_eq(kio(_IOWR('K', 0x82, uint64_t), &f), -ENOTTY);
	read_record();
	ck_assert_ptr_nonnull(find("kfd FREE_MEMORY_OF_GPU ret=-22 handle=0xdead"));
	const char *d = find("kfd DBG_TRAP_ROCM(0x82) ret=-25");
	ck_assert_ptr_nonnull(d);
	ck_assert_str_eq(d, "kfd DBG_TRAP_ROCM(0x82) ret=-25");
}
END_TEST

START_TEST(render_ioctls_carry_the_info_query)
{
	uint32_t accel = 0;
	struct drm_amdgpu_info req = { .return_pointer = (uintptr_t)&accel,
				       .return_size = sizeof(accel),
				       .query = AMDGPU_INFO_ACCEL_WORKING };
	ck_assert_int_eq(kemu_ioctl(E.m, E.drm, DRM_IOCTL_AMDGPU_INFO, &req), 0);
	read_record();
	ck_assert_ptr_nonnull(find("drm 0 AMDGPU_INFO ret=0 query=0x0 return_size=0x4"));
}
END_TEST

START_TEST(mmaps_carry_offset_length_and_protection)
{
	uint64_t off = KFD_MMAP_TYPE_DOORBELL | KFD_MMAP_GPU_ID(E.gpu_id);
	void *p = NULL;
	ck_assert_int_eq(kemu_mmap(E.m, NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, E.kfd, off,
				   &p), 0);
	read_record();
	char want[128];
	snprintf(want, sizeof(want), "mmap kfd off=0x%llx len=0x2000 prot=3 flags=0x1 ret=0",
		 (unsigned long long)off);
	ck_assert_ptr_nonnull(find(want));
	munmap(p, 8192);
}
END_TEST

#define RACERS 2
#define CALLS 500

static void *racer(void *arg)
{
	(void)arg;
	for (int i = 0; i < CALLS; i++) {
		struct kfd_args_get_version v = { 0 };
		if (kio(KFD_IOCTL_GET_VERSION, &v))
			return (void *)1;
	}
	return NULL;
}

START_TEST(concurrent_lines_never_interleave)
{
	pthread_t t[RACERS];
	for (int i = 0; i < RACERS; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, racer, NULL), 0);
	for (int i = 0; i < RACERS; i++) {
		void *r;
		ck_assert_int_eq(pthread_join(t[i], &r), 0);
		ck_assert_ptr_null(r);
	}
	read_record();
	int versions = 0;
	for (int i = 0; i < n_lines; i++) {
		const char *v = strstr(lines[i], " kfd GET_VERSION ");
		if (!v)
			continue;
		ck_assert_str_eq(v, " kfd GET_VERSION ret=0 major=0x1 minor=0x11");
		versions++;
	}
	ck_assert_int_eq(versions, RACERS * CALLS);
	find("no such line"); /* checks every line's sequence number and pid */
}
END_TEST

START_TEST(nothing_is_written_without_the_variable)
{
	snprintf(path, sizeof(path), "/tmp/kfdemu-record-%d.txt", (int)getpid());
	unlink(path);
	unsetenv("KFDEMU_IOCTL_RECORD");
	emu_setup();
	struct kfd_args_get_version v = { 0 };
	ck_assert_int_eq(kio(KFD_IOCTL_GET_VERSION, &v), 0);
	emu_teardown();
	ck_assert_int_eq(access(path, F_OK), -1);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("kfd_record");
	TCase *tc = tcase_create("record");
	tcase_add_checked_fixture(tc, record_setup, record_teardown);
	tcase_add_test(tc, header_and_opens_come_first);
	tcase_add_test(tc, alloc_and_map_carry_flags_sizes_and_devices);
	tcase_add_test(tc, failures_are_recorded_with_their_errno);
	tcase_add_test(tc, render_ioctls_carry_the_info_query);
	tcase_add_test(tc, mmaps_carry_offset_length_and_protection);
	tcase_add_test(tc, concurrent_lines_never_interleave);
	suite_add_tcase(s, tc);

	tc = tcase_create("off");
	tcase_add_test(tc, nothing_is_written_without_the_variable);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(suite)
