/*
 * isa_run.c — programs and workgroups: the program cache, the wave's
 * initial state from the kernel descriptor, the wave loop and the
 * round-robin barrier scheduler, plus the helpers every executor shares
 * (register access, memory through kemu_isa_mem, error reports).
 *
 * Initial wave state follows LLVM AMDGPUUsage, "Initial Kernel Execution
 * State": user SGPRs in the order private segment buffer (4), dispatch
 * ptr (2), queue ptr (2), kernarg segment ptr (2), dispatch id (2), flat
 * scratch init (2), private segment size (1), then preloaded kernel
 * arguments (gfx90a/gfx942, KERNARG_PRELOAD; the CP then enters 256 bytes
 * past the entry point, skipping the compatibility block), then at
 * USER_SGPR_COUNT the system SGPRs: workgroup id x, y, z, workgroup info
 * and the private segment wavefront offset, each only when enabled in
 * COMPUTE_PGM_RSRC2.  gfx90a/gfx942 pack the work-item ids into v0
 * (x in [9:0], y in [19:10], z in [29:20]).  gfx942 has architected flat
 * scratch: FLAT_SCRATCH holds the wave's scratch base at entry and there
 * is no private segment buffer, flat scratch init or wave offset SGPR.
 *
 * Scheduling: the waves of one workgroup run one at a time, each until it
 * ends, reaches s_barrier or is queued on a GWS resource; the barrier opens
 * once every live wave has reached it.  Waves that have ended do not hold a
 * barrier (as on hardware, where a terminated wave no longer counts), so
 * any number of barriers, in loops or not, works.  A workgroup whose waves
 * all wait on GWS (only other workgroups can release them) is saved to the
 * heap and handed back to the caller (kemu_isa_run_workgroup_gws), which
 * resumes it on any thread once a release happened; the common case runs in
 * the thread's arena and is never copied.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "isa_priv.h"

/* ---- statistics ---- */

static _Atomic uint64_t stat_insts, stat_waves, stat_wgs, stat_progs, stat_reused;

void kemu_isa_stats_add(uint64_t insts, uint64_t waves, uint64_t wgs, uint64_t progs)
{
	atomic_fetch_add_explicit(&stat_insts, insts, memory_order_relaxed);
	atomic_fetch_add_explicit(&stat_waves, waves, memory_order_relaxed);
	atomic_fetch_add_explicit(&stat_wgs, wgs, memory_order_relaxed);
	atomic_fetch_add_explicit(&stat_progs, progs, memory_order_relaxed);
}

void kemu_isa_stats_get(struct kemu_isa_stats *out)
{
	out->wave_instructions = atomic_load_explicit(&stat_insts, memory_order_relaxed);
	out->waves = atomic_load_explicit(&stat_waves, memory_order_relaxed);
	out->workgroups = atomic_load_explicit(&stat_wgs, memory_order_relaxed);
	out->programs_decoded = atomic_load_explicit(&stat_progs, memory_order_relaxed);
	out->programs_reused = atomic_load_explicit(&stat_reused, memory_order_relaxed);
	out->programs_cached = kemu_isa_cache_count();
}

const char *kemu_isa_error_name(enum kemu_isa_error_kind kind)
{
	switch (kind) {
	case KEMU_ISA_OK: return "ok";
	case KEMU_ISA_ERR_ILLEGAL_INSTRUCTION: return "illegal instruction";
	case KEMU_ISA_ERR_MEMORY_FAULT: return "memory fault";
	case KEMU_ISA_ERR_BAD_DESCRIPTOR: return "bad kernel descriptor";
	case KEMU_ISA_ERR_BAD_DISPATCH: return "bad dispatch";
	case KEMU_ISA_ERR_TRAP: return "s_trap";
	case KEMU_ISA_ERR_LDS_RANGE: return "LDS out of range";
	case KEMU_ISA_ERR_NO_MEMORY: return "out of host memory";
	case KEMU_ISA_ERR_HALT: return "wave halted";
	case KEMU_ISA_ERR_WATCHDOG: return "watchdog (instruction limit)";
	case KEMU_ISA_PREEMPTED: return "preempted";
	case KEMU_ISA_ERR_MEM_VIOL: return "memory violation";
	case KEMU_ISA_ERR_DEADLOCK: return "deadlock";
	}
	return "unknown";
}

/* ---- errors ---- */

static void err_set(struct kemu_isa_error *err, enum kemu_isa_error_kind kind, uint64_t pc,
		    const char *fmt, va_list ap)
{
	if (!err)
		return;
	memset(err, 0, sizeof(*err));
	err->kind = kind;
	err->pc = pc;
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
}

static void err_setf(struct kemu_isa_error *err, enum kemu_isa_error_kind kind, uint64_t pc,
		     const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void err_setf(struct kemu_isa_error *err, enum kemu_isa_error_kind kind, uint64_t pc,
		     const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	err_set(err, kind, pc, fmt, ap);
	va_end(ap);
}

int isa_fail(struct isa_wave *w, const struct isa_inst *in, enum kemu_isa_error_kind kind,
	     const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	err_set(w->err, kind, in ? in->addr : 0, fmt, ap);
	va_end(ap);
	if (w->err) {
		w->err->wave = w->id;
		if (in) {
			w->err->encoding[0] = in->word[0];
			w->err->encoding[1] = in->size > 4 ? in->word[1] : 0;
		}
	}
	return ISA_STEP_ERROR;
}

int isa_fault(struct isa_wave *w, const struct isa_inst *in, uint64_t va, unsigned access)
{
	const char *what = access & KEMU_ISA_ACCESS_ATOMIC ? "atomic"
		: access & KEMU_ISA_ACCESS_WRITE ? "write"
		: access & KEMU_ISA_ACCESS_EXEC ? "instruction fetch" : "read";
	isa_fail(w, in, KEMU_ISA_ERR_MEMORY_FAULT, "GPU memory fault: %s at VA 0x%llx (pc 0x%llx)",
		 what, (unsigned long long)va, (unsigned long long)(in ? in->addr : 0));
	if (w->err) {
		w->err->va = va;
		w->err->access = access;
	}
	return ISA_STEP_ERROR;
}

/* The opcode field of the instruction's own encoding (VALU instructions
 * keep their VOP3-space opcode in in->op). */
unsigned kemu_isa_raw_opcode(const struct isa_inst *in)
{
	unsigned op = 0;

	switch ((enum isa_enc)in->enc) {
	case ISA_ENC_SOP2: op = (in->word[0] >> 23) & 0x7f; break;
	case ISA_ENC_SOPK: op = (in->word[0] >> 23) & 0x1f; break;
	case ISA_ENC_SOP1: op = (in->word[0] >> 8) & 0xff; break;
	case ISA_ENC_SOPC: case ISA_ENC_SOPP: op = (in->word[0] >> 16) & 0x7f; break;
	case ISA_ENC_SMEM: op = (in->word[0] >> 18) & 0xff; break;
	case ISA_ENC_VOP2: op = (in->word[0] >> 25) & 0x3f; break;
	case ISA_ENC_VOP1: op = (in->word[0] >> 9) & 0xff; break;
	case ISA_ENC_VOPC: op = (in->word[0] >> 17) & 0xff; break;
	case ISA_ENC_VOP3: op = (in->word[0] >> 16) & 0x3ff; break;
	case ISA_ENC_VOP3P: op = (in->word[0] >> 16) & 0x7f; break;
	case ISA_ENC_DS: op = (in->word[0] >> 17) & 0xff; break;
	case ISA_ENC_FLAT: case ISA_ENC_SCRATCH: case ISA_ENC_GLOBAL:
	case ISA_ENC_MUBUF: case ISA_ENC_MIMG: op = (in->word[0] >> 18) & 0x7f; break;
	case ISA_ENC_MTBUF: op = (in->word[0] >> 15) & 0xf; break;
	default: break;
	}
	return op;
}

int isa_exec_illegal(struct isa_wave *w, const struct isa_inst *in)
{
	enum isa_enc e = (enum isa_enc)in->enc;
	unsigned op = kemu_isa_raw_opcode(in);
	const char *name = e == ISA_ENC_MIMG ? kemu_isa_mimg_mnemonic(w->p->gfx942, op)
					     : kemu_isa_mnemonic(w->p->gfx942, e, op);
	/* encodings without a name table: the whole encoding is missing */
	bool unnamed = e == ISA_ENC_MTBUF || e == ISA_ENC_EXP;
	const char *none = unnamed ? "this encoding is not implemented" : "no such opcode";

	/* CDNA3 dropped the image instructions (LLVM rejects MIMG for gfx940+) */
	if (e == ISA_ENC_MIMG)
		none = w->p->gfx942 ? "gfx942 has no image instructions" : "no such opcode";
	isa_fail(w, in, KEMU_ISA_ERR_ILLEGAL_INSTRUCTION,
		 "illegal instruction at 0x%llx: %s opcode 0x%x (%s)%s [%08x %08x]",
		 (unsigned long long)in->addr, kemu_isa_enc_name(e), op,
		 name ? name : none,
		 name ? " not implemented or invalid operands" : "",
		 in->word[0], in->size > 4 ? in->word[1] : 0);
	return ISA_STEP_ERROR;
}

/* ---- register access ---- */

static uint64_t aperture_base(const struct isa_wave *w, unsigned code)
{
	const struct kemu_isa_apertures *a = &w->wg->d->apertures;
	uint64_t base = code <= ISA_SRC_SHARED_LIMIT ? a->shared_base : a->private_base;
	/* SRC_*_BASE / SRC_*_LIMIT: the aperture's 64-bit base and last byte;
	 * a 32-bit read sees bits [63:32] (the aperture is 4 GiB aligned). */
	if (code == ISA_SRC_SHARED_LIMIT || code == ISA_SRC_PRIVATE_LIMIT)
		return base + 0xffffffffull;
	return base;
}

uint32_t isa_sread32(const struct isa_wave *w, const struct isa_opnd *o)
{
	switch (o->kind) {
	case ISA_OPND_SREG: return w->s[o->reg];
	case ISA_OPND_CONST: return (uint32_t)o->imm;
	case ISA_OPND_SCC: return w->scc;
	case ISA_OPND_VCCZ: return isa_vcc(w) == 0;
	case ISA_OPND_EXECZ: return isa_exec(w) == 0;
	case ISA_OPND_APERTURE: return (uint32_t)(aperture_base(w, o->code) >> 32);
	default: return 0;
	}
}

uint64_t isa_sread64(const struct isa_wave *w, const struct isa_opnd *o)
{
	switch (o->kind) {
	case ISA_OPND_SREG: return isa_sreg64(w, o->reg);
	case ISA_OPND_CONST: return o->imm;
	case ISA_OPND_SCC: return w->scc;
	case ISA_OPND_VCCZ: return isa_vcc(w) == 0;
	case ISA_OPND_EXECZ: return isa_exec(w) == 0;
	case ISA_OPND_APERTURE: return aperture_base(w, o->code) & ~0xffffffffull;
	default: return 0;
	}
}

ISA_HOT const uint32_t *isa_vsrc32(struct isa_wave *w, const struct isa_opnd *o, uint32_t *buf)
{
	uint32_t v;

	if (o->kind == ISA_OPND_VGPR)
		return isa_vrow(w, o->reg);
	v = isa_sread32(w, o);
	for (unsigned l = 0; l < ISA_LANES; l++)
		buf[l] = v;
	return buf;
}

ISA_HOT void isa_vsrc64(struct isa_wave *w, const struct isa_opnd *o, uint64_t *buf)
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

ISA_HOT void isa_vdst32(struct isa_wave *w, unsigned row, const uint32_t *val)
{
	uint32_t *d = isa_vrow(w, row);
	uint64_t exec = isa_exec(w);

	if (exec == ~0ull) {
		memmove(d, val, ISA_LANES * sizeof(*d));
		return;
	}
	for (unsigned l = 0; l < ISA_LANES; l++)
		if (exec >> l & 1)
			d[l] = val[l];
}

ISA_HOT void isa_vdst64(struct isa_wave *w, unsigned row, const uint64_t *val)
{
	uint32_t *lo = isa_vrow(w, row), *hi = isa_vrow(w, row + 1u);
	uint64_t exec = isa_exec(w);

	for (unsigned l = 0; l < ISA_LANES; l++) {
		if (exec >> l & 1) {
			lo[l] = (uint32_t)val[l];
			hi[l] = (uint32_t)(val[l] >> 32);
		}
	}
}

/* ---- memory ---- */

/* The wave's TLB: pages it translated, for as long as mem->generation
 * (when there is one) stays the same (isa.h, struct kemu_isa_mem). */
static uint8_t *tlb_lookup(struct isa_wave *w, uint64_t page, unsigned access)
{
	const struct kemu_isa_mem *mem = w->wg->mem;
	uint8_t *h;

	if (mem->generation) {
		/* acquire: pairs with the release bump that follows an unmap, so
		 * an entry kept from before it is never used after it */
		uint64_t gen = atomic_load_explicit(mem->generation, memory_order_acquire);
		if (gen != w->tlb_gen) {
			memset(w->tlb, 0, sizeof(w->tlb));
			w->tlb_gen = gen;
		}
	}
	for (unsigned i = 0; i < ISA_TLB; i++) {
		const struct isa_tlb_entry *e = &w->tlb[i];
		if (e->page == (page | 1) && (e->access & access) == access)
			return e->host;
	}
	h = mem->translate(mem->ctx, page, 4096, access);
	if (h) {
		struct isa_tlb_entry *e = &w->tlb[w->tlb_next++ % ISA_TLB];
		e->page = page | 1;
		e->host = h;
		e->access = access;
	}
	return h;
}

void *isa_mem_probe(struct isa_wave *w, uint64_t page, unsigned access)
{
	return tlb_lookup(w, page, access);
}

void *isa_mem_map(struct isa_wave *w, const struct isa_inst *in, uint64_t va, uint32_t len,
		  unsigned access)
{
	const struct kemu_isa_mem *mem = w->wg->mem;
	uint64_t page = va & ~4095ull;
	uint8_t *h = tlb_lookup(w, page, access);

	if (h)
		return h + (va - page);
	/* Part of the page may be unmapped: ask for just this range. */
	h = mem->translate(mem->ctx, va, len, access);
	if (!h)
		isa_fault(w, in, va, access);
	return h;
}

/* Copies len bytes between GPU memory at va and host memory, one page at a
 * time (translate never spans a page); write selects the direction and the
 * access reported on a fault; buf is only read when write is set. */
static int mem_copy(struct isa_wave *w, const struct isa_inst *in, uint64_t va, void *buf,
		    uint32_t len, bool write)
{
	uint8_t *b = buf;

	while (len) {
		uint32_t chunk = 4096 - (uint32_t)(va & 4095);
		void *h;
		if (chunk > len)
			chunk = len;
		h = isa_mem_map(w, in, va, chunk,
				write ? KEMU_ISA_ACCESS_WRITE : KEMU_ISA_ACCESS_READ);
		if (!h)
			return -1;
		if (write)
			memcpy(h, b, chunk);
		else
			memcpy(b, h, chunk);
		b += chunk;
		va += chunk;
		len -= chunk;
	}
	return 0;
}

int isa_mem_read(struct isa_wave *w, const struct isa_inst *in, uint64_t va, void *dst,
		 uint32_t len)
{
	return mem_copy(w, in, va, dst, len, false);
}

int isa_mem_write(struct isa_wave *w, const struct isa_inst *in, uint64_t va, const void *src,
		  uint32_t len)
{
	return mem_copy(w, in, va, (void *)src, len, true);
}

/* ---- program cache ----
 *
 * One chain of programs, most recently used first and at most
 * KEMU_ISA_CACHE_PROGRAMS long (the tail is dropped), under cache_lock,
 * which is never held while GPU memory is read or code decoded.  The
 * chain holds one reference to each program on it and every
 * kemu_isa_program_get caller another, so a program dropped from the
 * chain lives until its last user puts it.  Two kinds of key (isa.h,
 * kemu_isa_dispatch.cache_vm):
 *   - mem_ctx programs are still valid when the descriptor and the first
 *     16 code bytes read now are those they were decoded from;
 *   - (owner, vm) programs are valid when the descriptor bytes are the
 *     same and they were decoded under the dispatch's vm_gen and
 *     icache_gen: the code is not read again, as an instruction cache
 *     serves it until the TLB flush or the invalidate.
 * A stale program is dropped when a lookup finds it.  Decoding happens
 * outside the lock; two threads that decode the same kernel at once keep
 * the first one cached.
 */

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static struct kemu_isa_program *cache_head;
static unsigned cache_count;

static void program_free(struct kemu_isa_program *p)
{
	if (!p)
		return;
	if (atomic_load_explicit(&p->code, memory_order_acquire)) {
		kemu_isa_code_free(p);
		pthread_mutex_destroy(&p->ext_lock);
	}
	free(p);
}

static int read_direct(const struct kemu_isa_mem *mem, uint64_t va, void *dst, uint32_t len,
		       unsigned access)
{
	uint8_t *d = dst;
	while (len) {
		uint32_t chunk = 4096 - (uint32_t)(va & 4095);
		const void *h;
		if (chunk > len)
			chunk = len;
		h = mem->translate(mem->ctx, va, chunk, access);
		if (!h)
			return -1;
		memcpy(d, h, chunk);
		d += chunk;
		va += chunk;
		len -= chunk;
	}
	return 0;
}

static int descriptor_check(struct kemu_isa_program *p, struct kemu_isa_error *err)
{
	const amdhsa_kernel_descriptor_t *kd = &p->kd;
	uint32_t rsrc1 = kd->compute_pgm_rsrc1, rsrc2 = kd->compute_pgm_rsrc2;
	unsigned kcp = kd->kernel_code_properties;
	unsigned user = 0, user_count = (rsrc2 >> 1) & 0x1f;
	unsigned preload = kd->kernarg_preload & 0x7f;

	if (kcp & (1u << 10))
		goto bad_wave32;
	if (p->gfx942 && (kcp & ((1u << 0) | (1u << 5)))) {
		err_setf(err, KEMU_ISA_ERR_BAD_DESCRIPTOR, p->kd_va,
			 "kernel descriptor at 0x%llx: gfx942 has architected flat scratch; "
			 "private segment buffer / flat scratch init user SGPRs must be 0",
			 (unsigned long long)p->kd_va);
		return -1;
	}
	user += (kcp & 1) ? 4 : 0;
	user += (kcp & 2) ? 2 : 0;
	user += (kcp & 4) ? 2 : 0;
	user += (kcp & 8) ? 2 : 0;
	user += (kcp & 16) ? 2 : 0;
	user += (kcp & 32) ? 2 : 0;
	user += (kcp & 64) ? 1 : 0;
	if (user + preload > user_count || user_count > 16) {
		err_setf(err, KEMU_ISA_ERR_BAD_DESCRIPTOR, p->kd_va,
			 "kernel descriptor at 0x%llx: USER_SGPR_COUNT %u is less than the "
			 "%u enabled user SGPRs + %u preloaded kernarg dwords (or above 16)",
			 (unsigned long long)p->kd_va, user_count, user, preload);
		return -1;
	}
	/* VGPR granule 8 on gfx90a/gfx942 (AMDGPUUsage, compute_pgm_rsrc1). */
	p->vgpr_rows = ((rsrc1 & 0x3f) + 1) * 8;
	p->accum_offset = ((kd->compute_pgm_rsrc3 & 0x3f) + 1) * 4;
	if (p->vgpr_rows > 512 || p->accum_offset > 256) {
		err_setf(err, KEMU_ISA_ERR_BAD_DESCRIPTOR, p->kd_va,
			 "kernel descriptor at 0x%llx: %u VGPRs / ACCUM_OFFSET %u out of range",
			 (unsigned long long)p->kd_va, p->vgpr_rows, p->accum_offset);
		return -1;
	}
	/* MODE from rsrc1: FLOAT_ROUND_MODE_32 [13:12], _16_64 [15:14],
	 * FLOAT_DENORM_MODE_32 [17:16], _16_64 [19:18], DX10_CLAMP [21],
	 * IEEE_MODE [23] map onto MODE [3:0], [7:4], [8], [9]. */
	p->mode = ((rsrc1 >> 12) & 0xff) | (((rsrc1 >> 21) & 1) << 8) | (((rsrc1 >> 23) & 1) << 9);
	p->lds_fixed = kd->group_segment_fixed_size;
	p->private_fixed = kd->private_segment_fixed_size;
	return 0;
bad_wave32:
	err_setf(err, KEMU_ISA_ERR_BAD_DESCRIPTOR, p->kd_va,
		 "kernel descriptor at 0x%llx asks for wave32, which gfx9 does not have",
		 (unsigned long long)p->kd_va);
	return -1;
}

/* Does program p have d's key (not yet: is it still valid)? */
static bool cache_key_match(const struct kemu_isa_program *p, const struct kemu_isa_dispatch *d)
{
	if (p->kd_va != d->kernel_object || p->gfx != d->gfx_target_version)
		return false;
	if (d->cache_vm)
		return p->vm == d->cache_vm && p->owner == d->cache_owner;
	return !p->vm && p->mem_ctx == d->mem->ctx;
}

/* May d run p, which has d's key?  kd: the descriptor bytes read for d;
 * entry: the first code bytes (mem_ctx programs only). */
static bool cache_valid(const struct kemu_isa_program *p, const struct kemu_isa_dispatch *d,
			const uint8_t *kd, const uint8_t *entry)
{
	if (memcmp(p->kd_bytes, kd, 64))
		return false;
	if (d->cache_vm)
		return p->vm_gen == d->cache_vm_gen && p->icache_gen == d->cache_icache_gen;
	return !memcmp(p->entry_bytes, entry, 16);
}

/* p was decoded under newer generations than d read: d is the stale one
 * (it read them before a concurrent unmap or invalidate), so p stays. */
static bool cache_newer(const struct kemu_isa_program *p, const struct kemu_isa_dispatch *d)
{
	return d->cache_vm && (p->vm_gen > d->cache_vm_gen || p->icache_gen > d->cache_icache_gen);
}

/* Takes *pp off the chain; returns it when that was its last reference
 * (the caller frees it after dropping the lock).  Caller holds cache_lock. */
static struct kemu_isa_program *cache_unlink(struct kemu_isa_program **pp)
{
	struct kemu_isa_program *p = *pp;

	*pp = p->next;
	p->next = NULL;
	cache_count--;
	return --p->refs == 0 ? p : NULL;
}

/* Finds d's program on the chain: a valid one is moved to the front and
 * returned with a reference for the caller; a stale one is unlinked (into
 * *dead if it was its last reference).  Caller holds cache_lock. */
static struct kemu_isa_program *cache_find(const struct kemu_isa_dispatch *d, const uint8_t *kd,
					   const uint8_t *entry, struct kemu_isa_program **dead,
					   bool *keep_newer)
{
	*keep_newer = false;
	for (struct kemu_isa_program **pp = &cache_head; *pp; pp = &(*pp)->next) {
		struct kemu_isa_program *p = *pp;
		if (!cache_key_match(p, d))
			continue;
		if (cache_valid(p, d, kd, entry)) {
			*pp = p->next;
			p->next = cache_head;
			cache_head = p;
			p->refs++;
			return p;
		}
		if (cache_newer(p, d)) {
			*keep_newer = true;
			return NULL;
		}
		p = cache_unlink(pp);
		if (p) {
			p->next = *dead;
			*dead = p;
		}
		return NULL;
	}
	return NULL;
}

/* Puts np (refs 1: the caller's) at the front and drops the tail beyond
 * the bound (into the *dead list).  Caller holds cache_lock. */
static void cache_insert(struct kemu_isa_program *np, struct kemu_isa_program **dead)
{
	np->refs++;
	np->next = cache_head;
	cache_head = np;
	cache_count++;
	while (cache_count > KEMU_ISA_CACHE_PROGRAMS) {
		struct kemu_isa_program **pp = &cache_head;
		while ((*pp)->next)
			pp = &(*pp)->next;
		struct kemu_isa_program *p = cache_unlink(pp);
		if (p) {
			p->next = *dead;
			*dead = p;
		}
	}
}

unsigned kemu_isa_cache_count(void)
{
	unsigned n;

	pthread_mutex_lock(&cache_lock);
	n = cache_count;
	pthread_mutex_unlock(&cache_lock);
	return n;
}

static void free_list(struct kemu_isa_program *p)
{
	while (p) {
		struct kemu_isa_program *n = p->next;
		program_free(p);
		p = n;
	}
}

/* cache_find under the lock, for a caller that has not decoded yet. */
static struct kemu_isa_program *cache_lookup(const struct kemu_isa_dispatch *d,
					     const uint8_t *kd, const uint8_t *entry,
					     bool *keep_newer)
{
	struct kemu_isa_program *p, *dead = NULL;

	pthread_mutex_lock(&cache_lock);
	p = cache_find(d, kd, entry, &dead, keep_newer);
	pthread_mutex_unlock(&cache_lock);
	free_list(dead);
	if (p)
		atomic_fetch_add_explicit(&stat_reused, 1, memory_order_relaxed);
	return p;
}

struct kemu_isa_program *kemu_isa_program_get(const struct kemu_isa_dispatch *d,
					      struct kemu_isa_error *err)
{
	struct kemu_isa_program *p, *np = NULL, *dead = NULL;
	uint8_t kd[64], entry[16];
	uint64_t entry_va;
	amdhsa_kernel_descriptor_t kdesc;
	bool keep_newer = false;

	if (!d || !d->mem || !d->mem->translate) {
		err_setf(err, KEMU_ISA_ERR_BAD_DISPATCH, 0, "dispatch without a memory interface");
		return NULL;
	}
	if (d->gfx_target_version != KEMU_ISA_GFX90A && d->gfx_target_version != KEMU_ISA_GFX942) {
		err_setf(err, KEMU_ISA_ERR_BAD_DISPATCH, 0,
			 "gfx_target_version %u is not gfx90a (90010) or gfx942 (90402)",
			 d->gfx_target_version);
		return NULL;
	}
	if ((d->kernel_object & 63) ||
	    read_direct(d->mem, d->kernel_object, kd, 64, KEMU_ISA_ACCESS_READ)) {
		err_setf(err, KEMU_ISA_ERR_BAD_DESCRIPTOR, d->kernel_object,
			 "kernel descriptor at 0x%llx is unaligned or unreadable",
			 (unsigned long long)d->kernel_object);
		return NULL;
	}
	memset(entry, 0, sizeof(entry));
	/* an instruction-cache hit reads no code */
	if (d->cache_vm && (p = cache_lookup(d, kd, entry, &keep_newer)))
		return p;
	memcpy(&kdesc, kd, 64);
	entry_va = d->kernel_object + (uint64_t)kdesc.kernel_code_entry_byte_offset;
	if ((kdesc.kernarg_preload & 0x7f) != 0)
		entry_va += 256; /* firmware with kernarg preload skips the
				    compatibility block */
	if ((entry_va & 255) != 0 && (entry_va & 3) != 0) {
		err_setf(err, KEMU_ISA_ERR_BAD_DESCRIPTOR, d->kernel_object,
			 "kernel entry 0x%llx is not dword aligned", (unsigned long long)entry_va);
		return NULL;
	}
	if (read_direct(d->mem, entry_va, entry, 16, KEMU_ISA_ACCESS_EXEC)) {
		/* A kernel shorter than 16 bytes at the end of a mapping. */
		memset(entry, 0, sizeof(entry));
		if (read_direct(d->mem, entry_va, entry, 4, KEMU_ISA_ACCESS_EXEC)) {
			err_setf(err, KEMU_ISA_ERR_MEMORY_FAULT, entry_va,
				 "kernel code at 0x%llx is not mapped executable",
				 (unsigned long long)entry_va);
			if (err) {
				err->va = entry_va;
				err->access = KEMU_ISA_ACCESS_EXEC;
			}
			return NULL;
		}
	}

	if (!d->cache_vm && (p = cache_lookup(d, kd, entry, &keep_newer)))
		return p;

	np = calloc(1, sizeof(*np));
	if (!np) {
		err_setf(err, KEMU_ISA_ERR_NO_MEMORY, 0, "out of memory for a program");
		return NULL;
	}
	np->refs = 1; /* the caller's */
	np->mem_ctx = d->cache_vm ? NULL : d->mem->ctx;
	np->owner = d->cache_vm ? d->cache_owner : NULL;
	np->vm = d->cache_vm;
	np->vm_gen = d->cache_vm_gen;
	np->icache_gen = d->cache_icache_gen;
	np->kd_va = d->kernel_object;
	memcpy(np->kd_bytes, kd, 64);
	memcpy(np->entry_bytes, entry, 16);
	np->kd = kdesc;
	np->gfx = d->gfx_target_version;
	np->gfx942 = d->gfx_target_version == KEMU_ISA_GFX942;
	np->entry_va = entry_va;
	if (descriptor_check(np, err)) {
		program_free(np);
		return NULL;
	}
	if (kemu_isa_decode_program(np, d->mem)) {
		err_setf(err, KEMU_ISA_ERR_NO_MEMORY, entry_va,
			 "out of memory (or over 2^20 instructions) decoding the kernel at 0x%llx",
			 (unsigned long long)entry_va);
		program_free(np);
		return NULL;
	}
	kemu_isa_stats_add(0, 0, 0, 1);

	pthread_mutex_lock(&cache_lock);
	p = cache_find(d, kd, entry, &dead, &keep_newer);
	if (p) {
		/* another thread decoded it meanwhile: keep that one */
		pthread_mutex_unlock(&cache_lock);
		free_list(dead);
		program_free(np);
		return p;
	}
	if (!keep_newer) /* else np runs this dispatch only */
		cache_insert(np, &dead);
	pthread_mutex_unlock(&cache_lock);
	free_list(dead);
	return np;
}

void kemu_isa_program_put(struct kemu_isa_program *p)
{
	bool last;

	if (!p)
		return;
	pthread_mutex_lock(&cache_lock);
	last = --p->refs == 0;
	pthread_mutex_unlock(&cache_lock);
	if (last)
		program_free(p);
}

void kemu_isa_cache_flush(const void *ctx)
{
	struct kemu_isa_program **pp, *dead = NULL;

	pthread_mutex_lock(&cache_lock);
	pp = &cache_head;
	while (*pp) {
		struct kemu_isa_program *p = *pp;
		if (!ctx || p->mem_ctx == ctx || p->owner == ctx) {
			p = cache_unlink(pp);
			if (p) {
				p->next = dead;
				dead = p;
			}
		} else {
			pp = &p->next;
		}
	}
	pthread_mutex_unlock(&cache_lock);
	free_list(dead);
}

/* ---- workgroups ---- */

unsigned kemu_isa_waves_per_workgroup(const struct kemu_isa_dispatch *d)
{
	uint64_t n = (uint64_t)d->workgroup_size[0] * d->workgroup_size[1] * d->workgroup_size[2];
	return (unsigned)((n + ISA_LANES - 1) / ISA_LANES);
}

uint32_t kemu_isa_scratch_wave_bytes(const struct kemu_isa_program *p,
				     const struct kemu_isa_dispatch *d)
{
	uint64_t per_item = d->private_segment_size;
	uint64_t bytes;

	if (p && p->private_fixed > per_item)
		per_item = p->private_fixed;
	per_item = (per_item + 3) & ~3ull;
	bytes = per_item * ISA_LANES;
	bytes = (bytes + 1023) & ~1023ull;
	return bytes > UINT32_MAX ? UINT32_MAX : (uint32_t)bytes;
}

void kemu_isa_scratch_srd(uint64_t base_va, uint64_t size, uint32_t srd[4])
{
	/* SQ_BUF_RSRC (gfx9): word1 BASE_ADDRESS_HI [15:0], STRIDE [29:16],
	 * SWIZZLE_ENABLE [31]; word2 NUM_RECORDS; word3 DST_SEL_XYZW [11:0],
	 * NUM_FORMAT [14:12], DATA_FORMAT [18:15], ELEMENT_SIZE [20:19]
	 * (1: 4 bytes), INDEX_STRIDE [22:21] (3: 64), ADD_TID_ENABLE [23]. */
	srd[0] = (uint32_t)base_va;
	srd[1] = (uint32_t)(base_va >> 32) & 0xffff;
	srd[1] |= 1u << 31;
	srd[2] = size > UINT32_MAX ? UINT32_MAX : (uint32_t)size;
	srd[3] = (4u << 0) | (5u << 3) | (6u << 6) | (7u << 9) | (7u << 12) | (4u << 15) |
		 (1u << 19) | (3u << 21) | (1u << 23);
}

struct wg_arena {
	void *mem;
	size_t size;
};

static pthread_key_t arena_key;
static pthread_once_t arena_once = PTHREAD_ONCE_INIT;

static void arena_free(void *a)
{
	struct wg_arena *ar = a;
	if (ar) {
		free(ar->mem);
		free(ar);
	}
}

static void arena_init(void)
{
	(void)pthread_key_create(&arena_key, arena_free);
}

/* Per-thread scratch memory for wave state, reused across workgroups. */
static void *arena_get(size_t size)
{
	struct wg_arena *ar;

	pthread_once(&arena_once, arena_init);
	ar = pthread_getspecific(arena_key);
	if (!ar) {
		ar = calloc(1, sizeof(*ar));
		if (!ar)
			return NULL;
		if (pthread_setspecific(arena_key, ar)) {
			free(ar);
			return NULL;
		}
	}
	if (ar->size < size) {
		void *m = aligned_alloc(64, (size + 63) & ~(size_t)63);
		if (!m)
			return NULL;
		memset(m, 0, (size + 63) & ~(size_t)63);
		free(ar->mem);
		ar->mem = m;
		ar->size = size;
	}
	return ar->mem;
}

static void wave_init(struct isa_wave *w, struct isa_wg *wg, unsigned id, unsigned nitems)
{
	const struct kemu_isa_program *p = wg->p;
	const struct kemu_isa_dispatch *d = wg->d;
	const amdhsa_kernel_descriptor_t *kd = &p->kd;
	uint32_t rsrc2 = kd->compute_pgm_rsrc2;
	unsigned kcp = kd->kernel_code_properties, s = 0;
	unsigned first = id * ISA_LANES, active;
	unsigned vgpr_items = (rsrc2 >> 11) & 3;
	uint64_t exec;
	uint32_t *v0;

	memset(w->s, 0, sizeof(w->s));
	w->scc = 0;
	w->p = p;
	w->insts = atomic_load_explicit(&((struct kemu_isa_program *)p)->code,
					memory_order_acquire)->insts;
	w->pc = p->entry;
	w->mode = p->mode;
	w->trapsts = 0;
	w->wg = wg;
	w->id = id;
	w->done = false;
	w->ninst = 0;
	w->tlb_next = 0;
	w->tlb_gen = 0;
	memset(w->tlb, 0, sizeof(w->tlb));
	w->scratch_bytes = d->scratch.wave_bytes ? d->scratch.wave_bytes
						 : kemu_isa_scratch_wave_bytes(p, d);
	w->scratch_base = wg->scratch_slot_base + (uint64_t)id * w->scratch_bytes;

	if (kcp & 1) { /* private segment buffer: the scratch SRD */
		uint32_t srd[4];
		if (d->scratch.srd[0] | d->scratch.srd[1] | d->scratch.srd[2] | d->scratch.srd[3])
			memcpy(srd, d->scratch.srd, sizeof(srd));
		else
			kemu_isa_scratch_srd(d->scratch.base_va, d->scratch.size, srd);
		for (unsigned i = 0; i < 4; i++)
			w->s[s++] = srd[i];
	}
	if (kcp & 2) {
		w->s[s++] = (uint32_t)d->dispatch_packet;
		w->s[s++] = (uint32_t)(d->dispatch_packet >> 32);
	}
	if (kcp & 4) {
		w->s[s++] = (uint32_t)d->queue_address;
		w->s[s++] = (uint32_t)(d->queue_address >> 32);
	}
	if (kcp & 8) {
		w->s[s++] = (uint32_t)d->kernarg_address;
		w->s[s++] = (uint32_t)(d->kernarg_address >> 32);
	}
	if (kcp & 16) {
		w->s[s++] = (uint32_t)d->dispatch_id;
		w->s[s++] = (uint32_t)(d->dispatch_id >> 32);
	}
	if (kcp & 32) { /* GFX9: base of the queue's scratch backing */
		w->s[s++] = (uint32_t)d->scratch.base_va;
		w->s[s++] = (uint32_t)(d->scratch.base_va >> 32);
	}
	if (kcp & 64)
		w->s[s++] = (d->private_segment_size + 3) & ~3u;
	/* Preloaded kernarg dwords (the hardware has already checked they are
	 * readable in workgroup_run). */
	s = (rsrc2 >> 1) & 0x1f;
	if (rsrc2 & (1u << 7))
		w->s[s++] = wg->id[0];
	if (rsrc2 & (1u << 8))
		w->s[s++] = wg->id[1];
	if (rsrc2 & (1u << 9))
		w->s[s++] = wg->id[2];
	if (rsrc2 & (1u << 10)) /* workgroup info: wave count in [5:0]? we
				   provide the wave count of the workgroup */
		w->s[s++] = (nitems + ISA_LANES - 1) / ISA_LANES;
	if ((rsrc2 & 1) && !p->gfx942)
		w->s[s++] = (uint32_t)(w->scratch_base - d->scratch.base_va);
	if (p->gfx942) {
		/* Architected flat scratch: FLAT_SCRATCH = wave scratch base. */
		w->s[ISA_REG_FLAT_SCR_LO] = (uint32_t)w->scratch_base;
		w->s[ISA_REG_FLAT_SCR_LO + 1] = (uint32_t)(w->scratch_base >> 32);
	}

	/* EXEC: the lanes that hold work-items of this (possibly partial)
	 * workgroup. */
	active = nitems - first < ISA_LANES ? nitems - first : ISA_LANES;
	exec = active >= 64 ? ~0ull : (1ull << active) - 1;
	isa_set_exec(w, exec);

	/* VGPRs the kernel allocated start at zero (the hardware leaves them
	 * undefined; zero keeps runs reproducible).  The safety rows beyond
	 * were zeroed when the arena was allocated and are never read by
	 * correct code. */
	memset(w->v, 0, (size_t)p->vgpr_rows * ISA_LANES * sizeof(uint32_t));
	v0 = isa_vrow(w, 0);
	if (wg->size[1] == 1 && wg->size[2] == 1) {
		/* 1-D workgroup: x is the flat id */
		for (unsigned l = 0; l < active; l++)
			v0[l] = first + l;
	} else {
		/* work-item ids of lane 0, then stepped (no divisions per lane) */
		uint32_t x = first % wg->size[0];
		uint32_t y = (first / wg->size[0]) % wg->size[1];
		uint32_t z = first / (wg->size[0] * wg->size[1]);
		for (unsigned l = 0; l < active; l++) {
			uint32_t packed = x;
			if (vgpr_items >= 1)
				packed |= y << 10;
			if (vgpr_items >= 2)
				packed |= z << 20;
			v0[l] = packed;
			if (++x == wg->size[0]) {
				x = 0;
				if (++y == wg->size[1]) {
					y = 0;
					z++;
				}
			}
		}
	}
}

/* Whether the dispatch asks its waves to stop.  Relaxed: the flag only
 * tells the wave to stop, it publishes no data (the CP synchronises with
 * the workgroup's return, not with this load). */
static bool preempt_requested(const struct kemu_isa_dispatch *d)
{
	return d->preempt && atomic_load_explicit(d->preempt, memory_order_relaxed);
}

static int wave_preempted(struct isa_wave *w, const struct isa_inst *in)
{
	/* err->pc: where the wave would resume */
	return isa_fail(w, in, KEMU_ISA_PREEMPTED, "wave %u preempted at pc 0x%llx", w->id,
			(unsigned long long)in->addr);
}

static int wave_run(struct isa_wave *w)
{
	const struct kemu_isa_dispatch *d = w->wg->d;
	uint64_t n = 0, limit = d->wave_instruction_limit, check;
	int r;

	if (limit)
		limit = limit > w->ninst ? limit - w->ninst : 1;
	else
		limit = UINT64_MAX;
	/* One countdown serves the watchdog and the preemption poll, so the
	 * hot loop keeps its single compare. */
	check = d->preempt && limit > KEMU_ISA_PREEMPT_INTERVAL ? KEMU_ISA_PREEMPT_INTERVAL
								   : limit;
	/* w->insts is reloaded every step: an indirect jump may move the
	 * wave to a newer (longer) version of the code. */
	for (;;) {
		const struct isa_inst *in = &w->insts[w->pc];
		if (n == check) {
			if (n == limit) {
				r = isa_fail(w, in, KEMU_ISA_ERR_WATCHDOG,
					     "wave %u ran %llu instructions without ending (pc 0x%llx)",
					     w->id, (unsigned long long)(w->ninst + n),
					     (unsigned long long)in->addr);
				break;
			}
			if (preempt_requested(d)) {
				r = wave_preempted(w, in);
				break;
			}
			check = limit - n > KEMU_ISA_PREEMPT_INTERVAL ? n + KEMU_ISA_PREEMPT_INTERVAL
								      : limit;
		}
		w->pc = in->next;
		n++;
		r = in->exec(w, in);
		if (r)
			break;
	}
	w->ninst += n;
	return r;
}

int kemu_isa_run_workgroup(const struct kemu_isa_program *p, const struct kemu_isa_dispatch *d,
			   uint32_t x, uint32_t y, uint32_t z, struct kemu_isa_error *err)
{
	return kemu_isa_run_workgroup_slot(p, d, x, y, z, 0, err);
}

/*
 * The workgroup scheduler: runs the waves round-robin, each until it ends,
 * reaches s_barrier or is queued on GWS.  The barrier opens when every live
 * wave has reached it (a wave that ended no longer counts); a wave queued on
 * GWS runs again once its resource released it.  Returns 0 when every wave
 * ended, -1 on an error (err set), 1 when no wave can run: some wait on GWS
 * (and the others at a barrier behind them), so only another workgroup can
 * release them.
 */
static int wg_schedule(struct isa_wg *wg, struct kemu_isa_error *err)
{
	const struct kemu_isa_dispatch *d = wg->d;

	for (;;) {
		bool progress = false;
		for (unsigned i = 0; i < wg->nwaves; i++) {
			struct isa_wave *w = &wg->waves[i];
			int r;
			if (w->done || w->at_barrier)
				continue;
			if (w->gws_wait) {
				if (!isa_gws_released(d->gws, w->gws_op, w->gws_rid, w->gws_token))
					continue;
				w->gws_wait = false;
			}
			w->err = err;
			/* at s_barrier (and before the first instruction) */
			if (preempt_requested(d)) {
				wave_preempted(w, &w->insts[w->pc]);
				return -1;
			}
			r = wave_run(w);
			progress = true;
			if (r == ISA_STEP_END) {
				w->done = true;
				wg->live--;
			} else if (r == ISA_STEP_BARRIER) {
				w->at_barrier = true;
				wg->at_barrier++;
			} else if (r == ISA_STEP_ERROR) {
				return -1;
			}
			/* ISA_STEP_GWS: w->gws_wait is set */
		}
		if (!wg->live)
			return 0;
		if (wg->at_barrier && wg->at_barrier == wg->live) {
			for (unsigned i = 0; i < wg->nwaves; i++)
				wg->waves[i].at_barrier = false;
			wg->at_barrier = 0;
			continue;
		}
		if (!progress)
			return 1;
	}
}

static void wg_count(const struct isa_wg *wg)
{
	uint64_t total_insts = 0;
	for (unsigned i = 0; i < wg->nwaves; i++)
		total_insts += wg->waves[i].ninst;
	kemu_isa_stats_add(total_insts, wg->nwaves, 1, 0);
}

/* A saved workgroup: the wg, then (64-byte aligned) its waves, VGPRs and
 * LDS laid out as in the thread arena it was copied from. */
struct kemu_isa_wg_state {
	struct isa_wg wg;
	size_t size;
	_Alignas(64) uint8_t data[];
};

static int wg_suspend(struct isa_wg *wg, uint8_t *arena, size_t need,
		      struct kemu_isa_wg_state **saved, struct kemu_isa_error *err)
{
	struct kemu_isa_wg_state *st = aligned_alloc(64, (sizeof(*st) + need + 63) & ~(size_t)63);
	if (!st) {
		err_setf(err, KEMU_ISA_ERR_NO_MEMORY, 0,
			 "out of memory saving a workgroup that waits on GWS");
		return -1;
	}
	memcpy(st->data, arena, need);
	st->size = need;
	st->wg = *wg;
	st->wg.waves = (struct isa_wave *)st->data;
	st->wg.lds = st->data + (wg->lds - arena);
	for (unsigned i = 0; i < wg->nwaves; i++) {
		struct isa_wave *w = &st->wg.waves[i];
		w->v = (uint32_t *)(st->data + ((uint8_t *)wg->waves[i].v - arena));
		w->wg = &st->wg;
		w->err = NULL;
	}
	*saved = st;
	return 1;
}

static int wg_start(const struct kemu_isa_program *p, const struct kemu_isa_dispatch *d,
		    uint32_t x, uint32_t y, uint32_t z, unsigned slot,
		    struct kemu_isa_wg_state **saved, struct kemu_isa_error *err)
{
	struct isa_wg wg;
	struct isa_wave *waves;
	unsigned nwaves, nitems;
	uint32_t max_lds = d && d->max_lds ? d->max_lds : 65536;
	uint32_t wave_bytes;
	size_t vbytes, need;
	uint8_t *arena;
	int rc;
	uint32_t gid[3] = { x, y, z };

	if (err)
		memset(err, 0, sizeof(*err));
	if (!p || !d || !d->mem) {
		err_setf(err, KEMU_ISA_ERR_BAD_DISPATCH, 0, "no program or dispatch");
		return -1;
	}
	memset(&wg, 0, sizeof(wg));
	wg.d = d;
	wg.p = p;
	wg.mem = d->mem;
	for (int i = 0; i < 3; i++) {
		uint32_t ws = d->workgroup_size[i], gs = d->grid_size[i];
		uint64_t start = (uint64_t)gid[i] * ws;
		if (ws == 0 || gs == 0 || start >= gs) {
			err_setf(err, KEMU_ISA_ERR_BAD_DISPATCH, 0,
				 "workgroup (%u,%u,%u) is outside grid %ux%ux%u / workgroup %ux%ux%u",
				 x, y, z, d->grid_size[0], d->grid_size[1], d->grid_size[2],
				 d->workgroup_size[0], d->workgroup_size[1], d->workgroup_size[2]);
			return -1;
		}
		wg.id[i] = gid[i];
		/* The last workgroup in a dimension may be partial (HSA allows
		 * grids that are not a multiple of the workgroup size). */
		wg.size[i] = gs - start < ws ? (uint32_t)(gs - start) : ws;
	}
	nitems = wg.size[0] * wg.size[1] * wg.size[2];
	if ((uint64_t)d->workgroup_size[0] * d->workgroup_size[1] * d->workgroup_size[2] > 1024) {
		err_setf(err, KEMU_ISA_ERR_BAD_DISPATCH, 0, "workgroup of more than 1024 work-items");
		return -1;
	}
	nwaves = (nitems + ISA_LANES - 1) / ISA_LANES;
	wg.lds_size = d->group_segment_size > p->lds_fixed ? d->group_segment_size : p->lds_fixed;
	if (wg.lds_size > max_lds) {
		err_setf(err, KEMU_ISA_ERR_LDS_RANGE, 0,
			 "group segment of %u bytes is above the %u bytes of LDS", wg.lds_size,
			 max_lds);
		return -1;
	}
	wave_bytes = d->scratch.wave_bytes ? d->scratch.wave_bytes
					   : kemu_isa_scratch_wave_bytes(p, d);
	if (d->private_segment_size || p->private_fixed) {
		uint64_t per_wg = (uint64_t)kemu_isa_waves_per_workgroup(d) * wave_bytes;
		uint64_t end = (uint64_t)(slot + 1) * per_wg;
		if (!d->scratch.base_va || end > d->scratch.size) {
			err_setf(err, KEMU_ISA_ERR_BAD_DISPATCH, 0,
				 "scratch backing of %llu bytes at 0x%llx is too small for slot %u "
				 "(%llu bytes per workgroup)",
				 (unsigned long long)d->scratch.size,
				 (unsigned long long)d->scratch.base_va, slot,
				 (unsigned long long)per_wg);
			return -1;
		}
	}
	wg.scratch_slot = slot;
	wg.scratch_slot_base = d->scratch.base_va +
		(uint64_t)slot * kemu_isa_waves_per_workgroup(d) * wave_bytes;

	vbytes = (size_t)p->alloc_rows * ISA_LANES * sizeof(uint32_t);
	need = nwaves * (sizeof(struct isa_wave) + vbytes) + wg.lds_size + 64;
	arena = arena_get(need);
	if (!arena) {
		err_setf(err, KEMU_ISA_ERR_NO_MEMORY, 0, "out of memory for %u waves", nwaves);
		return -1;
	}
	waves = (struct isa_wave *)arena;
	{
		uint8_t *vmem = arena + (((nwaves * sizeof(struct isa_wave)) + 63) & ~(size_t)63);
		for (unsigned i = 0; i < nwaves; i++)
			waves[i].v = (uint32_t *)(vmem + i * vbytes);
		wg.lds = vmem + nwaves * vbytes;
	}
	/* LDS is not initialised by the hardware; zero it so results never
	 * depend on a previous workgroup's data on this host thread. */
	memset(wg.lds, 0, wg.lds_size);

	for (unsigned i = 0; i < nwaves; i++) {
		wave_init(&waves[i], &wg, i, nitems);
		waves[i].err = err;
		waves[i].at_barrier = false;
		waves[i].gws_wait = false;
	}
	/* Preloaded kernel arguments (KERNARG_PRELOAD): the CP reads them
	 * from the kernarg segment into the SGPRs after the user SGPRs. */
	if (p->kd.kernarg_preload & 0x7f) {
		unsigned len = p->kd.kernarg_preload & 0x7f;
		unsigned off = (p->kd.kernarg_preload >> 7) & 0x1ff;
		unsigned kcp = p->kd.kernel_code_properties, s0 = 0;
		uint32_t args[128];
		s0 += (kcp & 1) ? 4 : 0;
		s0 += (kcp & 2) ? 2 : 0;
		s0 += (kcp & 4) ? 2 : 0;
		s0 += (kcp & 8) ? 2 : 0;
		s0 += (kcp & 16) ? 2 : 0;
		s0 += (kcp & 32) ? 2 : 0;
		s0 += (kcp & 64) ? 1 : 0;
		if (read_direct(d->mem, d->kernarg_address + off * 4ull, args, len * 4,
				KEMU_ISA_ACCESS_READ)) {
			err_setf(err, KEMU_ISA_ERR_MEMORY_FAULT, p->entry_va,
				 "GPU memory fault: kernarg preload read at VA 0x%llx",
				 (unsigned long long)(d->kernarg_address + off * 4ull));
			if (err) {
				err->va = d->kernarg_address + off * 4ull;
				err->access = KEMU_ISA_ACCESS_READ;
			}
			return -1;
		}
		for (unsigned i = 0; i < nwaves; i++)
			memcpy(&waves[i].s[s0], args, len * 4);
	}

	wg.waves = waves;
	wg.nwaves = nwaves;
	wg.live = nwaves;
	rc = wg_schedule(&wg, err);
	if (rc == 1) {
		if (saved)
			return wg_suspend(&wg, arena, need, saved, err);
		isa_fail(&waves[0], NULL, KEMU_ISA_ERR_DEADLOCK,
			 "workgroup (%u,%u,%u) waits on GWS, which only other workgroups can "
			 "release, and cannot be suspended", x, y, z);
		rc = -1;
	}
	wg_count(&wg);
	return rc;
}

int kemu_isa_run_workgroup_slot(const struct kemu_isa_program *p,
				const struct kemu_isa_dispatch *d, uint32_t x, uint32_t y,
				uint32_t z, unsigned slot, struct kemu_isa_error *err)
{
	return wg_start(p, d, x, y, z, slot, NULL, err);
}

int kemu_isa_run_workgroup_gws(const struct kemu_isa_program *p,
			       const struct kemu_isa_dispatch *d, uint32_t x, uint32_t y,
			       uint32_t z, unsigned slot, struct kemu_isa_wg_state **saved,
			       struct kemu_isa_error *err)
{
	if (!saved) {
		err_setf(err, KEMU_ISA_ERR_BAD_DISPATCH, 0, "no place for a saved workgroup");
		return -1;
	}
	*saved = NULL;
	return wg_start(p, d, x, y, z, slot, saved, err);
}

int kemu_isa_resume_workgroup(struct kemu_isa_wg_state *st, const struct kemu_isa_dispatch *d,
			      struct kemu_isa_error *err)
{
	int rc;

	if (err)
		memset(err, 0, sizeof(*err));
	if (!st || !d || !d->mem) {
		err_setf(err, KEMU_ISA_ERR_BAD_DISPATCH, 0, "no saved workgroup or dispatch");
		kemu_isa_workgroup_free(st);
		return -1;
	}
	st->wg.d = d;
	st->wg.mem = d->mem;
	rc = wg_schedule(&st->wg, err);
	if (rc == 1)
		return 1;
	wg_count(&st->wg);
	kemu_isa_workgroup_free(st);
	return rc;
}

bool kemu_isa_workgroup_ready(const struct kemu_isa_wg_state *st)
{
	const struct isa_wg *wg = &st->wg;
	for (unsigned i = 0; i < wg->nwaves; i++) {
		const struct isa_wave *w = &wg->waves[i];
		if (!w->done && w->gws_wait &&
		    isa_gws_released(wg->d->gws, w->gws_op, w->gws_rid, w->gws_token))
			return true;
	}
	return false;
}

unsigned kemu_isa_workgroup_scratch_slot(const struct kemu_isa_wg_state *st)
{
	return st->wg.scratch_slot;
}

void kemu_isa_workgroup_free(struct kemu_isa_wg_state *st)
{
	free(st);
}
