/*
 * emu/gpu/gpu_grace.c: the host mapping of a freed BO goes only once every
 * engine section open at the free has closed.  Without it an engine that
 * translated an address just before the UNMAP could still be copying from
 * the mapping when FREE munmapped it, and the emulator died of a SEGV in
 * the interpreter's load (runtime_suballoc_off_faults, loaded runs).  The
 * "engine" here is a thread that opens and closes sections on command; the
 * unmap callback records what it was asked to unmap.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <semaphore.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hl_check.h"
#include "gpu/gpu.h"

static _Atomic unsigned unmapped;
static void *last_unmapped;

static void count_unmap(void *addr, size_t len)
{
	(void)len;
	last_unmapped = addr;
	atomic_fetch_add_explicit(&unmapped, 1, memory_order_relaxed);
}

static struct {
	sem_t go, done;
	_Atomic int cmd; /* 1 begin, 2 end, 3 end and begin again, 0 quit */
} eng;

static void *engine(void *arg)
{
	(void)arg;
	for (;;) {
		sem_wait(&eng.go);
		int c = atomic_load_explicit(&eng.cmd, memory_order_relaxed);
		if (c == 0)
			break;
		if (c == 1)
			kemu_gpu_section_begin();
		else if (c == 2)
			kemu_gpu_section_end();
		else {
			kemu_gpu_section_end();
			kemu_gpu_section_begin();
		}
		sem_post(&eng.done);
	}
	return NULL;
}

static pthread_t eng_thread;

static void engine_do(int c)
{
	atomic_store_explicit(&eng.cmd, c, memory_order_relaxed);
	sem_post(&eng.go);
	if (c)
		sem_wait(&eng.done);
}

static void setup(void)
{
	atomic_store(&unmapped, 0);
	last_unmapped = NULL;
	sem_init(&eng.go, 0, 0);
	sem_init(&eng.done, 0, 0);
	ck_assert_int_eq(pthread_create(&eng_thread, NULL, engine, NULL), 0);
}

static void teardown(void)
{
	engine_do(0);
	pthread_join(eng_thread, NULL);
	/* whatever a test left retired goes now (no section is open) */
	ck_assert_uint_eq(kemu_gpu_retired_count(), 0);
}

static char page_a[64], page_b[64];

START_TEST(with_no_section_open_the_mapping_goes_at_once)
{
	kemu_gpu_retire(page_a, sizeof(page_a), count_unmap);
	ck_assert_uint_eq(atomic_load(&unmapped), 1);
	ck_assert_ptr_eq(last_unmapped, page_a);
	ck_assert_uint_eq(kemu_gpu_retired_count(), 0);
}
END_TEST

START_TEST(an_open_section_keeps_the_mapping_until_it_closes)
{
	engine_do(1);
	kemu_gpu_retire(page_a, sizeof(page_a), count_unmap);
	ck_assert_uint_eq(atomic_load(&unmapped), 0);
	ck_assert_uint_eq(kemu_gpu_retired_count(), 1);
	ck_assert_uint_eq(atomic_load(&unmapped), 0);
	engine_do(2);
	ck_assert_uint_eq(kemu_gpu_retired_count(), 0);
	ck_assert_uint_eq(atomic_load(&unmapped), 1);
	ck_assert_ptr_eq(last_unmapped, page_a);
}
END_TEST

START_TEST(a_section_reopened_since_does_not_hold_it)
{
	engine_do(1);
	kemu_gpu_retire(page_a, sizeof(page_a), count_unmap);
	ck_assert_uint_eq(kemu_gpu_retired_count(), 1);
	/* the engine closes that section and opens another: what it does
	 * there translated after the UNMAP, so page_a may go */
	engine_do(3);
	ck_assert_uint_eq(kemu_gpu_retired_count(), 0);
	ck_assert_uint_eq(atomic_load(&unmapped), 1);
	/* a mapping retired during the new section waits for it */
	kemu_gpu_retire(page_b, sizeof(page_b), count_unmap);
	ck_assert_uint_eq(atomic_load(&unmapped), 1);
	engine_do(2);
	ck_assert_uint_eq(kemu_gpu_retired_count(), 0);
	ck_assert_uint_eq(atomic_load(&unmapped), 2);
	ck_assert_ptr_eq(last_unmapped, page_b);
}
END_TEST

START_TEST(the_next_retire_reclaims_what_is_ready)
{
	engine_do(1);
	kemu_gpu_retire(page_a, sizeof(page_a), count_unmap);
	engine_do(2);
	/* no count asked: the next retire (no section open) takes both */
	kemu_gpu_retire(page_b, sizeof(page_b), count_unmap);
	ck_assert_uint_eq(atomic_load(&unmapped), 2);
}
END_TEST

START_TEST(a_fork_child_unmaps_what_its_parent_kept)
{
	engine_do(1);
	kemu_gpu_retire(page_a, sizeof(page_a), count_unmap);
	ck_assert_uint_eq(atomic_load(&unmapped), 0);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		/* the child has no engine thread: nothing can reach page_a */
		kemu_gpu_grace_fork_child();
		_exit(atomic_load(&unmapped) == 1 && kemu_gpu_retired_count() == 0 ? 0 : 1);
	}
	int status = 0;
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* the parent's engine is still inside: kept here */
	ck_assert_uint_eq(kemu_gpu_retired_count(), 1);
	engine_do(2);
}
END_TEST

static Suite *grace_suite(void)
{
	Suite *s = suite_create("gpu_grace");
	TCase *tc = tcase_create("grace");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, with_no_section_open_the_mapping_goes_at_once);
	tcase_add_test(tc, an_open_section_keeps_the_mapping_until_it_closes);
	tcase_add_test(tc, a_section_reopened_since_does_not_hold_it);
	tcase_add_test(tc, the_next_retire_reclaims_what_is_ready);
	tcase_add_test(tc, a_fork_child_unmaps_what_its_parent_kept);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(grace_suite)
