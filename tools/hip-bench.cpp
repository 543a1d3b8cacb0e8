/*
 * hip-bench: HIP-level figures on whatever libhsa-runtime64.so.1 is first on
 * the library path (Debian's ROCr 5.2.3 or hsalite), under kfdemu or on a GPU.
 *
 * One line per metric, "metric min=<us> p50=<us> n=<samples>":
 *   memcpy_{h2d,d2h}_{pageable,pinned}_<size>  hipMemcpy of 4 KiB, 1 MiB,
 *                                              64 MiB (pinned: hipHostMalloc)
 *   launch_sync                                empty kernel + hipStreamSynchronize
 * Each memcpy line also gives the p50 bandwidth in MB/s.  A tool, not a test
 * (STYLE.md section 12): it asserts no timing and exits 0 when every HIP call
 * succeeded, 1 otherwise, 2 on bad usage.
 *
 * Usage: hip-bench [--iters N] [--big-iters N] [--launches N]
 * (defaults 50, 5, 1000; --big-iters is for the 64 MiB copies).
 */
#include <hip/hip_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define HB_CHECK(call)                                                        \
	do {                                                                  \
		hipError_t hb_e = (call);                                     \
		if (hb_e != hipSuccess) {                                     \
			fprintf(stderr, "hip-bench: %s: %s (%d)\n", #call,    \
				hipGetErrorString(hb_e), (int)hb_e);          \
			exit(1);                                              \
		}                                                             \
	} while (0)

__global__ void hb_empty(void) {}

static double now_us(void)
{
	using namespace std::chrono;
	return duration<double, std::micro>(steady_clock::now().time_since_epoch()).count();
}

static void report(const char *name, std::vector<double> &s, size_t bytes)
{
	std::sort(s.begin(), s.end());
	double p50 = s[s.size() / 2];
	if (bytes)
		printf("%-32s min=%.1f p50=%.1f n=%zu us  p50_bw=%.0f MB/s\n", name,
		       s[0], p50, s.size(), bytes / p50);
	else
		printf("%-32s min=%.1f p50=%.1f n=%zu us\n", name, s[0], p50, s.size());
	fflush(stdout);
}

static void bench_copy(const char *dir, const char *kind, const char *size_name,
		       void *dst, const void *src, size_t bytes, hipMemcpyKind k,
		       int iters)
{
	std::vector<double> s;
	char name[64];

	HB_CHECK(hipMemcpy(dst, src, bytes, k)); /* warm-up */
	for (int i = 0; i < iters; i++) {
		double t0 = now_us();
		HB_CHECK(hipMemcpy(dst, src, bytes, k));
		s.push_back(now_us() - t0);
	}
	snprintf(name, sizeof(name), "memcpy_%s_%s_%s", dir, kind, size_name);
	report(name, s, bytes);
}

int main(int argc, char **argv)
{
	int iters = 50, big_iters = 5, launches = 1000;
	static const struct { size_t bytes; const char *name; } sizes[] = {
		{ 4096, "4KiB" }, { 1 << 20, "1MiB" }, { 64 << 20, "64MiB" },
	};
	const size_t max_bytes = 64 << 20;

	for (int i = 1; i < argc; i++) {
		int *opt = !strcmp(argv[i], "--iters")	   ? &iters :
			   !strcmp(argv[i], "--big-iters") ? &big_iters :
			   !strcmp(argv[i], "--launches")  ? &launches : nullptr;
		if (!opt || i + 1 >= argc || (*opt = atoi(argv[i + 1])) < 1) {
			fprintf(stderr, "usage: %s [--iters N] [--big-iters N] [--launches N]\n",
				argv[0]);
			return 2;
		}
		i++;
	}

	void *dev, *pinned;
	char *pageable = static_cast<char *>(malloc(max_bytes));
	if (!pageable) {
		fprintf(stderr, "hip-bench: out of memory\n");
		return 1;
	}
	memset(pageable, 0x5a, max_bytes);
	HB_CHECK(hipMalloc(&dev, max_bytes));
	HB_CHECK(hipHostMalloc(&pinned, max_bytes, hipHostMallocDefault));
	memset(pinned, 0xa5, max_bytes);

	for (const auto &sz : sizes) {
		int n = sz.bytes >= max_bytes ? big_iters : iters;
		bench_copy("h2d", "pageable", sz.name, dev, pageable, sz.bytes,
			   hipMemcpyHostToDevice, n);
		bench_copy("d2h", "pageable", sz.name, pageable, dev, sz.bytes,
			   hipMemcpyDeviceToHost, n);
		bench_copy("h2d", "pinned", sz.name, dev, pinned, sz.bytes,
			   hipMemcpyHostToDevice, n);
		bench_copy("d2h", "pinned", sz.name, pinned, dev, sz.bytes,
			   hipMemcpyDeviceToHost, n);
	}

	hipStream_t stream;
	std::vector<double> s;
	HB_CHECK(hipStreamCreate(&stream));
	hipLaunchKernelGGL(hb_empty, dim3(1), dim3(1), 0, stream);
	HB_CHECK(hipGetLastError());
	HB_CHECK(hipStreamSynchronize(stream)); /* warm-up: loads the code object */
	for (int i = 0; i < launches; i++) {
		double t0 = now_us();
		hipLaunchKernelGGL(hb_empty, dim3(1), dim3(1), 0, stream);
		HB_CHECK(hipGetLastError());
		HB_CHECK(hipStreamSynchronize(stream));
		s.push_back(now_us() - t0);
	}
	report("launch_sync", s, 0);

	HB_CHECK(hipStreamDestroy(stream));
	HB_CHECK(hipHostFree(pinned));
	HB_CHECK(hipFree(dev));
	free(pageable);
	return 0;
}
