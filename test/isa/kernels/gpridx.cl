/*
 * gpridx.cl — for test_isa_ops.c: dynamic indexing of a 16-element vector
 * held in VGPRs, which LLVM compiles for gfx9 to GPR indexing
 * (s_set_gpr_idx_on ... gpr_idx(DST) / gpr_idx(SRC0), s_set_gpr_idx_off):
 * with a uniform index (sel) directly, with a per-lane one (from in)
 * through a v_readfirstlane waterfall loop.  Built with clang-19 for
 * gfx90a and gfx942.  Work-item i: v = in[16i .. 16i+15]; v[sel & 15] = i;
 * v[in[16i] & 15] += sel; out[16i ..] = v; out[4096 + i] =
 * v[(sel >> 4) & 15] ^ v[in[16i + 1] & 15].
 */
typedef unsigned int uint16v __attribute__((ext_vector_type(16)));

kernel void gpr_idx(global const uint *in, global uint *out, uint sel)
{
	uint i = __builtin_amdgcn_workitem_id_x() + __builtin_amdgcn_workgroup_id_x() * 64;
	uint16v v = *(global const uint16v *)(in + 16 * i);
	v[sel & 15] = i;
	v[in[16 * i] & 15] += sel;
	*(global uint16v *)(out + 16 * i) = v;
	out[4096 + i] = v[(sel >> 4) & 15] ^ v[in[16 * i + 1] & 15];
}
