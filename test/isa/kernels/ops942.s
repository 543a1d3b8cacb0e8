// ops942.s — kernels for test_isa_ops.c (gfx942): global_load_lds_* and
// scratch_load_lds_* (the element, extended to a dword, into the LDS at
// M0 + offset + 4 * lane) and buffer_inv.  Layout of in/out as in ops.s.
.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
.include "kernel.inc"

.include "ops.inc"

// Each load goes to its own LDS region R, 0x180 bytes apart (M0 = R;
// dword l at R + offset is lane l's); lane l's record is at in + 16l (v14), its
// private dword 0..3 hold v2..v5 (scratch_store_dwordx4).
//  v40 = R0   global_load_lds_dword  (in + 16l)
//  v41 = R1   global_load_lds_ubyte  (in + 16l + 1, offset 4: M0 + 4)
//  v42 = R2   global_load_lds_sbyte  (in + 16l + 9)
//  v43 = R3   global_load_lds_ushort (in + 16l + 2)
//  v44 = R4   global_load_lds_sshort (64-bit address in + 16l + 6)
//  v45 = R5   scratch_load_lds_dword  (private 4, offset 4: M0 + 4)
//  v46 = R6   scratch_load_lds_ubyte  (private 1, VGPR address)
//  v47 = R7   scratch_load_lds_sbyte  (private 3, SGPR address)
//  v48 = R8   scratch_load_lds_ushort (private 2)
//  v49 = R9   scratch_load_lds_sshort (private 6)
// buffer_inv sc0 sc1 between the loads and the reads changes nothing.
BEGIN ops_load_lds
  scratch_store_dwordx4 off, v[2:5], off
  s_waitcnt vmcnt(0)
  v_add_u32 v21, 1, v14
  v_add_u32 v22, 2, v14
  v_add_co_u32 v24, vcc, s4, v14
  v_mov_b32 v25, s5
  v_addc_co_u32 v25, vcc, 0, v25, vcc
  v_add_co_u32 v24, vcc, 6, v24
  v_addc_co_u32 v25, vcc, 0, v25, vcc
  v_mov_b32 v26, 1
  v_mov_b32 v27, 2
  v_mov_b32 v28, 6
  v_lshlrev_b32 v20, 2, v0
  s_mov_b32 m0, 0
  global_load_lds_dword v14, s[4:5]
  s_mov_b32 m0, 0x180
  global_load_lds_ubyte v21, s[4:5] offset:4
  s_mov_b32 m0, 0x300
  global_load_lds_sbyte v21, s[4:5] offset:8
  s_mov_b32 m0, 0x480
  global_load_lds_ushort v22, s[4:5]
  s_mov_b32 m0, 0x600
  global_load_lds_sshort v[24:25], off
  s_mov_b32 m0, 0x780
  scratch_load_lds_dword off, off offset:4
  s_mov_b32 m0, 0x900
  scratch_load_lds_ubyte v26, off
  s_mov_b32 m0, 0xa80
  s_mov_b32 s30, 3
  scratch_load_lds_sbyte off, s30
  s_mov_b32 m0, 0xc00
  scratch_load_lds_ushort v27, off
  s_mov_b32 m0, 0xd80
  scratch_load_lds_sshort v28, off
  s_waitcnt vmcnt(0)
  buffer_inv sc0 sc1
  ds_read_b32 v40, v20
  ds_read_b32 v41, v20 offset:0x184
  ds_read_b32 v42, v20 offset:0x308
  ds_read_b32 v43, v20 offset:0x480
  ds_read_b32 v44, v20 offset:0x600
  ds_read_b32 v45, v20 offset:0x784
  ds_read_b32 v46, v20 offset:0x900
  ds_read_b32 v47, v20 offset:0xa80
  ds_read_b32 v48, v20 offset:0xc00
  ds_read_b32 v49, v20 offset:0xd80
  s_waitcnt lgkmcnt(0)
END ops_load_lds, 64

// MUBUF loads with the LDS bit (ops.inc)
BUFFER_LDS ops_buffer_lds
