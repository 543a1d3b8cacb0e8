/*
 * Context save/restore (CWSR) sizes of a node.  CREATE_QUEUE on kernels
 * 6.12+ rejects a compute queue whose ctl_stack_size differs from the
 * node's, whose ctx_save_restore_size is below the node's cwsr_size, or
 * whose CWSR mapping is not exactly ALIGN((cwsr + debug) * num_xcc, 4096)
 * bytes, so these must match the kernel byte for byte.  The formula is
 * kfd_queue_ctx_save_restore_size() in kfd_queue.c (see
 * research/kfd-uapi-facts.md §4); newer kernels also export cwsr_size and
 * ctl_stack_size in the node properties, and then those values win.
 *
 * The kernel computes with the per-XCC array_count while sysfs prints the
 * total, so we divide by num_xcc first.
 */
#include "kfd/kfd_priv.h"

#include <string.h>

#define SGPR_SIZE_PER_CU  0x4000u
#define LDS_SIZE_PER_CU   0x10000u
#define HWREG_SIZE_PER_CU 0x1000u
#define CNTL_STACK_BYTES_PER_WAVE_GFX9  8u
#define CNTL_STACK_BYTES_PER_WAVE_GFX10 12u
#define SIZEOF_HSA_USER_CONTEXT_SAVE_AREA_HEADER 40u
#define DEBUGGER_BYTES_PER_WAVE 32u
#define DEBUGGER_BYTES_ALIGN    64u
#define EOP_BUFFER_SIZE 4096u
#define GFX10_CNTL_STACK_MAX 0x7000u

static uint32_t vgpr_size_per_cu(uint32_t gfxv)
{
	if ((gfxv >= 90400 && gfxv <= 90499) || gfxv == 90010 || gfxv == 90008 ||
	    gfxv == 90500)
		return 0x80000;
	if (gfxv == 110000 || gfxv == 110001 || gfxv == 120000 || gfxv == 120001)
		return 0x60000;
	return 0x40000;
}

void kfd_cwsr_sizes(const struct kfd_node *node, struct kfd_cwsr_sizes *out)
{
	const struct kfd_node_properties *p = &node->props;
	uint32_t gfxv = p->gfx_target_version;

	memset(out, 0, sizeof(*out));
	/* CPU nodes and GPUs before gfx 8.0.1 have no CWSR. */
	if (!kfd_node_is_gpu(node) || gfxv < 80001 || !p->simd_per_cu)
		return;

	uint32_t num_xcc = p->num_xcc ? p->num_xcc : 1;
	uint32_t cu_num = p->simd_count / p->simd_per_cu / num_xcc;
	uint32_t arrays_per_xcc = p->array_count / num_xcc;
	uint32_t wave_num;

	if (gfxv < 100100) {
		uint32_t by_cu = cu_num * 40;
		uint32_t by_arrays = p->simd_arrays_per_engine
			? arrays_per_xcc / p->simd_arrays_per_engine * 512 : by_cu;
		wave_num = by_cu < by_arrays ? by_cu : by_arrays;
	} else {
		wave_num = cu_num * 32;
	}

	uint32_t lds = gfxv == 90500 ? p->lds_size_in_kb << 10 : LDS_SIZE_PER_CU;
	uint32_t per_cu = vgpr_size_per_cu(gfxv) + SGPR_SIZE_PER_CU + lds + HWREG_SIZE_PER_CU;
	uint32_t wg_data_size = KFD_ALIGN_UP(cu_num * per_cu, 4096u);

	uint32_t per_wave = gfxv >= 100100 ? CNTL_STACK_BYTES_PER_WAVE_GFX10
					   : CNTL_STACK_BYTES_PER_WAVE_GFX9;
	uint32_t ctl = KFD_ALIGN_UP(SIZEOF_HSA_USER_CONTEXT_SAVE_AREA_HEADER +
					    wave_num * per_wave + 8u, 4096u);
	if (gfxv >= 100000 && gfxv <= 109999 && ctl > GFX10_CNTL_STACK_MAX)
		ctl = GFX10_CNTL_STACK_MAX;

	out->ctl_stack_size = ctl;
	out->cwsr_size = ctl + wg_data_size;
	/* The kernel exports its own numbers on new versions: trust them. */
	if (p->ctl_stack_size)
		out->ctl_stack_size = p->ctl_stack_size;
	if (p->cwsr_size)
		out->cwsr_size = p->cwsr_size;
	out->debug_size = KFD_ALIGN_UP(wave_num * DEBUGGER_BYTES_PER_WAVE, DEBUGGER_BYTES_ALIGN);
	/* libhsakmt passes no EOP buffer for AQL queues on gfx 9.4.x. */
	out->eop_size = gfxv >= 90400 && gfxv <= 90499 ? 0 : EOP_BUFFER_SIZE;
	out->total_size = KFD_ALIGN_UP(((uint64_t)out->cwsr_size + out->debug_size) * num_xcc,
				       (uint64_t)4096);
}
