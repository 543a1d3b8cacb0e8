/*
 * amd_hsa_common.h - helpers shared by the amd_hsa_* layout headers.
 *
 * Bit fields of AMD hardware words (queue properties, kernel code
 * properties, compute_pgm_rsrc*) are described by enums: for a field NAME
 * at bit SHIFT, WIDTH bits wide, the enum holds NAME_SHIFT, NAME_WIDTH and
 * NAME itself as the in-place mask.  AMD_HSA_BITS_GET/SET read and write a
 * field through its mask.  The names and semantics are what ROCr clients
 * use; the definitions are ours.
 */
#ifndef AMD_HSA_COMMON_H
#define AMD_HSA_COMMON_H

#include <stddef.h>
#include <stdint.h>

/* The AMD HSA ABI revision these layouts come from. */
#define AMD_HSA_ABI_VERSION "AMD GPU Architecture v0.35 (June 25, 2015)"

/* Alignment attribute for the 64-byte aligned hardware-shared structs. */
#ifndef __ALIGNED__
#if defined(__GNUC__)
#define __ALIGNED__(x) __attribute__((aligned(x)))
#elif defined(_MSC_VER)
#define __ALIGNED__(x) __declspec(align(x))
#else
#error "amd_hsa_common.h: no alignment attribute known for this compiler"
#endif
#endif

/*
 * Enumerators for one bit field.  The mask is computed in unsigned
 * arithmetic and converted to int, so a field reaching bit 31 yields the
 * same (negative) enumerator value as ROCr's header without a signed
 * overflow in the constant expression.
 */
#define AMD_HSA_BITS_CREATE_ENUM_ENTRIES(name, shift, width)                 \
	name##_SHIFT = (shift),                                              \
	name##_WIDTH = (width),                                              \
	name = (int)(((1u << (width)) - 1u) << (shift))

/* Value of the field whose mask enumerator is mask, read from src. */
#define AMD_HSA_BITS_GET(src, mask) (((src) & (mask)) >> mask##_SHIFT)

/* Replace the field whose mask enumerator is mask in dst by val. */
#define AMD_HSA_BITS_SET(dst, mask, val) \
	((dst) = ((dst) & ~(mask)) | (((val) << mask##_SHIFT) & (mask)))

#endif /* AMD_HSA_COMMON_H */
