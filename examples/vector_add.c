/*
 * vector_add: c[i] = a[i] + b[i] on the first GPU agent, through nothing but
 * the standard HSA API (hsa.h, hsa_ext_amd.h).  It is the sample a user
 * starts from, so it does every step a correct HSA program does and no
 * more, and the same binary runs on hsalite or on ROCr (pick the library
 * with LD_LIBRARY_PATH), on kfdemu or on a real MI210/MI300X.
 *
 * Steps, in order (each HSA call checked; a failure prints the call and
 * hsa_status_string and the program exits 1 after cleaning up):
 *  1. hsa_init; the first GPU agent, its first ISA's name (the gfx part,
 *     "gfx90a", picks the code object vector_add.<gfx>.co beside the
 *     executable; --co overrides) and the first CPU agent.
 *  2. Pools: on the CPU agent, the system pool with KERNARG_INIT (kernel
 *     arguments) and a fine-grained system pool (a, b, c); on the GPU, its
 *     coarse-grained pool -- where an application keeps data that stays on
 *     the GPU.  The sample does not need it (reading VRAM back needs a GPU
 *     copy; the kernel reads its inputs once, so system memory is the right
 *     home for them) but reports it with -v, since finding it is the step
 *     users copy.
 *  3. Code object: reader from the file, executable_create_alt,
 *     load_agent_code_object, freeze, the "vadd.kd" symbol and its kernel
 *     object, kernarg size and group/private segment sizes.
 *  4. Buffers: a, b filled, c poisoned with NaN including 64 guard floats
 *     past n (a kernel that ignores n in its last, partial workgroup is
 *     caught), each made accessible to the GPU with hsa_amd_agents_allow_access.
 *  5. Dispatch (HSA spec submission protocol): reserve a slot with
 *     add_write_index, wait until the slot is free, write the packet body
 *     with the header still INVALID, publish header+setup with one 32-bit
 *     release store, ring the doorbell with the slot index.
 *  6. Wait for the completion signal to drop below 1 (scacquire, BLOCKED),
 *     in slices so that a queue error or the -t timeout ends the wait with
 *     a message instead of a hang.
 *  7. Verify every element bit-exactly against the host sum (the GPU adds
 *     IEEE floats with round-to-nearest like the host) and the guard, print
 *     one result line, release everything, hsa_shut_down.
 *
 * The kernel (examples/kernels/vadd.cl) computes its index as
 * workgroup_id * 64 + workitem_id, so the workgroup size is 64; the grid is
 * exactly n work-items, so n that is not a multiple of 64 ends in a partial
 * workgroup, which HSA allows.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#define WORKGROUP_SIZE 64u /* fixed by vadd.cl's index computation */
#define GUARD 64u	   /* poisoned floats after c[n-1] */
#define KERNEL_SYMBOL "vadd.kd"

struct options {
	uint32_t n;
	const char *co_path; /* NULL: beside the executable */
	double timeout_s;
	bool verbose;
};

/* Everything the program creates; cleanup() releases whatever is set. */
struct sample {
	hsa_agent_t gpu, cpu;
	bool have_gpu, have_cpu;
	char isa_name[128];
	char gfx[32];
	hsa_amd_memory_pool_t kernarg_pool, fine_pool, coarse_pool;
	bool have_kernarg, have_fine, have_coarse;
	int co_fd;
	hsa_code_object_reader_t reader;
	bool have_reader;
	hsa_executable_t exe;
	bool have_exe;
	uint64_t kernel_object;
	uint32_t kernarg_size, group_size, private_size;
	float *a, *b, *c;
	void *kernarg;
	hsa_signal_t done;
	bool have_done;
	hsa_queue_t *queue;
	bool initialized;
};

/* Set by the queue error callback (runtime thread), read by the waiter. */
static atomic_int queue_error = HSA_STATUS_SUCCESS;

static void print_status(const char *what, hsa_status_t st)
{
	const char *msg = NULL;
	if (hsa_status_string(st, &msg) != HSA_STATUS_SUCCESS || !msg)
		msg = "unknown status";
	fprintf(stderr, "vector_add: %s failed: %s (0x%x)\n", what, msg, (unsigned)st);
}

/* Evaluates an HSA call; on failure reports it and jumps to the cleanup. */
#define CHECK(call)                                  \
	do {                                         \
		hsa_status_t st_ = (call);           \
		if (st_ != HSA_STATUS_SUCCESS) {     \
			print_status(#call, st_);    \
			goto out;                    \
		}                                    \
	} while (0)

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: vector_add [-n N] [--co FILE] [-t SECONDS] [-v] [-h]\n"
		"  c[i] = a[i] + b[i] for N floats on the first GPU agent, checked on the host.\n"
		"  -n N        number of elements, 1..%u (default 1048576)\n"
		"  --co FILE   code object to load (default: vector_add.<gfx>.co next to\n"
		"              this executable, <gfx> from the GPU's ISA name)\n"
		"  -t SECONDS  give up waiting for the kernel after this long (default 60)\n"
		"  -v          describe the agent, pools and kernel on stderr\n"
		"  -h          this help\n",
		UINT32_MAX - GUARD);
}

/* Returns 0, 1 (bad usage) or 2 (-h). */
static int parse_args(int argc, char **argv, struct options *o)
{
	o->n = 1u << 20;
	o->co_path = NULL;
	o->timeout_s = 60.0;
	o->verbose = false;
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		if (!strcmp(arg, "-h") || !strcmp(arg, "--help"))
			return 2;
		if (!strcmp(arg, "-v")) {
			o->verbose = true;
			continue;
		}
		if (i + 1 >= argc) {
			fprintf(stderr, "vector_add: unknown option or missing value: %s\n", arg);
			return 1;
		}
		const char *val = argv[++i];
		char *end;
		errno = 0;
		if (!strcmp(arg, "-n")) {
			unsigned long long v = strtoull(val, &end, 0);
			if (errno || *end || val[0] == '-' || v == 0 || v > UINT32_MAX - GUARD) {
				fprintf(stderr, "vector_add: -n wants 1..%u, got '%s'\n",
					UINT32_MAX - GUARD, val);
				return 1;
			}
			o->n = (uint32_t)v;
		} else if (!strcmp(arg, "--co")) {
			o->co_path = val;
		} else if (!strcmp(arg, "-t")) {
			double v = strtod(val, &end);
			if (errno || *end || !(v > 0)) {
				fprintf(stderr, "vector_add: -t wants a positive number of seconds, got '%s'\n", val);
				return 1;
			}
			o->timeout_s = v;
		} else {
			fprintf(stderr, "vector_add: unknown option: %s\n", arg);
			return 1;
		}
	}
	return 0;
}

/* ---- agents and ISA ---- */

static hsa_status_t find_agents(hsa_agent_t agent, void *data)
{
	struct sample *s = data;
	hsa_device_type_t type;
	hsa_status_t st = hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type);
	if (st != HSA_STATUS_SUCCESS)
		return st;
	if (type == HSA_DEVICE_TYPE_GPU && !s->have_gpu) {
		s->gpu = agent;
		s->have_gpu = true;
	} else if (type == HSA_DEVICE_TYPE_CPU && !s->have_cpu) {
		s->cpu = agent;
		s->have_cpu = true;
	}
	return HSA_STATUS_SUCCESS;
}

/* The first ISA of the agent: the one its code objects are built for. */
static hsa_status_t first_isa(hsa_isa_t isa, void *data)
{
	*(hsa_isa_t *)data = isa;
	return HSA_STATUS_INFO_BREAK;
}

/* "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-" -> "gfx90a". */
static int gfx_of_isa_name(const char *isa_name, char *gfx, size_t size)
{
	const char *p = strstr(isa_name, "--");
	if (!p)
		return -1;
	p += 2;
	size_t len = strcspn(p, ":");
	if (len == 0 || len >= size)
		return -1;
	memcpy(gfx, p, len);
	gfx[len] = '\0';
	return 0;
}

static hsa_status_t get_isa(struct sample *s)
{
	hsa_isa_t isa = { 0 };
	hsa_status_t st = hsa_agent_iterate_isas(s->gpu, first_isa, &isa);
	if (st != HSA_STATUS_SUCCESS && st != HSA_STATUS_INFO_BREAK) {
		print_status("hsa_agent_iterate_isas", st);
		return st;
	}
	if (!isa.handle) {
		fprintf(stderr, "vector_add: the GPU agent reports no ISA\n");
		return HSA_STATUS_ERROR;
	}
	uint32_t len = 0;
	st = hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME_LENGTH, &len);
	if (st != HSA_STATUS_SUCCESS) {
		print_status("hsa_isa_get_info_alt(NAME_LENGTH)", st);
		return st;
	}
	if (len == 0 || len >= sizeof(s->isa_name)) {
		fprintf(stderr, "vector_add: ISA name length %u is out of range\n", len);
		return HSA_STATUS_ERROR;
	}
	memset(s->isa_name, 0, sizeof(s->isa_name));
	st = hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME, s->isa_name);
	if (st != HSA_STATUS_SUCCESS) {
		print_status("hsa_isa_get_info_alt(NAME)", st);
		return st;
	}
	if (gfx_of_isa_name(s->isa_name, s->gfx, sizeof(s->gfx))) {
		fprintf(stderr, "vector_add: cannot find the processor in ISA name '%s'\n",
			s->isa_name);
		return HSA_STATUS_ERROR;
	}
	return HSA_STATUS_SUCCESS;
}

/* ---- memory pools ---- */

struct pool_query {
	uint32_t want_flag;
	hsa_amd_memory_pool_t *pool;
	bool *found;
};

static hsa_status_t find_pool(hsa_amd_memory_pool_t pool, void *data)
{
	struct pool_query *q = data;
	hsa_amd_segment_t segment;
	uint32_t flags;
	bool alloc_allowed;
	hsa_status_t st = hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &segment);
	if (st != HSA_STATUS_SUCCESS)
		return st;
	if (segment != HSA_AMD_SEGMENT_GLOBAL)
		return HSA_STATUS_SUCCESS;
	st = hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED,
					  &alloc_allowed);
	if (st != HSA_STATUS_SUCCESS)
		return st;
	st = hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags);
	if (st != HSA_STATUS_SUCCESS)
		return st;
	if (!alloc_allowed || !(flags & q->want_flag))
		return HSA_STATUS_SUCCESS;
	*q->pool = pool;
	*q->found = true;
	return HSA_STATUS_INFO_BREAK;
}

static hsa_status_t find_one_pool(hsa_agent_t agent, uint32_t flag, const char *what,
				  hsa_amd_memory_pool_t *pool, bool *found)
{
	struct pool_query q = { flag, pool, found };
	hsa_status_t st = hsa_amd_agent_iterate_memory_pools(agent, find_pool, &q);
	if (st != HSA_STATUS_SUCCESS && st != HSA_STATUS_INFO_BREAK) {
		print_status("hsa_amd_agent_iterate_memory_pools", st);
		return st;
	}
	if (!*found) {
		fprintf(stderr, "vector_add: no %s pool\n", what);
		return HSA_STATUS_ERROR;
	}
	return HSA_STATUS_SUCCESS;
}

static hsa_status_t find_pools(struct sample *s, bool verbose)
{
	hsa_status_t st;
	st = find_one_pool(s->cpu, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT,
			   "kernarg (system, KERNARG_INIT)", &s->kernarg_pool, &s->have_kernarg);
	if (st != HSA_STATUS_SUCCESS)
		return st;
	st = find_one_pool(s->cpu, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED,
			   "fine-grained system", &s->fine_pool, &s->have_fine);
	if (st != HSA_STATUS_SUCCESS)
		return st;
	st = find_one_pool(s->gpu, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED,
			   "coarse-grained GPU", &s->coarse_pool, &s->have_coarse);
	if (st != HSA_STATUS_SUCCESS)
		return st;
	if (verbose) {
		size_t size = 0;
		st = hsa_amd_memory_pool_get_info(s->coarse_pool, HSA_AMD_MEMORY_POOL_INFO_SIZE, &size);
		if (st != HSA_STATUS_SUCCESS) {
			print_status("hsa_amd_memory_pool_get_info(SIZE)", st);
			return st;
		}
		fprintf(stderr, "vector_add: GPU coarse-grained pool: %zu MiB\n", size >> 20);
	}
	return HSA_STATUS_SUCCESS;
}

/* Allocates from a pool and makes the memory accessible to the GPU. */
static hsa_status_t alloc_for_gpu(struct sample *s, hsa_amd_memory_pool_t pool, size_t size,
				  void **ptr, const char *what)
{
	hsa_status_t st = hsa_amd_memory_pool_allocate(pool, size, 0, ptr);
	if (st != HSA_STATUS_SUCCESS) {
		*ptr = NULL;
		fprintf(stderr, "vector_add: allocating %zu bytes for %s:\n", size, what);
		print_status("hsa_amd_memory_pool_allocate", st);
		return st;
	}
	st = hsa_amd_agents_allow_access(1, &s->gpu, NULL, *ptr);
	if (st != HSA_STATUS_SUCCESS)
		print_status("hsa_amd_agents_allow_access", st);
	return st;
}

/* ---- code object ---- */

/* vector_add.<gfx>.co in the directory of /proc/self/exe (argv[0] as a
 * fallback when /proc is not mounted). */
static int default_co_path(const char *argv0, const char *gfx, char *path, size_t size)
{
	char exe[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len > 0) {
		exe[len] = '\0';
	} else {
		if (strlen(argv0) >= sizeof(exe))
			return -1;
		strcpy(exe, argv0);
	}
	char *slash = strrchr(exe, '/');
	const char *dir = ".";
	if (slash) {
		*slash = '\0';
		dir = slash == exe ? "/" : exe;
	}
	int n = snprintf(path, size, "%s/vector_add.%s.co", dir, gfx);
	return n < 0 || (size_t)n >= size ? -1 : 0;
}

static hsa_status_t symbol_u32(hsa_executable_symbol_t sym, hsa_executable_symbol_info_t attr,
			       const char *name, uint32_t *out)
{
	hsa_status_t st = hsa_executable_symbol_get_info(sym, attr, out);
	if (st != HSA_STATUS_SUCCESS) {
		fprintf(stderr, "vector_add: symbol attribute %s:\n", name);
		print_status("hsa_executable_symbol_get_info", st);
	}
	return st;
}

static hsa_status_t load_kernel(struct sample *s, const char *path, bool verbose)
{
	hsa_profile_t profile;
	hsa_status_t st;

	s->co_fd = open(path, O_RDONLY | O_CLOEXEC);
	if (s->co_fd < 0) {
		fprintf(stderr, "vector_add: cannot open code object %s: %s\n"
			"vector_add: build examples/ for %s (clang -target amdgcn-amd-amdhsa "
			"-mcpu=%s), or pass --co FILE\n",
			path, strerror(errno), s->gfx, s->gfx);
		return HSA_STATUS_ERROR;
	}
	st = hsa_code_object_reader_create_from_file(s->co_fd, &s->reader);
	if (st != HSA_STATUS_SUCCESS) {
		print_status("hsa_code_object_reader_create_from_file", st);
		return st;
	}
	s->have_reader = true;
	st = hsa_agent_get_info(s->gpu, HSA_AGENT_INFO_PROFILE, &profile);
	if (st != HSA_STATUS_SUCCESS) {
		print_status("hsa_agent_get_info(PROFILE)", st);
		return st;
	}
	st = hsa_executable_create_alt(profile, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL,
				       &s->exe);
	if (st != HSA_STATUS_SUCCESS) {
		print_status("hsa_executable_create_alt", st);
		return st;
	}
	s->have_exe = true;
	st = hsa_executable_load_agent_code_object(s->exe, s->gpu, s->reader, NULL, NULL);
	if (st != HSA_STATUS_SUCCESS) {
		fprintf(stderr, "vector_add: loading %s for %s:\n", path, s->isa_name);
		print_status("hsa_executable_load_agent_code_object", st);
		return st;
	}
	st = hsa_executable_freeze(s->exe, NULL);
	if (st != HSA_STATUS_SUCCESS) {
		print_status("hsa_executable_freeze", st);
		return st;
	}

	hsa_executable_symbol_t sym;
	st = hsa_executable_get_symbol_by_name(s->exe, KERNEL_SYMBOL, &s->gpu, &sym);
	if (st != HSA_STATUS_SUCCESS) {
		print_status("hsa_executable_get_symbol_by_name(\"" KERNEL_SYMBOL "\")", st);
		return st;
	}
	st = hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT,
					    &s->kernel_object);
	if (st != HSA_STATUS_SUCCESS) {
		print_status("hsa_executable_symbol_get_info(KERNEL_OBJECT)", st);
		return st;
	}
	st = symbol_u32(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE,
			"KERNARG_SEGMENT_SIZE", &s->kernarg_size);
	if (st == HSA_STATUS_SUCCESS)
		st = symbol_u32(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE,
				"GROUP_SEGMENT_SIZE", &s->group_size);
	if (st == HSA_STATUS_SUCCESS)
		st = symbol_u32(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE,
				"PRIVATE_SEGMENT_SIZE", &s->private_size);
	if (st != HSA_STATUS_SUCCESS)
		return st;
	if (verbose)
		fprintf(stderr, "vector_add: %s: kernel object 0x%" PRIx64 ", kernarg %u bytes, "
			"group %u, private %u\n", KERNEL_SYMBOL, s->kernel_object,
			s->kernarg_size, s->group_size, s->private_size);
	return HSA_STATUS_SUCCESS;
}

/* ---- dispatch ---- */

/* Explicit arguments of vadd(a, b, c, n), as the AMDGPU ABI lays them out:
 * natural alignment, in order, 28 bytes (the struct's tail padding is not
 * part of the segment).  Hidden arguments, when the compiler adds any
 * (global offsets and the like, counted in KERNARG_SEGMENT_SIZE), follow
 * and stay zero: this kernel does not read them. */
struct vadd_args {
	const float *a;
	const float *b;
	float *c;
	uint32_t n;
};
#define VADD_ARGS_SIZE (offsetof(struct vadd_args, n) + sizeof(uint32_t))

static void queue_error_callback(hsa_status_t status, hsa_queue_t *queue, void *data)
{
	(void)queue;
	(void)data;
	atomic_store_explicit(&queue_error, (int)status, memory_order_release);
}

static uint16_t dispatch_header(void)
{
	/* Barrier bit and system-scope fences: the kernel sees the host's
	 * writes to a and b, and the host sees c once the signal drops. */
	return (uint16_t)((HSA_PACKET_TYPE_KERNEL_DISPATCH << HSA_PACKET_HEADER_TYPE) |
			  (1u << HSA_PACKET_HEADER_BARRIER) |
			  (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
			  (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE));
}

/* Submits one dispatch; returns false (having said why) when the queue has
 * no free slot before the deadline. */
static bool submit(struct sample *s, uint32_t n, double deadline)
{
	hsa_queue_t *q = s->queue;
	uint64_t index = hsa_queue_add_write_index_screlease(q, 1);

	/* The slot is free once the packet processor has consumed the packet
	 * that used it size packets ago. */
	while (index - hsa_queue_load_read_index_scacquire(q) >= q->size) {
		if (now_s() > deadline) {
			fprintf(stderr, "vector_add: queue full: slot %" PRIu64 " never freed\n",
				index);
			return false;
		}
		sched_yield();
	}

	hsa_kernel_dispatch_packet_t *pkt =
		(hsa_kernel_dispatch_packet_t *)q->base_address + (index & (q->size - 1));
	/* Body first; the header word stays INVALID so the packet processor
	 * does not take a half-written packet. */
	pkt->workgroup_size_x = WORKGROUP_SIZE;
	pkt->workgroup_size_y = 1;
	pkt->workgroup_size_z = 1;
	pkt->reserved0 = 0;
	pkt->grid_size_x = n;
	pkt->grid_size_y = 1;
	pkt->grid_size_z = 1;
	pkt->private_segment_size = s->private_size;
	pkt->group_segment_size = s->group_size;
	pkt->kernel_object = s->kernel_object;
	pkt->kernarg_address = s->kernarg;
	pkt->reserved2 = 0;
	pkt->completion_signal = s->done;

	/* Publish: header and setup (1 dimension) as one 32-bit release store;
	 * pairs with the packet processor's acquire of the header, so the body
	 * written above is visible once the type reads KERNEL_DISPATCH. */
	uint32_t word = dispatch_header() |
			(uint32_t)(1u << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS) << 16;
	atomic_store_explicit((_Atomic uint32_t *)(void *)pkt, word, memory_order_release);

	/* Ring the doorbell with the index of the packet just published. */
	hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)index);
	return true;
}

/* Waits for the completion signal to drop below 1.  The wait's timeout is
 * a hint (a wait may return early), so the loop keeps its own deadline and
 * watches for a queue error between slices. */
static bool wait_done(struct sample *s, double deadline, uint64_t ts_freq)
{
	uint64_t slice = ts_freq / 10; /* 100 ms in timestamp ticks */
	if (slice == 0)
		slice = 1;
	for (;;) {
		hsa_signal_value_t v = hsa_signal_wait_scacquire(
			s->done, HSA_SIGNAL_CONDITION_LT, 1, slice, HSA_WAIT_STATE_BLOCKED);
		if (v < 1)
			return true;
		int qerr = atomic_load_explicit(&queue_error, memory_order_acquire);
		if (qerr != HSA_STATUS_SUCCESS) {
			print_status("the dispatch (queue error callback)", (hsa_status_t)qerr);
			return false;
		}
		if (now_s() > deadline) {
			fprintf(stderr, "vector_add: timed out: the kernel did not complete "
				"(completion signal still %" PRId64 ")\n", (int64_t)v);
			return false;
		}
	}
}

/* ---- data ---- */

/* Inputs with fractional parts and mixed magnitudes, so that the sums
 * round and a wrong or missing element cannot match by accident. */
static void fill_inputs(float *a, float *b, float *c, uint32_t n)
{
	uint32_t x = 12345u;
	for (uint32_t i = 0; i < n; i++) {
		x = x * 1664525u + 1013904223u; /* LCG (Numerical Recipes) */
		a[i] = (float)(x >> 8) / 4096.0f - 2048.0f;
		b[i] = (float)i * 0.375f + 0.1f;
	}
	/* A quiet NaN never equals a sum of finite inputs. */
	for (uint32_t i = 0; i < n + GUARD; i++)
		c[i] = NAN;
}

/* Counts the wrong elements and the writes past n, reporting the first few
 * of each; true when there are none. */
static bool verify(const float *a, const float *b, const float *c, uint32_t n)
{
	uint64_t bad = 0, past = 0;
	for (uint32_t i = 0; i < n; i++) {
		float want = a[i] + b[i];
		if (memcmp(&want, &c[i], sizeof(float)) != 0 && bad++ < 5)
			fprintf(stderr, "vector_add: c[%u] = %a, expected %a (%a + %a)\n", i,
				(double)c[i], (double)want, (double)a[i], (double)b[i]);
	}
	for (uint32_t i = n; i < n + GUARD; i++) {
		if (!isnan(c[i]) && past++ < 5)
			fprintf(stderr, "vector_add: c[%u] past n was written: %a\n", i,
				(double)c[i]);
	}
	if (bad || past)
		fprintf(stderr, "vector_add: %" PRIu64 " wrong element(s), %" PRIu64
			" write(s) past n\n", bad, past);
	return !bad && !past;
}

/* ---- teardown ---- */

static int free_mem(void *p, const char *what)
{
	if (!p)
		return 0;
	hsa_status_t st = hsa_amd_memory_pool_free(p);
	if (st != HSA_STATUS_SUCCESS) {
		print_status(what, st);
		return -1;
	}
	return 0;
}

/* Releases whatever s holds, in reverse order of creation; returns -1 if
 * any release failed. */
static int cleanup(struct sample *s)
{
	int err = 0;
	hsa_status_t st;
	if (s->queue) {
		st = hsa_queue_destroy(s->queue);
		if (st != HSA_STATUS_SUCCESS) {
			print_status("hsa_queue_destroy", st);
			err = -1;
		}
	}
	if (s->have_done) {
		st = hsa_signal_destroy(s->done);
		if (st != HSA_STATUS_SUCCESS) {
			print_status("hsa_signal_destroy", st);
			err = -1;
		}
	}
	err |= free_mem(s->kernarg, "hsa_amd_memory_pool_free(kernarg)");
	err |= free_mem(s->c, "hsa_amd_memory_pool_free(c)");
	err |= free_mem(s->b, "hsa_amd_memory_pool_free(b)");
	err |= free_mem(s->a, "hsa_amd_memory_pool_free(a)");
	if (s->have_exe) {
		st = hsa_executable_destroy(s->exe);
		if (st != HSA_STATUS_SUCCESS) {
			print_status("hsa_executable_destroy", st);
			err = -1;
		}
	}
	if (s->have_reader) {
		st = hsa_code_object_reader_destroy(s->reader);
		if (st != HSA_STATUS_SUCCESS) {
			print_status("hsa_code_object_reader_destroy", st);
			err = -1;
		}
	}
	if (s->co_fd >= 0)
		close(s->co_fd);
	if (s->initialized) {
		st = hsa_shut_down();
		if (st != HSA_STATUS_SUCCESS) {
			print_status("hsa_shut_down", st);
			err = -1;
		}
	}
	return err;
}

int main(int argc, char **argv)
{
	double t_start = now_s();
	struct options opt;
	switch (parse_args(argc, argv, &opt)) {
	case 0:
		break;
	case 2:
		usage(stdout);
		return 0;
	default:
		usage(stderr);
		return 1;
	}

	struct sample s = { .co_fd = -1 };
	bool passed = false, submitted = false;
	double t_dispatch = 0;
	uint64_t ts_freq = 0;
	char co_path[PATH_MAX];

	CHECK(hsa_init());
	s.initialized = true;
	hsa_status_t st = hsa_iterate_agents(find_agents, &s);
	if (st != HSA_STATUS_SUCCESS) {
		print_status("hsa_iterate_agents", st);
		goto out;
	}
	if (!s.have_gpu || !s.have_cpu) {
		fprintf(stderr, "vector_add: no %s agent (is there an AMD GPU and /dev/kfd? "
			"without one, run under kfdemu)\n", s.have_gpu ? "CPU" : "GPU");
		goto out;
	}
	if (get_isa(&s) != HSA_STATUS_SUCCESS)
		goto out;
	if (opt.verbose)
		fprintf(stderr, "vector_add: GPU agent ISA %s\n", s.isa_name);
	if (find_pools(&s, opt.verbose) != HSA_STATUS_SUCCESS)
		goto out;
	if (!opt.co_path) {
		if (default_co_path(argv[0], s.gfx, co_path, sizeof(co_path))) {
			fprintf(stderr, "vector_add: path of the code object too long\n");
			goto out;
		}
		opt.co_path = co_path;
	}
	if (load_kernel(&s, opt.co_path, opt.verbose) != HSA_STATUS_SUCCESS)
		goto out;
	if (s.kernarg_size < VADD_ARGS_SIZE) {
		fprintf(stderr, "vector_add: %s takes %u bytes of arguments, vadd needs %zu: "
			"wrong kernel in %s?\n", KERNEL_SYMBOL, s.kernarg_size,
			VADD_ARGS_SIZE, opt.co_path);
		goto out;
	}

	size_t in_bytes = (size_t)opt.n * sizeof(float);
	size_t out_bytes = ((size_t)opt.n + GUARD) * sizeof(float);
	if (alloc_for_gpu(&s, s.fine_pool, in_bytes, (void **)&s.a, "a") ||
	    alloc_for_gpu(&s, s.fine_pool, in_bytes, (void **)&s.b, "b") ||
	    alloc_for_gpu(&s, s.fine_pool, out_bytes, (void **)&s.c, "c") ||
	    alloc_for_gpu(&s, s.kernarg_pool, s.kernarg_size, &s.kernarg, "kernel arguments"))
		goto out;
	fill_inputs(s.a, s.b, s.c, opt.n);
	{
		/* Hidden arguments after the explicit ones stay zero. */
		struct vadd_args args = { s.a, s.b, s.c, opt.n };
		memset(s.kernarg, 0, s.kernarg_size);
		memcpy(s.kernarg, &args, VADD_ARGS_SIZE);
	}

	CHECK(hsa_signal_create(1, 0, NULL, &s.done));
	s.have_done = true;
	uint32_t qmin = 0, qmax = 0;
	CHECK(hsa_agent_get_info(s.gpu, HSA_AGENT_INFO_QUEUE_MIN_SIZE, &qmin));
	CHECK(hsa_agent_get_info(s.gpu, HSA_AGENT_INFO_QUEUE_MAX_SIZE, &qmax));
	uint32_t qsize = 64;
	if (qsize < qmin)
		qsize = qmin;
	if (qsize > qmax)
		qsize = qmax;
	CHECK(hsa_queue_create(s.gpu, qsize, HSA_QUEUE_TYPE_SINGLE, queue_error_callback, NULL,
			       UINT32_MAX, UINT32_MAX, &s.queue));
	CHECK(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &ts_freq));

	double t0 = now_s();
	double deadline = t0 + opt.timeout_s;
	if (!submit(&s, opt.n, deadline))
		goto out;
	submitted = true;
	if (!wait_done(&s, deadline, ts_freq))
		goto out;
	t_dispatch = now_s() - t0;

	passed = verify(s.a, s.b, s.c, opt.n);

out:
	if (cleanup(&s))
		passed = false;
	double t_total = now_s() - t_start;
	char dispatch[48];
	snprintf(dispatch, sizeof(dispatch), "%s", submitted ? "not completed" : "no dispatch");
	if (t_dispatch > 0)
		snprintf(dispatch, sizeof(dispatch), "dispatch %.3f ms", t_dispatch * 1e3);
	printf("vector_add: n=%u agent=%s %s (%s, total %.1f ms)\n", opt.n,
	       s.gfx[0] ? s.gfx : "none", passed ? "PASSED" : "FAILED", dispatch, t_total * 1e3);
	return passed ? 0 : 1;
}
