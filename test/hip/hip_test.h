/*
 * Shared checks for the HIP corpus (test/hip): every HIP call is checked and
 * a failure prints the call, file:line and hipGetErrorString, then exits 1;
 * a wrong result prints actual vs expected and exits 1.  77 means skipped
 * (ctest SKIP_RETURN_CODE), e.g. fewer GPUs than the program needs.
 */
#ifndef HIP_TEST_H
#define HIP_TEST_H

#include <hip/hip_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HT_SKIP 77

#define HT_CHECK(call)                                                          \
	do {                                                                    \
		hipError_t ht_e = (call);                                       \
		if (ht_e != hipSuccess) {                                       \
			fprintf(stderr, "%s:%d: %s: %s (%d)\n", __FILE__, __LINE__, \
				#call, hipGetErrorString(ht_e), (int)ht_e);     \
			exit(1);                                                \
		}                                                               \
	} while (0)

#define HT_EXPECT(cond, ...)                                                    \
	do {                                                                    \
		if (!(cond)) {                                                  \
			fprintf(stderr, "%s:%d: expected %s: ", __FILE__, __LINE__, #cond); \
			fprintf(stderr, __VA_ARGS__);                           \
			fputc('\n', stderr);                                    \
			exit(1);                                                \
		}                                                               \
	} while (0)

/* A byte pattern that differs per (seed, index), so shifted or stale data
 * never matches by accident. */
static inline uint8_t ht_pattern(uint32_t seed, size_t i)
{
	uint64_t x = (uint64_t)seed * 0x9E3779B97F4A7C15ull + i * 0xBF58476D1CE4E5B9ull;
	x ^= x >> 29;
	return (uint8_t)(x ^ (x >> 17));
}

static inline void ht_fill(void *p, size_t n, uint32_t seed)
{
	uint8_t *b = (uint8_t *)p;
	for (size_t i = 0; i < n; i++)
		b[i] = ht_pattern(seed, i);
}

/* Index of the first byte that does not match the pattern, or n. */
static inline size_t ht_mismatch(const void *p, size_t n, uint32_t seed)
{
	const uint8_t *b = (const uint8_t *)p;
	for (size_t i = 0; i < n; i++)
		if (b[i] != ht_pattern(seed, i))
			return i;
	return n;
}

#endif
