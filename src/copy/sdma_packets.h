/*
 * SDMA 4.x packet encodings (gfx9: Vega10 through Aldebaran and gfx 9.4.x),
 * written from the field layouts of the kernel's sdma_v4_0 packet header
 * (vega10_sdma_pkt_open.h) and ROCr 5.2.3's sdma_registers.h.  Every packet
 * is a sequence of little-endian dwords; dword 0 holds op (bits 7:0) and
 * sub_op (15:8) and per-packet fields above.
 *
 *   COPY_LINEAR     7 dw: hdr(op 1, sub 0), count = bytes - 1 (21:0, at most
 *                   0x3fffe0 bytes per packet as ROCr splits), parameter
 *                   (swaps: 0), src lo, src hi, dst lo, dst hi
 *   COPY_LINEAR_SUB_WIND 13 dw: hdr(op 1, sub 4, element log2 size 31:29),
 *                   src lo, src hi, src offset_x (13:0) | offset_y (29:16),
 *                   src offset_z (10:0) | pitch - 1 (31:13, in elements),
 *                   src slice pitch - 1 (27:0), dst lo, dst hi, the dst's
 *                   three parameter dwords likewise, rect_x - 1 (13:0) |
 *                   rect_y - 1 (29:16), rect_z - 1 (10:0) (swaps 0)
 *   FENCE           4 dw: hdr(op 5), addr lo, addr hi, data (32-bit store)
 *   TRAP            2 dw: hdr(op 6), int_context (27:0)
 *   POLL_REGMEM     6 dw: hdr(op 8, func 30:28, mem_poll bit 31), addr lo,
 *                   addr hi, reference, mask, interval (15:0) | retry_count
 *                   (27:16; 0xfff: forever)
 *   ATOMIC          8 dw: hdr(op 10, loop bit 16, operation 31:25), addr lo,
 *                   addr hi, src lo, src hi, cmp lo, cmp hi, loop interval
 *   TIMESTAMP       3 dw: hdr(op 13, sub 2 = GET_GLOBAL), addr lo, addr hi
 *                   (the 64-bit GPU clock; the address 32-byte aligned)
 *   NOP             a zero dword is a one-dword NOP (ROCr pads the ring's
 *                   end with zeros)
 */
#ifndef HSALITE_COPY_SDMA_PACKETS_H
#define HSALITE_COPY_SDMA_PACKETS_H

#include <stdint.h>

#define SDMA_OP_NOP         0u
#define SDMA_OP_COPY        1u
#define SDMA_OP_FENCE       5u
#define SDMA_OP_TRAP        6u
#define SDMA_OP_POLL_REGMEM 8u
#define SDMA_OP_ATOMIC      10u
#define SDMA_OP_TIMESTAMP   13u

#define SDMA_SUB_COPY_LINEAR          0u
#define SDMA_SUB_COPY_LINEAR_SUB_WIND 4u
#define SDMA_SUB_TIMESTAMP_GET_GLOBAL 2u

#define SDMA_POLL_FUNC_EQ     3u
#define SDMA_POLL_RETRY_FOREVER 0xfffu
#define SDMA_ATOMIC_ADD64     47u

#define SDMA_COPY_MAX         0x3fffe0u   /* bytes per COPY_LINEAR (ROCr's) */

#define SDMA_DW_COPY_LINEAR 7u
#define SDMA_DW_COPY_RECT   13u
#define SDMA_DW_FENCE       4u
#define SDMA_DW_TRAP        2u
#define SDMA_DW_POLL        6u
#define SDMA_DW_ATOMIC      8u
#define SDMA_DW_TIMESTAMP   3u

static inline uint32_t sdma_hdr(uint32_t op, uint32_t sub)
{
	return op | sub << 8;
}

static inline uint32_t *sdma_copy_linear(uint32_t *p, uint64_t dst, uint64_t src, uint32_t bytes)
{
	p[0] = sdma_hdr(SDMA_OP_COPY, SDMA_SUB_COPY_LINEAR);
	p[1] = (bytes - 1) & 0x3fffffu;
	p[2] = 0;
	p[3] = (uint32_t)src;
	p[4] = (uint32_t)(src >> 32);
	p[5] = (uint32_t)dst;
	p[6] = (uint32_t)(dst >> 32);
	return p + SDMA_DW_COPY_LINEAR;
}

/* A box of (x+1) x (y+1) x (z+1) elements of 1 << e bytes; bases dword
 * aligned, offset_x in elements, pitches and slices in elements - 1. */
static inline uint32_t *sdma_copy_rect(uint32_t *p, unsigned e, uint64_t src, uint32_t src_x,
				       uint32_t src_pitch, uint32_t src_slice, uint64_t dst,
				       uint32_t dst_x, uint32_t dst_pitch, uint32_t dst_slice,
				       uint32_t x, uint32_t y, uint32_t z)
{
	p[0] = sdma_hdr(SDMA_OP_COPY, SDMA_SUB_COPY_LINEAR_SUB_WIND) | (e & 7u) << 29;
	p[1] = (uint32_t)src;
	p[2] = (uint32_t)(src >> 32);
	p[3] = src_x & 0x3fffu;
	p[4] = (src_pitch & 0x7ffffu) << 13;
	p[5] = src_slice & 0xfffffffu;
	p[6] = (uint32_t)dst;
	p[7] = (uint32_t)(dst >> 32);
	p[8] = dst_x & 0x3fffu;
	p[9] = (dst_pitch & 0x7ffffu) << 13;
	p[10] = dst_slice & 0xfffffffu;
	p[11] = (x & 0x3fffu) | (y & 0x3fffu) << 16;
	p[12] = z & 0x7ffu;
	return p + SDMA_DW_COPY_RECT;
}

static inline uint32_t *sdma_fence(uint32_t *p, uint64_t addr, uint32_t data)
{
	p[0] = sdma_hdr(SDMA_OP_FENCE, 0);
	p[1] = (uint32_t)addr;
	p[2] = (uint32_t)(addr >> 32);
	p[3] = data;
	return p + SDMA_DW_FENCE;
}

static inline uint32_t *sdma_trap(uint32_t *p, uint32_t int_context)
{
	p[0] = sdma_hdr(SDMA_OP_TRAP, 0);
	p[1] = int_context & 0x0fffffffu;
	return p + SDMA_DW_TRAP;
}

/* ROCr's SDMA_PKT_HDP_FLUSH (sdma_registers.h, gfx9 SDMA microcode 0x1A5
 * on): POLL_REGMEM of no register, func "always", bit 31 of the high
 * address dword; the engine flushes the HDP, so the CPU's stores through
 * the BAR to VRAM before the submission are visible to the copy. */
static inline uint32_t *sdma_hdp_flush(uint32_t *p)
{
	p[0] = sdma_hdr(SDMA_OP_POLL_REGMEM, 0);
	p[1] = 0;
	p[2] = 0x80000000u;
	p[3] = 0;
	p[4] = 0;
	p[5] = 0;
	return p + SDMA_DW_POLL;
}

/* Waits until the dword at addr equals reference. */
static inline uint32_t *sdma_poll_eq(uint32_t *p, uint64_t addr, uint32_t reference)
{
	p[0] = sdma_hdr(SDMA_OP_POLL_REGMEM, 0) | SDMA_POLL_FUNC_EQ << 28 | 1u << 31;
	p[1] = (uint32_t)addr;
	p[2] = (uint32_t)(addr >> 32);
	p[3] = reference;
	p[4] = 0xffffffffu;
	p[5] = 0x4u | SDMA_POLL_RETRY_FOREVER << 16;
	return p + SDMA_DW_POLL;
}

/* *addr += value (64-bit, no return). */
static inline uint32_t *sdma_atomic_add64(uint32_t *p, uint64_t addr, uint64_t value)
{
	p[0] = sdma_hdr(SDMA_OP_ATOMIC, 0) | SDMA_ATOMIC_ADD64 << 25;
	p[1] = (uint32_t)addr;
	p[2] = (uint32_t)(addr >> 32);
	p[3] = (uint32_t)value;
	p[4] = (uint32_t)(value >> 32);
	p[5] = 0;
	p[6] = 0;
	p[7] = 0;
	return p + SDMA_DW_ATOMIC;
}

static inline uint32_t *sdma_timestamp(uint32_t *p, uint64_t addr)
{
	p[0] = sdma_hdr(SDMA_OP_TIMESTAMP, SDMA_SUB_TIMESTAMP_GET_GLOBAL);
	p[1] = (uint32_t)addr;
	p[2] = (uint32_t)(addr >> 32);
	return p + SDMA_DW_TIMESTAMP;
}

#endif
