// mtbuf.s — typed buffer accesses (tbuffer_*, MTBUF) for
// test_isa_mtbuf.c (gfx90a).  Kernarg {const uint32_t *in, uint32_t *out,
// void *mem}; s[8:11] is a raw V# over mem (stride 0, DST_SEL x, y, z, w);
// lane i: v7 = 16 i, v[2:5] = in[4i .. 4i+3]; results at out[4i ..].
.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
.include "kernel.inc"

.macro T name, stride_shift, inst:vararg
  KSYM \name
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_load_dwordx2 s[12:13], s[0:1], 0x10
  v_lshlrev_b32 v6, 4, v0
  v_lshlrev_b32 v7, \stride_shift, v0
  s_waitcnt lgkmcnt(0)
  global_load_dwordx4 v[2:5], v6, s[4:5]
  s_mov_b32 s8, s12
  s_and_b32 s9, s13, 0xffff
  s_mov_b32 s10, -1
  s_mov_b32 s11, 0x27fac
  v_mov_b32 v8, 0
  v_mov_b32 v9, 0
  v_mov_b32 v10, 0
  v_mov_b32 v11, 0
  s_waitcnt vmcnt(0)
  \inst
  s_waitcnt vmcnt(0)
  global_store_dwordx4 v6, v[8:11], s[6:7]
  s_endpgm
  KDESC \name, 16, 16, 16
.endm

T tb_load_xyzw_f32,  4, tbuffer_load_format_xyzw v[8:11], v7, s[8:11], dfmt:14, nfmt:7, 0 offen
T tb_store_xy_unorm, 2, tbuffer_store_format_xy v[2:3], v7, s[8:11], dfmt:5, nfmt:0, 0 offen
T tb_load_x_sint8,   0, tbuffer_load_format_x v8, v7, s[8:11], dfmt:1, nfmt:5, 0 offen
