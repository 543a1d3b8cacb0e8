// memfast.s — kernels of test_isa_memfast.c (gfx90a): the whole-EXEC LDS
// reads, the 32-bit LDS atomics and the GLOBAL atomics and consecutive
// loads of the interpreter's fast memory paths, on per-lane addresses the
// test chooses.  Arguments: s[0:1] -> { out, in, buf } (three pointers);
// in[lane] is the lane's address (an LDS byte offset, or a byte offset
// into buf); results at out + 4 * (64 * k + lane).  One wave of 64 lanes,
// 1 KiB of LDS, which each kernel first fills with LDS dword i = 0x1000 + i.
.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"

.include "kernel.inc"

.macro BEGIN name
  KSYM \name
.endm

.macro KD name
  KDESC \name, 32, 32, 32, lds=1024
.endm

// s[4:5] = out, s[6:7] = in, s[8:9] = buf; v9 = lane * 4; v2 = in[lane];
// LDS dword i = 0x1000 + i (four rows of 64 lanes)
.macro PRO
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_load_dwordx2 s[8:9], s[0:1], 0x10
  v_lshlrev_b32 v9, 2, v0
  s_waitcnt lgkmcnt(0)
  global_load_dword v2, v9, s[6:7]
  v_add_u32 v3, 0x1000, v0
  ds_write_b32 v9, v3
  v_add_u32 v3, 64, v3
  ds_write_b32 v9, v3 offset:256
  v_add_u32 v3, 64, v3
  ds_write_b32 v9, v3 offset:512
  v_add_u32 v3, 64, v3
  ds_write_b32 v9, v3 offset:768
  s_waitcnt vmcnt(0) lgkmcnt(0)
.endm

// out row k = v
.macro ST v, k
  global_store_dword v9, \v, s[4:5] offset:256*\k
.endm

// rows 0-6: read_b32 +0, read2_b32 +4/+12, read_b64 +8 (two rows),
// read2_b32 +0/+8 into the address register itself (two rows)
BEGIN mf_ds_read
  PRO
  ds_read_b32 v10, v2
  ds_read2_b32 v[12:13], v2 offset0:1 offset1:3
  ds_read_b64 v[14:15], v2 offset:8
  ds_read2_b32 v[2:3], v2 offset1:2
  s_waitcnt lgkmcnt(0)
  ST v10, 0
  ST v12, 1
  ST v13, 2
  ST v14, 3
  ST v15, 4
  ST v2, 5
  ST v3, 6
  s_endpgm
KD mf_ds_read

// rows 0-2: the old values of ds_add_rtn_u32 (data lane + 1), ds_max_rtn_i32
// (data 0x1000 + 2 * lane - 40) and ds_wrxchg_rtn_b32 (data lane) at the
// lane's address; then ds_add_u32 (no return, data 3) at the address + 4;
// rows 3-6: the LDS afterwards (dword lane + 64 * (k - 3))
BEGIN mf_ds_atomic
  PRO
  v_add_u32 v3, 1, v0
  ds_add_rtn_u32 v10, v2, v3
  v_lshlrev_b32 v4, 1, v0
  v_add_u32 v4, 0x1000 - 40, v4
  ds_max_rtn_i32 v11, v2, v4
  ds_wrxchg_rtn_b32 v12, v2, v0
  v_mov_b32 v5, 3
  ds_add_u32 v2, v5 offset:4
  s_waitcnt lgkmcnt(0)
  ST v10, 0
  ST v11, 1
  ST v12, 2
  ds_read_b32 v13, v9
  ds_read_b32 v14, v9 offset:256
  ds_read_b32 v15, v9 offset:512
  ds_read_b32 v16, v9 offset:768
  s_waitcnt lgkmcnt(0)
  ST v13, 3
  ST v14, 4
  ST v15, 5
  ST v16, 6
  s_endpgm
KD mf_ds_atomic

// row 0: global_atomic_add_rtn (data lane + 1) at buf + in[lane]; row 1:
// global_atomic_umax_rtn (data 64 - lane) at the same address
BEGIN mf_global_atomic
  PRO
  v_add_u32 v3, 1, v0
  global_atomic_add v10, v2, v3, s[8:9] glc
  v_sub_u32 v4, 64, v0
  s_waitcnt vmcnt(0)
  global_atomic_umax v11, v2, v4, s[8:9] glc
  s_waitcnt vmcnt(0)
  ST v10, 0
  ST v11, 1
  s_endpgm
KD mf_global_atomic

// rows 0-1: global_load_dwordx2 from buf + in[lane] (SADDR); rows 2-3:
// the same through the 64-bit VADDR pair; row 4: global_load_dword from
// buf + in[lane] + 4; then the lane id stored to buf + in[lane] + 512
// (global_store_dword, SADDR)
BEGIN mf_global_seq
  PRO
  global_load_dwordx2 v[10:11], v2, s[8:9]
  v_mov_b32 v5, s9
  v_add_co_u32 v4, vcc, s8, v2
  v_addc_co_u32 v5, vcc, 0, v5, vcc
  global_load_dwordx2 v[12:13], v[4:5], off
  global_load_dword v14, v2, s[8:9] offset:4
  s_waitcnt vmcnt(0)
  ST v10, 0
  ST v11, 1
  ST v12, 2
  ST v13, 3
  ST v14, 4
  global_store_dword v2, v0, s[8:9] offset:512
  s_endpgm
KD mf_global_seq
