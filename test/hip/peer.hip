/*
 * Two GPUs: peer access is reported and enabled both ways
 * (hipDeviceEnablePeerAccess, a second enable is
 * hipErrorPeerAccessAlreadyEnabled), hipMemcpyPeer / hipMemcpyPeerAsync move
 * data between the GPUs' VRAM (also at unaligned offsets), a kernel on GPU 0
 * reads GPU 1's memory directly, and peer access can be disabled again.
 * Skips (77) with fewer than two GPUs.
 */
#include "hip_test.h"

#define N (1 << 20)

__global__ void add_remote(int *out, const int *local, const int *remote, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = local[i] + remote[i];
}

int main(void)
{
	int n = 0;
	HT_CHECK(hipGetDeviceCount(&n));
	if (n < 2) {
		printf("peer: %d GPU(s), needs 2: skipped\n", n);
		return HT_SKIP;
	}
	int can01 = 0, can10 = 0;
	HT_CHECK(hipDeviceCanAccessPeer(&can01, 0, 1));
	HT_CHECK(hipDeviceCanAccessPeer(&can10, 1, 0));
	HT_EXPECT(can01 == 1 && can10 == 1, "can access peer 0->1 %d, 1->0 %d", can01, can10);
	int self = -1;
	HT_CHECK(hipDeviceCanAccessPeer(&self, 0, 0));
	HT_EXPECT(self == 0, "a device is not its own peer (%d)", self);

	HT_CHECK(hipSetDevice(0));
	HT_CHECK(hipDeviceEnablePeerAccess(1, 0));
	HT_EXPECT(hipDeviceEnablePeerAccess(1, 0) == hipErrorPeerAccessAlreadyEnabled,
		  "second enable 0->1");
	HT_CHECK(hipSetDevice(1));
	HT_CHECK(hipDeviceEnablePeerAccess(0, 0));

	size_t bytes = N * sizeof(int);
	int *h = (int *)malloc(bytes + 64), *d0, *d1, *out;
	HT_CHECK(hipSetDevice(0));
	HT_CHECK(hipMalloc(&d0, bytes + 64));
	HT_CHECK(hipMalloc(&out, bytes));
	HT_CHECK(hipSetDevice(1));
	HT_CHECK(hipMalloc(&d1, bytes + 64));

	/* GPU 0 -> GPU 1 */
	for (int i = 0; i < N; i++)
		h[i] = i * 3 + 1;
	HT_CHECK(hipSetDevice(0));
	HT_CHECK(hipMemcpy(d0, h, bytes, hipMemcpyHostToDevice));
	HT_CHECK(hipMemcpyPeer(d1, 1, d0, 0, bytes));
	memset(h, 0, bytes);
	HT_CHECK(hipSetDevice(1));
	HT_CHECK(hipMemcpy(h, d1, bytes, hipMemcpyDeviceToHost));
	for (int i = 0; i < N; i++)
		HT_EXPECT(h[i] == i * 3 + 1, "peer copy 0->1 [%d] = %d", i, h[i]);

	/* GPU 1 -> GPU 0, async, unaligned */
	uint8_t *hb = (uint8_t *)h;
	ht_fill(hb, 100003, 9);
	HT_CHECK(hipMemcpy((uint8_t *)d1 + 1, hb, 100003, hipMemcpyHostToDevice));
	hipStream_t s;
	HT_CHECK(hipSetDevice(1));
	HT_CHECK(hipStreamCreate(&s));
	HT_CHECK(hipMemcpyPeerAsync((uint8_t *)d0 + 3, 0, (uint8_t *)d1 + 1, 1, 100003, s));
	HT_CHECK(hipStreamSynchronize(s));
	HT_CHECK(hipStreamDestroy(s));
	memset(hb, 0, 100003);
	HT_CHECK(hipSetDevice(0));
	HT_CHECK(hipMemcpy(hb, (uint8_t *)d0 + 3, 100003, hipMemcpyDeviceToHost));
	size_t bad = ht_mismatch(hb, 100003, 9);
	HT_EXPECT(bad == 100003, "peer copy 1->0 unaligned: byte %zu wrong", bad);

	/* a kernel on GPU 0 reading GPU 1's VRAM */
	for (int i = 0; i < N; i++)
		h[i] = i;
	HT_CHECK(hipSetDevice(1));
	HT_CHECK(hipMemcpy(d1, h, bytes, hipMemcpyHostToDevice));
	HT_CHECK(hipSetDevice(0));
	for (int i = 0; i < N; i++)
		h[i] = 1000000;
	HT_CHECK(hipMemcpy(d0, h, bytes, hipMemcpyHostToDevice));
	hipLaunchKernelGGL(add_remote, dim3(N / 256), dim3(256), 0, 0, out, d0, d1, N);
	HT_CHECK(hipGetLastError());
	HT_CHECK(hipMemcpy(h, out, bytes, hipMemcpyDeviceToHost));
	for (int i = 0; i < N; i++)
		HT_EXPECT(h[i] == 1000000 + i, "remote read [%d] = %d", i, h[i]);

	HT_CHECK(hipDeviceDisablePeerAccess(1));
	HT_EXPECT(hipDeviceDisablePeerAccess(1) == hipErrorPeerAccessNotEnabled,
		  "second disable 0->1");
	HT_CHECK(hipFree(d0));
	HT_CHECK(hipFree(out));
	HT_CHECK(hipSetDevice(1));
	HT_CHECK(hipFree(d1));
	free(h);
	printf("peer: PASS\n");
	return 0;
}
