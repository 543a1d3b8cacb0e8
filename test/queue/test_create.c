/*
 * Queue creation and destruction on kfdemu: sizes at the agent's limits,
 * the ring and the amd_queue_t as ROCr fills them, the doorbell signal,
 * argument validation and destroyed-queue handling.  Label emu; run on the
 * mi210 and mi300x presets.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hl_check.h"
#include "q_test.h"

static void setup(void) { q_init(); }
static void teardown(void) { q_fini(); }

static uint32_t agent_u32(hsa_agent_t a, int attr)
{
	uint32_t v = 0;
	ck_status(hsa_agent_get_info(a, (hsa_agent_info_t)attr, &v), HSA_STATUS_SUCCESS);
	return v;
}

static void check_every_header_invalid(hsa_queue_t *q)
{
	const uint8_t *ring = q->base_address;
	for (uint32_t i = 0; i < q->size; i++) {
		uint16_t h;
		memcpy(&h, ring + (uint64_t)i * 64, sizeof(h));
		ck_assert_msg((h & 0xFF) == HSA_PACKET_TYPE_INVALID,
			      "slot %u header type %u, expected INVALID (1)", i, h & 0xFF);
	}
}

static void create_check_destroy(uint32_t size, hsa_queue_type32_t type)
{
	hsa_queue_t *q = q_create(size, type);
	ck_assert_uint_eq(q->size, size);
	/* a SINGLE queue reports MULTI, as ROCr's AqlQueue */
	ck_assert_uint_eq(q->type, HSA_QUEUE_TYPE_MULTI);
	(void)type;
	ck_assert_uint_eq((uintptr_t)q->base_address % 4096, 0);
	check_every_header_invalid(q);
	ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
}

START_TEST(multi_queue_of_min_size)
{
	create_check_destroy(agent_u32(q_gpu, HSA_AGENT_INFO_QUEUE_MIN_SIZE), HSA_QUEUE_TYPE_MULTI);
}
END_TEST

START_TEST(multi_queue_of_max_size)
{
	create_check_destroy(agent_u32(q_gpu, HSA_AGENT_INFO_QUEUE_MAX_SIZE), HSA_QUEUE_TYPE_MULTI);
}
END_TEST

START_TEST(single_queue_of_min_size)
{
	create_check_destroy(agent_u32(q_gpu, HSA_AGENT_INFO_QUEUE_MIN_SIZE), HSA_QUEUE_TYPE_SINGLE);
}
END_TEST

START_TEST(single_queue_of_max_size)
{
	create_check_destroy(agent_u32(q_gpu, HSA_AGENT_INFO_QUEUE_MAX_SIZE), HSA_QUEUE_TYPE_SINGLE);
}
END_TEST

START_TEST(amd_queue_fields_as_rocr_fills_them)
{
	hsa_queue_t *q = q_create(256, HSA_QUEUE_TYPE_MULTI);
	amd_queue_t *a = q_amd(q);
	ck_assert_uint_eq((uintptr_t)a % 4096, 0);
	ck_assert_uint_eq(q->features, HSA_QUEUE_FEATURE_KERNEL_DISPATCH);
	ck_assert_uint_eq(a->write_dispatch_id, 0);
	ck_assert_uint_eq(a->read_dispatch_id, 0);
	ck_assert_uint_eq(a->read_dispatch_id_field_base_byte_offset, 128);
	ck_assert_uint_eq(a->max_cu_id, agent_u32(q_gpu, HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT) - 1);
	ck_assert_uint_eq(a->max_wave_id, agent_u32(q_gpu, HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU) - 1);
	ck_assert_uint_eq(a->queue_properties & AMD_QUEUE_PROPERTIES_IS_PTR64,
			  AMD_QUEUE_PROPERTIES_IS_PTR64);
	ck_assert_uint_eq(a->queue_properties & AMD_QUEUE_PROPERTIES_ENABLE_PROFILING, 0);
	ck_assert_uint_ne(a->group_segment_aperture_base_hi, 0);
	ck_assert_uint_ne(a->private_segment_aperture_base_hi, 0);
	ck_assert_uint_ne(a->queue_inactive_signal.handle, 0);
	ck_assert_int_eq(hsa_signal_load_relaxed(a->queue_inactive_signal), 0);
	/* No private memory asked for: no scratch. */
	ck_assert_uint_eq(a->compute_tmpring_size, 0);
	ck_assert_uint_eq(a->scratch_backing_memory_location, 0);
	ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(queue_ids_are_unique)
{
	hsa_queue_t *a = q_create(64, HSA_QUEUE_TYPE_MULTI);
	hsa_queue_t *b = q_create(64, HSA_QUEUE_TYPE_MULTI);
	ck_assert_uint_ne(a->id, b->id);
	uint64_t old = b->id;
	ck_status(hsa_queue_destroy(b), HSA_STATUS_SUCCESS);
	b = q_create(64, HSA_QUEUE_TYPE_MULTI);
	ck_assert_uint_ne(b->id, old);
	ck_assert_uint_ne(b->id, a->id);
	ck_status(hsa_queue_destroy(a), HSA_STATUS_SUCCESS);
	ck_status(hsa_queue_destroy(b), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(doorbell_signal_is_a_doorbell_of_this_queue)
{
	hsa_queue_t *q = q_create(64, HSA_QUEUE_TYPE_MULTI);
	hsa_queue_t *r = q_create(64, HSA_QUEUE_TYPE_MULTI);
	const amd_signal_t *s = (const amd_signal_t *)(uintptr_t)q->doorbell_signal.handle;
	const amd_signal_t *t = (const amd_signal_t *)(uintptr_t)r->doorbell_signal.handle;
	ck_assert_ptr_nonnull(s);
	ck_assert_uint_eq((uintptr_t)s % 64, 0);
	ck_assert_int_eq(s->kind, AMD_SIGNAL_KIND_DOORBELL);
	ck_assert_ptr_eq(s->queue_ptr, q_amd(q));
	ck_assert_ptr_nonnull((const void *)s->hardware_doorbell_ptr);
	ck_assert_uint_eq((uintptr_t)s->hardware_doorbell_ptr % 8, 0);
	ck_assert_ptr_ne((const void *)s->hardware_doorbell_ptr,
			 (const void *)t->hardware_doorbell_ptr);
	ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
	ck_status(hsa_queue_destroy(r), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(sizes_not_a_power_of_two_or_out_of_range_are_invalid)
{
	static const uint32_t bad[] = { 0, 1, 32, 63, 96, 100, 1000, 131071, UINT32_MAX };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		hsa_queue_t *q = NULL;
		hsa_status_t st = hsa_queue_create(q_gpu, bad[i], HSA_QUEUE_TYPE_MULTI, NULL, NULL,
						   0, 0, &q);
		ck_assert_msg(st == HSA_STATUS_ERROR_INVALID_ARGUMENT,
			      "size %u: got %#x, expected INVALID_ARGUMENT", bad[i], (unsigned)st);
		ck_assert_ptr_null(q);
	}
}
END_TEST

START_TEST(null_queue_pointer_is_invalid_argument)
{
	ck_status(hsa_queue_create(q_gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
}
END_TEST

/* A power of two above QUEUE_MAX_SIZE is OUT_OF_RESOURCES, as in ROCr. */
START_TEST(size_above_the_maximum_is_out_of_resources)
{
	hsa_queue_t *q = NULL;
	uint32_t max = agent_u32(q_gpu, HSA_AGENT_INFO_QUEUE_MAX_SIZE);
	ck_status(hsa_queue_create(q_gpu, max * 2, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q),
		  HSA_STATUS_ERROR_OUT_OF_RESOURCES);
	ck_assert_ptr_null(q);
	ck_status(hsa_queue_create(q_gpu, 1u << 31, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q),
		  HSA_STATUS_ERROR_OUT_OF_RESOURCES);
	ck_assert_ptr_null(q);
}
END_TEST

/* A CPU agent runs no AQL queue: ERROR, as ROCr's CpuAgent answers. */
START_TEST(cpu_agent_is_error_unknown_agent_is_invalid_agent)
{
	hsa_queue_t *q = NULL;
	hsa_agent_t bogus = { (uint64_t)(uintptr_t)&q };
	ck_status(hsa_queue_create(q_cpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q),
		  HSA_STATUS_ERROR);
	ck_status(hsa_queue_create(bogus, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q),
		  HSA_STATUS_ERROR_INVALID_AGENT);
}
END_TEST

START_TEST(unknown_type_is_invalid)
{
	hsa_queue_t *q = NULL;
	ck_status(hsa_queue_create(q_gpu, 64, 7, NULL, NULL, 0, 0, &q),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_assert_ptr_null(q);
}
END_TEST

START_TEST(private_segment_above_limit_is_out_of_resources)
{
	hsa_queue_t *q = NULL;
	ck_status(hsa_queue_create(q_gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 262129, 0, &q),
		  HSA_STATUS_ERROR_OUT_OF_RESOURCES);
}
END_TEST

START_TEST(private_segment_gets_scratch_described)
{
	hsa_queue_t *q = NULL;
	ck_status(hsa_queue_create(q_gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 1000, 0, &q),
		  HSA_STATUS_SUCCESS);
	amd_queue_t *a = q_amd(q);
	uint64_t base = a->scratch_backing_memory_location;
	ck_assert_uint_ne(base, 0);
	ck_assert_uint_eq(a->scratch_resource_descriptor[0], (uint32_t)base);
	ck_assert_uint_eq(a->scratch_resource_descriptor[1] & 0xFFFF, (uint32_t)(base >> 32));
	ck_assert_uint_eq(a->scratch_wave64_lane_byte_size, 1008); /* ALIGN(1000, 16) */
	/* WAVESIZE in 1 KiB units: ALIGN(1008 * 64, 1024) / 1024 = 63. */
	ck_assert_uint_eq((a->compute_tmpring_size >> 12) & 0x1FFF, 63);
	ck_assert_uint_ne(a->compute_tmpring_size & 0xFFF, 0);
	ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(destroyed_queue_is_invalid_queue)
{
	hsa_queue_t *q = q_create(64, HSA_QUEUE_TYPE_MULTI);
	uint32_t mask[4] = { 1 };
	ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
	ck_status(hsa_queue_destroy(q), HSA_STATUS_ERROR_INVALID_QUEUE);
	ck_status(hsa_queue_inactivate(q), HSA_STATUS_ERROR_INVALID_QUEUE);
	ck_status(hsa_amd_queue_cu_set_mask(q, 32, mask), HSA_STATUS_ERROR_INVALID_QUEUE);
	ck_status(hsa_amd_queue_cu_get_mask(q, 32, mask), HSA_STATUS_ERROR_INVALID_QUEUE);
	ck_status(hsa_amd_queue_set_priority(q, HSA_AMD_QUEUE_PRIORITY_LOW),
		  HSA_STATUS_ERROR_INVALID_QUEUE);
	ck_status(hsa_amd_profiling_set_profiler_enabled(q, 1), HSA_STATUS_ERROR_INVALID_QUEUE);
	/* The index functions have no status; they must not fault. */
	(void)hsa_queue_load_write_index_relaxed(q);
	(void)hsa_queue_add_write_index_relaxed(q, 1);
}
END_TEST

START_TEST(unknown_queue_pointer_is_invalid_queue)
{
	amd_queue_t fake;
	memset(&fake, 0, sizeof(fake));
	ck_status(hsa_queue_destroy(&fake.hsa_queue), HSA_STATUS_ERROR_INVALID_QUEUE);
	ck_status(hsa_queue_destroy(NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_queue_inactivate(NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
}
END_TEST

START_TEST(inactivated_queue_stays_valid)
{
	hsa_queue_t *q = q_create(64, HSA_QUEUE_TYPE_MULTI);
	ck_status(hsa_queue_inactivate(q), HSA_STATUS_SUCCESS);
	ck_status(hsa_queue_inactivate(q), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_queue_set_priority(q, HSA_AMD_QUEUE_PRIORITY_HIGH), HSA_STATUS_SUCCESS);
	ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(priority_levels_and_bad_priority)
{
	hsa_queue_t *q = q_create(64, HSA_QUEUE_TYPE_MULTI);
	ck_status(hsa_amd_queue_set_priority(q, HSA_AMD_QUEUE_PRIORITY_LOW), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_queue_set_priority(q, HSA_AMD_QUEUE_PRIORITY_HIGH), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_queue_set_priority(q, HSA_AMD_QUEUE_PRIORITY_NORMAL), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_queue_set_priority(q, (hsa_amd_queue_priority_t)3),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(profiling_bit_follows_enable)
{
	hsa_queue_t *q = q_create(64, HSA_QUEUE_TYPE_MULTI);
	ck_status(hsa_amd_profiling_set_profiler_enabled(q, 1), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(q_amd(q)->queue_properties & AMD_QUEUE_PROPERTIES_ENABLE_PROFILING,
			  AMD_QUEUE_PROPERTIES_ENABLE_PROFILING);
	ck_assert_uint_eq(q_amd(q)->queue_properties & AMD_QUEUE_PROPERTIES_IS_PTR64,
			  AMD_QUEUE_PROPERTIES_IS_PTR64);
	ck_status(hsa_amd_profiling_set_profiler_enabled(q, 0), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(q_amd(q)->queue_properties & AMD_QUEUE_PROPERTIES_ENABLE_PROFILING, 0);
	ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(soft_queue_bad_arguments)
{
	/* ROCr's first check: no region, no doorbell, no features. */
	hsa_region_t region = { 0 };
	hsa_signal_t sig = { 0 };
	hsa_queue_t *q = NULL;
	ck_status(hsa_soft_queue_create(region, 64, HSA_QUEUE_TYPE_MULTI, 0, sig, &q),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
}
END_TEST

START_TEST(queue_left_alive_is_destroyed_by_shut_down)
{
	(void)q_create(64, HSA_QUEUE_TYPE_MULTI);
	/* teardown's hsa_shut_down must succeed and free it */
}
END_TEST

/* Not an assertion on time: prints what create/destroy cost here. */
START_TEST(report_create_destroy_time)
{
	enum { N = 20 };
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (int i = 0; i < N; i++)
		ck_status(hsa_queue_destroy(q_create(4096, HSA_QUEUE_TYPE_MULTI)), HSA_STATUS_SUCCESS);
	clock_gettime(CLOCK_MONOTONIC, &b);
	double us = ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / 1e3 / N;
	printf("queue create+destroy (4096 packets): %.1f us each over %d\n", us, N);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("queue_create");
	TCase *tc = tcase_create("create");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, multi_queue_of_min_size);
	tcase_add_test(tc, multi_queue_of_max_size);
	tcase_add_test(tc, single_queue_of_min_size);
	tcase_add_test(tc, single_queue_of_max_size);
	tcase_add_test(tc, amd_queue_fields_as_rocr_fills_them);
	tcase_add_test(tc, queue_ids_are_unique);
	tcase_add_test(tc, doorbell_signal_is_a_doorbell_of_this_queue);
	tcase_add_test(tc, sizes_not_a_power_of_two_or_out_of_range_are_invalid);
	tcase_add_test(tc, null_queue_pointer_is_invalid_argument);
	tcase_add_test(tc, cpu_agent_is_error_unknown_agent_is_invalid_agent);
	tcase_add_test(tc, size_above_the_maximum_is_out_of_resources);
	tcase_add_test(tc, unknown_type_is_invalid);
	tcase_add_test(tc, private_segment_above_limit_is_out_of_resources);
	tcase_add_test(tc, private_segment_gets_scratch_described);
	tcase_add_test(tc, destroyed_queue_is_invalid_queue);
	tcase_add_test(tc, unknown_queue_pointer_is_invalid_queue);
	tcase_add_test(tc, inactivated_queue_stays_valid);
	tcase_add_test(tc, priority_levels_and_bad_priority);
	tcase_add_test(tc, profiling_bit_follows_enable);
	tcase_add_test(tc, soft_queue_bad_arguments);
	tcase_add_test(tc, queue_left_alive_is_destroyed_by_shut_down);
	tcase_add_test(tc, report_create_destroy_time);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(suite)
