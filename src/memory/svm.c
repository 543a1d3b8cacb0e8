/*
 * Shared virtual memory: hsa_amd_svm_attributes_set, hsa_amd_svm_attributes_get
 * and the migration behind hsa_amd_svm_prefetch_async (scheduled on signals
 * by src/copy/prefetch.c, above the signal module) over KFD's SVM ioctl (src/kfd/svm.c), with
 * ROCr 5.2.3's semantics (Runtime::SetSvmAttrib, GetSvmAttrib, SvmPrefetch,
 * GetSVMPrefetchAgent; libhsakmt's hsaKmtSVMSetAttr/GetAttr):
 *
 *  - The range is [ptr, ptr + size) widened to whole pages.  An empty or
 *    NULL range, pages not mapped in the process (-EFAULT), a BO mapped
 *    there (-EADDRINUSE) or any other kernel refusal is HSA_STATUS_ERROR,
 *    as ROCr's "hsaKmtSVMSetAttr failed".
 *  - Agents become KFD locations: a GPU its gpu_id, a CPU SYSMEM (0), no
 *    agent (handle 0, PREFERRED_LOCATION only) UNDEFINED; and back: SYSMEM
 *    is the CPU agent of node 0, a gpu_id its GPU agent, UNDEFINED handle 0.
 *  - Access attributes for a CPU agent are the HOST_ACCESS flag (set if any
 *    CPU is given access); READ_ONLY, HIVE_LOCAL, READ_MOSTLY and
 *    GLOBAL_FLAG are the GPU_RO, HIVE_LOCAL, GPU_READ_MOSTLY and COHERENT
 *    flags (cleared before set, in one ioctl with the rest); granularity is
 *    capped at 18 (1 GiB).  An attribute other than the access ones given
 *    twice, or two access attributes for one agent, is
 *    INCOMPATIBLE_ARGUMENTS; an unknown attribute or GLOBAL_FLAG value is
 *    INVALID_ARGUMENT; an agent handle that is not an agent INVALID_AGENT.
 *  - Get answers as ROCr does, quirks included: READ_ONLY, HIVE_LOCAL and
 *    READ_MOSTLY are the flag's bit (8, 4, 0x20), not 1; ACCESS_QUERY for a
 *    CPU turns into AGENT_ACCESSIBLE when the range has HOST_ACCESS and is
 *    left ACCESS_QUERY otherwise; GLOBAL_FLAG is INDETERMINATE when the
 *    ranges disagree.
 *  - A prefetch sets PREFETCH_LOC (the kernel migrates) on the async
 *    service thread once every dependency signal is 0 (the last one first,
 *    then down the list, as ROCr chains them), then decrements the
 *    completion signal.  Failures after the call returned are logged: the
 *    completion signal is still decremented, so a waiter never hangs.
 *    PREFETCH_LOCATION reports a pending prefetch's destination (the newest
 *    covering each address) and the kernel's for the rest, or no agent when
 *    they differ.
 *
 * Where ROCr dereferences what it is given (a NULL attribute list with a
 * count, a NULL dependency list, dead signal or agent handles) we return
 * INVALID_ARGUMENT, INVALID_SIGNAL or INVALID_AGENT instead of crashing.
 *
 * Pending prefetches are the runtime's list (rt->svm_pending), newest
 * first, under rt->svm_lock, so a new runtime (a fork child's too) starts
 * with none and no lock a parent thread held at a fork; the
 * scheduler (src/copy/prefetch.c) publishes each, unpublishes it when it
 * ran, and at the last hsa_shut_down stops the async service before
 * dropping what is left (hl_svm_prefetch_drop_all); a fork child drops
 * the parent's without the lock (hl_svm_prefetch_forget_all).
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "memory/memory_priv.h"
#include "util/log.h"

#define SVM_LOG "svm"
#define SVM_PAGE 4096ull
#define SVM_MAX_GRANULARITY 18 /* 2^18 pages: 1 GiB, ROCr's cap */

/* ---- agents and KFD locations ---- */

uint32_t hl_svm_location(const struct hl_agent *a)
{
	return a->gpu ? a->gpu->gpu_id : KFD_SVM_LOCATION_SYSMEM;
}

/* ROCr's agents_by_node_[node][0] for the node KFD's location names. */
static uint64_t svm_agent_of(const struct hl_runtime *rt, uint32_t loc)
{
	if (loc == KFD_SVM_LOCATION_UNDEFINED)
		return 0;
	for (uint32_t i = 0; i < rt->n_agents; i++) {
		const struct hl_agent *a = &rt->agents[i];
		if (loc == KFD_SVM_LOCATION_SYSMEM ? !a->gpu && a->node_id == 0 :
						     a->gpu && a->gpu->gpu_id == loc)
			return hl_agent_handle(a).handle;
	}
	return 0;
}

/* The whole pages [*base, *base + *len) that cover [ptr, ptr + size);
 * false, logged as an error of the API call fn, when they are none or
 * start at address 0. */
static bool svm_range(const char *fn, const void *ptr, size_t size, uint64_t *base,
		      uint64_t *len)
{
	uint64_t start = (uintptr_t)ptr & ~(SVM_PAGE - 1);
	uint64_t end = ((uintptr_t)ptr + size + SVM_PAGE - 1) & ~(SVM_PAGE - 1);
	*base = start;
	*len = end - start;
	if (start && end > start)
		return true;
	hl_error(SVM_LOG, "%s(%p, %zu): empty or NULL range", fn, ptr, size);
	return false;
}

/* The KFD attribute array for an attribute call's list: every HSA
 * attribute makes at most one KFD attribute, plus the two flag words.
 * *out is NULL unless the status is SUCCESS. */
static hsa_status_t svm_kattrs_alloc(const hsa_amd_svm_attribute_pair_t *list, size_t count,
				     struct kfd_svm_attribute **out)
{
	*out = NULL;
	if (count && !list)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	/* a count no memory could hold would wrap the sum */
	if (count > SIZE_MAX / sizeof(**out) - 2)
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	*out = calloc(count + 2, sizeof(**out));
	return *out ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_OUT_OF_RESOURCES;
}

static hsa_status_t svm_ioctl(struct hl_runtime *rt, uint32_t op, uint64_t base, uint64_t len,
			      struct kfd_svm_attribute *attrs, uint32_t n)
{
	int err = kfd_svm_attrs(rt->proc, op, base, len, attrs, n);
	return err ? HSA_STATUS_ERROR : HSA_STATUS_SUCCESS;
}

/* ---- set ---- */

/* ROCr's Check: each non-agent attribute at most once. */
static hsa_status_t svm_once(uint32_t *seen, uint64_t attribute)
{
	if (*seen & (1u << attribute))
		return HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS;
	*seen |= 1u << attribute;
	return HSA_STATUS_SUCCESS;
}

static void svm_flag(uint64_t value, uint32_t flag, uint32_t *set, uint32_t *clr)
{
	if (value)
		*set |= flag;
	else
		*clr |= flag;
}

/* Translates one attribute into kattrs[*n] or the flag words. */
static hsa_status_t svm_set_one(struct hl_runtime *rt, const hsa_amd_svm_attribute_pair_t *p,
				uint32_t *once, bool *agent_seen, struct kfd_svm_attribute *kattrs,
				uint32_t *n, uint32_t *set, uint32_t *clr)
{
	uint64_t v = p->value;
	hsa_status_t st;
	switch (p->attribute) {
	case HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG:
		if ((st = svm_once(once, p->attribute)))
			return st;
		if (v == HSA_AMD_SVM_GLOBAL_FLAG_FINE_GRAINED)
			*set |= KFD_SVM_FLAG_COHERENT;
		else if (v == HSA_AMD_SVM_GLOBAL_FLAG_COARSE_GRAINED)
			*clr |= KFD_SVM_FLAG_COHERENT;
		else
			return HSA_STATUS_ERROR_INVALID_ARGUMENT;
		return HSA_STATUS_SUCCESS;
	case HSA_AMD_SVM_ATTRIB_READ_ONLY:
	case HSA_AMD_SVM_ATTRIB_HIVE_LOCAL:
	case HSA_AMD_SVM_ATTRIB_READ_MOSTLY:
		if ((st = svm_once(once, p->attribute)))
			return st;
		svm_flag(v,
			 p->attribute == HSA_AMD_SVM_ATTRIB_READ_ONLY ? KFD_SVM_FLAG_GPU_RO :
			 p->attribute == HSA_AMD_SVM_ATTRIB_HIVE_LOCAL ? KFD_SVM_FLAG_HIVE_LOCAL :
									 KFD_SVM_FLAG_GPU_READ_MOSTLY,
			 set, clr);
		return HSA_STATUS_SUCCESS;
	case HSA_AMD_SVM_ATTRIB_MIGRATION_GRANULARITY:
		if ((st = svm_once(once, p->attribute)))
			return st;
		kattrs[(*n)++] = (struct kfd_svm_attribute){
			KFD_SVM_ATTR_GRANULARITY,
			v > SVM_MAX_GRANULARITY ? SVM_MAX_GRANULARITY : (uint32_t)v
		};
		return HSA_STATUS_SUCCESS;
	case HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION: {
		if ((st = svm_once(once, p->attribute)))
			return st;
		struct hl_agent *a = v ? hl_agent_lookup(rt, (hsa_agent_t){ v }) : NULL;
		if (v && !a)
			return HSA_STATUS_ERROR_INVALID_AGENT;
		kattrs[(*n)++] = (struct kfd_svm_attribute){
			KFD_SVM_ATTR_PREFERRED_LOC, a ? hl_svm_location(a) : KFD_SVM_LOCATION_UNDEFINED
		};
		return HSA_STATUS_SUCCESS;
	}
	case HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE:
	case HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE_IN_PLACE:
	case HSA_AMD_SVM_ATTRIB_AGENT_NO_ACCESS: {
		struct hl_agent *a = hl_agent_lookup(rt, (hsa_agent_t){ v });
		if (!a)
			return HSA_STATUS_ERROR_INVALID_AGENT;
		if (agent_seen[a - rt->agents])
			return HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS;
		agent_seen[a - rt->agents] = true;
		bool no = p->attribute == HSA_AMD_SVM_ATTRIB_AGENT_NO_ACCESS;
		if (!a->gpu) {
			*(no ? clr : set) |= KFD_SVM_FLAG_HOST_ACCESS;
			return HSA_STATUS_SUCCESS;
		}
		uint32_t type = no ? KFD_SVM_ATTR_NO_ACCESS :
			p->attribute == HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE ? KFD_SVM_ATTR_ACCESS :
									 KFD_SVM_ATTR_ACCESS_IN_PLACE;
		kattrs[(*n)++] = (struct kfd_svm_attribute){ type, a->gpu->gpu_id };
		return HSA_STATUS_SUCCESS;
	}
	default:
		/* PREFETCH_LOCATION and ACCESS_QUERY are not settable */
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	}
}

hsa_status_t hsa_amd_svm_attributes_set(void *ptr, size_t size,
					hsa_amd_svm_attribute_pair_t *attribute_list,
					size_t attribute_count)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	struct kfd_svm_attribute *kattrs;
	hsa_status_t st = svm_kattrs_alloc(attribute_list, attribute_count, &kattrs);
	if (st != HSA_STATUS_SUCCESS)
		return st;
	bool *agent_seen = calloc(rt->n_agents + 1, sizeof(*agent_seen));
	st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	if (!agent_seen)
		goto out_free;

	uint32_t n = 0, once = 0, set = 0, clr = 0;
	st = HSA_STATUS_SUCCESS;
	for (size_t i = 0; i < attribute_count && st == HSA_STATUS_SUCCESS; i++)
		st = svm_set_one(rt, &attribute_list[i], &once, agent_seen, kattrs, &n, &set, &clr);
	if (st)
		goto out_free;
	/* any CPU given access wins over another CPU's NO_ACCESS (ROCr) */
	if (set & KFD_SVM_FLAG_HOST_ACCESS)
		clr &= ~KFD_SVM_FLAG_HOST_ACCESS;
	if (clr)
		kattrs[n++] = (struct kfd_svm_attribute){ KFD_SVM_ATTR_CLR_FLAGS, clr };
	if (set)
		kattrs[n++] = (struct kfd_svm_attribute){ KFD_SVM_ATTR_SET_FLAGS, set };

	uint64_t base, len;
	if (!svm_range("hsa_amd_svm_attributes_set", ptr, size, &base, &len)) {
		st = HSA_STATUS_ERROR;
		goto out_free;
	}
	st = svm_ioctl(rt, KFD_SVM_OP_SET_ATTR, base, len, kattrs, n);
out_free:
	free(agent_seen);
	free(kattrs);
	return st;
}

/* ---- prefetch location ---- */

struct svm_span {
	uint64_t lo, hi; /* [lo, hi) */
};

/* Folds one more location into the common one; false when they differ. */
static bool svm_same(bool *have, uint32_t *loc, uint32_t next)
{
	if (*have && *loc != next)
		return false;
	*have = true;
	*loc = next;
	return true;
}

/* ROCr's GetSVMPrefetchAgent: the prefetch destination common to every
 * page of the range (pending prefetches, newest first, then the kernel's
 * PREFETCH_LOC for the pages none covers), as an agent handle; 0 when
 * they differ or the kernel has none. */
static hsa_status_t svm_prefetch_agent(struct hl_runtime *rt, const void *ptr, size_t size,
				       uint64_t *out)
{
	uint64_t base, len;
	if (!svm_range("hsa_amd_svm_attributes_get", ptr, size, &base, &len))
		return HSA_STATUS_ERROR;
	hsa_status_t st = HSA_STATUS_SUCCESS;
	pthread_mutex_lock(&rt->svm_lock);
	size_t cap = 1;
	for (struct hl_svm_prefetch *op = rt->svm_pending; op; op = op->next)
		cap++;
	/* each prefetch splits at most one span in two */
	struct svm_span *spans = malloc(cap * sizeof(*spans));
	if (!spans) {
		st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
		goto out_unlock;
	}
	size_t n = 1;
	spans[0] = (struct svm_span){ base, base + len };
	bool have = false;
	uint32_t loc = 0;
	*out = 0;
	for (struct hl_svm_prefetch *op = rt->svm_pending; op; op = op->next) {
		uint64_t olo = op->base, ohi = op->base + op->len;
		size_t i = 0;
		while (i < n) {
			struct svm_span s = spans[i];
			if (s.hi <= olo || s.lo >= ohi) {
				i++;
				continue;
			}
			if (!svm_same(&have, &loc, op->loc))
				goto out_free;
			/* keep what the prefetch does not cover; a span it
			 * covers whole is replaced by the last one */
			if (s.lo < olo && s.hi > ohi) {
				spans[i++] = (struct svm_span){ s.lo, olo };
				spans[n++] = (struct svm_span){ ohi, s.hi };
			} else if (s.lo < olo) {
				spans[i++] = (struct svm_span){ s.lo, olo };
			} else if (s.hi > ohi) {
				spans[i++] = (struct svm_span){ ohi, s.hi };
			} else {
				spans[i] = spans[--n];
			}
		}
	}
	for (size_t i = 0; i < n; i++) {
		struct kfd_svm_attribute a = { KFD_SVM_ATTR_PREFETCH_LOC, 0 };
		st = svm_ioctl(rt, KFD_SVM_OP_GET_ATTR, spans[i].lo, spans[i].hi - spans[i].lo, &a,
			       1);
		if (st)
			goto out_free;
		if (a.value == KFD_SVM_LOCATION_UNDEFINED || !svm_same(&have, &loc, a.value))
			goto out_free;
	}
	if (have)
		*out = svm_agent_of(rt, loc);
out_free:
	free(spans);
out_unlock:
	pthread_mutex_unlock(&rt->svm_lock);
	return st;
}

/* ---- get ---- */

hsa_status_t hsa_amd_svm_attributes_get(void *ptr, size_t size,
					hsa_amd_svm_attribute_pair_t *attribute_list,
					size_t attribute_count)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	struct kfd_svm_attribute *kattrs;
	hsa_status_t st = svm_kattrs_alloc(attribute_list, attribute_count, &kattrs);
	if (st != HSA_STATUS_SUCCESS)
		return st;
	int *kidx = calloc(attribute_count + 1, sizeof(*kidx));
	st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	if (!kidx)
		goto out_free;

	/* which KFD attribute answers each one (-1: the flags, or none) */
	uint32_t n = 0;
	bool get_flags = false;
	st = HSA_STATUS_SUCCESS;
	for (size_t i = 0; i < attribute_count && !st; i++) {
		hsa_amd_svm_attribute_pair_t *p = &attribute_list[i];
		kidx[i] = -1;
		switch (p->attribute) {
		case HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG:
		case HSA_AMD_SVM_ATTRIB_READ_ONLY:
		case HSA_AMD_SVM_ATTRIB_HIVE_LOCAL:
		case HSA_AMD_SVM_ATTRIB_READ_MOSTLY:
			get_flags = true;
			break;
		case HSA_AMD_SVM_ATTRIB_MIGRATION_GRANULARITY:
			kidx[i] = (int)n;
			kattrs[n++] = (struct kfd_svm_attribute){ KFD_SVM_ATTR_GRANULARITY, 0 };
			break;
		case HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION:
			kidx[i] = (int)n;
			kattrs[n++] = (struct kfd_svm_attribute){ KFD_SVM_ATTR_PREFERRED_LOC, 0 };
			break;
		case HSA_AMD_SVM_ATTRIB_PREFETCH_LOCATION:
			st = svm_prefetch_agent(rt, ptr, size, &p->value);
			break;
		case HSA_AMD_SVM_ATTRIB_ACCESS_QUERY: {
			struct hl_agent *a = hl_agent_lookup(rt, (hsa_agent_t){ p->value });
			if (!a) {
				st = HSA_STATUS_ERROR_INVALID_AGENT;
			} else if (!a->gpu) {
				get_flags = true;
			} else {
				kidx[i] = (int)n;
				kattrs[n++] = (struct kfd_svm_attribute){ KFD_SVM_ATTR_ACCESS,
									  a->gpu->gpu_id };
			}
			break;
		}
		default:
			st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
			break;
		}
	}
	if (st)
		goto out_free;
	/* the flag words last, clear then set: ROCr reads them from the end */
	if (get_flags) {
		kattrs[n++] = (struct kfd_svm_attribute){ KFD_SVM_ATTR_CLR_FLAGS, 0 };
		kattrs[n++] = (struct kfd_svm_attribute){ KFD_SVM_ATTR_SET_FLAGS, 0 };
	}
	if (n) {
		uint64_t base, len;
		if (!svm_range("hsa_amd_svm_attributes_get", ptr, size, &base, &len)) {
			st = HSA_STATUS_ERROR;
			goto out_free;
		}
		st = svm_ioctl(rt, KFD_SVM_OP_GET_ATTR, base, len, kattrs, n);
		if (st)
			goto out_free;
	}
	uint32_t set = get_flags ? kattrs[n - 1].value : 0;
	uint32_t clr = get_flags ? kattrs[n - 2].value : 0;
	for (size_t i = 0; i < attribute_count; i++) {
		hsa_amd_svm_attribute_pair_t *p = &attribute_list[i];
		const struct kfd_svm_attribute *k = kidx[i] >= 0 ? &kattrs[kidx[i]] : NULL;
		switch (p->attribute) {
		case HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG:
			p->value = set & KFD_SVM_FLAG_COHERENT ? HSA_AMD_SVM_GLOBAL_FLAG_FINE_GRAINED :
				   clr & KFD_SVM_FLAG_COHERENT ? HSA_AMD_SVM_GLOBAL_FLAG_COARSE_GRAINED :
								 HSA_AMD_SVM_GLOBAL_FLAG_INDETERMINATE;
			break;
		case HSA_AMD_SVM_ATTRIB_READ_ONLY:
			p->value = set & KFD_SVM_FLAG_GPU_RO;
			break;
		case HSA_AMD_SVM_ATTRIB_HIVE_LOCAL:
			p->value = set & KFD_SVM_FLAG_HIVE_LOCAL;
			break;
		case HSA_AMD_SVM_ATTRIB_READ_MOSTLY:
			p->value = set & KFD_SVM_FLAG_GPU_READ_MOSTLY;
			break;
		case HSA_AMD_SVM_ATTRIB_MIGRATION_GRANULARITY:
			p->value = k->value;
			break;
		case HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION:
			p->value = svm_agent_of(rt, k->value);
			break;
		case HSA_AMD_SVM_ATTRIB_ACCESS_QUERY:
			if (!k) {
				if (set & KFD_SVM_FLAG_HOST_ACCESS)
					p->attribute = HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE;
			} else if (k->type == KFD_SVM_ATTR_ACCESS) {
				p->attribute = HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE;
			} else if (k->type == KFD_SVM_ATTR_ACCESS_IN_PLACE) {
				p->attribute = HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE_IN_PLACE;
			} else {
				p->attribute = HSA_AMD_SVM_ATTRIB_AGENT_NO_ACCESS;
			}
			break;
		default: /* PREFETCH_LOCATION: answered above */
			break;
		}
	}
out_free:
	free(kidx);
	free(kattrs);
	return st;
}

/* ---- pending prefetches ---- */

void hl_svm_prefetch_publish(struct hl_svm_prefetch *op)
{
	struct hl_runtime *rt = op->rt;
	pthread_mutex_lock(&rt->svm_lock);
	op->next = rt->svm_pending;
	rt->svm_pending = op;
	pthread_mutex_unlock(&rt->svm_lock);
}

void hl_svm_prefetch_unpublish(struct hl_svm_prefetch *op)
{
	struct hl_runtime *rt = op->rt;
	pthread_mutex_lock(&rt->svm_lock);
	for (struct hl_svm_prefetch **pp = &rt->svm_pending; *pp; pp = &(*pp)->next) {
		if (*pp == op) {
			*pp = op->next;
			break;
		}
	}
	pthread_mutex_unlock(&rt->svm_lock);
}

void hl_svm_prefetch_migrate(const struct hl_svm_prefetch *op)
{
	struct kfd_svm_attribute a = { KFD_SVM_ATTR_PREFETCH_LOC, op->loc };
	int err = kfd_svm_attrs(op->rt->proc, KFD_SVM_OP_SET_ATTR, op->base, op->len, &a, 1);
	if (err)
		hl_error(SVM_LOG, "hsa_amd_svm_prefetch_async [0x%llx, +0x%llx) to 0x%x: %s; "
			 "signalling completion anyway", (unsigned long long)op->base,
			 (unsigned long long)op->len, op->loc, hl_errno_name(err));
}

void hl_svm_prefetch_drop_all(struct hl_runtime *rt, void (*release)(struct hl_svm_prefetch *op))
{
	pthread_mutex_lock(&rt->svm_lock);
	struct hl_svm_prefetch *op = rt->svm_pending;
	rt->svm_pending = NULL;
	pthread_mutex_unlock(&rt->svm_lock);
	while (op) {
		struct hl_svm_prefetch *next = op->next;
		release(op);
		op = next;
	}
}

void hl_svm_prefetch_forget_all(struct hl_runtime *rt,
				void (*release)(struct hl_svm_prefetch *op))
{
	struct hl_svm_prefetch *op = rt->svm_pending;
	rt->svm_pending = NULL;
	while (op) {
		struct hl_svm_prefetch *next = op->next;
		release(op);
		op = next;
	}
}
