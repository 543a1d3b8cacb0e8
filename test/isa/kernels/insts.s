// insts.s — per-instruction kernels for test_isa_insts.c (gfx90a).  Each
// kernel gets the output pointer as its first kernel argument and stores
// its results at out + 4 * k; the C test states what each k must hold.
.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
.include "kernel.inc"

.macro BEGIN name
  KSYM \name
.endm

// Plain descriptor: kernarg pointer in s[0:1].
.macro KD name, denorm=3
  KDESC \name, 32, 32, 24, d32=\denorm
.endm

// prologue: s[2:3] = out, v9 = 0
.macro PRO
  s_load_dwordx2 s[2:3], s[0:1], 0x0
  v_mov_b32 v9, 0
  s_waitcnt lgkmcnt(0)
.endm

.macro ST v, k
  global_store_dword v9, \v, s[2:3] offset:4*\k
.endm

BEGIN t_shift
  PRO
  v_lshlrev_b32 v1, 33, 1              // amount & 31 = 1
  ST v1, 0
  s_lshl_b32 s4, 1, 33
  v_mov_b32 v2, s4
  ST v2, 1
  v_mov_b32 v4, 1
  v_mov_b32 v5, 0
  s_movk_i32 s5, 65
  v_lshlrev_b64 v[6:7], s5, v[4:5]     // amount & 63 = 1
  ST v6, 2
  ST v7, 3
  s_mov_b64 s[6:7], -1
  s_lshr_b64 s[6:7], s[6:7], 64        // amount & 63 = 0
  v_mov_b32 v5, s7
  ST v5, 4
  v_mov_b32 v8, 0x80000000
  v_ashrrev_i32 v10, 63, v8            // amount & 31 = 31
  ST v10, 5
  v_bfe_u32 v11, v8, 31, 1
  ST v11, 6
  v_alignbit_b32 v12, v4, v8, 4        // {1, 0x80000000} >> 4
  ST v12, 7
  s_endpgm
KD t_shift

BEGIN t_carry
  PRO
  v_mov_b32 v1, -1
  v_add_co_u32 v2, vcc, v1, 1
  v_addc_co_u32 v3, vcc, 0, v9, vcc
  ST v2, 0
  ST v3, 1
  s_add_u32 s4, -1, 2
  s_addc_u32 s5, 0, 0
  v_mov_b32 v4, s4
  v_mov_b32 v5, s5
  ST v4, 2
  ST v5, 3
  v_mad_u64_u32 v[6:7], s[8:9], v1, v1, 0
  ST v6, 4
  ST v7, 5
  s_sub_u32 s10, 0, 1
  s_cselect_b32 s11, 7, 9
  v_mov_b32 v8, s11
  ST v8, 6
  v_mov_b32 v10, 6
  v_sub_co_u32 v11, vcc, 0, 1
  v_cndmask_b32 v12, 5, v10, vcc
  ST v12, 7
  s_mov_b32 s12, 0x7fffffff
  s_add_i32 s13, s12, 1                // signed overflow -> SCC
  s_cselect_b32 s14, 1, 0
  v_mov_b32 v13, s14
  ST v13, 8
  v_mul_hi_u32 v14, v1, v1
  ST v14, 9
  s_endpgm
KD t_carry

BEGIN t_float
  PRO
  v_mov_b32 v1, 0x7fc00000
  v_mov_b32 v2, 1.0
  v_max_f32 v3, v1, v2                 // NaN vs number: the number
  ST v3, 0
  v_mov_b32 v4, 0x80000000
  v_mov_b32 v5, 0
  v_min_f32 v6, v5, v4                 // min(+0, -0) = -0
  ST v6, 1
  v_mov_b32 v7, 0x7f800000
  v_mov_b32 v8, 0xff800000
  v_add_f32 v10, v7, v8                // inf - inf = quiet NaN
  ST v10, 2
  v_cvt_i32_f32 v11, v1                // NaN -> 0
  ST v11, 3
  v_mov_b32 v12, 0x4f32d05e            // 3e9
  v_cvt_i32_f32 v13, v12               // saturates
  ST v13, 4
  v_cvt_u32_f32 v14, -1.0
  ST v14, 5
  v_rcp_f32 v15, 0
  ST v15, 6
  v_sqrt_f32 v16, -1.0
  ST v16, 7
  v_mov_b32 v17, 0.15915494            // inline constant 1/(2*pi)
  ST v17, 8
  v_cmp_class_f32 vcc, v1, 2           // quiet NaN class bit
  v_cndmask_b32 v18, 0, 1, vcc
  ST v18, 9
  v_frexp_mant_f32 v19, 0x41000000     // 8.0
  ST v19, 10
  v_frexp_exp_i32_f32 v20, 0x41000000
  ST v20, 11
  v_fract_f32 v21, -0.5
  ST v21, 12
  s_movk_i32 s10, 200
  v_ldexp_f32 v22, 1.0, s10
  ST v22, 13
  v_mov_b32 v23, 0x00000001            // denormal kept (mode 3)
  v_add_f32 v23, v23, 0
  ST v23, 14
  v_med3_f32 v1, 1.0, 4.0, 2.0
  ST v1, 15
  s_endpgm
KD t_float

BEGIN t_denorm
  PRO
  v_mov_b32 v1, 1                      // smallest denormal
  v_add_f32 v2, v1, 0                  // flushed (mode 0)
  ST v2, 0
  v_mov_b32 v3, 0x00800000
  v_mul_f32 v4, v3, 0.5                // denormal result flushed
  ST v4, 1
  s_getreg_b32 s4, hwreg(HW_REG_MODE, 4, 2)
  v_mov_b32 v5, s4
  ST v5, 2
  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 3
  v_add_f32 v6, v1, 0                  // now kept
  ST v6, 3
  s_getreg_b32 s5, hwreg(HW_REG_MODE, 0, 10)
  v_mov_b32 v7, s5
  ST v7, 4
  s_endpgm
KD t_denorm, 0

BEGIN t_exec
  PRO
  v_mov_b32 v1, 7
  s_mov_b64 s[8:9], exec
  s_mov_b64 exec, 0
  v_mov_b32 v1, 9                      // no lane active: no effect
  v_mov_b32 v2, 0x1234
  ST v2, 0                             // no store
  s_mov_b32 s5, 1
  s_cbranch_execz 1f
  s_mov_b32 s5, 2
1:
  s_mov_b64 exec, s[8:9]
  ST v1, 1
  v_mov_b32 v3, s5
  ST v3, 2
  s_mov_b64 exec, 1
  v_mov_b32 v4, 0
  v_mov_b32 v4, 5                      // lane 0 only
  s_mov_b64 exec, s[8:9]
  v_readlane_b32 s6, v4, 0
  v_readlane_b32 s7, v4, 1
  v_mov_b32 v5, s6
  v_mov_b32 v6, s7
  ST v5, 3
  ST v6, 4
  v_cmp_eq_u32 vcc, 0, v9              // all lanes: vcc == exec
  s_and_b64 s[10:11], vcc, exec
  v_mov_b32 v7, s10
  ST v7, 5
  s_endpgm
KD t_exec

BEGIN t_illegal
  PRO
  v_screen_partition_4se_b32_e64 v0, v1
  s_endpgm
KD t_illegal

// Cache maintenance (device printf / hostcall code): each completes at
// once; a store before and a load after see the same memory.
BEGIN t_cache_ops
  PRO
  v_mov_b32 v1, 0x1234
  ST v1, 0
  buffer_wbl2
  buffer_invl2
  buffer_wbinvl1
  buffer_wbinvl1_vol
  s_waitcnt vmcnt(0)
  global_load_dword v2, v9, s[2:3]
  s_waitcnt vmcnt(0)
  v_add_u32 v2, 1, v2
  ST v2, 1
  s_endpgm
KD t_cache_ops

// An image instruction form the interpreter does not implement (LWE, on
// image_atomic_add: MIMG opcode 0x12).
BEGIN t_mimg
  PRO
  image_atomic_add v0, v[0:1], s[4:11] dmask:0x1 unorm lwe
  s_endpgm
KD t_mimg

BEGIN t_fault
  PRO
  v_mov_b32 v2, 0x1000
  v_mov_b32 v3, 0
  global_load_dword v4, v[2:3], off
  s_waitcnt vmcnt(0)
  ST v4, 0
  s_endpgm
KD t_fault

BEGIN t_trap
  PRO
  s_trap 2
  s_endpgm
KD t_trap

// MFMA 16x16x4 f32: A lane l = l & 7, B lane l = (l >> 3) & 3, C = 1.
BEGIN t_mfma
  PRO
  v_and_b32 v1, 7, v0
  v_cvt_f32_u32 v1, v1
  v_bfe_u32 v2, v0, 3, 2
  v_cvt_f32_u32 v2, v2
  v_accvgpr_write_b32 a0, 1.0
  v_accvgpr_write_b32 a1, 1.0
  v_accvgpr_write_b32 a2, 1.0
  v_accvgpr_write_b32 a3, 1.0
  v_mfma_f32_16x16x4f32 a[0:3], v1, v2, a[0:3]
  s_nop 7
  s_nop 7
  v_accvgpr_read_b32 v4, a0
  v_accvgpr_read_b32 v5, a1
  v_accvgpr_read_b32 v6, a2
  v_accvgpr_read_b32 v7, a3
  v_lshlrev_b32 v8, 4, v0
  global_store_dwordx4 v8, v[4:7], s[2:3]
  s_endpgm
KD t_mfma

BEGIN t_pk
  PRO
  v_mov_b32 v0, 1.0
  v_mov_b32 v1, 2.0
  v_mov_b32 v2, 0x40400000             // 3.0
  v_mov_b32 v3, 4.0
  v_mov_b32 v4, 0x41200000             // 10.0
  v_mov_b32 v5, 0x41a00000             // 20.0
  v_pk_fma_f32 v[6:7], v[0:1], v[2:3], v[4:5] op_sel:[1,0,0] op_sel_hi:[1,1,1]
  ST v6, 0
  ST v7, 1
  v_pk_mov_b32 v[10:11], v[0:1], v[2:3] op_sel:[1,0]
  ST v10, 2
  ST v11, 3
  v_pk_mul_f32 v[12:13], v[0:1], v[2:3]
  ST v12, 4
  ST v13, 5
  v_pk_add_f32 v[14:15], v[0:1], v[2:3] neg_lo:[1,0]
  ST v14, 6
  ST v15, 7
  s_endpgm
KD t_pk

// Every user and system SGPR enabled: store s4..s19 and v0.
BEGIN t_abi
  s_load_dwordx2 s[20:21], s[8:9], 0x0
  s_mul_i32 s22, s17, 6
  s_mul_i32 s23, s16, 2
  s_add_i32 s22, s22, s23
  s_add_i32 s22, s22, s15
  s_lshl_b32 s22, s22, 7
  v_mov_b32 v9, s22
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v1, s0
  global_store_dword v9, v1, s[20:21] offset:0
  v_mov_b32 v1, s3
  global_store_dword v9, v1, s[20:21] offset:4
  v_mov_b32 v1, s4
  global_store_dword v9, v1, s[20:21] offset:8
  v_mov_b32 v1, s5
  global_store_dword v9, v1, s[20:21] offset:12
  v_mov_b32 v1, s6
  global_store_dword v9, v1, s[20:21] offset:16
  v_mov_b32 v1, s7
  global_store_dword v9, v1, s[20:21] offset:20
  v_mov_b32 v1, s8
  global_store_dword v9, v1, s[20:21] offset:24
  v_mov_b32 v1, s10
  global_store_dword v9, v1, s[20:21] offset:28
  v_mov_b32 v1, s12
  global_store_dword v9, v1, s[20:21] offset:32
  v_mov_b32 v1, s14
  global_store_dword v9, v1, s[20:21] offset:36
  v_mov_b32 v1, s15
  global_store_dword v9, v1, s[20:21] offset:40
  v_mov_b32 v1, s16
  global_store_dword v9, v1, s[20:21] offset:44
  v_mov_b32 v1, s17
  global_store_dword v9, v1, s[20:21] offset:48
  v_mov_b32 v1, s19
  global_store_dword v9, v1, s[20:21] offset:52
  v_readlane_b32 s24, v0, 5
  v_mov_b32 v1, s24
  global_store_dword v9, v1, s[20:21] offset:56
  s_getreg_b32 s25, hwreg(HW_REG_MODE)
  v_mov_b32 v1, s25
  global_store_dword v9, v1, s[20:21] offset:60
  s_endpgm
  .rodata
  .p2align 6
  .amdhsa_kernel t_abi
    .amdhsa_user_sgpr_private_segment_buffer 1
    .amdhsa_user_sgpr_dispatch_ptr 1
    .amdhsa_user_sgpr_queue_ptr 1
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_user_sgpr_dispatch_id 1
    .amdhsa_user_sgpr_flat_scratch_init 1
    .amdhsa_user_sgpr_private_segment_size 1
    .amdhsa_system_sgpr_private_segment_wavefront_offset 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_sgpr_workgroup_id_y 1
    .amdhsa_system_sgpr_workgroup_id_z 1
    .amdhsa_system_sgpr_workgroup_info 1
    .amdhsa_system_vgpr_workitem_id 2
    .amdhsa_private_segment_fixed_size 16
    .amdhsa_next_free_vgpr 16
    .amdhsa_next_free_sgpr 32
    .amdhsa_accum_offset 16
    .amdhsa_ieee_mode 1
    .amdhsa_dx10_clamp 1
  .end_amdhsa_kernel

// Four waves pass values through LDS across barriers, in a loop.
BEGIN t_barrier
  PRO
  v_lshlrev_b32 v1, 2, v0              // my slot
  v_mov_b32 v2, v0                     // my value
  s_mov_b32 s4, 8                      // rounds
2:
  ds_write_b32 v1, v2
  s_waitcnt lgkmcnt(0)
  s_barrier
  v_add_u32 v3, 64, v0                 // read the slot one wave up
  v_and_b32 v3, 0xff, v3
  v_lshlrev_b32 v3, 2, v3
  ds_read_b32 v2, v3
  s_waitcnt lgkmcnt(0)
  v_add_u32 v2, 1, v2
  s_barrier
  s_sub_u32 s4, s4, 1
  s_cmp_lg_u32 s4, 0
  s_cbranch_scc1 2b
  global_store_dword v1, v2, s[2:3]
  s_endpgm
  KDESC t_barrier, 16, 16, 16, lds=1024

// Work-item ids packed in v0 (x | y << 10 | z << 20), lane id by mbcnt.
BEGIN t_vid
  PRO
  v_mbcnt_lo_u32_b32 v1, -1, 0
  v_mbcnt_hi_u32_b32 v1, -1, v1
  v_lshlrev_b32 v1, 2, v1
  global_store_dword v1, v0, s[2:3]
  s_endpgm
  KDESC t_vid, 16, 16, 16, wiid=2

// image_get_resinfo on a hand-built T# (2-D array 100 x 50, 7 layers,
// levels 0..2): mip 1 -> (50, 25, 7, 3); mip 5 (no such level) -> 0.
BEGIN t_resinfo
  PRO
  s_mov_b32 s8, 0
  s_mov_b32 s9, 0x00a00000             // DATA_FORMAT 8_8_8_8
  s_mov_b32 s10, 0x000c4063            // WIDTH 99, HEIGHT 49
  s_mov_b32 s11, 0xd0020fac            // RGBA, LAST_LEVEL 2, TYPE 2D_ARRAY
  s_mov_b32 s12, 0x000fe006            // DEPTH 6, PITCH 127
  s_mov_b32 s13, 0
  s_mov_b32 s14, 0
  s_mov_b32 s15, 0
  v_mov_b32 v4, 1
  image_get_resinfo v[0:3], v4, s[8:15] dmask:0xf
  s_waitcnt vmcnt(0)
  ST v0, 0
  ST v1, 1
  ST v2, 2
  ST v3, 3
  v_mov_b32 v4, 5
  image_get_resinfo v[0:3], v4, s[8:15] dmask:0xf
  s_waitcnt vmcnt(0)
  ST v0, 4
  ST v1, 5
  ST v2, 6
  ST v3, 7
  v_mov_b32 v4, 0
  image_get_resinfo v[6:7], v4, s[8:15] dmask:0x5   // x and z only
  s_waitcnt vmcnt(0)
  ST v6, 8
  ST v7, 9
  s_endpgm
KD t_resinfo

// image_load_mip at level 1: a one-level image reads 0 (out of range);
// t_mip_view does the same with LAST_LEVEL 2 but MAX_MIP 0 (the resource
// has one level: level 1 is outside it); t_mip_levels on a tiled chain
// (SW_64KB_D_X, MAX_MIP 2: not modelled, the wave stops with an error).
.macro MIPT last, maxmip, sw
  PRO
  s_mov_b32 s8, 0
  s_mov_b32 s9, 0x00a00000             // DATA_FORMAT 8_8_8_8
  s_mov_b32 s10, 0x0000c00f            // WIDTH 15, HEIGHT 3
  s_mov_b32 s11, 0x90000fac | (\last << 16) | (\sw << 20) // RGBA, TYPE 2D
  s_mov_b32 s12, 0x0001e000            // PITCH 16
  s_mov_b32 s13, (\maxmip << 28)       // MAX_MIP
  s_mov_b32 s14, 0
  s_mov_b32 s15, 0
  v_mov_b32 v0, 7
  v_mov_b32 v4, 1
  v_mov_b32 v5, 1
  v_mov_b32 v6, 1
  image_load_mip v[0:3], v[4:6], s[8:15] dmask:0xf unorm
  s_waitcnt vmcnt(0)
  ST v0, 0
  ST v3, 1
  s_endpgm
.endm
BEGIN t_mip_oob
  MIPT 0, 0, 0
KD t_mip_oob
BEGIN t_mip_view
  MIPT 2, 0, 0
KD t_mip_view
BEGIN t_mip_levels
  MIPT 2, 2, 26
KD t_mip_levels
