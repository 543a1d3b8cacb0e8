/*
 * Executable symbols: creation from a placed code object, lookup by name,
 * iteration and hsa_executable_symbol_get_info.
 *
 * What becomes a symbol (as ROCr's loader for code object v3+):
 *  - each kernel descriptor named by the metadata (.symbol, "<name>.kd"):
 *    a KERNEL symbol whose NAME is the ELF name ("vadd.kd", what ROCr
 *    reports and HIP looks up); lookups also accept the bare kernel name;
 *    KERNEL_OBJECT is the descriptor's loaded address; the segment sizes
 *    come from the metadata, which hl_co_parse cross-checked against the
 *    descriptor;
 *  - each defined global or weak STT_OBJECT of .dynsym: a VARIABLE whose
 *    attributes are ROCr's reading of its ELF section's flags
 *    (amd_hsa_code.cpp Symbol, 5.2.3 and 1.18 alike), which HIP sees
 *    (hipFuncGetAttributes' constSizeBytes sums the sizes of the "const"
 *    ones): IS_CONST when the section is writable (SHF_WRITE: .data and
 *    .bss are const, .rodata is not), SEGMENT READONLY only with
 *    SHF_AMDGPU_HSA_READONLY, ALLOCATION AGENT only with
 *    SHF_AMDGPU_HSA_AGENT (neither set by a v3+ compiler: GLOBAL and
 *    PROGRAM), whatever the PT_LOAD's permissions.  It is listed with the
 *    agent it was loaded for either way, as ROCr's agent symbols.
 * STT_FUNC entries (kernel bodies, device functions) are not exposed, and
 * no indirect functions exist, so INDIRECT_FUNCTION_* is INVALID_ARGUMENT
 * for every symbol, as ROCr answers for a non-indirect symbol.  Attributes
 * of the other kind (a kernel attribute on a variable) are INVALID_ARGUMENT
 * too.  Linkage is PROGRAM (global/weak binding); module names are empty.
 */
#define _GNU_SOURCE /* asprintf, PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsa/amd_hsa_elf.h"
#include "loader/loader_priv.h"
#include "runtime/runtime.h"
#include "util/log.h"

#define LOG "loader"

void hl_symbol_append(struct hl_executable *exe, struct hl_symbol *sym)
{
	struct hl_symbol **pp = &exe->symbols;
	while (*pp)
		pp = &(*pp)->next;
	*pp = sym;
}

static void symbol_free_list(struct hl_symbol *s)
{
	while (s) {
		struct hl_symbol *n = s->next;
		free(s->name);
		free(s);
		s = n;
	}
}

void hl_symbol_free_all(struct hl_executable *exe)
{
	symbol_free_list(exe->symbols);
	exe->symbols = NULL;
}

static struct hl_symbol *find_exact(struct hl_symbol *list, const char *name,
				    const struct hl_agent *agent)
{
	for (struct hl_symbol *s = list; s; s = s->next)
		if (s->agent == agent && strcmp(s->name, name) == 0)
			return s;
	return NULL;
}

struct hl_symbol *hl_symbol_find(struct hl_executable *exe, const char *name,
				 const struct hl_agent *agent)
{
	struct hl_symbol *s = find_exact(exe->symbols, name, agent);
	if (s)
		return s;
	size_t n = strlen(name);
	if (n >= 3 && strcmp(name + n - 3, ".kd") == 0)
		return NULL;
	char *kd = malloc(n + 4);
	if (!kd)
		return NULL;
	memcpy(kd, name, n);
	memcpy(kd + n, ".kd", 4);
	s = find_exact(exe->symbols, kd, agent);
	free(kd);
	return s && s->kind == HSA_SYMBOL_KIND_KERNEL ? s : NULL;
}

int hl_symbols_create(struct hl_loaded_co *l)
{
	const struct hl_code_object *co = l->co;
	struct hl_symbol *head = NULL, **tail = &head;
	int err = 0;
	for (uint32_t i = 1; i < co->n_syms; i++) {
		const struct hl_co_symbol *cs = &co->syms[i];
		if ((cs->bind != STB_GLOBAL && cs->bind != STB_WEAK) || cs->shndx == SHN_UNDEF ||
		    cs->shndx == SHN_ABS)
			continue;
		if (cs->kernel < 0 && cs->type != STT_OBJECT)
			continue;
		if (find_exact(l->exe->symbols, cs->name, l->agent) ||
		    find_exact(head, cs->name, l->agent)) {
			hl_error(LOG, "symbol '%s' is already defined in this executable for agent %s",
				 cs->name, l->agent->name);
			err = -EEXIST;
			goto err_free_new;
		}
		struct hl_symbol *s = calloc(1, sizeof(*s));
		if (!s || !(s->name = strdup(cs->name))) {
			free(s);
			err = -ENOMEM;
			goto err_free_new;
		}
		s->exe = l->exe;
		s->lco = l;
		s->agent = l->agent;
		s->linkage = HSA_SYMBOL_LINKAGE_PROGRAM;
		s->allocation = HSA_VARIABLE_ALLOCATION_AGENT;
		s->is_definition = true;
		s->address = cs->value + (uint64_t)l->delta;
		s->size = cs->size;
		s->align = cs->align;
		if (cs->kernel >= 0) {
			s->kind = HSA_SYMBOL_KIND_KERNEL;
			s->kernel = &co->kernels[cs->kernel];
			if (s->address % HL_KD_SIZE) { /* parse checked st_value; the base too */
				hl_error(LOG, "kernel object of '%s' at %#llx is not 64-byte aligned",
					 cs->name, (unsigned long long)s->address);
				free(s->name);
				free(s);
				err = -ENOEXEC;
				goto err_free_new;
			}
		} else {
			s->kind = HSA_SYMBOL_KIND_VARIABLE;
			/* ROCr's answers, not the names' plain reading: see the
			 * file comment. */
			s->is_const = (cs->sh_flags & SHF_WRITE) != 0;
			s->segment = (cs->sh_flags & SHF_AMDGPU_HSA_READONLY)
					     ? HSA_VARIABLE_SEGMENT_READONLY
					     : HSA_VARIABLE_SEGMENT_GLOBAL;
			s->allocation = (cs->sh_flags & SHF_AMDGPU_HSA_AGENT)
						? HSA_VARIABLE_ALLOCATION_AGENT
						: HSA_VARIABLE_ALLOCATION_PROGRAM;
		}
		*tail = s;
		tail = &s->next;
	}
	for (struct hl_symbol *s = head; s;) {
		struct hl_symbol *n = s->next;
		s->next = NULL;
		hl_symbol_append(l->exe, s);
		s = n;
	}
	return 0;

err_free_new:
	symbol_free_list(head);
	return err;
}

static hsa_executable_symbol_t handle_of(const struct hl_symbol *s)
{
	hsa_executable_symbol_t h = { (uint64_t)(uintptr_t)s };
	return h;
}

hsa_status_t hsa_executable_get_symbol_by_name(hsa_executable_t executable,
					       const char *symbol_name, const hsa_agent_t *agent,
					       hsa_executable_symbol_t *symbol)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	struct hl_loader_registry *lr = rt->loader;
	if (!symbol_name || !symbol)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	hsa_status_t st = HSA_STATUS_SUCCESS;
	hl_loader_lock(lr);
	struct hl_executable *e = hl_executable_lookup(lr, executable);
	struct hl_agent *a = agent ? hl_agent_lookup(rt, *agent) : NULL;
	struct hl_symbol *s = NULL;
	if (!e)
		st = HSA_STATUS_ERROR_INVALID_EXECUTABLE;
	else if (agent && !a)
		st = HSA_STATUS_ERROR_INVALID_AGENT;
	else if (!(s = hl_symbol_find(e, symbol_name, a)))
		st = HSA_STATUS_ERROR_INVALID_SYMBOL_NAME;
	else
		*symbol = handle_of(s);
	hl_loader_unlock(lr);
	return st;
}

hsa_status_t hsa_executable_get_symbol(hsa_executable_t executable, const char *module_name,
				       const char *symbol_name, hsa_agent_t agent,
				       int32_t call_convention, hsa_executable_symbol_t *symbol)
{
	(void)call_convention;
	if (!hl_runtime_get())
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!symbol_name)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	/* ROCr's name for a module-linkage symbol is "module::name". */
	char *name = NULL;
	if (module_name && *module_name) {
		if (asprintf(&name, "%s::%s", module_name, symbol_name) < 0)
			return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	}
	hsa_status_t s = hsa_executable_get_symbol_by_name(executable, name ? name : symbol_name,
							   agent.handle ? &agent : NULL, symbol);
	free(name);
	return s;
}

enum iter_filter { ITER_ALL, ITER_AGENT, ITER_PROGRAM };

static hsa_status_t iterate(hsa_executable_t executable, enum iter_filter filter,
			    const hsa_agent_t *agent,
			    hsa_status_t (*cb)(hsa_executable_t, hsa_executable_symbol_t, void *),
			    hsa_status_t (*agent_cb)(hsa_executable_t, hsa_agent_t,
						     hsa_executable_symbol_t, void *),
			    void *data)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	struct hl_loader_registry *lr = rt->loader;
	if (!cb && !agent_cb)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	hsa_status_t st = HSA_STATUS_SUCCESS;
	hl_loader_lock(lr);
	struct hl_executable *e = hl_executable_lookup(lr, executable);
	struct hl_agent *a = agent ? hl_agent_lookup(rt, *agent) : NULL;
	if (!e) {
		st = HSA_STATUS_ERROR_INVALID_EXECUTABLE;
	} else if (filter == ITER_AGENT && !a) {
		st = HSA_STATUS_ERROR_INVALID_AGENT;
	} else {
		for (struct hl_symbol *s = e->symbols; s && st == HSA_STATUS_SUCCESS;) {
			/* Read next first: the callback may not free s, but it may
			 * define variables, which append. */
			struct hl_symbol *next = s->next;
			if (filter == ITER_ALL)
				st = cb(executable, handle_of(s), data);
			else if (filter == ITER_PROGRAM && !s->agent)
				st = cb(executable, handle_of(s), data);
			else if (filter == ITER_AGENT && s->agent == a)
				st = agent_cb(executable, *agent, handle_of(s), data);
			s = next;
		}
	}
	hl_loader_unlock(lr);
	return st;
}

hsa_status_t hsa_executable_iterate_symbols(hsa_executable_t executable,
	hsa_status_t (*callback)(hsa_executable_t, hsa_executable_symbol_t, void *), void *data)
{
	return iterate(executable, ITER_ALL, NULL, callback, NULL, data);
}

hsa_status_t hsa_executable_iterate_program_symbols(hsa_executable_t executable,
	hsa_status_t (*callback)(hsa_executable_t, hsa_executable_symbol_t, void *), void *data)
{
	return iterate(executable, ITER_PROGRAM, NULL, callback, NULL, data);
}

hsa_status_t hsa_executable_iterate_agent_symbols(hsa_executable_t executable, hsa_agent_t agent,
	hsa_status_t (*callback)(hsa_executable_t, hsa_agent_t, hsa_executable_symbol_t, void *),
	void *data)
{
	return iterate(executable, ITER_AGENT, &agent, NULL, callback, data);
}

/* Kernel attributes; false when attr is not one. */
static bool kernel_info(const struct hl_symbol *s, hsa_executable_symbol_info_t attr, void *v,
			hsa_status_t *st)
{
	const struct hl_co_kernel *k = s->kernel;
	bool is_kernel = s->kind == HSA_SYMBOL_KIND_KERNEL;
	switch (attr) {
	case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT:
		if (is_kernel)
			*(uint64_t *)v = s->address;
		break;
	case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE:
		if (is_kernel)
			*(uint32_t *)v = k->kernarg_size;
		break;
	case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT:
		if (is_kernel)
			*(uint32_t *)v = k->kernarg_align;
		break;
	case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE:
		if (is_kernel)
			*(uint32_t *)v = k->group_size;
		break;
	case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE:
		if (is_kernel)
			*(uint32_t *)v = k->private_size;
		break;
	case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_DYNAMIC_CALLSTACK:
		if (is_kernel)
			*(bool *)v = k->uses_dynamic_stack;
		break;
	case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_CALL_CONVENTION:
		/* The ISA's only call convention (HSA_ISA_INFO_CALL_CONVENTION_COUNT 1). */
		if (is_kernel)
			*(uint32_t *)v = 0;
		break;
	default:
		return false;
	}
	if (!is_kernel)
		*st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
	return true;
}

static bool variable_info(const struct hl_symbol *s, hsa_executable_symbol_info_t attr, void *v,
			  hsa_status_t *st)
{
	bool is_var = s->kind == HSA_SYMBOL_KIND_VARIABLE;
	switch (attr) {
	case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS:
		if (is_var)
			*(uint64_t *)v = s->address;
		break;
	case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ALLOCATION:
		if (is_var)
			*(hsa_variable_allocation_t *)v = s->allocation;
		break;
	case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SEGMENT:
		if (is_var)
			*(hsa_variable_segment_t *)v = s->segment;
		break;
	case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ALIGNMENT:
		if (is_var)
			*(uint32_t *)v = (uint32_t)s->align;
		break;
	case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE:
		if (is_var)
			*(uint32_t *)v = (uint32_t)s->size;
		break;
	case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_IS_CONST:
		if (is_var)
			*(bool *)v = s->is_const;
		break;
	default:
		return false;
	}
	if (!is_var)
		*st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
	return true;
}

static hsa_status_t symbol_info(const struct hl_symbol *s, hsa_executable_symbol_info_t attr,
				void *v)
{
	hsa_status_t st = HSA_STATUS_SUCCESS;
	if (kernel_info(s, attr, v, &st) || variable_info(s, attr, v, &st))
		return st;
	switch (attr) {
	case HSA_EXECUTABLE_SYMBOL_INFO_TYPE:
		*(hsa_symbol_kind_t *)v = s->kind;
		break;
	case HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH:
		*(uint32_t *)v = (uint32_t)strlen(s->name);
		break;
	case HSA_EXECUTABLE_SYMBOL_INFO_NAME:
		/* NAME_LENGTH bytes, no terminator, as ROCr writes it. */
		memcpy(v, s->name, strlen(s->name));
		break;
	case HSA_EXECUTABLE_SYMBOL_INFO_MODULE_NAME_LENGTH:
		*(uint32_t *)v = 0;
		break;
	case HSA_EXECUTABLE_SYMBOL_INFO_MODULE_NAME:
		break; /* zero bytes: program linkage has no module */
	case HSA_EXECUTABLE_SYMBOL_INFO_LINKAGE:
		*(hsa_symbol_linkage_t *)v = s->linkage;
		break;
	case HSA_EXECUTABLE_SYMBOL_INFO_IS_DEFINITION:
		*(bool *)v = s->is_definition;
		break;
	case HSA_EXECUTABLE_SYMBOL_INFO_AGENT:
		((hsa_agent_t *)v)->handle = (uint64_t)(uintptr_t)s->agent;
		break;
	default:
		/* INDIRECT_FUNCTION_*: no symbol is an indirect function. */
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	}
	return st;
}

hsa_status_t hsa_executable_symbol_get_info(hsa_executable_symbol_t symbol,
					    hsa_executable_symbol_info_t attribute, void *value)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	struct hl_loader_registry *lr = rt->loader;
	if (!value)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	hl_loader_lock(lr);
	struct hl_symbol *s = hl_symbol_lookup(lr, symbol);
	hsa_status_t st = s ? symbol_info(s, attribute, value)
			    : HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL;
	hl_loader_unlock(lr);
	return st;
}
