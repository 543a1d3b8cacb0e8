/*
 * Kernel features: a block reduction in static shared memory with
 * __syncthreads, a tiled transpose in dynamic shared memory, and atomics on
 * global and shared memory (int/unsigned/64-bit add, float add, min, max,
 * CAS loop, exchange, and/or/xor, inc), each checked exactly against the host;
 * and device printf (HIP's hostcall buffer, serviced by a host thread; its
 * code needs scratch, which ROCr adds on demand when the CP reports it).
 */
#include "hip_test.h"

#include <unistd.h>

#define N (1 << 18)
#define NATOM (1 << 15) /* the CAS loop retries up to 64 times per wave */
#define BLOCK 256
#define TILE 16

__global__ void block_sum(const int *in, int *partial, int n)
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

__global__ void transpose(float *out, const float *in, int w, int h)
{
	extern __shared__ float tile[]; /* TILE x (TILE + 1) */
	int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
	if (x < w && y < h)
		tile[threadIdx.y * (TILE + 1) + threadIdx.x] = in[y * w + x];
	__syncthreads();
	x = blockIdx.y * TILE + threadIdx.x;
	y = blockIdx.x * TILE + threadIdx.y;
	if (x < h && y < w)
		out[y * h + x] = tile[threadIdx.x * (TILE + 1) + threadIdx.y];
}

struct counters {
	int add;
	unsigned int uadd;
	unsigned long long add64;
	float fadd;
	int min, max;
	unsigned int cas_sum;
	unsigned int or_bits, and_bits, xor_bits;
	unsigned int inc;
	int exch_seen;
};

__global__ void atomics(const int *in, int n, struct counters *c, unsigned int *hist)
{
	__shared__ unsigned int lhist[16];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (threadIdx.x < 16)
		lhist[threadIdx.x] = 0;
	__syncthreads();
	if (i < n) {
		int v = in[i];
		atomicAdd(&c->add, v);
		atomicAdd(&c->uadd, 1u);
		atomicAdd(&c->add64, (unsigned long long)v << 20);
		atomicAdd(&c->fadd, 1.0f);
		atomicMin(&c->min, v);
		atomicMax(&c->max, v);
		unsigned int old = c->cas_sum, assumed;
		do {
			assumed = old;
			old = atomicCAS(&c->cas_sum, assumed, assumed + (unsigned)(v & 7));
		} while (old != assumed);
		atomicOr(&c->or_bits, 1u << (i & 31));
		atomicAnd(&c->and_bits, ~(1u << (i % 29)));
		atomicXor(&c->xor_bits, (unsigned)i);
		atomicInc(&c->inc, 999u);
		atomicAdd(&lhist[v & 15], 1u);
		if (atomicExch(&c->exch_seen, 1) == 0)
			atomicAdd(&c->add, 0); /* exactly one thread sees 0 */
	}
	__syncthreads();
	if (threadIdx.x < 16)
		atomicAdd(&hist[threadIdx.x], lhist[threadIdx.x]);
}

__global__ void say(int v)
{
	if (threadIdx.x % 32 == 3)
		printf("lane %u says %d\n", (unsigned)threadIdx.x, v);
}

/* Runs say() with stdout sent to a temporary file; returns what it wrote. */
static void device_printf(void)
{
	char path[] = "/tmp/hip_printf_XXXXXX";
	int fd = mkstemp(path);
	HT_EXPECT(fd >= 0, "mkstemp");
	fflush(stdout);
	int saved = dup(1);
	dup2(fd, 1);
	hipLaunchKernelGGL(say, dim3(1), dim3(64), 0, 0, 1234);
	HT_CHECK(hipGetLastError());
	HT_CHECK(hipDeviceSynchronize());
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	char buf[256] = { 0 };
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	close(fd);
	unlink(path);
	HT_EXPECT(n > 0, "device printf wrote nothing");
	HT_EXPECT(strstr(buf, "lane 3 says 1234\n") && strstr(buf, "lane 35 says 1234\n"),
		  "device printf wrote \"%s\"", buf);
	HT_EXPECT(strlen(buf) == 2 * strlen("lane 3 says 1234\n") + 1, "device printf wrote \"%s\"",
		  buf);
	printf("device printf: ok\n");
}

static int value(int i)
{
	return (int)((i * 2654435761u) % 2001) - 1000;
}

int main(void)
{
	int *h_in = (int *)malloc(N * sizeof(int)), *d_in, *d_part;
	int nblocks = N / BLOCK;
	int *h_part = (int *)malloc(nblocks * sizeof(int));
	for (int i = 0; i < N; i++)
		h_in[i] = value(i);
	HT_CHECK(hipMalloc(&d_in, N * sizeof(int)));
	HT_CHECK(hipMalloc(&d_part, nblocks * sizeof(int)));
	HT_CHECK(hipMemcpy(d_in, h_in, N * sizeof(int), hipMemcpyHostToDevice));

	/* reduction */
	hipLaunchKernelGGL(block_sum, dim3(nblocks), dim3(BLOCK), 0, 0, d_in, d_part, N);
	HT_CHECK(hipGetLastError());
	HT_CHECK(hipMemcpy(h_part, d_part, nblocks * sizeof(int), hipMemcpyDeviceToHost));
	for (int b = 0; b < nblocks; b++) {
		int want = 0;
		for (int t = 0; t < BLOCK; t++)
			want += h_in[b * BLOCK + t];
		HT_EXPECT(h_part[b] == want, "block %d sum %d, expected %d", b, h_part[b], want);
	}
	printf("shared-memory reduction: ok\n");

	/* transpose, non-multiple-of-tile shape */
	const int w = 200, h = 77;
	float *h_m = (float *)malloc(w * h * sizeof(float)), *h_t = (float *)malloc(w * h * sizeof(float));
	float *d_m, *d_t;
	for (int i = 0; i < w * h; i++)
		h_m[i] = (float)i;
	HT_CHECK(hipMalloc(&d_m, w * h * sizeof(float)));
	HT_CHECK(hipMalloc(&d_t, w * h * sizeof(float)));
	HT_CHECK(hipMemcpy(d_m, h_m, w * h * sizeof(float), hipMemcpyHostToDevice));
	hipLaunchKernelGGL(transpose, dim3((w + TILE - 1) / TILE, (h + TILE - 1) / TILE),
			   dim3(TILE, TILE), TILE * (TILE + 1) * sizeof(float), 0, d_t, d_m, w, h);
	HT_CHECK(hipGetLastError());
	HT_CHECK(hipMemcpy(h_t, d_t, w * h * sizeof(float), hipMemcpyDeviceToHost));
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++)
			HT_EXPECT(h_t[x * h + y] == h_m[y * w + x], "transpose (%d,%d) = %f", x, y,
				  h_t[x * h + y]);
	printf("dynamic shared memory transpose: ok\n");

	/* atomics */
	struct counters hc, *dc;
	unsigned int hhist[16], *dhist;
	memset(&hc, 0, sizeof(hc));
	hc.min = 1 << 30;
	hc.max = -(1 << 30);
	hc.and_bits = 0xffffffffu;
	HT_CHECK(hipMalloc(&dc, sizeof(hc)));
	HT_CHECK(hipMalloc(&dhist, sizeof(hhist)));
	HT_CHECK(hipMemcpy(dc, &hc, sizeof(hc), hipMemcpyHostToDevice));
	HT_CHECK(hipMemset(dhist, 0, sizeof(hhist)));
	hipLaunchKernelGGL(atomics, dim3(NATOM / BLOCK), dim3(BLOCK), 0, 0, d_in, NATOM, dc, dhist);
	HT_CHECK(hipGetLastError());
	HT_CHECK(hipMemcpy(&hc, dc, sizeof(hc), hipMemcpyDeviceToHost));
	HT_CHECK(hipMemcpy(hhist, dhist, sizeof(hhist), hipMemcpyDeviceToHost));

	long long sum = 0;
	unsigned long long sum64 = 0;
	unsigned int cas = 0, xr = 0, want_hist[16] = { 0 }, and_bits = 0xffffffffu;
	int mn = 1 << 30, mx = -(1 << 30);
	for (int i = 0; i < NATOM; i++) {
		int v = h_in[i];
		sum += v;
		sum64 += (unsigned long long)v << 20;
		mn = v < mn ? v : mn;
		mx = v > mx ? v : mx;
		cas += (unsigned)(v & 7);
		xr ^= (unsigned)i;
		and_bits &= ~(1u << (i % 29));
		want_hist[v & 15]++;
	}
	HT_EXPECT(hc.add == (int)sum, "atomicAdd int %d, expected %lld", hc.add, sum);
	HT_EXPECT(hc.uadd == NATOM, "atomicAdd unsigned %u", hc.uadd);
	HT_EXPECT(hc.add64 == sum64, "atomicAdd 64-bit %llx, expected %llx", hc.add64, sum64);
	HT_EXPECT(hc.fadd == (float)NATOM, "atomicAdd float %f", hc.fadd);
	HT_EXPECT(hc.min == mn && hc.max == mx, "min/max %d %d, expected %d %d", hc.min, hc.max, mn,
		  mx);
	HT_EXPECT(hc.cas_sum == cas, "CAS loop %u, expected %u", hc.cas_sum, cas);
	HT_EXPECT(hc.or_bits == 0xffffffffu, "atomicOr %x", hc.or_bits);
	HT_EXPECT(hc.and_bits == and_bits, "atomicAnd %x, expected %x", hc.and_bits, and_bits);
	HT_EXPECT(hc.xor_bits == xr, "atomicXor %x, expected %x", hc.xor_bits, xr);
	/* atomicInc wraps to 0 after 999: NATOM increments from 0 */
	HT_EXPECT(hc.inc == NATOM % 1000, "atomicInc %u, expected %u", hc.inc, NATOM % 1000);
	HT_EXPECT(hc.exch_seen == 1, "atomicExch %d", hc.exch_seen);
	for (int b = 0; b < 16; b++)
		HT_EXPECT(hhist[b] == want_hist[b], "histogram[%d] %u, expected %u", b, hhist[b],
			  want_hist[b]);
	printf("atomics: ok\n");

	device_printf();

	HT_CHECK(hipFree(d_in));
	HT_CHECK(hipFree(d_part));
	HT_CHECK(hipFree(d_m));
	HT_CHECK(hipFree(d_t));
	HT_CHECK(hipFree(dc));
	HT_CHECK(hipFree(dhist));
	free(h_in);
	free(h_part);
	free(h_m);
	free(h_t);
	printf("kernels: PASS\n");
	return 0;
}
