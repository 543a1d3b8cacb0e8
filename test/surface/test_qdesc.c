/*
 * The queue calls of AMD's newest public header (interface 1.22-1.31, the
 * header of rocm-systems 41e1945c) that hsalite implements: the
 * hsa_amd_queue_get_info attributes VM_FAULT_*, ENGINE_TYPE,
 * SDMA_ENGINE_ID, READ_POINTER and WRITE_POINTER, and hsa_amd_queue_create
 * with hsa_amd_queue_create_desc_t (compute queues run packets; every
 * argument check of the header; batches that fail part way), and the
 * external semaphore calls, which over KFD answer NOT_SUPPORTED once their
 * arguments pass (as ROCr over KFD).  hsalite only:
 * neither ROCr 5.2.3 nor 1.18 exports hsa_amd_queue_create.  Label
 * surface_newest; runs under kfdemu.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hsa/amd_hsa_queue.h"
#include "rt_test.h"
#include "surface.h"

/* The header's layout (LP64), which a client built against AMD's header
 * passes in. */
_Static_assert(sizeof(hsa_amd_queue_create_desc_t) == 96, "descriptor size");
_Static_assert(offsetof(hsa_amd_queue_create_desc_t, engine_type) == 4, "engine_type");
_Static_assert(offsetof(hsa_amd_queue_create_desc_t, queue_size_bytes) == 8, "size");
_Static_assert(offsetof(hsa_amd_queue_create_desc_t, priority) == 12, "priority");
_Static_assert(offsetof(hsa_amd_queue_create_desc_t, callback) == 16, "callback");
_Static_assert(offsetof(hsa_amd_queue_create_desc_t, queue) == 32, "queue");
_Static_assert(offsetof(hsa_amd_queue_create_desc_t, engine) == 40, "engine");
_Static_assert(offsetof(hsa_amd_queue_create_desc_t, traffic_class) == 72, "traffic_class");
_Static_assert(sizeof(hsa_amd_compute_queue_params_t) == 32, "compute params");
_Static_assert(sizeof(hsa_amd_sdma_queue_params_t) == 32, "sdma params");
_Static_assert(HSA_AMD_QUEUE_INFO_VM_FAULT_STATUS == 10 && HSA_AMD_QUEUE_INFO_WRITE_POINTER == 16,
	       "queue info attributes");

SURF_FIXTURE(ag)
static hsa_agent_t none_agent = { 0 };

static hsa_amd_queue_create_desc_t compute_desc(uint32_t bytes)
{
	hsa_amd_queue_create_desc_t d;
	memset(&d, 0, sizeof(d));
	d.version = HSA_AMD_QUEUE_CREATE_DESC_VERSION;
	d.queue_size_bytes = bytes;
	d.priority = HSA_AMD_QUEUE_PRIORITY_NORMAL;
	d.engine.compute.type = HSA_QUEUE_TYPE_MULTI;
	d.engine.compute.private_segment_size = HSA_AMD_PRIVATE_SEGMENT_SIZE_DEFAULT;
	return d;
}

/* A barrier-AND packet with no dependency, completing done; waits for it. */
static void run_barrier(hsa_queue_t *q)
{
	hsa_signal_t done;
	ck_status(hsa_signal_create(1, 0, NULL, &done), HSA_STATUS_SUCCESS);
	uint64_t i = hsa_queue_add_write_index_screlease(q, 1);
	hsa_barrier_and_packet_t *pkt =
		(hsa_barrier_and_packet_t *)q->base_address + (i % q->size);
	memset((char *)pkt + 2, 0, sizeof(*pkt) - 2);
	pkt->completion_signal = done;
	uint16_t header = HSA_PACKET_TYPE_BARRIER_AND << HSA_PACKET_HEADER_TYPE |
			  HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE |
			  HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE;
	__atomic_store_n(&pkt->header, header, __ATOMIC_RELEASE);
	hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)i);
	ck_assert_int_eq(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
						   HSA_WAIT_STATE_BLOCKED), 0);
	ck_status(hsa_signal_destroy(done), HSA_STATUS_SUCCESS);
}

START_TEST(qdesc_before_init)
{
	hsa_amd_queue_create_desc_t d = compute_desc(4096);
	ck_status(hsa_amd_queue_create(none_agent, &d, 1), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_assert_ptr_null(d.queue);
	hsa_amd_external_semaphore_handle_descriptor_t sd = {
		.type = HSA_AMD_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD, .handle.fd = 0 };
	hsa_amd_external_semaphore_t sem = { 1 };
	ck_status(hsa_amd_external_semaphore_handle_open(none_agent, &sd, &sem),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_external_semaphore_handle_close(sem), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_queue_signal_external_semaphore(NULL, sem, 1),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_queue_wait_external_semaphore(NULL, sem, 1),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
}
END_TEST

START_TEST(qdesc_info_new_attributes)
{
	hsa_queue_t *q = NULL;
	ck_status(hsa_queue_create(ag.gpu[0], 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
				   UINT32_MAX, &q), HSA_STATUS_SUCCESS);
	bool faulted = true;
	ck_status(hsa_amd_queue_get_info(q, HSA_AMD_QUEUE_INFO_VM_FAULT_STATUS, &faulted),
		  HSA_STATUS_SUCCESS);
	ck_assert(!faulted);
	uint64_t va = 1;
	ck_status(hsa_amd_queue_get_info(q, HSA_AMD_QUEUE_INFO_VM_FAULT_ADDRESS, &va),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(va, 0);
	uint32_t why = 1;
	ck_status(hsa_amd_queue_get_info(q, HSA_AMD_QUEUE_INFO_VM_FAULT_REASON, &why),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(why, 0);
	hsa_amd_queue_engine_t e = HSA_AMD_QUEUE_ENGINE_AIE;
	ck_status(hsa_amd_queue_get_info(q, HSA_AMD_QUEUE_INFO_ENGINE_TYPE, &e),
		  HSA_STATUS_SUCCESS);
	ck_assert_int_eq(e, HSA_AMD_QUEUE_ENGINE_COMPUTE);
	uint32_t eng = 7;
	ck_status(hsa_amd_queue_get_info(q, HSA_AMD_QUEUE_INFO_SDMA_ENGINE_ID, &eng),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);

	/* The pointers are the amd_queue_t's indices: they move with the
	 * queue's write and read indices. */
	const amd_queue_t *amd = (const amd_queue_t *)q;
	uint64_t rp = 0, wp = 0;
	ck_status(hsa_amd_queue_get_info(q, HSA_AMD_QUEUE_INFO_READ_POINTER, &rp),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_queue_get_info(q, HSA_AMD_QUEUE_INFO_WRITE_POINTER, &wp),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(rp, (uint64_t)(uintptr_t)&amd->read_dispatch_id);
	ck_assert_uint_eq(wp, (uint64_t)(uintptr_t)&amd->write_dispatch_id);
	run_barrier(q);
	run_barrier(q);
	ck_assert_uint_eq(*(const volatile uint64_t *)(uintptr_t)wp, 2);
	ck_assert_uint_eq(*(const volatile uint64_t *)(uintptr_t)wp, hsa_queue_load_write_index_relaxed(q));
	ck_assert_uint_eq(*(const volatile uint64_t *)(uintptr_t)rp, hsa_queue_load_read_index_scacquire(q));
	ck_assert_uint_eq(*(const volatile uint64_t *)(uintptr_t)rp, 2);

	/* NULL value, an attribute past the header's, a queue that is none */
	ck_status(hsa_amd_queue_get_info(q, HSA_AMD_QUEUE_INFO_VM_FAULT_STATUS, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_queue_get_info(q, HSA_AMD_QUEUE_INFO_WRITE_POINTER, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_queue_get_info(q, (hsa_queue_info_attribute_t)17, &wp),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	uint64_t junk[32];
	memset(junk, 0, sizeof(junk));
	ck_status(hsa_amd_queue_get_info((hsa_queue_t *)junk, HSA_AMD_QUEUE_INFO_ENGINE_TYPE, &e),
		  HSA_STATUS_ERROR_INVALID_QUEUE);
	ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(qdesc_create_compute)
{
	hsa_amd_queue_create_desc_t d[3];
	d[0] = compute_desc(64 * 64);
	d[1] = compute_desc(4096 * 64);
	d[1].priority = HSA_AMD_QUEUE_PRIORITY_HIGH;
	d[1].engine.compute.type = HSA_QUEUE_TYPE_SINGLE;
	d[1].engine.compute.private_segment_size = 0;
	static const uint32_t mask[2] = { 0xFFu, 0 };
	d[2] = compute_desc(128 * 64);
	d[2].engine.compute.cu_mask = mask;
	d[2].engine.compute.cu_mask_count = 64;
	d[2].flags = HSA_AMD_QUEUE_CREATE_DEVICE_MEM_RING_BUF;
	for (int i = 0; i < 3; i++)
		d[i].queue = (hsa_queue_t *)(uintptr_t)1;
	ck_status(hsa_amd_queue_create(ag.gpu[0], d, 3), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(d[0].queue->size, 64);
	ck_assert_uint_eq(d[1].queue->size, 4096);
	ck_assert_uint_eq(d[2].queue->size, 128);
	ck_assert_uint_eq(d[0].queue->type, HSA_QUEUE_TYPE_MULTI);
	/* SINGLE reads back as MULTI, as from hsa_queue_create (ROCr's AqlQueue) */
	ck_assert_uint_eq(d[1].queue->type, HSA_QUEUE_TYPE_MULTI);

	ck_assert(d[0].queue->id != d[1].queue->id && d[1].queue->id != d[2].queue->id);
	uint32_t got[2] = { 0, 0 };
	ck_status(hsa_amd_queue_cu_get_mask(d[2].queue, 64, got), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(got[0], 0xFFu);
	for (int i = 0; i < 3; i++) {
		hsa_agent_t owner = { 0 };
		ck_status(hsa_amd_queue_get_info(d[i].queue, HSA_AMD_QUEUE_INFO_AGENT, &owner),
			  HSA_STATUS_SUCCESS);
		ck_assert_uint_eq(owner.handle, ag.gpu[0].handle);
		run_barrier(d[i].queue);
		ck_status(hsa_queue_destroy(d[i].queue), HSA_STATUS_SUCCESS);
	}
}
END_TEST

/* Each of the header's INVALID_ARGUMENT cases, in a batch after a good
 * descriptor: the call answers INVALID_ARGUMENT, the good one's queue is
 * made and the bad one's pointer is NULL (as ROCr's rocrtst
 * QueueCreateTest::InvalidArgsTest expects). */
START_TEST(qdesc_create_bad_descriptors)
{
	enum { N_BAD = 15 };
	for (int bad = 0; bad < N_BAD; bad++) {
		hsa_amd_queue_create_desc_t d[2] = { compute_desc(4096), compute_desc(4096) };
		hsa_amd_queue_create_desc_t *b = &d[1];
		static const uint32_t mask[1] = { 1 };
		switch (bad) {
		case 0: b->version = 0; break;
		case 1: b->version = 2; break;
		case 2: b->queue_size_bytes = 0; break;
		case 3: b->queue_size_bytes = 96 * 64; break;     /* not a power of two */
		case 4: b->queue_size_bytes = 32; break;          /* half an AQL packet */
		case 5: b->priority = (hsa_amd_queue_priority_t)3; break;
		case 6: b->engine_type = 3; break;
		case 7: b->reserved_header[1] = 1; break;
		case 8: b->traffic_class = 1; break;
		case 9: b->reserved[19] = 1; break;
		case 10: b->engine.compute.type = 3; break;
		case 11: b->engine.compute.cu_mask = mask; b->engine.compute.cu_mask_count = 31; break;
		case 12: b->engine.compute.cu_mask_count = 32; break; /* no mask */
		case 13: b->engine.compute.reserved[2] = 1; break;
		case 14: b->flags = 4; break;
		}
		d[0].queue = d[1].queue = (hsa_queue_t *)(uintptr_t)1;
		ck_assert_msg(hsa_amd_queue_create(ag.gpu[0], d, 2) ==
			      HSA_STATUS_ERROR_INVALID_ARGUMENT, "case %d", bad);
		ck_assert_msg(d[0].queue && d[0].queue != (hsa_queue_t *)(uintptr_t)1,
			      "case %d: the good descriptor's queue is missing", bad);
		ck_assert_msg(!d[1].queue, "case %d made a queue", bad);
		ck_status(hsa_queue_destroy(d[0].queue), HSA_STATUS_SUCCESS);
	}
	hsa_amd_queue_create_desc_t s = compute_desc(4096);
	s.engine_type = HSA_AMD_QUEUE_ENGINE_SDMA;
	s.engine.sdma.sdma_engine_id = HSA_AMD_SDMA_ENGINE_ID_ANY;
	s.engine.sdma.reserved[6] = 1;
	ck_status(hsa_amd_queue_create(ag.gpu[0], &s, 1), HSA_STATUS_ERROR_INVALID_ARGUMENT);

	hsa_amd_queue_create_desc_t g = compute_desc(4096);
	ck_status(hsa_amd_queue_create(ag.gpu[0], NULL, 1), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_queue_create(ag.gpu[0], &g, 0), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_queue_create(none_agent, &g, 1), HSA_STATUS_ERROR_INVALID_AGENT);
	ck_assert_ptr_null(g.queue);
	/* a CPU agent: INVALID_AGENT, whatever the engine (rocrtst: SDMA) */
	ck_status(hsa_amd_queue_create(ag.cpu, &g, 1), HSA_STATUS_ERROR_INVALID_AGENT);
	ck_assert_ptr_null(g.queue);
	s.engine.sdma.reserved[6] = 0;
	ck_status(hsa_amd_queue_create(ag.cpu, &s, 1), HSA_STATUS_ERROR_INVALID_AGENT);
	ck_assert_ptr_null(s.queue);
}
END_TEST

/* A batch that fails part way: every descriptor is tried, the failed
 * ones' pointers are NULL, the others' queues work, and the status is the
 * first failure's. */
START_TEST(qdesc_create_partial_batch)
{
	hsa_amd_queue_create_desc_t d[4] = { compute_desc(4096), compute_desc(4096),
					     compute_desc(4096), compute_desc(4096) };
	d[1].engine_type = HSA_AMD_QUEUE_ENGINE_AIE;
	memset(&d[1].engine, 0, sizeof(d[1].engine));
	d[2].version = 7;
	ck_status(hsa_amd_queue_create(ag.gpu[0], d, 4), HSA_STATUS_ERROR_INVALID_QUEUE_CREATION);
	ck_assert_ptr_nonnull(d[0].queue);
	ck_assert_ptr_null(d[1].queue);
	ck_assert_ptr_null(d[2].queue);
	ck_assert_ptr_nonnull(d[3].queue);
	for (int i = 0; i < 4; i += 3) {
		run_barrier(d[i].queue);
		ck_status(hsa_queue_destroy(d[i].queue), HSA_STATUS_SUCCESS);
	}
	/* the other order: the bad descriptor's INVALID_ARGUMENT comes first */
	hsa_amd_queue_create_desc_t e[2] = { compute_desc(4096), compute_desc(4096) };
	e[0].queue_size_bytes = 3;
	e[1].engine_type = HSA_AMD_QUEUE_ENGINE_AIE;
	memset(&e[1].engine, 0, sizeof(e[1].engine));
	ck_status(hsa_amd_queue_create(ag.gpu[0], e, 2), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_assert_ptr_null(e[0].queue);
	ck_assert_ptr_null(e[1].queue);

	/* an SDMA descriptor naming an engine the GPU lacks fails alone; the
	 * compute queue behind it is made (test_sdmaq.c runs SDMA queues) */
	hsa_amd_queue_create_desc_t s[2] = { compute_desc(4096), compute_desc(4096) };
	s[0].engine_type = HSA_AMD_QUEUE_ENGINE_SDMA;
	memset(&s[0].engine, 0, sizeof(s[0].engine));
	s[0].engine.sdma.sdma_engine_id = 16;
	ck_status(hsa_amd_queue_create(ag.gpu[0], s, 2), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_assert_ptr_null(s[0].queue);
	ck_assert_ptr_nonnull(s[1].queue);
	run_barrier(s[1].queue);
	ck_status(hsa_queue_destroy(s[1].queue), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(qdesc_external_semaphores)
{
	int fds[2];
	ck_assert_int_eq(pipe(fds), 0);
	hsa_amd_external_semaphore_handle_descriptor_t sd = {
		.type = HSA_AMD_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD, .handle.fd = fds[0] };
	hsa_amd_external_semaphore_t sem = { 0x1234 };
	ck_status(hsa_amd_external_semaphore_handle_open(ag.gpu[0], &sd, &sem),
		  HSA_STATUS_ERROR_NOT_SUPPORTED);
	ck_assert_uint_eq(sem.handle, 0);
	ck_status(hsa_amd_external_semaphore_handle_open(ag.cpu, &sd, &sem),
		  HSA_STATUS_ERROR_INVALID_AGENT);
	ck_status(hsa_amd_external_semaphore_handle_open(none_agent, &sd, &sem),
		  HSA_STATUS_ERROR_INVALID_AGENT);
	ck_status(hsa_amd_external_semaphore_handle_open(ag.gpu[0], NULL, &sem),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_external_semaphore_handle_open(ag.gpu[0], &sd, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	sd.handle.fd = -1;
	ck_status(hsa_amd_external_semaphore_handle_open(ag.gpu[0], &sd, &sem),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	sd.type = HSA_AMD_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32;
	sd.handle.win32_handle = NULL;
	ck_status(hsa_amd_external_semaphore_handle_open(ag.gpu[0], &sd, &sem),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	sd.handle.win32_handle = &sd;
	ck_status(hsa_amd_external_semaphore_handle_open(ag.gpu[0], &sd, &sem),
		  HSA_STATUS_ERROR_NOT_SUPPORTED);
	sd.type = (hsa_amd_external_semaphore_handle_type_t)3;
	ck_status(hsa_amd_external_semaphore_handle_open(ag.gpu[0], &sd, &sem),
		  HSA_STATUS_ERROR_NOT_SUPPORTED);
	close(fds[0]);
	close(fds[1]);

	hsa_amd_external_semaphore_t zero = { 0 }, some = { 0x1234 };
	ck_status(hsa_amd_external_semaphore_handle_close(zero), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_external_semaphore_handle_close(some), HSA_STATUS_ERROR_NOT_SUPPORTED);

	hsa_queue_t *q = NULL;
	ck_status(hsa_queue_create(ag.gpu[0], 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
				   UINT32_MAX, &q), HSA_STATUS_SUCCESS);
	uint64_t junk[32];
	memset(junk, 0, sizeof(junk));
	ck_status(hsa_amd_queue_signal_external_semaphore(NULL, some, 1),
		  HSA_STATUS_ERROR_INVALID_QUEUE);
	ck_status(hsa_amd_queue_wait_external_semaphore((hsa_queue_t *)junk, some, 1),
		  HSA_STATUS_ERROR_INVALID_QUEUE);
	ck_status(hsa_amd_queue_signal_external_semaphore(q, zero, 1),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_queue_wait_external_semaphore(q, zero, 1),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_queue_signal_external_semaphore(q, some, 1),
		  HSA_STATUS_ERROR_NOT_SUPPORTED);
	ck_status(hsa_amd_queue_wait_external_semaphore(q, some, 1),
		  HSA_STATUS_ERROR_NOT_SUPPORTED);
	/* nothing was written into the ring */
	ck_assert_uint_eq(hsa_queue_load_write_index_relaxed(q), 0);
	ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
}
END_TEST

/* A GPU memory fault on the queue's GPU: the per-queue VM fault state.
 * One lane of vadd stores to FAULT_VA, which nothing maps; a system event
 * handler takes the fault so the process lives on, and the queue's
 * callback hears MEMORY_FAULT. */
#define FAULT_VA 0x10234ull
#define FAULT_PAGE 0x10000ull
static int n_events, n_queue_errors;
static hsa_status_t queue_error;
static pthread_mutex_t ev_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ev_cond = PTHREAD_COND_INITIALIZER;

static hsa_status_t take_fault(const hsa_amd_event_t *ev, void *data)
{
	(void)ev;
	(void)data;
	pthread_mutex_lock(&ev_lock);
	n_events++;
	pthread_cond_broadcast(&ev_cond);
	pthread_mutex_unlock(&ev_lock);
	return HSA_STATUS_SUCCESS;
}

static void on_queue_error(hsa_status_t status, hsa_queue_t *source, void *data)
{
	(void)source;
	(void)data;
	pthread_mutex_lock(&ev_lock);
	if (!n_queue_errors++)
		queue_error = status;
	pthread_cond_broadcast(&ev_cond);
	pthread_mutex_unlock(&ev_lock);
}

START_TEST(qdesc_info_vm_fault)
{
	hsa_agent_t gpu;
	hsa_amd_memory_pool_t kernarg;
	ck_status(hl_gpu_kernarg_pool(&gpu, &kernarg), HSA_STATUS_SUCCESS);
	char path[4096];
	snprintf(path, sizeof(path), "%s/vadd.%s.co", getenv("HL_CO_DIR"), getenv("HL_GFX"));
	uint64_t kd = rt_load_kernel(path, gpu, "vadd.kd");
	ck_status(hsa_amd_register_system_event_handler(take_fault, NULL), HSA_STATUS_SUCCESS);

	hsa_amd_queue_create_desc_t d = compute_desc(64 * 64);
	d.callback = on_queue_error;
	ck_status(hsa_amd_queue_create(gpu, &d, 1), HSA_STATUS_SUCCESS);
	hsa_queue_t *q = d.queue;
	/* a second queue on the GPU, idle: a fault stops every queue there */
	hsa_queue_t *idle = NULL;
	ck_status(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
				   UINT32_MAX, &idle), HSA_STATUS_SUCCESS);

	float *in = NULL;
	ck_status(hsa_amd_memory_pool_allocate(kernarg, 4096, 0, (void **)&in), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_agents_allow_access(1, &gpu, NULL, in), HSA_STATUS_SUCCESS);
	in[0] = 1.0f;
	struct {
		const float *a, *b;
		uint64_t c;
		uint32_t n;
	} __attribute__((packed)) args = { in, in, FAULT_VA, 1 };
	void *ka = (char *)in + 2048;
	memcpy(ka, &args, sizeof(args));
	hsa_signal_t done;
	ck_status(hsa_signal_create(1, 0, NULL, &done), HSA_STATUS_SUCCESS);
	hl_dispatch_1d(q, kd, ka, 64, 0, false, done);

	/* ctest's TIMEOUT bounds a lost event. */
	pthread_mutex_lock(&ev_lock);
	while (!n_events || !n_queue_errors)
		pthread_cond_wait(&ev_cond, &ev_lock);
	pthread_mutex_unlock(&ev_lock);
	ck_status(queue_error, HSA_STATUS_ERROR_MEMORY_FAULT);

	hsa_queue_t *both[2] = { q, idle };
	for (int i = 0; i < 2; i++) {
		bool faulted = false;
		ck_status(hsa_amd_queue_get_info(both[i], HSA_AMD_QUEUE_INFO_VM_FAULT_STATUS,
						 &faulted), HSA_STATUS_SUCCESS);
		ck_assert_msg(faulted, "queue %d: no VM fault recorded", i);
		uint64_t va = 0;
		ck_status(hsa_amd_queue_get_info(both[i], HSA_AMD_QUEUE_INFO_VM_FAULT_ADDRESS, &va),
			  HSA_STATUS_SUCCESS);
		ck_assert_uint_eq(va, FAULT_PAGE);
		uint32_t why = 0;
		ck_status(hsa_amd_queue_get_info(both[i], HSA_AMD_QUEUE_INFO_VM_FAULT_REASON, &why),
			  HSA_STATUS_SUCCESS);
		ck_assert_uint_eq(why, HSA_AMD_MEMORY_FAULT_PAGE_NOT_PRESENT);
	}
	/* a queue made after the fault has none */
	hsa_queue_t *later = NULL;
	ck_status(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
				   UINT32_MAX, &later), HSA_STATUS_SUCCESS);
	bool faulted = true;
	ck_status(hsa_amd_queue_get_info(later, HSA_AMD_QUEUE_INFO_VM_FAULT_STATUS, &faulted),
		  HSA_STATUS_SUCCESS);
	ck_assert(!faulted);
	ck_assert_int_eq(hsa_signal_load_scacquire(done), 1);
	ck_status(hsa_queue_destroy(later), HSA_STATUS_SUCCESS);
	ck_status(hsa_queue_destroy(idle), HSA_STATUS_SUCCESS);
	ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
	ck_status(hsa_signal_destroy(done), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(in), HSA_STATUS_SUCCESS);
}
END_TEST

static Suite *qdesc_suite(void)
{
	Suite *s = suite_create("surface-qdesc");
	TCase *pre = tcase_create("uninit");
	tcase_add_test(pre, qdesc_before_init);
	suite_add_tcase(s, pre);
	TCase *tc = tcase_create("qdesc");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, qdesc_info_new_attributes);
	tcase_add_test(tc, qdesc_create_compute);
	tcase_add_test(tc, qdesc_create_bad_descriptors);
	tcase_add_test(tc, qdesc_create_partial_batch);
	tcase_add_test(tc, qdesc_external_semaphores);
	/* last: the fault stops the GPU's queues for the rest of the runtime */
	tcase_add_test(tc, qdesc_info_vm_fault);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(qdesc_suite)
