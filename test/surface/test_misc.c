/*
 * ROCr 1.18's smaller additions: hsa_amd_queue_get_info,
 * hsa_amd_enable_logging, the scratch limit and its attributes, the clock
 * counters, hsa_ext_sampler_create_v2 (and its images-table entry), and
 * what SPM and PC sampling answer on a kernel without them.  Label
 * surface; runs on mi210 and mi300x.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "surface.h"
#include "hsa/hsa_ext_image.h"
#include "hsa/hsa_ven_amd_pc_sampling.h"

SURF_FIXTURE(ag)
static uint64_t bogus[8];
#define BAD_AGENT ((hsa_agent_t){ (uint64_t)(uintptr_t)&bogus[3] })

static void pcs_ready(void *client, size_t size, size_t lost,
		      hsa_ven_amd_pcs_data_copy_callback_t copy, void *hsa_data)
{
	(void)client;
	(void)size;
	(void)lost;
	(void)copy;
	(void)hsa_data;
}

static hsa_status_t pcs_config(const hsa_ven_amd_pcs_configuration_t *c, void *data)
{
	(void)c;
	++*(int *)data;
	return HSA_STATUS_SUCCESS;
}

START_TEST(misc_before_init)
{
	hsa_agent_t none = { 0 };
	uint32_t t = 0, n = 0;
	bool loss;
	hsa_ven_amd_pcs_t pcs;
	ck_status(hsa_amd_queue_get_info(NULL, HSA_AMD_QUEUE_INFO_AGENT, &none),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_agent_set_async_scratch_limit(none, 0),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_spm_acquire(none), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_spm_release(none), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_spm_set_dest_buffer(none, 0, &t, &n, NULL, &loss),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
	/* ROCr 1.18 forwards the image and PC-sampling calls through
	 * Runtime::runtime_singleton_->extensions_, NULL before hsa_init
	 * (core/runtime/hsa_ext_interface.cpp lines 428, 479, 486): SIGSEGV,
	 * so hsalite only. */
	if (surf_is_hsalite()) {
		hsa_ext_sampler_descriptor_v2_t d = { 0 };
		hsa_ext_sampler_t s;
		ck_status(hsa_ext_sampler_create_v2(none, &d, &s),
			  HSA_STATUS_ERROR_NOT_INITIALIZED);
		ck_status(hsa_ven_amd_pcs_iterate_configuration(none, pcs_config, NULL),
			  HSA_STATUS_ERROR_NOT_INITIALIZED);
		ck_status(hsa_ven_amd_pcs_create(none, HSA_VEN_AMD_PCS_METHOD_HOSTTRAP_V1,
						 HSA_VEN_AMD_PCS_INTERVAL_UNITS_MICRO_SECONDS, 100,
						 0, 4096, pcs_ready, NULL, &pcs),
			  HSA_STATUS_ERROR_NOT_INITIALIZED);
	}
	/* logging needs no runtime (ROCr sets it whenever called) */
	uint8_t off[8] = { 0 };
	ck_status(hsa_amd_enable_logging(off, NULL), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(misc_queue_get_info)
{
	hsa_agent_t gpu = ag.gpu[0];
	hsa_queue_t *q = NULL;
	ck_status(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
				   UINT32_MAX, &q), HSA_STATUS_SUCCESS);
	hsa_agent_t a = { 0 };
	ck_status(hsa_amd_queue_get_info(q, HSA_AMD_QUEUE_INFO_AGENT, &a), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(a.handle, gpu.handle);
	uint64_t db = 0;
	ck_status(hsa_amd_queue_get_info(q, HSA_AMD_QUEUE_INFO_DOORBELL_ID, &db),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_ne(db, 0);
	ck_assert_uint_eq(db % 8, 0);
	/* a second queue rings another doorbell */
	hsa_queue_t *q2 = NULL;
	ck_status(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
				   UINT32_MAX, &q2), HSA_STATUS_SUCCESS);
	uint64_t db2 = 0;
	ck_status(hsa_amd_queue_get_info(q2, HSA_AMD_QUEUE_INFO_DOORBELL_ID, &db2),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_ne(db, db2);
	/* 17: past the newest header's last attribute (WRITE_POINTER, 16); 2
	 * and up are the counted-queue, metadata, VM fault, engine and pointer
	 * attributes of interface 1.16 and later, which ROCr 1.18 does not
	 * have (test_newest.c, test_qdesc.c) */
	ck_status(hsa_amd_queue_get_info(q, (hsa_queue_info_attribute_t)17, &db),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	/* ROCr 1.18 stores through a NULL value (AqlQueue::GetInfo,
	 * core/runtime/amd_aql_queue.cpp line 488): hsalite only */
	if (surf_is_hsalite())
		ck_status(hsa_amd_queue_get_info(q, HSA_AMD_QUEUE_INFO_AGENT, NULL),
			  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_queue_get_info(NULL, HSA_AMD_QUEUE_INFO_AGENT, &a),
		  HSA_STATUS_ERROR_INVALID_QUEUE);
	ck_status(hsa_amd_queue_get_info((hsa_queue_t *)&bogus[0], HSA_AMD_QUEUE_INFO_AGENT, &a),
		  HSA_STATUS_ERROR_INVALID_QUEUE);
	ck_status(hsa_queue_destroy(q2), HSA_STATUS_SUCCESS);
	ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
	/* a destroyed queue: ROCr 1.18's Queue::Convert (hsa_ext_amd.cpp line
	 * 1528, core/inc/queue.h line 202) reads the queue's freed shared
	 * page (SIGSEGV), so hsalite only */
	if (surf_is_hsalite())
		ck_status(hsa_amd_queue_get_info(q, HSA_AMD_QUEUE_INFO_AGENT, &a),
			  HSA_STATUS_ERROR_INVALID_QUEUE);
}
END_TEST

static size_t count_lines(FILE *f, const char *what)
{
	char line[1024];
	size_t n = 0;
	rewind(f);
	while (fgets(line, sizeof(line), f))
		if (strstr(line, what))
			n++;
	return n;
}

/* Blit-kernel packets are logged while the flag is on, and only then. */
START_TEST(misc_enable_logging)
{
	/* ROCr 1.18 copies from NULL flags (Runtime::EnableLogging,
	 * core/runtime/runtime.cpp line 3769): SIGSEGV, so hsalite only */
	if (surf_is_hsalite())
		ck_status(hsa_amd_enable_logging(NULL, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	FILE *f = tmpfile();
	ck_assert_ptr_nonnull(f);
	hsa_agent_t gpu = ag.gpu[0];
	uint8_t *a = surf_vram_alloc(&ag, gpu, 4096), *b = surf_vram_alloc(&ag, gpu, 4096);
	hsa_signal_t s, dep;
	ck_status(hsa_signal_create(1, 0, NULL, &s), HSA_STATUS_SUCCESS);
	ck_status(hsa_signal_create(0, 0, NULL, &dep), HSA_STATUS_SUCCESS);

	uint8_t on[8] = { 0 };
	on[HSA_AMD_LOG_FLAG_BLIT_KERNEL_PKTS / 8] |= 1u << (HSA_AMD_LOG_FLAG_BLIT_KERNEL_PKTS % 8);
	ck_status(hsa_amd_enable_logging(on, f), HSA_STATUS_SUCCESS);
	/* a copy inside one GPU of 1 MiB or more runs on the blit kernel */
	uint8_t *big_a = surf_vram_alloc(&ag, gpu, 1 << 20), *big_b = surf_vram_alloc(&ag, gpu, 1 << 20);
	ck_status(hsa_amd_memory_async_copy(big_b, gpu, big_a, gpu, 1 << 20, 1, &dep, s),
		  HSA_STATUS_SUCCESS);
	surf_wait_zero(s);
	fflush(f);
	ck_assert_uint_eq(count_lines(f, "Dispatch Header"), 1);
	ck_assert_uint_eq(count_lines(f, "Barrier Header"), 1);

	uint8_t off[8] = { 0 };
	ck_status(hsa_amd_enable_logging(off, f), HSA_STATUS_SUCCESS);
	hsa_signal_store_screlease(s, 1);
	ck_status(hsa_amd_memory_async_copy(big_b, gpu, big_a, gpu, 1 << 20, 0, NULL, s),
		  HSA_STATUS_SUCCESS);
	surf_wait_zero(s);
	fflush(f);
	ck_assert_uint_eq(count_lines(f, "Dispatch Header"), 1);
	ck_status(hsa_amd_enable_logging(off, NULL), HSA_STATUS_SUCCESS);
	fclose(f);
	hsa_signal_destroy(s);
	hsa_signal_destroy(dep);
	hsa_amd_memory_pool_free(a);
	hsa_amd_memory_pool_free(b);
	hsa_amd_memory_pool_free(big_a);
	hsa_amd_memory_pool_free(big_b);
}
END_TEST

/* ROCr: asynchronous reclaim needs gfx94x with CP firmware 177+ (gfx95x
 * 24+); the maximum is 4 GiB of scratch aperture per XCC. */
START_TEST(misc_scratch_limit)
{
	hsa_agent_t gpu = ag.gpu[0];
	char name[64] = { 0 };
	ck_status(hsa_agent_get_info(gpu, HSA_AGENT_INFO_NAME, name), HSA_STATUS_SUCCESS);
	uint32_t xcc = surf_u32_info(gpu, HSA_AMD_AGENT_INFO_NUM_XCC);
	uint32_t fw = surf_u32_info(gpu, HSA_AMD_AGENT_INFO_UCODE_VERSION);
	bool reclaim = (strncmp(name, "gfx94", 5) == 0 && fw >= 177) ||
		       (strncmp(name, "gfx95", 5) == 0 && fw >= 24);
	uint64_t max = 0, cur = 1;
	ck_status(hsa_agent_get_info(gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_SCRATCH_LIMIT_MAX,
				     &max), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(max, (uint64_t)xcc << 32);
	ck_status(hsa_agent_get_info(gpu,
				     (hsa_agent_info_t)HSA_AMD_AGENT_INFO_SCRATCH_LIMIT_CURRENT,
				     &cur), HSA_STATUS_SUCCESS);
	if (!reclaim) {
		ck_assert_uint_eq(cur, 0);
		ck_status(hsa_amd_agent_set_async_scratch_limit(gpu, 1 << 20),
			  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	} else {
		ck_assert_uint_eq(cur, (3ull << 30) * xcc);
		ck_status(hsa_amd_agent_set_async_scratch_limit(gpu, 1 << 20),
			  HSA_STATUS_SUCCESS);
		ck_status(hsa_agent_get_info(
				  gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_SCRATCH_LIMIT_CURRENT,
				  &cur), HSA_STATUS_SUCCESS);
		ck_assert_uint_eq(cur, 1 << 20);
		ck_status(hsa_amd_agent_set_async_scratch_limit(gpu, max + 1),
			  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	}
	ck_status(hsa_amd_agent_set_async_scratch_limit(ag.cpu, 0),
		  HSA_STATUS_ERROR_INVALID_AGENT);
	ck_status(hsa_amd_agent_set_async_scratch_limit(BAD_AGENT, 0),
		  HSA_STATUS_ERROR_INVALID_AGENT);
	/* a CPU agent's limits are 0 (ROCr 1.18's CpuAgent; surface_attrs) */
	max = 1;
	ck_status(hsa_agent_get_info(ag.cpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_SCRATCH_LIMIT_MAX,
				     &max), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(max, 0);
}
END_TEST

static uint64_t scratch_limit_current(hsa_agent_t gpu)
{
	uint64_t cur = 1;
	ck_status(hsa_agent_get_info(gpu,
				     (hsa_agent_info_t)HSA_AMD_AGENT_INFO_SCRATCH_LIMIT_CURRENT,
				     &cur), HSA_STATUS_SUCCESS);
	return cur;
}

/* A limit set in one runtime is none of the next one's: after the last
 * hsa_shut_down and hsa_init again, the default reads again (ROCr builds
 * its agents afresh).  hsalite kept the limits in a table keyed by the
 * runtime's address, which a runtime allocated where the last one was
 * would have inherited (not seen here: no run handed the address back). */
START_TEST(misc_scratch_limit_per_runtime)
{
	uint64_t first = scratch_limit_current(ag.gpu[0]);
	bool settable = hsa_amd_agent_set_async_scratch_limit(ag.gpu[0], 1 << 20) ==
			HSA_STATUS_SUCCESS;
	if (settable)
		ck_assert_uint_eq(scratch_limit_current(ag.gpu[0]), 1 << 20);
	for (int cycle = 0; cycle < 3; cycle++) {
		teardown();
		setup();
		ck_assert_uint_eq(scratch_limit_current(ag.gpu[0]), first);
		if (settable)
			ck_status(hsa_amd_agent_set_async_scratch_limit(ag.gpu[0], 2 << 20),
				  HSA_STATUS_SUCCESS);
	}
}
END_TEST

START_TEST(misc_clock_counters)
{
	hsa_agent_t gpu = ag.gpu[0];
	hsa_amd_clock_counters_t a, b;
	memset(&a, 0, sizeof(a));
	ck_status(hsa_agent_get_info(gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_CLOCK_COUNTERS, &a),
		  HSA_STATUS_SUCCESS);
	usleep(1000);
	ck_status(hsa_agent_get_info(gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_CLOCK_COUNTERS, &b),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_ne(a.system_clock_frequency, 0);
	ck_assert_uint_gt(b.gpu_clock_counter, a.gpu_clock_counter);
	ck_assert_uint_gt(b.cpu_clock_counter, a.cpu_clock_counter);
	ck_assert_uint_gt(b.system_clock_counter, a.system_clock_counter);
	/* a CPU agent's counters are all 0 (ROCr 1.18's CpuAgent asks the
	 * driver nothing) */
	ck_status(hsa_agent_get_info(ag.cpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_CLOCK_COUNTERS,
				     &a), HSA_STATUS_SUCCESS);
	ck_assert(!a.gpu_clock_counter && !a.cpu_clock_counter && !a.system_clock_counter &&
		  !a.system_clock_frequency);
}
END_TEST

START_TEST(misc_sampler_v2)
{
	hsa_agent_t gpu = ag.gpu[0];
	hsa_ext_sampler_descriptor_v2_t d = {
		.coordinate_mode = HSA_EXT_SAMPLER_COORDINATE_MODE_NORMALIZED,
		.filter_mode = HSA_EXT_SAMPLER_FILTER_MODE_LINEAR,
		.address_modes = { HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE,
				   HSA_EXT_SAMPLER_ADDRESSING_MODE_REPEAT,
				   HSA_EXT_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT },
	};
	hsa_ext_sampler_t s = { 0 };
	/* A ROCr built without IMAGE_SUPPORT (the 1.18 peer here) still says
	 * the GPU supports images but leaves hsa_ext_sampler_create_v2_fn NULL
	 * (ExtensionEntryPoints::InitImageExtTable, core/runtime/
	 * hsa_ext_interface.cpp lines 81-102, sets every other entry to
	 * hsa_ext_null): a call jumps to 0.  Its images table is refused
	 * (hsa.cpp line 411), which tells that build apart; hsalite always has
	 * images and the table. */
	if (!surf_is_hsalite()) {
		hsa_ext_images_1_pfn_t probe;
		if (hsa_system_get_major_extension_table(HSA_EXTENSION_IMAGES, 1, sizeof(probe),
							 &probe) != HSA_STATUS_SUCCESS)
			return;
	}
	/* a GPU without images (gfx942) refuses samplers as v1 does */
	bool images = false;
	ck_status(hsa_agent_extension_supported(HSA_EXTENSION_IMAGES, gpu, 1, 0, &images),
		  HSA_STATUS_SUCCESS);
	if (!images) {
		ck_status(hsa_ext_sampler_create_v2(gpu, &d, &s), HSA_STATUS_ERROR_INVALID_AGENT);
		return;
	}
	ck_status(hsa_ext_sampler_create_v2(gpu, &d, &s), HSA_STATUS_SUCCESS);
	ck_assert_uint_ne(s.handle, 0);
	ck_status(hsa_ext_sampler_destroy(gpu, s), HSA_STATUS_SUCCESS);
	hsa_agent_t zero = { 0 };
	ck_status(hsa_ext_sampler_create_v2(zero, &d, &s), HSA_STATUS_ERROR_INVALID_AGENT);
	ck_status(hsa_ext_sampler_create_v2(gpu, NULL, &s), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_ext_sampler_create_v2(gpu, &d, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_ext_sampler_create_v2(ag.cpu, &d, &s), HSA_STATUS_ERROR_INVALID_AGENT);
	d.address_modes[2] = (hsa_ext_sampler_addressing_mode32_t)9;
	ck_status(hsa_ext_sampler_create_v2(gpu, &d, &s),
		  HSA_EXT_STATUS_ERROR_SAMPLER_DESCRIPTOR_UNSUPPORTED);

	/* the images table (1.x) carries it after the three *_with_layout */
	hsa_ext_images_1_pfn_t t;
	memset(&t, 0, sizeof(t));
	ck_status(hsa_system_get_major_extension_table(HSA_EXTENSION_IMAGES, 1, sizeof(t), &t),
		  HSA_STATUS_SUCCESS);
	ck_assert_ptr_eq((void *)t.hsa_ext_sampler_create_v2, (void *)hsa_ext_sampler_create_v2);
	/* a 5.2.3 client asks for the 13 entries it knows and gets them */
	hsa_ext_images_1_pfn_t old;
	memset(&old, 0, sizeof(old));
	ck_status(hsa_system_get_major_extension_table(HSA_EXTENSION_IMAGES, 1,
						       offsetof(hsa_ext_images_1_pfn_t,
								hsa_ext_sampler_create_v2),
						       &old), HSA_STATUS_SUCCESS);
	ck_assert_ptr_nonnull((void *)old.hsa_ext_image_create_with_layout);
	ck_assert_ptr_null((void *)old.hsa_ext_sampler_create_v2);
}
END_TEST

START_TEST(misc_spm_without_kernel_support)
{
	hsa_agent_t gpu = ag.gpu[0];
	uint32_t timeout = 10, copied = 0;
	bool loss = false;
	static uint8_t dest[4096];
	ck_status(hsa_amd_spm_acquire(gpu), HSA_STATUS_ERROR);
	ck_status(hsa_amd_spm_set_dest_buffer(gpu, sizeof(dest), &timeout, &copied, dest, &loss),
		  HSA_STATUS_ERROR);
	ck_status(hsa_amd_spm_release(gpu), HSA_STATUS_ERROR);
	ck_status(hsa_amd_spm_acquire(ag.cpu), HSA_STATUS_ERROR_INVALID_AGENT);
	ck_status(hsa_amd_spm_release(BAD_AGENT), HSA_STATUS_ERROR_INVALID_AGENT);
	ck_status(hsa_amd_spm_set_dest_buffer(ag.cpu, sizeof(dest), &timeout, &copied, dest, &loss),
		  HSA_STATUS_ERROR_INVALID_AGENT);
	/* ROCr 1.18 hands a NULL timeout to the thunk, which reads it
	 * (hsa_amd_spm_set_dest_buffer, core/runtime/hsa_ext_amd.cpp line
	 * 1293; hsaKmtSPMSetDestBuffer, libhsakmt/src/spm.c line 69):
	 * SIGSEGV, so hsalite only */
	if (surf_is_hsalite())
		ck_status(hsa_amd_spm_set_dest_buffer(gpu, sizeof(dest), NULL, &copied, dest,
						      &loss), HSA_STATUS_ERROR_INVALID_ARGUMENT);
}
END_TEST

START_TEST(misc_pc_sampling_without_kernel_support)
{
	hsa_agent_t gpu = ag.gpu[0];
	int n = 0;
	ck_status(hsa_ven_amd_pcs_iterate_configuration(gpu, pcs_config, &n), HSA_STATUS_ERROR);
	ck_assert_int_eq(n, 0);
	ck_status(hsa_ven_amd_pcs_iterate_configuration(ag.cpu, pcs_config, &n),
		  HSA_STATUS_ERROR_INVALID_AGENT);
	/* ROCr 1.18 never checks the callback (GpuAgent::PcSamplingIterateConfig,
	 * core/runtime/amd_gpu_agent.cpp line 2548, calls it once the driver
	 * lists a method; without one it answers ERROR first): hsalite only */
	if (surf_is_hsalite())
		ck_status(hsa_ven_amd_pcs_iterate_configuration(gpu, NULL, &n),
			  HSA_STATUS_ERROR_INVALID_ARGUMENT);

	const hsa_ven_amd_pcs_method_kind_t ht = HSA_VEN_AMD_PCS_METHOD_HOSTTRAP_V1;
	const hsa_ven_amd_pcs_units_t us = HSA_VEN_AMD_PCS_INTERVAL_UNITS_MICRO_SECONDS;
	hsa_ven_amd_pcs_t h = { 0 };
	ck_status(hsa_ven_amd_pcs_create(gpu, ht, us, 100, 0, 4096, pcs_ready, NULL, &h),
		  HSA_STATUS_ERROR);
	ck_status(hsa_ven_amd_pcs_create(gpu, HSA_VEN_AMD_PCS_METHOD_STOCHASTIC_V1,
					 HSA_VEN_AMD_PCS_INTERVAL_UNITS_CLOCK_CYCLES, 1 << 16, 0,
					 1 << 20, pcs_ready, NULL, &h), HSA_STATUS_ERROR);
	/* ROCr 1.18 answers OUT_OF_RESOURCES here: its failed host-trap
	 * create above left the agent's pcs_hosttrap_data_.session pointing at
	 * the erased session (GpuAgent::PcSamplingCreate returns the driver's
	 * error after PcSamplingCreateFromId set it, core/runtime/
	 * amd_gpu_agent.cpp lines 2581-2591 and 2778), so "one session at a
	 * time" (line 2618) refuses; hsalite keeps no session and asks the
	 * driver.  hsalite only. */
	if (surf_is_hsalite())
		ck_status(hsa_ven_amd_pcs_create_from_id(7, gpu, ht, us, 100, 0, 4096, pcs_ready,
							 NULL, &h), HSA_STATUS_ERROR);
	/* PcSamplingSession's checks */
	ck_status(hsa_ven_amd_pcs_create(gpu, (hsa_ven_amd_pcs_method_kind_t)5, us, 100, 0, 4096,
					 pcs_ready, NULL, &h), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_ven_amd_pcs_create(gpu, ht, us, 0, 0, 4096, pcs_ready, NULL, &h),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_ven_amd_pcs_create(gpu, ht, us, 100, 0, 0, pcs_ready, NULL, &h),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_ven_amd_pcs_create(gpu, ht, us, 100, 0, 4096 + 64, pcs_ready, NULL, &h),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_ven_amd_pcs_create(gpu, ht, us, 100, 0, 4096, NULL, NULL, &h),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_ven_amd_pcs_create(gpu, ht, us, 100, 0, 4096, pcs_ready, NULL, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_ven_amd_pcs_create(ag.cpu, ht, us, 100, 0, 4096, pcs_ready, NULL, &h),
		  HSA_STATUS_ERROR_INVALID_AGENT);
	ck_status(hsa_ven_amd_pcs_create_from_id(7, BAD_AGENT, ht, us, 100, 0, 4096, pcs_ready,
						 NULL, &h), HSA_STATUS_ERROR_INVALID_AGENT);
	/* no session exists */
	hsa_ven_amd_pcs_t none = { 1 };
	ck_status(hsa_ven_amd_pcs_start(none), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_ven_amd_pcs_stop(none), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_ven_amd_pcs_flush(none), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_ven_amd_pcs_destroy(none), HSA_STATUS_ERROR_INVALID_ARGUMENT);
}
END_TEST

static Suite *misc_suite(void)
{
	Suite *s = suite_create("surface-misc");
	TCase *pre = tcase_create("uninit");
	tcase_add_test(pre, misc_before_init);
	suite_add_tcase(s, pre);
	TCase *tc = tcase_create("misc");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, misc_queue_get_info);
	tcase_add_test(tc, misc_enable_logging);
	tcase_add_test(tc, misc_scratch_limit);
	tcase_add_test(tc, misc_scratch_limit_per_runtime);
	tcase_add_test(tc, misc_clock_counters);
	tcase_add_test(tc, misc_sampler_v2);
	tcase_add_test(tc, misc_spm_without_kernel_support);
	tcase_add_test(tc, misc_pc_sampling_without_kernel_support);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(misc_suite)
