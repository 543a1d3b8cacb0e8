/*
 * isa_float.h — bit-exact float helpers shared by the VALU executors:
 * bit casts, denormal flushing, IEEE classification, and the conversions
 * whose out-of-range behaviour the ISA defines (C leaves float->int casts
 * out of range undefined, so every one goes through these).
 *
 * The host must compute IEEE binary32/binary64 with round-to-nearest-even
 * and no flush-to-zero (x86-64 SSE2 defaults); the interpreter never
 * changes the host's floating-point environment.
 */
#ifndef KEMU_ISA_FLOAT_H
#define KEMU_ISA_FLOAT_H

#include <math.h>
#include <stdint.h>
#include <string.h>

static inline float f32_of(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}
static inline uint32_t u32_of(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}
static inline double f64_of(uint64_t u)
{
	double f;
	memcpy(&f, &u, 8);
	return f;
}
static inline uint64_t u64_of(double f)
{
	uint64_t u;
	memcpy(&u, &f, 8);
	return u;
}

/* A denormal becomes a zero of the same sign. */
static inline uint32_t flush32(uint32_t u)
{
	return (u & 0x7f800000u) == 0 ? (u & 0x80000000u) : u;
}
static inline uint64_t flush64(uint64_t u)
{
	return (u & 0x7ff0000000000000ull) == 0 ? (u & 0x8000000000000000ull) : u;
}

static inline int is_snan32(uint32_t u)
{
	return (u & 0x7f800000u) == 0x7f800000u && (u & 0x7fffff) && !(u & 0x400000);
}
static inline int is_snan64(uint64_t u)
{
	return (u & 0x7ff0000000000000ull) == 0x7ff0000000000000ull &&
	       (u & 0xfffffffffffffull) && !(u & 0x8000000000000ull);
}

/* Float -> integer with the ISA's rules: NaN -> 0, saturate to the range,
 * round toward zero (callers apply floor/round first where needed). */
static inline int32_t cvt_i32_f64(double x)
{
	if (isnan(x))
		return 0;
	if (x >= 2147483647.0)
		return INT32_MAX;
	if (x <= -2147483648.0)
		return INT32_MIN;
	return (int32_t)x;
}
static inline uint32_t cvt_u32_f64(double x)
{
	if (isnan(x) || x <= 0.0)
		return 0;
	if (x >= 4294967295.0)
		return UINT32_MAX;
	return (uint32_t)x;
}

/* IEEE binary16 <-> binary32, round to nearest even. */
static inline float f16_to_f32(uint16_t h)
{
	uint32_t s = (uint32_t)(h & 0x8000) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff;
	if (e == 0x1f)
		return f32_of(s | 0x7f800000u | (m << 13));
	if (e == 0) {
		float f = (float)m * 0x1p-24f; /* exact */
		return s ? -f : f;
	}
	return f32_of(s | ((e + 112) << 23) | (m << 13));
}
static inline uint16_t f32_to_f16(float f)
{
	uint32_t u = u32_of(f), s = (u >> 16) & 0x8000;
	uint32_t e = (u >> 23) & 0xff, m = u & 0x7fffff;
	int32_t ne;

	if (e == 0xff)
		return (uint16_t)(s | 0x7c00 | (m ? 0x200 | (m >> 13) : 0));
	ne = (int32_t)e - 127 + 15;
	if (ne >= 0x1f)
		return (uint16_t)(s | 0x7c00);
	if (ne <= 0) {
		/* denormal or zero in f16: value = mant * 2^-24 */
		uint32_t full, shift, r, half;
		if (ne < -10)
			return (uint16_t)s;
		full = m | 0x800000;
		shift = (uint32_t)(14 - ne);
		r = full >> shift;
		half = 1u << (shift - 1);
		if ((full & ((1u << shift) - 1)) > half ||
		    ((full & ((1u << shift) - 1)) == half && (r & 1)))
			r++;
		return (uint16_t)(s | r);
	}
	{
		uint32_t r = ((uint32_t)ne << 10) | (m >> 13);
		uint32_t rest = m & 0x1fff;
		if (rest > 0x1000 || (rest == 0x1000 && (r & 1)))
			r++; /* may carry into the exponent, up to infinity: correct */
		return (uint16_t)(s | r);
	}
}

/* binary32 -> bfloat16 (the high half), round to nearest even; a NaN
 * stays a NaN, quieted. */
static inline uint16_t kemu_isa_bf16_of(float f)
{
	uint32_t u = u32_of(f);
	if ((u & 0x7fffffffu) > 0x7f800000u)
		return (uint16_t)((u >> 16) | 0x40);
	return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1)) >> 16);
}

#endif /* KEMU_ISA_FLOAT_H */
