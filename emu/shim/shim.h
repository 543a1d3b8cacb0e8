/*
 * libkfdemu.so internals.  The shim is the syscall boundary of kfdemu in
 * the style of Mesa's drm-shim: it interposes libc entry points, routes the
 * emulated device nodes (/dev/kfd, /dev/dri/renderD<minor>) to the driver
 * model (kfdemu_core) and redirects reads of the GPU's sysfs/procfs files
 * into the topology tree the launcher wrote.  Everything else passes
 * through to the next definition (libc) untouched.
 *
 *   shim.c        settings, the machine, fd-based calls (close, dup, fcntl,
 *                 ioctl, mmap, munmap, fstat)
 *   shim_path.c   path-based calls (open*, fopen*, opendir, stat*, access,
 *                 readlink, realpath) and the redirect rule
 *   shim_user.c   the login/group facts rocminfo checks
 */
#ifndef KFDEMU_SHIM_H
#define KFDEMU_SHIM_H

#include <limits.h>
#include <stdbool.h>
#include <sys/stat.h>

#include "kfdemu.h"

#define SHIM_EXPORT __attribute__((visibility("default")))

/* The topology tree directory ("" when the shim is inactive). */
extern char shim_tree_dir[PATH_MAX];

/* The machine, created on first use of an emulated node; NULL before. */
struct kemu_machine *shim_machine(void);
/* The machine if it exists already (fd-based calls never create it). */
struct kemu_machine *shim_machine_peek(void);
/* Entry into the machine for one call: returns it (created first if
 * create), or NULL when the shim is inert or the machine is gone; a thread
 * of a process that is exiting parks here for good.  A non-NULL return is
 * paired with shim_leave(), which also parks the thread if the process
 * began to exit meanwhile. */
struct kemu_machine *shim_enter(bool create);
void shim_leave(void);

/* Looks up the next definition of a libc symbol (dlsym RTLD_NEXT). */
void *shim_real(const char *name);
#define SHIM_REAL(type, name) ((type)shim_real(#name))

/* If path should be redirected into the tree, writes the new path into buf
 * and returns it; else returns path. */
const char *shim_redirect(const char *path, char *buf, size_t len);
/* Fills *st for an emulated device node (S_IFCHR with its major/minor). */
void shim_fill_node_stat(enum kemu_node node, uint32_t minor, struct stat *st);

/* glibc entry points without a public prototype (fortify and pre-2.33). */
int __open_2(const char *path, int flags);
int __open64_2(const char *path, int flags);
int __openat_2(int dirfd, const char *path, int flags);
int __openat64_2(int dirfd, const char *path, int flags);
int __xstat(int ver, const char *path, struct stat *st);
int __xstat64(int ver, const char *path, struct stat64 *st);
int __lxstat(int ver, const char *path, struct stat *st);
int __lxstat64(int ver, const char *path, struct stat64 *st);
int __fxstat(int ver, int fd, struct stat *st);
int __fxstat64(int ver, int fd, struct stat64 *st);
int __fxstatat(int ver, int dirfd, const char *path, struct stat *st, int flags);
int __fxstatat64(int ver, int dirfd, const char *path, struct stat64 *st, int flags);
char *__realpath_chk(const char *path, char *resolved, size_t resolvedlen);

/* On x86-64 struct stat64 and struct stat have the same layout. */
_Static_assert(sizeof(struct stat64) == sizeof(struct stat), "stat64 layout");

/* The HDP model's counters, for tests under the launcher (shim.c). */
int kfdemu_hdp_counters(uint64_t out[4]);

#endif
