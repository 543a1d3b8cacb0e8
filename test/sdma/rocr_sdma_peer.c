/*
 * Stock ROCr 5.2.3 copying through kfdemu's SDMA engines: with SDMA on
 * (HSA_ENABLE_SDMA=1 in the test's environment: ROCr's BlitSdmaV4 on its
 * H2D and D2H queues), hsa_amd_memory_async_copy host -> VRAM -> host of
 * sizes from 1 byte to 64 MiB at unaligned offsets (several COPY_LINEAR
 * packets past 4 MiB), a copy held by a dependency signal (POLL_REGMEM on
 * both halves of its value), a blocked wait on the completion signal (the
 * FENCE to the event mailbox and the TRAP wake it), and
 * hsa_amd_memory_async_copy_rect in 2D and 3D (COPY_LINEAR_SUB_WIND, which
 * ROCr only does on SDMA), and a profiled copy's TIMESTAMP packets
 * translated into the system clock.  Built against /usr/include/hsa and linked
 * against the system library only; runs under the kfdemu launcher (mi210).
 * Exits 77 when ROCr finds no GPU.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include "hl_hsa.h"

static hsa_agent_t gpu, cpu;
static hsa_amd_memory_pool_t sys_pool, vram_pool;
static bool have_gpu, have_cpu;

static void *sys_alloc(size_t size)
{
	void *p = NULL;
	ck_hsa(hsa_amd_memory_pool_allocate(sys_pool, size, 0, &p));
	ck_hsa(hsa_amd_agents_allow_access(1, &gpu, NULL, p));
	return p;
}

static void *vram_alloc(size_t size)
{
	void *p = NULL;
	ck_hsa(hsa_amd_memory_pool_allocate(vram_pool, size, 0, &p));
	return p;
}

static void setup(void)
{
	/* every test re-initialises ROCr: agents and pools get new handles */
	have_gpu = have_cpu = false;
	ck_hsa(hsa_init());
	ck_hsa(hl_first_agents(&gpu, &have_gpu, &cpu, &have_cpu));
	if (!have_gpu) {
		fprintf(stderr, "rocr_sdma_peer: ROCr found no GPU agent: skipped\n");
		exit(HL_SKIP);
	}
	struct hl_pools pools;
	ck_hsa(hl_find_pools(gpu, cpu, &pools));
	ck_assert(pools.have_sys && pools.have_vram);
	sys_pool = pools.sys;
	vram_pool = pools.vram;
}

static void teardown(void)
{
	ck_hsa(hsa_shut_down());
}

static void copy_wait(void *dst, hsa_agent_t dst_agent, const void *src, hsa_agent_t src_agent,
		      size_t size)
{
	hsa_signal_t s;
	ck_hsa(hsa_signal_create(1, 0, NULL, &s));
	ck_hsa(hsa_amd_memory_async_copy(dst, dst_agent, src, src_agent, size, 0, NULL, s));
	hsa_signal_value_t v = hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 0,
							 60ull * 1000000000ull,
							 HSA_WAIT_STATE_BLOCKED);
	ck_assert_int_eq(v, 0);
	ck_hsa(hsa_signal_destroy(s));
}

START_TEST(copies_of_many_sizes_and_offsets)
{
	static const size_t sizes[] = { 1, 3, 4096, 4097, (1u << 20) + 5, (8u << 20) + 3,
					64u << 20 };
	const size_t max = (64u << 20) + 64;
	uint8_t *src = sys_alloc(max), *dst = sys_alloc(max);
	uint8_t *vram = vram_alloc(max);
	for (size_t i = 0; i < max; i++)
		src[i] = (uint8_t)(i * 31 + (i >> 13));
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		size_t n = sizes[k], so = k % 7, vo = (k * 3) % 13, dof = (k * 5) % 11;
		memset(dst, 0, n + 32);
		copy_wait(vram + vo, gpu, src + so, cpu, n);
		copy_wait(dst + dof, cpu, vram + vo, gpu, n);
		ck_assert_msg(memcmp(dst + dof, src + so, n) == 0, "size %zu: data differs", n);
		ck_assert_msg(dst[dof + n] == 0, "size %zu: wrote past the end", n);
		if (dof)
			ck_assert_uint_eq(dst[dof - 1], 0);
	}
	ck_hsa(hsa_amd_memory_pool_free(vram));
	ck_hsa(hsa_amd_memory_pool_free(src));
	ck_hsa(hsa_amd_memory_pool_free(dst));
}
END_TEST

START_TEST(copy_waits_for_its_dependency)
{
	enum { N = 1 << 16 };
	uint8_t *src = sys_alloc(N), *dst = sys_alloc(N);
	uint8_t *vram = vram_alloc(N);
	memset(src, 0x5A, N);
	memset(dst, 0, N);
	copy_wait(vram, gpu, src, cpu, N);
	hsa_signal_t dep, done;
	/* the value's upper half non-zero too: ROCr polls both halves */
	ck_hsa(hsa_signal_create(0x100000001ll, 0, NULL, &dep));
	ck_hsa(hsa_signal_create(1, 0, NULL, &done));
	ck_hsa(hsa_amd_memory_async_copy(dst, cpu, vram, gpu, N, 1, &dep, done));
	hsa_signal_value_t v = hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0,
							 30000000ull, HSA_WAIT_STATE_BLOCKED);
	ck_assert_int_eq(v, 1);
	ck_assert_uint_eq(dst[N - 1], 0);
	hsa_signal_store_screlease(dep, 1);
	v = hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 30000000ull,
				      HSA_WAIT_STATE_BLOCKED);
	ck_assert_int_eq(v, 1);
	hsa_signal_store_screlease(dep, 0);
	v = hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 60ull * 1000000000ull,
				      HSA_WAIT_STATE_BLOCKED);
	ck_assert_int_eq(v, 0);
	ck_assert_uint_eq(dst[0], 0x5A);
	ck_assert_uint_eq(dst[N - 1], 0x5A);
	ck_hsa(hsa_signal_destroy(dep));
	ck_hsa(hsa_signal_destroy(done));
	ck_hsa(hsa_amd_memory_pool_free(vram));
	ck_hsa(hsa_amd_memory_pool_free(src));
	ck_hsa(hsa_amd_memory_pool_free(dst));
}
END_TEST

static void rect_round_trip(uint32_t w, uint32_t h, uint32_t d, size_t pitch, size_t slice)
{
	size_t bytes = slice * (d + 1) + pitch;
	uint8_t *src = sys_alloc(bytes), *dst = sys_alloc(bytes);
	void *vram = vram_alloc(bytes);
	for (size_t i = 0; i < bytes; i++)
		src[i] = (uint8_t)(i * 7 + 1);
	memset(dst, 0, bytes);
	hsa_pitched_ptr_t hs = { src, pitch, slice }, hd = { dst, pitch, slice };
	hsa_pitched_ptr_t dv = { vram, pitch, slice };
	hsa_dim3_t off = { 3, 1, d > 1 ? 1 : 0 }, zero = { 0, 0, 0 }, range = { w, h, d };
	hsa_signal_t s;
	ck_hsa(hsa_signal_create(1, 0, NULL, &s));
	/* host box at off -> VRAM origin -> host box at off */
	ck_hsa(hsa_amd_memory_async_copy_rect(&dv, &zero, &hs, &off, &range, gpu, hsaHostToDevice,
					      0, NULL, s));
	ck_assert_int_eq(hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 0,
						   60ull * 1000000000ull, HSA_WAIT_STATE_BLOCKED), 0);
	hsa_signal_store_relaxed(s, 1);
	ck_hsa(hsa_amd_memory_async_copy_rect(&hd, &off, &dv, &zero, &range, gpu, hsaDeviceToHost,
					      0, NULL, s));
	ck_assert_int_eq(hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 0,
						   60ull * 1000000000ull, HSA_WAIT_STATE_BLOCKED), 0);
	for (size_t z = 0; z < d + 1; z++) {
		for (size_t y = 0; y < h + 2 && (z * slice + (y + 1) * pitch) <= bytes; y++) {
			for (size_t x = 0; x < pitch; x++) {
				size_t i = z * slice + y * pitch + x;
				bool in = x >= off.x && x < off.x + w && y >= off.y &&
					  y < off.y + h && z >= off.z && z < off.z + d;
				uint8_t want = in ? src[i] : 0;
				ck_assert_msg(dst[i] == want, "%ux%ux%u: (%zu,%zu,%zu) 0x%x, want 0x%x",
					      w, h, d, x, y, z, dst[i], want);
			}
		}
	}
	ck_hsa(hsa_signal_destroy(s));
	ck_hsa(hsa_amd_memory_pool_free(vram));
	ck_hsa(hsa_amd_memory_pool_free(src));
	ck_hsa(hsa_amd_memory_pool_free(dst));
}

START_TEST(rect_copies_in_2d_and_3d)
{
	rect_round_trip(37, 9, 1, 128, 128 * 16);
	rect_round_trip(64, 5, 3, 256, 256 * 8);
}
END_TEST

/* With async-copy profiling on, ROCr brackets the copy with TIMESTAMP
 * GET_GLOBAL packets into the signal's SDMA slots and translates them to
 * the system domain through GET_CLOCK_COUNTERS: the engine's clock must be
 * that counter for the times to land between two system timestamps. */
START_TEST(profiled_copy_time_is_in_the_system_clock)
{
	enum { N = 8 << 20 };
	uint8_t *src = sys_alloc(N);
	uint8_t *vram = vram_alloc(N);
	memset(src, 0x21, N);
	ck_hsa(hsa_amd_profiling_async_copy_enable(true));
	hsa_signal_t s;
	ck_hsa(hsa_signal_create(1, 0, NULL, &s));
	uint64_t t0 = 0, t1 = 0;
	ck_hsa(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &t0));
	ck_hsa(hsa_amd_memory_async_copy(vram, gpu, src, cpu, N, 0, NULL, s));
	ck_assert_int_eq(hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 0,
						   60ull * 1000000000ull, HSA_WAIT_STATE_BLOCKED), 0);
	ck_hsa(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &t1));
	hsa_amd_profiling_async_copy_time_t time = { 0, 0 };
	ck_hsa(hsa_amd_profiling_get_async_copy_time(s, &time));
	uint64_t freq = 0;
	ck_hsa(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &freq));
	/* ROCr's translation fits a line through clock samples: allow 1 ms */
	uint64_t slack = freq / 1000;
	ck_assert_msg(time.start + slack >= t0 && time.start <= time.end &&
			      time.end <= t1 + slack,
		      "system %llu <= copy start %llu <= end %llu <= system %llu (freq %llu)",
		      (unsigned long long)t0, (unsigned long long)time.start,
		      (unsigned long long)time.end, (unsigned long long)t1,
		      (unsigned long long)freq);
	ck_assert_uint_gt(time.end, time.start);
	ck_hsa(hsa_amd_profiling_async_copy_enable(false));
	ck_hsa(hsa_signal_destroy(s));
	ck_hsa(hsa_amd_memory_pool_free(vram));
	ck_hsa(hsa_amd_memory_pool_free(src));
}
END_TEST

static Suite *rocr_sdma_suite(void)
{
	Suite *s = suite_create("rocr_sdma_peer");
	TCase *tc = tcase_create("sdma");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 240);
	tcase_add_test(tc, copies_of_many_sizes_and_offsets);
	tcase_add_test(tc, copy_waits_for_its_dependency);
	tcase_add_test(tc, rect_copies_in_2d_and_3d);
	tcase_add_test(tc, profiled_copy_time_is_in_the_system_clock);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(rocr_sdma_suite)
