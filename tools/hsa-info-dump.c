/*
 * hsa-info-dump: every attribute the runtime answers, one "key = value" line
 * each, for diffing two runtimes on the same machine:
 *
 *   kfdemu -- hsa-info-dump > ours.txt
 *   LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu kfdemu -- hsa-info-dump > rocr.txt
 *   diff rocr.txt ours.txt
 *
 * It walks system attributes, then per agent every core and AMD agent
 * attribute number, its caches, ISAs (all ISA attributes), regions and
 * memory pools (all attributes), and the access/hops of every agent to every
 * pool.  A failing query prints its status instead of a value.  Handles and
 * timestamps, which differ between runs, are printed as "handle"/"time".
 * Only the standard HSA API is used.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "hsa/hsa.h"
#include "hsa/hsa_ext_amd.h"

#define MAX_AGENTS 16

static hsa_agent_t agents[MAX_AGENTS];
static int n_agents;

static void print_bytes(const char *key, const void *v, size_t n, hsa_status_t s)
{
	if (s != HSA_STATUS_SUCCESS) {
		printf("%s = status %#x\n", key, (unsigned)s);
		return;
	}
	const unsigned char *b = v;
	size_t last = n;
	while (last > 0 && b[last - 1] == 0)
		last--;
	printf("%s =", key);
	for (size_t i = 0; i < last; i++)
		printf(" %02x", b[i]);
	printf("%s\n", last ? "" : " 0");
}

static hsa_status_t collect_agent(hsa_agent_t a, void *d)
{
	(void)d;
	if (n_agents < MAX_AGENTS)
		agents[n_agents++] = a;
	return HSA_STATUS_SUCCESS;
}

/* Attributes whose value is a pointer or handle: print only success. */
static int is_handle_attr(uint32_t a)
{
	return a == HSA_AGENT_INFO_ISA || a == 0xA00E /* HDP_FLUSH */ || a == 0xA113;
}

static void dump_agent_info(int i)
{
	static const uint32_t ranges[][2] = { { 0, 24 }, { 0xA000, 0xA016 }, { 0xA107, 0xA115 } };
	for (size_t r = 0; r < sizeof(ranges) / sizeof(ranges[0]); r++)
		for (uint32_t a = ranges[r][0]; a <= ranges[r][1]; a++) {
			unsigned char v[256];
			memset(v, 0, sizeof(v));
			hsa_status_t s = hsa_agent_get_info(agents[i], (hsa_agent_info_t)a, v);
			char key[64];
			snprintf(key, sizeof(key), "agent%d.info.%#x", i, a);
			if (s == HSA_STATUS_SUCCESS && is_handle_attr(a))
				printf("%s = handle\n", key);
			else
				print_bytes(key, v, a == HSA_AGENT_INFO_EXTENSIONS ? 128 : 64, s);
		}
}

static hsa_status_t dump_cache(hsa_cache_t c, void *d)
{
	int *idx = d;
	uint8_t level = 0;
	uint32_t size = 0;
	hsa_cache_get_info(c, HSA_CACHE_INFO_LEVEL, &level);
	hsa_cache_get_info(c, HSA_CACHE_INFO_SIZE, &size);
	printf("agent.cache%d = level %u size %u\n", (*idx)++, level, size);
	return HSA_STATUS_SUCCESS;
}

static hsa_status_t dump_isa(hsa_isa_t isa, void *d)
{
	(void)d;
	for (uint32_t a = 0; a <= 17; a++) {
		unsigned char v[256];
		memset(v, 0, sizeof(v));
		hsa_status_t s = hsa_isa_get_info_alt(isa, (hsa_isa_info_t)a, v);
		char key[64];
		snprintf(key, sizeof(key), "isa.info.%u", a);
		if (a == HSA_ISA_INFO_NAME && s == HSA_STATUS_SUCCESS)
			printf("%s = %s\n", key, (char *)v);
		else
			print_bytes(key, v, 32, s);
	}
	return HSA_STATUS_SUCCESS;
}

static hsa_status_t dump_region(hsa_region_t region, void *d)
{
	int *idx = d;
	static const uint32_t attrs[] = { 0, 1, 2, 4, 5, 6, 7, 8, 0xA000, 0xA001, 0xA002, 0xA003 };
	for (size_t k = 0; k < sizeof(attrs) / sizeof(attrs[0]); k++) {
		unsigned char v[64];
		memset(v, 0, sizeof(v));
		hsa_status_t s = hsa_region_get_info(region, (hsa_region_info_t)attrs[k], v);
		char key[64];
		snprintf(key, sizeof(key), "region%d.info.%#x", *idx, attrs[k]);
		if (attrs[k] == 0xA001 && s == HSA_STATUS_SUCCESS) /* BASE: an address */
			printf("%s = handle\n", key);
		else
			print_bytes(key, v, 8, s);
	}
	(*idx)++;
	return HSA_STATUS_SUCCESS;
}

static hsa_status_t dump_pool(hsa_amd_memory_pool_t pool, void *d)
{
	int *idx = d;
	for (uint32_t a = 0; a <= 18; a++) {
		unsigned char v[64];
		memset(v, 0, sizeof(v));
		hsa_status_t s = hsa_amd_memory_pool_get_info(pool, (hsa_amd_memory_pool_info_t)a, v);
		char key[64];
		snprintf(key, sizeof(key), "pool%d.info.%u", *idx, a);
		print_bytes(key, v, 8, s);
	}
	for (int i = 0; i < n_agents; i++)
		for (uint32_t a = 0; a <= 2; a++) {
			unsigned char v[64];
			memset(v, 0, sizeof(v));
			hsa_status_t s = hsa_amd_agent_memory_pool_get_info(
				agents[i], pool, (hsa_amd_agent_memory_pool_info_t)a, v);
			char key[64];
			snprintf(key, sizeof(key), "pool%d.agent%d.%u", *idx, i, a);
			print_bytes(key, v, a == 2 ? sizeof(hsa_amd_memory_pool_link_info_t) : 4, s);
		}
	(*idx)++;
	return HSA_STATUS_SUCCESS;
}

int main(void)
{
	hsa_status_t s = hsa_init();
	if (s != HSA_STATUS_SUCCESS) {
		printf("hsa_init = status %#x\n", (unsigned)s);
		return 1;
	}
	static const uint32_t sys[] = { 0, 1, 3, 4, 5, 6, 7, 0x201, 0x202, 0x203, 0x204, 0x205,
					0x206, 0x207, 0x208 };
	for (size_t k = 0; k < sizeof(sys) / sizeof(sys[0]); k++) {
		unsigned char v[128];
		memset(v, 0, sizeof(v));
		char key[64];
		snprintf(key, sizeof(key), "system.%#x", sys[k]);
		hsa_status_t st = hsa_system_get_info((hsa_system_info_t)sys[k], v);
		print_bytes(key, v, sys[k] == 7 ? 128 : 8, st);
	}
	hsa_iterate_agents(collect_agent, NULL);
	printf("agents = %d\n", n_agents);
	for (int i = 0; i < n_agents; i++) {
		dump_agent_info(i);
		int idx = 0;
		hsa_agent_iterate_caches(agents[i], dump_cache, &idx);
		hsa_agent_iterate_isas(agents[i], dump_isa, NULL);
		idx = 0;
		hsa_agent_iterate_regions(agents[i], dump_region, &idx);
		idx = 0;
		hsa_amd_agent_iterate_memory_pools(agents[i], dump_pool, &idx);
	}
	hsa_shut_down();
	return 0;
}
