/*
 * The attributes side by side (issue 19): every agent, region, pool and
 * agent-pool attribute number a client may ask, answered as ROCr 1.18
 * answers it on the same kfdemu preset.  The status of each number, the
 * bytes each answer writes and the values that follow from the topology
 * were recorded by running this binary on ROCr 1.18 under kfdemu
 * (SURF_ATTR_DUMP=1 prints the whole table; the note and
 * docs/differences.md keep the runs).  Also allow_access off an
 * allocation, pointer info's size, and queue creation's sizes, types,
 * priorities, info attributes and CU masks.  Label surface; mi210 and
 * mi300x.
 *
 * "Bytes written" is measured, not declared: each call runs twice, into a
 * buffer filled with 0xAA and into one filled with 0x55; a byte equal in
 * both was written.  So an answer that writes past its type (or short of
 * it) fails here, as it would corrupt a ROCr client's stack.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "surface.h"
#include "hsa/hsa_ext_image.h"

#define ATTR_BUF 1024

SURF_FIXTURE(ag)

/* One answer: its status, how many leading bytes were written (the
 * highest written byte + 1, 0 for none) and the value of the 0x55 run. */
struct answer {
	hsa_status_t status;
	size_t written;
	uint8_t value[ATTR_BUF];
};

typedef hsa_status_t (*query_fn)(const void *ctx, uint32_t attribute, void *value);

static void ask(query_fn q, const void *ctx, uint32_t attribute, struct answer *a)
{
	static uint8_t b1[ATTR_BUF];
	memset(b1, 0xAA, sizeof(b1));
	memset(a->value, 0x55, sizeof(a->value));
	hsa_status_t s1 = q(ctx, attribute, b1);
	a->status = q(ctx, attribute, a->value);
	ck_assert_msg(s1 == a->status, "attribute %#x: %#x then %#x", attribute, (unsigned)s1,
		      (unsigned)a->status);
	a->written = 0;
	for (size_t i = 0; i < ATTR_BUF; i++)
		if (b1[i] == a->value[i])
			a->written = i + 1;
}

static hsa_status_t q_agent(const void *ctx, uint32_t attribute, void *value)
{
	return hsa_agent_get_info(*(const hsa_agent_t *)ctx, (hsa_agent_info_t)attribute, value);
}

static hsa_status_t q_pool(const void *ctx, uint32_t attribute, void *value)
{
	return hsa_amd_memory_pool_get_info(*(const hsa_amd_memory_pool_t *)ctx,
					    (hsa_amd_memory_pool_info_t)attribute, value);
}

static hsa_status_t q_region(const void *ctx, uint32_t attribute, void *value)
{
	return hsa_region_get_info(*(const hsa_region_t *)ctx, (hsa_region_info_t)attribute,
				   value);
}

struct agent_pool {
	hsa_agent_t agent;
	hsa_amd_memory_pool_t pool;
};

static hsa_status_t q_agent_pool(const void *ctx, uint32_t attribute, void *value)
{
	const struct agent_pool *ap = ctx;
	return hsa_amd_agent_memory_pool_get_info(ap->agent, ap->pool,
						  (hsa_amd_agent_memory_pool_info_t)attribute,
						  value);
}

/* ---- the pools and regions of an agent, in the runtime's order --------- */

#define MAX_POOLS 16

struct pools {
	hsa_amd_memory_pool_t p[MAX_POOLS];
	uint32_t n;
};

static hsa_status_t pool_cb(hsa_amd_memory_pool_t p, void *data)
{
	struct pools *ps = data;
	if (ps->n < MAX_POOLS)
		ps->p[ps->n++] = p;
	return HSA_STATUS_SUCCESS;
}

static void pools_of(hsa_agent_t a, struct pools *ps)
{
	ps->n = 0;
	ck_status(hsa_amd_agent_iterate_memory_pools(a, pool_cb, ps), HSA_STATUS_SUCCESS);
}

struct regions {
	hsa_region_t r[MAX_POOLS];
	uint32_t n;
};

static hsa_status_t region_cb(hsa_region_t r, void *data)
{
	struct regions *rs = data;
	if (rs->n < MAX_POOLS)
		rs->r[rs->n++] = r;
	return HSA_STATUS_SUCCESS;
}

static void regions_of(hsa_agent_t a, struct regions *rs)
{
	rs->n = 0;
	ck_status(hsa_agent_iterate_regions(a, region_cb, rs), HSA_STATUS_SUCCESS);
}

/* ---- the dump (SURF_ATTR_DUMP=1): one line per answer ------------------ */

/* Attributes whose value changes from call to call or run to run: their
 * value is not printed, only status and size. */
static bool volatile_value(uint32_t attribute)
{
	return attribute == HSA_AMD_AGENT_INFO_MEMORY_AVAIL ||
	       attribute == HSA_AMD_AGENT_INFO_CLOCK_COUNTERS ||
	       attribute == HSA_AMD_AGENT_INFO_NEAREST_CPU;
}

static void dump_range(const char *who, query_fn q, const void *ctx, uint32_t first,
		       uint32_t last, bool agent)
{
	struct answer a;
	for (uint32_t at = first; at <= last; at++) {
		ask(q, ctx, at, &a);
		printf("%s %#06x status=%#x bytes=%zu", who, at, (unsigned)a.status, a.written);
		if (a.status == HSA_STATUS_SUCCESS && !(agent && volatile_value(at))) {
			printf(" value=");
			for (size_t i = 0; i < a.written && i < 80; i++)
				printf("%02x", a.value[i]);
		}
		printf("\n");
	}
}

static void dump_all(void)
{
	hsa_agent_t all[SURF_MAX_GPUS + 1];
	uint32_t n = 0;
	all[n++] = ag.cpu;
	for (uint32_t g = 0; g < ag.n_gpus; g++)
		all[n++] = ag.gpu[g];
	for (uint32_t i = 0; i < n; i++) {
		char who[64];
		snprintf(who, sizeof(who), "agent%u", i);
		dump_range(who, q_agent, &all[i], 0, 0x30, true);
		dump_range(who, q_agent, &all[i], 0x3000, 0x3010, true);
		dump_range(who, q_agent, &all[i], 0xA000, 0xA020, true);
		dump_range(who, q_agent, &all[i], 0xA100, 0xA130, true);
		struct pools ps;
		pools_of(all[i], &ps);
		for (uint32_t p = 0; p < ps.n; p++) {
			snprintf(who, sizeof(who), "agent%u.pool%u", i, p);
			dump_range(who, q_pool, &ps.p[p], 0, 24, false);
			for (uint32_t j = 0; j < n; j++) {
				struct agent_pool ap = { all[j], ps.p[p] };
				snprintf(who, sizeof(who), "agent%u.pool%u.by%u", i, p, j);
				dump_range(who, q_agent_pool, &ap, 0, 4, false);
			}
		}
		struct regions rs;
		regions_of(all[i], &rs);
		for (uint32_t r = 0; r < rs.n; r++) {
			snprintf(who, sizeof(who), "agent%u.region%u", i, r);
			dump_range(who, q_region, &rs.r[r], 0, 10, false);
			dump_range(who, q_region, &rs.r[r], 0xA000, 0xA006, false);
		}
	}
}

/* ---- what ROCr 1.18 answers (its run on kfdemu: mi210 and mi300x agree
 * but for the image sizes, see image_dims_expect) ----------------------- */

#define OK HSA_STATUS_SUCCESS
#define INVAL HSA_STATUS_ERROR_INVALID_ARGUMENT
#define NOINIT HSA_STATUS_ERROR_NOT_INITIALIZED

/* Every agent attribute number either agent kind answers, with the bytes
 * each answer writes; any other number is INVALID_ARGUMENT, nothing
 * written. */
static const struct agent_expect {
	uint32_t attribute;
	hsa_status_t cpu_status;
	uint32_t cpu_bytes;
	hsa_status_t gpu_status;
	uint32_t gpu_bytes;
} agent_expects[] = {
	{ 0x0000, OK, 64, OK, 63 },
	{ 0x0001, OK, 64, OK, 63 },
	{ 0x0002, OK, 4, OK, 4 },
	{ 0x0003, OK, 4, OK, 4 },
	{ 0x0004, OK, 4, OK, 4 },
	{ 0x0005, OK, 4, OK, 4 },
	{ 0x0006, OK, 4, OK, 4 },
	{ 0x0007, OK, 6, OK, 6 },
	{ 0x0008, OK, 4, OK, 4 },
	{ 0x0009, OK, 12, OK, 12 },
	{ 0x000a, OK, 4, OK, 4 },
	{ 0x000b, OK, 4, OK, 4 },
	{ 0x000c, OK, 4, OK, 4 },
	{ 0x000d, OK, 4, OK, 4 },
	{ 0x000e, OK, 4, OK, 4 },
	{ 0x000f, OK, 4, OK, 4 },
	{ 0x0010, OK, 4, OK, 4 },
	{ 0x0011, OK, 4, OK, 4 },
	{ 0x0012, OK, 16, OK, 16 },
	{ 0x0013, OK, 8, OK, 8 },
	{ 0x0014, OK, 128, OK, 128 },
	{ 0x0015, OK, 2, OK, 2 },
	{ 0x0016, OK, 2, OK, 2 },
	{ 0x0017, OK, 4, OK, 4 },
	{ 0x0018, OK, 1, OK, 1 },
	{ 0x3009, OK, 4, OK, 4 },
	{ 0x300a, OK, 4, OK, 4 },
	{ 0x300b, OK, 4, OK, 4 },
	{ 0xa000, OK, 4, OK, 4 },
	{ 0xa001, OK, 4, OK, 4 },
	{ 0xa002, OK, 4, OK, 4 },
	{ 0xa003, OK, 4, OK, 4 },
	{ 0xa004, OK, 4, OK, 4 },
	{ 0xa005, OK, 4, OK, 4 },
	{ 0xa006, OK, 4, OK, 4 },
	{ 0xa007, INVAL, 0, OK, 4 },
	{ 0xa008, INVAL, 0, OK, 4 },
	{ 0xa009, OK, 64, OK, 64 },
	{ 0xa00a, OK, 4, OK, 4 },
	{ 0xa00b, OK, 4, OK, 4 },
	{ 0xa00c, OK, 4, OK, 4 },
	{ 0xa00d, OK, 4, OK, 4 },
	{ 0xa00e, OK, 16, OK, 16 },
	{ 0xa00f, OK, 4, OK, 4 },
	{ 0xa010, INVAL, 0, OK, 1 },
	{ 0xa011, OK, 7, OK, 21 },
	{ 0xa012, OK, 4, OK, 4 },
	{ 0xa013, OK, 1, OK, 1 },
	{ 0xa014, INVAL, 0, OK, 4 },
	{ 0xa015, INVAL, 0, OK, 8 },
	{ 0xa016, OK, 8, OK, 8 },
	{ 0xa107, OK, 4, OK, 4 },
	{ 0xa108, OK, 4, OK, 4 },
	{ 0xa109, OK, 4, OK, 4 },
	{ 0xa10a, OK, 4, OK, 4 },
	{ 0xa10b, OK, 4, OK, 4 },
	{ 0xa110, OK, 4, OK, 4 },
	{ 0xa111, OK, 4, OK, 4 },
	{ 0xa112, OK, 4, OK, 4 },
	{ 0xa113, OK, 8, OK, 8 },
	{ 0xa114, OK, 8, OK, 8 },
	{ 0xa115, OK, 8, OK, 8 },
	{ 0xa116, OK, 8, OK, 8 },
	{ 0xa117, OK, 8, OK, 8 },
	{ 0xa118, OK, 32, OK, 32 },
};

/* The numbers asked: the core, image and AMD ranges and past their ends
 * (0xA119 on: the attributes AMD's headers added after CLOCK_COUNTERS,
 * PM4 emulation first, which ROCr 1.18 refuses). */
static const uint32_t agent_ranges[][2] = {
	{ 0, 0x30 }, { 0x3000, 0x3010 }, { 0xA000, 0xA020 }, { 0xA100, 0xA130 },
};

static void agent_name(hsa_agent_t a, char name[64])
{
	memset(name, 0, 64);
	ck_status(hsa_agent_get_info(a, HSA_AGENT_INFO_NAME, name), HSA_STATUS_SUCCESS);
}

static bool agent_has_images(hsa_agent_t a)
{
	uint8_t mask[128] = { 0 };
	ck_status(hsa_agent_get_info(a, HSA_AGENT_INFO_EXTENSIONS, mask), HSA_STATUS_SUCCESS);
	return (mask[HSA_EXTENSION_IMAGES / 8] >> (HSA_EXTENSION_IMAGES % 8)) & 1;
}

/* gfx94x and gfx95x have no image hardware (ROCr's isa_has_image_support). */
static bool isa_without_images(hsa_agent_t a)
{
	char name[64];
	agent_name(a, name);
	return strncmp(name, "gfx94", 5) == 0 || strncmp(name, "gfx95", 5) == 0;
}

/* A GPU's image-size attributes (0x3000-0x3008): one uint32_t 0 on a GPU
 * without images; else the sizes by geometry (1D 4 bytes, 2D 8, 3D 12) when
 * the runtime has images; a runtime without its image library (the ROCr
 * 1.18 build at hand) answers NOT_INITIALIZED. */
static void image_dims_expect(hsa_agent_t a, uint32_t attribute, hsa_status_t *st,
			      uint32_t *bytes)
{
	static const uint32_t sizes[] = { 4, 4, 4, 8, 8, 8, 8, 12, 4 };
	if (isa_without_images(a)) {
		*st = OK;
		*bytes = 4;
	} else if (agent_has_images(a)) {
		*st = OK;
		*bytes = sizes[attribute - 0x3000];
	} else {
		*st = NOINIT;
		*bytes = 0;
	}
}

static uint16_t amd_minor(void);

/* The attributes after CLOCK_COUNTERS, for a runtime that reports AMD's
 * interface 1.23 or later (0xA119-0xA123; 0xA124 from 1.28): hsalite's
 * answers.  A CPU refuses the GPU-only ones (docs/differences.md says why,
 * and why CUID stays refused).  ROCr 1.18 (1.11) refuses them all. */
static const struct newest_expect {
	uint32_t attribute;
	hsa_status_t cpu_status;
	uint32_t cpu_bytes;
	hsa_status_t gpu_status;
	uint32_t gpu_bytes;
	uint16_t since; /* the interface minor that has it */
} newest_expects[] = {
	{ 0xa119, INVAL, 0, OK, 1, 23 },    /* PM4_EMULATION, bool */
	{ 0xa11a, INVAL, 0, OK, 8, 23 },    /* LUID, hsa_luid_t: zeros off Windows */
	{ 0xa11b, INVAL, 0, OK, 1, 23 },    /* HAS_EXPERT_SCHED_MODE, bool */
	{ 0xa11c, INVAL, 0, INVAL, 0, 23 }, /* CUID: amdcuid's, not read */
	{ 0xa11d, INVAL, 0, OK, 8, 23 },    /* KERNEL_WG_MAX_SIZE, uint64_t */
	{ 0xa11e, INVAL, 0, OK, 24, 23 },   /* KERNEL_CLUSTER_MAX_DIM, hsa_amd_dim3_t */
	{ 0xa11f, INVAL, 0, OK, 8, 23 },    /* KERNEL_CLUSTER_MAX_SIZE */
	{ 0xa120, INVAL, 0, OK, 24, 23 },   /* CLUSTER_MAX_DIM */
	{ 0xa121, INVAL, 0, OK, 8, 23 },    /* CLUSTER_MAX_SIZE */
	{ 0xa122, INVAL, 0, OK, 24, 23 },   /* KERNEL_WG_MAX_DIM */
	{ 0xa123, OK, 4, OK, 4, 23 },       /* MAX_DATA_PREFETCH_REGIONS, uint32_t */
	{ 0xa124, OK, 1, OK, 1, 28 },       /* HOST_ALLOC_DMABUF_SUPPORTED, bool */
};

static void agent_expect(hsa_agent_t a, bool gpu, uint32_t attribute, hsa_status_t *st,
			 uint32_t *bytes)
{
	const uint16_t minor = amd_minor();
	for (size_t i = 0; i < sizeof(newest_expects) / sizeof(newest_expects[0]); i++) {
		const struct newest_expect *e = &newest_expects[i];
		if (e->attribute == attribute && minor >= e->since) {
			*st = gpu ? e->gpu_status : e->cpu_status;
			*bytes = gpu ? e->gpu_bytes : e->cpu_bytes;
			return;
		}
	}
	if (attribute >= 0x3000 && attribute <= 0x3008) {
		if (gpu) {
			image_dims_expect(a, attribute, st, bytes);
		} else { /* a CPU answers zeros, by geometry */
			static const uint32_t sizes[] = { 4, 4, 4, 8, 8, 8, 8, 12, 4 };
			*st = OK;
			*bytes = sizes[attribute - 0x3000];
		}
		return;
	}
	*st = INVAL;
	*bytes = 0;
	for (size_t i = 0; i < sizeof(agent_expects) / sizeof(agent_expects[0]); i++) {
		const struct agent_expect *e = &agent_expects[i];
		if (e->attribute != attribute)
			continue;
		*st = gpu ? e->gpu_status : e->cpu_status;
		*bytes = gpu ? e->gpu_bytes : e->cpu_bytes;
	}
}

START_TEST(attrs_agent_statuses_and_sizes)
{
	hsa_agent_t all[SURF_MAX_GPUS + 1];
	uint32_t n = 0;
	all[n++] = ag.cpu;
	for (uint32_t g = 0; g < ag.n_gpus; g++)
		all[n++] = ag.gpu[g];
	static struct answer a;
	for (uint32_t i = 0; i < n; i++) {
		const bool gpu = i > 0;
		for (size_t r = 0; r < sizeof(agent_ranges) / sizeof(agent_ranges[0]); r++) {
			for (uint32_t at = agent_ranges[r][0]; at <= agent_ranges[r][1]; at++) {
				hsa_status_t st;
				uint32_t bytes;
				agent_expect(all[i], gpu, at, &st, &bytes);
				ask(q_agent, &all[i], at, &a);
				ck_assert_msg(a.status == st && a.written == bytes,
					      "%s agent %u attribute %#x: status %#x, %zu bytes; "
					      "ROCr 1.18: %#x, %u bytes",
					      gpu ? "GPU" : "CPU", i, at, (unsigned)a.status,
					      a.written, (unsigned)st, bytes);
			}
		}
	}
}
END_TEST

/* The attributes of AMD's later headers, on a runtime that lacks them
 * (ROCr 1.18): refused, the caller's buffer untouched. */
START_TEST(attrs_newer_than_clock_counters_refused)
{
	if (amd_minor() >= 23)
		return; /* attrs_newest_answers */
	static struct answer a;
	hsa_agent_t agents[2] = { ag.cpu, ag.gpu[0] };
	for (uint32_t i = 0; i < 2; i++) {
		for (uint32_t at = HSA_AMD_AGENT_INFO_CLOCK_COUNTERS + 1; at <= 0xA124; at++) {
			ask(q_agent, &agents[i], at, &a);
			ck_assert_msg(a.status == HSA_STATUS_ERROR_INVALID_ARGUMENT && !a.written,
				      "attribute %#x: %#x, %zu bytes written", at,
				      (unsigned)a.status, a.written);
		}
	}
}
END_TEST

/* What ROCr 1.18's CPU agent answers for the GPU-only ideas. */
START_TEST(attrs_cpu_answers)
{
	uint32_t u32 = 1;
	uint64_t u64 = 1;
	ck_status(hsa_agent_get_info(ag.cpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_NUM_XCC, &u32),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(u32, 0);
	u32 = 1;
	ck_status(hsa_agent_get_info(ag.cpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_DRIVER_UID,
				     &u32),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(u32, 0);
	ck_status(hsa_agent_get_info(ag.cpu,
				     (hsa_agent_info_t)HSA_AMD_AGENT_INFO_SCRATCH_LIMIT_MAX, &u64),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(u64, 0);
	u64 = 1;
	ck_status(hsa_agent_get_info(ag.cpu,
				     (hsa_agent_info_t)HSA_AMD_AGENT_INFO_SCRATCH_LIMIT_CURRENT,
				     &u64),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(u64, 0);
	hsa_amd_clock_counters_t c;
	memset(&c, 0xAA, sizeof(c));
	ck_status(hsa_agent_get_info(ag.cpu,
				     (hsa_agent_info_t)HSA_AMD_AGENT_INFO_CLOCK_COUNTERS, &c),
		  HSA_STATUS_SUCCESS);
	ck_assert(!c.gpu_clock_counter && !c.cpu_clock_counter && !c.system_clock_counter &&
		  !c.system_clock_frequency);
	ck_status(hsa_agent_get_info(ag.cpu,
				     (hsa_agent_info_t)HSA_AMD_AGENT_INFO_MEMORY_WIDTH, &u32),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_agent_get_info(ag.cpu,
				     (hsa_agent_info_t)HSA_AMD_AGENT_INFO_MEMORY_AVAIL, &u64),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
}
END_TEST

/* ROCr 1.18's GPU values where they differ from 5.2.3's or are new. */
START_TEST(attrs_gpu_answers)
{
	for (uint32_t g = 0; g < ag.n_gpus; g++) {
		hsa_agent_t gpu = ag.gpu[g];
		hsa_dim3_t grid;
		ck_status(hsa_agent_get_info(gpu, HSA_AGENT_INFO_GRID_MAX_DIM, &grid),
			  HSA_STATUS_SUCCESS);
		ck_assert_uint_eq(grid.x, INT32_MAX);
		ck_assert_uint_eq(grid.y, UINT16_MAX);
		ck_assert_uint_eq(grid.z, UINT16_MAX);
		/* the L2 line of both presets */
		ck_assert_uint_eq(surf_u32_info(gpu, HSA_AMD_AGENT_INFO_CACHELINE_SIZE), 128);
		/* DRIVER_UID is the node's KFD gpu_id */
		uint32_t node = surf_u32_info(gpu, HSA_AMD_AGENT_INFO_DRIVER_NODE_ID);
		char path[96], buf[32] = { 0 };
		snprintf(path, sizeof(path), "/sys/class/kfd/kfd/topology/nodes/%u/gpu_id", node);
		FILE *f = fopen(path, "r");
		ck_assert_msg(f, "%s", path);
		ck_assert(fgets(buf, sizeof(buf), f));
		fclose(f);
		ck_assert_uint_eq(surf_u32_info(gpu, HSA_AMD_AGENT_INFO_DRIVER_UID),
				  strtoul(buf, NULL, 10));
		/* image handle limits: ROCr 1.18's, 0 without image hardware */
		bool none = isa_without_images(gpu);
		ck_assert_uint_eq(surf_u32_info(gpu, HSA_EXT_AGENT_INFO_MAX_IMAGE_RD_HANDLES),
				  none ? 0 : 128);
		ck_assert_uint_eq(surf_u32_info(gpu, HSA_EXT_AGENT_INFO_MAX_IMAGE_RORW_HANDLES),
				  none ? 0 : 64);
		ck_assert_uint_eq(surf_u32_info(gpu, HSA_EXT_AGENT_INFO_MAX_SAMPLER_HANDLERS),
				  none ? 0 : 16);
		if (none) {
			uint32_t dims[3] = { 7, 7, 7 };
			ck_status(hsa_agent_get_info(gpu, (hsa_agent_info_t)
						     HSA_EXT_AGENT_INFO_IMAGE_3D_MAX_ELEMENTS,
						     dims),
				  HSA_STATUS_SUCCESS);
			ck_assert(dims[0] == 0 && dims[1] == 7 && dims[2] == 7);
		}
		/* the name fills 63 bytes, the product name 64 */
		static struct answer a;
		ask(q_agent, &gpu, HSA_AGENT_INFO_NAME, &a);
		ck_assert_uint_eq(a.written, 63);
		ask(q_agent, &gpu, HSA_AMD_AGENT_INFO_PRODUCT_NAME, &a);
		ck_assert_uint_eq(a.written, 64);
	}
}
END_TEST

/* ---- pools ------------------------------------------------------------- */

/* A pool's kind as a client tells it: segment, then flags. */
enum pool_kind { POOL_SYSTEM, POOL_VRAM, POOL_LDS };

static enum pool_kind pool_kind(hsa_agent_t owner, bool owner_gpu, hsa_amd_memory_pool_t p)
{
	(void)owner;
	hsa_amd_segment_t seg;
	ck_status(hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg),
		  HSA_STATUS_SUCCESS);
	if (seg == HSA_AMD_SEGMENT_GROUP)
		return POOL_LDS;
	return owner_gpu ? POOL_VRAM : POOL_SYSTEM;
}

/* Bytes each pool attribute writes (0: INVALID_ARGUMENT), by number. */
static uint32_t pool_bytes(enum pool_kind k, uint32_t attribute)
{
	switch (attribute) {
	case HSA_AMD_MEMORY_POOL_INFO_SEGMENT:
	case HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS:
		return 4;
	case HSA_AMD_MEMORY_POOL_INFO_SIZE:
	case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE:
	case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT:
	case HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE:
	case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_REC_GRANULE:
		return 8;
	case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED:
	case HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL:
		return 1;
	case HSA_AMD_MEMORY_POOL_INFO_LOCATION:
		return k == POOL_LDS ? 0 : 4;
	default:
		return 0;
	}
}

static size_t pool_size_info(hsa_amd_memory_pool_t p, int attribute)
{
	size_t v = 0;
	ck_status(hsa_amd_memory_pool_get_info(p, (hsa_amd_memory_pool_info_t)attribute, &v),
		  HSA_STATUS_SUCCESS);
	return v;
}

START_TEST(attrs_pool_answers)
{
	const size_t page = (size_t)sysconf(_SC_PAGESIZE);
	const bool nofrag = getenv("HSA_DISABLE_FRAGMENT_ALLOCATOR") &&
			    !strcmp(getenv("HSA_DISABLE_FRAGMENT_ALLOCATOR"), "1");
	hsa_agent_t all[SURF_MAX_GPUS + 1];
	uint32_t n = 0;
	all[n++] = ag.cpu;
	for (uint32_t g = 0; g < ag.n_gpus; g++)
		all[n++] = ag.gpu[g];

	/* ROCr caps a system allocation at the sum of its fine-grained system
	 * regions, the plain and the kernarg one of each node: twice the
	 * memory. */
	struct pools cpu_pools;
	pools_of(ag.cpu, &cpu_pools);
	size_t sysmem = 0;
	for (uint32_t p = 0; p < cpu_pools.n; p++) {
		uint32_t flags = 0;
		hsa_amd_memory_pool_get_info(cpu_pools.p[p], HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS,
					     &flags);
		if (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED)
			sysmem += pool_size_info(cpu_pools.p[p], HSA_AMD_MEMORY_POOL_INFO_SIZE);
	}

	static struct answer a;
	for (uint32_t i = 0; i < n; i++) {
		struct pools ps;
		pools_of(all[i], &ps);
		ck_assert_uint_gt(ps.n, 0);
		for (uint32_t p = 0; p < ps.n; p++) {
			enum pool_kind k = pool_kind(all[i], i > 0, ps.p[p]);
			for (uint32_t at = 0; at <= 24; at++) {
				uint32_t bytes = pool_bytes(k, at);
				ask(q_pool, &ps.p[p], at, &a);
				ck_assert_msg(a.status == (bytes ? OK : INVAL) && a.written == bytes,
					      "agent %u pool %u attribute %u: %#x, %zu bytes; "
					      "ROCr 1.18: %u bytes",
					      i, p, at, (unsigned)a.status, a.written, bytes);
			}
			size_t rec = pool_size_info(ps.p[p],
						    HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_REC_GRANULE);
			size_t want = k == POOL_SYSTEM ? page
				      : k == POOL_LDS  ? 0
				      : nofrag	       ? page
						       : (size_t)2 << 20;
			ck_assert_msg(rec == want, "agent %u pool %u: REC_GRANULE %zu, want %zu", i,
				      p, rec, want);
			if (k == POOL_LDS) {
				ck_assert_uint_eq(pool_size_info(ps.p[p],
						  HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE), 0);
				continue;
			}
			ck_assert_uint_eq(pool_size_info(ps.p[p],
					  HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE), page);
			uint32_t loc = 7;
			ck_status(hsa_amd_memory_pool_get_info(ps.p[p],
							       HSA_AMD_MEMORY_POOL_INFO_LOCATION,
							       &loc),
				  HSA_STATUS_SUCCESS);
			ck_assert_uint_eq(loc, k == POOL_SYSTEM ? HSA_AMD_MEMORY_POOL_LOCATION_CPU
								: HSA_AMD_MEMORY_POOL_LOCATION_GPU);
			/* ROCr 1.18 on mi300x (2 GPUs) says 5 times that: its
			 * static sum also counts fine-grained system regions
			 * it makes for the GPUs (docs/differences.md), so a
			 * multiple of the memory, at least twice it. */
			if (k == POOL_SYSTEM) {
				size_t max = pool_size_info(ps.p[p],
							    HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE);
				ck_assert_msg(max >= sysmem && max % (sysmem / 2) == 0,
					      "system ALLOC_MAX_SIZE %zu for %zu bytes of memory",
					      max, sysmem / 2);
			}
		}
	}
}
END_TEST

/* The same through the region API (the numbers 0-7 and ROCr's four AMD
 * region attributes). */
START_TEST(attrs_region_answers)
{
	static struct answer a;
	struct regions rs;
	regions_of(ag.gpu[0], &rs);
	ck_assert_uint_gt(rs.n, 0);
	for (uint32_t r = 0; r < rs.n; r++) {
		for (uint32_t at = 0; at <= 10; at++) {
			static const uint32_t bytes_of[] = { 4, 4, 8, 0, 8, 1, 8, 8, 0, 0, 0 };
			ask(q_region, &rs.r[r], at, &a);
			ck_assert_msg(a.status == (bytes_of[at] ? OK : INVAL) &&
					      a.written == bytes_of[at],
				      "region %u attribute %u: %#x, %zu bytes", r, at,
				      (unsigned)a.status, a.written);
		}
		for (uint32_t at = 0xA000; at <= 0xA006; at++) {
			static const uint32_t bytes_of[] = { 1, 8, 4, 4, 0, 0, 0 };
			ask(q_region, &rs.r[r], at, &a);
			ck_assert_msg(a.status == (bytes_of[at - 0xA000] ? OK : INVAL) &&
					      a.written == bytes_of[at - 0xA000],
				      "region %u attribute %#x: %#x, %zu bytes", r, at,
				      (unsigned)a.status, a.written);
		}
	}
}
END_TEST

/* The AMD interface minor the runtime reports: 0 for ROCr 5.2.3 (which
 * does not answer it), 11 for ROCr 1.18, 31 for hsalite. */
static uint16_t amd_minor(void)
{
	uint16_t minor = 0;
	if (hsa_system_get_info((hsa_system_info_t)HSA_AMD_SYSTEM_INFO_EXT_VERSION_MINOR,
				&minor) != HSA_STATUS_SUCCESS)
		return 0;
	return minor;
}

/* hsa_amd_agents_allow_access off an allocation's start: ROCr 1.18 (and
 * hsalite) check the agents, then look for a vmem mapping
 * (INVALID_AGENT, INVALID_ALLOCATION); ROCr 5.2.3 said ERROR for both. */
START_TEST(attrs_allow_access_off_an_allocation)
{
	const bool old = amd_minor() == 0;
	void *p = surf_host_alloc(&ag, 8192);
	char local[64];
	hsa_agent_t bogus = { (uint64_t)(uintptr_t)local };
	ck_status(hsa_amd_agents_allow_access(1, ag.gpu, NULL, local),
		  old ? HSA_STATUS_ERROR : HSA_STATUS_ERROR_INVALID_ALLOCATION);
	ck_status(hsa_amd_agents_allow_access(1, ag.gpu, NULL, (char *)p + 64),
		  old ? HSA_STATUS_ERROR : HSA_STATUS_ERROR_INVALID_ALLOCATION);
	memset(local, 0, sizeof(local));
	ck_status(hsa_amd_agents_allow_access(1, &bogus, NULL, local),
		  old ? HSA_STATUS_ERROR : HSA_STATUS_ERROR_INVALID_AGENT);
	ck_status(hsa_amd_agents_allow_access(0, ag.gpu, NULL, p),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_agents_allow_access(1, ag.gpu, NULL, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	uint32_t flags = 0;
	ck_status(hsa_amd_agents_allow_access(1, ag.gpu, &flags, p),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_memory_pool_free(p), HSA_STATUS_SUCCESS);
}
END_TEST

/* hsa_amd_pointer_info's sizeInBytes for an allocation that is not a
 * whole number of pages: ROCr 1.18 gives the size asked for; ROCr 5.2.3
 * and hsalite the page-rounded size (HIP 5.2.3 exports IPC handles of
 * that size: docs/differences.md). */
START_TEST(attrs_pointer_info_size)
{
	const bool rocr118 = amd_minor() == 11;
	const size_t page = (size_t)sysconf(_SC_PAGESIZE);
	hsa_amd_memory_pool_t pools[2] = { surf_pool(ag.cpu, true), surf_pool(ag.gpu[0], false) };
	static const size_t sizes[] = { 100, 4096, 5000 };
	for (int k = 0; k < 2; k++) {
		for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			void *p = NULL;
			ck_status(hsa_amd_memory_pool_allocate(pools[k], sizes[i], 0, &p),
				  HSA_STATUS_SUCCESS);
			hsa_amd_pointer_info_t info;
			memset(&info, 0, sizeof(info));
			info.size = sizeof(info);
			ck_status(hsa_amd_pointer_info((char *)p + 1, &info, NULL, NULL, NULL),
				  HSA_STATUS_SUCCESS);
			size_t want = rocr118 ? sizes[i] : (sizes[i] + page - 1) / page * page;
			ck_assert_msg(info.sizeInBytes == want,
				      "pool %d, %zu bytes: sizeInBytes %zu, want %zu", k, sizes[i],
				      info.sizeInBytes, want);
			ck_assert_ptr_eq(info.agentBaseAddress, p);
			ck_status(hsa_amd_memory_pool_free(p), HSA_STATUS_SUCCESS);
		}
	}
}
END_TEST

/* ---- queue creation, as ROCr 1.18 (and 5.2.3) answer it ---------------- */

START_TEST(attrs_queue_create)
{
	hsa_agent_t gpu = ag.gpu[0];
	const uint16_t minor = amd_minor();
	const uint32_t min = surf_u32_info(gpu, HSA_AGENT_INFO_QUEUE_MIN_SIZE);
	const uint32_t max = surf_u32_info(gpu, HSA_AGENT_INFO_QUEUE_MAX_SIZE);
	hsa_queue_t *q = NULL;
	static const uint32_t not_sizes[] = { 0, 1, 32, 100, 4095, UINT32_MAX };
	for (size_t i = 0; i < sizeof(not_sizes) / sizeof(not_sizes[0]); i++)
		ck_status(hsa_queue_create(gpu, not_sizes[i], HSA_QUEUE_TYPE_MULTI, NULL, NULL,
					   UINT32_MAX, UINT32_MAX, &q),
			  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_queue_create(gpu, max * 2, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
				   UINT32_MAX, &q),
		  HSA_STATUS_ERROR_OUT_OF_RESOURCES);
	ck_status(hsa_queue_create(gpu, 4096, (hsa_queue_type32_t)3, NULL, NULL, UINT32_MAX,
				   UINT32_MAX, &q),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_queue_create(gpu, 4096, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
				   UINT32_MAX, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_queue_create(ag.cpu, 4096, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
				   UINT32_MAX, &q),
		  HSA_STATUS_ERROR);
	ck_assert_ptr_null(q);

	const uint32_t sizes[] = { min, max };
	for (int i = 0; i < 2; i++) {
		ck_status(hsa_queue_create(gpu, sizes[i], HSA_QUEUE_TYPE_SINGLE, NULL, NULL,
					   UINT32_MAX, UINT32_MAX, &q),
			  HSA_STATUS_SUCCESS);
		ck_assert_uint_eq(q->size, sizes[i]);
		/* a SINGLE request makes a MULTI queue */
		ck_assert_uint_eq(q->type, HSA_QUEUE_TYPE_MULTI);
		for (int pr = 0; pr <= HSA_AMD_QUEUE_PRIORITY_HIGH; pr++)
			ck_status(hsa_amd_queue_set_priority(q, (hsa_amd_queue_priority_t)pr),
				  HSA_STATUS_SUCCESS);
		ck_status(hsa_amd_queue_set_priority(q, (hsa_amd_queue_priority_t)3),
			  HSA_STATUS_ERROR_INVALID_ARGUMENT);
		hsa_agent_t owner = { 0 };
		uint64_t v[8];
		ck_status(hsa_amd_queue_get_info(q, HSA_AMD_QUEUE_INFO_AGENT, &owner),
			  HSA_STATUS_SUCCESS);
		ck_assert_uint_eq(owner.handle, gpu.handle);
		ck_status(hsa_amd_queue_get_info(q, HSA_AMD_QUEUE_INFO_DOORBELL_ID, v),
			  HSA_STATUS_SUCCESS);
		/* 2-9 came with counted queues (interface 1.16), 10-16 with
		 * 1.22-1.31: ROCr 1.18 has none of them.  hsalite (which
		 * reports 1.16 or later) answers them all but SDMA_ENGINE_ID
		 * (14), which only an SDMA queue has; 17 is past the header. */
		for (int at = 2; at <= 17; at++)
			ck_status(hsa_amd_queue_get_info(q, (hsa_queue_info_attribute_t)at, v),
				  at <= 16 && at != 14 && minor >= 16
					  ? HSA_STATUS_SUCCESS
					  : HSA_STATUS_ERROR_INVALID_ARGUMENT);
		/* a mask wider than the agent is clipped, silently */
		uint32_t cus = surf_u32_info(gpu, HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT);
		uint32_t wide[16], back[16];
		memset(wide, 0xFF, sizeof(wide));
		memset(back, 0, sizeof(back));
		ck_status(hsa_amd_queue_cu_set_mask(q, 512, wide), HSA_STATUS_SUCCESS);
		ck_status(hsa_amd_queue_cu_get_mask(q, 512, back), HSA_STATUS_SUCCESS);
		uint32_t bits = 0;
		for (int w = 0; w < 16; w++)
			bits += (uint32_t)__builtin_popcount(back[w]);
		ck_assert_uint_eq(bits, cus);
		ck_status(hsa_amd_queue_cu_set_mask(q, 33, wide), HSA_STATUS_ERROR_INVALID_ARGUMENT);
		ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
		q = NULL;
	}

	bool coop = false;
	ck_status(hsa_agent_get_info(gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES,
				     &coop),
		  HSA_STATUS_SUCCESS);
	if (coop) {
		/* one shared GWS queue; its size is the runtime's (ROCr 1.18
		 * 16384, 5.2.3 and hsalite the first creator's) */
		ck_status(hsa_queue_create(gpu, 4096, HSA_QUEUE_TYPE_COOPERATIVE, NULL, NULL,
					   UINT32_MAX, UINT32_MAX, &q),
			  HSA_STATUS_SUCCESS);
		ck_assert_uint_eq(q->type, HSA_QUEUE_TYPE_COOPERATIVE);
		ck_assert(q->size >= min && !(q->size & (q->size - 1)));
		ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
	}
}
END_TEST

/* The values of the attributes after CLOCK_COUNTERS (AMD's interface
 * 1.23 and 1.28) and the system attributes beside them: gfx9 under amdkfd
 * runs AQL natively, has no expert scheduling, no clusters but the trivial
 * one-work-group kind, no L2 prefetch regions, takes GRID_MAX_DIM
 * work-groups of one work-item, and its vmem API makes no host-memory
 * handles.  A CPU answers only the last two (0, false). */
START_TEST(attrs_newest_answers)
{
	const uint16_t minor = amd_minor();
	if (minor < 23)
		return; /* ROCr 1.18: attrs_newer_than_clock_counters_refused */
	uint16_t major = 0;
	ck_status(hsa_system_get_info((hsa_system_info_t)HSA_AMD_SYSTEM_INFO_EXT_VERSION_MAJOR,
				      &major),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(major, 1);
	ck_assert_uint_eq(minor, HSA_AMD_INTERFACE_VERSION_MINOR);

	bool sys_host_dmabuf = true, fabric = true;
	ck_status(hsa_system_get_info(HSA_AMD_SYSTEM_INFO_HOST_ALLOC_DMA_BUF_SUPPORTED,
				      &sys_host_dmabuf),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_system_get_info(HSA_AMD_SYSTEM_INFO_FABRIC_HANDLES_SUPPORTED, &fabric),
		  HSA_STATUS_SUCCESS);
	ck_assert(!sys_host_dmabuf);
	ck_assert(!fabric);
	/* one past the newest system attribute is refused */
	uint64_t past = 7;
	ck_status(hsa_system_get_info((hsa_system_info_t)0x20B, &past),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_assert_uint_eq(past, 7);

	hsa_agent_t all[SURF_MAX_GPUS + 1];
	uint32_t n = 0;
	all[n++] = ag.cpu;
	for (uint32_t g = 0; g < ag.n_gpus; g++)
		all[n++] = ag.gpu[g];
	for (uint32_t i = 0; i < n; i++) {
		hsa_agent_t a = all[i];
		/* the agent's answer is the system's (AMD's note: the system
		 * attribute replaces it) */
		bool b = !sys_host_dmabuf;
		ck_status(hsa_agent_get_info(
				  a, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_HOST_ALLOC_DMABUF_SUPPORTED,
				  &b),
			  HSA_STATUS_SUCCESS);
		ck_assert(b == sys_host_dmabuf);
		uint32_t regions = 7;
		ck_status(hsa_agent_get_info(
				  a, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_MAX_DATA_PREFETCH_REGIONS,
				  &regions),
			  HSA_STATUS_SUCCESS);
		ck_assert_uint_eq(regions, 0);
	}

	for (uint32_t g = 0; g < ag.n_gpus; g++) {
		hsa_agent_t a = ag.gpu[g];
		bool b = true;
		ck_status(hsa_agent_get_info(a, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_PM4_EMULATION,
					     &b),
			  HSA_STATUS_SUCCESS);
		ck_assert(!b);
		b = true;
		ck_status(hsa_agent_get_info(
				  a, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_HAS_EXPERT_SCHED_MODE, &b),
			  HSA_STATUS_SUCCESS);
		ck_assert(!b);

		/* work-groups of a plain dispatch: the grid limits, one
		 * work-item each, their product across all dimensions */
		hsa_dim3_t grid;
		ck_status(hsa_agent_get_info(a, HSA_AGENT_INFO_GRID_MAX_DIM, &grid),
			  HSA_STATUS_SUCCESS);
		ck_assert_uint_eq(grid.x, INT32_MAX);
		const uint64_t product = (uint64_t)grid.x * grid.y * grid.z;
		/* a cluster is one work-group: as many clusters as groups */
		const uint32_t dims[] = { HSA_AMD_AGENT_INFO_KERNEL_WG_MAX_DIM,
					  HSA_AMD_AGENT_INFO_KERNEL_CLUSTER_MAX_DIM };
		const uint32_t sizes[] = { HSA_AMD_AGENT_INFO_KERNEL_WG_MAX_SIZE,
					   HSA_AMD_AGENT_INFO_KERNEL_CLUSTER_MAX_SIZE };
		for (size_t k = 0; k < 2; k++) {
			hsa_amd_dim3_t d;
			memset(&d, 0xAA, sizeof(d));
			ck_status(hsa_agent_get_info(a, (hsa_agent_info_t)dims[k], &d),
				  HSA_STATUS_SUCCESS);
			ck_assert(d.x == grid.x && d.y == grid.y && d.z == grid.z);
			uint64_t u64 = 1;
			ck_status(hsa_agent_get_info(a, (hsa_agent_info_t)sizes[k], &u64),
				  HSA_STATUS_SUCCESS);
			ck_assert_uint_eq(u64, product);
		}
		hsa_amd_dim3_t c;
		memset(&c, 0xAA, sizeof(c));
		ck_status(hsa_agent_get_info(a, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_CLUSTER_MAX_DIM,
					     &c),
			  HSA_STATUS_SUCCESS);
		ck_assert(c.x == 1 && c.y == 1 && c.z == 1);
		uint64_t per_cluster = 0;
		ck_status(hsa_agent_get_info(a, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_CLUSTER_MAX_SIZE,
					     &per_cluster),
			  HSA_STATUS_SUCCESS);
		ck_assert_uint_eq(per_cluster, 1);

		/* a LUID is Windows': both halves 0 here */
		hsa_luid_t luid = { 1, 1 };
		ck_status(hsa_agent_get_info(a, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_LUID, &luid),
			  HSA_STATUS_SUCCESS);
		ck_assert(!luid.low && !luid.high);
		/* CUID: refused, nothing written */
		uint8_t id[16];
		memset(id, 0x5A, sizeof(id));
		ck_status(hsa_agent_get_info(a, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_CUID, id),
			  HSA_STATUS_ERROR_INVALID_ARGUMENT);
		for (size_t k = 0; k < sizeof(id); k++)
			ck_assert_uint_eq(id[k], 0x5A);
	}
}
END_TEST

/* DMABUF_SUPPORTED (interface 1.1): ROCr 1.18 says true on KFD 1.12 and
 * later, which kfdemu is, and the export it describes works; ROCr 5.2.3
 * does not know the attribute. */
START_TEST(attrs_dmabuf_supported_holds)
{
	bool dmabuf = false;
	hsa_status_t st = hsa_system_get_info(
		(hsa_system_info_t)HSA_AMD_SYSTEM_INFO_DMABUF_SUPPORTED, &dmabuf);
	if (amd_minor() == 0) {
		ck_status(st, HSA_STATUS_ERROR_INVALID_ARGUMENT);
		return;
	}
	ck_status(st, HSA_STATUS_SUCCESS);
	ck_assert_msg(dmabuf, "DMABUF_SUPPORTED on KFD 1.12+");
	void *p = surf_vram_alloc(&ag, ag.gpu[0], 2u << 20);
	int fd = -1;
	uint64_t offset = 1;
	ck_status(hsa_amd_portable_export_dmabuf(p, 2u << 20, &fd, &offset),
		  HSA_STATUS_SUCCESS);
	ck_assert_int_ge(fd, 0);
	ck_assert_uint_eq(offset, 0);
	ck_status(hsa_amd_portable_close_dmabuf(fd), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(p), HSA_STATUS_SUCCESS);
}
END_TEST

/* HOST_ALLOC_DMA_BUF_SUPPORTED and FABRIC_HANDLES_SUPPORTED say false, so
 * the calls they describe must fail: a vmem handle on the CPU's pools, a
 * fabric export of a GPU handle.  (When either starts to work, this fails
 * until the attribute says so.) */
START_TEST(attrs_newest_system_answers_hold)
{
	if (amd_minor() < 28)
		return;
	bool vmem = false, host_dmabuf = true, fabric = true;
	ck_status(hsa_system_get_info(HSA_AMD_SYSTEM_INFO_VIRTUAL_MEM_API_SUPPORTED, &vmem),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_system_get_info(HSA_AMD_SYSTEM_INFO_HOST_ALLOC_DMA_BUF_SUPPORTED,
				      &host_dmabuf),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_system_get_info(HSA_AMD_SYSTEM_INFO_FABRIC_HANDLES_SUPPORTED, &fabric),
		  HSA_STATUS_SUCCESS);
	ck_assert_msg(vmem, "the vmem API on kfdemu");
	const size_t size = 2u << 20;
	hsa_amd_vmem_alloc_handle_t h = { 0 };
	if (!host_dmabuf) {
		for (int fine = 0; fine < 2; fine++) {
			h.handle = 0;
			ck_assert_int_ne(hsa_amd_vmem_handle_create(surf_pool(ag.cpu, fine), size,
								    MEMORY_TYPE_NONE, 0, &h),
					 HSA_STATUS_SUCCESS);
			ck_assert_uint_eq(h.handle, 0);
		}
	}
	if (!fabric) {
		ck_status(hsa_amd_vmem_handle_create(surf_pool(ag.gpu[0], false), size,
						     MEMORY_TYPE_NONE, 0, &h),
			  HSA_STATUS_SUCCESS);
		hsa_fabric_handle_t fh;
		memset(&fh, 0x5A, sizeof(fh));
		ck_assert_int_ne(hsa_amd_vmem_export_fabric_handle(&fh, h, 0), HSA_STATUS_SUCCESS);
		ck_status(hsa_amd_vmem_handle_release(h), HSA_STATUS_SUCCESS);
	}
}
END_TEST

START_TEST(attrs_dump)
{
	if (!getenv("SURF_ATTR_DUMP"))
		return;
	dump_all();
	fflush(stdout);
}
END_TEST

Suite *attrs_suite(void);
Suite *attrs_suite(void)
{
	Suite *s = suite_create("surface_attrs");
	TCase *tc = tcase_create("attrs");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, attrs_agent_statuses_and_sizes);
	tcase_add_test(tc, attrs_newer_than_clock_counters_refused);
	tcase_add_test(tc, attrs_newest_answers);
	tcase_add_test(tc, attrs_newest_system_answers_hold);
	tcase_add_test(tc, attrs_dmabuf_supported_holds);
	tcase_add_test(tc, attrs_cpu_answers);
	tcase_add_test(tc, attrs_gpu_answers);
	tcase_add_test(tc, attrs_pool_answers);
	tcase_add_test(tc, attrs_region_answers);
	tcase_add_test(tc, attrs_allow_access_off_an_allocation);
	tcase_add_test(tc, attrs_pointer_info_size);
	tcase_add_test(tc, attrs_queue_create);
	tcase_add_test(tc, attrs_dump);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(attrs_suite)
