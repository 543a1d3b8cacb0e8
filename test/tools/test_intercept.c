/*
 * Intercept queues and the runtime-queue notifier, reached through the HSA
 * API table as tools reach them (hl_table_grab is this suite's tool): the
 * same binary runs on hsalite and on ROCr 5.2.3 (tools_intercept_rocr_*).
 *
 *  - the arguments refused: a queue of fewer than 3 packets, no out
 *    pointer, no callback, a queue that is no intercept queue;
 *  - a host store to the doorbell runs the interceptors in the storing
 *    thread before it returns (ROCr's InterceptQueue::StoreRelaxed; tools
 *    such as rocprofiler record that thread);
 *  - interceptors see each packet before the hardware, last registered
 *    first, with the packet's index on the intercept queue, and what they
 *    write reaches the one registered before them, then the hardware;
 *  - a rewrite replaces a packet (the dropped one never runs);
 *  - a marker packet is not queued: its callback gets the hardware queue
 *    and the index the next packet takes there (ROCr 1.18's; 5.2.3 has no
 *    markers, the case is not run there);
 *  - a rewrite larger than the hardware queue still runs whole (the retry
 *    barrier path; ROCr 5.2.3 hangs there, the case is not run on it);
 *  - the intercept queue's read index follows the interceptors;
 *    hsa_amd_queue_get_info answers the agent; hsa_queue_destroy frees it;
 *  - the notifier of the runtime's own queues: one per process (a second
 *    registration is HSA_STATUS_ERROR) and called for the queue a GPU fill
 *    makes;
 *  - runtime after runtime (tcase "cycles", no fixture): each hsa_init
 *    loads the tool again (OnLoad) and each last hsa_shut_down unloads it
 *    (OnUnload); an intercept queue made in one runtime, interceptor
 *    registered and a packet run through it, may be left to that
 *    runtime's hsa_shut_down, and the next runtime's intercept queues work
 *    alike (hsalite keeps them, and the tools it loaded, per runtime).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <hsa/amd_hsa_queue.h>

#include "hl_hsa.h"
#include "table_grab.h"

#define WAIT_NS (30ull * 1000 * 1000 * 1000)

static hsa_agent_t gpu;
static HSA_API_TRACE_TYPE(hsa_amd_queue_intercept_create) *intercept_create;
static HSA_API_TRACE_TYPE(hsa_amd_queue_intercept_register) *intercept_register;
static HSA_API_TRACE_TYPE(hsa_amd_runtime_queue_create_register) *runtime_queue_register;

static void setup(void)
{
	bool have_gpu, have_cpu;
	hsa_agent_t cpu;

	ck_hsa(hsa_init());
	ck_hsa(hl_first_agents(&gpu, &have_gpu, &cpu, &have_cpu));
	ck_assert(have_gpu);
	ck_assert_msg(hl_grabbed_table() != NULL, "HSA_TOOLS_LIB did not load hl_table_grab");
	intercept_create = hl_grabbed_entry("AmdExtTable", "hsa_amd_queue_intercept_create_fn");
	intercept_register = hl_grabbed_entry("AmdExtTable", "hsa_amd_queue_intercept_register_fn");
	runtime_queue_register =
		hl_grabbed_entry("AmdExtTable", "hsa_amd_runtime_queue_create_register_fn");
	ck_assert(intercept_create && intercept_register && runtime_queue_register);
}

static void teardown(void)
{
	ck_hsa(hsa_shut_down());
}

static hsa_queue_t *make_queue(uint32_t size)
{
	hsa_queue_t *q = NULL;
	ck_hsa(intercept_create(gpu, size, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX,
				&q));
	ck_assert_ptr_nonnull(q);
	return q;
}

static hsa_barrier_and_packet_t barrier(hsa_signal_t completion)
{
	hsa_barrier_and_packet_t p;
	memset(&p, 0, sizeof(p));
	p.header = (HSA_PACKET_TYPE_BARRIER_AND << HSA_PACKET_HEADER_TYPE) |
		   (1 << HSA_PACKET_HEADER_BARRIER) |
		   (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
		   (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE);
	p.completion_signal = completion;
	return p;
}

/* Publishes one packet on q as an application does and rings. */
static uint64_t submit(hsa_queue_t *q, const hsa_barrier_and_packet_t *p)
{
	uint64_t idx = hsa_queue_add_write_index_screlease(q, 1);
	hsa_barrier_and_packet_t *slot =
		(hsa_barrier_and_packet_t *)q->base_address + (idx & (q->size - 1));
	memcpy((char *)slot + 2, (const char *)p + 2, sizeof(*p) - 2);
	__atomic_store_n(&slot->header, p->header, __ATOMIC_RELEASE);
	hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)idx);
	return idx;
}

static void wait_zero(hsa_signal_t s)
{
	hsa_signal_value_t v = hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 0, WAIT_NS,
							 HSA_WAIT_STATE_BLOCKED);
	ck_assert_int_eq(v, 0);
}

static hsa_signal_t signal1(void)
{
	hsa_signal_t s;
	ck_hsa(hsa_signal_create(1, 0, NULL, &s));
	return s;
}

START_TEST(intercept_arguments_refused)
{
	hsa_queue_t *q = NULL, *plain = NULL;

	ck_assert_int_eq(intercept_create(gpu, 2, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q),
			 HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(intercept_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, NULL),
			 HSA_STATUS_ERROR_INVALID_ARGUMENT);
	q = make_queue(64);
	ck_assert_int_eq(intercept_register(q, NULL, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_hsa(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &plain));
	ck_assert_int_eq(intercept_register(plain, (hsa_amd_queue_intercept_handler)1, NULL),
			 HSA_STATUS_ERROR_INVALID_QUEUE);
	ck_hsa(hsa_queue_destroy(plain));
	ck_hsa(hsa_queue_destroy(q));
}
END_TEST

/* Records its letter and the index, forwards what it got. */
struct rec {
	char order[8];
	int n;
	uint64_t index[8];
};
static struct rec rec;

static void forward_a(const void *p, uint64_t n, uint64_t idx, void *data,
		      hsa_amd_queue_intercept_packet_writer w)
{
	(void)data;
	rec.index[rec.n] = idx;
	rec.order[rec.n++] = 'A';
	w(p, n);
}

static void forward_b(const void *p, uint64_t n, uint64_t idx, void *data,
		      hsa_amd_queue_intercept_packet_writer w)
{
	(void)data;
	rec.index[rec.n] = idx;
	rec.order[rec.n++] = 'B';
	w(p, n);
}

START_TEST(interceptors_last_registered_first_then_hardware)
{
	hsa_queue_t *q = make_queue(64);
	hsa_signal_t s = signal1();
	hsa_agent_t agent;

	memset(&rec, 0, sizeof(rec));
	ck_hsa(intercept_register(q, forward_a, NULL));
	ck_hsa(intercept_register(q, forward_b, NULL));
	hsa_barrier_and_packet_t p = barrier(s);
	ck_assert_uint_eq(submit(q, &p), 0);
	wait_zero(s);
	ck_assert_str_eq(rec.order, "BA");
	ck_assert_uint_eq(rec.index[0], 0);
	ck_assert_uint_eq(rec.index[1], 0);
	/* the second packet: index 1, the read index follows */
	hsa_signal_store_screlease(s, 1);
	ck_assert_uint_eq(submit(q, &p), 1);
	wait_zero(s);
	ck_assert_str_eq(rec.order, "BABA");
	ck_assert_uint_eq(rec.index[2], 1);
	/* the interceptors' thread advances it just after handing the packet
	 * on: give it up to 10 s */
	for (int i = 0; i < 10000 && hsa_queue_load_read_index_scacquire(q) < 2; i++)
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	ck_assert_uint_eq(hsa_queue_load_read_index_scacquire(q), 2);
	/* ROCr 1.18's call (5.2.3 has none): the hardware queue's agent */
	HSA_API_TRACE_TYPE(hsa_amd_queue_get_info) *get_info =
		hl_grabbed_entry("AmdExtTable", "hsa_amd_queue_get_info_fn");
	if (get_info) {
		ck_hsa(get_info(q, HSA_AMD_QUEUE_INFO_AGENT, &agent));
		ck_assert_uint_eq(agent.handle, gpu.handle);
	}
	ck_hsa(hsa_signal_destroy(s));
	ck_hsa(hsa_queue_destroy(q));
}
END_TEST

/* Records the thread it runs in, forwards what it got. */
static pthread_t seen_thread;
static int seen_calls;

static void note_thread(const void *p, uint64_t n, uint64_t idx, void *data,
			hsa_amd_queue_intercept_packet_writer w)
{
	(void)idx;
	(void)data;
	seen_thread = pthread_self();
	__atomic_add_fetch(&seen_calls, 1, __ATOMIC_RELEASE);
	w(p, n);
}

START_TEST(interceptors_run_in_the_storing_thread)
{
	hsa_queue_t *q = make_queue(64);
	hsa_signal_t s = signal1();

	seen_calls = 0;
	ck_hsa(intercept_register(q, note_thread, NULL));
	hsa_barrier_and_packet_t p = barrier(s);
	submit(q, &p);
	/* before the doorbell store returned, in this thread */
	ck_assert_int_eq(__atomic_load_n(&seen_calls, __ATOMIC_ACQUIRE), 1);
	ck_assert(pthread_equal(seen_thread, pthread_self()));
	wait_zero(s);
	ck_hsa(hsa_signal_destroy(s));
	ck_hsa(hsa_queue_destroy(q));
}
END_TEST

/* Replaces each packet by two barriers completing data's two signals. */
static void replace_by_two(const void *p, uint64_t n, uint64_t idx, void *data,
			   hsa_amd_queue_intercept_packet_writer w)
{
	const hsa_signal_t *s = data;
	hsa_barrier_and_packet_t two[2] = { barrier(s[0]), barrier(s[1]) };
	(void)p;
	(void)n;
	(void)idx;
	w(two, 2);
}

START_TEST(rewrite_replaces_the_packet)
{
	hsa_queue_t *q = make_queue(64);
	hsa_signal_t mine[2] = { signal1(), signal1() }, dropped = signal1();

	ck_hsa(intercept_register(q, replace_by_two, mine));
	hsa_barrier_and_packet_t p = barrier(dropped);
	submit(q, &p);
	wait_zero(mine[0]);
	wait_zero(mine[1]);
	ck_assert_int_eq(hsa_signal_load_scacquire(dropped), 1);
	ck_hsa(hsa_queue_destroy(q));
	ck_hsa(hsa_signal_destroy(mine[0]));
	ck_hsa(hsa_signal_destroy(mine[1]));
	ck_hsa(hsa_signal_destroy(dropped));
}
END_TEST

static struct {
	int calls;
	hsa_queue_t *queue;
	uint64_t packet_id;
	uint64_t user;
} marker_seen;

static void on_marker(const struct amd_aql_intercept_marker_s *m, hsa_queue_t *q, uint64_t id)
{
	marker_seen.calls++;
	marker_seen.queue = q;
	marker_seen.packet_id = id;
	marker_seen.user = m->user_data[0];
}

static void mark_then_forward(const void *p, uint64_t n, uint64_t idx, void *data,
			      hsa_amd_queue_intercept_packet_writer w)
{
	struct {
		amd_aql_intercept_marker_t marker;
		hsa_barrier_and_packet_t packet;
	} out;
	(void)n;
	(void)data;
	memset(&out.marker, 0, sizeof(out.marker));
	out.marker.header = HSA_PACKET_TYPE_VENDOR_SPECIFIC << HSA_PACKET_HEADER_TYPE;
	out.marker.format = AMD_AQL_FORMAT_INTERCEPT_MARKER;
	out.marker.callback = on_marker;
	out.marker.user_data[0] = 0x5eed0000 + idx;
	memcpy(&out.packet, p, sizeof(out.packet));
	w(&out, 2);
}

START_TEST(marker_runs_its_callback_and_is_not_queued)
{
	/* ROCr 5.2.3 (AmdExtTable major 1) predates markers: it would queue
	 * the vendor packet, which the CP refuses */
	if (hl_grabbed_table()->amd_ext_->version.major_id == 1) {
		printf("marker: ROCr 5.2.3 has no intercept markers, not run\n");
		return;
	}
	hsa_queue_t *q = make_queue(64);
	hsa_signal_t s = signal1();

	memset(&marker_seen, 0, sizeof(marker_seen));
	ck_hsa(intercept_register(q, mark_then_forward, NULL));
	hsa_barrier_and_packet_t p = barrier(s);
	submit(q, &p);
	wait_zero(s);
	ck_assert_int_eq(marker_seen.calls, 1);
	ck_assert_ptr_nonnull(marker_seen.queue);
	ck_assert_ptr_ne(marker_seen.queue, q);
	ck_assert_uint_eq(marker_seen.user, 0x5eed0000);
	/* the barrier took the index the marker was told, and nothing else
	 * went on the hardware queue */
	ck_assert_uint_eq(__atomic_load_n(&((amd_queue_t *)marker_seen.queue)->write_dispatch_id,
					  __ATOMIC_ACQUIRE),
			  marker_seen.packet_id + 1);
	ck_hsa(hsa_queue_destroy(q));
	ck_hsa(hsa_signal_destroy(s));
}
END_TEST

/* Expands each packet into more barriers than the hardware queue holds
 * (its smallest size, plus two). */
static hsa_signal_t *many;
static uint32_t n_many;

static void expand(const void *p, uint64_t n, uint64_t idx, void *data,
		   hsa_amd_queue_intercept_packet_writer w)
{
	hsa_barrier_and_packet_t *out = malloc(n_many * sizeof(*out));
	(void)p;
	(void)n;
	(void)idx;
	(void)data;
	if (!out)
		return;
	for (uint32_t i = 0; i < n_many; i++)
		out[i] = barrier(many[i]);
	w(out, n_many);
	free(out);
}

START_TEST(rewrite_larger_than_the_queue_runs_whole)
{
	uint32_t min_size;

	/* ROCr 5.2.3 never finishes such a rewrite (its retry does not resume
	 * the overflow: the run hangs; a rewrite that fits runs) */
	if (hl_grabbed_table()->amd_ext_->version.major_id == 1) {
		printf("overflow: ROCr 5.2.3 hangs on a rewrite larger than the queue, not run\n");
		return;
	}
	ck_hsa(hsa_agent_get_info(gpu, HSA_AGENT_INFO_QUEUE_MIN_SIZE, &min_size));
	hsa_queue_t *q = make_queue(min_size);
	hsa_signal_t orig = signal1();

	n_many = min_size + 2;
	many = calloc(n_many, sizeof(*many));
	ck_assert_ptr_nonnull(many);
	for (uint32_t i = 0; i < n_many; i++)
		many[i] = signal1();
	ck_hsa(intercept_register(q, expand, NULL));
	hsa_barrier_and_packet_t p = barrier(orig);
	submit(q, &p);
	for (uint32_t i = 0; i < n_many; i++)
		wait_zero(many[i]);
	ck_hsa(hsa_queue_destroy(q));
	for (uint32_t i = 0; i < n_many; i++)
		ck_hsa(hsa_signal_destroy(many[i]));
	free(many);
	ck_hsa(hsa_signal_destroy(orig));
}
END_TEST

static struct {
	int calls;
	uint64_t agent;
	uint32_t size;
} notified;

static void on_runtime_queue(const hsa_queue_t *q, hsa_agent_t agent, void *data)
{
	(void)data;
	notified.calls++;
	notified.agent = agent.handle;
	notified.size = q->size;
}

static hsa_status_t find_coarse(hsa_amd_memory_pool_t pool, void *data)
{
	hsa_amd_segment_t seg;
	uint32_t flags;
	if (hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg) ||
	    seg != HSA_AMD_SEGMENT_GLOBAL ||
	    hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags) ||
	    !(flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED))
		return HSA_STATUS_SUCCESS;
	*(hsa_amd_memory_pool_t *)data = pool;
	return HSA_STATUS_INFO_BREAK;
}

START_TEST(runtime_queue_notifier_once_and_called)
{
	hsa_amd_memory_pool_t pool = { 0 };
	void *buf;

	memset(&notified, 0, sizeof(notified));
	ck_hsa(runtime_queue_register(on_runtime_queue, NULL));
	ck_assert_int_eq(runtime_queue_register(on_runtime_queue, NULL), HSA_STATUS_ERROR);
	hsa_amd_agent_iterate_memory_pools(gpu, find_coarse, &pool);
	ck_assert_uint_ne(pool.handle, 0);
	ck_hsa(hsa_amd_memory_pool_allocate(pool, 4096, 0, &buf));
	/* a GPU fill runs a blit kernel on a queue the runtime makes */
	ck_hsa(hsa_amd_memory_fill(buf, 0x12345678, 1024));
	ck_assert_int_ge(notified.calls, 1);
	ck_assert_uint_eq(notified.agent, gpu.handle);
	ck_assert_uint_ge(notified.size, 3);
	ck_hsa(hsa_amd_memory_pool_free(buf));
}
END_TEST

/* Counts the packets it sees, forwards them. */
static void count_packets(const void *p, uint64_t n, uint64_t idx, void *data,
			  hsa_amd_queue_intercept_packet_writer w)
{
	(void)idx;
	__atomic_add_fetch((int *)data, (int)n, __ATOMIC_RELAXED);
	w(p, n);
}

START_TEST(every_runtime_loads_the_tool_and_intercepts)
{
	int loads0 = hl_grab_loads(), unloads0 = hl_grab_unloads();

	for (int cycle = 0; cycle < 3; cycle++) {
		setup();
		ck_assert_int_eq(hl_grab_loads(), loads0 + cycle + 1);
		ck_assert_int_eq(hl_grab_unloads(), unloads0 + cycle);
		hsa_queue_t *q = make_queue(64);
		int seen = 0;
		ck_hsa(intercept_register(q, count_packets, &seen));
		hsa_signal_t s = signal1();
		hsa_barrier_and_packet_t p = barrier(s);
		/* a fresh queue of this runtime: its first packet is 0 */
		ck_assert_uint_eq(submit(q, &p), 0);
		wait_zero(s);
		ck_assert_int_eq(__atomic_load_n(&seen, __ATOMIC_RELAXED), 1);
		ck_hsa(hsa_signal_destroy(s));
		/* the last cycle destroys its queue; the others leave it to
		 * hsa_shut_down */
		if (cycle == 2)
			ck_hsa(hsa_queue_destroy(q));
		teardown();
		ck_assert_int_eq(hl_grab_unloads(), unloads0 + cycle + 1);
	}
}
END_TEST

static Suite *intercept_suite(void)
{
	Suite *s = suite_create("tools_intercept");
	TCase *tc = tcase_create("intercept");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	/* first: the runtime's own queues do not exist yet in this process */
	tcase_add_test(tc, runtime_queue_notifier_once_and_called);
	tcase_add_test(tc, intercept_arguments_refused);
	tcase_add_test(tc, interceptors_last_registered_first_then_hardware);
	tcase_add_test(tc, interceptors_run_in_the_storing_thread);
	tcase_add_test(tc, rewrite_replaces_the_packet);
	tcase_add_test(tc, marker_runs_its_callback_and_is_not_queued);
	tcase_add_test(tc, rewrite_larger_than_the_queue_runs_whole);
	suite_add_tcase(s, tc);
	TCase *cycles = tcase_create("cycles");
	tcase_set_timeout(cycles, 120);
	tcase_add_test(cycles, every_runtime_loads_the_tool_and_intercepts);
	suite_add_tcase(s, cycles);
	return s;
}

HL_CHECK_MAIN(intercept_suite)
