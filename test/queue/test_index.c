/*
 * The read/write index functions on a live queue: every family (load,
 * store, add, cas) in every order returns what HSA specifies, the read
 * index belongs to the CP (stores are ignored), and the CU mask round trip.
 * The index families run on a MULTI queue and on a SINGLE queue (both
 * locked RMWs: src/queue/index.c); the rest on a MULTI queue.  Label emu.
 */
/* The deprecated (pre-1.1) names are part of the ABI we test. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#include "hl_check.h"
#include "q_test.h"

static hsa_queue_t *q;

static void setup(void)
{
	q_init();
	q = q_create(64, HSA_QUEUE_TYPE_MULTI);
}

static void setup_single(void)
{
	q_init();
	q = q_create(64, HSA_QUEUE_TYPE_SINGLE);
	/* ROCr's AqlQueue reports MULTI for a SINGLE request */
	ck_assert_uint_eq(q->type, HSA_QUEUE_TYPE_MULTI);
}

static void teardown(void)
{
	ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
	q_fini();
}

START_TEST(store_then_load_write_index_in_every_order)
{
	hsa_queue_store_write_index_relaxed(q, 5);
	ck_assert_uint_eq(hsa_queue_load_write_index_relaxed(q), 5);
	ck_assert_uint_eq(q_amd(q)->write_dispatch_id, 5);
	hsa_queue_store_write_index_screlease(q, 6);
	ck_assert_uint_eq(hsa_queue_load_write_index_scacquire(q), 6);
	hsa_queue_store_write_index_release(q, 7);
	ck_assert_uint_eq(hsa_queue_load_write_index_acquire(q), 7);
}
END_TEST

typedef uint64_t (*add_fn)(const hsa_queue_t *, uint64_t);

START_TEST(add_write_index_returns_old_value_in_every_order)
{
	static const add_fn adds[] = {
		hsa_queue_add_write_index_relaxed, hsa_queue_add_write_index_scacquire,
		hsa_queue_add_write_index_screlease, hsa_queue_add_write_index_scacq_screl,
		hsa_queue_add_write_index_acquire, hsa_queue_add_write_index_release,
		hsa_queue_add_write_index_acq_rel,
	};
	uint64_t expect = 0;
	for (size_t i = 0; i < sizeof(adds) / sizeof(adds[0]); i++) {
		uint64_t old = adds[i](q, i + 1);
		ck_assert_msg(old == expect, "add #%zu returned %llu, expected %llu", i,
			      (unsigned long long)old, (unsigned long long)expect);
		expect += i + 1;
		ck_assert_msg(q_amd(q)->write_dispatch_id == expect,
			      "add #%zu left write_dispatch_id %llu, expected %llu", i,
			      (unsigned long long)q_amd(q)->write_dispatch_id,
			      (unsigned long long)expect);
	}
	ck_assert_uint_eq(hsa_queue_load_write_index_relaxed(q), expect);
}
END_TEST

START_TEST(add_write_index_continues_from_a_stored_or_swapped_index)
{
	/* An add reads what a store or cas left, in every order: no queue
	 * type's add keeps a private copy of the index. */
	static const add_fn adds[] = {
		hsa_queue_add_write_index_relaxed, hsa_queue_add_write_index_scacquire,
		hsa_queue_add_write_index_screlease, hsa_queue_add_write_index_scacq_screl,
		hsa_queue_add_write_index_acquire, hsa_queue_add_write_index_release,
		hsa_queue_add_write_index_acq_rel,
	};
	for (size_t i = 0; i < sizeof(adds) / sizeof(adds[0]); i++) {
		uint64_t base = 1000 * (i + 1);
		hsa_queue_store_write_index_screlease(q, base);
		ck_assert_uint_eq(adds[i](q, 3), base);
		ck_assert_uint_eq(hsa_queue_cas_write_index_scacq_screl(q, base + 3, base + 10),
				  base + 3);
		ck_assert_uint_eq(adds[i](q, 0), base + 10);
		ck_assert_uint_eq(hsa_queue_load_write_index_scacquire(q), base + 10);
	}
	/* A value that wraps 64 bits wraps as the RMW does. */
	hsa_queue_store_write_index_relaxed(q, UINT64_MAX);
	ck_assert_uint_eq(hsa_queue_add_write_index_screlease(q, 2), UINT64_MAX);
	ck_assert_uint_eq(hsa_queue_load_write_index_relaxed(q), 1);
}
END_TEST

START_TEST(add_write_index_on_null_returns_zero)
{
	ck_assert_uint_eq(hsa_queue_add_write_index_relaxed(NULL, 1), 0);
	ck_assert_uint_eq(hsa_queue_add_write_index_scacquire(NULL, 1), 0);
	ck_assert_uint_eq(hsa_queue_add_write_index_screlease(NULL, 1), 0);
	ck_assert_uint_eq(hsa_queue_add_write_index_scacq_screl(NULL, 1), 0);
	ck_assert_uint_eq(hsa_queue_load_write_index_relaxed(q), 0);
}
END_TEST

typedef uint64_t (*cas_fn)(const hsa_queue_t *, uint64_t, uint64_t);

START_TEST(cas_write_index_swaps_only_on_match_in_every_order)
{
	static const cas_fn cases[] = {
		hsa_queue_cas_write_index_relaxed, hsa_queue_cas_write_index_scacquire,
		hsa_queue_cas_write_index_screlease, hsa_queue_cas_write_index_scacq_screl,
		hsa_queue_cas_write_index_acquire, hsa_queue_cas_write_index_release,
		hsa_queue_cas_write_index_acq_rel,
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t cur = hsa_queue_load_write_index_relaxed(q);
		/* A wrong expectation fails and returns the current value. */
		ck_assert_uint_eq(cases[i](q, cur + 100, cur + 1), cur);
		ck_assert_uint_eq(hsa_queue_load_write_index_relaxed(q), cur);
		/* The right one swaps and returns the old value. */
		ck_assert_uint_eq(cases[i](q, cur, cur + 1), cur);
		ck_assert_uint_eq(hsa_queue_load_write_index_relaxed(q), cur + 1);
	}
}
END_TEST

START_TEST(read_index_starts_at_zero_and_stores_are_ignored)
{
	ck_assert_uint_eq(hsa_queue_load_read_index_relaxed(q), 0);
	ck_assert_uint_eq(hsa_queue_load_read_index_scacquire(q), 0);
	ck_assert_uint_eq(hsa_queue_load_read_index_acquire(q), 0);
	/* A hardware queue's read index is the CP's (ROCr refuses the store). */
	hsa_queue_store_read_index_relaxed(q, 9);
	hsa_queue_store_read_index_screlease(q, 9);
	hsa_queue_store_read_index_release(q, 9);
	ck_assert_uint_eq(hsa_queue_load_read_index_relaxed(q), 0);
}
END_TEST

START_TEST(read_index_reflects_the_cp_field)
{
	/* What the CP writes at read_dispatch_id is what the loads return. */
	__atomic_store_n(&q_amd(q)->read_dispatch_id, 42, __ATOMIC_RELEASE);
	ck_assert_uint_eq(hsa_queue_load_read_index_scacquire(q), 42);
	__atomic_store_n(&q_amd(q)->read_dispatch_id, 0, __ATOMIC_RELEASE);
}
END_TEST

START_TEST(cu_mask_starts_full_and_round_trips)
{
	uint32_t cus = 0;
	ck_status(hsa_agent_get_info(q_gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT,
				     &cus), HSA_STATUS_SUCCESS);
	uint32_t got[8] = { 0 };
	ck_status(hsa_amd_queue_cu_get_mask(q, 256, got), HSA_STATUS_SUCCESS);
	for (uint32_t i = 0; i < 256; i++)
		ck_assert_msg(((got[i / 32] >> (i % 32)) & 1) == (i < cus),
			      "CU %u: bit %u, expected %u", i, (got[i / 32] >> (i % 32)) & 1, i < cus);

	uint32_t mask[2] = { 0x0F0F0F0Fu, 0x1u };
	ck_status(hsa_amd_queue_cu_set_mask(q, 64, mask), HSA_STATUS_SUCCESS);
	uint32_t back[4] = { 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu };
	ck_status(hsa_amd_queue_cu_get_mask(q, 128, back), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(back[0], mask[0]);
	ck_assert_uint_eq(back[1], mask[1]);
	ck_assert_uint_eq(back[2], 0);
	ck_assert_uint_eq(back[3], 0);
}
END_TEST

/* Clipped to the agent's CUs silently, as ROCr (5.2.3 and 1.18). */
START_TEST(cu_mask_beyond_the_agent_is_clipped)
{
	uint32_t mask[40];
	for (int i = 0; i < 40; i++)
		mask[i] = 0xFFFFFFFFu;
	ck_status(hsa_amd_queue_cu_set_mask(q, 40 * 32, mask), HSA_STATUS_SUCCESS);
	uint32_t cus = 0, back[40] = { 0 };
	hsa_agent_get_info(q_gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT, &cus);
	ck_status(hsa_amd_queue_cu_get_mask(q, 40 * 32, back), HSA_STATUS_SUCCESS);
	uint32_t bits = 0;
	for (int i = 0; i < 40; i++)
		bits += (uint32_t)__builtin_popcount(back[i]);
	ck_assert_uint_eq(bits, cus);
	/* A count of 0 restores the full mask. */
	ck_status(hsa_amd_queue_cu_set_mask(q, 0, NULL), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(cu_mask_arguments_are_checked)
{
	uint32_t mask[2] = { 1, 0 };
	ck_status(hsa_amd_queue_cu_set_mask(q, 33, mask), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_queue_cu_set_mask(q, 32, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_queue_cu_get_mask(q, 0, mask), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_queue_cu_get_mask(q, 32, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_queue_cu_set_mask(NULL, 32, mask), HSA_STATUS_ERROR_INVALID_ARGUMENT);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("queue_index");
	TCase *tc = tcase_create("index");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, store_then_load_write_index_in_every_order);
	tcase_add_test(tc, add_write_index_returns_old_value_in_every_order);
	tcase_add_test(tc, cas_write_index_swaps_only_on_match_in_every_order);
	tcase_add_test(tc, read_index_starts_at_zero_and_stores_are_ignored);
	tcase_add_test(tc, read_index_reflects_the_cp_field);
	tcase_add_test(tc, cu_mask_starts_full_and_round_trips);
	tcase_add_test(tc, cu_mask_beyond_the_agent_is_clipped);
	tcase_add_test(tc, cu_mask_arguments_are_checked);
	tcase_add_test(tc, add_write_index_continues_from_a_stored_or_swapped_index);
	tcase_add_test(tc, add_write_index_on_null_returns_zero);
	suite_add_tcase(s, tc);
	/* The index families again on a SINGLE queue. */
	TCase *single = tcase_create("index_single");
	tcase_add_checked_fixture(single, setup_single, teardown);
	tcase_add_test(single, store_then_load_write_index_in_every_order);
	tcase_add_test(single, add_write_index_returns_old_value_in_every_order);
	tcase_add_test(single, add_write_index_continues_from_a_stored_or_swapped_index);
	tcase_add_test(single, add_write_index_on_null_returns_zero);
	tcase_add_test(single, cas_write_index_swaps_only_on_match_in_every_order);
	tcase_add_test(single, read_index_starts_at_zero_and_stores_are_ignored);
	suite_add_tcase(s, single);
	return s;
}

HL_CHECK_MAIN(suite)
