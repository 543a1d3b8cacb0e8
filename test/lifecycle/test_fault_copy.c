/*
 * Copies, fills and loads after a GPU memory fault that a system event
 * handler handled (issue 22, item 5, second fault).  The runtime's own
 * queues (the blit queue of hsa_memory_copy and hsa_amd_memory_fill, the
 * internal queue the loader invalidates caches on, the SDMA queue of async
 * copies) were created before the fault and KFD stopped them with every
 * queue of the GPU; hsa_memory_copy then waited forever on its blit kernel.
 * Now the error service marks those queues stopped, the next use replaces
 * them, and every synchronous wait on the GPU is bounded.  Run with SDMA on
 * (the default) and off (the async copies on the blit queue).
 *
 * The fault: one lane of vadd (built by test/loader) stores to FAULT_VA,
 * which nothing maps; a handler registered with
 * hsa_amd_register_system_event_handler takes it, so the process lives on.
 * The test waits for the handler and (hsalite) the queue's error callback,
 * which runs after the service marked the GPU's queues: no sleeps.
 *
 * On Debian's ROCr 5.2.3 (LC_PEER=rocr) only the handler is waited for (ROCr
 * reports no VM fault to a queue callback); see the branch report for what
 * ROCr does next.
 */
#include <pthread.h>
#include <stdio.h>

#include "hl_check.h"
#include "hl_hsa.h"
#include "lc_test.h"

#define FAULT_VA 0x10234ull /* unmapped on both runtimes */
#define N 65536u

static struct lc_env env;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int n_faults, n_callbacks;
static hsa_status_t callback_status;

static hsa_status_t take_fault(const hsa_amd_event_t *ev, void *data)
{
	(void)data;
	pthread_mutex_lock(&lock);
	if (ev->event_type == HSA_AMD_GPU_MEMORY_FAULT_EVENT)
		n_faults++;
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
	return HSA_STATUS_SUCCESS;
}

static void queue_error(hsa_status_t status, hsa_queue_t *q, void *data)
{
	(void)q;
	(void)data;
	pthread_mutex_lock(&lock);
	callback_status = status;
	n_callbacks++;
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
}

static uint64_t load_vadd(void)
{
	char path[4096];
	static char image[1 << 16];
	snprintf(path, sizeof(path), "%s/vadd.%s.co", getenv("HL_CO_DIR"), getenv("HL_GFX"));
	FILE *f = fopen(path, "rb");
	ck_assert_msg(f, "%s missing", path);
	size_t n = fread(image, 1, sizeof(image), f);
	fclose(f);
	ck_assert_uint_gt(n, 0);
	hsa_code_object_reader_t r;
	hsa_executable_t e;
	ck_status(hsa_code_object_reader_create_from_memory(image, n, &r), HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_create_alt(HSA_PROFILE_FULL,
					    HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL, &e),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_load_agent_code_object(e, env.gpu, r, NULL, NULL),
		  HSA_STATUS_SUCCESS);
	/* the loader invalidates the GPU's code caches on its internal queue */
	ck_status(hsa_executable_freeze(e, NULL), HSA_STATUS_SUCCESS);
	ck_status(hsa_code_object_reader_destroy(r), HSA_STATUS_SUCCESS);
	hsa_executable_symbol_t s;
	ck_status(hsa_executable_get_symbol_by_name(e, "vadd.kd", &env.gpu, &s),
		  HSA_STATUS_SUCCESS);
	uint64_t kd = 0;
	ck_status(hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &kd),
		  HSA_STATUS_SUCCESS);
	return kd;
}

/* One lane of vadd with its output at FAULT_VA: the store faults. */
static void dispatch_fault(hsa_queue_t *q, uint64_t kd)
{
	float *in = NULL;
	ck_status(hsa_amd_memory_pool_allocate(env.kernarg, 4096, 0, (void **)&in),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_agents_allow_access(1, &env.gpu, NULL, in), HSA_STATUS_SUCCESS);
	in[0] = 1.0f;
	struct {
		const float *a, *b;
		uint64_t c;
		uint32_t n;
	} __attribute__((packed)) args = { in, in, FAULT_VA, 1 };
	void *ka = (char *)in + 2048;
	memcpy(ka, &args, sizeof(args));
	hl_dispatch_1d(q, kd, ka, 64, 0, false, (hsa_signal_t){ 0 });
}

static void *pool_alloc(hsa_amd_memory_pool_t pool)
{
	void *p = NULL;
	ck_status(hsa_amd_memory_pool_allocate(pool, N, 0, &p), HSA_STATUS_SUCCESS);
	hsa_agent_t both[2] = { env.cpu, env.gpu };
	ck_status(hsa_amd_agents_allow_access(2, both, NULL, p), HSA_STATUS_SUCCESS);
	return p;
}

/* An async copy (host to device: an SDMA queue unless HSA_ENABLE_SDMA=0),
 * waited for without a bound: it completes or the test hangs. */
static void async_copy(void *dst, hsa_agent_t dst_agent, const void *src, hsa_agent_t src_agent)
{
	hsa_signal_t done;
	ck_status(hsa_signal_create(1, 0, NULL, &done), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_async_copy(dst, dst_agent, src, src_agent, N, 0, NULL, done),
		  HSA_STATUS_SUCCESS);
	ck_assert_int_eq(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
						   HSA_WAIT_STATE_BLOCKED),
			 0);
	ck_status(hsa_signal_destroy(done), HSA_STATUS_SUCCESS);
}

START_TEST(internal_queues_replaced_after_handled_fault)
{
	lc_init(&env);
	ck_status(hsa_amd_register_system_event_handler(take_fault, NULL), HSA_STATUS_SUCCESS);
	unsigned char *a = pool_alloc(env.sys), *b = pool_alloc(env.sys);
	unsigned char *v = pool_alloc(env.vram);
	for (unsigned i = 0; i < N; i++)
		a[i] = (unsigned char)(i * 7 + 1);

	/* Before the fault: the blit queue, the internal queue and the
	 * host-to-device SDMA queue exist. */
	ck_status(hsa_memory_copy(v, a, N), HSA_STATUS_SUCCESS);
	uint64_t kd = load_vadd();
	async_copy(v, env.gpu, a, env.cpu);

	hsa_queue_t *q = NULL;
	ck_status(hsa_queue_create(env.gpu, 64, HSA_QUEUE_TYPE_MULTI, queue_error, NULL,
				   UINT32_MAX, UINT32_MAX, &q),
		  HSA_STATUS_SUCCESS);
	dispatch_fault(q, kd);
	pthread_mutex_lock(&lock);
	/* hsalite: the callback runs after the service marked the GPU's
	 * queues (and after the handler) */
	while (!n_faults || (!lc_peer_rocr() && !n_callbacks))
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
	ck_assert_int_eq(n_faults, 1);
	if (!lc_peer_rocr())
		ck_status(callback_status, HSA_STATUS_ERROR_MEMORY_FAULT);

	/* After it: each call runs on a fresh queue and returns. */
	memset(b, 0, N);
	ck_status(hsa_memory_copy(b, v, N), HSA_STATUS_SUCCESS);
	for (unsigned i = 0; i < N; i++)
		ck_assert_msg(b[i] == (unsigned char)(i * 7 + 1), "b[%u] = %u, expected %u", i,
			      b[i], (unsigned char)(i * 7 + 1));
	ck_status(hsa_amd_memory_fill(v, 0x01020304u, N / 4), HSA_STATUS_SUCCESS);
	ck_status(hsa_memory_copy(b, v, N), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(b[0], 4);
	ck_assert_uint_eq(b[N - 1], 1);
	load_vadd();
	for (unsigned i = 0; i < N; i++)
		a[i] = (unsigned char)(i * 3 + 5);
	async_copy(v, env.gpu, a, env.cpu);
	memset(b, 0, N);
	ck_status(hsa_memory_copy(b, v, N), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(memcmp(a, b, N), 0);

	ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("lifecycle_fault_copy");
	TCase *tc = tcase_create("fault_copy");
	tcase_add_test(tc, internal_queues_replaced_after_handled_fault);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(suite)
