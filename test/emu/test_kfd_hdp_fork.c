/*
 * The HDP model (emu/kfd/kemu_hdp.c) across fork(): its table and spin
 * lock are process-wide, and a thread of the parent may hold the lock
 * (handling a CPU store to a clean VRAM page, or flushing) at the moment
 * another thread forks.  The child has only the forking thread; had it
 * inherited the lock held, its first HDP step (a munmap through the shim,
 * a fault on an inherited VRAM page) would spin for ever.  The model holds
 * the lock across fork (pthread_atfork) as the kernel's fork holds
 * mmap_lock, so the child's copy is free and consistent.
 *
 * To have a thread inside the lock at the fork, the faulting thread runs
 * with KFDEMU_HDP_TRACE=1 (ctest's environment: the handler is installed,
 * and the variable read, once per process, so this is a binary of its own)
 * and its trace write blocks on a full pipe in place of stderr.  A third
 * thread drains the pipe once the fork has begun (this test's prepare
 * handler, which runs before the model's) and a while after: with the
 * model's prepare the fork waits for the lock whatever the delay; without
 * it the fork completes in that while with the lock held.
 */
#define _GNU_SOURCE
#include "emu_fixture.h"

#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>

static struct {
	uint8_t *cpu;           /* a VRAM BO's CPU mapping, clean */
	int pipe[2];
	int saved_stderr;
	_Atomic pid_t writer_tid;
	atomic_bool store_done;
	sem_t fork_began;
} F;

static void on_prepare(void)
{
	sem_post(&F.fork_began);
}

static void *store_to_clean_page(void *unused)
{
	(void)unused;
	atomic_store(&F.writer_tid, gettid());
	F.cpu[0x10] = 0x5a; /* faults: the handler traces, blocks in write(2) */
	atomic_store(&F.store_done, true);
	return NULL;
}

static void *drain_after_fork_began(void *unused)
{
	(void)unused;
	sem_wait(&F.fork_began);
	/* not needed for the fixed model (its fork waits for the lock however
	 * long this takes); it gives an unfixed model's fork time to finish
	 * with the lock held, so that the test fails there */
	nanosleep(&(struct timespec){ 0, 100 * 1000 * 1000 }, NULL);
	char buf[4096];
	while (!atomic_load(&F.store_done)) {
		if (read(F.pipe[0], buf, sizeof(buf)) < 0 && errno != EAGAIN)
			break;
	}
	return NULL;
}

/* Is thread tid blocked in write(2) to fd 2?  (/proc/<pid>/task/<tid>/
 * syscall: the number, then the arguments in hex) */
static bool blocked_writing_stderr(pid_t tid)
{
	char path[64], line[128] = "";
	snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", (int)tid);
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	bool yes = fgets(line, sizeof(line), f) && !strncmp(line, "1 0x2 ", 6);
	fclose(f);
	return yes;
}

START_TEST(fork_while_a_thread_holds_the_hdp_lock_leaves_the_child_a_free_lock)
{
	ck_assert_str_eq(getenv("KFDEMU_HDP_TRACE") ? getenv("KFDEMU_HDP_TRACE") : "", "1");
	/* the test sees where the writer blocks through procfs: fail here,
	 * before a thread blocks for good, if it cannot */
	FILE *self = fopen("/proc/thread-self/syscall", "r");
	ck_assert_msg(self != NULL, "cannot read /proc/thread-self/syscall: %s", strerror(errno));
	fclose(self);
	emu_setup();
	uint64_t va = emu_va(0x2000);
	struct kfd_args_alloc_memory_of_gpu a = {
		.va_addr = va, .size = 0x2000, .gpu_id = E.gpu_id,
		.flags = KFD_ALLOC_VRAM | KFD_ALLOC_WRITABLE | KFD_ALLOC_PUBLIC };
	ck_assert_int_eq(kio(KFD_IOCTL_ALLOC_MEMORY_OF_GPU, &a), 0);
	void *cpu = NULL;
	ck_assert_int_eq(kemu_mmap(E.m, NULL, 0x2000, PROT_READ | PROT_WRITE, MAP_SHARED, E.drm,
				   a.mmap_offset, &cpu), 0);
	F.cpu = cpu;
	ck_assert_int_eq(sem_init(&F.fork_began, 0, 0), 0);
	/* registered after the model's handlers: its prepare runs first */
	ck_assert_int_eq(pthread_atfork(on_prepare, NULL, NULL), 0);

	/* stderr becomes a full pipe */
	ck_assert_int_eq(pipe(F.pipe), 0);
	ck_assert_int_eq(fcntl(F.pipe[1], F_SETFL, O_NONBLOCK), 0);
	char junk[4096];
	memset(junk, '.', sizeof(junk));
	while (write(F.pipe[1], junk, sizeof(junk)) > 0)
		;
	while (write(F.pipe[1], junk, 1) > 0) /* the last bytes too */
		;
	ck_assert_int_eq(fcntl(F.pipe[1], F_SETFL, 0), 0);
	ck_assert_int_eq(fcntl(F.pipe[0], F_SETFL, O_NONBLOCK), 0);
	fflush(stderr);
	F.saved_stderr = dup(STDERR_FILENO);
	ck_assert_int_ge(F.saved_stderr, 0);
	ck_assert_int_eq(dup2(F.pipe[1], STDERR_FILENO), STDERR_FILENO);

	pthread_t writer, drainer;
	ck_assert_int_eq(pthread_create(&drainer, NULL, drain_after_fork_began, NULL), 0);
	ck_assert_int_eq(pthread_create(&writer, NULL, store_to_clean_page, NULL), 0);
	pid_t tid;
	while (!(tid = atomic_load(&F.writer_tid)))
		sched_yield();
	/* the writer is in the SIGSEGV handler, under the lock, in write(2) */
	while (!blocked_writing_stderr(tid)) {
		ck_assert_msg(!atomic_load(&F.store_done),
			      "the store went through without the traced handler blocking");
		sched_yield();
	}

	pid_t child = fork();
	if (child == 0) {
		/* one HDP step: an unmap the model hears of, as the shim's
		 * munmap makes it; 20 s and it is taken for a deadlock */
		signal(SIGALRM, SIG_DFL); /* Check's handler kills the group */
		alarm(20);
		kemu_cpu_unmapped(E.m, getpid(), 0x7f0000000000ull, 0x1000);
		_exit(0);
	}
	ck_assert_int_gt(child, 0);
	ck_assert_int_eq(pthread_join(writer, NULL), 0);
	ck_assert_int_eq(pthread_join(drainer, NULL), 0);
	dup2(F.saved_stderr, STDERR_FILENO);
	close(F.saved_stderr);
	close(F.pipe[0]);
	close(F.pipe[1]);

	int status = 0;
	ck_assert_int_eq(waitpid(child, &status, 0), child);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "the child's HDP step did not finish (%s %d): it inherited the lock held",
		      WIFSIGNALED(status) ? "signal" : "status",
		      WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	ck_assert_uint_eq(F.cpu[0x10], 0x5a);
	struct kemu_hdp_stats st;
	kemu_hdp_stats(E.m, &st);
	ck_assert_uint_eq(st.cpu_faults, 1);
	munmap(cpu, 0x2000);
	emu_teardown();
}
END_TEST

static Suite *hdp_fork_suite(void)
{
	Suite *s = suite_create("kfdemu_hdp_fork");
	TCase *tc = tcase_create("fork");
	tcase_add_test(tc, fork_while_a_thread_holds_the_hdp_lock_leaves_the_child_a_free_lock);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(hdp_fork_suite)
