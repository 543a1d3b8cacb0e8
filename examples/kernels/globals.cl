/* Built with -cl-std=CL2.0 (program-scope __global variables need it).
 * Two kernels sharing program-scope variables.  `table` holds the address
 * of `counter`, which the linker can only express as a dynamic relocation
 * (R_AMDGPU_RELATIVE64 or R_AMDGPU_ABS64 in .rela.dyn): the loader must
 * patch it with the load address. */
__attribute__((visibility("default"))) __global uint counter = 7;
__attribute__((visibility("default"))) __global uint *__global table[2] = { &counter, &counter };

__kernel void bump(uint by)
{
	if (__builtin_amdgcn_workitem_id_x() == 0)
		*table[0] += by;
}

__kernel void fetch(__global uint *out)
{
	out[0] = *table[1];
}
