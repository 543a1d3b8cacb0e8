/*
 * Statuses for mistakes, as ROCr 5.2.3 returns them.  The same source is
 * built twice: against hsalite (api_statuses, label emu) and against
 * Debian's ROCr by path (api_statuses_rocr, label peer), both run on
 * kfdemu, with the same expectations, so a difference fails one of them.
 * Only calls whose ROCr result is defined are made (ROCr dereferences
 * stale and forged handles of most kinds; those are not compared).
 */
#include <stdlib.h>
#include <string.h>

#include "hl_check.h"
#include "hl_hsa.h"
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsa/hsa_ext_finalize.h>
#include <hsa/hsa_ext_image.h>

static hsa_agent_t gpu, cpu;
static hsa_amd_memory_pool_t sys_pool;

static hsa_status_t find_agents(hsa_agent_t agent, void *data)
{
	(void)data;
	hsa_device_type_t type;
	hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type);
	if (type == HSA_DEVICE_TYPE_GPU && !gpu.handle)
		gpu = agent;
	if (type == HSA_DEVICE_TYPE_CPU && !cpu.handle)
		cpu = agent;
	return HSA_STATUS_SUCCESS;
}

static hsa_status_t first_pool(hsa_amd_memory_pool_t pool, void *data)
{
	*(hsa_amd_memory_pool_t *)data = pool;
	return HSA_STATUS_INFO_BREAK;
}

static void setup(void)
{
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	gpu.handle = cpu.handle = sys_pool.handle = 0;
	ck_status(hsa_iterate_agents(find_agents, NULL), HSA_STATUS_SUCCESS);
	ck_assert(gpu.handle && cpu.handle);
	/* INFO_BREAK stops the walk (the status it returns is not compared). */
	hsa_amd_agent_iterate_memory_pools(cpu, first_pool, &sys_pool);
	ck_assert(sys_pool.handle);
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

START_TEST(signal_handles)
{
	hsa_signal_t zero = { 0 };
	/* A block that is no signal (ROCr reads its validity word: zero). */
	void *junk = calloc(1, 256);
	hsa_signal_t forged = { (uint64_t)(uintptr_t)junk + 0 };
	ck_status(hsa_signal_destroy(zero), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_signal_destroy(forged), HSA_STATUS_ERROR_INVALID_SIGNAL);
	volatile hsa_signal_value_t *vp;
	ck_status(hsa_amd_signal_value_pointer(zero, &vp), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_signal_async_handler(zero, HSA_SIGNAL_CONDITION_EQ, 0, never, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	hsa_signal_group_t g;
	ck_status(hsa_signal_group_create(1, &zero, 0, NULL, &g), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	hsa_signal_t s;
	ck_status(hsa_signal_create(1, 0, NULL, &s), HSA_STATUS_SUCCESS);
	ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
	free(junk);
}
END_TEST

START_TEST(finalizer_is_not_initialized)
{
	hsa_ext_program_t prog = { 0 };
	ck_status(hsa_ext_program_create(HSA_MACHINE_MODEL_LARGE, HSA_PROFILE_FULL,
					 HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL, &prog),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_ext_program_destroy(prog), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_ext_program_add_module(prog, NULL), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_ext_program_iterate_modules(prog, NULL, NULL),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_ext_program_get_info(prog, HSA_EXT_PROGRAM_INFO_PROFILE, NULL),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
	hsa_ext_control_directives_t cd;
	memset(&cd, 0, sizeof(cd));
	hsa_isa_t isa = { 0 };
	hsa_code_object_t co;
	ck_status(hsa_ext_program_finalize(prog, isa, 0, cd, NULL, HSA_CODE_OBJECT_TYPE_PROGRAM,
					   &co), HSA_STATUS_ERROR_NOT_INITIALIZED);
}
END_TEST

START_TEST(migration_is_out_of_resources)
{
	bool result = true;
	int x = 0;
	hsa_amd_memory_pool_t bad = { 0 };
	ck_status(hsa_amd_memory_pool_can_migrate(sys_pool, sys_pool, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_memory_pool_can_migrate(bad, sys_pool, &result),
		  HSA_STATUS_ERROR_INVALID_MEMORY_POOL);
	ck_status(hsa_amd_memory_pool_can_migrate(sys_pool, sys_pool, &result),
		  HSA_STATUS_ERROR_OUT_OF_RESOURCES);
	ck_assert(!result);
	ck_status(hsa_amd_memory_migrate(NULL, sys_pool, 0), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_memory_migrate(&x, sys_pool, 1), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_memory_migrate(&x, bad, 0), HSA_STATUS_ERROR_INVALID_MEMORY_POOL);
	ck_status(hsa_amd_memory_migrate(&x, sys_pool, 0), HSA_STATUS_ERROR_OUT_OF_RESOURCES);
}
END_TEST

/* Argument checks that come before the implementation in ROCr. */
START_TEST(argument_checks)
{
	size_t size;
	void *ptr;
	ck_status(hsa_amd_interop_map_buffer(0, &gpu, -1, 0, &size, &ptr, NULL, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_interop_map_buffer(1, &gpu, -1, 1, &size, &ptr, NULL, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_interop_map_buffer(1, &gpu, -1, 0, NULL, &ptr, NULL, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_interop_unmap_buffer(NULL), HSA_STATUS_SUCCESS);
	hsa_amd_ipc_memory_t ipc;
	ck_status(hsa_amd_ipc_memory_create(NULL, 4096, &ipc), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_ipc_memory_detach(NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	hsa_signal_t zero = { 0 };
	hsa_amd_ipc_signal_t ipcs;
	ck_status(hsa_amd_ipc_signal_create(zero, &ipcs), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_ipc_signal_attach(NULL, &zero), HSA_STATUS_ERROR_INVALID_ARGUMENT);

	hsa_agent_t no_agent = { 0 };
	hsa_ext_image_format_t fmt = { HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT8,
				       HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA };
	uint32_t caps;
	ck_status(hsa_ext_image_get_capability(no_agent, HSA_EXT_IMAGE_GEOMETRY_2D, &fmt, &caps),
		  HSA_STATUS_ERROR_INVALID_AGENT);
	ck_status(hsa_ext_image_get_capability(gpu, HSA_EXT_IMAGE_GEOMETRY_2D, NULL, &caps),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_ext_image_get_capability(gpu, (hsa_ext_image_geometry_t)99, &fmt, &caps),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	hsa_ext_sampler_t smp;
	ck_status(hsa_ext_sampler_create(gpu, NULL, &smp), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_ext_sampler_create(no_agent, NULL, &smp), HSA_STATUS_ERROR_INVALID_AGENT);
	hsa_ext_image_t img;
	ck_status(hsa_ext_image_create(gpu, NULL, &fmt, HSA_ACCESS_PERMISSION_RW, &img),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_ext_image_destroy(no_agent, img), HSA_STATUS_ERROR_INVALID_AGENT);

	ck_status(hsa_queue_destroy(NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	hsa_region_t region = { sys_pool.handle };
	hsa_signal_t db;
	hsa_queue_t *q;
	ck_status(hsa_signal_create(0, 0, NULL, &db), HSA_STATUS_SUCCESS);
	ck_status(hsa_soft_queue_create(region, 64, HSA_QUEUE_TYPE_MULTI,
					HSA_QUEUE_FEATURE_AGENT_DISPATCH, db, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_soft_queue_create(region, 63, HSA_QUEUE_TYPE_MULTI,
					HSA_QUEUE_FEATURE_AGENT_DISPATCH, db, &q),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_soft_queue_create(region, 64, HSA_QUEUE_TYPE_MULTI, 0, db, &q),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_soft_queue_create(region, 64, HSA_QUEUE_TYPE_MULTI,
					HSA_QUEUE_FEATURE_AGENT_DISPATCH, zero, &q),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_soft_queue_create(region, 64, (hsa_queue_type32_t)7,
					HSA_QUEUE_FEATURE_AGENT_DISPATCH, db, &q),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_signal_destroy(db), HSA_STATUS_SUCCESS);
}
END_TEST

/* Handle 0 of every kind, where ROCr answers without dereferencing. */
START_TEST(zero_handles)
{
	hsa_agent_t agent = { 0 };
	hsa_region_t region = { 0 };
	hsa_amd_memory_pool_t pool = { 0 };
	hsa_executable_t exe = { 0 };
	hsa_code_object_reader_t reader = { 0 };
	hsa_signal_group_t group = { 0 };
	hsa_isa_t isa = { 0 };
	hsa_cache_t cache = { 0 };
	hsa_executable_symbol_t sym = { 0 };
	char buf[256];
	ck_status(hsa_agent_get_info(agent, HSA_AGENT_INFO_NAME, buf), HSA_STATUS_ERROR_INVALID_AGENT);
	ck_status(hsa_region_get_info(region, HSA_REGION_INFO_SIZE, buf),
		  HSA_STATUS_ERROR_INVALID_REGION);
	ck_status(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SIZE, buf),
		  HSA_STATUS_ERROR_INVALID_MEMORY_POOL);
	ck_status(hsa_executable_destroy(exe), HSA_STATUS_ERROR_INVALID_EXECUTABLE);
	ck_status(hsa_executable_freeze(exe, NULL), HSA_STATUS_ERROR_INVALID_EXECUTABLE);
	ck_status(hsa_code_object_reader_destroy(reader),
		  HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER);
	ck_status(hsa_signal_group_destroy(group), HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP);
	ck_status(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME_LENGTH, buf),
		  HSA_STATUS_ERROR_INVALID_ISA);
	ck_status(hsa_cache_get_info(cache, HSA_CACHE_INFO_LEVEL, buf),
		  HSA_STATUS_ERROR_INVALID_CACHE);
	ck_status(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_TYPE, buf),
		  HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL);
	hsa_queue_t *q;
	ck_status(hsa_queue_create(agent, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q),
		  HSA_STATUS_ERROR_INVALID_AGENT);
	ck_status(hsa_amd_memory_pool_allocate(pool, 4096, 0, (void **)&q),
		  HSA_STATUS_ERROR_INVALID_MEMORY_POOL);
	ck_status(hsa_memory_allocate(region, 4096, (void **)&q), HSA_STATUS_ERROR_INVALID_REGION);
}
END_TEST

/* The image extension past its argument checks: format, size and pitch
 * verdicts, alignment, the AMD layout checks, copies between formats,
 * handle 0, the image agent attributes.  Nothing here may reach ROCr
 * 5.2.3's addrlib asserts (a linear pitch addrlib refuses). */
START_TEST(image_statuses)
{
	hsa_ext_image_format_t rgba8 = { HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8,
					 HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA };
	hsa_ext_image_descriptor_t d = { HSA_EXT_IMAGE_GEOMETRY_2D, 64, 4, 0, 0, rgba8 };
	hsa_ext_image_data_info_t info;
	uint32_t caps = 1;
	ck_status(hsa_ext_image_get_capability(cpu, HSA_EXT_IMAGE_GEOMETRY_2D, &rgba8, &caps),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(caps, 0);
	ck_status(hsa_ext_image_data_get_info(cpu, &d, HSA_ACCESS_PERMISSION_RW, &info),
		  HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED);
	ck_status(hsa_ext_image_data_get_info(gpu, &d, (hsa_access_permission_t)7, &info),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_ext_image_data_get_info_with_layout(gpu, &d, HSA_ACCESS_PERMISSION_RW,
							  HSA_EXT_IMAGE_DATA_LAYOUT_OPAQUE, 0, 0,
							  &info),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_ext_image_data_get_info_with_layout(gpu, &d, HSA_ACCESS_PERMISSION_RW,
							  HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, 256,
							  4096, &info),
		  HSA_EXT_STATUS_ERROR_IMAGE_PITCH_UNSUPPORTED);
	hsa_ext_image_descriptor_t big = d;
	big.width = 16385;
	ck_status(hsa_ext_image_data_get_info(gpu, &big, HSA_ACCESS_PERMISSION_RW, &info),
		  HSA_EXT_STATUS_ERROR_IMAGE_SIZE_UNSUPPORTED);
	hsa_ext_image_descriptor_t deep = d;
	deep.depth = 2; /* a 2D image has depth 1 at most */
	ck_status(hsa_ext_image_data_get_info(gpu, &deep, HSA_ACCESS_PERMISSION_RW, &info),
		  HSA_EXT_STATUS_ERROR_IMAGE_SIZE_UNSUPPORTED);

	char *mem;
	ck_status(hsa_amd_memory_pool_allocate(sys_pool, 1 << 16, 0, (void **)&mem),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_agents_allow_access(1, &gpu, NULL, mem), HSA_STATUS_SUCCESS);
	hsa_ext_image_t a, b;
	ck_status(hsa_ext_image_create_with_layout(gpu, &d, mem + 16, HSA_ACCESS_PERMISSION_RW,
						   HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, 0, 0, &a),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_ext_image_create_with_layout(gpu, &d, mem, HSA_ACCESS_PERMISSION_RW,
						   HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, 0, 0, &a),
		  HSA_STATUS_SUCCESS);
	hsa_ext_image_descriptor_t du = d;
	du.format.channel_type = HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT8;
	ck_status(hsa_ext_image_create_with_layout(gpu, &du, mem + 4096, HSA_ACCESS_PERMISSION_RW,
						   HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, 0, 0, &b),
		  HSA_STATUS_SUCCESS);
	hsa_dim3_t zero = { 0, 0, 0 }, one = { 1, 1, 1 };
	ck_status(hsa_ext_image_copy(gpu, a, &zero, b, &zero, &one),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);

	uint32_t chip = 0, sampler_handlers = 0, rd = 0, rorw = 0, dims[3];
	ck_status(hsa_agent_get_info(gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_CHIP_ID, &chip),
		  HSA_STATUS_SUCCESS);
	struct {
		uint32_t version, device, words[8];
	} layout = { 1, 0x1002u << 16 | chip, { 0 } };
	memcpy(layout.words, (const void *)(uintptr_t)a.handle, sizeof(layout.words));
	const hsa_amd_image_descriptor_t *l = (const hsa_amd_image_descriptor_t *)&layout;
	hsa_ext_image_t c;
	ck_status(hsa_amd_image_create(gpu, &d, l, mem + 16, HSA_ACCESS_PERMISSION_RW, &c),
		  HSA_STATUS_ERROR_INVALID_ALLOCATION);
	layout.version = 2;
	ck_status(hsa_amd_image_create(gpu, &d, l, mem, HSA_ACCESS_PERMISSION_RW, &c),
		  HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED);
	layout.version = 1;
	layout.device ^= 1;
	ck_status(hsa_amd_image_create(gpu, &d, l, mem, HSA_ACCESS_PERMISSION_RW, &c),
		  HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED);

	hsa_ext_image_t none = { 0 };
	hsa_ext_sampler_t no_sampler = { 0 };
	ck_status(hsa_ext_image_destroy(gpu, none), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_ext_sampler_destroy(gpu, no_sampler), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_ext_image_destroy(gpu, a), HSA_STATUS_SUCCESS);
	ck_status(hsa_ext_image_destroy(gpu, b), HSA_STATUS_SUCCESS);

	ck_status(hsa_agent_get_info(gpu, (hsa_agent_info_t)HSA_EXT_AGENT_INFO_MAX_IMAGE_RD_HANDLES,
				     &rd),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_agent_get_info(gpu,
				     (hsa_agent_info_t)HSA_EXT_AGENT_INFO_MAX_IMAGE_RORW_HANDLES,
				     &rorw),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(rd, 128);
	ck_assert_uint_eq(rorw, 64);
	/* ROCr 5.2.3 falls through to the chip id here (a missing break);
	 * runtimes that report an AMD interface version (ROCr 1.18, hsalite)
	 * answer 16. */
	uint16_t amd_minor = 0;
	/* HSA_AMD_SYSTEM_INFO_EXT_VERSION_MINOR, which Debian's 5.2.3 header
	 * (this file is also built against it) does not name */
	bool newer = hsa_system_get_info((hsa_system_info_t)0x208, &amd_minor) ==
		     HSA_STATUS_SUCCESS;
	ck_status(hsa_agent_get_info(gpu, (hsa_agent_info_t)HSA_EXT_AGENT_INFO_MAX_SAMPLER_HANDLERS,
				     &sampler_handlers),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(sampler_handlers, newer ? 16 : chip);
	ck_status(hsa_agent_get_info(gpu,
				     (hsa_agent_info_t)0x300c, /* LINEAR_ROW_PITCH_ALIGNMENT */
				     dims),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_image_get_info_max_dim(gpu, (hsa_agent_info_t)0x300c, dims),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_image_get_info_max_dim(cpu,
						 (hsa_agent_info_t)HSA_EXT_AGENT_INFO_IMAGE_3D_MAX_ELEMENTS,
						 dims),
		  HSA_STATUS_SUCCESS);
	ck_assert(dims[0] == 0 && dims[1] == 0 && dims[2] == 0);
	ck_status(hsa_amd_memory_pool_free(mem), HSA_STATUS_SUCCESS);
}
END_TEST

static Suite *statuses_suite(void)
{
	Suite *s = suite_create("api_statuses");
	TCase *tc = tcase_create("statuses");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, signal_handles);
	tcase_add_test(tc, finalizer_is_not_initialized);
	tcase_add_test(tc, migration_is_out_of_resources);
	tcase_add_test(tc, argument_checks);
	tcase_add_test(tc, zero_handles);
	tcase_add_test(tc, image_statuses);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(statuses_suite)
