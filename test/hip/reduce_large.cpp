/*
 * rocPRIM's device reduction over 64-bit indices (label hip): the shape of
 * rocPRIM's own LargeIndices tests, built from Debian's rocPRIM 5.3.3
 * headers, so the kernels are code nobody here wrote.  rocprim::reduce sums
 * a counting_iterator<uint64_t> starting at 2^32 + 7: no input buffer, so
 * the size is bounded by time, not memory, and every item's value needs
 * more than 32 bits.  The host checks the sum in closed form (mod 2^64:
 * unsigned addition wraps the same way in any order).
 *
 * Size: 2^20 + 3 items by default (a few seconds under kfdemu, for CI);
 * HIP_REDUCE_LOG2=<k> (16..40) makes it 2^k + 3, e.g. 33 for more than
 * 2^32 items addressed with 64-bit indices (docs/benchmarks.md).  Prints the
 * item count and the reduce call's wall time.
 */
#include "hip_test.h"

#include <rocprim/rocprim.hpp>

#include <chrono>

int main(void)
{
	unsigned log2 = 20;
	const char *env = getenv("HIP_REDUCE_LOG2");
	if (env) {
		char *end = NULL;
		unsigned long v = strtoul(env, &end, 10);
		HT_EXPECT(end != env && *end == '\0' && v >= 16 && v <= 40,
			  "HIP_REDUCE_LOG2=%s (16..40)", env);
		log2 = (unsigned)v;
	}
	const uint64_t n = (UINT64_C(1) << log2) + 3;
	const uint64_t base = (UINT64_C(1) << 32) + 7;

	rocprim::counting_iterator<uint64_t> input(base);
	uint64_t *d_out = NULL;
	HT_CHECK(hipMalloc((void **)&d_out, sizeof(*d_out)));

	size_t tmp_bytes = 0;
	HT_CHECK(rocprim::reduce(NULL, tmp_bytes, input, d_out, UINT64_C(0), (size_t)n,
				 rocprim::plus<uint64_t>()));
	void *d_tmp = NULL;
	HT_CHECK(hipMalloc(&d_tmp, tmp_bytes ? tmp_bytes : 1));

	auto t0 = std::chrono::steady_clock::now();
	HT_CHECK(rocprim::reduce(d_tmp, tmp_bytes, input, d_out, UINT64_C(0), (size_t)n,
				 rocprim::plus<uint64_t>()));
	HT_CHECK(hipDeviceSynchronize());
	auto t1 = std::chrono::steady_clock::now();

	uint64_t got = 0;
	HT_CHECK(hipMemcpy(&got, d_out, sizeof(got), hipMemcpyDeviceToHost));
	/* sum_{i<n} (base + i) = n*base + n(n-1)/2; n(n-1) is even, halve the
	 * even factor first so nothing is lost before the wrap. */
	uint64_t tri = (n % 2 == 0) ? (n / 2) * (n - 1) : n * ((n - 1) / 2);
	uint64_t want = n * base + tri;
	HT_EXPECT(got == want, "sum %llu, want %llu (n = 2^%u + 3)",
		  (unsigned long long)got, (unsigned long long)want, log2);

	HT_CHECK(hipFree(d_tmp));
	HT_CHECK(hipFree(d_out));
	double ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
	printf("reduce_large: PASS, %llu items (2^%u + 3), %zu temporary bytes, %.1f ms\n",
	       (unsigned long long)n, log2, tmp_bytes, ms);
	return 0;
}
