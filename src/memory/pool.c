/*
 * Memory regions and AMD memory pools: the same objects seen through two
 * APIs (a region handle equals the pool handle, as in ROCr).  The values
 * are ROCr 5.2.3's (amd_memory_region.cpp): page granule and alignment for
 * allocatable pools, 0 for the group segment; system memory is accessible
 * by all agents and host-accessible; VRAM is neither (it becomes visible to
 * other agents through hsa_amd_agents_allow_access).
 *
 * Access and links (GetAgentPoolInfo): the owner and CPUs on system memory
 * are allowed by default; other GPUs on system memory, and any agent with a
 * path of io_links to a VRAM pool's GPU, are disallowed by default; the rest
 * (the LDS of another GPU) is never allowed.  Hops and link properties come
 * from the KFD io_links, walked breadth-first.
 */
#include <string.h>

#include "memory/memory_priv.h"

static uint32_t pool_global_flags(const struct hl_pool *p)
{
	switch (p->kind) {
	case HL_POOL_SYSTEM_FINE:
	case HL_POOL_VRAM_FINE:
		return HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED;
	case HL_POOL_SYSTEM_KERNARG:
		return HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT |
		       HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED;
	case HL_POOL_SYSTEM_COARSE:
	case HL_POOL_VRAM:
		return HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED;
	case HL_POOL_LDS:
	default:
		return 0;
	}
}

/* The answers, one getter each (the tables below; info.c copies them
 * out).  Sizes are ROCr 5.2.3's: uint32_t enums and flags, size_t sizes,
 * bool switches. */
HL_INFO_GETTER(pool_segment, struct hl_pool, uint32_t,
	       q->kind == HL_POOL_LDS ? HSA_REGION_SEGMENT_GROUP : HSA_REGION_SEGMENT_GLOBAL)
HL_INFO_GETTER(pool_flags, struct hl_pool, uint32_t, pool_global_flags(q))
HL_INFO_GETTER(pool_size, struct hl_pool, size_t, (size_t)q->size)
HL_INFO_GETTER(pool_alloc_max, struct hl_pool, size_t, (size_t)q->alloc_max)
HL_INFO_GETTER(pool_alloc_allowed, struct hl_pool, bool, hl_pool_is_allocatable(q))
HL_INFO_GETTER(pool_alloc_granule, struct hl_pool, size_t,
	       hl_pool_is_allocatable(q) ? HL_PAGE_SIZE : 0)
HL_INFO_GETTER(pool_system, struct hl_pool, bool, hl_pool_is_system(q))
HL_INFO_GETTER(pool_base, struct hl_pool, void *, (void *)(uintptr_t)q->base)
HL_INFO_GETTER(pool_bus_width, struct hl_pool, uint32_t, q->bus_width)
HL_INFO_GETTER(pool_clock, struct hl_pool, uint32_t, q->mem_clk_max)
/* ROCr 1.18 knows a location for system memory and VRAM only: the LDS
 * pool's is INVALID_ARGUMENT. */
static hsa_status_t pool_location(const void *o, void *out)
{
	const struct hl_pool *q = o;
	uint32_t loc;
	if (hl_pool_is_system(q))
		loc = HL_AMD_MEMORY_POOL_LOCATION_CPU;
	else if (q->kind != HL_POOL_LDS)
		loc = HL_AMD_MEMORY_POOL_LOCATION_GPU;
	else
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	memcpy(out, &loc, sizeof(loc));
	return HSA_STATUS_SUCCESS;
}

/* HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_REC_GRANULE, ROCr 1.18's
 * GetPoolInfo: a page for system memory; for VRAM the block small
 * allocations are carved from (suballoc.c, 2 MiB), a page when
 * HSA_DISABLE_FRAGMENT_ALLOCATOR=1 turns carving off; 0 for the LDS. */
static size_t pool_rec_granule(const struct hl_runtime *rt, const struct hl_pool *p)
{
	if (hl_pool_is_system(p))
		return HL_PAGE_SIZE;
	if (p->kind == HL_POOL_LDS)
		return 0;
	return rt->env.no_fragment_alloc ? HL_PAGE_SIZE : (size_t)hl_suballoc_block_size();
}

/* The attributes regions and pools share, by region number (the pool enum
 * uses the same numbers, but for ALLOC_MAX_SIZE: 4 for regions, 16 for
 * pools). */
#define POOL_COMMON_INFO                                                              \
	{ HSA_REGION_INFO_SEGMENT, sizeof(uint32_t), pool_segment },                  \
	{ HSA_REGION_INFO_GLOBAL_FLAGS, sizeof(uint32_t), pool_flags },               \
	{ HSA_REGION_INFO_SIZE, sizeof(size_t), pool_size },                          \
	{ HSA_REGION_INFO_RUNTIME_ALLOC_ALLOWED, sizeof(bool), pool_alloc_allowed },  \
	{ HSA_REGION_INFO_RUNTIME_ALLOC_GRANULE, sizeof(size_t), pool_alloc_granule }, \
	{ HSA_REGION_INFO_RUNTIME_ALLOC_ALIGNMENT, sizeof(size_t), pool_alloc_granule }

static const struct hl_info_attr region_info[] = {
	POOL_COMMON_INFO,
	{ HSA_REGION_INFO_ALLOC_MAX_SIZE, sizeof(size_t), pool_alloc_max },
	{ HSA_AMD_REGION_INFO_HOST_ACCESSIBLE, sizeof(bool), pool_system },
	{ HSA_AMD_REGION_INFO_BASE, sizeof(void *), pool_base },
	{ HSA_AMD_REGION_INFO_BUS_WIDTH, sizeof(uint32_t), pool_bus_width },
	{ HSA_AMD_REGION_INFO_MAX_CLOCK_FREQUENCY, sizeof(uint32_t), pool_clock },
};

static const struct hl_info_attr pool_info[] = {
	POOL_COMMON_INFO,
	{ HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE, sizeof(size_t), pool_alloc_max },
	{ HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL, sizeof(bool), pool_system },
	{ HL_AMD_MEMORY_POOL_INFO_LOCATION, sizeof(uint32_t), pool_location },
};

hsa_status_t hsa_region_get_info(hsa_region_t region, hsa_region_info_t attribute, void *value)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!value)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	const struct hl_pool *p = hl_pool_lookup(rt, region.handle);
	if (!p)
		return HSA_STATUS_ERROR_INVALID_REGION;
	bool found;
	return hl_info_answer(region_info, HL_INFO_COUNT(region_info), (uint32_t)attribute, p,
			      value, &found);
}

hsa_status_t hsa_amd_memory_pool_get_info(hsa_amd_memory_pool_t memory_pool,
					  hsa_amd_memory_pool_info_t attribute, void *value)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!value)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	const struct hl_pool *p = hl_pool_lookup(rt, memory_pool.handle);
	if (!p)
		return (hsa_status_t)HSA_STATUS_ERROR_INVALID_MEMORY_POOL;
	if (attribute == HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_REC_GRANULE) {
		size_t g = pool_rec_granule(rt, p);
		memcpy(value, &g, sizeof(g));
		return HSA_STATUS_SUCCESS;
	}
	bool found;
	return hl_info_answer(pool_info, HL_INFO_COUNT(pool_info), (uint32_t)attribute, p, value,
			      &found);
}

typedef hsa_status_t (*pool_visit_fn)(uint64_t handle, void *cb, void *data);

static hsa_status_t visit_region(uint64_t handle, void *cb, void *data)
{
	hsa_region_t r = { handle };
	return ((hsa_status_t (*)(hsa_region_t, void *))cb)(r, data);
}

static hsa_status_t visit_pool(uint64_t handle, void *cb, void *data)
{
	hsa_amd_memory_pool_t p = { handle };
	return ((hsa_status_t (*)(hsa_amd_memory_pool_t, void *))cb)(p, data);
}

static hsa_status_t visit_pools(const struct hl_agent *a, pool_visit_fn visit, void *cb,
				void *data)
{
	for (uint32_t i = 0; i < a->n_pools; i++) {
		hsa_status_t s = visit((uint64_t)(uintptr_t)&a->pools[i], cb, data);
		if (s != HSA_STATUS_SUCCESS)
			return s;
	}
	return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_agent_iterate_regions(hsa_agent_t agent,
				       hsa_status_t (*callback)(hsa_region_t region, void *data),
				       void *data)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!callback)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	const struct hl_agent *a = hl_agent_lookup(rt, agent);
	if (!a)
		return HSA_STATUS_ERROR_INVALID_AGENT;
	/* Regions an agent can use: a GPU's own, then every CPU's system
	 * memory (ROCr: VisitRegion with include_peer). */
	hsa_status_t s = HSA_STATUS_SUCCESS;
	if (a->type == HSA_DEVICE_TYPE_GPU)
		s = visit_pools(a, visit_region, (void *)callback, data);
	for (uint32_t i = 0; s == HSA_STATUS_SUCCESS && i < rt->n_cpus; i++)
		s = visit_pools(&rt->agents[i], visit_region, (void *)callback, data);
	return s;
}

hsa_status_t hsa_amd_agent_iterate_memory_pools(hsa_agent_t agent,
						hsa_status_t (*callback)(hsa_amd_memory_pool_t pool,
									 void *data),
						void *data)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!callback)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	const struct hl_agent *a = hl_agent_lookup(rt, agent);
	if (!a)
		return HSA_STATUS_ERROR_INVALID_AGENT;
	return visit_pools(a, visit_pool, (void *)callback, data);
}

/* ---- links ---- */

struct link_path {
	uint32_t hops;
	hsa_amd_memory_pool_link_info_t info;
};

static hsa_amd_link_info_type_t link_type(uint32_t kfd_type)
{
	switch (kfd_type) {
	case 1:
		return HSA_AMD_LINK_INFO_TYPE_HYPERTRANSPORT;
	case KFD_IOLINK_TYPE_XGMI:
		return HSA_AMD_LINK_INFO_TYPE_XGMI;
	default:
		return HSA_AMD_LINK_INFO_TYPE_PCIE;
	}
}

static void link_add(struct link_path *p, const struct kfd_io_link *l)
{
	hsa_amd_memory_pool_link_info_t *i = &p->info;
	if (p->hops == 0) {
		i->min_latency = l->min_latency;
		i->max_latency = l->max_latency;
		i->min_bandwidth = l->min_bandwidth;
		i->max_bandwidth = l->max_bandwidth;
		/* io_link flags: 2 non-coherent, 4 no 32-bit atomics, 8 no 64-bit. */
		i->coherent_support = !(l->flags & 2);
		i->atomic_support_32bit = !(l->flags & 4);
		i->atomic_support_64bit = !(l->flags & 8);
		i->link_type = link_type(l->type);
		i->numa_distance = l->weight;
	} else {
		i->min_latency += l->min_latency;
		i->max_latency += l->max_latency;
		if (l->min_bandwidth < i->min_bandwidth)
			i->min_bandwidth = l->min_bandwidth;
		if (l->max_bandwidth < i->max_bandwidth)
			i->max_bandwidth = l->max_bandwidth;
		i->coherent_support &= !(l->flags & 2);
		i->atomic_support_32bit &= !(l->flags & 4);
		i->atomic_support_64bit &= !(l->flags & 8);
		i->numa_distance += l->weight;
	}
	p->hops++;
}

/* Shortest io_link path from node `from` to node `to` (BFS over at most 64
 * nodes); hops 0 for the same node or when no path exists (*found false). */
static void link_path_find(const struct kfd_topology *t, uint32_t from, uint32_t to,
			   struct link_path *out, bool *found)
{
	memset(out, 0, sizeof(*out));
	*found = from == to;
	if (from == to || from >= t->n_nodes || to >= t->n_nodes || t->n_nodes > 64)
		return;
	int prev_node[64], prev_link[64];
	uint32_t queue[64], head = 0, tail = 0;
	for (uint32_t i = 0; i < t->n_nodes; i++)
		prev_node[i] = -1;
	prev_node[from] = (int)from;
	queue[tail++] = from;
	while (head < tail && prev_node[to] < 0) {
		uint32_t n = queue[head++];
		const struct kfd_node *node = &t->nodes[n];
		for (uint32_t l = 0; l < node->n_io_links; l++) {
			uint32_t next = node->io_links[l].node_to;
			if (next >= t->n_nodes || prev_node[next] >= 0)
				continue;
			prev_node[next] = (int)n;
			prev_link[next] = (int)l;
			queue[tail++] = next;
		}
	}
	if (prev_node[to] < 0)
		return;
	/* Walk back, then add the links from `from` forward. */
	uint32_t path[64], len = 0;
	for (uint32_t n = to; n != from; n = (uint32_t)prev_node[n])
		path[len++] = n;
	while (len--) {
		uint32_t n = path[len];
		link_add(out, &t->nodes[prev_node[n]].io_links[prev_link[n]]);
	}
	*found = true;
}

hsa_amd_memory_pool_access_t hl_pool_access(const struct hl_runtime *rt,
					     const struct hl_agent *agent,
					     const struct hl_pool *pool)
{
	if ((hl_pool_is_system(pool) && agent->type == HSA_DEVICE_TYPE_CPU) ||
	    agent == pool->owner)
		return HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT;
	if (hl_pool_is_system(pool))
		return HSA_AMD_MEMORY_POOL_ACCESS_DISALLOWED_BY_DEFAULT;
	struct link_path path;
	bool found;
	link_path_find(&rt->proc->topology, agent->node_id, pool->owner->node_id, &path, &found);
	if (pool->kind != HL_POOL_LDS && found && path.hops > 0)
		return HSA_AMD_MEMORY_POOL_ACCESS_DISALLOWED_BY_DEFAULT;
	return HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED;
}

hsa_status_t hsa_amd_agent_memory_pool_get_info(hsa_agent_t agent,
						hsa_amd_memory_pool_t memory_pool,
						hsa_amd_agent_memory_pool_info_t attribute,
						void *value)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!value)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	const struct hl_agent *a = hl_agent_lookup(rt, agent);
	if (!a)
		return HSA_STATUS_ERROR_INVALID_AGENT;
	const struct hl_pool *p = hl_pool_lookup(rt, memory_pool.handle);
	if (!p)
		return (hsa_status_t)HSA_STATUS_ERROR_INVALID_MEMORY_POOL;

	hsa_amd_memory_pool_access_t access = hl_pool_access(rt, a, p);
	struct link_path path;
	bool found;
	link_path_find(&rt->proc->topology, a->node_id, p->owner->node_id, &path, &found);
	bool reachable = access != HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED && found;
	switch ((int)attribute) {
	case HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS:
		*(hsa_amd_memory_pool_access_t *)value = access;
		break;
	case HSA_AMD_AGENT_MEMORY_POOL_INFO_NUM_LINK_HOPS:
		*(uint32_t *)value = reachable ? path.hops : 0;
		break;
	case HSA_AMD_AGENT_MEMORY_POOL_INFO_LINK_INFO:
		/* One entry describing the whole path (ROCr 5.2.3 copies one). */
		memset(value, 0, sizeof(hsa_amd_memory_pool_link_info_t));
		if (reachable && path.hops > 0)
			memcpy(value, &path.info, sizeof(path.info));
		break;
	default:
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	}
	return HSA_STATUS_SUCCESS;
}
