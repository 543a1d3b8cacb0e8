/*
 * isa_exec_ds.c — LDS (DS encoding): reads, writes (incl. read2/write2
 * and the st64 forms), atomics with and without return, and the
 * cross-lane ds_swizzle_b32 / ds_permute_b32 / ds_bpermute_b32 (CDNA2/
 * CDNA3 ISA guides, "Data Share Operations").
 *
 *  - address = VGPR ADDR + OFFSET (16-bit, offset1:offset0) for single
 *    ops; read2/write2 use ADDR + OFFSET0 * size and ADDR + OFFSET1 *
 *    size (size x64 for st64); the sum is 32 bits and wraps (LLVM folds
 *    a negative base into the offset on gfx7+: tmp[63 - lid] becomes
 *    ADDR = -4 * lid with offset:252);
 *  - an access beyond the workgroup's LDS allocation returns 0 (reads)
 *    and is dropped (writes, atomics), as the hardware's LDS range check
 *    does — no fault;
 *  - lanes are processed in ascending order; a workgroup's waves run on
 *    one host thread, so LDS atomics need no host atomics;
 *  - GDS (the gds bit): only the ds_gws_* instructions (global wave sync,
 *    exec_ds_gws below); GDS memory is not implemented;
 *  - M0-addressed forms (exec_ds_m0): ds_append / ds_consume add / subtract
 *    the number of active lanes to the dword at M0[15:0] + OFFSET once per
 *    wave and return its old value to every active lane; ds_read/
 *    write_addtid_b32 access M0[15:0] + OFFSET + 4 * lane id;
 *  - ds_wrap_rtn_b32: MEM = MEM >= DATA ? MEM - DATA : MEM + DATA2, the
 *    old value returned; ds_pk_add(_rtn)_f16/bf16 (gfx942): per 16-bit
 *    half, the f32 sum rounded to nearest even.
 */
#include "isa_float.h"
#include "isa_priv.h"

uint64_t kemu_isa_lds_atomic(uint8_t *p, unsigned bytes, unsigned aop, uint64_t v, uint64_t cmp);

/* atomic op numbering as in isa_exec_flat.c */
enum { A_SWAP, A_CMPSWAP, A_ADD, A_SUB, A_SMIN, A_UMIN, A_SMAX, A_UMAX, A_AND, A_OR, A_XOR,
       A_INC, A_DEC, A_FADD, A_FMIN, A_FMAX, A_PK_FADD16, A_PK_BF16ADD };

#define DS_RTN 1
#define DS_64 2

/* Map the DS atomic opcode (low 5 bits within a 0x20 block) to an op.
 * -1: not an atomic handled here. */
static int ds_aop(unsigned lo, bool *rsub, bool *mskor)
{
	*rsub = *mskor = false;
	switch (lo) {
	case 0x00: return A_ADD;
	case 0x01: return A_SUB;
	case 0x02: *rsub = true; return A_SUB;
	case 0x03: return A_INC;
	case 0x04: return A_DEC;
	case 0x05: return A_SMIN;
	case 0x06: return A_SMAX;
	case 0x07: return A_UMIN;
	case 0x08: return A_UMAX;
	case 0x09: return A_AND;
	case 0x0a: return A_OR;
	case 0x0b: return A_XOR;
	case 0x0c: *mskor = true; return A_AND;
	case 0x10: return A_CMPSWAP;    /* cmpst */
	case 0x11: return A_CMPSWAP;    /* cmpst_f32/f64: compared as floats */
	case 0x12: return A_FMIN;
	case 0x13: return A_FMAX;
	case 0x15: return A_FADD;
	default: return -1;
	}
}

/* memcpy with the sizes DS uses made constant, so it is inlined. */
static inline void cp(void *d, const void *s, unsigned n)
{
	switch (n) {
	case 1: memcpy(d, s, 1); break;
	case 2: memcpy(d, s, 2); break;
	case 4: memcpy(d, s, 4); break;
	case 8: memcpy(d, s, 8); break;
	case 12: memcpy(d, s, 12); break;
	default: memcpy(d, s, 16); break;
	}
}

static inline bool lds_ok(const struct isa_wave *w, uint64_t a, unsigned n)
{
	return a + n <= w->wg->lds_size;
}

/* The 32-bit integer atomics (ds_add/sub/and/or/xor/min/max_u32/i32,
 * ds_wrxchg_rtn_b32, with or without return) in one loop per operation:
 * the same lane order, range rule and results as the general loop below,
 * without its per-lane choice of operation and the call per lane.  NEW
 * is the new memory value from m (the old one) and d (the lane's data). */
#define DS_A32_LOOP(NEW)                                                       \
	for (uint64_t e = exec; e; e &= e - 1) {                              \
		unsigned l = (unsigned)__builtin_ctzll(e);                    \
		uint32_t a = addr[l] + off, d = data[l], m = 0;               \
		if ((uint64_t)a + 4 <= size) {                                \
			uint32_t nw;                                          \
			memcpy(&m, lds + a, 4);                               \
			nw = (NEW);                                           \
			memcpy(lds + a, &nw, 4);                              \
		}                                                             \
		if (rtn)                                                      \
			dst[l] = m;                                           \
	}                                                                     \
	return true;

static bool ds_atomic32_fast(struct isa_wave *w, const struct isa_inst *in, int aop)
{
	uint64_t exec = isa_exec(w), size = w->wg->lds_size;
	uint8_t *lds = w->wg->lds;
	const uint32_t *addr = isa_vrow(w, in->addr_reg), *data = isa_vrow(w, in->data_reg);
	uint32_t *dst = isa_vrow(w, in->dst), off = (uint32_t)in->offset;
	bool rtn = in->flags & DS_RTN;

	switch (aop) {
	case A_ADD: DS_A32_LOOP(m + d)
	case A_SUB: DS_A32_LOOP(m - d)
	case A_AND: DS_A32_LOOP(m & d)
	case A_OR: DS_A32_LOOP(m | d)
	case A_XOR: DS_A32_LOOP(m ^ d)
	case A_SWAP: DS_A32_LOOP(d)
	case A_SMIN: DS_A32_LOOP((int32_t)d < (int32_t)m ? d : m)
	case A_SMAX: DS_A32_LOOP((int32_t)d > (int32_t)m ? d : m)
	case A_UMIN: DS_A32_LOOP(d < m ? d : m)
	case A_UMAX: DS_A32_LOOP(d > m ? d : m)
	default: return false;
	}
}

static int exec_ds_atomic(struct isa_wave *w, const struct isa_inst *in)
{
	unsigned n = (in->flags & DS_64) ? 8 : 4;
	bool rsub, mskor;
	int aop = ds_aop(in->op & 0x1f, &rsub, &mskor);
	bool swap = (in->op & 0x3f) == 0x2d;   /* wrxchg_rtn */
	uint64_t exec = isa_exec(w);
	uint8_t *lds = w->wg->lds;

	if (swap)
		aop = A_SWAP;
	if (in->op == 0x5c || in->op == 0x7c)   /* ds_add_f64, ds_add_rtn_f64 */
		aop = A_FADD;
	if (n == 4 && !rsub && !mskor && ds_atomic32_fast(w, in, aop))
		return ISA_STEP_NEXT;
	for (uint64_t e = exec; e; e &= e - 1) {
		unsigned l = (unsigned)__builtin_ctzll(e);
		uint64_t a = (uint32_t)(isa_vrow(w, in->addr_reg)[l] + (uint32_t)in->offset);
		uint64_t d0 = isa_vrow(w, in->data_reg)[l], d1 = 0, old = 0;
		if (n == 8)
			d0 |= (uint64_t)isa_vrow(w, in->data_reg + 1u)[l] << 32;
		if (aop == A_CMPSWAP || mskor) {
			d1 = isa_vrow(w, in->offset1)[l];
			if (n == 8)
				d1 |= (uint64_t)isa_vrow(w, in->offset1 + 1u)[l] << 32;
		}
		if (lds_ok(w, a, n)) {
			uint8_t *p = lds + a;
			if (rsub) {
				/* rsub: MEM = DATA - MEM */
				uint64_t m = 0;
				memcpy(&m, p, n);
				old = m;
				m = d0 - m;
				memcpy(p, &m, n);
			} else if (mskor) {
				/* mskor: MEM = (MEM & ~DATA) | DATA2 */
				uint64_t m = 0;
				memcpy(&m, p, n);
				old = m;
				m = (m & ~d0) | d1;
				memcpy(p, &m, n);
			} else if (aop == A_CMPSWAP && (in->op & 0x1f) == 0x11) {
				/* cmpst_f32/f64: if (MEM == DATA) MEM = DATA2, as
				 * floats (-0 equals +0, a NaN equals nothing) */
				uint64_t m = 0;
				bool eq;
				memcpy(&m, p, n);
				old = m;
				eq = n == 8 ? f64_of(m) == f64_of(d0) : f32_of((uint32_t)m) == f32_of((uint32_t)d0);
				if (eq)
					memcpy(p, &d1, n);
			} else if (aop == A_CMPSWAP) {
				/* cmpst: if (MEM == DATA) MEM = DATA2 */
				old = kemu_isa_lds_atomic(p, n, A_CMPSWAP, d1, d0);
			} else if ((aop == A_FMIN || aop == A_FMAX) && n == 4) {
				uint32_t m;
				float x, y = f32_of((uint32_t)d0);
				memcpy(&m, p, 4);
				old = m;
				x = f32_of(m);
				if (aop == A_FMIN ? (y < x || isnan(x)) : (y > x || isnan(x)))
					memcpy(p, &d0, 4);
			} else if (aop == A_FMIN || aop == A_FMAX) {
				/* ds_min/max(_rtn)_f64: the f32 rule on doubles */
				uint64_t m;
				double x, y = f64_of(d0);
				memcpy(&m, p, 8);
				old = m;
				x = f64_of(m);
				if (aop == A_FMIN ? (y < x || isnan(x)) : (y > x || isnan(x)))
					memcpy(p, &d0, 8);
			} else {
				old = kemu_isa_lds_atomic(p, n, (unsigned)aop, d0, 0);
			}
		}
		if (in->flags & DS_RTN) {
			isa_vrow(w, in->dst)[l] = (uint32_t)old;
			if (n == 8)
				isa_vrow(w, in->dst + 1u)[l] = (uint32_t)(old >> 32);
		}
	}
	return ISA_STEP_NEXT;
}

/* ds_wrxchg2(st64)_rtn_b32/b64: two exchanges, at ADDR + OFFSET0 * size
 * and ADDR + OFFSET1 * size (x64 for st64), DATA0 and DATA1 in, the two
 * old values out (vdst, vdst + n/4); an address out of range returns 0
 * and writes nothing.  in->aux: element bytes; in->flags & 1: st64. */
static int exec_ds_wrxchg2(struct isa_wave *w, const struct isa_inst *in)
{
	unsigned n = in->aux, nd = n / 4, scale = n * ((in->flags & 1) ? 64 : 1);
	uint64_t exec = isa_exec(w);
	uint8_t *lds = w->wg->lds;

	for (uint64_t e = exec; e; e &= e - 1) {
		unsigned l = (unsigned)__builtin_ctzll(e);
		uint32_t base = isa_vrow(w, in->addr_reg)[l];
		for (unsigned k = 0; k < 2; k++) {
			uint64_t a = (uint32_t)(base + (k ? in->offset1 : (uint32_t)in->offset) * scale);
			unsigned src = k ? in->sdst : in->data_reg;
			uint32_t nv[2], old[2] = { 0, 0 };
			for (unsigned i = 0; i < nd; i++)
				nv[i] = isa_vrow(w, src + i)[l];
			if (lds_ok(w, a, n)) {
				memcpy(old, lds + a, n);
				memcpy(lds + a, nv, n);
			}
			for (unsigned i = 0; i < nd; i++)
				isa_vrow(w, in->dst + k * nd + i)[l] = old[i];
		}
	}
	return ISA_STEP_NEXT;
}

/* Loads/stores: aux = bytes per element; flags: sign extension etc. */
#define DS_SEXT 4
#define DS_D16_LO 8
#define DS_D16_HI 16
#define DS_WRITE 32
#define DS_TWO 64
#define DS_ST64 128

/* Loads of nd dwords per lane from LDS offsets a[] (all in range) into
 * rows v[0..nd-1].  Each group of 16 lanes that reads consecutive
 * elements (a tile's row) is a block copy and one that reads a single
 * element (a value shared by a row of work-items) a broadcast; other
 * groups are gathered lane by lane.  The same values either way.  The
 * rows may be the destination registers: a[] and LDS are all that is
 * read. */
static inline __attribute__((always_inline)) void ds_gather(const uint8_t *lds,
		const uint32_t *a, unsigned nd, uint32_t *const *v)
{
	unsigned n = 4 * nd;

	const isa_u32x8 step = { 0, n, 2 * n, 3 * n, 4 * n, 5 * n, 6 * n, 7 * n };

	for (unsigned g = 0; g < ISA_LANES; g += 16) {
		/* the group's kind, eight lanes per vector operation */
		uint32_t base = a[g];
		isa_u32x8 x0 = *(const isa_u32x8 *)(a + g), x1 = *(const isa_u32x8 *)(a + g + 8);
		isa_u32x8 b0 = (isa_u32x8){ 0 } + base, s0 = b0 + step, s1 = s0 + 8 * n;
		isa_u32x8 dseq = (x0 ^ s0) | (x1 ^ s1), dsame = (x0 ^ b0) | (x1 ^ b0);
		bool seq = isa_any32x8(&dseq), same = isa_any32x8(&dsame);
		if (!seq && nd == 1) {
			memcpy(&v[0][g], lds + base, 64);
		} else if (!seq) {
			for (unsigned i = 0; i < nd; i++)
				for (unsigned j = 0; j < 16; j++)
					memcpy(&v[i][g + j], lds + base + j * n + 4 * i, 4);
		} else if (!same) {
			for (unsigned i = 0; i < nd; i++) {
				uint32_t x;
				memcpy(&x, lds + base + 4 * i, 4);
				*(isa_u32x8 *)(v[i] + g) = (isa_u32x8){ 0 } + x;
				*(isa_u32x8 *)(v[i] + g + 8) = (isa_u32x8){ 0 } + x;
			}
		} else {
			for (unsigned i = 0; i < nd; i++)
				for (unsigned j = 0; j < 16; j++)
					memcpy(&v[i][g + j], lds + a[g + j] + 4 * i, 4);
		}
	}
}

/* Reads under the whole EXEC from the address row as it is, in groups of
 * 16 lanes (a tile's row): a group whose addresses are consecutive
 * elements inside the LDS is one block copy, one where every lane reads
 * the same element in range a broadcast, any other lane by lane with its
 * own range check (0 outside, as the general loop).  Whether every group
 * is consecutive, or every group uniform, is one test over the wave (the
 * usual case: one horizontal reduction, not one per group); the groups
 * are told apart only when they differ.  The address row is copied first
 * when a destination row is the address register. */
static inline __attribute__((always_inline)) void ds_read_full(struct isa_wave *w,
		const struct isa_inst *in, bool two, unsigned nd, uint32_t off0, uint32_t off1)
{
	const uint8_t *lds = w->wg->lds;
	uint64_t size = w->wg->lds_size;
	const uint32_t *addr = isa_vrow(w, in->addr_reg);
	unsigned n = 4 * nd, nrows = (two ? 2u : 1u) * nd;
	const isa_u32x8 step = { 0, n, 2 * n, 3 * n, 4 * n, 5 * n, 6 * n, 7 * n };
	uint32_t *dst[2][2] = { { NULL, NULL }, { NULL, NULL } }, copy[ISA_LANES];

	if ((unsigned)in->addr_reg - in->dst < nrows) {
		memcpy(copy, addr, sizeof(copy));
		addr = copy;
	}
	for (unsigned k = 0; k < (two ? 2u : 1u); k++)
		for (unsigned i = 0; i < nd; i++)
			dst[k][i] = isa_vrow(w, in->dst + k * nd + i);
	/* the groups' kinds from the addresses as they are: an offset added
	 * to every lane (32 bits, wrapping) keeps a group consecutive or
	 * uniform, so both offsets of a read2 share the test; the ranges
	 * (no wrap inside the LDS) are checked per offset */
	isa_u32x8 dseq = { 0 }, dsame = { 0 };
	for (unsigned g = 0; g < 4; g++) {
		isa_u32x8 x0 = *(const isa_u32x8 *)(addr + 16 * g);
		isa_u32x8 x1 = *(const isa_u32x8 *)(addr + 16 * g + 8);
		isa_u32x8 b = (isa_u32x8){ 0 } + addr[16 * g], s0 = b + step;
		dseq |= (x0 ^ s0) | (x1 ^ (s0 + 8 * n));
		dsame |= (x0 ^ b) | (x1 ^ b);
	}
	bool allseq = !isa_any32x8(&dseq), allsame = !isa_any32x8(&dsame);
	for (unsigned k = 0; k < (two ? 2u : 1u); k++) {
		uint32_t o = k ? off1 : off0, base[4], top = 0;
		for (unsigned g = 0; g < 4; g++) {
			base[g] = addr[16 * g] + o;
			top = base[g] > top ? base[g] : top;
		}
		if (allseq && (uint64_t)top + 16 * n <= size) {
			for (unsigned g = 0; g < 4; g++) {
				if (nd == 1)
					memcpy(&dst[k][0][16 * g], lds + base[g], 64);
				else
					for (unsigned i = 0; i < nd; i++)
						for (unsigned j = 0; j < 16; j++)
							memcpy(&dst[k][i][16 * g + j],
							       lds + base[g] + j * n + 4 * i, 4);
			}
			continue;
		}
		if (allsame && (uint64_t)top + n <= size) {
			/* two vector stores per group and dword (GCC kept the
			 * 16 lanes a scalar loop) */
			for (unsigned g = 0; g < 4; g++)
				for (unsigned i = 0; i < nd; i++) {
					uint32_t x;
					isa_u32x8 v;
					memcpy(&x, lds + base[g] + 4 * i, 4);
					v = (isa_u32x8){ 0 } + x;
					*(isa_u32x8 *)(dst[k][i] + 16 * g) = v;
					*(isa_u32x8 *)(dst[k][i] + 16 * g + 8) = v;
				}
			continue;
		}
		for (unsigned g = 0; g < ISA_LANES; g += 16) {
			isa_u32x8 x0 = *(const isa_u32x8 *)(addr + g) + o;
			isa_u32x8 x1 = *(const isa_u32x8 *)(addr + g + 8) + o;
			uint32_t bg = base[g / 16];
			isa_u32x8 b = (isa_u32x8){ 0 } + bg, s0 = b + step;
			isa_u32x8 gseq = (x0 ^ s0) | (x1 ^ (s0 + 8 * n)), gsame = (x0 ^ b) | (x1 ^ b);
			if (!isa_any32x8(&gseq) && (uint64_t)bg + 16 * n <= size) {
				for (unsigned i = 0; i < nd; i++)
					for (unsigned j = 0; j < 16; j++)
						memcpy(&dst[k][i][g + j], lds + bg + j * n + 4 * i, 4);
			} else if (!isa_any32x8(&gsame) && (uint64_t)bg + n <= size) {
				for (unsigned i = 0; i < nd; i++) {
					uint32_t x;
					memcpy(&x, lds + bg + 4 * i, 4);
					*(isa_u32x8 *)(dst[k][i] + g) = (isa_u32x8){ 0 } + x;
					*(isa_u32x8 *)(dst[k][i] + g + 8) = (isa_u32x8){ 0 } + x;
				}
			} else {
				for (unsigned j = 0; j < 16; j++) {
					uint32_t aj = addr[g + j] + o;
					bool ok = (uint64_t)aj + n <= size;
					for (unsigned i = 0; i < nd; i++) {
						uint32_t v = 0;
						if (ok)
							memcpy(&v, lds + aj + 4 * i, 4);
						dst[k][i][g + j] = v;
					}
				}
			}
		}
	}
}

/* The common cases, with constant-size copies: ds_read/write_b32/b64
 * (two = 0) and ds_read2/write2(st64)_b32/b64 (two = 1); nd is 1 or 2
 * dwords per element. */
static inline __attribute__((always_inline)) int ds_rw_fast(struct isa_wave *w,
		const struct isa_inst *in, bool write, bool two, unsigned nd)
{
	uint64_t exec = isa_exec(w);
	uint8_t *lds = w->wg->lds;
	uint64_t size = w->wg->lds_size;
	const uint32_t *addr = isa_vrow(w, in->addr_reg);
	unsigned n = 4 * nd, scale = n * ((in->flags & DS_ST64) ? 64 : 1);
	uint64_t off0 = two ? (uint64_t)((uint32_t)in->offset & 0xff) * scale : (uint32_t)in->offset;
	uint64_t off1 = (uint64_t)in->offset1 * scale;

	if (!write && exec == ~0ull) {
		ds_read_full(w, in, two, nd, (uint32_t)off0, (uint32_t)off1);
		return ISA_STEP_NEXT;
	}
	if (__builtin_popcountll(exec) >= 16) {
		/* Every active lane's access in range (the usual case): no
		 * per-lane checks, and loads as vectorisable loops per row
		 * (inactive lanes read LDS offset 0, in range too, and are not
		 * written back).  The addresses are read before any destination
		 * row is written.  A few active lanes (a reduction's last
		 * steps) are cheaper one by one, below. */
		uint32_t a[2][ISA_LANES], on[ISA_LANES], top = 0;
		bool full = exec == ~0ull;
		isa_lane_masks(exec, on);
		for (unsigned k = 0; k < (two ? 2u : 1u); k++)
			for (unsigned l = 0; l < ISA_LANES; l++) {
				a[k][l] = (uint32_t)(addr[l] + (k ? off1 : off0)) & on[l];
				top = a[k][l] > top ? a[k][l] : top;
			}
		if ((uint64_t)top + n <= size) {
			if (write) {
				const uint32_t *d0 = isa_vrow(w, in->data_reg);
				const uint32_t *d1 = isa_vrow(w, two ? in->saddr : in->data_reg);
				uint32_t seq = 0;
				if (!two && nd == 1 && full) {
					for (unsigned l = 0; l < ISA_LANES; l++)
						seq |= a[0][l] ^ (a[0][0] + 4 * l);
					if (!seq) { /* consecutive dwords: one block */
						memcpy(lds + a[0][0], d0, 256);
						return ISA_STEP_NEXT;
					}
				}
				/* lane by lane, in the order the general loop stores */
				for (unsigned l = 0; l < ISA_LANES; l++) {
					if (!on[l])
						continue;
					for (unsigned i = 0; i < nd; i++)
						memcpy(lds + a[0][l] + 4 * i, &d0[i * ISA_LANES + l], 4);
					if (two)
						for (unsigned i = 0; i < nd; i++)
							memcpy(lds + a[1][l] + 4 * i,
							       &d1[i * ISA_LANES + l], 4);
				}
			} else {
				uint32_t v[2][2][ISA_LANES];
				uint32_t *rows[2][2] = { { v[0][0], v[0][1] }, { v[1][0], v[1][1] } };
				if (full) {
					/* straight into the registers (a[] holds
					 * the addresses already) */
					for (unsigned k = 0; k < (two ? 2u : 1u); k++)
						for (unsigned i = 0; i < nd; i++)
							rows[k][i] = isa_vrow(w, in->dst + k * nd + i);
				}
				for (unsigned k = 0; k < (two ? 2u : 1u); k++)
					ds_gather(lds, a[k], nd, rows[k]);
				if (!full)
					for (unsigned k = 0; k < (two ? 2u : 1u); k++)
						for (unsigned i = 0; i < nd; i++) {
							uint32_t *d = isa_vrow(w, in->dst + k * nd + i);
							for (unsigned l = 0; l < ISA_LANES; l++)
								d[l] = (v[k][i][l] & on[l]) |
								       (d[l] & ~on[l]);
						}
			}
			return ISA_STEP_NEXT;
		}
	}
	for (uint64_t e = exec; e; e &= e - 1) {
		unsigned l = (unsigned)__builtin_ctzll(e);
		for (unsigned k = 0; k < (two ? 2u : 1u); k++) {
			uint64_t a = (uint32_t)(addr[l] + (k ? off1 : off0));
			bool ok = a + n <= size;
			for (unsigned i = 0; i < nd; i++) {
				if (write) {
					unsigned src = (k ? in->saddr : in->data_reg) + i;
					if (ok)
						memcpy(lds + a + 4 * i, &isa_vrow(w, src)[l], 4);
				} else {
					uint32_t v = 0;
					if (ok)
						memcpy(&v, lds + a + 4 * i, 4);
					isa_vrow(w, in->dst + k * nd + i)[l] = v;
				}
			}
		}
	}
	return ISA_STEP_NEXT;
}

ISA_HOT static int ds_rw_b32(struct isa_wave *w, const struct isa_inst *in, bool write, bool two)
{
	if (write)
		return two ? ds_rw_fast(w, in, true, true, 1) : ds_rw_fast(w, in, true, false, 1);
	return two ? ds_rw_fast(w, in, false, true, 1) : ds_rw_fast(w, in, false, false, 1);
}

ISA_HOT static int ds_rw_b64(struct isa_wave *w, const struct isa_inst *in, bool write, bool two)
{
	if (write)
		return two ? ds_rw_fast(w, in, true, true, 2) : ds_rw_fast(w, in, true, false, 2);
	return two ? ds_rw_fast(w, in, false, true, 2) : ds_rw_fast(w, in, false, false, 2);
}

static int exec_ds_rw(struct isa_wave *w, const struct isa_inst *in)
{
	unsigned n = in->aux, dw = n >= 4 ? n / 4 : 1;
	uint64_t exec = isa_exec(w);
	uint8_t *lds = w->wg->lds;
	bool write = in->flags & DS_WRITE, two = in->flags & DS_TWO;

	if (n == 4 && !(in->flags & (DS_D16_HI | DS_D16_LO | DS_SEXT)))
		return ds_rw_b32(w, in, write, two);
	if (n == 8)
		return ds_rw_b64(w, in, write, two);

	for (uint64_t e = exec; e; e &= e - 1) {
		unsigned l = (unsigned)__builtin_ctzll(e);
		uint64_t base = isa_vrow(w, in->addr_reg)[l];
		uint64_t addr[2];
		unsigned nacc = two ? 2 : 1;

		if (two) {
			unsigned scale = n * ((in->flags & DS_ST64) ? 64 : 1);
			addr[0] = (uint32_t)(base + ((uint32_t)in->offset & 0xff) * scale);
			addr[1] = (uint32_t)(base + (uint64_t)in->offset1 * scale);
		} else {
			addr[0] = (uint32_t)(base + (uint32_t)in->offset);
		}
		for (unsigned k = 0; k < nacc; k++) {
			uint8_t buf[16];
			if (write) {
				unsigned src = k == 0 ? in->data_reg : in->saddr; /* saddr: data1 row */
				for (unsigned i = 0; i < dw; i++) {
					uint32_t v = isa_vrow(w, src + i)[l];
					if (in->flags & DS_D16_HI)
						v >>= 16;
					memcpy(buf + 4 * i, &v, 4);
				}
				if (lds_ok(w, addr[k], n))
					cp(lds + addr[k], buf, n);
			} else {
				unsigned dst = in->dst + k * dw;
				if (lds_ok(w, addr[k], n))
					cp(buf, lds + addr[k], n);
				else
					memset(buf, 0, sizeof(buf));
				if (n >= 4) {
					for (unsigned i = 0; i < dw; i++)
						memcpy(&isa_vrow(w, dst + i)[l], buf + 4 * i, 4);
				} else {
					uint32_t v = n == 1 ? buf[0] : (uint32_t)(buf[0] | buf[1] << 8);
					uint32_t *d = &isa_vrow(w, dst)[l];
					if (in->flags & DS_SEXT)
						v = n == 1 ? (uint32_t)(int32_t)(int8_t)v
							   : (uint32_t)(int32_t)(int16_t)v;
					if (in->flags & DS_D16_LO)
						v = (*d & 0xffff0000u) | (v & 0xffff);
					else if (in->flags & DS_D16_HI)
						v = (*d & 0xffff) | (v << 16);
					*d = v;
				}
			}
		}
	}
	return ISA_STEP_NEXT;
}

static int exec_ds_lane(struct isa_wave *w, const struct isa_inst *in)
{
	uint32_t src[ISA_LANES], r[ISA_LANES];
	const uint32_t *addr = isa_vrow(w, in->addr_reg);
	uint64_t exec = isa_exec(w);
	unsigned off = (uint32_t)in->offset;

	/* ds_swizzle_b32 takes its data from the ADDR field; permute and
	 * bpermute take the lane address from ADDR and the data from DATA0 */
	memcpy(src, isa_vrow(w, in->op == 0x3d ? in->addr_reg : in->data_reg), sizeof(src));
	switch (in->op) {
	case 0x3d: /* ds_swizzle_b32 */
		for (unsigned l = 0; l < ISA_LANES; l++) {
			unsigned from;
			if (off & 0x8000) { /* quad permute */
				from = (l & ~3u) | ((off >> (2 * (l & 3))) & 3);
			} else {            /* bit mask mode within 32 lanes */
				unsigned andm = off & 31, orm = (off >> 5) & 31, xorm = (off >> 10) & 31;
				from = (l & 32) | ((((l & 31) & andm) | orm) ^ xorm);
			}
			r[l] = (exec >> from & 1) ? src[from] : 0;
		}
		break;
	case 0x3e: /* ds_permute_b32: push to lane (addr+offset)/4 */
		memset(r, 0, sizeof(r));
		for (uint64_t e = exec; e; e &= e - 1) {
			unsigned l = (unsigned)__builtin_ctzll(e);
			r[((addr[l] + off) >> 2) & 63] = src[l];
		}
		break;
	default: /* 0x3f ds_bpermute_b32: pull from lane (addr+offset)/4 */
		for (unsigned l = 0; l < ISA_LANES; l++) {
			unsigned from = ((addr[l] + off) >> 2) & 63;
			r[l] = (exec >> from & 1) ? src[from] : 0;
		}
		break;
	}
	isa_vdst32(w, in->dst, r);
	return ISA_STEP_NEXT;
}

/*
 * ds_gws_* (GDS only; isa_gws.c has the resource semantics).  The resource
 * is (VMID GWS base + M0[21:16] + OFFSET) mod 64 (LLVM's SelectDS_GWS
 * states the sum; OFFSET0[5:0] is what matters mod 64); one outside the
 * VMID's allocation (GDS_GWS_VMIDn BASE/SIZE, size 0 for a process
 * without GWS) is a memory violation.  DATA is read from the first active
 * lane.  The wave, not its lanes, takes part: with EXEC zero the
 * instruction does nothing, as for every DS instruction here (LLVM never
 * emits one without an active lane: ockl's grid sync guards it with the
 * work-item id test).  A wave that has to wait stops with ISA_STEP_GWS;
 * the workgroup scheduler (isa_workgroup.c) resumes it once released.
 */
static int exec_ds_gws(struct isa_wave *w, const struct isa_inst *in)
{
	const struct kemu_isa_dispatch *d = w->wg->d;
	uint64_t exec = isa_exec(w);
	uint32_t value = 0;
	unsigned rid;
	uint64_t token = 0;
	bool released;

	if (!exec)
		return ISA_STEP_NEXT;
	rid = (d->gws_base + ((w->s[ISA_REG_M0] >> 16) & 63) + ((unsigned)in->offset & 63)) & 63;
	if (!d->gws || ((rid - d->gws_base) & 63) >= d->gws_size) {
		isa_fail(w, in, KEMU_ISA_ERR_MEM_VIOL,
			 "%s on GWS resource %u, outside the VMID's GWS (base %u, size %u)",
			 kemu_isa_mnemonic(w->p->gfx942, ISA_ENC_DS, in->op), rid, d->gws_base,
			 d->gws ? d->gws_size : 0);
		return ISA_STEP_ERROR;
	}
	if (in->flags)
		value = isa_vrow(w, in->data_reg)[__builtin_ctzll(exec)];
	if (isa_gws_op(d->gws, in->op, rid, value, &token, &released)) {
		w->gws_wait = true;
		w->gws_rid = (uint8_t)rid;
		w->gws_op = (uint8_t)in->op;
		w->gws_token = token;
	}
	if (released && d->gws_released)
		d->gws_released(d->gws_ctx);
	return w->gws_wait ? ISA_STEP_GWS : ISA_STEP_NEXT;
}

/* The M0-addressed forms (see the file comment); in->op tells which. */
static int exec_ds_m0(struct isa_wave *w, const struct isa_inst *in)
{
	uint64_t exec = isa_exec(w);
	uint32_t base = (w->s[ISA_REG_M0] & 0xffff) + (uint32_t)in->offset;
	uint8_t *lds = w->wg->lds;

	if (in->op == 0xbd || in->op == 0xbe) { /* ds_consume, ds_append */
		uint32_t old = 0, n = (uint32_t)__builtin_popcountll(exec);
		if (!exec)
			return ISA_STEP_NEXT;
		if (lds_ok(w, base, 4)) {
			uint32_t nw;
			memcpy(&old, lds + base, 4);
			nw = in->op == 0xbe ? old + n : old - n;
			memcpy(lds + base, &nw, 4);
		}
		for (uint64_t e = exec; e; e &= e - 1)
			isa_vrow(w, in->dst)[__builtin_ctzll(e)] = old;
		return ISA_STEP_NEXT;
	}
	for (uint64_t e = exec; e; e &= e - 1) {
		unsigned l = (unsigned)__builtin_ctzll(e);
		uint64_t a = (uint32_t)(base + 4 * l);
		if (in->op == 0x1d) {           /* ds_write_addtid_b32 */
			if (lds_ok(w, a, 4))
				memcpy(lds + a, &isa_vrow(w, in->data_reg)[l], 4);
		} else {                        /* ds_read_addtid_b32 */
			uint32_t v = 0;
			if (lds_ok(w, a, 4))
				memcpy(&v, lds + a, 4);
			isa_vrow(w, in->dst)[l] = v;
		}
	}
	return ISA_STEP_NEXT;
}

/* ds_wrap_rtn_b32 and gfx942's ds_pk_add(_rtn)_f16/bf16 (in->aux: the
 * FLAT atomic number; 0 for wrap). */
static int exec_ds_more(struct isa_wave *w, const struct isa_inst *in)
{
	uint64_t exec = isa_exec(w);
	uint8_t *lds = w->wg->lds;

	for (uint64_t e = exec; e; e &= e - 1) {
		unsigned l = (unsigned)__builtin_ctzll(e);
		uint64_t a = (uint32_t)(isa_vrow(w, in->addr_reg)[l] + (uint32_t)in->offset);
		uint32_t d0 = isa_vrow(w, in->data_reg)[l], old = 0;
		if (lds_ok(w, a, 4)) {
			if (in->op == 0x34) {
				uint32_t d1 = isa_vrow(w, in->offset1)[l], nw;
				memcpy(&old, lds + a, 4);
				nw = old >= d0 ? old - d0 : old + d1;
				memcpy(lds + a, &nw, 4);
			} else {
				old = (uint32_t)kemu_isa_lds_atomic(lds + a, 4, in->aux, d0, 0);
			}
		}
		if (in->flags & DS_RTN)
			isa_vrow(w, in->dst)[l] = old;
	}
	return ISA_STEP_NEXT;
}

/* ds_condxchg32_rtn_b64 (CDNA3 ISA guide, DS opcode 126): two
 * conditional writes.  ADDR0 = (ADDR + offset) & 0xfff8, ADDR1 = ADDR0 + 4;
 * each returns the dword it finds, and data dword i replaces it with its
 * low 31 bits (bit 31 cleared) when its bit 31 is set.  An address past
 * the LDS reads 0 and is not written, as for the other DS accesses. */
static int exec_ds_condxchg(struct isa_wave *w, const struct isa_inst *in)
{
	uint64_t exec = isa_exec(w);
	uint8_t *lds = w->wg->lds;

	for (uint64_t e = exec; e; e &= e - 1) {
		unsigned l = (unsigned)__builtin_ctzll(e);
		uint32_t a0 = (isa_vrow(w, in->addr_reg)[l] + (uint32_t)in->offset) & 0xfff8u;
		uint32_t old[2] = { 0, 0 };
		for (unsigned i = 0; i < 2; i++) {
			uint32_t d = isa_vrow(w, in->data_reg + i)[l], a = a0 + 4 * i;
			if (!lds_ok(w, a, 4))
				continue;
			memcpy(&old[i], lds + a, 4);
			if (d >> 31) {
				d &= 0x7fffffffu;
				memcpy(lds + a, &d, 4);
			}
		}
		isa_vrow(w, in->dst)[l] = old[0];
		isa_vrow(w, in->dst + 1u)[l] = old[1];
	}
	return ISA_STEP_NEXT;
}

static int exec_ds_nop(struct isa_wave *w, const struct isa_inst *in)
{
	(void)w;
	(void)in;
	return ISA_STEP_NEXT;
}

void kemu_isa_decode_ds(const struct isa_decoder *dc, struct isa_inst *in)
{
	uint32_t w0 = in->word[0], w1 = in->word[1];
	unsigned op = (w0 >> 17) & 0xff;
	unsigned off0 = w0 & 0xff, off1 = (w0 >> 8) & 0xff;
	unsigned agpr = ((w0 >> 25) & 1) ? dc->p->accum_offset : 0;
	unsigned data0 = ((w1 >> 8) & 0xff) + agpr, data1 = ((w1 >> 16) & 0xff) + agpr;
	unsigned bytes = 0, flags = 0;
	bool rsub, mskor;

	in->op = (uint16_t)op;
	if ((w0 >> 16) & 1) {
		/* GDS: only the GWS instructions (GDS memory itself is not
		 * modelled); init, sema_br and barrier take a DATA VGPR (or
		 * AGPR), which the encoding carries in the ADDR field */
		if (op < ISA_DS_GWS_SEMA_RELEASE_ALL || op > ISA_DS_GWS_BARRIER)
			return;
		in->offset = (int32_t)(off0 | off1 << 8);
		in->data_reg = (uint16_t)((w1 & 0xff) + agpr);
		in->flags = op == ISA_DS_GWS_INIT || op == ISA_DS_GWS_SEMA_BR ||
			    op == ISA_DS_GWS_BARRIER;
		in->exec = exec_ds_gws;
		return;
	}
	in->addr_reg = w1 & 0xff;
	in->data_reg = (uint16_t)data0;
	in->dst = (uint16_t)(((w1 >> 24) & 0xff) + agpr);
	in->offset = (int32_t)(off0 | off1 << 8);

	switch (op) {
	case 0xbd: case 0xbe: case 0xb6: case 0x1d: /* consume, append, read/write_addtid */
		in->exec = exec_ds_m0;
		return;
	case 0x34: /* ds_wrap_rtn_b32 */
		in->flags = DS_RTN;
		in->offset1 = data1;
		in->exec = exec_ds_more;
		return;
	case 0x17: case 0x18: case 0xb7: case 0xb8: /* ds_pk_add(_rtn)_f16/bf16 */
		if (!dc->gfx942)
			return;
		in->flags = op >= 0xb7 ? DS_RTN : 0;
		in->aux = (op & 1) ? A_PK_FADD16 : A_PK_BF16ADD;
		in->exec = exec_ds_more;
		return;
	default:
		break;
	}
	/* atomics: 0x00-0x15 (no return), 0x20-0x35 (return), same +0x40 for 64-bit */
	if (op < 0x80 && op != 0x55 && op != 0x75 && ds_aop(op & 0x1f, &rsub, &mskor) >= 0) {
		/* 0x0d-0x0f, 0x14 are writes/nop (ds_aop() returns -1 for them) */
		in->flags = (op & 0x20) ? DS_RTN : 0;
		if (op & 0x40)
			in->flags |= DS_64;
		in->offset1 = data1;
		in->exec = exec_ds_atomic;
		return;
	}
	switch (op) {
	case 0x2e: case 0x2f: case 0x6e: case 0x6f: /* wrxchg2(st64)_rtn_b32/b64 */
		in->aux = op >= 0x6e ? 8 : 4;
		in->flags = (op & 1) ? 1 : 0;
		in->offset = (int32_t)off0;
		in->offset1 = off1;
		in->sdst = (uint16_t)data1;
		in->exec = exec_ds_wrxchg2;
		return;
	case 0x2d: case 0x6d: /* wrxchg_rtn */
		in->flags = DS_RTN | (op == 0x6d ? DS_64 : 0);
		in->exec = exec_ds_atomic;
		return;
	case 0x5c: case 0x7c: /* ds_add_f64 / ds_add_rtn_f64 (gfx90a+) */
		in->flags = DS_64 | (op == 0x7c ? DS_RTN : 0);
		in->exec = exec_ds_atomic;
		return;
	case 0x14: in->exec = exec_ds_nop; return;
	case 0x7e: in->exec = exec_ds_condxchg; return;
	case 0x3d: case 0x3e: case 0x3f: in->exec = exec_ds_lane; return;
	case 0x0d: bytes = 4; flags = DS_WRITE; break;
	case 0x0e: bytes = 4; flags = DS_WRITE | DS_TWO; break;
	case 0x0f: bytes = 4; flags = DS_WRITE | DS_TWO | DS_ST64; break;
	case 0x1e: bytes = 1; flags = DS_WRITE; break;
	case 0x1f: bytes = 2; flags = DS_WRITE; break;
	case 0x54: bytes = 1; flags = DS_WRITE | DS_D16_HI; break;
	case 0x55: bytes = 2; flags = DS_WRITE | DS_D16_HI; break;
	case 0x4d: bytes = 8; flags = DS_WRITE; break;
	case 0x4e: bytes = 8; flags = DS_WRITE | DS_TWO; break;
	case 0x4f: bytes = 8; flags = DS_WRITE | DS_TWO | DS_ST64; break;
	case 0xde: bytes = 12; flags = DS_WRITE; break;
	case 0xdf: bytes = 16; flags = DS_WRITE; break;
	case 0x36: bytes = 4; break;
	case 0x37: bytes = 4; flags = DS_TWO; break;
	case 0x38: bytes = 4; flags = DS_TWO | DS_ST64; break;
	case 0x39: bytes = 1; flags = DS_SEXT; break;
	case 0x3a: bytes = 1; break;
	case 0x3b: bytes = 2; flags = DS_SEXT; break;
	case 0x3c: bytes = 2; break;
	case 0x56: bytes = 1; flags = DS_D16_LO; break;
	case 0x57: bytes = 1; flags = DS_D16_HI; break;
	case 0x58: bytes = 1; flags = DS_D16_LO | DS_SEXT; break;
	case 0x59: bytes = 1; flags = DS_D16_HI | DS_SEXT; break;
	case 0x5a: bytes = 2; flags = DS_D16_LO; break;
	case 0x5b: bytes = 2; flags = DS_D16_HI; break;
	case 0x76: bytes = 8; break;
	case 0x77: bytes = 8; flags = DS_TWO; break;
	case 0x78: bytes = 8; flags = DS_TWO | DS_ST64; break;
	case 0xfe: bytes = 12; break;
	case 0xff: bytes = 16; break;
	default:
		return;
	}
	in->aux = (uint16_t)bytes;
	in->flags = (uint8_t)flags;
	in->offset1 = off1;
	in->saddr = (uint16_t)data1; /* second data row for write2 */
	in->exec = exec_ds_rw;
}
