/*
 * Placing a code object: copy its PT_LOAD segments to their offsets from
 * the load base and apply the dynamic relocations (AMDGPUUsage "Relocation
 * Records"), writing through a host-visible view of the destination.
 *
 * Symbols: S is the symbol's load address (its st_value plus the load
 * delta) or, for an undefined symbol, what the resolver answers (a
 * variable the application defined with hsa_executable_*_variable_define);
 * A the addend; P the patched location's device address; B the load delta.
 *   ABS64 S+A (8)  ABS32 S+A (4, must fit)  ABS32_LO/HI (S+A) low/high 32
 *   REL32 S+A-P (4, must fit)  REL64 S+A-P (8)  RELATIVE64 B+A (8)
 * hl_co_parse already proved each patched range lies inside a segment's
 * memory image, so the writes stay inside the load span.
 */
#include <elf.h>
#include <errno.h>
#include <string.h>

#include "loader/loader_priv.h"
#include "util/log.h"

#define LOG "loader"

static int symbol_value(const struct hl_code_object *co, uint32_t idx, uint64_t delta,
			hl_co_resolver_fn resolve, void *ctx, uint64_t *out)
{
	const struct hl_co_symbol *s = &co->syms[idx];
	if (idx == 0) {
		*out = 0;
		return 0;
	}
	if (s->shndx == SHN_UNDEF) {
		if (!resolve || resolve(ctx, s->name, out) != 0) {
			hl_error(LOG, "relocation against undefined symbol '%s', which the executable "
				 "does not define", s->name);
			return -ENOEXEC;
		}
		return 0;
	}
	*out = s->shndx == SHN_ABS ? s->value : s->value + delta;
	return 0;
}

int hl_co_place(const struct hl_code_object *co, void *host, uint64_t load_base,
		hl_co_resolver_fn resolve, void *ctx)
{
	uint8_t *dst = host;
	uint64_t size = hl_co_load_size(co);
	uint64_t delta = load_base - co->vaddr_lo;
	memset(dst, 0, size);
	for (uint32_t i = 0; i < co->n_segs; i++) {
		const struct hl_co_segment *s = &co->segs[i];
		memcpy(dst + (s->vaddr - co->vaddr_lo), co->image + s->offset, s->filesz);
	}
	for (uint32_t i = 0; i < co->n_relocs; i++) {
		const struct hl_co_reloc *r = &co->relocs[i];
		uint8_t *where = dst + (r->offset - co->vaddr_lo);
		uint64_t p = r->offset + delta, s = 0, v;
		int err = symbol_value(co, r->sym, delta, resolve, ctx, &s);
		if (err)
			return err;
		switch (r->type) {
		case HL_R_AMDGPU_ABS64:
			v = s + (uint64_t)r->addend;
			memcpy(where, &v, 8);
			break;
		case HL_R_AMDGPU_REL64:
			v = s + (uint64_t)r->addend - p;
			memcpy(where, &v, 8);
			break;
		case HL_R_AMDGPU_RELATIVE64:
			v = delta + (uint64_t)r->addend;
			memcpy(where, &v, 8);
			break;
		case HL_R_AMDGPU_ABS32_LO:
		case HL_R_AMDGPU_ABS32_HI:
		case HL_R_AMDGPU_ABS32:
		case HL_R_AMDGPU_REL32: {
			v = s + (uint64_t)r->addend;
			if (r->type == HL_R_AMDGPU_REL32)
				v -= p;
			if (r->type == HL_R_AMDGPU_ABS32_HI)
				v >>= 32;
			int64_t sv = (int64_t)v;
			if ((r->type == HL_R_AMDGPU_ABS32 && v > UINT32_MAX) ||
			    (r->type == HL_R_AMDGPU_REL32 && (sv < INT32_MIN || sv > INT32_MAX))) {
				hl_error(LOG, "relocation %u (type %u) at %#llx: value %#llx does not "
					 "fit 32 bits", i, r->type, (unsigned long long)r->offset,
					 (unsigned long long)v);
				return -ENOEXEC;
			}
			uint32_t v32 = (uint32_t)v;
			memcpy(where, &v32, 4);
			break;
		}
		default:
			/* hl_co_parse admits only the types above. */
			hl_error(LOG, "relocation %u: type %u cannot be applied", i, r->type);
			return -ENOEXEC;
		}
	}
	return 0;
}
