/*
 * isa_exec_smem.c — scalar memory: s_load_dword*, s_buffer_load_dword*,
 * s_store_dword*, s_scratch_load/store_dword* (exec_sscratch says how
 * the address is read), s_memtime/s_memrealtime and the scalar cache controls
 * (CDNA2/CDNA3 ISA guides, "Scalar Memory Operations").
 *
 * Address: SGPR pair at SBASE*2, plus the 21-bit signed immediate offset
 * (IMM=1) or the SGPR named in the offset field (IMM=0), plus the SGPR
 * SOFFSET when SOE=1.  The low two bits of the address are ignored
 * (scalar memory is dword-granular).  s_buffer_* take a 4-SGPR buffer
 * resource: base [47:0], NUM_RECORDS in word 2; dwords past NUM_RECORDS
 * read as zero and are not written.  The scalar data cache is not
 * modelled (every access goes to memory), so s_dcache_* are no-ops.
 *
 * Scalar atomics (s_atomic_*, s_buffer_atomic_*, 32-bit and _x2): one
 * atomic on the (dword- or qword-aligned) address with the FLAT atomics'
 * semantics, SDATA the data ({new, compare} for cmpswap); with GLC the
 * old value is written back to SDATA.  A buffer atomic past NUM_RECORDS
 * does nothing (and returns 0).
 */
#include <time.h>

#include "amd/gfx9_desc.h"
#include "isa_priv.h"

#define SMEM_BUFFER 1
#define SMEM_STORE 2
#define SMEM_SOE 4
#define SMEM_IMM 8
#define SMEM_GLC 16

uint64_t kemu_isa_mem_atomic(void *p, unsigned bytes, unsigned aop, uint64_t v, uint64_t cmp);

static uint64_t smem_offset(const struct isa_wave *w, const struct isa_inst *in)
{
	uint64_t off;

	if (in->flags & SMEM_IMM)
		off = (uint64_t)(int64_t)in->offset;
	else if (in->flags & SMEM_SOE)
		off = 0;
	else
		off = w->s[in->offset & 127];
	if (in->flags & SMEM_SOE)
		off += w->s[in->offset1 & 127];
	return off;
}

static int exec_smem(struct isa_wave *w, const struct isa_inst *in)
{
	unsigned n = in->aux, base_reg = in->src[0].reg;
	uint64_t base = isa_sreg64(w, base_reg) & 0xffffffffffffull;
	uint64_t off = smem_offset(w, in);
	uint32_t data[16];
	uint64_t limit = UINT64_MAX;
	uint64_t va;
	const uint8_t *h;

	if (in->flags & SMEM_BUFFER) {
		base = gfx9_v_base(&w->s[base_reg]);     /* a V# */
		limit = GFX9_DESC_GET(&w->s[base_reg], GFX9_V_NUM_RECORDS);
	} else {
		base = isa_sreg64(w, base_reg);
	}
	va = (base + off) & ~3ull;
	if (in->flags & SMEM_STORE) {
		for (unsigned i = 0; i < n; i++)
			data[i] = w->s[(in->dst + i) & 127];
		if (in->flags & SMEM_BUFFER) {
			for (unsigned i = 0; i < n; i++) {
				if ((off & ~3ull) + 4 * i + 4 > limit)
					break;
				if (isa_mem_write(w, in, va + 4 * i, &data[i], 4))
					return ISA_STEP_ERROR;
			}
			return ISA_STEP_NEXT;
		}
		return isa_mem_write(w, in, va, data, n * 4) ? ISA_STEP_ERROR : ISA_STEP_NEXT;
	}
	if (in->flags & SMEM_BUFFER) {
		for (unsigned i = 0; i < n; i++) {
			data[i] = 0;
			if ((off & ~3ull) + 4 * i + 4 <= limit &&
			    isa_mem_read(w, in, va + 4 * i, &data[i], 4))
				return ISA_STEP_ERROR;
		}
	} else if ((va & 4095) + n * 4 <= 4096 &&
		   (h = isa_mem_probe(w, va & ~4095ull, KEMU_ISA_ACCESS_READ)) != NULL) {
		/* the usual case: inside one page the wave already knows */
		memcpy(data, h + (va & 4095), n * 4);
	} else if (isa_mem_read(w, in, va, data, n * 4)) {
		return ISA_STEP_ERROR;
	}
	for (unsigned i = 0; i < n; i++)
		isa_swrite32(w, in->dst + i, data[i]);
	return ISA_STEP_NEXT;
}

/* in->aux: bytes (4 or 8); in->offset1 holds SOFFSET; the atomic op is
 * the low 5 bits of the opcode (the FLAT numbering). */
static int exec_satomic(struct isa_wave *w, const struct isa_inst *in)
{
	unsigned n = in->aux, base_reg = in->src[0].reg, aop = in->op & 0x1f, nd = n / 4;
	uint64_t off = smem_offset(w, in), base, old = 0, v, cmp = 0;
	uint64_t va;
	void *h;

	if (in->flags & SMEM_BUFFER) {
		base = gfx9_v_base(&w->s[base_reg]);
		if ((off & ~(uint64_t)(n - 1)) + n > GFX9_DESC_GET(&w->s[base_reg], GFX9_V_NUM_RECORDS))
			goto done;
	} else {
		base = isa_sreg64(w, base_reg);
	}
	va = (base + off) & ~(uint64_t)(n - 1);
	v = w->s[in->dst & 127];
	if (n == 8)
		v |= (uint64_t)w->s[(in->dst + 1u) & 127] << 32;
	if (aop == 1) { /* cmpswap: the compare value follows the data */
		cmp = w->s[(in->dst + nd) & 127];
		if (n == 8)
			cmp |= (uint64_t)w->s[(in->dst + nd + 1u) & 127] << 32;
	}
	h = isa_mem_map(w, in, va, n, KEMU_ISA_ACCESS_READ | KEMU_ISA_ACCESS_WRITE |
				    KEMU_ISA_ACCESS_ATOMIC);
	if (!h)
		return ISA_STEP_ERROR;
	old = kemu_isa_mem_atomic(h, n, aop, v, cmp);
done:
	if (in->flags & SMEM_GLC) {
		isa_swrite32(w, in->dst, (uint32_t)old);
		if (n == 8)
			isa_swrite32(w, in->dst + 1u, (uint32_t)(old >> 32));
	}
	return ISA_STEP_NEXT;
}

static int exec_memtime(struct isa_wave *w, const struct isa_inst *in)
{
	struct timespec ts;
	uint64_t t;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	if (in->op == 0x25) /* s_memrealtime: the 100 MHz "REFCLK" counter */
		t = (uint64_t)ts.tv_sec * 100000000ull + (uint64_t)ts.tv_nsec / 10;
	else                /* s_memtime: shader clock, modelled at 1 GHz */
		t = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	isa_swrite64(w, in->dst, t);
	return ISA_STEP_NEXT;
}

/* s_scratch_load/store_dword{,x2,x4}: the guides name the address
 * CalcScalarScratchAddr(SBASE, SOFFSET, OFFSET) without defining it.
 * kfdemu's reading: a byte offset into this wave's scratch allocation as
 * the memory holds it (not the per-lane interleave of vector scratch: a
 * scalar access has no lane), the low dword of the SBASE pair plus the
 * 21-bit signed immediate or the SGPR offset (bytes of the wave's
 * allocation, as MUBUF SOFFSET counts them), dword aligned.  An access
 * outside the allocation faults, as a vector scratch access does. */
static int exec_sscratch(struct isa_wave *w, const struct isa_inst *in)
{
	unsigned n = in->aux;
	uint32_t off = (w->s[in->src[0].reg & 127] + (uint32_t)smem_offset(w, in)) & ~3u;
	uint32_t data[4];
	uint64_t va = w->scratch_base + off;

	if ((uint64_t)off + n * 4 > w->scratch_bytes)
		return isa_fault(w, in, va, (in->flags & SMEM_STORE) ? KEMU_ISA_ACCESS_WRITE
								     : KEMU_ISA_ACCESS_READ);
	if (in->flags & SMEM_STORE) {
		for (unsigned i = 0; i < n; i++)
			data[i] = w->s[(in->dst + i) & 127];
		return isa_mem_write(w, in, va, data, n * 4) ? ISA_STEP_ERROR : ISA_STEP_NEXT;
	}
	if (isa_mem_read(w, in, va, data, n * 4))
		return ISA_STEP_ERROR;
	for (unsigned i = 0; i < n; i++)
		isa_swrite32(w, in->dst + i, data[i]);
	return ISA_STEP_NEXT;
}

static int exec_smem_nop(struct isa_wave *w, const struct isa_inst *in)
{
	(void)w;
	(void)in;
	return ISA_STEP_NEXT;
}

void kemu_isa_decode_smem(const struct isa_decoder *dc, struct isa_inst *in)
{
	uint32_t w0 = in->word[0], w1 = in->word[1];
	unsigned op = (w0 >> 18) & 0xff;
	static const uint8_t dwords[8] = { 1, 2, 4, 8, 16, 0, 0, 0 };
	(void)dc;

	in->op = (uint16_t)op;
	in->dst = (w0 >> 6) & 0x7f;
	kemu_isa_opnd(&in->src[0], (w0 & 0x3f) * 2, ISA_T_B64, 0);
	if (w0 & (1u << 17)) {
		in->flags |= SMEM_IMM;
		/* 21-bit signed byte offset */
		in->offset = (int32_t)((w1 & 0x1fffff) << 11) >> 11;
	} else {
		in->offset = (int32_t)(w1 & 0x7f);
	}
	if (w0 & (1u << 14)) {
		in->flags |= SMEM_SOE;
		in->offset1 = (w1 >> 25) & 0x7f;
	}
	if (op <= 0x04) {                           /* s_load_dword* */
		in->aux = dwords[op];
		in->exec = exec_smem;
	} else if (op >= 0x08 && op <= 0x0c) {      /* s_buffer_load_dword* */
		in->aux = dwords[op - 0x08];
		in->flags |= SMEM_BUFFER;
		in->exec = exec_smem;
	} else if (op >= 0x10 && op <= 0x12) {      /* s_store_dword* */
		in->aux = dwords[op - 0x10];
		in->flags |= SMEM_STORE;
		in->exec = exec_smem;
	} else if (op >= 0x18 && op <= 0x1a) {      /* s_buffer_store_dword* */
		in->aux = dwords[op - 0x18];
		in->flags |= SMEM_STORE | SMEM_BUFFER;
		in->exec = exec_smem;
	} else if ((op >= 0x05 && op <= 0x07) || (op >= 0x15 && op <= 0x17)) {
		in->aux = dwords[(op & 0xf) - 0x05];    /* s_scratch_load/store */
		if (op >= 0x15)
			in->flags |= SMEM_STORE;
		in->exec = exec_sscratch;
	} else if (op == 0x24 || op == 0x25) {      /* s_memtime, s_memrealtime */
		in->exec = exec_memtime;
	} else if (op >= 0x20 && op <= 0x23) {      /* s_dcache_inv/wb(_vol) */
		in->exec = exec_smem_nop;
	} else if (op == 0x28 || op == 0x29) {      /* s_dcache_discard */
		in->exec = exec_smem_nop;
	} else if ((op & 0x1f) <= 0x0c && (op >> 5) >= 2 && (op >> 5) <= 5) {
		/* 0x40 s_buffer_atomic_*, 0x60 _x2, 0x80 s_atomic_*, 0xa0 _x2 */
		in->aux = (op & 0x20) ? 8 : 4;
		if (op < 0x80)
			in->flags |= SMEM_BUFFER;
		if (w0 & (1u << 16))
			in->flags |= SMEM_GLC;
		in->exec = exec_satomic;
	}
}
