/*
 * copy_from_user / copy_to_user for the emulated kernel.  The "user" is the
 * host process itself, so a bad pointer in an ioctl argument must give
 * -EFAULT as on Linux, never a host crash.  process_vm_readv/writev on our
 * own pid report unmapped or unwritable memory as EFAULT without touching
 * it.  If the call is not allowed (seccomp in some containers), we fall back
 * to a plain copy after checking the range with the access_ok rule; that
 * fallback cannot catch a wild pointer below TASK_SIZE and says so once.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "kemu_priv.h"

/* memcheck does not know that process_vm_writev on our own pid writes our
 * memory; tell it, when its header is available. */
#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define KEMU_MARK_WRITTEN(p, n) VALGRIND_MAKE_MEM_DEFINED(p, n)
#endif
#endif
#ifndef KEMU_MARK_WRITTEN
#define KEMU_MARK_WRITTEN(p, n) ((void)(p), (void)(n))
#endif

static _Atomic int uaccess_fallback; /* 1 once process_vm_* is refused */

static int copy_checked(void *local, uint64_t uaddr, size_t len, bool to_user)
{
	if (!len)
		return 0;
	if (!kemu_access_ok(uaddr, len))
		return -EFAULT;
	/* relaxed: a sticky hint, no data depends on it */
	if (!atomic_load_explicit(&uaccess_fallback, memory_order_relaxed)) {
		struct iovec l = { local, len };
		struct iovec r = { (void *)(uintptr_t)uaddr, len };
		ssize_t n = to_user ? process_vm_writev(getpid(), &l, 1, &r, 1, 0)
				    : process_vm_readv(getpid(), &l, 1, &r, 1, 0);
		if (n == (ssize_t)len) {
			if (to_user)
				KEMU_MARK_WRITTEN((void *)(uintptr_t)uaddr, len);
			return 0;
		}
		if (n >= 0 || errno == EFAULT)
			return -EFAULT;
		if (errno != EPERM && errno != ENOSYS)
			return -EFAULT;
		atomic_store_explicit(&uaccess_fallback, 1, memory_order_relaxed);
		fprintf(stderr, "kfdemu: process_vm_readv refused (%s); user copies are "
			"no longer fault-checked\n", strerror(errno));
	}
	if (uaddr < 4096)
		return -EFAULT;
	if (to_user)
		memcpy((void *)(uintptr_t)uaddr, local, len);
	else
		memcpy(local, (const void *)(uintptr_t)uaddr, len);
	return 0;
}

int kemu_copy_from_user(void *dst, uint64_t uaddr, size_t len)
{
	return copy_checked(dst, uaddr, len, false);
}

int kemu_copy_to_user(uint64_t uaddr, const void *src, size_t len)
{
	return copy_checked((void *)src, uaddr, len, true);
}
