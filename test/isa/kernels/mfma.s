// mfma.s — one kernel per MFMA form and modifier set for test_isa_mfma.c
// (gfx90a); GENERATED with the form table of test_isa_mfma.c.  One wave of
// 64: lane l loads its 48-dword record in[48l ..]: A (dwords 0-3) into
// v[2:5], B (4-7) into v[6:9], C (8-39) into v[10:41] and the sparse
// index (40) into v42; runs the instruction (the _acc kernels copy A, B
// and C into AGPRs first and D back out) and stores v[10:41] at out[32l ..].
.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
.include "kernel.inc"

.include "mfma.inc"

BEGIN mf_mfma_f32_32x32x1f32
  v_mfma_f32_32x32x1f32 v[10:41], v2, v6, v[10:41]
  STORE
KD mf_mfma_f32_32x32x1f32

BEGIN mf_mfma_f32_32x32x1f32_acc
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
  v_mfma_f32_32x32x1f32 a[0:31], a32, a36, a[0:31]
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
KD mf_mfma_f32_32x32x1f32_acc

BEGIN mf_mfma_f32_32x32x1f32_k
  v_mfma_f32_32x32x1f32 v[10:41], v2, v6, 1.0
  STORE
KD mf_mfma_f32_32x32x1f32_k

BEGIN mf_mfma_f32_32x32x1f32_cb
  v_mfma_f32_32x32x1f32 v[10:41], v2, v6, v[10:41] cbsz:1 abid:1
  STORE
KD mf_mfma_f32_32x32x1f32_cb

BEGIN mf_mfma_f32_32x32x1f32_cb1
  v_mfma_f32_32x32x1f32 v[10:41], v2, v6, v[10:41] cbsz:1 abid:1
  STORE
KD mf_mfma_f32_32x32x1f32_cb1

BEGIN mf_mfma_f32_32x32x1f32_blgp
  v_mfma_f32_32x32x1f32 v[10:41], v2, v6, v[10:41] blgp:1
  STORE
KD mf_mfma_f32_32x32x1f32_blgp

BEGIN mf_mfma_f32_16x16x1f32
  v_mfma_f32_16x16x1f32 v[10:25], v2, v6, v[10:25]
  STORE
KD mf_mfma_f32_16x16x1f32

BEGIN mf_mfma_f32_16x16x1f32_acc
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
  v_mfma_f32_16x16x1f32 a[0:15], a32, a36, a[0:15]
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
KD mf_mfma_f32_16x16x1f32_acc

BEGIN mf_mfma_f32_16x16x1f32_k
  v_mfma_f32_16x16x1f32 v[10:25], v2, v6, 1.0
  STORE
KD mf_mfma_f32_16x16x1f32_k

BEGIN mf_mfma_f32_16x16x1f32_cb
  v_mfma_f32_16x16x1f32 v[10:25], v2, v6, v[10:25] cbsz:2 abid:3
  STORE
KD mf_mfma_f32_16x16x1f32_cb

BEGIN mf_mfma_f32_16x16x1f32_cb1
  v_mfma_f32_16x16x1f32 v[10:25], v2, v6, v[10:25] cbsz:1 abid:1
  STORE
KD mf_mfma_f32_16x16x1f32_cb1

BEGIN mf_mfma_f32_16x16x1f32_blgp
  v_mfma_f32_16x16x1f32 v[10:25], v2, v6, v[10:25] blgp:1
  STORE
KD mf_mfma_f32_16x16x1f32_blgp

BEGIN mf_mfma_f32_4x4x1f32
  v_mfma_f32_4x4x1f32 v[10:13], v2, v6, v[10:13]
  STORE
KD mf_mfma_f32_4x4x1f32

BEGIN mf_mfma_f32_4x4x1f32_acc
  v_accvgpr_write_b32 a32, v2
  v_accvgpr_write_b32 a36, v6
  v_accvgpr_write_b32 a0, v10
  v_accvgpr_write_b32 a1, v11
  v_accvgpr_write_b32 a2, v12
  v_accvgpr_write_b32 a3, v13
  v_mfma_f32_4x4x1f32 a[0:3], a32, a36, a[0:3]
  s_nop 7
  s_nop 7
  s_nop 7
  v_accvgpr_read_b32 v10, a0
  v_accvgpr_read_b32 v11, a1
  v_accvgpr_read_b32 v12, a2
  v_accvgpr_read_b32 v13, a3
  STORE
KD mf_mfma_f32_4x4x1f32_acc

BEGIN mf_mfma_f32_4x4x1f32_k
  v_mfma_f32_4x4x1f32 v[10:13], v2, v6, 1.0
  STORE
KD mf_mfma_f32_4x4x1f32_k

BEGIN mf_mfma_f32_4x4x1f32_cb
  v_mfma_f32_4x4x1f32 v[10:13], v2, v6, v[10:13] cbsz:4 abid:15
  STORE
KD mf_mfma_f32_4x4x1f32_cb

BEGIN mf_mfma_f32_4x4x1f32_cb1
  v_mfma_f32_4x4x1f32 v[10:13], v2, v6, v[10:13] cbsz:1 abid:1
  STORE
KD mf_mfma_f32_4x4x1f32_cb1

BEGIN mf_mfma_f32_4x4x1f32_blgp
  v_mfma_f32_4x4x1f32 v[10:13], v2, v6, v[10:13] blgp:6
  STORE
KD mf_mfma_f32_4x4x1f32_blgp

BEGIN mf_mfma_f32_32x32x2f32
  v_mfma_f32_32x32x2f32 v[10:25], v2, v6, v[10:25]
  STORE
KD mf_mfma_f32_32x32x2f32

BEGIN mf_mfma_f32_32x32x2f32_acc
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
  v_mfma_f32_32x32x2f32 a[0:15], a32, a36, a[0:15]
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
KD mf_mfma_f32_32x32x2f32_acc

BEGIN mf_mfma_f32_32x32x2f32_k
  v_mfma_f32_32x32x2f32 v[10:25], v2, v6, 1.0
  STORE
KD mf_mfma_f32_32x32x2f32_k

BEGIN mf_mfma_f32_16x16x4f32
  v_mfma_f32_16x16x4f32 v[10:13], v2, v6, v[10:13]
  STORE
KD mf_mfma_f32_16x16x4f32

BEGIN mf_mfma_f32_16x16x4f32_acc
  v_accvgpr_write_b32 a32, v2
  v_accvgpr_write_b32 a36, v6
  v_accvgpr_write_b32 a0, v10
  v_accvgpr_write_b32 a1, v11
  v_accvgpr_write_b32 a2, v12
  v_accvgpr_write_b32 a3, v13
  v_mfma_f32_16x16x4f32 a[0:3], a32, a36, a[0:3]
  s_nop 7
  s_nop 7
  s_nop 7
  v_accvgpr_read_b32 v10, a0
  v_accvgpr_read_b32 v11, a1
  v_accvgpr_read_b32 v12, a2
  v_accvgpr_read_b32 v13, a3
  STORE
KD mf_mfma_f32_16x16x4f32_acc

BEGIN mf_mfma_f32_16x16x4f32_k
  v_mfma_f32_16x16x4f32 v[10:13], v2, v6, 1.0
  STORE
KD mf_mfma_f32_16x16x4f32_k

BEGIN mf_mfma_f32_32x32x4f16
  v_mfma_f32_32x32x4f16 v[10:41], v[2:3], v[6:7], v[10:41]
  STORE
KD mf_mfma_f32_32x32x4f16

BEGIN mf_mfma_f32_32x32x4f16_acc
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
  v_mfma_f32_32x32x4f16 a[0:31], a[32:33], a[36:37], a[0:31]
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
KD mf_mfma_f32_32x32x4f16_acc

BEGIN mf_mfma_f32_32x32x4f16_k
  v_mfma_f32_32x32x4f16 v[10:41], v[2:3], v[6:7], 1.0
  STORE
KD mf_mfma_f32_32x32x4f16_k

BEGIN mf_mfma_f32_32x32x4f16_cb
  v_mfma_f32_32x32x4f16 v[10:41], v[2:3], v[6:7], v[10:41] cbsz:1 abid:1
  STORE
KD mf_mfma_f32_32x32x4f16_cb

BEGIN mf_mfma_f32_32x32x4f16_cb1
  v_mfma_f32_32x32x4f16 v[10:41], v[2:3], v[6:7], v[10:41] cbsz:1 abid:1
  STORE
KD mf_mfma_f32_32x32x4f16_cb1

BEGIN mf_mfma_f32_32x32x4f16_blgp
  v_mfma_f32_32x32x4f16 v[10:41], v[2:3], v[6:7], v[10:41] blgp:1
  STORE
KD mf_mfma_f32_32x32x4f16_blgp

BEGIN mf_mfma_f32_16x16x4f16
  v_mfma_f32_16x16x4f16 v[10:25], v[2:3], v[6:7], v[10:25]
  STORE
KD mf_mfma_f32_16x16x4f16

BEGIN mf_mfma_f32_16x16x4f16_acc
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
  v_mfma_f32_16x16x4f16 a[0:15], a[32:33], a[36:37], a[0:15]
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
KD mf_mfma_f32_16x16x4f16_acc

BEGIN mf_mfma_f32_16x16x4f16_k
  v_mfma_f32_16x16x4f16 v[10:25], v[2:3], v[6:7], 1.0
  STORE
KD mf_mfma_f32_16x16x4f16_k

BEGIN mf_mfma_f32_16x16x4f16_cb
  v_mfma_f32_16x16x4f16 v[10:25], v[2:3], v[6:7], v[10:25] cbsz:2 abid:1
  STORE
KD mf_mfma_f32_16x16x4f16_cb

BEGIN mf_mfma_f32_16x16x4f16_cb1
  v_mfma_f32_16x16x4f16 v[10:25], v[2:3], v[6:7], v[10:25] cbsz:1 abid:1
  STORE
KD mf_mfma_f32_16x16x4f16_cb1

BEGIN mf_mfma_f32_16x16x4f16_blgp
  v_mfma_f32_16x16x4f16 v[10:25], v[2:3], v[6:7], v[10:25] blgp:1
  STORE
KD mf_mfma_f32_16x16x4f16_blgp

BEGIN mf_mfma_f32_4x4x4f16
  v_mfma_f32_4x4x4f16 v[10:13], v[2:3], v[6:7], v[10:13]
  STORE
KD mf_mfma_f32_4x4x4f16

BEGIN mf_mfma_f32_4x4x4f16_acc
  v_accvgpr_write_b32 a32, v2
  v_accvgpr_write_b32 a33, v3
  v_accvgpr_write_b32 a36, v6
  v_accvgpr_write_b32 a37, v7
  v_accvgpr_write_b32 a0, v10
  v_accvgpr_write_b32 a1, v11
  v_accvgpr_write_b32 a2, v12
  v_accvgpr_write_b32 a3, v13
  v_mfma_f32_4x4x4f16 a[0:3], a[32:33], a[36:37], a[0:3]
  s_nop 7
  s_nop 7
  s_nop 7
  v_accvgpr_read_b32 v10, a0
  v_accvgpr_read_b32 v11, a1
  v_accvgpr_read_b32 v12, a2
  v_accvgpr_read_b32 v13, a3
  STORE
KD mf_mfma_f32_4x4x4f16_acc

BEGIN mf_mfma_f32_4x4x4f16_k
  v_mfma_f32_4x4x4f16 v[10:13], v[2:3], v[6:7], 1.0
  STORE
KD mf_mfma_f32_4x4x4f16_k

BEGIN mf_mfma_f32_4x4x4f16_cb
  v_mfma_f32_4x4x4f16 v[10:13], v[2:3], v[6:7], v[10:13] cbsz:4 abid:1
  STORE
KD mf_mfma_f32_4x4x4f16_cb

BEGIN mf_mfma_f32_4x4x4f16_cb1
  v_mfma_f32_4x4x4f16 v[10:13], v[2:3], v[6:7], v[10:13] cbsz:1 abid:1
  STORE
KD mf_mfma_f32_4x4x4f16_cb1

BEGIN mf_mfma_f32_4x4x4f16_blgp
  v_mfma_f32_4x4x4f16 v[10:13], v[2:3], v[6:7], v[10:13] blgp:6
  STORE
KD mf_mfma_f32_4x4x4f16_blgp

BEGIN mf_mfma_f32_32x32x8f16
  v_mfma_f32_32x32x8f16 v[10:25], v[2:3], v[6:7], v[10:25]
  STORE
KD mf_mfma_f32_32x32x8f16

BEGIN mf_mfma_f32_32x32x8f16_acc
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
  v_mfma_f32_32x32x8f16 a[0:15], a[32:33], a[36:37], a[0:15]
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
KD mf_mfma_f32_32x32x8f16_acc

BEGIN mf_mfma_f32_32x32x8f16_k
  v_mfma_f32_32x32x8f16 v[10:25], v[2:3], v[6:7], 1.0
  STORE
KD mf_mfma_f32_32x32x8f16_k

BEGIN mf_mfma_f32_16x16x16f16
  v_mfma_f32_16x16x16f16 v[10:13], v[2:3], v[6:7], v[10:13]
  STORE
KD mf_mfma_f32_16x16x16f16

BEGIN mf_mfma_f32_16x16x16f16_acc
  v_accvgpr_write_b32 a32, v2
  v_accvgpr_write_b32 a33, v3
  v_accvgpr_write_b32 a36, v6
  v_accvgpr_write_b32 a37, v7
  v_accvgpr_write_b32 a0, v10
  v_accvgpr_write_b32 a1, v11
  v_accvgpr_write_b32 a2, v12
  v_accvgpr_write_b32 a3, v13
  v_mfma_f32_16x16x16f16 a[0:3], a[32:33], a[36:37], a[0:3]
  s_nop 7
  s_nop 7
  s_nop 7
  v_accvgpr_read_b32 v10, a0
  v_accvgpr_read_b32 v11, a1
  v_accvgpr_read_b32 v12, a2
  v_accvgpr_read_b32 v13, a3
  STORE
KD mf_mfma_f32_16x16x16f16_acc

BEGIN mf_mfma_f32_16x16x16f16_k
  v_mfma_f32_16x16x16f16 v[10:13], v[2:3], v[6:7], 1.0
  STORE
KD mf_mfma_f32_16x16x16f16_k

BEGIN mf_mfma_i32_32x32x4i8
  v_mfma_i32_32x32x4i8 v[10:41], v2, v6, v[10:41]
  STORE
KD mf_mfma_i32_32x32x4i8

BEGIN mf_mfma_i32_32x32x4i8_acc
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
  v_mfma_i32_32x32x4i8 a[0:31], a32, a36, a[0:31]
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
KD mf_mfma_i32_32x32x4i8_acc

BEGIN mf_mfma_i32_32x32x4i8_k
  v_mfma_i32_32x32x4i8 v[10:41], v2, v6, 1
  STORE
KD mf_mfma_i32_32x32x4i8_k

BEGIN mf_mfma_i32_32x32x4i8_cb
  v_mfma_i32_32x32x4i8 v[10:41], v2, v6, v[10:41] cbsz:1 abid:1
  STORE
KD mf_mfma_i32_32x32x4i8_cb

BEGIN mf_mfma_i32_32x32x4i8_cb1
  v_mfma_i32_32x32x4i8 v[10:41], v2, v6, v[10:41] cbsz:1 abid:1
  STORE
KD mf_mfma_i32_32x32x4i8_cb1

BEGIN mf_mfma_i32_32x32x4i8_blgp
  v_mfma_i32_32x32x4i8 v[10:41], v2, v6, v[10:41] blgp:7
  STORE
KD mf_mfma_i32_32x32x4i8_blgp

BEGIN mf_mfma_i32_16x16x4i8
  v_mfma_i32_16x16x4i8 v[10:25], v2, v6, v[10:25]
  STORE
KD mf_mfma_i32_16x16x4i8

BEGIN mf_mfma_i32_16x16x4i8_acc
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
  v_mfma_i32_16x16x4i8 a[0:15], a32, a36, a[0:15]
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
KD mf_mfma_i32_16x16x4i8_acc

BEGIN mf_mfma_i32_16x16x4i8_k
  v_mfma_i32_16x16x4i8 v[10:25], v2, v6, 1
  STORE
KD mf_mfma_i32_16x16x4i8_k

BEGIN mf_mfma_i32_16x16x4i8_cb
  v_mfma_i32_16x16x4i8 v[10:25], v2, v6, v[10:25] cbsz:2 abid:3
  STORE
KD mf_mfma_i32_16x16x4i8_cb

BEGIN mf_mfma_i32_16x16x4i8_cb1
  v_mfma_i32_16x16x4i8 v[10:25], v2, v6, v[10:25] cbsz:1 abid:1
  STORE
KD mf_mfma_i32_16x16x4i8_cb1

BEGIN mf_mfma_i32_16x16x4i8_blgp
  v_mfma_i32_16x16x4i8 v[10:25], v2, v6, v[10:25] blgp:7
  STORE
KD mf_mfma_i32_16x16x4i8_blgp

BEGIN mf_mfma_i32_4x4x4i8
  v_mfma_i32_4x4x4i8 v[10:13], v2, v6, v[10:13]
  STORE
KD mf_mfma_i32_4x4x4i8

BEGIN mf_mfma_i32_4x4x4i8_acc
  v_accvgpr_write_b32 a32, v2
  v_accvgpr_write_b32 a36, v6
  v_accvgpr_write_b32 a0, v10
  v_accvgpr_write_b32 a1, v11
  v_accvgpr_write_b32 a2, v12
  v_accvgpr_write_b32 a3, v13
  v_mfma_i32_4x4x4i8 a[0:3], a32, a36, a[0:3]
  s_nop 7
  s_nop 7
  s_nop 7
  v_accvgpr_read_b32 v10, a0
  v_accvgpr_read_b32 v11, a1
  v_accvgpr_read_b32 v12, a2
  v_accvgpr_read_b32 v13, a3
  STORE
KD mf_mfma_i32_4x4x4i8_acc

BEGIN mf_mfma_i32_4x4x4i8_k
  v_mfma_i32_4x4x4i8 v[10:13], v2, v6, 1
  STORE
KD mf_mfma_i32_4x4x4i8_k

BEGIN mf_mfma_i32_4x4x4i8_cb
  v_mfma_i32_4x4x4i8 v[10:13], v2, v6, v[10:13] cbsz:4 abid:15
  STORE
KD mf_mfma_i32_4x4x4i8_cb

BEGIN mf_mfma_i32_4x4x4i8_cb1
  v_mfma_i32_4x4x4i8 v[10:13], v2, v6, v[10:13] cbsz:1 abid:1
  STORE
KD mf_mfma_i32_4x4x4i8_cb1

BEGIN mf_mfma_i32_4x4x4i8_blgp
  v_mfma_i32_4x4x4i8 v[10:13], v2, v6, v[10:13] blgp:5
  STORE
KD mf_mfma_i32_4x4x4i8_blgp

BEGIN mf_mfma_i32_32x32x8i8
  v_mfma_i32_32x32x8i8 v[10:25], v2, v6, v[10:25]
  STORE
KD mf_mfma_i32_32x32x8i8

BEGIN mf_mfma_i32_32x32x8i8_acc
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
  v_mfma_i32_32x32x8i8 a[0:15], a32, a36, a[0:15]
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
KD mf_mfma_i32_32x32x8i8_acc

BEGIN mf_mfma_i32_32x32x8i8_k
  v_mfma_i32_32x32x8i8 v[10:25], v2, v6, 1
  STORE
KD mf_mfma_i32_32x32x8i8_k

BEGIN mf_mfma_i32_16x16x16i8
  v_mfma_i32_16x16x16i8 v[10:13], v2, v6, v[10:13]
  STORE
KD mf_mfma_i32_16x16x16i8

BEGIN mf_mfma_i32_16x16x16i8_acc
  v_accvgpr_write_b32 a32, v2
  v_accvgpr_write_b32 a36, v6
  v_accvgpr_write_b32 a0, v10
  v_accvgpr_write_b32 a1, v11
  v_accvgpr_write_b32 a2, v12
  v_accvgpr_write_b32 a3, v13
  v_mfma_i32_16x16x16i8 a[0:3], a32, a36, a[0:3]
  s_nop 7
  s_nop 7
  s_nop 7
  v_accvgpr_read_b32 v10, a0
  v_accvgpr_read_b32 v11, a1
  v_accvgpr_read_b32 v12, a2
  v_accvgpr_read_b32 v13, a3
  STORE
KD mf_mfma_i32_16x16x16i8_acc

BEGIN mf_mfma_i32_16x16x16i8_k
  v_mfma_i32_16x16x16i8 v[10:13], v2, v6, 1
  STORE
KD mf_mfma_i32_16x16x16i8_k

BEGIN mf_mfma_f32_32x32x4bf16_1k
  v_mfma_f32_32x32x4bf16_1k v[10:41], v[2:3], v[6:7], v[10:41]
  STORE
KD mf_mfma_f32_32x32x4bf16_1k

BEGIN mf_mfma_f32_32x32x4bf16_1k_acc
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
  v_mfma_f32_32x32x4bf16_1k a[0:31], a[32:33], a[36:37], a[0:31]
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
KD mf_mfma_f32_32x32x4bf16_1k_acc

BEGIN mf_mfma_f32_32x32x4bf16_1k_k
  v_mfma_f32_32x32x4bf16_1k v[10:41], v[2:3], v[6:7], 1.0
  STORE
KD mf_mfma_f32_32x32x4bf16_1k_k

BEGIN mf_mfma_f32_32x32x4bf16_1k_cb
  v_mfma_f32_32x32x4bf16_1k v[10:41], v[2:3], v[6:7], v[10:41] cbsz:1 abid:1
  STORE
KD mf_mfma_f32_32x32x4bf16_1k_cb

BEGIN mf_mfma_f32_32x32x4bf16_1k_cb1
  v_mfma_f32_32x32x4bf16_1k v[10:41], v[2:3], v[6:7], v[10:41] cbsz:1 abid:1
  STORE
KD mf_mfma_f32_32x32x4bf16_1k_cb1

BEGIN mf_mfma_f32_32x32x4bf16_1k_blgp
  v_mfma_f32_32x32x4bf16_1k v[10:41], v[2:3], v[6:7], v[10:41] blgp:5
  STORE
KD mf_mfma_f32_32x32x4bf16_1k_blgp

BEGIN mf_mfma_f32_16x16x4bf16_1k
  v_mfma_f32_16x16x4bf16_1k v[10:25], v[2:3], v[6:7], v[10:25]
  STORE
KD mf_mfma_f32_16x16x4bf16_1k

BEGIN mf_mfma_f32_16x16x4bf16_1k_acc
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
  v_mfma_f32_16x16x4bf16_1k a[0:15], a[32:33], a[36:37], a[0:15]
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
KD mf_mfma_f32_16x16x4bf16_1k_acc

BEGIN mf_mfma_f32_16x16x4bf16_1k_k
  v_mfma_f32_16x16x4bf16_1k v[10:25], v[2:3], v[6:7], 1.0
  STORE
KD mf_mfma_f32_16x16x4bf16_1k_k

BEGIN mf_mfma_f32_16x16x4bf16_1k_cb
  v_mfma_f32_16x16x4bf16_1k v[10:25], v[2:3], v[6:7], v[10:25] cbsz:2 abid:3
  STORE
KD mf_mfma_f32_16x16x4bf16_1k_cb

BEGIN mf_mfma_f32_16x16x4bf16_1k_cb1
  v_mfma_f32_16x16x4bf16_1k v[10:25], v[2:3], v[6:7], v[10:25] cbsz:1 abid:1
  STORE
KD mf_mfma_f32_16x16x4bf16_1k_cb1

BEGIN mf_mfma_f32_16x16x4bf16_1k_blgp
  v_mfma_f32_16x16x4bf16_1k v[10:25], v[2:3], v[6:7], v[10:25] blgp:5
  STORE
KD mf_mfma_f32_16x16x4bf16_1k_blgp

BEGIN mf_mfma_f32_4x4x4bf16_1k
  v_mfma_f32_4x4x4bf16_1k v[10:13], v[2:3], v[6:7], v[10:13]
  STORE
KD mf_mfma_f32_4x4x4bf16_1k

BEGIN mf_mfma_f32_4x4x4bf16_1k_acc
  v_accvgpr_write_b32 a32, v2
  v_accvgpr_write_b32 a33, v3
  v_accvgpr_write_b32 a36, v6
  v_accvgpr_write_b32 a37, v7
  v_accvgpr_write_b32 a0, v10
  v_accvgpr_write_b32 a1, v11
  v_accvgpr_write_b32 a2, v12
  v_accvgpr_write_b32 a3, v13
  v_mfma_f32_4x4x4bf16_1k a[0:3], a[32:33], a[36:37], a[0:3]
  s_nop 7
  s_nop 7
  s_nop 7
  v_accvgpr_read_b32 v10, a0
  v_accvgpr_read_b32 v11, a1
  v_accvgpr_read_b32 v12, a2
  v_accvgpr_read_b32 v13, a3
  STORE
KD mf_mfma_f32_4x4x4bf16_1k_acc

BEGIN mf_mfma_f32_4x4x4bf16_1k_k
  v_mfma_f32_4x4x4bf16_1k v[10:13], v[2:3], v[6:7], 1.0
  STORE
KD mf_mfma_f32_4x4x4bf16_1k_k

BEGIN mf_mfma_f32_4x4x4bf16_1k_cb
  v_mfma_f32_4x4x4bf16_1k v[10:13], v[2:3], v[6:7], v[10:13] cbsz:4 abid:15
  STORE
KD mf_mfma_f32_4x4x4bf16_1k_cb

BEGIN mf_mfma_f32_4x4x4bf16_1k_cb1
  v_mfma_f32_4x4x4bf16_1k v[10:13], v[2:3], v[6:7], v[10:13] cbsz:1 abid:1
  STORE
KD mf_mfma_f32_4x4x4bf16_1k_cb1

BEGIN mf_mfma_f32_4x4x4bf16_1k_blgp
  v_mfma_f32_4x4x4bf16_1k v[10:13], v[2:3], v[6:7], v[10:13] blgp:3
  STORE
KD mf_mfma_f32_4x4x4bf16_1k_blgp

BEGIN mf_mfma_f32_32x32x8bf16_1k
  v_mfma_f32_32x32x8bf16_1k v[10:25], v[2:3], v[6:7], v[10:25]
  STORE
KD mf_mfma_f32_32x32x8bf16_1k

BEGIN mf_mfma_f32_32x32x8bf16_1k_acc
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
  v_mfma_f32_32x32x8bf16_1k a[0:15], a[32:33], a[36:37], a[0:15]
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
KD mf_mfma_f32_32x32x8bf16_1k_acc

BEGIN mf_mfma_f32_32x32x8bf16_1k_k
  v_mfma_f32_32x32x8bf16_1k v[10:25], v[2:3], v[6:7], 1.0
  STORE
KD mf_mfma_f32_32x32x8bf16_1k_k

BEGIN mf_mfma_f32_16x16x16bf16_1k
  v_mfma_f32_16x16x16bf16_1k v[10:13], v[2:3], v[6:7], v[10:13]
  STORE
KD mf_mfma_f32_16x16x16bf16_1k

BEGIN mf_mfma_f32_16x16x16bf16_1k_acc
  v_accvgpr_write_b32 a32, v2
  v_accvgpr_write_b32 a33, v3
  v_accvgpr_write_b32 a36, v6
  v_accvgpr_write_b32 a37, v7
  v_accvgpr_write_b32 a0, v10
  v_accvgpr_write_b32 a1, v11
  v_accvgpr_write_b32 a2, v12
  v_accvgpr_write_b32 a3, v13
  v_mfma_f32_16x16x16bf16_1k a[0:3], a[32:33], a[36:37], a[0:3]
  s_nop 7
  s_nop 7
  s_nop 7
  v_accvgpr_read_b32 v10, a0
  v_accvgpr_read_b32 v11, a1
  v_accvgpr_read_b32 v12, a2
  v_accvgpr_read_b32 v13, a3
  STORE
KD mf_mfma_f32_16x16x16bf16_1k_acc

BEGIN mf_mfma_f32_16x16x16bf16_1k_k
  v_mfma_f32_16x16x16bf16_1k v[10:13], v[2:3], v[6:7], 1.0
  STORE
KD mf_mfma_f32_16x16x16bf16_1k_k

BEGIN mf_mfma_f32_32x32x2bf16
  v_mfma_f32_32x32x2bf16 v[10:41], v2, v6, v[10:41]
  STORE
KD mf_mfma_f32_32x32x2bf16

BEGIN mf_mfma_f32_32x32x2bf16_acc
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
  v_mfma_f32_32x32x2bf16 a[0:31], a32, a36, a[0:31]
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
KD mf_mfma_f32_32x32x2bf16_acc

BEGIN mf_mfma_f32_32x32x2bf16_k
  v_mfma_f32_32x32x2bf16 v[10:41], v2, v6, 1.0
  STORE
KD mf_mfma_f32_32x32x2bf16_k

BEGIN mf_mfma_f32_32x32x2bf16_cb
  v_mfma_f32_32x32x2bf16 v[10:41], v2, v6, v[10:41] cbsz:1 abid:1
  STORE
KD mf_mfma_f32_32x32x2bf16_cb

BEGIN mf_mfma_f32_32x32x2bf16_cb1
  v_mfma_f32_32x32x2bf16 v[10:41], v2, v6, v[10:41] cbsz:1 abid:1
  STORE
KD mf_mfma_f32_32x32x2bf16_cb1

BEGIN mf_mfma_f32_32x32x2bf16_blgp
  v_mfma_f32_32x32x2bf16 v[10:41], v2, v6, v[10:41] blgp:2
  STORE
KD mf_mfma_f32_32x32x2bf16_blgp

BEGIN mf_mfma_f32_16x16x2bf16
  v_mfma_f32_16x16x2bf16 v[10:25], v2, v6, v[10:25]
  STORE
KD mf_mfma_f32_16x16x2bf16

BEGIN mf_mfma_f32_16x16x2bf16_acc
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
  v_mfma_f32_16x16x2bf16 a[0:15], a32, a36, a[0:15]
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
KD mf_mfma_f32_16x16x2bf16_acc

BEGIN mf_mfma_f32_16x16x2bf16_k
  v_mfma_f32_16x16x2bf16 v[10:25], v2, v6, 1.0
  STORE
KD mf_mfma_f32_16x16x2bf16_k

BEGIN mf_mfma_f32_16x16x2bf16_cb
  v_mfma_f32_16x16x2bf16 v[10:25], v2, v6, v[10:25] cbsz:2 abid:3
  STORE
KD mf_mfma_f32_16x16x2bf16_cb

BEGIN mf_mfma_f32_16x16x2bf16_cb1
  v_mfma_f32_16x16x2bf16 v[10:25], v2, v6, v[10:25] cbsz:1 abid:1
  STORE
KD mf_mfma_f32_16x16x2bf16_cb1

BEGIN mf_mfma_f32_16x16x2bf16_blgp
  v_mfma_f32_16x16x2bf16 v[10:25], v2, v6, v[10:25] blgp:2
  STORE
KD mf_mfma_f32_16x16x2bf16_blgp

BEGIN mf_mfma_f32_4x4x2bf16
  v_mfma_f32_4x4x2bf16 v[10:13], v2, v6, v[10:13]
  STORE
KD mf_mfma_f32_4x4x2bf16

BEGIN mf_mfma_f32_4x4x2bf16_acc
  v_accvgpr_write_b32 a32, v2
  v_accvgpr_write_b32 a36, v6
  v_accvgpr_write_b32 a0, v10
  v_accvgpr_write_b32 a1, v11
  v_accvgpr_write_b32 a2, v12
  v_accvgpr_write_b32 a3, v13
  v_mfma_f32_4x4x2bf16 a[0:3], a32, a36, a[0:3]
  s_nop 7
  s_nop 7
  s_nop 7
  v_accvgpr_read_b32 v10, a0
  v_accvgpr_read_b32 v11, a1
  v_accvgpr_read_b32 v12, a2
  v_accvgpr_read_b32 v13, a3
  STORE
KD mf_mfma_f32_4x4x2bf16_acc

BEGIN mf_mfma_f32_4x4x2bf16_k
  v_mfma_f32_4x4x2bf16 v[10:13], v2, v6, 1.0
  STORE
KD mf_mfma_f32_4x4x2bf16_k

BEGIN mf_mfma_f32_4x4x2bf16_cb
  v_mfma_f32_4x4x2bf16 v[10:13], v2, v6, v[10:13] cbsz:4 abid:15
  STORE
KD mf_mfma_f32_4x4x2bf16_cb

BEGIN mf_mfma_f32_4x4x2bf16_cb1
  v_mfma_f32_4x4x2bf16 v[10:13], v2, v6, v[10:13] cbsz:1 abid:1
  STORE
KD mf_mfma_f32_4x4x2bf16_cb1

BEGIN mf_mfma_f32_4x4x2bf16_blgp
  v_mfma_f32_4x4x2bf16 v[10:13], v2, v6, v[10:13] blgp:7
  STORE
KD mf_mfma_f32_4x4x2bf16_blgp

BEGIN mf_mfma_f32_32x32x4bf16
  v_mfma_f32_32x32x4bf16 v[10:25], v2, v6, v[10:25]
  STORE
KD mf_mfma_f32_32x32x4bf16

BEGIN mf_mfma_f32_32x32x4bf16_acc
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
  v_mfma_f32_32x32x4bf16 a[0:15], a32, a36, a[0:15]
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
KD mf_mfma_f32_32x32x4bf16_acc

BEGIN mf_mfma_f32_32x32x4bf16_k
  v_mfma_f32_32x32x4bf16 v[10:25], v2, v6, 1.0
  STORE
KD mf_mfma_f32_32x32x4bf16_k

BEGIN mf_mfma_f32_16x16x8bf16
  v_mfma_f32_16x16x8bf16 v[10:13], v2, v6, v[10:13]
  STORE
KD mf_mfma_f32_16x16x8bf16

BEGIN mf_mfma_f32_16x16x8bf16_acc
  v_accvgpr_write_b32 a32, v2
  v_accvgpr_write_b32 a36, v6
  v_accvgpr_write_b32 a0, v10
  v_accvgpr_write_b32 a1, v11
  v_accvgpr_write_b32 a2, v12
  v_accvgpr_write_b32 a3, v13
  v_mfma_f32_16x16x8bf16 a[0:3], a32, a36, a[0:3]
  s_nop 7
  s_nop 7
  s_nop 7
  v_accvgpr_read_b32 v10, a0
  v_accvgpr_read_b32 v11, a1
  v_accvgpr_read_b32 v12, a2
  v_accvgpr_read_b32 v13, a3
  STORE
KD mf_mfma_f32_16x16x8bf16_acc

BEGIN mf_mfma_f32_16x16x8bf16_k
  v_mfma_f32_16x16x8bf16 v[10:13], v2, v6, 1.0
  STORE
KD mf_mfma_f32_16x16x8bf16_k

BEGIN mf_mfma_f64_16x16x4f64
  v_mfma_f64_16x16x4f64 v[10:17], v[2:3], v[6:7], v[10:17]
  STORE
KD mf_mfma_f64_16x16x4f64

BEGIN mf_mfma_f64_16x16x4f64_acc
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
  v_mfma_f64_16x16x4f64 a[0:7], a[32:33], a[36:37], a[0:7]
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
KD mf_mfma_f64_16x16x4f64_acc

BEGIN mf_mfma_f64_16x16x4f64_k
  v_mfma_f64_16x16x4f64 v[10:17], v[2:3], v[6:7], 1.0
  STORE
KD mf_mfma_f64_16x16x4f64_k

BEGIN mf_mfma_f64_4x4x4f64
  v_mfma_f64_4x4x4f64 v[10:11], v[2:3], v[6:7], v[10:11]
  STORE
KD mf_mfma_f64_4x4x4f64

BEGIN mf_mfma_f64_4x4x4f64_acc
  v_accvgpr_write_b32 a32, v2
  v_accvgpr_write_b32 a33, v3
  v_accvgpr_write_b32 a36, v6
  v_accvgpr_write_b32 a37, v7
  v_accvgpr_write_b32 a0, v10
  v_accvgpr_write_b32 a1, v11
  v_mfma_f64_4x4x4f64 a[0:1], a[32:33], a[36:37], a[0:1]
  s_nop 7
  s_nop 7
  s_nop 7
  v_accvgpr_read_b32 v10, a0
  v_accvgpr_read_b32 v11, a1
  STORE
KD mf_mfma_f64_4x4x4f64_acc

BEGIN mf_mfma_f64_4x4x4f64_k
  v_mfma_f64_4x4x4f64 v[10:11], v[2:3], v[6:7], 1.0
  STORE
KD mf_mfma_f64_4x4x4f64_k

BEGIN mf_mfma_f64_4x4x4f64_cb
  v_mfma_f64_4x4x4f64 v[10:11], v[2:3], v[6:7], v[10:11] cbsz:2 abid:3
  STORE
KD mf_mfma_f64_4x4x4f64_cb

BEGIN mf_mfma_f64_4x4x4f64_cb1
  v_mfma_f64_4x4x4f64 v[10:11], v[2:3], v[6:7], v[10:11] cbsz:1 abid:1
  STORE
KD mf_mfma_f64_4x4x4f64_cb1

