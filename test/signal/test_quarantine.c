/*
 * The destroyed-signal quarantine (src/signal/slab.c): a destroyed handle is
 * not handed to a new signal before HL_SIGNAL_QUARANTINE later destroys,
 * stays an invalid signal meanwhile, and the quarantine recycles its slots
 * so create/destroy loops do not grow the slabs.  Label emu.
 */
#include <stdlib.h>

#include "hl_check.h"
#include "sig_test.h"
#include "signal/signal_priv.h"

enum { Q = HL_SIGNAL_QUARANTINE };

static void setup(void)
{
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
}

static void teardown(void)
{
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

static bool never(hsa_signal_value_t v, void *arg)
{
	(void)v;
	(void)arg;
	return false;
}

START_TEST(next_create_gets_another_handle)
{
	hsa_signal_t dead = sig_create(1);
	ck_status(hsa_signal_destroy(dead), HSA_STATUS_SUCCESS);
	hsa_signal_t live = sig_create(7);
	ck_assert_msg(live.handle != dead.handle, "the destroyed handle %#llx was reissued at once",
		      (unsigned long long)dead.handle);
	/* A use after destroy acts on no live signal. */
	hsa_signal_store_relaxed(dead, 99);
	hsa_signal_add_relaxed(dead, 5);
	ck_value(hsa_signal_load_relaxed(live), 7);
	ck_value(hsa_signal_load_relaxed(dead), 0);
	ck_status(hsa_signal_destroy(live), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(destroyed_handle_stays_invalid_while_quarantined)
{
	hsa_signal_t dead = sig_create(1);
	ck_status(hsa_signal_destroy(dead), HSA_STATUS_SUCCESS);
	/* Q - 1 later create/destroy rounds: the slot is still held. */
	for (int i = 0; i < Q - 1; i++) {
		hsa_signal_t s = sig_create(i);
		ck_assert_msg(s.handle != dead.handle, "round %d reissued the destroyed handle", i);
		ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
	}
	volatile hsa_signal_value_t *p;
	ck_status(hsa_signal_destroy(dead), HSA_STATUS_ERROR_INVALID_SIGNAL);
	ck_status(hsa_amd_signal_value_pointer(dead, &p), HSA_STATUS_ERROR_INVALID_SIGNAL);
	ck_status(hsa_amd_signal_async_handler(dead, HSA_SIGNAL_CONDITION_EQ, 0, never, NULL),
		  HSA_STATUS_ERROR_INVALID_SIGNAL);
	ck_value(sig_amd(dead)->kind, AMD_SIGNAL_KIND_INVALID);
	ck_value(hsa_signal_wait_scacquire(dead, HSA_SIGNAL_CONDITION_EQ, 1, UINT64_MAX,
					   HSA_WAIT_STATE_BLOCKED), 0);
}
END_TEST

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

START_TEST(slots_come_back_after_the_quarantine)
{
	enum { ROUNDS = 4 * Q };
	uint64_t *h = malloc(ROUNDS * sizeof(*h));
	ck_assert_ptr_nonnull(h);
	hsa_signal_t keep = sig_create(0); /* one more live signal throughout */
	for (int i = 0; i < ROUNDS; i++) {
		hsa_signal_t s = sig_create(i);
		h[i] = s.handle;
		ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
	}
	/* No handle comes back before Q other destroys followed its own. */
	int early = -1, of = -1;
	for (int i = 0; i < ROUNDS && early < 0; i++)
		for (int j = i - 1; j >= 0 && j >= i - Q; j--)
			if (h[j] == h[i]) {
				early = i;
				of = j;
				break;
			}
	ck_assert_msg(early < 0, "round %d reissued round %d's handle", early, of);
	/* Bounded: the handles seen fit in the live ones plus the quarantine,
	 * rounded up to whole slabs (runtime signals may already hold slots). */
	qsort(h, ROUNDS, sizeof(*h), cmp_u64);
	int distinct = 0;
	for (int i = 0; i < ROUNDS; i++)
		distinct += i == 0 || h[i] != h[i - 1];
	ck_assert_msg(distinct <= Q + (int)HL_SIGNAL_SLAB_SIGNALS,
		      "%d distinct handles in %d rounds: slots are not recycled", distinct, ROUNDS);
	ck_status(hsa_signal_destroy(keep), HSA_STATUS_SUCCESS);
	free(h);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("signal_quarantine");
	TCase *tc = tcase_create("quarantine");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, next_create_gets_another_handle);
	tcase_add_test(tc, destroyed_handle_stays_invalid_while_quarantined);
	tcase_add_test(tc, slots_come_back_after_the_quarantine);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(suite)
