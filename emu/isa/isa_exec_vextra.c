/*
 * isa_exec_vextra.c — the rarer VALU instructions, kept out of the hot
 * executors: the GFX8-compatible "legacy" forms, the cube-map helpers,
 * quad SADs, v_cvt_pkaccum_u8_f32, the f16 dot products into f32 and
 * gfx942's fp8/bf8 conversions (CDNA2/CDNA3 ISA guides, VOP1/VOP2/VOP3/
 * VOP3P; the cube rules are also LLVM's constant folding of the
 * amdgcn.cube* intrinsics).  kemu_isa_decode_valu asks isa_valu_extra()
 * for any VOP1/VOP2/VOP3 opcode its own table does not know.
 *
 * Legacy forms: v_exp/log_legacy_f32 are SI's v_exp/log_f32 (the guides
 * differ only in "the precision of the SI hardware", which the
 * interpreter's exp2/log2 do not model either); v_mad_legacy_f16/u16/i16,
 * v_fma_legacy_f16 and v_div_fixup_legacy_f16 are GFX8's v_mad_f16/u16/i16,
 * v_fma_f16, v_div_fixup_f16: the gfx9 operation without OP_SEL, the
 * result in bits [15:0] and bits [31:16] zeroed (LLVM's
 * zeroesHigh16BitsOfDest lists exactly these for gfx9).  They run the
 * gfx9 opcode's executor on a copy of the instruction.
 *
 * Cube (S0, S1, S2 = x, y, z, with VOP3 abs/neg): the major axis is z
 * when |z| >= |x| and |z| >= |y|, else y when |y| >= |x|, else x;
 * cubeid is the face 0-5 (2*axis + 1 when that coordinate is negative),
 * cubema twice the major coordinate, cubesc/cubetc the face's s and t
 * (z: +-x, -y; y: x, +-z; x: -+z, -y).  A NaN compares false.
 *
 * v_qsad_pk_u16_u8 / v_mqsad_pk_u16_u8: four 16-bit sums of |byte
 * differences| between S1's four bytes and the windows S0[31:0],
 * S0[39:8], S0[47:16], S0[55:24] of the 64-bit S0, each plus the matching
 * 16-bit lane of the 64-bit S2 (the masked form skips bytes where S1's
 * byte is 0, as v_msad_u8); the sums wrap to 16 bits (CLAMP saturates
 * them).  v_mqsad_u32_u8: the same masked windows into four 32-bit sums
 * with the four dwords of a 128-bit S2 (a VGPR quad).
 *
 * v_cvt_pkaccum_u8_f32: v_cvt_pk_u8_f32 with D as S2 (u8 of S0 into byte
 * S1[1:0] of D, the other bytes kept).
 *
 * v_dot2_f32_f16 (VOP3P) and v_dot2c_f32_f16 (VOP2/VOP3/DPP, D the
 * accumulator): D = a0*b0 + a1*b1 + c in f32; the products of f16 values
 * are exact in f32 and the two sums round in that order (a0*b0 + c,
 * then + a1*b1: fmaf twice; the guides do not say how many roundings,
 * so tests use exact data).  VOP3P modifiers: NEG_LO/NEG_HI negate the
 * low/high halves of S0/S1, NEG_LO bit 2 negates S2, CLAMP clamps to
 * [0, 1]; only the default OP_SEL (0) and OP_SEL_HI (1s) are decoded.
 *
 * fp8/bf8 (gfx942, FNUZ E4M3/E5M2: no infinity, no -0, 0x80 the only
 * NaN): v_cvt_f32_fp8/bf8 convert the byte SDWA SRC0_SEL picks (byte 0
 * in e32/e64); v_cvt_pk_f32_fp8/bf8 the word (SDWA WORD_1: the high one)
 * into two f32; a NaN becomes 0x7fc00000.  v_cvt_pk_fp8/bf8_f32 round S0
 * and S1 to nearest even into bytes 0 and 1 of the word OP_SEL[3] picks,
 * keeping the other word; NaN, infinity and overflow give 0x80 (the
 * FNUZ NaN; saturation is software's job: LLVM accepts no CLAMP here and
 * the guide does not define one, so CLAMP is not decoded); results that
 * round to zero are 0x00.  v_cvt_sr_fp8/bf8_f32 round S0 stochastically into the byte
 * OP_SEL[3:2] picks: S1's low bits (as many as the conversion drops) are
 * added below the kept mantissa bits before truncation (a zero S1
 * truncates toward zero), otherwise as above.
 */
#include "isa_float.h"
#include "isa_priv.h"
#include "isa_valu.h"

#define L for (unsigned l = 0; l < ISA_LANES; l++)

/* ---- legacy forms: the gfx9 executor on a copy ---- */

static int exec_legacy(struct isa_wave *w, const struct isa_inst *in)
{
	struct isa_inst t = *in;
	uint32_t r[ISA_LANES], a[ISA_LANES], b[ISA_LANES], c[ISA_LANES];

	t.opsel = 0;
	switch (in->op) {
	case 0x18b: t.op = 0x160; return isa_exec_vf32(w, &t);         /* v_exp_legacy_f32 */
	case 0x18c: t.op = 0x161; return isa_exec_vf32(w, &t);         /* v_log_legacy_f32 */
	case 0x1ea: t.op = 0x203; return isa_exec_vf16(w, &t);         /* v_mad_legacy_f16 */
	case 0x1ee: t.op = 0x206; return isa_exec_vf16(w, &t);         /* v_fma_legacy_f16 */
	case 0x1ef: t.op = 0x207; return isa_exec_vf16(w, &t);         /* v_div_fixup_legacy_f16 */
	default: break;
	}
	/* v_mad_legacy_u16 / _i16: low 16 bits of S0 * S1 + S2, high zeroed;
	 * CLAMP saturates to the 16-bit type */
	if (in->src[0].abs || in->src[0].neg || in->src[1].abs || in->src[1].neg ||
	    in->src[2].abs || in->src[2].neg || in->omod)
		return isa_exec_illegal(w, in);
	memcpy(a, isa_vsrc32(w, &in->src[0], r), sizeof(a));
	memcpy(b, isa_vsrc32(w, &in->src[1], r), sizeof(b));
	memcpy(c, isa_vsrc32(w, &in->src[2], r), sizeof(c));
	L {
		if (in->op == 0x1eb) {
			uint32_t m = (a[l] & 0xffff) * (b[l] & 0xffff) + (c[l] & 0xffff);
			r[l] = in->clamp && m > 0xffff ? 0xffff : m & 0xffff;
		} else {
			int32_t m = (int16_t)a[l] * (int16_t)b[l] + (int16_t)c[l];
			if (in->clamp)
				m = m > INT16_MAX ? INT16_MAX : m < INT16_MIN ? INT16_MIN : m;
			r[l] = (uint32_t)m & 0xffff;
		}
	}
	isa_vdst32(w, in->dst, r);
	return ISA_STEP_NEXT;
}

/* ---- cube ---- */

static int exec_cube(struct isa_wave *w, const struct isa_inst *in)
{
	uint32_t x[ISA_LANES], y[ISA_LANES], z[ISA_LANES], r[ISA_LANES];

	isa_fetch_f32(w, &in->src[0], x);
	isa_fetch_f32(w, &in->src[1], y);
	isa_fetch_f32(w, &in->src[2], z);
	L {
		float fx = f32_of(x[l]), fy = f32_of(y[l]), fz = f32_of(z[l]);
		float ax = fabsf(fx), ay = fabsf(fy), az = fabsf(fz), id, ma, sc, tc;
		if (az >= ax && az >= ay) {
			id = fz < 0 ? 5.0f : 4.0f;
			sc = fz < 0 ? -fx : fx;
			tc = -fy;
			ma = fz;
		} else if (ay >= ax) {
			id = fy < 0 ? 3.0f : 2.0f;
			sc = fx;
			tc = fy < 0 ? -fz : fz;
			ma = fy;
		} else {
			id = fx < 0 ? 1.0f : 0.0f;
			sc = fx < 0 ? fz : -fz;
			tc = -fy;
			ma = fx;
		}
		switch (in->op) {
		case 0x1c4: r[l] = u32_of(id); break;
		case 0x1c5: r[l] = u32_of(sc); break;
		case 0x1c6: r[l] = u32_of(tc); break;
		default: r[l] = u32_of(ma + ma); break;
		}
	}
	isa_outmods_f32(w, in, r);
	isa_vdst32(w, in->dst, r);
	return ISA_STEP_NEXT;
}

/* ---- quad SADs ---- */

static bool int_mods(const struct isa_inst *in)
{
	for (unsigned i = 0; i < 3; i++)
		if (in->src[i].abs || in->src[i].neg)
			return true;
	return in->omod != 0;
}

static uint32_t sad4(uint64_t s0, unsigned shift, uint32_t ref, bool masked)
{
	uint32_t s = 0;
	for (unsigned k = 0; k < 4; k++) {
		uint32_t x = (uint32_t)(s0 >> (shift + 8 * k)) & 0xff, y = (ref >> (8 * k)) & 0xff;
		if (masked && !y)
			continue;
		s += x > y ? x - y : y - x;
	}
	return s;
}

static int exec_qsad(struct isa_wave *w, const struct isa_inst *in)
{
	uint64_t a[ISA_LANES], c[ISA_LANES], r[ISA_LANES];
	uint32_t t[ISA_LANES];
	const uint32_t *b;
	bool masked = in->op == 0x1e6;

	if (int_mods(in))
		return isa_exec_illegal(w, in);
	isa_vsrc64(w, &in->src[0], a);
	b = isa_vsrc32(w, &in->src[1], t);
	isa_vsrc64(w, &in->src[2], c);
	L {
		uint64_t o = 0;
		for (unsigned q = 0; q < 4; q++) {
			uint32_t s = sad4(a[l], 8 * q, b[l], masked) + (uint32_t)((c[l] >> (16 * q)) & 0xffff);
			if (in->clamp && s > 0xffff)
				s = 0xffff;
			o |= (uint64_t)(s & 0xffff) << (16 * q);
		}
		r[l] = o;
	}
	isa_vdst64(w, in->dst, r);
	return ISA_STEP_NEXT;
}

static int exec_mqsad_u32(struct isa_wave *w, const struct isa_inst *in)
{
	uint64_t a[ISA_LANES];
	uint32_t t[ISA_LANES], r[4][ISA_LANES];
	const uint32_t *b;

	/* S2 and D are VGPR quads */
	if (int_mods(in) || in->src[2].kind != ISA_OPND_VGPR)
		return isa_exec_illegal(w, in);
	isa_vsrc64(w, &in->src[0], a);
	b = isa_vsrc32(w, &in->src[1], t);
	for (unsigned q = 0; q < 4; q++) {
		const uint32_t *c = isa_vrow(w, in->src[2].reg + q);
		L {
			uint64_t s = (uint64_t)sad4(a[l], 8 * q, b[l], true) + c[l];
			r[q][l] = in->clamp && s > UINT32_MAX ? UINT32_MAX : (uint32_t)s;
		}
	}
	for (unsigned q = 0; q < 4; q++)
		isa_vdst32(w, in->dst + q, r[q]);
	return ISA_STEP_NEXT;
}

/* ---- v_cvt_pkaccum_u8_f32 ---- */

static int exec_pkaccum(struct isa_wave *w, const struct isa_inst *in)
{
	uint32_t a[ISA_LANES], t[ISA_LANES], r[ISA_LANES];
	const uint32_t *b, *d = isa_vrow(w, in->dst);

	if (in->src[1].abs || in->src[1].neg || in->omod || in->clamp)
		return isa_exec_illegal(w, in);
	isa_fetch_f32(w, &in->src[0], a);
	b = isa_vsrc32(w, &in->src[1], t);
	L {
		float x = f32_of(a[l]);
		uint32_t v = isnan(x) || x <= 0 ? 0 : x >= 255.0f ? 255 : (uint32_t)nearbyintf(x);
		unsigned sh = 8 * (b[l] & 3);
		r[l] = (d[l] & ~(0xffu << sh)) | (v << sh);
	}
	isa_vdst32(w, in->dst, r);
	return ISA_STEP_NEXT;
}

/* ---- f16 dot products into f32 ---- */

static float half_of(uint32_t v, unsigned hi, bool neg)
{
	float f = f16_to_f32((uint16_t)(v >> (hi ? 16 : 0)));
	return neg ? -f : f;
}

static int exec_dot2f(struct isa_wave *w, const struct isa_inst *in)
{
	uint32_t ta[ISA_LANES], tb[ISA_LANES], tc[ISA_LANES], r[ISA_LANES];
	const uint32_t *a = isa_vsrc32(w, &in->src[0], ta), *b = isa_vsrc32(w, &in->src[1], tb), *c;
	bool vop3p = in->enc == ISA_ENC_VOP3P;
	unsigned sel = vop3p ? in->opsel : 0, selhi = vop3p ? in->opsel_hi : 3;
	unsigned nlo = vop3p ? in->neg_lo : 0, nhi = vop3p ? in->neg_hi : 0;

	/* e32/e64/DPP take no modifiers; D is the accumulator, so the SDWA
	 * wrapper's temporary destination cannot stand for it */
	if (!vop3p && (int_mods(in) || in->opsel || in->dst >= w->p->alloc_rows - ISA_TMP_ROWS))
		return isa_exec_illegal(w, in);
	c = vop3p ? isa_vsrc32(w, &in->src[2], tc) : isa_vrow(w, in->dst);
	L {
		float a0 = half_of(a[l], sel & 1, nlo & 1), b0 = half_of(b[l], sel >> 1 & 1, nlo >> 1 & 1);
		float a1 = half_of(a[l], selhi & 1, nhi & 1), b1 = half_of(b[l], selhi >> 1 & 1, nhi >> 1 & 1);
		float acc = f32_of(c[l]);
		if (nlo & 4)
			acc = -acc;
		acc = fmaf(a0, b0, acc);
		r[l] = u32_of(fmaf(a1, b1, acc));
		if (in->clamp) {
			float x = f32_of(r[l]);
			r[l] = isnan(x) || x < 0 ? 0 : x > 1 ? 0x3f800000u : r[l];
		}
	}
	isa_vdst32(w, in->dst, r);
	return ISA_STEP_NEXT;
}

void kemu_isa_decode_dot2f(const struct isa_decoder *dc, struct isa_inst *in)
{
	uint32_t w1 = in->word[1];
	(void)dc;
	for (unsigned i = 0; i < 3; i++) {
		kemu_isa_opnd(&in->src[i], (w1 >> (9 * i)) & 0x1ff, i < 2 ? ISA_T_B32 : ISA_T_F32, 0);
		if (in->src[i].kind == ISA_OPND_BAD || in->src[i].code == ISA_SRC_LITERAL)
			return;
	}
	/* OP_SEL/OP_SEL_HI other than the assembler's defaults (LLVM 19
	 * rejects them for the dot products; the guide does not say what
	 * they select) and NEG_HI of the f32 S2: not decoded */
	if (in->opsel || (in->opsel_hi & 3) != 3 || (in->neg_hi & 4))
		return;
	in->exec = exec_dot2f;
}

/* ---- fp8/bf8 (gfx942) ---- */

/* f32 bits to FNUZ fp8 (bf8: E5M2) by round to nearest even, or with
 * stochastic rounding adding rnd's low bits; sat: CLAMP. */
uint8_t kemu_isa_fp8_of(uint32_t u, bool bf8, bool sat, bool sr, uint32_t rnd)
{
	int mb = bf8 ? 2 : 3, bias = bf8 ? 16 : 8, maxe = bf8 ? 31 : 15;
	uint32_t sign = (u >> 24) & 0x80, mag = u & 0x7fffffffu, m;
	int e = (int)(mag >> 23), ex, qe, shift;
	uint64_t q;

	if (mag > 0x7f800000u)
		return 0x80;
	if (mag == 0x7f800000u)
		return sat ? (uint8_t)(sign | 0x7f) : 0x80;
	if (mag == 0)
		return 0;
	/* |u| = m * 2^ex; the result's quantum is 2^qe: mb bits below the
	 * leading one, but not below the denormal quantum 2^(1-bias-mb) */
	m = e ? (mag & 0x7fffffu) | 0x800000u : mag & 0x7fffffu;
	ex = (e ? e : 1) - 150;
	qe = ex + (31 - __builtin_clz(m)) - mb;
	if (qe < 1 - bias - mb)
		qe = 1 - bias - mb;
	shift = qe - ex;                /* >= 0: an f32 has more fraction bits */
	if (shift >= 40) {
		q = 0;
	} else if (shift == 0) {
		q = m;
	} else {
		uint64_t rem = m & ((1ull << shift) - 1), half = 1ull << (shift - 1);
		q = (uint64_t)m >> shift;
		if (sr) {
			if (rem + (rnd & ((shift >= 32 ? 0x100000000ull : 1ull << shift) - 1)) >= (1ull << shift))
				q++;
		} else if (rem > half || (rem == half && (q & 1))) {
			q++;
		}
	}
	if (q == 0)
		return 0;                       /* FNUZ has no -0 */
	if (q >> (mb + 1)) {                    /* rounded up into the next binade */
		q >>= 1;
		qe++;
	}
	if (q < (1ull << mb))                   /* denormal */
		return (uint8_t)(sign | q);
	if (qe + mb + bias > maxe)
		return sat ? (uint8_t)(sign | 0x7f) : 0x80;
	return (uint8_t)(sign | (uint32_t)(qe + mb + bias) << mb | (q & ((1u << mb) - 1)));
}

static int exec_cvt_from_fp8(struct isa_wave *w, const struct isa_inst *in)
{
	uint32_t t[ISA_LANES];
	const uint32_t *s = isa_vsrc32(w, &in->src[0], t);
	bool bf8 = in->op == 0x195 || in->op == 0x197, pk = in->op >= 0x196;
	unsigned sel = 0;

	/* LLVM accepts no OP_SEL on the e64 forms (not decoded); the pair forms' SDWA word (not wrapped, see the decoder): SRC0_SEL
	 * WORD_1 picks the high word; there is no DST_SEL */
	if (pk && in->enc == ISA_ENC_VOP1 && (in->word[0] & 0x1ff) == ISA_SRC_SDWA) {
		unsigned s0 = (in->sdwa >> 16) & 7;
		if (s0 != 4 && s0 != 5 && s0 != 6)
			return isa_exec_illegal(w, in);
		sel = s0 == 5;
	}
	uint32_t lo[ISA_LANES], hi[ISA_LANES];

	if (in->src[0].abs || in->src[0].neg || in->opsel)
		return isa_exec_illegal(w, in);
	L {
		if (pk) {
			unsigned sh = (sel & 1) ? 16 : 0;
			lo[l] = u32_of((float)kemu_isa_fp8_value((uint8_t)(s[l] >> sh), bf8));
			hi[l] = u32_of((float)kemu_isa_fp8_value((uint8_t)(s[l] >> (sh + 8)), bf8));
		} else {
			lo[l] = u32_of((float)kemu_isa_fp8_value((uint8_t)(s[l] >> (8 * sel)), bf8));
		}
	}
	/* a NaN is the default quiet NaN */
	L {
		if (isnan(f32_of(lo[l]))) lo[l] = 0x7fc00000u;
		if (pk && isnan(f32_of(hi[l]))) hi[l] = 0x7fc00000u;
	}
	isa_outmods_f32(w, in, lo);
	isa_vdst32(w, in->dst, lo);
	if (pk) {
		isa_outmods_f32(w, in, hi);
		isa_vdst32(w, in->dst + 1u, hi);
	}
	return ISA_STEP_NEXT;
}

static int exec_cvt_to_fp8(struct isa_wave *w, const struct isa_inst *in)
{
	uint32_t a[ISA_LANES], b[ISA_LANES], t[ISA_LANES], r[ISA_LANES];
	const uint32_t *d = isa_vrow(w, in->dst);
	bool bf8 = in->op == 0x2a3 || in->op == 0x2a5, sr = in->op >= 0x2a4;

	/* CLAMP: LLVM does not accept it and the guide does not say what it
	 * saturates: not decoded */
	if (in->omod || in->clamp)
		return isa_exec_illegal(w, in);
	isa_fetch_f32(w, &in->src[0], a);
	if (sr) {
		if (in->src[1].abs || in->src[1].neg)
			return isa_exec_illegal(w, in);
		memcpy(b, isa_vsrc32(w, &in->src[1], t), sizeof(b));
	} else {
		isa_fetch_f32(w, &in->src[1], b);
	}
	L {
		if (sr) {
			unsigned sh = 8 * ((in->opsel >> 2) & 3);
			uint32_t v = kemu_isa_fp8_of(a[l], bf8, in->clamp, true, b[l]);
			r[l] = (d[l] & ~(0xffu << sh)) | (v << sh);
		} else {
			unsigned sh = (in->opsel & 8) ? 16 : 0;
			uint32_t v = kemu_isa_fp8_of(a[l], bf8, in->clamp, false, 0) |
				     ((uint32_t)kemu_isa_fp8_of(b[l], bf8, in->clamp, false, 0) << 8);
			r[l] = (d[l] & ~(0xffffu << sh)) | (v << sh);
		}
	}
	isa_vdst32(w, in->dst, r);
	return ISA_STEP_NEXT;
}

/* ---- the decoder's hook ---- */

isa_exec_fn isa_valu_extra(unsigned op, bool gfx942, uint8_t t[3])
{
	const uint8_t B = ISA_T_B32, F = ISA_T_F32, H = ISA_T_F16, Q = ISA_T_B64;

	switch (op) {
	case 0x18b: case 0x18c:
		t[0] = F;
		return exec_legacy;
	case 0x1ea: case 0x1ee: case 0x1ef:
		t[0] = H; t[1] = H; t[2] = H;
		return exec_legacy;
	case 0x1eb: case 0x1ec:
		t[0] = B; t[1] = B; t[2] = B;
		return exec_legacy;
	case 0x1c4: case 0x1c5: case 0x1c6: case 0x1c7:
		t[0] = F; t[1] = F; t[2] = F;
		return exec_cube;
	case 0x1e5: case 0x1e6:
		t[0] = Q; t[1] = B; t[2] = Q;
		return exec_qsad;
	case 0x1e7:
		t[0] = Q; t[1] = B; t[2] = B;
		return exec_mqsad_u32;
	case 0x1f0:
		t[0] = F; t[1] = B;
		return exec_pkaccum;
	case 0x137: /* v_dot2c_f32_f16: packed f16 sources, D accumulates */
		t[0] = B; t[1] = B;
		return exec_dot2f;
	default:
		break;
	}
	if (!gfx942)
		return NULL;
	switch (op) {
	case 0x194: case 0x195: case 0x196: case 0x197:
		t[0] = B;
		return exec_cvt_from_fp8;
	case 0x2a2: case 0x2a3:
		t[0] = F; t[1] = F;
		return exec_cvt_to_fp8;
	case 0x2a4: case 0x2a5:
		t[0] = F; t[1] = B;
		return exec_cvt_to_fp8;
	default:
		return NULL;
	}
}

/* The float modifiers of the integer-table conversions v_cvt_pk_u8_f32
 * (S0 a float), v_cvt_pknorm_i16/u16_f32 (S0, S1 floats): VOP3 ABS/NEG on
 * those sources; v_cvt_off_f32_i4 (an f32 result): OMOD and CLAMP.  The
 * operation itself is in->inner's (exec_vb32): the modified sources go
 * through the SDWA temporary rows (a VOP3 word has no SDWA), the result
 * of v_cvt_off_f32_i4 through the third one before the output
 * modifiers. */
int isa_exec_vcvt_mods(struct isa_wave *w, const struct isa_inst *in)
{
	struct isa_inst t = *in;
	unsigned tmp = w->p->alloc_rows - ISA_TMP_ROWS, nf = in->op == 0x1dd ? 1 : 2;
	int r;

	if (in->op == 0x14e) { /* v_cvt_off_f32_i4 */
		uint32_t res[ISA_LANES];
		t.dst = (uint16_t)(tmp + 2);
		t.omod = 0;
		t.clamp = 0;
		r = in->inner(w, &t);
		if (r)
			return r;
		memcpy(res, isa_vrow(w, tmp + 2), sizeof(res));
		isa_outmods_f32(w, in, res);
		isa_vdst32(w, in->dst, res);
		return ISA_STEP_NEXT;
	}
	for (unsigned i = 0; i < nf; i++) {
		if (!in->src[i].abs && !in->src[i].neg)
			continue;
		isa_fetch_f32(w, &in->src[i], isa_vrow(w, tmp + i));
		t.src[i].kind = ISA_OPND_VGPR;
		t.src[i].reg = (uint16_t)(tmp + i);
		t.src[i].abs = t.src[i].neg = 0;
	}
	return in->inner(w, &t);
}
