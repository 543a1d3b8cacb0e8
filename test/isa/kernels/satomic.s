// satomic.s — scalar atomics for test_isa_satomic.c (gfx90a).  Kernarg
// {uint32_t *mem, uint32_t *out}.  t_satomic: one wave runs the sequence
// below on mem and stores the SGPRs it got back at out[0..27]; t_sadd:
// every wave adds 1 to mem[0] (s_atomic_add, no return).
.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
.include "kernel.inc"

.macro KD name
  KDESC \name, 8, 48, 8
.endm

  KSYM t_satomic
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  s_mov_b32 s8, 5
  s_atomic_add s8, s[4:5], 0x0 glc
  s_mov_b32 s9, 7
  s_atomic_sub s9, s[4:5], 0x4 glc
  s_mov_b32 s10, -3
  s_atomic_smin s10, s[4:5], 0x8 glc
  s_mov_b32 s11, 100
  s_atomic_umax s11, s[4:5], 0xc
  s_mov_b32 s12, 0x1234
  s_mov_b32 s13, 77
  s_atomic_cmpswap s[12:13], s[4:5], 0x10 glc
  s_mov_b32 s14, 0x55
  s_mov_b32 s15, 78
  s_atomic_cmpswap s[14:15], s[4:5], 0x14 glc
  s_mov_b32 s16, 10
  s_atomic_inc s16, s[4:5], 0x18 glc
  s_mov_b32 s17, 0xf0f0
  s_atomic_and s17, s[4:5], 0x1c glc
  s_mov_b32 s18, 1
  s_mov_b32 s19, 1
  s_atomic_add_x2 s[18:19], s[4:5], 0x20 glc
  s_mov_b32 s20, -1
  s_mov_b32 s21, 0
  s_atomic_xor_x2 s[20:21], s[4:5], 0x28
  s_mov_b32 s24, 0xaaaa
  s_mov_b32 s25, 0xbbbb
  s_mov_b32 s26, 0x11
  s_mov_b32 s27, 0x22
  s_atomic_cmpswap_x2 s[24:27], s[4:5], 0x30 glc
  s_mov_b32 s28, s4
  s_and_b32 s29, s5, 0xffff
  s_mov_b32 s30, 0x40
  s_mov_b32 s31, 0x27000
  s_mov_b32 s32, 0x99
  s_buffer_atomic_swap s32, s[28:31], 0x38 glc
  s_mov_b32 s33, 1
  s_buffer_atomic_add s33, s[28:31], 0x40 glc
  s_mov_b32 s34, 9
  s_atomic_dec s34, s[4:5], 0x3c glc
  s_mov_b32 s35, 0
  s_waitcnt lgkmcnt(0)
  s_store_dwordx4 s[8:11], s[6:7], 0x0
  s_store_dwordx4 s[12:15], s[6:7], 0x10
  s_store_dwordx4 s[16:19], s[6:7], 0x20
  s_store_dwordx4 s[20:23], s[6:7], 0x30
  s_store_dwordx4 s[24:27], s[6:7], 0x40
  s_store_dwordx4 s[32:35], s[6:7], 0x50
  s_dcache_wb
  s_waitcnt lgkmcnt(0)
  s_endpgm
  KD t_satomic

  KSYM t_sadd
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  s_mov_b32 s8, 1
  s_atomic_add s8, s[4:5], 0x0
  s_waitcnt lgkmcnt(0)
  s_endpgm
  KD t_sadd
