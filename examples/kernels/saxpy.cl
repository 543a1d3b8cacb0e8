/* y = a * x + y over n floats; used by examples/python/saxpy.py.  The
 * workgroup size comes from the dispatch packet (any code object version,
 * no hidden arguments needed). */
__kernel void saxpy(float a, __global const float *x, __global float *y, uint n)
{
	__constant ushort *pkt = (__constant ushort *)__builtin_amdgcn_dispatch_ptr();
	uint i = __builtin_amdgcn_workgroup_id_x() * pkt[2] + __builtin_amdgcn_workitem_id_x();
	if (i < n)
		y[i] = a * x[i] + y[i];
}

/* Does nothing: the launch overhead on its own. */
__kernel void empty(void)
{
}
