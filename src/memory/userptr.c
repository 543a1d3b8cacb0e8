/*
 * Caller-owned host memory made visible to GPUs: registrations
 * (hsa_memory_register) and locks (hsa_amd_memory_lock[_to_pool]), with
 * the bookkeeping that lets any set of overlapping or page-sharing ranges
 * coexist, be used and be dropped in any order from any thread.
 *
 * The driver's unit is a USERPTR BO: whole pages, one GPU VA range.  The
 * kernel lets any number of USERPTR BOs pin the same pages (each ALLOC
 * takes its own page references), but one GPU VA maps one BO
 * (amdgpu_vm_bo_map: a conflicting mapping is -EINVAL).  Hence two kinds:
 *
 *  - A lock is an alias, as libhsakmt 5.2.3 makes every registration
 *    (fmm_register_user_memory): a BO of its own at a GPU VA reserved for
 *    it, the caller's pages behind it; the agent pointer is that VA plus
 *    the host pointer's page offset, so it differs from the host pointer as
 *    ROCr's does (hipamd 5.2.3's hipHostUnregister relies on that).  The
 *    same (host, size) locked again shares the alias and counts (libhsakmt's
 *    registration_count); any other range gets its own alias, however it
 *    overlaps.
 *  - A registration keeps GPU VA == host VA (the caller gets no other
 *    address), so its pages are covered by "runs": BOs over maximal page
 *    ranges no other BO covers, each counting the registrations that use
 *    it.  Registering a range references the runs it touches and creates
 *    runs for the gaps; a run is freed when its last registration goes.
 *    Pages inside a pool allocation (already GPU-mapped at that VA) need no
 *    run.
 *
 * Lookups by a host address follow libhsakmt's interval lookup, so that
 * pointer_info picks the same range ROCr does when several contain the
 * address: the range with the greatest (start, size) starting before the
 * address if it contains it, else one starting exactly there (the
 * smallest), else the first containing one in (start, size) order.
 *
 * Locking: rt->userptr_lock protects everything here and is held across
 * the ioctls that create, map and free the BOs, so a range's coverage is
 * computed and filled atomically with respect to other registrations (the
 * thunk requires that one kfd_mem is not mapped from two threads at once).
 * It is not taken with rt->mem_lock held, nor does it take it.
 */
#include <errno.h>
#include <stdlib.h>

#include "memory/memory_priv.h"
#include "util/array.h"
#include "util/log.h"

/* A BO over host pages at GPU VA == host VA, shared by registrations. */
struct hl_run {
	uintptr_t start, end;       /* page-aligned */
	struct kfd_mem *mem;
	uint32_t refs;              /* registrations using it */
	struct hl_run *next;
};

/* hsa_memory_register(ptr, size), counted when repeated. */
struct hl_reg {
	void *ptr;
	uint64_t size;
	uint32_t count;
	struct hl_run **runs;       /* one reference on each */
	uint32_t n_runs, cap_runs;
	void *userdata;
	struct hl_reg *next;
};

/* hsa_amd_memory_lock*(host, size), counted when repeated. */
struct hl_lockrec {
	void *host;
	uint64_t size;
	struct kfd_mem *mem;        /* the alias BO */
	void *agent;                /* mem->addr + host's page offset */
	uint32_t count;
	bool coarse;
	void *userdata;
	struct hl_lockrec *next;
};

struct hl_userptr {
	struct hl_run *runs;
	struct hl_reg *regs;
	struct hl_lockrec *locks;
};

static uintptr_t page_down(uintptr_t a)
{
	return a & ~(uintptr_t)(HL_PAGE_SIZE - 1);
}

static uintptr_t page_up(uintptr_t a)
{
	return (a + HL_PAGE_SIZE - 1) & ~(uintptr_t)(HL_PAGE_SIZE - 1);
}

/* The state, created on first use.  Caller holds userptr_lock. */
static struct hl_userptr *state(struct hl_runtime *rt)
{
	if (!rt->userptr)
		rt->userptr = calloc(1, sizeof(*rt->userptr));
	return rt->userptr;
}

/* ---- libhsakmt's choice among ranges containing an address ---- */

struct pick {
	uintptr_t addr;
	const void *before, *at, *first; /* candidates, see the file comment */
	uintptr_t b_start, a_start, f_start;
	uint64_t b_size, a_size, f_size;
};

static bool key_less(uintptr_t s1, uint64_t z1, uintptr_t s2, uint64_t z2)
{
	return s1 < s2 || (s1 == s2 && z1 < z2);
}

static void pick_see(struct pick *pk, const void *obj, uintptr_t start, uint64_t size)
{
	uintptr_t a = pk->addr;
	if (start < a) {
		if (!pk->before || key_less(pk->b_start, pk->b_size, start, size)) {
			pk->before = obj;
			pk->b_start = start;
			pk->b_size = size;
		}
	} else if (!pk->at || key_less(start, size, pk->a_start, pk->a_size)) {
		pk->at = obj;
		pk->a_start = start;
		pk->a_size = size;
	}
	if (a >= start && a - start < size &&
	    (!pk->first || key_less(start, size, pk->f_start, pk->f_size))) {
		pk->first = obj;
		pk->f_start = start;
		pk->f_size = size;
	}
}

static const void *pick_result(const struct pick *pk)
{
	uintptr_t a = pk->addr;
	if (pk->before && a - pk->b_start < pk->b_size)
		return pk->before;
	if (pk->at && pk->a_start == a)
		return pk->at;
	return pk->first;
}

/* ---- runs ---- */

static struct hl_run *run_of_mem(struct hl_userptr *u, const struct kfd_mem *mem)
{
	for (struct hl_run *r = u->runs; r; r = r->next)
		if (r->mem == mem)
			return r;
	return NULL;
}

static int run_create(struct hl_runtime *rt, struct hl_userptr *u, uintptr_t start,
		      uintptr_t end, struct hl_run **out)
{
	struct hl_run *run = calloc(1, sizeof(*run));
	if (!run)
		return -ENOMEM;
	/* hsa_memory_register is for fine-grained buffers (hsa.h). */
	int err = kfd_mem_register_flags(rt->proc, (void *)start, end - start, rt->gpu_ids[0],
					 KFD_ALLOC_COHERENT, &run->mem);
	if (err)
		goto err_free_run;
	err = kfd_mem_map(rt->proc, run->mem, rt->gpu_ids, rt->n_gpus);
	if (err)
		goto err_free_mem;
	run->start = start;
	run->end = end;
	run->next = u->runs;
	u->runs = run;
	*out = run;
	return 0;

err_free_mem:
	kfd_mem_free(rt->proc, run->mem);
err_free_run:
	free(run);
	return err;
}

static int run_unref(struct hl_runtime *rt, struct hl_userptr *u, struct hl_run *run)
{
	if (--run->refs)
		return 0;
	for (struct hl_run **pp = &u->runs; *pp; pp = &(*pp)->next) {
		if (*pp == run) {
			*pp = run->next;
			break;
		}
	}
	int err = kfd_mem_free(rt->proc, run->mem);
	if (err)
		hl_error("memory", "registered pages %#lx-%#lx: the BO could not be freed: %s",
			 (unsigned long)run->start, (unsigned long)run->end, hl_errno_name(err));
	free(run);
	return err;
}

/* ---- registrations ---- */

static int reg_add_run(struct hl_reg *reg, struct hl_run *run)
{
	for (uint32_t i = 0; i < reg->n_runs; i++)
		if (reg->runs[i] == run)
			return 0;
	struct hl_run **n = hl_array_room(reg->runs, reg->n_runs, &reg->cap_runs, sizeof(*n), 4);
	if (!n)
		return -ENOMEM;
	reg->runs = n;
	reg->runs[reg->n_runs++] = run;
	run->refs++;
	return 0;
}

static int reg_drop_runs(struct hl_runtime *rt, struct hl_userptr *u, struct hl_reg *reg)
{
	int err = 0;
	for (uint32_t i = 0; i < reg->n_runs; i++) {
		int e = run_unref(rt, u, reg->runs[i]);
		if (e && !err)
			err = e;
	}
	free(reg->runs);
	reg->runs = NULL;
	reg->n_runs = reg->cap_runs = 0;
	return err;
}

/* References the runs covering reg's pages, creating runs for the pages no
 * BO covers.  On failure nothing stays referenced. */
static int reg_cover(struct hl_runtime *rt, struct hl_userptr *u, struct hl_reg *reg)
{
	uintptr_t p = page_down((uintptr_t)reg->ptr);
	uintptr_t end = page_up((uintptr_t)reg->ptr + reg->size);
	int err = 0;

	while (p < end) {
		struct kfd_mem *m = kfd_mem_first_in(rt->proc, p, end);
		uintptr_t m_start = m ? (uintptr_t)m->addr : end;
		struct hl_run *run = NULL;
		if (m_start <= p) {
			/* Covered: by a run we share, or by another BO (a pool
			 * allocation) that is GPU-mapped at this VA already. */
			run = run_of_mem(u, m);
			p = m_start + m->size;
		} else {
			err = run_create(rt, u, p, m_start, &run);
			if (err)
				goto err_drop;
			p = m_start;
		}
		if (run) {
			err = reg_add_run(reg, run);
			if (err) {
				if (!run->refs) {
					run->refs = 1;
					run_unref(rt, u, run);
				}
				goto err_drop;
			}
		}
	}
	return 0;

err_drop:
	reg_drop_runs(rt, u, reg);
	return err;
}

int hl_userptr_register(struct hl_runtime *rt, void *ptr, uint64_t size)
{
	if (!rt->n_gpus)
		return 0; /* nothing to pin for */
	if ((uintptr_t)ptr + size < (uintptr_t)ptr)
		return -EINVAL;
	int err = 0;
	pthread_mutex_lock(&rt->userptr_lock);
	struct hl_userptr *u = state(rt);
	if (!u) {
		err = -ENOMEM;
		goto out_unlock;
	}
	for (struct hl_reg *r = u->regs; r; r = r->next) {
		if (r->ptr == ptr && r->size == size) {
			r->count++;
			goto out_unlock;
		}
	}
	struct hl_reg *reg = calloc(1, sizeof(*reg));
	if (!reg) {
		err = -ENOMEM;
		goto out_unlock;
	}
	reg->ptr = ptr;
	reg->size = size;
	reg->count = 1;
	err = reg_cover(rt, u, reg);
	if (err) {
		free(reg);
		goto out_unlock;
	}
	reg->next = u->regs;
	u->regs = reg;
out_unlock:
	pthread_mutex_unlock(&rt->userptr_lock);
	return err;
}

/* The registration (ptr, size), else the only one starting at ptr. */
static struct hl_reg **reg_find_start(struct hl_userptr *u, const void *ptr, uint64_t size)
{
	struct hl_reg **found = NULL;
	uint32_t n = 0;
	for (struct hl_reg **pp = &u->regs; *pp; pp = &(*pp)->next) {
		if ((*pp)->ptr != ptr)
			continue;
		if ((*pp)->size == size)
			return pp;
		found = pp;
		n++;
	}
	return n == 1 ? found : NULL;
}

int hl_userptr_deregister(struct hl_runtime *rt, void *ptr, uint64_t size)
{
	int err = -ENOENT;
	pthread_mutex_lock(&rt->userptr_lock);
	struct hl_userptr *u = rt->userptr;
	struct hl_reg **pp = u ? reg_find_start(u, ptr, size) : NULL;
	if (pp) {
		struct hl_reg *reg = *pp;
		err = 0;
		if (--reg->count == 0) {
			*pp = reg->next;
			err = reg_drop_runs(rt, u, reg);
			free(reg);
		}
	}
	pthread_mutex_unlock(&rt->userptr_lock);
	return err;
}

/* ---- locks ---- */

int hl_userptr_lock(struct hl_runtime *rt, void *host, uint64_t size, const uint32_t *gpu_ids,
		    uint32_t n, bool coarse, void **agent_ptr)
{
	if ((uintptr_t)host + size < (uintptr_t)host)
		return -EINVAL;
	int err = 0;
	pthread_mutex_lock(&rt->userptr_lock);
	struct hl_userptr *u = state(rt);
	if (!u) {
		err = -ENOMEM;
		goto out_unlock;
	}
	for (struct hl_lockrec *l = u->locks; l; l = l->next) {
		if (l->host == host && l->size == size) {
			/* Locked again (a GPU already mapped is skipped). */
			err = kfd_mem_map(rt->proc, l->mem, gpu_ids, n);
			if (!err) {
				l->count++;
				*agent_ptr = l->agent;
			}
			goto out_unlock;
		}
	}
	struct hl_lockrec *l = calloc(1, sizeof(*l));
	if (!l) {
		err = -ENOMEM;
		goto out_unlock;
	}
	err = kfd_mem_register_alias(rt->proc, host, size, gpu_ids[0],
				     coarse ? 0 : KFD_ALLOC_COHERENT, &l->mem);
	if (err)
		goto err_free_rec;
	err = kfd_mem_map(rt->proc, l->mem, gpu_ids, n);
	if (err)
		goto err_free_mem;
	l->host = host;
	l->size = size;
	l->agent = (char *)l->mem->addr + ((uintptr_t)host & (HL_PAGE_SIZE - 1));
	l->count = 1;
	l->coarse = coarse;
	l->next = u->locks;
	u->locks = l;
	*agent_ptr = l->agent;
	goto out_unlock;

err_free_mem:
	kfd_mem_free(rt->proc, l->mem);
err_free_rec:
	free(l);
out_unlock:
	pthread_mutex_unlock(&rt->userptr_lock);
	return err;
}

/* The lock whose host range starts at p (when only one does), else the one
 * whose agent pointer is p: libhsakmt's exact lookup. */
static struct hl_lockrec **lock_find_start(struct hl_userptr *u, const void *p)
{
	struct hl_lockrec **host = NULL, **agent = NULL;
	uint32_t n_host = 0;
	for (struct hl_lockrec **pp = &u->locks; *pp; pp = &(*pp)->next) {
		if ((*pp)->host == p) {
			host = pp;
			n_host++;
		}
		if ((*pp)->agent == p)
			agent = pp;
	}
	return n_host == 1 ? host : agent;
}

int hl_userptr_unlock(struct hl_runtime *rt, void *p)
{
	int err = -ENOENT;
	pthread_mutex_lock(&rt->userptr_lock);
	struct hl_userptr *u = rt->userptr;
	struct hl_lockrec **pp = u ? lock_find_start(u, p) : NULL;
	if (pp) {
		struct hl_lockrec *l = *pp;
		err = 0;
		if (--l->count == 0) {
			*pp = l->next;
			err = kfd_mem_free(rt->proc, l->mem);
			free(l);
		}
	}
	pthread_mutex_unlock(&rt->userptr_lock);
	return err;
}

/* ---- queries ---- */

static uint32_t mapped_agents(struct hl_runtime *rt, const struct kfd_mem *mem,
			      hsa_agent_t *list, uint32_t max)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < rt->n_agents && n < max; i++) {
		const struct hl_agent *a = &rt->agents[i];
		for (uint32_t m = 0; a->gpu && mem && m < mem->n_mapped; m++)
			if (mem->mapped_gpus[m] == a->gpu->gpu_id) {
				list[n++] = hl_agent_handle(a);
				break;
			}
	}
	return n;
}

bool hl_userptr_info(struct hl_runtime *rt, const void *p, hsa_amd_pointer_info_t *out,
		     hsa_agent_t *list, uint32_t max, uint32_t *n_list)
{
	uintptr_t a = (uintptr_t)p;
	bool found = true;
	pthread_mutex_lock(&rt->userptr_lock);
	struct hl_userptr *u = rt->userptr;
	if (!u) {
		found = false;
		goto out_unlock;
	}
	/* An agent address: the alias's whole pages. */
	const struct hl_lockrec *lock = NULL;
	for (const struct hl_lockrec *l = u->locks; l && !lock; l = l->next)
		if (a >= (uintptr_t)l->mem->addr && a - (uintptr_t)l->mem->addr < l->mem->size)
			lock = l;
	if (!lock) {
		struct pick pk = { .addr = a };
		for (const struct hl_lockrec *l = u->locks; l; l = l->next)
			pick_see(&pk, l, (uintptr_t)l->host, l->size);
		lock = pick_result(&pk);
	}
	/* ROCr reports locked memory as the first CPU's (PtrInfo). */
	hsa_agent_t owner = { 0 };
	if (rt->n_cpus)
		owner = hl_agent_handle(&rt->agents[0]);
	if (lock) {
		out->type = HSA_EXT_POINTER_TYPE_LOCKED;
		out->agentOwner = owner;
		out->hostBaseAddress = lock->host;
		out->agentBaseAddress = lock->agent;
		out->sizeInBytes = lock->size;
		out->userData = lock->userdata;
		out->global_flags = lock->coarse ? HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED
						 : HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED;
		*n_list = mapped_agents(rt, lock->mem, list, max);
		goto out_unlock;
	}
	struct pick pk = { .addr = a };
	for (const struct hl_reg *r = u->regs; r; r = r->next)
		pick_see(&pk, r, (uintptr_t)r->ptr, r->size);
	const struct hl_reg *reg = pick_result(&pk);
	if (!reg) {
		found = false;
		goto out_unlock;
	}
	out->type = HSA_EXT_POINTER_TYPE_LOCKED;
	out->agentOwner = owner;
	out->hostBaseAddress = reg->ptr;
	out->agentBaseAddress = reg->ptr;
	out->sizeInBytes = reg->size;
	out->userData = reg->userdata;
	out->global_flags = HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED;
	/* Every run is mapped to every GPU. */
	*n_list = reg->n_runs ? mapped_agents(rt, reg->runs[0]->mem, list, max) : 0;
out_unlock:
	pthread_mutex_unlock(&rt->userptr_lock);
	return found;
}

int hl_userptr_set_userdata(struct hl_runtime *rt, const void *p, void *userdata)
{
	int err = -ENOENT;
	pthread_mutex_lock(&rt->userptr_lock);
	struct hl_userptr *u = rt->userptr;
	struct hl_lockrec **lp = u ? lock_find_start(u, p) : NULL;
	struct hl_reg **rp = u && !lp ? reg_find_start(u, p, 0) : NULL;
	if (lp)
		(*lp)->userdata = userdata;
	else if (rp)
		(*rp)->userdata = userdata;
	if (lp || rp)
		err = 0;
	pthread_mutex_unlock(&rt->userptr_lock);
	return err;
}

/* ---- teardown ---- */

static void free_all(struct hl_runtime *rt, bool release)
{
	struct hl_userptr *u = rt->userptr;
	if (!u)
		return;
	while (u->locks) {
		struct hl_lockrec *l = u->locks;
		u->locks = l->next;
		if (release)
			kfd_mem_free(rt->proc, l->mem);
		free(l);
	}
	while (u->regs) {
		struct hl_reg *r = u->regs;
		u->regs = r->next;
		free(r->runs);
		free(r);
	}
	while (u->runs) {
		struct hl_run *r = u->runs;
		u->runs = r->next;
		if (release)
			kfd_mem_free(rt->proc, r->mem);
		free(r);
	}
	free(u);
	rt->userptr = NULL;
}

void hl_userptr_release_all(struct hl_runtime *rt)
{
	pthread_mutex_lock(&rt->userptr_lock);
	free_all(rt, true);
	pthread_mutex_unlock(&rt->userptr_lock);
}

void hl_userptr_forget_all(struct hl_runtime *rt)
{
	free_all(rt, false);
}
