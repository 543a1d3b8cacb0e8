/*
 * isa_exec_mfma.c — the matrix cores: every dense MFMA of gfx90a (CDNA2)
 * and gfx942 (CDNA3) and gfx942's sparse SMFMAC, from one table of shapes
 * and one executor (CDNA2/CDNA3 ISA guides, "Matrix Arithmetic
 * Instructions"; the register layouts are those of AMD's matrix
 * instruction calculator for gfx9, which the guides' layout tables print).
 *
 * An instruction is D = C + A x B on B blocks of an MxN result with depth
 * K.  Inputs (A, and B with N for M): a lane holds kpl = K*M*B/64 elements
 * of one row, packed from bit 0 of SRC (f64 and f32 take one or two whole
 * VGPRs each, f16/bf16 two per VGPR, i8/fp8/bf8 four); A[b][i][k] is element
 * k % kpl of lane i + M*b + M*B*(k / kpl).  The 32-bit results: 4-row
 * groups of N lanes; value (b, i, j) is in result VGPR
 *   b*(M*N/64) + 4*(i / (4*G)) + i % 4,  lane (b % P)*N + ((i/4) % G)*P*N + j
 * with G = 64/N row groups per VGPR and P = max(1, 64/(M*N/4)) blocks
 * per VGPR; f64 results are the same with one row per group (VGPR pairs).
 *
 * Modifiers: CBSZ/ABID (the A block of result block b is
 * (b & ~(2^CBSZ - 1)) + ABID: one block broadcast to its aligned group),
 * BLGP (B read through a lane pattern: 1/2 the low/high 32 lanes to both
 * halves, 3 rotated down by 16, 4-7 one group of 16 to all); on gfx942
 * the f64 forms take those three bits as NEG of A, B and C instead.  A
 * modifier the form does not accept (the calculator's per-instruction
 * table) is not decoded.  ACC_CD puts C and D in AGPRs, the OP_SEL_HI
 * bits A and B.
 *
 * SMFMAC (gfx942): A is 4:2 structured sparse, holding K/2 elements per
 * row in the same layout with K/2; SRC2 is a VGPR of 2-bit indices (the
 * position, 0-3, of each kept element in its group of four k); D is also
 * C.  A 16-bit A uses one of four 8-bit index sets, an 8-bit A one of two
 * 16-bit sets: ABID picks the set when CBSZ is 0, else set 0 is used.
 * Element e (in its lane) of the set finds its index at bit
 * 4*(e/2) + 2*(e%2).
 *
 * Numerics: the guides do not document the order or internal precision
 * of the k-sum.  Here every step is one fused multiply-add in k order in
 * the result type (fmaf for f32 results: the products of f16, bf16, fp8,
 * bf8 and xf32 inputs are exact in f32, so each step rounds once; fma for
 * f64), integers wrap in 32 bits; denormal inputs and results are kept
 * (MODE.FP_DENORM does not apply to the matrix cores).  Results equal the
 * hardware's bit for bit when the partial sums are exact, which is what
 * the tests check; a NaN result is some NaN.  xf32 inputs (CDNA3) are f32
 * values rounded to 10 mantissa bits, nearest even.  fp8 and bf8 are the
 * gfx942 FNUZ formats (E4M3, bias 8; E5M2, bias 16; 0x80 is the only NaN,
 * no infinities, no -0).
 *
 * EXEC: the whole wave takes part and every lane of D is written.
 */
#include "isa_float.h"
#include "isa_priv.h"
#include "isa_valu.h"

enum mfma_type { MT_F32, MT_F16, MT_BF16, MT_I8, MT_F64, MT_XF32, MT_FP8, MT_BF8 };

static const unsigned type_bits[] = {
	[MT_F32] = 32, [MT_F16] = 16, [MT_BF16] = 16, [MT_I8] = 8,
	[MT_F64] = 64, [MT_XF32] = 32, [MT_FP8] = 8, [MT_BF8] = 8,
};

#define G90A 1
#define G942 2
#define GBOTH 3

struct mfma_form {
	uint8_t op, targets;
	uint8_t m, k, blocks;
	uint8_t ta, tb;         /* enum mfma_type of A and B */
	bool sparse, blgp;      /* SMFMAC; BLGP accepted */
};

static const struct mfma_form forms[] = {
	/* f32 */
	{ 0x40, GBOTH, 32, 1, 2, MT_F32, MT_F32, false, true },
	{ 0x41, GBOTH, 16, 1, 4, MT_F32, MT_F32, false, true },
	{ 0x42, GBOTH, 4, 1, 16, MT_F32, MT_F32, false, true },
	{ 0x44, GBOTH, 32, 2, 1, MT_F32, MT_F32, false, true },
	{ 0x45, GBOTH, 16, 4, 1, MT_F32, MT_F32, false, true },
	/* f16 */
	{ 0x48, GBOTH, 32, 4, 2, MT_F16, MT_F16, false, true },
	{ 0x49, GBOTH, 16, 4, 4, MT_F16, MT_F16, false, true },
	{ 0x4a, GBOTH, 4, 4, 16, MT_F16, MT_F16, false, true },
	{ 0x4c, G90A, 32, 8, 1, MT_F16, MT_F16, false, true },
	{ 0x4d, G90A, 16, 16, 1, MT_F16, MT_F16, false, true },
	{ 0x4c, G942, 32, 8, 1, MT_F16, MT_F16, false, false },
	{ 0x4d, G942, 16, 16, 1, MT_F16, MT_F16, false, false },
	/* i8 */
	{ 0x50, GBOTH, 32, 4, 2, MT_I8, MT_I8, false, true },
	{ 0x51, GBOTH, 16, 4, 4, MT_I8, MT_I8, false, true },
	{ 0x52, GBOTH, 4, 4, 16, MT_I8, MT_I8, false, true },
	{ 0x54, G90A, 32, 8, 1, MT_I8, MT_I8, false, true },
	{ 0x55, G90A, 16, 16, 1, MT_I8, MT_I8, false, true },
	{ 0x56, G942, 32, 16, 1, MT_I8, MT_I8, false, false },
	{ 0x57, G942, 16, 32, 1, MT_I8, MT_I8, false, false },
	/* bf16, four per lane (gfx90a's _1k forms, gfx942's only forms) */
	{ 0x63, G90A, 32, 4, 2, MT_BF16, MT_BF16, false, true },
	{ 0x64, G90A, 16, 4, 4, MT_BF16, MT_BF16, false, true },
	{ 0x65, G90A, 4, 4, 16, MT_BF16, MT_BF16, false, true },
	{ 0x66, G90A, 32, 8, 1, MT_BF16, MT_BF16, false, true },
	{ 0x67, G90A, 16, 16, 1, MT_BF16, MT_BF16, false, true },
	{ 0x5d, G942, 32, 4, 2, MT_BF16, MT_BF16, false, true },
	{ 0x5e, G942, 16, 4, 4, MT_BF16, MT_BF16, false, true },
	{ 0x5f, G942, 4, 4, 16, MT_BF16, MT_BF16, false, true },
	{ 0x60, G942, 32, 8, 1, MT_BF16, MT_BF16, false, false },
	{ 0x61, G942, 16, 16, 1, MT_BF16, MT_BF16, false, false },
	/* bf16, two per lane (gfx90a) */
	{ 0x68, G90A, 32, 2, 2, MT_BF16, MT_BF16, false, true },
	{ 0x69, G90A, 16, 2, 4, MT_BF16, MT_BF16, false, true },
	{ 0x6b, G90A, 4, 2, 16, MT_BF16, MT_BF16, false, true },
	{ 0x6c, G90A, 32, 4, 1, MT_BF16, MT_BF16, false, true },
	{ 0x6d, G90A, 16, 8, 1, MT_BF16, MT_BF16, false, true },
	/* f64 */
	{ 0x6e, GBOTH, 16, 4, 1, MT_F64, MT_F64, false, false },
	{ 0x6f, GBOTH, 4, 4, 4, MT_F64, MT_F64, false, false },
	/* xf32 (gfx942) */
	{ 0x3e, G942, 16, 8, 1, MT_XF32, MT_XF32, false, false },
	{ 0x3f, G942, 32, 4, 1, MT_XF32, MT_XF32, false, false },
	/* fp8/bf8 (gfx942): A type first in the mnemonic */
	{ 0x70, G942, 16, 32, 1, MT_BF8, MT_BF8, false, false },
	{ 0x71, G942, 16, 32, 1, MT_BF8, MT_FP8, false, false },
	{ 0x72, G942, 16, 32, 1, MT_FP8, MT_BF8, false, false },
	{ 0x73, G942, 16, 32, 1, MT_FP8, MT_FP8, false, false },
	{ 0x74, G942, 32, 16, 1, MT_BF8, MT_BF8, false, false },
	{ 0x75, G942, 32, 16, 1, MT_BF8, MT_FP8, false, false },
	{ 0x76, G942, 32, 16, 1, MT_FP8, MT_BF8, false, false },
	{ 0x77, G942, 32, 16, 1, MT_FP8, MT_FP8, false, false },
	/* SMFMAC (gfx942) */
	{ 0x62, G942, 16, 32, 1, MT_F16, MT_F16, true, false },
	{ 0x64, G942, 32, 16, 1, MT_F16, MT_F16, true, false },
	{ 0x66, G942, 16, 32, 1, MT_BF16, MT_BF16, true, false },
	{ 0x68, G942, 32, 16, 1, MT_BF16, MT_BF16, true, false },
	{ 0x6a, G942, 16, 64, 1, MT_I8, MT_I8, true, false },
	{ 0x6c, G942, 32, 32, 1, MT_I8, MT_I8, true, false },
	{ 0x78, G942, 16, 64, 1, MT_BF8, MT_BF8, true, false },
	{ 0x79, G942, 16, 64, 1, MT_BF8, MT_FP8, true, false },
	{ 0x7a, G942, 16, 64, 1, MT_FP8, MT_BF8, true, false },
	{ 0x7b, G942, 16, 64, 1, MT_FP8, MT_FP8, true, false },
	{ 0x7c, G942, 32, 32, 1, MT_BF8, MT_BF8, true, false },
	{ 0x7d, G942, 32, 32, 1, MT_BF8, MT_FP8, true, false },
	{ 0x7e, G942, 32, 32, 1, MT_FP8, MT_BF8, true, false },
	{ 0x7f, G942, 32, 32, 1, MT_FP8, MT_FP8, true, false },
};

/* in->flags bit: the f64 form on gfx942 (BLGP bits are NEG) */
#define MF_NEG 1

/* FNUZ fp8 (E4M3, bias 8) and bf8 (E5M2, bias 16) to their exact value. */
double kemu_isa_fp8_value(uint8_t v, bool bf8)
{
	unsigned mbits = bf8 ? 2 : 3, bias = bf8 ? 16 : 8;
	unsigned e = (v & 0x7f) >> mbits, m = v & ((1u << mbits) - 1);
	double x;

	if (v == 0x80)
		return NAN;
	if (e == 0)
		x = ldexp((double)m, 1 - (int)bias - (int)mbits);
	else
		x = ldexp((double)((1u << mbits) | m), (int)e - (int)bias - (int)mbits);
	return (v & 0x80) ? -x : x;
}

static double xf32_value(uint32_t u)
{
	if ((u & 0x7f800000u) != 0x7f800000u)
		u = (u + 0xfffu + ((u >> 13) & 1)) & ~0x1fffu;
	return (double)f32_of(u);
}

/* Element e of a lane whose elements of type t start at row r. */
static double elem(struct isa_wave *w, unsigned r, unsigned lane, unsigned e, unsigned t)
{
	unsigned bits = type_bits[t], bit = e * bits;
	uint32_t x = isa_vrow(w, r + bit / 32)[lane] >> (bit % 32);

	switch (t) {
	case MT_F32: return (double)f32_of(x);
	case MT_XF32: return xf32_value(x);
	case MT_F16: return (double)f16_to_f32((uint16_t)x);
	case MT_BF16: return (double)f32_of((x & 0xffffu) << 16);
	case MT_I8: return (double)(int8_t)x;
	case MT_FP8: return kemu_isa_fp8_value((uint8_t)x, false);
	case MT_BF8: return kemu_isa_fp8_value((uint8_t)x, true);
	default: {
		uint64_t u = x | ((uint64_t)isa_vrow(w, r + bit / 32 + 1)[lane] << 32);
		return f64_of(u);
	}
	}
}

static unsigned blgp_lane(unsigned lane, unsigned blgp)
{
	switch (blgp) {
	case 1: return lane % 32;
	case 2: return lane % 32 + 32;
	case 3: return (lane + 16) % 64;
	case 0: return lane;
	default: return lane % 16 + 16 * (blgp - 4);
	}
}

/* Result VGPR (in values: pairs for f64) and lane of D[b][i][j]. */
static void out_pos(unsigned M, unsigned b, unsigned i, unsigned j, bool f64,
		    unsigned *reg, unsigned *lane)
{
	unsigned N = M, h = f64 ? 1 : 4, G = 64 / N;
	unsigned per = (N * M) / h, P = per >= 64 ? 1 : 64 / per;

	*reg = b * (M * N / 64) + (i / (h * G)) * h + i % h;
	*lane = (b % P) * N + ((i / h) % G) * P * N + j;
}

static int exec_mfma(struct isa_wave *w, const struct isa_inst *in)
{
	const struct mfma_form *f = &forms[in->aux];
	unsigned M = f->m, K = f->k, NB = f->blocks;
	bool f64 = f->ta == MT_F64, isint = f->ta == MT_I8;
	unsigned cbsz = in->neg_hi, abid = in->opsel, blgp = in->neg_lo;
	unsigned vals = M * M * NB / 64, nout = f64 ? 2 * vals : vals;
	unsigned kA = f->sparse ? K / 2 : K;
	unsigned kplA = kA * M * NB / 64, kplB = K * M * NB / 64;
	unsigned rA = in->src[0].reg, rB = in->src[1].reg, limit = w->p->alloc_rows - ISA_TMP_ROWS;
	unsigned nA = (kplA * type_bits[f->ta] + 31) / 32, nB = (kplB * type_bits[f->tb] + 31) / 32;
	uint32_t out[32][ISA_LANES];
	double negA = 1, negB = 1, negC = 1;

	if (in->flags & MF_NEG) {
		negA = (blgp & 1) ? -1 : 1;
		negB = (blgp & 2) ? -1 : 1;
		negC = (blgp & 4) ? -1 : 1;
		blgp = 0;
	}
	if (in->dst + nout > limit || rA + nA > limit || rB + nB > limit ||
	    (in->src[2].kind == ISA_OPND_VGPR && in->src[2].reg + (f->sparse ? 1 : nout) > limit))
		return isa_fail(w, in, KEMU_ISA_ERR_ILLEGAL_INSTRUCTION,
				"matrix operands reach past the wave's %u VGPR rows", limit);
	/* C may be the same rows as D: all of C is read first */
	for (unsigned r = 0; r < nout; r++) {
		if (f->sparse)
			memcpy(out[r], isa_vrow(w, in->dst + r), sizeof(out[r]));
		else if (in->src[2].kind == ISA_OPND_VGPR)
			memcpy(out[r], isa_vrow(w, in->src[2].reg + r), sizeof(out[r]));
		else {
			uint64_t c = in->src[2].imm;
			uint32_t v = f64 ? (uint32_t)(c >> (32 * (r & 1))) : (uint32_t)c;
			for (unsigned l = 0; l < ISA_LANES; l++)
				out[r][l] = v;
		}
	}
	for (unsigned b = 0; b < NB; b++) {
		unsigned ab = f->sparse ? 0 : (b >> cbsz << cbsz) + abid;
		for (unsigned i = 0; i < M; i++) {
			for (unsigned j = 0; j < M; j++) {
				unsigned reg, lane;
				out_pos(M, b, i, j, f64, &reg, &lane);
				uint32_t *c0 = &out[f64 ? 2 * reg : reg][lane];
				double acc_d = 0;
				float acc_f = 0;
				uint32_t acc_i = 0;
				if (f64)
					acc_d = negC * f64_of(c0[0] | ((uint64_t)out[2 * reg + 1][lane] << 32));
				else if (isint)
					acc_i = c0[0];
				else
					acc_f = f32_of(c0[0]);
				for (unsigned kk = 0; kk < kA; kk++) {
					unsigned la = i + M * ab + M * NB * (kk / kplA), k = kk;
					double a, bv;
					if (f->sparse) {
						unsigned set = cbsz ? 0 : abid, e = kk % kplA;
						unsigned pos = set * (64 / type_bits[f->ta]) + e;
						uint32_t ix = isa_vrow(w, in->src[2].reg)[la];
						k = 4 * (kk / 2) + ((ix >> (4 * (pos / 2) + 2 * (pos % 2))) & 3);
					}
					unsigned lb = blgp_lane(j + M * b + M * NB * (k / kplB), blgp);
					a = negA * elem(w, rA, la, kk % kplA, f->ta);
					bv = negB * elem(w, rB, lb, k % kplB, f->tb);
					if (f64)
						acc_d = fma(a, bv, acc_d);
					else if (isint)
						acc_i += (uint32_t)((int32_t)a * (int32_t)bv);
					else
						acc_f = fmaf((float)a, (float)bv, acc_f);
				}
				if (f64) {
					uint64_t u = u64_of(acc_d);
					c0[0] = (uint32_t)u;
					out[2 * reg + 1][lane] = (uint32_t)(u >> 32);
				} else {
					c0[0] = isint ? acc_i : u32_of(acc_f);
				}
			}
		}
	}
	for (unsigned r = 0; r < nout; r++)
		memcpy(isa_vrow(w, in->dst + r), out[r], sizeof(out[r]));
	return ISA_STEP_NEXT;
}

void kemu_isa_decode_mfma(const struct isa_decoder *dc, struct isa_inst *in)
{
	uint32_t w0 = in->word[0], w1 = in->word[1];
	unsigned op = (w0 >> 16) & 0x7f, acc_off = dc->p->accum_offset;
	unsigned c0 = w1 & 0x1ff, c1 = (w1 >> 9) & 0x1ff, c2 = (w1 >> 18) & 0x1ff;
	unsigned cbsz = (w0 >> 8) & 7, abid = (w0 >> 11) & 15, blgp = (w1 >> 29) & 7;
	bool acc_cd = (w0 >> 15) & 1, acc_a = (w1 >> 27) & 1, acc_b = (w1 >> 28) & 1;
	unsigned tgt = dc->gfx942 ? G942 : G90A, idx;
	const struct mfma_form *f = NULL;

	for (idx = 0; idx < sizeof(forms) / sizeof(forms[0]); idx++) {
		if (forms[idx].op == op && (forms[idx].targets & tgt)) {
			f = &forms[idx];
			break;
		}
	}
	if (!f || c0 < ISA_SRC_VGPR0 || c1 < ISA_SRC_VGPR0)
		return;
	/* CBSZ/ABID: a broadcast within the blocks (dense), or the index set
	 * (sparse: four sets of a 16-bit A, two of an 8-bit one) */
	if (f->sparse) {
		if (cbsz > 3 || abid >= (type_bits[f->ta] == 16 ? 4u : 2u) || blgp)
			return;
	} else {
		unsigned lg = 0;
		while ((1u << lg) < f->blocks)
			lg++;
		if (cbsz > lg || cbsz > 4 || abid >= (1u << cbsz))
			return;
	}
	in->flags = 0;
	if (f->ta == MT_F64) {
		if (dc->gfx942)
			in->flags = MF_NEG;
		else if (blgp)
			return;
	} else if (blgp && !f->blgp) {
		return;
	}
	kemu_isa_opnd(&in->src[0], c0, ISA_T_B32, 0);
	kemu_isa_opnd(&in->src[1], c1, ISA_T_B32, 0);
	kemu_isa_opnd(&in->src[2], c2, f->ta == MT_F64 ? ISA_T_F64 : f->ta == MT_I8 ? ISA_T_B32 : ISA_T_F32, 0);
	if (f->sparse) {
		/* the index operand is a VGPR */
		if (in->src[2].kind != ISA_OPND_VGPR)
			return;
	} else if ((in->src[2].kind != ISA_OPND_VGPR && in->src[2].kind != ISA_OPND_CONST) ||
		   c2 == ISA_SRC_LITERAL) {
		return; /* C is a VGPR/AGPR tuple or an inline constant */
	}
	if (acc_a)
		in->src[0].reg = (uint16_t)(in->src[0].reg + acc_off);
	if (acc_b)
		in->src[1].reg = (uint16_t)(in->src[1].reg + acc_off);
	if (acc_cd) {
		in->dst = (uint16_t)(in->dst + acc_off);
		if (!f->sparse && in->src[2].kind == ISA_OPND_VGPR)
			in->src[2].reg = (uint16_t)(in->src[2].reg + acc_off);
	}
	in->aux = (uint16_t)idx;
	in->neg_hi = (uint8_t)cbsz;
	in->opsel = (uint8_t)abid;
	in->neg_lo = (uint8_t)blgp;
	in->clamp = 0;
	in->exec = exec_mfma;
}
