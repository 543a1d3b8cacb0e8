/*
 * The AMD PM4-IB vendor packet (AmdFormat 1): an AQL slot carrying a PM4
 * INDIRECT_BUFFER command that makes the CP execute a buffer of PM4
 * packets.  ROCr issues it through AqlQueue::ExecutePM4 (gfx9+ layout:
 * u16 header, u16 format = 1, the 4-dword INDIRECT_BUFFER command at byte
 * 4, dw_count_remain = 10 at byte 20, completion signal at byte 56), e.g.
 * an ACQUIRE_MEM that invalidates the instruction caches after a code
 * object is loaded.
 *
 * PM4 type-3 packets: header bits 31:30 = 3, 29:16 = body dwords - 1,
 * 15:8 = opcode; a type-2 header (0x80000000) is a one-dword filler.
 * INDIRECT_BUFFER: dw1 = base bits 31:2, dw2 = base bits 47:32, dw3 =
 * size in dwords (bits 19:0) | VALID (bit 23).  Inside the buffer the CP
 * model executes what a compute queue's runtime sends:
 *   NOP, ACQUIRE_MEM, EVENT_WRITE  -> a seq_cst fence (data caches are
 *                                     coherent on the host; the fence is
 *                                     the order)
 *   ACQUIRE_MEM with SH_ICACHE_ACTION_ENA (CP_COHER_CNTL, the first body
 *                                     dword on gfx9, bit 29) -> also the
 *                                     device's instruction caches are
 *                                     invalidated: cp->icache_gen is
 *                                     bumped, so emu/isa's cached decodes
 *                                     are not used again (cp_dispatch.c)
 *   WRITE_DATA to memory (DST_SEL 5) -> the dwords are written through
 *                                     the GPU VM
 * Any other opcode, a nested IB or a malformed packet stops the queue with
 * the bad-vendor-packet code (0x100): failing loudly beats ignoring a
 * command whose effect a program waits for.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "cp_priv.h"

#define PM4_TYPE3             3u
#define PM4_NOP               0x10u
#define PM4_WRITE_DATA        0x37u
#define PM4_INDIRECT_BUFFER   0x3Fu
#define PM4_EVENT_WRITE       0x46u
#define PM4_ACQUIRE_MEM       0x58u
#define PM4_COHER_SH_ICACHE   (1u << 29) /* CP_COHER_CNTL.SH_ICACHE_ACTION_ENA */
#define PM4_IB_MAX_DW         (1u << 20)

static int pm4_bad(struct kemu_cp_queue *q, const char *fmt, uint32_t a, uint32_t b)
{
	char what[128];
	snprintf(what, sizeof(what), fmt, a, b);
	kemu_cp_queue_error(q, KEMU_CP_ERR_VENDOR_PACKET, what);
	return -1;
}

/* WRITE_DATA: dw1 control (DST_SEL bits 11:8), dw2-3 address, then data. */
static int pm4_write_data(struct kemu_cp_queue *q, const uint32_t *body, uint32_t n)
{
	if (n < 4 || ((body[0] >> 8) & 0xF) != 5)
		return pm4_bad(q, "PM4 WRITE_DATA with %u dwords / DST_SEL %u", n,
			       (body[0] >> 8) & 0xF);
	uint64_t addr = (uint64_t)body[1] | (uint64_t)body[2] << 32;
	struct kemu_vm_fault_info f;
	atomic_thread_fence(memory_order_seq_cst);
	if (q->hw.vm.ops->write(q->hw.vm.p, q->hw.gpu_id, addr & ~3ull, body + 3, (n - 3) * 4ull, &f)) {
		kemu_cp_queue_fault(q, &f, "PM4 WRITE_DATA");
		return -1;
	}
	return 0;
}

static int pm4_run(struct kemu_cp_queue *q, const uint32_t *ib, uint32_t ndw)
{
	for (uint32_t i = 0; i < ndw;) {
		uint32_t hdr = ib[i];
		if (hdr == 0x80000000u) { /* type-2 filler */
			i++;
			continue;
		}
		if (hdr >> 30 != PM4_TYPE3)
			return pm4_bad(q, "PM4 packet type %u at dword %u", hdr >> 30, i);
		uint32_t count = ((hdr >> 16) & 0x3FFFu) + 1, op = (hdr >> 8) & 0xFFu;
		if (count > ndw - i - 1)
			return pm4_bad(q, "PM4 packet of %u dwords runs past the IB (dword %u)",
				       count, i);
		const uint32_t *body = ib + i + 1;
		switch (op) {
		case PM4_ACQUIRE_MEM:
			/* release: pairs with the acquire load in kemu_cp_dispatch;
			 * code written before this packet (which the runtime
			 * ordered before it) is what a dispatch that sees the new
			 * generation decodes */
			if (body[0] & PM4_COHER_SH_ICACHE)
				atomic_fetch_add_explicit(&q->cp->icache_gen, 1,
							  memory_order_release);
			atomic_thread_fence(memory_order_seq_cst);
			break;
		case PM4_NOP:
		case PM4_EVENT_WRITE:
			atomic_thread_fence(memory_order_seq_cst);
			break;
		case PM4_WRITE_DATA:
			if (pm4_write_data(q, body, count))
				return -1;
			break;
		default:
			return pm4_bad(q, "PM4 opcode 0x%x at dword %u not supported", op, i);
		}
		i += count + 1;
	}
	return 0;
}

int kemu_cp_pm4_ib(struct kemu_cp_queue *q, const uint8_t *pkt)
{
	uint32_t cmd[4];
	memcpy(cmd, pkt + 4, sizeof(cmd));
	uint32_t op = (cmd[0] >> 8) & 0xFFu;
	if (cmd[0] >> 30 != PM4_TYPE3 || op != PM4_INDIRECT_BUFFER)
		return pm4_bad(q, "PM4-IB packet command 0x%x (opcode 0x%x)", cmd[0], op);
	uint64_t base = (uint64_t)(cmd[1] & ~3u) | (uint64_t)(cmd[2] & 0xFFFFu) << 32;
	uint32_t ndw = cmd[3] & 0xFFFFFu;
	if (!(cmd[3] & (1u << 23)) || !ndw)
		return pm4_bad(q, "PM4-IB not valid or empty (dw3 0x%x)%.0u", cmd[3], 0);
	if (ndw > PM4_IB_MAX_DW)
		return pm4_bad(q, "PM4-IB of %u dwords%.0u", ndw, 0);
	struct kemu_vm_fault_info f;
	const uint32_t *ib = kemu_cp_map(q, base, ndw * 4ull, KEMU_ACCESS_READ, &f);
	if (!ib) {
		kemu_cp_queue_fault(q, &f, "PM4 indirect buffer");
		return -1;
	}
	return pm4_run(q, ib, ndw);
}
