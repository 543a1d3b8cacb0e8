/*
 * kfdemu's hardware floor: what the GPU's engines (emu/cp, emu/sdma) see of
 * the machine around them, and the interface the driver model (emu/kfd)
 * implements for them.
 *
 * amdkfd hands an engine a memory queue descriptor (MQD) through the
 * per-type manager (mqd_mgrs[type]) and receives interrupts back through
 * the IH ring; it alone decides what a fault does (kfd_int_process_v9 ->
 * kfd_dqm_evict_pasid).  Here the driver hands an engine a struct
 * kemu_hw_queue through that engine's struct kemu_engine_ops, and the
 * engine reaches memory, interrupts and faults only through the struct
 * kemu_gpu_ops the descriptor carries.  An engine reports a fault
 * (ops->vm_fault) and stops the faulting queue; the driver's handler
 * evicts every engine's queues of the process on the device.  Nothing here
 * knows the driver's objects: struct kemu_process is an opaque handle the
 * driver gets back in every call, so an engine runs as well against a fake
 * implementation (test/cp, test/sdma) as against emu/kfd.
 *
 * The rest of emu/gpu is what every engine needs below its packets:
 *   gpu_tlb.c     GPU VM translation through a small TLB, memory access
 *   gpu_engine.c  the engine-thread machinery: the registry of an engine's
 *                 units per device, their queue lists and the hooks'
 *                 stop-and-wait protocol, eviction, fork, the doorbell
 *                 watch, idle backoff and the clocks
 *   gpu_grace.c   when the host memory of a freed BO may go: after every
 *                 engine section open at the free has closed
 *   gpu_log.c     the emulator's log (KFDEMU_LOG)
 */
#ifndef KEMU_GPU_H
#define KEMU_GPU_H

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "topology/topology.h"

/* ---- the log ---- */

enum kemu_log_level {
	KEMU_LOG_NONE,
	KEMU_LOG_ERROR,
	KEMU_LOG_WARN,
	KEMU_LOG_INFO,
	KEMU_LOG_DEBUG,
};

/* Prints "kfdemu[pid]: <level>: message" to stderr when lvl <= threshold
 * (the machine's KFDEMU_LOG level). */
void kemu_gpu_log(int threshold, enum kemu_log_level lvl, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void kemu_gpu_vlog(int threshold, enum kemu_log_level lvl, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
#define kemu_gpu_warn(t, ...) kemu_gpu_log(t, KEMU_LOG_WARN, __VA_ARGS__)
#define kemu_gpu_info(t, ...) kemu_gpu_log(t, KEMU_LOG_INFO, __VA_ARGS__)
#define kemu_gpu_dbg(t, ...)  kemu_gpu_log(t, KEMU_LOG_DEBUG, __VA_ARGS__)

/* What an engine thread is, for log lines that name the GPU reader or
 * writer behind a memory access ("CP", "SDMA2"); each engine thread sets
 * it once when it starts (kemu_gpu_thread_set_name), other threads leave
 * it empty. */
extern _Thread_local char kemu_gpu_thread_name[16];
void kemu_gpu_thread_set_name(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- GPU virtual memory ---- */

#define KEMU_ACCESS_READ  1u
#define KEMU_ACCESS_WRITE 2u
#define KEMU_ACCESS_EXEC  4u

/* The facts of a GPU page fault (what the UTCL2 reports to the IH). */
struct kemu_vm_fault_info {
	uint64_t va;       /* faulting address */
	uint32_t gpu_id;
	bool not_present;  /* no mapping */
	bool read_only;    /* write to a mapping without WRITABLE */
	bool no_execute;   /* instruction fetch from a non-EXECUTABLE mapping */
	/* not a translation fault: a read of VRAM the CPU wrote through the
	 * BAR after the last HDP flush, stopped by the strict HDP model
	 * (emu/kfd/kemu_hdp.c) */
	bool hdp_stale;
};

/* A translation to keep (a TLB entry): [va, va + len) is host memory at
 * host with access allowed, for as long as the VM generation is gen.  len
 * runs to the end of the mapping (one page for SVM). */
struct kemu_vm_range {
	uint64_t va, len;
	uint8_t *host;
	unsigned access;
	uint64_t gen;
};

/* A process's trap handler on one device (kemu_gpu_ops.trap_config). */
struct kemu_trap_config {
	uint64_t tba, tma;
	bool lenient;
};

/* The driver's process: opaque here, handed back to every op. */
struct kemu_process;

/* What the driver does for the engines.  Every op may be called from any
 * engine thread; none takes a lock an engine hook may hold while it waits
 * for an engine thread (the driver's process lock), so engines may call
 * them at any time. */
struct kemu_gpu_ops {
	/* [va, va + len) inside one mapping of p's VM on gpu_id allowing
	 * access: 0 and the host address, or -EFAULT with *f filled (f may
	 * be NULL).  The pointer stays valid while the mapping's BO lives. */
	int (*translate)(struct kemu_process *p, uint32_t gpu_id, uint64_t va, size_t len,
			 unsigned access, void **host, struct kemu_vm_fault_info *f);
	/* The whole mapping from va on, to keep in a TLB (out->gen is the
	 * generation it was made under). */
	int (*translate_range)(struct kemu_process *p, uint32_t gpu_id, uint64_t va,
			       unsigned access, struct kemu_vm_range *out,
			       struct kemu_vm_fault_info *f);
	/* Copies under the VM's lock, so an UNMAP cannot pull the memory away
	 * mid-copy.  -EFAULT on a fault (*f filled if f is not NULL). */
	int (*read)(struct kemu_process *p, uint32_t gpu_id, uint64_t va, void *dst,
		    size_t len, struct kemu_vm_fault_info *f);
	int (*write)(struct kemu_process *p, uint32_t gpu_id, uint64_t va, const void *src,
		     size_t len, struct kemu_vm_fault_info *f);
	/* An interrupt carrying an event id into the IH (CP end-of-pipe:
	 * valid_bits 32, s_sendmsg: 24, SDMA trap: 28). */
	void (*interrupt)(struct kemu_process *p, uint32_t id, uint32_t valid_bits);
	/* A GPU VM fault by one of p's queues, which the engine has already
	 * stopped.  The driver's IH evicts every engine's queues of p on the
	 * faulting device and raises the fault to the process.  Called with no
	 * engine lock held (eviction takes them). */
	void (*vm_fault)(struct kemu_process *p, const struct kemu_vm_fault_info *f);
	/* An HDP flush on device gpu_id (an SDMA POLL_REGMEM flush form):
	 * CPU writes through the BAR before it are visible to every later GPU
	 * read.  Optional (NULL in fakes that model no HDP). */
	void (*hdp_flush)(struct kemu_process *p, uint32_t gpu_id);
	/* The HDP round trip (emu/kfd/kemu_hdp.c): the CP fetched the new
	 * packet at index of the queue at doorbell slot doorbell_index of p
	 * on gpu_id; the token it returns goes back to hdp_packet_done with
	 * the same slot and index when that packet completes, before its
	 * completion signal is written: the CPU writes the doorbell stores
	 * before the fetch followed have then landed on chips whose HDP holds
	 * none (the driver also settles a packet the CP fetched before its
	 * doorbell was rung, as the lost-doorbell fetch may).  Both optional
	 * (NULL: no round trip). */
	uint64_t (*hdp_packet_fetched)(struct kemu_process *p, uint32_t gpu_id,
				       uint32_t doorbell_index, uint64_t index);
	void (*hdp_packet_done)(struct kemu_process *p, uint32_t gpu_id, uint32_t doorbell_index,
				uint64_t index, uint64_t token);
	/* The trap handler a wave of p on gpu_id finds (may be NULL: none):
	 * what the kernel's first-level handler reads from its TMA, i.e. the
	 * second-level TBA/TMA of SET_TRAP_HANDLER (tba 0: none), and whether
	 * the machine runs the lenient trap model (KFDEMU_TRAPS=lenient:
	 * traps and exceptions without a handler still become queue errors,
	 * as kfdemu reported them before it modelled the handler). */
	void (*trap_config)(struct kemu_process *p, uint32_t gpu_id, struct kemu_trap_config *out);
	/* An SQ interrupt a trap handler sent (PRIV) for one of p's queues,
	 * with the queue exception mask it carried (KFD_EC_MASK bits:
	 * kfd_int_process_v9.c's KFD_CTXID0_TRAP_CODE): the driver's
	 * kfd_set_dbg_ev_from_interrupt.  True when it was delivered to the
	 * runtime (then the event interrupt is not raised); false: the caller
	 * raises the usual 24-bit event interrupt.  May be NULL. */
	bool (*trap_exception)(struct kemu_process *p, uint32_t gpu_id, uint32_t queue_id,
			       uint64_t ctx_save_va, uint64_t ec_mask);
};

/* The VM a queue's work runs in (its process on its device): the address
 * space behind every access an engine makes for the queue. */
struct kemu_gpu_vm {
	const struct kemu_gpu_ops *ops;
	struct kemu_process *p;
	uint32_t gpu_id;
	/* the VM generation: bumped (release) by the driver on every MAP,
	 * UNMAP and SVM change; a translation made under generation g is
	 * valid while this reads g (acquire) */
	const _Atomic uint64_t *gen;
	/* the mapping generation alone, which the instruction cache (decoded
	 * programs) follows: gen also moves when the driver's HDP model sees
	 * a CPU write to VRAM (so TLBs translate again and meet its check),
	 * which does not invalidate the GPU's instruction cache.  NULL: gen */
	const _Atomic uint64_t *code_gen;
};

static inline uint64_t kemu_gpu_vm_generation(const struct kemu_gpu_vm *vm)
{
	/* acquire: pairs with the driver's release increment after it changed
	 * the mappings, so a TLB that sees the old generation still holds
	 * translations of mappings that existed under it */
	return atomic_load_explicit(vm->gen, memory_order_acquire);
}

static inline uint64_t kemu_gpu_vm_code_generation(const struct kemu_gpu_vm *vm)
{
	/* acquire: pairs with the driver's release increment of the mapping
	 * generation (kemu_vm_write_unlock) */
	return atomic_load_explicit(vm->code_gen ? vm->code_gen : vm->gen, memory_order_acquire);
}

/* Translates afresh (no TLB): any thread.  NULL and *f on a fault. */
void *kemu_gpu_map(const struct kemu_gpu_vm *vm, uint64_t va, size_t len, unsigned access,
		   struct kemu_vm_fault_info *f);

/* Entries of a TLB; each covers a whole mapping. */
#define KEMU_GPU_TLB_ENTRIES 8

/* A small TLB, used by one thread at a time.  Zero-initialized it is
 * empty. */
struct kemu_gpu_tlb {
	struct kemu_vm_range e[KEMU_GPU_TLB_ENTRIES];
	unsigned next;
};

/* va through t: an entry is used only while the VM generation is the one
 * it was made under; a miss translates the whole mapping and keeps it.
 * Returns the host address and, in *avail, the bytes from va to the end
 * of the mapping; NULL and *f on a fault. */
void *kemu_gpu_tlb_lookup(const struct kemu_gpu_vm *vm, struct kemu_gpu_tlb *t, uint64_t va,
			  unsigned access, uint64_t *avail, struct kemu_vm_fault_info *f);
/* [va, va + len) through t, all in one mapping: the host address, or NULL
 * and *f on a fault (a range running off its mapping faults where it
 * leaves it). */
void *kemu_gpu_tlb_map(const struct kemu_gpu_vm *vm, struct kemu_gpu_tlb *t, uint64_t va,
		       size_t len, unsigned access, struct kemu_vm_fault_info *f);
/* The 64-bit word at va through t: an acquire load when aligned (pairs
 * with the host's release stores of signal values and write indexes), a
 * plain copy when not (the hardware would split it).  0 or -EFAULT. */
int kemu_gpu_tlb_load64(const struct kemu_gpu_vm *vm, struct kemu_gpu_tlb *t, uint64_t va,
			uint64_t *out, struct kemu_vm_fault_info *f);

/* ---- reclaiming host memory engines may still touch (gpu_grace.c) ---- */

/* An engine thread marks the spans in which it may hold a host pointer it
 * translated (a translation is used within the span that made it, or
 * checked against the VM generation again).  Sections do not nest; they
 * may block. */
void kemu_gpu_section_begin(void);
void kemu_gpu_section_end(void);
/* The driver's host mapping [addr, addr + len) of a BO that is no longer
 * mapped on any GPU: unmap(addr, len) runs now if no engine section is
 * open, else once each section open now has closed (checked at later
 * retires and by kemu_gpu_retired_count). */
void kemu_gpu_retire(void *addr, size_t len, void (*unmap)(void *addr, size_t len));
/* Mappings retired and not yet unmapped (after reclaiming what it can). */
unsigned kemu_gpu_retired_count(void);
/* The fork child's step (gpu_engine.c's atfork child): no engine thread
 * exists there, so everything retired goes at once. */
void kemu_gpu_grace_fork_child(void);

/* ---- queues: the descriptor the driver hands an engine ---- */

/* A snapshot of one user queue's properties (the MQD's contents). */
struct kemu_queue_info {
	uint32_t queue_id, gpu_id, type;
	uint64_t ring_base, rptr_va, wptr_va;
	uint32_t ring_size;
	uint32_t doorbell_index;   /* slot in the slice */
	uint64_t doorbell_offset;  /* as returned by CREATE_QUEUE */
	uint64_t eop_va, ctx_save_va;
	uint32_t ctx_save_size, ctl_stack_size;
	uint32_t percentage, priority;
	bool active;
	bool gws;                  /* given the device's GWS (ALLOC_QUEUE_GWS) */
	uint32_t cu_mask_bits;     /* number of valid bits in cu_mask */
	uint32_t cu_mask[32];
};

/* The queue as the driver hands it to an engine (amdkfd's MQD plus the
 * HQD's wiring).  The driver owns it; it lives from the engine's add hook
 * until kemu_gpu_queue_remove returns, at a stable address (the engine's
 * key for it), and changes only while the driver holds its process lock,
 * before an update hook -- but for cwsr, which the engine writes (struct
 * kemu_hw_cwsr). */
/* The CWSR words of a compute queue's MQD, one set per XCC (the MQD
 * manager keeps one MQD per XCC on GC 9.4.3, kfd_mqd_manager_v9.c): the
 * control stack the firmware pushes at a context save (on gfx9 in the
 * MQD's buffer, one page after the MQD, ctl_stack_size bytes: allocate_mqd),
 * cp_hqd_cntl_stack_offset (the stack grows down from ctl_stack_size; its
 * top) and cp_hqd_wg_state_offset (the end of the saved waves in the
 * context-save area, which start at ctl_stack_size); both ctl_stack_size
 * when nothing is saved, as init_mqd sets them.  The driver allocates it
 * with the queue (kemu_gpu_cwsr_init) when the queue has a context-save
 * area.  Unlike the rest of the descriptor the engine writes it (the
 * firmware's writes to the MQD), only while it runs the queue; the driver
 * reads it only while the queue is inactive, after the update hook
 * returned (that hook's stop-and-wait orders the two). */
#define KEMU_GPU_MAX_XCC 8
struct kemu_hw_cwsr {
	uint32_t *ctl_stack;           /* num_xcc x ctl_stack_size bytes */
	uint32_t num_xcc;
	uint32_t cntl_stack_offset[KEMU_GPU_MAX_XCC];
	uint32_t wg_state_offset[KEMU_GPU_MAX_XCC];
};

struct kemu_hw_queue {
	struct kemu_gpu_vm vm;         /* the queue's process and device */
	const struct kemu_gpu *gpu;    /* the device (topology): registry key */
	int log_level;                 /* the machine's KFDEMU_LOG threshold */
	_Atomic uint64_t *doorbell;    /* its slot, mapped until after remove */
	struct kemu_queue_info info;
	uint32_t sdma_slot;            /* SDMA: engine * queues_per_engine + rlc */
	uint32_t num_gws;              /* GWS queue: the VMID's GWS count */
	struct kemu_hw_cwsr cwsr;      /* compute queues with a save area */
};

/* Allocates hq->cwsr for num_xcc XCCs (1..KEMU_GPU_MAX_XCC) of
 * hq->info.ctl_stack_size bytes each (a multiple of 4), its offsets at
 * ctl_stack_size.  0, -EINVAL or -ENOMEM. */
int kemu_gpu_cwsr_init(struct kemu_hw_queue *hq, uint32_t num_xcc);
/* Nothing saved any more: both offsets of every XCC back at ctl_stack_size
 * (the firmware popped the stack at a restore).  No-op without one. */
void kemu_gpu_cwsr_reset(struct kemu_hw_queue *hq);
void kemu_gpu_cwsr_fini(struct kemu_hw_queue *hq);

struct kemu_gpu_registry;

/* One engine type (amdkfd's per-type queue manager).  The driver calls the
 * hooks with its process lock held; each is synchronous: when update
 * (inactivation) returns, the engine no longer runs the old state, as
 * update_queue returns only after the HWS unmapped the queue.  Removal and
 * eviction are the same for every engine and go through its registry
 * (kemu_gpu_queue_remove, kemu_gpu_evict below), as amdkfd's device queue
 * manager does them for every queue type. */
struct kemu_engine_ops {
	const char *name;
	struct kemu_gpu_registry *registry; /* the engine's units */
	/* Starts executing hq.  -EINVAL for a descriptor without its wiring,
	 * -ENOMEM if the engine cannot track it. */
	int (*add)(struct kemu_hw_queue *hq);
	/* hq's descriptor changed: the queue stops at a packet boundary and
	 * is reloaded. */
	void (*update)(struct kemu_hw_queue *hq);
};

/* ---- clocks ---- */

/* Now, in the GET_CLOCK_COUNTERS gpu_clock_counter domain of a device
 * counting at counter_freq_khz (kemu_gpu_ticks of CLOCK_MONOTONIC_RAW). */
uint64_t kemu_gpu_clock(uint32_t counter_freq_khz);
/* CLOCK_MONOTONIC nanoseconds (the engines' quanta and idle pacing). */
uint64_t kemu_gpu_now_ns(void);
/* Initializes c to time its waits on CLOCK_MONOTONIC, the clock of
 * kemu_gpu_now_ns (an idle engine's timed naps).  0 or an errno. */
int kemu_gpu_cond_init(pthread_cond_t *c);

/* ---- the engine threads' idle pacing (gpu_engine.c) ----
 *
 * The shim cannot trap doorbell stores (and a futex wait on the doorbell
 * word would never be woken: user space does not FUTEX_WAKE), so an idle
 * engine polls.  After its last progress an engine thread keeps sweeping
 * its queues without sleeping for KEMU_GPU_SPIN_NS (a packet submitted
 * right after another is picked up within microseconds), watching their
 * doorbell words between two sweeps (kemu_gpu_watch_doorbells).  Then one
 * thread per device polls for the others with an exponential backoff from
 * SLEEP_MIN to SLEEP_MAX (SLEEP_DEEP once the device has been idle for
 * DEEP_IDLE), while the others park: an idle device costs one wakeup a
 * millisecond or two, whatever its number of queues and engines.  cp_sched.c
 * and sdma_engine.c say how each engine shares that role. */
#define KEMU_GPU_SPIN_NS        20000ull
#define KEMU_GPU_SLEEP_MIN_NS   50000ull
#define KEMU_GPU_SLEEP_MAX_NS   1000000ull
#define KEMU_GPU_DEEP_IDLE_NS   100000000ull
#define KEMU_GPU_SLEEP_DEEP_NS  2000000ull
/* A doorbell watch polls at most this many times, one pause apart (a few
 * microseconds), before the caller sweeps its queues again. */
#define KEMU_GPU_DOORBELL_POLLS 64

/* The next nap of an idle engine that napped backoff ns, idle for idle_ns:
 * twice as long, up to SLEEP_MAX (SLEEP_DEEP in deep idle). */
static inline uint64_t kemu_gpu_backoff(uint64_t backoff, uint64_t idle_ns)
{
	uint64_t max = idle_ns > KEMU_GPU_DEEP_IDLE_NS ? KEMU_GPU_SLEEP_DEEP_NS
						       : KEMU_GPU_SLEEP_MAX_NS;
	return backoff * 2 > max ? max : backoff * 2;
}

/* Polls the n doorbell words db until one differs from seen or
 * KEMU_GPU_DOORBELL_POLLS polls pass, one pause apart, without any lock
 * (the caller keeps the doorbells mapped).  Relaxed loads: the service
 * round that follows reads the doorbell again with acquire.  What the
 * HQDs' doorbell logic does in hardware, where a sweep of the queues under
 * a lock costs several polls. */
void kemu_gpu_watch_doorbells(_Atomic uint64_t *const *db, const uint64_t *seen, unsigned n);

/* ---- engine units and their queues (gpu_engine.c) ----
 *
 * An engine runs its queues on units, each with its own threads: the CP
 * one per device (its HQD slots), the SDMA one per engine of a device.
 * What a unit and its queues share in every engine lives here: a registry
 * of the units (found by device and unit id), each unit's queue list, and
 * the protocol by which the driver's hooks stop a queue, wait until no
 * thread services it and forget it.  An engine embeds struct kemu_gpu_unit
 * and struct kemu_gpu_hwq as the first members of its own objects, which
 * it allocates with malloc (a fork child frees the parent's queues with
 * free).
 *
 * Locking, outermost first: reg->hooks (held by an engine hook for its
 * whole run, while it may wait for a unit's threads) -> reg->list (the unit
 * list, held briefly) -> unit->lock (the queue list, ownership).  Eviction
 * takes list -> unit->lock only, never hooks, so the driver may evict from
 * any engine thread while a hook waits for that thread.  Unit threads hold
 * no registry lock.
 */

/* A queue on a unit. */
struct kemu_gpu_hwq {
	const struct kemu_hw_queue *hq; /* the driver's descriptor: identity */
	struct kemu_gpu_vm vm;         /* where the queue's work runs */
	_Atomic uint64_t *doorbell;    /* the driver keeps it mapped until remove */
	uint32_t queue_id, gpu_id;
	/* under unit->lock */
	bool owned;                    /* a unit thread is servicing it */
	bool removing;                 /* remove in progress: never pick */
	struct kemu_gpu_hwq *next;
	/* set by the hooks: stop at the next packet boundary (release; the
	 * service loops read it with acquire) */
	_Atomic bool preempt;
	/* stopped by an error or a fault, or evicted: ignores its doorbell.
	 * Set by the owner or by eviction; read by the unit's pick */
	_Atomic bool stopped;
	_Atomic bool evicted;          /* eviction: final */
};

/* A unit of an engine (its threads run its queues). */
struct kemu_gpu_unit {
	const struct kemu_gpu *gpu;    /* the device: registry key, with id */
	uint32_t id;
	int log_level;                 /* the machine's, from the first queue */
	pthread_mutex_t lock;
	pthread_cond_t released;       /* a thread released a queue or a watch */
	struct kemu_gpu_hwq *queues;   /* under lock */
	uint32_t n_queues;             /* under lock */
	/* threads reading doorbell words without the lock
	 * (kemu_gpu_unit_watch); under lock: a queue being removed waits for
	 * 0, so the driver cannot unmap a doorbell being read */
	uint32_t watching;
	struct kemu_gpu_unit *next;    /* under the registry's list lock */
};

/* An engine's units. */
struct kemu_gpu_registry {
	const char *name;
	pthread_mutex_t hooks;
	pthread_mutex_t list;
	struct kemu_gpu_unit *units;   /* under list (and hooks to change) */
	/* In a fork child (the parent's unit threads do not exist there),
	 * after freeing u's queues: frees unit u without touching its locks.
	 * Then fork_child, if set, drops the rest of the engine's state; both
	 * run with the registry's locks held. */
	void (*fork_forget)(struct kemu_gpu_unit *u);
	void (*fork_child)(void);
	/* Optional: the engine's own marks on a queue stopped for good
	 * (removed or evicted: the CP abandons its running dispatch);
	 * unit->lock held. */
	void (*queue_abandon)(struct kemu_gpu_hwq *q);
	/* Frees q, off its unit's list and serviced by no thread; the hooks
	 * lock held, not the unit's. */
	void (*queue_free)(struct kemu_gpu_unit *u, struct kemu_gpu_hwq *q);
	/* Stops u's threads and frees u, which has no queue left and is no
	 * longer listed (its threads may still run: they must be joined);
	 * the hooks lock held. */
	void (*unit_destroy)(struct kemu_gpu_unit *u);
	bool forked;                   /* registered for fork; under a global lock */
	struct kemu_gpu_registry *next_registry;
};
#define KEMU_GPU_REGISTRY_INIT(nm)                                                      \
	.name = (nm), .hooks = PTHREAD_MUTEX_INITIALIZER, .list = PTHREAD_MUTEX_INITIALIZER

/* Takes reg->hooks, the lock a hook holds for its whole run (and makes
 * sure reg is handled across fork). */
void kemu_gpu_hooks_lock(struct kemu_gpu_registry *reg);
void kemu_gpu_hooks_unlock(struct kemu_gpu_registry *reg);

/* The unit (gpu, id) or NULL.  Caller holds reg->hooks. */
struct kemu_gpu_unit *kemu_gpu_unit_find(struct kemu_gpu_registry *reg,
					 const struct kemu_gpu *gpu, uint32_t id);
/* Initializes u for unit id of hq's device (its lock and condvar) and
 * lists it in reg.  Caller holds reg->hooks; u is zeroed, its thread not
 * started yet or not needing u listed. */
void kemu_gpu_unit_add(struct kemu_gpu_registry *reg, struct kemu_gpu_unit *u,
		       const struct kemu_hw_queue *hq, uint32_t id);
/* Unlists u (eviction no longer finds it).  Caller holds reg->hooks. */
void kemu_gpu_unit_del(struct kemu_gpu_registry *reg, struct kemu_gpu_unit *u);
/* Destroys u's lock and condvar (no thread uses u any more). */
void kemu_gpu_unit_fini(struct kemu_gpu_unit *u);

/* A new engine queue object of size bytes (zeroed; its first member a
 * struct kemu_gpu_hwq, filled from hq), or NULL with *err -EINVAL when hq
 * lacks its wiring (ops, generation, device, doorbell) or -ENOMEM. */
void *kemu_gpu_hwq_new(size_t size, const struct kemu_hw_queue *hq, int *err);
/* The queue of hq on any unit of reg, and its unit, or NULL.  Caller holds
 * reg->hooks. */
struct kemu_gpu_hwq *kemu_gpu_hwq_find(struct kemu_gpu_registry *reg,
				       const struct kemu_hw_queue *hq, struct kemu_gpu_unit **unit);
/* Puts q on u's list.  Caller holds u->lock. */
void kemu_gpu_hwq_link(struct kemu_gpu_unit *u, struct kemu_gpu_hwq *q);
/* Stops q at a packet boundary: returns once no thread services it, with
 * preempt still set (kemu_gpu_hwq_resume clears it).  Caller holds
 * u->lock, which it drops while waiting. */
void kemu_gpu_hwq_preempt(struct kemu_gpu_unit *u, struct kemu_gpu_hwq *q);
static inline void kemu_gpu_hwq_resume(struct kemu_gpu_hwq *q)
{
	/* release: pairs with the service loop's acquire load */
	atomic_store_explicit(&q->preempt, false, memory_order_release);
}
/* destroy_queue for every engine: stops hq's queue at a packet boundary
 * for good, waits until no thread services it nor reads its doorbell,
 * takes it off its unit (reg->queue_free) and destroys the unit when it
 * was the last (reg->unit_destroy).  Safe for a queue the engine never
 * took.  Takes reg->hooks. */
void kemu_gpu_queue_remove(struct kemu_gpu_registry *reg, const struct kemu_hw_queue *hq);
/* A unit thread takes or gives back q.  Caller holds u->lock; giving back
 * wakes a hook waiting for it. */
static inline void kemu_gpu_hwq_own(struct kemu_gpu_hwq *q)
{
	q->owned = true;
}
void kemu_gpu_hwq_release(struct kemu_gpu_unit *u, struct kemu_gpu_hwq *q);

/* Eviction (kfd_dqm_evict_pasid after a fault): every queue of p on the
 * engine's units of gpu is stopped for good.  Takes reg->list and each
 * unit's lock, never reg->hooks, so the driver may call it from any
 * engine thread while a hook waits for that thread. */
void kemu_gpu_evict(struct kemu_gpu_registry *reg, struct kemu_process *p,
		    const struct kemu_gpu *gpu);
/* Whether hq's queue was evicted (is_evicted, and so no longer active, in
 * amdkfd's books: evict_process_queues_cpsch); if so, returns once no
 * thread services it any more, so what the eviction saved (the context
 * save it asked for: cp_ctx.c) is complete.  Takes reg->hooks like a
 * hook; the driver calls it with its process lock held. */
bool kemu_gpu_queue_evicted(struct kemu_gpu_registry *reg, const struct kemu_hw_queue *hq);

/* The doorbells watched at once by kemu_gpu_unit_watch. */
#define KEMU_GPU_WATCH_MAX 32
/* An idle unit thread's spin between two sweeps: watches the doorbell word
 * of each of u's queues for which watchable says so (and gives the value
 * it last took) until one differs or KEMU_GPU_DOORBELL_POLLS polls pass
 * (kemu_gpu_watch_doorbells).  Caller holds u->lock; it is dropped
 * meanwhile, with u->watching raised so that a queue's removal waits. */
void kemu_gpu_unit_watch(struct kemu_gpu_unit *u,
			 bool (*watchable)(const struct kemu_gpu_hwq *q, uint64_t *seen));

#endif /* KEMU_GPU_H */
