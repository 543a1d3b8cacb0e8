/*
 * isa.h — kfdemu's gfx9 instruction interpreter (gfx90a / CDNA2 and
 * gfx942 / CDNA3), the public interface of the kfdemu_isa library.
 *
 * The interpreter knows nothing about the KFD model: whoever drives it (the
 * emulated command processor, or a test) describes one dispatch with
 * struct kemu_isa_dispatch, gets a decoded program for its kernel
 * descriptor with kemu_isa_program_get() and runs workgroups with
 * kemu_isa_run_workgroup().  Every load, store, atomic and instruction
 * fetch goes through struct kemu_isa_mem, so a missing page becomes a GPU
 * memory fault reported in struct kemu_isa_error instead of a host crash.
 *
 * Threading: programs are decoded once and cached under a lock (the
 * program cache, see kemu_isa_dispatch.cache_vm); a program is immutable
 * after decode, so independent workgroups may run on several host threads
 * at once.  Each running workgroup needs its own scratch slot (see
 * kemu_isa_run_workgroup_slot()).
 *
 * Wave size is 64 (gfx9 has no wave32).
 *
 * How a command processor drives it, per AQL kernel dispatch packet:
 *   struct kemu_isa_dispatch d = { .gfx_target_version = 90010,
 *       .mem = &process_vm, .kernel_object = pkt->kernel_object,
 *       .kernarg_address = pkt->kernarg_address,
 *       .dispatch_packet = VA of pkt, .queue_address = VA of amd_queue_t,
 *       .grid_size = pkt->grid_size_*, .workgroup_size = pkt->workgroup_size_*,
 *       .group_segment_size = pkt->group_segment_size,
 *       .private_segment_size = pkt->private_segment_size,
 *       .scratch = { queue scratch VA, size, per-wave bytes },
 *       .apertures = { shared_base, private_base } (the process's),
 *       .interrupt = raise_irq, .wave_instruction_limit = watchdog,
 *       .cache_owner = the CP, .cache_vm = the process,
 *       .cache_vm_gen, .cache_icache_gen = its TLB-flush and icache
 *       invalidate counters, read now };
 *   p = kemu_isa_program_get(&d, &err);       // NULL: fail the dispatch
 *   for each workgroup (x, y, z), on any worker thread t:
 *       kemu_isa_run_workgroup_slot(p, &d, x, y, z, t, &err);
 *       // -1: err.kind / err.va / err.message -> queue error, except
 *       // KEMU_ISA_PREEMPTED (d.preempt set): stop, the queue is fine
 *   kemu_isa_program_put(p);
 * Scratch: size it kemu_isa_waves_per_workgroup(&d) *
 * kemu_isa_scratch_wave_bytes(p, &d) bytes per worker slot.
 */
#ifndef KEMU_ISA_H
#define KEMU_ISA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* gfx_target_version values, as KFD topology reports them. */
#define KEMU_ISA_GFX90A 90010u
#define KEMU_ISA_GFX942 90402u

/* Access kinds passed to kemu_isa_mem.translate (a bit set). */
#define KEMU_ISA_ACCESS_READ   1u
#define KEMU_ISA_ACCESS_WRITE  2u
#define KEMU_ISA_ACCESS_EXEC   4u
#define KEMU_ISA_ACCESS_ATOMIC 8u

/*
 * The GPU virtual address space as the interpreter sees it.  translate()
 * returns a host pointer valid for [gpu_va, gpu_va + len), or NULL when any
 * byte of the range is unmapped or lacks the access; the callee may record
 * the fault (the interpreter also reports it in kemu_isa_error).  The
 * interpreter never asks for a range that crosses a 4 KiB page boundary,
 * so an implementation with page-granular mappings may translate one page
 * at a time.  Atomic accesses are made with host atomics on the returned
 * pointer, so it must be the same for every thread (shared memory).
 *
 * Each wave keeps the pages it translated (a small TLB, emptied when the
 * wave starts).  generation, when set, is the address space's TLB-flush
 * counter: a wave reads it (acquire) before every lookup and forgets its
 * pages when it changed, so a translation is never used after the mapping
 * behind it changed (the caller bumps the counter, with release, after
 * every unmap).  NULL: pages are kept for the life of the wave.
 */
struct kemu_isa_mem {
	void *ctx;
	void *(*translate)(void *ctx, uint64_t gpu_va, uint64_t len, unsigned access);
	const _Atomic uint64_t *generation;
};

/*
 * Scratch (private segment) backing, as the CP provides it per queue.
 * Each wave owns wave_bytes at base_va + wave_offset, where the wave
 * offset is (slot * waves_per_workgroup + wave) * wave_bytes; the CP sizes
 * the backing for the slots it runs at once.  Per-lane private memory is
 * interleaved in the backing as the hardware's swizzled scratch buffer
 * does it (dword d of lane l at d * 256 + l * 4), the same for buffer
 * (SRD), scratch_* and flat-to-private accesses.
 */
struct kemu_isa_scratch {
	uint64_t base_va;       /* queue scratch backing (GPU VA); 0: none */
	uint64_t size;          /* bytes of backing */
	uint32_t wave_bytes;    /* per-wave scratch bytes (multiple of 1 KiB) */
	uint32_t srd[4];        /* private segment buffer SRD for s[0:3];
				   all zero: kemu_isa_scratch_srd() builds it */
};

/* Apertures (flat addresses that route to LDS or to private memory). */
struct kemu_isa_apertures {
	uint64_t shared_base;   /* LDS aperture: [base, base + 4 GiB) */
	uint64_t private_base;  /* private aperture: [base, base + 4 GiB) */
};

/*
 * Global wave sync (GWS): the device's 64 GWS resources, each a counter with
 * a queue of waiting waves, shared by every workgroup of every dispatch
 * given it (the ds_gws_* instructions; isa_exec_ds.c has the semantics).
 * The kernel gives them to one process per device (ALLOC_QUEUE_GWS); the
 * CP hands the same object to all its dispatches.  Reference counted; the
 * state is guarded by a lock of its own, so workgroups on any host thread
 * may use it at once.
 */
#define KEMU_ISA_GWS_RESOURCES 64u
struct kemu_isa_gws;
struct kemu_isa_gws *kemu_isa_gws_create(void);         /* NULL: no memory */
void kemu_isa_gws_get(struct kemu_isa_gws *gws);
void kemu_isa_gws_put(struct kemu_isa_gws *gws);        /* NULL: nothing */
/* One resource's state, for tests and diagnostics. */
struct kemu_isa_gws_resource {
	int32_t counter;
	unsigned flag;          /* the barrier phase bit */
	bool semaphore;         /* last used as a semaphore (else barrier) */
	uint32_t waiting;       /* waves queued on it now */
};
int kemu_isa_gws_resource(struct kemu_isa_gws *gws, unsigned rid,
			  struct kemu_isa_gws_resource *out);  /* 0, -1: bad rid */

/* Callback for s_sendmsg MSG_INTERRUPT: the low 24 bits of M0 (and the
 * wave's hardware id) go to the CP, which raises the interrupt.  wave_id
 * carries KEMU_ISA_INTERRUPT_PRIV when a trap handler sent it (STATUS.PRIV:
 * the SQ interrupt's SQ_INTERRUPT_WORD_WAVE_CTXID0.PRIV, which KFD reads
 * as a trap handler's exception report). */
typedef void (*kemu_isa_interrupt_fn)(void *ctx, uint32_t m0_low24, uint32_t wave_id);
#define KEMU_ISA_INTERRUPT_PRIV (1u << 31)

struct kemu_isa_error;

/*
 * Traps and exceptions (isa_trap.c).  On gfx9 the SQ enters the trap
 * handler (TBA) on s_trap and on the exceptions the interpreter raises
 * (illegal instruction: TRAPSTS.ILLEGAL_INST; a memory violation:
 * TRAPSTS.MEM_VIOL), with the PC, trap id and STATUS in the ttmp
 * registers.  The TBA is always the kernel's first-level CWSR handler
 * (cwsr_trap_handler_gfx9.asm), which the interpreter models in C: it
 * jumps to the second-level handler the runtime installed with
 * SET_TRAP_HANDLER (tba, with ttmp14/15 = tma), whose instructions then
 * run as any others (s_getreg/s_setreg of TRAPSTS and STATUS, s_sendmsg
 * MSG_GET_DOORBELL / MSG_INTERRUPT, s_rfe_b64); with none, it skips an
 * s_trap (PC + 4) and halts the wave on an exception, and nothing is
 * reported.
 *
 * model KEMU_ISA_TRAP_REPORT (0, the default of every caller that does not
 * set it): with no second-level handler, s_trap and the exceptions stop
 * the workgroup with an error, as kfdemu did before it modelled traps (the
 * CP's lenient mode, and the interpreter's own tests).  KEMU_ISA_TRAP_HW:
 * the first-level handler above; unreported (may be NULL) is called, with
 * ctx, for each s_trap skipped and each exception halted without a
 * second-level handler: silicon reports nothing, the emulator says so.
 */
enum kemu_isa_trap_model {
	KEMU_ISA_TRAP_REPORT = 0,
	KEMU_ISA_TRAP_HW = 1,
};
struct kemu_isa_trap {
	unsigned model;                 /* enum kemu_isa_trap_model */
	uint64_t tba, tma;              /* second-level handler; tba 0: none */
	uint32_t doorbell_id;           /* the queue's doorbell (slot in the
					   process's doorbell page), which
					   s_sendmsg MSG_GET_DOORBELL returns */
	void (*unreported)(void *ctx, const struct kemu_isa_error *e);
	void *ctx;
};

struct kemu_isa_dispatch {
	uint32_t gfx_target_version;    /* KEMU_ISA_GFX90A or KEMU_ISA_GFX942 */
	const struct kemu_isa_mem *mem;
	uint64_t kernel_object;         /* VA of the 64-byte kernel descriptor */
	uint64_t kernarg_address;       /* VA of the kernarg segment */
	uint64_t dispatch_packet;       /* VA of the AQL packet (dispatch ptr) */
	uint64_t queue_address;         /* VA of the amd_queue_t (queue ptr) */
	uint64_t dispatch_id;
	uint32_t grid_size[3];          /* work-items, as in the AQL packet */
	uint16_t workgroup_size[3];     /* work-items, as in the AQL packet */
	uint32_t group_segment_size;    /* LDS bytes (fixed + dynamic) */
	uint32_t private_segment_size;  /* bytes per work-item */
	uint32_t max_lds;               /* LDS limit; 0: 64 KiB */
	struct kemu_isa_scratch scratch;
	struct kemu_isa_apertures apertures;
	kemu_isa_interrupt_fn interrupt;
	void *interrupt_ctx;
	/* Watchdog: stop a wave after this many instructions (0: never), as
	 * the driver's hang detection would reset a queue whose kernel never
	 * ends. */
	uint64_t wave_instruction_limit;
	/* Preemption request (NULL: none), the CP's view of the driver
	 * preempting the queue (CWSR on hardware).  Once *preempt reads true,
	 * every wave of a running workgroup stops within
	 * KEMU_ISA_PREEMPT_INTERVAL of its own instructions, or at its next
	 * s_barrier, and kemu_isa_run_workgroup_slot() returns -1 with
	 * err->kind KEMU_ISA_PREEMPTED; a workgroup started while it is true
	 * stops before its first instruction.  The workgroup's state is
	 * discarded (no context save: the caller decides whether the dispatch
	 * is abandoned or restarted).  The flag is read relaxed and often
	 * (it orders nothing; the caller synchronises with the workgroup's
	 * return), so it may be written from any thread at any time and must
	 * stay valid until the workgroup returns.  The check costs nothing
	 * per instruction: it shares the watchdog's countdown. */
	const _Atomic _Bool *preempt;
	/*
	 * Context save (CWSR).  With preempt_save, a workgroup stopped by
	 * *preempt (or by preempt_after) is not discarded: the entry points
	 * that take a saved pointer (kemu_isa_run_workgroup_gws,
	 * kemu_isa_resume_workgroup) return 2 with the workgroup saved, every
	 * live wave stopped at an instruction boundary (or at s_barrier, or
	 * queued on GWS) as the trap handler's save routine leaves it, and
	 * kemu_isa_ctx_save() (isa_ctx.c) writes it in the layout of the
	 * kernel's CWSR handler.  preempt_after (0: never; only with
	 * preempt_save) is a stop point the CP can request: a wave stops after
	 * that many of its own instructions since it was (re)started, sharing
	 * the watchdog's countdown, so it costs nothing per instruction.
	 */
	bool preempt_save;
	uint64_t preempt_after;
	/* Optional (NULL: none): asked at the same points as *preempt is read
	 * (every KEMU_ISA_PREEMPT_INTERVAL instructions, at s_barrier), true
	 * to preempt; for a request that depends on time, such as the end of
	 * a time slice.  Called from the thread running the workgroup. */
	bool (*preempt_poll)(void *ctx);
	void *preempt_ctx;
	/*
	 * Program cache identity.  cache_vm NULL: programs are keyed by
	 * mem->ctx and the descriptor and first code bytes are compared on
	 * every kemu_isa_program_get (kemu_isa_cache_flush(mem->ctx) forgets
	 * them).  Otherwise the cache behaves as the GPU's instruction cache
	 * for the address space cache_vm of cache_owner (e.g. a process on
	 * one device): a program is keyed by (cache_owner, cache_vm,
	 * kernel_object), the 64 descriptor bytes are compared (the CP reads
	 * the descriptor for every dispatch), but the code is not read again:
	 * code rewritten in place keeps running in its cached form until
	 * vm_gen (the address space's mappings changed) or icache_gen (an
	 * instruction-cache invalidate) differs from the values the program
	 * was decoded under.  Read both before the dispatch reads any code.
	 * kemu_isa_cache_flush(cache_owner) forgets the owner's programs.
	 */
	const void *cache_owner;
	const void *cache_vm;
	uint64_t cache_vm_gen;
	uint64_t cache_icache_gen;
	/*
	 * GWS the dispatch's VMID may use: resources gws_base .. gws_base +
	 * gws_size - 1 (mod 64) of gws, as GDS_GWS_VMIDn gives them.  NULL or
	 * size 0: none, and every ds_gws_* is a memory violation
	 * (KEMU_ISA_ERR_MEM_VIOL).  A workgroup whose waves wait on GWS can
	 * only make progress when other workgroups run: drive it with
	 * kemu_isa_run_workgroup_gws().  gws_released (may be NULL) is called,
	 * with gws_ctx and no lock held, each time a wave's ds_gws_* released
	 * waiting waves, so a scheduler knows suspended workgroups may be ready.
	 */
	struct kemu_isa_gws *gws;
	uint32_t gws_base, gws_size;
	void (*gws_released)(void *ctx);
	void *gws_ctx;
	/* GB_ADDR_CONFIG of the device (pipes, pipe interleave, banks,
	 * shader engines): image instructions address tiled (swizzled)
	 * surfaces with it, as the texture unit does.  0 reads as 1 pipe,
	 * 256-byte interleave, 1 bank, 1 SE. */
	uint32_t gb_addr_config;
	/* traps and exceptions: see struct kemu_isa_trap */
	struct kemu_isa_trap trap;
};

/* Wave instructions between two reads of kemu_isa_dispatch.preempt. */
#define KEMU_ISA_PREEMPT_INTERVAL 4096u

/* Why a workgroup stopped. */
enum kemu_isa_error_kind {
	KEMU_ISA_OK = 0,
	KEMU_ISA_ERR_ILLEGAL_INSTRUCTION,  /* not implemented or invalid */
	KEMU_ISA_ERR_MEMORY_FAULT,         /* translate() failed */
	KEMU_ISA_ERR_BAD_DESCRIPTOR,       /* kernel descriptor unusable */
	KEMU_ISA_ERR_BAD_DISPATCH,         /* dispatch description unusable */
	KEMU_ISA_ERR_TRAP,                 /* s_trap */
	KEMU_ISA_ERR_LDS_RANGE,            /* LDS access out of range (DS with
					      the range check; flat LDS) */
	KEMU_ISA_ERR_NO_MEMORY,            /* host allocation failed */
	KEMU_ISA_ERR_HALT,                 /* s_sethalt 1 / s_sendmsghalt /
					      STATUS.HALT (a trap handler's
					      return): the wave would never
					      resume (err->trap says why) */
	KEMU_ISA_ERR_WATCHDOG,             /* wave_instruction_limit reached */
	KEMU_ISA_PREEMPTED,                /* not an error: dispatch->preempt
					      was set; the workgroup stopped
					      unfinished and its state is lost
					      (without preempt_save) */
	KEMU_ISA_ERR_MEM_VIOL,             /* ds_gws_* on a resource outside
					      the VMID's GWS (TRAPSTS.MEM_VIOL) */
	KEMU_ISA_ERR_DEADLOCK,             /* waves wait on GWS (or a barrier
					      behind it) and nothing can ever
					      release them: hardware would hang */
};

/* kemu_isa_error.trap: a halted wave (KEMU_ISA_ERR_HALT) was halted by a
 * second-level trap handler's return (it reported what it had to), or by
 * the first-level handler for want of one (nothing was reported). */
#define KEMU_ISA_TRAP_HANDLED    1u
#define KEMU_ISA_TRAP_UNREPORTED 2u

struct kemu_isa_error {
	enum kemu_isa_error_kind kind;
	uint64_t pc;            /* VA of the faulting instruction */
	uint64_t va;            /* memory fault: the address */
	unsigned access;        /* memory fault: KEMU_ISA_ACCESS_* */
	uint32_t encoding[2];   /* illegal instruction: its dwords */
	uint32_t trap_id;       /* s_trap: the 8-bit trap id */
	unsigned trap;          /* KEMU_ISA_TRAP_* flags (halts, unreported) */
	uint32_t trapsts;       /* TRAPSTS when the wave stopped or trapped */
	unsigned wave;          /* wave index within the workgroup */
	char message[160];      /* human-readable, names the instruction */
};

/* Counters (cumulative, all threads). */
struct kemu_isa_stats {
	uint64_t wave_instructions;
	uint64_t waves;
	uint64_t workgroups;
	uint64_t programs_decoded;
	uint64_t programs_reused;       /* kemu_isa_program_get cache hits */
	uint64_t programs_cached;       /* on the cache now (not cumulative) */
};

struct kemu_isa_program;

/*
 * Decode the kernel whose descriptor is at dispatch->kernel_object (read
 * through dispatch->mem), or return the cached decode.  Returns NULL with
 * err filled on a bad descriptor or a fault while fetching.  The caller
 * holds a reference until kemu_isa_program_put(), whatever happens to the
 * cache meanwhile.  The cache holds at most KEMU_ISA_CACHE_PROGRAMS
 * programs (least recently used ones go first).
 */
struct kemu_isa_program *kemu_isa_program_get(const struct kemu_isa_dispatch *dispatch,
					      struct kemu_isa_error *err);
void kemu_isa_program_put(struct kemu_isa_program *program);
#define KEMU_ISA_CACHE_PROGRAMS 64u

/* Forget the cached programs of one memory context (cache_vm NULL) or of
 * one cache_owner whose code may have changed or which goes away; NULL:
 * all.  Programs still in use are freed by their last put. */
void kemu_isa_cache_flush(const void *ctx);

/*
 * Run every wave of workgroup (x, y, z) to completion.  Waves run one at a
 * time and round-robin to each s_barrier.  Returns 0 or -1 with err set.
 * _slot selects the scratch slot (one per concurrently running workgroup);
 * kemu_isa_run_workgroup() uses slot 0.
 */
int kemu_isa_run_workgroup(const struct kemu_isa_program *program,
			   const struct kemu_isa_dispatch *dispatch,
			   uint32_t wg_id_x, uint32_t wg_id_y, uint32_t wg_id_z,
			   struct kemu_isa_error *err);
int kemu_isa_run_workgroup_slot(const struct kemu_isa_program *program,
				const struct kemu_isa_dispatch *dispatch,
				uint32_t wg_id_x, uint32_t wg_id_y, uint32_t wg_id_z,
				unsigned scratch_slot, struct kemu_isa_error *err);

/*
 * Workgroups that may be saved: waiting on GWS, or preempted with
 * preempt_save (then the return value is 2 and *saved is set, from
 * kemu_isa_run_workgroup_gws and from kemu_isa_resume_workgroup alike; a
 * preempted workgroup is always ready).
 * kemu_isa_run_workgroup_gws() runs like
 * kemu_isa_run_workgroup_slot() but, when every live wave of the
 * workgroup waits on a GWS resource (or at s_barrier behind such a wave),
 * saves the workgroup and returns 1 with *saved set; the workgroup keeps
 * its scratch slot until it completes.  kemu_isa_workgroup_ready() says
 * whether one of its waves was released since (a resume would progress);
 * kemu_isa_resume_workgroup() continues it on any thread with dispatch d
 * (the same dispatch, possibly another participant's copy: its mem is
 * used from then on) and returns 0 (done, state freed), 1 (suspended
 * again, state kept) or -1 (err set, state freed).
 * kemu_isa_run_workgroup_slot() of a workgroup that would have to wait
 * fails with KEMU_ISA_ERR_DEADLOCK instead.  The program must stay
 * referenced while a saved workgroup exists.
 */
struct kemu_isa_wg_state;
int kemu_isa_run_workgroup_gws(const struct kemu_isa_program *program,
			       const struct kemu_isa_dispatch *dispatch,
			       uint32_t wg_id_x, uint32_t wg_id_y, uint32_t wg_id_z,
			       unsigned scratch_slot, struct kemu_isa_wg_state **saved,
			       struct kemu_isa_error *err);
int kemu_isa_resume_workgroup(struct kemu_isa_wg_state *state,
			      const struct kemu_isa_dispatch *dispatch, struct kemu_isa_error *err);
bool kemu_isa_workgroup_ready(const struct kemu_isa_wg_state *state);
unsigned kemu_isa_workgroup_scratch_slot(const struct kemu_isa_wg_state *state);
void kemu_isa_workgroup_free(struct kemu_isa_wg_state *state);

/*
 * Context save and restore of a saved workgroup (isa_ctx.c), in the layout
 * of the kernel's CWSR trap handler (cwsr_trap_handler_gfx9.asm, save and
 * restore routines) at the places the SPI gives each wave, as ROCdbgapi's
 * gfx9 decoder finds them (architecture.cpp, control_stack_iterate and
 * cwsr_record_t::register_address).  One record per live wave, from low
 * to high addresses in descending wave order (the SPI's "first wave in
 * the threadgroup", the lowest live wave, comes last, on top), each:
 * VGPRs (the unified file, VGPRs then AGPRs from ACCUM_OFFSET on: 64
 * lanes x 4 bytes per register), SGPRs (s0..s101 and the aliases
 * FLAT_SCRATCH, XNACK_MASK, VCC at their operand codes, padded to 112 =
 * 16-SGPR granules), 128 bytes of HWREGs (M0, PC lo/hi, EXEC lo/hi,
 * STATUS, TRAPSTS, XNACK_MASK lo/hi, MODE at 0x00..0x24, the trap
 * temporaries at 0x40 + 4 * n as the handler stores ttmp4-11 and ttmp13),
 * on the first wave the workgroup's LDS (512-byte granules), and 64 bytes
 * the decoder steps over above every record.  The control stack the
 * firmware keeps for it (COMPUTE_RELAUNCH words: kemu_isa_ctx_relaunch)
 * and struct kemu_isa_ctx_wg say what the records are.
 */
#define KEMU_ISA_CTX_MAX_WAVES 16u      /* 1024 work-items / 64 */
#define KEMU_ISA_CTX_SGPRS 112u
#define KEMU_ISA_CTX_HWREG_BYTES 128u
#define KEMU_ISA_CTX_WAVE_GAP 64u       /* above each record */
struct kemu_isa_ctx_wg {
	uint32_t wg_id[3];
	uint32_t nwaves;                /* waves the workgroup started with */
	uint32_t live;                  /* waves saved: the others ended */
	uint32_t scratch_slot;
	bool scratch_en;                /* the waves have scratch */
	uint32_t vgpr_rows;             /* per wave (VGPRs and AGPRs) */
	uint32_t accum_rows;            /* of which VGPRs (ACCUM_OFFSET) */
	uint32_t lds_bytes;             /* saved (granule-rounded) */
	uint8_t wave_id[KEMU_ISA_CTX_MAX_WAVES]; /* record order, low to high */
};
/* Bytes the saved workgroup takes in the context-save area. */
size_t kemu_isa_ctx_bytes(const struct kemu_isa_wg_state *state);
/* The same from its record. */
size_t kemu_isa_ctx_rec_bytes(const struct kemu_isa_ctx_wg *rec);
/* Writes the workgroup into buf (len >= kemu_isa_ctx_bytes) and what its
 * control-stack entry says into rec.  0, or -EINVAL. */
int kemu_isa_ctx_save(const struct kemu_isa_wg_state *state, struct kemu_isa_ctx_wg *rec,
		      uint8_t *buf, size_t len);
/* COMPUTE_RELAUNCH words of a saved workgroup, as gfx90a/gfx940 firmware
 * pushes them and ROCdbgapi decodes them (gfx9_architecture_t,
 * gfx90a_t::cwsr_record_t): in the order a reader meets them from the
 * stack's top, a state word (bit 31; VGPR granules of 8 in [5:0], SGPR
 * granules of 16 counting the 16 trap temporaries in [8:6], LDS in
 * 128-dword granules in [16:9], ACCUM_OFFSET granules of 4 in [29:24])
 * and one wave word per record from the top record down (scratch slot's
 * low 9 bits in [8:0], SCRATCH_EN [15], LAST_WAVE [16], FIRST_WAVE [17]; the shader
 * engine id, [10:9] on gfx940 and [11:9] on gfx90a, is 0: kfdemu has one).
 * Writes rec->live + 1 words to words (room for KEMU_ISA_CTX_MAX_WAVES + 1)
 * and returns their count, 0 for a record that has none. */
unsigned kemu_isa_ctx_relaunch(const struct kemu_isa_ctx_wg *rec, uint32_t *words);
/* Reads one workgroup's words back (n words from the top): its live count,
 * register and LDS sizes, scratch slot into rec (ids: kemu_isa_ctx_identify).
 * Returns the words used, or 0 when they are no workgroup's (an event word
 * is skipped as ROCdbgapi skips it; a wave word with no state before it, a
 * group with no FIRST_WAVE at its top or no LAST_WAVE at its end). */
size_t kemu_isa_ctx_parse(const uint32_t *words, size_t n, struct kemu_isa_ctx_wg *rec);
/* The workgroup id, wave ids, wave count and whole scratch slot of a
 * parsed rec, from its bytes buf (len >= kemu_isa_ctx_rec_bytes), where the
 * save keeps them in dwords the handler leaves unused.  0, or -EINVAL when
 * they disagree with each other or with the words. */
int kemu_isa_ctx_identify(struct kemu_isa_ctx_wg *rec, const uint8_t *buf, size_t len);
/* Rebuilds a saved workgroup of program p from rec and buf (as written by
 * kemu_isa_ctx_save), to resume with kemu_isa_resume_workgroup() under d.
 * NULL with err set when the record does not fit the program and dispatch
 * or a saved PC is not code of the program. */
struct kemu_isa_wg_state *kemu_isa_ctx_restore(const struct kemu_isa_program *p,
					       const struct kemu_isa_dispatch *d,
					       const struct kemu_isa_ctx_wg *rec,
					       const uint8_t *buf, size_t len,
					       struct kemu_isa_error *err);

/* Waves per workgroup and per-wave scratch bytes the program needs. */
unsigned kemu_isa_waves_per_workgroup(const struct kemu_isa_dispatch *dispatch);
uint32_t kemu_isa_scratch_wave_bytes(const struct kemu_isa_program *program,
				     const struct kemu_isa_dispatch *dispatch);

/* The standard gfx9 private-segment SRD over base_va (swizzled, 4-byte
 * elements, index stride 64, ADD_TID), as ROCr sets it up. */
void kemu_isa_scratch_srd(uint64_t base_va, uint64_t size, uint32_t srd[4]);

void kemu_isa_stats_get(struct kemu_isa_stats *out);

/* How many decoded instructions of the program (so far) are not
 * implemented or invalid; their "ENC 0xOP mnemonic @VA" are written,
 * separated by "; ", into list (len bytes, may be 0).  For tooling and
 * tests: the error a wave gets on reaching one is the authoritative
 * report. */
unsigned kemu_isa_program_unimplemented(const struct kemu_isa_program *program, char *list,
					size_t len);

/* Does the interpreter execute the instruction in words[0..nwords) (as
 * the first instruction of a program for gfx, a KEMU_ISA_GFX* value)?
 * Returns 1 yes, 0 not implemented or not decodable, -EINVAL for bad
 * arguments, -ENOMEM; *size (may be NULL) gets its length in bytes (0 when the
 * words are too short for it).  For tools/kfdemu-isa-probe and the
 * generated instruction table (emu/isa/isa_table.py). */
int kemu_isa_probe(uint32_t gfx, const uint32_t *words, unsigned nwords, unsigned *size);

/* Name of an error kind ("illegal instruction", ...). */
const char *kemu_isa_error_name(enum kemu_isa_error_kind kind);

#ifdef __cplusplus
}
#endif
#endif /* KEMU_ISA_H */
