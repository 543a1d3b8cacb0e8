/*
 * Application SDMA queues (AMD's newest header, interface 1.26/1.30/1.31:
 * hsa_amd_queue_create with engine_type HSA_AMD_QUEUE_ENGINE_SDMA), as
 * ROCr's SdmaQueue and its rocrtst QueueCreateTest use them: the
 * application writes SDMA 4.x packets into queue->base_address, publishes
 * them by storing the new byte count to the doorbell signal (which also
 * writes the queue's write pointer), and watches the read pointer, a byte
 * count too.  Checked here: the hsa_queue_t and queue-info answers, copies
 * with FENCE and ATOMIC completions across ring wraps, engine selection
 * (an index and ANY's round-robin), bad arguments, destroy with work
 * pending, a queue left to hsa_shut_down, and a fork child's own queue.  hsalite only (no ROCr we run
 * exports hsa_amd_queue_create); label surface_newest; under kfdemu.
 * The case "log" alone (CK_RUN_CASE=log) pins a queue to engine 1, for the
 * ctest run that finds kfdemu's "engine 1" line in its debug log.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "copy/sdma_packets.h"
#include "hsa/amd_hsa_signal.h"
#include "surface.h"

SURF_FIXTURE(ag)

static hsa_amd_queue_create_desc_t sdma_desc(uint32_t bytes, uint32_t engine)
{
	hsa_amd_queue_create_desc_t d;
	memset(&d, 0, sizeof(d));
	d.version = HSA_AMD_QUEUE_CREATE_DESC_VERSION;
	d.engine_type = HSA_AMD_QUEUE_ENGINE_SDMA;
	d.queue_size_bytes = bytes;
	d.priority = HSA_AMD_QUEUE_PRIORITY_NORMAL;
	d.engine.sdma.sdma_engine_id = engine;
	return d;
}

static hsa_queue_t *sdma_queue(hsa_agent_t gpu, uint32_t bytes, uint32_t engine)
{
	hsa_amd_queue_create_desc_t d = sdma_desc(bytes, engine);
	ck_status(hsa_amd_queue_create(gpu, &d, 1), HSA_STATUS_SUCCESS);
	ck_assert_ptr_nonnull(d.queue);
	return d.queue;
}

/* HSA_AMD_AGENT_INFO_NUM_SDMA_ENG + _XGMI_ENG: the engine ids a queue takes. */
static uint32_t engine_count(hsa_agent_t gpu)
{
	return surf_u32_info(gpu, HSA_AMD_AGENT_INFO_NUM_SDMA_ENG) +
	       surf_u32_info(gpu, HSA_AMD_AGENT_INFO_NUM_SDMA_XGMI_ENG);
}

static uint32_t queue_engine(hsa_queue_t *q)
{
	uint32_t e = 0xdeadu;
	ck_status(hsa_amd_queue_get_info(q, HSA_AMD_QUEUE_INFO_SDMA_ENGINE_ID, &e),
		  HSA_STATUS_SUCCESS);
	return e;
}

/*
 * The application's producer: packets at the write position, padded with
 * zero dwords (one-dword NOPs) to the end of the ring when a submission
 * would straddle it, then the doorbell store of the new byte count, as the
 * header asks the application to do.
 */
struct producer {
	hsa_queue_t *q;
	uint64_t cursor; /* bytes published */
};

static void submit(struct producer *p, const uint32_t *dw, uint32_t n)
{
	uint32_t size = p->q->size;
	uint32_t bytes = n * 4;
	ck_assert_uint_le(bytes, size);
	uint32_t pos = (uint32_t)(p->cursor & (size - 1));
	char *ring = p->q->base_address;
	if (pos + bytes > size) {
		memset(ring + pos, 0, size - pos);
		p->cursor += size - pos;
		pos = 0;
	}
	/* the engine is idle past the read pointer: room is all we need */
	ck_assert_uint_le(p->cursor + bytes - hsa_queue_load_read_index_scacquire(p->q), size);
	memcpy(ring + pos, dw, bytes);
	p->cursor += bytes;
	hsa_signal_store_screlease(p->q->doorbell_signal, (hsa_signal_value_t)p->cursor);
	/* the store published the write pointer too (SdmaQueue::RingDoorbell) */
	ck_assert_uint_eq(hsa_queue_load_write_index_relaxed(p->q), p->cursor);
}

/* Waits until the engine has read everything published. */
static void drain(struct producer *p)
{
	while (hsa_queue_load_read_index_scacquire(p->q) < p->cursor)
		;
	ck_assert_uint_eq(hsa_queue_load_read_index_scacquire(p->q), p->cursor);
}

/* One FENCE of value to *dst, run and waited for. */
static void fence_once(struct producer *p, uint32_t *dst, uint32_t value)
{
	uint32_t dw[SDMA_DW_FENCE];
	sdma_fence(dw, (uint64_t)(uintptr_t)dst, value);
	submit(p, dw, SDMA_DW_FENCE);
	drain(p);
	ck_assert_uint_eq(__atomic_load_n(dst, __ATOMIC_ACQUIRE), value);
}

START_TEST(sdmaq_queue_and_info)
{
	hsa_agent_t gpu = ag.gpu[0];
	hsa_queue_t *q = sdma_queue(gpu, 4096, HSA_AMD_SDMA_ENGINE_ID_ANY);
	/* rocrtst SdmaQueueCreateDestroyTest's view of the queue */
	ck_assert_uint_eq(q->type, HSA_QUEUE_TYPE_SINGLE);
	ck_assert_uint_eq(q->features, 0);
	ck_assert_uint_eq(q->size, 4096);
	ck_assert_ptr_nonnull(q->base_address);
	ck_assert_uint_ne(q->doorbell_signal.handle, 0);

	hsa_amd_queue_engine_t e = HSA_AMD_QUEUE_ENGINE_AIE;
	ck_status(hsa_amd_queue_get_info(q, HSA_AMD_QUEUE_INFO_ENGINE_TYPE, &e),
		  HSA_STATUS_SUCCESS);
	ck_assert_int_eq(e, HSA_AMD_QUEUE_ENGINE_SDMA);
	ck_assert_uint_lt(queue_engine(q), engine_count(gpu));
	hsa_agent_t owner = { 0 };
	ck_status(hsa_amd_queue_get_info(q, HSA_AMD_QUEUE_INFO_AGENT, &owner), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(owner.handle, gpu.handle);
	uint64_t rp = 0, wp = 0, db = 0;
	ck_status(hsa_amd_queue_get_info(q, HSA_AMD_QUEUE_INFO_READ_POINTER, &rp),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_queue_get_info(q, HSA_AMD_QUEUE_INFO_WRITE_POINTER, &wp),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_queue_get_info(q, HSA_AMD_QUEUE_INFO_DOORBELL_ID, &db),
		  HSA_STATUS_SUCCESS);
	ck_assert(rp && wp && db && rp != wp);
	volatile uint64_t *raw_r = (volatile uint64_t *)(uintptr_t)rp;
	volatile uint64_t *raw_w = (volatile uint64_t *)(uintptr_t)wp;
	ck_assert_uint_eq(hsa_queue_load_read_index_relaxed(q), *raw_r);
	/* the write index calls move the write pointer (rocrtst's sequence) */
	hsa_queue_store_write_index_relaxed(q, 64);
	ck_assert_uint_eq(hsa_queue_load_write_index_relaxed(q), 64);
	ck_assert_uint_eq(*raw_w, 64);
	ck_assert_uint_eq(hsa_queue_add_write_index_relaxed(q, 32), 64);
	ck_assert_uint_eq(*raw_w, 96);
	ck_assert_uint_eq(hsa_queue_cas_write_index_relaxed(q, 96, 128), 96);
	ck_assert_uint_eq(*raw_w, 128);
	hsa_queue_store_write_index_relaxed(q, 0);
	int32_t uses = 0;
	ck_status(hsa_amd_queue_get_info(q, HSA_QUEUE_INFO_USE_COUNT, &uses), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(uses, -1);

	/* what an AQL queue has and an SDMA queue has not */
	uint8_t props[8];
	bool fault;
	ck_status(hsa_amd_queue_get_info(q, HSA_AMD_QUEUE_INFO_PROPERTIES, props),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_queue_get_info(q, HSA_AMD_QUEUE_INFO_VM_FAULT_STATUS, &fault),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_queue_get_info(q, HSA_AMD_QUEUE_INFO_SDMA_ENGINE_ID, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	/* ROCr's SdmaQueue: Inactivate ERROR, SetPriority / SetCUMasking
	 * INVALID_QUEUE */
	ck_status(hsa_queue_inactivate(q), HSA_STATUS_ERROR);
	ck_status(hsa_amd_queue_set_priority(q, HSA_AMD_QUEUE_PRIORITY_HIGH),
		  HSA_STATUS_ERROR_INVALID_QUEUE);
	uint32_t mask[2] = { 1, 0 };
	ck_status(hsa_amd_queue_cu_set_mask(q, 32, mask), HSA_STATUS_ERROR_INVALID_QUEUE);
	ck_status(hsa_amd_queue_cu_get_mask(q, 32, mask), HSA_STATUS_ERROR_INVALID_QUEUE);
	/* Queue::SetProfiling, which SdmaQueue keeps: recorded, SUCCESS */
	ck_status(hsa_amd_profiling_set_profiler_enabled(q, 1), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_profiling_set_profiler_enabled(q, 0), HSA_STATUS_SUCCESS);
	/* a queue to the external-semaphore calls, which over KFD have none */
	hsa_amd_external_semaphore_t sem = { 1 };
	ck_status(hsa_amd_queue_signal_external_semaphore(q, sem, 1),
		  (hsa_status_t)HSA_STATUS_ERROR_NOT_SUPPORTED);

	/* still works after all that */
	struct producer p = { q, 0 };
	uint32_t *flag = surf_host_alloc(&ag, 64);
	fence_once(&p, flag, 0x5d3a);

	ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
	ck_status(hsa_queue_destroy(q), HSA_STATUS_ERROR_INVALID_QUEUE);
	ck_status(hsa_amd_queue_get_info(q, HSA_AMD_QUEUE_INFO_ENGINE_TYPE, &e),
		  HSA_STATUS_ERROR_INVALID_QUEUE);
	hsa_amd_memory_pool_free(flag);
}
END_TEST

/* COPY_LINEAR host -> VRAM -> host, a FENCE and a 64-bit ATOMIC add of -1
 * on a completion signal, many times over a small ring (it wraps). */
START_TEST(sdmaq_copy_fence_atomic)
{
	enum { N = 3000, ROUNDS = 24 };
	hsa_agent_t gpu = ag.gpu[0];
	hsa_queue_t *q = sdma_queue(gpu, 1024, HSA_AMD_SDMA_ENGINE_ID_ANY);
	ck_assert_uint_eq(q->size, 1024);
	uint8_t *src = surf_host_alloc(&ag, N), *dst = surf_host_alloc(&ag, N);
	uint8_t *vram = surf_vram_alloc(&ag, gpu, N);
	uint32_t *flag = surf_host_alloc(&ag, 64);
	hsa_signal_t done;
	ck_status(hsa_signal_create(ROUNDS, 0, NULL, &done), HSA_STATUS_SUCCESS);
	amd_signal_t *amd = (amd_signal_t *)(uintptr_t)done.handle;

	struct producer p = { q, 0 };
	for (uint32_t r = 0; r < ROUNDS; r++) {
		for (uint32_t i = 0; i < N; i++)
			src[i] = (uint8_t)(i * 13 + r);
		memset(dst, 0, N);
		uint32_t dw[2 * SDMA_DW_COPY_LINEAR + SDMA_DW_FENCE + SDMA_DW_ATOMIC], *w = dw;
		w = sdma_copy_linear(w, (uint64_t)(uintptr_t)vram, (uint64_t)(uintptr_t)src, N);
		w = sdma_copy_linear(w, (uint64_t)(uintptr_t)dst, (uint64_t)(uintptr_t)vram, N);
		w = sdma_fence(w, (uint64_t)(uintptr_t)flag, 0x1000 + r);
		w = sdma_atomic_add64(w, (uint64_t)(uintptr_t)&amd->value, (uint64_t)-1);
		submit(&p, dw, (uint32_t)(w - dw));
		/* the completion signal, as a copy's user would wait on it */
		hsa_signal_value_t want = ROUNDS - 1 - (hsa_signal_value_t)r;
		while (hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, want, UINT64_MAX,
						 HSA_WAIT_STATE_ACTIVE) != want)
			;
		drain(&p);
		ck_assert_uint_eq(__atomic_load_n(flag, __ATOMIC_ACQUIRE), 0x1000 + r);
		for (uint32_t i = 0; i < N; i++)
			if (dst[i] != (uint8_t)(i * 13 + r))
				ck_abort_msg("round %u byte %u: got %u, expected %u", r, i, dst[i],
					     (uint8_t)(i * 13 + r));
	}
	/* 24 rounds of 96 bytes and the padding: the ring wrapped */
	ck_assert_uint_gt(p.cursor, 2 * q->size);
	ck_status(hsa_signal_destroy(done), HSA_STATUS_SUCCESS);
	ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
	hsa_amd_memory_pool_free(src);
	hsa_amd_memory_pool_free(dst);
	hsa_amd_memory_pool_free(vram);
	hsa_amd_memory_pool_free(flag);
}
END_TEST

/* Every engine index takes a queue that runs there; ANY goes round the
 * engines; an index past the count is refused before anything is made. */
START_TEST(sdmaq_engine_selection)
{
	hsa_agent_t gpu = ag.gpu[0];
	uint32_t n = engine_count(gpu);
	ck_assert_uint_ge(n, 2);
	ck_assert_uint_le(n, 16);
	uint32_t *flag = surf_host_alloc(&ag, 64);
	for (uint32_t i = 0; i < n; i++) {
		hsa_queue_t *q = sdma_queue(gpu, 4096, i);
		ck_assert_uint_eq(queue_engine(q), i);
		struct producer p = { q, 0 };
		fence_once(&p, flag, 0x700 + i);
		ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
	}
	/* n ANY queues alive at once: each engine once */
	hsa_queue_t *qs[16];
	uint32_t seen = 0;
	for (uint32_t i = 0; i < n; i++) {
		qs[i] = sdma_queue(gpu, 4096, HSA_AMD_SDMA_ENGINE_ID_ANY);
		uint32_t e = queue_engine(qs[i]);
		ck_assert_uint_lt(e, n);
		ck_assert_msg(!(seen & 1u << e), "engine %u given twice", e);
		seen |= 1u << e;
	}
	for (uint32_t i = 0; i < n; i++) {
		struct producer p = { qs[i], 0 };
		fence_once(&p, flag, 0x900 + i);
		ck_status(hsa_queue_destroy(qs[i]), HSA_STATUS_SUCCESS);
	}
	/* the next ANY queue takes the next engine in turn */
	hsa_queue_t *a = sdma_queue(gpu, 4096, HSA_AMD_SDMA_ENGINE_ID_ANY);
	hsa_queue_t *b = sdma_queue(gpu, 4096, HSA_AMD_SDMA_ENGINE_ID_ANY);
	ck_assert_uint_eq(queue_engine(b), (queue_engine(a) + 1) % n);
	ck_status(hsa_queue_destroy(a), HSA_STATUS_SUCCESS);
	ck_status(hsa_queue_destroy(b), HSA_STATUS_SUCCESS);

	uint32_t bad[] = { n, n + 5, 0x7fffffffu };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		hsa_amd_queue_create_desc_t d = sdma_desc(4096, bad[i]);
		ck_status(hsa_amd_queue_create(gpu, &d, 1), HSA_STATUS_ERROR_INVALID_ARGUMENT);
		ck_assert_ptr_null(d.queue);
	}
	hsa_amd_memory_pool_free(flag);
}
END_TEST

START_TEST(sdmaq_bad_arguments)
{
	hsa_agent_t gpu = ag.gpu[0];
	static const uint32_t sizes[] = { 0, 3, 4095, 4096 + 64 };
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		hsa_amd_queue_create_desc_t d = sdma_desc(sizes[i], HSA_AMD_SDMA_ENGINE_ID_ANY);
		ck_status(hsa_amd_queue_create(gpu, &d, 1), HSA_STATUS_ERROR_INVALID_ARGUMENT);
		ck_assert_ptr_null(d.queue);
	}
	hsa_amd_queue_create_desc_t d = sdma_desc(4096, HSA_AMD_SDMA_ENGINE_ID_ANY);
	d.engine.sdma.reserved[0] = 1;
	ck_status(hsa_amd_queue_create(gpu, &d, 1), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_assert_ptr_null(d.queue);
	d = sdma_desc(4096, HSA_AMD_SDMA_ENGINE_ID_ANY);
	d.reserved[3] = 1;
	ck_status(hsa_amd_queue_create(gpu, &d, 1), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	d = sdma_desc(4096, HSA_AMD_SDMA_ENGINE_ID_ANY);
	d.priority = (hsa_amd_queue_priority_t)7;
	ck_status(hsa_amd_queue_create(gpu, &d, 1), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	/* a CPU agent (rocrtst InvalidArgsTest) and no agent */
	d = sdma_desc(4096, HSA_AMD_SDMA_ENGINE_ID_ANY);
	ck_status(hsa_amd_queue_create(ag.cpu, &d, 1), HSA_STATUS_ERROR_INVALID_AGENT);
	ck_assert_ptr_null(d.queue);
	ck_status(hsa_amd_queue_create((hsa_agent_t){ 0 }, &d, 1), HSA_STATUS_ERROR_INVALID_AGENT);

	/* below KFD's 1 KiB the ring is 1 KiB, and says so */
	d = sdma_desc(256, HSA_AMD_SDMA_ENGINE_ID_ANY);
	ck_status(hsa_amd_queue_create(gpu, &d, 1), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(d.queue->size, 1024);
	uint32_t *flag = surf_host_alloc(&ag, 64);
	struct producer p = { d.queue, 0 };
	for (uint32_t i = 0; i < 80; i++) /* 80 x 16 bytes: past the 1 KiB wrap */
		fence_once(&p, flag, 0x300 + i);
	ck_status(hsa_queue_destroy(d.queue), HSA_STATUS_SUCCESS);

	/* a batch of an SDMA and a compute queue; the placement flags are
	 * accepted (rocrtst's four placements) */
	hsa_amd_queue_create_desc_t b[2] = { sdma_desc(4096, HSA_AMD_SDMA_ENGINE_ID_ANY),
					     sdma_desc(4096, 0) };
	b[0].flags = HSA_AMD_QUEUE_CREATE_DEVICE_MEM_RING_BUF |
		     HSA_AMD_QUEUE_CREATE_DEVICE_MEM_QUEUE_DESCRIPTOR;
	b[1].engine_type = HSA_AMD_QUEUE_ENGINE_COMPUTE;
	memset(&b[1].engine, 0, sizeof(b[1].engine));
	b[1].engine.compute.type = HSA_QUEUE_TYPE_MULTI;
	b[1].engine.compute.private_segment_size = HSA_AMD_PRIVATE_SEGMENT_SIZE_DEFAULT;
	ck_status(hsa_amd_queue_create(gpu, b, 2), HSA_STATUS_SUCCESS);
	hsa_amd_queue_engine_t e0, e1;
	ck_status(hsa_amd_queue_get_info(b[0].queue, HSA_AMD_QUEUE_INFO_ENGINE_TYPE, &e0),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_queue_get_info(b[1].queue, HSA_AMD_QUEUE_INFO_ENGINE_TYPE, &e1),
		  HSA_STATUS_SUCCESS);
	ck_assert_int_eq(e0, HSA_AMD_QUEUE_ENGINE_SDMA);
	ck_assert_int_eq(e1, HSA_AMD_QUEUE_ENGINE_COMPUTE);
	/* a compute queue has no SDMA engine */
	uint32_t eng;
	ck_status(hsa_amd_queue_get_info(b[1].queue, HSA_AMD_QUEUE_INFO_SDMA_ENGINE_ID, &eng),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	p = (struct producer){ b[0].queue, 0 };
	fence_once(&p, flag, 0x4242);
	ck_status(hsa_queue_destroy(b[0].queue), HSA_STATUS_SUCCESS);
	ck_status(hsa_queue_destroy(b[1].queue), HSA_STATUS_SUCCESS);
	hsa_amd_memory_pool_free(flag);
}
END_TEST

/* Destroy while the engine waits on a POLL_REGMEM that never comes true:
 * the destroy succeeds, the FENCE behind the poll never runs, and a new
 * queue on the same engine works.  A queue left alive is destroyed by
 * hsa_shut_down (the fixture's). */
START_TEST(sdmaq_destroy_pending)
{
	hsa_agent_t gpu = ag.gpu[0];
	uint32_t *gate = surf_host_alloc(&ag, 64), *flag = surf_host_alloc(&ag, 64);
	*gate = 0;
	*flag = 0;
	hsa_queue_t *q = sdma_queue(gpu, 4096, 1);
	struct producer p = { q, 0 };
	uint32_t dw[SDMA_DW_POLL + SDMA_DW_FENCE], *w = dw;
	w = sdma_poll_eq(w, (uint64_t)(uintptr_t)gate, 1);
	w = sdma_fence(w, (uint64_t)(uintptr_t)flag, 77);
	submit(&p, dw, (uint32_t)(w - dw));
	/* the engine has started on it, or will not: either way pending */
	ck_assert_uint_lt(hsa_queue_load_read_index_scacquire(q), p.cursor);
	ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
	__atomic_store_n(gate, 1, __ATOMIC_RELEASE);
	ck_assert_uint_eq(__atomic_load_n(flag, __ATOMIC_ACQUIRE), 0);

	hsa_queue_t *again = sdma_queue(gpu, 4096, 1);
	p = (struct producer){ again, 0 };
	fence_once(&p, flag, 78);
	/* left for hsa_shut_down to destroy */
	(void)sdma_queue(gpu, 8192, HSA_AMD_SDMA_ENGINE_ID_ANY);
}
END_TEST

#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
/* A fork child of a parent with an SDMA queue: the parent's queue is not
 * the child's (NOT_INITIALIZED), its own runtime makes and runs one (the
 * parent's records forgotten without an ioctl), and the parent's queue
 * still runs afterwards. */
static int child_sdma(hsa_queue_t *inherited)
{
	if (hsa_queue_destroy(inherited) != HSA_STATUS_ERROR_NOT_INITIALIZED)
		return 11;
	if (hsa_init() != HSA_STATUS_SUCCESS)
		return 12;
	struct surf_agents c;
	memset(&c, 0, sizeof(c));
	if (hsa_iterate_agents(surf_agent_cb, &c) != HSA_STATUS_SUCCESS || !c.n_gpus)
		return 13;
	hsa_amd_queue_create_desc_t d = sdma_desc(4096, 1);
	if (hsa_amd_queue_create(c.gpu[0], &d, 1) != HSA_STATUS_SUCCESS)
		return 14;
	void *mem = NULL;
	if (hsa_amd_memory_pool_allocate(surf_pool(c.cpu, true), 64, 0, &mem) !=
		    HSA_STATUS_SUCCESS ||
	    hsa_amd_agents_allow_access(1, c.gpu, NULL, mem) != HSA_STATUS_SUCCESS)
		return 15;
	uint32_t *flag = mem;
	*flag = 0;
	uint32_t dw[SDMA_DW_FENCE];
	sdma_fence(dw, (uint64_t)(uintptr_t)flag, 0xc1d);
	memcpy(d.queue->base_address, dw, sizeof(dw));
	hsa_signal_store_screlease(d.queue->doorbell_signal, sizeof(dw));
	while (hsa_queue_load_read_index_scacquire(d.queue) < sizeof(dw))
		;
	if (__atomic_load_n(flag, __ATOMIC_ACQUIRE) != 0xc1d)
		return 16;
	if (hsa_queue_destroy(d.queue) != HSA_STATUS_SUCCESS ||
	    hsa_amd_memory_pool_free(flag) != HSA_STATUS_SUCCESS ||
	    hsa_shut_down() != HSA_STATUS_SUCCESS)
		return 17;
	return 0;
}

START_TEST(sdmaq_fork_child)
{
	hsa_queue_t *q = sdma_queue(ag.gpu[0], 4096, 1);
	uint32_t *flag = surf_host_alloc(&ag, 64);
	struct producer p = { q, 0 };
	fence_once(&p, flag, 1);
	fflush(NULL);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(child_sdma(q));
	int status = 0;
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "the child failed at step %d (status 0x%x)", WEXITSTATUS(status), status);
	fence_once(&p, flag, 2);
	ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
	hsa_amd_memory_pool_free(flag);
}
END_TEST
#endif

/* For the ctest run with KFDEMU_LOG=debug: a queue on engine 1 runs. */
START_TEST(sdmaq_on_engine_1)
{
	hsa_queue_t *q = sdma_queue(ag.gpu[0], 4096, 1);
	ck_assert_uint_eq(queue_engine(q), 1);
	uint32_t *flag = surf_host_alloc(&ag, 64);
	struct producer p = { q, 0 };
	fence_once(&p, flag, 0x1e);
	ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
	hsa_amd_memory_pool_free(flag);
}
END_TEST

static Suite *sdmaq_suite(void)
{
	Suite *s = suite_create("surface-sdmaq");
	TCase *tc = tcase_create("sdmaq");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, sdmaq_queue_and_info);
	tcase_add_test(tc, sdmaq_copy_fence_atomic);
	tcase_add_test(tc, sdmaq_engine_selection);
	tcase_add_test(tc, sdmaq_bad_arguments);
	tcase_add_test(tc, sdmaq_destroy_pending);
	suite_add_tcase(s, tc);
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
	/* The parent forks with kfdemu's engine threads running, which GCC's
	 * ASan allocator and TSan do not survive (a child can inherit the
	 * allocator's lock held: test/fork): plain builds only, where
	 * surface_sdmaq_fork_mi210 runs it (CI's plain pass, -R fork). */
	TCase *fork_tc = tcase_create("fork");
	tcase_add_checked_fixture(fork_tc, setup, teardown);
	tcase_add_test(fork_tc, sdmaq_fork_child);
	suite_add_tcase(s, fork_tc);
#endif
	TCase *log = tcase_create("log");
	tcase_add_checked_fixture(log, setup, teardown);
	tcase_add_test(log, sdmaq_on_engine_1);
	suite_add_tcase(s, log);
	return s;
}

HL_CHECK_MAIN(sdmaq_suite)
