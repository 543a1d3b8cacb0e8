/*
 * isa_exec_vfast64.c — the VALU fast path for 64-bit lanes: the operations
 * of the compilers' double-precision arithmetic, division and square root
 * (v_add/mul/fma/fmac_f64, v_rcp/rsq/sqrt_f64, v_div_scale/fmas/fixup_f64,
 * v_ldexp_f64), their compares (v_cmp(x)_*_f64, v_cmp(x)_class_f64), the
 * conversions from 32-bit integers (v_cvt_f64_i32/u32) and their 64-bit
 * address arithmetic (v_lshlrev/lshrrev_b64, v_ashrrev_i64, gfx942's
 * v_mov_b64 and v_lshl_add_u64), computed eight lanes per iteration in
 * host vector registers: the floating-point ones on each lane's 64-bit
 * value, interleaved from its two rows as it is loaded and split back as
 * it is stored under EXEC; the integer ones on the rows as they are, in
 * 32-bit lanes.  The compilers' f64 division and gfx942 square-root
 * refinement are also fused into one superinstruction each (the end of
 * the file, isa_vfast64_fuse).
 *
 * The general executors (isa_exec_vf64, isa_exec_div_scale in
 * isa_exec_vfp.c) assemble every source into a 64-lane temporary
 * (isa_fetch_f64), compute into another through a switch, pass over the
 * result for AMD's default NaN, the denormal flush and the output
 * modifiers, and then split it into the rows: six or seven passes.  Here
 * it is one.  The bits are those of the general executors, which stay the
 * reference and take over whatever the fast path does not cover:
 *  - isa_vfast64_pick (at decode) declines clamp, omod, op_sel, DPP and
 *    SDWA, and any source that is not a VGPR pair, an SGPR pair or a
 *    constant; input modifiers (abs, neg) are applied as the general
 *    executor applies them, on the raw bits;
 *  - at execution, a MODE that flushes f64 denormals (s_setreg can set it
 *    at any time), v_div_fmas with VCC set in an active lane (the scaled
 *    fma), and v_div_scale / v_div_fixup with an active lane outside their
 *    ordinary case (the checks below read only the exponents, before
 *    anything is written) go to the general executor for the whole
 *    instruction;
 *  - the host operations are the IEEE ones the general executor calls per
 *    lane (vaddpd/vmulpd/vfmadd/vsqrtpd/vdivpd round the same as their
 *    scalar forms: round to nearest even, no flush, the host's FP
 *    environment untouched), and a NaN the operation made (x86's
 *    0xfff8000000000000) becomes AMD's 0x7ff8000000000000 unless an input
 *    was that NaN, as the general executor decides.
 * Compiled for AVX2+FMA with a target attribute (not a clone: no ifunc, so
 * sanitizer builds run it too) and picked only on such a host.
 */
#include "isa_valu.h"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#include <immintrin.h>

#define V64_TARGET __attribute__((target("avx2,fma")))
#define V64_INLINE static inline __attribute__((always_inline)) V64_TARGET

typedef uint64_t v64_u64x4 __attribute__((vector_size(32), aligned(8)));
typedef double v64_f64x4 __attribute__((vector_size(32), aligned(8)));

#define V64_SIGN 0x8000000000000000ull
#define V64_HOST_QNAN 0xfff8000000000000ull     /* x86's default NaN */

/* AMD's default NaN for a NaN the operation made (isa_exec_vf64).  The
 * full rule only runs when some lane is the host's NaN (one compare and a
 * branch that is almost never taken). */
V64_INLINE v64_u64x4 v64_nanfix(v64_u64x4 r, v64_u64x4 a, v64_u64x4 b, v64_u64x4 c)
{
	v64_u64x4 gen = (v64_u64x4)(r == V64_HOST_QNAN);

	if (__builtin_expect(_mm256_testz_si256((__m256i)gen, (__m256i)gen), 1))
		return r;
	gen &= (v64_u64x4)(a != r) & (v64_u64x4)(b != r) & (v64_u64x4)(c != r);
	return r ^ (gen & V64_SIGN);
}

/* Lanes of EXEC's byte m8 as all-ones 32-bit lanes. */
V64_INLINE isa_i32x8 v64_on8(uint32_t m8)
{
	return (isa_i32x8)((((isa_u32x8){ 0 } + m8) & (isa_u32x8){ 1, 2, 4, 8, 16, 32, 64, 128 }) != 0);
}

/* ---- eight lanes per iteration ----
 * A 64-bit source's lanes [8k, 8k + 8) are one 32-byte load from each of
 * its two rows; the low and the high dwords interleave into two vectors of
 * four 64-bit lanes (vpunpckldq/vpunpckhdq: lanes 0, 1, 4, 5 and 2, 3, 6,
 * 7, an order the lane-wise operations do not mind) and split back with
 * two vshufps.  A scalar or constant source is broadcast into two rows of
 * a buffer once per instruction, so the loops read rows only and test no
 * operand kind per lane group. */
struct v8_src {
	const uint32_t *lo, *hi;
	isa_u32x8 andm, xorm;   /* abs and neg on the high dword's bit 31 */
};

/* buf: 128 dwords, used when o is not a VGPR pair. */
V64_INLINE void v8_src_init(struct isa_wave *w, const struct isa_opnd *o, struct v8_src *s,
			    uint32_t *buf)
{
	s->andm = (isa_u32x8){ 0 } + (o->abs ? 0x7fffffffu : ~0u);
	s->xorm = (isa_u32x8){ 0 } + (o->neg ? 0x80000000u : 0u);
	if (o->kind == ISA_OPND_VGPR) {
		s->lo = isa_vrow(w, o->reg);
		s->hi = isa_vrow(w, o->reg + 1u);
	} else {
		uint64_t v = isa_sread64(w, o);
		isa_u32x8 l = (isa_u32x8){ 0 } + (uint32_t)v, h = (isa_u32x8){ 0 } + (uint32_t)(v >> 32);
		for (unsigned k = 0; k < ISA_LANES / 8; k++) {
			*(isa_u32x8 *)(buf + 8 * k) = l;
			*(isa_u32x8 *)(buf + ISA_LANES + 8 * k) = h;
		}
		s->lo = buf;
		s->hi = buf + ISA_LANES;
	}
}

/* A 32-bit source's row, or its value broadcast into buf (64 dwords). */
V64_INLINE const uint32_t *v8_row32(struct isa_wave *w, const struct isa_opnd *o, uint32_t *buf)
{
	isa_u32x8 v;

	if (o->kind == ISA_OPND_VGPR)
		return isa_vrow(w, o->reg);
	v = (isa_u32x8){ 0 } + (o->kind == ISA_OPND_CONST ? (uint32_t)o->imm : isa_sread32(w, o));
	for (unsigned k = 0; k < ISA_LANES / 8; k++)
		*(isa_u32x8 *)(buf + 8 * k) = v;
	return buf;
}

V64_INLINE isa_u32x8 v8_ld(const uint32_t *row, unsigned k)
{
	return *(const isa_u32x8 *)(row + 8 * k);
}

/* Lanes [8k, 8k + 8) of a source as 64-bit values, modifiers applied
 * (mods false: the instruction has none, the loop copy leaves them out). */
V64_INLINE void v8_getm(const struct v8_src *s, unsigned k, v64_u64x4 *x0, v64_u64x4 *x1,
			bool mods)
{
	isa_u32x8 lo = v8_ld(s->lo, k), hi = v8_ld(s->hi, k);

	if (mods)
		hi = (hi & s->andm) ^ s->xorm;
	*x0 = (v64_u64x4)_mm256_unpacklo_epi32((__m256i)lo, (__m256i)hi);
	*x1 = (v64_u64x4)_mm256_unpackhi_epi32((__m256i)lo, (__m256i)hi);
}

V64_INLINE void v8_get(const struct v8_src *s, unsigned k, v64_u64x4 *x0, v64_u64x4 *x1)
{
	isa_u32x8 lo = v8_ld(s->lo, k), hi = (v8_ld(s->hi, k) & s->andm) ^ s->xorm;

	*x0 = (v64_u64x4)_mm256_unpacklo_epi32((__m256i)lo, (__m256i)hi);
	*x1 = (v64_u64x4)_mm256_unpackhi_epi32((__m256i)lo, (__m256i)hi);
}

/* Stores rows lo, hi of lanes [8k, 8k + 8) under EXEC's byte m8. */
V64_INLINE void v8_put32(uint32_t *dlo, uint32_t *dhi, unsigned k, isa_u32x8 lo, isa_u32x8 hi,
			 uint32_t m8)
{
	isa_u32x8 *pl = (isa_u32x8 *)(dlo + 8 * k), *ph = (isa_u32x8 *)(dhi + 8 * k);

	if (m8 == 0xff) {
		*pl = lo;
		*ph = hi;
	} else {
		isa_u32x8 on = (isa_u32x8)((((isa_u32x8){ 0 } + m8) &
					   (isa_u32x8){ 1, 2, 4, 8, 16, 32, 64, 128 }) != 0);
		*pl = (lo & on) | (*pl & ~on);
		*ph = (hi & on) | (*ph & ~on);
	}
}

/* v8_get's two vectors (the same lane order) back into the rows. */
V64_INLINE void v8_put(uint32_t *dlo, uint32_t *dhi, unsigned k, v64_u64x4 r0, v64_u64x4 r1,
		       uint32_t m8)
{
	__m256 a = (__m256)r0, b = (__m256)r1;

	v8_put32(dlo, dhi, k, (isa_u32x8)_mm256_shuffle_ps(a, b, 0x88),
		 (isa_u32x8)_mm256_shuffle_ps(a, b, 0xdd), m8);
}

/* The operations.  EXPR computes r from a, b, c (v64_u64x4) and their
 * double views fa, fb, fc; NSRC says which sources exist (an absent one
 * compares as a for the NaN rule, as in isa_exec_vf64).  The lane loop
 * has a copy for the whole EXEC, without the per-group mask tests (the
 * compiler drops the dead branches of each copy). */
#define V64_HALF(NSRC, EXPR, A, B, C, R)                                       \
	do {                                                                  \
		v64_u64x4 a = A, b = B, c = C;                                \
		v64_f64x4 fa = (v64_f64x4)a, fb = (v64_f64x4)b, fc = (v64_f64x4)c; \
		(void)fa; (void)fb; (void)fc;                                 \
		R = v64_nanfix((v64_u64x4)(EXPR), a, b, c);                   \
	} while (0)

#define V64_LOOP(NSRC, EXPR, FULL, MODS)                                       \
	for (unsigned k = 0; k < ISA_LANES / 8; k++) {                        \
		uint32_t m8 = FULL ? 0xff : (uint32_t)(exec >> (8 * k)) & 0xff; \
		v64_u64x4 a0, a1, b0, b1, c0, c1, r0, r1;                     \
		if (!m8)                                                      \
			continue;                                             \
		v8_getm(&s0, k, &a0, &a1, MODS);                              \
		b0 = a0; b1 = a1; c0 = a0; c1 = a1;                           \
		if (NSRC >= 2)                                                \
			v8_getm(&s1, k, &b0, &b1, MODS);                      \
		if (NSRC >= 3)                                                \
			v8_getm(&s2, k, &c0, &c1, MODS);                      \
		V64_HALF(NSRC, EXPR, a0, b0, c0, r0);                         \
		V64_HALF(NSRC, EXPR, a1, b1, c1, r1);                         \
		v8_put(dlo, dhi, k, r0, r1, m8);                              \
	}

/* Four copies of the lane loop: the whole EXEC or not, input modifiers
 * or none (the usual case: two vector operations per source and eight
 * lanes fewer). */
#define V64_BODY(NSRC, EXPR)                                                   \
	struct v8_src s0, s1, s2;                                             \
	uint32_t sbuf[3][2 * ISA_LANES];                                      \
	uint64_t exec = isa_exec(w);                                          \
	uint32_t *dlo = isa_vrow(w, in->dst), *dhi = isa_vrow(w, in->dst + 1u); \
	bool mods = in->src[0].abs || in->src[0].neg;                         \
	v8_src_init(w, &in->src[0], &s0, sbuf[0]);                            \
	if (NSRC >= 2) {                                                      \
		v8_src_init(w, &in->src[1], &s1, sbuf[1]);                    \
		mods |= in->src[1].abs || in->src[1].neg;                     \
	}                                                                     \
	if (NSRC >= 3) {                                                      \
		v8_src_init(w, &in->src[2], &s2, sbuf[2]);                    \
		mods |= in->src[2].abs || in->src[2].neg;                     \
	}                                                                     \
	if (exec == ~0ull && !mods)                                           \
		V64_LOOP(NSRC, EXPR, 1, 0)                                    \
	else if (exec == ~0ull)                                               \
		V64_LOOP(NSRC, EXPR, 1, 1)                                    \
	else if (!mods)                                                       \
		V64_LOOP(NSRC, EXPR, 0, 0)                                    \
	else                                                                  \
		V64_LOOP(NSRC, EXPR, 0, 1)                                    \
	return ISA_STEP_NEXT;

#define V64_FN(NAME, NSRC, EXPR)                                               \
	V64_TARGET static int v64_##NAME(struct isa_wave *w, const struct isa_inst *in) \
	{                                                                     \
		if (isa_denorm64(w) != 3)                                     \
			return isa_exec_vf64(w, in);                          \
		V64_BODY(NSRC, EXPR)                                          \
	}

V64_FN(add, 2, fa + fb)
V64_FN(mul, 2, fa * fb)
V64_FN(fma, 3, _mm256_fmadd_pd((__m256d)fa, (__m256d)fb, (__m256d)fc))
V64_FN(rcp, 1, 1.0 / fa)
V64_FN(rsq, 1, 1.0 / (v64_f64x4)_mm256_sqrt_pd((__m256d)fa))
V64_FN(sqrt, 1, _mm256_sqrt_pd((__m256d)fa))

/* v_div_fmas_f64: with VCC clear in every active lane it is fma(a, b, c);
 * a lane with VCC set scales the fma by 2^±128 before its one rounding
 * (isa_exec_vf64, fma_scaled_odd). */
V64_TARGET static int v64_div_fmas(struct isa_wave *w, const struct isa_inst *in)
{
	if (isa_denorm64(w) != 3 || (isa_vcc(w) & isa_exec(w)))
		return isa_exec_vf64(w, in);
	V64_BODY(3, _mm256_fmadd_pd((__m256d)fa, (__m256d)fb, (__m256d)fc))
}

/* Whether every active lane of v_div_scale_f64 / v_div_fixup_f64 is in
 * the ordinary case, from the exponents of the sources named e1 and e2:
 *  - div_scale (S1 the denominator, S2 the numerator): isa_exec_div_scale's
 *    own fast path, 1 <= e1 < 2045, 53 < e2 < 2047, -1000 < e2 - e1 < 768:
 *    D = S0, VCC clear;
 *  - div_fixup (S1 the denominator, S2 the numerator): both normal and
 *    finite (1..2046), and e2 - e1 >= -1075: D = sign | |S0|
 *    (div_fixup64's last case; every earlier one needs a zero, an
 *    infinity, a NaN or that underflow). */
V64_INLINE bool v64_ordinary_lanes(uint64_t exec, const struct v8_src *s1,
				   const struct v8_src *s2, bool scale, bool full)
{
	isa_u32x8 bad = { 0 };

	for (unsigned k = 0; k < ISA_LANES / 8; k++) {
		uint32_t m8 = full ? 0xff : (uint32_t)(exec >> (8 * k)) & 0xff;
		isa_u32x8 e1, e2, d, b;
		if (!m8)
			continue;
		/* the modifiers touch only the sign: the raw high dwords;
		 * each range a single unsigned compare (x - lo > hi - lo) */
		e1 = (v8_ld(s1->hi, k) >> 20) & 0x7ff;
		e2 = (v8_ld(s2->hi, k) >> 20) & 0x7ff;
		d = e2 - e1;    /* -2047 .. 2047, as unsigned */
		if (scale)      /* 1 <= e1 < 2045, 53 < e2 < 2047, -1000 < d < 768 */
			b = (isa_u32x8)(e1 - 1 > 2043) | (isa_u32x8)(e2 - 54 > 1992) |
			    (isa_u32x8)(d + 999 > 1766);
		else            /* 1 <= e1, e2 < 2047, d >= -1075 */
			b = (isa_u32x8)(e1 - 1 > 2045) | (isa_u32x8)(e2 - 1 > 2045) |
			    (isa_u32x8)(d + 1075 > 4095);
		bad |= full ? b : b & (isa_u32x8)v64_on8(m8);
	}
	return !isa_any32x8(&bad);
}

V64_INLINE bool v64_ordinary(uint64_t exec, const struct v8_src *s1, const struct v8_src *s2,
			     bool scale)
{
	return exec == ~0ull ? v64_ordinary_lanes(exec, s1, s2, scale, true)
			     : v64_ordinary_lanes(exec, s1, s2, scale, false);
}

V64_TARGET static int v64_div_fixup(struct isa_wave *w, const struct isa_inst *in)
{
	struct v8_src t1, t2;
	uint32_t tbuf[2][2 * ISA_LANES];

	if (isa_denorm64(w) != 3)
		return isa_exec_vf64(w, in);
	v8_src_init(w, &in->src[1], &t1, tbuf[0]);
	v8_src_init(w, &in->src[2], &t2, tbuf[1]);
	if (!v64_ordinary(isa_exec(w), &t1, &t2, false))
		return isa_exec_vf64(w, in);
	/* D = sign(S1 ^ S2) | |S0|: the quotient's sign from the operands */
	V64_BODY(3, ((b ^ c) & V64_SIGN) | (a & ~V64_SIGN))
}

/* v_div_scale_f64 in its ordinary case: D = S0 (no NaN rule: the
 * general executor copies it), VCC = 0 in the active lanes (SDST). */
V64_TARGET static int v64_div_scale(struct isa_wave *w, const struct isa_inst *in)
{
	struct v8_src s0, t1, t2;
	uint32_t buf[3][2 * ISA_LANES];
	uint64_t exec = isa_exec(w);
	uint32_t *dlo = isa_vrow(w, in->dst), *dhi = isa_vrow(w, in->dst + 1u);

	v8_src_init(w, &in->src[1], &t1, buf[1]);
	v8_src_init(w, &in->src[2], &t2, buf[2]);
	if (!v64_ordinary(exec, &t1, &t2, true))
		return isa_exec_div_scale(w, in);
	v8_src_init(w, &in->src[0], &s0, buf[0]);
	for (unsigned k = 0; k < ISA_LANES / 8; k++) {
		uint32_t m8 = (uint32_t)(exec >> (8 * k)) & 0xff;
		if (m8)
			v8_put32(dlo, dhi, k, v8_ld(s0.lo, k), (v8_ld(s0.hi, k) & s0.andm) ^ s0.xorm, m8);
	}
	isa_swrite64(w, in->sdst, 0);
	return ISA_STEP_NEXT;
}

/* Whether every active lane of v_ldexp_f64 stays normal (the zero S0
 * aside): 1 <= e <= 2046, |n| <= 2046 and 1 <= e + n <= 2046, each range
 * one unsigned compare; without the EXEC mask under the whole EXEC. */
V64_INLINE bool v64_ldexp_ok(uint64_t exec, const struct v8_src *s0, const uint32_t *krow,
			     bool full)
{
	isa_u32x8 bad = { 0 };

	for (unsigned k = 0; k < ISA_LANES / 8; k++) {
		uint32_t m8 = full ? 0xff : (uint32_t)(exec >> (8 * k)) & 0xff;
		isa_u32x8 hi = v8_ld(s0->hi, k), n = v8_ld(krow, k), e = (hi >> 20) & 0x7ff, b;
		isa_u32x8 zero = (isa_u32x8)(((hi & 0x7fffffffu) | v8_ld(s0->lo, k)) == 0);
		if (!m8)
			continue;
		/* e + n wraps only where |n| > 2046, which is bad anyway */
		b = (isa_u32x8)(e - 1 > 2045) | (isa_u32x8)(n + 2046 > 4092) |
		    (isa_u32x8)(e + n - 1 > 2045);
		b &= ~zero;
		bad |= full ? b : b & (isa_u32x8)v64_on8(m8);
	}
	return !isa_any32x8(&bad);
}

/* v_ldexp_f64 (S1 a 32-bit integer) where every active lane stays a
 * normal number: the exponent field plus S1, exact, as ldexp() is there
 * (the high dword plus S1 << 20: the low dword does not change); a zero
 * S0 is returned as it is.  Any other lane (an infinity, a NaN, a
 * denormal in or out, an overflow) sends the instruction to the general
 * executor before anything is written: a first pass over the lanes
 * checks (v64_ldexp_ok), a second writes. */
V64_TARGET static int v64_ldexp(struct isa_wave *w, const struct isa_inst *in)
{
	uint64_t exec = isa_exec(w);
	uint32_t *dlo = isa_vrow(w, in->dst), *dhi = isa_vrow(w, in->dst + 1u);
	uint32_t buf[2 * ISA_LANES], kbuf[ISA_LANES];
	const uint32_t *krow;
	struct v8_src s0;

	if (isa_denorm64(w) != 3)
		return isa_exec_vf64(w, in);
	v8_src_init(w, &in->src[0], &s0, buf);
	krow = v8_row32(w, &in->src[1], kbuf);
	if (!(exec == ~0ull ? v64_ldexp_ok(exec, &s0, krow, true)
			    : v64_ldexp_ok(exec, &s0, krow, false)))
		return isa_exec_vf64(w, in);
	for (unsigned k = 0; k < ISA_LANES / 8; k++) {
		uint32_t m8 = (uint32_t)(exec >> (8 * k)) & 0xff;
		isa_u32x8 hi = v8_ld(s0.hi, k), lo = v8_ld(s0.lo, k);
		isa_u32x8 zero = (isa_u32x8)(((hi & 0x7fffffffu) | lo) == 0);
		if (!m8)
			continue;
		hi = (hi & s0.andm) ^ s0.xorm;
		v8_put32(dlo, dhi, k, lo, hi + ((v8_ld(krow, k) << 20) & ~zero), m8);
	}
	return ISA_STEP_NEXT;
}

/* ---- 64-bit integer operations (exec_vb64): shifts, v_mov_b64 and
 * v_lshl_add_u64; no modifiers (the picker leaves any to exec_vb64,
 * which ignores them) and no NaN rule.  Computed on the two rows as they
 * are, eight 32-bit lanes per operation: the carry of an add and the
 * bits a shift moves across the halves are handled per dword, so nothing
 * is interleaved.  AVX2's variable shifts give 0 for a count above 31
 * (vpsllvd/vpsrlvd; vpsravd the sign), which the shifts below rely on:
 * a count is unsigned, so 32 - n and n - 32 wrap above 31 where the term
 * must vanish. ---- */

V64_INLINE isa_u32x8 v8_sll(isa_u32x8 x, isa_u32x8 n)
{
	return (isa_u32x8)_mm256_sllv_epi32((__m256i)x, (__m256i)n);
}
V64_INLINE isa_u32x8 v8_srl(isa_u32x8 x, isa_u32x8 n)
{
	return (isa_u32x8)_mm256_srlv_epi32((__m256i)x, (__m256i)n);
}
V64_INLINE isa_u32x8 v8_sra(isa_u32x8 x, isa_u32x8 n)
{
	return (isa_u32x8)_mm256_srav_epi32((__m256i)x, (__m256i)n);
}

/* D.lo, D.hi = BODY (from lanes [8k, 8k + 8) of the sources) over EXEC,
 * with a copy of the loop for the whole EXEC. */
#define V8I_LOOP(FULL, ...)                                                   \
	for (unsigned k = 0; k < ISA_LANES / 8; k++) {                        \
		uint32_t m8 = FULL ? 0xff : (uint32_t)(exec >> (8 * k)) & 0xff; \
		isa_u32x8 lo, hi;                                             \
		if (!m8)                                                      \
			continue;                                             \
		__VA_ARGS__                                                   \
		v8_put32(dlo, dhi, k, lo, hi, m8);                            \
	}
#define V8I_RUN(...)                                                           \
	if (exec == ~0ull)                                                    \
		V8I_LOOP(1, __VA_ARGS__)                                      \
	else                                                                  \
		V8I_LOOP(0, __VA_ARGS__)                                      \
	return ISA_STEP_NEXT;

/* shifts: the amount S0 (32-bit, low 6 bits), the value S1 (64-bit) */
#define V8_SHIFT_DECL                                                          \
	uint64_t exec = isa_exec(w);                                          \
	uint32_t *dlo = isa_vrow(w, in->dst), *dhi = isa_vrow(w, in->dst + 1u); \
	uint32_t nbuf[ISA_LANES], vbuf[2 * ISA_LANES];                        \
	const uint32_t *nrow = v8_row32(w, &in->src[0], nbuf);                \
	struct v8_src s1;                                                     \
	v8_src_init(w, &in->src[1], &s1, vbuf);
#define V8_SHIFT_LOAD                                                          \
	isa_u32x8 n = v8_ld(nrow, k) & 63, bl = v8_ld(s1.lo, k), bh = v8_ld(s1.hi, k); \
	isa_u32x8 n32 = (isa_u32x8){ 0 } + 32;

V64_TARGET static int v64_lshlrev(struct isa_wave *w, const struct isa_inst *in)
{
	V8_SHIFT_DECL
	V8I_RUN(V8_SHIFT_LOAD
		lo = v8_sll(bl, n);
		hi = v8_sll(bh, n) | v8_srl(bl, n32 - n) | v8_sll(bl, n - n32);)
}
V64_TARGET static int v64_lshrrev(struct isa_wave *w, const struct isa_inst *in)
{
	V8_SHIFT_DECL
	V8I_RUN(V8_SHIFT_LOAD
		hi = v8_srl(bh, n);
		lo = v8_srl(bl, n) | v8_sll(bh, n32 - n) | v8_srl(bh, n - n32);)
}
V64_TARGET static int v64_ashrrev(struct isa_wave *w, const struct isa_inst *in)
{
	V8_SHIFT_DECL
	V8I_RUN(V8_SHIFT_LOAD
		isa_u32x8 small = (isa_u32x8)(n < n32);
		hi = v8_sra(bh, n);
		lo = ((v8_srl(bl, n) | v8_sll(bh, n32 - n)) & small) |
		     (v8_sra(bh, n - n32) & ~small);)
}
V64_TARGET static int v64_mov(struct isa_wave *w, const struct isa_inst *in)
{
	uint64_t exec = isa_exec(w);
	uint32_t *dlo = isa_vrow(w, in->dst), *dhi = isa_vrow(w, in->dst + 1u);
	uint32_t buf[2 * ISA_LANES];
	struct v8_src s0;

	v8_src_init(w, &in->src[0], &s0, buf);
	V8I_RUN(lo = v8_ld(s0.lo, k); hi = v8_ld(s0.hi, k);)
}
/* v_lshl_add_u64 (gfx942): D = (S0 << S1[2:0]) + S2; the shift's top
 * bits of the low dword go into the high one ((x >> 1) >> (31 - n): no
 * count of 32 for n = 0), the add's carry out of the low dword is the
 * unsigned compare of the sum with an addend (all ones: subtracted). */
V64_TARGET static int v64_lshl_add(struct isa_wave *w, const struct isa_inst *in)
{
	uint64_t exec = isa_exec(w);
	uint32_t *dlo = isa_vrow(w, in->dst), *dhi = isa_vrow(w, in->dst + 1u);
	uint32_t buf0[2 * ISA_LANES], buf2[2 * ISA_LANES], nbuf[ISA_LANES];
	const uint32_t *nrow;
	struct v8_src s0, s2;

	v8_src_init(w, &in->src[2], &s2, buf2);
	if (in->src[1].kind != ISA_OPND_VGPR) {
		/* the compilers' forms: a constant shift (0 for a base plus
		 * an offset, 3 for a double's index), S0 an SGPR base or a
		 * VGPR pair */
		const struct isa_opnd *o1 = &in->src[1];
		unsigned n = (o1->kind == ISA_OPND_CONST ? (uint32_t)o1->imm : isa_sread32(w, o1)) & 7;
		if (in->src[0].kind != ISA_OPND_VGPR) {
			uint64_t a = isa_sread64(w, &in->src[0]) << n;
			isa_u32x8 sl = (isa_u32x8){ 0 } + (uint32_t)a;
			isa_u32x8 sh = (isa_u32x8){ 0 } + (uint32_t)(a >> 32);
			V8I_RUN(lo = sl + v8_ld(s2.lo, k);
				hi = sh + v8_ld(s2.hi, k) - (isa_u32x8)(lo < sl);)
		}
		v8_src_init(w, &in->src[0], &s0, buf0);
		V8I_RUN(isa_u32x8 al = v8_ld(s0.lo, k), ah = v8_ld(s0.hi, k);
			isa_u32x8 sl = al << n, sh = (ah << n) | ((al >> 1) >> (31 - n));
			lo = sl + v8_ld(s2.lo, k);
			hi = sh + v8_ld(s2.hi, k) - (isa_u32x8)(lo < sl);)
	}
	nrow = v8_row32(w, &in->src[1], nbuf);
	v8_src_init(w, &in->src[0], &s0, buf0);
	V8I_RUN(isa_u32x8 n = v8_ld(nrow, k) & 7, al = v8_ld(s0.lo, k), ah = v8_ld(s0.hi, k);
		isa_u32x8 sl = al << n, sh = (ah << n) | ((al >> 1) >> (31 - n));
		lo = sl + v8_ld(s2.lo, k);
		hi = sh + v8_ld(s2.hi, k) - (isa_u32x8)(lo < sl);)
}

/* v_cvt_f64_i32 / v_cvt_f64_u32 (isa_exec_vcvt's "i32/u32 -> f64"): exact
 * conversions (no rounding, no NaN, no denormal, no modifier: the general
 * executor applies none either).  The eight dwords are put in v8_get's
 * lane order first (one vpermq), so the results store as the f64 ops'. */
V64_INLINE void v64_cvt_lanes(struct isa_wave *w, const struct isa_inst *in, bool is_signed)
{
	uint64_t exec = isa_exec(w);
	uint32_t *dlo = isa_vrow(w, in->dst), *dhi = isa_vrow(w, in->dst + 1u), buf[ISA_LANES];
	const struct isa_opnd *o = &in->src[0];
	const uint32_t *row;
	const __m256i magic = _mm256_set1_epi64x(0x4330000000000000ll);        /* 2^52 */
	const __m256d two52 = _mm256_set1_pd(4503599627370496.0);

	if (o->kind != ISA_OPND_VGPR) {
		/* a scalar or a constant (a loop counter, dloop's k), read as
		 * v8_row32 reads it: one conversion, the same exact value,
		 * stored into every lane */
		uint32_t x = o->kind == ISA_OPND_CONST ? (uint32_t)o->imm : isa_sread32(w, o);
		double d = is_signed ? (double)(int32_t)x : (double)x;
		uint64_t b;
		memcpy(&b, &d, sizeof(b));
		for (unsigned k = 0; k < ISA_LANES / 8; k++) {
			uint32_t m8 = (uint32_t)(exec >> (8 * k)) & 0xff;
			if (m8)
				v8_put32(dlo, dhi, k, (isa_u32x8){ 0 } + (uint32_t)b,
					 (isa_u32x8){ 0 } + (uint32_t)(b >> 32), m8);
		}
		return;
	}
	row = v8_row32(w, o, buf);
	for (unsigned k = 0; k < ISA_LANES / 8; k++) {
		uint32_t m8 = (uint32_t)(exec >> (8 * k)) & 0xff;
		__m256i x = _mm256_permute4x64_epi64((__m256i)v8_ld(row, k), 0xd8);
		__m128i x0 = _mm256_castsi256_si128(x), x1 = _mm256_extracti128_si256(x, 1);
		__m256d r0, r1;
		if (!m8)
			continue;
		if (is_signed) {
			r0 = _mm256_cvtepi32_pd(x0);
			r1 = _mm256_cvtepi32_pd(x1);
		} else {        /* 2^52 + x, exact below 2^52, minus 2^52 */
			r0 = _mm256_sub_pd((__m256d)(_mm256_cvtepu32_epi64(x0) | magic), two52);
			r1 = _mm256_sub_pd((__m256d)(_mm256_cvtepu32_epi64(x1) | magic), two52);
		}
		v8_put(dlo, dhi, k, (v64_u64x4)r0, (v64_u64x4)r1, m8);
	}
}

V64_TARGET static int v64_cvt_i32(struct isa_wave *w, const struct isa_inst *in)
{
	v64_cvt_lanes(w, in, true);
	return ISA_STEP_NEXT;
}

V64_TARGET static int v64_cvt_u32(struct isa_wave *w, const struct isa_inst *in)
{
	v64_cvt_lanes(w, in, false);
	return ISA_STEP_NEXT;
}

/* ---- f64 compares: v_cmp(x)_*_f64 (VOPC 0x60-0x7f, their VOP3 forms)
 * and v_cmp(x)_class_f64 (0x12, 0x13), as exec_vcmp: SDST = the lanes of
 * EXEC where the compare holds, the cmpx forms also EXEC.  The host's
 * ordered/unordered predicates are fcmp's (LG is ordered not-equal, the
 * N* forms are true on a NaN); with a MODE that flushes f64 input
 * denormals the general executor (it flushes before comparing).  The
 * lanes of v8_get's two vectors are 0, 1, 4, 5 and 2, 3, 6, 7: their
 * sign masks interleave back into EXEC's byte. ---- */
V64_INLINE uint32_t v8_bits(__m256d r0, __m256d r1)
{
	uint32_t m0 = (uint32_t)_mm256_movemask_pd(r0), m1 = (uint32_t)_mm256_movemask_pd(r1);

	return (m0 & 3) | (m1 & 3) << 2 | (m0 & 12) << 2 | (m1 & 12) << 4;
}

V64_INLINE int v64_cmp_done(struct isa_wave *w, const struct isa_inst *in, uint64_t mask)
{
	mask &= isa_exec(w);
	isa_swrite64(w, in->sdst, mask);
	if (in->op <= 0x13 ? in->op & 1 : in->op >= 0x70)  /* the cmpx forms */
		isa_set_exec(w, mask);
	return ISA_STEP_NEXT;
}

#define V64_CMP_FN(NAME, PRED)                                                 \
	V64_TARGET static int v64_cmp_##NAME(struct isa_wave *w, const struct isa_inst *in) \
	{                                                                     \
		struct v8_src s0, s1;                                         \
		uint32_t sbuf[2][2 * ISA_LANES];                              \
		uint64_t mask = 0;                                            \
		if (!(isa_denorm64(w) & 1))                                   \
			return isa_exec_vcmp(w, in);                          \
		v8_src_init(w, &in->src[0], &s0, sbuf[0]);                    \
		v8_src_init(w, &in->src[1], &s1, sbuf[1]);                    \
		for (unsigned k = 0; k < ISA_LANES / 8; k++) {                \
			v64_u64x4 a0, a1, b0, b1;                             \
			v8_get(&s0, k, &a0, &a1);                             \
			v8_get(&s1, k, &b0, &b1);                             \
			mask |= (uint64_t)v8_bits(_mm256_cmp_pd((__m256d)a0, (__m256d)b0, PRED), \
						  _mm256_cmp_pd((__m256d)a1, (__m256d)b1, PRED)) \
				<< (8 * k);                                   \
		}                                                             \
		return v64_cmp_done(w, in, mask);                             \
	}

V64_CMP_FN(lt, _CMP_LT_OQ)
V64_CMP_FN(eq, _CMP_EQ_OQ)
V64_CMP_FN(le, _CMP_LE_OQ)
V64_CMP_FN(gt, _CMP_GT_OQ)
V64_CMP_FN(lg, _CMP_NEQ_OQ)
V64_CMP_FN(ge, _CMP_GE_OQ)
V64_CMP_FN(o, _CMP_ORD_Q)
V64_CMP_FN(u, _CMP_UNORD_Q)
V64_CMP_FN(nge, _CMP_NGE_UQ)
V64_CMP_FN(nlg, _CMP_EQ_UQ)
V64_CMP_FN(ngt, _CMP_NGT_UQ)
V64_CMP_FN(nle, _CMP_NLE_UQ)
V64_CMP_FN(neq, _CMP_NEQ_UQ)
V64_CMP_FN(nlt, _CMP_NLT_UQ)

static const isa_exec_fn v64_cmp_fns[16] = {
	NULL, v64_cmp_lt, v64_cmp_eq, v64_cmp_le, v64_cmp_gt, v64_cmp_lg, v64_cmp_ge, v64_cmp_o,
	v64_cmp_u, v64_cmp_nge, v64_cmp_nlg, v64_cmp_ngt, v64_cmp_nle, v64_cmp_neq, v64_cmp_nlt,
	NULL,
};

/* v_cmp_class_f64: S1's bit for S0's class (exec_vcmp's class64: 0 sNaN,
 * 1 qNaN, 2 -inf, 3 -normal, 4 -denorm, 5 -0, 6 +0, 7 +denorm, 8 +normal,
 * 9 +inf), from the raw high and low dwords in 32-bit lanes (no flush:
 * the general executor does not flush for class either). */
V64_TARGET static int v64_cmp_class(struct isa_wave *w, const struct isa_inst *in)
{
	struct v8_src s0;
	uint32_t sbuf[2 * ISA_LANES], bbuf[ISA_LANES];
	const uint32_t *brow = v8_row32(w, &in->src[1], bbuf);
	uint64_t mask = 0;

	v8_src_init(w, &in->src[0], &s0, sbuf);
	for (unsigned k = 0; k < ISA_LANES / 8; k++) {
		isa_u32x8 hi = (v8_ld(s0.hi, k) & s0.andm) ^ s0.xorm, lo = v8_ld(s0.lo, k);
		/* all-ones lanes: negative, a non-zero fraction, exponent
		 * all ones, exponent zero; quiet: bit 51 (0 or 1) */
		isa_i32x8 neg = (isa_i32x8)hi >> 31, man = (isa_i32x8)(((hi & 0xfffff) | lo) != 0);
		isa_i32x8 e = (isa_i32x8)((hi >> 20) & 0x7ff), quiet = (isa_i32x8)((hi >> 19) & 1);
		isa_i32x8 spec = e == 0x7ff, zexp = e == 0;
		isa_i32x8 c_spec = (man & quiet) | (~man & ((neg & 2) | (~neg & 9)));
		isa_i32x8 c_zero = (man & ((neg & 4) | (~neg & 7))) | (~man & ((neg & 5) | (~neg & 6)));
		isa_i32x8 c_norm = (neg & 3) | (~neg & 8);
		isa_i32x8 c = (spec & c_spec) | (zexp & c_zero) | (~spec & ~zexp & c_norm);
		isa_u32x8 t = (v8_ld(brow, k) >> (isa_u32x8)c) << 31;
		mask |= (uint64_t)(uint32_t)_mm256_movemask_ps((__m256)t) << (8 * k);
	}
	return v64_cmp_done(w, in, mask);
}

static const struct {
	uint16_t op;
	uint8_t nsrc;
	isa_exec_fn fn;
} v64_table[] = {
	{ 0x280, 2, v64_add },          /* v_add_f64 */
	{ 0x281, 2, v64_mul },          /* v_mul_f64 */
	{ 0x1cc, 3, v64_fma },          /* v_fma_f64 */
	{ 0x104, 3, v64_fma },          /* v_fmac_f64 (D in src[2]) */
	{ 0x165, 1, v64_rcp },          /* v_rcp_f64 */
	{ 0x166, 1, v64_rsq },          /* v_rsq_f64 */
	{ 0x168, 1, v64_sqrt },         /* v_sqrt_f64 */
	{ 0x1df, 3, v64_div_fixup },    /* v_div_fixup_f64 */
	{ 0x1e3, 3, v64_div_fmas },     /* v_div_fmas_f64 */
	{ 0x1e1, 3, v64_div_scale },    /* v_div_scale_f64 */
	{ 0x284, 2, v64_ldexp },        /* v_ldexp_f64 (S1 an integer) */
	{ 0x28f, 2, v64_lshlrev },      /* v_lshlrev_b64 */
	{ 0x290, 2, v64_lshrrev },      /* v_lshrrev_b64 */
	{ 0x291, 2, v64_ashrrev },      /* v_ashrrev_i64 */
	{ 0x178, 1, v64_mov },          /* v_mov_b64 (gfx942) */
	{ 0x208, 3, v64_lshl_add },     /* v_lshl_add_u64 (gfx942) */
	{ 0x144, 1, v64_cvt_i32 },      /* v_cvt_f64_i32 */
	{ 0x156, 1, v64_cvt_u32 },      /* v_cvt_f64_u32 */
};

bool isa_vfast64_pick(struct isa_inst *in)
{
	unsigned i;

	if (!in || !__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma"))
		return false;
	if ((in->op >= 0x60 && in->op <= 0x7f) || in->op == 0x12 || in->op == 0x13) {
		/* compares (the caller's executor is exec_vcmp) */
		isa_exec_fn fn = in->op <= 0x13 ? v64_cmp_class : v64_cmp_fns[in->op & 0xf];
		if (!fn || in->clamp || in->omod || in->opsel || in->sdwa ||
		    in->src[2].kind != ISA_OPND_NONE)
			return false;
		for (unsigned s = 0; s < 2; s++) {
			uint8_t k = in->src[s].kind;
			if (k != ISA_OPND_VGPR && k != ISA_OPND_SREG && k != ISA_OPND_CONST)
				return false;
		}
		in->exec = fn;
		return true;
	}
	for (i = 0; i < sizeof(v64_table) / sizeof(v64_table[0]); i++)
		if (v64_table[i].op == in->op)
			break;
	if (i == sizeof(v64_table) / sizeof(v64_table[0]))
		return false;
	if (in->clamp || in->omod || in->opsel || in->sdwa)
		return false;
	for (unsigned s = 0; s < v64_table[i].nsrc; s++) {
		uint8_t k = in->src[s].kind;
		if (k != ISA_OPND_VGPR && k != ISA_OPND_SREG && k != ISA_OPND_CONST)
			return false;
		/* the integer operations' general executor ignores
		 * modifiers, which the f64 loads here would apply */
		if ((in->op >= 0x28f && in->op <= 0x291) || in->op == 0x178 || in->op == 0x208 ||
		    in->op == 0x144 || in->op == 0x156)
			if (in->src[s].abs || in->src[s].neg)
				return false;
	}
	/* the general executor reads an absent source as src0; the fast
	 * executors never read one, so they need it absent as decoded */
	for (unsigned s = v64_table[i].nsrc; s < 3; s++)
		if (in->src[s].kind != ISA_OPND_NONE)
			return false;
	in->exec = v64_table[i].fn;
	return true;
}

/* ---- fused sequences: the compilers' f64 division and square-root
 * refinement as one superinstruction each ----
 *
 * Every f64 division LLVM emits is the same eleven instructions (its
 * AMDGPU fdiv64 lowering: v_div_scale x2, v_rcp, two Newton steps of
 * fma/fmac, mul, fma, v_div_fmas, v_div_fixup), and every gfx942
 * square root (clang-19) the same nine after its v_rsq_f64 (mul, mul,
 * then Goldschmidt/Newton steps of fma/fmac).  Run one by one, each
 * instruction interleaves its sources' rows into 64-bit lanes and splits
 * its result back; fused, the sequence loads its two inputs once per
 * eight lanes, keeps every intermediate in host registers, and stores
 * only the last value of each register pair it writes: about a third of
 * the work, and one call instead of eleven or nine.
 *
 * vs_match (at decode, from link_range through isa_vfast64_fuse) accepts
 * the sequence by its dataflow, not its registers: each instruction's
 * executor is the fast one of the expected operation, and each source
 * is the result of the expected earlier instruction (the last one in the
 * sequence writing that even-aligned VGPR pair), the expected input
 * (the same operand in every use, never written before that use), or the
 * expected constant, with exactly the expected neg modifier.  The fused
 * body then computes the same operations in the same order on the same
 * values, lane by lane; why the bits are those of the instructions run
 * one by one:
 *  - no lane the sequence stores ever holds a NaN or an infinity, so the
 *    NaN rule (v64_nanfix) changes nothing and the order in which the
 *    host picks among NaN operands (which depends on the form of each
 *    vfmadd the compiler chose) never matters.  The division's inputs
 *    are checked to be in the helpers' ordinary case in every active lane
 *    (the same v64_ordinary test its own fast executors make: finite
 *    normal numbers whose quotient is within 2^-1000..2^768), and from
 *    there every step is finite; the refinement's inputs x and y are
 *    checked to be finite and below 2^31 in magnitude, from which every
 *    step stays below 2^1002 (S < 2^62, H < 2^30, r < 2^93, S1 < 2^156,
 *    H1 < 2^124, d < 2^313, S2 < 2^438, d' < 2^877, S3 < 2^1002), and
 *    an infinity is the only way to make a NaN from non-NaN operands;
 *  - the division's helpers then take their ordinary case (v_div_scale:
 *    D = S0, VCC clear; v_div_fmas: an fma, VCC being clear; v_div_fixup:
 *    the sign and magnitude, its conditions implied by div_scale's)
 *    exactly where their own fast executors do: the two inputs, the
 *    denominator and the numerator, are the S1 and S2 of all three;
 *  - lanes are independent and each group reads its inputs before it
 *    stores anything, so a result written over an input's pair (LLVM puts
 *    the quotient in the denominator's) does not disturb the other lanes;
 *  - the scalar writes (v_div_scale's SDST, the second one's VCC) happen
 *    at the end, which is the same because nothing in the sequence reads
 *    them (an SGPR input overlapping one is refused) but v_div_fmas's
 *    VCC, known to be zero there.
 * Anywhere else (MODE flushing f64 denormals, an active lane outside
 * those ranges) the instructions run one by one through their own
 * executors, which hand over to the general ones as before.  The wave
 * loop counts the span and runs the first instruction alone when a stop
 * point falls inside (the next one is then not fused). */
#define VS_MAX 11
enum { VS_IN0 = 16, VS_IN1, VS_ONE, VS_HALF };

struct vs_step {
	isa_exec_fn fn;
	uint8_t nsrc;
	uint8_t src[3];         /* an earlier step, VS_IN0/1, or a constant */
	uint8_t neg;            /* bit s: source s negated */
};

/* S2 / S1 as LLVM divides f64: IN0 the denominator, IN1 the numerator. */
static const struct vs_step vs_div[] = {
	{ v64_div_scale, 3, { VS_IN0, VS_IN0, VS_IN1 }, 0 },    /* 0 A */
	{ v64_rcp, 1, { 0 }, 0 },                               /* 1 R0 = 1 / A */
	{ v64_div_scale, 3, { VS_IN1, VS_IN0, VS_IN1 }, 0 },    /* 2 B, VCC */
	{ v64_fma, 3, { 0, 1, VS_ONE }, 1 },                    /* 3 -A * R0 + 1 */
	{ v64_fma, 3, { 1, 3, 1 }, 0 },                         /* 4 R1 */
	{ v64_fma, 3, { 0, 4, VS_ONE }, 1 },                    /* 5 */
	{ v64_fma, 3, { 4, 5, 4 }, 0 },                         /* 6 R2 */
	{ v64_mul, 2, { 2, 6 }, 0 },                            /* 7 Q = B * R2 */
	{ v64_fma, 3, { 0, 7, 2 }, 1 },                         /* 8 E = -A * Q + B */
	{ v64_div_fmas, 3, { 8, 6, 7 }, 0 },                    /* 9 E * R2 + Q */
	{ v64_div_fixup, 3, { 9, VS_IN0, VS_IN1 }, 0 },         /* 10 the quotient */
};

/* sqrt(x) on gfx942 after y = rsq(x) (and its scaling): IN0 x, IN1 y. */
static const struct vs_step vs_sqrt[] = {
	{ v64_mul, 2, { VS_IN0, VS_IN1 }, 0 },                  /* 0 S = x * y */
	{ v64_mul, 2, { VS_IN1, VS_HALF }, 0 },                 /* 1 H = y * 0.5 */
	{ v64_fma, 3, { 1, 0, VS_HALF }, 1 },                   /* 2 r = -H * S + 0.5 */
	{ v64_fma, 3, { 0, 2, 0 }, 0 },                         /* 3 S1 */
	{ v64_fma, 3, { 1, 2, 1 }, 0 },                         /* 4 H1 */
	{ v64_fma, 3, { 3, 3, VS_IN0 }, 1 },                    /* 5 d = -S1 * S1 + x */
	{ v64_fma, 3, { 5, 4, 3 }, 0 },                         /* 6 S2 */
	{ v64_fma, 3, { 6, 6, VS_IN0 }, 1 },                    /* 7 */
	{ v64_fma, 3, { 7, 4, 6 }, 0 },                         /* 8 S3 */
};

static bool vs_same_opnd(const struct isa_opnd *a, const struct isa_opnd *b)
{
	return a->kind == b->kind && a->reg == b->reg &&
	       (a->kind != ISA_OPND_CONST || a->imm == b->imm);
}

static bool vs_sreg_overlap(const struct isa_opnd *o, unsigned code)
{
	return o->kind == ISA_OPND_SREG && o->reg + 1u >= code && o->reg <= code + 1u;
}

/* Whether insts[i] and the n - 1 after it in fall-through order are
 * spec's sequence (above); *fall the index past it. */
static bool vs_match(const struct isa_inst *insts, uint32_t i, uint32_t sentinel,
		     const struct vs_step *spec, unsigned n, uint32_t *fall)
{
	static const uint64_t konst[2] = { 0x3ff0000000000000ull, 0x3fe0000000000000ull };
	struct isa_opnd input[2];
	bool bound[2] = { false, false };
	uint16_t dst[VS_MAX], sdst[2];
	unsigned nsdst = 0;

	for (unsigned s = 0; s < n; s++) {
		const struct isa_inst *p;
		if (i == sentinel)
			return false;
		p = &insts[i];
		if (p->exec != spec[s].fn || (p->dst & 1))
			return false;
		for (unsigned k = 0; k < spec[s].nsrc; k++) {
			const struct isa_opnd *o = &p->src[k];
			unsigned role = spec[s].src[k];
			int prod = -1;
			if (o->abs || o->neg != ((spec[s].neg >> k) & 1))
				return false;
			if (o->kind == ISA_OPND_VGPR) {
				if (o->reg & 1)
					return false;
				for (unsigned t = s; t-- > 0;)
					if (dst[t] == o->reg) {
						prod = (int)t;
						break;
					}
			}
			if (role < VS_IN0) {
				if (prod != (int)role)
					return false;
			} else if (role >= VS_ONE) {
				if (o->kind != ISA_OPND_CONST || o->imm != konst[role - VS_ONE])
					return false;
			} else {
				unsigned j = role - VS_IN0;
				if (prod >= 0 || (o->kind != ISA_OPND_VGPR && o->kind != ISA_OPND_SREG &&
						  o->kind != ISA_OPND_CONST))
					return false;
				if (!bound[j]) {
					input[j] = *o;
					bound[j] = true;
				} else if (!vs_same_opnd(&input[j], o)) {
					return false;
				}
			}
		}
		if (p->exec == v64_div_scale) {
			/* an SGPR pair or VCC; the second one VCC (v_div_fmas
			 * reads it) */
			unsigned d = p->sdst;
			if ((d & 1) || !(d + 1 < ISA_SGPR_MAX || d == ISA_REG_VCC_LO) ||
			    (nsdst == 1 && d != ISA_REG_VCC_LO) || nsdst == 2)
				return false;
			sdst[nsdst++] = (uint16_t)d;
		}
		dst[s] = p->dst;
		i = p->next;
	}
	for (unsigned j = 0; j < 2; j++)
		for (unsigned t = 0; t < nsdst; t++)
			if (bound[j] && vs_sreg_overlap(&input[j], sdst[t]))
				return false;
	*fall = i;
	return true;
}

/* The steps of a matched sequence at run time: each one's instruction and
 * destination rows, and which of them leave the last value in their pair
 * (fin: the ones stored). */
struct vs_run {
	const struct isa_inst *st[VS_MAX];
	uint32_t *lo[VS_MAX], *hi[VS_MAX];
	uint32_t fin;
};

V64_INLINE void vs_collect(struct isa_wave *w, const struct isa_inst *in, unsigned n,
			   struct vs_run *r)
{
	const struct isa_inst *p = in;

	r->fin = 0;
	for (unsigned s = 0; s < n; s++) {
		r->st[s] = p;
		r->lo[s] = isa_vrow(w, p->dst);
		r->hi[s] = isa_vrow(w, p->dst + 1u);
		if (s + 1 < n)
			p = &w->insts[p->next];
	}
	for (unsigned s = 0; s < n; s++) {
		bool last = true;
		for (unsigned t = s + 1; t < n; t++)
			last &= r->st[t]->dst != r->st[s]->dst;
		r->fin |= (uint32_t)last << s;
	}
}

/* The sequence one instruction at a time, through each one's executor. */
static int vs_each(struct isa_wave *w, const struct vs_run *r, unsigned n)
{
	for (unsigned s = 0; s < n; s++) {
		int rc;
		w->pc = r->st[s]->next;
		rc = r->st[s]->exec(w, r->st[s]);
		if (rc)
			return rc;
	}
	return ISA_STEP_NEXT;
}

#define VS_FMA(a, b, c) ((v64_u64x4)_mm256_fmadd_pd((__m256d)(a), (__m256d)(b), (__m256d)(c)))

/* The division on four lanes: v[s] the result of step s. */
#define VS_DIV_BODY(den, num, v)                                               \
	do {                                                                   \
		const v64_u64x4 one = (v64_u64x4){ 0 } + 0x3ff0000000000000ull; \
		v64_u64x4 na;                                                  \
		v[0] = den;                                                    \
		v[1] = (v64_u64x4)(1.0 / (v64_f64x4)v[0]);                     \
		v[2] = num;                                                    \
		na = v[0] ^ V64_SIGN;                                          \
		v[3] = VS_FMA(na, v[1], one);                                  \
		v[4] = VS_FMA(v[1], v[3], v[1]);                               \
		v[5] = VS_FMA(na, v[4], one);                                  \
		v[6] = VS_FMA(v[4], v[5], v[4]);                               \
		v[7] = (v64_u64x4)((v64_f64x4)v[2] * (v64_f64x4)v[6]);         \
		v[8] = VS_FMA(na, v[7], v[2]);                                 \
		v[9] = VS_FMA(v[8], v[6], v[7]);                               \
		v[10] = ((den ^ num) & V64_SIGN) | (v[9] & ~V64_SIGN);         \
	} while (0)

/* The square-root refinement on four lanes. */
#define VS_SQRT_BODY(x, y, v)                                                  \
	do {                                                                   \
		const v64_u64x4 half = (v64_u64x4){ 0 } + 0x3fe0000000000000ull; \
		v64_u64x4 na;                                                  \
		v[0] = (v64_u64x4)((v64_f64x4)x * (v64_f64x4)y);               \
		v[1] = (v64_u64x4)((v64_f64x4)y * (v64_f64x4)half);            \
		na = v[1] ^ V64_SIGN;                                          \
		v[2] = VS_FMA(na, v[0], half);                                 \
		v[3] = VS_FMA(v[0], v[2], v[0]);                               \
		v[4] = VS_FMA(v[1], v[2], v[1]);                               \
		na = v[3] ^ V64_SIGN;                                          \
		v[5] = VS_FMA(na, v[3], x);                                    \
		v[6] = VS_FMA(v[5], v[4], v[3]);                               \
		na = v[6] ^ V64_SIGN;                                          \
		v[7] = VS_FMA(na, v[6], x);                                    \
		v[8] = VS_FMA(v[7], v[4], v[6]);                               \
	} while (0)

/* The group loop: BODY over lanes [8k, 8k + 8) of inputs s0, s1 (their
 * two halves), then the final value of every pair stored under EXEC. */
#define VS_LOOP(N, BODY, FULL)                                                 \
	for (unsigned k = 0; k < ISA_LANES / 8; k++) {                         \
		uint32_t m8 = FULL ? 0xff : (uint32_t)(exec >> (8 * k)) & 0xff; \
		v64_u64x4 a0, a1, b0, b1, v0[N], v1[N];                        \
		if (!m8)                                                       \
			continue;                                              \
		v8_getm(&s0, k, &a0, &a1, false);                              \
		v8_getm(&s1, k, &b0, &b1, false);                              \
		BODY(a0, b0, v0);                                              \
		BODY(a1, b1, v1);                                              \
		for (unsigned s = 0; s < N; s++)                               \
			if (r.fin >> s & 1)                                    \
				v8_put(r.lo[s], r.hi[s], k, v0[s], v1[s], m8); \
	}

/* Whether every active lane of x and y is finite and below 2^31 in
 * magnitude (biased exponent <= 1053): the refinement's range. */
V64_INLINE bool vs_tame(uint64_t exec, const struct v8_src *x, const struct v8_src *y)
{
	isa_u32x8 bad = { 0 };

	for (unsigned k = 0; k < ISA_LANES / 8; k++) {
		uint32_t m8 = (uint32_t)(exec >> (8 * k)) & 0xff;
		isa_u32x8 b;
		if (!m8)
			continue;
		b = (isa_u32x8)(((v8_ld(x->hi, k) >> 20) & 0x7ff) > 1053) |
		    (isa_u32x8)(((v8_ld(y->hi, k) >> 20) & 0x7ff) > 1053);
		bad |= b & (isa_u32x8)v64_on8(m8);
	}
	return !isa_any32x8(&bad);
}

V64_TARGET static int v64_fused_div(struct isa_wave *w, const struct isa_inst *in)
{
	struct vs_run r;
	struct v8_src s0, s1;
	uint32_t buf[2][2 * ISA_LANES];
	uint64_t exec = isa_exec(w);

	vs_collect(w, in, 11, &r);
	if (isa_denorm64(w) != 3)
		return vs_each(w, &r, 11);
	/* the denominator (S1 of the first v_div_scale), the numerator (S2) */
	v8_src_init(w, &in->src[1], &s0, buf[0]);
	v8_src_init(w, &in->src[2], &s1, buf[1]);
	if (!v64_ordinary(exec, &s0, &s1, true))
		return vs_each(w, &r, 11);
	if (exec == ~0ull)
		VS_LOOP(11, VS_DIV_BODY, 1)
	else
		VS_LOOP(11, VS_DIV_BODY, 0)
	isa_swrite64(w, r.st[0]->sdst, 0);
	isa_swrite64(w, r.st[2]->sdst, 0);
	w->pc = r.st[10]->next;
	return ISA_STEP_NEXT;
}

V64_TARGET static int v64_fused_sqrt(struct isa_wave *w, const struct isa_inst *in)
{
	struct vs_run r;
	struct v8_src s0, s1;
	uint32_t buf[2][2 * ISA_LANES];
	uint64_t exec = isa_exec(w);

	vs_collect(w, in, 9, &r);
	if (isa_denorm64(w) != 3)
		return vs_each(w, &r, 9);
	v8_src_init(w, &in->src[0], &s0, buf[0]);       /* x */
	v8_src_init(w, &in->src[1], &s1, buf[1]);       /* y */
	if (!vs_tame(exec, &s0, &s1))
		return vs_each(w, &r, 9);
	if (exec == ~0ull)
		VS_LOOP(9, VS_SQRT_BODY, 1)
	else
		VS_LOOP(9, VS_SQRT_BODY, 0)
	w->pc = r.st[8]->next;
	return ISA_STEP_NEXT;
}

isa_exec_fn isa_vfast64_fuse(const struct isa_inst *insts, uint32_t i, uint32_t sentinel,
			     unsigned *span, uint32_t *fall)
{
	if (!insts || !span || !fall || i >= sentinel)
		return NULL;
	if (vs_match(insts, i, sentinel, vs_div, 11, fall)) {
		*span = 11;
		return v64_fused_div;
	}
	if (vs_match(insts, i, sentinel, vs_sqrt, 9, fall)) {
		*span = 9;
		return v64_fused_sqrt;
	}
	return NULL;
}

#else /* not GCC on x86-64: the general executors */

bool isa_vfast64_pick(struct isa_inst *in)
{
	(void)in;
	return false;
}

isa_exec_fn isa_vfast64_fuse(const struct isa_inst *insts, uint32_t i, uint32_t sentinel,
			     unsigned *span, uint32_t *fall)
{
	(void)insts;
	(void)i;
	(void)sentinel;
	(void)span;
	(void)fall;
	return NULL;
}

#endif
