/*
 * Executables: create, load code objects onto agents, freeze, query,
 * validate, define external variables, destroy.
 *
 * Loading (hsa_executable_load_agent_code_object):
 *  1. the reader's bytes are copied into memory the loaded code object owns
 *     (so the reader may go, and the AMD loader extension can report the
 *     storage as ROCr does), then validated by hl_co_parse;
 *  2. the target ID from e_flags is checked against the agent's ISA name
 *     (INCOMPATIBLE_ARGUMENTS, as ROCr, naming both ISAs in the log);
 *  3. one allocation covers every PT_LOAD segment at one load base aligned
 *     to the largest p_align.  It comes from the agent's VRAM pool when the
 *     CPU can reach it (large-BAR, which kfdemu emulates), else from the
 *     nearest CPU's coarse-grained system pool, which is GPU-mapped; both
 *     are mapped at the same virtual address on CPU and GPU (KFD's unified
 *     address space), so the segments are written in place and relocated
 *     for that address with no staging copy.  CPU writes to VRAM pass the
 *     HDP, so freeze flushes it on every agent it holds code for (the
 *     MMIO-remap page's HDP_MEM_FLUSH_CNTL, kfd_hdp_flush) before the
 *     code caches are invalidated; kfdemu's HDP model (KFDEMU_HDP=strict)
 *     stops a queue that fetches unflushed code;
 *  4. symbols are created: each kernel descriptor (<name>.kd) with its
 *     metadata, each defined global/weak STT_OBJECT as an agent variable.
 *
 * Code caches (hsa_executable_freeze): the GPU's instruction cache, scalar
 * cache and L2 may hold lines of the memory the code now occupies (a freed
 * code allocation recycled), so before the executable becomes FROZEN
 * ("symbols may be queried and run", hsa.h) the instruction, K$ and L2
 * caches of every agent it holds code for are invalidated, once per agent,
 * by a PM4 ACQUIRE_MEM on that agent's internal queue (src/queue/
 * internal.c), waited for with a bound.  ROCr 5.2.3 sends the same packet
 * from the load (at the segment's allocation, before its copy); freeze is
 * the point where the code of every load is in place and none of it may
 * have run yet, and it costs one packet per agent however many code
 * objects the executable holds.  If it fails (the queue cannot be made,
 * the CP stops it, it does not answer) freeze returns the status, logs why
 * and leaves the executable unfrozen, so the application may retry.
 * A load after hsa_executable_freeze is FROZEN_EXECUTABLE.  Options
 * strings are accepted and ignored, as ROCr ignores the ones it does not
 * know.  Program code objects (hsa_executable_load_program_code_object):
 * v4/v5 code objects hold agent code only, so there is nothing to place
 * without an agent; refused with INCOMPATIBLE_ARGUMENTS and a log line.
 */
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hsa/hsa_ext_amd.h"
#include "loader/loader_priv.h"
#include "memory/memory.h"
#include "queue/queue.h"
#include "runtime/runtime.h"
#include "util/log.h"

#define LOG "loader"

/* runtime/error.c maps causes; the one loader refinement is a symbol
 * defined twice, which the HSA spec names (EEXIST elsewhere means an
 * overlapping registration, so error.c cannot map it for everyone). */
static hsa_status_t status_of(int err)
{
	if (err == -EEXIST)
		return HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED;
	return hl_status_from_errno(err);
}

static hsa_status_t executable_new(hsa_profile_t profile,
				   hsa_default_float_rounding_mode_t rounding,
				   hsa_executable_state_t state, hsa_executable_t *out)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	struct hl_loader_registry *lr = rt->loader;
	if (!out || (profile != HSA_PROFILE_BASE && profile != HSA_PROFILE_FULL) ||
	    (rounding != HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT &&
	     rounding != HSA_DEFAULT_FLOAT_ROUNDING_MODE_ZERO &&
	     rounding != HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR) ||
	    (state != HSA_EXECUTABLE_STATE_FROZEN && state != HSA_EXECUTABLE_STATE_UNFROZEN))
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	struct hl_executable *e = calloc(1, sizeof(*e));
	if (!e)
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	e->profile = profile;
	e->rounding = rounding;
	e->state = state;
	hl_loader_lock(lr);
	e->next = lr->executables;
	lr->executables = e;
	hl_loader_unlock(lr);
	out->handle = (uint64_t)(uintptr_t)e;
	return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_executable_create_alt(hsa_profile_t profile,
				       hsa_default_float_rounding_mode_t rounding,
				       const char *options, hsa_executable_t *executable)
{
	(void)options;
	return executable_new(profile, rounding, HSA_EXECUTABLE_STATE_UNFROZEN, executable);
}

hsa_status_t hsa_executable_create(hsa_profile_t profile, hsa_executable_state_t state,
				   const char *options, hsa_executable_t *executable)
{
	(void)options;
	return executable_new(profile, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, state, executable);
}

static void loaded_co_free(struct hl_loaded_co *l)
{
	if (l->mem)
		hsa_amd_memory_pool_free(l->mem);
	hl_co_free(l->co);
	free(l->image);
	free(l->uri);
	free(l);
}

hsa_status_t hsa_executable_destroy(hsa_executable_t executable)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	struct hl_loader_registry *lr = rt->loader;
	hl_loader_lock(lr);
	struct hl_executable **pp = &lr->executables;
	while (*pp && (uint64_t)(uintptr_t)*pp != executable.handle)
		pp = &(*pp)->next;
	struct hl_executable *e = *pp;
	if (e) {
		*pp = e->next;
		hl_loader_debug_remove(e);
	}
	hl_loader_unlock(lr);
	if (!e)
		return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
	hl_symbol_free_all(e);
	while (e->lcos) {
		struct hl_loaded_co *l = e->lcos;
		e->lcos = l->next;
		loaded_co_free(l);
	}
	free(e);
	return HSA_STATUS_SUCCESS;
}

/* Memory for an agent's segments: see the file comment. */
static struct hl_pool *code_pool(struct hl_agent *agent)
{
	for (uint32_t i = 0; i < agent->n_pools; i++)
		if (agent->pools[i].kind == HL_POOL_VRAM && agent->pools[i].host_access)
			return &agent->pools[i];
	struct hl_agent *cpu = agent->nearest_cpu;
	for (int pass = 0; cpu && pass < 2; pass++) {
		enum hl_pool_kind want = pass == 0 ? HL_POOL_SYSTEM_COARSE : HL_POOL_SYSTEM_FINE;
		for (uint32_t i = 0; i < cpu->n_pools; i++)
			if (cpu->pools[i].kind == want)
				return &cpu->pools[i];
	}
	return NULL;
}

struct resolve_ctx {
	struct hl_executable *exe;
	struct hl_agent *agent;
};

/* Undefined symbols resolve to variables the application defined. */
static int resolve_external(void *ctx, const char *name, uint64_t *value)
{
	struct resolve_ctx *rc = ctx;
	for (struct hl_symbol *s = rc->exe->symbols; s; s = s->next) {
		if (s->lco || s->kind != HSA_SYMBOL_KIND_VARIABLE || strcmp(s->name, name) != 0)
			continue;
		if (s->agent && s->agent != rc->agent)
			continue;
		*value = s->address;
		return 0;
	}
	return -ENOENT;
}

static int agent_isa_name(struct hl_agent *agent, char *buf, size_t n)
{
	uint32_t len = 0;
	if (hsa_isa_get_info_alt(agent->isa, HSA_ISA_INFO_NAME_LENGTH, &len) != HSA_STATUS_SUCCESS ||
	    len == 0 || len >= n)
		return -EINVAL;
	memset(buf, 0, n);
	if (hsa_isa_get_info_alt(agent->isa, HSA_ISA_INFO_NAME, buf) != HSA_STATUS_SUCCESS)
		return -EINVAL;
	return 0;
}

/* Loads r's code object onto agent; the lock is held. */
static int load_locked(struct hl_runtime *rt, struct hl_executable *exe, struct hl_agent *agent,
		       const struct hl_reader *r, struct hl_loaded_co **out)
{
	char isa[128];
	if (agent->type != HSA_DEVICE_TYPE_GPU || agent_isa_name(agent, isa, sizeof(isa))) {
		hl_error(LOG, "agent %s has no GPU ISA to load code objects for", agent->name);
		return -EXDEV;
	}
	struct hl_loaded_co *l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	l->exe = exe;
	l->agent = agent;
	l->image_size = r->size;
	l->image = malloc(r->size);
	l->uri = strdup(r->uri);
	int err = -ENOMEM;
	if (!l->image || !l->uri)
		goto err_free_lco;
	memcpy(l->image, r->data, r->size);
	err = hl_co_parse(l->image, l->image_size, &l->co);
	if (err)
		goto err_free_lco;
	err = hl_co_check_isa(l->co, isa);
	if (err)
		goto err_free_lco;

	struct hl_pool *pool = code_pool(agent);
	if (!pool) {
		hl_error(LOG, "agent %s: no pool to hold code", agent->name);
		err = -ENOMEM;
		goto err_free_lco;
	}
	uint64_t align = l->co->max_align, size = hl_co_load_size(l->co);
	/* Code is never a fragment of a VRAM block (ROCr allocates it with
	 * AllocateExecutable, which bypasses the fragment allocator). */
	err = hl_pool_allocate_flags(rt, pool, size + (align > HL_PAGE_SIZE ? align : 0),
				     HL_ALLOC_WHOLE, &l->mem);
	if (err) {
		hl_error(LOG, "agent %s: %llu bytes for the segments: %s", agent->name,
			 (unsigned long long)size, hl_errno_name(err));
		l->mem = NULL;
		err = -ENOMEM; /* whatever the pool said, the load ran out */
		goto err_free_lco;
	}
	l->load_base = ((uint64_t)(uintptr_t)l->mem + align - 1) & ~(align - 1);
	l->load_size = size;
	l->delta = (int64_t)(l->load_base - l->co->vaddr_lo);
	struct resolve_ctx rc = { exe, agent };
	err = hl_co_place(l->co, (void *)(uintptr_t)l->load_base, l->load_base, resolve_external,
			  &rc);
	if (err)
		goto err_free_lco;
	err = hl_symbols_create(l);
	if (err)
		goto err_free_lco;
	/* Append: iteration reports code objects in load order. */
	struct hl_loaded_co **pp = &exe->lcos;
	while (*pp)
		pp = &(*pp)->next;
	*pp = l;
	*out = l;
	hl_info(LOG, "loaded %s (%s, v%u) on %s at %#llx in %s, %llu bytes, %u kernels", l->uri,
		l->co->target_id, l->co->version, agent->name, (unsigned long long)l->load_base,
		pool->kind == HL_POOL_VRAM ? "VRAM" : "system memory", (unsigned long long)size,
		l->co->n_kernels);
	return 0;

err_free_lco:
	loaded_co_free(l);
	return err;
}

hsa_status_t hsa_executable_load_agent_code_object(hsa_executable_t executable, hsa_agent_t agent,
						   hsa_code_object_reader_t reader,
						   const char *options,
						   hsa_loaded_code_object_t *loaded_code_object)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	struct hl_loader_registry *lr = rt->loader;
	(void)options;
	hsa_status_t s = HSA_STATUS_SUCCESS;
	hl_loader_lock(lr);
	struct hl_executable *e = hl_executable_lookup(lr, executable);
	struct hl_reader *r = hl_reader_lookup(lr, reader);
	struct hl_agent *a = hl_agent_lookup(rt, agent);
	if (!e)
		s = HSA_STATUS_ERROR_INVALID_EXECUTABLE;
	else if (!r)
		s = HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER;
	else if (!a)
		s = HSA_STATUS_ERROR_INVALID_AGENT;
	else if (e->state == HSA_EXECUTABLE_STATE_FROZEN)
		s = HSA_STATUS_ERROR_FROZEN_EXECUTABLE;
	if (s == HSA_STATUS_SUCCESS) {
		struct hl_loaded_co *l = NULL;
		int err = load_locked(rt, e, a, r, &l);
		if (err)
			s = status_of(err);
		else if (loaded_code_object)
			loaded_code_object->handle = (uint64_t)(uintptr_t)l;
	}
	hl_loader_unlock(lr);
	return s;
}

hsa_status_t hsa_executable_load_program_code_object(hsa_executable_t executable,
						     hsa_code_object_reader_t reader,
						     const char *options,
						     hsa_loaded_code_object_t *loaded_code_object)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	struct hl_loader_registry *lr = rt->loader;
	(void)options;
	(void)loaded_code_object;
	hsa_status_t s = HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS;
	hl_loader_lock(lr);
	struct hl_executable *e = hl_executable_lookup(lr, executable);
	if (!e)
		s = HSA_STATUS_ERROR_INVALID_EXECUTABLE;
	else if (!hl_reader_lookup(lr, reader))
		s = HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER;
	else if (e->state == HSA_EXECUTABLE_STATE_FROZEN)
		s = HSA_STATUS_ERROR_FROZEN_EXECUTABLE;
	else
		hl_error(LOG, "load_program_code_object: AMDGPU code objects v4/v5 hold agent code; "
			 "use hsa_executable_load_agent_code_object");
	hl_loader_unlock(lr);
	return s;
}

/* Invalidates the code caches of every agent e holds code for, once per
 * agent (see the file comment: code caches).  The lock is held. */
static int invalidate_code_caches_locked(struct hl_runtime *rt, struct hl_executable *e)
{
	for (struct hl_loaded_co *l = e->lcos; l; l = l->next) {
		bool seen = false;
		for (struct hl_loaded_co *p = e->lcos; p != l && !seen; p = p->next)
			seen = p->agent == l->agent;
		if (seen || !l->agent)
			continue;
		/* the segments were written through the BAR (item 3 above):
		 * flushed out of the HDP before the caches are invalidated and
		 * anything runs */
		kfd_hdp_flush(l->agent->gpu);
		int err = hl_queue_code_caches_invalidate(rt, l->agent);
		if (err) {
			hl_error(LOG, "freeze: code caches of %s not invalidated: %s; the "
				 "executable stays unfrozen", l->agent->name, hl_errno_name(err));
			return err;
		}
	}
	return 0;
}

hsa_status_t hsa_executable_freeze(hsa_executable_t executable, const char *options)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	struct hl_loader_registry *lr = rt->loader;
	(void)options;
	hsa_status_t s = HSA_STATUS_SUCCESS;
	hl_loader_lock(lr);
	struct hl_executable *e = hl_executable_lookup(lr, executable);
	if (!e)
		s = HSA_STATUS_ERROR_INVALID_EXECUTABLE;
	else if (e->state == HSA_EXECUTABLE_STATE_FROZEN)
		s = HSA_STATUS_ERROR_FROZEN_EXECUTABLE;
	if (s == HSA_STATUS_SUCCESS) {
		int err = invalidate_code_caches_locked(rt, e);
		if (err)
			s = status_of(err);
		else
			e->state = HSA_EXECUTABLE_STATE_FROZEN;
	}
	if (s == HSA_STATUS_SUCCESS)
		hl_loader_debug_add(e);
	hl_loader_unlock(lr);
	return s;
}

hsa_status_t hsa_executable_get_info(hsa_executable_t executable, hsa_executable_info_t attribute,
				     void *value)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	struct hl_loader_registry *lr = rt->loader;
	if (!value)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	hsa_status_t s = HSA_STATUS_SUCCESS;
	hl_loader_lock(lr);
	struct hl_executable *e = hl_executable_lookup(lr, executable);
	if (!e) {
		s = HSA_STATUS_ERROR_INVALID_EXECUTABLE;
	} else {
		switch (attribute) {
		case HSA_EXECUTABLE_INFO_PROFILE:
			*(hsa_profile_t *)value = e->profile;
			break;
		case HSA_EXECUTABLE_INFO_STATE:
			*(hsa_executable_state_t *)value = e->state;
			break;
		case HSA_EXECUTABLE_INFO_DEFAULT_FLOAT_ROUNDING_MODE:
			*(hsa_default_float_rounding_mode_t *)value = e->rounding;
			break;
		default:
			s = HSA_STATUS_ERROR_INVALID_ARGUMENT;
			break;
		}
	}
	hl_loader_unlock(lr);
	return s;
}

/* Records an application-defined variable (a program- or agent-allocation
 * external that later code objects' relocations resolve to). */
static hsa_status_t define_variable(hsa_executable_t executable, const hsa_agent_t *agent,
				    const char *name, void *address, bool readonly)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	struct hl_loader_registry *lr = rt->loader;
	if (!name || !address || !*name)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	hsa_status_t s = HSA_STATUS_SUCCESS;
	hl_loader_lock(lr);
	struct hl_executable *e = hl_executable_lookup(lr, executable);
	struct hl_agent *a = agent ? hl_agent_lookup(rt, *agent) : NULL;
	if (!e)
		s = HSA_STATUS_ERROR_INVALID_EXECUTABLE;
	else if (agent && !a)
		s = HSA_STATUS_ERROR_INVALID_AGENT;
	else if (e->state == HSA_EXECUTABLE_STATE_FROZEN)
		s = HSA_STATUS_ERROR_FROZEN_EXECUTABLE;
	else if (hl_symbol_find(e, name, a))
		s = HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED;
	if (s == HSA_STATUS_SUCCESS) {
		struct hl_symbol *sym = calloc(1, sizeof(*sym));
		char *n = strdup(name);
		if (!sym || !n) {
			free(sym);
			free(n);
			s = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
		} else {
			sym->exe = e;
			sym->agent = a;
			sym->name = n;
			sym->kind = HSA_SYMBOL_KIND_VARIABLE;
			sym->linkage = HSA_SYMBOL_LINKAGE_PROGRAM;
			sym->allocation = a ? HSA_VARIABLE_ALLOCATION_AGENT
					    : HSA_VARIABLE_ALLOCATION_PROGRAM;
			sym->segment = readonly ? HSA_VARIABLE_SEGMENT_READONLY
						: HSA_VARIABLE_SEGMENT_GLOBAL;
			/* never const, even readonly ones: ROCr's
			 * Define*ExternalVariable pass is_constant = false */
			sym->is_const = false;
			sym->is_definition = true; /* as ROCr marks application definitions */
			sym->address = (uint64_t)(uintptr_t)address;
			/* size and alignment unknown: 0, as ROCr answers */
			sym->align = 0;
			hl_symbol_append(e, sym);
		}
	}
	hl_loader_unlock(lr);
	return s;
}

hsa_status_t hsa_executable_global_variable_define(hsa_executable_t executable,
						   const char *variable_name, void *address)
{
	return define_variable(executable, NULL, variable_name, address, false);
}

hsa_status_t hsa_executable_agent_global_variable_define(hsa_executable_t executable,
							 hsa_agent_t agent,
							 const char *variable_name, void *address)
{
	return define_variable(executable, &agent, variable_name, address, false);
}

hsa_status_t hsa_executable_readonly_variable_define(hsa_executable_t executable,
						     hsa_agent_t agent, const char *variable_name,
						     void *address)
{
	return define_variable(executable, &agent, variable_name, address, true);
}

/* 0 when every loaded kernel descriptor still holds the bytes of its ELF
 * and every undefined dynamic symbol resolves; 1 otherwise (logged). */
static uint32_t validate_locked(struct hl_executable *e)
{
	for (struct hl_loaded_co *l = e->lcos; l; l = l->next) {
		const struct hl_code_object *co = l->co;
		for (uint32_t k = 0; k < co->n_kernels; k++) {
			const struct hl_co_kernel *kn = &co->kernels[k];
			const void *kd = (const void *)(uintptr_t)(co->syms[kn->sym].value +
								   (uint64_t)l->delta);
			if (memcmp(kd, kn->kd, HL_KD_SIZE) != 0) {
				hl_error(LOG, "validate: descriptor of '%s' was overwritten",
					 kn->name);
				return 1;
			}
		}
		struct resolve_ctx rc = { e, l->agent };
		for (uint32_t i = 1; i < co->n_syms; i++) {
			uint64_t v;
			if (co->syms[i].shndx == 0 && co->syms[i].bind != STB_LOCAL &&
			    resolve_external(&rc, co->syms[i].name, &v) != 0) {
				hl_error(LOG, "validate: '%s' is undefined", co->syms[i].name);
				return 1;
			}
		}
	}
	return 0;
}

hsa_status_t hsa_executable_validate_alt(hsa_executable_t executable, const char *options,
					 uint32_t *result)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	struct hl_loader_registry *lr = rt->loader;
	(void)options;
	if (!result)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	hsa_status_t s = HSA_STATUS_SUCCESS;
	hl_loader_lock(lr);
	struct hl_executable *e = hl_executable_lookup(lr, executable);
	if (!e)
		s = HSA_STATUS_ERROR_INVALID_EXECUTABLE;
	else
		*result = validate_locked(e);
	hl_loader_unlock(lr);
	return s;
}

hsa_status_t hsa_executable_validate(hsa_executable_t executable, uint32_t *result)
{
	return hsa_executable_validate_alt(executable, NULL, result);
}
