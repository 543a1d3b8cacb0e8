/*
 * The functions ROCr 5.2.3 does not implement either
 * (src/runtime/unsupported.c: the finalizer, migration) return ROCr's
 * status after hsa_init and say why in the log; the functions once
 * unsupported here (IPC, images, async copies, graphics interop) still
 * answer NOT_INITIALIZED before hsa_init.  Label emu.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hl_check.h"
#include "hl_hsa.h"
#include "hsa/hsa.h"
#include "hsa/hsa_ext_amd.h"
#include "hsa/hsa_ext_image.h"
#include "hsa/hsa_ext_finalize.h"

static hsa_agent_t gpu;

static hsa_status_t find_gpu(hsa_agent_t agent, void *data)
{
	(void)data;
	hsa_device_type_t type;
	hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type);
	if (type == HSA_DEVICE_TYPE_GPU && !gpu.handle)
		gpu = agent;
	return HSA_STATUS_SUCCESS;
}

static hsa_status_t first_pool(hsa_amd_memory_pool_t p, void *data)
{
	*(hsa_amd_memory_pool_t *)data = p;
	return HSA_STATUS_INFO_BREAK;
}

/* Once unsupported, implemented now (src/memory/interop.c,
 * test/runtime/test_interop.c): before hsa_init they still answer
 * NOT_INITIALIZED. */
static void call_interop(hsa_status_t expected)
{
	static char buf[4096] __attribute__((aligned(4096)));
	hsa_agent_t agents[1] = { gpu };
	size_t size;
	void *ptr;
	ck_status(hsa_amd_interop_map_buffer(1, agents, 3, 0, &size, &ptr, NULL, NULL), expected);
	ck_status(hsa_amd_interop_unmap_buffer(buf), expected);
}

/* Once unsupported, implemented now (src/memory/ipc.c, src/signal/ipc.c,
 * test/runtime/test_ipc.c): before hsa_init they still answer
 * NOT_INITIALIZED. */
static void call_ipc(hsa_status_t expected, hsa_signal_t sig)
{
	static char buf[4096] __attribute__((aligned(4096)));
	hsa_agent_t agents[1] = { gpu };
	void *ptr;
	hsa_amd_ipc_memory_t ipc;
	memset(&ipc, 0, sizeof(ipc));
	ck_status(hsa_amd_ipc_memory_create(buf, sizeof(buf), &ipc), expected);
	ck_status(hsa_amd_ipc_memory_attach(&ipc, sizeof(buf), 1, agents, &ptr), expected);
	ck_status(hsa_amd_ipc_memory_detach(buf), expected);
	hsa_amd_ipc_signal_t ipcs;
	ck_status(hsa_amd_ipc_signal_create(sig, &ipcs), expected);
	hsa_signal_t out;
	ck_status(hsa_amd_ipc_signal_attach(&ipcs, &out), expected);
}

/* Once unsupported, implemented now (src/image, test/image): before
 * hsa_init they still answer NOT_INITIALIZED. */
static void call_images(hsa_status_t expected)
{
	static char buf[256];
	hsa_ext_image_format_t fmt = { HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT8,
				       HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA };
	hsa_ext_image_descriptor_t desc = { HSA_EXT_IMAGE_GEOMETRY_2D, 16, 16, 0, 0, fmt };
	uint32_t caps;
	uint32_t dims[3];
	hsa_ext_image_data_info_t info;
	hsa_ext_image_t img = { 1 };
	hsa_ext_sampler_t smp = { 1 };
	hsa_dim3_t off = { 0, 0, 0 }, range = { 1, 1, 1 };
	hsa_ext_image_region_t region = { off, range };
	hsa_ext_sampler_descriptor_t sd = { HSA_EXT_SAMPLER_COORDINATE_MODE_UNNORMALIZED,
					    HSA_EXT_SAMPLER_FILTER_MODE_NEAREST,
					    HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE };
	hsa_amd_image_descriptor_t layout;
	memset(&layout, 0, sizeof(layout));
	ck_status(hsa_amd_image_get_info_max_dim(gpu, (hsa_agent_info_t)HSA_EXT_AGENT_INFO_IMAGE_2D_MAX_ELEMENTS,
						 dims), expected);
	ck_status(hsa_ext_image_get_capability(gpu, HSA_EXT_IMAGE_GEOMETRY_2D, &fmt, &caps),
		  expected);
	ck_status(hsa_ext_image_get_capability_with_layout(gpu, HSA_EXT_IMAGE_GEOMETRY_2D, &fmt,
							   HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR,
							   &caps), expected);
	ck_status(hsa_ext_image_data_get_info(gpu, &desc, HSA_ACCESS_PERMISSION_RW, &info),
		  expected);
	ck_status(hsa_ext_image_data_get_info_with_layout(gpu, &desc, HSA_ACCESS_PERMISSION_RW,
							  HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, 0, 0,
							  &info), expected);
	ck_status(hsa_ext_image_create(gpu, &desc, buf, HSA_ACCESS_PERMISSION_RW, &img), expected);
	ck_status(hsa_ext_image_create_with_layout(gpu, &desc, buf, HSA_ACCESS_PERMISSION_RW,
						   HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, 0, 0, &img),
		  expected);
	ck_status(hsa_amd_image_create(gpu, &desc, &layout, buf, HSA_ACCESS_PERMISSION_RW, &img),
		  expected);
	ck_status(hsa_ext_image_copy(gpu, img, &off, img, &off, &range), expected);
	ck_status(hsa_ext_image_import(gpu, buf, 0, 0, img, &region), expected);
	ck_status(hsa_ext_image_export(gpu, img, buf, 0, 0, &region), expected);
	ck_status(hsa_ext_image_clear(gpu, img, buf, &region), expected);
	ck_status(hsa_ext_image_destroy(gpu, img), expected);
	ck_status(hsa_ext_sampler_create(gpu, &sd, &smp), expected);
	ck_status(hsa_ext_sampler_destroy(gpu, smp), expected);
}

/* Once placeholders, implemented now (src/copy): before hsa_init they
 * still answer NOT_INITIALIZED. */
static void call_copies(hsa_status_t expected, hsa_signal_t sig)
{
	static char a[64], b[64];
	ck_status(hsa_amd_memory_async_copy(a, gpu, b, gpu, sizeof(a), 0, NULL, sig), expected);
	hsa_pitched_ptr_t pa = { a, 8, 64 }, pb = { b, 8, 64 };
	hsa_dim3_t off = { 0, 0, 0 }, range = { 8, 1, 1 };
	ck_status(hsa_amd_memory_async_copy_rect(&pa, &off, &pb, &off, &range, gpu,
						 hsaHostToDevice, 0, NULL, sig), expected);
	ck_status(hsa_amd_memory_fill(a, 0, 4), expected);
	ck_status(hsa_amd_profiling_async_copy_enable(true), expected);
	hsa_amd_profiling_async_copy_time_t t;
	ck_status(hsa_amd_profiling_get_async_copy_time(sig, &t), expected);
}

START_TEST(before_init_not_initialized)
{
	hsa_signal_t sig = { 0x1000 };
	gpu.handle = 0x2000;
	call_interop(HSA_STATUS_ERROR_NOT_INITIALIZED);
	call_copies(HSA_STATUS_ERROR_NOT_INITIALIZED, sig);
	call_images(HSA_STATUS_ERROR_NOT_INITIALIZED);
	call_ipc(HSA_STATUS_ERROR_NOT_INITIALIZED, sig);
}
END_TEST

START_TEST(after_init_rocr_status_and_logged)
{
	const char *log = getenv("HSALITE_LOG_FILE");
	ck_assert_ptr_nonnull(log);
	gpu.handle = 0;
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	ck_status(hsa_iterate_agents(find_gpu, NULL), HSA_STATUS_SUCCESS);
	ck_assert(gpu.handle);
	hsa_amd_memory_pool_t pool = { 0 };
	hsa_amd_agent_iterate_memory_pools(gpu, first_pool, &pool);
	ck_assert(pool.handle);
	static char x[64];
	hsa_ext_program_t prog;
	ck_status(hsa_ext_program_create(HSA_MACHINE_MODEL_LARGE, HSA_PROFILE_FULL,
					 HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL, &prog),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_memory_migrate(x, pool, 0), HSA_STATUS_ERROR_OUT_OF_RESOURCES);
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);

	/* Each says why in the log. */
	FILE *f = fopen(log, "r");
	ck_assert_ptr_nonnull(f);
	static char text[1 << 16];
	size_t n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = 0;
	static const char *const lines[] = {
		"hsa_ext_program_create: no HSAIL finalizer",
		"hsa_amd_memory_migrate: migration is not implemented",
	};
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		ck_assert_msg(strstr(text, lines[i]), "log lacks \"%s\"", lines[i]);
}
END_TEST

static Suite *unsupported_suite(void)
{
	Suite *s = suite_create("api_unsupported");
	TCase *tc = tcase_create("unsupported");
	tcase_add_test(tc, before_init_not_initialized);
	tcase_add_test(tc, after_init_rocr_status_and_logged);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(unsupported_suite)
