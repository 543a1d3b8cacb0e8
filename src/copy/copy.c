/*
 * Linear copies on a blit engine: the argument block of the hl_copy kernel
 * (kernels/blit.cl) and its grid, for an async copy with dependencies and a
 * completion signal, or a synchronous one.
 *
 * The kernel copies 16-byte units from any address to any address (gfx9
 * runs with unaligned access enabled) and the last size % 16 bytes one per
 * lane, so one dispatch serves every alignment and size.
 */
#include <errno.h>

#include "copy/copy_priv.h"

static void copy_args(const struct hl_blit *b, struct hl_blit_copy_args *a, void *dst,
		      const void *src, size_t size, uint64_t *items)
{
	*items = hl_blit_items(b, size / 16 ? size / 16 : 1);
	a->src = (uint64_t)(uintptr_t)src;
	a->dst = (uint64_t)(uintptr_t)dst;
	a->size = size;
	a->stride = *items;
}

int hl_blit_copy(struct hl_blit *b, void *dst, const void *src, size_t size, uint32_t n_deps,
		 const hsa_signal_t *deps, hsa_signal_t completion)
{
	struct hl_blit_copy_args a;
	uint64_t items;
	copy_args(b, &a, dst, src, size, &items);
	return hl_blit_submit(b, HL_BLIT_COPY, &a, sizeof(a), items, n_deps, deps, completion);
}

int hl_blit_copy_sync(struct hl_blit *b, void *dst, const void *src, size_t size)
{
	struct hl_blit_copy_args a;
	uint64_t items;
	copy_args(b, &a, dst, src, size, &items);
	return hl_blit_run_sync(b, HL_BLIT_COPY, &a, sizeof(a), items, size);
}
