// dsextra942.s — kernels for test_isa_dsextra.c (gfx942): the packed LDS
// adds ds_pk_add(_rtn)_f16/bf16 and global/flat_atomic_pk_add_bf16.
// Kernarg {const uint32_t *in, uint32_t *out, uint32_t *mem}; one wave of
// 64: lane l loads its 8-dword record in[8l ..] into v[2:9] and stores
// v[10:13] at out[4l ..].  LDS dword l (and mem[l]) starts as v2; the
// packed add takes v3; v10 is the returned old value, v11 the new memory.
.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
.include "kernel.inc"

.macro KD name
  KDESC \name, 24, 24, 24, lds=1024
.endm

.macro BEGIN name
  KSYM \name
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_load_dwordx2 s[8:9], s[0:1], 0x10
  v_lshlrev_b32 v1, 5, v0
  v_lshlrev_b32 v14, 4, v0
  s_waitcnt lgkmcnt(0)
  global_load_dwordx4 v[2:5], v1, s[4:5]
  global_load_dwordx4 v[6:9], v1, s[4:5] offset:16
  v_mov_b32 v10, 0xdeadbeef
  v_mov_b32 v11, 0xdeadbeef
  v_mov_b32 v12, 0xdeadbeef
  v_mov_b32 v13, 0xdeadbeef
  v_lshlrev_b32 v15, 2, v0            // 4 * lane
  s_waitcnt vmcnt(0)
.endm

.macro END name
  global_store_dwordx4 v14, v[10:13], s[6:7]
  s_endpgm
  KD \name
.endm

.macro LDSOP name, inst:vararg
BEGIN \name
  ds_write_b32 v15, v2
  s_waitcnt lgkmcnt(0)
  \inst
  s_waitcnt lgkmcnt(0)
  ds_read_b32 v11, v15
  s_waitcnt lgkmcnt(0)
END \name
.endm

LDSOP ds_pk_add_f16, ds_pk_add_f16 v15, v3
LDSOP ds_pk_add_rtn_f16, ds_pk_add_rtn_f16 v10, v15, v3
LDSOP ds_pk_add_bf16, ds_pk_add_bf16 v15, v3
LDSOP ds_pk_add_rtn_bf16, ds_pk_add_rtn_bf16 v10, v15, v3

// every lane adds v3 to LDS dword 0 (which starts as lane 0's v2): the
// test's data are small integers, exact in any order
BEGIN ds_pk_add_f16_same
  v_mov_b32 v16, 0
  v_readfirstlane_b32 s10, v2
  v_mov_b32 v17, s10
  ds_write_b32 v16, v17
  s_waitcnt lgkmcnt(0)
  ds_pk_add_f16 v16, v3
  s_waitcnt lgkmcnt(0)
  ds_read_b32 v11, v16
  s_waitcnt lgkmcnt(0)
END ds_pk_add_f16_same

.macro MEMOP name, inst:vararg
BEGIN \name
  global_store_dword v15, v2, s[8:9]
  s_waitcnt vmcnt(0)
  \inst
  s_waitcnt vmcnt(0)
  global_load_dword v11, v15, s[8:9]
  s_waitcnt vmcnt(0)
END \name
.endm

MEMOP global_atomic_pk_add_bf16, global_atomic_pk_add_bf16 v15, v3, s[8:9]
MEMOP global_atomic_pk_add_bf16_rtn, global_atomic_pk_add_bf16 v10, v15, v3, s[8:9] sc0

BEGIN flat_atomic_pk_add_bf16
  global_store_dword v15, v2, s[8:9]
  s_waitcnt vmcnt(0)
  v_mov_b32 v17, s9
  v_add_co_u32 v16, vcc, s8, v15
  v_addc_co_u32 v17, vcc, 0, v17, vcc
  flat_atomic_pk_add_bf16 v10, v[16:17], v3 sc0
  s_waitcnt vmcnt(0) lgkmcnt(0)
  global_load_dword v11, v15, s[8:9]
  s_waitcnt vmcnt(0)
END flat_atomic_pk_add_bf16
