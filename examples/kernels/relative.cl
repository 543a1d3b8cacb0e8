/* Built with -cl-std=CL2.0 (program-scope __global variables need it).
 * Like globals.cl, but the variables keep the default (hidden) visibility
 * of OpenCL program-scope variables: they are not exported, and the
 * linker expresses `table`'s initial value as R_AMDGPU_RELATIVE64
 * (load base + addend) instead of a symbol-based R_AMDGPU_ABS64. */
__global uint counter = 11;
__global uint *__global table[2] = { &counter, &counter };

__kernel void relative_read(__global uint *out)
{
	out[0] = *table[0] + *table[1];
}
