/*
 * isa_exec_vop3p.c — VOP3P: packed math (v_pk_*_f32 on 64-bit register
 * pairs, v_pk_mov_b32, the packed 16-bit integer ops; packed f16 executes
 * in isa_exec_vfp.c, its CLAMP here), the mixed-precision v_fma_mix*, the
 * AGPR moves (v_accvgpr_read/write/mov); the matrix cores' MFMA/SMFMAC
 * decode from here into isa_exec_mfma.c (CDNA2/CDNA3 ISA guides, "VOP3P").
 *
 * Integer dot products (0x26-0x2b): see isa_exec_idot.
 *
 * Packed 16-bit integer ops (0x00-0x0d): source i is one register holding
 * {lo, hi}; OP_SEL bit i picks the half feeding the low result,
 * OP_SEL_HI bit i the half feeding the high one.  An inline constant is
 * its 32-bit value (1 is {1, 0}: LLVM selects the low half for both
 * results when it means a splat).  CLAMP saturates add, sub and mad to
 * the result type; min/max cannot overflow; clamp on mul_lo and the
 * shifts is not decoded (undocumented).  Shift amounts are the low 4 bits.
 *
 * v_fma_mix_f32 / v_fma_mixlo_f16 / v_fma_mixhi_f16 (0x20-0x22): OP_SEL_HI
 * bit i set makes source i an f16 (its half chosen by OP_SEL bit i), clear
 * an f32; NEG_LO is neg and NEG_HI is abs (abs first).  f16 sources widen
 * exactly to f32; the product-sum is one f32 fma (one rounding), and mixlo/
 * mixhi round that f32 to f16 (nearest even) into the low/high half of D,
 * keeping the other half: LLVM selects them for fptrunc(fma(fpext ...)),
 * which is that double rounding.  Denormals: f16 sources and f16 results
 * follow MODE.FP_DENORM f16/f64, f32 sources and results f32.  A NaN
 * result is the first NaN source, quieted, or the default NaN.
 *
 * Packed f32 ops: source i is a register pair {lo, hi}; OP_SEL bit i picks
 * the half that feeds the low result, OP_SEL_HI bit i the half that feeds
 * the high result; NEG_LO / NEG_HI negate the operand of each half.
 */
#include "isa_float.h"
#include "isa_priv.h"
#include "isa_valu.h"

#define L for (unsigned l = 0; l < ISA_LANES; l++)

/* Fetch source i of a packed f32 op as two 32-bit halves per lane. */
static void pk_fetch(struct isa_wave *w, const struct isa_opnd *o, uint32_t *lo, uint32_t *hi)
{
	if (o->kind == ISA_OPND_VGPR) {
		memcpy(lo, isa_vrow(w, o->reg), ISA_LANES * 4);
		memcpy(hi, isa_vrow(w, o->reg + 1u), ISA_LANES * 4);
	} else if (o->kind == ISA_OPND_SREG) {
		uint32_t a = w->s[o->reg & 127], b = w->s[(o->reg + 1) & 127];
		L { lo[l] = a; hi[l] = b; }
	} else {
		/* an inline constant feeds both halves */
		uint32_t a = isa_sread32(w, o);
		L { lo[l] = a; hi[l] = a; }
	}
}

static int exec_pk_f32(struct isa_wave *w, const struct isa_inst *in)
{
	uint32_t lo[3][ISA_LANES], hi[3][ISA_LANES], rlo[ISA_LANES], rhi[ISA_LANES];
	unsigned nsrc = in->op == 0x30 ? 3 : 2;
	uint32_t *x[3], *y[3];
	unsigned dn = isa_denorm32(w);

	for (unsigned i = 0; i < nsrc; i++) {
		uint32_t a[ISA_LANES], b[ISA_LANES];
		pk_fetch(w, &in->src[i], a, b);
		x[i] = lo[i];
		y[i] = hi[i];
		memcpy(x[i], (in->opsel >> i & 1) ? b : a, sizeof(a));
		memcpy(y[i], (in->opsel_hi >> i & 1) ? b : a, sizeof(a));
		if (in->neg_lo >> i & 1) { L x[i][l] ^= 0x80000000u; }
		if (in->neg_hi >> i & 1) { L y[i][l] ^= 0x80000000u; }
		if (!(dn & 1)) { L { x[i][l] = flush32(x[i][l]); y[i][l] = flush32(y[i][l]); } }
	}
	if (in->op == 0x33) { /* v_pk_mov_b32: lo = S0 half, hi = S1 half */
		uint32_t a0[ISA_LANES], b0[ISA_LANES], a1[ISA_LANES], b1[ISA_LANES];
		pk_fetch(w, &in->src[0], a0, b0);
		pk_fetch(w, &in->src[1], a1, b1);
		L {
			rlo[l] = (in->opsel & 1) ? b0[l] : a0[l];
			rhi[l] = (in->opsel & 2) ? b1[l] : a1[l];
		}
	} else {
		L {
			float p = f32_of(x[0][l]), q = f32_of(x[1][l]);
			float P = f32_of(y[0][l]), Q = f32_of(y[1][l]);
			switch (in->op) {
			case 0x30:
				rlo[l] = u32_of(fmaf(p, q, f32_of(x[2][l])));
				rhi[l] = u32_of(fmaf(P, Q, f32_of(y[2][l])));
				break;
			case 0x31:
				rlo[l] = u32_of(p * q);
				rhi[l] = u32_of(P * Q);
				break;
			default:
				rlo[l] = u32_of(p + q);
				rhi[l] = u32_of(P + Q);
				break;
			}
			if (!(dn & 2)) {
				rlo[l] = flush32(rlo[l]);
				rhi[l] = flush32(rhi[l]);
			}
			if (in->clamp) {
				float a = f32_of(rlo[l]), b = f32_of(rhi[l]);
				rlo[l] = isnan(a) ? 0 : a < 0 ? 0 : a > 1 ? 0x3f800000u : rlo[l];
				rhi[l] = isnan(b) ? 0 : b < 0 ? 0 : b > 1 ? 0x3f800000u : rhi[l];
			}
		}
	}
	isa_vdst32(w, in->dst, rlo);
	isa_vdst32(w, in->dst + 1u, rhi);
	return ISA_STEP_NEXT;
}

/* Packed 16-bit integer ops; see the file comment for the modifiers. */
static int exec_pk_i16(struct isa_wave *w, const struct isa_inst *in)
{
	uint32_t t[3][ISA_LANES], r[ISA_LANES];
	const uint32_t *s[3];
	unsigned op = in->op, nsrc = (op == 0x00 || op == 0x09) ? 3 : 2;

	for (unsigned i = 0; i < nsrc; i++)
		s[i] = isa_vsrc32(w, &in->src[i], t[i]);
	L {
		uint32_t out = 0;
		for (unsigned half = 0; half < 2; half++) {
			uint8_t sel = half ? in->opsel_hi : in->opsel;
			uint32_t v[3] = { 0, 0, 0 }, res;
			for (unsigned i = 0; i < nsrc; i++)
				v[i] = (s[i][l] >> ((sel >> i & 1) ? 16 : 0)) & 0xffff;
			int32_t x = (int16_t)v[0], y = (int16_t)v[1];
			switch (op) {
			case 0x00: { /* v_pk_mad_i16 */
				int64_t m = (int64_t)x * y + (int16_t)v[2];
				if (in->clamp)
					m = m > INT16_MAX ? INT16_MAX : m < INT16_MIN ? INT16_MIN : m;
				res = (uint32_t)m;
				break;
			}
			case 0x01: res = v[0] * v[1]; break;                    /* v_pk_mul_lo_u16 */
			case 0x02: case 0x03: {                                 /* v_pk_add/sub_i16 */
				int32_t m = op == 0x02 ? x + y : x - y;
				if (in->clamp)
					m = m > INT16_MAX ? INT16_MAX : m < INT16_MIN ? INT16_MIN : m;
				res = (uint32_t)m;
				break;
			}
			case 0x04: res = v[1] << (v[0] & 15); break;            /* v_pk_lshlrev_b16 */
			case 0x05: res = v[1] >> (v[0] & 15); break;            /* v_pk_lshrrev_b16 */
			case 0x06: res = (uint32_t)(y >> (v[0] & 15)); break;   /* v_pk_ashrrev_i16 */
			case 0x07: res = (uint32_t)(x > y ? x : y); break;      /* v_pk_max_i16 */
			case 0x08: res = (uint32_t)(x < y ? x : y); break;      /* v_pk_min_i16 */
			case 0x09: {                                            /* v_pk_mad_u16 */
				uint64_t m = (uint64_t)v[0] * v[1] + v[2];
				res = in->clamp && m > UINT16_MAX ? UINT16_MAX : (uint32_t)m;
				break;
			}
			case 0x0a: {                                            /* v_pk_add_u16 */
				uint32_t m = v[0] + v[1];
				res = in->clamp && m > UINT16_MAX ? UINT16_MAX : m;
				break;
			}
			case 0x0b:                                              /* v_pk_sub_u16 */
				res = in->clamp && v[1] > v[0] ? 0 : v[0] - v[1];
				break;
			case 0x0c: res = v[0] > v[1] ? v[0] : v[1]; break;      /* v_pk_max_u16 */
			default:   res = v[0] < v[1] ? v[0] : v[1]; break;      /* v_pk_min_u16 */
			}
			out |= (res & 0xffff) << (16 * half);
		}
		r[l] = out;
	}
	isa_vdst32(w, in->dst, r);
	return ISA_STEP_NEXT;
}

/* One source of v_fma_mix*, widened to f32 bits with its modifiers and
 * the input denormal mode applied. */
static void mix_fetch(struct isa_wave *w, const struct isa_inst *in, unsigned i, uint32_t *out)
{
	uint32_t t[ISA_LANES];
	const uint32_t *s = isa_vsrc32(w, &in->src[i], t);
	bool f16 = in->opsel_hi >> i & 1, hi = in->opsel >> i & 1;
	bool neg = in->neg_lo >> i & 1, abs = in->neg_hi >> i & 1;

	if (f16) {
		bool keep = isa_denorm64(w) & 1;
		L {
			uint32_t h = (s[l] >> (hi ? 16 : 0)) & 0xffff;
			if (abs)
				h &= 0x7fff;
			if (neg)
				h ^= 0x8000;
			if (!keep && (h & 0x7c00) == 0)
				h &= 0x8000;
			out[l] = u32_of(f16_to_f32((uint16_t)h));
		}
	} else {
		bool keep = isa_denorm32(w) & 1;
		L {
			uint32_t u = s[l];
			if (abs)
				u &= 0x7fffffffu;
			if (neg)
				u ^= 0x80000000u;
			out[l] = keep ? u : flush32(u);
		}
	}
}

static int exec_fma_mix(struct isa_wave *w, const struct isa_inst *in)
{
	uint32_t a[ISA_LANES], b[ISA_LANES], c[ISA_LANES], r[ISA_LANES];
	uint32_t *d = isa_vrow(w, in->dst);
	uint64_t exec = isa_exec(w);

	mix_fetch(w, in, 0, a);
	mix_fetch(w, in, 1, b);
	mix_fetch(w, in, 2, c);
	isa_fma32_lanes(a, b, c, r);
	L {
		float x = f32_of(r[l]);
		if (isnan(x)) {
			/* the first NaN source, quieted; else the default NaN */
			const uint32_t *src[3] = { a, b, c };
			r[l] = 0x7fc00000u;
			for (unsigned i = 0; i < 3; i++) {
				if (isnan(f32_of(src[i][l]))) {
					r[l] = src[i][l] | 0x400000u;
					break;
				}
			}
		}
		if (in->clamp)
			r[l] = isnan(x) || x < 0 ? 0 : x > 1 ? 0x3f800000u : r[l];
	}
	if (in->op == 0x20) {
		if (!(isa_denorm32(w) & 2)) { L r[l] = flush32(r[l]); }
		isa_vdst32(w, in->dst, r);
		return ISA_STEP_NEXT;
	}
	bool keep = isa_denorm64(w) & 2;
	for (unsigned l = 0; l < ISA_LANES; l++) {
		uint32_t h;
		if (!(exec >> l & 1))
			continue;
		h = f32_to_f16(f32_of(r[l]));
		if (!keep && (h & 0x7c00) == 0)
			h &= 0x8000;
		d[l] = in->op == 0x21 ? (d[l] & 0xffff0000u) | h : (d[l] & 0xffffu) | (h << 16);
	}
	return ISA_STEP_NEXT;
}

/* Integer dot products (VOP3P v_dot2_i32_i16 ... v_dot8_u32_u4, and the
 * accumulating VOP2/VOP3 v_dot2c_i32_i16, v_dot4c_i32_i8, v_dot8c_i32_i4):
 * D = S2 + the sum over the elements of S0 and S1 (in->aux: 0 i16, 1 u16,
 * 2 i8, 3 u8, 4 i4, 5 u4; element 0 in the low bits), exact; CLAMP
 * saturates to the result type, otherwise the sum wraps. */
int isa_exec_idot(struct isa_wave *w, const struct isa_inst *in)
{
	uint32_t t[3][ISA_LANES], r[ISA_LANES];
	const uint32_t *s[3];
	/* the VOP2/VOP3/DPP dot*c forms take their kind from the opcode: the
	 * DPP wrapper keeps its own state in in->aux */
	unsigned kind = in->op == 0x138 ? 0 : in->op == 0x139 ? 2 : in->op == 0x13a ? 4 : in->aux;
	unsigned bits = kind < 2 ? 16 : kind < 4 ? 8 : 4, n = 32 / bits;
	bool sgn = !(kind & 1);

	for (unsigned i = 0; i < 3; i++)
		s[i] = isa_vsrc32(w, &in->src[i], t[i]);
	L {
		int64_t sum = sgn ? (int64_t)(int32_t)s[2][l] : (int64_t)s[2][l];
		for (unsigned k = 0; k < n; k++) {
			uint32_t a = (s[0][l] >> (bits * k)) & ((1u << bits) - 1);
			uint32_t b = (s[1][l] >> (bits * k)) & ((1u << bits) - 1);
			if (sgn) {
				int32_t x = (int32_t)(a << (32 - bits)) >> (32 - bits);
				int32_t y = (int32_t)(b << (32 - bits)) >> (32 - bits);
				sum += (int64_t)x * y;
			} else {
				sum += (int64_t)a * b;
			}
		}
		if (in->clamp) {
			if (sgn)
				sum = sum > INT32_MAX ? INT32_MAX : sum < INT32_MIN ? INT32_MIN : sum;
			else
				sum = sum > (int64_t)UINT32_MAX ? (int64_t)UINT32_MAX : sum;
		}
		r[l] = (uint32_t)sum;
	}
	isa_vdst32(w, in->dst, r);
	return ISA_STEP_NEXT;
}

/* v_accvgpr_read_b32 / write_b32 / mov_b32: the decoder resolved the
 * rows, so these are plain row copies under EXEC. */
static int exec_acc_move(struct isa_wave *w, const struct isa_inst *in)
{
	uint32_t buf[ISA_LANES];
	const uint32_t *s = isa_vsrc32(w, &in->src[0], buf);
	uint32_t tmp[ISA_LANES];
	memcpy(tmp, s, sizeof(tmp));
	isa_vdst32(w, in->dst, tmp);
	return ISA_STEP_NEXT;
}

/* v_pk_{fma,add,mul,min,max}_f16 with CLAMP: the operation
 * (isa_exec_pk_f16) into the third SDWA temporary row (no VOP3P word has
 * SDWA), then each half clamped as the f16 VOP3 results are (isa_exec_vf16):
 * NaN to 0, below 0 to 0, above 1 to 1.0. */
static int exec_pk_f16_clamp(struct isa_wave *w, const struct isa_inst *in)
{
	struct isa_inst t = *in;
	unsigned tmp = w->p->alloc_rows - 1;
	uint32_t r[ISA_LANES];
	int rc;

	t.dst = (uint16_t)tmp;
	t.clamp = 0;
	rc = isa_exec_pk_f16(w, &t);
	if (rc)
		return rc;
	memcpy(r, isa_vrow(w, tmp), sizeof(r));
	for (unsigned l = 0; l < ISA_LANES; l++) {
		uint32_t out = 0;
		for (unsigned h = 0; h < 2; h++) {
			uint16_t v = (uint16_t)(r[l] >> (16 * h));
			float x = f16_to_f32(v);
			v = isnan(x) ? 0 : x < 0 ? 0 : x > 1 ? 0x3c00 : v;
			out |= (uint32_t)v << (16 * h);
		}
		r[l] = out;
	}
	isa_vdst32(w, in->dst, r);
	return ISA_STEP_NEXT;
}

void kemu_isa_decode_vop3p(const struct isa_decoder *dc, struct isa_inst *in)
{
	uint32_t w0 = in->word[0], w1 = in->word[1];
	unsigned op = (w0 >> 16) & 0x7f, acc_off = dc->p->accum_offset;
	unsigned c0 = w1 & 0x1ff, c1 = (w1 >> 9) & 0x1ff, c2 = (w1 >> 18) & 0x1ff;

	in->op = (uint16_t)op;
	in->dst = w0 & 0xff;
	in->clamp = (w0 >> 15) & 1;
	in->opsel = (w0 >> 11) & 7;
	in->opsel_hi = (uint8_t)(((w1 >> 27) & 3) | (((w0 >> 14) & 1) << 2));
	in->neg_hi = (w0 >> 8) & 7;
	in->neg_lo = (w1 >> 29) & 7;
	switch (op) {
	case 0x0e: case 0x0f: case 0x10: case 0x11: case 0x12: /* v_pk_{fma,add,mul,min,max}_f16 */
		kemu_isa_opnd(&in->src[0], c0, ISA_T_F16, 0);
		kemu_isa_opnd(&in->src[1], c1, ISA_T_F16, 0);
		if (op == 0x0e)
			kemu_isa_opnd(&in->src[2], c2, ISA_T_F16, 0);
		for (unsigned i = 0; i < 3; i++)
			if (in->src[i].kind == ISA_OPND_BAD || in->src[i].code == ISA_SRC_LITERAL)
				return;
		in->exec = in->clamp ? exec_pk_f16_clamp : isa_exec_pk_f16;
		return;
	case 0x00: case 0x01: case 0x02: case 0x03: case 0x04: case 0x05: case 0x06:
	case 0x07: case 0x08: case 0x09: case 0x0a: case 0x0b: case 0x0c: case 0x0d:
		/* packed 16-bit integer ops; integer operands take no neg */
		if (in->neg_lo || in->neg_hi)
			return;
		if (in->clamp && (op == 0x01 || (op >= 0x04 && op <= 0x06)))
			return;
		for (unsigned i = 0; i < 3; i++) {
			if (i == 2 && op != 0x00 && op != 0x09)
				break;
			kemu_isa_opnd(&in->src[i], i == 0 ? c0 : i == 1 ? c1 : c2, ISA_T_B16, 0);
			if (in->src[i].kind == ISA_OPND_BAD || in->src[i].code == ISA_SRC_LITERAL)
				return;
		}
		in->exec = exec_pk_i16;
		return;
	case 0x26: case 0x27: case 0x28: case 0x29: case 0x2a: case 0x2b:
		/* v_dot2_i32_i16 .. v_dot8_u32_u4: the assembler's default
		 * OP_SEL_HI (all ones for S0/S1) only; OP_SEL and NEG select
		 * and negate halves of packed sources, which these do not
		 * document: not decoded */
		if (in->opsel || in->neg_lo || in->neg_hi || (in->opsel_hi & 3) != 3)
			return;
		for (unsigned i = 0; i < 3; i++) {
			kemu_isa_opnd(&in->src[i], i == 0 ? c0 : i == 1 ? c1 : c2, ISA_T_B32, 0);
			if (in->src[i].kind == ISA_OPND_BAD || in->src[i].code == ISA_SRC_LITERAL)
				return;
		}
		in->aux = (uint16_t)(op - 0x26);
		in->exec = isa_exec_idot;
		return;
	case 0x23: /* v_dot2_f32_f16 (isa_exec_vextra.c) */
		kemu_isa_decode_dot2f(dc, in);
		return;
	case 0x20: case 0x21: case 0x22: /* v_fma_mix_f32, v_fma_mixlo_f16, v_fma_mixhi_f16 */
		for (unsigned i = 0; i < 3; i++) {
			kemu_isa_opnd(&in->src[i], i == 0 ? c0 : i == 1 ? c1 : c2,
				      (in->opsel_hi >> i & 1) ? ISA_T_F16 : ISA_T_F32, 0);
			if (in->src[i].kind == ISA_OPND_BAD || in->src[i].code == ISA_SRC_LITERAL)
				return;
		}
		in->exec = exec_fma_mix;
		return;
	case 0x30: case 0x31: case 0x32: case 0x33:
		kemu_isa_opnd(&in->src[0], c0, ISA_T_F32, 0);
		kemu_isa_opnd(&in->src[1], c1, ISA_T_F32, 0);
		if (op == 0x30)
			kemu_isa_opnd(&in->src[2], c2, ISA_T_F32, 0);
		for (unsigned i = 0; i < 3; i++)
			if (in->src[i].kind == ISA_OPND_BAD || in->src[i].code == ISA_SRC_LITERAL)
				return;
		in->exec = exec_pk_f32;
		return;
	case 0x58: /* v_accvgpr_read_b32 vD, aS */
		if (c0 < ISA_SRC_VGPR0)
			return;
		kemu_isa_opnd(&in->src[0], c0, ISA_T_B32, 0);
		in->src[0].reg = (uint16_t)(in->src[0].reg + acc_off);
		in->exec = exec_acc_move;
		return;
	case 0x59: /* v_accvgpr_write_b32 aD, src */
		kemu_isa_opnd(&in->src[0], c0, ISA_T_B32, 0);
		if (in->src[0].kind == ISA_OPND_BAD || c0 == ISA_SRC_LITERAL)
			return;
		in->dst = (uint16_t)(in->dst + acc_off);
		in->exec = exec_acc_move;
		return;
	default:
		/* the matrix cores (isa_exec_mfma.c) */
		if (op >= 0x3e)
			kemu_isa_decode_mfma(dc, in);
		return;
	}
}

/* VOP1 v_accvgpr_mov_b32 (gfx90a+): a[dst] = a[src]. Decoded here so the
 * AGPR offset is applied in one place. */
void kemu_isa_decode_accmov(const struct isa_decoder *dc, struct isa_inst *in)
{
	uint32_t w0 = in->word[0];
	unsigned src = w0 & 0x1ff;
	if (src < ISA_SRC_VGPR0)
		return;
	kemu_isa_opnd(&in->src[0], src, ISA_T_B32, 0);
	in->src[0].reg = (uint16_t)(in->src[0].reg + dc->p->accum_offset);
	in->dst = (uint16_t)(((w0 >> 17) & 0xff) + dc->p->accum_offset);
	in->exec = exec_acc_move;
}
