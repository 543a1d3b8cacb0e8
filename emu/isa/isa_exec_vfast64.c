/*
 * isa_exec_vfast64.c — the VALU fast path for 64-bit lanes: the operations
 * of the compilers' double-precision arithmetic, division and square root
 * (v_add/mul/fma/fmac_f64, v_rcp/rsq/sqrt_f64, v_div_scale/fmas/fixup_f64,
 * v_ldexp_f64) and their 64-bit address arithmetic (v_lshlrev/lshrrev_b64,
 * v_ashrrev_i64, gfx942's v_mov_b64 and v_lshl_add_u64), computed four
 * lanes at a time in host vector registers, each lane's 64-bit value
 * assembled from its two rows as it is loaded and split back as it is
 * stored under EXEC.
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

typedef uint32_t v64_u32x4 __attribute__((vector_size(16), aligned(4)));
typedef uint64_t v64_u64x4 __attribute__((vector_size(32), aligned(8)));
typedef int64_t v64_i64x4 __attribute__((vector_size(32), aligned(8)));
typedef double v64_f64x4 __attribute__((vector_size(32), aligned(8)));

#define V64_SIGN 0x8000000000000000ull
#define V64_HOST_QNAN 0xfff8000000000000ull     /* x86's default NaN */

/* One source: its two rows, or its value (modifiers applied) for every
 * lane. */
struct v64_src {
	const uint32_t *lo, *hi;
	v64_u64x4 val, andm, xorm;
	bool uni;
};

V64_INLINE void v64_src_init(struct isa_wave *w, const struct isa_opnd *o, struct v64_src *s)
{
	uint64_t andm = o->abs ? ~V64_SIGN : ~0ull, xorm = o->neg ? V64_SIGN : 0;

	s->andm = (v64_u64x4){ 0 } + andm;
	s->xorm = (v64_u64x4){ 0 } + xorm;
	s->uni = o->kind != ISA_OPND_VGPR;
	if (s->uni) {
		s->lo = s->hi = NULL;
		s->val = (v64_u64x4){ 0 } + ((isa_sread64(w, o) & andm) ^ xorm);
	} else {
		s->lo = isa_vrow(w, o->reg);
		s->hi = isa_vrow(w, o->reg + 1u);
		s->val = (v64_u64x4){ 0 };
	}
}

/* Lanes [4q, 4q + 4) of a source: lo | hi << 32 (two vpmovzxdq),
 * modifiers applied. */
V64_INLINE v64_u64x4 v64_get(const struct v64_src *s, unsigned q)
{
	v64_u64x4 lo, hi;

	if (s->uni)
		return s->val;
	lo = (v64_u64x4)_mm256_cvtepu32_epi64(_mm_loadu_si128((const __m128i *)(s->lo + 4 * q)));
	hi = (v64_u64x4)_mm256_cvtepu32_epi64(_mm_loadu_si128((const __m128i *)(s->hi + 4 * q)));
	return ((lo | (hi << 32)) & s->andm) ^ s->xorm;
}

/* v64_get of a source known to be a VGPR pair. */
V64_INLINE v64_u64x4 v64_row(const struct v64_src *s, unsigned q)
{
	v64_u64x4 lo, hi;

	lo = (v64_u64x4)_mm256_cvtepu32_epi64(_mm_loadu_si128((const __m128i *)(s->lo + 4 * q)));
	hi = (v64_u64x4)_mm256_cvtepu32_epi64(_mm_loadu_si128((const __m128i *)(s->hi + 4 * q)));
	return ((lo | (hi << 32)) & s->andm) ^ s->xorm;
}

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

/* Stores lanes [4q, 4q + 4) of the result into the destination pair under
 * EXEC's four bits m4. */
V64_INLINE void v64_put(uint32_t *lo, uint32_t *hi, unsigned q, v64_u64x4 r, unsigned m4)
{
	/* the four low dwords, then the four high ones (one vpermd) */
	__m256i p = _mm256_permutevar8x32_epi32((__m256i)r, _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7));
	v64_u32x4 l = (v64_u32x4)_mm256_castsi256_si128(p);
	v64_u32x4 h = (v64_u32x4)_mm256_extracti128_si256(p, 1);
	v64_u32x4 *pl = (v64_u32x4 *)(lo + 4 * q), *ph = (v64_u32x4 *)(hi + 4 * q);

	if (m4 == 15) {
		*pl = l;
		*ph = h;
	} else {
		v64_u32x4 on = (v64_u32x4)((((v64_u32x4){ 0 } + m4) & (v64_u32x4){ 1, 2, 4, 8 }) != 0);
		*pl = (l & on) | (*pl & ~on);
		*ph = (h & on) | (*ph & ~on);
	}
}

/* The exponent field (bits 30:20 of the high dword) of lanes [8k, 8k+8)
 * of a source, as eight 32-bit lanes: the division helpers' checks. */
V64_INLINE isa_i32x8 v64_exp8(const struct v64_src *s, uint64_t uni_val, unsigned k)
{
	if (s->uni)
		return (isa_i32x8){ 0 } + (int32_t)((uni_val >> 52) & 0x7ff);
	return (isa_i32x8)((*(const isa_u32x8 *)(s->hi + 8 * k) >> 20) & 0x7ff);
}

/* Lanes of EXEC's byte m8 as all-ones 32-bit lanes. */
V64_INLINE isa_i32x8 v64_on8(uint32_t m8)
{
	return (isa_i32x8)((((isa_u32x8){ 0 } + m8) & (isa_u32x8){ 1, 2, 4, 8, 16, 32, 64, 128 }) != 0);
}

/* The operations.  EXPR computes r from a, b, c (v64_u64x4) and their
 * double views fa, fb, fc; NSRC says which sources exist (an absent one
 * compares as a for the NaN rule, as in isa_exec_vf64). */
/* The lane loop, with ROWS when every source is a VGPR pair and FULL
 * under the whole EXEC: the common case then has no per-lane-group tests
 * (the compiler drops the dead branches of each copy). */
#define V64_LOOP(NSRC, EXPR, ROWS, FULL)                                       \
	for (unsigned q = 0; q < ISA_LANES / 4; q++) {                        \
		unsigned m4 = FULL ? 15 : (unsigned)(exec >> (4 * q)) & 15;   \
		v64_u64x4 a, b, c, r;                                         \
		v64_f64x4 fa, fb, fc;                                         \
		if (!m4)                                                      \
			continue;                                             \
		a = ROWS ? v64_row(&s0, q) : v64_get(&s0, q);                 \
		b = NSRC < 2 ? a : ROWS ? v64_row(&s1, q) : v64_get(&s1, q);  \
		c = NSRC < 3 ? a : ROWS ? v64_row(&s2, q) : v64_get(&s2, q);  \
		fa = (v64_f64x4)a; fb = (v64_f64x4)b; fc = (v64_f64x4)c;      \
		(void)fa; (void)fb; (void)fc;                                 \
		r = (v64_u64x4)(EXPR);                                        \
		v64_put(dlo, dhi, q, v64_nanfix(r, a, b, c), m4);             \
	}

#define V64_BODY(NSRC, EXPR)                                                   \
	struct v64_src s0, s1, s2;                                            \
	uint64_t exec = isa_exec(w);                                          \
	uint32_t *dlo = isa_vrow(w, in->dst), *dhi = isa_vrow(w, in->dst + 1u); \
	bool rows;                                                            \
	v64_src_init(w, &in->src[0], &s0);                                    \
	if (NSRC >= 2)                                                        \
		v64_src_init(w, &in->src[1], &s1);                            \
	if (NSRC >= 3)                                                        \
		v64_src_init(w, &in->src[2], &s2);                            \
	rows = !s0.uni && (NSRC < 2 || !s1.uni) && (NSRC < 3 || !s2.uni);     \
	if (rows && exec == ~0ull)                                            \
		V64_LOOP(NSRC, EXPR, 1, 1)                                    \
	else                                                                  \
		V64_LOOP(NSRC, EXPR, 0, 0)                                    \
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
V64_INLINE bool v64_ordinary(const struct isa_wave *w, const struct isa_inst *in,
			     const struct v64_src *s1, const struct v64_src *s2, bool scale)
{
	uint64_t exec = isa_exec(w);
	uint64_t u1 = s1->uni ? s1->val[0] : 0, u2 = s2->uni ? s2->val[0] : 0;
	isa_i32x8 bad = { 0 };

	(void)in;
	for (unsigned k = 0; k < ISA_LANES / 8; k++) {
		uint32_t m8 = (uint32_t)(exec >> (8 * k)) & 0xff;
		isa_i32x8 e1, e2, d, b;
		if (!m8)
			continue;
		e1 = v64_exp8(s1, u1, k);
		e2 = v64_exp8(s2, u2, k);
		d = e2 - e1;
		if (scale)
			b = (e1 < 1) | (e1 >= 2045) | (e2 <= 53) | (e2 >= 2047) | (d >= 768) |
			    (d <= -1000);
		else
			b = (e1 < 1) | (e1 >= 2047) | (e2 < 1) | (e2 >= 2047) | (d < -1075);
		bad |= b & v64_on8(m8);
	}
	return !isa_any32x8((const isa_u32x8 *)&bad);
}

V64_TARGET static int v64_div_fixup(struct isa_wave *w, const struct isa_inst *in)
{
	struct v64_src t1, t2;

	if (isa_denorm64(w) != 3)
		return isa_exec_vf64(w, in);
	v64_src_init(w, &in->src[1], &t1);
	v64_src_init(w, &in->src[2], &t2);
	if (!v64_ordinary(w, in, &t1, &t2, false))
		return isa_exec_vf64(w, in);
	/* D = sign(S1 ^ S2) | |S0|: the quotient's sign from the operands */
	V64_BODY(3, ((b ^ c) & V64_SIGN) | (a & ~V64_SIGN))
}

/* v_div_scale_f64 in its ordinary case: D = S0 (no NaN rule: the
 * general executor copies it), VCC = 0 in the active lanes (SDST). */
V64_TARGET static int v64_div_scale(struct isa_wave *w, const struct isa_inst *in)
{
	struct v64_src s0, t1, t2;
	uint64_t exec = isa_exec(w);
	uint32_t *dlo = isa_vrow(w, in->dst), *dhi = isa_vrow(w, in->dst + 1u);

	v64_src_init(w, &in->src[1], &t1);
	v64_src_init(w, &in->src[2], &t2);
	if (!v64_ordinary(w, in, &t1, &t2, true))
		return isa_exec_div_scale(w, in);
	v64_src_init(w, &in->src[0], &s0);
	for (unsigned q = 0; q < ISA_LANES / 4; q++) {
		unsigned m4 = (unsigned)(exec >> (4 * q)) & 15;
		if (m4)
			v64_put(dlo, dhi, q, v64_get(&s0, q), m4);
	}
	isa_swrite64(w, in->sdst, 0);
	return ISA_STEP_NEXT;
}

/* v_ldexp_f64 (S1 a 32-bit integer) where every active lane stays a
 * normal number: the exponent field plus S1, exact, as ldexp() is there;
 * a zero S0 is returned as it is.  Any other lane (an infinity, a NaN, a
 * denormal in or out, an overflow) sends the instruction to the general
 * executor before anything is written: the results are computed into a
 * temporary first. */
V64_TARGET static int v64_ldexp(struct isa_wave *w, const struct isa_inst *in)
{
	const struct isa_opnd *o1 = &in->src[1];
	uint64_t exec = isa_exec(w), res[ISA_LANES];
	uint32_t *dlo = isa_vrow(w, in->dst), *dhi = isa_vrow(w, in->dst + 1u);
	const uint32_t *krow = o1->kind == ISA_OPND_VGPR ? isa_vrow(w, o1->reg) : NULL;
	v64_i64x4 kuni = (v64_i64x4){ 0 } + (int64_t)(int32_t)(krow ? 0 : isa_sread32(w, o1));
	const v64_i64x4 one = (v64_i64x4){ 0 } + 1, top = (v64_i64x4){ 0 } + 2046;
	v64_i64x4 bad = { 0 };
	struct v64_src s0;

	if (isa_denorm64(w) != 3)
		return isa_exec_vf64(w, in);
	v64_src_init(w, &in->src[0], &s0);
	for (unsigned q = 0; q < ISA_LANES / 4; q++) {
		unsigned m4 = (unsigned)(exec >> (4 * q)) & 15;
		v64_u64x4 a = v64_get(&s0, q);
		v64_i64x4 k = krow ? (v64_i64x4)_mm256_cvtepi32_epi64(
				     _mm_loadu_si128((const __m128i *)(krow + 4 * q))) : kuni;
		v64_i64x4 e = (v64_i64x4)((a >> 52) & 0x7ff), ne = e + k;
		v64_i64x4 zero = (v64_i64x4)((a & ~V64_SIGN) == 0);
		v64_i64x4 on = (v64_i64x4)((((v64_u64x4){ 0 } + m4) & (v64_u64x4){ 1, 2, 4, 8 }) != 0);
		bad |= ~zero & on & ((e < one) | (e > top) | (ne < one) | (ne > top));
		*(v64_u64x4 *)(res + 4 * q) = a + ((v64_u64x4)(k & ~zero) << 52);
	}
	if (!_mm256_testz_si256((__m256i)bad, (__m256i)bad))
		return isa_exec_vf64(w, in);
	for (unsigned q = 0; q < ISA_LANES / 4; q++) {
		unsigned m4 = (unsigned)(exec >> (4 * q)) & 15;
		if (m4)
			v64_put(dlo, dhi, q, *(const v64_u64x4 *)(res + 4 * q), m4);
	}
	return ISA_STEP_NEXT;
}

/* ---- 64-bit integer operations (exec_vb64): shifts, v_mov_b64 and
 * v_lshl_add_u64; no modifiers (the picker leaves any to exec_vb64,
 * which ignores them) and no NaN rule. ---- */

/* A 32-bit source widened to 64-bit lanes: its row, or its value. */
struct v32_src {
	const uint32_t *row;
	v64_u64x4 val;
};

V64_INLINE void v32_src_init(struct isa_wave *w, const struct isa_opnd *o, struct v32_src *s)
{
	s->row = o->kind == ISA_OPND_VGPR ? isa_vrow(w, o->reg) : NULL;
	s->val = (v64_u64x4){ 0 } + (uint64_t)(s->row ? 0 : o->kind == ISA_OPND_CONST
							   ? (uint32_t)o->imm : isa_sread32(w, o));
}

V64_INLINE v64_u64x4 v32_get(const struct v32_src *s, unsigned q)
{
	if (!s->row)
		return s->val;
	return (v64_u64x4)_mm256_cvtepu32_epi64(_mm_loadu_si128((const __m128i *)(s->row + 4 * q)));
}

/* D = EXPR over the lanes of EXEC; a, b, c as INIT/GET declare them. */
#define V64I_BODY(DECL, LOAD, EXPR)                                            	uint64_t exec = isa_exec(w);                                          	uint32_t *dlo = isa_vrow(w, in->dst), *dhi = isa_vrow(w, in->dst + 1u); 	DECL                                                                  	for (unsigned q = 0; q < ISA_LANES / 4; q++) {                        		unsigned m4 = (unsigned)(exec >> (4 * q)) & 15;               		if (!m4)                                                      			continue;                                             		LOAD                                                          		v64_put(dlo, dhi, q, (EXPR), m4);                             	}                                                                     	return ISA_STEP_NEXT;

/* shifts: the amount S0 (32-bit, low 6 bits), the value S1 (64-bit) */
#define V64_SHIFT_DECL                                                         	struct v32_src s0;                                                    	struct v64_src s1;                                                    	v32_src_init(w, &in->src[0], &s0);                                    	v64_src_init(w, &in->src[1], &s1);
#define V64_SHIFT_LOAD                                                         	v64_u64x4 a = v32_get(&s0, q) & 63, b = v64_get(&s1, q);

V64_TARGET static int v64_lshlrev(struct isa_wave *w, const struct isa_inst *in)
{
	V64I_BODY(V64_SHIFT_DECL, V64_SHIFT_LOAD, b << a)
}
V64_TARGET static int v64_lshrrev(struct isa_wave *w, const struct isa_inst *in)
{
	V64I_BODY(V64_SHIFT_DECL, V64_SHIFT_LOAD, b >> a)
}
V64_TARGET static int v64_ashrrev(struct isa_wave *w, const struct isa_inst *in)
{
	V64I_BODY(V64_SHIFT_DECL, V64_SHIFT_LOAD, (v64_u64x4)((v64_i64x4)b >> (v64_i64x4)a))
}
V64_TARGET static int v64_mov(struct isa_wave *w, const struct isa_inst *in)
{
	V64I_BODY(struct v64_src s0; v64_src_init(w, &in->src[0], &s0);,
		  v64_u64x4 a = v64_get(&s0, q);, a)
}
/* v_lshl_add_u64 (gfx942): D = (S0 << S1[2:0]) + S2 */
V64_TARGET static int v64_lshl_add(struct isa_wave *w, const struct isa_inst *in)
{
	V64I_BODY(struct v64_src s0; struct v32_src s1; struct v64_src s2;
		  v64_src_init(w, &in->src[0], &s0); v32_src_init(w, &in->src[1], &s1);
		  v64_src_init(w, &in->src[2], &s2);,
		  v64_u64x4 a = v64_get(&s0, q); v64_u64x4 b = v32_get(&s1, q) & 7;
		  v64_u64x4 c = v64_get(&s2, q);,
		  (a << b) + c)
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
};

bool isa_vfast64_pick(struct isa_inst *in)
{
	unsigned i;

	if (!in || !__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma"))
		return false;
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
		if ((in->op >= 0x28f && in->op <= 0x291) || in->op == 0x178 || in->op == 0x208)
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

#else /* not GCC on x86-64: the general executors */

bool isa_vfast64_pick(struct isa_inst *in)
{
	(void)in;
	return false;
}

#endif
