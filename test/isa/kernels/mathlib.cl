/*
 * mathlib.cl — OpenCL math-library calls (rocm-device-libs: opencl.bc
 * over ocml.bc) on float and double, one kernel per function and type.
 * Built by clang-19 with the device libraries linked in (see
 * test/isa/CMakeLists.txt); test_isa_mathlib.c compares every result
 * with the host libm under the OpenCL C full-profile ULP bounds.
 *
 * Every kernel guards with n so a grid rounded up to whole workgroups
 * and a grid ending in a partial workgroup both work.
 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define UN(name, T, sfx, expr)                                                   \
	kernel void name##_##sfx(global const T *a, global T *r, uint n)          \
	{                                                                         \
		size_t i = get_global_id(0);                                      \
		if (i < n) {                                                      \
			T x = a[i];                                               \
			r[i] = expr;                                              \
		}                                                                 \
	}
#define BIN(name, T, sfx, expr)                                                  \
	kernel void name##_##sfx(global const T *a, global const T *b, global T *r, \
				 uint n)                                          \
	{                                                                         \
		size_t i = get_global_id(0);                                      \
		if (i < n) {                                                      \
			T x = a[i], y = b[i];                                     \
			r[i] = expr;                                              \
		}                                                                 \
	}
#define TER(name, T, sfx, expr)                                                  \
	kernel void name##_##sfx(global const T *a, global const T *b,            \
				 global const T *c, global T *r, uint n)          \
	{                                                                         \
		size_t i = get_global_id(0);                                      \
		if (i < n) {                                                      \
			T x = a[i], y = b[i], z = c[i];                           \
			r[i] = expr;                                              \
		}                                                                 \
	}

#define BOTH_UN(name) UN(name, float, f32, name(x)) UN(name, double, f64, name(x))
#define BOTH_BIN(name) BIN(name, float, f32, name(x, y)) BIN(name, double, f64, name(x, y))

BOTH_UN(sin)
BOTH_UN(cos)
BOTH_UN(tan)
BOTH_UN(exp)
BOTH_UN(exp2)
BOTH_UN(log)
BOTH_UN(log2)
BOTH_UN(sqrt)
BOTH_UN(rsqrt)
BOTH_UN(sinh)
BOTH_UN(tanh)
BOTH_UN(erf)
BOTH_UN(cbrt)
BOTH_UN(floor)
BOTH_UN(ceil)
BOTH_UN(rint)
BOTH_BIN(pow)
BOTH_BIN(atan2)
BOTH_BIN(fmod)
BIN(div, float, f32, x / y)
BIN(div, double, f64, x / y)
TER(fma, float, f32, fma(x, y, z))
TER(fma, double, f64, fma(x, y, z))

/* ldexp(x, k) with k an int; frexp returns the mantissa and stores the
 * exponent. */
#define LDEXP_FREXP(T, sfx)                                                      \
	kernel void ldexp_##sfx(global const T *a, global const int *k, global T *r, \
				uint n)                                           \
	{                                                                         \
		size_t i = get_global_id(0);                                      \
		if (i < n)                                                        \
			r[i] = ldexp(a[i], k[i]);                                 \
	}                                                                         \
	kernel void frexp_##sfx(global const T *a, global T *r, global int *e,    \
				uint n)                                           \
	{                                                                         \
		size_t i = get_global_id(0);                                      \
		if (i < n) {                                                      \
			int ex;                                                   \
			r[i] = frexp(a[i], &ex);                                  \
			e[i] = ex;                                                \
		}                                                                 \
	}
LDEXP_FREXP(float, f32)
LDEXP_FREXP(double, f64)
