// vfast64942.s — the gfx942 kernels of test_isa_vfast64.c: v_mov_b64 and
// v_lshl_add_u64 with the operand kinds isa_exec_vfast64.c takes, in the
// layout of vfast64.s (its header describes the inputs, the outputs and
// the two EXECs).
.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
.include "kernel.inc"

.include "vfast64.inc"

T mov_b64_v, v_mov_b64 v[8:9], v[2:3]
T mov_b64_s, v_mov_b64 v[8:9], s[8:9]
T lshl_add_u64_vvv, v_lshl_add_u64 v[8:9], v[2:3], v6, v[4:5]
T lshl_add_u64_vkv, v_lshl_add_u64 v[8:9], v[2:3], 2, v[4:5]
T lshl_add_u64_vvs, v_lshl_add_u64 v[8:9], v[2:3], v6, s[8:9]
// the compilers' address form: a base in SGPRs plus a 64-bit offset
T lshl_add_u64_skv, v_lshl_add_u64 v[8:9], s[8:9], 0, v[4:5]
T lshl_add_u64_vks, v_lshl_add_u64 v[8:9], v[2:3], 3, s[8:9]
