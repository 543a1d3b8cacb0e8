/*
 * The test tool's wrappers (trace_tool.c): stub i counts a call in
 * hl_tt_counts[i] and jumps on to hl_tt_saved[i], the entry it replaced,
 * with the caller's arguments untouched, so one stub fits every function
 * type of the table.  Each stub is 16 bytes: stub i is hl_tt_stubs + 16 * i.
 */
	.text
	.globl hl_tt_stubs
	.hidden hl_tt_stubs
	.hidden hl_tt_counts
	.hidden hl_tt_saved
	.p2align 4
hl_tt_stubs:
	.set i, 0
	.rept 512
	lock incq hl_tt_counts+8*i(%rip)
	jmp *hl_tt_saved+8*i(%rip)
	.byte 0x66, 0x90 /* 8 + 6 + 2 bytes */
	.set i, i+1
	.endr
	.if (. - hl_tt_stubs) - 16 * 512
	.error "a stub is not 16 bytes"
	.endif
	.section .note.GNU-stack,"",@progbits
