// mfma942.s — one kernel per MFMA and SMFMAC form and modifier set for test_isa_mfma.c
// (gfx942); GENERATED with the form table of test_isa_mfma.c.  One wave of
// 64: lane l loads its 48-dword record in[48l ..]: A (dwords 0-3) into
// v[2:5], B (4-7) into v[6:9], C (8-39) into v[10:41] and the sparse
// index (40) into v42; runs the instruction (the _acc kernels copy A, B
// and C into AGPRs first and D back out) and stores v[10:41] at out[32l ..].
.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
.include "kernel.inc"

.include "mfma.inc"

BEGIN mf_mfma_f32_16x16x8_xf32
  v_mfma_f32_16x16x8_xf32 v[10:13], v[2:3], v[6:7], v[10:13]
  STORE
KD mf_mfma_f32_16x16x8_xf32

BEGIN mf_mfma_f32_16x16x8_xf32_acc
  v_accvgpr_write_b32 a32, v2
  v_accvgpr_write_b32 a33, v3
  v_accvgpr_write_b32 a36, v6
  v_accvgpr_write_b32 a37, v7
  v_accvgpr_write_b32 a0, v10
  v_accvgpr_write_b32 a1, v11
  v_accvgpr_write_b32 a2, v12
  v_accvgpr_write_b32 a3, v13
  v_mfma_f32_16x16x8_xf32 a[0:3], a[32:33], a[36:37], a[0:3]
  s_nop 7
  s_nop 7
  s_nop 7
  v_accvgpr_read_b32 v10, a0
  v_accvgpr_read_b32 v11, a1
  v_accvgpr_read_b32 v12, a2
  v_accvgpr_read_b32 v13, a3
  STORE
KD mf_mfma_f32_16x16x8_xf32_acc

BEGIN mf_mfma_f32_16x16x8_xf32_k
  v_mfma_f32_16x16x8_xf32 v[10:13], v[2:3], v[6:7], 1.0
  STORE
KD mf_mfma_f32_16x16x8_xf32_k

BEGIN mf_mfma_f32_32x32x4_xf32
  v_mfma_f32_32x32x4_xf32 v[10:25], v[2:3], v[6:7], v[10:25]
  STORE
KD mf_mfma_f32_32x32x4_xf32

BEGIN mf_mfma_f32_32x32x4_xf32_acc
  v_accvgpr_write_b32 a32, v2
  v_accvgpr_write_b32 a33, v3
  v_accvgpr_write_b32 a36, v6
  v_accvgpr_write_b32 a37, v7
  v_accvgpr_write_b32 a0, v10
  v_accvgpr_write_b32 a1, v11
  v_accvgpr_write_b32 a2, v12
  v_accvgpr_write_b32 a3, v13
  v_accvgpr_write_b32 a4, v14
  v_accvgpr_write_b32 a5, v15
  v_accvgpr_write_b32 a6, v16
  v_accvgpr_write_b32 a7, v17
  v_accvgpr_write_b32 a8, v18
  v_accvgpr_write_b32 a9, v19
  v_accvgpr_write_b32 a10, v20
  v_accvgpr_write_b32 a11, v21
  v_accvgpr_write_b32 a12, v22
  v_accvgpr_write_b32 a13, v23
  v_accvgpr_write_b32 a14, v24
  v_accvgpr_write_b32 a15, v25
  v_mfma_f32_32x32x4_xf32 a[0:15], a[32:33], a[36:37], a[0:15]
  s_nop 7
  s_nop 7
  s_nop 7
  v_accvgpr_read_b32 v10, a0
  v_accvgpr_read_b32 v11, a1
  v_accvgpr_read_b32 v12, a2
  v_accvgpr_read_b32 v13, a3
  v_accvgpr_read_b32 v14, a4
  v_accvgpr_read_b32 v15, a5
  v_accvgpr_read_b32 v16, a6
  v_accvgpr_read_b32 v17, a7
  v_accvgpr_read_b32 v18, a8
  v_accvgpr_read_b32 v19, a9
  v_accvgpr_read_b32 v20, a10
  v_accvgpr_read_b32 v21, a11
  v_accvgpr_read_b32 v22, a12
  v_accvgpr_read_b32 v23, a13
  v_accvgpr_read_b32 v24, a14
  v_accvgpr_read_b32 v25, a15
  STORE
KD mf_mfma_f32_32x32x4_xf32_acc

BEGIN mf_mfma_f32_32x32x4_xf32_k
  v_mfma_f32_32x32x4_xf32 v[10:25], v[2:3], v[6:7], 1.0
  STORE
KD mf_mfma_f32_32x32x4_xf32_k

BEGIN mf_mfma_f32_32x32x1_2b_f32
  v_mfma_f32_32x32x1_2b_f32 v[10:41], v2, v6, v[10:41]
  STORE
KD mf_mfma_f32_32x32x1_2b_f32

BEGIN mf_mfma_f32_32x32x1_2b_f32_acc
  v_accvgpr_write_b32 a32, v2
  v_accvgpr_write_b32 a36, v6
  v_accvgpr_write_b32 a0, v10
  v_accvgpr_write_b32 a1, v11
  v_accvgpr_write_b32 a2, v12
  v_accvgpr_write_b32 a3, v13
  v_accvgpr_write_b32 a4, v14
  v_accvgpr_write_b32 a5, v15
  v_accvgpr_write_b32 a6, v16
  v_accvgpr_write_b32 a7, v17
  v_accvgpr_write_b32 a8, v18
  v_accvgpr_write_b32 a9, v19
  v_accvgpr_write_b32 a10, v20
  v_accvgpr_write_b32 a11, v21
  v_accvgpr_write_b32 a12, v22
  v_accvgpr_write_b32 a13, v23
  v_accvgpr_write_b32 a14, v24
  v_accvgpr_write_b32 a15, v25
  v_accvgpr_write_b32 a16, v26
  v_accvgpr_write_b32 a17, v27
  v_accvgpr_write_b32 a18, v28
  v_accvgpr_write_b32 a19, v29
  v_accvgpr_write_b32 a20, v30
  v_accvgpr_write_b32 a21, v31
  v_accvgpr_write_b32 a22, v32
  v_accvgpr_write_b32 a23, v33
  v_accvgpr_write_b32 a24, v34
  v_accvgpr_write_b32 a25, v35
  v_accvgpr_write_b32 a26, v36
  v_accvgpr_write_b32 a27, v37
  v_accvgpr_write_b32 a28, v38
  v_accvgpr_write_b32 a29, v39
  v_accvgpr_write_b32 a30, v40
  v_accvgpr_write_b32 a31, v41
  v_mfma_f32_32x32x1_2b_f32 a[0:31], a32, a36, a[0:31]
  s_nop 7
  s_nop 7
  s_nop 7
  v_accvgpr_read_b32 v10, a0
  v_accvgpr_read_b32 v11, a1
  v_accvgpr_read_b32 v12, a2
  v_accvgpr_read_b32 v13, a3
  v_accvgpr_read_b32 v14, a4
  v_accvgpr_read_b32 v15, a5
  v_accvgpr_read_b32 v16, a6
  v_accvgpr_read_b32 v17, a7
  v_accvgpr_read_b32 v18, a8
  v_accvgpr_read_b32 v19, a9
  v_accvgpr_read_b32 v20, a10
  v_accvgpr_read_b32 v21, a11
  v_accvgpr_read_b32 v22, a12
  v_accvgpr_read_b32 v23, a13
  v_accvgpr_read_b32 v24, a14
  v_accvgpr_read_b32 v25, a15
  v_accvgpr_read_b32 v26, a16
  v_accvgpr_read_b32 v27, a17
  v_accvgpr_read_b32 v28, a18
  v_accvgpr_read_b32 v29, a19
  v_accvgpr_read_b32 v30, a20
  v_accvgpr_read_b32 v31, a21
  v_accvgpr_read_b32 v32, a22
  v_accvgpr_read_b32 v33, a23
  v_accvgpr_read_b32 v34, a24
  v_accvgpr_read_b32 v35, a25
  v_accvgpr_read_b32 v36, a26
  v_accvgpr_read_b32 v37, a27
  v_accvgpr_read_b32 v38, a28
  v_accvgpr_read_b32 v39, a29
  v_accvgpr_read_b32 v40, a30
  v_accvgpr_read_b32 v41, a31
  STORE
KD mf_mfma_f32_32x32x1_2b_f32_acc

BEGIN mf_mfma_f32_32x32x1_2b_f32_k
  v_mfma_f32_32x32x1_2b_f32 v[10:41], v2, v6, 1.0
  STORE
KD mf_mfma_f32_32x32x1_2b_f32_k

BEGIN mf_mfma_f32_32x32x1_2b_f32_cb
  v_mfma_f32_32x32x1_2b_f32 v[10:41], v2, v6, v[10:41] cbsz:1 abid:1
  STORE
KD mf_mfma_f32_32x32x1_2b_f32_cb

BEGIN mf_mfma_f32_32x32x1_2b_f32_cb1
  v_mfma_f32_32x32x1_2b_f32 v[10:41], v2, v6, v[10:41] cbsz:1 abid:1
  STORE
KD mf_mfma_f32_32x32x1_2b_f32_cb1

BEGIN mf_mfma_f32_32x32x1_2b_f32_blgp
  v_mfma_f32_32x32x1_2b_f32 v[10:41], v2, v6, v[10:41] blgp:5
  STORE
KD mf_mfma_f32_32x32x1_2b_f32_blgp

BEGIN mf_mfma_f32_16x16x1_4b_f32
  v_mfma_f32_16x16x1_4b_f32 v[10:25], v2, v6, v[10:25]
  STORE
KD mf_mfma_f32_16x16x1_4b_f32

BEGIN mf_mfma_f32_16x16x1_4b_f32_acc
  v_accvgpr_write_b32 a32, v2
  v_accvgpr_write_b32 a36, v6
  v_accvgpr_write_b32 a0, v10
  v_accvgpr_write_b32 a1, v11
  v_accvgpr_write_b32 a2, v12
  v_accvgpr_write_b32 a3, v13
  v_accvgpr_write_b32 a4, v14
  v_accvgpr_write_b32 a5, v15
  v_accvgpr_write_b32 a6, v16
  v_accvgpr_write_b32 a7, v17
  v_accvgpr_write_b32 a8, v18
  v_accvgpr_write_b32 a9, v19
  v_accvgpr_write_b32 a10, v20
  v_accvgpr_write_b32 a11, v21
  v_accvgpr_write_b32 a12, v22
  v_accvgpr_write_b32 a13, v23
  v_accvgpr_write_b32 a14, v24
  v_accvgpr_write_b32 a15, v25
  v_mfma_f32_16x16x1_4b_f32 a[0:15], a32, a36, a[0:15]
  s_nop 7
  s_nop 7
  s_nop 7
  v_accvgpr_read_b32 v10, a0
  v_accvgpr_read_b32 v11, a1
  v_accvgpr_read_b32 v12, a2
  v_accvgpr_read_b32 v13, a3
  v_accvgpr_read_b32 v14, a4
  v_accvgpr_read_b32 v15, a5
  v_accvgpr_read_b32 v16, a6
  v_accvgpr_read_b32 v17, a7
  v_accvgpr_read_b32 v18, a8
  v_accvgpr_read_b32 v19, a9
  v_accvgpr_read_b32 v20, a10
  v_accvgpr_read_b32 v21, a11
  v_accvgpr_read_b32 v22, a12
  v_accvgpr_read_b32 v23, a13
  v_accvgpr_read_b32 v24, a14
  v_accvgpr_read_b32 v25, a15
  STORE
KD mf_mfma_f32_16x16x1_4b_f32_acc

BEGIN mf_mfma_f32_16x16x1_4b_f32_k
  v_mfma_f32_16x16x1_4b_f32 v[10:25], v2, v6, 1.0
  STORE
KD mf_mfma_f32_16x16x1_4b_f32_k

BEGIN mf_mfma_f32_16x16x1_4b_f32_cb
  v_mfma_f32_16x16x1_4b_f32 v[10:25], v2, v6, v[10:25] cbsz:2 abid:3
  STORE
KD mf_mfma_f32_16x16x1_4b_f32_cb

BEGIN mf_mfma_f32_16x16x1_4b_f32_cb1
  v_mfma_f32_16x16x1_4b_f32 v[10:25], v2, v6, v[10:25] cbsz:1 abid:1
  STORE
KD mf_mfma_f32_16x16x1_4b_f32_cb1

BEGIN mf_mfma_f32_16x16x1_4b_f32_blgp
  v_mfma_f32_16x16x1_4b_f32 v[10:25], v2, v6, v[10:25] blgp:5
  STORE
KD mf_mfma_f32_16x16x1_4b_f32_blgp

BEGIN mf_mfma_f32_4x4x1_16b_f32
  v_mfma_f32_4x4x1_16b_f32 v[10:13], v2, v6, v[10:13]
  STORE
KD mf_mfma_f32_4x4x1_16b_f32

BEGIN mf_mfma_f32_4x4x1_16b_f32_acc
  v_accvgpr_write_b32 a32, v2
  v_accvgpr_write_b32 a36, v6
  v_accvgpr_write_b32 a0, v10
  v_accvgpr_write_b32 a1, v11
  v_accvgpr_write_b32 a2, v12
  v_accvgpr_write_b32 a3, v13
  v_mfma_f32_4x4x1_16b_f32 a[0:3], a32, a36, a[0:3]
  s_nop 7
  s_nop 7
  s_nop 7
  v_accvgpr_read_b32 v10, a0
  v_accvgpr_read_b32 v11, a1
  v_accvgpr_read_b32 v12, a2
  v_accvgpr_read_b32 v13, a3
  STORE
KD mf_mfma_f32_4x4x1_16b_f32_acc

BEGIN mf_mfma_f32_4x4x1_16b_f32_k
  v_mfma_f32_4x4x1_16b_f32 v[10:13], v2, v6, 1.0
  STORE
KD mf_mfma_f32_4x4x1_16b_f32_k

BEGIN mf_mfma_f32_4x4x1_16b_f32_cb
  v_mfma_f32_4x4x1_16b_f32 v[10:13], v2, v6, v[10:13] cbsz:4 abid:15
  STORE
KD mf_mfma_f32_4x4x1_16b_f32_cb

BEGIN mf_mfma_f32_4x4x1_16b_f32_cb1
  v_mfma_f32_4x4x1_16b_f32 v[10:13], v2, v6, v[10:13] cbsz:1 abid:1
  STORE
KD mf_mfma_f32_4x4x1_16b_f32_cb1

BEGIN mf_mfma_f32_4x4x1_16b_f32_blgp
  v_mfma_f32_4x4x1_16b_f32 v[10:13], v2, v6, v[10:13] blgp:4
  STORE
KD mf_mfma_f32_4x4x1_16b_f32_blgp

BEGIN mf_mfma_f32_32x32x2_f32
  v_mfma_f32_32x32x2_f32 v[10:25], v2, v6, v[10:25]
  STORE
KD mf_mfma_f32_32x32x2_f32

BEGIN mf_mfma_f32_32x32x2_f32_acc
  v_accvgpr_write_b32 a32, v2
  v_accvgpr_write_b32 a36, v6
  v_accvgpr_write_b32 a0, v10
  v_accvgpr_write_b32 a1, v11
  v_accvgpr_write_b32 a2, v12
  v_accvgpr_write_b32 a3, v13
  v_accvgpr_write_b32 a4, v14
  v_accvgpr_write_b32 a5, v15
  v_accvgpr_write_b32 a6, v16
  v_accvgpr_write_b32 a7, v17
  v_accvgpr_write_b32 a8, v18
  v_accvgpr_write_b32 a9, v19
  v_accvgpr_write_b32 a10, v20
  v_accvgpr_write_b32 a11, v21
  v_accvgpr_write_b32 a12, v22
  v_accvgpr_write_b32 a13, v23
  v_accvgpr_write_b32 a14, v24
  v_accvgpr_write_b32 a15, v25
  v_mfma_f32_32x32x2_f32 a[0:15], a32, a36, a[0:15]
  s_nop 7
  s_nop 7
  s_nop 7
  v_accvgpr_read_b32 v10, a0
  v_accvgpr_read_b32 v11, a1
  v_accvgpr_read_b32 v12, a2
  v_accvgpr_read_b32 v13, a3
  v_accvgpr_read_b32 v14, a4
  v_accvgpr_read_b32 v15, a5
  v_accvgpr_read_b32 v16, a6
  v_accvgpr_read_b32 v17, a7
  v_accvgpr_read_b32 v18, a8
  v_accvgpr_read_b32 v19, a9
  v_accvgpr_read_b32 v20, a10
  v_accvgpr_read_b32 v21, a11
  v_accvgpr_read_b32 v22, a12
  v_accvgpr_read_b32 v23, a13
  v_accvgpr_read_b32 v24, a14
  v_accvgpr_read_b32 v25, a15
  STORE
KD mf_mfma_f32_32x32x2_f32_acc

BEGIN mf_mfma_f32_32x32x2_f32_k
  v_mfma_f32_32x32x2_f32 v[10:25], v2, v6, 1.0
  STORE
KD mf_mfma_f32_32x32x2_f32_k

BEGIN mf_mfma_f32_16x16x4_f32
  v_mfma_f32_16x16x4_f32 v[10:13], v2, v6, v[10:13]
  STORE
KD mf_mfma_f32_16x16x4_f32

BEGIN mf_mfma_f32_16x16x4_f32_acc
  v_accvgpr_write_b32 a32, v2
  v_accvgpr_write_b32 a36, v6
  v_accvgpr_write_b32 a0, v10
  v_accvgpr_write_b32 a1, v11
  v_accvgpr_write_b32 a2, v12
  v_accvgpr_write_b32 a3, v13
  v_mfma_f32_16x16x4_f32 a[0:3], a32, a36, a[0:3]
  s_nop 7
  s_nop 7
  s_nop 7
  v_accvgpr_read_b32 v10, a0
  v_accvgpr_read_b32 v11, a1
  v_accvgpr_read_b32 v12, a2
  v_accvgpr_read_b32 v13, a3
  STORE
KD mf_mfma_f32_16x16x4_f32_acc

BEGIN mf_mfma_f32_16x16x4_f32_k
  v_mfma_f32_16x16x4_f32 v[10:13], v2, v6, 1.0
  STORE
KD mf_mfma_f32_16x16x4_f32_k

BEGIN mf_mfma_f32_32x32x4_2b_f16
  v_mfma_f32_32x32x4_2b_f16 v[10:41], v[2:3], v[6:7], v[10:41]
  STORE
KD mf_mfma_f32_32x32x4_2b_f16

BEGIN mf_mfma_f32_32x32x4_2b_f16_acc
  v_accvgpr_write_b32 a32, v2
  v_accvgpr_write_b32 a33, v3
  v_accvgpr_write_b32 a36, v6
  v_accvgpr_write_b32 a37, v7
  v_accvgpr_write_b32 a0, v10
  v_accvgpr_write_b32 a1, v11
  v_accvgpr_write_b32 a2, v12
  v_accvgpr_write_b32 a3, v13
  v_accvgpr_write_b32 a4, v14
  v_accvgpr_write_b32 a5, v15
  v_accvgpr_write_b32 a6, v16
  v_accvgpr_write_b32 a7, v17
  v_accvgpr_write_b32 a8, v18
  v_accvgpr_write_b32 a9, v19
  v_accvgpr_write_b32 a10, v20
  v_accvgpr_write_b32 a11, v21
  v_accvgpr_write_b32 a12, v22
  v_accvgpr_write_b32 a13, v23
  v_accvgpr_write_b32 a14, v24
  v_accvgpr_write_b32 a15, v25
  v_accvgpr_write_b32 a16, v26
  v_accvgpr_write_b32 a17, v27
  v_accvgpr_write_b32 a18, v28
  v_accvgpr_write_b32 a19, v29
  v_accvgpr_write_b32 a20, v30
  v_accvgpr_write_b32 a21, v31
  v_accvgpr_write_b32 a22, v32
  v_accvgpr_write_b32 a23, v33
  v_accvgpr_write_b32 a24, v34
  v_accvgpr_write_b32 a25, v35
  v_accvgpr_write_b32 a26, v36
  v_accvgpr_write_b32 a27, v37
  v_accvgpr_write_b32 a28, v38
  v_accvgpr_write_b32 a29, v39
  v_accvgpr_write_b32 a30, v40
  v_accvgpr_write_b32 a31, v41
  v_mfma_f32_32x32x4_2b_f16 a[0:31], a[32:33], a[36:37], a[0:31]
  s_nop 7
  s_nop 7
  s_nop 7
  v_accvgpr_read_b32 v10, a0
  v_accvgpr_read_b32 v11, a1
  v_accvgpr_read_b32 v12, a2
  v_accvgpr_read_b32 v13, a3
  v_accvgpr_read_b32 v14, a4
  v_accvgpr_read_b32 v15, a5
  v_accvgpr_read_b32 v16, a6
  v_accvgpr_read_b32 v17, a7
  v_accvgpr_read_b32 v18, a8
  v_accvgpr_read_b32 v19, a9
  v_accvgpr_read_b32 v20, a10
  v_accvgpr_read_b32 v21, a11
  v_accvgpr_read_b32 v22, a12
  v_accvgpr_read_b32 v23, a13
  v_accvgpr_read_b32 v24, a14
  v_accvgpr_read_b32 v25, a15
  v_accvgpr_read_b32 v26, a16
  v_accvgpr_read_b32 v27, a17
  v_accvgpr_read_b32 v28, a18
  v_accvgpr_read_b32 v29, a19
  v_accvgpr_read_b32 v30, a20
  v_accvgpr_read_b32 v31, a21
  v_accvgpr_read_b32 v32, a22
  v_accvgpr_read_b32 v33, a23
  v_accvgpr_read_b32 v34, a24
  v_accvgpr_read_b32 v35, a25
  v_accvgpr_read_b32 v36, a26
  v_accvgpr_read_b32 v37, a27
  v_accvgpr_read_b32 v38, a28
  v_accvgpr_read_b32 v39, a29
  v_accvgpr_read_b32 v40, a30
  v_accvgpr_read_b32 v41, a31
  STORE
KD mf_mfma_f32_32x32x4_2b_f16_acc

BEGIN mf_mfma_f32_32x32x4_2b_f16_k
  v_mfma_f32_32x32x4_2b_f16 v[10:41], v[2:3], v[6:7], 1.0
  STORE
KD mf_mfma_f32_32x32x4_2b_f16_k

BEGIN mf_mfma_f32_32x32x4_2b_f16_cb
  v_mfma_f32_32x32x4_2b_f16 v[10:41], v[2:3], v[6:7], v[10:41] cbsz:1 abid:1
  STORE
KD mf_mfma_f32_32x32x4_2b_f16_cb

BEGIN mf_mfma_f32_32x32x4_2b_f16_cb1
  v_mfma_f32_32x32x4_2b_f16 v[10:41], v[2:3], v[6:7], v[10:41] cbsz:1 abid:1
  STORE
KD mf_mfma_f32_32x32x4_2b_f16_cb1

BEGIN mf_mfma_f32_32x32x4_2b_f16_blgp
  v_mfma_f32_32x32x4_2b_f16 v[10:41], v[2:3], v[6:7], v[10:41] blgp:5
  STORE
KD mf_mfma_f32_32x32x4_2b_f16_blgp

BEGIN mf_mfma_f32_16x16x4_4b_f16
  v_mfma_f32_16x16x4_4b_f16 v[10:25], v[2:3], v[6:7], v[10:25]
  STORE
KD mf_mfma_f32_16x16x4_4b_f16

BEGIN mf_mfma_f32_16x16x4_4b_f16_acc
  v_accvgpr_write_b32 a32, v2
  v_accvgpr_write_b32 a33, v3
  v_accvgpr_write_b32 a36, v6
  v_accvgpr_write_b32 a37, v7
  v_accvgpr_write_b32 a0, v10
  v_accvgpr_write_b32 a1, v11
  v_accvgpr_write_b32 a2, v12
  v_accvgpr_write_b32 a3, v13
  v_accvgpr_write_b32 a4, v14
  v_accvgpr_write_b32 a5, v15
  v_accvgpr_write_b32 a6, v16
  v_accvgpr_write_b32 a7, v17
  v_accvgpr_write_b32 a8, v18
  v_accvgpr_write_b32 a9, v19
  v_accvgpr_write_b32 a10, v20
  v_accvgpr_write_b32 a11, v21
  v_accvgpr_write_b32 a12, v22
  v_accvgpr_write_b32 a13, v23
  v_accvgpr_write_b32 a14, v24
  v_accvgpr_write_b32 a15, v25
  v_mfma_f32_16x16x4_4b_f16 a[0:15], a[32:33], a[36:37], a[0:15]
  s_nop 7
  s_nop 7
  s_nop 7
  v_accvgpr_read_b32 v10, a0
  v_accvgpr_read_b32 v11, a1
  v_accvgpr_read_b32 v12, a2
  v_accvgpr_read_b32 v13, a3
  v_accvgpr_read_b32 v14, a4
  v_accvgpr_read_b32 v15, a5
  v_accvgpr_read_b32 v16, a6
  v_accvgpr_read_b32 v17, a7
  v_accvgpr_read_b32 v18, a8
  v_accvgpr_read_b32 v19, a9
  v_accvgpr_read_b32 v20, a10
  v_accvgpr_read_b32 v21, a11
  v_accvgpr_read_b32 v22, a12
  v_accvgpr_read_b32 v23, a13
  v_accvgpr_read_b32 v24, a14
  v_accvgpr_read_b32 v25, a15
  STORE
KD mf_mfma_f32_16x16x4_4b_f16_acc

BEGIN mf_mfma_f32_16x16x4_4b_f16_k
  v_mfma_f32_16x16x4_4b_f16 v[10:25], v[2:3], v[6:7], 1.0
  STORE
KD mf_mfma_f32_16x16x4_4b_f16_k

BEGIN mf_mfma_f32_16x16x4_4b_f16_cb
  v_mfma_f32_16x16x4_4b_f16 v[10:25], v[2:3], v[6:7], v[10:25] cbsz:2 abid:1
  STORE
KD mf_mfma_f32_16x16x4_4b_f16_cb

BEGIN mf_mfma_f32_16x16x4_4b_f16_cb1
  v_mfma_f32_16x16x4_4b_f16 v[10:25], v[2:3], v[6:7], v[10:25] cbsz:1 abid:1
  STORE
KD mf_mfma_f32_16x16x4_4b_f16_cb1

BEGIN mf_mfma_f32_16x16x4_4b_f16_blgp
  v_mfma_f32_16x16x4_4b_f16 v[10:25], v[2:3], v[6:7], v[10:25] blgp:5
  STORE
KD mf_mfma_f32_16x16x4_4b_f16_blgp

BEGIN mf_mfma_f32_4x4x4_16b_f16
  v_mfma_f32_4x4x4_16b_f16 v[10:13], v[2:3], v[6:7], v[10:13]
  STORE
KD mf_mfma_f32_4x4x4_16b_f16

BEGIN mf_mfma_f32_4x4x4_16b_f16_acc
  v_accvgpr_write_b32 a32, v2
  v_accvgpr_write_b32 a33, v3
  v_accvgpr_write_b32 a36, v6
  v_accvgpr_write_b32 a37, v7
  v_accvgpr_write_b32 a0, v10
  v_accvgpr_write_b32 a1, v11
  v_accvgpr_write_b32 a2, v12
  v_accvgpr_write_b32 a3, v13
  v_mfma_f32_4x4x4_16b_f16 a[0:3], a[32:33], a[36:37], a[0:3]
  s_nop 7
  s_nop 7
  s_nop 7
  v_accvgpr_read_b32 v10, a0
  v_accvgpr_read_b32 v11, a1
  v_accvgpr_read_b32 v12, a2
  v_accvgpr_read_b32 v13, a3
  STORE
KD mf_mfma_f32_4x4x4_16b_f16_acc

BEGIN mf_mfma_f32_4x4x4_16b_f16_k
  v_mfma_f32_4x4x4_16b_f16 v[10:13], v[2:3], v[6:7], 1.0
  STORE
KD mf_mfma_f32_4x4x4_16b_f16_k

BEGIN mf_mfma_f32_4x4x4_16b_f16_cb
  v_mfma_f32_4x4x4_16b_f16 v[10:13], v[2:3], v[6:7], v[10:13] cbsz:4 abid:1
  STORE
KD mf_mfma_f32_4x4x4_16b_f16_cb

BEGIN mf_mfma_f32_4x4x4_16b_f16_cb1
  v_mfma_f32_4x4x4_16b_f16 v[10:13], v[2:3], v[6:7], v[10:13] cbsz:1 abid:1
  STORE
KD mf_mfma_f32_4x4x4_16b_f16_cb1

BEGIN mf_mfma_f32_4x4x4_16b_f16_blgp
  v_mfma_f32_4x4x4_16b_f16 v[10:13], v[2:3], v[6:7], v[10:13] blgp:4
  STORE
KD mf_mfma_f32_4x4x4_16b_f16_blgp

BEGIN mf_mfma_f32_32x32x8_f16
  v_mfma_f32_32x32x8_f16 v[10:25], v[2:3], v[6:7], v[10:25]
  STORE
KD mf_mfma_f32_32x32x8_f16

BEGIN mf_mfma_f32_32x32x8_f16_acc
  v_accvgpr_write_b32 a32, v2
  v_accvgpr_write_b32 a33, v3
  v_accvgpr_write_b32 a36, v6
  v_accvgpr_write_b32 a37, v7
  v_accvgpr_write_b32 a0, v10
  v_accvgpr_write_b32 a1, v11
  v_accvgpr_write_b32 a2, v12
  v_accvgpr_write_b32 a3, v13
  v_accvgpr_write_b32 a4, v14
  v_accvgpr_write_b32 a5, v15
  v_accvgpr_write_b32 a6, v16
  v_accvgpr_write_b32 a7, v17
  v_accvgpr_write_b32 a8, v18
  v_accvgpr_write_b32 a9, v19
  v_accvgpr_write_b32 a10, v20
  v_accvgpr_write_b32 a11, v21
  v_accvgpr_write_b32 a12, v22
  v_accvgpr_write_b32 a13, v23
  v_accvgpr_write_b32 a14, v24
  v_accvgpr_write_b32 a15, v25
  v_mfma_f32_32x32x8_f16 a[0:15], a[32:33], a[36:37], a[0:15]
  s_nop 7
  s_nop 7
  s_nop 7
  v_accvgpr_read_b32 v10, a0
  v_accvgpr_read_b32 v11, a1
  v_accvgpr_read_b32 v12, a2
  v_accvgpr_read_b32 v13, a3
  v_accvgpr_read_b32 v14, a4
  v_accvgpr_read_b32 v15, a5
  v_accvgpr_read_b32 v16, a6
  v_accvgpr_read_b32 v17, a7
  v_accvgpr_read_b32 v18, a8
  v_accvgpr_read_b32 v19, a9
  v_accvgpr_read_b32 v20, a10
  v_accvgpr_read_b32 v21, a11
  v_accvgpr_read_b32 v22, a12
  v_accvgpr_read_b32 v23, a13
  v_accvgpr_read_b32 v24, a14
  v_accvgpr_read_b32 v25, a15
  STORE
KD mf_mfma_f32_32x32x8_f16_acc

BEGIN mf_mfma_f32_32x32x8_f16_k
  v_mfma_f32_32x32x8_f16 v[10:25], v[2:3], v[6:7], 1.0
  STORE
KD mf_mfma_f32_32x32x8_f16_k

BEGIN mf_mfma_f32_16x16x16_f16
  v_mfma_f32_16x16x16_f16 v[10:13], v[2:3], v[6:7], v[10:13]
  STORE
KD mf_mfma_f32_16x16x16_f16

BEGIN mf_mfma_f32_16x16x16_f16_acc
  v_accvgpr_write_b32 a32, v2
  v_accvgpr_write_b32 a33, v3
  v_accvgpr_write_b32 a36, v6
  v_accvgpr_write_b32 a37, v7
  v_accvgpr_write_b32 a0, v10
  v_accvgpr_write_b32 a1, v11
  v_accvgpr_write_b32 a2, v12
  v_accvgpr_write_b32 a3, v13
  v_mfma_f32_16x16x16_f16 a[0:3], a[32:33], a[36:37], a[0:3]
  s_nop 7
  s_nop 7
  s_nop 7
  v_accvgpr_read_b32 v10, a0
  v_accvgpr_read_b32 v11, a1
  v_accvgpr_read_b32 v12, a2
  v_accvgpr_read_b32 v13, a3
  STORE
KD mf_mfma_f32_16x16x16_f16_acc

BEGIN mf_mfma_f32_16x16x16_f16_k
  v_mfma_f32_16x16x16_f16 v[10:13], v[2:3], v[6:7], 1.0
  STORE
KD mf_mfma_f32_16x16x16_f16_k

BEGIN mf_mfma_i32_32x32x4_2b_i8
  v_mfma_i32_32x32x4_2b_i8 v[10:41], v2, v6, v[10:41]
  STORE
KD mf_mfma_i32_32x32x4_2b_i8

BEGIN mf_mfma_i32_32x32x4_2b_i8_acc
  v_accvgpr_write_b32 a32, v2
  v_accvgpr_write_b32 a36, v6
  v_accvgpr_write_b32 a0, v10
  v_accvgpr_write_b32 a1, v11
  v_accvgpr_write_b32 a2, v12
  v_accvgpr_write_b32 a3, v13
  v_accvgpr_write_b32 a4, v14
  v_accvgpr_write_b32 a5, v15
  v_accvgpr_write_b32 a6, v16
  v_accvgpr_write_b32 a7, v17
  v_accvgpr_write_b32 a8, v18
  v_accvgpr_write_b32 a9, v19
  v_accvgpr_write_b32 a10, v20
  v_accvgpr_write_b32 a11, v21
  v_accvgpr_write_b32 a12, v22
  v_accvgpr_write_b32 a13, v23
  v_accvgpr_write_b32 a14, v24
  v_accvgpr_write_b32 a15, v25
  v_accvgpr_write_b32 a16, v26
  v_accvgpr_write_b32 a17, v27
  v_accvgpr_write_b32 a18, v28
  v_accvgpr_write_b32 a19, v29
  v_accvgpr_write_b32 a20, v30
  v_accvgpr_write_b32 a21, v31
  v_accvgpr_write_b32 a22, v32
  v_accvgpr_write_b32 a23, v33
  v_accvgpr_write_b32 a24, v34
  v_accvgpr_write_b32 a25, v35
  v_accvgpr_write_b32 a26, v36
  v_accvgpr_write_b32 a27, v37
  v_accvgpr_write_b32 a28, v38
  v_accvgpr_write_b32 a29, v39
  v_accvgpr_write_b32 a30, v40
  v_accvgpr_write_b32 a31, v41
  v_mfma_i32_32x32x4_2b_i8 a[0:31], a32, a36, a[0:31]
  s_nop 7
  s_nop 7
  s_nop 7
  v_accvgpr_read_b32 v10, a0
  v_accvgpr_read_b32 v11, a1
  v_accvgpr_read_b32 v12, a2
  v_accvgpr_read_b32 v13, a3
  v_accvgpr_read_b32 v14, a4
  v_accvgpr_read_b32 v15, a5
  v_accvgpr_read_b32 v16, a6
  v_accvgpr_read_b32 v17, a7
  v_accvgpr_read_b32 v18, a8
  v_accvgpr_read_b32 v19, a9
  v_accvgpr_read_b32 v20, a10
  v_accvgpr_read_b32 v21, a11
  v_accvgpr_read_b32 v22, a12
  v_accvgpr_read_b32 v23, a13
  v_accvgpr_read_b32 v24, a14
  v_accvgpr_read_b32 v25, a15
  v_accvgpr_read_b32 v26, a16
  v_accvgpr_read_b32 v27, a17
  v_accvgpr_read_b32 v28, a18
  v_accvgpr_read_b32 v29, a19
  v_accvgpr_read_b32 v30, a20
  v_accvgpr_read_b32 v31, a21
  v_accvgpr_read_b32 v32, a22
  v_accvgpr_read_b32 v33, a23
  v_accvgpr_read_b32 v34, a24
  v_accvgpr_read_b32 v35, a25
  v_accvgpr_read_b32 v36, a26
  v_accvgpr_read_b32 v37, a27
  v_accvgpr_read_b32 v38, a28
  v_accvgpr_read_b32 v39, a29
  v_accvgpr_read_b32 v40, a30
  v_accvgpr_read_b32 v41, a31
  STORE
KD mf_mfma_i32_32x32x4_2b_i8_acc

BEGIN mf_mfma_i32_32x32x4_2b_i8_k
  v_mfma_i32_32x32x4_2b_i8 v[10:41], v2, v6, 1
  STORE
KD mf_mfma_i32_32x32x4_2b_i8_k

BEGIN mf_mfma_i32_32x32x4_2b_i8_cb
  v_mfma_i32_32x32x4_2b_i8 v[10:41], v2, v6, v[10:41] cbsz:1 abid:1
  STORE
KD mf_mfma_i32_32x32x4_2b_i8_cb

BEGIN mf_mfma_i32_32x32x4_2b_i8_cb1
  v_mfma_i32_32x32x4_2b_i8 v[10:41], v2, v6, v[10:41] cbsz:1 abid:1
  STORE
KD mf_mfma_i32_32x32x4_2b_i8_cb1

BEGIN mf_mfma_i32_32x32x4_2b_i8_blgp
  v_mfma_i32_32x32x4_2b_i8 v[10:41], v2, v6, v[10:41] blgp:4
  STORE
KD mf_mfma_i32_32x32x4_2b_i8_blgp

BEGIN mf_mfma_i32_16x16x4_4b_i8
  v_mfma_i32_16x16x4_4b_i8 v[10:25], v2, v6, v[10:25]
  STORE
KD mf_mfma_i32_16x16x4_4b_i8

BEGIN mf_mfma_i32_16x16x4_4b_i8_acc
  v_accvgpr_write_b32 a32, v2
  v_accvgpr_write_b32 a36, v6
  v_accvgpr_write_b32 a0, v10
  v_accvgpr_write_b32 a1, v11
  v_accvgpr_write_b32 a2, v12
  v_accvgpr_write_b32 a3, v13
  v_accvgpr_write_b32 a4, v14
  v_accvgpr_write_b32 a5, v15
  v_accvgpr_write_b32 a6, v16
  v_accvgpr_write_b32 a7, v17
  v_accvgpr_write_b32 a8, v18
  v_accvgpr_write_b32 a9, v19
  v_accvgpr_write_b32 a10, v20
  v_accvgpr_write_b32 a11, v21
  v_accvgpr_write_b32 a12, v22
  v_accvgpr_write_b32 a13, v23
  v_accvgpr_write_b32 a14, v24
  v_accvgpr_write_b32 a15, v25
  v_mfma_i32_16x16x4_4b_i8 a[0:15], a32, a36, a[0:15]
  s_nop 7
  s_nop 7
  s_nop 7
  v_accvgpr_read_b32 v10, a0
  v_accvgpr_read_b32 v11, a1
  v_accvgpr_read_b32 v12, a2
  v_accvgpr_read_b32 v13, a3
  v_accvgpr_read_b32 v14, a4
  v_accvgpr_read_b32 v15, a5
  v_accvgpr_read_b32 v16, a6
  v_accvgpr_read_b32 v17, a7
  v_accvgpr_read_b32 v18, a8
  v_accvgpr_read_b32 v19, a9
  v_accvgpr_read_b32 v20, a10
  v_accvgpr_read_b32 v21, a11
  v_accvgpr_read_b32 v22, a12
  v_accvgpr_read_b32 v23, a13
  v_accvgpr_read_b32 v24, a14
  v_accvgpr_read_b32 v25, a15
  STORE
KD mf_mfma_i32_16x16x4_4b_i8_acc

BEGIN mf_mfma_i32_16x16x4_4b_i8_k
  v_mfma_i32_16x16x4_4b_i8 v[10:25], v2, v6, 1
  STORE
KD mf_mfma_i32_16x16x4_4b_i8_k

BEGIN mf_mfma_i32_16x16x4_4b_i8_cb
  v_mfma_i32_16x16x4_4b_i8 v[10:25], v2, v6, v[10:25] cbsz:2 abid:3
  STORE
KD mf_mfma_i32_16x16x4_4b_i8_cb

BEGIN mf_mfma_i32_16x16x4_4b_i8_cb1
  v_mfma_i32_16x16x4_4b_i8 v[10:25], v2, v6, v[10:25] cbsz:1 abid:1
  STORE
KD mf_mfma_i32_16x16x4_4b_i8_cb1

BEGIN mf_mfma_i32_16x16x4_4b_i8_blgp
  v_mfma_i32_16x16x4_4b_i8 v[10:25], v2, v6, v[10:25] blgp:4
  STORE
KD mf_mfma_i32_16x16x4_4b_i8_blgp

BEGIN mf_mfma_i32_4x4x4_16b_i8
  v_mfma_i32_4x4x4_16b_i8 v[10:13], v2, v6, v[10:13]
  STORE
KD mf_mfma_i32_4x4x4_16b_i8

BEGIN mf_mfma_i32_4x4x4_16b_i8_acc
  v_accvgpr_write_b32 a32, v2
  v_accvgpr_write_b32 a36, v6
  v_accvgpr_write_b32 a0, v10
  v_accvgpr_write_b32 a1, v11
  v_accvgpr_write_b32 a2, v12
  v_accvgpr_write_b32 a3, v13
  v_mfma_i32_4x4x4_16b_i8 a[0:3], a32, a36, a[0:3]
  s_nop 7
  s_nop 7
  s_nop 7
  v_accvgpr_read_b32 v10, a0
  v_accvgpr_read_b32 v11, a1
  v_accvgpr_read_b32 v12, a2
  v_accvgpr_read_b32 v13, a3
  STORE
KD mf_mfma_i32_4x4x4_16b_i8_acc

BEGIN mf_mfma_i32_4x4x4_16b_i8_k
  v_mfma_i32_4x4x4_16b_i8 v[10:13], v2, v6, 1
  STORE
KD mf_mfma_i32_4x4x4_16b_i8_k

BEGIN mf_mfma_i32_4x4x4_16b_i8_cb
  v_mfma_i32_4x4x4_16b_i8 v[10:13], v2, v6, v[10:13] cbsz:4 abid:15
  STORE
KD mf_mfma_i32_4x4x4_16b_i8_cb

BEGIN mf_mfma_i32_4x4x4_16b_i8_cb1
  v_mfma_i32_4x4x4_16b_i8 v[10:13], v2, v6, v[10:13] cbsz:1 abid:1
  STORE
KD mf_mfma_i32_4x4x4_16b_i8_cb1

BEGIN mf_mfma_i32_4x4x4_16b_i8_blgp
  v_mfma_i32_4x4x4_16b_i8 v[10:13], v2, v6, v[10:13] blgp:3
  STORE
KD mf_mfma_i32_4x4x4_16b_i8_blgp

BEGIN mf_mfma_i32_32x32x16_i8
  v_mfma_i32_32x32x16_i8 v[10:25], v[2:3], v[6:7], v[10:25]
  STORE
KD mf_mfma_i32_32x32x16_i8

BEGIN mf_mfma_i32_32x32x16_i8_acc
  v_accvgpr_write_b32 a32, v2
  v_accvgpr_write_b32 a33, v3
  v_accvgpr_write_b32 a36, v6
  v_accvgpr_write_b32 a37, v7
  v_accvgpr_write_b32 a0, v10
  v_accvgpr_write_b32 a1, v11
  v_accvgpr_write_b32 a2, v12
  v_accvgpr_write_b32 a3, v13
  v_accvgpr_write_b32 a4, v14
  v_accvgpr_write_b32 a5, v15
  v_accvgpr_write_b32 a6, v16
  v_accvgpr_write_b32 a7, v17
  v_accvgpr_write_b32 a8, v18
  v_accvgpr_write_b32 a9, v19
  v_accvgpr_write_b32 a10, v20
  v_accvgpr_write_b32 a11, v21
  v_accvgpr_write_b32 a12, v22
  v_accvgpr_write_b32 a13, v23
  v_accvgpr_write_b32 a14, v24
  v_accvgpr_write_b32 a15, v25
  v_mfma_i32_32x32x16_i8 a[0:15], a[32:33], a[36:37], a[0:15]
  s_nop 7
  s_nop 7
  s_nop 7
  v_accvgpr_read_b32 v10, a0
  v_accvgpr_read_b32 v11, a1
  v_accvgpr_read_b32 v12, a2
  v_accvgpr_read_b32 v13, a3
  v_accvgpr_read_b32 v14, a4
  v_accvgpr_read_b32 v15, a5
  v_accvgpr_read_b32 v16, a6
  v_accvgpr_read_b32 v17, a7
  v_accvgpr_read_b32 v18, a8
  v_accvgpr_read_b32 v19, a9
  v_accvgpr_read_b32 v20, a10
  v_accvgpr_read_b32 v21, a11
  v_accvgpr_read_b32 v22, a12
  v_accvgpr_read_b32 v23, a13
  v_accvgpr_read_b32 v24, a14
  v_accvgpr_read_b32 v25, a15
  STORE
KD mf_mfma_i32_32x32x16_i8_acc

BEGIN mf_mfma_i32_32x32x16_i8_k
  v_mfma_i32_32x32x16_i8 v[10:25], v[2:3], v[6:7], 1
  STORE
KD mf_mfma_i32_32x32x16_i8_k

BEGIN mf_mfma_i32_16x16x32_i8
  v_mfma_i32_16x16x32_i8 v[10:13], v[2:3], v[6:7], v[10:13]
  STORE
KD mf_mfma_i32_16x16x32_i8

BEGIN mf_mfma_i32_16x16x32_i8_acc
  v_accvgpr_write_b32 a32, v2
  v_accvgpr_write_b32 a33, v3
  v_accvgpr_write_b32 a36, v6
  v_accvgpr_write_b32 a37, v7
  v_accvgpr_write_b32 a0, v10
  v_accvgpr_write_b32 a1, v11
  v_accvgpr_write_b32 a2, v12
  v_accvgpr_write_b32 a3, v13
  v_mfma_i32_16x16x32_i8 a[0:3], a[32:33], a[36:37], a[0:3]
  s_nop 7
  s_nop 7
  s_nop 7
  v_accvgpr_read_b32 v10, a0
  v_accvgpr_read_b32 v11, a1
  v_accvgpr_read_b32 v12, a2
  v_accvgpr_read_b32 v13, a3
  STORE
KD mf_mfma_i32_16x16x32_i8_acc

BEGIN mf_mfma_i32_16x16x32_i8_k
  v_mfma_i32_16x16x32_i8 v[10:13], v[2:3], v[6:7], 1
  STORE
KD mf_mfma_i32_16x16x32_i8_k

BEGIN mf_mfma_f32_32x32x4_2b_bf16
  v_mfma_f32_32x32x4_2b_bf16 v[10:41], v[2:3], v[6:7], v[10:41]
  STORE
KD mf_mfma_f32_32x32x4_2b_bf16

BEGIN mf_mfma_f32_32x32x4_2b_bf16_acc
  v_accvgpr_write_b32 a32, v2
  v_accvgpr_write_b32 a33, v3
  v_accvgpr_write_b32 a36, v6
  v_accvgpr_write_b32 a37, v7
  v_accvgpr_write_b32 a0, v10
  v_accvgpr_write_b32 a1, v11
  v_accvgpr_write_b32 a2, v12
  v_accvgpr_write_b32 a3, v13
  v_accvgpr_write_b32 a4, v14
  v_accvgpr_write_b32 a5, v15
  v_accvgpr_write_b32 a6, v16
  v_accvgpr_write_b32 a7, v17
  v_accvgpr_write_b32 a8, v18
  v_accvgpr_write_b32 a9, v19
  v_accvgpr_write_b32 a10, v20
  v_accvgpr_write_b32 a11, v21
  v_accvgpr_write_b32 a12, v22
  v_accvgpr_write_b32 a13, v23
  v_accvgpr_write_b32 a14, v24
  v_accvgpr_write_b32 a15, v25
  v_accvgpr_write_b32 a16, v26
  v_accvgpr_write_b32 a17, v27
  v_accvgpr_write_b32 a18, v28
  v_accvgpr_write_b32 a19, v29
  v_accvgpr_write_b32 a20, v30
  v_accvgpr_write_b32 a21, v31
  v_accvgpr_write_b32 a22, v32
  v_accvgpr_write_b32 a23, v33
  v_accvgpr_write_b32 a24, v34
  v_accvgpr_write_b32 a25, v35
  v_accvgpr_write_b32 a26, v36
  v_accvgpr_write_b32 a27, v37
  v_accvgpr_write_b32 a28, v38
  v_accvgpr_write_b32 a29, v39
  v_accvgpr_write_b32 a30, v40
  v_accvgpr_write_b32 a31, v41
  v_mfma_f32_32x32x4_2b_bf16 a[0:31], a[32:33], a[36:37], a[0:31]
  s_nop 7
  s_nop 7
  s_nop 7
  v_accvgpr_read_b32 v10, a0
  v_accvgpr_read_b32 v11, a1
  v_accvgpr_read_b32 v12, a2
  v_accvgpr_read_b32 v13, a3
  v_accvgpr_read_b32 v14, a4
  v_accvgpr_read_b32 v15, a5
  v_accvgpr_read_b32 v16, a6
  v_accvgpr_read_b32 v17, a7
  v_accvgpr_read_b32 v18, a8
  v_accvgpr_read_b32 v19, a9
  v_accvgpr_read_b32 v20, a10
  v_accvgpr_read_b32 v21, a11
  v_accvgpr_read_b32 v22, a12
  v_accvgpr_read_b32 v23, a13
  v_accvgpr_read_b32 v24, a14
  v_accvgpr_read_b32 v25, a15
  v_accvgpr_read_b32 v26, a16
  v_accvgpr_read_b32 v27, a17
  v_accvgpr_read_b32 v28, a18
  v_accvgpr_read_b32 v29, a19
  v_accvgpr_read_b32 v30, a20
  v_accvgpr_read_b32 v31, a21
  v_accvgpr_read_b32 v32, a22
  v_accvgpr_read_b32 v33, a23
  v_accvgpr_read_b32 v34, a24
  v_accvgpr_read_b32 v35, a25
  v_accvgpr_read_b32 v36, a26
  v_accvgpr_read_b32 v37, a27
  v_accvgpr_read_b32 v38, a28
  v_accvgpr_read_b32 v39, a29
  v_accvgpr_read_b32 v40, a30
  v_accvgpr_read_b32 v41, a31
  STORE
KD mf_mfma_f32_32x32x4_2b_bf16_acc

BEGIN mf_mfma_f32_32x32x4_2b_bf16_k
  v_mfma_f32_32x32x4_2b_bf16 v[10:41], v[2:3], v[6:7], 1.0
  STORE
KD mf_mfma_f32_32x32x4_2b_bf16_k

BEGIN mf_mfma_f32_32x32x4_2b_bf16_cb
  v_mfma_f32_32x32x4_2b_bf16 v[10:41], v[2:3], v[6:7], v[10:41] cbsz:1 abid:1
  STORE
KD mf_mfma_f32_32x32x4_2b_bf16_cb

BEGIN mf_mfma_f32_32x32x4_2b_bf16_cb1
  v_mfma_f32_32x32x4_2b_bf16 v[10:41], v[2:3], v[6:7], v[10:41] cbsz:1 abid:1
  STORE
KD mf_mfma_f32_32x32x4_2b_bf16_cb1

BEGIN mf_mfma_f32_32x32x4_2b_bf16_blgp
  v_mfma_f32_32x32x4_2b_bf16 v[10:41], v[2:3], v[6:7], v[10:41] blgp:6
  STORE
KD mf_mfma_f32_32x32x4_2b_bf16_blgp

BEGIN mf_mfma_f32_16x16x4_4b_bf16
  v_mfma_f32_16x16x4_4b_bf16 v[10:25], v[2:3], v[6:7], v[10:25]
  STORE
KD mf_mfma_f32_16x16x4_4b_bf16

BEGIN mf_mfma_f32_16x16x4_4b_bf16_acc
  v_accvgpr_write_b32 a32, v2
  v_accvgpr_write_b32 a33, v3
  v_accvgpr_write_b32 a36, v6
  v_accvgpr_write_b32 a37, v7
  v_accvgpr_write_b32 a0, v10
  v_accvgpr_write_b32 a1, v11
  v_accvgpr_write_b32 a2, v12
  v_accvgpr_write_b32 a3, v13
  v_accvgpr_write_b32 a4, v14
  v_accvgpr_write_b32 a5, v15
  v_accvgpr_write_b32 a6, v16
  v_accvgpr_write_b32 a7, v17
  v_accvgpr_write_b32 a8, v18
  v_accvgpr_write_b32 a9, v19
  v_accvgpr_write_b32 a10, v20
  v_accvgpr_write_b32 a11, v21
  v_accvgpr_write_b32 a12, v22
  v_accvgpr_write_b32 a13, v23
  v_accvgpr_write_b32 a14, v24
  v_accvgpr_write_b32 a15, v25
  v_mfma_f32_16x16x4_4b_bf16 a[0:15], a[32:33], a[36:37], a[0:15]
  s_nop 7
  s_nop 7
  s_nop 7
  v_accvgpr_read_b32 v10, a0
  v_accvgpr_read_b32 v11, a1
  v_accvgpr_read_b32 v12, a2
  v_accvgpr_read_b32 v13, a3
  v_accvgpr_read_b32 v14, a4
  v_accvgpr_read_b32 v15, a5
  v_accvgpr_read_b32 v16, a6
  v_accvgpr_read_b32 v17, a7
  v_accvgpr_read_b32 v18, a8
  v_accvgpr_read_b32 v19, a9
  v_accvgpr_read_b32 v20, a10
  v_accvgpr_read_b32 v21, a11
  v_accvgpr_read_b32 v22, a12
  v_accvgpr_read_b32 v23, a13
  v_accvgpr_read_b32 v24, a14
  v_accvgpr_read_b32 v25, a15
  STORE
KD mf_mfma_f32_16x16x4_4b_bf16_acc

BEGIN mf_mfma_f32_16x16x4_4b_bf16_k
  v_mfma_f32_16x16x4_4b_bf16 v[10:25], v[2:3], v[6:7], 1.0
  STORE
KD mf_mfma_f32_16x16x4_4b_bf16_k

BEGIN mf_mfma_f32_16x16x4_4b_bf16_cb
  v_mfma_f32_16x16x4_4b_bf16 v[10:25], v[2:3], v[6:7], v[10:25] cbsz:2 abid:3
  STORE
KD mf_mfma_f32_16x16x4_4b_bf16_cb

BEGIN mf_mfma_f32_16x16x4_4b_bf16_cb1
  v_mfma_f32_16x16x4_4b_bf16 v[10:25], v[2:3], v[6:7], v[10:25] cbsz:1 abid:1
  STORE
KD mf_mfma_f32_16x16x4_4b_bf16_cb1

BEGIN mf_mfma_f32_16x16x4_4b_bf16_blgp
  v_mfma_f32_16x16x4_4b_bf16 v[10:25], v[2:3], v[6:7], v[10:25] blgp:6
  STORE
KD mf_mfma_f32_16x16x4_4b_bf16_blgp

BEGIN mf_mfma_f32_4x4x4_16b_bf16
  v_mfma_f32_4x4x4_16b_bf16 v[10:13], v[2:3], v[6:7], v[10:13]
  STORE
KD mf_mfma_f32_4x4x4_16b_bf16

BEGIN mf_mfma_f32_4x4x4_16b_bf16_acc
  v_accvgpr_write_b32 a32, v2
  v_accvgpr_write_b32 a33, v3
  v_accvgpr_write_b32 a36, v6
  v_accvgpr_write_b32 a37, v7
  v_accvgpr_write_b32 a0, v10
  v_accvgpr_write_b32 a1, v11
  v_accvgpr_write_b32 a2, v12
  v_accvgpr_write_b32 a3, v13
  v_mfma_f32_4x4x4_16b_bf16 a[0:3], a[32:33], a[36:37], a[0:3]
  s_nop 7
  s_nop 7
  s_nop 7
  v_accvgpr_read_b32 v10, a0
  v_accvgpr_read_b32 v11, a1
  v_accvgpr_read_b32 v12, a2
  v_accvgpr_read_b32 v13, a3
  STORE
KD mf_mfma_f32_4x4x4_16b_bf16_acc

BEGIN mf_mfma_f32_4x4x4_16b_bf16_k
  v_mfma_f32_4x4x4_16b_bf16 v[10:13], v[2:3], v[6:7], 1.0
  STORE
KD mf_mfma_f32_4x4x4_16b_bf16_k

BEGIN mf_mfma_f32_4x4x4_16b_bf16_cb
  v_mfma_f32_4x4x4_16b_bf16 v[10:13], v[2:3], v[6:7], v[10:13] cbsz:4 abid:15
  STORE
KD mf_mfma_f32_4x4x4_16b_bf16_cb

BEGIN mf_mfma_f32_4x4x4_16b_bf16_cb1
  v_mfma_f32_4x4x4_16b_bf16 v[10:13], v[2:3], v[6:7], v[10:13] cbsz:1 abid:1
  STORE
KD mf_mfma_f32_4x4x4_16b_bf16_cb1

BEGIN mf_mfma_f32_4x4x4_16b_bf16_blgp
  v_mfma_f32_4x4x4_16b_bf16 v[10:13], v[2:3], v[6:7], v[10:13] blgp:5
  STORE
KD mf_mfma_f32_4x4x4_16b_bf16_blgp

BEGIN mf_mfma_f32_32x32x8_bf16
  v_mfma_f32_32x32x8_bf16 v[10:25], v[2:3], v[6:7], v[10:25]
  STORE
KD mf_mfma_f32_32x32x8_bf16

BEGIN mf_mfma_f32_32x32x8_bf16_acc
  v_accvgpr_write_b32 a32, v2
  v_accvgpr_write_b32 a33, v3
  v_accvgpr_write_b32 a36, v6
  v_accvgpr_write_b32 a37, v7
  v_accvgpr_write_b32 a0, v10
  v_accvgpr_write_b32 a1, v11
  v_accvgpr_write_b32 a2, v12
  v_accvgpr_write_b32 a3, v13
  v_accvgpr_write_b32 a4, v14
  v_accvgpr_write_b32 a5, v15
  v_accvgpr_write_b32 a6, v16
  v_accvgpr_write_b32 a7, v17
  v_accvgpr_write_b32 a8, v18
  v_accvgpr_write_b32 a9, v19
  v_accvgpr_write_b32 a10, v20
  v_accvgpr_write_b32 a11, v21
  v_accvgpr_write_b32 a12, v22
  v_accvgpr_write_b32 a13, v23
  v_accvgpr_write_b32 a14, v24
  v_accvgpr_write_b32 a15, v25
  v_mfma_f32_32x32x8_bf16 a[0:15], a[32:33], a[36:37], a[0:15]
  s_nop 7
  s_nop 7
  s_nop 7
  v_accvgpr_read_b32 v10, a0
  v_accvgpr_read_b32 v11, a1
  v_accvgpr_read_b32 v12, a2
  v_accvgpr_read_b32 v13, a3
  v_accvgpr_read_b32 v14, a4
  v_accvgpr_read_b32 v15, a5
  v_accvgpr_read_b32 v16, a6
  v_accvgpr_read_b32 v17, a7
  v_accvgpr_read_b32 v18, a8
  v_accvgpr_read_b32 v19, a9
  v_accvgpr_read_b32 v20, a10
  v_accvgpr_read_b32 v21, a11
  v_accvgpr_read_b32 v22, a12
  v_accvgpr_read_b32 v23, a13
  v_accvgpr_read_b32 v24, a14
  v_accvgpr_read_b32 v25, a15
  STORE
KD mf_mfma_f32_32x32x8_bf16_acc

BEGIN mf_mfma_f32_32x32x8_bf16_k
  v_mfma_f32_32x32x8_bf16 v[10:25], v[2:3], v[6:7], 1.0
  STORE
KD mf_mfma_f32_32x32x8_bf16_k

BEGIN mf_mfma_f32_16x16x16_bf16
  v_mfma_f32_16x16x16_bf16 v[10:13], v[2:3], v[6:7], v[10:13]
  STORE
KD mf_mfma_f32_16x16x16_bf16

BEGIN mf_mfma_f32_16x16x16_bf16_acc
  v_accvgpr_write_b32 a32, v2
  v_accvgpr_write_b32 a33, v3
  v_accvgpr_write_b32 a36, v6
  v_accvgpr_write_b32 a37, v7
  v_accvgpr_write_b32 a0, v10
  v_accvgpr_write_b32 a1, v11
  v_accvgpr_write_b32 a2, v12
  v_accvgpr_write_b32 a3, v13
  v_mfma_f32_16x16x16_bf16 a[0:3], a[32:33], a[36:37], a[0:3]
  s_nop 7
  s_nop 7
  s_nop 7
  v_accvgpr_read_b32 v10, a0
  v_accvgpr_read_b32 v11, a1
  v_accvgpr_read_b32 v12, a2
  v_accvgpr_read_b32 v13, a3
  STORE
KD mf_mfma_f32_16x16x16_bf16_acc

BEGIN mf_mfma_f32_16x16x16_bf16_k
  v_mfma_f32_16x16x16_bf16 v[10:13], v[2:3], v[6:7], 1.0
  STORE
KD mf_mfma_f32_16x16x16_bf16_k

BEGIN mf_mfma_f64_16x16x4_f64
  v_mfma_f64_16x16x4_f64 v[10:17], v[2:3], v[6:7], v[10:17]
  STORE
KD mf_mfma_f64_16x16x4_f64

BEGIN mf_mfma_f64_16x16x4_f64_acc
  v_accvgpr_write_b32 a32, v2
  v_accvgpr_write_b32 a33, v3
  v_accvgpr_write_b32 a36, v6
  v_accvgpr_write_b32 a37, v7
  v_accvgpr_write_b32 a0, v10
  v_accvgpr_write_b32 a1, v11
  v_accvgpr_write_b32 a2, v12
  v_accvgpr_write_b32 a3, v13
  v_accvgpr_write_b32 a4, v14
  v_accvgpr_write_b32 a5, v15
  v_accvgpr_write_b32 a6, v16
  v_accvgpr_write_b32 a7, v17
  v_mfma_f64_16x16x4_f64 a[0:7], a[32:33], a[36:37], a[0:7]
  s_nop 7
  s_nop 7
  s_nop 7
  v_accvgpr_read_b32 v10, a0
  v_accvgpr_read_b32 v11, a1
  v_accvgpr_read_b32 v12, a2
  v_accvgpr_read_b32 v13, a3
  v_accvgpr_read_b32 v14, a4
  v_accvgpr_read_b32 v15, a5
  v_accvgpr_read_b32 v16, a6
  v_accvgpr_read_b32 v17, a7
  STORE
KD mf_mfma_f64_16x16x4_f64_acc

BEGIN mf_mfma_f64_16x16x4_f64_k
  v_mfma_f64_16x16x4_f64 v[10:17], v[2:3], v[6:7], 1.0
  STORE
KD mf_mfma_f64_16x16x4_f64_k

BEGIN mf_mfma_f64_16x16x4_f64_neg
  v_mfma_f64_16x16x4_f64 v[10:17], v[2:3], v[6:7], v[10:17] neg:[1,0,1]
  STORE
KD mf_mfma_f64_16x16x4_f64_neg

BEGIN mf_mfma_f64_16x16x4_f64_neg2
  v_mfma_f64_16x16x4_f64 v[10:17], v[2:3], v[6:7], v[10:17] neg:[0,1,0]
  STORE
KD mf_mfma_f64_16x16x4_f64_neg2

BEGIN mf_mfma_f64_4x4x4_4b_f64
  v_mfma_f64_4x4x4_4b_f64 v[10:11], v[2:3], v[6:7], v[10:11]
  STORE
KD mf_mfma_f64_4x4x4_4b_f64

BEGIN mf_mfma_f64_4x4x4_4b_f64_acc
  v_accvgpr_write_b32 a32, v2
  v_accvgpr_write_b32 a33, v3
  v_accvgpr_write_b32 a36, v6
  v_accvgpr_write_b32 a37, v7
  v_accvgpr_write_b32 a0, v10
  v_accvgpr_write_b32 a1, v11
  v_mfma_f64_4x4x4_4b_f64 a[0:1], a[32:33], a[36:37], a[0:1]
  s_nop 7
  s_nop 7
  s_nop 7
  v_accvgpr_read_b32 v10, a0
  v_accvgpr_read_b32 v11, a1
  STORE
KD mf_mfma_f64_4x4x4_4b_f64_acc

BEGIN mf_mfma_f64_4x4x4_4b_f64_k
  v_mfma_f64_4x4x4_4b_f64 v[10:11], v[2:3], v[6:7], 1.0
  STORE
KD mf_mfma_f64_4x4x4_4b_f64_k

BEGIN mf_mfma_f64_4x4x4_4b_f64_cb
  v_mfma_f64_4x4x4_4b_f64 v[10:11], v[2:3], v[6:7], v[10:11] cbsz:2 abid:3
  STORE
KD mf_mfma_f64_4x4x4_4b_f64_cb

BEGIN mf_mfma_f64_4x4x4_4b_f64_cb1
  v_mfma_f64_4x4x4_4b_f64 v[10:11], v[2:3], v[6:7], v[10:11] cbsz:1 abid:1
  STORE
KD mf_mfma_f64_4x4x4_4b_f64_cb1

BEGIN mf_mfma_f64_4x4x4_4b_f64_neg
  v_mfma_f64_4x4x4_4b_f64 v[10:11], v[2:3], v[6:7], v[10:11] neg:[1,0,1]
  STORE
KD mf_mfma_f64_4x4x4_4b_f64_neg

BEGIN mf_mfma_f64_4x4x4_4b_f64_neg2
  v_mfma_f64_4x4x4_4b_f64 v[10:11], v[2:3], v[6:7], v[10:11] neg:[0,1,0]
  STORE
KD mf_mfma_f64_4x4x4_4b_f64_neg2

BEGIN mf_mfma_f32_16x16x32_bf8_bf8
  v_mfma_f32_16x16x32_bf8_bf8 v[10:13], v[2:3], v[6:7], v[10:13]
  STORE
KD mf_mfma_f32_16x16x32_bf8_bf8

BEGIN mf_mfma_f32_16x16x32_bf8_bf8_acc
  v_accvgpr_write_b32 a32, v2
  v_accvgpr_write_b32 a33, v3
  v_accvgpr_write_b32 a36, v6
  v_accvgpr_write_b32 a37, v7
  v_accvgpr_write_b32 a0, v10
  v_accvgpr_write_b32 a1, v11
  v_accvgpr_write_b32 a2, v12
  v_accvgpr_write_b32 a3, v13
  v_mfma_f32_16x16x32_bf8_bf8 a[0:3], a[32:33], a[36:37], a[0:3]
  s_nop 7
  s_nop 7
  s_nop 7
  v_accvgpr_read_b32 v10, a0
  v_accvgpr_read_b32 v11, a1
  v_accvgpr_read_b32 v12, a2
  v_accvgpr_read_b32 v13, a3
  STORE
KD mf_mfma_f32_16x16x32_bf8_bf8_acc

BEGIN mf_mfma_f32_16x16x32_bf8_bf8_k
  v_mfma_f32_16x16x32_bf8_bf8 v[10:13], v[2:3], v[6:7], 1.0
  STORE
KD mf_mfma_f32_16x16x32_bf8_bf8_k

BEGIN mf_mfma_f32_16x16x32_bf8_fp8
  v_mfma_f32_16x16x32_bf8_fp8 v[10:13], v[2:3], v[6:7], v[10:13]
  STORE
KD mf_mfma_f32_16x16x32_bf8_fp8

BEGIN mf_mfma_f32_16x16x32_bf8_fp8_acc
  v_accvgpr_write_b32 a32, v2
  v_accvgpr_write_b32 a33, v3
  v_accvgpr_write_b32 a36, v6
  v_accvgpr_write_b32 a37, v7
  v_accvgpr_write_b32 a0, v10
  v_accvgpr_write_b32 a1, v11
  v_accvgpr_write_b32 a2, v12
  v_accvgpr_write_b32 a3, v13
  v_mfma_f32_16x16x32_bf8_fp8 a[0:3], a[32:33], a[36:37], a[0:3]
  s_nop 7
  s_nop 7
  s_nop 7
  v_accvgpr_read_b32 v10, a0
  v_accvgpr_read_b32 v11, a1
  v_accvgpr_read_b32 v12, a2
  v_accvgpr_read_b32 v13, a3
  STORE
KD mf_mfma_f32_16x16x32_bf8_fp8_acc

BEGIN mf_mfma_f32_16x16x32_bf8_fp8_k
  v_mfma_f32_16x16x32_bf8_fp8 v[10:13], v[2:3], v[6:7], 1.0
  STORE
KD mf_mfma_f32_16x16x32_bf8_fp8_k

BEGIN mf_mfma_f32_16x16x32_fp8_bf8
  v_mfma_f32_16x16x32_fp8_bf8 v[10:13], v[2:3], v[6:7], v[10:13]
  STORE
KD mf_mfma_f32_16x16x32_fp8_bf8

BEGIN mf_mfma_f32_16x16x32_fp8_bf8_acc
  v_accvgpr_write_b32 a32, v2
  v_accvgpr_write_b32 a33, v3
  v_accvgpr_write_b32 a36, v6
  v_accvgpr_write_b32 a37, v7
  v_accvgpr_write_b32 a0, v10
  v_accvgpr_write_b32 a1, v11
  v_accvgpr_write_b32 a2, v12
  v_accvgpr_write_b32 a3, v13
  v_mfma_f32_16x16x32_fp8_bf8 a[0:3], a[32:33], a[36:37], a[0:3]
  s_nop 7
  s_nop 7
  s_nop 7
  v_accvgpr_read_b32 v10, a0
  v_accvgpr_read_b32 v11, a1
  v_accvgpr_read_b32 v12, a2
  v_accvgpr_read_b32 v13, a3
  STORE
KD mf_mfma_f32_16x16x32_fp8_bf8_acc

BEGIN mf_mfma_f32_16x16x32_fp8_bf8_k
  v_mfma_f32_16x16x32_fp8_bf8 v[10:13], v[2:3], v[6:7], 1.0
  STORE
KD mf_mfma_f32_16x16x32_fp8_bf8_k

BEGIN mf_mfma_f32_16x16x32_fp8_fp8
  v_mfma_f32_16x16x32_fp8_fp8 v[10:13], v[2:3], v[6:7], v[10:13]
  STORE
KD mf_mfma_f32_16x16x32_fp8_fp8

BEGIN mf_mfma_f32_16x16x32_fp8_fp8_acc
  v_accvgpr_write_b32 a32, v2
  v_accvgpr_write_b32 a33, v3
  v_accvgpr_write_b32 a36, v6
  v_accvgpr_write_b32 a37, v7
  v_accvgpr_write_b32 a0, v10
  v_accvgpr_write_b32 a1, v11
  v_accvgpr_write_b32 a2, v12
  v_accvgpr_write_b32 a3, v13
  v_mfma_f32_16x16x32_fp8_fp8 a[0:3], a[32:33], a[36:37], a[0:3]
  s_nop 7
  s_nop 7
  s_nop 7
  v_accvgpr_read_b32 v10, a0
  v_accvgpr_read_b32 v11, a1
  v_accvgpr_read_b32 v12, a2
  v_accvgpr_read_b32 v13, a3
  STORE
KD mf_mfma_f32_16x16x32_fp8_fp8_acc

BEGIN mf_mfma_f32_16x16x32_fp8_fp8_k
  v_mfma_f32_16x16x32_fp8_fp8 v[10:13], v[2:3], v[6:7], 1.0
  STORE
KD mf_mfma_f32_16x16x32_fp8_fp8_k

BEGIN mf_mfma_f32_32x32x16_bf8_bf8
  v_mfma_f32_32x32x16_bf8_bf8 v[10:25], v[2:3], v[6:7], v[10:25]
  STORE
KD mf_mfma_f32_32x32x16_bf8_bf8

BEGIN mf_mfma_f32_32x32x16_bf8_bf8_acc
  v_accvgpr_write_b32 a32, v2
  v_accvgpr_write_b32 a33, v3
  v_accvgpr_write_b32 a36, v6
  v_accvgpr_write_b32 a37, v7
  v_accvgpr_write_b32 a0, v10
  v_accvgpr_write_b32 a1, v11
  v_accvgpr_write_b32 a2, v12
  v_accvgpr_write_b32 a3, v13
  v_accvgpr_write_b32 a4, v14
  v_accvgpr_write_b32 a5, v15
  v_accvgpr_write_b32 a6, v16
  v_accvgpr_write_b32 a7, v17
  v_accvgpr_write_b32 a8, v18
  v_accvgpr_write_b32 a9, v19
  v_accvgpr_write_b32 a10, v20
  v_accvgpr_write_b32 a11, v21
  v_accvgpr_write_b32 a12, v22
  v_accvgpr_write_b32 a13, v23
  v_accvgpr_write_b32 a14, v24
  v_accvgpr_write_b32 a15, v25
  v_mfma_f32_32x32x16_bf8_bf8 a[0:15], a[32:33], a[36:37], a[0:15]
  s_nop 7
  s_nop 7
  s_nop 7
  v_accvgpr_read_b32 v10, a0
  v_accvgpr_read_b32 v11, a1
  v_accvgpr_read_b32 v12, a2
  v_accvgpr_read_b32 v13, a3
  v_accvgpr_read_b32 v14, a4
  v_accvgpr_read_b32 v15, a5
  v_accvgpr_read_b32 v16, a6
  v_accvgpr_read_b32 v17, a7
  v_accvgpr_read_b32 v18, a8
  v_accvgpr_read_b32 v19, a9
  v_accvgpr_read_b32 v20, a10
  v_accvgpr_read_b32 v21, a11
  v_accvgpr_read_b32 v22, a12
  v_accvgpr_read_b32 v23, a13
  v_accvgpr_read_b32 v24, a14
  v_accvgpr_read_b32 v25, a15
  STORE
KD mf_mfma_f32_32x32x16_bf8_bf8_acc

BEGIN mf_mfma_f32_32x32x16_bf8_bf8_k
  v_mfma_f32_32x32x16_bf8_bf8 v[10:25], v[2:3], v[6:7], 1.0
  STORE
KD mf_mfma_f32_32x32x16_bf8_bf8_k

BEGIN mf_mfma_f32_32x32x16_bf8_fp8
  v_mfma_f32_32x32x16_bf8_fp8 v[10:25], v[2:3], v[6:7], v[10:25]
  STORE
KD mf_mfma_f32_32x32x16_bf8_fp8

BEGIN mf_mfma_f32_32x32x16_bf8_fp8_acc
  v_accvgpr_write_b32 a32, v2
  v_accvgpr_write_b32 a33, v3
  v_accvgpr_write_b32 a36, v6
  v_accvgpr_write_b32 a37, v7
  v_accvgpr_write_b32 a0, v10
  v_accvgpr_write_b32 a1, v11
  v_accvgpr_write_b32 a2, v12
  v_accvgpr_write_b32 a3, v13
  v_accvgpr_write_b32 a4, v14
  v_accvgpr_write_b32 a5, v15
  v_accvgpr_write_b32 a6, v16
  v_accvgpr_write_b32 a7, v17
  v_accvgpr_write_b32 a8, v18
  v_accvgpr_write_b32 a9, v19
  v_accvgpr_write_b32 a10, v20
  v_accvgpr_write_b32 a11, v21
  v_accvgpr_write_b32 a12, v22
  v_accvgpr_write_b32 a13, v23
  v_accvgpr_write_b32 a14, v24
  v_accvgpr_write_b32 a15, v25
  v_mfma_f32_32x32x16_bf8_fp8 a[0:15], a[32:33], a[36:37], a[0:15]
  s_nop 7
  s_nop 7
  s_nop 7
  v_accvgpr_read_b32 v10, a0
  v_accvgpr_read_b32 v11, a1
  v_accvgpr_read_b32 v12, a2
  v_accvgpr_read_b32 v13, a3
  v_accvgpr_read_b32 v14, a4
  v_accvgpr_read_b32 v15, a5
  v_accvgpr_read_b32 v16, a6
  v_accvgpr_read_b32 v17, a7
  v_accvgpr_read_b32 v18, a8
  v_accvgpr_read_b32 v19, a9
  v_accvgpr_read_b32 v20, a10
  v_accvgpr_read_b32 v21, a11
  v_accvgpr_read_b32 v22, a12
  v_accvgpr_read_b32 v23, a13
  v_accvgpr_read_b32 v24, a14
  v_accvgpr_read_b32 v25, a15
  STORE
KD mf_mfma_f32_32x32x16_bf8_fp8_acc

BEGIN mf_mfma_f32_32x32x16_bf8_fp8_k
  v_mfma_f32_32x32x16_bf8_fp8 v[10:25], v[2:3], v[6:7], 1.0
  STORE
KD mf_mfma_f32_32x32x16_bf8_fp8_k

BEGIN mf_mfma_f32_32x32x16_fp8_bf8
  v_mfma_f32_32x32x16_fp8_bf8 v[10:25], v[2:3], v[6:7], v[10:25]
  STORE
KD mf_mfma_f32_32x32x16_fp8_bf8

BEGIN mf_mfma_f32_32x32x16_fp8_bf8_acc
  v_accvgpr_write_b32 a32, v2
  v_accvgpr_write_b32 a33, v3
  v_accvgpr_write_b32 a36, v6
  v_accvgpr_write_b32 a37, v7
  v_accvgpr_write_b32 a0, v10
  v_accvgpr_write_b32 a1, v11
  v_accvgpr_write_b32 a2, v12
  v_accvgpr_write_b32 a3, v13
  v_accvgpr_write_b32 a4, v14
  v_accvgpr_write_b32 a5, v15
  v_accvgpr_write_b32 a6, v16
  v_accvgpr_write_b32 a7, v17
  v_accvgpr_write_b32 a8, v18
  v_accvgpr_write_b32 a9, v19
  v_accvgpr_write_b32 a10, v20
  v_accvgpr_write_b32 a11, v21
  v_accvgpr_write_b32 a12, v22
  v_accvgpr_write_b32 a13, v23
  v_accvgpr_write_b32 a14, v24
  v_accvgpr_write_b32 a15, v25
  v_mfma_f32_32x32x16_fp8_bf8 a[0:15], a[32:33], a[36:37], a[0:15]
  s_nop 7
  s_nop 7
  s_nop 7
  v_accvgpr_read_b32 v10, a0
  v_accvgpr_read_b32 v11, a1
  v_accvgpr_read_b32 v12, a2
  v_accvgpr_read_b32 v13, a3
  v_accvgpr_read_b32 v14, a4
  v_accvgpr_read_b32 v15, a5
  v_accvgpr_read_b32 v16, a6
  v_accvgpr_read_b32 v17, a7
  v_accvgpr_read_b32 v18, a8
  v_accvgpr_read_b32 v19, a9
  v_accvgpr_read_b32 v20, a10
  v_accvgpr_read_b32 v21, a11
  v_accvgpr_read_b32 v22, a12
  v_accvgpr_read_b32 v23, a13
  v_accvgpr_read_b32 v24, a14
  v_accvgpr_read_b32 v25, a15
  STORE
KD mf_mfma_f32_32x32x16_fp8_bf8_acc

BEGIN mf_mfma_f32_32x32x16_fp8_bf8_k
  v_mfma_f32_32x32x16_fp8_bf8 v[10:25], v[2:3], v[6:7], 1.0
  STORE
KD mf_mfma_f32_32x32x16_fp8_bf8_k

BEGIN mf_mfma_f32_32x32x16_fp8_fp8
  v_mfma_f32_32x32x16_fp8_fp8 v[10:25], v[2:3], v[6:7], v[10:25]
  STORE
KD mf_mfma_f32_32x32x16_fp8_fp8

BEGIN mf_mfma_f32_32x32x16_fp8_fp8_acc
  v_accvgpr_write_b32 a32, v2
  v_accvgpr_write_b32 a33, v3
  v_accvgpr_write_b32 a36, v6
  v_accvgpr_write_b32 a37, v7
  v_accvgpr_write_b32 a0, v10
  v_accvgpr_write_b32 a1, v11
  v_accvgpr_write_b32 a2, v12
  v_accvgpr_write_b32 a3, v13
  v_accvgpr_write_b32 a4, v14
  v_accvgpr_write_b32 a5, v15
  v_accvgpr_write_b32 a6, v16
  v_accvgpr_write_b32 a7, v17
  v_accvgpr_write_b32 a8, v18
  v_accvgpr_write_b32 a9, v19
  v_accvgpr_write_b32 a10, v20
  v_accvgpr_write_b32 a11, v21
  v_accvgpr_write_b32 a12, v22
  v_accvgpr_write_b32 a13, v23
  v_accvgpr_write_b32 a14, v24
  v_accvgpr_write_b32 a15, v25
  v_mfma_f32_32x32x16_fp8_fp8 a[0:15], a[32:33], a[36:37], a[0:15]
  s_nop 7
  s_nop 7
  s_nop 7
  v_accvgpr_read_b32 v10, a0
  v_accvgpr_read_b32 v11, a1
  v_accvgpr_read_b32 v12, a2
  v_accvgpr_read_b32 v13, a3
  v_accvgpr_read_b32 v14, a4
  v_accvgpr_read_b32 v15, a5
  v_accvgpr_read_b32 v16, a6
  v_accvgpr_read_b32 v17, a7
  v_accvgpr_read_b32 v18, a8
  v_accvgpr_read_b32 v19, a9
  v_accvgpr_read_b32 v20, a10
  v_accvgpr_read_b32 v21, a11
  v_accvgpr_read_b32 v22, a12
  v_accvgpr_read_b32 v23, a13
  v_accvgpr_read_b32 v24, a14
  v_accvgpr_read_b32 v25, a15
  STORE
KD mf_mfma_f32_32x32x16_fp8_fp8_acc

BEGIN mf_mfma_f32_32x32x16_fp8_fp8_k
  v_mfma_f32_32x32x16_fp8_fp8 v[10:25], v[2:3], v[6:7], 1.0
  STORE
KD mf_mfma_f32_32x32x16_fp8_fp8_k

BEGIN mf_smfmac_f32_16x16x32_f16
  v_smfmac_f32_16x16x32_f16 v[10:13], v[2:3], v[6:9], v42
  STORE
KD mf_smfmac_f32_16x16x32_f16

BEGIN mf_smfmac_f32_16x16x32_f16_set3
  v_smfmac_f32_16x16x32_f16 v[10:13], v[2:3], v[6:9], v42 abid:3
  STORE
KD mf_smfmac_f32_16x16x32_f16_set3

BEGIN mf_smfmac_f32_16x16x32_f16_cb
  v_smfmac_f32_16x16x32_f16 v[10:13], v[2:3], v[6:9], v42 cbsz:1 abid:1
  STORE
KD mf_smfmac_f32_16x16x32_f16_cb

BEGIN mf_smfmac_f32_32x32x16_f16
  v_smfmac_f32_32x32x16_f16 v[10:25], v[2:3], v[6:9], v42
  STORE
KD mf_smfmac_f32_32x32x16_f16

BEGIN mf_smfmac_f32_32x32x16_f16_set3
  v_smfmac_f32_32x32x16_f16 v[10:25], v[2:3], v[6:9], v42 abid:3
  STORE
KD mf_smfmac_f32_32x32x16_f16_set3

BEGIN mf_smfmac_f32_32x32x16_f16_cb
  v_smfmac_f32_32x32x16_f16 v[10:25], v[2:3], v[6:9], v42 cbsz:1 abid:1
  STORE
KD mf_smfmac_f32_32x32x16_f16_cb

BEGIN mf_smfmac_f32_16x16x32_bf16
  v_smfmac_f32_16x16x32_bf16 v[10:13], v[2:3], v[6:9], v42
  STORE
KD mf_smfmac_f32_16x16x32_bf16

BEGIN mf_smfmac_f32_16x16x32_bf16_set3
  v_smfmac_f32_16x16x32_bf16 v[10:13], v[2:3], v[6:9], v42 abid:3
  STORE
KD mf_smfmac_f32_16x16x32_bf16_set3

BEGIN mf_smfmac_f32_16x16x32_bf16_cb
  v_smfmac_f32_16x16x32_bf16 v[10:13], v[2:3], v[6:9], v42 cbsz:1 abid:1
  STORE
KD mf_smfmac_f32_16x16x32_bf16_cb

BEGIN mf_smfmac_f32_32x32x16_bf16
  v_smfmac_f32_32x32x16_bf16 v[10:25], v[2:3], v[6:9], v42
  STORE
KD mf_smfmac_f32_32x32x16_bf16

BEGIN mf_smfmac_f32_32x32x16_bf16_set3
  v_smfmac_f32_32x32x16_bf16 v[10:25], v[2:3], v[6:9], v42 abid:3
  STORE
KD mf_smfmac_f32_32x32x16_bf16_set3

BEGIN mf_smfmac_f32_32x32x16_bf16_cb
  v_smfmac_f32_32x32x16_bf16 v[10:25], v[2:3], v[6:9], v42 cbsz:1 abid:1
  STORE
KD mf_smfmac_f32_32x32x16_bf16_cb

BEGIN mf_smfmac_i32_16x16x64_i8
  v_smfmac_i32_16x16x64_i8 v[10:13], v[2:3], v[6:9], v42
  STORE
KD mf_smfmac_i32_16x16x64_i8

BEGIN mf_smfmac_i32_16x16x64_i8_set1
  v_smfmac_i32_16x16x64_i8 v[10:13], v[2:3], v[6:9], v42 abid:1
  STORE
KD mf_smfmac_i32_16x16x64_i8_set1

BEGIN mf_smfmac_i32_16x16x64_i8_cb
  v_smfmac_i32_16x16x64_i8 v[10:13], v[2:3], v[6:9], v42 cbsz:1 abid:1
  STORE
KD mf_smfmac_i32_16x16x64_i8_cb

BEGIN mf_smfmac_i32_32x32x32_i8
  v_smfmac_i32_32x32x32_i8 v[10:25], v[2:3], v[6:9], v42
  STORE
KD mf_smfmac_i32_32x32x32_i8

BEGIN mf_smfmac_i32_32x32x32_i8_set1
  v_smfmac_i32_32x32x32_i8 v[10:25], v[2:3], v[6:9], v42 abid:1
  STORE
KD mf_smfmac_i32_32x32x32_i8_set1

BEGIN mf_smfmac_i32_32x32x32_i8_cb
  v_smfmac_i32_32x32x32_i8 v[10:25], v[2:3], v[6:9], v42 cbsz:1 abid:1
  STORE
KD mf_smfmac_i32_32x32x32_i8_cb

BEGIN mf_smfmac_f32_16x16x64_bf8_bf8
  v_smfmac_f32_16x16x64_bf8_bf8 v[10:13], v[2:3], v[6:9], v42
  STORE
KD mf_smfmac_f32_16x16x64_bf8_bf8

BEGIN mf_smfmac_f32_16x16x64_bf8_bf8_set1
  v_smfmac_f32_16x16x64_bf8_bf8 v[10:13], v[2:3], v[6:9], v42 abid:1
  STORE
KD mf_smfmac_f32_16x16x64_bf8_bf8_set1

BEGIN mf_smfmac_f32_16x16x64_bf8_bf8_cb
  v_smfmac_f32_16x16x64_bf8_bf8 v[10:13], v[2:3], v[6:9], v42 cbsz:1 abid:1
  STORE
KD mf_smfmac_f32_16x16x64_bf8_bf8_cb

BEGIN mf_smfmac_f32_16x16x64_bf8_fp8
  v_smfmac_f32_16x16x64_bf8_fp8 v[10:13], v[2:3], v[6:9], v42
  STORE
KD mf_smfmac_f32_16x16x64_bf8_fp8

BEGIN mf_smfmac_f32_16x16x64_bf8_fp8_set1
  v_smfmac_f32_16x16x64_bf8_fp8 v[10:13], v[2:3], v[6:9], v42 abid:1
  STORE
KD mf_smfmac_f32_16x16x64_bf8_fp8_set1

BEGIN mf_smfmac_f32_16x16x64_bf8_fp8_cb
  v_smfmac_f32_16x16x64_bf8_fp8 v[10:13], v[2:3], v[6:9], v42 cbsz:1 abid:1
  STORE
KD mf_smfmac_f32_16x16x64_bf8_fp8_cb

BEGIN mf_smfmac_f32_16x16x64_fp8_bf8
  v_smfmac_f32_16x16x64_fp8_bf8 v[10:13], v[2:3], v[6:9], v42
  STORE
KD mf_smfmac_f32_16x16x64_fp8_bf8

BEGIN mf_smfmac_f32_16x16x64_fp8_bf8_set1
  v_smfmac_f32_16x16x64_fp8_bf8 v[10:13], v[2:3], v[6:9], v42 abid:1
  STORE
KD mf_smfmac_f32_16x16x64_fp8_bf8_set1

BEGIN mf_smfmac_f32_16x16x64_fp8_bf8_cb
  v_smfmac_f32_16x16x64_fp8_bf8 v[10:13], v[2:3], v[6:9], v42 cbsz:1 abid:1
  STORE
KD mf_smfmac_f32_16x16x64_fp8_bf8_cb

BEGIN mf_smfmac_f32_16x16x64_fp8_fp8
  v_smfmac_f32_16x16x64_fp8_fp8 v[10:13], v[2:3], v[6:9], v42
  STORE
KD mf_smfmac_f32_16x16x64_fp8_fp8

BEGIN mf_smfmac_f32_16x16x64_fp8_fp8_set1
  v_smfmac_f32_16x16x64_fp8_fp8 v[10:13], v[2:3], v[6:9], v42 abid:1
  STORE
KD mf_smfmac_f32_16x16x64_fp8_fp8_set1

BEGIN mf_smfmac_f32_16x16x64_fp8_fp8_cb
  v_smfmac_f32_16x16x64_fp8_fp8 v[10:13], v[2:3], v[6:9], v42 cbsz:1 abid:1
  STORE
KD mf_smfmac_f32_16x16x64_fp8_fp8_cb

BEGIN mf_smfmac_f32_32x32x32_bf8_bf8
  v_smfmac_f32_32x32x32_bf8_bf8 v[10:25], v[2:3], v[6:9], v42
  STORE
KD mf_smfmac_f32_32x32x32_bf8_bf8

BEGIN mf_smfmac_f32_32x32x32_bf8_bf8_set1
  v_smfmac_f32_32x32x32_bf8_bf8 v[10:25], v[2:3], v[6:9], v42 abid:1
  STORE
KD mf_smfmac_f32_32x32x32_bf8_bf8_set1

BEGIN mf_smfmac_f32_32x32x32_bf8_bf8_cb
  v_smfmac_f32_32x32x32_bf8_bf8 v[10:25], v[2:3], v[6:9], v42 cbsz:1 abid:1
  STORE
KD mf_smfmac_f32_32x32x32_bf8_bf8_cb

BEGIN mf_smfmac_f32_32x32x32_bf8_fp8
  v_smfmac_f32_32x32x32_bf8_fp8 v[10:25], v[2:3], v[6:9], v42
  STORE
KD mf_smfmac_f32_32x32x32_bf8_fp8

BEGIN mf_smfmac_f32_32x32x32_bf8_fp8_set1
  v_smfmac_f32_32x32x32_bf8_fp8 v[10:25], v[2:3], v[6:9], v42 abid:1
  STORE
KD mf_smfmac_f32_32x32x32_bf8_fp8_set1

BEGIN mf_smfmac_f32_32x32x32_bf8_fp8_cb
  v_smfmac_f32_32x32x32_bf8_fp8 v[10:25], v[2:3], v[6:9], v42 cbsz:1 abid:1
  STORE
KD mf_smfmac_f32_32x32x32_bf8_fp8_cb

BEGIN mf_smfmac_f32_32x32x32_fp8_bf8
  v_smfmac_f32_32x32x32_fp8_bf8 v[10:25], v[2:3], v[6:9], v42
  STORE
KD mf_smfmac_f32_32x32x32_fp8_bf8

BEGIN mf_smfmac_f32_32x32x32_fp8_bf8_set1
  v_smfmac_f32_32x32x32_fp8_bf8 v[10:25], v[2:3], v[6:9], v42 abid:1
  STORE
KD mf_smfmac_f32_32x32x32_fp8_bf8_set1

BEGIN mf_smfmac_f32_32x32x32_fp8_bf8_cb
  v_smfmac_f32_32x32x32_fp8_bf8 v[10:25], v[2:3], v[6:9], v42 cbsz:1 abid:1
  STORE
KD mf_smfmac_f32_32x32x32_fp8_bf8_cb

BEGIN mf_smfmac_f32_32x32x32_fp8_fp8
  v_smfmac_f32_32x32x32_fp8_fp8 v[10:25], v[2:3], v[6:9], v42
  STORE
KD mf_smfmac_f32_32x32x32_fp8_fp8

BEGIN mf_smfmac_f32_32x32x32_fp8_fp8_set1
  v_smfmac_f32_32x32x32_fp8_fp8 v[10:25], v[2:3], v[6:9], v42 abid:1
  STORE
KD mf_smfmac_f32_32x32x32_fp8_fp8_set1

BEGIN mf_smfmac_f32_32x32x32_fp8_fp8_cb
  v_smfmac_f32_32x32x32_fp8_fp8 v[10:25], v[2:3], v[6:9], v42 cbsz:1 abid:1
  STORE
KD mf_smfmac_f32_32x32x32_fp8_fp8_cb

