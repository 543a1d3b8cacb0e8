// fatomic.s — float atomics for test_isa_fatomic.c (gfx90a): the MUBUF
// forms through a raw buffer V# built in s[8:11].  Kernarg {const uint32_t
// *in, uint32_t *out, void *mem}: lane i loads a, b, c, d = in[4i .. 4i+3]
// into v2..v5, runs the atomic on mem + 8i with data a (32-bit) or (a, b)
// (64-bit), and stores v[2:3] (the returned old value, or the data when
// the form returns nothing) at out[2i .. 2i+1].
.include "kernel.inc"

.macro T name, inst:vararg
  KSYM \name
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_load_dwordx2 s[12:13], s[0:1], 0x10
  v_lshlrev_b32 v6, 4, v0
  v_lshlrev_b32 v7, 3, v0
  s_waitcnt lgkmcnt(0)
  global_load_dwordx4 v[2:5], v6, s[4:5]
  s_mov_b32 s8, s12
  s_and_b32 s9, s13, 0xffff
  s_mov_b32 s10, -1
  s_mov_b32 s11, 0x27000
  s_waitcnt vmcnt(0)
  \inst
  s_waitcnt vmcnt(0)
  global_store_dwordx2 v7, v[2:3], s[6:7]
  s_endpgm
  KDESC \name, 16, 16, 16
.endm

T buf_add_f32,     buffer_atomic_add_f32 v2, v7, s[8:11], 0 offen glc
T buf_pk_add_f16,  buffer_atomic_pk_add_f16 v2, v7, s[8:11], 0 offen
T buf_add_f64,     buffer_atomic_add_f64 v[2:3], v7, s[8:11], 0 offen glc
T buf_min_f64,     buffer_atomic_min_f64 v[2:3], v7, s[8:11], 0 offen glc
T buf_max_f64,     buffer_atomic_max_f64 v[2:3], v7, s[8:11], 0 offen
