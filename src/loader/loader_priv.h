/*
 * The loader's private header (its files, its unit tests and the fuzzer;
 * other modules use loader/loader.h): AMDGPU code objects (code object v4 and v5,
 * LLVM AMDGPUUsage) and the HSA executables built from them.
 *
 * Two layers
 *  - The code-object layer (code_object.c, metadata.c, place.c) knows no
 *    device and no runtime: hl_co_parse validates every ELF field and the
 *    NT_AMDGPU_METADATA note of an image and describes it (target, PT_LOAD
 *    segments, dynamic symbols, dynamic relocations, kernels);
 *    hl_co_place copies the segments into any host-visible buffer and
 *    applies the relocations for a given load address.  Unit tests and the
 *    fuzzer drive this layer directly.
 *  - The HSA layer (reader.c, executable.c, symbol.c, amd_loader.c,
 *    legacy.c) owns readers, executables, loaded code objects and symbols,
 *    places segments in GPU memory of the agent and answers the API.
 *
 * Errors: the code-object layer returns -ENOEXEC for anything malformed and
 * -EXDEV for a code object built for another ISA, always after logging the
 * reason (hl_error("loader", ...)); -ENOMEM when the host runs out.
 * runtime/error.c maps them (INVALID_CODE_OBJECT, INCOMPATIBLE_ARGUMENTS as
 * ROCr's ExecutableImpl::LoadCodeObject returns for an ISA the agent does
 * not support, OUT_OF_RESOURCES).
 *
 * Handles are addresses of loader objects, validated by lookup in the
 * registry (never dereferenced before they are found there), the
 * runtime's (rt->loader).  Its recursive mutex (hl_loader_lock) guards the
 * registry and every object in it; it is
 * recursive because iteration callbacks may call back into the loader, as
 * HIP's do.
 */
#ifndef HSALITE_LOADER_PRIV_H
#define HSALITE_LOADER_PRIV_H

#include <link.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hsa/hsa.h"
#include "hsa/hsa_ven_amd_loader.h"
#include "loader/loader.h"

/* ---- the code-object layer ---- */

/* Relocation types of AMDGPUUsage "Relocation Records". */
enum {
	HL_R_AMDGPU_NONE = 0,
	HL_R_AMDGPU_ABS32_LO = 1,
	HL_R_AMDGPU_ABS32_HI = 2,
	HL_R_AMDGPU_ABS64 = 3,
	HL_R_AMDGPU_REL32 = 4,
	HL_R_AMDGPU_REL64 = 5,
	HL_R_AMDGPU_ABS32 = 6,
	HL_R_AMDGPU_RELATIVE64 = 13,
};

/* NT_AMDGPU_METADATA (AMDGPUUsage "Code Object V3 and Above Note Records"). */
#define HL_NT_AMDGPU_METADATA 32

/* A target feature as code object v4+ e_flags encode it (two-bit fields). */
enum hl_co_feature {
	HL_CO_FEATURE_UNSUPPORTED = 0,
	HL_CO_FEATURE_ANY = 1,
	HL_CO_FEATURE_OFF = 2,
	HL_CO_FEATURE_ON = 3,
};

#define HL_KD_SIZE 64

struct hl_co_segment {
	uint64_t vaddr, memsz, filesz, offset, align;
	uint32_t flags; /* PF_R | PF_W | PF_X */
};

struct hl_co_symbol {
	const char *name;  /* into the image, NUL-terminated (checked) */
	uint64_t value, size;
	uint8_t type, bind;
	uint16_t shndx;
	uint32_t seg;      /* index of the PT_LOAD holding it (defined ones) */
	uint64_t align;    /* sh_addralign of its section, at least 1 */
	uint64_t sh_flags; /* its section's sh_flags (defined ones): ROCr's
			    * variable attributes derive from them */
	int32_t kernel;    /* index in kernels[] when a kernel descriptor, or -1 */
};

struct hl_co_reloc {
	uint64_t offset;   /* r_offset: a vaddr inside a PT_LOAD */
	int64_t addend;
	uint32_t type;
	uint32_t sym;      /* index in syms[], 0 for none */
};

struct hl_co_kernel {
	const char *name, *symbol;   /* into the metadata zone copy (owned) */
	uint32_t kernarg_size, kernarg_align;
	uint32_t group_size, private_size;
	uint32_t wavefront_size, sgpr_count, vgpr_count, max_flat_workgroup_size;
	bool uses_dynamic_stack;
	uint32_t sym;                /* index of <name>.kd in syms[] */
	uint8_t kd[HL_KD_SIZE];      /* the descriptor bytes from the image */
};

struct hl_code_object {
	const uint8_t *image;        /* borrowed: must outlive the object */
	size_t size;
	unsigned version;            /* code object version: 4 or 5 */
	char processor[16];          /* "gfx90a" */
	enum hl_co_feature xnack, sramecc;
	char target_id[64];          /* "amdgcn-amd-amdhsa--gfx90a:xnack-" */
	uint32_t md_version[2];      /* amdhsa.version */
	struct hl_co_segment *segs;
	uint32_t n_segs;
	uint64_t vaddr_lo, vaddr_hi; /* PT_LOAD span, lo aligned to max_align */
	uint64_t max_align;          /* largest PT_LOAD p_align, >= 4096 */
	struct hl_co_symbol *syms;   /* the dynamic symbol table, entry 0 too */
	uint32_t n_syms;
	struct hl_co_reloc *relocs;
	uint32_t n_relocs;
	struct hl_co_kernel *kernels;
	uint32_t n_kernels;
	char *strings;               /* owned storage for metadata strings */
};

/* Validates image[0, size) and describes it in *out (free with
 * hl_co_free).  The image must stay valid and unchanged while *out is used.
 * -ENOEXEC (reason logged) for anything malformed, -ENOMEM. */
int hl_co_parse(const void *image, size_t size, struct hl_code_object **out);
void hl_co_free(struct hl_code_object *co);

/* Parses the msgpack NT_AMDGPU_METADATA payload into co->kernels,
 * co->md_version and the target string (metadata.c).  -ENOEXEC, -ENOMEM. */
int hl_co_metadata_parse(struct hl_code_object *co, const void *desc, size_t size,
			 char *target, size_t target_size);

/* Whether the code object runs on an agent whose ISA is agent_isa_name
 * ("amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-"): same processor, and each
 * feature the code object fixes (on/off) fixed the same way by the agent;
 * "any" matches either.  0, or -EXDEV with both target IDs logged. */
int hl_co_check_isa(const struct hl_code_object *co, const char *agent_isa_name);

/* Size in bytes of the memory a load needs (the PT_LOAD span). */
uint64_t hl_co_load_size(const struct hl_code_object *co);

/* Resolves an undefined dynamic symbol for a relocation: 0 and *value, or
 * -ENOEXEC (the caller logs which). */
typedef int (*hl_co_resolver_fn)(void *ctx, const char *name, uint64_t *value);

/* Copies the PT_LOAD segments into host[0, hl_co_load_size) (zero-filling
 * the rest) and applies the dynamic relocations as if host sat at device
 * address load_base (a multiple of co->max_align).  -ENOEXEC when a
 * relocation cannot be applied. */
int hl_co_place(const struct hl_code_object *co, void *host, uint64_t load_base,
		hl_co_resolver_fn resolve, void *ctx);

/* ---- the HSA layer ---- */

struct hl_agent;
struct hl_executable;

struct hl_reader {
	const uint8_t *data;       /* the caller's memory, or buf */
	size_t size;
	uint8_t *buf;              /* owned copy (file readers) */
	char *uri;                 /* ROCr-style URI of the storage */
	struct hl_reader *next;
};

struct hl_loaded_co {
	struct hl_executable *exe;
	struct hl_agent *agent;    /* NULL for a program code object */
	uint8_t *image;            /* owned copy of the ELF, 16-byte aligned */
	size_t image_size;
	struct hl_code_object *co; /* parsed from image */
	void *mem;                 /* the pool allocation holding the segments */
	uint64_t load_base, load_size;
	int64_t delta;             /* load_base - the ELF's lowest vaddr */
	char *uri;
	struct link_map dbg;       /* its entry in _amdgpu_r_debug (debug.c) */
	bool dbg_listed;           /* dbg is on the debugger's list */
	struct hl_loaded_co *next;
};

struct hl_symbol {
	struct hl_executable *exe;
	struct hl_loaded_co *lco;  /* NULL for externally defined variables */
	struct hl_agent *agent;    /* NULL for program allocation */
	char *name;
	hsa_symbol_kind_t kind;
	hsa_symbol_linkage_t linkage;
	hsa_variable_allocation_t allocation;
	hsa_variable_segment_t segment;
	bool is_const, is_definition;
	uint64_t address;          /* variable address or kernel object */
	uint64_t size, align;
	const struct hl_co_kernel *kernel; /* kernels only */
	struct hl_symbol *next;
};

struct hl_executable {
	hsa_profile_t profile;
	hsa_default_float_rounding_mode_t rounding;
	hsa_executable_state_t state;
	struct hl_loaded_co *lcos;   /* in load order */
	struct hl_symbol *symbols;   /* in definition order */
	struct hl_executable *next;
};

/* registry.c: the lock and the lists every handle is looked up in, one
 * registry per runtime (rt->loader), made by the module's attach and freed
 * by its teardown or forget step. */
struct hl_loader_registry {
	pthread_mutex_t lock;                /* recursive */
	struct hl_reader *readers;           /* under lock */
	struct hl_executable *executables;   /* under lock */
};
void hl_loader_lock(struct hl_loader_registry *lr);
void hl_loader_unlock(struct hl_loader_registry *lr);
/* Caller holds lr's lock. */
struct hl_reader *hl_reader_lookup(const struct hl_loader_registry *lr,
				   hsa_code_object_reader_t h);
struct hl_executable *hl_executable_lookup(const struct hl_loader_registry *lr,
					   hsa_executable_t h);
struct hl_symbol *hl_symbol_lookup(const struct hl_loader_registry *lr,
				   hsa_executable_symbol_t h);
struct hl_loaded_co *hl_loaded_co_lookup(const struct hl_loader_registry *lr,
					 hsa_loaded_code_object_t h);
/* The registry, empty, on rt (the module's attach).  -ENOMEM. */
int hl_loader_registry_make(struct hl_runtime *rt);

/* debug.c: the debugger's list of loaded code objects (_amdgpu_r_debug).
 * All three are called with the lock held. */
/* Lists e's code objects not listed yet (hsa_executable_freeze). */
void hl_loader_debug_add(struct hl_executable *e);
/* Unlists e's code objects (before they are freed). */
void hl_loader_debug_remove(struct hl_executable *e);
/* Empties the list of lr's code objects (the last hsa_shut_down). */
void hl_loader_debug_reset(struct hl_loader_registry *lr);
/* The loader's fork_child step (registry.c): the list emptied in the
 * child, without the lock. */
void hl_loader_debug_fork_child(void);

/* symbol.c */
/* Creates the symbols of a placed code object and appends them to its
 * executable: -EEXIST (logged) when a name is already defined there for
 * the same agent, -ENOMEM.  Called with the lock held. */
int hl_symbols_create(struct hl_loaded_co *lco);
void hl_symbol_append(struct hl_executable *exe, struct hl_symbol *sym);
void hl_symbol_free_all(struct hl_executable *exe);
/* The symbol named name for agent (NULL: program symbols); a kernel also
 * answers to its name without ".kd".  Called with the lock held. */
struct hl_symbol *hl_symbol_find(struct hl_executable *exe, const char *name,
				 const struct hl_agent *agent);

/* amd_loader.c: the hsa_ven_amd_loader 1.03 table's entries (ROCr does not
 * export them as symbols); hl_loader_attach registers the table. */
hsa_status_t hl_loader_query_host_address(const void *device_address, const void **host);
hsa_status_t hl_loader_query_segment_descriptors(hsa_ven_amd_loader_segment_descriptor_t *d,
						 size_t *n);
hsa_status_t hl_loader_query_executable(const void *device_address, hsa_executable_t *exe);
hsa_status_t hl_loader_iterate_loaded_code_objects(
	hsa_executable_t exe,
	hsa_status_t (*cb)(hsa_executable_t, hsa_loaded_code_object_t, void *), void *data);
hsa_status_t hl_loader_loaded_code_object_get_info(
	hsa_loaded_code_object_t lco, hsa_ven_amd_loader_loaded_code_object_info_t attr,
	void *value);
hsa_status_t hl_loader_reader_create_from_file_with_offset_size(
	hsa_file_t file, size_t offset, size_t size, hsa_code_object_reader_t *reader);
hsa_status_t hl_loader_iterate_executables(hsa_status_t (*cb)(hsa_executable_t, void *),
					   void *data);

#endif /* HSALITE_LOADER_PRIV_H */
