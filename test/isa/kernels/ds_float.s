// ds_float.s — LDS float atomics for test_isa_ds_float.c (gfx90a): lane i
// loads a, b, c, d = in[4i .. 4i+3] into v2..v5, writes the pair (a, b) to
// LDS at 8i, runs the atomic with data (c, d) (and, for cmpst, the new
// value (~a, ~b) in v[10:11]) and stores the returned pair and the LDS
// pair after the op at out[4i .. 4i+3].  The 32-bit forms use a and c.
.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
.include "kernel.inc"

.macro T name, inst:vararg
  KSYM \name
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  v_lshlrev_b32 v6, 4, v0
  v_lshlrev_b32 v1, 3, v0
  s_waitcnt lgkmcnt(0)
  global_load_dwordx4 v[2:5], v6, s[4:5]
  s_waitcnt vmcnt(0)
  v_not_b32 v10, v2
  v_not_b32 v11, v3
  v_mov_b32 v12, 0
  v_mov_b32 v13, 0
  ds_write_b64 v1, v[2:3]
  s_waitcnt lgkmcnt(0)
  \inst
  s_waitcnt lgkmcnt(0)
  ds_read_b64 v[8:9], v1
  s_waitcnt lgkmcnt(0)
  global_store_dwordx2 v6, v[12:13], s[6:7]
  global_store_dwordx2 v6, v[8:9], s[6:7] offset:8
  s_endpgm
  KDESC \name, 16, 16, 16, lds=2048
.endm

T min_rtn_f64,    ds_min_rtn_f64 v[12:13], v1, v[4:5]
T max_rtn_f64,    ds_max_rtn_f64 v[12:13], v1, v[4:5]
T min_f64,        ds_min_f64 v1, v[4:5]
T max_f64,        ds_max_f64 v1, v[4:5]
T cmpst_rtn_f64,  ds_cmpst_rtn_f64 v[12:13], v1, v[4:5], v[10:11]
T cmpst_f64,      ds_cmpst_f64 v1, v[4:5], v[10:11]
T cmpst_rtn_f32,  ds_cmpst_rtn_f32 v12, v1, v4, v10
T cmpst_f32,      ds_cmpst_f32 v1, v4, v10
T wrxchg2_rtn_b32, ds_wrxchg2_rtn_b32 v[12:13], v1, v4, v5 offset1:1

// T2: 16 bytes of LDS per lane, (a, b, c, d) at 16i; the instruction's data
// are v[16:17] = (~a, ~b) and v[18:19] = (~c, ~d); out[8i .. 8i+7] gets
// v[12:15] (returned) and the 16 bytes after the op.
.macro T2 name, inst:vararg
  KSYM \name
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  v_lshlrev_b32 v6, 4, v0
  v_lshlrev_b32 v1, 4, v0
  v_lshlrev_b32 v7, 5, v0
  s_waitcnt lgkmcnt(0)
  global_load_dwordx4 v[2:5], v6, s[4:5]
  s_waitcnt vmcnt(0)
  v_not_b32 v16, v2
  v_not_b32 v17, v3
  v_not_b32 v18, v4
  v_not_b32 v19, v5
  v_mov_b32 v12, 0
  v_mov_b32 v13, 0
  v_mov_b32 v14, 0
  v_mov_b32 v15, 0
  ds_write_b128 v1, v[2:5]
  s_waitcnt lgkmcnt(0)
  \inst
  s_waitcnt lgkmcnt(0)
  ds_read_b128 v[8:11], v1
  s_waitcnt lgkmcnt(0)
  global_store_dwordx4 v7, v[12:15], s[6:7]
  global_store_dwordx4 v7, v[8:11], s[6:7] offset:16
  s_endpgm
  KDESC \name, 24, 16, 24, lds=4096
.endm

T2 wrxchg2_rtn_b64, ds_wrxchg2_rtn_b64 v[12:15], v1, v[16:17], v[18:19] offset1:1
