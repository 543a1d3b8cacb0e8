/*
 * isa_exec_valu.c — vector ALU: decoding of VOP1, VOP2, VOPC and VOP3
 * into the VOP3 opcode space, and the integer, compare, carry, select
 * and cross-lane executors, plus the SDWA and DPP wrappers around a
 * VOP1/VOP2/VOPC executor (CDNA2/CDNA3 ISA guides, "Vector ALU
 * Operations").  Float arithmetic and conversions are in isa_exec_vfp.c.
 *
 * Lane model: an executor computes all 64 lanes into a temporary and
 * isa_vdst32() merges it under EXEC, so inactive lanes keep their VGPRs.
 * Scalar results (VOPC masks, carry-outs) have 0 in the bits of inactive
 * lanes, as the hardware writes them.  Shift amounts use the low 5 bits
 * (32-bit) or 6 bits (64-bit); integer overflow wraps (all arithmetic is
 * on unsigned types here, so C never sees signed overflow).
 */
#include "isa_float.h"
#include "isa_valu.h"

#define L for (unsigned l = 0; l < ISA_LANES; l++)

static inline int32_t i32(uint32_t v) { return (int32_t)v; }
static inline float f32_bits(uint32_t v) { float f; memcpy(&f, &v, 4); return f; }

/* A 64-bit lane mask -> 64 bytes of 0/1 (the inverse of the below). */
static inline void isa_unpack_bytes(uint64_t m, uint8_t *b)
{
	for (unsigned g = 0; g < 8; g++) {
		uint64_t x = ((m >> (8 * g)) & 0xff) * 0x0101010101010101ull;
		x &= 0x8040201008040201ull;
		/* each byte is 0 or one set bit: make it 0 or 1 */
		x = ((((x & 0x7f7f7f7f7f7f7f7full) + 0x7f7f7f7f7f7f7f7full) | x) >> 7) &
		    0x0101010101010101ull;
		memcpy(b + 8 * g, &x, 8);
	}
}

/* 64 bytes of 0/1 -> a 64-bit lane mask: each 8-byte group is gathered
 * into 8 bits by one multiply (bit k of byte k lands in bit 56 + k). */
static inline uint64_t isa_pack_bytes(const uint8_t *b)
{
	uint64_t m = 0;
	for (unsigned g = 0; g < 8; g++) {
		uint64_t x;
		memcpy(&x, b + 8 * g, 8);
		m |= ((x * 0x0102040810204080ull) >> 56) << (8 * g);
	}
	return m;
}
static inline uint32_t sext24(uint32_t v) { return (uint32_t)((int32_t)(v << 8) >> 8); }

/* ---- integer 32-bit ---- */

ISA_HOT static int exec_vb32(struct isa_wave *w, const struct isa_inst *in)
{
	uint32_t ba[ISA_LANES], bb[ISA_LANES], bc[ISA_LANES], r[ISA_LANES];
	const uint32_t *a = isa_vsrc32(w, &in->src[0], ba);
	const uint32_t *b = in->src[1].kind ? isa_vsrc32(w, &in->src[1], bb) : a;
	const uint32_t *c = in->src[2].kind ? isa_vsrc32(w, &in->src[2], bc) : a;

	switch (in->op) {
	case 0x106: L r[l] = (uint32_t)((int64_t)i32(sext24(a[l])) * i32(sext24(b[l]))); break;
	case 0x107: L r[l] = (uint32_t)((uint64_t)((int64_t)i32(sext24(a[l])) * i32(sext24(b[l]))) >> 32); break;
	case 0x108: L r[l] = (a[l] & 0xffffff) * (b[l] & 0xffffff); break;
	case 0x109: L r[l] = (uint32_t)(((uint64_t)(a[l] & 0xffffff) * (b[l] & 0xffffff)) >> 32); break;
	case 0x10c: L r[l] = i32(a[l]) < i32(b[l]) ? a[l] : b[l]; break;
	case 0x10d: L r[l] = i32(a[l]) > i32(b[l]) ? a[l] : b[l]; break;
	case 0x10e: L r[l] = a[l] < b[l] ? a[l] : b[l]; break;
	case 0x10f: L r[l] = a[l] > b[l] ? a[l] : b[l]; break;
	case 0x110: L r[l] = b[l] >> (a[l] & 31); break;                        /* lshrrev */
	case 0x111: L r[l] = (uint32_t)(i32(b[l]) >> (a[l] & 31)); break;       /* ashrrev */
	case 0x112: L r[l] = b[l] << (a[l] & 31); break;                        /* lshlrev */
	case 0x113: L r[l] = a[l] & b[l]; break;
	case 0x114: L r[l] = a[l] | b[l]; break;
	case 0x115: L r[l] = a[l] ^ b[l]; break;
	case 0x13d: L r[l] = ~(a[l] ^ b[l]); break;
	case 0x134: /* v_add_u32: clamp saturates */
		if (in->clamp) { L { uint64_t t = (uint64_t)a[l] + b[l]; r[l] = t > UINT32_MAX ? UINT32_MAX : (uint32_t)t; } }
		else { L r[l] = a[l] + b[l]; }
		break;
	case 0x135:
		if (in->clamp) { L r[l] = a[l] < b[l] ? 0 : a[l] - b[l]; }
		else { L r[l] = a[l] - b[l]; }
		break;
	case 0x136:
		if (in->clamp) { L r[l] = b[l] < a[l] ? 0 : b[l] - a[l]; }
		else { L r[l] = b[l] - a[l]; }
		break;
	case 0x29c: /* v_add_i32 (VOP3, gfx9): signed, clamp saturates */
		L {
			int64_t t = (int64_t)i32(a[l]) + i32(b[l]);
			if (in->clamp)
				t = t > INT32_MAX ? INT32_MAX : t < INT32_MIN ? INT32_MIN : t;
			r[l] = (uint32_t)t;
		}
		break;
	case 0x29d:
		L {
			int64_t t = (int64_t)i32(a[l]) - i32(b[l]);
			if (in->clamp)
				t = t > INT32_MAX ? INT32_MAX : t < INT32_MIN ? INT32_MIN : t;
			r[l] = (uint32_t)t;
		}
		break;
	case 0x141: L r[l] = a[l]; break;                                       /* v_mov_b32 */
	case 0x16b: L r[l] = ~a[l]; break;
	case 0x16c: L { uint32_t v = a[l], o = 0; for (unsigned i = 0; i < 32; i++) o |= ((v >> i) & 1) << (31 - i); r[l] = o; } break;
	case 0x16d: L r[l] = a[l] ? (uint32_t)__builtin_clz(a[l]) : ~0u; break; /* ffbh_u32 */
	case 0x16e: L r[l] = a[l] ? (uint32_t)__builtin_ctz(a[l]) : ~0u; break; /* ffbl_b32 */
	case 0x16f: L { uint32_t v = a[l]; r[l] = (v == 0 || v == ~0u) ? ~0u : (uint32_t)__builtin_clz(v >> 31 ? ~v : v); } break;
	case 0x1c2: L r[l] = (uint32_t)((int64_t)i32(sext24(a[l])) * i32(sext24(b[l]))) + c[l]; break;
	case 0x1c3: L r[l] = (a[l] & 0xffffff) * (b[l] & 0xffffff) + c[l]; break;
	case 0x1c8: /* v_bfe_u32: offset S1[4:0], width S2[4:0] */
		L {
			uint32_t wd = c[l] & 31, v = a[l] >> (b[l] & 31);
			r[l] = wd ? v & ((1u << wd) - 1) : 0;
		}
		break;
	case 0x1c9:
		L {
			uint32_t wd = c[l] & 31, v = a[l] >> (b[l] & 31);
			if (!wd) { r[l] = 0; continue; }
			v &= (1u << wd) - 1;
			if (v >> (wd - 1) & 1)
				v |= ~0u << wd;
			r[l] = v;
		}
		break;
	case 0x1ca: L r[l] = (a[l] & b[l]) | (~a[l] & c[l]); break;            /* v_bfi_b32 */
	case 0x1ce: L r[l] = (uint32_t)((((uint64_t)a[l] << 32) | b[l]) >> (c[l] & 31)); break;
	case 0x1cf: L r[l] = (uint32_t)((((uint64_t)a[l] << 32) | b[l]) >> (8 * (c[l] & 3))); break;
	case 0x1d1: L { int32_t x = i32(a[l]), y = i32(b[l]), z = i32(c[l]); int32_t m = x < y ? x : y; r[l] = (uint32_t)(m < z ? m : z); } break;
	case 0x1d2: L { uint32_t m = a[l] < b[l] ? a[l] : b[l]; r[l] = m < c[l] ? m : c[l]; } break;
	case 0x1d4: L { int32_t x = i32(a[l]), y = i32(b[l]), z = i32(c[l]); int32_t m = x > y ? x : y; r[l] = (uint32_t)(m > z ? m : z); } break;
	case 0x1d5: L { uint32_t m = a[l] > b[l] ? a[l] : b[l]; r[l] = m > c[l] ? m : c[l]; } break;
	case 0x1d7: L {
			int32_t x = i32(a[l]), y = i32(b[l]), z = i32(c[l]);
			int32_t mx = x > y ? x : y, mn = x < y ? x : y;
			r[l] = (uint32_t)(z > mx ? mx : z < mn ? mn : z);
		}
		break;
	case 0x1d8: L {
			uint32_t x = a[l], y = b[l], z = c[l];
			uint32_t mx = x > y ? x : y, mn = x < y ? x : y;
			r[l] = z > mx ? mx : z < mn ? mn : z;
		}
		break;
	case 0x1ed: /* v_perm_b32: byte select from {S0, S1} by S2's bytes */
		L {
			uint64_t v = ((uint64_t)a[l] << 32) | b[l];
			uint32_t o = 0;
			for (unsigned i = 0; i < 4; i++) {
				uint32_t sel = (c[l] >> (8 * i)) & 0xff, byte;
				if (sel <= 7)
					byte = (uint32_t)(v >> (8 * sel)) & 0xff;
				else if (sel >= 13)
					byte = 0xff;
				else if (sel == 12)
					byte = 0;
				else /* 8..11: replicate the sign bit of bytes 1,3,5,7 */
					byte = (uint32_t)((v >> (16 * (sel - 8) + 15)) & 1) * 0xff;
				o |= byte << (8 * i);
			}
			r[l] = o;
		}
		break;
	case 0x1f3: L r[l] = (a[l] ^ b[l]) + c[l]; break;                         /* v_xad_u32 */
	case 0x1f1: L r[l] = (a[l] & 0xffff) * (b[l] & 0xffff) + c[l]; break;     /* v_mad_u32_u16 */
	case 0x1f2: L r[l] = (uint32_t)((int32_t)(int16_t)a[l] * (int16_t)b[l]) + c[l]; break;
	case 0x204: case 0x205: /* v_mad_u16 / v_mad_i16: low 16 bits, high zeroed */
		L r[l] = (a[l] * b[l] + c[l]) & 0xffff;
		break;
	case 0x1d9: /* v_sad_u8: sum of |byte differences| + S2 */
		L {
			uint32_t acc = c[l];
			for (unsigned k = 0; k < 32; k += 8) {
				uint32_t x = (a[l] >> k) & 0xff, y = (b[l] >> k) & 0xff;
				acc += x > y ? x - y : y - x;
			}
			r[l] = acc;
		}
		break;
	case 0x1db: L {
			uint32_t acc = c[l];
			for (unsigned k = 0; k < 32; k += 16) {
				uint32_t x = (a[l] >> k) & 0xffff, y = (b[l] >> k) & 0xffff;
				acc += x > y ? x - y : y - x;
			}
			r[l] = acc;
		}
		break;
	case 0x1dc: L r[l] = (a[l] > b[l] ? a[l] - b[l] : b[l] - a[l]) + c[l]; break; /* v_sad_u32 */
	case 0x1cd: /* v_lerp_u8: per byte (S0 + S1 + bit 8i of S2) >> 1 */
		L {
			uint32_t o = 0;
			for (unsigned k = 0; k < 4; k++) {
				uint32_t x = (a[l] >> (8 * k)) & 0xff, y = (b[l] >> (8 * k)) & 0xff;
				o |= ((x + y + ((c[l] >> (8 * k)) & 1)) >> 1) << (8 * k);
			}
			r[l] = o;
		}
		break;
	case 0x1da: case 0x1e4: /* v_sad_hi_u8 (sum << 16), v_msad_u8 (bytes of S1 that are 0 skipped) */
		L {
			uint32_t s = 0;
			for (unsigned k = 0; k < 4; k++) {
				uint32_t x = (a[l] >> (8 * k)) & 0xff, y = (b[l] >> (8 * k)) & 0xff;
				if (in->op == 0x1e4 && !y)
					continue;
				s += x > y ? x - y : y - x;
			}
			r[l] = (in->op == 0x1da ? s << 16 : s) + c[l];
		}
		break;
	case 0x1dd: L { /* v_cvt_pk_u8_f32: u8(S0) into byte S1[1:0] of S2 */
			float x = f32_bits(a[l]);
			uint32_t v = isnan(x) || x <= 0 ? 0 : x >= 255.0f ? 255 : (uint32_t)nearbyintf(x);
			unsigned sh = 8 * (b[l] & 3);
			r[l] = (c[l] & ~(0xffu << sh)) | (v << sh);
		}
		break;
	case 0x294: case 0x295: L { /* v_cvt_pknorm_i16/u16_f32: {norm(S1), norm(S0)} */
			uint32_t o = 0;
			for (unsigned k = 0; k < 2; k++) {
				float x = f32_bits(k ? b[l] : a[l]);
				int32_t v;
				if (in->op == 0x294) {
					x = isnan(x) ? 0 : x < -1 ? -1 : x > 1 ? 1 : x;
					v = (int32_t)nearbyintf(x * 32767.0f);
				} else {
					x = isnan(x) ? 0 : x < 0 ? 0 : x > 1 ? 1 : x;
					v = (int32_t)nearbyintf(x * 65535.0f);
				}
				o |= ((uint32_t)v & 0xffff) << (16 * k);
			}
			r[l] = o;
		}
		break;
	case 0x18f: L { /* v_sat_pk_u8_i16: the two i16 halves saturated to u8 */
			int32_t x = (int16_t)a[l], y = (int16_t)(a[l] >> 16);
			x = x < 0 ? 0 : x > 255 ? 255 : x;
			y = y < 0 ? 0 : y > 255 ? 255 : y;
			r[l] = (uint32_t)x | ((uint32_t)y << 8);
		}
		break;
	case 0x14e: L { /* v_cvt_off_f32_i4: the signed nibble S0[3:0] / 16 */
			int32_t v = (int32_t)(a[l] << 28) >> 28;
			float f = (float)v / 16.0f;
			memcpy(&r[l], &f, 4);
		}
		break;
	case 0x140: /* v_nop */
		return ISA_STEP_NEXT;
	case 0x1fd: L r[l] = (a[l] << (b[l] & 31)) + c[l]; break;                 /* v_lshl_add_u32 */
	case 0x1fe: L r[l] = (a[l] + b[l]) << (c[l] & 31); break;                 /* v_add_lshl_u32 */
	case 0x1ff: L r[l] = a[l] + b[l] + c[l]; break;                           /* v_add3_u32 */
	case 0x200: L r[l] = (a[l] << (b[l] & 31)) | c[l]; break;                 /* v_lshl_or_b32 */
	case 0x201: L r[l] = (a[l] & b[l]) | c[l]; break;                         /* v_and_or_b32 */
	case 0x202: L r[l] = a[l] | b[l] | c[l]; break;                           /* v_or3_b32 */
	case 0x285: L r[l] = a[l] * b[l]; break;                                  /* v_mul_lo_u32 */
	case 0x286: L r[l] = (uint32_t)(((uint64_t)a[l] * b[l]) >> 32); break;
	case 0x287: L r[l] = (uint32_t)((uint64_t)((int64_t)i32(a[l]) * i32(b[l])) >> 32); break;
	case 0x28b: L r[l] = (uint32_t)__builtin_popcount(a[l]) + b[l]; break;   /* v_bcnt_u32_b32 */
	case 0x28c: /* v_mbcnt_lo_u32_b32: bits of S0 below this lane (lanes 0-31) */
		L {
			uint32_t m = l >= 32 ? a[l] : (l ? a[l] & ((1u << l) - 1) : 0);
			r[l] = (uint32_t)__builtin_popcount(m) + b[l];
		}
		break;
	case 0x28d: /* v_mbcnt_hi_u32_b32: bits of S0 below lane-32 */
		L {
			uint32_t m = l < 32 ? 0 : (l == 32 ? 0 : a[l] & ((1u << (l - 32)) - 1));
			r[l] = (uint32_t)__builtin_popcount(m) + b[l];
		}
		break;
	case 0x293: L r[l] = (uint32_t)(((1ull << (a[l] & 31)) - 1) << (b[l] & 31)); break;
	/* 16-bit integer ops: gfx9 writes the low half and zeroes the high
	 * half of the destination; shift amounts use the low 4 bits */
	case 0x126: L r[l] = (a[l] + b[l]) & 0xffff; break;
	case 0x127: L r[l] = (a[l] - b[l]) & 0xffff; break;
	case 0x128: L r[l] = (b[l] - a[l]) & 0xffff; break;
	case 0x129: L r[l] = (a[l] * b[l]) & 0xffff; break;
	case 0x12a: L r[l] = ((b[l] & 0xffff) << (a[l] & 15)) & 0xffff; break;
	case 0x12b: L r[l] = (b[l] & 0xffff) >> (a[l] & 15); break;
	case 0x12c: L r[l] = (uint32_t)((int16_t)(b[l] & 0xffff) >> (a[l] & 15)) & 0xffff; break;
	case 0x12f: L r[l] = (a[l] & 0xffff) > (b[l] & 0xffff) ? a[l] & 0xffff : b[l] & 0xffff; break;
	case 0x130: L r[l] = (int16_t)a[l] > (int16_t)b[l] ? a[l] & 0xffff : b[l] & 0xffff; break;
	case 0x131: L r[l] = (a[l] & 0xffff) < (b[l] & 0xffff) ? a[l] & 0xffff : b[l] & 0xffff; break;
	case 0x132: L r[l] = (int16_t)a[l] < (int16_t)b[l] ? a[l] & 0xffff : b[l] & 0xffff; break;
	case 0x29e: L r[l] = (a[l] + b[l]) & 0xffff; break;                       /* v_add_i16 */
	case 0x29f: L r[l] = (a[l] - b[l]) & 0xffff; break;
	case 0x297: L r[l] = (a[l] & 0xffff) | (b[l] << 16); break;              /* v_cvt_pk_u16_u32 */
	case 0x298: L r[l] = (a[l] & 0xffff) | (b[l] << 16); break;
	default:
		return isa_exec_illegal(w, in);
	}
	isa_vdst32(w, in->dst, r);
	return ISA_STEP_NEXT;
}

/* ---- 64-bit integer ---- */

ISA_HOT static int exec_vb64(struct isa_wave *w, const struct isa_inst *in)
{
	uint32_t ba[ISA_LANES];
	uint64_t b64[ISA_LANES], c64[ISA_LANES], r[ISA_LANES];
	const uint32_t *a = NULL;

	switch (in->op) {
	case 0x28f: case 0x290: case 0x291: /* shift amount S0 (32), value S1 (64) */
		a = isa_vsrc32(w, &in->src[0], ba);
		isa_vsrc64(w, &in->src[1], b64);
		if (in->op == 0x28f) { L r[l] = b64[l] << (a[l] & 63); }
		else if (in->op == 0x290) { L r[l] = b64[l] >> (a[l] & 63); }
		else { L r[l] = (uint64_t)((int64_t)b64[l] >> (a[l] & 63)); }
		break;
	case 0x178: /* v_mov_b64 (gfx942) */
		isa_vsrc64(w, &in->src[0], r);
		break;
	case 0x208: { /* v_lshl_add_u64 (gfx942): D = (S0 << S1[2:0]) + S2 */
		uint32_t bb[ISA_LANES];
		const uint32_t *s = isa_vsrc32(w, &in->src[1], bb);
		isa_vsrc64(w, &in->src[0], b64);
		isa_vsrc64(w, &in->src[2], c64);
		L r[l] = (b64[l] << (s[l] & 7)) + c64[l];
		break;
	}
	default:
		return isa_exec_illegal(w, in);
	}
	isa_vdst64(w, in->dst, r);
	return ISA_STEP_NEXT;
}

/* v_mad_u64_u32 / v_mad_i64_i32 (VOP3b): {D} = S0 * S1 + S2 (64), SDST =
 * the carry out of the 64-bit add (unsigned) or signed overflow. */
static int exec_mad64(struct isa_wave *w, const struct isa_inst *in)
{
	uint32_t ba[ISA_LANES], bb[ISA_LANES];
	uint64_t c[ISA_LANES], r[ISA_LANES], carry = 0, exec = isa_exec(w);
	const uint32_t *a = isa_vsrc32(w, &in->src[0], ba);
	const uint32_t *b = isa_vsrc32(w, &in->src[1], bb);

	isa_vsrc64(w, &in->src[2], c);
	if (in->op == 0x1e8) {
		L {
			unsigned __int128 t = (unsigned __int128)((uint64_t)a[l] * b[l]) + c[l];
			r[l] = (uint64_t)t;
			if ((uint64_t)(t >> 64))
				carry |= 1ull << l;
		}
	} else {
		L {
			__int128 t = (__int128)((int64_t)i32(a[l]) * i32(b[l])) + (int64_t)c[l];
			r[l] = (uint64_t)t;
			if (t > INT64_MAX || t < INT64_MIN)
				carry |= 1ull << l;
		}
	}
	isa_vdst64(w, in->dst, r);
	isa_swrite64(w, in->sdst, carry & exec);
	return ISA_STEP_NEXT;
}

/* ---- carry ops: v_add_co/sub_co/subrev_co, v_addc/subb/subbrev ---- */

ISA_HOT static int exec_carry(struct isa_wave *w, const struct isa_inst *in)
{
	uint32_t ba[ISA_LANES], bb[ISA_LANES], r[ISA_LANES];
	const uint32_t *a = isa_vsrc32(w, &in->src[0], ba);
	const uint32_t *b = isa_vsrc32(w, &in->src[1], bb);
	uint64_t cin = 0, cout = 0, exec = isa_exec(w);

	if (in->op >= 0x11c)
		cin = isa_sread64(w, &in->src[2]);
	if (in->op == 0x119 || in->op == 0x11c) {
		/* the common 64-bit address add: carries computed lane-parallel
		 * (vectorisable), then packed */
		uint8_t c8[ISA_LANES];
		if (in->op == 0x11c) {
			uint8_t ci[ISA_LANES];
			isa_unpack_bytes(cin, ci);
			L {
				uint32_t t = a[l] + b[l], u = t + ci[l];
				r[l] = u;
				c8[l] = (uint8_t)((t < a[l]) | (u < t));
			}
		} else {
			L {
				uint32_t t = a[l] + b[l];
				r[l] = t;
				c8[l] = (uint8_t)(t < a[l]);
			}
		}
		cout = isa_pack_bytes(c8);
		goto done;
	}
	switch (in->op) {
	case 0x119: L { uint64_t t = (uint64_t)a[l] + b[l]; r[l] = (uint32_t)t; cout |= (t >> 32) << l; } break;
	case 0x11a: L { r[l] = a[l] - b[l]; cout |= (uint64_t)(b[l] > a[l]) << l; } break;
	case 0x11b: L { r[l] = b[l] - a[l]; cout |= (uint64_t)(a[l] > b[l]) << l; } break;
	case 0x11c: L { uint64_t t = (uint64_t)a[l] + b[l] + ((cin >> l) & 1); r[l] = (uint32_t)t; cout |= (t >> 32) << l; } break;
	case 0x11d: L { uint64_t ci = (cin >> l) & 1; r[l] = a[l] - b[l] - (uint32_t)ci; cout |= (uint64_t)((uint64_t)b[l] + ci > a[l]) << l; } break;
	case 0x11e: L { uint64_t ci = (cin >> l) & 1; r[l] = b[l] - a[l] - (uint32_t)ci; cout |= (uint64_t)((uint64_t)a[l] + ci > b[l]) << l; } break;
	default:
		return isa_exec_illegal(w, in);
	}
done:
	if (in->clamp) { /* clamp saturates the unsigned result */
		if (in->op == 0x119 || in->op == 0x11c) { L if (cout >> l & 1) r[l] = UINT32_MAX; }
		else { L if (cout >> l & 1) r[l] = 0; }
	}
	isa_vdst32(w, in->dst, r);
	isa_swrite64(w, in->sdst, cout & exec);
	return ISA_STEP_NEXT;
}

/* v_cndmask_b32: D = S2[lane] ? S1 : S0 (S2 = VCC in the e32 form). */
ISA_HOT static int exec_cndmask(struct isa_wave *w, const struct isa_inst *in)
{
	uint32_t ba[ISA_LANES], bb[ISA_LANES], r[ISA_LANES];
	uint32_t fa[ISA_LANES], fb[ISA_LANES];
	const uint32_t *a, *b;
	uint64_t sel = isa_sread64(w, &in->src[2]);

	if (in->src[0].abs | in->src[0].neg) {
		isa_fetch_f32(w, &in->src[0], fa);
		a = fa;
	} else {
		a = isa_vsrc32(w, &in->src[0], ba);
	}
	if (in->src[1].abs | in->src[1].neg) {
		isa_fetch_f32(w, &in->src[1], fb);
		b = fb;
	} else {
		b = isa_vsrc32(w, &in->src[1], bb);
	}
	L r[l] = (sel >> l & 1) ? b[l] : a[l];
	isa_vdst32(w, in->dst, r);
	return ISA_STEP_NEXT;
}

/* v_swap_b32 (gfx9+): exchange vdst and src0 (both VGPRs) under EXEC. */
static int exec_swap(struct isa_wave *w, const struct isa_inst *in)
{
	uint32_t *a = isa_vrow(w, in->dst), *b = isa_vrow(w, in->src[0].reg);
	uint64_t exec = isa_exec(w);
	for (unsigned l = 0; l < ISA_LANES; l++) {
		if (exec >> l & 1) {
			uint32_t t = a[l];
			a[l] = b[l];
			b[l] = t;
		}
	}
	return ISA_STEP_NEXT;
}

/* ---- cross-lane ---- */

static unsigned first_lane(uint64_t exec)
{
	return exec ? (unsigned)__builtin_ctzll(exec) : 0;
}

static int exec_readfirstlane(struct isa_wave *w, const struct isa_inst *in)
{
	uint32_t buf[ISA_LANES];
	const uint32_t *a = isa_vsrc32(w, &in->src[0], buf);
	/* EXEC == 0 reads lane 0 (ISA guide: "if EXEC is zero, lane 0") */
	isa_swrite32(w, in->dst, a[first_lane(isa_exec(w))]);
	return ISA_STEP_NEXT;
}

static int exec_readlane(struct isa_wave *w, const struct isa_inst *in)
{
	uint32_t buf[ISA_LANES];
	const uint32_t *a = isa_vsrc32(w, &in->src[0], buf);
	unsigned lane = isa_sread32(w, &in->src[1]) & 63;
	isa_swrite32(w, in->dst, a[lane]);
	return ISA_STEP_NEXT;
}

static int exec_writelane(struct isa_wave *w, const struct isa_inst *in)
{
	uint32_t v = isa_sread32(w, &in->src[0]);
	unsigned lane = isa_sread32(w, &in->src[1]) & 63;
	/* Writes the lane regardless of EXEC. */
	isa_vrow(w, in->dst)[lane] = v;
	return ISA_STEP_NEXT;
}

/* ---- compares ---- */

/* cmp code: 0 F, 1 LT, 2 EQ, 3 LE, 4 GT, 5 LG/NE, 6 GE, 7 O/T ... */
static inline bool fcmp(unsigned c, double a, double b)
{
	switch (c) {
	case 0x0: return false;
	case 0x1: return a < b;
	case 0x2: return a == b;
	case 0x3: return a <= b;
	case 0x4: return a > b;
	case 0x5: return a < b || a > b;      /* LG: ordered not-equal */
	case 0x6: return a >= b;
	case 0x7: return !isnan(a) && !isnan(b);
	case 0x8: return isnan(a) || isnan(b);
	case 0x9: return !(a >= b);             /* NGE */
	case 0xa: return !(a < b || a > b);     /* NLG */
	case 0xb: return !(a > b);
	case 0xc: return !(a <= b);
	case 0xd: return !(a == b);             /* NEQ */
	case 0xe: return !(a < b);
	default: return true;                   /* TRU */
	}
}

static inline bool icmp(unsigned c, int64_t a, int64_t b)
{
	switch (c & 7) {
	case 0: return false;
	case 1: return a < b;
	case 2: return a == b;
	case 3: return a <= b;
	case 4: return a > b;
	case 5: return a != b;
	case 6: return a >= b;
	default: return true;
	}
}

static inline bool ucmp(unsigned c, uint64_t a, uint64_t b)
{
	switch (c & 7) {
	case 0: return false;
	case 1: return a < b;
	case 2: return a == b;
	case 3: return a <= b;
	case 4: return a > b;
	case 5: return a != b;
	case 6: return a >= b;
	default: return true;
	}
}

/* v_cmp_class: S1 bits: 0 sNaN, 1 qNaN, 2 -inf, 3 -normal, 4 -denorm,
 * 5 -0, 6 +0, 7 +denorm, 8 +normal, 9 +inf. */
static unsigned class64(uint64_t u)
{
	bool neg = u >> 63;
	uint64_t e = (u >> 52) & 0x7ff, m = u & 0xfffffffffffffull;
	if (e == 0x7ff)
		return m ? ((m >> 51) & 1 ? 1 : 0) : (neg ? 2 : 9);
	if (e == 0)
		return m ? (neg ? 4 : 7) : (neg ? 5 : 6);
	return neg ? 3 : 8;
}
static unsigned class32(uint32_t u)
{
	bool neg = u >> 31;
	uint32_t e = (u >> 23) & 0xff, m = u & 0x7fffff;
	if (e == 0xff)
		return m ? ((m >> 22) & 1 ? 1 : 0) : (neg ? 2 : 9);
	if (e == 0)
		return m ? (neg ? 4 : 7) : (neg ? 5 : 6);
	return neg ? 3 : 8;
}
static unsigned class16(uint32_t u)
{
	bool neg = (u >> 15) & 1;
	uint32_t e = (u >> 10) & 0x1f, m = u & 0x3ff;
	if (e == 0x1f)
		return m ? ((m >> 9) & 1 ? 1 : 0) : (neg ? 2 : 9);
	if (e == 0)
		return m ? (neg ? 4 : 7) : (neg ? 5 : 6);
	return neg ? 3 : 8;
}

ISA_HOT static int exec_vcmp(struct isa_wave *w, const struct isa_inst *in)
{
	unsigned op = in->op, c = op & 0xf;
	uint64_t mask = 0, exec = isa_exec(w);
	bool cmpx;

	if (op >= 0x10 && op <= 0x15) { /* class */
		uint32_t bb[ISA_LANES];
		const uint32_t *b = isa_vsrc32(w, &in->src[1], bb);
		cmpx = op & 1;
		if (op <= 0x11) {
			uint32_t a[ISA_LANES];
			isa_fetch_f32(w, &in->src[0], a);
			L mask |= (uint64_t)((b[l] >> class32(a[l])) & 1) << l;
		} else if (op <= 0x13) {
			uint64_t a[ISA_LANES];
			isa_fetch_f64(w, &in->src[0], a);
			L mask |= (uint64_t)((b[l] >> class64(a[l])) & 1) << l;
		} else {
			uint32_t ba[ISA_LANES];
			const uint32_t *a = isa_vsrc32(w, &in->src[0], ba);
			uint32_t s = (in->src[0].abs ? 0x7fff : 0xffff), x = in->src[0].neg ? 0x8000 : 0;
			L mask |= (uint64_t)((b[l] >> class16(((a[l] & s) ^ x) & 0xffff)) & 1) << l;
		}
	} else if (op >= 0x20 && op <= 0x3f) { /* f16 */
		uint32_t ba[ISA_LANES], bb[ISA_LANES];
		const uint32_t *a = isa_vsrc32(w, &in->src[0], ba), *b = isa_vsrc32(w, &in->src[1], bb);
		cmpx = op >= 0x30;
		L {
			uint32_t x = a[l] & 0xffff, y = b[l] & 0xffff;
			if (in->src[0].abs) x &= 0x7fff;
			if (in->src[0].neg) x ^= 0x8000;
			if (in->src[1].abs) y &= 0x7fff;
			if (in->src[1].neg) y ^= 0x8000;
			mask |= (uint64_t)fcmp(c, f16_to_f32((uint16_t)x), f16_to_f32((uint16_t)y)) << l;
		}
	} else if (op >= 0x40 && op <= 0x5f) { /* f32 */
		uint32_t a[ISA_LANES], b[ISA_LANES];
		isa_fetch_f32(w, &in->src[0], a);
		isa_fetch_f32(w, &in->src[1], b);
		cmpx = op >= 0x50;
		if (!(isa_denorm32(w) & 1)) {
			L { a[l] = flush32(a[l]); b[l] = flush32(b[l]); }
		}
		{
			uint8_t t8[ISA_LANES];
			switch (c) {
			case 0x1: L t8[l] = f32_of(a[l]) < f32_of(b[l]); break;
			case 0x2: L t8[l] = f32_of(a[l]) == f32_of(b[l]); break;
			case 0x3: L t8[l] = f32_of(a[l]) <= f32_of(b[l]); break;
			case 0x4: L t8[l] = f32_of(a[l]) > f32_of(b[l]); break;
			case 0x6: L t8[l] = f32_of(a[l]) >= f32_of(b[l]); break;
			default: L t8[l] = fcmp(c, f32_of(a[l]), f32_of(b[l])); break;
			}
			mask = isa_pack_bytes(t8);
		}
	} else if (op >= 0x60 && op <= 0x7f) { /* f64 */
		uint64_t a[ISA_LANES], b[ISA_LANES];
		isa_fetch_f64(w, &in->src[0], a);
		isa_fetch_f64(w, &in->src[1], b);
		cmpx = op >= 0x70;
		if (!(isa_denorm64(w) & 1)) {
			L { a[l] = flush64(a[l]); b[l] = flush64(b[l]); }
		}
		L mask |= (uint64_t)fcmp(c, f64_of(a[l]), f64_of(b[l])) << l;
	} else if (op >= 0xa0 && op <= 0xbf) { /* i16/u16 */
		uint32_t ba[ISA_LANES], bb[ISA_LANES];
		const uint32_t *a = isa_vsrc32(w, &in->src[0], ba), *b = isa_vsrc32(w, &in->src[1], bb);
		bool u = op & 8;
		cmpx = op >= 0xb0;
		if (u) { L mask |= (uint64_t)ucmp(c, a[l] & 0xffff, b[l] & 0xffff) << l; }
		else { L mask |= (uint64_t)icmp(c, (int16_t)(a[l] & 0xffff), (int16_t)(b[l] & 0xffff)) << l; }
	} else if (op >= 0xc0 && op <= 0xdf) { /* i32/u32 */
		uint32_t ba[ISA_LANES], bb[ISA_LANES];
		const uint32_t *a = isa_vsrc32(w, &in->src[0], ba), *b = isa_vsrc32(w, &in->src[1], bb);
		bool u = op & 8;
		cmpx = op >= 0xd0;
		uint8_t t8[ISA_LANES];
		/* lane-parallel compare into bytes, then packed */
		if (u) {
			switch (c & 7) {
			case 1: L t8[l] = a[l] < b[l]; break;
			case 2: L t8[l] = a[l] == b[l]; break;
			case 3: L t8[l] = a[l] <= b[l]; break;
			case 4: L t8[l] = a[l] > b[l]; break;
			case 5: L t8[l] = a[l] != b[l]; break;
			case 6: L t8[l] = a[l] >= b[l]; break;
			default: L t8[l] = ucmp(c, a[l], b[l]); break;
			}
		} else {
			switch (c & 7) {
			case 1: L t8[l] = i32(a[l]) < i32(b[l]); break;
			case 2: L t8[l] = a[l] == b[l]; break;
			case 3: L t8[l] = i32(a[l]) <= i32(b[l]); break;
			case 4: L t8[l] = i32(a[l]) > i32(b[l]); break;
			case 5: L t8[l] = a[l] != b[l]; break;
			case 6: L t8[l] = i32(a[l]) >= i32(b[l]); break;
			default: L t8[l] = icmp(c, i32(a[l]), i32(b[l])); break;
			}
		}
		mask = isa_pack_bytes(t8);
	} else if (op >= 0xe0) { /* i64/u64 */
		uint64_t a[ISA_LANES], b[ISA_LANES];
		bool u = op & 8;
		isa_vsrc64(w, &in->src[0], a);
		isa_vsrc64(w, &in->src[1], b);
		cmpx = op >= 0xf0;
		if (u) { L mask |= (uint64_t)ucmp(c, a[l], b[l]) << l; }
		else { L mask |= (uint64_t)icmp(c, (int64_t)a[l], (int64_t)b[l]) << l; }
	} else {
		return isa_exec_illegal(w, in);
	}
	mask &= exec;
	/* v_cmpx writes EXEC; on gfx9 it also writes the SGPR/VCC dest. */
	isa_swrite64(w, in->sdst, mask);
	if (cmpx)
		isa_set_exec(w, mask);
	return ISA_STEP_NEXT;
}

/* exec_vcmp for the fast executors' hand-over (isa_exec_vfast64.c) */
int isa_exec_vcmp(struct isa_wave *w, const struct isa_inst *in)
{
	return exec_vcmp(w, in);
}

/* ---- SDWA (gfx9): sub-dword operand selection around a VOP1/2/C op ----
 * SDWA dword: SRC0 [7:0], DST_SEL [10:8], DST_UNUSED [12:11], CLAMP [13],
 * OMOD [15:14], SRC0_SEL [18:16], SRC0_SEXT [19], SRC0_NEG [20],
 * SRC0_ABS [21], S0 [23] (SRC0 is scalar), SRC1_SEL [26:24], SRC1_SEXT
 * [27], SRC1_NEG [28], SRC1_ABS [29], S1 [31]; VOPC: SDST [14:8] with
 * SD [15] (0: VCC).  SEL: 0-3 byte, 4-5 word, 6 dword. */

static uint32_t sdwa_sel(uint32_t v, unsigned sel, bool sext)
{
	if (sel <= 3) {
		uint32_t b = (v >> (8 * sel)) & 0xff;
		return sext ? (uint32_t)(int32_t)(int8_t)b : b;
	}
	if (sel <= 5) {
		uint32_t h = (v >> (16 * (sel - 4))) & 0xffff;
		return sext ? (uint32_t)(int32_t)(int16_t)h : h;
	}
	return v;
}

static int exec_sdwa(struct isa_wave *w, const struct isa_inst *in)
{
	struct isa_inst t = *in;
	uint32_t sd = in->sdwa, buf[ISA_LANES];
	unsigned tmp = w->p->alloc_rows - ISA_TMP_ROWS;
	unsigned dst_sel = (sd >> 8) & 7, unused = (sd >> 11) & 3;
	bool vopc = in->op <= 0xff;

	for (unsigned i = 0; i < 2; i++) {
		unsigned sel = (sd >> (i ? 24 : 16)) & 7;
		bool sext = (sd >> (i ? 27 : 19)) & 1;
		const uint32_t *s;
		uint32_t *row = isa_vrow(w, tmp + i);
		if (!in->src[i].kind)
			continue;
		s = isa_vsrc32(w, &in->src[i], buf);
		for (unsigned l = 0; l < ISA_LANES; l++)
			row[l] = sdwa_sel(s[l], sel, sext);
		t.src[i].kind = ISA_OPND_VGPR;
		t.src[i].reg = (uint16_t)(tmp + i);
	}
	if (vopc)
		return in->inner(w, &t);
	t.dst = (uint16_t)(tmp + 2);
	{
		int r = in->inner(w, &t);
		const uint32_t *res = isa_vrow(w, tmp + 2);
		uint32_t *d = isa_vrow(w, in->dst);
		uint64_t exec = isa_exec(w);
		if (r)
			return r;
		for (unsigned l = 0; l < ISA_LANES; l++) {
			uint32_t v = res[l], o = d[l], mask, shift;
			if (!(exec >> l & 1))
				continue;
			if (dst_sel >= 6) {
				d[l] = v;
				continue;
			}
			shift = dst_sel <= 3 ? 8 * dst_sel : 16 * (dst_sel - 4);
			mask = (dst_sel <= 3 ? 0xffu : 0xffffu) << shift;
			v = (v << shift) & mask;
			if (unused == 2) {          /* UNUSED_PRESERVE */
				v |= o & ~mask;
			} else if (unused == 1) {   /* UNUSED_SEXT: sign-extend upward */
				uint32_t top = (v >> (shift + (dst_sel <= 3 ? 7 : 15))) & 1;
				if (top)
					v |= ~0u << (shift + (dst_sel <= 3 ? 8 : 16));
			}
			d[l] = v;
		}
	}
	return ISA_STEP_NEXT;
}

/* ---- DPP (gfx9): data-parallel lane permutation of SRC0 ----
 * DPP dword: SRC0 [7:0], DPP_CTRL [16:8], BOUND_CTRL [19], SRC0_NEG [20],
 * SRC0_ABS [21], SRC1_NEG [22], SRC1_ABS [23], BANK_MASK [27:24],
 * ROW_MASK [31:28].  Rows are 16 lanes, banks 4 lanes within a row.  A
 * lane whose source is out of range or inactive reads 0 when BOUND_CTRL
 * is set and is not written otherwise; lanes of disabled rows/banks are
 * not written.  A lane not written is an inactive lane for the operation:
 * its carry-out (v_add_co_u32_dpp, ...) is 0 in VCC, as for EXEC = 0.  A
 * 64-bit SRC0 (v_fmac_f64_dpp, v_rcp_f64_dpp, ...; in->aux 2) moves as a
 * register pair. */
static int dpp_source(unsigned ctrl, unsigned l)
{
	unsigned r = l & ~15u, i = l & 15;
	if (ctrl <= 0xff)                          /* quad_perm */
		return (int)((l & ~3u) | ((ctrl >> (2 * (l & 3))) & 3));
	if (ctrl >= 0x101 && ctrl <= 0x10f)       /* row_shl */
		return i + (ctrl & 15) < 16 ? (int)(l + (ctrl & 15)) : -1;
	if (ctrl >= 0x111 && ctrl <= 0x11f)       /* row_shr */
		return i >= (ctrl & 15) ? (int)(l - (ctrl & 15)) : -1;
	if (ctrl >= 0x121 && ctrl <= 0x12f)       /* row_ror */
		return (int)(r | ((i + 16 - (ctrl & 15)) & 15));
	switch (ctrl) {
	case 0x130: return l + 1 < 64 ? (int)l + 1 : -1;   /* wave_shl1 */
	case 0x134: return (int)((l + 1) & 63);           /* wave_rol1 */
	case 0x138: return l >= 1 ? (int)l - 1 : -1;      /* wave_shr1 */
	case 0x13c: return (int)((l + 63) & 63);          /* wave_ror1 */
	case 0x140: return (int)(r | (15 - i));           /* row_mirror */
	case 0x141: return (int)((l & ~7u) | (7 - (l & 7))); /* row_half_mirror */
	case 0x142: /* row_bcast15: lane 15 of the previous row to rows 1-3 */
		return r ? (int)(r - 1) : -1;
	case 0x143: /* row_bcast31: lane 31 to rows 2 and 3 */
		return l >= 32 ? 31 : -1;
	case 0x150: case 0x151: case 0x152: case 0x153: case 0x154: case 0x155: case 0x156:
	case 0x157: case 0x158: case 0x159: case 0x15a: case 0x15b: case 0x15c: case 0x15d:
	case 0x15e: case 0x15f: /* row_newbcast:n (gfx90a+): lane n of each row */
		return (int)(r | (ctrl & 15));
	default:
		return -2;
	}
}

static int exec_dpp(struct isa_wave *w, const struct isa_inst *in)
{
	struct isa_inst t = *in;
	uint32_t dp = in->sdwa, buf[ISA_LANES];
	unsigned tmp = w->p->alloc_rows - ISA_TMP_ROWS;
	unsigned ctrl = (dp >> 8) & 0x1ff, bound = (dp >> 19) & 1;
	unsigned bank_mask = (dp >> 24) & 15, row_mask = (dp >> 28) & 15;
	uint64_t exec = isa_exec(w), write = 0;
	const uint32_t *s = isa_vsrc32(w, &in->src[0], buf);
	const uint32_t *s_hi = in->aux == 2 ? isa_vrow(w, in->src[0].reg + 1u) : NULL;
	uint32_t *row = isa_vrow(w, tmp), *row_hi = isa_vrow(w, tmp + 1u);
	bool vopc = in->op <= 0xff;
	int r;

	for (unsigned l = 0; l < ISA_LANES; l++) {
		int from = dpp_source(ctrl, l);
		bool enabled = (row_mask >> (l / 16) & 1) && (bank_mask >> ((l / 4) & 3) & 1);
		if (from == -2)
			return isa_exec_illegal(w, in);
		row[l] = 0;
		if (s_hi)
			row_hi[l] = 0;
		if (!enabled)
			continue;
		if (from >= 0 && (exec >> from & 1)) {
			row[l] = s[from];
			if (s_hi)
				row_hi[l] = s_hi[from];
			write |= 1ull << l;
		} else if (bound) {
			write |= 1ull << l;
		}
	}
	t.src[0].kind = ISA_OPND_VGPR;
	t.src[0].reg = (uint16_t)tmp;
	/* run the operation for the written lanes only */
	isa_set_exec(w, exec & write);
	if (!vopc)
		t.dst = in->dst;
	r = in->inner(w, &t);
	isa_set_exec(w, exec);
	return r;
}

/* v_min3/max3/med3_i16/u16 (VOP3): OP_SEL bit i reads the high half of
 * source i; OP_SEL bit 3 writes the high half of D and keeps the low one,
 * otherwise the result is zero-extended into D (gfx9 16-bit ops, as
 * isa_exec_vf16). */
static int exec_v3_i16(struct isa_wave *w, const struct isa_inst *in)
{
	uint32_t t[3][ISA_LANES];
	const uint32_t *s[3];
	uint32_t *d = isa_vrow(w, in->dst);
	uint64_t exec = isa_exec(w);
	bool sgn = in->op == 0x1f5 || in->op == 0x1f8 || in->op == 0x1fb;

	for (unsigned i = 0; i < 3; i++)
		s[i] = isa_vsrc32(w, &in->src[i], t[i]);
	for (unsigned l = 0; l < ISA_LANES; l++) {
		int32_t v[3], lo, hi, r;
		if (!(exec >> l & 1))
			continue;
		for (unsigned i = 0; i < 3; i++) {
			uint32_t h = (s[i][l] >> ((in->opsel >> i & 1) ? 16 : 0)) & 0xffff;
			v[i] = sgn ? (int16_t)h : (int32_t)h;
		}
		lo = v[0] < v[1] ? v[0] : v[1];
		hi = v[0] > v[1] ? v[0] : v[1];
		switch (in->op) {
		case 0x1f5: case 0x1f6: r = lo < v[2] ? lo : v[2]; break;
		case 0x1f8: case 0x1f9: r = hi > v[2] ? hi : v[2]; break;
		default: /* med3: the larger of min(a, b) and min(max(a, b), c) */
			r = hi < v[2] ? hi : v[2];
			r = lo > r ? lo : r;
			break;
		}
		d[l] = (in->opsel & 8) ? (d[l] & 0xffff) | ((uint32_t)r << 16) : (uint32_t)r & 0xffff;
	}
	return ISA_STEP_NEXT;
}

/* ---- decode ---- */

enum { T_N = 0xff };

struct vclass {
	isa_exec_fn fn;
	uint8_t t[3];   /* enum isa_type per source, T_N = unused */
	bool vop3b;     /* VOP3 form has an SDST instead of abs/opsel */
};

static bool in_list(unsigned op, const uint16_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == op)
			return true;
	return false;
}

#define IN(op, ...) in_list(op, (const uint16_t[]){ __VA_ARGS__ }, \
			    sizeof((const uint16_t[]){ __VA_ARGS__ }) / sizeof(uint16_t))

static struct vclass classify_valu(unsigned op, bool gfx942)
{
	struct vclass c = { NULL, { T_N, T_N, T_N }, false };
	const uint8_t B = ISA_T_B32, F = ISA_T_F32, D = ISA_T_F64, Q = ISA_T_B64, H = ISA_T_F16;

	/* compares */
	if (op <= 0xff) {
		uint8_t t = B;
		if (op >= 0x10 && op <= 0x15)
			t = op <= 0x11 ? F : op <= 0x13 ? D : H;
		else if (op >= 0x20 && op <= 0x3f)
			t = H;
		else if (op >= 0x40 && op <= 0x5f)
			t = F;
		else if (op >= 0x60 && op <= 0x7f)
			t = D;
		else if (op >= 0xa0 && op <= 0xbf)
			t = ISA_T_B16;
		else if (op >= 0xe0)
			t = Q;
		else if (!(op >= 0xc0 && op <= 0xdf))
			return c;
		c.fn = exec_vcmp;
		c.t[0] = t;
		c.t[1] = (op >= 0x10 && op <= 0x15) ? B : t;
		return c;
	}
	if (IN(op, 0x106, 0x107, 0x108, 0x109, 0x10c, 0x10d, 0x10e, 0x10f, 0x110, 0x111, 0x112,
	       0x113, 0x114, 0x115, 0x13d, 0x134, 0x135, 0x136, 0x29c, 0x29d, 0x285, 0x286,
	       0x287, 0x28b, 0x28c, 0x28d, 0x293, 0x297, 0x298, 0x126, 0x127, 0x128, 0x129,
	       0x12a, 0x12b, 0x12c, 0x12f, 0x130, 0x131, 0x132, 0x29e, 0x29f)) {
		c.fn = exec_vb32; c.t[0] = B; c.t[1] = B;
		return c;
	}
	if (IN(op, 0x141, 0x16b, 0x16c, 0x16d, 0x16e, 0x16f, 0x18f, 0x14e)) {
		c.fn = exec_vb32; c.t[0] = B;
		return c;
	}
	if (op == 0x140) { /* v_nop: no operands */
		c.fn = exec_vb32;
		return c;
	}
	if (IN(op, 0x1cd, 0x1da, 0x1e4)) {
		c.fn = exec_vb32; c.t[0] = B; c.t[1] = B; c.t[2] = B;
		return c;
	}
	if (op == 0x13c) {
		c.fn = isa_exec_pk_f16; c.t[0] = H; c.t[1] = H;
		return c;
	}
	if (op == 0x138 || op == 0x139 || op == 0x13a) {
		/* v_dot2c_i32_i16, v_dot4c_i32_i8, v_dot8c_i32_i4: D += dot */
		c.fn = isa_exec_idot; c.t[0] = B; c.t[1] = B;
		return c;
	}
	if (op == 0x1dd) { /* S0 is a float: float inline constants */
		c.fn = exec_vb32; c.t[0] = F; c.t[1] = B; c.t[2] = B;
		return c;
	}
	if (op == 0x294 || op == 0x295) {
		c.fn = exec_vb32; c.t[0] = F; c.t[1] = F;
		return c;
	}
	if (IN(op, 0x1c2, 0x1c3, 0x1c8, 0x1c9, 0x1ca, 0x1ce, 0x1cf, 0x1d1, 0x1d2, 0x1d4, 0x1d5,
	       0x1d7, 0x1d8, 0x1ed, 0x1f3, 0x1fd, 0x1fe, 0x1ff, 0x200, 0x201, 0x202, 0x1f1,
	       0x1f2, 0x204, 0x205, 0x1d9, 0x1db, 0x1dc)) {
		c.fn = exec_vb32; c.t[0] = B; c.t[1] = B; c.t[2] = B;
		return c;
	}
	if (IN(op, 0x28f, 0x290, 0x291)) {
		c.fn = exec_vb64; c.t[0] = B; c.t[1] = Q;
		return c;
	}
	if (gfx942 && op == 0x178) {
		c.fn = exec_vb64; c.t[0] = Q;
		return c;
	}
	if (gfx942 && op == 0x208) {
		c.fn = exec_vb64; c.t[0] = Q; c.t[1] = B; c.t[2] = Q;
		return c;
	}
	if (op == 0x1e8 || op == 0x1e9) {
		c.fn = exec_mad64; c.t[0] = B; c.t[1] = B; c.t[2] = Q; c.vop3b = true;
		return c;
	}
	if (op >= 0x119 && op <= 0x11e) {
		c.fn = exec_carry; c.t[0] = B; c.t[1] = B; c.vop3b = true;
		if (op >= 0x11c)
			c.t[2] = Q;
		return c;
	}
	if (op == 0x100) {
		c.fn = exec_cndmask; c.t[0] = B; c.t[1] = B; c.t[2] = Q;
		return c;
	}
	if (op == 0x142) {
		c.fn = exec_readfirstlane; c.t[0] = B;
		return c;
	}
	if (op == 0x191) {
		c.fn = exec_swap; c.t[0] = B;
		return c;
	}
	if (IN(op, 0x11f, 0x120, 0x121, 0x122, 0x12d, 0x12e)) {
		c.fn = isa_exec_vf16; c.t[0] = H; c.t[1] = H;
		return c;
	}
	if (op == 0x133) {
		c.fn = isa_exec_vf16; c.t[0] = H; c.t[1] = ISA_T_B16;
		return c;
	}
	if (IN(op, 0x17d, 0x17e, 0x17f, 0x180, 0x181, 0x184, 0x185, 0x186, 0x187, 0x188,
	       0x17b, 0x17c, 0x182, 0x183, 0x189, 0x18a, 0x18d, 0x18e)) {
		c.fn = isa_exec_vf16; c.t[0] = H;
		return c;
	}
	if (op == 0x179 || op == 0x17a) { /* v_cvt_f16_u16 / i16 */
		c.fn = isa_exec_vf16; c.t[0] = ISA_T_B16;
		return c;
	}
	if (op == 0x299 || op == 0x29a) { /* v_cvt_pknorm_i16/u16_f16 */
		c.fn = isa_exec_vf16; c.t[0] = H; c.t[1] = H;
		return c;
	}
	if (op == 0x123 || op == 0x206 || op == 0x1f4 || op == 0x1f7 || op == 0x1fa || op == 0x203 ||
	    op == 0x207) {
		c.fn = isa_exec_vf16; c.t[0] = H; c.t[1] = H; c.t[2] = H;
		return c;
	}
	if (IN(op, 0x1f5, 0x1f6, 0x1f8, 0x1f9, 0x1fb, 0x1fc)) {
		c.fn = exec_v3_i16; c.t[0] = ISA_T_B16; c.t[1] = ISA_T_B16; c.t[2] = ISA_T_B16;
		return c;
	}
	if (op == 0x289 || op == 0x28a) {
		c.fn = op == 0x289 ? exec_readlane : exec_writelane; c.t[0] = B; c.t[1] = B;
		return c;
	}
	if (op == 0x1e0 || op == 0x1e1) {
		uint8_t t = op == 0x1e0 ? F : D;
		c.fn = isa_exec_div_scale; c.t[0] = t; c.t[1] = t; c.t[2] = t; c.vop3b = true;
		return c;
	}
	if (isa_vfp_supported(op, gfx942)) {
		/* float ops: operand types by opcode */
		static const uint16_t f64ops[] = { 0x284, 0x280, 0x281, 0x282, 0x283, 0x104, 0x1cc, 0x1df,
			0x1e3, 0x157, 0x158, 0x159, 0x15a, 0x165, 0x166, 0x168, 0x171, 0x172 };
		bool is64 = in_list(op, f64ops, sizeof(f64ops) / sizeof(f64ops[0]));
		uint8_t t = is64 ? D : F;
		c.fn = is64 ? isa_exec_vf64 : isa_exec_vf32;
		c.t[0] = t;
		if ((op >= 0x101 && op <= 0x105) || op == 0x10a || op == 0x10b || op == 0x116 ||
		    op == 0x13b || op == 0x280 || op == 0x281 || op == 0x282 || op == 0x283 ||
		    op == 0x2a1)
			c.t[1] = t;
		if (op == 0x288 || op == 0x284)      /* ldexp: S1 is an integer */
			c.t[1] = B;
		if (op == 0x116 || op == 0x13b || op == 0x104 || op == 0x1c0 || op == 0x1c1 ||
		    op == 0x1cb || op == 0x1cc || op == 0x1d0 || op == 0x1d3 || op == 0x1d6 ||
		    op == 0x1de || op == 0x1df || op == 0x1e2 || op == 0x1e3) {
			c.t[1] = t;
			c.t[2] = t;
		}
		return c;
	}
	/* conversions */
	switch (op) {
	case 0x143: case 0x14f: case 0x155: case 0x170: /* from f64 */
		c.fn = isa_exec_vcvt; c.t[0] = D; return c;
	case 0x144: case 0x145: case 0x146: case 0x151: case 0x152: case 0x153: case 0x154:
	case 0x156:
		c.fn = isa_exec_vcvt; c.t[0] = B; return c;
	case 0x147: case 0x148: case 0x14a: case 0x14c: case 0x14d: case 0x150: case 0x173:
		c.fn = isa_exec_vcvt; c.t[0] = F; return c;
	case 0x14b:
		c.fn = isa_exec_vcvt; c.t[0] = H; return c;
	case 0x296:
		c.fn = isa_exec_vcvt; c.t[0] = F; c.t[1] = F; return c;
	case 0x2a0:
		c.fn = isa_exec_vcvt; c.t[0] = H; c.t[1] = H; return c;
	case 0x292: /* v_trig_preop_f64 */
		c.fn = isa_exec_vf64; c.t[0] = D; c.t[1] = B; return c;
	default:
		break;
	}
	/* the rarer instructions (isa_exec_vextra.c) */
	c.fn = isa_valu_extra(op, gfx942, c.t);
	return c;
}

void kemu_isa_decode_valu(const struct isa_decoder *dc, struct isa_inst *in)
{
	uint32_t w0 = in->word[0], w1 = in->size > 4 ? in->word[1] : 0;
	unsigned op = 0, code[3] = { 0, 0, 0 }, nsrc = 0;
	unsigned abs = 0, neg = 0;
	struct vclass c;
	bool e32 = true;

	switch (in->enc) {
	case ISA_ENC_VOP2: {
		unsigned op2 = (w0 >> 25) & 0x3f;
		op = 0x100 + op2;
		in->dst = (w0 >> 17) & 0xff;
		code[0] = w0 & 0x1ff;
		code[1] = 256 + ((w0 >> 9) & 0xff);
		nsrc = 2;
		if (op2 == 0x16 && dc->gfx942)
			return; /* gfx942 has no v_mac_f32 */
		if (op2 == 0x17 || op2 == 0x18 || op2 == 0x24 || op2 == 0x25) {
			/* gfx942 v_fmamk/fmaak_f32 -> v_fma_f32; gfx90a
			 * v_madmk/madak_f32 -> v_mad_f32; v_madmk/madak_f16 ->
			 * v_mad_f16: K is the literal (its low half for f16) */
			unsigned k = ISA_SRC_LITERAL;
			op = op2 >= 0x24 ? 0x203 : dc->gfx942 ? 0x1cb : 0x1c1;
			if (op2 == 0x17 || op2 == 0x24) { /* mk: S0 * K + S1 */
				code[2] = code[1];
				code[1] = k;
			} else {
				code[2] = k;
			}
			nsrc = 3;
		}
		break;
	}
	case ISA_ENC_VOP1:
		if (((w0 >> 9) & 0xff) == 0x52) { /* v_accvgpr_mov_b32 */
			in->op = 0x192;
			kemu_isa_decode_accmov(dc, in);
			return;
		}
		op = 0x140 + ((w0 >> 9) & 0xff);
		in->dst = (w0 >> 17) & 0xff;
		code[0] = w0 & 0x1ff;
		nsrc = 1;
		break;
	case ISA_ENC_VOPC:
		op = (w0 >> 17) & 0xff;
		in->sdst = ISA_REG_VCC_LO;
		code[0] = w0 & 0x1ff;
		code[1] = 256 + ((w0 >> 9) & 0xff);
		nsrc = 2;
		break;
	case ISA_ENC_VOP3:
		e32 = false;
		op = (w0 >> 16) & 0x3ff;
		in->dst = w0 & 0xff;
		code[0] = w1 & 0x1ff;
		code[1] = (w1 >> 9) & 0x1ff;
		code[2] = (w1 >> 18) & 0x1ff;
		nsrc = 3;
		in->clamp = (w0 >> 15) & 1;
		in->omod = (w1 >> 27) & 3;
		neg = (w1 >> 29) & 7;
		break;
	default:
		return;
	}
	in->op = (uint16_t)op;
	c = classify_valu(op, dc->gfx942);
	if (!c.fn)
		return;
	if (in->enc == ISA_ENC_VOP3) {
		if (c.vop3b) {
			in->sdst = (w0 >> 8) & 0x7f;
		} else {
			abs = (w0 >> 8) & 7;
			in->opsel = (w0 >> 11) & 0xf;
		}
		if (op <= 0xff || op == 0x142 || op == 0x289) {
			in->sdst = w0 & 0xff; /* VOPC e64 / readlane: SGPR dest */
			in->dst = w0 & 0x7f;
		}
	}
	/* DPP and SDWA replace SRC0 from their control dword (SDWA also
	 * the scalar-ness of SRC0/SRC1). */
	if (e32 && code[0] == ISA_SRC_DPP) {
		uint32_t dp = w1;
		in->sdwa = dp;
		code[0] = (dp & 0xff) + ISA_SRC_VGPR0;
		/* SRC0_NEG [20], SRC0_ABS [21], SRC1_NEG [22], SRC1_ABS [23]:
		 * the VOP3 modifiers' meaning, for float sources only */
		for (unsigned i = 0; i < 2; i++) {
			unsigned m = (dp >> (20 + 2 * i)) & 3;
			if (!m)
				continue;
			if (i >= nsrc || (c.t[i] != ISA_T_F32 && c.t[i] != ISA_T_F16 && c.t[i] != ISA_T_F64))
				return;
			neg |= (m & 1) << i;
			abs |= (m >> 1 & 1) << i;
		}
	}
	if (e32 && code[0] == ISA_SRC_SDWA) {
		uint32_t sd = w1;
		in->sdwa = sd;
		code[0] = (sd & 0xff) + (((sd >> 23) & 1) ? 0 : ISA_SRC_VGPR0);
		if (nsrc >= 2 && in->enc != ISA_ENC_VOP1)
			code[1] = (code[1] & 0xff) + (((sd >> 31) & 1) ? 0 : ISA_SRC_VGPR0);
		if (in->enc == ISA_ENC_VOPC && ((sd >> 15) & 1))
			in->sdst = (sd >> 8) & 0x7f;
		/* VOPC (SDWAB): bits [15:8] are SDST and SD, there is no
		 * DST_SEL, CLAMP or OMOD */
		if ((in->enc != ISA_ENC_VOPC && (((sd >> 13) & 1) || ((sd >> 14) & 3))) ||
		    ((sd >> 20) & 3) || ((sd >> 28) & 3))
			return; /* SDWA clamp/omod/neg/abs: not implemented */
		if (code[0] == ISA_SRC_LITERAL)
			return;
	}
	for (unsigned i = 0; i < 3; i++) {
		if (i < nsrc && c.t[i] != T_N) {
			kemu_isa_opnd(&in->src[i], code[i], (enum isa_type)c.t[i], w1);
			in->src[i].abs = (abs >> i) & 1;
			in->src[i].neg = (neg >> i) & 1;
			if (in->src[i].kind == ISA_OPND_BAD)
				return;
			/* gfx9 VOP3 has no literal */
			if (!e32 && code[i] == ISA_SRC_LITERAL)
				return;
		}
	}
	/* implicit operands of the e32 forms */
	if (e32) {
		if (op == 0x100 || (op >= 0x11c && op <= 0x11e))
			kemu_isa_opnd(&in->src[2], ISA_REG_VCC_LO, ISA_T_B64, 0);
		if (op >= 0x119 && op <= 0x11e)
			in->sdst = ISA_REG_VCC_LO;
		if (op == 0x142) /* v_readfirstlane: vdst is an SGPR */
			in->dst = (w0 >> 17) & 0x7f;
	}
	if (op == 0x116 || op == 0x13b || op == 0x104) /* mac/fmac: accumulate into vdst */
		kemu_isa_opnd(&in->src[2], 256 + in->dst, op == 0x104 ? ISA_T_F64 : ISA_T_F32, 0);
	if (op == 0x123)
		kemu_isa_opnd(&in->src[2], 256 + in->dst, ISA_T_F16, 0);
	if (op == 0x13c) { /* v_pk_fmac_f16 (VOP2 only): D = S0 * S1 + D per half */
		if (in->enc != ISA_ENC_VOP2 || (w0 & 0x1ff) == ISA_SRC_DPP || (w0 & 0x1ff) == ISA_SRC_SDWA)
			return;
		kemu_isa_opnd(&in->src[2], 256 + in->dst, ISA_T_F16, 0);
		in->opsel_hi = 7; /* each half from the same half */
	}
	if (op == 0x138 || op == 0x139 || op == 0x13a) { /* dot*c: accumulate into vdst */
		if (abs || neg || in->omod)
			return;
		kemu_isa_opnd(&in->src[2], 256 + in->dst, ISA_T_B32, 0);
		in->aux = op == 0x138 ? 0 : op == 0x139 ? 2 : 4;
	}
	if (op == 0x28a && in->enc == ISA_ENC_VOP3)
		in->dst = w0 & 0xff;
	/* float modifiers of conversions in the integer table: S0 (and S1)
	 * ABS/NEG of v_cvt_pk_u8_f32 / v_cvt_pknorm_*_f32, OMOD/CLAMP of
	 * v_cvt_off_f32_i4 (isa_exec_vextra.c) */
	if (!e32 && ((op == 0x14e && (in->omod || in->clamp) && !abs && !neg) ||
		     (op == 0x1dd && !in->omod && !in->clamp && !((abs | neg) & ~1u)) ||
		     ((op == 0x294 || op == 0x295) && !in->omod && !in->clamp &&
		      !((abs | neg) & ~3u))) &&
	    (abs || neg || in->omod || in->clamp)) {
		in->inner = c.fn;
		in->exec = isa_exec_vcvt_mods;
		return;
	}
	if ((c.fn == exec_v3_i16 || IN(op, 0x18f, 0x14e, 0x1cd, 0x1da, 0x1e4, 0x1dd, 0x294, 0x295)) &&
	    (abs || neg || in->omod))
		return; /* integer operands (and these conversions): no modifiers modelled */
	if (op == 0x191 && (in->enc != ISA_ENC_VOP1 || in->src[0].kind != ISA_OPND_VGPR))
		return; /* v_swap_b32 exists only as VOP1 on two VGPRs */
	in->exec = c.fn;
	if (c.fn == isa_exec_vf32 && isa_vf32_fast_ok(in))
		in->exec = isa_exec_vf32_fast; /* DPP/SDWA below keep c.fn inner */
	/* the specialised executors (isa_exec_vfast.c); DPP/SDWA below keep
	 * exec_vb32 as their inner executor */
	if (c.fn == exec_vb32 || c.fn == exec_carry || c.fn == exec_vcmp ||
	    c.fn == isa_exec_vf32 || c.fn == exec_cndmask)
		isa_vfast_pick(in);
	else if (c.fn == isa_exec_vf64 || c.fn == isa_exec_div_scale || c.fn == exec_vb64)
		isa_vfast64_pick(in);
	if ((c.fn == exec_vcmp || c.fn == isa_exec_vcvt) && in->exec == c.fn)
		isa_vfast64_pick(in); /* the f64 compares and class, i32/u32 -> f64 */
	if (e32 && (w0 & 0x1ff) == ISA_SRC_DPP) {
		/* gfx9 has no VOPC DPP; v_readfirstlane has no vector result */
		if (op <= 0xff || op == 0x142)
			in->exec = isa_exec_illegal;
		else {
			in->inner = c.fn;
			in->exec = exec_dpp;
			/* a 64-bit SRC0 is permuted as a register pair; LLVM
			 * accepts only row_newbcast for it (the "DP ALU" DPP) */
			in->aux = (c.t[0] == ISA_T_F64 || c.t[0] == ISA_T_B64) ? 2 : 1;
			if (in->aux == 2 && (((in->sdwa >> 8) & 0x1ff) & ~15u) != 0x150)
				in->exec = isa_exec_illegal;
		}
	}
	if (e32 && (w0 & 0x1ff) == ISA_SRC_SDWA) {
		/* v_cndmask and the carry ops select their operands like any
		 * other (VCC, in and out, is the whole mask); mac/fmac and
		 * dot*c (the accumulator is D under DST_SEL) and 64-bit ones:
		 * not implemented */
		if (op == 0x116 || op == 0x13b || op == 0x104 || (op >= 0x138 && op <= 0x13a) ||
		    c.fn == isa_exec_vf64 || (c.t[0] == ISA_T_B64))
			in->exec = isa_exec_illegal;
		else if (op == 0x196 || op == 0x197)
			in->exec = c.fn; /* a pair result: SRC0_SEL is read by the executor */
		else {
			in->inner = c.fn;
			in->exec = exec_sdwa;
		}
	}
}
