// hsalite's second-level trap handler for gfx9 (gfx90a, gfx942), written for
// hsalite; assembled at build time (src/queue/trap/trap.cmake) and installed
// on every GPU with SET_TRAP_HANDLER (src/queue/trap.c).
//
// The kernel's first-level handler (cwsr_trap_handler_gfx9.asm) jumps here
// with:
//   ttmp0      PC[31:0]
//   ttmp1      PC[47:32] in [15:0], the trap id in [23:16] (0: an exception)
//   ttmp11     [31:26] the IB_STS replay bits it saved; the rest is the SPI's
//   ttmp12     STATUS (HALT set already when it halted the wave for an
//              illegal instruction or a memory violation; the PC is then
//              rewound by 8)
//   ttmp14/15  our TMA: 1024 amd_queue_t pointers, indexed by the queue's
//              doorbell slot (s_sendmsg MSG_GET_DOORBELL), which hsalite
//              fills as it creates and destroys queues
// and leaves ttmp2-5 free.  TRAPSTS tells the exception.
//
// What it reports, with the codes ROCr's handlers write into the queue's
// queue_inactive_signal (hsalite maps them to statuses as ROCr does,
// src/queue/errors.c):
//   s_trap 2 (llvm.trap: __builtin_trap, HIP abort/assert)  0x80000000  HSA_STATUS_ERROR_EXCEPTION
//   s_trap 1 and 4-255 (the debugger's and others)          0x80000000  HSA_STATUS_ERROR_EXCEPTION
//   s_trap 3 (llvm.debugtrap), no debugger attached         skipped (PC + 4), as current ROCr does
//   TRAPSTS.ILLEGAL_INST                                    0x40000000  HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION
//   TRAPSTS.MEM_VIOL without XNACK_ERROR                    0x20000000  HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION
//   MEM_VIOL with XNACK_ERROR (a page fault)                not reported here: the VM fault interrupt
//                                                           reaches the system event handlers
// The code is ORed into the signal's value (the first reporter also writes
// the signal's event id into its mailbox and raises MSG_INTERRUPT with that
// id, so KFD's interrupt handler sets the event and hsalite's queue-error
// thread wakes); then the wave is halted: its dispatch never completes, and
// the runtime's error callback decides what happens to the queue.
// No VGPR is touched; ttmp4/5 (SPI debug data) are clobbered, as ROCr's
// handler does.

.set TRAP_ID_LLVM_DEBUGTRAP, 3
.set TRAPSTS_MEM_VIOL, 0x100
.set TRAPSTS_ILLEGAL_INST_BIT, 11
.set TRAPSTS_XNACK_ERROR, 0x10000000
.set STATUS_HALT_BIT, 13
.set CODE_TRAP, 0x80000000
.set CODE_ILLEGAL_INST, 0x40000000
.set CODE_APERTURE, 0x20000000
.set DOORBELL_SLOT_MASK, 0x3ff
.set AMD_QUEUE_INACTIVE_SIGNAL, 0xc0
.set AMD_SIGNAL_VALUE, 0x8
.set AMD_SIGNAL_MAILBOX, 0x10
.set AMD_SIGNAL_EVENT_ID, 0x18
.set IB_STS_SAVE_SHIFT, 11            // ttmp11[31:26] -> IB_STS[20:15]
.set IB_STS_REPLAY_MASK, 0x1f8000

	.text
	.p2align 8
hl_trap_entry:
	s_bfe_u32       ttmp2, ttmp1, 0x80010          // trap id: [23:16]
	s_cbranch_scc0  .Lexception
	s_cmp_eq_u32    ttmp2, TRAP_ID_LLVM_DEBUGTRAP
	s_cbranch_scc0  .Ltrap
	s_add_u32       ttmp0, ttmp0, 4                 // past the s_trap
	s_addc_u32      ttmp1, ttmp1, 0
	s_branch        .Lreturn
.Ltrap:
	s_mov_b32       ttmp3, CODE_TRAP
	s_branch        .Lreport

.Lexception:
	s_getreg_b32    ttmp2, hwreg(HW_REG_TRAPSTS)
	s_bitcmp1_b32   ttmp2, TRAPSTS_ILLEGAL_INST_BIT
	s_cbranch_scc0  .Lnot_illegal
	s_mov_b32       ttmp3, CODE_ILLEGAL_INST
	s_branch        .Lreport
.Lnot_illegal:
	s_and_b32       ttmp2, ttmp2, TRAPSTS_MEM_VIOL | TRAPSTS_XNACK_ERROR
	s_cmp_eq_u32    ttmp2, TRAPSTS_MEM_VIOL
	s_cbranch_scc0  .Lhalt
	s_mov_b32       ttmp3, CODE_APERTURE

.Lreport:
	// ttmp3 = code.  The queue: amd_queue_t* = TMA[doorbell slot].
	s_mov_b32       ttmp2, exec_lo
	s_mov_b32       exec_lo, 0x80000000
	s_sendmsg       sendmsg(MSG_GET_DOORBELL)
.Lwait_doorbell:
	s_nop           7
	s_bitcmp0_b32   exec_lo, 31
	s_cbranch_scc0  .Lwait_doorbell
	s_and_b32       ttmp4, exec_lo, DOORBELL_SLOT_MASK
	s_mov_b32       exec_lo, ttmp2
	s_lshl_b32      ttmp4, ttmp4, 3
	s_load_dwordx2  ttmp[14:15], ttmp[14:15], ttmp4 glc
	s_waitcnt       lgkmcnt(0)
	s_and_b64       ttmp[14:15], ttmp[14:15], ttmp[14:15]
	s_cbranch_scc0  .Lhalt                          // no queue registered
	s_load_dwordx2  ttmp[14:15], ttmp[14:15], AMD_QUEUE_INACTIVE_SIGNAL glc
	s_waitcnt       lgkmcnt(0)
	s_and_b64       ttmp[14:15], ttmp[14:15], ttmp[14:15]
	s_cbranch_scc0  .Lhalt                          // no error signal
	s_mov_b32       ttmp4, ttmp3
	s_mov_b32       ttmp5, 0
	s_atomic_or_x2  ttmp[4:5], ttmp[14:15], AMD_SIGNAL_VALUE glc
	s_waitcnt       lgkmcnt(0)
	s_or_b32        ttmp4, ttmp4, ttmp5
	s_cbranch_scc1  .Lreported                      // another wave reported first
	s_load_dwordx2  ttmp[4:5], ttmp[14:15], AMD_SIGNAL_MAILBOX glc
	s_waitcnt       lgkmcnt(0)
	s_and_b64       ttmp[4:5], ttmp[4:5], ttmp[4:5]
	s_cbranch_scc0  .Lreported                      // no event: the runtime polls
	s_load_dword    ttmp2, ttmp[14:15], AMD_SIGNAL_EVENT_ID glc
	s_waitcnt       lgkmcnt(0)
	s_store_dword   ttmp2, ttmp[4:5], 0 glc
	s_waitcnt       lgkmcnt(0)
	s_mov_b32       ttmp3, m0
	s_mov_b32       m0, ttmp2                       // the event id: KFD looks it up
	s_nop           0
	s_sendmsg       sendmsg(MSG_INTERRUPT)
	s_mov_b32       m0, ttmp3
.Lreported:
	s_mov_b32       ttmp4, 0
	s_mov_b32       ttmp5, 0
.Lhalt:
	s_bitset1_b32   ttmp12, STATUS_HALT_BIT         // halted from s_rfe_b64 on

.Lreturn:
	s_lshr_b32      ttmp2, ttmp11, IB_STS_SAVE_SHIFT
	s_and_b32       ttmp2, ttmp2, IB_STS_REPLAY_MASK
	s_setreg_b32    hwreg(HW_REG_IB_STS), ttmp2
	s_and_b32       ttmp1, ttmp1, 0xffff            // PC[47:32] only
	s_and_b64       exec, exec, exec                // STATUS.EXECZ, VCCZ: not writable
	s_and_b64       vcc, vcc, vcc
	s_setreg_b32    hwreg(HW_REG_STATUS), ttmp12    // SCC and HALT back
	s_rfe_b64       ttmp[0:1]
