// ds.s — one kernel per LDS form for test_isa_ds.c (gfx90a), GENERATED
// with its form table from emu/isa/isa_table.tsv.  Kernarg {const uint32_t
// *in, uint32_t *out}; one wave.  The 4 KiB of LDS start as in[0 .. 1023]
// (lane l copies dwords 16l .. 16l+15); lane l's record in[1024 + 16l ..]
// holds v[2:5] and v[6:9] (data) and v[10:13] (the destination's starting
// value).  The address is v15 = 16 l (v18 = 4 l and v19 = 8 l for the
// st64 forms, whose second element is 256 or 512 bytes on).  After the
// instruction lane l stores v[10:13] at out[4l ..] and the LDS (its 64
// bytes) at out[256 + 16l ..].
.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
.include "kernel.inc"

.macro KD name
  KDESC \name, 40, 16, 40, lds=4096
.endm

.macro T name, inst:vararg
  KSYM \name
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  v_lshlrev_b32 v1, 6, v0
  v_lshlrev_b32 v15, 4, v0
  v_lshlrev_b32 v18, 2, v0
  v_lshlrev_b32 v19, 3, v0
  s_waitcnt lgkmcnt(0)
  global_load_dwordx4 v[20:23], v1, s[4:5]
  global_load_dwordx4 v[24:27], v1, s[4:5] offset:16
  global_load_dwordx4 v[28:31], v1, s[4:5] offset:32
  global_load_dwordx4 v[32:35], v1, s[4:5] offset:48
  v_add_u32 v16, 0x1000, v1
  global_load_dwordx4 v[2:5], v16, s[4:5]
  global_load_dwordx4 v[6:9], v16, s[4:5] offset:16
  global_load_dwordx4 v[10:13], v16, s[4:5] offset:32
  s_waitcnt vmcnt(0)
  ds_write_b128 v1, v[20:23]
  ds_write_b128 v1, v[24:27] offset:16
  ds_write_b128 v1, v[28:31] offset:32
  ds_write_b128 v1, v[32:35] offset:48
  s_waitcnt lgkmcnt(0)
  s_barrier
  \inst
  s_waitcnt lgkmcnt(0)
  s_barrier
  ds_read_b128 v[20:23], v1
  ds_read_b128 v[24:27], v1 offset:16
  ds_read_b128 v[28:31], v1 offset:32
  ds_read_b128 v[32:35], v1 offset:48
  v_lshlrev_b32 v14, 4, v0
  s_waitcnt lgkmcnt(0)
  global_store_dwordx4 v14, v[10:13], s[6:7]
  v_add_u32 v16, 0x400, v1
  global_store_dwordx4 v16, v[20:23], s[6:7]
  global_store_dwordx4 v16, v[24:27], s[6:7] offset:16
  global_store_dwordx4 v16, v[28:31], s[6:7] offset:32
  global_store_dwordx4 v16, v[32:35], s[6:7] offset:48
  s_endpgm
  KD \name
.endm

T k_ds_add_f32, ds_add_f32 v15, v2 offset:4
T k_ds_add_f64, ds_add_f64 v15, v[2:3] offset:4
T k_ds_add_rtn_f32, ds_add_rtn_f32 v10, v15, v2 offset:4
T k_ds_add_rtn_f64, ds_add_rtn_f64 v[10:11], v15, v[2:3] offset:4
T k_ds_add_rtn_u32, ds_add_rtn_u32 v10, v15, v2 offset:4
T k_ds_add_rtn_u64, ds_add_rtn_u64 v[10:11], v15, v[2:3] offset:4
T k_ds_add_u32, ds_add_u32 v15, v2 offset:4
T k_ds_add_u64, ds_add_u64 v15, v[2:3] offset:4
T k_ds_and_b32, ds_and_b32 v15, v2 offset:4
T k_ds_and_b64, ds_and_b64 v15, v[2:3] offset:4
T k_ds_and_rtn_b32, ds_and_rtn_b32 v10, v15, v2 offset:4
T k_ds_and_rtn_b64, ds_and_rtn_b64 v[10:11], v15, v[2:3] offset:4
T k_ds_cmpst_b32, ds_cmpst_b32 v15, v2, v6 offset:4
T k_ds_cmpst_b64, ds_cmpst_b64 v15, v[2:3], v[6:7] offset:4
T k_ds_cmpst_f32, ds_cmpst_f32 v15, v2, v6 offset:4
T k_ds_cmpst_f64, ds_cmpst_f64 v15, v[2:3], v[6:7] offset:4
T k_ds_cmpst_rtn_b32, ds_cmpst_rtn_b32 v10, v15, v2, v6 offset:4
T k_ds_cmpst_rtn_b64, ds_cmpst_rtn_b64 v[10:11], v15, v[2:3], v[6:7] offset:4
T k_ds_cmpst_rtn_f32, ds_cmpst_rtn_f32 v10, v15, v2, v6 offset:4
T k_ds_cmpst_rtn_f64, ds_cmpst_rtn_f64 v[10:11], v15, v[2:3], v[6:7] offset:4
T k_ds_dec_rtn_u32, ds_dec_rtn_u32 v10, v15, v2 offset:4
T k_ds_dec_rtn_u64, ds_dec_rtn_u64 v[10:11], v15, v[2:3] offset:4
T k_ds_dec_u32, ds_dec_u32 v15, v2 offset:4
T k_ds_dec_u64, ds_dec_u64 v15, v[2:3] offset:4
T k_ds_inc_rtn_u32, ds_inc_rtn_u32 v10, v15, v2 offset:4
T k_ds_inc_rtn_u64, ds_inc_rtn_u64 v[10:11], v15, v[2:3] offset:4
T k_ds_inc_u32, ds_inc_u32 v15, v2 offset:4
T k_ds_inc_u64, ds_inc_u64 v15, v[2:3] offset:4
T k_ds_max_f32, ds_max_f32 v15, v2 offset:4
T k_ds_max_f64, ds_max_f64 v15, v[2:3] offset:4
T k_ds_max_i32, ds_max_i32 v15, v2 offset:4
T k_ds_max_i64, ds_max_i64 v15, v[2:3] offset:4
T k_ds_max_rtn_f32, ds_max_rtn_f32 v10, v15, v2 offset:4
T k_ds_max_rtn_f64, ds_max_rtn_f64 v[10:11], v15, v[2:3] offset:4
T k_ds_max_rtn_i32, ds_max_rtn_i32 v10, v15, v2 offset:4
T k_ds_max_rtn_i64, ds_max_rtn_i64 v[10:11], v15, v[2:3] offset:4
T k_ds_max_rtn_u32, ds_max_rtn_u32 v10, v15, v2 offset:4
T k_ds_max_rtn_u64, ds_max_rtn_u64 v[10:11], v15, v[2:3] offset:4
T k_ds_max_u32, ds_max_u32 v15, v2 offset:4
T k_ds_max_u64, ds_max_u64 v15, v[2:3] offset:4
T k_ds_min_f32, ds_min_f32 v15, v2 offset:4
T k_ds_min_f64, ds_min_f64 v15, v[2:3] offset:4
T k_ds_min_i32, ds_min_i32 v15, v2 offset:4
T k_ds_min_i64, ds_min_i64 v15, v[2:3] offset:4
T k_ds_min_rtn_f32, ds_min_rtn_f32 v10, v15, v2 offset:4
T k_ds_min_rtn_f64, ds_min_rtn_f64 v[10:11], v15, v[2:3] offset:4
T k_ds_min_rtn_i32, ds_min_rtn_i32 v10, v15, v2 offset:4
T k_ds_min_rtn_i64, ds_min_rtn_i64 v[10:11], v15, v[2:3] offset:4
T k_ds_min_rtn_u32, ds_min_rtn_u32 v10, v15, v2 offset:4
T k_ds_min_rtn_u64, ds_min_rtn_u64 v[10:11], v15, v[2:3] offset:4
T k_ds_min_u32, ds_min_u32 v15, v2 offset:4
T k_ds_min_u64, ds_min_u64 v15, v[2:3] offset:4
T k_ds_mskor_b32, ds_mskor_b32 v15, v2, v6 offset:4
T k_ds_mskor_b64, ds_mskor_b64 v15, v[2:3], v[6:7] offset:4
T k_ds_mskor_rtn_b32, ds_mskor_rtn_b32 v10, v15, v2, v6 offset:4
T k_ds_mskor_rtn_b64, ds_mskor_rtn_b64 v[10:11], v15, v[2:3], v[6:7] offset:4
T k_ds_nop, ds_nop
T k_ds_or_b32, ds_or_b32 v15, v2 offset:4
T k_ds_or_b64, ds_or_b64 v15, v[2:3] offset:4
T k_ds_or_rtn_b32, ds_or_rtn_b32 v10, v15, v2 offset:4
T k_ds_or_rtn_b64, ds_or_rtn_b64 v[10:11], v15, v[2:3] offset:4
T k_ds_read2_b32, ds_read2_b32 v[10:11], v15 offset1:2
T k_ds_read2_b64, ds_read2_b64 v[10:13], v15 offset1:1
T k_ds_read2st64_b32, ds_read2st64_b32 v[10:11], v18 offset1:1
T k_ds_read2st64_b64, ds_read2st64_b64 v[10:13], v19 offset1:1
T k_ds_read_b128, ds_read_b128 v[10:13], v15 offset:0
T k_ds_read_b32, ds_read_b32 v10, v15 offset:0
T k_ds_read_b64, ds_read_b64 v[10:11], v15 offset:0
T k_ds_read_b96, ds_read_b96 v[10:12], v15 offset:0
T k_ds_read_i16, ds_read_i16 v10, v15 offset:2
T k_ds_read_i8, ds_read_i8 v10, v15 offset:3
T k_ds_read_i8_d16, ds_read_i8_d16 v10, v15 offset:3
T k_ds_read_i8_d16_hi, ds_read_i8_d16_hi v10, v15 offset:3
T k_ds_read_u16, ds_read_u16 v10, v15 offset:2
T k_ds_read_u16_d16, ds_read_u16_d16 v10, v15 offset:2
T k_ds_read_u16_d16_hi, ds_read_u16_d16_hi v10, v15 offset:2
T k_ds_read_u8, ds_read_u8 v10, v15 offset:3
T k_ds_read_u8_d16, ds_read_u8_d16 v10, v15 offset:3
T k_ds_read_u8_d16_hi, ds_read_u8_d16_hi v10, v15 offset:3
T k_ds_rsub_rtn_u32, ds_rsub_rtn_u32 v10, v15, v2 offset:4
T k_ds_rsub_rtn_u64, ds_rsub_rtn_u64 v[10:11], v15, v[2:3] offset:4
T k_ds_rsub_u32, ds_rsub_u32 v15, v2 offset:4
T k_ds_rsub_u64, ds_rsub_u64 v15, v[2:3] offset:4
T k_ds_sub_rtn_u32, ds_sub_rtn_u32 v10, v15, v2 offset:4
T k_ds_sub_rtn_u64, ds_sub_rtn_u64 v[10:11], v15, v[2:3] offset:4
T k_ds_sub_u32, ds_sub_u32 v15, v2 offset:4
T k_ds_sub_u64, ds_sub_u64 v15, v[2:3] offset:4
T k_ds_write2_b32, ds_write2_b32 v15, v2, v6 offset1:2
T k_ds_write2_b64, ds_write2_b64 v15, v[2:3], v[6:7] offset1:1
T k_ds_write2st64_b32, ds_write2st64_b32 v18, v2, v6 offset1:1
T k_ds_write2st64_b64, ds_write2st64_b64 v19, v[2:3], v[6:7] offset1:1
T k_ds_write_b128, ds_write_b128 v15, v[2:5] offset:0
T k_ds_write_b16, ds_write_b16 v15, v2 offset:2
T k_ds_write_b16_d16_hi, ds_write_b16_d16_hi v15, v2 offset:2
T k_ds_write_b32, ds_write_b32 v15, v2 offset:0
T k_ds_write_b64, ds_write_b64 v15, v[2:3] offset:0
T k_ds_write_b8, ds_write_b8 v15, v2 offset:3
T k_ds_write_b8_d16_hi, ds_write_b8_d16_hi v15, v2 offset:3
T k_ds_write_b96, ds_write_b96 v15, v[2:4] offset:0
T k_ds_wrxchg2_rtn_b32, ds_wrxchg2_rtn_b32 v[10:11], v15, v2, v6 offset1:2
T k_ds_wrxchg2_rtn_b64, ds_wrxchg2_rtn_b64 v[10:13], v15, v[2:3], v[6:7] offset1:1
T k_ds_wrxchg2st64_rtn_b32, ds_wrxchg2st64_rtn_b32 v[10:11], v18, v2, v6 offset1:1
T k_ds_wrxchg2st64_rtn_b64, ds_wrxchg2st64_rtn_b64 v[10:13], v19, v[2:3], v[6:7] offset1:1
T k_ds_wrxchg_rtn_b32, ds_wrxchg_rtn_b32 v10, v15, v2 offset:4
T k_ds_wrxchg_rtn_b64, ds_wrxchg_rtn_b64 v[10:11], v15, v[2:3] offset:4
T k_ds_xor_b32, ds_xor_b32 v15, v2 offset:4
T k_ds_xor_b64, ds_xor_b64 v15, v[2:3] offset:4
T k_ds_xor_rtn_b32, ds_xor_rtn_b32 v10, v15, v2 offset:4
T k_ds_xor_rtn_b64, ds_xor_rtn_b64 v[10:11], v15, v[2:3] offset:4
