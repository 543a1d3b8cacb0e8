/* OpenCL vector add for test_cp_dispatch: c[i] = a[i] + b[i] for i < n.
 * -nogpulib leaves no OpenCL library, so the global id comes from the
 * builtins (workgroup id x dispatch packet workgroup_size_x + local id). */
__kernel void vadd(__global const int *a, __global const int *b, __global int *c, uint n)
{
	__constant ushort *dp = (__constant ushort *)__builtin_amdgcn_dispatch_ptr();
	uint i = __builtin_amdgcn_workgroup_id_x() * dp[2] + __builtin_amdgcn_workitem_id_x();
	if (i < n)
		c[i] = a[i] + b[i];
}
