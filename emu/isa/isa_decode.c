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
	}
	return FLOW_NEXT;
}

static int cmp_inst(const void *a, const void *b)
{
	const struct isa_inst *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Index of the instruction at va, or -1. */
static long find_inst(const struct isa_inst *v, uint32_t n, uint64_t va)
{
	uint32_t lo = 0, hi = n;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (v[mid].addr < va)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo].addr == va ? (long)lo : -1;
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

int kemu_isa_decode_program(struct kemu_isa_program *p, const struct kemu_isa_mem *mem)
{
	struct isa_decoder dc = { .p = p, .gfx942 = p->gfx942 };
	struct fetcher f = { .mem = mem };
	struct vset seen = { 0 };
	uint64_t *work = NULL;
	size_t nwork = 0, capwork = 0;
	struct isa_inst *insts = NULL;
	size_t n = 0, cap = 0;
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

	PUSH(p->entry_va);
	while (nwork) {
		uint64_t va = work[--nwork];
		for (;;) {
			struct isa_inst *in;
			uint64_t target = 0;
			enum flow fl;
			int r = vset_add(&seen, va);

			if (r < 0)
				goto out;
			if (r == 0)
				break;
			if (n >= ISA_MAX_INSTS)
				goto out;
			if (n == cap) {
				size_t nc = cap ? cap * 2 : 256;
				struct isa_inst *ni = realloc(insts, nc * sizeof(*ni));
				if (!ni)
					goto out;
				insts = ni;
				cap = nc;
			}
			in = &insts[n++];
			decode_at(&dc, &f, va, in);
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
	/* One sentinel per program: where a fall-through leads nowhere. */
	if (n + 1 > cap) {
		struct isa_inst *ni = realloc(insts, (n + 1) * sizeof(*ni));
		if (!ni)
			goto out;
		insts = ni;
	}
	qsort(insts, n, sizeof(*insts), cmp_inst);
	memset(&insts[n], 0, sizeof(insts[n]));
	insts[n].exec = exec_fell_off;
	insts[n].enc = ISA_ENC_UNKNOWN;
	for (size_t i = 0; i < n; i++) {
		struct isa_inst *in = &insts[i];
		uint64_t target = 0;
		enum flow fl = inst_flow(in, &target);
		long nx = find_inst(insts, (uint32_t)n, in->addr + in->size);

		in->next = nx >= 0 ? (uint32_t)nx : (uint32_t)n;
		if (fl == FLOW_JUMP || fl == FLOW_COND || fl == FLOW_CALL) {
			long t = find_inst(insts, (uint32_t)n, target);
			in->target = t >= 0 ? (uint32_t)t : (uint32_t)n;
		}
	}
	/* Size the VGPR file so that no instruction can reach outside it,
	 * whatever the descriptor says (a kernel naming more VGPRs than it
	 * allocates is undefined on hardware; here it stays memory safe). */
	{
		uint32_t maxrow = p->vgpr_rows;
		for (size_t i = 0; i < n; i++) {
			const struct isa_inst *in = &insts[i];
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
			case ISA_ENC_MUBUF:
				m = in->dst;
				if (in->data_reg > m) m = in->data_reg;
				if (in->addr_reg > m) m = in->addr_reg;
				break;
			default:
				continue;
			}
			for (int k = 0; k < 3; k++)
				if (in->src[k].kind == ISA_OPND_VGPR && in->src[k].reg > m)
					m = in->src[k].reg;
			if (m + 17 > maxrow)
				maxrow = m + 17;
		}
		p->alloc_rows = maxrow + ISA_TMP_ROWS;
	}
	p->insts = insts;
	p->ninsts = (uint32_t)n;
	p->entry = (uint32_t)find_inst(insts, (uint32_t)n, p->entry_va);
	insts = NULL;
	rc = 0;
out:
#undef PUSH
	free(insts);
	free(work);
	free(seen.slot);
	return rc;
}

long kemu_isa_find(const struct kemu_isa_program *p, uint64_t va)
{
	return find_inst(p->insts, p->ninsts, va);
}
