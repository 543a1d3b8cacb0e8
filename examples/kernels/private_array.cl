/* Indexes a private array with a run-time index, which keeps it in scratch:
 * the kernel has a private segment > 0. */
__kernel void private_array(__global const uint *idx, __global uint *out)
{
	volatile uint buf[64];
	uint lid = __builtin_amdgcn_workitem_id_x();
	for (uint k = 0; k < 64; k++)
		buf[k] = k * lid;
	out[lid] = buf[idx[lid] & 63u];
}
