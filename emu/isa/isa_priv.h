/*
 * isa_priv.h — internal header of kfdemu_isa: the decoded instruction,
 * the wave and workgroup state, and the helpers every executor shares.
 *
 * Design (emulation-anchors §5 lesson 12):
 *  - decode once: a program is an array of struct isa_inst, one per
 *    instruction reachable from the kernel entry, each carrying its
 *    executor (a function pointer chosen at decode), its pre-decoded
 *    operands (inline constants and literals already expanded for the
 *    operand type) and, for branches, the index of the target;
 *  - wave-at-a-time: the wave loop (isa_workgroup.c, wave_run) calls
 *    in->run() until the wave ends, reaches s_barrier, or fails: the
 *    executor, or a superinstruction that also runs the instruction after
 *    it; the no-ops after an instruction that fell through it counts
 *    without calling them;
 *  - lanes: VALU executors compute all 64 lanes into a temporary and merge
 *    under EXEC (no per-lane branches on the hot path); memory executors
 *    walk the set bits of EXEC.
 *
 * Register files: SGPRs and the special scalar registers live in one
 * array indexed by the 7-bit scalar operand code (s0..s101, FLAT_SCRATCH
 * 102/103, XNACK_MASK 104/105, VCC 106/107, TTMP 108..123, M0 124,
 * EXEC 126/127), so an operand code is its own address.  VGPRs are stored
 * register-major (v[r * 64 + lane]); on gfx90a/gfx942 the AGPRs live in the
 * same unified file from ACCUM_OFFSET on (CDNA2/CDNA3 ISA guides, "unified
 * VGPR file"), so a[i] is row accum_offset + i.
 */
#ifndef KEMU_ISA_PRIV_H
#define KEMU_ISA_PRIV_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "isa.h"
#include <hsa/amd_hsa_kernel_code.h>

#define ISA_LANES 64

/* Lane loops of the hot executors are compiled twice, for baseline x86-64
 * and for AVX2, and the loader picks one (GCC function multiversioning);
 * results are identical, only the vector width differs. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(ISA_NO_CLONES)
#define ISA_HOT __attribute__((target_clones("avx2", "default")))
#else
#define ISA_HOT
#endif
#define ISA_TMP_ROWS 3          /* SDWA operand/result temporaries */
#define ISA_NSREG 128           /* scalar operand codes 0..127 */
#define ISA_SGPR_MAX 102        /* s0..s101 */
#define ISA_REG_FLAT_SCR_LO 102
#define ISA_REG_XNACK_LO 104
#define ISA_REG_VCC_LO 106
#define ISA_REG_VCC_HI 107
#define ISA_REG_TTMP0 108
#define ISA_REG_M0 124
#define ISA_REG_EXEC_LO 126
#define ISA_REG_EXEC_HI 127

/* 9-bit source operand codes above the scalar registers. */
#define ISA_SRC_ZERO 128
#define ISA_SRC_SHARED_BASE 235
#define ISA_SRC_SHARED_LIMIT 236
#define ISA_SRC_PRIVATE_BASE 237
#define ISA_SRC_PRIVATE_LIMIT 238
#define ISA_SRC_POPS_EXITING 239
#define ISA_SRC_SDWA 249
#define ISA_SRC_DPP 250
#define ISA_SRC_VCCZ 251
#define ISA_SRC_EXECZ 252
#define ISA_SRC_SCC 253
#define ISA_SRC_LDS_DIRECT 254
#define ISA_SRC_LITERAL 255
#define ISA_SRC_VGPR0 256

enum isa_enc {
	ISA_ENC_SOP2, ISA_ENC_SOPK, ISA_ENC_SOP1, ISA_ENC_SOPC, ISA_ENC_SOPP,
	ISA_ENC_SMEM, ISA_ENC_VOP2, ISA_ENC_VOP1, ISA_ENC_VOPC, ISA_ENC_VOP3,
	ISA_ENC_VOP3P, ISA_ENC_DS, ISA_ENC_FLAT, ISA_ENC_SCRATCH, ISA_ENC_GLOBAL,
	ISA_ENC_MUBUF, ISA_ENC_MTBUF, ISA_ENC_MIMG, ISA_ENC_EXP, ISA_ENC_UNKNOWN,
};

/* Operand value types, which select the inline-constant expansion. */
enum isa_type {
	ISA_T_B32, ISA_T_F32, ISA_T_B64, ISA_T_F64, ISA_T_F16, ISA_T_B16,
};

/* A decoded source operand. */
enum isa_opnd_kind {
	ISA_OPND_NONE, ISA_OPND_SREG, ISA_OPND_VGPR, ISA_OPND_CONST,
	ISA_OPND_SCC, ISA_OPND_VCCZ, ISA_OPND_EXECZ,
	ISA_OPND_APERTURE,      /* src_shared_base .. src_private_limit */
	ISA_OPND_BAD,           /* reserved code: the instruction is illegal */
};

struct isa_opnd {
	uint8_t kind;           /* enum isa_opnd_kind */
	uint8_t abs, neg;       /* VOP3 input modifiers (float sign bit ops) */
	uint8_t pad;
	uint16_t reg;           /* SREG: scalar code; VGPR: row index */
	uint16_t code;          /* the raw 9-bit operand code */
	uint64_t imm;           /* CONST: value expanded for the type */
};

struct isa_wave;
struct isa_inst;

/* Executor result: continue, or why the wave stopped. */
enum isa_step {
	ISA_STEP_NEXT = 0,
	ISA_STEP_END,           /* s_endpgm */
	ISA_STEP_BARRIER,       /* s_barrier: yield to the other waves */
	ISA_STEP_ERROR,         /* wave->err filled */
	ISA_STEP_GWS,           /* queued on a GWS resource (wave->gws_*) */
	ISA_STEP_PREEMPT,       /* stopped for a context save (preempt_save) */
};

typedef int (*isa_exec_fn)(struct isa_wave *w, const struct isa_inst *in);

struct isa_inst {
	isa_exec_fn exec;
	uint64_t addr;          /* VA of the instruction */
	uint32_t word[3];       /* raw dwords (incl. literal) */
	uint16_t op;            /* opcode; VALU: its VOP3 opcode */
	uint8_t enc;            /* enum isa_enc as encoded */
	uint8_t size;           /* bytes */
	uint32_t target;        /* branch target: index in the program */
	uint32_t next;          /* fall-through: index in the program */
	/* The no-ops that follow fall in fall-through order (s_waitcnt,
	 * s_nop: isa_exec_nop; isa_decode.c, link_range): after, the index
	 * past the nskip of them.  The wave loop jumps there when run left
	 * the wave at fall (next, or past a superinstruction's span), counting
	 * them as run (isa_workgroup.c, wave_run). */
	uint32_t fall;
	uint32_t after;
	uint8_t nskip;
	/* What the wave loop calls (isa_workgroup.c, wave_run): exec, or a
	 * superinstruction that runs this instruction and the span - 1
	 * after it in fall-through order and leaves w->pc past them (only
	 * instructions that never fail; link_range picks it).  Everything
	 * else that runs an instruction (the VSKIP/GPR-index loop, the
	 * indexed copy) calls exec. */
	uint8_t span;
	isa_exec_fn run;
	/* generic fields, meaning depends on the executor */
	uint16_t dst;           /* SREG code or VGPR row */
	uint16_t sdst;          /* VOP3b / VOPC scalar destination code */
	struct isa_opnd src[3];
	uint8_t clamp, omod, opsel, opsel_hi, neg_lo, neg_hi;
	uint8_t acc;            /* memory/MAI: data in AGPRs */
	uint8_t flags;          /* executor-specific bits */
	int32_t offset;         /* memory: immediate offset; SOPP: simm16 */
	uint32_t offset1;       /* DS: offset1; SMEM: soffset code */
	uint16_t addr_reg;      /* memory: VGPR row of the address */
	uint16_t data_reg;      /* memory: VGPR row of store data */
	uint16_t saddr;         /* GLOBAL/SCRATCH: SGPR code; 0x7f = off */
	uint16_t aux;           /* executor-specific */
	uint32_t sdwa;          /* SDWA control dword */
	isa_exec_fn inner;      /* SDWA: the wrapped executor */
};

/* One version of a program's decoded code.  Versions only grow (an
 * indirect jump to undecoded code appends), so an index stays valid in
 * every later version. */
struct isa_idx {
	uint64_t addr;
	uint32_t index;
};
struct isa_code {
	struct isa_inst *insts;         /* n entries, sentinel included */
	uint32_t n;
	uint32_t sentinel;              /* "fell off the decoded code" */
	struct isa_idx *idx;            /* sorted by addr */
	uint32_t nidx;
	struct isa_code *older;         /* freed with the program */
};

struct kemu_isa_program {
	struct kemu_isa_program *next;  /* cache chain, most recently used
					   first (cache lock) */
	int refs;                       /* cache lock */
	/* the cache key: (mem_ctx) with content checks, or (owner, vm) with
	 * the generations it was decoded under (isa.h, cache_vm) */
	const void *mem_ctx;
	const void *owner, *vm;
	uint64_t vm_gen, icache_gen;
	uint64_t kd_va;
	uint8_t kd_bytes[64];
	uint8_t entry_bytes[16];        /* first code bytes, to detect reuse
					   (mem_ctx programs only) */
	amdhsa_kernel_descriptor_t kd;
	uint32_t gfx;                   /* gfx_target_version */
	bool gfx942;
	uint64_t entry_va;
	uint32_t entry;                 /* index of the entry instruction */
	struct isa_code *_Atomic code;  /* current version (acquire) */
	pthread_mutex_t ext_lock;       /* serialises code_extend() */
	/* ABI from the descriptor */
	uint32_t vgpr_rows;             /* VGPR+AGPR rows the descriptor asks for */
	uint32_t alloc_rows;            /* rows allocated: covers every row an
					   instruction names (+16 for wide
					   operands) and the SDWA temporaries */
	uint32_t accum_offset;          /* first AGPR row */
	uint32_t mode;                  /* initial MODE register */
	uint32_t lds_fixed;
	uint32_t private_fixed;
};

/* Per-workgroup state shared by its waves. */
struct isa_wg {
	const struct kemu_isa_dispatch *d;
	const struct kemu_isa_program *p;
	const struct kemu_isa_mem *mem;
	uint8_t *lds;
	uint32_t lds_size;
	uint32_t id[3];
	uint32_t size[3];               /* actual (partial) workgroup size */
	uint64_t scratch_slot_base;     /* VA of wave 0's scratch */
	unsigned scratch_slot;
	/* the scheduler's state (isa_workgroup.c, wg_schedule) */
	struct isa_wave *waves;
	unsigned nwaves, live, at_barrier;
};

/* The wave's TLB: direct mapped by page number, so a lookup is one
 * compare and an access pattern over up to ISA_TLB consecutive pages
 * (a wave's scratch, a strided column) stays resident. */
#define ISA_TLB 16
struct isa_tlb_entry {
	uint64_t page;                  /* page VA | 1 when valid */
	uint8_t *host;
	unsigned access;
};

/* What the SQ keeps of a wave's trap state besides TRAPSTS (isa_trap.c). */
struct isa_trap_state {
	bool priv;                      /* STATUS.PRIV: in the trap handler */
	bool halt;                      /* STATUS.HALT, set in the handler:
					   takes effect at s_rfe_b64 */
	bool handled;                   /* a second-level handler ran */
};

struct isa_wave {
	uint32_t s[ISA_NSREG];
	uint32_t scc;
	uint32_t pc;                    /* index into insts */
	uint32_t mode;                  /* HW_REG_MODE */
	uint32_t trapsts;
	uint32_t *v;                    /* vgpr_rows * 64 */
	const struct isa_inst *insts;
	const struct kemu_isa_program *p;
	struct isa_wg *wg;
	struct kemu_isa_error *err;
	uint64_t ninst;
	uint64_t scratch_base;          /* this wave's scratch VA */
	uint32_t scratch_bytes;
	unsigned id;
	bool done;
	bool at_barrier;                /* reached s_barrier this round */
	bool gws_wait;                  /* queued on GWS resource gws_rid */
	uint8_t gws_rid;
	uint8_t gws_op;                 /* the DS opcode that queued it */
	uint64_t gws_token;             /* what releases it (isa_gws.c) */
	uint64_t tlb_gen;               /* mem->generation the entries were
					   made under */
	struct isa_tlb_entry tlb[ISA_TLB];
	struct isa_trap_state trap;
};

/* A saved workgroup (isa_workgroup.c; isa_ctx.c rebuilds one): the wg,
 * then (64-byte aligned) its waves, VGPRs and LDS laid out as in a thread
 * arena. */
struct kemu_isa_wg_state {
	struct isa_wg wg;
	size_t size;
	_Alignas(64) uint8_t data[];
};
/* ---- MODE register (gfx9 HW_REG_MODE) ---- */
#define ISA_MODE_ROUND_SHIFT 0          /* [3:0] f32 [1:0], f64/f16 [3:2] */
#define ISA_MODE_DENORM_SHIFT 4         /* [7:4] f32 [5:4], f64/f16 [7:6] */
#define ISA_MODE_DX10_CLAMP (1u << 8)
#define ISA_MODE_IEEE (1u << 9)
/* FP_DENORM per type: bit 0 keeps input denormals, bit 1 keeps output
 * denormals (3 = no flushing). */
static inline unsigned isa_denorm32(const struct isa_wave *w)
{
	return (w->mode >> 4) & 3;
}
static inline unsigned isa_denorm64(const struct isa_wave *w)
{
	return (w->mode >> 6) & 3;
}

/* ---- scalar register access ---- */
static inline uint64_t isa_exec(const struct isa_wave *w)
{
	return (uint64_t)w->s[ISA_REG_EXEC_LO] | ((uint64_t)w->s[ISA_REG_EXEC_HI] << 32);
}
static inline void isa_set_exec(struct isa_wave *w, uint64_t v)
{
	w->s[ISA_REG_EXEC_LO] = (uint32_t)v;
	w->s[ISA_REG_EXEC_HI] = (uint32_t)(v >> 32);
}
static inline uint64_t isa_vcc(const struct isa_wave *w)
{
	return (uint64_t)w->s[ISA_REG_VCC_LO] | ((uint64_t)w->s[ISA_REG_VCC_HI] << 32);
}
static inline uint64_t isa_sreg64(const struct isa_wave *w, unsigned code)
{
	return (uint64_t)w->s[code & 127] | ((uint64_t)w->s[(code + 1) & 127] << 32);
}
/* Scalar writes: codes that are not writable registers (125, and the
 * constants) are dropped, as the hardware ignores them. */
static inline void isa_swrite32(struct isa_wave *w, unsigned code, uint32_t v)
{
	if (code < ISA_NSREG && code != 125)
		w->s[code] = v;
}
static inline void isa_swrite64(struct isa_wave *w, unsigned code, uint64_t v)
{
	isa_swrite32(w, code, (uint32_t)v);
	isa_swrite32(w, code + 1, (uint32_t)(v >> 32));
}
/* A scalar source's value: SGPRs and constants (nearly every operand)
 * inline, where a call cost more than the read; the other kinds (SCC,
 * VCCZ, EXECZ, the apertures) in isa_wave.c. */
uint32_t isa_sread32_other(const struct isa_wave *w, const struct isa_opnd *o);
uint64_t isa_sread64_other(const struct isa_wave *w, const struct isa_opnd *o);
static inline uint32_t isa_sread32(const struct isa_wave *w, const struct isa_opnd *o)
{
	if (o->kind == ISA_OPND_SREG)
		return w->s[o->reg];
	if (o->kind == ISA_OPND_CONST)
		return (uint32_t)o->imm;
	return isa_sread32_other(w, o);
}
static inline uint64_t isa_sread64(const struct isa_wave *w, const struct isa_opnd *o)
{
	if (o->kind == ISA_OPND_SREG)
		return isa_sreg64(w, o->reg);
	if (o->kind == ISA_OPND_CONST)
		return o->imm;
	return isa_sread64_other(w, o);
}

/* Eight lanes in host vector registers (GCC vector extensions: AVX2 in
 * the ISA_HOT clones, SSE pairs in the baseline); aligned(4) so a row's
 * lanes load and store as unaligned moves (the compiler cannot see the
 * rows' 64-byte alignment).  A uint32_t vector may alias uint32_t rows. */
typedef uint32_t isa_u32x8 __attribute__((vector_size(32), aligned(4)));
typedef int32_t isa_i32x8 __attribute__((vector_size(32), aligned(4)));
/* Whether any lane of v is non-zero. */
static inline __attribute__((always_inline)) bool isa_any32x8(const isa_u32x8 *v)
{
	uint64_t q[4];
	memcpy(q, v, sizeof(q));
	return (q[0] | q[1] | q[2] | q[3]) != 0;
}

/* ---- vector register access ---- */
static inline uint32_t *isa_vrow(struct isa_wave *w, unsigned row)
{
	return w->v + (size_t)row * ISA_LANES;
}
/* The lane loops below are inline so that each executor's copy is
 * compiled for its own target (ISA_HOT) and vectorised in place; the
 * library is built with -fno-tree-loop-distribute-patterns so that they
 * stay loops instead of becoming memcpy/memset calls. */

/* Source rows: a VGPR returns its row, anything else is broadcast into buf
 * (64 entries).  Input modifiers are NOT applied here. */
static inline const uint32_t *isa_vsrc32(struct isa_wave *w, const struct isa_opnd *o,
					 uint32_t *buf)
{
	uint32_t v;

	if (o->kind == ISA_OPND_VGPR)
		return isa_vrow(w, o->reg);
	v = o->kind == ISA_OPND_CONST ? (uint32_t)o->imm
	    : o->kind == ISA_OPND_SREG ? w->s[o->reg] : isa_sread32(w, o);
	for (unsigned l = 0; l < ISA_LANES; l++)
		buf[l] = v;
	return buf;
}
static inline void isa_vsrc64(struct isa_wave *w, const struct isa_opnd *o, uint64_t *buf)
{
	if (o->kind == ISA_OPND_VGPR) {
		const uint32_t *lo = isa_vrow(w, o->reg), *hi = isa_vrow(w, o->reg + 1u);
		for (unsigned l = 0; l < ISA_LANES; l++)
			buf[l] = (uint64_t)lo[l] | ((uint64_t)hi[l] << 32);
		return;
	}
	uint64_t v = isa_sread64(w, o);
	for (unsigned l = 0; l < ISA_LANES; l++)
		buf[l] = v;
}
/* EXEC as 64 lane masks (~0: active), for branch-free lane loops; two
 * 32-lane halves so the shifts vectorise. */
static inline void isa_lane_masks(uint64_t exec, uint32_t *on)
{
	uint32_t lo = (uint32_t)exec, hi = (uint32_t)(exec >> 32);

	for (unsigned l = 0; l < 32; l++)
		on[l] = 0u - ((lo >> l) & 1);
	for (unsigned l = 0; l < 32; l++)
		on[32 + l] = 0u - ((hi >> l) & 1);
}
/* Writes under EXEC (val may be the destination row itself, never a
 * partial overlap: rows and temporaries are whole 64-lane arrays). */
static inline void isa_vdst32(struct isa_wave *w, unsigned row, const uint32_t *val)
{
	uint32_t *d = isa_vrow(w, row);
	uint64_t exec = isa_exec(w);

	if (exec == ~0ull) {
		for (unsigned l = 0; l < ISA_LANES; l++)
			d[l] = val[l];
		return;
	}
	for (unsigned l = 0; l < ISA_LANES; l++)
		d[l] = (exec >> l & 1) ? val[l] : d[l];
}
static inline void isa_vdst64(struct isa_wave *w, unsigned row, const uint64_t *val)
{
	uint32_t *lo = isa_vrow(w, row), *hi = isa_vrow(w, row + 1u);
	uint64_t exec = isa_exec(w);

	if (exec == ~0ull) {
		for (unsigned l = 0; l < ISA_LANES; l++) {
			lo[l] = (uint32_t)val[l];
			hi[l] = (uint32_t)(val[l] >> 32);
		}
		return;
	}
	for (unsigned l = 0; l < ISA_LANES; l++) {
		if (exec >> l & 1) {
			lo[l] = (uint32_t)val[l];
			hi[l] = (uint32_t)(val[l] >> 32);
		}
	}
}

/* ---- memory ---- */
/* Host pointer for [va, va+len) not crossing a page; NULL: fault filled
 * into w->err (with the instruction's PC). */
void *isa_mem_map(struct isa_wave *w, const struct isa_inst *in, uint64_t va,
		  uint32_t len, unsigned access);
/* Whole-page lookup (page aligned) without recording a fault; NULL if
 * the page is not fully mapped with the access.  The hit path is inline
 * (isa_tlb_fill() does the miss). */
uint8_t *isa_tlb_fill(struct isa_wave *w, uint64_t page, unsigned access);
static inline void *isa_mem_probe(struct isa_wave *w, uint64_t page, unsigned access)
{
	const struct isa_tlb_entry *e = &w->tlb[(page >> 12) % ISA_TLB];

	if (w->wg->mem->generation &&
	    /* acquire: pairs with the release bump that follows an unmap, so
	     * an entry kept from before it is never used after it */
	    atomic_load_explicit(w->wg->mem->generation, memory_order_acquire) != w->tlb_gen)
		return isa_tlb_fill(w, page, access);
	if (e->page == (page | 1) && (e->access & access) == access)
		return e->host;
	return isa_tlb_fill(w, page, access);
}
/* Host pointer for [va, va + len) when every page of it that the lanes
 * touch (bit i of touched: the i-th page from va's) is fully mapped with
 * the access and lies where the first page's host pointer says (one
 * buffer object, as kfdemu's and the tests' memory is); NULL otherwise
 * (the caller then goes lane by lane, which reports the first bad
 * address).  Only touched pages are translated, so a span never makes
 * the address space see an access no lane makes (a fault record, an HDP
 * check); pages between them are never dereferenced.  At most
 * ISA_SPAN_PAGES pages; the first is always touched. */
#define ISA_SPAN_PAGES 16u
uint8_t *isa_mem_span(struct isa_wave *w, uint64_t va, uint64_t len, uint32_t touched,
		      unsigned access);
/* Copies that may straddle pages; return 0 or -1 (fault filled). */
int isa_mem_read(struct isa_wave *w, const struct isa_inst *in, uint64_t va,
		 void *dst, uint32_t len);
int isa_mem_write(struct isa_wave *w, const struct isa_inst *in, uint64_t va,
		  const void *src, uint32_t len);

/* ---- errors ---- */
int isa_fail(struct isa_wave *w, const struct isa_inst *in, enum kemu_isa_error_kind kind,
	     const char *fmt, ...) __attribute__((format(printf, 4, 5)));
int isa_fault(struct isa_wave *w, const struct isa_inst *in, uint64_t va, unsigned access);
int isa_exec_illegal(struct isa_wave *w, const struct isa_inst *in);
/* The executor of the instructions that change no state (s_nop,
 * s_waitcnt, ...; isa_exec_salu.c), which the wave loop may skip. */
int isa_exec_nop(struct isa_wave *w, const struct isa_inst *in);
/* A superinstruction for instruction a and b, the one after it in
 * fall-through order (isa_exec_vfast.c), or NULL: an executor the wave
 * loop may call at a instead of a's and b's (struct isa_inst's run). */
isa_exec_fn isa_vfast_fuse(const struct isa_inst *a, const struct isa_inst *b);
/* The same for scalar pairs (isa_exec_salu.c). */
isa_exec_fn isa_salu_fuse(const struct isa_inst *a, const struct isa_inst *b);
/* A superinstruction for the f64 sequence that starts at insts[i] (the
 * compilers' division and gfx942 square root; isa_exec_vfast64.c), or
 * NULL; *span its length, *fall the index past it. */
isa_exec_fn isa_vfast64_fuse(const struct isa_inst *insts, uint32_t i, uint32_t sentinel,
			     unsigned *span, uint32_t *fall);
/* Fills err (when not NULL) with kind, pc and the formatted message. */
void isa_err_setf(struct kemu_isa_error *err, enum kemu_isa_error_kind kind, uint64_t pc,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Copies len bytes at va through mem->translate, page by page, without a
 * wave (descriptor and code reads); -1 when a page is not mapped. */
int isa_read_direct(const struct kemu_isa_mem *mem, uint64_t va, void *dst, uint32_t len,
		    unsigned access);
const char *kemu_isa_mnemonic(int gfx942, enum isa_enc enc, unsigned op);
const char *kemu_isa_enc_name(enum isa_enc enc);
unsigned kemu_isa_raw_opcode(const struct isa_inst *in);

/* ---- traps (isa_trap.c) ---- */
#define ISA_TRAPSTS_MEM_VIOL     (1u << 8)
#define ISA_TRAPSTS_ILLEGAL_INST (1u << 11)
/* TRAPSTS.SAVECTX: a context save the SQ holds for a wave in its trap
 * handler (isa_workgroup.c, wave_run): taken when s_rfe_b64 leaves it */
#define ISA_TRAPSTS_SAVECTX      (1u << 10)
/* The wave's step failed (ISA_STEP_ERROR, w->err filled): enter the trap
 * handler when the failure is a trap or an exception (isa.h, struct
 * kemu_isa_trap).  0: the wave goes on (in the handler, or past a skipped
 * s_trap); -1: it stops with w->err (possibly turned into a halt). */
int isa_trap_raise(struct isa_wave *w, const struct isa_inst *in);
/* The wave stops for a context save (or a preemption without one) at its
 * current PC (isa_workgroup.c). */
int isa_wave_preempted(struct isa_wave *w, const struct isa_inst *in);
/* HW_REG_STATUS as s_getreg reads it, and an s_setreg of it: SCC, and
 * HALT from the trap handler.  The write returns ISA_STEP_NEXT or
 * ISA_STEP_ERROR (the wave halted). */
uint32_t isa_trap_status(const struct isa_wave *w);
int isa_trap_status_write(struct isa_wave *w, const struct isa_inst *in, uint32_t val,
			  uint32_t mask);
/* s_rfe_b64, and s_sendmsg MSG_GET_DOORBELL. */
int isa_exec_rfe(struct isa_wave *w, const struct isa_inst *in);
int isa_trap_get_doorbell(struct isa_wave *w, const struct isa_inst *in);

/* ---- GWS (isa_gws.c) ---- */
#define ISA_DS_GWS_SEMA_RELEASE_ALL 0x98
#define ISA_DS_GWS_INIT 0x99
#define ISA_DS_GWS_SEMA_V 0x9a
#define ISA_DS_GWS_SEMA_BR 0x9b
#define ISA_DS_GWS_SEMA_P 0x9c
#define ISA_DS_GWS_BARRIER 0x9d
/* Performs DS opcode op on resource rid with the wave's DATA value.
 * Returns true when the wave is queued (then *token says what releases it:
 * isa_gws_released); *released tells whether queued waves were released. */
bool isa_gws_op(struct kemu_isa_gws *g, unsigned op, unsigned rid, uint32_t value,
		uint64_t *token, bool *released);
/* Has the wave queued by op on rid with token been released? */
bool isa_gws_released(struct kemu_isa_gws *g, unsigned op, unsigned rid, uint64_t token);

/* ---- decoder entry points, one per encoding family ---- */
struct isa_decoder {
	const struct kemu_isa_program *p;
	bool gfx942;
};
/* Each fills in->exec (isa_exec_illegal when the opcode is not
 * implemented) and the operands; returns 0, or -1 for an encoding that
 * cannot be decoded at all (then in->exec is isa_exec_illegal too). */
void kemu_isa_decode_salu(const struct isa_decoder *dc, struct isa_inst *in);
void kemu_isa_decode_smem(const struct isa_decoder *dc, struct isa_inst *in);
void kemu_isa_decode_valu(const struct isa_decoder *dc, struct isa_inst *in);
void kemu_isa_decode_vop3p(const struct isa_decoder *dc, struct isa_inst *in);
void kemu_isa_decode_ds(const struct isa_decoder *dc, struct isa_inst *in);
void kemu_isa_decode_flat(const struct isa_decoder *dc, struct isa_inst *in);
void kemu_isa_decode_mubuf(const struct isa_decoder *dc, struct isa_inst *in);
void kemu_isa_decode_mimg(const struct isa_decoder *dc, struct isa_inst *in);
/* MUBUF buffer_load/store_format_* (opcodes 0x00-0x0f), isa_exec_mimg.c */
void kemu_isa_decode_mubuf_format(const struct isa_decoder *dc, struct isa_inst *in);
/* MTBUF (tbuffer_*): the typed buffer accesses with the format in the
 * instruction (isa_exec_mimg.c) */
void kemu_isa_decode_mtbuf(const struct isa_decoder *dc, struct isa_inst *in);
/* A GFX9 image surface as the texture unit addresses it
 * (isa_image_swizzle.c). */
struct kemu_isa_image_layout {
	unsigned sw_mode;               /* T# SW_MODE */
	unsigned elem_log2;             /* log2 bytes per texel */
	uint32_t pitch, height;         /* texels; height 1 for 1-D types */
	bool is3d;
	/* from GB_ADDR_CONFIG */
	unsigned interleave_log2, pipes_log2, se_log2, banks_log2;
};
/* Byte offset of texel (x, y, z = slice or depth) from the image base;
 * -1 for a swizzle mode that is not implemented. */
int kemu_isa_image_offset(const struct kemu_isa_image_layout *l, uint32_t x, uint32_t y,
			  uint32_t z, uint64_t *off);
/* Mnemonic of a gfx90a MIMG opcode (NULL: none, or gfx942, which has no
 * image instructions). */
const char *kemu_isa_mimg_mnemonic(int gfx942, unsigned op);
void kemu_isa_decode_accmov(const struct isa_decoder *dc, struct isa_inst *in);
/* VOP3P v_dot2_f32_f16 (isa_exec_vextra.c) */
void kemu_isa_decode_dot2f(const struct isa_decoder *dc, struct isa_inst *in);
/* VOP3P MFMA/SMFMAC (isa_exec_mfma.c) */
void kemu_isa_decode_mfma(const struct isa_decoder *dc, struct isa_inst *in);
/* The exact value of a gfx942 FNUZ fp8 (E4M3) or bf8 (E5M2) byte; NaN for
 * 0x80 (isa_exec_mfma.c). */
double kemu_isa_fp8_value(uint8_t v, bool bf8);

/* Operand decoding shared by the families. */
void kemu_isa_opnd(struct isa_opnd *o, unsigned code, enum isa_type t, uint32_t literal);
/* True when the instruction takes a literal dword (code 255 in a source). */
bool kemu_isa_needs_literal(uint32_t w0);

/* The MODE-changing scalar instructions (isa_exec_mode.c): the branch
 * stack, VSKIP and GPR indexing.  isa_mode_changed runs the wave on while
 * MODE.VSKIP or MODE.GPR_IDX_EN is set (an executor that may set them
 * returns its result). */
int isa_exec_g_fork(struct isa_wave *w, const struct isa_inst *in);
int isa_exec_i_fork(struct isa_wave *w, const struct isa_inst *in);
int isa_exec_join(struct isa_wave *w, const struct isa_inst *in);
int isa_exec_setvskip(struct isa_wave *w, const struct isa_inst *in);
int isa_exec_gpr_idx_on(struct isa_wave *w, const struct isa_inst *in);
int isa_exec_gpr_idx_idx(struct isa_wave *w, const struct isa_inst *in);
int isa_exec_gpr_idx_mode(struct isa_wave *w, const struct isa_inst *in);
int isa_mode_changed(struct isa_wave *w, const struct isa_inst *in);

/* Branches resolve targets after decode; an executor that jumps to a
 * computed address (s_setpc_b64) looks it up here. */
int kemu_isa_jump(struct isa_wave *w, const struct isa_inst *in, uint64_t va);

/* Program build (isa_decode.c). */
int kemu_isa_decode_program(struct kemu_isa_program *p, const struct kemu_isa_mem *mem);
void kemu_isa_code_free(struct kemu_isa_program *p);

/* Statistics (isa_wave.c); _reused counts one program cache hit. */
void kemu_isa_stats_add(uint64_t insts, uint64_t waves, uint64_t wgs, uint64_t progs);
void kemu_isa_stats_reused(void);
/* Programs on the cache now (isa_program.c). */
unsigned kemu_isa_cache_count(void);

#endif /* KEMU_ISA_PRIV_H */
