/*
 * Queue errors: a code the CP writes into queue_inactive_signal reaches the
 * queue's callback with ROCr's status, from one service thread that exists
 * while any queue exists; a NULL callback does not
 * abort; a callback may destroy its own queue.  The CP is simulated with a
 * host store to the signal (value, then the event), which is what the
 * firmware does.  Label emu.
 */
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "hl_check.h"
#include "q_test.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int calls;
static hsa_status_t last_status;
static hsa_queue_t *last_source;
static void *last_data;
static pthread_t last_thread;
static bool destroy_in_callback;
static hsa_status_t destroy_status;

static void callback(hsa_status_t status, hsa_queue_t *source, void *data)
{
	hsa_status_t ds = HSA_STATUS_SUCCESS;
	if (destroy_in_callback)
		ds = hsa_queue_destroy(source);
	pthread_mutex_lock(&lock);
	calls++;
	last_status = status;
	last_source = source;
	last_data = data;
	last_thread = pthread_self();
	destroy_status = ds;
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
}

/* Waits for the n-th callback; ctest's TIMEOUT bounds a lost one. */
static void wait_calls(int n)
{
	pthread_mutex_lock(&lock);
	while (calls < n)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
}

/* Threads named as the runtime names its error service (kfdemu runs its
 * own command-processor threads in this process too). */
static int thread_count(void)
{
	DIR *d = opendir("/proc/self/task");
	int n = 0;
	for (struct dirent *e; d && (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		char path[300], comm[32] = "";
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", e->d_name);
		FILE *f = fopen(path, "r");
		if (f) {
			if (fgets(comm, sizeof(comm), f))
				n += strcmp(comm, "hl-queue-errors\n") == 0;
			fclose(f);
		}
	}
	if (d)
		closedir(d);
	return n;
}

static void setup(void)
{
	q_init();
	calls = 0;
	destroy_in_callback = false;
}

static void teardown(void) { q_fini(); }

static hsa_queue_t *create_with_callback(void *data)
{
	hsa_queue_t *q = NULL;
	ck_status(hsa_queue_create(q_gpu, 64, HSA_QUEUE_TYPE_MULTI, callback, data, 0, 0, &q),
		  HSA_STATUS_SUCCESS);
	return q;
}

static void cp_writes(hsa_queue_t *q, int64_t code)
{
	hsa_signal_store_screlease(q_amd(q)->queue_inactive_signal, code);
}

START_TEST(each_cp_code_reaches_the_callback_with_rocr_status)
{
	static const struct { int64_t code; hsa_status_t st; } map[] = {
		{ 0x1, HSA_STATUS_ERROR_OUT_OF_RESOURCES },
		{ 0x400, HSA_STATUS_ERROR_OUT_OF_RESOURCES },
		{ 0x2, HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS },
		{ 0x4, HSA_STATUS_ERROR_INVALID_ALLOCATION },
		{ 0x8, HSA_STATUS_ERROR_INVALID_CODE_OBJECT },
		{ 0x20, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT },
		{ 0x100, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT },
		{ 0x40, HSA_STATUS_ERROR_INVALID_ARGUMENT },
		{ 0x80, (hsa_status_t)HSA_STATUS_ERROR_OUT_OF_REGISTERS },
		{ 0x20000000, (hsa_status_t)HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION },
		{ 0x40000000, (hsa_status_t)HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION },
		{ 0x80000000, HSA_STATUS_ERROR_EXCEPTION },
		{ 0x1000, HSA_STATUS_ERROR },
	};
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		int token;
		hsa_queue_t *q = create_with_callback(&token);
		cp_writes(q, map[i].code);
		wait_calls((int)i + 1);
		ck_assert_msg(last_status == map[i].st, "code %#llx: status %#x, expected %#x",
			      (unsigned long long)map[i].code, (unsigned)last_status,
			      (unsigned)map[i].st);
		ck_assert_ptr_eq(last_source, q);
		ck_assert_ptr_eq(last_data, &token);
		ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
	}
}
END_TEST

START_TEST(callback_runs_on_a_runtime_thread_once)
{
	hsa_queue_t *q = create_with_callback(NULL);
	cp_writes(q, 0x8);
	wait_calls(1);
	ck_assert(!pthread_equal(last_thread, pthread_self()));
	/* A second code on a stopped queue is not reported again. */
	cp_writes(q, 0x2);
	hsa_queue_t *other = create_with_callback(NULL);
	cp_writes(other, 0x4);
	wait_calls(2);
	ck_assert_ptr_eq(last_source, other);
	ck_assert_int_eq(calls, 2);
	ck_status(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
	ck_status(hsa_queue_destroy(other), HSA_STATUS_SUCCESS);
}
END_TEST

/* One thread while any queue lives, with or without a callback: any queue
 * can fault, and the fault must reach the system event handlers. */
START_TEST(one_service_thread_exists_while_a_queue_lives)
{
	int base = thread_count();
	hsa_queue_t *plain = q_create(64, HSA_QUEUE_TYPE_MULTI);
	ck_assert_int_eq(thread_count(), base + 1);
	hsa_queue_t *a = create_with_callback(NULL);
	ck_assert_int_eq(thread_count(), base + 1);
	ck_status(hsa_queue_destroy(plain), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(thread_count(), base + 1);
	ck_status(hsa_queue_destroy(a), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(thread_count(), base);
}
END_TEST

START_TEST(null_callback_error_does_not_abort)
{
	hsa_queue_t *plain = q_create(64, HSA_QUEUE_TYPE_MULTI);
	hsa_queue_t *watched = create_with_callback(NULL);
	/* With the service running, the callback-less queue's error is
	 * logged and the process goes on; the other queue is unaffected. */
	cp_writes(plain, 0x40000000);
	cp_writes(watched, 0x2);
	wait_calls(1);
	ck_assert_ptr_eq(last_source, watched);
	ck_status(hsa_queue_destroy(plain), HSA_STATUS_SUCCESS);
	ck_status(hsa_queue_destroy(watched), HSA_STATUS_SUCCESS);
	/* Alone: logged by the service, or at destroy if that comes first. */
	plain = q_create(64, HSA_QUEUE_TYPE_MULTI);
	cp_writes(plain, 0x8);
	ck_status(hsa_queue_destroy(plain), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(callback_may_destroy_its_own_queue)
{
	int base = thread_count();
	destroy_in_callback = true;
	hsa_queue_t *q = create_with_callback(NULL);
	cp_writes(q, 0x20);
	wait_calls(1);
	ck_status(destroy_status, HSA_STATUS_SUCCESS);
	ck_status(hsa_queue_destroy(q), HSA_STATUS_ERROR_INVALID_QUEUE);
	/* The next queue with a callback gets a working service again. */
	destroy_in_callback = false;
	hsa_queue_t *r = create_with_callback(NULL);
	cp_writes(r, 0x4);
	wait_calls(2);
	ck_assert_int_eq(last_status, HSA_STATUS_ERROR_INVALID_ALLOCATION);
	ck_status(hsa_queue_destroy(r), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(thread_count(), base);
}
END_TEST

START_TEST(shut_down_with_a_callback_queue_alive_joins_the_thread)
{
	(void)create_with_callback(NULL);
	/* teardown's hsa_shut_down destroys it and joins the service */
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("queue_errors");
	TCase *tc = tcase_create("errors");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, each_cp_code_reaches_the_callback_with_rocr_status);
	tcase_add_test(tc, callback_runs_on_a_runtime_thread_once);
	tcase_add_test(tc, one_service_thread_exists_while_a_queue_lives);
	tcase_add_test(tc, null_callback_error_does_not_abort);
	tcase_add_test(tc, callback_may_destroy_its_own_queue);
	tcase_add_test(tc, shut_down_with_a_callback_queue_alive_joins_the_thread);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(suite)
