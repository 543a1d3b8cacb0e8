/*
 * Environment parsing (src/runtime/env.c, compiled into this test): how
 * ROCR_VISIBLE_DEVICES selects and orders GPUs and how
 * HSA_OVERRIDE_GFX_VERSION[_<node>] is read.  No device needed (label unit).
 */
#include <stdlib.h>

#include "hl_check.h"
#include "runtime/runtime_priv.h"

static const char *const uuids[3] = { "GPU-00000000000000a1", "GPU-00000000000000b2",
				      "GPU-1234567890abcdef" };

static uint32_t visible(const char *spec, uint32_t *order)
{
	struct hl_env env;
	if (spec)
		setenv("ROCR_VISIBLE_DEVICES", spec, 1);
	else
		unsetenv("ROCR_VISIBLE_DEVICES");
	hl_env_read(&env);
	return hl_env_visible_gpus(&env, uuids, 3, order);
}

#define ck_order(spec, ...)                                                         \
	do {                                                                        \
		const uint32_t want[] = { __VA_ARGS__ };                            \
		uint32_t got[3] = { 99, 99, 99 };                                   \
		uint32_t n = visible(spec, got);                                    \
		uint32_t nw = sizeof(want) / sizeof(want[0]) - 1;                   \
		ck_assert_msg(n == nw, "%s: %u GPUs visible, expected %u", #spec,   \
			      n, nw);                                               \
		for (uint32_t i = 0; i < nw; i++)                                   \
			ck_assert_msg(got[i] == want[i], "%s: [%u] = %u, expected %u", \
				      #spec, i, got[i], want[i]);                   \
	} while (0)

/* The lists end with a sentinel so that an empty expectation compiles. */
START_TEST(unset_shows_every_gpu_in_order) { ck_order(NULL, 0, 1, 2, 0); }
END_TEST
START_TEST(indices_filter_and_reorder) { ck_order("2,0", 2, 0, 0); }
END_TEST
START_TEST(uuid_prefix_selects_a_gpu) { ck_order("GPU-1234,GPU-00000000000000a1", 2, 0, 0); }
END_TEST
START_TEST(ambiguous_uuid_prefix_stops_the_list) { ck_order("1,GPU-0000", 1, 0); }
END_TEST
START_TEST(invalid_token_stops_the_list) { ck_order("0,5,1", 0, 0); }
END_TEST
START_TEST(duplicates_are_ignored) { ck_order("1, 1 ,0", 1, 0, 0); }
END_TEST
START_TEST(empty_value_hides_every_gpu) { ck_order("", 0); }
END_TEST

START_TEST(gfx_override_applies_to_every_gpu)
{
	struct hl_env env;
	setenv("HSA_OVERRIDE_GFX_VERSION", "10.3.0", 1);
	hl_env_read(&env);
	uint32_t maj = 0, min = 0, step = 0;
	ck_assert(hl_env_gfx_override(&env, 3, &maj, &min, &step));
	ck_assert_uint_eq(maj, 10);
	ck_assert_uint_eq(min, 3);
	ck_assert_uint_eq(step, 0);
	unsetenv("HSA_OVERRIDE_GFX_VERSION");
}
END_TEST

/* _<n> is the KFD node of the GPU (node 0 is the CPU), as in libhsakmt. */
START_TEST(gfx_override_for_one_node_wins)
{
	struct hl_env env;
	setenv("HSA_OVERRIDE_GFX_VERSION", "10.3.0", 1);
	setenv("HSA_OVERRIDE_GFX_VERSION_1", "9.0.10", 1);
	hl_env_read(&env);
	uint32_t maj = 0, min = 0, step = 0;
	ck_assert(hl_env_gfx_override(&env, 1, &maj, &min, &step));
	ck_assert_uint_eq(maj, 9);
	ck_assert_uint_eq(step, 10);
	ck_assert(hl_env_gfx_override(&env, 0, &maj, &min, &step));
	ck_assert_uint_eq(maj, 10);
	unsetenv("HSA_OVERRIDE_GFX_VERSION");
	unsetenv("HSA_OVERRIDE_GFX_VERSION_1");
}
END_TEST

START_TEST(malformed_gfx_override_is_ignored)
{
	static const char *const bad[] = { "10.3", "10.3.0.1", "64.0.0", "9.0.256", "a.b.c", "" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct hl_env env;
		setenv("HSA_OVERRIDE_GFX_VERSION", bad[i], 1);
		hl_env_read(&env);
		uint32_t maj = 0, min = 0, step = 0;
		ck_assert_msg(!hl_env_gfx_override(&env, 1, &maj, &min, &step),
			      "'%s' accepted", bad[i]);
	}
	unsetenv("HSA_OVERRIDE_GFX_VERSION");
}
END_TEST

START_TEST(max_queues_defaults_to_128_and_is_capped)
{
	static const struct { const char *v; uint32_t want; } cases[] = {
		{ NULL, 128 }, { "0", 128 }, { "16", 16 }, { "1000", 128 }, { "x", 128 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct hl_env env;
		if (cases[i].v)
			setenv("HSA_MAX_QUEUES", cases[i].v, 1);
		else
			unsetenv("HSA_MAX_QUEUES");
		hl_env_read(&env);
		ck_assert_msg(env.max_queues == cases[i].want, "HSA_MAX_QUEUES=%s: %u, expected %u",
			      cases[i].v ? cases[i].v : "(unset)", env.max_queues, cases[i].want);
	}
	unsetenv("HSA_MAX_QUEUES");
}
END_TEST

static Suite *env_suite(void)
{
	Suite *s = suite_create("runtime_env");
	TCase *tc = tcase_create("env");
	tcase_add_test(tc, unset_shows_every_gpu_in_order);
	tcase_add_test(tc, indices_filter_and_reorder);
	tcase_add_test(tc, uuid_prefix_selects_a_gpu);
	tcase_add_test(tc, ambiguous_uuid_prefix_stops_the_list);
	tcase_add_test(tc, invalid_token_stops_the_list);
	tcase_add_test(tc, duplicates_are_ignored);
	tcase_add_test(tc, empty_value_hides_every_gpu);
	tcase_add_test(tc, gfx_override_applies_to_every_gpu);
	tcase_add_test(tc, gfx_override_for_one_node_wins);
	tcase_add_test(tc, malformed_gfx_override_is_ignored);
	tcase_add_test(tc, max_queues_defaults_to_128_and_is_capped);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(env_suite)
