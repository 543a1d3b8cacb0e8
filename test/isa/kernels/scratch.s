// scratch.s — one kernel per SCRATCH load/store form for test_isa_mem.c
// (gfx90a), GENERATED with its form table from emu/isa/isa_table.tsv.
// Kernarg {const uint32_t *in, uint32_t *out}; one wave: lane l loads its
// 16-dword record in[16l ..] into v[2:5], v[6:9], v[10:13] and its 16
// bytes of private memory (dwords 12-15, written to scratch address 0 by
// scratch_store_dwordx4), runs the instruction on scratch address 0 +
// OFFSET, and stores v[10:13] at out[4l ..] and its private 16 bytes at
// out[256 + 4l ..].
.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
.include "kernel.inc"

// its own descriptor: the private segment buffer and flat scratch init,
// which KDESC leaves out (gfx942's architected flat scratch refuses them)
.macro KD name
  .rodata
  .p2align 6
  .amdhsa_kernel \name
    .amdhsa_user_sgpr_private_segment_buffer 1
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_user_sgpr_flat_scratch_init 1
    .amdhsa_system_sgpr_private_segment_wavefront_offset 1
    .amdhsa_private_segment_fixed_size 64
    .amdhsa_next_free_vgpr 24
    .amdhsa_next_free_sgpr 24
    .amdhsa_accum_offset 24
  .end_amdhsa_kernel
.endm

.macro T name, inst:vararg
  KSYM \name
  s_add_u32 flat_scratch_lo, s6, s8
  s_addc_u32 flat_scratch_hi, s7, 0
  s_load_dwordx4 s[12:15], s[4:5], 0x0
  v_lshlrev_b32 v1, 6, v0
  v_lshlrev_b32 v14, 4, v0
  v_mov_b32 v15, 0
  s_waitcnt lgkmcnt(0)
  global_load_dwordx4 v[2:5], v1, s[12:13]
  global_load_dwordx4 v[6:9], v1, s[12:13] offset:16
  global_load_dwordx4 v[10:13], v1, s[12:13] offset:32
  global_load_dwordx4 v[16:19], v1, s[12:13] offset:48
  s_waitcnt vmcnt(0)
  scratch_store_dwordx4 v15, v[16:19], off
  s_waitcnt vmcnt(0)
  \inst
  s_waitcnt vmcnt(0)
  scratch_load_dwordx4 v[16:19], v15, off
  s_waitcnt vmcnt(0)
  global_store_dwordx4 v14, v[10:13], s[14:15]
  v_add_u32 v20, 0x400, v14
  global_store_dwordx4 v20, v[16:19], s[14:15]
  s_endpgm
  KD \name
.endm

T k_scratch_load_dword, scratch_load_dword v10, v15, off offset:0
T k_scratch_load_dwordx2, scratch_load_dwordx2 v[10:11], v15, off offset:0
T k_scratch_load_dwordx3, scratch_load_dwordx3 v[10:12], v15, off offset:0
T k_scratch_load_dwordx4, scratch_load_dwordx4 v[10:13], v15, off offset:0
T k_scratch_load_sbyte, scratch_load_sbyte v10, v15, off offset:1
T k_scratch_load_sbyte_d16, scratch_load_sbyte_d16 v10, v15, off offset:1
T k_scratch_load_sbyte_d16_hi, scratch_load_sbyte_d16_hi v10, v15, off offset:1
T k_scratch_load_short_d16, scratch_load_short_d16 v10, v15, off offset:2
T k_scratch_load_short_d16_hi, scratch_load_short_d16_hi v10, v15, off offset:2
T k_scratch_load_sshort, scratch_load_sshort v10, v15, off offset:2
T k_scratch_load_ubyte, scratch_load_ubyte v10, v15, off offset:1
T k_scratch_load_ubyte_d16, scratch_load_ubyte_d16 v10, v15, off offset:1
T k_scratch_load_ubyte_d16_hi, scratch_load_ubyte_d16_hi v10, v15, off offset:1
T k_scratch_load_ushort, scratch_load_ushort v10, v15, off offset:2
T k_scratch_store_byte, scratch_store_byte v15, v2, off offset:3
T k_scratch_store_byte_d16_hi, scratch_store_byte_d16_hi v15, v2, off offset:3
T k_scratch_store_dword, scratch_store_dword v15, v2, off offset:0
T k_scratch_store_dwordx2, scratch_store_dwordx2 v15, v[2:3], off offset:0
T k_scratch_store_dwordx3, scratch_store_dwordx3 v15, v[2:4], off offset:0
T k_scratch_store_dwordx4, scratch_store_dwordx4 v15, v[2:5], off offset:0
T k_scratch_store_short, scratch_store_short v15, v2, off offset:2
T k_scratch_store_short_d16_hi, scratch_store_short_d16_hi v15, v2, off offset:2
