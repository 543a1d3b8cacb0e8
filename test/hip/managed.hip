/*
 * Managed memory (HIP 5.2.3 over the runtime's SVM calls): with SVM
 * supported, hipMallocManaged memory is ordinary host memory registered as
 * SVM ranges, hipMemAdvise and hipMemPrefetchAsync set range attributes
 * (hsa_amd_svm_attributes_set, hsa_amd_svm_prefetch_async) and
 * hipMemRangeGetAttribute reads them back.  A kernel updates managed
 * memory the host initialised and the host checks it; with XNACK on
 * (HSA_XNACK=1, argv[1] = 1) a kernel also uses plain malloc'ed memory.
 */
#include "hip_test.h"

#define N (1 << 16)

__global__ void twice_plus_one(int *p, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		p[i] = 2 * p[i] + 1;
}

static void check(const int *p, int n, int base, const char *what)
{
	for (int i = 0; i < n; i++)
		HT_EXPECT(p[i] == 2 * (base + i) + 1, "%s: element %d is %d, expected %d", what, i,
			  p[i], 2 * (base + i) + 1);
}

static int range_attr(hipMemRangeAttribute attr, const void *p, size_t size)
{
	int v = -5;
	HT_CHECK(hipMemRangeGetAttribute(&v, sizeof(v), attr, p, size));
	return v;
}

int main(int argc, char **argv)
{
	bool xnack = argc > 1 && atoi(argv[1]) == 1;
	int managed = -1, concurrent = -1;
	HT_CHECK(hipDeviceGetAttribute(&managed, hipDeviceAttributeManagedMemory, 0));
	HT_CHECK(hipDeviceGetAttribute(&concurrent, hipDeviceAttributeConcurrentManagedAccess, 0));
	HT_EXPECT(managed == 1, "managedMemory %d", managed);
	/* HIP 5.2.3 reports concurrent managed access from SVM support alone,
	 * XNACK on or off (ROCr and hsalite alike) */
	HT_EXPECT(concurrent == 1, "concurrentManagedAccess %d", concurrent);

	int *m = NULL;
	const size_t bytes = N * sizeof(int);
	HT_CHECK(hipMallocManaged((void **)&m, bytes, hipMemAttachGlobal));
	for (int i = 0; i < N; i++)
		m[i] = i;
	HT_CHECK(hipMemAdvise(m, bytes, hipMemAdviseSetPreferredLocation, 0));
	HT_CHECK(hipMemAdvise(m, bytes, hipMemAdviseSetAccessedBy, 0));
	HT_EXPECT(range_attr(hipMemRangeAttributePreferredLocation, m, bytes) == 0,
		  "preferred location %d", range_attr(hipMemRangeAttributePreferredLocation, m, bytes));
	hipStream_t s;
	HT_CHECK(hipStreamCreate(&s));
	HT_CHECK(hipMemPrefetchAsync(m, bytes, 0, s));
	hipLaunchKernelGGL(twice_plus_one, dim3(N / 256), dim3(256), 0, s, m, N);
	HT_CHECK(hipGetLastError());
	HT_CHECK(hipStreamSynchronize(s));
	check(m, N, 0, "managed, prefetched to the GPU");
	HT_EXPECT(range_attr(hipMemRangeAttributeLastPrefetchLocation, m, bytes) == 0,
		  "last prefetch location %d",
		  range_attr(hipMemRangeAttributeLastPrefetchLocation, m, bytes));

	/* back to the host, read-mostly on and off */
	HT_CHECK(hipMemPrefetchAsync(m, bytes, hipCpuDeviceId, s));
	HT_CHECK(hipStreamSynchronize(s));
	HT_EXPECT(range_attr(hipMemRangeAttributeLastPrefetchLocation, m, bytes) == hipCpuDeviceId,
		  "last prefetch location %d after prefetching to the CPU",
		  range_attr(hipMemRangeAttributeLastPrefetchLocation, m, bytes));
	HT_CHECK(hipMemAdvise(m, bytes, hipMemAdviseSetReadMostly, 0));
	HT_EXPECT(range_attr(hipMemRangeAttributeReadMostly, m, bytes) == 1, "read mostly %d",
		  range_attr(hipMemRangeAttributeReadMostly, m, bytes));
	HT_CHECK(hipMemAdvise(m, bytes, hipMemAdviseUnsetReadMostly, 0));
	HT_EXPECT(range_attr(hipMemRangeAttributeReadMostly, m, bytes) == 0, "read mostly %d",
		  range_attr(hipMemRangeAttributeReadMostly, m, bytes));

	/* the host writes, the GPU updates, the host reads: no copies */
	for (int i = 0; i < N; i++)
		m[i] = 1000 + i;
	hipLaunchKernelGGL(twice_plus_one, dim3(N / 256), dim3(256), 0, 0, m, N);
	HT_CHECK(hipGetLastError());
	HT_CHECK(hipDeviceSynchronize());
	check(m, N, 1000, "managed, rewritten by the host");

	hipPointerAttribute_t pa;
	HT_CHECK(hipPointerGetAttributes(&pa, m));
	HT_EXPECT(pa.isManaged == 1, "isManaged %d", pa.isManaged);
	HT_CHECK(hipFree(m));

	if (xnack) {
		int *h = (int *)malloc(bytes);
		for (int i = 0; i < N; i++)
			h[i] = 7 + i;
		hipLaunchKernelGGL(twice_plus_one, dim3(N / 256), dim3(256), 0, 0, h, N);
		HT_CHECK(hipGetLastError());
		HT_CHECK(hipDeviceSynchronize());
		check(h, N, 7, "malloc'ed, XNACK on");
		free(h);
	}
	HT_CHECK(hipStreamDestroy(s));
	printf("managed memory (XNACK %s): ok\n", xnack ? "on" : "off");
	return 0;
}
