/* HIP-style device code for test/python: no HIP headers (see
 * docs/writing-kernels.md); metadata with .name but no .type_name. */
#define __global__ __attribute__((global))

/* blockDim as HIP computes it: from the dispatch packet (v4) or the
 * hidden_group_size_x argument (v5), so a wrong hidden fill breaks it. */
extern "C" __global__ void saxpy_hip(float a, const float *x, float *y, unsigned n)
{
	unsigned i = __builtin_amdgcn_workgroup_id_x() * __builtin_amdgcn_workgroup_size_x() +
		     __builtin_amdgcn_workitem_id_x();
	if (i < n)
		y[i] = a * x[i] + y[i];
}

struct hip_pod {
	int a;
	double b;
	short c;
};

extern "C" __global__ void hip_struct(hip_pod p, long long *out, char tag)
{
	if (__builtin_amdgcn_workitem_id_x() == 0 && __builtin_amdgcn_workgroup_id_x() == 0) {
		out[0] = p.a;
		out[1] = (long long)(p.b * 2.0);
		out[2] = p.c;
		out[3] = tag;
	}
}
