/*
 * isa_exec_vfast.c — the VALU fast path: the 32-bit integer operations
 * compilers emit most (and the 16-bit ones of exec_vb32), as executors specialised at decode per operation
 * and per operand kind (a VGPR row, or one value for every lane: an inline
 * constant, a literal or an SGPR), computed eight lanes at a time in host
 * vector registers straight from the source rows into the destination
 * row, under EXEC.
 *
 * The general executor (exec_vb32, isa_exec_valu.c) broadcasts every
 * non-VGPR source into a 64-lane temporary, computes the result into
 * another and merges that under EXEC: four passes over 64 lanes and a
 * switch.  Here a uniform source is one scalar read per instruction and
 * the result is merged as it is stored.  The bits are those of exec_vb32:
 * each fast executor is that executor's lane expression for its opcode
 * (isa_vfast_pick declines everything else: modifiers, clamp, DPP, SDWA,
 * scalar sources other than SGPRs and constants).  The same for the
 * carries and integer compares (exec_carry, exec_vcmp) and the unmodified
 * f32 add/sub/subrev/mul (isa_exec_vf32_fast) and v_cndmask_b32
 * (exec_cndmask, also with both sources uniform), in VF_SPECIAL, and f32
 * fma/fmac on a host with FMA (vf_fma_*).
 *
 * Adding an operation: a line in the VF_OPS table below with the VOP3
 * opcode, the number of sources and the lane expression over a, b and c
 * (vectors of 8 uint32_t; GCC vector extensions, so only operators that
 * act lane by lane on uint32_t) — the same expression exec_vb32 has for
 * that opcode.  isa_vfast_pick then selects it when every source is a
 * VGPR or one of them is uniform; other combinations (two uniform
 * sources, other scalar sources) keep the general executor.
 */
#include "isa_valu.h"

/* Eight lanes (isa_priv.h). */
typedef isa_u32x8 vf_u8x;
typedef isa_i32x8 vf_i8x;

/* x where the lanes of mask m are all ones, else y (C has no vector ?:). */
#define VF_SEL(m, x, y) ((x) & (vf_u8x)(m)) | ((y) & ~(vf_u8x)(m))

/* Stores the vector r into lanes [8k, 8k + 8) of row dst where the
 * group's EXEC bits m8 are set (the others keep their value): one store
 * when all eight are.  bit is VF_SOURCES' lane-bit vector. */
#define VF_STORE8(dst, k, m8, r)                                              \
	do {                                                                  \
		vf_u8x *d8_ = (vf_u8x *)((dst) + 8 * (k));                    \
		if ((m8) == 0xff) {                                           \
			*d8_ = (r);                                           \
		} else {                                                      \
			vf_u8x on_ = (vf_u8x)((((vf_u8x){ 0 } + (m8)) & bit) != 0); \
			*d8_ = ((r) & on_) | (*d8_ & ~on_);                   \
		}                                                             \
	} while (0)

/* Operand kinds of one source as specialised: a row or a uniform value. */
#define VF_ROW 0
#define VF_UNI 1

/* The value of a uniform source (the picker admits only these two kinds). */
static inline uint32_t vf_uniform(const struct isa_wave *w, const struct isa_opnd *o)
{
	return o->kind == ISA_OPND_CONST ? (uint32_t)o->imm : w->s[o->reg];
}

/* Source i for lanes [8k, 8k + 8): its row's lanes, or the broadcast. */
#define VF_SRC(i, K)                                                          \
	(kind##i == VF_ROW ? *(const vf_u8x *)(row##i + 8 * (K)) : uni##i)

/* One executor: dst = EXPR(a, b, c) over the lanes of EXEC.  A chunk of
 * eight lanes is read whole before it is written, so the destination may
 * be a source row (rows never overlap partly). */
#define VF_SOURCES                                                            \
	uint64_t exec = isa_exec(w);                                          \
	const uint32_t *row0 = isa_vrow(w, in->src[0].reg);                   \
	const uint32_t *row1 = isa_vrow(w, in->src[1].reg);                   \
	const uint32_t *row2 = isa_vrow(w, in->src[2].reg);                   \
	vf_u8x uni0 = (vf_u8x){ 0 } + (kind0 == VF_UNI ? vf_uniform(w, &in->src[0]) : 0); \
	vf_u8x uni1 = (vf_u8x){ 0 } + (kind1 == VF_UNI ? vf_uniform(w, &in->src[1]) : 0); \
	vf_u8x uni2 = (vf_u8x){ 0 } + (kind2 == VF_UNI ? vf_uniform(w, &in->src[2]) : 0); \
	const vf_u8x bit = { 1, 2, 4, 8, 16, 32, 64, 128 };                   \
	(void)row0; (void)row1; (void)row2; (void)uni0; (void)uni1; (void)uni2; \
	(void)bit;
#define VF_BODY(EXPR)                                                         \
	VF_SOURCES                                                            \
	uint32_t *dst = isa_vrow(w, in->dst);                                 \
	if (exec == ~0ull) {                                                  \
		for (unsigned k = 0; k < ISA_LANES / 8; k++) {                \
			vf_u8x a = VF_SRC(0, k), b = VF_SRC(1, k), c = VF_SRC(2, k); \
			(void)a; (void)b; (void)c;                            \
			*(vf_u8x *)(dst + 8 * k) = (EXPR);                    \
		}                                                             \
		return ISA_STEP_NEXT;                                         \
	}                                                                     \
	for (unsigned k = 0; k < ISA_LANES / 8; k++) {                        \
		uint32_t m8 = (uint32_t)(exec >> (8 * k)) & 0xff;             \
		vf_u8x a, b, c, r;                                            \
		if (!m8)                                                      \
			continue;                                             \
		a = VF_SRC(0, k); b = VF_SRC(1, k); c = VF_SRC(2, k);         \
		(void)a; (void)b; (void)c;                                    \
		r = (EXPR);                                                   \
		VF_STORE8(dst, k, m8, r);                                     \
	}                                                                     \
	return ISA_STEP_NEXT;

/* The low half of each lane, sign-extended (exec_vb32's (int16_t) cast). */
#define VF_SX16(x) (((vf_i8x)((x) << 16)) >> 16)
/* The high word of each lane's 64-bit product. */
typedef uint64_t vf_u64x8 __attribute__((vector_size(64)));
#define VF_MULHI(x, y)                                                        \
	__builtin_convertvector((__builtin_convertvector(x, vf_u64x8) *       \
				 __builtin_convertvector(y, vf_u64x8)) >> 32, vf_u8x)

/* The operations: VOP3 opcode, sources, lane expression (exec_vb32's). */
#define VF_OPS(X)                                                             \
	X(0x134, 2, a + b)                              /* v_add_u32 */       \
	X(0x135, 2, a - b)                              /* v_sub_u32 */       \
	X(0x136, 2, b - a)                              /* v_subrev_u32 */    \
	X(0x113, 2, a & b)                              /* v_and_b32 */       \
	X(0x114, 2, a | b)                              /* v_or_b32 */        \
	X(0x115, 2, a ^ b)                              /* v_xor_b32 */       \
	X(0x13d, 2, ~(a ^ b))                           /* v_xnor_b32 */      \
	X(0x110, 2, b >> (a & 31))                      /* v_lshrrev_b32 */   \
	X(0x111, 2, (vf_u8x)((vf_i8x)b >> (vf_i8x)(a & 31))) /* v_ashrrev_i32 */ \
	X(0x112, 2, b << (a & 31))                      /* v_lshlrev_b32 */   \
	X(0x10e, 2, VF_SEL(a < b, a, b))                /* v_min_u32 */       \
	X(0x10f, 2, VF_SEL(a > b, a, b))                /* v_max_u32 */       \
	X(0x10c, 2, VF_SEL((vf_i8x)a < (vf_i8x)b, a, b))/* v_min_i32 */       \
	X(0x10d, 2, VF_SEL((vf_i8x)a > (vf_i8x)b, a, b))/* v_max_i32 */       \
	X(0x285, 2, a * b)                              /* v_mul_lo_u32 */    \
	X(0x141, 1, a)                                  /* v_mov_b32 */       \
	X(0x16b, 1, ~a)                                 /* v_not_b32 */       \
	X(0x1fd, 3, (a << (b & 31)) + c)                /* v_lshl_add_u32 */  \
	X(0x1fe, 3, (a + b) << (c & 31))                /* v_add_lshl_u32 */  \
	X(0x1ff, 3, a + b + c)                          /* v_add3_u32 */      \
	X(0x200, 3, (a << (b & 31)) | c)                /* v_lshl_or_b32 */   \
	X(0x201, 3, (a & b) | c)                        /* v_and_or_b32 */    \
	X(0x202, 3, a | b | c)                          /* v_or3_b32 */       \
	X(0x1f3, 3, (a ^ b) + c)                        /* v_xad_u32 */       \
	X(0x1ca, 3, (a & b) | (~a & c))                 /* v_bfi_b32 */      \
	X(0x286, 2, VF_MULHI(a, b))                     /* v_mul_hi_u32 */   \
	X(0x126, 2, (a + b) & 0xffff)                   /* v_add_u16 */      \
	X(0x127, 2, (a - b) & 0xffff)                   /* v_sub_u16 */      \
	X(0x128, 2, (b - a) & 0xffff)                   /* v_subrev_u16 */   \
	X(0x129, 2, (a * b) & 0xffff)                   /* v_mul_lo_u16 */   \
	X(0x12a, 2, ((b & 0xffff) << (a & 15)) & 0xffff) /* v_lshlrev_b16 */ \
	X(0x12b, 2, (b & 0xffff) >> (a & 15))           /* v_lshrrev_b16 */  \
	X(0x12c, 2, (vf_u8x)(VF_SX16(b) >> (vf_i8x)(a & 15)) & 0xffff) /* v_ashrrev_i16 */ \
	X(0x12f, 2, VF_SEL((a & 0xffff) > (b & 0xffff), a & 0xffff, b & 0xffff)) /* v_max_u16 */ \
	X(0x130, 2, VF_SEL(VF_SX16(a) > VF_SX16(b), a & 0xffff, b & 0xffff)) /* v_max_i16 */ \
	X(0x131, 2, VF_SEL((a & 0xffff) < (b & 0xffff), a & 0xffff, b & 0xffff)) /* v_min_u16 */

/* Executors per (operation, kinds of src0..src2).  A source the
 * operation does not have counts as a row and is never read. */
#define VF_FN(OP, K0, K1, K2, EXPR)                                           \
	ISA_HOT static int vf_##OP##_##K0##K1##K2(struct isa_wave *w,          \
						  const struct isa_inst *in)  \
	{                                                                     \
		const int kind0 = K0, kind1 = K1, kind2 = K2;                 \
		VF_BODY(EXPR)                                                 \
	}
#define VF_FNS(OP, N, EXPR)                                                   \
	VF_FN(OP, 0, 0, 0, EXPR) VF_FN(OP, 1, 0, 0, EXPR)                     \
	VF_FN(OP, 0, 1, 0, EXPR) VF_FN(OP, 0, 0, 1, EXPR)
VF_OPS(VF_FNS)

/* The eight lanes of a compare result (all ones or zero per lane) as
 * eight bits, lane 8k + j in bit j.  On x86-64 the lanes' sign bits, two
 * MOVMSKPS of four lanes (SSE, so the baseline clone has it too; the AVX2
 * clone encodes them with VEX): one instruction per half where the
 * portable form below is a chain of three shuffles and ors, which was
 * most of a carry's or compare's time. */
#if defined(__x86_64__) && defined(__GNUC__)
#include <xmmintrin.h>
typedef float vf_f4x __attribute__((vector_size(16)));
static inline __attribute__((always_inline)) uint32_t vf_bits(vf_u8x m)
{
	union {
		vf_u8x v;
		vf_f4x h[2];
	} u = { .v = m };
	return (uint32_t)_mm_movemask_ps((__m128)u.h[0]) |
	       (uint32_t)_mm_movemask_ps((__m128)u.h[1]) << 4;
}
#else
/* Portable: the lanes' bits or'ed together by halving the vector three
 * times. */
static inline __attribute__((always_inline)) uint32_t vf_bits(vf_u8x m)
{
	const vf_u8x bit = { 1, 2, 4, 8, 16, 32, 64, 128 };
	m &= bit;
#ifdef __clang__
	m |= __builtin_shufflevector(m, m, 4, 5, 6, 7, 0, 1, 2, 3);
	m |= __builtin_shufflevector(m, m, 2, 3, 0, 1, 6, 7, 4, 5);
	m |= __builtin_shufflevector(m, m, 1, 0, 3, 2, 5, 4, 7, 6);
#else
	m |= __builtin_shuffle(m, (vf_u8x){ 4, 5, 6, 7, 0, 1, 2, 3 });
	m |= __builtin_shuffle(m, (vf_u8x){ 2, 3, 0, 1, 6, 7, 4, 5 });
	m |= __builtin_shuffle(m, (vf_u8x){ 1, 0, 3, 2, 5, 4, 7, 6 });
#endif
	return m[0];
}
#endif

/* v_add_co_u32 (CIN 0) and v_addc_co_u32 (CIN 1, the carry-in mask in
 * src[2]) without clamp, as exec_carry: D = S0 + S1 (+ carry-in) under
 * EXEC, then the carry-outs of the active lanes to SDST (the carry-in is
 * read first: it may be the same SGPRs). */
#define VF_CARRY_BODY(CIN)                                                    \
	VF_SOURCES                                                            \
	uint32_t *dst = isa_vrow(w, in->dst);                                 \
	uint64_t cin = CIN ? isa_sread64(w, &in->src[2]) : 0, cout = 0;       \
	for (unsigned k = 0; k < ISA_LANES / 8; k++) {                        \
		uint32_t m8 = (uint32_t)(exec >> (8 * k)) & 0xff;             \
		vf_u8x a = VF_SRC(0, k), b = VF_SRC(1, k), t = a + b, u = t, cy; \
		if (CIN) {                                                    \
			vf_u8x ci = (vf_u8x)((((vf_u8x){ 0 } +                \
				(uint32_t)(cin >> (8 * k) & 0xff)) & bit) != 0); \
			u = t - ci;     /* ci is 0 or all ones: adds 1 */     \
			cy = (vf_u8x)(t < a) | (vf_u8x)(u < t);               \
		} else {                                                      \
			cy = (vf_u8x)(t < a);                                 \
		}                                                             \
		cout |= (uint64_t)vf_bits(cy) << (8 * k);                     \
		if (m8)                                                       \
			VF_STORE8(dst, k, m8, u);                             \
	}                                                                     \
	isa_swrite64(w, in->sdst, cout & exec);                               \
	return ISA_STEP_NEXT;

/* VOPC integer compares (not the cmpx forms, which write EXEC):
 * SDST = the lanes of EXEC where EXPR holds, as exec_vcmp. */
#define VF_CMP_BODY(EXPR)                                                     \
	VF_SOURCES                                                            \
	uint64_t mask = 0;                                                    \
	for (unsigned k = 0; k < ISA_LANES / 8; k++) {                        \
		vf_u8x a = VF_SRC(0, k), b = VF_SRC(1, k);                    \
		mask |= (uint64_t)vf_bits((vf_u8x)(EXPR)) << (8 * k);         \
	}                                                                     \
	isa_swrite64(w, in->sdst, mask & exec);                               \
	return ISA_STEP_NEXT;

/* f32 add/sub/subrev/mul without modifiers, as isa_exec_vf32_fast: the
 * host's IEEE operation per lane (vector and scalar SSE/AVX round the
 * same), AMD's default NaN for a NaN the operation made (x86 makes
 * 0xffc00000), and with a MODE that flushes f32 denormals the general
 * executor (s_setreg may set it at any time). */
typedef float vf_f8x __attribute__((vector_size(32), aligned(4)));
#define VF_F32_BODY(EXPR)                                                     \
	if (isa_denorm32(w) != 3)                                             \
		return isa_exec_vf32(w, in);                                  \
	VF_SOURCES                                                            \
	uint32_t *dst = isa_vrow(w, in->dst);                                 \
	const vf_u8x dqnan = (vf_u8x){ 0 } + 0xffc00000u;                     \
	for (unsigned k = 0; k < ISA_LANES / 8; k++) {                        \
		uint32_t m8 = (uint32_t)(exec >> (8 * k)) & 0xff;             \
		vf_u8x a = VF_SRC(0, k), b = VF_SRC(1, k), r, fix;            \
		vf_f8x fa = (vf_f8x)a, fb = (vf_f8x)b;                        \
		if (!m8)                                                      \
			continue;                                             \
		r = (vf_u8x)(EXPR);                                           \
		fix = (vf_u8x)(r == dqnan) & (vf_u8x)(a != r) & (vf_u8x)(b != r); \
		r ^= fix & 0x80000000u;   /* 0xffc00000 -> 0x7fc00000 */      \
		VF_STORE8(dst, k, m8, r);                                     \
	}                                                                     \
	return ISA_STEP_NEXT;

/* v_cndmask_b32 without modifiers, as exec_cndmask: D = S1 in the lanes
 * whose bit of the mask (src[2]: VCC or an SGPR pair, read once) is set,
 * else S0, under EXEC. */
#define VF_CND_BODY(UNUSED)                                                   \
	VF_SOURCES                                                            \
	uint32_t *dst = isa_vrow(w, in->dst);                                 \
	uint64_t sel = isa_sread64(w, &in->src[2]);                           \
	for (unsigned k = 0; k < ISA_LANES / 8; k++) {                        \
		uint32_t m8 = (uint32_t)(exec >> (8 * k)) & 0xff;             \
		vf_u8x a = VF_SRC(0, k), b = VF_SRC(1, k), r, s;              \
		if (!m8)                                                      \
			continue;                                             \
		s = (vf_u8x)((((vf_u8x){ 0 } + (uint32_t)(sel >> (8 * k) & 0xff)) & bit) != 0); \
		r = VF_SEL(s, b, a);                                          \
		VF_STORE8(dst, k, m8, r);                                     \
	}                                                                     \
	return ISA_STEP_NEXT;

#define VF_SPECIAL(X)                                                         \
	X(0x101, 2, VF_F32_BODY, fa + fb)             /* v_add_f32 */       \
	X(0x102, 2, VF_F32_BODY, fa - fb)             /* v_sub_f32 */       \
	X(0x103, 2, VF_F32_BODY, fb - fa)             /* v_subrev_f32 */    \
	X(0x105, 2, VF_F32_BODY, fa * fb)             /* v_mul_f32 */       \
	X(0x119, 2, VF_CARRY_BODY, 0)                 /* v_add_co_u32 */    \
	X(0x11c, 2, VF_CARRY_BODY, 1)                 /* v_addc_co_u32 */   \
	X(0x0c1, 2, VF_CMP_BODY, (vf_i8x)a < (vf_i8x)b) /* v_cmp_lt_i32 */  \
	X(0x0c2, 2, VF_CMP_BODY, a == b)              /* v_cmp_eq_i32 */    \
	X(0x0c3, 2, VF_CMP_BODY, (vf_i8x)a <= (vf_i8x)b) /* v_cmp_le_i32 */  \
	X(0x0c4, 2, VF_CMP_BODY, (vf_i8x)a > (vf_i8x)b) /* v_cmp_gt_i32 */  \
	X(0x0c5, 2, VF_CMP_BODY, a != b)              /* v_cmp_ne_i32 */    \
	X(0x0c6, 2, VF_CMP_BODY, (vf_i8x)a >= (vf_i8x)b) /* v_cmp_ge_i32 */  \
	X(0x0c9, 2, VF_CMP_BODY, a < b)               /* v_cmp_lt_u32 */    \
	X(0x0ca, 2, VF_CMP_BODY, a == b)              /* v_cmp_eq_u32 */    \
	X(0x0cb, 2, VF_CMP_BODY, a <= b)              /* v_cmp_le_u32 */    \
	X(0x0cc, 2, VF_CMP_BODY, a > b)               /* v_cmp_gt_u32 */    \
	X(0x0cd, 2, VF_CMP_BODY, a != b)              /* v_cmp_ne_u32 */    \
	X(0x0ce, 2, VF_CMP_BODY, a >= b)              /* v_cmp_ge_u32 */

#define VF_SFN(OP, K0, K1, K2, BODY, ARG)                                     \
	ISA_HOT static int vf_##OP##_##K0##K1##K2(struct isa_wave *w,          \
						  const struct isa_inst *in)  \
	{                                                                     \
		const int kind0 = K0, kind1 = K1, kind2 = K2;                 \
		BODY(ARG)                                                     \
	}
#define VF_SFNS(OP, N, BODY, ARG)                                             \
	VF_SFN(OP, 0, 0, 0, BODY, ARG) VF_SFN(OP, 1, 0, 0, BODY, ARG)         \
	VF_SFN(OP, 0, 1, 0, BODY, ARG) VF_SFN(OP, 0, 0, 1, BODY, ARG)
VF_SPECIAL(VF_SFNS)
/* v_cndmask_b32: the four forms, and both sources uniform (v_cndmask_b32
 * v, 0, 1, vcc: a lane mask to 0/1, the commonest form), [4] of its
 * table entry */
VF_SFNS(0x100, 2, VF_CND_BODY, ~)
VF_SFN(0x100, 1, 1, 0, VF_CND_BODY, ~)

/* v_fmac_f32 (0x13b, the accumulator D in src[2]) and v_fma_f32 (0x1cb)
 * without modifiers, as isa_exec_vf32_fast: the fused operation (one
 * rounding) on the host's FMA unit, AMD's default NaN for a NaN it made
 * (no input was that NaN), merged under EXEC in the same pass.  Compiled
 * for AVX2+FMA only and picked only when the host has both (elsewhere
 * isa_exec_vf32_fast stays, which computes the same bits through fmaf()). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(ISA_NO_CLONES)
#include <immintrin.h>
#define VF_HAVE_FMA 1
#define VF_FMA_FN(K0, K1, K2)                                                 \
	__attribute__((target("avx2,fma"))) static int vf_fma_##K0##K1##K2(    \
		struct isa_wave *w, const struct isa_inst *in)                \
	{                                                                     \
		const int kind0 = K0, kind1 = K1, kind2 = K2;                 \
		if (isa_denorm32(w) != 3)                                     \
			return isa_exec_vf32(w, in);                          \
		VF_SOURCES                                                    \
		uint32_t *dst = isa_vrow(w, in->dst);                         \
		const vf_u8x dqnan = (vf_u8x){ 0 } + 0xffc00000u;             \
		for (unsigned k = 0; k < ISA_LANES / 8; k++) {                \
			uint32_t m8 = (uint32_t)(exec >> (8 * k)) & 0xff;     \
			vf_u8x a = VF_SRC(0, k), b = VF_SRC(1, k), c = VF_SRC(2, k); \
			vf_u8x r, fix;                                        \
			if (!m8)                                              \
				continue;                                     \
			r = (vf_u8x)_mm256_fmadd_ps((__m256)a, (__m256)b, (__m256)c); \
			/* the NaN rule only when some lane is x86's NaN */   \
			fix = (vf_u8x)(r == dqnan);                           \
			if (__builtin_expect(!_mm256_testz_si256((__m256i)fix, \
								 (__m256i)fix), 0)) { \
				fix &= (vf_u8x)(a != r) & (vf_u8x)(b != r) &  \
				       (vf_u8x)(c != r);                      \
				r ^= fix & 0x80000000u;                       \
			}                                                     \
			VF_STORE8(dst, k, m8, r);                             \
		}                                                             \
		return ISA_STEP_NEXT;                                         \
	}
VF_FMA_FN(0, 0, 0) VF_FMA_FN(1, 0, 0) VF_FMA_FN(0, 1, 0) VF_FMA_FN(0, 0, 1)
static const isa_exec_fn vf_fma_fns[4] = { vf_fma_000, vf_fma_100, vf_fma_010, vf_fma_001 };
#endif

/* ---- superinstructions ---- */

/* v_add_co_u32 then v_addc_co_u32 on its carry: the 64-bit add compilers
 * emit for every address (lo, carry into SDST; hi with that carry in).
 * One executor runs both (isa_vfast_fuse: picked at decode, run by the
 * wave loop only, which counts two instructions and never splits a
 * countdown between them), eight lanes of the first then the same eight
 * of the second, the carry passed in a host register instead of through
 * the SGPR pair and back.  The lanes are independent in both, so the
 * interleaving computes what running them one after the other does: a
 * chunk of the first's destination is stored before the second reads the
 * same chunk (the second may read that row), and the first reads a chunk
 * before the second writes it.  Both SGPR pairs are written at the end,
 * first's then second's, as the two instructions leave them; the picker
 * declines the second reading a scalar the first writes, and a carry
 * into EXEC. */
#define VF_ADD64_FN(K0, K1, J0, J1)                                           \
	ISA_HOT static int vf_add64_##K0##K1##J0##J1(struct isa_wave *w,       \
						     const struct isa_inst *in) \
	{                                                                     \
		const struct isa_inst *i2 = &w->insts[in->next];              \
		uint64_t exec = isa_exec(w), c1 = 0, c2 = 0;                  \
		const uint32_t *r0 = isa_vrow(w, in->src[0].reg);             \
		const uint32_t *r1 = isa_vrow(w, in->src[1].reg);             \
		const uint32_t *q0 = isa_vrow(w, i2->src[0].reg);             \
		const uint32_t *q1 = isa_vrow(w, i2->src[1].reg);             \
		uint32_t *d1 = isa_vrow(w, in->dst), *d2 = isa_vrow(w, i2->dst); \
		vf_u8x u0 = (vf_u8x){ 0 } + (K0 ? vf_uniform(w, &in->src[0]) : 0); \
		vf_u8x u1 = (vf_u8x){ 0 } + (K1 ? vf_uniform(w, &in->src[1]) : 0); \
		vf_u8x p0 = (vf_u8x){ 0 } + (J0 ? vf_uniform(w, &i2->src[0]) : 0); \
		vf_u8x p1 = (vf_u8x){ 0 } + (J1 ? vf_uniform(w, &i2->src[1]) : 0); \
		const vf_u8x bit = { 1, 2, 4, 8, 16, 32, 64, 128 };           \
		for (unsigned k = 0; k < ISA_LANES / 8; k++) {                \
			uint32_t m8 = (uint32_t)(exec >> (8 * k)) & 0xff;     \
			vf_u8x a = K0 ? u0 : *(const vf_u8x *)(r0 + 8 * k);   \
			vf_u8x b = K1 ? u1 : *(const vf_u8x *)(r1 + 8 * k);   \
			vf_u8x t = a + b, cy = (vf_u8x)(t < a), on, c, d, t2, u; \
			c1 |= (uint64_t)vf_bits(cy) << (8 * k);               \
			if (m8)                                               \
				VF_STORE8(d1, k, m8, t);                      \
			/* the carry-in: the first's carry under EXEC */     \
			on = (vf_u8x)((((vf_u8x){ 0 } + m8) & bit) != 0);     \
			c = J0 ? p0 : *(const vf_u8x *)(q0 + 8 * k);          \
			d = J1 ? p1 : *(const vf_u8x *)(q1 + 8 * k);          \
			t2 = c + d;                                           \
			u = t2 - (cy & on); /* all ones: adds 1 */            \
			c2 |= (uint64_t)vf_bits((vf_u8x)(t2 < c) | (vf_u8x)(u < t2)) << (8 * k); \
			if (m8)                                               \
				VF_STORE8(d2, k, m8, u);                      \
		}                                                             \
		isa_swrite64(w, in->sdst, c1 & exec);                         \
		isa_swrite64(w, i2->sdst, c2 & exec);                         \
		w->pc = i2->next;                                             \
		return ISA_STEP_NEXT;                                         \
	}
#define VF_ADD64_FNS(K0, K1)                                                  \
	VF_ADD64_FN(K0, K1, 0, 0) VF_ADD64_FN(K0, K1, 1, 0) VF_ADD64_FN(K0, K1, 0, 1)
VF_ADD64_FNS(0, 0) VF_ADD64_FNS(1, 0) VF_ADD64_FNS(0, 1)
/* [first's uniform source + 1][second's uniform source + 1] */
static const isa_exec_fn vf_add64_fns[3][3] = {
	{ vf_add64_0000, vf_add64_0010, vf_add64_0001 },
	{ vf_add64_1000, vf_add64_1010, vf_add64_1001 },
	{ vf_add64_0100, vf_add64_0110, vf_add64_0101 },
};

/* The table: per operation, its executors indexed by which source (if
 * any) is uniform: [0] all rows, [1 + i] source i uniform. */
struct vf_entry {
	uint16_t op;
	uint8_t nsrc;
	isa_exec_fn fn[5];      /* [4]: sources 0 and 1 uniform, or NULL */
};
#define VF_ENTRY(OP, N, EXPR)                                                 \
	{ OP, N, { vf_##OP##_000, vf_##OP##_100, vf_##OP##_010, vf_##OP##_001 } },
#define VF_SENTRY(OP, N, BODY, ARG) VF_ENTRY(OP, N, ~)
static const struct vf_entry vf_table[] = {
	VF_OPS(VF_ENTRY) VF_SPECIAL(VF_SENTRY)
	{ 0x100, 2, { vf_0x100_000, vf_0x100_100, vf_0x100_010, vf_0x100_001, vf_0x100_110 } },
};

bool isa_vfast_pick(struct isa_inst *in)
{
	const struct vf_entry *e = NULL;
	unsigned uni = 0, nuni = 0;
#ifdef VF_HAVE_FMA
	struct vf_entry fma = { in->op, 3, { vf_fma_fns[0], vf_fma_fns[1], vf_fma_fns[2],
					      vf_fma_fns[3] } };

	if ((in->op == 0x13b || in->op == 0x1cb) && __builtin_cpu_supports("avx2") &&
	    __builtin_cpu_supports("fma"))
		e = &fma;
#endif
	for (size_t i = 0; i < sizeof(vf_table) / sizeof(vf_table[0]); i++)
		if (vf_table[i].op == in->op)
			e = &vf_table[i];
	if (!e || in->clamp || in->omod || in->opsel || in->sdwa)
		return false;
	if (in->op == 0x11c && in->src[2].kind != ISA_OPND_SREG)
		return false;   /* the carry-in: an SGPR pair (VCC in e32) */
	for (unsigned i = 0; i < 3; i++) {
		const struct isa_opnd *o = &in->src[i];
		if (i >= e->nsrc) {
			/* exec_vb32 reads a missing source as src0: the
			 * expressions never name it */
			continue;
		}
		if (o->abs || o->neg)
			return false;
		if (o->kind == ISA_OPND_VGPR)
			continue;
		if (o->kind != ISA_OPND_CONST && o->kind != ISA_OPND_SREG)
			return false;
		uni = i + 1;
		nuni++;
	}
	if (nuni == 2 && uni == 2 && e->fn[4]) {
		in->exec = e->fn[4]; /* sources 0 and 1 uniform */
		return true;
	}
	if (nuni > 1)
		return false;
	in->exec = e->fn[uni];
	return true;
}

/* Which of the two sources (1, 2) is uniform, 0: none; -1 when the
 * instruction is not a fast-path executor of op (it reads its sources as
 * isa_vfast_pick admitted them: at most one uniform). */
static int vf_picked(const struct isa_inst *in, uint16_t op)
{
	const struct vf_entry *e = NULL;
	int uni = 0;

	for (size_t i = 0; i < sizeof(vf_table) / sizeof(vf_table[0]); i++)
		if (vf_table[i].op == op)
			e = &vf_table[i];
	if (!e || in->op != op)
		return -1;
	if (in->exec != e->fn[0] && in->exec != e->fn[1] && in->exec != e->fn[2] &&
	    in->exec != e->fn[3])
		return -1;
	for (int i = 0; i < 2; i++)
		if (in->src[i].kind != ISA_OPND_VGPR)
			uni = i + 1;
	return uni;
}

/* Whether scalar source o reads a register of the pair at code s. */
static bool vf_reads_pair(const struct isa_opnd *o, unsigned s)
{
	return o->kind == ISA_OPND_SREG && (o->reg == s || o->reg == s + 1);
}

isa_exec_fn isa_vfast_fuse(const struct isa_inst *a, const struct isa_inst *b)
{
	int ua, ub;

	if (!a || !b)
		return NULL;
	ua = vf_picked(a, 0x119);
	ub = vf_picked(b, 0x11c);
	if (ua < 0 || ub < 0)
		return NULL;
	/* b's carry-in is a's carry-out: the same pair, a writable one that
	 * is not EXEC (a writes it, then b runs under EXEC) */
	if (b->src[2].kind != ISA_OPND_SREG || b->src[2].reg != a->sdst || (a->sdst & 1) ||
	    !(a->sdst < ISA_SGPR_MAX || a->sdst == ISA_REG_VCC_LO))
		return NULL;
	/* b's sources are read after a wrote its pair */
	if (vf_reads_pair(&b->src[0], a->sdst) || vf_reads_pair(&b->src[1], a->sdst))
		return NULL;
	return vf_add64_fns[ua][ub];
}
