/*
 * isa_exec_flat.c — vector memory through FLAT, GLOBAL and SCRATCH
 * (one encoding, SEG selects) and MUBUF (buffer_* with a resource
 * descriptor), CDNA2/CDNA3 ISA guides "Flat Memory Instructions" and
 * "Vector Memory Buffer Instructions".
 *
 * Addresses:
 *  - GLOBAL: SADDR (SGPR pair) + zero-extended 32-bit VADDR, or, with
 *    SADDR = off (0x7f), the 64-bit VADDR pair; plus the 13-bit signed
 *    offset.  FLAT: 64-bit VADDR + 12-bit unsigned offset.
 *  - FLAT addresses inside the LDS aperture [shared_base, +4 GiB) go to
 *    this workgroup's LDS and those inside the private aperture
 *    [private_base, +4 GiB) to the lane's scratch; the rest are global.
 *  - SCRATCH: a per-lane private offset (SADDR and/or VADDR + offset).
 *  - private memory is interleaved per lane: private dword d of lane l is
 *    at wave_base + d * 256 + l * 4 (the swizzle of the scratch SRD:
 *    ELEMENT_SIZE 4 bytes, INDEX_STRIDE 64, ADD_TID), so buffer, scratch
 *    and flat accesses to the same private address meet.  The wave base
 *    is FLAT_SCRATCH for scratch_/flat (gfx90a kernels set it in their
 *    prologue; gfx942 has it from the hardware).
 * gfx942's global_/scratch_load_lds_*, gfx90a's global_/scratch loads
 * with the LDS bit (exec_flat_lds) and the MUBUF loads with the LDS bit
 * (exec_mubuf, MB_LDS) load into the LDS.
 * Atomics return the old value when GLC (SC0 on gfx942) is set and are
 * done with host atomics, as other workgroups may run on other threads.
 * Loads and stores to misaligned addresses are allowed (unaligned access
 * mode, as ROCm sets SH_MEM_CONFIG); atomics must be naturally aligned.
 */
#include "amd/gfx9_desc.h"
#include "isa_float.h"
#include "isa_priv.h"

#define FL_GLC 1
#define FL_SADDR 2      /* SADDR is used */
#define FL_VADDR 4      /* VADDR is used */
#define FL_ATOMIC_RET 8

enum mem_kind {
	MK_LOAD, MK_STORE, MK_ATOMIC,
};

struct mem_op {
	uint8_t kind;
	uint8_t bytes;          /* per element */
	uint8_t dwords;         /* register dwords */
	uint8_t sext;           /* load: sign-extend sub-dword */
	uint8_t d16;            /* 1: low half, 2: high half (d16 loads/stores) */
	uint8_t aop;            /* atomic op */
};

enum aop {
	A_SWAP, A_CMPSWAP, A_ADD, A_SUB, A_SMIN, A_UMIN, A_SMAX, A_UMAX, A_AND, A_OR, A_XOR,
	A_INC, A_DEC, A_FADD, A_FMIN, A_FMAX, A_PK_FADD16, A_PK_BF16ADD,
};

/* Decode table shared by FLAT/GLOBAL/SCRATCH (op 0x10-0x25 loads/stores,
 * 0x40-0x6c atomics) and MUBUF (different numbering, mapped below). */
static bool flat_op(unsigned op, struct mem_op *m)
{
	memset(m, 0, sizeof(*m));
	switch (op) {
	case 0x10: m->bytes = 1; m->dwords = 1; return true;                    /* ubyte */
	case 0x11: m->bytes = 1; m->dwords = 1; m->sext = 1; return true;       /* sbyte */
	case 0x12: m->bytes = 2; m->dwords = 1; return true;                    /* ushort */
	case 0x13: m->bytes = 2; m->dwords = 1; m->sext = 1; return true;       /* sshort */
	case 0x14: m->bytes = 4; m->dwords = 1; return true;
	case 0x15: m->bytes = 8; m->dwords = 2; return true;
	case 0x16: m->bytes = 12; m->dwords = 3; return true;
	case 0x17: m->bytes = 16; m->dwords = 4; return true;
	case 0x18: m->kind = MK_STORE; m->bytes = 1; m->dwords = 1; return true;
	case 0x19: m->kind = MK_STORE; m->bytes = 1; m->dwords = 1; m->d16 = 2; return true;
	case 0x1a: m->kind = MK_STORE; m->bytes = 2; m->dwords = 1; return true;
	case 0x1b: m->kind = MK_STORE; m->bytes = 2; m->dwords = 1; m->d16 = 2; return true;
	case 0x1c: m->kind = MK_STORE; m->bytes = 4; m->dwords = 1; return true;
	case 0x1d: m->kind = MK_STORE; m->bytes = 8; m->dwords = 2; return true;
	case 0x1e: m->kind = MK_STORE; m->bytes = 12; m->dwords = 3; return true;
	case 0x1f: m->kind = MK_STORE; m->bytes = 16; m->dwords = 4; return true;
	case 0x20: m->bytes = 1; m->dwords = 1; m->d16 = 1; return true;         /* ubyte_d16 */
	case 0x21: m->bytes = 1; m->dwords = 1; m->d16 = 2; return true;
	case 0x22: m->bytes = 1; m->dwords = 1; m->d16 = 1; m->sext = 1; return true;
	case 0x23: m->bytes = 1; m->dwords = 1; m->d16 = 2; m->sext = 1; return true;
	case 0x24: m->bytes = 2; m->dwords = 1; m->d16 = 1; return true;
	case 0x25: m->bytes = 2; m->dwords = 1; m->d16 = 2; return true;
	default:
		break;
	}
	if (op >= 0x40 && op <= 0x4c) {
		m->kind = MK_ATOMIC;
		m->bytes = 4;
		m->dwords = 1;
		m->aop = (uint8_t)(op - 0x40);
		return true;
	}
	if (op == 0x4d) { m->kind = MK_ATOMIC; m->bytes = 4; m->dwords = 1; m->aop = A_FADD; return true; }
	if (op == 0x4e) { m->kind = MK_ATOMIC; m->bytes = 4; m->dwords = 1; m->aop = A_PK_FADD16; return true; }
	/* gfx942 FLAT/GLOBAL only (the decoders check) */
	if (op == 0x52) { m->kind = MK_ATOMIC; m->bytes = 4; m->dwords = 1; m->aop = A_PK_BF16ADD; return true; }
	if (op >= 0x4f && op <= 0x51) {
		m->kind = MK_ATOMIC; m->bytes = 8; m->dwords = 2;
		m->aop = op == 0x4f ? A_FADD : op == 0x50 ? A_FMIN : A_FMAX;
		return true;
	}
	if (op >= 0x60 && op <= 0x6c) {
		m->kind = MK_ATOMIC;
		m->bytes = 8;
		m->dwords = 2;
		m->aop = (uint8_t)(op - 0x60);
		return true;
	}
	return false;
}

/* ---- atomics on host memory ---- */

/* The new memory value of atomic aop from the old one (v: the data, cmp:
 * the compare value of cmpswap).  Shared by the host atomics below and
 * the plain read-modify-write of LDS and private memory. */
static inline uint32_t aop_new32(unsigned aop, uint32_t old, uint32_t v, uint32_t cmp)
{
	switch (aop) {
	case A_SWAP: return v;
	case A_ADD: return old + v;
	case A_SUB: return old - v;
	case A_AND: return old & v;
	case A_OR: return old | v;
	case A_XOR: return old ^ v;
	case A_CMPSWAP: return old == cmp ? v : old;
	case A_SMIN: return (int32_t)v < (int32_t)old ? v : old;
	case A_UMIN: return v < old ? v : old;
	case A_SMAX: return (int32_t)v > (int32_t)old ? v : old;
	case A_UMAX: return v > old ? v : old;
	case A_INC: return old >= v ? 0 : old + 1;      /* wrap at v */
	case A_DEC: return (old == 0 || old > v) ? v : old - 1;
	case A_FADD: return u32_of(f32_of(old) + f32_of(v));
	case A_PK_FADD16: {
		float lo = f16_to_f32((uint16_t)old) + f16_to_f32((uint16_t)v);
		float hi = f16_to_f32((uint16_t)(old >> 16)) + f16_to_f32((uint16_t)(v >> 16));
		return f32_to_f16(lo) | ((uint32_t)f32_to_f16(hi) << 16);
	}
	case A_PK_BF16ADD: /* per half: the f32 sum (exact where it matters), to bf16 by nearest even */
		return kemu_isa_bf16_of(f32_of(old << 16) + f32_of(v << 16)) |
		       ((uint32_t)kemu_isa_bf16_of(f32_of(old & 0xffff0000u) + f32_of(v & 0xffff0000u)) << 16);
	default: return old;
	}
}

static inline uint64_t aop_new64(unsigned aop, uint64_t old, uint64_t v, uint64_t cmp)
{
	switch (aop) {
	case A_SWAP: return v;
	case A_ADD: return old + v;
	case A_SUB: return old - v;
	case A_AND: return old & v;
	case A_OR: return old | v;
	case A_XOR: return old ^ v;
	case A_CMPSWAP: return old == cmp ? v : old;
	case A_SMIN: return (int64_t)v < (int64_t)old ? v : old;
	case A_UMIN: return v < old ? v : old;
	case A_SMAX: return (int64_t)v > (int64_t)old ? v : old;
	case A_UMAX: return v > old ? v : old;
	case A_INC: return old >= v ? 0 : old + 1;
	case A_DEC: return (old == 0 || old > v) ? v : old - 1;
	case A_FADD: return u64_of(f64_of(old) + f64_of(v));
	case A_FMIN: return f64_of(v) < f64_of(old) || isnan(f64_of(old)) ? v : old;
	case A_FMAX: return f64_of(v) > f64_of(old) || isnan(f64_of(old)) ? v : old;
	default: return old;
	}
}

static uint32_t atomic32(uint32_t *p, unsigned aop, uint32_t v, uint32_t cmp)
{
	uint32_t old;

	switch (aop) {
	case A_SWAP: return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST);
	case A_ADD: return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);
	case A_SUB: return __atomic_fetch_sub(p, v, __ATOMIC_SEQ_CST);
	case A_AND: return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST);
	case A_OR: return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST);
	case A_XOR: return __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST);
	default:
		break;
	}
	old = __atomic_load_n(p, __ATOMIC_SEQ_CST);
	for (;;) {
		if (aop == A_CMPSWAP && old != cmp)
			return old;
		if (__atomic_compare_exchange_n(p, &old, aop_new32(aop, old, v, cmp), false,
						__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
			return old;
	}
}

static uint64_t atomic64(uint64_t *p, unsigned aop, uint64_t v, uint64_t cmp)
{
	uint64_t old;

	switch (aop) {
	case A_SWAP: return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST);
	case A_ADD: return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);
	case A_SUB: return __atomic_fetch_sub(p, v, __ATOMIC_SEQ_CST);
	case A_AND: return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST);
	case A_OR: return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST);
	case A_XOR: return __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST);
	default:
		break;
	}
	old = __atomic_load_n(p, __ATOMIC_SEQ_CST);
	for (;;) {
		if (aop == A_CMPSWAP && old != cmp)
			return old;
		if (__atomic_compare_exchange_n(p, &old, aop_new64(aop, old, v, cmp), false,
						__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
			return old;
	}
}

/* The same atomics for the scalar unit (isa_exec_smem.c): p is host
 * memory shared with other waves, bytes 4 or 8, aop the FLAT numbering
 * (0 swap .. 12 dec); returns the old value. */
uint64_t kemu_isa_mem_atomic(void *p, unsigned bytes, unsigned aop, uint64_t v, uint64_t cmp);
uint64_t kemu_isa_mem_atomic(void *p, unsigned bytes, unsigned aop, uint64_t v, uint64_t cmp)
{
	if (bytes == 4)
		return atomic32(p, aop, (uint32_t)v, (uint32_t)cmp);
	return atomic64(p, aop, v, cmp);
}

/* Same semantics on LDS (one host thread per workgroup: no host atomics,
 * a plain read-modify-write). */
uint64_t kemu_isa_lds_atomic(uint8_t *p, unsigned bytes, unsigned aop, uint64_t v, uint64_t cmp);
uint64_t kemu_isa_lds_atomic(uint8_t *p, unsigned bytes, unsigned aop, uint64_t v, uint64_t cmp)
{
	if (bytes == 4) {
		uint32_t old, nw;
		memcpy(&old, p, 4);
		nw = aop_new32(aop, old, (uint32_t)v, (uint32_t)cmp);
		memcpy(p, &nw, 4);
		return old;
	} else {
		uint64_t old, nw;
		memcpy(&old, p, 8);
		nw = aop_new64(aop, old, v, cmp);
		memcpy(p, &nw, 8);
		return old;
	}
}

/* ---- per-lane access through the three address spaces ---- */

enum space { SP_GLOBAL, SP_LDS, SP_PRIVATE };

static uint64_t flat_scratch_base(const struct isa_wave *w)
{
	return (uint64_t)w->s[ISA_REG_FLAT_SCR_LO] | ((uint64_t)w->s[ISA_REG_FLAT_SCR_LO + 1] << 32);
}

/* VA of byte `off` of lane `lane`'s private memory. */
static inline uint64_t private_va(uint64_t base, unsigned lane, uint32_t off)
{
	return base + (uint64_t)(off >> 2) * 256 + lane * 4u + (off & 3);
}

/* Read/write n bytes of private memory (dword interleaved). */
static int private_rw(struct isa_wave *w, const struct isa_inst *in, uint64_t base,
		      unsigned lane, uint32_t off, uint8_t *buf, unsigned n, bool write)
{
	while (n) {
		unsigned chunk = 4 - (off & 3);
		uint64_t va;
		if (chunk > n)
			chunk = n;
		if ((uint64_t)off + chunk > (uint64_t)w->scratch_bytes / ISA_LANES)
			return isa_fault(w, in, private_va(base, lane, off),
					 write ? KEMU_ISA_ACCESS_WRITE : KEMU_ISA_ACCESS_READ);
		va = private_va(base, lane, off);
		if (write ? isa_mem_write(w, in, va, buf, chunk) : isa_mem_read(w, in, va, buf, chunk))
			return -1;
		buf += chunk;
		off += chunk;
		n -= chunk;
	}
	return 0;
}

/* Access one lane; data is the register dwords (in/out). */
static int lane_access(struct isa_wave *w, const struct isa_inst *in, const struct mem_op *m,
		       enum space sp, uint64_t addr, unsigned lane, uint32_t *data,
		       const uint32_t *cmp, uint64_t pbase)
{
	uint8_t buf[16];
	unsigned n = m->bytes;

	if (m->kind == MK_ATOMIC) {
		uint64_t v = m->bytes == 8 ? (data[0] | (uint64_t)data[1] << 32) : data[0];
		uint64_t c = cmp ? (m->bytes == 8 ? (cmp[0] | (uint64_t)cmp[1] << 32) : cmp[0]) : 0;
		uint64_t old;
		if (sp == SP_LDS) {
			uint32_t a = (uint32_t)addr;
			if ((uint64_t)a + n > w->wg->lds_size)
				return isa_fail(w, in, KEMU_ISA_ERR_LDS_RANGE,
						"flat atomic to LDS offset 0x%x outside the %u bytes",
						a, w->wg->lds_size);
			old = kemu_isa_lds_atomic(w->wg->lds + a, n, m->aop, v, c);
		} else if (sp == SP_PRIVATE) {
			/* private memory belongs to this lane: plain read-modify-write */
			uint8_t t[8];
			if (private_rw(w, in, pbase, lane, (uint32_t)addr, t, n, false))
				return -1;
			old = kemu_isa_lds_atomic(t, n, m->aop, v, c);
			if (private_rw(w, in, pbase, lane, (uint32_t)addr, t, n, true))
				return -1;
		} else {
			void *h;
			if (addr & (n - 1))
				return isa_fault(w, in, addr, KEMU_ISA_ACCESS_ATOMIC);
			h = isa_mem_map(w, in, addr, n, KEMU_ISA_ACCESS_READ | KEMU_ISA_ACCESS_WRITE |
							 KEMU_ISA_ACCESS_ATOMIC);
			if (!h)
				return -1;
			old = n == 8 ? atomic64(h, m->aop, v, c) : atomic32(h, m->aop, (uint32_t)v, (uint32_t)c);
		}
		data[0] = (uint32_t)old;
		if (n == 8)
			data[1] = (uint32_t)(old >> 32);
		return 0;
	}
	if (m->kind == MK_STORE) {
		if (m->bytes >= 4) {
			memcpy(buf, data, n);
		} else {
			uint32_t v = m->d16 == 2 ? data[0] >> 16 : data[0];
			memcpy(buf, &v, n);
		}
	}
	switch (sp) {
	case SP_LDS: {
		uint32_t a = (uint32_t)addr;
		if ((uint64_t)a + n > w->wg->lds_size) {
			/* out of range: reads return 0, writes are dropped */
			if (m->kind == MK_LOAD)
				memset(buf, 0, n);
		} else if (m->kind == MK_STORE) {
			memcpy(w->wg->lds + a, buf, n);
		} else {
			memcpy(buf, w->wg->lds + a, n);
		}
		break;
	}
	case SP_PRIVATE:
		if (private_rw(w, in, pbase, lane, (uint32_t)addr, buf, n, m->kind == MK_STORE))
			return -1;
		break;
	default:
		if (m->kind == MK_STORE ? isa_mem_write(w, in, addr, buf, n)
					: isa_mem_read(w, in, addr, buf, n))
			return -1;
		break;
	}
	if (m->kind == MK_LOAD) {
		if (m->bytes >= 4) {
			memcpy(data, buf, n);
		} else {
			uint32_t v = m->bytes == 1 ? buf[0] : (uint32_t)(buf[0] | buf[1] << 8);
			if (m->sext)
				v = m->bytes == 1 ? (uint32_t)(int32_t)(int8_t)v
						  : (uint32_t)(int32_t)(int16_t)v;
			if (m->d16 == 1)
				v = (data[0] & 0xffff0000u) | (v & 0xffff);
			else if (m->d16 == 2)
				v = (data[0] & 0xffff) | (v << 16);
			data[0] = v;
		}
	}
	return 0;
}

/* Consecutive elements, told from the address rows in 32-bit lanes before
 * any 64-bit address is made: every group of 16 lanes on consecutive
 * elements (lane 16g + j at the group's first address + j * bytes: the
 * low dwords without a carry out of them, the high dwords, without SADDR,
 * all the group's first one).  The whole wave so (a vector's load or
 * store) is one span and a block copy per register (one dword per
 * element) or the elements split into the rows; groups that are not one
 * run (a tile's rows) are a span and a 64-byte copy each, for one dword
 * per element.  Every span is found before anything is copied, and the
 * groups are copied in lane order (a later lane's store wins).  False,
 * having done nothing, when the addresses are not so or a span is not
 * one host range (exec_global_dwords decides). */
static inline __attribute__((always_inline)) bool
global_seq(struct isa_wave *w, const struct isa_inst *in, const struct mem_op *m, uint64_t sbase)
{
	const uint32_t *alo = isa_vrow(w, in->addr_reg), *ahi = isa_vrow(w, in->addr_reg + 1u);
	uint32_t b = m->bytes, nd = m->dwords, base[4], hib[4];
	bool sa = in->flags & FL_SADDR, store = m->kind == MK_STORE, whole = true;
	unsigned access = store ? KEMU_ISA_ACCESS_WRITE : KEMU_ISA_ACCESS_READ;
	const isa_u32x8 step = (isa_u32x8){ 0, 1, 2, 3, 4, 5, 6, 7 } * b;
	isa_u32x8 d = { 0 };
	uint64_t off = (uint64_t)(int64_t)in->offset;
	uint8_t *h, *hg[4];

	bool carry = false;

	/* branch-free: the tests are combined, then decided once */
	for (unsigned g = 0; g < 4; g++) {
		const uint32_t *lo = alo + 16 * g, *hi = ahi + 16 * g;
		isa_u32x8 e = step + (base[g] = lo[0]);
		carry |= base[g] > UINT32_MAX - 15 * b;
		d |= (*(const isa_u32x8 *)lo ^ e) | (*(const isa_u32x8 *)(lo + 8) ^ (e + 8 * b));
		hib[g] = sa ? 0 : hi[0];
		if (!sa)
			d |= (*(const isa_u32x8 *)hi ^ hib[g]) | (*(const isa_u32x8 *)(hi + 8) ^ hib[g]);
		if (g)
			whole &= (base[g] - base[0] == 16 * g * b) & (base[g] > base[0]) &
				 (hib[g] == hib[0]);
	}
	if (carry || isa_any32x8(&d))
		return false;
	if (!whole) {
		if (nd != 1)
			return false;
		for (unsigned g = 0; g < 4; g++) {
			uint64_t va = (sa ? sbase + base[g] : (base[g] | (uint64_t)hib[g] << 32)) + off;
			hg[g] = isa_mem_span(w, va, 64, ~0u, access);
			if (!hg[g])
				return false;
		}
		for (unsigned g = 0; g < 4; g++) {
			uint32_t *row = isa_vrow(w, store ? in->data_reg : in->dst) + 16 * g;
			if (store)
				memcpy(hg[g], row, 64);
			else
				memcpy(row, hg[g], 64);
		}
		return true;
	}
	h = isa_mem_span(w, (sa ? sbase + base[0] : (base[0] | (uint64_t)hib[0] << 32)) + off,
			 (uint64_t)ISA_LANES * b, ~0u, access);
	if (!h)
		return false;
	if (nd == 1) {
		uint32_t *row = isa_vrow(w, store ? in->data_reg : in->dst);
		if (store)
			memcpy(h, row, 256);
		else
			memcpy(row, h, 256);
		return true;
	}
	/* locals only in the loops (a 4-byte copy may alias anything) */
	for (unsigned i = 0; i < nd; i++) {
		uint32_t *row = isa_vrow(w, (store ? in->data_reg : in->dst) + i);
		uint8_t *hi = h + 4 * i;
		for (unsigned l = 0; l < ISA_LANES; l++) {
			if (store)
				memcpy(hi + (size_t)l * b, &row[l], 4);
			else
				memcpy(&row[l], hi + (size_t)l * b, 4);
		}
	}
	return true;
}

/* Fast path for the common case: GLOBAL loads/stores of whole dwords.
 * When the active lanes' accesses lie in one host span (isa_mem_span:
 * every page fully mapped, contiguous on the host) each lane is a plain
 * copy, and a full wave of consecutive elements one copy per register;
 * otherwise a page is translated once and reused by the lanes that hit
 * it, and a lane whose access crosses a page, or whose page is only
 * partly mapped, takes the general path (lane_access), which faults at
 * the first bad address.  Stores go in lane order (the last lane wins). */
ISA_HOT static int exec_global_dwords(struct isa_wave *w, const struct isa_inst *in,
				      const struct mem_op *m)
{
	uint64_t exec = isa_exec(w), page = 1, sbase = 0;
	uint8_t *host = NULL;
	unsigned nd = m->dwords, access = m->kind == MK_STORE ? KEMU_ISA_ACCESS_WRITE
							     : KEMU_ISA_ACCESS_READ;
	const uint32_t *alo = isa_vrow(w, in->addr_reg), *ahi = isa_vrow(w, in->addr_reg + 1u);
	bool sa = in->flags & FL_SADDR, full = exec == ~0ull;
	uint64_t va[ISA_LANES], lo = UINT64_MAX, hi = 0, off = (uint64_t)(int64_t)in->offset;
	uint64_t seq = 0;
	uint8_t *h;

	if (!exec)
		return ISA_STEP_NEXT;
	if (sa)
		sbase = isa_sreg64(w, in->saddr);
	if (full && global_seq(w, in, m, sbase))
		return ISA_STEP_NEXT;
	/* branch-free lane loops (vectorised): addresses, their range over
	 * the active lanes, and whether they are consecutive elements */
	if (sa) {
		for (unsigned l = 0; l < ISA_LANES; l++)
			va[l] = sbase + alo[l] + off;
	} else {
		for (unsigned l = 0; l < ISA_LANES; l++)
			va[l] = ((uint64_t)alo[l] | ((uint64_t)ahi[l] << 32)) + off;
	}
	for (unsigned l = 0; l < ISA_LANES; l++)
		seq |= va[l] ^ (va[0] + (uint64_t)l * m->bytes);
	if (full && !seq) {
		/* consecutive elements: the range without a pass (a wrap
		 * makes hi - lo huge: lane by lane below) */
		lo = va[0];
		hi = va[ISA_LANES - 1];
	} else {
		for (unsigned l = 0; l < ISA_LANES; l++) {
			uint64_t on = full ? ~0ull : 0ull - (exec >> l & 1);
			uint64_t x = va[l] | ~on, y = va[l] & on;
			lo = x < lo ? x : lo;
			hi = y > hi ? y : hi;
		}
	}
	h = NULL;
	if (hi - lo < (uint64_t)ISA_SPAN_PAGES * 4096) {
		/* the pages the lanes touch (all of them when consecutive) */
		uint32_t touched = ~0u;
		if (!full || seq) {
			uint64_t p0 = lo >> 12;
			touched = 0;
			for (unsigned l = 0; l < ISA_LANES; l++) {
				/* an inactive lane counts as the first one (its
				 * address may be anywhere) */
				uint64_t a = (full || (exec >> l & 1)) ? va[l] : lo;
				touched |= (1u << ((a >> 12) - p0)) |
					   (1u << (((a + m->bytes - 1) >> 12) - p0));
			}
		}
		h = isa_mem_span(w, lo, hi - lo + m->bytes, touched, access);
	}
	if (h) {
		/* locals only in the lane loops: a lane's copy may alias
		 * anything (memcpy), so a field read there is reloaded per lane */
		bool store = m->kind == MK_STORE;
		uint32_t boff[ISA_LANES];
		if (full && !seq && nd == 1) {
			uint32_t *row = isa_vrow(w, store ? in->data_reg : in->dst);
			if (store)
				memcpy(h, row, 256);
			else
				memcpy(row, h, 256);
			return ISA_STEP_NEXT;
		}
		for (unsigned l = 0; l < ISA_LANES; l++) /* within 16 pages */
			boff[l] = (uint32_t)(va[l] - lo);
		for (unsigned i = 0; i < nd && !(store && nd > 1); i++) {
			/* (multi-dword stores: lane by lane below) */
			uint32_t *row = isa_vrow(w, (store ? in->data_reg : in->dst) + i);
			uint8_t *hi4 = h + 4 * i;
			if (full && !store) {
				for (unsigned l = 0; l < ISA_LANES; l++) {
					uint32_t v;
					memcpy(&v, hi4 + boff[l], 4);
					row[l] = v;
				}
				continue;
			}
			for (unsigned l = 0; l < ISA_LANES; l++) {
				if (!full && !(exec >> l & 1))
					continue;
				if (store)
					memcpy(hi4 + boff[l], &row[l], 4);
				else
					memcpy(&row[l], hi4 + boff[l], 4);
			}
		}
		if (store && nd > 1) {
			for (unsigned l = 0; l < ISA_LANES; l++) {
				if (!(exec >> l & 1))
					continue;
				for (unsigned i = 0; i < nd; i++)
					memcpy(h + (va[l] - lo) + 4 * i,
					       &isa_vrow(w, in->data_reg + i)[l], 4);
			}
		}
		return ISA_STEP_NEXT;
	}
	for (uint64_t e = exec; e; e &= e - 1) {
		unsigned lane = (unsigned)__builtin_ctzll(e);
		uint64_t addr = sa ? sbase + alo[lane] : ((uint64_t)alo[lane] | ((uint64_t)ahi[lane] << 32));
		uint64_t pg;
		addr += (uint64_t)(int64_t)in->offset;
		pg = addr & ~4095ull;
		if ((addr & 4095) + m->bytes > 4096)
			goto slow;
		if (pg != page) {
			host = isa_mem_probe(w, pg, access);
			if (!host) {
				/* maybe partly mapped: let the general path decide */
				page = 1;
				goto slow;
			}
			page = pg;
		}
		if (m->kind == MK_STORE) {
			for (unsigned i = 0; i < nd; i++)
				memcpy(host + (addr - pg) + 4 * i, &isa_vrow(w, in->data_reg + i)[lane], 4);
		} else {
			for (unsigned i = 0; i < nd; i++)
				memcpy(&isa_vrow(w, in->dst + i)[lane], host + (addr - pg) + 4 * i, 4);
		}
		continue;
slow:
		{
			uint32_t data[4] = { 0, 0, 0, 0 };
			if (m->kind == MK_STORE)
				for (unsigned i = 0; i < nd; i++)
					data[i] = isa_vrow(w, in->data_reg + i)[lane];
			if (lane_access(w, in, m, SP_GLOBAL, addr, lane, data, NULL, 0))
				return ISA_STEP_ERROR;
			if (m->kind == MK_LOAD)
				for (unsigned i = 0; i < nd; i++)
					isa_vrow(w, in->dst + i)[lane] = data[i];
		}
	}
	return ISA_STEP_NEXT;
}

/* The lane copies of a private span (scratch_span, mubuf_private_span):
 * dword d of lane l at h + (off[l] - lo + d) * 256 + l * 4, to or from
 * rows row0 .. row0 + dwords - 1; uniform: every lane at off[0] under the
 * whole EXEC (one 256-byte copy per dword); full: the whole EXEC.  Per
 * lane, not vectorised: an emulated AVX2 gather is slower than these plain
 * loads and stores.  Everything the loops read is a local, so a lane's
 * copy (which may alias anything, as memcpy does) reloads nothing. */
static inline __attribute__((always_inline)) void
span_copy(struct isa_wave *w, uint8_t *h, const uint32_t *off, uint32_t lo, const uint32_t *on,
	  bool uniform, bool full, unsigned row0, unsigned dwords, bool store)
{
	uint32_t boff[ISA_LANES];

	for (unsigned l = 0; l < ISA_LANES; l++) /* at most 16 pages: 32 bits */
		boff[l] = (off[l] - lo) * 256 + l * 4;
	for (unsigned d = 0; d < dwords; d++) {
		uint32_t *row = isa_vrow(w, row0 + d);
		uint8_t *hd = h + ((size_t)d + (uniform ? off[0] - lo : 0)) * 256;
		if (uniform) {
			if (store)
				memcpy(hd, row, 256);
			else
				memcpy(row, hd, 256);
		} else if (store && full) {
#pragma GCC unroll 16
			for (unsigned l = 0; l < ISA_LANES; l++)
				memcpy(hd + boff[l], &row[l], 4);
		} else if (full) {
#pragma GCC unroll 16
			for (unsigned l = 0; l < ISA_LANES; l++) {
				uint32_t v;
				memcpy(&v, hd + boff[l], 4);
				row[l] = v;
			}
		} else {
			for (unsigned l = 0; l < ISA_LANES; l++) {
				if (!on[l])
					continue;
				if (store)
					memcpy(hd + boff[l], &row[l], 4);
				else
					memcpy(&row[l], hd + boff[l], 4);
			}
		}
	}
}

/* SCRATCH dword loads and stores through one host span, as
 * mubuf_private_span does for the private-segment SRD: lane l's private
 * dword d at pbase + (off / 4 + d) * 256 + l * 4, every active lane's
 * access aligned and inside the wave's private size (else false, having
 * done nothing: the caller goes lane by lane and faults there). */
ISA_HOT static bool scratch_span(struct isa_wave *w, const struct isa_inst *in,
				 const struct mem_op *m, uint32_t soff, uint64_t pbase, uint64_t exec)
{
	uint32_t off[ISA_LANES], on[ISA_LANES];
	uint32_t lo = UINT32_MAX, hi = 0, bad = 0, imm = (uint32_t)in->offset + soff;
	uint32_t limit = w->scratch_bytes / ISA_LANES;
	const uint32_t *va = isa_vrow(w, in->addr_reg);
	bool vaddr = in->flags & FL_VADDR, full = exec == ~0ull;
	uint64_t rlo, rhi;
	uint32_t pofs, touched = 0;
	uint8_t *h;

	if (!exec)
		return true;
	if (limit < m->bytes)
		return false;
	if (!vaddr && full) {
		/* every lane at the same offset (a spill, a private array
		 * at a constant index): whole rows of 256 bytes, all touched */
		uint8_t *hd;
		if ((imm & 3) || imm > limit - m->bytes)
			return false;
		hd = isa_mem_span(w, pbase + (uint64_t)(imm >> 2) * 256, (uint64_t)m->dwords * 256,
				  ~0u, m->kind == MK_STORE ? KEMU_ISA_ACCESS_WRITE : KEMU_ISA_ACCESS_READ);
		if (!hd)
			return false;
		for (unsigned d = 0; d < m->dwords; d++) {
			if (m->kind == MK_STORE)
				memcpy(hd + 256 * d, isa_vrow(w, in->data_reg + d), 256);
			else
				memcpy(isa_vrow(w, in->dst + d), hd + 256 * d, 256);
		}
		return true;
	}
	isa_lane_masks(exec, on);
	for (unsigned l = 0; l < ISA_LANES; l++) {
		uint32_t o = (vaddr ? va[l] : 0) + imm; /* 32-bit, as the lane path */
		/* o + bytes > limit, in 32 bits (limit >= bytes above) */
		bad |= ((o & 3) | (uint32_t)(o > limit - m->bytes)) & on[l];
		off[l] = o >> 2;
	}
	for (unsigned l = 0; l < ISA_LANES; l++) {
		uint32_t a = off[l] | ~on[l], b = off[l] & on[l];
		lo = a < lo ? a : lo;
		hi = b > hi ? b : hi;
	}
	if (bad)
		return false;
	rlo = (uint64_t)lo * 256;
	rhi = ((uint64_t)hi + m->dwords) * 256;
	pofs = (uint32_t)((pbase + rlo) & 4095);
	if (pofs + (rhi - rlo) > ISA_SPAN_PAGES * 4096u)
		return false;
	for (unsigned l = 0; l < ISA_LANES; l++) {
		/* an inactive lane counts as lane 0 at the lowest offset */
		uint32_t b0 = pofs + ((off[l] - lo) * 256 + l * 4) * (on[l] & 1);
		touched |= (1u << (b0 >> 12)) | (1u << ((b0 + (m->dwords - 1) * 256 + 3) >> 12));
	}
	h = isa_mem_span(w, pbase + rlo, rhi - rlo, touched,
			 m->kind == MK_STORE ? KEMU_ISA_ACCESS_WRITE : KEMU_ISA_ACCESS_READ);
	if (!h)
		return false;
	span_copy(w, h, off, lo, on, !vaddr && full, full,
		  m->kind == MK_STORE ? in->data_reg : in->dst, m->dwords, m->kind == MK_STORE);
	return true;
}

/* A FLAT/GLOBAL/SCRATCH lane's address: SCRATCH, a 32-bit offset into
 * the wave's private space (the immediate, SADDR's dword, the lane's VADDR
 * if any); with SADDR, the SGPR pair plus the lane's 32-bit VGPR offset;
 * else the lane's 64-bit VGPR pair; each plus the signed immediate. */
static uint64_t flat_lane_addr(struct isa_wave *w, const struct isa_inst *in, bool scratch,
			       uint64_t sbase, unsigned lane)
{
	if (scratch) {
		uint32_t off = (uint32_t)in->offset + (uint32_t)sbase;
		if (in->flags & FL_VADDR)
			off += isa_vrow(w, in->addr_reg)[lane];
		return off;
	}
	if (in->flags & FL_SADDR)
		return sbase + isa_vrow(w, in->addr_reg)[lane] + (uint64_t)(int64_t)in->offset;
	return ((uint64_t)isa_vrow(w, in->addr_reg)[lane] |
		((uint64_t)isa_vrow(w, in->addr_reg + 1u)[lane] << 32)) +
	       (uint64_t)(int64_t)in->offset;
}

/* GLOBAL atomics: lane by lane in ascending order, as the general loop,
 * with the page of the last lane's address kept (isa_mem_probe once per
 * page, not per lane) and the host atomic called directly.  A misaligned
 * lane, or one whose page is not wholly mapped, takes lane_access, which
 * faults or translates just its bytes as before. */
static int exec_global_atomic(struct isa_wave *w, const struct isa_inst *in,
			      const struct mem_op *m, uint64_t sbase)
{
	uint64_t exec = isa_exec(w), page = 1;
	unsigned n = m->bytes, nd = n / 4u, aop = m->aop;
	unsigned access = KEMU_ISA_ACCESS_READ | KEMU_ISA_ACCESS_WRITE | KEMU_ISA_ACCESS_ATOMIC;
	unsigned data_row = in->data_reg, dst_row = in->dst;
	bool ret = in->flags & FL_GLC, cmpswap = aop == A_CMPSWAP;
	uint8_t *host = NULL;

	for (uint64_t e = exec; e; e &= e - 1) {
		unsigned lane = (unsigned)__builtin_ctzll(e);
		uint64_t addr = flat_lane_addr(w, in, false, sbase, lane), pg = addr & ~4095ull;
		uint32_t data[2] = { 0, 0 }, cmp[2] = { 0, 0 };

		for (unsigned i = 0; i < nd; i++) {
			data[i] = isa_vrow(w, data_row + i)[lane];
			/* cmpswap's data = {src, cmp}: cmp in the upper half */
			if (cmpswap)
				cmp[i] = isa_vrow(w, data_row + nd + i)[lane];
		}
		if (!(addr & (n - 1)) && pg != page) {
			host = isa_mem_probe(w, pg, access);
			page = host ? pg : 1;
		}
		if (!(addr & (n - 1)) && pg == page) {
			uint8_t *h = host + (addr - pg);
			if (n == 8) {
				uint64_t old = atomic64((uint64_t *)(void *)h, aop,
							data[0] | (uint64_t)data[1] << 32,
							cmp[0] | (uint64_t)cmp[1] << 32);
				data[0] = (uint32_t)old;
				data[1] = (uint32_t)(old >> 32);
			} else {
				data[0] = atomic32((uint32_t *)(void *)h, aop, data[0], cmp[0]);
			}
		} else if (lane_access(w, in, m, SP_GLOBAL, addr, lane, data, cmpswap ? cmp : NULL, 0)) {
			return ISA_STEP_ERROR;
		}
		if (ret)
			for (unsigned i = 0; i < nd; i++)
				isa_vrow(w, dst_row + i)[lane] = data[i];
	}
	return ISA_STEP_NEXT;
}

static int exec_flat(struct isa_wave *w, const struct isa_inst *in)
{
	struct mem_op m;
	uint64_t exec = isa_exec(w);
	const struct kemu_isa_apertures *ap = &w->wg->d->apertures;
	unsigned data_row = in->data_reg, dst_row = in->dst;
	uint64_t sbase = 0, pbase = flat_scratch_base(w);
	enum isa_enc enc = (enum isa_enc)in->enc;

	uint64_t ppage = 1;
	uint8_t *phost = NULL;

	flat_op(in->op, &m);
	if (enc == ISA_ENC_GLOBAL && m.kind != MK_ATOMIC && m.bytes >= 4)
		return exec_global_dwords(w, in, &m);
	if (in->flags & FL_SADDR)
		sbase = enc == ISA_ENC_SCRATCH ? w->s[in->saddr & 127] : isa_sreg64(w, in->saddr);
	if (enc == ISA_ENC_GLOBAL && m.kind == MK_ATOMIC)
		return exec_global_atomic(w, in, &m, sbase);
	if (enc == ISA_ENC_SCRATCH && (m.kind == MK_LOAD || m.kind == MK_STORE) && m.bytes >= 4 &&
	    scratch_span(w, in, &m, (uint32_t)sbase, pbase, exec))
		return ISA_STEP_NEXT;
	for (uint64_t e = exec; e; e &= e - 1) {
		unsigned lane = (unsigned)__builtin_ctzll(e);
		uint32_t data[4] = { 0, 0, 0, 0 }, cmp[2] = { 0, 0 };
		uint64_t addr = flat_lane_addr(w, in, enc == ISA_ENC_SCRATCH, sbase, lane);
		enum space sp = enc == ISA_ENC_SCRATCH ? SP_PRIVATE : SP_GLOBAL;
		const uint32_t *cmpp = NULL;

		if (enc == ISA_ENC_FLAT) {
			if (addr - ap->shared_base < (1ull << 32) && ap->shared_base) {
				sp = SP_LDS;
				addr -= ap->shared_base;
			} else if (addr - ap->private_base < (1ull << 32) && ap->private_base) {
				sp = SP_PRIVATE;
				addr -= ap->private_base;
			}
		}
		if (m.kind != MK_LOAD) {
			unsigned nd = m.kind == MK_ATOMIC ? (m.bytes == 8 ? 2 : 1) : m.dwords;
			for (unsigned i = 0; i < nd; i++)
				data[i] = isa_vrow(w, data_row + i)[lane];
			if (m.kind == MK_ATOMIC && m.aop == A_CMPSWAP) {
				/* data = {src, cmp}: cmp in the upper half */
				for (unsigned i = 0; i < nd; i++)
					cmp[i] = isa_vrow(w, data_row + nd + i)[lane];
				cmpp = cmp;
			}
		} else if (m.d16) {
			data[0] = isa_vrow(w, dst_row)[lane];
		}
		if (sp == SP_PRIVATE && (m.kind == MK_LOAD || m.kind == MK_STORE) && m.bytes >= 4 &&
		    !(addr & 3) && addr + m.bytes <= (uint64_t)w->scratch_bytes / ISA_LANES) {
			/* whole private dwords: each is its own 4 bytes in the
			 * interleaved backing; reuse the page across dwords/lanes */
			unsigned access = m.kind == MK_STORE ? KEMU_ISA_ACCESS_WRITE : KEMU_ISA_ACCESS_READ;
			for (unsigned d = 0; d < m.dwords; d++) {
				uint64_t pva = private_va(pbase, lane, (uint32_t)addr + 4 * d);
				uint64_t pg = pva & ~4095ull;
				if (pg != ppage) {
					phost = isa_mem_probe(w, pg, access);
					ppage = phost ? pg : 1;
				}
				if (phost) {
					if (m.kind == MK_STORE)
						memcpy(phost + (pva - pg), &data[d], 4);
					else
						memcpy(&data[d], phost + (pva - pg), 4);
				} else if (m.kind == MK_STORE ? isa_mem_write(w, in, pva, &data[d], 4)
							      : isa_mem_read(w, in, pva, &data[d], 4)) {
					return ISA_STEP_ERROR;
				}
			}
		} else if (lane_access(w, in, &m, sp, addr, lane, data, cmpp, pbase)) {
			return ISA_STEP_ERROR;
		}
		if (m.kind == MK_LOAD) {
			for (unsigned i = 0; i < m.dwords; i++)
				isa_vrow(w, dst_row + i)[lane] = data[i];
		} else if (m.kind == MK_ATOMIC && (in->flags & FL_GLC)) {
			for (unsigned i = 0; i < (m.bytes == 8 ? 2u : 1u); i++)
				isa_vrow(w, dst_row + i)[lane] = data[i];
		}
	}
	return ISA_STEP_NEXT;
}

/* gfx942 global_/scratch_load_lds_{ubyte,sbyte,ushort,sshort,dword}
 * (opcodes 0x26-0x2a; in->aux: the register load of the same size,
 * 0x10-0x14): each lane's element, extended to a dword, goes to the LDS
 * rather than a VGPR, at M0[15:0] + the instruction offset + lane * 4
 * (the "load to LDS" address of the CDNA3 guide's memory chapter; M0 is
 * the base the compiler sets).  The memory side is the plain load's,
 * faults included; an LDS dword past the allocation is not written, as
 * for DS writes. */
static int exec_flat_lds(struct isa_wave *w, const struct isa_inst *in)
{
	struct mem_op m;
	uint64_t exec = isa_exec(w), sbase = 0, pbase = flat_scratch_base(w);
	uint32_t lds_base = (w->s[ISA_REG_M0] & 0xffffu) + (uint32_t)in->offset;
	bool scratch = in->enc == ISA_ENC_SCRATCH;

	flat_op(in->aux, &m);
	if (in->flags & FL_SADDR)
		sbase = scratch ? w->s[in->saddr & 127] : isa_sreg64(w, in->saddr);
	for (uint64_t e = exec; e; e &= e - 1) {
		unsigned lane = (unsigned)__builtin_ctzll(e);
		uint32_t data[4] = { 0, 0, 0, 0 }, la = lds_base + lane * 4u;
		uint64_t addr = flat_lane_addr(w, in, scratch, sbase, lane);

		if (lane_access(w, in, &m, scratch ? SP_PRIVATE : SP_GLOBAL, addr, lane, data, NULL, pbase))
			return ISA_STEP_ERROR;
		if ((uint64_t)la + 4 <= w->wg->lds_size)
			memcpy(w->wg->lds + la, &data[0], 4);
	}
	return ISA_STEP_NEXT;
}

void kemu_isa_decode_flat(const struct isa_decoder *dc, struct isa_inst *in)
{
	uint32_t w0 = in->word[0], w1 = in->word[1];
	unsigned op = (w0 >> 18) & 0x7f, saddr = (w1 >> 16) & 0x7f;
	bool acc = (w1 >> 23) & 1;
	struct mem_op m;
	unsigned agpr_base = acc ? dc->p->accum_offset : 0;

	in->op = (uint16_t)op;
	if (op >= 0x26 && op <= 0x2a && dc->gfx942 && in->enc != ISA_ENC_FLAT) {
		/* global_/scratch_load_lds_*: the load 0x10-0x14 of that size,
		 * into the LDS (exec_flat_lds) */
		in->aux = (uint16_t)(0x10 + (op - 0x26));
		m.kind = MK_LOAD;
	} else if (!flat_op(op, &m)) {
		return;
	} else if (!dc->gfx942 && in->enc != ISA_ENC_FLAT && ((w0 >> 13) & 1)) {
		/* gfx90a: the same loads are the plain ones with the LDS bit */
		if (op < 0x10 || op > 0x14)
			return;
		in->aux = (uint16_t)op;
	}
	if (in->enc == ISA_ENC_SCRATCH && m.kind == MK_ATOMIC)
		return;
	/* gfx90a has f32/f64 atomics only in GLOBAL (and f64 in FLAT):
	 * pk_add_f16/add_f32 are FLAT ops on gfx942 only */
	if (in->enc == ISA_ENC_FLAT && (op == 0x4d || op == 0x4e) && !dc->gfx942)
		return;
	/* pk_add_bf16: gfx942 FLAT and GLOBAL */
	if (op == 0x52 && (!dc->gfx942 || in->enc == ISA_ENC_SCRATCH))
		return;
	in->addr_reg = w1 & 0xff;
	in->data_reg = (uint16_t)(((w1 >> 8) & 0xff) + agpr_base);
	in->dst = (uint16_t)(((w1 >> 24) & 0xff) + agpr_base);
	in->saddr = (uint16_t)saddr;
	if (w0 & (1u << 16))
		in->flags |= FL_GLC;
	if (in->enc == ISA_ENC_FLAT) {
		in->offset = (int32_t)(w0 & 0xfff);
		in->flags |= FL_VADDR;
	} else {
		in->offset = (int32_t)((w0 & 0x1fff) << 19) >> 19;
		if (saddr != 0x7f)
			in->flags |= FL_SADDR;
		if (in->enc == ISA_ENC_GLOBAL)
			in->flags |= FL_VADDR;
		else if (dc->gfx942 ? ((w0 >> 13) & 1) : saddr == 0x7f)
			in->flags |= FL_VADDR; /* gfx942: SVE bit; gfx90a: no SADDR */
	}
	if (in->aux) {
		in->exec = exec_flat_lds;
		return;
	}
	if ((w0 >> 13) & 1 && !(dc->gfx942 && in->enc == ISA_ENC_SCRATCH))
		return; /* LDS-direct loads (lds bit) are not implemented */
	in->exec = exec_flat;
}

/* ---- MUBUF ---- */

struct srd {
	uint64_t base;
	uint32_t stride, num_records;
	bool swizzle, add_tid;
	unsigned elem_size, index_stride;
};

static void srd_read(const struct isa_wave *w, unsigned sreg, struct srd *r)
{
	uint32_t v[GFX9_V_DWORDS];
	for (unsigned i = 0; i < GFX9_V_DWORDS; i++)
		v[i] = w->s[(sreg + i) & 127];
	r->base = gfx9_v_base(v);
	r->stride = GFX9_DESC_GET(v, GFX9_V_STRIDE);
	r->swizzle = GFX9_DESC_GET(v, GFX9_V_SWIZZLE_ENABLE);
	r->num_records = GFX9_DESC_GET(v, GFX9_V_NUM_RECORDS);
	r->elem_size = 2u << GFX9_DESC_GET(v, GFX9_V_ELEMENT_SIZE);
	r->index_stride = 8u << GFX9_DESC_GET(v, GFX9_V_INDEX_STRIDE);
	r->add_tid = GFX9_DESC_GET(v, GFX9_V_ADD_TID_ENABLE);
}

#define MB_OFFEN 16
#define MB_IDXEN 32
#define MB_LDS 64       /* buffer_load_{u,s}{byte,short}/dword ... lds */

/* mubuf_private_span without OFFEN (a spill, a private array at a
 * constant index): every lane has the same offset, so lane l's dword d is
 * at base + soffset + (imm / 4 + d) * 256 + l * 4 and the lanes between
 * the lowest and the highest active one touch one contiguous range (the
 * gaps between rows are shorter than a page, so every page in it is
 * touched).  No lane loop but the copy; false, having done nothing, as
 * there. */
ISA_HOT static bool mubuf_private_uniform(struct isa_wave *w, const struct isa_inst *in,
					  const struct mem_op *m, const struct srd *r,
					  uint32_t soffset, uint64_t exec)
{
	uint32_t imm = (uint32_t)in->offset;
	unsigned first = (unsigned)__builtin_ctzll(exec), last = 63u - (unsigned)__builtin_clzll(exec);
	uint64_t rlo = (uint64_t)(imm >> 2) * 256 + soffset;
	uint64_t rhi = ((uint64_t)(imm >> 2) + m->dwords) * 256 + soffset;
	uint64_t b0 = rlo + first * 4u, b1 = rhi - 256 + last * 4u + 4;
	uint8_t *h;

	if ((imm & 3) || rhi > r->num_records)
		return false;
	h = isa_mem_span(w, r->base + b0, b1 - b0, ~0u,
			 m->kind == MK_STORE ? KEMU_ISA_ACCESS_WRITE : KEMU_ISA_ACCESS_READ);
	if (!h)
		return false;
	h -= first * 4u;        /* lane 0's dword 0 (never dereferenced
				   unless that lane is active) */
	for (unsigned d = 0; d < m->dwords; d++) {
		uint32_t *row = isa_vrow(w, in->data_reg + d);
		uint8_t *p = h + (size_t)d * 256;
		if (exec == ~0ull) {
			if (m->kind == MK_STORE)
				memcpy(p, row, 256);
			else
				memcpy(row, p, 256);
			continue;
		}
		for (uint64_t e = exec; e; e &= e - 1) {
			unsigned l = (unsigned)__builtin_ctzll(e);
			if (m->kind == MK_STORE)
				memcpy(p + l * 4u, &row[l], 4);
			else
				memcpy(&row[l], p + l * 4u, 4);
		}
	}
	return true;
}

/* The private-segment fast path of exec_mubuf for the common case: every
 * active lane's dwords are in range and the pages they touch are one host
 * span, so each lane is a plain load or store (vectorisable).  Returns
 * false, having done nothing, when that does not hold (the caller then
 * goes lane by lane, with the range check and fault report per lane).
 * Lanes never collide: lane l's dword d is at (off / 4 + d) * 256 + l * 4,
 * distinct for distinct lanes, so the order of the stores is irrelevant. */
ISA_HOT static bool mubuf_private_span(struct isa_wave *w, const struct isa_inst *in,
				       const struct mem_op *m, const struct srd *r,
				       uint32_t soffset, uint64_t exec)
{
	uint32_t off[ISA_LANES], on[ISA_LANES];
	uint32_t lo = UINT32_MAX, hi = 0, mis = 0, imm = (uint32_t)in->offset;
	const uint32_t *va = isa_vrow(w, in->addr_reg);
	bool offen = in->flags & MB_OFFEN, full = exec == ~0ull;
	uint64_t rlo, rhi;
	uint8_t *h;

	if (!exec)
		return true;
	if (!offen)
		return mubuf_private_uniform(w, in, m, r, soffset, exec);
	/* branch-free lane loops (vectorised): the byte offset, whether it
	 * wrapped past 32 bits or is misaligned (then the general path),
	 * and the lowest and highest dword index of the active lanes */
	isa_lane_masks(exec, on);
	for (unsigned l = 0; l < ISA_LANES; l++) {
		uint32_t v = offen ? va[l] : 0, o = v + imm;
		mis |= ((uint32_t)(o < v) | (o & 3)) & on[l];
		off[l] = o >> 2;
	}
	for (unsigned l = 0; l < ISA_LANES; l++) {
		uint32_t a = off[l] | ~on[l], b = off[l] & on[l];
		lo = a < lo ? a : lo;
		hi = b > hi ? b : hi;
	}
	if (mis)
		return false;
	rlo = (uint64_t)lo * 256 + soffset;
	rhi = ((uint64_t)hi + m->dwords) * 256 + soffset;
	if (rhi > r->num_records)
		return false;
	{
		/* the pages the lanes touch: lane l's dwords are bytes
		 * [(off - lo) * 256 + l * 4, + (dwords - 1) * 256 + 4) from
		 * base + rlo, at most two pages */
		uint32_t pofs = (uint32_t)((r->base + rlo) & 4095), touched = 0;
		if (pofs + (rhi - rlo) > ISA_SPAN_PAGES * 4096u)
			return false;
		for (unsigned l = 0; l < ISA_LANES; l++) {
			/* an inactive lane counts as lane 0 at the lowest offset */
			uint32_t b0 = pofs + ((off[l] - lo) * 256 + l * 4) * (on[l] & 1);
			touched |= (1u << (b0 >> 12)) |
				   (1u << ((b0 + (m->dwords - 1) * 256 + 3) >> 12));
		}
		h = isa_mem_span(w, r->base + rlo, rhi - rlo, touched,
				 m->kind == MK_STORE ? KEMU_ISA_ACCESS_WRITE : KEMU_ISA_ACCESS_READ);
	}
	if (!h)
		return false;
	span_copy(w, h, off, lo, on, !offen && full, full, in->data_reg, m->dwords,
		  m->kind == MK_STORE);
	return true;
}

static int exec_mubuf(struct isa_wave *w, const struct isa_inst *in)
{
	struct mem_op m;
	struct srd r;
	uint64_t exec = isa_exec(w);
	uint32_t soffset = isa_sread32(w, &in->src[0]);

	flat_op(in->aux, &m);
	srd_read(w, in->saddr, &r);
	/* The private-segment SRD (swizzled, stride 0, 4-byte elements,
	 * index stride 64, ADD_TID) with dword loads/stores: dword d of lane
	 * l at base + soffset + d * 256 + l * 4; pages reused across lanes. */
	if (r.swizzle && r.stride == 0 && r.add_tid && r.elem_size == 4 && r.index_stride == 64 &&
	    !(in->flags & (MB_IDXEN | MB_LDS)) && (m.kind == MK_LOAD || m.kind == MK_STORE) &&
	    m.bytes >= 4 && !m.d16) {
		uint64_t page = 1;
		uint8_t *host = NULL;
		unsigned access = m.kind == MK_STORE ? KEMU_ISA_ACCESS_WRITE : KEMU_ISA_ACCESS_READ;
		if (mubuf_private_span(w, in, &m, &r, soffset, exec))
			return ISA_STEP_NEXT;
		for (uint64_t e = exec; e; e &= e - 1) {
			unsigned lane = (unsigned)__builtin_ctzll(e);
			uint64_t off = (uint32_t)in->offset;
			if (in->flags & MB_OFFEN)
				off += isa_vrow(w, in->addr_reg)[lane];
			if (off & 3)
				goto general;
			for (unsigned d = 0; d < m.dwords; d++) {
				uint64_t rel = ((off >> 2) + d) * 256 + lane * 4u + soffset;
				uint64_t va = r.base + rel, pg = va & ~4095ull;
				uint32_t *row = isa_vrow(w, in->data_reg + d);
				if (rel + 4 > r.num_records) {   /* out of range */
					if (m.kind == MK_LOAD)
						row[lane] = 0;
					continue;
				}
				if (pg != page) {
					host = isa_mem_probe(w, pg, access);
					page = host ? pg : 1;
				}
				if (host) {
					if (m.kind == MK_STORE)
						memcpy(host + (va - pg), &row[lane], 4);
					else
						memcpy(&row[lane], host + (va - pg), 4);
				} else if (m.kind == MK_STORE ? isa_mem_write(w, in, va, &row[lane], 4)
							      : isa_mem_read(w, in, va, &row[lane], 4)) {
					return ISA_STEP_ERROR;
				}
			}
		}
		return ISA_STEP_NEXT;
	}
general:
	for (uint64_t e = exec; e; e &= e - 1) {
		unsigned lane = (unsigned)__builtin_ctzll(e);
		uint32_t data[4] = { 0, 0, 0, 0 }, cmp[2] = { 0, 0 };
		const uint32_t *cmpp = NULL;
		uint32_t vidx = 0, voff = 0;
		unsigned vr = in->addr_reg;
		uint64_t index, offset, addr;
		bool oob;

		if (in->flags & MB_IDXEN)
			vidx = isa_vrow(w, vr++)[lane];
		if (in->flags & MB_OFFEN)
			voff = isa_vrow(w, vr)[lane];
		index = vidx + (r.add_tid ? lane : 0);
		offset = (uint64_t)voff + (uint32_t)in->offset;
		if (r.swizzle) {
			uint64_t imsb = index / r.index_stride, ilsb = index % r.index_stride;
			uint64_t omsb = offset / r.elem_size, olsb = offset % r.elem_size;
			addr = r.base + soffset +
			       (imsb * r.stride + omsb * r.elem_size) * r.index_stride +
			       ilsb * r.elem_size + olsb;
			/* range check on the index (stride != 0) or offset */
			oob = r.stride ? index >= r.num_records
				       : offset + m.bytes > r.num_records;
			/* the scratch SRD (stride 0, ADD_TID): checked against
			 * NUM_RECORDS as a byte size of the backing */
			if (!r.stride)
				oob = addr + m.bytes - r.base > r.num_records;
		} else {
			addr = r.base + soffset + index * r.stride + offset;
			oob = r.stride ? (index >= r.num_records || offset + m.bytes > r.stride)
				       : offset + m.bytes > r.num_records;
		}
		if (m.kind != MK_LOAD) {
			unsigned nd = m.kind == MK_ATOMIC ? (m.bytes == 8 ? 2 : 1) : m.dwords;
			for (unsigned i = 0; i < nd; i++)
				data[i] = isa_vrow(w, in->data_reg + i)[lane];
			if (m.kind == MK_ATOMIC && m.aop == A_CMPSWAP) {
				for (unsigned i = 0; i < nd; i++)
					cmp[i] = isa_vrow(w, in->data_reg + nd + i)[lane];
				cmpp = cmp;
			}
		} else if (m.d16) {
			data[0] = isa_vrow(w, in->data_reg)[lane];
		}
		if (in->flags & MB_LDS) {
			/* load to LDS: the element (0 out of range), extended to
			 * a dword, at M0[15:0] + the instruction offset + 4 *
			 * lane; an LDS dword past the allocation is dropped */
			uint32_t la = (w->s[ISA_REG_M0] & 0xffffu) + (uint32_t)in->offset + lane * 4u;
			if (!oob && lane_access(w, in, &m, SP_GLOBAL, addr, lane, data, NULL, 0))
				return ISA_STEP_ERROR;
			if ((uint64_t)la + 4 <= w->wg->lds_size)
				memcpy(w->wg->lds + la, &data[0], 4);
			continue;
		}
		if (oob) {
			/* out of range: loads return 0, stores/atomics are dropped */
			if (m.kind == MK_LOAD)
				for (unsigned i = 0; i < m.dwords; i++)
					isa_vrow(w, in->data_reg + i)[lane] = m.d16 ? data[0] & (m.d16 == 1 ? 0xffff0000u : 0xffff) : 0;
			continue;
		}
		if (r.swizzle && m.bytes > r.elem_size && m.kind != MK_ATOMIC) {
			/* multi-element access: each element lands in its own
			 * swizzled slot */
			for (unsigned el = 0; el < m.bytes / r.elem_size; el++) {
				struct mem_op one = m;
				uint64_t off2 = offset + el * r.elem_size;
				uint64_t a2 = r.base + soffset +
					(index / r.index_stride * r.stride + off2 / r.elem_size * r.elem_size) *
					r.index_stride + (index % r.index_stride) * r.elem_size;
				one.bytes = (uint8_t)r.elem_size;
				one.dwords = (uint8_t)(r.elem_size / 4 ? r.elem_size / 4 : 1);
				if (lane_access(w, in, &one, SP_GLOBAL, a2, lane,
						data + el * one.dwords, NULL, 0))
					return ISA_STEP_ERROR;
			}
		} else if (lane_access(w, in, &m, SP_GLOBAL, addr, lane, data, cmpp, 0)) {
			return ISA_STEP_ERROR;
		}
		if (m.kind == MK_LOAD || (m.kind == MK_ATOMIC && (in->flags & FL_GLC))) {
			unsigned nd = m.kind == MK_LOAD ? m.dwords : (m.bytes == 8 ? 2u : 1u);
			for (unsigned i = 0; i < nd; i++)
				isa_vrow(w, in->data_reg + i)[lane] = data[i];
		}
	}
	return ISA_STEP_NEXT;
}

/* buffer_wbl2, buffer_invl2 (gfx942: buffer_inv), buffer_wbinvl1(_vol):
 * write back or invalidate the L2 / the CU's L1.  The interpreter has no
 * caches: every load and store goes to the backing memory when the wave
 * executes it, so there is nothing to write back or drop and the operation
 * completes at once (its vmcnt is already zero).  The address, data and
 * resource fields are ignored, as the hardware ignores them. */
static int exec_mubuf_cache(struct isa_wave *w, const struct isa_inst *in)
{
	(void)w;
	(void)in;
	return ISA_STEP_NEXT;
}

void kemu_isa_decode_mubuf(const struct isa_decoder *dc, struct isa_inst *in)
{
	uint32_t w0 = in->word[0], w1 = in->word[1];
	unsigned op = (w0 >> 18) & 0x7f, fop;
	bool acc = (w1 >> 23) & 1;
	struct mem_op m;

	in->op = (uint16_t)op;
	/* 0x28 buffer_wbl2, 0x29 buffer_invl2 / buffer_inv (gfx942),
	 * 0x3e buffer_wbinvl1, 0x3f buffer_wbinvl1_vol (LLVM's MUBUF tables) */
	if (op == 0x28 || op == 0x29 || op == 0x3e || op == 0x3f) {
		in->exec = exec_mubuf_cache;
		return;
	}
	/* MUBUF (gfx9) numbering: 0x10-0x17 loads ubyte..dwordx4, 0x18-0x1f
	 * stores, 0x20-0x25 d16 loads: the same as FLAT; 0x40-0x4c and
	 * 0x60-0x6c atomics likewise.  0x00-0x0f are the typed formats. */
	if (op < 0x10 || op == 0x26 || op == 0x27) { /* + format_d16_hi_x */
		kemu_isa_decode_mubuf_format(dc, in); /* isa_exec_mimg.c */
		return;
	}
	fop = op;
	if (fop == 0x52 || !flat_op(fop, &m))
		return; /* (no buffer_atomic_pk_add_bf16) */
	in->aux = (uint16_t)fop;
	in->offset = (int32_t)(w0 & 0xfff);
	if (w0 & (1u << 12))
		in->flags |= MB_OFFEN;
	if (w0 & (1u << 13))
		in->flags |= MB_IDXEN;
	if (w0 & (1u << 14))
		in->flags |= FL_GLC;
	if (w0 & (1u << 16)) {
		/* the LDS bit: only the plain loads up to a dword */
		if (op < 0x10 || op > 0x14)
			return;
		in->flags |= MB_LDS;
	}
	in->addr_reg = w1 & 0xff;
	in->data_reg = (uint16_t)(((w1 >> 8) & 0xff) + (acc ? dc->p->accum_offset : 0));
	in->saddr = (uint16_t)(((w1 >> 16) & 0x1f) * 4);
	kemu_isa_opnd(&in->src[0], (w1 >> 24) & 0xff, ISA_T_B32, 0);
	if (in->src[0].kind == ISA_OPND_BAD || (w1 >> 24) == ISA_SRC_LITERAL)
		return;
	in->exec = exec_mubuf;
}
