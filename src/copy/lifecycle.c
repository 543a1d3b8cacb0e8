/*
 * The copy module's steps in the module table (src/modules.c): every GPU
 * agent's engines (blit.c, sdma.c) are records hanging off the agent, built
 * once at hsa_init and filled on first use; the module's own state
 * (rt->copy: the profiling switch, blit.c) is made at attach and goes with
 * its runtime, so the module has no fork step: a fork child forgets it with
 * the parent's runtime.  The SVM prefetches pending on signals
 * (prefetch.c) and the SVM discards (discard.c, rt->copy->discards) are
 * dropped at the end.
 */
#include "copy/copy_priv.h"

int hl_copy_attach(struct hl_runtime *rt)
{
	int err = hl_blit_attach(rt);
	return err ? err : hl_sdma_attach(rt);
}

void hl_copy_teardown(struct hl_runtime *rt)
{
	/* No async handler may start a prefetch on an engine going away. */
	hl_prefetch_teardown(rt);
	hl_discard_teardown(rt);
	hl_sdma_teardown(rt);
	hl_blit_teardown(rt);
}

void hl_copy_forget(struct hl_runtime *rt)
{
	hl_prefetch_forget(rt);
	hl_discard_forget(rt);
	hl_sdma_forget(rt);
	hl_blit_forget(rt);
}
