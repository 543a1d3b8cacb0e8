/* Kernels of test_suballoc.c (runtime_suballoc*): compiled per target by
 * test/runtime/CMakeLists.txt. */

/* c[i] = a[i] + b[i] for i < n (examples/kernels/vadd.cl's index). */
__kernel void vadd(__global const float *a, __global const float *b, __global float *c, uint n)
{
	uint i = __builtin_amdgcn_workgroup_id_x() * 64u + __builtin_amdgcn_workitem_id_x();
	if (i < n)
		c[i] = a[i] + b[i];
}

/* Work-item 0 reads buf[0..1023] over and over, counting passes in ctl[1],
 * until the host sets ctl[0]; then writes the last pass's sum to ctl[2].
 * The host frees buf while it runs (rocrtst's Aql_Barrier_Bit pattern). */
__kernel void spin_read(__global const uint *buf, __global uint *ctl)
{
	if (__builtin_amdgcn_workgroup_id_x() != 0 || __builtin_amdgcn_workitem_id_x() != 0)
		return;
	volatile __global const uint *v = buf;
	uint passes = 0, sum = 0;
	/* no OpenCL library (-nogpulib): clang's atomic builtins */
	while (__atomic_load_n(&ctl[0], __ATOMIC_ACQUIRE) == 0u) {
		sum = 0;
		for (uint i = 0; i < 1024; i++)
			sum += v[i];
		passes++;
		__atomic_store_n(&ctl[1], passes, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&ctl[2], sum, __ATOMIC_RELEASE);
}
