/* Built with -cl-std=CL2.0 for test_var_info.c: one exported variable in
 * each of .data (initialised __global), .bss (zero __global) and .rodata
 * (__constant), so the loader's variable attributes can be compared with
 * the sections' flags.  The kernel uses all three so none is dropped. */
__attribute__((visibility("default"))) __global uint data_var = 7;
__attribute__((visibility("default"))) __global uint bss_var;
__attribute__((visibility("default"))) __constant uint rodata_var[4] = { 1, 2, 3, 4 };
__kernel void touch(__global uint *out, uint i)
{
	bss_var += out[0];
	data_var += i;
	out[1] = rodata_var[i & 3] + bss_var;
}
