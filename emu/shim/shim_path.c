/*
 * Path-based interposers.
 *
 * Device nodes: "/dev/kfd" and "/dev/dri/renderD<minor>" of an emulated GPU
 * open as emulated files (the machine is created on the first such open);
 * stat/access on them report a character device (kfd: major
 * KEMU_KFD_CHR_MAJOR, render: DRM major 226), as devtmpfs would.
 *
 * Redirects: an absolute path under /sys/ or /proc/ whose twin exists in the
 * topology tree (<tree>/sys/..., <tree>/proc/modules) is served from the
 * tree; anything else passes through untouched.  realpath results inside
 * the tree are turned back into the absolute /sys path, so the program
 * never sees the temporary directory.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "shim.h"

const char *shim_redirect(const char *path, char *buf, size_t len)
{
	if (!path || !shim_tree_dir[0] || path[0] != '/')
		return path;
	if (strncmp(path, "/sys/", 5) && strncmp(path, "/proc/", 6))
		return path;
	if ((size_t)snprintf(buf, len, "%s%s", shim_tree_dir, path) >= len)
		return path;
	struct stat st;
	if (syscall(SYS_newfstatat, AT_FDCWD, buf, &st, 0) != 0)
		return path;
	return buf;
}

/* The emulated node for path, creating the machine on first use. */
static enum kemu_node path_node(const char *path, uint32_t *minor, struct kemu_machine **mp)
{
	if (!path || !shim_tree_dir[0])
		return KEMU_NODE_NONE;
	if (strcmp(path, "/dev/kfd") && strncmp(path, "/dev/dri/renderD", 16))
		return KEMU_NODE_NONE;
	struct kemu_machine *m = shim_enter(true);
	if (!m)
		return KEMU_NODE_NONE;
	*mp = m;
	enum kemu_node node = kemu_path_node(m, path, minor);
	shim_leave();
	return node;
}

static int open_common(const char *name, int dirfd, const char *path, int flags, mode_t mode,
		       bool at)
{
	struct kemu_machine *m = NULL;
	uint32_t minor;
	if (path && path[0] == '/' && path_node(path, &minor, &m) != KEMU_NODE_NONE &&
	    (m = shim_enter(false))) {
		int fd = kemu_open(m, path, flags);
		shim_leave();
		if (fd < 0) {
			errno = -fd;
			return -1;
		}
		return fd;
	}
	char buf[PATH_MAX];
	const char *p = shim_redirect(path, buf, sizeof(buf));
	if (at)
		return ((int (*)(int, const char *, int, mode_t))shim_real(name))(dirfd, p, flags,
										   mode);
	return ((int (*)(const char *, int, mode_t))shim_real(name))(p, flags, mode);
}

static mode_t open_mode(int flags, va_list ap)
{
	return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? (mode_t)va_arg(ap, int) : 0;
}

#define SHIM_OPEN(fn)                                                     \
	SHIM_EXPORT int fn(const char *path, int flags, ...)              \
	{                                                                 \
		va_list ap;                                               \
		va_start(ap, flags);                                      \
		mode_t mode = open_mode(flags, ap);                       \
		va_end(ap);                                               \
		return open_common(#fn, AT_FDCWD, path, flags, mode, false); \
	}
#define SHIM_OPENAT(fn)                                                   \
	SHIM_EXPORT int fn(int dirfd, const char *path, int flags, ...)   \
	{                                                                 \
		va_list ap;                                               \
		va_start(ap, flags);                                      \
		mode_t mode = open_mode(flags, ap);                       \
		va_end(ap);                                               \
		return open_common(#fn, dirfd, path, flags, mode, true);  \
	}
SHIM_OPEN(open)
SHIM_OPEN(open64)
SHIM_OPENAT(openat)
SHIM_OPENAT(openat64)

/* _FORTIFY_SOURCE variants: no mode argument */
SHIM_EXPORT int __open_2(const char *path, int flags)
{
	return open_common("open", AT_FDCWD, path, flags, 0, false);
}

SHIM_EXPORT int __open64_2(const char *path, int flags)
{
	return open_common("open64", AT_FDCWD, path, flags, 0, false);
}

SHIM_EXPORT int __openat_2(int dirfd, const char *path, int flags)
{
	return open_common("openat", dirfd, path, flags, 0, true);
}

SHIM_EXPORT int __openat64_2(int dirfd, const char *path, int flags)
{
	return open_common("openat64", dirfd, path, flags, 0, true);
}

SHIM_EXPORT FILE *fopen(const char *path, const char *mode)
{
	char buf[PATH_MAX];
	return SHIM_REAL(FILE * (*)(const char *, const char *), fopen)(
		shim_redirect(path, buf, sizeof(buf)), mode);
}

SHIM_EXPORT FILE *fopen64(const char *path, const char *mode)
{
	char buf[PATH_MAX];
	return SHIM_REAL(FILE * (*)(const char *, const char *), fopen64)(
		shim_redirect(path, buf, sizeof(buf)), mode);
}

SHIM_EXPORT DIR *opendir(const char *path)
{
	char buf[PATH_MAX];
	return SHIM_REAL(DIR * (*)(const char *), opendir)(shim_redirect(path, buf, sizeof(buf)));
}

/* ---- stat family ---- */

/* The stat of an emulated node at the absolute path into st; false when
 * the path names none (the caller asks the system about it).  Shared by
 * every stat entry point, the pre-2.33 ones included. */
static bool node_stat(const char *path, struct stat *st)
{
	struct kemu_machine *m = NULL;
	uint32_t minor = 0;
	enum kemu_node node = path && path[0] == '/' ? path_node(path, &minor, &m) : KEMU_NODE_NONE;
	if (node == KEMU_NODE_NONE)
		return false;
	shim_fill_node_stat(node, minor, st);
	return true;
}

static int stat_common(const char *name, const char *path, struct stat *st)
{
	if (node_stat(path, st))
		return 0;
	char buf[PATH_MAX];
	return ((int (*)(const char *, struct stat *))shim_real(name))(
		shim_redirect(path, buf, sizeof(buf)), st);
}

SHIM_EXPORT int stat(const char *path, struct stat *st)
{
	return stat_common("stat", path, st);
}

SHIM_EXPORT int stat64(const char *path, struct stat64 *st)
{
	return stat_common("stat64", path, (struct stat *)st);
}

SHIM_EXPORT int lstat(const char *path, struct stat *st)
{
	return stat_common("lstat", path, st);
}

SHIM_EXPORT int lstat64(const char *path, struct stat64 *st)
{
	return stat_common("lstat64", path, (struct stat *)st);
}

static int fstatat_common(const char *name, int dirfd, const char *path, struct stat *st,
			  int flags)
{
	if (path && !path[0] && (flags & AT_EMPTY_PATH))
		return fstat(dirfd, st);
	if (node_stat(path, st))
		return 0;
	char buf[PATH_MAX];
	return ((int (*)(int, const char *, struct stat *, int))shim_real(name))(
		dirfd, shim_redirect(path, buf, sizeof(buf)), st, flags);
}

SHIM_EXPORT int fstatat(int dirfd, const char *path, struct stat *st, int flags)
{
	return fstatat_common("fstatat", dirfd, path, st, flags);
}

SHIM_EXPORT int fstatat64(int dirfd, const char *path, struct stat64 *st, int flags)
{
	return fstatat_common("fstatat64", dirfd, path, (struct stat *)st, flags);
}

/* Pre-2.33 glibc entry points (old binaries, and sanitizer runtimes whose
 * stat interceptors call __xstat).  They must not call stat() back, which
 * would recurse through the sanitizer: emulated nodes are answered here,
 * everything else goes to the system call on the redirected path. */
static int shim_xstatat(int dirfd, const char *path, struct stat *st, int flags)
{
	if (path && !path[0] && (flags & AT_EMPTY_PATH))
		return __fxstat(1, dirfd, st);
	if (node_stat(path, st))
		return 0;
	char buf[PATH_MAX];
	return (int)syscall(SYS_newfstatat, dirfd, shim_redirect(path, buf, sizeof(buf)), st,
			    flags);
}

SHIM_EXPORT int __xstat(int ver, const char *path, struct stat *st)
{
	(void)ver;
	return shim_xstatat(AT_FDCWD, path, st, 0);
}

SHIM_EXPORT int __xstat64(int ver, const char *path, struct stat64 *st)
{
	(void)ver;
	return shim_xstatat(AT_FDCWD, path, (struct stat *)st, 0);
}

SHIM_EXPORT int __lxstat(int ver, const char *path, struct stat *st)
{
	(void)ver;
	return shim_xstatat(AT_FDCWD, path, st, AT_SYMLINK_NOFOLLOW);
}

SHIM_EXPORT int __lxstat64(int ver, const char *path, struct stat64 *st)
{
	(void)ver;
	return shim_xstatat(AT_FDCWD, path, (struct stat *)st, AT_SYMLINK_NOFOLLOW);
}

SHIM_EXPORT int __fxstatat(int ver, int dirfd, const char *path, struct stat *st, int flags)
{
	(void)ver;
	return shim_xstatat(dirfd, path, st, flags);
}

SHIM_EXPORT int __fxstatat64(int ver, int dirfd, const char *path, struct stat64 *st,
				 int flags)
{
	(void)ver;
	return shim_xstatat(dirfd, path, (struct stat *)st, flags);
}

SHIM_EXPORT int statx(int dirfd, const char *path, int flags, unsigned mask, struct statx *stx)
{
	char buf[PATH_MAX];
	return SHIM_REAL(int (*)(int, const char *, int, unsigned, struct statx *), statx)(
		dirfd, shim_redirect(path, buf, sizeof(buf)), flags, mask, stx);
}

/* ---- access, readlink, realpath ---- */

SHIM_EXPORT int access(const char *path, int mode)
{
	struct kemu_machine *m = NULL;
	uint32_t minor;
	if (path_node(path, &minor, &m) != KEMU_NODE_NONE)
		return 0; /* crw-rw-rw-: every access mode is allowed */
	char buf[PATH_MAX];
	return SHIM_REAL(int (*)(const char *, int), access)(shim_redirect(path, buf, sizeof(buf)),
							      mode);
}

SHIM_EXPORT int faccessat(int dirfd, const char *path, int mode, int flags)
{
	struct kemu_machine *m = NULL;
	uint32_t minor;
	if (path[0] == '/' && path_node(path, &minor, &m) != KEMU_NODE_NONE)
		return 0;
	char buf[PATH_MAX];
	return SHIM_REAL(int (*)(int, const char *, int, int), faccessat)(
		dirfd, shim_redirect(path, buf, sizeof(buf)), mode, flags);
}

SHIM_EXPORT ssize_t readlink(const char *path, char *out, size_t size)
{
	char buf[PATH_MAX];
	return SHIM_REAL(ssize_t (*)(const char *, char *, size_t), readlink)(
		shim_redirect(path, buf, sizeof(buf)), out, size);
}

SHIM_EXPORT ssize_t readlinkat(int dirfd, const char *path, char *out, size_t size)
{
	char buf[PATH_MAX];
	return SHIM_REAL(ssize_t (*)(int, const char *, char *, size_t), readlinkat)(
		dirfd, shim_redirect(path, buf, sizeof(buf)), out, size);
}

/* A resolved path inside the tree is reported as the path it stands for. */
static char *realpath_untree(char *res)
{
	size_t n = strlen(shim_tree_dir);
	if (res && n && !strncmp(res, shim_tree_dir, n) && res[n] == '/')
		memmove(res, res + n, strlen(res + n) + 1);
	return res;
}

SHIM_EXPORT char *realpath(const char *path, char *resolved)
{
	char buf[PATH_MAX];
	char *r = SHIM_REAL(char *(*)(const char *, char *), realpath)(
		shim_redirect(path, buf, sizeof(buf)), resolved);
	return realpath_untree(r);
}

SHIM_EXPORT char *__realpath_chk(const char *path, char *resolved, size_t resolvedlen)
{
	char buf[PATH_MAX];
	char *r = SHIM_REAL(char *(*)(const char *, char *, size_t), __realpath_chk)(
		shim_redirect(path, buf, sizeof(buf)), resolved, resolvedlen);
	return realpath_untree(r);
}
