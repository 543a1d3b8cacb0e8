/* c[i] = a[i] + b[i] for i < n: the smallest useful kernel (no LDS, no
 * scratch); the sample program and the loader tests dispatch it. */
__kernel void vadd(__global const float *a, __global const float *b,
		   __global float *c, uint n)
{
	uint i = __builtin_amdgcn_workgroup_id_x() * 64u + __builtin_amdgcn_workitem_id_x();
	if (i < n)
		c[i] = a[i] + b[i];
}
