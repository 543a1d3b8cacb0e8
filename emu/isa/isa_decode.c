/*
 * isa_decode.c — turns a kernel's machine code into a program: an array
 * of struct isa_inst sorted by address, built once per kernel.
 *
 * Discovery is by control flow from the entry point (a worklist of
 * addresses: fall-through and direct branch targets; s_endpgm, s_branch
 * and s_setpc end a straight-line run), because the kernel descriptor does
 * not say where the code ends and .text is padded with s_nop after
 * s_endpgm.  An instruction that cannot be fetched (unmapped code) or
 * decoded becomes an entry whose executor reports the error when — and
 * only if — a wave reaches it, as the hardware faults only on execution.
 *
 * Encoding classification (gfx9 / CDNA2 / CDNA3 ISA guides, "Microcode
 * formats"): the top bits of the first dword select the format; SOPP,
 * SOPC and SOP1 are carved out of the SOP2 space by bits [31:23], SOPK by
 * [31:28]; VOP3P is the top of the VOP3 opcode space ([31:23] = 0x1a7).
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "isa_priv.h"

#define ISA_MAX_INSTS (1u << 20)

const char *kemu_isa_enc_name(enum isa_enc enc)
{
	static const char *const names[] = {
		"SOP2", "SOPK", "SOP1", "SOPC", "SOPP", "SMEM", "VOP2", "VOP1", "VOPC",
		"VOP3", "VOP3P", "DS", "FLAT", "SCRATCH", "GLOBAL", "MUBUF", "MTBUF",
		"MIMG", "EXP", "unknown",
	};
	return (unsigned)enc < sizeof(names) / sizeof(names[0]) ? names[enc] : "unknown";
}

static enum isa_enc classify(uint32_t w0)
{
	uint32_t top9 = w0 >> 23, top6 = w0 >> 26;

	if ((w0 >> 31) == 0) {
		uint32_t top7 = w0 >> 25;
		if (top7 == 0x3f)
			return ISA_ENC_VOP1;
		if (top7 == 0x3e)
			return ISA_ENC_VOPC;
		return ISA_ENC_VOP2;
	}
	if (top9 == 0x17f)
		return ISA_ENC_SOPP;
	if (top9 == 0x17e)
		return ISA_ENC_SOPC;
	if (top9 == 0x17d)
		return ISA_ENC_SOP1;
	if ((w0 >> 28) == 0xb)
		return ISA_ENC_SOPK;
	if ((w0 >> 30) == 2)
		return ISA_ENC_SOP2;
	if (top9 == 0x1a7)
		return ISA_ENC_VOP3P;
	switch (top6) {
	case 0x30: return ISA_ENC_SMEM;
	case 0x34: return ISA_ENC_VOP3;
	case 0x36: return ISA_ENC_DS;
	case 0x37: {
		unsigned seg = (w0 >> 14) & 3;
		return seg == 0 ? ISA_ENC_FLAT : seg == 1 ? ISA_ENC_SCRATCH
			: seg == 2 ? ISA_ENC_GLOBAL : ISA_ENC_UNKNOWN;
	}
	case 0x38: return ISA_ENC_MUBUF;
	case 0x3a: return ISA_ENC_MTBUF;
	case 0x3c: return ISA_ENC_MIMG;
	case 0x31: return ISA_ENC_EXP;
	default: return ISA_ENC_UNKNOWN;
	}
}

static bool is64(enum isa_enc e)
{
	switch (e) {
	case ISA_ENC_SMEM: case ISA_ENC_VOP3: case ISA_ENC_VOP3P: case ISA_ENC_DS:
	case ISA_ENC_FLAT: case ISA_ENC_SCRATCH: case ISA_ENC_GLOBAL:
	case ISA_ENC_MUBUF: case ISA_ENC_MTBUF: case ISA_ENC_MIMG: case ISA_ENC_EXP:
		return true;
	default:
		return false;
	}
}

/* Does a 32-bit format carry an extra dword (literal, SDWA or DPP)?  Only
 * SOP1/SOP2/SOPC, SOPK s_setreg_imm32_b32 and VOP1/VOP2/VOPC can (gfx9 has
 * no VOP3 literals). */
static bool has_extra_dword(enum isa_enc e, uint32_t w0)
{
	switch (e) {
	case ISA_ENC_SOP2:
	case ISA_ENC_SOPC:
		return (w0 & 0xff) == 255 || ((w0 >> 8) & 0xff) == 255;
	case ISA_ENC_SOP1:
		return (w0 & 0xff) == 255;
	case ISA_ENC_SOPK:
		return ((w0 >> 23) & 0x1f) == 0x14; /* s_setreg_imm32_b32 */
	case ISA_ENC_VOP2: {
		unsigned op = (w0 >> 25) & 0x3f;
		/* v_madmk/madak_f32 (0x17/0x18), v_madmk/madak_f16 (0x24/0x25) */
		if (op == 0x17 || op == 0x18 || op == 0x24 || op == 0x25)
			return true;
	}
		/* fallthrough */
	case ISA_ENC_VOP1:
	case ISA_ENC_VOPC: {
		unsigned s0 = w0 & 0x1ff;
		return s0 == ISA_SRC_LITERAL || s0 == ISA_SRC_SDWA || s0 == ISA_SRC_DPP;
	}
	default:
		return false;
	}
}

void kemu_isa_opnd(struct isa_opnd *o, unsigned code, enum isa_type t, uint32_t literal)
{
	static const uint32_t f32c[9] = { 0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000,
		0x40000000, 0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983 };
	static const uint64_t f64c[9] = { 0x3fe0000000000000ull, 0xbfe0000000000000ull,
		0x3ff0000000000000ull, 0xbff0000000000000ull, 0x4000000000000000ull,
		0xc000000000000000ull, 0x4010000000000000ull, 0xc010000000000000ull,
		0x3fc45f306dc9c882ull };
	static const uint16_t f16c[9] = { 0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000,
		0x4400, 0xc400, 0x3118 };

	memset(o, 0, sizeof(*o));
	o->code = (uint16_t)code;
	if (code >= ISA_SRC_VGPR0) {
		o->kind = ISA_OPND_VGPR;
		o->reg = (uint16_t)(code - ISA_SRC_VGPR0);
		return;
	}
	if (code < ISA_NSREG) {
		o->kind = ISA_OPND_SREG;
		o->reg = (uint16_t)code;
		return;
	}
	o->kind = ISA_OPND_CONST;
	if (code == ISA_SRC_ZERO) {
		o->imm = 0;
	} else if (code >= 129 && code <= 192) {
		o->imm = code - 128;                    /* 1..64 */
	} else if (code >= 193 && code <= 208) {
		o->imm = (uint64_t)(-(int64_t)(code - 192)); /* -1..-16 */
	} else if (code >= 240 && code <= 248) {
		/* Float inline constants take the operand's type; a 64-bit
		 * integer operand sees the f64 pattern (LLVM AMDGPU encoding). */
		if (t == ISA_T_F64 || t == ISA_T_B64)
			o->imm = f64c[code - 240];
		else if (t == ISA_T_F16 || t == ISA_T_B16)
			o->imm = f16c[code - 240];
		else
			o->imm = f32c[code - 240];
	} else if (code == ISA_SRC_LITERAL) {
		/* A 32-bit literal is the high half of an f64 operand and is
		 * zero-extended for a 64-bit integer operand. */
		o->imm = t == ISA_T_F64 ? (uint64_t)literal << 32 : literal;
	} else if (code == ISA_SRC_VCCZ) {
		o->kind = ISA_OPND_VCCZ;
	} else if (code == ISA_SRC_EXECZ) {
		o->kind = ISA_OPND_EXECZ;
	} else if (code == ISA_SRC_SCC) {
		o->kind = ISA_OPND_SCC;
	} else if (code >= ISA_SRC_SHARED_BASE && code <= ISA_SRC_PRIVATE_LIMIT) {
		o->kind = ISA_OPND_APERTURE;
	} else if (code == ISA_SRC_POPS_EXITING) {
		o->imm = 0;
	} else {
		o->kind = ISA_OPND_BAD;          /* reserved, LDS direct, SDWA/DPP */
	}
}

bool kemu_isa_needs_literal(uint32_t w0)
{
	enum isa_enc e = classify(w0);
	return has_extra_dword(e, w0);
}

/* ---- fetch ---- */

struct fetcher {
	const struct kemu_isa_mem *mem;
	uint64_t page;
	const uint8_t *host;
};

static int fetch32(struct fetcher *f, uint64_t va, uint32_t *out)
{
	uint64_t page = va & ~4095ull;

	if (va & 3)
		return -1;
	if (!f->host || f->page != page) {
		f->host = f->mem->translate(f->mem->ctx, page, 4096, KEMU_ISA_ACCESS_EXEC);
		f->page = page;
		if (!f->host) {
			/* A partially mapped page: translate just this dword. */
			const uint8_t *h = f->mem->translate(f->mem->ctx, va, 4,
							      KEMU_ISA_ACCESS_EXEC);
			if (!h)
				return -1;
			memcpy(out, h, 4);
			return 0;
		}
	}
	memcpy(out, f->host + (va - page), 4);
	return 0;
}

static int exec_fetch_fault(struct isa_wave *w, const struct isa_inst *in)
{
	return isa_fault(w, in, in->addr + in->offset, KEMU_ISA_ACCESS_EXEC);
}

static int exec_fell_off(struct isa_wave *w, const struct isa_inst *in)
{
	return isa_fail(w, in, KEMU_ISA_ERR_ILLEGAL_INSTRUCTION,
			"execution reached 0x%llx, which is not decoded code "
			"(jump into the middle of an instruction?)",
			(unsigned long long)in->addr);
}

/* Decode one instruction at va.  Always fills *in (an error stub when the
 * code cannot be fetched); returns false when the run should stop. */
static void decode_at(const struct isa_decoder *dc, struct fetcher *f, uint64_t va,
		      struct isa_inst *in)
{
	uint32_t w0;
	enum isa_enc e;

	memset(in, 0, sizeof(*in));
	in->addr = va;
	in->size = 4;
	in->enc = ISA_ENC_UNKNOWN;
	if (fetch32(f, va, &w0)) {
		in->exec = exec_fetch_fault;
		return;
	}
	in->word[0] = w0;
	e = classify(w0);
	in->enc = (uint8_t)e;
	if (is64(e)) {
		if (fetch32(f, va + 4, &in->word[1])) {
			in->exec = exec_fetch_fault;
			in->offset = 4;
			return;
		}
		in->size = 8;
	} else if (has_extra_dword(e, w0)) {
		if (fetch32(f, va + 4, &in->word[1])) {
			in->exec = exec_fetch_fault;
			in->offset = 4;
			return;
		}
		in->size = 8;
	}
	in->exec = isa_exec_illegal;
	switch (e) {
	case ISA_ENC_SOP2: case ISA_ENC_SOPK: case ISA_ENC_SOP1: case ISA_ENC_SOPC:
	case ISA_ENC_SOPP:
		kemu_isa_decode_salu(dc, in);
		break;
	case ISA_ENC_SMEM:
		kemu_isa_decode_smem(dc, in);
		break;
	case ISA_ENC_VOP1: case ISA_ENC_VOP2: case ISA_ENC_VOPC: case ISA_ENC_VOP3:
		kemu_isa_decode_valu(dc, in);
		break;
	case ISA_ENC_VOP3P:
		kemu_isa_decode_vop3p(dc, in);
		break;
	case ISA_ENC_DS:
		kemu_isa_decode_ds(dc, in);
		break;
	case ISA_ENC_FLAT: case ISA_ENC_SCRATCH: case ISA_ENC_GLOBAL:
		kemu_isa_decode_flat(dc, in);
		break;
	case ISA_ENC_MUBUF:
		kemu_isa_decode_mubuf(dc, in);
		break;
	case ISA_ENC_MTBUF:
		kemu_isa_decode_mtbuf(dc, in);
		break;
	case ISA_ENC_MIMG:
		kemu_isa_decode_mimg(dc, in);
		break;
	default:
		break;
	}
}

/* Control-flow facts of SOPP/SOP1 needed for discovery. */
enum flow { FLOW_NEXT, FLOW_END, FLOW_JUMP, FLOW_COND, FLOW_CALL, FLOW_INDIRECT };

static enum flow inst_flow(const struct isa_inst *in, uint64_t *target)
{
	if (in->exec == isa_exec_illegal || in->exec == exec_fetch_fault)
		return FLOW_END;
	if (in->enc == ISA_ENC_SOPP) {
		unsigned op = (in->word[0] >> 16) & 0x7f;
		int16_t simm = (int16_t)(in->word[0] & 0xffff);
		*target = in->addr + 4 + (int64_t)simm * 4;
		switch (op) {
		case 0x01: /* s_endpgm */
		case 0x1b: /* s_endpgm_saved */
			return FLOW_END;
		case 0x02: /* s_branch */
			return FLOW_JUMP;
		case 0x04: case 0x05: case 0x06: case 0x07: case 0x08: case 0x09:
		case 0x17: case 0x18: case 0x19: case 0x1a:
			return FLOW_COND;
		default:
			return FLOW_NEXT;
		}
	}
	if (in->enc == ISA_ENC_SOP1) {
		unsigned op = (in->word[0] >> 8) & 0xff;
		if (op == 0x1d) /* s_setpc_b64 */
			return FLOW_INDIRECT;
		if (op == 0x1e) /* s_swappc_b64: returns to the next instruction */
			return FLOW_NEXT;
	}
	if (in->enc == ISA_ENC_SOPK) {
		unsigned op = (in->word[0] >> 23) & 0x1f;
		if (op == 0x15) { /* s_call_b64: PC-relative call */
			int16_t simm = (int16_t)(in->word[0] & 0xffff);
			*target = in->addr + 4 + (int64_t)simm * 4;
			return FLOW_CALL;
		}
		if (op == 0x10) { /* s_cbranch_i_fork: runs both paths */
			int16_t simm = (int16_t)(in->word[0] & 0xffff);
			*target = in->addr + 4 + (int64_t)simm * 4;
			return FLOW_COND;
		}
	}
	return FLOW_NEXT;
}

static int cmp_inst(const void *a, const void *b)
{
	const struct isa_inst *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Simple open-addressing set of visited addresses. */
struct vset {
	uint64_t *slot;
	size_t cap, n;
};

static int vset_add(struct vset *s, uint64_t va) /* 1 new, 0 seen, -1 oom */
{
	size_t i;

	if ((s->n + 1) * 2 > s->cap) {
		size_t ncap = s->cap ? s->cap * 2 : 1024;
		uint64_t *ns = calloc(ncap, sizeof(*ns));
		if (!ns)
			return -1;
		for (i = 0; i < s->cap; i++) {
			if (s->slot[i]) {
				size_t j = (s->slot[i] >> 2) * 0x9e3779b97f4a7c15ull >> 20 & (ncap - 1);
				while (ns[j])
					j = (j + 1) & (ncap - 1);
				ns[j] = s->slot[i];
			}
		}
		free(s->slot);
		s->slot = ns;
		s->cap = ncap;
	}
	/* Stored as va | 1 so that 0 means empty (code is 4-byte aligned). */
	i = (va >> 2) * 0x9e3779b97f4a7c15ull >> 20 & (s->cap - 1);
	while (s->slot[i]) {
		if (s->slot[i] == (va | 1))
			return 0;
		i = (i + 1) & (s->cap - 1);
	}
	s->slot[i] = va | 1;
	s->n++;
	return 1;
}

struct ivec {
	struct isa_inst *v;
	size_t n, cap;
};

static struct isa_inst *ivec_push(struct ivec *iv)
{
	if (iv->n == iv->cap) {
		size_t nc = iv->cap ? iv->cap * 2 : 256;
		struct isa_inst *ni = realloc(iv->v, nc * sizeof(*ni));
		if (!ni)
			return NULL;
		iv->v = ni;
		iv->cap = nc;
	}
	return &iv->v[iv->n++];
}

/* Index of the instruction at va in a code version, or -1. */
static long code_find(const struct isa_code *c, uint64_t va)
{
	uint32_t lo = 0, hi = c->nidx;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (c->idx[mid].addr < va)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->nidx && c->idx[lo].addr == va ? (long)c->idx[lo].index : -1;
}

/* Decode everything reachable from start that `known` (may be NULL) does
 * not already hold; appends to out.  Returns 0 or -1 (no memory). */
static int discover(const struct isa_decoder *dc, struct fetcher *f, uint64_t start,
		    const struct isa_code *known, struct ivec *out)
{
	struct vset seen = { 0 };
	uint64_t *work = NULL;
	size_t nwork = 0, capwork = 0;
	int rc = -1;

#define PUSH(va) do { \
		if (nwork == capwork) { \
			size_t nc = capwork ? capwork * 2 : 256; \
			uint64_t *nw = realloc(work, nc * sizeof(*nw)); \
			if (!nw) goto out; \
			work = nw; capwork = nc; \
		} \
		work[nwork++] = (va); \
	} while (0)

	PUSH(start);
	while (nwork) {
		uint64_t va = work[--nwork];
		for (;;) {
			struct isa_inst *in;
			uint64_t target = 0;
			enum flow fl;
			int r;

			if (known && code_find(known, va) >= 0)
				break;
			r = vset_add(&seen, va);
			if (r < 0)
				goto out;
			if (r == 0)
				break;
			if (out->n >= ISA_MAX_INSTS || !(in = ivec_push(out)))
				goto out;
			decode_at(dc, f, va, in);
			fl = inst_flow(in, &target);
			if (fl == FLOW_END || fl == FLOW_INDIRECT)
				break;
			if (fl == FLOW_JUMP) {
				va = target;
				continue;
			}
			if (fl == FLOW_COND || fl == FLOW_CALL)
				PUSH(target);
			va += in->size;
		}
	}
	rc = 0;
out:
#undef PUSH
	free(work);
	free(seen.slot);
	return rc;
}

/* Highest VGPR row an instruction names (0 when none). */
static uint32_t inst_max_row(const struct isa_inst *in)
{
	uint32_t m = 0;
	switch (in->enc) {
	case ISA_ENC_VOP1: case ISA_ENC_VOP2: case ISA_ENC_VOPC:
	case ISA_ENC_VOP3: case ISA_ENC_VOP3P:
		/* VOPC, v_readlane, v_readfirstlane: dst is an SGPR */
		if (in->op > 0xff && in->op != 0x142 && in->op != 0x289)
			m = in->dst;
		break;
	case ISA_ENC_DS:
		m = in->dst;
		if (in->data_reg > m) m = in->data_reg;
		if (in->addr_reg > m) m = in->addr_reg;
		if (in->offset1 > m) m = in->offset1;  /* data1 */
		if (in->saddr > m) m = in->saddr;      /* data1 */
		break;
	case ISA_ENC_FLAT: case ISA_ENC_SCRATCH: case ISA_ENC_GLOBAL:
	case ISA_ENC_MUBUF: case ISA_ENC_MTBUF: case ISA_ENC_MIMG:
		m = in->dst;
		if (in->data_reg > m) m = in->data_reg;
		if (in->addr_reg > m) m = in->addr_reg;
		break;
	default:
		return 0;
	}
	for (int k = 0; k < 3; k++)
		if (in->src[k].kind == ISA_OPND_VGPR && in->src[k].reg > m)
			m = in->src[k].reg;
	return m;
}

static int cmp_idx(const void *a, const void *b)
{
	const struct isa_idx *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The no-ops from index j on in fall-through order: how many (at most
 * 255), and in *past the index after them.  Addresses only grow along
 * next, so the walk ends (at the sentinel, whose executor is not a no-op,
 * at the latest). */
static unsigned nop_run(const struct isa_code *c, uint32_t j, uint32_t *past)
{
	unsigned k = 0;

	while (k < UINT8_MAX && c->insts[j].exec == isa_exec_nop) {
		j = c->insts[j].next;
		k++;
	}
	*past = j;
	return k;
}

/* Fill next/target of insts[from..to) against code c, then what the wave
 * loop calls for each (run, span: a superinstruction with the instruction
 * after it, or exec), where that falls through to (fall) and the no-ops
 * from there (after, nskip: isa_priv.h).  An instruction's next is fixed
 * once linked (a later version appends, it never relinks), so what was
 * found for the instructions linked before stays right. */
static void link_range(struct isa_code *c, uint32_t from, uint32_t to)
{
	for (uint32_t i = from; i < to; i++) {
		struct isa_inst *in = &c->insts[i];
		uint64_t target = 0;
		enum flow fl = inst_flow(in, &target);
		long nx = code_find(c, in->addr + in->size);

		in->next = nx >= 0 ? (uint32_t)nx : c->sentinel;
		if (fl == FLOW_JUMP || fl == FLOW_COND || fl == FLOW_CALL) {
			long t = code_find(c, target);
			in->target = t >= 0 ? (uint32_t)t : c->sentinel;
		}
	}
	for (uint32_t i = from; i < to; i++) {
		struct isa_inst *in = &c->insts[i];

		in->run = in->exec;
		in->span = 1;
		in->fall = in->next;
		if (in->next != c->sentinel) {
			const struct isa_inst *b = &c->insts[in->next];
			unsigned span = 2;
			uint32_t fall = b->next;
			isa_exec_fn f = isa_vfast64_fuse(c->insts, i, c->sentinel, &span, &fall);
			if (!f)
				f = isa_vfast_fuse(in, b);
			if (!f)
				f = isa_salu_fuse(in, b);
			if (f) {
				in->run = f;
				in->span = (uint8_t)span;
				in->fall = fall;
			}
		}
		in->nskip = (uint8_t)nop_run(c, in->fall, &in->after);
	}
}

static void code_free(struct isa_code *c)
{
	while (c) {
		struct isa_code *o = c->older;
		free(c->insts);
		free(c->idx);
		free(c);
		c = o;
	}
}

void kemu_isa_code_free(struct kemu_isa_program *p)
{
	code_free(atomic_load_explicit(&p->code, memory_order_acquire));
}

int kemu_isa_decode_program(struct kemu_isa_program *p, const struct kemu_isa_mem *mem)
{
	struct isa_decoder dc = { .p = p, .gfx942 = p->gfx942 };
	struct fetcher f = { .mem = mem };
	struct ivec iv = { 0 };
	struct isa_code *c = NULL;
	uint32_t maxrow;
	int rc = -1;

	if (discover(&dc, &f, p->entry_va, NULL, &iv))
		goto out;
	c = calloc(1, sizeof(*c));
	if (!c || !ivec_push(&iv))      /* room for the sentinel */
		goto out;
	iv.n--;
	qsort(iv.v, iv.n, sizeof(*iv.v), cmp_inst);
	/* One sentinel per program: where a fall-through leads nowhere. */
	memset(&iv.v[iv.n], 0, sizeof(iv.v[iv.n]));
	iv.v[iv.n].exec = exec_fell_off;
	iv.v[iv.n].run = exec_fell_off;
	iv.v[iv.n].span = 1;
	iv.v[iv.n].enc = ISA_ENC_UNKNOWN;
	c->insts = iv.v;
	c->n = (uint32_t)iv.n + 1;
	c->sentinel = (uint32_t)iv.n;
	c->idx = calloc(iv.n + 1, sizeof(*c->idx));
	if (!c->idx)
		goto out;
	for (size_t i = 0; i < iv.n; i++) {
		c->idx[i].addr = iv.v[i].addr;
		c->idx[i].index = (uint32_t)i;
	}
	c->nidx = (uint32_t)iv.n;
	iv.v = NULL;
	link_range(c, 0, c->sentinel);
	/* Size the VGPR file so that no instruction can reach outside it,
	 * whatever the descriptor says (a kernel naming more VGPRs than it
	 * allocates is undefined on hardware; here it stays memory safe;
	 * 16 more rows cover the widest operand). */
	maxrow = p->vgpr_rows + 17;  /* code decoded later stays inside too */
	for (uint32_t i = 0; i < c->sentinel; i++) {
		uint32_t m = inst_max_row(&c->insts[i]) + 17;
		if (m > maxrow)
			maxrow = m;
	}
	p->alloc_rows = maxrow + ISA_TMP_ROWS;
	p->entry = (uint32_t)code_find(c, p->entry_va);
	pthread_mutex_init(&p->ext_lock, NULL);
	atomic_store_explicit(&p->code, c, memory_order_release);
	c = NULL;
	rc = 0;
out:
	if (c) {
		c->older = NULL;
		code_free(c);
	}
	free(iv.v);
	return rc;
}

static int exec_beyond_rows(struct isa_wave *w, const struct isa_inst *in)
{
	return isa_fail(w, in, KEMU_ISA_ERR_ILLEGAL_INSTRUCTION,
			"instruction at 0x%llx (reached by an indirect jump) names a VGPR beyond "
			"the %u the kernel allocated", (unsigned long long)in->addr,
			w->p->alloc_rows - ISA_TMP_ROWS);
}

/* Decode the code at va (the target of s_setpc/s_swappc, e.g. a called
 * function) and publish a new code version that holds it.  Waves keep
 * running in the version they have (older versions stay allocated until
 * the program is freed, and their indices stay valid in the new one, which
 * only appends).  Returns the new version, or NULL. */
static const struct isa_code *code_extend(struct kemu_isa_program *p,
					  const struct kemu_isa_mem *mem, uint64_t va)
{
	struct isa_decoder dc = { .p = p, .gfx942 = p->gfx942 };
	struct fetcher f = { .mem = mem };
	struct ivec iv = { 0 };
	struct isa_code *cur, *c = NULL;
	const struct isa_code *res = NULL;

	pthread_mutex_lock(&p->ext_lock);
	cur = atomic_load_explicit(&p->code, memory_order_acquire);
	if (code_find(cur, va) >= 0) {
		res = cur;
		goto out;
	}
	if ((va & 3) || discover(&dc, &f, va, cur, &iv) || iv.n == 0)
		goto out;
	c = calloc(1, sizeof(*c));
	if (!c)
		goto out;
	c->insts = malloc((cur->n + iv.n) * sizeof(*c->insts));
	c->idx = malloc((cur->nidx + iv.n) * sizeof(*c->idx));
	if (!c->insts || !c->idx)
		goto out;
	memcpy(c->insts, cur->insts, cur->n * sizeof(*c->insts));
	memcpy(c->insts + cur->n, iv.v, iv.n * sizeof(*c->insts));
	memcpy(c->idx, cur->idx, cur->nidx * sizeof(*c->idx));
	for (size_t i = 0; i < iv.n; i++) {
		c->idx[cur->nidx + i].addr = iv.v[i].addr;
		c->idx[cur->nidx + i].index = cur->n + (uint32_t)i;
		if (inst_max_row(&iv.v[i]) + 17 > p->alloc_rows - ISA_TMP_ROWS)
			c->insts[cur->n + i].exec = exec_beyond_rows;
	}
	c->n = cur->n + (uint32_t)iv.n;
	c->nidx = cur->nidx + (uint32_t)iv.n;
	c->sentinel = cur->sentinel;
	qsort(c->idx, c->nidx, sizeof(*c->idx), cmp_idx);
	link_range(c, cur->n, c->n);
	c->older = cur;
	atomic_store_explicit(&p->code, c, memory_order_release);
	res = c;
	c = NULL;
out:
	pthread_mutex_unlock(&p->ext_lock);
	if (c) {
		free(c->insts);
		free(c->idx);
		free(c);
	}
	free(iv.v);
	return res;
}

int kemu_isa_jump(struct isa_wave *w, const struct isa_inst *in, uint64_t va)
{
	struct kemu_isa_program *p = (struct kemu_isa_program *)w->p;
	const struct isa_code *c = atomic_load_explicit(&p->code, memory_order_acquire);
	long idx = code_find(c, va);

	if (idx < 0) {
		c = code_extend(p, w->wg->mem, va);
		idx = c ? code_find(c, va) : -1;
	}
	if (idx < 0)
		return isa_fail(w, in, KEMU_ISA_ERR_ILLEGAL_INSTRUCTION,
				"indirect jump from 0x%llx to 0x%llx, which is not decodable code",
				(unsigned long long)in->addr, (unsigned long long)va);
	w->insts = c->insts;
	w->pc = (uint32_t)idx;
	return ISA_STEP_NEXT;
}

unsigned kemu_isa_program_unimplemented(const struct kemu_isa_program *p, char *list, size_t len)
{
	const struct isa_code *c = atomic_load_explicit(&((struct kemu_isa_program *)p)->code,
							memory_order_acquire);
	unsigned count = 0;
	size_t used = 0;

	if (list && len)
		list[0] = 0;
	for (uint32_t i = 0; i < c->n; i++) {
		const struct isa_inst *in = &c->insts[i];
		unsigned op;
		const char *name;
		if (in->exec != isa_exec_illegal)
			continue;
		count++;
		op = kemu_isa_raw_opcode(in);
		name = in->enc == ISA_ENC_MIMG ? kemu_isa_mimg_mnemonic(p->gfx942, op)
					       : kemu_isa_mnemonic(p->gfx942, (enum isa_enc)in->enc, op);
		if (list && used < len) {
			int k = snprintf(list + used, len - used, "%s%s 0x%x %s @0x%llx", used ? "; " : "",
					 kemu_isa_enc_name((enum isa_enc)in->enc), op,
					 name ? name : "?", (unsigned long long)in->addr);
			if (k > 0)
				used += (size_t)k;
		}
	}
	return count;
}

/* kemu_isa_probe's memory: one page holding the words, zero-filled. */
struct probe_page {
	_Alignas(4096) uint8_t bytes[4096];
};

static void *probe_translate(void *ctx, uint64_t va, uint64_t len, unsigned access)
{
	(void)access;
	if (va >= 4096 || len > 4096 - va)
		return NULL;
	return ((struct probe_page *)ctx)->bytes + va;
}

int kemu_isa_probe(uint32_t gfx, const uint32_t *words, unsigned nwords, unsigned *size)
{
	struct probe_page *pg;
	struct kemu_isa_program *p;
	struct isa_inst in;
	int rc;

	if (size)
		*size = 0;
	if (!words || !nwords || nwords > 4 || (gfx != KEMU_ISA_GFX90A && gfx != KEMU_ISA_GFX942))
		return -EINVAL;
	pg = aligned_alloc(4096, sizeof(*pg));
	p = calloc(1, sizeof(*p));
	if (!pg || !p) {
		free(pg);
		free(p);
		return -ENOMEM;
	}
	memset(pg, 0, sizeof(*pg));
	memcpy(pg->bytes, words, nwords * 4u);
	p->gfx = gfx;
	p->gfx942 = gfx == KEMU_ISA_GFX942;
	{
		struct kemu_isa_mem mem = { .ctx = pg, .translate = probe_translate };
		struct isa_decoder dc = { .p = p, .gfx942 = p->gfx942 };
		struct fetcher f = { .mem = &mem };
		decode_at(&dc, &f, 0, &in);
	}
	rc = in.exec != isa_exec_illegal && in.exec != exec_fetch_fault && in.size <= nwords * 4u;
	if (size && in.exec != exec_fetch_fault && in.size <= nwords * 4u)
		*size = in.size;
	free(pg);
	free(p);
	return rc;
}
