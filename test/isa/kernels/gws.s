// gws.s — ds_gws_* kernels for test_isa_gws.c, assembled for gfx90a and
// gfx942 (the target comes from -mcpu).  Each runs on a grid of workgroups
// that share the dispatch's GWS (the harness runs them as a cooperative
// grid: all resident, saved while they wait on GWS).  The loads of what
// other workgroups wrote carry no cache bits (glc on gfx90a is sc0 sc1 on
// gfx942): the interpreter has no caches, hardware would need them.

.include "kernel.inc"

.macro BEGIN name
  KSYM \name
.endm

.macro KD name
  KDESC \name, 32, 40, 24
.endm

// t_gws_init(value, m0): ds_gws_init of value on resource M0[21:16] + 0,
// and of value + 1 on resource M0[21:16] + 10 (mod 64), from lane 5 only
// (DATA comes from the first active lane; v1 differs per lane).
BEGIN t_gws_init
  s_load_dwordx2 s[4:5], s[0:1], 0x0          // s4 value, s5 m0
  s_waitcnt lgkmcnt(0)
  v_add_u32 v2, s4, v0                        // lane l: value + l
  v_subrev_u32 v2, 5, v2                      // lane 5: value
  s_mov_b64 exec, 0x20
  s_mov_b32 m0, s5
  s_nop 0
  ds_gws_init v2 gds
  s_waitcnt lgkmcnt(0)
  v_add_u32 v4, 1, v2
  ds_gws_init v4 offset:10 gds
  s_waitcnt lgkmcnt(0)
  s_endpgm
KD t_gws_init

// t_gws_grid_barrier(counter, out, nwm1): three rounds of what ockl's
// __ockl_grid_sync does, each after every work-item added 1 to
// counter[round] (a counter per round: a workgroup released from one
// barrier may add to the next round's before another one read this one's):
// s_barrier, work-item 0 does ds_gws_barrier (nwm1, resource 0),
// s_barrier; then every work-item stores what it reads of counter[round] at
// out[(round * nwg + wg) * 128 + tid] (workgroups of 128).
.macro ROUND k
  global_atomic_add v9, v1, s[4:5] offset:4*\k
  s_waitcnt vmcnt(0)
  s_barrier
  v_cmp_eq_u32 vcc, 0, v0
  s_and_saveexec_b64 s[10:11], vcc
  s_cbranch_execz 1f
  v_mov_b32 v2, s8
  s_mov_b32 m0, 0
  s_nop 0
  ds_gws_barrier v2 gds
  s_waitcnt lgkmcnt(0)
1:
  s_or_b64 exec, exec, s[10:11]
  s_barrier
  global_load_dword v3, v9, s[4:5] offset:4*\k
  s_add_u32 s12, s8, 1                        // nwg
  s_mul_i32 s12, s12, \k
  s_add_u32 s12, s12, s2                      // round * nwg + wg
  s_lshl_b32 s12, s12, 9                      // * 128 * 4
  v_lshlrev_b32 v4, 2, v0
  v_add_u32 v4, s12, v4
  s_waitcnt vmcnt(0)
  global_store_dword v4, v3, s[6:7]
  s_waitcnt vmcnt(0)
.endm
BEGIN t_gws_grid_barrier
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_load_dword s8, s[0:1], 0x10
  v_mov_b32 v9, 0
  v_mov_b32 v1, 1
  s_waitcnt lgkmcnt(0)
  ROUND 0
  ROUND 1
  ROUND 2
  s_endpgm
KD t_gws_grid_barrier

// t_gws_sema(out, n, mode): the last workgroup (n - 1) stores 0x5e3a to
// out[n], then releases the others queued on resource 5 (M0 base 3 +
// offset 2): mode 0 one ds_gws_sema_br of n - 1, mode 1 n - 1
// ds_gws_sema_v, mode 2 ds_gws_sema_release_all.  Every other workgroup
// does ds_gws_sema_p on resource 5, then copies out[n] to out[wg].  One
// wave per workgroup.
BEGIN t_gws_sema
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  s_load_dwordx2 s[8:9], s[0:1], 0x8          // s8 n, s9 mode
  v_mov_b32 v9, 0
  s_mov_b32 m0, 0x30000
  s_waitcnt lgkmcnt(0)
  s_sub_u32 s10, s8, 1
  s_lshl_b32 s11, s8, 2                       // byte offset of out[n]
  v_mov_b32 v5, s11
  s_cmp_eq_u32 s2, s10
  s_cbranch_scc1 .Lrelease
  ds_gws_sema_p offset:2 gds
  s_waitcnt lgkmcnt(0)
  global_load_dword v3, v5, s[4:5]
  s_lshl_b32 s12, s2, 2
  v_mov_b32 v4, s12
  s_waitcnt vmcnt(0)
  global_store_dword v4, v3, s[4:5]
  s_waitcnt vmcnt(0)
  s_endpgm
.Lrelease:
  v_mov_b32 v3, 0x5e3a
  global_store_dword v5, v3, s[4:5]
  s_waitcnt vmcnt(0)
  s_cmp_eq_u32 s9, 1
  s_cbranch_scc1 .Lv
  s_cmp_eq_u32 s9, 2
  s_cbranch_scc1 .Lall
  v_mov_b32 v2, s10
  ds_gws_sema_br v2 offset:2 gds
  s_waitcnt lgkmcnt(0)
  s_endpgm
.Lv:
  ds_gws_sema_v offset:2 gds
  s_waitcnt lgkmcnt(0)
  s_sub_u32 s10, s10, 1
  s_cmp_lg_u32 s10, 0
  s_cbranch_scc1 .Lv
  s_endpgm
.Lall:
  ds_gws_sema_release_all offset:2 gds
  s_waitcnt lgkmcnt(0)
  s_endpgm
KD t_gws_sema
