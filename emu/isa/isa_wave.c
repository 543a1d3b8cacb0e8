/*
 * isa_wave.c — what every executor shares about one wave: register access
 * (scalar operands, the aperture constants, vector rows under EXEC),
 * memory through kemu_isa_mem (the wave's TLB, page-straddling copies,
 * fault reports), error reports, and the interpreter's statistics.
 */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>

#include "isa_priv.h"

/* ---- statistics ---- */

static _Atomic uint64_t stat_insts, stat_waves, stat_wgs, stat_progs, stat_reused;

void kemu_isa_stats_reused(void)
{
	atomic_fetch_add_explicit(&stat_reused, 1, memory_order_relaxed);
}

void kemu_isa_stats_add(uint64_t insts, uint64_t waves, uint64_t wgs, uint64_t progs)
{
	atomic_fetch_add_explicit(&stat_insts, insts, memory_order_relaxed);
	atomic_fetch_add_explicit(&stat_waves, waves, memory_order_relaxed);
	atomic_fetch_add_explicit(&stat_wgs, wgs, memory_order_relaxed);
	atomic_fetch_add_explicit(&stat_progs, progs, memory_order_relaxed);
}

void kemu_isa_stats_get(struct kemu_isa_stats *out)
{
	out->wave_instructions = atomic_load_explicit(&stat_insts, memory_order_relaxed);
	out->waves = atomic_load_explicit(&stat_waves, memory_order_relaxed);
	out->workgroups = atomic_load_explicit(&stat_wgs, memory_order_relaxed);
	out->programs_decoded = atomic_load_explicit(&stat_progs, memory_order_relaxed);
	out->programs_reused = atomic_load_explicit(&stat_reused, memory_order_relaxed);
	out->programs_cached = kemu_isa_cache_count();
}

const char *kemu_isa_error_name(enum kemu_isa_error_kind kind)
{
	switch (kind) {
	case KEMU_ISA_OK: return "ok";
	case KEMU_ISA_ERR_ILLEGAL_INSTRUCTION: return "illegal instruction";
	case KEMU_ISA_ERR_MEMORY_FAULT: return "memory fault";
	case KEMU_ISA_ERR_BAD_DESCRIPTOR: return "bad kernel descriptor";
	case KEMU_ISA_ERR_BAD_DISPATCH: return "bad dispatch";
	case KEMU_ISA_ERR_TRAP: return "s_trap";
	case KEMU_ISA_ERR_LDS_RANGE: return "LDS out of range";
	case KEMU_ISA_ERR_NO_MEMORY: return "out of host memory";
	case KEMU_ISA_ERR_HALT: return "wave halted";
	case KEMU_ISA_ERR_WATCHDOG: return "watchdog (instruction limit)";
	case KEMU_ISA_PREEMPTED: return "preempted";
	case KEMU_ISA_ERR_MEM_VIOL: return "memory violation";
	case KEMU_ISA_ERR_DEADLOCK: return "deadlock";
	}
	return "unknown";
}

/* ---- errors ---- */

static void err_set(struct kemu_isa_error *err, enum kemu_isa_error_kind kind, uint64_t pc,
		    const char *fmt, va_list ap)
{
	if (!err)
		return;
	memset(err, 0, sizeof(*err));
	err->kind = kind;
	err->pc = pc;
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
}

void isa_err_setf(struct kemu_isa_error *err, enum kemu_isa_error_kind kind, uint64_t pc,
		  const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	err_set(err, kind, pc, fmt, ap);
	va_end(ap);
}

int isa_fail(struct isa_wave *w, const struct isa_inst *in, enum kemu_isa_error_kind kind,
	     const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	err_set(w->err, kind, in ? in->addr : 0, fmt, ap);
	va_end(ap);
	if (w->err) {
		w->err->wave = w->id;
		if (in) {
			w->err->encoding[0] = in->word[0];
			w->err->encoding[1] = in->size > 4 ? in->word[1] : 0;
		}
	}
	return ISA_STEP_ERROR;
}

int isa_fault(struct isa_wave *w, const struct isa_inst *in, uint64_t va, unsigned access)
{
	const char *what = access & KEMU_ISA_ACCESS_ATOMIC ? "atomic"
		: access & KEMU_ISA_ACCESS_WRITE ? "write"
		: access & KEMU_ISA_ACCESS_EXEC ? "instruction fetch" : "read";
	isa_fail(w, in, KEMU_ISA_ERR_MEMORY_FAULT, "GPU memory fault: %s at VA 0x%llx (pc 0x%llx)",
		 what, (unsigned long long)va, (unsigned long long)(in ? in->addr : 0));
	if (w->err) {
		w->err->va = va;
		w->err->access = access;
	}
	return ISA_STEP_ERROR;
}

/* The opcode field of the instruction's own encoding (VALU instructions
 * keep their VOP3-space opcode in in->op). */
unsigned kemu_isa_raw_opcode(const struct isa_inst *in)
{
	unsigned op = 0;

	switch ((enum isa_enc)in->enc) {
	case ISA_ENC_SOP2: op = (in->word[0] >> 23) & 0x7f; break;
	case ISA_ENC_SOPK: op = (in->word[0] >> 23) & 0x1f; break;
	case ISA_ENC_SOP1: op = (in->word[0] >> 8) & 0xff; break;
	case ISA_ENC_SOPC: case ISA_ENC_SOPP: op = (in->word[0] >> 16) & 0x7f; break;
	case ISA_ENC_SMEM: op = (in->word[0] >> 18) & 0xff; break;
	case ISA_ENC_VOP2: op = (in->word[0] >> 25) & 0x3f; break;
	case ISA_ENC_VOP1: op = (in->word[0] >> 9) & 0xff; break;
	case ISA_ENC_VOPC: op = (in->word[0] >> 17) & 0xff; break;
	case ISA_ENC_VOP3: op = (in->word[0] >> 16) & 0x3ff; break;
	case ISA_ENC_VOP3P: op = (in->word[0] >> 16) & 0x7f; break;
	case ISA_ENC_DS: op = (in->word[0] >> 17) & 0xff; break;
	case ISA_ENC_FLAT: case ISA_ENC_SCRATCH: case ISA_ENC_GLOBAL:
	case ISA_ENC_MUBUF: case ISA_ENC_MIMG: op = (in->word[0] >> 18) & 0x7f; break;
	case ISA_ENC_MTBUF: op = (in->word[0] >> 15) & 0xf; break;
	default: break;
	}
	return op;
}

int isa_exec_illegal(struct isa_wave *w, const struct isa_inst *in)
{
	enum isa_enc e = (enum isa_enc)in->enc;
	unsigned op = kemu_isa_raw_opcode(in);
	const char *name = e == ISA_ENC_MIMG ? kemu_isa_mimg_mnemonic(w->p->gfx942, op)
					     : kemu_isa_mnemonic(w->p->gfx942, e, op);
	/* encodings without a name table: the whole encoding is missing */
	bool unnamed = e == ISA_ENC_MTBUF || e == ISA_ENC_EXP;
	const char *none = unnamed ? "this encoding is not implemented" : "no such opcode";

	/* CDNA3 dropped the image instructions (LLVM rejects MIMG for gfx940+) */
	if (e == ISA_ENC_MIMG)
		none = w->p->gfx942 ? "gfx942 has no image instructions" : "no such opcode";
	isa_fail(w, in, KEMU_ISA_ERR_ILLEGAL_INSTRUCTION,
		 "illegal instruction at 0x%llx: %s opcode 0x%x (%s)%s [%08x %08x]",
		 (unsigned long long)in->addr, kemu_isa_enc_name(e), op,
		 name ? name : none,
		 name ? " not implemented or invalid operands" : "",
		 in->word[0], in->size > 4 ? in->word[1] : 0);
	return ISA_STEP_ERROR;
}

/* ---- register access ---- */

static uint64_t aperture_base(const struct isa_wave *w, unsigned code)
{
	const struct kemu_isa_apertures *a = &w->wg->d->apertures;
	uint64_t base = code <= ISA_SRC_SHARED_LIMIT ? a->shared_base : a->private_base;
	/* SRC_*_BASE / SRC_*_LIMIT: the aperture's 64-bit base and last byte;
	 * a 32-bit read sees bits [63:32] (the aperture is 4 GiB aligned). */
	if (code == ISA_SRC_SHARED_LIMIT || code == ISA_SRC_PRIVATE_LIMIT)
		return base + 0xffffffffull;
	return base;
}

/* A scalar source of any kind; isa_sread32/64 (isa_priv.h) call these for
 * the kinds they do not read inline. */
uint32_t isa_sread32_other(const struct isa_wave *w, const struct isa_opnd *o)
{
	switch (o->kind) {
	case ISA_OPND_SREG: return w->s[o->reg];
	case ISA_OPND_CONST: return (uint32_t)o->imm;
	case ISA_OPND_SCC: return w->scc;
	case ISA_OPND_VCCZ: return isa_vcc(w) == 0;
	case ISA_OPND_EXECZ: return isa_exec(w) == 0;
	case ISA_OPND_APERTURE: return (uint32_t)(aperture_base(w, o->code) >> 32);
	default: return 0;
	}
}

uint64_t isa_sread64_other(const struct isa_wave *w, const struct isa_opnd *o)
{
	switch (o->kind) {
	case ISA_OPND_SREG: return isa_sreg64(w, o->reg);
	case ISA_OPND_CONST: return o->imm;
	case ISA_OPND_SCC: return w->scc;
	case ISA_OPND_VCCZ: return isa_vcc(w) == 0;
	case ISA_OPND_EXECZ: return isa_exec(w) == 0;
	case ISA_OPND_APERTURE: return aperture_base(w, o->code) & ~0xffffffffull;
	default: return 0;
	}
}

/* ---- memory ---- */

/* The wave's TLB miss (and generation change): pages it translated are
 * kept for as long as mem->generation (when there is one) stays the same
 * (isa.h, struct kemu_isa_mem); isa_mem_probe() is the hit path. */
uint8_t *isa_tlb_fill(struct isa_wave *w, uint64_t page, unsigned access)
{
	const struct kemu_isa_mem *mem = w->wg->mem;
	struct isa_tlb_entry *e = &w->tlb[(page >> 12) % ISA_TLB];
	uint8_t *h;

	if (mem->generation) {
		/* acquire: pairs with the release bump that follows an unmap, so
		 * an entry kept from before it is never used after it */
		uint64_t gen = atomic_load_explicit(mem->generation, memory_order_acquire);
		if (gen != w->tlb_gen) {
			memset(w->tlb, 0, sizeof(w->tlb));
			w->tlb_gen = gen;
		}
	}
	if (e->page == (page | 1) && (e->access & access) == access)
		return e->host;
	h = mem->translate(mem->ctx, page, 4096, access);
	if (h) {
		e->page = page | 1;
		e->host = h;
		e->access = access;
	}
	return h;
}

uint8_t *isa_mem_span(struct isa_wave *w, uint64_t va, uint64_t len, uint32_t touched,
		      unsigned access)
{
	uint64_t first = va & ~4095ull, last;
	uint8_t *h0;
	unsigned i = 1;

	if (!len || va + len < va)
		return NULL;
	last = (va + len - 1) & ~4095ull;
	if ((last - first) / 4096 >= ISA_SPAN_PAGES)
		return NULL;
	h0 = isa_mem_probe(w, first, access);
	if (!h0)
		return NULL;
	for (uint64_t pg = first + 4096; pg && pg <= last; pg += 4096, i++)
		if ((touched >> i & 1) &&
		    (uint8_t *)isa_mem_probe(w, pg, access) != h0 + (pg - first))
			return NULL;
	return h0 + (va - first);
}

void *isa_mem_map(struct isa_wave *w, const struct isa_inst *in, uint64_t va, uint32_t len,
		  unsigned access)
{
	const struct kemu_isa_mem *mem = w->wg->mem;
	uint64_t page = va & ~4095ull;
	uint8_t *h = isa_mem_probe(w, page, access);

	if (h)
		return h + (va - page);
	/* Part of the page may be unmapped: ask for just this range. */
	h = mem->translate(mem->ctx, va, len, access);
	if (!h)
		isa_fault(w, in, va, access);
	return h;
}

/* Copies len bytes between GPU memory at va and host memory, one page at a
 * time (translate never spans a page); write selects the direction and the
 * access reported on a fault; buf is only read when write is set. */
static int mem_copy(struct isa_wave *w, const struct isa_inst *in, uint64_t va, void *buf,
		    uint32_t len, bool write)
{
	uint8_t *b = buf;

	while (len) {
		uint32_t chunk = 4096 - (uint32_t)(va & 4095);
		void *h;
		if (chunk > len)
			chunk = len;
		h = isa_mem_map(w, in, va, chunk,
				write ? KEMU_ISA_ACCESS_WRITE : KEMU_ISA_ACCESS_READ);
		if (!h)
			return -1;
		if (write)
			memcpy(h, b, chunk);
		else
			memcpy(b, h, chunk);
		b += chunk;
		va += chunk;
		len -= chunk;
	}
	return 0;
}

int isa_mem_read(struct isa_wave *w, const struct isa_inst *in, uint64_t va, void *dst,
		 uint32_t len)
{
	return mem_copy(w, in, va, dst, len, false);
}

int isa_mem_write(struct isa_wave *w, const struct isa_inst *in, uint64_t va, const void *src,
		  uint32_t len)
{
	return mem_copy(w, in, va, (void *)src, len, true);
}
