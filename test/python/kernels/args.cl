/* Test kernels for the Python package (test/python).  Each writes what it
 * received back to memory so the test can compare it with what it passed. */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define FIRST_ITEM (__builtin_amdgcn_workitem_id_x() == 0 && __builtin_amdgcn_workgroup_id_x() == 0)

/* Every OpenCL scalar type, mixed alignments: written at fixed offsets
 * (0 c, 1 uc, 2 s, 4 us, 8 i, 12 ui, 16 l, 24 ul, 32 h, 36 f, 40 d). */
__kernel void scalars(__global uchar *out, char c, uchar uc, short s, ushort us, int i,
		      uint ui, long l, ulong ul, half h, float f, double d)
{
	if (!FIRST_ITEM)
		return;
	*(__global char *)(out + 0) = c;
	*(__global uchar *)(out + 1) = uc;
	*(__global short *)(out + 2) = s;
	*(__global ushort *)(out + 4) = us;
	*(__global int *)(out + 8) = i;
	*(__global uint *)(out + 12) = ui;
	*(__global long *)(out + 16) = l;
	*(__global ulong *)(out + 24) = ul;
	*(__global half *)(out + 32) = h;
	*(__global float *)(out + 36) = f;
	*(__global double *)(out + 40) = d;
}

/* Vector arguments (a 16-byte float4 after a pointer, then an int2). */
__kernel void vectors(__global float4 *out, float4 v, int2 w)
{
	if (!FIRST_ITEM)
		return;
	out[0] = v;
	*(__global int2 *)(out + 1) = w;
}

/* A struct by value between scalars: layout as C's (24 bytes, 8-aligned). */
typedef struct {
	int a;
	float b;
	long c;
	char d;
} pair_t;

__kernel void by_struct(__global pair_t *out, uchar before, pair_t s, uint after,
			__global uint *after_out)
{
	if (!FIRST_ITEM)
		return;
	out[0] = s;
	after_out[0] = after;
	after_out[1] = before;
}

/* The implicit (hidden) argument area, n dwords of it, by the first
 * work-item of the grid (any dimensions). */
__kernel void dump_implicit(__global uint *out, uint n)
{
	__constant uint *ia = (__constant uint *)__builtin_amdgcn_implicitarg_ptr();
	if (__builtin_amdgcn_workitem_id_x() || __builtin_amdgcn_workitem_id_y() ||
	    __builtin_amdgcn_workitem_id_z() || __builtin_amdgcn_workgroup_id_x() ||
	    __builtin_amdgcn_workgroup_id_y() || __builtin_amdgcn_workgroup_id_z())
		return;
	for (uint i = 0; i < n; i++)
		out[i] = ia[i];
}

/* A 2-D grid: every work-item writes its global x + y * width, with the
 * workgroup size read from the dispatch packet (any code object version). */
__kernel void grid2d(__global uint *out, uint width, uint height)
{
	__constant ushort *pkt = (__constant ushort *)__builtin_amdgcn_dispatch_ptr();
	uint x = __builtin_amdgcn_workgroup_id_x() * pkt[2] + __builtin_amdgcn_workitem_id_x();
	uint y = __builtin_amdgcn_workgroup_id_y() * pkt[3] + __builtin_amdgcn_workitem_id_y();
	if (x < width && y < height)
		out[y * width + x] = x + y * width + 1;
}

/* A __local pointer argument (dynamic LDS): reverse each 64-element block. */
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void lds_reverse(__global uint *data, __local uint *tmp)
{
	uint l = __builtin_amdgcn_workitem_id_x();
	uint g = __builtin_amdgcn_workgroup_id_x() * 64u + l;
	tmp[l] = data[g];
	__builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
	__builtin_amdgcn_s_barrier();
	__builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
	data[g] = tmp[63 - l];
}

/* Writes far outside any allocation: a GPU memory fault. */
__kernel void fault(__global uint *p)
{
	volatile __global uint *bad = (volatile __global uint *)((ulong)p + (1ul << 44));
	*bad = 1;
}

__kernel void empty(void)
{
}
