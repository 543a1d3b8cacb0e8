/*
 * Agents, ISAs, caches, pools and system attributes on kfdemu, against the
 * preset named by HL_PRESET (mi210 or mi300x; see emu/topology/presets).
 * The expected numbers are the preset's hardware facts, computed the way
 * ROCr computes them from the topology.  Label emu.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hl_check.h"
#include "hsa/hsa_ven_amd_loader.h"
#include "rt_test.h"

struct expect {
	const char *preset, *gfx, *isa_prefix;
	uint32_t cu, shader_engines, chip_id, max_clock, mem_width, l1, l2, num_xcc, ucode;
	uint64_t vram;
	uint32_t n_gpu_pools; /* VRAM (+ fine-grained in a hive) + LDS */
};

static const struct expect expects[] = {
	{ "mi210", "gfx90a", "amdgcn-amd-amdhsa--gfx90a:sramecc", 104, 8, 0x740F, 1700, 4096,
	  16 * 1024, 8192 * 1024, 1, 78, (64ull << 30) - (16ull << 20), 2 },
	{ "mi300x", "gfx942", "amdgcn-amd-amdhsa--gfx942:sramecc", 304, 32, 0x74A1, 2100, 8192,
	  16 * 1024, 0, 8, 151, (192ull << 30) - (16ull << 20), 3 },
};

static const struct expect *ex;
static hsa_agent_t cpu, gpu;

static hsa_status_t collect(hsa_agent_t agent, void *data)
{
	(void)data;
	hsa_device_type_t type;
	ck_status(hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type), HSA_STATUS_SUCCESS);
	if (type == HSA_DEVICE_TYPE_CPU && !cpu.handle)
		cpu = agent;
	if (type == HSA_DEVICE_TYPE_GPU && !gpu.handle)
		gpu = agent;
	return HSA_STATUS_SUCCESS;
}

static void setup(void)
{
	const char *p = getenv("HL_PRESET");
	ck_assert_msg(p != NULL, "HL_PRESET not set");
	ex = NULL;
	for (size_t i = 0; i < sizeof(expects) / sizeof(expects[0]); i++)
		if (!strcmp(expects[i].preset, p))
			ex = &expects[i];
	ck_assert_msg(ex != NULL, "unknown preset %s", p);
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	cpu.handle = gpu.handle = 0;
	ck_status(hsa_iterate_agents(collect, NULL), HSA_STATUS_SUCCESS);
	ck_assert_msg(cpu.handle && gpu.handle, "need a CPU and a GPU agent");
}

static void teardown(void)
{
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

static uint32_t u32_info(hsa_agent_t agent, int attribute)
{
	uint32_t v = 0xdeadbeef;
	ck_status(hsa_agent_get_info(agent, (hsa_agent_info_t)attribute, &v), HSA_STATUS_SUCCESS);
	return v;
}

#define ck_u32(agent, attr, expected)                                                   \
	do {                                                                            \
		uint32_t got_ = u32_info(agent, attr);                                  \
		ck_assert_msg(got_ == (uint32_t)(expected), "%s: got %u, expected %u", #attr, \
			      got_, (uint32_t)(expected));                              \
	} while (0)

static hsa_status_t count_agents(hsa_agent_t agent, void *data)
{
	hsa_device_type_t type;
	hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type);
	uint32_t *counts = data;
	/* CPUs must all come before the first GPU. */
	if (type == HSA_DEVICE_TYPE_CPU)
		ck_assert_msg(counts[1] == 0, "CPU agent after a GPU agent");
	counts[type == HSA_DEVICE_TYPE_GPU]++;
	return HSA_STATUS_SUCCESS;
}

START_TEST(one_cpu_then_one_gpu_agent)
{
	uint32_t counts[2] = { 0, 0 };
	ck_status(hsa_iterate_agents(count_agents, counts), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(counts[0], 1);
	ck_assert_uint_eq(counts[1], 1);
}
END_TEST

static hsa_status_t break_at_first(hsa_agent_t agent, void *data)
{
	(*(int *)data)++;
	(void)agent;
	return HSA_STATUS_INFO_BREAK;
}

static hsa_status_t fail_at_first(hsa_agent_t agent, void *data)
{
	(*(int *)data)++;
	(void)agent;
	return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

START_TEST(iterate_agents_stops_at_break_and_errors)
{
	int calls = 0;
	ck_status(hsa_iterate_agents(break_at_first, &calls), HSA_STATUS_INFO_BREAK);
	ck_assert_int_eq(calls, 1);
	calls = 0;
	ck_status(hsa_iterate_agents(fail_at_first, &calls), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(calls, 1);
}
END_TEST

START_TEST(gpu_identity_attributes)
{
	char name[64], vendor[64], uuid[24];
	ck_status(hsa_agent_get_info(gpu, HSA_AGENT_INFO_NAME, name), HSA_STATUS_SUCCESS);
	ck_assert_str_eq(name, ex->gfx);
	ck_status(hsa_agent_get_info(gpu, HSA_AGENT_INFO_VENDOR_NAME, vendor), HSA_STATUS_SUCCESS);
	ck_assert_str_eq(vendor, "AMD");
	ck_status(hsa_agent_get_info(gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_UUID, uuid),
		  HSA_STATUS_SUCCESS);
	ck_assert_msg(!strncmp(uuid, "GPU-", 4) && strlen(uuid) == 20, "uuid '%s'", uuid);
	ck_u32(gpu, HSA_AGENT_INFO_DEVICE, HSA_DEVICE_TYPE_GPU);
	ck_u32(gpu, HSA_AGENT_INFO_FEATURE, HSA_AGENT_FEATURE_KERNEL_DISPATCH);
	ck_u32(gpu, HSA_AGENT_INFO_PROFILE, HSA_PROFILE_BASE);
	ck_u32(gpu, HSA_AMD_AGENT_INFO_CHIP_ID, ex->chip_id);
	ck_u32(gpu, HSA_AGENT_INFO_NODE, 1);
	ck_u32(gpu, HSA_AMD_AGENT_INFO_DRIVER_NODE_ID, 1);
}
END_TEST

START_TEST(gpu_queue_attributes_are_rocr_limits)
{
	ck_u32(gpu, HSA_AGENT_INFO_QUEUES_MAX, 128);
	ck_u32(gpu, HSA_AGENT_INFO_QUEUE_MIN_SIZE, 64);
	ck_u32(gpu, HSA_AGENT_INFO_QUEUE_MAX_SIZE, 131072);
	ck_u32(gpu, HSA_AGENT_INFO_QUEUE_TYPE, HSA_QUEUE_TYPE_MULTI);
}
END_TEST

START_TEST(gpu_compute_attributes_from_topology)
{
	ck_u32(gpu, HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT, ex->cu);
	ck_u32(gpu, HSA_AMD_AGENT_INFO_NUM_SIMDS_PER_CU, 4);
	ck_u32(gpu, HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES, ex->shader_engines);
	ck_u32(gpu, HSA_AMD_AGENT_INFO_NUM_SHADER_ARRAYS_PER_SE, 1);
	ck_u32(gpu, HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU, 32);
	ck_u32(gpu, HSA_AGENT_INFO_WAVEFRONT_SIZE, 64);
	ck_u32(gpu, HSA_AGENT_INFO_WORKGROUP_MAX_SIZE, 1024);
	ck_u32(gpu, HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY, ex->max_clock);
	ck_u32(gpu, HSA_AMD_AGENT_INFO_MEMORY_WIDTH, ex->mem_width);
	/* The L2's line from the topology, as ROCr 1.18 (128 on both
	 * presets; ROCr 5.2.3 hard-coded 64). */
	ck_u32(gpu, HSA_AMD_AGENT_INFO_CACHELINE_SIZE, 128);
	/* ROCr 1.18's grid limits (5.2.3: UINT32_MAX each). */
	hsa_dim3_t grid_dim = { 0, 0, 0 };
	ck_status(hsa_agent_get_info(gpu, HSA_AGENT_INFO_GRID_MAX_DIM, &grid_dim),
		  HSA_STATUS_SUCCESS);
	ck_assert_msg(grid_dim.x == INT32_MAX && grid_dim.y == UINT16_MAX &&
			      grid_dim.z == UINT16_MAX,
		      "agent grid max dim %u x %u x %u, expected 2147483647 x 65535 x 65535",
		      grid_dim.x, grid_dim.y, grid_dim.z);
	ck_u32(gpu, HSA_AGENT_INFO_GRID_MAX_SIZE, UINT32_MAX);
	ck_u32(gpu, HSA_AMD_AGENT_INFO_MAX_ADDRESS_WATCH_POINTS, 4);
	bool coop = false;
	ck_status(hsa_agent_get_info(gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES,
				     &coop),
		  HSA_STATUS_SUCCESS);
	ck_assert_msg(coop, "the preset has GWS: cooperative queues expected");
}
END_TEST

/* Attributes newer ROCr headers define (HIP asks for them by number). */
START_TEST(gpu_newer_amd_attributes)
{
	uint64_t avail = 0, freq = 0;
	hsa_agent_t nearest = { 0 };
	ck_status(hsa_agent_get_info(gpu, (hsa_agent_info_t)0xA015 /* MEMORY_AVAIL */, &avail),
		  HSA_STATUS_SUCCESS);
	ck_assert_msg(avail > 0 && avail <= ex->vram, "memory avail %llu",
		      (unsigned long long)avail);
	ck_status(hsa_agent_get_info(gpu, (hsa_agent_info_t)0xA016 /* TIMESTAMP_FREQUENCY */,
				     &freq),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_gt(freq, 0);
	ck_u32(gpu, 0xA111 /* NUM_XCC */, ex->num_xcc);
	ck_u32(gpu, 0xA108 /* UCODE_VERSION */, ex->ucode);
	ck_assert_uint_ne(u32_info(gpu, 0xA112 /* DRIVER_UID */), 0);
	ck_status(hsa_agent_get_info(gpu, (hsa_agent_info_t)0xA113 /* NEAREST_CPU */, &nearest),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(nearest.handle, cpu.handle);
}
END_TEST

START_TEST(gpu_cache_sizes)
{
	uint32_t sizes[4] = { 0 };
	ck_status(hsa_agent_get_info(gpu, HSA_AGENT_INFO_CACHE_SIZE, sizes), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(sizes[0], ex->l1);
	if (ex->l2)
		ck_assert_uint_eq(sizes[1], ex->l2);
	else
		ck_assert_uint_gt(sizes[1], 0);
}
END_TEST

static hsa_status_t first_cache(hsa_cache_t cache, void *data)
{
	*(hsa_cache_t *)data = cache;
	return HSA_STATUS_INFO_BREAK;
}

START_TEST(gpu_first_cache_is_l1)
{
	hsa_cache_t cache = { 0 };
	ck_status(hsa_agent_iterate_caches(gpu, first_cache, &cache), HSA_STATUS_INFO_BREAK);
	uint8_t level = 0;
	uint32_t size = 0, len = 0;
	const char *name = NULL;
	ck_status(hsa_cache_get_info(cache, HSA_CACHE_INFO_LEVEL, &level), HSA_STATUS_SUCCESS);
	ck_status(hsa_cache_get_info(cache, HSA_CACHE_INFO_SIZE, &size), HSA_STATUS_SUCCESS);
	ck_status(hsa_cache_get_info(cache, HSA_CACHE_INFO_NAME_LENGTH, &len), HSA_STATUS_SUCCESS);
	ck_status(hsa_cache_get_info(cache, HSA_CACHE_INFO_NAME, (void *)&name), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(level, 1);
	ck_assert_uint_eq(size, ex->l1 / 1024); /* KiB, as ROCr */
	char want[32];
	snprintf(want, sizeof(want), "%s L1", ex->gfx);
	ck_assert_str_eq(name, want);
	ck_assert_uint_eq(len, strlen(want));
}
END_TEST

START_TEST(cpu_attributes)
{
	char vendor[64], uuid[24];
	ck_status(hsa_agent_get_info(cpu, HSA_AGENT_INFO_VENDOR_NAME, vendor), HSA_STATUS_SUCCESS);
	ck_assert_str_eq(vendor, "CPU");
	ck_status(hsa_agent_get_info(cpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_UUID, uuid),
		  HSA_STATUS_SUCCESS);
	ck_assert_str_eq(uuid, "CPU-XX");
	ck_u32(cpu, HSA_AGENT_INFO_FEATURE, 0);
	ck_u32(cpu, HSA_AGENT_INFO_PROFILE, HSA_PROFILE_FULL);
	ck_u32(cpu, HSA_AGENT_INFO_QUEUES_MAX, 0);
	ck_u32(cpu, HSA_AGENT_INFO_NODE, 0);
	ck_u32(cpu, HSA_AMD_AGENT_INFO_CACHELINE_SIZE, 64);
	ck_assert_uint_gt(u32_info(cpu, HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT), 0);
}
END_TEST

START_TEST(coherency_type_defaults_and_is_settable_on_gpus)
{
	hsa_amd_coherency_type_t t = 99;
	ck_status(hsa_amd_coherency_get_type(gpu, &t), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(t, HSA_AMD_COHERENCY_TYPE_NONCOHERENT); /* a dGPU */
	ck_status(hsa_amd_coherency_set_type(gpu, HSA_AMD_COHERENCY_TYPE_COHERENT),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_coherency_get_type(gpu, &t), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(t, HSA_AMD_COHERENCY_TYPE_COHERENT);
	ck_status(hsa_amd_coherency_set_type(gpu, (hsa_amd_coherency_type_t)5),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_coherency_get_type(cpu, &t), HSA_STATUS_ERROR_INVALID_AGENT);
	ck_status(hsa_amd_coherency_get_type(gpu, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
}
END_TEST

static hsa_status_t first_isa(hsa_isa_t isa, void *data)
{
	*(hsa_isa_t *)data = isa;
	return HSA_STATUS_INFO_BREAK;
}

START_TEST(gpu_isa_name_is_the_target_id)
{
	hsa_isa_t isa = { 0 }, agent_isa = { 0 };
	ck_status(hsa_agent_iterate_isas(gpu, first_isa, &isa), HSA_STATUS_INFO_BREAK);
	ck_status(hsa_agent_get_info(gpu, HSA_AGENT_INFO_ISA, &agent_isa), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(isa.handle, agent_isa.handle);
	uint32_t len = 0;
	char name[128];
	ck_status(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME_LENGTH, &len), HSA_STATUS_SUCCESS);
	ck_status(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME, name), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(len, strlen(name) + 1);
	ck_assert_msg(!strncmp(name, ex->isa_prefix, strlen(ex->isa_prefix)), "isa '%s'", name);
	const char *tail = name + strlen(ex->isa_prefix);
	ck_assert_msg(!strcmp(tail, "+:xnack-") || !strcmp(tail, "+:xnack+") ||
		      !strcmp(tail, "-:xnack-") || !strcmp(tail, "-:xnack+"),
		      "isa '%s' lacks sramecc/xnack", name);
}
END_TEST

START_TEST(gpu_isa_attributes_are_rocr_values)
{
	hsa_isa_t isa;
	ck_status(hsa_agent_get_info(gpu, HSA_AGENT_INFO_ISA, &isa), HSA_STATUS_SUCCESS);
	bool models[2], profiles[2], modes[3], f16 = false;
	uint16_t wg_dim[3];
	uint32_t wg_size = 0, fbar = 0;
	uint64_t grid = 0;
	hsa_dim3_t grid_dim;
	ck_status(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_MACHINE_MODELS, models), HSA_STATUS_SUCCESS);
	ck_assert(!models[0] && models[1]);
	ck_status(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_PROFILES, profiles), HSA_STATUS_SUCCESS);
	ck_assert(profiles[0] && !profiles[1]);
	ck_status(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_DEFAULT_FLOAT_ROUNDING_MODES, modes),
		  HSA_STATUS_SUCCESS);
	ck_assert(!modes[0] && !modes[1] && modes[2]);
	ck_status(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_FAST_F16_OPERATION, &f16),
		  HSA_STATUS_SUCCESS);
	ck_assert(f16);
	ck_status(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_WORKGROUP_MAX_DIM, wg_dim),
		  HSA_STATUS_SUCCESS);
	ck_assert(wg_dim[0] == 1024 && wg_dim[1] == 1024 && wg_dim[2] == 1024);
	ck_status(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_WORKGROUP_MAX_SIZE, &wg_size),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(wg_size, 1024);
	ck_status(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_GRID_MAX_DIM, &grid_dim),
		  HSA_STATUS_SUCCESS);
	ck_assert_msg(grid_dim.x == INT32_MAX && grid_dim.y == UINT16_MAX &&
			      grid_dim.z == UINT16_MAX,
		      "ISA grid max dim %u x %u x %u, expected 2147483647 x 65535 x 65535",
		      grid_dim.x, grid_dim.y, grid_dim.z);
	ck_status(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_GRID_MAX_SIZE, &grid), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(grid, UINT64_MAX);
	ck_status(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_FBARRIER_MAX_SIZE, &fbar),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(fbar, 32);
}
END_TEST

START_TEST(isa_from_name_round_trips_and_rejects_bad_names)
{
	hsa_isa_t isa, back;
	char name[128];
	ck_status(hsa_agent_get_info(gpu, HSA_AGENT_INFO_ISA, &isa), HSA_STATUS_SUCCESS);
	ck_status(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME, name), HSA_STATUS_SUCCESS);
	ck_status(hsa_isa_from_name(name, &back), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(back.handle, isa.handle);
	ck_status(hsa_isa_from_name("amdgcn-amd-amdhsa--gfx9999", &back),
		  HSA_STATUS_ERROR_INVALID_ISA_NAME);
	ck_status(hsa_isa_from_name("amdgcn-amd-amdhsa--gfx90a:xnack+:sramecc+", &back),
		  HSA_STATUS_ERROR_INVALID_ISA_NAME);
	ck_status(hsa_isa_from_name("gfx90a", &back), HSA_STATUS_ERROR_INVALID_ISA_NAME);
	ck_status(hsa_isa_from_name("amdgcn-amd-amdhsa--gfx1030:xnack+", &back),
		  HSA_STATUS_ERROR_INVALID_ISA_NAME);
}
END_TEST

START_TEST(isa_compatibility_follows_target_features)
{
	hsa_isa_t agent_isa, any, other;
	bool ok = false;
	char name[64];
	ck_status(hsa_agent_get_info(gpu, HSA_AGENT_INFO_ISA, &agent_isa), HSA_STATUS_SUCCESS);
	snprintf(name, sizeof(name), "amdgcn-amd-amdhsa--%s", ex->gfx);
	ck_status(hsa_isa_from_name(name, &any), HSA_STATUS_SUCCESS);
	ck_status(hsa_isa_compatible(any, agent_isa, &ok), HSA_STATUS_SUCCESS);
	ck_assert_msg(ok, "%s should run on the agent", name);
	ck_status(hsa_isa_from_name("amdgcn-amd-amdhsa--gfx908", &other), HSA_STATUS_SUCCESS);
	ck_status(hsa_isa_compatible(other, agent_isa, &ok), HSA_STATUS_SUCCESS);
	ck_assert_msg(!ok, "gfx908 code must not run on %s", ex->gfx);
}
END_TEST

static hsa_status_t count_isas(hsa_isa_t isa, void *data)
{
	(void)isa;
	(*(int *)data)++;
	return HSA_STATUS_SUCCESS;
}

START_TEST(cpu_agent_has_no_isa)
{
	int n = 0;
	ck_status(hsa_agent_iterate_isas(cpu, count_isas, &n), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(n, 0);
}
END_TEST

static hsa_status_t wavefront_size(hsa_wavefront_t wf, void *data)
{
	ck_status(hsa_wavefront_get_info(wf, HSA_WAVEFRONT_INFO_SIZE, data), HSA_STATUS_SUCCESS);
	return HSA_STATUS_SUCCESS;
}

START_TEST(isa_has_a_wave64_wavefront)
{
	hsa_isa_t isa;
	uint32_t size = 0;
	ck_status(hsa_agent_get_info(gpu, HSA_AGENT_INFO_ISA, &isa), HSA_STATUS_SUCCESS);
	ck_status(hsa_isa_iterate_wavefronts(isa, wavefront_size, &size), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(size, 64);
}
END_TEST

struct pools {
	hsa_amd_memory_pool_t p[8];
	uint32_t n;
};

static hsa_status_t collect_pool(hsa_amd_memory_pool_t pool, void *data)
{
	struct pools *ps = data;
	ck_assert_uint_lt(ps->n, 8);
	ps->p[ps->n++] = pool;
	return HSA_STATUS_SUCCESS;
}

static uint32_t pool_u32(hsa_amd_memory_pool_t p, hsa_amd_memory_pool_info_t attr)
{
	uint32_t v = 0xdeadbeef;
	ck_status(hsa_amd_memory_pool_get_info(p, attr, &v), HSA_STATUS_SUCCESS);
	return v;
}

static size_t pool_size_t(hsa_amd_memory_pool_t p, hsa_amd_memory_pool_info_t attr)
{
	size_t v = 0;
	ck_status(hsa_amd_memory_pool_get_info(p, attr, &v), HSA_STATUS_SUCCESS);
	return v;
}

static bool pool_bool(hsa_amd_memory_pool_t p, hsa_amd_memory_pool_info_t attr)
{
	bool v = false;
	ck_status(hsa_amd_memory_pool_get_info(p, attr, &v), HSA_STATUS_SUCCESS);
	return v;
}

START_TEST(gpu_pools_are_vram_then_lds)
{
	struct pools ps = { .n = 0 };
	ck_status(hsa_amd_agent_iterate_memory_pools(gpu, collect_pool, &ps), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(ps.n, ex->n_gpu_pools);
	hsa_amd_memory_pool_t vram = ps.p[0], lds = ps.p[ps.n - 1];
	ck_assert_uint_eq(pool_u32(vram, HSA_AMD_MEMORY_POOL_INFO_SEGMENT), HSA_AMD_SEGMENT_GLOBAL);
	ck_assert_uint_eq(pool_u32(vram, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS),
			  HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED);
	ck_assert_uint_eq(pool_size_t(vram, HSA_AMD_MEMORY_POOL_INFO_SIZE), ex->vram);
	ck_assert(pool_bool(vram, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED));
	ck_assert_uint_eq(pool_size_t(vram, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE), 4096);
	ck_assert_uint_eq(pool_size_t(vram, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT), 4096);
	ck_assert_uint_eq(pool_size_t(vram, HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE), ex->vram);
	ck_assert(!pool_bool(vram, HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL));
	if (ex->n_gpu_pools == 3)
		ck_assert_uint_eq(pool_u32(ps.p[1], HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS),
				  HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED);
	ck_assert_uint_eq(pool_u32(lds, HSA_AMD_MEMORY_POOL_INFO_SEGMENT), HSA_AMD_SEGMENT_GROUP);
	ck_assert_uint_eq(pool_size_t(lds, HSA_AMD_MEMORY_POOL_INFO_SIZE), 64 * 1024);
	ck_assert(!pool_bool(lds, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED));
	ck_assert_uint_eq(pool_size_t(lds, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE), 0);
}
END_TEST

START_TEST(cpu_pools_are_fine_kernarg_coarse)
{
	struct pools ps = { .n = 0 };
	ck_status(hsa_amd_agent_iterate_memory_pools(cpu, collect_pool, &ps), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(ps.n, 3);
	ck_assert_uint_eq(pool_u32(ps.p[0], HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS),
			  HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED);
	ck_assert_uint_eq(pool_u32(ps.p[1], HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS),
			  HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED |
			  HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT);
	ck_assert_uint_eq(pool_u32(ps.p[2], HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS),
			  HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED);
	for (uint32_t i = 0; i < 3; i++) {
		ck_assert(pool_bool(ps.p[i], HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL));
		ck_assert(pool_bool(ps.p[i], HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED));
		ck_assert_uint_gt(pool_size_t(ps.p[i], HSA_AMD_MEMORY_POOL_INFO_SIZE), 0);
	}
}
END_TEST

static hsa_amd_memory_pool_access_t access_of(hsa_agent_t agent, hsa_amd_memory_pool_t pool)
{
	hsa_amd_memory_pool_access_t a = 99;
	ck_status(hsa_amd_agent_memory_pool_get_info(agent, pool,
						     HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS, &a),
		  HSA_STATUS_SUCCESS);
	return a;
}

START_TEST(pool_access_follows_rocr_rules)
{
	struct pools cp = { .n = 0 }, gp = { .n = 0 };
	ck_status(hsa_amd_agent_iterate_memory_pools(cpu, collect_pool, &cp), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_agent_iterate_memory_pools(gpu, collect_pool, &gp), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(access_of(cpu, cp.p[0]), HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT);
	ck_assert_int_eq(access_of(gpu, cp.p[0]), HSA_AMD_MEMORY_POOL_ACCESS_DISALLOWED_BY_DEFAULT);
	ck_assert_int_eq(access_of(gpu, gp.p[0]), HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT);
	ck_assert_int_eq(access_of(cpu, gp.p[0]), HSA_AMD_MEMORY_POOL_ACCESS_DISALLOWED_BY_DEFAULT);
	ck_assert_int_eq(access_of(cpu, gp.p[gp.n - 1]), HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED);
}
END_TEST

START_TEST(gpu_reaches_system_memory_over_one_pcie_hop)
{
	struct pools cp = { .n = 0 };
	ck_status(hsa_amd_agent_iterate_memory_pools(cpu, collect_pool, &cp), HSA_STATUS_SUCCESS);
	uint32_t hops = 0;
	hsa_amd_memory_pool_link_info_t link;
	ck_status(hsa_amd_agent_memory_pool_get_info(gpu, cp.p[0],
						     HSA_AMD_AGENT_MEMORY_POOL_INFO_NUM_LINK_HOPS,
						     &hops),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(hops, 1);
	ck_status(hsa_amd_agent_memory_pool_get_info(gpu, cp.p[0],
						     HSA_AMD_AGENT_MEMORY_POOL_INFO_LINK_INFO, &link),
		  HSA_STATUS_SUCCESS);
	ck_assert_int_eq(link.link_type, HSA_AMD_LINK_INFO_TYPE_PCIE);
}
END_TEST

START_TEST(system_attributes)
{
	uint16_t major = 0, minor = 0;
	uint64_t freq = 0, wait = 0, t0 = 0, t1 = 0;
	hsa_endianness_t endian;
	hsa_machine_model_t model;
	uint8_t ext[128];
	ck_status(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major), HSA_STATUS_SUCCESS);
	ck_status(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MINOR, &minor), HSA_STATUS_SUCCESS);
	ck_assert(major == 1 && minor == 1);
	ck_status(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &freq),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(freq, 1000000000ull);
	ck_status(hsa_system_get_info(HSA_SYSTEM_INFO_SIGNAL_MAX_WAIT, &wait), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(wait, UINT64_MAX);
	ck_status(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &t0), HSA_STATUS_SUCCESS);
	ck_status(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &t1), HSA_STATUS_SUCCESS);
	ck_assert_uint_ge(t1, t0);
	ck_status(hsa_system_get_info(HSA_SYSTEM_INFO_ENDIANNESS, &endian), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(endian, HSA_ENDIANNESS_LITTLE);
	ck_status(hsa_system_get_info(HSA_SYSTEM_INFO_MACHINE_MODEL, &model), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(model, HSA_MACHINE_MODEL_LARGE);
	ck_status(hsa_system_get_info(HSA_SYSTEM_INFO_EXTENSIONS, ext), HSA_STATUS_SUCCESS);
	ck_assert(ext[HSA_EXTENSION_AMD_LOADER / 8] & (1 << (HSA_EXTENSION_AMD_LOADER % 8)));
	ck_assert(ext[0] & (1 << HSA_EXTENSION_IMAGES)); /* src/image, as ROCr */
}
END_TEST

START_TEST(loader_extension_is_supported_but_pending)
{
	bool ok = false;
	uint16_t minor = 0;
	ck_status(hsa_system_extension_supported(HSA_EXTENSION_AMD_LOADER, 1, 3, &ok),
		  HSA_STATUS_SUCCESS);
	ck_assert(ok);
	ck_status(hsa_system_major_extension_supported(HSA_EXTENSION_AMD_LOADER, 1, &minor, &ok),
		  HSA_STATUS_SUCCESS);
	ck_assert(ok && minor == 3);
	hsa_ven_amd_loader_1_03_pfn_t table;
	memset(&table, 0, sizeof(table));
	ck_status(hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_LOADER, 1, sizeof(table),
						       &table),
		  HSA_STATUS_SUCCESS);
	ck_assert(table.hsa_ven_amd_loader_iterate_executables != NULL);
	const void *host = NULL;
	int probe = 0;
	hsa_status_t s = table.hsa_ven_amd_loader_query_host_address(&probe, &host);
	ck_assert_msg(s != HSA_STATUS_SUCCESS, "a pending loader entry must not report success");
}
END_TEST

START_TEST(unsupported_extensions_say_so)
{
	bool ok = true;
	uint8_t table[64];
	const char *name = NULL;
	ck_status(hsa_system_extension_supported(HSA_EXTENSION_PERFORMANCE_COUNTERS, 1, 0, &ok),
		  HSA_STATUS_SUCCESS);
	ck_assert(!ok);
	/* ROCr's answers (hsa.cpp): HSA_STATUS_ERROR for a table it cannot
	 * give (aqlprofile without its library, as roctracer's tool meets it),
	 * INVALID_ARGUMENT for a NULL table or a zero length */
	ck_status(hsa_system_get_major_extension_table(HSA_EXTENSION_PERFORMANCE_COUNTERS, 1,
						       sizeof(table), table),
		  HSA_STATUS_ERROR);
	ck_status(hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_AQLPROFILE, 1,
						       sizeof(table), table),
		  HSA_STATUS_ERROR);
	ck_status(hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_LOADER, 2,
						       sizeof(table), table),
		  HSA_STATUS_ERROR);
	ck_status(hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_LOADER, 1, 0, table),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_system_get_extension_table(HSA_EXTENSION_PERFORMANCE_COUNTERS, 1, 0, table),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_system_extension_supported(0x1234, 1, 0, &ok),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_extension_get_name(HSA_EXTENSION_AMD_LOADER, &name), HSA_STATUS_SUCCESS);
	ck_assert_str_eq(name, "HSA_EXTENSION_AMD_LOADER");
	ck_status(hsa_agent_extension_supported(HSA_EXTENSION_AMD_PROFILER, gpu, 1, 0, &ok),
		  HSA_STATUS_SUCCESS);
	ck_assert(!ok);
}
END_TEST

static Suite *agents_suite(void)
{
	Suite *s = suite_create("runtime_agents");
	TCase *tc = tcase_create("agents");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, one_cpu_then_one_gpu_agent);
	tcase_add_test(tc, iterate_agents_stops_at_break_and_errors);
	tcase_add_test(tc, gpu_identity_attributes);
	tcase_add_test(tc, gpu_queue_attributes_are_rocr_limits);
	tcase_add_test(tc, gpu_compute_attributes_from_topology);
	tcase_add_test(tc, gpu_newer_amd_attributes);
	tcase_add_test(tc, gpu_cache_sizes);
	tcase_add_test(tc, gpu_first_cache_is_l1);
	tcase_add_test(tc, cpu_attributes);
	tcase_add_test(tc, coherency_type_defaults_and_is_settable_on_gpus);
	tcase_add_test(tc, gpu_isa_name_is_the_target_id);
	tcase_add_test(tc, gpu_isa_attributes_are_rocr_values);
	tcase_add_test(tc, isa_from_name_round_trips_and_rejects_bad_names);
	tcase_add_test(tc, isa_compatibility_follows_target_features);
	tcase_add_test(tc, cpu_agent_has_no_isa);
	tcase_add_test(tc, isa_has_a_wave64_wavefront);
	tcase_add_test(tc, gpu_pools_are_vram_then_lds);
	tcase_add_test(tc, cpu_pools_are_fine_kernarg_coarse);
	tcase_add_test(tc, pool_access_follows_rocr_rules);
	tcase_add_test(tc, gpu_reaches_system_memory_over_one_pcie_hop);
	tcase_add_test(tc, system_attributes);
	tcase_add_test(tc, loader_extension_is_supported_but_pending);
	tcase_add_test(tc, unsupported_extensions_say_so);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(agents_suite)
