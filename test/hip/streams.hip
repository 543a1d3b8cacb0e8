/*
 * Streams and events: four streams each run hipMemcpyAsync (pinned host ->
 * device), a kernel, hipMemcpyAsync back, bracketed by events; a fifth
 * stream waits on the others' events (hipStreamWaitEvent) before combining
 * their results.  Checks the data, hipEventElapsedTime (non-negative and
 * ordered), hipEventQuery / hipStreamQuery after completion, and that work
 * on the null stream waits for blocking streams.
 */
#include "hip_test.h"

#define NSTREAMS 4
#define N (1 << 16)

__global__ void scale_add(float *x, float a, float b, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] = x[i] * a + b;
}

__global__ void combine(float *out, float *const *in, int nin, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		float s = 0;
		for (int k = 0; k < nin; k++)
			s += in[k][i];
		out[i] = s;
	}
}

int main(void)
{
	hipStream_t s[NSTREAMS + 1];
	hipEvent_t start[NSTREAMS], mid[NSTREAMS], stop[NSTREAMS];
	float *host[NSTREAMS], *dev[NSTREAMS], *sum, **devv;
	size_t bytes = N * sizeof(float);

	for (int k = 0; k <= NSTREAMS; k++)
		HT_CHECK(hipStreamCreate(&s[k]));
	for (int k = 0; k < NSTREAMS; k++) {
		HT_CHECK(hipEventCreate(&start[k]));
		HT_CHECK(hipEventCreate(&mid[k]));
		HT_CHECK(hipEventCreate(&stop[k]));
		HT_CHECK(hipHostMalloc(&host[k], bytes, hipHostMallocDefault));
		HT_CHECK(hipMalloc(&dev[k], bytes));
		for (int i = 0; i < N; i++)
			host[k][i] = (float)(i % 1000) + k;
	}
	HT_CHECK(hipMalloc(&sum, bytes));
	HT_CHECK(hipMalloc(&devv, sizeof(float *) * NSTREAMS));
	HT_CHECK(hipMemcpy(devv, dev, sizeof(float *) * NSTREAMS, hipMemcpyHostToDevice));

	for (int k = 0; k < NSTREAMS; k++) {
		HT_CHECK(hipEventRecord(start[k], s[k]));
		HT_CHECK(hipMemcpyAsync(dev[k], host[k], bytes, hipMemcpyHostToDevice, s[k]));
		hipLaunchKernelGGL(scale_add, dim3(N / 256), dim3(256), 0, s[k], dev[k], 2.0f,
				   (float)k, N);
		HT_CHECK(hipGetLastError());
		HT_CHECK(hipEventRecord(mid[k], s[k]));
		HT_CHECK(hipMemcpyAsync(host[k], dev[k], bytes, hipMemcpyDeviceToHost, s[k]));
		HT_CHECK(hipEventRecord(stop[k], s[k]));
		HT_CHECK(hipStreamWaitEvent(s[NSTREAMS], mid[k], 0));
	}
	hipLaunchKernelGGL(combine, dim3(N / 256), dim3(256), 0, s[NSTREAMS], sum, devv, NSTREAMS,
			   N);
	HT_CHECK(hipGetLastError());

	float *hsum;
	HT_CHECK(hipHostMalloc(&hsum, bytes, hipHostMallocDefault));
	HT_CHECK(hipMemcpyAsync(hsum, sum, bytes, hipMemcpyDeviceToHost, s[NSTREAMS]));
	HT_CHECK(hipStreamSynchronize(s[NSTREAMS]));
	for (int k = 0; k < NSTREAMS; k++)
		HT_CHECK(hipEventSynchronize(stop[k]));

	for (int k = 0; k < NSTREAMS; k++) {
		for (int i = 0; i < N; i++) {
			float want = ((float)(i % 1000) + k) * 2.0f + k;
			HT_EXPECT(host[k][i] == want, "stream %d [%d] = %f, expected %f", k, i,
				  host[k][i], want);
		}
		float t1 = -1, t2 = -1, t3 = -1;
		HT_CHECK(hipEventElapsedTime(&t1, start[k], mid[k]));
		HT_CHECK(hipEventElapsedTime(&t2, mid[k], stop[k]));
		HT_CHECK(hipEventElapsedTime(&t3, start[k], stop[k]));
		printf("stream %d: copy+kernel %.3f ms, copy back %.3f ms, total %.3f ms\n", k, t1,
		       t2, t3);
		HT_EXPECT(t1 >= 0 && t2 >= 0 && t3 >= 0, "negative elapsed time %f %f %f", t1, t2, t3);
		HT_EXPECT(t3 + 1e-3f >= t1 && t3 + 1e-3f >= t2, "total %f < parts %f %f", t3, t1, t2);
		HT_EXPECT(t3 < 60000, "total %f ms", t3);
		HT_EXPECT(hipEventQuery(stop[k]) == hipSuccess, "event %d not complete", k);
		HT_EXPECT(hipStreamQuery(s[k]) == hipSuccess, "stream %d not idle", k);
	}
	for (int i = 0; i < N; i++) {
		float want = 0;
		for (int k = 0; k < NSTREAMS; k++)
			want += ((float)(i % 1000) + k) * 2.0f + k;
		HT_EXPECT(hsum[i] == want, "sum[%d] = %f, expected %f", i, hsum[i], want);
	}

	/* the null stream waits for blocking streams: a kernel on s[0], then a
	 * synchronous copy on the null stream sees its result */
	hipLaunchKernelGGL(scale_add, dim3(N / 256), dim3(256), 0, s[0], dev[0], 0.0f, 42.0f, N);
	HT_CHECK(hipMemcpy(host[0], dev[0], bytes, hipMemcpyDeviceToHost));
	for (int i = 0; i < N; i++)
		HT_EXPECT(host[0][i] == 42.0f, "after null-stream copy [%d] = %f", i, host[0][i]);

	/* an event recorded with timing disabled has no elapsed time */
	hipEvent_t nt;
	HT_CHECK(hipEventCreateWithFlags(&nt, hipEventDisableTiming));
	HT_CHECK(hipEventRecord(nt, s[1]));
	HT_CHECK(hipEventSynchronize(nt));
	float t = 0;
	HT_EXPECT(hipEventElapsedTime(&t, start[1], nt) != hipSuccess,
		  "elapsed time of a timing-disabled event");
	HT_CHECK(hipEventDestroy(nt));

	for (int k = 0; k < NSTREAMS; k++) {
		HT_CHECK(hipEventDestroy(start[k]));
		HT_CHECK(hipEventDestroy(mid[k]));
		HT_CHECK(hipEventDestroy(stop[k]));
		HT_CHECK(hipHostFree(host[k]));
		HT_CHECK(hipFree(dev[k]));
	}
	for (int k = 0; k <= NSTREAMS; k++)
		HT_CHECK(hipStreamDestroy(s[k]));
	HT_CHECK(hipHostFree(hsum));
	HT_CHECK(hipFree(sum));
	HT_CHECK(hipFree(devv));
	printf("streams: PASS\n");
	return 0;
}
