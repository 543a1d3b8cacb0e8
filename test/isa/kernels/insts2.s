// insts2.s — more per-instruction kernels for test_isa_insts.c (gfx90a):
// scalar bit ops, VOP3 integer ops, LDS and global atomics, cross-lane
// ops, s_sendmsg, s_getpc/s_setpc.  Output pointer in the first kernarg;
// results at out + 4 * k.
.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
.include "kernel.inc"

.macro BEGIN name
  KSYM \name
.endm

.macro KD name, lds=0
  KDESC \name, 32, 40, 24, lds=\lds
.endm

.macro PRO
  s_load_dwordx2 s[2:3], s[0:1], 0x0
  v_mov_b32 v9, 0
  s_waitcnt lgkmcnt(0)
.endm

.macro STS s, k
  v_mov_b32 v30, \s
  global_store_dword v9, v30, s[2:3] offset:4*\k
.endm

.macro ST v, k
  global_store_dword v9, \v, s[2:3] offset:4*\k
.endm

BEGIN t_salu
  PRO
  s_mov_b32 s4, 0x12345678
  s_bfe_u32 s5, s4, 0x80008          // offset 8, width 8 -> 0x56
  STS s5, 0
  s_movk_i32 s25, 0x80
  s_bfe_i32 s6, s25, 0x80000         // offset 0, width 8, sign-extended -> -128
  STS s6, 1
  s_brev_b32 s7, 1
  STS s7, 2
  s_ff1_i32_b32 s8, 0x100
  STS s8, 3
  s_flbit_i32_b32 s9, 0x100
  STS s9, 4
  s_bcnt1_i32_b32 s10, s4
  STS s10, 5
  s_mov_b64 s[12:13], 0x0000f00f
  s_quadmask_b64 s[14:15], s[12:13]  // quads 0 and 3 -> 0b1001
  STS s14, 6
  s_ff1_i32_b32 s16, 0               // none -> -1
  STS s16, 7
  s_sext_i32_i16 s17, 0x8001
  STS s17, 8
  s_mul_hi_i32 s18, -2, 3            // (-6) >> 32 = -1
  STS s18, 9
  s_movk_i32 s19, 0x7fff
  s_addk_i32 s19, 0x7fff
  STS s19, 10
  s_absdiff_i32 s20, 3, 10
  STS s20, 11
  s_lshl2_add_u32 s21, 5, 1
  STS s21, 12
  s_mov_b32 s26, 0x2222bbbb
  s_pack_lh_b32_b16 s22, 0x1111aaaa, s26
  STS s22, 13
  s_bitset1_b32 s23, 4
  s_mov_b32 s23, 0
  s_bitset1_b32 s23, 4
  STS s23, 14
  s_cmp_eq_u64 s[12:13], 0xf00f
  s_cselect_b32 s24, 1, 2
  STS s24, 15
  s_endpgm
KD t_salu

BEGIN t_vop3
  PRO
  v_mov_b32 v1, 0x11223344
  v_mov_b32 v2, 0x55667788
  s_mov_b32 s27, 0x0c0f0107
  v_perm_b32 v3, v1, v2, s27         // bytes: {S0,S1}[7]=0x11, [1]=0x77, 0xff, 0x00
  ST v3, 0
  s_mov_b32 s28, 0xff00ff00
  v_bfi_b32 v4, s28, v1, v2
  ST v4, 1
  v_med3_i32 v5, -5, 7, 2
  ST v5, 2
  v_min3_u32 v6, 9, 4, 6
  ST v6, 3
  v_max3_i32 v7, -1, -7, -3
  ST v7, 4
  v_lshl_add_u32 v8, 3, 4, 5         // (3 << 4) + 5
  ST v8, 5
  v_add3_u32 v10, -1, 2, 3
  ST v10, 6
  v_bcnt_u32_b32 v11, v1, 1
  ST v11, 7
  s_mov_b32 s29, 0x800000
  v_mul_i32_i24 v12, s29, 2          // 24-bit signed: -2^23 * 2
  ST v12, 8
  v_mul_hi_i32 v13, -4, 0x40000000
  ST v13, 9
  v_ffbh_u32 v14, 0x00010000
  ST v14, 10
  s_movk_i32 s30, 0xff
  v_xad_u32 v15, s30, 15, 1
  ST v15, 11
  v_cvt_f32_ubyte2 v16, v1
  ST v16, 12
  v_alignbyte_b32 v17, v1, v2, 1
  ST v17, 13
  v_bfm_b32 v18, 4, 8
  v_mov_b32 v20, 0x777
  v_swap_b32 v18, v20                // v18 = 0x777, v20 = 0xf00
  ST v20, 14
  ST v18, 16
  v_cvt_pkrtz_f16_f32 v19, 1.0, -2.0
  ST v19, 15
  v_mad_u32_u16 v21, v1, v2, 1       // 0x3344 * 0x7788 + 1
  ST v21, 17
  v_sad_u8 v22, v1, v2, 2            // 4 bytes each differ by 0x44
  ST v22, 18
  v_mad_i32_i16 v23, -3, 5, 0
  ST v23, 19
  v_mov_b32 v24, 0x4400              // 4.0 (f16)
  v_sqrt_f16 v25, v24                // 2.0 (f16), high half zeroed
  ST v25, 20
  v_rcp_f16 v26, v24
  ST v26, 21
  v_cvt_u16_f16 v27, v24
  ST v27, 22
  v_mov_b32 v28, 0xfc00              // -inf (f16)
  v_cvt_i16_f16 v29, v28             // saturates to -32768
  ST v29, 23
  s_endpgm
KD t_vop3

// LDS and global atomics, one lane each (EXEC = lane 0) for exact values
BEGIN t_atomic
  PRO
  s_mov_b64 exec, 1
  v_mov_b32 v1, 0                    // LDS address 0
  v_mov_b32 v2, 10
  ds_write_b32 v1, v2
  v_mov_b32 v3, 5
  ds_add_rtn_u32 v4, v1, v3          // returns 10, LDS = 15
  ST v4, 0
  v_mov_b32 v5, 15
  v_mov_b32 v6, 99
  ds_cmpst_rtn_b32 v7, v1, v5, v6    // LDS == 15 -> 99, returns 15
  ST v7, 1
  ds_read_b32 v8, v1
  ST v8, 2
  v_mov_b32 v10, 100
  ds_dec_rtn_u32 v11, v1, v10        // 99 -> 98
  ds_read_b32 v12, v1
  ST v12, 3
  ds_wrxchg_rtn_b32 v13, v1, v3      // returns 98, LDS = 5
  ST v13, 4
  ds_max_rtn_i32 v14, v1, v2         // max(5, 10)
  ds_read_b32 v15, v1
  ST v15, 5
  v_mov_b32 v16, 8                   // LDS address 8: a double
  v_mov_b32 v18, 0
  v_mov_b32 v19, 0x3ff80000          // 1.5
  ds_write_b64 v16, v[18:19]
  ds_add_rtn_f64 v[20:21], v16, v[18:19]   // returns 1.5, LDS = 3.0
  ds_read_b64 v[22:23], v16
  ST v21, 11
  ST v23, 12
  // global: out[16] starts 0
  v_mov_b32 v16, 7
  global_atomic_add v17, v9, v16, s[2:3] offset:64 glc   // returns 0
  ST v17, 6
  v_mov_b32 v18, 7
  v_mov_b32 v19, 42
  global_atomic_cmpswap v20, v9, v[18:19], s[2:3] offset:64 glc  // 7 -> 42
  ST v20, 7
  v_mov_b32 v21, 3
  global_atomic_umin v9, v21, s[2:3] offset:64           // no return: 3
  v_mov_b32 v22, -1
  v_mov_b32 v23, 0
  global_atomic_add_x2 v[24:25], v9, v[22:23], s[2:3] offset:72 glc
  ST v24, 8
  global_load_dwordx2 v[26:27], v9, s[2:3] offset:72
  s_waitcnt vmcnt(0)
  ST v26, 9
  ST v27, 10
  v_mov_b32 v28, 0x40400000          // 3.0f
  global_atomic_add_f32 v9, v28, s[2:3] offset:80
  global_atomic_add_f32 v9, v28, s[2:3] offset:80
  v_mov_b32 v29, 2
  global_atomic_inc v9, v29, s[2:3] offset:84            // 0 -> 1
  global_atomic_inc v9, v29, s[2:3] offset:84            // 1 -> 2
  global_atomic_inc v9, v29, s[2:3] offset:84            // 2 >= 2 -> 0
  // DS addresses are 32-bit: ADDR + OFFSET wraps (clang folds a negative
  // base into the offset, e.g. tmp[63 - lid] -> ADDR = -4 * lid, offset:252)
  v_mov_b32 v31, -4
  ds_read_b32 v32, v31 offset:4                          // LDS 0: 10
  ST v32, 13
  v_mov_b32 v33, 77
  ds_write_b32 v31, v33 offset:8                         // LDS 4 = 77
  ds_read_b32 v34, v1 offset:4
  ST v34, 14
  ds_add_rtn_u32 v35, v31, v3 offset:8                   // LDS 4: 77 -> 82, returns 77
  ST v35, 15
  ds_read2_b32 v[36:37], v31 offset0:2 offset1:1         // LDS 4 (82), LDS 0 (10)
  v_add_u32 v38, v36, v37
  ST v38, 17
  s_endpgm
KD t_atomic, 64

BEGIN t_lanes
  PRO
  v_mbcnt_lo_u32_b32 v1, -1, 0
  v_mbcnt_hi_u32_b32 v1, -1, v1      // lane id
  v_lshlrev_b32 v2, 2, v1
  v_add_u32 v3, 4, v2                // from lane + 1
  ds_bpermute_b32 v4, v3, v1
  v_mul_u32_u24 v5, 100, v1
  ds_swizzle_b32 v6, v5 offset:swizzle(QUAD_PERM, 3, 2, 1, 0)
  ds_swizzle_b32 v7, v5 offset:swizzle(BITMASK_PERM, "00001")  // xor 1... and-mask form
  s_waitcnt lgkmcnt(0)
  v_readfirstlane_b32 s4, v5
  s_mov_b64 exec, 0xf0
  v_readfirstlane_b32 s5, v5         // first active lane is 4
  s_mov_b64 exec, -1
  v_writelane_b32 v8, s5, 7
  v_readlane_b32 s6, v8, 7
  // per-lane results at out + 16 * lane
  v_lshlrev_b32 v10, 4, v1
  global_store_dword v10, v4, s[2:3]
  global_store_dword v10, v6, s[2:3] offset:4
  global_store_dword v10, v7, s[2:3] offset:8
  v_mov_b32 v11, s4
  v_mov_b32 v12, s5
  v_mov_b32 v13, s6
  global_store_dword v9, v11, s[2:3] offset:1024
  global_store_dword v9, v12, s[2:3] offset:1028
  global_store_dword v9, v13, s[2:3] offset:1032
  s_endpgm
KD t_lanes

BEGIN t_flow
  PRO
  s_mov_b32 m0, 0x123456
  s_sendmsg sendmsg(MSG_INTERRUPT)
  s_getpc_b64 s[4:5]                 // the address of the next instruction
t_flow_pc:
  s_add_u32 s4, s4, 1f-t_flow_pc
  s_addc_u32 s5, s5, 0
  s_mov_b32 s6, 1
  s_setpc_b64 s[4:5]
  s_mov_b32 s6, 2                    // skipped
1:
  STS s6, 0
  s_memtime s[8:9]
  s_memrealtime s[10:11]
  s_waitcnt lgkmcnt(0)
  s_or_b32 s12, s8, s9
  s_cmp_lg_u32 s12, 0
  s_cselect_b32 s13, 1, 0
  STS s13, 1
  s_endpgm
KD t_flow

// DPP: results per lane at out + 16 * lane
BEGIN t_dpp
  PRO
  v_mbcnt_lo_u32_b32 v1, -1, 0
  v_mbcnt_hi_u32_b32 v1, -1, v1      // lane id
  v_mov_b32 v2, -1
  v_mov_b32 v3, -1
  v_mov_b32 v4, -1
  v_mov_b32 v5, -1
  v_mov_b32_dpp v2, v1 row_shr:1 row_mask:0xf bank_mask:0xf                // lane 0 of each row not written
  v_mov_b32_dpp v3, v1 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:0   // ... or reads 0
  v_add_u32_dpp v4, v1, v1 quad_perm:[1,0,3,2] row_mask:0x5 bank_mask:0xf  // rows 0 and 2 only
  v_mov_b32_dpp v5, v1 row_bcast:15 row_mask:0xa bank_mask:0xf            // rows 1 and 3
  v_lshlrev_b32 v10, 4, v1
  global_store_dword v10, v2, s[2:3]
  global_store_dword v10, v3, s[2:3] offset:4
  global_store_dword v10, v4, s[2:3] offset:8
  global_store_dword v10, v5, s[2:3] offset:12
  s_endpgm
KD t_dpp

// v_trig_preop_f64: pieces of 2/pi
BEGIN t_trig
  PRO
  v_trig_preop_f64 v[0:1], 1.0, 0
  v_trig_preop_f64 v[2:3], 1.0, 1
  v_trig_preop_f64 v[4:5], 1.0, 2
  s_mov_b32 s4, 0
  s_mov_b32 s5, 0x46300000           // 2^100
  v_trig_preop_f64 v[6:7], s[4:5], 0
  global_store_dwordx2 v9, v[0:1], s[2:3]
  global_store_dwordx2 v9, v[2:3], s[2:3] offset:8
  global_store_dwordx2 v9, v[4:5], s[2:3] offset:16
  global_store_dwordx2 v9, v[6:7], s[2:3] offset:24
  s_endpgm
KD t_trig

// VOPC SDWA writing an SGPR pair (SD = 1): bits [15:8] of the SDWA dword
// are SDST and SD there, not DST_SEL/DST_UNUSED/CLAMP/OMOD; and the VCC
// form (SD = 0) with byte selects on both sources
BEGIN t_vopc_sdwa
  PRO
  v_lshlrev_b32 v1, 8, v0            // byte 1 = lane id, byte 0 = 0
  v_mov_b32 v2, 0x1128               // byte 0 = 40
  s_mov_b32 s6, 5
  v_cmp_ne_u32_sdwa s[40:41], v1, s6 src0_sel:BYTE_1 src1_sel:DWORD
  v_cmp_gt_u32_sdwa vcc, v1, v2 src0_sel:BYTE_1 src1_sel:BYTE_0
  STS s40, 0
  STS s41, 1
  STS vcc_lo, 2
  STS vcc_hi, 3
  s_endpgm
KD t_vopc_sdwa
