/* Sums 256 values per workgroup through an LDS tree, so the kernel has a
 * fixed group segment (1024 bytes). */
__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void reduce_lds(__global const uint *in, __global uint *out)
{
	__local uint tmp[256];
	uint lid = __builtin_amdgcn_workitem_id_x();
	uint gid = __builtin_amdgcn_workgroup_id_x();
	tmp[lid] = in[gid * 256u + lid];
	for (uint s = 128; s > 0; s >>= 1) {
		__builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
		__builtin_amdgcn_s_barrier();
		__builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
		if (lid < s)
			tmp[lid] += tmp[lid + s];
	}
	if (lid == 0)
		out[gid] = tmp[0];
}
