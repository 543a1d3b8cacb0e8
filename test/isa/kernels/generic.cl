/*
 * generic.cl — OpenCL 2.0 generic pointers: the same code dereferences a
 * pointer that may point to LDS or to private memory, so the compiler
 * emits FLAT instructions and converts addresses with the aperture bases.
 */
__attribute__((noinline)) static void bump(int *p, int v)
{
	*p += v;
}

__kernel void genptr(__global int *out, int n)
{
	__local int l[256];
	int priv[4];
	int lid = (int)__builtin_amdgcn_workitem_id_x();
	int gid = (int)__builtin_amdgcn_workgroup_id_x() * 64 + lid;
	l[lid] = lid;
	for (int k = 0; k < 4; k++)
		priv[k] = lid * 2 + k;
	int *g = (lid & 1) ? (int *)&l[lid] : (int *)&priv[lid & 3];
	bump(g, 100 + n);
	__builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
	__builtin_amdgcn_s_barrier();
	__builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
	out[gid] = l[lid] + priv[lid & 3];
}
