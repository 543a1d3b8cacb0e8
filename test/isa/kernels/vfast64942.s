// vfast64942.s — the gfx942 kernels of test_isa_vfast64.c: v_mov_b64 and
// v_lshl_add_u64 with the operand kinds isa_exec_vfast64.c takes, in the
// layout of vfast64.s (its header describes the inputs, the outputs and
// the two EXECs).
.amdgcn_target "amdgcn-amd-amdhsa--gfx942"

.macro KD name
  .rodata
  .p2align 6
  .amdhsa_kernel \name
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_next_free_vgpr 32
    .amdhsa_next_free_sgpr 16
    .amdhsa_accum_offset 32
    .amdhsa_float_denorm_mode_16_64 3
  .end_amdhsa_kernel
.endm

.macro BODY name, mode, inst:vararg
  .text
  .globl \name
  .p2align 8
  .type \name,@function
\name:
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  v_lshlrev_b32 v10, 5, v0
  s_mov_b64 s[10:11], 0
  s_waitcnt lgkmcnt(0)
  global_load_dwordx4 v[2:5], v10, s[4:5]
  global_load_dwordx4 v[6:9], v10, s[4:5] offset:16
  s_waitcnt vmcnt(0)
  v_readfirstlane_b32 s8, v4
  v_readfirstlane_b32 s9, v5
  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 6, 2), \mode
  v_mov_b32 v12, v8
  v_mov_b32 v13, v9
  \inst
  v_mov_b32 v14, v8
  v_mov_b32 v15, v9
  v_mov_b32 v18, s10
  v_mov_b32 v19, s11
  v_mov_b32 v8, v12
  v_mov_b32 v9, v13
  s_mov_b64 s[10:11], 0
  s_mov_b32 exec_lo, 0x0ff05a01
  s_mov_b32 exec_hi, 0xf0ff0080
  \inst
  s_mov_b64 exec, -1
  v_mov_b32 v16, v8
  v_mov_b32 v17, v9
  v_mov_b32 v20, s10
  v_mov_b32 v21, s11
  global_store_dwordx4 v10, v[14:17], s[6:7]
  global_store_dwordx4 v10, v[18:21], s[6:7] offset:16
  s_endpgm
  KD \name
.endm

.macro T name, inst:vararg
  BODY \name, 3, \inst
.endm
.macro TF name, inst:vararg
  BODY \name, 0, \inst
.endm

T mov_b64_v, v_mov_b64 v[8:9], v[2:3]
T mov_b64_s, v_mov_b64 v[8:9], s[8:9]
T lshl_add_u64_vvv, v_lshl_add_u64 v[8:9], v[2:3], v6, v[4:5]
T lshl_add_u64_vkv, v_lshl_add_u64 v[8:9], v[2:3], 2, v[4:5]
T lshl_add_u64_vvs, v_lshl_add_u64 v[8:9], v[2:3], v6, s[8:9]
