/* A wrong vadd with the right signature: it stores each sum one element
 * late, so c[0] is never written and c[n] (past the end) is.  vector_add
 * must report both and fail; test/sample runs it to show its check can. */
__kernel void vadd(__global const float *a, __global const float *b,
		   __global float *c, uint n)
{
	uint i = __builtin_amdgcn_workgroup_id_x() * 64u + __builtin_amdgcn_workitem_id_x();
	if (i < n)
		c[i + 1] = a[i] + b[i];
}
