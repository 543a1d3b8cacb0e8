/*
 * hsa-dispatch-bench: what a dispatch costs, measured the way rocrtst's
 * dispatch_time.cc and enqueue_latency.cc measure it, against a floor
 * measured in the same run.  Standard HSA API only (hsa.h, hsa_ext_amd.h),
 * so one binary measures us and, with LD_LIBRARY_PATH, ROCr:
 *
 *   kfdemu --preset mi210 -- hsa-dispatch-bench [options]
 *   LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu kfdemu --preset mi210 -- hsa-dispatch-bench
 *
 * Metrics (every figure in ns; min, p50, p99 and mean of the samples):
 *   enqueue_1t, enqueue_1t_multi, enqueue_2t   host side of a submission
 *       per packet: reserve (hsa_queue_add_write_index_screlease), room
 *       check (hsa_queue_load_read_index_scacquire), 64-byte body, header
 *       release store.  enqueue_1t: one producer on a SINGLE queue (what an
 *       application with one producer creates); enqueue_1t_multi: one
 *       producer on a MULTI queue (as rocrtst's enqueueLatency does);
 *       enqueue_2t: two producer threads on one MULTI queue.  A sample is a
 *       group of --group packets timed together (the clock costs about as
 *       much as one packet), doorbell rung once per group, outside the timer.
 *   single_{spin,blocked}_{barrier,kernel}   round trip of one packet:
 *       the slot is reserved and written, the timer starts, the header is
 *       published, the doorbell rung and the completion signal waited for
 *       with the ACTIVE (spin) or BLOCKED hint.  The first sample is dropped.
 *   multi_{spin,blocked}_{barrier,kernel}    --batch packets share one
 *       completion signal set to the batch size; headers are published in
 *       reverse, the first after the timer starts; one doorbell with the
 *       last index; wait for 0.  A sample is the batch time / batch size.
 *   split_{spin,blocked}_{barrier,kernel}_{submit,pickup,execute,wake,sum,whole}
 *       the breakdown of a Single round trip, on the queue with profiling
 *       on (hsa_amd_profiling_set_profiler_enabled): submit = host time from
 *       the reservation to the return of the doorbell store; pickup = from
 *       there to the packet's start timestamp; execute = start to end
 *       timestamp; wake = end timestamp (the CP's completion signal write)
 *       to the return of the wait; whole = reservation to the return of the
 *       wait, measured; sum = the parts' figures added (min, p50, p99, mean
 *       each).  Timestamps come from hsa_amd_profiling_get_dispatch_time
 *       (the system domain) and the host readings from CLOCK_BOOTTIME, which
 *       is that domain in both runtimes (KFD's system_clock_counter; checked
 *       against HSA_SYSTEM_INFO_TIMESTAMP at start, else its offset is
 *       added).  A runtime or CP that writes no timestamps for the packet is
 *       named and only the whole is recorded.  convert_dispatch_time and
 *       convert_tick: what hsa_amd_profiling_get_dispatch_time and
 *       hsa_amd_profiling_convert_tick_to_system_domain cost per call
 *       (outside the round trips).
 *   wakeup_blocked, wakeup_spin   a thread waits in hsa_signal_wait_scacquire
 *       (BLOCKED, once it is asleep in the kernel; or ACTIVE); the time from
 *       another thread's hsa_signal_store_screlease to the waiter's return.
 *   floor_*   the same loops with no runtime: a private ring in host memory
 *       (C11 atomics in place of the write index and doorbell; every floor
 *       reserves with atomic_fetch_add, the locked RMW a runtime's add is on
 *       every queue type, SINGLE included), consumed by a
 *       polling thread in this process that decrements a private completion
 *       counter (and wakes a futex sleeper), a futex in place of a blocked
 *       signal wait, a plain atomic in place of a spin wait.  No runtime can
 *       beat a spin or enqueue floor on this host; the distance to it is the
 *       overhead.  floor_split_{spin,blocked}_*: the breakdown against the
 *       in-process consumer, which stamps start and end on CLOCK_BOOTTIME.  A blocked floor's waiter sleeps at once: a runtime that
 *       spins a little first (both do) can beat it when the answer is quick.
 *
 * Without a command processor (kfdemu before emu/cp) a probe packet is not
 * consumed; the dispatch metrics are then skipped, and the enqueue loops do
 * the room check's load but cannot wait for room: they write over ring
 * slots nothing reads.
 *
 * Output: a table on stdout, --csv FILE (label,metric,unit,samples,min,p50,
 * p99,mean), --plot FILE.png (histograms via gnuplot).  Exit status: 0 when
 * every selected metric ran or was skipped for a stated reason, 1 on an HSA
 * failure (the status string is printed), 2 on bad usage.  A tool, not a
 * test (STYLE.md §12): it prints figures and asserts none.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "hsa/amd_hsa_signal.h"
#include "hsa/hsa.h"
#include "hsa/hsa_ext_amd.h"

/* ---- options ---- */

static struct {
	unsigned iters;      /* Single round trips (+1 dropped) */
	unsigned batch;      /* Multi packets per batch */
	unsigned reps;       /* Multi batches (+1 dropped) */
	unsigned enqueue;    /* enqueue packets per producer thread */
	unsigned group;      /* enqueue packets per timed sample */
	unsigned wakeups;    /* wake-up samples */
	unsigned sleep_us;   /* how long a blocked waiter sleeps before the store */
	unsigned queue_size; /* AQL queue packets */
	unsigned probe_ms;   /* how long the first packet may take before "no CP" */
	const char *metrics; /* comma list of metric name prefixes */
	const char *co;      /* code object with the kernel "empty" */
	const char *csv;
	const char *plot;
	const char *label;
	bool floors;
	bool no_kernel;      /* skip the kernel metrics (and loading the kernel) */
} opt = {
	.iters = 1000, .batch = 1024, .reps = 20, .enqueue = 100000, .group = 16,
	.wakeups = 200, .sleep_us = 1000, .queue_size = 4096, .probe_ms = 2000,
	.metrics = "all", .floors = true,
};

/* ---- failures ---- */

static void hsa_fail(hsa_status_t s, const char *what, int line)
{
	const char *msg = NULL;
	if (hsa_status_string(s, &msg) != HSA_STATUS_SUCCESS || !msg)
		msg = "(no status string)";
	fprintf(stderr, "hsa-dispatch-bench:%d: %s failed: status %#x: %s\n", line, what,
		(unsigned)s, msg);
	exit(1);
}

#define CHECK(call)                                             \
	do {                                                    \
		hsa_status_t s_ = (call);                       \
		if (s_ != HSA_STATUS_SUCCESS)                   \
			hsa_fail(s_, #call, __LINE__);          \
	} while (0)

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "hsa-dispatch-bench: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n");
	exit(1);
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);
	if (!p)
		die("out of memory%s", "");
	return p;
}

/* ---- time ---- */

static inline uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The clock of the breakdown (split_*): the runtime's system timestamp
 * domain, which profiling timestamps are converted into.  Both runtimes use
 * KFD's system_clock_counter there, CLOCK_BOOTTIME ns; clock_align() checks
 * that against HSA_SYSTEM_INFO_TIMESTAMP and otherwise adds the offset it
 * measured. */
static clockid_t sys_clock = CLOCK_BOOTTIME;
static int64_t sys_offset; /* system domain ns - sys_clock ns, 0 when they agree */

static inline uint64_t sys_ns(void)
{
	struct timespec ts;
	clock_gettime(sys_clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec + (uint64_t)sys_offset;
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

/* The floor's polling: a pure spin for POLL_SPIN_NS since the last
 * progress (kfdemu's CP spins 20 us after its last packet too), then a
 * yield per poll.  On a machine with fewer free cores than spinning threads
 * (the waiter, the consumer, kfdemu's CP) a pure spin would measure the
 * scheduler's time slice, not the path; the yield keeps the floor a floor. */
#define POLL_SPIN_NS 2000u

struct poll_state {
	uint64_t since; /* 0: progress was just made */
};

static inline void poll_pause(struct poll_state *p)
{
	uint64_t t = now_ns();
	if (!p->since)
		p->since = t;
	if (t - p->since < POLL_SPIN_NS)
		cpu_relax();
	else
		sched_yield();
}

static void sleep_us(unsigned us)
{
	struct timespec ts = { .tv_sec = us / 1000000u, .tv_nsec = (long)(us % 1000000u) * 1000 };
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* ---- results ---- */

struct result {
	const char *metric;
	double *ns; /* sorted samples; NULL for a row of sums (split_*_sum) */
	unsigned n;
	double min, p50, p99, mean;
};

static struct result results[128];
static unsigned n_results;

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Nearest-rank percentile of sorted samples. */
static double pct_of(const double *ns, unsigned n, unsigned p)
{
	size_t rank = ((size_t)n * p + 99) / 100;
	return ns[rank ? rank - 1 : 0];
}

static void print_row(const struct result *r)
{
	printf("%-30s %7u %10.1f %10.1f %10.1f %10.1f\n", r->metric, r->n, r->min, r->p50, r->p99,
	       r->mean);
	fflush(stdout);
}

/* Takes ownership of ns.  Returns the row, or NULL if none was recorded. */
static const struct result *record(const char *metric, double *ns, unsigned n)
{
	if (n == 0 || n_results == sizeof(results) / sizeof(results[0])) {
		free(ns);
		return NULL;
	}
	qsort(ns, n, sizeof(*ns), cmp_double);
	double sum = 0;
	for (unsigned i = 0; i < n; i++)
		sum += ns[i];
	struct result *r = &results[n_results++];
	*r = (struct result){ .metric = metric, .ns = ns, .n = n, .min = ns[0],
			      .p50 = pct_of(ns, n, 50), .p99 = pct_of(ns, n, 99),
			      .mean = sum / n };
	print_row(r);
	return r;
}

/* A row of figures that are sums of other rows' figures (no samples). */
static void record_sums(const char *metric, const double sum[4], unsigned n)
{
	if (n_results == sizeof(results) / sizeof(results[0]))
		return;
	struct result *r = &results[n_results++];
	*r = (struct result){ .metric = metric, .n = n, .min = sum[0], .p50 = sum[1],
			      .p99 = sum[2], .mean = sum[3] };
	print_row(r);
}

static void skip(const char *metric, const char *why)
{
	printf("%-30s skipped: %s\n", metric, why);
	fflush(stdout);
}

/* ---- the HSA side: agent, queue, signals, code object ---- */

static hsa_agent_t gpu, cpu;
static hsa_queue_t *queue;        /* MULTI: every metric but enqueue_1t */
static hsa_queue_t *queue_single; /* SINGLE: enqueue_1t; NULL unless it runs */
static hsa_amd_memory_pool_t kernarg_pool;
static bool have_kernarg_pool;
static char gfx[64];
static uint64_t ts_freq; /* HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, ticks per second */

static hsa_status_t find_agents(hsa_agent_t agent, void *data)
{
	hsa_device_type_t type;
	CHECK(hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type));
	if (type == HSA_DEVICE_TYPE_GPU && !gpu.handle)
		gpu = agent;
	if (type == HSA_DEVICE_TYPE_CPU && !cpu.handle)
		cpu = agent;
	return HSA_STATUS_SUCCESS;
}

static hsa_status_t find_kernarg_pool(hsa_amd_memory_pool_t pool, void *data)
{
	hsa_amd_segment_t seg;
	uint32_t flags = 0;
	CHECK(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg));
	if (seg != HSA_AMD_SEGMENT_GLOBAL)
		return HSA_STATUS_SUCCESS;
	CHECK(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags));
	if ((flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT) && !have_kernarg_pool) {
		kernarg_pool = pool;
		have_kernarg_pool = true;
	}
	return HSA_STATUS_SUCCESS;
}

static void queue_error(hsa_status_t status, hsa_queue_t *q, void *data)
{
	const char *msg = NULL;
	hsa_status_string(status, &msg);
	fprintf(stderr, "hsa-dispatch-bench: queue error %#x: %s\n", (unsigned)status,
		msg ? msg : "?");
}

/* The kernel "empty" (tools/kernels/empty.cl), loaded once. */
static struct {
	bool loaded;
	char why[PATH_MAX + 64]; /* why not, when not */
	uint64_t object;
	uint32_t private_size, group_size;
	void *kernarg;
	hsa_executable_t exe;
	hsa_code_object_reader_t reader;
} kern;

static void default_co_path(char *out, size_t size)
{
	char exe[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len <= 0) {
		snprintf(out, size, "empty.%s.co", gfx);
		return;
	}
	exe[len] = '\0';
	char *slash = strrchr(exe, '/');
	if (slash)
		*slash = '\0';
	if (snprintf(out, size, "%s/empty.%s.co", exe, gfx) >= (int)size)
		snprintf(out, size, "empty.%s.co", gfx); /* too long: the current directory */
}

static void kernel_load(void)
{
	char path[PATH_MAX];
	if (opt.no_kernel) {
		snprintf(kern.why, sizeof(kern.why), "--no-kernel");
		return;
	}
	if (opt.co)
		snprintf(path, sizeof(path), "%s", opt.co);
	else
		default_co_path(path, sizeof(path));
	if (access(path, R_OK)) {
		snprintf(kern.why, sizeof(kern.why), "no code object %s (--co)", path);
		return;
	}
	if (!have_kernarg_pool) {
		snprintf(kern.why, sizeof(kern.why), "no kernarg pool on the CPU agent");
		return;
	}
	hsa_file_t fd = open(path, O_RDONLY);
	if (fd < 0)
		die("cannot open %s", path);
	CHECK(hsa_code_object_reader_create_from_file(fd, &kern.reader));
	CHECK(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
					NULL, &kern.exe));
	CHECK(hsa_executable_load_agent_code_object(kern.exe, gpu, kern.reader, NULL, NULL));
	CHECK(hsa_executable_freeze(kern.exe, NULL));
	close(fd);
	hsa_executable_symbol_t sym;
	CHECK(hsa_executable_get_symbol_by_name(kern.exe, "empty.kd", &gpu, &sym));
	uint32_t kernarg_size = 0;
	CHECK(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT,
					     &kern.object));
	CHECK(hsa_executable_symbol_get_info(
		sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, &kernarg_size));
	CHECK(hsa_executable_symbol_get_info(
		sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE, &kern.private_size));
	CHECK(hsa_executable_symbol_get_info(
		sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE, &kern.group_size));
	size_t ka = kernarg_size < 64 ? 64 : kernarg_size;
	CHECK(hsa_amd_memory_pool_allocate(kernarg_pool, ka, 0, &kern.kernarg));
	CHECK(hsa_amd_agents_allow_access(1, &gpu, NULL, kern.kernarg));
	memset(kern.kernarg, 0, ka);
	kern.loaded = true;
}

static void kernel_unload(void)
{
	if (!kern.loaded)
		return;
	CHECK(hsa_amd_memory_pool_free(kern.kernarg));
	CHECK(hsa_executable_destroy(kern.exe));
	CHECK(hsa_code_object_reader_destroy(kern.reader));
}

/* ---- packets ---- */

enum kind { BARRIER, KERNEL };

static uint16_t header_of(enum kind k, bool barrier_bit)
{
	unsigned type = k == KERNEL ? HSA_PACKET_TYPE_KERNEL_DISPATCH : HSA_PACKET_TYPE_BARRIER_AND;
	return (uint16_t)(type << HSA_PACKET_HEADER_TYPE |
			  (barrier_bit ? 1u : 0u) << HSA_PACKET_HEADER_BARRIER |
			  HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE |
			  HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE);
}

/* The first 32 bits of a packet: header | setup << 16 (setup: 1 dimension). */
static uint32_t first_word(enum kind k, bool barrier_bit)
{
	uint32_t setup = k == KERNEL ? 1u << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS : 0;
	return header_of(k, barrier_bit) | setup << 16;
}

/* Writes bytes 4..63 of a packet; the header stays as it is (INVALID). */
static void write_body(void *slot, enum kind k, uint64_t completion)
{
	if (k == KERNEL) {
		hsa_kernel_dispatch_packet_t p = {
			.workgroup_size_x = 1, .workgroup_size_y = 1, .workgroup_size_z = 1,
			.grid_size_x = 1, .grid_size_y = 1, .grid_size_z = 1,
			.private_segment_size = kern.private_size,
			.group_segment_size = kern.group_size,
			.kernel_object = kern.object,
			.kernarg_address = kern.kernarg,
			.completion_signal = { completion },
		};
		memcpy((char *)slot + 4, (char *)&p + 4, sizeof(p) - 4);
	} else {
		hsa_barrier_and_packet_t p = { .completion_signal = { completion } };
		memcpy((char *)slot + 4, (char *)&p + 4, sizeof(p) - 4);
	}
}

/* Release store of the first word: pairs with the packet processor's
 * acquire load of the header; the body written before it is visible. */
static inline void publish(void *slot, uint32_t word)
{
	atomic_store_explicit((_Atomic uint32_t *)slot, word, memory_order_release);
}

/* ---- the floor: a private ring and an in-process packet consumer ---- */

static inline long futex(_Atomic uint32_t *addr, int op, uint32_t val)
{
	return syscall(SYS_futex, addr, op, val, NULL, NULL, 0);
}

/* A completion counter the floor's consumer decrements, and a futex word a
 * blocked waiter sleeps on.  The handle in a packet is its address. */
struct ref_signal {
	_Atomic int64_t value;
	_Atomic uint32_t seq;     /* bumped after every decrement */
	_Atomic uint32_t waiters; /* sleepers on seq */
	/* when ref.stamp: the consumer's sys_ns() at pickup and just before
	 * the decrement, as a profiling CP writes start_ts/end_ts */
	_Atomic uint64_t start_ts, end_ts;
};

struct ref_ring {
	void *base;
	uint32_t size;
	_Atomic uint64_t write_index;
	_Atomic uint64_t read_index;
	_Atomic uint64_t doorbell; /* last published index + 1 */
	_Atomic bool stop;
	bool stamp; /* write start_ts/end_ts (the split floors) */
	pthread_t consumer;
};

static struct ref_ring ref;

/* The floor's packet processor: polls the doorbell, takes each packet once
 * its header is valid (acquire; pairs with publish()), decrements the
 * completion counter, wakes a sleeper, marks the slot INVALID and advances
 * the read index (release; pairs with the producers' room check). */
static void *ref_consumer(void *arg)
{
	uint64_t rd = atomic_load_explicit(&ref.read_index, memory_order_relaxed);
	struct poll_state polls = { 0 };
	while (!atomic_load_explicit(&ref.stop, memory_order_relaxed)) {
		uint64_t db = atomic_load_explicit(&ref.doorbell, memory_order_acquire);
		if (rd >= db) {
			poll_pause(&polls);
			continue;
		}
		_Atomic uint32_t *slot = (_Atomic uint32_t *)((char *)ref.base +
							      (rd & (ref.size - 1)) * 64);
		uint32_t w = atomic_load_explicit(slot, memory_order_acquire);
		if ((w & 0xff) == HSA_PACKET_TYPE_INVALID) {
			poll_pause(&polls);
			continue;
		}
		uint64_t start = ref.stamp ? sys_ns() : 0;
		uint64_t handle;
		memcpy(&handle, (char *)slot + 56, sizeof(handle));
		if (handle) {
			struct ref_signal *s = (struct ref_signal *)(uintptr_t)handle;
			if (ref.stamp) {
				/* relaxed: published by the decrement below */
				atomic_store_explicit(&s->start_ts, start, memory_order_relaxed);
				atomic_store_explicit(&s->end_ts, sys_ns(), memory_order_relaxed);
			}
			/* seq_cst (so release): pairs with the waiter's load */
			atomic_fetch_sub(&s->value, 1);
			atomic_fetch_add(&s->seq, 1);
			if (atomic_load(&s->waiters))
				futex(&s->seq, FUTEX_WAKE_PRIVATE, INT_MAX);
		}
		atomic_store_explicit(slot, HSA_PACKET_TYPE_INVALID, memory_order_relaxed);
		atomic_store_explicit(&ref.read_index, ++rd, memory_order_release);
		polls.since = 0;
	}
	return NULL;
}

/* stamp: the consumer writes start_ts/end_ts (set before it starts). */
static void ref_init(bool with_consumer, bool stamp)
{
	ref.stamp = stamp;
	ref.size = opt.queue_size;
	ref.base = aligned_alloc(64, (size_t)ref.size * 64);
	if (!ref.base)
		die("out of memory%s", "");
	for (uint32_t i = 0; i < ref.size; i++)
		*(uint32_t *)((char *)ref.base + (size_t)i * 64) = HSA_PACKET_TYPE_INVALID;
	atomic_init(&ref.write_index, 0);
	atomic_init(&ref.read_index, 0);
	atomic_init(&ref.doorbell, 0);
	atomic_init(&ref.stop, false);
	if (with_consumer && pthread_create(&ref.consumer, NULL, ref_consumer, NULL))
		die("pthread_create failed%s", "");
}

static void ref_fini(bool with_consumer)
{
	atomic_store(&ref.stop, true);
	if (with_consumer)
		pthread_join(ref.consumer, NULL);
	free(ref.base);
}

/* Waits for a ref_signal to drop below 1: spinning, or asleep on the futex
 * (no spin first: the floor of a blocked wait). */
static void ref_wait(struct ref_signal *s, bool blocked)
{
	struct poll_state polls = { 0 };
	if (!blocked) {
		/* the least a spinning wait can do: an acquire load (pairs with
		 * the consumer's decrement) and a pause per poll, the clock
		 * (poll_pause: yield once spinning is hopeless) only every 64
		 * polls, so a poll is not a clock read long */
		for (unsigned i = 1;; i++) {
			if (atomic_load_explicit(&s->value, memory_order_acquire) < 1)
				return;
			if (i % 64)
				cpu_relax();
			else
				poll_pause(&polls);
		}
	}
	for (;;) {
		uint32_t seq = atomic_load(&s->seq);
		if (atomic_load(&s->value) < 1)
			return;
		atomic_fetch_add(&s->waiters, 1);
		futex(&s->seq, FUTEX_WAIT_PRIVATE, seq);
		atomic_fetch_sub(&s->waiters, 1);
	}
}

/* ---- one submission path over either ring ---- */

/* Either an HSA queue (through the API, as an application does) or the
 * floor's private ring (inline atomics).  The branches are taken the same
 * way every time, so they cost nothing measurable. */
struct ring {
	bool is_ref;
	hsa_queue_t *q;     /* the HSA queue; NULL for the floor's ring */
	uint32_t size;
	void *base;
	bool can_wait_room; /* false without a packet processor */
};

/* The floor's reservation is the least a runtime must do for the queue's
 * contract: a locked fetch_add (release), the only way concurrent producers
 * get distinct slots without a lock, which HSA programs expect of every
 * queue type (ROCr and hsalite reserve so on SINGLE queues too). */
static inline uint64_t ring_reserve(const struct ring *r, uint64_t n)
{
	if (r->is_ref)
		return atomic_fetch_add_explicit(&ref.write_index, n, memory_order_release);
	return hsa_queue_add_write_index_screlease(r->q, n);
}

static inline uint64_t ring_read_index(const struct ring *r)
{
	if (r->is_ref)
		return atomic_load_explicit(&ref.read_index, memory_order_acquire);
	return hsa_queue_load_read_index_scacquire(r->q);
}

static inline void ring_doorbell(const struct ring *r, uint64_t idx)
{
	if (r->is_ref)
		atomic_store_explicit(&ref.doorbell, idx + 1, memory_order_release);
	else
		hsa_signal_store_screlease(r->q->doorbell_signal, (hsa_signal_value_t)idx);
}

static inline void *ring_slot(const struct ring *r, uint64_t idx)
{
	return (char *)r->base + (idx & (r->size - 1)) * 64;
}

/* Room for packets [idx, idx + n): the protocol's check.  Without a packet
 * processor nothing frees room, so the load is done and not waited on. */
static inline void ring_wait_room(const struct ring *r, uint64_t idx, uint64_t n)
{
	while (idx + n - ring_read_index(r) > r->size && r->can_wait_room)
		sched_yield();
}

/* A completion signal of either kind. */
struct completion {
	bool is_ref;
	hsa_signal_t sig;
	struct ref_signal rs;
};

static uint64_t completion_handle(struct completion *c)
{
	return c->is_ref ? (uint64_t)(uintptr_t)&c->rs : c->sig.handle;
}

static void completion_set(struct completion *c, int64_t v)
{
	if (c->is_ref)
		atomic_store(&c->rs.value, v);
	else
		hsa_signal_store_screlease(c->sig, v);
}

static void completion_wait(struct completion *c, bool blocked)
{
	if (c->is_ref) {
		ref_wait(&c->rs, blocked);
		return;
	}
	hsa_wait_state_t hint = blocked ? HSA_WAIT_STATE_BLOCKED : HSA_WAIT_STATE_ACTIVE;
	while (hsa_signal_wait_scacquire(c->sig, HSA_SIGNAL_CONDITION_LT, 1, UINT64_MAX, hint) >= 1)
		;
}

static void completion_init(struct completion *c, bool is_ref)
{
	memset(c, 0, sizeof(*c));
	c->is_ref = is_ref;
	if (!is_ref)
		CHECK(hsa_signal_create(0, 0, NULL, &c->sig));
}

static void completion_fini(struct completion *c)
{
	if (!c->is_ref) {
		CHECK(hsa_signal_destroy(c->sig));
		return;
	}
	/* The floor's consumer still touches the counter (seq, waiters) after
	 * the decrement the waiter saw; the counter lives on the caller's
	 * stack and is reused by the next run.  The consumer's last access to
	 * a packet's counter precedes its release store of read_index: wait
	 * until it has passed every reserved packet (acquire; pairs with that
	 * store in ref_consumer).  Outside every timed region. */
	uint64_t reserved = atomic_load_explicit(&ref.write_index, memory_order_relaxed);
	while (atomic_load_explicit(&ref.read_index, memory_order_acquire) < reserved)
		sched_yield();
}

static struct ring hsa_ring(hsa_queue_t *q, bool cp)
{
	return (struct ring){ .is_ref = false, .q = q, .size = q->size, .base = q->base_address,
			      .can_wait_room = cp };
}

static struct ring ref_ring(bool consumer)
{
	return (struct ring){ .is_ref = true, .size = ref.size,
			      .base = ref.base, .can_wait_room = consumer };
}

/* ---- Single and Multi ---- */

static double *run_single(const struct ring *r, enum kind k, bool blocked, unsigned *n_out)
{
	struct completion c;
	completion_init(&c, r->is_ref);
	double *ns = xcalloc(opt.iters, sizeof(double));
	uint32_t word = first_word(k, true);
	for (unsigned i = 0; i <= opt.iters; i++) {
		completion_set(&c, 1);
		uint64_t idx = ring_reserve(r, 1);
		ring_wait_room(r, idx, 1);
		void *slot = ring_slot(r, idx);
		write_body(slot, k, completion_handle(&c));
		uint64_t t0 = now_ns();
		publish(slot, word);
		ring_doorbell(r, idx);
		completion_wait(&c, blocked);
		uint64_t t1 = now_ns();
		if (i > 0) /* the first round trip warms caches and the CP: dropped */
			ns[i - 1] = (double)(t1 - t0);
	}
	completion_fini(&c);
	*n_out = opt.iters;
	return ns;
}

static double *run_multi(const struct ring *r, enum kind k, bool blocked, unsigned *n_out)
{
	unsigned batch = opt.batch < r->size ? opt.batch : r->size;
	struct completion c;
	completion_init(&c, r->is_ref);
	double *ns = xcalloc(opt.reps, sizeof(double));
	for (unsigned rep = 0; rep <= opt.reps; rep++) {
		completion_set(&c, batch);
		uint64_t base = ring_reserve(r, batch);
		ring_wait_room(r, base, batch);
		for (unsigned i = 0; i < batch; i++)
			write_body(ring_slot(r, base + i), k, completion_handle(&c));
		/* Headers in reverse; the processor stops at the first packet's
		 * INVALID header until the timer runs.  Only the last packet
		 * carries the barrier bit, as in rocrtst. */
		for (unsigned i = batch - 1; i > 0; i--)
			publish(ring_slot(r, base + i), first_word(k, i == batch - 1));
		uint64_t t0 = now_ns();
		publish(ring_slot(r, base), first_word(k, batch == 1));
		ring_doorbell(r, base + batch - 1);
		completion_wait(&c, blocked);
		uint64_t t1 = now_ns();
		if (rep > 0)
			ns[rep - 1] = (double)(t1 - t0) / batch;
	}
	completion_fini(&c);
	*n_out = opt.reps;
	return ns;
}

/* ---- the breakdown of one round trip (split_*) ---- */

/* One Single round trip, on the system clock (sys_ns), cut where the
 * profiling timestamps of its completion signal fall:
 *   t0 reserve ... body, header, doorbell store returns t1
 *   start_ts (the CP picked the packet up), end_ts (it wrote the signal)
 *   the wait returns t2
 * submit = t1 - t0, pickup = start - t1, execute = end - start,
 * wake = t2 - end, whole = t2 - t0.  The parts of one sample add up to
 * its whole exactly (they telescope); their p50s need not, and a part is
 * negative when the clocks disagree by more than it lasts. */
enum part { P_SUBMIT, P_PICKUP, P_EXECUTE, P_WAKE, P_SUM, P_WHOLE, N_PARTS };
static const char *const part_names[N_PARTS] = { "submit", "pickup", "execute", "wake",
						 "sum", "whole" };

struct split {
	double *ns[N_PARTS]; /* P_SUM unused: the sum row is computed from the parts */
	unsigned n;
	unsigned negative;   /* samples with a part below zero */
	char why[160];       /* non-empty: no usable timestamps, whole only */
};

/* What a profiling-timestamp read costs, and whether the two conversions
 * agree: hsa_amd_profiling_get_dispatch_time per call, and
 * hsa_amd_profiling_convert_tick_to_system_domain of the raw end tick
 * (amd_signal_t.end_ts; the handle is the amd_signal_t) against the end
 * get_dispatch_time gave. */
static struct {
	double *get_ns, *tick_ns;
	unsigned n_get, n_tick, cap;
	int64_t tick_diff_max; /* |convert_tick(end_ts) - dispatch_time.end|, ns */
} conv;

static uint64_t sys_ticks_to_ns(uint64_t t)
{
	if (ts_freq == 1000000000u)
		return t;
	return (uint64_t)((unsigned __int128)t * 1000000000u / ts_freq);
}

static void conv_note(double *arr, unsigned *n, double v)
{
	if (*n < conv.cap)
		arr[(*n)++] = v;
}

/* The packet's start and end in sys_ns() terms; false (and why) if the
 * runtime has none for it. */
static bool split_stamps(struct completion *c, uint64_t *start, uint64_t *end, char *why,
			 size_t why_size)
{
	if (c->is_ref) {
		*start = atomic_load_explicit(&c->rs.start_ts, memory_order_relaxed);
		*end = atomic_load_explicit(&c->rs.end_ts, memory_order_relaxed);
		return true;
	}
	hsa_amd_profiling_dispatch_time_t dt;
	uint64_t a = now_ns();
	hsa_status_t st = hsa_amd_profiling_get_dispatch_time(gpu, c->sig, &dt);
	uint64_t b = now_ns();
	if (st != HSA_STATUS_SUCCESS) {
		const char *msg = NULL;
		hsa_status_string(st, &msg);
		snprintf(why, why_size, "hsa_amd_profiling_get_dispatch_time: %s",
			 msg ? msg : "failed");
		return false;
	}
	conv_note(conv.get_ns, &conv.n_get, (double)(b - a));
	const amd_signal_t *as = (const amd_signal_t *)(uintptr_t)c->sig.handle;
	uint64_t raw_end = as->end_ts, sys_end = 0;
	if (!raw_end || !as->start_ts) {
		snprintf(why, why_size, "the CP wrote no start_ts/end_ts into the completion signal");
		return false;
	}
	a = now_ns();
	st = hsa_amd_profiling_convert_tick_to_system_domain(gpu, raw_end, &sys_end);
	b = now_ns();
	if (st == HSA_STATUS_SUCCESS) {
		conv_note(conv.tick_ns, &conv.n_tick, (double)(b - a));
		int64_t d = (int64_t)(sys_end - dt.end);
		if (d < 0)
			d = -d;
		if (d > conv.tick_diff_max)
			conv.tick_diff_max = d;
	}
	*start = sys_ticks_to_ns(dt.start);
	*end = sys_ticks_to_ns(dt.end);
	return true;
}

static void run_split(const struct ring *r, enum kind k, bool blocked, struct split *sp)
{
	struct completion c;
	completion_init(&c, r->is_ref);
	memset(sp, 0, sizeof(*sp));
	for (unsigned p = 0; p < N_PARTS; p++)
		sp->ns[p] = xcalloc(opt.iters, sizeof(double));
	uint32_t word = first_word(k, true);
	uint64_t prev_start = 0, prev_end = 0;
	for (unsigned i = 0; i <= opt.iters; i++) {
		completion_set(&c, 1);
		uint64_t t0 = sys_ns();
		uint64_t idx = ring_reserve(r, 1);
		ring_wait_room(r, idx, 1);
		void *slot = ring_slot(r, idx);
		write_body(slot, k, completion_handle(&c));
		publish(slot, word);
		ring_doorbell(r, idx);
		uint64_t t1 = sys_ns();
		completion_wait(&c, blocked);
		uint64_t t2 = sys_ns();
		uint64_t start = 0, end = 0;
		if (!sp->why[0] && split_stamps(&c, &start, &end, sp->why, sizeof(sp->why))) {
			/* a CP that writes none leaves the last packet's (or 0) */
			if (!start || !end || end < start || (start == prev_start && end == prev_end))
				snprintf(sp->why, sizeof(sp->why),
					 "start_ts/end_ts missing or stale (start %llu, end %llu)",
					 (unsigned long long)start, (unsigned long long)end);
			/* more than 1 ms outside the round trip: not one clock */
			else if (start + 1000000u < t0 || end > t2 + 1000000u)
				snprintf(sp->why, sizeof(sp->why),
					 "timestamps %lld/%lld ns off the round trip: the system "
					 "domain is not this clock",
					 (long long)(start - t0), (long long)(end - t2));
			prev_start = start;
			prev_end = end;
		}
		if (i == 0) /* warms caches and the CP: dropped */
			continue;
		unsigned j = i - 1;
		sp->ns[P_WHOLE][j] = (double)(int64_t)(t2 - t0);
		if (sp->why[0])
			continue;
		double part[4] = { (double)(int64_t)(t1 - t0), (double)(int64_t)(start - t1),
				   (double)(int64_t)(end - start), (double)(int64_t)(t2 - end) };
		bool neg = false;
		for (unsigned p = 0; p < 4; p++) {
			sp->ns[p][j] = part[p];
			neg |= part[p] < 0;
		}
		sp->negative += neg;
	}
	completion_fini(&c);
	sp->n = opt.iters;
}

/* Records a split's rows: <name>_<part>, and <name>_sum whose figures are
 * the sums of the parts' figures (the sum of the p50s is what the script
 * compares with the whole's p50). */
static void record_split(const char *name, struct split *sp)
{
	static char names[64][48];
	static unsigned n_names;
	if (sp->why[0]) {
		printf("%-30s profiling timestamps unavailable (%s): whole round trip only\n",
		       name, sp->why);
		for (unsigned p = 0; p < P_WHOLE; p++)
			free(sp->ns[p]);
	}
	double sum[4] = { 0 };
	for (unsigned p = 0; p < N_PARTS; p++) {
		if (sp->why[0] && p != P_WHOLE)
			continue;
		if (p == P_SUM) {
			free(sp->ns[p]);
			continue;
		}
		if (n_names == sizeof(names) / sizeof(names[0]))
			die("too many split rows%s", "");
		char *row = names[n_names++];
		snprintf(row, sizeof(names[0]), "%s_%s", name, part_names[p]);
		const struct result *res = record(row, sp->ns[p], sp->n);
		if (p < P_SUM && res) {
			sum[0] += res->min;
			sum[1] += res->p50;
			sum[2] += res->p99;
			sum[3] += res->mean;
		}
		if (p == P_WAKE) {
			/* the parts' min, p50, p99 and mean, each summed */
			if (n_names == sizeof(names) / sizeof(names[0]))
				die("too many split rows%s", "");
			char *srow = names[n_names++];
			snprintf(srow, sizeof(names[0]), "%s_sum", name);
			record_sums(srow, sum, sp->n);
		}
	}
	if (!sp->why[0] && sp->negative)
		printf("  (%u of %u samples have a negative part: the clocks disagree by that much)\n",
		       sp->negative, sp->n);
}

/* ---- host enqueue cost, one or two producers ---- */

struct producer {
	const struct ring *r;
	pthread_barrier_t *start;
	double *ns;
	unsigned n;
};

static void *produce(void *arg)
{
	struct producer *p = arg;
	const struct ring *r = p->r;
	unsigned groups = opt.enqueue / opt.group;
	uint32_t word = first_word(BARRIER, false);
	p->ns = xcalloc(groups, sizeof(double));
	pthread_barrier_wait(p->start);
	for (unsigned g = 0; g < groups; g++) {
		/* Room for the whole group of both producers, untimed: the
		 * timed room checks below then never wait for the processor. */
		if (r->can_wait_room) {
			uint64_t need = 2ull * opt.group;
			for (;;) {
				uint64_t wr = r->is_ref ? atomic_load(&ref.write_index)
							: hsa_queue_load_write_index_relaxed(r->q);
				if (wr + need - ring_read_index(r) <= r->size)
					break;
				sched_yield();
			}
		}
		uint64_t last = 0;
		uint64_t t0 = now_ns();
		for (unsigned i = 0; i < opt.group; i++) {
			uint64_t idx = ring_reserve(r, 1);
			ring_wait_room(r, idx, 1);
			void *slot = ring_slot(r, idx);
			write_body(slot, BARRIER, 0);
			publish(slot, word);
			last = idx;
		}
		uint64_t t1 = now_ns();
		ring_doorbell(r, last);
		p->ns[g] = (double)(t1 - t0) / opt.group;
	}
	p->n = groups;
	return NULL;
}

static double *run_enqueue(const struct ring *r, unsigned threads, unsigned *n_out)
{
	struct producer p[2];
	pthread_t tid[2];
	pthread_barrier_t start;
	if (pthread_barrier_init(&start, NULL, threads))
		die("pthread_barrier_init failed%s", "");
	for (unsigned t = 0; t < threads; t++) {
		p[t] = (struct producer){ .r = r, .start = &start };
		if (t > 0 && pthread_create(&tid[t], NULL, produce, &p[t]))
			die("pthread_create failed%s", "");
	}
	produce(&p[0]);
	for (unsigned t = 1; t < threads; t++)
		pthread_join(tid[t], NULL);
	pthread_barrier_destroy(&start);
	unsigned n = 0;
	for (unsigned t = 0; t < threads; t++)
		n += p[t].n;
	double *ns = xcalloc(n, sizeof(double));
	unsigned at = 0;
	for (unsigned t = 0; t < threads; t++) {
		memcpy(ns + at, p[t].ns, p[t].n * sizeof(double));
		at += p[t].n;
		free(p[t].ns);
	}
	*n_out = n;
	return ns;
}

/* ---- wake-up of a waiter ---- */

enum waiter_kind { W_HSA, W_FUTEX, W_ATOMIC };

struct waiter {
	enum waiter_kind kind;
	bool blocked;
	hsa_signal_t sig;
	_Atomic uint32_t word; /* W_FUTEX and W_ATOMIC: 0 → 1 */
	_Atomic unsigned go;   /* round the waiter may start */
	_Atomic unsigned done; /* rounds the waiter has finished */
	_Atomic pid_t tid;
	uint64_t *woke;        /* per round: when the waiter returned */
};

static void *waiter_main(void *arg)
{
	struct waiter *w = arg;
	atomic_store(&w->tid, (pid_t)syscall(SYS_gettid));
	for (unsigned k = 1; k <= opt.wakeups + 1; k++) {
		while (atomic_load_explicit(&w->go, memory_order_acquire) != k)
			sched_yield();
		switch (w->kind) {
		case W_HSA:
			while (hsa_signal_wait_scacquire(w->sig, HSA_SIGNAL_CONDITION_EQ, 1,
							 UINT64_MAX,
							 w->blocked ? HSA_WAIT_STATE_BLOCKED
								    : HSA_WAIT_STATE_ACTIVE) != 1)
				;
			break;
		case W_FUTEX:
			while (atomic_load_explicit(&w->word, memory_order_acquire) != 1)
				futex(&w->word, FUTEX_WAIT_PRIVATE, 0);
			break;
		case W_ATOMIC: {
			struct poll_state polls = { 0 };
			while (atomic_load_explicit(&w->word, memory_order_acquire) != 1)
				poll_pause(&polls);
			break;
		}
		}
		w->woke[k - 1] = now_ns();
		atomic_store_explicit(&w->done, k, memory_order_release);
	}
	return NULL;
}

/* The thread's scheduler state from /proc: 'S' once it sleeps in the kernel. */
static char thread_state(pid_t tid)
{
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	FILE *f = fopen(path, "r");
	if (!f)
		return '?';
	size_t len = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[len] = '\0';
	char *paren = strrchr(buf, ')');
	return paren && paren[1] == ' ' ? paren[2] : '?';
}

static double *run_wakeup(enum waiter_kind kind, bool blocked, unsigned *n_out,
			  unsigned *never_slept)
{
	struct waiter w = { .kind = kind, .blocked = blocked };
	w.woke = xcalloc(opt.wakeups + 1, sizeof(uint64_t));
	if (kind == W_HSA)
		CHECK(hsa_signal_create(0, 0, NULL, &w.sig));
	pthread_t tid;
	if (pthread_create(&tid, NULL, waiter_main, &w))
		die("pthread_create failed%s", "");
	while (!atomic_load(&w.tid))
		sched_yield();
	double *ns = xcalloc(opt.wakeups, sizeof(double));
	*never_slept = 0;
	for (unsigned k = 1; k <= opt.wakeups + 1; k++) {
		if (kind == W_HSA)
			hsa_signal_store_screlease(w.sig, 0);
		else
			atomic_store(&w.word, 0);
		atomic_store_explicit(&w.go, k, memory_order_release);
		if (blocked) {
			/* Past any spin phase (ROCr spins 200 us), then until the
			 * waiter is seen asleep, for at most 100 ms. */
			sleep_us(opt.sleep_us);
			uint64_t give_up = now_ns() + 100000000u;
			while (thread_state(w.tid) != 'S' && now_ns() < give_up)
				sleep_us(20);
			if (thread_state(w.tid) != 'S')
				++*never_slept;
		} else {
			sleep_us(50);
		}
		uint64_t t0 = now_ns();
		if (kind == W_HSA) {
			hsa_signal_store_screlease(w.sig, 1);
		} else {
			atomic_store_explicit(&w.word, 1, memory_order_release);
			if (kind == W_FUTEX)
				futex(&w.word, FUTEX_WAKE_PRIVATE, 1);
		}
		while (atomic_load_explicit(&w.done, memory_order_acquire) != k)
			sched_yield();
		if (k > 1)
			ns[k - 2] = (double)(w.woke[k - 1] - t0);
	}
	pthread_join(tid, NULL);
	if (kind == W_HSA)
		CHECK(hsa_signal_destroy(w.sig));
	free(w.woke);
	*n_out = opt.wakeups;
	return ns;
}

/* ---- metric table and selection ---- */

/* A metric runs when a token of --metrics is a prefix of its name.  A floor
 * (floor_X) runs with the metrics it is the floor of: when a token is a
 * prefix of X, or X a prefix of the token (floor_single_spin is the floor of
 * single_spin_barrier and single_spin_kernel). */
static bool selected(const char *metric)
{
	if (!strcmp(opt.metrics, "all"))
		return true;
	bool floor = !strncmp(metric, "floor_", 6);
	const char *base = floor ? metric + 6 : metric;
	char list[512];
	snprintf(list, sizeof(list), "%s", opt.metrics);
	char *save = NULL;
	for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strncmp(metric, tok, strlen(tok)))
			return true;
		if (floor && (!strncmp(base, tok, strlen(tok)) ||
			      !strncmp(tok, base, strlen(base))))
			return true;
	}
	return false;
}

static const char *const metric_names[] = {
	"enqueue_1t", "enqueue_1t_multi", "enqueue_2t", "floor_enqueue_1t",
	"floor_enqueue_1t_multi", "floor_enqueue_2t",
	"wakeup_blocked", "wakeup_spin", "floor_wakeup_blocked", "floor_wakeup_spin",
	"single_spin_barrier", "single_blocked_barrier", "single_spin_kernel",
	"single_blocked_kernel", "floor_single_spin", "floor_single_blocked",
	"multi_spin_barrier", "multi_blocked_barrier", "multi_spin_kernel",
	"multi_blocked_kernel", "floor_multi_spin", "floor_multi_blocked",
#define SPLIT_ROWS(m) m "_submit", m "_pickup", m "_execute", m "_wake", m "_sum", m "_whole"
	SPLIT_ROWS("split_spin_barrier"), SPLIT_ROWS("split_blocked_barrier"),
	SPLIT_ROWS("split_spin_kernel"), SPLIT_ROWS("split_blocked_kernel"),
	SPLIT_ROWS("floor_split_spin"), SPLIT_ROWS("floor_split_blocked"),
#undef SPLIT_ROWS
	"convert_dispatch_time", "convert_tick",
};
#define N_METRICS (sizeof(metric_names) / sizeof(metric_names[0]))

static bool want(const char *metric)
{
	if (!strncmp(metric, "floor_", 6) && !opt.floors)
		return false;
	return selected(metric);
}

/* Whether any metric whose name starts with prefix is wanted. */
static bool want_any(const char *prefix)
{
	for (size_t i = 0; i < N_METRICS; i++)
		if (!strncmp(metric_names[i], prefix, strlen(prefix)) && want(metric_names[i]))
			return true;
	return false;
}

/* The breakdown's host clock against the runtime's system timestamp domain
 * (HSA_SYSTEM_INFO_TIMESTAMP, where profiling timestamps are converted
 * to): the narrowest of 64 brackets [a, b] of clock readings around one
 * HSA_SYSTEM_INFO_TIMESTAMP.  Within the bracket's width the domain is
 * CLOCK_BOOTTIME itself (KFD's system_clock_counter, both runtimes): no
 * offset, no error but the clocks' own.  Otherwise the measured offset is
 * added and its error is half the width (printed). */
static void clock_align(void)
{
	uint64_t best_w = UINT64_MAX;
	int64_t best_off = 0;
	for (unsigned i = 0; i < 64; i++) {
		uint64_t a = sys_ns(), t;
		if (hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &t) != HSA_STATUS_SUCCESS)
			return;
		uint64_t b = sys_ns();
		if (b - a < best_w) {
			best_w = b - a;
			best_off = (int64_t)(sys_ticks_to_ns(t) - (a + (b - a) / 2));
		}
	}
	if (best_off <= (int64_t)best_w && best_off >= -(int64_t)best_w) {
		printf("clock: host CLOCK_BOOTTIME is the system timestamp domain (offset %lld ns, "
		       "within the %llu ns bracket of HSA_SYSTEM_INFO_TIMESTAMP): no conversion\n",
		       (long long)best_off, (unsigned long long)best_w);
		return;
	}
	sys_offset = best_off;
	printf("clock: the system timestamp domain is CLOCK_BOOTTIME %+lld ns (+- %llu ns): "
	       "added to every host reading of the breakdown\n", (long long)best_off,
	       (unsigned long long)(best_w / 2));
}

/* A CP is there if it consumes a barrier packet within --probe-ms. */
static bool probe_cp(void)
{
	struct completion c;
	completion_init(&c, false);
	completion_set(&c, 1);
	struct ring r = hsa_ring(queue, false);
	uint64_t idx = ring_reserve(&r, 1);
	void *slot = ring_slot(&r, idx);
	write_body(slot, BARRIER, completion_handle(&c));
	publish(slot, first_word(BARRIER, true));
	ring_doorbell(&r, idx);
	uint64_t deadline = now_ns() + (uint64_t)opt.probe_ms * 1000000u;
	uint64_t ticks = ts_freq / 1000 * 10; /* wait 10 ms at a time */
	bool done = false;
	while (!done && now_ns() < deadline)
		done = hsa_signal_wait_scacquire(c.sig, HSA_SIGNAL_CONDITION_LT, 1, ticks,
						 HSA_WAIT_STATE_BLOCKED) < 1;
	completion_fini(&c);
	return done;
}

/* ---- output ---- */

static void write_csv(void)
{
	FILE *f = fopen(opt.csv, "w");
	if (!f)
		die("cannot write %s", opt.csv);
	fprintf(f, "label,metric,unit,samples,min,p50,p99,mean\n");
	for (unsigned i = 0; i < n_results; i++) {
		const struct result *r = &results[i];
		fprintf(f, "%s,%s,ns,%u,%.1f,%.1f,%.1f,%.1f\n", opt.label, r->metric, r->n,
			r->min, r->p50, r->p99, r->mean);
	}
	if (fclose(f))
		die("cannot write %s", opt.csv);
}

/* gnuplot is a foreign program that needs neither kfdemu's shim nor the
 * sanitizer runtime an ASan build preloads (LeakSanitizer would fail it on
 * libedit's leaks): it and its shell run without our LD_PRELOAD.  This
 * process is loaded already, so dropping the variable changes only children. */
static void drop_preload_for_children(void)
{
	unsetenv("LD_PRELOAD");
}

static bool gnuplot_present(void)
{
	drop_preload_for_children();
	return system("gnuplot --version >/dev/null 2>&1") == 0;
}

/* Whether a row gets a histogram: rows with samples, and of a split only
 * its whole (its parts go into the stacked bar). */
static bool plotted(const struct result *r)
{
	if (!r->ns)
		return false;
	if (strncmp(r->metric, "split_", 6) && strncmp(r->metric, "floor_split_", 12))
		return true;
	size_t len = strlen(r->metric);
	return len > 6 && !strcmp(r->metric + len - 6, "_whole");
}

/* The p50 of <split>_<part>, or -1. */
static double split_p50(const char *split, const char *part)
{
	char name[64];
	snprintf(name, sizeof(name), "%s_%s", split, part);
	for (unsigned i = 0; i < n_results; i++)
		if (!strcmp(results[i].metric, name))
			return results[i].p50;
	return -1;
}

/* One histogram per metric (samples up to p99 or 4 x p50) in a grid, and,
 * when a breakdown ran, a stacked bar of its parts' p50s, into a PNG. */
static void write_plot(void)
{
	unsigned panels = 0;
	for (unsigned i = 0; i < n_results; i++)
		panels += plotted(&results[i]);
	/* the splits with parts: their wholes name them */
	const char *splits[16];
	unsigned n_splits = 0;
	for (unsigned i = 0; i < n_results && n_splits < 16; i++) {
		const char *m = results[i].metric;
		size_t len = strlen(m);
		if (len > 7 && !strcmp(m + len - 7, "_submit")) {
			static char buf[16][48];
			snprintf(buf[n_splits], sizeof(buf[0]), "%.*s", (int)(len - 7), m);
			splits[n_splits] = buf[n_splits];
			n_splits++;
		}
	}
	if (!panels)
		die("--plot %s: no metric was measured", opt.plot);
	char data[] = "/tmp/hsa-dispatch-bench-XXXXXX";
	int fd = mkstemp(data);
	if (fd < 0)
		die("cannot create %s", data);
	FILE *f = fdopen(fd, "w");
	if (!f)
		die("cannot write %s", data);
	for (unsigned i = 0; i < n_results; i++) {
		const struct result *r = &results[i];
		if (!plotted(r))
			continue;
		for (unsigned j = 0; j < r->n; j++)
			fprintf(f, "%.4f\n", r->ns[j] / 1000.0);
		fprintf(f, "\n\n"); /* a gnuplot data block per metric: "index i" */
	}
	/* the last block: one line per split, its parts' p50s in us */
	for (unsigned i = 0; i < n_splits; i++) {
		fprintf(f, "%s", splits[i]);
		for (unsigned p = 0; p < P_SUM; p++) {
			double v = split_p50(splits[i], part_names[p]);
			fprintf(f, " %.4f", v > 0 ? v / 1000.0 : 0.0);
		}
		fprintf(f, "\n");
	}
	fclose(f);
	drop_preload_for_children();
	FILE *gp = popen("gnuplot", "w");
	if (!gp)
		die("cannot run gnuplot%s", "");
	unsigned all = panels + (n_splits ? 1 : 0);
	unsigned cols = all < 4 ? all : 4, rows = (all + cols - 1) / cols;
	fprintf(gp, "set terminal pngcairo size %u,%u noenhanced font ',8'\n", 360 * cols,
		260 * rows);
	fprintf(gp, "set output '%s'\n", opt.plot);
	fprintf(gp, "set multiplot layout %u,%u title '%s: sample histograms (us)'\n", rows,
		cols, opt.label);
	fprintf(gp, "set style fill solid 0.6\nunset key\nset ylabel 'samples'\n");
	unsigned block = 0;
	for (unsigned i = 0; i < n_results; i++) {
		const struct result *r = &results[i];
		if (!plotted(r))
			continue;
		/* the bulk, not the tail: up to p99 or 4 x p50, whichever is lower */
		double lo = r->min / 1000.0, hi = r->p99 / 1000.0;
		if (hi > 4 * r->p50 / 1000.0)
			hi = 4 * r->p50 / 1000.0;
		if (hi < lo)
			hi = lo;
		double width = hi > lo ? (hi - lo) / 40.0 : (lo > 0 ? lo / 40.0 : 0.001);
		fprintf(gp, "set title '%s (p50 %.3f us)'\n", r->metric, r->p50 / 1000.0);
		fprintf(gp, "set xrange [%g:%g]\n", lo - width, hi + width);
		fprintf(gp, "set boxwidth %g\n", width * 0.9);
		fprintf(gp,
			"plot '%s' index %u using (%g*floor($1/%g)+%g/2):(1.0) smooth freq "
			"with boxes\n",
			data, block++, width, width, width);
	}
	if (n_splits) {
		fprintf(gp, "set title 'breakdown: p50 of each part (us)'\nset key outside bottom\n"
			    "unset xrange\nset autoscale x\nset ylabel 'us'\nset style data histograms\n"
			    "set style histogram rowstacked\nset boxwidth 0.7\nset xtics rotate by -30\n");
		fprintf(gp, "plot '%s' index %u using 2:xtic(1) title 'submit', '' index %u using 3 "
			    "title 'pickup', '' index %u using 4 title 'execute', '' index %u using 5 "
			    "title 'wake'\n", data, block, block, block, block);
	}
	fprintf(gp, "unset multiplot\n");
	int status = pclose(gp);
	unlink(data);
	if (status != 0)
		die("gnuplot failed writing %s", opt.plot);
	printf("plot: %s\n", opt.plot);
}

/* ---- main ---- */

static void usage(FILE *out)
{
	fprintf(out,
		"usage: hsa-dispatch-bench [options]\n"
		"  --metrics LIST   comma list of metric name prefixes (default all):\n"
		"                   enqueue, wakeup, single, multi, split, or full names\n"
		"                   (--list)\n"
		"  --iters N        Single round trips (default %u)\n"
		"  --batch N        Multi packets per batch, at most the queue size (default %u)\n"
		"  --reps N         Multi batches (default %u)\n"
		"  --enqueue N      enqueue packets per producer thread (default %u)\n"
		"  --group N        enqueue packets per timed sample (default %u)\n"
		"  --wakeups N      wake-up samples (default %u)\n"
		"  --sleep-us N     blocked waiter's sleep before each store (default %u)\n"
		"  --queue-size N   AQL queue packets, a power of two (default %u)\n"
		"  --probe-ms N     time the first packet may take before 'no CP' (default %u)\n"
		"  --co PATH        code object with kernel 'empty' (default:\n"
		"                   empty.<gfx>.co next to this program)\n"
		"  --csv FILE       write label,metric,unit,samples,min,p50,p99,mean\n"
		"  --plot FILE      write a PNG of sample histograms (needs gnuplot)\n"
		"  --label NAME     label for the CSV and the plot (default: the library path)\n"
		"  --no-floor       skip the floor_* metrics\n"
		"  --no-kernel      skip the *_kernel metrics and do not load a code object\n"
		"  --list           list the metrics and exit\n",
		opt.iters, opt.batch, opt.reps, opt.enqueue, opt.group, opt.wakeups,
		opt.sleep_us, opt.queue_size, opt.probe_ms);
}

static unsigned parse_count(const char *name, const char *arg, unsigned lo, unsigned hi)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(arg, &end, 0);
	if (errno || *end || end == arg || v < lo || v > hi) {
		fprintf(stderr, "hsa-dispatch-bench: --%s wants a number in %u..%u, not '%s'\n",
			name, lo, hi, arg);
		exit(2);
	}
	return (unsigned)v;
}

static void parse_options(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "metrics", required_argument, NULL, 'm' },
		{ "iters", required_argument, NULL, 'n' },
		{ "batch", required_argument, NULL, 'b' },
		{ "reps", required_argument, NULL, 'r' },
		{ "enqueue", required_argument, NULL, 'e' },
		{ "group", required_argument, NULL, 'g' },
		{ "wakeups", required_argument, NULL, 'w' },
		{ "sleep-us", required_argument, NULL, 's' },
		{ "queue-size", required_argument, NULL, 'q' },
		{ "probe-ms", required_argument, NULL, 'p' },
		{ "co", required_argument, NULL, 'c' },
		{ "csv", required_argument, NULL, 'C' },
		{ "plot", required_argument, NULL, 'P' },
		{ "label", required_argument, NULL, 'L' },
		{ "no-floor", no_argument, NULL, 'F' },
		{ "no-kernel", no_argument, NULL, 'K' },
		{ "list", no_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int c;
	while ((c = getopt_long(argc, argv, "n:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'm': opt.metrics = optarg; break;
		case 'n': opt.iters = parse_count("iters", optarg, 1, 10000000); break;
		case 'b': opt.batch = parse_count("batch", optarg, 1, 1u << 20); break;
		case 'r': opt.reps = parse_count("reps", optarg, 1, 1000000); break;
		case 'e': opt.enqueue = parse_count("enqueue", optarg, 1, 100000000); break;
		case 'g': opt.group = parse_count("group", optarg, 1, 1024); break;
		case 'w': opt.wakeups = parse_count("wakeups", optarg, 1, 1000000); break;
		case 's': opt.sleep_us = parse_count("sleep-us", optarg, 0, 10000000); break;
		case 'q': opt.queue_size = parse_count("queue-size", optarg, 64, 1u << 24); break;
		case 'p': opt.probe_ms = parse_count("probe-ms", optarg, 1, 600000); break;
		case 'c': opt.co = optarg; break;
		case 'C': opt.csv = optarg; break;
		case 'P': opt.plot = optarg; break;
		case 'L': opt.label = optarg; break;
		case 'F': opt.floors = false; break;
		case 'K': opt.no_kernel = true; break;
		case 'l':
			for (size_t i = 0; i < N_METRICS; i++)
				puts(metric_names[i]);
			exit(0);
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); exit(2);
		}
	}
	if (optind != argc) {
		usage(stderr);
		exit(2);
	}
	if (opt.queue_size & (opt.queue_size - 1)) {
		fprintf(stderr, "hsa-dispatch-bench: --queue-size must be a power of two\n");
		exit(2);
	}
	if (opt.enqueue < opt.group)
		opt.enqueue = opt.group;
	/* Both producers' groups must fit in the ring at once. */
	if (2u * opt.group > opt.queue_size) {
		fprintf(stderr, "hsa-dispatch-bench: --group must be at most half the queue\n");
		exit(2);
	}
	if (strcmp(opt.metrics, "all")) {
		/* Every token must name some metric: a typo selects nothing. */
		char list[512];
		snprintf(list, sizeof(list), "%s", opt.metrics);
		char *save = NULL;
		for (char *tok = strtok_r(list, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save)) {
			bool known = false;
			for (size_t i = 0; i < N_METRICS && !known; i++)
				known = !strncmp(metric_names[i], tok, strlen(tok));
			if (!known) {
				fprintf(stderr, "hsa-dispatch-bench: --metrics: no metric starts "
						"with '%s' (--list)\n", tok);
				exit(2);
			}
		}
	}
	if (opt.csv && opt.csv[0] == '\0')
		opt.csv = NULL;
	if (opt.plot && !gnuplot_present()) {
		fprintf(stderr, "hsa-dispatch-bench: --plot needs gnuplot, which is not installed "
				"(Debian: apt-get install gnuplot-nox)\n");
		exit(2);
	}
}

/* The enqueue floors, each on a fresh private ring, all reserving with the
 * fetch_add (ring_reserve). */
static void run_floor_metrics_host(void)
{
	static const struct {
		const char *name;
		unsigned threads;
	} floors[] = {
		{ "floor_enqueue_1t", 1 },
		{ "floor_enqueue_1t_multi", 1 },
		{ "floor_enqueue_2t", 2 },
	};
	for (size_t i = 0; i < sizeof(floors) / sizeof(floors[0]); i++) {
		if (!want(floors[i].name))
			continue;
		unsigned n;
		ref_init(false, false);
		struct ring r = ref_ring(false);
		double *ns = run_enqueue(&r, floors[i].threads, &n);
		record(floors[i].name, ns, n);
		ref_fini(false);
	}
}

int main(int argc, char **argv)
{
	/* Line by line even into a pipe: a runtime that aborts (ROCr does on a
	 * queue error of its own queues) leaves the figures printed so far. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	parse_options(argc, argv);
	Dl_info info;
	const char *lib = dladdr((void *)hsa_init, &info) && info.dli_fname ? info.dli_fname : "?";
	if (!opt.label)
		opt.label = lib;
	if (strchr(opt.label, ',') || strchr(opt.label, '\'')) {
		fprintf(stderr, "hsa-dispatch-bench: --label must not contain ',' or quotes\n");
		return 2;
	}
	printf("library: %s\n", lib);

	CHECK(hsa_init());
	CHECK(hsa_iterate_agents(find_agents, NULL));
	if (!gpu.handle || !cpu.handle) {
		fprintf(stderr, "hsa-dispatch-bench: no %s agent\n", gpu.handle ? "CPU" : "GPU");
		return 1;
	}
	CHECK(hsa_agent_get_info(gpu, HSA_AGENT_INFO_NAME, gfx));
	CHECK(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &ts_freq));
	if (ts_freq < 1000)
		ts_freq = 1000000000u;
	if (want_any("split_") || want_any("floor_split_"))
		clock_align();
	CHECK(hsa_amd_agent_iterate_memory_pools(cpu, find_kernarg_pool, NULL));
	uint32_t max_size = 0;
	CHECK(hsa_agent_get_info(gpu, HSA_AGENT_INFO_QUEUE_MAX_SIZE, &max_size));
	if (opt.queue_size > max_size)
		opt.queue_size = max_size;
	CHECK(hsa_queue_create(gpu, opt.queue_size, HSA_QUEUE_TYPE_MULTI, queue_error, NULL,
			       UINT32_MAX, UINT32_MAX, &queue));
	if (want("enqueue_1t"))
		CHECK(hsa_queue_create(gpu, opt.queue_size, HSA_QUEUE_TYPE_SINGLE, queue_error,
				       NULL, UINT32_MAX, UINT32_MAX, &queue_single));

	/* the empty kernel, when a selected metric dispatches it */
	bool any_kernel = false;
	for (size_t i = 0; i < N_METRICS; i++)
		any_kernel |= (!strncmp(metric_names[i], "single_", 7) ||
			       !strncmp(metric_names[i], "multi_", 6) ||
			       !strncmp(metric_names[i], "split_", 6)) &&
			      strstr(metric_names[i], "_kernel") && want(metric_names[i]);
	bool cp = probe_cp();
	if (cp && any_kernel)
		kernel_load();
	printf("agent: %s, queue: %u packets, command processor: %s\n", gfx, queue->size,
	       cp ? "present" : "absent (a probe packet was not consumed)");
	printf("%-30s %7s %10s %10s %10s %10s\n", "metric (ns)", "samples", "min", "p50", "p99",
	       "mean");

	unsigned n, never;
	double *ns;
	/* Host side: the runtime's part of a submission, and its wake-ups. */
	struct ring hr = hsa_ring(queue, cp);
	if (want("enqueue_1t")) {
		/* The probe ran on the MULTI queue: a CP there serves this one. */
		struct ring sr = hsa_ring(queue_single, cp);
		ns = run_enqueue(&sr, 1, &n);
		record("enqueue_1t", ns, n);
		/* gone before the round trips: on kfdemu every queue the CP
		 * serves is a host thread that polls it */
		CHECK(hsa_queue_destroy(queue_single));
		queue_single = NULL;
	}
	if (want("enqueue_1t_multi")) {
		ns = run_enqueue(&hr, 1, &n);
		record("enqueue_1t_multi", ns, n);
	}
	if (want("enqueue_2t")) {
		ns = run_enqueue(&hr, 2, &n);
		record("enqueue_2t", ns, n);
	}
	run_floor_metrics_host();
	if (want("wakeup_blocked")) {
		ns = run_wakeup(W_HSA, true, &n, &never);
		record("wakeup_blocked", ns, n);
		if (never)
			printf("  (the waiter was not seen asleep in %u of %u rounds)\n", never, n);
	}
	if (want("wakeup_spin")) {
		ns = run_wakeup(W_HSA, false, &n, &never);
		record("wakeup_spin", ns, n);
	}
	if (want("floor_wakeup_blocked")) {
		ns = run_wakeup(W_FUTEX, true, &n, &never);
		record("floor_wakeup_blocked", ns, n);
	}
	if (want("floor_wakeup_spin")) {
		ns = run_wakeup(W_ATOMIC, false, &n, &never);
		record("floor_wakeup_spin", ns, n);
	}

	/* Round trips through the command processor. */
	static const struct {
		const char *name;
		bool multi, blocked;
		enum kind kind;
	} trips[] = {
		{ "single_spin_barrier", false, false, BARRIER },
		{ "single_blocked_barrier", false, true, BARRIER },
		{ "single_spin_kernel", false, false, KERNEL },
		{ "single_blocked_kernel", false, true, KERNEL },
		{ "multi_spin_barrier", true, false, BARRIER },
		{ "multi_blocked_barrier", true, true, BARRIER },
		{ "multi_spin_kernel", true, false, KERNEL },
		{ "multi_blocked_kernel", true, true, KERNEL },
	};
	for (size_t i = 0; i < sizeof(trips) / sizeof(trips[0]); i++) {
		if (!want(trips[i].name))
			continue;
		if (!cp) {
			skip(trips[i].name, "no command processor consumed the probe packet");
			continue;
		}
		if (trips[i].kind == KERNEL && !kern.loaded) {
			skip(trips[i].name, kern.why);
			continue;
		}
		ns = trips[i].multi ? run_multi(&hr, trips[i].kind, trips[i].blocked, &n)
				   : run_single(&hr, trips[i].kind, trips[i].blocked, &n);
		record(trips[i].name, ns, n);
	}
	/* The breakdowns, on the same queue with profiling on. */
	static const struct {
		const char *name;
		bool blocked;
		enum kind kind;
	} splits[] = {
		{ "split_spin_barrier", false, BARRIER },
		{ "split_blocked_barrier", true, BARRIER },
		{ "split_spin_kernel", false, KERNEL },
		{ "split_blocked_kernel", true, KERNEL },
	};
	bool profiled = false;
	conv.cap = 4 * (opt.iters + 1);
	conv.get_ns = xcalloc(conv.cap, sizeof(double));
	conv.tick_ns = xcalloc(conv.cap, sizeof(double));
	for (size_t i = 0; i < sizeof(splits) / sizeof(splits[0]); i++) {
		if (!want_any(splits[i].name))
			continue;
		if (!cp) {
			skip(splits[i].name, "no command processor consumed the probe packet");
			continue;
		}
		if (splits[i].kind == KERNEL && !kern.loaded) {
			skip(splits[i].name, kern.why);
			continue;
		}
		if (!profiled) {
			CHECK(hsa_amd_profiling_set_profiler_enabled(queue, 1));
			profiled = true;
		}
		struct split sp;
		run_split(&hr, splits[i].kind, splits[i].blocked, &sp);
		record_split(splits[i].name, &sp);
	}
	if (profiled) {
		CHECK(hsa_amd_profiling_set_profiler_enabled(queue, 0));
		if (conv.n_get)
			printf("conversion: hsa_amd_profiling_convert_tick_to_system_domain(end_ts) "
			       "differs from hsa_amd_profiling_get_dispatch_time's end by at most "
			       "%lld ns\n", (long long)conv.tick_diff_max);
	}
	if (conv.n_get)
		record("convert_dispatch_time", conv.get_ns, conv.n_get);
	else
		free(conv.get_ns);
	if (conv.n_tick)
		record("convert_tick", conv.tick_ns, conv.n_tick);
	else
		free(conv.tick_ns);

	/* Their floor: the same loops against the in-process consumer. */
	if (want("floor_single_spin") || want("floor_single_blocked") ||
	    want("floor_multi_spin") || want("floor_multi_blocked")) {
		ref_init(true, false);
		struct ring rr = ref_ring(true);
		if (want("floor_single_spin")) {
			ns = run_single(&rr, BARRIER, false, &n);
			record("floor_single_spin", ns, n);
		}
		if (want("floor_single_blocked")) {
			ns = run_single(&rr, BARRIER, true, &n);
			record("floor_single_blocked", ns, n);
		}
		if (want("floor_multi_spin")) {
			ns = run_multi(&rr, BARRIER, false, &n);
			record("floor_multi_spin", ns, n);
		}
		if (want("floor_multi_blocked")) {
			ns = run_multi(&rr, BARRIER, true, &n);
			record("floor_multi_blocked", ns, n);
		}
		ref_fini(true);
	}
	/* The breakdown's floor: the in-process consumer stamps start and
	 * end on the same clock as the host readings. */
	for (unsigned b = 0; b < 2; b++) {
		const char *name = b ? "floor_split_blocked" : "floor_split_spin";
		if (!opt.floors || !(want_any(name) || want_any(b ? "split_blocked" : "split_spin")))
			continue;
		ref_init(true, true);
		struct ring rr = ref_ring(true);
		struct split sp;
		run_split(&rr, BARRIER, b, &sp);
		record_split(name, &sp);
		ref_fini(true);
	}

	kernel_unload();
	if (queue_single)
		CHECK(hsa_queue_destroy(queue_single));
	CHECK(hsa_queue_destroy(queue));
	CHECK(hsa_shut_down());
	if (opt.csv)
		write_csv();
	if (opt.plot)
		write_plot();
	for (unsigned i = 0; i < n_results; i++)
		free(results[i].ns);
	return 0;
}
