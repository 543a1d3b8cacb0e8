// Scratch on demand through HIP (issue 15): HIP creates its queues with
// private_segment_size = UINT32_MAX and expects the runtime to give a
// dispatch the scratch it needs.  Kernels with a private array indexed at
// run time, and a recursive device function (a stack), run and compute
// the right values; prints PASSED and exits 0, else says what failed.
// The buffers are hipHostMalloc'ed (the kernels read and write host
// memory), so no copy engine is involved.
#include <hip/hip_runtime.h>
#include <stdio.h>

#define N 1024

__global__ void private_array(const unsigned *idx, unsigned *out)
{
	volatile unsigned buf[128];
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	for (unsigned k = 0; k < 128; k++)
		buf[k] = k * 3 + i;
	out[i] = buf[idx[i] & 127u];
}

__device__ __attribute__((noinline)) unsigned fib(unsigned n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__global__ void recursive(unsigned *out)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	out[i] = fib(i % 12);
}

static unsigned host_fib(unsigned n)
{
	return n < 2 ? n : host_fib(n - 1) + host_fib(n - 2);
}

#define CHECK(x)                                                                   \
	do {                                                                       \
		hipError_t e_ = (x);                                               \
		if (e_ != hipSuccess) {                                            \
			printf("%s: %s\n", #x, hipGetErrorString(e_));             \
			return 1;                                                  \
		}                                                                  \
	} while (0)

int main(void)
{
	unsigned *idx, *out;
	CHECK(hipHostMalloc((void **)&idx, N * sizeof(unsigned), hipHostMallocDefault));
	CHECK(hipHostMalloc((void **)&out, N * sizeof(unsigned), hipHostMallocDefault));
	for (unsigned i = 0; i < N; i++) {
		idx[i] = i * 7 + 5;
		out[i] = 0;
	}
	hipLaunchKernelGGL(private_array, dim3(N / 256), dim3(256), 0, 0, idx, out);
	CHECK(hipGetLastError());
	CHECK(hipDeviceSynchronize());
	for (unsigned i = 0; i < N; i++) {
		unsigned want = (idx[i] & 127u) * 3 + i;
		if (out[i] != want) {
			printf("private_array: out[%u] = %u, expected %u\n", i, out[i], want);
			return 1;
		}
	}
	hipLaunchKernelGGL(recursive, dim3(N / 256), dim3(256), 0, 0, out);
	CHECK(hipGetLastError());
	CHECK(hipDeviceSynchronize());
	for (unsigned i = 0; i < N; i++) {
		if (out[i] != host_fib(i % 12)) {
			printf("recursive: out[%u] = %u, expected %u\n", i, out[i], host_fib(i % 12));
			return 1;
		}
	}
	CHECK(hipHostFree(idx));
	CHECK(hipHostFree(out));
	printf("hip_scratch: PASSED\n");
	return 0;
}
