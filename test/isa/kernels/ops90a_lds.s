// ops90a_lds.s — kernels for test_isa_ops.c (gfx90a, assembled with
// llvm-mc-19: llvm-mc-14 does not accept these forms): gfx90a's GLOBAL
// and MUBUF loads with the LDS bit, the element, extended to a dword, into
// the LDS at M0 + offset + 4 * lane.  Layout of in/out as in ops.s.
.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
.include "kernel.inc"

.include "ops.inc"

// The regions and addresses of ops942.s's ops_load_lds, GLOBAL part:
//  v40 = R0   global_load_dword  lds (in + 16l)
//  v41 = R1   global_load_ubyte  lds (in + 16l + 1, offset 4: M0 + 4)
//  v42 = R2   global_load_sbyte  lds (in + 16l + 9)
//  v43 = R3   global_load_ushort lds (in + 16l + 2)
//  v44 = R4   global_load_sshort lds (64-bit address in + 16l + 6)
BEGIN ops_load_lds90a
  v_add_u32 v21, 1, v14
  v_add_u32 v22, 2, v14
  v_add_co_u32 v24, vcc, s4, v14
  v_mov_b32 v25, s5
  v_addc_co_u32 v25, vcc, 0, v25, vcc
  v_add_co_u32 v24, vcc, 6, v24
  v_addc_co_u32 v25, vcc, 0, v25, vcc
  v_lshlrev_b32 v20, 2, v0
  s_mov_b32 m0, 0
  global_load_dword v14, s[4:5] lds
  s_mov_b32 m0, 0x180
  global_load_ubyte v21, s[4:5] offset:4 lds
  s_mov_b32 m0, 0x300
  global_load_sbyte v21, s[4:5] offset:8 lds
  s_mov_b32 m0, 0x480
  global_load_ushort v22, s[4:5] lds
  s_mov_b32 m0, 0x600
  global_load_sshort v[24:25], off lds
  s_waitcnt vmcnt(0)
  ds_read_b32 v40, v20
  ds_read_b32 v41, v20 offset:0x184
  ds_read_b32 v42, v20 offset:0x308
  ds_read_b32 v43, v20 offset:0x480
  ds_read_b32 v44, v20 offset:0x600
  s_waitcnt lgkmcnt(0)
END ops_load_lds90a

// MUBUF loads with the LDS bit (ops.inc)
BUFFER_LDS ops_buffer_lds90a
