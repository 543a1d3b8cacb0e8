/*
 * corpus.cl — the interpreter's correctness corpus, compiled at build time
 * with stock clang for gfx90a (clang-14) and gfx942 (clang-19), -O2
 * -nogpulib: no device libraries, so work-item ids come from the
 * amdgcn builtins and sizes from the dispatch packet.  Every kernel has a
 * host reference in test_isa_corpus.c.
 */
typedef unsigned int uint;
typedef unsigned short ushort;

/* hsa_kernel_dispatch_packet_t: workgroup_size_x at byte 4, grid at 12 */
static inline uint lsize(int d)
{
	__constant ushort *p = (__constant ushort *)__builtin_amdgcn_dispatch_ptr();
	return p[2 + d];
}
static inline uint gsize(int d)
{
	__constant uint *p = (__constant uint *)__builtin_amdgcn_dispatch_ptr();
	return p[3 + d];
}
static inline uint lid(int d)
{
	return d == 0 ? __builtin_amdgcn_workitem_id_x()
	     : d == 1 ? __builtin_amdgcn_workitem_id_y() : __builtin_amdgcn_workitem_id_z();
}
static inline uint wgid(int d)
{
	return d == 0 ? __builtin_amdgcn_workgroup_id_x()
	     : d == 1 ? __builtin_amdgcn_workgroup_id_y() : __builtin_amdgcn_workgroup_id_z();
}
static inline uint gid(int d)
{
	return wgid(d) * lsize(d) + lid(d);
}
static inline void barrier_wg(void)
{
	__builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
	__builtin_amdgcn_s_barrier();
	__builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

__kernel void vadd(__global const float *a, __global const float *b, __global float *c, uint n)
{
	uint i = gid(0);
	if (i < n)
		c[i] = a[i] + b[i];
}

__kernel void saxpy(float a, __global const float *x, __global float *y, uint n)
{
	uint i = gid(0);
	if (i < n)
		y[i] = a * x[i] + y[i];
}

__kernel void index2d(__global uint *out, uint w, uint h)
{
	uint x = gid(0), y = gid(1);
	if (x < w && y < h)
		out[y * w + x] = (y << 16) | x | (gsize(0) == w ? 0 : 0x80000000u);
}

__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void reduce(__global const float *in, __global float *out, uint n)
{
	__local float tmp[256];
	uint l = lid(0), i = gid(0);
	tmp[l] = i < n ? in[i] : 0.0f;
	barrier_wg();
	for (uint s = 128; s > 0; s >>= 1) {
		if (l < s)
			tmp[l] += tmp[l + s];
		barrier_wg();
	}
	if (l == 0)
		out[wgid(0)] = tmp[0];
}

#define TILE 16
__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void matmul(__global const float *A, __global const float *B, __global float *C, uint n)
{
	__local float As[TILE][TILE], Bs[TILE][TILE];
	uint tx = lid(0), ty = lid(1);
	uint col = wgid(0) * TILE + tx, row = wgid(1) * TILE + ty;
	float acc = 0.0f;
	for (uint t = 0; t < n; t += TILE) {
		As[ty][tx] = (row < n && t + tx < n) ? A[row * n + t + tx] : 0.0f;
		Bs[ty][tx] = (col < n && t + ty < n) ? B[(t + ty) * n + col] : 0.0f;
		barrier_wg();
		for (uint k = 0; k < TILE; k++)
			acc += As[ty][k] * Bs[k][tx];
		barrier_wg();
	}
	if (row < n && col < n)
		C[row * n + col] = acc;
}

__kernel void histogram(__global const uint *in, __global uint *bins, uint n)
{
	__local uint h[64];
	/* the work-items this (possibly partial) workgroup really has */
	uint base = wgid(0) * lsize(0), ls = gsize(0) - base < lsize(0) ? gsize(0) - base : lsize(0);
	uint l = lid(0), i = base + l;
	for (uint b = l; b < 64; b += ls)
		h[b] = 0;
	barrier_wg();
	if (i < n)
		__atomic_fetch_add(&h[in[i] & 63], 1u, __ATOMIC_RELAXED);
	barrier_wg();
	for (uint b = l; b < 64; b += ls)
		if (h[b])
			__atomic_fetch_add(&bins[b], h[b], __ATOMIC_RELAXED);
}

__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void scan(__global const uint *in, __global uint *out, uint n)
{
	__local uint buf[2][256];
	uint l = lid(0), i = gid(0), p = 0;
	buf[0][l] = i < n ? in[i] : 0;
	barrier_wg();
	for (uint off = 1; off < 256; off <<= 1) {
		uint v = buf[p][l];
		if (l >= off)
			v += buf[p][l - off];
		buf[p ^ 1][l] = v;
		p ^= 1;
		barrier_wg();
	}
	if (i < n)
		out[i] = buf[p][l];
}

__kernel void dloop(__global const double *in, __global double *out, uint n, uint iters)
{
	uint i = gid(0);
	if (i >= n)
		return;
	double x = in[i], acc = 0.0;
	for (uint k = 1; k <= iters; k++)
		acc += __builtin_sqrt(x * k + 1.0) / (x + (double)k);
	out[i] = acc;
}

__kernel void privarr(__global const uint *idx, __global uint *out, uint n)
{
	uint i = gid(0);
	uint arr[40];
	if (i >= n)
		return;
	for (uint k = 0; k < 40; k++)
		arr[k] = i * 3 + k * k;
	for (uint k = 0; k < 8; k++) {
		uint j = (idx[i] + k * 7) % 40;
		arr[j] ^= arr[(j + 13) % 40] + k;
	}
	out[i] = arr[idx[i] % 40] + arr[(idx[i] >> 8) % 40];
}

__kernel void idiv(__global const int *a, __global const int *b, __global int *q,
		   __global int *r, __global uint *uq, __global uint *ur, uint n)
{
	uint i = gid(0);
	if (i >= n)
		return;
	int x = a[i], y = b[i];
	q[i] = x / y;
	r[i] = x % y;
	uq[i] = (uint)x / (uint)y;
	ur[i] = (uint)x % (uint)y;
}

__kernel void convert(__global const float *f, __global const int *s, __global int *fi,
		      __global uint *fu, __global float *sf, __global float *uf,
		      __global double *fd, __global float *df, __global int *sat, uint n)
{
	uint i = gid(0);
	if (i >= n)
		return;
	float x = f[i];
	int v = s[i];
	/* in range by construction for the plain casts (C leaves others UB) */
	float xc = x > 2.0e9f ? 2.0e9f : x < -2.0e9f ? -2.0e9f : x;
	fi[i] = (int)xc;
	fu[i] = (uint)(xc < 0.0f ? -xc : xc);
	sf[i] = (float)v;
	uf[i] = (float)(uint)v;
	fd[i] = (double)x * 3.0;
	df[i] = (float)((double)v / 7.0);
	/* saturating conversion, written out */
	sat[i] = x != x ? 0 : x >= 2147483647.0f ? 2147483647 : x <= -2147483648.0f ? (int)0x80000000u : (int)x;
}

/* Own approximations (no device libraries): range-reduced polynomials. */
static inline float my_sin(float x)
{
	float k = __builtin_rintf(x * 0.31830988618f);
	float r = x - k * 3.14159265359f;
	float r2 = r * r;
	float p = r * (1.0f + r2 * (-0.1666666667f + r2 * (0.008333333f + r2 * (-0.000198412698f + r2 * 2.75573e-6f))));
	return ((int)k & 1) ? -p : p;
}
static inline float my_exp(float x)
{
	float k = __builtin_rintf(x * 1.44269504089f);
	float r = x - k * 0.69314718056f;
	float p = 1.0f + r * (1.0f + r * (0.5f + r * (0.1666666667f + r * (0.0416666667f + r * (0.00833333333f + r * 0.00138888889f)))));
	return __builtin_amdgcn_ldexpf(p, (int)k);
}
__kernel void mathlib(__global const float *x, __global float *s, __global float *e,
		      __global float *q, __global float *rt, uint n)
{
	uint i = gid(0);
	if (i >= n)
		return;
	float v = x[i];
	s[i] = my_sin(v);
	e[i] = my_exp(v * 0.25f);
	q[i] = v / (v * v + 1.5f);
	rt[i] = __builtin_sqrtf(v * v + 2.0f);
}
