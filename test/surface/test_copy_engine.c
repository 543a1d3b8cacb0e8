/*
 * The copy-engine calls of ROCr 1.18: hsa_amd_memory_copy_engine_status,
 * hsa_amd_memory_get_preferred_copy_engine and
 * hsa_amd_memory_async_copy_on_engine.  Expected masks follow ROCr's rules
 * from the agents' own attributes (NUM_SDMA_ENG, NUM_SDMA_XGMI_ENG, the
 * ISA, the link type to the peer), so one source serves every preset:
 * mi210 with 2 GPUs (PCIe peers, gfx90a's engine-0 rule), mi300x with 2
 * (an xGMI hive) and mi300x with 8 (the kernel's recommended engines).
 * With HSA_ENABLE_SDMA=0 every copy runs on the blit kernel and the
 * direction rules do not apply, as in ROCr.  Label surface.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "surface.h"

SURF_FIXTURE(ag)

/* HSA_ENABLE_SDMA=0: ROCr copies on the blit kernel whatever engine is
 * named, and skips the direction rules. */
static bool sdma_on(void)
{
	const char *v = getenv("HSA_ENABLE_SDMA");
	return !(v && strcmp(v, "0") == 0);
}

static bool is_gfx90a(hsa_agent_t gpu)
{
	char name[64] = { 0 };
	ck_status(hsa_agent_get_info(gpu, HSA_AGENT_INFO_NAME, name), HSA_STATUS_SUCCESS);
	return strcmp(name, "gfx90a") == 0;
}

/* Whether dst's device memory is one xGMI hop from src (a hive peer). */
static bool hive_peers(hsa_agent_t src, hsa_agent_t dst)
{
	hsa_amd_memory_pool_t pool = surf_pool(dst, false);
	uint32_t hops = 0;
	ck_status(hsa_amd_agent_memory_pool_get_info(src, pool,
						     HSA_AMD_AGENT_MEMORY_POOL_INFO_NUM_LINK_HOPS,
						     &hops), HSA_STATUS_SUCCESS);
	if (hops != 1)
		return false;
	hsa_amd_memory_pool_link_info_t link;
	ck_status(hsa_amd_agent_memory_pool_get_info(src, pool,
						     HSA_AMD_AGENT_MEMORY_POOL_INFO_LINK_INFO,
						     &link), HSA_STATUS_SUCCESS);
	return link.link_type == HSA_AMD_LINK_INFO_TYPE_XGMI;
}

/* ROCr's DmaCopyStatus with every engine idle. */
static uint32_t idle_mask(hsa_agent_t copier, bool h2d, bool xgmi)
{
	uint32_t n_sdma = surf_u32_info(copier, HSA_AMD_AGENT_INFO_NUM_SDMA_ENG);
	uint32_t n_xgmi = surf_u32_info(copier, HSA_AMD_AGENT_INFO_NUM_SDMA_XGMI_ENG);
	uint32_t m = 0;
	for (uint32_t i = 0; i < n_xgmi; i++)
		m |= (uint32_t)HSA_AMD_SDMA_ENGINE_2 << i;
	if (xgmi && n_xgmi)
		return m;
	if (h2d || !is_gfx90a(copier))
		m |= HSA_AMD_SDMA_ENGINE_0;
	m |= n_sdma > 1 ? HSA_AMD_SDMA_ENGINE_1 : HSA_AMD_SDMA_ENGINE_0;
	return m;
}

/* Before hsa_init: NOT_INITIALIZED on hsalite.  ROCr 1.18's three calls
 * (core/runtime/hsa_ext_amd.cpp lines 296, 341 and 354) never ask whether
 * the runtime is open and refuse the agent handle instead. */
START_TEST(engine_calls_before_init)
{
	hsa_agent_t none = { 0 };
	uint32_t m;
	hsa_status_t want = surf_is_hsalite() ? HSA_STATUS_ERROR_NOT_INITIALIZED
					      : HSA_STATUS_ERROR_INVALID_AGENT;
	ck_status(hsa_amd_memory_copy_engine_status(none, none, &m), want);
	ck_status(hsa_amd_memory_get_preferred_copy_engine(none, none, &m), want);
	static char buf[64];
	hsa_signal_t sig = { 1 };
	ck_status(hsa_amd_memory_async_copy_on_engine(buf, none, buf + 32, none, 16, 0, NULL, sig,
						      HSA_AMD_SDMA_ENGINE_0, false),
		  want);
}
END_TEST

START_TEST(engine_status_arguments)
{
	static uint64_t bogus[4];
	hsa_agent_t bad = { (uint64_t)(uintptr_t)&bogus[1] };
	hsa_agent_t gpu = ag.gpu[0];
	uint32_t m = 0;
	ck_status(hsa_amd_memory_copy_engine_status(bad, gpu, &m), HSA_STATUS_ERROR_INVALID_AGENT);
	ck_status(hsa_amd_memory_copy_engine_status(gpu, bad, &m), HSA_STATUS_ERROR_INVALID_AGENT);
	ck_status(hsa_amd_memory_copy_engine_status(gpu, gpu, &m), HSA_STATUS_ERROR_INVALID_AGENT);
	ck_status(hsa_amd_memory_copy_engine_status(ag.cpu, ag.cpu, &m),
		  HSA_STATUS_ERROR_INVALID_AGENT);
	ck_status(hsa_amd_memory_get_preferred_copy_engine(gpu, gpu, &m),
		  HSA_STATUS_ERROR_INVALID_AGENT);
	ck_status(hsa_amd_memory_get_preferred_copy_engine(bad, gpu, &m),
		  HSA_STATUS_ERROR_INVALID_AGENT);
}
END_TEST

/* hsalite also refuses the NULL out-pointers ROCr writes through: ROCr
 * 1.18's hsa_amd_memory_copy_engine_status and
 * hsa_amd_memory_get_preferred_copy_engine (core/runtime/hsa_ext_amd.cpp
 * lines 341 and 354) check the agents only, and GpuAgent::DmaCopyStatus
 * stores through the NULL mask (SIGSEGV), so the check runs on hsalite
 * only. */
START_TEST(engine_status_null_mask)
{
	if (!surf_is_hsalite())
		return;
	ck_status(hsa_amd_memory_copy_engine_status(ag.gpu[0], ag.cpu, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_memory_get_preferred_copy_engine(ag.gpu[0], ag.cpu, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
}
END_TEST

START_TEST(engine_status_idle_masks)
{
	hsa_agent_t gpu = ag.gpu[0];
	uint32_t m = 0;
	ck_status(hsa_amd_memory_copy_engine_status(gpu, ag.cpu, &m), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(m, idle_mask(gpu, true, false));
	ck_status(hsa_amd_memory_copy_engine_status(ag.cpu, gpu, &m), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(m, idle_mask(gpu, false, false));
	if (ag.n_gpus > 1) {
		bool hive = hive_peers(gpu, ag.gpu[1]);
		ck_status(hsa_amd_memory_copy_engine_status(ag.gpu[1], gpu, &m),
			  HSA_STATUS_SUCCESS);
		ck_assert_uint_eq(m, idle_mask(gpu, false, hive));
	}
	/* the host is no peer: no recommendation */
	ck_status(hsa_amd_memory_get_preferred_copy_engine(ag.cpu, gpu, &m), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(m, 0);
}
END_TEST

/* The recommendation between GPUs: the io-link's engine where the kernel
 * names exactly one (an 8-GPU MI300 hive: the first row of kfd_topology.c's
 * rec_sdma_eng_map), else none. */
START_TEST(engine_preferred_between_gpus)
{
	static const uint32_t row0[8] = { 0, 14, 12, 2, 4, 8, 10, 6 };
	const char *want = getenv("SURF_REC_ENGINES");
	for (uint32_t j = 1; j < ag.n_gpus; j++) {
		uint32_t m = 99;
		ck_status(hsa_amd_memory_get_preferred_copy_engine(ag.gpu[j], ag.gpu[0], &m),
			  HSA_STATUS_SUCCESS);
		if (want && strcmp(want, "mi300x-8") == 0)
			ck_assert_uint_eq(m, 1u << row0[j]);
		else
			ck_assert_uint_eq(m, 0);
	}
}
END_TEST

static void fill(uint8_t *p, size_t n, uint8_t seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(seed + i * 7);
}

static void check(const uint8_t *p, size_t n, uint8_t seed)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != (uint8_t)(seed + i * 7))
			ck_abort_msg("byte %zu: got %u, expected %u", i, p[i],
				     (uint8_t)(seed + i * 7));
}

/* One copy on engine, then its data. */
static void copy_on(void *dst, hsa_agent_t da, const void *src, hsa_agent_t sa, size_t n,
		    hsa_amd_sdma_engine_id_t e, bool force)
{
	hsa_signal_t done;
	ck_status(hsa_signal_create(1, 0, NULL, &done), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_async_copy_on_engine(dst, da, src, sa, n, 0, NULL, done, e,
						      force), HSA_STATUS_SUCCESS);
	surf_wait_zero(done);
	hsa_signal_destroy(done);
}

START_TEST(engine_copy_host_device_host)
{
	enum { N = 256 * 1024 + 12 };
	hsa_agent_t gpu = ag.gpu[0];
	uint8_t *h1 = surf_host_alloc(&ag, N), *h2 = surf_host_alloc(&ag, N);
	uint8_t *d = surf_vram_alloc(&ag, gpu, N);
	fill(h1, N, 3);
	memset(h2, 0, N);
	copy_on(d, gpu, h1, ag.cpu, N, HSA_AMD_SDMA_ENGINE_0, false);
	copy_on(h2, ag.cpu, d, gpu, N, HSA_AMD_SDMA_ENGINE_1, false);
	check(h2, N, 3);
	/* every xGMI engine serves host copies too */
	uint32_t n_xgmi = surf_u32_info(gpu, HSA_AMD_AGENT_INFO_NUM_SDMA_XGMI_ENG);
	for (uint32_t i = 0; i < n_xgmi && i < 3; i++) {
		memset(h2, 0, N);
		fill(h1, N, (uint8_t)(40 + i));
		copy_on(d, gpu, h1, ag.cpu, N,
			(hsa_amd_sdma_engine_id_t)(HSA_AMD_SDMA_ENGINE_2 << i), false);
		copy_on(h2, ag.cpu, d, gpu, N,
			(hsa_amd_sdma_engine_id_t)(HSA_AMD_SDMA_ENGINE_2 << i), false);
		check(h2, N, (uint8_t)(40 + i));
	}
	/* the engines are idle again */
	uint32_t m;
	ck_status(hsa_amd_memory_copy_engine_status(gpu, ag.cpu, &m), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(m, idle_mask(gpu, true, false));
	hsa_amd_memory_pool_free(h1);
	hsa_amd_memory_pool_free(h2);
	hsa_amd_memory_pool_free(d);
}
END_TEST

/* Inside one GPU: the blit kernel, or the SDMA engine when forced. */
START_TEST(engine_copy_same_gpu)
{
	enum { N = 64 * 1024 };
	hsa_agent_t gpu = ag.gpu[0];
	uint8_t *h = surf_host_alloc(&ag, N);
	uint8_t *a = surf_vram_alloc(&ag, gpu, N), *b = surf_vram_alloc(&ag, gpu, N);
	for (int force = 0; force < 2; force++) {
		fill(h, N, (uint8_t)(9 + force));
		copy_on(a, gpu, h, ag.cpu, N, HSA_AMD_SDMA_ENGINE_0, false);
		copy_on(b, gpu, a, gpu, N, HSA_AMD_SDMA_ENGINE_1, force);
		memset(h, 0, N);
		copy_on(h, ag.cpu, b, gpu, N, HSA_AMD_SDMA_ENGINE_1, false);
		check(h, N, (uint8_t)(9 + force));
	}
	hsa_amd_memory_pool_free(h);
	hsa_amd_memory_pool_free(a);
	hsa_amd_memory_pool_free(b);
}
END_TEST

/* GPU to GPU: hive peers on an xGMI engine (a PCIe engine is refused),
 * PCIe peers on any engine but gfx90a's engine 0. */
START_TEST(engine_copy_peer)
{
	if (ag.n_gpus < 2)
		return;
	enum { N = 128 * 1024 };
	hsa_agent_t g0 = ag.gpu[0], g1 = ag.gpu[1];
	bool hive = hive_peers(g0, g1);
	uint8_t *h = surf_host_alloc(&ag, N);
	uint8_t *a = surf_vram_alloc(&ag, g0, N), *b = surf_vram_alloc(&ag, g1, N);
	fill(h, N, 21);
	copy_on(a, g0, h, ag.cpu, N, HSA_AMD_SDMA_ENGINE_0, false);
	hsa_signal_t done;
	ck_status(hsa_signal_create(1, 0, NULL, &done), HSA_STATUS_SUCCESS);
	if (hive) {
		if (sdma_on())
			ck_status(hsa_amd_memory_async_copy_on_engine(b, g1, a, g0, N, 0, NULL,
								      done,
								      HSA_AMD_SDMA_ENGINE_1,
								      false),
				  HSA_STATUS_ERROR_INVALID_ARGUMENT);
		copy_on(b, g1, a, g0, N, HSA_AMD_SDMA_ENGINE_2, false);
	} else {
		if (is_gfx90a(g0) && sdma_on())
			ck_status(hsa_amd_memory_async_copy_on_engine(b, g1, a, g0, N, 0, NULL,
								      done,
								      HSA_AMD_SDMA_ENGINE_0,
								      false),
				  HSA_STATUS_ERROR_INVALID_ARGUMENT);
		copy_on(b, g1, a, g0, N, HSA_AMD_SDMA_ENGINE_1, false);
	}
	ck_assert_int_eq(hsa_signal_load_scacquire(done), 1); /* refused: untouched */
	hsa_signal_destroy(done);
	memset(h, 0, N);
	copy_on(h, ag.cpu, b, g1, N, HSA_AMD_SDMA_ENGINE_1, false);
	check(h, N, 21);
	hsa_amd_memory_pool_free(h);
	hsa_amd_memory_pool_free(a);
	hsa_amd_memory_pool_free(b);
}
END_TEST

START_TEST(engine_copy_arguments)
{
	hsa_agent_t gpu = ag.gpu[0];
	uint8_t *h = surf_host_alloc(&ag, 4096), *d = surf_vram_alloc(&ag, gpu, 4096);
	hsa_signal_t done;
	ck_status(hsa_signal_create(1, 0, NULL, &done), HSA_STATUS_SUCCESS);
	hsa_signal_t zero = { 0 };
	static uint64_t bogus[4];
	hsa_agent_t bad = { (uint64_t)(uintptr_t)&bogus[1] };
	const hsa_amd_sdma_engine_id_t e0 = HSA_AMD_SDMA_ENGINE_0;
	ck_status(hsa_amd_memory_async_copy_on_engine(NULL, gpu, h, ag.cpu, 64, 0, NULL, done, e0,
						      false), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_memory_async_copy_on_engine(d, gpu, NULL, ag.cpu, 64, 0, NULL, done, e0,
						      false), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_memory_async_copy_on_engine(d, gpu, h, ag.cpu, 64, 1, NULL, done, e0,
						      false), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_memory_async_copy_on_engine(d, gpu, h, ag.cpu, 64, 0, &done, done, e0,
						      false), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_memory_async_copy_on_engine(d, bad, h, ag.cpu, 64, 0, NULL, done, e0,
						      false), HSA_STATUS_ERROR_INVALID_AGENT);
	ck_status(hsa_amd_memory_async_copy_on_engine(d, gpu, h, bad, 64, 0, NULL, done, e0,
						      false), HSA_STATUS_ERROR_INVALID_AGENT);
	ck_status(hsa_amd_memory_async_copy_on_engine(d, gpu, h, ag.cpu, 64, 0, NULL, zero, e0,
						      false), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	/* engine ids: one bit, and an engine the GPU has */
	ck_status(hsa_amd_memory_async_copy_on_engine(d, gpu, h, ag.cpu, 64, 0, NULL, done,
						      (hsa_amd_sdma_engine_id_t)0, false),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_memory_async_copy_on_engine(d, gpu, h, ag.cpu, 64, 0, NULL, done,
						      (hsa_amd_sdma_engine_id_t)3, false),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	uint32_t total = surf_u32_info(gpu, HSA_AMD_AGENT_INFO_NUM_SDMA_ENG) +
			 surf_u32_info(gpu, HSA_AMD_AGENT_INFO_NUM_SDMA_XGMI_ENG);
	if (total < 16)
		ck_status(hsa_amd_memory_async_copy_on_engine(
				  d, gpu, h, ag.cpu, 64, 0, NULL, done,
				  (hsa_amd_sdma_engine_id_t)(1u << total), false),
			  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	/* gfx90a: device to host may not use engine 0 (with SDMA on) */
	if (is_gfx90a(gpu) && sdma_on())
		ck_status(hsa_amd_memory_async_copy_on_engine(h, ag.cpu, d, gpu, 64, 0, NULL, done,
							      e0, false),
			  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	/* size 0: success, the signal untouched */
	ck_status(hsa_amd_memory_async_copy_on_engine(d, gpu, h, ag.cpu, 0, 0, NULL, done, e0,
						      false), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(hsa_signal_load_scacquire(done), 1);
	/* two CPUs: no engine */
	ck_status(hsa_amd_memory_async_copy_on_engine(h, ag.cpu, h + 2048, ag.cpu, 64, 0, NULL,
						      done, e0, false), HSA_STATUS_ERROR);
	hsa_signal_destroy(done);
	hsa_amd_memory_pool_free(h);
	hsa_amd_memory_pool_free(d);
}
END_TEST

/* A dependency holds the copy: the engine waits for it. */
START_TEST(engine_copy_waits_for_dependency)
{
	enum { N = 8192 };
	hsa_agent_t gpu = ag.gpu[0];
	uint8_t *h1 = surf_host_alloc(&ag, N), *h2 = surf_host_alloc(&ag, N);
	uint8_t *d = surf_vram_alloc(&ag, gpu, N);
	fill(h1, N, 77);
	copy_on(d, gpu, h1, ag.cpu, N, HSA_AMD_SDMA_ENGINE_0, false);
	memset(h2, 0, N);
	hsa_signal_t dep, done;
	ck_status(hsa_signal_create(1, 0, NULL, &dep), HSA_STATUS_SUCCESS);
	ck_status(hsa_signal_create(1, 0, NULL, &done), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_async_copy_on_engine(h2, ag.cpu, d, gpu, N, 1, &dep, done,
						      HSA_AMD_SDMA_ENGINE_1, false),
		  HSA_STATUS_SUCCESS);
	/* the engine cannot pass the dependency's poll: nothing completes */
	ck_assert_int_eq(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 1000000,
						   HSA_WAIT_STATE_BLOCKED), 1);
	hsa_signal_store_screlease(dep, 0);
	surf_wait_zero(done);
	check(h2, N, 77);
	hsa_signal_destroy(dep);
	hsa_signal_destroy(done);
	hsa_amd_memory_pool_free(h1);
	hsa_amd_memory_pool_free(h2);
	hsa_amd_memory_pool_free(d);
}
END_TEST

static Suite *engine_suite(void)
{
	Suite *s = suite_create("surface-copy-engine");
	TCase *pre = tcase_create("uninit");
	tcase_add_test(pre, engine_calls_before_init);
	suite_add_tcase(s, pre);
	TCase *tc = tcase_create("engines");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, engine_status_arguments);
	tcase_add_test(tc, engine_status_null_mask);
	tcase_add_test(tc, engine_status_idle_masks);
	tcase_add_test(tc, engine_preferred_between_gpus);
	tcase_add_test(tc, engine_copy_host_device_host);
	tcase_add_test(tc, engine_copy_same_gpu);
	tcase_add_test(tc, engine_copy_peer);
	tcase_add_test(tc, engine_copy_arguments);
	tcase_add_test(tc, engine_copy_waits_for_dependency);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(engine_suite)
