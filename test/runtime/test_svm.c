/*
 * Shared virtual memory (src/memory/svm.c) on kfdemu, and the same source
 * run on Debian's ROCr 5.2.3 (HL_PEER_ROCR=1, label peer), the reference:
 * hsa_amd_svm_attributes_set/_get argument checks and round trips (every
 * attribute, partial ranges, CPU and GPU agents), prefetches with and
 * without dependency signals and what PREFETCH_LOCATION says meanwhile,
 * the system attributes (SVM_SUPPORTED, SVM_ACCESSIBLE_BY_DEFAULT, the
 * ISA's xnack feature), hsa_amd_pointer_info of SVM memory, and a GPU
 * kernel (vadd, HL_CO) reading and writing malloc'ed memory registered as
 * an SVM range.  HL_XNACK=1 says the run has HSA_XNACK=1: then a kernel
 * also reaches malloc'ed memory with no SVM attribute at all (retry faults).
 * Where ROCr dereferences what it is given (NULL lists, dead handles),
 * hsalite's statuses are checked on hsalite only.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "hl_check.h"
#include "hl_hsa.h"
#include "rt_test.h"

#define WAIT_NS (20ull * 1000 * 1000 * 1000)
#define PAGE 4096u
#define MAX_GPUS 4
/* hsalite's HL_AMD_SYSTEM_INFO_XNACK_ENABLED (newer than ROCr 5.2.3) */
#define SYSTEM_INFO_XNACK_ENABLED 0x206

typedef hsa_amd_svm_attribute_pair_t pair_t;

static hsa_agent_t cpu, gpus[MAX_GPUS];
static unsigned n_gpus;
static hsa_queue_t *queue;
static uint64_t vadd_kd;
static hsa_amd_memory_pool_t sys_fine, kernarg_pool;
static bool peer_rocr, xnack;

static hsa_status_t find_agents(hsa_agent_t agent, void *data)
{
	(void)data;
	hsa_device_type_t type;
	hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type);
	if (type == HSA_DEVICE_TYPE_CPU && !cpu.handle)
		cpu = agent;
	if (type == HSA_DEVICE_TYPE_GPU && n_gpus < MAX_GPUS)
		gpus[n_gpus++] = agent;
	return HSA_STATUS_SUCCESS;
}

static hsa_status_t find_pools(hsa_amd_memory_pool_t pool, void *data)
{
	(void)data;
	uint32_t segment = 0, flags = 0;
	hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &segment);
	hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags);
	if (segment != HSA_AMD_SEGMENT_GLOBAL)
		return HSA_STATUS_SUCCESS;
	if (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT)
		kernarg_pool = pool;
	else if (flags == HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED)
		sys_fine = pool;
	return HSA_STATUS_SUCCESS;
}

static void setup(void)
{
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	cpu.handle = 0;
	n_gpus = 0;
	sys_fine.handle = kernarg_pool.handle = 0;
	peer_rocr = getenv("HL_PEER_ROCR") && !strcmp(getenv("HL_PEER_ROCR"), "1");
	xnack = getenv("HL_XNACK") && !strcmp(getenv("HL_XNACK"), "1");
	ck_status(hsa_iterate_agents(find_agents, NULL), HSA_STATUS_SUCCESS);
	ck_assert(cpu.handle && n_gpus);
	ck_status(hsa_amd_agent_iterate_memory_pools(cpu, find_pools, NULL), HSA_STATUS_SUCCESS);
	ck_assert(sys_fine.handle && kernarg_pool.handle);
	queue = NULL;
}

static void teardown(void)
{
	if (queue)
		ck_status(hsa_queue_destroy(queue), HSA_STATUS_SUCCESS);
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

/* A page-aligned buffer of n pages from mmap, so the tests own whole
 * pages (malloc'ed memory is the kernel test's business). */
static void *pages(size_t n)
{
	void *p = mmap(NULL, n * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(p, MAP_FAILED);
	return p;
}

static hsa_status_t set1(void *p, size_t size, uint64_t attribute, uint64_t value)
{
	pair_t a = { attribute, value };
	return hsa_amd_svm_attributes_set(p, size, &a, 1);
}

static uint64_t get1(void *p, size_t size, uint64_t attribute)
{
	pair_t a = { attribute, 0x5A5A };
	ck_status(hsa_amd_svm_attributes_get(p, size, &a, 1), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(a.attribute, attribute);
	return a.value;
}

/* ACCESS_QUERY for agent: the attribute it comes back as. */
static uint64_t access_of(void *p, size_t size, hsa_agent_t agent)
{
	pair_t a = { HSA_AMD_SVM_ATTRIB_ACCESS_QUERY, agent.handle };
	ck_status(hsa_amd_svm_attributes_get(p, size, &a, 1), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(a.value, agent.handle);
	return a.attribute;
}

/* ---- system attributes ---- */

START_TEST(svm_supported_and_accessible_by_default_follow_xnack)
{
	bool b = false;
	ck_status(hsa_system_get_info(HSA_AMD_SYSTEM_INFO_SVM_SUPPORTED, &b), HSA_STATUS_SUCCESS);
	ck_assert(b);
	b = !xnack;
	ck_status(hsa_system_get_info(HSA_AMD_SYSTEM_INFO_SVM_ACCESSIBLE_BY_DEFAULT, &b),
		  HSA_STATUS_SUCCESS);
	ck_assert_int_eq(b, xnack);
	b = !xnack;
	hsa_status_t want = peer_rocr ? HSA_STATUS_ERROR_INVALID_ARGUMENT : HSA_STATUS_SUCCESS;
	ck_status(hsa_system_get_info((hsa_system_info_t)SYSTEM_INFO_XNACK_ENABLED, &b), want);
	if (!peer_rocr)
		ck_assert_int_eq(b, xnack);
	for (unsigned i = 0; i < n_gpus; i++) {
		hsa_isa_t isa;
		char name[80];
		ck_status(hsa_agent_get_info(gpus[i], HSA_AGENT_INFO_ISA, &isa), HSA_STATUS_SUCCESS);
		ck_status(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME, name), HSA_STATUS_SUCCESS);
		const char *want_feature = xnack ? ":xnack+" : ":xnack-";
		size_t n = strlen(name);
		ck_assert_msg(n > 7 && !strcmp(name + n - 7, want_feature), "isa %s", name);
		/* MI210/MI300X memory is not coherently host-accessible */
		b = true;
		ck_status(hsa_agent_get_info(gpus[i],
					     (hsa_agent_info_t)HSA_AMD_AGENT_INFO_SVM_DIRECT_HOST_ACCESS,
					     &b), HSA_STATUS_SUCCESS);
		ck_assert(!b);
	}
}
END_TEST

/* ---- argument checks ---- */

START_TEST(set_refuses_what_rocr_refuses)
{
	char *p = pages(2);
	hsa_agent_t g = gpus[0];
	ck_status(set1(p, PAGE, HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG, 7),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(set1(p, PAGE, HSA_AMD_SVM_ATTRIB_PREFETCH_LOCATION, g.handle),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(set1(p, PAGE, HSA_AMD_SVM_ATTRIB_ACCESS_QUERY, g.handle),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(set1(p, PAGE, 0x999, 0), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(set1(p, PAGE, HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE, 0),
		  HSA_STATUS_ERROR_INVALID_AGENT);
	pair_t twice[2] = { { HSA_AMD_SVM_ATTRIB_READ_ONLY, 1 },
			    { HSA_AMD_SVM_ATTRIB_READ_ONLY, 0 } };
	ck_status(hsa_amd_svm_attributes_set(p, PAGE, twice, 2),
		  HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS);
	pair_t one_agent[2] = { { HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE, g.handle },
				{ HSA_AMD_SVM_ATTRIB_AGENT_NO_ACCESS, g.handle } };
	ck_status(hsa_amd_svm_attributes_set(p, PAGE, one_agent, 2),
		  HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS);
	/* a duplicate is found before a bad value after it */
	pair_t dup_first[2] = { { HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG, 0 },
				{ HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG, 9 } };
	ck_status(hsa_amd_svm_attributes_set(p, PAGE, dup_first, 2),
		  HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS);
	/* the kernel's refusals are HSA_STATUS_ERROR */
	ck_status(set1(NULL, PAGE, HSA_AMD_SVM_ATTRIB_READ_ONLY, 0), HSA_STATUS_ERROR);
	ck_status(set1(p, 0, HSA_AMD_SVM_ATTRIB_READ_ONLY, 0), HSA_STATUS_ERROR);
	munmap(p + PAGE, PAGE);
	ck_status(set1(p, 2 * PAGE, HSA_AMD_SVM_ATTRIB_READ_ONLY, 0), HSA_STATUS_ERROR);
	/* a pool allocation a GPU may use is a BO mapped at that address
	 * (EADDRINUSE; ROCr maps it to the GPU at allow_access, hsalite at
	 * allocation already) */
	void *bo = NULL;
	ck_status(hsa_amd_memory_pool_allocate(sys_fine, PAGE, 0, &bo), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_agents_allow_access(1, &gpus[0], NULL, bo), HSA_STATUS_SUCCESS);
	ck_status(set1(bo, PAGE, HSA_AMD_SVM_ATTRIB_READ_ONLY, 0), HSA_STATUS_ERROR);
	ck_status(hsa_amd_memory_pool_free(bo), HSA_STATUS_SUCCESS);
	/* no agent for PREFERRED_LOCATION is allowed; no attribute at all too */
	ck_status(set1(p, PAGE, HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION, 0), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_svm_attributes_set(p, PAGE, twice, 0), HSA_STATUS_SUCCESS);
	munmap(p, PAGE);
}
END_TEST

START_TEST(get_refuses_what_rocr_refuses)
{
	char *p = pages(1);
	ck_status(set1(p, PAGE, HSA_AMD_SVM_ATTRIB_READ_ONLY, 0), HSA_STATUS_SUCCESS);
	pair_t a = { HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE, gpus[0].handle };
	ck_status(hsa_amd_svm_attributes_get(p, PAGE, &a, 1), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	a = (pair_t){ HSA_AMD_SVM_ATTRIB_ACCESS_QUERY, 0 };
	ck_status(hsa_amd_svm_attributes_get(p, PAGE, &a, 1), HSA_STATUS_ERROR_INVALID_AGENT);
	/* nothing asked: no ioctl, whatever the range */
	ck_status(hsa_amd_svm_attributes_get(NULL, 0, &a, 0), HSA_STATUS_SUCCESS);
	munmap(p, PAGE);
	a = (pair_t){ HSA_AMD_SVM_ATTRIB_MIGRATION_GRANULARITY, 0 };
	ck_status(hsa_amd_svm_attributes_get(p, PAGE, &a, 1), HSA_STATUS_ERROR);
}
END_TEST

/* ROCr crashes on these (it dereferences them); hsalite refuses. */
START_TEST(null_lists_and_dead_handles_are_refused)
{
	char *p = pages(1);
	ck_status(hsa_amd_svm_attributes_set(p, PAGE, NULL, 1), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_svm_attributes_get(p, PAGE, NULL, 1), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(set1(p, PAGE, HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE, RT_BOGUS_HANDLE),
		  HSA_STATUS_ERROR_INVALID_AGENT);
	hsa_agent_t bogus = { RT_BOGUS_HANDLE };
	hsa_signal_t none = { 0 }, dead = { RT_BOGUS_HANDLE };
	ck_status(hsa_amd_svm_prefetch_async(p, PAGE, bogus, 0, NULL, none),
		  HSA_STATUS_ERROR_INVALID_AGENT);
	ck_status(hsa_amd_svm_prefetch_async(p, PAGE, gpus[0], 1, NULL, none),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_svm_prefetch_async(p, PAGE, gpus[0], 1, &dead, none),
		  HSA_STATUS_ERROR_INVALID_SIGNAL);
	ck_status(hsa_amd_svm_prefetch_async(p, PAGE, gpus[0], 0, NULL, dead),
		  HSA_STATUS_ERROR_INVALID_SIGNAL);
	munmap(p, PAGE);
}
END_TEST

START_TEST(calls_before_init_are_not_initialized)
{
	pair_t a = { HSA_AMD_SVM_ATTRIB_READ_ONLY, 0 };
	hsa_agent_t g = { 0 };
	hsa_signal_t s = { 0 };
	char buf[64];
	ck_status(hsa_amd_svm_attributes_set(buf, sizeof(buf), &a, 1),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_svm_attributes_get(buf, sizeof(buf), &a, 1),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_svm_prefetch_async(buf, sizeof(buf), g, 0, NULL, s),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
}
END_TEST

/* ---- round trips ---- */

START_TEST(fresh_memory_has_the_default_attributes)
{
	char *p = pages(4);
	pair_t a[8] = {
		{ HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG, 99 },
		{ HSA_AMD_SVM_ATTRIB_READ_ONLY, 99 },
		{ HSA_AMD_SVM_ATTRIB_HIVE_LOCAL, 99 },
		{ HSA_AMD_SVM_ATTRIB_MIGRATION_GRANULARITY, 99 },
		{ HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION, 99 },
		{ HSA_AMD_SVM_ATTRIB_READ_MOSTLY, 99 },
		{ HSA_AMD_SVM_ATTRIB_ACCESS_QUERY, gpus[0].handle },
		{ HSA_AMD_SVM_ATTRIB_ACCESS_QUERY, cpu.handle },
	};
	ck_status(hsa_amd_svm_attributes_get(p + 10, 4 * PAGE - 20, a, 8), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(a[0].value, HSA_AMD_SVM_GLOBAL_FLAG_FINE_GRAINED);
	ck_assert_uint_eq(a[1].value, 0);
	ck_assert_uint_eq(a[2].value, 0);
	ck_assert_uint_eq(a[3].value, 9); /* 2 MiB */
	ck_assert_uint_eq(a[4].value, 0); /* no agent */
	ck_assert_uint_eq(a[5].value, 0);
	/* with XNACK on every GPU may touch any memory */
	ck_assert_uint_eq(a[6].attribute, xnack ? HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE :
						  HSA_AMD_SVM_ATTRIB_AGENT_NO_ACCESS);
	ck_assert_uint_eq(a[7].attribute, HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE);
	ck_assert_uint_eq(get1(p, PAGE, HSA_AMD_SVM_ATTRIB_PREFETCH_LOCATION), 0);
	munmap(p, 4 * PAGE);
}
END_TEST

START_TEST(every_attribute_set_reads_back_as_rocr_reports_it)
{
	char *p = pages(4);
	hsa_agent_t g = gpus[n_gpus - 1];
	pair_t s[7] = {
		{ HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG, HSA_AMD_SVM_GLOBAL_FLAG_COARSE_GRAINED },
		{ HSA_AMD_SVM_ATTRIB_READ_ONLY, 1 },
		{ HSA_AMD_SVM_ATTRIB_MIGRATION_GRANULARITY, 30 }, /* capped at 18 */
		{ HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION, g.handle },
		{ HSA_AMD_SVM_ATTRIB_READ_MOSTLY, 1 },
		{ HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE_IN_PLACE, g.handle },
		{ HSA_AMD_SVM_ATTRIB_AGENT_NO_ACCESS, cpu.handle },
	};
	ck_status(hsa_amd_svm_attributes_set(p, 4 * PAGE, s, 7), HSA_STATUS_SUCCESS);
	pair_t a[7] = {
		{ HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG, 0 },
		{ HSA_AMD_SVM_ATTRIB_READ_ONLY, 0 },
		{ HSA_AMD_SVM_ATTRIB_MIGRATION_GRANULARITY, 0 },
		{ HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION, 0 },
		{ HSA_AMD_SVM_ATTRIB_READ_MOSTLY, 0 },
		{ HSA_AMD_SVM_ATTRIB_ACCESS_QUERY, g.handle },
		{ HSA_AMD_SVM_ATTRIB_ACCESS_QUERY, cpu.handle },
	};
	ck_status(hsa_amd_svm_attributes_get(p, 4 * PAGE, a, 7), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(a[0].value, HSA_AMD_SVM_GLOBAL_FLAG_COARSE_GRAINED);
	ck_assert_uint_eq(a[1].value, 8);    /* the GPU_RO bit, as ROCr answers */
	ck_assert_uint_eq(a[2].value, 18);
	ck_assert_uint_eq(a[3].value, g.handle);
	ck_assert_uint_eq(a[4].value, 0x20); /* the GPU_READ_MOSTLY bit */
	ck_assert_uint_eq(a[5].attribute, HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE_IN_PLACE);
	/* ROCr leaves a CPU's query as it was when the host lost access */
	ck_assert_uint_eq(a[6].attribute, HSA_AMD_SVM_ATTRIB_ACCESS_QUERY);

	/* and back */
	pair_t r[5] = {
		{ HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG, HSA_AMD_SVM_GLOBAL_FLAG_FINE_GRAINED },
		{ HSA_AMD_SVM_ATTRIB_READ_ONLY, 0 },
		{ HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION, cpu.handle },
		{ HSA_AMD_SVM_ATTRIB_AGENT_NO_ACCESS, g.handle },
		{ HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE, cpu.handle },
	};
	ck_status(hsa_amd_svm_attributes_set(p, 4 * PAGE, r, 5), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(get1(p, PAGE, HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG),
			  HSA_AMD_SVM_GLOBAL_FLAG_FINE_GRAINED);
	ck_assert_uint_eq(get1(p, PAGE, HSA_AMD_SVM_ATTRIB_READ_ONLY), 0);
	ck_assert_uint_eq(get1(p, PAGE, HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION), cpu.handle);
	ck_assert_uint_eq(access_of(p, 4 * PAGE, g), HSA_AMD_SVM_ATTRIB_AGENT_NO_ACCESS);
	ck_assert_uint_eq(access_of(p, 4 * PAGE, cpu), HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE);
	for (unsigned i = 0; i < n_gpus; i++) {
		ck_status(set1(p, PAGE, HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE, gpus[i].handle),
			  HSA_STATUS_SUCCESS);
		ck_assert_uint_eq(access_of(p, PAGE, gpus[i]), HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE);
		ck_status(set1(p, PAGE, HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION, gpus[i].handle),
			  HSA_STATUS_SUCCESS);
		ck_assert_uint_eq(get1(p, PAGE, HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION),
				  gpus[i].handle);
	}
	munmap(p, 4 * PAGE);
}
END_TEST

START_TEST(a_partly_changed_range_reports_common_values)
{
	char *p = pages(4);
	/* ranges over all four pages first: GET looks at ranges only */
	ck_status(hsa_amd_svm_attributes_set(p, 4 * PAGE, NULL, 0), HSA_STATUS_SUCCESS);
	pair_t s[3] = {
		{ HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG, HSA_AMD_SVM_GLOBAL_FLAG_COARSE_GRAINED },
		{ HSA_AMD_SVM_ATTRIB_MIGRATION_GRANULARITY, 12 },
		{ HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION, gpus[0].handle },
	};
	/* a misaligned pointer and size widen to the pages they touch */
	ck_status(hsa_amd_svm_attributes_set(p + 100, 2 * PAGE - 200, s, 3), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(get1(p, 4 * PAGE, HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG),
			  HSA_AMD_SVM_GLOBAL_FLAG_INDETERMINATE);
	ck_assert_uint_eq(get1(p, 2 * PAGE, HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG),
			  HSA_AMD_SVM_GLOBAL_FLAG_COARSE_GRAINED);
	ck_assert_uint_eq(get1(p + 2 * PAGE, 2 * PAGE, HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG),
			  HSA_AMD_SVM_GLOBAL_FLAG_FINE_GRAINED);
	ck_assert_uint_eq(get1(p, 4 * PAGE, HSA_AMD_SVM_ATTRIB_MIGRATION_GRANULARITY), 9);
	ck_assert_uint_eq(get1(p, 2 * PAGE, HSA_AMD_SVM_ATTRIB_MIGRATION_GRANULARITY), 12);
	ck_assert_uint_eq(get1(p, 4 * PAGE, HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION), 0);
	ck_assert_uint_eq(get1(p + PAGE, PAGE, HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION),
			  gpus[0].handle);
	munmap(p, 4 * PAGE);
}
END_TEST

/* ---- prefetch ---- */

static void wait_zero(hsa_signal_t s)
{
	ck_assert_int_eq(hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 0, WAIT_NS,
						   HSA_WAIT_STATE_BLOCKED), 0);
}

START_TEST(prefetch_sets_the_prefetch_location)
{
	char *p = pages(8);
	hsa_signal_t done;
	ck_status(hsa_signal_create(1, 0, NULL, &done), HSA_STATUS_SUCCESS);
	hsa_agent_t g = gpus[n_gpus - 1];
	ck_status(hsa_amd_svm_prefetch_async(p, 8 * PAGE, g, 0, NULL, done), HSA_STATUS_SUCCESS);
	wait_zero(done);
	ck_assert_uint_eq(get1(p, 8 * PAGE, HSA_AMD_SVM_ATTRIB_PREFETCH_LOCATION), g.handle);
	/* half of it to the CPU: the halves differ, then agree again */
	hsa_signal_store_relaxed(done, 1);
	ck_status(hsa_amd_svm_prefetch_async(p, 4 * PAGE, cpu, 0, NULL, done), HSA_STATUS_SUCCESS);
	wait_zero(done);
	ck_assert_uint_eq(get1(p, 4 * PAGE, HSA_AMD_SVM_ATTRIB_PREFETCH_LOCATION), cpu.handle);
	ck_assert_uint_eq(get1(p, 8 * PAGE, HSA_AMD_SVM_ATTRIB_PREFETCH_LOCATION), 0);
	/* one without a completion signal, then one with: in order */
	hsa_signal_t none = { 0 };
	hsa_signal_store_relaxed(done, 1);
	ck_status(hsa_amd_svm_prefetch_async(p, 8 * PAGE, cpu, 0, NULL, none), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_svm_prefetch_async(p + 4 * PAGE, 4 * PAGE, g, 0, NULL, done),
		  HSA_STATUS_SUCCESS);
	wait_zero(done);
	ck_assert_uint_eq(get1(p, 4 * PAGE, HSA_AMD_SVM_ATTRIB_PREFETCH_LOCATION), cpu.handle);
	ck_assert_uint_eq(get1(p + 4 * PAGE, 4 * PAGE, HSA_AMD_SVM_ATTRIB_PREFETCH_LOCATION),
			  g.handle);
	ck_status(hsa_signal_destroy(done), HSA_STATUS_SUCCESS);
	munmap(p, 8 * PAGE);
}
END_TEST

/* The dependencies are waited for from the last one down (ROCr chains
 * them so); meanwhile PREFETCH_LOCATION reports the pending destination. */
START_TEST(prefetch_waits_for_every_dependency)
{
	char *p = pages(4);
	hsa_signal_t deps[2], done;
	for (int i = 0; i < 2; i++)
		ck_status(hsa_signal_create(1, 0, NULL, &deps[i]), HSA_STATUS_SUCCESS);
	ck_status(hsa_signal_create(1, 0, NULL, &done), HSA_STATUS_SUCCESS);
	hsa_agent_t g = gpus[0];
	ck_status(hsa_amd_svm_prefetch_async(p, 4 * PAGE, g, 2, deps, done), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(get1(p, 4 * PAGE, HSA_AMD_SVM_ATTRIB_PREFETCH_LOCATION), g.handle);
	ck_assert_uint_eq(get1(p + PAGE, PAGE, HSA_AMD_SVM_ATTRIB_PREFETCH_LOCATION), g.handle);
	hsa_signal_store_screlease(deps[0], 0);
	/* the first dependency alone does not start it (50 ms: a wrong
	 * start would have run by then, the service thread is idle) */
	ck_assert_int_eq(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0,
						   50ull * 1000 * 1000, HSA_WAIT_STATE_BLOCKED),
			 1);
	hsa_signal_store_screlease(deps[1], 0);
	wait_zero(done);
	ck_assert_uint_eq(get1(p, 4 * PAGE, HSA_AMD_SVM_ATTRIB_PREFETCH_LOCATION), g.handle);
	for (int i = 0; i < 2; i++)
		ck_status(hsa_signal_destroy(deps[i]), HSA_STATUS_SUCCESS);
	ck_status(hsa_signal_destroy(done), HSA_STATUS_SUCCESS);
	munmap(p, 4 * PAGE);
}
END_TEST

/* hsalite only (ROCr 5.2.3 is not asked to shut down under a pending
 * handler): a prefetch still waiting at hsa_shut_down goes with its
 * runtime (LeakSanitizer sees it otherwise), and the next runtime's
 * PREFETCH_LOCATION knows nothing of it.  Three runtimes in a row. */
START_TEST(a_pending_prefetch_goes_with_its_runtime)
{
	char *p = pages(4);
	for (int cycle = 0; cycle < 3; cycle++) {
		if (cycle) {
			teardown();
			setup();
		}
		ck_assert_uint_eq(get1(p, 4 * PAGE, HSA_AMD_SVM_ATTRIB_PREFETCH_LOCATION), 0);
		hsa_signal_t gate, done;
		ck_status(hsa_signal_create(1, 0, NULL, &gate), HSA_STATUS_SUCCESS);
		ck_status(hsa_signal_create(1, 0, NULL, &done), HSA_STATUS_SUCCESS);
		hsa_agent_t g = gpus[0];
		ck_status(hsa_amd_svm_prefetch_async(p, 4 * PAGE, g, 1, &gate, done),
			  HSA_STATUS_SUCCESS);
		ck_assert_uint_eq(get1(p, 4 * PAGE, HSA_AMD_SVM_ATTRIB_PREFETCH_LOCATION),
				  g.handle);
		ck_assert_int_eq(hsa_signal_load_scacquire(done), 1);
		/* gate never opens: the shut-down drops the prefetch */
	}
	munmap(p, 4 * PAGE);
}
END_TEST

/* hsalite only: ROCr asserts on its async thread when the kernel refuses
 * a prefetch.  The refusal is logged; the waiter is still released. */
START_TEST(a_refused_prefetch_still_signals_completion)
{
	char *p = pages(2);
	munmap(p, 2 * PAGE);
	hsa_signal_t done;
	ck_status(hsa_signal_create(1, 0, NULL, &done), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_svm_prefetch_async(p, 2 * PAGE, gpus[0], 0, NULL, done),
		  HSA_STATUS_SUCCESS);
	wait_zero(done);
	hsa_signal_store_relaxed(done, 1);
	ck_status(hsa_amd_svm_prefetch_async(NULL, 0, cpu, 0, NULL, done), HSA_STATUS_SUCCESS);
	wait_zero(done);
	ck_status(hsa_signal_destroy(done), HSA_STATUS_SUCCESS);
}
END_TEST

/* ---- pointer info ---- */

START_TEST(pointer_info_of_svm_memory_is_unknown_as_on_rocr)
{
	char *p = pages(2);
	ck_status(set1(p, 2 * PAGE, HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE, gpus[0].handle),
		  HSA_STATUS_SUCCESS);
	hsa_amd_pointer_info_t info;
	memset(&info, 0xA5, sizeof(info));
	info.size = sizeof(info);
	uint32_t n = 99;
	hsa_agent_t *list = NULL;
	ck_status(hsa_amd_pointer_info(p + 8, &info, malloc, &n, &list), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(info.type, HSA_EXT_POINTER_TYPE_UNKNOWN);
	ck_assert_ptr_null(info.agentBaseAddress);
	ck_assert_ptr_null(info.hostBaseAddress);
	ck_assert_uint_eq(info.sizeInBytes, 0);
	ck_assert_uint_eq(info.agentOwner.handle, cpu.handle);
	ck_assert_uint_eq(info.global_flags, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED);
	ck_assert_uint_eq(n, 0);
	free(list);
	munmap(p, 2 * PAGE);
}
END_TEST

/* ---- a kernel on malloc'ed memory ---- */

static void load_vadd(hsa_agent_t agent)
{
	const char *path = getenv("HL_CO");
	ck_assert_msg(path, "HL_CO unset");
	vadd_kd = rt_load_kernel(path, agent, "vadd.kd");
	ck_status(hsa_queue_create(agent, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
				   UINT32_MAX, &queue), HSA_STATUS_SUCCESS);
}

/* c[i] = a[i] + b[i] on gpus[0], waited for. */
static void vadd(const float *a, const float *b, float *c, uint32_t n)
{
	struct {
		const float *a, *b;
		float *c;
		uint32_t n;
	} __attribute__((packed)) args = { a, b, c, n };
	void *ka = NULL;
	ck_status(hsa_amd_memory_pool_allocate(kernarg_pool, sizeof(args), 0, &ka),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_agents_allow_access(1, &gpus[0], NULL, ka), HSA_STATUS_SUCCESS);
	memcpy(ka, &args, sizeof(args));
	hsa_signal_t done;
	ck_status(hsa_signal_create(1, 0, NULL, &done), HSA_STATUS_SUCCESS);
	hl_dispatch_1d(queue, vadd_kd, ka, (n + 63) / 64 * 64, 0, true, done);
	wait_zero(done);
	ck_status(hsa_signal_destroy(done), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(ka), HSA_STATUS_SUCCESS);
}

static void check_sum(const float *c, uint32_t n, float base)
{
	for (uint32_t i = 0; i < n; i++)
		ck_assert_msg(c[i] == base + 3.0f * (float)i, "c[%u] = %f, expected %f", i,
			      (double)c[i], (double)(base + 3.0f * (float)i));
}

START_TEST(a_kernel_reads_and_writes_malloced_memory_set_accessible)
{
	load_vadd(gpus[0]);
	const uint32_t n = 5000; /* not a whole number of pages */
	float *a = malloc(n * sizeof(float)), *b = malloc(n * sizeof(float));
	float *c = malloc(n * sizeof(float));
	for (uint32_t i = 0; i < n; i++) {
		a[i] = 1.0f + (float)i;
		b[i] = 2.0f * (float)i;
		c[i] = -1.0f;
	}
	float *bufs[3] = { a, b, c };
	for (int i = 0; i < 3; i++)
		ck_status(set1(bufs[i], n * sizeof(float), HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE,
			       gpus[0].handle), HSA_STATUS_SUCCESS);
	vadd(a, b, c, n);
	check_sum(c, n, 1.0f);
	/* the CPU's later writes are what the GPU reads next */
	for (uint32_t i = 0; i < n; i++)
		a[i] = 5.0f + (float)i;
	vadd(a, b, c, n);
	check_sum(c, n, 5.0f);
	free(a);
	free(b);
	free(c);
}
END_TEST

/* XNACK on: the retry-fault handler maps any valid page; no SVM call. */
START_TEST(with_xnack_a_kernel_reaches_malloced_memory_unregistered)
{
	load_vadd(gpus[0]);
	const uint32_t n = 3000;
	float *a = malloc(n * sizeof(float)), *b = malloc(n * sizeof(float));
	float *c = malloc(n * sizeof(float));
	for (uint32_t i = 0; i < n; i++) {
		a[i] = 7.0f + (float)i;
		b[i] = 2.0f * (float)i;
		c[i] = 0.0f;
	}
	vadd(a, b, c, n);
	check_sum(c, n, 7.0f);
	free(a);
	free(b);
	free(c);
}
END_TEST

/* ---- threads (HL_SVM_SUITE=thread; the TSan pass runs it) ---- */

#define SVM_THREADS 4
#define SVM_ROUNDS 16

struct svm_worker {
	char *region;             /* 4 pages of its own */
	char *shared;             /* 4 pages every thread reads */
	char error[160];          /* empty: no failure */
};

static void *svm_worker_main(void *arg)
{
	struct svm_worker *w = arg;
	hsa_signal_t done;
	if (hsa_signal_create(1, 0, NULL, &done)) {
		snprintf(w->error, sizeof(w->error), "hsa_signal_create failed");
		return NULL;
	}
	for (int i = 0; i < SVM_ROUNDS && !w->error[0]; i++) {
		uintptr_t me = (uintptr_t)w->region;
		pair_t s[2] = { { HSA_AMD_SVM_ATTRIB_MIGRATION_GRANULARITY, (me >> 12) % 7 + i % 5 },
				{ HSA_AMD_SVM_ATTRIB_READ_ONLY, (uint64_t)(i & 1) } };
		pair_t g[3] = { { HSA_AMD_SVM_ATTRIB_MIGRATION_GRANULARITY, 0 },
				{ HSA_AMD_SVM_ATTRIB_READ_ONLY, 0 },
				{ HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG, 0 } };
		hsa_agent_t dest = i & 1 ? gpus[i % n_gpus] : cpu;
		hsa_signal_store_relaxed(done, 1);
		if (hsa_amd_svm_attributes_set(w->region, 4 * PAGE, s, 2) ||
		    hsa_amd_svm_prefetch_async(w->region, 4 * PAGE, dest, 0, NULL, done) ||
		    hsa_amd_svm_attributes_get(w->region, 4 * PAGE, g, 2)) {
			snprintf(w->error, sizeof(w->error), "round %d: a call failed", i);
			break;
		}
		pair_t where = { HSA_AMD_SVM_ATTRIB_PREFETCH_LOCATION, 0 };
		if (hsa_amd_svm_attributes_get(w->region + PAGE, 2 * PAGE, &where, 1) ||
		    where.value != dest.handle)
			snprintf(w->error, sizeof(w->error), "round %d: prefetch location 0x%llx, "
				 "expected 0x%llx", i, (unsigned long long)where.value,
				 (unsigned long long)dest.handle);
		if (g[0].value != s[0].value || g[1].value != (i & 1 ? 8u : 0u))
			snprintf(w->error, sizeof(w->error), "round %d: granularity %llu read-only "
				 "%llu", i, (unsigned long long)g[0].value,
				 (unsigned long long)g[1].value);
		if (hsa_amd_svm_attributes_get(w->shared, 4 * PAGE, &g[2], 1) ||
		    g[2].value != HSA_AMD_SVM_GLOBAL_FLAG_COARSE_GRAINED)
			snprintf(w->error, sizeof(w->error), "round %d: shared range global flag %llu",
				 i, (unsigned long long)g[2].value);
		if (hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, WAIT_NS,
					      HSA_WAIT_STATE_BLOCKED))
			snprintf(w->error, sizeof(w->error), "round %d: the prefetch did not complete",
				 i);
	}
	hsa_signal_destroy(done);
	return NULL;
}

START_TEST(threads_set_get_and_prefetch_at_once)
{
	char *shared = pages(4);
	ck_status(set1(shared, 4 * PAGE, HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG,
		       HSA_AMD_SVM_GLOBAL_FLAG_COARSE_GRAINED), HSA_STATUS_SUCCESS);
	struct svm_worker w[SVM_THREADS];
	pthread_t t[SVM_THREADS];
	for (int i = 0; i < SVM_THREADS; i++) {
		w[i] = (struct svm_worker){ .region = pages(4), .shared = shared };
		ck_assert_int_eq(pthread_create(&t[i], NULL, svm_worker_main, &w[i]), 0);
	}
	for (int i = 0; i < SVM_THREADS; i++)
		pthread_join(t[i], NULL);
	for (int i = 0; i < SVM_THREADS; i++) {
		ck_assert_msg(!w[i].error[0], "thread %d: %s", i, w[i].error);
		munmap(w[i].region, 4 * PAGE);
	}
	munmap(shared, 4 * PAGE);
}
END_TEST

static Suite *svm_suite(void)
{
	Suite *s = suite_create("runtime_svm");
	TCase *pre = tcase_create("uninit");
	tcase_add_test(pre, calls_before_init_are_not_initialized);
	suite_add_tcase(s, pre);

	TCase *tc = tcase_create("svm");
	tcase_set_timeout(tc, 300);
	tcase_add_checked_fixture(tc, setup, teardown);
	if (getenv("HL_SVM_SUITE") && !strcmp(getenv("HL_SVM_SUITE"), "thread")) {
		tcase_add_test(tc, threads_set_get_and_prefetch_at_once);
		suite_add_tcase(s, tc);
		return s;
	}
	tcase_add_test(tc, svm_supported_and_accessible_by_default_follow_xnack);
	tcase_add_test(tc, set_refuses_what_rocr_refuses);
	tcase_add_test(tc, get_refuses_what_rocr_refuses);
	if (!(getenv("HL_PEER_ROCR") && !strcmp(getenv("HL_PEER_ROCR"), "1"))) {
		tcase_add_test(tc, null_lists_and_dead_handles_are_refused);
		tcase_add_test(tc, a_refused_prefetch_still_signals_completion);
		tcase_add_test(tc, a_pending_prefetch_goes_with_its_runtime);
	}
	tcase_add_test(tc, fresh_memory_has_the_default_attributes);
	tcase_add_test(tc, every_attribute_set_reads_back_as_rocr_reports_it);
	tcase_add_test(tc, a_partly_changed_range_reports_common_values);
	tcase_add_test(tc, prefetch_sets_the_prefetch_location);
	tcase_add_test(tc, prefetch_waits_for_every_dependency);
	tcase_add_test(tc, pointer_info_of_svm_memory_is_unknown_as_on_rocr);
	tcase_add_test(tc, a_kernel_reads_and_writes_malloced_memory_set_accessible);
	if (getenv("HL_XNACK") && !strcmp(getenv("HL_XNACK"), "1"))
		tcase_add_test(tc, with_xnack_a_kernel_reaches_malloced_memory_unregistered);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(svm_suite)
