// mem.s — one kernel per GLOBAL/FLAT/MUBUF/MTBUF load, store and atomic form
// for test_isa_mem.c (gfx90a), GENERATED with its form table from
// emu/isa/isa_table.tsv.  Kernarg {const uint32_t *in, uint32_t *out,
// uint8_t *mem}; one wave: lane l loads its 16-dword record in[16l ..]
// into v[2:5] (data), v[6:9] and v[10:13] (the destination's starting
// value), addresses the 16 bytes mem[16l ..] (GLOBAL: v14 + s[12:13];
// FLAT: v[16:17]; MUBUF: offen through the V# s[8:11] over mem: 32-bit
// float, DST_SEL x, y, z, w) and
// stores v[10:13] at out[4l ..] (MUBUF atomics return into the data
// registers, copied to v10 first).
.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
.include "kernel.inc"

.macro KD name
  KDESC \name, 24, 24, 24
.endm

.macro BEGIN name
  KSYM \name
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_load_dwordx2 s[12:13], s[0:1], 0x10
  v_lshlrev_b32 v1, 6, v0
  v_lshlrev_b32 v14, 4, v0
  s_waitcnt lgkmcnt(0)
  global_load_dwordx4 v[2:5], v1, s[4:5]
  global_load_dwordx4 v[6:9], v1, s[4:5] offset:16
  global_load_dwordx4 v[10:13], v1, s[4:5] offset:32
  s_mov_b32 s8, s12
  s_mov_b32 s9, s13
  s_mov_b32 s10, -1
  s_mov_b32 s11, 0x27fac
  v_mov_b32 v17, s13
  v_add_co_u32 v16, vcc, s12, v14
  v_addc_co_u32 v17, vcc, 0, v17, vcc
  s_waitcnt vmcnt(0)
.endm

.macro END name
  s_waitcnt vmcnt(0) lgkmcnt(0)
  global_store_dwordx4 v14, v[10:13], s[6:7]
  s_endpgm
  KD \name
.endm

BEGIN k_buffer_atomic_add_rtn
  buffer_atomic_add v2, v14, s[8:11], 0 offen glc
  s_waitcnt vmcnt(0)
  v_mov_b32 v10, v2
END k_buffer_atomic_add_rtn

BEGIN k_buffer_atomic_add
  buffer_atomic_add v2, v14, s[8:11], 0 offen
END k_buffer_atomic_add

BEGIN k_buffer_atomic_add_f32_rtn
  buffer_atomic_add_f32 v2, v14, s[8:11], 0 offen glc
  s_waitcnt vmcnt(0)
  v_mov_b32 v10, v2
END k_buffer_atomic_add_f32_rtn

BEGIN k_buffer_atomic_add_f32
  buffer_atomic_add_f32 v2, v14, s[8:11], 0 offen
END k_buffer_atomic_add_f32

BEGIN k_buffer_atomic_add_f64_rtn
  buffer_atomic_add_f64 v[2:3], v14, s[8:11], 0 offen glc
  s_waitcnt vmcnt(0)
  v_mov_b32 v10, v2
  v_mov_b32 v11, v3
END k_buffer_atomic_add_f64_rtn

BEGIN k_buffer_atomic_add_f64
  buffer_atomic_add_f64 v[2:3], v14, s[8:11], 0 offen
END k_buffer_atomic_add_f64

BEGIN k_buffer_atomic_add_x2_rtn
  buffer_atomic_add_x2 v[2:3], v14, s[8:11], 0 offen glc
  s_waitcnt vmcnt(0)
  v_mov_b32 v10, v2
  v_mov_b32 v11, v3
END k_buffer_atomic_add_x2_rtn

BEGIN k_buffer_atomic_add_x2
  buffer_atomic_add_x2 v[2:3], v14, s[8:11], 0 offen
END k_buffer_atomic_add_x2

BEGIN k_buffer_atomic_and_rtn
  buffer_atomic_and v2, v14, s[8:11], 0 offen glc
  s_waitcnt vmcnt(0)
  v_mov_b32 v10, v2
END k_buffer_atomic_and_rtn

BEGIN k_buffer_atomic_and
  buffer_atomic_and v2, v14, s[8:11], 0 offen
END k_buffer_atomic_and

BEGIN k_buffer_atomic_and_x2_rtn
  buffer_atomic_and_x2 v[2:3], v14, s[8:11], 0 offen glc
  s_waitcnt vmcnt(0)
  v_mov_b32 v10, v2
  v_mov_b32 v11, v3
END k_buffer_atomic_and_x2_rtn

BEGIN k_buffer_atomic_and_x2
  buffer_atomic_and_x2 v[2:3], v14, s[8:11], 0 offen
END k_buffer_atomic_and_x2

BEGIN k_buffer_atomic_cmpswap_rtn
  buffer_atomic_cmpswap v[2:3], v14, s[8:11], 0 offen glc
  s_waitcnt vmcnt(0)
  v_mov_b32 v10, v2
END k_buffer_atomic_cmpswap_rtn

BEGIN k_buffer_atomic_cmpswap
  buffer_atomic_cmpswap v[2:3], v14, s[8:11], 0 offen
END k_buffer_atomic_cmpswap

BEGIN k_buffer_atomic_cmpswap_x2_rtn
  buffer_atomic_cmpswap_x2 v[2:5], v14, s[8:11], 0 offen glc
  s_waitcnt vmcnt(0)
  v_mov_b32 v10, v2
  v_mov_b32 v11, v3
END k_buffer_atomic_cmpswap_x2_rtn

BEGIN k_buffer_atomic_cmpswap_x2
  buffer_atomic_cmpswap_x2 v[2:5], v14, s[8:11], 0 offen
END k_buffer_atomic_cmpswap_x2

BEGIN k_buffer_atomic_dec_rtn
  buffer_atomic_dec v2, v14, s[8:11], 0 offen glc
  s_waitcnt vmcnt(0)
  v_mov_b32 v10, v2
END k_buffer_atomic_dec_rtn

BEGIN k_buffer_atomic_dec
  buffer_atomic_dec v2, v14, s[8:11], 0 offen
END k_buffer_atomic_dec

BEGIN k_buffer_atomic_dec_x2_rtn
  buffer_atomic_dec_x2 v[2:3], v14, s[8:11], 0 offen glc
  s_waitcnt vmcnt(0)
  v_mov_b32 v10, v2
  v_mov_b32 v11, v3
END k_buffer_atomic_dec_x2_rtn

BEGIN k_buffer_atomic_dec_x2
  buffer_atomic_dec_x2 v[2:3], v14, s[8:11], 0 offen
END k_buffer_atomic_dec_x2

BEGIN k_buffer_atomic_inc_rtn
  buffer_atomic_inc v2, v14, s[8:11], 0 offen glc
  s_waitcnt vmcnt(0)
  v_mov_b32 v10, v2
END k_buffer_atomic_inc_rtn

BEGIN k_buffer_atomic_inc
  buffer_atomic_inc v2, v14, s[8:11], 0 offen
END k_buffer_atomic_inc

BEGIN k_buffer_atomic_inc_x2_rtn
  buffer_atomic_inc_x2 v[2:3], v14, s[8:11], 0 offen glc
  s_waitcnt vmcnt(0)
  v_mov_b32 v10, v2
  v_mov_b32 v11, v3
END k_buffer_atomic_inc_x2_rtn

BEGIN k_buffer_atomic_inc_x2
  buffer_atomic_inc_x2 v[2:3], v14, s[8:11], 0 offen
END k_buffer_atomic_inc_x2

BEGIN k_buffer_atomic_max_f64_rtn
  buffer_atomic_max_f64 v[2:3], v14, s[8:11], 0 offen glc
  s_waitcnt vmcnt(0)
  v_mov_b32 v10, v2
  v_mov_b32 v11, v3
END k_buffer_atomic_max_f64_rtn

BEGIN k_buffer_atomic_max_f64
  buffer_atomic_max_f64 v[2:3], v14, s[8:11], 0 offen
END k_buffer_atomic_max_f64

BEGIN k_buffer_atomic_min_f64_rtn
  buffer_atomic_min_f64 v[2:3], v14, s[8:11], 0 offen glc
  s_waitcnt vmcnt(0)
  v_mov_b32 v10, v2
  v_mov_b32 v11, v3
END k_buffer_atomic_min_f64_rtn

BEGIN k_buffer_atomic_min_f64
  buffer_atomic_min_f64 v[2:3], v14, s[8:11], 0 offen
END k_buffer_atomic_min_f64

BEGIN k_buffer_atomic_or_rtn
  buffer_atomic_or v2, v14, s[8:11], 0 offen glc
  s_waitcnt vmcnt(0)
  v_mov_b32 v10, v2
END k_buffer_atomic_or_rtn

BEGIN k_buffer_atomic_or
  buffer_atomic_or v2, v14, s[8:11], 0 offen
END k_buffer_atomic_or

BEGIN k_buffer_atomic_or_x2_rtn
  buffer_atomic_or_x2 v[2:3], v14, s[8:11], 0 offen glc
  s_waitcnt vmcnt(0)
  v_mov_b32 v10, v2
  v_mov_b32 v11, v3
END k_buffer_atomic_or_x2_rtn

BEGIN k_buffer_atomic_or_x2
  buffer_atomic_or_x2 v[2:3], v14, s[8:11], 0 offen
END k_buffer_atomic_or_x2

BEGIN k_buffer_atomic_pk_add_f16_rtn
  buffer_atomic_pk_add_f16 v2, v14, s[8:11], 0 offen glc
  s_waitcnt vmcnt(0)
  v_mov_b32 v10, v2
END k_buffer_atomic_pk_add_f16_rtn

BEGIN k_buffer_atomic_pk_add_f16
  buffer_atomic_pk_add_f16 v2, v14, s[8:11], 0 offen
END k_buffer_atomic_pk_add_f16

BEGIN k_buffer_atomic_smax_rtn
  buffer_atomic_smax v2, v14, s[8:11], 0 offen glc
  s_waitcnt vmcnt(0)
  v_mov_b32 v10, v2
END k_buffer_atomic_smax_rtn

BEGIN k_buffer_atomic_smax
  buffer_atomic_smax v2, v14, s[8:11], 0 offen
END k_buffer_atomic_smax

BEGIN k_buffer_atomic_smax_x2_rtn
  buffer_atomic_smax_x2 v[2:3], v14, s[8:11], 0 offen glc
  s_waitcnt vmcnt(0)
  v_mov_b32 v10, v2
  v_mov_b32 v11, v3
END k_buffer_atomic_smax_x2_rtn

BEGIN k_buffer_atomic_smax_x2
  buffer_atomic_smax_x2 v[2:3], v14, s[8:11], 0 offen
END k_buffer_atomic_smax_x2

BEGIN k_buffer_atomic_smin_rtn
  buffer_atomic_smin v2, v14, s[8:11], 0 offen glc
  s_waitcnt vmcnt(0)
  v_mov_b32 v10, v2
END k_buffer_atomic_smin_rtn

BEGIN k_buffer_atomic_smin
  buffer_atomic_smin v2, v14, s[8:11], 0 offen
END k_buffer_atomic_smin

BEGIN k_buffer_atomic_smin_x2_rtn
  buffer_atomic_smin_x2 v[2:3], v14, s[8:11], 0 offen glc
  s_waitcnt vmcnt(0)
  v_mov_b32 v10, v2
  v_mov_b32 v11, v3
END k_buffer_atomic_smin_x2_rtn

BEGIN k_buffer_atomic_smin_x2
  buffer_atomic_smin_x2 v[2:3], v14, s[8:11], 0 offen
END k_buffer_atomic_smin_x2

BEGIN k_buffer_atomic_sub_rtn
  buffer_atomic_sub v2, v14, s[8:11], 0 offen glc
  s_waitcnt vmcnt(0)
  v_mov_b32 v10, v2
END k_buffer_atomic_sub_rtn

BEGIN k_buffer_atomic_sub
  buffer_atomic_sub v2, v14, s[8:11], 0 offen
END k_buffer_atomic_sub

BEGIN k_buffer_atomic_sub_x2_rtn
  buffer_atomic_sub_x2 v[2:3], v14, s[8:11], 0 offen glc
  s_waitcnt vmcnt(0)
  v_mov_b32 v10, v2
  v_mov_b32 v11, v3
END k_buffer_atomic_sub_x2_rtn

BEGIN k_buffer_atomic_sub_x2
  buffer_atomic_sub_x2 v[2:3], v14, s[8:11], 0 offen
END k_buffer_atomic_sub_x2

BEGIN k_buffer_atomic_swap_rtn
  buffer_atomic_swap v2, v14, s[8:11], 0 offen glc
  s_waitcnt vmcnt(0)
  v_mov_b32 v10, v2
END k_buffer_atomic_swap_rtn

BEGIN k_buffer_atomic_swap
  buffer_atomic_swap v2, v14, s[8:11], 0 offen
END k_buffer_atomic_swap

BEGIN k_buffer_atomic_swap_x2_rtn
  buffer_atomic_swap_x2 v[2:3], v14, s[8:11], 0 offen glc
  s_waitcnt vmcnt(0)
  v_mov_b32 v10, v2
  v_mov_b32 v11, v3
END k_buffer_atomic_swap_x2_rtn

BEGIN k_buffer_atomic_swap_x2
  buffer_atomic_swap_x2 v[2:3], v14, s[8:11], 0 offen
END k_buffer_atomic_swap_x2

BEGIN k_buffer_atomic_umax_rtn
  buffer_atomic_umax v2, v14, s[8:11], 0 offen glc
  s_waitcnt vmcnt(0)
  v_mov_b32 v10, v2
END k_buffer_atomic_umax_rtn

BEGIN k_buffer_atomic_umax
  buffer_atomic_umax v2, v14, s[8:11], 0 offen
END k_buffer_atomic_umax

BEGIN k_buffer_atomic_umax_x2_rtn
  buffer_atomic_umax_x2 v[2:3], v14, s[8:11], 0 offen glc
  s_waitcnt vmcnt(0)
  v_mov_b32 v10, v2
  v_mov_b32 v11, v3
END k_buffer_atomic_umax_x2_rtn

BEGIN k_buffer_atomic_umax_x2
  buffer_atomic_umax_x2 v[2:3], v14, s[8:11], 0 offen
END k_buffer_atomic_umax_x2

BEGIN k_buffer_atomic_umin_rtn
  buffer_atomic_umin v2, v14, s[8:11], 0 offen glc
  s_waitcnt vmcnt(0)
  v_mov_b32 v10, v2
END k_buffer_atomic_umin_rtn

BEGIN k_buffer_atomic_umin
  buffer_atomic_umin v2, v14, s[8:11], 0 offen
END k_buffer_atomic_umin

BEGIN k_buffer_atomic_umin_x2_rtn
  buffer_atomic_umin_x2 v[2:3], v14, s[8:11], 0 offen glc
  s_waitcnt vmcnt(0)
  v_mov_b32 v10, v2
  v_mov_b32 v11, v3
END k_buffer_atomic_umin_x2_rtn

BEGIN k_buffer_atomic_umin_x2
  buffer_atomic_umin_x2 v[2:3], v14, s[8:11], 0 offen
END k_buffer_atomic_umin_x2

BEGIN k_buffer_atomic_xor_rtn
  buffer_atomic_xor v2, v14, s[8:11], 0 offen glc
  s_waitcnt vmcnt(0)
  v_mov_b32 v10, v2
END k_buffer_atomic_xor_rtn

BEGIN k_buffer_atomic_xor
  buffer_atomic_xor v2, v14, s[8:11], 0 offen
END k_buffer_atomic_xor

BEGIN k_buffer_atomic_xor_x2_rtn
  buffer_atomic_xor_x2 v[2:3], v14, s[8:11], 0 offen glc
  s_waitcnt vmcnt(0)
  v_mov_b32 v10, v2
  v_mov_b32 v11, v3
END k_buffer_atomic_xor_x2_rtn

BEGIN k_buffer_atomic_xor_x2
  buffer_atomic_xor_x2 v[2:3], v14, s[8:11], 0 offen
END k_buffer_atomic_xor_x2

BEGIN k_buffer_load_dword
  buffer_load_dword v10, v14, s[8:11], 0 offen offset:0
END k_buffer_load_dword

BEGIN k_buffer_load_dwordx2
  buffer_load_dwordx2 v[10:11], v14, s[8:11], 0 offen offset:0
END k_buffer_load_dwordx2

BEGIN k_buffer_load_dwordx3
  buffer_load_dwordx3 v[10:12], v14, s[8:11], 0 offen offset:0
END k_buffer_load_dwordx3

BEGIN k_buffer_load_dwordx4
  buffer_load_dwordx4 v[10:13], v14, s[8:11], 0 offen offset:0
END k_buffer_load_dwordx4

BEGIN k_buffer_load_format_d16_hi_x
  buffer_load_format_d16_hi_x v10, v14, s[8:11], 0 offen offset:4
END k_buffer_load_format_d16_hi_x

BEGIN k_buffer_load_format_d16_x
  buffer_load_format_d16_x v10, v14, s[8:11], 0 offen offset:4
END k_buffer_load_format_d16_x

BEGIN k_buffer_load_format_d16_xy
  buffer_load_format_d16_xy v10, v14, s[8:11], 0 offen offset:4
END k_buffer_load_format_d16_xy

BEGIN k_buffer_load_format_d16_xyz
  buffer_load_format_d16_xyz v[10:11], v14, s[8:11], 0 offen offset:4
END k_buffer_load_format_d16_xyz

BEGIN k_buffer_load_format_d16_xyzw
  buffer_load_format_d16_xyzw v[10:11], v14, s[8:11], 0 offen offset:4
END k_buffer_load_format_d16_xyzw

BEGIN k_buffer_load_format_x
  buffer_load_format_x v10, v14, s[8:11], 0 offen offset:4
END k_buffer_load_format_x

BEGIN k_buffer_load_format_xy
  buffer_load_format_xy v[10:11], v14, s[8:11], 0 offen offset:4
END k_buffer_load_format_xy

BEGIN k_buffer_load_format_xyz
  buffer_load_format_xyz v[10:12], v14, s[8:11], 0 offen offset:4
END k_buffer_load_format_xyz

BEGIN k_buffer_load_format_xyzw
  buffer_load_format_xyzw v[10:13], v14, s[8:11], 0 offen offset:4
END k_buffer_load_format_xyzw

BEGIN k_buffer_load_sbyte
  buffer_load_sbyte v10, v14, s[8:11], 0 offen offset:1
END k_buffer_load_sbyte

BEGIN k_buffer_load_sbyte_d16
  buffer_load_sbyte_d16 v10, v14, s[8:11], 0 offen offset:1
END k_buffer_load_sbyte_d16

BEGIN k_buffer_load_sbyte_d16_hi
  buffer_load_sbyte_d16_hi v10, v14, s[8:11], 0 offen offset:1
END k_buffer_load_sbyte_d16_hi

BEGIN k_buffer_load_short_d16
  buffer_load_short_d16 v10, v14, s[8:11], 0 offen offset:2
END k_buffer_load_short_d16

BEGIN k_buffer_load_short_d16_hi
  buffer_load_short_d16_hi v10, v14, s[8:11], 0 offen offset:2
END k_buffer_load_short_d16_hi

BEGIN k_buffer_load_sshort
  buffer_load_sshort v10, v14, s[8:11], 0 offen offset:2
END k_buffer_load_sshort

BEGIN k_buffer_load_ubyte
  buffer_load_ubyte v10, v14, s[8:11], 0 offen offset:1
END k_buffer_load_ubyte

BEGIN k_buffer_load_ubyte_d16
  buffer_load_ubyte_d16 v10, v14, s[8:11], 0 offen offset:1
END k_buffer_load_ubyte_d16

BEGIN k_buffer_load_ubyte_d16_hi
  buffer_load_ubyte_d16_hi v10, v14, s[8:11], 0 offen offset:1
END k_buffer_load_ubyte_d16_hi

BEGIN k_buffer_load_ushort
  buffer_load_ushort v10, v14, s[8:11], 0 offen offset:2
END k_buffer_load_ushort

BEGIN k_buffer_store_byte
  buffer_store_byte v2, v14, s[8:11], 0 offen offset:3
END k_buffer_store_byte

BEGIN k_buffer_store_byte_d16_hi
  buffer_store_byte_d16_hi v2, v14, s[8:11], 0 offen offset:3
END k_buffer_store_byte_d16_hi

BEGIN k_buffer_store_dword
  buffer_store_dword v2, v14, s[8:11], 0 offen offset:0
END k_buffer_store_dword

BEGIN k_buffer_store_dwordx2
  buffer_store_dwordx2 v[2:3], v14, s[8:11], 0 offen offset:0
END k_buffer_store_dwordx2

BEGIN k_buffer_store_dwordx3
  buffer_store_dwordx3 v[2:4], v14, s[8:11], 0 offen offset:0
END k_buffer_store_dwordx3

BEGIN k_buffer_store_dwordx4
  buffer_store_dwordx4 v[2:5], v14, s[8:11], 0 offen offset:0
END k_buffer_store_dwordx4

BEGIN k_buffer_store_format_d16_hi_x
  buffer_store_format_d16_hi_x v2, v14, s[8:11], 0 offen offset:4
END k_buffer_store_format_d16_hi_x

BEGIN k_buffer_store_format_d16_x
  buffer_store_format_d16_x v2, v14, s[8:11], 0 offen offset:4
END k_buffer_store_format_d16_x

BEGIN k_buffer_store_format_d16_xy
  buffer_store_format_d16_xy v2, v14, s[8:11], 0 offen offset:4
END k_buffer_store_format_d16_xy

BEGIN k_buffer_store_format_d16_xyz
  buffer_store_format_d16_xyz v[2:3], v14, s[8:11], 0 offen offset:4
END k_buffer_store_format_d16_xyz

BEGIN k_buffer_store_format_d16_xyzw
  buffer_store_format_d16_xyzw v[2:3], v14, s[8:11], 0 offen offset:4
END k_buffer_store_format_d16_xyzw

BEGIN k_buffer_store_format_x
  buffer_store_format_x v2, v14, s[8:11], 0 offen offset:4
END k_buffer_store_format_x

BEGIN k_buffer_store_format_xy
  buffer_store_format_xy v[2:3], v14, s[8:11], 0 offen offset:4
END k_buffer_store_format_xy

BEGIN k_buffer_store_format_xyz
  buffer_store_format_xyz v[2:4], v14, s[8:11], 0 offen offset:4
END k_buffer_store_format_xyz

BEGIN k_buffer_store_format_xyzw
  buffer_store_format_xyzw v[2:5], v14, s[8:11], 0 offen offset:4
END k_buffer_store_format_xyzw

BEGIN k_buffer_store_short
  buffer_store_short v2, v14, s[8:11], 0 offen offset:2
END k_buffer_store_short

BEGIN k_buffer_store_short_d16_hi
  buffer_store_short_d16_hi v2, v14, s[8:11], 0 offen offset:2
END k_buffer_store_short_d16_hi

BEGIN k_flat_atomic_add_rtn
  flat_atomic_add v10, v[16:17], v2 glc
END k_flat_atomic_add_rtn

BEGIN k_flat_atomic_add
  flat_atomic_add v[16:17], v2
END k_flat_atomic_add

BEGIN k_flat_atomic_add_f64_rtn
  flat_atomic_add_f64 v[10:11], v[16:17], v[2:3] glc
END k_flat_atomic_add_f64_rtn

BEGIN k_flat_atomic_add_f64
  flat_atomic_add_f64 v[16:17], v[2:3]
END k_flat_atomic_add_f64

BEGIN k_flat_atomic_add_x2_rtn
  flat_atomic_add_x2 v[10:11], v[16:17], v[2:3] glc
END k_flat_atomic_add_x2_rtn

BEGIN k_flat_atomic_add_x2
  flat_atomic_add_x2 v[16:17], v[2:3]
END k_flat_atomic_add_x2

BEGIN k_flat_atomic_and_rtn
  flat_atomic_and v10, v[16:17], v2 glc
END k_flat_atomic_and_rtn

BEGIN k_flat_atomic_and
  flat_atomic_and v[16:17], v2
END k_flat_atomic_and

BEGIN k_flat_atomic_and_x2_rtn
  flat_atomic_and_x2 v[10:11], v[16:17], v[2:3] glc
END k_flat_atomic_and_x2_rtn

BEGIN k_flat_atomic_and_x2
  flat_atomic_and_x2 v[16:17], v[2:3]
END k_flat_atomic_and_x2

BEGIN k_flat_atomic_cmpswap_rtn
  flat_atomic_cmpswap v10, v[16:17], v[2:3] glc
END k_flat_atomic_cmpswap_rtn

BEGIN k_flat_atomic_cmpswap
  flat_atomic_cmpswap v[16:17], v[2:3]
END k_flat_atomic_cmpswap

BEGIN k_flat_atomic_cmpswap_x2_rtn
  flat_atomic_cmpswap_x2 v[10:11], v[16:17], v[2:5] glc
END k_flat_atomic_cmpswap_x2_rtn

BEGIN k_flat_atomic_cmpswap_x2
  flat_atomic_cmpswap_x2 v[16:17], v[2:5]
END k_flat_atomic_cmpswap_x2

BEGIN k_flat_atomic_dec_rtn
  flat_atomic_dec v10, v[16:17], v2 glc
END k_flat_atomic_dec_rtn

BEGIN k_flat_atomic_dec
  flat_atomic_dec v[16:17], v2
END k_flat_atomic_dec

BEGIN k_flat_atomic_dec_x2_rtn
  flat_atomic_dec_x2 v[10:11], v[16:17], v[2:3] glc
END k_flat_atomic_dec_x2_rtn

BEGIN k_flat_atomic_dec_x2
  flat_atomic_dec_x2 v[16:17], v[2:3]
END k_flat_atomic_dec_x2

BEGIN k_flat_atomic_inc_rtn
  flat_atomic_inc v10, v[16:17], v2 glc
END k_flat_atomic_inc_rtn

BEGIN k_flat_atomic_inc
  flat_atomic_inc v[16:17], v2
END k_flat_atomic_inc

BEGIN k_flat_atomic_inc_x2_rtn
  flat_atomic_inc_x2 v[10:11], v[16:17], v[2:3] glc
END k_flat_atomic_inc_x2_rtn

BEGIN k_flat_atomic_inc_x2
  flat_atomic_inc_x2 v[16:17], v[2:3]
END k_flat_atomic_inc_x2

BEGIN k_flat_atomic_max_f64_rtn
  flat_atomic_max_f64 v[10:11], v[16:17], v[2:3] glc
END k_flat_atomic_max_f64_rtn

BEGIN k_flat_atomic_max_f64
  flat_atomic_max_f64 v[16:17], v[2:3]
END k_flat_atomic_max_f64

BEGIN k_flat_atomic_min_f64_rtn
  flat_atomic_min_f64 v[10:11], v[16:17], v[2:3] glc
END k_flat_atomic_min_f64_rtn

BEGIN k_flat_atomic_min_f64
  flat_atomic_min_f64 v[16:17], v[2:3]
END k_flat_atomic_min_f64

BEGIN k_flat_atomic_or_rtn
  flat_atomic_or v10, v[16:17], v2 glc
END k_flat_atomic_or_rtn

BEGIN k_flat_atomic_or
  flat_atomic_or v[16:17], v2
END k_flat_atomic_or

BEGIN k_flat_atomic_or_x2_rtn
  flat_atomic_or_x2 v[10:11], v[16:17], v[2:3] glc
END k_flat_atomic_or_x2_rtn

BEGIN k_flat_atomic_or_x2
  flat_atomic_or_x2 v[16:17], v[2:3]
END k_flat_atomic_or_x2

BEGIN k_flat_atomic_smax_rtn
  flat_atomic_smax v10, v[16:17], v2 glc
END k_flat_atomic_smax_rtn

BEGIN k_flat_atomic_smax
  flat_atomic_smax v[16:17], v2
END k_flat_atomic_smax

BEGIN k_flat_atomic_smax_x2_rtn
  flat_atomic_smax_x2 v[10:11], v[16:17], v[2:3] glc
END k_flat_atomic_smax_x2_rtn

BEGIN k_flat_atomic_smax_x2
  flat_atomic_smax_x2 v[16:17], v[2:3]
END k_flat_atomic_smax_x2

BEGIN k_flat_atomic_smin_rtn
  flat_atomic_smin v10, v[16:17], v2 glc
END k_flat_atomic_smin_rtn

BEGIN k_flat_atomic_smin
  flat_atomic_smin v[16:17], v2
END k_flat_atomic_smin

BEGIN k_flat_atomic_smin_x2_rtn
  flat_atomic_smin_x2 v[10:11], v[16:17], v[2:3] glc
END k_flat_atomic_smin_x2_rtn

BEGIN k_flat_atomic_smin_x2
  flat_atomic_smin_x2 v[16:17], v[2:3]
END k_flat_atomic_smin_x2

BEGIN k_flat_atomic_sub_rtn
  flat_atomic_sub v10, v[16:17], v2 glc
END k_flat_atomic_sub_rtn

BEGIN k_flat_atomic_sub
  flat_atomic_sub v[16:17], v2
END k_flat_atomic_sub

BEGIN k_flat_atomic_sub_x2_rtn
  flat_atomic_sub_x2 v[10:11], v[16:17], v[2:3] glc
END k_flat_atomic_sub_x2_rtn

BEGIN k_flat_atomic_sub_x2
  flat_atomic_sub_x2 v[16:17], v[2:3]
END k_flat_atomic_sub_x2

BEGIN k_flat_atomic_swap_rtn
  flat_atomic_swap v10, v[16:17], v2 glc
END k_flat_atomic_swap_rtn

BEGIN k_flat_atomic_swap
  flat_atomic_swap v[16:17], v2
END k_flat_atomic_swap

BEGIN k_flat_atomic_swap_x2_rtn
  flat_atomic_swap_x2 v[10:11], v[16:17], v[2:3] glc
END k_flat_atomic_swap_x2_rtn

BEGIN k_flat_atomic_swap_x2
  flat_atomic_swap_x2 v[16:17], v[2:3]
END k_flat_atomic_swap_x2

BEGIN k_flat_atomic_umax_rtn
  flat_atomic_umax v10, v[16:17], v2 glc
END k_flat_atomic_umax_rtn

BEGIN k_flat_atomic_umax
  flat_atomic_umax v[16:17], v2
END k_flat_atomic_umax

BEGIN k_flat_atomic_umax_x2_rtn
  flat_atomic_umax_x2 v[10:11], v[16:17], v[2:3] glc
END k_flat_atomic_umax_x2_rtn

BEGIN k_flat_atomic_umax_x2
  flat_atomic_umax_x2 v[16:17], v[2:3]
END k_flat_atomic_umax_x2

BEGIN k_flat_atomic_umin_rtn
  flat_atomic_umin v10, v[16:17], v2 glc
END k_flat_atomic_umin_rtn

BEGIN k_flat_atomic_umin
  flat_atomic_umin v[16:17], v2
END k_flat_atomic_umin

BEGIN k_flat_atomic_umin_x2_rtn
  flat_atomic_umin_x2 v[10:11], v[16:17], v[2:3] glc
END k_flat_atomic_umin_x2_rtn

BEGIN k_flat_atomic_umin_x2
  flat_atomic_umin_x2 v[16:17], v[2:3]
END k_flat_atomic_umin_x2

BEGIN k_flat_atomic_xor_rtn
  flat_atomic_xor v10, v[16:17], v2 glc
END k_flat_atomic_xor_rtn

BEGIN k_flat_atomic_xor
  flat_atomic_xor v[16:17], v2
END k_flat_atomic_xor

BEGIN k_flat_atomic_xor_x2_rtn
  flat_atomic_xor_x2 v[10:11], v[16:17], v[2:3] glc
END k_flat_atomic_xor_x2_rtn

BEGIN k_flat_atomic_xor_x2
  flat_atomic_xor_x2 v[16:17], v[2:3]
END k_flat_atomic_xor_x2

BEGIN k_flat_load_dword
  flat_load_dword v10, v[16:17] offset:0
END k_flat_load_dword

BEGIN k_flat_load_dwordx2
  flat_load_dwordx2 v[10:11], v[16:17] offset:0
END k_flat_load_dwordx2

BEGIN k_flat_load_dwordx3
  flat_load_dwordx3 v[10:12], v[16:17] offset:0
END k_flat_load_dwordx3

BEGIN k_flat_load_dwordx4
  flat_load_dwordx4 v[10:13], v[16:17] offset:0
END k_flat_load_dwordx4

BEGIN k_flat_load_sbyte
  flat_load_sbyte v10, v[16:17] offset:1
END k_flat_load_sbyte

BEGIN k_flat_load_sbyte_d16
  flat_load_sbyte_d16 v10, v[16:17] offset:1
END k_flat_load_sbyte_d16

BEGIN k_flat_load_sbyte_d16_hi
  flat_load_sbyte_d16_hi v10, v[16:17] offset:1
END k_flat_load_sbyte_d16_hi

BEGIN k_flat_load_short_d16
  flat_load_short_d16 v10, v[16:17] offset:2
END k_flat_load_short_d16

BEGIN k_flat_load_short_d16_hi
  flat_load_short_d16_hi v10, v[16:17] offset:2
END k_flat_load_short_d16_hi

BEGIN k_flat_load_sshort
  flat_load_sshort v10, v[16:17] offset:2
END k_flat_load_sshort

BEGIN k_flat_load_ubyte
  flat_load_ubyte v10, v[16:17] offset:1
END k_flat_load_ubyte

BEGIN k_flat_load_ubyte_d16
  flat_load_ubyte_d16 v10, v[16:17] offset:1
END k_flat_load_ubyte_d16

BEGIN k_flat_load_ubyte_d16_hi
  flat_load_ubyte_d16_hi v10, v[16:17] offset:1
END k_flat_load_ubyte_d16_hi

BEGIN k_flat_load_ushort
  flat_load_ushort v10, v[16:17] offset:2
END k_flat_load_ushort

BEGIN k_flat_store_byte
  flat_store_byte v[16:17], v2 offset:3
END k_flat_store_byte

BEGIN k_flat_store_byte_d16_hi
  flat_store_byte_d16_hi v[16:17], v2 offset:3
END k_flat_store_byte_d16_hi

BEGIN k_flat_store_dword
  flat_store_dword v[16:17], v2 offset:0
END k_flat_store_dword

BEGIN k_flat_store_dwordx2
  flat_store_dwordx2 v[16:17], v[2:3] offset:0
END k_flat_store_dwordx2

BEGIN k_flat_store_dwordx3
  flat_store_dwordx3 v[16:17], v[2:4] offset:0
END k_flat_store_dwordx3

BEGIN k_flat_store_dwordx4
  flat_store_dwordx4 v[16:17], v[2:5] offset:0
END k_flat_store_dwordx4

BEGIN k_flat_store_short
  flat_store_short v[16:17], v2 offset:2
END k_flat_store_short

BEGIN k_flat_store_short_d16_hi
  flat_store_short_d16_hi v[16:17], v2 offset:2
END k_flat_store_short_d16_hi

BEGIN k_global_atomic_add_rtn
  global_atomic_add v10, v14, v2, s[12:13] glc
END k_global_atomic_add_rtn

BEGIN k_global_atomic_add
  global_atomic_add v14, v2, s[12:13]
END k_global_atomic_add

BEGIN k_global_atomic_add_f32_rtn
  global_atomic_add_f32 v10, v14, v2, s[12:13] glc
END k_global_atomic_add_f32_rtn

BEGIN k_global_atomic_add_f32
  global_atomic_add_f32 v14, v2, s[12:13]
END k_global_atomic_add_f32

BEGIN k_global_atomic_add_f64_rtn
  global_atomic_add_f64 v[10:11], v14, v[2:3], s[12:13] glc
END k_global_atomic_add_f64_rtn

BEGIN k_global_atomic_add_f64
  global_atomic_add_f64 v14, v[2:3], s[12:13]
END k_global_atomic_add_f64

BEGIN k_global_atomic_add_x2_rtn
  global_atomic_add_x2 v[10:11], v14, v[2:3], s[12:13] glc
END k_global_atomic_add_x2_rtn

BEGIN k_global_atomic_add_x2
  global_atomic_add_x2 v14, v[2:3], s[12:13]
END k_global_atomic_add_x2

BEGIN k_global_atomic_and_rtn
  global_atomic_and v10, v14, v2, s[12:13] glc
END k_global_atomic_and_rtn

BEGIN k_global_atomic_and
  global_atomic_and v14, v2, s[12:13]
END k_global_atomic_and

BEGIN k_global_atomic_and_x2_rtn
  global_atomic_and_x2 v[10:11], v14, v[2:3], s[12:13] glc
END k_global_atomic_and_x2_rtn

BEGIN k_global_atomic_and_x2
  global_atomic_and_x2 v14, v[2:3], s[12:13]
END k_global_atomic_and_x2

BEGIN k_global_atomic_cmpswap_rtn
  global_atomic_cmpswap v10, v14, v[2:3], s[12:13] glc
END k_global_atomic_cmpswap_rtn

BEGIN k_global_atomic_cmpswap
  global_atomic_cmpswap v14, v[2:3], s[12:13]
END k_global_atomic_cmpswap

BEGIN k_global_atomic_cmpswap_x2_rtn
  global_atomic_cmpswap_x2 v[10:11], v14, v[2:5], s[12:13] glc
END k_global_atomic_cmpswap_x2_rtn

BEGIN k_global_atomic_cmpswap_x2
  global_atomic_cmpswap_x2 v14, v[2:5], s[12:13]
END k_global_atomic_cmpswap_x2

BEGIN k_global_atomic_dec_rtn
  global_atomic_dec v10, v14, v2, s[12:13] glc
END k_global_atomic_dec_rtn

BEGIN k_global_atomic_dec
  global_atomic_dec v14, v2, s[12:13]
END k_global_atomic_dec

BEGIN k_global_atomic_dec_x2_rtn
  global_atomic_dec_x2 v[10:11], v14, v[2:3], s[12:13] glc
END k_global_atomic_dec_x2_rtn

BEGIN k_global_atomic_dec_x2
  global_atomic_dec_x2 v14, v[2:3], s[12:13]
END k_global_atomic_dec_x2

BEGIN k_global_atomic_inc_rtn
  global_atomic_inc v10, v14, v2, s[12:13] glc
END k_global_atomic_inc_rtn

BEGIN k_global_atomic_inc
  global_atomic_inc v14, v2, s[12:13]
END k_global_atomic_inc

BEGIN k_global_atomic_inc_x2_rtn
  global_atomic_inc_x2 v[10:11], v14, v[2:3], s[12:13] glc
END k_global_atomic_inc_x2_rtn

BEGIN k_global_atomic_inc_x2
  global_atomic_inc_x2 v14, v[2:3], s[12:13]
END k_global_atomic_inc_x2

BEGIN k_global_atomic_max_f64_rtn
  global_atomic_max_f64 v[10:11], v14, v[2:3], s[12:13] glc
END k_global_atomic_max_f64_rtn

BEGIN k_global_atomic_max_f64
  global_atomic_max_f64 v14, v[2:3], s[12:13]
END k_global_atomic_max_f64

BEGIN k_global_atomic_min_f64_rtn
  global_atomic_min_f64 v[10:11], v14, v[2:3], s[12:13] glc
END k_global_atomic_min_f64_rtn

BEGIN k_global_atomic_min_f64
  global_atomic_min_f64 v14, v[2:3], s[12:13]
END k_global_atomic_min_f64

BEGIN k_global_atomic_or_rtn
  global_atomic_or v10, v14, v2, s[12:13] glc
END k_global_atomic_or_rtn

BEGIN k_global_atomic_or
  global_atomic_or v14, v2, s[12:13]
END k_global_atomic_or

BEGIN k_global_atomic_or_x2_rtn
  global_atomic_or_x2 v[10:11], v14, v[2:3], s[12:13] glc
END k_global_atomic_or_x2_rtn

BEGIN k_global_atomic_or_x2
  global_atomic_or_x2 v14, v[2:3], s[12:13]
END k_global_atomic_or_x2

BEGIN k_global_atomic_pk_add_f16_rtn
  global_atomic_pk_add_f16 v10, v14, v2, s[12:13] glc
END k_global_atomic_pk_add_f16_rtn

BEGIN k_global_atomic_pk_add_f16
  global_atomic_pk_add_f16 v14, v2, s[12:13]
END k_global_atomic_pk_add_f16

BEGIN k_global_atomic_smax_rtn
  global_atomic_smax v10, v14, v2, s[12:13] glc
END k_global_atomic_smax_rtn

BEGIN k_global_atomic_smax
  global_atomic_smax v14, v2, s[12:13]
END k_global_atomic_smax

BEGIN k_global_atomic_smax_x2_rtn
  global_atomic_smax_x2 v[10:11], v14, v[2:3], s[12:13] glc
END k_global_atomic_smax_x2_rtn

BEGIN k_global_atomic_smax_x2
  global_atomic_smax_x2 v14, v[2:3], s[12:13]
END k_global_atomic_smax_x2

BEGIN k_global_atomic_smin_rtn
  global_atomic_smin v10, v14, v2, s[12:13] glc
END k_global_atomic_smin_rtn

BEGIN k_global_atomic_smin
  global_atomic_smin v14, v2, s[12:13]
END k_global_atomic_smin

BEGIN k_global_atomic_smin_x2_rtn
  global_atomic_smin_x2 v[10:11], v14, v[2:3], s[12:13] glc
END k_global_atomic_smin_x2_rtn

BEGIN k_global_atomic_smin_x2
  global_atomic_smin_x2 v14, v[2:3], s[12:13]
END k_global_atomic_smin_x2

BEGIN k_global_atomic_sub_rtn
  global_atomic_sub v10, v14, v2, s[12:13] glc
END k_global_atomic_sub_rtn

BEGIN k_global_atomic_sub
  global_atomic_sub v14, v2, s[12:13]
END k_global_atomic_sub

BEGIN k_global_atomic_sub_x2_rtn
  global_atomic_sub_x2 v[10:11], v14, v[2:3], s[12:13] glc
END k_global_atomic_sub_x2_rtn

BEGIN k_global_atomic_sub_x2
  global_atomic_sub_x2 v14, v[2:3], s[12:13]
END k_global_atomic_sub_x2

BEGIN k_global_atomic_swap_rtn
  global_atomic_swap v10, v14, v2, s[12:13] glc
END k_global_atomic_swap_rtn

BEGIN k_global_atomic_swap
  global_atomic_swap v14, v2, s[12:13]
END k_global_atomic_swap

BEGIN k_global_atomic_swap_x2_rtn
  global_atomic_swap_x2 v[10:11], v14, v[2:3], s[12:13] glc
END k_global_atomic_swap_x2_rtn

BEGIN k_global_atomic_swap_x2
  global_atomic_swap_x2 v14, v[2:3], s[12:13]
END k_global_atomic_swap_x2

BEGIN k_global_atomic_umax_rtn
  global_atomic_umax v10, v14, v2, s[12:13] glc
END k_global_atomic_umax_rtn

BEGIN k_global_atomic_umax
  global_atomic_umax v14, v2, s[12:13]
END k_global_atomic_umax

BEGIN k_global_atomic_umax_x2_rtn
  global_atomic_umax_x2 v[10:11], v14, v[2:3], s[12:13] glc
END k_global_atomic_umax_x2_rtn

BEGIN k_global_atomic_umax_x2
  global_atomic_umax_x2 v14, v[2:3], s[12:13]
END k_global_atomic_umax_x2

BEGIN k_global_atomic_umin_rtn
  global_atomic_umin v10, v14, v2, s[12:13] glc
END k_global_atomic_umin_rtn

BEGIN k_global_atomic_umin
  global_atomic_umin v14, v2, s[12:13]
END k_global_atomic_umin

BEGIN k_global_atomic_umin_x2_rtn
  global_atomic_umin_x2 v[10:11], v14, v[2:3], s[12:13] glc
END k_global_atomic_umin_x2_rtn

BEGIN k_global_atomic_umin_x2
  global_atomic_umin_x2 v14, v[2:3], s[12:13]
END k_global_atomic_umin_x2

BEGIN k_global_atomic_xor_rtn
  global_atomic_xor v10, v14, v2, s[12:13] glc
END k_global_atomic_xor_rtn

BEGIN k_global_atomic_xor
  global_atomic_xor v14, v2, s[12:13]
END k_global_atomic_xor

BEGIN k_global_atomic_xor_x2_rtn
  global_atomic_xor_x2 v[10:11], v14, v[2:3], s[12:13] glc
END k_global_atomic_xor_x2_rtn

BEGIN k_global_atomic_xor_x2
  global_atomic_xor_x2 v14, v[2:3], s[12:13]
END k_global_atomic_xor_x2

BEGIN k_global_load_dword
  global_load_dword v10, v14, s[12:13] offset:0
END k_global_load_dword

BEGIN k_global_load_dwordx2
  global_load_dwordx2 v[10:11], v14, s[12:13] offset:0
END k_global_load_dwordx2

BEGIN k_global_load_dwordx3
  global_load_dwordx3 v[10:12], v14, s[12:13] offset:0
END k_global_load_dwordx3

BEGIN k_global_load_dwordx4
  global_load_dwordx4 v[10:13], v14, s[12:13] offset:0
END k_global_load_dwordx4

BEGIN k_global_load_sbyte
  global_load_sbyte v10, v14, s[12:13] offset:1
END k_global_load_sbyte

BEGIN k_global_load_sbyte_d16
  global_load_sbyte_d16 v10, v14, s[12:13] offset:1
END k_global_load_sbyte_d16

BEGIN k_global_load_sbyte_d16_hi
  global_load_sbyte_d16_hi v10, v14, s[12:13] offset:1
END k_global_load_sbyte_d16_hi

BEGIN k_global_load_short_d16
  global_load_short_d16 v10, v14, s[12:13] offset:2
END k_global_load_short_d16

BEGIN k_global_load_short_d16_hi
  global_load_short_d16_hi v10, v14, s[12:13] offset:2
END k_global_load_short_d16_hi

BEGIN k_global_load_sshort
  global_load_sshort v10, v14, s[12:13] offset:2
END k_global_load_sshort

BEGIN k_global_load_ubyte
  global_load_ubyte v10, v14, s[12:13] offset:1
END k_global_load_ubyte

BEGIN k_global_load_ubyte_d16
  global_load_ubyte_d16 v10, v14, s[12:13] offset:1
END k_global_load_ubyte_d16

BEGIN k_global_load_ubyte_d16_hi
  global_load_ubyte_d16_hi v10, v14, s[12:13] offset:1
END k_global_load_ubyte_d16_hi

BEGIN k_global_load_ushort
  global_load_ushort v10, v14, s[12:13] offset:2
END k_global_load_ushort

BEGIN k_global_store_byte
  global_store_byte v14, v2, s[12:13] offset:3
END k_global_store_byte

BEGIN k_global_store_byte_d16_hi
  global_store_byte_d16_hi v14, v2, s[12:13] offset:3
END k_global_store_byte_d16_hi

BEGIN k_global_store_dword
  global_store_dword v14, v2, s[12:13] offset:0
END k_global_store_dword

BEGIN k_global_store_dwordx2
  global_store_dwordx2 v14, v[2:3], s[12:13] offset:0
END k_global_store_dwordx2

BEGIN k_global_store_dwordx3
  global_store_dwordx3 v14, v[2:4], s[12:13] offset:0
END k_global_store_dwordx3

BEGIN k_global_store_dwordx4
  global_store_dwordx4 v14, v[2:5], s[12:13] offset:0
END k_global_store_dwordx4

BEGIN k_global_store_short
  global_store_short v14, v2, s[12:13] offset:2
END k_global_store_short

BEGIN k_global_store_short_d16_hi
  global_store_short_d16_hi v14, v2, s[12:13] offset:2
END k_global_store_short_d16_hi

BEGIN k_tbuffer_load_format_d16_x
  tbuffer_load_format_d16_x v10, v14, s[8:11], 0 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT] offen offset:4
END k_tbuffer_load_format_d16_x

BEGIN k_tbuffer_load_format_d16_xy
  tbuffer_load_format_d16_xy v10, v14, s[8:11], 0 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT] offen offset:4
END k_tbuffer_load_format_d16_xy

BEGIN k_tbuffer_load_format_d16_xyz
  tbuffer_load_format_d16_xyz v[10:11], v14, s[8:11], 0 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT] offen offset:4
END k_tbuffer_load_format_d16_xyz

BEGIN k_tbuffer_load_format_d16_xyzw
  tbuffer_load_format_d16_xyzw v[10:11], v14, s[8:11], 0 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT] offen offset:4
END k_tbuffer_load_format_d16_xyzw

BEGIN k_tbuffer_load_format_x
  tbuffer_load_format_x v10, v14, s[8:11], 0 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT] offen offset:4
END k_tbuffer_load_format_x

BEGIN k_tbuffer_load_format_xy
  tbuffer_load_format_xy v[10:11], v14, s[8:11], 0 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT] offen offset:4
END k_tbuffer_load_format_xy

BEGIN k_tbuffer_load_format_xyz
  tbuffer_load_format_xyz v[10:12], v14, s[8:11], 0 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT] offen offset:4
END k_tbuffer_load_format_xyz

BEGIN k_tbuffer_load_format_xyzw
  tbuffer_load_format_xyzw v[10:13], v14, s[8:11], 0 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT] offen offset:4
END k_tbuffer_load_format_xyzw

BEGIN k_tbuffer_store_format_d16_x
  tbuffer_store_format_d16_x v2, v14, s[8:11], 0 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT] offen offset:4
END k_tbuffer_store_format_d16_x

BEGIN k_tbuffer_store_format_d16_xy
  tbuffer_store_format_d16_xy v2, v14, s[8:11], 0 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT] offen offset:4
END k_tbuffer_store_format_d16_xy

BEGIN k_tbuffer_store_format_d16_xyz
  tbuffer_store_format_d16_xyz v[2:3], v14, s[8:11], 0 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT] offen offset:4
END k_tbuffer_store_format_d16_xyz

BEGIN k_tbuffer_store_format_d16_xyzw
  tbuffer_store_format_d16_xyzw v[2:3], v14, s[8:11], 0 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT] offen offset:4
END k_tbuffer_store_format_d16_xyzw

BEGIN k_tbuffer_store_format_x
  tbuffer_store_format_x v2, v14, s[8:11], 0 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT] offen offset:4
END k_tbuffer_store_format_x

BEGIN k_tbuffer_store_format_xy
  tbuffer_store_format_xy v[2:3], v14, s[8:11], 0 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT] offen offset:4
END k_tbuffer_store_format_xy

BEGIN k_tbuffer_store_format_xyz
  tbuffer_store_format_xyz v[2:4], v14, s[8:11], 0 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT] offen offset:4
END k_tbuffer_store_format_xyz

BEGIN k_tbuffer_store_format_xyzw
  tbuffer_store_format_xyzw v[2:5], v14, s[8:11], 0 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT] offen offset:4
END k_tbuffer_store_format_xyzw

