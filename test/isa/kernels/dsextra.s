// dsextra.s — kernels for test_isa_dsextra.c (gfx90a): the M0-addressed DS
// forms (ds_append, ds_consume, ds_read/write_addtid_b32) and
// ds_wrap_rtn_b32.  Kernarg {const uint32_t *in, uint32_t *out}; one wave
// of 64: lane l loads its 8-dword record in[8l ..] into v[2:9] and stores
// v[10:13] at out[4l ..] (v[10:13] start as 0xdeadbeef).  LDS is 1 KiB.
.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
.include "kernel.inc"

.macro KD name
  KDESC \name, 24, 24, 24, lds=1024
.endm

.macro BEGIN name
  KSYM \name
  s_load_dwordx4 s[4:7], s[0:1], 0x0
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
  s_mov_b64 exec, -1
  global_store_dwordx4 v14, v[10:13], s[6:7]
  s_endpgm
  KD \name
.endm

// The counter at M0[15:0] + 8 = 0x108 starts as lane 0's v2; the lanes
// whose v3 is nonzero append (v10), consume (v11) and append again (v12);
// v13 is the final counter.  M0's high half must not matter.
BEGIN ds_append_consume
  s_mov_b32 m0, 0xabcd0100
  v_mov_b32 v16, 0x108
  v_readfirstlane_b32 s8, v2
  v_mov_b32 v17, s8
  ds_write_b32 v16, v17
  s_waitcnt lgkmcnt(0)
  v_cmp_ne_u32 vcc, 0, v3
  s_and_saveexec_b64 s[10:11], vcc
  ds_append v10 offset:8
  ds_consume v11 offset:8
  ds_append v12 offset:8
  s_waitcnt lgkmcnt(0)
  s_mov_b64 exec, -1
  ds_read_b32 v13, v16
  s_waitcnt lgkmcnt(0)
END ds_append_consume

// The same with no lane active: nothing changes.
BEGIN ds_append_none
  s_mov_b32 m0, 0x100
  v_mov_b32 v16, 0x108
  v_readfirstlane_b32 s8, v2
  v_mov_b32 v17, s8
  ds_write_b32 v16, v17
  s_waitcnt lgkmcnt(0)
  s_mov_b64 exec, 0
  ds_append v10 offset:8
  s_mov_b64 exec, -1
  ds_read_b32 v13, v16
  s_waitcnt lgkmcnt(0)
END ds_append_none

// write_addtid at M0 = 0x40 + offset 4: lane l's v2 to 0x44 + 4l (when its
// v3 is nonzero); read_addtid with M0 = 0x3c, offset 8 (the same
// addresses) into v10, and with M0 = 0x3c0 (lanes past 1 KiB read 0) into
// v11.
BEGIN ds_addtid
  v_mov_b32 v16, 0
  ds_write_b32 v15, v16
  ds_write_b32 v15, v16 offset:256
  ds_write_b32 v15, v16 offset:512
  ds_write_b32 v15, v16 offset:768
  s_waitcnt lgkmcnt(0)
  s_mov_b32 m0, 0x40
  v_cmp_ne_u32 vcc, 0, v3
  s_and_saveexec_b64 s[10:11], vcc
  ds_write_addtid_b32 v2 offset:4
  s_mov_b64 exec, -1
  s_waitcnt lgkmcnt(0)
  s_mov_b32 m0, 0x3c
  ds_read_addtid_b32 v10 offset:8
  s_mov_b32 m0, 0x3c0
  ds_read_addtid_b32 v11 offset:0
  s_waitcnt lgkmcnt(0)
END ds_addtid

// wrap: LDS[4l] = v2; ds_wrap_rtn_b32 with DATA v3, DATA2 v4 into v10;
// the new LDS value into v11.
BEGIN ds_wrap
  ds_write_b32 v15, v2
  s_waitcnt lgkmcnt(0)
  ds_wrap_rtn_b32 v10, v15, v3, v4
  s_waitcnt lgkmcnt(0)
  ds_read_b32 v11, v15
  s_waitcnt lgkmcnt(0)
END ds_wrap
