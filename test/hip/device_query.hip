/*
 * Device query: the count, properties and attributes HIP derives from ROCr's
 * agent info, checked against what the emulated MI210 (gfx90a) reports, and
 * a kernel run on every device.  argv[1]: the number of GPUs expected.
 */
#include "hip_test.h"

__global__ void mark(int *out, int v)
{
	out[threadIdx.x] = v + (int)threadIdx.x;
}

int main(int argc, char **argv)
{
	int want = argc > 1 ? atoi(argv[1]) : 1;
	int n = 0;
	HT_CHECK(hipGetDeviceCount(&n));
	HT_EXPECT(n == want, "%d devices, expected %d", n, want);

	int drv = 0, rt = 0;
	HT_CHECK(hipDriverGetVersion(&drv));
	HT_CHECK(hipRuntimeGetVersion(&rt));
	HT_EXPECT(drv > 0 && rt > 0, "driver %d runtime %d", drv, rt);

	int bus0 = -1;
	for (int d = 0; d < n; d++) {
		hipDeviceProp_t p;
		HT_CHECK(hipGetDeviceProperties(&p, d));
		printf("device %d: %s arch %s CUs %d mem %zu MiB bus %d\n", d, p.name,
		       p.gcnArchName, p.multiProcessorCount, p.totalGlobalMem >> 20, p.pciBusID);
		HT_EXPECT(strncmp(p.gcnArchName, "gfx90a", 6) == 0, "arch %s", p.gcnArchName);
#if HIP_VERSION_MAJOR < 6 /* HIP 6 dropped gcnArch (gcnArchName stays) */
		HT_EXPECT(p.gcnArch == 910, "gcnArch %d", p.gcnArch);
#endif
		HT_EXPECT(p.major == 9 && p.minor == 0, "cc %d.%d", p.major, p.minor);
		HT_EXPECT(p.multiProcessorCount == 104, "%d CUs (MI210: 104)", p.multiProcessorCount);
		HT_EXPECT(p.warpSize == 64, "warp %d", p.warpSize);
		HT_EXPECT(p.maxThreadsPerBlock == 1024, "maxThreadsPerBlock %d", p.maxThreadsPerBlock);
		HT_EXPECT(p.maxThreadsDim[0] == 1024, "maxThreadsDim[0] %d", p.maxThreadsDim[0]);
		HT_EXPECT(p.sharedMemPerBlock == 65536, "LDS %zu", p.sharedMemPerBlock);
		HT_EXPECT(p.totalGlobalMem >= (60ull << 30), "VRAM %zu", p.totalGlobalMem);
		HT_EXPECT(p.l2CacheSize == 8 << 20, "L2 %d", p.l2CacheSize);
		HT_EXPECT(p.clockRate > 0 && p.memoryClockRate > 0, "clocks %d %d", p.clockRate,
			  p.memoryClockRate);
		HT_EXPECT(p.isMultiGpuBoard == 0 || p.isMultiGpuBoard == 1, "mgpu %d",
			  p.isMultiGpuBoard);
		if (d == 0)
			bus0 = p.pciBusID;
		else
			HT_EXPECT(p.pciBusID != bus0, "devices 0 and %d share bus %d", d, bus0);

		int v = 0;
		HT_CHECK(hipDeviceGetAttribute(&v, hipDeviceAttributeMultiprocessorCount, d));
		HT_EXPECT(v == p.multiProcessorCount, "attribute CUs %d", v);
		HT_CHECK(hipDeviceGetAttribute(&v, hipDeviceAttributeWarpSize, d));
		HT_EXPECT(v == 64, "attribute warp %d", v);

		HT_CHECK(hipSetDevice(d));
		int cur = -1;
		HT_CHECK(hipGetDevice(&cur));
		HT_EXPECT(cur == d, "current %d", cur);
		size_t free_b = 0, total_b = 0;
		HT_CHECK(hipMemGetInfo(&free_b, &total_b));
		HT_EXPECT(total_b > 0 && free_b <= total_b, "free %zu total %zu", free_b, total_b);

		int *dev, host[64];
		HT_CHECK(hipMalloc(&dev, sizeof(host)));
		hipLaunchKernelGGL(mark, dim3(1), dim3(64), 0, 0, dev, 1000 * (d + 1));
		HT_CHECK(hipGetLastError());
		HT_CHECK(hipMemcpy(host, dev, sizeof(host), hipMemcpyDeviceToHost));
		for (int i = 0; i < 64; i++)
			HT_EXPECT(host[i] == 1000 * (d + 1) + i, "device %d out[%d] = %d", d, i,
				  host[i]);
		HT_CHECK(hipFree(dev));
	}
	HT_EXPECT(hipSetDevice(n) == hipErrorInvalidDevice, "hipSetDevice(%d) accepted", n);
	printf("device_query: PASS\n");
	return 0;
}
