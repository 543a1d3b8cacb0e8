/*
 * Scratch on demand (src/queue/scratch.c): a queue created with
 * private_segment_size = UINT32_MAX, as HIP creates every queue, starts
 * without scratch; the first dispatch of a kernel with a private array
 * makes the CP ask for scratch (out-of-scratch code in
 * queue_inactive_signal), the runtime grows it and the CP retries the
 * packet, which then runs and computes the right values; the queue's error
 * callback is never called.  A later dispatch of the same kernel reuses
 * the buffer.  A packet that understates its private size (16 bytes, below
 * the kernel's) still gets what the kernel descriptor says.  A queue with a fixed size grows too
 * while the service runs.  Label emu.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "co_file.h"
#include "hl_check.h"
#include "hl_hsa.h"
#include "hsa/amd_hsa_queue.h"
#include "hsa/hsa.h"
#include "hsa/hsa_ext_amd.h"

#define WAIT_NS (60ull * 1000 * 1000 * 1000)
#define N 256u

static hsa_agent_t gpu;
static hsa_amd_memory_pool_t host_pool;
static struct co_file priv;
static int callbacks;
static hsa_status_t last_status;

static void on_error(hsa_status_t status, hsa_queue_t *source, void *data)
{
	(void)source;
	(void)data;
	__atomic_store_n(&last_status, status, __ATOMIC_RELAXED);
	__atomic_add_fetch(&callbacks, 1, __ATOMIC_RELEASE);
}

static void *host_alloc(size_t size)
{
	void *p = NULL;
	ck_status(hsa_amd_memory_pool_allocate(host_pool, size, 0, &p), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_agents_allow_access(1, &gpu, NULL, p), HSA_STATUS_SUCCESS);
	memset(p, 0, size);
	return p;
}

struct kernel {
	hsa_executable_t exe;
	uint64_t object;
	uint32_t kernarg_size, private_size;
};

static void load(struct kernel *k)
{
	hsa_code_object_reader_t r;
	ck_status(hsa_code_object_reader_create_from_memory(priv.data, priv.size, &r),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
					    NULL, &k->exe), HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_load_agent_code_object(k->exe, gpu, r, NULL, NULL),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_freeze(k->exe, NULL), HSA_STATUS_SUCCESS);
	ck_status(hsa_code_object_reader_destroy(r), HSA_STATUS_SUCCESS);
	hsa_executable_symbol_t s;
	ck_status(hsa_executable_get_symbol_by_name(k->exe, "private_array", &gpu, &s),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT,
						 &k->object), HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_symbol_get_info(
			  s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, &k->kernarg_size),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_symbol_get_info(
			  s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE, &k->private_size),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_ge(k->private_size, 64 * 4);
}

static void setup(void)
{
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	callbacks = 0;
	ck_status(hl_gpu_kernarg_pool(&gpu, &host_pool), HSA_STATUS_SUCCESS);
	ck_assert(gpu.handle && host_pool.handle);
	ck_assert_msg(co_load(&priv, "private_array", NULL), "private_array.%s.co missing",
		      getenv("HL_GFX"));
}

static void teardown(void)
{
	co_free(&priv);
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

/* private_array over N work-items (4 work-groups of 64), waited for.  The
 * kernel indexes by local id, so every work-group writes
 * out[i] = (idx[i] & 63) * i for i < 64 and nothing past. */
static void run(hsa_queue_t *q, const struct kernel *k, uint32_t packet_private)
{
	uint32_t *idx = host_alloc(N * 4), *out = host_alloc(N * 4);
	void *kernarg = host_alloc(k->kernarg_size > 256 ? k->kernarg_size : 256);
	for (uint32_t i = 0; i < N; i++) {
		idx[i] = i * 7 + 3;
		out[i] = 0xDEADBEEF;
	}
	memcpy(kernarg, &idx, 8);
	memcpy((char *)kernarg + 8, &out, 8);
	hsa_signal_t done;
	ck_status(hsa_signal_create(1, 0, NULL, &done), HSA_STATUS_SUCCESS);
	hl_dispatch_1d(q, k->object, kernarg, N, packet_private, true, done);
	hsa_signal_value_t v = hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, WAIT_NS,
							 HSA_WAIT_STATE_BLOCKED);
	ck_assert_msg(v == 0, "the dispatch did not complete (signal %lld, %d callbacks, last "
		      "status %#x)", (long long)v, callbacks, (unsigned)last_status);
	for (uint32_t i = 0; i < N; i++) {
		uint32_t want = i < 64 ? (idx[i] & 63u) * i : 0xDEADBEEFu;
		ck_assert_msg(out[i] == want, "out[%u] = %u, expected %u", i, out[i], want);
	}
	ck_status(hsa_signal_destroy(done), HSA_STATUS_SUCCESS);
	hsa_amd_memory_pool_free(idx);
	hsa_amd_memory_pool_free(out);
	hsa_amd_memory_pool_free(kernarg);
}

START_TEST(grow_as_needed_queue_gets_scratch_on_first_dispatch)
{
	struct kernel k;
	load(&k);
	hsa_queue_t *q = NULL;
	ck_status(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, on_error, NULL, UINT32_MAX,
				   UINT32_MAX, &q), HSA_STATUS_SUCCESS);
	amd_queue_t *aq = (amd_queue_t *)q;
	ck_assert_uint_eq(aq->scratch_backing_memory_location, 0);
	ck_assert_uint_eq(aq->compute_tmpring_size, 0);
	run(q, &k, k.private_size);
	uint64_t base = aq->scratch_backing_memory_location;
	ck_assert_uint_ne(base, 0);
	ck_assert_uint_ge(aq->scratch_wave64_lane_byte_size, k.private_size);
	/* The same kernel again: no new request, the same buffer. */
	run(q, &k, k.private_size);
	ck_assert_uint_eq(aq->scratch_backing_memory_location, base);
	ck_assert_int_eq(__atomic_load_n(&callbacks, __ATOMIC_ACQUIRE), 0);
	ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_destroy(k.exe), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(packet_understating_private_size_gets_the_descriptor_s)
{
	struct kernel k;
	load(&k);
	hsa_queue_t *q = NULL;
	ck_status(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_SINGLE, NULL, NULL, UINT32_MAX,
				   UINT32_MAX, &q), HSA_STATUS_SUCCESS);
	/* 16 bytes per work-item, less than the kernel needs.  Not 0: the CP
	 * weighs the packet alone (kfdemu's cp_dispatch.c, as ROCr's handler
	 * assumes), so a packet of 0 is never reported short; 16 is, and the
	 * runtime then sizes by the descriptor. */
	run(q, &k, 16);
	ck_assert_uint_ge(((amd_queue_t *)q)->scratch_wave64_lane_byte_size, k.private_size);
	ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_destroy(k.exe), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(fixed_size_queue_grows_while_the_service_runs)
{
	struct kernel k;
	load(&k);
	hsa_queue_t *q = NULL;
	/* 16 bytes per work-item: less than the kernel needs. */
	ck_status(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, on_error, NULL, 16, 0, &q),
		  HSA_STATUS_SUCCESS);
	uint64_t base = ((amd_queue_t *)q)->scratch_backing_memory_location;
	ck_assert_uint_ne(base, 0);
	run(q, &k, k.private_size);
	ck_assert_uint_ge(((amd_queue_t *)q)->scratch_wave64_lane_byte_size, k.private_size);
	ck_assert_int_eq(__atomic_load_n(&callbacks, __ATOMIC_ACQUIRE), 0);
	ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_destroy(k.exe), HSA_STATUS_SUCCESS);
}
END_TEST

static Suite *scratch_suite(void)
{
	Suite *s = suite_create("queue_scratch");
	TCase *tc = tcase_create("scratch");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, grow_as_needed_queue_gets_scratch_on_first_dispatch);
	tcase_add_test(tc, packet_understating_private_size_gets_the_descriptor_s);
	tcase_add_test(tc, fixed_size_queue_grows_while_the_service_runs);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(scratch_suite)
