/*
 * The runtime's public header (its internals: runtime_priv.h): the
 * process-wide runtime object built
 * by hsa_init, the agents, ISAs, caches and memory pools it exposes, and the
 * helpers other modules (queue, signal, loader) use to reach them.
 *
 * Object model
 *  - One struct hl_runtime per initialised process, published in hl_rt by the
 *    first hsa_init and withdrawn by the last hsa_shut_down (runtime.c).
 *  - Agents, pools and caches live in three flat arrays owned by the runtime;
 *    a public handle is the address of an element.  Handles are validated by
 *    range and stride against the current arrays (hl_agent_lookup & co.),
 *    never by dereferencing what the caller passed.
 *  - An ISA handle is an encoding (processor index, sramecc, xnack), so ISAs
 *    need no storage and stay valid across re-initialisation (isa.c).
 *  - Region and memory-pool handles are the same objects, as in ROCr.
 *
 * Errors: internal functions return 0 or -errno; error.c is the one place that
 * turns a cause into an hsa_status_t.
 *
 * Locking: hl_runtime_lock (runtime.c) serialises the first init and the last
 * shutdown; everything built at init is read-only afterwards.  The list of
 * allocations is protected by hl_runtime.mem_lock.  Calling the API while
 * another thread runs the last hsa_shut_down is a use-after-free the HSA
 * specification leaves undefined; calls after it return NOT_INITIALIZED.
 */
#ifndef HSALITE_RUNTIME_H
#define HSALITE_RUNTIME_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "hsa/hsa.h"
#include "hsa/hsa_ext_amd.h"
#include "kfd/kfd.h"

/*
 * Attribute numbers that newer ROCr headers define beyond the 5.2.3 set our
 * public headers follow.  Clients built against newer headers (HIP, newer
 * rocminfo) ask for them, so we answer them by number.
 */
#define HL_AMD_AGENT_INFO_MEMORY_AVAIL          0xA015
#define HL_AMD_AGENT_INFO_TIMESTAMP_FREQUENCY   0xA016
#define HL_AMD_AGENT_INFO_ASIC_FAMILY_ID        0xA107
#define HL_AMD_AGENT_INFO_UCODE_VERSION         0xA108
#define HL_AMD_AGENT_INFO_SDMA_UCODE_VERSION    0xA109
#define HL_AMD_AGENT_INFO_NUM_SDMA_ENG          0xA10A
#define HL_AMD_AGENT_INFO_NUM_SDMA_XGMI_ENG     0xA10B
#define HL_AMD_AGENT_INFO_IOMMU_SUPPORT         0xA110
#define HL_AMD_AGENT_INFO_NUM_XCC               0xA111
#define HL_AMD_AGENT_INFO_DRIVER_UID            0xA112
#define HL_AMD_AGENT_INFO_NEAREST_CPU           0xA113
#define HL_AMD_AGENT_INFO_MEMORY_PROPERTIES     0xA114
#define HL_AMD_AGENT_INFO_AQL_EXTENSIONS        0xA115
#define HL_IOMMU_SUPPORT_NONE 0
#define HL_IOMMU_SUPPORT_V2   1

#define HL_AMD_SYSTEM_INFO_MWAITX_ENABLED           0x203
#define HL_AMD_SYSTEM_INFO_DMABUF_SUPPORTED         0x204
#define HL_AMD_SYSTEM_INFO_VIRTUAL_MEM_API_SUPPORTED 0x205
#define HL_AMD_SYSTEM_INFO_XNACK_ENABLED            0x206
#define HL_AMD_SYSTEM_INFO_EXT_VERSION_MAJOR        0x207
#define HL_AMD_SYSTEM_INFO_EXT_VERSION_MINOR        0x208

#define HL_AMD_MEMORY_POOL_INFO_LOCATION 17
#define HL_AMD_MEMORY_POOL_LOCATION_CPU  0
#define HL_AMD_MEMORY_POOL_LOCATION_GPU  1

/* ROCr's fixed queue limits (amd_gpu_agent.cpp: minAqlSize_, maxAqlSize_,
 * HSA_MAX_QUEUES default), reported by rocminfo as Queue Min/Max Size. */
#define HL_QUEUE_MIN_PACKETS 0x40u
#define HL_QUEUE_MAX_PACKETS 0x20000u
#define HL_QUEUES_MAX        128u

#define HL_PAGE_SIZE 4096u
#define HL_AGENT_SDMA_DIRS 16  /* host to device, device to host, one per xGMI engine */
#define HL_EXTENSIONS_MAX 2  /* AMD_LOADER, IMAGES (extension.c) */

/* ---- ISAs (isa.c) ---- */

/* "gfx90a" for an ISA handle; NULL when the handle is not an ISA. */
const char *hl_isa_processor(hsa_isa_t isa);
bool hl_isa_supports_xnack(hsa_isa_t isa);
bool hl_isa_supports_sramecc(hsa_isa_t isa);

/* ---- agents, pools, caches ---- */

enum hl_pool_kind {
	HL_POOL_SYSTEM_FINE,    /* system memory, fine-grained */
	HL_POOL_SYSTEM_KERNARG, /* system memory, fine-grained, kernarg */
	HL_POOL_SYSTEM_COARSE,  /* system memory, coarse-grained */
	HL_POOL_VRAM,           /* device memory, coarse-grained */
	HL_POOL_VRAM_FINE,      /* device memory, fine-grained (XGMI hive) */
	HL_POOL_LDS,            /* group segment: not allocatable */
};

struct hl_agent;

struct hl_pool {
	struct hl_agent *owner;
	enum hl_pool_kind kind;
	uint64_t size;          /* bytes */
	uint64_t alloc_max;     /* largest single allocation, page-aligned; for
	                         * system memory the sum over CPU nodes */
	uint64_t base;          /* HSA_AMD_REGION_INFO_BASE */
	uint32_t bus_width;     /* bits, from the memory bank */
	uint32_t mem_clk_max;   /* MHz, from the memory bank */
	bool host_access;       /* the CPU can read/write allocations */
};

static inline bool hl_pool_is_system(const struct hl_pool *p)
{
	return p->kind <= HL_POOL_SYSTEM_COARSE;
}

static inline bool hl_pool_is_allocatable(const struct hl_pool *p)
{
	return p->kind != HL_POOL_LDS;
}

struct hl_cache {
	char name[80];          /* "<agent name> L<level>" */
	uint8_t level;
	uint32_t size_kib;
};

struct hl_agent {
	hsa_device_type_t type;
	const struct kfd_node *node;   /* in the kfd_process topology */
	struct kfd_gpu *gpu;           /* NULL for a CPU agent */
	uint32_t node_id;              /* KFD topology node index */
	char name[64];                 /* HSA_AGENT_INFO_NAME */
	char product_name[64];         /* HSA_AMD_AGENT_INFO_PRODUCT_NAME */
	char uuid[24];                 /* "GPU-<16 hex>", "GPU-XX" or "CPU-XX" */
	hsa_profile_t profile;
	hsa_isa_t isa;                 /* handle 0 for a CPU agent */
	uint32_t gfx_major, gfx_minor, gfx_stepping;
	uint32_t family_id;            /* libdrm's family id, 0 when unknown */
	uint64_t timestamp_freq;       /* GPU wallclock Hz (system's for CPUs) */
	struct hl_pool *pools;         /* this agent's own pools */
	uint32_t n_pools;
	struct hl_cache *caches;
	uint32_t n_caches;
	uint32_t cache_size[4];        /* HSA_AGENT_INFO_CACHE_SIZE, bytes */
	uint32_t cacheline_size;
	uint32_t mem_width, mem_clk_max;
	struct hl_agent *nearest_cpu;
	_Atomic int coherency;         /* hsa_amd_coherency_type_t (GPUs) */
	_Atomic bool gws_refused;      /* ALLOC_QUEUE_GWS failed: no cooperative
	                                * queues (src/queue/queue.c) */
	/* hsa_amd_agent_set_async_scratch_limit's threshold plus one; 0 (from
	 * calloc) until it is set, the default reading then
	 * (src/runtime/scratch_limit.c).  Per agent, so per runtime. */
	_Atomic uint64_t scratch_limit;
	/* GPU ticks to system time (src/queue/profiling.c): two clock pairs,
	 * the first and the latest, under clock_busy (a spinlock; zero from
	 * calloc is unlocked and no pair) */
	_Atomic bool clock_busy;
	bool clock_valid;
	uint64_t clock_gpu0, clock_sys0, clock_gpu1, clock_sys1;
	/* The agent's engines, one record each, built by their modules when
	 * they attach (GPU agents only; NULL otherwise) and freed by their
	 * teardown or, in a fork child, their forget step.  Opaque here. */
	struct hl_iq *iq;              /* internal queue (src/queue/internal.c) */
	struct hl_trap *trap;          /* trap handler (src/queue/trap.c) */
	struct hl_blit *blit;          /* blit engine (src/copy/blit.c) */
	struct hl_sdma *sdma[HL_AGENT_SDMA_DIRS]; /* SDMA queues by direction
	                                * (src/copy/sdma.c) */
};

struct hl_alloc;
struct hl_svm_prefetch;
struct hl_copy_state;
struct hl_tools;
struct hl_loader_registry;
struct hl_queues;
struct hl_signals;
struct hl_userptr;
struct hl_ipc_import;
struct hl_vmem;
struct hl_suballoc;
struct hl_small;

/* Environment, read once at init (env.c). */
struct hl_env {
	const char *visible_devices;  /* ROCR_VISIBLE_DEVICES or NULL */
	bool gfx_override;            /* HSA_OVERRIDE_GFX_VERSION */
	uint32_t gfx_major, gfx_minor, gfx_stepping;
	int xnack;                    /* HSA_XNACK: -1 unset, 0 or 1 */
	uint32_t max_queues;          /* HSA_MAX_QUEUES, 1..HL_QUEUES_MAX */
	uint32_t max_hw_queues;       /* GPU_MAX_HW_QUEUES, default 4 (counted queues) */
	bool vm_fault_message;        /* HSA_ENABLE_VM_FAULT_MESSAGE is not "0" */
	bool no_trap_handler;         /* HSALITE_NO_TRAP_HANDLER=1 (a test switch) */
	bool no_fragment_alloc;       /* HSA_DISABLE_FRAGMENT_ALLOCATOR=1 (ROCr's) */
};

/* One hsa_amd_register_system_event_handler registration. */
struct hl_sysevt_handler {
	hsa_amd_system_event_callback_t fn;
	void *data;
};

struct hl_runtime {
	struct kfd_process *proc;
	struct hl_env env;
	struct hl_agent *agents;       /* CPUs first, then visible GPUs */
	uint32_t n_agents, n_cpus, n_gpus;
	struct hl_pool *pools;
	uint32_t n_pools;
	struct hl_cache *caches;
	uint32_t n_caches;
	uint32_t *gpu_ids;             /* KFD gpu_ids of the GPU agents */
	bool xnack_enabled;            /* every GPU runs with XNACK on */
	/* Set by the last hsa_shut_down before the modules' teardown steps (rt
	 * is withdrawn: no API call reaches it, so no other thread makes a
	 * queue or an event on it any more); written by the tearing-down
	 * thread only, read by it (the queue error service's stop). */
	bool withdrawn;
	pthread_mutex_t mem_lock;      /* protects allocs, ipc_imports */
	struct hl_alloc *allocs;
	struct hl_ipc_import *ipc_imports; /* IPC attachments (ipc.c) */
	/* The virtual memory API's ranges, handles and mappings (src/memory/
	 * vmem.c, under its own lock); made by the memory module's attach. */
	struct hl_vmem *vmem;
	/* The VRAM pools' 2 MiB blocks and their fragments (src/memory/
	 * suballoc.c, under per-agent locks of its own). */
	struct hl_suballoc *suballoc;
	/* Shared pages of small GPU-visible runtime objects (queue
	 * descriptors, signals; src/memory/small.c, under its own lock). */
	struct hl_small *small;
	/* Registered and locked host memory (userptr.c).  userptr_lock is held
	 * across the ioctls that create and free their BOs; it is never taken
	 * with mem_lock held, nor mem_lock with it. */
	pthread_mutex_t userptr_lock;
	struct hl_userptr *userptr;
	/* hsa_amd_svm_prefetch_async's prefetches not yet run (src/memory/
	 * svm.c), newest first, under svm_lock, a leaf lock; the lock is made
	 * by the memory module's attach and goes with its teardown. */
	pthread_mutex_t svm_lock;
	struct hl_svm_prefetch *svm_pending;
	/* System event handlers (system_event.c), under sysevt_lock, a leaf
	 * lock never held while a handler runs. */
	pthread_mutex_t sysevt_lock;
	struct hl_sysevt_handler *sysevt;
	uint32_t n_sysevt, cap_sysevt;
	bool vm_fault_seen;            /* the first GPU memory fault was handled */
	bool hw_exception_seen;        /* the first GPU reset was delivered */
	/* Registered extensions (extension.c), one slot per supported
	 * extension; written while the modules attach (hsa_init, before rt is
	 * published), read-only afterwards. */
	const struct hl_extension *extensions[HL_EXTENSIONS_MAX];
	/* The modules' own per-runtime state, each made by the module's
	 * attach and freed by its teardown (or forget, in a fork child), so
	 * a new runtime starts afresh and nothing of the parent's outlives
	 * its runtime; opaque here (the runtime is below them). */
	struct hl_signals *signals;    /* slabs, events, groups, the async
	                                * service (src/signal/signal_priv.h) */
	struct hl_queues *queues;      /* the queue registry (src/queue/queue.c) */
	struct hl_loader_registry *loader; /* readers, executables
	                                * (src/loader/registry.c) */
	struct hl_copy_state *copy;    /* src/copy/blit.c */
	struct hl_tools *tools;        /* loaded tools, intercept queues
	                                * (src/tools/tools_priv.h) */
};

/* ---- the module table (src/modules.c) ---- */

/* One hsalite module's steps in the runtime's life.  src/modules.c lists
 * them in dependency order (kfd < runtime < memory < signal < queue <
 * loader < copy < image < tools; the thunk for its fork step only) and hands
 * the table to hl_runtime_init from hsa_init; runtime.c runs it
 * without naming (or linking to) any module, and no module registers a
 * teardown or a fork handler of its own.  Every step may be NULL. */
struct hl_module {
	const char *name;
	/* hsa_init, in table order, once the agents exist and before rt is
	 * published: the module binds itself to rt (registers its extension,
	 * hangs its per-agent engines off rt->agents).  -errno fails hsa_init
	 * (the steps of the modules attached so far are undone by teardown). */
	int (*attach)(struct hl_runtime *rt);
	/* The last hsa_shut_down, in reverse table order, with
	 * hl_runtime_lock held and rt already withdrawn: the module frees
	 * what it built on rt, whether or not it was used (a module that
	 * built nothing does nothing).  Must not call hsa_init/hsa_shut_down
	 * nor hl_runtime_get (NULL by now). */
	void (*teardown)(struct hl_runtime *rt);
	/* In the child of a fork, at the fork itself (runtime.c's one
	 * pthread_atfork child handler, the child's only thread), in reverse
	 * table order: re-initialise the module's process-wide locks a
	 * parent thread may have held and drop what must not be reachable
	 * even before the child's next runtime call (no ioctl, no lock). */
	void (*fork_child)(void);
	/* In a fork child, at its first runtime call (runtime_destroy_forked),
	 * in reverse table order, with the parent's runtime rt, now
	 * unreachable: drop the records the module hangs off rt without an
	 * ioctl (the KFD objects are the parent's). */
	void (*forget)(struct hl_runtime *rt);
	/* hsa_init, in table order, once rt is published (hsa_* calls work)
	 * and hl_runtime_lock is still held: what must see a working runtime
	 * (the tools' OnLoad).  Cannot fail hsa_init. */
	void (*opened)(struct hl_runtime *rt);
	/* The last hsa_shut_down, in reverse table order, before rt is
	 * withdrawn and before any teardown, hl_runtime_lock held: hsa_*
	 * calls still work (the tools' OnUnload). */
	void (*closing)(struct hl_runtime *rt);
};

/* hsa_init (defined in src/modules.c, which hands over its table): the
 * first call builds the runtime and attaches the n modules; later ones
 * count.  The table is kept for the teardown and fork steps. */
hsa_status_t hl_runtime_init(const struct hl_module *modules, uint32_t n);

/* ---- runtime.c ---- */

/* The runtime if hsa_init succeeded and the last hsa_shut_down has not run;
 * NULL otherwise, and NULL in a fork child of the process that initialised
 * it (the inherited state belongs to the parent's /dev/kfd and is
 * abandoned).  Pairs with the release that publishes it in hsa_init. */
struct hl_runtime *hl_runtime_get(void);

static inline struct hl_agent *hl_agent_lookup(const struct hl_runtime *rt, hsa_agent_t a)
{
	uintptr_t base = (uintptr_t)rt->agents, h = (uintptr_t)a.handle;
	if (h < base || (h - base) % sizeof(struct hl_agent) != 0 ||
	    (h - base) / sizeof(struct hl_agent) >= rt->n_agents)
		return NULL;
	return &rt->agents[(h - base) / sizeof(struct hl_agent)];
}

/* A GPU agent with its KFD node: the only kind that runs queues, blits and
 * the GPU-only extensions (SPM, PC sampling, scratch limits, profiling). */
static inline bool hl_agent_is_gpu(const struct hl_agent *a)
{
	return a && a->type == HSA_DEVICE_TYPE_GPU && a->gpu;
}

/* hl_agent_lookup narrowed to GPU agents: NULL for a CPU agent too. */
static inline struct hl_agent *hl_gpu_agent_lookup(const struct hl_runtime *rt, hsa_agent_t a)
{
	struct hl_agent *ag = hl_agent_lookup(rt, a);
	return hl_agent_is_gpu(ag) ? ag : NULL;
}

/* The distinct GPU ids of the n listed agents, in list order, into ids
 * (room for n); *cpus (may be NULL) tells whether a CPU agent was listed.
 * Returns the count, or -1 when a handle is not an agent of rt. */
int hl_agent_gpu_ids(const struct hl_runtime *rt, const hsa_agent_t *agents, uint32_t n,
		     uint32_t *ids, bool *cpus);

static inline struct hl_pool *hl_pool_lookup(const struct hl_runtime *rt, uint64_t handle)
{
	uintptr_t base = (uintptr_t)rt->pools, h = (uintptr_t)handle;
	if (h < base || (h - base) % sizeof(struct hl_pool) != 0 ||
	    (h - base) / sizeof(struct hl_pool) >= rt->n_pools)
		return NULL;
	return &rt->pools[(h - base) / sizeof(struct hl_pool)];
}

static inline hsa_agent_t hl_agent_handle(const struct hl_agent *a)
{
	hsa_agent_t h = { (uint64_t)(uintptr_t)a };
	return h;
}



/* ---- info.c: table-driven get_info (agent_info.c, isa.c, cache.c,
 * src/memory/pool.c) ---- */

/* One attribute of a get_info call.  get writes the answer into out (a
 * zeroed scratch of HL_INFO_MAX bytes) from obj and returns a status; on
 * success the first size bytes of out reach the caller's value.  size 0:
 * an answer of its own length (a name), which get writes to value itself. */
#define HL_INFO_MAX 64
struct hl_info_attr {
	uint32_t attribute;
	uint32_t size;
	hsa_status_t (*get)(const void *obj, void *out);
};
#define HL_INFO_COUNT(t) (sizeof(t) / sizeof((t)[0]))
/* A getter whose answer is one expression of q (the object, an otype *)
 * of the given type: the tables' many one-line answers.  The answer is
 * copied whole, so its size in the table is sizeof(type). */
#define HL_INFO_GETTER(fn, otype, type, expr)                     \
	static hsa_status_t fn(const void *o_, void *out)         \
	{                                                         \
		const otype *q = o_;                              \
		(void)q;                                          \
		const type v_ = (expr);                           \
		memcpy(out, &v_, sizeof(v_));                     \
		return HSA_STATUS_SUCCESS;                        \
	}

/* Answers attribute from table t (n rows) for obj.  *found is false, and
 * the status INVALID_ARGUMENT, when no row names the attribute. */
hsa_status_t hl_info_answer(const struct hl_info_attr *t, size_t n, uint32_t attribute,
			    const void *obj, void *value, bool *found);

/* ---- error.c: the one place causes become statuses ---- */
hsa_status_t hl_status_from_errno(int err);

/* ---- system_event.c ---- */
/* A GPU memory fault as KFD's MEMORY event reported it, delivered the way
 * ROCr 5.2.3's VMFaultHandler does: to every registered handler, and when
 * none is registered or none returns SUCCESS, ROCr's "Memory access fault
 * by GPU node-N ..." on stderr and abort().  Only the first fault of a
 * runtime is delivered (ROCr stops watching the event after it); returns
 * true when this one was.  Call it with no runtime lock held: handlers may
 * call the API. */
bool hl_system_event_memory_fault(struct hl_runtime *rt,
				  const struct kfd_hsa_memory_exception_data *m);
/* The fault_reason_mask ROCr derives from KFD's fault data (through
 * libhsakmt's HsaMemoryAccessFault); the queue module keeps it per queue
 * for HSA_AMD_QUEUE_INFO_VM_FAULT_REASON. */
uint32_t hl_memory_fault_reason_mask(const struct kfd_hsa_memory_exception_data *m);
/* A GPU reset as KFD's HW_EXCEPTION event reported it, as ROCr 1.18's
 * HwExceptionHandler: HSA_AMD_GPU_HW_EXCEPTION_EVENT to every handler;
 * when none returns SUCCESS, "HW Exception by GPU node-N ..." on stderr and
 * abort().  Only the first is delivered (ROCr's handler returns false).
 * No runtime lock held. */
void hl_system_event_hw_exception(struct hl_runtime *rt,
				  const struct kfd_hsa_hw_exception_data *h);
/* The last hsa_shut_down, before any module lets go: every handler gets
 * HSA_AMD_SYSTEM_SHUTDOWN_EVENT (no payload), its answer ignored, as ROCr's
 * Runtime::Release does. */
void hl_system_event_shutdown(struct hl_runtime *rt);

/* ---- system.c ---- */
/* Nanoseconds of CLOCK_BOOTTIME, the domain of KFD's system clock counter. */
uint64_t hl_system_timestamp(void);
#define HL_SYSTEM_TIMESTAMP_FREQUENCY 1000000000ull

/* ---- extension.c ---- */

/* An extension as its owner describes it (a static const in the owning
 * module), registered when the module attaches to a runtime.  The list of
 * supported extensions and their versions stays in extension.c. */
struct hl_extension {
	uint16_t id;                   /* HSA_EXTENSION_* */
	const void *table;             /* the function table of the newest
	                                * minor version extension.c serves */
	size_t size;                   /* its bytes */
	/* Agent level (NULL: the extension is system-wide only): whether an
	 * agent has it (its bit in HSA_AGENT_INFO_EXTENSIONS), and the
	 * hsa_agent_get_info attributes in [agent_attr_first, agent_attr_last]
	 * the owner answers. */
	bool (*agent_supported)(const struct hl_agent *agent);
	uint32_t agent_attr_first, agent_attr_last;
	hsa_status_t (*agent_info)(const struct hl_agent *agent, uint32_t attribute, void *value);
};

/* Makes ext's table and agent answers rt's.  -EINVAL for an extension not
 * on extension.c's list or an empty table. */
int hl_extension_register(struct hl_runtime *rt, const struct hl_extension *ext);

/* ---- scratch_limit.c ---- */

/* HSA_AMD_AGENT_INFO_SCRATCH_LIMIT_MAX/_CURRENT and CLOCK_COUNTERS of a GPU
 * agent; INVALID_ARGUMENT for any other attribute. */
hsa_status_t hl_agent_info_scratch_clock(struct hl_runtime *rt, const struct hl_agent *a,
					 int attribute, void *value);

/* ---- amd_log.c: hsa_amd_enable_logging's topics ---- */

/* Whether the client switched the topic on. */
bool hl_amd_log_on(hsa_amd_log_flag_t flag);
/* Logs the n_barriers barrier packets and the dispatch packet published at
 * index of q's ring (HSA_AMD_LOG_FLAG_BLIT_KERNEL_PKTS), with the headers
 * the submitter wrote (the CP may have consumed them already).  Caller
 * holds the ring's producer lock. */
void hl_amd_log_blit_packets(const hsa_queue_t *q, const void *ring, uint64_t index,
			     uint32_t n_barriers, uint32_t barrier_hdr, uint32_t dispatch_hdr);

#endif /* HSALITE_RUNTIME_H */
