/*
 * The shim's memcpy, memmove, memset and __memcpy_chk: the end of a bulk
 * CPU write, for the HDP model's read-back (emu/kfd/kemu_hdp.c).
 *
 * On gfx90a and gfx94x a CPU read through the BAR completes the CPU's
 * earlier writes to that GPU, and ROCr 1.18 relies on it after it copies a
 * code object into VRAM (memcpy, then PcieWcFlush reads the last byte
 * back).  kfdemu sees a CPU read only on a page without access, and a page
 * the CPU is writing must stay writable; so once a copy returns, the pages
 * it made dirty lose their access (kemu_hdp_bulk_written) and the read
 * that follows faults.  Each interposer compares the thread's count of
 * first writes to tracked VRAM pages (kemu_hdp_thread_faults, bumped by the
 * HDP fault handler) before and after the copy and calls the model only
 * when it moved: any other copy, kfdemu's own included, costs two
 * thread-local loads.
 *
 * The copy itself is libc's, reached through entry points the shim does
 * not interpose (mempcpy, __memmove_chk, __memset_chk), so that nothing
 * here recurses and nothing needs dlsym before the shim is initialised.
 * A sanitizer runtime loaded first resolves its own "real" memcpy to these
 * (dlsym RTLD_NEXT), so the chain holds under ASan and TSan too.  This
 * file is built with -fno-builtin: the compiler must not turn mempcpy back
 * into a call of memcpy.  The interposers are not instrumented by the
 * sanitizers: memcpy runs before any runtime is initialised, and they
 * touch no memory of their own (the counter is thread-local).
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "shim.h"

/* glibc's checked entry points (declared by no public header without
 * _FORTIFY_SOURCE); with a destination length of SIZE_MAX they are the
 * plain functions */
void *__memcpy_chk(void *restrict dst, const void *restrict src, size_t len, size_t dstlen);
void *__memmove_chk(void *dst, const void *src, size_t len, size_t dstlen);
void *__memset_chk(void *dst, int c, size_t len, size_t dstlen);
void __chk_fail(void) __attribute__((noreturn));

#define SHIM_MEM_NO_SANITIZE __attribute__((no_sanitize("address", "thread", "undefined")))
#define SHIM_MEM SHIM_EXPORT SHIM_MEM_NO_SANITIZE

/* the libc entry point a bulk write goes through */
enum shim_mem_op { SHIM_MEM_COPY, SHIM_MEM_MOVE, SHIM_MEM_SET };

/*
 * The one body of the three interposers: libc writes len bytes at dst
 * (from src, or c for SHIM_MEM_SET), and the HDP model hears of the range
 * only when the thread's first-write fault count moved during it.  Always
 * inlined with a constant op, so each interposer keeps its single libc call
 * and its two thread-local loads; it carries the interposers' no_sanitize
 * (GCC does not inline across a sanitizer attribute mismatch).
 */
static inline __attribute__((always_inline)) SHIM_MEM_NO_SANITIZE void *
shim_mem_bulk(enum shim_mem_op op, void *dst, const void *src, int c, size_t len)
{
	uint64_t before = kemu_hdp_thread_faults;
	/* memcpy(p, NULL, 0) is common; mempcpy's arguments are nonnull */
	if (len) {
		switch (op) {
		case SHIM_MEM_COPY:
			(void)mempcpy(dst, src, len);
			break;
		case SHIM_MEM_MOVE:
			(void)__memmove_chk(dst, src, len, SIZE_MAX);
			break;
		case SHIM_MEM_SET:
			(void)__memset_chk(dst, c, len, SIZE_MAX);
			break;
		}
	}
	if (kemu_hdp_thread_faults != before)
		kemu_hdp_bulk_written(dst, len);
	return dst;
}

SHIM_MEM void *memcpy(void *restrict dst, const void *restrict src, size_t len)
{
	return shim_mem_bulk(SHIM_MEM_COPY, dst, src, 0, len);
}

SHIM_MEM void *__memcpy_chk(void *restrict dst, const void *restrict src, size_t len,
			       size_t dstlen)
{
	if (dstlen < len)
		__chk_fail();
	return memcpy(dst, src, len);
}

SHIM_MEM void *memmove(void *dst, const void *src, size_t len)
{
	return shim_mem_bulk(SHIM_MEM_MOVE, dst, src, 0, len);
}

SHIM_MEM void *memset(void *dst, int c, size_t len)
{
	return shim_mem_bulk(SHIM_MEM_SET, dst, NULL, c, len);
}
