/*
 * The SDMA data movers and their GPU memory access.
 *
 * Every address an SDMA packet names is a GPU virtual address in the VM of
 * the queue's process on the queue's device (the RLC queue's VMID), so an
 * unmapped or read-only page is a GPU page fault, never a host crash.  The
 * engine translates through a small per-queue TLB (emu/gpu's struct
 * kemu_gpu_tlb, entries valid for one VM generation: the driver flushes
 * them on any MAP, UNMAP or SVM change, as the UTCL2 caches translations
 * until amdgpu_vm flushes).  An entry covers a whole mapping, so a copy is done
 * in pieces that each lie inside one source and one destination mapping;
 * a copy that runs into an unmapped page faults at that page, after the
 * bytes before it were copied (as the hardware would have moved them).
 *
 * Copies use memmove: the SDMA result of overlapping ranges is undefined,
 * ours is at least a defined one.  The host pointers stay valid while the
 * BO lives, as for the CP; a program that frees memory an
 * engine is still copying is wrong on hardware too.
 *
 * Sizes (vega10_sdma_pkt_open.h; ROCr BlitSdmaV4 and sdma_v4_0's
 * emit_copy_buffer / emit_fill_buffer agree): COPY_LINEAR moves count + 1
 * bytes (a 22-bit count, at most 4 MiB a packet; 30 bits on gfx90a's SDMA
 * 4.4.0, where later ROCr copies up to 1 GiB a packet); CONSTANT_FILL writes
 * elements of 1 << fillsize bytes (the low bytes of the 32-bit data) over
 * count + 1 bytes, rounded down to whole elements, at least one: the
 * kernel's byte_count - 1 with fillsize 0 and ROCr's (dwords - 1) * 4 with
 * fillsize 2 both fill exactly what they mean.  COPY_LINEAR_SUB_WIND copies
 * a (rect_x + 1) x (rect_y + 1) x (rect_z + 1) box of elements of
 * 1 << element bytes; pitch and slice pitch are in elements minus one,
 * offsets in elements, as ROCr's BuildCopyRectCommand encodes them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>

#include "sdma_priv.h"

void *kemu_sdma_map(struct kemu_sdma_queue *q, uint64_t va, unsigned access, uint64_t *avail,
		    struct kemu_vm_fault_info *f)
{
	return kemu_gpu_tlb_lookup(&q->hw.vm, &q->tlb, va, access, avail, f);
}

void *kemu_sdma_map_len(struct kemu_sdma_queue *q, uint64_t va, uint64_t len, unsigned access,
			struct kemu_vm_fault_info *f)
{
	uint64_t avail;
	uint8_t *h = kemu_sdma_map(q, va, access, &avail, f);
	if (h && avail < len) {
		/* the access runs off the end of its mapping */
		*f = (struct kemu_vm_fault_info){ .va = va + avail, .gpu_id = q->hw.gpu_id,
						  .not_present = true };
		return NULL;
	}
	return h;
}

/* Copies len bytes from src to dst (GPU VAs), mapping by mapping.
 * Returns 0, or -1 after raising a VM fault. */
static int sdma_move(struct kemu_sdma_queue *q, uint64_t dst, uint64_t src, uint64_t len,
		     const char *what)
{
	struct kemu_vm_fault_info f;
	while (len) {
		uint64_t savail, davail;
		const uint8_t *s = kemu_sdma_map(q, src, KEMU_ACCESS_READ, &savail, &f);
		if (!s)
			goto fault;
		uint8_t *d = kemu_sdma_map(q, dst, KEMU_ACCESS_WRITE, &davail, &f);
		if (!d)
			goto fault;
		uint64_t n = len < savail ? len : savail;
		n = n < davail ? n : davail;
		memmove(d, s, n);
		src += n;
		dst += n;
		len -= n;
	}
	return 0;
fault:
	kemu_sdma_queue_fault(q, &f, what);
	return -1;
}

int kemu_sdma_copy_linear(struct kemu_sdma_queue *q, const uint32_t *dw)
{
	if (KEMU_SDMA_COPY_BROADCAST(dw[0])) {
		kemu_sdma_queue_error(q, "COPY_LINEAR with broadcast (two destinations) is not "
				      "modelled");
		return -1;
	}
	if (KEMU_SDMA_COPY_SWAPS(dw[2])) {
		kemu_sdma_queue_error(q, "COPY_LINEAR with endian swap (parameter 0x%x) is not "
				      "modelled", dw[2]);
		return -1;
	}
	uint64_t len = (uint64_t)(dw[1] & q->eng->copy_count_mask) + 1;
	uint64_t src = dw[3] | (uint64_t)dw[4] << 32;
	uint64_t dst = dw[5] | (uint64_t)dw[6] << 32;
	return sdma_move(q, dst, src, len, "COPY_LINEAR");
}

int kemu_sdma_copy_sub_window(struct kemu_sdma_queue *q, const uint32_t *dw)
{
	if (KEMU_SDMA_SUBWIN_SWAPS(dw[12])) {
		kemu_sdma_queue_error(q, "COPY_LINEAR_SUB_WIND with endian swap (0x%x) is not "
				      "modelled", dw[12]);
		return -1;
	}
	unsigned elem_log2 = KEMU_SDMA_SUBWIN_ELEMENT(dw[0]);
	if (elem_log2 > 4) {
		kemu_sdma_queue_error(q, "COPY_LINEAR_SUB_WIND element size %u (> 4: 16 bytes) is "
				      "reserved", elem_log2);
		return -1;
	}
	uint64_t esz = 1ull << elem_log2;
	uint64_t src = dw[1] | (uint64_t)dw[2] << 32;
	uint64_t sx = KEMU_SDMA_SUBWIN_X(dw[3]), sy = KEMU_SDMA_SUBWIN_Y(dw[3]);
	uint64_t sz = KEMU_SDMA_SUBWIN_Z(dw[4]);
	uint64_t spitch = (uint64_t)KEMU_SDMA_SUBWIN_PITCH(dw[4]) + 1;
	uint64_t sslice = (uint64_t)KEMU_SDMA_SUBWIN_SLICE(dw[5]) + 1;
	uint64_t dst = dw[6] | (uint64_t)dw[7] << 32;
	uint64_t dx = KEMU_SDMA_SUBWIN_X(dw[8]), dy = KEMU_SDMA_SUBWIN_Y(dw[8]);
	uint64_t dz = KEMU_SDMA_SUBWIN_Z(dw[9]);
	uint64_t dpitch = (uint64_t)KEMU_SDMA_SUBWIN_PITCH(dw[9]) + 1;
	uint64_t dslice = (uint64_t)KEMU_SDMA_SUBWIN_SLICE(dw[10]) + 1;
	uint64_t w = (uint64_t)KEMU_SDMA_SUBWIN_X(dw[11]) + 1;
	uint64_t h = (uint64_t)KEMU_SDMA_SUBWIN_Y(dw[11]) + 1;
	uint64_t d = (uint64_t)KEMU_SDMA_SUBWIN_Z(dw[12]) + 1;
	for (uint64_t z = 0; z < d; z++) {
		for (uint64_t y = 0; y < h; y++) {
			uint64_t s = src + (sx + (sy + y) * spitch + (sz + z) * sslice) * esz;
			uint64_t t = dst + (dx + (dy + y) * dpitch + (dz + z) * dslice) * esz;
			if (sdma_move(q, t, s, w * esz, "COPY_LINEAR_SUB_WIND"))
				return -1;
		}
	}
	return 0;
}

int kemu_sdma_const_fill(struct kemu_sdma_queue *q, const uint32_t *dw)
{
	unsigned size_log2 = KEMU_SDMA_FILL_SIZE(dw[0]);
	if (size_log2 > 2) {
		kemu_sdma_queue_error(q, "CONSTANT_FILL fill size %u is reserved on SDMA 4.x "
				      "(0: byte, 1: word, 2: dword)", size_log2);
		return -1;
	}
	if (KEMU_SDMA_FILL_SW(dw[0])) {
		kemu_sdma_queue_error(q, "CONSTANT_FILL with endian swap %u is not modelled",
				      KEMU_SDMA_FILL_SW(dw[0]));
		return -1;
	}
	uint64_t esz = 1ull << size_log2;
	uint64_t dst = dw[1] | (uint64_t)dw[2] << 32;
	uint32_t data = dw[3];
	uint64_t elems = ((uint64_t)KEMU_SDMA_FILL_COUNT(dw[4]) >> size_log2) + 1;
	uint64_t len = elems * esz;
	uint8_t pattern[4];
	memcpy(pattern, &data, 4); /* little endian: the element is the low bytes */
	uint64_t done = 0; /* bytes written, a multiple of esz */
	while (done < len) {
		struct kemu_vm_fault_info f;
		uint64_t avail;
		uint8_t *h = kemu_sdma_map(q, dst + done, KEMU_ACCESS_WRITE, &avail, &f);
		if (!h) {
			kemu_sdma_queue_fault(q, &f, "CONSTANT_FILL");
			return -1;
		}
		uint64_t n = len - done < avail ? len - done : avail;
		if (esz == 1 || data == 0) {
			memset(h, esz == 1 ? pattern[0] : 0, n);
		} else {
			/* the element pattern continues across mapping pieces:
			 * a block starting at this piece's phase (256 is a
			 * multiple of every element size) */
			uint8_t block[256];
			for (unsigned i = 0; i < sizeof(block); i++)
				block[i] = pattern[(done + i) & (esz - 1)];
			for (uint64_t off = 0; off < n; off += sizeof(block)) {
				uint64_t m = n - off < sizeof(block) ? n - off : sizeof(block);
				memcpy(h + off, block, m);
			}
		}
		done += n;
	}
	return 0;
}
