/*
 * test_isa_mem.c — the GLOBAL, FLAT and MUBUF loads, stores and atomics
 * against a host model of the memory: every form LLVM decodes for gfx90a
 * (byte/short with sign or zero extension and their d16/d16_hi halves,
 * dword to dwordx4, the 32- and 64-bit integer atomics, add_f32,
 * pk_add_f16, add/min/max_f64, and the typed format loads and stores of
 * MUBUF (the V#'s one-component f32 format, d16 and d16_hi_x included)
 * and MTBUF (the same format given in the instruction)), atomics with
 * and without a returned value; and the SCRATCH loads and stores on each
 * lane's private memory (kernels/scratch.s).  kernels/mem.s holds one kernel per row of the table below
 * (generated together); each lane works on its own 16 bytes of memory,
 * so the result does not depend on lane order, and both the registers and
 * the memory afterwards are compared with the model.
 *
 * Rules modelled (CDNA2 guide, "Vector Memory"): sub-dword loads zero- or
 * sign-extend; the d16 loads write the low (d16) or high (d16_hi) half of
 * the register and keep the other; the d16_hi stores take the high half;
 * atomics return the old value with GLC; inc wraps to 0 past the data,
 * dec wraps to the data at 0 or above it; cmpswap takes {data, compare};
 * the float atomics round to nearest even (pk_add_f16 per half).
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hl_check.h"
#include "isa_harness.h"

struct mform {
	const char *kernel, *name;
	int rtn;                /* atomics: GLC, the old value returned */
	unsigned off;           /* immediate offset */
};

static const struct mform mforms[] = {
	{ "k_buffer_atomic_add_rtn", "buffer_atomic_add", 1, 0 },
	{ "k_buffer_atomic_add", "buffer_atomic_add", 0, 0 },
	{ "k_buffer_atomic_add_f32_rtn", "buffer_atomic_add_f32", 1, 0 },
	{ "k_buffer_atomic_add_f32", "buffer_atomic_add_f32", 0, 0 },
	{ "k_buffer_atomic_add_f64_rtn", "buffer_atomic_add_f64", 1, 0 },
	{ "k_buffer_atomic_add_f64", "buffer_atomic_add_f64", 0, 0 },
	{ "k_buffer_atomic_add_x2_rtn", "buffer_atomic_add_x2", 1, 0 },
	{ "k_buffer_atomic_add_x2", "buffer_atomic_add_x2", 0, 0 },
	{ "k_buffer_atomic_and_rtn", "buffer_atomic_and", 1, 0 },
	{ "k_buffer_atomic_and", "buffer_atomic_and", 0, 0 },
	{ "k_buffer_atomic_and_x2_rtn", "buffer_atomic_and_x2", 1, 0 },
	{ "k_buffer_atomic_and_x2", "buffer_atomic_and_x2", 0, 0 },
	{ "k_buffer_atomic_cmpswap_rtn", "buffer_atomic_cmpswap", 1, 0 },
	{ "k_buffer_atomic_cmpswap", "buffer_atomic_cmpswap", 0, 0 },
	{ "k_buffer_atomic_cmpswap_x2_rtn", "buffer_atomic_cmpswap_x2", 1, 0 },
	{ "k_buffer_atomic_cmpswap_x2", "buffer_atomic_cmpswap_x2", 0, 0 },
	{ "k_buffer_atomic_dec_rtn", "buffer_atomic_dec", 1, 0 },
	{ "k_buffer_atomic_dec", "buffer_atomic_dec", 0, 0 },
	{ "k_buffer_atomic_dec_x2_rtn", "buffer_atomic_dec_x2", 1, 0 },
	{ "k_buffer_atomic_dec_x2", "buffer_atomic_dec_x2", 0, 0 },
	{ "k_buffer_atomic_inc_rtn", "buffer_atomic_inc", 1, 0 },
	{ "k_buffer_atomic_inc", "buffer_atomic_inc", 0, 0 },
	{ "k_buffer_atomic_inc_x2_rtn", "buffer_atomic_inc_x2", 1, 0 },
	{ "k_buffer_atomic_inc_x2", "buffer_atomic_inc_x2", 0, 0 },
	{ "k_buffer_atomic_max_f64_rtn", "buffer_atomic_max_f64", 1, 0 },
	{ "k_buffer_atomic_max_f64", "buffer_atomic_max_f64", 0, 0 },
	{ "k_buffer_atomic_min_f64_rtn", "buffer_atomic_min_f64", 1, 0 },
	{ "k_buffer_atomic_min_f64", "buffer_atomic_min_f64", 0, 0 },
	{ "k_buffer_atomic_or_rtn", "buffer_atomic_or", 1, 0 },
	{ "k_buffer_atomic_or", "buffer_atomic_or", 0, 0 },
	{ "k_buffer_atomic_or_x2_rtn", "buffer_atomic_or_x2", 1, 0 },
	{ "k_buffer_atomic_or_x2", "buffer_atomic_or_x2", 0, 0 },
	{ "k_buffer_atomic_pk_add_f16_rtn", "buffer_atomic_pk_add_f16", 1, 0 },
	{ "k_buffer_atomic_pk_add_f16", "buffer_atomic_pk_add_f16", 0, 0 },
	{ "k_buffer_atomic_smax_rtn", "buffer_atomic_smax", 1, 0 },
	{ "k_buffer_atomic_smax", "buffer_atomic_smax", 0, 0 },
	{ "k_buffer_atomic_smax_x2_rtn", "buffer_atomic_smax_x2", 1, 0 },
	{ "k_buffer_atomic_smax_x2", "buffer_atomic_smax_x2", 0, 0 },
	{ "k_buffer_atomic_smin_rtn", "buffer_atomic_smin", 1, 0 },
	{ "k_buffer_atomic_smin", "buffer_atomic_smin", 0, 0 },
	{ "k_buffer_atomic_smin_x2_rtn", "buffer_atomic_smin_x2", 1, 0 },
	{ "k_buffer_atomic_smin_x2", "buffer_atomic_smin_x2", 0, 0 },
	{ "k_buffer_atomic_sub_rtn", "buffer_atomic_sub", 1, 0 },
	{ "k_buffer_atomic_sub", "buffer_atomic_sub", 0, 0 },
	{ "k_buffer_atomic_sub_x2_rtn", "buffer_atomic_sub_x2", 1, 0 },
	{ "k_buffer_atomic_sub_x2", "buffer_atomic_sub_x2", 0, 0 },
	{ "k_buffer_atomic_swap_rtn", "buffer_atomic_swap", 1, 0 },
	{ "k_buffer_atomic_swap", "buffer_atomic_swap", 0, 0 },
	{ "k_buffer_atomic_swap_x2_rtn", "buffer_atomic_swap_x2", 1, 0 },
	{ "k_buffer_atomic_swap_x2", "buffer_atomic_swap_x2", 0, 0 },
	{ "k_buffer_atomic_umax_rtn", "buffer_atomic_umax", 1, 0 },
	{ "k_buffer_atomic_umax", "buffer_atomic_umax", 0, 0 },
	{ "k_buffer_atomic_umax_x2_rtn", "buffer_atomic_umax_x2", 1, 0 },
	{ "k_buffer_atomic_umax_x2", "buffer_atomic_umax_x2", 0, 0 },
	{ "k_buffer_atomic_umin_rtn", "buffer_atomic_umin", 1, 0 },
	{ "k_buffer_atomic_umin", "buffer_atomic_umin", 0, 0 },
	{ "k_buffer_atomic_umin_x2_rtn", "buffer_atomic_umin_x2", 1, 0 },
	{ "k_buffer_atomic_umin_x2", "buffer_atomic_umin_x2", 0, 0 },
	{ "k_buffer_atomic_xor_rtn", "buffer_atomic_xor", 1, 0 },
	{ "k_buffer_atomic_xor", "buffer_atomic_xor", 0, 0 },
	{ "k_buffer_atomic_xor_x2_rtn", "buffer_atomic_xor_x2", 1, 0 },
	{ "k_buffer_atomic_xor_x2", "buffer_atomic_xor_x2", 0, 0 },
	{ "k_buffer_load_dword", "buffer_load_dword", 0, 0 },
	{ "k_buffer_load_dwordx2", "buffer_load_dwordx2", 0, 0 },
	{ "k_buffer_load_dwordx3", "buffer_load_dwordx3", 0, 0 },
	{ "k_buffer_load_dwordx4", "buffer_load_dwordx4", 0, 0 },
	{ "k_buffer_load_format_d16_hi_x", "buffer_load_format_d16_hi_x", 0, 4 },
	{ "k_buffer_load_format_d16_x", "buffer_load_format_d16_x", 0, 4 },
	{ "k_buffer_load_format_d16_xy", "buffer_load_format_d16_xy", 0, 4 },
	{ "k_buffer_load_format_d16_xyz", "buffer_load_format_d16_xyz", 0, 4 },
	{ "k_buffer_load_format_d16_xyzw", "buffer_load_format_d16_xyzw", 0, 4 },
	{ "k_buffer_load_format_x", "buffer_load_format_x", 0, 4 },
	{ "k_buffer_load_format_xy", "buffer_load_format_xy", 0, 4 },
	{ "k_buffer_load_format_xyz", "buffer_load_format_xyz", 0, 4 },
	{ "k_buffer_load_format_xyzw", "buffer_load_format_xyzw", 0, 4 },
	{ "k_buffer_load_sbyte", "buffer_load_sbyte", 0, 1 },
	{ "k_buffer_load_sbyte_d16", "buffer_load_sbyte_d16", 0, 1 },
	{ "k_buffer_load_sbyte_d16_hi", "buffer_load_sbyte_d16_hi", 0, 1 },
	{ "k_buffer_load_short_d16", "buffer_load_short_d16", 0, 2 },
	{ "k_buffer_load_short_d16_hi", "buffer_load_short_d16_hi", 0, 2 },
	{ "k_buffer_load_sshort", "buffer_load_sshort", 0, 2 },
	{ "k_buffer_load_ubyte", "buffer_load_ubyte", 0, 1 },
	{ "k_buffer_load_ubyte_d16", "buffer_load_ubyte_d16", 0, 1 },
	{ "k_buffer_load_ubyte_d16_hi", "buffer_load_ubyte_d16_hi", 0, 1 },
	{ "k_buffer_load_ushort", "buffer_load_ushort", 0, 2 },
	{ "k_buffer_store_byte", "buffer_store_byte", 0, 3 },
	{ "k_buffer_store_byte_d16_hi", "buffer_store_byte_d16_hi", 0, 3 },
	{ "k_buffer_store_dword", "buffer_store_dword", 0, 0 },
	{ "k_buffer_store_dwordx2", "buffer_store_dwordx2", 0, 0 },
	{ "k_buffer_store_dwordx3", "buffer_store_dwordx3", 0, 0 },
	{ "k_buffer_store_dwordx4", "buffer_store_dwordx4", 0, 0 },
	{ "k_buffer_store_format_d16_hi_x", "buffer_store_format_d16_hi_x", 0, 4 },
	{ "k_buffer_store_format_d16_x", "buffer_store_format_d16_x", 0, 4 },
	{ "k_buffer_store_format_d16_xy", "buffer_store_format_d16_xy", 0, 4 },
	{ "k_buffer_store_format_d16_xyz", "buffer_store_format_d16_xyz", 0, 4 },
	{ "k_buffer_store_format_d16_xyzw", "buffer_store_format_d16_xyzw", 0, 4 },
	{ "k_buffer_store_format_x", "buffer_store_format_x", 0, 4 },
	{ "k_buffer_store_format_xy", "buffer_store_format_xy", 0, 4 },
	{ "k_buffer_store_format_xyz", "buffer_store_format_xyz", 0, 4 },
	{ "k_buffer_store_format_xyzw", "buffer_store_format_xyzw", 0, 4 },
	{ "k_buffer_store_short", "buffer_store_short", 0, 2 },
	{ "k_buffer_store_short_d16_hi", "buffer_store_short_d16_hi", 0, 2 },
	{ "k_flat_atomic_add_rtn", "flat_atomic_add", 1, 0 },
	{ "k_flat_atomic_add", "flat_atomic_add", 0, 0 },
	{ "k_flat_atomic_add_f64_rtn", "flat_atomic_add_f64", 1, 0 },
	{ "k_flat_atomic_add_f64", "flat_atomic_add_f64", 0, 0 },
	{ "k_flat_atomic_add_x2_rtn", "flat_atomic_add_x2", 1, 0 },
	{ "k_flat_atomic_add_x2", "flat_atomic_add_x2", 0, 0 },
	{ "k_flat_atomic_and_rtn", "flat_atomic_and", 1, 0 },
	{ "k_flat_atomic_and", "flat_atomic_and", 0, 0 },
	{ "k_flat_atomic_and_x2_rtn", "flat_atomic_and_x2", 1, 0 },
	{ "k_flat_atomic_and_x2", "flat_atomic_and_x2", 0, 0 },
	{ "k_flat_atomic_cmpswap_rtn", "flat_atomic_cmpswap", 1, 0 },
	{ "k_flat_atomic_cmpswap", "flat_atomic_cmpswap", 0, 0 },
	{ "k_flat_atomic_cmpswap_x2_rtn", "flat_atomic_cmpswap_x2", 1, 0 },
	{ "k_flat_atomic_cmpswap_x2", "flat_atomic_cmpswap_x2", 0, 0 },
	{ "k_flat_atomic_dec_rtn", "flat_atomic_dec", 1, 0 },
	{ "k_flat_atomic_dec", "flat_atomic_dec", 0, 0 },
	{ "k_flat_atomic_dec_x2_rtn", "flat_atomic_dec_x2", 1, 0 },
	{ "k_flat_atomic_dec_x2", "flat_atomic_dec_x2", 0, 0 },
	{ "k_flat_atomic_inc_rtn", "flat_atomic_inc", 1, 0 },
	{ "k_flat_atomic_inc", "flat_atomic_inc", 0, 0 },
	{ "k_flat_atomic_inc_x2_rtn", "flat_atomic_inc_x2", 1, 0 },
	{ "k_flat_atomic_inc_x2", "flat_atomic_inc_x2", 0, 0 },
	{ "k_flat_atomic_max_f64_rtn", "flat_atomic_max_f64", 1, 0 },
	{ "k_flat_atomic_max_f64", "flat_atomic_max_f64", 0, 0 },
	{ "k_flat_atomic_min_f64_rtn", "flat_atomic_min_f64", 1, 0 },
	{ "k_flat_atomic_min_f64", "flat_atomic_min_f64", 0, 0 },
	{ "k_flat_atomic_or_rtn", "flat_atomic_or", 1, 0 },
	{ "k_flat_atomic_or", "flat_atomic_or", 0, 0 },
	{ "k_flat_atomic_or_x2_rtn", "flat_atomic_or_x2", 1, 0 },
	{ "k_flat_atomic_or_x2", "flat_atomic_or_x2", 0, 0 },
	{ "k_flat_atomic_smax_rtn", "flat_atomic_smax", 1, 0 },
	{ "k_flat_atomic_smax", "flat_atomic_smax", 0, 0 },
	{ "k_flat_atomic_smax_x2_rtn", "flat_atomic_smax_x2", 1, 0 },
	{ "k_flat_atomic_smax_x2", "flat_atomic_smax_x2", 0, 0 },
	{ "k_flat_atomic_smin_rtn", "flat_atomic_smin", 1, 0 },
	{ "k_flat_atomic_smin", "flat_atomic_smin", 0, 0 },
	{ "k_flat_atomic_smin_x2_rtn", "flat_atomic_smin_x2", 1, 0 },
	{ "k_flat_atomic_smin_x2", "flat_atomic_smin_x2", 0, 0 },
	{ "k_flat_atomic_sub_rtn", "flat_atomic_sub", 1, 0 },
	{ "k_flat_atomic_sub", "flat_atomic_sub", 0, 0 },
	{ "k_flat_atomic_sub_x2_rtn", "flat_atomic_sub_x2", 1, 0 },
	{ "k_flat_atomic_sub_x2", "flat_atomic_sub_x2", 0, 0 },
	{ "k_flat_atomic_swap_rtn", "flat_atomic_swap", 1, 0 },
	{ "k_flat_atomic_swap", "flat_atomic_swap", 0, 0 },
	{ "k_flat_atomic_swap_x2_rtn", "flat_atomic_swap_x2", 1, 0 },
	{ "k_flat_atomic_swap_x2", "flat_atomic_swap_x2", 0, 0 },
	{ "k_flat_atomic_umax_rtn", "flat_atomic_umax", 1, 0 },
	{ "k_flat_atomic_umax", "flat_atomic_umax", 0, 0 },
	{ "k_flat_atomic_umax_x2_rtn", "flat_atomic_umax_x2", 1, 0 },
	{ "k_flat_atomic_umax_x2", "flat_atomic_umax_x2", 0, 0 },
	{ "k_flat_atomic_umin_rtn", "flat_atomic_umin", 1, 0 },
	{ "k_flat_atomic_umin", "flat_atomic_umin", 0, 0 },
	{ "k_flat_atomic_umin_x2_rtn", "flat_atomic_umin_x2", 1, 0 },
	{ "k_flat_atomic_umin_x2", "flat_atomic_umin_x2", 0, 0 },
	{ "k_flat_atomic_xor_rtn", "flat_atomic_xor", 1, 0 },
	{ "k_flat_atomic_xor", "flat_atomic_xor", 0, 0 },
	{ "k_flat_atomic_xor_x2_rtn", "flat_atomic_xor_x2", 1, 0 },
	{ "k_flat_atomic_xor_x2", "flat_atomic_xor_x2", 0, 0 },
	{ "k_flat_load_dword", "flat_load_dword", 0, 0 },
	{ "k_flat_load_dwordx2", "flat_load_dwordx2", 0, 0 },
	{ "k_flat_load_dwordx3", "flat_load_dwordx3", 0, 0 },
	{ "k_flat_load_dwordx4", "flat_load_dwordx4", 0, 0 },
	{ "k_flat_load_sbyte", "flat_load_sbyte", 0, 1 },
	{ "k_flat_load_sbyte_d16", "flat_load_sbyte_d16", 0, 1 },
	{ "k_flat_load_sbyte_d16_hi", "flat_load_sbyte_d16_hi", 0, 1 },
	{ "k_flat_load_short_d16", "flat_load_short_d16", 0, 2 },
	{ "k_flat_load_short_d16_hi", "flat_load_short_d16_hi", 0, 2 },
	{ "k_flat_load_sshort", "flat_load_sshort", 0, 2 },
	{ "k_flat_load_ubyte", "flat_load_ubyte", 0, 1 },
	{ "k_flat_load_ubyte_d16", "flat_load_ubyte_d16", 0, 1 },
	{ "k_flat_load_ubyte_d16_hi", "flat_load_ubyte_d16_hi", 0, 1 },
	{ "k_flat_load_ushort", "flat_load_ushort", 0, 2 },
	{ "k_flat_store_byte", "flat_store_byte", 0, 3 },
	{ "k_flat_store_byte_d16_hi", "flat_store_byte_d16_hi", 0, 3 },
	{ "k_flat_store_dword", "flat_store_dword", 0, 0 },
	{ "k_flat_store_dwordx2", "flat_store_dwordx2", 0, 0 },
	{ "k_flat_store_dwordx3", "flat_store_dwordx3", 0, 0 },
	{ "k_flat_store_dwordx4", "flat_store_dwordx4", 0, 0 },
	{ "k_flat_store_short", "flat_store_short", 0, 2 },
	{ "k_flat_store_short_d16_hi", "flat_store_short_d16_hi", 0, 2 },
	{ "k_global_atomic_add_rtn", "global_atomic_add", 1, 0 },
	{ "k_global_atomic_add", "global_atomic_add", 0, 0 },
	{ "k_global_atomic_add_f32_rtn", "global_atomic_add_f32", 1, 0 },
	{ "k_global_atomic_add_f32", "global_atomic_add_f32", 0, 0 },
	{ "k_global_atomic_add_f64_rtn", "global_atomic_add_f64", 1, 0 },
	{ "k_global_atomic_add_f64", "global_atomic_add_f64", 0, 0 },
	{ "k_global_atomic_add_x2_rtn", "global_atomic_add_x2", 1, 0 },
	{ "k_global_atomic_add_x2", "global_atomic_add_x2", 0, 0 },
	{ "k_global_atomic_and_rtn", "global_atomic_and", 1, 0 },
	{ "k_global_atomic_and", "global_atomic_and", 0, 0 },
	{ "k_global_atomic_and_x2_rtn", "global_atomic_and_x2", 1, 0 },
	{ "k_global_atomic_and_x2", "global_atomic_and_x2", 0, 0 },
	{ "k_global_atomic_cmpswap_rtn", "global_atomic_cmpswap", 1, 0 },
	{ "k_global_atomic_cmpswap", "global_atomic_cmpswap", 0, 0 },
	{ "k_global_atomic_cmpswap_x2_rtn", "global_atomic_cmpswap_x2", 1, 0 },
	{ "k_global_atomic_cmpswap_x2", "global_atomic_cmpswap_x2", 0, 0 },
	{ "k_global_atomic_dec_rtn", "global_atomic_dec", 1, 0 },
	{ "k_global_atomic_dec", "global_atomic_dec", 0, 0 },
	{ "k_global_atomic_dec_x2_rtn", "global_atomic_dec_x2", 1, 0 },
	{ "k_global_atomic_dec_x2", "global_atomic_dec_x2", 0, 0 },
	{ "k_global_atomic_inc_rtn", "global_atomic_inc", 1, 0 },
	{ "k_global_atomic_inc", "global_atomic_inc", 0, 0 },
	{ "k_global_atomic_inc_x2_rtn", "global_atomic_inc_x2", 1, 0 },
	{ "k_global_atomic_inc_x2", "global_atomic_inc_x2", 0, 0 },
	{ "k_global_atomic_max_f64_rtn", "global_atomic_max_f64", 1, 0 },
	{ "k_global_atomic_max_f64", "global_atomic_max_f64", 0, 0 },
	{ "k_global_atomic_min_f64_rtn", "global_atomic_min_f64", 1, 0 },
	{ "k_global_atomic_min_f64", "global_atomic_min_f64", 0, 0 },
	{ "k_global_atomic_or_rtn", "global_atomic_or", 1, 0 },
	{ "k_global_atomic_or", "global_atomic_or", 0, 0 },
	{ "k_global_atomic_or_x2_rtn", "global_atomic_or_x2", 1, 0 },
	{ "k_global_atomic_or_x2", "global_atomic_or_x2", 0, 0 },
	{ "k_global_atomic_pk_add_f16_rtn", "global_atomic_pk_add_f16", 1, 0 },
	{ "k_global_atomic_pk_add_f16", "global_atomic_pk_add_f16", 0, 0 },
	{ "k_global_atomic_smax_rtn", "global_atomic_smax", 1, 0 },
	{ "k_global_atomic_smax", "global_atomic_smax", 0, 0 },
	{ "k_global_atomic_smax_x2_rtn", "global_atomic_smax_x2", 1, 0 },
	{ "k_global_atomic_smax_x2", "global_atomic_smax_x2", 0, 0 },
	{ "k_global_atomic_smin_rtn", "global_atomic_smin", 1, 0 },
	{ "k_global_atomic_smin", "global_atomic_smin", 0, 0 },
	{ "k_global_atomic_smin_x2_rtn", "global_atomic_smin_x2", 1, 0 },
	{ "k_global_atomic_smin_x2", "global_atomic_smin_x2", 0, 0 },
	{ "k_global_atomic_sub_rtn", "global_atomic_sub", 1, 0 },
	{ "k_global_atomic_sub", "global_atomic_sub", 0, 0 },
	{ "k_global_atomic_sub_x2_rtn", "global_atomic_sub_x2", 1, 0 },
	{ "k_global_atomic_sub_x2", "global_atomic_sub_x2", 0, 0 },
	{ "k_global_atomic_swap_rtn", "global_atomic_swap", 1, 0 },
	{ "k_global_atomic_swap", "global_atomic_swap", 0, 0 },
	{ "k_global_atomic_swap_x2_rtn", "global_atomic_swap_x2", 1, 0 },
	{ "k_global_atomic_swap_x2", "global_atomic_swap_x2", 0, 0 },
	{ "k_global_atomic_umax_rtn", "global_atomic_umax", 1, 0 },
	{ "k_global_atomic_umax", "global_atomic_umax", 0, 0 },
	{ "k_global_atomic_umax_x2_rtn", "global_atomic_umax_x2", 1, 0 },
	{ "k_global_atomic_umax_x2", "global_atomic_umax_x2", 0, 0 },
	{ "k_global_atomic_umin_rtn", "global_atomic_umin", 1, 0 },
	{ "k_global_atomic_umin", "global_atomic_umin", 0, 0 },
	{ "k_global_atomic_umin_x2_rtn", "global_atomic_umin_x2", 1, 0 },
	{ "k_global_atomic_umin_x2", "global_atomic_umin_x2", 0, 0 },
	{ "k_global_atomic_xor_rtn", "global_atomic_xor", 1, 0 },
	{ "k_global_atomic_xor", "global_atomic_xor", 0, 0 },
	{ "k_global_atomic_xor_x2_rtn", "global_atomic_xor_x2", 1, 0 },
	{ "k_global_atomic_xor_x2", "global_atomic_xor_x2", 0, 0 },
	{ "k_global_load_dword", "global_load_dword", 0, 0 },
	{ "k_global_load_dwordx2", "global_load_dwordx2", 0, 0 },
	{ "k_global_load_dwordx3", "global_load_dwordx3", 0, 0 },
	{ "k_global_load_dwordx4", "global_load_dwordx4", 0, 0 },
	{ "k_global_load_sbyte", "global_load_sbyte", 0, 1 },
	{ "k_global_load_sbyte_d16", "global_load_sbyte_d16", 0, 1 },
	{ "k_global_load_sbyte_d16_hi", "global_load_sbyte_d16_hi", 0, 1 },
	{ "k_global_load_short_d16", "global_load_short_d16", 0, 2 },
	{ "k_global_load_short_d16_hi", "global_load_short_d16_hi", 0, 2 },
	{ "k_global_load_sshort", "global_load_sshort", 0, 2 },
	{ "k_global_load_ubyte", "global_load_ubyte", 0, 1 },
	{ "k_global_load_ubyte_d16", "global_load_ubyte_d16", 0, 1 },
	{ "k_global_load_ubyte_d16_hi", "global_load_ubyte_d16_hi", 0, 1 },
	{ "k_global_load_ushort", "global_load_ushort", 0, 2 },
	{ "k_global_store_byte", "global_store_byte", 0, 3 },
	{ "k_global_store_byte_d16_hi", "global_store_byte_d16_hi", 0, 3 },
	{ "k_global_store_dword", "global_store_dword", 0, 0 },
	{ "k_global_store_dwordx2", "global_store_dwordx2", 0, 0 },
	{ "k_global_store_dwordx3", "global_store_dwordx3", 0, 0 },
	{ "k_global_store_dwordx4", "global_store_dwordx4", 0, 0 },
	{ "k_global_store_short", "global_store_short", 0, 2 },
	{ "k_global_store_short_d16_hi", "global_store_short_d16_hi", 0, 2 },
	{ "k_tbuffer_load_format_d16_x", "tbuffer_load_format_d16_x", 0, 4 },
	{ "k_tbuffer_load_format_d16_xy", "tbuffer_load_format_d16_xy", 0, 4 },
	{ "k_tbuffer_load_format_d16_xyz", "tbuffer_load_format_d16_xyz", 0, 4 },
	{ "k_tbuffer_load_format_d16_xyzw", "tbuffer_load_format_d16_xyzw", 0, 4 },
	{ "k_tbuffer_load_format_x", "tbuffer_load_format_x", 0, 4 },
	{ "k_tbuffer_load_format_xy", "tbuffer_load_format_xy", 0, 4 },
	{ "k_tbuffer_load_format_xyz", "tbuffer_load_format_xyz", 0, 4 },
	{ "k_tbuffer_load_format_xyzw", "tbuffer_load_format_xyzw", 0, 4 },
	{ "k_tbuffer_store_format_d16_x", "tbuffer_store_format_d16_x", 0, 4 },
	{ "k_tbuffer_store_format_d16_xy", "tbuffer_store_format_d16_xy", 0, 4 },
	{ "k_tbuffer_store_format_d16_xyz", "tbuffer_store_format_d16_xyz", 0, 4 },
	{ "k_tbuffer_store_format_d16_xyzw", "tbuffer_store_format_d16_xyzw", 0, 4 },
	{ "k_tbuffer_store_format_x", "tbuffer_store_format_x", 0, 4 },
	{ "k_tbuffer_store_format_xy", "tbuffer_store_format_xy", 0, 4 },
	{ "k_tbuffer_store_format_xyz", "tbuffer_store_format_xyz", 0, 4 },
	{ "k_tbuffer_store_format_xyzw", "tbuffer_store_format_xyzw", 0, 4 },
};

/* SCRATCH forms (kernels/scratch.s): the same model on each lane's private
 * 16 bytes */
static const struct mform sforms[] = {
	{ "k_scratch_load_dword", "scratch_load_dword", 0, 0 },
	{ "k_scratch_load_dwordx2", "scratch_load_dwordx2", 0, 0 },
	{ "k_scratch_load_dwordx3", "scratch_load_dwordx3", 0, 0 },
	{ "k_scratch_load_dwordx4", "scratch_load_dwordx4", 0, 0 },
	{ "k_scratch_load_sbyte", "scratch_load_sbyte", 0, 1 },
	{ "k_scratch_load_sbyte_d16", "scratch_load_sbyte_d16", 0, 1 },
	{ "k_scratch_load_sbyte_d16_hi", "scratch_load_sbyte_d16_hi", 0, 1 },
	{ "k_scratch_load_short_d16", "scratch_load_short_d16", 0, 2 },
	{ "k_scratch_load_short_d16_hi", "scratch_load_short_d16_hi", 0, 2 },
	{ "k_scratch_load_sshort", "scratch_load_sshort", 0, 2 },
	{ "k_scratch_load_ubyte", "scratch_load_ubyte", 0, 1 },
	{ "k_scratch_load_ubyte_d16", "scratch_load_ubyte_d16", 0, 1 },
	{ "k_scratch_load_ubyte_d16_hi", "scratch_load_ubyte_d16_hi", 0, 1 },
	{ "k_scratch_load_ushort", "scratch_load_ushort", 0, 2 },
	{ "k_scratch_store_byte", "scratch_store_byte", 0, 3 },
	{ "k_scratch_store_byte_d16_hi", "scratch_store_byte_d16_hi", 0, 3 },
	{ "k_scratch_store_dword", "scratch_store_dword", 0, 0 },
	{ "k_scratch_store_dwordx2", "scratch_store_dwordx2", 0, 0 },
	{ "k_scratch_store_dwordx3", "scratch_store_dwordx3", 0, 0 },
	{ "k_scratch_store_dwordx4", "scratch_store_dwordx4", 0, 0 },
	{ "k_scratch_store_short", "scratch_store_short", 0, 2 },
	{ "k_scratch_store_short_d16_hi", "scratch_store_short_d16_hi", 0, 2 },
};

static uint32_t rng_state;
static uint32_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

static float fb(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t ub(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static double db(uint64_t u) { double f; memcpy(&f, &u, 8); return f; }
static uint64_t u64b(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }
static uint16_t pkh(uint32_t a, uint32_t b, unsigned sh)
{
	_Float16 x, y, z;
	uint16_t p = (uint16_t)(a >> sh), q = (uint16_t)(b >> sh), r;
	memcpy(&x, &p, 2);
	memcpy(&y, &q, 2);
	z = (_Float16)((float)x + (float)y);
	memcpy(&r, &z, 2);
	return r;
}

static const char *tail(const char *n)
{
	const char *p = strchr(n, '_');
	return p ? p + 1 : n;
}

/* the model: registers v[10:13] (reg) and the lane's 16 bytes (m) */
static void model(const struct mform *f, const uint32_t *rec, uint32_t *reg, uint8_t *m)
{
	const char *t = tail(f->name);       /* load_ubyte, atomic_add_x2, ... */
	const uint32_t *d = rec;             /* v[2:5] */
	memcpy(reg, rec + 8, 16);
	if (strstr(t, "_format_")) {
		/* the V# has a one-component 32-bit float format: x is the dword
		 * at the address, y and z read 0, w 1.0; d16 packs halves (f16 by
		 * nearest even; an odd count's high half is 0; d16_hi_x writes
		 * only the high half), stores write x only */
		const char *c = strrchr(t, '_') + 1;
		unsigned n = (unsigned)strlen(c);
		bool d16 = strstr(t, "d16") != NULL, hi = strstr(t, "d16_hi") != NULL;
		uint32_t x;
		memcpy(&x, m + f->off, 4);
		if (t[0] == 's') {
			uint32_t v = d[0];
			if (d16) {
				_Float16 h;
				uint16_t b = (uint16_t)(hi ? v >> 16 : v);
				memcpy(&h, &b, 2);
				v = ub((float)h);
			}
			memcpy(m + f->off, &v, 4);
			return;
		}
		uint32_t comp[4] = { x, 0, 0, 0x3f800000u };
		if (!d16) {
			memcpy(reg, comp, 4 * n);
			return;
		}
		uint16_t h[4];
		for (unsigned i = 0; i < 4; i++) {
			_Float16 q = (_Float16)fb(comp[i]);
			memcpy(&h[i], &q, 2);
		}
		if (hi) {
			reg[0] = (reg[0] & 0xffff) | (uint32_t)h[0] << 16;
			return;
		}
		for (unsigned i = 0; i < (n + 1) / 2; i++)
			reg[i] = h[2 * i] | (2 * i + 1 < n ? (uint32_t)h[2 * i + 1] << 16 : 0);
		return;
	}
	if (!strncmp(t, "load_", 5)) {
		const char *k = t + 5;
		uint32_t v = 0;
		if (!strncmp(k, "dword", 5)) {
			unsigned n = k[5] == 'x' ? (unsigned)(k[6] - '0') : 1;
			memcpy(reg, m + f->off, 4 * n);
			return;
		}
		if (strstr(k, "byte")) v = m[f->off];
		else memcpy(&v, m + f->off, 2);
		if (k[0] == 's' && strstr(k, "byte")) v = (uint32_t)(int8_t)v;
		if (k[0] == 's' && !strstr(k, "byte") && !strstr(k, "d16")) v = (uint32_t)(int16_t)v;
		if (strstr(k, "d16")) {
			v &= 0xffff;
			if (strstr(k, "d16_hi"))
				reg[0] = (reg[0] & 0xffff) | v << 16;
			else
				reg[0] = (reg[0] & 0xffff0000u) | v;
			return;
		}
		reg[0] = v;
		return;
	}
	if (!strncmp(t, "store_", 6)) {
		const char *k = t + 6;
		if (!strncmp(k, "dword", 5)) {
			unsigned n = k[5] == 'x' ? (unsigned)(k[6] - '0') : 1;
			memcpy(m + f->off, d, 4 * n);
			return;
		}
		uint32_t v = strstr(k, "d16_hi") ? d[0] >> 16 : d[0];
		memcpy(m + f->off, &v, strstr(k, "byte") ? 1 : 2);
		return;
	}
	/* atomics */
	{
		const char *k = t + 7;
		bool x2 = strstr(k, "_x2") || strstr(k, "f64");
		uint64_t old = 0, v = d[0] | (x2 ? (uint64_t)d[1] << 32 : 0), nw;
		uint64_t cmp = x2 ? (d[2] | (uint64_t)d[3] << 32) : d[1];
		memcpy(&old, m, x2 ? 8 : 4);
		if (!strncmp(k, "swap", 4)) nw = v;
		else if (!strncmp(k, "cmpswap", 7)) nw = old == cmp ? v : old;
		else if (!strncmp(k, "add_f32", 7)) nw = ub(fb((uint32_t)old) + fb((uint32_t)v));
		else if (!strncmp(k, "pk_add_f16", 10)) nw = pkh((uint32_t)old, (uint32_t)v, 0) | (uint32_t)pkh((uint32_t)old, (uint32_t)v, 16) << 16;
		else if (!strncmp(k, "add_f64", 7)) nw = u64b(db(old) + db(v));
		else if (!strncmp(k, "min_f64", 7)) nw = db(v) < db(old) ? v : old;
		else if (!strncmp(k, "max_f64", 7)) nw = db(v) > db(old) ? v : old;
		else if (!strncmp(k, "add", 3)) nw = old + v;
		else if (!strncmp(k, "sub", 3)) nw = old - v;
		else if (!strncmp(k, "smin", 4)) nw = x2 ? ((int64_t)v < (int64_t)old ? v : old) : ((int32_t)v < (int32_t)old ? v : old);
		else if (!strncmp(k, "smax", 4)) nw = x2 ? ((int64_t)v > (int64_t)old ? v : old) : ((int32_t)v > (int32_t)old ? v : old);
		else if (!strncmp(k, "umin", 4)) nw = v < old ? v : old;
		else if (!strncmp(k, "umax", 4)) nw = v > old ? v : old;
		else if (!strncmp(k, "and", 3)) nw = old & v;
		else if (!strncmp(k, "or", 2)) nw = old | v;
		else if (!strncmp(k, "xor", 3)) nw = old ^ v;
		else if (!strncmp(k, "inc", 3)) nw = old >= v ? 0 : old + 1;
		else nw = (old == 0 || old > v) ? v : old - 1;      /* dec */
		memcpy(m, &nw, x2 ? 8 : 4);
		if (f->rtn) {
			reg[0] = (uint32_t)old;
			if (x2)
				reg[1] = (uint32_t)(old >> 32);
		}
	}
}

static struct hx_code code;

START_TEST(test_mem_match_model)
{
	char path[600];
	uint32_t *in, *out;
	uint8_t *mem;
	uint64_t args[3];
	unsigned bad = 0;

	if (!hx_kernel_path("mem", KEMU_ISA_GFX90A, path, sizeof(path))) {
		ck_assert_msg(!hx_target_expected(KEMU_ISA_GFX90A), "mem-gfx90a.co not built");
		return;
	}
	ck_assert_int_eq(hx_load(&code, path), 0);
	in = hx_alloc(64 * 64);
	out = hx_alloc(64 * 16);
	mem = hx_alloc(64 * 16);
	args[0] = (uint64_t)(uintptr_t)in;
	args[1] = (uint64_t)(uintptr_t)out;
	args[2] = (uint64_t)(uintptr_t)mem;
	for (size_t i = 0; i < sizeof(mforms) / sizeof(mforms[0]); i++) {
		const struct mform *f = &mforms[i];
		for (unsigned seed = 0; seed < 2; seed++) {
			struct hx_launch hl = { .gfx = KEMU_ISA_GFX90A, .args = args, .args_size = 24,
						.grid = { 64, 1, 1 }, .wg = { 64, 1, 1 } };
			struct kemu_isa_error err;
			uint8_t want_mem[64 * 16];
			bool fl = strstr(f->name, "_f32") || strstr(f->name, "_f64") || strstr(f->name, "_f16") ||
				  strstr(f->name, "_format_");
			bool small = strstr(f->name, "_inc") || strstr(f->name, "_dec");
			int rc;
			rng_state = 0x299f31d0u ^ (uint32_t)i * 0x85ebca6bu ^ seed * 0x9e3779b9u;
			for (unsigned l = 0; l < 64; l++) {
				uint32_t *r = in + 16 * l;
				for (unsigned k = 0; k < 16; k++)
					r[k] = rnd();
				if (small) {
					r[0] = rnd() % 6; r[1] = rnd() % 2 ? 0 : r[1];
					r[12] = rnd() % 8; r[13] = rnd() % 2 ? 0 : r[13];
				}
				if (fl) {
					if (strstr(f->name, "_f64")) {
						uint64_t a = u64b(((int)(rnd() % 201) - 100) * 0.125), b = u64b(((int)(rnd() % 201) - 100) * 0.125);
						r[0] = (uint32_t)a; r[1] = (uint32_t)(a >> 32);
						r[12] = (uint32_t)b; r[13] = (uint32_t)(b >> 32);
					} else if (strstr(f->name, "_f32")) {
						r[0] = ub(((int)(rnd() % 201) - 100) * 0.125f);
						r[12] = ub(((int)(rnd() % 201) - 100) * 0.125f);
					} else if (strstr(f->name, "_format_")) {
						/* x a float; the d16 stores' halves f16 */
						r[13] = ub(((int)(rnd() % 2001) - 1000) / 64.0f);
						r[0] = (rnd() & 0xffff0000u) | (rnd() % 0x7c00);
						if (strstr(f->name, "d16_hi")) r[0] = (r[0] & 0xffff) | (rnd() % 0x7c00) << 16;
					} else {
						r[0] = 0x3c00u | 0x40000000u * (rnd() & 1);
						r[12] = 0x3800u | 0xc0000000u * (rnd() & 1);
					}
				}
				if (strstr(f->name, "cmpswap") && rnd() % 2) {
					/* the compare value equals memory half of the time */
					if (strstr(f->name, "_x2")) { r[2] = r[12]; r[3] = r[13]; }
					else r[1] = r[12];
				}
				memcpy(mem + 16 * l, r + 12, 16);
			}
			hl.kd = hx_kd(&code, f->kernel);
			ck_assert_msg(hl.kd != 0, "no %s.kd", f->kernel);
			rc = hx_run(&hl, &err);
			ck_assert_msg(rc == 0, "%s: %s: %s", f->kernel, kemu_isa_error_name(err.kind), err.message);
			for (unsigned l = 0; l < 64; l++) {
				uint32_t reg[4];
				memcpy(want_mem + 16 * l, in + 16 * l + 12, 16);
				model(f, in + 16 * l, reg, want_mem + 16 * l);
				if ((memcmp(reg, out + 4 * l, 16) || memcmp(want_mem + 16 * l, mem + 16 * l, 16)) && bad++ < 6) {
					const uint32_t *gm = (const uint32_t *)(mem + 16 * l), *wm = (const uint32_t *)(want_mem + 16 * l);
					fprintf(stderr, "%s lane %u: regs %08x %08x %08x %08x (model %08x %08x %08x %08x) mem %08x %08x %08x %08x (model %08x %08x %08x %08x)\n",
						f->kernel, l, out[4 * l], out[4 * l + 1], out[4 * l + 2], out[4 * l + 3],
						reg[0], reg[1], reg[2], reg[3], gm[0], gm[1], gm[2], gm[3], wm[0], wm[1], wm[2], wm[3]);
				}
			}
		}
	}
	hx_free(in);
	hx_free(out);
	hx_free(mem);
	ck_assert_msg(bad == 0, "%u lanes differ from the model (first ones above)", bad);
}
END_TEST

START_TEST(test_scratch_match_model)
{
	char path[600];
	struct hx_code sc;
	uint32_t *in, *out;
	uint64_t args[2];
	unsigned bad = 0;

	if (!hx_kernel_path("scratch", KEMU_ISA_GFX90A, path, sizeof(path))) {
		ck_assert_msg(!hx_target_expected(KEMU_ISA_GFX90A), "scratch-gfx90a.co not built");
		return;
	}
	ck_assert_int_eq(hx_load(&sc, path), 0);
	in = hx_alloc(64 * 64);
	out = hx_alloc(64 * 32);
	args[0] = (uint64_t)(uintptr_t)in;
	args[1] = (uint64_t)(uintptr_t)out;
	for (size_t i = 0; i < sizeof(sforms) / sizeof(sforms[0]); i++) {
		const struct mform *f = &sforms[i];
		struct hx_launch hl = { .gfx = KEMU_ISA_GFX90A, .args = args, .args_size = 16,
					.grid = { 64, 1, 1 }, .wg = { 64, 1, 1 } };
		struct kemu_isa_error err;
		int rc;
		rng_state = 0x7a0fb3c1u ^ (uint32_t)i * 0x85ebca6bu;
		for (unsigned j = 0; j < 64 * 16; j++)
			in[j] = rnd();
		hl.kd = hx_kd(&sc, f->kernel);
		ck_assert_msg(hl.kd != 0, "no %s.kd", f->kernel);
		rc = hx_run(&hl, &err);
		ck_assert_msg(rc == 0, "%s: %s: %s", f->kernel, kemu_isa_error_name(err.kind), err.message);
		for (unsigned l = 0; l < 64; l++) {
			uint32_t reg[4];
			uint8_t m[16];
			memcpy(m, in + 16 * l + 12, 16);
			model(f, in + 16 * l, reg, m);
			if ((memcmp(reg, out + 4 * l, 16) || memcmp(m, out + 256 + 4 * l, 16)) && bad++ < 6)
				fprintf(stderr, "%s lane %u: regs %08x %08x (model %08x %08x)\n", f->kernel, l,
					out[4 * l], out[4 * l + 1], reg[0], reg[1]);
		}
	}
	hx_free(in);
	hx_free(out);
	hx_unload(&sc);
	ck_assert_msg(bad == 0, "%u lanes differ from the model (first ones above)", bad);
}
END_TEST

START_TEST(test_model_hand_values)
{
	const struct mform ld = { "k", "global_load_sbyte_d16_hi", 0, 1 }, dec = { "k", "flat_atomic_dec", 1, 0 };
	uint32_t rec[16] = { 0 }, reg[4];
	uint8_t m[16] = { 0, 0x80, 0, 0 };
	rec[8] = 0x1234abcd;
	model(&ld, rec, reg, m);
	ck_assert_uint_eq(reg[0], 0xff80abcdu);      /* sign-extended byte into the high half */
	rec[0] = 5;
	memset(m, 0, sizeof(m));
	model(&dec, rec, reg, m);
	ck_assert_uint_eq(m[0], 5);                   /* dec at 0 wraps to the data */
	ck_assert_uint_eq(reg[0], 0);
}
END_TEST

static Suite *mem_suite(void)
{
	Suite *s = suite_create("isa_mem");
	TCase *tc = tcase_create("mem");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_model_hand_values);
	tcase_add_test(tc, test_mem_match_model);
	tcase_add_test(tc, test_scratch_match_model);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(mem_suite)
