/*
 * isa_harness.h — test-only driver for kfdemu_isa: loads an AMDGPU code
 * object (libelf), keeps every GPU allocation in host memory with GPU VA =
 * host address (an identity kemu_isa_mem), builds kernargs and an AQL
 * dispatch packet, and runs every workgroup of a grid through
 * kemu_isa_run_workgroup().  Used by the test suites and by
 * tools/kfdemu-isa-bench.
 */
#ifndef ISA_HARNESS_H
#define ISA_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#include "isa.h"

struct hx_code {
	uint8_t *image;         /* loaded PT_LOAD segments (page aligned) */
	size_t size;
	char path[512];
};

/* Identity memory: host allocations registered as GPU memory. */
void *hx_alloc(size_t bytes);           /* zeroed, page aligned, registered */
void hx_free(void *p);
const struct kemu_isa_mem *hx_mem(void);
/* Unregister [p, p+bytes) so accesses fault (for fault tests). */

int hx_load(struct hx_code *c, const char *path);       /* 0 or -1 */
void hx_unload(struct hx_code *c);
/* VA of "<name>.kd", or 0. */
uint64_t hx_kd(const struct hx_code *c, const char *name);

struct hx_launch {
	uint32_t gfx;
	uint64_t kd;
	const void *args;
	size_t args_size;
	uint32_t grid[3];
	uint16_t wg[3];
	uint32_t dyn_lds;
	uint32_t private_size;  /* per work-item; 0: from the descriptor */
	unsigned threads;       /* host threads running workgroups (0: 1) */
	kemu_isa_interrupt_fn interrupt;
	void *interrupt_ctx;
	/* GWS the dispatch may use (NULL: none); with it the workgroups run
	 * on the calling thread as the CP runs a cooperative grid: each until
	 * it ends or waits on GWS, then the saved ones that were released */
	struct kemu_isa_gws *gws;
	uint32_t gws_base, gws_size;
	unsigned gws_suspends;          /* out: workgroups saved and resumed */
	uint32_t gb_addr_config;        /* image swizzle addressing (isa.h) */
	uint64_t watchdog;              /* wave_instruction_limit (0: 50 M) */
};

/* VAs the last hx_run() used (for ABI checks). */
struct hx_last {
	uint64_t packet, kernarg, scratch;
	uint32_t srd[4];
};
extern struct hx_last hx_last;

/* Call fn for every kernel ("<name>.kd" symbol) of a loaded object. */
void hx_each_kernel(const struct hx_code *c, void (*fn)(const char *name, uint64_t kd, void *ctx),
		    void *ctx);

/* Context-save test knob: HX_PREEMPT_AFTER=N in the environment makes
 * hx_run() (one host thread, no GWS) stop every wave after N of its
 * instructions, save its workgroup with kemu_isa_ctx_save(), rebuild it
 * with kemu_isa_ctx_restore() and resume it.  0: off.  hx_context_saves
 * counts the saves. */
uint64_t hx_preempt_after(void);
extern _Atomic uint64_t hx_context_saves;

/* Run the whole grid; returns 0 or -1 with err filled. */
int hx_run(struct hx_launch *l, struct kemu_isa_error *err);

/* Directory holding the build-time compiled kernels. */
const char *hx_kernel_dir(void);
/* Path of kernel file <stem>-<gfx>.co; returns NULL when not built
 * (compiler missing). */
const char *hx_kernel_path(const char *stem, uint32_t gfx, char *buf, size_t len);

/* Was the compiler for this target found at configure time? */
int hx_target_expected(uint32_t gfx);

/* ULP distance of two floats / doubles (same sign convention). */
uint32_t hx_ulp32(float a, float b);
uint64_t hx_ulp64(double a, double b);

#endif
