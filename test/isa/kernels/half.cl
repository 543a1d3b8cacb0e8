/*
 * half.cl — f16 arithmetic (cl_khr_fp16): v_sub_f16, v_mul_f16 with a
 * 16-bit literal, v_fma_f16 and the packed v_pk_fma_f16.
 */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void hk(__global const half *a, __global const half *b, __global half *c, __global half2 *d, uint n)
{
	uint i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
	if (i < n) {
		half x = a[i], y = b[i];
		c[i] = x * y + (x - y) / (half)4.0h;
		half2 p = (half2)(x, y);
		d[i] = p * p + (half2)(y, x);
	}
}
