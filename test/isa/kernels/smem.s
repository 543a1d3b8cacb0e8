// smem.s — one kernel per scalar memory form for test_isa_smem.c (gfx90a),
// GENERATED with its form table from emu/isa/isa_table.tsv.  Kernarg
// {const uint32_t *in, uint32_t *out, uint8_t *mem}; workgroup g (one
// wave) loads s[24:39] from in[16g ..], works on mem[64g ..] (s[12:13];
// s[8:11] a raw V# over it), and stores s[24:39] at out[16g ..].
.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
.include "kernel.inc"

.macro KD name
  KDESC \name, 24, 48, 24
.endm

.macro T name, inst:vararg
  KSYM \name
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_load_dwordx2 s[12:13], s[0:1], 0x10
  s_lshl_b32 s14, s2, 6
  s_waitcnt lgkmcnt(0)
  s_add_u32 s4, s4, s14
  s_addc_u32 s5, s5, 0
  s_add_u32 s12, s12, s14
  s_addc_u32 s13, s13, 0
  s_add_u32 s6, s6, s14
  s_addc_u32 s7, s7, 0
  s_load_dwordx16 s[24:39], s[4:5], 0x0
  s_mov_b32 s8, s12
  s_mov_b32 s9, s13
  s_mov_b32 s10, -1
  s_mov_b32 s11, 0x27000
  s_waitcnt lgkmcnt(0)
  \inst
  s_waitcnt lgkmcnt(0)
  s_dcache_wb
  v_mov_b32 v2, s24
  v_mov_b32 v3, s25
  v_mov_b32 v4, s26
  v_mov_b32 v5, s27
  v_mov_b32 v6, s28
  v_mov_b32 v7, s29
  v_mov_b32 v8, s30
  v_mov_b32 v9, s31
  v_mov_b32 v10, s32
  v_mov_b32 v11, s33
  v_mov_b32 v12, s34
  v_mov_b32 v13, s35
  v_mov_b32 v14, s36
  v_mov_b32 v15, s37
  v_mov_b32 v16, s38
  v_mov_b32 v17, s39
  v_mov_b32 v1, 0
  global_store_dwordx4 v1, v[2:5], s[6:7]
  global_store_dwordx4 v1, v[6:9], s[6:7] offset:16
  global_store_dwordx4 v1, v[10:13], s[6:7] offset:32
  global_store_dwordx4 v1, v[14:17], s[6:7] offset:48
  s_endpgm
  KD \name
.endm

T k_s_atomic_add_rtn, s_atomic_add s24, s[12:13], 0x8 glc
T k_s_atomic_add, s_atomic_add s24, s[12:13], 0x8
T k_s_atomic_add_x2_rtn, s_atomic_add_x2 s[24:25], s[12:13], 0x8 glc
T k_s_atomic_add_x2, s_atomic_add_x2 s[24:25], s[12:13], 0x8
T k_s_atomic_and_rtn, s_atomic_and s24, s[12:13], 0x8 glc
T k_s_atomic_and, s_atomic_and s24, s[12:13], 0x8
T k_s_atomic_and_x2_rtn, s_atomic_and_x2 s[24:25], s[12:13], 0x8 glc
T k_s_atomic_and_x2, s_atomic_and_x2 s[24:25], s[12:13], 0x8
T k_s_atomic_cmpswap_rtn, s_atomic_cmpswap s[24:25], s[12:13], 0x8 glc
T k_s_atomic_cmpswap, s_atomic_cmpswap s[24:25], s[12:13], 0x8
T k_s_atomic_cmpswap_x2_rtn, s_atomic_cmpswap_x2 s[24:27], s[12:13], 0x8 glc
T k_s_atomic_cmpswap_x2, s_atomic_cmpswap_x2 s[24:27], s[12:13], 0x8
T k_s_atomic_dec_rtn, s_atomic_dec s24, s[12:13], 0x8 glc
T k_s_atomic_dec, s_atomic_dec s24, s[12:13], 0x8
T k_s_atomic_dec_x2_rtn, s_atomic_dec_x2 s[24:25], s[12:13], 0x8 glc
T k_s_atomic_dec_x2, s_atomic_dec_x2 s[24:25], s[12:13], 0x8
T k_s_atomic_inc_rtn, s_atomic_inc s24, s[12:13], 0x8 glc
T k_s_atomic_inc, s_atomic_inc s24, s[12:13], 0x8
T k_s_atomic_inc_x2_rtn, s_atomic_inc_x2 s[24:25], s[12:13], 0x8 glc
T k_s_atomic_inc_x2, s_atomic_inc_x2 s[24:25], s[12:13], 0x8
T k_s_atomic_or_rtn, s_atomic_or s24, s[12:13], 0x8 glc
T k_s_atomic_or, s_atomic_or s24, s[12:13], 0x8
T k_s_atomic_or_x2_rtn, s_atomic_or_x2 s[24:25], s[12:13], 0x8 glc
T k_s_atomic_or_x2, s_atomic_or_x2 s[24:25], s[12:13], 0x8
T k_s_atomic_smax_rtn, s_atomic_smax s24, s[12:13], 0x8 glc
T k_s_atomic_smax, s_atomic_smax s24, s[12:13], 0x8
T k_s_atomic_smax_x2_rtn, s_atomic_smax_x2 s[24:25], s[12:13], 0x8 glc
T k_s_atomic_smax_x2, s_atomic_smax_x2 s[24:25], s[12:13], 0x8
T k_s_atomic_smin_rtn, s_atomic_smin s24, s[12:13], 0x8 glc
T k_s_atomic_smin, s_atomic_smin s24, s[12:13], 0x8
T k_s_atomic_smin_x2_rtn, s_atomic_smin_x2 s[24:25], s[12:13], 0x8 glc
T k_s_atomic_smin_x2, s_atomic_smin_x2 s[24:25], s[12:13], 0x8
T k_s_atomic_sub_rtn, s_atomic_sub s24, s[12:13], 0x8 glc
T k_s_atomic_sub, s_atomic_sub s24, s[12:13], 0x8
T k_s_atomic_sub_x2_rtn, s_atomic_sub_x2 s[24:25], s[12:13], 0x8 glc
T k_s_atomic_sub_x2, s_atomic_sub_x2 s[24:25], s[12:13], 0x8
T k_s_atomic_swap_rtn, s_atomic_swap s24, s[12:13], 0x8 glc
T k_s_atomic_swap, s_atomic_swap s24, s[12:13], 0x8
T k_s_atomic_swap_x2_rtn, s_atomic_swap_x2 s[24:25], s[12:13], 0x8 glc
T k_s_atomic_swap_x2, s_atomic_swap_x2 s[24:25], s[12:13], 0x8
T k_s_atomic_umax_rtn, s_atomic_umax s24, s[12:13], 0x8 glc
T k_s_atomic_umax, s_atomic_umax s24, s[12:13], 0x8
T k_s_atomic_umax_x2_rtn, s_atomic_umax_x2 s[24:25], s[12:13], 0x8 glc
T k_s_atomic_umax_x2, s_atomic_umax_x2 s[24:25], s[12:13], 0x8
T k_s_atomic_umin_rtn, s_atomic_umin s24, s[12:13], 0x8 glc
T k_s_atomic_umin, s_atomic_umin s24, s[12:13], 0x8
T k_s_atomic_umin_x2_rtn, s_atomic_umin_x2 s[24:25], s[12:13], 0x8 glc
T k_s_atomic_umin_x2, s_atomic_umin_x2 s[24:25], s[12:13], 0x8
T k_s_atomic_xor_rtn, s_atomic_xor s24, s[12:13], 0x8 glc
T k_s_atomic_xor, s_atomic_xor s24, s[12:13], 0x8
T k_s_atomic_xor_x2_rtn, s_atomic_xor_x2 s[24:25], s[12:13], 0x8 glc
T k_s_atomic_xor_x2, s_atomic_xor_x2 s[24:25], s[12:13], 0x8
T k_s_buffer_atomic_add_rtn, s_buffer_atomic_add s24, s[8:11], 0x8 glc
T k_s_buffer_atomic_add, s_buffer_atomic_add s24, s[8:11], 0x8
T k_s_buffer_atomic_add_x2_rtn, s_buffer_atomic_add_x2 s[24:25], s[8:11], 0x8 glc
T k_s_buffer_atomic_add_x2, s_buffer_atomic_add_x2 s[24:25], s[8:11], 0x8
T k_s_buffer_atomic_and_rtn, s_buffer_atomic_and s24, s[8:11], 0x8 glc
T k_s_buffer_atomic_and, s_buffer_atomic_and s24, s[8:11], 0x8
T k_s_buffer_atomic_and_x2_rtn, s_buffer_atomic_and_x2 s[24:25], s[8:11], 0x8 glc
T k_s_buffer_atomic_and_x2, s_buffer_atomic_and_x2 s[24:25], s[8:11], 0x8
T k_s_buffer_atomic_cmpswap_rtn, s_buffer_atomic_cmpswap s[24:25], s[8:11], 0x8 glc
T k_s_buffer_atomic_cmpswap, s_buffer_atomic_cmpswap s[24:25], s[8:11], 0x8
T k_s_buffer_atomic_cmpswap_x2_rtn, s_buffer_atomic_cmpswap_x2 s[24:27], s[8:11], 0x8 glc
T k_s_buffer_atomic_cmpswap_x2, s_buffer_atomic_cmpswap_x2 s[24:27], s[8:11], 0x8
T k_s_buffer_atomic_dec_rtn, s_buffer_atomic_dec s24, s[8:11], 0x8 glc
T k_s_buffer_atomic_dec, s_buffer_atomic_dec s24, s[8:11], 0x8
T k_s_buffer_atomic_dec_x2_rtn, s_buffer_atomic_dec_x2 s[24:25], s[8:11], 0x8 glc
T k_s_buffer_atomic_dec_x2, s_buffer_atomic_dec_x2 s[24:25], s[8:11], 0x8
T k_s_buffer_atomic_inc_rtn, s_buffer_atomic_inc s24, s[8:11], 0x8 glc
T k_s_buffer_atomic_inc, s_buffer_atomic_inc s24, s[8:11], 0x8
T k_s_buffer_atomic_inc_x2_rtn, s_buffer_atomic_inc_x2 s[24:25], s[8:11], 0x8 glc
T k_s_buffer_atomic_inc_x2, s_buffer_atomic_inc_x2 s[24:25], s[8:11], 0x8
T k_s_buffer_atomic_or_rtn, s_buffer_atomic_or s24, s[8:11], 0x8 glc
T k_s_buffer_atomic_or, s_buffer_atomic_or s24, s[8:11], 0x8
T k_s_buffer_atomic_or_x2_rtn, s_buffer_atomic_or_x2 s[24:25], s[8:11], 0x8 glc
T k_s_buffer_atomic_or_x2, s_buffer_atomic_or_x2 s[24:25], s[8:11], 0x8
T k_s_buffer_atomic_smax_rtn, s_buffer_atomic_smax s24, s[8:11], 0x8 glc
T k_s_buffer_atomic_smax, s_buffer_atomic_smax s24, s[8:11], 0x8
T k_s_buffer_atomic_smax_x2_rtn, s_buffer_atomic_smax_x2 s[24:25], s[8:11], 0x8 glc
T k_s_buffer_atomic_smax_x2, s_buffer_atomic_smax_x2 s[24:25], s[8:11], 0x8
T k_s_buffer_atomic_smin_rtn, s_buffer_atomic_smin s24, s[8:11], 0x8 glc
T k_s_buffer_atomic_smin, s_buffer_atomic_smin s24, s[8:11], 0x8
T k_s_buffer_atomic_smin_x2_rtn, s_buffer_atomic_smin_x2 s[24:25], s[8:11], 0x8 glc
T k_s_buffer_atomic_smin_x2, s_buffer_atomic_smin_x2 s[24:25], s[8:11], 0x8
T k_s_buffer_atomic_sub_rtn, s_buffer_atomic_sub s24, s[8:11], 0x8 glc
T k_s_buffer_atomic_sub, s_buffer_atomic_sub s24, s[8:11], 0x8
T k_s_buffer_atomic_sub_x2_rtn, s_buffer_atomic_sub_x2 s[24:25], s[8:11], 0x8 glc
T k_s_buffer_atomic_sub_x2, s_buffer_atomic_sub_x2 s[24:25], s[8:11], 0x8
T k_s_buffer_atomic_swap_rtn, s_buffer_atomic_swap s24, s[8:11], 0x8 glc
T k_s_buffer_atomic_swap, s_buffer_atomic_swap s24, s[8:11], 0x8
T k_s_buffer_atomic_swap_x2_rtn, s_buffer_atomic_swap_x2 s[24:25], s[8:11], 0x8 glc
T k_s_buffer_atomic_swap_x2, s_buffer_atomic_swap_x2 s[24:25], s[8:11], 0x8
T k_s_buffer_atomic_umax_rtn, s_buffer_atomic_umax s24, s[8:11], 0x8 glc
T k_s_buffer_atomic_umax, s_buffer_atomic_umax s24, s[8:11], 0x8
T k_s_buffer_atomic_umax_x2_rtn, s_buffer_atomic_umax_x2 s[24:25], s[8:11], 0x8 glc
T k_s_buffer_atomic_umax_x2, s_buffer_atomic_umax_x2 s[24:25], s[8:11], 0x8
T k_s_buffer_atomic_umin_rtn, s_buffer_atomic_umin s24, s[8:11], 0x8 glc
T k_s_buffer_atomic_umin, s_buffer_atomic_umin s24, s[8:11], 0x8
T k_s_buffer_atomic_umin_x2_rtn, s_buffer_atomic_umin_x2 s[24:25], s[8:11], 0x8 glc
T k_s_buffer_atomic_umin_x2, s_buffer_atomic_umin_x2 s[24:25], s[8:11], 0x8
T k_s_buffer_atomic_xor_rtn, s_buffer_atomic_xor s24, s[8:11], 0x8 glc
T k_s_buffer_atomic_xor, s_buffer_atomic_xor s24, s[8:11], 0x8
T k_s_buffer_atomic_xor_x2_rtn, s_buffer_atomic_xor_x2 s[24:25], s[8:11], 0x8 glc
T k_s_buffer_atomic_xor_x2, s_buffer_atomic_xor_x2 s[24:25], s[8:11], 0x8
T k_s_buffer_load_dword, s_buffer_load_dword s24, s[8:11], 0x4
T k_s_buffer_load_dwordx16, s_buffer_load_dwordx16 s[24:39], s[8:11], 0x0
T k_s_buffer_load_dwordx2, s_buffer_load_dwordx2 s[24:25], s[8:11], 0x8
T k_s_buffer_load_dwordx4, s_buffer_load_dwordx4 s[24:27], s[8:11], 0x10
T k_s_buffer_load_dwordx8, s_buffer_load_dwordx8 s[24:31], s[8:11], 0x0
T k_s_buffer_store_dword, s_buffer_store_dword s24, s[8:11], 0x4
T k_s_buffer_store_dwordx2, s_buffer_store_dwordx2 s[24:25], s[8:11], 0x8
T k_s_buffer_store_dwordx4, s_buffer_store_dwordx4 s[24:27], s[8:11], 0x10
T k_s_dcache_discard, s_dcache_discard s[12:13], 0x0
T k_s_dcache_discard_x2, s_dcache_discard_x2 s[12:13], 0x0
T k_s_dcache_inv, s_dcache_inv
T k_s_dcache_inv_vol, s_dcache_inv_vol
T k_s_dcache_wb, s_dcache_wb
T k_s_dcache_wb_vol, s_dcache_wb_vol
T k_s_load_dword, s_load_dword s24, s[12:13], 0x4
T k_s_load_dwordx16, s_load_dwordx16 s[24:39], s[12:13], 0x0
T k_s_load_dwordx2, s_load_dwordx2 s[24:25], s[12:13], 0x8
T k_s_load_dwordx4, s_load_dwordx4 s[24:27], s[12:13], 0x10
T k_s_load_dwordx8, s_load_dwordx8 s[24:31], s[12:13], 0x0
T k_s_store_dword, s_store_dword s24, s[12:13], 0x4
T k_s_store_dwordx2, s_store_dwordx2 s[24:25], s[12:13], 0x8
T k_s_store_dwordx4, s_store_dwordx4 s[24:27], s[12:13], 0x10
