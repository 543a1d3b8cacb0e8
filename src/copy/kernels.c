/*
 * The blit kernels of one GPU agent: the embedded code object for its
 * processor (hl_blit_codes, generated at build time from kernels/blit.cl),
 * loaded through our own loader (a code object reader over the embedded
 * bytes, an executable holding it for the agent, frozen, which also
 * invalidates the agent's code caches) and the kernel descriptors and
 * segment sizes looked up by symbol name.
 *
 * The executable is an ordinary one: the loader's iterate and query
 * functions see it, as ROCr's loader sees its own blit code.  It lives
 * until the blit is dropped or the last hsa_shut_down (the loader's
 * teardown frees it then).
 */
#include <errno.h>
#include <string.h>

#include "copy/copy_priv.h"
#include "runtime/status.h"
#include "util/log.h"

static const char *const kernel_symbols[HL_BLIT_KERNELS] = {
	[HL_BLIT_COPY] = "hl_copy.kd",
	[HL_BLIT_COPY_RECT] = "hl_copy_rect.kd",
	[HL_BLIT_FILL] = "hl_fill.kd",
};

const struct hl_blit_code *hl_blit_code_for(const struct hl_agent *agent)
{
	const char *proc = hl_isa_processor(agent->isa);
	if (!proc)
		return NULL;
	for (const struct hl_blit_code *c = hl_blit_codes; c->gfx; c++)
		if (strcmp(c->gfx, proc) == 0)
			return c;
	return NULL;
}

static int errno_of(hsa_status_t st)
{
	switch (st) {
	case HSA_STATUS_SUCCESS: return 0;
	case HSA_STATUS_ERROR_OUT_OF_RESOURCES: return -ENOMEM;
	case HSA_STATUS_ERROR_INVALID_CODE_OBJECT:
	case HSA_STATUS_ERROR_INVALID_ISA: return -ENOEXEC;
	default: return -EIO;
	}
}

void hl_blit_kernels_unload(struct hl_blit_kernels *k)
{
	if (k->exe.handle)
		hsa_executable_destroy(k->exe);
	if (k->reader.handle)
		hsa_code_object_reader_destroy(k->reader);
	memset(k, 0, sizeof(*k));
}

int hl_blit_kernels_load(struct hl_agent *agent, struct hl_blit_kernels *out)
{
	memset(out, 0, sizeof(*out));
	const struct hl_blit_code *code = hl_blit_code_for(agent);
	if (!code) {
		hl_error(COPY_LOG, "%s: no blit kernels were built for %s", agent->name,
			 hl_isa_processor(agent->isa) ? hl_isa_processor(agent->isa) : "it");
		return -ENOENT;
	}
	hsa_agent_t ha = hl_agent_handle(agent);
	const char *what = "reader";
	hsa_status_t st = hsa_code_object_reader_create_from_memory(code->image, code->size,
								     &out->reader);
	if (st == HSA_STATUS_SUCCESS) {
		what = "executable";
		st = hsa_executable_create_alt(HSA_PROFILE_FULL,
					       HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL,
					       &out->exe);
	}
	if (st == HSA_STATUS_SUCCESS) {
		what = "load";
		st = hsa_executable_load_agent_code_object(out->exe, ha, out->reader, NULL, NULL);
	}
	if (st == HSA_STATUS_SUCCESS) {
		what = "freeze";
		st = hsa_executable_freeze(out->exe, NULL);
	}
	for (int i = 0; st == HSA_STATUS_SUCCESS && i < HL_BLIT_KERNELS; i++) {
		hsa_executable_symbol_t sym;
		what = kernel_symbols[i];
		st = hsa_executable_get_symbol_by_name(out->exe, kernel_symbols[i], &ha, &sym);
		if (st == HSA_STATUS_SUCCESS)
			st = hsa_executable_symbol_get_info(
				sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &out->object[i]);
		if (st == HSA_STATUS_SUCCESS)
			st = hsa_executable_symbol_get_info(
				sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE,
				&out->kernarg_size[i]);
		if (st == HSA_STATUS_SUCCESS)
			st = hsa_executable_symbol_get_info(
				sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE,
				&out->group_size[i]);
		if (st == HSA_STATUS_SUCCESS)
			st = hsa_executable_symbol_get_info(
				sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE,
				&out->private_size[i]);
	}
	if (st != HSA_STATUS_SUCCESS) {
		hl_error(COPY_LOG, "%s: loading the blit kernels (%s, %zu bytes): %s: %s",
			 agent->name, code->gfx, code->size, what, hl_status_name(st));
		hl_blit_kernels_unload(out);
		return errno_of(st);
	}
	hl_debug(COPY_LOG, "%s: blit kernels loaded (%s, %zu bytes)", agent->name, code->gfx,
		 code->size);
	return 0;
}
