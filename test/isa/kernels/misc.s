// misc.s — kernels for test_isa_misc.c (gfx90a): scalar control flow and
// state instructions with an observable result (s_cbranch_vccz/vccnz,
// s_call_b64, s_setreg_b32, s_movreld) and the ones whose only duty is to
// let the program go on (s_sleep, s_setprio, s_wakeup, s_icache_inv,
// s_incperflevel/decperflevel, s_setkill, s_ttracedata, the debugger
// branches, s_set_gpr_idx_off, s_endpgm_saved), and ds_permute_b32.
// Kernarg {const uint32_t *in, uint32_t *out}; one wave; out[4l ..] gets
// v[10:13].
.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
.include "kernel.inc"

.macro KD name
  KDESC \name, 24, 32, 24, lds=256
.endm

.macro BEGIN name
  KSYM \name
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  v_lshlrev_b32 v14, 4, v0
  v_mov_b32 v10, 0
  v_mov_b32 v11, 0
  v_mov_b32 v12, 0
  v_mov_b32 v13, 0
  s_waitcnt lgkmcnt(0)
  global_load_dwordx4 v[2:5], v14, s[4:5]
  s_waitcnt vmcnt(0)
.endm

.macro END name
  global_store_dwordx4 v14, v[10:13], s[6:7]
  s_endpgm
  KD \name
.endm

// v10: 1 when VCC (lanes with v2 odd) is zero, else 2 (vccz); v11: 3 when
// VCC is nonzero (vccnz), else 4.
BEGIN misc_vccz
  v_and_b32 v6, 1, v2
  v_cmp_ne_u32 vcc, 0, v6
  s_cbranch_vccz 1f
  v_mov_b32 v10, 2
  s_branch 2f
1:
  v_mov_b32 v10, 1
2:
  s_cbranch_vccnz 3f
  v_mov_b32 v11, 4
  s_branch 4f
3:
  v_mov_b32 v11, 3
4:
END misc_vccz

// s_call_b64 into a routine that sets v10 = 5 and returns; v11 = 6 after.
BEGIN misc_call
  s_call_b64 s[20:21], 5f
  v_mov_b32 v11, 6
  s_branch 6f
5:
  v_mov_b32 v10, 5
  s_setpc_b64 s[20:21]
6:
END misc_call

// s_setreg_b32 MODE[3:0] (rounding) from lane 0's v2 & 15, read back by
// s_getreg_b32 into v10; s_movreld_b32 with M0 = 2: s22 = lane 0's v3,
// into v11.
BEGIN misc_setreg
  v_readfirstlane_b32 s8, v2
  s_and_b32 s8, s8, 15
  s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s8
  s_getreg_b32 s9, hwreg(HW_REG_MODE, 0, 4)
  v_mov_b32 v10, s9
  s_mov_b32 s8, 0
  s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s8
  v_readfirstlane_b32 s16, v3
  s_mov_b32 s22, 0
  s_mov_b32 m0, 2
  s_movreld_b32 s20, s16
  v_mov_b32 v11, s22
  s_mov_b32 m0, 0
  s_movreld_b64 s[24:25], s[16:17]
  v_mov_b32 v12, s24
END misc_setreg

// instructions with no visible effect: v10 = 7 when the program gets
// through all of them
BEGIN misc_noeffect
  s_sleep 1
  s_setprio 2
  s_setprio 0
  s_wakeup
  s_icache_inv
  s_incperflevel 1
  s_decperflevel 1
  s_setkill 0
  s_ttracedata
  s_cbranch_cdbgsys 7f
  s_cbranch_cdbguser 7f
  s_cbranch_cdbgsys_or_user 7f
  s_cbranch_cdbgsys_and_user 7f
  s_set_gpr_idx_off
  v_mov_b32 v10, 7
7:
END misc_noeffect

// the program ends at s_endpgm_saved: v10 = 8 is stored first, the v10 =
// 9 after it never runs
BEGIN misc_endpgm_saved
  v_mov_b32 v10, 8
  global_store_dwordx4 v14, v[10:13], s[6:7]
  s_waitcnt vmcnt(0)
  s_endpgm_saved
  v_mov_b32 v10, 9
END misc_endpgm_saved

// ds_permute_b32: lane l sends v3 to lane (v2 & 63) (a permutation)
BEGIN misc_permute
  v_and_b32 v6, 63, v2
  v_lshlrev_b32 v6, 2, v6
  ds_permute_b32 v10, v6, v3
  s_waitcnt lgkmcnt(0)
END misc_permute
