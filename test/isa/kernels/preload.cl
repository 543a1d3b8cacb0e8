/*
 * preload.cl — kernel arguments preloaded into SGPRs (clang-19,
 * -mllvm -amdgpu-kernarg-preload-count=3): the code object starts with a
 * 256-byte compatibility block (s_trap 2) that firmware with preload
 * support skips; `a`, `x` and `y` arrive in SGPRs, `n` is still loaded.
 */
__kernel void preload(float a, __global const float *x, __global float *y, uint n)
{
	uint i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
	if (i < n)
		y[i] = a * x[i] + y[i];
}
