/*
 * Cooperative groups: grid.sync() in kernels launched with
 * hipLaunchCooperativeKernel (ROCr's GWS queue; HIP dispatches
 * __amd_rocclr_gwsInit(blocks - 1) before each launch and ockl's
 * __ockl_grid_sync is a ds_gws_barrier by work-item 0 of every block).
 * Each round reads what other blocks wrote in the previous one, then a
 * two-level reduction whose second level reads every block's partial sum:
 * without a working grid barrier the results differ from the host's.
 * Launched on two grid sizes (the barrier is re-armed for each) and with
 * an ordinary kernel in between; with two GPUs also a multi-device launch
 * whose grids exchange data across a multi_grid_group::sync().
 */
#include "hip_test.h"

#include <hip/hip_cooperative_groups.h>

namespace cg = cooperative_groups;

#define BLOCK 256
#define ROUNDS 5

__global__ void rounds_and_reduce(unsigned *a, unsigned *b, unsigned *partial, unsigned *out,
				  unsigned *info)
{
	cg::grid_group grid = cg::this_grid();
	__shared__ unsigned buf[BLOCK];
	unsigned n = (unsigned)grid.size();
	unsigned i = (unsigned)grid.thread_rank();
	if (i == 0) {
		info[0] = n;
		info[1] = grid.is_valid();
	}
	for (unsigned r = 0; r < ROUNDS; r++) {
		/* a neighbour in another block, further each round */
		unsigned j = (i + (r * 97 + 1) * BLOCK + r) % n;
		b[i] = a[i] + 3u * a[j] + r;
		grid.sync();
		unsigned *t = a;
		a = b;
		b = t;
	}
	buf[threadIdx.x] = a[i];
	__syncthreads();
	for (unsigned s = BLOCK / 2; s > 0; s >>= 1) {
		if (threadIdx.x < s)
			buf[threadIdx.x] += buf[threadIdx.x + s];
		__syncthreads();
	}
	if (threadIdx.x == 0)
		partial[blockIdx.x] = buf[0];
	grid.sync();
	/* every block sums every block's partial */
	if (threadIdx.x == 0) {
		unsigned s = 0;
		for (unsigned k = 0; k < gridDim.x; k++)
			s += partial[k] * (k + 1);
		out[blockIdx.x] = s;
	}
}

/* multi_grid_group::sync (__ockl_multi_grid_sync: a grid sync, then block
 * 0 of every grid meets the others on HIP's shared sync counters, then
 * another grid sync): each grid reads what the other device's grid wrote
 * before the sync. */
__global__ void multi_exchange(unsigned *mine, const unsigned *other, unsigned *out,
			       unsigned seed)
{
	cg::multi_grid_group mg = cg::this_multi_grid();
	unsigned n = gridDim.x * blockDim.x;
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	mine[i] = i * 3u + seed;
	mg.sync();
	out[i] = other[(i + BLOCK + 1) % n] + mg.grid_rank() * 0x10000000u;
}

__global__ void plain_add(unsigned *a, unsigned v)
{
	a[blockIdx.x * blockDim.x + threadIdx.x] += v;
}

static void host_model(unsigned nblocks, const unsigned *init, unsigned *expect_out)
{
	unsigned n = nblocks * BLOCK;
	unsigned *a = (unsigned *)malloc(n * 4), *b = (unsigned *)malloc(n * 4);
	memcpy(a, init, n * 4);
	for (unsigned r = 0; r < ROUNDS; r++) {
		for (unsigned i = 0; i < n; i++)
			b[i] = a[i] + 3u * a[(i + (r * 97 + 1) * BLOCK + r) % n] + r;
		unsigned *t = a;
		a = b;
		b = t;
	}
	unsigned s = 0;
	for (unsigned k = 0; k < nblocks; k++) {
		unsigned p = 0;
		for (unsigned i = 0; i < BLOCK; i++)
			p += a[k * BLOCK + i];
		s += p * (k + 1);
	}
	*expect_out = s;
	free(a);
	free(b);
}

static void run(unsigned nblocks, unsigned seed)
{
	unsigned n = nblocks * BLOCK;
	unsigned *h = (unsigned *)malloc(n * 4), *ho = (unsigned *)malloc(nblocks * 4);
	unsigned *a, *b, *partial, *out, *info, hinfo[2], expect;
	for (unsigned i = 0; i < n; i++)
		h[i] = i * 2654435761u + seed;
	host_model(nblocks, h, &expect);
	HT_CHECK(hipMalloc(&a, n * 4));
	HT_CHECK(hipMalloc(&b, n * 4));
	HT_CHECK(hipMalloc(&partial, nblocks * 4));
	HT_CHECK(hipMalloc(&out, nblocks * 4));
	HT_CHECK(hipMalloc(&info, 8));
	HT_CHECK(hipMemcpy(a, h, n * 4, hipMemcpyHostToDevice));
	HT_CHECK(hipMemset(out, 0, nblocks * 4));
	void *args[] = { &a, &b, &partial, &out, &info };
	HT_CHECK(hipLaunchCooperativeKernel((const void *)rounds_and_reduce, dim3(nblocks),
					    dim3(BLOCK), args, 0, 0));
	HT_CHECK(hipDeviceSynchronize());
	HT_CHECK(hipMemcpy(ho, out, nblocks * 4, hipMemcpyDeviceToHost));
	HT_CHECK(hipMemcpy(hinfo, info, 8, hipMemcpyDeviceToHost));
	HT_EXPECT(hinfo[0] == n, "grid.size() %u, expected %u", hinfo[0], n);
	HT_EXPECT(hinfo[1] == 1, "grid.is_valid() %u", hinfo[1]);
	for (unsigned k = 0; k < nblocks; k++)
		HT_EXPECT(ho[k] == expect, "%u blocks: block %u computed 0x%08x, host 0x%08x",
			  nblocks, k, ho[k], expect);
	/* an ordinary launch on the same device still works */
	hipLaunchKernelGGL(plain_add, dim3(nblocks), dim3(BLOCK), 0, 0, a, 7u);
	HT_CHECK(hipGetLastError());
	HT_CHECK(hipMemcpy(h, a, n * 4, hipMemcpyDeviceToHost));
	HT_CHECK(hipFree(info));
	HT_CHECK(hipFree(out));
	HT_CHECK(hipFree(partial));
	HT_CHECK(hipFree(b));
	HT_CHECK(hipFree(a));
	free(ho);
	free(h);
	printf("coop: %u blocks x %u: %u grid syncs, result 0x%08x\n", nblocks, BLOCK,
	       ROUNDS + 1, expect);
}

/* hipLaunchCooperativeKernelMultiDevice on the first two devices. */
static void run_multi(void)
{
	const unsigned nblocks = 4, n = nblocks * BLOCK;
	unsigned *mine[2], *out[2], seeds[2] = { 11, 1000 }, *h = (unsigned *)malloc(n * 4);
	hipStream_t st[2];
	hipLaunchParams lp[2];
	void *args[2][4];
	int multi = 0;
	HT_CHECK(hipDeviceGetAttribute(&multi, hipDeviceAttributeCooperativeMultiDeviceLaunch, 0));
	HT_EXPECT(multi == 1, "hipDeviceAttributeCooperativeMultiDeviceLaunch %d", multi);
	for (int d = 0; d < 2; d++) {
		HT_CHECK(hipSetDevice(d));
		HT_CHECK(hipMallocManaged((void **)&mine[d], n * 4));
		HT_CHECK(hipMalloc((void **)&out[d], n * 4));
		HT_CHECK(hipStreamCreate(&st[d]));
	}
	for (int d = 0; d < 2; d++) {
		args[d][0] = &mine[d];
		args[d][1] = &mine[1 - d];
		args[d][2] = &out[d];
		args[d][3] = &seeds[d];
		lp[d].func = (void *)multi_exchange;
		lp[d].gridDim = dim3(nblocks);
		lp[d].blockDim = dim3(BLOCK);
		lp[d].sharedMem = 0;
		lp[d].stream = st[d];
		lp[d].args = args[d];
	}
	HT_CHECK(hipLaunchCooperativeKernelMultiDevice(lp, 2, 0));
	for (int d = 0; d < 2; d++) {
		HT_CHECK(hipSetDevice(d));
		HT_CHECK(hipDeviceSynchronize());
		HT_CHECK(hipMemcpy(h, out[d], n * 4, hipMemcpyDeviceToHost));
		for (unsigned i = 0; i < n; i++) {
			unsigned want = ((i + BLOCK + 1) % n) * 3u + seeds[1 - d] + d * 0x10000000u;
			HT_EXPECT(h[i] == want, "device %d item %u read 0x%08x, expected 0x%08x", d,
				  i, h[i], want);
		}
	}
	for (int d = 0; d < 2; d++) {
		HT_CHECK(hipSetDevice(d));
		HT_CHECK(hipStreamDestroy(st[d]));
		HT_CHECK(hipFree(out[d]));
		HT_CHECK(hipFree(mine[d]));
	}
	HT_CHECK(hipSetDevice(0));
	free(h);
	printf("coop: multi-device grid sync on 2 devices x %u blocks\n", nblocks);
}

int main(void)
{
	int ndev = 0;
	int coop = 0, blocks_per_cu = 0, cus = 0;
	HT_CHECK(hipDeviceGetAttribute(&coop, hipDeviceAttributeCooperativeLaunch, 0));
	HT_EXPECT(coop == 1, "hipDeviceAttributeCooperativeLaunch %d", coop);
	HT_CHECK(hipDeviceGetAttribute(&cus, hipDeviceAttributeMultiprocessorCount, 0));
	HT_CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_cu,
							       (const void *)rounds_and_reduce,
							       BLOCK, 0));
	HT_EXPECT(blocks_per_cu >= 1 && cus >= 12, "%d blocks per CU, %d CUs", blocks_per_cu, cus);
	run(12, 1);
	run(5, 2);
	/* a grid larger than the device can hold is refused, not run */
	hipError_t e = hipLaunchCooperativeKernel((const void *)rounds_and_reduce,
						  dim3(blocks_per_cu * cus + 1), dim3(BLOCK),
						  (void **)NULL, 0, 0);
	HT_EXPECT(e != hipSuccess, "a cooperative grid of %d blocks was accepted",
		  blocks_per_cu * cus + 1);
	HT_CHECK(hipGetDeviceCount(&ndev));
	if (ndev >= 2)
		run_multi();
	return 0;
}
