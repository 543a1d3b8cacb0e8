/*
 * Debian's rocRAND 5.3.3 (librocrand1, label hip): a XORWOW generator made
 * and used as a downstream program would.  Its first generate runs
 * rocRAND's state-initialisation kernel (every state skipped ahead by its
 * subsequence: the long kernel of rocRAND's tests), then the generate
 * kernel proper; both are librocrand's code objects for gfx90a, not ours.
 *
 * Checks: 2^20 uniform floats all in (0, 1] (rocRAND's documented range),
 * mean and variance within 0.002 of 1/2 and 1/12, and the same seed giving
 * the same numbers from a second generate after the offset is reset (the
 * state is made again: a second initialisation run).  Prints the wall time
 * of create + the first generate (the figure docs/benchmarks.md tracks) and
 * of a generate on initialised state.
 */
#include "hip_test.h"

#include <rocrand/rocrand.h>

#include <chrono>
#include <math.h>
#include <vector>

#define RR_CHECK(call)                                                          \
	do {                                                                    \
		rocrand_status rr_s = (call);                                   \
		if (rr_s != ROCRAND_STATUS_SUCCESS) {                           \
			fprintf(stderr, "%s:%d: %s: rocrand status %d\n", __FILE__, \
				__LINE__, #call, (int)rr_s);                    \
			exit(1);                                                \
		}                                                               \
	} while (0)

static double ms_since(std::chrono::steady_clock::time_point t0)
{
	return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
		.count();
}

int main(void)
{
	const size_t n = size_t(1) << 20;
	float *d = NULL;
	HT_CHECK(hipMalloc((void **)&d, n * sizeof(float)));

	auto t0 = std::chrono::steady_clock::now();
	rocrand_generator g = NULL;
	RR_CHECK(rocrand_create_generator(&g, ROCRAND_RNG_PSEUDO_XORWOW));
	RR_CHECK(rocrand_set_seed(g, 0x5eed1234ull));
	RR_CHECK(rocrand_generate_uniform(g, d, n));
	HT_CHECK(hipDeviceSynchronize());
	double init_ms = ms_since(t0);

	std::vector<float> a(n), b(n);
	HT_CHECK(hipMemcpy(a.data(), d, n * sizeof(float), hipMemcpyDeviceToHost));

	auto t1 = std::chrono::steady_clock::now();
	RR_CHECK(rocrand_generate_uniform(g, d, n));
	HT_CHECK(hipDeviceSynchronize());
	double gen_ms = ms_since(t1);
	HT_CHECK(hipMemcpy(b.data(), d, n * sizeof(float), hipMemcpyDeviceToHost));
	size_t same = 0;
	for (size_t i = 0; i < n; i++)
		same += a[i] == b[i];
	HT_EXPECT(same < n / 1000, "%zu of %zu numbers repeated by the next generate", same, n);

	double sum = 0, sq = 0;
	for (size_t i = 0; i < n; i++) {
		HT_EXPECT(a[i] > 0.0f && a[i] <= 1.0f, "number %zu = %a outside (0, 1]", i,
			  (double)a[i]);
		sum += a[i];
		sq += (double)a[i] * a[i];
	}
	double mean = sum / n, var = sq / n - mean * mean;
	HT_EXPECT(fabs(mean - 0.5) < 0.002, "mean %f", mean);
	HT_EXPECT(fabs(var - 1.0 / 12) < 0.002, "variance %f", var);

	/* Same seed, offset back to 0: the state is initialised again and the
	 * first numbers come back. */
	RR_CHECK(rocrand_set_offset(g, 0));
	RR_CHECK(rocrand_generate_uniform(g, d, n));
	HT_CHECK(hipMemcpy(b.data(), d, n * sizeof(float), hipMemcpyDeviceToHost));
	for (size_t i = 0; i < n; i++)
		HT_EXPECT(a[i] == b[i], "number %zu: %a after the reset, %a before", i,
			  (double)b[i], (double)a[i]);

	RR_CHECK(rocrand_destroy_generator(g));
	HT_CHECK(hipFree(d));
	printf("rocrand_xorwow: PASS, %zu floats, create + first generate %.1f ms, "
	       "generate %.1f ms\n", n, init_ms, gen_ms);
	return 0;
}
