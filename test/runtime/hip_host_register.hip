/*
 * HIP's pinned host memory on the runtime under test: two 1 KiB buffers on
 * one page registered with hipHostRegister (hsa_amd_memory_lock_to_pool),
 * written by kernels through their device pointers, read on the host, and
 * unregistered.  hipamd 5.2.3's hipHostUnregister aborts ("Memobj map does
 * not have ptr") unless the device pointer differs from the host pointer,
 * as ROCr's lock returns it.  Run on hsalite and on Debian's ROCr (peer).
 * Exit 0 on success.
 */
#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstdlib>

__global__ void add_index(int *p, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		p[i] += i;
}

#define CHECK(x)                                                                     \
	do {                                                                         \
		hipError_t e_ = (x);                                                 \
		if (e_ != hipSuccess) {                                              \
			fprintf(stderr, "%s: %s\n", #x, hipGetErrorString(e_));      \
			return 1;                                                    \
		}                                                                    \
	} while (0)

int main()
{
	const int n = 256;
	char *page = static_cast<char *>(aligned_alloc(4096, 4096));
	int *host[2] = { reinterpret_cast<int *>(page), reinterpret_cast<int *>(page + 1024) };
	int *dev[2];
	for (int k = 0; k < 2; k++) {
		for (int i = 0; i < n; i++)
			host[k][i] = 1000 * (k + 1);
		CHECK(hipHostRegister(host[k], n * sizeof(int), hipHostRegisterDefault));
	}
	for (int k = 0; k < 2; k++) {
		CHECK(hipHostGetDevicePointer(reinterpret_cast<void **>(&dev[k]), host[k], 0));
#if HIP_VERSION_MAJOR < 6
		/* hipamd 5.2.3 needs the distinct pointer (header comment).  From
		 * HIP 6 on either answer is right: ROCr 1.18's thunk registers
		 * host memory through the SVM API where the kernel has it
		 * (SET_ATTR on the range), and an SVM range is mapped for the
		 * GPU at its CPU address, so there the device pointer IS the
		 * host pointer. */
		if (static_cast<void *>(dev[k]) == static_cast<void *>(host[k])) {
			fprintf(stderr, "buffer %d: the device pointer is the host pointer\n", k);
			return 1;
		}
#endif
		hipLaunchKernelGGL(add_index, dim3(n / 64), dim3(64), 0, 0, dev[k], n);
	}
	CHECK(hipDeviceSynchronize());
	for (int k = 0; k < 2; k++)
		for (int i = 0; i < n; i++)
			if (host[k][i] != 1000 * (k + 1) + i) {
				fprintf(stderr, "buffer %d element %d: %d, expected %d\n", k, i,
					host[k][i], 1000 * (k + 1) + i);
				return 1;
			}
	/* In the other order than registered. */
	CHECK(hipHostUnregister(host[1]));
	CHECK(hipHostUnregister(host[0]));
	free(page);
	printf("hip_host_register: PASS\n");
	return 0;
}
