/*
 * isa_exec_salu.c — scalar ALU and program control: SOP2, SOPK, SOP1,
 * SOPC and SOPP (CDNA2/CDNA3 ISA guides, "Scalar ALU Operations" and
 * "Program Flow Control").
 *
 * Conventions the guides define and this file relies on:
 *  - shift amounts use only the low 5 (32-bit) or 6 (64-bit) bits;
 *  - SCC is the carry/borrow for unsigned add/sub, signed overflow for
 *    s_add_i32/s_sub_i32/s_addk_i32, and "result != 0" for logic, shifts,
 *    bit counts and s_bfe;
 *  - the *_saveexec ops save EXEC before changing it, and set SCC to
 *    EXEC != 0;
 *  - branch offsets are in dwords from the next instruction.
 * s_waitcnt is a no-op: this interpreter completes every memory access
 * before the next instruction, so every counter is already zero.
 */
#include "isa_priv.h"

static inline uint32_t sx16(uint32_t v)
{
	return (uint32_t)(int32_t)(int16_t)(v & 0xffff);
}

/* Two's-complement helpers without signed overflow (C UB). */
static inline bool add_ovf32(uint32_t a, uint32_t b, uint32_t r)
{
	return ((~(a ^ b) & (a ^ r)) >> 31) & 1;
}
static inline bool sub_ovf32(uint32_t a, uint32_t b, uint32_t r)
{
	return (((a ^ b) & (a ^ r)) >> 31) & 1;
}

static uint32_t bfe_u32(uint32_t v, unsigned off, unsigned width)
{
	if (width == 0)
		return 0;
	v >>= off & 31;
	return width >= 32 ? v : v & ((1u << width) - 1);
}

static uint32_t bfe_i32(uint32_t v, unsigned off, unsigned width)
{
	uint32_t u;
	if (width == 0)
		return 0;
	u = bfe_u32(v, off, width);
	if (width >= 32)
		return u;
	if (u >> (width - 1) & 1)
		u |= ~0u << width;
	return u;
}

static uint64_t bfe_u64(uint64_t v, unsigned off, unsigned width)
{
	if (width == 0)
		return 0;
	v >>= off & 63;
	return width >= 64 ? v : v & ((1ull << width) - 1);
}

static uint64_t bfe_i64(uint64_t v, unsigned off, unsigned width)
{
	uint64_t u;
	if (width == 0)
		return 0;
	u = bfe_u64(v, off, width);
	if (width >= 64)
		return u;
	if (u >> (width - 1) & 1)
		u |= ~0ull << width;
	return u;
}

static inline int32_t as_i32(uint32_t v)
{
	return (int32_t)v; /* implementation-defined, two's complement in GCC */
}

/* ---- SOP2 ---- */

/* Per-opcode executors of SOP2, SOP1 and SOPC: the family's body with the
 * opcode a constant, so the compiler drops the switch (a second indirect
 * jump after the wave loop's call, at one site every opcode shares) and
 * the operand reads the opcode does not need.  The bits are the body's;
 * the decoder picks from the family's table by opcode. */
#define SALU_OPS(X) \
	X(0x00) X(0x01) X(0x02) X(0x03) X(0x04) X(0x05) X(0x06) X(0x07) \
	X(0x08) X(0x09) X(0x0a) X(0x0b) X(0x0c) X(0x0d) X(0x0e) X(0x0f) \
	X(0x10) X(0x11) X(0x12) X(0x13) X(0x14) X(0x15) X(0x16) X(0x17) \
	X(0x18) X(0x19) X(0x1a) X(0x1b) X(0x1c) X(0x1d) X(0x1e) X(0x1f) \
	X(0x20) X(0x21) X(0x22) X(0x23) X(0x24) X(0x25) X(0x26) X(0x27) \
	X(0x28) X(0x29) X(0x2a) X(0x2b) X(0x2c) X(0x2d) X(0x2e) X(0x2f) \
	X(0x30) X(0x31) X(0x32) X(0x33) X(0x34) X(0x35) X(0x36) X(0x37) \
	X(0x38) X(0x39) X(0x3a) X(0x3b) X(0x3c) X(0x3d) X(0x3e) X(0x3f)

static inline __attribute__((always_inline)) int sop2_body(struct isa_wave *w,
							  const struct isa_inst *in, unsigned op)
{
	uint32_t a = isa_sread32(w, &in->src[0]), b = isa_sread32(w, &in->src[1]), d = 0;
	uint64_t a64, b64, d64;
	unsigned c;

	switch (op) {
	case 0x00: d = a + b; w->scc = d < a; break;                              /* s_add_u32 */
	case 0x01: d = a - b; w->scc = b > a; break;                              /* s_sub_u32 */
	case 0x02: d = a + b; w->scc = add_ovf32(a, b, d); break;                 /* s_add_i32 */
	case 0x03: d = a - b; w->scc = sub_ovf32(a, b, d); break;                 /* s_sub_i32 */
	case 0x04: c = w->scc; d64 = (uint64_t)a + b + c; d = (uint32_t)d64;      /* s_addc_u32 */
		w->scc = (uint32_t)(d64 >> 32); break;
	case 0x05: c = w->scc; d = a - b - c;                                     /* s_subb_u32 */
		w->scc = (uint64_t)b + c > a; break;
	case 0x06: w->scc = as_i32(a) < as_i32(b); d = w->scc ? a : b; break;     /* s_min_i32 */
	case 0x07: w->scc = a < b; d = w->scc ? a : b; break;                     /* s_min_u32 */
	case 0x08: w->scc = as_i32(a) > as_i32(b); d = w->scc ? a : b; break;     /* s_max_i32 */
	case 0x09: w->scc = a > b; d = w->scc ? a : b; break;                     /* s_max_u32 */
	case 0x0a: d = w->scc ? a : b; break;                                     /* s_cselect_b32 */
	case 0x0c: d = a & b; w->scc = d != 0; break;
	case 0x0e: d = a | b; w->scc = d != 0; break;
	case 0x10: d = a ^ b; w->scc = d != 0; break;
	case 0x12: d = a & ~b; w->scc = d != 0; break;
	case 0x14: d = a | ~b; w->scc = d != 0; break;
	case 0x16: d = ~(a & b); w->scc = d != 0; break;
	case 0x18: d = ~(a | b); w->scc = d != 0; break;
	case 0x1a: d = ~(a ^ b); w->scc = d != 0; break;
	case 0x1c: d = a << (b & 31); w->scc = d != 0; break;                     /* s_lshl_b32 */
	case 0x1e: d = a >> (b & 31); w->scc = d != 0; break;                     /* s_lshr_b32 */
	case 0x20: d = (uint32_t)(as_i32(a) >> (b & 31)); w->scc = d != 0; break; /* s_ashr_i32 */
	case 0x22: d = (uint32_t)(((1ull << (a & 31)) - 1) << (b & 31)); break;   /* s_bfm_b32 */
	case 0x24: d = a * b; break;                                              /* s_mul_i32 */
	case 0x25: d = bfe_u32(a, b & 31, (b >> 16) & 0x7f); w->scc = d != 0; break;
	case 0x26: d = bfe_i32(a, b & 31, (b >> 16) & 0x7f); w->scc = d != 0; break;
	case 0x2a: d = as_i32(a) >= as_i32(b) ? a - b : b - a; w->scc = d != 0; break;
	case 0x2c: d = (uint32_t)(((uint64_t)a * b) >> 32); break;                /* s_mul_hi_u32 */
	case 0x2d: d = (uint32_t)((uint64_t)((int64_t)as_i32(a) * as_i32(b)) >> 32); break;
	case 0x2e: case 0x2f: case 0x30: case 0x31: {                             /* s_lshlN_add_u32 */
		uint64_t t = ((uint64_t)a << (op - 0x2d)) + b;
		d = (uint32_t)t;
		w->scc = (t >> 32) != 0;
		break;
	}
	case 0x32: d = (a & 0xffff) | (b << 16); break;                           /* s_pack_ll */
	case 0x33: d = (a & 0xffff) | (b & 0xffff0000u); break;                   /* s_pack_lh */
	case 0x34: d = (a >> 16) | (b & 0xffff0000u); break;                      /* s_pack_hh */
	default:
		goto wide;
	}
	isa_swrite32(w, in->dst, d);
	return ISA_STEP_NEXT;
wide:
	a64 = isa_sread64(w, &in->src[0]);
	b64 = isa_sread64(w, &in->src[1]);
	switch (op) {
	case 0x0b: d64 = w->scc ? a64 : b64; break;                               /* s_cselect_b64 */
	case 0x0d: d64 = a64 & b64; w->scc = d64 != 0; break;
	case 0x0f: d64 = a64 | b64; w->scc = d64 != 0; break;
	case 0x11: d64 = a64 ^ b64; w->scc = d64 != 0; break;
	case 0x13: d64 = a64 & ~b64; w->scc = d64 != 0; break;
	case 0x15: d64 = a64 | ~b64; w->scc = d64 != 0; break;
	case 0x17: d64 = ~(a64 & b64); w->scc = d64 != 0; break;
	case 0x19: d64 = ~(a64 | b64); w->scc = d64 != 0; break;
	case 0x1b: d64 = ~(a64 ^ b64); w->scc = d64 != 0; break;
	/* 64-bit shifts: the amount is a 32-bit operand, low 6 bits used */
	case 0x1d: d64 = a64 << (b & 63); w->scc = d64 != 0; break;
	case 0x1f: d64 = a64 >> (b & 63); w->scc = d64 != 0; break;
	case 0x21: d64 = (uint64_t)((int64_t)a64 >> (b & 63)); w->scc = d64 != 0; break;
	case 0x23: d64 = ((a & 63) ? (1ull << (a & 63)) - 1 : 0) << (b & 63); break; /* s_bfm_b64 */
	case 0x27: d64 = bfe_u64(a64, b & 63, (b >> 16) & 0x7f); w->scc = d64 != 0; break;
	case 0x28: d64 = bfe_i64(a64, b & 63, (b >> 16) & 0x7f); w->scc = d64 != 0; break;
	default:
		return isa_exec_illegal(w, in);
	}
	isa_swrite64(w, in->dst, d64);
	return ISA_STEP_NEXT;
}

#define SOP2_FN(OP) \
	static int exec_sop2_##OP(struct isa_wave *w, const struct isa_inst *in) \
	{ \
		return sop2_body(w, in, OP); \
	}
SALU_OPS(SOP2_FN)
#define SOP2_ENTRY(OP) exec_sop2_##OP,
static const isa_exec_fn sop2_fns[64] = { SALU_OPS(SOP2_ENTRY) };

/* ---- hardware registers (s_getreg / s_setreg) ---- */

#define HWREG_MODE 1
#define HWREG_STATUS 2
#define HWREG_TRAPSTS 3
#define HWREG_HW_ID 4
#define HWREG_GPR_ALLOC 5
#define HWREG_LDS_ALLOC 6
#define HWREG_IB_STS 7
#define HWREG_SH_MEM_BASES 15

static uint32_t hwreg_read(const struct isa_wave *w, unsigned id)
{
	switch (id) {
	case HWREG_MODE:
		return w->mode;
	case HWREG_STATUS:
		return isa_trap_status(w);
	case HWREG_TRAPSTS:
		return w->trapsts;
	case HWREG_HW_ID:
		/* WAVE_ID [3:0], SIMD_ID [5:4]; the rest (CU, SH, SE, queue) 0 */
		return (w->id & 15) | (((w->id >> 4) & 3) << 4);
	case HWREG_GPR_ALLOC:
		/* VGPR_SIZE [13:8] in granules of 8 minus 1; SGPR_SIZE [27:24]
		 * in granules of 16 minus 1 (gfx9: 102 + specials -> 112) */
		return (((w->p->vgpr_rows / 8 - 1) & 0x3f) << 8) | (6u << 24);
	case HWREG_LDS_ALLOC:
		/* LDS_SIZE [20:12] in 128-dword granules */
		return ((w->wg->lds_size + 511) / 512 & 0x1ff) << 12;
	case HWREG_SH_MEM_BASES:
		/* PRIVATE_BASE [15:0], SHARED_BASE [31:16]: bits [63:48] */
		return (uint32_t)(w->wg->d->apertures.private_base >> 48) |
		       (uint32_t)(w->wg->d->apertures.shared_base >> 48) << 16;
	default:
		return 0;
	}
}

static void hwreg_write(struct isa_wave *w, unsigned id, uint32_t val, uint32_t mask)
{
	switch (id) {
	case HWREG_MODE:
		w->mode = (w->mode & ~mask) | (val & mask);
		break;
	case HWREG_TRAPSTS:
		w->trapsts = (w->trapsts & ~mask) | (val & mask);
		break;
	default:
		break; /* read-only or not modelled: the write is dropped */
	}
}

/* simm16 of s_getreg/s_setreg: ID [5:0], OFFSET [10:6], SIZE-1 [15:11]. */
static int exec_getreg(struct isa_wave *w, const struct isa_inst *in)
{
	unsigned simm = (unsigned)in->offset & 0xffff;
	unsigned id = simm & 0x3f, off = (simm >> 6) & 31, size = ((simm >> 11) & 31) + 1;
	uint32_t v = hwreg_read(w, id) >> off;
	if (size < 32)
		v &= (1u << size) - 1;
	isa_swrite32(w, in->dst, v);
	return ISA_STEP_NEXT;
}

static int exec_setreg(struct isa_wave *w, const struct isa_inst *in)
{
	unsigned simm = (unsigned)in->offset & 0xffff;
	unsigned id = simm & 0x3f, off = (simm >> 6) & 31, size = ((simm >> 11) & 31) + 1;
	uint32_t val = in->flags ? in->word[1] : isa_sread32(w, &in->src[0]);
	uint32_t fmask = size >= 32 ? ~0u : (1u << size) - 1;
	if (id == HWREG_STATUS)
		return isa_trap_status_write(w, in, (val & fmask) << off, fmask << off);
	hwreg_write(w, id, (val & fmask) << off, fmask << off);
	/* MODE.VSKIP / GPR_IDX_EN set this way take effect as well */
	return id == HWREG_MODE ? isa_mode_changed(w, in) : ISA_STEP_NEXT;
}

/* ---- SOPK ---- */

static int exec_sopk(struct isa_wave *w, const struct isa_inst *in)
{
	uint32_t k = (uint32_t)in->offset & 0xffff, s = w->s[in->dst & 127], d;

	switch (in->op) {
	case 0x00: isa_swrite32(w, in->dst, sx16(k)); break;
	case 0x01: if (w->scc) isa_swrite32(w, in->dst, sx16(k)); break;
	case 0x02: w->scc = as_i32(s) == as_i32(sx16(k)); break;
	case 0x03: w->scc = as_i32(s) != as_i32(sx16(k)); break;
	case 0x04: w->scc = as_i32(s) > as_i32(sx16(k)); break;
	case 0x05: w->scc = as_i32(s) >= as_i32(sx16(k)); break;
	case 0x06: w->scc = as_i32(s) < as_i32(sx16(k)); break;
	case 0x07: w->scc = as_i32(s) <= as_i32(sx16(k)); break;
	case 0x08: w->scc = s == k; break;
	case 0x09: w->scc = s != k; break;
	case 0x0a: w->scc = s > k; break;
	case 0x0b: w->scc = s >= k; break;
	case 0x0c: w->scc = s < k; break;
	case 0x0d: w->scc = s <= k; break;
	case 0x0e: d = s + sx16(k); w->scc = add_ovf32(s, sx16(k), d);            /* s_addk_i32 */
		isa_swrite32(w, in->dst, d); break;
	case 0x0f: isa_swrite32(w, in->dst, s * sx16(k)); break;                  /* s_mulk_i32 */
	case 0x15: /* s_call_b64: D = return address, jump PC-relative */
		isa_swrite64(w, in->dst, in->addr + 4);
		w->pc = in->target;
		break;
	default:
		return isa_exec_illegal(w, in);
	}
	return ISA_STEP_NEXT;
}

/* ---- SOP1 ---- */

static unsigned clz32(uint32_t v) { return v ? (unsigned)__builtin_clz(v) : 32; }
static unsigned clz64(uint64_t v) { return v ? (unsigned)__builtin_clzll(v) : 64; }

static inline __attribute__((always_inline)) int sop1_body(struct isa_wave *w,
							  const struct isa_inst *in, unsigned op)
{
	uint32_t a = 0, d = 0;
	uint64_t a64 = 0, d64 = 0, exec = isa_exec(w);
	bool wide = false;

	switch (op) {
	case 0x00: case 0x02: case 0x04: case 0x06: case 0x08: case 0x0a: case 0x0c:
	case 0x0e: case 0x10: case 0x12: case 0x14: case 0x16: case 0x17: case 0x18:
	case 0x1a: case 0x28: case 0x30: case 0x2a: case 0x2c:
		a = isa_sread32(w, &in->src[0]);
		break;
	default:
		a64 = isa_sread64(w, &in->src[0]);
		a = (uint32_t)a64;
		break;
	}
	switch (op) {
	case 0x00: d = a; break;                                     /* s_mov_b32 */
	case 0x01: d64 = a64; wide = true; break;                    /* s_mov_b64 */
	case 0x02: if (!w->scc) return ISA_STEP_NEXT; d = a; break;  /* s_cmov_b32 */
	case 0x03: if (!w->scc) return ISA_STEP_NEXT; d64 = a64; wide = true; break;
	case 0x04: d = ~a; w->scc = d != 0; break;
	case 0x05: d64 = ~a64; w->scc = d64 != 0; wide = true; break;
	case 0x06: case 0x07: {                                      /* s_wqm: whole quad */
		uint64_t src = op == 0x06 ? a : a64;
		d64 = 0;
		for (unsigned q = 0; q < 64; q += 4)
			if (src >> q & 15)
				d64 |= 15ull << q;
		if (op == 0x06) {
			d = (uint32_t)d64;
			w->scc = d != 0;
		} else {
			w->scc = d64 != 0;
			wide = true;
		}
		break;
	}
	case 0x08: d = 0; for (unsigned i = 0; i < 32; i++) d |= ((a >> i) & 1) << (31 - i); break;
	case 0x09: d64 = 0; for (unsigned i = 0; i < 64; i++) d64 |= ((a64 >> i) & 1) << (63 - i);
		wide = true; break;
	case 0x0a: d = 32 - (unsigned)__builtin_popcount(a); w->scc = d != 0; break;
	case 0x0b: d = 64 - (unsigned)__builtin_popcountll(a64); w->scc = d != 0; break;
	case 0x0c: d = (unsigned)__builtin_popcount(a); w->scc = d != 0; break;
	case 0x0d: d = (unsigned)__builtin_popcountll(a64); w->scc = d != 0; break;
	case 0x0e: d = ~a ? (unsigned)__builtin_ctz(~a) : ~0u; break;        /* s_ff0_i32_b32 */
	case 0x0f: d = ~a64 ? (unsigned)__builtin_ctzll(~a64) : ~0u; break;
	case 0x10: d = a ? (unsigned)__builtin_ctz(a) : ~0u; break;           /* s_ff1_i32_b32 */
	case 0x11: d = a64 ? (unsigned)__builtin_ctzll(a64) : ~0u; break;
	case 0x12: d = a ? clz32(a) : ~0u; break;                             /* s_flbit_i32_b32 */
	case 0x13: d = a64 ? clz64(a64) : ~0u; break;
	case 0x14: /* s_flbit_i32: first bit that differs from the sign */
		d = (a == 0 || a == ~0u) ? ~0u : clz32(a >> 31 ? ~a : a);
		break;
	case 0x15:
		d = (a64 == 0 || a64 == ~0ull) ? ~0u : clz64(a64 >> 63 ? ~a64 : a64);
		break;
	case 0x16: d = (uint32_t)(int32_t)(int8_t)(a & 0xff); break;
	case 0x17: d = sx16(a); break;
	case 0x18: d = w->s[in->dst & 127] & ~(1u << (a & 31)); break;       /* s_bitset0_b32 */
	case 0x19: d64 = isa_sreg64(w, in->dst) & ~(1ull << (a & 63)); wide = true; break;
	case 0x1a: d = w->s[in->dst & 127] | (1u << (a & 31)); break;
	case 0x1b: d64 = isa_sreg64(w, in->dst) | (1ull << (a & 63)); wide = true; break;
	case 0x1c: d64 = in->addr + 4; wide = true; break;                    /* s_getpc_b64 */
	case 0x1d: return kemu_isa_jump(w, in, a64);                          /* s_setpc_b64 */
	case 0x1e: isa_swrite64(w, in->dst, in->addr + 4);                    /* s_swappc_b64 */
		return kemu_isa_jump(w, in, a64);
	case 0x20: case 0x21: case 0x22: case 0x23: case 0x24: case 0x25: case 0x26:
	case 0x27: case 0x33: case 0x34: {
		uint64_t e;
		switch (op) {
		case 0x20: e = a64 & exec; break;
		case 0x21: e = a64 | exec; break;
		case 0x22: e = a64 ^ exec; break;
		case 0x23: e = a64 & ~exec; break;
		case 0x24: e = a64 | ~exec; break;
		case 0x25: e = ~(a64 & exec); break;
		case 0x26: e = ~(a64 | exec); break;
		case 0x27: e = ~(a64 ^ exec); break;
		case 0x33: e = ~a64 & exec; break;
		default: e = ~a64 | exec; break;
		}
		isa_swrite64(w, in->dst, exec);
		isa_set_exec(w, e);
		w->scc = e != 0;
		return ISA_STEP_NEXT;
	}
	case 0x35: case 0x36: {                                               /* s_andn{1,2}_wrexec */
		uint64_t e = op == 0x35 ? ~a64 & exec : a64 & ~exec;
		isa_set_exec(w, e);
		isa_swrite64(w, in->dst, e);
		w->scc = e != 0;
		return ISA_STEP_NEXT;
	}
	case 0x28: case 0x29: {                                               /* s_quadmask */
		uint64_t src = op == 0x28 ? a : a64, q = 0;
		for (unsigned i = 0; i < 16; i++)
			if (src >> (4 * i) & 15)
				q |= 1ull << i;
		if (op == 0x28) {
			d = (uint32_t)q;
			w->scc = d != 0;
		} else {
			d64 = q;
			w->scc = q != 0;
			wide = true;
		}
		break;
	}
	case 0x2a: { /* s_movrels_b32: D = SGPR[src + M0] */
		unsigned idx = in->src[0].reg + w->s[ISA_REG_M0];
		d = idx < ISA_SGPR_MAX ? w->s[idx] : 0;
		break;
	}
	case 0x2b: {
		unsigned idx = in->src[0].reg + w->s[ISA_REG_M0];
		d64 = idx + 1 < ISA_SGPR_MAX ? isa_sreg64(w, idx) : 0;
		wide = true;
		break;
	}
	case 0x2c: { /* s_movreld_b32: SGPR[dst + M0] = S0 */
		unsigned idx = in->dst + w->s[ISA_REG_M0];
		if (idx < ISA_SGPR_MAX)
			w->s[idx] = a;
		return ISA_STEP_NEXT;
	}
	case 0x2d: {
		unsigned idx = in->dst + w->s[ISA_REG_M0];
		if (idx + 1 < ISA_SGPR_MAX)
			isa_swrite64(w, idx, a64);
		return ISA_STEP_NEXT;
	}
	case 0x30: d = as_i32(a) < 0 ? 0u - a : a; w->scc = d != 0; break;   /* s_abs_i32 */
	case 0x37: /* s_bitreplicate_b64_b32: each bit of S0 twice */
		d64 = 0;
		for (unsigned i = 0; i < 32; i++)
			if (a >> i & 1)
				d64 |= 3ull << (2 * i);
		wide = true;
		break;
	default:
		return isa_exec_illegal(w, in);
	}
	if (wide)
		isa_swrite64(w, in->dst, d64);
	else
		isa_swrite32(w, in->dst, d);
	return ISA_STEP_NEXT;
}

#define SOP1_FN(OP) \
	static int exec_sop1_##OP(struct isa_wave *w, const struct isa_inst *in) \
	{ \
		return sop1_body(w, in, OP); \
	}
SALU_OPS(SOP1_FN)
#define SOP1_ENTRY(OP) exec_sop1_##OP,
static const isa_exec_fn sop1_fns[64] = { SALU_OPS(SOP1_ENTRY) };

/* ---- SOPC ---- */

static inline __attribute__((always_inline)) int sopc_body(struct isa_wave *w,
							  const struct isa_inst *in, unsigned op)
{
	uint32_t a = isa_sread32(w, &in->src[0]), b = isa_sread32(w, &in->src[1]);
	uint32_t r;

	switch (op) {
	case 0x00: r = a == b; break;
	case 0x01: r = a != b; break;
	case 0x02: r = as_i32(a) > as_i32(b); break;
	case 0x03: r = as_i32(a) >= as_i32(b); break;
	case 0x04: r = as_i32(a) < as_i32(b); break;
	case 0x05: r = as_i32(a) <= as_i32(b); break;
	case 0x06: r = a == b; break;
	case 0x07: r = a != b; break;
	case 0x08: r = a > b; break;
	case 0x09: r = a >= b; break;
	case 0x0a: r = a < b; break;
	case 0x0b: r = a <= b; break;
	case 0x0c: r = ((a >> (b & 31)) & 1) == 0; break;
	case 0x0d: r = ((a >> (b & 31)) & 1) == 1; break;
	case 0x0e: r = ((isa_sread64(w, &in->src[0]) >> (b & 63)) & 1) == 0; break;
	case 0x0f: r = ((isa_sread64(w, &in->src[0]) >> (b & 63)) & 1) == 1; break;
	case 0x12: r = isa_sread64(w, &in->src[0]) == isa_sread64(w, &in->src[1]); break;
	case 0x13: r = isa_sread64(w, &in->src[0]) != isa_sread64(w, &in->src[1]); break;
	default:
		return isa_exec_illegal(w, in);
	}
	w->scc = r;
	return ISA_STEP_NEXT;
}

#define SOPC_FN(OP) \
	static int exec_sopc_##OP(struct isa_wave *w, const struct isa_inst *in) \
	{ \
		return sopc_body(w, in, OP); \
	}
SALU_OPS(SOPC_FN)
#define SOPC_ENTRY(OP) exec_sopc_##OP,
static const isa_exec_fn sopc_fns[64] = { SALU_OPS(SOPC_ENTRY) };

/* ---- SOPP ---- */

/* Kept a no-op: the wave loop skips instructions with this executor
 * without calling it (isa_priv.h, struct isa_inst's after). */
int isa_exec_nop(struct isa_wave *w, const struct isa_inst *in)
{
	(void)w;
	(void)in;
	return ISA_STEP_NEXT;
}

static int exec_endpgm(struct isa_wave *w, const struct isa_inst *in)
{
	(void)in;
	w->done = true;
	return ISA_STEP_END;
}

static int exec_branch(struct isa_wave *w, const struct isa_inst *in)
{
	w->pc = in->target;
	return ISA_STEP_NEXT;
}

static int exec_cbranch_scc0(struct isa_wave *w, const struct isa_inst *in)
{
	if (!w->scc)
		w->pc = in->target;
	return ISA_STEP_NEXT;
}

static int exec_cbranch_scc1(struct isa_wave *w, const struct isa_inst *in)
{
	if (w->scc)
		w->pc = in->target;
	return ISA_STEP_NEXT;
}

static int exec_cbranch_vccz(struct isa_wave *w, const struct isa_inst *in)
{
	if (isa_vcc(w) == 0)
		w->pc = in->target;
	return ISA_STEP_NEXT;
}

static int exec_cbranch_vccnz(struct isa_wave *w, const struct isa_inst *in)
{
	if (isa_vcc(w) != 0)
		w->pc = in->target;
	return ISA_STEP_NEXT;
}

static int exec_cbranch_execz(struct isa_wave *w, const struct isa_inst *in)
{
	if (isa_exec(w) == 0)
		w->pc = in->target;
	return ISA_STEP_NEXT;
}

/* s_and_saveexec_b64 then s_cbranch_execz: every divergent `if` opens
 * with it.  The superinstruction (isa_salu_fuse; struct isa_inst's run)
 * does sop1_body's and exec_cbranch_execz's work in their order: the
 * source read, the old EXEC to SDST, EXEC and SCC, then the branch on the
 * new EXEC to the second's target or past it. */
static int exec_and_saveexec_execz(struct isa_wave *w, const struct isa_inst *in)
{
	const struct isa_inst *i2 = &w->insts[in->next];
	uint64_t exec = isa_exec(w), e = isa_sread64(w, &in->src[0]) & exec;

	isa_swrite64(w, in->dst, exec);
	isa_set_exec(w, e);
	w->scc = e != 0;
	w->pc = e ? i2->next : i2->target;
	return ISA_STEP_NEXT;
}

isa_exec_fn isa_salu_fuse(const struct isa_inst *a, const struct isa_inst *b)
{
	if (!a || !b)
		return NULL;
	if (a->enc == ISA_ENC_SOP1 && a->op == 0x20 && a->exec == sop1_fns[0x20] &&
	    b->exec == exec_cbranch_execz)
		return exec_and_saveexec_execz;
	return NULL;
}

static int exec_cbranch_execnz(struct isa_wave *w, const struct isa_inst *in)
{
	if (isa_exec(w) != 0)
		w->pc = in->target;
	return ISA_STEP_NEXT;
}

static int exec_barrier(struct isa_wave *w, const struct isa_inst *in)
{
	(void)w;
	(void)in;
	return ISA_STEP_BARRIER;
}

static int exec_trap(struct isa_wave *w, const struct isa_inst *in)
{
	unsigned id = (unsigned)in->offset & 0xff;
	isa_fail(w, in, KEMU_ISA_ERR_TRAP, "s_trap %u at 0x%llx (wave %u)", id,
		 (unsigned long long)in->addr, w->id);
	if (w->err)
		w->err->trap_id = id;
	return ISA_STEP_ERROR;
}

static int exec_sethalt(struct isa_wave *w, const struct isa_inst *in)
{
	if (!(in->offset & 1))
		return ISA_STEP_NEXT;
	/* A halted wave never resumes without a debugger; report it rather
	 * than leave the dispatch hanging. */
	return isa_fail(w, in, KEMU_ISA_ERR_HALT, "s_sethalt 1 at 0x%llx halted wave %u",
			(unsigned long long)in->addr, w->id);
}

/* s_sendmsg: MSG in simm16 [3:0].  MSG_INTERRUPT (1) sends the low 24 bits
 * of M0 to the CP, which raises the interrupt; the others (GS, save-wave,
 * stall) mean nothing to a compute wave and are dropped. */
static int exec_sendmsg(struct isa_wave *w, const struct isa_inst *in)
{
	unsigned msg = (unsigned)in->offset & 15;
	const struct kemu_isa_dispatch *d = w->wg->d;

	if (msg == 1 && d->interrupt)
		d->interrupt(d->interrupt_ctx, w->s[ISA_REG_M0] & 0xffffff,
			     w->id | (w->trap.priv ? KEMU_ISA_INTERRUPT_PRIV : 0));
	if (msg == 10) /* MSG_GET_DOORBELL */
		return isa_trap_get_doorbell(w, in);
	if (in->op == 0x11) /* s_sendmsghalt */
		return isa_fail(w, in, KEMU_ISA_ERR_HALT, "s_sendmsghalt halted wave %u", w->id);
	return ISA_STEP_NEXT;
}

static int exec_set_gpr_idx_off(struct isa_wave *w, const struct isa_inst *in)
{
	(void)in;
	w->mode &= ~(1u << 27); /* GPR_IDX_EN */
	return ISA_STEP_NEXT;
}

/* s_rfe_restore_b64 S0, S1: s_rfe_b64 to S0, and STATUS.INST_ATC = S1[0]
 * (the CWSR handler's return, cwsr_trap_handler_gfx9.asm); kfdemu models
 * no ATC, so INST_ATC has nothing to select and only the return remains. */
static int exec_rfe_restore(struct isa_wave *w, const struct isa_inst *in)
{
	return isa_exec_rfe(w, in);
}

/* ---- decode ---- */

void kemu_isa_decode_salu(const struct isa_decoder *dc, struct isa_inst *in)
{
	uint32_t w0 = in->word[0], lit = in->size > 4 ? in->word[1] : 0;
	(void)dc;

	switch (in->enc) {
	case ISA_ENC_SOP2:
		in->op = (w0 >> 23) & 0x7f;
		in->dst = (w0 >> 16) & 0x7f;
		/* 64-bit operand types for the b64 ops (shift amounts stay 32) */
		{
			bool w64 = (in->op >= 0x0b && in->op <= 0x1b && (in->op & 1)) ||
				   in->op == 0x1d || in->op == 0x1f || in->op == 0x21 ||
				   in->op == 0x27 || in->op == 0x28;
			bool b64 = w64 && in->op != 0x1d && in->op != 0x1f && in->op != 0x21 &&
				   in->op != 0x27 && in->op != 0x28;
			kemu_isa_opnd(&in->src[0], w0 & 0xff, w64 ? ISA_T_B64 : ISA_T_B32, lit);
			kemu_isa_opnd(&in->src[1], (w0 >> 8) & 0xff, b64 ? ISA_T_B64 : ISA_T_B32, lit);
		}
		if (in->op <= 0x34 && in->op != 0x29 && in->op != 0x2b) {
			in->exec = sop2_fns[in->op];
		} else if (in->op == 0x29 || in->op == 0x2b) {
			/* s_cbranch_g_fork S0 mask, S1 target; s_rfe_restore_b64
			 * S0 PC, S1 (bit 0: STATUS.INST_ATC) */
			kemu_isa_opnd(&in->src[0], w0 & 0xff, ISA_T_B64, lit);
			kemu_isa_opnd(&in->src[1], (w0 >> 8) & 0xff,
				      in->op == 0x29 ? ISA_T_B64 : ISA_T_B32, lit);
			in->exec = in->op == 0x29 ? isa_exec_g_fork : exec_rfe_restore;
		}
		break;
	case ISA_ENC_SOPK:
		in->op = (w0 >> 23) & 0x1f;
		in->dst = (w0 >> 16) & 0x7f;
		in->offset = (int32_t)(w0 & 0xffff);
		if (in->op <= 0x0f || in->op == 0x15)
			in->exec = exec_sopk;
		else if (in->op == 0x11)
			in->exec = exec_getreg;
		else if (in->op == 0x12) {
			kemu_isa_opnd(&in->src[0], in->dst, ISA_T_B32, 0);
			in->exec = exec_setreg;
		} else if (in->op == 0x14) {
			in->flags = 1; /* s_setreg_imm32_b32: value is the literal */
			in->exec = exec_setreg;
		} else if (in->op == 0x10) {
			in->exec = isa_exec_i_fork; /* SDST is the mask pair */
		}
		break;
	case ISA_ENC_SOP1: {
		static const uint8_t b32src[] = { 0x00, 0x02, 0x04, 0x06, 0x08, 0x0a, 0x0c, 0x0e,
			0x10, 0x12, 0x14, 0x16, 0x17, 0x18, 0x1a, 0x28, 0x30, 0x2a, 0x2c, 0x2e, 0x32 };
		bool is32 = false;
		in->op = (w0 >> 8) & 0xff;
		in->dst = (w0 >> 16) & 0x7f;
		for (unsigned i = 0; i < sizeof(b32src); i++)
			is32 |= b32src[i] == in->op;
		kemu_isa_opnd(&in->src[0], w0 & 0xff, is32 ? ISA_T_B32 : ISA_T_B64, lit);
		if (in->op <= 0x1e || (in->op >= 0x20 && in->op <= 0x2d) || in->op == 0x30 ||
		    (in->op >= 0x33 && in->op <= 0x37))
			in->exec = sop1_fns[in->op];
		else if (in->op == 0x1f)
			in->exec = isa_exec_rfe;        /* s_rfe_b64 (isa_trap.c) */
		else if (in->op == 0x2e)
			in->exec = isa_exec_join;       /* isa_exec_mode.c */
		else if (in->op == 0x32)
			in->exec = isa_exec_gpr_idx_idx;
		break;
	}
	case ISA_ENC_SOPC: {
		bool b64;
		in->op = (w0 >> 16) & 0x7f;
		b64 = in->op == 0x12 || in->op == 0x13 || in->op == 0x0e || in->op == 0x0f;
		kemu_isa_opnd(&in->src[0], w0 & 0xff, b64 ? ISA_T_B64 : ISA_T_B32, lit);
		kemu_isa_opnd(&in->src[1], (w0 >> 8) & 0xff,
			      (in->op == 0x12 || in->op == 0x13) ? ISA_T_B64 : ISA_T_B32, lit);
		if (in->op <= 0x0f || in->op == 0x12 || in->op == 0x13)
			in->exec = sopc_fns[in->op];
		else if (in->op == 0x10)
			in->exec = isa_exec_setvskip;   /* isa_exec_mode.c */
		else if (in->op == 0x11)
			in->exec = isa_exec_gpr_idx_on;
		break;
	}
	case ISA_ENC_SOPP:
		in->op = (w0 >> 16) & 0x7f;
		in->offset = (int32_t)(w0 & 0xffff);
		switch (in->op) {
		case 0x00: case 0x03: case 0x0b: case 0x0c: case 0x0e: case 0x0f: case 0x13:
		case 0x14: case 0x15: case 0x16:
			in->exec = isa_exec_nop; /* s_nop, s_wakeup, s_setkill, s_waitcnt,
						s_sleep, s_setprio, s_icache_inv,
						perf levels, s_ttracedata */
			break;
		case 0x01: case 0x1b: in->exec = exec_endpgm; break;
		case 0x02: in->exec = exec_branch; break;
		case 0x04: in->exec = exec_cbranch_scc0; break;
		case 0x05: in->exec = exec_cbranch_scc1; break;
		case 0x06: in->exec = exec_cbranch_vccz; break;
		case 0x07: in->exec = exec_cbranch_vccnz; break;
		case 0x08: in->exec = exec_cbranch_execz; break;
		case 0x09: in->exec = exec_cbranch_execnz; break;
		case 0x0a: in->exec = exec_barrier; break;
		case 0x0d: in->exec = exec_sethalt; break;
		case 0x10: case 0x11: in->exec = exec_sendmsg; break;
		case 0x12: in->exec = exec_trap; break;
		/* s_cbranch_cdbg*: no debugger is attached, so the
		 * conditions are false and the branch is never taken. */
		case 0x17: case 0x18: case 0x19: case 0x1a: in->exec = isa_exec_nop; break;
		case 0x1c: in->exec = exec_set_gpr_idx_off; break;
		case 0x1d: in->exec = isa_exec_gpr_idx_mode; break;
		default: break;
		}
		break;
	default:
		break;
	}
	for (unsigned i = 0; i < 2; i++)
		if (in->src[i].kind == ISA_OPND_BAD)
			in->exec = isa_exec_illegal;
}
