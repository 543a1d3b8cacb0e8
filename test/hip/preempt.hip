/*
 * Kernels for context save/restore (CWSR): run under
 * KFDEMU_PREEMPT=every:N (test/hip/CMakeLists.txt) every dispatch is
 * preempted again and again mid-flight, its waves written into the queue's
 * context-save area and read back, and each kernel must still give exactly
 * the host's result.  Each kernel keeps live state across many
 * instructions: a vector add with a per-element loop (VGPRs and SGPRs
 * across the preemptions), a block reduction through shared memory with
 * __syncthreads (LDS and waves at a barrier), a kernel whose private array
 * is indexed at run time (scratch: the restored waves must find their own
 * scratch again), and a grid-stride kernel whose blocks are fewer than its
 * work (one long dispatch).  coop.hip covers the cooperative grid sync.
 */
#include "hip_test.h"

#define N (1 << 14)
#define BLOCK 256
#define PRIV 64 /* a power of two: the walk below is a full-period LCG */

__global__ void vadd_loop(const int *a, const int *b, int *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	int acc = 0;
	for (int k = 0; k < 8; k++)
		acc += a[i] + k * b[i];
	c[i] = acc;
}

__global__ void lds_reduce(const int *in, int *partial, int n)
{
	__shared__ int buf[BLOCK];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	buf[threadIdx.x] = i < n ? in[i] : 0;
	__syncthreads();
	for (int s = blockDim.x / 2; s > 0; s >>= 1) {
		if ((int)threadIdx.x < s)
			buf[threadIdx.x] += buf[threadIdx.x + s];
		__syncthreads();
	}
	if (threadIdx.x == 0)
		partial[blockIdx.x] = buf[0];
}

__global__ void scratch_walk(const int *in, int *out, int n, int seed)
{
	int priv[PRIV]; /* indexed at run time: lives in scratch */
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	for (int k = 0; k < PRIV; k++)
		priv[k] = in[i] * (k + 1);
	int acc = 0, j = (i + seed) & (PRIV - 1);
	for (int k = 0; k < PRIV; k++) {
		acc += priv[j];
		j = (j * 5 + 3) & (PRIV - 1);
	}
	out[i] = acc;
}

__global__ void grid_stride(const int *in, long long *out, int n)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
		long long v = in[i];
		out[i] = v * v - 3 * v;
	}
}

static int value(int i)
{
	return (i * 2654435761u) % 1000 - 500;
}

int main(void)
{
	int *ha = (int *)malloc(N * sizeof(int)), *hb = (int *)malloc(N * sizeof(int));
	int *hc = (int *)malloc(N * sizeof(int));
	long long *hl = (long long *)malloc(N * sizeof(long long));
	int *da, *db, *dc;
	long long *dl;
	HT_EXPECT(ha && hb && hc && hl, "host memory");
	for (int i = 0; i < N; i++) {
		ha[i] = value(i);
		hb[i] = value(i + 7919);
	}
	HT_CHECK(hipMalloc(&da, N * sizeof(int)));
	HT_CHECK(hipMalloc(&db, N * sizeof(int)));
	HT_CHECK(hipMalloc(&dc, N * sizeof(int)));
	HT_CHECK(hipMalloc(&dl, N * sizeof(long long)));
	HT_CHECK(hipMemcpy(da, ha, N * sizeof(int), hipMemcpyHostToDevice));
	HT_CHECK(hipMemcpy(db, hb, N * sizeof(int), hipMemcpyHostToDevice));

	hipLaunchKernelGGL(vadd_loop, dim3(N / BLOCK), dim3(BLOCK), 0, 0, da, db, dc, N);
	HT_CHECK(hipGetLastError());
	HT_CHECK(hipMemcpy(hc, dc, N * sizeof(int), hipMemcpyDeviceToHost));
	for (int i = 0; i < N; i++) {
		int e = 8 * ha[i] + 28 * hb[i];
		HT_EXPECT(hc[i] == e, "vadd_loop[%d] = %d, expected %d", i, hc[i], e);
	}
	printf("preempt: vadd_loop ok\n");

	hipLaunchKernelGGL(lds_reduce, dim3(N / BLOCK), dim3(BLOCK), 0, 0, da, dc, N);
	HT_CHECK(hipGetLastError());
	HT_CHECK(hipMemcpy(hc, dc, (N / BLOCK) * sizeof(int), hipMemcpyDeviceToHost));
	for (int b = 0; b < N / BLOCK; b++) {
		int e = 0;
		for (int t = 0; t < BLOCK; t++)
			e += ha[b * BLOCK + t];
		HT_EXPECT(hc[b] == e, "lds_reduce[%d] = %d, expected %d", b, hc[b], e);
	}
	printf("preempt: lds_reduce ok\n");

	const int seed = 11;
	hipLaunchKernelGGL(scratch_walk, dim3(N / 4 / BLOCK), dim3(BLOCK), 0, 0, da, dc, N / 4,
			   seed);
	HT_CHECK(hipGetLastError());
	HT_CHECK(hipMemcpy(hc, dc, (N / 4) * sizeof(int), hipMemcpyDeviceToHost));
	for (int i = 0; i < N / 4; i++) {
		int acc = 0, j = (i + seed) & (PRIV - 1);
		for (int k = 0; k < PRIV; k++) {
			acc += ha[i] * (j + 1);
			j = (j * 5 + 3) & (PRIV - 1);
		}
		HT_EXPECT(hc[i] == acc, "scratch_walk[%d] = %d, expected %d", i, hc[i], acc);
	}
	printf("preempt: scratch_walk ok\n");

	hipLaunchKernelGGL(grid_stride, dim3(4), dim3(BLOCK), 0, 0, da, dl, N);
	HT_CHECK(hipGetLastError());
	HT_CHECK(hipMemcpy(hl, dl, N * sizeof(long long), hipMemcpyDeviceToHost));
	for (int i = 0; i < N; i++) {
		long long v = ha[i], e = v * v - 3 * v;
		HT_EXPECT(hl[i] == e, "grid_stride[%d] = %lld, expected %lld", i, hl[i], e);
	}
	printf("preempt: grid_stride ok\n");

	HT_CHECK(hipFree(da));
	HT_CHECK(hipFree(db));
	HT_CHECK(hipFree(dc));
	HT_CHECK(hipFree(dl));
	free(ha);
	free(hb);
	free(hc);
	free(hl);
	printf("preempt: PASS\n");
	return 0;
}
