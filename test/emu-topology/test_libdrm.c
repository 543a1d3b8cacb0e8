/*
 * emu/topology against the real libdrm (Debian 2.4.114): amdgpu_device_initialize
 * must accept the render node's answers and the sysfs tree.
 *
 * This executable stands in for the kfdemu shim, as narrowly as it can: it
 * defines ioctl, fstat64 and stat64/opendir/readlink (libdrm's imports) so
 * that (1) the memfds created here look like DRM character devices 226:<minor>
 * and their ioctls go to kemu_drm_info_ioctl, and (2) libdrm's
 * /sys/dev/char/226:<minor>/... reads land in the written tree.  Everything
 * else is passed on (RTLD_NEXT).  What libdrm does with the answers (version
 * check, ACCEL_WORKING, DEV_INFO, the GB_ADDR_CONFIG read, amdgpu.ids, the
 * fd_compare of two devices through .../device/drm/card<N>) is its own code.
 */
#define _GNU_SOURCE
#include "hl_check.h"
#include "topology.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <amdgpu.h>
#include <amdgpu_drm.h>

static struct kemu_topology topo;
static struct { dev_t dev; ino_t ino; } fake[KEMU_MAX_GPUS];

static int real_fstat(int fd, struct stat64 *st)
{
	static int (*fn)(int, struct stat64 *);
	if (!fn)
		fn = (int (*)(int, struct stat64 *))dlsym(RTLD_NEXT, "fstat64");
	return fn(fd, st);
}

/* The emulated GPU behind fd (or a dup of it), or -1. */
static int fake_gpu(int fd)
{
	struct stat64 st;
	if (!topo.n_gpus || real_fstat(fd, &st) < 0)
		return -1;
	for (uint32_t i = 0; i < topo.n_gpus; i++)
		if (fake[i].ino == st.st_ino && fake[i].dev == st.st_dev)
			return (int)i;
	return -1;
}

/* Paths under /sys/dev/char/226: and /sys/class/drm/ resolve inside the tree. */
static const char *redirect(const char *path, char *buf, size_t n)
{
	if (topo.dir[0] && path &&
	    (!strncmp(path, "/sys/dev/char/226:", 18) || !strncmp(path, "/sys/class/drm/", 15))) {
		snprintf(buf, n, "%s%s", topo.dir, path);
		return buf;
	}
	return path;
}

int ioctl(int fd, unsigned long request, ...);
int ioctl(int fd, unsigned long request, ...)
{
	static int (*fn)(int, unsigned long, ...);
	va_list ap;
	va_start(ap, request);
	void *arg = va_arg(ap, void *);
	va_end(ap);

	int g = fake_gpu(fd);
	if (g < 0) {
		if (!fn)
			fn = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
		return fn(fd, request, arg);
	}
	int r = kemu_drm_info_ioctl(&topo.gpus[g], request, arg);
	if (r < 0) {
		errno = -r;
		return -1;
	}
	return r;
}

int fstat64(int fd, struct stat64 *st);
int fstat64(int fd, struct stat64 *st)
{
	int r = real_fstat(fd, st);
	int g = r == 0 ? fake_gpu(fd) : -1;
	if (g >= 0) {
		st->st_mode = S_IFCHR | 0666;
		st->st_rdev = makedev(226, topo.gpus[g].drm_render_minor);
	}
	return r;
}

int stat64(const char *path, struct stat64 *st);
int stat64(const char *path, struct stat64 *st)
{
	static int (*fn)(const char *, struct stat64 *);
	char buf[2 * PATH_MAX];
	if (!fn)
		fn = (int (*)(const char *, struct stat64 *))dlsym(RTLD_NEXT, "stat64");
	return fn(redirect(path, buf, sizeof(buf)), st);
}

DIR *opendir(const char *path)
{
	static DIR *(*fn)(const char *);
	char buf[2 * PATH_MAX];
	if (!fn)
		fn = (DIR * (*)(const char *)) dlsym(RTLD_NEXT, "opendir");
	return fn(redirect(path, buf, sizeof(buf)));
}

ssize_t readlink(const char *restrict path, char *restrict out, size_t n)
{
	static ssize_t (*fn)(const char *, char *, size_t);
	char buf[2 * PATH_MAX];
	if (!fn)
		fn = (ssize_t (*)(const char *, char *, size_t))dlsym(RTLD_NEXT, "readlink");
	return fn(redirect(path, buf, sizeof(buf)), out, n);
}

static int fds[KEMU_MAX_GPUS];

static void open_fake_nodes(const char *preset, uint32_t n)
{
	ck_assert_int_eq(kemu_topology_create(preset, n, true, &topo), 0);
	for (uint32_t i = 0; i < n; i++) {
		struct stat64 st;
		fds[i] = memfd_create("renderD", MFD_CLOEXEC);
		ck_assert_int_ge(fds[i], 0);
		ck_assert_int_eq(real_fstat(fds[i], &st), 0);
		fake[i].dev = st.st_dev;
		fake[i].ino = st.st_ino;
	}
}

static void teardown(void)
{
	for (uint32_t i = 0; i < topo.n_gpus; i++)
		close(fds[i]);
	kemu_topology_destroy(&topo);
	memset(&topo, 0, sizeof(topo));
	memset(fake, 0, sizeof(fake));
}

static void check_device(const char *preset)
{
	amdgpu_device_handle dev;
	struct amdgpu_gpu_info info;
	uint32_t major = 0, minor = 0;

	open_fake_nodes(preset, 1);
	int r = amdgpu_device_initialize(fds[0], &major, &minor, &dev);
	ck_assert_msg(r == 0, "%s: amdgpu_device_initialize = %d", preset, r);
	ck_assert_uint_eq(major, 3);
	ck_assert_int_eq(amdgpu_query_gpu_info(dev, &info), 0);
	ck_assert_uint_eq(info.asic_id, topo.gpus[0].device_id);
	ck_assert_uint_eq(info.family_id, AMDGPU_FAMILY_AI);
	ck_assert_uint_eq(info.cu_active_number, topo.gpus[0].cu_count);
	ck_assert_uint_eq(info.gb_addr_cfg, topo.gpus[0].gb_addr_config);
	ck_assert_uint_eq(info.pci_rev_id, topo.gpus[0].revision_id);
	ck_assert_ptr_nonnull(amdgpu_get_marketing_name(dev));
	amdgpu_device_deinitialize(dev);
}

START_TEST(test_libdrm_initializes_mi210)
{
	check_device("mi210");
}
END_TEST

START_TEST(test_libdrm_initializes_mi300x)
{
	check_device("mi300x");
}
END_TEST

/* amdgpu.ids names MI210 as (0x740F, rev 0x02): our pci_rev must match. */
START_TEST(test_libdrm_marketing_name_from_amdgpu_ids)
{
	amdgpu_device_handle dev;
	uint32_t major, minor;
	char line[256];
	bool listed = false;

	FILE *ids = fopen("/usr/share/libdrm/amdgpu.ids", "re");
	if (ids) {
		while (fgets(line, sizeof(line), ids))
			if (!strncmp(line, "740F,\t02,", 9))
				listed = true;
		fclose(ids);
	}
	if (!listed)
		return; /* an amdgpu.ids without MI210: nothing to compare */
	open_fake_nodes("mi210", 1);
	ck_assert_int_eq(amdgpu_device_initialize(fds[0], &major, &minor, &dev), 0);
	ck_assert_str_eq(amdgpu_get_marketing_name(dev), "AMD Instinct MI210");
	amdgpu_device_deinitialize(dev);
}
END_TEST

/* A second device is compared with the first through the primary node
 * name found in /sys/dev/char/226:<minor>/device/drm: distinct cards must
 * give distinct handles. */
START_TEST(test_libdrm_two_gpus_are_distinct_devices)
{
	amdgpu_device_handle a, b;
	uint32_t major, minor;

	open_fake_nodes("mi300x", 2);
	ck_assert_int_eq(amdgpu_device_initialize(fds[0], &major, &minor, &a), 0);
	ck_assert_int_eq(amdgpu_device_initialize(fds[1], &major, &minor, &b), 0);
	ck_assert_ptr_ne(a, b);
	amdgpu_device_deinitialize(b);
	amdgpu_device_deinitialize(a);
}
END_TEST

static Suite *libdrm_suite(void)
{
	Suite *s = suite_create("emu_libdrm");
	TCase *tc = tcase_create("libdrm");
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, test_libdrm_initializes_mi210);
	tcase_add_test(tc, test_libdrm_initializes_mi300x);
	tcase_add_test(tc, test_libdrm_marketing_name_from_amdgpu_ids);
	tcase_add_test(tc, test_libdrm_two_gpus_are_distinct_devices);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(libdrm_suite)
