/*
 * hsa_memory_copy checks its size against the allocations the runtime
 * knows (issue 22, item 5, fourth fault): a bad-input campaign found that a
 * copy between host buffers handed the caller's size to memmove unchecked
 * (hsa_memory_copy(a, a, SIZE_MAX) under ASan).  A range that wraps around
 * the address space, or starts inside an allocation and runs past its end,
 * is HSA_STATUS_ERROR_INVALID_ARGUMENT; ranges that fit are copied.
 *
 * Debian's ROCr 5.2.3 checks neither (its CopyMemory takes an overrunning
 * range for unknown host memory and memmoves it): see the report in the
 * branch and docs/differences.md; this suite is hsalite's contract.
 */
#include <stdio.h>

#include "hl_check.h"
#include "lc_test.h"

#define N 4096u

static struct lc_env env;

static void setup(void)
{
	lc_init(&env);
}

static void teardown(void)
{
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

static void *pool_alloc(hsa_amd_memory_pool_t pool)
{
	void *p = NULL;
	ck_status(hsa_amd_memory_pool_allocate(pool, N, 0, &p), HSA_STATUS_SUCCESS);
	hsa_agent_t both[2] = { env.cpu, env.gpu };
	ck_status(hsa_amd_agents_allow_access(2, both, NULL, p), HSA_STATUS_SUCCESS);
	return p;
}

START_TEST(size_max_same_host_buffer)
{
	unsigned char *a = pool_alloc(env.sys);
	memset(a, 0x5a, N);
	ck_status(hsa_memory_copy(a, a, SIZE_MAX), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	for (unsigned i = 0; i < N; i++)
		ck_assert_msg(a[i] == 0x5a, "byte %u changed to %#x", i, a[i]);
	ck_status(hsa_amd_memory_pool_free(a), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(one_past_the_end_of_host_allocations)
{
	unsigned char *a = pool_alloc(env.sys), *b = pool_alloc(env.sys);
	memset(a, 1, N);
	memset(b, 2, N);
	ck_status(hsa_memory_copy(a, b, N + 1), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_memory_copy(a + N - 8, b, 9), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_memory_copy(a, b + 1, N), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_assert_uint_eq(a[0], 1);
	/* the largest ranges that fit are copied */
	ck_status(hsa_memory_copy(a + N - 8, b, 8), HSA_STATUS_SUCCESS);
	ck_status(hsa_memory_copy(a, b + 1, N - 1), HSA_STATUS_SUCCESS);
	for (unsigned i = 0; i < N; i++)
		ck_assert_msg(a[i] == 2, "a[%u] = %u after the copies, expected 2", i, a[i]);
	ck_status(hsa_amd_memory_pool_free(a), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(b), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(wrapping_range_of_unknown_memory)
{
	unsigned char *m = malloc(N);
	ck_assert_ptr_nonnull(m);
	memset(m, 3, N);
	ck_status(hsa_memory_copy(m, m, SIZE_MAX), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_memory_copy(m, m + 1, SIZE_MAX - 1), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_assert_uint_eq(m[N - 1], 3);
	free(m);
}
END_TEST

START_TEST(past_the_end_of_vram)
{
	unsigned char *v = pool_alloc(env.vram), *a = pool_alloc(env.sys);
	memset(a, 4, N);
	ck_status(hsa_memory_copy(v, a, 2 * N), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_memory_copy(a, v + 64, N), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_memory_copy(v, a, N), HSA_STATUS_SUCCESS);
	memset(a, 0, N);
	ck_status(hsa_memory_copy(a, v, N), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(a[0], 4);
	ck_assert_uint_eq(a[N - 1], 4);
	ck_status(hsa_amd_memory_pool_free(v), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(a), HSA_STATUS_SUCCESS);
}
END_TEST

static void add(Suite *s, const char *name, const TTest *t)
{
	TCase *tc = tcase_create(name);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, t);
	suite_add_tcase(s, tc);
}

/* One case per test, so CK_RUN_CASE can run one alone (the ROCr report). */
static Suite *suite(void)
{
	Suite *s = suite_create("lifecycle_copy_bounds");
	add(s, "size_max", size_max_same_host_buffer);
	add(s, "host_end", one_past_the_end_of_host_allocations);
	add(s, "wrap", wrapping_range_of_unknown_memory);
	add(s, "vram_end", past_the_end_of_vram);
	return s;
}

HL_CHECK_MAIN(suite)
