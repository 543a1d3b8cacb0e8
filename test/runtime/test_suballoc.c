/*
 * Small VRAM allocations as fragments of 2 MiB blocks (src/memory/
 * suballoc.c, ROCr's fragment allocator): where fragments land, what
 * hsa_amd_pointer_info says of them and of freed ones, reuse after free,
 * a kernel reading a freed-then-reallocated fragment, allow_access on a
 * fragment (sticky over the block), an IPC handle of a fragment, running
 * out of VRAM, and rocrtst's Aql_Barrier_Bit pattern: a kernel still
 * reading a 4 KiB VRAM buffer the host freed must not fault.
 *
 * HL_SUBALLOC_SUITE picks the cases: "one" (one GPU), "two" (allow_access,
 * two GPUs), "thread" (threads allocating, querying and freeing at once;
 * the TSan pass runs it), "spin" (the freed-buffer kernel only; run with
 * HSA_DISABLE_FRAGMENT_ALLOCATOR=1 it must fault, which shows the case
 * tells the two apart).  HL_PEER=rocr523 or rocr118 says the runtime under
 * test is ROCr 5.2.3 or 1.18 (run by hand with LD_LIBRARY_PATH, the IPC
 * case with KFDEMU_DKMS_IPC=1 as both then make DKMS handles; every case
 * passes on both, docs/differences.md): the few answers that differ are
 * expected per runtime.  HL_CO is the code object of suballoc_kernels.cl.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hl_check.h"
#include "hl_hsa.h"
#include "rt_test.h"

#define KIB 1024ull
#define MIB (1024ull * 1024)
#define BLOCK (2 * MIB)
#define WAIT_NS (60ull * 1000 * 1000 * 1000)
#define MAX_GPUS 4

static hsa_agent_t cpu, gpus[MAX_GPUS];
static unsigned n_gpus;
static hsa_amd_memory_pool_t vram[MAX_GPUS], sys_fine, kernarg_pool;
static const char *peer; /* NULL: hsalite */
static hsa_queue_t *queue;
static volatile int queue_errors;

static hsa_status_t find_agents(hsa_agent_t agent, void *data)
{
	(void)data;
	hsa_device_type_t type;
	hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type);
	if (type == HSA_DEVICE_TYPE_CPU && !cpu.handle)
		cpu = agent;
	if (type == HSA_DEVICE_TYPE_GPU && n_gpus < MAX_GPUS)
		gpus[n_gpus++] = agent;
	return HSA_STATUS_SUCCESS;
}

static hsa_status_t find_pools(hsa_amd_memory_pool_t pool, void *data)
{
	hsa_amd_memory_pool_t *out = data;
	uint32_t segment = 0, flags = 0;
	hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &segment);
	hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags);
	if (segment != HSA_AMD_SEGMENT_GLOBAL)
		return HSA_STATUS_SUCCESS;
	if (out) { /* a GPU: its coarse-grained VRAM */
		if (flags == HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED && !out->handle)
			*out = pool;
	} else if (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT) {
		kernarg_pool = pool;
	} else if (flags == HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED) {
		sys_fine = pool;
	}
	return HSA_STATUS_SUCCESS;
}

static void setup(void)
{
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	peer = getenv("HL_PEER");
	cpu.handle = 0;
	n_gpus = 0;
	memset(vram, 0, sizeof(vram));
	sys_fine.handle = kernarg_pool.handle = 0;
	queue = NULL;
	queue_errors = 0;
	ck_status(hsa_iterate_agents(find_agents, NULL), HSA_STATUS_SUCCESS);
	ck_assert(cpu.handle && n_gpus);
	ck_status(hsa_amd_agent_iterate_memory_pools(cpu, find_pools, NULL), HSA_STATUS_SUCCESS);
	for (unsigned i = 0; i < n_gpus; i++) {
		ck_status(hsa_amd_agent_iterate_memory_pools(gpus[i], find_pools, &vram[i]),
			  HSA_STATUS_SUCCESS);
		ck_assert(vram[i].handle);
	}
	ck_assert(sys_fine.handle && kernarg_pool.handle);
}

static void teardown(void)
{
	if (queue)
		ck_status(hsa_queue_destroy(queue), HSA_STATUS_SUCCESS);
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

static void *vram_alloc(unsigned gpu, size_t size)
{
	void *p = NULL;
	ck_status(hsa_amd_memory_pool_allocate(vram[gpu], size, 0, &p), HSA_STATUS_SUCCESS);
	ck_assert_ptr_nonnull(p);
	return p;
}

static uintptr_t block_of(const void *p)
{
	return (uintptr_t)p & ~(uintptr_t)(BLOCK - 1);
}

static hsa_amd_pointer_info_t info_of(const void *p, uint32_t *n_acc, hsa_agent_t **acc)
{
	hsa_amd_pointer_info_t info;
	memset(&info, 0, sizeof(info));
	info.size = sizeof(info);
	ck_status(hsa_amd_pointer_info(p, &info, acc ? malloc : NULL, n_acc, acc),
		  HSA_STATUS_SUCCESS);
	return info;
}

static bool listed(const hsa_agent_t *list, uint32_t n, hsa_agent_t a)
{
	for (uint32_t i = 0; i < n; i++)
		if (list[i].handle == a.handle)
			return true;
	return false;
}

/* ---- where fragments land ---- */

START_TEST(small_allocations_are_consecutive_fragments_of_one_block)
{
	char *p[4];
	for (int i = 0; i < 4; i++)
		p[i] = vram_alloc(0, 4 * KIB);
	for (int i = 1; i < 4; i++) {
		ck_assert_msg(p[i] == p[i - 1] + 4 * KIB, "fragment %d at %p, expected %p", i,
			      (void *)p[i], (void *)(p[i - 1] + 4 * KIB));
		ck_assert_uint_eq(block_of(p[i]), block_of(p[0]));
	}
	/* a size that is not a whole page takes whole pages */
	char *q = vram_alloc(0, 100);
	char *r = vram_alloc(0, 4 * KIB);
	ck_assert_ptr_eq(q, p[3] + 4 * KIB);
	ck_assert_ptr_eq(r, q + 4 * KIB);
	for (int i = 0; i < 4; i++)
		ck_status(hsa_amd_memory_pool_free(p[i]), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(q), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(r), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(an_allocation_of_a_block_or_more_has_a_block_of_its_own)
{
	char *small = vram_alloc(0, 4 * KIB);
	char *two = vram_alloc(0, 2 * MIB);
	char *three = vram_alloc(0, 3 * MIB);
	ck_assert_uint_eq((uintptr_t)two % BLOCK, 0);
	ck_assert_uint_eq((uintptr_t)three % BLOCK, 0);
	ck_assert_uint_ne(block_of(two), block_of(small));
	/* the 3 MiB allocation's 4 MiB block is never carved again */
	char *next = vram_alloc(0, 4 * KIB);
	ck_assert_msg(!(next >= three && next < three + 4 * MIB), "%p carved from %p's block",
		      (void *)next, (void *)three);
	ck_assert_ptr_eq(next, small + 4 * KIB);
	ck_status(hsa_amd_memory_pool_free(small), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(two), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(three), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(next), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(system_memory_is_never_a_fragment)
{
	void *a = NULL, *b = NULL;
	ck_status(hsa_amd_memory_pool_allocate(sys_fine, 4 * KIB, 0, &a), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_allocate(kernarg_pool, 4 * KIB, 0, &b), HSA_STATUS_SUCCESS);
	hsa_amd_pointer_info_t ia = info_of(a, NULL, NULL), ib = info_of(b, NULL, NULL);
	ck_assert_uint_eq(ia.sizeInBytes, 4 * KIB);
	ck_assert_uint_eq(ib.sizeInBytes, 4 * KIB);
	ck_assert_uint_eq(ia.type, HSA_EXT_POINTER_TYPE_HSA);
	ck_status(hsa_amd_memory_pool_free(a), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(b), HSA_STATUS_SUCCESS);
	/* freed system memory is gone at once: nothing to report */
	ck_assert_uint_eq(info_of(a, NULL, NULL).type, HSA_EXT_POINTER_TYPE_UNKNOWN);
}
END_TEST

/* ---- pointer info ---- */

START_TEST(pointer_info_reports_the_fragment_not_the_block)
{
	char *p = vram_alloc(0, 4 * KIB);
	char *q = vram_alloc(0, 8 * KIB);
	ck_status(hsa_amd_pointer_info_set_userdata(q, (void *)0x1234), HSA_STATUS_SUCCESS);
	uint32_t n = 0;
	hsa_agent_t *acc = NULL;
	hsa_amd_pointer_info_t i = info_of(q + 5000, &n, &acc);
	ck_assert_uint_eq(i.type, HSA_EXT_POINTER_TYPE_HSA);
	ck_assert_ptr_eq(i.agentBaseAddress, q);
	ck_assert_ptr_eq(i.hostBaseAddress, q);
	ck_assert_uint_eq(i.sizeInBytes, 8 * KIB);
	ck_assert_ptr_eq(i.userData, (void *)0x1234);
	ck_assert_uint_eq(i.agentOwner.handle, gpus[0].handle);
	ck_assert_uint_eq(i.global_flags, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(acc[0].handle, gpus[0].handle);
	free(acc);
	hsa_amd_pointer_info_t ip = info_of(p, NULL, NULL);
	ck_assert_ptr_eq(ip.agentBaseAddress, p);
	ck_assert_uint_eq(ip.sizeInBytes, 4 * KIB);
	ck_assert_ptr_null(ip.userData);
	ck_status(hsa_amd_memory_pool_free(p), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(q), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(a_freed_fragment_is_not_reported_as_its_block)
{
	char *p = vram_alloc(0, 4 * KIB);
	char *q = vram_alloc(0, 4 * KIB);
	ck_status(hsa_amd_memory_pool_free(q), HSA_STATUS_SUCCESS);
	hsa_amd_pointer_info_t i = info_of(q, NULL, NULL);
	if (peer && !strcmp(peer, "rocr523")) {
		/* ROCr 5.2.3 reports the block the thunk knows */
		ck_assert_uint_eq(i.type, HSA_EXT_POINTER_TYPE_HSA);
		ck_assert_uint_eq(i.sizeInBytes, BLOCK);
	} else {
		ck_assert_uint_eq(i.type, HSA_EXT_POINTER_TYPE_UNKNOWN);
	}
	/* a fragment that is not the start of an allocation cannot be freed */
	ck_status(hsa_amd_memory_pool_free(q), HSA_STATUS_ERROR_INVALID_ALLOCATION);
	ck_status(hsa_amd_memory_pool_free(p + 4 * KIB), HSA_STATUS_ERROR_INVALID_ALLOCATION);
	ck_status(hsa_amd_memory_pool_free(p), HSA_STATUS_SUCCESS);
}
END_TEST

/* ---- free and reuse ---- */

START_TEST(a_freed_fragment_is_reused_best_fit)
{
	char *p[3];
	for (int i = 0; i < 3; i++)
		p[i] = vram_alloc(0, 4 * KIB);
	ck_status(hsa_amd_memory_pool_free(p[1]), HSA_STATUS_SUCCESS);
	/* the 4 KiB hole fits best */
	char *again = vram_alloc(0, 4 * KIB);
	ck_assert_ptr_eq(again, p[1]);
	/* freeing neighbours merges them: 12 KiB fits at the first one */
	ck_status(hsa_amd_memory_pool_free(p[0]), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(again), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(p[2]), HSA_STATUS_SUCCESS);
	/* the block is wholly free now and cached: the next small
	 * allocation starts it again */
	char *q = vram_alloc(0, 12 * KIB);
	ck_assert_uint_eq(block_of(q), block_of(p[0]));
	ck_status(hsa_amd_memory_pool_free(q), HSA_STATUS_SUCCESS);
}
END_TEST

/* ---- kernels ---- */

static uint64_t load(const char *symbol)
{
	const char *path = getenv("HL_CO");
	ck_assert_msg(path, "HL_CO unset");
	return rt_load_kernel(path, gpus[0], symbol);
}

static void on_queue_error(hsa_status_t status, hsa_queue_t *q, void *data)
{
	(void)q;
	(void)data;
	(void)status;
	queue_errors++;
}

static void make_queue(void)
{
	ck_status(hsa_queue_create(gpus[0], 64, HSA_QUEUE_TYPE_MULTI, on_queue_error, NULL,
				   UINT32_MAX, UINT32_MAX, &queue), HSA_STATUS_SUCCESS);
}

static void *kernargs(const void *args, size_t size)
{
	void *ka = NULL;
	ck_status(hsa_amd_memory_pool_allocate(kernarg_pool, size, 0, &ka), HSA_STATUS_SUCCESS);
	memcpy(ka, args, size);
	return ka;
}

static void wait_done(hsa_signal_t s)
{
	ck_assert_int_eq(hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 0, WAIT_NS,
						   HSA_WAIT_STATE_BLOCKED), 0);
}

START_TEST(a_kernel_reads_a_freed_then_reallocated_fragment)
{
	uint64_t kd = load("vadd.kd");
	make_queue();
	const uint32_t n = 1024;
	float *a = vram_alloc(0, n * sizeof(float));
	float *b = vram_alloc(0, n * sizeof(float));
	ck_status(hsa_amd_memory_fill(a, 0x3f800000u /* 1.0f */, n), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(a), HSA_STATUS_SUCCESS);
	/* the same place again, filled anew */
	float *a2 = vram_alloc(0, n * sizeof(float));
	ck_assert_ptr_eq(a2, a);
	ck_status(hsa_amd_memory_fill(a2, 0x40400000u /* 3.0f */, n), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_fill(b, 0x40000000u /* 2.0f */, n), HSA_STATUS_SUCCESS);
	float *c = NULL;
	ck_status(hsa_amd_memory_pool_allocate(sys_fine, n * sizeof(float), 0, (void **)&c),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_agents_allow_access(1, &gpus[0], NULL, c), HSA_STATUS_SUCCESS);
	memset(c, 0, n * sizeof(float));
	struct {
		const float *a, *b;
		float *c;
		uint32_t n;
	} __attribute__((packed)) args = { a2, b, c, n };
	void *ka = kernargs(&args, sizeof(args));
	ck_status(hsa_amd_agents_allow_access(1, &gpus[0], NULL, ka), HSA_STATUS_SUCCESS);
	hsa_signal_t done;
	ck_status(hsa_signal_create(1, 0, NULL, &done), HSA_STATUS_SUCCESS);
	hl_dispatch_1d(queue, kd, ka, n, 0, true, done);
	wait_done(done);
	for (uint32_t i = 0; i < n; i++)
		ck_assert_msg(c[i] == 5.0f, "c[%u] = %f, expected 5", i, (double)c[i]);
	ck_assert_int_eq(queue_errors, 0);
	ck_status(hsa_signal_destroy(done), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(ka), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(c), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(a2), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(b), HSA_STATUS_SUCCESS);
}
END_TEST

/* Polls a word the kernel writes until it reaches at least want (bounded,
 * so a kernel that died fails the test instead of hanging it). */
static uint32_t wait_word(uint32_t *w, uint32_t want)
{
	for (long spins = 0; spins < 600000; spins++) {
		uint32_t v = __atomic_load_n(w, __ATOMIC_ACQUIRE);
		if (v >= want)
			return v;
		struct timespec ts = { 0, 100000 };
		nanosleep(&ts, NULL);
	}
	ck_abort_msg("the kernel made no progress (word %u, wanted %u)", *w, want);
	return 0;
}

START_TEST(a_kernel_reading_a_4k_buffer_the_host_frees_does_not_fault)
{
	uint64_t kd = load("spin_read.kd");
	make_queue();
	uint32_t *buf = vram_alloc(0, 4 * KIB);
	ck_status(hsa_amd_memory_fill(buf, 7u, 1024), HSA_STATUS_SUCCESS);
	uint32_t *ctl = NULL;
	ck_status(hsa_amd_memory_pool_allocate(sys_fine, 4 * KIB, 0, (void **)&ctl),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_agents_allow_access(1, &gpus[0], NULL, ctl), HSA_STATUS_SUCCESS);
	memset(ctl, 0, 4 * KIB);
	struct {
		const uint32_t *buf;
		uint32_t *ctl;
	} __attribute__((packed)) args = { buf, ctl };
	void *ka = kernargs(&args, sizeof(args));
	ck_status(hsa_amd_agents_allow_access(1, &gpus[0], NULL, ka), HSA_STATUS_SUCCESS);
	hsa_signal_t done;
	ck_status(hsa_signal_create(1, 0, NULL, &done), HSA_STATUS_SUCCESS);
	hl_dispatch_1d(queue, kd, ka, 64, 0, true, done);
	wait_word(&ctl[1], 1);
	ck_status(hsa_amd_memory_pool_free(buf), HSA_STATUS_SUCCESS);
	/* two whole passes over the freed buffer after the free returned */
	uint32_t at_free = __atomic_load_n(&ctl[1], __ATOMIC_ACQUIRE);
	wait_word(&ctl[1], at_free + 2);
	__atomic_store_n(&ctl[0], 1u, __ATOMIC_RELEASE);
	wait_done(done);
	ck_assert_int_eq(queue_errors, 0);
	/* the block stayed: the last pass read what was there */
	ck_assert_uint_eq(__atomic_load_n(&ctl[2], __ATOMIC_ACQUIRE), 7u * 1024);
	ck_status(hsa_signal_destroy(done), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(ka), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(ctl), HSA_STATUS_SUCCESS);
}
END_TEST

/* ---- allow_access (two GPUs) ---- */

START_TEST(allow_access_on_a_fragment_maps_its_block_and_is_sticky)
{
	ck_assert_uint_ge(n_gpus, 2);
	char *p = vram_alloc(0, 4 * KIB);
	char *q = vram_alloc(0, 4 * KIB);
	ck_assert_uint_eq(block_of(p), block_of(q));
	ck_status(hsa_amd_agents_allow_access(1, &gpus[1], NULL, p), HSA_STATUS_SUCCESS);
	uint32_t n = 0;
	hsa_agent_t *acc = NULL;
	/* q shares the block: GPU 1 reaches it too */
	info_of(q, &n, &acc);
	ck_assert_uint_eq(n, 2);
	ck_assert(listed(acc, n, gpus[0]) && listed(acc, n, gpus[1]));
	free(acc);
	/* asking for GPU 0 only on q takes nothing away from p */
	ck_status(hsa_amd_agents_allow_access(1, &gpus[0], NULL, q), HSA_STATUS_SUCCESS);
	info_of(p, &n, &acc);
	ck_assert_uint_eq(n, 2);
	free(acc);
	/* a fragment freed and its block kept: still mapped for GPU 1 */
	ck_status(hsa_amd_memory_pool_free(p), HSA_STATUS_SUCCESS);
	info_of(q, &n, &acc);
	ck_assert_uint_eq(n, 2);
	free(acc);
	/* an allocation that is its whole block gets exactly the list */
	char *whole = vram_alloc(0, 2 * MIB);
	ck_status(hsa_amd_agents_allow_access(1, &gpus[1], NULL, whole), HSA_STATUS_SUCCESS);
	info_of(whole, &n, &acc);
	ck_assert_uint_eq(n, 2);
	free(acc);
	ck_status(hsa_amd_agents_allow_access(1, &gpus[0], NULL, whole), HSA_STATUS_SUCCESS);
	info_of(whole, &n, &acc);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(acc[0].handle, gpus[0].handle);
	free(acc);
	/* not the start of an allocation: ROCr 5.2.3's ERROR; ROCr 1.18 (and
	 * hsalite) then look for a vmem mapping and answer INVALID_ALLOCATION */
	ck_status(hsa_amd_agents_allow_access(1, &gpus[1], NULL, q + 4096),
		  peer && !strcmp(peer, "rocr") ? HSA_STATUS_ERROR
						 : HSA_STATUS_ERROR_INVALID_ALLOCATION);
	ck_status(hsa_amd_memory_pool_free(q), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(whole), HSA_STATUS_SUCCESS);
}
END_TEST

/* ---- IPC ---- */

START_TEST(an_ipc_handle_of_a_fragment_names_its_block_and_offset)
{
	char *p = vram_alloc(0, 4 * KIB);
	char *q = vram_alloc(0, 8 * KIB);
	ck_assert_ptr_eq(q, p + 4 * KIB);
	uint32_t off_pages = (uint32_t)(((uintptr_t)q - block_of(q)) / (4 * KIB));
	hsa_amd_ipc_memory_t h;
	/* the whole fragment only */
	ck_status(hsa_amd_ipc_memory_create(q, 4 * KIB, &h), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_ipc_memory_create(q + 4 * KIB, 4 * KIB, &h),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_ipc_memory_create(q, 8 * KIB, &h), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(h.handle[6] & 0x80000000u, 0x80000000u);
	ck_assert_uint_eq(h.handle[6] & 0x1ffu, off_pages);
	ck_assert_uint_eq(h.handle[6] & ~0x800001ffu, BLOCK / (4 * KIB));
	/* the exported block is carved no more */
	char *r = vram_alloc(0, 4 * KIB);
	ck_assert_uint_ne(block_of(r), block_of(q));
	/* attached (here, in the same process): the fragment at its offset */
	ck_status(hsa_amd_memory_fill(q, 0xabcdu, 8 * KIB / 4), HSA_STATUS_SUCCESS);
	void *m = NULL;
	ck_status(hsa_amd_ipc_memory_attach(&h, 8 * KIB, 1, &gpus[0], &m), HSA_STATUS_SUCCESS);
	hsa_amd_pointer_info_t i = info_of(m, NULL, NULL);
	ck_assert_uint_eq(i.type, HSA_EXT_POINTER_TYPE_IPC);
	ck_assert_ptr_eq(i.agentBaseAddress, m);
	ck_assert_uint_eq(i.sizeInBytes, 8 * KIB);
	ck_assert_uint_eq(((uintptr_t)m) % BLOCK, off_pages * 4 * KIB);
	uint32_t back[4] = { 0 };
	ck_status(hsa_memory_copy(back, m, sizeof(back)), HSA_STATUS_SUCCESS);
	for (int k = 0; k < 4; k++)
		ck_assert_uint_eq(back[k], 0xabcdu);
	ck_status(hsa_amd_ipc_memory_detach(m), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(p), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(q), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(r), HSA_STATUS_SUCCESS);
}
END_TEST

/* ---- running out ---- */

/* Allocates large blocks from vram[0] until less than one 2 MiB block is
 * left, halving the size on each refusal; returns how many it added. */
static int fill_vram(void **big, int n_big, int max)
{
	size_t pool_size = 0;
	ck_status(hsa_amd_memory_pool_get_info(vram[0], HSA_AMD_MEMORY_POOL_INFO_SIZE,
					       &pool_size), HSA_STATUS_SUCCESS);
	int added = 0;
	for (size_t sz = pool_size & ~(BLOCK - 1); sz >= BLOCK && n_big + added < max;) {
		void *b = NULL;
		if (hsa_amd_memory_pool_allocate(vram[0], sz, 0, &b) == HSA_STATUS_SUCCESS)
			big[n_big + added++] = b;
		else
			sz /= 2;
	}
	return added;
}

START_TEST(running_out_of_vram_fails_only_when_a_new_block_is_needed)
{
	char *first = vram_alloc(0, 4 * KIB);
	void *big[128];
	int n_big = fill_vram(big, 0, 64);
	ck_assert_int_gt(n_big, 0);
	/* first's block has room: fragments still come from it */
	char *more = vram_alloc(0, 64 * KIB);
	ck_assert_uint_eq(block_of(more), block_of(first));
	/* a new block cannot be had */
	void *x = NULL;
	ck_status(hsa_amd_memory_pool_allocate(vram[0], BLOCK - 64 * KIB, 0, &x),
		  HSA_STATUS_ERROR_OUT_OF_RESOURCES);
	ck_assert_ptr_null(x);
	/* room for one block again; it is taken, freed (cached), and VRAM
	 * filled up once more */
	ck_status(hsa_amd_memory_pool_free(big[--n_big]), HSA_STATUS_SUCCESS);
	void *y = vram_alloc(0, BLOCK);
	n_big += fill_vram(big, n_big, 128);
	ck_status(hsa_amd_memory_pool_free(y), HSA_STATUS_SUCCESS);
	/* below a block: the cached block serves it, no new one needed */
	ck_status(hsa_amd_memory_pool_allocate(vram[0], BLOCK - 64 * KIB, 0, &x),
		  HSA_STATUS_SUCCESS);
	ck_assert_ptr_eq(x, y);
	ck_status(hsa_amd_memory_pool_free(x), HSA_STATUS_SUCCESS);
	/* a whole block never comes from the cache: its allocation fails,
	 * the cache is trimmed and the retry gets the freed space */
	void *w = NULL;
	ck_status(hsa_amd_memory_pool_allocate(vram[0], BLOCK, 0, &w), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(w), HSA_STATUS_SUCCESS);
	while (n_big)
		ck_status(hsa_amd_memory_pool_free(big[--n_big]), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(more), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(first), HSA_STATUS_SUCCESS);
}
END_TEST

/* ---- threads ---- */

#define THREADS 4
#define ROUNDS 150
#define LIVE 8

static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	uintptr_t base, size;
} live[THREADS * LIVE];

/* Records [p, p + size) as live in slot, failing on an overlap with any
 * other live allocation. */
static bool live_set(unsigned slot, void *p, size_t size)
{
	bool ok = true;
	pthread_mutex_lock(&live_lock);
	for (unsigned i = 0; i < THREADS * LIVE; i++)
		if (i != slot && live[i].size && (uintptr_t)p < live[i].base + live[i].size &&
		    live[i].base < (uintptr_t)p + size)
			ok = false;
	live[slot].base = (uintptr_t)p;
	live[slot].size = size;
	pthread_mutex_unlock(&live_lock);
	return ok;
}

static void *churn(void *arg)
{
	unsigned t = (unsigned)(uintptr_t)arg, seed = t * 2654435761u + 1;
	void *mine[LIVE] = { 0 };
	size_t sizes[LIVE] = { 0 };
	uintptr_t bad = 0;
	for (unsigned r = 0; r < ROUNDS && !bad; r++) {
		unsigned k = (seed = seed * 1103515245u + 12345u) % LIVE;
		if (mine[k]) {
			live_set(t * LIVE + k, NULL, 0);
			if (hsa_amd_memory_pool_free(mine[k]) != HSA_STATUS_SUCCESS)
				bad = 1;
			mine[k] = NULL;
			continue;
		}
		size_t size = ((seed >> 8) % 16 + 1) * 4 * KIB;
		if (hsa_amd_memory_pool_allocate(vram[0], size, 0, &mine[k]) != HSA_STATUS_SUCCESS) {
			bad = 2;
			break;
		}
		sizes[k] = size;
		hsa_amd_pointer_info_t info = { .size = sizeof(info) };
		if (hsa_amd_pointer_info((char *)mine[k] + size - 1, &info, NULL, NULL, NULL) !=
			    HSA_STATUS_SUCCESS ||
		    info.agentBaseAddress != mine[k] || info.sizeInBytes != size)
			bad = 3;
		else if (!live_set(t * LIVE + k, mine[k], sizes[k]))
			bad = 4;
	}
	for (unsigned k = 0; k < LIVE; k++)
		if (mine[k]) {
			live_set(t * LIVE + k, NULL, 0);
			if (hsa_amd_memory_pool_free(mine[k]) != HSA_STATUS_SUCCESS && !bad)
				bad = 5;
		}
	return (void *)bad;
}

START_TEST(threads_allocating_and_freeing_get_disjoint_fragments)
{
	pthread_t th[THREADS];
	memset(live, 0, sizeof(live));
	for (unsigned t = 0; t < THREADS; t++)
		ck_assert_int_eq(pthread_create(&th[t], NULL, churn, (void *)(uintptr_t)t), 0);
	for (unsigned t = 0; t < THREADS; t++) {
		void *bad = NULL;
		ck_assert_int_eq(pthread_join(th[t], &bad), 0);
		ck_assert_msg(!bad, "thread %u: failure %lu (1 free, 2 allocate, 3 pointer info, "
			      "4 overlap, 5 final free)", t, (unsigned long)(uintptr_t)bad);
	}
}
END_TEST

static Suite *suballoc_suite(void)
{
	Suite *s = suite_create("suballoc");
	TCase *tc = tcase_create("suballoc");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 300);
	const char *which = getenv("HL_SUBALLOC_SUITE");
	if (!which)
		which = "one";
	if (!strcmp(which, "one")) {
		tcase_add_test(tc, small_allocations_are_consecutive_fragments_of_one_block);
		tcase_add_test(tc, an_allocation_of_a_block_or_more_has_a_block_of_its_own);
		tcase_add_test(tc, system_memory_is_never_a_fragment);
		tcase_add_test(tc, pointer_info_reports_the_fragment_not_the_block);
		tcase_add_test(tc, a_freed_fragment_is_not_reported_as_its_block);
		tcase_add_test(tc, a_freed_fragment_is_reused_best_fit);
		tcase_add_test(tc, a_kernel_reads_a_freed_then_reallocated_fragment);
		tcase_add_test(tc, a_kernel_reading_a_4k_buffer_the_host_frees_does_not_fault);
		tcase_add_test(tc, an_ipc_handle_of_a_fragment_names_its_block_and_offset);
		tcase_add_test(tc, running_out_of_vram_fails_only_when_a_new_block_is_needed);
	} else if (!strcmp(which, "two")) {
		tcase_add_test(tc, allow_access_on_a_fragment_maps_its_block_and_is_sticky);
	} else if (!strcmp(which, "thread")) {
		tcase_add_test(tc, threads_allocating_and_freeing_get_disjoint_fragments);
	} else if (!strcmp(which, "spin")) {
		tcase_add_test(tc, a_kernel_reading_a_4k_buffer_the_host_frees_does_not_fault);
	}
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(suballoc_suite)
