/*
 * Agents: built once at hsa_init from the KFD topology, as ROCr's
 * BuildTopology does, then read-only.
 *
 *  - One CPU agent per topology node with CPU cores, first, in node order.
 *  - One GPU agent per GPU the thunk opened (kfd_process.gpus, topology
 *    order), filtered and reordered by ROCR_VISIBLE_DEVICES.  Its ISA comes
 *    from gfx_target_version, or HSA_OVERRIDE_GFX_VERSION[_<node>], plus the
 *    SRAM EDC capability bit and the process's XNACK mode.
 *  - Pools per agent in ROCr 5.2.3's order: a CPU node gets system memory
 *    fine-grained, kernarg (fine-grained) and coarse-grained; a dGPU gets
 *    VRAM coarse-grained (plus fine-grained in an XGMI hive) and its LDS
 *    (group segment), which libhsakmt synthesises from lds_size_in_kb.
 *
 * hsa_iterate_agents lives here; hsa_agent_get_info in agent_info.c.
 */
#include <amdgpu.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/runtime_priv.h"
#include "runtime/runtime.h"
#include "util/log.h"

/* "model name : AMD EPYC ..." from /proc/cpuinfo, as libhsakmt names CPU
 * nodes; empty when the file has none (the field is x86's). */
static void cpu_model_name(char *out, size_t len)
{
	out[0] = '\0';
	FILE *f = fopen("/proc/cpuinfo", "re");
	if (!f)
		return;
	char line[512];
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "model name", 10) != 0)
			continue;
		char *colon = strchr(line, ':');
		if (!colon)
			continue;
		char *v = colon + 1;
		while (*v == ' ' || *v == '\t')
			v++;
		v[strcspn(v, "\n")] = '\0';
		snprintf(out, len, "%s", v);
		break;
	}
	fclose(f);
}

static void pool_init(struct hl_pool *p, struct hl_agent *owner, enum hl_pool_kind kind,
		      uint64_t size, const struct kfd_mem_bank *bank)
{
	memset(p, 0, sizeof(*p));
	p->owner = owner;
	p->kind = kind;
	p->size = size;
	p->alloc_max = hl_pool_is_allocatable(p) ? size & ~(uint64_t)(HL_PAGE_SIZE - 1) : 0;
	if (bank) {
		p->bus_width = bank->width;
		p->mem_clk_max = bank->mem_clk_max;
	}
	p->host_access = kind <= HL_POOL_SYSTEM_COARSE;
}

static void cpu_agent_init(struct hl_runtime *rt, struct hl_agent *a, const struct kfd_node *node,
			   const char *model, struct hl_pool **pools, struct hl_cache **caches)
{
	a->type = HSA_DEVICE_TYPE_CPU;
	a->node = node;
	a->node_id = node->index;
	snprintf(a->name, sizeof(a->name), "%s", model);
	snprintf(a->product_name, sizeof(a->product_name), "%s", model);
	snprintf(a->uuid, sizeof(a->uuid), "CPU-XX");
	a->profile = HSA_PROFILE_FULL;
	a->cacheline_size = 64; /* ROCr hard-codes it for CPUs */
	a->timestamp_freq = HL_SYSTEM_TIMESTAMP_FREQUENCY;

	const struct kfd_mem_bank *sys = NULL;
	for (uint32_t i = 0; i < node->n_mem_banks; i++)
		if (node->mem_banks[i].heap_type == KFD_HEAP_TYPE_SYSTEM &&
		    node->mem_banks[i].size_in_bytes > 0) {
			sys = &node->mem_banks[i];
			break;
		}
	uint64_t size = sys ? sys->size_in_bytes : 0;
	if (sys) {
		a->mem_width = sys->width;
		a->mem_clk_max = sys->mem_clk_max;
	}
	a->pools = *pools;
	pool_init((*pools)++, a, HL_POOL_SYSTEM_FINE, size, sys);
	pool_init((*pools)++, a, HL_POOL_SYSTEM_KERNARG, size, sys);
	/* ROCr leaves coarse-grained system memory out on APU nodes. */
	if (node->props.simd_count == 0)
		pool_init((*pools)++, a, HL_POOL_SYSTEM_COARSE, size, sys);
	a->n_pools = (uint32_t)(*pools - a->pools);
	(void)rt;

	a->caches = *caches;
	a->n_caches = hl_cache_fill_cpu(a, *caches);
	*caches += a->n_caches;
}

/* The process's XNACK mode, as ROCr's BindXnackMode: HSA_XNACK=0/1 sets it
 * first (before any queue exists, the only time KFD accepts a change), and
 * when the kernel takes it that is the mode; otherwise SET_XNACK_MODE with
 * -1 reads what is in force.  A kernel that answers neither (no ioctl, as
 * before KFD 1.5) means off, as ROCr assumes. */
static bool configure_xnack(struct hl_runtime *rt)
{
	struct kfd_args_set_xnack_mode args;
	int err;
	if (rt->env.xnack >= 0) {
		args.xnack_enabled = rt->env.xnack;
		err = kfd_ioctl(rt->proc->fd, KFD_IOCTL_SET_XNACK_MODE, &args);
		if (err == 0)
			return rt->env.xnack == 1;
		hl_warn("runtime", "HSA_XNACK=%d: SET_XNACK_MODE: %s; keeping the current mode",
			rt->env.xnack, hl_errno_name(err));
	}
	args.xnack_enabled = -1;
	err = kfd_ioctl(rt->proc->fd, KFD_IOCTL_SET_XNACK_MODE, &args);
	if (err == 0)
		return args.xnack_enabled > 0;
	hl_debug("runtime", "SET_XNACK_MODE query: %s; assuming xnack off", hl_errno_name(err));
	return false;
}

static int gpu_agent_init(struct hl_runtime *rt, struct hl_agent *a, struct kfd_gpu *gpu,
			  const char *uuid, struct hl_pool **pools,
			  struct hl_cache **caches)
{
	const struct kfd_node *node = gpu->node;
	const struct kfd_node_properties *np = &node->props;

	a->type = HSA_DEVICE_TYPE_GPU;
	a->node = node;
	a->gpu = gpu;
	a->node_id = node->index;
	snprintf(a->uuid, sizeof(a->uuid), "%s", uuid);
	snprintf(a->product_name, sizeof(a->product_name), "%.63s", gpu->marketing_name);
	a->profile = np->cpu_cores_count > 0 ? HSA_PROFILE_FULL : HSA_PROFILE_BASE;
	/* ROCr's default: coherent on an APU, non-coherent on a dGPU. */
	atomic_init(&a->coherency, a->profile == HSA_PROFILE_FULL ? HSA_AMD_COHERENCY_TYPE_COHERENT
								   : HSA_AMD_COHERENCY_TYPE_NONCOHERENT);
	/* The L2's line size from the topology, as ROCr 1.18 (GpuAgent's
	 * CACHELINE_SIZE: the first level-2 cache with a non-zero line; 128 on
	 * gfx90a and gfx942), 64 when KFD reports none.  ROCr 5.2.3 hard-coded
	 * 64; no 5.2.3 client depends on it (docs/differences.md, section 4). */
	a->cacheline_size = 64;
	for (uint32_t i = 0; i < node->n_caches; i++)
		if (node->caches[i].level == 2 && node->caches[i].cache_line_size) {
			a->cacheline_size = node->caches[i].cache_line_size;
			break;
		}

	a->gfx_major = np->gfx_target_version / 10000;
	a->gfx_minor = np->gfx_target_version / 100 % 100;
	a->gfx_stepping = np->gfx_target_version % 100;
	uint32_t maj, min, step;
	if (hl_env_gfx_override(&rt->env, node->index, &maj, &min, &step)) {
		hl_info("runtime", "node %u: gfx version %u.%u.%u overridden to %u.%u.%u",
			node->index, a->gfx_major, a->gfx_minor, a->gfx_stepping, maj, min, step);
		a->gfx_major = maj;
		a->gfx_minor = min;
		a->gfx_stepping = step;
	}
	enum hl_feature sramecc = (np->capability & KFD_CAP_SRAM_EDCSUPPORTED) ?
				  HL_FEATURE_ON : HL_FEATURE_OFF;
	enum hl_feature xnack = rt->xnack_enabled ? HL_FEATURE_ON : HL_FEATURE_OFF;
	int err = hl_isa_for_gpu(a->gfx_major, a->gfx_minor, a->gfx_stepping, sramecc, xnack,
				 &a->isa);
	if (err) {
		hl_error("runtime", "node %u: gfx version %u.%u.%u is not a known AMDGPU processor; "
			 "GPU skipped (set HSA_OVERRIDE_GFX_VERSION to a supported one)",
			 node->index, a->gfx_major, a->gfx_minor, a->gfx_stepping);
		return err;
	}
	snprintf(a->name, sizeof(a->name), "%s", hl_isa_processor(a->isa));

	/* Wallclock frequency and family from amdgpu, as ROCr reads them. */
	struct amdgpu_gpu_info info;
	memset(&info, 0, sizeof(info));
	if (gpu->amdgpu_dev &&
	    amdgpu_query_gpu_info((amdgpu_device_handle)gpu->amdgpu_dev, &info) == 0) {
		a->timestamp_freq = (uint64_t)info.gpu_counter_freq * 1000;
		a->family_id = info.family_id;
	}

	a->pools = *pools;
	for (uint32_t i = 0; i < node->n_mem_banks; i++) {
		const struct kfd_mem_bank *b = &node->mem_banks[i];
		if (b->size_in_bytes == 0 || (b->heap_type != KFD_HEAP_TYPE_FB_PUBLIC &&
					      b->heap_type != KFD_HEAP_TYPE_FB_PRIVATE))
			continue;
		a->mem_width = b->width;
		a->mem_clk_max = b->mem_clk_max;
		struct hl_pool *vram = (*pools)++;
		pool_init(vram, a, HL_POOL_VRAM, b->size_in_bytes, b);
		/* Large BAR: the whole of VRAM is CPU-visible (FB_PUBLIC). */
		vram->host_access = b->heap_type == KFD_HEAP_TYPE_FB_PUBLIC;
		/* ROCr exposes VRAM fine-grained as well inside an XGMI hive. */
		if (np->hive_id != 0) {
			struct hl_pool *fine = (*pools)++;
			pool_init(fine, a, HL_POOL_VRAM_FINE, b->size_in_bytes, b);
			fine->host_access = vram->host_access;
		}
	}
	if (np->lds_size_in_kb) {
		struct hl_pool *lds = (*pools)++;
		pool_init(lds, a, HL_POOL_LDS, (uint64_t)np->lds_size_in_kb * 1024, NULL);
		lds->base = gpu->apertures.lds_base;
	}
	a->n_pools = (uint32_t)(*pools - a->pools);

	a->caches = *caches;
	a->n_caches = hl_cache_fill_gpu(a, *caches);
	*caches += a->n_caches;
	return 0;
}

/* The CPU agent a GPU's cheapest direct io_link leads to, else the first. */
static struct hl_agent *nearest_cpu(struct hl_runtime *rt, const struct hl_agent *gpu)
{
	struct hl_agent *best = rt->n_cpus ? &rt->agents[0] : NULL;
	uint32_t best_weight = UINT32_MAX;
	for (uint32_t l = 0; l < gpu->node->n_io_links; l++) {
		const struct kfd_io_link *link = &gpu->node->io_links[l];
		for (uint32_t c = 0; c < rt->n_cpus; c++)
			if (rt->agents[c].node_id == link->node_to && link->weight < best_weight) {
				best = &rt->agents[c];
				best_weight = link->weight;
			}
	}
	return best;
}

int hl_agents_build(struct hl_runtime *rt)
{
	const struct kfd_topology *topo = &rt->proc->topology;
	uint32_t n_cpu_nodes = 0, max_pools = 0, max_caches = 0;
	for (uint32_t i = 0; i < topo->n_nodes; i++) {
		const struct kfd_node *n = &topo->nodes[i];
		if (n->props.cpu_cores_count > 0) {
			n_cpu_nodes++;
			max_pools += 3;
			max_caches += n->n_caches + HL_CPU_SYSFS_CACHES_MAX;
		}
		if (kfd_node_is_gpu(n)) {
			max_pools += 2 * n->n_mem_banks + 1;
			max_caches += n->n_caches;
		}
	}

	uint32_t n_gpus = rt->proc->n_gpus;
	char (*uuids)[24] = calloc(n_gpus ? n_gpus : 1, sizeof(*uuids));
	const char **uuid_ptrs = calloc(n_gpus ? n_gpus : 1, sizeof(*uuid_ptrs));
	uint32_t *order = calloc(n_gpus ? n_gpus : 1, sizeof(*order));
	int err = -ENOMEM;
	if (!uuids || !uuid_ptrs || !order)
		goto out_free_scratch;
	for (uint32_t i = 0; i < n_gpus; i++) {
		uint64_t id = rt->proc->gpus[i].node->props.unique_id;
		if (id)
			snprintf(uuids[i], sizeof(uuids[i]), "GPU-%016llx", (unsigned long long)id);
		else
			snprintf(uuids[i], sizeof(uuids[i]), "GPU-XX");
		uuid_ptrs[i] = uuids[i];
	}
	uint32_t n_visible = hl_env_visible_gpus(&rt->env, uuid_ptrs, n_gpus, order);

	rt->agents = calloc(n_cpu_nodes + n_visible + 1, sizeof(*rt->agents));
	rt->pools = calloc(max_pools + 1, sizeof(*rt->pools));
	rt->caches = calloc(max_caches + 1, sizeof(*rt->caches));
	rt->gpu_ids = calloc(n_visible + 1, sizeof(*rt->gpu_ids));
	if (!rt->agents || !rt->pools || !rt->caches || !rt->gpu_ids)
		goto out_free_scratch;

	struct hl_pool *pools = rt->pools;
	struct hl_cache *caches = rt->caches;
	char model[64];
	cpu_model_name(model, sizeof(model));
	for (uint32_t i = 0; i < topo->n_nodes; i++) {
		const struct kfd_node *n = &topo->nodes[i];
		if (n->props.cpu_cores_count == 0)
			continue;
		cpu_agent_init(rt, &rt->agents[rt->n_agents++], n, model, &pools, &caches);
		rt->n_cpus++;
	}

	/* A system-memory allocation may span every CPU node's memory: ROCr
	 * caps it at the aggregate (max_sysmem_alloc_size_; 5.2.3 counts each
	 * node twice, via its fine-grained and its kernarg region). */
	uint64_t sysmem = 0;
	for (struct hl_pool *p = rt->pools; p < pools; p++)
		if (p->kind == HL_POOL_SYSTEM_FINE)
			sysmem += p->alloc_max;
	for (struct hl_pool *p = rt->pools; p < pools; p++)
		if (hl_pool_is_system(p))
			p->alloc_max = sysmem;

	rt->xnack_enabled = n_visible ? configure_xnack(rt) : false;
	for (uint32_t v = 0; v < n_visible; v++) {
		struct kfd_gpu *gpu = &rt->proc->gpus[order[v]];
		struct hl_agent *a = &rt->agents[rt->n_agents];
		struct hl_pool *pools_mark = pools;
		struct hl_cache *caches_mark = caches;
		err = gpu_agent_init(rt, a, gpu, uuids[order[v]], &pools, &caches);
		if (err == -ENOENT) {
			/* An unknown processor: like ROCr ("Agent creation failed. The
			 * GPU node has an unrecognized id."), go on without it. */
			memset(a, 0, sizeof(*a));
			pools = pools_mark;
			caches = caches_mark;
			continue;
		}
		if (err)
			goto out_free_scratch;
		rt->gpu_ids[rt->n_gpus++] = gpu->gpu_id;
		rt->n_agents++;
	}
	for (uint32_t i = rt->n_cpus; i < rt->n_agents; i++)
		rt->agents[i].nearest_cpu = nearest_cpu(rt, &rt->agents[i]);
	rt->n_pools = (uint32_t)(pools - rt->pools);
	rt->n_caches = (uint32_t)(caches - rt->caches);
	err = 0;

out_free_scratch:
	free(order);
	free(uuid_ptrs);
	free(uuids);
	return err;
}

void hl_agents_destroy(struct hl_runtime *rt)
{
	free(rt->agents);
	free(rt->pools);
	free(rt->caches);
	free(rt->gpu_ids);
	rt->agents = NULL;
	rt->pools = NULL;
	rt->caches = NULL;
	rt->gpu_ids = NULL;
	rt->n_agents = rt->n_cpus = rt->n_gpus = rt->n_pools = rt->n_caches = 0;
}

hsa_status_t hsa_iterate_agents(hsa_status_t (*callback)(hsa_agent_t agent, void *data),
				void *data)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!callback)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	for (uint32_t i = 0; i < rt->n_agents; i++) {
		/* INFO_BREAK and errors alike stop the walk and are returned. */
		hsa_status_t s = callback(hl_agent_handle(&rt->agents[i]), data);
		if (s != HSA_STATUS_SUCCESS)
			return s;
	}
	return HSA_STATUS_SUCCESS;
}

int hl_agent_gpu_ids(const struct hl_runtime *rt, const hsa_agent_t *agents, uint32_t n,
		     uint32_t *ids, bool *cpus)
{
	int count = 0;
	bool cpu = false;

	for (uint32_t i = 0; i < n; i++) {
		struct hl_agent *a = hl_agent_lookup(rt, agents[i]);
		if (!a)
			return -1;
		if (!a->gpu) {
			cpu = true;
			continue;
		}
		bool dup = false;
		for (int j = 0; j < count; j++)
			dup |= ids[j] == a->gpu->gpu_id;
		if (!dup)
			ids[count++] = a->gpu->gpu_id;
	}
	if (cpus)
		*cpus = cpu;
	return count;
}
