// ops_img.s — kernels for test_isa_ops.c (gfx90a, which has image
// instructions): the packed (no-conversion) image loads and stores,
// image_store_mip and the image atomics.  Kernarg {in, out, aux}: aux
// points to the image's T# (8 dwords); the image is 2-D, lane l at
// x = l & 15, y = l >> 4 (v6, v7; v8 = mip level 0); layout of in/out as
// in ops.s.
.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
.include "kernel.inc"

.include "ops.inc"

.macro TSHARP
  s_load_dwordx8 s[12:19], s[36:37], 0x0
  v_and_b32 v6, 15, v0
  v_lshrrev_b32 v7, 4, v0
  v_mov_b32 v8, 0
  s_waitcnt lgkmcnt(0)
.endm

// v[40:43] = the texel's dwords (image_load_pck dmask 0xf), v[44:45] its
// dwords 0 and 2 with _sgn, v46 = dword 0 (image_load_mip_pck, level 0),
// v47 = dword 0 with _sgn (image_load_mip_pck_sgn).
BEGIN ops_img_pck
  TSHARP
  image_load_pck v[40:43], v[6:7], s[12:19] dmask:0xf unorm
  image_load_pck_sgn v[44:45], v[6:7], s[12:19] dmask:0x5 unorm
  image_load_mip_pck v46, v[6:8], s[12:19] dmask:0x1 unorm
  image_load_mip_pck_sgn v47, v[6:8], s[12:19] dmask:0x1 unorm
  s_waitcnt vmcnt(0)
END ops_img_pck

// Lanes 0-31: image_store_pck of v[2:5] (dmask 0xf); lanes 32-63:
// image_store_mip_pck of v[2:4] into dwords 0, 1, 3 (dmask 0xb); then
// every lane reads its texel back (v[40:43]).
BEGIN ops_img_pck_store
  TSHARP
  s_mov_b32 exec_hi, 0
  image_store_pck v[2:5], v[6:7], s[12:19] dmask:0xf unorm
  s_mov_b32 exec_lo, 0
  s_mov_b32 exec_hi, -1
  image_store_mip_pck v[2:4], v[6:8], s[12:19] dmask:0xb unorm
  s_mov_b32 exec_lo, -1
  s_waitcnt vmcnt(0)
  image_load_pck v[40:43], v[6:7], s[12:19] dmask:0xf unorm
  s_waitcnt vmcnt(0)
END ops_img_pck_store

// image_store_mip (level 0) of v[2:5] with the resource's conversion,
// then image_load_mip back into v[40:43].
BEGIN ops_img_store_mip
  TSHARP
  image_store_mip v[2:5], v[6:8], s[12:19] dmask:0xf unorm
  s_waitcnt vmcnt(0)
  image_load_mip v[40:43], v[6:8], s[12:19] dmask:0xf unorm
  s_waitcnt vmcnt(0)
END ops_img_store_mip

// Mip chains (T# at aux, a 32-bit UINT format): lane l stores v5 at
// (v2, v3) of level BASE_LEVEL + v4 (image_store_mip), then reads it back
// (image_load_mip, v40), reads (v2, v3) at BASE_LEVEL (image_load, v41),
// samples (v2 + 0.5, v3 + 0.5) unnormalized with a zero S# (point, WRAP;
// LOD 0: BASE_LEVEL, v42) and asks for level v4's extent
// (image_get_resinfo, v[44:47]).
BEGIN ops_img_mip
  s_load_dwordx8 s[12:19], s[36:37], 0x0
  s_mov_b32 s20, 0
  s_mov_b32 s21, 0
  s_mov_b32 s22, 0
  s_mov_b32 s23, 0
  v_cvt_f32_u32 v6, v2
  v_cvt_f32_u32 v7, v3
  v_add_f32 v6, 0.5, v6
  v_add_f32 v7, 0.5, v7
  s_waitcnt lgkmcnt(0)
  image_store_mip v5, v[2:4], s[12:19] dmask:0x1 unorm
  s_waitcnt vmcnt(0)
  image_load_mip v40, v[2:4], s[12:19] dmask:0x1 unorm
  image_load v41, v[2:3], s[12:19] dmask:0x1 unorm
  image_sample v42, v[6:7], s[12:19], s[20:23] dmask:0x1 unorm
  image_get_resinfo v[44:47], v4, s[12:19] dmask:0xf
  s_waitcnt vmcnt(0)
END ops_img_mip

// A 2-D array or 3-D chain (the T#'s type decides; DA as the compiler
// sets it for arrays, which the address count does not depend on on
// GFX9): lane l stores 0x5000 + l at (v2, v3, slice or z v4) of
// level BASE_LEVEL + v5 (image_store_mip), reads it back (image_load_mip,
// v40), reads (v2, v3, v4) at BASE_LEVEL (image_load, v41) and asks for
// level v5's extent (image_get_resinfo, v[44:47]).
BEGIN ops_img_mip_2da
  s_load_dwordx8 s[12:19], s[36:37], 0x0
  v_add_u32 v9, 0x5000, v0
  s_waitcnt lgkmcnt(0)
  image_store_mip v9, v[2:5], s[12:19] dmask:0x1 unorm da
  s_waitcnt vmcnt(0)
  image_load_mip v40, v[2:5], s[12:19] dmask:0x1 unorm da
  image_load v41, v[2:4], s[12:19] dmask:0x1 unorm da
  image_get_resinfo v[44:47], v5, s[12:19] dmask:0xf da
  s_waitcnt vmcnt(0)
END ops_img_mip_2da

// The thirteen image atomics in a chain on the lane's 32-bit texel; the
// ones with GLC return the old value (v40 swap, v41 sub, v42 umin, v43
// umax, v44 or, v45 inc, v46 dec, v47 cmpswap; v48 the value the
// compare used, read with an OR of 0).  Data: swap v2, add v3, sub v4,
// smin v5, umin v2 ^ v5, smax v3 >> 1, umax v4 >> 3, and v5 | v3, or
// v2 & 0x0f0f0f0f, xor v3, inc v4 | 1 << 31, dec v5 | 1 << 31, cmpswap
// {v2, the current value ^ (l & 1)}.
BEGIN ops_img_atomic
  TSHARP
  v_mov_b32 v40, v2
  image_atomic_swap v40, v[6:7], s[12:19] dmask:0x1 unorm glc
  v_mov_b32 v20, v3
  image_atomic_add v20, v[6:7], s[12:19] dmask:0x1 unorm
  v_mov_b32 v41, v4
  image_atomic_sub v41, v[6:7], s[12:19] dmask:0x1 unorm glc
  v_mov_b32 v20, v5
  image_atomic_smin v20, v[6:7], s[12:19] dmask:0x1 unorm
  v_xor_b32 v42, v2, v5
  image_atomic_umin v42, v[6:7], s[12:19] dmask:0x1 unorm glc
  v_lshrrev_b32 v20, 1, v3
  image_atomic_smax v20, v[6:7], s[12:19] dmask:0x1 unorm
  v_lshrrev_b32 v43, 3, v4
  image_atomic_umax v43, v[6:7], s[12:19] dmask:0x1 unorm glc
  v_or_b32 v20, v5, v3
  image_atomic_and v20, v[6:7], s[12:19] dmask:0x1 unorm
  v_and_b32 v44, 0x0f0f0f0f, v2
  image_atomic_or v44, v[6:7], s[12:19] dmask:0x1 unorm glc
  v_mov_b32 v20, v3
  image_atomic_xor v20, v[6:7], s[12:19] dmask:0x1 unorm
  v_or_b32 v45, 0x80000000, v4
  image_atomic_inc v45, v[6:7], s[12:19] dmask:0x1 unorm glc
  v_or_b32 v46, 0x80000000, v5
  image_atomic_dec v46, v[6:7], s[12:19] dmask:0x1 unorm glc
  v_mov_b32 v48, 0
  image_atomic_or v48, v[6:7], s[12:19] dmask:0x1 unorm glc
  s_waitcnt vmcnt(0)
  v_and_b32 v21, 1, v0
  v_xor_b32 v23, v48, v21
  v_mov_b32 v22, v2
  image_atomic_cmpswap v[22:23], v[6:7], s[12:19] dmask:0x3 unorm glc
  s_waitcnt vmcnt(0)
  v_mov_b32 v47, v22
END ops_img_atomic

// The 64-bit forms on a 32_32 texel: v[40:41] add (v[2:3]) old, v[42:43]
// umax ({v4, v5}) old, an xor ({v2, v5}) without GLC, v[44:45] the value
// then (or of 0), v[46:47] cmpswap's old value ({v3, v4} if the texel is
// {v44 ^ (l & 1), v45}).
BEGIN ops_img_atomic64
  TSHARP
  v_mov_b32 v40, v2
  v_mov_b32 v41, v3
  image_atomic_add v[40:41], v[6:7], s[12:19] dmask:0x3 unorm glc
  v_mov_b32 v42, v4
  v_mov_b32 v43, v5
  image_atomic_umax v[42:43], v[6:7], s[12:19] dmask:0x3 unorm glc
  v_mov_b32 v20, v2
  v_mov_b32 v21, v5
  image_atomic_xor v[20:21], v[6:7], s[12:19] dmask:0x3 unorm
  v_mov_b32 v44, 0
  v_mov_b32 v45, 0
  image_atomic_or v[44:45], v[6:7], s[12:19] dmask:0x3 unorm glc
  s_waitcnt vmcnt(0)
  v_and_b32 v21, 1, v0
  v_xor_b32 v24, v44, v21
  v_mov_b32 v25, v45
  v_mov_b32 v22, v3
  v_mov_b32 v23, v4
  image_atomic_cmpswap v[22:25], v[6:7], s[12:19] dmask:0xf unorm glc
  s_waitcnt vmcnt(0)
  v_mov_b32 v46, v22
  v_mov_b32 v47, v23
END ops_img_atomic64

// image_sample with A16 (f16 coordinates, x in the low half) and LWE
// (one more VGPR after the data: the LOD-warning status), unnormalized,
// point sampling, WRAP (the S# is 0): v[40:43] the texel at v2's
// coordinates and v44 the status (0xdeadbeef before); v[46:47]
// components X and Z at v3's (A16 only, v48 untouched: 0).
BEGIN ops_img_sample16
  TSHARP
  s_mov_b32 s20, 0
  s_mov_b32 s21, 0
  s_mov_b32 s22, 0
  s_mov_b32 s23, 0
  v_mov_b32 v44, 0xdeadbeef
  image_sample v[40:44], v2, s[12:19], s[20:23] dmask:0xf unorm a16 lwe
  image_sample v[46:47], v3, s[12:19], s[20:23] dmask:0x5 unorm a16
  s_waitcnt vmcnt(0)
END ops_img_sample16

// A16 (16-bit address components, two a VGPR: v24 = {x, y}, v25 = {0, 1},
// v26 = {0, 7}) with LWE on the loads: v[40:43] image_load of the texel,
// v44 its status (0xdeadbeef before), v46 image_load_mip_pck dword 0
// (level v25.lo = 0), v47 its status, v[48:51] image_get_resinfo at level
// v26.lo = 0; then image_store of v[2:5] at {x, y}.
BEGIN ops_img_a16
  TSHARP
  v_lshl_or_b32 v24, v7, 16, v6
  v_mov_b32 v25, 0x10000
  v_mov_b32 v26, 0x70000
  v_mov_b32 v44, 0xdeadbeef
  v_mov_b32 v47, 0xdeadbeef
  image_load v[40:44], v24, s[12:19] dmask:0xf unorm a16 lwe
  image_load_mip_pck v[46:47], v[24:25], s[12:19] dmask:0x1 unorm a16 lwe
  image_get_resinfo v[48:51], v26, s[12:19] dmask:0xf unorm a16
  s_waitcnt vmcnt(0)
  image_store v[2:5], v24, s[12:19] dmask:0xf unorm a16
  s_waitcnt vmcnt(0)
END ops_img_a16
