/*
 * 16-bit and mixed-precision kernels: the three instructions rocRAND and
 * rocPRIM stopped on under kfdemu (issue 23), as hipcc emits them for
 * gfx90a — fptrunc(fma(f32)) and fptrunc(fma(fpext f16)) to half give
 * v_fma_mixlo_f16, an add of two ushort2 vectors v_pk_add_u16, a min of
 * three shorts v_min3_i16 — each over 2^16 elements of edge values and
 * hashed bits, checked exactly against the host (_Float16 for the
 * rounding to half: fmaf once in f32, then round to nearest even).
 */
#include "hip_test.h"

#include <hip/hip_fp16.h>
#include <math.h>

#define N (1 << 16)
#define BLOCK 256

typedef unsigned short us2 __attribute__((ext_vector_type(2)));

__global__ void mixlo_f32(const float *a, const float *b, const float *c, __half *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = __float2half(fmaf(a[i], b[i], c[i]));
}

__global__ void mixlo_f16(const __half *a, const __half *b, const float *c, __half *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = __float2half(fmaf(__half2float(a[i]), __half2float(b[i]), c[i]));
}

__global__ void pk_add_u16(const us2 *a, const us2 *b, us2 *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = a[i] + b[i];
}

__global__ void min3_i16(const short *a, const short *b, const short *c, short *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		short x = a[i], y = b[i], z = c[i];
		short m = x < y ? x : y;
		out[i] = m < z ? m : z;
	}
}

static uint32_t hash(uint32_t seed, uint32_t i)
{
	uint64_t x = (uint64_t)seed * 0x9E3779B97F4A7C15ull + i * 0xBF58476D1CE4E5B9ull;
	x ^= x >> 31;
	x *= 0x94D049BB133111EBull;
	return (uint32_t)(x ^ (x >> 29));
}

static float fbits(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}

static uint16_t hbits_of(_Float16 h)
{
	uint16_t u;
	memcpy(&u, &h, 2);
	return u;
}

static _Float16 half_of(uint16_t u)
{
	_Float16 h;
	memcpy(&h, &u, 2);
	return h;
}

/* f32 inputs around the f16 range (normals, denormals, overflow) and a
 * few specials; no NaN input, but 0 * inf makes one. */
/* The half the GPU stores for fmaf(x, y, z): an invalid operation gives
 * AMD's default NaN, which is positive (x86's is negative). */
static uint16_t want_mixlo(float x, float y, float z)
{
	float r = fmaf(x, y, z);
	return isnan(r) ? 0x7e00 : hbits_of((_Float16)r);
}

static float gen_f32(uint32_t seed, uint32_t i)
{
	static const uint32_t edge[] = { 0x00000000, 0x80000000, 0x7f800000, 0xff800000,
		0x3f800000, 0x477fe000, 0x477ff000, 0x33800000, 0x33000000, 0x387fc000 };
	uint32_t h = hash(seed, i);
	if (h % 8 == 0)
		return fbits(edge[(h >> 3) % (sizeof(edge) / sizeof(edge[0]))]);
	return fbits((h & 0x807fffff) | ((100 + (h >> 8) % 50) << 23));
}

static uint16_t gen_f16(uint32_t seed, uint32_t i)
{
	uint16_t h = (uint16_t)hash(seed, i);
	if ((h & 0x7c00) == 0x7c00)
		h &= 0xbfff; /* finite */
	return h;
}

static void check_mix(void)
{
	float *ha = (float *)malloc(3 * N * sizeof(float));
	uint16_t *h16 = (uint16_t *)malloc(2 * N * sizeof(uint16_t)), *hout = (uint16_t *)malloc(N * 2);
	float *da;
	__half *d16, *dout;
	int bad = 0;

	for (int i = 0; i < 3 * N; i++)
		ha[i] = gen_f32(1, (uint32_t)i);
	for (int i = 0; i < 2 * N; i++)
		h16[i] = gen_f16(2, (uint32_t)i);
	HT_CHECK(hipMalloc(&da, 3 * N * sizeof(float)));
	HT_CHECK(hipMalloc(&d16, 2 * N * sizeof(__half)));
	HT_CHECK(hipMalloc(&dout, N * sizeof(__half)));
	HT_CHECK(hipMemcpy(da, ha, 3 * N * sizeof(float), hipMemcpyHostToDevice));
	HT_CHECK(hipMemcpy(d16, h16, 2 * N * sizeof(uint16_t), hipMemcpyHostToDevice));

	hipLaunchKernelGGL(mixlo_f32, dim3(N / BLOCK), dim3(BLOCK), 0, 0, da, da + N, da + 2 * N, dout, N);
	HT_CHECK(hipGetLastError());
	HT_CHECK(hipMemcpy(hout, dout, N * 2, hipMemcpyDeviceToHost));
	for (int i = 0; i < N; i++) {
		uint16_t want = want_mixlo(ha[i], ha[N + i], ha[2 * N + i]);
		if (hout[i] != want && bad++ < 5)
			fprintf(stderr, "mixlo_f32 [%d]: %a * %a + %a: got 0x%04x, want 0x%04x\n", i,
				ha[i], ha[N + i], ha[2 * N + i], hout[i], want);
	}

	hipLaunchKernelGGL(mixlo_f16, dim3(N / BLOCK), dim3(BLOCK), 0, 0, d16, d16 + N, da + 2 * N, dout, N);
	HT_CHECK(hipGetLastError());
	HT_CHECK(hipMemcpy(hout, dout, N * 2, hipMemcpyDeviceToHost));
	for (int i = 0; i < N; i++) {
		float x = (float)half_of(h16[i]), y = (float)half_of(h16[N + i]);
		uint16_t want = want_mixlo(x, y, ha[2 * N + i]);
		if (hout[i] != want && bad++ < 5)
			fprintf(stderr, "mixlo_f16 [%d]: 0x%04x * 0x%04x + %a: got 0x%04x, want 0x%04x\n", i,
				h16[i], h16[N + i], ha[2 * N + i], hout[i], want);
	}
	HT_CHECK(hipFree(da));
	HT_CHECK(hipFree(d16));
	HT_CHECK(hipFree(dout));
	free(ha);
	free(h16);
	free(hout);
	HT_EXPECT(bad == 0, "%d v_fma_mixlo_f16 results differ", bad);
	printf("v_fma_mixlo_f16: ok\n");
}

static void check_int16(void)
{
	static const uint16_t edge[] = { 0, 1, 0x7fff, 0x8000, 0xffff, 0xfffe, 0x8001 };
	uint16_t *h = (uint16_t *)malloc(3 * N * 2), *hout = (uint16_t *)malloc(2 * N * 2);
	uint16_t *d, *dout;
	int bad = 0;

	for (int i = 0; i < 3 * N; i++) {
		uint32_t x = hash(3, (uint32_t)i);
		h[i] = x % 4 == 0 ? edge[(x >> 2) % 7] : (uint16_t)(x >> 8);
	}
	HT_CHECK(hipMalloc(&d, 3 * N * 2));
	HT_CHECK(hipMalloc(&dout, 2 * N * 2));
	HT_CHECK(hipMemcpy(d, h, 3 * N * 2, hipMemcpyHostToDevice));

	/* N/2 ushort2 pairs from the first N and next N shorts */
	hipLaunchKernelGGL(pk_add_u16, dim3(N / 2 / BLOCK), dim3(BLOCK), 0, 0, (const us2 *)d,
			   (const us2 *)(d + N), (us2 *)dout, N / 2);
	HT_CHECK(hipGetLastError());
	HT_CHECK(hipMemcpy(hout, dout, N * 2, hipMemcpyDeviceToHost));
	for (int i = 0; i < N; i++) {
		uint16_t want = (uint16_t)(h[i] + h[N + i]);
		if (hout[i] != want && bad++ < 5)
			fprintf(stderr, "pk_add_u16 [%d]: 0x%04x + 0x%04x: got 0x%04x, want 0x%04x\n", i,
				h[i], h[N + i], hout[i], want);
	}

	hipLaunchKernelGGL(min3_i16, dim3(N / BLOCK), dim3(BLOCK), 0, 0, (const short *)d,
			   (const short *)(d + N), (const short *)(d + 2 * N), (short *)dout, N);
	HT_CHECK(hipGetLastError());
	HT_CHECK(hipMemcpy(hout, dout, N * 2, hipMemcpyDeviceToHost));
	for (int i = 0; i < N; i++) {
		short x = (short)h[i], y = (short)h[N + i], z = (short)h[2 * N + i];
		short m = x < y ? x : y;
		uint16_t want = (uint16_t)(m < z ? m : z);
		if (hout[i] != want && bad++ < 5)
			fprintf(stderr, "min3_i16 [%d]: %d %d %d: got %d, want %d\n", i, x, y, z,
				(short)hout[i], (short)want);
	}
	HT_CHECK(hipFree(d));
	HT_CHECK(hipFree(dout));
	free(h);
	free(hout);
	HT_EXPECT(bad == 0, "%d v_pk_add_u16 / v_min3_i16 results differ", bad);
	printf("v_pk_add_u16, v_min3_i16: ok\n");
}

int main(void)
{
	check_mix();
	check_int16();
	return 0;
}
